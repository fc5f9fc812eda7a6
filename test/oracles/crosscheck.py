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
    (must be SQL rank() over fixes desc);
  - (1.1, issue 16) the revert edges by (status, method) and every row of
    fixes_reverted_commits; every row of fixes_bug_lifetimes and of fixes_lifetime_per_release;
    the trailers of every commit (fixes_trailers) against `git log
    --format='%(trailers:only,unfold)'`, and every row of fixes_trailers_per_release.

The semantics (an independent statement of the specification):
  scope      commits reachable from HEAD;
  releases   tags peeled to a commit in scope whose name does not match
             (rc|pre|alpha|beta|dev)[0-9]*$ case-insensitively, in version order (digit runs
             compare as numbers, other runs as strings, a name that runs out first sorts first);
  release    of a commit: the first release (in that order) whose commit is it or descends
             from it, i.e. `git rev-list <tag_i> --not <tag_1> .. <tag_i-1>`;
  edges      every message line matching ^\\s*Fixes:\\s*(commit\\s+)?([0-9a-f]{6,40})\\b
             (case-insensitive); the quoted subject is the text between the first (" and the
             last ") of the line; resolution: unique prefix match -> hash; several -> the one
             whose subject (git's %s) equals the quoted subject -> hash+subject, else
             ambiguous; none -> the unique commit whose subject equals the quoted subject ->
             subject, else not_found.
  reverts    every message line matching ^\\s*This reverts commit\\s+([0-9a-f]{7,40})(?![0-9a-f])
             (case-insensitive), resolved the same way with, as its subject, the text between
             the first and the last '"' of the reverting commit's subject when that subject
             starts with 'Revert "' (case-insensitive), else none.
  lifetimes  per resolved Fixes edge: the committer date of the fixing commit minus the
             target's; per release R, the median and 90th percentile (linear interpolation, as
             percentile_cont) in days over the edges from R into earlier releases, and the median
             over the edges into R from later releases or unreleased commits.
  trailers   what git prints, one "key: value" line each (invalid UTF-8 replaced byte by byte
             with U+FFFD, as the database does); per release and lower-cased key, the commits
             with such a trailer and those of them with a resolved Fixes edge.
  stable_cc  (1.2, issue 30) a commit whose message has a line matching, case-insensitively,
             ^[ \t\r\f\v]*cc:([^#\n]*) whose group holds stable@[a-z0-9] not preceded by a
             character of an address's local part ([a-z0-9.!#$%&'*+/=?^_`{|}~-] or non-ASCII);
             per release, those commits and those of them with a resolved Fixes edge.
  windows    (1.2) per release R: observed_days, the newest committer date of the commits in
             scope minus R's tag date (the tagger's, else the commit's: git's creatordate) in
             days; found_within_365d (730d): the edges the introduced median counts whose
             lifetime is at most 365 (730) days, NULL while observed_days is below 365 (730).

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
                 among the mainline ids (method id); a stable commit that is no merge
                 (`git rev-list --min-parents=2`) and none of whose lines resolved: the one
                 mainline commit, no merge, with the same `git log %s` (line 0, method subject);
  stable edges   as mainline edges, against the commits of both scopes;
  fixes_affected and fixes_per_stable_release as docs/stable-branches.md states them,
                 with ancestry from `git rev-list <series tag>`; a fix whose only backport in a
                 series is on a branch after its newest release (`git rev-list <branch> --not
                 HEAD <stable tags>`, the series of the branch as of a stable tag) is queued:
                 fixed_in NULL, fix_backport that backport (the smallest id).

With --release-tags all (1.3, issue 42: the repository was loaded with release_tags => 'all'),
every tag peeled to a commit counts, wherever it sits:

  releases   the tags peeled to a commit whose name is no pre-release, in version order; a tag
             whose commit HEAD does not reach is a release only when it is the first, in that
             order, to reach some commit of the scope (its rev-list below is not empty);
  release    of a commit of the scope: the first release whose tag reaches it, i.e. `git
             rev-list <tag_i> --not <tag_1> .. <tag_i-1>` restricted to the scope
             (`git tag --contains`);
  stable     the stable releases are the tags of stable commits that are no mainline release; a
             mainline release tagged on a stable commit (v2.0.0 on branch-2.0) releases the
             stable commits it reaches first, in version order with the stable releases, so that
             a backport before it ships in it; the series is the newest mainline release in
             `git rev-list <stable tag>`, as above.

Exits 0 when everything agrees, 1 on any difference (printed), 2 on a usage or tool error.
"""
import argparse, bisect, codecs, collections, hashlib, os, re, subprocess, sys, time

FIXES_RE = re.compile(r'^\s*Fixes:\s*(commit\s+)?([0-9a-f]{6,40})\b', re.IGNORECASE | re.ASCII)
REVERT_RE = re.compile(r'^\s*This reverts commit\s+([0-9a-f]{7,40})(?![0-9a-f])', re.IGNORECASE | re.ASCII)
STABLE_CC_LINE_RE = re.compile(r'^[ \t\r\f\v]*cc:([^#\n]*)', re.IGNORECASE | re.ASCII | re.MULTILINE)
STABLE_CC_ADDR_RE = re.compile(r"(?<![A-Za-z0-9.!#$%&'*+/=?^_`{|}~\x80-\U0010ffff-])stable@[A-Za-z0-9]",
                               re.IGNORECASE | re.ASCII)
