-- test/lib/ext-catalog.sql — the objects of extension fixes as sorted text lines, without
-- OIDs: run in two databases and diff the outputs (psql -X -q -At -f ext-catalog.sql).
--
-- Generic over the catalog, so an object that a later version adds is compared without a
-- change here:
--   extension  its version, schema, relocatability, and the tables (and sequences) whose rows
--              pg_dump keeps (pg_extension_config_dump), with their conditions
--   member     pg_describe_object() of every object that belongs to the extension
--   function   pg_get_functiondef() (arguments, result, language, body or C symbol,
--              volatility, strictness, parallel safety, SET clauses), ACL and comment
--   relation   kind, persistence, options, row security, ACL, comment; a view's definition
--   column     position among the live columns (a column added by ALTER TABLE comes last,
--              so a fresh install must declare it last too), name, type, collation,
--              NOT NULL, default, identity, generated, storage, ACL, comment
--   index      pg_get_indexdef(), comment (also the indexes that constraints create)
--   constraint name, pg_get_constraintdef(), comment
--   trigger    pg_get_triggerdef();  policy  name, command, roles, expressions
--   sequence   type, start, increment, bounds, cache, cycle
--   type       (of the extension's own types) pg_describe_object() and its definition
--              (format_type, kind)
SELECT line FROM (
SELECT 'extension ' || e.extname || ' version ' || e.extversion || ' schema ' || n.nspname
       || ' relocatable ' || e.extrelocatable
  FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
 WHERE e.extname = 'fixes'
UNION ALL
SELECT 'extension config_dump ' || c.oid::regclass::text || ' condition ' || quote_literal(cond)
  FROM pg_extension e,
       unnest(e.extconfig, e.extcondition) AS u(relid, cond)
  JOIN pg_class c ON c.oid = u.relid
 WHERE e.extname = 'fixes'
UNION ALL
SELECT 'member ' || pg_describe_object(d.classid, d.objid, d.objsubid)
  FROM pg_depend d
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'function ' || p.oid::regprocedure::text || E'\n' || pg_get_functiondef(p.oid)
       || E'\n  acl ' || coalesce(p.proacl::text, '(default)')
       || E'\n  comment ' || coalesce(quote_literal(obj_description(p.oid, 'pg_proc')), '(none)')
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'relation ' || c.oid::regclass::text || ' kind ' || c.relkind::text || ' persistence ' || c.relpersistence::text
       || ' options ' || coalesce(c.reloptions::text, '(none)')
       || ' rowsecurity ' || c.relrowsecurity || ' ' || c.relforcerowsecurity
       || ' acl ' || coalesce(c.relacl::text, '(default)')
       || ' comment ' || coalesce(quote_literal(obj_description(c.oid, 'pg_class')), '(none)')
       || CASE WHEN c.relkind IN ('v', 'm') THEN E'\n' || pg_get_viewdef(c.oid) ELSE '' END
  FROM pg_class c
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'column ' || c.oid::regclass::text || ' #' || row_number() OVER (PARTITION BY c.oid ORDER BY a.attnum)
       || ' ' || quote_ident(a.attname) || ' ' || format_type(a.atttypid, a.atttypmod)
       || coalesce(' collate ' || (SELECT quote_ident(co.collname) FROM pg_collation co
                                    WHERE co.oid = a.attcollation AND a.attcollation <> 0), '')
       || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
       || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
       || CASE WHEN a.attidentity <> '' THEN ' identity ' || a.attidentity::text ELSE '' END
       || CASE WHEN a.attgenerated <> '' THEN ' generated ' || a.attgenerated::text ELSE '' END
       || ' storage ' || a.attstorage::text
       || coalesce(' acl ' || a.attacl::text, '')
       || coalesce(' comment ' || quote_literal(col_description(c.oid, a.attnum)), '')
  FROM pg_class c
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef ad ON ad.adrelid = c.oid AND ad.adnum = a.attnum
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
   AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c')
UNION ALL
SELECT 'index ' || pg_get_indexdef(x.indexrelid)
       || ' comment ' || coalesce(quote_literal(obj_description(x.indexrelid, 'pg_class')), '(none)')
  FROM pg_index x
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = x.indrelid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'constraint ' || co.conrelid::regclass::text || ' ' || quote_ident(co.conname) || ' '
       || pg_get_constraintdef(co.oid)
       || ' comment ' || coalesce(quote_literal(obj_description(co.oid, 'pg_constraint')), '(none)')
  FROM pg_constraint co
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = co.conrelid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'trigger ' || pg_get_triggerdef(t.oid)
  FROM pg_trigger t
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = t.tgrelid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
   AND NOT t.tgisinternal
UNION ALL
SELECT 'policy ' || po.tablename || ' ' || po.policyname || ' ' || po.permissive || ' ' || po.cmd
       || ' ' || po.roles::text || ' using ' || coalesce(po.qual, '-') || ' check ' || coalesce(po.with_check, '-')
  FROM pg_policies po
  JOIN pg_class c ON c.relname = po.tablename
  JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = po.schemaname
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'sequence ' || s.seqrelid::regclass::text || ' ' || format_type(s.seqtypid, NULL)
       || ' start ' || s.seqstart || ' increment ' || s.seqincrement || ' min ' || s.seqmin
       || ' max ' || s.seqmax || ' cache ' || s.seqcache || ' cycle ' || s.seqcycle
  FROM pg_sequence s
  JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.seqrelid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
UNION ALL
SELECT 'type ' || format_type(t.oid, NULL) || ' kind ' || t.typtype::text
       || coalesce(' enum ' || (SELECT string_agg(quote_literal(enumlabel), ', ' ORDER BY enumsortorder)
                                  FROM pg_enum WHERE enumtypid = t.oid), '')
  FROM pg_type t
  JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
) AS t(line)
ORDER BY line COLLATE "C";
