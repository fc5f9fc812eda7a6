-- test/refresh-fuzz/rows.sql — every row a user reads of repository :'repo', as lines
-- "relation<TAB>row as jsonb", sorted, with the surrogate ids (commit_idx, repository_id,
-- subsystem_id, prefix_id) left out or mapped to commit ids and names, so that the output of
-- a refreshed repository in one database and of a cold load of the same state in another can
-- be diffed. The views are those of test/t/incremental.sh's compare() (which compares two
-- names in one database); the 'keys' lines are its v_keys checks (surrogate ids that disagree
-- with the commit ids they stand for), plus the stored trailer keys of each commit against
-- fixes_trailers: both must be empty. Run with psql -X -q -At -F '<TAB>' -v repo=NAME.
SET fixes_t.repo = :'repo';
CREATE TEMP VIEW r AS SELECT repository_id FROM fixes_repositories WHERE name = current_setting('fixes_t.repo');

CREATE TEMP VIEW v_repositories AS
SELECT path, ref, release_pattern, head_commit, commits, releases, edges, resolved,
       missing_parents, stable_branches, last_committed_at, files, maintainers
  FROM fixes_repositories WHERE repository_id IN (TABLE r);
CREATE TEMP VIEW v_per_release AS
SELECT release, release_rank, released_at, commits, fixing_commits, bugs_fixed,
       commits_fixed, bugs_introduced, buggy_commits_introduced, fixed_same_release,
       tagged_commits, fixing_earlier_commits, reverts, reverted_introduced,
       stable_cc_commits, stable_cc_fixing_commits
  FROM fixes_per_release WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_trailers AS
SELECT c.commit_id, t.position, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE t.repository_id IN (TABLE r);
CREATE TEMP VIEW v_trailers_per_release AS
SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release
 WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_reverted AS
SELECT commit_id, subject, release, reverted_by, reverted_at, reverted_in, same_release
  FROM fixes_reverted_commits WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_lifetimes AS
SELECT fixing_commit, target_commit, introduced_at, fixed_at, lifetime, introduced_in, fixed_in,
       releases_shipped
  FROM fixes_bug_lifetimes WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_lifetime_per_release AS
SELECT release, release_rank, fixed_median_days, fixed_p90_days, introduced_median_days,
       observed_days, found_within_365d, found_within_730d
  FROM fixes_lifetime_per_release WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_buggiest AS
SELECT rank, commit_id, abbrev, fixes, subject, release, author, authored_at, first_fixed_at,
       last_fixed_at, subsystems
  FROM fixes_buggiest_commits WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_unresolved AS
SELECT fixing_commit, fixing_subject, fixed_at, line, abbrev, quoted_subject, status, candidates, raw
  FROM fixes_unresolved WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_releases AS
SELECT tag, commit_id, release_rank AS rank, annotated, released_at, commits, mainline, series,
       backports, bugs_fixed, regressions_introduced, known_bugs
  FROM fixes_releases WHERE repository_id IN (TABLE r);
CREATE TEMP VIEW v_commits AS
SELECT commit_id, release, subject, parent_ids, authored_at, committed_at, author_name,
       author_email, committer_name, committer_email, md5(message) AS message_md5, mainline,
       files, added, deleted, stable_cc
  FROM fixes_commits WHERE repository_id IN (TABLE r);
CREATE TEMP VIEW v_commit_files AS
SELECT c.commit_id, f.path, f.added, f.deleted
  FROM fixes_commit_files f JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE f.repository_id IN (TABLE r);
CREATE TEMP VIEW v_subsystems AS
SELECT name FROM fixes_subsystems WHERE repository_id IN (TABLE r);
CREATE TEMP VIEW v_commit_subsystems AS
SELECT c.commit_id, s.name
  FROM fixes_commit_subsystems x JOIN fixes_commits c USING (repository_id, commit_idx)
  JOIN fixes_subsystems s ON s.repository_id = x.repository_id AND s.subsystem_id = x.subsystem_id
 WHERE x.repository_id IN (TABLE r);
