#!/bin/bash
# reader-commit-graph.sh — git's commit-graph file lets a second process inflate half of a walk's
# commits (src/reader/prefetch.c, commit_graph.c); the answers must not change, whatever the file
# holds.
#
# 1. The reader alone (`fixes-reader walk`, no database): the same bytes and exit status with the
#    worker turned off (FIXES_READER_PREFETCH=0) and on (=1; batches of 1, 3 and the default 256),
#    - on every fixture repository (bare, copied) after `git commit-graph write --reachable`;
#    - on a copy of the 20000-commit make-history repository with: a commit-graph file; a split
#      chain of two layers; a stale file (written at HEAD~500, before the newer commits); and
#      damaged ones: dates changed (predictions fail midway), a parent moved to another commit,
#      a parent out of range, counts too large, the file truncated, a chunk offset past the end,
#      a chain that names a missing layer, and 12 files with random bytes flipped;
#    and the worker must have read commits (FIXES_READER_PREFETCH_REPORT) where the file is good
#    (the single file, the chain, and each fixture with a graph of 2 commits or more), none where
#    the heads are not in it (stale, counts, truncated...); an error midway (a truncated loose
#    commit) with the worker running.
# 2. Through fixes_load: the copies without a file, with the single file, the chain, the stale
#    file and three damaged ones are loaded under six names in one database; every row a user
#    reads of each (test/refresh-fuzz/rows.sql) must be the same as the plain copy's; and a
#    make-history 5000 with 3 stable branches (a walk of several heads, with the mainline's
#    commits known), loaded with its stable scope with and without a file.  The loads run with
#    SET fixes.reader_prefetch = on: the copies with a good file must say (DEBUG1) that the second
#    process read commits, and a load with the setting off must not start it.
# The reader is the installed one ($PG_CONFIG --pkglibdir).  Own scratch database
# fixes_t_commit_graph, dropped again on success.  Exit 0 pass, 1 fail, 77 skip (no make-history,
# a clone without ../shared; or a git without `git commit-graph`).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_commit_graph
export PGTZ=UTC
need_make_history
git commit-graph -h >/dev/null 2>&1 || [ $? = 129 ] || skip "git has no commit-graph command"

reader="$("${PG_CONFIG:-pg_config}" --pkglibdir)/fixes-reader"
[ -x "$reader" ] || { echo "FAIL: $reader not found (make install)"; exit 1; }
work=$(mktemp -d)
chmod a+rx "$work"
trap 'rm -rf "$work"' EXIT
fails=0
printf '\0\0\0\0\0\0\0\0' >"$work/none"

# walk NAME PATH WANT_USED HEAD...: walk without the worker, then with it (FIXES_READER_PREFETCH=1:
# whether a core is free or not) in batches of 1, 3 and 256;
# the same bytes and status; WANT_USED: "used" (the worker read commits with each batch of at most
# a quarter of the walk's reads), "none" (it read none), "any"; a walk that fails says nothing
walk() {
    local name=$1 path=$2 want=$3 rc0 rc b used reads
    shift 3
    set +e
    FIXES_READER_PREFETCH=0 "$reader" walk "$path" "$@" <"$work/none" >"$work/out.0" 2>/dev/null
    rc0=$?
    set -e
    for b in 1 3 256; do
        set +e
        FIXES_READER_PREFETCH=1 FIXES_READER_PREFETCH_BATCH=$b FIXES_READER_PREFETCH_REPORT=1 \
            "$reader" walk "$path" "$@" <"$work/none" >"$work/out.$b" 2>"$work/err.$b"
        rc=$?
        set -e
        if [ "$rc" != "$rc0" ] || ! cmp -s "$work/out.0" "$work/out.$b"; then
            echo "FAIL: $name: batches of $b: exit status $rc, $(wc -c <"$work/out.$b") bytes;" \
                 "without the worker: exit status $rc0, $(wc -c <"$work/out.0") bytes"
            cmp "$work/out.0" "$work/out.$b" || true
            fails=$((fails + 1))
            return
        fi
        [ "$rc" != 0 ] && [ "$want" = any ] && continue
        used=$(sed -n 's/^prefetch: \([0-9]*\) of .*/\1/p' "$work/err.$b")
        reads=$(sed -n 's/^prefetch: [0-9]* of \([0-9]*\) .*/\1/p' "$work/err.$b")
        if [ -z "$used" ] || { [ "$want" = used ] && [ "$used" = 0 ] && [ $((4 * b)) -le "$reads" ]; } ||
           { [ "$want" = none ] && [ "$used" != 0 ]; }; then
            echo "FAIL: $name: batches of $b: the worker should have read $want commits:" \
                 "$(grep . "$work/err.$b" | head -3 || echo 'no report')"
            fails=$((fails + 1))
            return
        fi
    done
    echo "ok: $name (exit status $rc0, $(wc -c <"$work/out.0") bytes; batches of 3: $(sed -n 's/^prefetch: //p' "$work/err.3"))"
}

