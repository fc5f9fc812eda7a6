#!/bin/bash
# cancel.sh — statement_timeout and pg_cancel_backend() stop a load promptly, and a session
# that had 20 loads cancelled has the open files and memory it had before.
#
# Repository: $FIXES_CANCEL_REPO if set (e.g. a 1.3M-commit bench repository), else a
# 100000-commit make-history repository (cached, see test/lib/common.sh; a load of it takes
# a few seconds, long enough to cancel it anywhere).  Own database
# fixes_t_cancel.  Exit 0 pass, 1 fail, 77 skip (no repository large enough).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
db=fixes_t_cancel

if [ -n "${FIXES_CANCEL_REPO:-}" ]; then
    repo=$FIXES_CANCEL_REPO
elif [ -f "$mh" ]; then
    repo=$(make_history_repo 100000)
else
    echo "SKIP: no repository large enough to cancel a load in (set FIXES_CANCEL_REPO, or provide $mh)"
    exit 77
fi
fresh_db "$db"
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# the time a load takes once the session is warm, to aim the cancels inside it
full=$(psql_q -At -v repo="$repo" 2>/dev/null <<'SQL'
SELECT fixes_load(:'repo', name => 'warm-up-1') IS NOT NULL AS warmed \gset
SELECT round(seconds::numeric, 3) FROM fixes_load(:'repo', name => 'warm-up-2');
SQL
)
echo "a load of $repo takes $full s"

# 1. twenty loads stopped by statement_timeout at points spread over the load, in ONE
#    session: its open files, its PostgreSQL memory contexts and its resident anonymous
#    memory after 10 and after 20 cancelled loads (memory freed to malloc is not always
#    given back to the system, so RSS is checked for growth between 10 and 20, not against
#    the start)
script=$(mktemp)
fdlog=$(mktemp)
{
    echo "\\set QUIET on"
    echo "\\pset tuples_only on"
    echo "\\pset format unaligned"
    echo "CREATE TEMP TABLE probe (at text, fds int, contexts_kb bigint, rss_anon_kb bigint);"
    echo "CREATE FUNCTION pg_temp.probe(at text) RETURNS void LANGUAGE sql AS \$\$"
    echo "  INSERT INTO probe SELECT at, (SELECT count(*) FROM pg_ls_dir('/proc/self/fd')),"
    echo "    (SELECT sum(total_bytes) / 1024 FROM pg_backend_memory_contexts),"
    echo "    (SELECT substring(l FROM '([0-9]+) kB')::bigint"
    echo "       FROM regexp_split_to_table(pg_read_file('/proc/self/status'), E'\\n') l WHERE l LIKE 'RssAnon:%')"
    echo "\$\$;"
    echo "SELECT pg_backend_pid() AS pid \\gset"
    echo "\\setenv BPID :pid"
    echo "SELECT pg_temp.probe('first');   -- opens the probe table's own file"
    echo "SELECT pg_temp.probe('0');"
    echo "\\! ls -l /proc/\$BPID/fd > $fdlog.0"
    for i in $(seq 1 20); do
        ms=$(awk -v f="$full" -v i="$i" 'BEGIN { printf "%d", 50 + f * 900 * i / 21 }')
        echo "SET statement_timeout = '${ms}ms';"
        echo "SELECT 'loaded', commits FROM fixes_load(:'repo', name => 'cancel-$i');"
        echo "RESET statement_timeout;"
        [ "$i" != 10 ] || echo "SELECT pg_temp.probe('10');"
        [ "$i" != 10 ] || echo "\\! ls -l /proc/\$BPID/fd > $fdlog.10"
    done
    echo "SELECT pg_temp.probe('20');"
    echo "\\! ls -l /proc/\$BPID/fd > $fdlog.20"
    echo "SELECT 'probe', at, fds, contexts_kb, rss_anon_kb FROM probe WHERE at <> 'first' ORDER BY at::int;"
    echo "SELECT 'rows', count(*) FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name LIKE 'cancel-%';"
    echo "SELECT 'expected', coalesce(sum(commits), 0) FROM fixes_repositories WHERE name LIKE 'cancel-%';"
} >"$script"
out=$(psql -X -d "$db" -v repo="$repo" -f "$script" 2>&1 || true)
rm -f "$script"
trap 'rm -f "$fdlog" "$fdlog".*' EXIT
cancelled=$(grep -c "canceling statement due to statement timeout" <<<"$out" || true)
completed=$(grep -c "^loaded|" <<<"$out" || true)
probe() { grep "^probe|$1|" <<<"$out" | cut -d'|' -f"$2"; }
# files of the load: the repository's packs and indexes, temporary files; PostgreSQL's own
# relation and WAL files come and go with its file cache
ours() { grep -c -e "$repo" -e pgsql_tmp -e '(deleted)' "$fdlog.$1" || true; }
rows=$(grep "^rows|" <<<"$out" | cut -d'|' -f2)
expected=$(grep "^expected|" <<<"$out" | cut -d'|' -f2)
echo "statement_timeout: $cancelled loads cancelled, $completed completed"
printf '%-28s %8s %8s %8s\n' "after N cancelled loads" 0 10 20
printf '%-28s %8s %8s %8s\n' "open files" "$(probe 0 3)" "$(probe 10 3)" "$(probe 20 3)"
printf '%-28s %8s %8s %8s\n' "  of them repository/temp" "$(ours 0)" "$(ours 10)" "$(ours 20)"
printf '%-28s %8s %8s %8s\n' "memory contexts (kB)" "$(probe 0 4)" "$(probe 10 4)" "$(probe 20 4)"
printf '%-28s %8s %8s %8s\n' "RssAnon (kB)" "$(probe 0 5)" "$(probe 10 5)" "$(probe 20 5)"
echo "rows of the cancelled loads left in the tables: $rows (of loads that completed: $expected)"
rc=0
if [ "$cancelled" -lt 15 ]; then echo "FAIL: only $cancelled of 20 loads were cancelled"; rc=1; fi
if [ -z "$(probe 20 3)" ] || [ "$(ours 20)" -gt "$(ours 0)" ]; then
    echo "FAIL: files of the repository or temporary files left open"; rc=1
