/* test_maintainers.c — unit tests of maintainers.c: MAINTAINERS sections and the
 * get_maintainer.pl rules of issue 14 (glob, directories, '/' counts, ranks, X:, N:, ties) */
#include "maintainers.h"
#include "unit.h"

#include <stdlib.h>

/* every allocation is kept, to be freed at the end (the leak checker is on) */
static void *blocks[4096];
static int nblocks;

static void *
alloc(void *ctx, size_t size)
{
	(void) ctx;
	blocks[nblocks] = calloc(1, size ? size : 1);
	return blocks[nblocks++];
}

static void
free_all(void)
{
	while (nblocks > 0)
		free(blocks[--nblocks]);
}

/* directories of the tree: net/ipv4 and fs/ext4 (and their parents) */
static bool
is_dir(const char *path, size_t len, void *arg)
{
	static const char *const dirs[] = {"net", "net/ipv4", "fs", "fs/ext4", "drivers", NULL};

	(void) arg;
	for (int i = 0; dirs[i]; i++)
		if (strlen(dirs[i]) == len && memcmp(dirs[i], path, len) == 0)
			return true;
	return false;
}

/* N: "expressions" of this test are plain substrings */
static bool
search(void *regex, const char *path, size_t len, void *arg)
{
	char		buf[256];

	(void) arg;
	snprintf(buf, sizeof(buf), "%.*s", (int) len, path);
	return strstr(buf, (const char *) regex) != NULL;
}

static const char *file =
	"Preamble: not a section\n"
	"\tF: indented, not a field\n"
	"\n"
	"MAILING LISTS\n"
	"M:\tsomeone\n"
	"\n"
	"F:\tlib/\n"
	"\n"
	"NET\n"
	"F:\tnet/\n"
	"X:\tnet/ipv4/\n"
	"\n"
	"IPV4   \r\n"
	"F:\tnet/ipv4\t \r\n"
	"\r\n"
	"NET DRIVERS\n"
	"F: drivers/net/*\n"
	"\n"
	"ETHERNET\n"
	"F:\tdrivers/net/ethernet/\n"
	"\n"
	"D1\n"
	"F:\tdrivers/net/ethernet/d1?/\n"
	"\n"
	"MLX5\n"
	"N:\tmlx5\n"
	"\n"
	"EXT4 A\n"
	"F:\tfs/ext4/\n"
	"\n"
	"EXT4 B\n"
	"F:\tfs/ext4\n"
	"\n"
	"ONLY X\n"
	"X:\tfs/\n"
	"\n"
	"THE REST\n"
	"F:\t*\n"
	"F:\t*/\n";

static const char *
names(Maintainers *m, const char *path, char *buf, size_t n)
{
	int			out[64];
	int			k = mnt_match(m, path, strlen(path), search, NULL, out);
	size_t		o = 0;

	buf[0] = '\0';
	for (int i = 0; i < k && o < n; i++)
		o += (size_t) snprintf(buf + o, n - o, "%s%s", i ? "|" : "", m->sections[out[i]].name);
	return buf;
}

