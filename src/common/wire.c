/*
 * wire.c — decoding the records of the reader's stream (see wire.h)
 *
 * Pure C: the backend decodes every record with these, and they are fuzzed
 * (test/fuzz/fuzz_wire.c) because the stream comes from a process that
 * reads untrusted repositories.
 */
#include "wire.h"

#include <string.h>

uint32_t
wire_get_u32(const unsigned char *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

void
wire_put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char) (v >> (8 * i));
}

void
wire_put_i64(unsigned char *p, int64_t v)
{
	uint64_t	u = (uint64_t) v;

	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char) (u >> (8 * i));
}

static void
cursor_init(WireCursor *c, const void *payload, size_t len)
{
	c->p = payload;
	c->end = c->p + len;
	c->bad = 0;
}

static const unsigned char *
take(WireCursor *c, size_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || (size_t) (c->end - c->p) < n)
	{
		c->bad = 1;
		return NULL;
	}
	c->p += n;
	return p;
}

static int
get_u8(WireCursor *c)
{
	const unsigned char *p = take(c, 1);

	return p ? p[0] : 0;
}

static uint32_t
get_u32(WireCursor *c)
{
	const unsigned char *p = take(c, 4);

	return p ? wire_get_u32(p) : 0;
}

static int64_t
get_i64(WireCursor *c)
{
	const unsigned char *p = take(c, 8);
	uint64_t	u = 0;

	if (p == NULL)
		return 0;
	for (int i = 0; i < 8; i++)
		u |= (uint64_t) p[i] << (8 * i);
	return (int64_t) u;
}

static void
get_oid(WireCursor *c, FixesOid *oid)
{
	const unsigned char *p = take(c, FIXES_OID_RAWSZ);

	if (p)
		memcpy(oid->id, p, FIXES_OID_RAWSZ);
	else
		memset(oid->id, 0, FIXES_OID_RAWSZ);
}

static void
get_str(WireCursor *c, WireStr *s)
{
	uint32_t	len = get_u32(c);
	const unsigned char *p = take(c, len);

	s->s = p ? (const char *) p : "";
	s->len = p ? len : 0;
}

static int
flag(WireCursor *c)
{
	int			v = get_u8(c);

	if (v > 1)
		c->bad = 1;
	return v;
}

/* a decoder succeeds when it read the whole payload and nothing more */
static int
finish(WireCursor *c)
{
	return c->bad || c->p != c->end ? -1 : 0;
}

int
wire_decode_head(const void *payload, size_t len, WireHead *out)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	out->found = flag(&c);
	out->shallow = flag(&c);
	get_oid(&c, &out->oid);
	return finish(&c);
}

int
wire_decode_tag(const void *payload, size_t len, WireTag *out)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	get_oid(&c, &out->commit);
	out->annotated = flag(&c);
	out->has_time = flag(&c);
	out->time = get_i64(&c);
	get_str(&c, &out->name);
	get_str(&c, &out->tagger);
	return finish(&c);
}

int
wire_decode_branch(const void *payload, size_t len, WireBranch *out)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	get_oid(&c, &out->commit);
	get_str(&c, &out->name);
	return finish(&c);
}

int
wire_decode_refs(const void *payload, size_t len, WireRefs *out)
{
	WireCursor	c;

	const unsigned char *p;

	cursor_init(&c, payload, len);
	p = take(&c, 1 + FIXES_OID_RAWSZ);
	if (p == NULL || finish(&c) != 0)
		return -1;
	out->state = p[0];
	memcpy(out->hash.id, p + 1, FIXES_OID_RAWSZ);
	return out->state == REFS_READ || out->state == REFS_UNCHANGED ||
		out->state == REFS_UNREADABLE ? 0 : -1;
}

int
wire_decode_commit(const void *payload, size_t len, WireCommit *out)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	get_oid(&c, &out->oid);
	out->nflags = get_u32(&c);
	out->present = take(&c, out->nflags);
	if (c.bad)
		return -1;
	for (uint32_t i = 0; i < out->nflags; i++)
		if (out->present[i] > 1)
			return -1;
	out->raw = (const char *) c.p;
	out->raw_len = (size_t) (c.end - c.p);
	return 0;
}

static void
get_file_row(WireCursor *c, WireFileRow *row)
{
	row->kind = get_u8(c);
	row->added = get_u32(c);
	row->deleted = get_u32(c);
	get_str(c, &row->path);
	if (row->kind > FILE_MISSING ||
		(row->kind != FILE_TEXT && (row->added != 0 || row->deleted != 0)) ||
		row->path.len == 0 || memchr(row->path.s, '\0', row->path.len) != NULL)
		c->bad = 1;
}

