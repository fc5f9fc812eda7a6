/* test_trailer.c — table-driven and randomized differential tests of trailer.c */
#include "trailer.h"
#include "unit.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define MSG(s) s, sizeof(s) - 1
#define H40 "0123456789abcdef0123456789abcdef01234567"

typedef struct trailer_case {
	const char *name;
	const char *msg;
	size_t      len;
	const char *expect;	/* one "line hex subject" per trailer; subject "-" when none */
} trailer_case;

static const trailer_case cases[] = {
	{"kernel style, 12 hex with subject",
	 MSG("epoll: fix a race\n\nSome body text.\n\n"
		 "Fixes: 1c441e921201 (\"epoll: use freezable blocking call\")\n"
		 "Signed-off-by: A U Thor <a@example.org>\n"),
	 "5 1c441e921201 \"epoll: use freezable blocking call\"\n"},
	{"7 hex", MSG("Fixes: abcdef1\n"), "1 abcdef1 -\n"},
	{"8 hex", MSG("Fixes: abcdef12 (\"x\")\n"), "1 abcdef12 \"x\"\n"},
	{"40 hex", MSG("Fixes: 0123456789abcdef0123456789abcdef01234567 (\"long\")"),
	 "1 0123456789abcdef0123456789abcdef01234567 \"long\"\n"},
	{"6 hex", MSG("Fixes: 123456"), "1 123456 -\n"},
	{"5 hex does not parse", MSG("Fixes: 12345 (\"x\")\n"), ""},
	{"41 hex does not parse",
	 MSG("Fixes: 0123456789abcdef0123456789abcdef012345678 (\"x\")\n"), ""},
	{"#123 does not parse", MSG("Fixes: #123\n"), ""},
	{"hex then g does not parse", MSG("Fixes: 123456g\n"), ""},
	{"hex then underscore does not parse", MSG("Fixes: abcdef1_ (\"x\")\n"), ""},
	{"commit keyword", MSG("Fixes: commit abcdef12 (\"x\")\n"), "1 abcdef12 \"x\"\n"},
	{"COMMIT keyword, tab", MSG("FIXES:COMMIT\tabcdef12\n"), "1 abcdef12 -\n"},
	{"commitabcdef does not parse", MSG("Fixes: commitabcdef\n"), ""},
	{"commit alone does not parse", MSG("Fixes: commit\n"), ""},
	{"commit then 5 hex", MSG("Fixes: commit 12345\n"), ""},
	{"hex starting with c", MSG("Fixes: cafe1234 (\"cafe\")\n"), "1 cafe1234 \"cafe\"\n"},
	{"commit then hex starting with c", MSG("Fixes: commit cafe1234\n"), "1 cafe1234 -\n"},
	{"lower-case key", MSG("fixes: abcdef1\n"), "1 abcdef1 -\n"},
	{"upper-case key, no blank", MSG("FIXES:abcdef1\n"), "1 abcdef1 -\n"},
	{"upper-case hex", MSG("Fixes: ABCDEF12\n"), "1 ABCDEF12 -\n"},
	{"leading blanks", MSG("  \tFixes: 123456789abc (\"s\")\n"), "1 123456789abc \"s\"\n"},
	{"leading \\f \\v \\r", MSG("\f\v\rFixes:\f\v\r123456789abc\n"), "1 123456789abc -\n"},
	{"no quotes", MSG("Fixes: 123456789abc some words\n"), "1 123456789abc -\n"},
	{"hyphen after hex", MSG("Fixes: abcdef1-2\n"), "1 abcdef1 -\n"},
	{"dot after hex", MSG("Fixes: abcdef1.\n"), "1 abcdef1 -\n"},
	{"UTF-8 byte after hex", MSG("Fixes: abcdef1\xc3\xa9\n"), "1 abcdef1 -\n"},
	{"space before colon", MSG("Fixes : abcdef1\n"), ""},
	{"no colon", MSG("Fixes abcdef1\n"), ""},
	{"Fix: is not Fixes:", MSG("Fix: abcdef1\n"), ""},
	{"not at line start", MSG("Reported-by: x Fixes: abcdef1\n"), ""},
	{"letter before key", MSG("xFixes: abcdef1\n"), ""},
	{"0x1a is not a colon", MSG("Fixes\x1a abcdef1\n"), ""},
	{"0x0f is not o in commit", MSG("Fixes: c\x0fmmit abcdef1\n"), ""},
	{"key with 0x06 for f", MSG("\x06ixes: abcdef1\n"), ""},
	{"several Fixes lines",
	 MSG("subject\n\nbody\nFixes: 1111111 (\"one\")\nCc: x\nfixes: 2222222222\n"
		 "\nFixes: commit 3333333333333 (\"three\")\nFixes: 44444 (\"no\")\n"
		 "Fixes: 5555555555555555555555555555555555555555"),
	 "4 1111111 \"one\"\n6 2222222222 -\n8 3333333333333 \"three\"\n"
	 "10 5555555555555555555555555555555555555555 -\n"},
	{"CRLF line ends",
	 MSG("subj\r\n\r\nFixes: abcdef12 (\"x\")\r\nFixes: 1234567\r\n"),
	 "3 abcdef12 \"x\"\n4 1234567 -\n"},
	{"only one trailing CR stripped", MSG("Fixes: abcdef12 (\"x\")\r\r\n"),
	 "1 abcdef12 \"x\"\n"},
	{"CR alone does not split lines", MSG("Fixes: abcdef1\rFixes: 1234567\n"),
	 "1 abcdef1 -\n"},
	{"CR between colon and hex", MSG("Fixes:\r abcdef1\n"), "1 abcdef1 -\n"},
	{"last line without newline", MSG("a\nb\nFixes: abcdef1 (\"end\")"),
	 "3 abcdef1 \"end\"\n"},
	{"NUL bytes are ordinary",
	 MSG("x\0y\nFixes: abcdef1 (\"a\0b\")\nFixes: abc\0def\nFixes: 1234567\0\n"),
	 "2 abcdef1 \"a\\x00b\"\n4 1234567 -\n"},
	{"subject with quotes and parentheses",
	 MSG("Fixes: 0123456789ab (\"Revert \"foo (bar)\"\")\n"),
	 "1 0123456789ab \"Revert \"foo (bar)\"\"\n"},
	{"first (\" and last \")", MSG("Fixes: abcdef1 (\"a\") and (\"b\")\n"),
	 "1 abcdef1 \"a\") and (\"b\"\n"},
	{"(\" without \")", MSG("Fixes: abcdef1 (\"unterminated\n"), "1 abcdef1 -\n"},
	{"\") without (\"", MSG("Fixes: abcdef1 x\")\n"), "1 abcdef1 -\n"},
	{"overlapping (\")", MSG("Fixes: abcdef1 (\")\n"), "1 abcdef1 -\n"},
	{"empty subject", MSG("Fixes: abcdef1 (\"\")\n"), "1 abcdef1 \"\"\n"},
	{"subject then comment", MSG("Fixes: abcdef1234 (\"subj\") # v5.10+\n"),
	 "1 abcdef1234 \"subj\"\n"},
	{"subject on the next line is not taken",
	 MSG("Fixes: abcdef1234 (\"long subject\n  continued\")\n"), "1 abcdef1234 -\n"},
	{"empty message", MSG(""), ""},
	{"only newlines", MSG("\n\n\n"), ""},
	{"leading empty lines count", MSG("\n\nFixes: abcdef1\n"), "3 abcdef1 -\n"},
	{"lone f", MSG("f"), ""},
	{"Fixes: at end of buffer", MSG("Fixes:"), ""},
};

