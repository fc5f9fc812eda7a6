/*
 * text_decode.c — commit text (in its declared encoding) to database text
 *
 * git stores messages as bytes: UTF-8 unless an "encoding" header says
 * otherwise, and in practice sometimes neither.  A read must never fail on
 * such bytes, so every invalid or unconvertible sequence is replaced (by
 * U+FFFD, or "?" when the database is not UTF-8) and counted; the caller
 * reports the count in one NOTICE at the end.
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "miscadmin.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "text_decode.h"

void
fixes_decoder_init(FixesDecoder *d)
{
	memset(d, 0, sizeof(*d));
	d->db_encoding = GetDatabaseEncoding();
	if (d->db_encoding == PG_UTF8)
		d->replacement = "\xEF\xBF\xBD";
	else
		d->replacement = "?";
	d->replacement_len = strlen(d->replacement);
	d->last_encoding = PG_UTF8;
	initStringInfo(&d->scratch);
}

/*
 * The PostgreSQL encoding of a commit's "encoding" header; names PostgreSQL
 * does not know are read as UTF-8 (and so mostly replaced).
 */
int
fixes_decoder_encoding(FixesDecoder *d, const char *name, size_t len)
{
	int			enc;

	if (name == NULL || len == 0 || len >= sizeof(d->last_name))
		return PG_UTF8;
	if (strncmp(d->last_name, name, len) == 0 && d->last_name[len] == '\0')
		return d->last_encoding;
	memcpy(d->last_name, name, len);
	d->last_name[len] = '\0';
	enc = pg_char_to_encoding(d->last_name);
	if (!PG_VALID_ENCODING(enc))
		enc = PG_UTF8;
	d->last_encoding = enc;
	return enc;
}

void
fixes_decoder_next_item(FixesDecoder *d, FixesDecodedItem kind)
{
	d->current_kind = kind;
	d->current_affected = false;
}

static void
note_replacement(FixesDecoder *d)
{
	d->replaced++;
	if (!d->current_affected)
	{
		d->current_affected = true;
		if (d->current_kind == FIXES_ITEM_TAG)
			d->tags_affected++;
		else
			d->commits_affected++;
	}
}

/*
 * How many bytes pass between two interrupt checks in the loops below, and
 * the size of one conversion call: bounded, so that a cancel lands at once
 * whatever the length of the text.
 */
#define DECODE_CHUNK (64 * 1024)

/*
 * Append s[0..len) to scratch, replacing each invalid sequence.
 *
 * One pass, character by character: pg_encoding_verifymbstr() is not used
 * here, because after an invalid byte it scans on to the end of its input
 * before it answers, so calling it again after each replaced byte made the
 * whole quadratic in the length.  Valid runs are copied
 * in one piece.
 */
static void
append_validated(FixesDecoder *d, const char *s, int len)
{
	int			enc = d->db_encoding;
	int			run = 0;		/* start of the valid run not copied yet */
	int			i = 0;
	int			next_check = DECODE_CHUNK;
	char	   *out;

	/* room for the worst case (decode_into_scratch bounds len), then no more checks */
	enlargeStringInfo(&d->scratch, len * d->replacement_len);
	out = d->scratch.data + d->scratch.len;
	while (i < len)
	{
		int			l;

		if (i >= next_check)
		{
			CHECK_FOR_INTERRUPTS();
			next_check = i + DECODE_CHUNK;
		}
		if (!IS_HIGHBIT_SET(s[i]) && s[i] != '\0')
		{
			i++;
			continue;
		}
		l = s[i] == '\0' ? -1 : pg_encoding_verifymbchar(enc, s + i, len - i);
		if (l > 0)
		{
			i += l;
			continue;
		}
		/* s[i] starts no valid character: the run so far, then one replacement */
		memcpy(out, s + run, i - run);
		out += i - run;
		memcpy(out, d->replacement, d->replacement_len);
		out += d->replacement_len;
		note_replacement(d);
		i++;
		run = i;
	}
	memcpy(out, s + run, len - run);
	out += len - run;
	d->scratch.len = out - d->scratch.data;
	*out = '\0';
}

/*
 * Append s[0..len) converted from src_encoding, replacing what fails.
 *
 * The conversion runs on chunks of at most DECODE_CHUNK bytes, with an
 * interrupt check between two; a chunk's end may cut a character, which is
 * then converted with the next chunk.  Each call converts up to the first
 * character it cannot convert, so the whole is linear in len.
 */
