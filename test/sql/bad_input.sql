-- bad input: the fixture repositories of test/fixtures/README.md ("Bad input")
-- through the readers and fixes_load().  Each case gives its rows, a clear
-- ERROR, or a documented NOTICE/WARNING; nothing crashes, and a failed load
-- leaves the tables as they were.  Bad arguments (paths, refs, patterns,
-- names) are in errors.sql.
-- The tables start empty: this test counts what it leaves behind.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
SET timezone = 'UTC';
\pset null '(null)'
\set VERBOSITY verbose
\getenv fixtures FIXES_FIXTURES
\set fx :fixtures

-- the rows a load of one name owns, for checks after a failed load
CREATE TEMP VIEW owned AS
SELECT p.name,
       (SELECT count(*) FROM fixes_commits c WHERE c.repository_id = p.repository_id) AS commit_rows,
       (SELECT count(*) FROM fixes_releases r WHERE r.repository_id = p.repository_id) AS release_rows,
       (SELECT count(*) FROM fixes_edges e WHERE e.repository_id = p.repository_id) AS edge_rows,
       (SELECT coalesce(sum(g.commits), 0) FROM fixes_graph g WHERE g.repository_id = p.repository_id) AS graph_commits
  FROM fixes_repositories p;

------------------------------------------------------------------------------
-- a bare repository and a work tree
------------------------------------------------------------------------------
-- the same history, bare and as a non-bare clone opened by its work tree or
-- by its .git directory
SELECT count(*) FROM fixes_git_commits(:'fx' || '/releases.git');
SELECT count(*) FROM fixes_git_commits(:'fx' || '/worktree');
SELECT count(*) FROM fixes_git_commits(:'fx' || '/worktree/.git');
SELECT count(*) FROM fixes_git_tags(:'fx' || '/worktree');
-- both paths of the work tree have the default name "worktree": the second
-- load is a refresh of the first, and records the path it was given
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/worktree');
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/worktree/.git/');
SELECT name, replace(path, :'fixtures', '$FIXES_FIXTURES') AS path, ref, head_commit, commits FROM fixes_repositories;
-- a directory inside the work tree is not a repository (no search upwards)
SELECT count(*) FROM fixes_git_commits(:'fx' || '/worktree/mm');
-- a linked work tree (git worktree add; its .git is a file) on branch
-- "linked" at B08, the v1.1 release
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/linked');

------------------------------------------------------------------------------
-- an empty repository: no commits, no refs, HEAD -> an unborn branch
------------------------------------------------------------------------------
SELECT count(*) FROM fixes_git_commits(:'fx' || '/empty.git');
-- no tags: no rows (and no NOTICE)
SELECT count(*) FROM fixes_git_tags(:'fx' || '/empty.git');
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/empty.git');
SELECT * FROM owned WHERE name = 'empty';
-- HEAD is special: the unborn branch it names is an unknown ref
SELECT count(*) FROM fixes_git_commits(:'fx' || '/empty.git', 'main');
-- a name loaded from a repository with commits, then from the empty one:
-- the earlier commits are gone, so it is reloaded in full, as 0 commits
SELECT repository, commits FROM fixes_load(:'fx' || '/dup.git', name => 'emptied');
SELECT repository, commits, releases, edges FROM fixes_load(:'fx' || '/empty.git', name => 'emptied');
SELECT * FROM owned WHERE name = 'emptied';

------------------------------------------------------------------------------
-- release patterns at the edges (the invalid ones, and unknown refs, are in
-- errors.sql)
------------------------------------------------------------------------------
-- an empty pattern matches every tag: the pre-releases are releases too, in
-- version order as git's v:refname sorts them (v1.1 before v1.1-rc1), so an
-- rc comes after its release and is left without commits
SELECT repository, releases FROM fixes_load(:'fx' || '/releases.git', release_pattern => '', name => 'all-tags');
SELECT r.release_rank, r.tag, r.commits FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'all-tags' ORDER BY r.release_rank;
-- a pattern that matches no tag: a NOTICE, and every commit unreleased
SELECT repository, commits, releases FROM fixes_load(:'fx' || '/releases.git', release_pattern => '^v9', name => 'no-tags');
SELECT count(*) FILTER (WHERE c.release IS NULL) AS unreleased, count(*) AS commits
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'no-tags';
SELECT count(*) AS fixing_release_set FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'no-tags' AND (e.fixing_release IS NOT NULL OR e.target_release IS NOT NULL);

