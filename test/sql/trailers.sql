-- Trailers (issue 16): fixes_parse_trailers(), and the rows of fixes_trailers
-- that fixes_load() writes, which are git's: git log
-- --format='%(trailers:only,unfold)' is the oracle (test/oracles/crosscheck.py checks
-- every commit of make-history repositories against it; the parser's rules
-- are unit-tested in test/unit/test_trailers.c against git's own output).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set article :fixtures '/article.git'
\set trailers :fixtures '/trailers.git'

-- the last paragraph, in order; keys as written, values trimmed; a line
-- that starts with whitespace continues the trailer above it (unfolded); a
-- key is [A-Za-z0-9-]+, so "Key Name:" is no trailer line, but the block
-- holds a Signed-off-by: line and at least 25% trailers, so it counts (the
-- results here are what git 2.39 prints for these messages)
SELECT * FROM fixes_parse_trailers(E'net: fix a leak\n\nBody text.\n\n'
    'Fixes: 1c441e921201 ("epoll: use freezable blocking call")\n'
    'Reported-by: syzbot+0123@syzkaller.appspotmail.com\n'
    'Link: https://example.org/a\n'
    '   /very/long\n'
    '\t?and=more  \n'
    'cc: stable@vger.kernel.org # 6.1+\n'
    'Key Name: not a trailer key (a blank inside)\n'
    'Key : blanks before the colon\n'
    'Signed-off-by: A U Thor <a@example.org>\n');

-- only the last paragraph counts, never the subject's
SELECT * FROM fixes_parse_trailers(E'Key: the subject\n\nA: 1\n\nB: 2\n');
SELECT count(*) FROM fixes_parse_trailers('Key: value');

-- git's 25% rule: a paragraph with a Signed-off-by: line is a trailer block
-- when at least a quarter of its lines are trailers; without one, all of
-- them must be
SELECT * FROM fixes_parse_trailers(E'subj\n\nprose\nprose\nprose\nSigned-off-by: A\nCc: b\n');
SELECT * FROM fixes_parse_trailers(E'subj\n\nprose\nprose\nprose\nprose\nprose\nprose\nprose\nSigned-off-by: A\nCc: b\n');
SELECT * FROM fixes_parse_trailers(E'subj\n\nprose\nCc: b\n');

-- CRLF line ends (git trims the last CR of a value, not the others),
-- comment lines, a Conflicts: block, the cut line of git commit -v, and a
-- "---" line: git log does not stop there, it is a line that is no trailer
SELECT * FROM fixes_parse_trailers(E'subj\r\n\r\nA: b\r\n  c\r\nD: e\r\n');
SELECT * FROM fixes_parse_trailers(E'subj\n\nA: b\n# a comment\nC: d\n');
SELECT * FROM fixes_parse_trailers(E'subj\n\nA: b\nConflicts:\n\tx.c\n');
SELECT * FROM fixes_parse_trailers(E'subj\n\nA: b\n# ------------------------ >8 ------------------------\nC: d\n');
SELECT * FROM fixes_parse_trailers(E'subj\n\nA: b\n---\nC: d\n');

-- no trailer, empty message: no rows; NULL: no rows (STRICT)
SELECT count(*) FROM fixes_parse_trailers('');
SELECT count(*) FROM fixes_parse_trailers(NULL);

-- the declared properties of the function; anyone may call it
SELECT provolatile, proisstrict, proparallel, proretset,
       has_function_privilege('public', oid, 'EXECUTE') AS public_may
  FROM pg_proc WHERE proname = 'fixes_parse_trailers';

------------------------------------------------------------------------------
-- fixes_trailers after a load: per commit, what the parser gives for its
-- stored message (article.git's messages hold no NUL byte)
------------------------------------------------------------------------------
SELECT repository, commits FROM fixes_load(:'article');

SELECT left(c.commit_id, 12) AS commit, c.subject, t.position, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 ORDER BY c.committed_at, t.position;

SELECT count(*) AS commits,
       count(*) FILTER (WHERE stored IS NOT DISTINCT FROM parsed) AS same
  FROM (SELECT c.commit_id,
               (SELECT array_agg(ROW(t.position, t.key, t.value)::text ORDER BY t.position)
                  FROM fixes_trailers t
                 WHERE t.repository_id = c.repository_id AND t.commit_idx = c.commit_idx) AS stored,
               (SELECT array_agg(ROW(p.position, p.key, p.value)::text ORDER BY p.position)
                  FROM fixes_parse_trailers(c.message) p) AS parsed
          FROM fixes_commits c) x;

------------------------------------------------------------------------------
-- bad input (trailers.git): 10,000 trailers, a 1 MiB key, a 1 MiB value, a
-- NUL byte, invalid UTF-8, latin-1 with an encoding header.  Each is loaded;
-- the sequences that are not UTF-8 are replaced and counted once, with the
-- message (the NOTICE counts 2 commits: K5's message and K4's NUL byte).
------------------------------------------------------------------------------
SELECT repository, commits, releases, edges FROM fixes_load(:'trailers');

SELECT c.subject, count(*) AS trailers, min(t.position) AS first, max(t.position) AS last,
       max(length(t.key)) AS longest_key, max(length(t.value)) AS longest_value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
  JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'trailers'
 GROUP BY c.subject, c.committed_at ORDER BY c.committed_at;

-- the 10,000 trailers, in order, the first and last few
SELECT t.position, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE c.subject = 'trailers: ten thousand' AND (t.position <= 2 OR t.position >= 9999)
 ORDER BY t.position;

-- the long key and the long value, whole
SELECT t.position, md5(t.key) = md5(repeat('K', 1048576)) AS key_is_1_mib_of_k,
       length(t.key), t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE c.subject = 'trailers: a long key' ORDER BY t.position;
SELECT t.key, t.value = repeat('v', 524288) || ' ' || repeat('v', 524287) AS unfolded,
       length(t.value)
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE c.subject = 'trailers: a long value';

-- the NUL byte ends git's message: one trailer; the stored message shows
-- the NUL replaced, and parsing that text sees a second trailer
SELECT t.position, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE c.subject = 'trailers: a NUL';
SELECT p.* FROM fixes_commits c, fixes_parse_trailers(c.message) p
 WHERE c.subject = 'trailers: a NUL';

-- invalid UTF-8 replaced by U+FFFD; latin-1 converted
SELECT c.subject, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE c.subject IN ('trailers: invalid UTF-8', 'trailers: latin-1') ORDER BY c.committed_at;

-- per release: trailers.git has no release, so no rows; the keys of
-- article.git, lower-cased
SELECT repository, count(*) AS rows, sum(commits) AS commits
  FROM fixes_trailers_per_release GROUP BY repository ORDER BY repository;

------------------------------------------------------------------------------
-- fixes_trailer_keys keeps the keys of every commit for the refresh of
-- fixes_release_trailers.  When its rows are lost, a refresh that needs them
-- reads fixes_trailers instead (with a NOTICE) and writes them again: here
-- C01 "core: fix rework" (v3.0) loses its only Fixes line to an override.
------------------------------------------------------------------------------
SELECT k.chunk, k.commits, length(k.counts) AS count_bytes, length(k.ids) AS id_bytes, k.keys
  FROM fixes_trailer_keys k JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'article' ORDER BY k.chunk;
DELETE FROM fixes_trailer_keys k USING fixes_repositories p
 WHERE p.repository_id = k.repository_id AND p.name = 'article' AND k.chunk = 0;
INSERT INTO fixes_overrides VALUES
    ('article', '54d29203fff1e47c6ea2e6c1ea8f783338027a55', 'd2f2d0f58c77', NULL, 'not a fix'),
    ('article-again', '54d29203fff1e47c6ea2e6c1ea8f783338027a55', 'd2f2d0f58c77', NULL, 'not a fix');
SELECT repository, commits, edges, resolved FROM fixes_load(:'article');
SELECT k.chunk, k.commits FROM fixes_trailer_keys k JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'article' ORDER BY k.chunk;
SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release
 WHERE repository = 'article' AND release = 'v3.0';
-- the same as a fresh load of the same state
SELECT repository, commits, edges, resolved FROM fixes_load(:'article', name => 'article-again');
SELECT count(*) AS rows_differing FROM (
    (SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release WHERE repository = 'article'
     EXCEPT
     SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release WHERE repository = 'article-again')
    UNION ALL
    (SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release WHERE repository = 'article-again'
     EXCEPT
     SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release WHERE repository = 'article')) d;
