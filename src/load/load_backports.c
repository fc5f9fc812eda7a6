/*
 * load_backports.c — fixes_load(), the stable scope: the upstream of the
 * stable commits whose backport lines name no mainline commit
 *
 * load_stable.c resolves each backport line by its id (method 'id').  Then:
 *  - a stable commit none of whose lines resolved (or that has none) is
 *    matched by its subject: if exactly one non-merge mainline commit has
 *    the same subject (git log %s, compared as the subjects of Fixes: lines
 *    are, load_resolve.c: by hash, then the text), that commit is its
 *    upstream, in a row of fixes_backports with line 0, abbrev and raw ''
 *    and method 'subject'; the lines stay as they resolved (not_found,
 *    ambiguous).  Stable maintainers of security fixes cherry-pick from
 *    private branches: "(cherry picked from commit <id>)" then names an id
 *    that the public mainline never had;
 *  - first, a row of fixes_backport_overrides (users' corrections, by
 *    repository name, like fixes_overrides) decides the upstream of its
 *    stable commit: a row with line 0 and method 'override'; the commit's
 *    lines are kept as they resolved, but count nowhere (superseded), and it
 *    is not matched by subject.
 * The rows of fixes_backport_overrides are folded into the tags hash
 * (load_overrides.c), so that a change to them alone defeats the "nothing
 * changed" shortcut of the next load.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "backport.h"
#include "load_backports.h"
#include "load_overrides.h"
#include "load_walk.h"
#include "refresh.h"
#include "sort_cmp.h"
#include "spi_call.h"

/* a new line at the end of the list */
static FixesBackportLine *
append_line(FixesLoad *ld, FixesBackportList *bl)
{
	FixesBackportLine *b;

	if (bl->n == bl->cap)
	{
		bl->cap = bl->cap ? 2 * bl->cap : 1024;
		bl->lines = bl->lines ?
			repalloc_huge(bl->lines, sizeof(FixesBackportLine) * bl->cap) :
			MemoryContextAllocHuge(ld->cxt, sizeof(FixesBackportLine) * bl->cap);
	}
	b = &bl->lines[bl->n++];
	memset(b, 0, sizeof(FixesBackportLine));
	return b;
}

/* a new row of no line (line 0) for a stable commit */
static FixesBackportLine *
add_row(FixesLoad *ld, FixesBackportList *bl, uint32 commit, uint32 upstream, uint8 method)
{
	FixesBackportLine *b = append_line(ld, bl);

	b->commit = commit;
	b->line = 0;
	b->upstream = upstream;
	b->status = EDGE_RESOLVED;
	b->method = method;
	return b;
}

static void
backports_begin(FixesLoad *ld, void *arg, const FixesCommitRows *rows)
{
	FixesBackportList *bl = arg;

	if (bl->text.data == NULL)
		fixes_arena_init(&bl->text, CurrentMemoryContext);
}

/* the backport lines of a stable commit's message, unresolved */
static void
backports_commit(FixesLoad *ld, void *arg, FixesWalkCommit *wc)
{
	FixesBackportList *bl = arg;
	uint32		idx = wc->c->idx;
	const char *msg = VARDATA_ANY(wc->f->message);
	size_t		len = VARSIZE_ANY_EXHDR(wc->f->message);
	fixes_backport_cursor cur = {0, 0};
	fixes_backport bp;
	int			n = 0;

	while (fixes_backport_next(msg, len, &cur, &bp))
	{
		FixesBackportLine *b;

		if (!fixes_walk_line_counted(ld, idx, &n))
			break;
		b = append_line(ld, bl);
		b->commit = idx;
		b->line = bp.line;
		b->upstream = FIXES_NO_IDX;
		b->status = EDGE_NOT_FOUND;
		b->method = BACKPORT_NONE;
		b->superseded = false;
		b->abbrev_len = (uint8) bp.hex_len;
		b->abbrev_off = fixes_arena_add_lower(&bl->text, msg + bp.hex_off, bp.hex_len);
		b->raw_len = (uint32) bp.raw_len;
		b->raw_off = fixes_arena_add(&bl->text, msg + bp.raw_off, bp.raw_len);
	}
}

/* the hook of the stable scope's walk (load_stable.c): its lines into bl */
FixesWalkHook
fixes_backports_hook(FixesBackportList *bl)
{
	return (FixesWalkHook) {backports_begin, backports_commit, NULL, bl};
}

/* a stable commit and a mainline commit with the same subject hash */
typedef struct SubjectPair
{
	uint32		stable;
	uint32		mainline;
} SubjectPair;

typedef struct Wanted
{
	uint64		hash;
	uint32		stable;
} Wanted;

