#!/bin/bash
# shards.sh — many repositories across servers (issue 46, docs/shards.md): two shards and a
# coordinator on this machine, against one server that loaded everything.
#
# Three clusters of their own (initdb of the PostgreSQL copy under test, as the OS user
# postgres when run as root), on Unix sockets in a mktemp directory (no TCP port: nothing to
# collide with), stopped and removed on exit (trap): shards s1 and s2, coordinator coord; the
# reference is a database of the sandbox ("one server").
#   1. each runs CREATE EXTENSION fixes and takes a range of repository ids
#      (fixes_set_repository_id_range: coord 1-999999, s1 1000000-1999999, s2 2000000-...); a
#      range that meets a shard's is refused on the coordinator, and so is one that leaves out
#      an id in use; a database that loaded (and reloaded) before it had a range is renumbered
#      into one (renumber => true): the same rows; a reload or refresh draws no id;
#   2. the coordinator: postgres_fdw, a server per shard (connect_timeout 2), a user mapping;
#      s1 attached before it loads anything, s2 after its loads (nothing needs attaching again
#      after a load); refused, leaving nothing behind: a server without a user mapping, a shard
#      without a range, one whose range meets s1's, one at fixes 1.2;
#   3. the shards load at the same time (two background psql): s1 releases.git, stable.git
#      (stable branches), files.git (files and MAINTAINERS), releases.git at v1.1 as 'grow';
#      s2 article.git, backports.git (stable branches) and make-history --stable 3 (5000
#      commits, stable branches, files, MAINTAINERS; left out without make-history); the
#      coordinator loads basic.git itself; the one server loads all of them ('grow' at v1.1, then refreshed to HEAD as
#      on s1 below: a refresh numbers commits otherwise than a cold load);
#   4. a refresh of 'grow' on s1 to HEAD while the coordinator reads: a coordinator session that
#      read before the refresh, in one transaction, still sees the old rows after the commit
#      (postgres_fdw's remote transactions are REPEATABLE READ: one snapshot of each shard per
#      coordinator transaction); a new statement of the coordinator during the refresh sees the
#      old rows (uncommitted); after the commit, the next transaction sees the new ones;
#   5. every row of every table and view of the extension (test/lib/ext-rows.sql: repository
#      ids as names) on the coordinator equals the one server's, but fixes_shards and
#      fixes_repository_id_range (which say what each server is); and so do fixes_commit_id()
#      (by abbreviation and by tag), fixes_cve_affected_all(), fixes_cve_affected(),
#      fixes_per_path_prefix() for every repository;
#   6. EXPLAIN VERBOSE: a query of one repository id scans only its shard's foreign table (the
#      CHECK of the shard's range: constraint exclusion); a query of a view by name pushes the
#      name into the remote SQL; a query of all repositories scans the shards with Async Foreign
#      Scan; fixes_per_release reads the stored per-release rows of the shards (no aggregate
#      over commits on the coordinator);
#   7. a name two servers hold is refused at attach time (s2 detached, 'article' loaded on the
#      coordinator, s2 attached again: an ERROR naming 'article'; then unloaded, attached);
#   8. security: a role of the coordinator whose user mapping names a shard role without
#      SELECT gets the shard's "permission denied" on the base tables; through a view granted
#      to it, it reads as the view's owner (PostgreSQL's rule, documented);
#   9. s2 frozen (SIGSTOP to its postmaster: connections are accepted by the kernel and never
#      answered): a query of every repository fails within 5 s (connect_timeout 2) with an
#      ERROR naming server "s2"; a query of one of s1's repository ids still answers; a load
#      and a refresh on the coordinator succeed (the loader names its tables with ONLY and
#      analyses no table with children: they never touch a shard), and an unload; the same with
#      s2 stopped; s2 started again: every repository answers, nothing attached again;
#  10. what a later update script does to a coordinator: a column added to a base table there
#      (in a transaction, rolled back) reaches the foreign children and fails while the shards
#      lack it; added on the shards first, it is read from them (docs/shards.md, Upgrading);
#  11. pg_dump -Fc of the coordinator, pg_restore --exit-on-error into a new database: a second
#      coordinator of the same shards, with the same rows (its own and the shards') and
#      fixes_shards;
#  12. fixes_detach_shard(s1): the coordinator no longer holds s1's rows, and s1 is unchanged.
# Exit 0 pass, 1 fail, 77 skip (no postgres_fdw, or a fixture missing).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
bindir=${PG_BINDIR:-$("$PG_CONFIG" --bindir)}
db=t_shards_one
lib="$top/test/lib"
export PGTZ=UTC PGCLIENTENCODING=UTF8

