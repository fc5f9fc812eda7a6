#!/usr/bin/env python3
"""trailers-oracle — compares src/parse/trailers.c with git's own trailer parsing.

    test/oracles/trailers-oracle.py [--count N] [--seed S] [--show K]
    test/oracles/trailers-oracle.py REPO [--show K]

The oracle is `git log --format='%(trailers:only,unfold)'` (with --encoding=none, so that git
parses the bytes as stored, as the C parser does). The first form writes every tricky case
below plus N random messages (default 3000) as commit objects into a throw-away repository;
the second compares every commit reachable from any ref of an existing repository. Each
message goes through test/unit/trailers_cli (built with `make -C test/unit trailers_cli`),
which prints the lines that git prints. Prints the first K mismatches (default 10), then
"trailers-oracle: N passed, M failed"; exits 1 on any mismatch, 2 on a usage or set-up error.
Needs python3 (stdlib only), git and a C compiler.
"""
import argparse, os, random, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
UNIT = os.path.join(os.path.dirname(HERE), 'unit')
CLI = os.path.join(UNIT, 'trailers_cli')
EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
CUT = b'# ------------------------ >8 ------------------------'
H40 = b'0123456789abcdef0123456789abcdef01234567'

# Messages that exercise one rule each (git's results are in the unit tests too).
TRICKY = [
    b'', b'\n', b'subject only', b'subject only\n', b'Key: value\n', b'Key: value',
    b'subj\n\nKey: value\n', b'subj\n\nKey: value', b'subj\n\n\nKey: value\n\n\n',
    b'\n\n  \n\t\nsubj\n\nKey: v\n', b'\n\nKey: v\n\nOther: w\n',
    b'\n \n\nKey: v\n', b'\n \t', b'subj\n\nA: b\n \t',
    b'subj\n\nA: b\nConflicts:\n\tx.c\n\n\ty.c\n',
    b'subj\r\n\r\nKey: value\r\n', b'subj\r\n\r\nA: b\r\n  c\r\n\r\n',
    b'subj\n\nKey Name: v\n', b'subj\n\nKey : v\n', b'subj\n\nKey\t: v\n', b'subj\n\nKey:\n',
    b'subj\n\nKey:   \n', b'subj\n\n: v\n', b'subj\n\n-: v\n', b'subj\n\nK_y: v\n',
    b'subj\n\nKey: a\n b\n\tc\n', b'subj\n\nKey:\n  v\n', b'subj\n\nKey: a  \n  b  \n',
    b'subj\n\nKey: a\n\n  b\n', b'subj\n\nKey: a\n  \n', b'subj\n\nKey: a\n\r\n',
    b'subj\n\nKey: a\n\n  \n', b'subj\n\n b: c\nKey: a\n', b'subj\n\nnot a trailer\n c\nK: v\n',
    b'subj\n\nbody\nSigned-off-by: A <a@b>\n',
    b'subj\n\nbody\nbody\nbody\nSigned-off-by: A <a@b>\n',
    b'subj\n\nbody\nbody\nbody\nbody\nSigned-off-by: A <a@b>\n',
    b'subj\n\nb\nb\nb\nb\nb\nb\nb\nb\nSigned-off-by: A\nK: v\nL: w\n',
    b'subj\n\nb\nb\nb\nb\nb\nb\nb\nb\nb\nSigned-off-by: A\nK: v\nL: w\n',
    b'subj\n\nbody\nSigned-off-by:A\n', b'subj\n\nbody\nsigned-off-by: A\n',
    b'subj\n\nbody\n(cherry picked from commit ' + H40 + b')\n',
    b'subj\n\n(cherry picked from commit ' + H40 + b')\nK: v\n',
    b'subj\n\nK: v\n(cherry picked from commit ' + H40 + b')\n  more\n',
    b'subj\n\nbody\n---\nA: b\n', b'subj\n\nA: b\n---\nC: d\n', b'subj\n\nA: b\n---\n\nC: d\n',
    b'subj\n\nA: b\n--- a/x\n', b'subj\n\nA: b\n# comment\nC: d\n', b'subj\n\nA: b\n#\n  c\n',
    b'subj\n\nA: b\n# c\n', b'subj\n\nA: b\n\n# c\n', b'# c\n\nA: b\n', b'#subj\nA: b\n',
    b'subj\n#c\n\nA: b\n', b'subj\n\nA: b\nConflicts:\n\tx.c\n\ty.c\n',
    b'subj\n\nA: b\n\nConflicts:\n\tx.c\n', b'subj\n\nA: b\nConflicts:\n\tx.c\nC: d\n',
    b'subj\n\nA: b\n' + CUT + b'\nC: d\n', b'subj\n\nA: b\n\n' + CUT + b'\nC: d\n',
    CUT + b'\nA: b\n', b'subj\n\nA: b\n ' + CUT + b'\n',
    b'subj\n\nA: b\0\nC: d\n', b'subj\n\nA: b\nC: d\0', b'\0subj\n\nA: b\n',
    b'subj\n\nA: \xff\xfe\n', b'subj\n\n\xc3\xa9: v\n', b'subj\n\nA: b\x0cc\n',
    b'subj\n\nA: b\n\x0bc\n', b'subj\n\nA: b\n\x0c\n', b'subj\n\nA: b\rC: d\n',
    b'subj\n\nA: ' + b'x' * 100000 + b'\n', b'subj\n\n' + b'K' * 5000 + b': v\n',
    b'subj\n\n' + b'A: b\n' * 3000,
    b'subj\n\npara\n\npara\n\nA: b\n', b'subj\n\nA: b\n\npara\n',
    b'subj\n\nFixes: 1c441e921201 ("epoll: use freezable blocking call")\n'
    b'Cc: stable@vger.kernel.org # 3.13+\nSigned-off-by: A U Thor <a@example.org>\n',
    b'subj\n\n    Indented: no\n', b'subj\n\nhttp://example.org\n', b'subj\n\nA:b:c\n',
]

