/* The tool's own stalls: see tool_stalls.h. */
#include "tool_stalls.h"

#include <string.h>

int ms_stall_name(const char *name, size_t len)
{
    return len >= sizeof MS_STALL_PREFIX - 1 && memcmp(name, MS_STALL_PREFIX, sizeof MS_STALL_PREFIX - 1) == 0;
}

static int is_stall(const ms_region *r)
{
    return ms_stall_name(r->name, strlen(r->name));
}

int ms_stall_any(const ms_run *run)
{
    for (size_t i = 0; i < run->nregions; i++)
        if (is_stall(&run->regions[i]))
            return 1;
    return 0;
}

uint64_t ms_stall_rank_ns(const ms_run *run, size_t rank_index, uint64_t *calls)
{
    uint64_t ns = 0, n = 0;
    for (size_t i = 0; i < run->nregions; i++) {
        const ms_region *r = &run->regions[i];
        if (!is_stall(r))
            continue;
        for (size_t k = 0; k < r->nranks; k++)
            if (r->ranks[k].rank_index == rank_index) {
                ns += r->ranks[k].stats.total_ns;
                n += r->ranks[k].stats.calls;
            }
    }
    if (calls)
        *calls = n;
    return ns;
}

uint64_t ms_stall_total_ns(const ms_run *run, double *pct_of_wall)
{
    uint64_t total = 0, wall = 0;
    for (size_t i = 0; i < run->nregions; i++)
        if (is_stall(&run->regions[i]))
            total += run->regions[i].total_ns;
    for (size_t i = 0; i < run->nranks; i++)
        wall += run->ranks[i].wall_ns;
    if (pct_of_wall)
        *pct_of_wall = wall ? 100.0 * (double)total / (double)wall : 0.0;
    return total;
}
