#!/bin/bash
# reload-refs.sh — a reload whose head and refs are the previous load's does not read the tags
# (issue 31, src/load/refresh/refs_hash.c, src/reader/refs.c), and every other change is still noticed.
#
# A copy of ${FIXES_FIXTURES}/stable.git (lightweight tags, loose refs) is loaded under the name
# 'r' and reloaded after each step below.  After a step that changes nothing, the reload must log
# (DEBUG1) "refs unchanged since the last load: tags not read" and write no row of fixes_releases
# or fixes_commits (xmin and ctid unchanged).  After a step that changes something, it must not
# log it, and what it stored must equal a cold load of the same state under a new name (the
# repository's row, fixes_per_release, fixes_releases, the commits' releases, the edges, the
# backports, fixes_affected) and differ from what the previous step stored (so the check can
# fail); the next reload with nothing changed must skip the tags again:
#   1  nothing changed                       2  a lightweight release tag moved (v1.1)
#   3  a new annotated tag (v2.1)             4  v2.1 deleted and made again on another commit
#   5  v2.1 made again on the same commit, a later tagger date (a new tag object)
#   6  a tag deleted (v1.0.2)                 7  another release_pattern, then the default again
#   8  a row of fixes_overrides added         9  the head moved (a new commit on main)
#  10  a symbolic tag (refs/tags/v3.0 -> refs/heads/side), then side moved
#  11  a tag whose object is missing: a WARNING, no hash stored, so the next reload reads the
#      tags again; then it is deleted; the same for a prerelease tag (v9.9-rc1): the reader
#      does not peel it (the load asks only for release tags), so no WARNING and a hash stored
#  12  packed refs (git pack-refs): the same refs, so the hash is the same
# At steps 1, 10, 12 and s5 the hash the reader sends equals the one test/oracles/refs-oracle.py computes
# from `git for-each-ref` (the refs git lists, loose or packed, symbolic refs by their target).
# The reader alone, told --ask-tags: a 'T' record for exactly the tags whose indexes it is given
# on standard input; an answer out of order or short fails with 08P01.
# With stable_branches '^refs/heads/stable-' (name 's'): a stable branch moved, a new one and a
# row of fixes_backport_overrides are noticed; a reload with nothing changed skips the tags.  Without it (name 'r'), a branch that moves is
# not a ref the load reads: the reload still skips the tags.
# files.git with files and MAINTAINERS (name 'm'): when the refs are unchanged but the load has
# more to do (maintainers_hash altered, so the subsystems are attributed again), the tags are
# read by a reader of their own ("tags read again") and the result equals a cold load's.
# A database at 1.1 SQL (no refs_hash column): a reload with nothing changed is a no-op as
# before, without the line.
# Own scratch databases fixes_t_reload_refs and fixes_t_reload_refs11, dropped again on success.
# Exit 0 pass, 1 fail, 77 skip (no stable.git or files.git fixture).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_reload_refs
export PGTZ=UTC
need_fixture stable.git
need_fixture files.git

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 LC_ALL=C
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT
export GIT_AUTHOR_NAME='Rita Refs' GIT_AUTHOR_EMAIL='rita@example.org'
export GIT_COMMITTER_NAME='Max Maintainer' GIT_COMMITTER_EMAIL='max@example.org'
when=1600000000
next_date() {
    when=$((when + 3600))
    export GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$when +0000"
}

work=$(mktemp -d /tmp/fixes-t-reload-refs.XXXXXX)
chmod a+rx "$work"
rc=0
cleanup() {
    if [ $rc = 0 ]; then rm -rf "$work"; else echo "(kept $work for inspection)"; fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; rc=1; }

repo=$work/r.git
cp -a "$fixtures/stable.git" "$repo"
chmod -R a+rX "$repo"
g() { git -C "$repo" "$@"; }
line='refs unchanged since the last load: tags not read'
again='tags read again'

fresh_db "$db"

# load NAME PATH OUT [PATTERN] [STABLE] [MAINT]: fixes_load with the DEBUG1 messages in OUT.msg
# (files => true and maintainers MAINT when MAINT is given)
load() {
    local name=$1 path=$2 out=$3 pattern=${4:-} stable=${5:-} maint=${6:-}
    PGOPTIONS='-c client_min_messages=debug1' psql_q -At -v name="$name" -v path="$path" \
        -v pattern="$pattern" -v stable="$stable" -v maint="$maint" >"$out" 2>"$out.msg" <<'SQL' || { cat "$out.msg"; return 1; }
SELECT commits, releases, edges, resolved
  FROM fixes_load(:'path', 'HEAD', nullif(:'pattern', ''), :'name', nullif(:'stable', ''),
                  CASE WHEN :'maint' <> '' THEN true END, nullif(:'maint', ''));
SQL
}

