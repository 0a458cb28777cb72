/*
 * halo: explicit 1-D heat equation on a periodic ring, split into one block of
 * cells per rank. The example program of the README and `make demo`.
 *
 * Each step exchanges one ghost cell with each neighbour (MPI_Isend/MPI_Irecv
 * and MPI_Waitall); every `check` steps the ranks agree on the residual with
 * MPI_Allreduce. Rank 0 chooses the parameters and sends them with MPI_Bcast;
 * at the end MPI_Reduce gathers a checksum and rank 0 prints it after an
 * MPI_Barrier. The output depends only on the number of ranks, so runs with
 * and without a profiler can be compared byte for byte.
 *
 * The load is planted out of balance: the last rank's cells are "hard", and
 * it pauses `pause_us` microseconds in every step (default 2000) before its
 * sweep, so its neighbours wait for its ghost cells and everyone waits for
 * it in MPI_Allreduce; the wait-state analysis of the report names it. The
 * pause sleeps, so it leaves the core to ranks that share it.
 *
 *   mpiexec.mpich -n 4 ./halo [cells_per_rank [steps [pause_us]]]
 */
#define _DEFAULT_SOURCE   /* usleep */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { TAG_TO_LEFT = 1, TAG_TO_RIGHT = 2 };

struct params {
    double alpha; /* diffusion number, <= 0.5 for stability */
    int cells;    /* cells per rank */
    int steps;
    int check;    /* residual every `check` steps */
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Parameters travel as doubles so that one MPI_Bcast carries them all. */
    double p[5] = {0};
    if (rank == 0) {
        p[0] = 0.25;
        p[1] = argc > 1 ? atoi(argv[1]) : 2000;
        p[2] = argc > 2 ? atoi(argv[2]) : 200;
        p[3] = 10;
        p[4] = argc > 3 ? atoi(argv[3]) : 2000;
    }
    MPI_Bcast(p, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    const struct params par = {p[0], (int)p[1], (int)p[2], (int)p[3]};
    const useconds_t pause_us = rank == size - 1 && p[4] > 0 ? (useconds_t)p[4] : 0;
    if (par.cells < 1 || par.steps < 1) {
        if (rank == 0)
            fprintf(stderr, "halo: cells per rank and steps must be positive\n");
        MPI_Finalize();
        return 2;
    }

    /* u[0] and u[cells+1] are the ghost cells. */
    const int n = par.cells;
    double *u = calloc((size_t)n + 2, sizeof *u);
    double *v = calloc((size_t)n + 2, sizeof *v);
    if (!u || !v) {
        fprintf(stderr, "halo: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const long global = (long)n * size;
    for (int i = 1; i <= n; i++) {
        long g = (long)rank * n + (i - 1);
        /* A hot band in the second quarter of the ring, plus a gentle slope. */
        u[i] = (g >= global / 4 && g < global / 2 ? 1.0 : 0.0) + (double)g / (double)global;
    }

    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    double residual = 0.0;
    int checks = 0;
    for (int step = 1; step <= par.steps; step++) {
        MPI_Request req[4];
        MPI_Status st[4];
        MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, TAG_TO_RIGHT, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, TAG_TO_LEFT, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&u[1], 1, MPI_DOUBLE, left, TAG_TO_LEFT, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&u[n], 1, MPI_DOUBLE, right, TAG_TO_RIGHT, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, st);

        if (pause_us)
            usleep(pause_us);
        double local = 0.0;
        for (int i = 1; i <= n; i++) {
            v[i] = u[i] + par.alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
            local += (v[i] - u[i]) * (v[i] - u[i]);
        }
        double *t = u;
        u = v;
        v = t;

        if (step % par.check == 0) {
            MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            residual = sqrt(residual);
            checks++;
        }
    }

    /* Checksum: total heat (conserved on the ring) and its first moment. */
    double mine[2] = {0.0, 0.0}, sum[2] = {0.0, 0.0};
    for (int i = 1; i <= n; i++) {
        long g = (long)rank * n + (i - 1);
        mine[0] += u[i];
        mine[1] += u[i] * (double)(g % 1000) / 1000.0;
    }
    MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("halo: ranks=%d cells=%ld steps=%d checks=%d residual=%.9e heat=%.9e moment=%.9e\n",
               size, global, par.steps, checks, residual, sum[0], sum[1]);

    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
