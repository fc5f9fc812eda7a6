-- files and subsystems (issue 14): fixes_load(files, maintainers) on the
-- fixture files.git and its partial clones (test/fixtures/README.md), the
-- views, and bad input.  Each bad input gives a clear ERROR, or a WARNING
-- where the load can go on, and the previous data stays as it was.
-- test/t/files.sh checks every row against git (test/oracles/files-oracle.py).
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set fx :fixtures

-- what a load left for one name
CREATE TEMP VIEW kept AS
SELECT p.name, p.files, p.maintainers, p.missing_blobs, p.missing_trees,
       (SELECT count(*) FROM fixes_commit_files f WHERE f.repository_id = p.repository_id) AS file_rows,
       (SELECT count(*) FROM fixes_commits c WHERE c.repository_id = p.repository_id AND c.files IS NOT NULL) AS sized_commits,
       (SELECT count(*) FROM fixes_subsystems s WHERE s.repository_id = p.repository_id) AS subsystems,
       (SELECT count(*) FROM fixes_commit_subsystems s WHERE s.repository_id = p.repository_id) AS commit_subsystems
  FROM fixes_repositories p
 ORDER BY p.name;

------------------------------------------------------------------------------
-- the files of every commit, and the subsystems
------------------------------------------------------------------------------
SELECT repository, commits, edges, resolved
  FROM fixes_load(:'fx' || '/files.git', files => true, maintainers => 'MAINTAINERS');
SELECT * FROM kept;

-- one row per file of a non-merge commit: a root commit against the empty
-- tree, binary files without counts, a rename as a deletion and an addition,
-- a mode change as 0/0, a type change, submodules as one line, an invalid
-- UTF-8 byte as U+FFFD
SELECT c.commit_idx, left(c.subject, 40) AS subject, f.path, f.added, f.deleted
  FROM fixes_commits c
  JOIN fixes_repositories r USING (repository_id)
  LEFT JOIN fixes_commit_files f USING (repository_id, commit_idx)
 WHERE r.name = 'files' AND c.commit_idx < 12
 ORDER BY c.commit_idx, f.path COLLATE "C";

-- the sums: NULL for the merge, 0 for the empty commit
SELECT c.commit_idx, left(c.subject, 40) AS subject, cardinality(c.parent_ids) AS parents,
       c.files, c.added, c.deleted
  FROM fixes_commits c JOIN fixes_repositories r USING (repository_id)
 WHERE r.name = 'files'
 ORDER BY c.commit_idx;

-- the sections: no preamble, no block without F:/N:, no block without a name
SELECT subsystem_id, name FROM fixes_subsystems ORDER BY subsystem_id;

-- one commit per matching rule (the subject names the expected sections)
SELECT c.subject,
       array_agg(s.name ORDER BY s.name) AS subsystems
  FROM fixes_commits c
  JOIN fixes_repositories r USING (repository_id)
  JOIN fixes_commit_subsystems cs USING (repository_id, commit_idx)
  JOIN fixes_subsystems s USING (repository_id, subsystem_id)
 WHERE r.name = 'files' AND c.commit_idx < 9
 GROUP BY c.commit_idx, c.subject
 ORDER BY c.commit_idx;

------------------------------------------------------------------------------
-- the views
------------------------------------------------------------------------------
SELECT rank, abbrev, fixes, subject, files, added, deleted, subsystems
  FROM fixes_buggiest_commits WHERE repository = 'files';
SELECT * FROM fixes_per_subsystem WHERE repository = 'files';
SELECT * FROM fixes_per_path_prefix('files');
SELECT * FROM fixes_per_path_prefix('files', 1);
SELECT * FROM fixes_per_path_prefix('no such repository');

------------------------------------------------------------------------------
-- settings: NULL keeps them, a refresh keeps the rows
------------------------------------------------------------------------------
SELECT repository, commits FROM fixes_load(:'fx' || '/files.git');
SELECT * FROM kept;

------------------------------------------------------------------------------
-- bad input: each an ERROR or a WARNING, the previous data intact
------------------------------------------------------------------------------
-- a missing file, a directory, a binary file
SELECT repository FROM fixes_load(:'fx' || '/files.git', maintainers => 'NO-SUCH-FILE');
SELECT repository FROM fixes_load(:'fx' || '/files.git', maintainers => 'maint');
SELECT repository FROM fixes_load(:'fx' || '/files.git', maintainers => 'maint/binary');
SELECT * FROM kept;

-- maintainers without files, on a new repository and on a loaded one
SELECT repository FROM fixes_load(:'fx' || '/files.git', name => 'new', maintainers => 'MAINTAINERS');
SELECT repository FROM fixes_load(:'fx' || '/files.git', files => false);
SELECT * FROM kept;

