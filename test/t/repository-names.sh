#!/bin/bash
# repository-names.sh — issue 42: a load without `name` is named by the last component of its
# path, so two repositories whose paths end alike ("/mirror/a/repo", "/mirror/b/repo") get the
# same name.  Until 1.3 the second load replaced the first one's rows ("history was
# rewritten"); now it is an ERROR (42710) that names both paths and the `name` argument, and
# leaves the first repository's rows intact.  What must keep working: a reload of the same
# path (also written with a trailing '/', as "PATH/.git" of a work tree, or through a symbolic
# link), another name for the second path, and `name =>` reusing the name for a moved
# repository (after which a reload of the new path without a name works).
#
# Repositories: clones of the fixtures releases.git, article.git and stable.git, made here
# under paths that all end in "/repo".  Own scratch database fixes_t_names.
# Exit 0 pass, 1 fail, 77 skip.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_names
need_fixture releases.git
need_fixture article.git
need_fixture stable.git
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b" "$work/c" "$work/moved"
git clone -q --bare "file://$fixtures/releases.git" "$work/a/repo"
git clone -q --bare "file://$fixtures/article.git" "$work/b/repo"
git clone -q "file://$fixtures/stable.git" "$work/c/repo"       # a work tree: c/repo/.git
ln -s "$work/a" "$work/link"
chmod -R a+rX "$work"
fresh_db "$db"
rc=0

snapshot() {        # snapshot NAME: what the database holds of the repository NAME
    psql_q -At -v name="$1" <<'SQL'
SELECT r.path, r.head_commit,
       (SELECT count(*) FROM fixes_commits c WHERE c.repository_id = r.repository_id),
       (SELECT count(*) FROM fixes_edges e WHERE e.repository_id = r.repository_id),
       (SELECT md5(string_agg(p::text, ',' ORDER BY p.release_rank)) FROM fixes_per_release p
         WHERE p.repository = r.name)
  FROM fixes_repositories r WHERE r.name = :'name';
SQL
}

load() {            # load PATH [NAME]: fixes_load, its messages in $work/err; prints its name
    if [ $# -gt 1 ]; then
        psql_q -At -v path="$1" -v name="$2" 2>"$work/err" <<<"SELECT repository FROM fixes_load(:'path', name => :'name')"
    else
        psql_q -At -v path="$1" 2>"$work/err" <<<"SELECT repository FROM fixes_load(:'path')"
    fi
}

refused() {         # refused WHAT PATH: the load of PATH without a name is the ERROR of a collision
    local what=$1 path=$2
    if PGOPTIONS="-c log_min_messages=panic" psql -X -q -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -d "$db" -At \
            -v path="$path" >/dev/null 2>"$work/err" <<<"SELECT repository FROM fixes_load(:'path')"; then
        echo "DIFF: $what: loading $path without a name succeeded (it shares the name of another repository)"
        rc=1
        return
    fi
    if ! grep -q 'ERROR:  42710: repository "repo" was loaded from' "$work/err" ||
       ! grep -Fq "\"$work/a/repo\"" "$work/err" || ! grep -Fq "\"$path\"" "$work/err" ||
       ! grep -q "HINT:  .*name => 'repo'" "$work/err"; then
        echo "DIFF: $what: not the expected ERROR (42710, both paths, the name argument):"
        cat "$work/err"
        rc=1
        return
    fi
    echo "$what: refused: $(grep -m1 ERROR "$work/err" | sed "s|$work|WORK|g")"
}

same() {            # same WHAT WANT: the rows of 'repo' are still WANT
    local got
    got=$(snapshot repo)
    if [ "$got" != "$2" ]; then
        echo "DIFF: $1: the rows of repository 'repo' changed:"
        echo "  before: $2"
        echo "  after:  $got"
        rc=1
    else
        echo "$1: the rows of 'repo' ($work/a/repo) intact"
    fi
}

# 1. the first repository, named by its path
[ "$(load "$work/a/repo")" = repo ] || { cat "$work/err"; echo "DIFF: first load not named 'repo'"; rc=1; }
first=$(snapshot repo)
case "$first" in
    "$work/a/repo|"*"|38|"*) ;;
    *) echo "DIFF: unexpected first load: $first"; rc=1 ;;
esac

# 2. a second repository whose path ends in /repo too, bare and as a work tree: refused
refused "another bare repository" "$work/b/repo"
same "after the refused load of b/repo" "$first"
refused "a work tree" "$work/c/repo"
refused "a work tree's .git" "$work/c/repo/.git/"
same "after the refused loads of c/repo" "$first"

# 3. the same repository under other spellings of its path: a reload, no error
for p in "$work/a/repo" "$work/a/repo/" "$work/link/repo" "$work/a/../a/repo"; do
    if [ "$(load "$p")" != repo ]; then
        echo "DIFF: reloading $p without a name failed:"; cat "$work/err"; rc=1
    fi
done
# (the path stored is the one of the last load; the rows are the same)
got=$(snapshot repo | cut -d'|' -f2-)
[ "$got" = "${first#*|}" ] || { echo "DIFF: a reload changed the rows: $got"; rc=1; }
load "$work/a/repo" >/dev/null
same "after reloads by the same path, a trailing '/', a symbolic link and '..'" "$first"

# 4. the second repository under a name of its own: both are there
load "$work/b/repo" repo_b >/dev/null || { cat "$work/err"; rc=1; }
same "after loading b/repo as repo_b" "$first"
got=$(snapshot repo_b)
case "$got" in
    "$work/b/repo|"*"|20|"*) echo "b/repo loaded as repo_b beside it: ${got#*|}" ;;
    *) echo "DIFF: repo_b: $got"; rc=1 ;;
esac

# 5. a moved repository: without a name it is refused (the name's path differs), with
#    name => 'repo' it is loaded in place of the old one, and then reloads without a name
mv "$work/a/repo" "$work/moved/repo"
refused_moved=$(PGOPTIONS="-c log_min_messages=panic" psql -X -q -d "$db" -At -v path="$work/moved/repo" \
    <<<"SELECT repository FROM fixes_load(:'path')" 2>&1 >/dev/null | grep -c 'ERROR:  repository "repo" was loaded from' || true)
[ "$refused_moved" = 1 ] || { echo "DIFF: the moved repository without a name was not refused"; rc=1; }
if [ "$(load "$work/moved/repo" repo)" != repo ] || [ "$(load "$work/moved/repo")" != repo ]; then
    echo "DIFF: the moved repository with name => 'repo', then without a name:"; cat "$work/err"; rc=1
fi
got=$(snapshot repo)
if [ "$got" != "$work/moved/repo|${first#*|}" ]; then
    echo "DIFF: the moved repository: $got (want the first load's rows at the new path)"
    rc=1
else
    echo "moved repository: refused without a name, loaded with name => 'repo' (same rows, new path), then reloaded without one"
fi

finish $rc
