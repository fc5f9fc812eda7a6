#!/bin/bash
# tampered-state.sh — stored state is input (issue 43): what a refresh reads back from the
# extension's own tables may have been changed by any role that may write them. As a
# non-superuser loader role with the README's grants (no table owner rights are needed to do
# this: UPDATE is enough), each stored item below is tampered with after a load, a commit
# that fixes an old one is added, and the repository is refreshed. Each refresh must end in a
# NOTICE and a full load (or, where a fallback recomputes the item, silently), or in an
# XX001 ERROR; then its rows must equal those of a cold load of the same state
# (test/refresh-fuzz/rows.sql, surrogate ids mapped to commit ids and checked), and at the end
# the server log must have no "terminated by signal" (no backend killed).
# Items: fixes_edges.target_idx 2000000000 and -7 (finding 3: SIGSEGV in add_old_edge() on
# 1.2), with and without files; fixes_edges.fixing_idx -7; fixes_releases.commit_idx
# 2000000000, a negative count, a NaN median; the lifetimes arrays of fixes_path_prefix_counts
# with a NaN, a -Infinity, short and long by one float8, emptied (finding 5: accepted by 1.2,
# wrong medians); fixes_subsystem_counts with an infinite median and a negative count;
# fixes_graph with a parent index 2000000000; fixes_repositories with 2000000000 commits and
# -3 edges; fixes_trailer_keys with ids that do not add up; fixes_commits.commit_idx -7 on the
# head; fixes_repositories.head_commit not an id, or an older commit's; last_committed_at far
# in the past; fixes_commit_groups with ids out of range. (Not last_committed_at in the
# future: any date is one a commit may have, and the refresh keeps the newer, see src/README.md.)
# The repository is generated here (plain git in a temporary directory).
# Own scratch database fixes_t_tampered and role fixes_t_tamper, dropped again on success.
# Exit 0 pass, 1 fail.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

db=fixes_t_tampered
role=fixes_t_tamper
export PGTZ=UTC
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 LC_ALL=C
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY
export GIT_AUTHOR_NAME='Tom Tamper' GIT_AUTHOR_EMAIL='tom@example.org'
export GIT_COMMITTER_NAME='Max Maintainer' GIT_COMMITTER_EMAIL='max@example.org'
when=1600000000
next_date() {
    when=$((when + 86400))
    export GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$((when + 600)) +0000"
}

work=$(mktemp -d /tmp/fixes-t-tampered.XXXXXX)
chmod 755 "$work"
log=${FIXES_SANDBOX:-/tmp/fixes-sandbox}/log
log_start=$( [ -r "$log" ] && stat -c %s "$log" || echo 0)
rc=0
fail() { echo "FAIL: $*"; rc=1; }

fresh_db "$db"
[ "$(psql -X -At -d "$db" -c "SELECT count(*) FROM pg_roles WHERE rolname = '$role'")" = 1 ] ||
    psql -X -q -d "$db" -c "CREATE ROLE $role LOGIN"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<SQL
GRANT pg_read_server_files TO $role;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO $role;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO $role;
SQL
as_loader() { psql -X -q -v ON_ERROR_STOP=1 -U "$role" -d "$db" "$@"; }
[ "$(as_loader -At -c 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user')" = f ] ||
    fail "the loader role is a superuser"

# the repository: 30 commits in three directories with a MAINTAINERS file; every third one
# fixes the commit two before it; trailers; releases v1.0 (annotated), v1.1, v1.2
base="$work/base"
git init -q -b main "$base"
mkdir -p "$base/net" "$base/core" "$base/mm"
printf 'NETWORKING\nM:\tN <n@example.org>\nF:\tnet/\n\nCORE\nM:\tC <c@example.org>\nF:\tcore/\n\nMEMORY\nF:\tmm/\n' \
    >"$base/MAINTAINERS"
dirs=(net core mm)
for i in $(seq 1 30); do
    next_date
    d=${dirs[$((i % 3))]}
    echo "change $i" >>"$base/$d/f$((i % 4)).c"
    git -C "$base" add -A
    body=
    if [ $((i % 3)) = 0 ] && [ $i -gt 2 ]; then
        t=$(git -C "$base" rev-parse "HEAD~1")
        body="Fixes: ${t:0:12} (\"$(git -C "$base" log -1 --format=%s "$t")\")"
    fi
    [ $((i % 4)) = 0 ] && body="$body${body:+$'\n'}Reviewed-by: R $i <r@example.org>"
    git -C "$base" commit -q -m "$d: change $i" ${body:+-m "$body"}
    case $i in
        10) git -C "$base" tag -a -m 'release 1.0' v1.0 ;;
        20) git -C "$base" tag v1.1 ;;
        26) git -C "$base" tag v1.2 ;;
    esac
