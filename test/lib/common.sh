# test/lib/common.sh — sourced by the test/t scripts: paths, skipping, scratch databases,
# timing, and the cached make-history repositories.
#
# Sets: top (repository root), mh (../shared/bench/make-history, may not exist),
# fixtures (${FIXES_FIXTURES:-/tmp/fixes-fixtures}), cache (${FIXES_CACHE:-/var/tmp/fixes-cache}),
# and exports PGCLIENTENCODING=UTF8.  The functions that take no database use $db, the
# script's own scratch database.

top=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel 2>/dev/null ||
      (cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd))
mh="$top/../shared/bench/make-history"
fixtures=${FIXES_FIXTURES:-/tmp/fixes-fixtures}
cache=${FIXES_CACHE:-/var/tmp/fixes-cache}
export PGCLIENTENCODING=UTF8

# skip REASON: exit 77 (skipped), REASON being the last line of output
skip() { echo "SKIP: $*"; exit 77; }

# need_make_history / need_fixture NAME: skip unless ../shared/bench/make-history, or the
# fixture repository NAME (e.g. releases.git), is there
need_make_history() {
    [ -f "$mh" ] || skip "$mh not found (a clone without ../shared/bench)"
}
need_fixture() {
    [ -e "$fixtures/$1" ] || skip "$fixtures/$1 not found (build the fixtures: test/fixtures/build $fixtures)"
}

# psql_q ARGS...: psql on $db, quiet, stopping at the first error
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# drop_db NAME: drop a scratch database if it exists, without a NOTICE
drop_db() { PGOPTIONS="-c client_min_messages=warning" dropdb --if-exists "$1"; }

# fresh_db NAME: drop and create a scratch database with the extension
fresh_db() {
    drop_db "$1"
    createdb "$1"
    psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c 'CREATE EXTENSION fixes'
}

# finish RC [NOTE]: the end of a script: RC 0 drops $db and passes; otherwise it fails and
# keeps $db (and NOTE, e.g. a directory) for inspection
finish() {
    if [ "$1" != 0 ]; then
        echo "FAIL (database $db${2:+ and $2} kept for inspection)"
        exit 1
    fi
    drop_db "$db"
    echo "PASS"
    exit 0
}

# victim_snapshot: what $db holds of the repository loaded under the name 'victim' (commits,
# edges, a digest of fixes_per_release, the head), to show that hostile loads left it intact
victim_snapshot() {
    psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "SELECT
        (SELECT count(*) FROM fixes_commits c JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'victim'),
        (SELECT count(*) FROM fixes_edges e JOIN fixes_repositories r USING (repository_id) WHERE r.name = 'victim'),
        (SELECT md5(string_agg(p::text, ',' ORDER BY p.release_rank)) FROM fixes_per_release p WHERE p.repository = 'victim'),
        (SELECT head_commit FROM fixes_repositories WHERE name = 'victim')"
}

# elapsed T0: seconds since T0 (a `date +%s.%N`), two decimals
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }

# make_history_repo N [K]: path of the cached make-history repository of N commits (with K
# stable branches when K is given: --stable K), built if absent or incomplete (the stamp names
# the generator's checksum and is written last)
make_history_repo() {
    local n=$1 k=${2:-} tag want t0 opts=()
    tag=$n
    if [ -n "$k" ]; then
        tag="$n-stable-$k"
        opts=(--stable "$k")
    fi
    local repo="$cache/make-history-$tag.git"
    want="make-history --commits $n ${opts[*]} $(sha256sum "$mh" | cut -d' ' -f1)"
    [ -n "$k" ] || want="make-history --commits $n $(sha256sum "$mh" | cut -d' ' -f1)"
    mkdir -p "$cache"
    chmod a+rx "$cache"
    exec 9>"$cache/make-history-$tag.lock"
    flock 9
    if [ ! -f "$repo.stamp" ] || [ "$(cat "$repo.stamp")" != "$want" ] || [ ! -d "$repo" ]; then
        echo "building $repo (make-history --commits $n ${opts[*]}) ..." >&2
        t0=$(date +%s.%N)
        rm -rf "$repo" "$repo.stamp" "$repo.tmp"
        # make-history's ids depend on nothing but its arguments: no caller's git dates
        env -u GIT_AUTHOR_DATE -u GIT_COMMITTER_DATE python3 "$mh" "$repo.tmp" --commits "$n" \
            "${opts[@]}" >"$cache/make-history-$tag.json"
        chmod -R a+rX "$repo.tmp"
        mv "$repo.tmp" "$repo"
        echo "$want" >"$repo.stamp"
        echo "built in $(elapsed "$t0") s" >&2
    fi
    chmod -R a+rX "$repo"
    exec 9>&-
    echo "$repo"
}