KEYS = [b'Signed-off-by', b'Fixes', b'Reviewed-by', b'Cc', b'Key', b'a-b', b'-', b'9', b'K2',
        b'Key Name', b'Key ', b'Key\t', b'Key  ', b'\xc3\xa9', b'K_y', b'K.y', b'', b' Key',
        b'\tKey', b'(Key)', b'#Key', b'Key\x0b', b'http']
VALUES = [b'', b' ', b' value', b'value', b' A U Thor <a@example.org>', b'  two  spaces  ',
          b' 1c441e921201 ("epoll: use freezable blocking call")', b' \xff\xfe invalid',
          b' caf\xc3\xa9', b' x\ry', b'\t tab', b' a:b', b' trailing\t', b' \x0c\x0b',
          b' ' + b'long' * 300]
WORDS = [b'fix', b'the', b'race', b'in', b'epoll', b'Signed-off-by:', b'foo:', b'a', b'(cherry',
         b'commit', b'---', b'#', b'\xc3\xa9t\xc3\xa9', b'\xff', b'x\ty', b'"quoted"']


def random_message(rnd):
    """A random message built from the pieces git's rules turn on."""
    def text_line():
        return b' '.join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 6)))

    def blank_line():
        return rnd.choice([b'', b'', b'', b' ', b'\t', b'\r', b'  \t', b'\x0c'])

    def block_line():
        k = rnd.random()
        if k < 0.45:
            return rnd.choice(KEYS) + rnd.choice([b':', b':', b':', b'::', b' :', b'=']) + \
                rnd.choice(VALUES)
        if k < 0.55:
            return rnd.choice([b' ', b'  ', b'\t', b'\r', b' \t']) + text_line()
        if k < 0.62:
            return rnd.choice([b'Signed-off-by: A <a@b>', b'Signed-off-by:A', b'Signed-off-by: ',
                               b'(cherry picked from commit ' + H40 + b')',
                               b'(cherry picked from commit x', b'(cherry picked from commit'])
        if k < 0.67:
            return b'#' + text_line()
        if k < 0.70:
            return rnd.choice([b'---', b'--- a/file', b'-- ', CUT, b'Conflicts:', b'\tpath.c'])
        if k < 0.73:
            return blank_line()
        return text_line()

    lines = []
    for _ in range(rnd.choice([0, 0, 0, 1, 2])):
        lines.append(blank_line())
    if rnd.random() < 0.9:
        for _ in range(rnd.choice([1, 1, 1, 2, 3])):
            lines.append(text_line() if rnd.random() < 0.8 else block_line())
    for _ in range(rnd.choice([0, 0, 1, 1, 2, 3])):
        lines.append(blank_line())
        for _ in range(rnd.randint(1, 4)):
            lines.append(text_line())
    if rnd.random() < 0.85:
        lines.append(blank_line())
        if rnd.random() < 0.3:
            # around the 25% rule: one generated line, t trailers, n others
            t = rnd.randint(0, 3)
            n = rnd.randint(max(0, 3 * (t + 1) - 2), 3 * (t + 1) + 2)
            block = [b'Signed-off-by: A <a@b>'] + [b'K%d: v' % i for i in range(t)] + \
                [text_line() for _ in range(n)]
            rnd.shuffle(block)
            lines.extend(block)
        else:
            for _ in range(rnd.choice([1, 2, 3, 4, 6, 10])):
                lines.append(block_line())
    for _ in range(rnd.choice([0, 0, 0, 1, 2])):
        lines.append(rnd.choice([b'', b'', b'# comment', b' ', b'Conflicts:', b'\tx.c', CUT,
                                 b'K: after']))

    eol = rnd.choice([b'\n'] * 8 + [b'\r\n', b'mixed'])
    out = b''
    for i, line in enumerate(lines):
        out += line
        if i + 1 < len(lines) or rnd.random() < 0.8:
            out += (rnd.choice([b'\n', b'\r\n']) if eol == b'mixed' else eol)
    if rnd.random() < 0.02:
        pos = rnd.randint(0, len(out))
        out = out[:pos] + b'\0' + out[pos:]
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, **kw).stdout


