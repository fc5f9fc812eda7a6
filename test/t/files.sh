#!/bin/bash
# files.sh — fixes_load(files => true, maintainers => ...) against git (test/oracles/files-oracle.py):
# every row of fixes_commit_files equals `git log --numstat --no-renames`, the sums of
# fixes_commits agree, and fixes_commit_subsystems equals an independent implementation of
# the MAINTAINERS rules; on the fixtures files.git and partial.git (a blob:none partial
# clone: nothing may be fetched), and on a 20000-commit make-history repository, loaded in
# full and as a refresh (its first load stops 300 first-parent commits short of HEAD).
# After each load, the answers the load stored for fixes_per_subsystem and
# fixes_per_path_prefix (depths 1 to 4) equal the query-time computation of
# test/oracles/answers-oracle.sql, also after a refresh under a changed MAINTAINERS and after one
# whose kept groups (fixes_commit_groups, the prefix numbering) are unusable, and over 17
# refreshes, whose rows of fixes_commit_groups are written again as one at the 16th.
# Subsystems of their time (issue 30): subsys.git, whose MAINTAINERS and paths change across
# releases, loaded fresh, and refreshed tag by tag (v1, v2, v3, main: each refresh attributes
# new commits of a new release by its file, which at v2 and v3, the ref's own commit, is the
# ref's file and not read again: DEBUG1); then a clone of it gains a tag v4 on u02 (the
# unreleased u01, u02 move to v4, whose file differs from HEAD's: only they are attributed again)
# and loses it again (a section name, TOOLS NEW, is no longer in use: all again); each against
# the oracle, whose releases follow test/oracles/crosscheck.py's rule (the same with release_pattern
# '^v[1-9]', whose oldest release has the file: a refresh reads only the files it needs, v4's
# alone, DEBUG1); and in
# a database whose SQL is
# at 1.1, where every commit is attributed by HEAD's file as 1.1 did, and again after ALTER
# EXTENSION fixes UPDATE (the next load attributes them anew) (own database fixes_t_files11); and
# a blob:none partial clone of it with HEAD's file only (the releases' missing files count as none).
# Own scratch database fixes_t_files, dropped again on success.
# Exit 0 pass, 1 fail, 77 skip (neither fixtures nor make-history).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_files
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
oracle() { PGDATABASE=$db python3 "$top/test/oracles/files-oracle.py" "$@"; }
packs() { find "$1/objects" -type f | sort | md5sum; }
# answers NAME: the stored per-subsystem and per-prefix answers of NAME are the query-time ones
answers() {
    local out
    out=$(psql_q -At -v r="$1" -f "$top/test/oracles/answers-oracle.sql" 2>&1) || true
    echo "$out" | sed 's/^/    /'
    if [ -z "$out" ] || echo "$out" | grep -vq ': 0 of [0-9]'; then
        echo "FAIL: the stored answers of $1 are not the query-time ones"
        fail=1
    fi
}

have_fx=1
[ -d "$fixtures/files.git" ] || have_fx=0
have_mh=1
[ -f "$mh" ] || have_mh=0
if [ $have_fx = 0 ] && [ $have_mh = 0 ]; then
    echo "SKIP: no $fixtures/files.git and $mh not found (a clone without ../shared/bench)"
    exit 77
fi
fresh_db "$db"
fail=0

if [ $have_fx = 1 ]; then
    before=$(packs "$fixtures/partial.git")
    psql_q -At -v fx="$fixtures" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL\|^HINT'
