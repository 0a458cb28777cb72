#!/usr/bin/env python3
"""The house rules of the source tree (docs/DESIGN.md section 7), checked.

  house.py [--root DIR] [--objects DIR]...   exit 0 when every rule holds, 1 otherwise

1. Folder order: a file includes only headers of its own folder and of the
   folders below it (FLOORS). common/ is below everything; preload/ is the
   recording core, below the collectors; no collector includes another;
   analysis/ never includes preload/ or a collector; the merge's wings
   stand read < symbolize < reduce < report < merge, and waits (the
   wait-state analysis, on plain facts) below reduce.
2. No circle between rooms. A room is a source file with its header
   (x.c and x.h of one folder). Room A uses room B when a file of A
   includes a header of B or, given --objects, when an object of A refers
   to a symbol an object of B defines (nm). Rooms that use each other in a
   loop are a circle.
3. No hand-written C file over MAX_LINES lines.
4. No list of MPI op names in the merge or common/ (OP_LIST_FOLDERS): a
   string literal that is the op name of a row of pmpi/calls.tbl ("isend",
   "waitall") is an op list of one, and the start of a matcher that a new
   row of the table silently escapes. What a call means is asked of the
   table its class column generates (common/op_class.h); the generated
   code is in the build, outside these folders. Comments do not count.
5. Every source folder is known: a folder holding .c or .h files, outside
   the places that are not the house (OUTSIDE: tests, benchmarks, probes,
   examples, the public header, builds), is a key of FLOORS. A new folder
   gets its floor there, or it is not checked at all.
6. The core and the merge name no collector (COLLECTOR_FREE): a
   collector is a folder (anywhere in the tree, tests included) with a
   line that starts MS_COLLECTOR_REGISTER( or MS_SETTINGS_REGISTER(
   (preload/ defines them); its name is the folder's. The name must not
   appear in the code of preload/ or analysis/, as an identifier or in
   one (MS_WARN_CUPTI, ms_cfg.likwid) or as a word of a string literal
   ("Hardware counters (LIKWID"), in any case; a collector's settings,
   warnings and the names its records carry are its own. Comments do not
   count: they may say where things are.

Tests, benchmarks and probes are outside the house: they may include what
they test, and are not counted. Generated code (the build's gen/) is
counted in the calls between rooms.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 800

# Each folder of the house and the folders it may include from (besides
# its own). include/ is the public API header, open to all.
FLOORS = {
    "common": [],
    "preload": ["common"],
    "pmpi": ["preload", "common"],
    "cupti": ["preload", "common"],
    "likwid": ["preload", "common"],
    "api": [],
    "analysis/read": ["common"],
    "analysis/symbolize": ["analysis/read", "common"],
    "analysis/waits": ["common"],
    "analysis/reduce": ["analysis/waits", "analysis/symbolize", "analysis/read", "common"],
    "analysis/report": ["analysis/reduce", "analysis/waits", "analysis/symbolize", "analysis/read", "common"],
    "analysis/report/html": ["analysis/report", "analysis/reduce", "analysis/waits", "analysis/read", "common"],
    "analysis/report/otf2": ["analysis/report", "analysis/reduce", "analysis/waits", "analysis/read", "common"],
    "analysis/merge": ["analysis/report", "analysis/report/html", "analysis/report/otf2", "analysis/reduce",
                       "analysis/waits", "analysis/symbolize", "analysis/read", "common"],
}
OPEN_TO_ALL = ["include"]
# Top-level folders that are not the house (rule 5), and hidden ones.
OUTSIDE = ["test", "bench", "config", "examples", "include", "build", "shared"]
# Rule 6's folders.
COLLECTOR_FREE = ["preload", "analysis"]
REGISTERS = re.compile(r"^(MS_COLLECTOR_REGISTER|MS_SETTINGS_REGISTER)\(", re.M)
# Generated headers (in the build's gen/ folder), by the folder they belong to.
GENERATED = {"pmpi_ops.h": "pmpi", "pmpi_next.h": "pmpi", "report_html_assets.h": "analysis/report/html"}

# Rule 4's folders, and the files it leaves for now.
OP_LIST_FOLDERS = ["analysis", "common"]
OP_LIST_EXCEPTIONS = [
    # OTF2's names of collective operations (OTF2_COLLECTIVE_OP_*), one per
    # MPI function: the format's vocabulary, not what a call means.
    "analysis/report/otf2/report_otf2_defs.c",
]
# C's comments, character constants and string literals, left to right
# (group 1: a string's text).
C_TOKENS = re.compile(r"/\*.*?\*/|//[^\n]*|'(?:[^'\\\n]|\\.)*'|\"((?:[^\"\\\n]|\\.)*)\"", re.S)

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def house_files():
    out = []
    for folder in FLOORS:
        d = os.path.join(ROOT, folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith((".c", ".h")) and os.path.isfile(os.path.join(d, name)):
                out.append(folder + "/" + name)
    return out


def room(path):
    return os.path.splitext(path)[0]


def check_includes(files, problems, uses):
    for f in files:
        folder = os.path.dirname(f)
        text = open(os.path.join(ROOT, f), encoding="utf-8").read()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            target = os.path.normpath(os.path.join(folder, name))
            if not os.path.exists(os.path.join(ROOT, target)):
                if name in GENERATED:
                    target = GENERATED[name] + "/" + name
                elif os.path.exists(os.path.join(ROOT, "include", name)):
                    target = "include/" + name
                else:
                    problems.append("%s:%d: \"%s\" is not a file beside it, nor a generated or public header"
                                    % (f, line, name))
                    continue
            tfolder = os.path.dirname(target)
            if tfolder != folder and tfolder not in FLOORS.get(folder, []) and tfolder not in OPEN_TO_ALL:
                problems.append("%s:%d: includes %s: %s/ may include only %s" % (
                    f, line, target, folder, ", ".join(x + "/" for x in [folder] + FLOORS[folder] + OPEN_TO_ALL)))
            if room(target) != room(f) and target.split("/")[0] not in OPEN_TO_ALL and name not in GENERATED:
                uses.setdefault(room(f), {})[room(target)] = "includes " + target


def object_rooms(objdir):
    """{room: object path} for the house's objects under objdir."""
    found = {}
    for base, _, names in os.walk(objdir):
        for n in names:
            if not n.endswith(".o"):
                continue
            rel = os.path.relpath(os.path.join(base, n), objdir)
            src = rel[:-2]
            # Generated code (gen/: its source is in the build) takes part in
            # calls as rooms of its own; objects of sources that are gone
            # (an old build) and of tests do not.
            if src.split("/")[0] != "gen" and (src.split("/")[0] in ("test", "merge") or
                                                not os.path.exists(os.path.join(ROOT, src + ".c"))):
                continue
            found[src] = os.path.join(base, n)
    return found


