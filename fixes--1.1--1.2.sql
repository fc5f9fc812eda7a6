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

-- Backports that name no mainline id (src/load_backports.c): how the
-- upstream of each row was found.  'id': the line's id, by unique prefix;
-- 'subject': none of the stable commit's lines resolved (or it has none), and
-- exactly one non-merge mainline commit has its subject; 'override': a row of
-- fixes_backport_overrides.  The last two are rows of no line: line 0, abbrev
-- and raw ''.  NULL: not resolved.
ALTER TABLE @extschema@.fixes_backports
    ADD COLUMN method text;

-- the rows of 1.1: resolved by their id
UPDATE @extschema@.fixes_backports SET method = 'id' WHERE status = 'resolved';

ALTER TABLE @extschema@.fixes_backports
    ADD CONSTRAINT fixes_backports_method_check
        CHECK (method IN ('id', 'subject', 'override')),
    ADD CONSTRAINT fixes_backports_method_resolved_check
        CHECK ((status = 'resolved') = (method IS NOT NULL)),
    ADD CONSTRAINT fixes_backports_line_check
        CHECK (line >= 0
               AND (line = 0) = (method IS NOT NULL AND method <> 'id')
               AND (line > 0 OR (abbrev = '' AND raw = '')));

-- The stable scope of a repository loaded before the update lacks what 1.2
-- finds (backports by subject, queued fixes): its next load must not be a
-- no-op.  Another tags hash makes it a refresh (no full load: the graph and
-- the mainline rows are kept), which writes the stable scope again.
UPDATE @extschema@.fixes_repositories SET tags_hash = tags_hash # 1
 WHERE stable_branches IS NOT NULL AND tags_hash IS NOT NULL;

COMMENT ON COLUMN @extschema@.fixes_backports.method IS
'how upstream_idx was found: id (the line''s id), subject (no line resolved: the one non-merge mainline commit with the same subject; line 0), override (a row of fixes_backport_overrides; line 0); NULL: not resolved';
COMMENT ON TABLE @extschema@.fixes_backports IS
'one row per backport line (commit <id> upstream, [ Upstream commit <id> ], (cherry picked from commit <id>)) of a stable commit, resolved against the mainline, and a row of line 0 for an upstream found by subject or by fixes_backport_overrides';

-- Corrections of backports, written by users and applied by every
-- fixes_load() of the repository of that name (like fixes_overrides): the
-- stable commit is a backport of upstream_commit, whatever its lines say
-- (they stay in fixes_backports, but count nowhere).  pg_dump keeps the
-- rows; fixes_unload() leaves them; fixes_load() only reads them.
CREATE TABLE @extschema@.fixes_backport_overrides (
    repository      text NOT NULL,
    stable_commit   text COLLATE "C" NOT NULL
                    CHECK (stable_commit ~ '^[0-9a-f]{40}$'),
    upstream_commit text COLLATE "C" NOT NULL
                    CHECK (upstream_commit ~ '^[0-9a-f]{40}$'),
    note            text,
    PRIMARY KEY (repository, stable_commit)
);

COMMENT ON TABLE @extschema@.fixes_backport_overrides IS
'corrections of backports, applied by every fixes_load of the repository (by name): the stable commit is a backport of the upstream commit (fixes_backports.method override), whatever its lines say';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_backport_overrides', '');
-- stable_branches is remembered per repository, like files and maintainers
-- (src/load_stable.c): its default, '*keep*' (an invalid expression, so no
-- real one can mean it), keeps the previous load's; NULL turns the stable
-- scope off; another expression replaces it, with a NOTICE.  A new default
-- is a new definition: the function goes, with what was granted on it.
DROP FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text);

CREATE FUNCTION @extschema@.fixes_load(
    path text,
    ref text DEFAULT 'HEAD',
    release_pattern text DEFAULT NULL,
    name text DEFAULT NULL,
    stable_branches text DEFAULT '*keep*',
    files boolean DEFAULT NULL,
    maintainers text DEFAULT NULL,
    OUT repository text,
    OUT commits bigint,
    OUT releases integer,
    OUT edges bigint,
    OUT resolved bigint,
    OUT seconds double precision)
RETURNS record
AS 'MODULE_PATHNAME', 'fixes_load'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET jit = off;

COMMENT ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) IS
'read the repository at path into the fixes_* tables (replacing an earlier load of the same name); stable_branches: a regular expression over full branch ref names whose commits not on ref form the stable scope (the default keeps the repository''s, NULL turns it off); files => true records the changed files of each commit, maintainers names the MAINTAINERS file of the ref''s tree (NULL keeps the current setting)';

REVOKE ALL ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) TO pg_read_server_files;
-- Queued fixes (src/load_stable.c): a backport of the fix on a stable branch
-- after the branch's newest release is recorded in fix_backport_idxs, its
-- fixed_ranks element NULL.
COMMENT ON TABLE @extschema@.fixes_affected_series IS
'per resolved mainline Fixes pair, the stable series that shipped the bug (series_ranks), and in each the release ranks where it came in and where the fix landed, and the commit index of that fix (fixed_ranks NULL: not fixed in a release there yet; fix_backport_idxs then names a backport queued on the branch after its newest release, or is NULL); fixes_affected unnests them';
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
-- 365 and 730 days.  Counters of fixes_per_release: set on mainline
-- releases and NULL on stable ones, as the others (issue 29).  Zeros until
-- the next load, which is a full one (below).
ALTER TABLE @extschema@.fixes_releases
    ADD COLUMN stable_cc_commits bigint,
    ADD COLUMN stable_cc_fixing_commits bigint,
    ADD COLUMN found_within_365d bigint,
    ADD COLUMN found_within_730d bigint;

UPDATE @extschema@.fixes_releases
   SET stable_cc_commits = 0, stable_cc_fixing_commits = 0, found_within_365d = 0,
       found_within_730d = 0
 WHERE mainline;

ALTER TABLE @extschema@.fixes_releases
    ADD CONSTRAINT fixes_releases_mainline_counters_12_check
        CHECK (mainline = (stable_cc_commits IS NOT NULL)
               AND mainline = (stable_cc_fixing_commits IS NOT NULL)
               AND mainline = (found_within_365d IS NOT NULL)
               AND mainline = (found_within_730d IS NOT NULL));

COMMENT ON CONSTRAINT fixes_releases_mainline_counters_12_check ON @extschema@.fixes_releases IS
'the counters of fixes_per_release added by 1.2 are set on mainline releases and NULL on stable releases';

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
