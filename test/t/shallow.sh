#!/bin/bash
# shallow.sh — a shallow clone loaded with stable branches is never built on: missing_parents
# counts the parents that every walk of the load missed (the mainline's and the stable
# scope's), and after `git fetch --unshallow` the next load of the name reads the whole
# history again, row for row what a cold load of the deepened clone gives.  (Until 1.2 the
# stable walk's count replaced the mainline's: a clone whose stable branches were complete
# recorded 0, and the reload after --unshallow said nothing had changed.)
#
# Repositories: a `git clone --bare --depth 3 --no-single-branch` of the stable.git fixture,
# made here.  Own scratch database fixes_t_shallow.  Exit 0 pass, 1 fail, 77 skip.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_shallow
need_fixture stable.git
stable_re='^refs/heads/stable-'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fresh_db "$db"
rc=0

git clone -q --bare --depth 3 --no-single-branch "file://$fixtures/stable.git" "$work/shallow.git"
chmod -R a+rX "$work"
# what git says is missing: the parents of the shallow boundary's commits that the clone lacks
missing_git=$(for c in $(cat "$work/shallow.git/shallow"); do
        git -C "$work/shallow.git" cat-file -p "$c" | sed -n 's/^parent //p'
    done | sort -u | while read -r p; do
        git -C "$work/shallow.git" cat-file -e "$p" 2>/dev/null || echo "$p"
    done | grep -c . || true)

load() {            # load PATH NAME: fixes_load with the stable branches, quietly
    psql_q -At -v path="$1" -v name="$2" -v re="$stable_re" 2>"$work/load.err" <<'SQL' || { cat "$work/load.err"; return 1; }
SELECT commits FROM fixes_load(:'path', name => :'name', stable_branches => :'re');
SQL
}

load "$work/shallow.git" shallow >/dev/null
got=$(psql_q -At -c "SELECT missing_parents FROM fixes_repositories WHERE name = 'shallow'")
warned=$(grep -o 'shallow clone: [0-9]* parent' "$work/load.err" | grep -o '[0-9]*' |
    awk '{ s += $1 } END { print s + 0 }')
if [ "$missing_git" -lt 1 ] || [ "$got" != "$warned" ] || [ "$got" != "$missing_git" ]; then
    echo "DIFF: missing_parents = $got; the WARNINGs of the load's walks count $warned; git lacks $missing_git parent objects"
    rc=1
else
    echo "missing_parents = $got: the WARNINGs of the load's walks, and the parents of the shallow boundary that git lacks"
fi

# deepen the clone: the next load of the name must read it all, as a cold load does
git -C "$work/shallow.git" fetch -q --unshallow "file://$fixtures/stable.git" '+refs/heads/*:refs/heads/*'
chmod -R a+rX "$work"
want=$(git -C "$work/shallow.git" rev-list --count HEAD)
got=$(load "$work/shallow.git" shallow)
load "$work/shallow.git" cold >/dev/null
psql_q -At -F $'\t' -P null='<NULL>' >"$work/rows" <<'SQL'
SELECT r.name, c.commit_id, c.mainline, c.release, c.parent_ids
  FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) ORDER BY c.commit_id, r.name;
SQL
if [ "$got" != "$want" ]; then
    echo "DIFF: the load after --unshallow has $got mainline commits; git rev-list --count HEAD says $want"
    rc=1
elif ! diff <(awk -F'\t' '$1 == "shallow" { $1 = ""; print }' "$work/rows") \
            <(awk -F'\t' '$1 == "cold" { $1 = ""; print }' "$work/rows") >"$work/diff"; then
    echo "DIFF: after --unshallow, the reloaded rows of fixes_commits differ from a cold load's:"
    head -n 20 "$work/diff"
    rc=1
else
    echo "after --unshallow: $got mainline commits (git rev-list --count HEAD), every row of fixes_commits as a cold load's ($(grep -c '^shallow' "$work/rows") rows)"
fi
finish $rc
