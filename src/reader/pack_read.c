/*
 * pack_read.c — the trees and blobs of the files comparison, read from the
 * pack files through a delta-base cache that holds
 *
 * A files load reads every tree and blob that a commit changed, and in a
 * pack most of them are deltas on deltas (make-history: 89% of the trees,
 * chains 20 deep on average).  libgit2 1.5 rebuilds a delta chain from the
 * bases it keeps in a cache of a fixed 16 MB per pack (GIT_PACK_CACHE_
 * MEMORY_LIMIT, compiled in), and when that is full it drops every entry at
 * once; from about 100k commits on the cache is emptied again and again,
 * and chains are inflated from their start: 2.95 inflated streams per
 * object read at 100k commits, 1.32 at 20k (bench/README.md, session 29).
 * git keeps 96 MB of bases (core.deltaBaseCacheLimit) and drops the least
 * recently used.  This file does what git does, for files.c only:
 *
 * - the pack indexes (version 2) and packs of the objects directory are
 *   checked as libgit2 checks them (the index's size and fan-out, the
 *   pack's header, object count and trailing checksum against the
 *   index's) and read through windows mapped on demand (WINDOW bytes, at
 *   most a quarter of the address space the reader may map:
 *   pack_budget());
 * - an object is found by binary search in an index, its delta chain is
 *   followed to a base or to a cached object, and the deltas are inflated
 *   and applied (git's delta format: copies from the base, inserts);
 * - every object rebuilt (bases and the objects asked for) is kept in a
 *   cache of CACHE_BYTES (or an eighth of the address space), dropped
 *   least recently used first; an object that is in use (pinned) stays.
 *
 * Nothing here decides an answer.  pack_read() returns false whenever the
 * object is not simply there: a loose object (loose.c checks those before
 * libgit2 reads them), an object of another pack or an alternate, a
 * multi-pack repository's object that is in none of the packs read here,
 * a damaged entry (a bad header, a stream that does not inflate to its
 * size, a delta that does not fit its base), an object too large for the
 * cache's limits.  files.c then reads the object with libgit2, as before,
 * which answers or fails with the message it always gave.  So an answer is
 * the same bytes either way, which test/t/reader-packs.sh checks
 * (FIXES_READER_PACKS=libgit2 turns this file off).  The checksums of the
 * objects are not verified, as libgit2 does not verify them in the reader
 * (main.c turns its strict hash verification off).
 */
#include "reader.h"
#include "delta.h"
#include "git_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define WINDOW		((size_t) 32 * 1024 * 1024)
#define WINDOW_ALIGN ((uint64_t) 1024 * 1024)
#define MAX_PACKS	256
#define MAX_CHAIN	10000		/* git has no limit; REF_DELTA could loop */
#define CACHE_BYTES ((size_t) 96 * 1024 * 1024)
#define CACHE_ONE	((size_t) 1024 * 1024)	/* a larger object is not kept */

typedef struct Window
{
	const unsigned char *data;
	uint64_t	start;
	size_t		len;
	uint64_t	used;			/* clock of the last use */
} Window;

typedef struct Pack
{
	int			fd;
	uint64_t	size;			/* of the .pack file */
	const unsigned char *idx;	/* the whole .idx file, mapped */
	size_t		idx_size;
	uint32_t	nr;
	const unsigned char *names; /* nr * 20 */
	const unsigned char *off32; /* nr * 4 */
	const unsigned char *off64; /* up to the index's end - 40 */
	size_t		n_off64;
	Window	   *windows;
	int			nwindows;
} Pack;

typedef struct Entry
{
	uint64_t	key;			/* pack << 48 | offset */
	int			type;
	size_t		size;
	unsigned char *data;		/* size + 1 bytes, a NUL after */
	uint32_t	pins;
	struct Entry *hnext;		/* hash chain */
	struct Entry *prev,
			   *next;			/* LRU: head is most recent */
} Entry;

static Pack *packs;
static int	npacks;
static int	last_pack;			/* where the last object was found */
static bool opened;
static size_t mapped,
			mapped_budget,
			window_size,
			object_max;
static uint64_t clock_now;

static Entry **buckets;
static size_t nbuckets;
static size_t nentries;
static size_t cache_used,
			cache_budget;
static Entry lru;				/* sentinel */

static z_stream zs;
static bool zs_ready;

/* for FIXES_READER_PACK_REPORT: objects given, objects left to libgit2, streams inflated */
static uint64_t n_read,
			n_left,
			n_inflated;

