-- The answers of issue 29 (fixes_affected.status, fixes_affected_releases,
-- fixes_commit_id) and the CVE records of issue 32 (fixes_cve_affected,
-- fixes_cve_affected_all) over the fixtures stable.git and releases.git,
-- whose histories are in test/fixtures/README.md.  test/t/cve.sh checks the
-- same functions against git on larger histories (test/oracles/cve-oracle.py).
-- a fresh install (article_compat leaves the extension at 1.1)
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY default
\getenv fixtures FIXES_FIXTURES
\set stable :fixtures '/stable.git'
\set releases :fixtures '/releases.git'
\set re '^refs/(heads|remotes/origin)/stable-'

SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'stable', name => 'cve_st', stable_branches => :'re', files => true);
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'releases', name => 'cve_rel');

-- ids by subject, for the queries below
CREATE TEMP TABLE ids AS
SELECT p.name AS repository, c.subject, c.mainline, c.commit_id
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name IN ('cve_st', 'cve_rel');

---------------------------------------------------------------------------
-- fixes_commit_id
---------------------------------------------------------------------------
-- M13 by its full id, the same in upper case, an abbreviation; a release tag
-- (mainline and stable), a stable commit's abbreviation (S21)
SELECT fixes_commit_id('cve_st', (SELECT commit_id FROM ids WHERE repository = 'cve_st' AND subject = 'core: fix parser again' AND mainline)) AS full_id,
       fixes_commit_id('cve_st', upper((SELECT commit_id FROM ids WHERE repository = 'cve_st' AND subject = 'core: fix parser again' AND mainline))) AS upper_case,
       fixes_commit_id('cve_st', '6A3458F') AS abbrev;
SELECT fixes_commit_id('cve_st', 'v1.0') AS v1_0, fixes_commit_id('cve_st', 'v1.0.2') AS v1_0_2,
       fixes_commit_id('cve_st', 'dee38b9f') AS stable_commit;
-- the tag is the repository's: releases.git has a v1.0 of its own
SELECT fixes_commit_id('cve_rel', 'v1.0') = (SELECT commit_id FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
                                             WHERE p.name = 'cve_rel' AND r.tag = 'v1.0') AS its_own_v1_0;
-- 4 digits is the shortest prefix (as git); 40 is the longest
SELECT fixes_commit_id('cve_st', '047f') AS four_digits;
\set VERBOSITY verbose
-- X and Y share cd3f4e7: an error listing both
SELECT fixes_commit_id('cve_st', 'cd3f4e7');
SELECT fixes_commit_id('cve_st', 'CD3F4E73') AS one_more_digit;
SELECT fixes_commit_id('cve_st', 'cd3');
SELECT fixes_commit_id('cve_st', 'ffff');
SELECT fixes_commit_id('cve_st', 'ffffffffffffffffffffffffffffffffffffffff');
SELECT fixes_commit_id('cve_st', '047faa41b7351ecca4de9d41032f18672321e3bd0');
SELECT fixes_commit_id('cve_st', 'main');
SELECT fixes_commit_id('cve_st', 'v1.1-rc1');
SELECT fixes_commit_id('cve_st', ' 047faa41');
SELECT fixes_commit_id('no_such_repository', '047faa41');
\set VERBOSITY default
SELECT fixes_commit_id(NULL, '047faa41') IS NULL AS null_repository,
       fixes_commit_id('cve_st', NULL) IS NULL AS null_rev;
-- the prefix look-up is an index range scan
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT c.commit_id FROM fixes_commits c
 WHERE c.commit_id >= 'cd3f4e7' AND c.commit_id < 'cd3f4e7' || 'g' AND c.repository_id = 1;
RESET enable_seqscan;

---------------------------------------------------------------------------
-- fixes_affected.status
---------------------------------------------------------------------------
-- mainline rows: fixed, or queued when the fix is not released yet (M15);
-- series rows: fixed, or unfixed (M08's S07 and M15's S23 are unreleased
-- backports: queued once the load records unreleased backports)
SELECT left(a.fixing_commit, 12) AS fixing, f.subject AS fixing_subject,
       left(a.target_commit, 12) AS target, a.series, a.introduced_in, a.fixed_in,
       left(a.fix_backport, 12) AS fix_backport, a.status
  FROM fixes_affected a
  JOIN ids f ON f.commit_id = a.fixing_commit AND f.repository = a.repository
 WHERE a.repository = 'cve_st'
 ORDER BY a.series NULLS FIRST, a.introduced_in, a.fixing_commit, a.target_commit;
-- the rule, on every row of both repositories
SELECT repository, count(*) AS rows,
       count(*) FILTER (WHERE status = CASE WHEN fixed_in IS NOT NULL THEN 'fixed'
                                            WHEN series IS NULL OR fix_backport IS NOT NULL THEN 'queued'
                                            ELSE 'unfixed' END) AS by_the_rule
  FROM fixes_affected WHERE repository IN ('cve_st', 'cve_rel') GROUP BY 1 ORDER BY 1;

