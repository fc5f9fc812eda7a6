/*
 * load_schema.h — what the installed SQL of the extension has (load_schema.c)
 */
#ifndef FIXES_LOAD_SCHEMA_H
#define FIXES_LOAD_SCHEMA_H

#include "load_state.h"

extern void fixes_load_schema(FixesLoad *ld);

#endif							/* FIXES_LOAD_SCHEMA_H */
