/*
 * load_analyze.c — fixes_load(): the planner statistics of what it changed
 *
 * Right after a load the planner knows nothing of the new rows until
 * autovacuum analyses the tables, after the commit: a join of a hundred ids
 * with fixes_commits is then planned as a full scan.  So the load
 * runs ANALYZE itself, in its own transaction (ANALYZE sees the rows the
 * transaction wrote), on each table of the extension that this transaction
 * changed by more than autovacuum would wait for:
 * autovacuum_analyze_threshold + autovacuum_analyze_scale_factor x the rows
 * the statistics knew (all of them when the table was never analysed).  A
 * refresh that adds 1% changes no large table that much and analyses none.
 *
 * Only the columns of the table's indexes (their keys, expressions and
 * predicates: pg_depend) and of its CHECK constraints are analysed: joins
 * and look-ups by id are planned on the first, and the views filter on the
 * second, the short enumerations (fixes_edges.kind, status and method:
 * without them fixes_bug_lifetimes was estimated at 1 row and planned as
 * nested loops).  A table's wide columns (the messages, paths, trailer
 * values and fixes_graph's arrays) would cost a load most of the ANALYZE.  An ANALYZE of some
 * columns leaves autovacuum's count of changed rows as it was, so
 * autovacuum still analyses the whole table after the commit.
 *
 * Only the tables' owner may analyse them; a load by another role (the
 * README's pg_cron role) leaves the statistics to autovacuum, as before.
 *
 * A table with child tables (a coordinator's, whose children are the
 * foreign tables of its shards) is left to autovacuum too: an
 * ANALYZE of it samples every child as well (PostgreSQL 15 has no ANALYZE
 * ONLY), which would reach into the shards, and a load on the coordinator
 * never touches a shard (every statement of the loader names its tables
 * with ONLY for the same reason).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "postmaster/autovacuum.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "load_analyze.h"
#include "load_state.h"
#include "spi_call.h"

void
fixes_load_analyze(FixesLoad *ld)
{
	Oid			argtypes[3] = {OIDOID, FLOAT8OID, INT4OID};
	Datum		args[3];
	uint64		n;
	char	  **names;
	int			nestlevel;

	args[0] = ObjectIdGetDatum(ld->nsp);
	args[1] = Float8GetDatum(autovacuum_anl_scale);
	args[2] = Int32GetDatum(autovacuum_anl_thresh);
	n = fixes_spi_execute("SELECT pg_catalog.format('%I.%I', n.nspname, c.relname) "
						  " || COALESCE(' (' || (SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) "
						  "    FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 "
						  "     AND (EXISTS (SELECT FROM pg_catalog.pg_depend dx "
						  "                   JOIN pg_catalog.pg_index x ON x.indexrelid = dx.objid "
						  "                  WHERE dx.classid = 'pg_catalog.pg_class'::pg_catalog.regclass "
						  "                    AND dx.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass "
						  "                    AND dx.refobjid = c.oid AND dx.refobjsubid = a.attnum "
						  "                    AND x.indrelid = c.oid) "
						  "          OR EXISTS (SELECT FROM pg_catalog.pg_constraint k "
						  "                      WHERE k.conrelid = c.oid AND k.contype = 'c' "
						  "                        AND a.attnum = ANY (k.conkey)))) || ')', '') "
						  "FROM pg_catalog.pg_class c "
						  "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
						  "JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass "
						  " AND d.objid = c.oid AND d.deptype = 'e' "
						  " AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass "
						  "JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'fixes' "
						  "WHERE c.relnamespace = $1 AND c.relkind = 'r' AND NOT c.relhassubclass "
						  "  AND pg_catalog.pg_has_role(c.relowner, 'USAGE') "
						  "  AND pg_catalog.pg_stat_get_xact_tuples_inserted(c.oid) "
						  "    + pg_catalog.pg_stat_get_xact_tuples_updated(c.oid) "
						  "    + pg_catalog.pg_stat_get_xact_tuples_deleted(c.oid) "
						  "    > $3 + $2 * CASE WHEN c.reltuples > 0 THEN c.reltuples ELSE 0 END "
						  "ORDER BY c.relname",
						  3, argtypes, args, NULL, 0, SPI_OK_SELECT);
	names = palloc(sizeof(char *) * (n + 1));
	for (uint64 i = 0; i < n; i++)
		names[i] = pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
	/*
	 * A sample of 1,500 rows (300 x the statistics target), not 30,000: the
	 * planner needs the columns' sizes, null fractions and distinct counts,
	 * not their histograms (a join of 100 ids is planned on the index with
	 * these as with 3,000, bench/measure.py); autovacuum's full ANALYZE
	 * follows.  3,000 rows cost 0.23 G instructions of a cold load of
	 * 130,000 commits, 1,500 rows 0.13 G (issue 45).
	 */
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("default_statistics_target", "5", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	for (uint64 i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		fixes_spi_execute(psprintf("ANALYZE %s", names[i]), 0, NULL, NULL, NULL, 0, SPI_OK_UTILITY);
	}
	AtEOXact_GUC(true, nestlevel);
}
