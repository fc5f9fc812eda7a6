/*
 * big_alloc.h — the large arrays of a load, on huge pages where the kernel
 * gives them
 */
#ifndef FIXES_BIG_ALLOC_H
#define FIXES_BIG_ALLOC_H

extern void *fixes_huge_pages(void *p, Size len);
extern void *fixes_palloc_big(Size size, int flags);

#endif							/* FIXES_BIG_ALLOC_H */
