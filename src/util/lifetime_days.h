/*
 * lifetime_days.h — bug lifetimes in days, and their percentiles, as SQL computes them
 */
#ifndef FIXES_LIFETIME_DAYS_H
#define FIXES_LIFETIME_DAYS_H

/* the lifetime of one bug in days, in a group (a release, a subsystem, a prefix) */
typedef struct FixesLifetime
{
	uint32		group;
	double		days;
} FixesLifetime;

extern double fixes_sql_days(int64 usec);
extern int	fixes_lifetime_cmp(const void *a, const void *b);
extern void fixes_lifetime_sort(FixesLifetime *v, int64 n, uint32 ngroups);
extern double fixes_percentile_cont(const FixesLifetime *v, int64 n, double p);
extern double fixes_percentile_cont_days(const double *days, int64 n, double p);

#endif							/* FIXES_LIFETIME_DAYS_H */
