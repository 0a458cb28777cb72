"""The wait states a planted-delay run must show (test/mpi/waits.sh).

    check.py CASE RANKS D_MS ITER WAITS_CSV JSON

The expectation comes from the planted sleeps of waits.c (and waits_f.f90):
E = ITER x D is what each waiting rank waits in all. For every (pattern,
rank) the case plants, the rows of that pattern and rank must sum to
between LOW x E and E + HIGH x E + SLACK (sleeps end late on a busy machine,
never early; reduce's root waits less, as the other ranks leave the
reduction before it does), and name the planted cause. Every other
(pattern, rank) must stay below a third of E. A balanced program's ranks
must wait little: BALANCED_PER_CALL per synchronizing call. The JSON must
carry the same rows, and a critical path whose length is at least the
planted delays of one rank. The persistent rooted collectives (bcast_init,
reduce_init) must show exactly ITER instances per planted (pattern, rank).
"""
import csv
import json
import os
import sys

SLACK = 0.05          # s
HIGH = 1.0            # in E
BALANCED_PER_CALL = {2: 0.005}   # s; ranks sharing cores wait for the scheduler
BALANCED_PER_CALL_SHARED = 0.040


def planted(case, n):
    """{(pattern, rank): (cause or None for any other rank, low)}"""
    pairs = [(r, r + 1) for r in range(0, n - 1, 2)]
    if case in ("late_sender", "late_sender_nb", "waitall", "anysource", "persistent"):
        return {("late_sender", a): (b, 0.7) for a, b in pairs}
    if case == "late_receiver":
        return {("late_receiver", a): (b, 0.7) for a, b in pairs}
    if case == "sendrecv":
        return {("late_sender", 0): (n - 1, 0.7)}
    if case == "barrier":
        return {("wait_at_barrier", r): (n - 1, 0.7) for r in range(n - 1)}
    if case == "nxn":
        return {("wait_at_nxn", r): (0, 0.7) for r in range(1, n)}
    if case == "bcast":
        return {("late_broadcast", r): (0, 0.7) for r in range(1, n)}
    if case == "reduce":
        return {("early_reduce", 0): (None, 0.2)}
    if case == "bcast_init":
        return {("late_broadcast", r): (n - 1, 0.7) for r in range(n - 1)}
    if case == "reduce_init":
        return {("early_reduce", n - 1): (None, 0.2)}
    if case == "subcomm":
        half = n // 2
        exp = {("wait_at_barrier", r): (half - 1, 0.7) for r in range(half - 1)}
        exp.update({("wait_at_barrier", r): (n - 1, 0.7) for r in range(half, n - 1)})
        return exp
    if case == "mix":
        exp = planted("late_sender", n)
        exp.update(planted("barrier", n))
        exp.update(planted("nxn", n))
        return exp
    if case == "balanced":
        return {}
    sys.exit(f"check.py: unknown case {case}")


def main():
    case, n, d, it, path_csv, path_json = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), \
        sys.argv[5], sys.argv[6]
    e = it * d / 1000.0
    rows = list(csv.DictReader(open(path_csv, newline="")))
    sums, causes = {}, {}
    for r in rows:
        k = (r["pattern"], int(r["rank"]))
        sums[k] = sums.get(k, 0.0) + float(r["wait_s"])
        causes.setdefault(k, {})
        c = int(r["cause_rank"])
        causes[k][c] = causes[k].get(c, 0.0) + float(r["wait_s"])
    bad = []
    exp = planted(case, n)
    # Persistent rooted collectives: each start that waited is one instance.
    if case in ("bcast_init", "reduce_init"):
        for k in exp:
            got = sum(int(r["instances"]) for r in rows if (r["pattern"], int(r["rank"])) == k)
            if got != it:
                bad.append(f"{k}: {got} instances, planted {it}")
    shared = n > (os.cpu_count() or 1)
    for k, (cause, low) in exp.items():
        got = sums.get(k, 0.0)
        high = e + (2 * HIGH if shared else HIGH) * e + SLACK
        if shared:
            low /= 2
        if not low * e <= got <= high:
            bad.append(f"{k}: waited {got:.4f} s, planted {e:.4f} s (from {low * e:.4f} to {high:.4f})")
            continue
        top = max(causes[k].items(), key=lambda kv: kv[1])[0]
        if cause is not None and top != cause:
            bad.append(f"{k}: caused by rank {top}, planted {cause}")
        if cause is None and top == k[1]:
            bad.append(f"{k}: caused by itself")
    if case == "balanced":
        per = BALANCED_PER_CALL.get(n, BALANCED_PER_CALL_SHARED) * 2 * it
        for r in range(n):
            got = sum(v for (p, rank), v in sums.items() if rank == r)
            if got > per:
                bad.append(f"balanced: rank {r} waited {got:.4f} s (at most {per:.4f})")
    else:
        for k, got in sums.items():
            if case == "sendrecv" and k[0] == "late_sender":
                top = max(causes[k].items(), key=lambda kv: kv[1])[0]
                if top != (k[1] + n - 1) % n:
                    bad.append(f"{k}: caused by rank {top}, not the left neighbour")
                continue
            if k not in exp and got > e / 3:
                bad.append(f"{k}: waited {got:.4f} s, nothing planted (at most {e / 3:.4f})")
    j = json.load(open(path_json))
    jrows = {(w["pattern"], w["rank"], w["region"]): w for w in j["wait_states"]}
    for r in rows:
        w = jrows.get((r["pattern"], int(r["rank"]), r["region"]))
        if not w or w["instances"] != int(r["instances"]) or abs(w["wait_s"] - float(r["wait_s"])) > 1e-9 or \
                w["cause_rank"] != int(r["cause_rank"]):
            bad.append(f"JSON wait_states lacks or differs for {r}")
    cp = j["critical_path"]
    if not cp or cp["length_s"] < (0.8 * e if exp else 0) or len(cp["ranks"]) != n:
        bad.append(f"critical path: {cp and cp['length_s']} s over {cp and len(cp['ranks'])} ranks")
    if bad:
        print("\n".join(bad))
        sys.exit(1)


if __name__ == "__main__":
    main()