[ -f "$("$PG_CONFIG" --sharedir)/extension/postgres_fdw.control" ] ||
    skip "postgres_fdw is not installed for $("$PG_CONFIG" --version) (contrib)"
for f in releases basic stable files article backports; do need_fixture "$f.git"; done
mhs=
if [ -f "$mh" ]; then
    mhs=$(make_history_repo 5000 3)
else
    echo "note: $mh not found: make-history's repository is left out"
fi

work=$(mktemp -d /tmp/fixes-t-shards.XXXXXX)
chmod a+rx "$work"
rc=0
as_pg() {
    if [ "$(id -u)" = 0 ]; then (cd "$work" && runuser -u postgres -- "$@"); else "$@"; fi
}
declare -A port=([s1]=55441 [s2]=55442 [coord]=55443)
stopped_pid=
cleanup() {
    local status=$? n
    [ -n "$stopped_pid" ] && kill -CONT "$stopped_pid" 2>/dev/null || true
    for n in s1 s2 coord; do
        [ -f "$work/$n/data/postmaster.pid" ] &&
            as_pg "$bindir/pg_ctl" stop -D "$work/$n/data" -m immediate >/dev/null 2>&1 || true
    done
    if [ $rc = 0 ] && [ $status = 0 ]; then
        rm -rf "$work"
    else
        echo "(kept $work for inspection: logs in $work/*/log; its clusters are stopped)"
    fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; rc=1; }
ok() { echo "    ok: $*"; }

start_cluster() {
    local n=$1 d="$work/$1"
    mkdir -p "$d"
    [ "$(id -u)" = 0 ] && chown postgres "$d"
    as_pg "$bindir/initdb" -D "$d/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
    as_pg sh -c "cat >> '$d/data/postgresql.conf'" <<EOF
port = ${port[$n]}
listen_addresses = ''
unix_socket_directories = '$d'
shared_buffers = 32MB
max_connections = 30
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    as_pg "$bindir/pg_ctl" start -D "$d/data" -l "$d/log" -w >/dev/null
    psql -X -q -h "$d" -p "${port[$n]}" -U postgres -d postgres -c 'CREATE DATABASE fixes'
}
# on NODE ARGS...: psql on database fixes of cluster NODE (one: the sandbox's $db)
on() {
    local n=$1; shift
    if [ "$n" = one ]; then
        psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"
    else
        psql -X -q -v ON_ERROR_STOP=1 -h "$work/$n" -p "${port[$n]}" -U postgres -d fixes "$@"
    fi
}
onq() { local n=$1; shift; on "$n" -At "$@"; }

echo "--- 1. clusters, extension, ranges of repository ids"
for n in s1 s2 coord; do start_cluster "$n"; done
fresh_db "$db"
on coord -c 'CREATE EXTENSION fixes' -c 'SELECT fixes_set_repository_id_range(1, 999999)' >/dev/null
on s1 -c 'CREATE EXTENSION fixes' -c 'SELECT fixes_set_repository_id_range(1000000, 1999999)' >/dev/null
on s2 -c 'CREATE EXTENSION fixes' -c 'SELECT fixes_set_repository_id_range(2000000, 2999999)' >/dev/null
ok "three clusters: $(onq coord -c 'SELECT version()' | cut -d' ' -f1-2)"

echo "--- 2. the coordinator's servers, s1 attached before its loads"
for n in s1 s2; do
    on coord -v n="$n" -v h="$work/$n" -v p="${port[$n]}" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS postgres_fdw;
CREATE SERVER :"n" FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host :'h', port :'p', dbname 'fixes', connect_timeout '2', fetch_size '10000',
             parallel_commit 'true');
