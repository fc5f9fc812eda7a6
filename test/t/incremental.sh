#!/bin/bash
# incremental.sh — a refresh (a second fixes_load of the same name, which reads only the new
# commits) must leave exactly the rows that a fresh load of the same state gives.
#
# A private non-bare clone of ${FIXES_FIXTURES}/releases.git goes through these steps; after each
# one it is loaded under the name 'inc' (a refresh from step 1 on) and, fresh, under a new name
# fresh_<step>, and the two are compared row for row (EXCEPT ALL both ways) on the views, the
# tables and the counts fixes_load returns:
#   0  ref v1.0                    1  ref v1.1                  2  ref main (D07, as built)
#   3  two new commits: "net: add socket layer" (D02's edge, resolved by subject, becomes
#      not_found) and "misc: no such commit" (D03's not_found edge becomes resolved/subject)
#   4  lightweight tags v2.1 on the new head and v0.9 on A04 (an old commit changes release)
#   5  merge of the never-merged stable-1.0 (S01, S02): D04's edge to S01 becomes resolved/hash,
#      and v1.0.1 (on S02) becomes a release between v1.0 and v1.1
#   6  nothing changed: the same counts, and no row of any table written
#   7  main reset to C11 (v2.0) plus one other commit: the refresh reloads in full, with a NOTICE
#   8  the same commits, another release_pattern ('^v1\.[0-9]+$'): v2.0 is no release any more,
#      its commits become unreleased (the same as deleting the newest release tag)
#   9  the default pattern again, and one more commit
#  10, 11 (name 'collide'): a branch where 20b3d33 names only X, then merged with Y: the 7-hex
#      abbrev of a resolved/hash edge becomes ambiguous (and hash+subject with a subject)
# Stable branches (issue 13), on a copy of ${FIXES_FIXTURES}/stable.git loaded with stable_branches
# '^refs/(heads|remotes/origin)/stable-' under the name 'st':
#  s0 first load; s1 a new stable commit (a backport of M15) on stable-1.0; s2 a new stable
#  tag v1.0.3 on it (M15's bug is fixed in the series); s3 stable-0.9 renamed old-0.9, which
#  stops matching (v0.9.1 and P01 go); s4 a new mainline commit (the mainline refresh is
#  incremental, the stable rows follow it); s5 nothing changed (not one row written); s6 the
#  same without stable_branches (every stable row goes)
#  12 (issue 16) new commits with trailers, a Fixes: line into a new and an old commit, a revert
#      of a new commit and one of an old commit ("This reverts commit <id> (subject)")
#  13 a tag v3.0 on the head: the new commits, their trailers and reverts are released (each
#      update of fixes_commits.release is HOT: the unreleased rows were kept apart)
#  14 a change to fixes_overrides alone (a target, a NULL, a revert's target): not "nothing
#      changed"; 15 nothing changed at all: no row written; 16 overrides changed again
#  17, 18 (name 'big'): 70,000 commits, two rows of fixes_graph; a new commit's Fixes lines
#      compare subjects with commits of the first row (read only then); releases v1.0 and
#      v2.0 on the two heads: the parents of the first row, all released, are not read
# After every step, fixes_graph.releases holds the release rank of each commit (v_keys), the
# arrays that compress (fixes_graph.releases, also where a refresh wrote them again,
# fixes_trailer_keys.counts and .ids) are not compressed with pglz where the server has lz4
# (v_keys, issue 45), and
# what a refresh read to mark the releases is printed (marks_read), and checked at steps 4, 13
# and 18 and in the make-history steps.
#  19, 20 (name 'olddates'): a merge of 1,100 commits dated before every loaded one: too many
#      ids to look up, every id is read (refresh/old_ids.c)
# fixes_overrides rows of NAME are copied to each fresh load's name before it loads.
# Then, when ../shared/bench/make-history exists, its 20000-commit repository (cached like
# crosscheck.sh does) is loaded by tags v2.1 -> v2.2 -> v2.3 -> HEAD under one name and compared
# with fresh loads the same way, with its MAINTAINERS; then a clone with a tag v99.0 on HEAD,
# whose refresh must update the release of the unreleased tail (its commits and their edges)
# with HOT updates only; then two daily refreshes (+200 commits and a tag, bench/grow-history),
# each of which must keep stored rows of fixes_path_prefix_counts and fixes_subsystem_counts
# (it writes again only the groups whose counts changed).
# Timings of every refresh are printed.
# Every load records the changed files (files => true), so the answers a load stores for
# fixes_per_subsystem and fixes_per_path_prefix (depths 1 to 4; 5 is computed at query time)
# are compared too, through every kind of change above.
#
# After every step, no row of any table of the extension breaks a NOT NULL or CHECK constraint
# (test/lib/ext-constraints.sql, issue 29).
# Own scratch database fixes_t_incremental, dropped again on success.
# Exit 0 pass, 1 fail, 77 skip (no releases.git fixture).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_incremental
commits=20000
export PGTZ=UTC
need_fixture releases.git

# git without the user's or the system's configuration, and with fixed identities: every commit
# made here has the same id on every run
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 LC_ALL=C
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
export GIT_AUTHOR_NAME='Ida Incremental' GIT_AUTHOR_EMAIL='ida@example.org'
export GIT_COMMITTER_NAME='Max Maintainer' GIT_COMMITTER_EMAIL='max@example.org'
when=1582000000         # 2020-02-18 04:26:40 UTC, after every commit of releases.git
next_date() {           # the fixed date of the next commit: one hour after the previous one
    when=$((when + 3600))
    export GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$((when + 600)) +0000"
}

work=$(mktemp -d /tmp/fixes-t-incremental.XXXXXX)
chmod a+rx "$work"
rc=0
cleanup() {
    if [ $rc = 0 ]; then
        rm -rf "$work"
    else
        echo "(kept $work for inspection)"
    fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; rc=1; }

