/* versort.h — version sort comparison of tag names (like v:refname) */
#ifndef FIXES_VERSORT_H
#define FIXES_VERSORT_H

/*
 * strcmp-like total order of NUL-terminated tag names: each name is split
 * into maximal runs of ASCII digits and of non-digits, compared run by run.
 * Two digit runs compare as (arbitrarily long) numbers; any other pair of
 * runs compares bytewise as unsigned chars, a prefix first.  A name that runs
 * out of runs first sorts first (v6.1 < v6.1.1).  When every run compares
 * equal ("v01" vs "v1") the result is strcmp's, so the order is total.
 */
int fixes_version_cmp(const char *a, const char *b);

#endif /* FIXES_VERSORT_H */
