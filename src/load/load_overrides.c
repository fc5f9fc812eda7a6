/*
 * load_overrides.c — fixes_load(): the users' corrections, the rows of
 * fixes_overrides and fixes_backport_overrides, read the same way (those
 * of fixes_backport_overrides are applied by load_backports.c)
 *
 * Users write fixes_overrides; every load and refresh applies the rows of
 * its repository (by name) after resolving the edges, so a correction
 * survives every refresh:
 *  - a row matches the edges of its fixing commit whose abbrev (the id as
 *    written, lower-cased) is the row's;
 *  - with a target in scope, those edges are resolved by method 'override';
 *  - with a NULL target, they are 'ignored': they count nowhere;
 *  - a target that is not in scope leaves them as parsed, with a WARNING;
 *  - the rows that match no edge are counted in one NOTICE.
 * The rows of both tables are folded into the hash of the tags
 * (fixes_repositories.tags_hash), so that a change to them alone defeats
 * the "nothing changed" shortcut of the next load.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "load_overrides.h"
#include "load_state.h"
#include "spi_call.h"

static bool
valid_abbrev(const char *s, size_t len)
{
	if (len < 6 || len > FIXES_OID_HEXSZ)
		return false;
	for (size_t i = 0; i < len; i++)
		if (fixes_hex_digit(s[i]) < 0)
			return false;
	return true;
}

/*
 * The rows of one of the users' tables for this repository (by name):
 * SELECT columns (ncols of them, at most 3) FROM ONLY table ... ORDER BY
 * order, each row's values as text (NULL: a NULL) parsed by parse into an
 * array of row_size bytes a row (false: the row is skipped, with a
 * WARNING); *n of them are kept
 */
static void *
read_rows(FixesLoad *ld, const char *table, const char *columns, int ncols, const char *order,
		  Size row_size, bool (*parse) (FixesLoad *ld, void *row, char **v), int *n)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1] = {CStringGetTextDatum(ld->args.name)};
	uint64		rows;
	char	   *kept;

	rows = fixes_spi_execute(psprintf("SELECT %s FROM ONLY %s.%s WHERE repository = $1 ORDER BY %s",
									  columns, ld->schema, table, order),
							 1, argtypes, args, NULL, 0, SPI_OK_SELECT);
	kept = MemoryContextAllocZero(ld->cxt, row_size * Max(rows, 1));
	*n = 0;
	Assert(ncols <= 3);
	for (uint64 r = 0; r < rows; r++)
	{
		char	   *v[3];

		for (int c = 0; c < ncols; c++)
			v[c] = SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, c + 1);
		if (parse(ld, kept + row_size * *n, v))
			(*n)++;
	}
	SPI_freetuptable(SPI_tuptable);
	return kept;
}

/* the WARNING of a row of table that read_rows() skips: row, its columns as text */
static bool
skip_row(FixesLoad *ld, const char *table, const char *row, const char *detail)
{
	ereport(WARNING,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("skipping a row of %s for repository \"%s\" that names no commit: (%s)",
					table, ld->args.name, row),
			 errdetail("%s", detail)));
	return false;
}

/* a row of fixes_overrides: fixing_commit, abbrev, target_commit */
static bool
parse_override(FixesLoad *ld, void *row, char **v)
{
	FixesOverride *o = row;
	char	   *fixing = v[0];
	char	   *abbrev = v[1];
	char	   *target = v[2];
	size_t		len = strlen(abbrev);

	/* the table's CHECK constraints make these hold, unless dropped */
	if (!fixes_oid_parse_full(&o->fixing, fixing) || !valid_abbrev(abbrev, len) ||
		(target != NULL && !fixes_oid_parse_full(&o->target, target)))
		return skip_row(ld, "fixes_overrides",
						psprintf("%s, %s, %s", fixing, abbrev, target ? target : "NULL"),
						"fixing_commit and target_commit must be 40 hex digits, abbrev 6 to 40.");
	for (size_t i = 0; i < len; i++)
		o->abbrev[i] = pg_ascii_tolower(abbrev[i]);
	o->abbrev[len] = '\0';
	o->abbrev_len = (uint8) len;
	o->has_target = target != NULL;
	o->fixing_idx = FIXES_NO_IDX;
	return true;
}

