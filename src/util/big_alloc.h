/*
 * big_alloc.h — the large arrays of a load, on huge pages where the kernel
 * gives them
 */
#ifndef FIXES_BIG_ALLOC_H
#define FIXES_BIG_ALLOC_H

extern void *fixes_alloc_big(MemoryContext cxt, Size size, int flags);
extern void *fixes_palloc_big(Size size, int flags);
extern void *fixes_repalloc_big(MemoryContext cxt, void *p, Size old_size, Size size);

#endif							/* FIXES_BIG_ALLOC_H */
