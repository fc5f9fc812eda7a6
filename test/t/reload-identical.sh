#!/bin/bash
# reload-identical.sh — loading the same repositories a second time (fixes_load replaces a load
# of the same name) must give identical view output; and fixes_git_commits(path) must return as
# many rows as `git rev-list --count HEAD`.
#
# Repositories: the 20000-commit make-history repository (../shared/bench/make-history, cached
# under ${FIXES_CACHE:-/var/tmp/fixes-cache}, shared with crosscheck.sh), and
# ${FIXES_FIXTURES}/releases.git when it exists.  Own scratch database fixes_t_reload, dropped
# again on success.  Exit 0 pass, 1 fail, 77 skip (no make-history: a clone without ../shared).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_reload
commits=20000
export PGTZ=UTC
need_make_history

repos=("$(make_history_repo $commits)")
names=("make-history-$commits")
if [ -d "$fixtures/releases.git" ]; then
    repos+=("$fixtures/releases.git")
    names+=(releases)
else
    echo "note: $fixtures/releases.git not found, only make-history is reloaded"
fi

fresh_db "$db"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load_all() {        # load_all ROUND
    local i t0
    for i in "${!repos[@]}"; do
        t0=$(date +%s.%N)
        psql_q -At -v path="${repos[$i]}" -v name="${names[$i]}" -v round="$1" 2>"$work/load.err" <<'SQL' || { cat "$work/load.err"; return 1; }
SELECT format('load %s of %s: %s commits, %s releases, %s edges (%s resolved), %s s in fixes_load',
              :'round', repository, commits, releases, edges, resolved, round(seconds::numeric, 2))
  FROM fixes_load(:'path', 'HEAD', NULL, :'name');
SQL
    done
}

dump() {            # dump FILE: the views, the commit -> release map and the edges, as text
    psql_q -A -F $'\t' -P null='<NULL>' >"$1" <<'SQL'
\echo ==== fixes_per_release
SELECT * FROM fixes_per_release;
\echo ==== fixes_buggiest_commits
SELECT * FROM fixes_buggiest_commits;
\echo ==== fixes_unresolved
SELECT * FROM fixes_unresolved;
\echo ==== fixes_commits: commit_id, release
SELECT p.name, c.commit_id, c.release
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) ORDER BY 1, 2;
\echo ==== fixes_edges by commit ids
SELECT p.name, e.fixing_commit, e.line, e.status, e.method, e.candidates, e.target_commit,
       e.fixing_release, e.target_release, e.abbrev, e.quoted_subject, e.raw
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id) ORDER BY 1, 2, 3;
SQL
}

rc=0
load_all 1
dump "$work/first"
load_all 2
dump "$work/second"
if ! diff -u "$work/first" "$work/second" >"$work/diff"; then
    echo "DIFF: view output after the second load differs from the first:"
    head -n 60 "$work/diff"
    echo "($(grep -c '^[-+][^-+]' "$work/diff") lines differ)"
    rc=1
else
    echo "second load identical to the first: $(grep -c . "$work/first") lines of fixes_per_release," \
         "fixes_buggiest_commits, fixes_unresolved, commit->release map and edges (${names[*]})"
fi

for i in "${!repos[@]}"; do
    want=$(git -C "${repos[$i]}" rev-list --count HEAD)
    got=$(psql_q -At -v path="${repos[$i]}" <<'SQL'
SELECT count(*) FROM fixes_git_commits(:'path');
SQL
)
    if [ "$want" != "$got" ]; then
        echo "DIFF: ${names[$i]}: fixes_git_commits returns $got rows, git rev-list --count HEAD says $want"
        rc=1
    else
        echo "${names[$i]}: fixes_git_commits rows = git rev-list --count HEAD = $want"
    fi
done

finish $rc
