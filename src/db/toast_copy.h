/*
 * toast_copy.h — bytea values copied into memory that is already theirs,
 * straight from TOAST
 */
#ifndef FIXES_TOAST_COPY_H
#define FIXES_TOAST_COPY_H

#include "access/htup.h"
#include "access/tupdesc.h"

/* one value to copy: all len bytes of it (fixes_toast_length()) into dest */
typedef struct FixesToastCopy
{
	struct varlena *value;		/* as the tuple holds it: inline, compressed or a TOAST pointer */
	void	   *dest;
	Size		len;
} FixesToastCopy;

extern Size fixes_toast_length(struct varlena *value);
extern void fixes_toast_copy(FixesToastCopy *copies, int n);

/* the bytea columns of a row in the chunked form (fixes_graph and the tables kept so) */
extern Size fixes_chunk_length(HeapTuple tup, TupleDesc desc, int col);
extern void fixes_chunk_copy_to(FixesToastCopy *c, HeapTuple tup, TupleDesc desc, int col,
								void *dest, Size len);
extern bytea *fixes_bytea(const void *data, Size len);
extern bytea *fixes_bytea_compressed(const void *data, Size len);

#endif							/* FIXES_TOAST_COPY_H */
