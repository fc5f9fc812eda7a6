/*
 * lifetime_days.h — bug lifetimes in days, and their percentiles, as SQL computes them
 */
#ifndef FIXES_LIFETIME_DAYS_H
#define FIXES_LIFETIME_DAYS_H

extern double fixes_sql_days(int64 usec);
extern double fixes_percentile_cont(const double *first, size_t stride, int64 n, double p);

#endif							/* FIXES_LIFETIME_DAYS_H */
