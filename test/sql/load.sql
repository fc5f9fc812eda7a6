-- fixes_load() and the views over the fixture releases.git, whose every
-- count is known by construction (test/fixtures/README.md, "releases.git")
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set releases :fixtures '/releases.git'

SELECT repository, commits, releases, edges, resolved, seconds > 0 AS timed
  FROM fixes_load(:'releases');

SELECT name, replace(path, :'fixtures', '$FIXES_FIXTURES') AS path, ref, release_pattern, head_commit, commits, releases, edges, resolved
  FROM fixes_repositories;

-- v1.0 < v1.1 < v2.0; the rc tags and the unreachable v1.0.1 are not releases
SELECT release_rank, tag, left(commit_id, 12) AS commit, annotated, released_at, commits
  FROM fixes_releases ORDER BY release_rank;

-- the release of each commit: T01 and T02 are older than v1.1 but only
-- reachable from v2.0; D01..D07 are unreleased
SELECT left(commit_id, 12) AS commit, release, subject
  FROM fixes_commits ORDER BY committed_at, commit_id;

-- every Fixes line is an edge, whatever its status
SELECT c.subject AS fixing, e.line, e.abbrev, e.status, e.method, e.candidates,
       left(e.target_commit, 12) AS target, e.fixing_release, e.target_release
  FROM fixes_edges e
  JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
 ORDER BY e.fixed_at, e.line;

SELECT status, method, count(*) FROM fixes_edges GROUP BY 1, 2 ORDER BY 1, 2;

-- the headline views
SELECT * FROM fixes_per_release;
SELECT * FROM fixes_buggiest_commits;
SELECT repository, left(fixing_commit, 12) AS fixing, fixing_subject, line, abbrev,
       quoted_subject, status, candidates
  FROM fixes_unresolved;

-- the views' column types, as Grafana sees them
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relname IN ('fixes_per_release', 'fixes_buggiest_commits', 'fixes_unresolved')
   AND a.attnum > 0
 ORDER BY c.relname, a.attnum;

-- loading again replaces the rows: same counts, nothing duplicated
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'releases');
SELECT (SELECT count(*) FROM fixes_commits) AS commits,
       (SELECT count(*) FROM fixes_edges) AS edges,
       (SELECT count(*) FROM fixes_releases) AS releases,
       (SELECT count(*) FROM fixes_repositories) AS repositories;

-- a second repository side by side: the same history up to v1.1 only,
-- under another name; the first one is untouched
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'releases', ref => 'v1.1', name => 'releases-v1.1');
SELECT repository, release, commits, bugs_fixed, bugs_introduced FROM fixes_per_release;

-- a release pattern: only the v1.x tags are releases; v2.0 commits are unreleased
SELECT repository, releases FROM fixes_load(:'releases', release_pattern => '^v1\.[0-9]+$', name => 'v1-only');
SELECT release, commits, fixing_commits, bugs_fixed, bugs_introduced, fixed_same_release
  FROM fixes_per_release WHERE repository = 'v1-only';

-- a pattern matching no tag: every commit unreleased, with a NOTICE
SELECT repository, commits, releases FROM fixes_load(:'releases', release_pattern => '^nothing$', name => 'none');
SELECT count(*) AS unreleased FROM fixes_commits c JOIN fixes_repositories r USING (repository_id)
 WHERE r.name = 'none' AND c.release IS NULL;

-- an empty repository loads as zero commits, with a NOTICE
SELECT repository, commits, releases, edges FROM fixes_load(:'fixtures' || '/empty.git');
SELECT name, head_commit, commits FROM fixes_repositories ORDER BY name;
