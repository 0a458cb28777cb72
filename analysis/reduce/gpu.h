/*
 * GPU activity in the reduction (docs/GPU.md): per rank, from the GPU
 * stream threads of its log (MS_CTL_GPU_STREAM) and the launch records
 * before their events (MS_CTL_GPU_LAUNCH):
 *   - kernels, copies and memsets (events of "cuda:kernel ...",
 *     "cuda:memcpy ...", "cuda:memset ..." on stream threads);
 *   - GPU busy time: the union of those events' intervals, clipped to the
 *     rank's wall time (run.h);
 *   - GPU time per enclosing host region: each event is charged to the
 *     innermost host event (MPI call or region, of any name but cuda:) on
 *     its launching thread whose interval holds the launch time, found by
 *     reading the log a second time; "(none)" when no host event holds it,
 *     "(unknown)" when the launch is not known;
 *   - records CUPTI dropped (MS_CTL_GPU_DROPPED).
 * Memory for a log with GPU activity grows with its GPU events (about 56
 * bytes each) while that log is reduced; nothing is kept per event after.
 */
#ifndef MPISCOPE_GPU_H
#define MPISCOPE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "../read/log_reader.h"

/* GPU time charged to one enclosing host region. */
typedef struct ms_gpu_origin {
    char *region;                  /* host region name, "(none)" or "(unknown)" */
    uint64_t calls;                /* GPU events launched inside it */
    uint64_t gpu_ns;               /* their summed durations */
} ms_gpu_origin;

/* One rank's GPU facts (a field of ms_rank_info). All zero without GPU
 * records. */
typedef struct ms_gpu_rank {
    uint32_t streams;              /* GPU stream threads in the log */
    uint64_t kernels, copies, memsets;
    uint64_t kernel_ns, copy_ns, memset_ns;
    uint64_t busy_ns;              /* union of their intervals, inside the wall time */
    uint64_t dropped;              /* activity records CUPTI dropped */
    size_t norigins;
    ms_gpu_origin *origins;        /* by gpu_ns descending, then name */
} ms_gpu_rank;

/* The run's GPU facts (ms_run.gpu; NULL when no log has GPU records). */
typedef struct ms_gpu_run {
    uint64_t kernels, copies, memsets, dropped;
    size_t norigins;
    ms_gpu_origin *origins;        /* summed over ranks, by gpu_ns descending */
} ms_gpu_run;

typedef struct ms_gpu_acc ms_gpu_acc;

/* Per log, during the reduction: NULL when out of memory. The hooks return
 * 0, or -1 when out of memory. */
ms_gpu_acc *ms_gpu_acc_new(void);
int ms_gpu_acc_region(ms_gpu_acc *a, uint32_t region, const char *name, size_t len);
int ms_gpu_acc_record(ms_gpu_acc *a, const ms_gpu_record *g);
int ms_gpu_acc_event(ms_gpu_acc *a, const ms_read_event *ev);
/* After the read: reads `path` again with rd (when there are launches to
 * charge) and fills *out; wall_lo..wall_hi is the rank's wall time (tool
 * clock ns). Frees a. Returns 0, or -1 when out of memory. */
int ms_gpu_acc_finish(ms_gpu_acc *a, ms_reader *rd, const char *path, uint64_t wall_lo, uint64_t wall_hi,
                      ms_gpu_rank *out);
void ms_gpu_acc_free(ms_gpu_acc *a);

void ms_gpu_rank_free(ms_gpu_rank *g);

/* The run's totals: add each rank (a rank without GPU records adds
 * nothing; *run stays NULL until one has some), then sort. */
int ms_gpu_run_add(ms_gpu_run **run, const ms_gpu_rank *g);
void ms_gpu_run_sort(ms_gpu_run *run);
void ms_gpu_run_free(ms_gpu_run *g);

/* 100 busy_ns / wall_ns (0 when wall_ns is 0), at most 100. */
double ms_gpu_busy_pct(const ms_gpu_rank *g, uint64_t wall_ns);

#endif
