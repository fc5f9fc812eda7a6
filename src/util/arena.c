/*
 * arena.c — an append-only byte buffer that may grow past 1 GB
 *
 * Strings kept for the whole of a load live here and are referred to by
 * offset, instead of one palloc chunk each: the text of each Fixes:,
 * revert and backport line, its abbreviated id and its quoted subject
 * (FixesLoad.edge_list.text).  Commit subjects are not kept, only their hashes.
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "arena.h"
#include "big_alloc.h"

void
fixes_arena_init(FixesArena *a, MemoryContext cxt)
{
	a->cxt = cxt;
	a->len = 0;
	a->cap = 64 * 1024;
	a->data = MemoryContextAllocHuge(cxt, a->cap);
}

/* Append s[0..len); returns its offset. */
Size
fixes_arena_add(FixesArena *a, const char *s, Size len)
{
	Size		off = a->len;

	if (a->len + len > a->cap)
		fixes_arena_reserve(a, len);
	memcpy(a->data + a->len, s, len);
	a->len += len;
	return off;
}

/* fixes_arena_add() of s lower-cased (ASCII: an abbreviation's hex digits) */
Size
fixes_arena_add_lower(FixesArena *a, const char *s, Size len)
{
	Size		off = a->len;

	if (a->len + len > a->cap)
		fixes_arena_reserve(a, len);
	for (Size i = 0; i < len; i++)
		a->data[a->len + i] = pg_ascii_tolower((unsigned char) s[i]);
	a->len += len;
	return off;
}

/* room for len more bytes, so that the arena is not copied again and again as it grows */
void
fixes_arena_reserve(FixesArena *a, Size len)
{
	Size		cap = Max(a->cap, 1024);

	if (a->data != NULL && a->len + len <= a->cap)
		return;
	while (a->len + len > cap)
		cap *= 2;
	a->data = fixes_repalloc_big(a->cxt, a->data, a->cap, cap);
	a->cap = cap;
}
