/*
 * progress.h — where a long load is: NOTICEs (fixes.progress) and the process title
 */
#ifndef FIXES_PROGRESS_H
#define FIXES_PROGRESS_H

#include "datatype/timestamp.h"

typedef struct FixesProgress
{
	const char *name;			/* the repository */
	const char *phase;
	TimestampTz phase_start;
	TimestampTz last_notice;
	TimestampTz last_title;
	int64		done;			/* commits done in this phase */
	int			ticks;
} FixesProgress;

extern bool fixes_progress_notices;

extern void fixes_progress_define_gucs(void);
extern void fixes_progress_start(FixesProgress *p, const char *name);
extern void fixes_progress_phase(FixesProgress *p, const char *phase);
extern void fixes_progress_report(FixesProgress *p, bool force);
extern void fixes_progress_end(FixesProgress *p);

/* one more commit done: cheap, looks at the clock every 4096 calls */
static inline void
fixes_progress_tick(FixesProgress *p)
{
	p->done++;
	if (++p->ticks >= 4096)
	{
		p->ticks = 0;
		fixes_progress_report(p, false);
	}
}

#endif							/* FIXES_PROGRESS_H */