def nm(path, defined):
    flags = ["--defined-only"] if defined else ["--undefined-only"]
    out = subprocess.run(["nm", "-P"] + flags + [path], capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and (not defined or parts[1] in "TDBRVWtdbr" and not parts[0].startswith(".")):
            if defined and parts[1].islower():
                continue
            syms.add(parts[0])
    return syms


def check_symbols(objdirs, uses):
    for objdir in objdirs:
        rooms = object_rooms(objdir)
        defined = {}
        for r, o in rooms.items():
            for s in nm(o, True):
                defined.setdefault(s, r)
        for r, o in rooms.items():
            for s in nm(o, False):
                d = defined.get(s)
                if d and d != r:
                    uses.setdefault(r, {}).setdefault(d, "calls " + s)


def circles(uses):
    """Strongly connected components of more than one room (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in uses.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(uses):
        if v not in index:
            visit(v)
    return out


def op_names(root):
    """The op names of pmpi/calls.tbl's rows ("isend"); empty without it."""
    path = os.path.join(root, "pmpi", "calls.tbl")
    names = set()
    if not os.path.exists(path):
        return names
    for line in open(path, encoding="utf-8"):
        cells = line.split("#", 1)[0].split("|")
        if len(cells) > 2 and cells[1].strip().startswith("MPI_"):
            names.add(cells[1].strip()[len("MPI_"):].lower())
    return names


def check_op_lists(problems):
    names = op_names(ROOT)
    for folder in OP_LIST_FOLDERS:
        for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs.sort()
            for n in sorted(files):
                f = os.path.relpath(os.path.join(base, n), ROOT)
                if not n.endswith((".c", ".h")) or any(f.startswith(x) for x in OP_LIST_EXCEPTIONS):
                    continue
                text = open(os.path.join(ROOT, f), encoding="utf-8").read()
                found = [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in C_TOKENS.finditer(text)
                         if m.group(1) in names]
                if found:
                    problems.append("%s:%d: names MPI ops (%s): ask common/op_class.h, the table pmpi/calls.tbl's "
                                    "class column generates" % (f, found[0][0], ", ".join(sorted({o for _, o in found}))))


def source_folders():
    """Every folder of the tree holding .c or .h files, but the hidden and
    build ones, as paths from ROOT."""
    out = []
    for base, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(base, ROOT)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (rel == "." and d.startswith("build")))
        if rel != "." and any(n.endswith((".c", ".h")) for n in files):
            out.append(rel.replace(os.sep, "/"))
    return out