SELECT repository, commits FROM fixes_load(:'fx' || '/files.git', files => true, maintainers => 'MAINTAINERS');
SELECT repository, commits FROM fixes_load(:'fx' || '/partial.git', files => true, maintainers => 'MAINTAINERS');
SQL
    oracle --repo "$fixtures/files.git" --name files --maintainers MAINTAINERS || fail=1
    answers files
    oracle --repo "$fixtures/partial.git" --full "$fixtures/files.git" --name partial \
        --maintainers MAINTAINERS || fail=1
    answers partial
    if [ "$(packs "$fixtures/partial.git")" != "$before" ]; then
        echo "FAIL: the load of partial.git changed its object database (a fetch?)"
        fail=1
    fi

    # a refresh after a commit that changes MAINTAINERS: only the new commit is read, and
    # every commit is attributed again under the new file
    work=$(mktemp -d /tmp/fixes-t-files.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    git clone -q "$fixtures/files.git" "$work/m"
    chmod -R a+rX "$work"
    psql_q -At -v path="$work/m" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT repository, commits FROM fixes_load(:'path', name => 'mchange', files => true, maintainers => 'MAINTAINERS');
SQL
    printf '\nEXT4 INODES\nF:\tfs/ext4/inode.c\n\nIPV4 OFF\nF:\tnet/ipv4/t*\nX:\tnet/\n' >>"$work/m/MAINTAINERS"
    git -C "$work/m" -c user.name=T -c user.email=t@example.org commit -q -am "MAINTAINERS: two sections more"
    chmod -R a+rX "$work"
    got=$(psql_q -At -v path="$work/m" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
BEGIN;
SELECT commits FROM fixes_load(:'path', name => 'mchange');
SELECT n_tup_ins FROM pg_stat_xact_user_tables WHERE relname = 'fixes_commits';
COMMIT;
SQL
)
    if [ "$(echo $got)" != "20 1" ]; then
        echo "FAIL: the refresh after a change of MAINTAINERS: got \"$(echo $got)\", want \"20 1\" (commits, commits written)"
        fail=1
    fi
    oracle --repo "$work/m" --name mchange --maintainers MAINTAINERS || fail=1
    answers mchange

    # a refresh whose kept groups are unusable (no rows of fixes_commit_groups, a gap in the
    # numbering of the prefixes): they are read again from fixes_commit_subsystems and
    # fixes_commit_files, and written again for every commit
    mkdir -p "$work/m/drivers/new"
    echo new >"$work/m/drivers/new/x.c"
    git -C "$work/m" add drivers/new/x.c
    git -C "$work/m" -c user.name=T -c user.email=t@example.org commit -q -m "drivers: a new directory"
    chmod -R a+rX "$work"
    psql_q -At -v path="$work/m" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
DELETE FROM fixes_commit_groups
 WHERE repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = 'mchange');
UPDATE fixes_path_prefix_counts SET prefix_id = prefix_id + 1000
 WHERE repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = 'mchange')
   AND prefix_id = 0;
SELECT format('refresh without kept groups: %s commits', commits) FROM fixes_load(:'path', name => 'mchange');
SQL
    answers mchange

    # 17 refreshes of one commit each: fixes_commit_groups gains a row per kind and refresh,
    # until the 16th row, when the refresh writes them all again as one (a refresh every hour
    # must not read thousands of rows back); the answers stay the query-time ones
    maxrows=0
    for k in $(seq 1 17); do
        echo "change $k" >>"$work/m/drivers/new/x.c"
        git -C "$work/m" -c user.name=T -c user.email=t@example.org commit -q -am "drivers: change $k"
        chmod -R a+rX "$work"
        rows=$(psql_q -At -v path="$work/m" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT count(*) FILTER (WHERE commits > 0) FROM fixes_load(:'path', name => 'mchange');
SELECT max(n) FROM (SELECT count(*) AS n FROM fixes_commit_groups g
                      JOIN fixes_repositories p USING (repository_id)
                     WHERE p.name = 'mchange' GROUP BY g.kind) s;
SQL
)
        rows=$(echo "$rows" | tail -1)
        [ "$rows" -gt "$maxrows" ] && maxrows=$rows
    done
    if [ "$maxrows" != 16 ] || [ "$rows" != 2 ]; then
        echo "FAIL: rows of fixes_commit_groups per kind over 17 refreshes: at most $maxrows, then $rows (want at most 16, then 2)"
        fail=1
    fi
    oracle --repo "$work/m" --name mchange --maintainers MAINTAINERS || fail=1
    answers mchange

    # the stored lifetimes behind the medians (1.2), which a refresh merges the lifetimes of
    # the edges that changed into, reading no other edge: out of order (2.0 then 1.0 as
    # little-endian float8, the server's byte order on CI's x86-64), a refresh that adds an
    # edge into the group says so (a NOTICE, XX001) and loads in full (issue 43); NULL (rows of a load
    # before 1.2), the refresh reads every old edge, counts every group again and stores them
    fixcommit() {   # fixcommit N: a commit whose Fixes: line names HEAD~N
        local t
        t=$(git -C "$work/m" rev-parse HEAD~"$1")
        echo "fix $1" >>"$work/m/drivers/new/x.c"
        git -C "$work/m" -c user.name=T -c user.email=t@example.org commit -q -am "drivers: fix $1" \
            -m "Fixes: ${t:0:12} (\"$(git -C "$work/m" log -1 --format=%s "$t")\")"
        chmod -R a+rX "$work"
    }
    refresh_debug() {
        psql_q -At -v path="$work/m" 2>&1 <<'SQL'
SET client_min_messages = debug1;
SELECT format('mchange refreshed: %s commits', commits) FROM fixes_load(:'path', name => 'mchange');
SQL
    }
    psql_q <<'SQL'
