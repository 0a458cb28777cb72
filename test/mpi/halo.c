/*
 * Halo exchange on a periodic ring, the pattern of examples/halo.c at a size
 * that is quick to check: parameters by MPI_Bcast, each step 3 ghost cells to
 * each neighbour (MPI_Irecv, MPI_Isend, one MPI_Waitall), a residual
 * MPI_Allreduce every 5 steps, an MPI_Reduce of the checksum and a barrier.
 */
#include <math.h>
#include <stdlib.h>

#include "mpitest.h"

enum { GHOST = 3, TAG_TO_RIGHT = 1, TAG_TO_LEFT = 2 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    double par[4] = {0};
    if (mt_rank == 0) {
        par[0] = 0.1; /* diffusion number */
        par[1] = 64;  /* cells per rank */
        par[2] = 30;  /* steps */
        par[3] = 5;   /* residual every 5 steps */
    }
    MPI_Bcast(par, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    const double alpha = par[0];
    const int n = (int)par[1], steps = (int)par[2], every = (int)par[3];

    /* u[0..GHOST-1] and u[GHOST+n..] are ghost cells. */
    double *u = calloc((size_t)n + 2 * GHOST, sizeof *u), *v = calloc((size_t)n + 2 * GHOST, sizeof *v);
    for (int i = 0; i < n; i++)
        u[GHOST + i] = (mt_rank * n + i) % 7 == 0 ? 1.0 : 0.0;
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    double residual = 0.0;
    for (int step = 1; step <= steps; step++) {
        MPI_Request req[4];
        MPI_Irecv(&u[0], GHOST, MPI_DOUBLE, left, TAG_TO_RIGHT, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[GHOST + n], GHOST, MPI_DOUBLE, right, TAG_TO_LEFT, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&u[n], GHOST, MPI_DOUBLE, right, TAG_TO_RIGHT, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&u[GHOST], GHOST, MPI_DOUBLE, left, TAG_TO_LEFT, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        double local = 0.0;
        for (int i = GHOST; i < GHOST + n; i++) {
            /* A wide stencil so that all ghost cells are used. */
            v[i] = u[i] + alpha * (u[i - 3] + u[i - 2] + u[i - 1] - 6.0 * u[i] + u[i + 1] + u[i + 2] + u[i + 3]);
            local += (v[i] - u[i]) * (v[i] - u[i]);
        }
        double *t = u;
        u = v;
        v = t;
        if (step % every == 0) {
            MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            residual = sqrt(residual);
        }
    }
    double mine[2] = {0.0, 0.0}, sum[2] = {0.0, 0.0};
    for (int i = 0; i < n; i++) {
        mine[0] += u[GHOST + i];
        mine[1] += u[GHOST + i] * ((mt_rank * n + i) % 10);
    }
    MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        /* Heat is conserved on the ring: one unit per 7th cell. */
        const long cells = (long)n * mt_size;
        mt_check(fabs(sum[0] - (double)((cells + 6) / 7)) < 1e-9, "heat %.12g", sum[0]);
        printf("halo: ranks=%d steps=%d residual=%.9e heat=%.9e moment=%.9e\n", mt_size, steps, residual, sum[0],
               sum[1]);
    }
    free(u);
    free(v);
    return mt_finish();
}
