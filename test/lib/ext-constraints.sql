-- test/lib/ext-constraints.sql — the rows of the extension's tables that break a NOT NULL or
-- CHECK constraint of their table (issue 29: the loader writes in bulk, below the executor).
-- Generic over the catalog: every table that belongs to extension fixes (pg_depend 'e'), every
-- NOT NULL column and every CHECK constraint (its expression, pg_get_expr), so what a later version
-- adds is covered.  Prints one line per constraint and table, "table<TAB>constraint<TAB>rows
-- that break it", then "checked<TAB>N constraints"; a database that keeps them prints only
-- that last line (psql -X -q -At -F '<TAB>' -f ext-constraints.sql).
CREATE FUNCTION pg_temp.ext_constraint_breaks()
RETURNS TABLE (relation text, rule text, bad bigint)
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    n bigint;
    checked integer := 0;
BEGIN
    FOR r IN
        SELECT c.oid::regclass::text AS rel, 'NOT NULL ' || quote_ident(a.attname) AS rule,
               format('SELECT count(*) FROM %s WHERE %I IS NULL', c.oid::regclass, a.attname) AS q
          FROM pg_depend d
          JOIN pg_class c ON c.oid = d.objid
          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
         WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
           AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
           AND d.deptype = 'e' AND c.relkind = 'r' AND a.attnotnull
        UNION ALL
        SELECT c.oid::regclass::text, k.conname::text,
               format('SELECT count(*) FROM %s WHERE NOT (%s)', c.oid::regclass,
                      pg_get_expr(k.conbin, k.conrelid))
          FROM pg_depend d
          JOIN pg_class c ON c.oid = d.objid
          JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'c'
         WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
           AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
           AND d.deptype = 'e' AND c.relkind = 'r'
         ORDER BY 1, 2
    LOOP
        EXECUTE r.q INTO n;
        checked := checked + 1;
        IF n > 0 THEN
            relation := r.rel; rule := r.rule; bad := n;
            RETURN NEXT;
        END IF;
    END LOOP;
    relation := 'checked'; rule := checked || ' constraints'; bad := NULL;
    RETURN NEXT;
END
$$;
SELECT relation, rule, bad FROM pg_temp.ext_constraint_breaks();
