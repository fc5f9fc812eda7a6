/*
 * test_inflate.c — src/reader/inflate.c (zlib's four inflate functions on
 * ISA-L, issue 45) against zlib itself, as libgit2 and loose.c use them.
 *
 * This program links inflate.c: its inflateInit_, inflate, inflateReset
 * and inflateEnd are the wrapper's (ISA-L; FIXES_READER_INFLATE unset),
 * and zlib's own come from dlsym(RTLD_NEXT).  For every stream the two
 * must give the same bytes, the same final total_in and total_out, the
 * same bytes left in avail_in after the end (the trailing bytes that follow
 * a stream in a pack window) and the same class of return code:
 * - data from zlib at levels 0 (stored blocks), 1, 6, 9, with fixed and
 *   Huffman-only codes, 0 bytes to 300 KB (several blocks; more than
 *   ISA-L's 64 KB buffer), followed by trailing bytes;
 * - fed in chunks of 1..all input bytes into output spaces of 1..size+1
 *   bytes (Z_NO_FLUSH), and as libgit2 calls it (all input, size + 1
 *   bytes of output, Z_FINISH), also with 100 KB after the stream (the
 *   rest of a pack window: the wrapper gives it to ISA-L in parts), and
 *   into exactly the space the stream needs (zlib ends the stream in the
 *   call that fills it), and as libgit2 reads a loose object (64 bytes,
 *   then exactly the rest: it fails unless that call ends the stream);
 * - a stream longer than its output space (a hostile object): Z_BUF_ERROR
 *   and nothing written past the space (a guard page), and a loop that
 *   calls again while input is consumed ends;
 * - the input's last byte before a guard page (no read past avail_in);
 * - damaged streams (bytes flipped in the header, the data, the adler32;
 *   truncated): both end, or both fail with Z_DATA_ERROR, or both stop
 *   without an end; header errors with zlib's message;
 * - a preset dictionary (Z_NEED_DICT and its id), Z_STREAM_ERROR cases,
 *   inflateReset, a custom zalloc/zfree, the spare state, and a stream
 *   made by zlib's own inflateInit_ passed to the wrapper (forwarded).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "unit.h"

typedef int (*init_fn) (z_streamp, const char *, int);
typedef int (*inflate_fn) (z_streamp, int);
typedef int (*stream_fn) (z_streamp);

static init_fn real_init;
static inflate_fn real_inflate;
static stream_fn real_end;

/* the wrapper's, through the names libgit2 calls */
static int
our_init(z_streamp z)
{
	return inflateInit(z);
}

typedef struct Result
{
	int			rc;				/* the last return code */
	int			end;			/* Z_STREAM_END seen */
	unsigned char *out;
	size_t		nout;
	uLong		total_in;
	uLong		total_out;
	size_t		left;			/* input bytes not consumed after the last call */
	long		calls;
} Result;

/* the class of a final return code: end, data error, need dict, or stopped */
static int
rc_class(int rc)
{
	switch (rc)
	{
		case Z_STREAM_END:
			return 1;
		case Z_DATA_ERROR:
			return 2;
		case Z_NEED_DICT:
			return 3;
		case Z_MEM_ERROR:
			return 4;
		case Z_STREAM_ERROR:
			return 5;
		default:
			return 0;			/* Z_OK or Z_BUF_ERROR: stopped without an end */
	}
}

/*
 * Inflate in[0..len) in chunks of inchunk input bytes into spaces of
 * outchunk bytes (of cap in all), until the end, an error, or no progress
 * twice (input all given).
 */
