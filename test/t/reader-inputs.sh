#!/usr/bin/env bash
# test/t/reader-inputs.sh — odd but legal repositories, and bad paths (issue 11)
#   - two tags whose names differ only in bytes that are invalid UTF-8 (v3.\xff, v3.\xfe) become
#     the same name in a UTF-8 database: one is skipped with a WARNING, the load succeeds;
#   - an annotated tag whose object does not parse (a garbage body, a tagger date of 20 digits)
#     is skipped with a WARNING, or read, but never fails the load;
#   - replace refs and info/grafts, which git log applies and fixes does not, give a WARNING;
#   - a path of 10 kB and a symlink loop are errors with their own SQLSTATE, not XX000;
#   - a refresh of a repository with 50,000 tags after one new commit equals a fresh load;
#   - a refresh whose new head is dated long before the previous head (clock skew) reads none of
#     the old history (the old commits' objects deleted: a walk into them would fail).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

work=$(mktemp -d /tmp/fixes-inputs.XXXXXX)
chmod a+rx "$work"
trap 'rm -rf "$work"' EXIT
db=t_inputs
fresh_db "$db"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
G() { git -c user.name=t -c user.email=t@example.org "$@"; }
# run SQL, print everything the server said (VERBOSITY verbose shows the SQLSTATE)
say() { psql -X -At -v VERBOSITY=verbose -d "$db" -c "$1" 2>&1 || true; }
expect() { # WHAT OUTPUT REGEX
    if grep -q -E "$3" <<<"$2"; then echo "ok: $1"; else fail "$1: expected /$3/ in: $2"; fi
}

G init -q --bare "$work/r.git"
G -C "$work/r.git" fast-import --quiet <<'FI'
commit refs/heads/master
mark :1
committer t <t@example.org> 1500000000 +0000
data 5
root
commit refs/heads/master
mark :2
committer t <t@example.org> 1500000100 +0000
data 7
second
from :1
FI
G -C "$work/r.git" symbolic-ref HEAD refs/heads/master
c1=$(git -C "$work/r.git" rev-parse master~1)
c2=$(git -C "$work/r.git" rev-parse master)

# --- tags whose names collide once converted -----------------------------------------------
cp -r "$work/r.git" "$work/collide.git"
G -C "$work/collide.git" update-ref "refs/tags/v3.$(printf '\xff')" "$c1"
G -C "$work/collide.git" update-ref "refs/tags/v3.$(printf '\xfe')" "$c2"
chmod -R a+rX "$work"
out=$(say "SELECT releases FROM fixes_load('$work/collide.git')")
expect "colliding tag names: one skipped" "$out" "WARNING:  23505: tag .* is skipped: another tag has the same name"
expect "colliding tag names: the load succeeds with one release" "$out" "^1$"
expect "colliding tag names: the NOTICE counts tags, not commits" "$out" "in 0 commits and 2 tags"

# --- annotated tags that do not parse ------------------------------------------------------
cp -r "$work/r.git" "$work/badtag.git"
garbage=$(printf 'this is not a tag\n\x00\x01\x02' | git -C "$work/badtag.git" hash-object -t tag -w --literally --stdin)
bigdate=$(printf 'object %s\ntype commit\ntag v2.0\ntagger T <t@example.org> 99999999999999999999 +0000\n\nrelease\n' "$c2" |
          git -C "$work/badtag.git" hash-object -t tag -w --literally --stdin)
mkdir -p "$work/badtag.git/refs/tags"    # git update-ref refuses such objects: write the refs
echo "$garbage" >"$work/badtag.git/refs/tags/v1.0"
echo "$bigdate" >"$work/badtag.git/refs/tags/v2.0"
G -C "$work/badtag.git" tag v0.9 "$c1"
chmod -R a+rX "$work"
out=$(say "SELECT commits, releases FROM fixes_load('$work/badtag.git')")
expect "a garbage tag is skipped with a WARNING" "$out" "WARNING:  01000: tag \"refs/tags/v1.0\" .* cannot be read, skipped"
expect "the load with damaged tags succeeds" "$out" "^2\|[12]$"
out=$(say "SELECT tag FROM fixes_git_tags('$work/badtag.git') ORDER BY 1")
expect "fixes_git_tags lists the good tag" "$out" "^v0.9$"

# --- replace refs and grafts ----------------------------------------------------------------
cp -r "$work/r.git" "$work/replace.git"
G -C "$work/replace.git" replace "$c2" "$c1"
cp -r "$work/r.git" "$work/grafts.git"
echo "$c2" >"$work/grafts.git/info/grafts"
chmod -R a+rX "$work"
out=$(say "SELECT commits FROM fixes_load('$work/replace.git')")
expect "replace refs: a WARNING" "$out" "WARNING:  01000: repository .* has replace refs, which fixes does not apply"
expect "replace refs: the stored history is read" "$out" "^2$"
out=$(say "SELECT commits FROM fixes_load('$work/grafts.git')")
expect "grafts: a WARNING" "$out" "WARNING:  01000: repository .* has grafts, which fixes does not apply"

