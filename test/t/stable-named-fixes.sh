#!/bin/bash
# stable-named-fixes.sh — issue 42: mainline `Fixes:` lines that name a commit of a stable
# branch (OVN's and NetworkManager's name a backport's id) stay not_found, since nothing of the
# mainline depends on the stable scope; with stable_branches, fixes_unresolved says which stable
# commit such a line names (stable_commit) and, from its backport (fixes_backports), the
# mainline commit it backports (upstream_commit, upstream_method: id for a backport line,
# subject for a subject-only backport), and docs/stable-branches.md's one INSERT into fixes_overrides then
# resolves the lines (method override) at the next load.
#
# Repository made here with plain git: mainline m01..m09 (v1.0 at m03), branch stable-1.0 from
# v1.0 with s1 (a cherry-pick of m04 with "(cherry picked from commit <m04>)") and s2 (m05's
# change and subject, no line), tagged v1.0.1; then on the mainline m07 "Fixes: <s1>" and m08
# "Fixes: <s2>" (abbrevs of the stable commits, no quoted subject: no other way to resolve
# them), m09 "Fixes: <an unknown id>".  Own scratch database fixes_t_stablefix.
# Exit 0 pass, 1 fail.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_stablefix
export PGTZ=UTC
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/src
rc=0

git init -q -b main "$src"
g() { git -C "$src" -c user.name=Tester -c user.email=t@example.org "$@"; }
t=1600000000
commit() {          # commit FILE SUBJECT [BODY]
    t=$((t + 86400))
    echo "$t" >> "$src/$1"
    g add "$1"
    GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" g commit -q -m "$2" ${3:+-m "$3"}
}
commit a "core: add a"
commit b "net: add b"
commit c "dns: add c";                      g tag v1.0
commit b "net: fix b"
m04=$(g rev-parse HEAD)
commit c "dns: fix c"
m05=$(g rev-parse HEAD)
commit a "core: more a"
g checkout -q -b stable-1.0 v1.0
commit b "net: fix b" "(cherry picked from commit $m04)"
s1=$(g rev-parse HEAD)
commit c "dns: fix c"
s2=$(g rev-parse HEAD)
g tag v1.0.1
g checkout -q main
commit b "net: fix the fix of b" "Fixes: ${s1:0:12}"
m07=$(g rev-parse HEAD)
commit c "dns: fix the fix of c" "Fixes: ${s2:0:12}"
m08=$(g rev-parse HEAD)
commit a "core: fix something" "Fixes: 0123456789ab"
m09=$(g rev-parse HEAD)
commit a "release 2.0";                     g tag v2.0
git clone -q --mirror "$src" "$work/repo.git"
chmod -R a+rX "$work"

fresh_db "$db"
load() {            # load NAME [STABLE_RE]
    if [ -n "${2:-}" ]; then
        psql_q -At -v path="$work/repo.git" -v name="$1" -v re="$2" \
            <<<"SELECT resolved FROM fixes_load(:'path', name => :'name', stable_branches => :'re')" >/dev/null
    else
        psql_q -At -v path="$work/repo.git" -v name="$1" <<<"SELECT resolved FROM fixes_load(:'path', name => :'name')" >/dev/null
    fi
}
unresolved() {      # unresolved NAME: the lines of fixes_unresolved, ids as labels
    psql_q -At -F ' ' -v name="$1" <<'SQL' | sed "s/$m04/m04/g; s/$m05/m05/g; s/$m07/m07/g; s/$m08/m08/g; s/$m09/m09/g; s/$s1/s1/g; s/$s2/s2/g"
SELECT fixing_commit, status, coalesce(stable_commit, '-'), coalesce(upstream_commit, '-'), coalesce(upstream_method, '-')
  FROM fixes_unresolved WHERE repository = :'name' ORDER BY fixing_commit, line;
SQL
}
expect() {          # expect WHAT GOT WANT
    if [ "$2" != "$3" ]; then
        printf 'DIFF: %s:\n%s\n  want:\n%s\n' "$1" "$2" "$3"
        rc=1
    else
        printf '%s:\n%s\n' "$1" "$2"
    fi
}

# without stable branches: three lines not found, nothing to say about them
load plain
expect "fixes_unresolved without stable branches" "$(unresolved plain)" \
"m07 not_found - - -
m08 not_found - - -
m09 not_found - - -"

# with stable branches: the stable commits named, and their upstreams by line and by subject;
# the mainline rows are those of the load without (nothing of the mainline depends on them)
load st '^refs/heads/stable-'
expect "fixes_unresolved with stable branches" "$(unresolved st)" \
"m07 not_found s1 m04 id
m08 not_found s2 m05 subject
m09 not_found - - -"
same=$(psql_q -At <<'SQL'
SELECT count(*) FROM (
    (SELECT to_jsonb(x) FROM (SELECT e.fixing_commit, e.line, e.status, e.method, e.target_commit FROM fixes_edges e
       JOIN fixes_repositories p USING (repository_id) JOIN fixes_commits c
         ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx
      WHERE p.name = 'st' AND c.mainline) x
     EXCEPT ALL
     SELECT to_jsonb(x) FROM (SELECT e.fixing_commit, e.line, e.status, e.method, e.target_commit FROM fixes_edges e
       JOIN fixes_repositories p USING (repository_id) WHERE p.name = 'plain') x)
    UNION ALL
    (SELECT to_jsonb(f) - 'repository' FROM fixes_per_release f WHERE repository = 'st'
     EXCEPT ALL SELECT to_jsonb(f) - 'repository' FROM fixes_per_release f WHERE repository = 'plain')) d;
SQL
)
expect "mainline rows of the load with stable branches that differ from the load without" "$same" 0

# docs/stable-branches.md's recipe: the upstreams into fixes_overrides, then a reload resolves the lines
psql_q <<'SQL'
INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit, note)
SELECT repository, fixing_commit, abbrev, upstream_commit, 'names stable commit ' || stable_commit
  FROM fixes_unresolved
 WHERE repository = 'st' AND upstream_commit IS NOT NULL;
SQL
load st
expect "fixes_unresolved after the overrides" "$(unresolved st)" "m09 not_found - - -"
got=$(psql_q -At -F ' ' <<SQL | sed "s/$m04/m04/g; s/$m05/m05/g; s/$m07/m07/g; s/$m08/m08/g"
SELECT e.fixing_commit, e.status, e.method, e.target_commit, e.target_release
  FROM fixes_edges e JOIN fixes_repositories p USING (repository_id)
 WHERE p.name = 'st' AND e.fixing_commit IN ('$m07', '$m08') ORDER BY 1;
SQL
)
expect "the two lines, resolved by the overrides" "$got" \
"m07 resolved override m04 v2.0
m08 resolved override m05 v2.0"

finish $rc
