#!/usr/bin/env python3
"""Checks of an mpiscope HTML report (test/html/run.sh).

    check_page.py data PAGE.html [--long-calls N]
        the page as written: self-contained (no src/href, no <link>), its
        data block is valid JSON that no log string ends early, the
        timeline keeps at most `cap` calls per rank, and with --long-calls
        (a rank with that many calls of durations 1..N ns among calls of at
        least 1 us) that it kept the longest ones.

    check_page.py dom DOM.html --charts ID,ID,... [--gpu|--no-gpu]
                  [--region-text TEXT] [--site-re REGEX] [--min-elements ID=N ...]
                  [--interacted STEP,...]
        the page after the browser ran its script (chromium --dump-dom): no
        script error (data-errors), every expected chart drawn (data-drawn)
        and not empty, every chart of a shown section not empty, nothing
        injected (no element with src/href, no img/iframe/object/link);
        with --interacted, the steps of test/html/interact.js that worked.

Prints one line per failure and exits 1 when any check failed.
"""
import argparse
import html.parser
import json
import re
import sys

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

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.root = a
        if tag in FORBIDDEN:
            self.forbidden.append(tag)
        for k in ("src", "href"):
            if k in a:
                self.forbidden.append("%s %s=%r" % (tag, k, a[k]))
        hidden = bool(self.stack and self.stack[-1][2]) or (tag == "section" and "hidden" in a)
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

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            t = self.stack.pop()[0]
            if t == tag:
                break
        if tag == "td" and self.cell is not None:
            self.cells.append(tuple(self.cell))
            self.cell = None
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
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
    for key in ("run", "ranks", "regions", "ops", "sizes", "imbalance", "matrix", "gpu", "timeline"):
        if key not in data:
            fail("data has no %r" % key)
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
    print("data: %d regions, %d timeline lanes, %d calls kept" %
          (len(data.get("regions", [])), len(tl.get("lanes", [])),
           sum(len(lane["ev"]) // 3 for lane in tl.get("lanes", []))))


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
    m = sub.add_parser("dom")
    m.add_argument("dom")
    m.add_argument("--charts", required=True)
    m.add_argument("--gpu", action="store_true")
    m.add_argument("--no-gpu", action="store_true")
    m.add_argument("--region-text", action="append", default=[])
    m.add_argument("--site-re")
    m.add_argument("--min-elements", action="append", default=[])
    m.add_argument("--interacted", help="steps of interact.js that must have worked")
    args = ap.parse_args()
    (check_data if args.cmd == "data" else check_dom)(args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