CREATE USER MAPPING FOR postgres SERVER :"n" OPTIONS (user 'postgres');
SQL
done
got=$(onq coord -c "SELECT fixes_attach_shard('s1')" 2>&1)
[ "$got" = 0 ] && ok "s1 attached, empty" || fail "attach s1: $got"
# what attach refuses: no user mapping, a shard without a range, one whose range meets
# another's, another version of fixes (databases of s1 made for it)
for d in norange atv12; do psql -X -q -h "$work/s1" -p "${port[s1]}" -U postgres -d postgres -c "CREATE DATABASE $d"; done
psql -X -q -h "$work/s1" -p "${port[s1]}" -U postgres -d norange -c 'CREATE EXTENSION fixes'
psql -X -q -h "$work/s1" -p "${port[s1]}" -U postgres -d atv12 -c "CREATE EXTENSION fixes VERSION '1.2'"
on coord -v h="$work/s1" -v p="${port[s1]}" <<'SQL'
CREATE SERVER nomap FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'h', port :'p', dbname 'fixes');
CREATE SERVER norange FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'h', port :'p', dbname 'norange', connect_timeout '2');
CREATE SERVER atv12 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'h', port :'p', dbname 'atv12', connect_timeout '2');
CREATE USER MAPPING FOR postgres SERVER norange OPTIONS (user 'postgres');
CREATE USER MAPPING FOR postgres SERVER atv12 OPTIONS (user 'postgres');
SQL
refused() {   # SERVER PATTERN WHAT
    local out
    if out=$(onq coord -c "SELECT fixes_attach_shard('$1')" 2>&1); then
        fail "$3: attached ($out)"
    elif grep -q "$2" <<<"$out"; then
        ok "$3 refused: $(grep ERROR <<<"$out")"
    else
        fail "$3: $out"
    fi
}
refused nomap 'no user mapping for role "postgres" on server "nomap"' "a server without a user mapping"
refused norange 'server "norange" has no range of repository ids' "a shard without a range"
# a server that loaded before it had a range (two repositories, one reloaded) renumbers them
# into one: the same rows, and a reload draws no id
nr() { psql -X -q -v ON_ERROR_STOP=1 -h "$work/s1" -p "${port[s1]}" -U postgres -d norange "$@"; }
nr -At -c "SET client_min_messages = warning" -c "SELECT FROM fixes_load('$fixtures/releases.git', name => 'releases')" \
    -c "SELECT FROM fixes_load('$fixtures/basic.git', name => 'basic')" \
    -c "SELECT FROM fixes_load('$fixtures/releases.git', name => 'releases')" >/dev/null
nr -At -F $'\t' -f "$lib/ext-rows.sql" >"$work/rows-norange-before"
out=$(nr -At -c 'SELECT fixes_set_repository_id_range(1500000, 2500000)' 2>&1 || true)
grep -q 'repositories with ids outside 1500000 to 2500000 are loaded on this server' <<<"$out" &&
    ok "ids in use outside the range refused: $(grep -E 'DETAIL|HINT' <<<"$out" | tr '\n' ' ')" || fail "range without renumber: $out"
nr -At -c 'SET client_min_messages = warning' -c 'SELECT fixes_set_repository_id_range(1500000, 2500000, renumber => true)' >/dev/null
nr -At -F $'\t' -f "$lib/ext-rows.sql" | grep -v '^fixes_repository_id_range	' >"$work/rows-norange-after"
got=$(nr -At -c "SELECT string_agg(name || ':' || repository_id, ' ' ORDER BY repository_id) FROM fixes_repositories")
if [ "$got" = "releases:1500000 basic:1500001" ] && diff -q "$work/rows-norange-before" "$work/rows-norange-after" >/dev/null; then
    ok "renumber => true: $got, every row the same ($(wc -l <"$work/rows-norange-after") rows)"
else
    fail "renumber: $got"; diff "$work/rows-norange-before" "$work/rows-norange-after" | head -5
fi
refused norange 'the repository ids of server "norange" (1500000 to 2500000) meet those of shard "s1"' "a range meeting s1's"
refused atv12 'server "atv12" has fixes 1.2, this server 1.3' "a shard at 1.2"
[ "$(onq coord -c "SELECT count(*) FROM pg_namespace WHERE nspname IN ('fixes_shard_nomap', 'fixes_shard_norange', 'fixes_shard_atv12')")" = 0 ] &&
    ok "a refused attach leaves nothing behind" || fail "a refused attach left its schema"

