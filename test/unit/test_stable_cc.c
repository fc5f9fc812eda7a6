/* test_stable_cc.c — table-driven and randomized differential tests of stable_cc.c */
#include "stable_cc.h"
#include "unit.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>

#define MSG(s) s, sizeof(s) - 1

typedef struct stable_cc_case {
	const char *name;
	const char *msg;
	size_t      len;
	int         expect;
} stable_cc_case;

static const stable_cc_case cases[] = {
	{"dpdk", MSG("net/ice: fix\n\nFixes: 0123456789ab (\"x\")\nCc: stable@dpdk.org\n\nSigned-off-by: A <a@x>\n"), 1},
	{"kernel trailer", MSG("mm: fix\n\nCc: stable@vger.kernel.org\nSigned-off-by: A <a@x>\n"), 1},
	{"angle brackets and comment", MSG("Cc: <stable@vger.kernel.org> # 5.10+\n"), 1},
	{"upper-case key", MSG("CC: stable@kernel.org\n"), 1},
	{"lower-case key", MSG("cc: stable@kernel.org"), 1},
	{"upper-case local part", MSG("Cc: STABLE@kernel.org\n"), 1},
	{"leading blanks", MSG(" \t Cc: stable@x.org\n"), 1},
	{"CR line end", MSG("Cc: stable@x.org\r\n"), 1},
	{"no blank after colon", MSG("Cc:stable@x.org\n"), 1},
	{"several addresses, stable second", MSG("Cc: a@x.org, stable@x.org\n"), 1},
	{"several addresses, semicolon", MSG("Cc: a@x.org;stable@x.org\n"), 1},
	{"display name", MSG("Cc: Stable Team <stable@x.org>\n"), 1},
	{"display name stable, other address", MSG("Cc: Stable Team <team@x.org>\n"), 0},
	{"quoted display name", MSG("Cc: \"Stable\" <stable@x.org>\n"), 1},
	{"linux-stable", MSG("Cc: linux-stable@x.org\n"), 0},
	{"stable.team", MSG("Cc: stable.team@x.org\n"), 0},
	{"stable-team", MSG("Cc: stable-team@x.org\n"), 0},
	{"xstable", MSG("Cc: xstable@x.org\n"), 0},
	{"stable_", MSG("Cc: my_stable@x.org\n"), 0},
	{"utf-8 before", MSG("Cc: \xc3\xa4stable@x.org\n"), 0},
	{"stables", MSG("Cc: stables@x.org\n"), 0},
	{"no domain", MSG("Cc: stable@\n"), 0},
	{"domain starts with a dot", MSG("Cc: stable@.org\n"), 0},
	{"stable without @", MSG("Cc: stable\n"), 0},
	{"after a comment", MSG("Cc: a@x.org # stable@x.org\n"), 0},
	{"comment right after", MSG("Cc: stable@x.org#4.4\n"), 1},
	{"other key", MSG("To: stable@x.org\n"), 0},
	{"Bcc", MSG("Bcc: stable@x.org\n"), 0},
	{"X-Cc", MSG("X-Cc: stable@x.org\n"), 0},
	{"blank before colon", MSG("Cc : stable@x.org\n"), 0},
	{"text before key", MSG("see Cc: stable@x.org\n"), 0},
	{"in the subject line", MSG("Cc: stable@x.org"), 1},
	{"quoted in a paragraph", MSG("subj\n\n    Cc: stable@x.org\n\nSigned-off-by: A\n"), 1},
	{"split over lines", MSG("Cc:\n stable@x.org\n"), 0},
	{"CR does not split", MSG("To: x\rCc: stable@x.org\n"), 0},
	{"NUL is ordinary", MSG("Cc: a\0stable@x.org\n"), 1},
	{"NUL in the word", MSG("Cc: sta\0ble@x.org\n"), 0},
	{"NUL before key", MSG("\0Cc: stable@x.org\n"), 0},
	{"second line", MSG("x\nCc: stable@x.org"), 1},
	{"ends at the domain's first letter", MSG("Cc: stable@x"), 1},
	{"empty", MSG(""), 0},
	{"lone Cc:", MSG("Cc:"), 0},
	{"lone c", MSG("c"), 0},
	{"blank lines", MSG("\n\n \n"), 0},
};

