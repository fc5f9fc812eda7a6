/* test_oid_prefix.c — tests of the abbreviated-id lookup (sort, key range, digit check) */
#include "oid_prefix.h"
#include "unit.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>

#define ID_BYTES 20
#define ID_HEX 40

/*
 * The lookup the loader makes (src/load/load_resolve.c), from the contract of
 * oid_prefix.h: the key range of the first 16 digits, then, for a longer
 * abbreviation, fixes_hex_prefix_matches() on each of its entries.  Writes the
 * matching commit indexes to out and returns their number.
 */
static size_t lookup(const fixes_prefix_entry *entries, size_t n,
					 const unsigned char (*ids)[ID_BYTES], const char *hex, size_t len,
					 uint32_t *out)
{
	size_t		first = 0;
	size_t		range = fixes_prefix_range(entries, n, hex, len, &first);
	size_t		k = 0;

	for (size_t j = first; j < first + range; j++)
	{
		uint32_t	idx = entries[j].idx;

		if (len > 16 && !fixes_hex_prefix_matches(ids[idx], hex, len))
			continue;
		out[k++] = idx;
	}
	return k;
}

/* The ids as 40 lower-case hex digits, as git prints them. */
static char (*to_hex(const unsigned char (*ids)[ID_BYTES], size_t n))[ID_HEX + 1]
{
	char		(*hex)[ID_HEX + 1] = malloc(sizeof(*hex) * (n ? n : 1));

	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < ID_BYTES; d++)
			snprintf(hex[i] + 2 * d, 3, "%02x", ids[i][d]);
	return hex;
}

/* The same answer by brute force: the ids whose hex starts with hex, in any case. */
static size_t brute(const char (*full)[ID_HEX + 1], size_t n, const char *hex, size_t len,
					uint32_t *out)
{
	size_t		k = 0;

	for (size_t i = 0; i < n; i++)
	{
		size_t		d;

		for (d = 0; d < len && d < ID_HEX; d++)
			if (tolower((unsigned char) hex[d]) != full[i][d])
				break;
		if (d == len)			/* every digit agreed, and len <= 40 */
			out[k++] = (uint32_t) i;
	}
	return k;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *) a;
	uint32_t	y = *(const uint32_t *) b;

	return (x > y) - (x < y);
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : tolower((unsigned char) c) - 'a' + 10;
}

static void parse_id(const char *hex40, unsigned char *id)
{
	for (int i = 0; i < ID_BYTES; i++)
		id[i] = (unsigned char) (hexval(hex40[2 * i]) << 4 | hexval(hex40[2 * i + 1]));
}

/* Builds and sorts the index of ids[0..n) as the loader does. */
static fixes_prefix_entry *build_index(const unsigned char (*ids)[ID_BYTES], size_t n)
{
	fixes_prefix_entry *e = malloc(sizeof(*e) * (n ? n : 1));
	fixes_prefix_entry *tmp = malloc(sizeof(*tmp) * (n ? n : 1));

	for (size_t i = 0; i < n; i++)
	{
		e[i].key = fixes_prefix_key(ids[i]);
		e[i].idx = (uint32_t) i;
	}
	fixes_prefix_sort(e, tmp, n);
	free(tmp);
	return e;
}

/* An exactly-sized heap copy of s (no terminator), so that ASan sees an over-read. */
static char *exact(const char *s, size_t len)
{
	char	   *c = malloc(len ? len : 1);

	memcpy(c, s, len);
	return c;
}

static void test_key(unit_counts *u)
{
	unsigned char id[ID_BYTES];

	parse_id("0123456789abcdeffedcba98765432100f1e2d3c", id);
	CHECK(u, fixes_prefix_key(id) == UINT64_C(0x0123456789abcdef), "key %016llx",
		  (unsigned long long) fixes_prefix_key(id));
	parse_id("ffffffffffffffff000000000000000000000000", id);
	CHECK(u, fixes_prefix_key(id) == UINT64_MAX, "key of ff.. %016llx",
		  (unsigned long long) fixes_prefix_key(id));
	parse_id("0000000000000000ffffffffffffffffffffffff", id);
	CHECK(u, fixes_prefix_key(id) == 0, "key of 00.. %016llx",
		  (unsigned long long) fixes_prefix_key(id));
}

