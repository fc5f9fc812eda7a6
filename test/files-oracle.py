#!/usr/bin/env python3
"""test/files-oracle.py --repo PATH --name NAME [--full PATH] [--maintainers FILE]

Checks what fixes_load(files => true[, maintainers => FILE]) stored for the
repository loaded as NAME (database from PGDATABASE etc., through psql)
against git's command line, row for row:

- fixes_commit_files equals `git log --numstat --no-renames -z` of the repository,
  paths decoded as the extension decodes them (UTF-8; each invalid byte is U+FFFD);
- fixes_commits.files/added/deleted are the count and sums of those rows (NULL
  for merges; added/deleted sum the known counts);
- with --full: PATH is a partial clone of the full repository FULL.  git would
  fetch the missing blobs, so the rows come from FULL, and a row whose blobs
  (either side) are missing from PATH (`git rev-list --missing=print`, which
  fetches nothing) has NULL counts;
- with --maintainers: fixes_commit_subsystems against an independent
  implementation of the rules of issue 14 (get_maintainer.pl's), written from
  the issue's text: the MAINTAINERS file at HEAD (`git show`), the directories
  of HEAD's tree (`git ls-tree -r -d`), every changed path of each commit.

Exit 0 when everything matches; otherwise prints the first differences, exit 1.
python3 standard library only.
"""
import argparse
import re
import subprocess
import sys

ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "LC_ALL": "C",
       "PATH": "/usr/bin:/bin", "GIT_TERMINAL_PROMPT": "0"}


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), env=ENV, check=True,
                          stdout=subprocess.PIPE).stdout