static void run_table(unit_counts *u)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const stable_cc_case *c = &cases[i];
		char *copy = malloc(c->len ? c->len : 1);
		bool got;

		memcpy(copy, c->msg, c->len);	/* exact size: ASan catches over-reads */
		got = fixes_stable_cc(copy, c->len);
		CHECK(u, got == (c->expect != 0), "case \"%s\": expected %d, got %d", c->name, c->expect, got);
		free(copy);
	}
}

/* ---- randomized differential test against a <regex.h> reference ---- */

/* a random line of ASCII pieces (no '\n', no NUL) */
static void random_line(uint64_t *rs, char *buf, size_t *n, size_t cap)
{
	static const char *const lead[] = {"", "", " ", "\t", " \r", "\f\v", "x"};
	static const char *const keys[] = {"Cc:", "cc:", "CC:", "cC:", "Cc :", "Bcc:", "X-Cc:", "C:", "Cc", "To:"};
	static const char *const pieces[] = {" ", " ", "<", ">", ",", ";", "\"", "stable@", "Stable@", "STABLE@",
		"stAble@", "stable", "linux-", "x", "X", "9", "vger.kernel.org", "#", " # 5.10+", "@", ".", "-", "_",
		"Stable Team ", "stable.", "\t", "\r", "(", ")", "+", "stable@@", "a@x.org"};
	size_t k = unit_pick(rs, 8);

	unit_append(buf, n, cap, lead[unit_pick(rs, sizeof(lead) / sizeof(lead[0]))]);
	unit_append(buf, n, cap, keys[unit_pick(rs, sizeof(keys) / sizeof(keys[0]))]);
	for (size_t i = 0; i < k; i++)
		unit_append(buf, n, cap, pieces[unit_pick(rs, sizeof(pieces) / sizeof(pieces[0]))]);
}

/*
 * The specification as a POSIX extended regular expression over one line:
 * the key, then (optionally) any text without '#' that ends in a byte that
 * cannot be in a local part, then the address.
 */
static const char reference[] =
	"^[ \t\r\f\v]*[Cc][Cc]:([^#]*[^#A-Za-z0-9.!$%&'*+/=?^_`{|}~-])?[Ss][Tt][Aa][Bb][Ll][Ee]@[A-Za-z0-9]";

static void run_random(unit_counts *u)
{
	regex_t re;
	uint64_t rs = 0x9e3779b97f4a7c15ULL;
	int mismatches = 0, positives = 0;

	CHECK(u, regcomp(&re, reference, REG_EXTENDED | REG_NOSUB | REG_NEWLINE) == 0, "regcomp");
	for (int i = 0; i < 200000; i++)
	{
		char buf[512];
		size_t n = 0;
		size_t lines = 1 + unit_pick(&rs, 3);
		bool expect = false, got;
		char *copy;

		for (size_t l = 0; l < lines; l++)
		{
			size_t from = n;
			char line[512];

			random_line(&rs, buf, &n, sizeof(buf) - 1);
			memcpy(line, buf + from, n - from);
			line[n - from] = '\0';
			expect = expect || regexec(&re, line, 0, NULL, 0) == 0;
			if (l + 1 < lines)
				unit_append(buf, &n, sizeof(buf), "\n");
		}
		copy = malloc(n ? n : 1);
		memcpy(copy, buf, n);
		got = fixes_stable_cc(copy, n);
		positives += expect;
		if (got != expect && mismatches++ < 10)
		{
			char esc[2048];

			CHECK(u, got == expect, "random message \"%s\": expected %d, got %d",
				  unit_escape(buf, n, esc, sizeof(esc)), expect, got);
		}
		free(copy);
	}
	CHECK(u, mismatches == 0, "%d random messages differ from the reference", mismatches);
	/* the generator must make both answers often, or the test proves little */
	CHECK(u, positives > 5000 && positives < 150000, "%d of 200000 random messages match", positives);
	regfree(&re);
}

int main(void)
{
	unit_counts u = {0, 0};

	run_table(&u);
	run_random(&u);
	return unit_report("test_stable_cc", &u);
}
