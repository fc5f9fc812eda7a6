/*
 * oid_prefix.h — find the commits whose id starts with an abbreviated hex id
 */
#ifndef FIXES_OID_PREFIX_H
#define FIXES_OID_PREFIX_H

#include <stddef.h>
#include <stdint.h>

/* one commit in the sorted index: the first 8 bytes of its id, big-endian */
typedef struct fixes_prefix_entry
{
	uint64_t	key;
	uint32_t	idx;
} fixes_prefix_entry;

extern uint64_t fixes_prefix_key(const unsigned char *raw_id);
extern void fixes_prefix_sort(fixes_prefix_entry *entries, fixes_prefix_entry *tmp, size_t n);
extern size_t fixes_prefix_range(const fixes_prefix_entry *entries, size_t n,
								 const char *hex, size_t hex_len, size_t *first);
extern int	fixes_hex_prefix_matches(const unsigned char *raw_id, const char *hex, size_t hex_len);

#endif							/* FIXES_OID_PREFIX_H */