------------------------------------------------------------------------------
-- shallow clones: what is there is loaded, with a WARNING that counts the
-- parents beyond the boundary
------------------------------------------------------------------------------
-- --depth 3: D07, D06, D05; D05's parent D04 is missing
SELECT count(*) FROM fixes_git_commits(:'fx' || '/shallow.git');
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/shallow.git');
SELECT name, commits, missing_parents FROM fixes_repositories WHERE name = 'shallow';
SELECT left(c.commit_id, 12) AS commit, c.subject, left(c.parent_ids[1], 12) AS parent,
       p2.commit_id IS NOT NULL AS parent_loaded
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN fixes_commits p2 ON p2.repository_id = c.repository_id AND p2.commit_id = c.parent_ids[1]
 WHERE p.name = 'shallow' ORDER BY c.committed_at;
-- every target is beyond the boundary: not_found
SELECT e.abbrev, e.status, e.candidates FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'shallow' ORDER BY e.fixed_at, e.line;
-- a shallow load is never built on: the next load of the name reads it all again
SELECT repository, commits, edges FROM fixes_load(:'fx' || '/shallow.git');
-- --depth 16: the boundary is X and Y, whose one parent C03 is missing: one
-- missing parent commit, named by two parent links; the count (WARNING and
-- missing_parents) is of commits
SELECT repository, commits, releases FROM fixes_load(:'fx' || '/shallow-merge.git');
SELECT name, commits, missing_parents FROM fixes_repositories WHERE name = 'shallow-merge';

------------------------------------------------------------------------------
-- a corrupt object, a missing object, an object that is not what its name says
------------------------------------------------------------------------------
-- a good load of name "victim" up to v2.0 (C11) ...
SELECT repository, commits, releases, edges, resolved
  FROM fixes_load(:'fx' || '/releases.git', 'v2.0', name => 'victim');
-- ... refreshed from the copy whose D04 has a damaged zlib stream: the
-- refresh must read D01..D07, and fails naming D04
SELECT * FROM fixes_load(:'fx' || '/corrupt.git', name => 'victim');
-- the tables still hold the good load
SELECT name, replace(path, :'fixtures', '$FIXES_FIXTURES') AS path, ref, head_commit, commits, releases, edges, resolved FROM fixes_repositories WHERE name = 'victim';
SELECT * FROM owned WHERE name = 'victim';
-- a first load of the corrupt copy fails the same way and leaves nothing
SELECT * FROM fixes_load(:'fx' || '/corrupt.git');
SELECT count(*) AS corrupt_rows FROM fixes_repositories WHERE name = 'corrupt';
SELECT count(*) FROM fixes_git_commits(:'fx' || '/corrupt.git');
-- only what is read is checked: below D04 the copy is sound
SELECT count(*) FROM fixes_git_commits(:'fx' || '/corrupt.git', 'v2.0');
-- and a refresh reads only new commits: after a full good load, a refresh
-- from the corrupt copy reads no commit and changes nothing
SELECT repository, commits, edges FROM fixes_load(:'fx' || '/releases.git', name => 'refreshed');
SELECT repository, commits, edges FROM fixes_load(:'fx' || '/corrupt.git', name => 'refreshed');
SELECT * FROM owned WHERE name = 'refreshed';
-- D04's loose object cut in half: libgit2 1.5 would loop for ever inflating
-- it, so every loose object is inflated and checked first
SELECT count(*) FROM fixes_git_commits(:'fx' || '/truncated.git');
SELECT * FROM fixes_load(:'fx' || '/truncated.git');
-- D04's header claims half its length: libgit2 1.5 would write past its buffer
SELECT * FROM fixes_load(:'fx' || '/undersize.git');
SELECT count(*) AS broken_rows FROM fixes_repositories WHERE name IN ('truncated', 'undersize');
-- D04's object deleted: the ERROR names it
SELECT count(*) FROM fixes_git_commits(:'fx' || '/missing.git');
SELECT * FROM fixes_load(:'fx' || '/missing.git');
SELECT count(*) AS missing_rows FROM fixes_repositories WHERE name = 'missing';
-- D04's file holds another, valid commit: object ids are not re-hashed on
-- reading (libgit2's strict hash verification is off, as git log does not
-- verify either), so it is loaded under the name it was found by
SELECT repository, commits, edges, resolved FROM fixes_load(:'fx' || '/badhash.git');
SELECT c.commit_id, c.subject FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'badhash' AND c.commit_id LIKE '3de794da%';

