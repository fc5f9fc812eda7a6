/*
 * hex.h — is a byte a hex digit: the one test of the parsers, the commit
 * parser, the reader and the backend.  Pure C, no postgres.h.
 */
#ifndef FIXES_HEX_H
#define FIXES_HEX_H

#include <stdbool.h>
#include <stddef.h>

/* 0-9, a-f or A-F */
static inline bool
fixes_is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* 0-9 or a-f: the digits of an id as git prints it */
static inline bool
fixes_is_lower_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/*
 * 0x20 | a hex digit's value (0-9, a-f, A-F), 0 for any other byte: a table
 * for the loops over the 40 digits of an id on a hot path (the commit
 * parser, the walk's parents), which AND the entries together to know that
 * every byte was a digit, without a branch per byte
 */
static const unsigned char fixes_hex_value[256] = {
	['0'] = 0x20, ['1'] = 0x21, ['2'] = 0x22, ['3'] = 0x23, ['4'] = 0x24,
	['5'] = 0x25, ['6'] = 0x26, ['7'] = 0x27, ['8'] = 0x28, ['9'] = 0x29,
	['a'] = 0x2a, ['b'] = 0x2b, ['c'] = 0x2c, ['d'] = 0x2d, ['e'] = 0x2e, ['f'] = 0x2f,
	['A'] = 0x2a, ['B'] = 0x2b, ['C'] = 0x2c, ['D'] = 0x2d, ['E'] = 0x2e, ['F'] = 0x2f,
};

/* how many of the bytes at s, up to its NUL, are 0-9 or a-f */
static inline size_t
fixes_lower_hex_span(const char *s)
{
	size_t		n = 0;

	while (fixes_is_lower_hex((unsigned char) s[n]))
		n++;
	return n;
}

#endif							/* FIXES_HEX_H */
