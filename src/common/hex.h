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
