/*
 * MPI_Comm_join over a socket pair (2 ranks of one world): rank 0 listens
 * on a loopback port and sends its number to rank 1, which connects; both
 * join the connected socket into an intercommunicator, rank 0 sends an int
 * over it and rank 1 sends it back, then both MPI_Comm_disconnect it. The
 * intercommunicator must have one id on both, and its messages a world
 * rank on each side (test/mpi/comm_join.expect.py).
 */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mpitest.h"

/* The connected socket of this rank (rank 0 listens, rank 1 connects). */
static int connected(void)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int port = 0, fd = socket(AF_INET, SOCK_STREAM, 0);
    mt_check(fd >= 0, "socket");
    if (mt_rank == 0) {
        socklen_t len = sizeof a;
        mt_check(bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, 1) == 0 &&
                     getsockname(fd, (struct sockaddr *)&a, &len) == 0,
                 "cannot listen on a loopback port");
        port = ntohs(a.sin_port);
        MPI_Send(&port, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        int c = accept(fd, NULL, NULL);
        close(fd);
        return c;
    }
    MPI_Recv(&port, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    a.sin_port = htons((unsigned short)port);
    mt_check(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "cannot connect to port %d", port);
    return fd;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_check(mt_size == 2, "comm_join runs on 2 ranks");
    int fd = connected(), size = 0, x = 0;
    MPI_Comm inter = MPI_COMM_NULL;
    MPI_Comm_join(fd, &inter);
    mt_check(inter != MPI_COMM_NULL, "no intercommunicator");
    MPI_Comm_remote_size(inter, &size);
    mt_check(size == 1, "remote size %d", size);
    if (mt_rank == 0) {
        x = 41;
        MPI_Send(&x, 1, MPI_INT, 0, 7, inter);
        MPI_Recv(&x, 1, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 7, inter, MPI_STATUS_IGNORE);
        x++;
        MPI_Send(&x, 1, MPI_INT, 0, 8, inter);
    }
    MPI_Comm_disconnect(&inter);
    close(fd);
    if (mt_rank == 0)
        printf("comm_join: got %d back\n", x);
    return mt_finish();
}
