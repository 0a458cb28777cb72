/*
 * A progress line on stderr for long merges: "mpiscope-merge: reading logs
 * 37 of 128 (28 %)", redrawn in place. Only when stderr is a terminal, and
 * only once the work has taken more than a second; erased when done.
 */
#ifndef MPISCOPE_PROGRESS_H
#define MPISCOPE_PROGRESS_H

#include <stdatomic.h>
#include <stddef.h>

typedef struct ms_progress ms_progress;

/* Follow *done (of total) under `what`; NULL when there is nothing to show
 * (stderr not a terminal, or no thread). */
ms_progress *ms_progress_start(const char *what, const atomic_size_t *done, size_t total);
void ms_progress_stop(ms_progress *p);

#endif
