/* fixes--1.1--1.2.sql — update of the fixes extension from 1.1 to 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql, fixes--1.0--1.1.sql and this script, so that no line of
-- SQL is written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 27: structure ----
-- ---- end of issue 27 ----

-- ---- issue 28: hostile inputs ----
-- Item 8: no function names the schema of CREATE EXTENSION in its body.
-- Views and defaults hold their tables by oid; a function body holds names:
-- fixes_per_path_prefix (1.1) named the install-time schema, so after
-- ALTER SCHEMA ... RENAME it failed, and a new schema with the old name and
-- look-alike tables fed it their rows.  It now finds the extension's schema
-- when it runs, as fixes_unload does since 1.1 (its C code looks the
-- extension up).  Same name, arguments, result, privileges and comment;
-- PARALLEL UNSAFE now, since it sets its search_path to that schema
-- (set_config(), which a parallel worker may not run), the one way every
-- function of 1.2 that reads the extension's tables finds them.
CREATE OR REPLACE FUNCTION @extschema@.fixes_per_path_prefix(
    repository text,
    depth integer DEFAULT 2,
    OUT prefix text,
    OUT commits bigint,
    OUT fixing_commits bigint,
    OUT buggy_commits bigint,
    OUT bugs_introduced bigint,
    OUT bugs_fixed bigint,
    OUT median_lifetime_days double precision)
RETURNS SETOF record
LANGUAGE plpgsql STABLE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $fn$
DECLARE
    -- the extension's schema now, not the one of CREATE EXTENSION: a renamed
    -- schema still works, and another schema that took its old name is not read
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
BEGIN
    -- the names below are found through the extension's schema now; the
    -- function's SET clause takes the setting back when it returns (as in
    -- every function of 1.2 that reads the extension's tables)
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    IF EXISTS (SELECT FROM fixes_path_prefix_counts k
                 JOIN fixes_repositories r ON r.repository_id = k.repository_id
                WHERE r.name = $1 AND k.depth = $2) THEN
        RETURN QUERY
        SELECT k.prefix, k.commits, k.fixing_commits, k.buggy_commits, k.bugs_introduced,
               k.bugs_fixed, k.median_lifetime_days
          FROM fixes_path_prefix_counts k
          JOIN fixes_repositories r ON r.repository_id = k.repository_id
         WHERE r.name = $1 AND k.depth = $2
         ORDER BY k.prefix;
        RETURN;
    END IF;
    RETURN QUERY
    WITH repo AS (
        SELECT r.repository_id FROM fixes_repositories r WHERE r.name = $1
    ), members AS (
        -- a path's directory, cut to depth components; '.' for the top level
        SELECT DISTINCT f.commit_idx,
               COALESCE(NULLIF(array_to_string(
                   (string_to_array(f.path, '/'))[1:least($2, array_length(string_to_array(f.path, '/'), 1) - 1)],
                   '/'), ''), '.') AS prefix
          FROM fixes_commit_files f, repo, fixes_commits c
         WHERE f.repository_id = repo.repository_id
           AND c.repository_id = f.repository_id AND c.commit_idx = f.commit_idx
           AND c.mainline
    ), introduced AS (
        SELECT m.prefix,
               count(*) AS bugs_introduced,
               count(DISTINCT e.target_idx) AS buggy_commits,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY
                   extract(epoch FROM e.fixed_at - c.committed_at) / 86400) AS median_lifetime_days
          FROM members m, repo
          JOIN fixes_edges e ON e.repository_id = repo.repository_id
          JOIN fixes_commits c
            ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
          JOIN fixes_commits fc
            ON fc.repository_id = e.repository_id AND fc.commit_idx = e.fixing_idx
         WHERE e.target_idx = m.commit_idx AND e.status = 'resolved' AND e.kind = 'fixes' AND fc.mainline
         GROUP BY m.prefix
    ), fixed AS (
        SELECT m.prefix,
               count(*) AS bugs_fixed,
               count(DISTINCT e.fixing_idx) AS fixing_commits
          FROM members m, repo
          JOIN fixes_edges e ON e.repository_id = repo.repository_id
         WHERE e.fixing_idx = m.commit_idx AND e.status = 'resolved' AND e.kind = 'fixes'
         GROUP BY m.prefix
    ), sizes AS (
        SELECT m.prefix, count(*) AS commits FROM members m GROUP BY m.prefix
    )
    SELECT z.prefix,
           z.commits,
           COALESCE(f.fixing_commits, 0),
           COALESCE(i.buggy_commits, 0),
           COALESCE(i.bugs_introduced, 0),
           COALESCE(f.bugs_fixed, 0),
           i.median_lifetime_days
      FROM sizes z
      LEFT JOIN introduced i ON i.prefix = z.prefix
      LEFT JOIN fixed f ON f.prefix = z.prefix
     ORDER BY z.prefix;
END
$fn$;

-- ---- end of issue 28 ----

-- ---- issue 29: answers a CVE analyst can trust ----
-- (loader part; the SQL answers of issue 29 are in their own sub-block)

-- Every row a load writes satisfies its table's constraints (the bulk path
-- checks NOT NULL and CHECK on each row, src/db/bulk_insert.c).  The counters
-- of fixes_per_release are the mainline's: NULL for a stable release (1.1
-- said so, but four of them were NOT NULL, and a stable load wrote NULL in
-- them anyway: pg_restore refused the table).  Now the columns say it, and
-- a CHECK: the mainline counters are set exactly on mainline rows, the
-- stable counters exactly on stable rows.  A 1.2 library loading a database
-- still at 1.1 writes 0 in the four columns there; the update makes them
-- NULL again.
ALTER TABLE @extschema@.fixes_releases
    ALTER COLUMN tagged_commits DROP NOT NULL,
    ALTER COLUMN fixing_earlier_commits DROP NOT NULL,
    ALTER COLUMN reverts DROP NOT NULL,
    ALTER COLUMN reverted_introduced DROP NOT NULL;

UPDATE @extschema@.fixes_releases
   SET tagged_commits = NULL, fixing_earlier_commits = NULL, reverts = NULL,
       reverted_introduced = NULL
 WHERE NOT mainline;

ALTER TABLE @extschema@.fixes_releases
    ADD CONSTRAINT fixes_releases_mainline_counters_check
        CHECK (mainline = (fixing_commits IS NOT NULL)
               AND mainline = (commits_fixed IS NOT NULL)
               AND mainline = (bugs_introduced IS NOT NULL)
               AND mainline = (buggy_commits_introduced IS NOT NULL)
               AND mainline = (fixed_same_release IS NOT NULL)
               AND mainline = (tagged_commits IS NOT NULL)
               AND mainline = (fixing_earlier_commits IS NOT NULL)
               AND mainline = (reverts IS NOT NULL)
               AND mainline = (reverted_introduced IS NOT NULL)),
    ADD CONSTRAINT fixes_releases_stable_counters_check
        CHECK (mainline = (backports IS NULL)
               AND mainline = (regressions_introduced IS NULL)
               AND mainline = (known_bugs IS NULL));

COMMENT ON CONSTRAINT fixes_releases_mainline_counters_check ON @extschema@.fixes_releases IS
'the counters of fixes_per_release are set on mainline releases and NULL on stable releases';
COMMENT ON CONSTRAINT fixes_releases_stable_counters_check ON @extschema@.fixes_releases IS
'the counters of fixes_per_stable_release are set on stable releases and NULL on mainline releases';

-- Backports that name no mainline id (src/load/load_backports.c): how the
-- upstream of each row was found.  'id': the line's id, by unique prefix;
-- 'subject': none of the stable commit's lines resolved (or it has none), and
-- exactly one non-merge mainline commit has its subject; 'override': a row of
-- fixes_backport_overrides.  The last two are rows of no line: line 0, abbrev
-- and raw ''.  NULL: not resolved.
ALTER TABLE @extschema@.fixes_backports
    ADD COLUMN method text;

-- the rows of 1.1: resolved by their id
UPDATE @extschema@.fixes_backports SET method = 'id' WHERE status = 'resolved';

ALTER TABLE @extschema@.fixes_backports
    ADD CONSTRAINT fixes_backports_method_check
        CHECK (method IN ('id', 'subject', 'override')),
    ADD CONSTRAINT fixes_backports_method_resolved_check
        CHECK ((status = 'resolved') = (method IS NOT NULL)),
    ADD CONSTRAINT fixes_backports_line_check
        CHECK (line >= 0
               AND (line = 0) = (method IS NOT NULL AND method <> 'id')
               AND (line > 0 OR (abbrev = '' AND raw = '')));

-- The stable scope of a repository loaded before the update lacks what 1.2
-- finds (backports by subject, queued fixes): its next load must not be a
-- no-op.  Another tags hash makes it a refresh (no full load: the graph and
-- the mainline rows are kept), which writes the stable scope again.
UPDATE @extschema@.fixes_repositories SET tags_hash = tags_hash # 1
 WHERE stable_branches IS NOT NULL AND tags_hash IS NOT NULL;

COMMENT ON COLUMN @extschema@.fixes_backports.method IS
'how upstream_idx was found: id (the line''s id), subject (no line resolved: the one non-merge mainline commit with the same subject; line 0), override (a row of fixes_backport_overrides; line 0); NULL: not resolved';
COMMENT ON TABLE @extschema@.fixes_backports IS
'one row per backport line (commit <id> upstream, [ Upstream commit <id> ], (cherry picked from commit <id>)) of a stable commit, resolved against the mainline, and a row of line 0 for an upstream found by subject or by fixes_backport_overrides';

-- Corrections of backports, written by users and applied by every
-- fixes_load() of the repository of that name (like fixes_overrides): the
-- stable commit is a backport of upstream_commit, whatever its lines say
-- (they stay in fixes_backports, but count nowhere).  pg_dump keeps the
-- rows; fixes_unload() leaves them; fixes_load() only reads them.
CREATE TABLE @extschema@.fixes_backport_overrides (
    repository      text NOT NULL,
    stable_commit   text COLLATE "C" NOT NULL
                    CHECK (stable_commit ~ '^[0-9a-f]{40}$'),
    upstream_commit text COLLATE "C" NOT NULL
                    CHECK (upstream_commit ~ '^[0-9a-f]{40}$'),
    note            text,
    PRIMARY KEY (repository, stable_commit)
);

COMMENT ON TABLE @extschema@.fixes_backport_overrides IS
'corrections of backports, applied by every fixes_load of the repository (by name): the stable commit is a backport of the upstream commit (fixes_backports.method override), whatever its lines say';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_backport_overrides', '');
-- stable_branches is remembered per repository, like files and maintainers
-- (src/load/load_stable.c): its default, '*keep*' (an invalid expression, so no
-- real one can mean it), keeps the previous load's; NULL turns the stable
-- scope off; another expression replaces it, with a NOTICE.  A new default
-- is a new definition: the function goes, with what was granted on it.
DROP FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text);

CREATE FUNCTION @extschema@.fixes_load(
    path text,
    ref text DEFAULT 'HEAD',
    release_pattern text DEFAULT NULL,
    name text DEFAULT NULL,
    stable_branches text DEFAULT '*keep*',
    files boolean DEFAULT NULL,
    maintainers text DEFAULT NULL,
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

COMMENT ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) IS
'read the repository at path into the fixes_* tables (replacing an earlier load of the same name); stable_branches: a regular expression over full branch ref names whose commits not on ref form the stable scope (the default keeps the repository''s, NULL turns it off); files => true records the changed files of each commit, maintainers names the MAINTAINERS file of the ref''s tree (NULL keeps the current setting)';

REVOKE ALL ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) TO pg_read_server_files;
-- Queued fixes (src/load/load_stable.c): a backport of the fix on a stable branch
-- after the branch's newest release is recorded in fix_backport_idxs, its
-- fixed_ranks element NULL.
COMMENT ON TABLE @extschema@.fixes_affected_series IS
'per resolved mainline Fixes pair, the stable series that shipped the bug (series_ranks), and in each the release ranks where it came in and where the fix landed, and the commit index of that fix (fixed_ranks NULL: not fixed in a release there yet; fix_backport_idxs then names a backport queued on the branch after its newest release, or is NULL); fixes_affected unnests them';
-- ---- end of issue 29 ----

-- ---- issue 29: answers ----
-- The analyst's questions answered without joins through the repository's
-- name: where a fix stands in each place (fixes_affected.status), every
-- release that shipped a bug (fixes_affected_releases), and a revision as
-- people write it, turned into the full id that the tables hold
-- (fixes_commit_id).

-- fixes_affected gains status (at its end).  The fixing commit of a row is
-- mainline, so a mainline row without fixed_in is a fix committed and not
-- yet released: 'queued'.  A series row is 'queued' when a backport of the
-- fix is on the series' branch after its newest release (fix_backport set,
-- fixed_in NULL), 'unfixed' when no backport of it is there.
CREATE OR REPLACE VIEW @extschema@.fixes_affected AS
SELECT p.name AS repository,
       m.fixing_commit,
       m.target_commit,
       NULL::text AS series,
       m.target_release AS introduced_in,
       m.fixing_release AS fixed_in,
       NULL::text COLLATE "C" AS fix_backport,
       CASE WHEN m.fixing_release IS NOT NULL THEN 'fixed' ELSE 'queued' END AS status
  FROM (SELECT DISTINCT e.repository_id, e.fixing_commit, e.target_commit,
               e.target_release, e.fixing_release
          FROM @extschema@.fixes_edges e
          JOIN @extschema@.fixes_commits c
            ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
         WHERE e.status = 'resolved' AND e.kind = 'fixes' AND c.mainline) m
  JOIN @extschema@.fixes_releases t
    ON t.repository_id = m.repository_id AND t.tag = m.target_release
  LEFT JOIN @extschema@.fixes_releases f
    ON f.repository_id = m.repository_id AND f.tag = m.fixing_release
  JOIN @extschema@.fixes_repositories p ON p.repository_id = m.repository_id
 WHERE f.release_rank IS NULL OR f.release_rank > t.release_rank
UNION ALL
-- the series rows: see fixes--1.0--1.1.sql for why these are scalar
-- subqueries and not joins
SELECT (SELECT p.name FROM @extschema@.fixes_repositories p WHERE p.repository_id = a.repository_id),
       e.fixing_commit,
       e.target_commit,
       s.tag,
       (SELECT i.tag FROM @extschema@.fixes_releases i
         WHERE i.repository_id = a.repository_id AND i.release_rank = a.introduced_rank),
       (SELECT x.tag FROM @extschema@.fixes_releases x
         WHERE x.repository_id = a.repository_id AND x.release_rank = a.fixed_rank),
       (SELECT b.commit_id FROM @extschema@.fixes_commits b
         WHERE b.repository_id = a.repository_id AND b.commit_idx = a.fix_backport_idx),
       CASE WHEN a.fixed_rank IS NOT NULL THEN 'fixed'
            WHEN a.fix_backport_idx IS NOT NULL THEN 'queued'
            ELSE 'unfixed' END
  FROM (SELECT fa.repository_id, fa.fixing_idx, fa.target_idx, u.series_rank,
               u.introduced_rank, u.fixed_rank, u.fix_backport_idx
          FROM @extschema@.fixes_affected_series fa
         CROSS JOIN LATERAL unnest(fa.series_ranks, fa.introduced_ranks, fa.fixed_ranks,
                                   fa.fix_backport_idxs)
               AS u(series_rank, introduced_rank, fixed_rank, fix_backport_idx)) a
  JOIN @extschema@.fixes_edges e
    ON e.repository_id = a.repository_id AND e.fixing_idx = a.fixing_idx
   AND e.target_idx = a.target_idx AND e.status = 'resolved' AND e.kind = 'fixes'
  JOIN @extschema@.fixes_releases s
    ON s.repository_id = a.repository_id AND s.release_rank = a.series_rank
 WHERE NOT EXISTS (SELECT FROM @extschema@.fixes_edges d
                    WHERE d.repository_id = e.repository_id AND d.fixing_idx = e.fixing_idx
                      AND d.target_idx = e.target_idx AND d.status = 'resolved'
                      AND d.kind = 'fixes' AND d.line < e.line);

COMMENT ON VIEW @extschema@.fixes_affected IS
'per resolved mainline Fixes pair (F fixes T) and place that shipped the bug: the mainline (series NULL) and each stable series; the bug is in the releases from introduced_in up to, not including, fixed_in (NULL: not fixed there yet); status: fixed (fixed_in set), queued (the fix is committed there after the newest release: on the mainline, fixed_in NULL; in a series, fix_backport set) or unfixed';

-- One row per release that shipped the bug of a pair: the mainline releases
-- from the mainline row's introduced_in up to, not including, its fixed_in
-- (every later mainline release when it is NULL), and the stable releases
-- of each series row's series in the same range.  series is the release's
-- own (fixes_releases.series: a mainline release is its own series), so that
-- WHERE series = 'v6.1' lists v6.1 and the v6.1.y that shipped it; the
-- mainline release a series starts from is a mainline row (fixes_affected's
-- mainline row says whether it shipped the bug).  Ranks are compared within
-- one place only: the mainline's ranks are in version order, and so are a
-- series' releases, whose ranks follow the mainline's.  The pair's ids come
-- from fixes_edges, so that a filter on fixing_commit or target_commit uses
-- their indexes.  The releases of a place are a range of the primary key
-- of fixes_releases, read for each pair and series row (the laterals'
-- OFFSET 0 keeps the planner from turning them into a join that reads every
-- release of the repository and computes the series' tag for each).
-- A series' releases are read by this index: in rank order its stable
-- releases are those of every series after it too.
-- What a refresh reads of fixes_edges (src/load/load_old_edges.c): not
-- every old edge, but those the new commits can change and those its counts
-- need.  An edge settled by hash (resolved by hash or hash+subject) changes
-- only when a new id starts with its abbrev, which the index on its
-- target_commit finds.  The others (not resolved, or resolved by subject or
-- by an override) change when a new id starts with their abbrev, or a new
-- commit has their quoted subject (these two indexes), or when
-- fixes_overrides changed (the third: the edges it decided).  And the edges
-- into given commits (those whose release changed, those of the releases
-- counted again), by index.
CREATE INDEX fixes_edges_unsettled_idx
    ON @extschema@.fixes_edges (repository_id, abbrev)
    WHERE status <> 'resolved' OR method NOT IN ('hash', 'hash+subject');
CREATE INDEX fixes_edges_unsettled_subject_idx
    ON @extschema@.fixes_edges USING hash (quoted_subject)
    WHERE status <> 'resolved' OR method NOT IN ('hash', 'hash+subject');
CREATE INDEX fixes_edges_overridden_idx
    ON @extschema@.fixes_edges (repository_id, fixing_idx)
    WHERE status = 'ignored' OR method = 'override';
CREATE INDEX fixes_edges_target_idx_idx
    ON @extschema@.fixes_edges (repository_id, target_idx);

COMMENT ON INDEX @extschema@.fixes_edges_unsettled_idx IS
'the edges not settled by hash, by abbrev, for a refresh';
COMMENT ON INDEX @extschema@.fixes_edges_unsettled_subject_idx IS
'the edges not settled by hash, by quoted subject, for a refresh';
COMMENT ON INDEX @extschema@.fixes_edges_overridden_idx IS
'the edges that fixes_overrides decided, for a refresh';
COMMENT ON INDEX @extschema@.fixes_edges_target_idx_idx IS
'the edges into a commit by index, for a refresh';

CREATE INDEX fixes_releases_series_idx
    ON @extschema@.fixes_releases (repository_id, series, release_rank);

COMMENT ON INDEX @extschema@.fixes_releases_series_idx IS
'the releases of a series in rank order, for fixes_affected_releases';

CREATE VIEW @extschema@.fixes_affected_releases AS
SELECT (SELECT p.name FROM @extschema@.fixes_repositories p WHERE p.repository_id = e.repository_id)
           AS repository,
       e.fixing_commit,
       e.target_commit,
       r.series,
       r.tag AS release,
       r.release_rank
  FROM @extschema@.fixes_edges e
 CROSS JOIN LATERAL (SELECT x.series, x.tag, x.release_rank
                       FROM @extschema@.fixes_releases x
                      WHERE x.repository_id = e.repository_id
                        AND x.release_rank >= (SELECT t.release_rank FROM @extschema@.fixes_releases t
                                                WHERE t.repository_id = e.repository_id
                                                  AND t.tag = e.target_release AND t.mainline)
                        AND x.release_rank < COALESCE((SELECT f.release_rank FROM @extschema@.fixes_releases f
                                                        WHERE f.repository_id = e.repository_id
                                                          AND f.tag = e.fixing_release),
                                                      2147483647)
                        AND x.mainline
                     OFFSET 0) r
 WHERE e.status = 'resolved' AND e.kind = 'fixes'
   AND NOT EXISTS (SELECT FROM @extschema@.fixes_commits c
                    WHERE c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
                      AND NOT c.mainline)
   AND NOT EXISTS (SELECT FROM @extschema@.fixes_edges d
                    WHERE d.repository_id = e.repository_id AND d.fixing_idx = e.fixing_idx
                      AND d.target_idx = e.target_idx AND d.status = 'resolved'
                      AND d.kind = 'fixes' AND d.line < e.line)
UNION ALL
SELECT (SELECT p.name FROM @extschema@.fixes_repositories p WHERE p.repository_id = e.repository_id),
       e.fixing_commit,
       e.target_commit,
       r.series,
       r.tag,
       r.release_rank
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_affected_series fa
    ON fa.repository_id = e.repository_id AND fa.fixing_idx = e.fixing_idx
   AND fa.target_idx = e.target_idx
 CROSS JOIN LATERAL (SELECT (SELECT s.tag FROM @extschema@.fixes_releases s
                              WHERE s.repository_id = fa.repository_id
                                AND s.release_rank = u.series_rank) AS series,
                            u.introduced_rank, u.fixed_rank
                       FROM unnest(fa.series_ranks, fa.introduced_ranks, fa.fixed_ranks)
                            AS u(series_rank, introduced_rank, fixed_rank)
                     OFFSET 0) a
 CROSS JOIN LATERAL (SELECT x.series, x.tag, x.release_rank
                       FROM @extschema@.fixes_releases x
                      WHERE x.repository_id = fa.repository_id
                        AND x.release_rank >= a.introduced_rank
                        AND x.release_rank < COALESCE(a.fixed_rank, 2147483647)
                        AND NOT x.mainline AND x.series = a.series
                     OFFSET 0) r
 WHERE e.status = 'resolved' AND e.kind = 'fixes'
   AND NOT EXISTS (SELECT FROM @extschema@.fixes_edges d
                    WHERE d.repository_id = e.repository_id AND d.fixing_idx = e.fixing_idx
                      AND d.target_idx = e.target_idx AND d.status = 'resolved'
                      AND d.kind = 'fixes' AND d.line < e.line);

COMMENT ON VIEW @extschema@.fixes_affected_releases IS
'per resolved mainline Fixes pair (F fixes T): one row per release that shipped the bug, mainline and stable (series: the release''s series, a mainline release being its own), the releases of fixes_affected from introduced_in up to, not including, fixed_in';

-- A revision as people write it: a full id, a unique abbreviation (4 to 40
-- hex digits, any case) or a release tag of fixes_releases, to the full id.
-- A 40-digit id is an id first, then a tag is looked up, then a prefix (as
-- git rev-parse prefers a ref to an abbreviation).  The prefix is a range on
-- fixes_commits_commit_id_idx (commit_id is COLLATE "C", so
-- prefix <= id < prefix || 'g' is exactly the ids that start with it).
CREATE FUNCTION @extschema@.fixes_commit_id(repository text, rev text)
RETURNS text
LANGUAGE plpgsql STABLE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    repo integer;
    hex text COLLATE "C";
    found_id text;
    n integer;
    shown text;
BEGIN
    -- the extension's schema when the function runs, not the one of CREATE
    -- EXTENSION (issue 28): the names below are found through it, and the
    -- function's SET clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    SELECT p.repository_id INTO repo
      FROM fixes_repositories p WHERE p.name = fixes_commit_id.repository;
    IF repo IS NULL THEN
        RAISE EXCEPTION 'repository "%" is not loaded', fixes_commit_id.repository
              USING ERRCODE = 'undefined_object',
                    HINT = 'fixes_repositories lists the loaded repositories.';
    END IF;
    hex := pg_catalog.lower(rev);
    IF hex ~ '^[0-9a-f]{40}$' THEN
        SELECT c.commit_id INTO found_id FROM fixes_commits c
         WHERE c.commit_id = hex AND c.repository_id = repo;
        IF found_id IS NOT NULL THEN
            RETURN found_id;
        END IF;
    END IF;
    SELECT r.commit_id INTO found_id FROM fixes_releases r
     WHERE r.repository_id = repo AND r.tag = rev;
    IF found_id IS NOT NULL THEN
        RETURN found_id;
    END IF;
    IF hex !~ '^[0-9a-f]+$' OR pg_catalog.length(hex) > 40 THEN
        RAISE EXCEPTION 'revision "%" is neither a commit id nor a release tag of repository "%"',
                        rev, fixes_commit_id.repository
              USING ERRCODE = 'invalid_parameter_value',
                    DETAIL = 'A commit id is 4 to 40 hexadecimal digits; the tags are the releases of fixes_releases.';
    END IF;
    IF pg_catalog.length(hex) < 4 THEN
        RAISE EXCEPTION 'commit id "%" is too short', rev
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Give at least 4 hexadecimal digits, as git does.';
    END IF;
    -- at most 11 rows: one says it is unique, 11 that more than 10 are shown
    SELECT pg_catalog.count(*), pg_catalog.min(x.commit_id),
           pg_catalog.string_agg(x.commit_id || ' ' || x.subject, E'\n' ORDER BY x.commit_id)
             FILTER (WHERE x.n <= 10)
      INTO n, found_id, shown
      FROM (SELECT c.commit_id, c.subject,
                   pg_catalog.row_number() OVER (ORDER BY c.commit_id) AS n
              FROM fixes_commits c
             WHERE c.commit_id >= hex AND c.commit_id < hex || 'g'
               AND c.repository_id = repo
             ORDER BY c.commit_id
             LIMIT 11) x;
    IF n = 1 THEN
        RETURN found_id;
    ELSIF n = 0 THEN
        RAISE EXCEPTION 'no commit of repository "%" matches "%"', fixes_commit_id.repository, rev
              USING ERRCODE = 'no_data_found';
    END IF;
    RAISE EXCEPTION 'commit id "%" is ambiguous in repository "%"', rev, fixes_commit_id.repository
          USING ERRCODE = 'invalid_parameter_value',
                DETAIL = 'The candidates are:' || E'\n' || shown
                         || CASE WHEN n > 10 THEN E'\n' || 'and more' ELSE '' END,
                HINT = 'Give more hexadecimal digits.';
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_commit_id(text, text) IS
'the full id of a commit of the repository from a full id, a unique abbreviation (4 to 40 hex digits, any case) or a release tag; an error when it is ambiguous (the candidates in DETAIL) or names nothing';
-- ---- end of issue 29: answers ----

-- ---- issue 30: statistics on real histories ----
-- Whether a commit asked for a stable backport: a "Cc: stable@..." line
-- anywhere in its message (src/parse/stable_cc.h), in git's trailer block or in a
-- paragraph above it (DPDK writes Fixes: and Cc: there, where git's trailer
-- rules do not look).  NULL on rows loaded before 1.2, until the next load.
ALTER TABLE @extschema@.fixes_commits
    ADD COLUMN stable_cc boolean;

COMMENT ON COLUMN @extschema@.fixes_commits.stable_cc IS
'the message has a line "Cc: ... stable@<domain> ..." (case-insensitive, anywhere in the message): the commit asked for a stable backport';

-- Per release, computed by fixes_load() (src/load_counts.c,
-- src/load_lifetimes.c): the commits with a Cc: stable line and those of
-- them with a resolved Fixes edge; the edges of bugs_introduced found within
-- 365 and 730 days.  Counters of fixes_per_release: set on mainline
-- releases and NULL on stable ones, as the others (issue 29).  Zeros until
-- the next load, which is a full one (below).
ALTER TABLE @extschema@.fixes_releases
    ADD COLUMN stable_cc_commits bigint,
    ADD COLUMN stable_cc_fixing_commits bigint,
    ADD COLUMN found_within_365d bigint,
    ADD COLUMN found_within_730d bigint;

UPDATE @extschema@.fixes_releases
   SET stable_cc_commits = 0, stable_cc_fixing_commits = 0, found_within_365d = 0,
       found_within_730d = 0
 WHERE mainline;

ALTER TABLE @extschema@.fixes_releases
    ADD CONSTRAINT fixes_releases_mainline_counters_12_check
        CHECK (mainline = (stable_cc_commits IS NOT NULL)
               AND mainline = (stable_cc_fixing_commits IS NOT NULL)
               AND mainline = (found_within_365d IS NOT NULL)
               AND mainline = (found_within_730d IS NOT NULL));

COMMENT ON CONSTRAINT fixes_releases_mainline_counters_12_check ON @extschema@.fixes_releases IS
'the counters of fixes_per_release added by 1.2 are set on mainline releases and NULL on stable releases';

COMMENT ON COLUMN @extschema@.fixes_releases.stable_cc_commits IS
'commits of the release whose message has a Cc: stable line (fixes_commits.stable_cc)';
COMMENT ON COLUMN @extschema@.fixes_releases.stable_cc_fixing_commits IS
'of stable_cc_commits, those with a resolved Fixes edge';
COMMENT ON COLUMN @extschema@.fixes_releases.found_within_365d IS
'edges of bugs_introduced whose lifetime (as in fixes_bug_lifetimes) is at most 365 days, whatever the release has been observed for (fixes_lifetime_per_release applies that)';
COMMENT ON COLUMN @extschema@.fixes_releases.found_within_730d IS
'the same within 730 days';

-- The newest committer date among the mainline commits of the last load:
-- how long each release has been observed (fixes_lifetime_per_release).
ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN last_committed_at timestamptz;

COMMENT ON COLUMN @extschema@.fixes_repositories.last_committed_at IS
'the newest committer date among the mainline commits of the last load (NULL before a load by 1.2, or when none has a date)';

-- One bit per commit of the chunk (bit i % 8 of byte i / 8): its stable_cc,
-- for the per-release counts of a refresh.  A graph without it (written
-- before 1.2) is not built on: the next load is a full one.
ALTER TABLE @extschema@.fixes_graph
    ADD COLUMN stable_cc bytea;

COMMENT ON COLUMN @extschema@.fixes_graph.stable_cc IS
'internal: a bitmap of the chunk''s commits whose message has a Cc: stable line';

-- The release rank of each commit of the chunk (int32, 0: unreleased, in the
-- server's byte order; compressed, as releases come in runs): a refresh
-- whose new releases come after the old ones marks only the new and the
-- unreleased commits, and reads the parents of only the rows that hold
-- unreleased ones (issue 31).  NULL (a graph written before this column):
-- the next refresh marks every commit and writes it.
ALTER TABLE @extschema@.fixes_graph
    ADD COLUMN releases bytea;

COMMENT ON COLUMN @extschema@.fixes_graph.releases IS
'internal: the release rank of each of the chunk''s commits (int32, 0 for none)';

-- The next fixes_load() of each repository reads it in full once, so that
-- stable_cc and the counts above are there for every commit.
UPDATE @extschema@.fixes_repositories SET tags_hash = NULL;

-- fixes_per_release gains two columns at its end
CREATE OR REPLACE VIEW @extschema@.fixes_per_release AS
SELECT p.name AS repository,
       r.tag AS release,
       r.release_rank,
       r.released_at,
       r.commits,
       r.fixing_commits,
       r.bugs_fixed,
       r.commits_fixed,
       r.bugs_introduced,
       r.buggy_commits_introduced,
       r.fixed_same_release,
       r.tagged_commits,
       r.fixing_earlier_commits,
       r.reverts,
       r.reverted_introduced,
       r.stable_cc_commits,
       r.stable_cc_fixing_commits
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 WHERE r.mainline
 ORDER BY p.name, r.release_rank;

-- fixes_lifetime_per_release gains three columns at its end.  A bug's
-- lifetime runs from its commit, which is older than the release, so every
-- fix within N days of it can have been made once the release is N days
-- old: the count within N days is comparable across releases from then on,
-- and NULL before.
CREATE OR REPLACE VIEW @extschema@.fixes_lifetime_per_release AS
SELECT p.name AS repository,
       r.tag AS release,
       r.release_rank,
       r.fixed_median_days,
       r.fixed_p90_days,
       r.introduced_median_days,
       o.observed_days,
       CASE WHEN o.observed_days >= 365 THEN r.found_within_365d END AS found_within_365d,
       CASE WHEN o.observed_days >= 730 THEN r.found_within_730d END AS found_within_730d
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 CROSS JOIN LATERAL (SELECT EXTRACT(epoch FROM p.last_committed_at - r.released_at)::double precision
                            / 86400 AS observed_days) o
 WHERE r.mainline
 ORDER BY p.name, r.release_rank;

COMMENT ON VIEW @extschema@.fixes_lifetime_per_release IS
'per release: median and 90th percentile lifetime in days of the bugs its commits fixed in earlier releases, median lifetime of the bugs it introduced, the days it has been observed, and how many of its bugs were found within 365 and 730 days (NULL until observed that long)';
-- ---- end of issue 30 ----

-- ---- issue 31: refresh ----
-- The hash of the refs the last load read (the tags, and the branches with
-- stable_branches: names and targets, no object read), with the settings
-- that decide the tags hash.  A refresh whose head and refs hash are the
-- same does not read the tags again: tag objects are immutable, so the
-- stored tags_hash is still theirs (src/load/load_refs.c).
ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN refs_hash text;

COMMENT ON COLUMN @extschema@.fixes_repositories.refs_hash IS
'internal: SHA-1 (hex) of the refs the last load read (each name and the id or ref it points at) and of its release pattern, stable_branches and overrides; when the next load finds the same head and the same hash, it does not read the tags. NULL before a load by 1.2, or when a tag or branch could not be read';

-- The lifetimes behind each group's median_lifetime_days (float8 days, in
-- the server's byte order, ascending; empty when none): a refresh whose old
-- commits keep their groups merges the lifetimes of the edges that changed
-- into them, and so reads only those edges rather than every one (the
-- median of a top-level directory is over most of the history's edges).
-- Stored out of line and uncompressed: sorted doubles hardly compress, and
-- trying costs pglz more than the bytes do.  NULL (rows written before
-- this column): the next refresh with files counts every group again.
ALTER TABLE @extschema@.fixes_subsystem_counts
    ADD COLUMN lifetimes bytea;
ALTER TABLE @extschema@.fixes_subsystem_counts
    ALTER COLUMN lifetimes SET STORAGE EXTERNAL;
ALTER TABLE @extschema@.fixes_path_prefix_counts
    ADD COLUMN lifetimes bytea;
ALTER TABLE @extschema@.fixes_path_prefix_counts
    ALTER COLUMN lifetimes SET STORAGE EXTERNAL;

COMMENT ON COLUMN @extschema@.fixes_subsystem_counts.lifetimes IS
'internal: the lifetimes in days (float8, in the server''s byte order, ascending) whose median is median_lifetime_days; NULL before a load by 1.2';
COMMENT ON COLUMN @extschema@.fixes_path_prefix_counts.lifetimes IS
'internal: the lifetimes in days (float8, in the server''s byte order, ascending) whose median is median_lifetime_days; NULL before a load by 1.2';
-- ---- end of issue 31 ----

-- ---- issue 32: CVE records ----
-- The affected array of a CVE JSON 5 record (containers.cna.affected) for
-- the bug that a fix fixes, from what fixes_affected holds: a product entry
-- by commit (git ranges, defaultStatus unaffected) and one by release
-- (defaultStatus affected), as the Linux kernel's CNA writes them.  See
-- README.md, "CVE records", for the rules.  One set-based query serves the
-- single fix and the whole repository, so that both give the same bytes;
-- fixes_cve_affected_query writes it with or without the filter on the
-- fixing commit (dynamic SQL: each is planned for what it reads), and the
-- two functions that return it execute it in their own frame (a function
-- that returned another's rows would copy 120 MB into a second tuplestore
-- at 1.3M commits).
--
-- The whole repository in one pass over each set, every key an integer:
-- - pairs: one row per resolved mainline pair (F fixes T), from F's first
--   line naming T (DISTINCT ON: the ids and releases are the pair's own),
--   with o, F's place in fixing_commit order (the key of everything after);
-- - ser and plain: the series rows of fixes_affected.  Nine in ten are
--   "plain" (T came with the series' mainline release, not fixed there):
--   each gives the entry (T, no bound) and the place [series, 0, series],
--   so the pair's first plain series stands for them all; a series row
--   whose elements are all plain (half of them) is not unnested for ser;
-- - fixes: per fix, in one aggregate, the first place that shipped the
--   bug and its first target's release;
-- - entries: every entry of both product entries as a narrow row (o, a
--   form, one or two values, a bigint order key), grouped by o and turned
--   into JSON text by the aggregate (arrays).  The entries by
--   commit of a fix are told apart by their (version, lessThan) pair; only
--   the series rows can repeat one (the mainline pairs' and the plain rows'
--   versions are T, with lessThan F or none; a series row's version is T
--   only when it is fixed, and its lessThan is then a stable backport), so
--   only they are grouped.  The rows come out of the aggregate in o
--   order, which is fixing_commit order: the 120 MB of output are never
--   sorted (at 1.3M commits, 112,380 fixes: 6-7 s of CPU instead of 10-13).
-- Order keys (bigint, compared as the arrays [place, series, rank] were):
-- a release's place in version order is series_rank << 32 | stable bit
-- << 31 | release_rank (a stable release sorts after its series' mainline
-- release and before the next one); an entry by commit is line (mainline)
-- or 1 << 62 | series << 31 | line; an entry by release kind << 32 |
-- series (two fixed releases of one series, for two targets: by version,
-- where the query before 1.2's second pass left their order to the sort).
CREATE FUNCTION @extschema@.fixes_cve_affected_query(nsp name, one_fix boolean)
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
           x.version, b.version || '.*'
      FROM (SELECT DISTINCT z.o, z.series_rank, z.fixed_rank
              FROM ser z WHERE z.fixed_rank IS NOT NULL) s
      JOIN rel x ON x.release_rank = s.fixed_rank
      JOIN rel b ON b.release_rank = s.series_rank
     GROUP BY s.o, x.version, b.version
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

COMMENT ON FUNCTION @extschema@.fixes_cve_affected_query(name, boolean) IS
'internal: the query behind fixes_cve_affected (one_fix: for the fixing commit of index $2) and fixes_cve_affected_all (every fixing commit), its tables in schema nsp; parameters $1 repository_id, $2 fixing_idx, $3 vendor, $4 product, $5 repo_url';

CREATE FUNCTION @extschema@.fixes_cve_affected_rows(
    repository_id integer,
    fixing_idx integer,
    vendor text,
    product text,
    repo_url text)
RETURNS TABLE(fixing_commit text, affected jsonb)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $fn$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
BEGIN
    -- the extension's schema when the function runs, not the one of CREATE
    -- EXTENSION (issue 28): the names below are found through it, and the
    -- function's SET clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    RETURN QUERY EXECUTE fixes_cve_affected_query(nsp, fixing_idx IS NOT NULL)
                 USING repository_id, fixing_idx, vendor, product, repo_url;
END
$fn$;

COMMENT ON FUNCTION @extschema@.fixes_cve_affected_rows(integer, integer, text, text, text) IS
'internal: the CVE JSON 5 affected arrays of fixes_cve_affected and fixes_cve_affected_all, for one fixing commit (by index) or every one (NULL)';

CREATE FUNCTION @extschema@.fixes_cve_affected(
    repository text,
    fixing_commit text,
    vendor text DEFAULT NULL,
    product text DEFAULT NULL,
    repo_url text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    repo integer;
    id text;
    idx integer;
    is_mainline boolean;
    result jsonb;
    n_lines bigint;
    n_resolved bigint;
BEGIN
    -- the extension's schema when the function runs, not the one of CREATE
    -- EXTENSION (issue 28): the names below are found through it, and the
    -- function's SET clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    IF repository IS NULL OR fixing_commit IS NULL THEN
        RETURN NULL;
    END IF;
    id := fixes_commit_id(repository, fixing_commit);
    SELECT p.repository_id INTO repo
      FROM fixes_repositories p WHERE p.name = fixes_cve_affected.repository;
    SELECT c.commit_idx, c.mainline INTO idx, is_mainline
      FROM fixes_commits c WHERE c.repository_id = repo AND c.commit_id = id;
    IF NOT is_mainline THEN
        RAISE NOTICE 'commit % is not a mainline commit: fixes_affected describes the fixes of the mainline', id;
        RETURN NULL;
    END IF;
    SELECT r.affected INTO result
      FROM fixes_cve_affected_rows(repo, idx, COALESCE(vendor, repository),
                                               COALESCE(product, repository), repo_url) r;
    IF result IS NULL THEN
        SELECT pg_catalog.count(*), pg_catalog.count(*) FILTER (WHERE e.status = 'resolved')
          INTO n_lines, n_resolved
          FROM fixes_edges e
         WHERE e.repository_id = repo AND e.fixing_idx = idx AND e.kind = 'fixes';
        IF n_lines = 0 THEN
            RAISE NOTICE 'commit % has no Fixes: line', id;
        ELSIF n_resolved = 0 THEN
            RAISE NOTICE 'no Fixes: line of commit % is resolved', id
                  USING HINT = 'fixes_unresolved lists them; fixes_overrides corrects them.';
        ELSE
            RAISE NOTICE 'the Fixes: lines of commit % name no mainline commit', id;
        END IF;
    END IF;
    RETURN result;
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_cve_affected(text, text, text, text, text) IS
'the affected array of a CVE JSON 5 record (containers.cna.affected) for the bug that fixing_commit (full id, unique abbreviation) fixes: a product entry by git commit and one by release, from fixes_affected; NULL, with a NOTICE saying why, when the fix has no resolved mainline Fixes edge';

-- Every fix at once: hash joins over the whole of each set.  Right after a
-- load the planner has no statistics on the new rows and takes each set for
-- a row or two; its nested loops over them took 7 s at 20,000 commits
-- instead of 2.  The ids of the commits that brought a bug into a series
-- are looked up one by one in scalar subqueries (by primary key), which
-- enable_nestloop does not touch.
CREATE FUNCTION @extschema@.fixes_cve_affected_all(
    repository text,
    vendor text DEFAULT NULL,
    product text DEFAULT NULL,
    repo_url text DEFAULT NULL)
RETURNS TABLE(fixing_commit text, affected jsonb)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
SET enable_nestloop = off
SET work_mem = '64MB'
AS $$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    repo integer;
BEGIN
    -- the extension's schema when the function runs, not the one of CREATE
    -- EXTENSION (issue 28): the names below are found through it, and the
    -- function's SET clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    SELECT p.repository_id INTO repo
      FROM fixes_repositories p WHERE p.name = fixes_cve_affected_all.repository;
    IF repo IS NULL THEN
        IF fixes_cve_affected_all.repository IS NULL THEN
            RETURN;
        END IF;
        RAISE EXCEPTION 'repository "%" is not loaded', fixes_cve_affected_all.repository
              USING ERRCODE = 'undefined_object',
                    HINT = 'fixes_repositories lists the loaded repositories.';
    END IF;
    RETURN QUERY EXECUTE fixes_cve_affected_query(nsp, false)
                 USING repo, NULL::integer, COALESCE(vendor, fixes_cve_affected_all.repository),
                       COALESCE(product, fixes_cve_affected_all.repository), repo_url;
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_cve_affected_all(text, text, text, text) IS
'fixes_cve_affected for every fixing commit of the repository with a resolved mainline Fixes edge, in fixing_commit order: one row each, for a batch export';
-- ---- end of issue 32 ----
