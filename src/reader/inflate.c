/*
 * inflate.c — zlib's inflate for libgit2, done by ISA-L (issue 45)
 *
 * Inflating the objects is most of the reader's work: 77% of its
 * instructions in a walk were zlib's inflate().  libgit2 1.5 (Debian's
 * shared library) calls four inflate functions of zlib: inflateInit_,
 * inflate, inflateEnd and inflateReset.  This file defines those four in
 * the fixes-reader executable; a symbol that the executable defines and a
 * linked shared library references is exported, and the dynamic linker
 * binds libgit2's calls to it rather than to libz's (ELF interposition).
 * So every object libgit2 inflates (packed, deltas, loose; trees and blobs
 * with files) and loose.c's check go through ISA-L's igzip
 * (Debian's libisal2), which inflates about a third faster on x86-64.
 * deflate and crc32 stay zlib's.
 *
 * The functions keep zlib's contract where libgit2 and loose.c depend on
 * it (test/unit/test_inflate.c checks it against zlib itself):
 * - next_in/avail_in/total_in and next_out/avail_out/total_out are
 *   updated on every call; at the end of a stream next_in is just past
 *   its adler32 and whatever follows (the rest of a pack window) is left
 *   in avail_in: ISA-L reads input ahead into a 64-bit buffer and gives
 *   back the whole bytes it did not use when the stream ends;
 * - Z_STREAM_END only once the whole stream, adler32 included, is read
 *   and all of its output delivered (ISA-L may hold output in its own
 *   buffer when avail_out is short); Z_OK on progress; Z_BUF_ERROR when
 *   no progress was possible, or with Z_FINISH when the stream is not
 *   done (zlib's rule); Z_DATA_ERROR with msg set on bad data, a bad
 *   header (checked here, with zlib's messages) or a bad checksum
 *   ("incorrect data check"); Z_NEED_DICT for a preset dictionary (git
 *   never writes one, and inflateSetDictionary is not provided).  An
 *   error, the end and Z_NEED_DICT are sticky, as in zlib.
 * - A stream longer than the output space is cut where zlib would cut it:
 *   Z_BUF_ERROR with avail_out 0, never a write past next_out +
 *   avail_out; libgit2 then fails the object ("error inflating zlib
 *   stream").  ISA-L may inflate up to 64 KB more into its own buffer
 *   while avail_out is 0 (it consumes input then): bounded, so a caller
 *   that loops while input is consumed still ends.
 * - The flush argument: Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH and
 *   Z_FINISH make no difference to what is inflated (as in zlib, but for
 *   the Z_BUF_ERROR rule above); Z_BLOCK and Z_TREES, which stop at block
 *   boundaries and which libgit2 does not use, are Z_STREAM_ERROR.
 *
 * ISA-L's state is 87 KB; libgit2 makes one stream per object, so a
 * state given back by inflateEnd is kept for the next inflateInit_ rather
 * than freed (one spare).  The state comes from strm->zalloc when the
 * caller set one (zlib's rule), else malloc; a failure is Z_MEM_ERROR
 * (the reader runs under RLIMIT_AS).
 *
 * FIXES_READER_INFLATE=zlib in the reader's environment (read once, before
 * main()) turns this off: the four functions then forward to zlib's own
 * (dlsym(RTLD_NEXT)).  All four must forward, not only inflate(): zlib's
 * inflateInit_ calls inflateReset2, which calls inflateReset through the
 * PLT, and that lands here; so in zlib mode inflateReset must forward
 * too, and in ISA-L mode a stream made here is never handed to zlib (its
 * state is ours, not zlib's).  A stream whose state is not ours (made by
 * zlib's own inflateInit2_, which nothing in the reader calls; the unit
 * test's reference streams) is forwarded to zlib whole in either mode:
 * each state is recognized by its first word and its back pointer.  The
 * backend does not set the variable (no setting): it is for the tests and
 * the benchmarks, which run the reader with it in the environment of the
 * server or of the reader itself (docs/performance.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <isa-l/igzip_lib.h>

#define STATE_MAGIC UINT64_C(0x6c6173692d786966)	/* "fix-isal" */
#define FIRST_PART	1024		/* input bytes given to ISA-L at first (inflate()) */

