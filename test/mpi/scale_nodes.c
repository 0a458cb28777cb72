/*
 * 64 ranks (or any count that 8 divides) arranged as 8-rank "nodes", the
 * pattern of a hierarchical code at a rank count where logs, communicators
 * and region names are many: MPI_Comm_split into node communicators and a
 * communicator of node leaders, a node-local allreduce, a leaders' bcast
 * and allreduce, a ring exchange of the whole world with MPI_Sendrecv, an
 * MPI_Alltoall of one int, an MPI_Gather to rank 0 and a final barrier.
 */
#include <stdlib.h>

#include "mpitest.h"

enum { NODE = 8, ROUNDS = 5, TAG = 9 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int node_size = mt_size % NODE == 0 ? NODE : 1;
    MPI_Comm node, leaders;
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank / node_size, mt_rank, &node);
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank % node_size == 0 ? 0 : MPI_UNDEFINED, mt_rank, &leaders);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    long total = 0;
    for (int r = 0; r < ROUNDS; r++) {
        long mine = mt_rank + r, node_sum = 0, all = 0;
        MPI_Allreduce(&mine, &node_sum, 1, MPI_LONG, MPI_SUM, node);
        if (leaders != MPI_COMM_NULL) {
            MPI_Allreduce(&node_sum, &all, 1, MPI_LONG, MPI_SUM, leaders);
            MPI_Bcast(&all, 1, MPI_LONG, 0, leaders);
        }
        MPI_Bcast(&all, 1, MPI_LONG, 0, node);
        long n = mt_size;
        mt_check(all == n * (n - 1) / 2 + n * r, "round %d: sum %ld", r, all);
        int out[2] = {mt_rank, r}, in[2] = {-1, -1};
        MPI_Sendrecv(out, 2, MPI_INT, right, TAG, in, 2, MPI_INT, left, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_check(in[0] == left && in[1] == r, "round %d: ring got %d", r, in[0]);
        total += all;
    }
    int *send = malloc(sizeof(int) * (size_t)mt_size), *recv = malloc(sizeof(int) * (size_t)mt_size);
    for (int i = 0; i < mt_size; i++)
        send[i] = mt_rank * 1000 + i;
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < mt_size; i++)
        mt_check(recv[i] == i * 1000 + mt_rank, "alltoall from %d", i);
    int *all = mt_rank == 0 ? malloc(sizeof(int) * (size_t)mt_size) : NULL;
    MPI_Gather(&mt_rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        for (int i = 0; i < mt_size; i++)
            mt_check(all[i] == i, "gather %d", i);
    if (leaders != MPI_COMM_NULL)
        MPI_Comm_free(&leaders);
    MPI_Comm_free(&node);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("scale_nodes: %d ranks, %d per node, total %ld\n", mt_size, node_size, total);
    free(send);
    free(recv);
    free(all);
    return mt_finish();
}