/* a row of fixes_backport_overrides: stable_commit, upstream_commit */
static bool
parse_backport_override(FixesLoad *ld, void *row, char **v)
{
	FixesBackportOverride *o = row;

	/* the table's CHECK constraints make these hold, unless dropped */
	if (!fixes_oid_parse_full(&o->stable, v[0]) || !fixes_oid_parse_full(&o->upstream, v[1]))
		return skip_row(ld, "fixes_backport_overrides",
						psprintf("%s, %s", v[0] ? v[0] : "NULL", v[1] ? v[1] : "NULL"),
						"stable_commit and upstream_commit must be 40 hex digits.");
	return true;
}

/*
 * The rows of fixes_overrides and of fixes_backport_overrides for this
 * repository, into ld->edge_overrides and ld->backport_overrides (none in a
 * database that lacks the table)
 */
void
fixes_load_read_overrides(FixesLoad *ld)
{
	if (ld->has.overrides)
		ld->edge_overrides->rows = read_rows(ld, "fixes_overrides", "fixing_commit, abbrev, target_commit",
											 3, "fixing_commit, abbrev", sizeof(FixesOverride),
											 parse_override, &ld->edge_overrides->n);
	if (ld->has.backport_overrides)
		ld->backport_overrides->rows = read_rows(ld, "fixes_backport_overrides",
												 "stable_commit, upstream_commit", 2, "stable_commit",
												 sizeof(FixesBackportOverride),
												 parse_backport_override, &ld->backport_overrides->n);
}

/* h with the backport overrides folded in; h itself when there are none */
static uint64
backport_overrides_hash(FixesLoad *ld, uint64 h)
{
	if (ld->backport_overrides->n == 0)
		return h;
	h = hash_bytes_extended((const unsigned char *) "fixes_backport_overrides", 24, h);
	for (int i = 0; i < ld->backport_overrides->n; i++)
	{
		h = hash_bytes_extended(ld->backport_overrides->rows[i].stable.id, FIXES_OID_RAWSZ, h);
		h = hash_bytes_extended(ld->backport_overrides->rows[i].upstream.id, FIXES_OID_RAWSZ, h);
	}
	return h;
}

/*
 * The tags hash with the overrides (and the backport overrides) folded in;
 * unchanged when there are none,
 * so that a repository without overrides keeps the hash 1.0 gave it.
 */
int64
fixes_overrides_hash(FixesLoad *ld, int64 tags_hash)
{
	uint64		h = (uint64) tags_hash;

	/* the rows of fixes_backport_overrides too */
	h = backport_overrides_hash(ld, h);
	if (ld->edge_overrides->n == 0)
		return (int64) h;
	h = hash_bytes_extended((const unsigned char *) "fixes_overrides", 15, h);
	for (int i = 0; i < ld->edge_overrides->n; i++)
	{
		FixesOverride *o = &ld->edge_overrides->rows[i];

		h = hash_bytes_extended(o->fixing.id, FIXES_OID_RAWSZ, h);
		h = hash_bytes_extended((const unsigned char *) o->abbrev, o->abbrev_len, h);
		if (o->has_target)
			h = hash_bytes_extended(o->target.id, FIXES_OID_RAWSZ, h);
		else
			h = hash_bytes_extended((const unsigned char *) "", 0, h + 1);
	}
	return (int64) h;
}

static int
override_cmp(const void *a, const void *b)
{
	uint32		x = (*(FixesOverride *const *) a)->fixing_idx;
	uint32		y = (*(FixesOverride *const *) b)->fixing_idx;

	return x < y ? -1 : x > y;
}