UPDATE fixes_path_prefix_counts SET lifetimes = '\x0000000000000040000000000000f03f'
 WHERE repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = 'mchange');
SQL
    before=$(psql_q -At <<<"SELECT commits FROM fixes_repositories WHERE name = 'mchange'")
    fixcommit 3
    out=$(psql_q -At -v path="$work/m" -v VERBOSITY=verbose 2>&1 <<'SQL' || true
SELECT commits FROM fixes_load(:'path', name => 'mchange');
SQL
)
    after=$(psql_q -At <<<"SELECT commits FROM fixes_repositories WHERE name = 'mchange'")
    # issue 43: the check raises XX001 and fixes_load() loads the repository in full instead
    if echo "$out" | grep -q 'NOTICE:  XX001: the stored state of repository "mchange" does not read back: loading it in full' &&
       echo "$out" | grep -q 'DETAIL:  table fixes_path_prefix_counts of repository "mchange" holds what no load wrote: The lifetimes of group [0-9]* ' &&
       [ "$after" = "$((before + 1))" ]; then
        echo "    ok: a refresh over stored lifetimes out of order: a NOTICE (XX001) and a full load ($before commits, then $after)"
    else
        echo "FAIL: a refresh over stored lifetimes out of order: $out (commits $before, then $after)"
        fail=1
    fi
    oracle --repo "$work/m" --name mchange --maintainers MAINTAINERS || fail=1
    answers mchange
    psql_q <<'SQL'
UPDATE fixes_path_prefix_counts SET lifetimes = NULL
 WHERE repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = 'mchange');
SQL
    fixcommit 4
    out=$(refresh_debug)
    echo "$out" | grep -v '^NOTICE\|^DETAIL\|^DEBUG\|^SET'
    if ! echo "$out" | grep -q 'old edges: every one read (the per-group counts are computed again)'; then
        echo "FAIL: the refresh over lifetimes NULL did not read every old edge"
        fail=1
    fi
    oracle --repo "$work/m" --name mchange --maintainers MAINTAINERS || fail=1
    answers mchange
    # stored again, in order: the next refresh (another edge) reads only the edges it needs
    got=$(psql_q -At <<'SQL'
SELECT count(*) FILTER (WHERE k.lifetimes IS NULL OR length(k.lifetimes) % 8 <> 0), count(*)
  FROM fixes_path_prefix_counts k JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'mchange';
SQL
)
    case "$got" in
        0\|[1-9]*) echo "    ok: the lifetimes stored again: $got (rows without them|rows)" ;;
        *) echo "FAIL: rows of fixes_path_prefix_counts of mchange without lifetimes: $got"; fail=1 ;;
    esac
    fixcommit 5
    out=$(refresh_debug)
    echo "$out" | grep -v '^NOTICE\|^DETAIL\|^DEBUG\|^SET'
    if echo "$out" | grep -q 'old edges: every one read' || ! echo "$out" | grep -q 'old edges: [0-9]* more read'; then
        echo "FAIL: the refresh after the lifetimes were stored again read every old edge: $(echo "$out" | grep 'old edges')"
        fail=1
    fi
    oracle --repo "$work/m" --name mchange --maintainers MAINTAINERS || fail=1
    answers mchange
fi

if [ -d "$fixtures/subsys.git" ]; then
    sx="$fixtures/subsys.git"
    psql_q -At -v path="$sx" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT repository, commits, releases FROM fixes_load(:'path', name => 'subsys', files => true, maintainers => 'MAINTAINERS');
SQL
    oracle --repo "$sx" --name subsys --maintainers MAINTAINERS || fail=1
    answers subsys
    # FOO counts s01 and s06 (v0 and v2) though HEAD's file has no FOO
    got=$(psql_q -At <<<"SELECT string_agg(subsystem || ' ' || commits, ', ' ORDER BY subsystem) FROM fixes_per_subsystem WHERE repository = 'subsys'")
    want="CORE 1, FOO 2, FOO CORE 2, TOOLS 1, X LIBRARY 6"
    if [ "$got" != "$want" ]; then
        echo "FAIL: fixes_per_subsystem of subsys.git: $got, want $want"
        fail=1
    fi
    first=1
    for ref in v1 v2 v3 main; do
        if [ $first = 1 ]; then
            psql_q -At -v path="$sx" -v ref=$ref <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('subsys-r at %s: %s commits', :'ref', commits)
  FROM fixes_load(:'path', :'ref', name => 'subsys-r', files => true, maintainers => 'MAINTAINERS');
