/* test_summary.c — tests of the git subject extraction, cases checked with git 2.39 */
#include "summary.h"
#include "unit.h"

#include <stdlib.h>

#define MSG(s) s, sizeof(s) - 1

/* Each expected value is what "git log --format=%s" printed for a commit
 * object written with "git hash-object -t commit --literally" and that
 * message (git 2.39.5). */
static const struct { const char *msg; size_t len; const char *want; } cases[] = {
	{MSG(""), ""},
	{MSG("subj\n\nbody"), "subj"},
	{MSG("\n\n  a\nb  \n\nc"), "  a b"},
	{MSG("a\r\nb\r\n"), "a b"},
	{MSG("no newline"), "no newline"},
	{MSG("trailing spaces   "), "trailing spaces"},
	{MSG(" \t\r\n\nx y\n"), "x y"},
	{MSG("  lead\n\tsecond \t\r\nthird\n\nbody"), "  lead \tsecond third"},
	{MSG("a\nb\nc\n\nd\ne"), "a b c"},
	{MSG("a\n\n\nb"), "a"},
	{MSG("a\n \nb"), "a"},
	{MSG("a\n\r\nb"), "a"},
	{MSG("a \n b \n"), "a  b"},
	{MSG("a\r\r\n b"), "a  b"},
	{MSG("a\rb\n"), "a\rb"},
	{MSG("\n\n\n"), ""},
	{MSG("  \n\t\n"), ""},
	{MSG("\f\nx"), "\f x"},
	{MSG("\v\nx"), "\v x"},
	{MSG("x\n\f\ny"), "x \f y"},
	{MSG("x\n\v\ny"), "x \v y"},
	{MSG("a\fb \f\nc"), "a\fb \f c"},
	{MSG("a\0b\nc"), "a"},
	{MSG("x\n\0\ny"), "x"},
	{MSG("\0abc"), ""},
	{MSG("epoll: fix a race\n\nFixes: 1c441e921201 (\"epoll: use freezable blocking call\")\n"),
	 "epoll: fix a race"},
	{MSG("Merge branch 'x' of\n git://example.org/y\n\n* x:\n  foo\n"),
	 "Merge branch 'x' of  git://example.org/y"},
	{MSG("\xc3\xa9t\xc3\xa9 \n"), "\xc3\xa9t\xc3\xa9"},
};

int main(void)
{
	unit_counts u = {0, 0};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		size_t len = cases[i].len;
		char *msg = malloc(len ? len : 1);
		char *out = malloc(len + 1);
		char e1[256], e2[256], e3[256];
		size_t n;

		memcpy(msg, cases[i].msg, len);	/* exact sizes: ASan catches overruns */
		memset(out, 'X', len + 1);
		n = fixes_summary(msg, len, out);
		CHECK(&u, n <= len && out[n] == '\0' && n == strlen(cases[i].want) &&
			  memcmp(out, cases[i].want, n) == 0,
			  "message \"%s\": got \"%s\" (%zu), expected \"%s\"",
			  unit_escape(cases[i].msg, len, e1, sizeof(e1)),
			  unit_escape(out, n <= len ? n : len, e2, sizeof(e2)), n,
			  unit_escape(cases[i].want, strlen(cases[i].want), e3, sizeof(e3)));
		free(msg);
		free(out);
	}
	return unit_report("test_summary", &u);
}