# 1a. the fixtures, copied, with a commit-graph file where git writes one
[ -d "$fixtures" ] || { echo "FAIL: $fixtures not found (test/fixtures/build $fixtures)"; exit 1; }
for repo in "$fixtures"/*.git; do
    [ -d "$repo" ] || continue
    [ -f "$repo/objects/info/alternates" ] && continue   # a relative path: not copied as it is
    head=$(git -C "$repo" rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null) || continue
    copy="$work/fx-$(basename "$repo")"
    cp -a "$repo" "$copy"
    want=any
    if git -C "$copy" commit-graph write --reachable >/dev/null 2>&1 &&
       [ -f "$copy/objects/info/commit-graph" ] && [ ! -f "$copy/shallow" ] &&
       [ "$(git -C "$copy" rev-list --count HEAD 2>/dev/null || echo 0)" -ge 2 ] &&
       git -C "$copy" fsck --connectivity-only >/dev/null 2>&1; then
        want=used
    fi
    walk "fixture $(basename "$repo") ($want)" "$copy" "$want" "$head"
    rm -rf "$copy"
done

# 1a'. an error midway with the worker running: a good file, and a commit 30 of 60 whose loose copy
#      is truncated (loose.c refuses it by name); the worker, when the commit is in its batch, ends
#      quietly and the walk reports it itself, after exactly the records before it
r="$work/loose.git"
git init -q --bare "$r"
python3 - <<'PY' | git -C "$r" fast-import --quiet
import sys
for i in range(1, 61):
    msg = "change %d\n" % i
    sys.stdout.write("commit refs/heads/main\nmark :%d\ncommitter A <a@example.org> %d +0000\n"
                     "data %d\n%s%s\n" % (i, 1600000000 + 60 * i, len(msg), msg,
                                          "from :%d" % (i - 1) if i > 1 else ""))
PY
git -C "$r" symbolic-ref HEAD refs/heads/main
git -C "$r" commit-graph write --reachable >/dev/null 2>&1
walk "60 commits and a commit-graph file" "$r" used "$(git -C "$r" rev-parse HEAD)"
bad=$(git -C "$r" rev-parse HEAD~30)
mkdir -p "$r/objects/${bad:0:2}"
python3 -c "import sys, zlib; sys.stdout.buffer.write(zlib.compress(b'commit 300\0' + b'x' * 300)[:12])" \
    >"$r/objects/${bad:0:2}/${bad:2}"
walk "60 commits, a commit-graph file, commit 30 truncated" "$r" any "$(git -C "$r" rev-parse HEAD)"
grep -q 'is corrupt' "$work/out.3" ||
    { echo "FAIL: the truncated commit's error is not in the output"; fails=$((fails + 1)); }

# 1b. make-history 20000: good, stale and damaged files
src=$(make_history_repo 20000)
plain="$work/plain.git"
git clone -q --bare --no-local "$src" "$plain"
head=$(git -C "$plain" rev-parse HEAD)
# a second head: the side branch of a merge 300 commits down (the walk starts from both)
second=$(git -C "$plain" rev-parse "$(git -C "$plain" rev-list --merges -n 1 HEAD~300)^2")

# copy NAME: a copy of the plain repository (its objects shared by hard links), no graph
copy() {
    git clone -q --bare "$plain" "$work/$1.git"
    echo "$work/$1.git"
}

single=$(copy single)
git -C "$single" commit-graph write --reachable >/dev/null 2>&1
walk "a commit-graph file" "$single" used "$head"
walk "a commit-graph file, two heads" "$single" used "$head" "$second"

chain=$(copy chain)
git -C "$chain" rev-parse HEAD~4000 | git -C "$chain" commit-graph write --split --stdin-commits >/dev/null 2>&1
git -C "$chain" commit-graph write --reachable --split=no-merge >/dev/null 2>&1
layers=$(ls "$chain/objects/info/commit-graphs/" 2>/dev/null | grep -c '\.graph$' || true)
[ "$layers" = 2 ] || { echo "FAIL: the split chain has $layers layers, not 2"; fails=$((fails + 1)); }
walk "a split chain of $layers layers" "$chain" used "$head"

stale=$(copy stale)
git -C "$stale" rev-parse HEAD~500 | git -C "$stale" commit-graph write --stdin-commits >/dev/null 2>&1
walk "a stale commit-graph file (HEAD~500)" "$stale" none "$head"

# damage NAME HOW: a copy with the single file's damaged copy; python edits the file
damage() {
    local d
    d=$(copy "$1")
    cp "$single/objects/info/commit-graph" "$d/objects/info/commit-graph"
    chmod u+w "$d/objects/info/commit-graph"
    python3 - "$d/objects/info/commit-graph" "$2" <<'PY'
import random, struct, sys
path, how = sys.argv[1], sys.argv[2]
b = bytearray(open(path, 'rb').read())
nchunks = b[6]
chunks = {}
for c in range(nchunks):
    cid, off = struct.unpack('>4sQ', b[8 + 12 * c:20 + 12 * c])
    nxt = struct.unpack('>Q', b[8 + 12 * (c + 1) + 4:8 + 12 * (c + 2)])[0]
    chunks[cid] = (off, nxt)
oidf, cdat = chunks[b'OIDF'][0], chunks[b'CDAT'][0]
n = struct.unpack('>I', b[oidf + 1020:oidf + 1024])[0]
def cd(i):
    return cdat + 36 * i
if how == 'dates':          # every 97th commit from the 2000th: dated 1970
    for i in range(2000, n, 97):
        b[cd(i) + 28:cd(i) + 36] = b'\0' * 8
elif how == 'parent-moved':  # first parents moved to their neighbour's, from the 5000th
    for i in range(5000, n, 101):
        p = struct.unpack('>I', b[cd(i) + 20:cd(i) + 24])[0]
        if p < 0x70000000:
            b[cd(i) + 20:cd(i) + 24] = struct.pack('>I', (p + 1) % n)
elif how == 'parent-out-of-range':
    for i in range(n):
        if struct.unpack('>I', b[cd(i) + 20:cd(i) + 24])[0] < 0x70000000:
            b[cd(i) + 20:cd(i) + 24] = struct.pack('>I', 0x6fffffff)
elif how == 'counts':        # the fanout says more commits than the file holds
    for k in range(256):
        b[oidf + 4 * k:oidf + 4 * k + 4] = struct.pack('>I', 0x7fffffff)
elif how == 'truncated':
    del b[len(b) // 2:]
elif how == 'chunk-offset':
    b[8 + 4:8 + 12] = struct.pack('>Q', len(b) + 4096)
elif how.startswith('random'):
    rnd = random.Random(how)
    for _ in range(rnd.choice([1, 4, 64])):
        b[rnd.randrange(len(b))] ^= 1 << rnd.randrange(8)
open(path, 'wb').write(b)
PY
    echo "$d"
}

for how in dates parent-moved parent-out-of-range; do
    walk "a damaged file: $how" "$(damage "$how" "$how")" any "$head"
done
for how in counts truncated chunk-offset; do
    walk "a damaged file: $how" "$(damage "$how" "$how")" none "$head"
done
for k in $(seq 1 12); do
    d=$(damage "random$k" "random$k")
    walk "a damaged file: random bytes $k" "$d" any "$head"
    rm -rf "$d"
done
missing=$(copy missing-layer)
cp -a "$chain/objects/info/commit-graphs" "$missing/objects/info/"
chmod -R u+w "$missing/objects/info/commit-graphs"
rm -f "$(ls "$missing"/objects/info/commit-graphs/*.graph | tail -1)"
walk "a chain that names a missing layer" "$missing" none "$head"

# 2. through fixes_load: every row the same
fresh_db "$db"
load() {    # load PATH NAME [STABLE]: with fixes.reader_prefetch on; its DEBUG1 lines in $work/log.NAME
    psql_q -At -v path="$1" -v name="$2" -v stable="${3:-}" >/dev/null 2>"$work/log.$2" <<'SQL'
SET fixes.reader_prefetch = on;
SET client_min_messages = debug1;
SELECT * FROM fixes_load(:'path', name => :'name',
                         stable_branches => nullif(:'stable', ''));
SQL
}
# the commits the second process read in NAME's load (its DEBUG1 line), or none
prefetched() {
    sed -n 's/.*fixes-reader: \([0-9]*\) of [0-9]* commits read by the second process.*/\1/p' "$work/log.$1" | head -1
}
rows() {    # rows NAME PATH: rows.sql of NAME, its path written as REPO
    psql_q -At -F $'\t' -v repo="$1" -f "$top/test/refresh-fuzz/rows.sql" | sed "s#$2#REPO#g"
}
stable_src=$(make_history_repo 5000 3)
sgood="$work/stable-graph.git"
git clone -q --bare "$stable_src" "$work/stable-plain.git"
git clone -q --bare "$work/stable-plain.git" "$sgood"
git -C "$sgood" commit-graph write --reachable >/dev/null 2>&1

