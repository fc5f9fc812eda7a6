-- answers-oracle.sql — fixes_per_subsystem and fixes_per_path_prefix computed at query time
-- from fixes_commit_subsystems, fixes_commit_files and fixes_edges, as version 1.1 first did
-- (before each load stored them): test/t/files.sh compares the stored answers with these.
-- Run with psql -v r=NAME; prints one line per kind of answer: how many rows, and how many
-- differ (rows of one side that the other lacks, compared exactly, floats to the last bit).

-- statistics first: the joins of a table just loaded are planned as if it were empty
ANALYZE public.fixes_commit_files, public.fixes_commit_subsystems, public.fixes_commits,
        public.fixes_edges;

CREATE FUNCTION pg_temp.q_per_subsystem(text)
RETURNS TABLE (subsystem text, commits bigint, fixing_commits bigint, buggy_commits bigint,
               bugs_introduced bigint, bugs_fixed bigint, median_lifetime_days float8)
LANGUAGE sql STABLE AS $$
WITH members AS (
    SELECT cs.repository_id, cs.subsystem_id, cs.commit_idx
      FROM public.fixes_commit_subsystems cs
      JOIN public.fixes_commits c
        ON c.repository_id = cs.repository_id AND c.commit_idx = cs.commit_idx
     WHERE c.mainline
), introduced AS (
    SELECT m.repository_id, m.subsystem_id,
           count(*) AS bugs_introduced,
           count(DISTINCT e.target_idx) AS buggy_commits,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY
               extract(epoch FROM e.fixed_at - c.committed_at) / 86400) AS median_lifetime_days
      FROM members m
      JOIN public.fixes_edges e
        ON e.repository_id = m.repository_id AND e.target_idx = m.commit_idx
      JOIN public.fixes_commits c
        ON c.repository_id = m.repository_id AND c.commit_idx = m.commit_idx
      JOIN public.fixes_commits fc
        ON fc.repository_id = e.repository_id AND fc.commit_idx = e.fixing_idx
     WHERE e.status = 'resolved' AND e.kind = 'fixes' AND fc.mainline
     GROUP BY m.repository_id, m.subsystem_id
), fixed AS (
    SELECT m.repository_id, m.subsystem_id,
           count(*) AS bugs_fixed,
           count(DISTINCT e.fixing_idx) AS fixing_commits
      FROM members m
      JOIN public.fixes_edges e
        ON e.repository_id = m.repository_id AND e.fixing_idx = m.commit_idx
     WHERE e.status = 'resolved' AND e.kind = 'fixes'
     GROUP BY m.repository_id, m.subsystem_id
), sizes AS (
    SELECT m.repository_id, m.subsystem_id, count(*) AS commits
      FROM members m
     GROUP BY m.repository_id, m.subsystem_id
)
SELECT s.name,
       COALESCE(z.commits, 0), COALESCE(f.fixing_commits, 0), COALESCE(i.buggy_commits, 0),
       COALESCE(i.bugs_introduced, 0), COALESCE(f.bugs_fixed, 0), i.median_lifetime_days
  FROM public.fixes_subsystems s
  JOIN public.fixes_repositories p ON p.repository_id = s.repository_id
  LEFT JOIN sizes z ON z.repository_id = s.repository_id AND z.subsystem_id = s.subsystem_id
  LEFT JOIN introduced i ON i.repository_id = s.repository_id AND i.subsystem_id = s.subsystem_id
  LEFT JOIN fixed f ON f.repository_id = s.repository_id AND f.subsystem_id = s.subsystem_id
 WHERE p.name = $1
$$;

CREATE FUNCTION pg_temp.q_per_path_prefix(
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
LANGUAGE sql STABLE STRICT
AS $$
WITH repo AS (
    SELECT r.repository_id FROM public.fixes_repositories r WHERE r.name = $1
), members AS (
    -- a path's directory, cut to depth components; '.' for the top level
    SELECT DISTINCT f.commit_idx,
           COALESCE(NULLIF(array_to_string(
               (string_to_array(f.path, '/'))[1:least($2, array_length(string_to_array(f.path, '/'), 1) - 1)],
               '/'), ''), '.') AS prefix
      FROM public.fixes_commit_files f, repo, public.fixes_commits c
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
      JOIN public.fixes_edges e ON e.repository_id = repo.repository_id
      JOIN public.fixes_commits c
        ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
      JOIN public.fixes_commits fc
        ON fc.repository_id = e.repository_id AND fc.commit_idx = e.fixing_idx
     WHERE e.target_idx = m.commit_idx AND e.status = 'resolved' AND e.kind = 'fixes' AND fc.mainline
     GROUP BY m.prefix
), fixed AS (
    SELECT m.prefix,
           count(*) AS bugs_fixed,
           count(DISTINCT e.fixing_idx) AS fixing_commits
      FROM members m, repo
      JOIN public.fixes_edges e ON e.repository_id = repo.repository_id
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
 ORDER BY z.prefix
$$;

SELECT format('stored answers of %s: %s of %s subsystems differ from the query-time ones', :'r',
              (SELECT count(*) FROM (
                   (SELECT subsystem, commits, fixing_commits, buggy_commits, bugs_introduced,
                           bugs_fixed, median_lifetime_days
                      FROM public.fixes_per_subsystem WHERE repository = :'r'
                    EXCEPT ALL SELECT * FROM pg_temp.q_per_subsystem(:'r'))
                   UNION ALL
                   (SELECT * FROM pg_temp.q_per_subsystem(:'r')
                    EXCEPT ALL
                    SELECT subsystem, commits, fixing_commits, buggy_commits, bugs_introduced,
                           bugs_fixed, median_lifetime_days
                      FROM public.fixes_per_subsystem WHERE repository = :'r')) d),
              (SELECT count(*) FROM pg_temp.q_per_subsystem(:'r')));
SELECT format('stored answers of %s: %s of %s prefixes at depth %s differ from the query-time ones',
              :'r',
              (SELECT count(*) FROM (
                   (SELECT * FROM public.fixes_per_path_prefix(:'r', d)
                    EXCEPT ALL SELECT * FROM pg_temp.q_per_path_prefix(:'r', d))
                   UNION ALL
                   (SELECT * FROM pg_temp.q_per_path_prefix(:'r', d)
                    EXCEPT ALL SELECT * FROM public.fixes_per_path_prefix(:'r', d))) x),
              (SELECT count(*) FROM pg_temp.q_per_path_prefix(:'r', d)), d)
  FROM generate_series(1, 4) AS d;
SELECT format('fixes_commit_groups of %s (%s): %s commits of %s', :'r', g.kind, sum(g.commits), p.commits)
  FROM public.fixes_repositories p JOIN public.fixes_commit_groups g USING (repository_id)
 WHERE p.name = :'r' GROUP BY g.kind, p.commits HAVING sum(g.commits) <> p.commits;
