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

/* The sentences of the reports (no line end; times as ms_fmt_ns gives
 * them):
 *   cause_line  "rank 3 · compute between ... · delayed others by 120 ms,
 *               which led to 490 ms of waiting (200 ms direct, 290 ms
 *               indirect)"
 *   fix_line    "balancing rank 3's compute between ... would shorten the
 *               run by ~480 ms (of 2.9 s), taking 500 ms out of it (a top
 *               root cause)"
 *   cause_total "in all: 1.2 s direct, 800 ms indirect"
 *   unexplained "2.1 ms of waiting had no cause found: ..."
 *   no_waiting  "with no waiting at all the run would take 2.1 s (of
 *               2.9 s)" */
void ms_cause_line(char *buf, size_t cap, const ms_run *run, const ms_wx_cause *c);
void ms_fix_line(char *buf, size_t cap, const ms_run *run, const ms_waits *w, const ms_wx_fix *f);
void ms_cause_total(char *buf, size_t cap, const ms_waits *w);
void ms_cause_unexplained(char *buf, size_t cap, const ms_waits *w);
/*   cause_launch "1.2 ms of waiting began before every rank had left
 *               MPI_Init (...)" */
void ms_cause_launch(char *buf, size_t cap, const ms_waits *w);
void ms_what_if_bound(char *buf, size_t cap, const ms_waits *w);

/* The terms of the root causes, defined in one sentence, and what the
 * what-if's projections are. */
#define MS_CAUSE_TERMS                                                                            \
    "(delay: the time a rank took beyond the ranks that waited for it, before the point where "  \
    "they met; direct: the waiting it caused there; indirect: the waiting passed on by those "    \
    "who waited)"
#define MS_WHAT_IF_TERMS                                                                          \
    "a projection on the recorded run: the place's time on that rank brought to the other "      \
    "ranks' mean there (where no other rank has it, less by the delay found there) and the run "  \
    "walked again; the waits that a change would create are not modelled"

/* The ranks that caused waiting (ms_waits.late), most waiting first (then
 * by rank): malloc'ed, w->nlate of them; NULL when out of memory (or
 * none). */
ms_wx_late *ms_late_by_time(const ms_waits *w);

#endif
