#!/bin/bash
# upgrade.sh — a database created with an older version (1.0, 1.1, 1.2) keeps working with the
# installed library until ALTER EXTENSION fixes UPDATE, and the update gives exactly what a
# fresh install of the default version gives (issues 15 and 27).  A fresh install is itself the
# chain of scripts (fixes--1.0.sql, then each update script), so the catalogs are equal by
# construction once the update scripts run; what this test guards is the data: rows loaded
# under the older SQL, the update of those rows, and the loads after it.
#
# Scratch databases load the same repositories the same way (releases.git, basic.git,
# large.git, dates.git, and make-history's 5000-commit repository when
# ../shared/bench/make-history exists; then releases.git once more under another name, by
# v1.1, refreshed to HEAD and unloaded again; from 1.1 on also stable.git with its stable
# branches and files.git with files and MAINTAINERS):
#   fixes_t_upgrade_new   CREATE EXTENSION fixes (the default version), loaded once.
#   fixes_t_upgrade_1_0   CREATE EXTENSION fixes VERSION '1.0';
#   fixes_t_upgrade_1_1   CREATE EXTENSION fixes VERSION '1.1'.  With the older SQL objects
#                         and the installed library: the loads, a reload that changes
#                         nothing, the readers, the parser, the views and the version's own
#                         fixes_unload work, and the rows of the version's tables and views
#                         (its columns) equal those of fixes_t_upgrade_new.  Then ALTER
#                         EXTENSION fixes UPDATE, which must reach the default version and
#                         - give the same catalog as a fresh install: test/lib/ext-catalog.sql
#                           (every member of the extension, function definitions with their
#                           signatures, language and SET clauses, columns in order, indexes,
#                           constraints, sequences, ACLs, comments, pg_dump's config tables);
#                         - serve the rows loaded before through the indexes at once;
#                         - (from 1.0) move the sequence of the repository ids past the ids in
#                           use (it starts again at 1 in a database restored from a dump of
#                           1.0, which is simulated: a repository of a new name loads);
#                         - (from 1.0) make the next fixes_load of each repository a full load
#                           (every commit written again: what 1.1 adds is filled in for all);
#                         after the next load of each repository, every row of every table and
#                         view of the extension (test/lib/ext-rows.sql; all columns except the
#                         timing of a load, fixes_repositories.loaded_at and load_seconds;
#                         repository ids as names) equals fixes_t_upgrade_new's.
# Both comparisons are generic over the catalog: a table, column, index or function that a
# later version adds must come with what fills it for rows loaded before, or this test fails.
#
# Databases dropped again on success. Exit 0 pass, 1 fail, 77 skip (no releases.git fixture).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

new=fixes_t_upgrade_new
lib="$top/test/lib"
export PGCLIENTENCODING=UTF8 PGTZ=UTC

if [ ! -d "$fixtures/releases.git" ]; then
    echo "SKIP: $fixtures/releases.git not found (run test/fixtures/build $fixtures)"
    exit 77
fi

# name<TAB>path of every repository, in load order
repos=()
for r in releases basic large dates; do
    [ -d "$fixtures/$r.git" ] && repos+=("$r	$fixtures/$r.git")
done
if [ -f "$mh" ]; then
    repos+=("mh5000	$(make_history_repo 5000)")
else
    echo "note: $mh not found (a clone without ../shared/bench): the 5000-commit make-history repository is left out"
fi

work=$(mktemp -d /tmp/fixes-t-upgrade.XXXXXX)
rc=0
olds=()
cleanup() {
    if [ $rc = 0 ]; then
        rm -rf "$work"
    else
        echo "(kept $work and databases $new, ${olds[*]} for inspection)"
    fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; rc=1; }
check() {       # check WHAT GOT WANT
    if [ "$2" = "$3" ]; then
        echo "    ok: $1: $(echo "$2" | head -n 1)$([ "$(echo "$2" | wc -l)" -le 1 ] || echo " (and $(($(echo "$2" | wc -l) - 1)) more lines)")"
    else
        fail "$1: got:"
        echo "$2" | sed 's/^/        /'
        echo "    want:"
        echo "$3" | sed 's/^/        /'
    fi
}
psql_in() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
q() { local db=$1; shift; psql_in "$db" -At -F ' ' "$@"; }

