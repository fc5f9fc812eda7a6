/* fixes--1.0.sql — install script of the fixes extension */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION fixes" to load this file. \quit

------------------------------------------------------------------------------
-- Readers: set-returning functions over a git repository on the server.
-- Reading server files is a privilege (the rule of COPY FROM a file): EXECUTE
-- is revoked from PUBLIC and granted to pg_read_server_files, and the C code
-- checks the role again, so a stray GRANT cannot widen it.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.fixes_git_commits(
    path text,
    ref text DEFAULT 'HEAD',
    OUT commit_id text,
    OUT parent_ids text[],
    OUT author_name text,
    OUT author_email text,
    OUT authored_at timestamptz,
    OUT committer_name text,
    OUT committer_email text,
    OUT committed_at timestamptz,
    OUT subject text,
    OUT message text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_git_commits'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.fixes_git_commits(text, text) IS
'one row per commit reachable from ref in the git repository at path (newest first)';

CREATE FUNCTION @extschema@.fixes_git_tags(
    path text,
    OUT tag text,
    OUT commit_id text,
    OUT annotated boolean,
    OUT tagged_at timestamptz,
    OUT tagger text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_git_tags'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.fixes_git_tags(text) IS
'one row per tag of the repository at path whose target peels to a commit, in version order';

CREATE FUNCTION @extschema@.fixes_parse_fixes(
    message text,
    OUT line integer,
    OUT abbrev text,
    OUT quoted_subject text,
    OUT raw text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_parse_fixes'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.fixes_parse_fixes(text) IS
'one row per Fixes: trailer line of a commit message';

REVOKE ALL ON FUNCTION @extschema@.fixes_git_commits(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.fixes_git_tags(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_git_commits(text, text) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_git_tags(text) TO pg_read_server_files;
