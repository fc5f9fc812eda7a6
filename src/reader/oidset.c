/*
 * oidset.c — a set of object ids: open addressing over the first four bytes
 * of the id (SHA-1 output is uniform), kept at most half full
 */
#include "reader.h"

#include <string.h>

static uint32_t
hash_id(const unsigned char *id)
{
	uint32_t	h;

	memcpy(&h, id, sizeof(h));
	return h;
}

OidSet *
oidset_new(uint32_t expected)
{
	OidSet	   *s = xmalloc(sizeof(OidSet));
	uint32_t	size = 1024;

	while (size < 2 * (uint64_t) expected + 2 && size < (1u << 31))
		size *= 2;
	s->mask = size - 1;
	s->slots = xmalloc(sizeof(uint32_t) * size);
	memset(s->slots, 0, sizeof(uint32_t) * size);
	s->cap = size / 2;
	s->oids = xmalloc(sizeof(FixesOid) * s->cap);
	s->n = 0;
	return s;
}

bool
oidset_contains(const OidSet *s, const unsigned char *id)
{
	uint32_t	i = hash_id(id) & s->mask;

	for (;;)
	{
		uint32_t	slot = s->slots[i];

		if (slot == 0)
			return false;
		if (memcmp(s->oids[slot - 1].id, id, FIXES_OID_RAWSZ) == 0)
			return true;
		i = (i + 1) & s->mask;
	}
}

static void
grow(OidSet *s)
{
	uint32_t	size = (s->mask + 1) * 2;

	if (size == 0 || s->cap >= (1u << 31))
		fail("54000", NULL, NULL, "too many objects in one repository");
	s->mask = size - 1;
	s->slots = xrealloc(s->slots, sizeof(uint32_t) * size);
	memset(s->slots, 0, sizeof(uint32_t) * size);
	s->cap = size / 2;
	s->oids = xrealloc(s->oids, sizeof(FixesOid) * s->cap);
	for (uint32_t k = 0; k < s->n; k++)
	{
		uint32_t	i = hash_id(s->oids[k].id) & s->mask;

		while (s->slots[i] != 0)
			i = (i + 1) & s->mask;
		s->slots[i] = k + 1;
	}
}

bool
oidset_add(OidSet *s, const unsigned char *id)
{
	uint32_t	i;

	if (s->n == s->cap)
		grow(s);
	i = hash_id(id) & s->mask;
	for (;;)
	{
		uint32_t	slot = s->slots[i];

		if (slot == 0)
			break;
		if (memcmp(s->oids[slot - 1].id, id, FIXES_OID_RAWSZ) == 0)
			return false;
		i = (i + 1) & s->mask;
	}
	memcpy(s->oids[s->n].id, id, FIXES_OID_RAWSZ);
	s->slots[i] = ++s->n;
	return true;
}
