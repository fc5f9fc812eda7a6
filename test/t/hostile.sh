#!/usr/bin/env bash
# test/t/hostile.sh — no repository can hang, crash or exhaust the server (issue 11)
#
# Every read of a repository runs in the fixes-reader child process.  For each damaged or
# hostile repository below, a load ends with an ERROR within 1 s of its statement_timeout
# (or at once), the previous load of the same name stays exactly as it was, the backend has no
# child process or zombie left, and the server log shows no crashed backend.  A reader killed
# with SIGSEGV or SIGKILL in the middle of a load is an ERROR too.
#   - truncated.git through ref HEAD~3: rev-parse walks an unchecked, truncated loose object
#     (libgit2 1.5 loops for ever in inflate());
#   - a linked worktree whose shared object store has a truncated loose object;
#   - a pack whose REF_DELTA base is the delta itself (libgit2 allocates without end);
#   - a rev-parse regex with catastrophic backtracking, HEAD^{/(\w+\s?)*\d\d\d\d$};
#   - objects/info/alternates as a FIFO: the reader blocks for ever in open(2).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

work=$(mktemp -d /tmp/fixes-hostile.XXXXXX)
chmod a+rx "$work"
trap 'rm -rf "$work"' EXIT
db=t_hostile
fresh_db "$db"
log="${FIXES_SANDBOX:-/tmp/fixes-sandbox}/log"
log_lines=$(wc -l <"$log" 2>/dev/null || echo 0)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"; }
G() { git -c user.name=t -c user.email=t@example.org "$@"; }

# --- the repositories ---------------------------------------------------------------------
# a linked worktree; the commit it checks out is a loose object of the shared store, truncated
G init -q "$work/main"
for i in 1 2 3; do echo "$i" >"$work/main/f"; G -C "$work/main" add f; G -C "$work/main" commit -qm "c$i"; done
G -C "$work/main" worktree add -q "$work/wt" HEAD 2>/dev/null
obj=$(git -C "$work/main" rev-parse HEAD)
f="$work/main/.git/objects/${obj:0:2}/${obj:2}"
chmod u+w "$f"; truncate -s $(($(stat -c %s "$f") / 2)) "$f"

# a pack whose one REF_DELTA commit names itself as its base
G init -q "$work/cycle"
python3 - "$work/cycle" <<'PY'
import subprocess, sys
d = sys.argv[1]
body = "\n".join("line %d of a long and repetitive commit message body" % i for i in range(400))
for i in range(6):
    open(d + "/f", "w").write("x%d\n" % i)
    subprocess.run(["git", "-C", d, "add", "f"], check=True)
    subprocess.run(["git", "-C", d, "-c", "user.name=t", "-c", "user.email=t@example.org",
                    "commit", "-q", "-m", "subject %d\n\n%s\nend %d" % (i, body, i)], check=True)
subprocess.run(["git", "-C", d, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq",
                "--window=50", "--depth=10"], check=True)
import glob
idx = glob.glob(d + "/.git/objects/pack/*.idx")[0]
out = subprocess.run(["git", "verify-pack", "-v", idx], capture_output=True, text=True).stdout
for line in out.splitlines():
    f = line.split()
    if len(f) == 7 and f[1] == "commit":
        sha, off, base = f[0], int(f[4]), f[6]
        break
else:
    sys.exit("no deltified commit")
pack = idx[:-4] + ".pack"
data = bytearray(open(pack, "rb").read())
assert (data[off] >> 4) & 7 == 7, "not a REF_DELTA"
i = off
while data[i] & 0x80:
    i += 1
i += 1
assert data[i:i + 20] == bytes.fromhex(base)
data[i:i + 20] = bytes.fromhex(sha)
open(pack, "wb").write(data)
PY

# 200 commits for the rev-parse regex
G init -q --bare "$work/many.git"
python3 - "$work/many.git" <<'PY'
import subprocess, sys
lines = []
for i in range(200):
    lines.append("commit refs/heads/master\nmark :%d\ncommitter t <t@example.org> %d +0000\n"
                 "data <<EOT\nword word word word word word word word word word word x%d\nEOT\n"
                 % (i + 1, 1500000000 + i, i))
    if i:
        lines.append("from :%d\n" % i)
subprocess.run(["git", "-C", sys.argv[1], "fast-import", "--quiet"], input="".join(lines).encode(),
               check=True)
PY
G -C "$work/many.git" symbolic-ref HEAD refs/heads/master

# a repository whose alternates file is a FIFO that nobody writes
git clone -q --bare "$fixtures/basic.git" "$work/fifo.git"
mkfifo "$work/fifo.git/objects/info/alternates"
chmod -R a+rX "$work"

# --- the previous load that must survive --------------------------------------------------
q -c "SELECT repository FROM fixes_load('$fixtures/releases.git', name => 'victim')" >/dev/null
before=$(victim_snapshot)

