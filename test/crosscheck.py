#!/usr/bin/env python3
"""Cross-check the fixes extension against an independent computation from git's command line.

    crosscheck.py --repo PATH --name NAME [--dbname DB] [--show] [--stable-branches RE]

Recomputes, from `git log` / `git rev-list` / `git for-each-ref` output only (python3 stdlib,
no code or SQL of the extension), what fixes_load() should have produced for the repository at
PATH, and compares it with what the database holds for the repository loaded under NAME
(psql, connection from the PG* environment; --dbname overrides PGDATABASE):

  - the number of commits reachable from HEAD, and the full commit -> release map;
  - the releases (name, rank, commits) and every column of fixes_per_release;
  - the edge counts by (status, method) of fixes_edges;
  - the full multiset commit_id -> fixes of fixes_buggiest_commits, and its rank column
    (must be SQL rank() over fixes desc).

The semantics (an independent statement of the specification):
  scope      commits reachable from HEAD;
  releases   tags peeled to a commit in scope whose name does not match
             (rc|pre|alpha|beta)[0-9]*$ case-insensitively, in version order (digit runs
             compare as numbers, other runs as strings, a name that runs out first sorts first);
  release    of a commit: the first release (in that order) whose commit is it or descends
             from it, i.e. `git rev-list <tag_i> --not <tag_1> .. <tag_i-1>`;
  edges      every message line matching ^\\s*Fixes:\\s*(commit\\s+)?([0-9a-f]{6,40})\\b
             (case-insensitive); the quoted subject is the text between the first (" and the
             last ") of the line; resolution: unique prefix match -> hash; several -> the one
             whose subject (git's %s) equals the quoted subject -> hash+subject, else
             ambiguous; none -> the unique commit whose subject equals the quoted subject ->
             subject, else not_found.

With --stable-branches RE (the expression the repository was loaded with), also the stable
scope (issue 13), row for row: the stable commits and their releases, the stable releases and
their series, fixes_backports, the Fixes edges of stable commits, fixes_affected and
fixes_per_stable_release; the checks above then cover the mainline rows only.

  stable scope   `git rev-list <branches> --not HEAD`, branches: `git for-each-ref refs/heads
                 refs/remotes` (no symbolic refs) whose full name matches RE (re.search);
  stable release tags of stable commits, as above; release of a stable commit: `git rev-list
                 <tag_i> --not HEAD <tag_1> .. <tag_i-1>` over the stable releases;
  series         the mainline release, newest in version order, in `git rev-list <stable tag>`;
  backports      lines matching the three forms, case-insensitive, resolved by unique prefix
                 among the mainline ids;
  stable edges   as mainline edges, against the commits of both scopes;
  fixes_affected and fixes_per_stable_release as README.md "## Stable branches" states them,
                 with ancestry from `git rev-list <series tag>`.

Exits 0 when everything agrees, 1 on any difference (printed), 2 on a usage or tool error.
"""
import argparse, bisect, collections, os, re, subprocess, sys, time

FIXES_RE = re.compile(r'^\s*Fixes:\s*(commit\s+)?([0-9a-f]{6,40})\b', re.IGNORECASE | re.ASCII)
PRERELEASE_RE = re.compile(r'(rc|pre|alpha|beta)[0-9]*$', re.IGNORECASE)
VERSION_RUN_RE = re.compile(r'[0-9]+|[^0-9]+')
MAX_SHOWN = 10          # differences listed per kind

# git reads its configuration; keep what could change its output out of the way
GIT_ENV = dict(os.environ, GIT_NO_REPLACE_OBJECTS='1', GIT_CONFIG_NOSYSTEM='1', LC_ALL='C')


def git(repo, *args, stdin=None):
    p = subprocess.run(['git', '-C', repo, '-c', 'log.showSignature=false', '-c', 'core.quotePath=false']
                       + list(args), input=stdin, capture_output=True, env=GIT_ENV)
    if p.returncode:
        sys.stderr.write('crosscheck: git %s failed: %s\n' % (' '.join(args), p.stderr.decode(errors='replace')))
        sys.exit(2)
    return p.stdout


def version_key(name):
    """Digit runs as numbers, other runs as strings; a name that runs out first sorts first."""
    return tuple((0, int(r), '') if r[0].isdigit() else (1, 0, r) for r in VERSION_RUN_RE.findall(name)), name


