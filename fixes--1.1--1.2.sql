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
-- extension up).  Same name, arguments, result, privileges and comment.
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
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $fn$
DECLARE
    -- the extension's schema now, not the one of CREATE EXTENSION: a renamed
    -- schema still works, and another schema that took its old name is not read
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    stored boolean;
BEGIN
    EXECUTE pg_catalog.format($q$SELECT EXISTS (SELECT FROM %1$I.fixes_path_prefix_counts k
                 JOIN %1$I.fixes_repositories r ON r.repository_id = k.repository_id
                WHERE r.name = $1 AND k.depth = $2)$q$, nsp)
       INTO stored USING $1, $2;
    IF stored THEN
        RETURN QUERY EXECUTE pg_catalog.format($q$
        SELECT k.prefix, k.commits, k.fixing_commits, k.buggy_commits, k.bugs_introduced,
               k.bugs_fixed, k.median_lifetime_days
          FROM %1$I.fixes_path_prefix_counts k
          JOIN %1$I.fixes_repositories r ON r.repository_id = k.repository_id
         WHERE r.name = $1 AND k.depth = $2
         ORDER BY k.prefix$q$, nsp) USING $1, $2;
        RETURN;
    END IF;
    RETURN QUERY EXECUTE pg_catalog.format($q$
    WITH repo AS (
        SELECT r.repository_id FROM %1$I.fixes_repositories r WHERE r.name = $1
    ), members AS (
        -- a path's directory, cut to depth components; '.' for the top level
        SELECT DISTINCT f.commit_idx,
               COALESCE(NULLIF(array_to_string(
                   (string_to_array(f.path, '/'))[1:least($2, array_length(string_to_array(f.path, '/'), 1) - 1)],
                   '/'), ''), '.') AS prefix
          FROM %1$I.fixes_commit_files f, repo, %1$I.fixes_commits c
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
          JOIN %1$I.fixes_edges e ON e.repository_id = repo.repository_id
          JOIN %1$I.fixes_commits c
            ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
          JOIN %1$I.fixes_commits fc
            ON fc.repository_id = e.repository_id AND fc.commit_idx = e.fixing_idx
         WHERE e.target_idx = m.commit_idx AND e.status = 'resolved' AND e.kind = 'fixes' AND fc.mainline
         GROUP BY m.prefix
    ), fixed AS (
        SELECT m.prefix,
               count(*) AS bugs_fixed,
               count(DISTINCT e.fixing_idx) AS fixing_commits
          FROM members m, repo
          JOIN %1$I.fixes_edges e ON e.repository_id = repo.repository_id
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
     ORDER BY z.prefix$q$, nsp) USING $1, $2;
END
$fn$;

-- ---- end of issue 28 ----

-- ---- issue 29: answers a CVE analyst can trust ----
-- ---- end of issue 29 ----

-- ---- issue 30: statistics on real histories ----
-- ---- end of issue 30 ----

-- ---- issue 31: refresh ----
-- ---- end of issue 31 ----

-- ---- issue 32: CVE records ----
-- ---- end of issue 32 ----
