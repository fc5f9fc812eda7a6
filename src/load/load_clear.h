/*
 * load_clear.h — the previous load's rows that this load writes again (load_clear.c)
 */
#ifndef FIXES_LOAD_CLEAR_H
#define FIXES_LOAD_CLEAR_H

#include "load_state.h"

extern void fixes_load_clear(FixesLoad *ld);
extern void fixes_load_clear_stable(FixesLoad *ld);

#endif							/* FIXES_LOAD_CLEAR_H */
