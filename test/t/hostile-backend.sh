#!/usr/bin/env bash
# test/t/hostile-backend.sh — nothing a repository holds makes the backend spin, swell or crash
# (issue 28)
#
# The reader process is safe (hostile.sh); these repositories attack the backend, which works
# on what the reader sends.  Each is generated here (git fast-import) and loaded under the name
# 'attacker' with statement_timeout = 1 s: the load must answer or end in an ERROR within 2 s
# (1 s of the timeout), and never with SQLSTATE XX000; at the end the server log shows no
# backend terminated by a signal, and 'victim', another repository loaded first, is intact.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
need_fixture releases.git

work=$(mktemp -d /tmp/fixes-hostile-backend.XXXXXX)
chmod a+rx "$work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
db=t_hostile_backend
fresh_db "$db"
log="${FIXES_SANDBOX:-/tmp/fixes-sandbox}/log"
log_lines=$(wc -l <"$log" 2>/dev/null || echo 0)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# gen DIR PYTHON: a bare repository DIR whose history the Python code builds: it appends
# commits with commit(message_bytes, files={path: bytes}, encoding=None, parents=None) (it
# returns the commit's mark; parents default to the previous commit) and tags with
# tag(name, mark, annotated=False); refs/heads/master is the last commit
gen() {
    local dir=$1 code=$2
    git init -q --bare "$dir"
    python3 - "$dir" "$code" <<'PY'
import subprocess, sys
d, code = sys.argv[1], sys.argv[2]
out = []
state = {'mark': 0, 'last': None, 't': 1500000000}
def data(b):
    out.append(b'data %d\n' % len(b)); out.append(b); out.append(b'\n')
def commit(message, files=None, encoding=None, parents=None, ref='refs/heads/master'):
    if isinstance(message, str):
        message = message.encode()
    state['mark'] += 1; state['t'] += 60
    m = state['mark']
    out.append(b'commit %s\nmark :%d\n' % (ref.encode(), m))
    out.append(b'author A U Thor <a@example.org> %d +0000\n' % state['t'])
    out.append(b'committer C O Mitter <c@example.org> %d +0000\n' % state['t'])
    if encoding:
        out.append(b'encoding %s\n' % encoding.encode())
    data(message)
    if parents is None:
        parents = [state['last']] if state['last'] else []
    for i, p in enumerate(parents):
        out.append(b'%s :%d\n' % (b'from' if i == 0 else b'merge', p))
    for path, content in (files or {}).items():
        if isinstance(content, str):
            content = content.encode()
        out.append(b'M 100644 inline %s\n' % path.encode()); data(content)
    state['last'] = m
    return m
def tag(name, mark, annotated=False):
    if annotated:
        state['t'] += 60
        out.append(b'tag %s\nfrom :%d\ntagger T <t@example.org> %d +0000\n' % (name.encode(), mark, state['t']))
        data(b'release ' + name.encode() + b'\n')
    else:
        out.append(b'reset refs/tags/%s\nfrom :%d\n\n' % (name.encode(), mark))
exec(code)
subprocess.run(['git', '-C', d, 'fast-import', '--quiet'], input=b''.join(out), check=True)
subprocess.run(['git', '-C', d, 'symbolic-ref', 'HEAD', 'refs/heads/master'], check=True)
PY
    chmod -R a+rX "$dir"
}

# --- the previous load that must survive --------------------------------------------------
q -c "SELECT repository FROM fixes_load('$fixtures/releases.git', name => 'victim')" >/dev/null
before=$(victim_snapshot)

unload_attacker() {
    q -c "SELECT fixes_unload(name) FROM fixes_repositories WHERE name = 'attacker'" >/dev/null
}

