/*
 * Processes the application starts record and write nothing, and never
 * touch the parent's log. Between two barriers each rank
 *   - forks a child that returns through exit(0) (the tool's destructor
 *     runs in it);
 *   - forks a child that raises SIGTERM (it inherited the tool's handler,
 *     which must neither write the parent's log nor keep the child alive:
 *     the child dies of SIGTERM);
 *   - runs system() and popen() (a shell under the preload library that
 *     never calls MPI_Init).
 * The runner checks that exactly one log per rank exists and holds the
 * barriers, and that the output is the same as without the library.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    fflush(stdout);

    pid_t pid = fork();
    if (pid == 0)
        exit(0);
    int st = -1;
    mt_check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
             "child that exits: status %#x", st);

    pid = fork();
    if (pid == 0) {
        raise(SIGTERM);
        _exit(1);
    }
    st = -1;
    mt_check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
             "child that raises SIGTERM: status %#x", st);

    int rc = system(mt_rank == 0 ? "echo system child" : "true");
    mt_check(rc == 0, "system() returns %d", rc);
    fflush(stdout);

    FILE *p = popen("echo popen child", "r");
    char line[64] = "";
    mt_check(p != NULL && fgets(line, sizeof line, p) != NULL, "popen() gives no output");
    mt_check(p != NULL && pclose(p) == 0, "pclose() fails");
    mt_check(strcmp(line, "popen child\n") == 0, "popen() gives \"%s\"", line);

    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("read from popen: %s", line);
    return mt_finish();
}
