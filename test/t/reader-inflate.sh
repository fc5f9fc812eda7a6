#!/bin/bash
# reader-inflate.sh — fixes-reader inflates objects with ISA-L (src/reader/inflate.c: zlib's four
# inflate functions, defined in the reader, where libgit2 calls them); FIXES_READER_INFLATE=zlib
# in its environment gives them back to zlib.  The two must be indistinguishable (issue 45).
#
# The reader alone (no database): the same bytes and exit status with FIXES_READER_INFLATE=zlib
# and without it,
#   1. on every fixture repository: `walk` and `walk-files` (trees, blobs) from its HEAD;
#   2. on make-history 20000, with and without 3 stable branches (a walk from every branch head):
#      `walk` and `walk-files`; with git's commit-graph file and the prefetch worker
#      (FIXES_READER_PREFETCH=1, src/reader/prefetch.c) too, against the plain walk;
#   3. on a repository of large blobs changed a little at each commit, packed (deltas against
#      each other) and loose (libgit2 reads a loose object's header, then its body: a stream in
#      two calls): `walk-files` and `blob` of the largest file;
#   4. on damaged copies: in a pack, a commit's compressed bytes flipped (a byte in its deflate
#      data, one in its adler32, its zlib header), its size in the pack's object header 100 bytes
#      too small (the stream is longer than libgit2's buffer for it) or too large, and the pack
#      cut in the middle of the commit; a loose commit
#      whose deflate data or adler32 has a byte flipped, and one cut short.  Each must end as
#      zlib's does: the same exit status and the same bytes up to the error record, the same
#      SQLSTATE in it, within a timeout (no hang, no crash); the texts of zlib's and ISA-L's
#      messages may differ (the wrapper names ISA-L's error where zlib has its own words).
# Also: the reader uses ISA-L unless told (its inflate() is the executable's, bound in place of
# libz's: LD_DEBUG=bindings shows libgit2's calls bound to fixes-reader).
# The reader is the installed one ($PG_CONFIG --pkglibdir).  Exit 0 pass, 1 fail, 77 skip (no
# make-history: ../shared is absent).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

reader_alone

# both NAME ARGS...: the reader with ISA-L and with zlib; the same bytes and status; prints the
# status and size; with want_ok set, the status must be 0 (a repository that is not damaged)
reader_modes=("zlib FIXES_READER_INFLATE=zlib" "isal")
both() { reader_same "$@"; }

# 0. the reader binds libgit2's inflate to its own
head0=$(git -C "$fixtures/releases.git" rev-parse HEAD)
LD_DEBUG=bindings "$reader" walk "$fixtures/releases.git" "$head0" <"$work/none" >/dev/null 2>"$work/bindings"
if ! grep -q "libgit2.* to .*fixes-reader.*symbol \`inflate'" "$work/bindings"; then
    echo "FAIL: libgit2's inflate is not bound to fixes-reader's (LD_DEBUG=bindings)"
    fails=$((fails + 1))
fi

# 1. the fixtures
fixture() {
    both "fixture $(basename "$1"): walk" walk "$1" "$2" || true
    both "fixture $(basename "$1"): walk-files" walk-files "$1" "$2" || true
}
each_fixture fixture

# 2. make-history 20000, with and without stable branches; the prefetch worker
need_make_history
for k in "" 3; do
    mh_heads 20000 $k
    want_ok=1 both "$label: walk" walk "$src" "${heads[@]}" || true
    want_ok=1 both "$label: walk-files" walk-files "$src" "${heads[@]}" || true