int
main(void)
{
	unit_counts u = {0, 0};
	Maintainers m;
	char		buf[512];
	static const struct
	{
		const char *path;
		const char *want;
	}			cases[] = {
		{"net/core/sock.c", "NET"},
		{"net/ipv4/tcp.c", "IPV4"},		/* X: excludes NET; a directory without '/' */
		{"net/ipv4", "NET"},			/* the file net/ipv4: X: net/ipv4/ does not match */
		{"drivers/net/e1.c", "NET DRIVERS"},	/* '*' at one level */
		{"drivers/net/x/c.c", "THE REST"},	/* ... not deeper */
		{"drivers/net/ethernet/e/f.c", "ETHERNET"},
		{"drivers/net/ethernet/d10/a.c", "D1"},	/* d1? beats ethernet/ */
		{"drivers/net/ethernet/d1/a.c", "ETHERNET"},	/* '?' needs a character */
		{"include/linux/mlx5.h", "MLX5"},	/* N: beats an empty literal part */
		{"fs/ext4/inode.c", "EXT4 A|EXT4 B"},	/* a tie */
		{"fs/open.c", "THE REST"},		/* ONLY X is no subsystem */
		{"README", "THE REST"},
		{"lib/crc.c", "THE REST"},		/* the block without a name */
		{"drivers/net/mlx5/core.c", "MLX5"},	/* drivers/net/ * does not reach it */
	};

	mnt_parse(&m, file, strlen(file), alloc, NULL);
	/* the N: "expressions" are their own text */
	for (int i = 0; i < m.npatterns; i++)
		if (m.patterns[i].kind == 'N')
			m.patterns[i].regex = (void *) m.patterns[i].text;
	mnt_set_dirs(&m, is_dir, NULL);

	CHECK(&u, m.nsections == 9, "%d sections", m.nsections);
	CHECK(&u, strcmp(m.sections[0].name, "NET") == 0, "first section \"%s\"", m.sections[0].name);
	CHECK(&u, strcmp(m.sections[1].name, "IPV4") == 0, "trailing blanks and CR dropped: \"%s\"",
		  m.sections[1].name);
	CHECK(&u, strcmp(m.patterns[2].text, "net/ipv4/") == 0 && m.patterns[2].dir,
		  "a directory pattern gets its '/': \"%s\"", m.patterns[2].text);
	CHECK(&u, strcmp(m.sections[m.nsections - 1].name, "THE REST") == 0, "last \"%s\"",
		  m.sections[m.nsections - 1].name);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		const char *got = names(&m, cases[i].path, buf, sizeof(buf));

		CHECK(&u, strcmp(got, cases[i].want) == 0, "%s: got \"%s\", want \"%s\"",
			  cases[i].path, got, cases[i].want);
	}

	/* the glob: a prefix of the path must match */
	CHECK(&u, mnt_glob_prefix("a*c", 3, "abbbcd", 6), "a*c");
	CHECK(&u, !mnt_glob_prefix("a*c", 3, "abbb", 4), "a*c no c");
	CHECK(&u, mnt_glob_prefix("", 0, "x", 1), "empty pattern");
	CHECK(&u, mnt_glob_prefix("*", 1, "", 0), "star, empty path");
	CHECK(&u, !mnt_glob_prefix("?", 1, "", 0), "? needs a character");
	CHECK(&u, mnt_glob_prefix("a?c", 3, "a\xc3\xa9" "c", 4), "? is one UTF-8 character");
	CHECK(&u, mnt_glob_prefix("*/*/x", 5, "a/b/c/x", 7), "stars cross '/'");
	CHECK(&u, mnt_glob_prefix("**?*?", 5, "ab", 2), "stars and ?");
	CHECK(&u, !mnt_glob_prefix("**?*??", 6, "ab", 2), "too many ?");

	/* an empty file, a file of blank lines, a file without a final newline */
	mnt_parse(&m, "", 0, alloc, NULL);
	mnt_set_dirs(&m, NULL, NULL);
	CHECK(&u, m.nsections == 0, "empty: %d", m.nsections);
	CHECK(&u, mnt_match(&m, "a", 1, search, NULL, (int[1]) {0}) == 0, "no match");
	mnt_parse(&m, "\n\n \n", 4, alloc, NULL);
	CHECK(&u, m.nsections == 0, "blank: %d", m.nsections);
	mnt_parse(&m, "S\nF:\tx", 6, alloc, NULL);
	mnt_set_dirs(&m, NULL, NULL);
	CHECK(&u, m.nsections == 1 && m.npatterns == 1 && strcmp(m.patterns[0].text, "x") == 0,
		  "no final newline: %d sections", m.nsections);
	mnt_parse(&m, "S\nX:\tx", 6, alloc, NULL);
	CHECK(&u, m.nsections == 0 && m.npatterns == 0, "X: only: %d %d", m.nsections, m.npatterns);
	mnt_parse(&m, "S\nF:\tnet/c++/\n", 14, alloc, NULL);
	mnt_set_dirs(&m, NULL, NULL);
	CHECK(&u, m.patterns[0].metachar, "a '+' is flagged");

	free_all();
	return unit_report("test_maintainers", &u);
}
