-- Look-ups by commit id (issue 12): 1.1 indexes fixes_commits.commit_id,
-- fixes_edges.fixing_commit and fixes_edges.target_commit.  A load and a
-- refresh both write these tables through src/db/bulk_insert.c, which must keep
-- the indexes complete: after each, the indexes are checked entry by entry
-- (amcheck) and each kind of look-up is planned on its index.
--
-- The fixture's tables fit in a page or two, and reading one page is cheaper
-- than any index probe: the planner rightly scans the table.  What matters
-- here is whether an index can serve each query at all, so sequential scans
-- are switched off (enable_seqscan = off only makes them look expensive), and
-- so are bitmap scans, so that the plan does not depend on the statistics; at
-- the sizes of bench/run the planner picks the indexes by itself, and bench/run
-- times these same look-ups.

-- a fresh install, without the rows of earlier tests (ids would show twice)
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
CREATE EXTENSION IF NOT EXISTS amcheck;
CREATE EXTENSION IF NOT EXISTS pgstattuple;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set releases :fixtures '/releases.git'

-- the indexes of the extension's tables, and their definitions
SELECT x.indrelid::regclass AS "table", x.indexrelid::regclass AS index,
       pg_get_indexdef(x.indexrelid) AS definition
  FROM pg_index x
  JOIN pg_depend d ON d.objid = x.indrelid AND d.classid = 'pg_class'::regclass
 WHERE d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes')
   AND NOT x.indisprimary AND NOT x.indisunique
 ORDER BY 1, 2;

-- every index of fixes_commits and fixes_edges: valid, and holding exactly
-- the rows of its table (bt_index_check with heapallindexed; a hash index:
-- as many live entries as rows with a key that its condition keeps)
CREATE FUNCTION pg_temp.check_indexes()
RETURNS TABLE (index regclass, valid boolean, ready boolean, entries text)
LANGUAGE plpgsql AS $$
DECLARE
    am name;
    tbl regclass;
    pred text;
    same boolean;
BEGIN
    FOR index, valid, ready, am, tbl, pred IN
        SELECT x.indexrelid::regclass, x.indisvalid, x.indisready, a.amname,
               x.indrelid::regclass, pg_get_expr(x.indpred, x.indrelid)
          FROM pg_index x
          JOIN pg_class c ON c.oid = x.indexrelid
          JOIN pg_am a ON a.oid = c.relam
         WHERE x.indrelid IN ('fixes_commits'::regclass, 'fixes_edges'::regclass)
         ORDER BY x.indexrelid::regclass::text
    LOOP
        IF am = 'btree' THEN
            PERFORM bt_index_check(index, true);
            entries := 'one per row';
        ELSE
            EXECUTE format('SELECT (SELECT live_items FROM pgstathashindex(%L)) = '
                           '(SELECT count(*) FROM %s WHERE %s IS NOT NULL AND (%s))',
                           index, tbl, pg_get_indexdef(index, 1, true), coalesce(pred, 'true'))
               INTO same;
            entries := CASE WHEN same THEN 'one per row' ELSE 'other than the rows' END;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;

-- the look-ups: a full id, an 8-hex prefix, a list of ids, the edges a
-- commit made (C09) and the edges that point at a commit (A02)
CREATE TEMP TABLE lookups (n int, what text, query text);
INSERT INTO lookups VALUES
(1, 'full id',
 $$SELECT left(commit_id, 12) AS commit, release, subject FROM fixes_commits
    WHERE commit_id = 'eed04d3ae91cd9d70840a267020c01608a17b3ad'$$),
(2, '8-hex prefix',
 $$SELECT left(commit_id, 12) AS commit, release, subject FROM fixes_commits
    WHERE commit_id LIKE '20b3d330%' ORDER BY commit_id$$),
(3, 'list of ids',
 $$SELECT left(v.id, 12) AS id, c.release, c.subject
     FROM (VALUES ('eed04d3ae91cd9d70840a267020c01608a17b3ad'),
                  ('8ccf8b2662adbc2eb1a0286c3d5b9c9f6bc41c0c'),
                  ('06956da26d40223850c554fcbe173ab5a01d3f7a'),
                  ('0000000000000000000000000000000000000000')) AS v(id)
     JOIN fixes_commits c ON c.commit_id = v.id
    ORDER BY v.id$$),
(4, 'edges by fixing_commit',
 $$SELECT line, abbrev, status, left(target_commit, 12) AS target FROM fixes_edges
    WHERE fixing_commit = '70542b040802c5e2a0d25c436ba11aac56433b60' ORDER BY line$$),
(5, 'edges by target_commit',
 $$SELECT left(fixing_commit, 12) AS fixing, line, method, fixing_release FROM fixes_edges
    WHERE target_commit = 'eed04d3ae91cd9d70840a267020c01608a17b3ad' ORDER BY fixed_at, line$$);

-- each look-up's plan, then its rows
CREATE FUNCTION pg_temp.run_lookups() RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    q record;
    line text;
BEGIN
    FOR q IN SELECT * FROM lookups ORDER BY n LOOP
        RETURN NEXT q.n || '. ' || q.what || ':';
        FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q.query LOOP
            RETURN NEXT '   ' || line;
        END LOOP;
        FOR line IN EXECUTE format('SELECT t::text FROM (%s) t', q.query) LOOP
            RETURN NEXT '   -> ' || line;
        END LOOP;
    END LOOP;
END
$$;

-- a first load, up to v1.1 (16 commits)
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'releases', 'v1.1', name => 'lookups');
SELECT * FROM pg_temp.check_indexes();
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT * FROM pg_temp.run_lookups();
RESET enable_seqscan;
RESET enable_bitmapscan;

-- a refresh up to HEAD: 22 more commits and 16 more edges, written into the
-- same tables; C09, X and D07 come into scope, A02 is fixed twice more
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'releases', name => 'lookups');
SELECT * FROM pg_temp.check_indexes();
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT * FROM pg_temp.run_lookups();
RESET enable_seqscan;
RESET enable_bitmapscan;

SELECT fixes_unload('lookups');
DROP EXTENSION amcheck;
DROP EXTENSION pgstattuple;