# snapshot NAME: what a load stored that the tags decide, without internal ids
snapshot() {
    psql_q -At -v n="$1" <<'SQL'
\echo == repository
SELECT head_commit, commits, releases, edges, resolved, tags_hash, refs_hash, release_pattern,
       stable_branches
  FROM fixes_repositories WHERE name = :'n';
\echo == fixes_per_release
SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = :'n' ORDER BY 1;
\echo == fixes_releases
SELECT (to_jsonb(x) - 'repository_id' - 'commit_idx')::text
  FROM fixes_releases x JOIN fixes_repositories p USING (repository_id) WHERE p.name = :'n' ORDER BY 1;
\echo == fixes_commits
SELECT c.commit_id, c.release, c.mainline
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id) WHERE p.name = :'n' ORDER BY 1;
\echo == fixes_edges
SELECT (to_jsonb(e) - 'repository_id' - 'fixing_idx' - 'target_idx')::text
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id) WHERE p.name = :'n' ORDER BY 1;
\echo == fixes_backports
SELECT c.commit_id, b.line, u.commit_id, b.status, b.method
  FROM fixes_backports b JOIN fixes_repositories p USING (repository_id)
  JOIN fixes_commits c ON c.repository_id = b.repository_id AND c.commit_idx = b.commit_idx
  LEFT JOIN fixes_commits u ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx
 WHERE p.name = :'n' ORDER BY 1, 2;
\echo == fixes_affected
SELECT (to_jsonb(a) - 'repository')::text FROM fixes_affected a WHERE repository = :'n' ORDER BY 1;
\echo == fixes_per_subsystem
SELECT (to_jsonb(s) - 'repository')::text FROM fixes_per_subsystem s WHERE repository = :'n' ORDER BY 1;
SQL
}

# written NAME: the row versions of fixes_releases and fixes_commits (a no-op writes none)
written() {
    psql_q -At -v n="$1" <<'SQL'
SELECT md5(string_agg(x.xmin::text || x.ctid::text, ',' ORDER BY x.ctid))
  FROM fixes_releases x JOIN fixes_repositories p USING (repository_id) WHERE p.name = :'n';
SELECT md5(string_agg(x.xmin::text || x.ctid::text, ',' ORDER BY x.ctid))
  FROM fixes_commits x JOIN fixes_repositories p USING (repository_id) WHERE p.name = :'n';
SQL
}

# oracle STEP: the reader's refs hash (both scopes) equals test/oracles/refs-oracle.py's, which
# computes it from `git for-each-ref`
reader="$("${PG_CONFIG:-pg_config}" --pkglibdir)/fixes-reader"
oracle() {
    local scope got want
    for scope in t tb; do
        got=$("$reader" head "$repo" HEAD "--refs=$scope:0123456789abcdef" | python3 "$top/test/oracles/refs-oracle.py" --record)
        want="0 $(python3 "$top/test/oracles/refs-oracle.py" "$repo" "$scope" 0123456789abcdef)"
        if [ "$got" != "$want" ]; then
            fail "$1: the reader's refs hash (scope $scope) is $got, git for-each-ref gives $want"
            return
        fi
    done
    echo "ok: $1: the reader's refs hash is that of git for-each-ref's refs (both scopes)"
}

cold=0
# unchanged STEP NAME PATH [PATTERN] [STABLE] [MAINT]: the reload skips the tags, writes nothing
unchanged() {
    local step=$1 name=$2 path=$3; shift 3
    local before after
    before=$(snapshot "$name"; written "$name")
    load "$name" "$path" "$work/$step.out" "$@" >/dev/null || { fail "$step: the reload failed"; return; }
    after=$(snapshot "$name"; written "$name")
    if ! grep -q "$line" "$work/$step.out.msg"; then
        fail "$step: nothing changed, but the reload did not log \"$line\""
    elif [ "$before" != "$after" ]; then
        fail "$step: nothing changed, but the reload changed or rewrote rows:"
        diff <(echo "$before") <(echo "$after") | head -20
    else
        echo "ok: $step: nothing changed: tags not read, no row written"
    fi
}