/* Revert lines, and subjects in parentheses without '("' (a revert is
 * rendered "line revert hex"). */
static const trailer_case more_cases[] = {
	{"git revert", MSG("Revert \"x\"\n\nThis reverts commit " H40 ".\n"),
	 "3 revert " H40 "\n"},
	{"revert, 7 hex, end of line", MSG("This reverts commit abcdef1"), "1 revert abcdef1\n"},
	{"revert, 6 hex", MSG("This reverts commit abcdef.\n"), ""},
	{"revert, 41 hex", MSG("This reverts commit " H40 "0.\n"), ""},
	{"revert, hex then non-hex letter", MSG("This reverts commit abcdef12g\n"),
	 "1 revert abcdef12\n"},
	{"revert, hex then underscore", MSG("This reverts commit abcdef12_x\n"),
	 "1 revert abcdef12\n"},
	{"revert, subject after", MSG("This reverts commit abcdef12 (\"foo\").\n"),
	 "1 revert abcdef12\n"},
	{"revert, case and blanks", MSG(" \tTHIS REVERTS COMMIT\t\fABCDEF12\r\n"),
	 "1 revert ABCDEF12\n"},
	{"revert, no blank before hex", MSG("This reverts commitabcdef12\n"), ""},
	{"revert, two spaces in the words", MSG("This  reverts commit abcdef12\n"), ""},
	{"revert, not at line start", MSG("So this reverts commit abcdef12\n"), ""},
	{"revert, 'commit' missing", MSG("This reverts abcdef12\n"), ""},
	{"revert and fixes in line order",
	 MSG("Revert \"a\"\n\nThis reverts commit 1111111.\n\nFixes: 2222222 (\"b\")\n"
		 "This reverts commit 3333333333333333333333333333333333333333.\n"),
	 "3 revert 1111111\n5 2222222 \"b\"\n6 revert 3333333333333333333333333333333333333333\n"},
	{"fixes with 6 hex, revert needs 7",
	 MSG("Fixes: 123456\nThis reverts commit 123456\n"), "1 123456 -\n"},
	{"parentheses without quotes", MSG("Fixes: abcdef1 (foo: fix bar)\n"),
	 "1 abcdef1 \"foo: fix bar\"\n"},
	{"parentheses, first ( and last )", MSG("Fixes: abcdef1 (foo (bar)) and (baz)\n"),
	 "1 abcdef1 \"foo (bar)) and (baz\"\n"},
	{"parentheses, blanks trimmed", MSG("Fixes: abcdef1 ( \tfoo bar\t )\r\n"),
	 "1 abcdef1 \"foo bar\"\n"},
	{"parentheses, single quotes", MSG("Fixes: abcdef1 ('foo')\n"), "1 abcdef1 \"foo\"\n"},
	{"parentheses, curly quotes",
	 MSG("Fixes: abcdef1 (\xe2\x80\x9c" "foo\xe2\x80\x9d)\n"), "1 abcdef1 \"foo\"\n"},
	{"parentheses, two left curly quotes",
	 MSG("Fixes: abcdef1 (\xe2\x80\x9c" "foo\xe2\x80\x9c)\n"), "1 abcdef1 \"foo\"\n"},
	{"parentheses, two right curly quotes stay",
	 MSG("Fixes: abcdef1 (\xe2\x80\x9d" "foo\xe2\x80\x9d)\n"),
	 "1 abcdef1 \"\\xe2\\x80\\x9d" "foo\\xe2\\x80\\x9d\"\n"},
	{"parentheses, quoted after trimming", MSG("Fixes: abcdef1 ( \"foo\" )\n"),
	 "1 abcdef1 \"foo\"\n"},
	{"parentheses, one pair only", MSG("Fixes: abcdef1 (''foo'')\n"), "1 abcdef1 \"'foo'\"\n"},
	{"parentheses, mismatched quotes stay", MSG("Fixes: abcdef1 ('foo\")\n"),
	 "1 abcdef1 \"'foo\"\"\n"},
	{"parentheses, opening quote only", MSG("Fixes: abcdef1 (\"foo)\n"),
	 "1 abcdef1 \"\"foo\"\n"},
	{"parentheses, quoted inner quotes", MSG("Fixes: abcdef1 ('Revert \"foo\"')\n"),
	 "1 abcdef1 \"Revert \"foo\"\"\n"},
	{"empty parentheses: no subject", MSG("Fixes: abcdef1 ()\n"), "1 abcdef1 -\n"},
	{"blank parentheses: no subject", MSG("Fixes: abcdef1 (  )\n"), "1 abcdef1 -\n"},
	{"empty quotes in parentheses: no subject", MSG("Fixes: abcdef1 ('')\n"), "1 abcdef1 -\n"},
	{"only quote marks: no subject", MSG("Fixes: abcdef1 ('\"\xe2\x80\x9c')\n"),
	 "1 abcdef1 -\n"},
	{"( before the id is not taken", MSG("(Fixes: abcdef1) x)\n"), ""},
	{"( only before the id", MSG("Fixes: commit abcdef1 foo)\n"), "1 abcdef1 -\n"},
	{") before (", MSG("Fixes: abcdef1 ) foo (\n"), "1 abcdef1 -\n"},
	{"(\" pair wins", MSG("Fixes: abcdef1 (bar) (\"foo\")\n"), "1 abcdef1 \"foo\"\n"},
	{"overlapping (\") then parentheses",
	 MSG("Fixes: abcdef1 (\") (foo)\n"), "1 abcdef1 \"\") (foo\"\n"},
	{"subject on the next line is not taken", MSG("Fixes: abcdef1 (foo\n bar)\n"),
	 "1 abcdef1 -\n"},
	{"NUL in parentheses", MSG("Fixes: abcdef1 (a\0b)\n"), "1 abcdef1 \"a\\x00b\"\n"},
};

