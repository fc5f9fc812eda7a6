#!/usr/bin/env python3
"""measure.py — the measurements and the report of bench/run (python3 standard library only).

bench/run prepares the repositories and the server, then calls

    measure.py --size LABEL:PATH[:GROWN_PATH:GROWN_N] ... --runs 3 --out bench/RESULTS.md
               [--db fixes_bench] [--keep-db] [--psql PSQL] [--command 'bench/run ...']

with PGHOST/PGPORT/PGUSER set to a superuser connection (scripts/sandbox env).  See bench/run for
what is measured; this file prints the table and writes the Markdown report.
"""
import argparse, datetime, hashlib, os, platform, re, statistics, subprocess, sys, tempfile, threading, time

GIT_LOG_FORMAT = '%H%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B%x01'
LONG = 60.0          # a measurement above this many seconds is taken once
MIB = 1024 * 1024
HWM_TARGET = 512 * MIB
COLD_RATIO_TARGET = 1.0
# issue 31: a refresh after +1% against the work any refresh must do, measured in the same run
REFRESH_RATIO = 1.5
# issue 31: a daily refresh (+200 commits and a tag) at the largest --daily size against the smallest
DAILY_RATIO = 1.3
RELOAD_TARGET = 0.25
# issue 31: the joins of 100 ids that must be fast in a new session right after a cold load
FRESH_JOINS = ('join_ids', 'join_fixing')
FRESH_JOIN_MS = 5.0
# issue 30: fixes_per_subsystem warm, with MAINTAINERS
SUBSYSTEM_MS = 50.0

TARGETS = {
    'cold_floor': 'fixes_load cold ≤ 1.0× git log floor (median of alternating pairs)',
    'cold_60': 'fixes_load cold < 60 s',
    'hwm': 'peak private memory of the backend (RssAnon, sampled) ≤ 512 MiB',
    'per_release': 'fixes_per_release warm ≤ 300 ms',
    'buggiest': 'fixes_buggiest_commits LIMIT 30 warm ≤ 300 ms',
    'refresh': 'refresh after +1% commits and a new tag ≤ 1.5× the reference (the plain-SQL INSERT of every '
               'row it writes for its new commits, in fixes_commits, fixes_trailers and fixes_edges, in one '
               'transaction in a new backend + git log OLD..HEAD with bodies; issue 45)',
    'reload': 'reload with nothing changed < 0.25 s',
    'fresh_joins': 'joins of 100 ids with fixes_commits and with fixes_edges.fixing_commit, in a new session '
                   'right after the cold load (no ANALYZE by the benchmark, autovacuum off) ≤ 5 ms, the first '
                   'execution (after the EXPLAIN that fills the session\'s catalog caches) and the best of 5',
    'daily': 'daily refresh (+200 commits and a tag, after a cold load of the base) at the largest --daily size '
             '≤ 1.3× the same at the smallest',
    'new_data': 'the data of issue 16 and after (trailers, revert edges, the counts of 1.1 and 1.2) adds ≤ 20% to a '
                'cold load (against the same library loading a database at 1.0 SQL)',
    'lifetimes': 'fixes_bug_lifetimes and fixes_lifetime_per_release warm ≤ 300 ms',
    'files_cold': 'fixes_load(files => true, maintainers) cold ≤ 1.0× git log --numstat --no-renames',
    'files_refresh': 'refresh with files after +1% commits and a new tag ≤ 1.5× the reference (the same INSERT '
                     '+ git log --numstat --no-renames OLD..HEAD)',
    'files_hwm': 'peak private memory of the backend with files (RssAnon, sampled) ≤ 512 MiB',
    'subsystem': 'fixes_per_subsystem warm (MAINTAINERS loaded) < 50 ms',
    'files_views': 'fixes_per_path_prefix warm ≤ 1 s',
    'stable_cold': 'fixes_load cold with stable branches ≤ 1.3× the mainline-only load of the same repository',
    'stable_affected': 'fixes_affected for one fixing commit ≤ 10 ms',
    'stable_per_release': 'fixes_per_stable_release warm ≤ 300 ms',
    'stable_hwm': 'peak private memory of the backend with stable branches (RssAnon, sampled) ≤ 512 MiB',
    'cve_releases': 'fixes_affected_releases for one fixing commit ≤ 20 ms',
    'cve_one': 'fixes_cve_affected for one fix ≤ 20 ms',
    'cve_all': 'fixes_cve_affected_all for the whole repository ≤ 10 s',
}

# the stable branches of make-history --stable K (issue 13): vM.N.y
STABLE_ARGS = ", stable_branches => '^refs/heads/v[0-9]+\\.[0-9]+\\.y$'"

# the reference of the new_data target: a database whose SQL is at 1.0, which the library loads as
# 1.0 did (src/load/load_schema.c: no trailers, no revert edges, none of the counts of 1.1 and 1.2).
# Until 1.2 it was the default version less the tables of issue 16; since one flag says what a
# version has (issue 27), a table missing from a version that has it is an error ("table ... of
# extension fixes is missing"), not a schema to load into
WITHOUT_ISSUE16_VERSION = '1.0'

# autovacuum off for the extension's tables in the benchmark's database (and their TOAST tables):
# no ANALYZE or VACUUM of autovacuum's lands in a timing, and the planner statistics that the
# look-ups right after a cold load see are exactly those the load left (issue 31)
AUTOVACUUM_OFF = '''DO $$
DECLARE r regclass;
BEGIN
    FOR r IN SELECT c.oid::regclass FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_class c ON c.oid = d.objid
              WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.deptype = 'e' AND c.relkind = 'r'
                AND d.refobjid = (SELECT oid FROM pg_catalog.pg_extension WHERE extname = 'fixes')
    LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = off, toast.autovacuum_enabled = off)', r);
    END LOOP;
END $$;'''

# the views of 1.1 (issue 16), timed like fixes_per_release: key, statement
VIEWS_11 = [
    ('lifetimes', 'SELECT * FROM fixes_bug_lifetimes'),
    ('lifetime_per_release', 'SELECT * FROM fixes_lifetime_per_release'),
    ('trailers_per_release', 'SELECT * FROM fixes_trailers_per_release'),
    ('reverted', 'SELECT * FROM fixes_reverted_commits'),
]


# the loads with files and subsystems (issue 14); make-history writes a MAINTAINERS file
FILES_ARGS = ", files => true, maintainers => 'MAINTAINERS'"
# look-ups by commit id (issue 12): key, title, target in ms; each statement is built by lookup_sql
LOOKUPS = [
    ('full_id', 'look-up of a commit by full id', 1.0),
    ('prefix', 'look-up of commits by an 8-hex prefix (LIKE)', 2.0),
    ('join_ids', 'join of 100 ids with fixes_commits', 5.0),
    ('join_fixing', 'join of 100 ids with fixes_edges.fixing_commit', 5.0),
    ('join_target', 'join of 100 ids with fixes_edges.target_commit', 5.0),
]
LOOKUP_RUNS = 5      # timed runs of each look-up, after one that warms; the best is reported


# what the refresh check compares: the refreshed repository against a cold load of the same copy
CHECKS = [
    ('fixes_commits', 'commit_id, parent_ids, release, subject, message, committed_at', 'fixes_commits'),
    ('fixes_releases', 'release_rank, tag, commit_id, annotated, released_at, commits', 'fixes_releases'),
    ('fixes_edges', 'fixing_commit, line, target_commit, status, method, candidates, fixed_at, '
                    'fixing_release, target_release, abbrev, quoted_subject, raw', 'fixes_edges'),
    ('fixes_per_release', 'release, release_rank, released_at, commits, fixing_commits, bugs_fixed, '
                          'commits_fixed, bugs_introduced, buggy_commits_introduced, fixed_same_release',
     'fixes_per_release'),
    ('fixes_buggiest_commits', 'rank, commit_id, fixes, subject, release, first_fixed_at, last_fixed_at',
     'fixes_buggiest_commits'),
    ('fixes_trailers_per_release', 'release, key, commits, fixing_commits', 'fixes_trailers_per_release'),
    ('fixes_bug_lifetimes', 'fixing_commit, target_commit, lifetime, introduced_in, fixed_in, releases_shipped',
     'fixes_bug_lifetimes'),
    ('fixes_reverted_commits', 'commit_id, reverted_by, release, reverted_in, same_release',
     'fixes_reverted_commits'),
]


def src_cols(src):
    return 'repository_id' if src in ('fixes_commits', 'fixes_releases', 'fixes_edges') else 'repository'


def log(msg):
    print('measure: ' + msg, flush=True)


def lit(s):
    return "'" + s.replace("'", "''") + "'"


class SqlError(Exception):
    pass


