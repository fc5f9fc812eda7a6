#!/bin/bash
# release-branches.sh — issue 42: releases tagged where the project tags them, off the ref
# (fixes_load(release_tags => 'all')), against git's command line.
#
# Repositories built here with plain git (test/lib/release-branches.sh): ovs.git in the Open
# vSwitch convention (branch-X.Y cut from main, x.y.0 and point tags on the branches, backports
# by subject only, one before the x.y.0 tag, a branch that merges main again: a release with
# two entry points), and pkg.git with packaging tags off the ref (debian/15-1 sorts before v15).
#   1. 'ref' on ovs.git: the NOTICE that names release_tags => 'all' and the number of
#      commits the tags off the ref would release (from git rev-list)
#   2. 'all' on ovs.git: test/oracles/crosscheck.py --release-tags all (per-release counts, the commit
#      -> release map, the buggiest commits: an oracle from git rev-list and for-each-ref);
#      the 'ref' load fails that oracle (it can fail); with stable_branches, the stable scope
#      row for row (series from the mainline releases on the branches, a backport before
#      v2.0.0 ships in v2.0.0: no series row for its bug) and the CVE records
#      (test/oracles/cve-oracle.py); the NOTICEs of a 'ref' load with stable branches (a series of
#      several branches; OVN-like, no tag on main: stable releases without a series)
#   3. the setting is remembered (a reload without it keeps 'all'), a change is a NOTICE and
#      gives the rows of a cold load, a bad value an ERROR that leaves the rows
#   4. pkg.git: 'all' without a pattern gives the packaging tags the releases (as git says),
#      which is why the default stays 'ref'; 'all' with release_pattern equals 'ref'
#   5. the fixtures and a make-history repository whose release tags are all on the ref (or
#      reach nothing first): fixes_per_release is the same with 'all' (make-history --stable 3:
#      fixes_affected too); make-history copies with 8 release branches added by plain git,
#      with and without its own tags, cross-checked with stable branches
#   6. refresh: a new tag on a release branch, a new release branch and a moved tag each give
#      the rows of a cold load; with every release tag on the ref a refresh with 'all' stays a
#      refresh (DEBUG1), one that meets a tag off the ref loads in full, and the load after one
#      that stored a release off the ref is a refresh again (the tag moved onto the ref and a
#      fix of its former entry point; the release branch merged back and a fix of the tag's
#      commit), each equal to a cold load and each fix resolved to the commit it names
#   7. a release tag whose parent is missing: a 'ref' load (whose NOTICE reads the tags off the
#      ref leniently) succeeds, an 'all' load is an ERROR naming the commit
# Own scratch database fixes_t_release_branches, dropped again on success.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
. "$top/test/lib/release-branches.sh"

db=fixes_t_release_branches
work=$(mktemp -d /tmp/fixes-t-release-branches.XXXXXX)
chmod a+rx "$work"
trap 'rm -rf "$work"' EXIT
fresh_db "$db"
rc=0

fail() { echo "FAIL: $*"; rc=1; }
ok() { echo "    ok: $*"; }

# load PATH NAME [ARGS...]: fixes_load(PATH, 'main', name => NAME, ARGS); NOTICEs to $work/NAME.log
load() {
    local path=$1 name=$2 args=${3:-}
    psql_q -At -c "SELECT format('loaded %s: %s commits, %s releases', repository, commits, releases)
                     FROM fixes_load('$path', 'main', name => '$name'$args)" 2>"$work/$name.log"
}

# same_rows A B: the rows of repository A equal those of B (views and tables a release changes)
same_rows() {
    local out
    out=$(psql_q -At -v a="$1" -v b="$2" <<'SQL'
CREATE TEMP VIEW v AS
SELECT 'per_release' AS what, repository AS repo,
       (to_jsonb(p) - 'repository')::text AS row FROM fixes_per_release p
UNION ALL
SELECT 'releases', p.name, jsonb_build_object('tag', r.tag, 'rank', r.release_rank, 'commit', r.commit_id,
       'commits', r.commits, 'mainline', r.mainline, 'series', r.series, 'backports', r.backports,
       'fixed', r.bugs_fixed, 'known', r.known_bugs)::text
  FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
UNION ALL
SELECT 'commits', p.name, c.commit_id || ' ' || coalesce(c.release, '-')
  FROM fixes_commits c JOIN fixes_repositories p USING (repository_id)
UNION ALL
SELECT 'affected', repository, (to_jsonb(a) - 'repository')::text FROM fixes_affected a
UNION ALL
SELECT 'buggiest', repository, (to_jsonb(b) - 'repository')::text FROM fixes_buggiest_commits b
UNION ALL
SELECT 'repository', name, jsonb_build_object('head', head_commit, 'commits', commits,
       'releases', releases, 'edges', edges, 'resolved', resolved, 'tags', release_tags)::text
  FROM fixes_repositories;
(SELECT what, row FROM v WHERE repo = :'a' EXCEPT ALL SELECT what, row FROM v WHERE repo = :'b')
UNION ALL
(SELECT what, row FROM v WHERE repo = :'b' EXCEPT ALL SELECT what, row FROM v WHERE repo = :'a');
SQL
)
    if [ -n "$out" ]; then
        echo "$out" | head -20
        return 1
    fi
}

