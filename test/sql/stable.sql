-- Stable branches (issue 13) over the fixture stable.git, whose history and
-- expected answers are in test/fixtures/README.md ("stable.git")
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS fixes;
RESET client_min_messages;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set stable :fixtures '/stable.git'
\set re '^refs/(heads|remotes/origin)/stable-'

-- fixes_parse_backports: the three forms, whole lines, case-insensitive,
-- 7 to 40 hex digits, the abbrev lower-cased
SELECT * FROM fixes_parse_backports(E'subject\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n'
    '[ Upstream commit ABCDEF0 ]\n'
    '  (cherry picked from commit 1234567890ab)  \n'
    'COMMIT abcdef012 UPSTREAM\n'
    '[upstream commit abcdef0123]\n');
-- not backport lines: 6 or 41 digits, text around, another form
SELECT count(*) FROM fixes_parse_backports(E'commit abcdef upstream.\n'
    'commit 0123456789abcdef0123456789abcdef012345678 upstream.\n'
    'see commit abcdef0123 upstream.\n'
    'commit abcdef0123 upstream. (v2)\n'
    '(cherry-picked from commit abcdef0123)\n'
    'Upstream commit abcdef0123\n');
SELECT count(*) FROM fixes_parse_backports('');

-- mainline-only first: today's behaviour
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'stable', name => 'st');
CREATE TEMP TABLE main_per_release AS SELECT * FROM fixes_per_release WHERE repository = 'st';
CREATE TEMP TABLE main_buggiest AS SELECT * FROM fixes_buggiest_commits WHERE repository = 'st';
CREATE TEMP TABLE main_unresolved AS SELECT * FROM fixes_unresolved WHERE repository = 'st';
SELECT count(*) AS stable_rows FROM fixes_commits WHERE NOT mainline;

-- with the stable branches: the same figures come back (the mainline's)
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'stable', name => 'st', stable_branches => :'re');
SELECT name, stable_branches FROM fixes_repositories WHERE name = 'st';

-- the mainline answers do not move: no row differs, either way
SELECT 'per_release' AS view, count(*) AS differing FROM (
    (SELECT * FROM fixes_per_release WHERE repository = 'st' EXCEPT ALL SELECT * FROM main_per_release)
    UNION ALL
    (SELECT * FROM main_per_release EXCEPT ALL SELECT * FROM fixes_per_release WHERE repository = 'st')) d
UNION ALL
SELECT 'buggiest_commits', count(*) FROM (
    (SELECT * FROM fixes_buggiest_commits WHERE repository = 'st' EXCEPT ALL SELECT * FROM main_buggiest)
    UNION ALL
    (SELECT * FROM main_buggiest EXCEPT ALL SELECT * FROM fixes_buggiest_commits WHERE repository = 'st')) d
UNION ALL
SELECT 'unresolved', count(*) FROM (
    (SELECT * FROM fixes_unresolved WHERE repository = 'st' EXCEPT ALL SELECT * FROM main_unresolved)
    UNION ALL
    (SELECT * FROM main_unresolved EXCEPT ALL SELECT * FROM fixes_unresolved WHERE repository = 'st')) d;
SELECT (SELECT count(*) FROM main_per_release) AS releases,
       (SELECT count(*) FROM main_buggiest) AS buggiest,
       (SELECT count(*) FROM main_unresolved) AS unresolved;

-- releases of both scopes: stable ranks follow the mainline's, in version
-- order; v0.9.1 forks before the first release and v0.0.1 has no mainline
-- ancestor: series NULL
SELECT r.release_rank, r.tag, r.mainline, r.series, r.commits, c.subject
  FROM fixes_releases r
  JOIN fixes_repositories p ON p.repository_id = r.repository_id
  JOIN fixes_commits c ON c.repository_id = r.repository_id AND c.commit_idx = r.commit_idx
 WHERE p.name = 'st' ORDER BY r.release_rank;

-- every commit once, with its scope and release; stable-old (M05) and the
-- mainline add nothing to the stable scope
SELECT left(c.commit_id, 12) AS commit, c.mainline, c.release, c.subject
  FROM fixes_commits c JOIN fixes_repositories p ON p.repository_id = c.repository_id
 WHERE p.name = 'st' ORDER BY c.mainline DESC, c.committed_at, c.commit_id;

