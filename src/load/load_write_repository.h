/*
 * load_write_repository.h — the one writer of the repository's row, at the end (load_write_repository.c)
 */
#ifndef FIXES_LOAD_WRITE_REPOSITORY_H
#define FIXES_LOAD_WRITE_REPOSITORY_H

#include "load_state.h"

extern void fixes_load_write_repository(FixesLoad *ld, double seconds);

#endif							/* FIXES_LOAD_WRITE_REPOSITORY_H */