# attack NAME SETUP-SQL LOAD-ARGS [EXPECT]: load under the name attacker with a 1 s
# statement_timeout (ATTACK_TIMEOUT s) after SETUP-SQL; it must end within 2 s (1 s more), answering or with an ERROR that
# is not an internal one (XX000) nor a crash; with EXPECT, the output must match /EXPECT/.
# The output is left in $out.
out=
attack() {
    local name=$1 setup=$2 args=$3 expect=${4:-} t0 secs timeout=${ATTACK_TIMEOUT:-1}
    unload_attacker
    t0=$(date +%s.%N)
    out=$(psql -X -At -v ON_ERROR_STOP=0 -v VERBOSITY=verbose -d "$db" 2>&1 <<SQL
\set VERBOSITY verbose
$setup
SET statement_timeout = '${timeout}s';
SELECT 'loaded', commits FROM fixes_load($args, name => 'attacker');
SQL
) || true
    secs=$(elapsed "$t0")
    printf '%-44s %5s s  %s\n' "$name" "$secs" \
        "$( (grep -m1 -o -E 'ERROR: .*|^loaded.*' <<<"$out" || echo "$out" | head -1) | cut -c1-100)"
    grep -q -E 'ERROR:|^loaded' <<<"$out" || fail "$name: neither an answer nor an ERROR: $out"
    if grep -q -E 'XX000|server closed the connection|terminated abnormally' <<<"$out"; then
        fail "$name: an internal error or a crash: $out"
    fi
    awk -v s="$secs" -v t="$timeout" 'BEGIN { exit !(s < t + 1) }' ||
        fail "$name: took $secs s (limit $((timeout + 1)) s)"
    if [ -n "$expect" ] && ! grep -q -E "$expect" <<<"$out"; then
        fail "$name: the output is not /$expect/: $out"
    fi
}

# settle NAME SETUP-SQL LOAD-ARGS: the same load without the 1 s timeout (60 s), for what it
# answers: it must answer; the output is left in $out
settle() {
    local name=$1 setup=$2 args=$3
    unload_attacker
    out=$(psql -X -At -v ON_ERROR_STOP=0 -d "$db" 2>&1 <<SQL
\set VERBOSITY verbose
$setup
SET statement_timeout = '60s';
SELECT 'loaded', commits FROM fixes_load($args, name => 'attacker');
SQL
) || true
    grep -q '^loaded' <<<"$out" || fail "$name, without the 1 s timeout: no answer: $out"
}
attacker_count() {
    q -c "SELECT count(*) $1 FROM $2 t JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'attacker'"
}

# --- item 1: invalid UTF-8 in a message (was quadratic and uncancellable) -----------------
gen "$work/ff.git" "
commit('root\n')
commit(b'subject\n\n' + b'\xff' * (4 << 20) + b'\n')
commit(b'\xfe\xff' * (1 << 20) + b'\n\nbody\n')
"
attack "4 MiB of 0xff in a message" "" "'$work/ff.git'"

# --- item 6: conversion from a declared encoding checks for interrupts ---------------------
gen "$work/eucjp.git" "
commit('root\n')
commit(b'subject\n\n' + b'\xff' * (32 << 20) + b'\n', encoding='EUC-JP')
"
attack "32 MiB of invalid EUC-JP" "SET fixes.max_record_bytes = '64MB';" "'$work/eucjp.git'" \
    'statement timeout|^loaded'

# --- item 3: resolving by subject (was one pair per line and candidate commit) ------------
# 2,000 commits with the subject x, then one with 40,000 lines Fixes: 000000 ("x"), every
# line read (fixes.max_edges_per_commit raised): each is compared with at most
# fixes.max_subject_candidates commits, and none is resolved (x is no single commit)
gen "$work/subject.git" "
for i in range(2000):
    commit('x\n\nbody %d\n' % i)
commit('many\n\n' + ''.join('Fixes: 000000 (\"x\")\n' for i in range(40000)))
"
attack "40,000 lines x 2,000 commits by subject" "SET fixes.max_edges_per_commit = 100000;" \
    "'$work/subject.git'"
settle "40,000 lines x 2,000 commits by subject" "SET fixes.max_edges_per_commit = 100000;" \
    "'$work/subject.git'"
many=$(git -C "$work/subject.git" rev-parse HEAD)
grep -q "WARNING: .*commit $many exceeds fixes.max_subject_candidates" <<<"$out" ||
    fail "40,000 lines by subject: no WARNING naming the commit and fixes.max_subject_candidates"
