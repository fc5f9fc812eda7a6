/*
 * load_state.c — the state of a load (load_state.h): growing its per-commit arrays
 * and its edge list; the names of edge statuses, methods and kinds; the
 * DEBUG1 timing of each phase (fixes_load_phase)
 */
#include "postgres.h"

#include <math.h>
#include <sys/resource.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "load_state.h"
#include "load_files.h"

const char *const fixes_edge_status_names[4] = {"resolved", "ambiguous", "not_found", "ignored"};
const char *const fixes_edge_method_names[5] = {NULL, "hash", "hash+subject", "subject", "override"};
const char *const fixes_edge_kind_names[2] = {"fixes", "revert"};
const char *const fixes_backport_method_names[4] = {NULL, "id", "subject", "override"};

/* make room in the per-commit arrays for commit index idx (they live in ld->cxt) */
void
fixes_load_ensure_room(FixesLoad *ld, uint32 idx)
{
	uint32		cap = ld->by_commit.cap;

	if (idx < cap && ld->by_commit.subj_hash != NULL)
		return;
	if (cap == 0)
		cap = 1024;
	while (idx >= cap)
		cap *= 2;
	ld->by_commit.subj_hash = fixes_repalloc_big(ld->cxt, ld->by_commit.subj_hash, sizeof(uint64) * ld->by_commit.cap,
									   sizeof(uint64) * cap);
	ld->by_commit.committed_at = fixes_repalloc_big(ld->cxt, ld->by_commit.committed_at, sizeof(TimestampTz) * ld->by_commit.cap,
										  sizeof(TimestampTz) * cap);
	ld->by_commit.committed_null = fixes_repalloc_big(ld->cxt, ld->by_commit.committed_null, sizeof(bool) * ld->by_commit.cap,
											sizeof(bool) * cap);
	ld->by_commit.stable_cc = fixes_repalloc_big(ld->cxt, ld->by_commit.stable_cc, sizeof(bool) * ld->by_commit.cap,
									   sizeof(bool) * cap);
	ld->by_commit.cap = cap;
}

