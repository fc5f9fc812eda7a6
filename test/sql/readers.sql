-- fixes_git_commits() and fixes_git_tags() over the fixture basic.git
-- (see test/fixtures/README.md for every commit and tag it holds)
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set basic :fixtures '/basic.git'

-- every commit reachable from HEAD, newest first like git log; b03 is dated 1969
SELECT left(commit_id, 12) AS id, cardinality(parent_ids) AS parents,
       author_name, authored_at, committer_name, committed_at, subject
  FROM fixes_git_commits(:'basic');

-- merges and their parents, in the order the commit lists them
SELECT left(commit_id, 12) AS id, subject, parent_ids
  FROM fixes_git_commits(:'basic')
 WHERE cardinality(parent_ids) > 1
 ORDER BY committed_at;

-- the root commit has no parents; full ids are 40 lower-case hex digits
SELECT commit_id, parent_ids, author_email, committer_email
  FROM fixes_git_commits(:'basic') WHERE parent_ids = '{}';

-- the encodings: b04 declares ISO-8859-1 and is converted; b05 has latin-1
-- bytes and no header, so each invalid byte becomes U+FFFD (one NOTICE)
SELECT author_name, subject, message
  FROM fixes_git_commits(:'basic')
 WHERE left(commit_id, 12) IN ('70ba1e474899', '7557be13145d')
 ORDER BY committed_at;

-- a subject wrapped over two lines, and a CRLF message (no CR in the subject)
SELECT subject, length(message) AS message_length, position(E'\r' IN message) > 0 AS has_cr
  FROM fixes_git_commits(:'basic')
 WHERE left(commit_id, 12) IN ('83fc6e9e181e', '16829c322043')
 ORDER BY committed_at;

-- other refs: a branch, a tag (peeled to its commit), an id, an expression
SELECT count(*) FROM fixes_git_commits(:'basic', 'side');
SELECT count(*) FROM fixes_git_commits(:'basic', 'refs/heads/topic');
SELECT count(*) FROM fixes_git_commits(:'basic', 'v1.0');
SELECT count(*) FROM fixes_git_commits(:'basic', 'v1.0-outer');
SELECT count(*) FROM fixes_git_commits(:'basic', '83fc6e9e181e6399493f0d9deb693a5b80e122ad');
SELECT count(*) FROM fixes_git_commits(:'basic', 'HEAD~3');

-- the Fixes trailers of the whole history
SELECT c.subject, f.line, f.abbrev, f.quoted_subject
  FROM fixes_git_commits(:'basic') c, fixes_parse_fixes(c.message) f
 ORDER BY c.committed_at, f.line;

-- tags in version order: lightweight, annotated, and an annotated tag of that
-- tag (peeled to the commit); tags of a tree and of blobs are skipped
SELECT tag, left(commit_id, 12) AS commit, annotated, tagged_at, tagger
  FROM fixes_git_tags(:'basic');

-- an empty repository: no rows, and a NOTICE rather than an error
SELECT count(*) FROM fixes_git_commits(:'fixtures' || '/empty.git');
SELECT count(*) FROM fixes_git_tags(:'fixtures' || '/empty.git');

-- a work tree path is found through its .git directory: the loader's
-- fixture releases.git is bare, the reader accepts both
SELECT count(*) FROM fixes_git_commits(:'fixtures' || '/releases.git');
