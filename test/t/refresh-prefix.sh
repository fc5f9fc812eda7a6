#!/bin/bash
# refresh-prefix.sh — issue 45: a refresh reads again the old edges settled by hash whose abbrev
# a new commit's id now begins (refresh/old_edges.c: add_prefixes_scanned(), one pass over
# fixes_edges_target_commit_idx when the new commits are many against it, else the probes of
# add_prefixes_of_new()), and gives the rows of a cold load.
#
# A repository made with plain git: 40 commits, each but the first with `Fixes: <6 digits>
# ("subject")` naming the one before it, all under a release tag (so that no old commit moves
# and no other step reads those edges again); then a new commit whose id begins one of those
# abbrevs (found by computing commit ids in Python, written with `git hash-object`): the cold
# load sees two candidates for that abbrev (resolved by hash and subject), the stored edge one.
# Two copies: + that commit alone (1 new commit: the probes), and + that commit and 7 more
# (8 new commits against the index's 2 pages, its metapage and one leaf: the scan). Each refreshed repository's rows equal a cold
# load's (test/refresh-fuzz/rows.sql in two databases: the commit indexes mapped to ids), and the
# cold load's edge has 2 candidates.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_refresh_prefix
cold=fixes_t_refresh_prefix_cold
export PGTZ=UTC
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0

git init -q -b main "$work/src"
g() { git -C "$work/src" -c user.name=Tester -c user.email=t@example.org "$@"; }
t=1600000000
prev=
for n in $(seq 1 40); do
    t=$((t + 3600))
    echo "$n" > "$work/src/c$n"
    g add "c$n"
    if [ -n "$prev" ]; then
        GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" \
            g commit -q -m "part $n: fix part $((n - 1))" -m "Fixes: ${prev:0:6} (\"part $((n - 1)): fix part $((n - 2))\")"
    else
        GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" g commit -q -m "part 1: fix part 0"
    fi
    prev=$(g rev-parse HEAD)
done
g tag -a -m v1.0 v1.0
git clone -q --bare "$work/src" "$work/base.git"

# grow COPY N: a copy of base.git with a new commit whose id begins one of the abbrevs, and N-1
# more on top of it; prints the abbrev
grow() {
    local copy=$work/$1 more=$(( $2 - 1 )) abbrev
    git clone -q --bare "$work/base.git" "$copy"
    abbrev=$(python3 - "$copy" "$t" <<'PY'
import hashlib, subprocess, sys
repo, t = sys.argv[1], int(sys.argv[2]) + 3600
git = lambda *a, **k: subprocess.run(['git', '-C', repo] + list(a), check=True, capture_output=True, **k).stdout
head = git('rev-parse', 'HEAD').decode().strip()
tree = git('rev-parse', 'HEAD^{tree}').decode().strip()
abbrevs = set(h[:6] for h in git('log', '--format=%H', 'HEAD~1').decode().split())
who = 'Tester <t@example.org> %d +0000' % t
for nonce in range(1 << 30):
    body = ('tree %s\nparent %s\nauthor %s\ncommitter %s\n\nnew: a commit %d\n'
            % (tree, head, who, who, nonce)).encode()
    h = hashlib.sha1(b'commit %d\0' % len(body) + body).hexdigest()
    if h[:6] in abbrevs:
        break
made = git('hash-object', '-t', 'commit', '-w', '--stdin', input=body).decode().strip()
assert made == h, (made, h)
git('update-ref', 'refs/heads/main', h)
print(h[:6])
PY
)
    for k in $(seq 1 "$more"); do
        git -C "$copy" update-ref refs/heads/main "$(GIT_AUTHOR_DATE="@$((t + 7200 + k))" \
            GIT_COMMITTER_DATE="@$((t + 7200 + k))" GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.org \
            GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.org \
            git -C "$copy" commit-tree -p main -m "new: more $k" 'main^{tree}')"
    done
    echo "$abbrev"
}
a1=$(grow one.git 1)
a8=$(grow eight.git 8)
chmod -R a+rX "$work"

load() {            # load DB NAME PATH
    psql -X -q -v ON_ERROR_STOP=1 -At -d "$1" -c "SELECT 1 FROM fixes_load('$3', name => '$2')" >/dev/null
}

for case in "one.git $a1 1" "eight.git $a8 8"; do
    set -- $case
    fresh_db "$db"
    fresh_db "$cold"
    load "$db" p "$work/base.git"
    load "$db" p "$work/$1"
    load "$cold" p "$work/$1"
    psql -X -q -At -F $'\t' -d "$db" -v repo=p -f "$top/test/refresh-fuzz/rows.sql" >"$work/refreshed"
    psql -X -q -At -F $'\t' -d "$cold" -v repo=p -f "$top/test/refresh-fuzz/rows.sql" >"$work/cold"
    cand=$(psql -X -q -At -d "$cold" -c "SELECT candidates || ' ' || method FROM fixes_edges WHERE abbrev = '$2'")
    if [ "$cand" != "2 hash+subject" ]; then
        echo "not ok $1: the cold load's edge with abbrev $2 has '$cand', not '2 hash+subject'"
        rc=1
    fi
    if diff -q "$work/refreshed" "$work/cold" >/dev/null; then
        echo "ok   $1 (+$3 new commits, abbrev $2 begins a new id): the refresh equals a cold load"
    else
        echo "not ok $1 (+$3 new commits, abbrev $2 begins a new id): the refresh differs from a cold load:"
        diff "$work/refreshed" "$work/cold" | head -10
        rc=1
    fi
done
drop_db "$cold"
finish $rc