static int
wanted_cmp(const void *a, const void *b)
{
	return FIXES_CMP_BY2((const Wanted *) a, (const Wanted *) b, hash, stable);
}

static int
pair_cmp(const void *a, const void *b)
{
	return FIXES_CMP_BY2((const SubjectPair *) a, (const SubjectPair *) b, stable, mainline);
}

static int
uint32_cmp(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	return x < y ? -1 : x > y;
}

/* the subjects of the commits idx[0 .. n) (sorted, distinct), from fixes_commits */
static text **
fetch_subjects(FixesLoad *ld, const uint32 *idx, int64 n)
{
	text	  **subj = palloc0(sizeof(text *) * Max(n, 1));
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));
	Oid			argtypes[2] = {INT4OID, INT4ARRAYOID};
	Datum		args[2];
	MemoryContext old;
	char	   *sql;

	for (int64 i = 0; i < n; i++)
		elems[i] = Int32GetDatum((int32) idx[i]);
	args[0] = Int32GetDatum(ld->repository_id);
	args[1] = PointerGetDatum(construct_array(elems, (int) n, INT4OID, sizeof(int32), true,
											  TYPALIGN_INT));
	sql = psprintf("SELECT commit_idx, subject FROM ONLY %s.fixes_commits "
				   "WHERE repository_id = $1 AND commit_idx = ANY ($2)", ld->schema);
	fixes_spi_execute(sql, 2, argtypes, args, NULL, 0, SPI_OK_SELECT);
	old = MemoryContextSwitchTo(ld->cxt);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		uint32		i = (uint32) DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[r],
															 SPI_tuptable->tupdesc, 1, &isnull));
		Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 2, &isnull);
		uint32	   *at = bsearch(&i, idx, n, sizeof(uint32), uint32_cmp);

		if (at != NULL && !isnull)
			subj[at - idx] = DatumGetTextPCopy(d);
	}
	MemoryContextSwitchTo(old);
	SPI_freetuptable(SPI_tuptable);
	pfree(elems);
	return subj;
}

static const text *
subject_of(const uint32 *idx, text **subj, int64 n, uint32 i)
{
	uint32	   *at = bsearch(&i, idx, n, sizeof(uint32), uint32_cmp);

	return at ? subj[at - idx] : NULL;
}

static bool
same_text(const text *a, const text *b)
{
	return a != NULL && b != NULL && VARSIZE_ANY_EXHDR(a) == VARSIZE_ANY_EXHDR(b) &&
		memcmp(VARDATA_ANY(a), VARDATA_ANY(b), VARSIZE_ANY_EXHDR(a)) == 0;
}

static bool
is_merge(const FixesGraph *g, uint32 c)
{
	return g->par_end[c] - g->par_start[c] > 1;
}

/*
 * The stable commits (not merges) of which no backport line resolved: the
 * one non-merge mainline commit with the same subject, if there is exactly
 * one.  Subject hashes first (one pass over the mainline), then the texts
 * of the candidates, in one query.
 */
