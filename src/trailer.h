/* trailer.h — finds Linux-style "Fixes: <hex> ("subject")" trailer lines */
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

/* One Fixes trailer; all offsets are into the message buffer. */
typedef struct fixes_trailer {
	int    line;               /* 1-based line number in the message */
	size_t raw_off, raw_len;   /* whole line, without '\n' and one trailing '\r' */
	size_t hex_off, hex_len;   /* hex digits as written (6..40 chars) */
	bool   has_subject;
	size_t subj_off, subj_len; /* valid when has_subject */
} fixes_trailer;

/*
 * Finds the next Fixes trailer line in msg[0..len) at or after the cursor.
 * Returns true and fills *out, advancing the cursor past that line; returns
 * false (cursor at len) when there is none.  A line is a trailer when it
 * matches, case-insensitively,
 *     ^\s*Fixes:\s*(commit\s+)?[0-9a-f]{6,40}\b      with \s = [ \t\r\f\v]
 * The subject is the text strictly between the first '("' and the last '")'
 * of the line, when both exist and do not overlap.  msg need not be
 * NUL-terminated; NUL bytes are ordinary bytes.  Never reads past len.
 */
bool fixes_trailer_next(const char *msg, size_t len, fixes_trailer_cursor *cur,
						fixes_trailer *out);

#endif /* FIXES_TRAILER_H */
