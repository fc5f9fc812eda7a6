/*
 * load_read.h — the read phase: the walk of the mainline (load_read.c)
 */
#ifndef FIXES_LOAD_READ_H
#define FIXES_LOAD_READ_H

#include "load_state.h"

extern void fixes_load_read(FixesLoad *ld);

#endif							/* FIXES_LOAD_READ_H */
