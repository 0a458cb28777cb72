/*
 * Blocking ping-pong between rank pairs (0,1), (2,3), ... with several sizes,
 * datatypes and tags, from one byte to past the rendezvous threshold. A rank
 * without a partner (the last one of an odd count, or a single rank) only
 * joins the final barrier.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

struct round {
    int count;
    MPI_Datatype type;
    int elem; /* bytes of one element, to size the buffer */
    int tag;
    int reps;
};

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const struct round rounds[] = {
        {1, MPI_CHAR, 1, 1, 5},
        {100, MPI_INT, 4, 2, 3},
        {512, MPI_DOUBLE, 8, 3, 2},
        {20000, MPI_DOUBLE, 8, 4, 2},
    };
    const int partner = mt_rank ^ 1;
    const int first = mt_rank % 2 == 0; /* sends first */
    long long total = 0;

    if (partner < mt_size) {
        unsigned char *out = malloc(20000 * 8), *in = malloc(20000 * 8);
        for (size_t r = 0; r < sizeof rounds / sizeof rounds[0]; r++) {
            const struct round *ro = &rounds[r];
            const size_t n = (size_t)ro->count * (size_t)ro->elem;
            for (int rep = 0; rep < ro->reps; rep++) {
                for (size_t i = 0; i < n; i++)
                    out[i] = (unsigned char)(i * 7 + (size_t)rep + (size_t)mt_rank);
                MPI_Status st;
                if (first) {
                    MPI_Send(out, ro->count, ro->type, partner, ro->tag, MPI_COMM_WORLD);
                    MPI_Recv(in, ro->count, ro->type, partner, ro->tag, MPI_COMM_WORLD, &st);
                } else {
                    MPI_Recv(in, ro->count, ro->type, partner, ro->tag, MPI_COMM_WORLD, &st);
                    MPI_Send(out, ro->count, ro->type, partner, ro->tag, MPI_COMM_WORLD);
                }
                mt_check_status(&st, ro->type, partner, ro->tag, ro->count);
                int bad = 0;
                for (size_t i = 0; i < n; i++)
                    bad += in[i] != (unsigned char)(i * 7 + (size_t)rep + (size_t)partner);
                mt_check(bad == 0, "round %zu rep %d: %d bytes differ", r, rep, bad);
                total += (long long)n;
            }
        }
        free(out);
        free(in);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_pingpong: ranks=%d pairs=%d bytes_received_by_rank0=%lld\n", mt_size, mt_size / 2, total);
    return mt_finish();
}
