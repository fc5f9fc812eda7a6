-- The 1.1 library serves a database whose SQL is still at 1.0 (before ALTER
-- EXTENSION fixes UPDATE) exactly as 1.0 did: no revert edges, no trailers,
-- no overrides, and fixes_parse_fixes with its four columns.  After the
-- update, the next load reads each repository in full and fills what 1.1
-- adds, as a fresh 1.1 install does (test/t/upgrade.sh compares the two
-- catalogs and every row).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes VERSION '1.0';
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set article :fixtures '/article.git'

SELECT extversion FROM pg_extension WHERE extname = 'fixes';
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');

-- the Fixes: lines only, as 1.0 stored them
SELECT left(fixing_commit, 12) AS fixing, line, abbrev, status, method, left(target_commit, 12) AS target
  FROM fixes_edges ORDER BY fixed_at, line;
SELECT * FROM fixes_per_release;
SELECT count(*) AS unresolved FROM fixes_unresolved;
SELECT * FROM fixes_parse_fixes(E'Revert "x"\n\nThis reverts commit 0123456.\nFixes: 0123456789ab ("y")\n');
SELECT count(*) AS tables_of_1_1 FROM pg_class
 WHERE relname IN ('fixes_trailers', 'fixes_release_trailers', 'fixes_overrides');

-- nothing changed: the load of 1.0 changes nothing
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');

ALTER EXTENSION fixes UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'fixes';

-- until the next load, 1.0's rows: Fixes edges, zeros in the new columns
SELECT kind, count(*) FROM fixes_edges GROUP BY kind;
SELECT release, tagged_commits, fixing_earlier_commits, reverts, reverted_introduced
  FROM fixes_per_release;
SELECT count(*) AS trailers FROM fixes_trailers;

-- the next load reads the repository in full: revert edges, trailers, the
-- new counts, as a fresh 1.1 load has them (test/sql/article.sql)
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');
SELECT kind, status, method, count(*) FROM fixes_edges GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT release, tagged_commits, fixing_earlier_commits, reverts, reverted_introduced
  FROM fixes_per_release;
SELECT count(*) AS trailers FROM fixes_trailers;
SELECT * FROM fixes_trailers_per_release WHERE key IN ('fixes', 'reported-by');
SELECT * FROM fixes_lifetime_per_release;
SELECT line, abbrev, quoted_subject, kind
  FROM fixes_parse_fixes(E'Revert "x"\n\nThis reverts commit 0123456.\nFixes: 0123456789ab ("y")\n');
