/*
 * CUPTI's activity buffers (cu_decode.c): the queue of completed buffers,
 * the decoding thread and the GPU clock's calibration.
 */
#ifndef MPISCOPE_CU_DECODE_H
#define MPISCOPE_CU_DECODE_H

#include <stdint.h>

#include "../preload/tstate.h"

MS_HIDDEN int cu_decode_init(void);          /* registers the buffer callbacks; 0 ok */
MS_HIDDEN void cu_decode_attach(void);       /* recording is on: decode from now on */
MS_HIDDEN void cu_decode_final(void);        /* flush, decode all, stop decoding */
MS_HIDDEN uint64_t cu_decode_pending(void);  /* records waiting for recording to start */
MS_HIDDEN void cu_clock_sample(void);        /* a calibration sample (GPU, tool clock) */

#endif