/* Apply the overrides to the resolved edges (all of them, old and new). */
void
fixes_load_apply_overrides(FixesLoad *ld)
{
	FixesOverride **by_fixing;
	int			n = 0;
	int64		unmatched = 0;

	if (ld->edge_overrides->n == 0)
		return;
	by_fixing = palloc(sizeof(FixesOverride *) * ld->edge_overrides->n);
	for (int i = 0; i < ld->edge_overrides->n; i++)
	{
		FixesOverride *o = &ld->edge_overrides->rows[i];

		o->matched = 0;
		o->fixing_idx = fixes_graph_lookup(ld->graph, &o->fixing);
		if (o->fixing_idx != FIXES_NO_IDX)
			by_fixing[n++] = o;
	}
	qsort(by_fixing, n, sizeof(FixesOverride *), override_cmp);

	for (int64 k = 0; n > 0 && k < ld->edge_list.n; k++)
	{
		FixesEdge  *e = &ld->edge_list.edges[k];
		const char *abbrev = ld->edge_list.text.data + e->abbrev_off;
		int			lo = 0,
					hi = n;

		if ((k & 0xffff) == 0xffff)
			CHECK_FOR_INTERRUPTS();
		while (lo < hi)
		{
			int			mid = lo + (hi - lo) / 2;

			if (by_fixing[mid]->fixing_idx < e->fixing)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && by_fixing[lo]->fixing_idx == e->fixing; lo++)
		{
			FixesOverride *o = by_fixing[lo];
			uint32		target;

			if (o->abbrev_len != e->abbrev_len || memcmp(o->abbrev, abbrev, e->abbrev_len) != 0)
				continue;
			o->matched++;
			if (!o->has_target)
			{
				e->now.status = EDGE_IGNORED;
				e->now.method = METHOD_NONE;
				e->now.target = FIXES_NO_IDX;
				continue;
			}
			target = fixes_graph_lookup(ld->graph, &o->target);
			if (target == FIXES_NO_IDX)
				continue;		/* warned about below */
			e->now.status = EDGE_RESOLVED;
			e->now.method = METHOD_OVERRIDE;
			e->now.target = target;
		}
	}

	for (int i = 0; i < ld->edge_overrides->n; i++)
	{
		FixesOverride *o = &ld->edge_overrides->rows[i];
		char		fixing[FIXES_OID_HEXSZ + 1];
		char		target[FIXES_OID_HEXSZ + 1];

		if (o->matched == 0)
		{
			unmatched++;
			continue;
		}
		if (!o->has_target || fixes_graph_lookup(ld->graph, &o->target) != FIXES_NO_IDX)
			continue;
		fixes_format_oid(fixing, &o->fixing);
		fixes_format_oid(target, &o->target);
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("override target %s is not a commit of repository \"%s\"", target, ld->args.name),
				 errdetail("The row of fixes_overrides for fixing commit %s, abbrev %s, is not applied: its edge stays as parsed.",
						   fixing, o->abbrev),
				 errhint("The target must be reachable from the loaded ref \"%s\".", ld->args.ref)));
	}
	if (unmatched > 0)
		ereport(NOTICE,
				(errmsg_plural("%lld row of fixes_overrides for repository \"%s\" matches no edge",
							   "%lld rows of fixes_overrides for repository \"%s\" match no edge",
							   unmatched, (long long) unmatched, ld->args.name),
				 errdetail("A row applies to the Fixes: or revert lines of its fixing commit, in scope, whose id as written is its abbrev.")));
	pfree(by_fixing);
}

/*
 * The rows of fixes_overrides and fixes_backport_overrides this file owns
 * (load_overrides.h).  Allocated in ld->cxt, zeroed, before the load's
 * first phase (run_load()).
 */
void
fixes_overrides_init(FixesLoad *ld)
{
	ld->edge_overrides = MemoryContextAllocZero(ld->cxt, sizeof(FixesEdgeOverrides));
	ld->backport_overrides = MemoryContextAllocZero(ld->cxt, sizeof(FixesBackportOverrides));
}
