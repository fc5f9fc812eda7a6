/*
 * load_trailer_counts.h — fixes_release_trailers (load_trailer_counts.c)
 */
#ifndef FIXES_LOAD_TRAILER_COUNTS_H
#define FIXES_LOAD_TRAILER_COUNTS_H

#include "load_state.h"

extern void fixes_load_write_trailer_counts(FixesLoad *ld);

#endif							/* FIXES_LOAD_TRAILER_COUNTS_H */
