"""The critical path of threads.c (test/mpi/waits.sh, case threads).

    threads_check.py D_MS ITER JSON TEXT HTML

Rank 1's second thread slept E = ITER x D before its sends, which rank 0
waited for: the path must run through that thread (thread 1 of rank 1 in
the JSON's critical_path, a row "t1" under rank 1 in the text, the HTML's
table of the path per thread) with between LOW x E and E + HIGH x E +
SLACK of compute there (sleeps end late on a busy machine, never early),
and rank 1's first thread, which only started and joined it, must have
less than a third of D on the path.
"""
import json
import re
import sys

LOW, HIGH, SLACK = 0.95, 0.5, 0.05


def main():
    d_ms, it, jpath, tpath, hpath = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    e = it * d_ms / 1000.0
    path = json.load(open(jpath))["critical_path"]
    ranks = {r["rank"]: r for r in path["ranks"]}
    threads = {t["thread"]: t for t in ranks.get(1, {}).get("threads", [])}
    if 1 not in threads:
        sys.exit("the critical path has no time on rank 1's thread 1: %s" % json.dumps(ranks.get(1)))
    t1 = threads[1]["compute_s"]
    if not LOW * e <= t1 <= e + HIGH * e + SLACK:
        sys.exit("rank 1's thread 1 has %.3f s of compute on the path, planted %.3f s" % (t1, e))
    t0 = threads.get(0, {"compute_s": 0, "mpi_s": 0})
    if t0["compute_s"] + t0["mpi_s"] >= d_ms / 3000.0:
        sys.exit("rank 1's first thread has %.3f s on the path" % (t0["compute_s"] + t0["mpi_s"]))
    text = open(tpath).read()
    if not re.search(r"^ +1 .*\n(    t0 .*\n)?    t1 ", text, re.M):
        sys.exit("the text report has no row t1 under rank 1")
    if 'id="path-threads"' not in open(hpath).read():
        sys.exit("the HTML report has no table of the path per thread")


main()
