/* trailer.h — finds Linux-style "Fixes: <hex> ("subject")" trailer lines and revert lines */
#ifndef FIXES_TRAILER_H
#define FIXES_TRAILER_H

#include <stdbool.h>
#include <stddef.h>

/* Where the scan stands: byte offset of the next line and lines consumed.
 * Initialise with {0, 0}. */
typedef struct fixes_trailer_cursor {
	size_t pos;
	int    line;
} fixes_trailer_cursor;

/* What a line says about the commit it names. */
typedef enum fixes_trailer_kind {
	FIXES_TRAILER_FIXES,		/* Fixes: <hex> ... */
	FIXES_TRAILER_REVERT		/* This reverts commit <hex>... */
} fixes_trailer_kind;

/* One Fixes trailer or revert line; all offsets are into the message buffer. */
typedef struct fixes_trailer {
	int    line;               /* 1-based line number in the message */
	fixes_trailer_kind kind;
	size_t raw_off, raw_len;   /* whole line, without '\n' and one trailing '\r' */
	size_t hex_off, hex_len;   /* hex digits as written (6..40 chars, 7..40 for a revert) */
	bool   has_subject;        /* never for a revert: see fixes_revert_subject */
	size_t subj_off, subj_len; /* valid when has_subject */
} fixes_trailer;

/*
 * Finds the next Fixes trailer or revert line in msg[0..len) at or after the
 * cursor, in line order.  Returns true and fills *out, advancing the cursor
 * past that line; returns false (cursor at len) when there is none.  A line
 * is a Fixes trailer when it matches, case-insensitively,
 *     ^\s*Fixes:\s*(commit\s+)?[0-9a-f]{6,40}\b      with \s = [ \t\r\f\v]
 * and a revert line when it matches, case-insensitively,
 *     ^\s*This reverts commit\s+[0-9a-f]{7,40}([^0-9a-f]|$)
 * (whatever follows, e.g. "." or " (subject)", is not looked at).
 * The subject of a Fixes trailer is the text strictly between the first '("'
 * and the last '")' of the line, when both exist and do not overlap.
 * Otherwise it is the text between the first '(' after the hex and the last
 * ')' of the line, with blanks trimmed and then one pair of surrounding
 * quotes removed: "...", U+201C...U+201D, U+201C...U+201C or '...'; when
 * nothing but quote marks is left (or nothing at all), there is no subject.
 * msg need not be NUL-terminated; NUL bytes are ordinary bytes.  Never reads
 * past len.
 */
bool fixes_trailer_next(const char *msg, size_t len, fixes_trailer_cursor *cur,
						fixes_trailer *out);

/*
 * The subject of the commit a revert names, from the reverting commit's own
 * subject (git's %s, as fixes_summary gives it): when subject[0..len) starts
 * with 'Revert "' (the word in any case, one space), sets *off and *sublen
 * to the text strictly between its first and its last '"' and returns true;
 * returns false for any other subject, or when that text is empty.
 */
bool fixes_revert_subject(const char *subject, size_t len, size_t *off, size_t *sublen);

#endif /* FIXES_TRAILER_H */
