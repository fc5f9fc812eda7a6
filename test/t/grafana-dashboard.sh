#!/bin/bash
# grafana-dashboard.sh — every SQL query of grafana/fixes-dashboard.json runs, as the read-only
# role that grafana/README.md documents, and returns rows that Grafana can draw without a
# transformation (test/oracles/grafana_queries.py: a time_series query's `time` column is timestamp with
# time zone, its values numeric, its rows in time order, every drawn column holds data; the
# dashboard's structure: uid, data source variable, raw SQL targets, no transformations).
#
# The repository has data for every panel: a copy of make-history's 20000 commits with 3 stable
# branches (Reported-by: syzbot trailers, stable releases, known bugs per series, a MAINTAINERS
# file), loaded with stable_branches, files => true and maintainers => 'MAINTAINERS' (the
# per-subsystem and per-directory panels, the size and subsystems of the buggiest commits), plus
# three mainline commits with Reviewed-by / Acked-by trailers (make-history writes none) and a
# release tag on them, 800 days after the history (the windowed lifetime counts need it). The copy shares the cached repository's objects (git clone --shared) and
# lives in the script's temporary directory. The dashboard must have a panel on each view that
# issue 15 asks for (the list `sources` below): a panel removed by mistake fails the test. The
# buggiest-commits panels take the view's first 30 rows in its own order (no ORDER BY, which
# would sort every fixed commit): that order is checked against rank, first fixed, commit id.
#
# Two set-ups, each in its own scratch database with its own role (roles are global to the
# cluster, so the test renames grafana_fixes rather than touch a real one):
#   fixes_t_grafana         extension in schema public, role fixes_t_grafana_ro created by the
#                           README's block grafana-role
#   fixes_t_grafana_schema  extension in schema fixes, role fixes_t_grafana_ro_s created by the
#                           README's block grafana-role-schema
# and, as each role: fixes_load / fixes_git_commits / writing a table are refused. Also: the
# provisioning examples in grafana/provisioning agree with the dashboard and the README, and
# the manual's Grafana page (docs/grafana.md) shows the same role as grafana/README.md.
#
# FIXES_GRAFANA_DASHBOARD=FILE checks another dashboard file (e.g. an edited copy).
# Exit 0 pass, 1 fail (databases and roles kept for inspection), 77 skip (no make-history).
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

dashboard=${FIXES_GRAFANA_DASHBOARD:-$top/grafana/fixes-dashboard.json}
readme=$top/grafana/README.md
helper=$top/test/oracles/grafana_queries.py
stable='^refs/heads/v[0-9]+\.[0-9]+\.y$'
export PGTZ=UTC
need_make_history
for f in "$dashboard" "$readme" "$helper"; do
    [ -f "$f" ] || { echo "FAIL: $f not found"; exit 1; }
done

su_psql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

drop_all() {
    drop_db fixes_t_grafana
    drop_db fixes_t_grafana_schema
    su_psql -d postgres -c 'SET client_min_messages = warning' \
        -c 'DROP ROLE IF EXISTS fixes_t_grafana_ro' -c 'DROP ROLE IF EXISTS fixes_t_grafana_ro_s'
}

# expect_denied DB ROLE SQL: SQL run as ROLE must fail with "permission denied"
expect_denied() {
    local out
    if out=$(PGUSER=$2 psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c "$3" 2>&1); then
        echo "FAIL: as $2, this succeeded but must be refused: $3"
        return 1
    fi
    if ! grep -q 'permission denied' <<<"$out"; then
        echo "FAIL: as $2, want 'permission denied' for: $3"
        echo "    got: $out"
        return 1
    fi
    echo "ok   refused as $2: $3"
}