static void
run(bool ours, const unsigned char *in, size_t len, size_t inchunk, size_t outchunk,
	size_t cap, int flush, Result *r)
{
	z_stream	z;
	size_t		pos = 0;
	int			stuck = 0;
	long		limit = (long) (len + cap) * 4 + 100;

	memset(&z, 0, sizeof(z));
	memset(r, 0, sizeof(*r));
	r->out = malloc(cap + 1);
	r->rc = ours ? our_init(&z) : real_init(&z, ZLIB_VERSION, (int) sizeof(z_stream));
	if (r->rc != Z_OK)
		return;
	while (r->calls < limit)
	{
		size_t		give = len - pos < inchunk ? len - pos : inchunk;
		size_t		room = cap - r->nout < outchunk ? cap - r->nout : outchunk;
		uInt		in0,
					out0;

		z.next_in = (unsigned char *) in + pos;
		z.avail_in = (uInt) give;
		z.next_out = r->out + r->nout;
		z.avail_out = (uInt) room;
		in0 = z.avail_in;
		out0 = z.avail_out;
		r->rc = ours ? inflate(&z, flush) : real_inflate(&z, flush);
		r->calls++;
		if (z.next_in != in + pos + (in0 - z.avail_in) ||
			z.next_out != r->out + r->nout + (out0 - z.avail_out))
		{
			r->rc = -100;		/* next_in / next_out not moved with avail_* */
			break;
		}
		pos += in0 - z.avail_in;
		r->nout += out0 - z.avail_out;
		if (r->rc != Z_OK && r->rc != Z_BUF_ERROR)
			break;
		if (in0 == z.avail_in && out0 == z.avail_out)
		{
			/* no progress: stop once all input is given and the space is there */
			if ((pos == len || give < inchunk) && (room > 0 || r->nout == cap) && ++stuck >= 2)
				break;
		}
		else
			stuck = 0;
	}
	r->end = r->rc == Z_STREAM_END;
	r->total_in = z.total_in;
	r->total_out = z.total_out;
	r->left = len - pos;
	if (ours)
		inflateEnd(&z);
	else
		real_end(&z);
}

static unit_counts u = {0, 0};

/*
 * libgit2 1.5's read of a loose object (odb_loose.c, read_loose_standard(),
 * through zstream.c's git_zstream_get_output()): all input given, the first
 * 64 bytes (the header; here FIRST), then exactly the rest of the object, each asked
 * with Z_FINISH in a loop while space is left and the stream has not ended;
 * the read fails unless the stream ended with no input left.  Returns the
 * last return code; *left is the input not consumed, *out_ok whether the
 * bytes are data[0..n).
 */
static int
git_loose_read(bool ours, const unsigned char *in, size_t len, const unsigned char *data,
			   size_t n, size_t first, size_t *left, bool *out_ok)
{
	z_stream	z;
	unsigned char *out = malloc(n + first + 1);
	size_t		asks[2] = {n < first ? n + 1 : first, 0},
				got = 0;
	int			rc = Z_OK;

	memset(&z, 0, sizeof(z));
	if (ours)
		our_init(&z);
	else
		real_init(&z, ZLIB_VERSION, (int) sizeof(z_stream));
	z.next_in = (unsigned char *) in;
	z.avail_in = (uInt) len;
	for (int k = 0; k < 2; k++)
	{
		size_t		remain = k == 0 ? asks[0] : n - got;

		while (remain > 0 && rc != Z_STREAM_END)
		{
			uInt		before;

			z.next_out = out + got;
			z.avail_out = (uInt) remain;
			before = z.avail_out;
			rc = ours ? inflate(&z, Z_FINISH) : real_inflate(&z, Z_FINISH);
			if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END)
				break;
			if (before == z.avail_out && rc == Z_BUF_ERROR)
				break;			/* "premature end of zlib stream" */
			got += before - z.avail_out;
			remain -= before - z.avail_out;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END)
			break;
	}
	*left = z.avail_in;
	*out_ok = got == n && memcmp(out, data, n) == 0;
	if (ours)
		inflateEnd(&z);
	else
		real_end(&z);
	free(out);
	return rc;
}

