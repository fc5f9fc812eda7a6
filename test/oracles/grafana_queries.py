#!/usr/bin/env python3
"""grafana_queries.py — check the Grafana dashboard's SQL against a database (stdlib only).

  grafana_queries.py role-sql README BLOCK ROLE
      print the SQL block BLOCK of grafana/README.md (between the markers
      <!-- BLOCK:begin --> and <!-- BLOCK:end -->, inside a ```sql fence), with the role
      name grafana_fixes replaced by ROLE (roles are global to a cluster: a test must not
      take the name a real set-up uses)

  grafana_queries.py provisioning GRAFANA_DIR
      the provisioning examples agree with the dashboard: the data source's type is the
      plugin of the dashboard's data source variable, its user grafana_fixes, its password
      ${FIXES_GRAFANA_PASSWORD}; the dashboard provider is a file provider whose path the
      README tells to copy fixes-dashboard.json to

  grafana_queries.py check DASHBOARD REPOSITORY
      1. the dashboard's structure: uid, schemaVersion, a data source variable of the
         PostgreSQL plugin that every panel, query and annotation uses, the `repository`
         variable, every target a raw SQL query (rawSql, rawQuery, editorMode code) with
         format time_series or table, no Grafana-side transformations;
      2. every rawSql of the dashboard (panels, annotations) and the query of each query
         variable, with $repository / ${repository} / [[repository]] replaced by REPOSITORY
         and each other variable by its value (see below), quoted as Grafana quotes a single
         value (' doubled), and the time macros by the
         dashboard's default time range, is run with psql (connection from PGHOST, PGPORT,
         PGUSER, PGDATABASE): its result columns are read with \\gdesc, then it runs as is.
         A query fails the check when it errors, returns no rows, or when its columns do not
         fit its format and panel without a transformation: time_series needs a `time`
         column of type timestamp with time zone, numeric value columns (or a `metric`
         column) and rows in time order; annotations a timestamptz `time` and a `text`;
         a bar chart one text column (the x axis) and numeric bars; a stat or bar gauge
         numeric fields; the repository variable must list REPOSITORY. Each value column of a
         time_series or bar chart must hold a value other than NULL and 0 in some row (else
         the panel draws nothing and the fixture tests nothing), and each column of a table
         panel a value other than NULL, '' and '{}' in some row.
      The variables run first, in the dashboard's order; every variable but repository
      takes its first value (Grafana's default), which the queries after it use.

Exit status 0 when everything passes, 1 otherwise (each problem is printed on a FAIL line).
"""

import csv
import datetime
import io
import json
import os
import re
import subprocess
import sys

PG_PLUGINS = ("grafana-postgresql-datasource", "postgres")
NUMERIC = {"smallint", "integer", "bigint", "numeric", "real", "double precision"}
TIMESTAMPTZ = "timestamp with time zone"
TEXT = {"text", "character varying", "name", "character"}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# --- role-sql -----------------------------------------------------------------------------

def role_sql(readme, block, role):
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"<!--\s*%s:begin\s*-->(.*?)<!--\s*%s:end\s*-->" % (re.escape(block), re.escape(block)),
                  text, re.S)
    if not m:
        sys.exit("grafana_queries: no block %s in %s" % (block, readme))
    fence = re.search(r"```sql\n(.*?)```", m.group(1), re.S)
    if not fence:
        sys.exit("grafana_queries: block %s of %s has no ```sql fence" % (block, readme))
    sql = fence.group(1)
    if "grafana_fixes" not in sql:
        sys.exit("grafana_queries: block %s of %s does not name the role grafana_fixes" % (block, readme))
    sys.stdout.write(re.sub(r"\bgrafana_fixes\b", role, sql))


# --- psql ---------------------------------------------------------------------------------

def psql(stdin):
    """Run psql on stdin; return (ok, rows as lists, error text)."""
    cmd = [os.environ.get("PSQL", "psql"), "-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1", "-f", "-"]
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        return False, [], (p.stderr.strip() or "psql exit %d" % p.returncode)
    return True, list(csv.reader(io.StringIO(p.stdout))), p.stderr.strip()


# --- the dashboard ------------------------------------------------------------------------