# changed STEP NAME PATH [PATTERN] [STABLE] [MAINT]: the reload reads the tags, its rows differ
# from the previous step's and equal a cold load's
changed() {
    local step=$1 name=$2 path=$3 pattern=${4:-} stable=${5:-} maint=${6:-}
    local before after want c
    before=$(snapshot "$name")
    load "$name" "$path" "$work/$step.out" "$pattern" "$stable" "$maint" >/dev/null ||
        { fail "$step: the reload failed"; return; }
    after=$(snapshot "$name")
    cold=$((cold + 1))
    c=cold_$cold
    psql_q -c "INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
               SELECT '$c', fixing_commit, abbrev, target_commit, note FROM fixes_overrides
                WHERE repository = '$name'" \
           -c "INSERT INTO fixes_backport_overrides (repository, stable_commit, upstream_commit, note)
               SELECT '$c', stable_commit, upstream_commit, note FROM fixes_backport_overrides
                WHERE repository = '$name'"
    load "$c" "$path" "$work/$step.cold" "$pattern" "$stable" "$maint" >/dev/null ||
        { fail "$step: the cold load failed"; return; }
    want=$(snapshot "$c")
    if [ "${REFS_SAME:-}" != 1 ] && grep -q "$line" "$work/$step.out.msg"; then
        fail "$step: the reload logged \"$line\" after a change"
    elif [ "$before" = "$after" ] && [ "${SAME_OK:-}" != 1 ]; then
        fail "$step: the reload stored what the previous load stored: the change went unnoticed"
    elif [ "$after" != "$want" ]; then
        fail "$step: the reload differs from a cold load of the same state:"
        diff <(echo "$after") <(echo "$want") | head -20
    else
        echo "ok: $step: noticed, and equal to a cold load"
    fi
}

next_date
load r "$repo" "$work/0.out" >/dev/null
if grep -q "$line" "$work/0.out.msg"; then fail "0: a first load logged \"$line\""; fi
[ -n "$(psql_q -At -c "SELECT refs_hash FROM fixes_repositories WHERE name = 'r'")" ] ||
    fail "0: the first load stored no refs_hash"

unchanged "1 (nothing changed)" r "$repo"
oracle "1"

g tag -f v1.1 640b84b >/dev/null
changed "2 (lightweight v1.1 moved)" r "$repo"
unchanged "2b" r "$repo"

next_date
g tag -a -m 'Release 2.1' v2.1 60d29a2
changed "3 (new annotated v2.1)" r "$repo"
unchanged "3b" r "$repo"

next_date
g tag -d v2.1 >/dev/null
g tag -a -m 'Release 2.1' v2.1 70e3863
changed "4 (v2.1 deleted, made again on another commit)" r "$repo"
unchanged "4b" r "$repo"

next_date
old_obj=$(g rev-parse v2.1)
g tag -f -a -m 'Release 2.1' v2.1 70e3863 >/dev/null
[ "$(g rev-parse v2.1)" != "$old_obj" ] || fail "5: the tag object did not change"
changed "5 (v2.1 made again on the same commit, later)" r "$repo"
unchanged "5b" r "$repo"

g tag -d v1.0.2 >/dev/null
changed "6 (v1.0.2 deleted)" r "$repo"
unchanged "6b" r "$repo"

changed "7 (release_pattern ^v[0-9]+\\.0\$)" r "$repo" '^v[0-9]+\.0$'
unchanged "7b" r "$repo" '^v[0-9]+\.0$'
changed "7c (the default pattern again)" r "$repo"

# an override: the first resolved edge of the mainline ignored
psql_q -c "INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit)
           SELECT 'r', e.fixing_commit, e.abbrev, NULL FROM fixes_edges e
             JOIN fixes_repositories p USING (repository_id)
            WHERE p.name = 'r' AND e.status = 'resolved' AND e.abbrev IS NOT NULL
            ORDER BY e.fixing_commit, e.line LIMIT 1"
[ "$(psql_q -At -c "SELECT count(*) FROM fixes_overrides WHERE repository = 'r'")" = 1 ] ||
    fail "8: no edge to override"
changed "8 (a row of fixes_overrides)" r "$repo"
unchanged "8b" r "$repo"

next_date
tree=$(g rev-parse 'main^{tree}')
new=$(g commit-tree -p main -m 'core: fix parser once more' -m 'Fixes: db9fc3f ("core: add parser")' "$tree")
g update-ref refs/heads/main "$new"
changed "9 (head moved)" r "$repo"
unchanged "9b" r "$repo"

