#!/usr/bin/env python3
"""test/oracles/files-oracle.py --repo PATH --name NAME [--full PATH] [--maintainers FILE] [--ref REF]
        [--at-ref] [--release-pattern RE]

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
  the issue's text, every changed path of each commit, and of issue 30
  ("subsystems of their time"): a commit is attributed by the MAINTAINERS file
  at the release that contains it (`git show <tag>:FILE`), its patterns read
  against the directories of that tag's tree (`git ls-tree -r -d <tag>`); an
  unreleased commit by REF's; a release whose tree lacks the file by the
  oldest release's that has it.  Releases and the release of a commit by the
  rule of test/oracles/crosscheck.py: tags peeled to a commit reachable from REF, not
  matching (rc|pre|alpha|beta|dev)[0-9]*$, in version order; a commit's release is
  the first whose `git rev-list <tag_i> --not <tag_1> .. <tag_i-1>` holds it.
  fixes_subsystems holds the names of the sections of every release's file
  and REF's.  --at-ref: every commit by REF's file (a database at 1.1 SQL).
- --ref: the history of REF (default HEAD) was loaded; --release-pattern: with the
  release_pattern RE (the releases are the tags RE finds, pre-releases included).

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


def git_numstat(repo, ref="HEAD"):
    """{commit: [(path bytes, added or None, deleted or None)]}, parents {commit: n}."""
    data = git(repo, "log", "--numstat", "--no-renames", "-z", "--format=C%H%x09%P", ref, "--")
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


def git_raw_oids(repo, ref="HEAD"):
    """{(commit, path bytes): (old oid, new oid, old mode, new mode)} of `git log --raw`."""
    data = git(repo, "log", "--raw", "--no-renames", "--no-abbrev", "-z", "--format=C%H", ref, "--")
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


# --- MAINTAINERS, from the rules (not from src/parse/maintainers.c) ---

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


PRERELEASE_RE = re.compile(r"(rc|pre|alpha|beta|dev)[0-9]*$", re.IGNORECASE)
VERSION_RUN_RE = re.compile(r"[0-9]+|[^0-9]+")


def version_key(name):
    """Digit runs as numbers, other runs as strings; a name that runs out first sorts first."""
    return tuple((0, int(r), "") if r[0].isdigit() else (1, 0, r)
                 for r in VERSION_RUN_RE.findall(name)), name


def releases_of(repo, ref, pattern=None):
    """[(tag, commit)] in version order, and {commit: tag} (crosscheck.py's rule)."""
    scope = set(git(repo, "rev-list", ref, "--").decode().split())
    tags = [t for t in git(repo, "for-each-ref", "--format=%(refname:strip=2)",
                           "refs/tags").decode("utf-8", "replace").splitlines() if t]
    rel = []
    for t in tags:
        p = subprocess.run(["git", "-C", repo, "rev-parse", "--verify", "-q", "refs/tags/%s^{commit}" % t],
                           env=ENV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        c = p.stdout.decode().strip()
        ok = re.search(pattern, t) if pattern is not None else not PRERELEASE_RE.search(t)
        if p.returncode == 0 and c in scope and ok:
            rel.append((t, c))
    rel.sort(key=lambda x: version_key(x[0]))
    release = {}
    for i, (t, c) in enumerate(rel):
        for m in git(repo, "rev-list", c, "--not", *[x[1] for x in rel[:i]], "--").decode().split():
            release.setdefault(m, t)
    return rel, release


def maintainers_at(repo, rev, path):
    """(sections, dirs) of the file at rev, or None when rev's tree lacks it."""
    p = subprocess.run(["git", "-C", repo, "cat-file", "-t", "%s:%s" % (rev, path)], env=ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if p.returncode != 0 or p.stdout.strip() != b"blob":
        return None
    data = git(repo, "cat-file", "blob", "%s:%s" % (rev, path))
    if b"\0" in data:
        return None
    dirs = {pg_decode(d) for d in git(repo, "ls-tree", "-r", "-d", "-z", "--name-only",
                                         rev).split(b"\0") if d}
    return parse_maintainers(pg_decode(data)), dirs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--full")
    ap.add_argument("--maintainers")
    ap.add_argument("--ref", default="HEAD")
    ap.add_argument("--at-ref", action="store_true")
    ap.add_argument("--release-pattern")
    a = ap.parse_args()
    name = a.name.replace("'", "''")
    bad = []

    rows, parents = git_numstat(a.full or a.repo, a.ref)
    if a.full:
        missing = {l[1:].decode() for l in git(a.repo, "rev-list", "--objects", "--all",
                                                "--missing=print").split() if l.startswith(b"?")}
        raw = git_raw_oids(a.full, a.ref)
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
        # the versions: REF's, and each release's (the oldest release's with the file when
        # its tree lacks it, REF's when none has it)
        at_ref = maintainers_at(a.repo, a.ref, a.maintainers)
        rel, release = ([], {}) if a.at_ref else releases_of(a.repo, a.ref, a.release_pattern)
        version = {None: at_ref}
        first = None
        for t, c in rel:
            version[t] = maintainers_at(a.repo, c, a.maintainers)
            if version[t] is not None and first is None:
                first = version[t]
        for t, _ in rel:
            if version[t] is None:
                version[t] = first or at_ref
        cache = {}
        want_s = set()
        for c, rs in rows.items():
            if parents[c] > 1:
                continue
            t = release.get(c)
            sections, dirs = version[t]
            for path, _, _ in rs:
                p = pg_decode(path)
                key = (id(version[t]), p)
                if key not in cache:
                    cache[key] = sections_of(sections, dirs, p)
                for s in cache[key]:
                    want_s.add((c, s))
        all_names = {n for v in version.values() for n, _ in v[0]}
        got_s = {(cid, s) for cid, s in psql(
            "SELECT c.commit_id, s.name FROM fixes_commit_subsystems cs "
            "JOIN fixes_commits c USING (repository_id, commit_idx) "
            "JOIN fixes_subsystems s USING (repository_id, subsystem_id) "
            "JOIN fixes_repositories r USING (repository_id) WHERE r.name = '%s'" % name)}
        names = {s for (s,) in psql("SELECT s.name FROM fixes_subsystems s JOIN fixes_repositories r "
                                    "USING (repository_id) WHERE r.name = '%s'" % name)}
        if names != all_names:
            bad.append("subsystems %r, expected %r" % (sorted(names), sorted(all_names)))
        for x in sorted(want_s - got_s)[:10]:
            bad.append("missing subsystem: %r" % (x,))
        for x in sorted(got_s - want_s)[:10]:
            bad.append("extra subsystem: %r" % (x,))
        print("fixes_commit_subsystems: %d rows, oracle: %d rows, %d section names, "
              "%d releases, %d (version, path) pairs"
              % (len(got_s), len(want_s), len(all_names), len(rel), len(cache)))

    for b in bad:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