done

# item NAME FILES SQL: clone, load, tamper, add a fix of an old commit, refresh, compare
n=0
item() {
    local name=$1 files=$2 sql=$3 repo out cold
    # FIXES_T_TAMPER_ONLY: a regular expression of the items to run (all by default)
    [[ $name =~ ${FIXES_T_TAMPER_ONLY:-.} ]] || return 0
    n=$((n + 1))
    repo="$work/$name"
    git clone -q "$base" "$repo"
    chmod -R a+rX "$work"
    as_loader -At -v path="$repo" -v name="$name" -v files="$files" >/dev/null <<'SQL'
SELECT commits FROM fixes_load(:'path', 'HEAD', NULL, :'name', NULL, :'files'::boolean,
                               CASE WHEN :'files'::boolean THEN 'MAINTAINERS' END);
SQL
    as_loader -v name="$name" <<SQL
CREATE TEMP VIEW r AS SELECT repository_id FROM fixes_repositories WHERE name = :'name';
$sql
SQL
    # a fix of an old commit of each directory, and a trailer
    next_date
    for d in net core mm; do
        t=$(git -C "$repo" log -1 --format=%H -- "$d")
        t=$(git -C "$repo" rev-parse "$t~2")
        echo "fix" >>"$repo/$d/f1.c"
        git -C "$repo" add -A
        git -C "$repo" commit -q -m "$d: fix an old bug" \
            -m "Fixes: ${t:0:12} (\"$(git -C "$repo" log -1 --format=%s "$t")\")" -m "Acked-by: A <a@example.org>"
    done
    chmod -R a+rX "$work"
    out=$(as_loader -At -v path="$repo" -v name="$name" -v VERBOSITY=verbose 2>&1 <<'SQL' || true
SELECT 'commits', commits FROM fixes_load(:'path', 'HEAD', NULL, :'name');
SQL
)
    if echo "$out" | grep -q 'terminated\|server closed the connection'; then
        fail "$name: the refresh killed its backend: $out"
        return
    fi
    if echo "$out" | grep -q '^ERROR:  XX001'; then
        echo "  $name: XX001 ERROR: $(echo "$out" | grep -m1 '^ERROR' | cut -c1-160)"
        # the previous load intact; after a full reload (unload, load) it equals a cold load
        as_loader -q -v name="$name" -c "SELECT fixes_unload(:'name')" >/dev/null
        as_loader -At -v path="$repo" -v name="$name" -v files="$files" >/dev/null <<'SQL'
SELECT commits FROM fixes_load(:'path', 'HEAD', NULL, :'name', NULL, :'files'::boolean,
                               CASE WHEN :'files'::boolean THEN 'MAINTAINERS' END);
SQL
    elif echo "$out" | grep -q '^ERROR'; then
        fail "$name: the refresh failed otherwise than with XX001: $out"
        return
    else
        local said
        said=$(echo "$out" | grep -E '^NOTICE:  (XX001|00000): ' | grep -E 'loading it in full|reading them from' |
               head -1 | cut -c1-170) || true
        echo "  $name: ${said:-no NOTICE (a fallback recomputed it)}"
        [ "$4" = notice ] && [ -z "$said" ] && fail "$name: no NOTICE"
    fi
    as_loader -At -v path="$repo" -v name="${name}_cold" -v files="$files" >/dev/null <<'SQL'
SELECT commits FROM fixes_load(:'path', 'HEAD', NULL, :'name', NULL, :'files'::boolean,
                               CASE WHEN :'files'::boolean THEN 'MAINTAINERS' END);
SQL
    as_loader -At -F $'\t' -v repo="$name" -f "$top/test/refresh-fuzz/rows.sql" >"$work/$name.rows"
    as_loader -At -F $'\t' -v repo="${name}_cold" -f "$top/test/refresh-fuzz/rows.sql" >"$work/$name.cold"
    if ! diff "$work/$name.rows" "$work/$name.cold" >"$work/$name.diff"; then
        fail "$name: the refreshed rows differ from a cold load's:"
        head -20 "$work/$name.diff"
    elif grep -q '^v_keys' "$work/$name.rows"; then
        fail "$name: surrogate keys inconsistent: $(grep '^v_keys' "$work/$name.rows" | head -3)"
    elif [ ! -s "$work/$name.rows" ]; then
        fail "$name: no rows"
    fi
}

