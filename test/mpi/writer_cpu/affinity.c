/*
 * Prints the CPU list of each of its threads after MPI_Init ("main L" for
 * the calling thread, "thread L" for the others, one line each), then runs
 * 2,000 barriers and prints "done". For test/mpi/writer_cpu.sh.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void cpus_of(const char *task, char *out, size_t cap)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "/proc/self/task/%s/status", task);
    out[0] = 0;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    while (fgets(line, sizeof line, fp))
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            snprintf(out, cap, "%s", line + 18 + strspn(line + 18, " \t"));
            out[strcspn(out, "\n")] = 0;
        }
    fclose(fp);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char me[32], cpus[256];
    snprintf(me, sizeof me, "%ld", (long)syscall(SYS_gettid));
    /* The writer thread pins itself as it starts: give it a moment. */
    usleep(200000);
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        cpus_of(e->d_name, cpus, sizeof cpus);
        printf("rank %d %s %s\n", rank, strcmp(e->d_name, me) == 0 ? "main" : "thread", cpus);
    }
    if (d)
        closedir(d);
    for (int i = 0; i < 2000; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
