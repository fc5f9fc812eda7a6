#!/usr/bin/env python3
"""doc_examples.py - run the SQL examples of the manual, and check its links.

    doc_examples.py list  ROOT                 print every example and what the test does with it
    doc_examples.py run   ROOT WORKDIR         run them (psql on PGHOST/PGPORT/PGUSER, as set)
    doc_examples.py links ROOT                 check the manual's relative links and anchors

The pages are ROOT/README.md and ROOT/docs/*.md. The conventions (test/t/README.md,
"doc-examples.sh") in short:

- every ```sql fenced block is an example; a page's examples run in order, in a database of
  the page's own (t_doc_PAGE, created with the extension), with psql -X -v ON_ERROR_STOP=1,
  from WORKDIR; an error fails the test;
- a ```text block that follows a ```sql block with only blank lines between is its output:
  what psql prints (aligned, with headers) for the block, compared line by line, trailing
  blanks ignored;
- an HTML comment `<!-- example: WORDS -->` just before a block (blank lines allowed) says how
  to run it; WORDS are shell words:
    skip="REASON"      the block is not run (counted and printed as skipped, with the reason);
    repo=PATH=FIXTURE  PATH, as the examples write it (/srv/git/linux.git), stands for a copy of
                       FIXTURE: a repository of $FIXES_FIXTURES (stable.git, article.git, ...) or
                       `sample` (scripts/make-sample-repo's). The copy is WORKDIR/PATH (so its last
                       component, the default name, is PATH's), and PATH is replaced by it from
                       this block to the end of the page;
    sub=TEXT=>VALUE    TEXT is replaced by VALUE from this block to the end of the page; a VALUE
                       @REPO:LABEL[:N][:upper] is the id of LABEL in $FIXES_FIXTURES/ids.tsv (its
                       first N hex digits with :N, in upper case with :upper);
    setup="SQL"        SQL (rewritten as the block is) runs before the block, e.g. the load that a
                       page's example assumes was made; not shown on the page;
    fresh              the block starts a new database for the page;
    bare               the same, without the extension (for a block that creates it).
  A block run with a repo=, sub= or setup= in force is counted as "marked" (it stands for a real
  repository); the summary line gives ran, skipped, marked and checked outputs.

Standard library only.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

FENCE = re.compile(r"^\s*```(\S*)\s*$")
MARK = re.compile(r"^<!--\s*example:(.*?)-->\s*$")


class Example:
    def __init__(self, page, line, sql):
        self.page, self.line, self.sql = page, line, sql
        self.words = []        # directives of the marker just before it
        self.output = None     # the ```text block right after it, or None
        self.output_line = None


def pages(root):
    out = [os.path.join(root, "README.md")]
    out += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    return out


def extract(path):
    """The ```sql blocks of a page, with their marker and output block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    examples = []
    pending = []           # words of the last marker, until a block takes them
    last_sql = None        # the sql block that a text block may follow
    i = 0
    while i < len(lines):
        line = lines[i]
        m = MARK.match(line.strip())
        if m:
            pending = shlex.split(m.group(1))
            last_sql = None
            i += 1
            continue
        f = FENCE.match(line)
        if f:
            lang = f.group(1)
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                j += 1
            if j >= len(lines):
                raise SystemExit("%s:%d: unterminated ``` block" % (path, i + 1))
            indent = len(line) - len(line.lstrip())
            body = "\n".join(l[indent:] if l[:indent].isspace() else l
                             for l in lines[i + 1:j]) + "\n"
            if lang == "sql":
                ex = Example(path, i + 1, body)
                ex.words = pending
                pending = []
                examples.append(ex)
                last_sql = ex
            elif lang == "text" and last_sql is not None:
                last_sql.output = body
                last_sql.output_line = i + 1
                last_sql = None
            else:
                last_sql = None
                pending = []
            i = j + 1
            continue
        if line.strip():
            last_sql = None
            # a marker belongs to the block right after it (blank lines only between)
            pending = []
        i += 1
    return examples


