/* test_versort.c — tests of the version sort comparison */
#include "versort.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

/* Every name sorts strictly before the next one: git tag --sort=v:refname's order. */
static const char *const expected_order[] = {
	"", "000", "001", "00", "01", "010", "09", "0", "1", "1.2.3", "1.2.10", "2", "10",
	"99999999999999999999", "100000000000000000000",
	"1000000000000000000000000000000000000001", "V1", "v", "v007", "v00", "v01", "v07",
	"v0", "v1", "v1.01", "v1.010", "v1.09", "v1.0", "v1.0-rc1", "v1.0-rc2", "v1.0.1",
	"v1.0rc1", "v1.2.3r0", "v1.2.3r1", "v1.2.4", "v1.9", "v1.10", "v2.6.11", "v2.6.11.1",
	"v2.6.12", "v2.6.12-rc1", "v3.0", "v3.9", "v3.10", "v6.1", "v6.1-rc1", "v6.1.1", "v6.2",
	"v10.0", "va", "vb", "w1", "\xc3\xa9", "\xff",
};

#define NAMES (sizeof(expected_order) / sizeof(expected_order[0]))

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static int compare_names(const void *a, const void *b)
{
	return fixes_version_cmp(*(const char *const *) a, *(const char *const *) b);
}

static void check_pairs(unit_counts *u)
{
	static const struct { const char *a, *b; int want; } pairs[] = {
		/* numbers */
		{"v2.6.11", "v2.6.12", -1}, {"v2.6.12", "v3.0", -1}, {"v3.0", "v3.9", -1},
		{"v3.9", "v3.10", -1}, {"v3.10", "v10.0", -1}, {"v6.1", "v6.1.1", -1},
		{"v6.1.1", "v6.2", -1}, {"1.2.3", "1.2.10", -1}, {"v1.2.3r0", "v1.2.3r1", -1},
		{"v1.2.3r1", "v1.2.4", -1}, {"v1.0", "v1.0", 0}, {"", "", 0}, {"v10", "v9", 1},
		{"18446744073709551616", "18446744073709551615", 1}, {"v9", "v10", -1},
		/* a number goes on past a non-digit, whatever the byte */
		{"v1a", "v10", -1}, {"v1:", "v10", -1}, {"v9a", "v10", -1}, {"v1.", "v1", 1},
		/* leading zeros: a fraction, before the numbers, more zeros first */
		{"v01", "v1", -1}, {"v1", "v01", 1}, {"v007", "v7", -1}, {"v1.09", "v1.9", -1},
		{"v1.010", "v1.09", -1}, {"v1.010", "v1.10", -1}, {"v1.01", "v1.010", -1},
		{"00", "0", -1}, {"0", "01", 1}, {"09", "0", -1}, {"v0:", "v00", 1},
		{"v01:", "v012", 1}, {"v01.", "v012", -1}, {"v0123", "v019", -1},
		{"v1.0123", "v1.019", -1}, {"v1.0020", "v1.003", -1},
		{"000000000000000000000000000000001", "2", -1},
		/* no versionsort.suffix: a release candidate comes after its release */
		{"v1.0", "v1.0-rc1", -1}, {"v6.1-rc1", "v6.1", 1}, {"v1.0-rc9", "v1.0-rc10", -1},
		/* bytes */
		{"a", "b", -1}, {"ab", "a", 1}, {"v1a", "v1b", -1}, {"v1.0", "V1.0", 1},
		{"v1.0-RC1", "v1.0-rc1", -1}, {"v\xff", "v1", 1}, {"v\x01", "v1", -1},
		{"v.1", "v-1", 1}, {"1-a", "1-\xe9", -1}, {"v\xc3\xa9", "v\xe9", -1},
	};
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
	{
		int got = sign(fixes_version_cmp(pairs[i].a, pairs[i].b));
		int back = sign(fixes_version_cmp(pairs[i].b, pairs[i].a));

		CHECK(u, got == pairs[i].want, "cmp(\"%s\", \"%s\") = %d, expected %d",
			  pairs[i].a, pairs[i].b, got, pairs[i].want);
		CHECK(u, back == -pairs[i].want, "cmp(\"%s\", \"%s\") = %d, expected %d",
			  pairs[i].b, pairs[i].a, back, -pairs[i].want);
	}
}

