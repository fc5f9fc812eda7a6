# test/lib/release-branches.sh — repositories whose releases are tagged off the ref (issue 42),
# built with plain git (commit-tree of the empty tree, fixed dates: the same ids everywhere).
# Sourced by test/t/release-branches.sh and bench/run.

# rb_commit DIR TIME MESSAGE PARENT...: a commit of the empty tree at TIME seconds after
# 1600000000; MESSAGE may hold several lines
rb_commit() {
    local dir=$1 t=$2 m=$3 args=() tree
    shift 3
    for x in "$@"; do args+=(-p "$x"); done
    tree=$(git -C "$dir" mktree </dev/null)
    printf '%s\n' "$m" | GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=c \
        GIT_COMMITTER_EMAIL=c@example.org GIT_AUTHOR_DATE="$((1600000000 + t)) +0000" \
        GIT_COMMITTER_DATE="$((1600000000 + t)) +0000" git -C "$dir" commit-tree "$tree" "${args[@]}"
}

# rb_tag DIR NAME COMMIT TIME: an annotated tag (tagger date TIME seconds after 1600000000)
rb_tag() {
    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org \
        GIT_COMMITTER_DATE="$((1600000000 + $4)) +0000" git -C "$1" tag -a -m "$2" "$2" "$3"
}