def walk(obj, path="$"):
    """Yield (path, dict) for every dict in obj."""
    if isinstance(obj, dict):
        yield path, obj
        for k, v in obj.items():
            yield from walk(v, "%s.%s" % (path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, "%s[%d]" % (path, i))


def all_panels(panels):
    for p in panels or []:
        yield p
        yield from all_panels(p.get("panels"))      # collapsed rows hold their panels


def relative_time(expr, now):
    """Grafana's now-30y / now-7d / now (the forms a default time range uses)."""
    if expr == "now":
        return now
    m = re.fullmatch(r"now-(\d+)([smhdwMy])", expr or "")
    if not m:
        try:
            return datetime.datetime.fromtimestamp(int(expr) / 1000, datetime.timezone.utc)
        except (TypeError, ValueError):
            fail("time range %r: not understood" % (expr,))
            return now
    n, unit = int(m.group(1)), m.group(2)
    if unit == "y":
        return now.replace(year=now.year - n, day=min(now.day, 28))
    if unit == "M":
        months = now.year * 12 + now.month - 1 - n
        return now.replace(year=months // 12, month=months % 12 + 1, day=min(now.day, 28))
    secs = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[unit]
    return now - datetime.timedelta(seconds=n * secs)


def substitute(sql, variables, t_from, t_to, where):
    """Replace the variables and Grafana's SQL macros as Grafana would; None on a leftover."""
    lit = lambda t: "'%s'" % t.strftime("%Y-%m-%dT%H:%M:%SZ")
    macros = {
        "__timeFilter": lambda c: "%s BETWEEN %s AND %s" % (c, lit(t_from), lit(t_to)),
        "__timeFrom": lambda c: lit(t_from),
        "__timeTo": lambda c: lit(t_to),
        "__unixEpochFilter": lambda c: "%s >= %d AND %s <= %d" % (
            c, int(t_from.timestamp()), c, int(t_to.timestamp())),
        "__unixEpochFrom": lambda c: str(int(t_from.timestamp())),
        "__unixEpochTo": lambda c: str(int(t_to.timestamp())),
    }

    def macro(m):
        name, arg = m.group(1), (m.group(2) or "").strip()
        if name not in macros:
            fail("%s: macro $%s is not substituted by this test (add it to grafana_queries.py)" % (where, name))
            return m.group(0)
        return macros[name](arg)

    sql = re.sub(r"\$(__\w+)\(([^()]*)\)", macro, sql)
    for name, value in variables.items():
        quoted = value.replace("'", "''")
        sql = re.sub(r"\$\{%s(?::(?:raw|sqlstring|text))?\}|\[\[%s\]\]|\$%s\b" % (name, name, name),
                     lambda m: quoted, sql)
    left = re.findall(r"\$\{?\w+\}?|\[\[\w+\]\]", sql)
    if left:
        fail("%s: unknown variable(s) %s left in the query" % (where, ", ".join(sorted(set(left)))))
        return None
    return sql.strip().rstrip(";").rstrip()


def check_dashboard(path, repository):
    try:
        dash = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))
        return []

    if dash.get("uid") != "fixes-per-release":
        fail("uid is %r, want 'fixes-per-release'" % dash.get("uid"))
    sv = dash.get("schemaVersion")
    if not isinstance(sv, int) or not 36 <= sv <= 41:
        fail("schemaVersion %r: want that of Grafana 10/11 (36..41)" % sv)
    if dash.get("id") is not None:
        fail("id must be null in an importable dashboard")

    variables = dash.get("templating", {}).get("list", [])
    ds_vars = [v for v in variables if v.get("type") == "datasource"]
    if len(ds_vars) != 1 or ds_vars[0].get("query") not in PG_PLUGINS:
        fail("want exactly one data source variable with query in %s" % (PG_PLUGINS,))
        return []
    ds_name = ds_vars[0]["name"]
    ds_refs = {"${%s}" % ds_name, "$%s" % ds_name}
    inputs = dash.get("__inputs") or []
    ds_refs |= {"${%s}" % i["name"] for i in inputs if i.get("type") == "datasource"}

    def check_ds(ds, where):
        if not isinstance(ds, dict) or ds.get("uid") not in ds_refs or ds.get("type") not in PG_PLUGINS:
            fail("%s: datasource %r is not the dashboard's data source variable" % (where, ds))

    queries = []            # (where, kind, panel type, format, sql)

    repo_vars = [v for v in variables if v.get("name") == "repository"]
    if len(repo_vars) != 1 or repo_vars[0].get("type") != "query":
        fail("want one query variable named repository")
    for v in variables:
        if v.get("type") != "query":
            continue
        where = "variable %s" % v.get("name")
        check_ds(v.get("datasource"), where)
        q = v.get("query")
        sql = q.get("rawSql") or q.get("query") if isinstance(q, dict) else q
        if not sql:
            fail("%s: no query" % where)
            continue
        queries.append((where, "variable", v.get("name"), "table", sql))

    for i, a in enumerate(dash.get("annotations", {}).get("list", [])):
        if a.get("builtIn"):
            continue
        where = "annotation %r" % a.get("name")
        check_ds(a.get("datasource"), where)
        t = a.get("target") or {}
        check_ds(t.get("datasource", a.get("datasource")), where)
        if not t.get("rawSql"):
            fail("%s: no target.rawSql" % where)
            continue
        queries.append((where, "annotation", None, "table", t["rawSql"]))

    ids = set()
    panels = list(all_panels(dash.get("panels")))
    if not any(p.get("type") != "row" for p in panels):
        fail("no panels")
    for p in panels:
        where = "panel %s %r" % (p.get("id"), p.get("title"))
        if p.get("id") in ids:
            fail("%s: duplicate panel id" % where)
        ids.add(p.get("id"))
        if not isinstance(p.get("gridPos"), dict):
            fail("%s: no gridPos" % where)
        if p.get("type") == "row":
            continue
        if p.get("transformations"):
            fail("%s: has Grafana-side transformations" % where)
        check_ds(p.get("datasource"), where)
        targets = p.get("targets") or []
        if not targets:
            fail("%s: no targets" % where)
        for t in targets:
            w = "%s target %s" % (where, t.get("refId"))
            check_ds(t.get("datasource"), w)
            if not t.get("rawSql"):
                fail("%s: no rawSql" % w)
                continue
            if t.get("rawQuery") is not True or t.get("editorMode") != "code":
                fail("%s: want rawQuery true and editorMode code (a raw SQL query)" % w)
            if t.get("format") not in ("time_series", "table"):
                fail("%s: format %r, want time_series or table" % (w, t.get("format")))
            if t.get("hide"):
                continue
            queries.append((w, "panel", p.get("type"), t.get("format"), t["rawSql"]))

    # nothing hides elsewhere: every rawSql of the file is one of the queries above
    n_raw = sum(1 for _, d in walk(dash) if isinstance(d.get("rawSql"), str))
    n_seen = sum(1 for q in queries if q[1] != "variable")
    if n_raw != n_seen:
        fail("the dashboard holds %d rawSql, the check found %d in panels and annotations" % (n_raw, n_seen))

    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    t_from = relative_time(dash.get("time", {}).get("from"), now)
    t_to = relative_time(dash.get("time", {}).get("to"), now)
    return queries, t_from, t_to


