#!/bin/bash
# reader-packs.sh — with files, fixes-reader reads trees and blobs from the pack files itself,
# through a delta-base cache that keeps what it rebuilds (src/reader/pack_read.c), and leaves
# every other object to libgit2 (loose objects, alternates, damaged entries).
# FIXES_READER_PACKS=libgit2 in its environment turns that off.  The two must write the same
# bytes and end with the same status (issue 45).
#
# The reader alone (no database), `walk-files`, in three modes: libgit2 (FIXES_READER_PACKS=
# libgit2), packs (the default) and small (FIXES_READER_PACK_SMALL=1: windows of 1 MB, 3 MB
# mapped, a cache of 256 KB, so windows and cached objects are dropped and made again all the
# time; pinned objects must survive it), the last two without worker processes so that one
# process reports what it read (FIXES_READER_PACK_REPORT=1), on
#   1. every fixture repository, from its HEAD;
#   2. make-history 20000, with and without 3 stable branches, from every branch head: every
#      tree and blob must come from the pack (none left to libgit2), also under an address-space
#      limit of 512 MB (prlimit), where the cache and the windows are smaller;
#   3. a repository whose objects are in two packs and loose, and one that borrows its older
#      objects from it (objects/info/alternates): the loose and the borrowed objects must be
#      left to libgit2, the packed ones read from the packs;
#   4. damaged copies: the root tree of a commit 700 back and a blob that commit changed, a
#      byte of their deflate data flipped, their size in the pack header one too small or too
#      large; the pack checksum at the end of the index changed: each must end exactly as with
#      libgit2 (the same bytes, error record included, and exit status), within a timeout.
# The reader is the installed one ($PG_CONFIG --pkglibdir).  Exit 0 pass, 1 fail, 77 skip (no
# make-history: ../shared is absent).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

reader_alone

# the three modes, and after them the packs mode's report ($report)
reader_modes=("libgit2 FIXES_READER_PACKS=libgit2 FIXES_READER_PACK_REPORT=1"
              "packs FIXES_READER_WORKERS=0 FIXES_READER_PACK_REPORT=1"
              "small FIXES_READER_WORKERS=0 FIXES_READER_PACK_SMALL=1 FIXES_READER_PACK_REPORT=1")
reader_after() {
    report=$(grep -h '^packs:' "$work/err.packs" | head -1 || true)
    reader_note="; $report"
}
same() { reader_same "$@"; }

# counts REPORT: "READ LEFT" from a report line
counts() { sed -n 's/^packs: \([0-9]*\) objects read, \([0-9]*\) left to libgit2.*/\1 \2/p' <<<"$1"; }

# expect NAME CONDITION: a check of the last report (CONDITION is an awk test on r (read), l (left))
expect() {
    local c
    c=$(counts "$report")
    if [ -z "$c" ] || ! awk -v c="$c" "BEGIN { split(c, a, \" \"); r = a[1]; l = a[2]; exit !($2) }"; then
        echo "FAIL: $1: the report was \"$report\", wanted $2"
        fails=$((fails + 1))
    else
        checked=$((checked + 1))
        echo "ok: $1 ($2: $c)"
    fi
}

# 1. the fixtures
fixture() { same "fixture $(basename "$1")" walk-files "$1" "$2" || true; }
each_fixture fixture

# 2. make-history 20000
need_make_history
for k in "" 3; do
    mh_heads 20000 $k
    if want_ok=1 same "$label" walk-files "$src" "${heads[@]}"; then
        expect "$label: every tree and blob from the pack" 'r > 100000 && l == 0'
    fi
done
src=$(make_history_repo 20000)
if reader_wrap="prlimit --as=$((512 * 1024 * 1024))" want_ok=1 same "make-history 20000 under 512 MB of address space" \
        walk-files "$src" "$(git -C "$src" rev-parse HEAD)"; then
    expect "make-history 20000 under 512 MB: from the pack" 'r > 100000 && l == 0'
fi

# 3. two packs and loose objects; alternates
split="$work/split.git"
git init -q --bare "$split"
git -C "$split" fetch -q "$src" "$(git -C "$src" rev-parse HEAD~3000):refs/heads/old"
git -C "$src" rev-list --objects "HEAD~3000..HEAD~2000" | cut -d' ' -f1 |
    git -C "$src" pack-objects -q --stdout | git -C "$split" unpack-objects -q