-- a regex metacharacter in an F: pattern, an N: that does not compile:
-- WARNINGs, and the load goes on
SELECT repository FROM fixes_load(:'fx' || '/files.git', name => 'metachar', files => true,
                                  maintainers => 'maint/metachar');
SELECT repository FROM fixes_load(:'fx' || '/files.git', name => 'bad-regex', files => true,
                                  maintainers => 'maint/bad-regex');
SELECT r.name, s.name AS subsystem, count(cs.commit_idx) AS commits
  FROM fixes_subsystems s
  JOIN fixes_repositories r USING (repository_id)
  LEFT JOIN fixes_commit_subsystems cs USING (repository_id, subsystem_id)
 WHERE r.name IN ('metachar', 'bad-regex')
 GROUP BY r.name, s.name ORDER BY 1, 2;

-- files => false drops the files (with maintainers => '' for the subsystems)
SELECT repository FROM fixes_load(:'fx' || '/files.git', files => false, maintainers => '');
SELECT * FROM kept;

------------------------------------------------------------------------------
-- partial clones: one WARNING with both counts, never an error
------------------------------------------------------------------------------
SELECT repository, commits FROM fixes_load(:'fx' || '/partial.git', files => true, maintainers => 'MAINTAINERS');
SELECT repository, commits FROM fixes_load(:'fx' || '/partial-trees.git', files => true);
SELECT * FROM kept;
SELECT c.commit_idx, f.path, f.added, f.deleted
  FROM fixes_commit_files f
  JOIN fixes_commits c USING (repository_id, commit_idx)
  JOIN fixes_repositories r USING (repository_id)
 WHERE r.name = 'partial' AND (f.added IS NOT NULL OR f.path = 'net/core/sock.c')
 ORDER BY 1, 2;
-- the MAINTAINERS file of a partial clone without it: an error
SELECT repository FROM fixes_load(:'fx' || '/partial-trees.git', files => true, maintainers => 'MAINTAINERS');

DROP VIEW kept;

------------------------------------------------------------------------------
-- files with stable branches (issues 13 and 14 together): the files of the
-- mainline only, and the per-directory counts of the mainline, as a load
-- without stable branches gives them (S05's Fixes: line names a mainline
-- commit: a stable fixing commit counts nowhere)
------------------------------------------------------------------------------
SELECT repository, commits FROM fixes_load(:'fx' || '/stable.git', name => 'st_main', files => true);
SELECT repository, commits FROM fixes_load(:'fx' || '/stable.git', name => 'st_all', files => true,
    stable_branches => '^refs/(heads|remotes/origin)/stable-');
SELECT c.mainline, count(*) AS commits, count(c.files) AS with_sizes,
       count(*) FILTER (WHERE EXISTS (SELECT 1 FROM fixes_commit_files f
                                       WHERE f.repository_id = c.repository_id
                                         AND f.commit_idx = c.commit_idx)) AS with_rows
  FROM fixes_commits c JOIN fixes_repositories r USING (repository_id)
 WHERE r.name = 'st_all'
 GROUP BY c.mainline ORDER BY c.mainline;
SELECT count(*) AS stable_edges_into_mainline
  FROM fixes_edges e
  JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
  JOIN fixes_repositories r ON r.repository_id = e.repository_id
 WHERE r.name = 'st_all' AND NOT c.mainline AND e.status = 'resolved';
SELECT prefix, commits, fixing_commits, buggy_commits, bugs_introduced, bugs_fixed,
       round(median_lifetime_days::numeric, 6) AS median_lifetime_days
  FROM fixes_per_path_prefix('st_all', 1);
(SELECT * FROM fixes_per_path_prefix('st_all', 1) EXCEPT ALL SELECT * FROM fixes_per_path_prefix('st_main', 1))
UNION ALL
(SELECT * FROM fixes_per_path_prefix('st_main', 1) EXCEPT ALL SELECT * FROM fixes_per_path_prefix('st_all', 1));
-- a refresh with both keeps the mainline's file rows and the stable commits
SELECT repository, commits FROM fixes_load(:'fx' || '/stable.git', name => 'st_all',
    stable_branches => '^refs/(heads|remotes/origin)/stable-');
SELECT (SELECT count(*) FROM fixes_commit_files f WHERE f.repository_id = r.repository_id) AS file_rows,
       (SELECT count(*) FROM fixes_commits c
         WHERE c.repository_id = r.repository_id AND NOT c.mainline) AS stable_commits
  FROM fixes_repositories r WHERE r.name = 'st_all';
SELECT fixes_unload('st_main'), fixes_unload('st_all');