def quoted_subject(line):
    i = line.find('("')
    j = line.rfind('")')
    if i < 0 or j < 0 or j < i + 2:
        return None
    return line[i + 2:j]


BACKPORT_RES = [re.compile(r'^[ \t\r\f\v]*commit[ \t\r\f\v]+([0-9a-f]{7,40})[ \t\r\f\v]+upstream\.?[ \t\r\f\v]*$', re.I | re.A),
                re.compile(r'^[ \t\r\f\v]*\[[ \t\r\f\v]*upstream[ \t\r\f\v]+commit[ \t\r\f\v]+([0-9a-f]{7,40})[ \t\r\f\v]*\][ \t\r\f\v]*$', re.I | re.A),
                re.compile(r'^[ \t\r\f\v]*\(cherry picked from commit[ \t\r\f\v]+([0-9a-f]{7,40})\)[ \t\r\f\v]*$', re.I | re.A)]


def read_log(repo, *revs):
    """commit id -> (subject, message) of `git log revs`"""
    out = git(repo, 'log', '-z', '--encoding=UTF-8', '--format=%H%n%s%n%B', *revs)
    res = {}
    for rec in out.split(b'\0'):
        if not rec:
            continue
        h, _, rest = rec.partition(b'\n')
        s, _, body = rest.partition(b'\n')
        res[h.decode('ascii')] = (s.decode('utf-8', errors='replace'), body.decode('utf-8', errors='replace'))
    return res


def prefix_matches(ids, abbrev):
    lo = bisect.bisect_left(ids, abbrev)
    hi = bisect.bisect_left(ids, abbrev + 'g')
    return ids[lo:hi]


def resolve_edges(commits_msgs, ids, subject):
    """The Fixes edges of the messages, resolved against ids (sorted) with subjects."""
    by_subject = collections.defaultdict(list)
    for c in ids:
        by_subject[subject[c]].append(c)
    edges = []
    for c, msg in commits_msgs.items():
        for n, line in enumerate(msg.split('\n'), 1):
            m = FIXES_RE.match(line)
            if not m:
                continue
            abbrev = m.group(2).lower()
            q = quoted_subject(line)
            cands = prefix_matches(ids, abbrev)
            if len(cands) == 1:
                e = ('resolved', 'hash', cands[0])
            elif cands:
                same = [x for x in cands if q is not None and subject[x] == q]
                e = ('resolved', 'hash+subject', same[0]) if len(same) == 1 else ('ambiguous', '', None)
            else:
                same = by_subject.get(q, []) if q is not None else []
                e = ('resolved', 'subject', same[0]) if len(same) == 1 else ('not_found', '', None)
            edges.append((c, n, abbrev, q) + e)
    return edges