CREATE TEMP VIEW v_per_subsystem AS
SELECT subsystem, commits, fixing_commits, buggy_commits, bugs_introduced, bugs_fixed,
       median_lifetime_days
  FROM fixes_per_subsystem WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_per_path_prefix AS
SELECT d.depth, x.*
  FROM generate_series(1, 5) AS d(depth),
       LATERAL fixes_per_path_prefix(current_setting('fixes_t.repo'), d.depth) AS x
 WHERE EXISTS (TABLE r);
CREATE TEMP VIEW v_group_lifetimes AS
SELECT 'section' AS kind, s.name AS grp, md5(k.lifetimes) AS lifetimes
  FROM fixes_subsystem_counts k
  JOIN fixes_subsystems s ON s.repository_id = k.repository_id AND s.subsystem_id = k.subsystem_id
 WHERE k.repository_id IN (TABLE r)
UNION ALL
SELECT 'prefix ' || k.depth, k.prefix, md5(k.lifetimes)
  FROM fixes_path_prefix_counts k WHERE k.repository_id IN (TABLE r);
CREATE TEMP VIEW v_backports AS
SELECT c.commit_id, b.line, b.status, u.commit_id AS upstream, b.abbrev, b.raw
  FROM fixes_backports b
  JOIN fixes_commits c ON c.repository_id = b.repository_id AND c.commit_idx = b.commit_idx
  LEFT JOIN fixes_commits u ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx
 WHERE b.repository_id IN (TABLE r);
CREATE TEMP VIEW v_affected AS
SELECT fixing_commit, target_commit, series, introduced_in, fixed_in, fix_backport
  FROM fixes_affected WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_per_stable_release AS
SELECT series, release, released_at, commits, backports, bugs_fixed, regressions_introduced,
       known_bugs
  FROM fixes_per_stable_release WHERE repository = current_setting('fixes_t.repo');
CREATE TEMP VIEW v_edges AS
SELECT e.fixing_commit, e.line, e.abbrev, e.status, e.method, e.candidates, e.target_commit,
       e.fixing_release, e.target_release, e.fixed_at, e.quoted_subject, e.raw, e.kind,
       e.introduced_at
  FROM fixes_edges e WHERE e.repository_id IN (TABLE r);
CREATE TEMP VIEW v_fixed_commits AS
SELECT c.commit_id, to_jsonb(f) - 'repository_id' - 'commit_idx' AS j
  FROM fixes_fixed_commits f JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE f.repository_id IN (TABLE r);
-- the surrogate keys must agree with the ids they stand for
CREATE TEMP VIEW v_keys AS
SELECT 'edge ' || e.fixing_commit || ':' || e.line || ' fixing_idx' AS what
  FROM fixes_edges e
  LEFT JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
 WHERE e.repository_id IN (TABLE r) AND c.commit_id IS DISTINCT FROM e.fixing_commit
UNION ALL
SELECT 'edge ' || e.fixing_commit || ':' || e.line || ' target_idx'
  FROM fixes_edges e
  LEFT JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
 WHERE e.repository_id IN (TABLE r) AND e.target_idx IS NOT NULL
   AND c.commit_id IS DISTINCT FROM e.target_commit
UNION ALL
SELECT 'release ' || x.tag || ' commit_idx'
  FROM fixes_releases x
  LEFT JOIN fixes_commits c ON c.repository_id = x.repository_id AND c.commit_idx = x.commit_idx
 WHERE x.repository_id IN (TABLE r)
   AND CASE WHEN x.mainline AND NOT EXISTS (SELECT FROM fixes_commits m
                                             WHERE m.repository_id = x.repository_id
                                               AND m.commit_id = x.commit_id AND m.mainline)
            -- a release off the ref (release_tags 'all'): commit_id is its tag's commit, off
            -- the scope, and commit_idx a mainline commit it releases (docs/release-branches.md)
            THEN c.commit_id IS NULL OR NOT c.mainline
            ELSE c.commit_id IS DISTINCT FROM x.commit_id END
