/*
 * arena.h — an append-only byte buffer that may grow past 1 GB
 */
#ifndef FIXES_ARENA_H
#define FIXES_ARENA_H

typedef struct FixesArena
{
	MemoryContext cxt;
	char	   *data;
	Size		len;
	Size		cap;
} FixesArena;

extern void fixes_arena_init(FixesArena *a, MemoryContext cxt);
extern Size fixes_arena_add(FixesArena *a, const char *s, Size len);
extern Size fixes_arena_add_lower(FixesArena *a, const char *s, Size len);
extern void fixes_arena_reserve(FixesArena *a, Size len);

#endif							/* FIXES_ARENA_H */