class Expected:
    """Everything computed from git."""

    def __init__(self, repo):
        t0 = time.monotonic()
        # one git log: id, subject (%s), raw body (%B), NUL between commits
        out = git(repo, 'log', '-z', '--encoding=UTF-8', '--format=%H%n%s%n%B', 'HEAD')
        self.subject = {}       # commit id -> subject
        self.message = {}       # commit id -> message
        for rec in out.split(b'\0'):
            if not rec:
                continue
            h, _, rest = rec.partition(b'\n')
            s, _, body = rest.partition(b'\n')
            h = h.decode('ascii')
            self.subject[h] = s.decode('utf-8', errors='replace')
            self.message[h] = body.decode('utf-8', errors='replace')
        scope = git(repo, 'rev-list', 'HEAD').decode('ascii').split()
        if set(scope) != set(self.subject):
            sys.stderr.write('crosscheck: git log and git rev-list disagree on the scope\n')
            sys.exit(2)
        self.scope = set(scope)
        self.ids = sorted(self.scope)

        # releases: tags peeled to commits in scope, pre-releases excluded, in version order
        tags = [line[len('refs/tags/'):] for line in
                git(repo, 'for-each-ref', '--format=%(refname)', 'refs/tags').decode('utf-8', errors='replace').splitlines()]
        peeled = git(repo, 'cat-file', '--batch-check=%(objectname) %(objecttype)',
                     stdin=''.join('refs/tags/%s^{commit}\n' % t for t in tags).encode()).decode().splitlines()
        assert len(peeled) == len(tags)
        self.tag_commit = {}
        self.dropped = collections.Counter()
        for t, line in zip(tags, peeled):
            f = line.split()
            if len(f) != 2 or f[1] != 'commit':
                self.dropped['not a commit'] += 1
            elif f[0] not in self.scope:
                self.dropped['not reachable from HEAD'] += 1
            elif PRERELEASE_RE.search(t):
                self.dropped['pre-release'] += 1
            else:
                self.tag_commit[t] = f[0]
        self.releases = sorted(self.tag_commit, key=version_key)
        self.rank = {r: i + 1 for i, r in enumerate(self.releases)}

        # release of each commit: git rev-list tag_i --not tag_1 .. tag_{i-1}
        self.release = dict.fromkeys(self.scope)    # commit -> release name or None
        self.release_commits = {}
        for i, r in enumerate(self.releases):
            args = ['rev-list', self.tag_commit[r]]
            if i:
                args += ['--not'] + [self.tag_commit[p] for p in self.releases[:i]]
            members = git(repo, *args).decode('ascii').split()
            self.release_commits[r] = len(members)
            for c in members:
                assert self.release[c] is None, (c, r)
                self.release[c] = r

        # subjects -> commits, for the subject-based resolution
        by_subject = collections.defaultdict(list)
        for c, s in self.subject.items():
            by_subject[s].append(c)

        # edges
        self.edges = []         # (fixing, line no, abbrev, quoted, status, method, target)
        for c, msg in self.message.items():
            for n, line in enumerate(msg.split('\n'), 1):
                m = FIXES_RE.match(line)
                if not m:
                    continue
                abbrev = m.group(2).lower()
                q = quoted_subject(line)
                lo = bisect.bisect_left(self.ids, abbrev)
                hi = bisect.bisect_left(self.ids, abbrev + 'g')     # 'g' sorts after every hex digit
                cands = self.ids[lo:hi]
                if len(cands) == 1:
                    e = ('resolved', 'hash', cands[0])
                elif cands:
                    same = [x for x in cands if q is not None and self.subject[x] == q]
                    e = ('resolved', 'hash+subject', same[0]) if len(same) == 1 else ('ambiguous', '', None)
                else:
                    same = by_subject.get(q, []) if q is not None else []
                    e = ('resolved', 'subject', same[0]) if len(same) == 1 else ('not_found', '', None)
                self.edges.append((c, n, abbrev, q) + e)
        self.seconds = time.monotonic() - t0

    def per_release(self):
        """release -> [rank, commits, fixing_commits, bugs_fixed, commits_fixed, bugs_introduced,
        buggy_commits_introduced, fixed_same_release]"""
        inf = len(self.releases) + 1            # unreleased: later than every release
        fixing = collections.defaultdict(set)
        bugs_fixed = collections.Counter()
        commits_fixed = collections.defaultdict(set)
        bugs_intro = collections.Counter()
        buggy_intro = collections.defaultdict(set)
        same = collections.Counter()
        for c, _, _, _, status, _, t in self.edges:
            if status != 'resolved':
                continue
            fr, tr = self.release[c], self.release[t]
            fk = self.rank[fr] if fr else inf
            tk = self.rank[tr] if tr else inf
            if fr:
                fixing[fr].add(c)
            if fr and tr and tk < fk:
                bugs_fixed[fr] += 1
                commits_fixed[fr].add(t)
            if tr and fk > tk:
                bugs_intro[tr] += 1
                buggy_intro[tr].add(t)
            if fr and fr == tr:
                same[fr] += 1
        return {r: [self.rank[r], self.release_commits[r], len(fixing[r]), bugs_fixed[r], len(commits_fixed[r]),
                    bugs_intro[r], len(buggy_intro[r]), same[r]] for r in self.releases}

    def buggiest(self):
        return collections.Counter(t for _, _, _, _, status, _, t in self.edges if status == 'resolved')

    def edge_counts(self):
        return collections.Counter((status, method) for _, _, _, _, status, method, _ in self.edges)


