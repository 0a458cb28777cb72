"""Expected regions of p2p_pingpong.c."""

import mpiexpect as m

# (bytes per message, tag, repetitions), as in the program's rounds[].
ROUNDS = [(1 * m.CHAR, 1, 5), (100 * m.INT, 2, 3), (512 * m.DOUBLE, 3, 2), (20000 * m.DOUBLE, 4, 2)]


def expect(rank, size):
    calls = []
    partner = rank ^ 1
    if partner < size:
        for nbytes, tag, reps in ROUNDS:
            calls += [m.send(nbytes, partner, tag), m.recv(nbytes, partner, tag)] * reps
    calls.append(m.barrier())
    return calls


if __name__ == "__main__":
    m.main(expect)
