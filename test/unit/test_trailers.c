/* test_trailers.c — tests of the git trailer parser, expected values printed by git 2.39 */
#include "trailers.h"
#include "unit.h"

#include <stdlib.h>

#define MSG(s) s, sizeof(s) - 1

/*
 * Each "git" value is what "git log -1 --encoding=none
 * --format='%(trailers:only,unfold)'" printed (less the final newline of
 * the format) for a commit object written with "git hash-object -t commit
 * --literally" and that message (git 2.39.5, no configuration); "lines" is
 * the line number of each trailer's key in the message.
 */
typedef struct trailers_case {
	const char *name;
	const char *msg;
	size_t      len;
	const char *git;
	const char *lines;
} trailers_case;

static const trailers_case cases[] = {
	{"empty message",
	 MSG(""),
	 "",
	 ""},
	{"subject only",
	 MSG("Key: value\n"),
	 "",
	 ""},
	{"subject only, no newline",
	 MSG("Key: value"),
	 "",
	 ""},
	{"one trailer",
	 MSG("subj\n\nKey: value\n"),
	 "Key: value\n",
	 "3"},
	{"no final newline",
	 MSG("subj\n\nKey: value"),
	 "Key: value\n",
	 "3"},
	{"leading blank lines are not a paragraph break",
	 MSG("\n \t\n\nKey: v\n\nOther: w\n"),
	 "Other: w\n",
	 "6"},
	{"leading blank lines then a trailer-like subject",
	 MSG("\n \n\nKey: v\n"),
	 "",
	 ""},
	{"leading blank lines, subject then trailers",
	 MSG("\n\nsubj\n\nKey: v\n"),
	 "Key: v\n",
	 "5"},
	{"only the last paragraph",
	 MSG("subj\n\nA: 1\n\nB: 2\nC: 3\n"),
	 "B: 2\nC: 3\n",
	 "5 6"},
	{"a paragraph after the trailers hides them",
	 MSG("subj\n\nA: 1\n\nbody\n"),
	 "",
	 ""},
	{"trailing empty lines ignored",
	 MSG("subj\n\nA: 1\n\n\n"),
	 "A: 1\n",
	 "3"},
	{"trailing blank lines with spaces skipped",
	 MSG("subj\n\nA: 1\n  \n\t\n"),
	 "A: 1\n",
	 "3"},
	{"blank last line without newline",
	 MSG("subj\n\nA: b\n \t"),
	 "A: b\n",
	 "3"},
	{"blank subject without newline",
	 MSG("\n \t"),
	 "",
	 ""},
	{"CRLF",
	 MSG("subj\r\n\r\nA: b\r\nC: d\r\n"),
	 "A: b\nC: d\n",
	 "3 4"},
	{"CRLF continuation keeps the CR",
	 MSG("subj\r\n\r\nA: b\r\n  c\r\n"),
	 "A: b\r c\n",
	 "3"},
	{"CRLF blank line after trailers",
	 MSG("subj\r\n\r\nA: b\r\n\r\n"),
	 "A: b\n",
	 "3"},
	{"key with a space is no trailer",
	 MSG("subj\n\nKey Name: v\n"),
	 "",
	 ""},
	{"blank before colon dropped from the key",
	 MSG("subj\n\nKey : v\nTab\t: w\n"),
	 "Key: v\nTab: w\n",
	 "3 4"},
	{"colon at line start is no trailer",
	 MSG("subj\n\n: v\n"),
	 "",
	 ""},
	{"hyphen and digit keys",
	 MSG("subj\n\n-: a\n9: b\nX-1-y: c\n"),
	 "-: a\n9: b\nX-1-y: c\n",
	 "3 4 5"},
	{"underscore key is no trailer",
	 MSG("subj\n\nK_y: v\n"),
	 "",
	 ""},
	{"non-ASCII key is no trailer",
	 MSG("subj\n\n\xc3""\xa9""t\xc3""\xa9"": v\n"),
	 "",
	 ""},
	{"empty value",
	 MSG("subj\n\nKey:\nOther:   \n"),
	 "Key: \nOther: \n",
	 "3 4"},
	{"value keeps inner colons",
	 MSG("subj\n\nA:b:c\nurl: http://x/y\n"),
	 "A: b:c\nurl: http://x/y\n",
	 "3 4"},
	{"value trimmed",
	 MSG("subj\n\nKey: \t value \t \n"),
	 "Key: value\n",
	 "3"},
	{"continuation lines unfold",
	 MSG("subj\n\nKey: a\n b\n\tc\n"),
	 "Key: a b c\n",
	 "3"},
	{"value starting on the continuation line",
	 MSG("subj\n\nKey:\n   v\n"),
	 "Key: v\n",
	 "3"},
	{"trailing spaces before the fold are kept",
	 MSG("subj\n\nKey: a  \n  b\n"),
	 "Key: a   b\n",
	 "3"},
	{"whitespace-only line at the end continues",
	 MSG("subj\n\nKey: a\n  \n"),
	 "Key: a\n",
	 "3"},
	{"empty line then blank line at the end",
	 MSG("subj\n\nKey: a\n\n  \n"),
	 "Key: a\n",
	 "3"},
	{"continuation before any trailer",
	 MSG("subj\n\n  lead\nKey: a\n"),
	 "",
	 ""},
	{"continuation of a non-trailer line is not printed",
	 MSG("subj\n\nK: v\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"
		 "  more\n"),
	 "K: v\n",
	 "3"},
	{"non-trailer line: no block",
	 MSG("subj\n\nbody\nKey: v\n"),
	 "",
	 ""},
	{"Signed-off-by: 1 of 4 lines is enough",
	 MSG("subj\n\nb\nb\nb\nSigned-off-by: A <a@b>\n"),
	 "Signed-off-by: A <a@b>\n",
	 "6"},
	{"Signed-off-by: 1 of 5 lines is not",
	 MSG("subj\n\nb\nb\nb\nb\nSigned-off-by: A <a@b>\n"),
	 "",
	 ""},
	{"3 trailers of 12 lines with Signed-off-by",
	 MSG("subj\n\nb\nb\nb\nb\nb\nb\nb\nb\nb\nSigned-off-by: A\nK: v\nL: w\n"),
	 "Signed-off-by: A\nK: v\nL: w\n",
	 "12 13 14"},
	{"3 trailers of 13 lines with Signed-off-by",
	 MSG("subj\n\nb\nb\nb\nb\nb\nb\nb\nb\nb\nb\nSigned-off-by: A\nK: v\nL: w\n"),
	 "",
	 ""},
	{"Signed-off-by: needs its space to count",
	 MSG("subj\n\nb\nSigned-off-by:A\n"),
	 "",
	 ""},
	{"signed-off-by: is case-sensitive",
	 MSG("subj\n\nb\nsigned-off-by: A\n"),
	 "",
	 ""},
	{"cherry-picked line counts but is not printed",
	 MSG("subj\n\nbody\nK: v\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"),
	 "K: v\n",
	 "4"},
	{"non-trailer continuations count against the block",
	 MSG("subj\n\nb\n c\n c\n c\nSigned-off-by: A\n"),
	 "",
	 ""},
	{"a --- line does not end the message",
	 MSG("subj\n\nA: b\n---\nC: d\n"),
	 "",
	 ""},
	{"--- paragraph before the trailers",
	 MSG("subj\n\nA: b\n---\n\nC: d\n"),
	 "C: d\n",
	 "6"},
	{"comment line inside the block",
	 MSG("subj\n\nA: b\n# comment\nC: d\n"),
	 "A: b\nC: d\n",
	 "3 5"},
	{"comment line breaks a continuation",
	 MSG("subj\n\nA: b\n#\n  c\n"),
	 "",
	 ""},
	{"trailing comment lines ignored",
	 MSG("subj\n\nA: b\n# c\n#\n"),
	 "A: b\n",
	 "3"},
	{"comment lines in the subject",
	 MSG("# c\n\nA: b\n"),
	 "A: b\n",
	 "3"},
	{"comment line then subject",
	 MSG("#subj\nA: b\n"),
	 "",
	 ""},
	{"Conflicts block ignored",
	 MSG("subj\n\nA: b\nConflicts:\n\tx.c\n\ty.c\n"),
	 "A: b\n",
	 "3"},
	{"Conflicts block with an empty line",
	 MSG("subj\n\nA: b\nConflicts:\n\tx.c\n\n\ty.c\n"),
	 "A: b\n",
	 "3"},
	{"Conflicts block not at the end",
	 MSG("subj\n\nA: b\nConflicts:\n\tx.c\nC: d\n"),
	 "A: b\nConflicts: x.c\nC: d\n",
	 "3 4 6"},
	{"cut line ends the message",
	 MSG("subj\n\nA: b\n# ------------------------ >8 ------------------------\nC: d\n"),
	 "A: b\n",
	 "3"},
	{"cut line as the first line",
	 MSG("# ------------------------ >8 ------------------------\n\nA: b\n"),
	 "",
	 ""},
	{"indented cut line is no cut line",
	 MSG("subj\n\nA: b\n # ------------------------ >8 ------------------------\n"),
	 "A: b # ------------------------ >8 ------------------------\n",
	 "3"},
	{"NUL ends the message",
	 MSG("subj\n\nA: b\x00""\nC: d\n"),
	 "A: b\n",
	 "3"},
	{"NUL in the subject",
	 MSG("su\x00""bj\n\nA: b\n"),
	 "",
	 ""},
	{"invalid UTF-8 value",
	 MSG("subj\n\nA: \xff""\xfe""\n"),
	 "A: \xff""\xfe""\n",
	 "3"},
	{"form feed is not whitespace",
	 MSG("subj\n\nA: b\x0c""\n\x0b""c\n"),
	 "",
	 ""},
	{"lone CR does not split lines",
	 MSG("subj\n\nA: b\rC: d\n"),
	 "A: b\rC: d\n",
	 "3"},
	{"kernel style",
	 MSG("epoll: fix a race\n\nSome body text.\n\n"
		 "Fixes: 1c441e921201 (\"epoll: use freezable blocking call\")\n"
		 "Cc: stable@vger.kernel.org # 3.13+\nSigned-off-by: A U Thor <a@example.org>\n"),
	 "Fixes: 1c441e921201 (\"epoll: use freezable blocking call\")\n"
	 "Cc: stable@vger.kernel.org # 3.13+\nSigned-off-by: A U Thor <a@example.org>\n",
	 "5 6 7"},
};