UNION ALL
SELECT 'fixes_graph holds ' || coalesce(sum(g.commits), 0) || ' commits, fixes_repositories ' || p.commits
  FROM fixes_repositories p LEFT JOIN fixes_graph g USING (repository_id)
 WHERE p.repository_id IN (TABLE r)
 GROUP BY p.commits HAVING coalesce(sum(g.commits), 0) <> p.commits
UNION ALL
SELECT 'commit_idx not 0..n-1'
  FROM fixes_commits c WHERE c.repository_id IN (TABLE r)
HAVING min(c.commit_idx) <> 0 OR max(c.commit_idx) <> count(*) - 1
UNION ALL
-- fixes_trailer_keys (chunks of 65536 commits: a count per commit, then its key ids, uint32
-- little-endian; chunk -1 the keys): each mainline commit's distinct lower-cased keys
SELECT 'trailer keys of commit_idx ' || coalesce(s.idx, t.idx) || ': stored '
       || coalesce(s.keys, '-') || ', fixes_trailers ' || coalesce(t.keys, '-')
  FROM (SELECT idx, string_agg(key, ',' ORDER BY key) AS keys
          FROM (SELECT c.idx, d.keys[1 + (get_byte(c.ids, 4 * (c.off + j)) | (get_byte(c.ids, 4 * (c.off + j) + 1) << 8))] AS key
                  FROM (SELECT k.repository_id, k.chunk * 65536 + i AS idx, k.ids,
                               get_byte(k.counts, 4 * i) AS n,
                               (sum(get_byte(k.counts, 4 * i)) OVER (PARTITION BY k.chunk ORDER BY i)
                                - get_byte(k.counts, 4 * i))::int AS off
                          FROM fixes_trailer_keys k CROSS JOIN LATERAL generate_series(0, k.commits - 1) AS i
                         WHERE k.repository_id IN (TABLE r) AND k.chunk >= 0) c
                  JOIN fixes_trailer_keys d ON d.repository_id = c.repository_id AND d.chunk = -1
                  CROSS JOIN LATERAL generate_series(0, c.n - 1) AS j) x
         GROUP BY 1) s
  FULL JOIN (SELECT t.commit_idx AS idx, string_agg(DISTINCT lower(t.key), ',' ORDER BY lower(t.key)) AS keys
               FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
              WHERE t.repository_id IN (TABLE r) AND c.mainline
              GROUP BY 1) t ON t.idx = s.idx
 WHERE s.keys IS DISTINCT FROM t.keys;

CREATE FUNCTION pg_temp.rows() RETURNS TABLE (relation text, row_text text)
LANGUAGE plpgsql AS $$
DECLARE
    rel text;
BEGIN
    FOREACH rel IN ARRAY ARRAY['v_repositories', 'v_per_release', 'v_buggiest', 'v_unresolved',
                               'v_releases', 'v_commits', 'v_commit_files', 'v_subsystems',
                               'v_commit_subsystems', 'v_edges', 'v_backports', 'v_affected',
                               'v_per_stable_release', 'v_trailers', 'v_trailers_per_release',
                               'v_reverted', 'v_lifetimes', 'v_lifetime_per_release',
                               'v_per_subsystem', 'v_per_path_prefix', 'v_group_lifetimes',
                               'v_fixed_commits', 'v_keys'] LOOP
        RETURN QUERY EXECUTE format('SELECT %L, to_jsonb(x)::text FROM %I x', rel, rel);
    END LOOP;
END
$$;
SELECT relation, row_text FROM pg_temp.rows() ORDER BY relation COLLATE "C", row_text COLLATE "C";
