/*
 * sort_cmp.h — the order of a qsort comparator by two fields
 */
#ifndef FIXES_SORT_CMP_H
#define FIXES_SORT_CMP_H

/*
 * -1, 0 or 1 as *x comes before, with or after *y (pointers to structs of
 * one type): by field k1, then by field k2, both numbers, ascending
 */
#define FIXES_CMP_BY2(x, y, k1, k2) \
	((x)->k1 != (y)->k1 ? ((x)->k1 < (y)->k1 ? -1 : 1) : \
	 ((x)->k2 < (y)->k2 ? -1 : (x)->k2 > (y)->k2))

#endif							/* FIXES_SORT_CMP_H */