PRERELEASE_RE = re.compile(r'(rc|pre|alpha|beta|dev)[0-9]*$', re.IGNORECASE)
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


def pg_replace(err):
    """Decode errors as PostgreSQL's text_decode.c replaces them: one U+FFFD per invalid byte."""
    return '\ufffd', err.start + 1


codecs.register_error('pg_replace', pg_replace)


def stable_cc(message):
    """Does the message have a Cc: line naming an address whose local part is 'stable'?"""
    return any(STABLE_CC_ADDR_RE.search(m.group(1)) for m in STABLE_CC_LINE_RE.finditer(message))


def revert_subject(subject):
    """The text inside Revert "..." of a reverting commit's subject, or None."""
    if len(subject) < 8 or subject[:8].lower() != 'revert "':
        return None
    last = subject.rfind('"')
    return subject[8:last] if last > 8 else None


def percentile_cont(values, p):
    """SQL percentile_cont(p) over values (None when there are none)."""
    v = sorted(values)
    if not v:
        return None
    pos = p * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (pos - lo) * (v[hi] - v[lo])


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

    def __init__(self, repo, release_tags='ref'):
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
            self.subject[h] = s.decode('utf-8', errors='pg_replace')
            self.message[h] = body.decode('utf-8', errors='pg_replace')
        # committer times from the raw headers: git log's %ct shows none before 1970
        self.ctime = {}         # commit id -> committer time (seconds), None without one
        for rec in git(repo, 'log', '-z', '--format=raw', 'HEAD').split(b'\0'):
            if not rec:
                continue
            head = rec.split(b'\n\n', 1)[0].split(b'\n')
            h = head[0].split()[1].decode('ascii')
            self.ctime[h] = None
            for line in head[1:]:
                if line.startswith(b'committer '):
                    f = line.rsplit(b'>', 1)[-1].split()
                    if f and re.fullmatch(rb'-?[0-9]+', f[0]):
                        self.ctime[h] = int(f[0])
                    break
        # git's trailers of every commit, one "key: value" line each
        out = git(repo, 'log', '-z', '--format=%H%n%(trailers:only,unfold)', 'HEAD')
        self.trailers = {}      # commit id -> [(key, value)] for commits with trailers
        for rec in out.split(b'\0'):
            if not rec:
                continue
            h, _, rest = rec.partition(b'\n')
            pairs = []
            for line in rest.split(b'\n'):
                if line:
                    k, sep, v = line.partition(b': ')
                    assert sep, (h, line)
                    pairs.append((k.decode('ascii'), v.decode('utf-8', errors='pg_replace')))
            if pairs:
                self.trailers[h.decode('ascii')] = pairs
        scope = git(repo, 'rev-list', 'HEAD').decode('ascii').split()
        if set(scope) != set(self.subject):
            sys.stderr.write('crosscheck: git log and git rev-list disagree on the scope\n')
            sys.exit(2)
        self.scope = set(scope)
        self.ids = sorted(self.scope)

        # releases: tags peeled to commits in scope, pre-releases excluded, in version order
        tags, created = [], []
        for line in git(repo, 'for-each-ref', '--format=%(refname)%00%(creatordate:raw)',
                        'refs/tags').decode('utf-8', errors='replace').splitlines():
            name, _, date = line.partition('\0')
            tags.append(name[len('refs/tags/'):])
            created.append(int(date.split()[0]) if date.split() else None)
        peeled = git(repo, 'cat-file', '--batch-check=%(objectname) %(objecttype)',
                     stdin=''.join('refs/tags/%s^{commit}\n' % t for t in tags).encode()).decode().splitlines()
        assert len(peeled) == len(tags)
        self.tag_commit = {}
        self.tag_time = {}      # tag -> its date: the tagger's, else the commit's (git's creatordate)
        for t, line, when in zip(tags, peeled, created):
            f = line.split()
            if len(f) == 2 and f[1] == 'commit' and (f[0] in self.scope or release_tags == 'all'):
                self.tag_time[t] = when if when is not None else self.ctime.get(f[0])
        self.dropped = collections.Counter()
        for t, line in zip(tags, peeled):
            f = line.split()
            if len(f) != 2 or f[1] != 'commit':
                self.dropped['not a commit'] += 1
            elif f[0] not in self.scope and release_tags != 'all':
                self.dropped['not reachable from HEAD'] += 1
            elif PRERELEASE_RE.search(t):
                self.dropped['pre-release'] += 1
            else:
                self.tag_commit[t] = f[0]
        candidates = sorted(self.tag_commit, key=version_key)
        cand_commit = dict(self.tag_commit)

        # release of each commit: git rev-list tag_i --not tag_1 .. tag_{i-1}, in the scope
        # (release_tags 'all', issue 42: a tag off HEAD is a release when it is the first,
        # in version order, to reach some commit of the scope: `git tag --contains`)
        self.release = dict.fromkeys(self.scope)    # commit -> release name or None
        self.release_commits = {}
        self.releases = []
        for i, r in enumerate(candidates):
            args = ['rev-list', cand_commit[r]]
            if i:
                args += ['--not'] + [cand_commit[p] for p in candidates[:i]]
            members = [c for c in git(repo, *args).decode('ascii').split() if c in self.scope]
            if self.tag_commit[r] not in self.scope and not members:
                del self.tag_commit[r]
                self.dropped['reaches no commit of the scope first'] += 1
                continue
            self.releases.append(r)
            self.release_commits[r] = len(members)
            for c in members:
                assert self.release[c] is None, (c, r)
                self.release[c] = r
        self.rank = {r: i + 1 for i, r in enumerate(self.releases)}

        # subjects -> commits, for the subject-based resolution
        by_subject = collections.defaultdict(list)
        for c, s in self.subject.items():
            by_subject[s].append(c)

        def resolve(abbrev, q):
            lo = bisect.bisect_left(self.ids, abbrev)
            hi = bisect.bisect_left(self.ids, abbrev + 'g')     # 'g' sorts after every hex digit
            cands = self.ids[lo:hi]
            if len(cands) == 1:
                return ('resolved', 'hash', cands[0])
            if cands:
                same = [x for x in cands if q is not None and self.subject[x] == q]
                return ('resolved', 'hash+subject', same[0]) if len(same) == 1 else ('ambiguous', '', None)
            same = by_subject.get(q, []) if q is not None else []
            return ('resolved', 'subject', same[0]) if len(same) == 1 else ('not_found', '', None)

        # edges: Fixes: lines, and revert lines (kind 'revert', 1.1)
        self.edges = []         # (fixing, line no, abbrev, quoted, status, method, target)
        self.reverts = []       # the same, of the revert lines
        for c, msg in self.message.items():
            for n, line in enumerate(msg.split('\n'), 1):
                m = FIXES_RE.match(line)
                if m:
                    abbrev = m.group(2).lower()
                    q = quoted_subject(line)
                    self.edges.append((c, n, abbrev, q) + resolve(abbrev, q))
                    continue
                m = REVERT_RE.match(line)
                if m:
                    abbrev = m.group(1).lower()
                    q = revert_subject(self.subject[c])
                    self.reverts.append((c, n, abbrev, q) + resolve(abbrev, q))
        self.seconds = time.monotonic() - t0

    def per_release(self):
        """release -> [rank, commits, fixing_commits, bugs_fixed, commits_fixed, bugs_introduced,
        buggy_commits_introduced, fixed_same_release, tagged_commits, fixing_earlier_commits,
        reverts, reverted_introduced, stable_cc_commits, stable_cc_fixing_commits]"""
        inf = len(self.releases) + 1            # unreleased: later than every release
        fixing = collections.defaultdict(set)
        bugs_fixed = collections.Counter()
        commits_fixed = collections.defaultdict(set)
        bugs_intro = collections.Counter()
        buggy_intro = collections.defaultdict(set)
        same = collections.Counter()
        tagged = collections.defaultdict(set)
        earlier = collections.defaultdict(set)
        reverts = collections.Counter()
        reverted = collections.Counter()
        for c, _, _, _, status, _, t in self.edges:
            if self.release[c]:
                tagged[self.release[c]].add(c)
        for c, _, _, _, status, _, t in self.reverts:
            if status != 'resolved':
                continue
            fr, tr = self.release[c], self.release[t]
            if fr:
                reverts[fr] += 1
            if tr and (not fr or self.rank[fr] > self.rank[tr]):
                reverted[tr] += 1
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
                earlier[fr].add(c)
            if tr and fk > tk:
                bugs_intro[tr] += 1
                buggy_intro[tr].add(t)
            if fr and fr == tr:
                same[fr] += 1
        cc = collections.Counter()
        cc_fixing = collections.Counter()
        any_fixing = {c for c, _, _, _, status, _, _ in self.edges if status == 'resolved'}
        for c, yes in self.stable_cc().items():
            if yes and self.release[c]:
                cc[self.release[c]] += 1
                cc_fixing[self.release[c]] += c in any_fixing
        return {r: [self.rank[r], self.release_commits[r], len(fixing[r]), bugs_fixed[r], len(commits_fixed[r]),
                    bugs_intro[r], len(buggy_intro[r]), same[r], len(tagged[r]), len(earlier[r]),
                    reverts[r], reverted[r], cc[r], cc_fixing[r]] for r in self.releases}

    def stable_cc(self):
        """commit -> has a Cc: stable line"""
        return {c: stable_cc(m) for c, m in self.message.items()}

    def revert_counts(self):
        return collections.Counter((status, method) for _, _, _, _, status, method, _ in self.reverts)

    def reverted_commits(self):
        """the rows of fixes_reverted_commits: (commit, reverted_by, release, reverted_in, same)"""
        return collections.Counter(
            (t, c, self.release[t] or '', self.release[c] or '', self.release[t] == self.release[c])
            for c, _, _, _, status, _, t in self.reverts if status == 'resolved')

    def lifetimes(self):
        """the rows of fixes_bug_lifetimes: (fixing, target, seconds, introduced_in, fixed_in,
        releases_shipped)"""
        rows = collections.Counter()
        for c, _, _, _, status, _, t in self.edges:
            if status != 'resolved':
                continue
            secs = (self.ctime[c] - self.ctime[t]
                    if self.ctime[c] is not None and self.ctime[t] is not None else None)
            fr, tr = self.release[c], self.release[t]
            shipped = self.rank[fr] - self.rank[tr] if fr and tr else None
            rows[(c, t, secs, tr or '', fr or '', shipped)] += 1
        return rows

    def lifetime_per_release(self):
        """release -> (fixed median, fixed p90, introduced median, observed days, found within 365
        days, within 730 days), in days"""
        fixed = collections.defaultdict(list)
        introduced = collections.defaultdict(list)
        introduced_secs = collections.defaultdict(list)
        dated = [t for t in self.ctime.values() if t is not None]
        newest = max(dated) if dated else None
        for c, _, _, _, status, _, t in self.edges:
            if status != 'resolved':
                continue
            fr, tr = self.release[c], self.release[t]
            if not tr or self.ctime[c] is None or self.ctime[t] is None:
                continue
            days = (self.ctime[c] - self.ctime[t]) / 86400.0
            if fr and self.rank[fr] > self.rank[tr]:
                fixed[fr].append(days)
            if not fr or self.rank[fr] > self.rank[tr]:
                introduced[tr].append(days)
                introduced_secs[tr].append(self.ctime[c] - self.ctime[t])
        out = {}
        for r in self.releases:
            seen = (newest - self.tag_time[r]) / 86400.0 if newest is not None else None
            within = [None if seen is None or seen < n else sum(1 for x in introduced_secs[r] if x <= n * 86400)
                      for n in (365, 730)]
            out[r] = (percentile_cont(fixed[r], 0.5), percentile_cont(fixed[r], 0.9),
                      percentile_cont(introduced[r], 0.5), seen, within[0], within[1])
        return out

    def trailer_digests(self):
        """commit -> (number of trailers, md5 of its "key: value" lines joined by newlines)"""
        return {c: (len(p), hashlib.md5('\n'.join('%s: %s' % kv for kv in p).encode('utf-8')).hexdigest())
                for c, p in self.trailers.items()}

    def trailers_per_release(self):
        """(release, lower-cased key) -> [commits, fixing_commits]"""
        fixing = {c for c, _, _, _, status, _, _ in self.edges if status == 'resolved'}
        out = collections.defaultdict(lambda: [0, 0])
        for c, pairs in self.trailers.items():
            r = self.release[c]
            if not r:
                continue
            for k in {k.lower() for k, _ in pairs}:
                out[(r, k)][0] += 1
                out[(r, k)][1] += c in fixing
        return dict(out)

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
            if (len(f) == 2 and f[1] == 'commit' and f[0] in self.scope and not PRERELEASE_RE.search(t)
                    and t not in exp.rank):
                self.tag_commit[t] = f[0]
        self.releases = sorted(self.tag_commit, key=version_key)
        # release_tags 'all' (issue 42): a mainline release tagged on a stable commit (v2.0.0 on
        # branch-2.0) releases the stable commits it reaches first, as the stable releases do
        releasing = dict(self.tag_commit)
        releasing.update({m: exp.tag_commit[m] for m in exp.releases if exp.tag_commit[m] in self.scope})
        self.releasing = sorted(releasing, key=version_key)
        self.release = dict.fromkeys(self.scope)
        self.release_commits = {}
        for i, r in enumerate(self.releasing):
            members = git(repo, 'rev-list', releasing[r], '--not', 'HEAD',
                          *[releasing[p] for p in self.releasing[:i]]).decode('ascii').split()
            if r in self.tag_commit:
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

        # the series of each branch head, and its commits that no stable release has (queued)
        stable_tags = [releasing[r] for r in self.releasing]
        self.queued = {}        # unreleased stable commit -> series of its (first) branch
        for h in heads:
            anc = set(git(repo, 'rev-list', h).decode('ascii').split())
            cands = [m for m in exp.releases if exp.tag_commit[m] in anc]
            b = max(cands, key=version_key) if cands else None
            if b is None:
                continue
            for c in git(repo, 'rev-list', h, '--not', 'HEAD', *stable_tags).decode('ascii').split():
                self.queued.setdefault(c, b)

        # backports, against the mainline
        self.backports = []     # (commit, line, status, upstream or None, abbrev, method)
        for c, msg in self.message.items():
            for n, line in enumerate(msg.split('\n'), 1):
                for rxb in BACKPORT_RES:
                    m = rxb.match(line)
                    if m:
                        abbrev = m.group(1).lower()
                        cands = prefix_matches(exp.ids, abbrev)
                        st = 'resolved' if len(cands) == 1 else 'ambiguous' if cands else 'not_found'
                        self.backports.append((c, n, st, cands[0] if len(cands) == 1 else None, abbrev,
                                               'id' if st == 'resolved' else ''))
                        break
        # a stable commit (not a merge) none of whose lines resolved: the one non-merge
        # mainline commit with the same subject (git log %s), as a row of line 0
        merges = set(git(repo, 'rev-list', '--min-parents=2', 'HEAD', *heads).decode('ascii').split())
        by_subject = collections.defaultdict(list)
        for m, subj in exp.subject.items():
            if m not in merges:
                by_subject[subj].append(m)
        have = {c for c, _, st, _, _, _ in self.backports if st == 'resolved'}
        for c in self.scope:
            if c not in have and c not in merges and len(by_subject.get(self.subject[c], ())) == 1:
                self.backports.append((c, 0, 'resolved', by_subject[self.subject[c]][0], '', 'subject'))

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
            for c, _, st, up, _, _ in sorted(self.backports, key=lambda x: x[0]):
                r = self.release[c]
                # (release_tags 'all') a backport before the series' own release ships in it
                if st != 'resolved' or r is None or (r if r in exp.rank else self.series[r]) != b:
                    continue
                old = first.get(up)
                if old is None or (pos(r), c) < (pos(old[0]), old[1]):
                    first[up] = (r, c)
            queued = {}         # upstream -> its queued backport in this series, the smallest id
            for c, _, st, up, _, _ in self.backports:
                if st == 'resolved' and self.release[c] is None and self.queued.get(c) == b:
                    queued[up] = min(queued.get(up, c), c)
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
                # a fix on the branch after its newest release: queued (fixed_in NULL, its backport)
                self.affected.add((f, t, b, intro, fx[0] if fx else None, fx[1] if fx else queued.get(f)))
                for r in mine:
                    if fx and fx[0] == r:
                        per[r]['bugs_fixed'] += 1
                    if imported and intro == r:
                        per[r]['regressions'] += 1
                    if pos(intro) <= pos(r) and (fx is None or pos(fx[0]) > pos(r)):
                        per[r]['known'] += 1
        backported = collections.Counter()
        for c in {c for c, _, st, _, _, _ in self.backports if st == 'resolved'}:
            if self.release[c] is not None and self.release[c] in self.tag_commit:
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
                    'buggy_intro', 'same_rel', 'tagged', 'earlier', 'reverts', 'reverted', 'cc', 'cc_fix']


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
                           'bugs_introduced, buggy_commits_introduced, fixed_same_release, tagged_commits, '
                           'fixing_earlier_commits, reverts, reverted_introduced, stable_cc_commits, '
                           'stable_cc_fixing_commits FROM fixes_per_release WHERE repository = $NAME$',
            'stable_cc': 'SELECT commit_id, stable_cc FROM fixes_commits WHERE repository_id = %s%s' % (rid, main),
            'buggiest': 'SELECT commit_id, fixes, rank FROM fixes_buggiest_commits WHERE repository = $NAME$',
            'edges': 'SELECT status, coalesce(method, \'\'), count(*) FROM fixes_edges e '
                     'WHERE repository_id = %s AND kind = \'fixes\'%s GROUP BY 1, 2'
                     % (rid, ' AND EXISTS (SELECT FROM fixes_commits c WHERE c.repository_id = e.repository_id '
                             'AND c.commit_idx = e.fixing_idx AND c.mainline)' if stable else ''),
            'reverts': 'SELECT status, coalesce(method, \'\'), count(*) FROM fixes_edges '
                       'WHERE repository_id = %s AND kind = \'revert\' GROUP BY 1, 2' % rid,
            'reverted': 'SELECT commit_id, reverted_by, coalesce(release, \'\'), coalesce(reverted_in, \'\'), '
                        'same_release FROM fixes_reverted_commits WHERE repository = $NAME$',
            'lifetimes': 'SELECT fixing_commit, target_commit, EXTRACT(epoch FROM lifetime)::bigint, '
                         'coalesce(introduced_in, \'\'), coalesce(fixed_in, \'\'), releases_shipped '
                         'FROM fixes_bug_lifetimes WHERE repository = $NAME$',
            'lifetime_per_release': 'SELECT release, fixed_median_days, fixed_p90_days, introduced_median_days, '
                                    'observed_days, found_within_365d, found_within_730d '
                                    'FROM fixes_lifetime_per_release WHERE repository = $NAME$',
            'trailers': 'SELECT c.commit_id, count(*), md5(string_agg(t.key || \': \' || t.value, E\'\\n\' '
                        'ORDER BY t.position)) FROM fixes_trailers t JOIN fixes_commits c '
                        'USING (repository_id, commit_idx) WHERE t.repository_id = %s GROUP BY c.commit_id' % rid,
            'trailers_per_release': 'SELECT release, key, commits, fixing_commits FROM fixes_trailers_per_release '
                                    'WHERE repository = $NAME$',
        }
        if stable:
            queries.update({
                'st_commits': "SELECT commit_id, coalesce(release, '\\N') FROM fixes_commits "
                              "WHERE repository_id = %s AND NOT mainline" % rid,
                'st_releases': "SELECT release, coalesce(series, ''), commits, backports, bugs_fixed, "
                               "regressions_introduced, known_bugs FROM fixes_per_stable_release "
                               "WHERE repository = $NAME$",
                'st_backports': "SELECT c.commit_id, b.line, b.status, coalesce(u.commit_id, '\\N'), b.abbrev, "
                                "coalesce(b.method, '') "
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
        self.revert_counts = collections.Counter({(s, m): int(n) for s, m, n in q['reverts']})
        self.reverted = collections.Counter((c, b, r, i, same == 't') for c, b, r, i, same in q['reverted'])
        self.lifetimes = collections.Counter(
            (f, t, int(secs) if secs else None, i, x, int(shipped) if shipped else None)
            for f, t, secs, i, x, shipped in q['lifetimes'])
        self.lifetime_per_release = {r: tuple(float(v) if v else None for v in rest)
                                     for r, *rest in q['lifetime_per_release']}
        self.trailers = {c: (int(n), md5) for c, n, md5 in q['trailers']}
        self.stable_cc = {c: {'t': True, 'f': False}.get(v) for c, v in q['stable_cc']}
        self.trailers_per_release = {(r, k): [int(n), int(f)] for r, k, n, f in q['trailers_per_release']}
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
                   [(c, str(n), s, nul(u), ab, m) for c, n, s, u, ab, m in st.backports], [tuple(r) for r in q['st_backports']])
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
    ap.add_argument('--release-tags', choices=['ref', 'all'], default='ref',
                    help='the release_tags the repository was loaded with (1.3, issue 42)')
    a = ap.parse_args()
    if a.dbname:
        os.environ['PGDATABASE'] = a.dbname

    exp = Expected(a.repo, a.release_tags)
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

    # revert edges by (status, method), and fixes_reverted_commits row for row
    er = exp.revert_counts()
    if er != act.revert_counts:
        differ('revert edges of fixes_edges by (status, method)',
               ['%-10s %-13s expected %6d  got %6d' % (s, m or '-', er[(s, m)], act.revert_counts[(s, m)])
                for s, m in sorted(set(er) | set(act.revert_counts))])
    erc = exp.reverted_commits()
    if erc != act.reverted:
        differ('fixes_reverted_commits (%d rows differ)' % sum(((erc - act.reverted) + (act.reverted - erc)).values()),
               ['expected, missing: %s' % (r,) for r in sorted((erc - act.reverted).elements())] +
               ['got, unexpected: %s' % (r,) for r in sorted((act.reverted - erc).elements())])

    # fixes_bug_lifetimes row for row; fixes_lifetime_per_release within 1e-9 days
    el = exp.lifetimes()
    if el != act.lifetimes:
        differ('fixes_bug_lifetimes (%d rows differ)' % sum(((el - act.lifetimes) + (act.lifetimes - el)).values()),
               ['expected, missing: %s' % (r,) for r in sorted((el - act.lifetimes).elements(), key=str)] +
               ['got, unexpected: %s' % (r,) for r in sorted((act.lifetimes - el).elements(), key=str)])
    elr = exp.lifetime_per_release()

    def close(x, y):
        return (x is None and y is None) or (x is not None and y is not None and abs(x - y) <= 1e-9 * max(1, abs(x)))
    lines = ['%s: expected %s, got %s' % (r, elr.get(r), act.lifetime_per_release.get(r))
             for r in sorted(set(elr) | set(act.lifetime_per_release), key=version_key)
             if r not in elr or r not in act.lifetime_per_release or
             not all(close(x, y) for x, y in zip(elr[r], act.lifetime_per_release[r]))]
    if lines:
        differ('fixes_lifetime_per_release (%d releases differ)' % len(lines), lines)

    # trailers: per commit, git's lines against fixes_trailers; per release and key
    et = exp.trailer_digests()
    lines = ['%s: git prints %s, fixes_trailers holds %s (count, md5)' % (c, et.get(c), act.trailers.get(c))
             for c in sorted(set(et) | set(act.trailers)) if et.get(c) != act.trailers.get(c)]
    for c in [c for c in sorted(set(et) | set(act.trailers)) if et.get(c) != act.trailers.get(c)][:3]:
        lines.append('    git for %s: %r' % (c[:12], exp.trailers.get(c)))
    if lines:
        differ('fixes_trailers against git log --format=%%(trailers:only,unfold) (%d commits differ)'
               % sum(1 for c in set(et) | set(act.trailers) if et.get(c) != act.trailers.get(c)), lines)
    etr = exp.trailers_per_release()
    lines = ['%s %s: expected %s, got %s' % (r, k, etr.get((r, k)), act.trailers_per_release.get((r, k)))
             for r, k in sorted(set(etr) | set(act.trailers_per_release))
             if etr.get((r, k)) != act.trailers_per_release.get((r, k))]
    if lines:
        differ('fixes_trailers_per_release (%d rows differ)' % len(lines), lines)

    # stable_cc of every commit against the regular expressions over git log's messages
    ecc = exp.stable_cc()
    lines = ['%s: expected stable_cc %s, got %s' % (c, ecc.get(c), act.stable_cc.get(c))
             for c in sorted(set(ecc) | set(act.stable_cc)) if ecc.get(c) != act.stable_cc.get(c)]
    if lines:
        differ('fixes_commits.stable_cc (%d commits differ)' % len(lines), lines)

    top = eb.most_common(1)
    res = sum(v for (s, _), v in ee.items() if s == 'resolved')
    print('%s: %d commits, %d releases (%d tags dropped: %s), %d Fixes lines (%d resolved: %s), '
          '%d fixed commits (max %d fixes); git side %.2f s, database side %.2f s'
          % (a.name, n, len(exp.releases), sum(exp.dropped.values()),
             ', '.join('%d %s' % (v, k) for k, v in sorted(exp.dropped.items())) or 'none',
             len(exp.edges), res, ', '.join('%s %d' % (m, v) for (s, m), v in sorted(ee.items()) if s == 'resolved'),
             len(eb), top[0][1] if top else 0, exp.seconds, act.seconds))
    print('%s: %d revert lines (%d resolved), %d bug lifetimes, %d trailers in %d commits, %d (release, key) rows'
          % (a.name, len(exp.reverts), sum(v for (s, _), v in er.items() if s == 'resolved'),
             sum(el.values()), sum(len(p) for p in exp.trailers.values()), len(exp.trailers), len(etr)))
    print('%s: %d commits with a Cc: stable line; %d releases observed 365 days or more, %d 730 days or more'
          % (a.name, sum(ecc.values()), sum(1 for v in elr.values() if v[4] is not None),
             sum(1 for v in elr.values() if v[5] is not None)))
    if problems:
        print('%s: FAILED, %d kinds of differences: %s' % (a.name, len(problems), '; '.join(problems)))
        return 1
    print('%s: commits, commit->release map, fixes_per_release, edge counts, fixes_buggiest_commits, '
          'reverts, fixes_reverted_commits, lifetimes, trailers and trailers per release, stable_cc and '
          'the windowed lifetimes all agree' % a.name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