static void
append_converted(FixesDecoder *d, const char *s, int len, int src_encoding)
{
	Oid			proc = FindDefaultConversionProc(src_encoding, d->db_encoding);

	if (!OidIsValid(proc))
	{
		/* no conversion exists: keep the ASCII, replace the rest */
		for (int i = 0; i < len; i++)
		{
			if ((i & (DECODE_CHUNK - 1)) == DECODE_CHUNK - 1)
				CHECK_FOR_INTERRUPTS();
			if (IS_HIGHBIT_SET(s[i]) || s[i] == '\0')
			{
				appendBinaryStringInfo(&d->scratch, d->replacement, d->replacement_len);
				note_replacement(d);
			}
			else
				appendStringInfoChar(&d->scratch, s[i]);
		}
		return;
	}

	while (len > 0)
	{
		int			chunk = Min(len, DECODE_CHUNK);
		int			room = chunk * MAX_CONVERSION_GROWTH + 1;
		int			done;

		CHECK_FOR_INTERRUPTS();
		enlargeStringInfo(&d->scratch, room);
		done = pg_do_encoding_conversion_buf(proc, src_encoding, d->db_encoding,
											 (unsigned char *) s, chunk,
											 (unsigned char *) d->scratch.data + d->scratch.len,
											 room, true);
		d->scratch.len += strlen(d->scratch.data + d->scratch.len);
		s += done;
		len -= done;
		if (len > 0 && (done == chunk ||
						(chunk < len && done > 0 && done >= chunk - MAX_MULTIBYTE_CHAR_LEN)))
			continue;			/* the chunk's end, perhaps inside a character */
		if (len > 0)
		{
			/* skip one character if it is valid but unconvertible, else one byte */
			int			l = pg_encoding_verifymbchar(src_encoding, s, len);
			int			n = 0;

			if (l <= 0)
				l = 1;
			appendBinaryStringInfo(&d->scratch, d->replacement, d->replacement_len);
			note_replacement(d);
			s += l;
			len -= l;

			/*
			 * and the invalid bytes that follow, here: not one conversion
			 * call for each
			 */
			while (len > 0 && n++ < DECODE_CHUNK &&
				   (*s == '\0' || pg_encoding_verifymbchar(src_encoding, s, len) <= 0))
			{
				appendBinaryStringInfo(&d->scratch, d->replacement, d->replacement_len);
				note_replacement(d);
				s++;
				len--;
			}
		}
	}
}

/*
 * s[0..len) in src_encoding, as database text; the result is left in
 * d->scratch (NUL-terminated), valid until the next call.
 */
static void
decode_into_scratch(FixesDecoder *d, const char *s, size_t len, int src_encoding)
{
	if (len > MaxAllocSize / MAX_CONVERSION_GROWTH - 1)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("commit text of %zu bytes is too long", len)));
	resetStringInfo(&d->scratch);
	if (src_encoding == d->db_encoding || d->db_encoding == PG_SQL_ASCII ||
		src_encoding == PG_SQL_ASCII)
		append_validated(d, s, (int) len);
	else
		append_converted(d, s, (int) len, src_encoding);
}

/*
 * s[0..len) is ASCII without NUL, so valid text in every server encoding
 * (all are ASCII-safe): eight bytes at a time, for the short names and
 * addresses that pg_encoding_verifymbstr() checks a character at a time
 */
static bool
plain_ascii(const char *s, size_t len)
{
	const uint64 high = UINT64CONST(0x8080808080808080);
	const uint64 ones = UINT64CONST(0x0101010101010101);
	uint64		acc = 0;
	size_t		i = 0;

	for (; i + 8 <= len; i += 8)
	{
		uint64		w;

		memcpy(&w, s + i, 8);
		/* a high bit, or a zero byte ((w - ones) & ~w has its high bit) */
		acc |= w | ((w - ones) & ~w);
	}
	for (; i < len; i++)
		acc |= (unsigned char) s[i] == 0 ? 0x80 : (unsigned char) s[i];
	return (acc & high) == 0;
}

text *
fixes_decode_text(FixesDecoder *d, const char *s, size_t len, int src_encoding)
{
	/* the common case: valid already, no copy through scratch */
	if ((src_encoding == d->db_encoding || d->db_encoding == PG_SQL_ASCII) &&
		len < MaxAllocSize &&
		(plain_ascii(s, len) ||
		 pg_encoding_verifymbstr(d->db_encoding, s, (int) len) == (int) len))
	{
		d->last_verbatim = true;
		return cstring_to_text_with_len(s, (int) len);
	}
	d->last_verbatim = false;
	decode_into_scratch(d, s, len, src_encoding);
	return cstring_to_text_with_len(d->scratch.data, d->scratch.len);
}

/*
 * As fixes_decode_text, for a second reading of text whose replacements were
 * counted already (the trailers of a message): they are not counted again.
 */
text *
fixes_decode_text_uncounted(FixesDecoder *d, const char *s, size_t len, int src_encoding)
{
	int64		replaced = d->replaced;
	int64		commits_affected = d->commits_affected;
	int64		tags_affected = d->tags_affected;
	bool		current_affected = d->current_affected;
	text	   *t = fixes_decode_text(d, s, len, src_encoding);

	d->replaced = replaced;
	d->commits_affected = commits_affected;
	d->tags_affected = tags_affected;
	d->current_affected = current_affected;
	return t;
}

char *
fixes_decode_cstring(FixesDecoder *d, const char *s, size_t len, int src_encoding)
{
	decode_into_scratch(d, s, len, src_encoding);
	return pnstrdup(d->scratch.data, d->scratch.len);
}

void
fixes_decoder_report(FixesDecoder *d, const char *path)
{
	const char *by = d->db_encoding == PG_UTF8 ? "U+FFFD" : "\"?\"";

	if (d->replaced == 0)
		return;
	if (d->tags_affected == 0)
		ereport(NOTICE,
				(errmsg_plural("replaced %lld invalid or unconvertible byte sequences in %lld commit of repository \"%s\"",
							   "replaced %lld invalid or unconvertible byte sequences in %lld commits of repository \"%s\"",
							   (unsigned long) d->commits_affected,
							   (long long) d->replaced, (long long) d->commits_affected, path),
				 errdetail("Each sequence was replaced by %s.", by)));
	else
		ereport(NOTICE,
				(errmsg("replaced %lld invalid or unconvertible byte sequences in %lld commits and %lld tags of repository \"%s\"",
						(long long) d->replaced, (long long) d->commits_affected,
						(long long) d->tags_affected, path),
				 errdetail("Each sequence was replaced by %s.", by)));
}