# load NAME PATH REF OUTFILE [PATTERN]: fixes_load in a transaction of its own (release_pattern
# NULL unless PATTERN is given); OUTFILE gets the counts it returned, the rows it wrote per table
# (pg_stat_xact_user_tables: +inserted ~updated -deleted) and the time; the server's NOTICEs and
# WARNINGs go to OUTFILE.msg
# (stable_branches: $STABLE, NULL when empty; files => true, and maintainers: $MAINT, NULL when
# empty: every load records the changed files, so that the per-subsystem and per-prefix answers
# of a refresh are compared too)
# ($LIST_LIMIT, when set: fixes.refresh_list_limit; the load's DEBUG1 lines about the old
# commits' ids go to OUTFILE.ids, see ids_read)
# ($FILES: false for a load without files, which a refresh reads only the old edges it needs
# for (refresh/old_edges.c); its DEBUG1 lines about them go to OUTFILE.edges, see edges_read)
STABLE=
MAINT=
LIST_LIMIT=
FILES=true
load() {
    local name=$1 path=$2 ref=$3 out=$4 haspat=0 pattern=
    if [ $# -ge 5 ]; then haspat=1; pattern=$5; fi
    psql_q -At -F ' ' -v name="$name" -v path="$path" -v ref="$ref" -v haspat=$haspat \
        -v pattern="$pattern" -v stable="$STABLE" -v maint="$MAINT" -v list_limit="${LIST_LIMIT:-64MB}" -v files="$FILES" \
        >"$out" 2>"$out.msg" <<'SQL' || { cat "$out.msg"; return 1; }
BEGIN;
SET LOCAL fixes.refresh_list_limit = :'list_limit';
SET LOCAL client_min_messages = debug1;
SELECT 'counts', commits, releases, edges, resolved, round(seconds::numeric, 3)
  FROM fixes_load(:'path', :'ref', CASE WHEN :haspat = 1 THEN :'pattern' END, :'name',
                  nullif(:'stable', ''), :'files'::boolean,
                  CASE WHEN :'files'::boolean THEN nullif(:'maint', '') END);
SELECT 'writes', string_agg(format('%s +%s ~%s -%s', relname, n_tup_ins, n_tup_upd, n_tup_del),
                            ', ' ORDER BY relname)
  FROM pg_stat_xact_user_tables WHERE relname LIKE 'fixes\_%';
SELECT 'hot', n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'fixes_commits';
SELECT 'ehot', n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'fixes_edges';
COMMIT;
SQL
    grep -E 'DEBUG: +fixes_load [^:]*: (ids of|[0-9]+ new commits listed|the list of the new commits is longer)' \
        "$out.msg" | sed 's/.*: //' >"$out.ids" || true
    grep -E 'DEBUG: +fixes_load [^:]*: old edges: ' "$out.msg" | sed 's/.*old edges: //' >"$out.edges" || true
    grep -E 'DEBUG: +fixes_load [^:]*: (parents of|releases of [0-9]+ fixes_graph rows|the stored releases)' \
        "$out.msg" | sed 's/^[^:]*: [^:]*: //' >"$out.marks" || true
    sed -i '/^DEBUG: /d' "$out.msg"
}
# ids_read OUTFILE: how a refresh found the old commits it needed (refresh/old_ids.c): "looked up" (by
# probe, the graph's ids not read), "read" (every id of the graph), "over, read" (the list of
# the new commits was longer than fixes.refresh_list_limit: every id), "-" (neither: a first
# load)
ids_read() {
    local f=$1.ids
    if grep -q '^the list of the new commits is longer' "$f"; then echo "over, read"
    elif grep -q '^ids of' "$f"; then echo read
    elif grep -q 'ids looked up' "$f"; then echo "looked up"
    else echo -; fi
}
# edges_read OUTFILE: which old edges a refresh read (refresh/old_edges.c): "some" (those it
# needs), "all" (every one, the set it needed being too large, after some), "-" (every one
# without a choice: files on, stable branches, a first load)
edges_read() {
    local f=$1.edges
    if grep -q '^every one read' "$f"; then echo all
    elif grep -q 'more read' "$f"; then echo some
    else echo -; fi
}
# marks_read OUTFILE: how a refresh found the releases of the old commits (load_releases.c):
# "stored" (as the previous load stored them; the parents of only the rows with an unreleased
# commit read), "stored, all parents" (the same, but a new release came before an old one, or
# an old one changed: every row's parents read, every commit marked), "-" (every parent read
# from the start: stable branches, nothing stored, a first load)
marks_read() {
    local f=$1.marks
    if grep -q '^parents of the other' "$f"; then echo "stored, all parents"
    elif grep -q '^parents of [0-9]* of' "$f"; then echo stored
    else echo -; fi
}
counts_of() { awk '$1 == "counts" {print $2, $3, $4, $5}' "$1"; }
hot_of() { awk '$1 == "hot" {print $2, $3}' "$1"; }   # updates of fixes_commits, and the HOT ones
ehot_of() { awk '$1 == "ehot" {print $2, $3}' "$1"; } # the same of fixes_edges
seconds_of() { awk '$1 == "counts" {print $6}' "$1"; }
writes_of() { awk '$1 == "writes" {$1 = ""; sub(/^ /, ""); print}' "$1"; }

# compare A B: every row of the views and tables of repository A equals one of repository B,
# and the other way round; prints the differences and returns 1 when there are any
compare() {
    local a=$1 b=$2 out
    out=$(psql_q -At -F ' | ' -P null='<NULL>' -v a="$a" -v b="$b" <<'SQL'
CREATE TEMP VIEW v_per_release AS
SELECT repository AS repo, release, release_rank, released_at, commits, fixing_commits, bugs_fixed,
       commits_fixed, bugs_introduced, buggy_commits_introduced, fixed_same_release,
       tagged_commits, fixing_earlier_commits, reverts, reverted_introduced,
       stable_cc_commits, stable_cc_fixing_commits
  FROM fixes_per_release;
CREATE TEMP VIEW v_trailers AS
SELECT p.name AS repo, c.commit_id, t.position, t.key, t.value
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
  JOIN fixes_repositories p USING (repository_id);
CREATE TEMP VIEW v_trailers_per_release AS
SELECT repository AS repo, release, key, commits, fixing_commits FROM fixes_trailers_per_release;
CREATE TEMP VIEW v_reverted AS
SELECT repository AS repo, commit_id, subject, release, reverted_by, reverted_at, reverted_in,
       same_release
  FROM fixes_reverted_commits;
CREATE TEMP VIEW v_lifetimes AS
SELECT repository AS repo, fixing_commit, target_commit, introduced_at, fixed_at, lifetime,
       introduced_in, fixed_in, releases_shipped
  FROM fixes_bug_lifetimes;
CREATE TEMP VIEW v_lifetime_per_release AS
SELECT repository AS repo, release, release_rank, fixed_median_days, fixed_p90_days,
       introduced_median_days, observed_days, found_within_365d, found_within_730d
  FROM fixes_lifetime_per_release;
CREATE TEMP VIEW v_buggiest AS
SELECT repository AS repo, rank, commit_id, abbrev, fixes, subject, release, author, authored_at,
       first_fixed_at, last_fixed_at
  FROM fixes_buggiest_commits;
CREATE TEMP VIEW v_unresolved AS
SELECT repository AS repo, fixing_commit, fixing_subject, fixed_at, line, abbrev, quoted_subject,
       status, candidates, raw
  FROM fixes_unresolved;
CREATE TEMP VIEW v_repositories AS
SELECT name AS repo, path, ref, release_pattern, head_commit, commits, releases, edges, resolved,
       missing_parents, stable_branches, last_committed_at
  FROM fixes_repositories;
CREATE TEMP VIEW v_releases AS
SELECT p.name AS repo, r.tag, r.commit_id, r.release_rank AS rank, r.annotated, r.released_at,
       r.commits, r.mainline, r.series, r.backports, r.bugs_fixed, r.regressions_introduced,
       r.known_bugs
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id);
CREATE TEMP VIEW v_commits AS
SELECT p.name AS repo, c.commit_id, c.release, c.subject, c.parent_ids, c.authored_at,
       c.committed_at, c.author_name, c.author_email, c.committer_name, c.committer_email,
       md5(c.message) AS message_md5, c.mainline, c.files, c.added, c.deleted, c.stable_cc
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id);
-- the answers a load stores (issue 14), depth 5 computed at query time
CREATE TEMP VIEW v_per_subsystem AS
SELECT repository AS repo, subsystem, commits, fixing_commits, buggy_commits, bugs_introduced,
       bugs_fixed, median_lifetime_days
  FROM fixes_per_subsystem;
CREATE TEMP VIEW v_per_path_prefix AS
SELECT p.name AS repo, d.depth, x.*
  FROM fixes_repositories p, generate_series(1, 5) AS d(depth),
       LATERAL fixes_per_path_prefix(p.name, d.depth) AS x;
-- the lifetimes behind the stored medians, which a refresh merges into (1.2)
CREATE TEMP VIEW v_group_lifetimes AS
SELECT p.name AS repo, 'section' AS kind, s.name AS grp, md5(k.lifetimes) AS lifetimes
  FROM fixes_subsystem_counts k JOIN fixes_repositories p USING (repository_id)
  JOIN fixes_subsystems s ON s.repository_id = k.repository_id AND s.subsystem_id = k.subsystem_id
UNION ALL
SELECT p.name, 'prefix ' || k.depth, k.prefix, md5(k.lifetimes)
  FROM fixes_path_prefix_counts k JOIN fixes_repositories p USING (repository_id);
CREATE TEMP VIEW v_backports AS
SELECT p.name AS repo, c.commit_id, b.line, b.status, u.commit_id AS upstream, b.abbrev, b.raw
  FROM fixes_backports b JOIN fixes_repositories p USING (repository_id)
  JOIN fixes_commits c ON c.repository_id = b.repository_id AND c.commit_idx = b.commit_idx
  LEFT JOIN fixes_commits u ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx;
CREATE TEMP VIEW v_affected AS
SELECT repository AS repo, fixing_commit, target_commit, series, introduced_in, fixed_in, fix_backport
  FROM fixes_affected;
CREATE TEMP VIEW v_per_stable_release AS
SELECT repository AS repo, series, release, released_at, commits, backports, bugs_fixed,
       regressions_introduced, known_bugs
  FROM fixes_per_stable_release;
CREATE TEMP VIEW v_edges AS
SELECT p.name AS repo, e.fixing_commit, e.line, e.abbrev, e.status, e.method, e.candidates,
       e.target_commit, e.fixing_release, e.target_release, e.fixed_at, e.quoted_subject, e.raw,
       e.kind, e.introduced_at
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id);
-- the surrogate keys of a refresh differ from a fresh load's; they must agree with the ids
CREATE TEMP VIEW v_keys AS
SELECT p.name AS repo, 'edge ' || e.fixing_commit || ':' || e.line || ' fixing_idx' AS what
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
 WHERE c.commit_id IS DISTINCT FROM e.fixing_commit
