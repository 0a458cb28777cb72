/* The tool's own stalls: see tool_stalls.h. */
#include "tool_stalls.h"

#include <string.h>

const ms_region *ms_stall_region(const ms_run *run)
{
    for (size_t i = 0; i < run->nregions; i++)
        if (strcmp(run->regions[i].name, MS_STALL_NAME) == 0)
            return &run->regions[i];
    return NULL;
}

uint64_t ms_stall_rank_ns(const ms_run *run, size_t rank_index)
{
    const ms_region *r = ms_stall_region(run);
    if (!r)
        return 0;
    for (size_t i = 0; i < r->nranks; i++)
        if (r->ranks[i].rank_index == rank_index)
            return r->ranks[i].stats.total_ns;
    return 0;
}

uint64_t ms_stall_total_ns(const ms_run *run, double *pct_of_wall)
{
    const ms_region *r = ms_stall_region(run);
    uint64_t total = r ? r->total_ns : 0, wall = 0;
    for (size_t i = 0; i < run->nranks; i++)
        wall += run->ranks[i].wall_ns;
    if (pct_of_wall)
        *pct_of_wall = wall ? 100.0 * (double)total / (double)wall : 0.0;
    return total;
}
