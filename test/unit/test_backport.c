/* test_backport.c — table-driven and randomized differential tests of backport.c */
#include "backport.h"
#include "unit.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>

#define MSG(s) s, sizeof(s) - 1
#define H12 "1c441e921201"
#define H40 "0123456789abcdef0123456789abcdef01234567"

typedef struct backport_case {
	const char *name;
	const char *msg;
	size_t      len;
	const char *expect;	/* one "line form hex" per line found; form U, B or C */
} backport_case;

static const backport_case cases[] = {
	{"stable style", MSG("subj\n\ncommit " H40 " upstream.\n\nbody\n"), "3 U " H40 "\n"},
	{"no dot", MSG("commit " H12 " upstream"), "1 U " H12 "\n"},
	{"two dots", MSG("commit " H12 " upstream..\n"), ""},
	{"trailing blanks", MSG("commit " H12 " upstream. \t\r\n"), "1 U " H12 "\n"},
	{"leading blanks", MSG(" \t\f\vcommit " H12 " upstream.\n"), "1 U " H12 "\n"},
	{"upper case", MSG("COMMIT " H12 " UPSTREAM.\n"), "1 U " H12 "\n"},
	{"mixed case hex", MSG("Commit ABCdef1 Upstream\n"), "1 U ABCdef1\n"},
	{"tabs between words", MSG("commit\t" H12 "\t\tupstream\n"), "1 U " H12 "\n"},
	{"7 hex", MSG("commit abcdef1 upstream.\n"), "1 U abcdef1\n"},
	{"6 hex", MSG("commit abcdef upstream.\n"), ""},
	{"40 hex", MSG("commit " H40 " upstream.\n"), "1 U " H40 "\n"},
	{"41 hex", MSG("commit " H40 "8 upstream.\n"), ""},
	{"no blank before hex", MSG("commit" H12 " upstream.\n"), ""},
	{"no blank after hex", MSG("commit " H12 "upstream.\n"), ""},
	{"non-hex in id", MSG("commit 1c441g921201 upstream.\n"), ""},
	{"text after", MSG("commit " H12 " upstream. Thanks\n"), ""},
	{"text before", MSG("See commit " H12 " upstream.\n"), ""},
	{"upstreams", MSG("commit " H12 " upstreams\n"), ""},
	{"commits", MSG("commits " H12 " upstream\n"), ""},
	{"bracketed", MSG("[ Upstream commit " H40 " ]\n"), "1 B " H40 "\n"},
	{"bracketed tight", MSG("[upstream commit " H12 "]"), "1 B " H12 "\n"},
	{"bracketed loose", MSG("  [ \tUPSTREAM  commit\t" H12 " \t] \r\n"), "1 B " H12 "\n"},
	{"bracketed, no blank after upstream", MSG("[ Upstreamcommit " H12 " ]\n"), ""},
	{"bracketed, no closing", MSG("[ Upstream commit " H12 "\n"), ""},
	{"bracketed, text after", MSG("[ Upstream commit " H12 " ] x\n"), ""},
	{"bracketed, 41 hex", MSG("[ Upstream commit " H40 "a ]\n"), ""},
	{"bracketed, 6 hex", MSG("[ Upstream commit abcdef ]\n"), ""},
	{"bracketed, dot", MSG("[ Upstream commit " H12 ". ]\n"), ""},
	{"cherry-pick -x", MSG("subj\n\nbody\n(cherry picked from commit " H40 ")\n"),
	 "4 C " H40 "\n"},
	{"cherry-pick upper case", MSG("(CHERRY PICKED FROM COMMIT " H12 ")"), "1 C " H12 "\n"},
	{"cherry-pick tab before hex", MSG("(cherry picked from commit\t" H12 ")\n"),
	 "1 C " H12 "\n"},
	{"cherry-pick blanks around", MSG("\t(cherry picked from commit " H12 ")  \n"),
	 "1 C " H12 "\n"},
	{"cherry-pick blank before )", MSG("(cherry picked from commit " H12 " )\n"), ""},
	{"cherry-pick two spaces in words", MSG("(cherry  picked from commit " H12 ")\n"), ""},
	{"cherry-pick blank after (", MSG("( cherry picked from commit " H12 ")\n"), ""},
	{"cherry-pick no blank before hex", MSG("(cherry picked from commit" H12 ")\n"), ""},
	{"cherry-pick 41 hex", MSG("(cherry picked from commit " H40 "0)\n"), ""},
	{"cherry-pick, no )", MSG("(cherry picked from commit " H12 "\n"), ""},
	{"cherry-pick, text after", MSG("(cherry picked from commit " H12 ") x\n"), ""},
	{"several",
	 MSG("subj\r\n\r\ncommit 1111111 upstream.\r\n[ Upstream commit 2222222 ]\r\n"
		 "x\n(cherry picked from commit 3333333)\ncommit 4444444 upstream"),
	 "3 U 1111111\n4 B 2222222\n6 C 3333333\n7 U 4444444\n"},
	{"CR alone does not split lines", MSG("commit abcdef1 upstream\rcommit 1234567 upstream\n"),
	 ""},
	{"NUL bytes are ordinary", MSG("commit abc\0def1 upstream\ncommit abcdef1 upstream\0\n"
								   "[ upstream commit abcdef1 ]\n"), "3 B abcdef1\n"},
	{"empty message", MSG(""), ""},
	{"blank lines", MSG("\n \n\t\n"), ""},
	{"lone c", MSG("c"), ""},
	{"lone [", MSG("["), ""},
	{"lone (", MSG("("), ""},
	{"commit at end of buffer", MSG("commit "), ""},
};