static void test_prefix_matches(unit_counts *u)
{
	static const struct { const char *hex; int want; } cases[] = {
		{"", 1},
		{"1", 1}, {"2", 0}, {"1c", 1}, {"1d", 0}, {"1c4", 1},
		{"1c441e9", 1}, {"1C441E9", 1}, {"1c441e8", 0},
		{"1c441e921201aa5b", 1}, {"1c441e921201aa5b6", 1}, {"1c441e921201aa5b7", 0},
		{"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f", 1},
		{"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1", 1},
		{"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f0", 0},
		{"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f10", 0},	/* 41 digits */
		{"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1f", 0},
		{"1c44 e9", 0}, {"1c441g", 0}, {"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1fx", 0},
	};
	unsigned char id[ID_BYTES];

	parse_id("1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1", id);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		size_t		len = strlen(cases[i].hex);
		char	   *h = exact(cases[i].hex, len);
		int			got = fixes_hex_prefix_matches(id, h, len);

		CHECK(u, (got != 0) == cases[i].want, "matches(\"%s\") = %d, expected %d",
			  cases[i].hex, got, cases[i].want);
		free(h);
	}
	/* the length, not a terminator, ends the abbreviation */
	CHECK(u, fixes_hex_prefix_matches(id, "1c44ZZZ", 4) == 1, "first 4 of \"1c44ZZZ\"");
	CHECK(u, fixes_hex_prefix_matches(id, "1c441e9\0", 8) == 0, "a NUL is no digit");
}

/* Ids with shared prefixes of 8, 12, 16 and 39 digits, and the extreme keys. */
static const char *const hand_ids[] = {
	"1c441e921201aa5b6bd8a4d7d5e1f1b1c1d1e1f1",	/* 0 A */
	"1c441e9212013c48b7bd7d0a3d5ab6a7f22c4a1b",	/* 1 B: A's first 12 digits */
	"1c441e92ffffffffffffffffffffffffffffffff",	/* 2 C: A's and B's first 8 */
	"0000000000000000000000000000000000000000",	/* 3 D: key 0 */
	"ffffffffffffffffffffffffffffffffffffffff",	/* 4 E: the largest key */
	"abcdef0123456789a00000000000000000000000",	/* 5 F */
	"abcdef0123456789b00000000000000000000000",	/* 6 G: F's 16 digits, not the 17th */
	"abcdef0123456789a00000000000000000000001",	/* 7 H: all of F but the last digit */
};
#define NHAND (sizeof(hand_ids) / sizeof(hand_ids[0]))

