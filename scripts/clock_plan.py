#!/usr/bin/env python3
"""The clock synchronization's plan at a given scale, simulated: the messages
of the exchange at MPI_Init (the same again at MPI_Finalize) as
pmpi/clock_sync.c makes them, and those of the exchange before the tree.

usage: clock_plan.py [--ranks 1000,10000,100000] [--per-host 1,128]
                     [--exchanges 16] [--rtt-us 3]

Ranks are grouped into hosts of --per-host consecutive ranks; the lowest
rank of each host is its leader; leader i's parent is i with its lowest set
bit cleared (a binomial tree rooted at rank 0). Each leader but the root
makes --exchanges round trips (a ping and a reply each) with its parent; the
other ranks of a host send nothing at MPI_Init (at MPI_Finalize they get one
release message from their leader, as each served leader from its parent).
Printed per case, as a Markdown table: hosts, the tree's depth, the round
trips rank 0 answers, the most any leader answers, the messages in all, and
the longest chain of round trips one after the other (a leader serves its
children one at a time, then measures against its parent), with that chain's
time at --rtt-us a round trip; then the same for the exchange before the
tree (every rank against rank 0, served one at a time).
"""

import argparse
import sys


def num_list(s):
    return [int(float(x)) for x in s.split(",") if x]


def children(i, n):
    """Leader i's children in the binomial tree of n leaders."""
    out, bit = [], 1
    while i + bit < n and (i == 0 or bit < (i & -i)):
        out.append(i + bit)
        bit <<= 1
    return out


def plan(ranks, per_host, exchanges):
    hosts = (ranks + per_host - 1) // per_host
    # Finish time (in round trips) of each leader's subtree: it serves its
    # children one after the other, each once that child's own subtree has
    # finished, then measures against its parent.
    done = [0] * hosts
    depth = [0] * hosts
    most = 0
    for i in range(hosts - 1, -1, -1):
        t = 0
        kids = children(i, hosts)
        most = max(most, len(kids) * exchanges)
        for c in sorted(kids, key=lambda c: done[c]):
            t = max(t, done[c]) + exchanges
            depth[i] = max(depth[i], depth[c] + 1)
        done[i] = t
    return {
        "hosts": hosts,
        "depth": depth[0],
        "root": len(children(0, hosts)) * exchanges,
        "most": most,
        "messages": 2 * exchanges * (hosts - 1),
        "chain": done[0],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=num_list, default=[1000, 10000, 100000])
    ap.add_argument("--per-host", type=num_list, default=[1, 128])
    ap.add_argument("--exchanges", type=int, default=16)
    ap.add_argument("--rtt-us", type=float, default=3.0)
    a = ap.parse_args()
    print("| ranks | ranks per host | hosts | tree depth | round trips at rank 0 | most at one leader "
          "| messages in all | longest chain (round trips) | its time | before the tree: at rank 0 (= chain) "
          "| its time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in a.ranks:
        for k in a.per_host:
            p = plan(n, k, a.exchanges)
            old = a.exchanges * (n - 1)
            print(f"| {n:,} | {k} | {p['hosts']:,} | {p['depth']} | {p['root']:,} | {p['most']:,} "
                  f"| {p['messages']:,} | {p['chain']:,} | {p['chain'] * a.rtt_us / 1000:.2f} ms "
                  f"| {old:,} | {old * a.rtt_us / 1e6:.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