t0=$(date +%s.%N)
names=(plain single chain stale dates parent-moved counts)
paths=("$plain" "$single" "$chain" "$stale" "$work/dates.git" "$work/parent-moved.git" "$work/counts.git")
for i in "${!names[@]}"; do
    load "${paths[$i]}" "${names[$i]}"
done
re='^refs/heads/v[0-9]+\.[0-9]+\.y$'
load "$work/stable-plain.git" stable-plain "$re"
load "$sgood" stable-graph "$re"
echo "loaded ${#names[@]} copies of make-history 20000 and 2 of 5000 with 3 stable branches in $(elapsed "$t0") s"
# fixes.reader_prefetch reaches the reader: the copies with a good file were read by two processes
for n in single chain; do
    k=$(prefetched $n)
    if [ -z "$k" ] || [ "$k" -eq 0 ]; then
        echo "FAIL: $n: with fixes.reader_prefetch on, the second process read no commit (${k:-no DEBUG1 line})"
        fails=$((fails + 1))
    else
        echo "ok: $n: the second process read $k commits (fixes.reader_prefetch on)"
    fi
done
# and only it: off, no second process
psql_q -At -v path="$single" >/dev/null 2>"$work/log.off" <<'SQL'
SET client_min_messages = debug1;
SELECT * FROM fixes_load(:'path', name => 'single-off');
SQL
if grep -q 'read by the second process' "$work/log.off"; then
    echo "FAIL: with fixes.reader_prefetch off, the reader still turned the second process on"
    fails=$((fails + 1))
