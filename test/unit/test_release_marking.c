/* test_release_marking.c — tests of the first release that contains each commit */
#include "release_marking.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

/*
 * A commit graph as fixes_mark_releases() takes it: the parents of commit i are
 * parents[par_start[i] .. par_end[i]).  Commits are numbered from 0; a graph is
 * written as one parent list per commit, -1 ending each list.
 */
typedef struct graph
{
	uint32_t	n;
	uint32_t   *par_start;
	uint32_t   *par_end;
	uint32_t   *parents;
} graph;

static graph make_graph(uint32_t n, const int *lists)
{
	graph		g;
	uint32_t	links = 0, k = 0;
	const int  *p = lists;

	for (uint32_t i = 0; i < n; i++, p++)
		while (*p >= 0)
			links++, p++;
	g.n = n;
	g.par_start = malloc(sizeof(uint32_t) * (n ? n : 1));
	g.par_end = malloc(sizeof(uint32_t) * (n ? n : 1));
	g.parents = malloc(sizeof(uint32_t) * (links ? links : 1));
	p = lists;
	for (uint32_t i = 0; i < n; i++, p++)
	{
		g.par_start[i] = k;
		while (*p >= 0)
			g.parents[k++] = (uint32_t) *p++;
		g.par_end[i] = k;
	}
	return g;
}

static void free_graph(graph *g)
{
	free(g->par_start);
	free(g->par_end);
	free(g->parents);
}

/*
 * Runs fixes_mark_releases() with mark[] starting as `preset` (NULL: zeroes)
 * and a stack of exactly n entries on the heap (ASan sees an overflow); the
 * marks are left in mark.
 */
static void run(const graph *g, const uint32_t *rel, int32_t nrel, const int32_t *preset,
				int32_t *mark)
{
	uint32_t   *stack = malloc(sizeof(uint32_t) * (g->n ? g->n : 1));

	for (uint32_t i = 0; i < g->n; i++)
		mark[i] = preset ? preset[i] : 0;
	fixes_mark_releases(g->n, g->par_start, g->par_end, g->parents, rel, nrel, mark, stack);
	free(stack);
}

static void check_marks(unit_counts *u, const char *what, const int32_t *got,
						const int32_t *want, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		CHECK(u, got[i] == want[i], "%s: commit %u marked %d, expected %d",
			  what, i, got[i], want[i]);
}

/*
 * The README's example: a branch forked before v1.0 and merged after it
 * belongs to v1.1, not to v1.0, whatever its dates.
 *
 *   0 -- 1 -- 2 (v1.0) -- 3 -- 5 (merge) -- 6 (v1.1) -- 7
 *         \                   /
 *          4 ----------------'
 */
static const int history[] = {
	-1,					/* 0: root */
	0, -1,				/* 1 */
	1, -1,				/* 2: v1.0 */
	2, -1,				/* 3 */
	1, -1,				/* 4: forked from 1, before v1.0 */
	3, 4, -1,			/* 5: merge, after v1.0 */
	5, -1,				/* 6: v1.1 */
	6, -1,				/* 7: unreleased */
};

static void test_history(unit_counts *u)
{
	graph		g = make_graph(8, history);
	int32_t		mark[8];

	{
		static const uint32_t rel[] = {2, 6};
		static const int32_t want[] = {1, 1, 1, 2, 2, 2, 2, 0};

		run(&g, rel, 2, NULL, mark);
		check_marks(u, "v1.0, v1.1", mark, want, 8);
	}
	{
		/* no release: nothing marked */
		static const int32_t want[] = {0, 0, 0, 0, 0, 0, 0, 0};

		run(&g, NULL, 0, NULL, mark);
		check_marks(u, "no release", mark, want, 8);
	}
	{
		/* one release at the newest commit takes everything */
		static const uint32_t rel[] = {7};
		static const int32_t want[] = {1, 1, 1, 1, 1, 1, 1, 1};

		run(&g, rel, 1, NULL, mark);
		check_marks(u, "release at the head", mark, want, 8);
	}
	{
		/* the branch's own commit released first (a tag on the branch, earlier in
		 * version order): 4 and its ancestors are release 1, v1.0 keeps only 2 */
		static const uint32_t rel[] = {4, 2, 6};
		static const int32_t want[] = {1, 1, 2, 3, 1, 3, 3, 0};

		run(&g, rel, 3, NULL, mark);
		check_marks(u, "tag on the branch", mark, want, 8);
	}
	{
		/* releases out of graph order: release 1 is a descendant of release 2,
		 * which therefore contains no commit of its own */
		static const uint32_t rel[] = {6, 2};
		static const int32_t want[] = {1, 1, 1, 1, 1, 1, 1, 0};

		run(&g, rel, 2, NULL, mark);
		check_marks(u, "descendant first", mark, want, 8);
	}
	{
		/* two tags on one commit, and a tag on a commit that is not in the graph
		 * (index beyond n): they mark nothing */
		static const uint32_t rel[] = {2, 2, 99, 6};
		static const int32_t want[] = {1, 1, 1, 4, 4, 4, 4, 0};

		run(&g, rel, 4, NULL, mark);
		check_marks(u, "same commit twice, out of range", mark, want, 8);
	}
	{
		/* marks already there stay, and a walk stops at them: 1 is kept at 5, so 0,
		 * only reachable through 1, stays unmarked; 4 is reached from 5 */
		static const int32_t preset[] = {0, 5, 0, 0, 0, 0, 0, 0};
		static const uint32_t rel[] = {6};
		static const int32_t want[] = {0, 5, 1, 1, 1, 1, 1, 0};

		run(&g, rel, 1, preset, mark);
		check_marks(u, "preset marks", mark, want, 8);
	}
	{
		/* a refresh: the old commits 0..3 keep their release 1, whose commit 2 is
		 * marked already (so release 1 marks nothing more); a new release 2 at 7
		 * marks only what is new */
		static const int32_t preset[] = {1, 1, 1, 1, 0, 0, 0, 0};
		static const uint32_t rel[] = {2, 7};
		static const int32_t want[] = {1, 1, 1, 1, 2, 2, 2, 2};

		run(&g, rel, 2, preset, mark);
		check_marks(u, "refresh", mark, want, 8);
	}
	free_graph(&g);
}

