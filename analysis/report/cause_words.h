/*
 * The root causes and the fixes of the wait-state analysis (run->waits,
 * analysis/waits/wait_types.h) in words, for the text and HTML reports
 * alike. Their regions are keys (run->wait_keys: a region at a call site),
 * named as the wait-state rows name theirs (wait_sites.h): an MPI
 * function at its call site, "MPI_Waitall at exchange (halo.c:87)".
 */
#ifndef MPISCOPE_CAUSE_WORDS_H
#define MPISCOPE_CAUSE_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "../reduce/run.h"
#include "../waits/wait_types.h"

/* The root causes and fixes the reports show at most. */
#define MS_CAUSE_ROWS 10

/* Where a cause or a fix lies, in words (kind: enum ms_wx_cause_kind):
 * "compute between MPI_Irecv at exchange (halo.c:80) and MPI_Waitall at
 * exchange (halo.c:87)" (the start and the end of the application:
 * "MPI_Init", "MPI_Finalize"), "user region step at main (app.c:12)",
 * "MPI_Allreduce at main (app.c:30)". Control bytes become '?'. */
void ms_cause_place(char *buf, size_t cap, const ms_run *run, uint8_t kind, uint32_t region, uint32_t region2);

/* What a fix does, in words: "balancing rank 3's compute between ..." */
void ms_fix_action(char *buf, size_t cap, const ms_run *run, const ms_wx_fix *f);

/* The ranks that caused waiting (ms_waits.late), most waiting first (then
 * by rank): malloc'ed, w->nlate of them; NULL when out of memory (or
 * none). */
ms_wx_late *ms_late_by_time(const ms_waits *w);

#endif
