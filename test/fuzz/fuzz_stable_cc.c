/* fuzz_stable_cc.c — libFuzzer harness: the Cc: stable test of a message is that of one of its lines */
#include "stable_cc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *msg = malloc(size ? size : 1);	/* exact size: ASan sees over-reads */
	bool whole, any = false;
	size_t pos = 0;

	if (size)
		memcpy(msg, data, size);
	whole = fixes_stable_cc(msg, size);
	/* the message answers as its lines do, each tested alone in a buffer of its size */
	while (pos <= size)
	{
		const char *nl = pos < size ? memchr(msg + pos, '\n', size - pos) : NULL;
		size_t end = nl ? (size_t) (nl - msg) : size;
		char *line = malloc(end - pos ? end - pos : 1);
		bool hit;

		memcpy(line, msg + pos, end - pos);
		hit = fixes_stable_cc_line(line, end - pos);
		/* a hit names "stable@" after "cc:" */
		if (hit)
			REQUIRE(end - pos >= 11);
		any = any || hit;
		free(line);
		pos = end + 1;
	}
	REQUIRE(whole == any);
	free(msg);
	return 0;
}