# --- running the queries ------------------------------------------------------------------

def check_query(where, kind, ptype, fmt, sql, repository):
    """Run one substituted query and check its result; return its rows (None on an error)."""
    ok, desc, err = psql(sql + "\n\\gdesc\n")
    if not ok:
        fail("%s: %s\n    query: %s" % (where, err, sql.replace("\n", "\n           ")))
        return None
    cols = [(r[0], r[1]) for r in desc[1:]]         # header: Column,Type
    types = dict(cols)
    ok, rows, err = psql(sql + "\n;\n")
    if not ok:
        fail("%s: %s" % (where, err))
        return None
    header, rows = (rows[0], rows[1:]) if rows else ([], [])
    print("ok   %-62s %3d rows  %s" % (where[:62], len(rows),
                                      ", ".join("%s %s" % c for c in cols)))
    if not rows:
        fail("%s: no rows on the fixture" % where)
        return rows

    def need_data(names):
        # a series (or bar) that is NULL or 0 in every row draws nothing: the data tests nothing
        for name in names:
            vals = [r[header.index(name)] for r in rows]
            if all(v == "" or float(v) == 0 for v in vals):
                fail("%s: column %r is NULL or 0 in every row: no data to draw on the fixture"
                     % (where, name))

    def need_time():
        if types.get("time") != TIMESTAMPTZ:
            fail("%s: column time is %r, want %s" % (where, types.get("time"), TIMESTAMPTZ))
            return
        t = [r[header.index("time")] for r in rows]
        if t != sorted(t):          # PGTZ=UTC: the same offset everywhere, text order = time order
            fail("%s: rows are not in time order" % where)

    def need_values(names):
        # a table column that is NULL (or empty) in every row shows nothing: e.g. the size of
        # the buggiest commits on a repository loaded without its files
        for name in names:
            if all(r[header.index(name)] in ("", "{}") for r in rows):
                fail("%s: column %r is NULL or empty in every row: no data to show on the fixture"
                     % (where, name))

    values = [c for c in cols if c[0] not in ("time", "metric")]
    if kind == "variable":
        if ptype == "repository" and repository not in [r[0] for r in rows]:
            fail("%s: %r is not among its values" % (where, repository))
    elif kind == "annotation":
        need_time()
        if types.get("text") not in TEXT:
            fail("%s: want a text column `text`" % where)
    elif fmt == "time_series":
        need_time()
        bad = [c for c in values if c[1] not in NUMERIC]
        if bad or not values:
            fail("%s: time_series value columns must be numeric (else Grafana splits series): %s"
                 % (where, bad or "none"))
        if "metric" in types and types["metric"] not in TEXT:
            fail("%s: column metric must be text" % where)
        if not bad:
            need_data([c[0] for c in values])
    elif ptype == "barchart":
        texts = [c for c in cols if c[1] in TEXT]
        nums = [c for c in cols if c[1] in NUMERIC]
        if len(texts) != 1 or len(nums) != len(cols) - 1:
            fail("%s: a bar chart wants one text column (x) and numeric bars, got %s" % (where, cols))
        need_data([c[0] for c in nums])
    elif ptype == "table":
        need_values([c[0] for c in cols])
    elif ptype in ("stat", "bargauge", "gauge"):
        if not any(c[1] in NUMERIC for c in cols):
            fail("%s: no numeric field" % where)
    return rows