SQL
            first=0
        else
            out=$(psql_q -At -v path="$sx" -v ref=$ref <<'SQL' 2>&1
SET client_min_messages = debug1;
SELECT format('subsys-r refreshed at %s: %s commits', :'ref', commits) FROM fixes_load(:'path', :'ref', name => 'subsys-r');
SQL
)
            echo "$out" | grep -v '^NOTICE\|^DETAIL\|^DEBUG\|^SET'
            # the new release is the ref's commit: its MAINTAINERS is the ref's, not read again
            if [ $ref != main ] && ! echo "$out" | grep -q "MAINTAINERS of release $ref is the ref's: not read again"; then
                echo "FAIL: subsys-r refreshed at $ref read the MAINTAINERS of release $ref again"
                fail=1
            fi
        fi
        oracle --repo "$sx" --name subsys-r --ref $ref --maintainers MAINTAINERS || fail=1
        answers subsys-r
    done
    sw=$(mktemp -d /tmp/fixes-t-subsys.XXXXXX)
    git clone -q --bare "$sx" "$sw/s.git"
    chmod -R a+rX "$sw"
    psql_q -At -v path="$sw/s.git" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('subsys-t: %s commits', commits) FROM fixes_load(:'path', name => 'subsys-t', files => true, maintainers => 'MAINTAINERS');
SQL
    u02=$(git -C "$sx" rev-parse main~1)
    for what in tag untag; do
        if [ $what = tag ]; then git -C "$sw/s.git" tag v4 "$u02"; else git -C "$sw/s.git" tag -d v4 >/dev/null; fi
        got=$(psql_q -At -v path="$sw/s.git" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
BEGIN;
SELECT releases FROM fixes_load(:'path', name => 'subsys-t');
SELECT n_tup_ins || ' ' || n_tup_del FROM pg_stat_xact_user_tables WHERE relname = 'fixes_commit_subsystems';
COMMIT;
SQL
)
        # v4 on u02: u02's two rows go and come back (under TOOLS NEW); without it: every row again
        want=$([ $what = tag ] && echo "6 2 2" || echo "5 12 12")
        if [ "$(echo $got)" != "$want" ]; then
            echo "FAIL: subsys-t after the $what of v4: got \"$(echo $got)\", want \"$want\" (releases, rows of fixes_commit_subsystems written and deleted)"
            fail=1
        fi
        oracle --repo "$sw/s.git" --name subsys-t --maintainers MAINTAINERS || fail=1
        answers subsys-t
    done
    # the same with release_pattern '^v[1-9]' (v0 is no release: the oldest release has the file,
    # so the refresh reads only the files of the releases it needs: v4's, as it has the file,
    # the oldest's would be read only for a release without it; DEBUG1)
    git -C "$sw/s.git" tag -d v4 >/dev/null 2>&1 || true
    psql_q -At -v path="$sw/s.git" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('subsys-q: %s commits', commits) FROM fixes_load(:'path', 'v2', '^v[1-9]', 'subsys-q', files => true, maintainers => 'MAINTAINERS');
SELECT format('subsys-q refreshed at main: %s commits', commits) FROM fixes_load(:'path', 'main', '^v[1-9]', 'subsys-q');
SQL
    oracle --repo "$sw/s.git" --name subsys-q --ref main --release-pattern '^v[1-9]' --maintainers MAINTAINERS || fail=1
    git -C "$sw/s.git" tag v4 "$u02"
    out=$(psql_q -At -v path="$sw/s.git" <<'SQL' 2>&1
BEGIN;
SET LOCAL client_min_messages = debug1;
SELECT releases FROM fixes_load(:'path', 'main', '^v[1-9]', 'subsys-q');
RESET client_min_messages;
SELECT n_tup_ins || ' ' || n_tup_del FROM pg_stat_xact_user_tables WHERE relname = 'fixes_commit_subsystems';
COMMIT;
SQL
)
    got=$(echo "$out" | grep -v '^NOTICE\|^DETAIL\|^DEBUG\|^SET\|^RESET')
    # only v4's file: every release it attributes has the file, so not the oldest's (v1) either
    reads=$(echo "$out" | grep -o 'MAINTAINERS read at [0-9]* releases*' || true)
    if [ "$reads" != "MAINTAINERS read at 1 release" ]; then
        echo "FAIL: subsys-q after the tag of v4: \"$reads\", want \"MAINTAINERS read at 1 release\" (v4's)"
        fail=1
    fi
    if [ "$(echo $got)" != "6 2 2" ]; then
        echo "FAIL: subsys-q after the tag of v4: got \"$(echo $got)\", want \"6 2 2\" (releases, rows of fixes_commit_subsystems written and deleted)"
        fail=1
    fi
    oracle --repo "$sw/s.git" --name subsys-q --ref main --release-pattern '^v[1-9]' --maintainers MAINTAINERS || fail=1
    answers subsys-q
    rm -rf "$sw"
    # a database whose SQL is at 1.1 (the 1.2 library): every commit by HEAD's file, as 1.1 did
    db11=fixes_t_files11
    drop_db "$db11"
    createdb "$db11"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db11" -c "CREATE EXTENSION fixes VERSION '1.1'"
    psql -X -q -At -v ON_ERROR_STOP=1 -d "$db11" -v path="$sx" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('subsys at 1.1: %s commits', commits) FROM fixes_load(:'path', name => 'subsys', files => true, maintainers => 'MAINTAINERS');
