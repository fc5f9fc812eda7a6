#!/bin/bash
# guc-prefix.sh — a fixes.* setting made before the library is loaded is kept (issue 29, item 6):
# the module defines every parameter before it reserves the prefix "fixes", which drops the
# placeholders of the parameters not defined yet.
#   - a new session SETs fixes.progress = on and fixes.reader_cpu_limit = 77 before any function
#     of the extension is called (the library is not loaded yet: SHOW gives the placeholder);
#     after a call of fixes_parse_fixes() (which loads it), SHOW gives on and 77, with no
#     "invalid configuration parameter" WARNING;
#   - ALTER DATABASE ... SET fixes.progress = on (and fixes.reader_memory_limit = 1234): a new
#     session sees them before and after the first call, without a WARNING;
#   - the prefix is still reserved: after the load, SET fixes.no_such_setting fails, and a
#     placeholder of that name set before the load is removed with a WARNING.
# Own database fixes_t_guc, dropped on success. Exit 0 pass, 1 fail.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_guc
rc=0
fresh_db "$db"
fail() { echo "FAIL: $*"; rc=1; }
# expect WHAT GOT WANT
expect() {
    if [ "$2" = "$3" ]; then echo "    ok: $1: $2"; else fail "$1: got [$2], want [$3]"; fi
}
work=$(mktemp -d /tmp/fixes-t-guc.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== SET in a new session, before the library is loaded"
# one session: -c commands run in order in the same connection
psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" \
    -c "SELECT 'loaded before', count(*) > 0 FROM pg_catalog.pg_settings WHERE name = 'fixes.reader_memory_limit'" \
    -c "SET fixes.progress = on" \
    -c "SET fixes.reader_cpu_limit = 77" \
    -c "SHOW fixes.progress" \
    -c "SELECT count(*) FROM fixes_parse_fixes('Fixes: 0123456789ab (\"x\")')" \
    -c "SHOW fixes.progress" \
    -c "SHOW fixes.reader_cpu_limit" >"$work/set.out" 2>"$work/set.err"
cat "$work/set.out" | sed 's/^/    /'
expect "the library was not loaded before the SET" "$(sed -n 1p "$work/set.out")" "loaded before|f"
expect "fixes.progress before the first call (a placeholder)" "$(sed -n 2p "$work/set.out")" "on"
expect "fixes.progress after the first call" "$(sed -n 4p "$work/set.out")" "on"
expect "fixes.reader_cpu_limit after the first call" "$(sed -n 5p "$work/set.out")" "77s"
expect "messages of the session" "$(cat "$work/set.err")" ""

echo "== ALTER DATABASE ... SET"
psql_q -c "ALTER DATABASE $db SET fixes.progress = on" \
       -c "ALTER DATABASE $db SET fixes.reader_memory_limit = 1234"
psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" \
    -c "SHOW fixes.progress" \
    -c "SELECT count(*) FROM fixes_parse_fixes('Fixes: 0123456789ab (\"x\")')" \
    -c "SHOW fixes.progress" \
    -c "SHOW fixes.reader_memory_limit" >"$work/db.out" 2>"$work/db.err"
cat "$work/db.out" | sed 's/^/    /'
expect "fixes.progress before the first call" "$(sed -n 1p "$work/db.out")" "on"
expect "fixes.progress after the first call" "$(sed -n 3p "$work/db.out")" "on"
expect "fixes.reader_memory_limit after the first call" "$(sed -n 4p "$work/db.out")" "1234MB"
expect "messages of the session" "$(cat "$work/db.err")" ""
psql_q -c "ALTER DATABASE $db RESET ALL"

echo "== the prefix is still reserved"
psql -X -At -d "$db" \
    -c "SET fixes.no_such_setting = 1" \
    -c "SELECT count(*) FROM fixes_parse_fixes('')" \
    -c "SET fixes.no_such_setting = 2" >"$work/res.out" 2>"$work/res.err" || true
sed 's/^/    /' "$work/res.err"
grep -q 'WARNING:  invalid configuration parameter name "fixes.no_such_setting", removing it' "$work/res.err" \
    && echo "    ok: the placeholder set before the load is removed, with a WARNING" \
    || fail "no WARNING removing the placeholder fixes.no_such_setting"
grep -q 'ERROR:  invalid configuration parameter name "fixes.no_such_setting"' "$work/res.err" \
    && echo "    ok: SET of an unknown fixes.* parameter after the load is an ERROR" \
    || fail "SET fixes.no_such_setting after the load is not an ERROR"

finish $rc