---------------------------------------------------------------------------
-- fixes_affected_releases
---------------------------------------------------------------------------
SELECT left(a.fixing_commit, 12) AS fixing, f.subject AS fixing_subject,
       left(a.target_commit, 12) AS target, a.series, a.release, a.release_rank
  FROM fixes_affected_releases a
  JOIN ids f ON f.commit_id = a.fixing_commit AND f.repository = a.repository
 WHERE a.repository = 'cve_st'
 ORDER BY a.fixing_commit, a.target_commit, a.release_rank;
-- the same, from fixes_affected by the four-way join it replaces: every row of
-- fixes_affected gives the releases of its place from introduced_in up to,
-- not including, fixed_in (the mainline: mainline releases; a series: its
-- stable releases, its mainline release being a mainline row)
CREATE TEMP TABLE by_join AS
SELECT a.repository, a.fixing_commit, a.target_commit, r.series, r.tag AS release, r.release_rank
  FROM fixes_affected a
  JOIN fixes_repositories p ON p.name = a.repository
  JOIN fixes_releases i ON i.repository_id = p.repository_id AND i.tag = a.introduced_in
  LEFT JOIN fixes_releases x ON x.repository_id = p.repository_id AND x.tag = a.fixed_in
  JOIN fixes_releases r ON r.repository_id = p.repository_id
   AND r.release_rank >= i.release_rank AND (x.release_rank IS NULL OR r.release_rank < x.release_rank)
   AND CASE WHEN a.series IS NULL THEN r.mainline ELSE NOT r.mainline AND r.series = a.series END
 WHERE a.repository IN ('cve_st', 'cve_rel');
SELECT (SELECT count(*) FROM by_join) AS rows,
       (SELECT count(*) FROM (SELECT * FROM by_join EXCEPT ALL
                              SELECT * FROM fixes_affected_releases WHERE repository IN ('cve_st', 'cve_rel')) d) AS missing,
       (SELECT count(*) FROM (SELECT * FROM fixes_affected_releases WHERE repository IN ('cve_st', 'cve_rel') EXCEPT ALL
                              SELECT * FROM by_join) d) AS extra;