void
pack_report(void)
{
	if (!opened || getenv("FIXES_READER_PACK_REPORT") == NULL)
		return;
	fprintf(stderr, "packs: %llu objects read, %llu left to libgit2, %llu streams inflated, %d packs\n",
			(unsigned long long) n_read, (unsigned long long) n_left,
			(unsigned long long) n_inflated, npacks);
}

/*
 * The windows may map a quarter of the address space the reader may use,
 * the cache hold an eighth of it (CACHE_BYTES at most); no object larger
 * than a quarter is rebuilt here (object_max).
 */
static void
pack_budget(void)
{
	size_t		as = reader_address_space((size_t) 16 * 1024 * 1024 * 1024);

	object_max = as / 4;
	window_size = WINDOW;
	mapped_budget = as / 4 > WINDOW * 2 ? as / 4 : WINDOW * 2;
	cache_budget = as / 8 < CACHE_BYTES ? as / 8 : CACHE_BYTES;
	if (getenv("FIXES_READER_PACK_SMALL") != NULL)
	{
		/* for the tests: every window and cache entry is dropped and made again often */
		window_size = WINDOW_ALIGN;
		mapped_budget = 3 * WINDOW_ALIGN;
		cache_budget = 256 * 1024;
	}
}

/* check an index and its pack as libgit2 does; false leaves them to libgit2 */
static bool
pack_add(const char *idx_path)
{
	Pack		p;
	char		pack_path[4096];
	size_t		len = strlen(idx_path);
	uint32_t	prev = 0;
	uint64_t	min_size;
	unsigned char head[12];
	unsigned char trailer[20];
	struct stat st;

	memset(&p, 0, sizeof(p));
	p.fd = -1;
	if (len < 4 || len >= sizeof(pack_path))
		return false;
	memcpy(pack_path, idx_path, len - 4);
	strcpy(pack_path + len - 4, ".pack");
	if (!git_file_map(idx_path, UINT64_MAX, &p.idx, &p.idx_size))
		return false;
	if (p.idx_size < 8 + 256 * 4 + 40 || git_file_be32(p.idx) != 0xff744f63 || git_file_be32(p.idx + 4) != 2)
		goto fail;
	for (int i = 0; i < 256; i++)
	{
		uint32_t	n = git_file_be32(p.idx + 8 + 4 * i);

		if (n < prev)
			goto fail;
		prev = n;
	}
	p.nr = prev;
	min_size = 8 + 256 * 4 + (uint64_t) p.nr * (20 + 4 + 4) + 40;
	if (p.idx_size < min_size || p.idx_size > min_size + (p.nr ? (uint64_t) (p.nr - 1) * 8 : 0) ||
		(p.idx_size - min_size) % 8 != 0)
		goto fail;
	p.names = p.idx + 8 + 256 * 4;
	p.off32 = p.names + (size_t) p.nr * (20 + 4);
	p.off64 = p.off32 + (size_t) p.nr * 4;
	p.n_off64 = (p.idx_size - min_size) / 8;
	p.fd = open(pack_path, O_RDONLY | O_NONBLOCK);
	if (p.fd < 0 || fstat(p.fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto fail;
	p.size = (uint64_t) st.st_size;
	if (p.size < 12 + 20 ||
		pread(p.fd, head, 12, 0) != 12 || memcmp(head, "PACK", 4) != 0 ||
		(git_file_be32(head + 4) != 2 && git_file_be32(head + 4) != 3) || git_file_be32(head + 8) != p.nr ||
		pread(p.fd, trailer, 20, (off_t) (p.size - 20)) != 20 ||
		memcmp(trailer, p.idx + p.idx_size - 40, 20) != 0)
		goto fail;
	packs = xrealloc(packs, sizeof(Pack) * (npacks + 1));
	packs[npacks++] = p;
	return true;
fail:
	if (p.fd >= 0)
		close(p.fd);
	munmap((void *) p.idx, p.idx_size);
	return false;
}

/* false when FIXES_READER_PACKS=libgit2: every tree and blob is read by libgit2 */
bool
pack_read_enabled(void)
{
	const char *v = getenv("FIXES_READER_PACKS");

	return v == NULL || strcmp(v, "libgit2") != 0;
}

static void
packs_open(Repo *r)
{
	char		dir[4096];
	DIR		   *d;
	struct dirent *de;

	opened = true;
	atexit(pack_report);
	if (!pack_read_enabled() || r->objdir == NULL)
		return;
	pack_budget();
	lru.prev = lru.next = &lru;
	snprintf(dir, sizeof(dir), "%s/pack", r->objdir);
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL && npacks < MAX_PACKS)
	{
		size_t		n = strlen(de->d_name);
		char		path[4096];

		if (n < 5 || strcmp(de->d_name + n - 4, ".idx") != 0 ||
			strncmp(de->d_name, "pack-", 5) != 0 ||
			(size_t) snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		pack_add(path);
	}
	closedir(d);
	if (npacks > 0)
	{
		memset(&zs, 0, sizeof(zs));
		zs_ready = inflateInit(&zs) == Z_OK;
	}
}

/*
 * The bytes of pack p from pos on, at least want of them (fewer only at
 * the pack's end, before its checksum); *avail is how many there are in
 * the window.  NULL if pos is outside the pack or nothing could be mapped.
 */
static const unsigned char *
pack_at(Pack *p, uint64_t pos, size_t want, size_t *avail)
{
	uint64_t	end = p->size - 20;
	Window	   *w = NULL;
	uint64_t	start;
	size_t		len;
	void	   *m;

	if (pos >= end)
		return NULL;
	if (want > end - pos)
		want = (size_t) (end - pos);
	for (int i = 0; i < p->nwindows; i++)
		if (p->windows[i].start <= pos && pos + want <= p->windows[i].start + p->windows[i].len)
		{
			w = &p->windows[i];
			break;
		}
	if (w == NULL)
	{
		start = pos & ~(WINDOW_ALIGN - 1);
		len = window_size;
		if (pos + want - start > len)
			len = (size_t) (pos + want - start);
		if (start + len > p->size)
			len = (size_t) (p->size - start);
		/* make room: unmap the least recently used windows of every pack */
		while (mapped + len > mapped_budget)
		{
			Pack	   *vp = NULL;
			int			vi = -1;

			for (int k = 0; k < npacks; k++)
				for (int i = 0; i < packs[k].nwindows; i++)
					if (vp == NULL || packs[k].windows[i].used < vp->windows[vi].used)
						vp = &packs[k], vi = i;
			if (vp == NULL)
				break;
			munmap((void *) vp->windows[vi].data, vp->windows[vi].len);
			mapped -= vp->windows[vi].len;
			vp->windows[vi] = vp->windows[--vp->nwindows];
		}
		m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, p->fd, (off_t) start);
		if (m == MAP_FAILED)
			return NULL;
		p->windows = xrealloc(p->windows, sizeof(Window) * (p->nwindows + 1));
		w = &p->windows[p->nwindows++];
		w->data = m;
		w->start = start;
		w->len = len;
		mapped += len;
	}
	w->used = ++clock_now;
	*avail = (size_t) (w->start + w->len - pos);
	if (*avail > end - pos)
		*avail = (size_t) (end - pos);
	return w->data + (pos - w->start);
}

/* the offset of object id in pack p, or 0 */
static uint64_t
pack_find(const Pack *p, const unsigned char *id)
{
	uint32_t	at;
	uint32_t	o;
	uint64_t	off;

	if (!git_file_fanout_find(p->idx + 8, p->names, p->nr, id, &at))
		return 0;
	o = git_file_be32(p->off32 + (size_t) at * 4);
	if (o & 0x80000000u)
	{
		o &= 0x7fffffffu;
		if (o >= p->n_off64)
			return 0;
		off = git_file_be64(p->off64 + (size_t) o * 8);
	}
	else
		off = o;
	return off >= 12 && off < p->size - 20 ? off : 0;
}

/* the cache */

static size_t
hash_of(uint64_t key)
{
	key ^= key >> 29;
	key *= UINT64_C(0xbf58476d1ce4e5b9);
	key ^= key >> 32;
	return (size_t) key & (nbuckets - 1);
}

static void
lru_unlink(Entry *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
}

static void
lru_front(Entry *e)
{
	e->next = lru.next;
	e->prev = &lru;
	lru.next->prev = e;
	lru.next = e;
}

static Entry *
cache_get(uint64_t key)
{
	if (nbuckets == 0)
		return NULL;
	for (Entry *e = buckets[hash_of(key)]; e != NULL; e = e->hnext)
		if (e->key == key)
		{
			lru_unlink(e);
			lru_front(e);
			return e;
		}
	return NULL;
}

static void
cache_drop(Entry *e)
{
	Entry	  **pp = &buckets[hash_of(e->key)];

	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
	lru_unlink(e);
	cache_used -= e->size + sizeof(Entry);
	nentries--;
	free(e->data);
	free(e);
}

static void
cache_grow(void)
{
	size_t		n = nbuckets ? nbuckets * 2 : 4096;
	Entry	  **b = xmalloc(sizeof(Entry *) * n);
	Entry	  **old = buckets;
	size_t		oldn = nbuckets;

	memset(b, 0, sizeof(Entry *) * n);
	buckets = b;
	nbuckets = n;
	for (size_t i = 0; i < oldn; i++)
		for (Entry *e = old[i], *next; e != NULL; e = next)
		{
			size_t		h = hash_of(e->key);

			next = e->hnext;
			e->hnext = buckets[h];
			buckets[h] = e;
		}
	free(old);
}

/* a new pinned entry owning data; evicts the least recently used unpinned ones */
static Entry *
cache_put(uint64_t key, int type, unsigned char *data, size_t size)
{
	Entry	   *e = xmalloc(sizeof(Entry));
	size_t		h;

	e->key = key;
	e->type = type;
	e->data = data;
	e->size = size;
	e->pins = 1;
	if (size > CACHE_ONE)
	{
		/* not kept: an entry of its own, freed when released */
		e->hnext = NULL;
		e->prev = e->next = e;
		return e;
	}
	for (Entry *v = lru.prev; v != &lru && cache_used + size + sizeof(Entry) > cache_budget;)
	{
		Entry	   *prev = v->prev;

		if (v->pins == 0)
			cache_drop(v);
		v = prev;
	}
	if (nentries >= nbuckets)
		cache_grow();
	h = hash_of(key);
	e->hnext = buckets[h];
	buckets[h] = e;
	lru_front(e);
	cache_used += size + sizeof(Entry);
	nentries++;
	return e;
}

static void
entry_release(Entry *e)
{
	if (--e->pins > 0)
		return;
	if (e->next == e)			/* not kept */
	{
		free(e->data);
		free(e);
	}
}

/* inflate the stream at pos of pack p into exactly size bytes; NULL if it does not */
static unsigned char *
inflate_at(Pack *p, uint64_t pos, size_t size)
{
	unsigned char *out;
	size_t		avail;
	const unsigned char *in;
	int			rc;

	if (!zs_ready || size > object_max)
		return NULL;
	out = malloc(size + 1);
	if (out == NULL)
		return NULL;
	n_inflated++;
	if (inflateReset(&zs) != Z_OK)
		goto fail;
	zs.next_out = out;
	zs.avail_out = (uInt) size;
	zs.avail_in = 0;
	if (size > UINT32_MAX)
		goto fail;
	for (;;)
	{
		uInt		in_before,
					out_before;

		if (zs.avail_in == 0)
		{
			in = pack_at(p, pos, size < window_size / 2 ? size + size / 8 + 64 : window_size / 2, &avail);
			if (in == NULL)
				goto fail;
			zs.next_in = (unsigned char *) in;
			zs.avail_in = avail > UINT32_MAX ? UINT32_MAX : (uInt) avail;
		}
		in_before = zs.avail_in;
		out_before = zs.avail_out;
		rc = inflate(&zs, Z_NO_FLUSH);
		pos += in_before - zs.avail_in;
		if (rc == Z_STREAM_END)
			break;
		if ((rc != Z_OK && rc != Z_BUF_ERROR) ||
			(in_before == zs.avail_in && out_before == zs.avail_out) ||
			(zs.avail_out == 0 && zs.avail_in > 0 && rc == Z_BUF_ERROR))
			goto fail;
	}
	if (zs.total_out != size)
		goto fail;
	out[size] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

typedef struct Link
{
	uint64_t	offset;			/* of the entry's header */
	uint64_t	data;			/* of its zlib stream */
	size_t		size;			/* inflated */
	int			type;
} Link;

/* the header of the entry at offset: its type, inflated size, stream start and (deltas) base */
static bool
entry_header(Pack *p, uint64_t offset, Link *l, uint64_t *base)
{
	size_t		avail;
	const unsigned char *h = pack_at(p, offset, 32, &avail);
	size_t		used = 0;
	unsigned char c;
	size_t		size;
	int			shift = 4;

	if (h == NULL || avail == 0)
		return false;
	c = h[used++];
	l->type = (c >> 4) & 7;
	size = c & 15;
	while (c & 0x80)
	{
		if (used >= avail || shift > 57)
			return false;
		c = h[used++];
		size |= (size_t) (c & 0x7f) << shift;
		shift += 7;
	}
	l->offset = offset;
	l->size = size;
	if (l->type == GIT_OBJECT_OFS_DELTA)
	{
		uint64_t	back;

		if (used >= avail)
			return false;
		c = h[used++];
		back = c & 127;
		while (c & 128)
		{
			if (used >= avail || back >= (UINT64_C(1) << 56))
				return false;
			c = h[used++];
			back = ((back + 1) << 7) | (c & 127);
		}
		if (back == 0 || back >= offset)
			return false;
		*base = offset - back;
	}
	else if (l->type == GIT_OBJECT_REF_DELTA)
	{
		if (avail - used < 20)
			return false;
		*base = pack_find(p, h + used);
		used += 20;
		if (*base == 0 || *base == offset)
			return false;
	}
	else if (l->type < GIT_OBJECT_COMMIT || l->type > GIT_OBJECT_TAG)
		return false;
	l->data = offset + used;
	return true;
}

/* the object at offset of pack number pi, rebuilt and pinned; NULL if it cannot be here */
static Entry *
object_at(int pi, uint64_t offset)
{
	Pack	   *p = &packs[pi];
	Link		small[64];
	Link	   *chain = small;
	size_t		n = 0,
				cap = 64;
	Entry	   *cur = NULL;
	uint64_t	at = offset;

	for (;;)
	{
		uint64_t	base = 0;

		if ((cur = cache_get(((uint64_t) pi << 48) | at)) != NULL)
		{
			cur->pins++;
			break;
		}
		if (n == cap)
		{
			if (n >= MAX_CHAIN)
				goto fail;
			cap *= 2;
			chain = chain == small ? memcpy(xmalloc(sizeof(Link) * cap), small, sizeof(small))
				: xrealloc(chain, sizeof(Link) * cap);
		}
		if (!entry_header(p, at, &chain[n], &base))
			goto fail;
		n++;
		if (chain[n - 1].type != GIT_OBJECT_OFS_DELTA && chain[n - 1].type != GIT_OBJECT_REF_DELTA)
		{
			Link	   *l = &chain[--n];
			unsigned char *data = inflate_at(p, l->data, l->size);

			if (data == NULL)
				goto fail;
			cur = cache_put(((uint64_t) pi << 48) | l->offset, l->type, data, l->size);
			break;
		}
		at = base;
	}
	while (n > 0)
	{
		Link	   *l = &chain[--n];
		unsigned char *delta = inflate_at(p, l->data, l->size);
		unsigned char *data;
		size_t		size = 0;

		if (delta == NULL)
			goto fail;
		data = delta_apply(cur->data, cur->size, delta, l->size, object_max, &size);
		free(delta);
		if (data == NULL)
			goto fail;
		{
			int			type = cur->type;

			entry_release(cur);
			cur = cache_put(((uint64_t) pi << 48) | l->offset, type, data, size);
		}
	}
	if (chain != small)
		free(chain);
	return cur;
fail:
	if (cur != NULL)
		entry_release(cur);
	if (chain != small)
		free(chain);
	return NULL;
}

/*
 * Object id of the given type (GIT_OBJECT_TREE or GIT_OBJECT_BLOB) into
 * *out, pinned until pack_release(); false: read it with libgit2.
 */
bool
pack_read(Repo *r, const git_oid *id, git_object_t type, PackObject *out)
{
	if (!opened)
		packs_open(r);
	if (npacks == 0 || (r->loose != NULL && oidset_contains(r->loose, id->id)))
	{
		n_left++;
		return false;
	}
	for (int k = 0; k < npacks; k++)
	{
		int			pi = (last_pack + k) % npacks;
		uint64_t	off = pack_find(&packs[pi], id->id);
		Entry	   *e;

		if (off == 0)
			continue;
		last_pack = pi;
		e = object_at(pi, off);
		if (e != NULL && e->type != (int) type)
		{
			entry_release(e);
			e = NULL;
		}
		if (e == NULL)
			break;
		out->data = e->data;
		out->size = e->size;
		out->entry = e;
		n_read++;
		return true;
	}
	n_left++;
	return false;
}

void
pack_release(PackObject *o)
{
	if (o->entry != NULL)
		entry_release(o->entry);
	o->entry = NULL;
}
