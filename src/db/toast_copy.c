/*
 * toast_copy.c — bytea values copied into memory that is already theirs,
 * straight from TOAST
 *
 * A refresh reads the previous load's graph back (load_graph.c): 48 MB of
 * bytea values at 1.3M commits, stored out of line and uncompressed (ids
 * and hashes do not compress), each of which has a place in the graph's
 * arrays.  Detoasting would copy each into new memory (megabytes, faulted
 * in) to be copied again, and fetch it through the TOAST index, one index
 * entry and one heap fetch per chunk of 2 kB.  Here:
 *
 * - values out of line, when they are a good part of their TOAST table
 *   (WANTED_SHARE), are read in one pass over that table in physical order,
 *   each chunk copied where it belongs;
 * - the others out of line are fetched through the index, straight into
 *   place (table_relation_fetch_toast_slice());
 * - values compressed with pglz (the groups of load_subsystem_counts.c) are
 *   fetched so, then decompressed into place (pglz_decompress());
 * - values inline, or compressed otherwise, are detoasted and copied.
 *
 * A value that the pass does not find whole (a chunk missing, twice, or of
 * the wrong size) is fetched again through the index, which reports a
 * damaged TOAST table as detoasting does.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/toast_compression.h"
#include "access/toast_internals.h"
#include "catalog/pg_am_d.h"
#include "common/pg_lzcompress.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "big_alloc.h"
#include "toast_copy.h"
#include "sort_cmp.h"

/* read the TOAST table in one pass when the values are this share of it or more */
#define WANTED_SHARE 4			/* 1/4 */

/* a value to fetch from the TOAST table */
typedef struct Wanted
{
	Oid			valueid;
	Oid			toastrelid;
	char	   *dest;			/* where its stored bytes go */
	Size		len;			/* how many */
	char	   *out;			/* compressed: where it goes decompressed, else NULL */
	Size		out_len;
	int32		nchunks;
	int32		got;			/* chunks copied; -1: not whole, fetch it again */
	uint8	   *seen;			/* a bit per chunk */
} Wanted;

/* the length of the value's data (without a varlena header), without fetching it */
Size
fixes_toast_length(struct varlena *v)
{
	return toast_raw_datum_size(PointerGetDatum(v)) - VARHDRSZ;
}

static int
wanted_cmp(const void *a, const void *b)
{
	return FIXES_CMP_BY2((const Wanted *) a, (const Wanted *) b, toastrelid, valueid);
}

/* pglz data of raw_len bytes into dest, which has room for len */
static void
decompress(const char *data, Size data_len, Size raw_len, char *dest, Size len)
{
	if (raw_len != len ||
		pglz_decompress(data, (int32) data_len, dest, (int32) len, true) != (int32) len)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("compressed pglz data is corrupt")));
}

/*
 * Through the TOAST index, into place.  The fetch writes the value's bytes
 * after a varlena header (VARDATA of its result) and not the header itself:
 * point it at dest less a header, and keep the bytes there.
 */
static void
fetch_into(Relation toastrel, const Wanted *w)
{
	char	   *at = w->dest - VARHDRSZ;
	char		saved[VARHDRSZ];

	memcpy(saved, at, VARHDRSZ);
	table_relation_fetch_toast_slice(toastrel, w->valueid, (int32) w->len, 0, (int32) w->len,
									 (struct varlena *) at);
	memcpy(at, saved, VARHDRSZ);
}

/*
 * One pass over a heap TOAST table: each chunk of the values w[0 .. n - 1]
 * (sorted by valueid) copied where it belongs.  The visibility is that of
 * a TOAST fetch (init_toast_snapshot()): a chunk is there while a visible
 * tuple points at its value.
 */