# load_all DB: every repository, then a scratch repository loaded by v1.1, refreshed to HEAD
# (an incremental refresh) and unloaded again; prints what fixes_load and fixes_unload returned
load_all() {
    local db=$1 line name path
    for line in "${repos[@]}"; do
        name=${line%%	*}
        path=${line#*	}
        q "$db" -v path="$path" -v name="$name" <<'SQL'
SET client_min_messages = warning;
SELECT 'loaded', repository, commits, releases, edges, resolved FROM fixes_load(:'path', name => :'name');
SQL
    done
    q "$db" -v path="$fixtures/releases.git" <<'SQL'
SELECT 'scratch', repository, commits, releases, edges, resolved FROM fixes_load(:'path', 'v1.1', name => 'scratch');
SELECT 'refreshed', repository, commits, releases, edges, resolved FROM fixes_load(:'path', name => 'scratch');
SELECT 'unloaded scratch', fixes_unload('scratch');
SQL
}

# load_v11 DB: what 1.1's fixes_load adds: stable.git with its stable branches, files.git
# with files and MAINTAINERS (1.1's tables fixes_commit_files, fixes_subsystems, ...)
load_v11() {
    local db=$1
    [ ! -d "$fixtures/stable.git" ] || q "$db" -v path="$fixtures/stable.git" <<'SQL'
SET client_min_messages = warning;
SELECT 'loaded', repository, commits, releases, edges, resolved
  FROM fixes_load(:'path', name => 'stable', stable_branches => '^refs/(heads|remotes/origin)/stable-');
SQL
    [ ! -d "$fixtures/files.git" ] || q "$db" -v path="$fixtures/files.git" <<'SQL'
SET client_min_messages = warning;
SELECT 'loaded', repository, commits, releases, edges, resolved
  FROM fixes_load(:'path', name => 'files', files => true, maintainers => 'MAINTAINERS');
SQL
}

# rows DB FILE [ONLY [WHERE]]: every row of the extension's relations (ONLY: just these
# REL.COL; WHERE: REL:CONDITION, only these rows of REL)
rows() {
    local db=$1 out=$2
    if [ $# -ge 4 ]; then
        psql_in "$db" -At -F $'\t' -v only="$3" -v where="$4" -f "$lib/ext-rows.sql" >"$out"
    elif [ $# -ge 3 ]; then
        psql_in "$db" -At -F $'\t' -v only="$3" -f "$lib/ext-rows.sql" >"$out"
    else
        psql_in "$db" -At -F $'\t' -f "$lib/ext-rows.sql" >"$out"
    fi
}

# same WHAT FILE_A FILE_B: the files are equal (else the first differences)
same() {
    if diff -u "$2" "$3" >"$work/diff"; then
        echo "    ok: $1: identical ($(summary "$2"))"
    else
        fail "$1 differ ($(grep -c '^[-+][^-+]' "$work/diff") lines):"
        head -n 40 "$work/diff" | cut -c1-240
    fi
}
summary() {     # rows and relations of an ext-rows file
    echo "$(wc -l <"$1") rows of $(cut -f1 "$1" | uniq | wc -l) relations"
}


default=$(q postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'fixes'")
echo "== installed: fixes $default (default version); versions: $(q postgres -c \
    "SELECT string_agg(version, ' ' ORDER BY version) FROM pg_available_extension_versions WHERE name = 'fixes'")"

drop_db "$new"
createdb "$new"
echo "== $new: CREATE EXTENSION fixes ($default), the loads"
psql_in "$new" -c 'CREATE EXTENSION fixes'
load_all "$new" >"$work/new.loads"
sed 's/^/    /' "$work/new.loads"

# upgrade_from VERSION: a database created at VERSION, loaded, updated, loaded again, against
# $new (which holds the same loads)
upgrade_from() {
    local from=$1 old="fixes_t_upgrade_${1/./_}" path line name got only where=() lang
    olds+=("$old")
    echo
    echo "==== from $from to $default"
    path=$(q postgres -c "SELECT path FROM pg_extension_update_paths('fixes') WHERE source = '$from' AND target = '$default'")
    if [ -n "$path" ]; then echo "    ok: update path from $from: $path"; else fail "no update path from $from to $default"; fi

    drop_db "$old"
    createdb "$old"
    echo "== $old: CREATE EXTENSION fixes VERSION '$from', loaded by the installed library"
    psql_in "$old" -c "CREATE EXTENSION fixes VERSION '$from'"
    check "version of $old" "$(q "$old" -c "SELECT extversion FROM pg_extension WHERE extname = 'fixes'")" "$from"
    # 1.0's fixes_unload is SQL (plpgsql); 1.1 made it C
    case $from in 1.0) lang=plpgsql ;; *) lang=c ;; esac
    check "fixes_unload of $old is $from's function" \
        "$(q "$old" -c "SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'fixes_unload'")" "$lang"
    load_all "$old" >"$work/old.loads"
    [ "$from" = 1.0 ] || load_v11 "$old" >>"$work/old.loads"
    check "what fixes_load returned (loads, a refresh), and fixes_unload ($from)" "$(cat "$work/old.loads")" "$(cat "$work/new.loads")"
    check "a reload of releases.git that changes nothing" "$(q "$old" -v path="$fixtures/releases.git" <<'SQL'
SELECT repository, commits, releases, edges, resolved FROM fixes_load(:'path', name => 'releases');
SQL
)" "releases 38 3 21 16"
    check "the readers and the parser" "$(q "$old" -v path="$fixtures/releases.git" <<'SQL'
SELECT (SELECT count(*) FROM fixes_git_commits(:'path')), (SELECT count(*) FROM fixes_git_tags(:'path')),
       (SELECT abbrev FROM fixes_parse_fixes('Fixes: 0123456789AB ("x")'));
SQL
)" "38 6 0123456789ab"
    # the version's own columns, as REL.COL: the rows of its relations must be those of the
    # default version.  Except four counters of fixes_per_release that 1.1 declared NOT NULL
    # though they do not apply to a stable release: 1.2 stores NULL there, and the 1.2 library
    # writes 0 into a database still at 1.1 (issue 29); and fixes_repositories.maintainers_hash,
    # the hash of the MAINTAINERS files an attribution rests on: the ref's alone in a database
    # at 1.1 SQL, those of every release at 1.2 (issue 30).  The rows after the update compare
    # them.
    only=$(q "$old" <<'SQL'
SELECT string_agg(c.relname || '.' || a.attname, ',' ORDER BY c.relname, a.attnum)
  FROM pg_depend d
  JOIN pg_class c ON c.oid = d.objid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
 WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes') AND d.deptype = 'e'
   AND c.relkind IN ('r', 'v')
   AND NOT (c.relname = 'fixes_releases' AND a.attname IN
            ('tagged_commits', 'fixing_earlier_commits', 'reverts', 'reverted_introduced'))
   AND NOT (c.relname = 'fixes_repositories' AND a.attname = 'maintainers_hash');
SQL
)
    # 1.1 adds revert edges to fixes_edges (kind 'revert', issue 16): 1.0 had the Fixes: lines only
    [ "$from" != 1.0 ] || where=("fixes_edges:kind = 'fixes'")
    rows "$old" "$work/old-$from.rows" "$only"
    rows "$new" "$work/new-$from.rows" "$only" "${where[@]}"
    same "rows of $from's tables and views ($from's columns) in $old ($from) and $new ($default)" \
        "$work/old-$from.rows" "$work/new-$from.rows"

    # a database restored from a dump of 1.0: its repository ids' sequence starts again at 1
    # (pg_dump of 1.0 did not keep it; 1.1 made it a config table); the update moves it past
    # the ids in use
    [ "$from" != 1.0 ] ||
        psql_in "$old" -c "SELECT setval('fixes_repositories_repository_id_seq', 1, false)" >/dev/null

    echo "== $old: ALTER EXTENSION fixes UPDATE"
    t0=$(date +%s.%N)
    psql_in "$old" -c 'ALTER EXTENSION fixes UPDATE'
    echo "    the update took $(elapsed "$t0") s"
    check "version of $old" "$(q "$old" -c "SELECT extversion FROM pg_extension WHERE extname = 'fixes'")" "$default"
    psql_in "$old" -At -f "$lib/ext-catalog.sql" >"$work/old.catalog"
    psql_in "$new" -At -f "$lib/ext-catalog.sql" >"$work/new.catalog"
    if diff -u "$work/new.catalog" "$work/old.catalog" >"$work/catalog.diff"; then
        echo "    ok: the catalog of the extension after the update equals a fresh install's" \
             "($(grep -c '^member ' "$work/new.catalog") members, $(grep -c '^column ' "$work/new.catalog") columns," \
             "$(grep -c '^index ' "$work/new.catalog") indexes, $(grep -c '^function ' "$work/new.catalog") functions)"
    else
        fail "the catalog after the update differs from a fresh install's (- fresh, + updated):"
        head -n 60 "$work/catalog.diff"
    fi
    check "a commit loaded by $from, found by the index" "$(q "$old" <<'SQL'
SET enable_seqscan = off; SET enable_bitmapscan = off;   -- one plan whatever the statistics
SELECT subject FROM fixes_commits WHERE commit_id = 'eed04d3ae91cd9d70840a267020c01608a17b3ad';
EXPLAIN (COSTS OFF) SELECT subject FROM fixes_commits WHERE commit_id = 'eed04d3ae91cd9d70840a267020c01608a17b3ad';
SQL
)" "core: add parser
Index Scan using fixes_commits_commit_id_idx on fixes_commits
  Index Cond: (commit_id = 'eed04d3ae91cd9d70840a267020c01608a17b3ad'::text)"

    check "a repository of a new name, after the update" "$(q "$old" -v path="$fixtures/releases.git" <<'SQL'