R='(SELECT repository_id FROM r)'
item edge_target_big true "UPDATE fixes_edges SET target_idx = 2000000000 WHERE repository_id = $R AND status = 'resolved';" notice
item edge_target_big_nofiles false "UPDATE fixes_edges SET target_idx = 2000000000 WHERE repository_id = $R AND status = 'resolved';" notice
item edge_target_neg false "UPDATE fixes_edges SET target_idx = -7 WHERE repository_id = $R AND status = 'resolved';" notice
item edge_fixing_neg true "UPDATE fixes_edges SET fixing_idx = -7 WHERE repository_id = $R AND fixing_idx = (SELECT max(fixing_idx) FROM fixes_edges WHERE repository_id = $R);" notice
item release_commit_big false "UPDATE fixes_releases SET commit_idx = 2000000000 WHERE repository_id = $R AND tag = 'v1.0';" notice
item release_count_neg false "UPDATE fixes_releases SET bugs_introduced = -5 WHERE repository_id = $R AND tag = 'v1.1';" notice
item release_median_nan false "UPDATE fixes_releases SET fixed_median_days = 'NaN' WHERE repository_id = $R AND tag = 'v1.1';" notice
item lifetimes_nan true "UPDATE fixes_path_prefix_counts SET lifetimes = overlay(lifetimes placing '\\x000000000000f87f'::bytea from 1 for 8) WHERE repository_id = $R AND length(lifetimes) >= 8;" notice
item lifetimes_neginf true "UPDATE fixes_path_prefix_counts SET lifetimes = overlay(lifetimes placing '\\x000000000000f0ff'::bytea from 1 for 8) WHERE repository_id = $R AND length(lifetimes) >= 8;" notice
item lifetimes_short true "UPDATE fixes_path_prefix_counts SET lifetimes = substring(lifetimes from 9) WHERE repository_id = $R AND length(lifetimes) >= 16;" notice
item lifetimes_long true "UPDATE fixes_subsystem_counts SET lifetimes = lifetimes || '\\x0000000000005940'::bytea WHERE repository_id = $R AND length(lifetimes) >= 8;" notice
item lifetimes_empty true "UPDATE fixes_path_prefix_counts SET lifetimes = '' WHERE repository_id = $R AND bugs_introduced > 0;" notice
item subsystem_median_inf true "UPDATE fixes_subsystem_counts SET median_lifetime_days = 'Infinity' WHERE repository_id = $R AND median_lifetime_days IS NOT NULL;" notice
item subsystem_count_neg true "UPDATE fixes_subsystem_counts SET commits = -1 WHERE repository_id = $R;" notice
item graph_parent_big false "UPDATE fixes_graph SET parents = '\\x00943577'::bytea || substring(parents from 5) WHERE repository_id = $R;" notice
item repository_commits_big false "UPDATE fixes_repositories SET commits = 2000000000 WHERE repository_id = $R;" notice
item repository_edges_neg true "UPDATE fixes_repositories SET edges = -3 WHERE repository_id = $R;" notice
item trailer_keys_ids false "UPDATE fixes_trailer_keys SET ids = '\\xffffffff'::bytea WHERE repository_id = $R AND chunk = 0;" notice
item commit_idx_neg false "UPDATE fixes_commits SET commit_idx = -7 WHERE repository_id = $R AND commit_idx = (SELECT max(commit_idx) FROM fixes_commits WHERE repository_id = $R);" notice
item head_not_hex false "UPDATE fixes_repositories SET head_commit = repeat('z', 40) WHERE repository_id = $R;" any
item head_older false "UPDATE fixes_repositories SET head_commit = (SELECT commit_id FROM fixes_commits WHERE repository_id = $R AND commit_idx = 3) WHERE repository_id = $R;" any
item newest_past true "UPDATE fixes_repositories SET last_committed_at = '1970-01-02' WHERE repository_id = $R;" any
item commit_groups_ids true "UPDATE fixes_commit_groups SET ids = '\\xffffff7f'::bytea || substring(ids from 5) WHERE repository_id = $R AND length(ids) >= 4;" any

# no backend was killed (the whole run: the tampering above included)
if [ -r "$log" ]; then
    if tail -c +$((log_start + 1)) "$log" | grep -q 'terminated by signal'; then
        fail "the server log has \"terminated by signal\": $(tail -c +$((log_start + 1)) "$log" | grep -m3 'terminated by signal')"
    else
        echo "  the server log has no \"terminated by signal\" since the start ($n items)"
    fi
else
    echo "  (the server log $log is not readable here: only the refreshes' outputs were checked)"
fi

if [ $rc = 0 ]; then
    psql -X -q -d "$db" -c "DROP OWNED BY $role CASCADE" >/dev/null
    drop_db "$db"
    psql -X -q -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null
    rm -rf "$work"
fi
finish $rc "$work"
