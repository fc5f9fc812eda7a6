-- bad arguments to the readers and the loader (paths, refs, release patterns,
-- names): a clear ERROR each, and nothing loaded.  Bad repositories (empty,
-- shallow, corrupt, ...) are in bad_input.sql.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set basic :fixtures '/basic.git'
\set releases :fixtures '/releases.git'

------------------------------------------------------------------------------
-- the readers
------------------------------------------------------------------------------
-- a path that does not exist
SELECT count(*) FROM fixes_git_commits('/nonexistent/fixes/repo.git');
-- a relative path
SELECT count(*) FROM fixes_git_commits('relative/repo.git');
-- a directory that is not a repository
SELECT count(*) FROM fixes_git_commits('/');
-- a file, not a directory
SELECT count(*) FROM fixes_git_commits(:'basic' || '/HEAD');
-- a ref that does not exist
SELECT count(*) FROM fixes_git_commits(:'basic', 'no-such-branch');
-- a ref that names a tree, not a commit
SELECT count(*) FROM fixes_git_commits(:'basic', 'tree-tag');
-- tags of a missing path
SELECT count(*) FROM fixes_git_tags('/nonexistent/fixes/repo.git');

------------------------------------------------------------------------------
-- the loader: the same checks, plus its own arguments
------------------------------------------------------------------------------
SELECT * FROM fixes_load('/nonexistent/fixes/repo.git');
SELECT * FROM fixes_load(NULL);
-- refs: unknown, beyond the root commit, empty, naming a tree
SELECT * FROM fixes_load(:'releases', 'no-such-ref');
SELECT * FROM fixes_load(:'releases', 'HEAD~100');
SELECT * FROM fixes_load(:'releases', '');
SELECT * FROM fixes_load(:'releases', 'v2.0^{tree}');
-- release patterns that are no regular expressions
SELECT * FROM fixes_load(:'releases', release_pattern => '(unclosed');
SELECT * FROM fixes_load(:'releases', release_pattern => '*');
SELECT * FROM fixes_load(:'releases', release_pattern => '[z-a]');
-- names: none derivable from the path, empty
SELECT * FROM fixes_load('/', name => NULL);
SELECT * FROM fixes_load(:'releases', name => '');

-- none of these left a row behind
SELECT count(*) AS repositories FROM fixes_repositories;
SELECT count(*) AS commits FROM fixes_commits;