/* Appends "line hex subject\n" for each trailer of msg to out. */
static void render(const char *msg, size_t len, char *out, size_t n, unit_counts *u,
				   const char *name)
{
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer t;
	size_t o = 0;
	int guard = 0;

	out[0] = '\0';
	while (fixes_trailer_next(msg, len, &cur, &t) && guard++ < 1000)
	{
		char hex[128], subj[512];

		CHECK(u, t.raw_off + t.raw_len <= len && t.hex_off >= t.raw_off &&
			  t.hex_off + t.hex_len <= t.raw_off + t.raw_len,
			  "%s: ranges out of bounds", name);
		unit_escape(msg + t.hex_off, t.hex_len, hex, sizeof(hex));
		if (t.kind == FIXES_TRAILER_REVERT)
		{
			CHECK(u, !t.has_subject, "%s: a revert with a subject", name);
			o += (size_t) snprintf(out + o, n - o, "%d revert %s\n", t.line, hex);
			continue;
		}
		CHECK(u, t.kind == FIXES_TRAILER_FIXES, "%s: kind %d", name, (int) t.kind);
		if (t.has_subject)
		{
			unit_escape(msg + t.subj_off, t.subj_len, subj + 1, sizeof(subj) - 2);
			subj[0] = '"';
			strcat(subj, "\"");
		}
		else
			strcpy(subj, "-");
		o += (size_t) snprintf(out + o, n - o, "%d %s %s\n", t.line, hex, subj);
	}
	CHECK(u, cur.pos == len, "%s: cursor at %zu, not at the end %zu", name, cur.pos, len);
	CHECK(u, !fixes_trailer_next(msg, len, &cur, &t), "%s: found more after the end", name);
}

