/*
 * versort_sort.c — driver of ../oracles/versort-oracle.py: fixes_version_cmp on stdin
 *
 *   versort_sort            prints the lines of stdin sorted by fixes_version_cmp
 *   versort_sort --check    reads lines that should be in that order and prints
 *                           "I J" (0-based line numbers) for each pair I < J that
 *                           fixes_version_cmp does not put strictly in that order,
 *                           either way round
 *
 * A line is any bytes but '\n' and NUL (a tag name: git allows neither).
 * Exit status 0, or 2 when stdin cannot be read or memory runs out.
 */
#define _POSIX_C_SOURCE 200809L

#include "versort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static void fail(const char *what)
{
	perror(what);
	exit(2);
}

/* All lines of stdin without their '\n', in *count entries (to be freed). */
static char **read_lines(size_t *count)
{
	char **lines = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL;
	size_t size = 0;
	ssize_t len;

	while ((len = getline(&line, &size, stdin)) >= 0)
	{
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (n == cap)
		{
			cap = cap ? 2 * cap : 256;
			lines = realloc(lines, cap * sizeof(lines[0]));
			if (lines == NULL)
				fail("realloc");
		}
		lines[n] = malloc((size_t) len + 1);
		if (lines[n] == NULL)
			fail("malloc");
		memcpy(lines[n++], line, (size_t) len + 1);
	}
	if (ferror(stdin))
		fail("stdin");
	free(line);
	*count = n;
	return lines;
}

static int compare_lines(const void *a, const void *b)
{
	return fixes_version_cmp(*(char *const *) a, *(char *const *) b);
}

int main(int argc, char **argv)
{
	size_t n, i, j;
	char **lines;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--check") != 0))
	{
		fprintf(stderr, "usage: %s [--check] < lines\n", argv[0]);
		return 2;
	}
	lines = read_lines(&n);
	if (argc == 2)
	{
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (fixes_version_cmp(lines[i], lines[j]) >= 0 ||
					fixes_version_cmp(lines[j], lines[i]) <= 0)
					printf("%zu %zu\n", i, j);
	}
	else
	{
		qsort(lines, n, sizeof(lines[0]), compare_lines);
		for (i = 0; i < n; i++)
			printf("%s\n", lines[i]);
	}
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	return fflush(stdout) == 0 ? 0 : 2;
}
