/* Where the writer thread runs: see writer_cpu.h. */
#include "writer_cpu.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "../preload/config.h"
#include "../preload/writer.h"
#include "stacking.h"

/* The online CPUs, from /sys (a list like "0-3,8,10-11"); else the first
 * get_nprocs(). */
static void online_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    FILE *fp = fopen("/sys/devices/system/cpu/online", "re");
    int any = 0;
    if (fp) {
        int lo, hi;
        char sep;
        while (fscanf(fp, "%d", &lo) == 1) {
            hi = lo;
            int got = fscanf(fp, "%c", &sep);
            if (got == 1 && sep == '-') {
                if (fscanf(fp, "%d", &hi) != 1)
                    break;
                got = fscanf(fp, "%c", &sep);
            }
            for (int c = lo; c <= hi && c >= 0 && c < CPU_SETSIZE; c++, any = 1)
                CPU_SET(c, set);
            if (got != 1 || sep != ',')
                break;
        }
        fclose(fp);
    }
    if (!any)
        for (int c = 0, n = get_nprocs(); c < n && c < CPU_SETSIZE; c++)
            CPU_SET(c, set);
}

void ms_writer_cpu_choose(MPI_Comm world)
{
    cpu_set_t mine, all, online;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0)
        CPU_ZERO(&mine);
    MPI_Comm node;
    int local = 0;
    if (ms_pmpi_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return;
    PMPI_Comm_rank(node, &local);
    ms_pmpi_Allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, node);
    ms_pmpi_Comm_free(&node);
    if (ms_cfg.disable || ms_cfg.writer_cpu != MS_WRITER_CPU_AUTO || CPU_COUNT(&mine) == 0)
        return;
    online_cpus(&online);
    cpu_set_t in_online;
    CPU_AND(&in_online, &mine, &online);
    if (CPU_EQUAL(&in_online, &online))
        return;   /* not bound: the writer may run anywhere already */
    cpu_set_t free_cpus;
    CPU_ZERO(&free_cpus);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &online) && !CPU_ISSET(c, &all))
            CPU_SET(c, &free_cpus);
    int nfree = CPU_COUNT(&free_cpus);
    if (nfree > 0)
        ms_writer_place(&free_cpus, local % nfree);
}
