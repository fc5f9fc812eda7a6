/*
 * load_graph.c — fixes_graph: the commit graph of the load, written by each
 * load that grew it, for the next refresh (refresh/graph_read.c reads it)
 *
 * The graph is kept compact in fixes_graph: one row per 65536 commits, with binary
 * columns of ids (20 bytes each), subject hashes (8), parent counts (4) and
 * parent indexes (4 each), in the server's byte order; from version 1.2 a
 * bitmap of the commits whose message has a Cc: stable line (bit i % 8 of
 * byte i / 8), which the per-release counts of every load need and a
 * refresh reads nowhere else.  New commits only append.  A full load writes
 * rows of 65536 commits; a refresh appends a row of its new commits, after
 * rewriting them together with the last rows short of 65536 commits that
 * hold no more commits than it writes (fixes_load_write_graph()): a daily
 * refresh writes a few hundred commits, not the 65536 of a whole row, and
 * the rows short of 65536 stay few (their sizes halve, as the digits of a
 * binary counter).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "graph_rows.h"
#include "load_state.h"
#include "spi_call.h"
#include "release_marking.h"
#include "toast_copy.h"

/*
 * Write the rows that this load changed, from row first (the commits from
 * from on), in rows of CHUNK_COMMITS commits: all of them after a full load
 * (0, 0); after a refresh, those refresh/graph_kept.c does not keep.
 */
void
fixes_load_write_graph(FixesLoad *ld, int32 first, uint32 from)
{
	FixesGraph *g = ld->graph;
	char	   *sql;
	Oid			del_types[2] = {INT4OID, INT4OID};
	Datum		del_args[2];
	Oid			ins_types[10] = {INT4OID, INT4OID, INT4OID, INT4OID, BYTEAOID, BYTEAOID, BYTEAOID, BYTEAOID,
	BYTEAOID, BYTEAOID};
	bool		v12 = ld->has.graph_releases;
	SPIPlanPtr	plan;
	int32		chunk;

	del_args[0] = Int32GetDatum(ld->repository_id);
	del_args[1] = Int32GetDatum(first);
	sql = psprintf("DELETE FROM ONLY %s.fixes_graph WHERE repository_id = $1 AND chunk >= $2",
				   ld->schema);
	fixes_spi_execute(sql, 2, del_types, del_args, NULL, 0, SPI_OK_DELETE);

	sql = psprintf("INSERT INTO %s.fixes_graph (repository_id, format, chunk, commits, ids, "
				   "subject_hashes, parent_counts, parents%s) VALUES ($1, $2, $3, $4, $5, $6, $7, $8%s)",
				   ld->schema, v12 ? ", stable_cc, releases" : "", v12 ? ", $9, $10" : "");
	/* generic: a custom plan would fold the values into constants, decompressed */
	plan = fixes_spi_prepare_generic(sql, v12 ? 10 : 8, ins_types);

	chunk = first;
	for (uint32 lo = from; lo < g->n; chunk++)
	{
		MemoryContext old = MemoryContextSwitchTo(ld->cxt);
		uint32		hi = (uint32) Min((uint64) g->n, (uint64) lo + CHUNK_COMMITS);
		uint32		n = hi - lo;
		char	   *ids = fixes_palloc_big((Size) n * FIXES_OID_RAWSZ, MCXT_ALLOC_HUGE);
		uint32	   *counts = fixes_palloc_big((Size) n * sizeof(uint32), MCXT_ALLOC_HUGE);
		Size		npar = 0;
		uint32	   *parents;
		Size		p = 0;
		Datum		args[10];
		uint8	   *bits = palloc0(((Size) n + 7) / 8);

		for (uint32 i = lo; i < hi; i++)
		{
			if ((i & 0xffff) == 0xffff)
				CHECK_FOR_INTERRUPTS();
			memcpy(ids + (Size) (i - lo) * FIXES_OID_RAWSZ, g->oids[i].id, FIXES_OID_RAWSZ);
			counts[i - lo] = g->par_end[i] - g->par_start[i];
			npar += counts[i - lo];
			if (ld->by_commit.stable_cc[i])
				bits[(i - lo) / 8] |= (uint8) (1 << ((i - lo) % 8));
		}
		parents = fixes_palloc_big(sizeof(uint32) * Max(npar, 1), MCXT_ALLOC_HUGE);
		for (uint32 i = lo; i < hi; i++)
			for (uint32 q = g->par_start[i]; q < g->par_end[i]; q++)
				parents[p++] = g->parents[q];

		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = Int32GetDatum(SNAPSHOT_FORMAT);
		args[2] = Int32GetDatum(chunk);
		args[3] = Int32GetDatum((int32) n);
		args[4] = PointerGetDatum(fixes_bytea(ids, (Size) n * FIXES_OID_RAWSZ));
		args[5] = PointerGetDatum(fixes_bytea(ld->by_commit.subj_hash + lo, (Size) n * sizeof(uint64)));
		args[6] = PointerGetDatum(fixes_bytea(counts, (Size) n * sizeof(uint32)));
		args[7] = PointerGetDatum(fixes_bytea(parents, npar * sizeof(uint32)));
		args[8] = PointerGetDatum(fixes_bytea_compressed(bits, ((Size) n + 7) / 8));
		args[9] = PointerGetDatum(fixes_bytea_compressed(ld->mark + lo, (Size) n * sizeof(int32)));
		fixes_spi_execute_plan(plan, args, NULL, SPI_OK_INSERT);
		MemoryContextSwitchTo(old);
		pfree(ids);
		pfree(counts);
		pfree(parents);
		pfree(bits);
		for (int a = 4; a < 10; a++)
			pfree(DatumGetPointer(args[a]));
		lo = hi;
	}
	SPI_freeplan(plan);
}
