-- Backports that name no mainline id, their overrides, queued fixes, and the
-- constraints every load keeps (issue 29), over the fixture backports.git,
-- whose history and expected answers are in test/fixtures/README.md
-- (a fresh 1.2: article_compat, before, leaves the extension at 1.1)
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
CREATE EXTENSION fixes;
RESET client_min_messages;
SET timezone = 'UTC';
\pset null '(null)'
\getenv fixtures FIXES_FIXTURES
\set bp :fixtures '/backports.git'

SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');

-- each row of fixes_backports: P1's private id is not_found, and P1 is
-- matched to B04 by subject (line 0); N1 to B05 by subject; W1 (another
-- subject) and D1 (two mainline commits with its subject) to nothing; Q1 by id
CREATE VIEW bp_rows AS
SELECT s.subject AS stable, b.line, b.status, b.method, b.abbrev, b.raw,
       u.subject AS upstream, left(u.commit_id, 7) AS upstream_id
  FROM fixes_backports b
  JOIN fixes_repositories p USING (repository_id)
  JOIN fixes_commits s ON s.repository_id = b.repository_id AND s.commit_idx = b.commit_idx
  LEFT JOIN fixes_commits u ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx
 WHERE p.name = 'bp'
 ORDER BY s.commit_idx, b.line;
SELECT * FROM bp_rows;

-- the series rows: B04, B05 fixed in v1.0.1; B06 unfixed (W1 is not known
-- as its backport); B07 fixes B04, which P1 imported into v1.0.1, and its
-- backport Q1 is after v1.0.1: queued (fixed_in NULL, fix_backport set)
CREATE VIEW bp_affected AS
SELECT f.subject AS fixing, t.subject AS target, a.series, a.introduced_in, a.fixed_in,
       b.subject AS fix_backport_subject
  FROM fixes_affected a
  JOIN fixes_repositories p ON p.name = a.repository
  JOIN fixes_commits f ON f.repository_id = p.repository_id AND f.commit_id = a.fixing_commit
  JOIN fixes_commits t ON t.repository_id = p.repository_id AND t.commit_id = a.target_commit
  LEFT JOIN fixes_commits b ON b.repository_id = p.repository_id AND b.commit_id = a.fix_backport
 WHERE a.repository = 'bp'
 ORDER BY a.series NULLS FIRST, f.commit_idx, t.commit_idx;
SELECT * FROM bp_affected;
SELECT release, series, commits, backports, bugs_fixed, regressions_introduced, known_bugs
  FROM fixes_per_stable_release WHERE repository = 'bp';

-- an override: W1 is the backport of B06.  The repository did not change,
-- and the reload still applies it (the rows are folded into the tags hash)
INSERT INTO fixes_backport_overrides (repository, stable_commit, upstream_commit, note)
SELECT 'bp', w.commit_id, u.commit_id, 'W1 is B06, renamed for 1.0'
  FROM fixes_commits w JOIN fixes_commits u USING (repository_id)
  JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'bp' AND w.subject = 'net: parser fix for 1.0'
   AND u.subject = 'net: fix parser again' AND u.mainline;
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');
SELECT * FROM bp_rows WHERE method = 'override';
SELECT * FROM bp_affected WHERE series IS NOT NULL;
SELECT release, backports, bugs_fixed, known_bugs FROM fixes_per_stable_release WHERE repository = 'bp';

-- an override supersedes what the lines say: Q1 is said to backport B05
-- instead of B07; its line stays resolved by id, but counts nowhere
INSERT INTO fixes_backport_overrides (repository, stable_commit, upstream_commit)
SELECT 'bp', q.commit_id, u.commit_id
  FROM fixes_commits q JOIN fixes_commits u USING (repository_id)
  JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'bp' AND q.subject = 'net: fix the overflow fix' AND NOT q.mainline
   AND u.subject = 'net: fix parser underflow' AND u.mainline;
