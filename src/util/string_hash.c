/*
 * string_hash.c — dynahash over NUL-terminated strings held by pointer
 *
 * The key of the entry is a char * that points into memory the caller
 * keeps (tag names, trailer keys), so the table holds no copies.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "utils/hsearch.h"

#include "string_hash.h"

uint32
fixes_string_ptr_hash(const void *key, Size keysize)
{
	const char *s = *(const char *const *) key;

	return hash_bytes((const unsigned char *) s, (int) strlen(s));
}

int
fixes_string_ptr_match(const void *a, const void *b, Size keysize)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/*
 * A dynahash table whose key is the first field of its entries, a char *
 * to a NUL-terminated string that the caller keeps; entrysize bytes an
 * entry, allocated in cxt
 */
HTAB *
fixes_string_hash_create(const char *name, long nelem, Size entrysize, MemoryContext cxt)
{
	HASHCTL		ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(char *);
	ctl.entrysize = entrysize;
	ctl.hash = fixes_string_ptr_hash;
	ctl.match = fixes_string_ptr_match;
	ctl.hcxt = cxt;
	return hash_create(name, nelem, &ctl, HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);
}
