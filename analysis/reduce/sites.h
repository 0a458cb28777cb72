/*
 * Where MPI time goes, coarse to fine (DESIGN section 6): per MPI function
 * and call site ("sites"), per MPI function ("functions"), and the calls
 * outside the application's window (start-up and shutdown: MPI_Init,
 * MPI_Finalize) apart. The canonical message regions (run->regions) are
 * the finest grain under them.
 *
 * A site is (operation, call site): the calls of every MPI region of one
 * op made at one source location (ms_callsite.location), summed over
 * message fields and ranks. Calls recorded without a call site
 * (MPISCOPE_CALLSITE_DEPTH=0, or an address no object holds) form one
 * site of their op without a location. Every report that shows these
 * numbers reads them from here, so that text, HTML and JSON agree:
 *   mpi_pct   100 x total / the run's MPI time (run->mpi_ns: calls between
 *             the end of MPI_Init and the start of MPI_Finalize, all ranks)
 *   app_pct   100 x total / the run's application time (run->app_ns)
 *   wait_pct  100 x the wait-state analysis's waiting in the site's calls
 *             / total; not known (has_wait 0) without the analysis
 *   imbalance_pct  DESIGN section 6's formula over the per-rank totals
 *   bytes     the regions' bytes x calls where the size is known; -1 when
 *             no call of the site has a known size
 * A region is start-up or shutdown when none of its time lies in the
 * application window (window_ns 0): its calls are in `lifecycle`, not in
 * the sites or functions.
 */
#ifndef MPISCOPE_SITES_H
#define MPISCOPE_SITES_H

#include "run.h"
#include "site_rows.h"

/* s from the run's regions, call sites and wait states. 0, or -1 when out
 * of memory (s then holds nothing). */
int ms_mpi_sites_build(const ms_run *run, ms_mpi_sites *s);

/* An MPI region of start-up or shutdown: none of its time lies in the
 * application window. */
static inline int ms_region_lifecycle(const ms_region *g)
{
    return g->is_mpi && g->window_ns == 0 && g->total_ns > 0;
}

#endif
