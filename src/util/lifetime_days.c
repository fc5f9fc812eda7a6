/*
 * lifetime_days.c — bug lifetimes in days, and their percentiles, as SQL computes them
 *
 * The loader stores medians and percentiles of lifetimes (load_count.c: per
 * release and per group) that a query would otherwise compute with
 * percentile_cont over EXTRACT(epoch FROM fixed_at - committed_at) / 86400;
 * these two functions give the same values to the last bit.
 */
#include "postgres.h"

#include <math.h>
#include <stdlib.h>

#include "miscadmin.h"

#include "big_alloc.h"
#include "lifetime_days.h"
#include "sort_cmp.h"

/* the days of one group, in order: a sort specialized for them */
#define ST_SORT sort_days
#define ST_ELEMENT_TYPE FixesLifetime
#define ST_COMPARE(a, b) ((a)->days < (b)->days ? -1 : (a)->days > (b)->days)
#define ST_CHECK_FOR_INTERRUPTS
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

/*
 * The lifetime of a bug in days as SQL computes EXTRACT(epoch FROM
 * fixed_at - committed_at) / 86400 for percentile_cont(float8): the epoch is
 * a numeric of usec / 10^6 (scale 6), the quotient is rounded at the scale
 * select_div_scale() gives it (16 significant digits, at least 6 decimals;
 * numeric.c), and the cast to float8 reads its decimal text.  Dividing in
 * double precision differs in the last bit for about one value in a
 * hundred, which moves a median; this does not (checked against SQL on
 * every edge of a 1.3M-commit history).
 */
double
fixes_sql_days(int64 usec)
{
	unsigned __int128 a = usec < 0 ? (unsigned __int128) (-(usec + 1)) + 1 : (unsigned __int128) usec;
	uint64	ip = (uint64) (a / 1000000),
				fp = (uint64) (a % 1000000);
	int			weight1 = 0,
				first1 = 0,
				qweight,
				rscale;
	unsigned __int128 d = (unsigned __int128) 86400 * 1000000,
				pow = 1,
				q,
				ipart,
				fpart;
	char		buf[128],
				digits[64];
	int			n = 0,
				k = 0;

	/* the leading base-10000 digit of the epoch and its weight */
	if (ip > 0)
	{
		uint64	x = ip;

		while (x >= 10000)
		{
			x /= 10000;
			weight1++;
		}
		first1 = (int) x;
	}
	else if (fp / 100 > 0)
	{
		weight1 = -1;
		first1 = (int) (fp / 100);
	}
	else if (fp % 100 > 0)
	{
		weight1 = -2;
		first1 = (int) (fp % 100) * 100;
	}
	/* select_div_scale against 86400 (weight 1, leading digit 8) */
	qweight = weight1 - 1;
	if (first1 <= 8)
		qweight--;
	rscale = 16 - qweight * 4;
	if (rscale < 6)
		rscale = 6;
	for (int i = 0; i < rscale; i++)
		pow *= 10;
	q = (a * pow + d / 2) / d;
	ipart = q / pow;
	fpart = q % pow;
	if (usec < 0)
		buf[n++] = '-';
	do
	{
		digits[k++] = (char) ('0' + (int) (ipart % 10));
		ipart /= 10;
	} while (ipart > 0);
	while (k > 0)
		buf[n++] = digits[--k];
	buf[n++] = '.';
	for (int i = rscale - 1; i >= 0; i--)
	{
		digits[i] = (char) ('0' + (int) (fpart % 10));
		fpart /= 10;
	}
	for (int i = 0; i < rscale; i++)
		buf[n++] = digits[i];
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* qsort order of FixesLifetime: by group, then by days */
int
fixes_lifetime_cmp(const void *a, const void *b)
{
	return FIXES_CMP_BY2((const FixesLifetime *) a, (const FixesLifetime *) b, group, days);
}

/*
 * Sort v[0 .. n) as fixes_lifetime_cmp orders it, by group (each below
 * ngroups), then by days: a counting sort on the group, then each group's
 * days by a sort made for them, rather than qsort() with
 * fixes_lifetime_cmp.
 */
void
fixes_lifetime_sort(FixesLifetime *v, int64 n, uint32 ngroups)
{
	int64	   *next;
	FixesLifetime *sorted;

	for (int64 i = 0; i < n; i++)
		if (v[i].group >= ngroups)
		{
			qsort(v, n, sizeof(FixesLifetime), fixes_lifetime_cmp);
			return;
		}
	if (n < 2)
		return;
	next = palloc0(sizeof(int64) * ((Size) ngroups + 1));
	sorted = fixes_palloc_big(sizeof(FixesLifetime) * n, MCXT_ALLOC_HUGE);
	for (int64 i = 0; i < n; i++)
		next[v[i].group + 1]++;
	for (uint32 g = 0; g < ngroups; g++)
		next[g + 1] += next[g];
	for (int64 i = 0; i < n; i++)
		sorted[next[v[i].group]++] = v[i];
	memcpy(v, sorted, sizeof(FixesLifetime) * n);
	pfree(sorted);
	/* next[g] is now where group g + 1 starts */
	for (uint32 g = 0, from = 0; g < ngroups; g++)
	{
		sort_days(v + from, next[g] - from);
		from = next[g];
	}
	pfree(next);
}

/* SQL's percentile_cont(p) between the sorted values at its two positions: orderedsetaggs.c, float8_lerp */
static inline double
percentile_lerp(double lo, double hi, int64 first, int64 second, int64 n, double p)
{
	if (first == second)
		return lo;
	return lo + (((p * (n - 1)) - first) * (hi - lo));
}

/* SQL's percentile_cont(p) over the days of v[0..n), sorted */
double
fixes_percentile_cont(const FixesLifetime *v, int64 n, double p)
{
	int64		first = (int64) floor(p * (n - 1));
	int64		second = (int64) ceil(p * (n - 1));

	return percentile_lerp(v[first].days, v[second].days, first, second, n, p);
}

/* the same over days[0..n), sorted */
double
fixes_percentile_cont_days(const double *days, int64 n, double p)
{
	int64		first = (int64) floor(p * (n - 1));
	int64		second = (int64) ceil(p * (n - 1));

	return percentile_lerp(days[first], days[second], first, second, n, p);
}