UNION ALL
SELECT p.name, 'edge ' || e.fixing_commit || ':' || e.line || ' target_idx'
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.target_idx
 WHERE e.target_idx IS NOT NULL AND c.commit_id IS DISTINCT FROM e.target_commit
UNION ALL
SELECT p.name, 'release ' || r.tag || ' commit_idx'
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN fixes_commits c ON c.repository_id = r.repository_id AND c.commit_idx = r.commit_idx
 WHERE c.commit_id IS DISTINCT FROM r.commit_id
UNION ALL
SELECT p.name, 'release ' || r.tag || ' rank ' || r.release_rank || ' not 1..n'
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
 WHERE r.release_rank > (SELECT count(*) FROM fixes_releases r2 WHERE r2.repository_id = r.repository_id)
UNION ALL
SELECT p.name, 'fixes_graph holds ' || coalesce(sum(g.commits), 0) || ' commits, fixes_commits ' || p.commits
  FROM fixes_repositories p LEFT JOIN fixes_graph g USING (repository_id)
 GROUP BY p.name, p.commits HAVING coalesce(sum(g.commits), 0) <> p.commits
UNION ALL
SELECT p.name, 'fixes_commits holds ' || count(c.*) || ' mainline rows, fixes_repositories.commits ' || p.commits
  FROM fixes_repositories p LEFT JOIN fixes_commits c ON c.repository_id = p.repository_id AND c.mainline
 GROUP BY p.name, p.commits HAVING count(c.*) <> p.commits
UNION ALL
SELECT p.name, 'stable commit_idx ' || c.commit_idx || ' among the mainline''s'
  FROM fixes_repositories p JOIN fixes_commits c USING (repository_id)
 WHERE NOT c.mainline AND c.commit_idx < p.commits
UNION ALL
SELECT p.name, 'backport ' || b.commit_idx || ':' || b.line || ' upstream_idx not mainline'
  FROM fixes_backports b JOIN fixes_repositories p USING (repository_id)
  JOIN fixes_commits u ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx
 WHERE NOT u.mainline
UNION ALL
SELECT p.name, 'fixes_trailer_keys holds ' || coalesce(sum(k.commits), 0) || ' commits, fixes_commits ' || p.commits
  FROM fixes_repositories p LEFT JOIN fixes_trailer_keys k ON k.repository_id = p.repository_id AND k.chunk >= 0
 GROUP BY p.name, p.commits HAVING coalesce(sum(k.commits), 0) <> p.commits
UNION ALL
SELECT p.name, 'trailer of commit_idx ' || t.commit_idx || ', not a commit'
  FROM fixes_trailers t JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN fixes_commits c USING (repository_id, commit_idx)
 WHERE c.commit_id IS NULL
UNION ALL
SELECT p.name, 'fixes_commit_groups (' || g.kind || ') holds ' || sum(g.commits) || ' commits, fixes_commits ' || p.commits
  FROM fixes_repositories p JOIN fixes_commit_groups g USING (repository_id)
 GROUP BY p.name, p.commits, g.kind HAVING sum(g.commits) <> p.commits
UNION ALL
SELECT p.name, 'commit_idx ' || c.commit_idx || ': stable_cc ' || c.stable_cc || ', not as in fixes_graph'
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN (SELECT repository_id, stable_cc, commits,
                    (sum(commits) OVER (PARTITION BY repository_id ORDER BY chunk) - commits)::int AS first
               FROM fixes_graph) g
         ON g.repository_id = c.repository_id AND c.commit_idx >= g.first AND c.commit_idx < g.first + g.commits
 WHERE c.mainline AND (get_bit(g.stable_cc, c.commit_idx - g.first) = 1) IS DISTINCT FROM c.stable_cc
UNION ALL
-- fixes_graph.releases (1.2): the release rank of each mainline commit, int32 in the server's
-- byte order (little-endian here: CI runs on x86-64); each row's value detoasted once (||, and
-- OFFSET 0: not once per byte read)
SELECT p.name, 'commit_idx ' || c.commit_idx || ': release ' || coalesce(c.release, '-') || ', rank '
       || coalesce(k.rank::text, 'NULL') || ' in fixes_graph'
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
  LEFT JOIN fixes_releases r ON r.repository_id = c.repository_id AND r.tag = c.release
  JOIN (SELECT repository_id, commits, releases || ''::bytea AS rel,
               (sum(commits) OVER (PARTITION BY repository_id ORDER BY chunk) - commits)::int AS first
          FROM fixes_graph OFFSET 0) g
         ON g.repository_id = c.repository_id AND c.commit_idx >= g.first AND c.commit_idx < g.first + g.commits
  CROSS JOIN LATERAL (SELECT get_byte(g.rel, o) | (get_byte(g.rel, o + 1) << 8)
                             | (get_byte(g.rel, o + 2) << 16) | (get_byte(g.rel, o + 3) << 24) AS rank
                        FROM (SELECT 4 * (c.commit_idx - g.first) AS o) x) k
 WHERE c.mainline AND k.rank IS DISTINCT FROM coalesce(r.release_rank, 0)
UNION ALL
SELECT p.name, 'commit_idx not 0..n-1'
  FROM fixes_repositories p JOIN fixes_commits c USING (repository_id)
 GROUP BY p.name HAVING min(c.commit_idx) <> 0 OR max(c.commit_idx) <> count(*) - 1
UNION ALL
-- the arrays that compress are written compressed with lz4 where the server has it (issue 45):
-- one compressed with pglz was compressed again by the column's method at the insert.  The
-- graph's rows of every load, those a refresh wrote again (refresh/graph_kept.c) included
SELECT p.name, x.what || ' compressed with pglz'
  FROM (SELECT g.repository_id, 'fixes_graph.releases of chunk ' || g.chunk AS what,
               pg_column_compression(g.releases) AS method
          FROM fixes_graph g
        UNION ALL
        SELECT k.repository_id, 'fixes_trailer_keys.' || c.col || ' of chunk ' || k.chunk,
               pg_column_compression(CASE c.col WHEN 'counts' THEN k.counts ELSE k.ids END)
          FROM fixes_trailer_keys k, (VALUES ('counts'), ('ids')) AS c(col)) x
  JOIN fixes_repositories p USING (repository_id)
 WHERE x.method = 'pglz'
   AND EXISTS (SELECT FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals));

SET fixes_t.a = :'a';
SET fixes_t.b = :'b';
CREATE TEMP TABLE diffs (relation text, side text, row_text text);
DO $$
DECLARE
    rel text;
    a text := current_setting('fixes_t.a');
    b text := current_setting('fixes_t.b');
BEGIN
    -- rows compared as jsonb without the repository's name
    FOREACH rel IN ARRAY ARRAY['v_repositories', 'v_per_release', 'v_buggiest', 'v_unresolved',
                               'v_releases', 'v_commits', 'v_edges', 'v_backports', 'v_affected',
                               'v_per_stable_release', 'v_trailers',
                               'v_trailers_per_release', 'v_reverted', 'v_lifetimes',
                               'v_lifetime_per_release', 'v_per_subsystem',
                               'v_per_path_prefix', 'v_group_lifetimes'] LOOP
        -- each side's rows once (the views are the expensive part), then both differences
        EXECUTE format($q$CREATE TEMP TABLE side_a AS
                          SELECT to_jsonb(x) - 'repo' AS j FROM %1$I x WHERE x.repo = %2$L$q$, rel, a);
        EXECUTE format($q$CREATE TEMP TABLE side_b AS
                          SELECT to_jsonb(x) - 'repo' AS j FROM %1$I x WHERE x.repo = %2$L$q$, rel, b);
        INSERT INTO diffs
        SELECT rel, 'only in ' || a, j::text FROM (TABLE side_a EXCEPT ALL TABLE side_b) t;
        INSERT INTO diffs
        SELECT rel, 'only in ' || b, j::text FROM (TABLE side_b EXCEPT ALL TABLE side_a) t;
        DROP TABLE side_a, side_b;
    END LOOP;
    INSERT INTO diffs SELECT 'v_keys', 'inconsistent in ' || repo, what
      FROM v_keys WHERE repo IN (a, b);
END
$$;
SELECT relation, side, row_text FROM diffs ORDER BY 1, 2, 3;
SQL
)
    if [ -n "$out" ]; then
        echo "DIFF: $a and $b differ:"
        echo "$out" | head -n 60
        echo "($(echo "$out" | wc -l) rows differ)"
        return 1
    fi
}

