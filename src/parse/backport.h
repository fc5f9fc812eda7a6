/* backport.h — finds the lines that name the upstream commit of a backport */
#ifndef FIXES_BACKPORT_H
#define FIXES_BACKPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Where the scan stands: byte offset of the next line and lines consumed.
 * Initialise with {0, 0}. */
typedef struct fixes_backport_cursor {
	size_t pos;
	int    line;
} fixes_backport_cursor;

/* The three forms, as Linux stable and git cherry-pick -x write them. */
typedef enum fixes_backport_form {
	FIXES_BACKPORT_UPSTREAM,	/* commit <hex> upstream. */
	FIXES_BACKPORT_BRACKETED,	/* [ Upstream commit <hex> ] */
	FIXES_BACKPORT_CHERRY_PICK	/* (cherry picked from commit <hex>) */
} fixes_backport_form;

/* One backport line; all offsets are into the message buffer. */
typedef struct fixes_backport {
	int                 line;				/* 1-based line number in the message */
	fixes_backport_form form;
	size_t              raw_off, raw_len;	/* whole line, without '\n' and one trailing '\r' */
	size_t              hex_off, hex_len;	/* hex digits as written (7..40 chars) */
} fixes_backport;

/*
 * Finds the next backport line in msg[0..len) at or after the cursor.
 * Returns true and fills *out, advancing the cursor past that line; returns
 * false (cursor at len) when there is none.  A line is a backport line when
 * the whole of it matches one of, case-insensitively,
 *     ^\s*commit\s+<hex>\s+upstream\.?\s*$
 *     ^\s*\[\s*upstream\s+commit\s+<hex>\s*\]\s*$
 *     ^\s*\(cherry picked from commit\s+<hex>\)\s*$
 * where <hex> is 7 to 40 hex digits (a longer run of hex digits is no match)
 * and \s = [ \t\r\f\v], as in trailer.h.  Lines end at '\n'.  msg need not be
 * NUL-terminated; NUL bytes are ordinary bytes.  Never reads past len.
 */
bool fixes_backport_next(const char *msg, size_t len, fixes_backport_cursor *cur,
						 fixes_backport *out);

#endif /* FIXES_BACKPORT_H */
