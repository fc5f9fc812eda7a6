/* fixes--1.2--1.3.sql — update of the fixes extension from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.3'" to load this file. \quit

-- Version 1.3 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql and each update script after it, so that no line of SQL is
-- written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 42: releases where the project tags them ----
-- ---- end of issue 42 ----

-- ---- issue 43: a refresh equals a cold load ----
-- ---- end of issue 43 ----

-- ---- issue 46: shards ----
-- Many repositories across servers (docs/shards.md).  Each shard is an
-- ordinary installation that loads the repositories on its own disk; the
-- coordinator attaches each shard with fixes_attach_shard(server), which
-- makes a foreign table (postgres_fdw) of each of the shard's tables that
-- hold rows of repositories a child, by table inheritance, of the
-- coordinator's table of the same name.  A query of the coordinator's tables
-- then reads its own rows and every attached shard's, and so every view and
-- function over them does, unchanged; each child carries a CHECK on the
-- shard's range of repository ids, so that a query naming one id skips the
-- other shards (constraint exclusion).  The loader names its tables with
-- ONLY (src/load/*.c): a load on the coordinator never reads or writes a
-- shard.
--
-- For whoever writes a later update script: ALTER TABLE on a base table
-- recurses into the foreign children of a coordinator (a new column is
-- added to the foreign tables' definitions: the shards are updated first),
-- and an UPDATE or DELETE in an update script must name its table with
-- ONLY, or it would write into the shards.

-- The range of repository ids this server gives (one row at most): set by
-- fixes_set_repository_id_range() before the first load, so that the ids of
-- different servers never meet.  A database without it gives ids from 1 up,
-- as before.
CREATE TABLE @extschema@.fixes_repository_id_range (
    singleton   boolean NOT NULL DEFAULT true PRIMARY KEY CHECK (singleton),
    lo          integer NOT NULL CHECK (lo >= 1),
    hi          integer NOT NULL,
    CHECK (lo <= hi)
);

COMMENT ON TABLE @extschema@.fixes_repository_id_range IS
'the range of repository ids this server gives to new repositories (fixes_set_repository_id_range); no row: from 1 up';

-- The shards attached to this server (a coordinator): the schema that holds
-- the foreign tables of each, and the shard's range of repository ids.
CREATE TABLE @extschema@.fixes_shards (
    server          name PRIMARY KEY,
    schema_name     name NOT NULL UNIQUE,
    remote_schema   name NOT NULL,
    id_lo           integer NOT NULL,
    id_hi           integer NOT NULL,
    attached_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    CHECK (id_lo >= 1 AND id_lo <= id_hi)
);

COMMENT ON TABLE @extschema@.fixes_shards IS
'the shards attached by fixes_attach_shard: the foreign server, the schema of its foreign tables here, the extension''s schema there, and the shard''s range of repository ids';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_repository_id_range', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_shards', '');

-- renumber => true gives the repositories whose ids lie outside the range
-- new ids from it, in the order of their old ids: each is an UPDATE of its
-- rows in every table (a rewrite of them), under the lock its loads take.
-- Two servers that loaded before 1.3 both gave ids from 1: one of them
-- renumbers to become a shard of the other's coordinator.
CREATE FUNCTION @extschema@.fixes_set_repository_id_range(lo integer, hi integer, renumber boolean DEFAULT false)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'fixes');
    seq text;
    used_lo integer;
    used_hi integer;
    inside integer;
    outside integer;
    last bigint;
    called boolean;
    shard name;
    rep record;
    t record;
    new_id integer;
    cols text;
    vals text;
BEGIN
    -- the extension's schema when the function runs (issue 28); the SET
    -- clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    IF lo < 1 OR hi < lo THEN
        RAISE EXCEPTION 'invalid range of repository ids: % to %', lo, hi
              USING ERRCODE = 'invalid_parameter_value',
                    DETAIL = 'The range is lo to hi, both included, with 1 <= lo <= hi.';
    END IF;
    -- a load that registers a repository inserts into fixes_repositories: it
    -- waits, and so does this function for a load under way
    LOCK TABLE ONLY fixes_repositories IN SHARE ROW EXCLUSIVE MODE;
    SELECT pg_catalog.min(r.repository_id), pg_catalog.max(r.repository_id),
           pg_catalog.max(r.repository_id) FILTER (WHERE r.repository_id BETWEEN fixes_set_repository_id_range.lo
                                                                           AND fixes_set_repository_id_range.hi),
           pg_catalog.count(*) FILTER (WHERE r.repository_id NOT BETWEEN fixes_set_repository_id_range.lo
                                                                      AND fixes_set_repository_id_range.hi)
      INTO used_lo, used_hi, inside, outside
      FROM ONLY fixes_repositories r;
    IF outside > 0 AND NOT renumber THEN
        RAISE EXCEPTION 'repositories with ids outside % to % are loaded on this server', lo, hi
              USING ERRCODE = 'object_in_use',
                    DETAIL = pg_catalog.format('The ids in use are %s to %s; loaded repositories keep their ids.',
                                               used_lo, used_hi),
                    HINT = 'Choose a range that contains them, or give them new ids from the range: renumber => true.';
    END IF;
    IF outside > 0 AND outside::bigint > hi::bigint - lo + 1
                                         - (SELECT pg_catalog.count(*) FROM ONLY fixes_repositories x
                                             WHERE x.repository_id BETWEEN fixes_set_repository_id_range.lo
                                                                       AND fixes_set_repository_id_range.hi) THEN
        RAISE EXCEPTION 'the range % to % is too small for the % repositories loaded on this server', lo, hi,
                        (SELECT pg_catalog.count(*) FROM ONLY fixes_repositories)
              USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT s.server INTO shard FROM fixes_shards s
     WHERE s.id_lo <= fixes_set_repository_id_range.hi AND s.id_hi >= fixes_set_repository_id_range.lo
     ORDER BY s.server LIMIT 1;
    IF shard IS NOT NULL THEN
        RAISE EXCEPTION 'the range % to % meets the range of shard "%"', lo, hi, shard
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'fixes_shards lists the ranges of the attached shards.';
    END IF;
    seq := pg_catalog.pg_get_serial_sequence(pg_catalog.format('%I.fixes_repositories', nsp), 'repository_id');
    EXECUTE pg_catalog.format('SELECT last_value, is_called FROM %s', seq) INTO last, called;
    EXECUTE pg_catalog.format('ALTER TABLE %I.fixes_repositories ALTER COLUMN repository_id '
                              'SET MINVALUE %s SET MAXVALUE %s SET START WITH %s RESTART WITH %s', nsp, lo, hi, lo, lo);
    -- the next id: past the ids in use in the range, and past the ids the
    -- sequence gave already when they lie in it (an unloaded repository's id
    -- is not given again)
    IF called AND last BETWEEN lo AND hi THEN
        inside := GREATEST(inside, last::integer);
    END IF;
    IF inside IS NOT NULL THEN
        PERFORM pg_catalog.setval(seq, inside, true);
    END IF;
    IF outside > 0 THEN
        -- the columns of fixes_repositories, the id given anew
        SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum),
               pg_catalog.string_agg(CASE WHEN a.attname = 'repository_id' THEN '$1'
                                          ELSE 'd.' || pg_catalog.quote_ident(a.attname) END, ', ' ORDER BY a.attnum)
          INTO cols, vals
          FROM pg_catalog.pg_attribute a
         WHERE a.attrelid = pg_catalog.format('%I.fixes_repositories', nsp)::pg_catalog.regclass
           AND a.attnum > 0 AND NOT a.attisdropped;
        FOR rep IN SELECT x.repository_id, x.name FROM ONLY fixes_repositories x
                  WHERE x.repository_id NOT BETWEEN fixes_set_repository_id_range.lo AND fixes_set_repository_id_range.hi
                  ORDER BY x.repository_id
        LOOP
            -- the lock of fixes_load() and fixes_unload() on the repository
            PERFORM pg_catalog.pg_advisory_xact_lock(1718188133, pg_catalog.hashtext(rep.name));
            new_id := pg_catalog.nextval(seq);
            FOR t IN
                SELECT c.relname
                  FROM pg_catalog.pg_depend d
                  JOIN pg_catalog.pg_class c ON c.oid = d.objid
                 WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
                   AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                   AND d.refobjid = ext AND d.deptype = 'e'
                   AND c.relkind = 'r' AND c.relname <> 'fixes_repositories'
                   AND EXISTS (SELECT FROM pg_catalog.pg_attribute a
                                WHERE a.attrelid = c.oid AND a.attname = 'repository_id'
                                  AND a.attnum > 0 AND NOT a.attisdropped)
                 ORDER BY c.relname
            LOOP
                EXECUTE pg_catalog.format('UPDATE ONLY %I.%I SET repository_id = $1 WHERE repository_id = $2',
                                          nsp, t.relname)
                  USING new_id, rep.repository_id;
            END LOOP;
            -- an identity column GENERATED ALWAYS takes no UPDATE: the row
            -- goes and comes back with its new id
            EXECUTE pg_catalog.format('WITH d AS (DELETE FROM ONLY %1$I.fixes_repositories WHERE repository_id = $2 RETURNING *) '
                                      'INSERT INTO %1$I.fixes_repositories (%2$s) OVERRIDING SYSTEM VALUE SELECT %3$s FROM d',
                                      nsp, cols, vals)
              USING new_id, rep.repository_id;
            RAISE NOTICE 'repository "%": id % is now %', rep.name, rep.repository_id, new_id;
        END LOOP;
    END IF;
    INSERT INTO fixes_repository_id_range AS x (lo, hi)
    VALUES (fixes_set_repository_id_range.lo, fixes_set_repository_id_range.hi)
    ON CONFLICT (singleton) DO UPDATE SET lo = excluded.lo, hi = excluded.hi;
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_set_repository_id_range(integer, integer, boolean) IS
'set the range of repository ids (lo to hi, both included) that this server gives to new repositories, so that the ids of shards never meet; the repositories loaded already keep their ids, which must lie in it, unless renumber => true gives those outside new ids from it (their rows rewritten)';

REVOKE ALL ON FUNCTION @extschema@.fixes_set_repository_id_range(integer, integer, boolean) FROM PUBLIC;

CREATE FUNCTION @extschema@.fixes_attach_shard(server name, remote_schema name DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'fixes');
    version text := (SELECT e.extversion FROM pg_catalog.pg_extension e WHERE e.extname = 'fixes');
    sch text := 'fixes_shard_' || server;
    opts text[];
    theirs text;
    rsch name;
    my_lo integer;
    my_hi integer;
    lo integer;
    hi integer;
    other name;
    t record;
    n bigint;
    outside bigint;
    names text;
BEGIN
    -- the extension's schema when the function runs (issue 28); the SET
    -- clause takes the setting back when it returns
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    IF server IS NULL THEN
        RAISE EXCEPTION 'the server is NULL' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension e WHERE e.extname = 'postgres_fdw') THEN
        RAISE EXCEPTION 'extension "postgres_fdw" is not installed'
              USING ERRCODE = 'undefined_object',
                    HINT = 'CREATE EXTENSION postgres_fdw, a server and a user mapping (docs/shards.md).';
    END IF;
    SELECT s.srvoptions INTO opts
      FROM pg_catalog.pg_foreign_server s
      JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw
     WHERE s.srvname = fixes_attach_shard.server AND w.fdwname = 'postgres_fdw';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'server "%" is not a foreign server of postgres_fdw', server
              USING ERRCODE = 'undefined_object',
                    HINT = 'CREATE SERVER ... FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ..., port ..., dbname ...).';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_user_mappings m
                    WHERE m.srvname = fixes_attach_shard.server
                      AND (m.umuser = 0 OR m.umuser = (SELECT r.oid FROM pg_catalog.pg_roles r
                                                        WHERE r.rolname = current_user))) THEN
        RAISE EXCEPTION 'no user mapping for role "%" on server "%"', current_user, server
              USING ERRCODE = 'undefined_object',
                    HINT = 'CREATE USER MAPPING FOR ... SERVER ... OPTIONS (user ..., password ...): a role of the shard that may read its tables.';
    END IF;
    IF EXISTS (SELECT FROM fixes_shards s WHERE s.server = fixes_attach_shard.server) THEN
        RAISE EXCEPTION 'server "%" is attached already', server
              USING ERRCODE = 'duplicate_object',
                    HINT = 'Nothing needs attaching again after a load on the shard; fixes_detach_shard() detaches it.';
    END IF;
    SELECT r.lo, r.hi INTO my_lo, my_hi FROM fixes_repository_id_range r;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'this server has no range of repository ids'
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    DETAIL = 'The repository ids of the coordinator and of every shard must never meet.',
                    HINT = 'SELECT fixes_set_repository_id_range(lo, hi) here first, a range that holds the ids in use and none of a shard''s.';
    END IF;
    IF pg_catalog.octet_length(sch) > 63 THEN
        RAISE EXCEPTION 'server name "%" is too long', server
              USING ERRCODE = 'name_too_long',
                    DETAIL = pg_catalog.format('Its foreign tables go into schema "fixes_shard_<server>", at most %s bytes.', 63);
    END IF;
    IF EXISTS (SELECT FROM pg_catalog.pg_namespace x WHERE x.nspname = sch) THEN
        RAISE EXCEPTION 'schema "%" exists already', sch
              USING ERRCODE = 'duplicate_schema',
                    HINT = 'fixes_attach_shard() puts the shard''s foreign tables in a schema of that name: drop or rename it.';
    END IF;
    EXECUTE pg_catalog.format('CREATE SCHEMA %I', sch);

    -- the shard's version and schema of the extension (the first connection:
    -- a shard that does not answer is an ERROR naming the server here)
    EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.fixes_shard_extension (extname name, extversion text, extnamespace oid) '
                              'SERVER %I OPTIONS (schema_name ''pg_catalog'', table_name ''pg_extension'')', sch, server);
    EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.fixes_shard_namespace (oid oid, nspname name) '
                              'SERVER %I OPTIONS (schema_name ''pg_catalog'', table_name ''pg_namespace'')', sch, server);
    EXECUTE pg_catalog.format('SELECT e.extversion, x.nspname FROM %1$I.fixes_shard_extension e '
                              'JOIN %1$I.fixes_shard_namespace x ON x.oid = e.extnamespace WHERE e.extname = ''fixes''', sch)
       INTO theirs, rsch;
    EXECUTE pg_catalog.format('DROP FOREIGN TABLE %1$I.fixes_shard_extension, %1$I.fixes_shard_namespace', sch);
    IF theirs IS NULL THEN
        RAISE EXCEPTION 'extension fixes is not installed on server "%"', server
              USING ERRCODE = 'undefined_object',
                    HINT = 'A shard is an ordinary installation: CREATE EXTENSION fixes there (in the database the server names).';
    END IF;
    IF theirs <> version THEN
        RAISE EXCEPTION 'server "%" has fixes %, this server %', server, theirs, version
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = 'ALTER EXTENSION fixes UPDATE on the shards first, then on the coordinator (docs/shards.md).';
    END IF;
    rsch := COALESCE(remote_schema, rsch);

    -- the shard's range of ids: set, and meeting no other
    EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.fixes_shard_id_range (lo integer, hi integer) '
                              'SERVER %I OPTIONS (schema_name %L, table_name ''fixes_repository_id_range'')',
                              sch, server, rsch);
    EXECUTE pg_catalog.format('SELECT r.lo, r.hi FROM %I.fixes_shard_id_range r', sch) INTO lo, hi;
    EXECUTE pg_catalog.format('DROP FOREIGN TABLE %I.fixes_shard_id_range', sch);
    IF lo IS NULL THEN
        RAISE EXCEPTION 'server "%" has no range of repository ids', server
              USING ERRCODE = 'object_not_in_prerequisite_state',
                    HINT = 'On the shard: SELECT fixes_set_repository_id_range(lo, hi), a range that meets no other server''s.';
    END IF;
    IF lo <= my_hi AND hi >= my_lo THEN
        RAISE EXCEPTION 'the repository ids of server "%" (% to %) meet this server''s (% to %)',
                        server, lo, hi, my_lo, my_hi
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Give each server a range of its own with fixes_set_repository_id_range().';
    END IF;
    SELECT s.server INTO other FROM fixes_shards s
     WHERE s.id_lo <= hi AND s.id_hi >= lo ORDER BY s.server LIMIT 1;
    IF other IS NOT NULL THEN
        RAISE EXCEPTION 'the repository ids of server "%" (% to %) meet those of shard "%"', server, lo, hi, other
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'Give each server a range of its own with fixes_set_repository_id_range().';
    END IF;

    -- a foreign table for each table of the extension that holds rows of
    -- repositories (a repository_id column), a child of it; async_capable
    -- unless the server says otherwise: the shards are scanned concurrently
    FOR t IN
        SELECT c.relname
          FROM pg_catalog.pg_depend d
          JOIN pg_catalog.pg_class c ON c.oid = d.objid
         WHERE d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass
           AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
           AND d.refobjid = ext AND d.deptype = 'e'
           AND c.relkind = 'r' AND c.relnamespace = (SELECT x.oid FROM pg_catalog.pg_namespace x WHERE x.nspname = nsp)
           AND EXISTS (SELECT FROM pg_catalog.pg_attribute a
                        WHERE a.attrelid = c.oid AND a.attname = 'repository_id'
                          AND a.attnum > 0 AND NOT a.attisdropped)
         ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('CREATE FOREIGN TABLE %I.%I () INHERITS (%I.%I) SERVER %I '
                                  'OPTIONS (schema_name %L, table_name %L%s)',
                                  sch, t.relname, nsp, t.relname, server, rsch, t.relname,
                                  CASE WHEN EXISTS (SELECT FROM unnest(opts) o WHERE o LIKE 'async\_capable=%')
                                       THEN '' ELSE ', async_capable ''true''' END);
    END LOOP;

    -- the shard's repositories: ids in its range, names that no other server has
    EXECUTE pg_catalog.format('SELECT pg_catalog.count(*), pg_catalog.count(*) FILTER (WHERE r.repository_id NOT BETWEEN $1 AND $2) '
                              'FROM %I.fixes_repositories r', sch)
       INTO n, outside USING lo, hi;
    IF outside > 0 THEN
        RAISE EXCEPTION 'server "%" holds % repositories whose ids are outside its range (% to %)', server, outside, lo, hi
              USING ERRCODE = 'invalid_parameter_value',
                    HINT = 'On the shard: fixes_set_repository_id_range() with a range that holds its ids.';
    END IF;
    SELECT pg_catalog.string_agg(pg_catalog.quote_literal(x.name), ', ' ORDER BY x.name) INTO names
      FROM (SELECT r.name FROM fixes_repositories r GROUP BY r.name HAVING pg_catalog.count(*) > 1) x;
    IF names IS NOT NULL THEN
        RAISE EXCEPTION 'server "%" holds repositories of names that another server holds: %', server, names
              USING ERRCODE = 'unique_violation',
                    DETAIL = 'A repository name is unique over the coordinator and its shards.',
                    HINT = 'Unload one of them, or load it under another name (fixes_load(name => ...)).';
    END IF;

    -- constraint exclusion: a query that names a repository id out of the
    -- shard's range does not scan its tables
    FOR t IN
        SELECT c.relname FROM pg_catalog.pg_class c
          JOIN pg_catalog.pg_namespace x ON x.oid = c.relnamespace
         WHERE x.nspname = sch AND c.relkind = 'f'
         ORDER BY c.relname
    LOOP
        EXECUTE pg_catalog.format('ALTER FOREIGN TABLE %I.%I ADD CONSTRAINT fixes_shard_repository_ids '
                                  'CHECK (repository_id >= %s AND repository_id <= %s)', sch, t.relname, lo, hi);
    END LOOP;

    IF NOT EXISTS (SELECT FROM unnest(opts) o WHERE o LIKE 'connect\_timeout=%') THEN
        RAISE NOTICE 'server "%" has no connect_timeout', server
              USING DETAIL = 'A query of the coordinator waits for a shard that does not answer as long as the operating system lets a connection wait.',
                    HINT = pg_catalog.format('ALTER SERVER %I OPTIONS (ADD connect_timeout ''5'')', server);
    END IF;
    INSERT INTO fixes_shards (server, schema_name, remote_schema, id_lo, id_hi)
    VALUES (fixes_attach_shard.server, sch, rsch, lo, hi);
    RETURN n;
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_attach_shard(name, name) IS
'attach the fixes installation that the postgres_fdw server names: its tables become foreign tables in schema fixes_shard_<server>, children of this server''s tables, so that every view and function here reads its repositories too; the number of its repositories';

REVOKE ALL ON FUNCTION @extschema@.fixes_attach_shard(name, name) FROM PUBLIC;

CREATE FUNCTION @extschema@.fixes_detach_shard(server name)
RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name := (SELECT n.nspname FROM pg_catalog.pg_extension e
                   JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                  WHERE e.extname = 'fixes');
    sch name;
    tables text;
BEGIN
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, ' || pg_catalog.quote_ident(nsp) || ', pg_temp', true);
    DELETE FROM fixes_shards s WHERE s.server = fixes_detach_shard.server RETURNING s.schema_name INTO sch;
    IF sch IS NULL THEN
        RETURN false;
    END IF;
    -- the foreign tables that attach made; an object of the user's that
    -- depends on one of them, or that the user put in the schema, stops it
    -- (no CASCADE)
    SELECT pg_catalog.string_agg(pg_catalog.format('%I.%I', sch, c.relname), ', ' ORDER BY c.relname) INTO tables
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace x ON x.oid = c.relnamespace
     WHERE x.nspname = sch AND c.relkind = 'f';
    IF tables IS NOT NULL THEN
        EXECUTE 'DROP FOREIGN TABLE ' || tables;
    END IF;
    EXECUTE pg_catalog.format('DROP SCHEMA %I', sch);
    RETURN true;
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_detach_shard(name) IS
'detach a shard attached by fixes_attach_shard: its foreign tables and their schema are dropped (nothing is changed on the shard); false if it is not attached';

REVOKE ALL ON FUNCTION @extschema@.fixes_detach_shard(name) FROM PUBLIC;
-- ---- end of issue 46 ----
