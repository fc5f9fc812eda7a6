#!/bin/bash
# prerelease-dev.sh — issue 42: NetworkManager's release tags.  Development snapshots
# (`1.43.1-dev`) are pre-releases by default since 1.3 (the markers are
# (rc|pre|alpha|beta|dev)[0-9]*$, case-insensitive); release candidates numbered like releases
# (`1.43.90`) are not, and docs/reference.md's release_pattern for NetworkManager
# ('^[0-9]+\.[0-9]*[02468]\.[0-9]+$': even minors, no suffix) takes exactly the stable releases.
#
# On a repository made here with plain git (a line of commits with Fixes: lines, tags in
# NetworkManager's style):
#   1. a load with the default rule: test/oracles/crosscheck.py (git's command line, the same markers)
#      agrees on every release, commit -> release and count, and the releases are the tags
#      `git tag --sort=v:refname` lists without the markers (no -dev tag: fails on 1.2);
#   2. the documented pattern: releases 1.42.0 1.44.0 1.46.0;
#   3. a refresh over what a 1.2 library left (the -dev tags were releases; simulated by a
#      load whose pattern takes every tag, its stored pattern then set back to NULL, as the
#      default rule's) equals a cold load of the same repository, row for row
#      (test/lib/ext-rows.sql in two databases): the change of the default is a change of
#      releases that a refresh notices (the refs hash covers the release tags).
# Own scratch databases fixes_t_predev and fixes_t_predev_cold.  Exit 0 pass, 1 fail.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_predev
cold=fixes_t_predev_cold
export PGTZ=UTC
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/nm.git
rc=0

# the repository: c01..c12 on main, Fixes: lines naming earlier commits, NetworkManager's tags
git init -q -b main "$work/src"
g() { git -C "$work/src" -c user.name=Tester -c user.email=t@example.org "$@"; }
t=1600000000
n=0
commit() {          # commit SUBJECT [BODY]: a commit touching file c<N>; prints nothing
    n=$((n + 1)); t=$((t + 86400))
    echo "$n" > "$work/src/c$n"
    g add "c$n"
    GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" g commit -q -m "$1" ${2:+-m "$2"}
}
id() { g rev-parse "HEAD~$1"; }
commit "core: add the device list";                                    g tag 1.42.0
commit "wifi: add scanning"
commit "core: start 1.43 development";                                  g tag 1.43.1-dev
commit "wifi: fix scanning" "Fixes: $(id 1 | cut -c1-12) (\"wifi: add scanning\")"
commit "dns: add resolver";                                             g tag -a -m rc1 1.43.90
commit "dns: fix resolver" "Fixes: $(id 0 | cut -c1-12) (\"dns: add resolver\")"
commit "release 1.44.0";                                                g tag -a -m 1.44.0 1.44.0
commit "core: start 1.45 development";                                  g tag 1.45.1-dev
commit "vpn: add plugin"
commit "vpn: fix plugin" "Fixes: $(id 0 | cut -c1-12) (\"vpn: add plugin\")"
commit "core: a 1.45 snapshot";                                         g tag 1.45.2
commit "release 1.46.0";                                                g tag -a -m 1.46.0 1.46.0
git clone -q --bare "$work/src" "$repo"
chmod -R a+rX "$work"

load() {            # load DB NAME [PATTERN]: fixes_load, quietly; prints nothing
    local d=$1 name=$2 pat=${3:-}
    if [ -n "$pat" ]; then
        psql -X -q -v ON_ERROR_STOP=1 -d "$d" -At -v path="$repo" -v name="$name" -v pat="$pat" \
            <<<"SELECT count(*) FROM fixes_load(:'path', release_pattern => :'pat', name => :'name')" >/dev/null
    else
        psql -X -q -v ON_ERROR_STOP=1 -d "$d" -At -v path="$repo" -v name="$name" \
            <<<"SELECT count(*) FROM fixes_load(:'path', name => :'name')" >/dev/null
    fi
}
releases() {        # releases DB NAME: the releases, in rank order
    psql -X -q -v ON_ERROR_STOP=1 -d "$1" -At -v name="$2" \
        <<<"SELECT string_agg(release, ' ' ORDER BY release_rank) FROM fixes_per_release WHERE repository = :'name'"
}
expect() {          # expect WHAT GOT WANT
    if [ "$2" != "$3" ]; then
        echo "DIFF: $1: $2 (want $3)"
        rc=1
    else
        echo "$1: $2"
    fi
}

fresh_db "$db"
fresh_db "$cold"

# 1. the default rule
load "$db" nm
want=$(git -C "$repo" tag --sort=v:refname | grep -Eiv '(rc|pre|alpha|beta|dev)[0-9]*$' | paste -sd' ')
expect "default releases (git tag --sort=v:refname without the markers)" "$(releases "$db" nm)" "$want"
expect "the markers' releases are NetworkManager's releases and candidates" "$want" "1.42.0 1.43.90 1.44.0 1.45.2 1.46.0"
PGDATABASE=$db python3 "$top/test/oracles/crosscheck.py" --repo "$repo" --name nm >"$work/cross" 2>&1 || {
    cat "$work/cross"; echo "DIFF: crosscheck.py disagrees"; rc=1; }
tail -n 1 "$work/cross"

# 2. docs/reference.md's pattern for NetworkManager
load "$db" nm_pattern '^[0-9]+\.[0-9]*[02468]\.[0-9]+$'
expect "releases with docs/reference.md's pattern" "$(releases "$db" nm_pattern)" "1.42.0 1.44.0 1.46.0"

# 3. a refresh over a 1.2 library's load (-dev tags were releases) equals a cold load
load "$db" nm_old '.'
expect "releases as 1.2's default rule made them" "$(releases "$db" nm_old)" \
    "1.42.0 1.43.1-dev 1.43.90 1.44.0 1.45.1-dev 1.45.2 1.46.0"
psql_q -c "UPDATE fixes_repositories SET release_pattern = NULL WHERE name = 'nm_old'"
psql_q -c "SELECT fixes_unload('nm'), fixes_unload('nm_pattern')" >/dev/null
load "$db" nm_old
load "$cold" nm_old
expect "releases after the refresh" "$(releases "$db" nm_old)" "1.42.0 1.43.90 1.44.0 1.45.2 1.46.0"
psql -X -q -At -d "$db" -f "$top/test/lib/ext-rows.sql" >"$work/refreshed"
psql -X -q -At -d "$cold" -f "$top/test/lib/ext-rows.sql" >"$work/cold"
if ! diff -u "$work/cold" "$work/refreshed" >"$work/diff"; then
    echo "DIFF: the refresh over 1.2's releases differs from a cold load:"
    head -n 40 "$work/diff"
    rc=1
else
    echo "a refresh over 1.2's releases (the -dev tags among them) equals a cold load: $(grep -c . "$work/cold") rows"
fi

[ $rc = 0 ] && drop_db "$cold"
finish $rc
