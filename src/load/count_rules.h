/*
 * count_rules.h — the counting rules, each written once: the counting
 * module (load_count.c) and a refresh's counts by difference
 * (refresh/kept_counts.c) apply them
 */
#ifndef FIXES_COUNT_RULES_H
#define FIXES_COUNT_RULES_H

/*
 * The rules of the README's "Semantics", by the release ranks of the fixing
 * commit (fr) and of the commit its edge names (tr); 0 is unreleased, which
 * is later than every release.
 */

/* a bug introduced in release tr and fixed in a later release, or not released yet */
static inline bool
fixes_rule_introduced(int32 fr, int32 tr)
{
	return tr > 0 && (fr == 0 || fr > tr);
}

/* a bug of an earlier release that release fr fixed */
static inline bool
fixes_rule_fixed_earlier(int32 fr, int32 tr)
{
	return fr > 0 && tr > 0 && tr < fr;
}

/* a bug fixed in the release that introduced it */
static inline bool
fixes_rule_same_release(int32 fr, int32 tr)
{
	return fr > 0 && fr == tr;
}

/*
 * A bug that release k holds (fixes_per_stable_release.known_bugs): it came
 * in k or before, and is fixed after k or not yet.  Here the three are
 * positions in version order, + 1 (a stable series mixes the ranks of both
 * scopes); fix 0 is a fix no release holds (none, or queued).
 */
static inline bool
fixes_rule_known(int32 intro, int32 fix, int32 k)
{
	return intro <= k && fixes_rule_introduced(fix, k);
}

#endif							/* FIXES_COUNT_RULES_H */