# id LABEL: the commit id of a releases.git label (ids.tsv)
id() { awk -F'\t' -v l="$1" '$1 == "releases.git" && $2 == l {print $3}' "$fixtures/ids.tsv"; }

# keep_edges NAME / changed_edges NAME: the edges of NAME before a refresh, and how many of
# them the refresh changed (old status/method -> new), e.g. "resolved/hash->ambiguous x3"
keep_edges() {
    psql_q -v name="$1" <<'SQL'
SET client_min_messages = warning;
DROP TABLE IF EXISTS edges_before;
CREATE TABLE edges_before AS
SELECT e.fixing_commit, e.line, e.status, e.method, e.target_commit, e.fixing_release, e.target_release
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id) WHERE p.name = :'name';
SQL
}
changed_edges() {
    psql_q -At -v name="$1" <<'SQL'
SELECT coalesce(string_agg(format('%s -> %s x%s', b, a, n), ', ' ORDER BY n DESC, b, a), 'none')
  FROM (SELECT concat_ws('/', o.status, o.method) AS b, concat_ws('/', e.status, e.method) AS a,
               count(*) AS n
          FROM edges_before o
          JOIN (fixes_edges e JOIN fixes_repositories p USING (repository_id))
            ON p.name = :'name' AND e.fixing_commit = o.fixing_commit AND e.line = o.line
         WHERE (o.status, o.method, o.target_commit) IS DISTINCT FROM (e.status, e.method, e.target_commit)
         GROUP BY 1, 2) t;
SQL
}

# dump NAME FILE: every row a load of NAME owns, as text (loaded_at, load_seconds left out);
# for fixes_commits, fixes_edges, fixes_graph, fixes_trailers and fixes_release_trailers also
# xmin and ctid, which change when a row is
# rewritten (fixes_releases is replaced by every load, by design: "a few hundred rows at most")
dump() {
    psql_q -A -F $'\t' -P null='<NULL>' -v name="$1" >"$2" <<'SQL'
SELECT repository_id AS id FROM fixes_repositories WHERE name = :'name' \gset
SELECT name, path, ref, release_pattern, head_commit, commits, releases, edges, resolved, missing_parents
  FROM fixes_repositories WHERE repository_id = :id;
SELECT xmin, ctid, * FROM fixes_commits WHERE repository_id = :id ORDER BY commit_idx;
SELECT * FROM fixes_releases WHERE repository_id = :id ORDER BY release_rank;
SELECT xmin, ctid, * FROM fixes_edges WHERE repository_id = :id ORDER BY fixing_idx, line;
SELECT xmin, ctid, repository_id, chunk, format, commits, md5(ids), md5(subject_hashes),
       md5(parent_counts), md5(parents)
  FROM fixes_graph WHERE repository_id = :id ORDER BY chunk;
SELECT xmin, ctid, * FROM fixes_trailers WHERE repository_id = :id ORDER BY commit_idx, position;
SELECT xmin, ctid, * FROM fixes_release_trailers WHERE repository_id = :id ORDER BY tag, key;
SELECT xmin, ctid, repository_id, chunk, format, commits, md5(counts), md5(ids), keys
  FROM fixes_trailer_keys WHERE repository_id = :id ORDER BY chunk;
SQL
}

# step N NAME PATH REF [PATTERN]: refresh NAME at REF (with release_pattern PATTERN, NULL when
# not given) and load it fresh as NAME_fresh_N, compare the two
step() {
    local n=$1 name=$2 path=$3 ref=$4 t0 tw fresh="$2_fresh_$1" full kind pat=("${@:5}")
    FULL=no
    chmod -R a+rX "$work"
    keep_edges "$name"
    kind=refresh
    [ -n "$(q -v n="$name" <<<"SELECT 1 FROM fixes_repositories WHERE name = :'n'")" ] || kind='first load'
    t0=$(date +%s.%N)
    load "$name" "$path" "$ref" "$work/$name.$n" "${pat[@]}" || { fail "step $n: fixes_load of $name failed"; return 0; }
    tw=$(elapsed "$t0")
    # the fresh load gets NAME's corrections (fixes_overrides is keyed by the repository's name)
    psql_q -v name="$name" -v fresh="$fresh" <<'SQL'
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT :'fresh', fixing_commit, abbrev, target_commit, note FROM fixes_overrides WHERE repository = :'name';
SQL
    load "$fresh" "$path" "$ref" "$work/$fresh" "${pat[@]}" || { fail "step $n: fixes_load of $fresh failed"; return 0; }
    full=no
    if grep -q 'loading it in full' "$work/$name.$n.msg"; then
        full=yes
        kind='refresh (reloaded in full)'
    fi
    printf 'step %s %s @ %s%s: %s %s s in fixes_load (%s s wall); fresh load %s s\n' \
        "$n" "$name" "$ref" "${pat:+, release_pattern '$pat'}" "$kind" "$(seconds_of "$work/$name.$n")" "$tw" "$(seconds_of "$work/$fresh")"
    printf '    counts (commits releases edges resolved): refresh %s, fresh %s\n' \
        "$(counts_of "$work/$name.$n")" "$(counts_of "$work/$fresh")"
    printf '    rows written by the %s: %s\n' "$kind" "$(writes_of "$work/$name.$n")"
    printf '    old edges whose resolution changed: %s\n' "$(changed_edges "$name")"
    printf '    ids of old commits: %s\n' "$(ids_read "$work/$name.$n")"
    MARKS=$(marks_read "$work/$name.$n")
    printf '    releases of old commits: %s (%s)\n' "$MARKS" "$(tr '\n' ';' <"$work/$name.$n.marks")"
    EDGES=$(edges_read "$work/$name.$n")
    printf '    old edges read: %s (%s)\n' "$EDGES" "$(tr '\n' ';' <"$work/$name.$n.edges")"
    sed 's/^/    server: /' "$work/$name.$n.msg"
    [ "$(counts_of "$work/$name.$n")" = "$(counts_of "$work/$fresh")" ] ||
        fail "step $n: fixes_load returned other counts for $name than for $fresh"
    compare "$name" "$fresh" || fail "step $n: $name differs from a fresh load ($fresh)"
    # no row of any table breaks a NOT NULL or CHECK constraint (issue 29), whatever the load was
    local broken
    broken=$(psql_q -At -F ' ' -f "$top/test/lib/ext-constraints.sql" | grep -v '^checked' || true)
    [ -z "$broken" ] || fail "step $n: rows break their table's constraints: $broken"
    FULL=$full
    NF_EDGES=-
    if [ -z "$STABLE" ] && [ "$FILES" = true ]; then
        twin "$@"
        # files add no old edge to read, unless the per-group counts are computed again (the
        # stored ones unusable, old commits attributed again: the medians need every edge)
        if [ "$EDGES" = all ] && [ "$NF_EDGES" = some ] &&
           ! grep -q 'per-group counts are computed again' "$work/$name.$n.edges"; then
            fail "step $n: $name read old edges: $EDGES, without files: $NF_EDGES"
        fi
    fi
}

# twin N NAME PATH REF [PATTERN]: the same step without files, under NAME_nf, against a fresh
# load without files: such a refresh reads only the old edges it needs (refresh/old_edges.c);
# which it read goes to NF_EDGES (edges_read)
twin() {
    local n=$1 name=$2 path=$3 ref=$4 pat=("${@:5}") nf="$2_nf" fresh="$2_nf_fresh_$1"
    psql_q -v name="$name" -v nf="$nf" -v fresh="$fresh" <<'SQL'
DELETE FROM fixes_overrides WHERE repository = :'nf';
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT v.r, fixing_commit, abbrev, target_commit, note
  FROM fixes_overrides, (VALUES (:'nf'), (:'fresh')) AS v(r) WHERE repository = :'name';
SQL
    FILES=false load "$nf" "$path" "$ref" "$work/$nf.$n" "${pat[@]}" || { fail "step $n: fixes_load of $nf failed"; return 0; }
    FILES=false load "$fresh" "$path" "$ref" "$work/$fresh" "${pat[@]}" || { fail "step $n: fixes_load of $fresh failed"; return 0; }
    NF_EDGES=$(edges_read "$work/$nf.$n")
    printf '    without files (%s): %s s, counts %s, fresh %s; old edges read: %s (%s)\n' "$nf" \
        "$(seconds_of "$work/$nf.$n")" "$(counts_of "$work/$nf.$n")" "$(counts_of "$work/$fresh")" \
        "$NF_EDGES" "$(tr '\n' ';' <"$work/$nf.$n.edges")"
    sed 's/^/    server: /' "$work/$nf.$n.msg"
    [ "$(counts_of "$work/$nf.$n")" = "$(counts_of "$work/$fresh")" ] ||
        fail "step $n: fixes_load returned other counts for $nf than for $fresh"
    compare "$nf" "$fresh" || fail "step $n: $nf differs from a fresh load ($fresh)"
}

