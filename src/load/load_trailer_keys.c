/*
 * load_trailer_keys.c — fixes_load(): the distinct trailer keys of each commit
 *
 * fixes_trailers_per_release counts, per release and lower-cased key, the
 * commits with such a trailer (load_trailer_counts.c).  For that a load
 * keeps the distinct keys of each commit it reads, as ids into a dictionary
 * of keys.  A refresh needs the keys of old commits too (those whose release
 * changed), so they are also kept compactly in fixes_trailer_keys, as
 * fixes_graph keeps the graph: a dictionary row (chunk -1, the keys in id
 * order) and one row per 65536 commits (per commit a count, then the ids,
 * as uint32 in the server's byte order).  A refresh reads the dictionary
 * before its walk (new keys get the next ids), the chunks it needs after,
 * and rewrites the last old chunk and the new ones.  Should those rows be
 * unusable, the keys of the old commits are read from fixes_trailers (a
 * scan of the repository's trailers) and every chunk is written again.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "load_walk.h"
#include "load_trailer_keys.h"
#include "spi_call.h"

#define KEYS_FORMAT 1

typedef struct KeyEntry
{
	const char *name;			/* the key: lower-cased, NUL-terminated */
	uint32		id;
} KeyEntry;

/* the keys of this load, created at first use */
FixesTrailerKeys *
fixes_trailer_keys(FixesLoad *ld)
{
	FixesTrailerKeys *k = ld->trailer_keys;

	if (k != NULL)
		return k;
	k = MemoryContextAllocZero(ld->cxt, sizeof(FixesTrailerKeys));
	k->dict = fixes_string_hash_create("fixes trailer keys", 256, sizeof(KeyEntry), ld->cxt);
	k->names_cap = 256;
	k->names = MemoryContextAlloc(ld->cxt, sizeof(char *) * k->names_cap);
	k->scratch_cap = 64;
	k->scratch = MemoryContextAlloc(ld->cxt, sizeof(uint32) * k->scratch_cap);
	{
		MemoryContext old = MemoryContextSwitchTo(ld->cxt);

		initStringInfo(&k->lower);
		MemoryContextSwitchTo(old);
	}
	ld->trailer_keys = k;
	return k;
}

/* the id of a key (ASCII: git's keys are [A-Za-z0-9-]+), added if new */
static uint32
key_id(FixesLoad *ld, FixesTrailerKeys *k, const char *key, size_t len)
{
	KeyEntry   *e;
	bool		found;
	const char *name;

	resetStringInfo(&k->lower);
	enlargeStringInfo(&k->lower, (int) len + 1);
	for (size_t i = 0; i < len; i++)
		k->lower.data[i] = pg_ascii_tolower((unsigned char) key[i]);
	k->lower.data[len] = '\0';
	k->lower.len = (int) len;
	name = k->lower.data;
	e = hash_search(k->dict, &name, HASH_FIND, NULL);
	if (e != NULL)
		return e->id;
	name = MemoryContextStrdup(ld->cxt, k->lower.data);
	e = hash_search(k->dict, &name, HASH_ENTER, &found);
	if (k->nnames == k->names_cap)
	{
		k->names_cap *= 2;
		k->names = repalloc_huge(k->names, sizeof(char *) * k->names_cap);
	}
	e->id = k->nnames;
	k->names[k->nnames++] = (char *) name;
	return e->id;
}

/* a trailer key of the commit being read */
void
fixes_trailer_keys_add(FixesLoad *ld, const char *key, size_t len)
{
	FixesTrailerKeys *k = fixes_trailer_keys(ld);
	uint32		id;

	if (k->nscratch == k->scratch_cap)
	{
		k->scratch_cap *= 2;
		k->scratch = repalloc_huge(k->scratch, sizeof(uint32) * k->scratch_cap);
	}
	/*
	 * A few keys make most trailers (Signed-off-by, ...): the id of one
	 * written as a recent one was is that one's (the dictionary only grows)
	 */
	if (len > 0 && len <= FIXES_KEY_CACHE_LEN)
	{
		int			h = (int) ((len * 7 + (unsigned char) key[0] * 3 +
								(unsigned char) key[len - 1]) % FIXES_KEY_CACHE);

		if (k->cache[h].len == len && memcmp(k->cache[h].key, key, len) == 0)
			id = k->cache[h].id;
		else
		{
			id = key_id(ld, k, key, len);
			k->cache[h].len = (uint8) len;
			memcpy(k->cache[h].key, key, len);
			k->cache[h].id = id;
		}
	}
	else
		id = key_id(ld, k, key, len);
	k->scratch[k->nscratch++] = id;
}

