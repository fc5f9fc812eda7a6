/* trailers.h — git's trailers of a commit message, as "%(trailers:only,unfold)" prints them */
#ifndef FIXES_TRAILERS_H
#define FIXES_TRAILERS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The trailers of a commit message (the commit object's text after the blank
 * line that ends its header), exactly as git 2.39's
 *     git log --format='%(trailers:only,unfold)'
 * finds them with the default configuration (trailer.separators ":",
 * core.commentChar "#", no trailer.<key>.* settings), one "key: value" line
 * each:
 *  - the message ends at its first NUL byte, as git reads it as a C string;
 *    leading blank lines are skipped (they precede the subject);
 *  - a line "# ------------------------ >8 ------------------------" ends the
 *    message, then trailing empty lines, '#' comment lines and a trailing
 *    "Conflicts:" block (its lines that start with a tab) are ignored; a
 *    "---" line does NOT end the message (git log sets no_divider);
 *  - the trailer block is the last paragraph (after the last blank line),
 *    never the first one (the subject's); it qualifies when all its lines are
 *    trailers (or continuations of one), or when it holds a line starting
 *    with "Signed-off-by: " or "(cherry picked from commit " and at least a
 *    quarter of its lines (continuations of non-trailers and comment lines
 *    counting as non-trailers) are trailers or such lines;
 *  - a trailer line starts with its key: [A-Za-z0-9-]+, then optional spaces
 *    and tabs, then ':'; the key is printed without those blanks;
 *  - a line starting with whitespace continues the trailer above it; the
 *    value is the text after ':' through its continuation lines, trimmed,
 *    each line break and the whitespace after it unfolded into one space.
 * Whitespace is git's: space, '\t', '\n', '\r' (not '\f' or '\v').  Every
 * operation is linear in the message length; no byte past len is read.
 */

/* The scan of one message; fill it with fixes_trailers_begin. */
typedef struct fixes_trailers_iter {
	const char *msg;
	size_t      pos;		/* next line of the block to look at */
	size_t      end;		/* end of the trailer block */
	int         line;		/* lines before pos (0 before the first) */
	int         position;	/* trailers yielded so far */
} fixes_trailers_iter;

/* One trailer; offsets are into the message. */
typedef struct fixes_git_trailer {
	int    position;			/* 1, 2, ... in message order */
	int    line;				/* 1-based line of its key in the message */
	size_t key_off, key_len;	/* the key, without blanks before ':' */
	size_t val_off, val_len;	/* the value as written: trimmed, may span lines */
	size_t unfolded_len;		/* length of the value once unfolded (<= val_len) */
} fixes_git_trailer;

/* Locates the trailer block of msg[0..len); msg must outlive the scan. */
void fixes_trailers_begin(fixes_trailers_iter *it, const char *msg, size_t len);

/* Yields the next trailer into *out; false when there are no more. */
bool fixes_trailers_next(fixes_trailers_iter *it, fixes_git_trailer *out);

/*
 * Writes the unfolded value of t (a trailer of msg) into buf, which needs
 * room for t->unfolded_len bytes (no NUL is added); returns unfolded_len.
 */
size_t fixes_trailer_unfold(const char *msg, const fixes_git_trailer *t, char *buf);

#endif /* FIXES_TRAILERS_H */