/* Checks raw_off/raw_len against the line number, computed independently. */
static void check_raw_spans(const trailer_case *c, unit_counts *u)
{
	fixes_trailer_cursor cur = {0, 0};
	fixes_trailer t;

	while (fixes_trailer_next(c->msg, c->len, &cur, &t))
	{
		size_t start, n;

		unit_line_span(c->msg, c->len, t.line, &start, &n);
		CHECK(u, t.raw_off == start && t.raw_len == n,
			  "%s: raw span %zu+%zu, expected %zu+%zu", c->name, t.raw_off, t.raw_len,
			  start, n);
	}
}

static void run_table(unit_counts *u, const trailer_case *table, size_t ncases)
{
	size_t i;

	for (i = 0; i < ncases; i++)
	{
		const trailer_case *c = &table[i];
		char *copy = malloc(c->len ? c->len : 1);
		char got[4096];

		memcpy(copy, c->msg, c->len);	/* exact size: ASan catches over-reads */
		render(copy, c->len, got, sizeof(got), u, c->name);
		CHECK(u, strcmp(got, c->expect) == 0,
			  "case \"%s\"\n    expected:\n%s    got:\n%s", c->name, c->expect, got);
		free(copy);
		check_raw_spans(c, u);
	}
}

/* fixes_revert_subject: the subject, or NULL for none */
static void run_revert_subjects(unit_counts *u)
{
	static const struct { const char *subject; size_t len; const char *want; } rs[] = {
		{MSG("Revert \"epoll: fix a race\""), "epoll: fix a race"},
		{MSG("Revert \"Revert \"foo (bar)\"\""), "Revert \"foo (bar)\""},
		{MSG("Revert \"a\" and \"b\""), "a\" and \"b"},
		{MSG("Revert \"foo\" (v2)"), "foo"},
		{MSG("revert \"lower case\""), "lower case"},
		{MSG("REVERT \"upper case\""), "upper case"},
		{MSG("Revert \"x\""), "x"},
		{MSG("Revert \"a\0b\""), "a\\x00b"},
		{MSG("Revert \"\""), NULL},
		{MSG("Revert \"unterminated"), NULL},
		{MSG("Revert \""), NULL},
		{MSG("Revert"), NULL},
		{MSG(""), NULL},
		{MSG("Revert foo"), NULL},
		{MSG("Revert  \"two spaces\""), NULL},
		{MSG("Revert\t\"tab\""), NULL},
		{MSG(" Revert \"leading blank\""), NULL},
		{MSG("Reverts \"x\""), NULL},
		{MSG("Revert 'single'"), NULL},
		{MSG("Revert \xe2\x80\x9c" "curly\xe2\x80\x9d"), NULL},
		{MSG("net: Revert \"x\""), NULL},
	};
	size_t i;

	for (i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
	{
		char *copy = malloc(rs[i].len ? rs[i].len : 1);
		size_t off = 12345, len = 12345;
		bool found;
		char got[256], e[256];

		memcpy(copy, rs[i].subject, rs[i].len);	/* exact size: ASan catches over-reads */
		found = fixes_revert_subject(copy, rs[i].len, &off, &len);
		if (found)
			unit_escape(copy + off, len, got, sizeof(got));
		CHECK(u, found == (rs[i].want != NULL) &&
			  (!found || (off + len <= rs[i].len && strcmp(got, rs[i].want) == 0)),
			  "revert subject of \"%s\": %s \"%s\", expected %s",
			  unit_escape(rs[i].subject, rs[i].len, e, sizeof(e)), found ? "found" : "none",
			  found ? got : "", rs[i].want ? rs[i].want : "none");
		free(copy);
	}
}

/* ---- randomized differential test against a <regex.h> reference ---- */

/* One random line (no '\n'), biased toward what the parser finds tricky. */
static void random_line(uint64_t *rs, char *buf, size_t *n, size_t cap)
{
	static const char *const pieces[] = {
		"Fixes:", "fixes:", "FIXES:", "Fixes", "commit", "COMMIT", " ", " ", "\t",
		"\r", "\f", "\v", "0", "7", "a", "c", "f", "E", "g", "(\"", "\")", "\"",
		"(", ")", "#", "_", "x", ".", "-", "\xc3\xa9", "abcdef", "123456", "\x1a",
		"\x7f", "\x06",
	};
	static const char *const keys[] = {"Fixes:", "fixes:", "FIXES:", "FiXeS:",
		"Fixes", "Fixes::", "Fixe:", "xFixes:", "Fixes\x1a", "\x06ixes:"};
	static const char *const blanks[] = {"", "", " ", "\t", "  ", "\r", "\f\v"};
	static const char *const commits[] = {"commit ", "Commit\t", "commit", "commitx "};
	static const size_t hexlens[] = {0, 4, 5, 6, 7, 8, 12, 39, 40, 41, 45};
	size_t i, k;

	if (unit_pick(rs, 10) < 7)
	{
		unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
		unit_append(buf, n, cap, keys[unit_pick(rs, 10)]);
		unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
		if (unit_pick(rs, 10) < 3)
		{
			unit_append(buf, n, cap, commits[unit_pick(rs, 4)]);
			unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
		}
		k = hexlens[unit_pick(rs, 11)];
		for (i = 0; i < k; i++)
		{
			char h[2] = {"0123456789abcdefABCDEF"[unit_pick(rs, 22)], '\0'};

			unit_append(buf, n, cap, h);
		}
	}
	k = unit_pick(rs, 9);
	for (i = 0; i < k; i++)
		unit_append(buf, n, cap, pieces[unit_pick(rs, sizeof(pieces) / sizeof(pieces[0]))]);
}

/* Last occurrence of needle in hay, or NULL. */
static const char *find_last(const char *hay, const char *needle)
{
	const char *last = NULL, *p = hay;

	while ((p = strstr(p, needle)) != NULL)
		last = p++;
	return last;
}

/* Whether line[a..b) starts and ends with the quote strings q1 and q2,
 * apart. */
static bool quoted_by(const char *line, size_t a, size_t b, const char *q1, const char *q2)
{
	size_t l1 = strlen(q1), l2 = strlen(q2);

	return b - a >= l1 + l2 && strncmp(line + a, q1, l1) == 0 &&
		strncmp(line + b - l2, q2, l2) == 0;
}

/* Reference for a subject in parentheses: writes it as "\"...\"" into subj,
 * or "-". */
static void reference_paren(const char *line, size_t hex_end, char *subj, size_t n)
{
	static const char *const pairs[][2] = {
		{"\"", "\""}, {"\xe2\x80\x9c", "\xe2\x80\x9d"}, {"\xe2\x80\x9c", "\xe2\x80\x9c"},
		{"'", "'"},
	};
	const char *open = strchr(line + hex_end, '(');
	const char *close = strrchr(line, ')');
	size_t a, b, i, r = 0;

	strcpy(subj, "-");
	if (open == NULL || close == NULL || close < open)
		return;
	a = (size_t) (open - line) + 1;
	b = (size_t) (close - line);
	while (a < b && strchr(" \t\r\f\v", line[a]) != NULL)
		a++;
	while (b > a && strchr(" \t\r\f\v", line[b - 1]) != NULL)
		b--;
	for (i = 0; i < 4; i++)
		if (quoted_by(line, a, b, pairs[i][0], pairs[i][1]))
		{
			a += strlen(pairs[i][0]);
			b -= strlen(pairs[i][1]);
			break;
		}
	/* what is left once every quote mark is taken out */
	for (i = a; i < b;)
		if (line[i] == '"' || line[i] == '\'')
			i++;
		else if (b - i >= 3 && (strncmp(line + i, "\xe2\x80\x9c", 3) == 0 ||
								strncmp(line + i, "\xe2\x80\x9d", 3) == 0))
			i += 3;
		else
		{
			r++;
			i++;
		}
	if (r == 0)
		return;
	subj[0] = '"';
	unit_escape(line + a, b - a, subj + 1, n - 2);
	strcat(subj, "\"");
}

/* Reference: regex over each NUL-terminated line; renders like render().
 * revert_re may be NULL (no revert lines in the messages). */
static void reference(const regex_t *re, const regex_t *revert_re, const char *msg, char *out,
					  size_t n)
{
	char line[2048];
	const char *p = msg;
	size_t o = 0;
	int lineno = 0;

	out[0] = '\0';
	while (*p != '\0')
	{
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t) (nl - p) : strlen(p);
		regmatch_t m[4];

		lineno++;
		memcpy(line, p, l);
		line[l] = '\0';
		if (l > 0 && line[l - 1] == '\r')
			line[--l] = '\0';
		p = nl ? nl + 1 : p + strlen(p);
		if (regexec(re, line, 4, m, 0) == 0)
		{
			const char *open = strstr(line, "(\"");
			const char *close = find_last(line, "\")");
			char hex[64], subj[2100];

			memcpy(hex, line + m[2].rm_so, (size_t) (m[2].rm_eo - m[2].rm_so));
			hex[m[2].rm_eo - m[2].rm_so] = '\0';
			if (open && close && close >= open + 2)
			{
				subj[0] = '"';
				unit_escape(open + 2, (size_t) (close - (open + 2)), subj + 1, sizeof(subj) - 2);
				strcat(subj, "\"");
			}
			else
				reference_paren(line, (size_t) m[2].rm_eo, subj, sizeof(subj));
			o += (size_t) snprintf(out + o, n - o, "%d %s %s\n", lineno, hex, subj);
		}
		else if (revert_re != NULL && regexec(revert_re, line, 2, m, 0) == 0)
			o += (size_t) snprintf(out + o, n - o, "%d revert %.*s\n", lineno,
								   (int) (m[1].rm_eo - m[1].rm_so), line + m[1].rm_so);
	}
}

