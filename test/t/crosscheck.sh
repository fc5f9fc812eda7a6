#!/bin/bash
# crosscheck.sh — fixes_per_release, fixes_buggiest_commits, the edge counts and the commit ->
# release map of the extension against the same numbers computed independently from git's
# command line by test/oracles/crosscheck.py.
#
# Repositories: a 20000-commit make-history repository (../shared/bench/make-history, built
# once and cached under ${FIXES_CACHE:-/var/tmp/fixes-cache}), and ${FIXES_FIXTURES}/releases.git
# when it exists.  Stable branches (issue 13): a 20000-commit make-history repository with
# --stable 3, loaded with stable_branches '^refs/heads/v[0-9]+\.[0-9]+\.y$', and
# ${FIXES_FIXTURES}/stable.git and backports.git (backports by subject, a queued fix: issue 29),
# every view of both scopes cross-checked (--stable-branches);
# article.git (reverts, lifetimes, trailers), trailers.git (10,000 trailers, 1 MiB keys and
# values, a NUL byte, invalid UTF-8, latin-1) and stablecc.git (Cc: stable above git's trailer
# block, lifetimes at 365 and 730 days: issue 30) when they exist.  And skew.git, built here:
# commits whose parents are newer than they are, so that the walk (newest first) reaches a
# commit before the child through which its first release reaches it, which the load must
# correct; loaded cold, and as a refresh from its root.  And hidden-skew.git, where clock skew
# makes the walk of a refresh send an old commit again, which the load must skip.  Own scratch database
# fixes_t_crosscheck, dropped again on success.
# Exit 0 pass, 1 fail, 77 skip (no make-history: a clone without ../shared).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_crosscheck
commits=20000

# check PATH NAME [STABLE_RE]: load PATH under NAME, then cross-check it
check() {
    local path=$1 name=$2 re=${3:-} t0 opts=()
    t0=$(date +%s.%N)
    [ -z "$re" ] || opts=(--stable-branches "$re")
    psql_q -At -v path="$path" -v name="$name" -v re="$re" <<'SQL'
SELECT format('loaded %s: %s commits, %s releases, %s edges (%s resolved) in %s s',
              repository, commits, releases, edges, resolved, round(seconds::numeric, 2))
  FROM fixes_load(:'path', 'HEAD', NULL, :'name', nullif(:'re', ''));
SQL
    PGDATABASE=$db python3 "$top/test/oracles/crosscheck.py" --repo "$path" --name "$name" "${opts[@]}" || return 1
    echo "$name: load + cross-check took $(elapsed "$t0") s wall"
}

# commit TIME SUBJECT PARENT...: a commit of the empty tree $tree in $dir (the caller's), made
# at TIME seconds after 1600000000
commit() {
    local t=$1 s=$2 args=()
    shift 2
    for x in "$@"; do args+=(-p "$x"); done
    GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=c \
        GIT_COMMITTER_EMAIL=c@example.org GIT_AUTHOR_DATE="$((1600000000 + t)) +0000" \
        GIT_COMMITTER_DATE="$((1600000000 + t)) +0000" git -C "$dir" commit-tree "$tree" -m "$s" "${args[@]}"
}

# skew_repo DIR: the history below (times in seconds after 1600000000), HEAD at the merge M;
# refs/heads/root at R.
#   R (t=1000) <- P (1100) <- C1 (2000, tag v2) <------------- M (3000, merge of C1 and T1)
#                         \<- C2 (1200) <- T1 (500, tag v1) <-/
# The walk sends M, C1, P, R, then T1 and C2: P and R come before C2, through which v1 (the
# first release) reaches them; they are first given v2.
skew_repo() {
    local dir=$1 tree r p c1 c2 t1 m
    git init -q --bare "$dir"
    tree=$(git -C "$dir" mktree </dev/null)
    r=$(commit 1000 root)
    p=$(commit 1100 "add the parser" "$r")
    c1=$(commit 2000 "parser: speed up" "$p")
    c2=$(commit 1200 "parser: fix a leak" "$p")
    t1=$(commit 500 "release 1" "$c2")
    m=$(commit 3000 "Merge release 1" "$c1" "$t1")
    git -C "$dir" update-ref refs/heads/main "$m"
    git -C "$dir" update-ref refs/heads/root "$r"
    git -C "$dir" symbolic-ref HEAD refs/heads/main
    git -C "$dir" tag v1 "$t1"
    git -C "$dir" tag v2 "$c1"
    chmod -R a+rX "$dir"
}

