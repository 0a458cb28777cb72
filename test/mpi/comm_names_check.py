#!/usr/bin/env python3
"""The communicators of comm_names/comm_names.c in the merge's reports
(comm_names.sh): comm_names_check.py DIR."""
import csv
import html
import json
import re
import sys

HOSTILE = "\"q\" <b>bold</b> & 'x'"
LONG = ("std::vector<std::map<int, char>>" * 32)[:1000]


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
