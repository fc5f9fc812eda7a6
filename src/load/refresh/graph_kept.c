/*
 * graph_kept.c — a refresh: the rows of fixes_graph it keeps
 *
 * load_graph.c writes the rows of the load's commits; a refresh keeps the
 * rows of the previous load but the last ones short of CHUNK_COMMITS (its
 * new commits are written with them), and writes again the releases of
 * the kept rows whose commits a new release reached.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"

#include "graph_rows.h"
#include "load_state.h"
#include "refresh.h"
#include "spi_call.h"

/*
 * The rows a refresh writes again: its new commits, together with the last
 * rows short of CHUNK_COMMITS while each holds no more commits than those
 * written after it (so that a commit is written again only when the rows
 * after it have at least doubled): the rows that the graph's read read the
 * subject hashes of.  *first_row: the first row written, *first_commit: its
 * first commit; both unchanged when the previous graph's rows are unknown.
 */
void
fixes_refresh_graph_kept(FixesLoad *ld, int32 *first_row, uint32 *first_commit)
{
	FixesGraph *g = ld->graph;
	int32		first;
	uint32		from;
	uint64		written;

	if (ld->refresh->graph_rows == NULL)
		return;
	written = g->n - ld->n_old;
	first = ld->refresh->graph_nrows;
	from = ld->n_old;
	while (first > 0 && ld->refresh->graph_rows[first - 1] < CHUNK_COMMITS &&
		   ld->refresh->graph_rows[first - 1] <= written)
	{
		written += ld->refresh->graph_rows[first - 1];
		from -= ld->refresh->graph_rows[first - 1];
		first--;
	}
	/* not expected: the subject hashes or parents of the rows below the ones read */
	if (from < ld->refresh->subj_from)
		fixes_load_read_subject_hashes(ld);
	for (int32 r = first; r < ld->refresh->graph_nrows; r++)
		if (!ld->refresh->graph_row_parents[r])
		{
			fixes_load_read_parents_rest(ld);	/* reads every row left */
			break;
		}
	/* the ids of the rows written again, which a sparse graph lacks */
	if (from < g->sparse_below && first < ld->refresh->graph_nrows)
		fixes_load_read_ids_rows(ld, first, ld->refresh->graph_nrows);
	elog(DEBUG1, "fixes_load %s: fixes_graph rows from %d written again (commits %u ..)",
		 ld->args.name, first, from);
	*first_row = first;
	*first_commit = from;
}

/*
 * The releases of the commits of the rows below first that this load does
 * not write again, where they changed: the rows of the commits that a
 * new release reached, or all of them when a release came before others
 * (the ranks after it moved) or the previous load stored none.
 */
void
fixes_refresh_write_moved_releases(FixesLoad *ld, int32 first)
{
	SPIPlanPtr	plan = NULL;
	Oid			types[3] = {INT4OID, INT4OID, BYTEAOID};
	uint32		lo = 0;
	int			updated = 0;

	bool	   *changed = NULL;

	/* marked in place (load_releases.c): the rows of the moved commits */
	if (ld->refresh != NULL && ld->refresh->moved_bits != NULL)
	{
		changed = palloc0(sizeof(bool) * Max(first, 1));
		for (int64 m = 0, r = 0, end = ld->refresh->graph_rows[0]; m < ld->refresh->nmoved; m++)
		{
			while (ld->refresh->moved[m] >= end && r + 1 < ld->refresh->graph_nrows)
				end += ld->refresh->graph_rows[++r];
			if (r < first)
				changed[r] = true;
		}
	}
	for (int32 r = 0; r < first; r++)
	{
		uint32		n = ld->refresh->graph_rows[r];
		Datum		args[3];

		CHECK_FOR_INTERRUPTS();
		if (changed != NULL ? !changed[r] :
			ld->refresh->stored.mark != NULL &&
			memcmp(ld->refresh->stored.mark + lo, ld->mark + lo, sizeof(int32) * n) == 0)
		{
			lo += n;
			continue;
		}
		if (plan == NULL)
			plan = fixes_spi_prepare_generic(psprintf("UPDATE ONLY %s.fixes_graph SET releases = $3 "
											  "WHERE repository_id = $1 AND chunk = $2",
											  ld->schema), 3, types);
		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = Int32GetDatum(r);
		/* lz4 where the server has it, as the cold load's (load_graph.c) */
		args[2] = PointerGetDatum(fixes_bytea_compressed(ld->mark + lo, (Size) n * sizeof(int32)));
		fixes_spi_execute_plan(plan, args, NULL, SPI_OK_UPDATE);
		pfree(DatumGetPointer(args[2]));
		updated++;
		lo += n;
	}
	if (plan != NULL)
		SPI_freeplan(plan);
	if (ld->refresh != NULL)
		elog(DEBUG1, "fixes_load %s: releases of %d fixes_graph rows written again", ld->args.name, updated);
}
