#!/bin/bash
# reader-workers.sh — `fixes-reader walk-files` (fixes_load(files => true)) writes the same bytes
# and ends with the same status whether its worker processes compare the trees
# (src/reader/files_pool.c) or the reader does it alone: FIXES_READER_WORKERS=0, 1, 2 (the
# default) and 3, on
#   - every fixture repository with a HEAD (partial clones, shallow clones, damaged loose objects,
#     a linked worktree...);
#   - a repository made here whose blob at the 400th of 1200 commits is a truncated loose object: a
#     worker fails while another one has compared later commits, and the reader must send the
#     error after exactly the records before it (and the error itself), then exit 1;
#   - a 20000-commit make-history repository (when ../shared/bench/make-history is there), with
#     the walk started from two heads, and a refresh's input in both forms (every known commit, or
#     the previous head only), which must give the same bytes, and as many commits as
#     `git rev-list HEAD ^OLD`.
# The reader is the installed one ($PG_CONFIG --pkglibdir); no database is used.
# Exit 0 pass, 1 fail.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

reader_alone

# run NAME INPUT PATH HEAD...: walk-files with 0, 1, 2 and 3 workers; the same bytes and status
run() {
    local name=$1 input=$2 path=$3
    shift 3
    local rc0 rc
    set +e
    FIXES_READER_WORKERS=0 "$reader" walk-files "$path" "$@" <"$input" >"$work/out.0" 2>/dev/null
    rc0=$?
    set -e
    for n in 1 2 3; do
        set +e
        FIXES_READER_WORKERS=$n "$reader" walk-files "$path" "$@" <"$input" >"$work/out.$n" 2>/dev/null
        rc=$?
        set -e
        if [ "$rc" != "$rc0" ] || ! cmp -s "$work/out.0" "$work/out.$n"; then
            echo "FAIL: $name: $n workers: exit status $rc, $(wc -c <"$work/out.$n") bytes;" \
                 "alone: exit status $rc0, $(wc -c <"$work/out.0") bytes"
            cmp "$work/out.0" "$work/out.$n" || true
            fails=$((fails + 1))
            return
        fi
    done
    checked=$((checked + 1))
    echo "ok: $name (exit status $rc0, $(wc -c <"$work/out.0") bytes)"
}

# the input of a walk: the ids the backend holds (a u32 count, little-endian, then the raw ids),
# then the previous heads whose history it holds (the same form); none of either here