/*
 * An octopus merge and a diamond, where a commit is reached by several paths;
 * the stack (exactly n entries) must hold each commit once.
 *
 *   0 -- 1 --- 2 ---- 5 (octopus of 2, 3, 4) -- 6
 *         \--- 3 ---/ |
 *          \-- 4 ----'
 */
static const int octopus[] = {
	-1, 0, -1, 1, -1, 1, -1, 1, -1, 2, 3, 4, -1, 5, -1,
};

static void test_octopus(unit_counts *u)
{
	graph		g = make_graph(7, octopus);
	int32_t		mark[7];
	static const uint32_t rel[] = {3, 6};
	static const int32_t want[] = {1, 1, 2, 1, 2, 2, 2};

	static const uint32_t head[] = {6};
	static const int32_t all[] = {1, 1, 1, 1, 1, 1, 1};

	run(&g, rel, 2, NULL, mark);
	check_marks(u, "octopus", mark, want, 7);
	/* 1 is reached by three paths, and pushed once */
	run(&g, head, 1, NULL, mark);
	check_marks(u, "octopus from the head", mark, all, 7);
	free_graph(&g);
}

static void test_empty_graph(unit_counts *u)
{
	graph		g = make_graph(0, NULL);
	static const uint32_t rel[] = {0, 5};
	int32_t		mark[1] = {-7};

	/* no commits: a release naming commit 0 is out of range, nothing is written */
	run(&g, rel, 2, NULL, mark);
	CHECK(u, mark[0] == -7, "empty graph: mark[0] written (%d)", mark[0]);
	free_graph(&g);
}

/* A long chain (deeper than any recursion would go) with a release every 1000 commits. */
static void test_long_chain(unit_counts *u)
{
	enum { N = 200000 };
	int		   *lists = malloc(sizeof(int) * 2 * N);
	uint32_t	rel[N / 1000];
	int32_t    *mark = malloc(sizeof(int32_t) * N);
	graph		g;
	int			bad = 0;

	lists[0] = -1;
	for (int i = 1; i < N; i++)
	{
		lists[2 * i - 1] = i - 1;
		lists[2 * i] = -1;
	}
	g = make_graph(N, lists);
	for (int r = 0; r < N / 1000; r++)
		rel[r] = (uint32_t) (r * 1000 + 999);
	run(&g, rel, N / 1000, NULL, mark);
	for (int i = 0; i < N; i++)
		if (mark[i] != i / 1000 + 1)
			bad++;
	CHECK(u, bad == 0, "long chain: %d commits marked wrong", bad);
	free_graph(&g);
	free(lists);
	free(mark);
}

/* xorshift64*: the same pseudo-random sequence on every run */
static uint64_t rng_state = UINT64_C(0x2545f4914f6cdd1d);

static uint32_t rnd(uint32_t below)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t) ((rng_state * UINT64_C(0x2545f4914f6cdd1d)) >> 33) % below;
}

/*
 * Random histories against the definition: commit c gets the smallest rank r
 * such that c is reachable from release r's commit by a path that avoids the
 * commits marked beforehand (and those keep their marks).  Reachability is
 * computed for each release on its own, by a plain search from scratch.
 */
