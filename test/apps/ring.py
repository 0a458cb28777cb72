"""A ring in mpi4py: each step passes 256 doubles to the right with a new
tag (comm.Sendrecv, tag = the step), then sums over all ranks a buffer
(comm.Allreduce) and a Python float (comm.allreduce, pickled). Rank 0
prints one line. Run by test/apps/run.sh under the launcher.
    mpirun -np N python3 ring.py STEPS"""
import array
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 50
right, left = (rank + 1) % size, (rank - 1) % size
out = array.array("d", [float(rank)] * 256)
inp = array.array("d", [0.0] * 256)
total = 0.0
for step in range(steps):
    comm.Sendrecv([out, MPI.DOUBLE], dest=right, sendtag=step,
                  recvbuf=[inp, MPI.DOUBLE], source=left, recvtag=step)
    out, inp = inp, out
    acc = array.array("d", [out[0]])
    comm.Allreduce(MPI.IN_PLACE, [acc, MPI.DOUBLE], op=MPI.SUM)
    total += comm.allreduce(float(step), op=MPI.SUM)
if rank == 0:
    print("ring: %d steps on %d ranks, sum %.1f" % (steps, size, total))