# a branch the load does not read without stable_branches: the tags are not read again
g update-ref refs/heads/side 872ab6f
unchanged "10a (a new branch, no stable_branches)" r "$repo"
g symbolic-ref refs/tags/v3.0 refs/heads/side
SAME_OK=1 changed "10b (symbolic tag v3.0 -> side)" r "$repo"
unchanged "10c" r "$repo"
g update-ref refs/heads/side db9fc3f
t_before=$(psql_q -At -c "SELECT tags_hash FROM fixes_repositories WHERE name = 'r'")
SAME_OK=1 changed "10d (side, the target of v3.0, moved)" r "$repo"
[ "$(psql_q -At -c "SELECT tags_hash FROM fixes_repositories WHERE name = 'r'")" != "$t_before" ] ||
    fail "10d: the tags hash did not change with the symbolic tag's target"
unchanged "10e" r "$repo"
oracle "10e (a symbolic tag, a new branch)"

# a tag whose object is missing: skipped with a WARNING, and no hash stored
echo 0123456789012345678901234567890123456789 >"$repo/refs/tags/v9.9"
load r "$repo" "$work/11.out" >/dev/null || fail "11: the load failed"
grep -q 'points at a missing object' "$work/11.out.msg" || fail "11: no WARNING for the missing object"
[ -z "$(psql_q -At -c "SELECT refs_hash FROM fixes_repositories WHERE name = 'r'")" ] ||
    fail "11: a refs_hash was stored though a tag could not be read"
load r "$repo" "$work/11b.out" >/dev/null || fail "11b: the load failed"
if grep -q "$line" "$work/11b.out.msg"; then
    fail "11b: the tags were not read, though the previous load could not read one"
elif ! grep -q 'points at a missing object' "$work/11b.out.msg"; then
    fail "11b: no WARNING for the missing object"
else
    echo "ok: 11: a tag of a missing object: WARNING, no hash stored, the tags read again"
fi
rm "$repo/refs/tags/v9.9"
load r "$repo" "$work/11c.out" >/dev/null || fail "11c: the load failed"
unchanged "11d (the tag of the missing object deleted)" r "$repo"
# the same for a tag the release pattern does not take (a prerelease): the reader names it but
# is not asked to peel it, so no WARNING, the hash is stored, and the next reload skips the tags
echo 0123456789012345678901234567890123456789 >"$repo/refs/tags/v9.9-rc1"
load r "$repo" "$work/11e.out" >/dev/null || fail "11e: the load failed"
if grep -q 'missing object' "$work/11e.out.msg"; then
    fail "11e: a WARNING for a tag that is not a release: the reader peeled it"
elif [ -z "$(psql_q -At -c "SELECT refs_hash FROM fixes_repositories WHERE name = 'r'")" ]; then
    fail "11e: no refs_hash stored after a prerelease tag of a missing object"
else
    echo "ok: 11e: a prerelease tag of a missing object: not peeled, no WARNING, the hash stored"
fi
unchanged "11f (the prerelease tag of the missing object kept)" r "$repo"
rm "$repo/refs/tags/v9.9-rc1"
load r "$repo" "$work/11g.out" >/dev/null || fail "11g: the load failed"

# the reader told --ask-tags (src/reader/tags.c): it names every tag ('N'), asks ('Q'), and
# sends a 'T' record for exactly the tags whose indexes come on its standard input
stream_counts() {
    python3 -c '
import struct, sys
d = sys.stdin.buffer.read(); i = 0; c = {}; e = ""
while i + 5 <= len(d):
    t = chr(d[i]); n = struct.unpack("<I", d[i + 1:i + 5])[0]
    if t == "E": e = " E" + d[i + 6:i + 11].decode()
    c[t] = c.get(t, 0) + 1; i += 5 + n
print(" ".join("%s%d" % (t, c.get(t, 0)) for t in "NQT") + e)'
}
answer() {    # answer N I...: the count, then the indexes, u32 little-endian
    python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<%dI" % len(sys.argv[1:]), *map(int, sys.argv[1:])))' "$@"
}
ntags=$(git -C "$repo" for-each-ref refs/tags | wc -l)
all=$(seq 0 $((ntags - 1)))
want_all="N$ntags Q1 T$ntags"
got=$(answer "$ntags" $all | "$reader" head "$repo" HEAD --ask-tags | stream_counts)
[ "$got" = "$want_all" ] || fail "--ask-tags, all $ntags asked: $got (expected $want_all)"
got=$(answer 2 0 $((ntags - 1)) | "$reader" head "$repo" HEAD --ask-tags | stream_counts)
[ "$got" = "N$ntags Q1 T2" ] || fail "--ask-tags, the first and last asked: $got (expected N$ntags Q1 T2)"
got=$(answer 0 | "$reader" head "$repo" HEAD --ask-tags | stream_counts)
[ "$got" = "N$ntags Q1 T0" ] || fail "--ask-tags, none asked: $got (expected N$ntags Q1 T0)"
got=$(answer 2 1 1 | { "$reader" head "$repo" HEAD --ask-tags || true; } | stream_counts)
[ "$got" = "N$ntags Q1 T0 E08P01" ] || fail "--ask-tags, asked out of order: $got (expected an 08P01 error)"
got=$(answer 1 | { "$reader" head "$repo" HEAD --ask-tags || true; } | stream_counts)
[ "$got" = "N$ntags Q1 T0 E08P01" ] || fail "--ask-tags, a short answer: $got (expected an 08P01 error)"
got=$("$reader" head "$repo" HEAD </dev/null | stream_counts)
[ "$got" = "N0 Q0 T$ntags" ] || fail "without --ask-tags: $got (expected N0 Q0 T$ntags)"
echo "ok: --ask-tags: $ntags names, a 'T' for each tag asked and no other; a bad answer fails"