# review_repo DIR: a copy of make-history's repository (20000 commits, 3 stable branches) in DIR,
# its master with three more commits that carry Reviewed-by and Acked-by trailers, tagged as the
# next release (the last mainline release's minor number plus one); fixed names and dates, so
# the ids are those of every run (a subshell: the git variables stay in it)
review_repo() (
    local dir=$1 mhrepo head tree t last next i trailer
    mhrepo=$(make_history_repo 20000 3) || return 1
    git clone -q --bare --shared "$mhrepo" "$dir" || return 1
    export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
           GIT_AUTHOR_NAME='Rev Iewer' GIT_AUTHOR_EMAIL=rev@example.org \
           GIT_COMMITTER_NAME='Rev Iewer' GIT_COMMITTER_EMAIL=rev@example.org
    head=$(git -C "$dir" rev-parse master) || return 1
    tree=$(git -C "$dir" rev-parse 'master^{tree}') || return 1
    t=$(git -C "$dir" log -1 --format=%ct master) || return 1
    # 800 days later: every release before them is observed for more than 730 days, so the
    # lifetime panel's counts of bugs found within 1 and 2 years (NULL until then) have data
    t=$((t + 800 * 86400))
    for i in 1 2 3; do
        case $i in
        1) trailer='Reviewed-by: Rev Iewer <rev@example.org>' ;;
        2) trailer='Acked-by: Ack Er <ack@example.org>' ;;
        3) trailer=$'Reviewed-by: Rev Iewer <rev@example.org>\nAcked-by: Ack Er <ack@example.org>' ;;
        esac
        t=$((t + 86400))
        export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"
        head=$(printf 'net: reviewed change %d\n\nA change with a review trailer.\n\n%s\nSigned-off-by: Dev 1 <dev1@example.org>\n' \
                      "$i" "$trailer" | git -C "$dir" commit-tree "$tree" -p "$head") || return 1
    done
    git -C "$dir" update-ref refs/heads/master "$head" || return 1
    last=$(git -C "$dir" tag --merged master --sort=v:refname | grep -E '^v[0-9]+\.[0-9]+$' | tail -n 1)
    [ -n "$last" ] || { echo "no release vM.N in $mhrepo" >&2; return 1; }
    next="${last%.*}.$(( ${last##*.} + 1 ))"
    git -C "$dir" tag -a -m "$next" "$next" "$head" || return 1
    chmod -R a+rX "$dir"
    echo "$dir: $mhrepo, 3 reviewed commits, release $next" >&2
)

# setup DB SCHEMA ROLE BLOCK: a database with the extension in SCHEMA, the repository loaded
# twice (a reload must keep the role's grants), the role made by the README's BLOCK;
# prints the repository's name
setup() {
    local db=$1 schema=$2 role=$3 block=$4 name
    createdb "$db" || return 1
    if [ "$schema" = public ]; then
        su_psql -d "$db" -c 'CREATE EXTENSION fixes' || return 1
    else
        su_psql -d "$db" -c "CREATE SCHEMA $schema" -c "CREATE EXTENSION fixes SCHEMA $schema" || return 1
    fi
    load "$db" "$schema" >"$work/name" || return 1
    name=$(cat "$work/name")
    python3 "$helper" role-sql "$readme" "$block" "$role" >"$work/$block.sql" || return 1
    echo "-- $block of grafana/README.md, as $role in $db:" >&2
    sed 's/^/   /' "$work/$block.sql" >&2
    su_psql -d "$db" -f "$work/$block.sql" || return 1
    load "$db" "$schema" >/dev/null || return 1
    [ -n "$name" ] && echo "$name"
}

# load DB SCHEMA: fixes_load of the repository with its stable branches, its files and its
# MAINTAINERS, as the superuser; prints the repository's name. Then ANALYZE, as autovacuum does
# within a minute or so of a load (README, "Tables"): the panels' queries are planned as on a
# database in use, and the test's run time does not depend on whether autovacuum came first.
load() {
    su_psql -At -d "$1" -v path="$repo" -v s="$2" -v stable="$stable" <<'SQL'
SET search_path = :"s";
SELECT repository FROM fixes_load(:'path', stable_branches => :'stable', files => true,
                                  maintainers => 'MAINTAINERS');
SET client_min_messages = warning;
ANALYZE;
SQL
}

drop_all
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod a+rx "$work"              # the server reads the repository as its own OS user
repo=$work/dash.git
if ! review_repo "$repo"; then
    echo "FAIL: building the repository did not work (see above)"
    exit 1
fi
rc=0

# the views and functions of issue 15's panels: each is read by some panel's query
sources="fixes_per_release fixes_lifetime_per_release fixes_per_stable_release fixes_trailers
         fixes_buggiest_commits fixes_per_subsystem fixes_per_path_prefix"