# hostile NAME TIMEOUT SQL-ARGS EXPECT: load under the name victim, within TIMEOUT + 1 s
hostile() {
    local name=$1 timeout=$2 args=$3 expect=$4 t0 secs out
    t0=$(date +%s.%N)
    out=$(psql -X -At -v ON_ERROR_STOP=0 -d "$db" 2>&1 <<SQL
SELECT pg_backend_pid() AS bpid \gset
\setenv BPID :bpid
SET statement_timeout = '$timeout';
SELECT * FROM fixes_load($args, name => 'victim');
\! echo "children: \$(ps --ppid \$BPID -o pid=,stat=,comm= | tr '\\n' ' ')"

SQL
)
    secs=$(elapsed "$t0")
    local limit
    limit=$(awk -v t="${timeout%s}" 'BEGIN { print t + 1 }')
    printf '%-34s %5s s  %s\n' "$name" "$secs" "$(grep -m1 -o 'ERROR: .*' <<<"$out" | cut -c1-110)"
    grep -q 'ERROR:' <<<"$out" || fail "$name: no ERROR"
    grep -q -E "$expect" <<<"$out" || fail "$name: the ERROR is not /$expect/: $out"
    grep -q '^children: *$' <<<"$out" || fail "$name: the backend has children left: $(grep '^children' <<<"$out")"
    awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s < l) }' || fail "$name: took $secs s (limit $limit s)"
}

hostile "truncated.git, ref HEAD~3" 1s "'$fixtures/truncated.git', ref => 'HEAD~3'" \
    'statement timeout|is corrupt'
hostile "worktree, truncated shared object" 1s "'$work/wt'" 'is corrupt'
hostile "REF_DELTA cycle" 1s "'$work/cycle'" 'statement timeout|memory'
hostile "rev-parse regex backtracking" 1s "'$work/many.git', ref => 'HEAD^{/(\\w+\\s?)*\\d\\d\\d\\d\$}'" \
    'statement timeout|not found'
hostile "alternates FIFO" 1s "'$work/fifo.git'" 'statement timeout'

# the delta cycle under a small address-space limit, without a timeout: an out-of-memory ERROR
t0=$(date +%s.%N)
out=$(psql -X -At -d "$db" -c "SET fixes.reader_memory_limit = '256MB'" \
      -c "SELECT * FROM fixes_load('$work/cycle', name => 'victim')" 2>&1 || true)
printf '%-34s %5s s  %s\n' "REF_DELTA cycle, 256MB limit" "$(elapsed "$t0")" "$(grep -m1 -o 'ERROR: .*' <<<"$out")"
grep -q 'ERROR:' <<<"$out" && grep -q -i 'out of memory' <<<"$out" || fail "cycle under 256MB: $out"

# a reader killed in the middle of a load (blocked on the FIFO, so it is surely running)
kill_reader() {
    local sig=$1 expect=$2 app="hostile_kill_$1" pid="" bpid="" out i title
    psql -X -At -d "$db" -c "SET application_name = '$app'" \
         -c "SELECT * FROM fixes_load('$work/fifo.git', name => 'victim')" >"$work/kill.out" 2>&1 &
    local psql_pid=$!
    for i in $(seq 1 200); do
        bpid=$(q -c "SELECT pid FROM pg_stat_activity WHERE application_name = '$app'")
        [ -n "$bpid" ] && pid=$(pgrep -P "$bpid" -x fixes-reader || true)
        [ -n "$pid" ] && break
        sleep 0.05
    done
    if [ -z "$pid" ]; then fail "SIG$sig: no reader process found"; kill "$psql_pid"; return; fi
    # another session sees where the load is in the backend's process title
    title=$(ps -o args= -p "$bpid")
    echo "process title of the loading backend: $title"
    grep -q 'fixes_load victim: ' <<<"$title" || fail "the process title does not show the load: $title"
    kill -s "$sig" "$pid"
    wait "$psql_pid" || true
    out=$(cat "$work/kill.out")
    printf '%-34s %s\n' "reader killed with SIG$sig" "$(grep -m1 -o 'ERROR: .*' <<<"$out")"
    grep -q -E "$expect" <<<"$out" || fail "SIG$sig: $out"
}
kill_reader SEGV 'terminated by signal 11'
kill_reader KILL 'terminated by signal 9'

after=$(victim_snapshot)
if [ "$before" != "$after" ]; then fail "the previous load changed: $before -> $after"; fi
echo "previous load of 'victim' intact: $after"
crashes=$(tail -n +"$((log_lines + 1))" "$log" | grep -c 'server process .* was terminated by signal' || true)
[ "$crashes" = 0 ] || fail "the server log shows $crashes crashed backend(s)"
echo "server log: no backend terminated by a signal"

PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$db"
if [ "$failures" -ne 0 ]; then echo "FAIL ($failures)"; exit 1; fi
echo PASS
