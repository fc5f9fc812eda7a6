/* summary.h — git's commit subject ("git log --format=%s") of a message */
#ifndef FIXES_SUMMARY_H
#define FIXES_SUMMARY_H

#include <stddef.h>

/*
 * Writes the subject of msg[0..len) into out, NUL-terminated, and returns
 * its length; out must have room for len + 1 bytes.  As git's pretty.c:
 * leading blank lines are skipped, then the lines of the first paragraph
 * (up to the next blank line) are joined with single spaces, each stripped
 * of trailing whitespace; leading whitespace is kept.  Whitespace is git's:
 * space, '\t', '\r' (not '\f' or '\v').  Like git, which handles the
 * message as a C string, the message ends at its first NUL byte.
 */
size_t fixes_summary(const char *msg, size_t len, char *out);

#endif /* FIXES_SUMMARY_H */