fi

rows plain "$plain" >"$work/rows.plain"
for i in "${!names[@]}"; do
    [ "${names[$i]}" = plain ] && continue
    rows "${names[$i]}" "${paths[$i]}" >"$work/rows.${names[$i]}"
    if ! diff -q "$work/rows.plain" "$work/rows.${names[$i]}" >/dev/null; then
        echo "FAIL: ${names[$i]}: rows differ from the plain copy's:"
        diff "$work/rows.plain" "$work/rows.${names[$i]}" | head -20
        fails=$((fails + 1))
    else
        echo "ok: ${names[$i]}: $(wc -l <"$work/rows.plain") rows, the same as without a commit-graph file"
    fi
done
rows stable-plain "$work/stable-plain.git" >"$work/rows.sp"
rows stable-graph "$sgood" >"$work/rows.sg"
if ! diff -q "$work/rows.sp" "$work/rows.sg" >/dev/null; then
    echo "FAIL: the stable scope: rows differ with a commit-graph file:"
    diff "$work/rows.sp" "$work/rows.sg" | head -20
    fails=$((fails + 1))
elif ! grep -q '^v_backports' "$work/rows.sp" || ! grep -q '^v_affected' "$work/rows.sp"; then
    echo "FAIL: the stable scope: no stable rows were loaded"
    fails=$((fails + 1))
else
    echo "ok: the stable scope: $(wc -l <"$work/rows.sp") rows, the same with a commit-graph file"
fi
# the stable walk itself: several heads, the mainline's ids known (the reader, both ways)
walk "make-history 5000 with stable branches, the branches' heads" "$sgood" any \
    $(git -C "$sgood" for-each-ref --format='%(objectname)' 'refs/heads/v*.y')

[ "$fails" = 0 ] || { echo "$fails failures"; exit 1; }
finish 0