# 1. the fixtures
[ -d "$fixtures" ] || { echo "FAIL: $fixtures not found (test/fixtures/build $fixtures)"; exit 1; }
for repo in "$fixtures"/*.git "$fixtures"/linked "$fixtures"/worktree; do
    [ -d "$repo" ] || continue
    head=$(git -C "$repo" rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null) || continue
    run "$(basename "$repo")" "$work/none" "$repo" "$head"
done

# 2. a worker's error: a truncated loose blob at commit 400 of 1200 (the 800th comparison of the
#    walk: the workers answer batches of 512, so another worker has compared later ones)
r="$work/broken.git"
git init -q --bare "$r"
python3 - >"$work/stream" <<'PY'
import sys
w = sys.stdout.write
for i in range(1, 1201):
    d = "d%d/f.txt" % (i % 3)
    data = "".join("%d\n" % k for k in range(i, i * 3))
    t = 1600000000 + i * 60
    w("blob\nmark :%d\ndata %d\n%s\n" % (i, len(data), data))
    msg = "change %d\n" % i
    w("commit refs/heads/main\nmark :%d\ncommitter A <a@example.org> %d +0000\ndata %d\n%s" %
      (100000 + i, t, len(msg), msg))
    if i > 1:
        w("from :%d\n" % (100000 + i - 1))
    w("M 100644 :%d %s\n\n" % (i, d))
PY
git -C "$r" fast-import --quiet <"$work/stream"
git -C "$r" symbolic-ref HEAD refs/heads/main
# every object loose: a truncated one is what loose.c checks
all_loose "$r"
blob=$(git -C "$r" rev-parse "main~800:d$((400 % 3))/f.txt")
obj="$r/objects/${blob:0:2}/${blob:2}"
[ -f "$obj" ] || { echo "FAIL: $obj is not a loose object"; exit 1; }
chmod u+w "$obj"
truncate -s $(($(stat -c %s "$obj") / 2)) "$obj"
run "a truncated blob at commit 400 of 1200" "$work/none" "$r" "$(git -C "$r" rev-parse main)"
if [ "$(tail -c 2000 "$work/out.2" | grep -c -a "object $blob of repository .* is corrupt")" != 1 ]; then
    echo "FAIL: the reader with workers did not end with the error about blob $blob"
    fails=$((fails + 1))
fi

# 3. a large history: two heads, and a refresh's known commits
if [ -f "$mh" ]; then
    big=$(make_history_repo 20000)
    head=$(git -C "$big" rev-parse 'HEAD^{commit}')
    old=$(git -C "$big" rev-parse 'HEAD~3000^{commit}')
    other=$(git -C "$big" rev-list -n 1 --skip=5000 HEAD)
    run "make-history 20000" "$work/none" "$big" "$head"
    run "make-history 20000, two heads" "$work/none" "$big" "$other" "$head"
    # a refresh after HEAD~3000, told either every commit of HEAD~3000 (as a stable scope's walk
    # is told the mainline), or only HEAD~3000 (as a refresh is: the reader finds the rest)
    git -C "$big" rev-list "$old" >"$work/known.hex"
    ids() {  # FILE: the ids of FILE (hex, one a line) as a count and the raw ids
        python3 -c '
import struct, sys
ids = [bytes.fromhex(l.strip()) for l in open(sys.argv[1]) if l.strip()]
sys.stdout.buffer.write(struct.pack("<I", len(ids)) + b"".join(ids))' "$1"
    }
    { ids "$work/known.hex"; printf '\0\0\0\0'; } >"$work/known"
    echo "$old" >"$work/old.hex"
    { printf '\0\0\0\0'; ids "$work/old.hex"; } >"$work/hidden"
    run "make-history 20000, a refresh after HEAD~3000 (every old id sent)" "$work/known" "$big" "$head"
    mv "$work/out.0" "$work/out.known"
    run "make-history 20000, a refresh after HEAD~3000 (HEAD~3000 sent)" "$work/hidden" "$big" "$head"
    new=$(git -C "$big" rev-list --count "$head" "^$old")
    for f in known 0; do
        # the 'C' records of the stream (each record: a type byte, a u32 length, the payload)
        got=$(python3 -c '
import struct, sys
data, off, n = sys.stdin.buffer.read(), 0, 0
while off < len(data):
    kind, size = data[off:off + 1], struct.unpack("<I", data[off + 1:off + 5])[0]
    n += kind == b"C"
    off += 5 + size
print(n)' <"$work/out.$f")
        if [ "$got" != "$new" ]; then
            echo "FAIL: the refresh's walk ($f) sent $got commits; git rev-list HEAD ^HEAD~3000 lists $new"
            fails=$((fails + 1))
        fi
    done
    if cmp -s "$work/out.known" "$work/out.0"; then
        echo "ok: both forms of the refresh's input give the same bytes ($new commits)"
    else
        echo "FAIL: the refresh's walk sends other bytes when told HEAD~3000 than when told its commits"
        fails=$((fails + 1))
    fi
    # `refresh-files PATH REF OLD [FILE]` (a refresh's one reader): what `head` sends less its end
    # record, with FILE what `blob` sends for it less its end record, a head record for OLD, then
    # the walk above, read ahead.  Read through a pipe that is left unread for a second, as the
    # backend leaves it while it reads the previous load back.  With an OLD that is not in the
    # repository: the head record says so, and no walk follows.
    "$reader" head "$big" HEAD >"$work/head.out"
    "$reader" blob "$big" "$head" MAINTAINERS >"$work/blob.out"
    for case in found missing; do
        before=$fails
        if [ $case = found ]; then
            hide=$old walk="$work/out.0" blob="$work/blob.out" file=(MAINTAINERS)
        else
            hide=$(printf '1%.0s' $(seq 40)) walk=/dev/null blob=/dev/null file=()
        fi
        python3 -c '
import struct, sys
head, blob = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
hide, found, walk = bytes.fromhex(sys.argv[3]), sys.argv[4] == "found", open(sys.argv[5], "rb").read()
end = b"Z\0\0\0\0"
assert head[-5:] == end and (blob == b"" or blob[-5:] == end)
rec = bytes([1 if found else 0, 0]) + (hide if found else bytes(20))
sys.stdout.buffer.write(head[:-5] + blob[:-5] + b"H" + struct.pack("<I", len(rec)) + rec +
                        (walk if found else end))' \
            "$work/head.out" "$blob" "$hide" $case "$walk" >"$work/refresh.want"
        for n in 0 1 2 3; do
            set +e
            FIXES_READER_WORKERS=$n "$reader" refresh-files "$big" HEAD "$hide" "${file[@]}" 2>/dev/null |
                { sleep 1; cat; } >"$work/refresh.$n"
            rc=${PIPESTATUS[0]}
            set -e
            if [ "$rc" = 0 ] && cmp -s "$work/refresh.want" "$work/refresh.$n"; then
                checked=$((checked + 1))
            else
                echo "FAIL: refresh-files, previous head $case, $n workers: exit status $rc," \
                     "$(wc -c <"$work/refresh.$n") bytes, not the $(wc -c <"$work/refresh.want") bytes of head, blob and walk-files"
                cmp "$work/refresh.want" "$work/refresh.$n" || true
                fails=$((fails + 1))
            fi
        done
        [ "$fails" != "$before" ] ||
            echo "ok: refresh-files, previous head $case${file:+, with $file}: the bytes of head,${file:+ blob,} and walk-files, with 0-3 workers"
    done
else
    echo "($mh not found: no large history compared)"
fi

echo "$checked walks compared, $fails failed"
[ "$fails" = 0 ] && [ "$checked" -gt 0 ] && { echo PASS; exit 0; }
echo FAIL
exit 1
