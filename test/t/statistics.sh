#!/bin/bash
# statistics.sh — a load leaves the planner statistics of the tables it changed much current
# (issue 31): right after the load, in its own transaction, each extension table that the
# load changed by more than autovacuum's analyze threshold (autovacuum_analyze_threshold +
# autovacuum_analyze_scale_factor x the rows the statistics knew) has been analysed, so that
# a join of ids with fixes_commits is planned on the index before autovacuum comes by.
#   1. a small fixture (releases.git, 38 commits: fewer changed rows than the threshold of
#      50) leaves fixes_commits unanalysed, as autovacuum would;
#   2. make-history's 5000-commit repository: fixes_commits and fixes_edges (its releases
#      are fewer than the threshold) have statistics that count their rows exactly (a table this small is read whole), and
#      pg_stats has the commit_id column, the columns of CHECK constraints and index predicates
#      (fixes_edges.kind, status, method; fixes_commits.mainline) and not the wide message, so
#      that fixes_bug_lifetimes is estimated at half its rows or more (it was at 1 row);
#   3. a reload that changes nothing analyses nothing (reltuples stays as it was).
# Exit 0 pass, 1 fail, 77 skip (no fixture / no make-history).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
need_fixture releases.git
need_make_history

db=fixes_t_statistics
fresh_db "$db"
rc=0
check() {   # LABEL GOT WANT
    if [ "$2" == "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: got '$2', want '$3'"; rc=1; fi
}
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }
reltuples() { q "SELECT reltuples::bigint FROM pg_class WHERE oid = 'fixes_commits'::regclass"; }

psql_q -c "SELECT * FROM fixes_load('$fixtures/releases.git')" >/dev/null
check "small load: fixes_commits not analysed" "$(reltuples)" -1

repo=$(make_history_repo 5000)
psql_q -c "SELECT * FROM fixes_load('$repo', name => 'mh')" >/dev/null
for t in fixes_commits fixes_edges; do
    check "$t: reltuples = rows" \
        "$(q "SELECT reltuples::bigint = (SELECT count(*) FROM $t) FROM pg_class WHERE oid = '$t'::regclass")" t
done
check "pg_stats of fixes_commits.commit_id" \
    "$(q "SELECT count(*) FROM pg_stats WHERE tablename = 'fixes_commits' AND attname = 'commit_id'")" 1
# the columns the views filter on: those of CHECK constraints and index predicates, not the wide ones
check "pg_stats of fixes_edges.kind, status, method (CHECK constraints)" \
    "$(q "SELECT count(*) FROM pg_stats WHERE tablename = 'fixes_edges' AND attname IN ('kind', 'status', 'method')")" 3
check "pg_stats of fixes_commits.mainline (an index predicate)" \
    "$(q "SELECT count(*) FROM pg_stats WHERE tablename = 'fixes_commits' AND attname = 'mainline'")" 1
check "no pg_stats of fixes_commits.message (wide, in no index)" \
    "$(q "SELECT count(*) FROM pg_stats WHERE tablename = 'fixes_commits' AND attname = 'message'")" 0
# without them the planner put fixes_bug_lifetimes at 1 row, and joined it by nested loops
est=$(q "EXPLAIN (FORMAT JSON) SELECT * FROM fixes_bug_lifetimes" |
      python3 -c 'import json, sys; print(int(json.load(sys.stdin)[0]["Plan"]["Plan Rows"]))')
rows=$(q "SELECT count(*) FROM fixes_bug_lifetimes")
check "fixes_bug_lifetimes estimated at half its $rows rows or more ($est)" \
    "$([ $((2 * est)) -ge "$rows" ] && [ "$rows" -gt 100 ] && echo yes || echo no)" yes
before=$(reltuples)

# a reload with nothing changed analyses nothing
psql_q -c "SELECT * FROM fixes_load('$repo', name => 'mh')" >/dev/null
check "unchanged reload keeps the statistics" "$(reltuples)" "$before"

finish "$rc"
