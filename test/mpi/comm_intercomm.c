/*
 * Intercommunicators (2 ranks or more): MPI_COMM_WORLD split into a low and
 * a high half (half:0, half:1), joined by MPI_Intercomm_create twice
 * (inter, inter2: two different communicators between the same groups).
 * On inter: MPI_Barrier, a message from each low rank to the high rank of
 * the same local rank (peers are ranks of the remote group), MPI_Bcast from
 * low rank 0 (MPI_ROOT / MPI_PROC_NULL in the low half), MPI_Allreduce and
 * MPI_Alltoall (bytes scale with the remote group). Then MPI_Comm_dup of
 * inter (interdup), MPI_Intercomm_merge with the high half last (merged)
 * and a ring MPI_Sendrecv on it, and MPI_Comm_free of all.
 */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank, half = n / 2;
    const int high = me >= half;
    long sum = 0;
    if (n < 2) {
        fprintf(stderr, "comm_intercomm needs 2 ranks or more\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    MPI_Comm local, inter, inter2, interdup, merged;
    MPI_Comm_split(MPI_COMM_WORLD, high, me, &local);
    int lr, ls, rs;
    MPI_Comm_rank(local, &lr);
    MPI_Comm_size(local, &ls);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, high ? 0 : half, 9, &inter);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, high ? 0 : half, 10, &inter2);
    MPI_Comm_remote_size(inter, &rs);
    mt_check(rs == (high ? half : n - half), "remote size %d", rs);

    MPI_Barrier(inter);
    double v = me;
    if (!high && lr < rs) {
        MPI_Send(&v, 1, MPI_DOUBLE, lr, 4, inter);
    } else if (high && lr < rs) {
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_DOUBLE, lr, 4, inter, &st);
        mt_check(v == lr && st.MPI_SOURCE == lr, "intercomm message %g from %d", v, st.MPI_SOURCE);
        sum += (long)v;
    }
    int three[3] = {0, 0, 0};
    if (!high) {
        if (lr == 0) {
            three[0] = 5;
            three[1] = 6;
            three[2] = 7;
        }
        MPI_Bcast(three, 3, MPI_INT, lr == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    } else {
        MPI_Bcast(three, 3, MPI_INT, 0, inter);
        mt_check(three[2] == 7, "intercomm bcast %d", three[2]);
    }
    int one = 1, other = 0;
    MPI_Allreduce(&one, &other, 1, MPI_INT, MPI_SUM, inter);
    mt_check(other == rs, "intercomm allreduce %d, remote size %d", other, rs);
    int out[16], in[16];
    for (int j = 0; j < 2 * rs; j++)
        out[j] = 100 * me + j;
    MPI_Alltoall(out, 2, MPI_INT, in, 2, MPI_INT, inter);
    const int first_remote = high ? 0 : half;
    for (int j = 0; j < rs; j++)
        mt_check(in[2 * j] == 100 * (first_remote + j) + 2 * lr, "intercomm alltoall from %d: %d", j, in[2 * j]);
    MPI_Barrier(inter2);

    MPI_Comm_dup(inter, &interdup);
    MPI_Barrier(interdup);

    MPI_Intercomm_merge(inter, high, &merged);
    int mr, ms;
    MPI_Comm_rank(merged, &mr);
    MPI_Comm_size(merged, &ms);
    mt_check(mr == me && ms == n, "merged rank %d of %d", mr, ms);
    int token = me, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, (mr + 1) % ms, 8, &got, 1, MPI_INT, (mr + ms - 1) % ms, 8, merged,
                 MPI_STATUS_IGNORE);
    mt_check(got == (me + n - 1) % n, "merged ring %d", got);
    sum += got;

    MPI_Comm_free(&interdup);
    MPI_Comm_free(&inter2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&local);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("comm_intercomm: ranks=%d checksum=%ld\n", n, all);
    return mt_finish();
}