/* head, then n copies of c, then tail, in a new string (to be freed). */
static char *repeat(const char *head, char c, size_t n, const char *tail)
{
	size_t hl = strlen(head), tl = strlen(tail);
	char *s = malloc(hl + n + tl + 1);

	if (s == NULL)
	{
		perror("malloc");
		exit(2);
	}
	memcpy(s, head, hl);
	memset(s + hl, c, n);
	memcpy(s + hl + n, tail, tl + 1);
	return s;
}

/* Digit runs far longer than any integer type: nothing may overflow. */
static void check_long_runs(unit_counts *u)
{
	enum { N = 5000 };
	static const struct {
		const char *ahead; char ac; size_t an; const char *atail;
		const char *bhead; char bc; size_t bn; const char *btail;
		int want;
	} cases[] = {
		{"v1", '0', N, "", "v", '9', N, "", 1},			/* 10^N vs 10^N - 1 */
		{"v", '1', N, "2", "v", '1', N, "3", -1},		/* last digit */
		{"v2", '0', N, "", "v1", '9', N, "", 1},		/* first digit */
		{"v", '1', N, ".1", "v", '1', N, "1", -1},		/* shorter number */
		{"v", '0', N, "1", "v", '0', N, "", -1},		/* 0...01 before 0...0 */
		{"v", '0', N, "", "v", '0', N - 1, "", -1},		/* more zeros first */
		{"v0", '9', N, "", "v", '0', N, "", 1},			/* fraction vs zeros */
		{"v1.", '0', N, "1", "v1.", '0', N, "1", 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char *a = repeat(cases[i].ahead, cases[i].ac, cases[i].an, cases[i].atail);
		char *b = repeat(cases[i].bhead, cases[i].bc, cases[i].bn, cases[i].btail);
		int got = sign(fixes_version_cmp(a, b));
		int back = sign(fixes_version_cmp(b, a));

		CHECK(u, got == cases[i].want && back == -cases[i].want,
			  "long case %zu: cmp = %d, reversed %d, expected %d", i, got, back,
			  cases[i].want);
		free(a);
		free(b);
	}
}

/* Antisymmetry, reflexivity and transitivity over all pairs and triples. */
static void check_order_laws(unit_counts *u)
{
	size_t i, j, k;

	for (i = 0; i < NAMES; i++)
		for (j = 0; j < NAMES; j++)
		{
			int ij = sign(fixes_version_cmp(expected_order[i], expected_order[j]));
			int want = (i > j) - (i < j);

			CHECK(u, ij == want, "cmp(\"%s\", \"%s\") = %d, expected %d",
				  expected_order[i], expected_order[j], ij, want);
			for (k = 0; k < NAMES; k++)
			{
				int jk = fixes_version_cmp(expected_order[j], expected_order[k]);
				int ik = fixes_version_cmp(expected_order[i], expected_order[k]);

				if (ij < 0 && jk < 0 && ik >= 0)
					CHECK(u, 0, "not transitive: %s < %s < %s", expected_order[i],
						  expected_order[j], expected_order[k]);
			}
		}
	u->checks++;	/* the transitivity sweep as a whole */
}

/* A shuffled copy sorted with qsort must come back in the expected order. */
static void check_qsort(unit_counts *u, uint32_t seed)
{
	const char *names[NAMES];
	uint32_t start = seed;
	size_t i;

	memcpy(names, expected_order, sizeof(names));
	for (i = NAMES - 1; i > 0; i--)
	{
		size_t j;
		const char *t;

		seed = seed * 1103515245u + 12345u;
		j = (seed >> 8) % (i + 1);
		t = names[i];
		names[i] = names[j];
		names[j] = t;
	}
	qsort(names, NAMES, sizeof(names[0]), compare_names);
	for (i = 0; i < NAMES; i++)
		CHECK(u, strcmp(names[i], expected_order[i]) == 0,
			  "seed %u: position %zu holds \"%s\", expected \"%s\"", start, i, names[i],
			  expected_order[i]);
}

int main(void)
{
	unit_counts u = {0, 0};
	uint32_t seed;

	check_pairs(&u);
	check_long_runs(&u);
	check_order_laws(&u);
	for (seed = 1; seed <= 20; seed++)
		check_qsort(&u, seed);
	return unit_report("test_versort", &u);
}
