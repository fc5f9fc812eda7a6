#!/bin/bash
# pg-cron.sh — fixes_load scheduled with pg_cron keeps a repository current (issue 15), with the
# privileges docs/refresh.md ("Scheduling loads") names.
#
# A throw-away cluster of its own (scripts/sandbox with FIXES_SANDBOX under /tmp and a port from
# ${FIXES_CRON_PORT:-54380} up; the shared sandbox is not touched), with
# shared_preload_libraries = 'pg_cron' and cron.database_name = 'fixes_cron':
#   1. CREATE EXTENSION fixes, pg_cron in fixes_cron; a role fixes_cron_loader (LOGIN, member of
#      pg_read_server_files, docs/refresh.md's GRANTs on the tables, USAGE on schema cron);
#   2. as that role: a first fixes_load of a clone of ${FIXES_FIXTURES}/releases.git, then
#      cron.schedule('fixes-cron', '* * * * *', 'SELECT fixes_load(...)') (every minute:
#      Debian's pg_cron 1.4 has no seconds);
#   3. two commits added to the clone, one with a Fixes: line;
#   4. waits (polling every 2 s, at most 150 s: the next minute's run) until the scheduled load
#      has them: 40 commits, the new edge resolved, the run recorded as succeeded by pg_cron,
#      as fixes_cron_loader;
#   5. cron.unschedule; the cluster is stopped and removed on exit (trap), whatever happened.
# Exit 0 pass, 1 fail, 77 skip (pg_cron not installed: scripts/deps test installs
# postgresql-15-cron; or no releases.git fixture).
# Most of its time is the wait for the next minute, so scripts/test runs it while the fuzzers
# run (it touches nothing of the shared sandbox):
# scripts/test: beside fuzz
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
command -v "$PG_CONFIG" >/dev/null 2>&1 || PG_CONFIG=pg_config
db=fixes_cron
role=fixes_cron_loader
wait_max=150

if [ ! -f "$("$PG_CONFIG" --pkglibdir)/pg_cron.so" ] ||
   [ ! -f "$("$PG_CONFIG" --sharedir)/extension/pg_cron.control" ]; then
    echo "SKIP: pg_cron is not installed for $("$PG_CONFIG" --version) (scripts/deps test installs postgresql-15-cron)"
    exit 77
fi
if [ ! -d "$fixtures/releases.git" ]; then
    echo "SKIP: $fixtures/releases.git not found (run test/fixtures/build $fixtures)"
    exit 77
fi

# git without the user's or the system's configuration, and with fixed identities and dates
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 LC_ALL=C
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
export GIT_AUTHOR_NAME='Cora Cron' GIT_AUTHOR_EMAIL='cora@example.org'
export GIT_COMMITTER_NAME='Max Maintainer' GIT_COMMITTER_EMAIL='max@example.org'
export PGCLIENTENCODING=UTF8 PGTZ=UTC

work=$(mktemp -d /tmp/fixes-t-pg-cron.XXXXXX)
chmod a+rx "$work"
rc=0
sb() { FIXES_SANDBOX="$work/pg" FIXES_SANDBOX_PORT=${FIXES_CRON_PORT:-54380} "$top/scripts/sandbox" "$@"; }
cleanup() {
    local status=$?
    sb destroy >/dev/null 2>&1 || true
    if [ $rc = 0 ] && [ $status = 0 ]; then
        rm -rf "$work"
    else
        echo "(kept $work for inspection; its cluster is stopped)"
    fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; rc=1; }
check() {       # check WHAT GOT WANT
    if [ "$2" = "$3" ]; then echo "    ok: $1: $2"; else fail "$1: got '$2', want '$3'"; fi
}

echo "== a cluster of its own, with pg_cron"
sb start | sed 's/^/    /'
eval "$(sb env)"
export PGHOST PGPORT PGUSER PGDATABASE
createdb "$db"
# cron.database_name is known (to ALTER SYSTEM) once pg_cron is loaded: two restarts
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_cron'"
sb restart >/dev/null
eval "$(sb env)"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "ALTER SYSTEM SET cron.database_name = '$db'"
sb restart | sed 's/^/    /'
eval "$(sb env)"
export PGHOST PGPORT PGUSER PGDATABASE

