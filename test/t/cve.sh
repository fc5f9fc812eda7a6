#!/bin/bash
# cve.sh — the CVE records of issue 32 (fixes_cve_affected_all) against git, and the answers of
# issue 29 they build on (fixes_affected_releases, fixes_cve_affected, fixes_commit_id).
#
# For each repository, loaded with its stable branches and files => true: every fixing
# commit's `affected` array equals the one test/oracles/cve-oracle.py computes from git's command line
# (git log, rev-list, for-each-ref and the backport lines, through test/oracles/crosscheck.py), and
# every array satisfies the CVE Record Format's rules for `affected` (the oracle's validator,
# whose own self-test must catch nine broken arrays first); fixes_cve_affected for 25 fixing
# commits is byte for byte fixes_cve_affected_all's row, and fixes_commit_id of each one's
# 12-digit abbreviation gives it back; fixes_affected_releases equals the expansion of
# fixes_affected's rows into releases (the four-way join it replaces).
# Issue 42: copies of stable.git whose series are named like their first release (1.46.0,
# v3.5.0) give the series' version prefixes as wildcards (1.46.*, 3.5.*).
# Repositories: ${FIXES_FIXTURES}/stable.git (and its two renamed copies), and a 20000-commit make-history repository with
# --stable 3 (skipped when ../shared/bench/make-history is absent).  Own scratch database
# fixes_t_cve, dropped again on success.
# Exit 0 pass, 1 fail, 77 skip (neither repository available).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_cve
commits=20000

# check PATH NAME RE: load PATH under NAME with stable branches RE and files, then compare
check() {
    local path=$1 name=$2 re=$3 t0
    t0=$(date +%s.%N)
    psql_q -At -v path="$path" -v name="$name" -v re="$re" <<'SQL'
SELECT format('loaded %s: %s commits, %s releases, %s edges (%s resolved) in %s s',
              repository, commits, releases, edges, resolved, round(seconds::numeric, 2))
  FROM fixes_load(:'path', name => :'name', stable_branches => :'re', files => true);
SQL
    PGDATABASE=$db python3 "$top/test/oracles/cve-oracle.py" --repo "$path" --name "$name" \
        --stable-branches "$re" --files || return 1
    # the single function, the abbreviations, and the releases view, in the database
    local out
    out=$(psql_q -At -v name="$name" <<'SQL'
WITH sample AS (
    SELECT a.fixing_commit, a.affected, row_number() OVER (ORDER BY md5(a.fixing_commit)) AS n
      FROM fixes_cve_affected_all(:'name') a
)
SELECT 'single', count(*),
       count(*) FILTER (WHERE fixes_cve_affected(:'name', s.fixing_commit)::text <> s.affected::text),
       count(*) FILTER (WHERE fixes_commit_id(:'name', left(s.fixing_commit, 12)) <> s.fixing_commit)
  FROM sample s WHERE s.n <= 25;
CREATE TEMP TABLE by_join AS
SELECT a.repository, a.fixing_commit, a.target_commit, r.series, r.tag AS release, r.release_rank
  FROM fixes_affected a
  JOIN fixes_repositories p ON p.name = a.repository
  JOIN fixes_releases i ON i.repository_id = p.repository_id AND i.tag = a.introduced_in
  LEFT JOIN fixes_releases x ON x.repository_id = p.repository_id AND x.tag = a.fixed_in
  JOIN fixes_releases r ON r.repository_id = p.repository_id
   AND r.release_rank >= i.release_rank AND (x.release_rank IS NULL OR r.release_rank < x.release_rank)
   AND CASE WHEN a.series IS NULL THEN r.mainline ELSE NOT r.mainline AND r.series = a.series END
 WHERE a.repository = :'name';
SELECT 'releases', (SELECT count(*) FROM by_join),
       (SELECT count(*) FROM (SELECT * FROM by_join EXCEPT ALL
                              SELECT * FROM fixes_affected_releases WHERE repository = :'name') d),
       (SELECT count(*) FROM (SELECT * FROM fixes_affected_releases WHERE repository = :'name'
                              EXCEPT ALL SELECT * FROM by_join) d);
SQL
)
    echo "$out" | while IFS='|' read -r what n a b; do
        case $what in
            single) echo "$name: fixes_cve_affected of $n fixes: $a differ from fixes_cve_affected_all, $b abbreviations wrong" ;;
            releases) echo "$name: fixes_affected_releases: $n rows from fixes_affected, $a missing, $b extra" ;;
        esac
    done
    if echo "$out" | grep -qvE '^(single\|[1-9][0-9]*\|0\|0|releases\|[0-9]+\|0\|0)$'; then
        echo "$name: DIFF (see above)"
        return 1
    fi
    echo "$name: load + checks took $(elapsed "$t0") s wall"
}

