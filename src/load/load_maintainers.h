/*
 * load_maintainers.h — MAINTAINERS: the subsystems of each commit (load_maintainers.c)
 */
#ifndef FIXES_LOAD_MAINTAINERS_H
#define FIXES_LOAD_MAINTAINERS_H

#include "load_state.h"

extern void fixes_load_read_maintainers(FixesLoad *ld, struct FixesReader *shared);
extern void fixes_load_write_files(FixesLoad *ld);
extern void fixes_load_maintainers_path(FixesLoad *ld, uint32 idx, const char *path, int len);
extern void fixes_load_maintainers_restart(FixesLoad *ld);
extern int	fixes_load_nsections(FixesLoad *ld);

#endif							/* FIXES_LOAD_MAINTAINERS_H */
