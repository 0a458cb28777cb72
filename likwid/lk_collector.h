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
 */
#ifndef MPISCOPE_LK_COLLECTOR_H
#define MPISCOPE_LK_COLLECTOR_H

#include <stdint.h>

#include "../preload/tstate.h"

/* The thread-local region id of "likwid:<tag>" in t, defined when new;
 * 0 and *id, or -1 (too many tags, out of memory). */
MS_HIDDEN int lk_region_of(ms_thread *t, const char *tag, uint32_t *id);

/* Counters (lk_counters.c). t: the calling thread, entered (ms_enter). */
MS_HIDDEN void lk_counters_marker_init(void);
MS_HIDDEN void lk_counters_region(ms_thread *t, const char *tag, int is_stop);
MS_HIDDEN void lk_counters_marker_close(ms_thread *t);

/* From the recording core (runtime.c): after recording started, and
 * before it stops. */
MS_HIDDEN void ms_likwid_start(void);
MS_HIDDEN void ms_likwid_stop(void);

#endif
