/* stable_cc.h — does a commit message ask for a stable backport with a "Cc: stable@..." line? */
#ifndef FIXES_STABLE_CC_H
#define FIXES_STABLE_CC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when a line of msg[0..len) is a Cc line that names an address whose
 * local part is "stable": anywhere in the message, in git's trailer block or
 * in a paragraph above it (the DPDK convention) alike.  A line is a Cc line
 * when it starts, case-insensitively, with
 *     \s*Cc:          with \s = [ \t\r\f\v], as in trailer.h
 * ("Cc :", "X-Cc:" and "Bcc:" are not).  Its value runs to the end of the
 * line or to its first '#' (the kernel's "# 5.10+" comment), and names such
 * an address when it holds, case-insensitively,
 *     stable@<letter or digit>
 * not preceded by a byte that can be part of an address's local part: a
 * letter, a digit, one of .!#$%&'*+-/=?^_`{|}~, or any byte >= 0x80
 * (so "linux-stable@", "stable.team@" and "xstable@" are not).  Several
 * addresses on one line, angle brackets and display names are all fine:
 * "Cc: a@x, <stable@y>", "Cc: Stable Team <stable@x>" count;
 * "Cc: Stable Team <team@x>" does not.  Lines end at '\n'; msg need not be
 * NUL-terminated and NUL bytes are ordinary bytes.  Never reads past len.
 */
bool fixes_stable_cc(const char *msg, size_t len);

/* The same test on one line (no '\n' in line[0..len)). */
bool fixes_stable_cc_line(const char *line, size_t len);

#endif /* FIXES_STABLE_CC_H */
