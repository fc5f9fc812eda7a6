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
-- (loader part; the SQL answers of issue 29 are in their own sub-block)

-- Every row a load writes satisfies its table's constraints (the bulk path
-- checks NOT NULL and CHECK on each row, src/bulk_insert.c).  The counters
-- of fixes_per_release are the mainline's: NULL for a stable release (1.1
-- said so, but four of them were NOT NULL, and a stable load wrote NULL in
-- them anyway: pg_restore refused the table).  Now the columns say it, and
-- a CHECK: the mainline counters are set exactly on mainline rows, the
-- stable counters exactly on stable rows.  A 1.2 library loading a database
-- still at 1.1 writes 0 in the four columns there; the update makes them
-- NULL again.
ALTER TABLE @extschema@.fixes_releases
    ALTER COLUMN tagged_commits DROP NOT NULL,
    ALTER COLUMN fixing_earlier_commits DROP NOT NULL,
    ALTER COLUMN reverts DROP NOT NULL,
    ALTER COLUMN reverted_introduced DROP NOT NULL;

UPDATE @extschema@.fixes_releases
   SET tagged_commits = NULL, fixing_earlier_commits = NULL, reverts = NULL,
       reverted_introduced = NULL
 WHERE NOT mainline;

ALTER TABLE @extschema@.fixes_releases
    ADD CONSTRAINT fixes_releases_mainline_counters_check
        CHECK (mainline = (fixing_commits IS NOT NULL)
               AND mainline = (commits_fixed IS NOT NULL)
               AND mainline = (bugs_introduced IS NOT NULL)
               AND mainline = (buggy_commits_introduced IS NOT NULL)
               AND mainline = (fixed_same_release IS NOT NULL)
               AND mainline = (tagged_commits IS NOT NULL)
               AND mainline = (fixing_earlier_commits IS NOT NULL)
               AND mainline = (reverts IS NOT NULL)
               AND mainline = (reverted_introduced IS NOT NULL)),
    ADD CONSTRAINT fixes_releases_stable_counters_check
        CHECK (mainline = (backports IS NULL)
               AND mainline = (regressions_introduced IS NULL)
               AND mainline = (known_bugs IS NULL));

COMMENT ON CONSTRAINT fixes_releases_mainline_counters_check ON @extschema@.fixes_releases IS
'the counters of fixes_per_release are set on mainline releases and NULL on stable releases';
COMMENT ON CONSTRAINT fixes_releases_stable_counters_check ON @extschema@.fixes_releases IS
'the counters of fixes_per_stable_release are set on stable releases and NULL on mainline releases';
-- ---- end of issue 29 ----

-- ---- issue 30: statistics on real histories ----
-- ---- end of issue 30 ----

-- ---- issue 31: refresh ----
-- ---- end of issue 31 ----

-- ---- issue 32: CVE records ----
-- ---- end of issue 32 ----
