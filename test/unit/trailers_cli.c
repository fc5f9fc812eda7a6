/* trailers_cli.c — prints a message's trailers as git log --format='%(trailers:only,unfold)' */
#include "trailers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 *   trailers_cli < MESSAGE          one "key: value" line per trailer
 *   trailers_cli --batch < RECORDS  RECORDS is "<length>\n<message bytes>"
 *                                   repeated; each message's lines are
 *                                   followed by a NUL byte
 * Used by test/oracles/trailers-oracle.py to compare the parser with git.
 */

static void print_trailers(const char *msg, size_t len)
{
	fixes_trailers_iter it;
	fixes_git_trailer t;
	char *value = malloc(len ? len : 1);

	if (value == NULL)
	{
		perror("trailers_cli");
		exit(2);
	}
	fixes_trailers_begin(&it, msg, len);
	while (fixes_trailers_next(&it, &t))
	{
		size_t n = fixes_trailer_unfold(msg, &t, value);

		fwrite(msg + t.key_off, 1, t.key_len, stdout);
		fputs(": ", stdout);
		fwrite(value, 1, n, stdout);
		putchar('\n');
	}
	free(value);
}

/* Reads exactly n bytes into a fresh buffer of exactly n bytes. */
static char *read_exactly(size_t n)
{
	char *buf = malloc(n ? n : 1);

	if (buf == NULL || fread(buf, 1, n, stdin) != n)
	{
		fprintf(stderr, "trailers_cli: short input\n");
		exit(2);
	}
	return buf;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--batch") == 0)
	{
		unsigned long n;

		while (scanf("%lu", &n) == 1 && getchar() == '\n')
		{
			char *msg = read_exactly(n);

			print_trailers(msg, n);
			putchar('\0');
			free(msg);
		}
		if (!feof(stdin))
		{
			fprintf(stderr, "trailers_cli: malformed batch input\n");
			return 2;
		}
	}
	else if (argc == 1)
	{
		size_t cap = 65536, len = 0, got;
		char *msg = malloc(cap);

		while (msg != NULL && (got = fread(msg + len, 1, cap - len, stdin)) > 0)
		{
			len += got;
			if (len == cap)
				msg = realloc(msg, cap *= 2);
		}
		if (msg == NULL)
		{
			perror("trailers_cli");
			return 2;
		}
		print_trailers(msg, len);
		free(msg);
	}
	else
	{
		fprintf(stderr, "usage: trailers_cli [--batch] < input\n");
		return 2;
	}
	return ferror(stdout) ? 1 : 0;
}