static const char form_letter[] = {'U', 'B', 'C'};

/* Appends "line form hex\n" for each backport line of msg to out. */
static void render(const char *msg, size_t len, char *out, size_t n, unit_counts *u,
				   const char *name)
{
	fixes_backport_cursor cur = {0, 0};
	fixes_backport b;
	size_t o = 0;
	int guard = 0;

	out[0] = '\0';
	while (fixes_backport_next(msg, len, &cur, &b) && guard++ < 1000)
	{
		char hex[128];

		CHECK(u, b.raw_off + b.raw_len <= len && b.hex_off >= b.raw_off &&
			  b.hex_off + b.hex_len <= b.raw_off + b.raw_len && b.line == cur.line &&
			  (int) b.form >= 0 && (int) b.form <= 2,
			  "%s: ranges out of bounds", name);
		unit_escape(msg + b.hex_off, b.hex_len, hex, sizeof(hex));
		o += (size_t) snprintf(out + o, n - o, "%d %c %s\n", b.line, form_letter[b.form], hex);
	}
	CHECK(u, cur.pos == len, "%s: cursor at %zu, not at the end %zu", name, cur.pos, len);
	CHECK(u, !fixes_backport_next(msg, len, &cur, &b), "%s: found more after the end", name);
}

/* Checks raw_off/raw_len against the line number, computed independently. */
static void check_raw_spans(const backport_case *c, unit_counts *u)
{
	fixes_backport_cursor cur = {0, 0};
	fixes_backport b;

	while (fixes_backport_next(c->msg, c->len, &cur, &b))
	{
		size_t start, n;

		unit_line_span(c->msg, c->len, b.line, &start, &n);
		CHECK(u, b.raw_off == start && b.raw_len == n,
			  "%s: raw span %zu+%zu, expected %zu+%zu", c->name, b.raw_off, b.raw_len,
			  start, n);
	}
}

static void run_table(unit_counts *u)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const backport_case *c = &cases[i];
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

/* ---- randomized differential test against <regex.h> references ---- */

/* One random line (no '\n'): one of the three forms, each piece usually
 * right and sometimes replaced by a near miss. */