for src in $sources; do
    n=$(python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
print(sum(1 for p in d.get("panels", []) for t in p.get("targets", [])
          if re.search(r"\b%s\b" % sys.argv[2], t.get("rawSql", ""))))' "$dashboard" "$src")
    if [ "$n" -gt 0 ]; then
        echo "ok   $n panel quer$([ "$n" = 1 ] && echo y || echo ies) read $src"
    else
        echo "FAIL: no panel of $dashboard reads $src"
        rc=1
    fi
done
# the buggiest commits table shows what each commit changed and its subsystems
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(not any(p.get("type") == "table" and all(c in t.get("rawSql", "") for c in
                 ("fixes_buggiest_commits", "files", "added", "deleted", "subsystems"))
                 for p in d.get("panels", []) for t in p.get("targets", [])))' "$dashboard"; then
    echo "ok   a table of fixes_buggiest_commits shows files, added, deleted, subsystems"
else
    echo "FAIL: no table panel shows files, added, deleted and subsystems of fixes_buggiest_commits"
    rc=1
fi

python3 "$helper" provisioning "$top/grafana" || rc=1
# the manual's Grafana page (docs/grafana.md) shows the same role as grafana/README.md's block
top_block=$(awk '/^# Grafana/ { g = 1 } g && /^```sql/ { f = 1; next } f && /^```/ { exit } f' "$top/docs/grafana.md")
if [ -z "$top_block" ] || [ "$top_block" != "$(python3 "$helper" role-sql "$readme" grafana-role grafana_fixes)" ]; then
    echo "FAIL: the SQL block of docs/grafana.md differs from grafana-role of $readme"
    rc=1
else
    echo "ok   docs/grafana.md shows the grafana-role block"
fi

for setup_args in "fixes_t_grafana public fixes_t_grafana_ro grafana-role" \
                  "fixes_t_grafana_schema fixes fixes_t_grafana_ro_s grafana-role-schema"; do
    read -r db schema role block <<<"$setup_args"
    echo "== $db: extension in schema $schema, role $role ($block)"
    if ! name=$(setup "$db" "$schema" "$role" "$block"); then
        echo "FAIL: setting up $db did not work (see above)"
        exit 1
    fi
    echo "repository: $name ($repo)"
    if [ "$(psql -X -At -d "$db" -c "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls
                                        FROM pg_roles WHERE rolname = '$role'")" != f ]; then
        echo "FAIL: $role has more than LOGIN"
        rc=1
    fi
    PGUSER=$role PGDATABASE=$db python3 "$helper" check "$dashboard" "$name" || rc=1
    # the resolution panel counts what fixes_load reports (issue 29): its resolved, and the
    # three statuses together its edges (fixes_repositories records what the load returned)
    panel_sql=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
def walk(ps):
    for p in ps or []:
        yield p
        yield from walk(p.get("panels"))
sql = [t["rawSql"] for p in walk(d["panels"]) if p.get("title") == "Fixes: lines by resolution status"
       for t in p.get("targets", [])]
print(sql[0].replace("$repository", sys.argv[2].replace("\x27", "\x27\x27")) if len(sql) == 1 else "")' "$dashboard" "$name")
    by_panel=$(PGUSER=$role psql -X -At -d "$db" -c "SELECT resolved, resolved + ambiguous + not_found FROM ($panel_sql) x" 2>&1) || true
    by_load=$(echo "SELECT resolved, edges FROM $schema.fixes_repositories WHERE name = :'n'" | psql -X -At -d "$db" -v n="$name" 2>&1) || true
    stable_lines=$(echo "SELECT count(*) FROM $schema.fixes_edges e JOIN $schema.fixes_commits c
                           ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
                          WHERE e.kind = 'fixes' AND NOT c.mainline" | psql -X -At -d "$db" 2>&1) || true
    if [ -n "$panel_sql" ] && [ "$by_panel" = "$by_load" ] && [ "$stable_lines" -gt 0 ] 2>/dev/null; then
        echo "ok   the resolution panel counts what fixes_load reports (resolved|edges $by_load), not the $stable_lines Fixes lines of stable commits"
    else
        echo "FAIL: the resolution panel gives resolved|edges [$by_panel], fixes_load [$by_load] (stable commits' lines: $stable_lines)"
        rc=1
    fi
    # the buggiest-commits panels take the view's first 30 rows without an ORDER BY of their
    # own (one would sort every fixed commit: seconds at 1.3M commits); the view's order must
    # be that of rank, first fixed, commit id
    by_view=$(echo "SELECT rank, commit_id FROM fixes_buggiest_commits WHERE repository = :'n'
                    LIMIT 30" | PGUSER=$role psql -X -At -d "$db" -v n="$name" 2>&1) || true
    by_rank=$(echo "SELECT rank, commit_id FROM fixes_buggiest_commits WHERE repository = :'n'
                    ORDER BY rank, first_fixed_at, commit_id LIMIT 30" |
              PGUSER=$role psql -X -At -d "$db" -v n="$name" 2>&1) || true
    if [ "$(grep -cE '^[0-9]+\|[0-9a-f]{40}$' <<<"$by_view")" = 30 ] && [ "$by_view" = "$by_rank" ]; then
        echo "ok   fixes_buggiest_commits's own order is rank, first fixed, commit id (30 rows)"
    else
        echo "FAIL: the first 30 rows of fixes_buggiest_commits are not in rank order"
        diff <(echo "$by_view") <(echo "$by_rank") | head -5
        rc=1
    fi
    expect_denied "$db" "$role" "SELECT * FROM fixes_load('$repo')" || rc=1
    expect_denied "$db" "$role" "SELECT count(*) FROM fixes_git_commits('$repo')" || rc=1
    expect_denied "$db" "$role" "DELETE FROM fixes_edges" || rc=1
    expect_denied "$db" "$role" "UPDATE fixes_repositories SET name = 'x'" || rc=1
done

if [ $rc != 0 ]; then
    echo "FAIL (databases fixes_t_grafana, fixes_t_grafana_schema and their roles kept for inspection)"
    exit 1
fi
drop_all
echo "PASS"