done
graph="$work/graph.git"
git clone -q --bare --no-local "$(make_history_repo 20000)" "$graph"
git -C "$graph" commit-graph write --reachable >/dev/null 2>&1
head=$(git -C "$graph" rev-parse HEAD)
if want_ok=1 both "make-history 20000, a commit-graph file: walk" walk "$graph" "$head"; then
    cp "$work/out.isal" "$work/plain"
    for mode in isal zlib; do
        set +e
        FIXES_READER_INFLATE=$mode FIXES_READER_PREFETCH=1 FIXES_READER_PREFETCH_BATCH=64 \
            FIXES_READER_PREFETCH_REPORT=1 timeout 300 "$reader" walk "$graph" "$head" <"$work/none" \
            >"$work/out.pf" 2>"$work/err.pf"
        rc=$?
        set -e
        used=$(sed -n 's/^prefetch: \([0-9]*\) of .*/\1/p' "$work/err.pf")
        if [ "$rc" != 0 ] || ! cmp -s "$work/plain" "$work/out.pf" || [ "${used:-0}" = 0 ]; then
            echo "FAIL: the prefetch worker (inflate $mode): exit status $rc, $(wc -c <"$work/out.pf")" \
                 "bytes against $(wc -c <"$work/plain"), the worker read ${used:-no} commits"
            fails=$((fails + 1))
        else
            checked=$((checked + 1))
            echo "ok: the prefetch worker, inflate $mode: the same bytes ($used commits read by the worker)"
        fi
    done
fi

# 3. large blobs, packed (deltas) and loose (a stream read in two calls)
big="$work/big.git"
git init -q --bare "$big"
python3 - <<'PY' | git -C "$big" fast-import --quiet
import random, sys
rnd = random.Random(45)
words = [("w%d " % i).encode() for i in range(5000)]
text = b"".join(rnd.choice(words) for _ in range(400000))     # ~2.4 MB, compressible
noise = bytes(rnd.randrange(256) for _ in range(300000))      # incompressible
out = sys.stdout.buffer
for i in range(1, 9):
    at = rnd.randrange(len(text) - 100)
    text = text[:at] + b"changed %d " % i + text[at:]
    out.write(b"commit refs/heads/main\nmark :%d\ncommitter A <a@example.org> %d +0000\n" % (i, 1600000000 + 60 * i))
    msg = b"change %d\n" % i
    out.write(b"data %d\n%s" % (len(msg), msg))
    if i > 1:
        out.write(b"from :%d\n" % (i - 1))
    for name, data in ((b"text.txt", text), (b"noise.bin", noise[:100000 * (i % 3 + 1)]),
                       (b"MAINTAINERS", b"X: x\n")):
        out.write(b"M 100644 inline %s\ndata %d\n%s\n" % (name, len(data), data))
PY
git -C "$big" symbolic-ref HEAD refs/heads/main
git -C "$big" repack -q -a -d -f --window=10 --depth=10
head=$(git -C "$big" rev-parse HEAD)
want_ok=1 both "large blobs, packed with deltas: walk-files" walk-files "$big" "$head" || true
want_ok=1 both "large blobs, packed with deltas: blob text.txt" blob "$big" "$head" text.txt || true
loose="$work/big-loose.git"
git init -q --bare "$loose"
git -C "$big" cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' |
    while read -r id type; do
        git -C "$big" cat-file "$type" "$id" | git -C "$loose" hash-object -w -t "$type" --stdin >/dev/null
    done
git -C "$loose" update-ref refs/heads/main "$head"
git -C "$loose" symbolic-ref HEAD refs/heads/main
[ -z "$(ls "$loose/objects/pack")" ] || { echo "FAIL: the loose copy has a pack"; fails=$((fails + 1)); }
want_ok=1 both "large blobs, loose: walk-files" walk-files "$loose" "$head" || true
want_ok=1 both "large blobs, loose: blob text.txt" blob "$loose" "$head" text.txt || true