crosscheck() {
    PGDATABASE=$db python3 "$top/test/oracles/crosscheck.py" --repo "$1" --name "$2" "${@:3}"
}

ovs_repo "$work/ovs.git"
packaging_repo "$work/pkg.git"
ovs=$work/ovs.git
pkg=$work/pkg.git

echo "== 1. 'ref' on a repository whose releases are on release branches"
load "$ovs" ovs_ref
# the oracle: commits of the scope that the release tags off HEAD reach and those on it do not
scope=$(git -C "$ovs" rev-list main | sort)
on_ref=$(git -C "$ovs" tag --merged main | grep -Eiv '(rc|pre|alpha|beta)[0-9]*$' || true)
off_ref=$(git -C "$ovs" tag --no-merged main | grep -Eiv '(rc|pre|alpha|beta)[0-9]*$')
released_ref=$(git -C "$ovs" rev-list $on_ref | sort)
would=$(comm -12 <(git -C "$ovs" rev-list $off_ref | sort) <(comm -23 <(echo "$scope") <(echo "$released_ref")) | wc -l)
unreleased=$(comm -23 <(echo "$scope") <(echo "$released_ref") | wc -l)
if grep -q "NOTICE:  $unreleased of the $(echo "$scope" | wc -l) commits of repository \"$ovs\" are unreleased, but release tags that \"main\" does not reach would release $would of them" "$work/ovs_ref.log" &&
   grep -q "release_tags => 'all'" "$work/ovs_ref.log"; then
    ok "the 'ref' load says $unreleased commits are unreleased and tags off the ref would release $would"
else
    fail "no NOTICE naming release_tags => 'all' and $would commits:"; cat "$work/ovs_ref.log"
fi
crosscheck "$ovs" ovs_ref >/dev/null || fail "the 'ref' load disagrees with the 'ref' oracle"

echo "== 2. 'all': the oracle from git rev-list"
load "$ovs" ovs_all ", release_tags => 'all'"
grep -q "would release" "$work/ovs_all.log" && fail "the 'all' load says what 'ref' would miss"
crosscheck "$ovs" ovs_all --release-tags all | tail -n 2 || fail "ovs_all: crosscheck"
if crosscheck "$ovs" ovs_ref --release-tags all >/dev/null; then
    fail "the 'ref' load passes the 'all' oracle: the check cannot fail"
else
    ok "the 'ref' load fails the 'all' oracle (the check can fail)"