# reader_alone: the set-up of a script that runs fixes-reader without a database: $reader (the
# installed one), $work (a scratch directory, removed at exit), the counters fails and checked
# at 0, and $work/none: a walk's input that names no known commit and hides none
reader_alone() {
    reader="$("${PG_CONFIG:-pg_config}" --pkglibdir)/fixes-reader"
    [ -x "$reader" ] || { echo "FAIL: $reader not found (make install)"; exit 1; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    fails=0
    checked=0
    printf '\0\0\0\0\0\0\0\0' >"$work/none"
}

# reader_same NAME ARGS...: `fixes-reader ARGS` in each mode of the array reader_modes, whose
# entries are "LABEL VAR=VALUE...", the environment of that mode (after the words of
# $reader_wrap, if set, e.g. a prlimit), with $work/none as input: its output in
# $work/out.LABEL, its standard error in $work/err.LABEL.  Every mode must write the first
# mode's bytes and end with its exit status, not a timeout or a signal (124 and up), and with
# want_ok set, 0.  Counts checked or fails; prints "ok: NAME (exit status S, N bytes...)", with
# what reader_after (a function the script may define, run after the modes) puts in reader_note.
reader_same() {
    local name=$1 first="" rc0="" rc m label
    shift
    for m in "${reader_modes[@]}"; do
        label=${m%% *}
        set +e
        # shellcheck disable=SC2086
        env ${m#"$label"} ${reader_wrap:-} timeout 300 "$reader" "$@" <"$work/none" \
            >"$work/out.$label" 2>"$work/err.$label"
        rc=$?
        set -e
        if [ -z "$first" ]; then
            first=$label
            rc0=$rc
        elif [ "$rc" != "$rc0" ] || ! cmp -s "$work/out.$first" "$work/out.$label"; then
            echo "FAIL: $name: $label: exit status $rc, $(wc -c <"$work/out.$label") bytes;" \
                 "$first: exit status $rc0, $(wc -c <"$work/out.$first") bytes"
            cmp "$work/out.$first" "$work/out.$label" || true
            fails=$((fails + 1))
            return 1
        fi
    done
    if [ "$rc0" -ge 124 ] || { [ -n "${want_ok:-}" ] && [ "$rc0" != 0 ]; }; then
        echo "FAIL: $name: exit status $rc0 in every mode: $(tail -c 300 "$work/out.$first" | tr -cd '[:print:]')"
        fails=$((fails + 1))
        return 1
    fi
    checked=$((checked + 1))
    reader_note=""
    if declare -F reader_after >/dev/null; then reader_after; fi
    echo "ok: $name (exit status $rc0, $(wc -c <"$work/out.$first") bytes$reader_note)"
}

# each_fixture FN: FN REPO HEAD for each fixture repository (and linked worktree) with a HEAD
each_fixture() {
    local repo head
    [ -d "$fixtures" ] || { echo "FAIL: $fixtures not found (test/fixtures/build $fixtures)"; exit 1; }
    for repo in "$fixtures"/*.git "$fixtures"/linked "$fixtures"/worktree; do
        [ -d "$repo" ] || continue
        head=$(git -C "$repo" rev-parse -q --verify 'HEAD^{commit}' 2>/dev/null) || continue
        "$1" "$repo" "$head"
    done
}

# mh_heads N [K]: src, the make-history repository of N commits (K stable branches), heads, its
# HEAD and then each stable branch's head, and label, their description
mh_heads() {
    src=$(make_history_repo "$1" ${2:-})
    heads=("$(git -C "$src" rev-parse HEAD)")
    [ -n "${2:-}" ] && mapfile -t -O 1 heads < <(git -C "$src" for-each-ref --format='%(objectname)' 'refs/heads/v*')
    label="make-history $1${2:+ --stable $2} (${#heads[@]} heads)"
}

# all_loose REPO: every object of REPO loose, its packs (fast-import writes one above
# fastimport.unpackLimit objects) moved out to $work/packs-of-NAME and unpacked
all_loose() {
    local p out
    out="$work/packs-of-$(basename "$1")"
    mkdir -p "$out"
    for p in "$1"/objects/pack/*.pack; do
        [ -f "$p" ] || continue
        mv "$p" "${p%.pack}.idx" "$out/"
        git -C "$1" unpack-objects -q <"$out/$(basename "$p")"
    done
}