------------------------------------------------------------------------------
-- large messages: 5 MiB, and 10,000 Fixes lines
------------------------------------------------------------------------------
SELECT left(commit_id, 12) AS commit, octet_length(message) AS bytes, subject
  FROM fixes_git_commits(:'fx' || '/large.git');
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/large.git');
SELECT left(c.commit_id, 12) AS commit, octet_length(c.message) AS bytes,
       md5(c.message) = md5(g.message) AS same_as_reader, c.subject
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
  JOIN fixes_git_commits(:'fx' || '/large.git') g USING (commit_id)
 WHERE p.name = 'large' ORDER BY c.committed_at;
-- the Fixes line at the very end of the 5 MiB message
SELECT e.line, e.abbrev, e.status, e.method, left(e.target_commit, 12) AS target
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'large' AND e.fixing_commit LIKE '0d46dae41fd3%';
-- all 10,000 lines of L3 are edges, one per line 3..10002
SELECT count(*) AS edges, count(DISTINCT e.line) AS lines, min(e.line), max(e.line)
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'large' AND e.fixing_commit LIKE 'bdb527e33dd1%';
SELECT e.status, e.method, left(e.target_commit, 12) AS target, count(*)
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'large' AND e.fixing_commit LIKE 'bdb527e33dd1%'
 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT count(*) AS parsed FROM fixes_commits c JOIN fixes_repositories p USING (repository_id),
       fixes_parse_fixes(c.message) f
 WHERE p.name = 'large' AND c.commit_id LIKE 'bdb527e33dd1%';

------------------------------------------------------------------------------
-- encodings, through the loader (basic.git b04: ISO-8859-1 declared; b05:
-- latin-1 bytes without a header, each bad byte replaced, one NOTICE)
------------------------------------------------------------------------------
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'fx' || '/basic.git');
SELECT left(c.commit_id, 12) AS commit, c.author_name, c.committer_name, c.subject,
       position('Änderung' IN c.message) > 0 AS body_converted
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'basic' AND left(c.commit_id, 12) IN ('70ba1e474899', '7557be13145d')
 ORDER BY c.committed_at;

------------------------------------------------------------------------------
-- tags of trees, blobs and tags (basic.git): the first two are no releases,
-- a tag of a tag is peeled to its commit
------------------------------------------------------------------------------
SELECT r.release_rank, r.tag, left(r.commit_id, 12) AS commit, r.annotated, r.released_at, r.commits
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'basic' ORDER BY release_rank;
SELECT release, count(*) FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'basic' GROUP BY 1 ORDER BY 1;

------------------------------------------------------------------------------
-- dates before 1970 and beyond 2038, odd time zones, bad dates
------------------------------------------------------------------------------
-- b03 of basic.git: 1969
SELECT c.subject, c.authored_at, c.committed_at
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'basic' AND left(c.commit_id, 12) = '6b09c2006361';
-- dates.git: the zone does not change the instant (d05..d11 are one
-- instant); beyond what timestamptz holds is NULL; a date that overflows
-- 64 bits, is not a number or is absent is NULL too (git log shows no date
-- for the last two)
SELECT repository, commits FROM fixes_load(:'fx' || '/dates.git');
SELECT c.subject, c.authored_at, extract(epoch FROM c.authored_at) AS epoch, c.committed_at
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'dates' ORDER BY c.committed_at;
-- the reader gives the same
SELECT count(*) AS differ FROM (
    SELECT commit_id, authored_at, committed_at FROM fixes_git_commits(:'fx' || '/dates.git')
    EXCEPT
    SELECT c.commit_id, c.authored_at, c.committed_at
      FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'dates') d;

------------------------------------------------------------------------------
-- a tag and a branch with the same name: like git (refs/tags/ before
-- refs/heads/), libgit2 resolves "dup" to the tag, u3, and does not warn
------------------------------------------------------------------------------
SELECT ref, (SELECT subject FROM fixes_git_commits(:'fx' || '/dup.git', ref) LIMIT 1) AS newest
  FROM unnest(ARRAY['dup', 'tags/dup', 'refs/tags/dup', 'heads/dup', 'refs/heads/dup', 'HEAD']) AS ref;
SELECT tag, left(commit_id, 12) AS commit, annotated FROM fixes_git_tags(:'fx' || '/dup.git');
SELECT repository, commits, releases FROM fixes_load(:'fx' || '/dup.git', 'dup', name => 'dup-tag');
SELECT name, ref, left(head_commit, 12) AS head FROM fixes_repositories WHERE name = 'dup-tag';

------------------------------------------------------------------------------
-- what is left: one row per successful load, every table consistent
------------------------------------------------------------------------------
SELECT p.name, p.commits, p.releases, p.edges, o.commit_rows, o.release_rows, o.edge_rows, o.graph_commits
  FROM fixes_repositories p JOIN owned o USING (name) ORDER BY p.name;
