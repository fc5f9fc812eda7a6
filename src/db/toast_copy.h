/*
 * toast_copy.h — bytea values copied into memory that is already theirs,
 * straight from TOAST
 */
#ifndef FIXES_TOAST_COPY_H
#define FIXES_TOAST_COPY_H

/* one value to copy: all len bytes of it (fixes_toast_length()) into dest */
typedef struct FixesToastCopy
{
	struct varlena *value;		/* as the tuple holds it: inline, compressed or a TOAST pointer */
	void	   *dest;
	Size		len;
} FixesToastCopy;

extern Size fixes_toast_length(struct varlena *value);
extern void fixes_toast_copy(FixesToastCopy *copies, int n);

#endif							/* FIXES_TOAST_COPY_H */
