"""Checks of the call-site tables of an mpiscope HTML report as the browser
drew them (check_page.py dom ... --sites-json FILE --sites-csv FILE):

  * with --sites-text, the text report's "MPI time by call site" rows read
    as the page's, cell for cell (the text shows the first 20);
  * the table "MPI time by call site" has a row per site of --json's
    "sites", in its order, each with the same call, call site, calls, ranks
    and total, and the same percentages (% MPI, % app, imbal %, wait %) at
    the text report's rounding (one decimal); --sites-csv says the same as
    --json, row for row;
  * a site row opens onto its message regions (rows of class region-row
    after it), the regions of that MPI function at that call site;
  * "MPI time by function" agrees with --json's "functions" likewise, and
    the start-up and shutdown line names --json's "startup_shutdown";
  * no region of the tool ("mpiscope:...") shows outside the tool's section
    (in text or in a title), and --tool-region names one that shows in it.
"""
import csv
import json
import re

UNITS = {"ns": 1e-9, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0}


def time_s(text):
    """'7.59 s', '753 \u00b5s', '0' -> seconds."""
    if text.strip() == "0":
        return 0.0
    m = re.fullmatch(r"\s*([0-9.]+) (ns|\u00b5s|ms|s)\s*", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def same_time(text, seconds):
    """A time as the page prints it (3 significant digits) is `seconds`."""
    got = time_s(text)
    return got is not None and abs(got - seconds) <= max(5e-3 * seconds, 1e-9)


def call_of(op):
    return "MPI_" + op[0].upper() + op[1:] if op[:1].islower() else op


def site_label(row):
    """ms_site_label's full form of a --json site (names.h)."""
    if not row["function"] and not row["file"]:
        return "(no call site)"
    if row["line"] > 0:
        return "%s (%s:%d)" % (row["function"], row["file"].rsplit("/", 1)[-1], row["line"])
    if row["function"]:
        return "%s (%s)" % (row["function"], row["object"])
    return row["file"]


def pct(v):
    return "%.1f" % v


def check_row(fail, what, cells, want, with_site):
    checks = [("% MPI", pct(want["mpi_pct"])), ("% app", pct(want["app_pct"])),
              ("calls", "{:,}".format(want["calls"])), ("ranks", str(want["ranks"])),
              ("imbal %", pct(want["imbalance_pct"])),
              ("wait %", "-" if want.get("wait_pct") is None else pct(want["wait_pct"]))]
    checks.append(("call" if with_site else "function", call_of(want["operation"])))
    for col, text in checks:
        if cells.get(col) != text:
            fail("%s: %s reads %r, --json says %r" % (what, col, cells.get(col), text))
    if not same_time(cells.get("total", ""), want["total_s"]):
        fail("%s: total reads %r, --json says %.9f s" % (what, cells.get("total"), want["total_s"]))
    if with_site:
        label = site_label(want)
        shown = cells.get("call site", "")
        # The page may shorten a long C++ name (names.h), never cut inside one.
        if shown != label and not (shown.endswith("...") or len(label) > 72):
            fail("%s: call site reads %r, want %r" % (what, shown, label))


def csv_agrees(fail, path, sites):
    rows = list(csv.DictReader(open(path, encoding="utf-8")))
    if len(rows) != len(sites):
        fail("--sites-csv has %d rows, --json %d sites" % (len(rows), len(sites)))
    for i, (c, j) in enumerate(zip(rows, sites)):
        for k in ("operation", "function", "file", "object"):
            if c[k] != j[k]:
                fail("site %d: --sites-csv %s %r, --json %r" % (i, k, c[k], j[k]))
        for k in ("line", "calls", "ranks", "bytes"):
            if int(c[k]) != j[k]:
                fail("site %d: --sites-csv %s %s, --json %s" % (i, k, c[k], j[k]))
        for k in ("total_s", "mpi_pct", "app_pct", "imbalance_pct", "wait_pct"):
            want = j.get(k)
            if (c[k] == "") != (want is None) or (c[k] and abs(float(c[k]) - want) > 1e-6):
                fail("site %d: --sites-csv %s %r, --json %r" % (i, k, c[k], want))


TEXT_ROW = re.compile(r"^ +([0-9.]+) +([0-9.]+) +([0-9.]+ (?:ns|\u00b5s|ms|s)|0) +([0-9,]+) +([0-9]+) +([0-9.]+) +"
                      r"([0-9.]+|-)  (\S+) at (.*)$")


def text_agrees(fail, path, site_rows, head):
    """The text report's call-site rows against the page's."""
    text = open(path, encoding="utf-8").read()
    part = text.split("\nMPI time by call site", 1)[-1].split("\n\n", 1)[0]
    rows = [m.groups() for m in map(TEXT_ROW.match, part.splitlines()) if m]
    if len(rows) != min(len(site_rows), 20):
        fail("the text report shows %d call sites, the page %d" % (len(rows), len(site_rows)))
    cols = ["% MPI", "% app", "total", "calls", "ranks", "imbal %", "wait %", "call", "call site"]
    for i, (t, cells) in enumerate(zip(rows, site_rows)):
        page = dict(zip(head, cells))
        for col, want in zip(cols, t):
            # The text fits a site into its line; the page shows more of it.
            if col == "call site" and want.endswith("...") and page.get(col, "").startswith(want[:-3]):
                continue
            if page.get(col) != want:
                fail("site %d: the page's %s reads %r, the text's %r" % (i, col, page.get(col), want))


def check_sites(dom, args, fail):
    """The call-site tables of dom (check_page.Dom) against --json and
    --sites-csv; the tool's regions in their section only."""
    if args.sites_json:
        data = json.load(open(args.sites_json, encoding="utf-8"))
        csv_agrees(fail, args.sites_csv, data["sites"])
        t = dom.tables.get("sites", {"head": [], "rows": [], "row_classes": []})
        site_rows = [r for r, c in zip(t["rows"], t["row_classes"]) if "site-row" in c.split()]
        if len(site_rows) != min(len(data["sites"]), 100):
            fail("the page shows %d call sites, --json has %d" % (len(site_rows), len(data["sites"])))
        for i, (cells, want) in enumerate(zip(site_rows, data["sites"])):
            check_row(fail, "site %d" % i, dict(zip(t["head"], cells)), want, True)
        if args.sites_text:
            text_agrees(fail, args.sites_text, site_rows, t["head"])
        # Each region row lies under its site's row and is of its function.
        site, opened = -1, 0
        for cells, titles, cls in zip(t["rows"], t["titles"], t["row_classes"]):
            if "site-row" in cls.split():
                site += 1
            elif "region-row" in cls.split() and titles and titles[-1] and 0 <= site < len(data["sites"]):
                opened += 1
                op = data["sites"][site]["operation"]
                if not re.match(r"mpi:%s( |$)" % re.escape(op), titles[-1]):
                    fail("site %d (%s) lists region %r" % (site, op, titles[-1]))
        if not opened and any(j["file"] or j["function"] for j in data["sites"]):
            fail("no call site opens onto its message regions")
        f = dom.tables.get("functions", {"head": [], "rows": []})
        if len(f["rows"]) != len(data["functions"]):
            fail("the page shows %d functions, --json has %d" % (len(f["rows"]), len(data["functions"])))
        for i, (cells, want) in enumerate(zip(f["rows"], data["functions"])):
            check_row(fail, "function %d" % i, dict(zip(f["head"], cells)), want, False)
        life = dom.texts.get("lifecycle", "")
        for fn in data["startup_shutdown"]["functions"]:
            if call_of(fn["operation"]) not in life:
                fail("start-up and shutdown does not name %s: %r" % (call_of(fn["operation"]), life))
        print("sites: %d sites and %d functions as --json, --sites-csv and the text say" %
              (len(site_rows), len(f["rows"])))
    for where, text in dom.tool_texts:
        if where != "sec-tool":
            fail("a region of the tool shows in %s: %r" % (where or "the page", text[:120]))
    for name in args.tool_region:
        if not any(w == "sec-tool" and name in t for w, t in dom.tool_texts):
            fail("the tool's section does not show %r" % name)


def check_data(data, fail):
    """The page's data as written: each imbalance chart is a call site's
    (never a message region's: no peer, tag or size in its name), its bars
    sum to the site's time, and each site's regions are of its function."""
    for g in data.get("imbalance", []):
        if re.search(r"\b(peer|tag|bytes|root)=", g["name"]):
            fail("imbalance chart of a message region: %r" % g["name"])
        if sum(g["totals_ns"]) != g["total_ns"]:
            fail("imbalance of %s: the ranks sum to %d ns, the site's time is %d" %
                 (g["name"], sum(g["totals_ns"]), g["total_ns"]))
    for r in data.get("sites", {}).get("rows", []):
        for g in r["regions"]:
            if not re.match(r"mpi:%s( |$)" % re.escape(r["op"]), g["name"]):
                fail("site %s at %s lists region %r" % (r["call"], r["label"], g["name"]))
        if r["regions"] and sum(g["total_ns"] for g in r["regions"]) > r["total_ns"] and \
                r["regions_total"] == len(r["regions"]):
            fail("site %s at %s: its regions take more time than it" % (r["call"], r["label"]))