def git_env(home):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith('GIT_'):
            del env[k]
    # no user or system configuration: trailer.* settings would change git's answers
    env.update(HOME=home, XDG_CONFIG_HOME=home, GIT_CONFIG_NOSYSTEM='1',
               GIT_CONFIG_GLOBAL=os.devnull, LC_ALL='C')
    return env


def git_trailers(repo, ids, env):
    """{commit id: the lines git prints for it}."""
    out = run(['git', '-C', repo, 'log', '--no-walk=unsorted', '--stdin', '--encoding=none',
               '--format=%x00%H%n%(trailers:only,unfold)'],
              input=b''.join(i + b'\n' for i in ids), env=env)
    result = {}
    for chunk in out.split(b'\0')[1:]:
        oid, _, rest = chunk.partition(b'\n')
        result[oid] = rest[:-1] if rest.endswith(b'\n') else rest   # tformat's terminator
    return result


def cli_trailers(messages):
    """The C parser's lines for each message, in order."""
    records = b''.join(b'%d\n' % len(m) + m for m in messages)
    out = run([CLI, '--batch'], input=records)
    parts = out.split(b'\0')
    if len(parts) != len(messages) + 1 or parts[-1] != b'':
        sys.exit('trailers-oracle: trailers_cli printed %d records for %d messages'
                 % (len(parts) - 1, len(messages)))
    return parts[:-1]


