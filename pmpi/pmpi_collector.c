/* The PMPI collector's registration: see pmpi_collector.h. */
#include "pmpi_collector.h"

#include "../preload/collector.h"
#include "../preload/diag.h"
#include "../preload/runtime.h"
#include "stacking.h"

/* Slot 0 until load: the core runs the load hooks before anything records. */
MS_HIDDEN int ms_pmpi_slot_calls, ms_pmpi_slot_requests, ms_pmpi_slot_fortran;

static void pmpi_load(void)
{
    ms_pmpi_slot_calls = ms_thread_slot("pmpi calls");
    ms_pmpi_slot_requests = ms_thread_slot("pmpi requests");
    ms_pmpi_slot_fortran = ms_thread_slot("pmpi fortran");
    if (ms_pmpi_slot_calls < 0 || ms_pmpi_slot_requests < 0 || ms_pmpi_slot_fortran < 0) {
        /* The wrappers index these slots on every call: without them,
         * nothing is recorded (ms_thread_slot has warned). */
        ms_pmpi_slot_calls = ms_pmpi_slot_requests = ms_pmpi_slot_fortran = 0;
        ms_warn_once(MS_WARN_COLLECTOR, "the MPI wrappers have no per-thread slots; nothing is recorded");
        ms_runtime_refuse();
        return;
    }
    ms_pmpi_check_stacking();
}

static const ms_collector pmpi_collector = {
    .name = "pmpi",
    .order = 0,
    .load = pmpi_load,
};
MS_COLLECTOR_REGISTER(pmpi_collector);
