/*
 * A run's identity and default log directory (DESIGN section 3): drawn by
 * rank 0 at MPI_Init (pmpi/lifecycle.c), or by a process that records
 * without MPI (rank 0 of 1, cupti/).
 */
#ifndef MPISCOPE_RUN_IDENT_H
#define MPISCOPE_RUN_IDENT_H

#include <stddef.h>
#include <stdint.h>

/* "mpiscope-<YYYYmmdd-HHMMSS>-<pid>" (relative to the working directory). */
__attribute__((visibility("hidden"))) void ms_default_dir(char *buf, size_t cap);

/* 64 bits that differ between runs. */
__attribute__((visibility("hidden"))) uint64_t ms_new_run_id(void);

#endif