-- the backport lines: S05's second line names a stable commit (not_found
-- in the mainline), S08's an id two mainline commits share and an unknown id
SELECT left(c.commit_id, 12) AS commit, b.line, b.status, b.abbrev,
       left(u.commit_id, 12) AS upstream, u.subject AS upstream_subject, b.raw
  FROM fixes_backports b
  JOIN fixes_repositories p ON p.repository_id = b.repository_id
  JOIN fixes_commits c ON c.repository_id = b.repository_id AND c.commit_idx = b.commit_idx
  LEFT JOIN fixes_commits u ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx
 WHERE p.name = 'st' ORDER BY c.committed_at, b.line;

-- Fixes lines of stable commits resolve against both scopes: S04 fixes
-- S02, a stable commit; S08's is not found (and not in fixes_unresolved,
-- whose answers are the mainline's)
SELECT left(e.fixing_commit, 12) AS fixing, c.mainline, e.line, e.status, e.method,
       left(e.target_commit, 12) AS target, e.fixing_release, e.target_release
  FROM fixes_edges e
  JOIN fixes_repositories p ON p.repository_id = e.repository_id
  JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
 WHERE p.name = 'st' ORDER BY c.mainline DESC, c.committed_at, e.line;

-- where each bug shipped and where its fix landed
SELECT left(a.fixing_commit, 12) AS fixing, f.subject AS fixing_subject,
       left(a.target_commit, 12) AS target, a.series, a.introduced_in, a.fixed_in,
       left(a.fix_backport, 12) AS fix_backport
  FROM fixes_affected a
  JOIN fixes_commits f ON f.commit_id = a.fixing_commit
  JOIN fixes_repositories p ON p.repository_id = f.repository_id AND p.name = a.repository
 WHERE a.repository = 'st'
 ORDER BY a.series NULLS FIRST, a.introduced_in, a.fixing_commit, a.target_commit;

-- one fixing commit, by id: the question of the README
SELECT series, introduced_in, fixed_in, left(fix_backport, 12) AS fix_backport
  FROM fixes_affected
 WHERE fixing_commit = (SELECT commit_id FROM fixes_commits WHERE subject = 'core: fix parser again' AND mainline)
 ORDER BY series NULLS FIRST;

SELECT repository, series, release, released_at, commits, backports, bugs_fixed,
       regressions_introduced, known_bugs
  FROM fixes_per_stable_release WHERE repository = 'st';
-- issue 42: release_rank, fixes_releases' rank (version order, also within
-- a series, where ORDER BY release put 1.48.10 before 1.48.2)
SELECT s.series, s.release, s.release_rank,
       s.release_rank = (SELECT r.release_rank FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
                          WHERE p.name = s.repository AND r.tag = s.release) AS as_fixes_releases
  FROM fixes_per_stable_release s WHERE s.repository = 'st' ORDER BY s.series, s.release_rank;

-- bad input: an invalid expression is an error and the load stays as it was
SELECT count(*) FROM fixes_load(:'stable', name => 'st', stable_branches => '(unclosed');
SELECT (SELECT count(*) FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st') AS commits,
       (SELECT count(*) FROM fixes_affected WHERE repository = 'st') AS affected,
       (SELECT stable_branches FROM fixes_repositories WHERE name = 'st') AS stable_branches;

-- an expression that matches no branch: a NOTICE, the mainline only
SELECT repository, commits, releases FROM fixes_load(:'stable', name => 'st', stable_branches => '^refs/heads/nothing$');
SELECT count(*) AS stable_commits, count(*) FILTER (WHERE release IS NOT NULL) AS released
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st' AND NOT c.mainline;
SELECT count(*) AS stable_releases FROM fixes_per_stable_release WHERE repository = 'st';

-- branches that the mainline contains (main itself, stable-old): a NOTICE,
-- no stable commit
SELECT repository, commits FROM fixes_load(:'stable', name => 'st', stable_branches => '^refs/heads/(main|stable-old)$');
SELECT count(*) AS stable_commits
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st' AND NOT c.mainline;
SELECT count(*) AS series_rows FROM fixes_affected WHERE repository = 'st' AND series IS NOT NULL;

-- and back to the mainline only (NULL: no stable scope; 1.2 remembers the
-- expression otherwise): every stable row is gone
SELECT repository, commits FROM fixes_load(:'stable', name => 'st', stable_branches => :'re');
SELECT repository, commits FROM fixes_load(:'stable', name => 'st', stable_branches => NULL);
SELECT (SELECT count(*) FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st' AND NOT c.mainline) AS stable_commits,
       (SELECT count(*) FROM fixes_backports b JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st') AS backports,
       (SELECT count(*) FROM fixes_affected_series a JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st') AS series_rows,
       (SELECT count(*) FROM fixes_releases r JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st' AND NOT r.mainline) AS stable_releases;

SELECT fixes_unload('st');
