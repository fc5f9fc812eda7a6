/*
 * oidset.c — a set of object ids: open addressing over the first four bytes
 * of the id (SHA-1 output is uniform), kept at most half full
 *
 * A set may also have a base: ids given all at once (the commits the
 * backend holds already, a million or more for a refresh), of which only a
 * few are ever looked up.  Inserting each into the hash table costs a
 * cache miss or two, and the table's pages their first faults; the base is
 * sorted instead by the first 8 bytes of its ids, with oid_prefix.c's radix
 * sort (its passes read and write memory in order), and searched by
 * bisection.  Ids
 * added later go to the hash table.
 */
#include "reader.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/*
 * n bytes (free them with free()) that the kernel may back with huge pages:
 * the known ids and their sort keys are tens of megabytes written once, and
 * on virtual machines the first touch of each 4 kB page costs tens of
 * microseconds, more than the sort itself.
 */
void *
xmalloc_huge(size_t n)
{
	const size_t huge = (size_t) 2 * 1024 * 1024;
	void	   *p;

	if (n < huge)
		return xmalloc(n);
	if (posix_memalign(&p, huge, n) != 0)
		return xmalloc(n);
#ifdef MADV_HUGEPAGE
	(void) madvise(p, n - n % huge, MADV_HUGEPAGE);
#endif
	return p;
}

static bool
base_contains(const OidSet *s, const unsigned char *id)
{
	uint64_t	want = fixes_prefix_key(id);
	uint32_t	lo = 0;
	uint32_t	hi = s->nbase;

	/* the first entry whose key is not below the id's */
	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (s->base_keys[mid].key < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nbase && s->base_keys[lo].key == want; lo++)
		if (memcmp(s->base[s->base_keys[lo].idx].id, id, FIXES_OID_RAWSZ) == 0)
			return true;
	return false;
}

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
	s->base = NULL;
	s->nbase = 0;
	s->base_keys = NULL;
	return s;
}

/*
 * A set holding the nbase ids of base (which it keeps: do not free it),
 * duplicates allowed; ids added later go to its hash table.
 */
OidSet *
oidset_with_base(FixesOid *base, uint32_t nbase)
{
	OidSet	   *s = oidset_new(0);
	size_t		bytes = sizeof(fixes_prefix_entry) * (nbase > 0 ? (size_t) nbase : 1);
	fixes_prefix_entry *keys = xmalloc_huge(bytes);
	fixes_prefix_entry *tmp = xmalloc_huge(bytes);

	for (uint32_t i = 0; i < nbase; i++)
	{
		keys[i].key = fixes_prefix_key(base[i].id);
		keys[i].idx = i;
	}
	fixes_prefix_sort(keys, tmp, nbase);
	free(tmp);

	s->base = base;
	s->nbase = nbase;
	s->base_keys = keys;
	return s;
}

bool
oidset_contains(const OidSet *s, const unsigned char *id)
{
	uint32_t	i = hash_id(id) & s->mask;

	if (base_contains(s, id))
		return true;
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

/*
 * Add id to a set without a base; returns its index in s->oids, and in
 * *added whether it is new
 */
uint32_t
oidset_add_at(OidSet *s, const unsigned char *id, bool *added)
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
		{
			*added = false;
			return slot - 1;
		}
		i = (i + 1) & s->mask;
	}
	memcpy(s->oids[s->n].id, id, FIXES_OID_RAWSZ);
	s->slots[i] = ++s->n;
	*added = true;
	return s->n - 1;
}

bool
oidset_add(OidSet *s, const unsigned char *id)
{
	bool		added;

	if (base_contains(s, id))
		return false;
	(void) oidset_add_at(s, id, &added);
	return added;
}
