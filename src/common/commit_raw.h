/* commit_raw.h — parser of a raw git commit object buffer */
#ifndef FIXES_COMMIT_RAW_H
#define FIXES_COMMIT_RAW_H

#include <stddef.h>
#include <stdint.h>

#define FIXES_OID_HEXSZ 40

/* An author or committer line; pointers are into the commit buffer. */
typedef struct fixes_signature {
	const char *name;  size_t name_len;   /* trimmed of surrounding blanks */
	const char *email; size_t email_len;  /* between < and > */
	int64_t     time;                     /* seconds since the epoch, 0 if missing */
	int         has_time;                 /* 1 when a time was read, 0 if missing or garbled */
	int         tz_minutes;               /* east of UTC: "+0130" -> 90, 0 if missing */
} fixes_signature;

/* A parsed commit object; pointers are into the caller's buffer. */
typedef struct fixes_raw_commit {
	const char *tree_hex;                 /* points at 40 hex chars */
	const char *parents;                  /* first "parent " line, or NULL */
	int         nparents;
	fixes_signature author, committer;    /* all-empty when the header is missing */
	const char *encoding; size_t encoding_len;  /* NULL when absent */
	const char *message;  size_t message_len;   /* at the end, length 0, when absent */
} fixes_raw_commit;

/*
 * Parses buf[0..len) as "git cat-file commit" prints it.  Returns 0, or -1
 * when the buffer does not start with "tree <40 hex>\n", or when a "parent "
 * line is not exactly "parent <40 hex>\n" or does not follow the tree line
 * or another parent line directly.  Everything else is parsed leniently:
 *
 * - only the first "author ", "committer " and "encoding " headers count;
 *   other headers and their continuation lines (" ...") are skipped;
 * - a signature "name <email> time tz" is split as git's split_ident_line
 *   does: the email lies between the FIRST '<' and the first '>' after it,
 *   the name is what precedes the '<', trimmed; time and time zone are read
 *   after the LAST '>' of the line.  Without '<' or '>' the name is the whole
 *   value trimmed and the email is empty;
 * - time is an optionally negative decimal number followed by a blank or the
 *   end of the line (otherwise, or on overflow, 0);
 * - the time zone must be a sign and exactly four digits "hhmm" with
 *   mm < 60, followed by a blank or the end of the line (otherwise 0);
 * - the message is everything after the first empty line, verbatim.
 */
int fixes_raw_commit_parse(const char *buf, size_t len, fixes_raw_commit *out);

/* Points at parent i's 40 hex digits, or NULL when i is out of range. */
const char *fixes_raw_commit_parent(const fixes_raw_commit *c, int i);

#endif /* FIXES_COMMIT_RAW_H */
