/*
 * delta.h — git's delta format (delta.c)
 */
#ifndef FIXES_READER_DELTA_H
#define FIXES_READER_DELTA_H

#include <stddef.h>

/*
 * The object that delta[0..delta_size) makes of base[0..base_size): a
 * malloc'd buffer of *out_size bytes and a NUL after them, or NULL when the
 * delta is not one for this base (its base size differs, a copy reaches
 * past the base, an instruction is cut short or reserved, the result is
 * not the size it declares or larger than max) or memory is short.
 */
extern unsigned char *delta_apply(const unsigned char *base, size_t base_size,
								  const unsigned char *delta, size_t delta_size,
								  size_t max, size_t *out_size);

#endif