# 3b. 1200 loose blobs of 0.1-12 KB (reader-workers.sh's history, every object loose, as git
#     writes them at level 1): libgit2 reads each one's header, then exactly the rest, and fails
#     unless the call that fills the space ends the stream (one of them ends where ISA-L stopped
#     with the space full: "stream aborted prematurely" before inflate.c's last try)
lb="$work/loose-blobs.git"
git init -q --bare "$lb"
python3 - <<'PY' | git -C "$lb" fast-import --quiet
import sys
w = sys.stdout.write
for i in range(1, 1201):
    data = "".join("%d\n" % k for k in range(i, i * 3))
    w("blob\nmark :%d\ndata %d\n%s\n" % (i, len(data), data))
    msg = "change %d\n" % i
    w("commit refs/heads/main\nmark :%d\ncommitter A <a@example.org> %d +0000\ndata %d\n%s" %
      (100000 + i, 1600000000 + i * 60, len(msg), msg))
    if i > 1:
        w("from :%d\n" % (100000 + i - 1))
    w("M 100644 :%d d%d/f.txt\n\n" % (i, i % 3))
PY
git -C "$lb" symbolic-ref HEAD refs/heads/main
all_loose "$lb"
want_ok=1 both "1200 loose blobs: walk-files" walk-files "$lb" "$(git -C "$lb" rev-parse main)" || true

