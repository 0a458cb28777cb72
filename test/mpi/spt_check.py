"""Check the scope-profiler native traces of mpiscope-merge --spt with
scope-profiler's own readers:

  python spt_check.py SPT_DIR PROFILE.H5 RANKS.CSV REPORT.JSON NRANKS

- read_trace (the .spt reader) on every rank's file: the rank, every
  region of RANKS.CSV with exactly its calls on that rank, start <= end,
  starts in order, and the source of each region with a call site (JSON
  source_file, source_lineno) carried as source_file / source_lineno;
- read_h5 on the profile `scope-profiler import-native` wrote: the same
  regions, ranks and calls.
Exit 0 when all hold; else the failures on stdout and exit 1.
"""

import csv
import json
import pathlib
import sys

from scope_profiler import read_h5
from scope_profiler.native_trace import read_trace


def main():
    spt_dir, h5, ranks_csv, report, nranks = sys.argv[1:6]
    nranks = int(nranks)
    want = {}
    for row in csv.DictReader(open(ranks_csv, newline="")):
        want.setdefault(row["name"], {})[int(row["rank"])] = int(row["calls"])
    sources = {}
    for r in json.load(open(report))["regions"]:
        if r.get("has_source") and r.get("source_file"):
            sources[r["name"]] = (r["source_file"], int(r["source_lineno"]))
    errors = []

    files = sorted(pathlib.Path(spt_dir).glob("*.spt"))
    if len(files) != nranks:
        errors.append(f"{len(files)} .spt files, expected {nranks}")
    got = {}
    for path in files:
        rank, regions = read_trace(path)
        if path.name != f"mpiscope_rank{rank:05d}.spt":
            errors.append(f"{path.name} holds rank {rank}")
        for name, trace in regions.items():
            starts, ends = trace
            got.setdefault(name, {})[rank] = len(starts)
            if len(starts) != len(ends) or (ends < starts).any() or (starts[1:] < starts[:-1]).any():
                errors.append(f"rank {rank} {name}: starts and ends out of order")
            if name in sources and (trace.source_file, trace.source_lineno) != sources[name]:
                errors.append(f"rank {rank} {name}: source {trace.source_file}:{trace.source_lineno}, "
                              f"expected {sources[name][0]}:{sources[name][1]}")
    if got != want:
        for name in sorted(set(got) | set(want)):
            if got.get(name) != want.get(name):
                errors.append(f"{name}: calls per rank {got.get(name)} in the traces, {want.get(name)} in the CSV")

    results = read_h5(h5)
    imported = {reg.name: {int(r): len(d.start_times_ns) for r, d in reg.regions.items()}
                for reg in results.get_regions()}
    if imported != want:
        errors.append(f"the imported profile differs: {sorted(set(imported) ^ set(want))[:5]} "
                      f"or counts differ")
    if not sources:
        errors.append("no region has a source in the JSON report")
    for e in errors[:50]:
        print(e)
    if not errors:
        print(f"ok: {len(want)} regions, {sum(sum(v.values()) for v in want.values())} calls, "
              f"{len(sources)} with a source")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