elif [ $(( $(probe 20 4) - $(probe 0 4) )) -gt 1024 ]; then
    echo "FAIL: memory contexts grew by more than 1 MB"; rc=1
elif [ $(( $(probe 20 5) - $(probe 10 5) )) -gt 8192 ]; then
    echo "FAIL: resident memory kept growing (more than 8 MB from 10 to 20 cancelled loads)"; rc=1
fi
if [ "$rows" != "$expected" ]; then echo "FAIL: a cancelled load left rows behind"; rc=1; fi

# 2. pg_cancel_backend() from another session, at points spread over the load: the time
#    from the cancel to the end of the cancelled statement
worst=0
for frac in 0.1 0.3 0.5 0.7 0.9; do
    psql -X -q -d "$db" -v repo="$repo" <<<"SELECT fixes_load(:'repo', name => 'cancel2')" >/dev/null 2>&1 &
    bg=$!
    pid=
    for _ in $(seq 1 500); do
        pid=$(psql -X -At -d "$db" -c "SELECT pid FROM pg_stat_activity WHERE state = 'active'
                                         AND query LIKE '%cancel2%' AND pid <> pg_backend_pid()")
        [ -z "$pid" ] || break
        sleep 0.01
    done
    sleep "$(awk -v f="$full" -v x="$frac" 'BEGIN { printf "%.3f", f * x }')"
    if [ -z "$pid" ]; then
        wait "$bg" || true
        echo "pg_cancel_backend at $frac of the load: the load had already ended"
        continue
    fi
    t0=$(date +%s%N)
    psql -X -q -At -d "$db" -c "SELECT pg_cancel_backend($pid)" >/dev/null
    wait "$bg" || true
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo "pg_cancel_backend at $frac of the load: stopped after $ms ms"
    [ "$ms" -le "$worst" ] || worst=$ms
done
echo "slowest stop after pg_cancel_backend(): $worst ms"
if [ "$worst" -gt 1000 ]; then echo "FAIL: a cancelled load took more than a second to stop"; rc=1; fi

[ $rc = 0 ] && PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$db"
exit $rc