int
wire_decode_files(const void *payload, size_t len, WireFiles *out)
{
	WireCursor	c;
	WireFileRow row;

	cursor_init(&c, payload, len);
	out->state = get_u8(&c);
	out->n = get_u32(&c);
	if (c.bad || out->state > FILES_TREE_MISSING || (out->state != FILES_DIFFED && out->n != 0))
		return -1;
	out->rows = c;
	/* each row takes 13 bytes at least: a count beyond that is a lie */
	if (out->n > (size_t) (c.end - c.p) / 13)
		return -1;
	for (uint32_t i = 0; i < out->n && !c.bad; i++)
		get_file_row(&c, &row);
	return finish(&c);
}

int
wire_files_next(WireFiles *f, WireFileRow *row)
{
	if (f->n == 0)
		return 0;
	get_file_row(&f->rows, row);
	if (f->rows.bad)
		return 0;
	f->n--;
	return 1;
}

int
wire_decode_blob(const void *payload, size_t len, WireBlob *out)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	out->found = flag(&c);
	out->is_tree = flag(&c);
	if (c.bad || (!out->found && (out->is_tree || c.p != c.end)))
		return -1;
	out->data = (const char *) c.p;
	out->len = (size_t) (c.end - c.p);
	return 0;
}

/* 'D' and 'N': one str, without a NUL */
int
wire_decode_name(const void *payload, size_t len, WireStr *out)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	get_str(&c, out);
	if (!c.bad && memchr(out->s, '\0', out->len) != NULL)
		return -1;
	return finish(&c);
}

int
wire_decode_ask(const void *payload, size_t len, uint32_t *n)
{
	WireCursor	c;

	cursor_init(&c, payload, len);
	*n = get_u32(&c);
	return finish(&c);
}

int
wire_decode_reach(const void *payload, size_t len, WireReach *out)
{
	WireCursor	c;

	memset(out, 0, sizeof(*out));
	cursor_init(&c, payload, len);
	out->head = get_u32(&c);
	out->n = get_u32(&c);
	if (c.bad || (size_t) (c.end - c.p) / FIXES_OID_RAWSZ < out->n)
		return -1;
	out->ids = take(&c, (size_t) out->n * FIXES_OID_RAWSZ);
	return finish(&c);
}

int
wire_decode_list(const void *payload, size_t len, WireList *out)
{
	WireCursor	c;

	memset(out, 0, sizeof(*out));
	cursor_init(&c, payload, len);
	out->over = get_u8(&c);
	if (out->over == 1)
	{
		(void) get_i64(&c);
		return finish(&c);
	}
	if (out->over != 0)
		return -1;
	out->n = get_u32(&c);
	if (c.bad || out->n > len / WIRE_LIST_ENTRY)
		return -1;
	out->commits = take(&c, (size_t) out->n * WIRE_LIST_ENTRY);
	out->m = get_u32(&c);
	if (c.bad || out->m > len / FIXES_OID_RAWSZ)
		return -1;
	out->parents = take(&c, (size_t) out->m * FIXES_OID_RAWSZ);
	if (out->commits == NULL || out->parents == NULL)
		return -1;
	for (uint32_t i = 0; i < out->n; i++)
		if (out->commits[(size_t) i * WIRE_LIST_ENTRY + FIXES_OID_RAWSZ] > 1)
			return -1;
	return finish(&c);
}

void
wire_list_entry(const WireList *l, uint32_t i, FixesOid *oid, int *has_time, int64_t *time)
{
	WireCursor	c;

	cursor_init(&c, l->commits + (size_t) i * WIRE_LIST_ENTRY, WIRE_LIST_ENTRY);
	get_oid(&c, oid);
	*has_time = get_u8(&c);
	*time = get_i64(&c);
}

int
wire_decode_message(const void *payload, size_t len, WireMessage *out)
{
	WireCursor	c;
	const unsigned char *state;

	cursor_init(&c, payload, len);
	out->level = (char) get_u8(&c);
	state = take(&c, 5);
	if (state == NULL)
		return -1;
	for (int i = 0; i < 5; i++)
	{
		char		ch = (char) state[i];

		/* an SQLSTATE is five digits or upper-case letters */
		if (!((ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z')))
			return -1;
		out->sqlstate[i] = ch;
	}
	out->sqlstate[5] = '\0';
	get_str(&c, &out->message);
	get_str(&c, &out->detail);
	get_str(&c, &out->hint);
	if (out->level != 'W' && out->level != 'N' && out->level != 'E')
		return -1;
	return finish(&c);
}