def check_known_folders(folders, problems):
    for f in folders:
        if f.split("/")[0] in OUTSIDE or f in FLOORS:
            continue
        problems.append("%s/: a source folder the house does not know: give it its floor in scripts/house.py's "
                        "FLOORS" % f)


def collectors(folders):
    """The names of the folders that register a collector or its settings."""
    names = set()
    for f in folders:
        if f == "preload":
            continue
        d = os.path.join(ROOT, f)
        for n in sorted(os.listdir(d)):
            if n.endswith((".c", ".h")) and REGISTERS.search(open(os.path.join(d, n), encoding="utf-8").read()):
                names.add(os.path.basename(f))
                break
    return sorted(names)


def code_of(text):
    """text with its comments blanked (lines kept), strings and all else left."""
    def blank(m):
        t = m.group(0)
        return re.sub(r"[^\n]", " ", t) if t.startswith("/") else t
    return C_TOKENS.sub(blank, text)


def check_collector_names(folders, problems):
    names = collectors(folders)
    if not names:
        return
    word = re.compile(r"(?<![A-Za-z0-9])(%s)(?![A-Za-z0-9])" % "|".join(re.escape(n) for n in names), re.I)
    for folder in COLLECTOR_FREE:
        for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs.sort()
            for n in sorted(files):
                if not n.endswith((".c", ".h")):
                    continue
                f = os.path.relpath(os.path.join(base, n), ROOT).replace(os.sep, "/")
                code = code_of(open(os.path.join(ROOT, f), encoding="utf-8").read())
                m = word.search(code)
                if m:
                    problems.append("%s:%d: names the collector %s: a collector's settings, warnings and report "
                                    "text are its own (collector.h)" % (f, code.count("\n", 0, m.start()) + 1,
                                                                         m.group(1).lower()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--objects", action="append", default=[],
                    help="a build's object folder (e.g. build/obj/core): also check calls between rooms")
    ap.add_argument("--root", help="the tree to check (default: this repository)")
    args = ap.parse_args()
    global ROOT
    if args.root:
        ROOT = os.path.abspath(args.root)
    problems, uses = [], {}
    files = house_files()
    check_includes(files, problems, uses)
    check_symbols(args.objects, uses)
    check_op_lists(problems)
    folders = source_folders()
    check_known_folders(folders, problems)
    check_collector_names(folders, problems)
    for comp in circles(uses):
        how = []
        for a in comp:
            for b, why in sorted(uses.get(a, {}).items()):
                if b in comp:
                    how.append("%s %s" % (a, why))
        problems.append("circle: %s (%s)" % (" <-> ".join(comp), "; ".join(how)))
    for f in files:
        if f.endswith(".c"):
            n = sum(1 for _ in open(os.path.join(ROOT, f), encoding="utf-8"))
            if n > MAX_LINES:
                problems.append("%s: %d lines (at most %d)" % (f, n, MAX_LINES))
    for p in problems:
        print("house: " + p)
    rooms = {room(f) for f in files}
    print("house: %d files in %d rooms on %d floors, %d problems" % (len(files), len(rooms), len(FLOORS), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
