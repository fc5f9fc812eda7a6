/*
 * string_hash.c — dynahash over NUL-terminated strings held by pointer
 *
 * The key of the entry is a char * that points into memory the caller
 * keeps (tag names, trailer keys), so the table holds no copies.
 */
#include "postgres.h"

#include "common/hashfn.h"

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