/* the distinct keys of the commit just read, as the keys of commit idx */
void
fixes_trailer_keys_commit(FixesLoad *ld, uint32 idx)
{
	FixesTrailerKeys *k = fixes_trailer_keys(ld);
	uint32		n = 0;

	if (idx >= k->cap)
	{
		uint32		cap = Max(k->cap, 1024);

		while (idx >= cap)
			cap *= 2;
		k->off = fixes_repalloc_big(ld->cxt, k->off, sizeof(uint64) * k->cap, sizeof(uint64) * cap);
		k->cnt = fixes_repalloc_big(ld->cxt, k->cnt, sizeof(uint32) * k->cap, sizeof(uint32) * cap);
		/* commits not read by this load (old ones) have no keys here */
		memset(k->cnt + k->cap, 0, sizeof(uint32) * (cap - k->cap));
		k->cap = cap;
	}
	if (k->nscratch > 1)
		qsort(k->scratch, k->nscratch, sizeof(uint32), fixes_uint32_cmp);
	for (uint32 i = 0; i < k->nscratch; i++)
		if (n == 0 || k->scratch[i] != k->scratch[n - 1])
			k->scratch[n++] = k->scratch[i];
	if (k->nids + n > k->ids_cap)
	{
		uint64		cap = Max(k->ids_cap * 2, 4096);

		while (k->nids + n > cap)
			cap *= 2;
		k->ids = fixes_repalloc_big(ld->cxt, k->ids, sizeof(uint32) * k->ids_cap, sizeof(uint32) * cap);
		k->ids_cap = cap;
	}
	memcpy(k->ids + k->nids, k->scratch, sizeof(uint32) * n);
	k->off[idx] = k->nids;
	k->cnt[idx] = n;
	k->nids += n;
	k->nscratch = 0;
}

/*
 * The hook of the mainline's walk, after load_trailers.c's: a refresh reads
 * the dictionary first (new keys get the next ids); each commit's keys,
 * which the trailers hook added, become its keys.
 */
static void
keys_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	if (ld->refresh != NULL)
		fixes_trailer_keys_read_dictionary(ld);
}

static void
keys_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	fixes_trailer_keys_commit(ld, wc->c->idx);
}

FixesWalkHook
fixes_trailer_keys_hook(void)
{
	return (FixesWalkHook) {keys_begin, keys_commit, NULL, NULL};
}

/* the keys of commit idx are ids[0..n), as stored (distinct, sorted) */
static void
set_keys(FixesLoad *ld, FixesTrailerKeys *k, uint32 idx, const uint32 *ids, uint32 n)
{
	if (k->nscratch != 0)
		elog(ERROR, "trailer keys of a commit left unfinished");
	for (uint32 i = 0; i < n; i++)
	{
		if (k->nscratch == k->scratch_cap)
		{
			k->scratch_cap *= 2;
			k->scratch = repalloc_huge(k->scratch, sizeof(uint32) * k->scratch_cap);
		}
		k->scratch[k->nscratch++] = ids[i];
	}
	fixes_trailer_keys_commit(ld, idx);
}

/*
 * Before the walk of a refresh: the dictionary of the previous load, so
 * that the keys of new commits get the ids that follow its own.
 */
void
fixes_trailer_keys_read_dictionary(FixesLoad *ld)
{
	FixesTrailerKeys *k = fixes_trailer_keys(ld);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	bool		isnull;
	Datum		d;

	if (fixes_spi_execute(psprintf("SELECT format, keys FROM ONLY %s.fixes_trailer_keys "
								   "WHERE repository_id = $1 AND chunk = -1", ld->schema),
						  1, argtypes, args, NULL, 0, SPI_OK_SELECT) != 1)
		return;
	if (DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)) != KEYS_FORMAT)
		return;
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull);
	if (!isnull)
	{
		Datum	   *names;
		bool	   *nulls;
		int			n;

		deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
						  &names, &nulls, &n);
		for (int i = 0; i < n; i++)
		{
			text	   *t = DatumGetTextPP(names[i]);

			if (nulls[i] || key_id(ld, k, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)) != (uint32) i)
				return;			/* not a dictionary this code wrote: unusable */
		}
	}
	k->nstored = k->nnames;
	k->stored_ok = true;
}

/*
 * The keys of the old commits marked in want, and of those of the chunk
 * that new commits continue (it is written again), from the chunks of
 * fixes_trailer_keys.  False when they are not all there.
 */