# check WHAT GOT WANT
check() {
    if [ "$2" = "$3" ]; then
        echo "    ok: $1: $2"
    else
        fail "$1: got '$2', want '$3'"
    fi
}
q() { psql_q -At -F ' ' -P null='-' "$@"; }
edge() {        # edge FIXING_LABEL ABBREV: status method candidates target of that edge of inc
    q -v c="$(id "$1")" -v a="$2" <<'SQL'
SELECT e.status, e.method, e.candidates, e.target_commit
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'inc' AND e.fixing_commit = :'c' AND e.abbrev = :'a';
SQL
}
edge_at() {     # edge_at NAME COMMIT_ID LINE: status method candidates target of that edge
    q -v n="$1" -v c="$2" -v l="$3" <<'SQL'
SELECT e.status, e.method, e.candidates, e.target_commit
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = :'n' AND e.fixing_commit = :'c' AND e.line = :'l';
SQL
}
release_of() {  # release_of COMMIT_ID: its release in inc
    q -v c="$1" <<'SQL'
SELECT c.release FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'inc' AND c.commit_id = :'c';
SQL
}

fresh_db "$db"

clone="$work/releases"
git clone -q --no-hardlinks "$fixtures/releases.git" "$clone"
git -C "$clone" checkout -q -B main origin/main
git -C "$clone" branch -q --set-upstream-to=origin/main main
[ "$(git -C "$clone" rev-parse HEAD)" = "$(id D07)" ] || { fail "the clone's HEAD is not D07"; exit 1; }
echo "== releases.git, cloned to $clone"

# 0..2: older refs first; each one's history is contained in the next
step 0 inc "$clone" v1.0
step 1 inc "$clone" v1.1
[ $FULL = no ] || fail "step 1 reloaded in full"
step 2 inc "$clone" main
[ $FULL = no ] || fail "step 2 reloaded in full"

# 3: a second "net: add socket layer" (D02's edge by subject is now not_found) and a commit
# with the subject D03 quotes (its not_found edge resolves by subject)
next_date
git -C "$clone" commit -q --allow-empty -m 'net: add socket layer' -m 'Again, from scratch.'
next_date
git -C "$clone" commit -q --allow-empty -m 'misc: no such commit' -m 'Now there is one.'
new_misc=$(git -C "$clone" rev-parse HEAD)
step 3 inc "$clone" main
[ $FULL = no ] || fail "step 3 reloaded in full"
check "D02's edge deadbeef1234 (subject now on 2 commits)" "$(edge D02 deadbeef1234)" "not_found - 0 -"
check "D03's edge 0123456789ab (subject now on 1 commit)" "$(edge D03 0123456789ab)" "resolved subject 0 $new_misc"

# 4: v2.1 on the new head (D01..D07 and the new commits are released), v0.9 on the old A04
git -C "$clone" tag v2.1
git -C "$clone" tag v0.9 "$(id A04)"
step 4 inc "$clone" main
[ $FULL = no ] || fail "step 4 reloaded in full"
# v0.9 comes before the old releases: every old commit is marked again, over every parent
check "step 4: the releases of the old commits (v0.9 before v1.0)" "$MARKS" "stored, all parents"
check "release of A04" "$(release_of "$(id A04)")" v0.9
check "release of A05" "$(release_of "$(id A05)")" v1.0
check "release of D01" "$(release_of "$(id D01)")" v2.1
check "release of the new head" "$(release_of "$new_misc")" v2.1
check "fixing_release of D01's edge" "$(q -v c="$(id D01)" <<'SQL'
SELECT e.fixing_release FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'inc' AND e.fixing_commit = :'c';
SQL
)" v2.1

# 5: merge stable-1.0: S01 comes into scope, D04's edge resolves by hash, v1.0.1 is a release
next_date
git -C "$clone" merge -q --no-ff --no-edit -m "Merge branch 'stable-1.0'" origin/stable-1.0
step 5 inc "$clone" main
[ $FULL = no ] || fail "step 5 reloaded in full"
check "D04's edge f32ce4543d47 (S01 merged)" "$(edge D04 f32ce4543d47)" "resolved hash 1 $(id S01)"
check "release of S01" "$(release_of "$(id S01)")" v1.0.1
check "releases of inc" "$(q <<'SQL'
SELECT string_agg(r.tag, ' ' ORDER BY r.release_rank)
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'inc';
SQL
)" "v0.9 v1.0 v1.0.1 v1.1 v2.0 v2.1"

# 6: nothing changed: the same counts, and not one row written (xmin and ctid unchanged)
dump inc "$work/dump.before"
step 6 inc "$clone" main
[ $FULL = no ] || fail "step 6 reloaded in full"
dump inc "$work/dump.after"
check "counts of an unchanged refresh" "$(counts_of "$work/inc.6")" "$(counts_of "$work/inc.5")"
if diff -u "$work/dump.before" "$work/dump.after" >"$work/dump.diff"; then
    echo "    ok: every row of inc unchanged, not rewritten ($(wc -l <"$work/dump.before") lines of dump)"
else
    fail "an unchanged refresh changed or rewrote rows:"
    head -n 40 "$work/dump.diff"
fi
check "rows of fixes_commits, fixes_edges, fixes_graph, fixes_trailers written by an unchanged refresh" \
    "$(writes_of "$work/inc.6" | tr ',' '\n' | sed 's/^ *//' | grep -E '^fixes_(commits|edges|graph|trailers) ' | paste -sd, - | sed 's/,/, /g')" \
    "fixes_commits +0 ~0 -0, fixes_edges +0 ~0 -0, fixes_graph +0 ~0 -0, fixes_trailers +0 ~0 -0"

# 7: history rewritten: main back to v2.0 (C11) and one other commit on it; the previous head
#    is pruned, so that the reader has no previous head to walk from (it hides nothing)
old_head=$(git -C "$clone" rev-parse HEAD)
git -C "$clone" reset -q --hard "$(id C11)"
next_date
git -C "$clone" commit -q --allow-empty -m 'core: fix cache again' \
    -m 'Fixes: 6bec6e91e08e ("core: rework cache")'
git -C "$clone" reflog expire --expire=now --all
git -C "$clone" gc -q --prune=now
check "step 7: the previous head is pruned" \
    "$(git -C "$clone" cat-file -e "$old_head" 2>/dev/null && echo there || echo pruned)" pruned
step 7 inc "$clone" main
check "step 7 reloaded in full, with a NOTICE" "$FULL" yes

# 8: the release pattern changes, nothing else: only v1.N tags are releases (v2.0's commits
#    become unreleased, v0.9 is no release either); 9: the default pattern again, one more commit
step 8 inc "$clone" main '^v1\.[0-9]+$'
[ $FULL = no ] || fail "step 8 reloaded in full"
check "releases of inc with release_pattern '^v1\\.[0-9]+\$'" "$(q <<'SQL'
SELECT string_agg(r.tag, ' ' ORDER BY r.release_rank)
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'inc';
SQL
)" "v1.0 v1.1"
check "release of C11 with release_pattern '^v1\\.[0-9]+\$'" "$(release_of "$(id C11)")" -
next_date
git -C "$clone" commit -q --allow-empty -m 'docs: note the new pattern'
step 9 inc "$clone" main
[ $FULL = no ] || fail "step 9 reloaded in full"
check "release of C11 with the default pattern" "$(release_of "$(id C11)")" v2.0

# 10, 11 (another name): a 7-hex abbrev that names one commit in scope, until a second commit
# with the same 7 hex digits comes into scope: X and Y of releases.git share 20b3d33.
# 10 branch slab-fix = X + a commit F with "Fixes: 20b3d33 (subject of X)" and "Fixes: 20b3d33":
#    Y is not in scope, both edges resolve by hash to X
# 11 branch collide = slab-fix merged with page-alloc (Y): the first edge becomes
#    resolved/hash+subject, the second ambiguous
git -C "$clone" checkout -q -b slab-fix "$(id X)"
next_date
git -C "$clone" commit -q --allow-empty -m 'mm: fix slab allocator again' \
    -m "$(printf 'Fixes: 20b3d33 ("mm: add slab allocator")\nFixes: 20b3d33')"
