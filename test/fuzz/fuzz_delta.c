/* fuzz_delta.c — libFuzzer harness: git's delta format applied to a base
 * (src/reader/delta.c, what fixes-reader's pack reading rebuilds objects with)
 *
 * The first two bytes say how many of the rest are the base; the others are
 * the delta.  delta_apply() must refuse or give a result of the size the
 * delta declares, never above max, without reading outside the base or the
 * delta (ASan: both are exact copies). */
#include "../../src/reader/delta.h"

#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	size_t base_len, delta_len, out_len = 0;
	unsigned char *base, *delta, *out;
	const size_t max = 1 << 20;

	if (size < 2)
		return 0;
	base_len = ((size_t) data[0] << 8 | data[1]) % (size - 1);
	delta_len = size - 2 - base_len;
	base = malloc(base_len ? base_len : 1);
	delta = malloc(delta_len ? delta_len : 1);
	memcpy(base, data + 2, base_len);
	memcpy(delta, data + 2 + base_len, delta_len);
	out = delta_apply(base, base_len, delta, delta_len, max, &out_len);
	if (out != NULL)
	{
		REQUIRE(out_len <= max);
		REQUIRE(out[out_len] == '\0');
		free(out);
	}
	free(base);
	free(delta);
	return 0;
}