/* Renders the trailers of msg as git prints them, and their line numbers. */
static void render(const char *msg, size_t len, char *out, size_t n, char *lines, size_t ln,
				   unit_counts *u, const char *name)
{
	fixes_trailers_iter it;
	fixes_git_trailer t;
	size_t o = 0, lo = 0;
	int position = 0;

	out[0] = lines[0] = '\0';
	fixes_trailers_begin(&it, msg, len);
	while (fixes_trailers_next(&it, &t))
	{
		char *exact = malloc(t.unfolded_len ? t.unfolded_len : 1);	/* ASan: no overrun */
		size_t vlen = fixes_trailer_unfold(msg, &t, exact);

		CHECK(u, t.position == ++position, "%s: position %d, expected %d", name, t.position,
			  position);
		CHECK(u, t.key_off + t.key_len <= len && t.val_off + t.val_len <= len &&
			  t.key_off + t.key_len < t.val_off &&
			  vlen == t.unfolded_len && vlen <= t.val_len,
			  "%s: spans out of order or out of bounds", name);
		if (o + t.key_len + vlen + 3 < n)
		{
			memcpy(out + o, msg + t.key_off, t.key_len);
			o += t.key_len;
			memcpy(out + o, ": ", 2);
			o += 2;
			memcpy(out + o, exact, vlen);
			o += vlen;
			out[o++] = '\n';
			out[o] = '\0';
		}
		lo += (size_t) snprintf(lines + lo, ln - lo, "%s%d", lo ? " " : "", t.line);
		free(exact);
	}
	CHECK(u, !fixes_trailers_next(&it, &t), "%s: found more after the end", name);
}