static void test_hand_lookups(unit_counts *u)
{
	/* expected: a bit per id of hand_ids, worked out by reading the ids above */
	static const struct { const char *hex; unsigned want; } cases[] = {
		{"1c441e9", 0x07},			/* ambiguous: A, B, C */
		{"1c441e92", 0x07},
		{"1c441e921201", 0x03},		/* ambiguous: A, B */
		{"1c441e921201a", 0x01},
		{"1C441E9212013C", 0x02},	/* upper case */
		{"1c441e92f", 0x04},
		{"1c441e93", 0x00},			/* not found, between C and F */
		{"1c441e91", 0x00},			/* not found, just below A */
		{"", 0xff},					/* empty: every id */
		{"0", 0x08}, {"000000", 0x08},
		{"0000000000000000", 0x08}, {"00000000000000000", 0x08},
		{"0000000000000001", 0x00},
		{"f", 0x10}, {"ffffffffffffffff", 0x10},
		{"ffffffffffffffffffffffffffffffffffffffff", 0x10},
		{"fffffffffffffffffffffffffffffffffffffffff", 0x00},	/* 41 digits */
		{"fffffffffffffffe", 0x00},
		{"abcdef0123456789", 0xe0},	/* 16 digits: F, G, H */
		{"abcdef0123456789a", 0xa0},	/* 17th digit: F, H */
		{"abcdef0123456789b", 0x40},
		{"abcdef0123456789c", 0x00},	/* the key range is not empty, the 17th digit is */
		{"abcdef0123456789a0000000000000000000000", 0xa0},
		{"abcdef0123456789a00000000000000000000000", 0x20},
		{"abcdef0123456789a00000000000000000000001", 0x80},
		{"abcdef0123456789a00000000000000000000002", 0x00},
		{"1c44g", 0x00},			/* not hex in the first 16 digits */
		{"abcdef0123456789az", 0x00},	/* not hex after the 16th */
		{"1c441e9 ", 0x00},
	};
	unsigned char ids[NHAND][ID_BYTES];
	fixes_prefix_entry *e;
	uint32_t	got[NHAND];

	for (size_t i = 0; i < NHAND; i++)
	{
		CHECK(u, strlen(hand_ids[i]) == ID_HEX, "hand_ids[%zu] is no full id", i);
		parse_id(hand_ids[i], ids[i]);
	}
	e = build_index((const unsigned char (*)[ID_BYTES]) ids, NHAND);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		size_t		len = strlen(cases[c].hex);
		char	   *h = exact(cases[c].hex, len);
		size_t		k = lookup(e, NHAND, (const unsigned char (*)[ID_BYTES]) ids, h, len, got);
		unsigned	mask = 0;
		int			dup = 0;

		for (size_t j = 0; j < k; j++)
		{
			dup |= (mask >> got[j]) & 1;
			mask |= 1u << got[j];
		}
		CHECK(u, mask == cases[c].want && !dup, "\"%s\": ids 0x%02x%s, expected 0x%02x",
			  cases[c].hex, mask, dup ? " (one twice)" : "", cases[c].want);
		free(h);
	}
	free(e);
}

static void test_empty_index(unit_counts *u)
{
	fixes_prefix_entry dummy = {0, 0};
	fixes_prefix_entry tmp;
	size_t		first = 99;

	fixes_prefix_sort(&dummy, &tmp, 0);
	CHECK(u, fixes_prefix_range(&dummy, 0, "1c441e9", 7, &first) == 0, "no commits: a range");
	CHECK(u, first == 0, "no commits: first %zu", first);
	CHECK(u, fixes_prefix_range(&dummy, 0, "", 0, &first) == 0, "no commits, empty abbrev");
}

/* xorshift64*: the same pseudo-random sequence on every run */
static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(0x2545f4914f6cdd1d);
}

static void test_sort(unit_counts *u)
{
	static const size_t sizes[] = {1, 2, 3, 255, 256, 257, 5000};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
	{
		size_t		n = sizes[s];
		fixes_prefix_entry *e = malloc(sizeof(*e) * n);
		fixes_prefix_entry *tmp = malloc(sizeof(*tmp) * n);
		uint32_t   *seen = calloc(n, sizeof(uint32_t));
		uint64_t   *key_of = malloc(sizeof(uint64_t) * n);
		int			sorted = 1, perm = 1;

		for (size_t i = 0; i < n; i++)
		{
			uint64_t	r = rnd();

			/* duplicates, keys differing in one byte only, and both extremes */
			switch (i % 5)
			{
				case 0: e[i].key = r; break;
				case 1: e[i].key = r & UINT64_C(0xff00000000000000); break;
				case 2: e[i].key = (r & 1) ? UINT64_MAX : 0; break;
				case 3: e[i].key = UINT64_C(0x1c441e9212010000) | (r & 0xff); break;
				default: e[i].key = e[i / 2].key; break;
			}
			e[i].idx = (uint32_t) i;
			key_of[i] = e[i].key;
		}
		fixes_prefix_sort(e, tmp, n);
		for (size_t i = 0; i < n; i++)
		{
			if (i > 0 && e[i - 1].key > e[i].key)
				sorted = 0;
			if (e[i].idx >= n || seen[e[i].idx]++ || key_of[e[i].idx] != e[i].key)
				perm = 0;
		}
		CHECK(u, sorted, "sort of %zu: not in key order", n);
		CHECK(u, perm, "sort of %zu: not a permutation of the entries", n);
		free(e);
		free(tmp);
		free(seen);
		free(key_of);
	}
}