-- a filter on fixing_commit uses the index on fixes_edges.fixing_commit
CREATE FUNCTION pg_temp.plan_uses(q text, idx text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        IF l ~ idx THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
END $$;
SET enable_seqscan = off;
SELECT pg_temp.plan_uses(format('SELECT * FROM fixes_affected_releases WHERE fixing_commit = %L',
                                (SELECT commit_id FROM ids WHERE repository = 'cve_st' AND subject = 'core: fix parser again' AND mainline)),
                         'fixes_edges_fixing_commit_idx') AS uses_fixing_commit_idx;
RESET enable_seqscan;
-- the README's question, without the repository's name in a join
SELECT series, release FROM fixes_affected_releases
 WHERE fixing_commit = fixes_commit_id('cve_st', '6a3458f') ORDER BY release_rank;
SELECT release FROM fixes_affected_releases
 WHERE fixing_commit = fixes_commit_id('cve_st', '6a3458f') AND series = 'v1.0' ORDER BY release_rank;

---------------------------------------------------------------------------
-- fixes_cve_affected
---------------------------------------------------------------------------
-- M13 fixes M02: mainline v1.0 .. v1.1, v1.0 fixed in v1.0.2 (S05), v1.1 in
-- v1.1.1 (S21); the files it changed
SELECT jsonb_pretty(fixes_cve_affected('cve_st', '6a3458f', vendor => 'Example', product => 'st',
                                       repo_url => 'https://git.example.org/st.git'));
-- M10 fixes M09, both in v1.1: no mainline release shipped the bug, v1.0
-- imported M09 with S02 in v1.0.1 and got the fix in v1.0.2 (S04)
SELECT jsonb_pretty(fixes_cve_affected('cve_st', '640b84bc'));
-- M15 fixes M03: unreleased on the mainline, not fixed in a release of any
-- series: no upper bound anywhere, no entry for the mainline's fix
SELECT jsonb_pretty(fixes_cve_affected('cve_st', '60d29a21'));
-- M05 fixed M03 in the same release: nothing shipped it, every version is
-- unaffected
SELECT jsonb_pretty(fixes_cve_affected('cve_st', '7a07150a'));
-- releases.git (no files, no stable branches): three targets, one entry each,
-- in the order of the Fixes: lines; no programFiles
SELECT jsonb_pretty(fixes_cve_affected('cve_rel', '70542b04'));
-- no resolved edge: NULL and a NOTICE saying why
SELECT fixes_cve_affected('cve_rel', '3de794da') IS NULL AS not_found_line;
SELECT fixes_cve_affected('cve_rel', '95059db2') IS NULL AS ambiguous_line;
SELECT fixes_cve_affected('cve_st', 'v1.0') IS NULL AS no_fixes_line;
SELECT fixes_cve_affected('cve_st', 'dee38b9f') IS NULL AS stable_commit;
SELECT fixes_cve_affected(NULL, '6a3458f') IS NULL AS null_repository,
       fixes_cve_affected('cve_st', NULL) IS NULL AS null_fix;
-- the revision rules of fixes_commit_id
SELECT fixes_cve_affected('cve_st', 'cd3f4e7');
SELECT fixes_cve_affected('cve_st', 'zzz');
SELECT fixes_cve_affected('no_such_repository', '6a3458f');

---------------------------------------------------------------------------
-- fixes_cve_affected_all
---------------------------------------------------------------------------
-- one row per fixing commit with a resolved mainline edge, in id order,
-- each equal to fixes_cve_affected's, byte for byte
SELECT left(a.fixing_commit, 12) AS fixing, f.subject,
       a.affected::text = fixes_cve_affected('cve_st', a.fixing_commit)::text AS same
  FROM fixes_cve_affected_all('cve_st') a
  JOIN ids f ON f.repository = 'cve_st' AND f.commit_id = a.fixing_commit;
SELECT count(*) AS rows, bool_and(a.affected::text = fixes_cve_affected('cve_rel', a.fixing_commit)::text) AS same,
       (SELECT count(DISTINCT fixing_commit) FROM fixes_affected WHERE repository = 'cve_rel') AS fixes_affected_fixes
  FROM fixes_cve_affected_all('cve_rel') a;
SELECT count(*) FROM fixes_cve_affected_all('no_such_repository');
SELECT count(*) FROM fixes_cve_affected_all(NULL);
-- names are JSON strings, whatever they hold
SELECT e->>'vendor' AS vendor, e->>'product' AS product, e->>'repo' AS repo
  FROM jsonb_array_elements(fixes_cve_affected('cve_st', '6a3458f', vendor => E'Q"uote\\back\ttab',
                                               product => 'Prodüct', repo_url => E'x\ny')) e;
-- vendor, product and repo in every entry
SELECT DISTINCT e->>'vendor' AS vendor, e->>'product' AS product, e->>'repo' AS repo
  FROM fixes_cve_affected_all('cve_rel', 'V', 'P', 'https://r') a, jsonb_array_elements(a.affected) e;

-- the CVE Record Format's rules for affected, on every array: a product entry
-- has vendor and product; every version entry has version and status;
-- lessThan and lessThanOrEqual come with versionType; programFiles unique
CREATE TEMP TABLE arrays AS
SELECT 'cve_st' AS repository, * FROM fixes_cve_affected_all('cve_st')
UNION ALL
SELECT 'cve_rel', * FROM fixes_cve_affected_all('cve_rel');
SELECT count(*) AS arrays,
       count(*) FILTER (WHERE jsonb_array_length(affected) <> 2) AS not_two_entries,
       count(*) FILTER (WHERE jsonb_path_exists(affected,
           '$[*] ? (!exists(@.vendor) || !exists(@.product) || !exists(@.defaultStatus))')) AS entry_without_vendor_product,
       count(*) FILTER (WHERE jsonb_path_exists(affected,
           '$[*].versions[*] ? (!exists(@.version) || !exists(@.status))')) AS version_without_status,
       count(*) FILTER (WHERE jsonb_path_exists(affected,
           '$[*].versions[*] ? ((exists(@.lessThan) || exists(@.lessThanOrEqual)) && !exists(@.versionType))')) AS bound_without_type,
       count(*) FILTER (WHERE EXISTS (SELECT FROM jsonb_array_elements(affected) e
                                       WHERE (SELECT count(*) FROM jsonb_array_elements_text(e->'programFiles'))
                                          <> (SELECT count(DISTINCT x) FROM jsonb_array_elements_text(e->'programFiles') x))) AS repeated_files
  FROM arrays;

SELECT fixes_unload('cve_st'), fixes_unload('cve_rel');

-- issue 42: the wildcard of a fixed series is its version prefix, not its
-- name: a leading v before a digit and the trailing .0 components past the
-- second go (a series named like its first release, 1.46.0 or v3.5.0, gave
-- the empty ranges 1.46.0.* and 3.5.0.*)
SELECT s AS series, fixes_series_prefix(s) || '.*' AS wildcard
  FROM unnest(ARRAY['v6.1', '22.11', '1.46.0', 'v3.5.0', 'V1.0.0', 'v1.46.0.0', '2.0', '10.0.0',
                    '2.6.32', 'v2.6.32', '1.2.3.0', '1.48.10', 'ovs-2.5.0', 'v10', 'debian/15-1']) s;
SELECT fixes_series_prefix(NULL) IS NULL AS strict;
