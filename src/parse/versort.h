/* versort.h — version order of tag names, as `git tag --sort=v:refname` */
#ifndef FIXES_VERSORT_H
#define FIXES_VERSORT_H

/*
 * strcmp-like total order of NUL-terminated tag names, the order of
 * `git tag --sort=v:refname` when no versionsort.suffix is configured
 * (git's versioncmp, i.e. glibc's strverscmp).  Runs of ASCII digits compare
 * as numbers (v3.9 < v3.10 < v10.0), but a run with leading zeros is a
 * fraction that sorts before the numbers without one, more zeros first:
 * 000 < 00 < 01 < 010 < 09 < 0 < 1 < 9 < 10.  Everything else compares as
 * unsigned bytes, a name before its extensions (v6.1 < v6.1-rc1 < v6.1.1:
 * with no suffix configured git puts release candidates after the release).
 * Returns < 0, 0 or > 0; 0 only for identical names.  Any bytes, digit runs
 * of any length.
 */
int fixes_version_cmp(const char *a, const char *b);

#endif /* FIXES_VERSORT_H */