# hidden_skew_repo DIR: a refresh whose walk meets an old commit it cannot tell is old from
# commit times alone (refs/heads/old at O, HEAD at M):
#   W (t=900) <- X (100) <- Z (50) <- O (1000, merge of Z and W, tag v1) <- M (2000, merge
#   of O and X, tag v2)
# The reader finds the old commits the walk of M meets by walking from O at the same time,
# newest first; it stops once no new commit is left that is older than an old one still to
# read, and so it takes X (reached from M) for a new commit before it reads Z, through which
# O reaches X.  X is sent again, and the backend, which holds it, must skip it.
hidden_skew_repo() {
    local dir=$1 tree w x z o m
    git init -q --bare "$dir"
    tree=$(git -C "$dir" mktree </dev/null)
    w=$(commit 900 "add the parser")
    x=$(commit 100 "parser: fix a leak" "$w")
    z=$(commit 50 "parser: speed up" "$x")
    o=$(commit 1000 "Merge the parser" "$z" "$w")
    m=$(commit 2000 "Merge the fix" "$o" "$x")
    git -C "$dir" update-ref refs/heads/main "$m"
    git -C "$dir" update-ref refs/heads/old "$o"
    git -C "$dir" tag v1 "$o"
    git -C "$dir" tag v2 "$m"
    chmod -R a+rX "$dir"
}

# private_backports_repo DIR SRC: a copy of make-history's --stable repository SRC whose first
# stable branch gets two backports that name no mainline id (issue 29), of two mainline fixes
# made after the fork whose subjects no other mainline commit has and whose Fixes: target the
# branch has: A, "(cherry picked from commit
# <an id the mainline never had>)" (a private cherry-pick), tagged as the branch's newest release
# (vM.N.999), and B after it, with no backport line at all (queued).  Both are matched by subject.
private_backports_repo() {
    local dir=$1 src=$2 branch series tree head subj1 subj2 h1 h2 fake a b
    git clone -q --bare "$src" "$dir"
    branch=$(git -C "$dir" for-each-ref --format='%(refname:short)' --sort=refname 'refs/heads/v*.y' | head -n 1)
    series=${branch%.y}
    # mainline fixes after the fork with a subject of their own
    git -C "$dir" log --no-merges --format=%s HEAD | sort | uniq -u >"$dir.unique"
    # ... and whose first Fixes: target is on the branch (so that the series shipped the bug)
    : >"$dir.picked"
    git -C "$dir" log --no-merges --grep='^Fixes:' --format='%H %s' HEAD "^$branch" |
        awk 'NR == FNR { u[$0] = 1; next } { h = $1; $1 = ""; s = substr($0, 2); if (s in u) print h " " s }' \
            "$dir.unique" - | head -n 400 | while read -r h s; do
        t=$(git -C "$dir" log -1 --format=%B "$h" | sed -n 's/^Fixes: *\([0-9a-f]\{7,40\}\).*/\1/p' | head -n 1)
        if [ -n "$t" ] && git -C "$dir" merge-base --is-ancestor "$t" "$branch" 2>/dev/null; then
            echo "$h $s" >>"$dir.picked"
            [ "$(wc -l <"$dir.picked")" -lt 2 ] || break
        fi
    done
    [ "$(wc -l <"$dir.picked")" = 2 ] || { echo "private_backports_repo: no two fixes to pick" >&2; return 1; }
    h1=$(sed -n '1s/ .*//p' "$dir.picked"); subj1=$(sed -n '1s/^[^ ]* //p' "$dir.picked")
    h2=$(sed -n '2s/ .*//p' "$dir.picked"); subj2=$(sed -n '2s/^[^ ]* //p' "$dir.picked")
    fake=$(printf 'private tree %s' "$h1" | sha1sum | cut -c1-40)
    head=$(git -C "$dir" rev-parse "$branch")
    tree=$(git -C "$dir" rev-parse "$branch^{tree}")
    a=$(GIT_AUTHOR_NAME=s GIT_AUTHOR_EMAIL=s@example.org GIT_COMMITTER_NAME=s GIT_COMMITTER_EMAIL=s@example.org \
        GIT_AUTHOR_DATE='1900000000 +0000' GIT_COMMITTER_DATE='1900000000 +0000' \
        git -C "$dir" commit-tree "$tree" -p "$head" -m "$subj1" -m "(cherry picked from commit $fake)")
    b=$(GIT_AUTHOR_NAME=s GIT_AUTHOR_EMAIL=s@example.org GIT_COMMITTER_NAME=s GIT_COMMITTER_EMAIL=s@example.org \
        GIT_AUTHOR_DATE='1900000100 +0000' GIT_COMMITTER_DATE='1900000100 +0000' \
        git -C "$dir" commit-tree "$tree" -p "$a" -m "$subj2")
    git -C "$dir" update-ref "refs/heads/$branch" "$b"
    git -C "$dir" tag "$series.999" "$a"
    echo "private backports on $branch: $a (of ${h1:0:12}, tagged $series.999), $b (of ${h2:0:12}, queued)"
    chmod -R a+rX "$dir"
}

