/*
 * bulk_insert.h — batched inserts into a table, with its indexes
 */
#ifndef FIXES_BULK_INSERT_H
#define FIXES_BULK_INSERT_H

#include "access/heapam.h"
#include "executor/executor.h"

#include "table_columns.h"

#define FIXES_BULK_MAX_TUPLES 1000
#define FIXES_BULK_MAX_BYTES 65536
#define FIXES_BULK_MAX_SORTED 4
/* fixes_bulk_idle(): the entries a sorted chunk holds at least, and a slice of them */
#define FIXES_BULK_IDLE_CHUNK 8192
#define FIXES_BULK_IDLE_SLICE 256

/* the rightmost leaf of a btree index, for entries that arrive in key order */
typedef struct FixesRightmost
{
	BlockNumber block;			/* InvalidBlockNumber: not known */
	int			misses;			/* hints refused in a row */
	int			pause;			/* entries to go before hinting again */
	bool		hinted;			/* the entry being inserted was given the block */
} FixesRightmost;

typedef struct FixesBulk
{
	Relation	rel;
	MemoryContext cxt;			/* where the slots live */
	EState	   *estate;
	ResultRelInfo *rri;
	BulkInsertState bis;
	CommandId	cid;
	TupleTableSlot *slots[FIXES_BULK_MAX_TUPLES];
	int			nslots;			/* slots created */
	int			nused;			/* slots holding a tuple to insert */
	Size		bytes;			/* approximate size of those tuples */
	int64		inserted;
	/* rows kept apart (fixes_bulk_keep_room) */
	bool		keep_room;		/* every batch skips the free space map */
	bool		roomy;			/* this batch: rows that a later UPDATE rewrites */
	bool		last_fresh;		/* the relation's last page is a new, empty one */
	/* indexes filled at the end, each in its own order (fixes_bulk_sort_index) */
	int			nsorted;
	Relation	sorted_index[FIXES_BULK_MAX_SORTED];
	struct IndexInfo *sorted_info[FIXES_BULK_MAX_SORTED];
	struct Tuplesortstate *sort[FIXES_BULK_MAX_SORTED];
	int64		queued[FIXES_BULK_MAX_SORTED];	/* entries in sort[k] */
	/* a sorted chunk of them that idle time inserts (fixes_bulk_idle), or NULL */
	struct Tuplesortstate *draining[FIXES_BULK_MAX_SORTED];
	int64		idle_inserted;	/* entries idle time inserted */
	/* per index, as rri's arrays (those filled at the end included) */
	FixesRightmost *rightmost;
	/* the table's constraints, checked on every row queued (fixes_bulk_begin) */
	int			nnotnull;
	AttrNumber *notnull;		/* 0-based positions of the NOT NULL columns */
	int			nchecks;
	ExprState **checks;			/* its CHECK constraints */
	const char **check_names;
	/*
	 * The partial indexes' predicates, evaluated on each row as it is queued
	 * (its values at hand), a bit per index: the index entries are then
	 * formed here (own_entries), without reading the rows' columns back
	 * from the tuples formed to evaluate them
	 */
	bool		own_entries;
	uint64		partial;		/* the indexes with a predicate */
	uint64		in_partial[FIXES_BULK_MAX_TUPLES];	/* per slot: whose predicate holds */
	/* fixes_bulk_row(): one row of the table's width */
	Datum	   *row_values;
	bool	   *row_nulls;
} FixesBulk;

extern FixesBulk *fixes_bulk_begin(Oid relid);
extern void fixes_bulk_sort_index(FixesBulk *b, const char *name);
extern void fixes_bulk_row(FixesBulk *b, Datum **values, bool **nulls);
extern void fixes_bulk_insert(FixesBulk *b, const Datum *values, const bool *nulls, Size bytes);
extern void fixes_bulk_keep_room(FixesBulk *b);
extern void fixes_bulk_insert_roomy(FixesBulk *b, const Datum *values, const bool *nulls);
extern bool fixes_bulk_idle(FixesBulk *b);
extern void fixes_bulk_end(FixesBulk *b);
extern void fixes_bulk_finish(FixesBulk **b);

#endif							/* FIXES_BULK_INSERT_H */
