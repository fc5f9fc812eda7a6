-- bad input to the readers and the loader: clear errors, nothing loaded
CREATE EXTENSION IF NOT EXISTS fixes;
\set fixtures '/tmp/fixes-fixtures'
\set basic :fixtures '/basic.git'
\set VERBOSITY default

-- a path that does not exist
SELECT count(*) FROM fixes_git_commits('/nonexistent/fixes/repo.git');
-- a relative path
SELECT count(*) FROM fixes_git_commits('relative/repo.git');
-- a directory that is not a repository
SELECT count(*) FROM fixes_git_commits('/');
-- a file, not a directory
SELECT count(*) FROM fixes_git_commits(:'fixtures' || '/basic.git/HEAD');
-- a ref that does not exist
SELECT count(*) FROM fixes_git_commits(:'basic', 'no-such-branch');
-- a ref that names a tree, not a commit
SELECT count(*) FROM fixes_git_commits(:'basic', 'tree-tag');
-- tags of a missing path
SELECT count(*) FROM fixes_git_tags('/nonexistent/fixes/repo.git');

-- the loader: same checks, plus its own arguments
SELECT * FROM fixes_load('/nonexistent/fixes/repo.git');
SELECT * FROM fixes_load(NULL);
SELECT * FROM fixes_load(:'basic', 'no-such-branch');
SELECT * FROM fixes_load(:'basic', release_pattern => '(unclosed');
SELECT * FROM fixes_load('/', name => NULL);
-- none of these left a row behind
SELECT count(*) AS repositories FROM fixes_repositories;
SELECT count(*) AS commits FROM fixes_commits;