n=$(attacker_count "FILTER (WHERE t.status = 'resolved') || '/' || count(*)" fixes_edges)
[ "$n" = "0/40000" ] || fail "40,000 lines by subject: $n edges resolved (expected 0/40000)"
# the same with a subject that one commit has: resolved, the limit does not matter
gen "$work/subject1.git" "
for i in range(2000):
    commit('x %d\n\nbody\n' % i)
commit('many\n\n' + ''.join('Fixes: 000000 (\"x 7\")\n' for i in range(4000)))
"
settle "4,000 lines by the subject of one commit" "SET fixes.max_edges_per_commit = 100000;" \
    "'$work/subject1.git'"
n=$(attacker_count "FILTER (WHERE t.status = 'resolved')" fixes_edges)
[ "$n" = 4000 ] || fail "4,000 lines by the subject of one commit: $n resolved"

# --- item 4: what one message turns into is bounded ----------------------------------------
# one message of 20 MiB of Fixes: lines: cut to fixes.max_record_bytes (16 MB), then to
# fixes.max_message_lines (100,000), then fixes.max_edges_per_commit (10,000) edges; a
# WARNING names the commit and each limit; the load goes on
gen "$work/amplify.git" "
commit('root\n')
commit('amplify\n\n' + 'Fixes: abcdef\n' * (20 * 1024 * 1024 // 14))
commit('after\n\nFixes: abcdef\n')
"
attack "20 MiB of Fixes: lines" "" "'$work/amplify.git'"
settle "20 MiB of Fixes: lines" "" "'$work/amplify.git'"
amp=$(git -C "$work/amplify.git" rev-parse HEAD~1)
for limit in max_record_bytes max_message_lines max_edges_per_commit; do
    grep -q "WARNING: .*commit $amp exceeds fixes.$limit" <<<"$out" ||
        fail "20 MiB of Fixes: lines: no WARNING naming the commit and fixes.$limit"
done
n=$(attacker_count "" fixes_edges)
[ "$n" = 10001 ] || fail "20 MiB of Fixes: lines: $n edges (expected 10000 + 1)"
# the same commit read with the limits raised: every line (cut only by the 1 s timeout)
attack "20 MiB of Fixes: lines, limits raised" \
    "SET fixes.max_message_lines = 10000000; SET fixes.max_edges_per_commit = 10000000; SET fixes.max_record_bytes = '64MB';" \
    "'$work/amplify.git'"

# trailers: 200,000 trailers in one message, cut at fixes.max_trailers_per_commit (10,000)
gen "$work/trailers.git" "
commit('root\n')
commit('trailers\n\nbody\n\n' + ''.join('Cc: a%d@example.org\n' % i for i in range(200000)))
"
attack "200,000 trailers" "SET fixes.max_message_lines = 1000000;" "'$work/trailers.git'"
settle "200,000 trailers" "SET fixes.max_message_lines = 1000000;" "'$work/trailers.git'"
grep -q "WARNING: .*exceeds fixes.max_trailers_per_commit" <<<"$out" ||
    fail "200,000 trailers: no WARNING naming fixes.max_trailers_per_commit"
n=$(attacker_count "" fixes_trailers)
[ "$n" = 10000 ] || fail "200,000 trailers: $n rows of fixes_trailers (expected 10000)"

# --- item 4: a refresh reads the previous load's edges of its repository only ---------------
# another repository with 200,000 edges; a refresh of a small one (one new commit) reads its
# old edges through the primary key's range of its repository_id: it fetches a few blocks of
# fixes_edges, not every block of the table (it did: one repository's size cost every other)
gen "$work/big.git" "
commit('root\n')
commit('big\n\n' + 'Fixes: abcdef\n' * 200000)
"
q -c "SET client_min_messages = error; SET fixes.max_edges_per_commit = 1000000; SET fixes.max_message_lines = 1000000; SELECT edges FROM fixes_load('$work/big.git', name => 'big')" >/dev/null
git clone -q --bare "$fixtures/releases.git" "$work/tenant.git"
chmod -R a+rX "$work/tenant.git"
q -c "SELECT edges FROM fixes_load('$work/tenant.git', name => 'tenant')" >/dev/null
git clone -q "$work/tenant.git" "$work/tenant-wt"
git -C "$work/tenant-wt" -c user.name=t -c user.email=t@example.org commit -q --allow-empty \
    -m "new" -m "Fixes: 0123456789ab (\"x\")"
git -C "$work/tenant-wt" push -q origin "HEAD:$(git -C "$work/tenant.git" symbolic-ref --short HEAD)"
read -r fetched blocks < <(q -F ' ' -v path="$work/tenant.git" <<'SQL'
BEGIN;
SELECT pg_stat_get_xact_blocks_fetched('fixes_edges'::regclass) AS f0 \gset
SELECT edges FROM fixes_load(:'path', name => 'tenant') \g /dev/null
SELECT pg_stat_get_xact_blocks_fetched('fixes_edges'::regclass) - :f0, pg_relation_size('fixes_edges') / 8192;
COMMIT;
SQL
)
printf '%-44s %s\n' "refresh beside 200,000 edges of another" "$fetched of $blocks blocks of fixes_edges fetched"
[ "$fetched" -lt $((blocks / 10)) ] || fail "a refresh fetched $fetched of the $blocks blocks of fixes_edges"
q -c "SELECT fixes_unload('big'), fixes_unload('tenant')" >/dev/null

# --- item 2: MAINTAINERS glob matching is interruptible -------------------------------------
# 80 sections whose F: patterns start with a wildcard (tried for every path) and make the
# matcher retry at every character (O(|pattern| |path|) each: 1,500 '?' then a 'b' that no
# path has), against 40 paths of 3,000 bytes
gen "$work/globs.git" "
pat = '*' + '?' * 1500 + 'b'
maint = ''.join('SECTION %d\nF:\t%s%d\n\n' % (i, pat, i) for i in range(80))
comp = 'a' * 200
files = {'MAINTAINERS': maint}
commit('root\n', files)
commit('deep\n', {'/'.join([comp] * 15) + '/f%d' % i: 'x\n' for i in range(40)})
"
attack "80 long F: globs x 40 deep paths" "" \
    "'$work/globs.git', files => true, maintainers => 'MAINTAINERS'" 'statement timeout|^loaded'

# --- item 9: a cancel while N: expressions are compiled or matched is 57014 ----------------
# one N: expression whose compilation takes long: when the timeout lands in the regex library,
# which returns REG_CANCEL, that is the cancel (57014), not an invalid expression (an ERROR
# 2201B).  On a fast machine the library may give up first ("too complex", a WARNING that
# the expression is ignored, which is right), and the timeout lands later: either way the
# load ends in 57014 and never in an ERROR 2201B
gen "$work/nregex.git" "
commit('root\n', {'MAINTAINERS': 'SLOW\nN:\t((a{1,100}){1,100}){1,100}\n\nOTHER\nF:\tf\n', 'f': 'x\n'})
"
attack "a cancel while an N: expression compiles" "" \
    "'$work/nregex.git', files => true, maintainers => 'MAINTAINERS'" '57014|^loaded'
if grep -q -E 'ERROR: +2201B' <<<"$out"; then
    fail "a cancel while an N: expression compiles: reported as an invalid expression: $out"
fi

# --- item 7: a release tagged again on the same commit is seen ------------------------------
# v1.0 lightweight, loaded; then v1.0 annotated (dated later) on the same commit, the head
# unchanged: the next load must not say "nothing changed" and keep annotated = false
gen "$work/retag.git" "
a = commit('c1\n')
b = commit('c2\n')
tag('v1.0', b)
commit('c3\n')
"
q -c "SELECT releases FROM fixes_load('$work/retag.git', name => 'retag')" >/dev/null 2>&1
git clone -q "$work/retag.git" "$work/retag-wt"
GIT_COMMITTER_DATE="2021-06-01T00:00:00Z" git -C "$work/retag-wt" -c user.name=t -c user.email=t@example.org \
    tag -f -a -m "v1.0" v1.0 HEAD~1 >/dev/null
git -C "$work/retag-wt" push -q -f origin refs/tags/v1.0
q -c "SELECT releases FROM fixes_load('$work/retag.git', name => 'retag')" >/dev/null 2>&1
got=$(q -c "SELECT annotated::text || ' ' || extract(epoch FROM released_at)::bigint FROM fixes_releases r JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'retag' AND r.tag = 'v1.0'")
printf '%-44s %s\n' "v1.0 tagged again, annotated" "$got"
[ "$got" = "true 1622505600" ] || fail "a release tagged again: fixes_releases says '$got'"

# --- item 10: oversized reader arguments: refused with a clear ERROR, or on stdin ------------
# (execv() failed with E2BIG: "exited with status 127 without an answer")
long=$(printf 'a%.0s' $(seq 1 200000))
attack "a 200 KB ref" "" "'$fixtures/releases.git', ref => '$long'" 'is too long'
attack "a 200 KB path" "" "'/tmp/$long'" 'is too long'
# 60,000 stable branches, each on a commit of its own: their heads go on the reader's stdin
# (2.4 MB of arguments did not fit a command line), and the load answers
gen "$work/branches.git" "
root = commit('root\n')
for i in range(60000):
    commit('s %d\n' % i, parents=[root], ref='refs/heads/stable-%d' % i)
commit('main\n', parents=[root])
"
ATTACK_TIMEOUT=60 attack "60,000 stable branch heads" "" \
    "'$work/branches.git', stable_branches => '^refs/heads/stable-'" '^loaded'
n=$(attacker_count "" fixes_commits)
[ "$n" = 60002 ] || fail "60,000 stable branch heads: $n commits (expected 60,002)"

# --- the reader reads no global or system git config ---------------------------------------
# a broken ~/.gitconfig (and $XDG_CONFIG_HOME/git/config) of the server's OS user made every
# load fail ("failed to parse config file"); the reader now reads the repository's config only.
# First the reader alone, under a HOME of our own; then the server's: its HOME (from the
# postmaster's environment, else the OS user's home) gets a broken .gitconfig for one load,
# and the one it had back at once (a trap restores it too)
reader="$("$PG_CONFIG" --pkglibdir)/fixes-reader"
mkdir -p "$work/home/xdg/git"
printf '[broken\n' >"$work/home/.gitconfig"
printf '[broken\n' >"$work/home/xdg/git/config"
if HOME="$work/home" XDG_CONFIG_HOME="$work/home/xdg" "$reader" head "$fixtures/releases.git" HEAD |
   head -c 1 | grep -q H; then
    printf '%-44s %s\n' "reader under a broken ~/.gitconfig" "reads the head"
else
    fail "the reader under a broken ~/.gitconfig does not read the head"
fi
datadir=$(q -c "SHOW data_directory")
pmpid=$(head -1 "$datadir/postmaster.pid" 2>/dev/null || true)
home=$(tr '\0' '\n' <"/proc/$pmpid/environ" 2>/dev/null | sed -n 's/^HOME=//p' || true)
[ -n "$home" ] || home=$(getent passwd "$(stat -c %U "$datadir")" | cut -d: -f6)
if [ -n "$home" ] && [ -d "$home" ] && [ -w "$home" ]; then
    saved=
    if [ -e "$home/.gitconfig" ]; then saved="$work/gitconfig.saved"; cp -p "$home/.gitconfig" "$saved"; fi
    restore_gitconfig() {
        if [ -n "$saved" ]; then cp -p "$saved" "$home/.gitconfig"; else rm -f "$home/.gitconfig"; fi
    }
    trap 'restore_gitconfig; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
    printf '[broken\n' >"$home/.gitconfig"
    chmod a+r "$home/.gitconfig"
    ATTACK_TIMEOUT=30 attack "load under a broken $home/.gitconfig" "" "'$fixtures/releases.git'" '^loaded'
    restore_gitconfig
    trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
else
    echo "note: the server's HOME ($home) is not writable here: only the reader was checked"
fi

# --- item 5: columns an administrator added to the extension's tables --------------------
# In a database of its own: four columns more on every table of the extension (the fixed-size
# arrays of some writers overran: SIGSEGV), then loads with files, MAINTAINERS and stable
# branches, twice (a full load, then a refresh), and the added columns stay NULL.
db2=t_hostile_backend_cols
fresh_db "$db2"
q2() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db2" "$@"; }
q2 -c "DO \$\$
DECLARE r regclass;
BEGIN
  FOR r IN SELECT objid::regclass FROM pg_depend
           WHERE refclassid = 'pg_extension'::regclass AND classid = 'pg_class'::regclass
             AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes') AND deptype = 'e'
             AND (SELECT relkind FROM pg_class WHERE oid = objid) = 'r'
  LOOP
    EXECUTE format('ALTER TABLE %s ADD COLUMN x1 int, ADD COLUMN x2 text, ADD COLUMN x3 bigint, ADD COLUMN x4 int DEFAULT 4, ADD COLUMN x5 timestamptz', r);
  END LOOP;
END \$\$"
for pass in full refresh; do
    out=$(psql -X -At -v ON_ERROR_STOP=0 -d "$db2" 2>&1 <<SQL
\set VERBOSITY verbose
SELECT 'loaded', commits FROM fixes_load('$fixtures/files.git', files => true, maintainers => 'MAINTAINERS');
SELECT 'loaded', commits FROM fixes_load('$fixtures/stable.git', stable_branches => '^refs/(heads|remotes/origin)/stable-', files => true);
SQL
) || true
    printf '%-44s %s\n' "added columns, $pass load" "$(grep -c '^loaded' <<<"$out") loads"
    [ "$(grep -c '^loaded' <<<"$out")" = 2 ] || fail "added columns, $pass load: $out"
done
# every table has rows, and no added column holds a value
q2 -c "DO \$\$
DECLARE r regclass; n bigint; m bigint; filled text := '';
BEGIN
  FOR r IN SELECT objid::regclass FROM pg_depend
           WHERE refclassid = 'pg_extension'::regclass AND classid = 'pg_class'::regclass
             AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'fixes') AND deptype = 'e'
             AND (SELECT relkind FROM pg_class WHERE oid = objid) = 'r'
  LOOP
    EXECUTE format('SELECT count(*), count(*) FILTER (WHERE x1 IS NOT NULL OR x2 IS NOT NULL OR x3 IS NOT NULL OR x5 IS NOT NULL) FROM %s', r) INTO n, m;
    IF m > 0 THEN filled := filled || format(' %s (%s of %s rows)', r, m, n); END IF;
  END LOOP;
  IF filled <> '' THEN RAISE EXCEPTION 'added columns hold values:%', filled; END IF;
END \$\$" || fail "the added columns were written"
drop_db "$db2"

# --- item 8: no function names the schema of CREATE EXTENSION ------------------------------
# the extension in schema fx, a load with files; then ALTER SCHEMA fx RENAME TO fx2, and a new
# schema fx with look-alike tables holding planted rows: every function answers as before,
# from the extension's own tables (fixes_per_path_prefix named fx in its body: it failed after
# the rename and then read the planted rows)
db3=t_hostile_backend_schema
drop_db "$db3"
createdb "$db3"
q3() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db3" "$@"; }
q3 -c "CREATE SCHEMA fx; CREATE EXTENSION fixes SCHEMA fx"
q3 -c "SELECT repository FROM fx.fixes_load('$fixtures/files.git', files => true, maintainers => 'MAINTAINERS')" >/dev/null 2>&1
answers() {
    q3 -c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM $1.fixes_per_path_prefix('files', 2) t" \
       -c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM $1.fixes_per_path_prefix('files', 6) t" 2>&1 | tr '\n' ' '
}
repo=$(q3 -c "SELECT name FROM fx.fixes_repositories")
[ "$repo" = files ] || fail "schema: the repository is called '$repo', not files"
before3=$(answers fx)
q3 -c "ALTER SCHEMA fx RENAME TO fx2; CREATE SCHEMA fx"
q3 -c "CREATE TABLE fx.fixes_repositories AS SELECT * FROM fx2.fixes_repositories;
       CREATE TABLE fx.fixes_path_prefix_counts AS SELECT * FROM fx2.fixes_path_prefix_counts;
       UPDATE fx.fixes_path_prefix_counts SET commits = commits + 1000, prefix = 'planted/' || prefix;
       CREATE TABLE fx.fixes_commit_files AS SELECT * FROM fx2.fixes_commit_files;
       UPDATE fx.fixes_commit_files SET path = 'planted/' || path;
       CREATE TABLE fx.fixes_commits AS SELECT * FROM fx2.fixes_commits;
       CREATE TABLE fx.fixes_edges AS SELECT * FROM fx2.fixes_edges"
after3=$(answers fx2)
printf '%-44s %s\n' "fixes_per_path_prefix after a schema rename" "$after3"
[ "$before3" = "$after3" ] || fail "after ALTER SCHEMA RENAME: fixes_per_path_prefix answers '$after3', not '$before3'"
# and the catalog: no function body names a schema (fx2 or fx)
named=$(q3 -c "SELECT string_agg(p.oid::regprocedure::text, ' ') FROM pg_proc p
                 JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
                 JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'fixes'
                WHERE p.prosrc ~ '\mfx2?\.'")
[ -z "$named" ] || fail "functions whose body names the extension's schema: $named"

# --- item 9: every function that looks the schema up, after the rename ---------------------
# (issue 44: fixes_extension_schema(), the one look-up, and the functions of SQL bound to it by
# oid; fixes_load and fixes_unload ask the same look-up in C).  Look-alike tables of fixes_shards
# and fixes_repository_id_range in the new schema fx, holding planted rows; a shard: another
# database of this server (postgres_fdw, skipped without it).  Each function must read and write
# fx2's tables, never fx's; then the look-up is broken on purpose (fixes_extension_schema()
# replaced, same oid, by one that answers 'fx', the name at CREATE EXTENSION): the same checks
# must fail, or they could not tell.
q3 -c "CREATE TABLE fx.fixes_shards AS SELECT * FROM fx2.fixes_shards;
       INSERT INTO fx.fixes_shards VALUES ('planted', 'fixes_shard_planted', 'fx', 5000, 5999, now());
       CREATE TABLE fx.fixes_repository_id_range AS SELECT * FROM fx2.fixes_repository_id_range"
shard_db=t_hostile_backend_shard
has_fdw=
if [ -f "$("$PG_CONFIG" --sharedir)/extension/postgres_fdw.control" ]; then
    has_fdw=1
    drop_db "$shard_db"
    createdb "$shard_db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$shard_db" -c "CREATE EXTENSION fixes" \
         -c "SELECT fixes_set_repository_id_range(2000, 2999)" >/dev/null
    q3 -v h="${PGHOST:-/var/run/postgresql}" -v p="${PGPORT:-5432}" -v d="$shard_db" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION postgres_fdw;
CREATE SERVER loop FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host :'h', port :'p', dbname :'d', connect_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER loop OPTIONS (user :'USER');
INSERT INTO fx.fixes_shards VALUES ('loop', 'fixes_shard_loop', 'public', 2000, 2999, now());
SQL
else
    echo "postgres_fdw is not installed: fixes_attach_shard after the rename not called"
fi
# lookups_after_rename: the problems found, one a line (none: the functions use fx2's tables)
lookups_after_rename() {
    local planted got
    planted=$(q3 -c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM fx.fixes_shards t")
    got=$(q3 -c "SELECT count(*) FROM (SELECT fx2.fixes_set_repository_id_range(1, 1000)) s" -c "SELECT lo || '-' || hi FROM fx2.fixes_repository_id_range" 2>&1 | tr '\n' ' ')
    [ "$got" = "1 1-1000 " ] || echo "fixes_set_repository_id_range: '$got', not '1 1-1000 ' (fx2's range set)"
    got=$(q3 -c "SELECT count(*) FROM fx.fixes_repository_id_range")
    [ "$got" = 0 ] || echo "fixes_set_repository_id_range wrote fx's look-alike table"
    got=$(q3 -c "SELECT fx2.fixes_detach_shard('planted')" 2>&1)
    [ "$got" = f ] || echo "fixes_detach_shard('planted') of a shard attached only in fx: '$got', not f"
    if [ -n "$has_fdw" ]; then
        got=$(q3 -c "SELECT fx2.fixes_attach_shard('loop')" 2>&1)
        [ "$got" = 0 ] || echo "fixes_attach_shard('loop'): '$got', not 0 (a shard with no repository)"
        got=$(q3 -c "SELECT count(*) FROM fx2.fixes_shards WHERE server = 'loop'")
        [ "$got" = 1 ] || echo "fixes_attach_shard('loop') did not write fx2.fixes_shards"
        got=$(q3 -c "SELECT fx2.fixes_detach_shard('loop')" 2>&1)
        [ "$got" = t ] || echo "fixes_detach_shard('loop'): '$got', not t"
    fi
    got=$(q3 -c "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM fx.fixes_shards t")
    [ "$got" = "$planted" ] || echo "fx's look-alike fixes_shards changed"
    got=$(q3 -c "SELECT repository FROM fx2.fixes_load('$fixtures/files.git', files => true, maintainers => 'MAINTAINERS')" 2>&1)
    [ "$got" = files ] || echo "fixes_load after the rename: '$got'"
    got=$(q3 -c "SELECT fx2.fixes_commit_id('files', left(c.commit_id, 12)) = c.commit_id FROM fx2.fixes_commits c
                  WHERE c.repository_id = (SELECT repository_id FROM fx2.fixes_repositories) ORDER BY c.commit_idx DESC LIMIT 1" \
             -c "SELECT count(*) >= 0 FROM fx2.fixes_cve_affected_all('files')" 2>&1 | tr '\n' ' ')
    [ "$got" = "t t " ] || echo "fixes_commit_id, fixes_cve_affected_all after the rename: '$got', not 't t '"
    got=$(q3 -c "SELECT fx2.fixes_unload('files')" -c "SELECT count(*) FROM fx2.fixes_repositories" \
             -c "SELECT count(*) FROM fx.fixes_repositories" 2>&1 | tr '\n' ' ')
    [ "$got" = "t 0 1 " ] || echo "fixes_unload after the rename: '$got', not 't 0 1 ' (fx2's row deleted, fx's kept)"
}
problems=$(lookups_after_rename)
printf '%-44s %s\n' "the schema's look-ups after a rename" "${problems:-every function on the tables of fx2}"
[ -z "$problems" ] || fail "after ALTER SCHEMA RENAME: $problems"
# the check's own check: with the look-up broken on purpose, the same calls must find problems
q3 -c "DELETE FROM fx2.fixes_repository_id_range" \
   -c "CREATE OR REPLACE FUNCTION fx2.fixes_extension_schema() RETURNS name LANGUAGE sql STABLE STRICT PARALLEL SAFE AS \$\$SELECT 'fx'::name\$\$"
q3 -c "SELECT repository FROM fx2.fixes_load('$fixtures/files.git', files => true, maintainers => 'MAINTAINERS')" >/dev/null 2>&1
broken=$(lookups_after_rename)
printf '%-44s %s\n' "the same with the look-up broken on purpose" "these problems found:"
printf '%s\n' "$broken" | sed 's/^/    /'
[ -n "$broken" ] || fail "a broken look-up of the schema passes the checks above"
case $broken in *fixes_set_repository_id_range*) ;; *) fail "a broken look-up: fixes_set_repository_id_range not caught" ;; esac
case $broken in *fixes_detach_shard*) ;; *) fail "a broken look-up: fixes_detach_shard not caught" ;; esac
drop_db "$db3"
[ -z "$has_fdw" ] || drop_db "$shard_db"

# --- the end ------------------------------------------------------------------------------
after=$(victim_snapshot)
if [ "$before" != "$after" ]; then fail "the previous load changed: $before -> $after"; fi
echo "previous load of 'victim' intact: $after"
crashes=$(tail -n +"$((log_lines + 1))" "$log" | grep -c -E 'server process .* was terminated by signal|terminating any other active server processes' || true)
[ "$crashes" = 0 ] || fail "the server log shows $crashes crashed backend(s)"
echo "server log: no backend terminated by a signal"

if [ "$failures" -ne 0 ]; then echo "FAIL ($failures)"; exit 1; fi
drop_db "$db"
echo PASS
