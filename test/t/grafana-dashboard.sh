#!/bin/bash
# grafana-dashboard.sh — every SQL query of grafana/fixes-dashboard.json runs, as the read-only
# role that grafana/README.md documents, on the fixture repository releases.git, and returns rows
# that Grafana can draw without a transformation (test/grafana_queries.py: a time_series query's
# `time` column is timestamp with time zone, its values numeric, its rows in time order; the
# dashboard's structure: uid, data source variable, raw SQL targets, no transformations).
#
# Two set-ups, each in its own scratch database with its own role (roles are global to the
# cluster, so the test renames grafana_fixes rather than touch a real one):
#   fixes_t_grafana         extension in schema public, role fixes_t_grafana_ro created by the
#                           README's block grafana-role
#   fixes_t_grafana_schema  extension in schema fixes, role fixes_t_grafana_ro_s created by the
#                           README's block grafana-role-schema
# and, as each role: fixes_load / fixes_git_commits / writing a table are refused. Also: the
# provisioning examples in grafana/provisioning agree with the dashboard and the README.
#
# FIXES_GRAFANA_DASHBOARD=FILE checks another dashboard file (e.g. an edited copy).
# Exit 0 pass, 1 fail (databases and roles kept for inspection), 77 skip (no releases.git).
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

dashboard=${FIXES_GRAFANA_DASHBOARD:-$top/grafana/fixes-dashboard.json}
readme=$top/grafana/README.md
helper=$top/test/grafana_queries.py
repo=$fixtures/releases.git
export PGTZ=UTC
need_fixture releases.git
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

# setup DB SCHEMA ROLE BLOCK: a database with the extension in SCHEMA, releases.git loaded
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

# load DB SCHEMA: fixes_load(releases.git) as the superuser; prints the repository's name
load() {
    su_psql -At -d "$1" -v path="$repo" -v s="$2" <<'SQL'
SET search_path = :"s";
SELECT repository FROM fixes_load(:'path');
SQL
}

drop_all
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0

python3 "$helper" provisioning "$top/grafana" || rc=1

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