def provisioning(gdir):
    def yaml_value(text, key):
        m = re.search(r"^\s*%s:\s*(\S+)" % re.escape(key), text, re.M)
        return m.group(1).strip("'\"") if m else None

    dash = json.load(open(os.path.join(gdir, "fixes-dashboard.json"), encoding="utf-8"))
    plugin = [v.get("query") for v in dash["templating"]["list"] if v.get("type") == "datasource"]
    ds = open(os.path.join(gdir, "provisioning/datasources/fixes.yaml"), encoding="utf-8").read()
    db = open(os.path.join(gdir, "provisioning/dashboards/fixes.yaml"), encoding="utf-8").read()
    readme = open(os.path.join(gdir, "README.md"), encoding="utf-8").read()
    if yaml_value(ds, "apiVersion") != "1" or yaml_value(db, "apiVersion") != "1":
        fail("provisioning files: want apiVersion: 1")
    if [yaml_value(ds, "type")] != plugin:
        fail("datasources/fixes.yaml: type %s, the dashboard's data source variable wants %s"
             % (yaml_value(ds, "type"), plugin))
    if yaml_value(ds, "user") != "grafana_fixes":
        fail("datasources/fixes.yaml: user is not grafana_fixes")
    if yaml_value(ds, "password") not in ("${FIXES_GRAFANA_PASSWORD}", "$FIXES_GRAFANA_PASSWORD"):
        fail("datasources/fixes.yaml: password is not taken from $FIXES_GRAFANA_PASSWORD")
    if not yaml_value(ds, "database"):
        fail("datasources/fixes.yaml: no jsonData.database")
    path = yaml_value(db, "path")
    if yaml_value(db, "type") != "file" or not path:
        fail("dashboards/fixes.yaml: want a file provider with options.path")
    elif "fixes-dashboard.json %s/" % path not in readme:
        fail("README.md does not copy fixes-dashboard.json to the provider's path %s" % path)
    print("ok   provisioning: data source type %s, user grafana_fixes, dashboards from %s"
          % (yaml_value(ds, "type"), path))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "provisioning":
        provisioning(sys.argv[2])
        return 1 if failures else 0
    if len(sys.argv) == 5 and sys.argv[1] == "role-sql":
        role_sql(*sys.argv[2:])
        return 0
    if len(sys.argv) != 4 or sys.argv[1] != "check":
        sys.stderr.write(__doc__)
        return 2
    dashboard, repository = sys.argv[2:]
    queries, t_from, t_to = check_dashboard(dashboard, repository)
    # the variables first, in the dashboard's order (a variable's query may use the ones
    # before it); each takes Grafana's default, its first value, except repository
    values = {"repository": repository}
    n = 0
    for where, kind, ptype, fmt, sql in sorted(queries, key=lambda q: q[1] != "variable"):
        s = substitute(sql, values, t_from, t_to, where)
        if s is None:
            continue
        n += 1
        rows = check_query(where, kind, ptype, fmt, s, repository)
        if kind == "variable" and ptype != "repository" and rows:
            values[ptype] = rows[0][0]
            print("     $%s = %r (its first value)" % (ptype, rows[0][0]))
    print("%d queries checked, %d problems" % (n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
