/*
 * Correlation ids -> the launching host thread and time (cu_launch.c): the
 * callbacks (cu_collector.c) note each launch, copy and memset at its enter
 * site; the activity decoder (cu_decode.c) looks them up.
 */
#ifndef MPISCOPE_CU_LAUNCH_H
#define MPISCOPE_CU_LAUNCH_H

#include <stdint.h>

#include "../preload/tstate.h"

/* Note correlation id `id` as launched now by the calling thread. */
MS_HIDDEN void cu_launch_note(uint32_t id);

/* The launch of correlation id `corr`: host thread (index + 1, 0 unknown)
 * and tool time. Returns 0 when the id was not seen (or was overwritten). */
MS_HIDDEN int cu_launch_lookup(uint32_t corr, uint32_t *host_thread, uint64_t *t);

#endif