class ExpectedStable:
    """The stable scope, from git (see --stable-branches)."""

    def __init__(self, repo, exp, regex):
        t0 = time.monotonic()
        rx = re.compile(regex)
        heads = []
        for line in git(repo, 'for-each-ref', '--format=%(refname)%00%(symref)',
                        'refs/heads', 'refs/remotes').decode('utf-8', errors='replace').splitlines():
            name, _, symref = line.partition('\0')
            if not symref and rx.search(name):
                heads.append(name)
        self.heads = heads
        log = read_log(repo, *(heads + ['--not', 'HEAD'])) if heads else {}
        self.scope = set(log)
        self.subject = {c: v[0] for c, v in log.items()}
        self.message = {c: v[1] for c, v in log.items()}

        # stable releases and the release of each stable commit
        tags = [line[len('refs/tags/'):] for line in
                git(repo, 'for-each-ref', '--format=%(refname)', 'refs/tags').decode('utf-8', errors='replace').splitlines()]
        peeled = git(repo, 'cat-file', '--batch-check=%(objectname) %(objecttype)',
                     stdin=''.join('refs/tags/%s^{commit}\n' % t for t in tags).encode()).decode().splitlines()
        self.tag_commit = {}
        for t, line in zip(tags, peeled):
            f = line.split()
            if len(f) == 2 and f[1] == 'commit' and f[0] in self.scope and not PRERELEASE_RE.search(t):
                self.tag_commit[t] = f[0]
        self.releases = sorted(self.tag_commit, key=version_key)
        self.release = dict.fromkeys(self.scope)
        self.release_commits = {}
        for i, r in enumerate(self.releases):
            members = git(repo, 'rev-list', self.tag_commit[r], '--not', 'HEAD',
                          *[self.tag_commit[p] for p in self.releases[:i]]).decode('ascii').split()
            self.release_commits[r] = len(members)
            for c in members:
                assert self.release[c] is None, (c, r)
                self.release[c] = r

        # series: the newest mainline release among the ancestors
        self.series = {}
        for r in self.releases:
            anc = set(git(repo, 'rev-list', self.tag_commit[r]).decode('ascii').split())
            cands = [m for m in exp.releases if exp.tag_commit[m] in anc]
            self.series[r] = max(cands, key=version_key) if cands else None

        # backports, against the mainline
        self.backports = []     # (commit, line, status, upstream or None, abbrev)
        for c, msg in self.message.items():
            for n, line in enumerate(msg.split('\n'), 1):
                for rxb in BACKPORT_RES:
                    m = rxb.match(line)
                    if m:
                        abbrev = m.group(1).lower()
                        cands = prefix_matches(exp.ids, abbrev)
                        st = 'resolved' if len(cands) == 1 else 'ambiguous' if cands else 'not_found'
                        self.backports.append((c, n, st, cands[0] if len(cands) == 1 else None, abbrev))
                        break

        # Fixes lines of stable commits, against both scopes
        all_ids = sorted(exp.scope | self.scope)
        subject = dict(exp.subject)
        subject.update(self.subject)
        self.edges = resolve_edges(self.message, all_ids, subject)

        # fixes_affected: mainline rows, then series rows
        def pos(rel):
            return version_key(rel)
        pairs = sorted({(c, t) for c, _, _, _, st, _, t in exp.edges if st == 'resolved'})
        self.affected = set()   # (fixing, target, series, introduced_in, fixed_in, fix_backport)
        for f, t in pairs:
            rf, rt = exp.release[f], exp.release[t]
            if rt is not None and (rf is None or exp.rank[rf] > exp.rank[rt]):
                self.affected.add((f, t, None, rt, rf, None))
        series_list = sorted({b for b in self.series.values() if b is not None}, key=version_key)
        per = {r: collections.Counter() for r in self.releases}
        for b in series_list:
            anc = set(git(repo, 'rev-list', exp.tag_commit[b]).decode('ascii').split())
            mine = [r for r in self.releases if self.series[r] == b]
            first = {}          # upstream -> (release, backport commit), the first in version order
            for c, _, st, up, _ in sorted(self.backports, key=lambda x: x[0]):
                r = self.release[c]
                if st != 'resolved' or r is None or self.series[r] != b:
                    continue
                old = first.get(up)
                if old is None or (pos(r), c) < (pos(old[0]), old[1]):
                    first[up] = (r, c)
            for f, t in pairs:
                if f in anc:
                    continue
                if t in anc:
                    intro, imported = b, False
                elif t in first:
                    intro, imported = first[t][0], True
                else:
                    continue
                fx = first.get(f)
                if fx is not None and not pos(fx[0]) > pos(intro):
                    continue
                self.affected.add((f, t, b, intro, fx[0] if fx else None, fx[1] if fx else None))
                for r in mine:
                    if fx and fx[0] == r:
                        per[r]['bugs_fixed'] += 1
                    if imported and intro == r:
                        per[r]['regressions'] += 1
                    if pos(intro) <= pos(r) and (fx is None or pos(fx[0]) > pos(r)):
                        per[r]['known'] += 1
        backported = collections.Counter()
        for c in {c for c, _, st, _, _ in self.backports if st == 'resolved'}:
            if self.release[c] is not None:
                backported[self.release[c]] += 1
        self.per_stable = {r: [self.series[r] or '', str(self.release_commits[r]), str(backported[r]),
                               str(per[r]['bugs_fixed']), str(per[r]['regressions']), str(per[r]['known'])]
                           for r in self.releases}
        self.seconds = time.monotonic() - t0


