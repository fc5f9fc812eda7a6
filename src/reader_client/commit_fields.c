/*
 * commit_fields.c — a walked commit's fields as PostgreSQL values
 *
 * Text is converted from the commit's declared encoding to the database's
 * (see text_decode.c); the subject is git's summary of the converted
 * message, as `git log --format=%s` prints it.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "commit_fields.h"
#include "summary.h"

/*
 * Seconds since the epoch as timestamptz; false when out of range.
 */
bool
fixes_time_to_timestamptz(int64 t, TimestampTz *out)
{
	/* about 294000 years either side; beyond that the product overflows */
	if (t < -((int64) 9000000000000) || t > (int64) 9000000000000)
		return false;
	*out = time_t_to_timestamptz((pg_time_t) t);
	return IS_VALID_TIMESTAMP(*out);
}

text *
fixes_oid_text(const FixesOid *oid)
{
	text	   *t = (text *) palloc(VARHDRSZ + FIXES_OID_HEXSZ);

	SET_VARSIZE(t, VARHDRSZ + FIXES_OID_HEXSZ);
	fixes_oid_fmt(VARDATA(t), oid);
	return t;
}

/*
 * The parents' ids as text[], formed in place: what construct_array() makes
 * of them (one dimension from 1, no NULLs, each element a text with a 4-byte
 * header, int-aligned), without a text per parent to copy again; no parent
 * is the empty array.
 */
static ArrayType *
parent_array(const fixes_raw_commit *raw)
{
	int			n = raw->nparents;
	Size		elem = INTALIGN(VARHDRSZ + FIXES_OID_HEXSZ);
	Size		size;
	ArrayType  *a;
	char	   *p;

	if (n == 0)
		return construct_empty_array(TEXTOID);
	size = ARR_OVERHEAD_NONULLS(1) + elem * n;
	a = (ArrayType *) palloc0(size);
	SET_VARSIZE(a, size);
	a->ndim = 1;
	a->dataoffset = 0;
	a->elemtype = TEXTOID;
	ARR_DIMS(a)[0] = n;
	ARR_LBOUND(a)[0] = 1;
	p = ARR_DATA_PTR(a);
	for (int i = 0; i < n; i++, p += elem)
	{
		SET_VARSIZE(p, VARHDRSZ + FIXES_OID_HEXSZ);
		memcpy(VARDATA(p), fixes_raw_commit_parent(raw, i), FIXES_OID_HEXSZ);
	}
	return a;
}

void
fixes_commit_fields(FixesDecoder *d, const FixesCommit *c, FixesCommitFields *f)
{
	const fixes_raw_commit *raw = &c->raw;
	int			enc = fixes_decoder_encoding(d, raw->encoding, raw->encoding_len);
	size_t		subject_len;

	fixes_decoder_next_commit(d);
	f->commit_id = fixes_oid_text(c->oid);
	f->parent_ids = parent_array(raw);
	f->author_name = fixes_decode_text(d, raw->author.name, raw->author.name_len, enc);
	f->author_email = fixes_decode_text(d, raw->author.email, raw->author.email_len, enc);
	f->committer_name = fixes_decode_text(d, raw->committer.name, raw->committer.name_len, enc);
	f->committer_email = fixes_decode_text(d, raw->committer.email, raw->committer.email_len, enc);
	f->message = fixes_decode_text(d, raw->message, raw->message_len, enc);
	f->message_verbatim = d->last_verbatim;

	/* the summary is written where its text's data goes */
	f->subject = (text *) palloc(VARHDRSZ + VARSIZE_ANY_EXHDR(f->message) + 1);
	subject_len = fixes_summary(VARDATA_ANY(f->message), VARSIZE_ANY_EXHDR(f->message),
								VARDATA(f->subject));
	SET_VARSIZE(f->subject, VARHDRSZ + subject_len);

	/* a missing or garbled date is NULL, as git shows none */
	f->authored_null = !raw->author.has_time ||
		!fixes_time_to_timestamptz(raw->author.time, &f->authored_at);
	f->committed_null = !raw->committer.has_time ||
		!fixes_time_to_timestamptz(raw->committer.time, &f->committed_at);
}
