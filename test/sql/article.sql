-- The article's questions (issue 16) over the fixture article.git, whose
-- every number is known by construction (test/fixtures/README.md,
-- "article.git"): revert edges, the new columns of fixes_per_release,
-- fixes_reverted_commits, fixes_bug_lifetimes, fixes_lifetime_per_release
-- and fixes_trailers_per_release.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set article :fixtures '/article.git'

-- 8 Fixes: lines (7 resolved); the 5 revert lines are edges too, but every
-- count of 1.0 stays a count of Fixes: lines
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'article');
SELECT name, commits, releases, edges, resolved FROM fixes_repositories;

-- every edge with its kind; a revert's quoted subject is the text inside
-- Revert "..." of the reverting commit's own subject; C03's 0000000 names no
-- commit but its subject names A02; C02's revert names nothing at all
SELECT c.subject AS fixing, e.line, e.kind, e.abbrev, e.quoted_subject, e.status, e.method,
       e.candidates, left(e.target_commit, 12) AS target, e.fixing_release, e.target_release,
       e.introduced_at
  FROM fixes_edges e
  JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
 ORDER BY e.fixed_at, e.line;
SELECT kind, status, method, count(*) FROM fixes_edges GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;

-- the raw revert lines, as written (git's form and the kernel's with the
-- subject in parentheses)
SELECT left(fixing_commit, 12) AS fixing, line, raw FROM fixes_edges WHERE kind = 'revert'
 ORDER BY fixed_at;

-- fixes_per_release: the 1.0 columns count Fixes edges only; tagged_commits
-- counts commits with a Fixes: line, resolved or not; fixing_earlier_commits
-- those with a resolved edge into an earlier release; reverts and
-- reverted_introduced count resolved revert edges from and into a release
SELECT * FROM fixes_per_release;

-- the unresolved Fixes: lines; C02's unresolved revert is not among them
SELECT left(fixing_commit, 12) AS fixing, fixing_subject, line, abbrev, quoted_subject, status,
       candidates FROM fixes_unresolved;

-- the reverted commits: B02 reverted in its own release, A03 and A02 (by
-- subject) in later ones, C01 by an unreleased commit
SELECT repository, left(commit_id, 12) AS commit, subject, release, left(reverted_by, 12) AS reverted_by,
       reverted_at, reverted_in, same_release
  FROM fixes_reverted_commits;

-- bug lifetimes: committer dates, so whole days here; releases_shipped is
-- NULL for a bug fixed by an unreleased commit
SELECT left(fixing_commit, 12) AS fixing, left(target_commit, 12) AS target, introduced_at, fixed_at,
       lifetime, introduced_in, fixed_in, releases_shipped
  FROM fixes_bug_lifetimes ORDER BY fixed_at, target_commit;

-- per release: v3.0 fixed bugs of 7, 12 and 23 days (median 12, p90 20.8);
-- v1.0's bugs were fixed after 9, 23 and 32 days (median 23); v2.0's after
-- 7, 12, 19 and 20 (median 15.5)
SELECT * FROM fixes_lifetime_per_release;

-- git's trailers (the key lower-cased) per release: C05's last paragraph
-- counts by git's 25% rule, C06's does not count at all
SELECT * FROM fixes_trailers_per_release;

-- the article's shares, as the README's section "The article's questions"
-- computes them (the same queries, for the repository 'article')
-- 1. fixes whose Reported-by names syzbot, per release
WITH syzbot AS (
    SELECT t.repository_id, c.release, count(DISTINCT t.commit_idx) AS fixes
      FROM fixes_trailers t
      JOIN fixes_commits c USING (repository_id, commit_idx)
     WHERE lower(t.key) = 'reported-by' AND t.value ILIKE '%syzbot%'
       AND EXISTS (SELECT FROM fixes_edges e
                    WHERE e.repository_id = t.repository_id AND e.fixing_idx = t.commit_idx
                      AND e.kind = 'fixes' AND e.status = 'resolved')
     GROUP BY t.repository_id, c.release)