def parse_words(ex):
    skip, repos, subs, fresh, setup, bare = None, [], [], False, [], False
    for w in ex.words:
        if w.startswith("setup="):
            setup.append(w[6:])
        elif w == "bare":
            bare = fresh = True
        elif w.startswith("skip="):
            skip = w[5:]
        elif w.startswith("repo="):
            path, _, fixture = w[5:].rpartition("=")
            if not path or not fixture:
                raise SystemExit("%s:%d: bad marker word %r" % (ex.page, ex.line, w))
            repos.append((path, fixture))
        elif w.startswith("sub="):
            text, sep, value = w[4:].partition("=>")
            if not sep or not text:
                raise SystemExit("%s:%d: bad marker word %r" % (ex.page, ex.line, w))
            subs.append((text, value))
        elif w == "fresh":
            fresh = True
        else:
            raise SystemExit("%s:%d: unknown marker word %r" % (ex.page, ex.line, w))
    if skip is not None and not skip.strip():
        raise SystemExit("%s:%d: skip= needs a reason" % (ex.page, ex.line))
    return skip, repos, subs, fresh, setup, bare


def rel(root, path):
    return os.path.relpath(path, root)


def cmd_list(root):
    for p in pages(root):
        for ex in extract(p):
            skip, repos, subs, fresh, setup, bare = parse_words(ex)
            what = "skip: " + skip if skip is not None else "run"
            if repos or subs or setup:
                what += " (" + ", ".join(["%s as %s" % r for r in repos] +
                                         ["%s -> %s" % s for s in subs] +
                                         ["setup: " + s for s in setup]) + ")"
            if fresh:
                what += ", new database" + (" without the extension" if bare else "")
            if ex.output is not None:
                what += ", output checked"
            print("%s:%d: %s" % (rel(root, p), ex.line, what))


def load_ids(fixtures):
    ids = {}
    path = os.path.join(fixtures, "ids.tsv")
    for line in open(path, encoding="utf-8"):
        parts = line.rstrip("\n").split("\t")
        if len(parts) >= 3:
            ids[(parts[0], parts[1])] = parts[2]
    return ids


def psql(db, args, cwd, **kw):
    return subprocess.run(["psql", "-X", "-d", db] + args, cwd=cwd, text=True,
                          capture_output=True, **kw)


def admin(sql, cwd):
    r = psql("postgres", ["-q", "-v", "ON_ERROR_STOP=1", "-c", sql], cwd)
    if r.returncode != 0:
        raise SystemExit("doc-examples: %s: %s" % (sql, r.stderr.strip()))