echo "--- 3. loads: s1 and s2 at the same time, the coordinator's own, the one server's"
load_s1() {
    on s1 -At -v rel="$fixtures/releases.git" -v st="$fixtures/stable.git" -v fl="$fixtures/files.git" <<'SQL'
SET client_min_messages = warning;
SELECT repository, commits FROM fixes_load(:'rel', name => 'releases');
SELECT repository, commits FROM fixes_load(:'st', name => 'stable', stable_branches => '^refs/(heads|remotes/origin)/stable-');
SELECT repository, commits FROM fixes_load(:'fl', name => 'files', files => true, maintainers => 'MAINTAINERS');
SELECT repository, commits FROM fixes_load(:'rel', 'v1.1', name => 'grow');
SQL
}
load_s2() {
    on s2 -At -v ar="$fixtures/article.git" -v bp="$fixtures/backports.git" -v mhs="$mhs" <<'SQL'
SET client_min_messages = warning;
SELECT repository, commits FROM fixes_load(:'ar', name => 'article');
SELECT repository, commits FROM fixes_load(:'bp', name => 'backports', stable_branches => 'stable-');
SELECT :'mhs' <> '' AS has_mhs \gset
\if :has_mhs
SELECT repository, commits FROM fixes_load(:'mhs', name => 'mhs', stable_branches => '^refs/heads/v[0-9]+\.[0-9]+\.y$',
                                           files => true, maintainers => 'MAINTAINERS');
\endif
SQL
}
load_s1 >"$work/load-s1.out" 2>&1 &
p1=$!
load_s2 >"$work/load-s2.out" 2>&1 &
p2=$!
s1rc=0; s2rc=0
wait $p1 || s1rc=$?
wait $p2 || s2rc=$?
if [ $s1rc = 0 ] && [ $s2rc = 0 ]; then
    ok "loaded at the same time: s1 $(tr '\n' ' ' <"$work/load-s1.out"); s2 $(tr '\n' ' ' <"$work/load-s2.out")"
else
    fail "shard loads: s1 $s1rc s2 $s2rc"; cat "$work"/load-s*.out; exit 1
fi
on coord -At -c "SET client_min_messages = warning" \
    -c "SELECT repository, commits FROM fixes_load('$fixtures/basic.git', name => 'basic')" |
    sed 's/^/    coord: /'
on one -At -v rel="$fixtures/releases.git" -v st="$fixtures/stable.git" -v fl="$fixtures/files.git" \
    -v ar="$fixtures/article.git" -v bp="$fixtures/backports.git" -v b="$fixtures/basic.git" -v mhs="$mhs" <<'SQL' >/dev/null
SET client_min_messages = warning;
SELECT FROM fixes_load(:'b', name => 'basic');
SELECT FROM fixes_load(:'ar', name => 'article');
SELECT FROM fixes_load(:'rel', 'v1.1', name => 'grow');
SELECT FROM fixes_load(:'rel', 'HEAD', name => 'grow');
SELECT FROM fixes_load(:'bp', name => 'backports', stable_branches => 'stable-');
SELECT FROM fixes_load(:'fl', name => 'files', files => true, maintainers => 'MAINTAINERS');
SELECT FROM fixes_load(:'st', name => 'stable', stable_branches => '^refs/(heads|remotes/origin)/stable-');
SELECT FROM fixes_load(:'rel', name => 'releases');
SELECT :'mhs' <> '' AS has_mhs \gset
\if :has_mhs
SELECT FROM fixes_load(:'mhs', name => 'mhs', stable_branches => '^refs/heads/v[0-9]+\.[0-9]+\.y$',
                       files => true, maintainers => 'MAINTAINERS');
\endif
SQL
got=$(onq coord -c "SELECT fixes_attach_shard('s2')" 2>&1)
want=2; [ -n "$mhs" ] && want=3
[ "$got" = "$want" ] && ok "s2 attached after its loads: $got repositories" || fail "attach s2: $got"
got=$(onq coord -c "SELECT string_agg(name || ':' || repository_id, ' ' ORDER BY name) FROM fixes_repositories")
echo "    the coordinator's fixes_repositories: $got"
got=$(onq coord -c "SELECT count(*) FROM fixes_repositories WHERE name = 'releases'")
[ "$got" = 1 ] && ok "a load on s1 after its attach is seen without attaching again" || fail "releases on the coordinator: $got"

# ranges: refused when they meet a shard's, or leave out an id in use
if out=$(onq coord -c 'SELECT fixes_set_repository_id_range(1, 1500000)' 2>&1); then
    fail "a coordinator range meeting s1's was accepted"
else
    echo "$out" | grep -q 'meets the range of shard "s1"' && ok "a range meeting s1's refused: $(echo "$out" | head -1)" ||
        fail "range meeting s1's: $out"
