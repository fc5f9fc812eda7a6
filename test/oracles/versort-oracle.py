#!/usr/bin/env python3
"""Check fixes_version_cmp (src/parse/versort.c) against `git tag --sort=v:refname`.

    test/oracles/versort-oracle.py [--keep] [-v]

Creates a throw-away repository holding a few hundred tricky tag names (leading
zeros, v1.9/v1.09/v1.010/v1.10, -rc forms, names differing only in case, digit
runs next to separators, very long numbers, non-ASCII and invalid UTF-8 bytes,
plus random names from the same pieces, all from a fixed seed), lists them with
`git tag --sort=v:refname` under an empty git configuration (no system or global
file: no versionsort.suffix, as the server reads repositories) and compares with
test/unit/versort_sort, a driver of the C function built by `make -C test/unit
versort_sort`:

  - sorting the names given in 5 orders (git's reversed, bytewise, 3 shuffles)
    must give git's order: one check per name and per input order;
  - in git's order every pair must compare strictly in that order, both ways
    round (`versort_sort --check`): one check per name, failed when any of its
    pairs with a later name disagrees.

Prints "versort-oracle: N passed, M failed" last and exits 1 on any mismatch,
2 when the set-up fails, 77 (skip) without git.  --keep leaves the repository
(its path is printed); -v prints every mismatch rather than the first 20.
Python 3 standard library only.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNIT = os.path.join(ROOT, "test", "unit")
DRIVER = os.path.join(UNIT, "versort_sort")
SEED = 20240611
SHOWN = 20


def die(msg, status=2):
    print("versort-oracle: " + msg, file=sys.stderr)
    sys.exit(status)


def valid_tag_name(name):
    """True when refs/tags/NAME passes git check-ref-format (conservatively)."""
    if not name or name == b"@" or name.endswith((b".", b"/", b".lock")):
        return False
    if any(c < 0x20 or c == 0x7F or c in b" ~^:?*[\\" for c in name):
        return False
    if b".." in name or b"@{" in name or b"//" in name:
        return False
    return all(part and not part.startswith(b".") and not part.endswith(b".lock")
               for part in name.split(b"/"))


def tag_names():
    """The names, without duplicates; none may be a directory of another."""
    names = []
    # the leading-zero ladder of strverscmp, alone, after a prefix, mid-version
    ladder = [b"000", b"00", b"001", b"01", b"010", b"09", b"0", b"1", b"9", b"10",
              b"007", b"07", b"099", b"0100", b"100"]
    for x in ladder:
        names += [x, b"v" + x, b"v1." + x, b"v1." + x + b".5", b"v" + x + b".1",
                  b"V" + x, b"r" + x + b"a"]
    # the versions of the brief and their neighbours
    names += [b"v1.9", b"v1.09", b"v1.010", b"v1.10", b"v1.01", b"v1.0", b"v1.00",
              b"v1.000", b"v1.001", b"v1.1", b"v1.11", b"v1.90", b"v1.099", b"v1.0.0",
              b"v1.0.0.0", b"v1.0.1", b"v1.0.01", b"v01.0", b"v001.0", b"v10.0",
              b"v2.6.11", b"v2.6.11.1", b"v2.6.12", b"v2.6.12-rc1", b"v3.0", b"v3.9",
              b"v3.10", b"v6.1", b"v6.1.1", b"v6.2", b"v6.10", b"v1.2.3r0", b"v1.2.3r1",
              b"v1.2.4", b"1.2.3", b"1.2.10", b"2", b"v", b"va", b"vb", b"w1", b"V"]
    # release candidates and other suffixes (git has no default suffix list)
    for base in (b"v1.0", b"v1.0.0", b"v2.0", b"v1.10", b"v6.1", b"v1.09"):
        for suffix in (b"", b"-rc1", b"-rc2", b"-rc10", b"-rc01", b"-rc", b"rc1",
                       b".rc1", b"-RC1", b"_rc1", b"-rc1.1", b"-pre1", b"-alpha",
                       b"-beta2", b"+1", b"a", b"-1", b"_1", b"-0", b"-00"):
            names.append(base + suffix)
    # names differing only in case
    names += [b"v1.0-Rc1", b"Va", b"vA", b"VA", b"V1.0", b"V1.0-rc1", b"RC1", b"rc1"]
    # digit runs against separators and letters on both sides of '0'..'9' ("/": below)
    for sep in (b"-", b".", b"_", b"+", b";", b"<", b"=", b">", b"@", b"A", b"a",
                b"z", b"{", b"}", b"\x80", b"\xff"):
        names += [b"v1" + sep + b"2", b"v1" + sep, b"v10" + sep + b"1", b"v0" + sep + b"1",
                  b"v01" + sep + b"1", b"s" + sep + b"1"]
    # very long numbers (a loose ref is a file: keep a component under 255 bytes)
    for n in (19, 20, 21, 39, 40, 64, 100, 200):
        names += [b"v" + b"9" * n, b"v1" + b"0" * n, b"v" + b"0" * n + b"1",
                  b"v" + b"0" * n, b"v1." + b"1" * n + b"2", b"v1." + b"1" * n + b"3"]
    # non-ASCII bytes, valid UTF-8 or not
    names += [b"\xc3\xa9", b"\xc3\xa91.0", b"v1.0-\xc3\xa9", b"v1.0-\xe9", b"v1.0-\xc3",
              b"v\xe21", b"v\xff", b"\xff", b"\xff1", b"v1\xff2", b"v1.\xc3\xa92",
              b"v1.0\xe2\x80\x94rc1", b"\xf0\x9f\x90\x9b1.0", b"v\x801", b"v\xc0\xaf1"]
    # names in directories (only leaves: "rel" itself is no tag)
    names += [b"rel/v1.0", b"rel/v1.01", b"rel/v1.1", b"rel/01", b"rel/1", b"rel0",
              b"rel-1", b"rel.1"]
    # random names of the same pieces
    rnd = random.Random(SEED)
    pieces = [b"0", b"00", b"01", b"007", b"010", b"09", b"1", b"2", b"9", b"10", b"99",
              b"100", b"123456789012345678901234567890", b".", b"-", b"_", b"+", b"rc",
              b"RC", b"a", b"A", b"z", b"\xc3\xa9", b"\xe9", b"\xff"]
    for _ in range(300):
        name = rnd.choice([b"", b"v", b"V", b"v1.", b"r"])
        for _ in range(rnd.randint(1, 6)):
            name += rnd.choice(pieces)
        names.append(name)
    seen, out = set(), []
    for name in names:
        if name not in seen and valid_tag_name(name):
            seen.add(name)
            out.append(name)
    dirs = {n.rsplit(b"/", 1)[0] for n in out if b"/" in n}
    return [n for n in out if n not in dirs]


def run(cmd, env=None, stdin=b""):
    res = subprocess.run(cmd, input=stdin, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if res.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(cmd[:4]), res.returncode,
                                    res.stderr.decode(errors="replace").strip()))
    return res.stdout


def git_order(repo, names):
    """The names as `git tag --sort=v:refname` lists them, in a repository at repo."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(HOME=repo, XDG_CONFIG_HOME=repo, GIT_CONFIG_NOSYSTEM="1",
               GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C",
               GIT_AUTHOR_NAME="o", GIT_AUTHOR_EMAIL="o@example.org",
               GIT_AUTHOR_DATE="1700000000 +0000", GIT_COMMITTER_NAME="o",
               GIT_COMMITTER_EMAIL="o@example.org", GIT_COMMITTER_DATE="1700000000 +0000")
    git = ["git", "-C", repo]
    run(git[:1] + ["init", "-q", repo], env)
    suffixes = subprocess.run(git + ["config", "--get-all", "versionsort.suffix"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    if suffixes:
        die("versionsort.suffix is configured: %r" % suffixes)
    tree = run(git + ["mktree"], env).strip()
    commit = run(git + ["commit-tree", tree.decode(), "-m", "tags"], env).strip()
    run(git + ["update-ref", "--stdin"], env,
        b"".join(b"create refs/tags/" + n + b" " + commit + b"\n" for n in names))
    order = run(git + ["tag", "--sort=v:refname"], env).split(b"\n")
    if order[-1:] == [b""]:
        order.pop()
    if sorted(order) != sorted(names):
        die("git tag lists other names than those created")
    return order


def driver(args, lines):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    out = run([DRIVER] + args, env, b"".join(n + b"\n" for n in lines))
    return out.split(b"\n")[:-1]


def main():
    keep = "--keep" in sys.argv[1:]
    verbose = "-v" in sys.argv[1:]
    if set(sys.argv[1:]) - {"--keep", "-v"}:
        die("usage: versort-oracle.py [--keep] [-v]")
    if shutil.which("git") is None:
        print("versort-oracle: SKIP: no git command")
        return 77
    run(["make", "-s", "-C", UNIT, "versort_sort"])

    names = tag_names()
    repo = tempfile.mkdtemp(prefix="versort-oracle.")
    try:
        want = git_order(repo, names)
    finally:
        if keep:
            print("versort-oracle: repository kept in " + repo)
        else:
            shutil.rmtree(repo)
    version = run(["git", "--version"]).decode().strip()
    print("versort-oracle: %d tag names, %s" % (len(want), version))

    passed = failed = 0
    problems = []
    rnd = random.Random(SEED)
    inputs = [("git's order reversed", want[::-1]), ("bytewise order", sorted(want))]
    for k in range(3):
        shuffled = list(want)
        rnd.shuffle(shuffled)
        inputs.append(("shuffle %d" % (k + 1), shuffled))
    for label, given in inputs:
        got = driver([], given)
        if len(got) != len(want):
            die("the driver printed %d names for %d" % (len(got), len(want)))
        for i, (g, w) in enumerate(zip(got, want)):
            if g == w:
                passed += 1
            else:
                failed += 1
                problems.append("%s: position %d holds %r, git has %r" % (label, i, g, w))

    bad = {}
    for line in driver(["--check"], want):
        i, j = map(int, line.split())
        bad.setdefault(i, []).append(j)
    for i, name in enumerate(want):
        if i in bad:
            failed += 1
            problems.append("%r compares wrongly with %d later names, first %r"
                            % (name, len(bad[i]), want[bad[i][0]]))
        else:
            passed += 1

    for p in problems if verbose else problems[:SHOWN]:
        print("  " + p)
    if len(problems) > SHOWN and not verbose:
        print("  ... %d more (-v shows them)" % (len(problems) - SHOWN))
    print("versort-oracle: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
