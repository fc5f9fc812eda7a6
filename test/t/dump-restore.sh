#!/bin/bash
# dump-restore.sh — pg_dump keeps the rows that fixes_load wrote, and the restored database
# goes on loading (issue 15).
#
# fixes_t_dump_src: CREATE EXTENSION fixes; releases.git, basic.git, large.git, dates.git and
# make-history's 5000-commit repository (when ../shared/bench/make-history exists) loaded,
# releases.git once more by v1.1 as 'grow', and a load unloaded again (so that the next
# repository id is not max + 1); a row of fixes_overrides (a user's correction of D05's
# not_found line, issue 16) applied by a reload of releases.git.  Issue 29: make-history's
# 5000-commit repository with --stable 3 ('mhs': stable branches, reverts, trailers, files =>
# true and its MAINTAINERS, a row of fixes_overrides ignoring one of its Fixes lines, applied by a
# refresh) and backports.git ('bports': stable branches, backports found by subject, a row of
# fixes_backport_overrides, a queued fix);
#   - after every load, no row of any table of the extension breaks a NOT NULL or CHECK
#     constraint of its table (test/lib/ext-constraints.sql, generic over the catalog);
#   - every table of the extension, and the sequence of the repository ids, is marked with
#     pg_extension_config_dump (found in the catalog: a table a later version adds is checked
#     too), so that pg_dump writes their rows;
#   - pg_dump -Fc, pg_restore --exit-on-error into fixes_t_dump_custom; pg_dump (plain SQL) |
#     psql (ON_ERROR_STOP) into fixes_t_dump_plain;
#   - in each restored database, the catalog of the extension (test/lib/ext-catalog.sql) and
#     every row of every table and view (test/lib/ext-rows.sql: all columns except the timing
#     of a load, fixes_repositories.loaded_at and load_seconds; repository ids as names) equal
#     the source's, and so do the repository ids themselves;
#   - in each restored database (and in the source, whose id sequence must go on alike), a reload
#     of 'mhs' and 'bports' without arguments (their stable_branches, files and maintainers
#     remembered) works and changes no row;
#   - then, in the source and in each restored database alike: a new repository first (it
#     takes the next id of the restored sequence: without it, an id in use), a reload that
#     changes nothing (the override still applied: 17 resolved), the refresh of 'grow' to HEAD (an incremental refresh that reads the
#     restored graph) and fixes_unload; the rows are compared again.
# Databases dropped again on success. Exit 0 pass, 1 fail, 77 skip (no releases.git fixture).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

src=fixes_t_dump_src
dbs=(fixes_t_dump_custom fixes_t_dump_plain)
lib="$top/test/lib"
export PGCLIENTENCODING=UTF8 PGTZ=UTC

if [ ! -d "$fixtures/releases.git" ]; then
    echo "SKIP: $fixtures/releases.git not found (run test/fixtures/build $fixtures)"
    exit 77
fi

repos=()
for r in releases basic large dates; do
    [ -d "$fixtures/$r.git" ] && repos+=("$r	$fixtures/$r.git")
done
if [ -f "$mh" ]; then
    repos+=("mh5000	$(make_history_repo 5000)")
    mhs=$(make_history_repo 5000 3)
else
    echo "note: $mh not found (a clone without ../shared/bench): the 5000-commit make-history repository is left out"
fi

work=$(mktemp -d /tmp/fixes-t-dump.XXXXXX)
chmod a+rx "$work"
rc=0
cleanup() {
    if [ $rc = 0 ]; then
        rm -rf "$work"
    else
        echo "(kept $work and databases $src ${dbs[*]} for inspection)"
    fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; rc=1; }
psql_in() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
q() { local db=$1; shift; psql_in "$db" -At -F ' ' "$@"; }

# constraints DB WHEN: no row of the extension's tables in DB breaks a NOT NULL or CHECK constraint
constraints() {
    local db=$1 when=$2 out
    out=$(psql_in "$db" -At -F $'\t' -f "$lib/ext-constraints.sql")
    if [ "$(printf '%s\n' "$out" | grep -vc '^checked')" = 0 ]; then
        echo "    ok: $when: every row of $db keeps its table's constraints ($(printf '%s\n' "$out" | cut -f2))"
    else
        fail "$when: rows of $db break constraints (table, constraint, rows):"
        printf '%s\n' "$out" | grep -v '^checked' | sed 's/^/        /'
    fi
}

# same WHAT FILE_A FILE_B
same() {
    if diff -u "$2" "$3" >"$work/diff"; then
        echo "    ok: $1: identical ($(wc -l <"$2") lines)"
    else
        fail "$1 differ ($(grep -c '^[-+][^-+]' "$work/diff") lines):"
        head -n 40 "$work/diff" | cut -c1-240
    fi
}