as_admin() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" -At -F ' ' "$@"; }
as_loader() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" -U "$role" -At -F ' ' "$@"; }

as_admin <<SQL
CREATE EXTENSION fixes;
CREATE EXTENSION pg_cron;
-- docs/refresh.md's role for scheduled loads
CREATE ROLE $role LOGIN;
GRANT pg_read_server_files TO $role;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO $role;
GRANT USAGE ON SCHEMA cron TO $role;
SQL
echo "    $(as_admin -c "SELECT 'pg_cron ' || extversion FROM pg_extension WHERE extname = 'pg_cron'"), shared_preload_libraries = $(as_admin -c 'SHOW shared_preload_libraries')"

clone="$work/releases"
git clone -q --no-hardlinks "$fixtures/releases.git" "$clone"
chmod -R a+rX "$work"

echo "== as $role: a first load, then fixes_load scheduled every minute"
check "first load" "$(as_loader -v path="$clone" <<'SQL'
SELECT repository, commits, edges, resolved FROM fixes_load(:'path', name => 'cron');
SQL
)" "cron 38 21 16"
jobid=$(as_loader -v path="$clone" <<'SQL'
SELECT cron.schedule('fixes-cron', '* * * * *', format('SELECT fixes_load(%L, name => %L)', :'path', 'cron'));
SQL
)
check "the job" "$(as_admin -c "SELECT schedule, username, database, active FROM cron.job WHERE jobid = $jobid")" \
    "* * * * * $role $db t"

echo "== two new commits"
a03=$(awk -F'\t' '$1 == "releases.git" && $2 == "A03" {print $3}' "$fixtures/ids.tsv")
export GIT_AUTHOR_DATE='@1582003600 +0000' GIT_COMMITTER_DATE='@1582004200 +0000'
git -C "$clone" commit -q --allow-empty -m 'net: fix socket leak, once more' \
    -m "Fixes: ${a03:0:12} (\"net: add socket layer\")"
export GIT_AUTHOR_DATE='@1582007200 +0000' GIT_COMMITTER_DATE='@1582007800 +0000'
git -C "$clone" commit -q --allow-empty -m 'docs: mention the socket fix'
head=$(git -C "$clone" rev-parse HEAD)
fixer=$(git -C "$clone" rev-parse HEAD~1)
chmod -R a+rX "$clone"
echo "    new head $head"

echo "== waiting for a scheduled run to load them (at most $wait_max s)"
t0=$(date +%s)
got=
while [ $(($(date +%s) - t0)) -le $wait_max ]; do
    got=$(as_admin -c "SELECT head_commit FROM fixes_repositories WHERE name = 'cron'")
    [ "$got" = "$head" ] && break
    sleep 2
done
if [ "$got" = "$head" ]; then
    echo "    ok: loaded by the job after $(($(date +%s) - t0)) s"
    check "commits, edges, resolved" "$(as_admin -c "SELECT commits, edges, resolved FROM fixes_repositories WHERE name = 'cron'")" \
        "40 22 17"
    check "the new edge" "$(as_admin -v c="$fixer" <<'SQL'
SELECT e.status, e.method, e.target_commit
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'cron' AND e.fixing_commit = :'c';
SQL
)" "resolved hash $a03"
    check "the run that loaded them, as pg_cron records it" "$(as_admin <<SQL
SELECT status, username, database
  FROM cron.job_run_details WHERE jobid = $jobid AND status = 'succeeded'
 ORDER BY runid LIMIT 1;
SQL
)" "succeeded $role $db"
else
    fail "the scheduled fixes_load did not load the new commits within $wait_max s (head in the table: '${got}')"
    as_admin -c "SELECT runid, status, return_message, start_time FROM cron.job_run_details ORDER BY runid" || true
    tail -n 20 "$work/pg/log" || true
fi
failed=$(as_admin -c "SELECT count(*) FROM cron.job_run_details WHERE jobid = $jobid AND status = 'failed'")
check "failed runs" "$failed" 0
check "cron.unschedule as $role" "$(as_loader -c "SELECT cron.unschedule('fixes-cron')")" t

if [ $rc != 0 ]; then
    echo "FAIL"
    exit 1
fi
echo "PASS"