# ovs_repo DIR: the Open vSwitch convention.  main (HEAD) carries v1.0.0 only; branch-2.0 is
# cut from main at m5 and gets a backport by subject only ("Fix thing X", before v2.0.0: it
# ships in 2.0.0), v2.0.0, a cherry-pick with its line, v2.0.1, a backport by subject, v2.0.2;
# branch-2.1 is cut at m9, gets "Prepare for 2.1.0", v2.1.0, then merges main's m10 (a second
# entry point: m10 ships in v2.1.1, before any later release) and v2.1.1; v2.2.0-rc1 (a
# pre-release) sits on branch-2.2, cut at m11; m12 fixes m10 and stays unreleased.
#
#   m1 - m2 - m3 (v1.0.0) - m4 - m5 - m6 - m7 - m8 - m9 - m10 - m11 - m12   main
#                                 \                   \      \     \
#                                  b1 (v2.0.0 after)   c1     c2    d1 (v2.2.0-rc1)
#                                   - b2 (v2.0.1)      (v2.1.0) (merge: v2.1.1)
#                                   - b3 (v2.0.2)
ovs_repo() {
    local d=$1 m1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 b1 b2 b3 c1 c2 d1
    git init -q --bare "$d"
    m1=$(rb_commit "$d" 100 "Initial import")
    m2=$(rb_commit "$d" 200 "Add the datapath" "$m1")
    m3=$(rb_commit "$d" 300 "Add the flow table" "$m2")
    m4=$(rb_commit "$d" 400 "Add connection tracking" "$m3")
    m5=$(rb_commit "$d" 500 "Fix the flow table

Fixes: ${m3:0:12} (\"Add the flow table\")" "$m4")
    m6=$(rb_commit "$d" 600 "Add tunnels" "$m5")
    m7=$(rb_commit "$d" 700 "Fix thing X in connection tracking

Fixes: ${m4:0:12} (\"Add connection tracking\")" "$m6")
    m8=$(rb_commit "$d" 800 "Fix the datapath again

Fixes: ${m2:0:12} (\"Add the datapath\")" "$m7")
    m9=$(rb_commit "$d" 900 "Fix tunnels

Fixes: ${m6:0:12} (\"Add tunnels\")" "$m8")
    m10=$(rb_commit "$d" 1000 "Add meters" "$m9")
    m11=$(rb_commit "$d" 1100 "Add groups" "$m10")
    m12=$(rb_commit "$d" 1200 "Fix meters

Fixes: ${m10:0:12} (\"Add meters\")
Fixes: ${m4:0:12} (\"Add connection tracking\")" "$m11")
    # branch-2.0, cut at m5: a backport by subject before v2.0.0
    b1=$(rb_commit "$d" 750 "Fix thing X in connection tracking" "$m5")
    b2=$(rb_commit "$d" 850 "Fix the datapath again

(cherry picked from commit $m8)" "$b1")
    b3=$(rb_commit "$d" 950 "Fix tunnels" "$b2")
    # branch-2.1, cut at m9
    c1=$(rb_commit "$d" 950 "Prepare for 2.1.0" "$m9")
    c2=$(rb_commit "$d" 1050 "Merge branch 'main' into branch-2.1" "$c1" "$m10")
    d1=$(rb_commit "$d" 1150 "Prepare for 2.2.0" "$m11")
    git -C "$d" update-ref refs/heads/main "$m12"
    git -C "$d" update-ref refs/heads/branch-2.0 "$b3"
    git -C "$d" update-ref refs/heads/branch-2.1 "$c2"
    git -C "$d" update-ref refs/heads/branch-2.2 "$d1"
    git -C "$d" symbolic-ref HEAD refs/heads/main
    rb_tag "$d" v1.0.0 "$m3" 310
    rb_tag "$d" v2.0.0 "$b1" 760
    rb_tag "$d" v2.0.1 "$b2" 860
    rb_tag "$d" v2.0.2 "$b3" 960
    rb_tag "$d" v2.1.0 "$c1" 960
    rb_tag "$d" v2.1.1 "$c2" 1060
    rb_tag "$d" v2.2.0-rc1 "$d1" 1160
    chmod -R a+rX "$d"
}

# packaging_repo DIR: releases v14 and v15 on main, and a packaging branch (rdma-core's
# debian/ tags) that merges each upstream release and tags debian/14-1 and debian/15-1.
# "debian/15-1" sorts before "v15": with release_tags 'all' and no release_pattern, the
# packaging tags take the releases.
packaging_repo() {
    local d=$1 a b c e f p1 p2
    git init -q --bare "$d"
    a=$(rb_commit "$d" 100 "Initial")
    b=$(rb_commit "$d" 200 "Add verbs" "$a")
    c=$(rb_commit "$d" 300 "Fix verbs

Fixes: ${b:0:12} (\"Add verbs\")" "$b")
    e=$(rb_commit "$d" 400 "Add providers" "$c")
    f=$(rb_commit "$d" 500 "Fix providers

Fixes: ${e:0:12} (\"Add providers\")" "$e")
    p1=$(rb_commit "$d" 310 "debian: package 14" "$c")
    p2=$(rb_commit "$d" 510 "debian: package 15" "$p1" "$f")
    git -C "$d" update-ref refs/heads/main "$f"
    git -C "$d" update-ref refs/heads/debian "$p2"
    git -C "$d" symbolic-ref HEAD refs/heads/main
    rb_tag "$d" v14 "$c" 305
    rb_tag "$d" v15 "$f" 505
    rb_tag "$d" debian/14-1 "$p1" 315
    rb_tag "$d" debian/15-1 "$p2" 515
    chmod -R a+rX "$d"
}

# release_branches_copy SRC DST N [KEEP_TAGS]: a copy of the repository SRC (git clone --mirror
# --shared: SRC is not changed) with N release branches in the Open vSwitch convention, cut
# from HEAD's first-parent history at N evenly spaced points: branch-K gets "Prepare for
# K.0.0" (tagged vK.0.0) and two backports by subject of later mainline commits (tagged vK.0.1
# and vK.0.2).  Without KEEP_TAGS the copy's own tags are deleted first, so that the releases
# are all off the ref.  Used by test/t/release-branches.sh and bench/release-tags.
release_branches_copy() {
    local src=$1 d=$2 nb=$3 keep=${4:-} n step k at prep b1 b2 subj1 subj2 tree fp
    rm -rf "$d"
    git clone -q --mirror --shared "$src" "$d"
    [ -n "$keep" ] || git -C "$d" tag -l | xargs -r git -C "$d" tag -d >/dev/null
    mapfile -t fp < <(git -C "$d" rev-list --first-parent --reverse HEAD)
    n=${#fp[@]}
    step=$((n / (nb + 1)))
    for ((k = 1; k <= nb; k++)); do
        at=${fp[$((k * step))]}
        tree=$(git -C "$d" rev-parse "$at^{tree}")
        subj1=$(git -C "$d" log -1 --format=%s "${fp[$((k * step + step / 3))]}")
        subj2=$(git -C "$d" log -1 --format=%s "${fp[$((k * step + 2 * step / 3))]}")
        prep=$(GIT_AUTHOR_NAME=r GIT_AUTHOR_EMAIL=r@example.org GIT_COMMITTER_NAME=r \
            GIT_COMMITTER_EMAIL=r@example.org GIT_AUTHOR_DATE="$((1500000000 + k * 1000)) +0000" \
            GIT_COMMITTER_DATE="$((1500000000 + k * 1000)) +0000" \
            git -C "$d" commit-tree "$tree" -p "$at" -m "Prepare for $k.0.0")
        b1=$(GIT_AUTHOR_NAME=r GIT_AUTHOR_EMAIL=r@example.org GIT_COMMITTER_NAME=r \
            GIT_COMMITTER_EMAIL=r@example.org GIT_AUTHOR_DATE="$((1500000100 + k * 1000)) +0000" \
            GIT_COMMITTER_DATE="$((1500000100 + k * 1000)) +0000" \
            git -C "$d" commit-tree "$tree" -p "$prep" -m "$subj1")
        b2=$(GIT_AUTHOR_NAME=r GIT_AUTHOR_EMAIL=r@example.org GIT_COMMITTER_NAME=r \
            GIT_COMMITTER_EMAIL=r@example.org GIT_AUTHOR_DATE="$((1500000200 + k * 1000)) +0000" \
            GIT_COMMITTER_DATE="$((1500000200 + k * 1000)) +0000" \
            git -C "$d" commit-tree "$tree" -p "$b1" -m "$subj2")
        git -C "$d" update-ref "refs/heads/branch-$k" "$b2"
        git -C "$d" tag "v$k.0.0" "$prep"
        git -C "$d" tag "v$k.0.1" "$b1"
        git -C "$d" tag "v$k.0.2" "$b2"
    done
    chmod -R a+rX "$d"
}