fix_x=$(git -C "$clone" rev-parse HEAD)
git -C "$clone" checkout -q -b collide
next_date
git -C "$clone" merge -q --no-ff --no-edit -m "Merge branch 'page-alloc'" origin/page-alloc
git -C "$clone" checkout -q main
step 10 collide "$clone" slab-fix
check "F's edge 20b3d33 (\"mm: add slab allocator\"), Y not in scope" "$(edge_at collide "$fix_x" 3)" "resolved hash 1 $(id X)"
check "F's edge 20b3d33, Y not in scope" "$(edge_at collide "$fix_x" 4)" "resolved hash 1 $(id X)"
step 11 collide "$clone" collide
[ $FULL = no ] || fail "step 11 reloaded in full"
check "F's edge 20b3d33 (\"mm: add slab allocator\"), Y in scope" "$(edge_at collide "$fix_x" 3)" "resolved hash+subject 2 $(id X)"
check "F's edge 20b3d33, Y in scope" "$(edge_at collide "$fix_x" 4)" "ambiguous - 2 -"

# stable branches: a copy of stable.git (bare; git plumbing makes the new commits)
if [ -d "$fixtures/stable.git" ]; then
    st="$work/stable.git"
    cp -a "$fixtures/stable.git" "$st"
    sid() { awk -F'\t' -v l="$1" '$1 == "stable.git" && $2 == l {print $3}' "$fixtures/ids.tsv"; }
    stq() {     # stq SQL: one value about repository st
        q <<<"$1"
    }
    echo "== stable.git, copied to $st"
    STABLE='^refs/(heads|remotes/origin)/stable-'
    step s0 st "$st" main
    check "stable commits of st" "$(stq "SELECT count(*) FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st' AND NOT c.mainline")" 13
    # s1: a backport of M15 on stable-1.0
    next_date
    bp=$(git --git-dir="$st" commit-tree "$(sid S08)^{tree}" -p "$(sid S08)" \
        -m 'net: fix socket timeout' -m "commit $(sid M15) upstream.")
    git --git-dir="$st" update-ref refs/heads/stable-1.0 "$bp"
    step s1 st "$st" main
    [ $FULL = no ] || fail "step s1 reloaded in full"
    # queued (issue 29): no release has the backport yet, the row names it
    check "M15's row in series v1.0 (backport unreleased: queued)" "$(stq "SELECT coalesce(fixed_in, '-') || ' ' || coalesce(fix_backport, '-') FROM fixes_affected WHERE repository = 'st' AND series = 'v1.0' AND fixing_commit = '$(sid M15)'")" "- $bp"
    # s2: a stable tag on it
    git --git-dir="$st" tag v1.0.3 "$bp"
    step s2 st "$st" main
    [ $FULL = no ] || fail "step s2 reloaded in full"
    check "M15's row in series v1.0 (backport in v1.0.3)" "$(stq "SELECT coalesce(fixed_in, '-') || ' ' || coalesce(fix_backport, '-') FROM fixes_affected WHERE repository = 'st' AND series = 'v1.0' AND fixing_commit = '$(sid M15)'")" "v1.0.3 $bp"
    # s3: stable-0.9 stops matching
    git --git-dir="$st" update-ref refs/heads/old-0.9 "$(sid P01)"
    git --git-dir="$st" update-ref -d refs/heads/stable-0.9
    step s3 st "$st" main
    [ $FULL = no ] || fail "step s3 reloaded in full"
    check "stable releases of st" "$(stq "SELECT string_agg(release, ' ' ORDER BY release) FROM fixes_per_stable_release WHERE repository = 'st'")" "v0.0.1 v1.0.1 v1.0.2 v1.0.3 v1.1.1"
    # s4: a new mainline commit: new mainline ids take the place of the old stable ones
    next_date
    mc=$(git --git-dir="$st" commit-tree "$(sid M15)^{tree}" -p "$(sid M15)" \
        -m 'core: fix parser once more' -m "Fixes: $(sid M02 | cut -c1-12) (\"core: add parser\")")
    git --git-dir="$st" update-ref refs/heads/main "$mc"
    step s4 st "$st" main
    [ $FULL = no ] || fail "step s4 reloaded in full"
    # s5: nothing changed
    dump st "$work/st.before"
    step s5 st "$st" main
    dump st "$work/st.after"
    if diff -q "$work/st.before" "$work/st.after" >/dev/null; then
        echo "    ok: every row of st unchanged, not rewritten"
    else
        fail "an unchanged refresh with stable branches rewrote rows:"
        diff -u "$work/st.before" "$work/st.after" | head -n 20
    fi
    # s6: without stable_branches
    STABLE=
    step s6 st "$st" main
    check "stable rows left in st" "$(stq "SELECT (SELECT count(*) FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st' AND NOT c.mainline) + (SELECT count(*) FROM fixes_backports b JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st') + (SELECT count(*) FROM fixes_affected_series a JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'st')")" 0
else
    echo "note: $fixtures/stable.git not found: the stable-branch steps are skipped"
fi

# 12 (issue 16): trailers and reverts in new commits.  N1 adds a feature, N2 fixes it and the
# old C01 (and carries syzbot and stable trailers, one folded), N3 reverts N1 (a new commit),
# N4 reverts the old C01, in the kernel's form with the subject in parentheses
next_date
git -C "$clone" commit -q --allow-empty -m 'net: add offload' \
    -m "$(printf 'Reviewed-by: Rita Reviewer <rita@example.org>\nSigned-off-by: Ida Incremental <ida@example.org>')"
n1=$(git -C "$clone" rev-parse HEAD)
next_date
git -C "$clone" commit -q --allow-empty -m 'net: fix offload' \
    -m "$(printf 'Fixes: %s ("net: add offload")\nFixes: %s\nReported-by: syzbot+feed@syzkaller.appspotmail.com\nLink: https://example.org/offload\n  /bug\nCc: stable@vger.kernel.org\nSigned-off-by: Ida Incremental <ida@example.org>' "${n1:0:12}" "$(id C01 | cut -c1-12)")"
n2=$(git -C "$clone" rev-parse HEAD)
next_date
git -C "$clone" commit -q --allow-empty -m 'Revert "net: add offload"' -m "This reverts commit $n1." \
    -m 'Signed-off-by: Ida Incremental <ida@example.org>'
next_date
git -C "$clone" commit -q --allow-empty -m 'Revert "core: rework cache"' \
    -m "This reverts commit $(id C01 | cut -c1-12) (core: rework cache)." \
    -m 'Acked-by: Max Maintainer <max@example.org>'
n4=$(git -C "$clone" rev-parse HEAD)
step 12 inc "$clone" main
[ $FULL = no ] || fail "step 12 reloaded in full"
check "reverted commits of inc" "$(q <<'SQL'
SELECT string_agg(subject || ' by ' || left(reverted_by, 7) || ' in ' || coalesce(reverted_in, '-'), '; '
                  ORDER BY reverted_at)
  FROM fixes_reverted_commits WHERE repository = 'inc';
SQL
)" "net: add offload by $(git -C "$clone" rev-parse --short=7 HEAD~1) in -; core: rework cache by ${n4:0:7} in -"
check "trailers of N2" "$(q -v c="$n2" <<'SQL'
SELECT string_agg(t.key || '=' || t.value, '; ' ORDER BY t.position)
  FROM fixes_trailers t JOIN fixes_commits c USING (repository_id, commit_idx)
  JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'inc' AND c.commit_id = :'c';
