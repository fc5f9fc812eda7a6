/*
 * oid.h — a git object id (SHA-1) as the backend handles it
 *
 * The backend never links libgit2 (the reader process does, see
 * reader/): an id is 20 bytes, printed as 40 lower-case hex digits.
 * Pure C, shared by the backend, the reader and the unit tests.
 */
#ifndef FIXES_OID_H
#define FIXES_OID_H

#include <stdbool.h>
#include <string.h>

#define FIXES_OID_RAWSZ 20
#define FIXES_OID_HEXSZ 40

typedef struct FixesOid
{
	unsigned char id[FIXES_OID_RAWSZ];
} FixesOid;

static inline bool
fixes_oid_equal(const FixesOid *a, const FixesOid *b)
{
	return memcmp(a->id, b->id, FIXES_OID_RAWSZ) == 0;
}

/* 40 lower-case hex digits, no terminating NUL */
static inline void
fixes_oid_fmt(char *out, const FixesOid *oid)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < FIXES_OID_RAWSZ; i++)
	{
		out[2 * i] = hex[oid->id[i] >> 4];
		out[2 * i + 1] = hex[oid->id[i] & 0xf];
	}
}

/* 40 hex digits and a NUL: out has FIXES_OID_HEXSZ + 1 bytes */
static inline void
fixes_format_oid(char *out, const FixesOid *oid)
{
	fixes_oid_fmt(out, oid);
	out[FIXES_OID_HEXSZ] = '\0';
}

static inline int
fixes_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* parse exactly 40 hex digits; false when one is not hex */
static inline bool
fixes_oid_parse(FixesOid *out, const char *s)
{
	for (int i = 0; i < FIXES_OID_RAWSZ; i++)
	{
		int			hi = fixes_hex_digit(s[2 * i]);
		int			lo = fixes_hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out->id[i] = (unsigned char) (hi << 4 | lo);
	}
	return true;
}

/* a full id: exactly 40 hex digits and nothing after them (NULL: false) */
static inline bool
fixes_oid_parse_full(FixesOid *out, const char *s)
{
	return s != NULL && strlen(s) == FIXES_OID_HEXSZ && fixes_oid_parse(out, s);
}

#endif							/* FIXES_OID_H */
