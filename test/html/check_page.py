#!/usr/bin/env python3
"""Checks of an mpiscope HTML report (test/html/run.sh).

    check_page.py data PAGE.html [--long-calls N]
        the page as written: self-contained (no src/href, no <link>), its
        data block is valid JSON that no log string ends early, the
        timeline keeps at most `cap` calls per rank, and with --long-calls
        (a rank with that many calls of durations 1..N ns among calls of at
        least 1 us) that it kept the longest ones.

        With --waits, the wait-state data adds up: the pattern table's cells
        to each pattern's total and those to all the waiting, the late ranks
        to all the waiting, the critical path's stretches (in time order,
        one after the other) to its length and, per rank, to its compute and
        MPI time. --expect-wait PATTERN:RANK:CAUSE:LO:HI wants RANK to have
        waited LO..HI seconds in PATTERN, most of it for CAUSE.

    check_page.py dom DOM.html --charts ID,ID,... [--gpu|--no-gpu]
                  [--region-text TEXT] [--site-re REGEX] [--min-elements ID=N ...]
                  [--interacted STEP,...] [--expect-wait PATTERN:RANK:CAUSE:LO:HI
                  [--wait-call NAME] [--wait-site-re REGEX]] [--expect-path LO:HI]
                  [--min-class CLASS=N ...] [--waits-summary] [--wait-tip-re REGEX]
        the page after the browser ran its script (chromium --dump-dom): no
        script error (data-errors), every expected chart drawn (data-drawn)
        and not empty, every chart of a shown part not empty, nothing
        injected (no element with src/href, no img/iframe/object/link);
        with --interacted, the steps of test/html/interact.js that worked.
        --expect-wait: the wait-state tables as drawn: the pattern table's
        cell of PATTERN and RANK, the top call-site row (rank, call, call
        site, pattern, seconds, waited for CAUSE) and the first late rank
        (CAUSE, seconds). --expect-path: the critical path's length (LO..HI
        seconds), its chart and regions. --min-class: elements of a class
        (wait-mark, path-seg). --waits-summary: both sections say that wait
        states need trace mode, and show no tables. --wait-tip-re: the
        tooltip of a waiting call that interact.js saw.

Prints one line per failure and exits 1 when any check failed.
"""
import argparse
import html.parser
import json
import re
import sys

import check_sites

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FORBIDDEN = {"img", "iframe", "object", "embed", "link", "frame"}


