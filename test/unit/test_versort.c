/* test_versort.c — tests of the version sort comparison */
#include "versort.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

/* Every name sorts strictly before the next one. */
static const char *const expected_order[] = {
	"", "0", "001", "01", "1", "1.2.3", "1.2.10", "2", "10", "99999999999999999999",
	"100000000000000000000", "1000000000000000000000000000000000000001", "v",
	"v01", "v1", "v1.2.3r0", "v1.2.3r1", "v1.2.4", "v2.6.11", "v2.6.11.1",
	"v2.6.12", "v2.6.12-rc1", "v3.0", "v3.9", "v3.10", "v6.1", "v6.1.1", "v6.2",
	"v10.0", "va", "vb", "w1", "\xc3\xa9",
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
		{"v2.6.11", "v2.6.12", -1}, {"v2.6.12", "v3.0", -1}, {"v3.0", "v3.9", -1},
		{"v3.9", "v3.10", -1}, {"v3.10", "v10.0", -1}, {"v6.1", "v6.1.1", -1},
		{"v6.1.1", "v6.2", -1}, {"1.2.3", "1.2.10", -1}, {"v1.2.3r0", "v1.2.3r1", -1},
		{"v1.2.3r1", "v1.2.4", -1}, {"v1.0", "v1.0", 0}, {"", "", 0},
		{"v01", "v1", -1}, {"v1", "v01", 1}, {"v007", "v7", -1}, {"v10", "v9", 1},
		{"a", "b", -1}, {"ab", "a", 1}, {"v1a", "v1b", -1}, {"v1.", "v1", 1},
		{"18446744073709551616", "18446744073709551615", 1},
		{"000000000000000000000000000000001", "2", -1},
		{"v\xff", "v1", 1}, {"v\x01", "v1", 1}, {"v.1", "v-1", 1}, {"1-a", "1-\xe9", -1},
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
	check_order_laws(&u);
	for (seed = 1; seed <= 20; seed++)
		check_qsort(&u, seed);
	return unit_report("test_versort", &u);
}
