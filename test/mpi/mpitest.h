/*
 * Helpers shared by the MPI test programs of test/mpi/. Each program checks
 * its own data, prints a deterministic summary on rank 0, and exits non-zero
 * when a check failed. The runner compares that output with and without the
 * preload library, and the merged profile against <program>.expect.py.
 *
 * Only MPI_Comm_rank/MPI_Comm_size are called besides the calls a test is
 * about, so that the expected region table is exactly the program's calls.
 */
#ifndef MPISCOPE_MPITEST_H
#define MPISCOPE_MPITEST_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static int mt_rank, mt_size, mt_failures;

static inline void mt_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
}

/* Records a failed check on stderr; the program then exits with status 1. */
__attribute__((format(printf, 2, 3))) static inline void mt_check(int ok, const char *fmt, ...)
{
    if (ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "check failed on rank %d: ", mt_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    mt_failures++;
}

/* Checks the source, tag and size (in elements of `type`) of a status. */
static inline void mt_check_status(const MPI_Status *st, MPI_Datatype type, int source, int tag, int count)
{
    int got = -1;
    MPI_Get_count(st, type, &got);
    mt_check(st->MPI_SOURCE == source, "status source %d, expected %d", st->MPI_SOURCE, source);
    mt_check(st->MPI_TAG == tag, "status tag %d, expected %d", st->MPI_TAG, tag);
    mt_check(got == count, "status count %d, expected %d", got, count);
}

/* Finalizes and returns the exit status of the program. */
static inline int mt_finish(void)
{
    MPI_Finalize();
    return mt_failures ? 1 : 0;
}

#endif
