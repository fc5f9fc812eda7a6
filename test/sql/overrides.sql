-- fixes_overrides (issue 16): corrections of Fixes: and revert lines that
-- every load and refresh of the repository applies, over article.git
-- (test/fixtures/README.md).  C04 "net: fix the fix" has three Fixes: lines:
-- 13ded6202037 (A01, which it does not fix: B01 is meant), 3a9c0db976d5 (B02,
-- not a bug fix at all) and 0123456789ab (no such commit).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set article :fixtures '/article.git'
\set A01 '13ded6202037991f88fc2df54398db45c4fb5f42'
\set B01 '16acce17ecdbb3f88040f5c592a6d43d9d2dd0c6'
\set B02 '3a9c0db976d546859fbc57e8e2f90fa859101640'
\set C02 'c8920f7823ed8747cacae809989eccb58a7ca439'
\set C04 '6ae9440d498a11944dcafd5f6ba5f3255a6a9a09'

SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');

-- the rows: a target (resolved by override), NULL (ignored), a target that
-- is not a commit of the repository (WARNING), an abbrev that C04 does not
-- write and a fixing commit that is not in scope (both counted in a NOTICE),
-- an override of a revert line (C02's unknown id), and a row for a
-- repository that no load has used (no load of 'article' sees it)
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note) VALUES
    ('article', :'C04', '13ded6202037', :'B01', 'C04 fixes the leak fix, not the import'),
    ('article', :'C04', '3a9c0db976d5', NULL, 'not a bug fix'),
    ('article', :'C04', '0123456789ab', repeat('e', 40), 'a commit of another tree'),
    ('article', :'C04', 'abcdef0', :'B01', 'C04 writes no such line'),
    ('article', repeat('f', 40), '1234567', NULL, 'no such fixing commit'),
    ('article', :'C02', 'deadbeefcafe1234', :'B02', 'the revert meant B02'),
    ('nosuch', :'C04', '13ded6202037', NULL, 'a repository never loaded');

-- a change to fixes_overrides alone is a change: the refresh applies it
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');

SELECT left(e.fixing_commit, 12) AS fixing, e.line, e.kind, e.abbrev, e.status, e.method,
       e.candidates, left(e.target_commit, 12) AS target, e.target_release, e.introduced_at
  FROM fixes_edges e
 WHERE e.fixing_commit IN (:'C02', :'C04')
 ORDER BY e.fixing_commit, e.line;

-- the ignored edge counts nowhere; the overridden ones count as resolved:
-- v3.0 fixes B01 (v2.0) instead of A01 (v1.0); its revert count grows by one
SELECT * FROM fixes_per_release;
SELECT left(fixing_commit, 12) AS fixing, line, abbrev, status FROM fixes_unresolved;
SELECT left(fixing_commit, 12) AS fixing, left(target_commit, 12) AS target, lifetime,
       introduced_in, fixed_in, releases_shipped
  FROM fixes_bug_lifetimes WHERE fixing_commit = :'C04';
SELECT * FROM fixes_lifetime_per_release;
SELECT left(commit_id, 12) AS commit, subject, release, left(reverted_by, 12) AS reverted_by, same_release
  FROM fixes_reverted_commits ORDER BY reverted_at;
SELECT * FROM fixes_buggiest_commits;

-- a fresh load of the same state under another name, with the same
-- overrides, gives the same answers
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT 'article-fresh', fixing_commit, abbrev, target_commit, note
  FROM fixes_overrides WHERE repository = 'article';
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'article', name => 'article-fresh');
SELECT (SELECT count(*) FROM (
            SELECT release, commits, fixing_commits, bugs_fixed, commits_fixed, bugs_introduced,
                   buggy_commits_introduced, fixed_same_release, tagged_commits,
                   fixing_earlier_commits, reverts, reverted_introduced
              FROM fixes_per_release WHERE repository = 'article'
            EXCEPT
            SELECT release, commits, fixing_commits, bugs_fixed, commits_fixed, bugs_introduced,
                   buggy_commits_introduced, fixed_same_release, tagged_commits,
                   fixing_earlier_commits, reverts, reverted_introduced
              FROM fixes_per_release WHERE repository = 'article-fresh') d) AS releases_differing,
       (SELECT count(*) FROM (
            SELECT e.fixing_commit, e.line, e.kind, e.status, e.method, e.target_commit, e.introduced_at
              FROM fixes_edges e JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'article'
            EXCEPT
            SELECT e.fixing_commit, e.line, e.kind, e.status, e.method, e.target_commit, e.introduced_at
              FROM fixes_edges e JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'article-fresh') d)
         AS edges_differing;

-- nothing changed: the load changes nothing (and says nothing)
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');

-- the ignore is taken back: the edge resolves by hash again
DELETE FROM fixes_overrides WHERE repository = 'article' AND abbrev = '3a9c0db976d5';
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');
SELECT left(e.fixing_commit, 12) AS fixing, e.line, e.abbrev, e.status, e.method,
       left(e.target_commit, 12) AS target
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'article' AND e.fixing_commit = :'C04' ORDER BY e.line;

-- the rows must name commits by their full ids, and an abbrev as a Fixes:
-- or revert line can write it (lower case)
INSERT INTO fixes_overrides VALUES ('article', upper(:'C04'), '13ded6202037', NULL, NULL);
INSERT INTO fixes_overrides VALUES ('article', :'C04', '13DED6202037', NULL, NULL);
INSERT INTO fixes_overrides VALUES ('article', :'C04', '13ded', NULL, NULL);
INSERT INTO fixes_overrides VALUES ('article', :'C04', 'abcdef1', '16acce17ecdb', NULL);
INSERT INTO fixes_overrides VALUES ('article', :'C04', '13ded6202037', NULL, 'twice');

-- pg_dump keeps the rows (a configuration table of the extension, whole)
SELECT c.relname, x.cond
  FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS x(oid, cond)
  JOIN pg_class c ON c.oid = x.oid
 WHERE e.extname = 'fixes' AND c.relname IN ('fixes_overrides', 'fixes_trailers', 'fixes_release_trailers')
 ORDER BY 1;

-- fixes_unload leaves a repository's overrides: they apply to its next load
SELECT fixes_unload('article');
SELECT repository, count(*) FROM fixes_overrides GROUP BY 1 ORDER BY 1;
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');