def psql(sql):
    out = subprocess.run(["psql", "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                          "-c", sql], check=True, stdout=subprocess.PIPE).stdout
    return [l.split("\t") for l in out.decode("utf-8").split("\n") if l]


def pg_decode(b):
    """bytes as the extension decodes them: valid UTF-8 kept, each invalid byte U+FFFD."""
    out = []
    i = 0
    while i < len(b):
        try:
            out.append(b[i:].decode("utf-8"))
            break
        except UnicodeDecodeError as e:
            out.append(b[i:i + e.start].decode("utf-8"))
            out.append("\ufffd")
            i += e.start + 1
    return "".join(out)


NUMSTAT = re.compile(rb"^(\d+|-)\t(\d+|-)\t(.*)$", re.S)
HEADER = re.compile(rb"^\n*C([0-9a-f]{40})\n*(.*)$", re.S)


def git_numstat(repo):
    """{commit: [(path bytes, added or None, deleted or None)]}, parents {commit: n}."""
    data = git(repo, "log", "--numstat", "--no-renames", "-z", "--format=C%H%x09%P")
    rows, parents, cur = {}, {}, None
    for tok in data.split(b"\0"):
        tok = tok.lstrip(b"\n")
        m = NUMSTAT.match(tok) if cur is not None else None
        if m is None:
            h = re.match(rb"^\n*C([0-9a-f]{40})\t([0-9a-f ]*)\n*(.*)$", tok, re.S)
            if h is None:
                if tok.strip(b"\n"):
                    raise SystemExit("unparsed git output: %r" % tok[:80])
                continue
            cur = h.group(1).decode()
            parents[cur] = len(h.group(2).split())
            rows[cur] = []
            tok = h.group(3)
            if not tok:
                continue
            m = NUMSTAT.match(tok)
        a, d, path = m.groups()
        rows[cur].append((path, None if a == b"-" else int(a), None if d == b"-" else int(d)))
    return rows, parents


def git_raw_oids(repo):
    """{(commit, path bytes): (old oid, new oid, old mode, new mode)} of `git log --raw`."""
    data = git(repo, "log", "--raw", "--no-renames", "--no-abbrev", "-z", "--format=C%H")
    out, cur = {}, None
    toks = data.split(b"\0")
    i = 0
    while i < len(toks):
        tok = toks[i].lstrip(b"\n")
        i += 1
        m = re.match(rb"^C([0-9a-f]{40})\n*(.*)$", tok, re.S)
        if m and not tok.startswith(b":"):
            cur = m.group(1).decode()
            tok = m.group(2)
            if not tok:
                continue
        if tok.startswith(b":"):
            om, nm, oo, no, _ = tok[1:].split(b" ")
            out[(cur, toks[i])] = (oo.decode(), no.decode(), om.decode(), nm.decode())
            i += 1
    return out


# --- MAINTAINERS, from the rules (not from src/maintainers.c) ---

def parse_maintainers(text):
    sections = []
    for block in re.split(r"\n[ \t\r\f\v]*\n", text):
        lines = [l.rstrip() for l in block.split("\n")]
        lines = [l for l in lines if l]
        if not lines:
            continue
        field = re.compile(r"^([A-Z]):\s*(.*)$")
        if field.match(lines[0]):
            continue                    # no name
        name = lines[0]
        pats = []
        for l in lines[1:]:
            m = field.match(l)
            if m and m.group(1) in "FXN":
                pats.append((m.group(1), m.group(2)))
        if any(k in "FN" for k, _ in pats):
            sections.append((name, pats))
    return sections


def glob_regex(p):
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in p)


def f_match(pat, dirs, path):
    """(matches, rank) of an F:/X: pattern for path."""
    is_dir = pat.endswith("/") or ("*" not in pat and "?" not in pat and pat in dirs)
    if is_dir and not pat.endswith("/"):
        pat += "/"
    if not re.match(glob_regex(pat), path, re.S):
        return False, None
    if not is_dir and path.count("/") != pat.count("/"):
        return False, None
    lit = re.split(r"[*?]", pat, maxsplit=1)[0]
    return True, (lit.count("/"), len(lit), 1)


def rank_key(r):
    # F: (slashes, length); N: above (0, 0) and below (0, 1)
    slashes, length, kind = r
    return (slashes, length * 2 + (1 if kind == 2 else 0))


def sections_of(sections, dirs, path):
    hits = {}
    for i, (name, pats) in enumerate(sections):
        ranks = []
        for kind, p in pats:
            if kind == "F":
                ok, rank = f_match(p, dirs, path)
                if ok:
                    ranks.append(rank_key(rank))
            elif kind == "N":
                try:
                    if re.search(p, path):
                        ranks.append(rank_key((0, 0, 2)))
                except re.error:
                    pass
        if ranks and not any(k == "X" and f_match(p, dirs, path)[0] for k, p in pats):
            hits[i] = max(ranks)
    if not hits:
        return set()
    top = max(hits.values())
    return {sections[i][0] for i, r in hits.items() if r == top}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--full")
    ap.add_argument("--maintainers")
    a = ap.parse_args()
    name = a.name.replace("'", "''")
    bad = []

    rows, parents = git_numstat(a.full or a.repo)
    if a.full:
        missing = {l[1:].decode() for l in git(a.repo, "rev-list", "--objects", "--all",
                                                "--missing=print").split() if l.startswith(b"?")}
        raw = git_raw_oids(a.full)
        for c, rs in rows.items():
            new = []
            for path, ad, de in rs:
                oo, no, om, nm = raw[(c, path)]
                gone = (om != "160000" and oo in missing) or (nm != "160000" and no in missing)
                new.append((path, None, None) if gone else (path, ad, de))
            rows[c] = new

    want = set()
    for c, rs in rows.items():
        if parents[c] > 1:
            continue
        for path, ad, de in rs:
            want.add((c, pg_decode(path), ad, de))
    got = set()
    for cid, path_hex, ad, de in psql(
            "SELECT c.commit_id, encode(convert_to(f.path, 'UTF8'), 'hex'), "
            "coalesce(f.added::text, '-'), coalesce(f.deleted::text, '-') "
            "FROM fixes_commit_files f JOIN fixes_commits c USING (repository_id, commit_idx) "
            "JOIN fixes_repositories r USING (repository_id) WHERE r.name = '%s'" % name):
        got.add((cid, bytes.fromhex(path_hex).decode("utf-8"),
                 None if ad == "-" else int(ad), None if de == "-" else int(de)))
    for x in sorted(want - got, key=repr)[:10]:
        bad.append("missing row: %r" % (x,))
    for x in sorted(got - want, key=repr)[:10]:
        bad.append("extra row: %r" % (x,))
    print("fixes_commit_files: %d rows, git: %d rows, %d commits" % (len(got), len(want), len(rows)))

    # the sums of fixes_commits
    sums = {}
    for cid, files, ad, de in psql(
            "SELECT c.commit_id, coalesce(c.files::text, 'N'), coalesce(c.added::text, 'N'), "
            "coalesce(c.deleted::text, 'N') FROM fixes_commits c "
            "JOIN fixes_repositories r USING (repository_id) WHERE r.name = '%s'" % name):
        sums[cid] = (files, ad, de)
    for c, rs in rows.items():
        if parents[c] > 1:
            exp = ("N", "N", "N")
        else:
            exp = (str(len(rs)), str(sum(r[1] or 0 for r in rs)), str(sum(r[2] or 0 for r in rs)))
        if sums.get(c) != exp:
            bad.append("sums of %s: %r, expected %r" % (c, sums.get(c), exp))
            if len(bad) > 20:
                break

    if a.maintainers:
        text = pg_decode(git(a.repo, "show", "HEAD:" + a.maintainers))
        dirs = {pg_decode(d) for d in git(a.repo, "ls-tree", "-r", "-d", "-z", "--name-only",
                                             "HEAD").split(b"\0") if d}
        sections = parse_maintainers(text)
        cache = {}
        want_s = set()
        for c, rs in rows.items():
            if parents[c] > 1:
                continue
            for path, _, _ in rs:
                p = pg_decode(path)
                if p not in cache:
                    cache[p] = sections_of(sections, dirs, p)
                for s in cache[p]:
                    want_s.add((c, s))
        got_s = {(cid, s) for cid, s in psql(
            "SELECT c.commit_id, s.name FROM fixes_commit_subsystems cs "
            "JOIN fixes_commits c USING (repository_id, commit_idx) "
            "JOIN fixes_subsystems s USING (repository_id, subsystem_id) "
            "JOIN fixes_repositories r USING (repository_id) WHERE r.name = '%s'" % name)}
        names = {s for (s,) in psql("SELECT s.name FROM fixes_subsystems s JOIN fixes_repositories r "
                                    "USING (repository_id) WHERE r.name = '%s'" % name)}
        if names != {n for n, _ in sections}:
            bad.append("subsystems %r, expected %r" % (sorted(names), sorted(n for n, _ in sections)))
        for x in sorted(want_s - got_s)[:10]:
            bad.append("missing subsystem: %r" % (x,))
        for x in sorted(got_s - want_s)[:10]:
            bad.append("extra subsystem: %r" % (x,))
        print("fixes_commit_subsystems: %d rows, oracle: %d rows, %d sections, %d paths"
              % (len(got_s), len(want_s), len(sections), len(cache)))

    for b in bad:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
