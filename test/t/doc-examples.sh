#!/bin/bash
# doc-examples.sh — every SQL example of the manual (README.md and docs/*.md) runs, and shows
# what it prints: test/lib/doc_examples.py extracts each ```sql block, runs the blocks of a page
# in order in a database of the page's own (t_doc_PAGE_N), and fails on an error, and on a
# ```text block right after a block (its output on the page) that psql no longer prints.
# An example written for a real repository (/srv/git/linux.git) carries a marker,
# <!-- example: repo=/srv/git/linux.git=FIXTURE sub=TEXT=>VALUE -->, and runs on a copy of a
# fixture repository of the same shape ($FIXES_FIXTURES, or scripts/make-sample-repo's
# history); one that must not run says <!-- example: skip="REASON" -->. The conventions are
# in test/t/README.md. It also checks the manual's links: every relative link and anchor of
# README.md, docs/, CHANGELOG.md, src/README.md, bench/README.md, test/t/README.md and
# grafana/README.md resolves, and README.md links every page of docs/.
# Exit 0 pass, 1 fail, 77 skip (no fixtures).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

export PGTZ=UTC PGDATESTYLE=ISO,MDY
need_fixture stable.git
need_fixture ids.tsv

work=$(mktemp -d /tmp/fixes-doc-examples.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

rc=0
python3 "$top/test/lib/doc_examples.py" links "$top" || rc=1
python3 "$top/test/lib/doc_examples.py" run "$top" "$work" || rc=1
if [ $rc != 0 ]; then
    echo "FAIL (the databases t_doc_* are kept for inspection)"
    exit 1
fi
echo PASS
