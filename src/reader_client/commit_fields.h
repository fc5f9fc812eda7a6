/*
 * commit_fields.h — a walked commit's fields as PostgreSQL values
 */
#ifndef FIXES_COMMIT_FIELDS_H
#define FIXES_COMMIT_FIELDS_H

#include "datatype/timestamp.h"
#include "utils/array.h"

#include "text_decode.h"
#include "walk.h"

typedef struct FixesCommitFields
{
	text	   *commit_id;
	ArrayType  *parent_ids;
	text	   *author_name;
	text	   *author_email;
	text	   *committer_name;
	text	   *committer_email;
	text	   *subject;
	text	   *message;
	bool		message_verbatim;	/* message holds the raw message's bytes as they are */
	TimestampTz authored_at;
	TimestampTz committed_at;
	bool		authored_null;
	bool		committed_null;
} FixesCommitFields;

extern void fixes_commit_fields(FixesDecoder *d, const FixesCommit *c, FixesCommitFields *f);
extern bool fixes_time_to_timestamptz(int64 t, TimestampTz *out);
extern text *fixes_oid_text(const FixesOid *oid);

#endif							/* FIXES_COMMIT_FIELDS_H */
