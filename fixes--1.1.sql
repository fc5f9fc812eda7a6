/* fixes--1.1.sql — install script of the fixes extension, version 1.1 */

-- A fresh install of 1.1.  A database of 1.0 gets the same objects from
-- fixes--1.0--1.1.sql (ALTER EXTENSION fixes UPDATE); test/t/upgrade.sh
-- checks that both give the same catalog.  A change here needs the same
-- change there, and a column added to a table goes at its end, where
-- ALTER TABLE ... ADD COLUMN puts it.

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION fixes" to load this file. \quit

------------------------------------------------------------------------------
-- Readers: set-returning functions over a git repository on the server.
-- Reading server files is a privilege (the rule of COPY FROM a file): EXECUTE
-- is revoked from PUBLIC and granted to pg_read_server_files, and the C code
-- checks the role again, so a stray GRANT cannot widen it.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.fixes_git_commits(
    path text,
    ref text DEFAULT 'HEAD',
    OUT commit_id text,
    OUT parent_ids text[],
    OUT author_name text,
    OUT author_email text,
    OUT authored_at timestamptz,
    OUT committer_name text,
    OUT committer_email text,
    OUT committed_at timestamptz,
    OUT subject text,
    OUT message text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_git_commits'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.fixes_git_commits(text, text) IS
'one row per commit reachable from ref in the git repository at path (newest first)';

CREATE FUNCTION @extschema@.fixes_git_tags(
    path text,
    OUT tag text,
    OUT commit_id text,
    OUT annotated boolean,
    OUT tagged_at timestamptz,
    OUT tagger text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_git_tags'
LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.fixes_git_tags(text) IS
'one row per tag of the repository at path whose target peels to a commit, in version order';

CREATE FUNCTION @extschema@.fixes_parse_fixes(
    message text,
    OUT line integer,
    OUT abbrev text,
    OUT quoted_subject text,
    OUT raw text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_parse_fixes'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.fixes_parse_fixes(text) IS
'one row per Fixes: trailer line of a commit message';

REVOKE ALL ON FUNCTION @extschema@.fixes_git_commits(text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION @extschema@.fixes_git_tags(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_git_commits(text, text) TO pg_read_server_files;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_git_tags(text) TO pg_read_server_files;

------------------------------------------------------------------------------
-- Tables filled by fixes_load().  Every row carries the repository id, so
-- several repositories live side by side; commit_idx is a compact per-
-- repository surrogate for joins, commit_id the full hex id for people.
------------------------------------------------------------------------------

CREATE TABLE @extschema@.fixes_repositories (
    repository_id   integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name            text NOT NULL UNIQUE,
    path            text NOT NULL,
    ref             text NOT NULL,
    release_pattern text,
    head_commit     text COLLATE "C",
    loaded_at       timestamptz NOT NULL,
    load_seconds    double precision,
    commits         bigint NOT NULL DEFAULT 0,
    releases        integer NOT NULL DEFAULT 0,
    edges           bigint NOT NULL DEFAULT 0,
    resolved        bigint NOT NULL DEFAULT 0,
    missing_parents bigint NOT NULL DEFAULT 0,
    tags_hash       bigint
);

COMMENT ON TABLE @extschema@.fixes_repositories IS
'one row per repository loaded by fixes_load()';

CREATE TABLE @extschema@.fixes_commits (
    repository_id   integer NOT NULL,
    commit_idx      integer NOT NULL,
    authored_at     timestamptz,
    committed_at    timestamptz,
    commit_id       text COLLATE "C" NOT NULL,
    parent_ids      text[] COLLATE "C" NOT NULL,
    author_name     text NOT NULL,
    author_email    text NOT NULL,
    committer_name  text NOT NULL,
    committer_email text NOT NULL,
    release         text,
    subject         text NOT NULL,
    message         text NOT NULL,
    PRIMARY KEY (repository_id, commit_idx)
);

COMMENT ON TABLE @extschema@.fixes_commits IS
'the commits reachable from the loaded ref; release is the first release that contains the commit (NULL: unreleased)';

-- Look-ups by commit id, which is what people have in hand (from git log, a
-- Fixes: line, a bug tracker).  Over commit_id alone, not (repository_id,
-- commit_id): a query by id usually does not know the repository, and an id
-- is as good as unique across repositories, so the repository is a cheap
-- filter after the probe.  The column has collation "C", so the same btree
-- serves LIKE 'e126ba97%' prefixes.
CREATE INDEX fixes_commits_commit_id_idx
    ON @extschema@.fixes_commits (commit_id);

COMMENT ON INDEX @extschema@.fixes_commits_commit_id_idx IS
'look-ups of commits by full id or id prefix (LIKE ''abc%'')';

CREATE TABLE @extschema@.fixes_releases (
    repository_id   integer NOT NULL,
    release_rank    integer NOT NULL,
    tag             text NOT NULL,
    commit_idx      integer NOT NULL,
    commit_id       text COLLATE "C" NOT NULL,
    annotated       boolean NOT NULL,
    released_at     timestamptz,
    commits         bigint NOT NULL,
    fixing_commits  bigint NOT NULL,
    bugs_fixed      bigint NOT NULL,
    commits_fixed   bigint NOT NULL,
    bugs_introduced bigint NOT NULL,
    buggy_commits_introduced bigint NOT NULL,
    fixed_same_release bigint NOT NULL,
    PRIMARY KEY (repository_id, release_rank),
    UNIQUE (repository_id, tag)
);

COMMENT ON TABLE @extschema@.fixes_releases IS
'the release tags of each repository in version order (release_rank 1 = oldest), with the counts of fixes_per_release, computed by fixes_load()';

CREATE TABLE @extschema@.fixes_edges (
    repository_id   integer NOT NULL,
    fixing_idx      integer NOT NULL,
    line            integer NOT NULL,
    target_idx      integer,
    status          text NOT NULL
                    CHECK (status IN ('resolved', 'ambiguous', 'not_found')),
    method          text
                    CHECK (method IN ('hash', 'hash+subject', 'subject')),
    candidates      integer NOT NULL,
    fixed_at        timestamptz,
    fixing_release  text,
    target_release  text,
    fixing_commit   text COLLATE "C" NOT NULL,
    target_commit   text COLLATE "C",
    abbrev          text COLLATE "C" NOT NULL,
    quoted_subject  text,
    raw             text NOT NULL,
    PRIMARY KEY (repository_id, fixing_idx, line),
    CHECK ((status = 'resolved') = (target_idx IS NOT NULL)),
    CHECK ((status = 'resolved') = (method IS NOT NULL))
);

-- the edges of a commit, by id: the fixes it made and the fixes it received
-- (over the id alone, as fixes_commits_commit_id_idx)
CREATE INDEX fixes_edges_fixing_commit_idx
    ON @extschema@.fixes_edges (fixing_commit);
CREATE INDEX fixes_edges_target_commit_idx
    ON @extschema@.fixes_edges (target_commit);

COMMENT ON INDEX @extschema@.fixes_edges_fixing_commit_idx IS
'look-ups of the Fixes edges a commit made, by its id';
COMMENT ON INDEX @extschema@.fixes_edges_target_commit_idx IS
'look-ups of the Fixes edges that point at a commit, by its id';


-- One row per commit that resolved edges point at: the ranking behind
-- fixes_buggiest_commits, kept by fixes_load() so that its top rows come from
-- an index instead of aggregating every edge.
CREATE TABLE @extschema@.fixes_fixed_commits (
    repository_id   integer NOT NULL,
    commit_idx      integer NOT NULL,
    commit_id       text COLLATE "C" NOT NULL,
    fixes           bigint NOT NULL,
    first_fixed_at  timestamptz,
    last_fixed_at   timestamptz,
    PRIMARY KEY (repository_id, commit_idx)
);

CREATE INDEX fixes_fixed_commits_rank_idx
    ON @extschema@.fixes_fixed_commits (repository_id, fixes DESC, first_fixed_at, commit_id);

COMMENT ON TABLE @extschema@.fixes_fixed_commits IS
'per commit that resolved Fixes edges point at: how many, the first and the last fix';

COMMENT ON TABLE @extschema@.fixes_edges IS
'one row per Fixes: line of a commit in scope, resolved or not';

-- The commit graph of each repository's last load, kept so that the next
-- fixes_load() of the same name reads only new commits (see src/load_graph.c).
-- Binary, in the server's byte order; not meant to be read by people.
CREATE TABLE @extschema@.fixes_graph (
    repository_id   integer NOT NULL,
    chunk           integer NOT NULL,
    format          integer NOT NULL,
    commits         integer NOT NULL,
    ids             bytea NOT NULL,
    subject_hashes  bytea NOT NULL,
    parent_counts   bytea NOT NULL,
    parents         bytea NOT NULL,
    PRIMARY KEY (repository_id, chunk)
);

-- ids and hashes do not compress: store them out of line without trying
ALTER TABLE @extschema@.fixes_graph
    ALTER COLUMN ids SET STORAGE EXTERNAL,
    ALTER COLUMN subject_hashes SET STORAGE EXTERNAL,
    ALTER COLUMN parent_counts SET STORAGE EXTERNAL,
    ALTER COLUMN parents SET STORAGE EXTERNAL;

COMMENT ON TABLE @extschema@.fixes_graph IS
'internal: the commit graph of each loaded repository, for incremental refresh';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_repositories', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_graph', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_commits', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_releases', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_edges', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_fixed_commits', '');
-- the identity of fixes_repositories: restored with its value, or the first
-- repository loaded after a restore would get an id that is taken
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_repositories_repository_id_seq', '');

------------------------------------------------------------------------------
-- The loader.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.fixes_load(
    path text,
    ref text DEFAULT 'HEAD',
    release_pattern text DEFAULT NULL,
    name text DEFAULT NULL,
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

COMMENT ON FUNCTION @extschema@.fixes_load(text, text, text, text) IS
'read the repository at path into the fixes_* tables (replacing an earlier load of the same name)';

REVOKE ALL ON FUNCTION @extschema@.fixes_load(text, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_load(text, text, text, text) TO pg_read_server_files;

-- fixes_load() takes an advisory lock on the repository's name (class
-- "fixe" = 1718188133, the hash of the name) before it touches the
-- repository's rows; so does fixes_unload().  Like fixes_load, it finds the
-- extension's schema when it runs (so ALTER SCHEMA ... RENAME is harmless),
-- and it deletes as the caller: whoever may DELETE from the tables may call
-- it.
CREATE FUNCTION @extschema@.fixes_unload(name text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'fixes_unload'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.fixes_unload(text) IS
'remove every row of the repository loaded under this name; false if there is none';

------------------------------------------------------------------------------
-- Views.
------------------------------------------------------------------------------

CREATE VIEW @extschema@.fixes_per_release AS
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
       r.fixed_same_release
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 ORDER BY p.name, r.release_rank;

COMMENT ON VIEW @extschema@.fixes_per_release IS
'per release: commits, and the resolved Fixes edges that fixed earlier releases or were introduced by this one (computed by fixes_load, stored in fixes_releases)';

CREATE VIEW @extschema@.fixes_buggiest_commits AS
SELECT p.name AS repository,
       t.rank,
       t.commit_id,
       pg_catalog.left(t.commit_id, 12) AS abbrev,
       t.fixes,
       c.subject,
       c.release,
       c.author_name AS author,
       c.authored_at,
       t.first_fixed_at,
       t.last_fixed_at
  FROM (SELECT f.*, rank() OVER (PARTITION BY f.repository_id ORDER BY f.fixes DESC) AS rank
          FROM @extschema@.fixes_fixed_commits f) t
  JOIN @extschema@.fixes_commits c
    ON c.repository_id = t.repository_id AND c.commit_idx = t.commit_idx
  JOIN @extschema@.fixes_repositories p ON p.repository_id = t.repository_id
 ORDER BY t.repository_id, t.fixes DESC, t.first_fixed_at, t.commit_id;

COMMENT ON VIEW @extschema@.fixes_buggiest_commits IS
'commits ranked by the number of resolved Fixes edges pointing at them: per repository, most-fixed first';

CREATE VIEW @extschema@.fixes_unresolved AS
SELECT p.name AS repository,
       e.fixing_commit,
       c.subject AS fixing_subject,
       c.committed_at AS fixed_at,
       e.line,
       e.abbrev,
       e.quoted_subject,
       e.status,
       e.candidates,
       e.raw
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_commits c
    ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
  JOIN @extschema@.fixes_repositories p ON p.repository_id = e.repository_id
 WHERE e.status <> 'resolved'
 ORDER BY p.name, c.committed_at DESC, e.fixing_commit, e.line;

COMMENT ON VIEW @extschema@.fixes_unresolved IS
'the Fixes edges that are ambiguous or not found, with the fixing commit';

-- ---- issue 13: stable branches ----
-- fixes_load() reads, besides the mainline (the commits reachable from ref),
-- the stable scope: the commits reachable from the branches and remote-
-- tracking branches that stable_branches matches and not from ref.  Every
-- mainline answer (fixes_per_release, fixes_buggiest_commits,
-- fixes_unresolved) counts the mainline only, with or without stable
-- branches.  See "## Stable branches" in README.md.

ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN stable_branches text;

COMMENT ON COLUMN @extschema@.fixes_repositories.stable_branches IS
'the stable_branches expression of the last load (NULL: none)';

ALTER TABLE @extschema@.fixes_commits
    ADD COLUMN mainline boolean NOT NULL DEFAULT true;

COMMENT ON COLUMN @extschema@.fixes_commits.mainline IS
'reachable from the loaded ref (false: only from a stable branch)';

-- The counters of fixes_per_release are the mainline's: NULL for a stable
-- release, whose counters (commits, backports, bugs_fixed and the two
-- below) are those of fixes_per_stable_release.
ALTER TABLE @extschema@.fixes_releases
    ADD COLUMN mainline boolean NOT NULL DEFAULT true,
    ADD COLUMN series text,
    ADD COLUMN backports bigint,
    ADD COLUMN regressions_introduced bigint,
    ADD COLUMN known_bugs bigint,
    ALTER COLUMN fixing_commits DROP NOT NULL,
    ALTER COLUMN commits_fixed DROP NOT NULL,
    ALTER COLUMN bugs_introduced DROP NOT NULL,
    ALTER COLUMN buggy_commits_introduced DROP NOT NULL,
    ALTER COLUMN fixed_same_release DROP NOT NULL;

COMMENT ON COLUMN @extschema@.fixes_releases.mainline IS
'the release''s commit is mainline (false: a stable release)';
COMMENT ON COLUMN @extschema@.fixes_releases.series IS
'a mainline release: itself; a stable release: the newest mainline release, in version order, whose commit is an ancestor of its commit (NULL: none)';

CREATE TABLE @extschema@.fixes_backports (
    repository_id   integer NOT NULL,
    commit_idx      integer NOT NULL,
    line            integer NOT NULL,
    upstream_idx    integer,
    status          text NOT NULL
                    CHECK (status IN ('resolved', 'ambiguous', 'not_found')),
    abbrev          text COLLATE "C" NOT NULL,
    raw             text NOT NULL,
    PRIMARY KEY (repository_id, commit_idx, line),
    CHECK ((status = 'resolved') = (upstream_idx IS NOT NULL))
);

CREATE INDEX fixes_backports_upstream_idx
    ON @extschema@.fixes_backports (repository_id, upstream_idx);

COMMENT ON TABLE @extschema@.fixes_backports IS
'one row per backport line (commit <id> upstream, [ Upstream commit <id> ], (cherry picked from commit <id>)) of a stable commit, resolved against the mainline';
COMMENT ON INDEX @extschema@.fixes_backports_upstream_idx IS
'the backports of a mainline commit';

-- The series rows of fixes_affected, computed by fixes_load() (its mainline
-- rows come from fixes_edges).  Narrow on purpose, indexes and ranks only,
-- and one row per pair with an array element per series that shipped the
-- bug: a kernel-sized history has millions of series rows, and writing each
-- as a row with its index entry cost a stable load more than 10%; the view
-- unnests them.  A pair has one row per pass of fixes_load() over the
-- series (one pass unless a repository has hundreds of series).
CREATE TABLE @extschema@.fixes_affected_series (
    repository_id     integer NOT NULL,
    fixing_idx        integer NOT NULL,
    target_idx        integer NOT NULL,
    series_ranks      integer[] NOT NULL,
    introduced_ranks  integer[] NOT NULL,
    fixed_ranks       integer[] NOT NULL,
    fix_backport_idxs integer[] NOT NULL
);

CREATE INDEX fixes_affected_series_pair_idx
    ON @extschema@.fixes_affected_series (repository_id, fixing_idx, target_idx);

COMMENT ON TABLE @extschema@.fixes_affected_series IS
'per resolved mainline Fixes pair, the stable series that shipped the bug (series_ranks), and in each the release ranks where it came in and where the fix landed, and the commit index of that fix (NULL elements: not fixed there yet); fixes_affected unnests them';
COMMENT ON INDEX @extschema@.fixes_affected_series_pair_idx IS
'the series rows of a pair';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_backports', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_affected_series', '');

CREATE FUNCTION @extschema@.fixes_parse_backports(
    message text,
    OUT line integer,
    OUT abbrev text,
    OUT raw text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_parse_backports'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.fixes_parse_backports(text) IS
'one row per line of a commit message that names the upstream commit of a backport';

-- fixes_load() gains stable_branches: its 7-argument definition (with files
-- and maintainers) is in the issue-14 block below.

-- fixes_per_release and fixes_unresolved count the mainline only: their
-- definitions of 1.1 come with issue 16 below.

-- fixes_affected is defined with issue 16 below: its mainline rows leave out
-- revert edges (fixes_edges.kind).

CREATE VIEW @extschema@.fixes_per_stable_release AS
SELECT p.name AS repository,
       r.series,
       r.tag AS release,
       r.released_at,
       r.commits,
       r.backports,
       r.bugs_fixed,
       r.regressions_introduced,
       r.known_bugs
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 WHERE NOT r.mainline
 ORDER BY p.name, r.series, r.release_rank;

COMMENT ON VIEW @extschema@.fixes_per_stable_release IS
'per stable release: its commits, those with a resolved backport line, and the series rows of fixes_affected fixed in it, introduced in it and still shipped by it';
-- ---- end of issue 13 ----


-- ---- issue 14: files and subsystems ----
-- What each commit changed (fixes_load(files => true)), the subsystems of
-- the project's MAINTAINERS file (fixes_load(maintainers => 'MAINTAINERS')),
-- and the per-subsystem and per-directory answers.  The same block ends
-- fixes--1.1.sql and fixes--1.0--1.1.sql.

-- the settings of each repository, kept for the next load (NULL keeps them),
-- and what the last load found missing in a partial clone
ALTER TABLE @extschema@.fixes_repositories
    ADD COLUMN files boolean NOT NULL DEFAULT false,
    ADD COLUMN maintainers text,
    ADD COLUMN maintainers_hash bigint,
    ADD COLUMN missing_blobs bigint NOT NULL DEFAULT 0,
    ADD COLUMN missing_trees bigint NOT NULL DEFAULT 0;

-- sums over the commit's rows of fixes_commit_files: NULL for a merge, for a
-- commit whose tree is missing, and when files are not recorded
ALTER TABLE @extschema@.fixes_commits
    ADD COLUMN files integer,
    ADD COLUMN added bigint,
    ADD COLUMN deleted bigint;

-- one row per file a non-merge commit changed, as `git log --numstat
-- --no-renames` prints it; added and deleted are NULL for a binary file and
-- for a file whose content is missing from a partial clone
CREATE TABLE @extschema@.fixes_commit_files (
    repository_id   integer NOT NULL,
    commit_idx      integer NOT NULL,
    path            text NOT NULL,
    added           integer,
    deleted         integer
);

CREATE INDEX fixes_commit_files_commit_idx
    ON @extschema@.fixes_commit_files (repository_id, commit_idx);

COMMENT ON TABLE @extschema@.fixes_commit_files IS
'the files each non-merge commit changed, with the lines added and deleted (NULL: binary, or missing from a partial clone); recorded by fixes_load(files => true)';

CREATE TABLE @extschema@.fixes_subsystems (
    repository_id   integer NOT NULL,
    subsystem_id    integer NOT NULL,
    name            text NOT NULL,
    PRIMARY KEY (repository_id, subsystem_id)
);

COMMENT ON TABLE @extschema@.fixes_subsystems IS
'the sections of the repository''s MAINTAINERS file that have F: or N: patterns';

CREATE TABLE @extschema@.fixes_commit_subsystems (
    repository_id   integer NOT NULL,
    commit_idx      integer NOT NULL,
    subsystem_id    integer NOT NULL,
    PRIMARY KEY (repository_id, commit_idx, subsystem_id)
);

CREATE INDEX fixes_commit_subsystems_subsystem_idx
    ON @extschema@.fixes_commit_subsystems (repository_id, subsystem_id);

COMMENT ON TABLE @extschema@.fixes_commit_subsystems IS
'the subsystems of each commit: the union of the sections its files belong to, as get_maintainer.pl matches them';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_commit_files', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_subsystems', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_commit_subsystems', '');

-- fixes_load gains stable_branches (issue 13), files and maintainers: the
-- 4-argument function goes, with what was granted on it
DROP FUNCTION @extschema@.fixes_load(text, text, text, text);

CREATE FUNCTION @extschema@.fixes_load(
    path text,
    ref text DEFAULT 'HEAD',
    release_pattern text DEFAULT NULL,
    name text DEFAULT NULL,
    stable_branches text DEFAULT NULL,
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
'read the repository at path into the fixes_* tables (replacing an earlier load of the same name); stable_branches: a regular expression over full branch ref names whose commits not on ref form the stable scope; files => true records the changed files of each commit, maintainers names the MAINTAINERS file of the ref''s tree (NULL keeps the current setting)';

REVOKE ALL ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.fixes_load(text, text, text, text, text, boolean, text) TO pg_read_server_files;

CREATE OR REPLACE VIEW @extschema@.fixes_buggiest_commits AS
SELECT p.name AS repository,
       t.rank,
       t.commit_id,
       pg_catalog.left(t.commit_id, 12) AS abbrev,
       t.fixes,
       c.subject,
       c.release,
       c.author_name AS author,
       c.authored_at,
       t.first_fixed_at,
       t.last_fixed_at,
       c.files,
       c.added,
       c.deleted,
       ARRAY(SELECT s.name
               FROM @extschema@.fixes_commit_subsystems cs
               JOIN @extschema@.fixes_subsystems s
                 ON s.repository_id = cs.repository_id AND s.subsystem_id = cs.subsystem_id
              WHERE cs.repository_id = t.repository_id AND cs.commit_idx = t.commit_idx
              ORDER BY s.name) AS subsystems
  FROM (SELECT f.*, rank() OVER (PARTITION BY f.repository_id ORDER BY f.fixes DESC) AS rank
          FROM @extschema@.fixes_fixed_commits f) t
  JOIN @extschema@.fixes_commits c
    ON c.repository_id = t.repository_id AND c.commit_idx = t.commit_idx
  JOIN @extschema@.fixes_repositories p ON p.repository_id = t.repository_id
 ORDER BY t.repository_id, t.fixes DESC, t.first_fixed_at, t.commit_id;

-- fixes_per_subsystem and fixes_per_path_prefix: at the end, where the
-- answers they read are stored.

-- ---- end of issue 14 ----

-- ---- issue 16: trailers, reverts, lifetimes, overrides ----
-- The same block ends fixes--1.1.sql and fixes--1.0--1.1.sql, so that a
-- fresh 1.1 and an updated 1.0 have the same objects, column order
-- included.  A 1.1 library loading a database still at 1.0 writes none of
-- this (src/load_schema.c).

-- Revert edges: "This reverts commit <id>" is an edge of kind 'revert'.
-- Rows of 1.0 are Fixes: lines ('fixes').  introduced_at is the committer
-- date of the target (NULL unless resolved), for fixes_bug_lifetimes.
-- fixes_overrides adds a status ('ignored') and a method ('override').
ALTER TABLE @extschema@.fixes_edges
    ADD COLUMN kind text NOT NULL DEFAULT 'fixes'
        CONSTRAINT fixes_edges_kind_check CHECK (kind IN ('fixes', 'revert')),
    ADD COLUMN introduced_at timestamptz,
    DROP CONSTRAINT fixes_edges_status_check,
    ADD CONSTRAINT fixes_edges_status_check
        CHECK (status IN ('resolved', 'ambiguous', 'not_found', 'ignored')),
    DROP CONSTRAINT fixes_edges_method_check,
    ADD CONSTRAINT fixes_edges_method_check
        CHECK (method IN ('hash', 'hash+subject', 'subject', 'override'));

COMMENT ON TABLE @extschema@.fixes_edges IS
'one row per Fixes: line (kind fixes) and revert line (kind revert) of a commit in scope, resolved or not';

-- The counts of fixes_per_release that 1.1 adds, and the lifetimes of
-- fixes_lifetime_per_release (src/load_lifetimes.c), computed by fixes_load().
-- A database updated from 1.0 holds zeros here until its next load, which
-- reads each repository in full (the update resets tags_hash).
ALTER TABLE @extschema@.fixes_releases
    ADD COLUMN tagged_commits bigint NOT NULL DEFAULT 0,
    ADD COLUMN fixing_earlier_commits bigint NOT NULL DEFAULT 0,
    ADD COLUMN reverts bigint NOT NULL DEFAULT 0,
    ADD COLUMN reverted_introduced bigint NOT NULL DEFAULT 0,
    ADD COLUMN fixed_median_days double precision,
    ADD COLUMN fixed_p90_days double precision,
    ADD COLUMN introduced_median_days double precision;

-- git's trailers of each commit, exactly as
-- git log --format='%(trailers:only,unfold)' prints them, in order.  No
-- index: a million commits have millions of trailers, and an index of them
-- would cost a cold load more than the trailers themselves; the queries
-- that matter (per key, per release) read them all.  Who looks up the
-- trailers of single commits adds one:
-- CREATE INDEX ON fixes_trailers (repository_id, commit_idx).
CREATE TABLE @extschema@.fixes_trailers (
    repository_id   integer NOT NULL,
    commit_idx      integer NOT NULL,
    position        integer NOT NULL,
    key             text NOT NULL,
    value           text NOT NULL
);

COMMENT ON TABLE @extschema@.fixes_trailers IS
'the trailers of each commit as git log --format=''%(trailers:only,unfold)'' prints them: key as written, value unfolded and trimmed';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_trailers', '');

-- Per release (by tag) and trailer key (lower-cased): the counts behind
-- fixes_trailers_per_release, kept by fixes_load() so that the view reads a
-- few rows instead of every trailer and every commit.  Keys are unique by
-- their md5: a key can be longer than a btree entry can hold.
CREATE TABLE @extschema@.fixes_release_trailers (
    repository_id   integer NOT NULL,
    tag             text NOT NULL,
    key             text NOT NULL,
    commits         bigint NOT NULL,
    fixing_commits  bigint NOT NULL
);

CREATE UNIQUE INDEX fixes_release_trailers_key_idx
    ON @extschema@.fixes_release_trailers (repository_id, tag, pg_catalog.md5(key));

COMMENT ON TABLE @extschema@.fixes_release_trailers IS
'per release tag and lower-cased trailer key: the commits of the release with such a trailer, and those of them with a resolved Fixes edge (computed by fixes_load)';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_release_trailers', '');

-- Internal, like fixes_graph: the distinct trailer keys (lower-cased) of
-- each commit, as ids into a dictionary, so that a refresh finds the keys
-- of the old commits whose release changed without reading fixes_trailers
-- (src/load_trailer_keys.c).  One row per 65536 commits (chunk >= 0:
-- per commit a count, and the ids, in binary), and the dictionary (chunk -1:
-- keys, in id order).
CREATE TABLE @extschema@.fixes_trailer_keys (
    repository_id   integer NOT NULL,
    chunk           integer NOT NULL,
    format          integer NOT NULL,
    commits         integer NOT NULL,
    counts          bytea,
    ids             bytea,
    keys            text[],
    PRIMARY KEY (repository_id, chunk)
);

COMMENT ON TABLE @extschema@.fixes_trailer_keys IS
'internal: the distinct trailer keys of each loaded commit, for the refresh of fixes_release_trailers';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_trailer_keys', '');

-- Corrections of Fixes: and revert lines, written by users and applied by
-- every fixes_load() of the repository of that name: a target makes the
-- edges of fixing_commit written as abbrev resolved by method 'override'; a
-- NULL target makes them 'ignored'.  pg_dump keeps the rows; fixes_unload()
-- leaves them.
CREATE TABLE @extschema@.fixes_overrides (
    repository      text NOT NULL,
    fixing_commit   text COLLATE "C" NOT NULL
                    CHECK (fixing_commit ~ '^[0-9a-f]{40}$'),
    abbrev          text COLLATE "C" NOT NULL
                    CHECK (abbrev ~ '^[0-9a-f]{6,40}$'),
    target_commit   text COLLATE "C"
                    CHECK (target_commit ~ '^[0-9a-f]{40}$'),
    note            text,
    PRIMARY KEY (repository, fixing_commit, abbrev)
);

COMMENT ON TABLE @extschema@.fixes_overrides IS
'corrections of Fixes: and revert lines, applied by every fixes_load of the repository (by name): a target commit resolves the line by method override, NULL ignores it';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_overrides', '');

-- fixes_parse_fixes() with the revert lines and their kind: a new result
-- type, so the function is dropped and created again
DROP FUNCTION @extschema@.fixes_parse_fixes(text);

CREATE FUNCTION @extschema@.fixes_parse_fixes(
    message text,
    OUT line integer,
    OUT abbrev text,
    OUT quoted_subject text,
    OUT raw text,
    OUT kind text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_parse_fixes_v11'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.fixes_parse_fixes(text) IS
'one row per Fixes: line (kind fixes) and revert line (kind revert) of a commit message';

CREATE FUNCTION @extschema@.fixes_parse_trailers(
    message text,
    OUT "position" integer,
    OUT key text,
    OUT value text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'fixes_parse_trailers'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.fixes_parse_trailers(text) IS
'the trailers of a commit message, as git log --format=''%(trailers:only,unfold)'' prints them';

-- fixes_per_release gains four columns (at its end); its 1.0 columns stay
-- counts of Fixes edges
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
       r.reverted_introduced
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 WHERE r.mainline
 ORDER BY p.name, r.release_rank;

-- the Fixes edges that are ambiguous or not found (not the revert edges,
-- not those fixes_overrides ignores)
CREATE OR REPLACE VIEW @extschema@.fixes_unresolved AS
SELECT p.name AS repository,
       e.fixing_commit,
       c.subject AS fixing_subject,
       c.committed_at AS fixed_at,
       e.line,
       e.abbrev,
       e.quoted_subject,
       e.status,
       e.candidates,
       e.raw
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_commits c
    ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
  JOIN @extschema@.fixes_repositories p ON p.repository_id = e.repository_id
 WHERE e.status IN ('ambiguous', 'not_found') AND e.kind = 'fixes' AND c.mainline
 ORDER BY p.name, c.committed_at DESC, e.fixing_commit, e.line;

CREATE VIEW @extschema@.fixes_reverted_commits AS
SELECT p.name AS repository,
       e.target_commit AS commit_id,
       c.subject,
       e.target_release AS release,
       e.fixing_commit AS reverted_by,
       e.fixed_at AS reverted_at,
       e.fixing_release AS reverted_in,
       e.target_release IS NOT DISTINCT FROM e.fixing_release AS same_release
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_commits c
    ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
  JOIN @extschema@.fixes_repositories p ON p.repository_id = e.repository_id
 WHERE e.kind = 'revert' AND e.status = 'resolved' AND c.mainline
   AND EXISTS (SELECT FROM @extschema@.fixes_commits f
                WHERE f.repository_id = e.repository_id AND f.commit_idx = e.fixing_idx AND f.mainline)
 ORDER BY p.name, e.fixed_at, e.fixing_commit, e.line;

COMMENT ON VIEW @extschema@.fixes_reverted_commits IS
'one row per resolved revert edge: the reverted commit, the revert, and whether both are in the same release';

-- One row per resolved Fixes edge.  Every commit loaded is mainline today
-- (the scope is what the ref reaches).  Unordered: it has a row per edge.
-- The stable commits (issue 13), few or none, indexed apart: a view that
-- keeps mainline rows asks whether a commit is NOT mainline, an anti-join
-- with this small index, instead of joining every row of fixes_commits.
CREATE INDEX fixes_commits_stable_idx
    ON @extschema@.fixes_commits (repository_id, commit_idx) WHERE NOT mainline;

COMMENT ON INDEX @extschema@.fixes_commits_stable_idx IS
'the commits that are not mainline (stable branches): for the views that keep the mainline only';

CREATE VIEW @extschema@.fixes_bug_lifetimes AS
SELECT p.name AS repository,
       e.fixing_commit,
       e.target_commit,
       e.introduced_at,
       e.fixed_at,
       e.fixed_at - e.introduced_at AS lifetime,
       e.target_release AS introduced_in,
       e.fixing_release AS fixed_in,
       fr.release_rank - tr.release_rank AS releases_shipped
  FROM @extschema@.fixes_edges e
  JOIN @extschema@.fixes_repositories p ON p.repository_id = e.repository_id
  LEFT JOIN @extschema@.fixes_releases tr
    ON tr.repository_id = e.repository_id AND tr.tag = e.target_release
  LEFT JOIN @extschema@.fixes_releases fr
    ON fr.repository_id = e.repository_id AND fr.tag = e.fixing_release
 WHERE e.kind = 'fixes' AND e.status = 'resolved'
   AND NOT EXISTS (SELECT FROM @extschema@.fixes_commits f
                    WHERE f.repository_id = e.repository_id AND f.commit_idx = e.fixing_idx
                      AND NOT f.mainline)
   AND NOT EXISTS (SELECT FROM @extschema@.fixes_commits t
                    WHERE t.repository_id = e.repository_id AND t.commit_idx = e.target_idx
                      AND NOT t.mainline);

COMMENT ON VIEW @extschema@.fixes_bug_lifetimes IS
'one row per resolved Fixes edge: when the bug came in and when it was fixed, and how many releases shipped it';

-- the lifetimes are percentile_cont of the lifetimes in fixes_bug_lifetimes
-- (in days), computed by each load: aggregating every edge at query time
-- would take seconds
CREATE VIEW @extschema@.fixes_lifetime_per_release AS
SELECT p.name AS repository,
       r.tag AS release,
       r.release_rank,
       r.fixed_median_days,
       r.fixed_p90_days,
       r.introduced_median_days
  FROM @extschema@.fixes_releases r
  JOIN @extschema@.fixes_repositories p ON p.repository_id = r.repository_id
 WHERE r.mainline
 ORDER BY p.name, r.release_rank;

COMMENT ON VIEW @extschema@.fixes_lifetime_per_release IS
'per release: median and 90th percentile lifetime in days of the bugs its commits fixed in earlier releases, and median lifetime of the bugs it introduced';

CREATE VIEW @extschema@.fixes_trailers_per_release AS
SELECT p.name AS repository,
       r.tag AS release,
       k.key,
       k.commits,
       k.fixing_commits
  FROM @extschema@.fixes_release_trailers k
  JOIN @extschema@.fixes_releases r ON r.repository_id = k.repository_id AND r.tag = k.tag
  JOIN @extschema@.fixes_repositories p ON p.repository_id = k.repository_id
 WHERE r.mainline
 ORDER BY p.name, r.release_rank, k.key;

COMMENT ON VIEW @extschema@.fixes_trailers_per_release IS
'per release and trailer key (lower-cased): the commits with such a trailer, and how many of them have a resolved Fixes edge';

-- ---- issues 13, 14 and 16 together ----
-- The mainline rows of fixes_affected are pairs of Fixes edges: a revert
-- edge (issue 16) fixes no bug.
CREATE VIEW @extschema@.fixes_affected AS
SELECT p.name AS repository,
       m.fixing_commit,
       m.target_commit,
       NULL::text AS series,
       m.target_release AS introduced_in,
       m.fixing_release AS fixed_in,
       NULL::text COLLATE "C" AS fix_backport
  FROM (SELECT DISTINCT e.repository_id, e.fixing_commit, e.target_commit,
               e.target_release, e.fixing_release
          FROM @extschema@.fixes_edges e
          JOIN @extschema@.fixes_commits c
            ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
         WHERE e.status = 'resolved' AND e.kind = 'fixes' AND c.mainline) m
  JOIN @extschema@.fixes_releases t
    ON t.repository_id = m.repository_id AND t.tag = m.target_release
  LEFT JOIN @extschema@.fixes_releases f
    ON f.repository_id = m.repository_id AND f.tag = m.fixing_release
  JOIN @extschema@.fixes_repositories p ON p.repository_id = m.repository_id
 WHERE f.release_rank IS NULL OR f.release_rank > t.release_rank
UNION ALL
-- The series rows.  Their pair's commit ids come from its first resolved
-- Fixes edge (fixes_edges' indexes on fixing_commit and target_commit find
-- it, its primary key the others of the pair); only the series is joined:
-- the repository's name, introduced_in, fixed_in and fix_backport are
-- scalar subqueries (one row each, by primary key).  With the commits and
-- the three releases joined, the eight relations cost 8-10 ms of planning
-- for every query, and a filter on target_commit read every series row.
SELECT (SELECT p.name FROM @extschema@.fixes_repositories p WHERE p.repository_id = a.repository_id),
       e.fixing_commit,
       e.target_commit,
       s.tag,
       (SELECT i.tag FROM @extschema@.fixes_releases i
         WHERE i.repository_id = a.repository_id AND i.release_rank = a.introduced_rank),
       (SELECT x.tag FROM @extschema@.fixes_releases x
         WHERE x.repository_id = a.repository_id AND x.release_rank = a.fixed_rank),
       (SELECT b.commit_id FROM @extschema@.fixes_commits b
         WHERE b.repository_id = a.repository_id AND b.commit_idx = a.fix_backport_idx)
  FROM (SELECT fa.repository_id, fa.fixing_idx, fa.target_idx, u.series_rank,
               u.introduced_rank, u.fixed_rank, u.fix_backport_idx
          FROM @extschema@.fixes_affected_series fa
         CROSS JOIN LATERAL unnest(fa.series_ranks, fa.introduced_ranks, fa.fixed_ranks,
                                   fa.fix_backport_idxs)
               AS u(series_rank, introduced_rank, fixed_rank, fix_backport_idx)) a
  JOIN @extschema@.fixes_edges e
    ON e.repository_id = a.repository_id AND e.fixing_idx = a.fixing_idx
   AND e.target_idx = a.target_idx AND e.status = 'resolved' AND e.kind = 'fixes'
  JOIN @extschema@.fixes_releases s
    ON s.repository_id = a.repository_id AND s.release_rank = a.series_rank
 WHERE NOT EXISTS (SELECT FROM @extschema@.fixes_edges d
                    WHERE d.repository_id = e.repository_id AND d.fixing_idx = e.fixing_idx
                      AND d.target_idx = e.target_idx AND d.status = 'resolved'
                      AND d.kind = 'fixes' AND d.line < e.line);

COMMENT ON VIEW @extschema@.fixes_affected IS
'per resolved mainline Fixes pair (F fixes T) and place that shipped the bug: the mainline (series NULL) and each stable series; the bug is in the releases from introduced_in up to, not including, fixed_in (NULL: not fixed there yet)';
-- ---- end of issues 13, 14 and 16 together ----

-- ---- issue 14: the per-subsystem and per-prefix answers, stored ----
-- Aggregating fixes_commit_subsystems and fixes_commit_files at query time
-- reads every row of both: seconds at a million commits.  Each fixes_load()
-- with files computes the answers from the edges it holds and the groups of
-- each commit (src/load_subsystem_counts.c), and stores them here;
-- fixes_per_subsystem and fixes_per_path_prefix read them.  They count bugs:
-- Fixes edges, not reverts (issue 16).  The same block ends fixes--1.1.sql
-- and fixes--1.0--1.1.sql.
CREATE TABLE @extschema@.fixes_subsystem_counts (
    repository_id        integer NOT NULL,
    subsystem_id         integer NOT NULL,
    commits              bigint NOT NULL,
    fixing_commits       bigint NOT NULL,
    buggy_commits        bigint NOT NULL,
    bugs_introduced      bigint NOT NULL,
    bugs_fixed           bigint NOT NULL,
    median_lifetime_days double precision,
    PRIMARY KEY (repository_id, subsystem_id)
);

COMMENT ON TABLE @extschema@.fixes_subsystem_counts IS
'internal: the counts of fixes_per_subsystem, per section of fixes_subsystems, computed by each load';

-- depths 1 to 4; prefix_id numbers the prefixes for fixes_commit_groups
CREATE TABLE @extschema@.fixes_path_prefix_counts (
    repository_id        integer NOT NULL,
    depth                integer NOT NULL,
    prefix               text NOT NULL,
    prefix_id            integer NOT NULL,
    commits              bigint NOT NULL,
    fixing_commits       bigint NOT NULL,
    buggy_commits        bigint NOT NULL,
    bugs_introduced      bigint NOT NULL,
    bugs_fixed           bigint NOT NULL,
    median_lifetime_days double precision,
    PRIMARY KEY (repository_id, depth, prefix)
);

COMMENT ON TABLE @extschema@.fixes_path_prefix_counts IS
'internal: the counts of fixes_per_path_prefix for depths 1 to 4, per prefix, computed by each load';

-- one row per kind and load: the groups of the commits that load added
-- (first_commit ..), per commit a count and the ids (uint32, in the
-- server's byte order): subsystem_id - 1, or the prefix_id of depth 4
CREATE TABLE @extschema@.fixes_commit_groups (
    repository_id   integer NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('subsystems', 'prefixes')),
    first_commit    integer NOT NULL,
    format          integer NOT NULL,
    commits         integer NOT NULL,
    counts          bytea NOT NULL,
    ids             bytea NOT NULL,
    PRIMARY KEY (repository_id, kind, first_commit)
);

COMMENT ON TABLE @extschema@.fixes_commit_groups IS
'internal: the sections and the path prefixes of each loaded commit, compact like fixes_graph, for the refresh of fixes_subsystem_counts and fixes_path_prefix_counts';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_subsystem_counts', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_path_prefix_counts', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.fixes_commit_groups', '');

CREATE VIEW @extschema@.fixes_per_subsystem AS
SELECT p.name AS repository,
       s.name AS subsystem,
       COALESCE(k.commits, 0) AS commits,
       COALESCE(k.fixing_commits, 0) AS fixing_commits,
       COALESCE(k.buggy_commits, 0) AS buggy_commits,
       COALESCE(k.bugs_introduced, 0) AS bugs_introduced,
       COALESCE(k.bugs_fixed, 0) AS bugs_fixed,
       k.median_lifetime_days
  FROM @extschema@.fixes_subsystems s
  JOIN @extschema@.fixes_repositories p ON p.repository_id = s.repository_id
  LEFT JOIN @extschema@.fixes_subsystem_counts k
    ON k.repository_id = s.repository_id AND k.subsystem_id = s.subsystem_id
 ORDER BY p.name, s.name;

COMMENT ON VIEW @extschema@.fixes_per_subsystem IS
'per MAINTAINERS subsystem: its commits, those with resolved Fixes edges, the buggy ones, the bugs introduced and fixed, and the median days from a buggy commit to its fix';

-- Depths 1 to 4 read the stored counts; any other depth computes them from
-- fixes_commit_files, as every depth did before (PL/pgSQL: only the branch
-- taken is planned).
CREATE FUNCTION @extschema@.fixes_per_path_prefix(
    repository text,
    depth integer DEFAULT 2,
    OUT prefix text,
    OUT commits bigint,
    OUT fixing_commits bigint,
    OUT buggy_commits bigint,
    OUT bugs_introduced bigint,
    OUT bugs_fixed bigint,
    OUT median_lifetime_days double precision)
RETURNS SETOF record
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
SET jit = off
AS $$
#variable_conflict use_column
BEGIN
    IF EXISTS (SELECT FROM @extschema@.fixes_path_prefix_counts k
                 JOIN @extschema@.fixes_repositories r ON r.repository_id = k.repository_id
                WHERE r.name = $1 AND k.depth = $2) THEN
        RETURN QUERY
        SELECT k.prefix, k.commits, k.fixing_commits, k.buggy_commits, k.bugs_introduced,
               k.bugs_fixed, k.median_lifetime_days
          FROM @extschema@.fixes_path_prefix_counts k
          JOIN @extschema@.fixes_repositories r ON r.repository_id = k.repository_id
         WHERE r.name = $1 AND k.depth = $2
         ORDER BY k.prefix;
        RETURN;
    END IF;
    RETURN QUERY
    WITH repo AS (
        SELECT r.repository_id FROM @extschema@.fixes_repositories r WHERE r.name = $1
    ), members AS (
        -- a path's directory, cut to depth components; '.' for the top level
        SELECT DISTINCT f.commit_idx,
               COALESCE(NULLIF(array_to_string(
                   (string_to_array(f.path, '/'))[1:least($2, array_length(string_to_array(f.path, '/'), 1) - 1)],
                   '/'), ''), '.') AS prefix
          FROM @extschema@.fixes_commit_files f, repo, @extschema@.fixes_commits c
         WHERE f.repository_id = repo.repository_id
           AND c.repository_id = f.repository_id AND c.commit_idx = f.commit_idx
           AND c.mainline
    ), introduced AS (
        SELECT m.prefix,
               count(*) AS bugs_introduced,
               count(DISTINCT e.target_idx) AS buggy_commits,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY
                   extract(epoch FROM e.fixed_at - c.committed_at) / 86400) AS median_lifetime_days
          FROM members m, repo
          JOIN @extschema@.fixes_edges e ON e.repository_id = repo.repository_id
          JOIN @extschema@.fixes_commits c
            ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
          JOIN @extschema@.fixes_commits fc
            ON fc.repository_id = e.repository_id AND fc.commit_idx = e.fixing_idx
         WHERE e.target_idx = m.commit_idx AND e.status = 'resolved' AND e.kind = 'fixes' AND fc.mainline
         GROUP BY m.prefix
    ), fixed AS (
        SELECT m.prefix,
               count(*) AS bugs_fixed,
               count(DISTINCT e.fixing_idx) AS fixing_commits
          FROM members m, repo
          JOIN @extschema@.fixes_edges e ON e.repository_id = repo.repository_id
         WHERE e.fixing_idx = m.commit_idx AND e.status = 'resolved' AND e.kind = 'fixes'
         GROUP BY m.prefix
    ), sizes AS (
        SELECT m.prefix, count(*) AS commits FROM members m GROUP BY m.prefix
    )
    SELECT z.prefix,
           z.commits,
           COALESCE(f.fixing_commits, 0),
           COALESCE(i.buggy_commits, 0),
           COALESCE(i.bugs_introduced, 0),
           COALESCE(f.bugs_fixed, 0),
           i.median_lifetime_days
      FROM sizes z
      LEFT JOIN introduced i ON i.prefix = z.prefix
      LEFT JOIN fixed f ON f.prefix = z.prefix
     ORDER BY z.prefix;
END
$$;

COMMENT ON FUNCTION @extschema@.fixes_per_path_prefix(text, integer) IS
'the counts of fixes_per_subsystem per directory of depth path components (''.'' for files at the top level), from the recorded files';

-- ---- end of the stored answers of issue 14 ----