static void
scan_into(Relation toastrel, Wanted *w, int n)
{
	TupleDesc	desc = RelationGetDescr(toastrel);
	SnapshotData snap;
	TableScanDesc scan;
	HeapTuple	tup;

	init_toast_snapshot(&snap);
	scan = table_beginscan(toastrel, &snap, 0, NULL);
	while ((tup = heap_getnext(scan, ForwardScanDirection)) != NULL)
	{
		bool		isnull;
		Wanted		key;
		Wanted	   *hit;
		int32		seq;
		struct varlena *chunk;
		Size		off;

		CHECK_FOR_INTERRUPTS();
		key.toastrelid = w[0].toastrelid;
		key.valueid = DatumGetObjectId(heap_getattr(tup, 1, desc, &isnull));
		hit = bsearch(&key, w, n, sizeof(Wanted), wanted_cmp);
		if (hit == NULL || hit->got < 0)
			continue;
		seq = DatumGetInt32(heap_getattr(tup, 2, desc, &isnull));
		chunk = (struct varlena *) DatumGetPointer(heap_getattr(tup, 3, desc, &isnull));
		off = (Size) Max(seq, 0) * TOAST_MAX_CHUNK_SIZE;
		if (isnull || seq < 0 || seq >= hit->nchunks || (hit->seen[seq / 8] & (1 << (seq % 8))) ||
			(VARATT_IS_EXTENDED(chunk) && !VARATT_IS_SHORT(chunk)) ||
			VARSIZE_ANY_EXHDR(chunk) != Min((Size) TOAST_MAX_CHUNK_SIZE, hit->len - off))
		{
			hit->got = -1;
			continue;
		}
		memcpy(hit->dest + off, VARDATA_ANY(chunk), VARSIZE_ANY_EXHDR(chunk));
		hit->seen[seq / 8] |= (uint8) (1 << (seq % 8));
		hit->got++;
	}
	table_endscan(scan);
}

/* the values w[0 .. n - 1], all of one TOAST table, sorted by valueid */
static void
fetch_from(Wanted *w, int n)
{
	Relation	toastrel = table_open(w[0].toastrelid, AccessShareLock);
	double		wanted = 0;

	for (int i = 0; i < n; i++)
		wanted += (double) w[i].len;
	if (toastrel->rd_rel->relam == HEAP_TABLE_AM_OID &&
		wanted * WANTED_SHARE >= (double) RelationGetNumberOfBlocks(toastrel) * BLCKSZ)
	{
		for (int i = 0; i < n; i++)
			w[i].seen = palloc0(w[i].nchunks / 8 + 1);
		scan_into(toastrel, w, n);
		for (int i = 0; i < n; i++)
			pfree(w[i].seen);
	}
	for (int i = 0; i < n; i++)
	{
		if (w[i].got != w[i].nchunks)
			fetch_into(toastrel, &w[i]);
		if (w[i].out != NULL)
		{
			/* the bytes of a compressed varlena after its header: va_tcinfo, the data */
			uint32		tcinfo;

			memcpy(&tcinfo, w[i].dest, sizeof(tcinfo));
			decompress(w[i].dest + sizeof(tcinfo), w[i].len - sizeof(tcinfo),
					   tcinfo & VARLENA_EXTSIZE_MASK, w[i].out, w[i].out_len);
			pfree(w[i].dest - VARHDRSZ);
		}
	}
	table_close(toastrel, AccessShareLock);
}

/*
 * Copy each value into its dest (len bytes: the caller checked
 * fixes_toast_length())
 */
