/* fixes--1.0--1.1.sql — update of the fixes extension from 1.0 to 1.1 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.1'" to load this file. \quit

-- After this script a database of 1.0 has exactly the objects of a fresh
-- install of 1.1 (fixes--1.1.sql): test/t/upgrade.sh compares the two
-- catalogs.  Every change to fixes--1.1.sql needs its counterpart here.

------------------------------------------------------------------------------
-- Look-ups by commit id (see fixes--1.1.sql).  Built here over the rows that
-- 1.0 loaded: seconds for a kernel-sized history.
------------------------------------------------------------------------------

CREATE INDEX fixes_commits_commit_id_idx
    ON @extschema@.fixes_commits (commit_id);

COMMENT ON INDEX @extschema@.fixes_commits_commit_id_idx IS
'look-ups of commits by full id or id prefix (LIKE ''abc%'')';

CREATE INDEX fixes_edges_fixing_commit_idx
    ON @extschema@.fixes_edges (fixing_commit);
CREATE INDEX fixes_edges_target_commit_idx
    ON @extschema@.fixes_edges (target_commit);

COMMENT ON INDEX @extschema@.fixes_edges_fixing_commit_idx IS
'look-ups of the Fixes edges a commit made, by its id';
COMMENT ON INDEX @extschema@.fixes_edges_target_commit_idx IS
'look-ups of the Fixes edges that point at a commit, by its id';

------------------------------------------------------------------------------
-- pg_dump keeps the value of the repository ids' sequence.  1.0's did not:
-- in a database restored from a dump of 1.0 the sequence starts again at 1,
-- and loading a repository of a new name fails on a duplicate key; move it
-- past the ids in use.
------------------------------------------------------------------------------

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_repositories_repository_id_seq', '');

SELECT pg_catalog.setval('@extschema@.fixes_repositories_repository_id_seq',
                         pg_catalog.max(r.repository_id))
  FROM @extschema@.fixes_repositories r
HAVING pg_catalog.max(r.repository_id) >=
       (SELECT s.last_value FROM @extschema@.fixes_repositories_repository_id_seq s);

------------------------------------------------------------------------------
-- fixes_unload() in C: it finds the extension's schema when it runs instead
-- of naming the schema of CREATE EXTENSION in its body.  Same name,
-- arguments, result and privileges (nothing was granted or revoked in 1.0).
------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION @extschema@.fixes_unload(name text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'fixes_unload'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp;

------------------------------------------------------------------------------
-- The next fixes_load() of each repository loaded by 1.0 reads it in full
-- once, so that whatever 1.1 stores is there for every commit, not only for
-- the commits loaded after the update.  A previous load without a tags hash
-- is one that a refresh cannot build on (src/snapshot.c).
------------------------------------------------------------------------------

UPDATE @extschema@.fixes_repositories SET tags_hash = NULL;