# compare DB WHEN: the catalog, the rows and the repository ids of DB equal the source's
compare() {
    local db=$1 when=$2 f
    for f in "$src" "$db"; do
        psql_in "$f" -At -f "$lib/ext-catalog.sql" >"$work/$f.catalog"
        psql_in "$f" -At -F $'\t' -f "$lib/ext-rows.sql" >"$work/$f.rows"
        q "$f" -c 'SELECT name, repository_id FROM fixes_repositories ORDER BY 1' >"$work/$f.ids"
    done
    same "$when: the catalog of the extension in $db and $src" "$work/$src.catalog" "$work/$db.catalog"
    same "$when: every row of every table and view in $db and $src" "$work/$src.rows" "$work/$db.rows"
    same "$when: the repository ids in $db and $src" "$work/$src.ids" "$work/$db.ids"
}

for db in "$src" "${dbs[@]}"; do
    PGOPTIONS='-c client_min_messages=warning' dropdb --if-exists "$db"
done
createdb "$src"
psql_in "$src" -c 'CREATE EXTENSION fixes'

echo "== $src: the loads"
for line in "${repos[@]}"; do
    name=${line%%	*}
    path=${line#*	}
    q "$src" -v path="$path" -v name="$name" <<'SQL' | sed 's/^/    /'
SET client_min_messages = warning;
SELECT 'loaded', repository, commits, releases, edges, resolved FROM fixes_load(:'path', name => :'name');
SQL
done
q "$src" -v path="$fixtures/releases.git" <<'SQL' | sed 's/^/    /'
SELECT 'loaded', repository, commits, releases, edges, resolved FROM fixes_load(:'path', 'v1.1', name => 'grow');
SELECT 'loaded', repository, commits FROM fixes_load(:'path', 'v1.0', name => 'scratch');
SELECT 'unloaded scratch', fixes_unload('scratch');
SQL
# a user's correction (fixes_overrides, issue 16), applied by a reload: pg_dump keeps the row
q "$src" -v path="$fixtures/releases.git" <<'SQL' | sed 's/^/    /'
SET client_min_messages = warning;
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT 'releases', f.commit_id, '00000000abcd', t.commit_id, 'D05 fixed the changelog of v1.0'
  FROM fixes_commits f JOIN fixes_commits t USING (repository_id)
  JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'releases' AND f.subject = 'docs: fix changelog typo'
   AND t.subject = 'docs: update changelog' AND t.release = 'v1.0';
SELECT 'override applied', repository, commits, releases, edges, resolved
  FROM fixes_load(:'path', name => 'releases');
SQL
constraints "$src" "after the loads of 1.0 and 1.1's fixtures"
# issue 29: stable branches, files, MAINTAINERS, trailers, reverts and both kinds of overrides
bports_id() { awk -F '\t' -v l="$1" '$1 == "backports.git" && $2 == l {print $3}' "$fixtures/ids.tsv"; }
if [ -d "$fixtures/backports.git" ]; then
    q "$src" -v path="$fixtures/backports.git" -v w1="$(bports_id W1)" -v b06="$(bports_id B06)" <<'SQL' | sed 's/^/    /'
SET client_min_messages = warning;
INSERT INTO fixes_backport_overrides VALUES ('bports', :'w1', :'b06', 'W1 is B06');
SELECT 'loaded', repository, commits, releases, edges, resolved
  FROM fixes_load(:'path', name => 'bports', stable_branches => 'stable-');
SELECT 'backports by method', string_agg(method || ' ' || n, ', ' ORDER BY method)
  FROM (SELECT method, count(*) n FROM fixes_backports b JOIN fixes_repositories p USING (repository_id)
         WHERE p.name = 'bports' AND method IS NOT NULL GROUP BY method) m;
SQL
    constraints "$src" "after the stable load of backports.git"
else
    echo "note: $fixtures/backports.git not found (an older fixture build): left out"
fi
if [ -n "${mhs:-}" ]; then
    q "$src" -v path="$mhs" <<'SQL' | sed 's/^/    /'
SET client_min_messages = warning;
SELECT 'loaded', repository, commits, releases, edges, resolved
  FROM fixes_load(:'path', 'HEAD~40', name => 'mhs', stable_branches => '^refs/heads/v[0-9]+\.[0-9]+\.y$',
                  files => true, maintainers => 'MAINTAINERS');
SQL
    constraints "$src" "after the load of make-history --stable 3 with files and MAINTAINERS"
    q "$src" -v path="$mhs" <<'SQL' | sed 's/^/    /'
SET client_min_messages = warning;
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT 'mhs', e.fixing_commit, e.abbrev, NULL, 'ignored by the dump test'
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'mhs' AND e.kind = 'fixes' AND e.status = 'resolved'
 ORDER BY e.fixing_commit, e.line LIMIT 1;
SELECT 'refreshed to HEAD, override applied', repository, commits, releases, edges, resolved
  FROM fixes_load(:'path', name => 'mhs');
SELECT 'rows', (SELECT count(*) FROM fixes_commits c WHERE c.repository_id = p.repository_id AND NOT c.mainline) AS stable_commits,
       (SELECT count(*) FROM fixes_commit_subsystems s WHERE s.repository_id = p.repository_id) AS subsystem_rows,
       (SELECT count(*) FROM fixes_trailers t WHERE t.repository_id = p.repository_id) AS trailers,
       (SELECT count(*) FROM fixes_edges e WHERE e.repository_id = p.repository_id AND e.kind = 'revert') AS reverts,
       (SELECT count(*) FROM fixes_edges e WHERE e.repository_id = p.repository_id AND e.status = 'ignored') AS ignored
  FROM fixes_repositories p WHERE p.name = 'mhs';
SQL
    constraints "$src" "after the refresh of make-history --stable 3"
    # the load has every kind of row it is meant to hold
    have=$(q "$src" -c "SELECT (SELECT count(*) FROM fixes_commits c WHERE c.repository_id = p.repository_id AND NOT c.mainline) > 0
                               AND (SELECT count(*) FROM fixes_commit_subsystems s WHERE s.repository_id = p.repository_id) > 0
                               AND (SELECT count(*) FROM fixes_trailers t WHERE t.repository_id = p.repository_id) > 0
                               AND (SELECT count(*) FROM fixes_edges e WHERE e.repository_id = p.repository_id AND e.kind = 'revert') > 0
                               AND (SELECT count(*) FROM fixes_edges e WHERE e.repository_id = p.repository_id AND e.status = 'ignored') > 0
                               AND (SELECT count(*) FROM fixes_releases r WHERE r.repository_id = p.repository_id AND NOT r.mainline) > 0
                          FROM fixes_repositories p WHERE p.name = 'mhs'")
    [ "$have" = t ] || fail "'mhs' lacks stable commits, subsystems, trailers, reverts, an ignored edge or stable releases"
fi

# every table of the extension and the sequences they own are config tables
missing=$(q "$src" <<'SQL'
SELECT string_agg(c.oid::regclass::text, ', ' ORDER BY c.relname)
  FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
 WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes') AND d.deptype = 'e'
   AND c.relkind IN ('r', 'p', 'S')
   AND c.oid <> ALL ((SELECT extconfig FROM pg_extension WHERE extname = 'fixes')::oid[]);
SQL
)
if [ -z "$missing" ]; then
    echo "    ok: every table and sequence of the extension is marked with pg_extension_config_dump" \
         "($(q "$src" -c "SELECT cardinality(extconfig) FROM pg_extension WHERE extname = 'fixes'"))"
else
    fail "not marked with pg_extension_config_dump, so pg_dump leaves their rows out: $missing"
fi

echo "== pg_dump, restored"
pg_dump -Fc -f "$work/src.dump" "$src"
createdb "${dbs[0]}"
pg_restore --exit-on-error -d "${dbs[0]}" "$work/src.dump"
pg_dump -f "$work/src.sql" "$src"
createdb "${dbs[1]}"
psql_in "${dbs[1]}" -f "$work/src.sql" >/dev/null 2>"$work/plain.err" || { cat "$work/plain.err"; fail "the plain dump does not restore"; }
echo "    dumps: custom $(du -k "$work/src.dump" | cut -f1) KiB, plain $(du -k "$work/src.sql" | cut -f1) KiB"
for db in "${dbs[@]}"; do
    compare "$db" "restored"
    constraints "$db" "restored"
done

if [ -n "${mhs:-}" ] && [ -d "$fixtures/backports.git" ]; then
    echo "== a reload of the restored stable repositories, without arguments: it works and changes nothing"
    # in the source too: a load takes an id of the sequence even for a known name
    for db in "${dbs[@]}" "$src"; do
        q "$db" -v mhs="$mhs" -v bp="$fixtures/backports.git" <<'SQL' | sed 's/^/    /'
SET client_min_messages = warning;
SELECT 'reloaded', repository, commits, releases, edges, resolved FROM fixes_load(:'mhs', name => 'mhs');
SELECT 'reloaded', repository, commits, releases, edges, resolved FROM fixes_load(:'bp', name => 'bports');
SQL
        psql_in "$db" -At -F $'\t' -f "$lib/ext-rows.sql" >"$work/$db.rows.reloaded"
        same "a reload of mhs and bports in $db" "$work/$db.rows" "$work/$db.rows.reloaded"
    done
fi

echo "== after the restore: a new repository, reload, refresh, unload (the same in every database)"
for db in "$src" "${dbs[@]}"; do
    q "$db" -v path="$fixtures/releases.git" -v basic="$fixtures/basic.git" >"$work/$db.after" <<'SQL'
SET client_min_messages = warning;
SELECT 'new', repository, commits, releases, edges, resolved FROM fixes_load(:'basic', name => 'new');
SELECT 'reload', repository, commits, releases, edges, resolved FROM fixes_load(:'path', name => 'releases');
SELECT 'refresh', repository, commits, releases, edges, resolved FROM fixes_load(:'path', name => 'grow');
SELECT 'unload', fixes_unload('dates');
SQL
done
cat "$work/$src.after" | sed 's/^/    /'
for db in "${dbs[@]}"; do
    same "what the loads returned in $db and $src" "$work/$src.after" "$work/$db.after"
    compare "$db" "after the loads"
done

if [ $rc != 0 ]; then
    echo "FAIL"
    exit 1
fi
for db in "$src" "${dbs[@]}"; do
    dropdb "$db"
done
echo "PASS"