# --- paths ----------------------------------------------------------------------------------
long="/tmp/$(head -c 10240 /dev/zero | tr '\0' x)"
out=$(say "SELECT * FROM fixes_load('$long')")
expect "a path of 10 kB: name_too_long" "$out" "ERROR:  42622: could not access repository"
ln -s "$work/loop-b" "$work/loop-a"; ln -s "$work/loop-a" "$work/loop-b"
out=$(say "SELECT * FROM fixes_load('$work/loop-a')")
expect "a symlink loop: invalid_parameter_value" "$out" "ERROR:  22023: could not access repository .*symbolic links"
out=$(say "SELECT * FROM fixes_load('$work/none.git')")
expect "a missing path: undefined_file" "$out" "ERROR:  58P01: could not access repository"

# --- 50,000 tags: a refresh after one commit equals a fresh load -----------------------------
G init -q --bare "$work/tags.git"
G -C "$work/tags.git" fast-import --quiet <<'FI'
commit refs/heads/master
mark :1
committer t <t@example.org> 1500000000 +0000
data 5
root
FI
G -C "$work/tags.git" symbolic-ref HEAD refs/heads/master
root=$(git -C "$work/tags.git" rev-parse master)
{ echo '# pack-refs with: peeled fully-peeled sorted '
  for i in $(seq 1 50000); do echo "$root refs/tags/v$((i / 1000)).$((i % 1000))"; done | sort -k2; } \
    >"$work/tags.git/packed-refs"
chmod -R a+rX "$work"
t0=$(date +%s.%N)
out=$(say "SELECT releases FROM fixes_load('$work/tags.git', name => 'tags')")
echo "50,000 tags, cold load: $(elapsed "$t0") s, releases: $out"
G -C "$work/tags.git" fast-import --quiet <<FI
commit refs/heads/master
committer t <t@example.org> 1500000100 +0000
data 4
new
from $root
FI
t0=$(date +%s.%N)
say "SELECT releases FROM fixes_load('$work/tags.git', name => 'tags')" >/dev/null
echo "50,000 tags, refresh after one commit: $(elapsed "$t0") s"
refreshed=$(say "SELECT md5(string_agg(format('%s %s %s', c.commit_id, c.release, c.subject), ',' ORDER BY c.commit_id))
                   FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'tags'")
say "SELECT fixes_unload('tags')" >/dev/null
say "SELECT releases FROM fixes_load('$work/tags.git', name => 'tags')" >/dev/null
fresh=$(say "SELECT md5(string_agg(format('%s %s %s', c.commit_id, c.release, c.subject), ',' ORDER BY c.commit_id))
               FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'tags'")
[ "$refreshed" = "$fresh" ] && echo "ok: the refresh equals a fresh load" || fail "refresh $refreshed != fresh $fresh"

# --- clock skew at the head: a refresh reads none of the old history ----------------------------
# 30 commits dated 2040, loaded; then the objects of the oldest 20 deleted, and a new head dated
# 2017 on top. The refresh's walk takes the head first (as git does) and stops at the previous
# head; a walk by date alone read every old commit newer than the new head (the whole history
# here) and now fails on the missing ones.
G init -q --bare "$work/skew.git"
empty=$(git -C "$work/skew.git" hash-object -t tree -w /dev/null)
parent=
declare -a skew_ids
for i in $(seq 1 30); do
    t=$((2208988800 + i * 100))
    c=$(GIT_COMMITTER_DATE="$t +0000" GIT_AUTHOR_DATE="$t +0000" \
        G -C "$work/skew.git" commit-tree "$empty" ${parent:+-p "$parent"} -m "old $i")
    skew_ids[$i]=$c
    parent=$c
done
G -C "$work/skew.git" update-ref refs/heads/master "$parent"
G -C "$work/skew.git" symbolic-ref HEAD refs/heads/master
chmod -R a+rX "$work"
say "SELECT commits FROM fixes_load('$work/skew.git', name => 'skew')" >/dev/null
for i in $(seq 1 20); do
    c=${skew_ids[$i]}
    rm -f "$work/skew.git/objects/${c:0:2}/${c:2}"
done
c=$(GIT_COMMITTER_DATE="1500000000 +0000" GIT_AUTHOR_DATE="1500000000 +0000" \
    G -C "$work/skew.git" commit-tree "$empty" -p "$parent" -m "new, dated 2017")
G -C "$work/skew.git" update-ref refs/heads/master "$c"
chmod -R a+rX "$work"
out=$(say "SELECT commits FROM fixes_load('$work/skew.git', name => 'skew')")
expect "a refresh whose head is dated 23 years before the previous one reads no old commit" "$out" '^31$'
out=$(say "SELECT c.subject FROM fixes_commits c JOIN fixes_repositories r USING (repository_id)
            WHERE r.name = 'skew' AND c.commit_id = '$c'")
expect "the skewed head is loaded" "$out" '^new, dated 2017$'

PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$db"
if [ "$failures" -ne 0 ]; then echo "FAIL ($failures)"; exit 1; fi
echo PASS
