#!/bin/bash
# refresh-fuzz.sh — the differential fuzzer of issue 43 (test/refresh-fuzz/refresh-fuzz.py):
# a refresh equals a cold load after every step of random sequences of changes to a small
# generated repository (plain git in a temporary directory), every row a user reads compared
# (test/refresh-fuzz/rows.sql). Runs the replay of every saved case (test/refresh-fuzz/cases/:
# the shrunk sequences that failed once, findings 1, 2 and 4 of issue 43 among them), then a
# fixed set of seeds (FIXES_REFRESH_FUZZ_SEEDS, default 1-4, of FIXES_REFRESH_FUZZ_STEPS
# steps, default 15): 30 s on a quiet 2-core machine, 80 s on a busy one. A longer run: test/t/README.md.
# Own scratch databases fixes_t_fz_refresh and fixes_t_fz_cold, dropped at the end.
# Exit 0 pass, 1 fail (the failing sequence is printed, shrunk, and saved under
# $FIXES_REFRESH_FUZZ_SAVE, default /tmp/fixes-refresh-fuzz-failures).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

export FIXES_FZ_PREFIX=fixes_t_fz
fz="$top/test/refresh-fuzz/refresh-fuzz.py"
rc=0
cases=("$top"/test/refresh-fuzz/cases/*.json)
if [ -e "${cases[0]}" ]; then
    python3 "$fz" --replay "${cases[@]}" || rc=1
fi
python3 "$fz" --seeds "${FIXES_REFRESH_FUZZ_SEEDS:-1-4}" --steps "${FIXES_REFRESH_FUZZ_STEPS:-15}" \
    --save "${FIXES_REFRESH_FUZZ_SAVE:-/tmp/fixes-refresh-fuzz-failures}" --shrink-seconds 120 || rc=1
if [ $rc = 0 ]; then echo PASS; else echo FAIL; fi
exit $rc