def generated(count, seed, tmp, env):
    """Writes the messages as commits of a new repository; returns (ids, messages)."""
    rnd = random.Random(seed)
    messages = TRICKY + [random_message(rnd) for _ in range(count)]
    repo = os.path.join(tmp, 'repo')
    run(['git', 'init', '-q', repo], env=env)
    run(['git', '-C', repo, 'hash-object', '-t', 'tree', '-w', os.devnull], env=env)
    paths = []
    for i, m in enumerate(messages):
        path = os.path.join(tmp, 'c%d' % i)
        with open(path, 'wb') as f:
            f.write(b'tree ' + EMPTY_TREE.encode() + b'\nauthor A <a@b> 1 +0000\n'
                    b'committer A <a@b> 1 +0000\n\n' + m)
        paths.append(path)
    ids = []
    for i in range(0, len(paths), 500):	# git 2.39 keeps each --literally file open
        ids += run(['git', '-C', repo, 'hash-object', '-t', 'commit', '--literally', '-w',
                    '--stdin-paths'], input='\n'.join(paths[i:i + 500]).encode() + b'\n',
                   env=env).split()
    return repo, ids, messages


def existing(repo, env):
    """Every commit of repo reachable from a ref; returns (ids, messages)."""
    ids = run(['git', '-C', repo, 'rev-list', '--all'], env=env).split()
    raw = run(['git', '-C', repo, 'cat-file', '--batch'],
              input=b''.join(i + b'\n' for i in ids), env=env)
    messages, pos = [], 0
    for oid in ids:
        eol = raw.index(b'\n', pos)
        header = raw[pos:eol].split()
        if header[0] != oid or header[1] != b'commit':
            sys.exit('trailers-oracle: unexpected cat-file output for %s' % oid.decode())
        size = int(header[2])
        body = raw[eol + 1:eol + 1 + size]
        pos = eol + 1 + size + 1
        sep = body.find(b'\n\n')
        messages.append(body[sep + 2:] if sep >= 0 else b'')
    return ids, messages


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('repo', nargs='?', help='compare every commit of this repository')
    ap.add_argument('--count', type=int, default=3000, help='random messages (default 3000)')
    ap.add_argument('--seed', type=int, default=1, help='random seed (default 1)')
    ap.add_argument('--show', type=int, default=10, help='mismatches to print (default 10)')
    args = ap.parse_args()

    if shutil.which('git') is None:
        sys.exit('trailers-oracle: git not found')
    try:
        run(['make', '-s', '-C', UNIT, 'trailers_cli'])
    except subprocess.CalledProcessError:
        print('trailers-oracle: cannot build test/unit/trailers_cli', file=sys.stderr)
        return 2

    tmp = tempfile.mkdtemp(prefix='trailers-oracle.')
    try:
        env = git_env(tmp)
        if args.repo:
            if not os.path.isdir(args.repo):
                print('trailers-oracle: %s is not a directory' % args.repo, file=sys.stderr)
                return 2
            repo = args.repo
            ids, messages = existing(repo, env)
        else:
            repo, ids, messages = generated(args.count, args.seed, tmp, env)
        want = git_trailers(repo, ids, env)
        got = cli_trailers(messages)
    except subprocess.CalledProcessError as e:
        print('trailers-oracle: %s failed with status %d'
              % (' '.join(e.cmd[:4]), e.returncode), file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(tmp)

    passed = failed = 0
    with_trailers = sum(1 for oid in ids if want.get(oid))
    lines = sum(want.get(oid, b'').count(b'\n') + 1 for oid in ids if want.get(oid))
    print('trailers-oracle: %d messages, %d with trailers (%d trailer lines)'
          % (len(ids), with_trailers, lines))
    for oid, msg, mine in zip(ids, messages, got):
        if want.get(oid) == mine:
            passed += 1
            continue
        failed += 1
        if failed <= args.show:
            print('MISMATCH %s\n  message: %r\n  git:     %r\n  parser:  %r'
                  % (oid.decode(), msg[:600], want.get(oid, b'<missing>')[:600], mine[:600]))
    print('trailers-oracle: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
