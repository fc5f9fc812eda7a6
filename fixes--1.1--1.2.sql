/* fixes--1.1--1.2.sql — update of the fixes extension from 1.1 to 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION fixes UPDATE TO '1.2'" to load this file. \quit

-- Version 1.2 has no install script of its own: CREATE EXTENSION fixes runs
-- fixes--1.0.sql, fixes--1.0--1.1.sql and this script, so that no line of
-- SQL is written twice and a fresh install is an update by construction.
-- Each block below belongs to one issue; keep them apart.

-- ---- issue 27: structure ----
-- ---- end of issue 27 ----

-- ---- issue 28: hostile inputs ----
-- ---- end of issue 28 ----

-- ---- issue 29: answers a CVE analyst can trust ----
-- ---- end of issue 29 ----

-- ---- issue 30: statistics on real histories ----
-- Whether a commit asked for a stable backport: a "Cc: stable@..." line
-- anywhere in its message (src/stable_cc.h), in git's trailer block or in a
-- paragraph above it (DPDK writes Fixes: and Cc: there, where git's trailer
-- rules do not look).  NULL on rows loaded before 1.2, until the next load.
ALTER TABLE @extschema@.fixes_commits
    ADD COLUMN stable_cc boolean;

COMMENT ON COLUMN @extschema@.fixes_commits.stable_cc IS
'the message has a line "Cc: ... stable@<domain> ..." (case-insensitive, anywhere in the message): the commit asked for a stable backport';

-- Per release, computed by fixes_load() (src/load_counts.c,
-- src/load_lifetimes.c): the commits with a Cc: stable line and those of
-- them with a resolved Fixes edge; the edges of bugs_introduced found within
-- 365 and 730 days.  Zeros until the next load, which is a full one (below).
ALTER TABLE @extschema@.fixes_releases
    ADD COLUMN stable_cc_commits bigint NOT NULL DEFAULT 0,
    ADD COLUMN stable_cc_fixing_commits bigint NOT NULL DEFAULT 0,
    ADD COLUMN found_within_365d bigint NOT NULL DEFAULT 0,
    ADD COLUMN found_within_730d bigint NOT NULL DEFAULT 0;

COMMENT ON COLUMN @extschema@.fixes_releases.stable_cc_commits IS
'commits of the release whose message has a Cc: stable line (fixes_commits.stable_cc)';
COMMENT ON COLUMN @extschema@.fixes_releases.stable_cc_fixing_commits IS
'of stable_cc_commits, those with a resolved Fixes edge';
COMMENT ON COLUMN @extschema@.fixes_releases.found_within_365d IS
'edges of bugs_introduced whose lifetime (as in fixes_bug_lifetimes) is at most 365 days, whatever the release has been observed for (fixes_lifetime_per_release applies that)';
COMMENT ON COLUMN @extschema@.fixes_releases.found_within_730d IS
'the same within 730 days';

-- The newest committer date among the mainline commits of the last load:
-- how long each release has been observed (fixes_lifetime_per_release).
ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN last_committed_at timestamptz;

COMMENT ON COLUMN @extschema@.fixes_repositories.last_committed_at IS
'the newest committer date among the mainline commits of the last load (NULL before a load by 1.2, or when none has a date)';

-- One bit per commit of the chunk (bit i % 8 of byte i / 8): its stable_cc,
-- for the per-release counts of a refresh.  A graph without it (written
-- before 1.2) is not built on: the next load is a full one.
ALTER TABLE @extschema@.fixes_graph
    ADD COLUMN stable_cc bytea;

COMMENT ON COLUMN @extschema@.fixes_graph.stable_cc IS
'internal: a bitmap of the chunk''s commits whose message has a Cc: stable line';

-- The next fixes_load() of each repository reads it in full once, so that
-- stable_cc and the counts above are there for every commit.
UPDATE @extschema@.fixes_repositories SET tags_hash = NULL;

-- fixes_per_release gains two columns at its end
CREATE OR REPLACE VIEW @extschema@.fixes_per_release AS
SELECT p.name AS repository,
       r.tag AS release,
       r.release_rank,
       r.released_at,
       r.commits,
       r.fixing_commits,
       r.bugs_fixed,
       r.commits_fixed,
       r.bugs_introduced,
       r.buggy_commits_introduced,
       r.fixed_same_release,
       r.tagged_commits,
       r.fixing_earlier_commits,
       r.reverts,
       r.reverted_introduced,
       r.stable_cc_commits,
       r.stable_cc_fixing_commits
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 WHERE r.mainline
 ORDER BY p.name, r.release_rank;

-- fixes_lifetime_per_release gains three columns at its end.  A bug's
-- lifetime runs from its commit, which is older than the release, so every
-- fix within N days of it can have been made once the release is N days
-- old: the count within N days is comparable across releases from then on,
-- and NULL before.
CREATE OR REPLACE VIEW @extschema@.fixes_lifetime_per_release AS
SELECT p.name AS repository,
       r.tag AS release,
       r.release_rank,
       r.fixed_median_days,
       r.fixed_p90_days,
       r.introduced_median_days,
       o.observed_days,
       CASE WHEN o.observed_days >= 365 THEN r.found_within_365d END AS found_within_365d,
       CASE WHEN o.observed_days >= 730 THEN r.found_within_730d END AS found_within_730d
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 CROSS JOIN LATERAL (SELECT EXTRACT(epoch FROM p.last_committed_at - r.released_at)::double precision
                            / 86400 AS observed_days) o
 WHERE r.mainline
 ORDER BY p.name, r.release_rank;

COMMENT ON VIEW @extschema@.fixes_lifetime_per_release IS
'per release: median and 90th percentile lifetime in days of the bugs its commits fixed in earlier releases, median lifetime of the bugs it introduced, the days it has been observed, and how many of its bugs were found within 365 and 730 days (NULL until observed that long)';
-- ---- end of issue 30 ----

-- ---- issue 31: refresh ----
-- ---- end of issue 31 ----

-- ---- issue 32: CVE records ----
-- ---- end of issue 32 ----