# 4. damaged copies; both modes must fail alike
# the outcome of a run: the records before its last one must be the same in both modes (checked
# apart), and the last one is an end ('Z') or an error ('E'), whose SQLSTATE and message are printed
last_record() {     # last_record FILE: "Z", or "E SQLSTATE MESSAGE", or "none"
    python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
pos, last = 0, None
while pos + 5 <= len(b):
    n = struct.unpack('<I', b[pos + 1:pos + 5])[0]
    last = (pos, b[pos:pos + 5 + n])
    pos += 5 + n
if last is None or pos != len(b):
    print('none')
elif last[1][0:1] == b'E':
    p = last[1][5:]
    n = struct.unpack('<I', p[6:10])[0]
    d = struct.unpack('<I', p[10 + n:14 + n])[0]
    print('E', p[1:6].decode(), (p[10:10 + n] + b' / ' + p[14 + n:14 + n + d]).decode('utf-8', 'replace')[:300])
else:
    print(last[1][0:1].decode())
open(sys.argv[1] + '.head', 'wb').write(b[:last[0]] if last else b'')
PY
}
damaged() {     # damaged NAME PATH HEAD: both modes end alike (an error of the same SQLSTATE)
    local name=$1 path=$2 head=$3 rc_z rc_i e_z e_i
    set +e
    FIXES_READER_INFLATE=zlib timeout 60 "$reader" walk "$path" "$head" <"$work/none" >"$work/out.zlib" 2>/dev/null
    rc_z=$?
    timeout 60 "$reader" walk "$path" "$head" <"$work/none" >"$work/out.isal" 2>/dev/null
    rc_i=$?
    set -e
    e_z=$(last_record "$work/out.zlib")
    e_i=$(last_record "$work/out.isal")
    if [ "$rc_z" != "$rc_i" ] || [ "$rc_i" -ge 124 ] || [ "${e_z:0:7}" != "${e_i:0:7}" ] ||
       ! cmp -s "$work/out.zlib.head" "$work/out.isal.head"; then
        echo "FAIL: $name: ISA-L: exit status $rc_i, $(wc -c <"$work/out.isal.head") bytes before \"$e_i\";" \
             "zlib: exit status $rc_z, $(wc -c <"$work/out.zlib.head") bytes before \"$e_z\""
        fails=$((fails + 1))
        return
    fi
    checked=$((checked + 1))
    if [ "$e_z" = "$e_i" ]; then
        echo "ok: $name (exit status $rc_z, the same bytes: \"$e_z\")"
    else
        echo "ok: $name (exit status $rc_z, the same bytes before the error; zlib: \"$e_z\"; ISA-L: \"$e_i\")"
    fi
}
src=$(make_history_repo 20000)
base="$work/base.git"
git clone -q --bare --no-local "$src" "$base"
git -C "$base" repack -q -a -d
head=$(git -C "$base" rev-parse HEAD)
pack=$(ls "$base"/objects/pack/*.pack)
victim=$(git -C "$base" rev-parse HEAD~700)
# the commit's offset and its size in the pack (git verify-pack: id type size size-in-pack offset)
read -r off len < <(git verify-pack -v "${pack%.pack}.idx" | awk -v id="$victim" '$1 == id { print $5, $4 }')
[ -n "$off" ] || { echo "FAIL: commit $victim not found in the pack"; exit 1; }
flip() {    # flip NAME AT: a copy of base whose pack has byte AT xor 0x5a
    local d="$work/$1.git"
    cp -a "$base" "$d"
    chmod u+w "$d"/objects/pack/*.pack
    python3 "$top/test/lib/pack_entry.py" flip "$(ls "$d"/objects/pack/*.pack)" "$2"
    echo "$d"
}
damaged "a packed commit, a byte of its deflate data flipped" "$(flip data $((off + len / 2)))" "$head"
damaged "a packed commit, a byte of its adler32 flipped" "$(flip adler $((off + len - 2)))" "$head"
damaged "a packed commit, its zlib header flipped" "$(flip header $((off + 3)))" "$head"
# a packed commit whose header says fewer bytes than its stream holds (a hostile object: the
# stream is longer than the space libgit2 gives it) or more (the stream ends short of it)
resize() {  # resize NAME DELTA: a copy of base whose commit's size in its pack header is + DELTA
    local d="$work/$1.git"
    cp -a "$base" "$d"
    chmod u+w "$d"/objects/pack/*.pack
    python3 "$top/test/lib/pack_entry.py" resize "$(ls "$d"/objects/pack/*.pack)" "$off" "$2"
    echo "$d"
}
damaged "a packed commit whose header says 100 bytes fewer than its data" "$(resize short -100)" "$head"
damaged "a packed commit whose header says 100 bytes more than its data" "$(resize long 100)" "$head"
cut="$work/cut.git"
cp -a "$base" "$cut"
chmod u+w "$cut"/objects/pack/*.pack
truncate -s $((off + len / 2)) "$cut"/objects/pack/*.pack
damaged "the pack cut in the middle of a commit" "$cut" "$head"
# loose commits: the 60-commit history of reader-commit-graph.sh, commit 30 damaged
r="$work/loose.git"
git init -q --bare "$r"
python3 - <<'PY' | git -C "$r" fast-import --quiet
import sys
for i in range(1, 61):
    msg = "change %d\n" % i * (1 + i % 5)
    sys.stdout.write("commit refs/heads/main\nmark :%d\ncommitter A <a@example.org> %d +0000\n"
                     "data %d\n%s%s\n" % (i, 1600000000 + 60 * i, len(msg), msg,
                                          "from :%d" % (i - 1) if i > 1 else ""))
PY
git -C "$r" symbolic-ref HEAD refs/heads/main
# every object loose (libgit2 reads a loose commit itself after loose.c's check)
# (fast-import leaves fewer than fastimport.unpackLimit objects loose; unpack a pack if it wrote one)
all_loose "$r"
bad=$(git -C "$r" rev-parse HEAD~30)
lhead=$(git -C "$r" rev-parse HEAD)
for how in data adler cut trailing; do
    d="$work/loose-$how.git"
    cp -a "$r" "$d"
    mkdir -p "$d/objects/${bad:0:2}"
    git -C "$r" cat-file commit "$bad" | python3 -c "
import sys, zlib
raw = sys.stdin.buffer.read()
z = bytearray(zlib.compress(b'commit %d\0' % len(raw) + raw))
how = sys.argv[1]
if how == 'data':
    z[len(z) // 2] ^= 0x5a
elif how == 'adler':
    z[-2] ^= 0x5a
elif how == 'cut':
    del z[-7:]
else:
    z += b'trailing bytes'
sys.stdout.buffer.write(z)" "$how" >"$d/objects/${bad:0:2}/${bad:2}"
    damaged "a loose commit: $how" "$d" "$lhead"
done

echo "$checked checks passed, $fails failed"
[ "$fails" = 0 ] && echo PASS || exit 1