static void run_table(unit_counts *u)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const trailers_case *c = &cases[i];
		char *copy = malloc(c->len ? c->len : 1);
		char got[4096], lines[256], e1[4096], e2[4096];

		memcpy(copy, c->msg, c->len);	/* exact size: ASan catches over-reads */
		render(copy, c->len, got, sizeof(got), lines, sizeof(lines), u, c->name);
		CHECK(u, strcmp(got, c->git) == 0, "case \"%s\"\n    git:\n%s\n    parser:\n%s", c->name,
			  unit_escape(c->git, strlen(c->git), e1, sizeof(e1)),
			  unit_escape(got, strlen(got), e2, sizeof(e2)));
		CHECK(u, strcmp(lines, c->lines) == 0, "case \"%s\": lines \"%s\", expected \"%s\"",
			  c->name, lines, c->lines);
		free(copy);
	}
}

/* The spans of a folded value: they point into the message as written. */
static void run_spans(unit_counts *u)
{
	static const char msg[] = "subj\n\nKey :\n   v  \n\tw\nNext:x";
	fixes_trailers_iter it;
	fixes_git_trailer t;
	char buf[16];

	fixes_trailers_begin(&it, msg, sizeof(msg) - 1);
	CHECK(u, fixes_trailers_next(&it, &t), "no first trailer");
	CHECK(u, t.position == 1 && t.line == 3 && t.key_off == 6 && t.key_len == 3,
		  "first key: position %d line %d at %zu+%zu", t.position, t.line, t.key_off, t.key_len);
	CHECK(u, t.val_off == 15 && t.val_len == 6 && t.unfolded_len == 5,
		  "first value at %zu+%zu, unfolded %zu", t.val_off, t.val_len, t.unfolded_len);
	CHECK(u, fixes_trailer_unfold(msg, &t, buf) == 5 && memcmp(buf, "v   w", 5) == 0,
		  "first value unfolded wrong");
	CHECK(u, fixes_trailers_next(&it, &t), "no second trailer");
	CHECK(u, t.position == 2 && t.line == 6 && t.key_off == 22 && t.key_len == 4 &&
		  t.val_off == 27 && t.val_len == 1 && t.unfolded_len == 1,
		  "second: position %d line %d key %zu+%zu value %zu+%zu", t.position, t.line,
		  t.key_off, t.key_len, t.val_off, t.val_len);
	CHECK(u, !fixes_trailers_next(&it, &t), "a third trailer");
}

