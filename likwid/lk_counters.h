/*
 * The LIKWID collector (DESIGN sections 3, 4, 7): marker regions become
 * regions "likwid:<tag>" (lk_markers.c), and hardware counters are stored
 * per region, rank and counter thread (lk_counters.c) when LIKWID measures:
 *   - under likwid-perfctr -m / likwid-mpirun -m, LIKWID's own marker
 *     results: events after each stop, and events with metrics when the
 *     program closes the marker API;
 *   - with MPISCOPE_LIKWID=<group>, the group measured through LIKWID's
 *     perfmon API on the CPUs of the rank's affinity mask, read at each
 *     marker start and stop and at the end.
 * Without counter access the regions are still timed, after one warning.
 *
 *   lk_counters.c  the collector (collector.h): the group measured from
 *                  start to stop; counter sets and samples
 *   lk_markers.c   the marker API, intercepted
 *   lk_tags.c      each thread's tags and their regions
 *   lk_lib.c       the dlopen table
 */
#ifndef MPISCOPE_LK_COUNTERS_H
#define MPISCOPE_LK_COUNTERS_H

#include <stdint.h>

#include "../preload/tstate.h"

/* Counters (lk_counters.c). t: the calling thread, entered (ms_enter). */
MS_HIDDEN void lk_counters_marker_init(void);
MS_HIDDEN void lk_counters_region(ms_thread *t, const char *tag, int is_stop);
MS_HIDDEN void lk_counters_marker_close(ms_thread *t);

#endif