class Dom(html.parser.HTMLParser):
    """Element tree facts: the root's attributes, the elements inside each
    svg.chart and whether it lies in a hidden section, table cell texts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, attrs, hidden)
        self.root = {}
        self.charts = {}         # id -> {"elements": n, "hidden": bool}
        self.sections = {}       # id -> hidden
        self.cells = []          # (class, text)
        self.cell = None
        self.title = ""
        self.in_title = False
        self.forbidden = []
        self.tables = {}         # id -> {"head": [th text], "rows": [[td text]], "hidden": bool}
        self.table = None        # the innermost table with an id
        self.th = None
        self.texts = {}          # id of a <p> or <dd> -> its text
        self.text_id = None
        self.facts = {}          # dt text -> dd text, of every dl
        self.dt = None
        self.classes = {}        # class -> elements of it
        self.tool_texts = []     # (id of the section, text) of each text or title naming "mpiscope:..."

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.root = a
        if tag in FORBIDDEN:
            self.forbidden.append(tag)
        for k in ("src", "href"):
            if k in a:
                self.forbidden.append("%s %s=%r" % (tag, k, a[k]))
        hidden = bool(self.stack and self.stack[-1][2]) or "hidden" in a
        for c in a.get("class", "").split():
            self.classes[c] = self.classes.get(c, 0) + 1
        if tag == "table" and "id" in a:
            self.table = self.tables.setdefault(a["id"], {"head": [], "rows": [], "hidden": hidden, "row_classes": [],
                                                          "titles": []})
        if tag == "tr" and self.table is not None and any(t == "tbody" for t, _, _ in self.stack):
            self.table["rows"].append([])
            self.table["titles"].append([])
            self.table["row_classes"].append(a.get("class", ""))
        if tag == "td" and self.table is not None and self.table["titles"]:
            self.table["titles"][-1].append(a.get("title", ""))
        if "mpiscope:" in a.get("title", ""):
            self.tool_texts.append((self.section(), a["title"]))
        if tag == "th" and self.table is not None:
            self.th = ""
        if tag in ("p", "dd") and "id" in a:
            self.text_id = a["id"]
            self.texts[self.text_id] = ""
        if tag == "dt":
            self.dt = ""
        if tag == "dd" and self.dt is not None:
            self.text_id = ("dd", self.dt)
            self.texts[self.text_id] = ""
        for t, pa, _ in reversed(self.stack):  # an element inside a chart counts for it
            if t == "svg" and "chart" in pa.get("class", "").split() and pa.get("id") in self.charts:
                self.charts[pa["id"]]["elements"] += 1
                break
        if tag == "section" and "id" in a:
            self.sections[a["id"]] = hidden
        if tag == "svg" and "chart" in a.get("class", "").split():
            self.charts[a.get("id", "?")] = {"elements": 0, "hidden": hidden}
        if tag == "td":
            self.cell = [a.get("class", ""), ""]
        if tag == "title" and not self.stack[-1][0] == "svg":
            self.in_title = True
        if tag not in VOID:
            self.stack.append((tag, a, hidden))

    def section(self):
        """The id of the innermost section open."""
        return next((a.get("id", "") for t, a, _ in reversed(self.stack) if t == "section"), "")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            t = self.stack.pop()[0]
            if t == tag:
                break
        if tag == "td" and self.cell is not None:
            self.cells.append(tuple(self.cell))
            if self.table is not None and self.table["rows"]:
                self.table["rows"][-1].append(self.cell[1])
            self.cell = None
        if tag == "th" and self.th is not None:
            self.table["head"].append(self.th)
            self.th = None
        if tag == "table":
            self.table = None
        if tag in ("p", "dd"):
            if isinstance(self.text_id, tuple):
                self.facts[self.text_id[1]] = self.texts.pop(self.text_id)
                self.dt = None
            self.text_id = None
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if "mpiscope:" in data and not any(t in ("script", "style", "title") for t, _, _ in self.stack[-1:]):
            self.tool_texts.append((self.section(), data))
        if self.cell is not None:
            self.cell[1] += data
        if self.th is not None:
            self.th += data
        if self.text_id is not None:
            self.texts[self.text_id] += data
        if self.dt is not None and self.text_id is None:
            self.dt += data
        if self.in_title:
            self.title += data


def check_data(args):
    page = open(args.page, encoding="utf-8").read()
    scripts = len(re.findall(r"<script\b", page, re.I))
    ends = len(re.findall(r"</script", page, re.I))
    if scripts != 2 or ends != 2:
        fail("want 2 script elements (data, code), found %d openings and %d closings" % (scripts, ends))
    outside = re.sub(r"<script\b.*?</script>", "", page, flags=re.S | re.I)
    outside = re.sub(r"<style>.*?</style>", "", outside, flags=re.S)
    for m in re.finditer(r"<link\b|\s(src|href)\s*=", outside, re.I):
        fail("the page loads something: %r" % m.group(0))
    m = re.search(r'<script type="application/json" id="mpiscope-data">(.*?)</script>', page, re.S)
    if not m:
        fail("no data block")
        return
    try:
        data = json.loads(m.group(1))
    except ValueError as e:
        fail("data block is not JSON: %s" % e)
        return
    for key in ("run", "ranks", "regions", "tool", "sites", "ops", "sizes", "imbalance", "matrix", "gpu", "waits",
                "timeline"):
        if key not in data:
            fail("data has no %r" % key)
    check_sites.check_data(data, fail)
    tl = data.get("timeline", {})
    cap = tl.get("cap", 0)
    nnames = len(tl.get("names", []))
    for lane in tl.get("lanes", []):
        ev = lane["ev"]
        kept = len(ev) // 3
        if len(ev) % 3 or kept > cap:
            fail("rank %d: %d timeline values, cap %d" % (lane["rank"], len(ev), cap))
        if lane["events"] > cap and kept != cap:
            fail("rank %d: %d of %d calls kept, want %d" % (lane["rank"], kept, lane["events"], cap))
        starts = ev[0::3]
        if starts != sorted(starts):
            fail("rank %d: timeline calls not in start order" % lane["rank"])
        if any(n >= nnames for n in ev[2::3]):
            fail("rank %d: a timeline call names no region" % lane["rank"])
        if args.long_calls and lane["events"] > cap:
            shortest = min(ev[1::3])
            if shortest <= args.long_calls - cap:
                fail("rank %d: kept a call of %d ns, not the %d longest" % (lane["rank"], shortest, cap))
    if args.waits or args.expect_wait:
        check_wait_data(data, args)
    print("data: %d regions, %d timeline lanes, %d calls kept" %
          (len(data.get("regions", [])), len(tl.get("lanes", [])),
           sum(len(lane["ev"]) // 3 for lane in tl.get("lanes", []))))


PATTERN_WORDS = {"late_sender": "late sender", "late_receiver": "late receiver", "wait_at_barrier": "wait at barrier",
                 "wait_at_nxn": "wait at N x N", "late_broadcast": "late broadcast", "early_reduce": "early reduce"}


def expect_wait(spec):
    """PATTERN:RANK:CAUSE:LO:HI -> (pattern, rank, cause, lo, hi)."""
    p, r, c, lo, hi = spec.split(":")
    if p not in PATTERN_WORDS:
        raise SystemExit("check_page.py: no pattern %r" % p)
    return p, int(r), int(c), float(lo), float(hi)


def check_wait_data(data, args):
    w = data.get("waits")
    if not isinstance(w, dict) or not w.get("available"):
        fail("data has no wait-state analysis: %r" % (w if not isinstance(w, dict) else {"available": w.get("available")}))
        return
    total = 0
    for p in w["patterns"]:
        if sum(p["ns"]) + p["others_ns"] != p["total_ns"]:
            fail("pattern %s: its cells and others sum to %d ns, its total is %d" %
                 (p["pattern"], sum(p["ns"]) + p["others_ns"], p["total_ns"]))
        total += p["total_ns"]
    if total != w["wait_ns"]:
        fail("the patterns sum to %d ns, the waiting is %d" % (total, w["wait_ns"]))
    if w["late_total"] == len(w["late"]) and sum(r["wait_ns"] for r in w["late"]) != w["wait_ns"]:
        fail("the late ranks caused %d ns, the waiting is %d" % (sum(r["wait_ns"] for r in w["late"]), w["wait_ns"]))
    path, marks = w.get("path"), w["marks"]
    if path and marks["segs_total"] * 5 == len(marks["segs"]) and len(data["timeline"]["lanes"]) == len(data["ranks"]):
        segs = [marks["segs"][i:i + 5] for i in range(0, len(marks["segs"]), 5)]
        for a, b in zip(segs, segs[1:]):
            if a[1] + a[2] != b[1]:
                fail("critical path: a stretch ends at %d, the next starts at %d" % (a[1] + a[2], b[1]))
                break
        if sum(s[2] for s in segs) != path["length_ns"]:
            fail("critical path: its stretches sum to %d ns, its length is %d" % (sum(s[2] for s in segs), path["length_ns"]))
        if path["ranks_total"] == len(path["ranks"]):
            for r in path["ranks"]:
                got = [sum(s[2] for s in segs if s[0] == r["rank"] and s[3] == m) for m in (0, 1)]
                if got != [r["compute_ns"], r["mpi_ns"]]:
                    fail("critical path, rank %d: stretches of compute %d and MPI %d ns, want %d and %d" %
                         (r["rank"], got[0], got[1], r["compute_ns"], r["mpi_ns"]))
    for spec in args.expect_wait:
        pat, rank, cause, lo, hi = expect_wait(spec)
        row = next((p for p in w["patterns"] if p["pattern"] == pat), None)
        got = row["ns"][w["columns"].index(rank)] / 1e9 if row and rank in w["columns"] else 0
        if not lo <= got <= hi:
            fail("data: rank %d waited %.3f s in %s, want %g..%g" % (rank, got, pat, lo, hi))
        top = w["sites"][0] if w["sites"] else {}
        if (top.get("rank"), top.get("pattern"), top.get("cause")) != (rank, pat, cause):
            fail("data: the row of most waiting is %r, want rank %d, %s, for rank %d" % (top, rank, pat, cause))
    print("data: waits %.3f s in %d calls, %d patterns, path %s" %
          (w["wait_ns"] / 1e9, w["calls"], len(w["patterns"]),
           "%.3f s, %d stretches" % (path["length_ns"] / 1e9, len(marks["segs"]) // 5) if path else "none"))


def seconds(text):
    """A time as the page writes it: "0.110" (the tables), "104 ms" (fmtTime)."""
    m = re.match(r"\s*([0-9.]+)\s*(ns|\u00b5s|ms|s)?\b", text)
    if not m:
        return None
    return float(m.group(1)) * {"ns": 1e-9, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, None: 1.0}[m.group(2)]


def check_wait_dom(dom, args):
    tables = dom.tables
    if args.waits_summary:
        for sec, word in (("waits-note", "Wait states need trace mode"), ("path-note", "needs trace mode")):
            if word not in dom.texts.get(sec, ""):
                fail("#%s does not say %r: %r" % (sec, word, dom.texts.get(sec)))
        for t in ("waits-patterns", "waits-sites", "waits-late", "path-regions"):
            if t in tables and tables[t]["rows"] and not tables[t]["hidden"]:
                fail("summary mode, yet table #%s shows %d rows" % (t, len(tables[t]["rows"])))
    for spec in args.expect_wait:
        pat, rank, cause, lo, hi = expect_wait(spec)
        words = PATTERN_WORDS[pat]
        t = tables.get("waits-patterns", {"head": [], "rows": []})
        col = t["head"].index("rank %d" % rank) if "rank %d" % rank in t["head"] else -1
        row = next((r for r in t["rows"] if r and r[0] == words), None)
        got = seconds(row[col]) if row and col > 0 and col < len(row) else None
        if got is None or not lo <= got <= hi:
            fail("pattern table: %s, rank %d reads %r, want %g..%g s (head %s)" %
                 (words, rank, row[col] if row and 0 < col < len(row) else None, lo, hi, t["head"]))
        t = tables.get("waits-sites", {"head": [], "rows": []})
        top = dict(zip(t["head"], t["rows"][0])) if t["rows"] else {}
        want = {"rank": str(rank), "pattern": words, "waited for": "rank %d" % cause}
        if args.wait_call:
            want["call"] = args.wait_call
        for k, v in want.items():
            if top.get(k) != v:
                fail("top call-site row: %s reads %r, want %r (row %s)" % (k, top.get(k), v, top))
        if not lo <= (seconds(top.get("seconds", "")) or -1) <= hi:
            fail("top call-site row: %r seconds, want %g..%g" % (top.get("seconds"), lo, hi))
        if args.wait_site_re and not re.search(args.wait_site_re, top.get("call site", "")):
            fail("top call-site row: call site %r does not match %r" % (top.get("call site"), args.wait_site_re))
        t = tables.get("waits-late", {"head": [], "rows": []})
        first = t["rows"][0] if t["rows"] else []
        if not first or first[0] != str(cause) or not lo <= (seconds(first[1]) or -1) <= hi:
            fail("late ranks: first row %r, want rank %d with %g..%g s" % (first, cause, lo, hi))
    if args.expect_path:
        lo, hi = (float(x) for x in args.expect_path.split(":"))
        got = seconds(dom.facts.get("length", ""))
        if got is None or not lo <= got <= hi:
            fail("critical path: length reads %r, want %g..%g s" % (dom.facts.get("length"), lo, hi))
        if dom.charts.get("chart-path", {"elements": 0})["elements"] < 4:
            fail("critical path: the chart per rank is (nearly) empty")
        if not tables.get("path-regions", {"rows": []})["rows"]:
            fail("critical path: no regions listed")
    if args.wait_tip_re and not re.search(args.wait_tip_re, dom.root.get("data-wait-tip", ""), re.M):
        fail("the tooltip of a waiting call reads %r, want %r" % (dom.root.get("data-wait-tip"), args.wait_tip_re))
    for spec in args.min_class:
        cls, _, n = spec.partition("=")
        if dom.classes.get(cls, 0) < int(n):
            fail("%d elements of class %r, want at least %s" % (dom.classes.get(cls, 0), cls, n))


def check_dom(args):
    dom = Dom()
    dom.feed(open(args.dom, encoding="utf-8").read())
    if "data-errors" in dom.root:
        fail("the script reported %s error(s)" % dom.root["data-errors"])
    if "data-drawn" not in dom.root:
        fail("the script did not finish (no data-drawn on <html>)")
    drawn = set(dom.root.get("data-drawn", "").split())
    for chart in args.charts.split(","):
        if chart not in drawn:
            fail("chart %r not drawn (drawn: %s)" % (chart, " ".join(sorted(drawn))))
    for cid, c in sorted(dom.charts.items()):
        if not c["hidden"] and c["elements"] == 0:
            fail("chart #%s is empty" % cid)
    for spec in args.min_elements:
        cid, _, n = spec.partition("=")
        got = dom.charts.get(cid, {"elements": 0})["elements"]
        if got < int(n):
            fail("chart #%s has %d elements, want at least %s" % (cid, got, n))
    if dom.forbidden:
        fail("elements that load or inject: %s" % ", ".join(dom.forbidden[:5]))
    if not dom.title.startswith("mpiscope report: "):
        fail("title changed: %r" % dom.title)
    if args.gpu and dom.sections.get("sec-gpu", True):
        fail("GPU section hidden for a run with cuda: regions")
    if args.no_gpu and not dom.sections.get("sec-gpu", True):
        fail("GPU section shown for a run without cuda: regions")
    if args.interacted:
        done = set(dom.root.get("data-interacted", "").split())
        for step in args.interacted.split(","):
            if step not in done:
                fail("interaction %r did not work (worked: %s; failed: %s)" %
                     (step, " ".join(sorted(done)) or "none", dom.root.get("data-interact-failed", "")))
    check_wait_dom(dom, args)
    check_sites.check_sites(dom, args, fail)
    names = [t for c, t in dom.cells if "name" in c.split()]
    if not names:
        fail("the region table is empty")
    for want in args.region_text:
        if want not in names:
            fail("no region cell reads %r" % want)
    if args.site_re:
        sites = [t for c, t in dom.cells if "site" in c.split()]
        if not any(re.search(args.site_re, s) for s in sites):
            fail("no call site matches %r (sites: %s)" % (args.site_re, sorted(set(sites))[:5]))
    print("dom: drawn %s; %d charts, %d region rows" % (" ".join(sorted(drawn)), len(dom.charts), len(names)))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data")
    d.add_argument("page")
    d.add_argument("--long-calls", type=int, default=0)
    d.add_argument("--waits", action="store_true", help="the wait-state data adds up")
    d.add_argument("--expect-wait", action="append", default=[])
    m = sub.add_parser("dom")
    m.add_argument("dom")
    m.add_argument("--charts", required=True)
    m.add_argument("--gpu", action="store_true")
    m.add_argument("--no-gpu", action="store_true")
    m.add_argument("--region-text", action="append", default=[])
    m.add_argument("--site-re")
    m.add_argument("--min-elements", action="append", default=[])
    m.add_argument("--interacted", help="steps of interact.js that must have worked")
    m.add_argument("--expect-wait", action="append", default=[])
    m.add_argument("--wait-call")
    m.add_argument("--wait-site-re")
    m.add_argument("--expect-path")
    m.add_argument("--min-class", action="append", default=[])
    m.add_argument("--waits-summary", action="store_true")
    m.add_argument("--wait-tip-re", help="the tooltip of a waiting call (interact.js)")
    m.add_argument("--sites-json", help="--json of the same run: the call-site tables agree with it")
    m.add_argument("--sites-csv", help="--sites-csv of the same run")
    m.add_argument("--sites-text", help="the text report of the same run")
    m.add_argument("--tool-region", action="append", default=[], help="a region of the tool its section shows")
    args = ap.parse_args()
    (check_data if args.cmd == "data" else check_dom)(args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
