/*
 * string_hash.h — dynahash over NUL-terminated strings held by pointer
 */
#ifndef FIXES_STRING_HASH_H
#define FIXES_STRING_HASH_H

/* for HASHCTL.hash and .match, with keysize sizeof(char *) and HASH_FUNCTION | HASH_COMPARE */
extern uint32 fixes_string_ptr_hash(const void *key, Size keysize);
extern int	fixes_string_ptr_match(const void *a, const void *b, Size keysize);

/* a table keyed by char * (a string held by the caller), its entries entrysize bytes, in cxt */
extern struct HTAB *fixes_string_hash_create(const char *name, long nelem, Size entrysize,
											 MemoryContext cxt);

#endif							/* FIXES_STRING_HASH_H */
