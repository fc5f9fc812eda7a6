/* fuzz_maintainers.c — libFuzzer harness: MAINTAINERS parsing and path matching (maintainers.c)
 *
 * Input: a MAINTAINERS file, a NUL byte, then paths separated by newlines.  Parsing and
 * matching must stay inside their buffers (ASan), every section and pattern must be
 * consistent, mnt_match must return sorted, distinct sections, and mnt_glob_prefix must
 * agree with a naive backtracking matcher on short inputs. */
#include "maintainers.h"

#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

static void **blocks;
static size_t nblocks, capblocks;

static void *
alloc(void *ctx, size_t size)
{
	(void) ctx;
	if (nblocks == capblocks)
	{
		capblocks = capblocks ? capblocks * 2 : 256;
		blocks = realloc(blocks, capblocks * sizeof(void *));
	}
	return blocks[nblocks++] = calloc(1, size ? size : 1);
}

/* directories: paths of even length (anything deterministic will do) */
static bool
is_dir(const char *path, size_t len, void *arg)
{
	(void) path;
	(void) arg;
	return len % 2 == 0;
}

static bool
search(void *regex, const char *path, size_t len, void *arg)
{
	(void) regex;
	(void) arg;
	return len > 0 && path[0] == 'm';
}

static size_t
u8len(const char *s, size_t left)
{
	unsigned char c = (unsigned char) s[0];
	size_t		n = c < 0x80 ? 1 : c >= 0xF0 && c <= 0xF7 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;

	return n > left ? left : n;
}

/* the naive matcher: a prefix of s matches p */
static bool
naive(const char *p, size_t pl, const char *s, size_t sl)
{
	if (pl == 0)
		return true;
	if (p[0] == '*')
	{
		for (size_t k = 0;;)
		{
			if (naive(p + 1, pl - 1, s + k, sl - k))
				return true;
			if (k >= sl)
				return false;
			k += u8len(s + k, sl - k);
		}
	}
	if (sl == 0)
		return false;
	if (p[0] == '?')
		return naive(p + 1, pl - 1, s + u8len(s, sl), sl - u8len(s, sl));
	return p[0] == s[0] && naive(p + 1, pl - 1, s + 1, sl - 1);
}

int LLVMFuzzerTestOneInput(const char *data, size_t size);

int LLVMFuzzerTestOneInput(const char *data, size_t size)
{
	const char *nul = memchr(data, '\0', size);
	size_t		flen = nul ? (size_t) (nul - data) : size;
	char	   *text = malloc(flen ? flen : 1);
	Maintainers m;
	int		   *out;

	memcpy(text, data, flen);
	mnt_parse(&m, text, flen, alloc, NULL);
	for (int i = 0; i < m.npatterns; i++)
		if (m.patterns[i].kind == 'N')
			m.patterns[i].regex = &m;
	mnt_set_dirs(&m, is_dir, NULL);
	REQUIRE(m.nsections >= 0 && m.npatterns >= 0);
	for (int s = 0; s < m.nsections; s++)
	{
		REQUIRE(m.sections[s].first >= 0 && m.sections[s].n > 0);
		REQUIRE(m.sections[s].first + m.sections[s].n <= m.npatterns);
	}
	for (int i = 0; i < m.npatterns; i++)
	{
		REQUIRE(m.patterns[i].section >= 0 && m.patterns[i].section < m.nsections);
		REQUIRE(strchr("FXN", m.patterns[i].kind) != NULL);
	}
	out = malloc(sizeof(int) * (size_t) (m.nsections + 1));
	if (nul != NULL)
	{
		const char *p = nul + 1;
		const char *end = data + size;

		while (p <= end)
		{
			const char *nl = memchr(p, '\n', (size_t) (end - p));
			size_t		len = nl ? (size_t) (nl - p) : (size_t) (end - p);
			char	   *path = malloc(len ? len : 1);
			int			n;

			memcpy(path, p, len);
			n = mnt_match(&m, path, len, search, NULL, out);
			REQUIRE(n >= 0 && n <= m.nsections);
			for (int k = 0; k < n; k++)
			{
				REQUIRE(out[k] >= 0 && out[k] < m.nsections);
				REQUIRE(k == 0 || out[k - 1] < out[k]);
			}
			/* the glob against the naive matcher, on the first pattern */
			if (m.npatterns > 0 && m.patterns[0].len <= 12 && len <= 24)
				REQUIRE(mnt_glob_prefix(m.patterns[0].text, m.patterns[0].len, path, len) ==
						naive(m.patterns[0].text, m.patterns[0].len, path, len));
			free(path);
			if (nl == NULL)
				break;
			p = nl + 1;
		}
	}
	free(out);
	free(text);
	while (nblocks > 0)
		free(blocks[--nblocks]);
	return 0;
}