/* Large inputs: many trailers, one long folded value, many comment and
 * cut-line-like lines; each runs in linear time (a quadratic scan would
 * take minutes here under the sanitizers). */
static void run_large(unit_counts *u)
{
	size_t n = 200000, i, len;
	char *msg = malloc(16 * n + 64);
	fixes_trailers_iter it;
	fixes_git_trailer t;
	int count;

	/* n trailers */
	len = (size_t) sprintf(msg, "subj\n\n");
	for (i = 0; i < n; i++)
		len += (size_t) sprintf(msg + len, "K%zu: v\n", i % 10);
	fixes_trailers_begin(&it, msg, len);
	for (count = 0; fixes_trailers_next(&it, &t); count++)
		;
	CHECK(u, count == (int) n && t.position == (int) n && t.line == (int) n + 2,
		  "%d trailers of %zu, last at line %d", count, n, t.line);

	/* one trailer folded over n lines */
	len = (size_t) sprintf(msg, "subj\n\nKey: a\n");
	for (i = 0; i < n; i++)
		len += (size_t) sprintf(msg + len, " b\n");
	fixes_trailers_begin(&it, msg, len);
	CHECK(u, fixes_trailers_next(&it, &t) && t.unfolded_len == 1 + 2 * n &&
		  !fixes_trailers_next(&it, &t), "folded value: unfolded length %zu", t.unfolded_len);

	/* n lines that almost are the cut line, then comments */
	len = (size_t) sprintf(msg, "subj\n\nKey: a\n");
	for (i = 0; i < n / 2; i++)
		len += (size_t) sprintf(msg + len, "# -----\n#\n");
	fixes_trailers_begin(&it, msg, len);
	CHECK(u, fixes_trailers_next(&it, &t) && t.line == 3 && !fixes_trailers_next(&it, &t),
		  "comments after the block");
	free(msg);
}

int main(void)
{
	unit_counts u = {0, 0};

	run_table(&u);
	run_spans(&u);
	run_large(&u);
	return unit_report("test_trailers", &u);
}