void
fixes_toast_copy(FixesToastCopy *copies, int n)
{
	Wanted	   *w = palloc(sizeof(Wanted) * Max(n, 1));
	int			nw = 0;

	for (int i = 0; i < n; i++)
	{
		struct varlena *v = copies[i].value;
		struct varatt_external p;

		if (copies[i].len == 0)
			continue;
		if (VARATT_IS_EXTERNAL_ONDISK(v))
		{
			Size		stored;
			bool		compressed;

			VARATT_EXTERNAL_GET_POINTER(p, v);
			stored = VARATT_EXTERNAL_GET_EXTSIZE(p);
			compressed = VARATT_EXTERNAL_IS_COMPRESSED(p);
			if (compressed ? VARATT_EXTERNAL_GET_COMPRESS_METHOD(p) == TOAST_PGLZ_COMPRESSION_ID &&
				stored > VARHDRSZ_COMPRESSED - VARHDRSZ : stored == copies[i].len)
			{
				w[nw].valueid = p.va_valueid;
				w[nw].toastrelid = p.va_toastrelid;
				w[nw].out = compressed ? copies[i].dest : NULL;
				w[nw].out_len = copies[i].len;
				/* a compressed value's bytes, after a varlena header of its own */
				w[nw].dest = compressed ? (char *) palloc(VARHDRSZ + stored) + VARHDRSZ : copies[i].dest;
				w[nw].len = stored;
				w[nw].nchunks = (int32) ((stored - 1) / TOAST_MAX_CHUNK_SIZE + 1);
				w[nw].got = 0;
				w[nw].seen = NULL;
				nw++;
				continue;
			}
		}
		if (VARATT_IS_4B_C(v) &&
			VARDATA_COMPRESSED_GET_COMPRESS_METHOD(v) == TOAST_PGLZ_COMPRESSION_ID)
		{
			decompress((const char *) v + VARHDRSZ_COMPRESSED, VARSIZE(v) - VARHDRSZ_COMPRESSED,
					   VARDATA_COMPRESSED_GET_EXTSIZE(v), copies[i].dest, copies[i].len);
			continue;
		}
		{
			bytea	   *b = DatumGetByteaPP(PointerGetDatum(v));

			if (VARSIZE_ANY_EXHDR(b) != copies[i].len)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("a stored value has %zu bytes, not the %zu of its header",
										 (Size) VARSIZE_ANY_EXHDR(b), copies[i].len)));
			memcpy(copies[i].dest, VARDATA_ANY(b), copies[i].len);
			if ((Pointer) b != (Pointer) v)
				pfree(b);
		}
	}
	qsort(w, nw, sizeof(Wanted), wanted_cmp);
	for (int i = 0; i < nw;)
	{
		int			j = i;

		while (j < nw && w[j].toastrelid == w[i].toastrelid)
			j++;
		fetch_from(w + i, j - i);
		i = j;
	}
	pfree(w);
}

/*
 * The length of a bytea column of a row in the chunked form, without
 * fetching it
 */
Size
fixes_chunk_length(HeapTuple tup, TupleDesc desc, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);

	return isnull ? 0 : fixes_toast_length((struct varlena *) DatumGetPointer(d));
}

/* where a bytea column of a row in the chunked form goes (fixes_toast_copy()) */
void
fixes_chunk_copy_to(FixesToastCopy *c, HeapTuple tup, TupleDesc desc, int col, void *dest, Size len)
{
	bool		isnull;

	c->value = (struct varlena *) DatumGetPointer(SPI_getbinval(tup, desc, col, &isnull));
	c->dest = dest;
	c->len = len;
}

/*
 * A bytea of len bytes copied from data: the binary columns of fixes_graph,
 * and of the tables kept in its chunked form (fixes_trailer_keys,
 * fixes_commit_groups)
 */
bytea *
fixes_bytea(const void *data, Size len)
{
	bytea	   *b = fixes_palloc_big(VARHDRSZ + len, MCXT_ALLOC_HUGE);

	SET_VARSIZE(b, VARHDRSZ + len);
	memcpy(VARDATA(b), data, len);
	return b;
}

/*
 * As fixes_bytea(), compressed with lz4 when it makes the value smaller and
 * the server has lz4: for the arrays that compress (runs of release ranks,
 * bitmaps, small counts), which the column's pglz took ten times as long to
 * compress (issue 45).  The insert stores a compressed value as it is (a
 * parameter of a generic plan: a custom plan makes it a constant, which is
 * decompressed); a column's compression method only chooses for values that
 * come uncompressed, and detoasting reads either.  Without lz4 (or when it
 * would not gain), the plain value: the column's method compresses it as
 * before.
 */
bytea *
fixes_bytea_compressed(const void *data, Size len)
{
	bytea	   *b = fixes_bytea(data, len);
#ifdef USE_LZ4
	Datum		c;

	if (len < 32 || len > MaxAllocSize / 2)
		return b;
	c = toast_compress_datum(PointerGetDatum(b), TOAST_LZ4_COMPRESSION);
	if (DatumGetPointer(c) != NULL)
	{
		pfree(b);
		return (bytea *) DatumGetPointer(c);
	}
#endif
	return b;
}