have_mh=1
[ -f "$mh" ] || have_mh=0
have_rel=1
[ -d "$fixtures/releases.git" ] || have_rel=0
if [ $have_mh = 0 ] && [ $have_rel = 0 ]; then
    skip "$mh not found (a clone without ../shared/bench), and no $fixtures/releases.git"
fi

fresh_db "$db"

rc=0
if [ $have_mh = 1 ]; then
    repo=$(make_history_repo $commits)
    check "$repo" "make-history-$commits" || rc=1
fi
if [ $have_rel = 1 ]; then
    check "$fixtures/releases.git" releases || rc=1
else
    echo "note: $fixtures/releases.git not found, not cross-checked"
fi
if [ $have_mh = 1 ]; then
    repo=$(make_history_repo $commits 3)
    check "$repo" "make-history-$commits-stable-3" '^refs/heads/v[0-9]+\.[0-9]+\.y$' || rc=1
    # issue 29: backports that name no mainline id, found by subject, one of them queued
    pwork=$(mktemp -d /tmp/fixes-t-crosscheck-private.XXXXXX)
    chmod a+rx "$pwork"
    if private_backports_repo "$pwork/private.git" "$repo"; then
        check "$pwork/private.git" "make-history-$commits-stable-3-private" '^refs/heads/v[0-9]+\.[0-9]+\.y$' || rc=1
        n_subject=$(psql_q -At -c "SELECT count(*) FROM fixes_backports b JOIN fixes_repositories p USING (repository_id)
                                    WHERE p.name = 'make-history-$commits-stable-3-private' AND b.method = 'subject'")
        if [ "$n_subject" -ge 2 ]; then
            echo "    ok: $n_subject backports found by subject"
        else
            echo "FAIL: $n_subject backports found by subject, at least 2 expected"
            rc=1
        fi
    else
        echo "FAIL: could not build the repository with private backports"
        rc=1
    fi
    [ $rc != 0 ] || rm -rf "$pwork"
fi
if [ -d "$fixtures/stable.git" ]; then
    check "$fixtures/stable.git" stable '^refs/(heads|remotes/origin)/stable-' || rc=1
else
    echo "note: $fixtures/stable.git not found, not cross-checked"
fi
if [ -d "$fixtures/backports.git" ]; then
    # backports found by subject, a queued fix (issue 29)
    check "$fixtures/backports.git" backports '^refs/heads/stable-' || rc=1
else
    echo "note: $fixtures/backports.git not found, not cross-checked"
fi
work=$(mktemp -d /tmp/fixes-t-crosscheck.XXXXXX)
chmod a+rx "$work"
skew_repo "$work/skew.git"
check "$work/skew.git" skew-cold || rc=1
git -C "$work/skew.git" symbolic-ref HEAD refs/heads/root
check "$work/skew.git" skew || rc=1
git -C "$work/skew.git" symbolic-ref HEAD refs/heads/main
check "$work/skew.git" skew || rc=1     # a refresh: every commit but R is new
hidden_skew_repo "$work/hidden-skew.git"
git -C "$work/hidden-skew.git" symbolic-ref HEAD refs/heads/old
check "$work/hidden-skew.git" hidden-skew || rc=1
git -C "$work/hidden-skew.git" symbolic-ref HEAD refs/heads/main
check "$work/hidden-skew.git" hidden-skew || rc=1     # a refresh that meets X again
# the same with files: X's files record is skipped with it
git -C "$work/hidden-skew.git" symbolic-ref HEAD refs/heads/old
got=$(psql_q -At -v path="$work/hidden-skew.git" <<'SQL'
SELECT commits FROM fixes_load(:'path', name => 'hidden-skew-files', files => true);
SQL
)
git -C "$work/hidden-skew.git" symbolic-ref HEAD refs/heads/main
got="$got $(psql_q -At -v path="$work/hidden-skew.git" <<'SQL'
SELECT commits FROM fixes_load(:'path', name => 'hidden-skew-files');
SQL
)"
if [ "$got" = "4 5" ]; then
    echo "hidden-skew with files: 4 then 5 commits"
else
    echo "hidden-skew with files: FAILED, $got commits instead of 4 then 5"; rc=1
fi
rm -rf "$work"
for r in article trailers stablecc; do
    if [ -d "$fixtures/$r.git" ]; then
        check "$fixtures/$r.git" "$r" || rc=1
    else
        echo "note: $fixtures/$r.git not found, not cross-checked"
    fi
done

if [ $rc != 0 ]; then
    echo "the extension and git disagree"
elif [ $have_mh = 0 ]; then
    drop_db "$db"
    skip "$mh not found (a clone without ../shared/bench); only releases.git was cross-checked"
fi
finish $rc
