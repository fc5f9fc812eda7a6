/*
 * text_decode.h — commit text (in its declared encoding) to database text
 */
#ifndef FIXES_TEXT_DECODE_H
#define FIXES_TEXT_DECODE_H

#include "lib/stringinfo.h"

typedef struct FixesDecoder
{
	int			db_encoding;
	const char *replacement;	/* U+FFFD in a UTF8 database, else "?" */
	int			replacement_len;
	int64		replaced;		/* invalid or unconvertible sequences replaced */
	int64		commits_affected;	/* commits with at least one of them */
	int64		tags_affected;	/* tags with at least one of them */
	int			current_kind;	/* FixesDecodedItem of the current item */
	bool		current_affected;	/* the current item already counted */
	/* cache of the last declared encoding name */
	char		last_name[64];
	int			last_encoding;
	/* the last fixes_decode_text() returned its input's bytes unchanged */
	bool		last_verbatim;
	StringInfoData scratch;
} FixesDecoder;

extern void fixes_decoder_init(FixesDecoder *d);
extern int	fixes_decoder_encoding(FixesDecoder *d, const char *name, size_t len);
/* what the text being decoded belongs to, for the count of the NOTICE */
typedef enum FixesDecodedItem
{
	FIXES_ITEM_COMMIT,
	FIXES_ITEM_TAG
} FixesDecodedItem;

extern void fixes_decoder_next_item(FixesDecoder *d, FixesDecodedItem kind);
#define fixes_decoder_next_commit(d) fixes_decoder_next_item((d), FIXES_ITEM_COMMIT)
extern text *fixes_decode_text(FixesDecoder *d, const char *s, size_t len, int src_encoding);
extern text *fixes_decode_text_uncounted(FixesDecoder *d, const char *s, size_t len,
										 int src_encoding);
extern char *fixes_decode_cstring(FixesDecoder *d, const char *s, size_t len, int src_encoding);
extern void fixes_decoder_report(FixesDecoder *d, const char *path);

#endif							/* FIXES_TEXT_DECODE_H */
