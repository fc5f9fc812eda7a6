#!/usr/bin/env bash
# test/t/git-oracles.sh — the pure-C parsers against git itself, where git defines the answer:
#   - src/parse/trailers.c against `git log --format='%(trailers:only,unfold)'` (test/oracles/trailers-oracle.py:
#     generated messages, then every commit of a make-history repository when ../shared has it);
#   - src/parse/versort.c against `git tag --sort=v:refname` (test/oracles/versort-oracle.py).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
cd "$top"
make -s -C test/unit trailers_cli versort_sort >/dev/null
status=0
python3 test/oracles/trailers-oracle.py | tail -n 1 || status=1
python3 test/oracles/versort-oracle.py | tail -n 1 || status=1
if [ -x "$mh" ]; then
    repo=$(make_history_repo 20000)
    python3 test/oracles/trailers-oracle.py "$repo" | tail -n 1 || status=1
else
    echo "skipping the make-history repository: $mh is absent"
fi
[ "$status" = 0 ] && echo PASS || echo FAIL
exit "$status"