python3 "$top/test/oracles/cve-oracle.py" --self-test

have=0
rc=0
fresh_db "$db"
if [ -d "$fixtures/stable.git" ]; then
    have=1
    check "$fixtures/stable.git" stable '^refs/(heads|remotes/origin)/stable-' || rc=1
else
    echo "note: $fixtures/stable.git not found, not checked"
fi
# issue 42: series named like their first release (NetworkManager's 1.46.0, Open vSwitch's
# v3.5.0): the wildcard is the series' version prefix (1.46.*, 3.5.*), never the name (1.46.0.*,
# an empty range).  Copies of stable.git whose tags are renamed so (order kept), checked against
# the oracle, and their wildcards listed; fixes_per_stable_release's release_rank orders each
# series as `git tag --sort=v:refname` does (1.46.2 before 1.46.10, which ORDER BY release
# inverts).
wildcards() {       # wildcards NAME: the distinct lessThanOrEqual wildcards of NAME's records
    psql_q -At -v name="$1" <<'SQL'
SELECT string_agg(DISTINCT v->>'lessThanOrEqual', ' ' ORDER BY v->>'lessThanOrEqual')
  FROM fixes_cve_affected_all(:'name') a, jsonb_array_elements(a.affected) e, jsonb_array_elements(e->'versions') v
 WHERE v->>'lessThanOrEqual' <> '*';
SQL
}
if [ -d "$fixtures/stable.git" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    for style in nm ovs; do
        git clone -q --mirror "file://$fixtures/stable.git" "$work/$style.git"
        case $style in
            nm)  map="v0.0.1:0.0.1 v0.9.1:1.44.1 v1.0:1.46.0 v1.0.1:1.46.2 v1.0.2:1.46.10 v1.1:1.48.0 v1.1.1:1.48.1 v2.0:1.50.0"
                 want="1.46.* 1.48.*" ;;
            ovs) map="v0.0.1:v0.0.1 v0.9.1:v3.4.1 v1.0:v3.5.0 v1.0.1:v3.5.1 v1.0.2:v3.5.2 v1.1:v3.6.0 v1.1.1:v3.6.1 v2.0:v4.0.0"
                 want="3.5.* 3.6.*" ;;
        esac
        for m in $map; do
            [ "${m%%:*}" = "${m#*:}" ] && continue
            git -C "$work/$style.git" tag "${m#*:}" "${m%%:*}^{commit}"
            git -C "$work/$style.git" tag -d "${m%%:*}" >/dev/null
        done
        chmod -R a+rX "$work"
        check "$work/$style.git" "stable-$style" '^refs/(heads|remotes/origin)/stable-' || rc=1
        got=$(wildcards "stable-$style")
        if [ "$got" != "$want" ]; then
            echo "stable-$style: DIFF lessThanOrEqual wildcards: $got (want the series' version prefixes: $want)"
            rc=1
        else
            echo "stable-$style: lessThanOrEqual wildcards $got: the series' version prefixes"
        fi
        got=$(psql_q -At -v name="stable-$style" <<'SQL'
SELECT string_agg(release, ' ' ORDER BY series, release_rank) FROM fixes_per_stable_release
 WHERE repository = :'name' AND series IS NOT NULL;
SQL
)
        want=$(for b in $(git -C "$work/$style.git" tag --sort=v:refname --merged stable-1.0 --no-merged main) \
                        $(git -C "$work/$style.git" tag --sort=v:refname --merged origin/stable-1.1 --no-merged main); do
                   echo "$b"; done | paste -sd' ')
        if [ "$got" != "$want" ]; then
            echo "stable-$style: DIFF fixes_per_stable_release by release_rank: $got (git tag --sort=v:refname: $want)"
            rc=1
        else
            echo "stable-$style: fixes_per_stable_release by series, release_rank: $got, as git tag --sort=v:refname"
        fi
    done
fi
if [ -f "$mh" ]; then
    have=1
    repo=$(make_history_repo $commits 3)
    check "$repo" "make-history-$commits-stable-3" '^refs/heads/v[0-9]+\.[0-9]+\.y$' || rc=1
else
    echo "note: $mh not found: make-history not checked"
fi
if [ $have = 0 ]; then
    drop_db "$db"
    skip "neither $fixtures/stable.git nor $mh found"
fi
finish $rc