SELECT repository, commits FROM fixes_load(:'path', 'v1.0', name => 'after-update');
SQL
)" "after-update 8"
    q "$new" -v path="$fixtures/releases.git" >/dev/null <<'SQL'
SELECT fixes_load(:'path', 'v1.0', name => 'after-update');
SQL
    if [ "$from" = 1.0 ]; then
        echo "== $old: the next load of each repository is a full one"
    else
        echo "== $old: the next load of each repository"
    fi
    for line in "${repos[@]}"; do
        name=${line%%	*}
        path=${line#*	}
        got=$(q "$old" -v path="$path" -v name="$name" <<'SQL'
SET client_min_messages = warning;
BEGIN;
SELECT commits FROM fixes_load(:'path', name => :'name') \gset
SELECT :commits, n_tup_ins FROM pg_stat_xact_user_tables WHERE relname = 'fixes_commits';
COMMIT;
SQL
)
        set -- $got
        if [ "$from" != 1.0 ]; then
            # from 1.1 on, whether the update asks for a full load is the update's choice
            echo "    ok: $name: $1 commits, $2 written again"
        elif [ "$1" = "$2" ] && [ "$1" -gt 0 ]; then
            echo "    ok: $name: $1 commits, all written again"
        else
            fail "$name: the load after the update wrote $2 commits of $1"
        fi
    done
    [ "$from" = 1.0 ] || check "the loads of 1.1 (stable branches, files) again" \
        "$(load_v11 "$old")" "$(grep -F -e "loaded stable" -e "loaded files" "$work/new.loads")"
    rows "$old" "$work/old.rows"
    rows "$new" "$work/new.rows"
    same "every row of every table and view in $old (updated, loaded again) and $new (fresh)" \
        "$work/old.rows" "$work/new.rows"
    q "$new" -c "SELECT fixes_unload('after-update')" >/dev/null
}

upgrade_from 1.0
# what 1.1's fixes_load adds, in the fresh database too (1.0 cannot load it)
echo
echo "== $new: the loads of 1.1 (stable branches, files)"
load_v11 "$new" | tee -a "$work/new.loads" | sed 's/^/    /'
upgrade_from 1.1
upgrade_from 1.2

if [ $rc != 0 ]; then
    echo "FAIL"
    exit 1
fi
for db in "$new" "${olds[@]}"; do dropdb "$db"; done
echo "PASS"