def norm(text):
    lines = [l.rstrip() for l in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def cmd_run(root, work):
    fixtures = os.environ.get("FIXES_FIXTURES", "/tmp/fixes-fixtures")
    ids = load_ids(fixtures)
    counts = dict(ran=0, skipped=0, marked=0, outputs=0, failed=0)
    sample = None
    made = set()
    dbs = []
    for p in pages(root):
        page = rel(root, p)
        stem = re.sub(r"[^a-z0-9]+", "_", os.path.splitext(page)[0].lower())
        n_db = 0
        db = None
        repos, subs = {}, []
        for ex in extract(p):
            skip, new_repos, new_subs, fresh, setup, bare = parse_words(ex)
            where = "%s:%d" % (page, ex.line)
            if skip is not None:
                counts["skipped"] += 1
                print("skip %s: %s" % (where, skip))
                continue
            for path, fixture in new_repos:
                dest = os.path.join(work, fixture.replace(".git", ""), path.lstrip("/"))
                if dest not in made:
                    if fixture == "sample":
                        if sample is None:
                            sample = os.path.join(work, "cache", "sample.git")
                            subprocess.run([sys.executable,
                                            os.path.join(root, "scripts", "make-sample-repo"),
                                            sample], check=True, stdout=subprocess.DEVNULL)
                        src = sample
                    else:
                        src = os.path.join(fixtures, fixture)
                    if not os.path.isdir(src):
                        raise SystemExit("%s: no fixture %s" % (where, src))
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    shutil.copytree(src, dest, symlinks=True)
                    made.add(dest)
                repos[path] = dest
            for text, value in new_subs:
                m = re.match(r"^@([^:]+):([^:]+)(?::(\d+))?(:upper)?$", value)
                if m:
                    key = (m.group(1), m.group(2))
                    if key not in ids:
                        raise SystemExit("%s: no id for %s:%s in ids.tsv" % (where, *key))
                    value = ids[key][:int(m.group(3))] if m.group(3) else ids[key]
                    if m.group(4):
                        value = value.upper()
                subs.append((text, value))
            if db is None or fresh:
                n_db += 1
                db = "t_doc_%s_%d" % (stem, n_db)
                admin("DROP DATABASE IF EXISTS %s" % db, work)
                admin("CREATE DATABASE %s" % db, work)
                r = psql(db, ["-q", "-c", "SELECT" if bare else "CREATE EXTENSION fixes"], work)
                if r.returncode != 0:
                    raise SystemExit("doc-examples: CREATE EXTENSION: " + r.stderr)
                dbs.append(db)
            def rewrite(sql):
                # the longest first, so that a path is not cut by a shorter one it starts with
                for path in sorted(repos, key=len, reverse=True):
                    sql = sql.replace(path, repos[path])
                for text, value in subs:
                    sql = sql.replace(text, value)
                return sql
            sql = rewrite(ex.sql)
            subprocess.run(["chmod", "-R", "a+rX", work], check=True)
            for s in setup:
                r = psql(db, ["-q", "-v", "ON_ERROR_STOP=1", "-c", rewrite(s)], work)
                if r.returncode != 0:
                    raise SystemExit("%s: the marker's setup failed: %s\n%s"
                                     % (where, rewrite(s), r.stderr))
            r = psql(db, ["-v", "ON_ERROR_STOP=1", "-P", "pager=off", "-f", "-"], work,
                     input=sql)
            counts["ran"] += 1
            if repos or subs or setup:
                counts["marked"] += 1
            ok = r.returncode == 0
            if not ok:
                print("FAIL %s: the example ends in an error (psql exit %d)" % (where, r.returncode))
                print("---- the block as run:\n" + sql.rstrip())
                print("---- psql's errors:\n" + r.stderr.rstrip())
            elif ex.output is not None:
                counts["outputs"] += 1
                want, got = norm(ex.output), norm(r.stdout)
                if want != got:
                    ok = False
                    print("FAIL %s: the output differs from the page's block at line %d"
                          % (where, ex.output_line))
                    import difflib
                    for d in difflib.unified_diff(want, got, "page", "psql", lineterm=""):
                        print(d)
            if os.environ.get("FIXES_DOC_SHOW"):
                print(r.stdout.rstrip())
            if ok:
                print("ok   %s%s" % (where, " (output checked)" if ex.output is not None else ""))
            else:
                counts["failed"] += 1
    for db in dbs if counts["failed"] == 0 else []:
        admin("DROP DATABASE IF EXISTS %s" % db, work)
    print("doc-examples: %(ran)d examples ran (%(marked)d on fixtures standing for a real "
          "repository, %(outputs)d with their output checked), %(skipped)d skipped, "
          "%(failed)d failed" % counts)
    return 1 if counts["failed"] else 0


def slug(heading):
    """GitHub's anchor of a heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def anchors(path):
    out, fence = set(), False
    seen = {}
    for line in open(path, encoding="utf-8"):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        m = None if fence else re.match(r"^#+\s+(.*?)\s*$", line)
        if m:
            s = slug(m.group(1))
            k = seen.get(s, 0)
            out.add(s if k == 0 else "%s-%d" % (s, k))
            seen[s] = k + 1
    return out


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def cmd_links(root):
    files = pages(root) + [os.path.join(root, f) for f in
                           ("CHANGELOG.md", "src/README.md", "bench/README.md",
                            "test/t/README.md", "grafana/README.md")]
    bad = 0
    for f in files:
        if not os.path.exists(f):
            continue
        fence = False
        for n, line in enumerate(open(f, encoding="utf-8"), 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            if fence:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                base, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(f), base)) if base else f
                if not os.path.exists(dest):
                    print("FAIL %s:%d: link to %s: no such file" % (rel(root, f), n, target))
                    bad += 1
                elif anchor and (not dest.endswith(".md") or anchor not in anchors(dest)):
                    print("FAIL %s:%d: link to %s: no such heading in %s"
                          % (rel(root, f), n, target, rel(root, dest)))
                    bad += 1
    readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    linked = {os.path.normpath(t.partition("#")[0]) for t in LINK.findall(readme)}
    for p in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        if rel(root, p) not in linked:
            print("FAIL README.md links no %s" % rel(root, p))
            bad += 1
    print("doc-links: %d links of %d files checked, %d broken; every page of docs/ linked "
          "from README.md: %s" % (sum(len(LINK.findall(open(f, encoding="utf-8").read()))
                                     for f in files if os.path.exists(f)), len(files), bad,
                                 "yes" if not any(rel(root, p) not in linked for p in
                                                   glob.glob(os.path.join(root, "docs", "*.md")))
                                 else "no"))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "list":
        cmd_list(argv[1])
        return 0
    if len(argv) >= 3 and argv[0] == "run":
        return cmd_run(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == "links":
        return cmd_links(argv[1])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