/*
 * Many ids in clusters that share 1 to 39 leading digits, and abbreviations of
 * every length from 0 to 41 of them, in either case, some with a digit
 * changed: the lookup must find what brute force finds.
 */
static void test_random_lookups(unit_counts *u)
{
	enum { N = 3000, QUERIES = 20000 };
	static unsigned char ids[N][ID_BYTES];
	static uint32_t got[N], want[N];
	fixes_prefix_entry *e;
	char		(*full)[ID_HEX + 1];
	int			bad = 0, ambiguous = 0, unique = 0, none = 0;

	for (size_t i = 0; i < N; i++)
	{
		for (int b = 0; b < ID_BYTES; b++)
			ids[i][b] = (unsigned char) rnd();
		if (i > 0 && rnd() % 3 != 0)
		{
			/* a sibling of an earlier id: the same first `keep` digits */
			size_t		src = rnd() % i;
			int			keep = 1 + (int) (rnd() % 39);

			for (int d = 0; d < keep; d++)
			{
				unsigned char m = (d % 2 == 0) ? 0xf0 : 0x0f;

				ids[i][d / 2] = (unsigned char) ((ids[i][d / 2] & ~m) | (ids[src][d / 2] & m));
			}
		}
	}
	e = build_index((const unsigned char (*)[ID_BYTES]) ids, N);
	full = to_hex((const unsigned char (*)[ID_BYTES]) ids, N);
	for (int q = 0; q < QUERIES; q++)
	{
		char		hex[ID_HEX + 2];
		size_t		len = rnd() % (ID_HEX + 2);
		size_t		src = rnd() % N;
		char	   *h;
		size_t		kg, kw;

		memcpy(hex, full[src], ID_HEX);
		hex[ID_HEX] = "0123456789abcdef"[rnd() % 16];	/* a 41st digit */
		for (size_t d = 0; d < len; d++)
			if (rnd() % 4 == 0)
				hex[d] = (char) toupper((unsigned char) hex[d]);
		if (len > 0 && rnd() % 3 == 0)
			hex[rnd() % len] = "0123456789abcdef"[rnd() % 16];
		h = exact(hex, len);
		kg = lookup(e, N, (const unsigned char (*)[ID_BYTES]) ids, h, len, got);
		kw = brute((const char (*)[ID_HEX + 1]) full, N, h, len, want);
		qsort(got, kg, sizeof(uint32_t), cmp_u32);
		if (kg != kw || memcmp(got, want, kg * sizeof(uint32_t)) != 0)
		{
			if (bad++ < 5)
				CHECK(u, 0, "\"%.*s\": %zu ids found, brute force finds %zu", (int) len, hex, kg, kw);
		}
		if (kw == 0)
			none++;
		else if (kw == 1)
			unique++;
		else
			ambiguous++;
		free(h);
	}
	CHECK(u, bad == 0, "%d of %d random lookups differ from brute force", bad, QUERIES);
	/* the queries covered every outcome, often */
	CHECK(u, none > 1000 && unique > 1000 && ambiguous > 1000,
		  "outcomes: %d not found, %d unique, %d ambiguous", none, unique, ambiguous);
	free(e);
	free(full);
}

int main(void)
{
	unit_counts u = {0, 0};

	test_key(&u);
	test_prefix_matches(&u);
	test_hand_lookups(&u);
	test_empty_index(&u);
	test_sort(&u);
	test_random_lookups(&u);
	return unit_report("test_oid_prefix", &u);
}
