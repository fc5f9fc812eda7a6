/*
 * wire.c — the records of the reader's stream (see wire.h): the encoder of
 * each, which the reader writes them with, beside its decoder
 *
 * Pure C: the backend decodes every record with these, and they are fuzzed
 * (test/fuzz/fuzz_wire.c) because the stream comes from a process that
 * reads untrusted repositories.  test/unit/test_wire.c decodes what each
 * encoder writes.
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
	if (out->level != 'W' && out->level != 'N' && out->level != 'D' && out->level != 'E')
		return -1;
	return finish(&c);
}

/* ---- encoders ---- */

static unsigned char *
put_u8(unsigned char *p, int v)
{
	*p = (unsigned char) v;
	return p + 1;
}

static unsigned char *
put_u32(unsigned char *p, uint32_t v)
{
	wire_put_u32(p, v);
	return p + 4;
}

static unsigned char *
put_i64(unsigned char *p, int64_t v)
{
	wire_put_i64(p, v);
	return p + 8;
}

static unsigned char *
put_bytes(unsigned char *p, const void *data, size_t len)
{
	if (len > 0)
		memcpy(p, data, len);
	return p + len;
}

static unsigned char *
put_oid(unsigned char *p, const FixesOid *oid)
{
	return put_bytes(p, oid->id, FIXES_OID_RAWSZ);
}

static unsigned char *
put_str(unsigned char *p, const WireStr *s)
{
	return put_bytes(put_u32(p, s->len), s->s, s->len);
}

size_t
wire_encode_head(unsigned char *out, const WireHead *h)
{
	unsigned char *p = put_u8(out, h->found ? 1 : 0);

	p = put_u8(p, h->shallow ? 1 : 0);
	p = put_oid(p, &h->oid);
	return (size_t) (p - out);
}

size_t
wire_size_tag(const WireTag *t)
{
	return FIXES_OID_RAWSZ + 2 + 8 + 4 + (size_t) t->name.len + 4 + (size_t) t->tagger.len;
}

size_t
wire_encode_tag(unsigned char *out, const WireTag *t)
{
	unsigned char *p = put_oid(out, &t->commit);

	p = put_u8(p, t->annotated ? 1 : 0);
	p = put_u8(p, t->has_time ? 1 : 0);
	p = put_i64(p, t->time);
	p = put_str(p, &t->name);
	p = put_str(p, &t->tagger);
	return (size_t) (p - out);
}

size_t
wire_size_branch(const WireBranch *b)
{
	return FIXES_OID_RAWSZ + 4 + (size_t) b->name.len;
}

size_t
wire_encode_branch(unsigned char *out, const WireBranch *b)
{
	unsigned char *p = put_oid(out, &b->commit);

	p = put_str(p, &b->name);
	return (size_t) (p - out);
}

size_t
wire_encode_refs(unsigned char *out, const WireRefs *r)
{
	unsigned char *p = put_u8(out, r->state);

	p = put_oid(p, &r->hash);
	return (size_t) (p - out);
}

size_t
wire_size_name(const WireStr *name)
{
	return 4 + (size_t) name->len;
}

size_t
wire_encode_name(unsigned char *out, const WireStr *name)
{
	return (size_t) (put_str(out, name) - out);
}

size_t
wire_encode_ask(unsigned char *out, uint32_t n)
{
	return (size_t) (put_u32(out, n) - out);
}

size_t
wire_size_commit(uint32_t nflags, size_t raw_len)
{
	return FIXES_OID_RAWSZ + 4 + (size_t) nflags + raw_len;
}

unsigned char *
wire_encode_commit_begin(unsigned char *out, const FixesOid *oid, uint32_t nflags)
{
	return put_u32(put_oid(out, oid), nflags);
}

size_t
wire_encode_commit(unsigned char *out, const WireCommit *c)
{
	unsigned char *p = wire_encode_commit_begin(out, &c->oid, c->nflags);

	p = put_bytes(p, c->present, c->nflags);
	p = put_bytes(p, c->raw, c->raw_len);
	return (size_t) (p - out);
}

