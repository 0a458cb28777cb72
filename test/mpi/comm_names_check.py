#!/usr/bin/env python3
"""The communicators of comm_names/comm_names.c in the merge's reports
(comm_names.sh): comm_names_check.py DIR."""
import csv
import html
import json
import re
import sys
from html.parser import HTMLParser

HOSTILE = "\"q\" <b>bold</b> & 'x'"
LONG = ("std::vector<std::map<int, char>>" * 32)[:1000]


class CommsTable(HTMLParser):
    """The rows of the page's communicators table (id "comms"): per cell its
    text and title, as a browser reads them (entities decoded)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.depth, self.cell = [], 0, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id") == "comms":
            self.depth = 1
        elif self.depth and tag == "tbody":
            self.depth = 2
        elif self.depth == 2 and tag == "tr":
            self.rows.append([])
        elif self.depth == 2 and tag == "td":
            self.cell = [a.get("title"), ""]

    def handle_endtag(self, tag):
        if self.depth and tag == "table":
            self.depth = 0
        elif self.cell is not None and tag == "td":
            self.rows[-1].append(tuple(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data


def check_html_table(page, comms, problems):
    """The page's communicators table: a row per communicator with its
    label, size, how it was made and its call site; a cut name whole in the
    cell's title; names escaped in the markup."""
    table = CommsTable()
    table.feed(page)
    if "<h2>Communicators (9)</h2>" not in page or len(table.rows) != 9:
        problems.append(f"the HTML page's communicators table has {len(table.rows)} rows, not 9")
        return
    byid = {c["id"]: c for c in comms.values()}
    want = sorted((c["label"], str(c["size"]), c["call_site"] or "-") for c in byid.values())
    got = sorted((r[0][1], r[1][1], r[3][1]) for r in table.rows if len(r) == 4)
    if got != want:
        problems.append(f"HTML table rows {got}, expected {want}")
    made = sorted(r[2][1] for r in table.rows if len(r) == 4)
    want_made = sorted(["MPI_Init", "MPI_Init", "split of world", "split of world", "dup of world", "dup of world",
                        "cart of world", "dup of split#1 of world (2 ranks)", "dup of split#2 of world (2 ranks)"])
    if made != want_made:
        problems.append(f"HTML table's made by {made}, expected {want_made}")
    long_rows = [r for r in table.rows if r and r[0][1] == LONG[:61] + "..."]
    if len(long_rows) != 1 or long_rows[0][0][0] != LONG:
        problems.append("the HTML table does not give the long name whole in its title")
    escaped = html.escape(HOSTILE, quote=True).replace("&#x27;", "&#39;")
    if page.count(f">{escaped}</td>") != 2:
        problems.append(f"the HTML table lacks two cells with the escaped name {escaped!r}")


def main(d):
    problems = []
    text = open(f"{d}/report.txt", encoding="utf-8").read()
    page = open(f"{d}/report.html", encoding="utf-8").read()
    rep = json.load(open(f"{d}/report.json", encoding="utf-8"))
    comms = {c["id"]: c for c in rep["communicators"]}
    labels = sorted(c["label"] for c in comms.values())
    want = sorted(["world", "self", "split#1 of world (2 ranks)", "split#2 of world (2 ranks)", "dup#1 of world",
                   "cart 2\u00d72 of world", HOSTILE, HOSTILE, LONG[:61] + "..."])
    if labels != want:
        problems.append(f"JSON labels {labels}, expected {want}")
    names = sorted(c["name"] for c in comms.values() if c["name"] is not None)
    if names != sorted([HOSTILE, HOSTILE, LONG]):
        problems.append(f"JSON names not whole: {[n[:80] for n in names]}")
    for c in comms.values():
        if c["id"] > 1 and not (c["call_site"] or "").endswith(tuple(f"comm_names.c:{n}" for n in range(1, 60))):
            problems.append(f"{c['label']}: call site {c['call_site']}")
    cart = [c for c in comms.values() if c["made_by"] == "cart"]
    if len(cart) != 1 or cart[0]["dims"] != [2, 2] or cart[0]["parent"] != 0:
        problems.append(f"cart communicator: {cart}")
    section = text.split("\nCommunicators (9)\n", 1)
    if len(section) != 2:
        problems.append("no Communicators section of 9 in the text report")
    else:
        for lab in ["world", "self", "split#1 of world (2 ranks)", "split#2 of world (2 ranks)", "dup#1 of world",
                    "cart 2\u00d72 of world", HOSTILE, LONG[:61] + "..."]:
            if lab not in section[1].split("\n\n")[0]:
                problems.append(f"text section lacks {lab!r}")
    # Region names in the text (the drill-down of the top call sites) name
    # communicators by label only.
    labels = [c["label"] for c in comms.values()]
    shown = re.findall(r" comm=(.+?)(?:  | req=| tag=| peer=| root=| bytes=|$)", text, re.M)
    if not shown:
        problems.append("no region of the text report names a communicator")
    for s in shown:
        if not any(s.startswith(lab[:40]) for lab in labels):
            problems.append(f"text report names a communicator {s!r}, not a label")
    ids = [str(i) for i in comms if i > 1]
    for what, body in (("text", text), ("HTML", page)):
        found = [i for i in ids if i in body]
        if found:
            problems.append(f"communicator ids in the {what} report: {found}")
    if HOSTILE in page or "<b>bold</b>" in page:
        problems.append("the HTML page holds the name unescaped")
    if html.escape(HOSTILE, quote=False) not in page and "\\u003cb\\u003ebold" not in page:
        problems.append("the HTML page lacks the escaped name")
    check_html_table(page, comms, problems)
    rows = list(csv.DictReader(open(f"{d}/regions.csv", encoding="utf-8")))
    csv_ids = {m for r in rows for m in re.findall(r" comm=(\d+)", r[next(iter(r))])}
    if not set(ids) <= csv_ids | {str(c["id"]) for c in comms.values() if c["made_by"] is None}:
        missing = set(ids) - csv_ids
        if missing:
            problems.append(f"CSV lacks the ids {sorted(missing)}")
    for p in problems:
        print("comm_names:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
