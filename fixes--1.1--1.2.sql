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
-- ---- end of issue 28 ----

-- ---- issue 29: answers a CVE analyst can trust ----
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
-- their indexes.
CREATE VIEW @extschema@.fixes_affected_releases AS
SELECT p.name AS repository,
       m.fixing_commit,
       m.target_commit,
       r.series,
       r.tag AS release,
       r.release_rank
  FROM (SELECT DISTINCT e.repository_id, e.fixing_commit, e.target_commit,
               e.target_release, e.fixing_release
          FROM @extschema@.fixes_edges e
         WHERE e.status = 'resolved' AND e.kind = 'fixes'
           AND NOT EXISTS (SELECT FROM @extschema@.fixes_commits c
                            WHERE c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
                              AND NOT c.mainline)) m
  JOIN @extschema@.fixes_releases t
    ON t.repository_id = m.repository_id AND t.tag = m.target_release
  LEFT JOIN @extschema@.fixes_releases f
    ON f.repository_id = m.repository_id AND f.tag = m.fixing_release
  JOIN @extschema@.fixes_releases r
    ON r.repository_id = m.repository_id AND r.mainline
   AND r.release_rank >= t.release_rank
   AND (f.release_rank IS NULL OR r.release_rank < f.release_rank)
  JOIN @extschema@.fixes_repositories p ON p.repository_id = m.repository_id
 WHERE t.mainline
UNION ALL
SELECT p.name,
       e.fixing_commit,
       e.target_commit,
       r.series,
       r.tag,
       r.release_rank
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_affected_series fa
    ON fa.repository_id = e.repository_id AND fa.fixing_idx = e.fixing_idx
   AND fa.target_idx = e.target_idx
 CROSS JOIN LATERAL unnest(fa.series_ranks, fa.introduced_ranks, fa.fixed_ranks)
       AS u(series_rank, introduced_rank, fixed_rank)
  JOIN @extschema@.fixes_releases s
    ON s.repository_id = fa.repository_id AND s.release_rank = u.series_rank
  JOIN @extschema@.fixes_releases r
    ON r.repository_id = fa.repository_id AND NOT r.mainline AND r.series = s.tag
   AND r.release_rank >= u.introduced_rank
   AND (u.fixed_rank IS NULL OR r.release_rank < u.fixed_rank)
  JOIN @extschema@.fixes_repositories p ON p.repository_id = e.repository_id
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
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    repo integer;
    hex text COLLATE "C";
    found_id text;
    n integer;
    shown text;
BEGIN
    SELECT p.repository_id INTO repo
      FROM @extschema@.fixes_repositories p WHERE p.name = fixes_commit_id.repository;
    IF repo IS NULL THEN
        RAISE EXCEPTION 'repository "%" is not loaded', fixes_commit_id.repository
              USING ERRCODE = 'undefined_object',
                    HINT = 'fixes_repositories lists the loaded repositories.';
    END IF;
    hex := pg_catalog.lower(rev);
    IF hex ~ '^[0-9a-f]{40}$' THEN
        SELECT c.commit_id INTO found_id FROM @extschema@.fixes_commits c
         WHERE c.commit_id = hex AND c.repository_id = repo;
        IF found_id IS NOT NULL THEN
            RETURN found_id;
        END IF;
    END IF;
    SELECT r.commit_id INTO found_id FROM @extschema@.fixes_releases r
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
              FROM @extschema@.fixes_commits c
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
-- ---- end of issue 30 ----

-- ---- issue 31: refresh ----
-- ---- end of issue 31 ----

-- ---- issue 32: CVE records ----
-- ---- end of issue 32 ----