def psql(queries, name):
    """Run the queries (a dict label -> SQL) in one psql session; label -> rows, each a list of str.
    $NAME$ in the SQL is the repository name as a literal."""
    lit = "'" + name.replace("'", "''") + "'"
    script = ''.join('\\echo #### %s\n%s;\n' % (k, q.replace('$NAME$', lit)) for k, q in queries.items())
    p = subprocess.run(['psql', '-X', '-q', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-f', '-'],
                       input=script.encode(), capture_output=True, env=dict(os.environ, PGCLIENTENCODING='UTF8'))
    if p.returncode:
        sys.stderr.write('crosscheck: psql failed: %s\n%s\n' % (p.stderr.decode(errors='replace'), script))
        sys.exit(2)
    out, cur = {}, None
    for line in p.stdout.decode('utf-8', errors='replace').split('\n'):
        if line.startswith('#### '):
            cur = out.setdefault(line[5:], [])
        elif line:
            cur.append(line.split('\t'))
    return out


PER_RELEASE_COLS = ['rank', 'commits', 'fixing', 'bugs_fixed', 'commits_fixed', 'bugs_intro',
                    'buggy_intro', 'same_rel']


class Actual:
    """What the extension put in the database."""

    def __init__(self, name, stable=False):
        t0 = time.monotonic()
        rid = "(SELECT repository_id FROM fixes_repositories WHERE name = $NAME$)"
        main = ' AND mainline' if stable else ''
        queries = {
            'repo': 'SELECT commits FROM fixes_repositories WHERE name = $NAME$',
            'commits': 'SELECT commit_id, release IS NULL, coalesce(release, \'\') FROM fixes_commits '
                       'WHERE repository_id = %s%s' % (rid, main),
            'per_release': 'SELECT release, release_rank, commits, fixing_commits, bugs_fixed, commits_fixed, '
                           'bugs_introduced, buggy_commits_introduced, fixed_same_release '
                           'FROM fixes_per_release WHERE repository = $NAME$',
            'buggiest': 'SELECT commit_id, fixes, rank FROM fixes_buggiest_commits WHERE repository = $NAME$',
            'edges': 'SELECT status, coalesce(method, \'\'), count(*) FROM fixes_edges e '
                     'WHERE repository_id = %s%s GROUP BY 1, 2'
                     % (rid, ' AND EXISTS (SELECT FROM fixes_commits c WHERE c.repository_id = e.repository_id '
                             'AND c.commit_idx = e.fixing_idx AND c.mainline)' if stable else ''),
        }
        if stable:
            queries.update({
                'st_commits': "SELECT commit_id, coalesce(release, '\\N') FROM fixes_commits "
                              "WHERE repository_id = %s AND NOT mainline" % rid,
                'st_releases': "SELECT release, coalesce(series, ''), commits, backports, bugs_fixed, "
                               "regressions_introduced, known_bugs FROM fixes_per_stable_release "
                               "WHERE repository = $NAME$",
                'st_backports': "SELECT c.commit_id, b.line, b.status, coalesce(u.commit_id, '\\N'), b.abbrev "
                                "FROM fixes_backports b JOIN fixes_commits c ON c.repository_id = b.repository_id "
                                "AND c.commit_idx = b.commit_idx LEFT JOIN fixes_commits u "
                                "ON u.repository_id = b.repository_id AND u.commit_idx = b.upstream_idx "
                                "WHERE b.repository_id = %s" % rid,
                'st_edges': "SELECT e.fixing_commit, e.line, e.abbrev, e.status, "
                            "coalesce(e.method, ''), coalesce(e.target_commit, '\\N') FROM fixes_edges e "
                            "JOIN fixes_commits c ON c.repository_id = e.repository_id AND c.commit_idx = e.fixing_idx "
                            "WHERE e.repository_id = %s AND NOT c.mainline" % rid,
                'affected': "SELECT fixing_commit, target_commit, coalesce(series, '\\N'), introduced_in, "
                            "coalesce(fixed_in, '\\N'), coalesce(fix_backport, '\\N') FROM fixes_affected "
                            "WHERE repository = $NAME$",
            })
        q = psql(queries, name)
        self.stable = q if stable else None
        if not q['repo']:
            sys.stderr.write('crosscheck: no repository named %r in the database\n' % name)
            sys.exit(2)
        self.repo_commits = int(q['repo'][0][0])
        self.release = {c: (r if isnull == 'f' else None) for c, isnull, r in q['commits']}
        self.commits_rows = len(q['commits'])
        self.per_release = {}
        self.per_release_order = []
        for row in q['per_release']:
            self.per_release[row[0]] = [int(x) for x in row[1:]]
            self.per_release_order.append(row[0])
        self.buggiest_rows = [(c, int(f), int(k)) for c, f, k in q['buggiest']]
        self.edge_counts = collections.Counter({(s, m): int(n) for s, m, n in q['edges']})
        self.seconds = time.monotonic() - t0


def check_stable(a, exp, st, act, differ):
    """The stable scope, row for row."""
    q = act.stable
    nul = lambda v: '\\N' if v is None else v

    def compare(what, expected, actual):
        expected, actual = collections.Counter(expected), collections.Counter(actual)
        if expected != actual:
            differ('%s (%d rows expected, %d in the database)' % (what, sum(expected.values()), sum(actual.values())),
                   ['missing: %s' % ' | '.join(r) for r in sorted(expected - actual)] +
                   ['unexpected: %s' % ' | '.join(r) for r in sorted(actual - expected)])
        return sum(expected.values())

    n_commits = compare('stable commits and their releases',
                        [(c, nul(r)) for c, r in st.release.items()], [tuple(r) for r in q['st_commits']])
    n_rel = compare('fixes_per_stable_release',
                    [(r,) + tuple(v) for r, v in st.per_stable.items()], [tuple(r) for r in q['st_releases']])
    n_bp = compare('fixes_backports',
                   [(c, str(n), s, nul(u), ab) for c, n, s, u, ab in st.backports], [tuple(r) for r in q['st_backports']])
    n_edges = compare('Fixes edges of stable commits',
                      [(c, str(n), ab, s, m, nul(t)) for c, n, ab, _, s, m, t in st.edges],
                      [tuple(r) for r in q['st_edges']])
    n_aff = compare('fixes_affected', [tuple(nul(x) for x in r) for r in st.affected],
                    [tuple(r) for r in q['affected']])
    print('%s: stable branches %s: %d stable commits, %d stable releases (%d series), %d backport lines, '
          '%d stable Fixes lines, %d fixes_affected rows (%d series rows); git side %.2f s'
          % (a.name, ', '.join(st.heads) or 'none', n_commits, n_rel, len({s for s in st.series.values() if s}),
             n_bp, n_edges, n_aff, sum(1 for r in st.affected if r[2] is not None), st.seconds))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--repo', required=True)
    ap.add_argument('--name', required=True, help='the name the repository was loaded under')
    ap.add_argument('--dbname')
    ap.add_argument('--show', action='store_true', help='print the per-release table even when it agrees')
    ap.add_argument('--stable-branches', metavar='RE', help='the stable_branches the repository was loaded with')
    a = ap.parse_args()
    if a.dbname:
        os.environ['PGDATABASE'] = a.dbname

    exp = Expected(a.repo)
    act = Actual(a.name, stable=a.stable_branches is not None)
    problems = []

    def differ(what, lines):
        problems.append(what)
        print('DIFF %s' % what)
        for l in lines[:MAX_SHOWN]:
            print('    ' + l)
        if len(lines) > MAX_SHOWN:
            print('    ... %d more' % (len(lines) - MAX_SHOWN))

    # commits
    n = len(exp.scope)
    if not (n == act.commits_rows == act.repo_commits):
        differ('number of commits', ['git rev-list HEAD: %d, fixes_commits rows: %d, fixes_repositories.commits: %d'
                                     % (n, act.commits_rows, act.repo_commits)])

    # commit -> release map
    lines = []
    for c in sorted(set(exp.release) | set(act.release)):
        if c not in act.release:
            lines.append('%s: expected release %s, missing from fixes_commits' % (c, exp.release[c]))
        elif c not in exp.release:
            lines.append('%s: in fixes_commits (release %s) but not reachable from HEAD' % (c, act.release[c]))
        elif exp.release[c] != act.release[c]:
            lines.append('%s: expected release %s, got %s' % (c, exp.release[c], act.release[c]))
    if lines:
        differ('commit -> release map (%d commits differ)' % len(lines), lines)

    # per release
    expr = exp.per_release()
    if expr != act.per_release or exp.releases != act.per_release_order or a.show:
        if expr != act.per_release or exp.releases != act.per_release_order:
            problems.append('fixes_per_release')
            print('DIFF fixes_per_release (expected from git | actual from the view; * marks a differing row)')
        w = max([len(r) for r in list(expr) + list(act.per_release)] + [8])
        head = ' '.join('%*s' % (max(len(c), 6), c) for c in PER_RELEASE_COLS)
        print('  %-*s  %s | %s' % (w, 'release', head, head))

        def fmt(v):
            return ' '.join('%*s' % (max(len(c), 6), '-' if v is None else x)
                            for c, x in zip(PER_RELEASE_COLS, v or [None] * len(PER_RELEASE_COLS)))
        order = exp.releases + [r for r in act.per_release_order if r not in expr]
        for r in order:
            e, g = expr.get(r), act.per_release.get(r)
            print('%s %-*s  %s | %s' % ('*' if e != g else ' ', w, r, fmt(e), fmt(g)))
        if exp.releases != act.per_release_order and sorted(exp.releases) == sorted(act.per_release_order):
            print('    release order differs: expected %s, got %s' % (exp.releases, act.per_release_order))

    # edges by (status, method)
    ee = exp.edge_counts()
    if ee != act.edge_counts:
        differ('fixes_edges by (status, method)',
               ['%-10s %-13s expected %6d  got %6d' % (s, m or '-', ee[(s, m)], act.edge_counts[(s, m)])
                for s, m in sorted(set(ee) | set(act.edge_counts))])

    # buggiest commits: multiset commit -> fixes, and rank = rank() over fixes desc
    eb = exp.buggiest()
    ab = collections.Counter()
    dup = []
    for c, f, _ in act.buggiest_rows:
        if c in ab:
            dup.append('%s appears twice' % c)
        ab[c] = f
    lines = dup + ['%s: expected %d fixes, got %d' % (c, eb[c], ab[c])
                   for c in sorted(set(eb) | set(ab), key=lambda c: (-eb[c], c)) if eb[c] != ab[c]]
    if lines:
        differ('fixes_buggiest_commits (%d commits differ)' % len(lines), lines)
    fixes_sorted = sorted(f for _, f, _ in act.buggiest_rows)
    lines = []
    for c, f, k in act.buggiest_rows:
        want = 1 + len(fixes_sorted) - bisect.bisect_right(fixes_sorted, f)
        if k != want:
            lines.append('%s: fixes %d, rank %d, rank() would give %d' % (c, f, k, want))
    if lines:
        differ('fixes_buggiest_commits.rank (%d rows)' % len(lines), lines)

    if a.stable_branches is not None:
        check_stable(a, exp, ExpectedStable(a.repo, exp, a.stable_branches), act, differ)

    top = eb.most_common(1)
    res = sum(v for (s, _), v in ee.items() if s == 'resolved')
    print('%s: %d commits, %d releases (%d tags dropped: %s), %d Fixes lines (%d resolved: %s), '
          '%d fixed commits (max %d fixes); git side %.2f s, database side %.2f s'
          % (a.name, n, len(exp.releases), sum(exp.dropped.values()),
             ', '.join('%d %s' % (v, k) for k, v in sorted(exp.dropped.items())) or 'none',
             len(exp.edges), res, ', '.join('%s %d' % (m, v) for (s, m), v in sorted(ee.items()) if s == 'resolved'),
             len(eb), top[0][1] if top else 0, exp.seconds, act.seconds))
    if problems:
        print('%s: FAILED, %d kinds of differences: %s' % (a.name, len(problems), '; '.join(problems)))
        return 1
    print('%s: commits, commit->release map, fixes_per_release, edge counts, fixes_buggiest_commits all agree'
          % a.name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
