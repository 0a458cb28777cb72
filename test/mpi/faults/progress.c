/*
 * The program the fault tests of test/mpi/fault_*.sh run (not a run.sh test
 * of its own). Each rank makes ITERS calls of MPI_Iprobe (0: until killed),
 * one every 100 us, and after each completed call stores its pid and the
 * number of completed calls in DIR/progress-<rank> (a shared mapping, so
 * the count survives SIGKILL). Then, by MODE:
 *
 *   finalize   MPI_Barrier, MPI_Finalize, exit 0
 *   exit       MPI_Barrier, then exit(5) without MPI_Finalize
 *   abort      rank 0 calls MPI_Abort(MPI_COMM_WORLD, 3); the others wait
 *              in MPI_Recv for a message that never comes
 *   segv       rank 0 raises SIGSEGV; the others wait as in abort (a write
 *              through a null pointer does not end the process where UCX
 *              handles SIGSEGV, with or without the tool)
 *
 *   progress MODE DIR ITERS
 */
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: progress finalize|exit|abort|segv DIR ITERS\n");
        return 2;
    }
    const char *mode = argv[1];
    long iters = atol(argv[3]);
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    char path[4096];
    snprintf(path, sizeof path, "%s/progress-%d", argv[2], rank);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, 2 * sizeof(int64_t)) != 0) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    volatile int64_t *progress = mmap(NULL, 2 * sizeof(int64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (progress == MAP_FAILED) {
        perror("mmap");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    progress[0] = (int64_t)getpid();
    progress[1] = 0;

    struct timespec pause = {0, 100000};
    for (long i = 0; iters == 0 || i < iters; i++) {
        int flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        progress[1] = i + 1;
        nanosleep(&pause, NULL);
    }

    if (strcmp(mode, "abort") == 0 || strcmp(mode, "segv") == 0) {
        if (rank == 0) {
            printf("%s after %ld calls\n", mode, iters);
            fflush(stdout);
            if (mode[0] == 'a')
                MPI_Abort(MPI_COMM_WORLD, 3);
            raise(SIGSEGV);
        }
        int x;
        MPI_Recv(&x, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("%ld calls on each rank\n", iters);
    fflush(stdout);
    if (strcmp(mode, "exit") == 0)
        exit(5);
    MPI_Finalize();
    return 0;
}