static void run_differential(unit_counts *u, int messages)
{
	regex_t re;
	uint64_t rs = 0x9e3779b97f4a7c15u;
	int i, matched = 0;
	int rc = regcomp(&re,
					 "^[ \t\r\f\v]*fixes:[ \t\r\f\v]*(commit[ \t\r\f\v]+)?"
					 "([0-9a-f]{6,40})([^0-9A-Za-z_]|$)",
					 REG_EXTENDED | REG_ICASE);

	CHECK(u, rc == 0, "regcomp failed: %d", rc);
	if (rc != 0)
		return;
	for (i = 0; i < messages; i++)
	{
		char msg[2048], want[8192], got[8192], esc[8192];
		size_t n = 0, lines = 1 + unit_pick(&rs, 6), l;
		char *copy;

		for (l = 0; l < lines; l++)
		{
			random_line(&rs, msg, &n, 1800);
			if (l + 1 < lines || unit_pick(&rs, 2))
				unit_append(msg, &n, 1800, unit_pick(&rs, 4) ? "\n" : "\r\n");
		}
		msg[n] = '\0';
		copy = malloc(n ? n : 1);
		memcpy(copy, msg, n);
		render(copy, n, got, sizeof(got), u, "random message");
		free(copy);
		reference(&re, NULL, msg, want, sizeof(want));
		matched += want[0] != '\0';
		CHECK(u, strcmp(got, want) == 0, "random message %d: \"%s\"\n    reference:\n%s"
			  "    fixes_trailer_next:\n%s", i, unit_escape(msg, n, esc, sizeof(esc)),
			  want, got);
	}
	/* the generator must actually exercise matches as well as rejections */
	CHECK(u, matched > messages / 10 && matched < messages - messages / 10,
		  "only %d of %d random messages had a trailer", matched, messages);
	regfree(&re);
}

