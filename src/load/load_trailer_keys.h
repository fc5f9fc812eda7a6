/*
 * load_trailer_keys.h — the distinct trailer keys of each commit, shared by
 * load_trailer_keys.c (kept, stored) and load_trailer_counts.c (counted)
 */
#ifndef FIXES_LOAD_TRAILER_KEYS_H
#define FIXES_LOAD_TRAILER_KEYS_H

#include "utils/hsearch.h"
#include "lib/stringinfo.h"

#include "load_state.h"

#define KEYS_CHUNK 65536
#define FIXES_KEY_CACHE 16
#define FIXES_KEY_CACHE_LEN 31

typedef struct FixesTrailerKeys
{
	bool		stored_ok;		/* the dictionary of the previous load was read */
	uint32		nstored;		/* keys it held (ids 0 .. nstored - 1) */
	HTAB	   *dict;			/* lower-cased key -> id */
	char	  **names;			/* id -> key */
	uint32		nnames;
	uint32		names_cap;
	uint32	   *ids;			/* distinct key ids of each commit, concatenated */
	uint64		nids;
	uint64		ids_cap;
	uint64	   *off;			/* by commit index: its ids start here */
	uint32	   *cnt;			/* by commit index: how many (0: none, or not known) */
	uint32		cap;
	uint32	   *scratch;		/* key ids of the commit being read */
	uint32		nscratch;
	uint32		scratch_cap;
	StringInfoData lower;
	/* the id of a key as written (before lower-casing), for the keys seen last */
	struct
	{
		uint8		len;		/* 0: empty */
		char		key[FIXES_KEY_CACHE_LEN];
		uint32		id;
	}			cache[FIXES_KEY_CACHE];
} FixesTrailerKeys;

extern FixesTrailerKeys *fixes_trailer_keys(FixesLoad *ld);
extern bool fixes_trailer_keys_read(FixesLoad *ld, const bool *want, bool new_commits);
extern void fixes_trailer_keys_write(FixesLoad *ld, int32 first, bool dictionary);
extern void fixes_trailer_keys_fetch(FixesLoad *ld, const bool *want);

extern void fixes_trailer_keys_add(FixesLoad *ld, const char *key, size_t len);
extern void fixes_trailer_keys_commit(FixesLoad *ld, uint32 idx);
extern void fixes_trailer_keys_read_dictionary(FixesLoad *ld);

#endif							/* FIXES_LOAD_TRAILER_KEYS_H */