SQL
)" "Fixes=${n1:0:12} (\"net: add offload\"); Fixes=$(id C01 | cut -c1-12); Reported-by=syzbot+feed@syzkaller.appspotmail.com; Link=https://example.org/offload /bug; Cc=stable@vger.kernel.org; Signed-off-by=Ida Incremental <ida@example.org>"

# 13: v3.0 on the head: the unreleased tail is released: the commits of steps 7 (a fix of C01)
# and 9, and N1..N4
git -C "$clone" tag v3.0
step 13 inc "$clone" main
[ $FULL = no ] || fail "step 13 reloaded in full"
# v3.0 comes after the old releases: the old commits keep their stored releases but the tail
check "step 13: the releases of the old commits (v3.0 after the others)" "$MARKS" stored
# the rows of the unreleased tail were written with room on their pages (bulk_insert.c): each
# update of their release is HOT, without new index entries
check "updates of fixes_commits when v3.0 releases the tail, and the HOT ones" \
    "$(hot_of "$work/inc.13")" "6 6"
check "v3.0 in fixes_per_release (commits, tagged, fixing earlier, reverts)" "$(q <<'SQL'
SELECT commits, tagged_commits, fixing_earlier_commits, reverts FROM fixes_per_release
 WHERE repository = 'inc' AND release = 'v3.0';
SQL
)" "6 2 2 2"
check "v3.0's reported-by in fixes_trailers_per_release" "$(q <<'SQL'
SELECT commits, fixing_commits FROM fixes_trailers_per_release
 WHERE repository = 'inc' AND release = 'v3.0' AND key = 'reported-by';
SQL
)" "1 1"

# 14: fixes_overrides changes, nothing else: N2's line into N1 is pointed at B01, its line
# into C01 ignored (N2 stays a fixing commit), N4's revert pointed at A05, and the only line of
# step 7's commit (v3.0) ignored: it is no fixing commit any more, in fixes_per_release and in
# fixes_trailers_per_release
psql_q -v n2="$n2" -v n4="$n4" -v n1="${n1:0:12}" -v c01="$(id C01 | cut -c1-12)" \
    -v b01="$(id B01)" -v a05="$(id A05)" <<'SQL'
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note) VALUES
    ('inc', :'n2', :'n1', :'b01', 'step 14'),
    ('inc', :'n2', :'c01', NULL, 'step 14'),
    ('inc', :'n4', :'c01', :'a05', 'step 14');
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT 'inc', c.commit_id, '6bec6e91e08e', NULL, 'step 14'
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'inc' AND c.subject = 'core: fix cache again';
SQL
step 14 inc "$clone" main
[ $FULL = no ] || fail "step 14 reloaded in full"
check "N2's edges after the overrides" "$(q -v c="$n2" <<'SQL'
SELECT string_agg(concat_ws('/', e.status, e.method, left(e.target_commit, 7)), ' ' ORDER BY e.line)
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'inc' AND e.fixing_commit = :'c';
SQL
)" "resolved/override/$(id B01 | cut -c1-7) ignored"
check "counts of inc after the overrides (commits releases edges resolved)" \
    "$(counts_of "$work/inc.14" | cut -d' ' -f3-)" \
    "$(($(counts_of "$work/inc.13" | cut -d' ' -f3) - 2)) $(($(counts_of "$work/inc.13" | cut -d' ' -f4) - 2))"
check "v3.0's fixes key in fixes_trailers_per_release (commits, fixing commits)" "$(q <<'SQL'
SELECT commits, fixing_commits FROM fixes_trailers_per_release
 WHERE repository = 'inc' AND release = 'v3.0' AND key = 'fixes';
SQL
)" "2 1"

# 15: nothing changed, overrides included: not one row written
dump inc "$work/dump15.before"
step 15 inc "$clone" main
dump inc "$work/dump15.after"
if diff -u "$work/dump15.before" "$work/dump15.after" >"$work/dump15.diff"; then
    echo "    ok: every row of inc unchanged, not rewritten ($(wc -l <"$work/dump15.before") lines of dump)"
else
    fail "an unchanged refresh (with overrides) changed or rewrote rows:"
    head -n 40 "$work/dump15.diff"
fi

# 16: the ignore is taken back, a target moves: the edges follow
psql_q -v n2="$n2" -v c01="$(id C01 | cut -c1-12)" -v n1="${n1:0:12}" -v a02="$(id A02)" <<'SQL'
DELETE FROM fixes_overrides WHERE repository = 'inc' AND fixing_commit = :'n2' AND abbrev = :'c01';
UPDATE fixes_overrides SET target_commit = :'a02'
 WHERE repository = 'inc' AND fixing_commit = :'n2' AND abbrev = :'n1';
SQL
step 16 inc "$clone" main
[ $FULL = no ] || fail "step 16 reloaded in full"
check "N2's edges after the second change" "$(q -v c="$n2" <<'SQL'
SELECT string_agg(concat_ws('/', e.status, e.method, left(e.target_commit, 7)), ' ' ORDER BY e.line)
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'inc' AND e.fixing_commit = :'c';
SQL
)" "resolved/override/$(id A02 | cut -c1-7) resolved/hash/$(id C01 | cut -c1-7)"

# 17, 18 (name 'big'): 70,000 empty commits, more than one row of fixes_graph (65,536 commits
# each).  A refresh reads the subject hashes of the rows before the last only when a Fixes line
# compares subjects: here a new commit has one whose abbrev names nothing and one whose 6-hex
# abbrev names two old commits, each quoting the subject of a commit in row 0.  A release v1.0
# on main and one v2.0 on the new commit: no commit of row 0 is unreleased, so the refresh reads
# the parents of row 1 only (the last, short of 65,536 commits), and marks the new commit alone.
big="$work/big.git"
git init -q --bare "$big"
python3 - "$when" <<'PY' | git --git-dir="$big" fast-import --quiet
import sys
when = int(sys.argv[1]) + 10 ** 6
out = sys.stdout.buffer
for i in range(1, 70001):
    msg = b"big: change %d\n" % i
    out.write(b"commit refs/heads/main\nmark :%d\n" % i)
    out.write(b"committer Max Maintainer <max@example.org> %d +0000\n" % (when + 60 * i))
    out.write(b"data %d\n%s" % (len(msg), msg))
    if i > 1:
        out.write(b"from :%d\n" % (i - 1))
    out.write(b"\n")
PY
git --git-dir="$big" log --format='%H %s' main >"$work/big.ids"
# two commits of row 0 (the 65,536 newest) whose ids share their first 6 hex digits
pair=$(awk '$4 > 4464 {print substr($1, 1, 6), $1, $4}' "$work/big.ids" | sort |
    awk '$1 == p && !done {print p, pid, pn, $2, $3; done = 1} {p = $1; pid = $2; pn = $3}')
read -r six id_a n_a id_b n_b <<<"$pair"
[ -n "$n_b" ] || { fail "no two ids of big.git share 6 hex digits"; exit 1; }
nothing=ffffffffffff
! grep -q "^$nothing" "$work/big.ids" || nothing=eeeeeeeeeeee
git --git-dir="$big" tag v1.0 main
step 17 big "$big" main
next_date
fix_big=$(git --git-dir="$big" commit-tree 'main^{tree}' -p main -m 'big: fix two changes' \
    -m "$(printf 'Fixes: %s ("big: change 60000")\nFixes: %s ("big: change %s")' "$nothing" "$six" "$n_a")")
git --git-dir="$big" update-ref refs/heads/grown "$fix_big"
git --git-dir="$big" tag v2.0 "$fix_big"
step 18 big "$big" grown
[ $FULL = no ] || fail "step 18 reloaded in full"
check "step 18: the releases of the old commits" "$MARKS ($(grep '^parents of' "$work/big.18.marks"))" \
    "stored (parents of 1 of 2 fixes_graph rows read)"
check "a Fixes line naming nothing, by the subject of a commit of row 0" \
    "$(edge_at big "$fix_big" 3)" "resolved subject 0 $(awk '$4 == 60000 {print $1}' "$work/big.ids")"
check "a 6-hex abbrev of two commits of row 0, with the subject of one" \
    "$(edge_at big "$fix_big" 4)" "resolved hash+subject 2 $id_a"

# 19, 20 (name 'olddates'): a refresh that merges a branch of 1,100 commits dated before every
# commit loaded before (refresh/old_ids.c): each could be an old commit that clock skew sends again, so
# each is to be looked up; more than 1,024 of them cost more than reading every id, which the
# refresh does instead, and still equals a fresh load
od="$work/olddates.git"
git init -q --bare "$od"
python3 - "$when" <<'PY' | git --git-dir="$od" fast-import --quiet
import sys
when = int(sys.argv[1]) + 2 * 10 ** 6
out = sys.stdout.buffer
def commit(mark, ref, t, msg, parents):
    out.write(b"commit %s\nmark :%d\n" % (ref, mark))
    out.write(b"committer Max Maintainer <max@example.org> %d +0000\n" % t)
    out.write(b"data %d\n%s" % (len(msg), msg))
    for i, p in enumerate(parents):
        out.write(b"%s :%d\n" % (b"from" if i == 0 else b"merge", p))
    out.write(b"\n")