typedef struct IsalStream
{
	uint64_t	magic;			/* STATE_MAGIC: zlib's state starts with a pointer */
	z_streamp	strm;			/* the stream it belongs to (zlib checks the same) */
	free_func	zfree;			/* NULL: malloc'd, may become the spare */
	voidpf		opaque;
	int			status;			/* Z_OK, or the sticky Z_STREAM_END, Z_DATA_ERROR,
								 * Z_NEED_DICT */
	int			nhead;			/* bytes of the 2-byte zlib header read */
	unsigned char head[2];
	int			ndict;			/* bytes of a preset dictionary's id read */
	unsigned char dictid[4];
	bool		want_dict;
	struct inflate_state st;
} IsalStream;

typedef int (*init_fn) (z_streamp, const char *, int);
typedef int (*inflate_fn) (z_streamp, int);
typedef int (*stream_fn) (z_streamp);

static struct
{
	bool		isal;			/* false: FIXES_READER_INFLATE=zlib */
	init_fn		init;			/* zlib's own four */
	inflate_fn	inflate;
	stream_fn	end;
	stream_fn	reset;
}			zl;

static IsalStream *spare;		/* one state inflateEnd gave back */

static void *
next_symbol(const char *name)
{
	void	   *p = dlsym(RTLD_NEXT, name);

	if (p == NULL)
	{
		/* cannot happen while libz is linked; say why rather than crash later */
		fprintf(stderr, "fixes-reader: zlib's %s not found: %s\n", name, dlerror());
		_exit(70);
	}
	return p;
}

__attribute__((constructor))
static void
inflate_choose(void)
{
	const char *env = getenv("FIXES_READER_INFLATE");

	zl.isal = env == NULL || strcmp(env, "zlib") != 0;
	zl.init = (init_fn) next_symbol("inflateInit_");
	zl.inflate = (inflate_fn) next_symbol("inflate");
	zl.end = (stream_fn) next_symbol("inflateEnd");
	zl.reset = (stream_fn) next_symbol("inflateReset");
}

/* the stream's state if it is ours (and the stream is usable), else NULL */
static inline IsalStream *
ours(z_streamp strm)
{
	IsalStream *s;

	if (strm == Z_NULL || strm->state == Z_NULL)
		return NULL;
	s = (IsalStream *) strm->state;
	if (s->magic != STATE_MAGIC || s->strm != strm)
		return NULL;
	return s;
}

static void
restart(z_streamp strm, IsalStream *s)
{
	isal_inflate_init(&s->st);
	s->st.crc_flag = ISAL_ZLIB_NO_HDR_VER;	/* raw deflate, then adler32 checked */
	s->st.hist_bits = 0;		/* a 32 KB window, as zlib's inflateInit */
	s->status = Z_OK;
	s->nhead = 0;
	s->ndict = 0;
	s->want_dict = false;
	strm->total_in = 0;
	strm->total_out = 0;
	strm->msg = Z_NULL;
	strm->adler = 1;
	strm->data_type = 0;
}

int
inflateInit_(z_streamp strm, const char *version, int stream_size)
{
	IsalStream *s = NULL;

	if (!zl.isal)
		return zl.init(strm, version, stream_size);
	if (version == Z_NULL || version[0] != ZLIB_VERSION[0] ||
		stream_size != (int) sizeof(z_stream))
		return Z_VERSION_ERROR;
	if (strm == Z_NULL)
		return Z_STREAM_ERROR;
	strm->msg = Z_NULL;
	if (strm->zalloc != Z_NULL)
	{
		s = strm->zalloc(strm->opaque, 1, sizeof(IsalStream));
		if (s == Z_NULL)
			return Z_MEM_ERROR;
		s->zfree = strm->zfree;
		s->opaque = strm->opaque;
	}
	else
	{
		s = __atomic_exchange_n(&spare, NULL, __ATOMIC_ACQ_REL);
		if (s == NULL && (s = malloc(sizeof(IsalStream))) == NULL)
			return Z_MEM_ERROR;
		s->zfree = Z_NULL;
		s->opaque = Z_NULL;
	}
	s->magic = STATE_MAGIC;
	s->strm = strm;
	strm->state = (struct internal_state *) s;
	restart(strm, s);
	return Z_OK;
}

int
inflateReset(z_streamp strm)
{
	IsalStream *s = ours(strm);

	if (s == NULL)
		return zl.reset(strm);
	restart(strm, s);
	return Z_OK;
}

int
inflateEnd(z_streamp strm)
{
	IsalStream *s = ours(strm);

	if (s == NULL)
		return zl.end(strm);
	s->magic = 0;
	strm->state = Z_NULL;
	if (s->zfree != Z_NULL)
		s->zfree(s->opaque, s);
	else
	{
		s = __atomic_exchange_n(&spare, s, __ATOMIC_ACQ_REL);
		free(s);				/* the previous spare, if any */
	}
	return Z_OK;
}

