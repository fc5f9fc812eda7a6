-- fixes_unload(name) (src/sql/unload.c) finds the extension's schema when it
-- runs, as fixes_load does: after ALTER SCHEMA ... RENAME it unloads from the
-- renamed schema, and a new schema of the old name, with tables of the same
-- names, is not touched.  It removes the repository's rows from every table
-- of the extension and nothing of other repositories; it deletes with the
-- caller's privileges.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE SCHEMA fx;
CREATE EXTENSION fixes SCHEMA fx;
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set releases :fixtures '/releases.git'

-- rows per repository_id in every table of the extension that has one
-- (found in the catalog, as fixes_unload finds them)
CREATE FUNCTION pg_temp.rows_per_repository()
RETURNS TABLE (tab text, repository_id integer, n bigint)
LANGUAGE plpgsql AS $$
DECLARE
    t regclass;
BEGIN
    FOR t IN
        SELECT c.oid::regclass
          FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
         WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
           AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
           AND c.relkind = 'r'
           AND EXISTS (SELECT FROM pg_attribute a
                        WHERE a.attrelid = c.oid AND a.attname = 'repository_id')
         ORDER BY c.relname
    LOOP
        RETURN QUERY EXECUTE format(
            'SELECT %L, repository_id, count(*) FROM %s GROUP BY 2 ORDER BY 2',
            (SELECT relname FROM pg_class WHERE oid = t), t);
    END LOOP;
END
$$;

SELECT repository, commits, edges FROM fx.fixes_load(:'releases', name => 'one');
SELECT repository, commits, edges FROM fx.fixes_load(:'releases', 'v1.1', name => 'two');
SELECT * FROM pg_temp.rows_per_repository();

-- the extension's schema is renamed; a new schema takes the old name, with
-- tables named like the extension's and a row of a repository 'one'
ALTER SCHEMA fx RENAME TO fx_renamed;
CREATE SCHEMA fx;
CREATE TABLE fx.fixes_repositories (repository_id integer, name text);
CREATE TABLE fx.fixes_commits (repository_id integer, commit_id text);
CREATE TABLE fx.fixes_edges (repository_id integer, fixing_commit text);
INSERT INTO fx.fixes_repositories VALUES (1, 'one');
INSERT INTO fx.fixes_commits VALUES (1, 'not a commit of the extension');
INSERT INTO fx.fixes_edges VALUES (1, 'not an edge of the extension');

SELECT fx_renamed.fixes_unload('one');
-- only repository 2 is left in the extension's tables
SELECT * FROM pg_temp.rows_per_repository();
-- the schema with the old name is untouched
SELECT * FROM fx.fixes_repositories;
SELECT * FROM fx.fixes_commits;
SELECT * FROM fx.fixes_edges;

-- a name that is not loaded (any more), and NULL: false, as in 1.0
SELECT fx_renamed.fixes_unload('one') AS again, fx_renamed.fixes_unload('three') AS never,
       fx_renamed.fixes_unload(NULL) AS null_name;

-- the loader works in the renamed schema too, and unloading it again
SELECT repository, commits, edges FROM fx_renamed.fixes_load(:'releases', name => 'one');
SELECT fx_renamed.fixes_unload('one');

-- privileges: whoever may DELETE from the tables (and read them, to find the
-- rows) may unload; anyone else gets the table's permission error
CREATE ROLE regress_fixes_unloader;
GRANT USAGE ON SCHEMA fx_renamed TO regress_fixes_unloader;
SET ROLE regress_fixes_unloader;
SELECT fx_renamed.fixes_unload('two');
RESET ROLE;
GRANT SELECT, DELETE ON ALL TABLES IN SCHEMA fx_renamed TO regress_fixes_unloader;
SET ROLE regress_fixes_unloader;
SELECT fx_renamed.fixes_unload('two');
RESET ROLE;
SELECT * FROM pg_temp.rows_per_repository();
SELECT count(*) AS repositories FROM fx_renamed.fixes_repositories;

DROP OWNED BY regress_fixes_unloader;
DROP ROLE regress_fixes_unloader;
DROP TABLE fx.fixes_repositories, fx.fixes_commits, fx.fixes_edges;
DROP SCHEMA fx;
DROP EXTENSION fixes;
DROP SCHEMA fx_renamed;
-- the extension as the other tests expect it
CREATE EXTENSION fixes;