for i in range(1, 1201):            # main: 1..1200, an hour apart
    commit(i, b"refs/heads/main", when + 3600 * i, b"main: change %d\n" % i, [i - 1] if i > 1 else [])
for i in range(1, 1101):            # side, from main's first commit, dated before main's second
    commit(2000 + i, b"refs/heads/side", when + 1 + i, b"side: change %d\n" % i, [2000 + i - 1 if i > 1 else 1])
commit(5000, b"refs/heads/merged", when + 3600 * 1300, b"Merge side\n", [1200, 3100])
PY
step 19 olddates "$od" main
step 20 olddates "$od" merged
[ $FULL = no ] || fail "step 20 reloaded in full"
check "a refresh with 1,101 new commits dated before the previous load's newest: the old commits' ids" \
    "$(ids_read "$work/olddates.20")" read

# the 20000-commit make-history repository, by tags
if [ -f "$mh" ]; then
    repo=$(make_history_repo $commits)
    echo "== make-history --commits $commits: $repo, with its MAINTAINERS"
    MAINT=MAINTAINERS
    n=0
    # the ids of the old commits (refresh/old_ids.c): every one read at v2.2 (no list asked for), every
    # one read at v2.3 (the list of its new commits is longer than 1 kB, 35 commits), looked up
    # at HEAD and in the daily refreshes below
    for ref in v2.1 v2.2 v2.3 HEAD; do
        case $ref in v2.2) LIST_LIMIT=0 ;; v2.3) LIST_LIMIT=1kB ;; *) LIST_LIMIT= ;; esac
        step $n mh "$repo" $ref
        LIST_LIMIT=
        if [ $n -gt 0 ] && [ $FULL != no ]; then
            fail "make-history step $n reloaded in full"
        fi
        case $ref in
            v2.2) check "make-history: the old commits' ids at v2.2, list limit 0" "$(ids_read "$work/mh.$n")" read ;;
            v2.3) check "make-history: the old commits' ids at v2.3, list limit 1kB" "$(ids_read "$work/mh.$n")" "over, read" ;;
            HEAD) check "make-history: the old commits' ids at HEAD" "$(ids_read "$work/mh.$n")" "looked up" ;;
        esac
        q <<'SQL'
SELECT '    edges of mh: ' || string_agg(format('%s %s', concat_ws('/', status, method), n), ', '
                                         ORDER BY status, method)
  FROM (SELECT e.status, e.method, count(*) AS n
          FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
         WHERE p.name = 'mh' GROUP BY 1, 2) t;
SQL
        n=$((n + 1))
    done
    # a release tag on the head: the unreleased tail moves to it, and each update of its
    # release is HOT (its rows were written on pages kept half empty, bulk_insert.c)
    git clone -q --mirror --shared "$repo" "$work/mh-tagged.git"
    git -C "$work/mh-tagged.git" tag v99.0 HEAD
    step $n mh "$work/mh-tagged.git" HEAD
    tail=$(q <<<"SELECT commits FROM fixes_per_release WHERE repository = 'mh' AND release = 'v99.0'")
    check "make-history: updates of fixes_commits when v99.0 releases the tail, and the HOT ones" \
        "$(hot_of "$work/mh.$n")" "$tail $tail"
    # and the edges of the tail's commits were kept apart too (load_write_edges.c)
    read -r eupd ehot <<<"$(ehot_of "$work/mh.$n")"
    if [ "${eupd:-0}" -gt 0 ] && [ "$eupd" = "$ehot" ]; then
        echo "    ok: make-history: $eupd updates of fixes_edges when v99.0 releases the tail, all HOT"
    else
        fail "make-history: updates of fixes_edges when v99.0 releases the tail: $eupd, HOT: $ehot"
    fi
    # daily refreshes (issue 31): +200 commits and a tag, twice (bench/grow-history: Fixes lines
    # into the newest commits, old releases included, merges with old parents).  The refresh
    # computes the counts of the releases it changes and keeps the others'; fixes_graph gets a
    # row of the new commits, and the second refresh writes both rows of 200 again as one
    if [ -f "$top/bench/grow-history" ]; then
        for seed in 1 2; do
            n=$((n + 1))
            python3 "$top/bench/grow-history" "$work/mh-tagged.git" 200 --seed $seed \
                --tag "v99.0.$seed" >/dev/null
            step $n mh "$work/mh-tagged.git" HEAD
            [ $FULL = no ] || fail "make-history: daily refresh $seed reloaded in full"
            check "make-history: daily refresh $seed: the old commits' ids" "$(ids_read "$work/mh.$n")" "looked up"
            check "make-history: daily refresh $seed: the releases of the old commits" "$MARKS" stored
            # with files, the old edges it needs as without: the medians merge the lifetimes
            # of the edges that changed into the stored ones
            check "make-history: daily refresh $seed: the old edges read, with files as without" "$EDGES" "$NF_EDGES"
            # the per-group counts: only the groups it changes are written again, the stored
            # rows of the others kept (rows deleted: fewer than the rows before, and as many
            # as those inserted less the new groups)
            for t in fixes_path_prefix_counts fixes_subsystem_counts; do
                read -r ins del <<<"$(writes_of "$work/mh.$n" | tr ',' '\n' |
                    awk -v t=$t '$1 == t {print substr($2, 2), substr($4, 2)}')"
                rows=$(q -v t=$t <<'SQL'
SELECT count(*) FROM fixes_repositories p, LATERAL (
  SELECT 1 FROM fixes_path_prefix_counts c WHERE :'t' = 'fixes_path_prefix_counts'
     AND c.repository_id = p.repository_id
  UNION ALL
  SELECT 1 FROM fixes_subsystem_counts c WHERE :'t' = 'fixes_subsystem_counts'
     AND c.repository_id = p.repository_id) x
 WHERE p.name = 'mh';
SQL
)
                if [ "${ins:-0}" -gt 0 ] && [ "${del:-0}" -le "$ins" ] &&
                   [ $((rows - ins + del)) -gt "$del" ]; then
                    echo "    ok: make-history: daily refresh $seed: $t: $ins rows written," \
                        "$del deleted, $((rows - ins)) of $rows kept"
                else
                    fail "make-history: daily refresh $seed: $t: $ins rows written, $del deleted of $((rows - ins + del))"
                fi
            done
        done
        check "make-history: the commits of the last row of fixes_graph after two daily refreshes" \
            "$(q <<'SQL'
SELECT g.commits FROM fixes_graph g JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'mh' ORDER BY g.chunk DESC LIMIT 1;
SQL
)" 400
    fi
    # the stored releases damaged (the first commit's rank -1): a refresh (a new tag after the
    # others) does not trust them, marks every commit over every parent, writes them again,
    # and equals a fresh load
    n=$((n + 1))
    q <<'SQL' >/dev/null
UPDATE fixes_graph g SET releases = overlay(g.releases PLACING '\xffffffff'::bytea FROM 1)
  FROM fixes_repositories p WHERE p.repository_id = g.repository_id AND p.name = 'mh' AND g.chunk = 0;
SQL
    git -C "$work/mh-tagged.git" tag v99.0.9 HEAD~1
    step $n mh "$work/mh-tagged.git" HEAD
    [ $FULL = no ] || fail "make-history: a refresh over damaged releases reloaded in full"
    check "make-history: a refresh over damaged releases marks every commit" \
        "$MARKS $(grep -c '^the stored releases of the old commits disagree' "$work/mh.$n.marks")" \
        "stored, all parents 1"
    # the stored graph damaged (chunk 0 four bytes short of its parent links, and its releases
    # gone, so that its parents are read): a refresh (a new tag) says so, loads in full, and
    # equals a fresh load
    n=$((n + 1))
    q <<'SQL' >/dev/null
UPDATE fixes_graph g SET parents = substring(g.parents FROM 5), releases = NULL
  FROM fixes_repositories p WHERE p.repository_id = g.repository_id AND p.name = 'mh' AND g.chunk = 0;
SQL
    git -C "$work/mh-tagged.git" tag v99.1 HEAD~1
    step $n mh "$work/mh-tagged.git" HEAD
    check "make-history: a refresh over a damaged graph loads in full" "$FULL" yes
else
    echo "note: $mh not found (a clone without ../shared/bench): the 20000-commit steps are skipped"
fi

finish $rc
