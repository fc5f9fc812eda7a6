/* fixes--1.2--1.3.sql — update of the fixes extension from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.3'" to load this file. \quit

-- Version 1.3 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql and each update script after it, so that no line of SQL is
-- written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 42: releases where the project tags them ----

-- release_tags (src/load/load_releases.c): which tags can be releases.
-- 'ref' (the default, 1.0's rule): the tags the ref reaches; 'all': every
-- release tag of the repository, wherever it sits (release branches: Open
-- vSwitch, OVN, Mesa), a commit belonging to the first release, in version
-- order, whose tag reaches it.  Remembered per repository like
-- stable_branches: a load without the argument keeps it.  Rows loaded before
-- this update were loaded with 'ref'.
ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN release_tags text NOT NULL DEFAULT 'ref'
    CONSTRAINT fixes_repositories_release_tags_check CHECK (release_tags IN ('ref', 'all'));

COMMENT ON COLUMN @extschema@.fixes_repositories.release_tags IS
'the release_tags setting of the last load: ''ref'', the tags the ref reaches are the releases; ''all'', every release tag of the repository, each commit in the first release (version order) whose tag reaches it';

DROP FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text);

CREATE FUNCTION @extschema@.fixes_load(
    path text,
    ref text DEFAULT 'HEAD',
    release_pattern text DEFAULT NULL,
    name text DEFAULT NULL,
    stable_branches text DEFAULT '*keep*',
    files boolean DEFAULT NULL,
    maintainers text DEFAULT NULL,
    release_tags text DEFAULT NULL,
    OUT repository text,
    OUT commits bigint,
    OUT releases integer,
    OUT edges bigint,
    OUT resolved bigint,
    OUT seconds double precision)
RETURNS record
AS 'MODULE_PATHNAME', 'fixes_load'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off;

COMMENT ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text, text) IS
'read the repository at path into the fixes_* tables (replacing an earlier load of the same name); stable_branches: a regular expression over full branch ref names whose commits not on ref form the stable scope (the default keeps the repository''s, NULL turns it off); files => true records the changed files of each commit, maintainers names the MAINTAINERS file of the ref''s tree (NULL keeps the current setting); release_tags: ''ref'' (the tags the ref reaches are the releases) or ''all'' (every release tag of the repository, for projects that tag their releases on release branches; NULL keeps the repository''s setting, ''ref'' for a new one)';

REVOKE ALL ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text, text) TO pg_read_server_files;

-- ---- end of issue 42 ----

-- ---- issue 43: a refresh equals a cold load ----
-- ---- end of issue 43 ----

-- ---- issue 46: shards ----
-- ---- end of issue 46 ----
