-- who may read repositories: superusers and pg_read_server_files, as for COPY FROM a file
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
DROP ROLE IF EXISTS regress_fixes_user;      -- left by a run that stopped half-way
DROP ROLE IF EXISTS regress_fixes_reader;
RESET client_min_messages;
CREATE EXTENSION fixes;
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set basic :fixtures '/basic.git'
\set releases :fixtures '/releases.git'

CREATE ROLE regress_fixes_user;
CREATE ROLE regress_fixes_reader;
GRANT pg_read_server_files TO regress_fixes_reader;

-- EXECUTE on the readers and the loader is revoked from PUBLIC
SELECT p.proname, has_function_privilege('regress_fixes_user', p.oid, 'EXECUTE') AS user_may,
       has_function_privilege('regress_fixes_reader', p.oid, 'EXECUTE') AS reader_may
  FROM pg_proc p
 WHERE p.proname IN ('fixes_git_commits', 'fixes_git_tags', 'fixes_load', 'fixes_parse_fixes')
 ORDER BY 1;

SET ROLE regress_fixes_user;
SELECT count(*) FROM fixes_git_commits(:'basic');
SELECT * FROM fixes_load(:'releases');
-- parsing a message reads no file: anyone may
SELECT abbrev FROM fixes_parse_fixes('Fixes: 0123456789ab ("x")');
RESET ROLE;

-- a stray GRANT does not widen it: the C code checks the role again
GRANT EXECUTE ON FUNCTION fixes_git_commits(text, text) TO regress_fixes_user;
GRANT EXECUTE ON FUNCTION fixes_git_tags(text) TO regress_fixes_user;
GRANT EXECUTE ON FUNCTION fixes_load(text, text, text, text, text, boolean, text, text) TO regress_fixes_user;
SET ROLE regress_fixes_user;
SELECT count(*) FROM fixes_git_commits(:'basic');
SELECT count(*) FROM fixes_git_tags(:'basic');
SELECT * FROM fixes_load(:'releases');
RESET ROLE;

-- a member of pg_read_server_files may read; the tables need their own grants
SET ROLE regress_fixes_reader;
SELECT count(*) FROM fixes_git_commits(:'basic');
SELECT count(*) FROM fixes_git_tags(:'basic');
RESET ROLE;

-- a load writes its tables in bulk, below the executor's checks: it checks INSERT, UPDATE
-- and DELETE on every table itself, before it writes anything
SET ROLE regress_fixes_reader;
SELECT repository FROM fixes_load(:'releases', name => 'by_reader');
RESET ROLE;
SELECT count(*) AS repositories FROM fixes_repositories WHERE name = 'by_reader';
-- with the grants the README lists, a member of pg_read_server_files may load
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO regress_fixes_reader;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regress_fixes_reader;
SET ROLE regress_fixes_reader;
SELECT repository, commits, releases, edges FROM fixes_load(:'releases', name => 'by_reader');
RESET ROLE;
-- row-level security would not be applied by the bulk writes: refused, even to a superuser
ALTER TABLE fixes_edges ENABLE ROW LEVEL SECURITY;
SELECT repository FROM fixes_load(:'releases', name => 'by_reader');
ALTER TABLE fixes_edges DISABLE ROW LEVEL SECURITY;
SELECT fixes_unload('by_reader');
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM regress_fixes_reader;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM regress_fixes_reader;

REVOKE EXECUTE ON FUNCTION fixes_git_commits(text, text) FROM regress_fixes_user;
REVOKE EXECUTE ON FUNCTION fixes_git_tags(text) FROM regress_fixes_user;
REVOKE EXECUTE ON FUNCTION fixes_load(text, text, text, text, text, boolean, text, text) FROM regress_fixes_user;
DROP ROLE regress_fixes_user;
DROP ROLE regress_fixes_reader;