/* ours and zlib's on the same input and chunks: the same result */
static void
compare(const char *what, const unsigned char *in, size_t len, size_t inchunk,
		size_t outchunk, size_t cap, int flush, bool full)
{
	Result		a,
				b;

	run(false, in, len, inchunk, outchunk, cap, flush, &a);
	run(true, in, len, inchunk, outchunk, cap, flush, &b);
	CHECK(&u, rc_class(a.rc) == rc_class(b.rc) && b.rc != -100,
		  "%s (in %zu, out %zu): zlib ended with %d, the wrapper with %d", what, inchunk,
		  outchunk, a.rc, b.rc);
	if (full || a.end)
	{
		CHECK(&u, a.nout == b.nout && memcmp(a.out, b.out, a.nout) == 0,
			  "%s (in %zu, out %zu): %zu bytes out from zlib, %zu from the wrapper%s", what,
			  inchunk, outchunk, a.nout, b.nout,
			  a.nout == b.nout ? " (different bytes)" : "");
		CHECK(&u, a.total_in == b.total_in && a.total_out == b.total_out && a.left == b.left,
			  "%s (in %zu, out %zu): totals in/out %lu/%lu and %zu left (zlib) against %lu/%lu and %zu left",
			  what, inchunk, outchunk, a.total_in, a.total_out, a.left, b.total_in, b.total_out,
			  b.left);
	}
	free(a.out);
	free(b.out);
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* text-like data with repeats (long matches, far distances) and noise */
static void
fill(unsigned char *d, size_t n)
{
	static const char *words[] = {"fix ", "the ", "commit ", "Signed-off-by: ", "\n", "bug ",
	"release ", "0123456789abcdef", "struct inflate_state "};

	for (size_t i = 0; i < n;)
	{
		uint64_t	r = next_rand();

		if (r % 7 == 0 && i > 300)
		{
			size_t		dist = 1 + (r >> 8) % (i < 40000 ? i : 40000);
			size_t		l = 3 + (r >> 24) % 200;

			for (size_t k = 0; k < l && i < n; k++, i++)
				d[i] = d[i - dist];
		}
		else if (r % 7 == 1)
			d[i++] = (unsigned char) (r >> 16);
		else
		{
			const char *w = words[(r >> 8) % (sizeof(words) / sizeof(words[0]))];

			for (size_t k = 0; w[k] && i < n; k++)
				d[i++] = (unsigned char) w[k];
		}
	}
}

/* zlib's stream of d[0..n) at level (strategy), followed by the trailing bytes */
static unsigned char *
compress_with(const unsigned char *d, size_t n, int level, int strategy, size_t *len,
			  const char *trailing)
{
	z_stream	z;
	size_t		cap = deflateBound(NULL, n) + 64 + strlen(trailing);
	unsigned char *c = malloc(cap);

	memset(&z, 0, sizeof(z));
	deflateInit2(&z, level, Z_DEFLATED, MAX_WBITS, 8, strategy);
	z.next_in = (unsigned char *) d;
	z.avail_in = (uInt) n;
	z.next_out = c;
	z.avail_out = (uInt) cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*len = z.total_out;
	deflateEnd(&z);
	memcpy(c + *len, trailing, strlen(trailing));
	*len += strlen(trailing);
	return c;
}

/* a copy of p[0..n) that ends where a PROT_NONE page starts */
static unsigned char *
before_guard(const unsigned char *p, size_t n, void **map, size_t *maplen)
{
	size_t		page = (size_t) sysconf(_SC_PAGESIZE);
	size_t		pages = (n + page - 1) / page + 1;
	unsigned char *m = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
							MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		abort();
	mprotect(m + (pages - 1) * page, page, PROT_NONE);
	*map = m;
	*maplen = pages * page;
	if (p != NULL)
		memcpy(m + (pages - 1) * page - n, p, n);
	return m + (pages - 1) * page - n;
}

static void *counted_alloc(voidpf opaque, uInt items, uInt size);
static void counted_free(voidpf opaque, voidpf address);
static int	allocs,
			frees;

static void *
counted_alloc(voidpf opaque, uInt items, uInt size)
{
	(void) opaque;
	allocs++;
	return calloc(items, size);
}

static void
counted_free(voidpf opaque, voidpf address)
{
	(void) opaque;
	frees++;
	free(address);
}

int
main(void)
{
	static const size_t sizes[] = {0, 1, 100, 5000, 70000, 300000};
	static const int levels[] = {0, 1, 6, 9};
	const char *trailing = "TRAILING bytes of the next object";
	size_t		tl = strlen(trailing);
	unsigned char *data = malloc(300000);

	real_init = (init_fn) dlsym(RTLD_NEXT, "inflateInit_");
	real_inflate = (inflate_fn) dlsym(RTLD_NEXT, "inflate");
	real_end = (stream_fn) dlsym(RTLD_NEXT, "inflateEnd");
	CHECK(&u, real_init != NULL && real_inflate != NULL && real_end != NULL &&
		  (void *) real_inflate != (void *) inflate,
		  "zlib's own functions found, and the wrapper's are others");
	if (real_init == NULL || real_inflate == NULL || real_end == NULL)
		return unit_report("test_inflate", &u);
	fill(data, 300000);

	/* 1. good streams, every way of feeding them */
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (int v = 0; v < 6; v++)
		{
			size_t		n = sizes[si],
						len;
			int			level = v < 4 ? levels[v] : 6;
			int			strategy = v == 4 ? Z_FIXED : v == 5 ? Z_HUFFMAN_ONLY : Z_DEFAULT_STRATEGY;
			unsigned char *c = compress_with(data, n, level, strategy, &len, trailing);
			char		what[128];
			size_t		ins[] = {1, 2, 7, 61, 4096, len};
			size_t		outs[] = {1, 3, 1000, 65536, n, n + 1};

			snprintf(what, sizeof(what), "%zu bytes, level %d, strategy %d", n, level, strategy);
			for (size_t i = 0; i < sizeof(ins) / sizeof(ins[0]); i++)
				for (size_t o = 0; o < sizeof(outs) / sizeof(outs[0]); o++)
				{
					if (outs[o] == 0)
						continue;
					/* 1-byte steps over the largest streams: one case each is enough */
					if (n >= 70000 && (ins[i] < 61 || outs[o] < 1000) && !(i == 0 && o == 5) &&
						!(i == 5 && o == 0))
						continue;
					compare(what, c, len, ins[i], outs[o], n + 1, Z_NO_FLUSH, true);
				}
			/*
			 * exactly the output space the stream needs (cap n, not n + 1):
			 * zlib ends the stream in the call that fills it, reading the end
			 * of block and the adler32 with no space left; libgit2's loose
			 * object read relies on it (its header's 64 bytes, then exactly
			 * the rest, Z_FINISH, and "stream aborted prematurely" unless
			 * Z_STREAM_END)
			 */
			compare(what, c, len, len, 64, n, Z_FINISH, true);
			compare(what, c, len, len, n, n, Z_FINISH, true);
			compare(what, c, len, 61, 1000, n, Z_NO_FLUSH, true);
			/* as libgit2 reads a loose object: the header, then exactly the rest */
			{
				size_t		la,
							lb;
				bool		oka,
							okb;
				size_t		firsts[] = {1, 64, 1000, n / 2, n > 1 ? n - 1 : 1};

				for (size_t f = 0; f < sizeof(firsts) / sizeof(firsts[0]) && firsts[f] > 0; f++)
				{
					int			ra = git_loose_read(false, c, len - tl, data, n, firsts[f], &la, &oka);
					int			rb = git_loose_read(true, c, len - tl, data, n, firsts[f], &lb, &okb);

					CHECK(&u, ra == Z_STREAM_END && rb == Z_STREAM_END && la == 0 && lb == 0 &&
						  oka && okb,
						  "%s, as libgit2 reads a loose object (%zu bytes, then the rest): zlib %d (%zu left), wrapper %d (%zu left)",
						  what, firsts[f], ra, la, rb, lb);
				}
			}
			/* as libgit2 calls it: all input, size + 1 bytes, Z_FINISH, one call */
			{
				Result		a,
							b;

				run(false, c, len, len, n + 1, n + 1, Z_FINISH, &a);
				run(true, c, len, len, n + 1, n + 1, Z_FINISH, &b);
				CHECK(&u, a.rc == Z_STREAM_END && b.rc == Z_STREAM_END && b.calls == 1 &&
					  b.nout == n && memcmp(b.out, data, n) == 0 && b.left == tl &&
					  b.total_in == len - tl && b.total_out == n,
					  "%s, as libgit2: zlib %d, wrapper %d in %ld calls, %zu bytes, %zu left",
					  what, a.rc, b.rc, b.calls, b.nout, b.left);
				free(a.out);
				free(b.out);
			}
			free(c);
		}

	/*
	 * 1a. as libgit2 reads a loose object, on the loose blobs of
	 * reader-workers.sh's history (the lines i..3i-1, git's header, level 1):
	 * streams of 1-25 KB, some of whose ends fall where ISA-L stops with the
	 * output space full and the end of block or the adler32 unread
	 */
	for (int i = 20; i <= 1200; i++)
	{
		unsigned char *lines = malloc(40 * 1200 + 64);
		size_t		n = 0,
					len,
					left[2];
		bool		ok[2];
		int			rc[2];
		unsigned char *c;

		char		head[32];

		for (int k = i; k < 3 * i; k++)
			n += (size_t) sprintf((char *) lines + 32 + n, "%d\n", k);
		/* as git writes it: "blob SIZE\0" and the content, at core.looseCompression's level 1 */
		snprintf(head, sizeof(head), "blob %zu", n);
		memmove(lines + strlen(head) + 1, lines + 32, n);
		memcpy(lines, head, strlen(head) + 1);
		n += strlen(head) + 1;
		c = compress_with(lines, n, 1, Z_DEFAULT_STRATEGY, &len, "");
		for (int which = 0; which < 2; which++)
			rc[which] = git_loose_read(which == 1, c, len, lines, n, 64, &left[which], &ok[which]);
		CHECK(&u, rc[0] == Z_STREAM_END && rc[1] == Z_STREAM_END && left[0] == 0 && left[1] == 0 &&
			  ok[0] && ok[1],
			  "the lines %d..%d (%zu bytes) as libgit2 reads a loose object: zlib %d (%zu left), wrapper %d (%zu left)",
			  i, 3 * i - 1, n, rc[0], left[0], rc[1], left[1]);
		free(c);
		free(lines);
	}

	/* 1b. as libgit2, with the rest of a pack after the stream (100 KB): the same totals */
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
	{
		size_t		n = sizes[si],
					len;
		unsigned char *c = compress_with(data, n, 6, Z_DEFAULT_STRATEGY, &len, "");
		unsigned char *w = malloc(len + 100000);
		char		what[128];

		memcpy(w, c, len);
		memcpy(w + len, data, 100000);	/* a stream's bytes, as the next object's */
		snprintf(what, sizeof(what), "%zu bytes and 100 KB after the stream", n);
		compare(what, w, len + 100000, len + 100000, n + 1, n + 1, Z_FINISH, true);
		compare(what, w, len + 100000, 5000, 3000, n + 1, Z_NO_FLUSH, true);
		free(w);
		free(c);
	}

	/* 2. a stream longer than its output space, which ends on a guard page */
	{
		size_t		len,
					n = 70000,
					maplen;
		unsigned char *c = compress_with(data, n, 6, Z_DEFAULT_STRATEGY, &len, trailing);
		void	   *map;
		unsigned char *out = before_guard(NULL, 5000, &map, &maplen);

		for (int which = 0; which < 2; which++)
		{
			z_stream	z;
			int			rc,
						calls = 0;
			uLong		got;

			memset(&z, 0, sizeof(z));
			rc = which ? our_init(&z) : real_init(&z, ZLIB_VERSION, (int) sizeof(z_stream));
			z.next_in = c;
			z.avail_in = (uInt) len;
			z.next_out = out;
			z.avail_out = 5000;
			rc = which ? inflate(&z, Z_FINISH) : real_inflate(&z, Z_FINISH);
			got = z.total_out;
			CHECK(&u, rc == Z_BUF_ERROR && z.avail_out == 0 && got == 5000 &&
				  memcmp(out, data, 5000) == 0,
				  "%s: a stream longer than the space: %d, %lu bytes", which ? "wrapper" : "zlib",
				  rc, got);
			/* libgit2's loop: again with no space while input is consumed */
			do
			{
				uInt		before = z.avail_in;

				rc = which ? inflate(&z, Z_FINISH) : real_inflate(&z, Z_FINISH);
				calls++;
				if (z.avail_in == before)
					break;
			} while (calls < 100000);
			CHECK(&u, rc == Z_BUF_ERROR && calls < 100 && z.total_out == 5000,
				  "%s: with no space, %d calls, last %d, %lu bytes out",
				  which ? "wrapper" : "zlib", calls, rc, z.total_out);
			if (which)
				inflateEnd(&z);
			else
				real_end(&z);
		}
		munmap(map, maplen);
		free(c);
	}

	/* 3. the input's last byte before a guard page: no read past avail_in */
	for (int v = 0; v < 3; v++)
	{
		size_t		len,
					n = v == 0 ? 1 : v == 1 ? 5000 : 70000,
					maplen;
		unsigned char *c = compress_with(data, n, v == 0 ? 0 : 6, Z_DEFAULT_STRATEGY, &len, "");
		void	   *map;
		unsigned char *g = before_guard(c, len, &map, &maplen);

		compare("input before a guard page", g, len, len, n + 1, n + 1, Z_FINISH, true);
		compare("input before a guard page, 3 bytes at a time", g, len, 3, 100, n + 1,
				Z_NO_FLUSH, true);
		munmap(map, maplen);
		free(c);
	}

	/* 4. damaged streams: bytes flipped, truncated */
	for (int v = 0; v < 3; v++)
	{
		size_t		len,
					n = v == 0 ? 5000 : v == 1 ? 70000 : 300,
					slen;
		unsigned char *c = compress_with(data, n, v == 2 ? 0 : 6, Z_DEFAULT_STRATEGY, &len, trailing);
		unsigned char *d = malloc(len);
		char		what[128];

		slen = len - tl;
		for (int k = 0; k < 60; k++)
		{
			size_t		at;

			/* the header, the first deflate bytes, anywhere, the adler32 */
			at = k < 2 ? (size_t) k : k < 8 ? 2 + (size_t) k : k < 52 ? 2 + next_rand() % (slen - 6) :
				slen - 4 + (size_t) (k % 4);
			memcpy(d, c, len);
			d[at] ^= (unsigned char) (1 + next_rand() % 255);
			snprintf(what, sizeof(what), "%zu bytes, byte %zu of %zu flipped", n, at, slen);
			compare(what, d, len, len, n + 1, n + 1, Z_FINISH, false);
			compare(what, d, len, 13, 777, n + 1, Z_NO_FLUSH, false);
		}
		for (size_t cut = 0; cut < slen; cut += cut < 8 ? 1 : slen / 9)
		{
			snprintf(what, sizeof(what), "%zu bytes, cut at %zu of %zu", n, cut, slen);
			compare(what, c, cut, cut, n + 1, n + 1, Z_FINISH, true);
			compare(what, c, cut, 5, 333, n + 1, Z_NO_FLUSH, true);
		}
		compare("the adler32 cut short", c, slen - 1, slen - 1, n + 1, n + 1, Z_FINISH, true);
		free(d);
		free(c);
	}

	/* 5. header errors: zlib's messages */
	{
		static const unsigned char bad[][2] = {{0x78, 0x9d}, {0x77, 0x9c}, {0x88, 0x98}};

		for (int k = 0; k < 3; k++)
		{
			z_stream	a,
						b;
			unsigned char buf[16],
						in[8] = {0};
			int			ra,
						rb;

			memcpy(in, bad[k], 2);
			memset(&a, 0, sizeof(a));
			memset(&b, 0, sizeof(b));
			real_init(&a, ZLIB_VERSION, (int) sizeof(z_stream));
			our_init(&b);
			a.next_in = b.next_in = in;
			a.avail_in = b.avail_in = sizeof(in);
			a.next_out = b.next_out = buf;
			a.avail_out = b.avail_out = sizeof(buf);
			ra = real_inflate(&a, Z_NO_FLUSH);
			rb = inflate(&b, Z_NO_FLUSH);
			CHECK(&u, ra == Z_DATA_ERROR && rb == Z_DATA_ERROR && a.msg && b.msg &&
				  strcmp(a.msg, b.msg) == 0,
				  "bad header %02x %02x: zlib %d \"%s\", wrapper %d \"%s\"", bad[k][0], bad[k][1],
				  ra, a.msg ? a.msg : "", rb, b.msg ? b.msg : "");
			rb = inflate(&b, Z_NO_FLUSH);
			CHECK(&u, rb == Z_DATA_ERROR, "an error is sticky: %d", rb);
			real_end(&a);
			inflateEnd(&b);
		}
	}

	/* 6. a preset dictionary: Z_NEED_DICT and its id, as zlib */
	{
		z_stream	z;
		unsigned char c[256],
					out[64];
		const char *dict = "a preset dictionary";
		Result		r[2];

		memset(&z, 0, sizeof(z));
		deflateInit(&z, 6);
		deflateSetDictionary(&z, (const Bytef *) dict, (uInt) strlen(dict));
		z.next_in = (unsigned char *) "a preset dictionary, used";
		z.avail_in = 25;
		z.next_out = c;
		z.avail_out = sizeof(c);
		deflate(&z, Z_FINISH);
		for (int which = 0; which < 2; which++)
		{
			z_stream	y;

			memset(&y, 0, sizeof(y));
			if (which)
				our_init(&y);
			else
				real_init(&y, ZLIB_VERSION, (int) sizeof(z_stream));
			y.next_in = c;
			y.avail_in = (uInt) z.total_out;
			y.next_out = out;
			y.avail_out = sizeof(out);
			r[which].rc = which ? inflate(&y, Z_NO_FLUSH) : real_inflate(&y, Z_NO_FLUSH);
			r[which].total_in = y.adler;
			r[which].calls = which ? inflate(&y, Z_NO_FLUSH) : real_inflate(&y, Z_NO_FLUSH);
			if (which)
				inflateEnd(&y);
			else
				real_end(&y);
		}
		CHECK(&u, r[0].rc == Z_NEED_DICT && r[1].rc == Z_NEED_DICT &&
			  r[0].total_in == r[1].total_in && r[1].calls == Z_NEED_DICT,
			  "a preset dictionary: zlib %d (id %lx), wrapper %d (id %lx), then %ld",
			  r[0].rc, r[0].total_in, r[1].rc, r[1].total_in, r[1].calls);
		deflateEnd(&z);
	}

	/* 7. Z_STREAM_ERROR, inflateReset, zalloc/zfree, the spare, a foreign stream */
	{
		size_t		len,
					n = 5000;
		unsigned char *c = compress_with(data, n, 6, Z_DEFAULT_STRATEGY, &len, "");
		unsigned char *out = malloc(n + 1);
		z_stream	z;
		int			rc;

		memset(&z, 0, sizeof(z));
		CHECK(&u, inflateInit_(&z, "2.0", (int) sizeof(z_stream)) == Z_VERSION_ERROR &&
			  inflateInit_(&z, ZLIB_VERSION, 8) == Z_VERSION_ERROR &&
			  inflateInit_(NULL, ZLIB_VERSION, (int) sizeof(z_stream)) == Z_STREAM_ERROR,
			  "a bad version, size or stream");
		CHECK(&u, our_init(&z) == Z_OK, "init");
		z.next_in = c;
		z.avail_in = (uInt) len;
		z.next_out = NULL;
		z.avail_out = 10;
		CHECK(&u, inflate(&z, Z_NO_FLUSH) == Z_STREAM_ERROR, "no next_out");
		z.next_out = out;
		CHECK(&u, inflate(&z, Z_BLOCK) == Z_STREAM_ERROR, "Z_BLOCK refused");
		CHECK(&u, inflate(NULL, Z_NO_FLUSH) == Z_STREAM_ERROR, "a NULL stream");
		for (int k = 0; k < 3; k++)
		{
			z.next_in = c;
			z.avail_in = (uInt) len;
			z.next_out = out;
			z.avail_out = (uInt) n + 1;
			rc = inflate(&z, Z_FINISH);
			CHECK(&u, rc == Z_STREAM_END && z.total_out == n && z.total_in == len &&
				  memcmp(out, data, n) == 0, "round %d after inflateReset: %d", k, rc);
			rc = inflate(&z, Z_FINISH);
			CHECK(&u, rc == Z_STREAM_END, "the end is sticky: %d", rc);
			CHECK(&u, inflateReset(&z) == Z_OK && z.total_in == 0 && z.total_out == 0,
				  "inflateReset");
		}
		CHECK(&u, inflateEnd(&z) == Z_OK && z.state == NULL, "inflateEnd");
		CHECK(&u, inflateEnd(&z) == Z_STREAM_ERROR, "inflateEnd twice (zlib's answer)");
		for (int k = 0; k < 50; k++)
		{
			memset(&z, 0, sizeof(z));
			rc = our_init(&z);
			z.next_in = c;
			z.avail_in = (uInt) len;
			z.next_out = out;
			z.avail_out = (uInt) n + 1;
			rc = rc == Z_OK ? inflate(&z, Z_FINISH) : rc;
			if (k % 10 == 0)
				CHECK(&u, rc == Z_STREAM_END && memcmp(out, data, n) == 0,
					  "stream %d on the spare state: %d", k, rc);
			inflateEnd(&z);
		}
		memset(&z, 0, sizeof(z));
		z.zalloc = counted_alloc;
		z.zfree = counted_free;
		rc = our_init(&z);
		z.next_in = c;
		z.avail_in = (uInt) len;
		z.next_out = out;
		z.avail_out = (uInt) n + 1;
		rc = rc == Z_OK ? inflate(&z, Z_FINISH) : rc;
		inflateEnd(&z);
		CHECK(&u, rc == Z_STREAM_END && allocs == 1 && frees == 1,
			  "zalloc/zfree: %d, %d allocations, %d frees", rc, allocs, frees);
		/* zlib's own stream, given to the wrapper's functions */
		memset(&z, 0, sizeof(z));
		rc = real_init(&z, ZLIB_VERSION, (int) sizeof(z_stream));
		z.next_in = c;
		z.avail_in = (uInt) len;
		z.next_out = out;
		z.avail_out = (uInt) n + 1;
		rc = rc == Z_OK ? inflate(&z, Z_FINISH) : rc;
		CHECK(&u, rc == Z_STREAM_END && memcmp(out, data, n) == 0 && inflateReset(&z) == Z_OK &&
			  inflateEnd(&z) == Z_OK, "a stream of zlib's own forwarded: %d", rc);
		free(out);
		free(c);
	}
	free(data);
	return unit_report("test_inflate", &u);
}