size_t
wire_encode_list_over(unsigned char *out)
{
	return (size_t) (put_i64(put_u8(out, 1), 0) - out);
}

void
wire_encode_list_entry(unsigned char *entry, const FixesOid *oid, int has_time, int64_t time)
{
	unsigned char *p = put_oid(entry, oid);

	p = put_u8(p, has_time ? 1 : 0);
	(void) put_i64(p, has_time ? time : 0);
}

size_t
wire_size_list(uint32_t n, uint32_t m)
{
	return 1 + 4 + (size_t) n * WIRE_LIST_ENTRY + 4 + (size_t) m * FIXES_OID_RAWSZ;
}

unsigned char *
wire_encode_list_begin(unsigned char *out, uint32_t n, const unsigned char *commits, uint32_t m)
{
	unsigned char *p = put_u32(put_u8(out, 0), n);

	p = put_bytes(p, commits, (size_t) n * WIRE_LIST_ENTRY);
	return put_u32(p, m);
}

size_t
wire_encode_list(unsigned char *out, const WireList *l)
{
	unsigned char *p;

	if (l->over)
		return wire_encode_list_over(out);
	p = wire_encode_list_begin(out, l->n, l->commits, l->m);
	p = put_bytes(p, l->parents, (size_t) l->m * FIXES_OID_RAWSZ);
	return (size_t) (p - out);
}

void
wire_encode_files_head(unsigned char *out, int state, uint32_t n)
{
	(void) put_u32(put_u8(out, state), n);
}

size_t
wire_size_file_row(size_t path_len)
{
	return 1 + 4 + 4 + 4 + path_len;
}

unsigned char *
wire_encode_file_row_begin(unsigned char *out, int kind, uint32_t added, uint32_t deleted,
						   uint32_t path_len)
{
	unsigned char *p = put_u8(out, kind);

	p = put_u32(p, added);
	p = put_u32(p, deleted);
	return put_u32(p, path_len);
}

size_t
wire_encode_file_row(unsigned char *out, const WireFileRow *row)
{
	unsigned char *p = wire_encode_file_row_begin(out, row->kind, row->added, row->deleted,
												  row->path.len);

	p = put_bytes(p, row->path.s, row->path.len);
	return (size_t) (p - out);
}

size_t
wire_size_blob(size_t len)
{
	return WIRE_BLOB_HEAD_SIZE + len;
}

size_t
wire_encode_blob(unsigned char *out, const WireBlob *b)
{
	unsigned char *p = put_u8(out, b->found ? 1 : 0);

	p = put_u8(p, b->is_tree ? 1 : 0);
	p = put_bytes(p, b->data, b->len);
	return (size_t) (p - out);
}

size_t
wire_size_reach(uint32_t n)
{
	return 8 + (size_t) n * FIXES_OID_RAWSZ;
}

unsigned char *
wire_encode_reach_begin(unsigned char *out, uint32_t head, uint32_t n)
{
	return put_u32(put_u32(out, head), n);
}

size_t
wire_encode_reach(unsigned char *out, const WireReach *r)
{
	unsigned char *p = wire_encode_reach_begin(out, r->head, r->n);

	p = put_bytes(p, r->ids, (size_t) r->n * FIXES_OID_RAWSZ);
	return (size_t) (p - out);
}

size_t
wire_size_message(const WireMessage *m)
{
	return 1 + 5 + 4 + (size_t) m->message.len + 4 + (size_t) m->detail.len + 4 + (size_t) m->hint.len;
}

size_t
wire_encode_message(unsigned char *out, const WireMessage *m)
{
	unsigned char *p = put_u8(out, m->level);

	p = put_bytes(p, m->sqlstate, 5);
	p = put_str(p, &m->message);
	p = put_str(p, &m->detail);
	p = put_str(p, &m->hint);
	return (size_t) (p - out);
}