git -C "$split" update-ref refs/heads/mid "$(git -C "$src" rev-parse HEAD~2000)"
git -C "$split" fetch -q "$src" "$(git -C "$src" rev-parse HEAD~1000):refs/heads/main"
git -C "$split" symbolic-ref HEAD refs/heads/main
npacks=$(ls "$split"/objects/pack/*.pack | wc -l)
nloose=$(git -C "$split" count-objects | cut -d' ' -f1)
if want_ok=1 same "two packs ($npacks) and $nloose loose objects" walk-files "$split" "$(git -C "$split" rev-parse main)"; then
    expect "two packs and loose objects: the loose ones left to libgit2" 'r > 10000 && l > 1000'
fi
borrow="$work/borrow.git"
git clone -q --bare --shared "$split" "$borrow"
git -C "$borrow" fetch -q "$src" "$(git -C "$src" rev-parse HEAD):refs/heads/main"
if want_ok=1 same "alternates: the newest 1000 commits' objects in its pack, the rest borrowed" \
        walk-files "$borrow" "$(git -C "$borrow" rev-parse main)"; then
    expect "alternates: the borrowed objects left to libgit2" 'r > 5000 && l > 10000'
fi

# 4. damaged copies
base="$work/base.git"
git clone -q --bare --no-local "$src" "$base"
git -C "$base" repack -q -a -d
head=$(git -C "$base" rev-parse HEAD)
pack=$(ls "$base"/objects/pack/*.pack)
git verify-pack -v "${pack%.pack}.idx" >"$work/verify"
tree=$(git -C "$base" rev-parse "HEAD~700^{tree}")
blob=$(git -C "$base" diff-tree --no-commit-id -r "HEAD~700" | awk '$4 !~ /^0+$/ { print $4; exit }')
# copy NAME: a copy of base with a writable pack and index
copy() {
    local d="$work/$1.git"
    cp -a "$base" "$d"
    chmod u+w "$d"/objects/pack/*
    echo "$d"
}
# damage NAME ID HOW: a copy of base with object ID's entry changed: flip (a byte in the middle
# of its data xor 0x5a), or a number added to the size in its header
damage() {
    local d off len
    d=$(copy "$1")
    read -r off len < <(awk -v id="$2" '$1 == id { print $5, $4 }' "$work/verify")
    if [ "$3" = flip ]; then
        # the middle of the entry: past its header and base, in its deflate data
        python3 "$top/test/lib/pack_entry.py" flip "$(ls "$d"/objects/pack/*.pack)" $((off + len / 2 + 3))
    else
        python3 "$top/test/lib/pack_entry.py" resize "$(ls "$d"/objects/pack/*.pack)" "$off" "$3"
    fi
    echo "$d"
}
for what in tree blob; do
    id=${!what}
    kind=$(awk -v id="$id" '$1 == id { print (NF > 5 ? "a delta, depth " $6 : "whole") }' "$work/verify")
    same "damaged: the $what $id ($kind), a byte of its data flipped" \
        walk-files "$(damage "$what-flip" "$id" flip)" "$head" || true
    same "damaged: the $what $id ($kind), its size one too small" \
        walk-files "$(damage "$what-small" "$id" -1)" "$head" || true
    same "damaged: the $what $id ($kind), its size one too large" \
        walk-files "$(damage "$what-large" "$id" 1)" "$head" || true
done
d=$(copy idx-checksum)
idx=$(ls "$d"/objects/pack/*.idx)
python3 - "$idx" <<'PY'
import os, sys
p = sys.argv[1]
with open(p, 'r+b') as f:
    f.seek(os.path.getsize(p) - 40)
    b = f.read(1)
    f.seek(os.path.getsize(p) - 40)
    f.write(bytes([b[0] ^ 0xff]))
PY
same "damaged: the pack checksum in the index changed" walk-files "$d" "$head" || true

echo "$checked checks passed, $fails failed"
[ "$fails" = 0 ] && echo PASS && exit 0
exit 1
