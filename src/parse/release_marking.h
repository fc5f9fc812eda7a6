/*
 * release_marking.h — the first release that contains each commit
 */
#ifndef FIXES_RELEASE_MARKING_H
#define FIXES_RELEASE_MARKING_H

#include <stdint.h>

extern void fixes_mark_releases(uint32_t n,
								const uint32_t *par_start, const uint32_t *par_end,
								const uint32_t *parents,
								const uint32_t *release_commit, int32_t nreleases,
								int32_t *mark, uint32_t *stack);

extern void fixes_mark_releases_from(uint32_t n,
									 const uint32_t *par_start, const uint32_t *par_end,
									 const uint32_t *parents,
									 const uint32_t *starts, const uint32_t *start_off,
									 int32_t nreleases, int32_t *mark, uint32_t *stack);

#endif							/* FIXES_RELEASE_MARKING_H */
