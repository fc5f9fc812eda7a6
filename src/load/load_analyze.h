/*
 * load_analyze.h — ANALYZE of the tables the load changed much (load_analyze.c)
 */
#ifndef FIXES_LOAD_ANALYZE_H
#define FIXES_LOAD_ANALYZE_H

#include "load_state.h"

extern void fixes_load_analyze(FixesLoad *ld);

#endif							/* FIXES_LOAD_ANALYZE_H */