SELECT repository, commits FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');
SELECT * FROM bp_rows WHERE stable = 'net: fix the overflow fix';
SELECT fixing, target, series, fixed_in, fix_backport_subject FROM bp_affected
 WHERE series IS NOT NULL AND fixing IN ('net: fix the overflow fix', 'net: fix parser underflow');
DELETE FROM fixes_backport_overrides
 WHERE repository = 'bp' AND note IS NULL;

-- rows that do not apply: an upstream that is no mainline commit (a
-- WARNING), a stable commit that is not in the stable scope (a NOTICE)
INSERT INTO fixes_backport_overrides (repository, stable_commit, upstream_commit)
SELECT 'bp', d.commit_id, q.commit_id
  FROM fixes_commits d JOIN fixes_commits q USING (repository_id)
  JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'bp' AND d.subject = 'docs: update' AND NOT d.mainline
   AND q.subject = 'Release 1.0.1';
INSERT INTO fixes_backport_overrides VALUES
    ('bp', repeat('ab', 20), repeat('cd', 20), 'no such commit');
SELECT repository, commits FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');
SELECT count(*) AS override_rows FROM bp_rows WHERE method = 'override';
DELETE FROM fixes_backport_overrides WHERE repository = 'bp' AND note IS DISTINCT FROM 'W1 is B06, renamed for 1.0';

-- the table's rules: full ids only, one upstream per stable commit
INSERT INTO fixes_backport_overrides VALUES ('bp', 'abcdef1', repeat('cd', 20), NULL);
INSERT INTO fixes_backport_overrides
SELECT repository, stable_commit, repeat('ef', 20), NULL FROM fixes_backport_overrides;

-- fixes_unload leaves the overrides (like fixes_overrides)
SELECT fixes_unload('bp');
SELECT count(*) AS overrides_kept FROM fixes_backport_overrides WHERE repository = 'bp';

-- stable_branches is remembered per repository (like files and
-- maintainers): a reload without it keeps it, another expression or NULL
-- replaces it with a NOTICE, and NULL turns the stable scope off
CREATE VIEW scope AS
SELECT r.stable_branches,
       (SELECT count(*) FROM fixes_commits c
         WHERE c.repository_id = r.repository_id AND NOT c.mainline) AS stable_commits,
       (SELECT count(*) FROM fixes_releases l
         WHERE l.repository_id = r.repository_id AND NOT l.mainline) AS stable_releases
  FROM fixes_repositories r WHERE r.name = 'scope';
SELECT pg_get_function_arguments('fixes_load(text, text, text, text, text, boolean, text, text)'::regprocedure);
SELECT repository, commits FROM fixes_load(:'bp', name => 'scope', stable_branches => 'stable-');
SELECT * FROM scope;
SELECT repository, commits FROM fixes_load(:'bp', name => 'scope');
SELECT * FROM scope;
SELECT repository, commits FROM fixes_load(:'bp', name => 'scope', stable_branches => '^refs/heads/stable-1\.');
SELECT * FROM scope;
SELECT repository, commits FROM fixes_load(:'bp', name => 'scope', stable_branches => NULL);
SELECT * FROM scope;
SELECT repository, commits FROM fixes_load(:'bp', name => 'scope');
SELECT * FROM scope;
SELECT repository, commits FROM fixes_load(:'bp', name => 'scope', stable_branches => 'stable-');
SELECT * FROM scope;
-- an invalid expression is still an error, whatever was remembered
SELECT repository FROM fixes_load(:'bp', name => 'scope', stable_branches => '(');
SELECT fixes_unload('scope');
DROP VIEW scope;