bool
fixes_trailer_keys_read(FixesLoad *ld, const bool *want, bool new_commits)
{
	FixesTrailerKeys *k = fixes_trailer_keys(ld);
	int32		nchunks = (int32) ((ld->n_old + KEYS_CHUNK - 1) / KEYS_CHUNK);
	bool	   *need = palloc0(sizeof(bool) * Max(nchunks, 1));
	Datum	   *elems = palloc(sizeof(Datum) * Max(nchunks, 1));
	int			nneed = 0;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	uint64		rows;

	if (!k->stored_ok)
		return false;
	for (uint32 i = 0; i < ld->n_old; i++)
		if (want[i])
			need[i / KEYS_CHUNK] = true;
	if (new_commits && ld->n_old % KEYS_CHUNK != 0)
		need[nchunks - 1] = true;
	for (int32 c = 0; c < nchunks; c++)
		if (need[c])
			elems[nneed++] = Int32GetDatum(c);
	if (nneed == 0)
		return true;
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, nneed, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	rows = fixes_spi_execute(psprintf("SELECT chunk, format, commits, counts, ids FROM ONLY %s.fixes_trailer_keys "
									  "WHERE repository_id = $1 AND chunk = ANY ($2) ORDER BY chunk",
									  ld->schema),
							 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	if (rows != (uint64) nneed)
		return false;
	for (uint64 r = 0; r < rows; r++)
	{
		HeapTuple	tup = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int32		chunk = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));
		int32		format = DatumGetInt32(SPI_getbinval(tup, desc, 2, &isnull));
		int32		commits = DatumGetInt32(SPI_getbinval(tup, desc, 3, &isnull));
		bytea	   *counts = DatumGetByteaPP(SPI_getbinval(tup, desc, 4, &isnull));
		bytea	   *ids = DatumGetByteaPP(SPI_getbinval(tup, desc, 5, &isnull));
		const uint32 *count = (const uint32 *) VARDATA_ANY(counts);
		const uint32 *id = (const uint32 *) VARDATA_ANY(ids);
		uint64		nids = VARSIZE_ANY_EXHDR(ids) / sizeof(uint32);
		uint64		used = 0;
		uint32		lo = (uint32) chunk * KEYS_CHUNK;

		if (format != KEYS_FORMAT ||
			commits != (int32) Min(KEYS_CHUNK, ld->n_old - lo) ||
			VARSIZE_ANY_EXHDR(counts) != (Size) commits * sizeof(uint32))
			return false;
		for (int32 j = 0; j < commits; j++)
		{
			if (count[j] > nids - used)
				return false;
			for (uint32 q = 0; q < count[j]; q++)
				if (id[used + q] >= k->nstored)
					return false;
			set_keys(ld, k, lo + (uint32) j, id + used, count[j]);
			used += count[j];
		}
		if (used != nids)
			return false;
		CHECK_FOR_INTERRUPTS();
	}
	return true;
}

/*
 * Write the chunks from first on (the keys of every commit from there are
 * known), and the dictionary when it grew or from scratch.
 */