void
fixes_load_backports_by_subject(FixesLoad *ld, FixesBackportList *bl)
{
	FixesGraph *g = ld->graph;
	uint32		nmain = ld->n_mainline;
	uint32		nstable = g->n - nmain;
	bool	   *resolved;
	Wanted	   *wanted;
	int64		nwanted = 0;
	SubjectPair *pairs = NULL;
	int64		npairs = 0;
	int64		pairs_cap = 0;
	uint32	   *idx;
	int64		nidx = 0;
	text	  **subj;
	int64		matched = 0;

	if (!ld->has.backport_method || nstable == 0)
		return;
	resolved = palloc0(sizeof(bool) * nstable);
	for (int64 k = 0; k < bl->n; k++)
		if (bl->lines[k].status == EDGE_RESOLVED)
			resolved[bl->lines[k].commit - nmain] = true;
	wanted = palloc(sizeof(Wanted) * nstable);
	for (uint32 c = nmain; c < g->n; c++)
		if (!resolved[c - nmain] && !is_merge(g, c))
		{
			wanted[nwanted].hash = ld->by_commit.subj_hash[c];
			wanted[nwanted].stable = c;
			nwanted++;
		}
	if (nwanted == 0)
		return;
	qsort(wanted, nwanted, sizeof(Wanted), wanted_cmp);
	fixes_load_read_subject_hashes(ld);
	for (uint32 i = 0; i < nmain; i++)
	{
		uint64		h = ld->by_commit.subj_hash[i];
		int64		a;

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		a = fixes_subject_lower_bound(wanted, nwanted, sizeof(Wanted), h);
		if (a == nwanted || wanted[a].hash != h || is_merge(g, i))
			continue;
		for (; a < nwanted && wanted[a].hash == h; a++)
		{
			if (npairs == pairs_cap)
			{
				pairs_cap = pairs_cap ? 2 * pairs_cap : 256;
				pairs = pairs ? repalloc_huge(pairs, sizeof(SubjectPair) * pairs_cap) :
					palloc(sizeof(SubjectPair) * pairs_cap);
			}
			pairs[npairs].stable = wanted[a].stable;
			pairs[npairs].mainline = i;
			npairs++;
		}
	}
	if (npairs == 0)
		return;
	qsort(pairs, npairs, sizeof(SubjectPair), pair_cmp);

	/* the texts: hashes can collide */
	idx = palloc(sizeof(uint32) * npairs * 2);
	for (int64 k = 0; k < npairs; k++)
	{
		idx[nidx++] = pairs[k].stable;
		idx[nidx++] = pairs[k].mainline;
	}
	qsort(idx, nidx, sizeof(uint32), uint32_cmp);
	{
		int64		kept = 0;

		for (int64 k = 0; k < nidx; k++)
			if (kept == 0 || idx[kept - 1] != idx[k])
				idx[kept++] = idx[k];
		nidx = kept;
	}
	subj = fetch_subjects(ld, idx, nidx);

	for (int64 k = 0; k < npairs;)
	{
		uint32		c = pairs[k].stable;
		const text *mine = subject_of(idx, subj, nidx, c);
		int			candidates = 0;
		uint32		upstream = FIXES_NO_IDX;

		CHECK_FOR_INTERRUPTS();
		for (; k < npairs && pairs[k].stable == c; k++)
			if (same_text(mine, subject_of(idx, subj, nidx, pairs[k].mainline)))
			{
				candidates++;
				upstream = pairs[k].mainline;
			}
		if (candidates == 1)
		{
			add_row(ld, bl, c, upstream, BACKPORT_SUBJECT);
			matched++;
		}
	}
	elog(DEBUG1, "fixes_load %s: %lld stable commits without a resolved backport line, %lld matched by subject",
		 ld->args.name, (long long) nwanted, (long long) matched);
}

/*
 * The rows of fixes_backport_overrides: each decides the upstream of its
 * stable commit (a row of line 0, method 'override'); the commit's other
 * rows count nowhere.  A row whose stable commit is not in the stable scope,
 * or whose upstream is not a mainline commit, is not applied (a WARNING).
 */
void
fixes_load_apply_backport_overrides(FixesLoad *ld, FixesBackportList *bl)
{
	FixesGraph *g = ld->graph;
	int64		unmatched = 0;
	bool	   *overridden;
	uint32		nstable = g->n - ld->n_mainline;

	if (ld->backport_overrides->n == 0 || nstable == 0)
		return;
	overridden = palloc0(sizeof(bool) * nstable);
	for (int i = 0; i < ld->backport_overrides->n; i++)
	{
		FixesBackportOverride *o = &ld->backport_overrides->rows[i];
		uint32		stable = fixes_graph_lookup(g, &o->stable);
		uint32		upstream = fixes_graph_lookup(g, &o->upstream);

		if (stable == FIXES_NO_IDX || stable < ld->n_mainline)
		{
			unmatched++;
			continue;
		}
		if (upstream == FIXES_NO_IDX || upstream >= ld->n_mainline)
		{
			char		s[FIXES_OID_HEXSZ + 1];
			char		u[FIXES_OID_HEXSZ + 1];

			fixes_format_oid(s, &o->stable);
			fixes_format_oid(u, &o->upstream);
			ereport(WARNING,
					(errcode(ERRCODE_WARNING),
					 errmsg("backport override upstream %s is not a mainline commit of repository \"%s\"",
							u, ld->args.name),
					 errdetail("The row of fixes_backport_overrides for stable commit %s is not applied.", s),
					 errhint("The upstream commit must be reachable from the loaded ref \"%s\".", ld->args.ref)));
			continue;
		}
		overridden[stable - ld->n_mainline] = true;
		add_row(ld, bl, stable, upstream, BACKPORT_OVERRIDE);
	}
	for (int64 k = 0; k < bl->n; k++)
	{
		FixesBackportLine *b = &bl->lines[k];

		if (overridden[b->commit - ld->n_mainline] && b->method != BACKPORT_OVERRIDE)
			b->superseded = true;	/* its lines, as resolved by id */
	}
	pfree(overridden);
	if (unmatched > 0)
		ereport(NOTICE,
				(errmsg_plural("%lld row of fixes_backport_overrides for repository \"%s\" names no stable commit",
							   "%lld rows of fixes_backport_overrides for repository \"%s\" name no stable commit",
							   unmatched, (long long) unmatched, ld->args.name),
				 errdetail("A row applies to a commit of the stable scope: reachable from a branch that stable_branches matches, not from the ref.")));
}