-- who may write fixes_backport_overrides: as fixes_overrides, a load only
-- reads it, so a loader needs no write privilege on it, and row-level
-- security may be enabled on it (the load reads it as the loader)
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_fixes_bp_loader;      -- left by a run that stopped half-way
RESET client_min_messages;
CREATE ROLE regress_fixes_bp_loader;
GRANT pg_read_server_files TO regress_fixes_bp_loader;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO regress_fixes_bp_loader;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regress_fixes_bp_loader;
REVOKE INSERT, UPDATE, DELETE ON fixes_backport_overrides FROM regress_fixes_bp_loader;
ALTER TABLE fixes_backport_overrides ENABLE ROW LEVEL SECURITY;
CREATE POLICY bp_loader_reads ON fixes_backport_overrides FOR SELECT
    TO regress_fixes_bp_loader USING (repository = 'bp');
SET ROLE regress_fixes_bp_loader;
SELECT repository, commits FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');
SELECT stable, line, method, upstream FROM bp_rows WHERE method = 'override';
INSERT INTO fixes_backport_overrides VALUES ('bp', repeat('ab', 20), repeat('cd', 20), NULL);
RESET ROLE;
DROP POLICY bp_loader_reads ON fixes_backport_overrides;
ALTER TABLE fixes_backport_overrides DISABLE ROW LEVEL SECURITY;
SELECT fixes_unload('bp');
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM regress_fixes_bp_loader;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM regress_fixes_bp_loader;
DROP ROLE regress_fixes_bp_loader;

-- Every row a load writes satisfies its table's constraints: the bulk path
-- checks NOT NULL and CHECK on each row.  A constraint that the rows of a
-- load break (added here by hand) is an ERROR, not a row pg_restore refuses.
BEGIN;
ALTER TABLE fixes_backports ADD CONSTRAINT bp_no_unresolved CHECK (status = 'resolved');
SELECT repository FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');
ROLLBACK;
BEGIN;
ALTER TABLE fixes_releases ALTER COLUMN backports SET NOT NULL;
SELECT repository FROM fixes_load(:'bp', name => 'bp2');
ROLLBACK;
-- the stable rows of fixes_releases: the mainline counters NULL (the CHECK)
SELECT repository, commits FROM fixes_load(:'bp', name => 'bp', stable_branches => 'stable-');
SELECT tag, mainline, fixing_commits, tagged_commits, reverts, backports, known_bugs
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'bp' ORDER BY release_rank;
SELECT conname FROM pg_constraint
 WHERE conrelid = 'fixes_releases'::regclass AND contype = 'c' ORDER BY 1;
SELECT fixes_unload('bp');
DELETE FROM fixes_backport_overrides WHERE repository = 'bp';
DROP VIEW bp_rows;
DROP VIEW bp_affected;

-- A database still at 1.1 SQL, loaded by the 1.2 library: its NOT NULL
-- counters of stable rows get 0 (no subject matches, no method: 1.1 has no
-- column for them); the update to 1.2 makes them NULL, and the CHECKs hold
SET client_min_messages = warning;
DROP EXTENSION fixes CASCADE;
CREATE EXTENSION fixes VERSION '1.1';
RESET client_min_messages;
SELECT repository, commits FROM fixes_load(:'bp', name => 'bp11', stable_branches => 'stable-');
SELECT tag, mainline, fixing_commits, tagged_commits, fixing_earlier_commits, reverts,
       reverted_introduced, backports
  FROM fixes_releases ORDER BY release_rank;
SELECT count(*) AS backport_rows, count(*) FILTER (WHERE line = 0) AS line_0 FROM fixes_backports;
ALTER EXTENSION fixes UPDATE TO '1.2';
SELECT tag, mainline, fixing_commits, tagged_commits, fixing_earlier_commits, reverts,
       reverted_introduced, backports
  FROM fixes_releases ORDER BY release_rank;
SELECT line, status, method FROM fixes_backports ORDER BY commit_idx, line;
-- the next load writes what 1.2 writes
SELECT repository, commits FROM fixes_load(:'bp', name => 'bp11');
SELECT line, status, method FROM fixes_backports ORDER BY commit_idx, line;
SELECT fixes_unload('bp11');