g pack-refs --all
unchanged "12 (the same refs, packed)" r "$repo"
oracle "12 (packed refs)"

# stable branches
st='^refs/heads/stable-'
load s "$repo" "$work/s0.out" '' "$st" >/dev/null || fail "s0: the load failed"
unchanged "s1 (stable, nothing changed)" s "$repo" '' "$st"
g update-ref refs/heads/stable-1.0 1ae4d46
changed "s2 (stable-1.0 moved back)" s "$repo" '' "$st"
unchanged "s3" s "$repo" '' "$st"
g update-ref refs/heads/stable-1.1 2d9a885
changed "s4 (a new branch stable-1.1)" s "$repo" '' "$st"
unchanged "s5" s "$repo" '' "$st"
# a row of fixes_backport_overrides: stable-1.0's "mm: add allocator" is mainline's
psql_q -c "INSERT INTO fixes_backport_overrides (repository, stable_commit, upstream_commit)
           VALUES ('s', '$(g rev-parse 1b34d93)', '$(g rev-parse cd5217c)')"
changed "s6 (a row of fixes_backport_overrides)" s "$repo" '' "$st"
unchanged "s7" s "$repo" '' "$st"
oracle "s5"

# MAINTAINERS attributed again with the refs unchanged: the tags read by a reader of their own
frepo=$work/files.git
cp -a "$fixtures/files.git" "$frepo"
chmod -R a+rX "$frepo"
load m "$frepo" "$work/m0.out" '' '' MAINTAINERS >/dev/null || fail "m0: the load failed"
unchanged "m1 (files and MAINTAINERS, nothing changed)" m "$frepo" '' '' MAINTAINERS
psql_q -c "UPDATE fixes_repositories SET maintainers_hash = maintainers_hash + 1 WHERE name = 'm'"
# (the refs are the same: the reader skips the tags, the load reads them again)
REFS_SAME=1 SAME_OK=1 changed "m2 (maintainers_hash altered: attributed again)" m "$frepo" '' '' MAINTAINERS
grep -q "$again" "$work/m2 (maintainers_hash altered: attributed again).out.msg" ||
    fail "m2: the refs were unchanged, but the tags were not read again by a reader of their own"
unchanged "m3" m "$frepo" '' '' MAINTAINERS

# a database at 1.1: no column, no line, and a reload with nothing changed writes nothing
db11=fixes_t_reload_refs11
drop_db "$db11"
createdb "$db11"
(
    db=$db11
    psql_q -c "CREATE EXTENSION fixes VERSION '1.1'"
    load r "$repo" "$work/v11a.out" >/dev/null
    w1=$(written r)
    load r "$repo" "$work/v11b.out" >/dev/null
    w2=$(written r)
    if grep -q "$line" "$work/v11b.out.msg"; then
        echo "FAIL: 1.1: a database without refs_hash logged \"$line\""; exit 1
    elif [ "$w1" != "$w2" ]; then
        echo "FAIL: 1.1: a reload with nothing changed rewrote rows"; exit 1
    fi
    echo "ok: 1.1: a reload with nothing changed is a no-op, the tags read"
) || rc=1
[ $rc = 0 ] && drop_db "$db11"

finish $rc "$work"
