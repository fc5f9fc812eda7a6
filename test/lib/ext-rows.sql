-- test/lib/ext-rows.sql — every row of every table and view of extension fixes, as lines
-- "relation<TAB>row as jsonb text", sorted; run in two databases and diff the outputs
-- (psql -X -q -At -F '<TAB>' -f ext-rows.sql, with PGTZ set alike).
--
-- Generic over the catalog: every relation that belongs to the extension (pg_depend 'e') is
-- dumped, so a table or view that a later version adds is compared without a change here.
-- In a row, repository_id (a number that depends on the order of loads and unloads) is
-- replaced by the repository's name; the columns named in pg_temp.ext_rows_skipped are left
-- out wherever they occur: the timing of a load (loaded_at: when it ran, load_seconds: how
-- long it took).
--
-- With -v only=REL.COL,REL.COL,... just those relations and columns are dumped (to compare a
-- database of an older version, whose objects are a subset, with one of the newest).
\if :{?only}
SET fixes_t.only_columns = :'only';
\else
SET fixes_t.only_columns = '';
\endif
CREATE FUNCTION pg_temp.ext_rows_skipped() RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$ SELECT ARRAY['loaded_at', 'load_seconds'] $$;

CREATE FUNCTION pg_temp.ext_rows()
RETURNS TABLE (relation text, row_text text)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    repo text;
    cols text;
    keep text[] := string_to_array(nullif(current_setting('fixes_t.only_columns'), ''), ',');
BEGIN
    FOR r IN
        SELECT c.oid, c.relname::text AS relname, n.nspname::text AS nspname
          FROM pg_depend d
          JOIN pg_class c ON c.oid = d.objid
          JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
           AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
           AND d.deptype = 'e' AND c.relkind IN ('r', 'p', 'v', 'm')
         ORDER BY 2
    LOOP
        IF keep IS NOT NULL AND NOT EXISTS (SELECT FROM unnest(keep) o WHERE o LIKE r.relname || '.%') THEN
            CONTINUE;
        END IF;
        IF EXISTS (SELECT FROM pg_attribute a
                    WHERE a.attrelid = r.oid AND a.attname = 'repository_id'
                      AND a.attnum > 0 AND NOT a.attisdropped) THEN
            repo := format('jsonb_build_object(''repository_id'', '
                           '(SELECT p.name FROM %I.fixes_repositories p '
                           'WHERE p.repository_id = t.repository_id))', r.nspname);
        ELSE
            repo := '''{}''::jsonb';
        END IF;
        IF keep IS NULL THEN
            cols := 'to_jsonb(t)';
        ELSE
            cols := format('(SELECT jsonb_object_agg(j.key, j.value) FROM jsonb_each(to_jsonb(t)) j '
                           ' WHERE %L || j.key = ANY (%L::text[]))', r.relname || '.', keep);
        END IF;
        RETURN QUERY EXECUTE format(
            'SELECT %L, ((%s - ''repository_id'' - pg_temp.ext_rows_skipped()) || %s)::text '
            '  FROM %I.%I t', r.relname, cols, repo, r.nspname, r.relname);
    END LOOP;
END
$$;

SELECT relation, row_text FROM pg_temp.ext_rows() ORDER BY relation COLLATE "C", row_text COLLATE "C";
