-- Statistics on real histories (issue 30) over the fixture stablecc.git,
-- whose every number is known by construction (test/fixtures/README.md,
-- "stablecc.git"): fixes_commits.stable_cc in both conventions (git's trailer
-- block and a paragraph above it), the two new columns of fixes_per_release,
-- and the windowed lifetimes of fixes_lifetime_per_release.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set stablecc :fixtures '/stablecc.git'

SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'stablecc');

-- every commit: Q01, Q03, Q04, Q06, T01, T05 and U01 write Cc: stable in a
-- paragraph above git's trailer block, Q02 in it; Q05's lines are near
-- misses (linux-stable@, a display name "Stable Team" of another address,
-- stable@ after '#', a To: line, "Cc :")
SELECT left(commit_id, 12) AS commit, subject, release, stable_cc,
       (SELECT count(*) FROM fixes_edges e
         WHERE e.repository_id = c.repository_id AND e.fixing_idx = c.commit_idx) AS fixes_lines
  FROM fixes_commits c ORDER BY committed_at, commit_idx DESC;

-- git's trailers see only the Cc: line of Q02: the others are above the block
SELECT left(c.commit_id, 12) AS commit, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE lower(t.key) IN ('cc', 'fixes') ORDER BY c.committed_at, t.position;

-- v2: Q01..Q04 and Q06 asked for stable (5), Q01, Q02, Q04 with a resolved
-- Fixes edge (3; Q03 and Q06 fix nothing); v4: T01 and T05, both fixing;
-- U01 is unreleased
SELECT release, commits, fixing_commits, stable_cc_commits, stable_cc_fixing_commits
  FROM fixes_per_release;

-- the share of fixes that asked for a stable backport, whichever convention
-- the project writes them in (README.md, "Cc: stable anywhere in the message")
SELECT release, fixing_commits, stable_cc_fixing_commits,
       round(100.0 * stable_cc_fixing_commits / nullif(fixing_commits, 0), 1) AS stable_share
  FROM fixes_per_release WHERE repository = 'stablecc';

-- the newest commit is U01 (day 1200); v1 was tagged on day 5, v2 on day
-- 400, v3 on day 701, v4 on day 900.  v1's bugs were found after 9, 18, 37,
-- 50, exactly 365 and 365 days + 1 s, 729, exactly 730 (twice) and 731
-- days: 5 within 365, 9 within 730.  v2's one bug (Q03) after 770 days: 0
-- and 0.  v3 has none, and is observed for 499 days: 0 within 365, NULL
-- within 730.  v4 (observed 300 days): NULL, though T01's bug was found.
SELECT release, introduced_median_days, observed_days, found_within_365d, found_within_730d
  FROM fixes_lifetime_per_release;
SELECT last_committed_at FROM fixes_repositories;

-- the same from the edges (fixes_bug_lifetimes), as a user would count them,
-- without the rule that hides a window not yet observed (v4)
SELECT introduced_in AS release, count(*) AS bugs,
       count(*) FILTER (WHERE lifetime <= interval '365 days') AS within_365d,
       count(*) FILTER (WHERE lifetime <= interval '730 days') AS within_730d
  FROM fixes_bug_lifetimes
 WHERE introduced_in IS NOT NULL AND (fixed_in IS NULL OR releases_shipped > 0)
 GROUP BY 1 ORDER BY 1;

-- a refresh from v3 to the head keeps the old commits' stable_cc (read back
-- from fixes_graph): the same counts as the cold load above
SELECT repository, commits FROM fixes_load(:'stablecc', 'v3', name => 'warm');
SELECT repository, commits FROM fixes_load(:'stablecc', name => 'warm');
SELECT release, stable_cc_commits, stable_cc_fixing_commits FROM fixes_per_release WHERE repository = 'warm'
EXCEPT ALL
SELECT release, stable_cc_commits, stable_cc_fixing_commits FROM fixes_per_release WHERE repository = 'stablecc';
SELECT release, observed_days, found_within_365d, found_within_730d FROM fixes_lifetime_per_release WHERE repository = 'warm'
EXCEPT ALL
SELECT release, observed_days, found_within_365d, found_within_730d FROM fixes_lifetime_per_release WHERE repository = 'stablecc';
SELECT count(*) AS stable_cc_commits FROM fixes_commits
 WHERE stable_cc AND repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = 'warm');
-- and its graph holds them, one bit each, where a refresh reads them
SELECT count(*) AS bits_set FROM fixes_graph g, generate_series(0, g.commits - 1) AS i
 WHERE get_bit(g.stable_cc, i) = 1
   AND g.repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = 'warm');

-- the new columns
SELECT table_name, column_name, data_type FROM information_schema.columns
 WHERE (table_name, column_name) IN (('fixes_commits', 'stable_cc'), ('fixes_repositories', 'last_committed_at'),
                                     ('fixes_graph', 'stable_cc'))
    OR (table_name = 'fixes_releases' AND column_name IN ('stable_cc_commits', 'stable_cc_fixing_commits',
                                                          'found_within_365d', 'found_within_730d'))
 ORDER BY table_name, column_name;