static void random_line(uint64_t *rs, char *buf, size_t *n, size_t cap)
{
	static const char *const blanks[] = {" ", " ", "\t", "  ", "\r", "\f\v", " \t", ""};
	static const char *const forms[3][5][4] = {
		{{"commit", "COMMIT", "Commit", "commits"}, {"S", "S", "S", ""}, {"H", "H", "H", "H"},
		 {"S", "S", "S", ""}, {"upstream.", "Upstream", "UPSTREAM", "upstream.."}},
		{{"[", "[S", "[", "("}, {"upstream", "Upstream", "UPSTREAM", "upstreamcommit"},
		 {"SS", "S", "S", ""}, {"commitS", "commitS", "COMMITS", "commit"}, {"HS]", "H]", "H]", "H."}},
		{{"(cherry picked from commit", "(CHERRY picked FROM commit", "(cherry picked from commit",
		  "(cherry  picked from commit"}, {"S", "S", "S", ""}, {"H", "H", "H", "H"},
		 {")", ")", ")", "S)"}, {"", "", "", "x"}},
	};
	static const size_t hexlens[] = {5, 6, 7, 7, 8, 12, 12, 39, 40, 40, 41, 45};
	size_t f = unit_pick(rs, 3), piece, i, k;

	if (unit_pick(rs, 2))
		unit_append(buf, n, cap, blanks[unit_pick(rs, 8)]);
	for (piece = 0; piece < 5; piece++)
	{
		const char *c = forms[f][piece][unit_pick(rs, 8) == 0 ? 3 : unit_pick(rs, 3)];

		for (; *c; c++)
			if (*c == 'S')
				unit_append(buf, n, cap, blanks[unit_pick(rs, 7)]);
			else if (*c == 'H')
				for (k = hexlens[unit_pick(rs, 12)], i = 0; i < k; i++)
				{
					char h[2] = {"0123456789abcdefABCDEFg"[unit_pick(rs, i + 1 == k ? 23 : 22)], 0};

					unit_append(buf, n, cap, h);
				}
			else
			{
				char ch[2] = {*c, '\0'};

				unit_append(buf, n, cap, ch);
			}
	}
	if (unit_pick(rs, 3) == 0)
		unit_append(buf, n, cap, blanks[unit_pick(rs, 8)]);
	if (unit_pick(rs, 20) == 0)
		unit_append(buf, n, cap, unit_pick(rs, 2) ? "x" : "\xc3\xa9");
}

/* Reference: the three regular expressions over each NUL-terminated line. */
static void reference(regex_t *re, const char *msg, char *out, size_t n)
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
		regmatch_t m[2];
		int f;

		lineno++;
		memcpy(line, p, l);
		line[l] = '\0';
		p = nl ? nl + 1 : p + strlen(p);
		for (f = 0; f < 3; f++)
			if (regexec(&re[f], line, 2, m, 0) == 0)
			{
				o += (size_t) snprintf(out + o, n - o, "%d %c %.*s\n", lineno, form_letter[f],
									   (int) (m[1].rm_eo - m[1].rm_so), line + m[1].rm_so);
				break;
			}
	}
}

static void run_differential(unit_counts *u, int messages)
{
	static const char *const patterns[] = {
		"^S*commitS+(H)S+upstream[.]?S*$",
		"^S*\\[S*upstreamS+commitS+(H)S*\\]S*$",
		"^S*\\(cherry picked from commitS+(H)\\)S*$",
	};
	regex_t re[3];
	uint64_t rs = 0x2545f4914f6cdd1du;
	int i, f, matched = 0;

	for (f = 0; f < 3; f++)
	{
		char pat[256];
		size_t o = 0;
		const char *c;
		int rc;

		/* S is \s, H the 7..40 hex digits */
		for (c = patterns[f]; *c; c++)
			o += (size_t) snprintf(pat + o, sizeof(pat) - o, "%s",
								   *c == 'S' ? "[ \t\r\f\v]" :
								   *c == 'H' ? "[0-9a-f]{7,40}" : (char[]) {*c, '\0'});
		rc = regcomp(&re[f], pat, REG_EXTENDED | REG_ICASE);
		CHECK(u, rc == 0, "regcomp of %s failed: %d", pat, rc);
		if (rc != 0)
			return;
	}
	for (i = 0; i < messages; i++)
	{
		char msg[2048], want[8192], got[8192], esc[8192];
		size_t n = 0, lines = 1 + unit_pick(&rs, 5), l;
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
		reference(re, msg, want, sizeof(want));
		matched += want[0] != '\0';
		CHECK(u, strcmp(got, want) == 0, "random message %d: \"%s\"\n    reference:\n%s"
			  "    fixes_backport_next:\n%s", i, unit_escape(msg, n, esc, sizeof(esc)),
			  want, got);
	}
	/* the generator must actually exercise matches as well as rejections */
	CHECK(u, matched > messages / 20 && matched < messages - messages / 10,
		  "only %d of %d random messages had a backport line", matched, messages);
	for (f = 0; f < 3; f++)
		regfree(&re[f]);
}

int main(void)
{
	unit_counts u = {0, 0};

	run_table(&u);
	run_differential(&u, 30000);
	return unit_report("test_backport", &u);
}