static int
fail_data(z_streamp strm, IsalStream *s, const char *msg)
{
	strm->msg = (char *) msg;
	s->status = Z_DATA_ERROR;
	return Z_DATA_ERROR;
}

/*
 * The zlib header (RFC 1950), checked as zlib's inflate() checks it, with
 * its messages; its bytes may come one call at a time.  Returns Z_OK when
 * it is read (or more input is needed: *done false), else an error.
 */
static int
read_header(z_streamp strm, IsalStream *s, bool *done)
{
	*done = false;
	while (s->nhead < 2 && strm->avail_in > 0)
	{
		s->head[s->nhead++] = *strm->next_in++;
		strm->avail_in--;
		strm->total_in++;
	}
	if (s->nhead < 2)
		return Z_OK;
	if (s->ndict == 0 && !s->want_dict)
	{
		unsigned	cmf = s->head[0];
		unsigned	flg = s->head[1];

		if (((cmf << 8) | flg) % 31 != 0)
			return fail_data(strm, s, "incorrect header check");
		if ((cmf & 0x0f) != Z_DEFLATED)
			return fail_data(strm, s, "unknown compression method");
		if ((cmf >> 4) + 8 > MAX_WBITS)
			return fail_data(strm, s, "invalid window size");
		s->want_dict = (flg & 0x20) != 0;
	}
	if (s->want_dict)
	{
		while (s->ndict < 4 && strm->avail_in > 0)
		{
			s->dictid[s->ndict++] = *strm->next_in++;
			strm->avail_in--;
			strm->total_in++;
		}
		if (s->ndict < 4)
			return Z_OK;
		strm->adler = ((uLong) s->dictid[0] << 24) | ((uLong) s->dictid[1] << 16) |
			((uLong) s->dictid[2] << 8) | s->dictid[3];
		s->status = Z_NEED_DICT;
		return Z_NEED_DICT;
	}
	*done = true;
	return Z_OK;
}

/*
 * ISA-L loads input 8 bytes at a time into a bit buffer (read_in), and
 * leaves there what it has not used when a call returns, even at the end
 * of the stream: the bytes that follow the adler32 would be lost to the
 * caller (a pack window's next object; libgit2's "trailing garbage" check
 * of a loose object).  So the whole bytes left in the buffer are given
 * back to next_in/avail_in, the latest first, as zlib leaves them: at most
 * as many as this call took (they are the bytes just before next_in), and
 * none while a block header that spans calls is kept in ISA-L's
 * tmp_in_buffer (those bytes follow the bit buffer's).  inflate() does it
 * at the end of the stream and whenever a call stops with input left or
 * no output space; not when ISA-L stopped because it needs more input
 * (input all taken, output space left): it needs the bytes it has to make
 * progress, and they are all before the stream's end (it would have
 * decoded further otherwise), so the end still gives back exactly the
 * bytes that follow it.
 */
static inline void
give_back(struct inflate_state *st, uLong consumed)
{
	int32_t		k;

	if (st->block_state == ISAL_BLOCK_HDR || st->tmp_in_size > 0 || st->read_in_length < 8)
		return;
	k = st->read_in_length / 8;
	if ((uLong) k > consumed)
		k = (int32_t) consumed;
	st->read_in_length -= 8 * k;
	st->read_in = st->read_in_length == 0 ? 0 :
		st->read_in & ((UINT64_C(1) << st->read_in_length) - 1);
	st->next_in -= k;
	st->avail_in += (uint32_t) k;
}

