/*
 * progress.c — where a long load is
 *
 * With fixes.progress = on, a load sends a NOTICE at most every 2 s with its
 * phase, the commits done in it and the rate.  Whatever the setting, the
 * process title of the backend (what ps and top show) names the phase and
 * the count, updated at most once a second: PostgreSQL 15 gives an
 * extension loaded without shared_preload_libraries no progress view
 * (pg_stat_progress_* are for the server's own commands), so another
 * session reads it with `ps -o args -p <pid>`, the pid being the load's
 * pg_stat_activity.pid.
 */
#include "postgres.h"

#include "utils/guc.h"
#include "utils/ps_status.h"
#include "utils/timestamp.h"

#include "progress.h"

#define NOTICE_EVERY_MS 2000
#define TITLE_EVERY_MS 1000

bool		fixes_progress_notices = false;

void
fixes_progress_define_gucs(void)
{
	DefineCustomBoolVariable("fixes.progress",
							 "Reports the progress of fixes_load() in a NOTICE at most every 2 seconds.",
							 NULL,
							 &fixes_progress_notices,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
}

void
fixes_progress_start(FixesProgress *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->phase = "starting";
	p->phase_start = GetCurrentTimestamp();
}

void
fixes_progress_report(FixesProgress *p, bool force)
{
	TimestampTz now = GetCurrentTimestamp();
	double		secs = (double) (now - p->phase_start) / USECS_PER_SEC;
	double		rate = secs > 0 ? p->done / secs : 0;

	if (force || TimestampDifferenceExceeds(p->last_title, now, TITLE_EVERY_MS))
	{
		char		title[256];

		snprintf(title, sizeof(title), "fixes_load %s: %s, %lld commits",
				 p->name, p->phase, (long long) p->done);
		set_ps_display(title);
		p->last_title = now;
	}
	if (fixes_progress_notices &&
		TimestampDifferenceExceeds(p->last_notice, now, NOTICE_EVERY_MS))
	{
		ereport(NOTICE,
				(errmsg("fixes_load %s: %s, %lld commits in %.1f s (%.0f commits/s)",
						p->name, p->phase, (long long) p->done, secs, rate)));
		p->last_notice = now;
	}
}

/* a new phase: the title says so at once, the NOTICE within its 2 s */
void
fixes_progress_phase(FixesProgress *p, const char *phase)
{
	p->phase = phase;
	p->phase_start = GetCurrentTimestamp();
	p->done = 0;
	p->ticks = 0;
	fixes_progress_report(p, true);
}

void
fixes_progress_end(FixesProgress *p)
{
	set_ps_display("SELECT");
}