fi
if out=$(onq s1 -c 'SELECT fixes_set_repository_id_range(1000002, 1999999)' 2>&1); then
    fail "a range leaving out s1's ids in use was accepted"
else
    echo "$out" | grep -q 'outside 1000002 to 1999999' && ok "a range leaving out ids in use refused" || fail "range: $out"
fi

echo "--- 4. a refresh of 'grow' on s1 while the coordinator reads"
count_sql="SELECT count(*) FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'grow'"
old=$(onq s1 -c "$count_sql")
sig="$work/sig"; mkdir -p "$sig"; chmod a+rwx "$sig"
waitfor() {   # FILE: wait at most 120 s for it
    local i
    for ((i = 0; i < 1200; i++)); do [ -e "$1" ] && return 0; sleep 0.1; done
    echo "timed out waiting for $1"; return 1
}
# the coordinator's transaction: reads before the refresh and after its commit
on coord -At >"$work/reader.out" 2>&1 <<SQL &
BEGIN;
SELECT 'first', count(*) FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'grow';
\\! touch $sig/reader-started
\\! i=0; while [ ! -e $sig/committed ] && [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i+1)); done
SELECT 'same transaction', count(*) FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'grow';
COMMIT;
SELECT 'next transaction', count(*) FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'grow';
SQL
rp=$!
waitfor "$sig/reader-started"
on s1 -At >"$work/refresh.out" 2>&1 <<SQL &
SET client_min_messages = warning;
BEGIN;
SELECT 'refreshed', commits FROM fixes_load('$fixtures/releases.git', 'HEAD', name => 'grow');
\\! touch $sig/loaded
\\! i=0; while [ ! -e $sig/checked ] && [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i+1)); done
COMMIT;
\\! touch $sig/committed
SQL
lp=$!
waitfor "$sig/loaded"
during=$(onq coord -c "$count_sql")
touch "$sig/checked"
wait $lp || fail "the refresh on s1: $(cat "$work/refresh.out")"
wait $rp || fail "the coordinator's reader: $(cat "$work/reader.out")"
new=$(onq s1 -c "$count_sql")
echo "    s1: $old commits before, $new after ($(tr '\n' ' ' <"$work/refresh.out")); coordinator during the refresh: $during"
echo "    coordinator session: $(tr '\n' ' ' <"$work/reader.out")"
[ "$old" != "$new" ] || fail "the refresh added no commit"
got=$(onq s1 -c "SELECT last_value FROM fixes_repositories_repository_id_seq")
[ "$got" = 1000003 ] && ok "the refresh drew no id from s1's range (the last given: $got)" ||
    fail "s1's sequence after the refresh: $got, not 1000003 (a reload drew an id)"