/* ld->mark for every commit of the graph, each unreleased (0) */
void
fixes_load_marks_alloc(FixesLoad *ld)
{
	ld->mark = fixes_palloc_big(sizeof(int32) * Max(ld->graph->n, 1),
								MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
}

/* ld->mark grown to the graph's commits (the stable scope's, after the mainline's) */
void
fixes_load_marks_grow(FixesLoad *ld)
{
	ld->mark = repalloc_huge(ld->mark, sizeof(int32) * Max(ld->graph->n, 1));
}

/* room for cap edges in the list */
static void
edges_grow_to(FixesLoad *ld, int64 cap)
{
	ld->edge_list.edges = fixes_repalloc_big(ld->cxt, ld->edge_list.edges, sizeof(FixesEdge) * ld->edge_list.cap,
								   sizeof(FixesEdge) * cap);
	ld->edge_list.cap = cap;
}

/*
 * Room for n more edges at once (a refresh knows how many old edges it
 * reads back), so that the list is not copied again and again as it grows.
 */
void
fixes_load_reserve_edges(FixesLoad *ld, int64 n)
{
	/* only a hint: the list still grows past it */
	int64		want = ld->edge_list.n + Min(Max(n, 0), (int64) 64 * 1024 * 1024);

	if (want > ld->edge_list.cap)
		edges_grow_to(ld, want);
}

/* a new, zeroed edge at the end of a phase's list (its arrays in cxt) */
FixesEdge *
fixes_edge_append(MemoryContext cxt, FixesEdgeSink *sink)
{
	FixesEdge  *e;

	if (*sink->n == *sink->cap)
	{
		int64		cap = *sink->cap ? *sink->cap * 2 : 1024;

		*sink->edges = fixes_repalloc_big(cxt, *sink->edges, sizeof(FixesEdge) * *sink->cap,
										  sizeof(FixesEdge) * cap);
		*sink->cap = cap;
	}
	e = &(*sink->edges)[(*sink->n)++];
	memset(e, 0, sizeof(*e));
	e->now.target = FIXES_NO_IDX;
	e->before.target = FIXES_NO_IDX;
	e->subj_len = -1;
	return e;
}

/* a new, zeroed edge at the end of the mainline's list */
FixesEdge *
fixes_load_add_edge(FixesLoad *ld)
{
	FixesEdgeSink sink = {&ld->edge_list.edges, &ld->edge_list.n, &ld->edge_list.cap, &ld->edge_list.text};

	return fixes_edge_append(ld->cxt, &sink);
}

/*
 * The mainline's edges are written and counted: free them (the stable
 * phase, which reads edges of its own, keeps only their resolved pairs).
 */
void
fixes_load_free_edges(FixesLoad *ld)
{
	if (ld->edge_list.edges != NULL)
		pfree(ld->edge_list.edges);
	if (ld->edge_list.text.data != NULL)
		pfree(ld->edge_list.text.data);
	ld->edge_list.edges = NULL;
	ld->edge_list.n = 0;
	ld->edge_list.cap = 0;
	memset(&ld->edge_list.text, 0, sizeof(ld->edge_list.text));
}

/* an array of uint64 in ascending order: a sort made for them (lib/sort_template.h) */
#define ST_SORT sort_uint64
#define ST_ELEMENT_TYPE uint64
#define ST_COMPARE(a, b) (*(a) < *(b) ? -1 : *(a) > *(b))
#define ST_CHECK_FOR_INTERRUPTS
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

void
fixes_sort_uint64(uint64 *v, int64 n)
{
	sort_uint64(v, (size_t) n);
}

/* qsort and bsearch orders of plain uint32 and uint64 arrays */
int
fixes_uint32_cmp(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	return x < y ? -1 : x > y;
}

int
fixes_uint64_cmp(const void *a, const void *b)
{
	uint64		x = *(const uint64 *) a;
	uint64		y = *(const uint64 *) b;

	return x < y ? -1 : x > y;
}

/* the backend's CPU time (user and system) so far, in seconds */
static double
cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Report at DEBUG1 how long the phase that just ended took, and how much of
 * it the backend was on a CPU: the rest it waited, mostly for the reader
 * (SET client_min_messages = debug1 to see them).
 */
void
fixes_load_phase(FixesLoad *ld, const char *done)
{
	TimestampTz now = GetCurrentTimestamp();
	double		cpu = cpu_seconds();

	if (ld->phase_clock.start != 0)
		elog(DEBUG1, "fixes_load %s: %s in %.3f s (CPU %.3f s)", ld->args.name, done,
			 (double) (now - ld->phase_clock.start) / USECS_PER_SEC, cpu - ld->phase_clock.cpu);
	ld->phase_clock.start = now;
	ld->phase_clock.cpu = cpu;
	fixes_progress_phase(&ld->progress, done);
}

/*
 * Stored state is input (src/README.md): a value that a refresh reads back
 * from the tables of a previous load and that this code cannot have
 * written.  XX001; fixes_load() rolls the refresh back and loads the
 * repository in full (run_load_checked()).
 */
void
fixes_load_stored_bad(FixesLoad *ld, const char *table, const char *fmt,...)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&buf, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	ld->stored_bad = true;
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("table %s of repository \"%s\" holds what no load wrote", table, ld->args.name),
			 errdetail("%s", buf.data)));
}

/* a stored index, checked to be in [0, n) */
uint32
fixes_load_stored_idx(FixesLoad *ld, int64 v, int64 n, const char *table, const char *column)
{
	if (v < 0 || v >= n)
		fixes_load_stored_bad(ld, table, "%s is " INT64_FORMAT ", out of [0, " INT64_FORMAT ").",
							  column, v, n);
	return (uint32) v;
}

/* a stored float, checked to be a number */
double
fixes_load_stored_float(FixesLoad *ld, double v, const char *table, const char *column)
{
	if (isnan(v) || isinf(v))
		fixes_load_stored_bad(ld, table, "%s is %g, not a finite number.", column, v);
	return v;
}

/*
 * A full load starts: what a refresh's reading put in ld is forgotten (its
 * state, ld->refresh, and what its walk added to the phases' arrays).
 */
void
fixes_load_start_full(FixesLoad *ld)
{
	ld->refresh = NULL;
	ld->n_old = 0;
	ld->graph = fixes_graph_create(ld->cxt);
	ld->by_commit.cap = 0;
	ld->by_commit.subj_hash = NULL;
	ld->by_commit.committed_at = NULL;
	ld->by_commit.committed_null = NULL;
	ld->by_commit.stable_cc = NULL;
	ld->newest.set = false;
	ld->edge_list.n = 0;
	ld->edge_list.text.len = 0;
	ld->missing_parents = 0;
	ld->trailer_keys = NULL;
	ld->paths->ncs = 0;
	ld->paths->prefixes = NULL;
	ld->paths->kept_groups = NULL;
	ld->paths->missing_blobs = 0;
	ld->paths->missing_trees = 0;
}