class Psql:
    def __init__(self, psql):
        self.psql = psql

    def run(self, sql, db='postgres', check=True):
        p = subprocess.run([self.psql, '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', db],
                           input=sql, capture_output=True, text=True,
                           env=dict(os.environ, PGOPTIONS='-c client_min_messages=warning'))
        if check and p.returncode:
            raise SqlError(p.stderr.strip() or 'psql exit status %d' % p.returncode)
        return p.stdout

    def session(self, db, stmts, sample=False):
        """Run stmts in one new connection with \\timing; return per statement (rows, ms),
        and the backend's /proc/self/status read at the end; with sample, also the peaks of
        VmRSS and RssAnon seen by polling /proc/PID/status every 10 ms meanwhile."""
        with tempfile.TemporaryDirectory(prefix='fixes-bench-') as tmp:
            pidfile = os.path.join(tmp, 'pid')
            script = ['\\timing on', 'SELECT pg_backend_pid() \\g ' + pidfile]
            for i, s in enumerate(stmts):
                script += ['\\echo @@stmt %d' % i, s.rstrip().rstrip(';') + ';']
            script += ['\\echo @@status', "SELECT pg_read_file('/proc/self/status');",
                       "SELECT pg_read_file('/proc/self/stat');"]
            proc = subprocess.Popen([self.psql, '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', db],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            peaks = {'VmRSS': 0, 'RssAnon': 0, 'samples': 0}
            done = threading.Event()
            sampler = None
            if sample:
                sampler = threading.Thread(target=poll_status, args=(pidfile, done, peaks), daemon=True)
                sampler.start()
            out, err = proc.communicate('\n'.join(script) + '\n')
            done.set()
            if sampler:
                sampler.join()
        if proc.returncode:
            raise SqlError((err.strip() or 'psql exit status %d' % proc.returncode)
                           + ('\n(last output: %s)' % out.strip().splitlines()[-1] if out.strip() else ''))
        results, cur, status = [], None, None
        for line in out.split('\n'):
            if line.startswith('@@stmt '):
                cur = {'rows': [], 'ms': None}
                results.append(cur)
            elif line == '@@status':
                cur, status = None, []
            elif status is not None:
                status.append(line)
            elif cur is not None:
                m = re.match(r'Time: ([\d.]+) ms', line)
                if m and cur['ms'] is None:
                    cur['ms'] = float(m.group(1))
                elif line:
                    cur['rows'].append(line.split('|'))
        st = {}
        for line in status or []:
            m = re.match(r'(\w+):\s+(\d+) kB', line)
            if m:
                st[m.group(1)] = int(m.group(2)) * 1024
            m = re.match(r'\d+ \(.*\) (\S.*)', line)
            if m:
                # /proc/self/stat: the backend's CPU time, and that of the children it waited for
                # (the reader process, and through it its workers), in seconds
                f = m.group(1).split()
                tck = float(os.sysconf('SC_CLK_TCK'))
                st['cpu_self'] = (int(f[11]) + int(f[12])) / tck
                st['cpu_children'] = (int(f[13]) + int(f[14])) / tck
        return results, st, peaks, err


def poll_status(pidfile, done, peaks):
    pid = None
    while not done.is_set() and pid is None:
        try:
            with open(pidfile) as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            time.sleep(0.005)
    if pid is None:
        return
    path = '/proc/%d/status' % pid
    while not done.is_set():
        try:
            with open(path) as f:
                txt = f.read()
        except OSError:
            return
        for key in ('VmRSS', 'RssAnon'):
            m = re.search(r'^%s:\s+(\d+) kB' % key, txt, re.M)
            if m:
                peaks[key] = max(peaks[key], int(m.group(1)) * 1024)
        peaks['samples'] += 1
        done.wait(0.01)


class Sample(list):
    """timings in seconds, with the errors met"""
    def __init__(self):
        super().__init__()
        self.errors = []

    def med(self):
        return statistics.median(self) if self else None


def values_list(ids):
    return 'VALUES ' + ', '.join('(%s)' % lit(i) for i in ids)


def lookup_sql(key, ids):
    """the statement of a look-up, over ids picked from the loaded repository"""
    if key == 'full_id':
        return ('SELECT commit_id, release, subject FROM fixes_commits WHERE commit_id = %s'
                % lit(ids['one']))
    if key == 'prefix':
        return ('SELECT commit_id, release, subject FROM fixes_commits WHERE commit_id LIKE %s'
                % lit(ids['prefix'] + '%'))
    if key == 'join_ids':
        return ('SELECT v.id, c.release, c.subject FROM (%s) AS v(id) '
                'JOIN fixes_commits c ON c.commit_id = v.id' % values_list(ids['commits']))
    if key == 'join_fixing':
        return ('SELECT e.fixing_commit, e.line, e.status, e.target_commit FROM (%s) AS v(id) '
                'JOIN fixes_edges e ON e.fixing_commit = v.id' % values_list(ids['fixing']))
    if key == 'join_target':
        return ('SELECT e.target_commit, e.fixing_commit, e.fixed_at FROM (%s) AS v(id) '
                'JOIN fixes_edges e ON e.target_commit = v.id' % values_list(ids['target']))
    raise KeyError(key)


def plan_summary(lines):
    """the scans of an EXPLAIN (COSTS OFF): 'Nested Loop, Index Scan fixes_commits_commit_id_idx'"""
    out = []
    for line in lines:
        t = line.strip().lstrip('->').strip()
        m = re.match(r'(Index Only Scan|Index Scan|Bitmap Index Scan) (?:using|on) (\S+)', t)
        if m:
            out.append('%s %s' % m.groups())
            continue
        m = re.match(r'(Seq Scan|Bitmap Heap Scan) on (\S+)', t)
        if m:
            out.append('%s %s' % m.groups())
            continue
        m = re.match(r'(Nested Loop|Hash Join|Merge Join)\b', t)
        if m:
            out.append(m.group(1))
    return ', '.join(out) or '?'


def repeat(fn, runs, what):
    """median-of-runs rule: once when the first run takes LONG or more, else runs times"""
    s = Sample()
    for i in range(runs):
        try:
            s.append(fn())
        except (SqlError, subprocess.CalledProcessError) as e:
            s.errors.append(str(e))
            log('%s failed: %s' % (what, e))
            break
        if s[-1] >= LONG:
            break
    return s


def time_git_log(path, revs='HEAD'):
    t0 = time.perf_counter()
    subprocess.run(['git', '-c', 'core.commitGraph=false', '-C', path, 'log', '--format=' + GIT_LOG_FORMAT,
                    revs], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def time_git_log_graph(path, revs='HEAD'):
    """time_git_log, with git's commit-graph file where the repository has one"""
    t0 = time.perf_counter()
    subprocess.run(['git', '-c', 'core.commitGraph=true', '-C', path, 'log', '--format=' + GIT_LOG_FORMAT,
                    revs], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def time_git_numstat(path, revs='HEAD'):
    t0 = time.perf_counter()
    subprocess.run(['git', '-c', 'core.commitGraph=false', '-C', path, 'log', '--numstat', '--no-renames',
                    revs], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def new_revs(path):
    """git's range of the commits that a refresh from a load of path adds: OLD..HEAD"""
    old = subprocess.run(['git', '-C', path, 'rev-parse', 'HEAD'], capture_output=True, text=True,
                         check=True).stdout.strip()
    return '%s..HEAD' % old


def warm_pages(path):
    """read the repository's files once so that every timing starts with a warm page cache"""
    n = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                with open(os.path.join(root, f), 'rb') as fh:
                    while True:
                        b = fh.read(1 << 22)
                        if not b:
                            break
                        n += len(b)
            except OSError:
                pass
    return n


class Bench:
    def __init__(self, a):
        self.a = a
        self.pg = Psql(a.psql)
        self.db = a.db
        self.notes = []
        self.loader_errors = []
        self.log_pos = 0
        if a.server_log:
            try:
                self.log_pos = os.path.getsize(a.server_log)
            except OSError:
                pass

    def server_log_news(self):
        """the notable lines the server logged since the last call"""
        if not self.a.server_log:
            return []
        try:
            with open(self.a.server_log, 'rb') as f:
                f.seek(self.log_pos)
                new = f.read().decode('utf-8', 'replace')
                self.log_pos = f.tell()
        except OSError:
            return []
        keep = [l.strip() for l in new.split('\n')
                if re.search(r'terminated by signal|PANIC|ERROR|out of memory|Failed process', l)]
        return keep[:6]

    def wait_ready(self, timeout=300):
        """after a failed load: wait until the server accepts connections again (crash recovery)"""
        t0 = time.time()
        while time.time() - t0 < timeout:
            try:
                self.pg.run('SELECT 1;')
                if time.time() - t0 > 1:
                    log('the server accepts connections again after %.0f s' % (time.time() - t0))
                return
            except SqlError:
                time.sleep(1)
        self.notes.append('the server did not come back within %d s after a failed load' % timeout)

    def failed(self, e):
        """a statement failed: add what the server logged, wait for it to come back"""
        srv = self.server_log_news()
        self.wait_ready()
        return SqlError(' '.join(str(e).split()) + (' — server log: ' + ' / '.join(srv) if srv else ''))

    def reset_db(self, without_issue16=False):
        """a fresh database with the extension (without_issue16: at version 1.0, which the loader
        loads as 1.0 did, without the data of issue 16 and of 1.2); False (and the error recorded)
        when that fails"""
        self.wait_ready()
        try:
            self.pg.run('DROP DATABASE IF EXISTS %s WITH (FORCE);' % self.db)
            self.pg.run('CREATE DATABASE %s;' % self.db)
            if without_issue16:
                self.pg.run("CREATE EXTENSION fixes VERSION '%s';" % WITHOUT_ISSUE16_VERSION, db=self.db)
            else:
                self.pg.run('CREATE EXTENSION fixes;', db=self.db)
            self.pg.run(AUTOVACUUM_OFF, db=self.db)
            self.pg.run('CHECKPOINT;')
        except SqlError as e:
            msg = 'could not create a fresh database with the extension: %s' % self.failed(e)
            log(msg)
            self.loader_errors.append(msg)
            return False
        return True

    def settle(self):
        """before a timed refresh: what autovacuum and the checkpointer have done long before a
        scheduled refresh runs (the cold load just before leaves a checkpoint's writes and an
        autovacuum of its tables pending, which would share the disk and the two cores with it)"""
        self.pg.run('VACUUM;', db=self.db)
        self.pg.run('CHECKPOINT;')

    def load(self, path, name, what, extra=''):
        """one fixes_load in a fresh connection: (seconds, result row, VmHWM, peaks)"""
        stmt = 'SELECT repository, commits, releases, edges, resolved, seconds FROM fixes_load(%s, name => %s%s)' % (
            lit(path), lit(name), extra)
        try:
            res, st, peaks, err = self.pg.session(self.db, ['SET client_min_messages = debug1', stmt],
                                                  sample=True)
            res = res[1:]
        except SqlError as e:
            msg = '%s of %s failed: %s' % (what, path, ' '.join(str(e).split()))
            srv = self.server_log_news()
            if srv:
                msg += ' — server log: ' + ' / '.join(srv)
            self.loader_errors.append(msg)
            log(msg)
            self.wait_ready()
            raise
        r = res[0]
        row = r['rows'][0]
        out = dict(sec=r['ms'] / 1000.0, repository=row[0], commits=int(row[1]), releases=int(row[2]),
                   edges=int(row[3]), resolved=int(row[4]), seconds=float(row[5]),
                   hwm=st.get('VmHWM'), rss_end=st.get('VmRSS'), anon_peak=peaks['RssAnon'],
                   cpu_self=st.get('cpu_self'), cpu_children=st.get('cpu_children'),
                   rss_peak=peaks['VmRSS'], samples=peaks['samples'],
                   reader_kb=max([int(k) for k in re.findall(r'used (\d+) kB at most', err or '')] or [0]),
                   phases=load_phases(err))
        log('%-28s %8.2f s  (%d commits, %d releases, %d edges, %d resolved; VmHWM %s, peak RssAnon %s)' % (
            what, out['sec'], out['commits'], out['releases'], out['edges'], out['resolved'],
            mib(out['hwm']), mib(out['anon_peak'])))
        if 'refresh' in what and out['phases']:
            log('  phases (elapsed/CPU s): ' + fmt_phases(out['phases']))
        return out

    def check_refresh(self, label, grown):
        """not timed: load the grown copy cold under another name and compare its rows with the
        refreshed ones; returns 'identical' or what differs"""
        check = label + '-check'
        try:
            self.load(grown, check, 'check: cold load of the copy')
            sql = []
            for what, cols, src in CHECKS:
                q = 'SELECT %s FROM %s WHERE %s' % (cols, src, '%s')
                one = q % ("repository_id = (SELECT repository_id FROM fixes_repositories WHERE name = %s)"
                           if 'repository_id' in src_cols(src) else 'repository = %s')
                sql.append("SELECT %s, (SELECT count(*) FROM (%s EXCEPT ALL %s) d) + "
                           "(SELECT count(*) FROM (%s EXCEPT ALL %s) d);" % (
                               lit(what), one % lit(label), one % lit(check), one % lit(check), one % lit(label)))
            out = self.pg.run('\n'.join(sql), db=self.db)
        except SqlError as e:
            return 'check failed: %s' % e
        diffs = []
        for line in out.split('\n'):
            if line:
                what, n = line.split('|')
                if int(n):
                    diffs.append('%s: %s rows differ' % (what, n))
        if diffs:
            msg = 'refresh of %s differs from a cold load of the same copy: %s' % (label, '; '.join(diffs))
            self.notes.append(msg)
            log(msg)
            return 'DIFFERS (' + '; '.join(diffs) + ')'
        log('check: the refreshed rows equal those of a cold load of the copy')
        return 'identical'

    def insert_floor(self, label, old_commits):
        """not a target: what the machine charges any refresh for writing its new commits alone
        (issue 45: every row the refresh writes for them). The refresh's new rows of fixes_commits,
        fixes_trailers and fixes_edges, copied with new ids (so the indexes take them at random
        places, as they take real ones), inserted by plain SQL in one transaction in a new backend
        after the same settling as the refresh, then rolled back; None if it fails"""
        repo = "(SELECT repository_id FROM fixes_repositories WHERE name = %s)" % lit(label)
        new_id = "md5(%s) || left(md5(%s || 'x'), 8)"
        try:
            self.pg.run("DROP TABLE IF EXISTS fixes_bench_new, fixes_bench_new_trailers, fixes_bench_new_edges; "
                        "CREATE UNLOGGED TABLE fixes_bench_new AS SELECT * FROM fixes_commits "
                        "WHERE repository_id = %s AND commit_idx >= %d; "
                        "UPDATE fixes_bench_new SET commit_idx = commit_idx + 1000000000, commit_id = %s; "
                        "CREATE UNLOGGED TABLE fixes_bench_new_trailers AS SELECT * FROM fixes_trailers "
                        "WHERE repository_id = %s AND commit_idx >= %d; "
                        "UPDATE fixes_bench_new_trailers SET commit_idx = commit_idx + 1000000000; "
                        "CREATE UNLOGGED TABLE fixes_bench_new_edges AS SELECT * FROM fixes_edges "
                        "WHERE repository_id = %s AND fixing_idx >= %d; "
                        "UPDATE fixes_bench_new_edges SET fixing_idx = fixing_idx + 1000000000, fixing_commit = %s; "
                        "VACUUM ANALYZE fixes_bench_new; VACUUM ANALYZE fixes_bench_new_trailers; "
                        "VACUUM ANALYZE fixes_bench_new_edges;"
                        % (repo, old_commits, new_id % ('commit_id', 'commit_id'), repo, old_commits,
                           repo, old_commits, new_id % ('fixing_commit', 'fixing_commit')), db=self.db)
            self.settle()
            res, _, _, _ = self.pg.session(self.db, [
                'BEGIN',
                'SELECT (SELECT count(*) FROM fixes_bench_new), (SELECT count(*) FROM fixes_bench_new_trailers), '
                '(SELECT count(*) FROM fixes_bench_new_edges)',
                'INSERT INTO fixes_commits SELECT * FROM fixes_bench_new',
                'INSERT INTO fixes_trailers SELECT * FROM fixes_bench_new_trailers',
                'INSERT INTO fixes_edges SELECT * FROM fixes_bench_new_edges',
                'ROLLBACK'])
            counts = [int(x) for x in res[1]['rows'][0]]
            out = dict(rows=sum(counts), commits=counts[0], trailers=counts[1], edges=counts[2],
                       read_ms=res[1]['ms'], ms=res[2]['ms'] + res[3]['ms'] + res[4]['ms'],
                       commits_ms=res[2]['ms'], trailers_ms=res[3]['ms'], edges_ms=res[4]['ms'])
            log('INSERT of the refresh\'s new rows alone %8.2f s: %d commits %.2f s, %d trailers %.2f s, '
                '%d edges %.2f s (reading them: %.3f s)'
                % (out['ms'] / 1000.0, counts[0], out['commits_ms'] / 1000.0, counts[1],
                   out['trailers_ms'] / 1000.0, counts[2], out['edges_ms'] / 1000.0, out['read_ms'] / 1000.0))
            return out
        except SqlError as e:
            log('INSERT of the refresh\'s new rows: failed: %s' % ' '.join(str(e).split()))
            return None
        finally:
            self.pg.run('DROP TABLE IF EXISTS fixes_bench_new, fixes_bench_new_trailers, fixes_bench_new_edges;',
                        db=self.db, check=False)

    def lookups(self, label):
        """right after the first cold load (only this repository is loaded; no ANALYZE by the
        benchmark, autovacuum off for the tables): the joins of FRESH_JOINS each in a new session of
        its own, its first execution and then LOOKUP_RUNS more (issue 31); the other look-ups in one
        new session, once to warm and LOOKUP_RUNS more; each look-up's plan (EXPLAIN in another
        session: the same statistics, so the same plan); {key: dict}"""
        out = {}
        try:
            # ids spread evenly over the history: 100 commits, 100 fixing commits, 100 targets
            got = self.pg.run('''
                SELECT 'c', commit_id FROM fixes_commits
                 WHERE commit_idx %% greatest((SELECT count(*) FROM fixes_commits) / 100, 1) = 0
                 ORDER BY commit_idx LIMIT 100;
                %s;
                %s;
            ''' % (every_hundredth('f', 'fixing_commit'), every_hundredth('t', 'target_commit')), db=self.db)
        except SqlError as e:
            msg = '%s, look-ups: could not prepare: %s' % (label, ' '.join(str(e).split()))
            self.notes.append(msg)
            log(msg)
            return out
        pick = {'c': [], 'f': [], 't': []}
        for line in got.split('\n'):
            if '|' in line:
                k, v = line.split('|', 1)
                pick[k].append(v)
        ids = {'commits': spread(pick['c'], 100), 'fixing': spread(pick['f'], 100),
               'target': spread(pick['t'], 100)}
        if not ids['commits']:
            self.notes.append('%s, look-ups: no commits loaded' % label)
            return out
        ids['one'] = ids['commits'][len(ids['commits']) // 2]
        ids['prefix'] = ids['commits'][len(ids['commits']) // 3][:8]
        stmt = {key: lookup_sql(key, ids) for key, _, _ in LOOKUPS}
        times = {}
        try:
            # first: each fresh join in a new session: its EXPLAIN (the plan shown; it also fills the
            # session's catalog caches, 200 catalog pages and 2-100 ms on this machine for any first
            # statement on these tables, which no load can change), then its first execution, which
            # plans again with the statistics the load left and touches the data, then LOOKUP_RUNS more
            fresh_plans = {}
            for key in FRESH_JOINS:
                res, _, _, _ = self.pg.session(self.db, ['EXPLAIN (COSTS OFF) ' + stmt[key]] +
                                               [stmt[key]] * (1 + LOOKUP_RUNS))
                fresh_plans[key] = (res[0]['ms'], res[0]['rows'])
                times[key] = (res[1]['ms'], [r['ms'] for r in res[2:]], len(res[1]['rows']))
            others = [key for key, _, _ in LOOKUPS if key not in FRESH_JOINS]
            res, _, _, _ = self.pg.session(self.db, [stmt[k] for k in others] * (1 + LOOKUP_RUNS))
            n = len(others)
            for i, key in enumerate(others):
                times[key] = (None, [res[n + k * n + i]['ms'] for k in range(LOOKUP_RUNS)], len(res[i]['rows']))
            plans, _, _, _ = self.pg.session(self.db, ['EXPLAIN (COSTS OFF) ' + stmt[k] for k, _, _ in LOOKUPS])
        except SqlError as e:
            msg = '%s, look-ups failed: %s' % (label, ' '.join(str(e).split()))
            self.notes.append(msg)
            log(msg)
            return out
        for i, (key, title, target) in enumerate(LOOKUPS):
            first, runs, nrows = times[key]
            best = min(runs)
            out[key] = dict(ms=best, first=first, times=runs, rows=nrows, target=target,
                            explain_ms=fresh_plans[key][0] if key in fresh_plans else None,
                            plan=plan_summary(' '.join(r) for r in (fresh_plans[key][1] if key in fresh_plans
                                                                    else plans[i]['rows'])),
                            size=len(ids['commits']) if key == 'join_ids' else
                            len(ids['fixing']) if key == 'join_fixing' else
                            len(ids['target']) if key == 'join_target' else 1)
            log('%-44s %7.2f ms  (%sbest of %d: %s; %d rows; %s)' % (
                title, best, 'new session: EXPLAIN %.2f ms, first execution %.2f ms; ' % (
                    out[key]['explain_ms'], first) if first is not None else '',
                LOOKUP_RUNS, ', '.join('%.2f' % t for t in runs), nrows, out[key]['plan']))
        return out

    def size(self, label, path, grown, grown_n):
        a = self.a
        runs = a.runs
        R = dict(label=label, path=path)
        log('=== %s: %s' % (label, path))
        nbytes = warm_pages(path) + (warm_pages(grown) if grown else 0)
        log('page cache warmed (%d MiB read)' % (nbytes // MIB))

        R['floor'] = repeat(lambda: time_git_log(path), runs, 'git log')
        log('git log floor                %8.2f s  %s' % (R['floor'].med() or 0, fmt_list(R['floor'])))

        def count():
            try:
                res, _, _, _ = self.pg.session(self.db, ['SELECT count(*) FROM fixes_git_commits(%s)' % lit(path)])
            except SqlError as e:
                raise self.failed(e)
            R['git_commits_rows'] = int(res[0]['rows'][0][0])
            return res[0]['ms'] / 1000.0
        if not self.reset_db():
            R['reader'] = Sample()
            R.update(cold=Sample(), reload=Sample(), per_release=Sample(), buggiest=Sample(),
                     refresh=Sample(), cold_rows=[], reload_rows=[], refresh_rows=[], lookups={},
                     cold10=Sample(), views11={k: Sample() for k, _ in VIEWS_11})
            return R
        R['reader'] = repeat(count, runs, 'fixes_git_commits')
        log('fixes_git_commits count(*)   %8.2f s  %s (%s rows)' % (R['reader'].med() or 0, fmt_list(R['reader']),
                                                                  R.get('git_commits_rows')))

        cold, reload, perrel, bugg, refresh = Sample(), Sample(), Sample(), Sample(), Sample()
        cold10 = Sample()
        views11 = {k: Sample() for k, _ in VIEWS_11}
        R.update(cold=cold, reload=reload, per_release=perrel, buggiest=bugg, refresh=refresh,
                 cold_rows=[], reload_rows=[], refresh_rows=[], lookups={}, cold10=cold10, views11=views11)
        for it in range(runs):
            # the same library and schema less what holds the data of issue 16 (trailers, revert
            # edges): the cost of that data, measured in the same run
            if self.reset_db(without_issue16=True):
                try:
                    c10 = self.load(path, label, 'fixes_load cold, no trailers (%d)' % (it + 1))
                    cold10.append(c10['sec'])
                except SqlError as e:
                    cold10.errors.append(str(e))
            if not self.reset_db():
                break
            pair_floor = time_git_log(path)
            try:
                c = self.load(path, label, 'fixes_load cold (%d)' % (it + 1))
            except SqlError as e:
                cold.errors.append(str(e))
                break
            cold.append(c['sec']); R['cold_rows'].append(c)
            R.setdefault('pairs', []).append(c['sec'] / pair_floor)
            log('pair %d: git log %.2f s, fixes_load cold %.2f s: %.2f×' % (it + 1, pair_floor, c['sec'],
                                                                          c['sec'] / pair_floor))
            if it == 0:
                # right after the cold load: what the load left for the planner (issue 31)
                R['lookups'] = self.lookups(label)
            single = c['sec'] >= LONG       # this and everything after it: one iteration
            for k in range(runs if single else 1):
                try:
                    r = self.load(path, label, 'fixes_load reload (%d)' % (len(reload) + 1))
                except SqlError as e:
                    reload.errors.append(str(e))
                    break
                reload.append(r['sec']); R['reload_rows'].append(r)
                if r['sec'] >= LONG:
                    break
            try:
                stmts = ['SELECT * FROM fixes_per_release', 'SELECT * FROM fixes_buggiest_commits LIMIT 30']
                res, _, _, _ = self.pg.session(self.db, stmts * (1 + runs))   # first pair warms
                for j, r in enumerate(res[2:]):
                    (perrel if j % 2 == 0 else bugg).append(r['ms'] / 1000.0)
                R['per_release_rows'] = len(res[0]['rows'])
                R['buggiest_top'] = res[1]['rows'][0] if res[1]['rows'] else None
            except SqlError as e:
                perrel.errors.append(str(self.failed(e)))
            try:
                stmts = [q for _, q in VIEWS_11]
                res, _, _, _ = self.pg.session(self.db, stmts * (1 + runs))   # the first round warms
                for j, r in enumerate(res[len(stmts):]):
                    views11[VIEWS_11[j % len(stmts)][0]].append(r['ms'] / 1000.0)
                R['views11_rows'] = {k: len(res[i]['rows']) for i, (k, _) in enumerate(VIEWS_11)}
            except SqlError as e:
                views11['lifetimes'].errors.append(str(self.failed(e)))
            if grown:
                try:
                    self.settle()
                    g = self.load(grown, label, 'refresh +%d (%d)' % (grown_n, it + 1))
                    refresh.append(g['sec']); R['refresh_rows'].append(g)
                except SqlError as e:
                    refresh.errors.append(str(e))
                if it == 0 and refresh:
                    R['check'] = self.check_refresh(label, grown)
                    R['insert_floor'] = self.insert_floor(label, c['commits'])
                    # git's own work for the refresh's new commits, with their bodies (median of 3)
                    R['log_new'] = statistics.median(time_git_log(grown, new_revs(path)) for _ in range(3))
                    log('git log OLD..HEAD of the new commits %6.2f s' % R['log_new'])
            if single:
                break
        self.files(R, label, path, grown, grown_n)
        if cold.errors or reload.errors or refresh.errors:
            try:
                self.pg.run('SELECT 1')
            except SqlError as e:
                self.notes.append('the server did not answer after a failed load: %s' % e)
        return R


    def commit_graph(self, label, path, gpath, runs):
        """cold loads of path and of gpath (its copy with a commit-graph file) alternated, runs
        pairs, each beside its git log with bodies (gpath's with the file, as git reads it by
        default)"""
        log('=== commit-graph: %s against %s' % (path, gpath))
        warm_pages(path)
        warm_pages(gpath)
        g = dict(label=label, plain=Sample(), graph=Sample(), pairs_plain=[], pairs_graph=[])
        for it in range(runs):
            for key, p, floor in (('plain', path, lambda: time_git_log(path)),
                                  ('graph', gpath, lambda: time_git_log_graph(gpath))):
                if not self.reset_db():
                    return g
                f = floor()
                try:
                    c = self.load(p, label, 'fixes_load cold, %s (%d)' % (key, it + 1))
                except SqlError as e:
                    g[key].errors.append(str(e))
                    continue
                g[key].append(c['sec'])
                c['floor'] = f
                g['pairs_' + key].append(c)
                log('%s %d: git log %.2f s, fixes_load cold %.2f s: %.2f×' % (key, it + 1, f, c['sec'],
                                                                            c['sec'] / f))
        return g

    def files(self, R, label, path, grown, grown_n):
        """issue 14: git log --numstat, a cold load with files and MAINTAINERS, the views, a refresh"""
        runs = self.a.runs
        R['numstat'] = repeat(lambda: time_git_numstat(path), runs, 'git log --numstat')
        log('git log --numstat --no-renames %6.2f s  %s' % (R['numstat'].med() or 0, fmt_list(R['numstat'])))
        fcold, fviews, fsub, frefresh = Sample(), Sample(), Sample(), Sample()
        R.update(files_cold=fcold, files_views=fviews, files_subsystem=fsub, files_refresh=frefresh, files_rows=[],
                 files_refresh_rows=[])
        for it in range(runs):
            if not self.reset_db():
                break
            try:
                c = self.load(path, label, 'fixes_load files cold (%d)' % (it + 1), FILES_ARGS)
            except SqlError as e:
                fcold.errors.append(str(e))
                break
            fcold.append(c['sec']); R['files_rows'].append(c)
            try:
                stmts = ['SELECT * FROM fixes_per_subsystem',
                         'SELECT * FROM fixes_per_path_prefix(%s)' % lit(label)]
                warm = max(runs, 3)
                res, _, _, _ = self.pg.session(self.db, stmts * (1 + warm))   # the first pair warms
                for j, r in enumerate(res[2:]):
                    (fsub if j % 2 == 0 else fviews).append(r['ms'] / 1000.0)
                R['subsystem_rows'] = len(res[0]['rows'])
            except SqlError as e:
                fviews.errors.append(str(self.failed(e)))
            if grown:
                try:
                    self.settle()
                    g = self.load(grown, label, 'files refresh +%d (%d)' % (grown_n, it + 1))
                    frefresh.append(g['sec']); R['files_refresh_rows'].append(g)
                except SqlError as e:
                    frefresh.errors.append(str(e))
                if it == 0:
                    # git's own work for the refresh's new commits: the reader's floor (median of 3)
                    R['numstat_new'] = statistics.median(time_git_numstat(grown, new_revs(path)) for _ in range(3))
                    log('git log --numstat --no-renames of the new commits %6.2f s' % R['numstat_new'])
            if c['sec'] >= LONG:
                break

    def daily(self, label, path, grown, grown_n, runs):
        """issue 31: the daily refresh. Each run: a fresh database, a cold load of the base (not the
        target), the settling of a scheduled refresh (VACUUM, CHECKPOINT), then the timed refresh to
        the copy grown by grown_n commits and a tag, under the same name, in a new connection"""
        D = dict(label=label, path=path, grown=grown, grown_n=grown_n, cold=Sample(), refresh=Sample(),
                 cold_rows=[], refresh_rows=[])
        log('=== daily refresh: %s: %s, +%d: %s' % (label, path, grown_n, grown))
        log('page cache warmed (%d MiB read)' % ((warm_pages(path) + warm_pages(grown)) // MIB))
        for it in range(runs):
            if not self.reset_db():
                break
            try:
                c = self.load(path, label, 'daily: cold load of the base (%d)' % (it + 1))
                D['cold'].append(c['sec']); D['cold_rows'].append(c)
            except SqlError as e:
                D['cold'].errors.append(str(e))
                break
            try:
                self.settle()
                g = self.load(grown, label, 'daily: refresh +%d (%d)' % (grown_n, it + 1))
                D['refresh'].append(g['sec']); D['refresh_rows'].append(g)
            except SqlError as e:
                D['refresh'].errors.append(str(e))
                break
        if D['cold_rows'] and D['refresh_rows']:
            want = D['cold_rows'][0]['commits'] + grown_n
            if D['refresh_rows'][0]['commits'] != want:
                self.notes.append('daily %s: the refresh reported %d commits, expected %d' % (
                    label, D['refresh_rows'][0]['commits'], want))
            if D['refresh_rows'][0]['releases'] != D['cold_rows'][0]['releases'] + 1:
                self.notes.append('daily %s: the refresh reported %d releases, expected %d (the new tag)' % (
                    label, D['refresh_rows'][0]['releases'], D['cold_rows'][0]['releases'] + 1))
        log('daily %s: refresh +%d %s' % (label, grown_n, fmt_time(D['refresh'])))
        return D

    def stable(self, label, path):
        """issue 13: alternating cold loads of one repository without and with its stable branches,
        then fixes_affected for one fixing commit (best of LOOKUP_RUNS warm) and
        fixes_per_stable_release (median warm)"""
        runs = self.a.runs
        R = dict(label=label, path=path, main=Sample(), stable=Sample(), rows=[], affected=None,
                 per_stable=Sample())
        log('=== stable branches: %s: %s' % (label, path))
        log('page cache warmed (%d MiB read)' % (warm_pages(path) // MIB))
        for it in range(runs):
            try:
                if not self.reset_db():
                    break
                m = self.load(path, label, 'mainline only, cold (%d)' % (it + 1))
                R['main'].append(m['sec'])
                if not self.reset_db():
                    break
                st = self.load(path, label, 'stable branches, cold (%d)' % (it + 1), STABLE_ARGS)
                R['stable'].append(st['sec']); R['rows'].append(st)
            except SqlError as e:
                R['stable'].errors.append(str(e))
                break
            if st['sec'] >= LONG:
                break
        if not R['rows']:
            return R
        try:
            # the fixing commit with the most rows of fixes_affected (found once, not timed)
            out = self.pg.run("SELECT fixing_commit, count(*) FROM fixes_affected GROUP BY 1 "
                              "ORDER BY 2 DESC, 1 LIMIT 1;", db=self.db).strip()
            fixing, nrows = out.split('|')
            q = 'SELECT * FROM fixes_affected WHERE fixing_commit = %s' % lit(fixing)
            res, _, _, _ = self.pg.session(self.db, [q] * (1 + LOOKUP_RUNS))
            R['affected'] = dict(ms=min(r['ms'] for r in res[1:]), rows=len(res[0]['rows']))
            res, _, _, _ = self.pg.session(self.db, ['SELECT * FROM fixes_per_stable_release'] * (1 + runs))
            for r in res[1:]:
                R['per_stable'].append(r['ms'] / 1000.0)
            R['per_stable_rows'] = len(res[0]['rows'])
            log('fixes_affected for %s (%s rows): %.2f ms; fixes_per_stable_release %.1f ms (%d rows)' % (
                fixing, nrows, R['affected']['ms'], R['per_stable'].med() * 1000, R['per_stable_rows']))
        except SqlError as e:
            R['per_stable'].errors.append(str(self.failed(e)))
            return R
        R['cve'] = self.cve(label, fixing)
        return R

    def cve(self, name, fixing):
        """issues 29 and 32, on the stable load: fixes_affected_releases and fixes_cve_affected for
        one fixing commit (the one with the most rows of fixes_affected; best of LOOKUP_RUNS warm),
        and fixes_cve_affected_all for the whole repository (median of the runs after a warming
        one); None where the extension has no such function (a version before 1.2)"""
        C = dict(releases=None, one=None, all=Sample(), all_rows=0, all_bytes=0)
        try:
            if self.pg.run("SELECT to_regproc('fixes_cve_affected_all') IS NOT NULL;", db=self.db).strip() != 't':
                log('no fixes_cve_affected_all: the CVE functions are not measured')
                return None
            q = 'SELECT * FROM fixes_affected_releases WHERE fixing_commit = %s' % lit(fixing)
            res, _, _, _ = self.pg.session(self.db, [q] * (1 + LOOKUP_RUNS))
            C['releases'] = dict(ms=min(r['ms'] for r in res[1:]), rows=len(res[0]['rows']))
            q = 'SELECT length(fixes_cve_affected(%s, %s)::text)' % (lit(name), lit(fixing))
            res, _, _, _ = self.pg.session(self.db, [q] * (1 + LOOKUP_RUNS))
            C['one'] = dict(ms=min(r['ms'] for r in res[1:]), bytes=int(res[0]['rows'][0][0]))
            q = 'SELECT count(*), sum(length(affected::text)) FROM fixes_cve_affected_all(%s)' % lit(name)
            res, _, _, _ = self.pg.session(self.db, [q] * (1 + self.a.runs))
            for r in res[1:]:
                C['all'].append(r['ms'] / 1000.0)
            C['all_rows'], C['all_bytes'] = int(res[0]['rows'][0][0]), int(res[0]['rows'][0][1] or 0)
            log('fixes_affected_releases for %s: %.2f ms (%d rows); fixes_cve_affected: %.2f ms (%d bytes); '
                'fixes_cve_affected_all: %.2f s (%d fixes, %d bytes)' % (
                    fixing, C['releases']['ms'], C['releases']['rows'], C['one']['ms'], C['one']['bytes'],
                    C['all'].med(), C['all_rows'], C['all_bytes']))
        except SqlError as e:
            C['all'].errors.append(str(self.failed(e)))
        return C


def graph_report(g):
    """the section of the cold loads with and without a commit-graph file (issue 45)"""
    lines = ['### Cold load with a commit-graph file (issue 45, %s)' % g['label'], '',
             'Alternated cold loads (fresh database each) of the repository and of a copy with '
             '`git commit-graph write --reachable`, each beside its `git log` with bodies (the '
             "copy's reads the file, git's default; the plain one's cannot). CPU: the backend's and "
             "its reader's (with the reader's worker), from the backend's /proc/self/stat.", '',
             '| pair | plain: load | git log | ratio | CPU backend + reader | graph: load | git log | ratio | CPU backend + reader |',
             '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    def cpu(r):
        if r.get('cpu_self') is None:
            return ''
        return '%.2f + %.2f s' % (r['cpu_self'], r.get('cpu_children') or 0)
    for i, (p, q) in enumerate(zip(g['pairs_plain'], g['pairs_graph'])):
        lines.append('| %d | %.2f s | %.2f s | %.2f× | %s | %.2f s | %.2f s | %.2f× | %s |' % (
            i + 1, p['sec'], p['floor'], p['sec'] / p['floor'], cpu(p),
            q['sec'], q['floor'], q['sec'] / q['floor'], cpu(q)))
    med = lambda xs: statistics.median(xs) if xs else float('nan')
    rp = med([p['sec'] / p['floor'] for p in g['pairs_plain']])
    rg = med([q['sec'] / q['floor'] for q in g['pairs_graph']])
    lines += ['', 'Median ratio to `git log`: %.2f× without the file, %.2f× with it; median load %.2f s '
              'against %.2f s (%.2f×).' % (rp, rg, med(g['plain']), med(g['graph']),
                                          med(g['graph']) / med(g['plain']) if g['plain'] else float('nan'))]
    return '\n'.join(lines) + '\n'


def every_hundredth(tag, col):
    """SQL: 100 distinct values of fixes_edges.col, evenly spaced in their order, tagged"""
    return ("SELECT %s, v FROM (SELECT v, row_number() OVER (ORDER BY v) AS r, count(*) OVER () AS n "
            "FROM (SELECT DISTINCT %s AS v FROM fixes_edges WHERE %s IS NOT NULL) d) x "
            "WHERE (r - 1) %% greatest(n / 100, 1) = 0 ORDER BY v LIMIT 100" % (lit(tag), col, col))


def spread(items, n):
    """n items of a list, evenly spaced (all of them when it is shorter)"""
    items = sorted(set(items))
    if len(items) <= n:
        return items
    return [items[(k * len(items)) // n] for k in range(n)]


def mib(b):
    return '-' if b is None else '%.0f MiB' % (b / MIB)


def fmt_list(s):
    return '[' + ', '.join('%.3g' % x for x in s) + ']'


def fmt_time(s, unit='s'):
    """median, spread and count of a Sample"""
    if not s:
        return 'error' if s.errors else '-'
    m = s.med()
    if unit == 'ms':
        f = lambda x: '%.1f' % (x * 1000)
    else:
        f = lambda x: ('%.2f' % x) if x < 100 else ('%.0f' % x)
    txt = '%s %s' % (f(m), unit)
    if len(s) > 1:
        txt += ' (%s–%s, n=%d)' % (f(min(s)), f(max(s)), len(s))
    else:
        txt += ' (n=1)'
    return txt


def verdict(ok):
    return '' if ok is None else (' **PASS**' if ok else ' **MISS**')


def load_phases(err):
    """the DEBUG1 lines of fixes_load: [(phase, elapsed s, backend CPU s)] in order"""
    return [(m.group(1), float(m.group(2)), float(m.group(3)))
            for m in re.finditer(r'fixes_load [^:\n]+: ([^\n]+?) in ([\d.]+) s \(CPU ([\d.]+) s\)', err or '')]


def fmt_phases(phases):
    return ', '.join('%s %.2f/%.2f' % (name, wall, cpu) for name, wall, cpu in phases if wall >= 0.005)


def phase_lines(results, daily=None):
    """the phases of the first refresh of each kind, at each size"""
    lines = []
    for r in results + [dict(d, label='daily ' + d['label']) for d in daily or []]:
        for key, kind in (('refresh_rows', 'refresh'), ('files_refresh_rows', 'refresh with files')):
            rows = r.get(key) or []
            if rows and rows[0].get('phases'):
                g = rows[0]
                wall = sum(p[1] for p in g['phases'])
                cpu = sum(p[2] for p in g['phases'])
                lines.append('%s, %s (%.2f s; the phases %.2f s elapsed, %.2f s on the backend\'s CPU; '
                             'elapsed/CPU per phase): %s' % (r['label'], kind, g['sec'], wall, cpu,
                                                               fmt_phases(g['phases'])))
    return lines


def refresh_ref(r, files=False):
    """issues 31 and 45: the reference of a refresh after +1%: the plain-SQL INSERT, in one
    transaction, of its new rows of fixes_commits, fixes_trailers and fixes_edges plus git log (with bodies; with files: --numstat --no-renames) of its new commits,
    in seconds; None when a part is missing"""
    f = r.get('insert_floor')
    g = r.get('numstat_new' if files else 'log_new')
    if not f or g is None:
        return None
    return f['ms'] / 1000.0 + g


def fmt_refresh(r, files=False):
    """the refresh after +1%: its time, the reference's two parts, the ratio and the verdict"""
    s = r.get('files_refresh' if files else 'refresh')
    if not s:
        return fmt_time(s) if s is not None else '-'
    ref = refresh_ref(r, files)
    if ref is None:
        return fmt_time(s) + '; no reference'
    ratio = s.med() / ref
    return '%s; reference %.2f s (INSERT %.2f s + %s %.2f s): %.2f×%s' % (
        fmt_time(s), ref, r['insert_floor']['ms'] / 1000.0, 'numstat' if files else 'git log',
        r['numstat_new' if files else 'log_new'], ratio, verdict(ratio <= REFRESH_RATIO))


def daily_ratio(daily):
    """(ratio of the medians largest / smallest, smallest, largest) or None"""
    ok = [d for d in daily or [] if d['refresh']]
    if len(ok) < 2 or len(ok) != len(daily):
        return None
    return ok[-1]['refresh'].med() / ok[0]['refresh'].med(), ok[0], ok[-1]


def report(results, a, meta, notes, loader_errors, stable=None, daily=None):
    cols = [r['label'] for r in results]
    rows = []

    def row(title, cells, target=''):
        rows.append([title] + cells + [target])

    def cell_rows(key):
        return [r[key][0] if r.get(key) else None for r in results]

    row('commits loaded (HEAD)', ['{:,}'.format(r['cold_rows'][0]['commits']) if r['cold_rows'] else '-'
                                  for r in results])
    row('releases / Fixes edges (resolved)', ['%d / %s (%s)' % (c['releases'], '{:,}'.format(c['edges']),
                                                                 '{:,}'.format(c['resolved'])) if c else '-'
                                               for c in cell_rows('cold_rows')])
    row('git log floor', [fmt_time(r['floor']) for r in results], 'reference')
    row('`SELECT count(*) FROM fixes_git_commits(path)`', [fmt_time(r['reader']) for r in results])
    cells = []
    for r in results:
        c, f = r['cold'], r['floor']
        if not c:
            cells.append(fmt_time(c)); continue
        ratio = statistics.median(r['pairs']) if r.get('pairs') else None
        ok = (ratio is not None and ratio <= COLD_RATIO_TARGET) and c.med() < 60
        cells.append('%s; %s× floor%s' % (fmt_time(c), '%.2f' % ratio if ratio else '?', verdict(ok)))
    row('`fixes_load` cold (ratio: median over pairs of a `git log` and the load right after it)', cells,
        '≤ 1.0× floor and < 60 s (at 1.3M)')
    row('cold load cost per commit', ['%.1f µs/commit' % (r['cold'].med() / r['cold_rows'][0]['commits'] * 1e6)
                                      if r['cold'] else '-' for r in results], 'flat across sizes')
    row('`fixes_load` cold into a database at 1.0 SQL (no trailers, no revert edges, no 1.1/1.2 counts)',
        [fmt_time(r.get('cold10', Sample())) for r in results], 'reference for the next row')
    cells = []
    for r in results:
        c, c10 = r['cold'], r.get('cold10')
        if not c or not c10:
            cells.append('-'); continue
        extra = c.med() / c10.med() - 1
        cells.append('%+.1f%%%s' % (100 * extra, verdict(extra <= 0.20)))
    row('… what the data of issue 16 (trailers, revert edges) adds to a cold load (medians)', cells, '≤ 20%')
    row('`fixes_load` reload, unchanged repository',
        ['%s%s' % (fmt_time(r['reload']), verdict(r['reload'].med() < RELOAD_TARGET) if r['reload'] else '')
         for r in results], '< 0.25 s')
    cells = []
    for r in results:
        an = [c['anon_peak'] for c in r['cold_rows'] if c['anon_peak']]
        cells.append('%s%s' % (mib(max(an)), verdict(max(an) <= HWM_TARGET)) if an else '-')
    row('peak private memory of the backend, cold load (RssAnon sampled every 10 ms, max)', cells, '≤ 512 MiB')
    row('… with the shared buffers it touched (VmHWM, max)',
        [mib(max(c['hwm'] for c in r['cold_rows'] if c['hwm'])) if any(c['hwm'] for c in r['cold_rows']) else '-'
         for r in results])
    row('peak memory of the reader process, cold load (ru_maxrss, max)',
        [mib(max(c['reader_kb'] for c in r['cold_rows']) * 1024) if r['cold_rows'] else '-' for r in results])
    row('peak backend memory, reload (VmHWM, max)',
        [mib(max(c['hwm'] for c in r['reload_rows'])) if r['reload_rows'] else '-' for r in results])
    for key, title in (('per_release', '`SELECT * FROM fixes_per_release` warm'),
                       ('buggiest', '`SELECT * FROM fixes_buggiest_commits LIMIT 30` warm')):
        row(title, ['%s%s' % (fmt_time(r[key], 'ms'), verdict(r[key].med() <= 0.3) if r[key] else '')
                    for r in results], '≤ 300 ms')
    for key, q in VIEWS_11:
        lim = 0.3 if key in ('lifetimes', 'lifetime_per_release') else None
        cells = []
        for r in results:
            v = r.get('views11', {}).get(key)
            n = r.get('views11_rows', {}).get(key)
            cells.append('%s%s%s' % (fmt_time(v, 'ms') if v else '-',
                                     ' (%s rows)' % '{:,}'.format(n) if n is not None else '',
                                     verdict(v.med() <= lim) if v and lim else ''))
        row('`%s` warm' % q, cells, '≤ 300 ms' if lim else '')
    for key, title, target in LOOKUPS:
        cells = []
        for r in results:
            lk = r.get('lookups', {}).get(key)
            if not lk:
                cells.append('-')
            elif lk['first'] is not None:
                cells.append('first %.2f ms, best %.2f ms (%s rows; %s; the EXPLAIN before it %.1f ms)%s' % (
                    lk['first'], lk['ms'], '{:,}'.format(lk['rows']), lk['plan'], lk['explain_ms'],
                    verdict(max(lk['first'], lk['ms']) <= FRESH_JOIN_MS)))
            else:
                cells.append('%.2f ms (%s row%s; %s)%s' % (lk['ms'], '{:,}'.format(lk['rows']),
                                                            '' if lk['rows'] == 1 else 's', lk['plan'],
                                                            verdict(lk['ms'] <= lk['target'])))
        if key in FRESH_JOINS:
            row('%s, new session right after the cold load: first execution (after its EXPLAIN), best of %d more' % (
                title, LOOKUP_RUNS), cells, '≤ %g ms both' % FRESH_JOIN_MS)
        else:
            row('%s, right after the cold load, best of %d warm' % (title, LOOKUP_RUNS), cells,
                '≤ %g ms' % target)
    cells = []
    for r in results:
        s = r['refresh']
        if not r.get('grown'):
            cells.append('-'); continue
        extra = ''
        if r['refresh_rows']:
            g = r['refresh_rows'][0]
            extra = '; %s commits after' % '{:,}'.format(g['commits'])
        cells.append('+%s: %s%s' % ('{:,}'.format(r['grown_n']), fmt_time(s), extra))
    row('refresh after +1% commits and a new tag (same name, grown copy)', cells)
    cells = []
    for r in results:
        f = r.get('insert_floor')
        cells.append('%.2f s (%s rows: %s commits %.2f s, %s trailers %.2f s, %s edges %.2f s; reading them '
                     '%.3f s)' % (f['ms'] / 1000.0, '{:,}'.format(f['rows']), '{:,}'.format(f['commits']),
                                  f['commits_ms'] / 1000.0, '{:,}'.format(f['trailers']), f['trailers_ms'] / 1000.0,
                                  '{:,}'.format(f['edges']), f['edges_ms'] / 1000.0, f['read_ms'] / 1000.0)
                     if f else '-')
    row('… `INSERT INTO` fixes_commits, fixes_trailers and fixes_edges of the same new rows alone (new ids), '
        'plain SQL in one transaction in a new backend',
        cells, 'reference, part 1')
    row('… `git log --format=<the floor\'s> OLD..HEAD` of the new commits (median of 3)',
        ['%.2f s' % r['log_new'] if r.get('log_new') is not None else '-' for r in results], 'reference, part 2')
    row('… the refresh against the reference (INSERT + git log)',
        [fmt_refresh(r) if r.get('grown') else '-' for r in results], '≤ 1.5×')
    cells = []
    for r in results:
        hw = [c['hwm'] for c in r['refresh_rows'] if c['hwm']]
        cells.append(mib(max(hw)) if hw else '-')
    row('peak backend memory, refresh (VmHWM, max)', cells)
    row('refreshed rows = cold load of the grown copy', [r.get('check', '-') for r in results])
    row('git log --numstat --no-renames', [fmt_time(r['numstat']) if r.get('numstat') is not None else '-'
                                           for r in results], 'reference (files)')
    cells = []
    for r in results:
        c, f = r.get('files_cold'), r.get('numstat')
        if not c or not f:
            cells.append(fmt_time(c) if c is not None else '-'); continue
        ratio = c.med() / f.med()
        cells.append('%s; %.2f× numstat%s' % (fmt_time(c), ratio, verdict(ratio <= 1.0)))
    row('`fixes_load(files => true, maintainers)` cold', cells, '≤ 1.0× git log --numstat')
    row('peak private memory of the backend with files (RssAnon sampled, max)',
        ['%s%s' % (mib(max(c['anon_peak'] for c in r['files_rows'])),
                   verdict(max(c['anon_peak'] for c in r['files_rows']) <= 512 * MIB))
         if r.get('files_rows') and all(c['anon_peak'] for c in r['files_rows']) else '-' for r in results], '≤ 512 MiB')
    row('… with the shared buffers it touched (VmHWM, max)',
        [mib(max(c['hwm'] for c in r['files_rows']))
         if r.get('files_rows') and all(c['hwm'] for c in r['files_rows']) else '-' for r in results])
    row('`SELECT * FROM fixes_per_subsystem` warm (MAINTAINERS loaded)',
        ['%s (%s rows)%s' % (fmt_time(r['files_subsystem'], 'ms'), '{:,}'.format(r.get('subsystem_rows', 0)),
                             verdict(r['files_subsystem'].med() * 1000 < SUBSYSTEM_MS))
         if r.get('files_subsystem') else '-' for r in results], '< 50 ms')
    row('`SELECT * FROM fixes_per_path_prefix(repo)` warm',
        ['%s%s' % (fmt_time(r['files_views'], 'ms'), verdict(r['files_views'].med() <= 1.0))
         if r.get('files_views') else '-' for r in results], '≤ 1 s')
    row('refresh with files after +1% commits and a new tag',
        [fmt_time(r['files_refresh']) if r.get('files_refresh') else '-' for r in results])
    row('… `git log --numstat --no-renames OLD..HEAD` of the same new commits (median of 3)',
        ['%.2f s' % r['numstat_new'] if r.get('numstat_new') is not None else '-' for r in results],
        'reference, part 2 (part 1: the INSERT above)')
    row('… the refresh with files against the reference (INSERT + numstat)',
        [fmt_refresh(r, files=True) if r.get('files_refresh') else '-' for r in results], '≤ 1.5×')

    head = ['measurement'] + cols + ['target']
    lines = ['| ' + ' | '.join(head) + ' |', '| --- |' + ' ---: |' * len(cols) + ' --- |']
    for rw in rows:
        rw = [c.replace('|', '\\|') for c in rw]
        lines.append('| ' + ' | '.join(rw) + ' |')
    table = '\n'.join(lines)
    if daily:
        dl = ['| daily refresh (issue 31) | ' + ' | '.join(d['label'] for d in daily) + ' | target |',
              '| --- |' + ' ---: |' * len(daily) + ' --- |']
        dl.append('| commits of the base (loaded cold before each refresh) | ' + ' | '.join(
            '{:,}'.format(d['cold_rows'][0]['commits']) if d['cold_rows'] else '-' for d in daily) + ' | |')
        dl.append('| cold load of the base | ' + ' | '.join(fmt_time(d['cold']) for d in daily) + ' | |')
        dl.append('| refresh +%s commits and a tag, after VACUUM and CHECKPOINT | ' % (
            '/'.join(sorted(set('{:,}'.format(d['grown_n']) for d in daily)))) +
            ' | '.join(fmt_time(d['refresh']) for d in daily) + ' | |')
        dr = daily_ratio(daily)
        dl.append('| %s / %s (medians) | ' % (daily[-1]['label'], daily[0]['label']) + ' | '.join(
            [''] * (len(daily) - 1) + ['%.2f×%s' % (dr[0], verdict(dr[0] <= DAILY_RATIO)) if dr else '-']) +
            ' | ≤ %.1f× |' % DAILY_RATIO)
        table += '\n\n' + '\n'.join(dl)

    # the verdicts at the largest size, in the order of the issue
    big = results[-1]
    summary = []
    if big['cold'] and big['floor']:
        ratio = statistics.median(big['pairs']) if big.get('pairs') else big['cold'].med() / big['floor'].med()
        summary.append('%s: %.1f s vs %.1f s floor (%.2f×; pairs %s)' % (
                       TARGETS['cold_floor'], big['cold'].med(), big['floor'].med(), ratio,
                       ', '.join('%.2f×' % x for x in big.get('pairs', []))) +
                       verdict(ratio <= COLD_RATIO_TARGET))
    if big['cold']:
        summary.append('%s: %.1f s' % (TARGETS['cold_60'], big['cold'].med()) + verdict(big['cold'].med() < 60))
    if big['cold'] and big.get('cold10'):
        extra = big['cold'].med() / big['cold10'].med() - 1
        summary.append('%s: %.1f s vs %.1f s at 1.0 SQL (%+.1f%%)' % (
            TARGETS['new_data'], big['cold'].med(), big['cold10'].med(), 100 * extra) + verdict(extra <= 0.20))
    lt = [big.get('views11', {}).get(k) for k in ('lifetimes', 'lifetime_per_release')]
    if all(lt):
        summary.append('%s: %.1f ms and %.1f ms' % (TARGETS['lifetimes'], lt[0].med() * 1000, lt[1].med() * 1000)
                       + verdict(max(lt[0].med(), lt[1].med()) <= 0.3))
    if big['cold_rows']:
        an = max(c['anon_peak'] for c in big['cold_rows'])
        summary.append('%s: %s (VmHWM, with the shared buffers it touched: %s; the reader process: %s)' % (
            TARGETS['hwm'], mib(an), mib(max(c['hwm'] or 0 for c in big['cold_rows'])),
            mib(max(c['reader_kb'] for c in big['cold_rows']) * 1024)) +
            verdict(an <= HWM_TARGET))
    for key in ('per_release', 'buggiest'):
        if big[key]:
            summary.append('%s: %.1f ms' % (TARGETS[key], big[key].med() * 1000) + verdict(big[key].med() <= 0.3))
    if big['refresh']:
        summary.append('%s: %s' % (TARGETS['refresh'], fmt_refresh(big)))
    elif big.get('grown'):
        summary.append('%s: no figure (see the errors below)' % TARGETS['refresh'])
    if big.get('files_refresh'):
        summary.append('%s: %s' % (TARGETS['files_refresh'], fmt_refresh(big, files=True)))
    dr = daily_ratio(daily)
    if dr:
        ratio, lo, hi = dr
        summary.append('%s: %s %.2f s vs %s %.2f s (%.2f×; medians of %d and %d runs)' % (
            TARGETS['daily'], hi['label'], hi['refresh'].med(), lo['label'], lo['refresh'].med(), ratio,
            len(hi['refresh']), len(lo['refresh'])) + verdict(ratio <= DAILY_RATIO))
    elif daily:
        summary.append('%s: no ratio (%s)' % (TARGETS['daily'], ', '.join(
            '%s: %s' % (d['label'], fmt_time(d['refresh'])) for d in daily)))
    if big['reload']:
        summary.append('%s: %.3f s' % (TARGETS['reload'], big['reload'].med())
                       + verdict(big['reload'].med() < RELOAD_TARGET))
    fj = [big.get('lookups', {}).get(k) for k in FRESH_JOINS]
    if all(fj):
        summary.append('%s: %s' % (TARGETS['fresh_joins'], '; '.join(
            '%s: first %.2f ms, best %.2f ms (%s; its EXPLAIN before it %.1f ms)' % (
                k, lk['first'], lk['ms'], lk['plan'], lk['explain_ms'])
            for k, lk in zip(FRESH_JOINS, fj))) + verdict(max(max(lk['first'], lk['ms']) for lk in fj) <= FRESH_JOIN_MS))
    for key, title, target in LOOKUPS:
        lk = big.get('lookups', {}).get(key)
        if lk and key not in FRESH_JOINS:
            summary.append('%s ≤ %g ms: %.2f ms (right after the cold load, best of %d warm)' % (
                title, target, lk['ms'], LOOKUP_RUNS) + verdict(lk['ms'] <= target))

    if big.get('files_cold') and big.get('numstat'):
        ratio = big['files_cold'].med() / big['numstat'].med()
        summary.append('%s: %.1f s vs %.1f s (%.2f×)' % (TARGETS['files_cold'], big['files_cold'].med(),
                       big['numstat'].med(), ratio) + verdict(ratio <= 1.0))
    if big.get('files_rows') and all(c['anon_peak'] for c in big['files_rows']):
        an = max(c['anon_peak'] for c in big['files_rows'])
        summary.append('%s: %s (VmHWM: %s)' % (TARGETS['files_hwm'], mib(an),
                       mib(max(c['hwm'] or 0 for c in big['files_rows'])))
                       + verdict(an <= 512 * MIB))
    if big.get('files_subsystem'):
        summary.append('%s: %.1f ms (%s rows; median of %d)' % (
            TARGETS['subsystem'], big['files_subsystem'].med() * 1000, '{:,}'.format(big.get('subsystem_rows', 0)),
            len(big['files_subsystem'])) + verdict(big['files_subsystem'].med() * 1000 < SUBSYSTEM_MS))
    if big.get('files_views'):
        summary.append('%s: %.0f ms' % (TARGETS['files_views'], big['files_views'].med() * 1000) +
                       verdict(big['files_views'].med() <= 1.0))
    stable_lines = []
    if stable and stable['rows']:
        st = stable
        if st['main'] and st['stable']:
            n = min(len(st['main']), len(st['stable']))
            ratio = statistics.median([st['stable'][i] / st['main'][i] for i in range(n)])
            summary.append('%s (%s): %.1f s vs %.1f s (%.2f×, median of %d pair%s)' % (
                TARGETS['stable_cold'], st['label'], st['stable'].med(), st['main'].med(), ratio, n,
                '' if n == 1 else 's') + verdict(ratio <= 1.3))
        an = max(c['anon_peak'] for c in st['rows'])
        summary.append('%s: %s (VmHWM: %s)' % (TARGETS['stable_hwm'], mib(an),
                       mib(max(c['hwm'] or 0 for c in st['rows']))) + verdict(an <= 512 * MIB))
        if st['affected']:
            summary.append('%s: %.2f ms (%d rows; best of %d warm)' % (
                TARGETS['stable_affected'], st['affected']['ms'], st['affected']['rows'], LOOKUP_RUNS)
                + verdict(st['affected']['ms'] <= 10))
        if st['per_stable']:
            summary.append('%s: %.1f ms (%d rows)' % (TARGETS['stable_per_release'], st['per_stable'].med() * 1000,
                           st.get('per_stable_rows', 0)) + verdict(st['per_stable'].med() <= 0.3))
        cve = st.get('cve')
        if cve and cve['releases']:
            summary.append('%s: %.2f ms (%d rows; best of %d warm)' % (
                TARGETS['cve_releases'], cve['releases']['ms'], cve['releases']['rows'], LOOKUP_RUNS)
                + verdict(cve['releases']['ms'] <= 20))
        if cve and cve['one']:
            summary.append('%s: %.2f ms (%d bytes; best of %d warm)' % (
                TARGETS['cve_one'], cve['one']['ms'], cve['one']['bytes'], LOOKUP_RUNS)
                + verdict(cve['one']['ms'] <= 20))
        if cve and cve['all']:
            summary.append('%s: %s (%s fixing commits, %.1f MB of JSON)' % (
                TARGETS['cve_all'], fmt_time(cve['all']), '{:,}'.format(cve['all_rows']), cve['all_bytes'] / 1e6)
                + verdict(cve['all'].med() <= 10))
        c = st['rows'][0]
        stable_lines = [
            '`%s` (`%s`), loaded with `stable_branches => \'^refs/heads/v[0-9]+\\.[0-9]+\\.y$\'`: '
            '%s mainline commits, %d releases, %s Fixes edges (%s resolved).' % (
                st['label'], st['path'], '{:,}'.format(c['commits']), c['releases'], '{:,}'.format(c['edges']),
                '{:,}'.format(c['resolved'])),
            'cold loads, mainline only: %s; with the stable branches: %s.' % (fmt_list(st['main']),
                                                                           fmt_list(st['stable'])),
        ]
    elif stable:
        summary.append('stable branches (%s): no figures (see the errors below)' % stable['label'])

    md = []
    md.append('# Benchmark results\n')
    md.append('Written by `%s` on %s (UTC); the run took %s.\n' % (a.command, meta['date'], meta['duration']))
    md.append('**Caveat: a shared 2-core machine with noisy neighbours** — load average %s at the start, %s at the '
              'end; treat differences under ~10%% as noise.\n' % (meta['load_start'], meta['load_end']))
    md.append('## Machine and software\n')
    for k in ('machine', 'kernel', 'postgres', 'server settings', 'libgit2', 'git', 'extension'):
        md.append('- %s: %s' % (k, meta[k]))
    md.append('')
    md.append('## Targets at the largest size (%s)\n' % big['label'])
    md += ['- ' + s for s in summary] if summary else ['- (no figures: see the errors below)']
    md.append('')
    md.append('## Figures\n')
    md.append(table)
    md.append('')
    phases = phase_lines(results, daily)
    if phases:
        md.append('## Where the refreshes spent their time\n')
        md.append('From the DEBUG1 lines of `fixes_load` (`SET client_min_messages = debug1`); where a '
                  'phase\'s CPU time is below its elapsed time, the backend waited, mostly for the reader.\n')
        md += ['- ' + l for l in phases]
        md.append('')
    if stable_lines:
        md.append('## Stable branches (issue 13)\n')
        md += ['- ' + l for l in stable_lines]
        md.append('')
    md.append('## Method\n')
    md += ['- ' + m for m in method_notes(a, results)]
    if notes or loader_errors:
        md.append('')
        md.append('## Errors and oddities\n')
        md += ['- ' + n.replace('\n', ' ') for n in loader_errors + notes]
    md.append('')
    return table, summary, '\n'.join(md)


def method_notes(a, results):
    sizes = ', '.join('%s = `%s`' % (r['label'], r['path']) for r in results)
    out = [
        'Repositories: `../shared/bench/make-history DIR --commits N` (default seed), built once and '
        'cached (%s). `commits loaded` counts the commits reachable from HEAD (make-history also writes '
        'stable side branches and unmerged topics).' % sizes,
        ('Every figure is a median over %d runs, with the range and the count in brackets; a measurement '
         'whose first run took %d s or more is taken once (n=1).' % (a.runs, LONG)) if a.runs > 1 else
        'One run per measurement (n=1).',
        'Page cache warm: every file of the repository is read once before its timings (cold means '
        'the repository *name* is not loaded yet, not a cold disk).',
        'Floor: `git -c core.commitGraph=false log --format=\'%s\' HEAD > /dev/null`. The '
        'extension does not use a commit-graph file (it reads every commit object through libgit2), and '
        'the cached repositories have none (fast-import writes none; they are kept as built), so the floor '
        'is git without one as well; no commit-graph variant is timed.' % GIT_LOG_FORMAT,
        'Reader: `SELECT count(*) FROM fixes_git_commits(path)` in a fresh connection.',
        'Cold load: a fresh database (DROP/CREATE DATABASE, CREATE EXTENSION, CHECKPOINT), then '
        '`fixes_load(path, name => LABEL)` in a new connection; each cold run starts from a fresh database. '
        'Time = psql `\\timing` of the call%s.' % seconds_note(results),
        'Reload: the same call again on the unchanged repository, in a new connection.',
        'The cost of the data of issue 16: before each cold load, the same library loads the repository '
        'cold into a fresh database whose extension lost the tables `fixes_trailers`, '
        '`fixes_trailer_keys`, `fixes_release_trailers` and the column `fixes_edges.kind` (and the views '
        'over them): the loader writes what the schema holds, so neither trailers nor revert edges; the '
        'two medians are compared.',
        'Views: after the reload, in one connection, each view once to warm, then timed %d time(s) '
        '(psql `\\timing`, all rows fetched to the client); repeated after every cold load; the views of '
        '1.1 likewise, in a connection of their own.' % a.runs,
        'Memory: `VmHWM` of the backend that ran the load, read by that backend itself afterwards '
        '(`pg_read_file(\'/proc/self/status\')`), each load in its own connection so the high-water mark '
        'is that load\'s. VmHWM counts the shared-buffer pages the backend touched (shared_buffers is in '
        'the settings above) as well as its private memory, so a load that writes more than '
        'shared_buffers reaches shared_buffers whatever it allocates. The targets are therefore checked '
        'on the private part alone: the peak `RssAnon`, polled from /proc/PID/status every 10 ms during '
        'the call (a peak shorter than 10 ms can be missed).',
        'Autovacuum is off for the extension\'s tables in the benchmark\'s database (`ALTER TABLE ... SET '
        '(autovacuum_enabled = off, toast.autovacuum_enabled = off)` after each `CREATE EXTENSION`): no '
        'autovacuum lands in a timing, and the planner statistics after a load are those the load left.',
        'Look-ups by commit id: right after the first cold load (no reload, no `ANALYZE` by the benchmark); '
        'the ids are picked in one connection (spread evenly over the history: every hundredth commit by '
        '`commit_idx`, every hundredth distinct fixing and target commit by id); then the joins of a '
        '`VALUES` list of 100 ids with `fixes_commits.commit_id` and with `fixes_edges.fixing_commit`, '
        'each in a new connection of its own: first its `EXPLAIN (COSTS OFF)` (the plan shown; it also fills '
        'the new backend\'s catalog caches, about 200 catalog pages, which any first statement on these '
        'tables pays whatever the load did: 2-100 ms on this machine, shown beside), then its first execution '
        '(planned again, with the statistics the load left, and the first touch of its data by this backend), '
        'then %d more, the best reported (issue 31: both ≤ 5 ms); then, in another new connection, a full id (`commit_id = ...`), an 8-hex '
        'prefix (`commit_id LIKE \'abcd1234%%\'`) and the join with `fixes_edges.target_commit`, each once '
        'to warm and %d times more, the best reported (psql `\\timing`, all rows fetched). The scans of each '
        'plan (`EXPLAIN (COSTS OFF)` in a connection after them: the same statistics) are shown with its '
        'time.' % (LOOKUP_RUNS, LOOKUP_RUNS),
        'Refresh: `git clone --mirror --shared` of the base repository (the cached one stays as built), '
        '`bench/grow-history COPY N` with N = 1% of the commits (deterministic commits after the last one, '
        '~9% with Fixes: trailers, topic merges, one new release tag), then, after a cold load of '
        'the base, `VACUUM` and `CHECKPOINT` (what autovacuum and the checkpointer have done long before '
        'a scheduled refresh runs; the refresh does not share the disk with the cold load\'s checkpoint), '
        '`fixes_load(COPY, name => LABEL)`: same name, new path, in a new connection. After the '
        'first refresh (not timed) the copy is loaded cold under another name and the rows of the tables '
        'and views are compared (EXCEPT ALL both ways, without the ids and the repository name).',
        'The reference of the refresh after +1% (issue 31), measured in the same run: after the first '
        'refresh, every row it wrote for its new commits (`fixes_commits`, `fixes_trailers`, `fixes_edges`; '
        'issue 45) is copied with new ids into unlogged tables and inserted again by plain SQL '
        '(`INSERT ... SELECT`, one per table, in one transaction) in a new backend after the same '
        '`VACUUM` and `CHECKPOINT`, then rolled back (part 1); part 2 is `git -c core.commitGraph=false log '
        '--format=<the floor\'s> OLD..HEAD` on the grown copy (OLD: the base\'s HEAD), median of 3; with '
        'files, `git log --numstat --no-renames OLD..HEAD` instead, median of 3. Target: the refresh\'s '
        'median ≤ 1.5× part 1 + part 2.',
        'Daily refresh (issue 31): `bench/grow-history COPY 200` (200 commits and a release tag) on a '
        '`--shared` copy of the make-history repository of each `--daily` size, cached like the +1%% copy; '
        'each run: a fresh database, a cold load of the base, `VACUUM` and `CHECKPOINT`, then the refresh '
        'to the copy under the same name in a new connection, timed (psql `\\timing`); the median of %d '
        'runs at each size. Target: the largest size\'s median ≤ 1.3× the smallest\'s.' % a.daily_runs,
        '`fixes_per_subsystem` and `fixes_per_path_prefix`: after each cold load with files and MAINTAINERS, '
        'in one connection, each once to warm, then %d times (median).' % max(a.runs, 3),
    ]
    return out


def seconds_note(results):
    d = [abs(c['sec'] - c['seconds']) for r in results
         for c in r['cold_rows'] + r['reload_rows'] + r['refresh_rows']]
    if not d:
        return ''
    return ' (the `seconds` that fixes_load returns differs from it by %.0f ms at most)' % (max(d) * 1000)


def safe(fn):
    try:
        return fn()
    except SqlError as e:
        return '? (%s)' % ' '.join(str(e).split())


def gather_meta(a, pg, t_start, load_start):
    def sh(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, shell=True).stdout.strip()
        except OSError:
            return '?'
    cpu = sh("sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1")
    mem = sh("awk '/^MemTotal/ {printf \"%.1f GiB\", $2/1048576}' /proc/meminfo")
    meta = {
        'date': datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M'),
        'machine': '%s cores (%s), %s RAM' % (os.cpu_count(), cpu or platform.machine(), mem),
        'kernel': platform.platform(),
        'postgres': safe(lambda: pg.run('SELECT version();').strip()),
        'libgit2': sh('pkg-config --modversion libgit2') or '?',
        'git': sh('git --version'),
        'load_start': load_start,
        'load_end': sh("cut -d' ' -f1-3 /proc/loadavg"),
        'duration': '%.0f min' % ((time.time() - t_start) / 60) if time.time() - t_start >= 120
        else '%.0f s' % (time.time() - t_start),
        'extension': a.extension_info or '?',
    }
    settings = safe(lambda: pg.run("SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) "
                      "FROM pg_settings WHERE name IN ('shared_buffers', 'work_mem', 'maintenance_work_mem', "
                      "'fsync', 'synchronous_commit', 'full_page_writes', 'max_wal_size', 'wal_level');").strip())
    meta['server settings'] = settings + ' (scripts/sandbox defaults); ' + huge_pages_info()
    return meta


def huge_pages_info():
    """whether the server's shared memory is on huge pages (bench/run --huge-pages reserves them)"""
    info = {}
    try:
        with open('/proc/meminfo') as f:
            for line in f:
                k, _, v = line.partition(':')
                info[k] = int(v.split()[0])
    except (OSError, ValueError, IndexError):
        return 'huge pages: unknown'
    total = info.get('HugePages_Total', 0)
    used = total - info.get('HugePages_Free', 0) + info.get('HugePages_Rsvd', 0)
    if total == 0 or used == 0:
        return 'shared memory on 4-kB pages (no huge pages reserved: vm.nr_hugepages = %d)' % total
    return ('shared memory on huge pages: %d of %d reserved 2-MB pages (vm.nr_hugepages, bench/run --huge-pages)'
            % (used, total))


def file_id(path):
    if not path:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return 'missing'
    with open(path, 'rb') as f:
        h = hashlib.sha256(f.read()).hexdigest()[:12]
    return 'sha256 %s, modified %s UTC' % (h, datetime.datetime.utcfromtimestamp(st.st_mtime).strftime('%H:%M:%S'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--size', action='append', required=True, help='LABEL:PATH[:GROWN_PATH:GROWN_N]')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--out', required=True)
    ap.add_argument('--db', default='fixes_bench')
    ap.add_argument('--keep-db', action='store_true')
    ap.add_argument('--psql', default='psql')
    ap.add_argument('--command', default='bench/run')
    ap.add_argument('--extension-info', default='')
    ap.add_argument('--server-log', help="the server's log file, quoted when a load fails")
    ap.add_argument('--so', help='the installed fixes.so: a change during the run is reported')
    ap.add_argument('--started', type=float, help='epoch seconds at which bench/run started')
    ap.add_argument('--stable', help='LABEL:PATH of a make-history --stable repository (issue 13)')
    ap.add_argument('--daily', action='append', default=[],
                    help='LABEL:PATH:GROWN_PATH:GROWN_N, the daily refresh (issue 31), smallest size first')
    ap.add_argument('--daily-runs', type=int, default=3)
    ap.add_argument('--commit-graph', help='LABEL:PATH:GRAPH_PATH, the repository and its copy with '
                    "git's commit-graph file: alternated cold loads (issue 45)")
    a = ap.parse_args()
    t_start = a.started or time.time()
    load_start = open('/proc/loadavg').read().split()[:3]
    load_start = ' '.join(load_start)
    b = Bench(a)
    so_before = file_id(a.so)
    results = []
    for spec in a.size:
        parts = spec.split(':')
        label, path = parts[0], parts[1]
        grown, grown_n = (parts[2], int(parts[3])) if len(parts) >= 4 and parts[2] else (None, 0)
        r = b.size(label, path, grown, grown_n)
        r['grown'], r['grown_n'] = grown, grown_n
        results.append(r)
        if r['cold_rows'] and r['refresh_rows']:
            want = r['cold_rows'][0]['commits'] + grown_n
            got = r['refresh_rows'][0]['commits']
            if got != want:
                b.notes.append('%s: the refresh reported %d commits, expected %d (base %d + %d new)' % (
                    label, got, want, r['cold_rows'][0]['commits'], grown_n))
        if r.get('git_commits_rows') and r['cold_rows'] and r['git_commits_rows'] != r['cold_rows'][0]['commits']:
            b.notes.append('%s: fixes_git_commits returned %d rows, fixes_load %d commits' % (
                label, r['git_commits_rows'], r['cold_rows'][0]['commits']))
        for key in ('per_release', 'floor', 'reader'):      # failed loads are in loader_errors
            for e in r[key].errors:
                b.notes.append('%s, %s: %s' % (label, key, ' '.join(e.split())))
        if len(r['cold']) > 1 and r['cold'].med() and (max(r['cold']) - min(r['cold'])) / r['cold'].med() > 0.15:
            b.notes.append('%s: cold loads vary by more than 15%% between runs: %s s' % (label, fmt_list(r['cold'])))
    stable = None
    if a.stable:
        label, path = a.stable.split(':', 1)
        stable = b.stable(label, path)
        for e in stable['stable'].errors + stable['per_stable'].errors + \
                (stable['cve']['all'].errors if stable.get('cve') else []):
            b.notes.append('%s: %s' % (label, ' '.join(e.split())))
    daily = []
    for spec in a.daily:
        label, path, grown, grown_n = spec.split(':')
        d = b.daily(label, path, grown, int(grown_n), a.daily_runs)
        daily.append(d)
        for e in d['cold'].errors + d['refresh'].errors:
            b.notes.append('daily %s: %s' % (label, ' '.join(e.split())))
    graph = None
    if a.commit_graph:
        label, path, gpath = a.commit_graph.split(':')
        graph = b.commit_graph(label, path, gpath, a.runs)
        for e in graph['plain'].errors + graph['graph'].errors:
            b.notes.append('commit-graph %s: %s' % (label, ' '.join(e.split())))
    if not a.keep_db:
        try:
            b.pg.run('DROP DATABASE IF EXISTS %s WITH (FORCE);' % a.db)
        except SqlError as e:
            b.notes.append('could not drop the database: %s' % e)
    if so_before != file_id(a.so):
        b.notes.append('the installed fixes.so changed during the run (%s, now %s): the figures may mix two builds'
                       % (so_before, file_id(a.so)))
    b.wait_ready()
    meta = gather_meta(a, b.pg, t_start, load_start)
    if so_before:
        meta['extension'] += ' (fixes.so: %s)' % so_before
    table, summary, md = report(results, a, meta, b.notes, b.loader_errors, stable, daily)
    if graph:
        gmd = graph_report(graph)
        md = md.rstrip('\n') + '\n\n' + gmd
        table += '\n\n' + gmd
    print()
    print(table)
    print()
    for s in summary:
        print(s.replace('**', ''))
    for n in b.loader_errors + b.notes:
        print('NOTE: ' + n)
    with open(a.out, 'w') as f:
        f.write(md.rstrip('\n') + '\n')
    print('\nwritten: %s (run took %s)' % (a.out, meta['duration']))
    return 1 if b.loader_errors else 0


if __name__ == '__main__':
    sys.exit(main())
