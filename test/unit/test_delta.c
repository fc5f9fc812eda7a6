/* test_delta.c — src/reader/delta.c: git's delta format applied to a base
 *
 * An encoder written here (copies of random runs of the base, in every
 * form of git's copy instruction, and inserts of 1-127 bytes) makes deltas
 * from random bases to random targets; delta_apply() must give back each
 * target exactly.  Then every shorter prefix of a delta, a base one byte
 * longer or shorter, a copy past the base's end, a reserved instruction, a
 * result larger than max and one byte missing or extra must give NULL; and
 * random bytes flipped in valid deltas must give NULL or a buffer of the
 * declared size (ASan checks every read).  A 64 KB copy is the size 0. */
#include <stdlib.h>
#include <string.h>
#include "../../src/reader/delta.h"
#include "unit.h"

typedef struct Buf
{
	unsigned char *p;
	size_t		len;
	size_t		cap;
} Buf;

static void
put(Buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap)
	{
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void
put_byte(Buf *b, unsigned char c)
{
	put(b, &c, 1);
}

static void
put_varint(Buf *b, size_t v)
{
	do
	{
		unsigned char c = v & 0x7f;

		v >>= 7;
		put_byte(b, c | (v ? 0x80 : 0));
	} while (v);
}

/* a copy instruction: only the non-zero bytes of off and n are written, as git does */
static void
put_copy(Buf *b, size_t off, size_t n)
{
	unsigned char cmd = 0x80;
	unsigned char args[7];
	int			k = 0;

	for (int i = 0; i < 4; i++)
		if ((off >> (8 * i)) & 0xff)
		{
			cmd |= 1 << i;
			args[k++] = (off >> (8 * i)) & 0xff;
		}
	if (n != 0x10000)
		for (int i = 0; i < 3; i++)
			if ((n >> (8 * i)) & 0xff)
			{
				cmd |= 0x10 << i;
				args[k++] = (n >> (8 * i)) & 0xff;
			}
	put_byte(b, cmd);
	put(b, args, k);
}

static uint64_t rng = 45;

static size_t
rnd(size_t n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (size_t) ((rng >> 33) % n) : 0;
}

/* a delta from base to a new target (written to *target), of about len bytes */
static void
make_delta(const unsigned char *base, size_t base_len, size_t len, Buf *delta, Buf *target)
{
	Buf			ops = {0};

	target->len = 0;
	while (target->len < len)
	{
		if (base_len > 0 && rnd(3) != 0)
		{
			size_t		off = rnd(base_len);
			size_t		n = 1 + rnd(base_len - off);

			if (n > 0x10000)
				n = rnd(2) ? 0x10000 : 0xffff;
			if (n > base_len - off)
				n = base_len - off;
			put_copy(&ops, off, n);
			put(target, base + off, n);
		}
		else
		{
			unsigned char lit[127];
			size_t		n = 1 + rnd(127);

			for (size_t i = 0; i < n; i++)
				lit[i] = (unsigned char) rnd(256);
			put_byte(&ops, (unsigned char) n);
			put(&ops, lit, n);
			put(target, lit, n);
		}
	}
	delta->len = 0;
	put_varint(delta, base_len);
	put_varint(delta, target->len);
	put(delta, ops.p, ops.len);
	free(ops.p);
}

/* delta_apply on an exact copy of the delta (ASan sees any read past it) */
static unsigned char *
apply(const unsigned char *base, size_t base_len, const unsigned char *d, size_t n, size_t max,
	  size_t *out)
{
	unsigned char *copy = malloc(n ? n : 1);
	unsigned char *r;

	memcpy(copy, d, n);
	r = delta_apply(base, base_len, copy, n, max, out);
	free(copy);
	return r;
}

/* a delta that must be refused */
static void
refused(unit_counts *u, const unsigned char *base, size_t base_len, const Buf *d, const char *what)
{
	size_t		out_len = 0;
	unsigned char *out = apply(base, base_len, d->p, d->len, (size_t) 1 << 30, &out_len);

	CHECK(u, out == NULL, "%s: %zu bytes", what, out_len);
	free(out);
}

int
main(void)
{
	unit_counts u = {0, 0};
	Buf			delta = {0},
				target = {0};
	const size_t max = (size_t) 1 << 30;

	for (int round = 0; round < 300; round++)
	{
		size_t		base_len = round % 10 == 0 ? 0 : 1 + rnd(round % 3 == 0 ? 200000 : 3000);
		unsigned char *base = malloc(base_len ? base_len : 1);
		size_t		out_len = 12345;
		unsigned char *out;

		for (size_t i = 0; i < base_len; i++)
			base[i] = (unsigned char) rnd(256);
		make_delta(base, base_len, 1 + rnd(round % 3 == 0 ? 300000 : 5000), &delta, &target);

		out = apply(base, base_len, delta.p, delta.len, max, &out_len);
		CHECK(&u, out != NULL && out_len == target.len && memcmp(out, target.p, target.len) == 0 &&
			  out[out_len] == '\0', "round %d: the target of %zu bytes from a base of %zu", round,
			  target.len, base_len);
		free(out);

		/* every shorter prefix fails (a few hundred of them per round) */
		for (size_t cut = 0; cut < delta.len; cut += 1 + delta.len / 200)
		{
			out = apply(base, base_len, delta.p, cut, max, &out_len);
			CHECK(&u, out == NULL, "round %d: the delta cut to %zu of %zu bytes", round, cut, delta.len);
			free(out);
		}
		/* the wrong base size, or a max below the result */
		out = delta_apply(base, base_len + 1, delta.p, delta.len, max, &out_len);
		CHECK(&u, out == NULL, "round %d: a base one byte longer", round);
		free(out);
		if (base_len > 0)
		{
			out = delta_apply(base, base_len - 1, delta.p, delta.len, max, &out_len);
			CHECK(&u, out == NULL, "round %d: a base one byte shorter", round);
			free(out);
		}
		out = apply(base, base_len, delta.p, delta.len, target.len - 1, &out_len);
		CHECK(&u, out == NULL, "round %d: a result above max", round);
		free(out);

		/* random bytes flipped: NULL, or exactly the declared size */
		for (int k = 0; k < 20; k++)
		{
			unsigned char *m = malloc(delta.len);
			size_t		declared;
			const unsigned char *q;
			int			shift = 0;

			memcpy(m, delta.p, delta.len);
			for (int f = 0; f <= (int) rnd(3); f++)
				m[rnd(delta.len)] ^= (unsigned char) (1 + rnd(255));
			out = apply(base, base_len, m, delta.len, max, &out_len);
			/* the declared size: the second number */
			q = m;
			while (*q & 0x80)
				q++;
			q++;
			declared = 0;
			while (q < m + delta.len)
			{
				declared |= (size_t) (*q & 0x7f) << shift;
				shift += 7;
				if (!(*q++ & 0x80) || shift > 56)
					break;
			}
			CHECK(&u, out == NULL || (out_len == declared && out[out_len] == '\0'),
				  "round %d: a damaged delta gave %zu bytes, declared %zu", round, out_len, declared);
			free(out);
			free(m);
		}
		free(base);
	}

	/* hand-made cases */
	{
		unsigned char base[70000];
		size_t		out_len = 0;
		unsigned char *out;
		Buf			d = {0};

		for (size_t i = 0; i < sizeof(base); i++)
			base[i] = (unsigned char) (i * 7);
		/* size 0 is 64 KB: a copy of 65536 bytes from offset 0 (no argument bytes at all) */
		put_varint(&d, sizeof(base));
		put_varint(&d, 0x10000);
		put_byte(&d, 0x80);
		out = apply(base, sizeof(base), d.p, d.len, max, &out_len);
		CHECK(&u, out != NULL && out_len == 0x10000 && memcmp(out, base, 0x10000) == 0,
			  "a copy of size 0 is 65536 bytes");
		free(out);
		/* one byte more declared than the instructions make */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 11);
		put_copy(&d, 5, 10);
		refused(&u, base, sizeof(base), &d, "the instructions make less than declared");
		/* one byte less declared */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 9);
		put_copy(&d, 5, 10);
		refused(&u, base, sizeof(base), &d, "the instructions make more than declared");
		/* a copy that ends one byte past the base */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 10);
		put_copy(&d, sizeof(base) - 9, 10);
		refused(&u, base, sizeof(base), &d, "a copy past the base's end");
		/* an offset of 2^32 - 1 (four bytes): past the base, no overflow */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 1);
		put_copy(&d, 0xffffffffu, 1);
		refused(&u, base, sizeof(base), &d, "a copy from offset 2^32 - 1");
		/* the reserved instruction 0 */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 1);
		put_byte(&d, 0);
		put_byte(&d, 'x');
		refused(&u, base, sizeof(base), &d, "the reserved instruction 0");
		/* an insert longer than what follows it */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 5);
		put_byte(&d, 5);
		put(&d, "abcd", 4);
		refused(&u, base, sizeof(base), &d, "an insert cut short");
		/* a size number of ten 0xff bytes: refused, not shifted past 64 bits */
		d.len = 0;
		put(&d, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
		refused(&u, base, sizeof(base), &d, "a base size of more than 64 bits");
		/* an empty result from an empty delta body */
		d.len = 0;
		put_varint(&d, sizeof(base));
		put_varint(&d, 0);
		out = apply(base, sizeof(base), d.p, d.len, max, &out_len);
		CHECK(&u, out != NULL && out_len == 0 && out[0] == '\0', "an empty result");
		free(out);
		free(d.p);
	}
	free(delta.p);
	free(target.p);
	return unit_report("test_delta", &u);
}
