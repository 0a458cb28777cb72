/*
 * The application's own signal handlers still run under the preload
 * library: a SIGTERM handler installed before MPI_Init (the tool leaves a
 * claimed signal alone) and a SIGUSR1 handler installed after it (replacing
 * the tool's). Each rank raises SIGTERM twice and SIGUSR1 once between two
 * barriers; the handlers count them and the program checks the counts. The
 * tool must not close the log: the run ends with MPI_Finalize and complete
 * logs.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>

#include "mpitest.h"

static volatile sig_atomic_t terms, usr1s;

static void on_term(int sig)
{
    (void)sig;
    terms++;
}

static void on_usr1(int sig)
{
    (void)sig;
    usr1s++;
}

static void handle(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
    handle(SIGTERM, on_term);
    mt_init(&argc, &argv);
    handle(SIGUSR1, on_usr1);
    MPI_Barrier(MPI_COMM_WORLD);
    raise(SIGTERM);
    raise(SIGUSR1);
    raise(SIGTERM);
    mt_check(terms == 2, "SIGTERM handler ran %d times, expected 2", (int)terms);
    mt_check(usr1s == 1, "SIGUSR1 handler ran %d times, expected 1", (int)usr1s);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("handlers: SIGTERM %d, SIGUSR1 %d\n", (int)terms, (int)usr1s);
    return mt_finish();
}
