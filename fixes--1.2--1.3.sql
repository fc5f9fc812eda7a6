/* fixes--1.2--1.3.sql — update of the fixes extension from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.3'" to load this file. \quit

-- Version 1.3 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql and each update script after it, so that no line of SQL is
-- written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 42: releases where the project tags them ----

-- release_tags (src/load/load_releases.c): which tags can be releases.
-- 'ref' (the default, 1.0's rule): the tags the ref reaches; 'all': every
-- release tag of the repository, wherever it sits (release branches: Open
-- vSwitch, OVN, Mesa), a commit belonging to the first release, in version
-- order, whose tag reaches it.  Remembered per repository like
-- stable_branches: a load without the argument keeps it.  Rows loaded before
-- this update were loaded with 'ref'.
ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN release_tags text NOT NULL DEFAULT 'ref'
    CONSTRAINT fixes_repositories_release_tags_check CHECK (release_tags IN ('ref', 'all'));

COMMENT ON COLUMN @extschema@.fixes_repositories.release_tags IS
'the release_tags setting of the last load: ''ref'', the tags the ref reaches are the releases; ''all'', every release tag of the repository, each commit in the first release (version order) whose tag reaches it';

DROP FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text);

CREATE FUNCTION @extschema@.fixes_load(
    path text,
    ref text DEFAULT 'HEAD',
    release_pattern text DEFAULT NULL,
    name text DEFAULT NULL,
    stable_branches text DEFAULT '*keep*',
    files boolean DEFAULT NULL,
    maintainers text DEFAULT NULL,
    release_tags text DEFAULT NULL,
    OUT repository text,
    OUT commits bigint,
    OUT releases integer,
    OUT edges bigint,
    OUT resolved bigint,
    OUT seconds double precision)
RETURNS record
AS 'MODULE_PATHNAME', 'fixes_load'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off;

COMMENT ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text, text) IS
'read the repository at path into the fixes_* tables (replacing an earlier load of the same name); stable_branches: a regular expression over full branch ref names whose commits not on ref form the stable scope (the default keeps the repository''s, NULL turns it off); files => true records the changed files of each commit, maintainers names the MAINTAINERS file of the ref''s tree (NULL keeps the current setting); release_tags: ''ref'' (the tags the ref reaches are the releases) or ''all'' (every release tag of the repository, for projects that tag their releases on release branches; NULL keeps the repository''s setting, ''ref'' for a new one)';

REVOKE ALL ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text, text) TO pg_read_server_files;

-- ---- end of issue 42 ----

-- ---- issue 42 (smaller items) ----
-- The CVE version wildcard (issue 42): a fixed series' entry by release is
-- {version: the fixed release, lessThanOrEqual: "<prefix>.*"}, where the
-- prefix is the series' version prefix, not its name: a series named like
-- its first release ("1.46.0", "v3.5.0") gave "1.46.0.*", a range that holds
-- none of its releases (1.46.4 read as affected).  The rule, in one place:
-- the name without a leading v before a digit, without its trailing ".0"
-- components past the second ("1.46.0" and "v1.46.0.0" are 1.46, "v6.1" is
-- 6.1, "22.11" is 22.11, "1.0.0" is 1.0, "2.6.32" is 2.6.32, "1.2.3.0" is
-- 1.2.3).
CREATE FUNCTION @extschema@.fixes_series_prefix(series text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN v OPERATOR(pg_catalog.~) '^[^.]*\.[^.]*\.'
            THEN pg_catalog.substring(v, '^[^.]*\.[^.]*')
                 OPERATOR(pg_catalog.||) pg_catalog.regexp_replace(pg_catalog.substring(v, '^[^.]*\.[^.]*(\..*)$'), '(\.0)+$', '')
            ELSE v END
  FROM (SELECT pg_catalog.regexp_replace(series, '^[vV](?=[0-9])', '') AS v) s
$fn$;

COMMENT ON FUNCTION @extschema@.fixes_series_prefix(text) IS
'the version prefix of a stable series (a mainline release''s tag): the name without a leading v before a digit and without trailing ".0" components past the second (1.46.0 -> 1.46, v3.5.0 -> 3.5, v6.1 -> 6.1, 2.6.32 -> 2.6.32); the CVE records'' lessThanOrEqual wildcard is it followed by ".*"';

-- fixes_cve_affected_query as 1.2 wrote it (issue 32, fixes--1.1--1.2.sql,
-- which explains it), but for the wildcard of a fixed series' entry
CREATE OR REPLACE FUNCTION @extschema@.fixes_cve_affected_query(nsp name, one_fix boolean)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT pg_catalog.format($q$
WITH rel AS (
    -- every release, with its place in version order across the mainline
    -- and the series (vkey)
    SELECT r.release_rank, r.tag, r.mainline,
           CASE WHEN r.mainline THEN r.release_rank::bigint << 32 | r.release_rank
                ELSE b.release_rank::bigint << 32 | 2147483648 | r.release_rank END AS vkey,
           pg_catalog.regexp_replace(r.tag, '^[vV](?=[0-9])', '') AS version
      FROM %1$s.fixes_releases r
      LEFT JOIN %1$s.fixes_releases b
        ON NOT r.mainline AND b.repository_id = r.repository_id AND b.tag = r.series AND b.mainline
     WHERE r.repository_id = $1 %4$s
), pairs AS (
    -- the distinct resolved mainline pairs (F fixes T), with F's first line
    -- naming T
    SELECT DISTINCT ON (e.fixing_commit, e.target_idx)
           pg_catalog.dense_rank() OVER (ORDER BY e.fixing_commit) AS o,
           e.fixing_idx, e.target_idx, e.line, e.fixing_commit, e.target_commit,
           e.fixing_release, e.target_release
      FROM %1$s.fixes_edges e
     WHERE e.repository_id = $1 AND e.status = 'resolved' AND e.kind = 'fixes' %2$s
       AND NOT EXISTS (SELECT FROM %1$s.fixes_commits c
                        WHERE c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
                          AND NOT c.mainline)
       AND NOT EXISTS (SELECT FROM %1$s.fixes_commits c
                        WHERE c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
                          AND NOT c.mainline)
     ORDER BY e.fixing_commit, e.target_idx, e.line
), ser AS (
    -- the series rows that need more than the pair: those where the bug
    -- came in with a stable release (a backport of T) or that are fixed.
    -- The commit that brought the bug into the series: T when T is in the
    -- series' mainline release, else the backport of T in the release it
    -- came in with (the smallest id when that release holds several)
    SELECT u.fixing_idx, u.o, u.line, u.series_rank, u.introduced_rank,
           u.fixed_rank, u.fix_backport_idx,
           CASE WHEN u.introduced_rank = u.series_rank THEN u.target_commit
                ELSE (SELECT pg_catalog.min((SELECT bc.commit_id FROM %1$s.fixes_commits bc
                                              WHERE bc.repository_id = b.repository_id
                                                AND bc.commit_idx = b.commit_idx
                                                AND bc.release = (SELECT i.tag FROM %1$s.fixes_releases i
                                                                   WHERE i.repository_id = $1
                                                                     AND i.release_rank = u.introduced_rank)))
                        FROM %1$s.fixes_backports b
                       WHERE b.repository_id = $1 AND b.upstream_idx = u.target_idx
                         AND b.status = 'resolved') END
               AS brought_by
      FROM (SELECT p.fixing_idx, p.o, p.target_idx, p.line, p.target_commit,
                   unnest(fa.series_ranks) AS series_rank, unnest(fa.introduced_ranks) AS introduced_rank,
                   unnest(fa.fixed_ranks) AS fixed_rank, unnest(fa.fix_backport_idxs) AS fix_backport_idx
              FROM pairs p
              JOIN %1$s.fixes_affected_series fa
                ON fa.repository_id = $1 AND fa.fixing_idx = p.fixing_idx AND fa.target_idx = p.target_idx
             WHERE NOT (fa.introduced_ranks = fa.series_ranks
                        AND pg_catalog.cardinality(pg_catalog.array_positions(fa.fixed_ranks, NULL))
                            = pg_catalog.cardinality(fa.fixed_ranks))) u
     WHERE u.introduced_rank IS DISTINCT FROM u.series_rank OR u.fixed_rank IS NOT NULL
), plain AS (
    -- per pair, the first series of its plain rows (T in the series'
    -- mainline release, not fixed there): every series of a row whose
    -- elements are all plain, else those of its elements that are
    SELECT m.fixing_idx, m.o, m.line, m.target_commit,
           pg_catalog.min(m.series_rank) AS series_rank
      FROM (SELECT p.fixing_idx, p.target_idx, p.o, p.line, p.target_commit,
                   CASE WHEN fa.introduced_ranks = fa.series_ranks
                             AND pg_catalog.cardinality(pg_catalog.array_positions(fa.fixed_ranks, NULL))
                                 = pg_catalog.cardinality(fa.fixed_ranks)
                        THEN (SELECT pg_catalog.min(x) FROM unnest(fa.series_ranks) x)
                        ELSE (SELECT pg_catalog.min(u.series_rank)
                                FROM (SELECT unnest(fa.series_ranks) AS series_rank,
                                             unnest(fa.introduced_ranks) AS introduced_rank,
                                             unnest(fa.fixed_ranks) AS fixed_rank) u
                               WHERE u.introduced_rank = u.series_rank AND u.fixed_rank IS NULL) END
                       AS series_rank
              FROM pairs p
              JOIN %1$s.fixes_affected_series fa
                ON fa.repository_id = $1 AND fa.fixing_idx = p.fixing_idx AND fa.target_idx = p.target_idx
            OFFSET 0) m
     WHERE m.series_rank IS NOT NULL
     GROUP BY m.fixing_idx, m.target_idx, m.o, m.line, m.target_commit
), fixes AS (
    -- per fix: its first release with the bug (first_key, NULL: it shipped
    -- nowhere), from the places that shipped it (the mainline row's
    -- introduced_in, each series row's), and the mainline release of its
    -- earliest target (target_key)
    SELECT a.fixing_idx, pg_catalog.min(a.o) AS o,
           pg_catalog.min(a.fixing_release) AS fixing_release,
           pg_catalog.min(a.place) AS first_key, pg_catalog.min(a.target_key) AS target_key
      FROM (SELECT p.fixing_idx, p.o, p.fixing_release,
                   CASE WHEN f.release_rank IS NULL OR f.release_rank > t.release_rank THEN t.vkey END AS place,
                   t.vkey AS target_key
              FROM pairs p
              LEFT JOIN rel t ON t.tag = p.target_release AND t.mainline
              LEFT JOIN rel f ON f.tag = p.fixing_release
            UNION ALL
            SELECT s.fixing_idx, NULL, NULL,
                   CASE WHEN s.introduced_rank = s.series_rank
                        THEN s.series_rank::bigint << 32 | s.series_rank
                        ELSE s.series_rank::bigint << 32 | 2147483648 | s.introduced_rank END, NULL
              FROM ser s
            UNION ALL
            SELECT l.fixing_idx, NULL, NULL, l.series_rank::bigint << 32 | l.series_rank, NULL
              FROM plain l) a
     GROUP BY a.fixing_idx
), entries AS (
    -- part 0, by commit (form 0: version v1, lessThan v2 or none): the
    -- mainline pair of each target, then each series in version order;
    -- part 1, by release: form 1 the first release with the bug, 2 "0" up
    -- to it (or to the first target's release), 3 a fixed series (v1 up to
    -- the series v2), 4 the mainline release with the fix
    SELECT p.o, p.fixing_commit, 0 AS part, p.line::bigint AS k, 0 AS form,
           p.target_commit AS v1, p.fixing_commit AS v2
      FROM pairs p
    UNION ALL
    SELECT d.o, NULL, 0, d.k, 0, d.version,
           COALESCE(fb.commit_id, (SELECT c.commit_id FROM %1$s.fixes_commits c
                                    WHERE c.repository_id = $1 AND c.commit_idx = d.less_idx))
      FROM (SELECT s.o,
                   pg_catalog.min(4611686018427387904 | s.series_rank::bigint << 31 | s.line) AS k,
                   s.brought_by AS version,
                   CASE WHEN s.fixed_rank IS NOT NULL THEN s.fix_backport_idx END AS less_idx
              FROM ser s
             GROUP BY 1, 3, 4) d
      -- the backport that fixed the series is a stable commit: the stable
      -- commits in one pass (by the partial index) cost less than a look-up
      -- each; the look-up stays for any other
      LEFT JOIN %1$s.fixes_commits fb
        ON fb.repository_id = $1 AND fb.commit_idx = d.less_idx AND NOT fb.mainline
    UNION ALL
    SELECT l.o, NULL, 0, 4611686018427387904 | l.series_rank::bigint << 31 | l.line, 0,
           l.target_commit, NULL
      FROM plain l
    UNION ALL
    SELECT f.o, NULL, 1, 0::bigint, 1, r.version, NULL
      FROM fixes f JOIN rel r ON r.vkey = f.first_key
    UNION ALL
    SELECT f.o, NULL, 1, 1::bigint << 32, 2, r.version, NULL
      FROM fixes f JOIN rel r ON r.vkey = COALESCE(f.first_key, f.target_key)
    UNION ALL
    SELECT s.o, NULL, 1, pg_catalog.min(2::bigint << 32 | s.series_rank), 3,
           x.version, %1$s.fixes_series_prefix(b.tag) || '.*'
      FROM (SELECT DISTINCT z.o, z.series_rank, z.fixed_rank
              FROM ser z WHERE z.fixed_rank IS NOT NULL) s
      JOIN rel x ON x.release_rank = s.fixed_rank
      JOIN rel b ON b.release_rank = s.series_rank
     GROUP BY s.o, x.version, b.tag
    UNION ALL
    SELECT f.o, NULL, 1, 3::bigint << 32, 4, r.version, NULL
      FROM fixes f JOIN rel r ON r.tag = f.fixing_release AND r.mainline
), files AS (
    -- the paths each fix changed: %3$s
), arrays AS (
    -- the entries as JSON text (parsed once into jsonb below: a third
    -- cheaper than building each entry as jsonb; ids are hex digits, names
    -- go through to_json)
    SELECT e.o, pg_catalog.min(e.fixing_commit) AS fixing_commit,
           pg_catalog.string_agg(
               '{"version": ' || COALESCE(pg_catalog.to_json(e.v1)::text, 'null')
               || CASE WHEN e.v2 IS NULL THEN '' ELSE ', "lessThan": ' || pg_catalog.to_json(e.v2)::text END
               || ', "status": "affected", "versionType": "git"}',
               ', ' ORDER BY e.k) FILTER (WHERE e.part = 0) AS cv,
           pg_catalog.string_agg(
               '{"version": '
               || CASE e.form
                  WHEN 1 THEN pg_catalog.to_json(e.v1)::text || ', "status": "affected"}'
                  WHEN 2 THEN '"0", "lessThan": ' || pg_catalog.to_json(e.v1)::text
                              || ', "status": "unaffected", "versionType": "semver"}'
                  WHEN 3 THEN pg_catalog.to_json(e.v1)::text || ', "lessThanOrEqual": '
                              || pg_catalog.to_json(e.v2)::text
                              || ', "status": "unaffected", "versionType": "semver"}'
                  ELSE pg_catalog.to_json(e.v1)::text || ', "lessThanOrEqual": "*"'
                       || ', "status": "unaffected", "versionType": "original_commit_for_fix"}' END,
               ', ' ORDER BY e.k, e.v1 COLLATE "C", e.v2 COLLATE "C") FILTER (WHERE e.part = 1) AS rv
      FROM entries e
     GROUP BY e.o
)
SELECT a.fixing_commit,
       ('[{' || h.head || '"defaultStatus": "unaffected", "versions": [' || a.cv || ']}, {'
        || h.head || CASE WHEN a.rv IS NULL THEN '"defaultStatus": "unaffected"}]'
                          ELSE '"defaultStatus": "affected", "versions": [' || a.rv || ']}]' END
       )::jsonb
  FROM arrays a
  LEFT JOIN files fl ON fl.o = a.o
 CROSS JOIN LATERAL (
       SELECT '"vendor": ' || pg_catalog.to_json($3)::text || ', "product": '
              || pg_catalog.to_json($4)::text || ', '
              || CASE WHEN $5 IS NULL THEN ''
                      ELSE '"repo": ' || pg_catalog.to_json($5)::text || ', ' END
              || CASE WHEN fl.paths IS NULL THEN ''
                      ELSE '"programFiles": ' || fl.paths::text || ', ' END AS head) h
 ORDER BY a.o
$q$, pg_catalog.quote_ident(nsp), CASE WHEN one_fix THEN 'AND e.fixing_idx = $2' ELSE '' END,
       -- one fix: its rows by the index on fixes_commit_files; every fix: one
       -- pass over the repository's rows (117,000 look-ups would cost more)
       CASE WHEN NOT one_fix THEN $f$
    SELECT x.o, pg_catalog.jsonb_agg(x.path ORDER BY x.path) AS paths
      FROM (SELECT DISTINCT f.o, cf.path COLLATE "C" AS path
              FROM fixes f
              JOIN fixes_commit_files cf
                ON cf.repository_id = $1 AND cf.commit_idx = f.fixing_idx) x
     WHERE (SELECT r.files FROM fixes_repositories r WHERE r.repository_id = $1)
     GROUP BY x.o$f$
       ELSE $f$
    SELECT f.o,
           (SELECT pg_catalog.jsonb_agg(DISTINCT cf.path COLLATE "C" ORDER BY cf.path COLLATE "C")
              FROM fixes_commit_files cf
             WHERE cf.repository_id = $1 AND cf.commit_idx = f.fixing_idx) AS paths
      FROM fixes f
     WHERE (SELECT r.files FROM fixes_repositories r WHERE r.repository_id = $1)$f$ END,
       -- one fix: of the stable releases (thousands in a kernel-sized
       -- history), only those its series rows name
       CASE WHEN NOT one_fix THEN '' ELSE $f$
       AND (r.mainline
            OR r.release_rank IN (SELECT unnest(fa.introduced_ranks || fa.fixed_ranks)
                                    FROM fixes_affected_series fa
                                   WHERE fa.repository_id = $1 AND fa.fixing_idx = $2))$f$ END)
$fn$;

-- fixes_per_stable_release gains release_rank (issue 42), at its end: the
-- release's rank in fixes_releases, as in fixes_per_release and
-- fixes_affected_releases, so that ORDER BY series, release_rank is version
-- order (ORDER BY release put 1.48.10 before 1.48.2) and the rows join the
-- other views by it
CREATE OR REPLACE VIEW @extschema@.fixes_per_stable_release AS
SELECT p.name AS repository,
       r.series,
       r.tag AS release,
       r.released_at,
       r.commits,
       r.backports,
       r.bugs_fixed,
       r.regressions_introduced,
       r.known_bugs,
       r.release_rank
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 WHERE NOT r.mainline
 ORDER BY p.name, r.series, r.release_rank;

-- fixes_unresolved gains stable_commit, upstream_commit and upstream_method
-- (issue 42), at its end: a mainline Fixes: line that names a commit of the
-- stable scope (OVN's and NetworkManager's name a backport's id) is not
-- resolved, because nothing of the mainline depends on the stable scope
-- (a load with stable branches gives the mainline rows of a load without);
-- the view says which stable commit the line names (the only one whose id
-- starts with the abbrev) and, when that commit's resolved backport lines
-- agree on one mainline commit, which (fixes_backports: by its line, its
-- subject or an override), so that one INSERT into fixes_overrides resolves
-- them (README, "Stable branches")
CREATE OR REPLACE VIEW @extschema@.fixes_unresolved AS
SELECT p.name AS repository,
       e.fixing_commit,
       c.subject AS fixing_subject,
       c.committed_at AS fixed_at,
       e.line,
       e.abbrev,
       e.quoted_subject,
       e.status,
       e.candidates,
       e.raw,
       s.stable_commit,
       s.upstream_commit,
       s.upstream_method
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_commits c
    ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
  JOIN @extschema@.fixes_repositories p ON p.repository_id = e.repository_id
  LEFT JOIN LATERAL (
       -- the stable commits whose id starts with the abbrev: a range of the
       -- index on commit_id (collation "C": ids and abbrevs are lower-case
       -- hex), the other repositories' and the mainline's dropped after it
       -- (OFFSET 0: never a scan of the repository's stable commits per line)
       SELECT m.commit_id AS stable_commit, u.upstream_commit, u.upstream_method
         FROM (SELECT pg_catalog.min(sc.commit_idx) AS commit_idx,
                      pg_catalog.min(sc.commit_id) AS commit_id, pg_catalog.count(*) AS n
                 FROM (SELECT x.repository_id, x.commit_idx, x.commit_id, x.mainline
                         FROM @extschema@.fixes_commits x
                        WHERE x.commit_id >= (e.abbrev COLLATE "C")
                          AND x.commit_id < (e.abbrev || 'g' COLLATE "C")
                       OFFSET 0) sc
                WHERE sc.repository_id = e.repository_id AND NOT sc.mainline) m
         LEFT JOIN LATERAL (
              SELECT pg_catalog.min(uc.commit_id) AS upstream_commit,
                     pg_catalog.min(b.method) AS upstream_method
                FROM @extschema@.fixes_backports b
                JOIN @extschema@.fixes_commits uc
                  ON uc.repository_id = b.repository_id AND uc.commit_idx = b.upstream_idx
               WHERE b.repository_id = e.repository_id AND b.commit_idx = m.commit_idx
                 AND b.status = 'resolved'
              HAVING pg_catalog.count(DISTINCT b.upstream_idx) = 1) u ON true
        WHERE m.n = 1 AND e.status = 'not_found') s ON true
 WHERE e.status IN ('ambiguous', 'not_found') AND e.kind = 'fixes' AND c.mainline
 ORDER BY p.name, c.committed_at DESC, e.fixing_commit, e.line;

COMMENT ON COLUMN @extschema@.fixes_unresolved.stable_commit IS
'a not_found line whose abbrev is the prefix of exactly one stable commit (with stable_branches): that commit';
COMMENT ON COLUMN @extschema@.fixes_unresolved.upstream_commit IS
'the mainline commit that stable_commit backports, when its resolved backport lines (fixes_backports) name one; a row of fixes_overrides with it resolves the line';
COMMENT ON COLUMN @extschema@.fixes_unresolved.upstream_method IS
'how fixes_backports found upstream_commit: id (the backport line), subject or override';

-- ---- end of issue 42 (smaller items) ----

-- ---- issue 43: a refresh equals a cold load ----
-- ---- end of issue 43 ----

-- ---- issue 44: one look-up of the extension's schema ----
-- The schema of the extension, for the functions of these scripts that name
-- its tables: the schema this function lives in, by oid at each call, the
-- look-up of fixes_load and fixes_unload (src/db/extension_schema.c).  A
-- PL/pgSQL body is text whose names are looked up when it runs, so after
-- ALTER SCHEMA ... RENAME it could name neither the tables nor this
-- function: a function that needs the schema is a function of SQL with a
-- standard body (BEGIN ATOMIC), bound by oid when it is created to this one
-- and to the PL/pgSQL function it passes the schema to (fixes_*_in_schema).
CREATE FUNCTION @extschema@.fixes_extension_schema()
RETURNS name
AS 'MODULE_PATHNAME', 'fixes_extension_schema_name'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.fixes_extension_schema() IS
'the schema of extension fixes, as its functions find it: the one they live in, whatever its name now';
-- ---- end of issue 44 ----

-- ---- issue 46: shards ----
-- Many repositories across servers (docs/shards.md).  Each shard is an
-- ordinary installation that loads the repositories on its own disk; the
-- coordinator attaches each shard with fixes_attach_shard(server), which
-- makes a foreign table (postgres_fdw) of each of the shard's tables that
-- hold rows of repositories a child, by table inheritance, of the
-- coordinator's table of the same name.  A query of the coordinator's tables
-- then reads its own rows and every attached shard's, and so every view and
-- function over them does, unchanged; each child carries a CHECK on the
-- shard's range of repository ids, so that a query naming one id skips the
-- other shards (constraint exclusion).  The loader names its tables with
-- ONLY (src/load/*.c): a load on the coordinator never reads or writes a
-- shard.
--
-- For whoever writes a later update script: ALTER TABLE on a base table
-- recurses into the foreign children of a coordinator (a new column is
-- added to the foreign tables' definitions: the shards are updated first),
-- and an UPDATE or DELETE in an update script must name its table with
-- ONLY, or it would write into the shards.

-- The range of repository ids this server gives (one row at most): set by
-- fixes_set_repository_id_range() before the first load, so that the ids of
-- different servers never meet.  A database without it gives ids from 1 up,
-- as before.
CREATE TABLE @extschema@.fixes_repository_id_range (
    singleton   boolean NOT NULL DEFAULT true PRIMARY KEY CHECK (singleton),
    lo          integer NOT NULL CHECK (lo >= 1),
    hi          integer NOT NULL,
    CHECK (lo <= hi)
);

COMMENT ON TABLE @extschema@.fixes_repository_id_range IS
'the range of repository ids this server gives to new repositories (fixes_set_repository_id_range); no row: from 1 up';

-- The shards attached to this server (a coordinator): the schema that holds
-- the foreign tables of each, and the shard's range of repository ids.
CREATE TABLE @extschema@.fixes_shards (
    server          name PRIMARY KEY,
    schema_name     name NOT NULL UNIQUE,
    remote_schema   name NOT NULL,
    id_lo           integer NOT NULL,
    id_hi           integer NOT NULL,
    attached_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (id_lo >= 1 AND id_lo <= id_hi)
);

COMMENT ON TABLE @extschema@.fixes_shards IS
'the shards attached by fixes_attach_shard: the foreign server, the schema of its foreign tables here, the extension''s schema there, and the shard''s range of repository ids';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_repository_id_range', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_shards', '');

-- renumber => true gives the repositories whose ids lie outside the range
-- new ids from it, in the order of their old ids: each is an UPDATE of its
-- rows in every table (a rewrite of them), under the lock its loads take.
-- Two servers that loaded before 1.3 both gave ids from 1: one of them
-- renumbers to become a shard of the other's coordinator.
CREATE FUNCTION @extschema@.fixes_set_repository_id_range_in_schema(nsp name, lo integer, hi integer, renumber boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'fixes');
    seq text;
    used_lo integer;
    used_hi integer;
    inside integer;
    outside integer;
    last bigint;
    called boolean;
    shard name;
    rep record;
    t record;
    new_id integer;
    cols text;
    vals text;
BEGIN
    -- the extension's schema when the function runs (issue 28); the SET
    -- clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    IF lo < 1 OR hi < lo THEN
        RAISE EXCEPTION 'invalid range of repository ids: % to %', lo, hi
              USING ERRCODE = 'invalid_parameter_value',
                    DETAIL = 'The range is lo to hi, both included, with 1 <= lo <= hi.';
    END IF;
    -- a load that registers a repository inserts into fixes_repositories: it
    -- waits, and so does this function for a load under way
    LOCK TABLE ONLY fixes_repositories IN SHARE ROW EXCLUSIVE MODE;
    SELECT pg_catalog.min(r.repository_id), pg_catalog.max(r.repository_id),
           pg_catalog.max(r.repository_id) FILTER (WHERE r.repository_id BETWEEN fixes_set_repository_id_range_in_schema.lo
                                                                           AND fixes_set_repository_id_range_in_schema.hi),
           pg_catalog.count(*) FILTER (WHERE r.repository_id NOT BETWEEN fixes_set_repository_id_range_in_schema.lo
                                                                      AND fixes_set_repository_id_range_in_schema.hi)
      INTO used_lo, used_hi, inside, outside
      FROM ONLY fixes_repositories r;
    IF outside > 0 AND NOT renumber THEN
        RAISE EXCEPTION 'repositories with ids outside % to % are loaded on this server', lo, hi
              USING ERRCODE = 'object_in_use',
                    DETAIL = pg_catalog.format('The ids in use are %s to %s; loaded repositories keep their ids.',
                                               used_lo, used_hi),
                    HINT = 'Choose a range that contains them, or give them new ids from the range: renumber => true.';
    END IF;
    IF outside > 0 AND outside::bigint > hi::bigint - lo + 1
                                         - (SELECT pg_catalog.count(*) FROM ONLY fixes_repositories x
                                             WHERE x.repository_id BETWEEN fixes_set_repository_id_range_in_schema.lo
                                                                       AND fixes_set_repository_id_range_in_schema.hi) THEN
        RAISE EXCEPTION 'the range % to % is too small for the % repositories loaded on this server', lo, hi,
                        (SELECT pg_catalog.count(*) FROM ONLY fixes_repositories)
              USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT s.server INTO shard FROM fixes_shards s
     WHERE s.id_lo <= fixes_set_repository_id_range_in_schema.hi AND s.id_hi >= fixes_set_repository_id_range_in_schema.lo
     ORDER BY s.server LIMIT 1;
    IF shard IS NOT NULL THEN
        RAISE EXCEPTION 'the range % to % meets the range of shard "%"', lo, hi, shard
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'fixes_shards lists the ranges of the attached shards.';
    END IF;
    seq := pg_catalog.pg_get_serial_sequence(pg_catalog.format('%I.fixes_repositories', nsp), 'repository_id');
    EXECUTE pg_catalog.format('SELECT last_value, is_called FROM %s', seq) INTO last, called;
    EXECUTE pg_catalog.format('ALTER TABLE %I.fixes_repositories ALTER COLUMN repository_id '
                              'SET MINVALUE %s SET MAXVALUE %s SET START WITH %s RESTART WITH %s', nsp, lo, hi, lo, lo);
    -- the next id: past the ids in use in the range, and past the ids the
    -- sequence gave already when they lie in it (an unloaded repository's id
    -- is not given again)
    IF called AND last BETWEEN lo AND hi THEN
        inside := GREATEST(inside, last::integer);
    END IF;
    IF inside IS NOT NULL THEN
        PERFORM pg_catalog.setval(seq, inside, true);
    END IF;
    IF outside > 0 THEN
        -- the columns of fixes_repositories, the id given anew
        SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum),
               pg_catalog.string_agg(CASE WHEN a.attname = 'repository_id' THEN '$1'
                                          ELSE 'd.' || pg_catalog.quote_ident(a.attname) END, ', ' ORDER BY a.attnum)
          INTO cols, vals
          FROM pg_catalog.pg_attribute a
         WHERE a.attrelid = pg_catalog.format('%I.fixes_repositories', nsp)::pg_catalog.regclass
           AND a.attnum > 0 AND NOT a.attisdropped;
        FOR rep IN SELECT x.repository_id, x.name FROM ONLY fixes_repositories x
                  WHERE x.repository_id NOT BETWEEN fixes_set_repository_id_range_in_schema.lo AND fixes_set_repository_id_range_in_schema.hi
                  ORDER BY x.repository_id
        LOOP
            -- the lock of fixes_load() and fixes_unload() on the repository
            PERFORM pg_catalog.pg_advisory_xact_lock(1718188133, pg_catalog.hashtext(rep.name));
            new_id := pg_catalog.nextval(seq);
            FOR t IN
                SELECT c.relname
                  FROM pg_catalog.pg_depend d
                  JOIN pg_catalog.pg_class c ON c.oid = d.objid
                 WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
                   AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                   AND d.refobjid = ext AND d.deptype = 'e'
                   AND c.relkind = 'r' AND c.relname <> 'fixes_repositories'
                   AND EXISTS (SELECT FROM pg_catalog.pg_attribute a
                                WHERE a.attrelid = c.oid AND a.attname = 'repository_id'
                                  AND a.attnum > 0 AND NOT a.attisdropped)
                 ORDER BY c.relname
            LOOP
                EXECUTE pg_catalog.format('UPDATE ONLY %I.%I SET repository_id = $1 WHERE repository_id = $2',
                                          nsp, t.relname)
                  USING new_id, rep.repository_id;
            END LOOP;
            -- an identity column GENERATED ALWAYS takes no UPDATE: the row
            -- goes and comes back with its new id
            EXECUTE pg_catalog.format('WITH d AS (DELETE FROM ONLY %1$I.fixes_repositories WHERE repository_id = $2 RETURNING *) '
                                      'INSERT INTO %1$I.fixes_repositories (%2$s) OVERRIDING SYSTEM VALUE SELECT %3$s FROM d',
                                      nsp, cols, vals)
              USING new_id, rep.repository_id;
            RAISE NOTICE 'repository "%": id % is now %', rep.name, rep.repository_id, new_id;
        END LOOP;
    END IF;
    INSERT INTO fixes_repository_id_range AS x (lo, hi)
    VALUES (fixes_set_repository_id_range_in_schema.lo, fixes_set_repository_id_range_in_schema.hi)
    ON CONFLICT (singleton) DO UPDATE SET lo = excluded.lo, hi = excluded.hi;
END
$$;

-- nsp is looked up by the function below, which is bound to
-- fixes_extension_schema() and to this one by oid (issue 44)
CREATE FUNCTION @extschema@.fixes_set_repository_id_range(lo integer, hi integer, renumber boolean DEFAULT false)
RETURNS void
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT @extschema@.fixes_set_repository_id_range_in_schema(@extschema@.fixes_extension_schema(), lo, hi, renumber);
END;

COMMENT ON FUNCTION @extschema@.fixes_set_repository_id_range(integer, integer, boolean) IS
'set the range of repository ids (lo to hi, both included) that this server gives to new repositories, so that the ids of shards never meet; the repositories loaded already keep their ids, which must lie in it, unless renumber => true gives those outside new ids from it (their rows rewritten)';

REVOKE ALL ON FUNCTION @extschema@.fixes_set_repository_id_range(integer, integer, boolean) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.fixes_set_repository_id_range_in_schema(name, integer, integer, boolean) IS
'fixes_set_repository_id_range in the extension''s schema nsp, which fixes_set_repository_id_range passes';

REVOKE ALL ON FUNCTION @extschema@.fixes_set_repository_id_range_in_schema(name, integer, integer, boolean) FROM PUBLIC;

CREATE FUNCTION @extschema@.fixes_attach_shard_in_schema(nsp name, server name, remote_schema name)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'fixes');
    version text := (SELECT e.extversion FROM pg_catalog.pg_extension e WHERE e.extname = 'fixes');
    sch text := 'fixes_shard_' || server;
    opts text[];
    theirs text;
    rsch name;
    my_lo integer;
    my_hi integer;
    lo integer;
    hi integer;
    other name;
    t record;
    n bigint;
    outside bigint;
    names text;
BEGIN
    -- the extension's schema when the function runs (issue 28); the SET
    -- clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    IF server IS NULL THEN
        RAISE EXCEPTION 'the server is NULL' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname = 'postgres_fdw') THEN
        RAISE EXCEPTION 'extension "postgres_fdw" is not installed'
              USING ERRCODE = 'undefined_object',
                    HINT = 'CREATE EXTENSION postgres_fdw, a server and a user mapping (docs/shards.md).';
    END IF;
    SELECT s.srvoptions INTO opts
      FROM pg_catalog.pg_foreign_server s
      JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw
     WHERE s.srvname = fixes_attach_shard_in_schema.server AND w.fdwname = 'postgres_fdw';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'server "%" is not a foreign server of postgres_fdw', server
              USING ERRCODE = 'undefined_object',
                    HINT = 'CREATE SERVER ... FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., port ..., dbname ...).';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_user_mappings m
                    WHERE m.srvname = fixes_attach_shard_in_schema.server
                      AND (m.umuser = 0 OR m.umuser = (SELECT r.oid FROM pg_catalog.pg_roles r
                                                        WHERE r.rolname = current_user))) THEN
        RAISE EXCEPTION 'no user mapping for role "%" on server "%"', current_user, server
              USING ERRCODE = 'undefined_object',
                    HINT = 'CREATE USER MAPPING FOR ... SERVER ... OPTIONS (user ..., password ...): a role of the shard that may read its tables.';
    END IF;
    IF EXISTS (SELECT FROM fixes_shards s WHERE s.server = fixes_attach_shard_in_schema.server) THEN
        RAISE EXCEPTION 'server "%" is attached already', server
              USING ERRCODE = 'duplicate_object',
                    HINT = 'Nothing needs attaching again after a load on the shard; fixes_detach_shard() detaches it.';
    END IF;
    SELECT r.lo, r.hi INTO my_lo, my_hi FROM fixes_repository_id_range r;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this server has no range of repository ids'
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    DETAIL = 'The repository ids of the coordinator and of every shard must never meet.',
                    HINT = 'SELECT fixes_set_repository_id_range(lo, hi) here first, a range that holds the ids in use and none of a shard''s.';
    END IF;
    IF pg_catalog.octet_length(sch) > 63 THEN
        RAISE EXCEPTION 'server name "%" is too long', server
              USING ERRCODE = 'name_too_long',
                    DETAIL = pg_catalog.format('Its foreign tables go into schema "fixes_shard_<server>", at most %s bytes.', 63);
    END IF;
    IF EXISTS (SELECT FROM pg_catalog.pg_namespace x WHERE x.nspname = sch) THEN
        RAISE EXCEPTION 'schema "%" exists already', sch
              USING ERRCODE = 'duplicate_schema',
                    HINT = 'fixes_attach_shard() puts the shard''s foreign tables in a schema of that name: drop or rename it.';
    END IF;
    EXECUTE pg_catalog.format('CREATE SCHEMA %I', sch);

    -- the shard's version and schema of the extension (the first connection:
    -- a shard that does not answer is an ERROR naming the server here)
    EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.fixes_shard_extension (extname name, extversion text, extnamespace oid) '
                              'SERVER %I OPTIONS (schema_name ''pg_catalog'', table_name ''pg_extension'')', sch, server);
    EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.fixes_shard_namespace (oid oid, nspname name) '
                              'SERVER %I OPTIONS (schema_name ''pg_catalog'', table_name ''pg_namespace'')', sch, server);
    EXECUTE pg_catalog.format('SELECT e.extversion, x.nspname FROM %1$I.fixes_shard_extension e '
                              'JOIN %1$I.fixes_shard_namespace x ON x.oid = e.extnamespace WHERE e.extname = ''fixes''', sch)
       INTO theirs, rsch;
    EXECUTE pg_catalog.format('DROP FOREIGN TABLE %1$I.fixes_shard_extension, %1$I.fixes_shard_namespace', sch);
    IF theirs IS NULL THEN
        RAISE EXCEPTION 'extension fixes is not installed on server "%"', server
              USING ERRCODE = 'undefined_object',
                    HINT = 'A shard is an ordinary installation: CREATE EXTENSION fixes there (in the database the server names).';
    END IF;
    IF theirs <> version THEN
        RAISE EXCEPTION 'server "%" has fixes %, this server %', server, theirs, version
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = 'ALTER EXTENSION fixes UPDATE on the shards first, then on the coordinator (docs/shards.md).';
    END IF;
    rsch := COALESCE(remote_schema, rsch);

    -- the shard's range of ids: set, and meeting no other
    EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.fixes_shard_id_range (lo integer, hi integer) '
                              'SERVER %I OPTIONS (schema_name %L, table_name ''fixes_repository_id_range'')',
                              sch, server, rsch);
    EXECUTE pg_catalog.format('SELECT r.lo, r.hi FROM %I.fixes_shard_id_range r', sch) INTO lo, hi;
    EXECUTE pg_catalog.format('DROP FOREIGN TABLE %I.fixes_shard_id_range', sch);
    IF lo IS NULL THEN
        RAISE EXCEPTION 'server "%" has no range of repository ids', server
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = 'On the shard: SELECT fixes_set_repository_id_range(lo, hi), a range that meets no other server''s.';
    END IF;
    IF lo <= my_hi AND hi >= my_lo THEN
        RAISE EXCEPTION 'the repository ids of server "%" (% to %) meet this server''s (% to %)',
                        server, lo, hi, my_lo, my_hi
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Give each server a range of its own with fixes_set_repository_id_range().';
    END IF;
    SELECT s.server INTO other FROM fixes_shards s
     WHERE s.id_lo <= hi AND s.id_hi >= lo ORDER BY s.server LIMIT 1;
    IF other IS NOT NULL THEN
        RAISE EXCEPTION 'the repository ids of server "%" (% to %) meet those of shard "%"', server, lo, hi, other
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Give each server a range of its own with fixes_set_repository_id_range().';
    END IF;

    -- a foreign table for each table of the extension that holds rows of
    -- repositories (a repository_id column), a child of it; async_capable
    -- unless the server says otherwise: the shards are scanned concurrently
    FOR t IN
        SELECT c.relname
          FROM pg_catalog.pg_depend d
          JOIN pg_catalog.pg_class c ON c.oid = d.objid
         WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
           AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
           AND d.refobjid = ext AND d.deptype = 'e'
           AND c.relkind = 'r' AND c.relnamespace = (SELECT x.oid FROM pg_catalog.pg_namespace x WHERE x.nspname = nsp)
           AND EXISTS (SELECT FROM pg_catalog.pg_attribute a
                        WHERE a.attrelid = c.oid AND a.attname = 'repository_id'
                          AND a.attnum > 0 AND NOT a.attisdropped)
         ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.%I () INHERITS (%I.%I) SERVER %I '
                                  'OPTIONS (schema_name %L, table_name %L%s)',
                                  sch, t.relname, nsp, t.relname, server, rsch, t.relname,
                                  CASE WHEN EXISTS (SELECT FROM unnest(opts) o WHERE o LIKE 'async\_capable=%')
                                       THEN '' ELSE ', async_capable ''true''' END);
    END LOOP;

    -- the shard's repositories: ids in its range, names that no other server has
    EXECUTE pg_catalog.format('SELECT pg_catalog.count(*), pg_catalog.count(*) FILTER (WHERE r.repository_id NOT BETWEEN $1 AND $2) '
                              'FROM %I.fixes_repositories r', sch)
       INTO n, outside USING lo, hi;
    IF outside > 0 THEN
        RAISE EXCEPTION 'server "%" holds % repositories whose ids are outside its range (% to %)', server, outside, lo, hi
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'On the shard: fixes_set_repository_id_range() with a range that holds its ids.';
    END IF;
    SELECT pg_catalog.string_agg(pg_catalog.quote_literal(x.name), ', ' ORDER BY x.name) INTO names
      FROM (SELECT r.name FROM fixes_repositories r GROUP BY r.name HAVING pg_catalog.count(*) > 1) x;
    IF names IS NOT NULL THEN
        RAISE EXCEPTION 'server "%" holds repositories of names that another server holds: %', server, names
              USING ERRCODE = 'unique_violation',
                    DETAIL = 'A repository name is unique over the coordinator and its shards.',
                    HINT = 'Unload one of them, or load it under another name (fixes_load(name => ...)).';
    END IF;

    -- constraint exclusion: a query that names a repository id out of the
    -- shard's range does not scan its tables
    FOR t IN
        SELECT c.relname FROM pg_catalog.pg_class c
          JOIN pg_catalog.pg_namespace x ON x.oid = c.relnamespace
         WHERE x.nspname = sch AND c.relkind = 'f'
         ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('ALTER FOREIGN TABLE %I.%I ADD CONSTRAINT fixes_shard_repository_ids '
                                  'CHECK (repository_id >= %s AND repository_id <= %s)', sch, t.relname, lo, hi);
    END LOOP;

    IF NOT EXISTS (SELECT FROM unnest(opts) o WHERE o LIKE 'connect\_timeout=%') THEN
        RAISE NOTICE 'server "%" has no connect_timeout', server
              USING DETAIL = 'A query of the coordinator waits for a shard that does not answer as long as the operating system lets a connection wait.',
                    HINT = pg_catalog.format('ALTER SERVER %I OPTIONS (ADD connect_timeout ''5'')', server);
    END IF;
    INSERT INTO fixes_shards (server, schema_name, remote_schema, id_lo, id_hi)
    VALUES (fixes_attach_shard_in_schema.server, sch, rsch, lo, hi);
    RETURN n;
END
$$;

-- nsp is looked up by the function below, which is bound to
-- fixes_extension_schema() and to this one by oid (issue 44)
CREATE FUNCTION @extschema@.fixes_attach_shard(server name, remote_schema name DEFAULT NULL)
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT @extschema@.fixes_attach_shard_in_schema(@extschema@.fixes_extension_schema(), server, remote_schema);
END;

COMMENT ON FUNCTION @extschema@.fixes_attach_shard(name, name) IS
'attach the fixes installation that the postgres_fdw server names: its tables become foreign tables in schema fixes_shard_<server>, children of this server''s tables, so that every view and function here reads its repositories too; the number of its repositories';

REVOKE ALL ON FUNCTION @extschema@.fixes_attach_shard(name, name) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.fixes_attach_shard_in_schema(name, name, name) IS
'fixes_attach_shard in the extension''s schema nsp, which fixes_attach_shard passes';

REVOKE ALL ON FUNCTION @extschema@.fixes_attach_shard_in_schema(name, name, name) FROM PUBLIC;

CREATE FUNCTION @extschema@.fixes_detach_shard_in_schema(nsp name, server name)
RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    sch name;
    tables text;
BEGIN
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    DELETE FROM fixes_shards s WHERE s.server = fixes_detach_shard_in_schema.server RETURNING s.schema_name INTO sch;
    IF sch IS NULL THEN
        RETURN false;
    END IF;
    -- the foreign tables that attach made; an object of the user's that
    -- depends on one of them, or that the user put in the schema, stops it
    -- (no CASCADE)
    SELECT pg_catalog.string_agg(pg_catalog.format('%I.%I', sch, c.relname), ', ' ORDER BY c.relname) INTO tables
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace x ON x.oid = c.relnamespace
     WHERE x.nspname = sch AND c.relkind = 'f';
    IF tables IS NOT NULL THEN
        EXECUTE 'DROP FOREIGN TABLE ' || tables;
    END IF;
    EXECUTE pg_catalog.format('DROP SCHEMA %I', sch);
    RETURN true;
END
$$;

-- nsp is looked up by the function below, which is bound to
-- fixes_extension_schema() and to this one by oid (issue 44)
CREATE FUNCTION @extschema@.fixes_detach_shard(server name)
RETURNS boolean
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
BEGIN ATOMIC
    SELECT @extschema@.fixes_detach_shard_in_schema(@extschema@.fixes_extension_schema(), server);
END;

COMMENT ON FUNCTION @extschema@.fixes_detach_shard(name) IS
'detach a shard attached by fixes_attach_shard: its foreign tables and their schema are dropped (nothing is changed on the shard); false if it is not attached';

REVOKE ALL ON FUNCTION @extschema@.fixes_detach_shard(name) FROM PUBLIC;

COMMENT ON FUNCTION @extschema@.fixes_detach_shard_in_schema(name, name) IS
'fixes_detach_shard in the extension''s schema nsp, which fixes_detach_shard passes';

REVOKE ALL ON FUNCTION @extschema@.fixes_detach_shard_in_schema(name, name) FROM PUBLIC;
-- ---- end of issue 46 ----
