/* NVTX ranges as regions "nvtx:<message>" (cu_nvtx.c). */
#ifndef MPISCOPE_CU_NVTX_H
#define MPISCOPE_CU_NVTX_H

#include <stdint.h>

#include "../preload/tstate.h"

/* An NVTX callback of CUPTI (callback id and data). */
MS_HIDDEN void cu_nvtx_callback(uint32_t cbid, const void *cbdata);

#endif
