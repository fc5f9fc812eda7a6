#!/bin/bash
# files.sh — fixes_load(files => true, maintainers => ...) against git (test/files-oracle.py):
# every row of fixes_commit_files equals `git log --numstat --no-renames`, the sums of
# fixes_commits agree, and fixes_commit_subsystems equals an independent implementation of
# the MAINTAINERS rules; on the fixtures files.git and partial.git (a blob:none partial
# clone: nothing may be fetched), and on a 20000-commit make-history repository, loaded in
# full and as a refresh (its first load stops 300 first-parent commits short of HEAD).
# Own scratch database fixes_t_files, dropped again on success.
# Exit 0 pass, 1 fail, 77 skip (neither fixtures nor make-history).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_files
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
oracle() { PGDATABASE=$db python3 "$top/test/files-oracle.py" "$@"; }
packs() { find "$1/objects" -type f | sort | md5sum; }

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
    oracle --repo "$fixtures/partial.git" --full "$fixtures/files.git" --name partial \
        --maintainers MAINTAINERS || fail=1
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
fi

if [ $have_mh = 1 ]; then
    repo=$(make_history_repo 20000)
    t0=$(date +%s.%N)
    psql_q -At -v path="$repo" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('full load: %s commits in %s s', commits, round(seconds::numeric, 2))
  FROM fixes_load(:'path', name => 'mh', files => true, maintainers => 'MAINTAINERS');
SQL
    oracle --repo "$repo" --name mh --maintainers MAINTAINERS || fail=1
    # a refresh: first load an older first-parent commit, then HEAD
    old=$(git -C "$repo" rev-parse HEAD~300)
    psql_q -At -v path="$repo" -v old="$old" <<'SQL' 2>&1 | grep -v '^NOTICE\|^DETAIL'
SELECT format('older load: %s commits', commits)
  FROM fixes_load(:'path', :'old', name => 'mh-refresh', files => true, maintainers => 'MAINTAINERS');
SELECT format('refresh: %s commits in %s s', commits, round(seconds::numeric, 2))
  FROM fixes_load(:'path', 'HEAD', name => 'mh-refresh');
SQL
    oracle --repo "$repo" --name mh-refresh --maintainers MAINTAINERS || fail=1
    echo "make-history: loads and checks took $(elapsed "$t0") s wall"
fi

if [ $fail = 0 ]; then
    PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$db"
    echo "PASS"
fi
exit $fail