SELECT r.release, r.fixing_commits, coalesce(s.fixes, 0) AS syzbot_fixes,
       round(100.0 * coalesce(s.fixes, 0) / nullif(r.fixing_commits, 0), 1) AS syzbot_pct
  FROM fixes_per_release r
  JOIN fixes_repositories p ON p.name = r.repository
  LEFT JOIN syzbot s ON s.repository_id = p.repository_id AND s.release = r.release
 WHERE r.repository = 'article'
 ORDER BY r.release_rank;
-- 2. commits with a Reviewed-by or an Acked-by, per release
WITH reviewed AS (
    SELECT t.repository_id, c.release, count(DISTINCT t.commit_idx) AS commits
      FROM fixes_trailers t
      JOIN fixes_commits c USING (repository_id, commit_idx)
     WHERE lower(t.key) IN ('reviewed-by', 'acked-by')
     GROUP BY t.repository_id, c.release)
SELECT r.release, r.commits, coalesce(v.commits, 0) AS reviewed,
       round(100.0 * coalesce(v.commits, 0) / nullif(r.commits, 0), 1) AS reviewed_pct
  FROM fixes_per_release r
  JOIN fixes_repositories p ON p.name = r.repository
  LEFT JOIN reviewed v ON v.repository_id = p.repository_id AND v.release = r.release
 WHERE r.repository = 'article'
 ORDER BY r.release_rank;
-- 3. fixes marked for the stable trees (Cc: stable@vger.kernel.org), per release
WITH stable AS (
    SELECT t.repository_id, c.release, count(DISTINCT t.commit_idx) AS fixes
      FROM fixes_trailers t
      JOIN fixes_commits c USING (repository_id, commit_idx)
     WHERE lower(t.key) = 'cc' AND t.value ILIKE '%stable@vger.kernel.org%'
       AND EXISTS (SELECT FROM fixes_edges e
                    WHERE e.repository_id = t.repository_id AND e.fixing_idx = t.commit_idx
                      AND e.kind = 'fixes' AND e.status = 'resolved')
     GROUP BY t.repository_id, c.release)
SELECT r.release, r.fixing_commits, coalesce(s.fixes, 0) AS stable_fixes,
       round(100.0 * coalesce(s.fixes, 0) / nullif(r.fixing_commits, 0), 1) AS stable_pct
  FROM fixes_per_release r
  JOIN fixes_repositories p ON p.name = r.repository
  LEFT JOIN stable s ON s.repository_id = p.repository_id AND s.release = r.release
 WHERE r.repository = 'article'
 ORDER BY r.release_rank;
-- the article's own first numbers: commits with Fixes tags, and those that
-- identified commits from previous releases
SELECT release, tagged_commits, fixing_earlier_commits FROM fixes_per_release;

-- fixes_parse_fixes (1.1) returns the revert lines with kind 'revert'
SELECT * FROM fixes_parse_fixes(E'Revert "mm: add \"fast\" path"\n\n'
    'This reverts commit 0123456789abcdef0123456789abcdef01234567.\n'
    '  this REVERTS commit ABCDEF1 (mm: add fast path).\n'
    'This reverts commit abcdef (six hex digits are too few)\n'
    'Fixes: fedcba987654 ("mm: add fast path")\n');
-- a subject of another form gives a revert NULL as its subject
SELECT line, abbrev, quoted_subject, kind
  FROM fixes_parse_fixes(E'mm: undo the fast path\n\nThis reverts commit 0123456.\n');

-- the views' column types, as Grafana sees them
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relname IN ('fixes_reverted_commits', 'fixes_bug_lifetimes', 'fixes_lifetime_per_release',
                     'fixes_trailers_per_release')
   AND a.attnum > 0
 ORDER BY c.relname, a.attnum;