fi
# what git says of the releases, by name
got=$(psql_q -At -c "SELECT string_agg(release || ':' || commits, ' ' ORDER BY release_rank)
                       FROM fixes_per_release WHERE repository = 'ovs_all'")
[ "$got" = "v1.0.0:3 v2.0.0:2 v2.1.0:4 v2.1.1:1" ] && ok "releases $got" ||
    fail "releases: $got, expected v1.0.0:3 v2.0.0:2 v2.1.0:4 v2.1.1:1"
load "$ovs" ovs_st ", release_tags => 'all', stable_branches => '^refs/heads/branch-'"
crosscheck "$ovs" ovs_st --release-tags all --stable-branches '^refs/heads/branch-' | tail -n 1 ||
    fail "ovs_st: crosscheck of the stable scope"
PGDATABASE=$db python3 "$top/test/oracles/cve-oracle.py" --repo "$ovs" --name ovs_st --release-tags all \
    --stable-branches '^refs/heads/branch-' | tail -n 1 || fail "ovs_st: the CVE records"
got=$(psql_q -At -c "SELECT string_agg(tag || ':' || coalesce(series, '-'), ' ' ORDER BY release_rank)
                       FROM fixes_releases r JOIN fixes_repositories p USING (repository_id)
                      WHERE p.name = 'ovs_st' AND NOT mainline")
[ "$got" = "v2.0.1:v2.0.0 v2.0.2:v2.0.0" ] && ok "stable releases and series: $got" ||
    fail "stable releases and series: $got"
# "Fix thing X" was backported before v2.0.0: shipped there, so its bug has no 2.0 row
got=$(psql_q -At -c "SELECT count(*) FROM fixes_affected a JOIN fixes_commits c
                       ON c.commit_id = a.fixing_commit JOIN fixes_repositories p
                       ON p.repository_id = c.repository_id AND p.name = a.repository
                      WHERE a.repository = 'ovs_st' AND a.series IS NOT NULL
                        AND c.subject = 'Fix thing X in connection tracking'")
[ "$got" = 0 ] && ok "a backport merged before v2.0.0 ships in v2.0.0: no series row" ||
    fail "$got series rows for a bug fixed before v2.0.0"

# said when it matters: with 'ref', every stable release in the series v1.0.0, from two branches
load "$ovs" ovs_st_ref ", stable_branches => '^refs/heads/branch-'"
grep -q 'NOTICE:  1 series of repository "ovs_st_ref" holds the releases of several branches' "$work/ovs_st_ref.log" &&
    ok "'ref' with stable branches: a series of several branches is said" ||
    fail "no NOTICE of a series of several branches: $(cat "$work/ovs_st_ref.log")"
grep -q "series" "$work/ovs_st.log" && fail "the 'all' load says something of its series: $(cat "$work/ovs_st.log")"
# OVN: no release tag on main at all; with 'ref' no stable release has a series
git clone -q --bare "$ovs" "$work/ovn.git"
git -C "$work/ovn.git" tag -d v1.0.0 >/dev/null
chmod -R a+rX "$work/ovn.git"
load "$work/ovn.git" ovn_ref ", stable_branches => '^refs/heads/branch-'"
grep -q 'NOTICE:  5 stable releases of repository "ovn_ref" have no series' "$work/ovn_ref.log" &&
    ok "'ref' with no release tag on main: the stable releases without a series are said" ||
    fail "no NOTICE of stable releases without a series: $(cat "$work/ovn_ref.log")"
load "$work/ovn.git" ovn_all ", release_tags => 'all', stable_branches => '^refs/heads/branch-'"
grep -q "series" "$work/ovn_all.log" && fail "ovn_all: $(cat "$work/ovn_all.log")"
crosscheck "$work/ovn.git" ovn_all --release-tags all --stable-branches '^refs/heads/branch-' >/dev/null ||
    fail "ovn_all: crosscheck"
PGDATABASE=$db python3 "$top/test/oracles/cve-oracle.py" --repo "$work/ovn.git" --name ovn_all --release-tags all \
    --stable-branches '^refs/heads/branch-' >/dev/null || fail "ovn_all: the CVE records"
got=$(psql_q -At -c "SELECT count(*) FROM fixes_affected WHERE repository = 'ovn_all' AND series IS NOT NULL")
[ "$got" -gt 0 ] && ok "ovn_all: $got series rows of fixes_affected" || fail "ovn_all: no series row"

echo "== 3. the setting is remembered"
load "$ovs" ovs_all
grep -q "release tags" "$work/ovs_all.log" && fail "a reload without release_tags says it changed"
got=$(psql_q -At -c "SELECT release_tags FROM fixes_repositories WHERE name = 'ovs_all'")
[ "$got" = all ] && ok "a reload without the argument keeps 'all'" || fail "release_tags is $got"
crosscheck "$ovs" ovs_all --release-tags all >/dev/null || fail "ovs_all reloaded: crosscheck"
if psql_q -c "SELECT * FROM fixes_load('$ovs', 'main', name => 'ovs_all', release_tags => 'some')" 2>"$work/bad.log"; then
    fail "release_tags => 'some' was accepted"
elif grep -q "release_tags must be 'ref' or 'all'" "$work/bad.log"; then
    ok "release_tags => 'some' is an ERROR"
else
    fail "release_tags => 'some': $(cat "$work/bad.log")"
fi
crosscheck "$ovs" ovs_all --release-tags all >/dev/null || fail "ovs_all after the ERROR: crosscheck"
load "$ovs" ovs_all ", release_tags => 'ref'"
grep -q "the release tags of repository \"ovs_all\" change" "$work/ovs_all.log" &&
    ok "a change is a NOTICE" || fail "no NOTICE for a change: $(cat "$work/ovs_all.log")"
same_rows ovs_all ovs_ref && ok "back to 'ref': the rows of a cold 'ref' load" || fail "back to 'ref'"
load "$ovs" ovs_all ", release_tags => 'all'"
crosscheck "$ovs" ovs_all --release-tags all >/dev/null || fail "ovs_all back to 'all': crosscheck"
psql_q -c "ALTER TABLE fixes_repositories DROP CONSTRAINT fixes_repositories_release_tags_check;
           UPDATE fixes_repositories SET release_tags = 'bogus' WHERE name = 'ovs_all'"
load "$ovs" ovs_all
grep -q "stored release_tags of repository \"ovs_all\" is not valid" "$work/ovs_all.log" &&
    ok "a bad stored value: a NOTICE and a full 'ref' load" || fail "bad stored value: $(cat "$work/ovs_all.log")"
same_rows ovs_all ovs_ref || fail "after a bad stored value: not the rows of a 'ref' load"
psql_q -c "ALTER TABLE fixes_repositories ADD CONSTRAINT fixes_repositories_release_tags_check
             CHECK (release_tags IN ('ref', 'all'))"

echo "== 4. packaging tags off the ref: why the default stays 'ref'"
load "$pkg" pkg_ref
load "$pkg" pkg_all ", release_tags => 'all'"
load "$pkg" pkg_pat ", release_tags => 'all', release_pattern => '^v[0-9]+\$'"
crosscheck "$pkg" pkg_all --release-tags all >/dev/null || fail "pkg_all: crosscheck"
# debian/15-1 sorts before v15 and reaches its commits first: v14 and v15 (on the ref) keep
# their rows, with no commit
got=$(psql_q -At -c "SELECT string_agg(release || ':' || commits, ' ' ORDER BY release_rank) FROM fixes_per_release WHERE repository = 'pkg_all'")
[ "$got" = "debian/14-1:3 debian/15-1:2 v14:0 v15:0" ] && ok "'all' without a pattern: the releases are $got" ||
    fail "pkg_all releases: $got"
got=$(psql_q -At -c "SELECT string_agg(release, ' ' ORDER BY release_rank) FROM fixes_per_release WHERE repository = 'pkg_ref'")
[ "$got" = "v14 v15" ] && ok "'ref': $got" || fail "pkg_ref releases: $got"
got=$(psql_q -At -c "SELECT count(*) FROM ((SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = 'pkg_ref')
                       EXCEPT (SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = 'pkg_pat')) x")
[ "$got" = 0 ] && ok "'all' with release_pattern '^v[0-9]+\$' equals 'ref'" || fail "pkg_pat differs from pkg_ref"

echo "== 5. every release tag on the ref: the same rows with 'all'"
same_per_release() {
    local path=$1 name=$2
    load "$path" "${name}_r" >/dev/null
    load "$path" "${name}_a" ", release_tags => 'all'" >/dev/null
    crosscheck "$path" "${name}_a" --release-tags all >/dev/null || fail "$name 'all': crosscheck"
    got=$(psql_q -At -c "SELECT count(*) FROM (
            ((SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = '${name}_r')
             EXCEPT ALL (SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = '${name}_a'))
            UNION ALL
            ((SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = '${name}_a')
             EXCEPT ALL (SELECT (to_jsonb(p) - 'repository')::text FROM fixes_per_release p WHERE repository = '${name}_r'))) x")
    [ "$got" = 0 ] && ok "$name: fixes_per_release the same" || fail "$name: fixes_per_release differs ($got rows)"
}
for f in releases article stablecc backports; do
    if [ -d "$fixtures/$f.git" ]; then
        # with the branch main where HEAD names it
        ref=$(git -C "$fixtures/$f.git" symbolic-ref --short HEAD)
        [ "$ref" = main ] && same_per_release "$fixtures/$f.git" "$f" || echo "note: $f.git's HEAD is $ref, skipped"
    fi
done
if [ -f "$mh" ]; then
    repo=$(make_history_repo 5000)
    mhcopy=$work/mh.git
    git clone -q --bare "$repo" "$mhcopy"
    git -C "$mhcopy" symbolic-ref HEAD refs/heads/main 2>/dev/null || true
    git -C "$mhcopy" branch -f main "$(git -C "$repo" rev-parse HEAD)"
    chmod -R a+rX "$mhcopy"
    same_per_release "$mhcopy" mh
    # make-history with 8 release branches: its own tags kept (on the ref, and the vM.N.1 side
    # branch), the new ones off it, with stable branches
    release_branches_copy "$repo" "$work/mhb.git" 8 keep
    git -C "$work/mhb.git" branch -f main "$(git -C "$repo" rev-parse HEAD)"
    git -C "$work/mhb.git" symbolic-ref HEAD refs/heads/main
    load "$work/mhb.git" mhb ", release_tags => 'all', stable_branches => '^refs/heads/branch-'"
    crosscheck "$work/mhb.git" mhb --release-tags all --stable-branches '^refs/heads/branch-' | tail -n 1 ||
        fail "make-history with release branches: crosscheck"
    # and without its own tags: every release off the ref
    release_branches_copy "$repo" "$work/mhc.git" 8
    git -C "$work/mhc.git" branch -f main "$(git -C "$repo" rev-parse HEAD)"
    git -C "$work/mhc.git" symbolic-ref HEAD refs/heads/main
    load "$work/mhc.git" mhc ", release_tags => 'all', stable_branches => '^refs/heads/branch-'"
    crosscheck "$work/mhc.git" mhc --release-tags all --stable-branches '^refs/heads/branch-' | tail -n 1 ||
        fail "make-history with release branches, no tag on the ref: crosscheck"
    # make-history --stable 3 (vM.N.y branches forked at their tags): 'all' changes nothing
    srepo=$(make_history_repo 5000 3)
    psql_q -c "SELECT repository FROM fixes_load('$srepo', name => 'mhs_r', stable_branches => '^refs/heads/v[0-9]+\.[0-9]+\.y\$')" >/dev/null 2>&1
    psql_q -c "SELECT repository FROM fixes_load('$srepo', name => 'mhs_a', release_tags => 'all', stable_branches => '^refs/heads/v[0-9]+\.[0-9]+\.y\$')" >/dev/null 2>&1
    crosscheck "$srepo" mhs_a --release-tags all --stable-branches '^refs/heads/v[0-9]+\.[0-9]+\.y$' >/dev/null ||
        fail "make-history --stable 3 with 'all': crosscheck"
    PGDATABASE=$db python3 "$top/test/oracles/cve-oracle.py" --repo "$srepo" --name mhs_a --release-tags all \
        --stable-branches '^refs/heads/v[0-9]+\.[0-9]+\.y$' >/dev/null || fail "mhs_a: the CVE records"
    got=$(psql_q -At -c "SELECT count(*) FROM (
            ((SELECT (to_jsonb(a) - 'repository')::text FROM fixes_affected a WHERE repository = 'mhs_r')
             EXCEPT ALL (SELECT (to_jsonb(a) - 'repository')::text FROM fixes_affected a WHERE repository = 'mhs_a'))
            UNION ALL
            ((SELECT (to_jsonb(a) - 'repository')::text FROM fixes_affected a WHERE repository = 'mhs_a')
             EXCEPT ALL (SELECT (to_jsonb(a) - 'repository')::text FROM fixes_affected a WHERE repository = 'mhs_r'))) x")
    [ "$got" = 0 ] && ok "make-history --stable 3: fixes_affected the same with 'all'" ||
        fail "make-history --stable 3: fixes_affected differs with 'all' ($got rows)"
    got=$(psql_q -At -c "SELECT count(*) FROM fixes_per_release WHERE repository = 'mhc'")
    [ "$got" = 8 ] && ok "mhc: 8 mainline releases, all off the ref" || fail "mhc: $got mainline releases"
else
    echo "note: $mh not found, make-history not checked"
fi

echo "== 6. refresh: new tags, branches and a moved tag give the rows of a cold load"
refresh_step() {
    local what=$1
    load "$ovs" ovs_inc ", release_tags => 'all', stable_branches => '^refs/heads/branch-'" >/dev/null
    psql_q -c "SELECT fixes_unload('ovs_cold')" >/dev/null 2>&1 || true
    load "$ovs" ovs_cold ", release_tags => 'all', stable_branches => '^refs/heads/branch-'" >/dev/null
    same_rows ovs_inc ovs_cold && ok "$what: refresh = cold load" || fail "$what: refresh differs from a cold load"
    crosscheck "$ovs" ovs_inc --release-tags all --stable-branches '^refs/heads/branch-' >/dev/null ||
        fail "$what: crosscheck"
}
load "$ovs" ovs_inc ", release_tags => 'all', stable_branches => '^refs/heads/branch-'" >/dev/null
b21=$(git -C "$ovs" rev-parse branch-2.1)
c3=$(rb_commit "$ovs" 1250 "Fix meters

(cherry picked from commit $(git -C "$ovs" rev-parse main))" "$b21")
git -C "$ovs" update-ref refs/heads/branch-2.1 "$c3"
rb_tag "$ovs" v2.1.2 "$c3" 1260
refresh_step "a new tag on a release branch"
m11=$(git -C "$ovs" rev-parse main~1)
e1=$(rb_commit "$ovs" 1300 "Prepare for 2.3.0" "$(git -C "$ovs" rev-parse main)")
git -C "$ovs" update-ref refs/heads/branch-2.3 "$e1"
rb_tag "$ovs" v2.3.0 "$e1" 1310
refresh_step "a new release branch"
git -C "$ovs" tag -d v2.1.1 >/dev/null
rb_tag "$ovs" v2.1.1 "$c3" 1320
refresh_step "a tag that moves"
chmod -R a+rX "$ovs"

# a refresh with 'all' and every release tag on the ref stays a refresh; one that meets a tag
# off the ref loads in full; the load after one that stored a release off the ref (a release
# branch merged back: its tag now on the ref, and a fix that names the tag's commit by an
# abbreviation) is a refresh: the previous load stored that release's tag commit beside the
# commit_idx of its entry point, which must not be taken for the entry point's id (the fuzzer's
# test/refresh-fuzz/cases/release-tags-off-ref-seed-24.json); each step equals a cold load
grow=$work/grow.git
git init -q --bare "$grow"
ga=$(rb_commit "$grow" 100 "Add the core")
gb=$(rb_commit "$grow" 200 "Add the parser" "$ga")
gc=$(rb_commit "$grow" 300 "Fix the core

Fixes: ${ga:0:12} (\"Add the core\")" "$gb")
git -C "$grow" update-ref refs/heads/main "$gc"
git -C "$grow" symbolic-ref HEAD refs/heads/main
rb_tag "$grow" v1 "$gc" 310
chmod -R a+rX "$grow"
grow_step() {
    local what=$1 how=$2 got
    psql_q -c "SET client_min_messages = debug1" \
        -c "SELECT 1 FROM fixes_load('$grow', 'main', name => 'grow_inc', release_tags => 'all')" >/dev/null 2>"$work/grow.log"
    psql_q -c "SELECT fixes_unload('grow_cold')" >/dev/null
    load "$grow" grow_cold ", release_tags => 'all'" >/dev/null
    if grep -q "release tags off the ref: loading it in full" "$work/grow.log"; then got=full
    elif grep -q "graph of the previous load read" "$work/grow.log"; then got=refresh
    else got=full; fi
    [ "$got" = "$how" ] && ok "$what: a $got" || fail "$what: a $got, expected a $how"
    same_rows grow_inc grow_cold && ok "$what: the rows of a cold load" || fail "$what: differs from a cold load"
    crosscheck "$grow" grow_inc --release-tags all >/dev/null || fail "$what: crosscheck"
}
# grow_target ABBREV: the commit grow_inc's Fixes: line of ABBREV resolved to
grow_target() {
    psql_q -At -c "SELECT target_commit FROM fixes_edges e JOIN fixes_repositories r USING (repository_id)
                   WHERE r.name = 'grow_inc' AND e.abbrev = '$1'"
}
grow_step "first load" full
gd=$(rb_commit "$grow" 400 "Add the lexer" "$gc")
ge=$(rb_commit "$grow" 500 "Fix the parser

Fixes: ${gb:0:12} (\"Add the parser\")" "$gd")
git -C "$grow" update-ref refs/heads/main "$ge"
rb_tag "$grow" v2 "$ge" 510
chmod -R a+rX "$grow"
grow_step "commits and a tag on the ref" refresh
# branch-3 is cut at gf, which no release has yet: v3.0.0, off the ref, releases it
gf=$(rb_commit "$grow" 600 "Fix the lexer

Fixes: ${gd:0:12} (\"Add the lexer\")" "$ge")
gx=$(rb_commit "$grow" 650 "Prepare for 3.0.0" "$gf")
gg=$(rb_commit "$grow" 660 "Add the optimizer" "$gf")
git -C "$grow" update-ref refs/heads/branch-3 "$gx"
git -C "$grow" update-ref refs/heads/main "$gg"
rb_tag "$grow" v3.0.0 "$gx" 610
chmod -R a+rX "$grow"
grow_step "a release branch and its tag" full
got=$(psql_q -At -c "SELECT string_agg(release || ':' || commits, ' ' ORDER BY release_rank) FROM fixes_per_release WHERE repository = 'grow_inc'")
[ "$got" = "v1:3 v2:2 v3.0.0:1" ] && ok "v3.0.0 off the ref releases the branch point: $got" || fail "releases: $got"
# v3.0.0 moved onto an old commit of the ref, and a fix of its former entry point gf: the
# previous load stored v3.0.0 with gx's id beside gf's commit_idx (seed 24's shape)
git -C "$grow" tag -d v3.0.0 >/dev/null
rb_tag "$grow" v3.0.0 "$gd" 670
gk=$(rb_commit "$grow" 680 "Fix the lexer again

Fixes: ${gf:0:12} (\"Fix the lexer\")" "$gg")
git -C "$grow" update-ref refs/heads/main "$gk"
chmod -R a+rX "$grow"
grow_step "a tag moved from its release branch onto the ref, a fix of its entry point" refresh
got=$(grow_target "${gf:0:12}")
[ "$got" = "$gf" ] && ok "the fix of the entry point resolves to it" || fail "the fix of the entry point resolves to ${got:-nothing}, not $gf"
gm=$(rb_commit "$grow" 700 "Merge branch-3" "$gk" "$gx")
gn=$(rb_commit "$grow" 750 "Fix the preparation for 3.0.0

Fixes: ${gx:0:12} (\"Prepare for 3.0.0\")" "$gm")
git -C "$grow" update-ref refs/heads/main "$gn"
chmod -R a+rX "$grow"
grow_step "the release branch merged: its tag on the ref, the previous load's release off it" refresh
got=$(grow_target "${gx:0:12}")
[ "$got" = "$gx" ] && ok "the fix of the tag's commit resolves to it" || fail "the fix of the tag's commit resolves to ${got:-nothing}, not $gx"
gh=$(rb_commit "$grow" 800 "Fix the optimizer

Fixes: ${gg:0:12} (\"Add the optimizer\")" "$gm")
git -C "$grow" update-ref refs/heads/main "$gh"
rb_tag "$grow" v4 "$gh" 810
chmod -R a+rX "$grow"
grow_step "a new tag on the ref after it" refresh

echo "== 7. a release tag whose history is damaged"
# a commit whose parent is not in the repository (not a shallow clone), tagged off the ref:
# the NOTICE of a 'ref' load must not fail the load; 'all' is an ERROR that names the commit
git clone -q --bare "$pkg" "$work/broken.git"
tree=$(git -C "$work/broken.git" mktree </dev/null)
missing=0123456789abcdef0123456789abcdef01234567
bad=$(printf 'tree %s\nparent %s\nauthor a <a@example.org> 1600000600 +0000\ncommitter c <c@example.org> 1600000600 +0000\n\nA commit whose parent is gone\n' \
      "$tree" "$missing" | git -C "$work/broken.git" hash-object -t commit -w --stdin)
git -C "$work/broken.git" tag v99 "$bad"
git -C "$work/broken.git" update-ref -d refs/heads/debian
git -C "$work/broken.git" tag -d v14 v15 >/dev/null
chmod -R a+rX "$work/broken.git"
if load "$work/broken.git" broken_ref; then
    ok "'ref': loaded beside a release tag whose history is damaged"
else
    fail "'ref' fails on a damaged history off the ref: $(cat "$work/broken_ref.log")"
fi
if load "$work/broken.git" broken_all ", release_tags => 'all'"; then
    fail "'all' loaded a release tag whose history is damaged"
elif grep -q "ERROR:  could not read commit $missing" "$work/broken_all.log"; then
    ok "'all': an ERROR naming the missing commit"
else
    fail "'all' on a damaged history: $(cat "$work/broken_all.log")"
fi

finish $rc