[ "$during" = "$old" ] && ok "an uncommitted refresh is not seen" || fail "during the refresh: $during, not $old"
if [ "$(cat "$work/reader.out")" = "first|$old
same transaction|$old
next transaction|$new" ]; then
    ok "one snapshot of s1 per coordinator transaction; the commit seen by the next one"
else
    fail "the coordinator's transaction saw: $(cat "$work/reader.out")"
fi

echo "--- 5. every table, view and function on the coordinator equals the one server"
funcs() {
    on "$1" -At -F $'\t' <<'SQL'
SET client_min_messages = warning;
SELECT 'commit_id', r.name, c.commit_id, fixes_commit_id(r.name, upper(left(c.commit_id, 12)))
  FROM fixes_repositories r
 CROSS JOIN LATERAL (SELECT x.commit_id FROM fixes_commits x WHERE x.repository_id = r.repository_id
                      ORDER BY x.commit_id LIMIT 5) c;
SELECT 'commit_id_tag', r.name, t.tag, fixes_commit_id(r.name, t.tag)
  FROM fixes_repositories r JOIN fixes_releases t USING (repository_id);
SELECT 'cve_all', r.name, a.fixing_commit, a.affected
  FROM fixes_repositories r CROSS JOIN LATERAL fixes_cve_affected_all(r.name) a;
SELECT 'cve', r.name, e.fixing_commit, fixes_cve_affected(r.name, left(e.fixing_commit, 12), 'v', 'p', 'https://example.org')
  FROM fixes_repositories r
 CROSS JOIN LATERAL (SELECT DISTINCT x.fixing_commit FROM fixes_edges x
                      WHERE x.repository_id = r.repository_id AND x.status = 'resolved' AND x.kind = 'fixes'
                      ORDER BY 1 LIMIT 3) e;
SELECT 'path_prefix', r.name, d, p.*
  FROM fixes_repositories r CROSS JOIN generate_series(1, 5) d
 CROSS JOIN LATERAL fixes_per_path_prefix(r.name, d) p WHERE r.files;
SQL
}
rows() {
    on "$1" -At -F $'\t' -f "$lib/ext-rows.sql" | grep -Pv '^(fixes_shards|fixes_repository_id_range)\t'
}
rows coord >"$work/rows-coord"; rows one >"$work/rows-one"
funcs coord | sort >"$work/funcs-coord"; funcs one | sort >"$work/funcs-one"
if diff -q "$work/rows-one" "$work/rows-coord" >/dev/null && diff -q "$work/funcs-one" "$work/funcs-coord" >/dev/null; then
    ok "$(wc -l <"$work/rows-one") rows of $(cut -f1 "$work/rows-one" | sort -u | wc -l) tables and views and $(wc -l <"$work/funcs-one") function rows equal"
else
    fail "the coordinator differs from the one server:"
    diff "$work/rows-one" "$work/rows-coord" | head -20
    diff "$work/funcs-one" "$work/funcs-coord" | head -20
fi
for v in fixes_per_release fixes_buggiest_commits fixes_affected fixes_per_stable_release fixes_bug_lifetimes \
         fixes_lifetime_per_release fixes_trailers_per_release fixes_per_subsystem; do
    n=$(grep -c "^$v	" "$work/rows-coord" || true)
    shards=$(onq coord -c "SELECT string_agg(DISTINCT COALESCE(s.server, 'coord'), ',') FROM $v v JOIN fixes_repositories r ON r.name = v.repository LEFT JOIN fixes_shards s ON r.repository_id BETWEEN s.id_lo AND s.id_hi")
    echo "    $v: $n rows, from $shards"
    [ "$n" -gt 0 ] || fail "$v has no rows"
done
for v in fixes_per_release fixes_affected fixes_bug_lifetimes; do
    got=$(onq coord -c "SELECT count(DISTINCT COALESCE(s.server, 'coord')) FROM $v v JOIN fixes_repositories r ON r.name = v.repository LEFT JOIN fixes_shards s ON r.repository_id BETWEEN s.id_lo AND s.id_hi")
    [ "$got" = 3 ] || fail "$v holds rows of $got servers, not 3"
done

echo "--- 6. EXPLAIN VERBOSE"
s1id=$(onq coord -c "SELECT repository_id FROM fixes_repositories WHERE name = 'stable'")
plan=$(onq coord -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM fixes_releases WHERE repository_id = $s1id")
if grep -q 'fixes_shard_s1\.fixes_releases' <<<"$plan" && ! grep -q 'fixes_shard_s2' <<<"$plan" &&
   grep -q "Remote SQL: .* WHERE ((repository_id = $s1id))" <<<"$plan"; then
    ok "repository id $s1id (s1's 'stable'): only s1's foreign table, the id in its remote SQL"
else
    fail "the plan of one repository id:"; echo "$plan"
fi
plan=$(onq coord -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM fixes_per_release WHERE repository = 'article'")
if [ "$(grep -c "Remote SQL: SELECT .* FROM public.fixes_repositories WHERE ((name = 'article'))" <<<"$plan")" = 2 ]; then
    ok "fixes_per_release by name: the name in each shard's remote SQL"
else
    fail "fixes_per_release by name:"; echo "$plan"
fi
if grep -q 'fixes_commits' <<<"$plan" || grep -q 'fixes_edges' <<<"$plan"; then
    fail "fixes_per_release reads commits or edges:"; echo "$plan"
else
    ok "fixes_per_release reads the shards' stored per-release rows (fixes_releases), no commit or edge"
fi
plan=$(onq coord -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM fixes_per_release")
n=$(grep -c 'Async Foreign Scan on fixes_shard_s[12]\.fixes_releases' <<<"$plan" || true)
[ "$n" = 2 ] && ok "every repository: both shards' fixes_releases by Async Foreign Scan" ||
    { fail "async append: $n async scans of fixes_releases"; echo "$plan"; }

echo "--- 7. a name two servers hold is refused at attach time"
on coord -c "SELECT fixes_detach_shard('s2')" >/dev/null
on coord -At -c "SET client_min_messages = warning" \
    -c "SELECT FROM fixes_load('$fixtures/article.git', name => 'article')" >/dev/null
if out=$(onq coord -c "SELECT fixes_attach_shard('s2')" 2>&1); then
    fail "s2 attached though both hold 'article'"
else
    grep -q "server \"s2\" holds repositories of names that another server holds: 'article'" <<<"$out" &&
        ok "refused: $(head -1 <<<"$out")" || fail "attach with a shared name: $out"
fi
on coord -c "SELECT fixes_unload('article')" >/dev/null
[ "$(onq coord -c "SELECT fixes_attach_shard('s2')")" = "$want" ] && ok "attached again after the unload" ||
    fail "attach s2 again"
got=$(onq coord -c "SELECT fixes_attach_shard('s2')" 2>&1 || true)
grep -q 'is attached already' <<<"$got" && ok "a second attach refused" || fail "second attach: $got"

echo "--- 8. a user mapping's rights bound the coordinator's"
on s2 -c "CREATE ROLE nobody LOGIN"
on coord <<'SQL'
CREATE ROLE alice LOGIN;
GRANT SELECT ON fixes_commits TO alice;
CREATE USER MAPPING FOR alice SERVER s2 OPTIONS (user 'nobody', password_required 'false');
CREATE USER MAPPING FOR alice SERVER s1 OPTIONS (user 'postgres', password_required 'false');
SQL
out=$(on coord -At -c "SET ROLE alice" -c "SELECT count(*) FROM fixes_commits" 2>&1 || true)
grep -q 'permission denied for table fixes_commits' <<<"$out" &&
    ok "alice, mapped to a role of s2 without SELECT: $(grep ERROR <<<"$out" | head -1)" || fail "alice: $out"
# a view runs as its owner, with the owner's user mapping (docs/shards.md says so)
on coord -c "GRANT SELECT ON fixes_per_release TO alice"
out=$(on coord -At -c "SET ROLE alice" -c "SELECT count(*) FROM fixes_per_release" 2>&1 || true)
[ "$out" = "$(onq coord -c "SELECT count(*) FROM fixes_per_release")" ] &&
    ok "through a view alice reads as the view's owner, with its mapping ($out rows)" || fail "alice's view: $out"

echo "--- 9. a shard that does not answer, then a stopped shard"
s2pid=$(head -1 "$work/s2/data/postmaster.pid")
kill -STOP "$s2pid"; stopped_pid=$s2pid
t0=$(date +%s.%N)
out=$(onq coord -c "SELECT count(*) FROM fixes_per_release" 2>&1 || true)
secs=$(elapsed "$t0")
if grep -q 'could not connect to server "s2"' <<<"$out" && awk -v s="$secs" 'BEGIN { exit !(s < 5) }'; then
    ok "s2 frozen: ERROR in $secs s (connect_timeout 2): $(grep ERROR <<<"$out")"
else
    fail "s2 frozen: after $secs s: $out"
fi
check_s1_alone() {   # WHEN
    local got want
    want=$(onq s1 -c "SELECT count(*) FROM fixes_edges WHERE repository_id = $s1id")
    got=$(onq coord -c "SELECT count(*) FROM fixes_edges WHERE repository_id = $s1id" 2>&1 || true)
    [ "$got" = "$want" ] && ok "$1: a query of s1's repository id $s1id answers ($got edges)" ||
        fail "$1: the query of s1's repository: $got"
    # a load and a refresh on the coordinator: they never touch a shard
    got=$(on coord -At -c "SET client_min_messages = warning" \
            -c "SELECT commits FROM fixes_load('$fixtures/releases.git', 'v1.1', name => 'local')" \
            -c "SELECT commits FROM fixes_load('$fixtures/releases.git', 'HEAD', name => 'local')" \
            -c "SELECT fixes_unload('local')" 2>&1 | tr '\n' ' ' || true)
    [ "$got" = "16 38 t " ] && ok "$1: a load, a refresh and an unload on the coordinator: $got" ||
        fail "$1: a load on the coordinator: $got"
}
check_s1_alone "s2 frozen"
kill -CONT "$s2pid"; stopped_pid=
as_pg "$bindir/pg_ctl" stop -D "$work/s2/data" -m fast >/dev/null
t0=$(date +%s.%N)
out=$(onq coord -c "SELECT * FROM fixes_affected" 2>&1 || true)
secs=$(elapsed "$t0")
grep -q 'could not connect to server "s2"' <<<"$out" && ok "s2 stopped: ERROR in $secs s: $(grep ERROR <<<"$out")" ||
    fail "s2 stopped: $out"
check_s1_alone "s2 stopped"

as_pg "$bindir/pg_ctl" start -D "$work/s2/data" -l "$work/s2/log" -w >/dev/null
got=$(onq coord -c "SELECT count(DISTINCT repository) FROM fixes_per_release" 2>&1)
[ "$got" = "$(onq one -c "SELECT count(DISTINCT repository) FROM fixes_per_release")" ] &&
    ok "s2 started again: every repository answered ($got), nothing attached again" ||
    fail "after s2 started again: $got"

echo "--- 10. a later update that adds a column: the shards first, then the coordinator"
probe="BEGIN; ALTER TABLE fixes_releases ADD COLUMN issue46_probe integer;
SELECT count(*) FROM fixes_releases WHERE issue46_probe IS NULL; ROLLBACK;"
out=$(onq coord -c "$probe" 2>&1 || true)
grep -q 'column "issue46_probe" does not exist' <<<"$out" &&
    ok "the coordinator first: its ALTER TABLE reaches the foreign children, the shards lack the column: $(grep ERROR <<<"$out")" ||
    fail "the coordinator's new column before the shards': $out"
for n in s1 s2; do on "$n" -c "ALTER TABLE fixes_releases ADD COLUMN issue46_probe integer"; done
out=$(onq coord -c "$probe" 2>&1 || true)
[ "$out" = "$(onq coord -c "SELECT count(*) FROM fixes_releases")" ] &&
    ok "the shards first: the coordinator's new column is read from them ($out rows)" ||
    fail "the coordinator's new column after the shards': $out"
for n in s1 s2; do on "$n" -c "ALTER TABLE fixes_releases DROP COLUMN issue46_probe"; done

echo "--- 11. pg_dump of the coordinator, restored as a second coordinator of the same shards"
psql -X -q -h "$work/coord" -p "${port[coord]}" -U postgres -d postgres -c 'CREATE DATABASE restored'
if "$bindir/pg_dump" -Fc -h "$work/coord" -p "${port[coord]}" -U postgres -f "$work/coord.dump" fixes &&
   "$bindir/pg_restore" --exit-on-error -h "$work/coord" -p "${port[coord]}" -U postgres -d restored \
       "$work/coord.dump" 2>"$work/restore.err"; then
    rows coord >"$work/rows-coord2"
    psql -X -q -At -F $'\t' -h "$work/coord" -p "${port[coord]}" -U postgres -d restored -f "$lib/ext-rows.sql" |
        grep -Pv '^(fixes_shards|fixes_repository_id_range)\t' >"$work/rows-restored"
    got=$(psql -X -At -h "$work/coord" -p "${port[coord]}" -U postgres -d restored \
              -c "SELECT string_agg(server || ':' || id_lo || '-' || id_hi, ' ' ORDER BY server) FROM fixes_shards")
    if diff -q "$work/rows-coord2" "$work/rows-restored" >/dev/null && [ "$got" = "s1:1000000-1999999 s2:2000000-2999999" ]; then
        ok "restored: the same $(wc -l <"$work/rows-restored") rows, shards $got"
    else
        fail "the restored coordinator differs: shards $got"; diff "$work/rows-coord2" "$work/rows-restored" | head -10
    fi
else
    fail "pg_dump or pg_restore of the coordinator: $(cat "$work/restore.err")"
fi

echo "--- 12. fixes_detach_shard"
before=$(onq s1 -c "SELECT count(*) FROM fixes_commits")
[ "$(onq coord -c "SELECT fixes_detach_shard('s1')")" = t ] || fail "detach s1"
got=$(onq coord -c "SELECT count(*) FROM fixes_repositories WHERE repository_id BETWEEN 1000000 AND 1999999")
[ "$got" = 0 ] || fail "s1's repositories still on the coordinator after the detach: $got"
[ "$(onq coord -c "SELECT fixes_detach_shard('s1')")" = f ] || fail "a second detach of s1"
[ "$(onq coord -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'fixes_shard_s1'")" = 0 ] || fail "schema left"
[ "$(onq s1 -c "SELECT count(*) FROM fixes_commits")" = "$before" ] && ok "detached: s1's rows gone from the coordinator, s1 unchanged ($before commits)" ||
    fail "s1 changed by the detach"

[ $rc = 0 ] && drop_db "$db"
[ $rc = 0 ] && echo PASS || echo FAIL
exit $rc
