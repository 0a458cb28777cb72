/*
 * MPI-IO: every rank opens one file on MPI_COMM_WORLD, writes and reads it
 * through explicit offsets, the individual pointer, a non-blocking write, a
 * split collective, the shared pointer and ordered access, sets its size,
 * closes it; rank 0 deletes it. The file is the program's path with ".dat"
 * appended (the test's own build directory).
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define N 16

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    char path[4096];
    snprintf(path, sizeof path, "%s.dat", argv[0]);
    int buf[N], got[N];
    for (int i = 0; i < N; i++)
        buf[i] = mt_rank * 100 + i;
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    mt_check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) ==
                 MPI_SUCCESS, "open %s", path);
    MPI_Offset mine = (MPI_Offset)mt_rank * N * (MPI_Offset)sizeof(int);
    MPI_File_write_at_all(fh, mine, buf, N, MPI_INT, &st);
    /* Another rank may have written this rank's block (collective
     * buffering): sync, barrier, then read. */
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    memset(got, 0, sizeof got);
    MPI_File_read_at(fh, mine, got, N, MPI_INT, &st);
    mt_check(memcmp(got, buf, sizeof buf) == 0, "read_at");
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_seek(fh, (MPI_Offset)mt_rank * N, MPI_SEEK_SET);
    MPI_File_write(fh, buf, N / 2, MPI_INT, &st);
    MPI_File_seek(fh, (MPI_Offset)mt_rank * N, MPI_SEEK_SET);
    MPI_File_read(fh, got, N / 2, MPI_INT, MPI_STATUS_IGNORE);
    mt_check(memcmp(got, buf, sizeof buf / 2) == 0, "read");
    MPI_File_iwrite_at(fh, (MPI_Offset)mt_size * N + mt_rank * 4, buf, 4, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_File_read_all_begin(fh, got, N / 2, MPI_INT);
    MPI_File_read_all_end(fh, got, &st);
    mt_check(memcmp(got, buf + N / 2, sizeof buf / 2) == 0, "read_all_begin/end");
    MPI_File_write_shared(fh, buf, 2, MPI_INT, &st);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_read_ordered(fh, got, 2, MPI_INT, &st);
    MPI_File_set_size(fh, (MPI_Offset)mt_size * N * 2 * (MPI_Offset)sizeof(int));
    MPI_File_preallocate(fh, (MPI_Offset)mt_size * N * 2 * (MPI_Offset)sizeof(int));
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    if (mt_rank == 0)
        printf("io_calls: %d ranks\n", mt_size);
    MPI_Finalize();
    return mt_failures ? 1 : 0;
}