/* One random line (no '\n'): a Fixes or revert line, with parentheses and
 * quotes after the id. */
static void random_line_more(uint64_t *rs, char *buf, size_t *n, size_t cap)
{
	static const char *const blanks[] = {"", "", " ", "\t", "  ", "\r", "\f\v"};
	static const char *const heads[] = {"Fixes:", "Fixes: commit", "This reverts commit",
		"this REVERTS commit", "This  reverts commit", "This reverts", "This reverts commit\x01",
		"Fixes"};
	static const char *const pieces[] = {"(", "(", ")", ")", "\"", "'", "\xe2\x80\x9c",
		"\xe2\x80\x9d", " ", " ", "\t", "\r", "a", "foo", "x: y", "_", ".", "g", "7", "(\"",
		"\")"};
	static const size_t hexlens[] = {5, 6, 7, 8, 12, 40, 41};
	size_t i, k;

	unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
	unit_append(buf, n, cap, heads[unit_pick(rs, 8)]);
	unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
	k = hexlens[unit_pick(rs, 7)];
	for (i = 0; i < k; i++)
	{
		char h[2] = {"0123456789abcdefABCDEF"[unit_pick(rs, 22)], '\0'};

		unit_append(buf, n, cap, h);
	}
	k = unit_pick(rs, 6);
	for (i = 0; i < k; i++)
		unit_append(buf, n, cap, pieces[unit_pick(rs, sizeof(pieces) / sizeof(pieces[0]))]);
	if (unit_pick(rs, 2))
	{
		/* a subject in parentheses, quoted or not */
		static const char *const quotes[] = {"", "", "\"", "'", "\xe2\x80\x9c", "\xe2\x80\x9d"};

		unit_append(buf, n, cap, "(");
		unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
		unit_append(buf, n, cap, quotes[unit_pick(rs, 6)]);
		k = unit_pick(rs, 4);
		for (i = 0; i < k; i++)
			unit_append(buf, n, cap, pieces[unit_pick(rs, sizeof(pieces) / sizeof(pieces[0]))]);
		unit_append(buf, n, cap, quotes[unit_pick(rs, 6)]);
		unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
		unit_append(buf, n, cap, ")");
		k = unit_pick(rs, 3);
		for (i = 0; i < k; i++)
			unit_append(buf, n, cap, pieces[unit_pick(rs, sizeof(pieces) / sizeof(pieces[0]))]);
	}
}