SQL
    PGDATABASE=$db11 python3 "$top/test/oracles/files-oracle.py" --repo "$sx" --name subsys --maintainers MAINTAINERS \
        --at-ref || fail=1
    # ALTER EXTENSION fixes UPDATE: the next load, nothing else changed, attributes every commit
    # by its release's file
    psql -X -q -At -v ON_ERROR_STOP=1 -d "$db11" -v path="$sx" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
ALTER EXTENSION fixes UPDATE;
SELECT format('subsys updated to 1.2, loaded again: %s commits', commits) FROM fixes_load(:'path', name => 'subsys');
SQL
    PGDATABASE=$db11 python3 "$top/test/oracles/files-oracle.py" --repo "$sx" --name subsys --maintainers MAINTAINERS || fail=1
    [ $fail = 0 ] && PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$db11"
    # a partial clone of it (blob:none) where only HEAD's MAINTAINERS was fetched: the releases'
    # files are missing, which counts as no file (nothing is fetched): every commit by HEAD's
    pw=$(mktemp -d /tmp/fixes-t-subsysp.XXXXXX)
    git clone -q --bare "$sx" "$pw/full.git"
    git -C "$pw/full.git" config uploadpack.allowFilter true
    git -C "$pw/full.git" config uploadpack.allowAnySHA1InWant true
    git clone -q --bare --filter=blob:none "file://$pw/full.git" "$pw/p.git"
    git -C "$pw/p.git" cat-file blob main:MAINTAINERS >/dev/null
    chmod -R a+rX "$pw"
    before=$(packs "$pw/p.git")
    psql_q -At -v path="$pw/p.git" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL\|^HINT\|^WARNING'
SELECT format('subsys, partial clone: %s commits', commits) FROM fixes_load(:'path', name => 'subsys-p', files => true, maintainers => 'MAINTAINERS');
SQL
    oracle --repo "$pw/p.git" --full "$sx" --name subsys-p --maintainers MAINTAINERS --at-ref || fail=1
    if [ "$(packs "$pw/p.git")" != "$before" ]; then
        echo "FAIL: the load of the partial clone of subsys.git changed its object database (a fetch?)"
        fail=1
    fi
    rm -rf "$pw"
fi

if [ $have_mh = 1 ]; then
    repo=$(make_history_repo 20000)
    t0=$(date +%s.%N)
    psql_q -At -v path="$repo" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('full load: %s commits in %s s', commits, round(seconds::numeric, 2))
  FROM fixes_load(:'path', name => 'mh', files => true, maintainers => 'MAINTAINERS');
SQL
    oracle --repo "$repo" --name mh --maintainers MAINTAINERS || fail=1
    answers mh
    # a refresh: first load an older first-parent commit, then HEAD
    old=$(git -C "$repo" rev-parse HEAD~300)
    psql_q -At -v path="$repo" -v old="$old" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('older load: %s commits', commits)
  FROM fixes_load(:'path', :'old', name => 'mh-refresh', files => true, maintainers => 'MAINTAINERS');
SELECT format('refresh: %s commits in %s s', commits, round(seconds::numeric, 2))
  FROM fixes_load(:'path', 'HEAD', name => 'mh-refresh');
SQL
    oracle --repo "$repo" --name mh-refresh --maintainers MAINTAINERS || fail=1
    answers mh-refresh
    echo "make-history: loads and checks took $(elapsed "$t0") s wall"
fi

if [ $fail = 0 ]; then
    PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$db"
    echo "PASS"
fi
exit $fail