void
fixes_trailer_keys_write(FixesLoad *ld, int32 first, bool dictionary)
{
	FixesTrailerKeys *k = fixes_trailer_keys(ld);
	Oid			del_types[2] = {INT4OID, INT4OID};
	Datum		del_args[2] = {Int32GetDatum(ld->repository_id), Int32GetDatum(first)};
	Oid			types[5] = {INT4OID, INT4OID, INT4OID, BYTEAOID, BYTEAOID};
	SPIPlanPtr	plan;
	uint32		n = ld->graph->n;

	fixes_spi_execute(psprintf("DELETE FROM ONLY %s.fixes_trailer_keys WHERE repository_id = $1 AND chunk >= $2",
							   ld->schema), 2, del_types, del_args, NULL, 0, SPI_OK_DELETE);
	/* generic: a custom plan would fold the values into constants, decompressed */
	plan = fixes_spi_prepare_generic(psprintf("INSERT INTO %s.fixes_trailer_keys (repository_id, chunk, format, commits, "
									  "counts, ids) VALUES ($1, $2, %d, $3, $4, $5)", ld->schema, KEYS_FORMAT),
							 5, types);
	for (int32 chunk = first; (uint64) chunk * KEYS_CHUNK < n; chunk++)
	{
		uint32		lo = (uint32) chunk * KEYS_CHUNK;
		uint32		hi = Min(n, lo + KEYS_CHUNK);
		uint32	   *counts = fixes_palloc_big(sizeof(uint32) * (hi - lo), MCXT_ALLOC_HUGE);
		uint64		nids = 0;
		uint32	   *ids;
		uint64		p = 0;
		Datum		args[5];

		for (uint32 i = lo; i < hi; i++)
		{
			counts[i - lo] = i < k->cap ? k->cnt[i] : 0;
			nids += counts[i - lo];
		}
		ids = fixes_palloc_big(sizeof(uint32) * Max(nids, 1), MCXT_ALLOC_HUGE);
		for (uint32 i = lo; i < hi; i++)
		{
			if (counts[i - lo] == 0)
				continue;
			memcpy(ids + p, k->ids + k->off[i], sizeof(uint32) * counts[i - lo]);
			p += counts[i - lo];
		}
		args[0] = Int32GetDatum(ld->repository_id);
		args[1] = Int32GetDatum(chunk);
		args[2] = Int32GetDatum((int32) (hi - lo));
		args[3] = PointerGetDatum(fixes_bytea_compressed(counts, sizeof(uint32) * (hi - lo)));
		args[4] = PointerGetDatum(fixes_bytea_compressed(ids, sizeof(uint32) * nids));
		fixes_spi_execute_plan(plan, args, NULL, SPI_OK_INSERT);
		pfree(DatumGetPointer(args[3]));
		pfree(DatumGetPointer(args[4]));
		pfree(counts);
		pfree(ids);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_freeplan(plan);

	if (dictionary)
	{
		Oid			dtypes[2] = {INT4OID, TEXTARRAYOID};
		Datum		dargs[2];
		Datum	   *names = palloc(sizeof(Datum) * Max(k->nnames, 1));

		for (uint32 i = 0; i < k->nnames; i++)
			names[i] = CStringGetTextDatum(k->names[i]);
		dargs[0] = Int32GetDatum(ld->repository_id);
		dargs[1] = PointerGetDatum(construct_array(names, (int) k->nnames, TEXTOID, -1, false, TYPALIGN_INT));
		fixes_spi_execute(psprintf("DELETE FROM ONLY %s.fixes_trailer_keys WHERE repository_id = $1 AND chunk = -1",
								   ld->schema), 1, dtypes, dargs, NULL, 0, SPI_OK_DELETE);
		fixes_spi_execute(psprintf("INSERT INTO %s.fixes_trailer_keys (repository_id, chunk, format, commits, keys) "
								   "VALUES ($1, -1, %d, 0, $2)", ld->schema, KEYS_FORMAT),
						  2, dtypes, dargs, NULL, 0, SPI_OK_INSERT);
	}
}

/*
 * The fallback when fixes_trailer_keys cannot serve: the distinct keys of
 * the old commits marked in want, from fixes_trailers (which has no index:
 * a scan of the repository's trailers).
 */
void
fixes_trailer_keys_fetch(FixesLoad *ld, const bool *want)
{
	uint32		n_want = 0;
	Datum	   *elems;
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	char	   *sql;
	Portal		portal;
	uint32		cur = FIXES_NO_IDX;

	for (uint32 i = 0; i < ld->n_old; i++)
		n_want += want[i];
	if (n_want == 0)
		return;
	elems = fixes_palloc_big(sizeof(Datum) * n_want, MCXT_ALLOC_HUGE);
	n_want = 0;
	for (uint32 i = 0; i < ld->n_old; i++)
		if (want[i])
			elems[n_want++] = Int32GetDatum((int32) i);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, (int) n_want, INT4OID, sizeof(int32), true, TYPALIGN_INT));
	sql = psprintf("SELECT commit_idx, key FROM ONLY %s.fixes_trailers "
				   "WHERE repository_id = $1 AND commit_idx = ANY ($2) ORDER BY commit_idx, position",
				   ld->schema);
	portal = fixes_spi_cursor_open(sql, 2, argtypes, args);
	while (fixes_spi_cursor_fetch(portal, 10000) > 0)
	{
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			HeapTuple	tup = SPI_tuptable->vals[r];
			bool		isnull;
			uint32		idx = (uint32) DatumGetInt32(SPI_getbinval(tup, SPI_tuptable->tupdesc, 1, &isnull));
			Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, 2, &isnull);
			text	   *key;

			/* commit_idx is one asked for (= ANY) */
			if (isnull)
				fixes_load_stored_bad(ld, "fixes_trailers", "A trailer of commit %u has no key.", idx);
			key = DatumGetTextPP(d);

			if (idx != cur && cur != FIXES_NO_IDX)
				fixes_trailer_keys_commit(ld, cur);
			cur = idx;
			fixes_trailer_keys_add(ld, VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key));
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	fixes_spi_cursor_close(portal);
	if (cur != FIXES_NO_IDX)
		fixes_trailer_keys_commit(ld, cur);
	pfree(elems);
}