static void run_more_differential(unit_counts *u, int messages)
{
	regex_t re, revert_re;
	uint64_t rs = 0x853c49e6748fea9bu;
	int i, reverts = 0, subjects = 0;
	int rc = regcomp(&re,
					 "^[ \t\r\f\v]*fixes:[ \t\r\f\v]*(commit[ \t\r\f\v]+)?"
					 "([0-9a-f]{6,40})([^0-9A-Za-z_]|$)",
					 REG_EXTENDED | REG_ICASE);
	int rc2 = regcomp(&revert_re,
					  "^[ \t\r\f\v]*this reverts commit[ \t\r\f\v]+([0-9a-f]{7,40})"
					  "([^0-9a-f]|$)",
					  REG_EXTENDED | REG_ICASE);

	CHECK(u, rc == 0 && rc2 == 0, "regcomp failed: %d %d", rc, rc2);
	if (rc != 0 || rc2 != 0)
		return;
	for (i = 0; i < messages; i++)
	{
		char msg[2048], want[8192], got[8192], esc[8192];
		size_t n = 0, lines = 1 + unit_pick(&rs, 4), l;
		char *copy;

		for (l = 0; l < lines; l++)
		{
			random_line_more(&rs, msg, &n, 1800);
			if (l + 1 < lines || unit_pick(&rs, 2))
				unit_append(msg, &n, 1800, unit_pick(&rs, 4) ? "\n" : "\r\n");
		}
		msg[n] = '\0';
		copy = malloc(n ? n : 1);
		memcpy(copy, msg, n);
		render(copy, n, got, sizeof(got), u, "random message");
		free(copy);
		reference(&re, &revert_re, msg, want, sizeof(want));
		reverts += strstr(want, " revert ") != NULL;
		subjects += strstr(want, "\"") != NULL;
		CHECK(u, strcmp(got, want) == 0, "random message %d: \"%s\"\n    reference:\n%s"
			  "    fixes_trailer_next:\n%s", i, unit_escape(msg, n, esc, sizeof(esc)),
			  want, got);
	}
	/* the generator must exercise reverts and subjects, not only rejections */
	CHECK(u, reverts > messages / 10 && subjects > messages / 10,
		  "%d reverts and %d subjects in %d random messages", reverts, subjects, messages);
	regfree(&re);
	regfree(&revert_re);
}

int main(void)
{
	unit_counts u = {0, 0};

	run_table(&u, cases, sizeof(cases) / sizeof(cases[0]));
	run_table(&u, more_cases, sizeof(more_cases) / sizeof(more_cases[0]));
	run_revert_subjects(&u);
	run_differential(&u, 20000);
	run_more_differential(&u, 20000);
	return unit_report("test_trailer", &u);
}
