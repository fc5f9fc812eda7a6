/*
 * refs_hash.c — fixes_load(): the tags it peels, the hash of the refs, and
 * the tags that hash spares reading
 *
 * The reader names every tag and peels only those the load asks for: the
 * ones the release pattern takes (fixes_load_answer_tags()).
 *
 * Reading the tags means peeling each one: page faults in the pack's
 * index, most of a reload that finds nothing changed.  Tag objects are immutable, so when every ref the load
 * reads (the tags, and the branches with stable_branches) has the name and
 * the target the previous load saw, so do the tags and branches it peeled,
 * and the tags hash the previous load stored is this load's.
 *
 * The reader hashes the refs (reader/refs.c: loose refs and packed-refs,
 * no object read) with a salt, the hash of every other input of the tags
 * hash: the release pattern, stable_branches, the overrides and the
 * backport overrides.  The load stores that hash in
 * fixes_repositories.refs_hash; the next refresh gives it to its reader,
 * which, when the head is the previous one and the hash is equal, sends a
 * refs record "unchanged" instead of the tags.  The load then takes the
 * stored tags_hash and, if nothing else changed, is a no-op; if something
 * else did (MAINTAINERS to attribute again), it reads the tags with a reader
 * of their own (fixes_load_read_tags()).  A ref skipped with a WARNING (its
 * object missing) leaves no hash, so the next load reads every tag again.
 * A database at 1.0 or 1.1 has no column: no hash is asked for.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "utils/builtins.h"

#include "load_files.h"
#include "load_state.h"
#include "load_overrides.h"
#include "load_releases.h"
#include "load_stable.h"
#include "refresh.h"
#include "spi_call.h"

static bool
is_release(const char *name, void *arg)
{
	return fixes_load_is_release((const FixesLoad *) arg, name);
}

/*
 * The reader's question, right after its head record: which tags to peel.
 * The release tags, for a load reads no other; each tag it peels costs page
 * faults in the pack's index (reader/tags.c).
 */
void
fixes_load_answer_tags(FixesLoad *ld, FixesReader *r)
{
	fixes_answer_tags(r, is_release, ld);
}

/* the previous load's hash, if there is one to compare */
static bool
read_old_refs_hash(FixesLoad *ld)
{
	char	   *sql = psprintf("SELECT refs_hash FROM ONLY %s.fixes_repositories WHERE repository_id = $1",
							   ld->schema);
	Oid			argtypes[1] = {INT4OID};
	Datum		args[1] = {Int32GetDatum(ld->repository_id)};
	bool		found = false;

	if (fixes_spi_execute(sql, 1, argtypes, args, NULL, 1, SPI_OK_SELECT) == 1)
	{
		char	   *hex = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		/* NULL, or not an id (a row an administrator wrote): none */
		found = hex != NULL && fixes_oid_parse_full(&ld->refs.old_hash, hex);
	}
	if (SPI_tuptable)
		SPI_freetuptable(SPI_tuptable);
	return found;
}

/*
 * The salt: every input of the tags hash (fixes_tags_hash(),
 * fixes_overrides_hash()) besides the tags and branches themselves.
 */
static uint64
settings_hash(FixesLoad *ld)
{
	uint64		h = hash_bytes_extended((const unsigned char *) "fixes refs", 10, 31);

	h = hash_bytes_extended((const unsigned char *) (ld->args.pattern ? ld->args.pattern : ""),
							ld->args.pattern ? (int) strlen(ld->args.pattern) : 0, h + (ld->args.pattern ? 1 : 2));
	h = hash_bytes_extended((const unsigned char *) (ld->args.stable_re ? ld->args.stable_re : ""),
							ld->args.stable_re ? (int) strlen(ld->args.stable_re) : 0,
							h + (ld->args.stable_re ? 1 : 2));
	/* release_tags 'all'; 'ref' salts as before 1.3 */
	if (ld->releases->all)
		h = hash_bytes_extended((const unsigned char *) "all", 3, h + 5);
	return (uint64) fixes_overrides_hash(ld, (int64) h);
}

/*
 * The last argument of a head or refresh reader: "--refs=SCOPE:SALT", with
 * compare (a refresh) and a previous hash to compare ":HASH" too; NULL for a
 * database without the column.
 */
const char *
fixes_load_refs_option(FixesLoad *ld, bool compare)
{
	char		hex[FIXES_OID_HEXSZ + 1];

	ld->refs.compared = false;
	if (!ld->has.refs_hash)
		return NULL;
	/* what else would make the load more than a no-op, known so far */
	if (compare && ld->known && ld->prev.usable && !ld->paths->reattribute && ld->prev.head != NULL)
		ld->refs.compared = read_old_refs_hash(ld);
	if (ld->refs.compared)
		fixes_format_oid(hex, &ld->refs.old_hash);
	return psprintf("--refs=%s:%016" INT64_MODIFIER "x%s%s", ld->args.stable_re ? "tb" : "t",
					settings_hash(ld), ld->refs.compared ? ":" : "",
					ld->refs.compared ? hex : "");
}

/*
 * The reader's refs record (refs: NULL for a reader not told --refs): the
 * hash to store, and whether the tags were read.
 */
void
fixes_load_refs_received(FixesLoad *ld, FixesReader *r, const WireRefs *refs)
{
	ld->refs.unchanged = false;
	ld->refs.hash_set = false;
	if (refs == NULL)
		return;
	if (refs->state == REFS_UNCHANGED &&
		(!ld->refs.compared || memcmp(refs->hash.id, ld->refs.old_hash.id, FIXES_OID_RAWSZ) != 0))
		fixes_reader_protocol_error(r, "The refs record says unchanged, but the reader was not given that hash.");
	ld->refs.unchanged = refs->state == REFS_UNCHANGED;
	ld->refs.hash_set = refs->state != REFS_UNREADABLE;
	ld->refs.hash = refs->hash;
	if (ld->refs.unchanged)
	{
		/* the tags, branches and settings of the previous load: its hash */
		ld->tags_hash = ld->prev.tags_hash;
		ld->releases->ntags = 0;
		ld->stable_branches->n = 0;
		elog(DEBUG1, "fixes_load %s: refs unchanged since the last load: tags not read", ld->args.name);
	}
}

/*
 * The refs were those of the previous load, but the load does more than
 * nothing (the attributions of MAINTAINERS change): read the tags and
 * branches with a reader of their own, as a first load does.
 */
void
fixes_load_read_tags(FixesLoad *ld)
{
	FixesReader *volatile reader = NULL;

	Assert(ld->refs.unchanged);
	PG_TRY();
	{
		const char *args[3] = {ld->args.ref, "--ask-tags", fixes_load_refs_option(ld, false)};
		const unsigned char *payload;
		uint32		len;
		WireHead	head;
		WireRefs	refs;

		reader = fixes_reader_start_args("head", ld->args.path, args, 3, true);
		fixes_reader_expect(reader, WIRE_HEAD, &payload, &len);
		if (wire_decode_head(payload, len, &head) != 0)
			fixes_reader_protocol_error(reader, "The head record is malformed.");
		fixes_load_answer_tags(ld, reader);
		ld->releases->tags = fixes_receive_tags_and_branches(reader, &ld->decoder, &ld->releases->ntags,
												   &ld->stable_branches->branches, &ld->stable_branches->n, false, &refs);
		fixes_load_refs_received(ld, reader, &refs);
		fixes_reader_finish(reader);
	}
	PG_FINALLY();
	{
		fixes_reader_stop(reader);
	}
	PG_END_TRY();
	elog(DEBUG1, "fixes_load %s: tags read again: the load is not a no-op", ld->args.name);
}
