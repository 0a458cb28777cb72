/*
 * The "driver" of the fake libcupti (fake_cupti.c): what a test program
 * calls instead of launching real GPU work. Each call fires the driver-API
 * callbacks CUPTI would fire, then queues the activity record the work
 * would produce, with the real CUPTI struct types.
 */
#ifndef FAKE_HOOKS_H
#define FAKE_HOOKS_H

#include <stdint.h>

/* A kernel (mangled name) on stream `stream` running dur_ns once the
 * stream is free. */
void fake_kernel(const char *mangled, uint32_t stream, uint64_t dur_ns);
/* A copy of kind (CUpti_ActivityMemcpyKind: 1 HtoD ... 10 PtoP). */
void fake_memcpy(int kind, uint64_t bytes, uint32_t stream, uint64_t dur_ns);
void fake_memset(uint64_t bytes, uint32_t stream, uint64_t dur_ns);
/* A CUPTI overhead record (buffer flush) of dur_ns. */
void fake_overhead(uint64_t dur_ns);
/* n records lost: reported by the next cuptiActivityGetNumDroppedRecords. */
void fake_drop(uint64_t n);
/* Wait until every stream is idle (cudaDeviceSynchronize). */
void fake_sync(void);
/* NVTX ranges, through CUPTI's NVTX callbacks. */
void fake_nvtx_push(const char *message);
void fake_nvtx_pop(void);

#endif
