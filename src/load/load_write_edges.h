/*
 * load_write_edges.h — fixes_edges of the mainline (load_write_edges.c)
 */
#ifndef FIXES_LOAD_WRITE_EDGES_H
#define FIXES_LOAD_WRITE_EDGES_H

#include "load_state.h"

extern void fixes_load_fetch_target_times(FixesLoad *ld);
extern void fixes_load_write_edges(FixesLoad *ld);

#endif							/* FIXES_LOAD_WRITE_EDGES_H */