int
inflate(z_streamp strm, int flush)
{
	IsalStream *s = ours(strm);
	uInt		in0,
				out0;
	uLong		consumed,
				produced;
	int			rc;

	if (s == NULL)
		return zl.inflate(strm, flush);
	if (strm->next_out == Z_NULL || (strm->next_in == Z_NULL && strm->avail_in != 0) ||
		flush < Z_NO_FLUSH || flush > Z_FINISH)
		return Z_STREAM_ERROR;
	if (s->status != Z_OK)
		return s->status;		/* the end, an error or Z_NEED_DICT again */
	in0 = strm->avail_in;
	out0 = strm->avail_out;
	if (s->nhead < 2 || s->want_dict)
	{
		bool		done;

		rc = read_header(strm, s, &done);
		if (rc != Z_OK)
			return rc;
		if (!done)
			return in0 - strm->avail_in > 0 && flush != Z_FINISH ? Z_OK : Z_BUF_ERROR;
	}

	/*
	 * The input in growing parts: libgit2 gives as input the rest of the
	 * pack window, megabytes after a commit of a few hundred bytes, and
	 * ISA-L 2.30 inflates a small stream a third slower when it is given
	 * more than about 2 KB of input beyond the stream's end (measured on
	 * the commits of a 130k make-history pack: 0.29 s with 1.5 KB more,
	 * 0.42 s with 2 KB or the whole pack, zlib 0.43 s).  A part that ISA-L
	 * takes whole without ending the stream or filling the output is
	 * followed by the next, twice as large: the same stream, fed in pieces.
	 */
	{
		uInt		held = strm->avail_in;
		uInt		part = FIRST_PART;
		bool		last_try = false;

		s->st.next_in = strm->next_in;
		s->st.avail_in = 0;
		s->st.next_out = strm->next_out;
		s->st.avail_out = strm->avail_out;
		for (;;)
		{
			uInt		give = held < part ? held : part;

			s->st.avail_in += give;
			held -= give;
			rc = isal_inflate(&s->st);
			if (rc < 0 || s->st.block_state == ISAL_BLOCK_FINISH)
				break;
			if (part < (UINT32_MAX >> 2))
				part *= 2;
			if (s->st.avail_out == 0)
			{
				/*
				 * The output space is full.  zlib goes on with no space
				 * left to read the end of block and the adler32, and ends
				 * the stream in the call that fills the space exactly:
				 * libgit2's loose object read asks for exactly the rest of
				 * the object and fails ("stream aborted prematurely")
				 * unless that call ends the stream.  ISA-L stops instead:
				 * once more, with the input left, it reads the end (or,
				 * if the stream goes on, inflates ahead into its own
				 * buffer, at most 64 KB, which the next call delivers).
				 */
				if (!last_try && (s->st.avail_in > 0 || held > 0))
				{
					last_try = true;
					continue;
				}
				break;
			}
			if (held == 0 || s->st.avail_in > 0)
				break;
		}
		s->st.avail_in += held;
	}
	if (rc >= 0)
	{
		consumed = strm->avail_in - s->st.avail_in;
		if (consumed > 0 &&
			(s->st.block_state == ISAL_BLOCK_FINISH || s->st.avail_in > 0 || s->st.avail_out == 0))
			give_back(&s->st, consumed);
		consumed = strm->avail_in - s->st.avail_in;
		produced = strm->avail_out - s->st.avail_out;
	}
	else
	{
		/*
		 * On an error ISA-L's avail_in may disagree with its next_in (and
		 * next_out may be in its own buffer): keep the caller's pointers
		 * and counts consistent, within what it gave.
		 */
		consumed = s->st.next_in >= strm->next_in &&
			s->st.next_in <= strm->next_in + strm->avail_in ?
			(uLong) (s->st.next_in - strm->next_in) : 0;
		produced = s->st.next_out >= strm->next_out &&
			s->st.next_out <= strm->next_out + strm->avail_out ?
			(uLong) (s->st.next_out - strm->next_out) : 0;
	}
	strm->next_in += consumed;
	strm->avail_in -= (uInt) consumed;
	strm->total_in += consumed;
	strm->next_out += produced;
	strm->avail_out -= (uInt) produced;
	strm->total_out += produced;

	switch (rc)
	{
		case ISAL_DECOMP_OK:
		case ISAL_END_INPUT:
		case ISAL_OUT_OVERFLOW:
			break;
		case ISAL_INCORRECT_CHECKSUM:
			return fail_data(strm, s, "incorrect data check");
		case ISAL_INVALID_LOOKBACK:
			return fail_data(strm, s, "invalid distance too far back");
		case ISAL_INVALID_SYMBOL:
			return fail_data(strm, s, "invalid literal/length or distance code");
		case ISAL_INVALID_BLOCK:
			return fail_data(strm, s, "invalid deflate block");
		default:
			return fail_data(strm, s, "invalid deflate stream");
	}
	if (s->st.block_state == ISAL_BLOCK_FINISH)
	{
		strm->adler = s->st.crc;
		s->status = Z_STREAM_END;
		return Z_STREAM_END;
	}
	if ((in0 == strm->avail_in && out0 == strm->avail_out) || flush == Z_FINISH)
		return Z_BUF_ERROR;
	return Z_OK;
}