static void test_random(unit_counts *u)
{
	int			bad_runs = 0, runs = 0;
	long		marked = 0, unmarked = 0, preset_kept = 0;

	for (int run_no = 0; run_no < 400; run_no++)
	{
		uint32_t	n = 1 + rnd(60);
		int32_t		nrel = (int32_t) rnd(8);
		int		   *lists = malloc(sizeof(int) * n * 5);
		uint32_t   *rel = malloc(sizeof(uint32_t) * (nrel ? nrel : 1));
		int32_t    *preset = calloc(n, sizeof(int32_t));
		int32_t    *mark = malloc(sizeof(int32_t) * n);
		int32_t    *want = malloc(sizeof(int32_t) * n);
		uint8_t    *seen = malloc(n);
		uint32_t   *todo = malloc(sizeof(uint32_t) * n * 4 + 4);
		int			k = 0, bad = 0;
		int			with_preset = run_no % 3 == 0;
		graph		g;

		/* parents among the older commits: 0 (a root) to 3 (an octopus), repeats allowed */
		for (uint32_t i = 0; i < n; i++)
		{
			uint32_t	np = i == 0 ? 0 : (rnd(10) == 0 ? 0 : 1 + (rnd(4) == 0 ? rnd(3) : 0));

			for (uint32_t p = 0; p < np; p++)
				lists[k++] = (int) rnd(i);
			lists[k++] = -1;
		}
		g = make_graph(n, lists);
		for (int32_t r = 0; r < nrel; r++)
			rel[r] = rnd(10) == 0 ? n + rnd(3) : rnd(n);	/* sometimes out of range */
		if (with_preset)
			for (uint32_t i = 0; i < n; i++)
				preset[i] = rnd(6) == 0 ? 100 + (int32_t) rnd(5) : 0;

		/* the definition */
		for (uint32_t i = 0; i < n; i++)
			want[i] = preset[i];
		for (int32_t r = nrel; r >= 1; r--)		/* the smallest rank is written last */
		{
			uint32_t	root = rel[r - 1];
			uint32_t	top = 0;

			if (root >= n || preset[root] != 0)
				continue;
			memset(seen, 0, n);
			seen[root] = 1;
			todo[top++] = root;
			while (top > 0)
			{
				uint32_t	c = todo[--top];

				want[c] = r;
				for (uint32_t p = g.par_start[c]; p < g.par_end[c]; p++)
				{
					uint32_t	q = g.parents[p];

					if (!seen[q] && preset[q] == 0)
					{
						seen[q] = 1;
						todo[top++] = q;
					}
				}
			}
		}

		run(&g, rel, nrel, with_preset ? preset : NULL, mark);
		for (uint32_t i = 0; i < n; i++)
		{
			if (mark[i] != want[i])
				bad++;
			if (preset[i] != 0)
				preset_kept++;
			else if (want[i] != 0)
				marked++;
			else
				unmarked++;
		}
		if (bad && bad_runs++ < 5)
			CHECK(u, 0, "random history %d (%u commits, %d releases): %d commits marked wrong",
				  run_no, n, nrel, bad);
		runs++;
		free_graph(&g);
		free(lists);
		free(rel);
		free(preset);
		free(mark);
		free(want);
		free(seen);
		free(todo);
	}
	CHECK(u, bad_runs == 0, "%d of %d random histories marked wrong", bad_runs, runs);
	CHECK(u, marked > 1000 && unmarked > 1000 && preset_kept > 100,
		  "coverage: %ld marked, %ld unmarked, %ld preset", marked, unmarked, preset_kept);
}

/*
 * Releases with several start commits (fixes_mark_releases_from(), release
 * tags off the ref, issue 42), on the history above: release 1 starts at 2
 * (v1.0 on the ref); release 2 at 4 and 3 (a tag off the ref whose branch
 * merged both): it marks 3 and 4, not 2 nor its ancestors; release 3
 * starts at 4 only (another tag of that branch), which release 2 marked:
 * it marks nothing; release 4 starts at 7, marking 5, 6 and 7.
 */
static void test_from(unit_counts *u)
{
	graph		g = make_graph(8, history);
	int32_t		mark[8] = {0};
	uint32_t	stack[8];
	const uint32_t starts[] = {2, 4, 3, 4, 7};
	const uint32_t off[] = {0, 1, 3, 4, 5};
	const int32_t want[8] = {1, 1, 1, 2, 2, 4, 4, 4};
	/* and the same as fixes_mark_releases() with one start each */
	const uint32_t one[] = {2, 6};
	const uint32_t one_off[] = {0, 1, 2};
	int32_t		a[8] = {0};
	int32_t		b[8];

	fixes_mark_releases_from(g.n, g.par_start, g.par_end, g.parents, starts, off, 4, mark, stack);
	check_marks(u, "several starts", mark, want, 8);
	fixes_mark_releases_from(g.n, g.par_start, g.par_end, g.parents, one, one_off, 2, a, stack);
	run(&g, one, 2, NULL, b);
	check_marks(u, "one start each", a, b, 8);
	free_graph(&g);
}

int main(void)
{
	unit_counts u = {0, 0};

	test_history(&u);
	test_octopus(&u);
	test_empty_graph(&u);
	test_long_chain(&u);
	test_random(&u);
	test_from(&u);
	return unit_report("test_release_marking", &u);
}
