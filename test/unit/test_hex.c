/* test_hex.c — src/common/hex.h: every byte against the list of hex digits */
#include <ctype.h>
#include <string.h>
#include "hex.h"
#include "unit.h"

int main(void)
{
	unit_counts u = {0, 0};

	for (int c = 0; c < 256; c++)
	{
		int either = c != 0 && strchr("0123456789abcdefABCDEF", c) != NULL;
		int lower = c != 0 && strchr("0123456789abcdef", c) != NULL;

		CHECK(&u, fixes_is_hex((unsigned char) c) == either, "fixes_is_hex(0x%02x)", c);
		CHECK(&u, fixes_is_lower_hex((unsigned char) c) == lower, "fixes_is_lower_hex(0x%02x)", c);
		/* the table: 0 for a non-digit, else 0x20 | the digit's value */
		CHECK(&u, either ? fixes_hex_value[c] == (0x20 | (int) (strchr("0123456789abcdef", tolower(c)) - "0123456789abcdef"))
			  : fixes_hex_value[c] == 0, "fixes_hex_value[0x%02x]", c);
	}
	CHECK(&u, fixes_lower_hex_span("") == 0, "empty");
	CHECK(&u, fixes_lower_hex_span("0123456789abcdef") == 16, "all digits");
	CHECK(&u, fixes_lower_hex_span("12ab:rest") == 4, "stops at ':'");
	CHECK(&u, fixes_lower_hex_span("12aB") == 3, "stops at an upper-case digit");
	CHECK(&u, fixes_lower_hex_span("g12") == 0, "not hex first");
	CHECK(&u, fixes_lower_hex_span("\xff" "12") == 0, "a high byte");
	return unit_report("test_hex", &u);
}
