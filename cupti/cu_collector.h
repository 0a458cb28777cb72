/*
 * The CUPTI collector (docs/GPU.md): GPU kernels, copies and memsets from
 * CUPTI's activity API, each (device, context, stream) recorded as its own
 * thread of the rank's log; the launching host thread and time of each, from
 * driver-API callbacks; NVTX ranges as regions "nvtx:<message>".
 *
 *   cu_collector.c  loading, device check, subscription, callbacks,
 *                   injection (CUDA_INJECTION64_PATH), single-process start
 *   cu_decode.c     activity buffers: queue, decoding thread, clock
 *   cu_nvtx.c       NVTX ranges
 *   cu_lib.c        the dlopen table
 */
#ifndef MPISCOPE_CU_COLLECTOR_H
#define MPISCOPE_CU_COLLECTOR_H

#include <stdint.h>

#include "../preload/tstate.h"

/* From the recording core (runtime.c): at load (after the configuration),
 * after recording started, and before it stops (recording still on). */
MS_HIDDEN void ms_cupti_load(void);
MS_HIDDEN void ms_cupti_start(void);
MS_HIDDEN void ms_cupti_stop(void);

/* ---- between the collector's files ---- */

/* The launch of correlation id `corr`: host thread (index + 1, 0 unknown)
 * and tool time. Returns 0 when the id was not seen (or was overwritten). */
MS_HIDDEN int cu_launch_lookup(uint32_t corr, uint32_t *host_thread, uint64_t *t);

/* Activity buffers (cu_decode.c). */
MS_HIDDEN int cu_decode_init(void);          /* registers the buffer callbacks; 0 ok */
MS_HIDDEN void cu_decode_attach(void);       /* recording is on: decode from now on */
MS_HIDDEN void cu_decode_final(void);        /* flush, decode all, stop decoding */
MS_HIDDEN uint64_t cu_decode_pending(void);  /* records waiting for recording to start */
MS_HIDDEN void cu_clock_sample(void);        /* a calibration sample (GPU, tool clock) */

/* NVTX callbacks (cu_nvtx.c). */
MS_HIDDEN void cu_nvtx_callback(uint32_t cbid, const void *cbdata);

#endif
