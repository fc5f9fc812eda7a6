#!/usr/bin/env python3
"""test/refresh-fuzz/refresh-fuzz.py — a refresh equals a cold load, whatever happened between
(issue 43): the differential fuzzer.

A random small repository (plain git in a temporary directory) goes through a random sequence
of steps: commits with Fixes: lines to old, new, ambiguous, subject-only, missing and later
targets, reverts, merges of side branches, clock skew, tags new, old, moved, deleted and
re-annotated, non-release and pre-release tags, force-pushes, renames, MAINTAINERS edits,
rows of fixes_overrides and fixes_backport_overrides, release_pattern changes, gc, stable
branches with backports and stable tags. Each seed draws whether files, MAINTAINERS and stable
branches are on. After every step the repository is refreshed (fixes_load under the same name)
in one database and loaded cold (fixes_unload, then fixes_load) in another, and every row a user
reads (test/refresh-fuzz/rows.sql: the views and tables, surrogate ids mapped to commit ids,
and the surrogate keys checked against the ids) is compared. A sequence that fails is shrunk
(delta debugging: chunks of steps removed while it still fails) and saved as JSON, which
--replay runs again.

Usage:
  refresh-fuzz.py --seeds 1-20 [--steps 40] [--save DIR] [--no-shrink] [--budget SECONDS]
  refresh-fuzz.py --replay FILE.json...
  (--ignore REGEX, repeatable: leave out compared lines that match, to look past a known finding)
Environment: PGHOST, PGPORT, PGUSER (a superuser: it creates two databases fixes_fz_refresh
and fixes_fz_cold, or $FIXES_FZ_PREFIX_refresh/_cold, and drops them at the end).
Only the standard library, git and psql. Exit 0: no difference; 1: a difference (or an error
of a load); each failing sequence is printed and, with --save, written to DIR.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS_SQL = os.path.join(HERE, 'rows.sql')
PREFIX = os.environ.get('FIXES_FZ_PREFIX', 'fixes_fz')
DB_R = PREFIX + '_refresh'
DB_C = PREFIX + '_cold'
NAME = 'fz'
STABLE_RE = '^refs/heads/stable-'
PATTERNS = [None, r'^v[0-9]+\.[0-9]+$', r'^v1\.', r'^nomatch$', r'^v[0-9]+\.[0-9]+(\.[0-9]+)?$']
SUBJECTS = ['net: fix a leak', 'core: add a loop', 'mm: tidy up', 'fs: speed up reads',
            'net: fix a leak', 'drivers: new device', 'core: fix a race', 'docs: typo']
DIRS = ['net', 'core', 'mm', 'fs', 'drivers/usb', 'drivers/net', 'docs']
KEYS = ['Reviewed-by', 'Acked-by', 'Tested-by', 'Reported-by', 'Link', 'Cc']

ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM='1', GIT_CONFIG_GLOBAL='/dev/null',
           GIT_TERMINAL_PROMPT='0', LC_ALL='C', GIT_AUTHOR_NAME='Fuzz Author',
           GIT_AUTHOR_EMAIL='fa@example.org', GIT_COMMITTER_NAME='Fuzz Committer',
           GIT_COMMITTER_EMAIL='fc@example.org', PGTZ='UTC')
for v in ('GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY'):
    ENV.pop(v, None)


class LoadError(Exception):
    pass


def run(args, cwd=None, input=None, check=True, env=None):
    p = subprocess.run(args, cwd=cwd, input=input, capture_output=True, text=True,
                       env=env or ENV)
    if check and p.returncode != 0:
        raise RuntimeError('%s failed (%d): %s' % (' '.join(args), p.returncode, p.stderr.strip()))
    return p


def psql(db, sql, variables=None, file=None):
    args = ['psql', '-X', '-q', '-At', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-d', db]
    for k, v in (variables or {}).items():
        args += ['-v', '%s=%s' % (k, v)]
    if file:
        args += ['-f', file]
        return run(args, check=False)
    return run(args, input=sql, check=False)


def lit(v):
    return 'NULL' if v is None else "'" + str(v).replace("'", "''") + "'"


class Repo:
    """The repository and its model: commits in order, tags, the clock."""

    def __init__(self, path, cfg):
        self.path = path
        self.cfg = cfg
        self.when = 1600000000
        self.n = 0
        self.overrides = {}     # (fixing, abbrev) -> target or None
        self.bp_overrides = {}  # stable commit -> upstream
        self.pattern = None
        self.ntag = 0           # tags made: each name is new
        run(['git', 'init', '-q', '-b', 'main', path])
        run(['git', 'config', 'gc.auto', '0'], cwd=path)
        os.makedirs(os.path.join(path, 'docs'), exist_ok=True)
        self.write_maintainers(0)
        self.commit('Initial commit', ['docs/readme'])

    def git(self, *args, check=True):
        return run(['git'] + list(args), cwd=self.path, check=check).stdout.strip()

    def tick(self, skew=0):
        self.when += 3600
        t = self.when + skew * 86400
        ENV['GIT_AUTHOR_DATE'] = '@%d +0000' % t
        ENV['GIT_COMMITTER_DATE'] = '@%d +0000' % (t + 60)

    def commits(self):
        out = self.git('rev-list', '--topo-order', '--reverse', 'HEAD')
        return out.split() if out else []

    def subject_of(self, c):
        return self.git('log', '-1', '--format=%s', c)

    def write_maintainers(self, variant):
        if not self.cfg['maintainers']:
            return
        lines = []
        rnd = random.Random(variant)
        for i, d in enumerate(rnd.sample(DIRS, k=rnd.randint(2, len(DIRS)))):
            lines += ['%s SUBSYSTEM %d' % (d.upper().replace('/', ' '), variant % 3 if i == 0 else i),
                      'M:\tSomeone <s@example.org>', 'F:\t%s/' % d, '']
        with open(os.path.join(self.path, 'MAINTAINERS'), 'w') as f:
            f.write('\n'.join(lines))

    def commit(self, subject, files, body='', skew=0):
        self.tick(skew)
        self.n += 1
        for fn in files:
            full = os.path.join(self.path, fn)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'a') as f:
                f.write('change %d\n' % self.n)
        self.git('add', '-A')
        msg = subject + ('\n\n' + body if body else '')
        self.git('commit', '-q', '--allow-empty', '-m', msg)
        return self.git('rev-parse', 'HEAD')

    def pick(self, k, lst):
        return lst[k % len(lst)] if lst else None

    def tags(self):
        out = self.git('tag', '-l')
        return out.split() if out else []

    def release_tags(self):
        return [t for t in self.tags() if t.startswith('v')]

    def tag_number(self):
        self.ntag += 1
        return self.ntag

    def next_version(self):
        n = self.tag_number()
        return 'v%d.%d' % (1 + n // 4, n % 4)


def fixes_line(repo, step, commits):
    kind = step.get('fixes')
    k = step.get('k', 0)
    if kind is None or not commits:
        return ''
    if kind == 'old':
        c = repo.pick(k, commits)
        return 'Fixes: %s ("%s")' % (c[:12], repo.subject_of(c))
    if kind == 'short':         # 7 digits: may become ambiguous later
        c = repo.pick(k, commits)
        return 'Fixes: %s' % c[:7]
    if kind == 'subject':       # subject only: the pool repeats subjects, so it may be ambiguous
        return 'Fixes: "%s"' % SUBJECTS[k % len(SUBJECTS)]
    if kind == 'missing':
        return 'Fixes: %012x ("no such commit")' % (0xdead00000000 + k)
    if kind == 'later':         # a subject that a later commit may take
        return 'Fixes: %012x ("%s")' % (0xbeef00000000 + k, SUBJECTS[(k + 3) % len(SUBJECTS)])
    return ''


def apply_step(repo, step):
    """Apply one step (a dict) to the repository; every choice is in the step."""
    op = step['op']
    k = step.get('k', 0)
    commits = repo.commits()
    if op == 'commit':
        body = []
        fl = fixes_line(repo, step, commits)
        if fl:
            body.append(fl)
        for t in step.get('trailers', []):
            body.append('%s: someone %d <x@example.org>' % (KEYS[t % len(KEYS)], t))
        if step.get('cc_stable'):
            body.append('Cc: stable@vger.kernel.org')
        files = [DIRS[f % len(DIRS)] + '/f%d.c' % (f % 3) for f in step.get('files', [k])]
        repo.commit(SUBJECTS[k % len(SUBJECTS)] if step.get('dup') else 'change %d: %s' % (
            repo.n, SUBJECTS[k % len(SUBJECTS)]), files, '\n'.join(body), step.get('skew', 0))
        if step.get('fixes') == 'new':     # and a fix of it, in the same step
            c = repo.git('rev-parse', 'HEAD')
            repo.commit('fix of %s' % c[:7], files[:1],
                        'Fixes: %s ("%s")' % (c[:12], repo.subject_of(c)))
    elif op == 'revert' and commits:
        c = repo.pick(k, commits)
        repo.commit('Revert "%s"' % repo.subject_of(c), ['docs/reverts'],
                    'This reverts commit %s.' % c)
    elif op == 'merge' and commits:
        base = repo.pick(k, commits)
        repo.git('checkout', '-q', '-b', 'side', base)
        for i in range(1 + k % 3):
            c = commits[(k + i) % len(commits)]
            repo.commit('side %d: %s' % (i, SUBJECTS[(k + i) % len(SUBJECTS)]),
                        ['side/s%d' % repo.n], 'Fixes: %s ("%s")' % (c[:12], repo.subject_of(c))
                        if i == 0 else '', step.get('skew', 0))
        repo.git('checkout', '-q', 'main')
        repo.tick()
        repo.git('merge', '-q', '--no-ff', '-m', 'Merge branch side', 'side')
        repo.git('branch', '-q', '-D', 'side')
    elif op == 'tag_new':
        if step.get('annotated'):
            repo.git('tag', '-a', '-m', 'release', repo.next_version())
        else:
            repo.git('tag', repo.next_version())
    elif op == 'tag_old' and commits:
        repo.git('tag', 'v0.%d' % repo.tag_number(), repo.pick(k, commits))
    elif op == 'tag_last_on_old' and commits:  # last in version order, on an old commit
        repo.git('tag', 'v9.%d' % repo.tag_number(), repo.pick(k, commits[:-1] or commits))
    elif op == 'tag_move' and repo.release_tags() and commits:
        repo.git('tag', '-f', repo.pick(k, repo.release_tags()), repo.pick(k + 1, commits))
    elif op == 'tag_delete' and repo.tags():
        repo.git('tag', '-d', repo.pick(k, repo.tags()))
    elif op == 'tag_delete_all':
        for t in repo.release_tags():
            repo.git('tag', '-d', t)
    elif op == 'tag_reannotate' and repo.release_tags():
        t = repo.pick(k, repo.release_tags())
        c = repo.git('rev-parse', t + '^{commit}')
        repo.git('tag', '-d', t)
        repo.tick()
        repo.git('tag', '-a', '-m', 'again %d' % k, t, c)
    elif op == 'tag_other' and commits:       # not a release: another name, or a pre-release
        name = ('foo-%d' if k % 2 else 'v8.%d-rc1') % repo.tag_number()
        repo.git('tag', name, repo.pick(k, commits))
    elif op == 'force_push' and len(commits) > 3:
        repo.git('reset', '-q', '--hard', 'HEAD~%d' % (1 + k % 3))
        repo.commit('rewritten %d' % k, ['core/rw%d' % k])
    elif op == 'rename':
        files = [f for f in repo.git('ls-files').split() if f not in ('MAINTAINERS',)]
        if files:
            src = repo.pick(k, files)
            dst = DIRS[(k + 1) % len(DIRS)] + '/renamed%d_%s' % (repo.n, os.path.basename(src))
            os.makedirs(os.path.join(repo.path, os.path.dirname(dst)), exist_ok=True)
            repo.git('mv', src, dst)
            repo.tick()
            repo.git('commit', '-q', '-m', 'rename %s' % os.path.basename(src))
    elif op == 'maintainers' and repo.cfg['maintainers']:
        repo.write_maintainers(k + 1)
        repo.commit('MAINTAINERS: update %d' % k, [])
    elif op == 'override' and commits:
        edges = [l for l in repo.git('log', '--format=%H %b', 'HEAD').splitlines() if 'Fixes:' in l]
        fixing = repo.pick(k, commits)
        abbrev = repo.pick(k + 1, commits)[:12]
        target = None if k % 3 == 0 else repo.pick(k + 2, commits)
        repo.overrides[(fixing, abbrev)] = target
        del edges
    elif op == 'override_edge' and commits:   # a row for a Fixes: line the history has
        edges = []
        for rec in repo.git('log', '--format=%H%x00%B%x01', 'HEAD').split('\x01'):
            if '\x00' not in rec:
                continue
            c, body = rec.strip().split('\x00', 1)
            for line in body.splitlines():
                w = line.split()
                if len(w) >= 2 and w[0] == 'Fixes:' and all(ch in '0123456789abcdef' for ch in w[1]) \
                        and 6 <= len(w[1]) <= 40:
                    edges.append((c, w[1]))
        if edges:
            fixing, abbrev = edges[k % len(edges)]
            repo.overrides[(fixing, abbrev)] = None if k % 3 == 0 else repo.pick(k + 2, commits)
    elif op == 'override_drop' and repo.overrides:
        del repo.overrides[sorted(repo.overrides)[k % len(repo.overrides)]]
    elif op == 'bp_override' and repo.cfg['stable']:
        st = repo.git('rev-list', '--branches=stable-*', '--not', 'main', check=False).split()
        if st and commits:
            repo.bp_overrides[repo.pick(k, st)] = repo.pick(k + 1, commits)
    elif op == 'pattern':
        repo.pattern = PATTERNS[k % len(PATTERNS)]
    elif op == 'gc':
        repo.git('gc', '-q', '--prune=now')
    elif op == 'stable' and repo.cfg['stable'] and repo.release_tags():
        base = repo.pick(k, repo.release_tags())
        br = 'stable-%s' % base
        exists = repo.git('branch', '--list', br)
        repo.git('checkout', '-q', *(['-b', br, base] if not exists else [br]))
        for i in range(1 + k % 2):
            up = repo.pick(k + i, commits)
            repo.commit('%s [stable]' % repo.subject_of(up), ['stable/b%d' % repo.n],
                        'commit %s upstream.' % up if (k + i) % 4 else '[ Upstream commit %s ]' % up[:12])
        if k % 2:
            repo.git('tag', '%s.%d' % (base, repo.tag_number()))
        repo.git('checkout', '-q', 'main')
    elif op == 'relbranch' and commits:       # release_tags 'all': a release cut on a branch
        base = repo.pick(k, commits)
        br = 'branch-%d' % repo.tag_number()
        repo.git('checkout', '-q', '-b', br, base)
        repo.commit('Prepare for release %d' % k, ['docs/release'])
        repo.git('tag', repo.next_version())
        if k % 2:                             # a backport by subject only, and a point release
            up = repo.pick(k + 1, commits)
            repo.commit(repo.subject_of(up), ['relbr/b%d' % repo.n])
            repo.git('tag', repo.next_version() + '.1')
        repo.git('checkout', '-q', 'main')
        if k % 5 == 0:                        # the branch merged back into main
            repo.tick()
            repo.git('merge', '-q', '--no-ff', '-m', 'Merge branch %s' % br, br)
    elif op == 'nothing':
        pass


OPS = [('commit', 30), ('revert', 3), ('merge', 4), ('tag_new', 6), ('tag_old', 3),
       ('tag_last_on_old', 2), ('tag_move', 2), ('tag_delete', 3), ('tag_delete_all', 3),
       ('tag_reannotate', 2), ('tag_other', 3), ('force_push', 2), ('rename', 2),
       ('maintainers', 5), ('override', 1), ('override_edge', 3), ('override_drop', 1), ('bp_override', 1),
       ('pattern', 3), ('gc', 1), ('stable', 4), ('nothing', 2)]
FIXES_KINDS = [None, None, 'old', 'old', 'new', 'short', 'subject', 'missing', 'later']


def random_step(rnd):
    op = rnd.choices([o for o, _ in OPS], [w for _, w in OPS])[0]
    step = {'op': op, 'k': rnd.randrange(1000)}
    if op == 'commit':
        step['fixes'] = rnd.choice(FIXES_KINDS)
        step['files'] = [rnd.randrange(30) for _ in range(rnd.randint(0, 3))]
        if rnd.random() < 0.4:
            step['trailers'] = [rnd.randrange(12) for _ in range(rnd.randint(1, 3))]
        if rnd.random() < 0.15:
            step['cc_stable'] = True
        if rnd.random() < 0.2:
            step['dup'] = True
        if rnd.random() < 0.1:
            step['skew'] = -rnd.randint(1, 30)
    elif op == 'merge' and rnd.random() < 0.3:
        step['skew'] = -rnd.randint(1, 30)
    elif op == 'tag_new':
        step['annotated'] = rnd.random() < 0.5
    return step


def random_case(seed, nsteps):
    rnd = random.Random(seed)
    cfg = {'files': rnd.random() < 0.6, 'stable': rnd.random() < 0.35}
    cfg['maintainers'] = cfg['files'] and rnd.random() < 0.7
    prefix = [{'op': 'commit', 'k': rnd.randrange(1000), 'files': [rnd.randrange(30)]}
              for _ in range(rnd.randint(3, 8))]
    steps = prefix + [random_step(rnd) for _ in range(nsteps)]
    # release_tags 'all' (issue 42) and releases cut on release branches, from a stream of their
    # own, so that the seeds that do not draw it keep the sequences they had
    rnd2 = random.Random('release-tags %d' % seed)
    if rnd2.random() < 0.4:
        cfg['release_all'] = True
        for i in range(len(prefix), len(steps)):
            if rnd2.random() < 0.12:
                steps[i] = {'op': 'relbranch', 'k': rnd2.randrange(1000)}
    return {'seed': seed, 'config': cfg, 'steps': steps}


READY = []


def setup_dbs():
    """The two databases, made once a run; later cases unload the repository instead."""
    if READY:
        for db in (DB_R, DB_C):
            p = psql(db, "SET client_min_messages = warning;\n"
                         "SELECT count(fixes_unload(name)) FROM fixes_repositories WHERE name = %s;\n"
                         "DELETE FROM fixes_overrides; DELETE FROM fixes_backport_overrides;" % lit(NAME))
            if p.returncode != 0:
                raise RuntimeError(p.stderr)
        return
    READY.append(True)
    for db in (DB_R, DB_C):
        run(['dropdb', '--if-exists', db], env=dict(ENV, PGOPTIONS='-c client_min_messages=warning'))
        run(['createdb', db])
        p = psql(db, 'CREATE EXTENSION fixes;')
        if p.returncode != 0:
            raise RuntimeError(p.stderr)


def drop_dbs():
    for db in (DB_R, DB_C):
        run(['dropdb', '--if-exists', db], check=False)


def load(db, repo, cold):
    cfg = repo.cfg
    sql = ['SET client_min_messages = warning;']
    if cold:
        sql.append("SELECT count(fixes_unload(%s)) FROM fixes_repositories WHERE name = %s;" % (lit(NAME), lit(NAME)))
    sql.append('BEGIN;')
    sql.append('DELETE FROM fixes_overrides WHERE repository = %s;' % lit(NAME))
    for (f, a), t in sorted(repo.overrides.items()):
        sql.append('INSERT INTO fixes_overrides (repository, fixing_commit, abbrev, target_commit) '
                   'VALUES (%s, %s, %s, %s);' % (lit(NAME), lit(f), lit(a), lit(t)))
    sql.append('DELETE FROM fixes_backport_overrides WHERE repository = %s;' % lit(NAME))
    for s, u in sorted(repo.bp_overrides.items()):
        sql.append('INSERT INTO fixes_backport_overrides (repository, stable_commit, upstream_commit) '
                   'VALUES (%s, %s, %s);' % (lit(NAME), lit(s), lit(u)))
    sql.append('COMMIT;')
    sql.append("SELECT commits FROM fixes_load(%s, 'main', %s, %s, %s, %s, %s%s);" % (
        lit(repo.path), lit(repo.pattern), lit(NAME), lit(STABLE_RE if cfg['stable'] else None),
        'true' if cfg['files'] else 'false',
        lit('MAINTAINERS' if cfg['maintainers'] else None),
        ", release_tags => 'all'" if cfg.get('release_all') else ''))
    p = psql(db, '\n'.join(sql))
    if p.returncode != 0:
        raise LoadError('%s load failed: %s' % ('cold' if cold else 'refresh', p.stderr.strip()))
    return p.stderr


def rows(db):
    p = psql(db, None, {'repo': NAME}, file=ROWS_SQL)
    if p.returncode != 0:
        raise RuntimeError('rows.sql failed in %s: %s' % (db, p.stderr))
    return p.stdout.splitlines()


IGNORE = []      # --ignore: regular expressions of lines a known finding gives


def diff(a, b):
    from collections import Counter
    import re
    if IGNORE:
        a = [l for l in a if not any(re.search(r, l) for r in IGNORE)]
        b = [l for l in b if not any(re.search(r, l) for r in IGNORE)]
    ca, cb = Counter(a), Counter(b)
    out = ['- refresh only: ' + l for l in sorted((ca - cb).elements())]
    out += ['+ cold only:    ' + l for l in sorted((cb - ca).elements())]
    keys = [l for l in a + b if l.startswith('v_keys\t')]
    out += ['! inconsistent: ' + l for l in keys]
    return out


def run_case(case, verbose=False, stop_early=True):
    """Run a case; returns (failing step index or None, report lines)."""
    work = tempfile.mkdtemp(prefix='fixes-fz-')
    try:
        path = os.path.join(work, 'repo')
        repo = Repo(path, case['config'])
        os.chmod(work, 0o755)
        setup_dbs()
        for i, step in enumerate(case['steps']):
            try:
                apply_step(repo, step)
            except (RuntimeError, IndexError) as e:  # a step git refuses (deterministic): none
                if verbose:
                    print('  step %d: %s' % (i, e))
                run(['git', 'checkout', '-q', '-f', 'main'], cwd=path, check=False)
            run(['chmod', '-R', 'a+rX', work])
            try:
                load(DB_R, repo, False)
                load(DB_C, repo, True)
            except LoadError as e:
                return i, [str(e)]
            d = diff(rows(DB_R), rows(DB_C))
            if verbose:
                print('  step %d %s: %s' % (i, json.dumps(step), 'DIFF' if d else 'ok'), flush=True)
            if d:
                return i, d
        return None, []
    finally:
        shutil.rmtree(work, ignore_errors=True)


def shrink(case, budget_end):
    """Delta debugging over the steps: remove chunks while the case still fails."""
    steps = list(case['steps'])
    fail, _ = run_case(dict(case, steps=steps))
    if fail is None:
        return case
    steps = steps[:fail + 1]
    n = 2
    while len(steps) >= 2 and time.time() < budget_end:
        chunk = max(1, len(steps) // n)
        reduced = False
        for start in range(0, len(steps), chunk):
            if time.time() >= budget_end:
                break
            trial = steps[:start] + steps[start + chunk:]
            if not trial:
                continue
            f, _ = run_case(dict(case, steps=trial))
            if f is not None:
                steps = trial[:f + 1]
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(n * 2, len(steps))
    return dict(case, steps=steps)


def parse_seeds(s):
    out = []
    for part in s.split(','):
        if '-' in part:
            a, b = part.split('-')
            out += range(int(a), int(b) + 1)
        else:
            out.append(int(part))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seeds', default='1-5')
    ap.add_argument('--steps', type=int, default=40)
    ap.add_argument('--replay', nargs='*')
    ap.add_argument('--save', help='folder for the shrunk failing sequences')
    ap.add_argument('--no-shrink', action='store_true')
    ap.add_argument('--budget', type=float, default=0, help='stop starting seeds after this many seconds')
    ap.add_argument('--shrink-seconds', type=float, default=600)
    ap.add_argument('--ignore', action='append', default=[],
                    help='a regular expression: compared lines that match it are left out '
                         '(a known finding, to look for others)')
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()
    IGNORE.extend(a.ignore)
    t0 = time.time()
    failed = 0
    nsteps = 0
    try:
        if a.replay is not None:
            for fn in a.replay:
                with open(fn) as f:
                    case = json.load(f)
                fail, report = run_case(case, a.verbose)
                nsteps += len(case['steps']) if fail is None else fail + 1
                print('%s %s (%d steps)' % ('FAIL' if fail is not None else 'ok',
                                            os.path.basename(fn), len(case['steps'])), flush=True)
                if fail is not None:
                    failed += 1
                    print('\n'.join('    ' + l for l in report[:40]))
        else:
            seeds = parse_seeds(a.seeds)
            done = 0
            for seed in seeds:
                if a.budget and time.time() - t0 > a.budget:
                    break
                case = random_case(seed, a.steps)
                fail, report = run_case(case, a.verbose)
                done += 1
                nsteps += len(case['steps']) if fail is None else fail + 1
                if fail is None:
                    print('ok seed %d %s (%d steps)' % (seed, json.dumps(case['config']),
                                                      len(case['steps'])), flush=True)
                    continue
                failed += 1
                print('FAIL seed %d %s at step %d: %s' % (seed, json.dumps(case['config']), fail,
                                                        json.dumps(case['steps'][fail])), flush=True)
                print('\n'.join('    ' + l for l in report[:40]))
                if not a.no_shrink:
                    small = shrink(case, time.time() + a.shrink_seconds)
                    print('  shrunk to %d steps:' % len(small['steps']))
                    for s in small['steps']:
                        print('    ' + json.dumps(s))
                    _, rep = run_case(small)
                    small['found'] = rep[:20]
                    if a.save:
                        os.makedirs(a.save, exist_ok=True)
                        fn = os.path.join(a.save, 'seed-%d.json' % seed)
                        with open(fn, 'w') as f:
                            json.dump(small, f, indent=1)
                            f.write('\n')
                        print('  saved ' + fn)
            print('%d seeds run of %d' % (done, len(seeds)))
    finally:
        drop_dbs()
    print('%d steps, %d failing, %.1f s' % (nsteps, failed, time.time() - t0))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
