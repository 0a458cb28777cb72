/*
 * The clock model that aligns a rank's clock to rank 0's in the merge
 * (DESIGN section 6): measurements, the fit, and the mapping through it.
 * It knows nothing of runs: run_clock.h applies it to a run's ranks.
 *
 * Each rank's times first go to the "header clock": its tool clock (as the
 * reader delivers it, CLOCK_MONOTONIC ns) shifted by realtime_ref_ns -
 * clock_ref_ns of its header, i.e. its host's CLOCK_REALTIME. Logs of
 * version 4 also measure the rank's clock against rank 0's by ping-pong at
 * MPI_Init and at MPI_Finalize (sync blocks, docs/FORMAT.md). Each
 * measurement gives, at the rank's header-clock time x_i (the exchange's
 * midpoint), rank 0's header-clock time y_i, so a_i = y_i - x_i. The merge
 * models rank 0's clock as a linear function of the rank's:
 *
 *   t0 = t + a + b (t - x_init)        b = (a_fin - a_init) / (x_fin - x_init)
 *
 * (offset a = a_init and linear drift b), and puts every time of the rank
 * on the common clock through it: ms_rank_time (run_clock.h) is the one
 * function that maps a rank's time to the common clock. Rank 0 keeps its
 * header clock. Without a finalize measurement, or when the two are less than
 * MS_ALIGN_MIN_SPAN_NS apart (the drift would be mostly measurement
 * error), or when |b| exceeds MS_ALIGN_MAX_DRIFT (not a clock), only the
 * offset is corrected; without any measurement (logs of versions 1 to 3,
 * one-rank runs, a run without rank 0's log) nothing is.
 *
 * From version 9 a rank measures its host leader's parent in the tree of
 * host leaders (peer), not rank 0: the fit maps it to its peer's header
 * clock, and ms_clock_compose carries that on to rank 0's. A rank that
 * shares its host leader's clock (same_clock) takes the leader's mapping
 * (ms_clock_share): ranks of one host have one time base.
 */
#ifndef MPISCOPE_CLOCK_ALIGN_H
#define MPISCOPE_CLOCK_ALIGN_H

#include <stdint.h>

#include "../../common/log_format.h"

#define MS_ALIGN_MIN_SPAN_NS 100000000  /* 100 ms between the measurements */
#define MS_ALIGN_MAX_DRIFT 1e-2         /* 10,000 ppm */

/* One measurement of a rank's clock against rank 0's. */
typedef struct ms_clock_obs {
    int has;
    int64_t local;                 /* the exchange's midpoint, the rank's header clock */
    uint64_t peer_mono_ns;         /* rank 0's CLOCK_MONOTONIC then */
    uint64_t rtt_ns;               /* its round trip */
    uint32_t exchanges;
} ms_clock_obs;

enum ms_align_model { MS_ALIGN_NONE = 0, MS_ALIGN_OFFSET = 1, MS_ALIGN_DRIFT = 2 };

/* A rank's alignment: its measurements and the model fitted to them. */
typedef struct ms_clock_align {
    ms_clock_obs obs[2];           /* [MS_SYNC_INIT], [MS_SYNC_FINALIZE] */
    int model;                     /* enum ms_align_model */
    int32_t peer;                  /* the rank measured against (0 before
                                      version 9), or the host leader whose
                                      clock this rank reads (same_clock) */
    int64_t offset_ns;             /* a */
    int64_t ref;                   /* x_init (or x_fin when only that one exists) */
    double drift;                  /* b */
    int32_t same_clock;            /* 1: reads peer's clock, not measured */
    int64_t path_error_ns;         /* the error bound of the peer's mapping,
                                      which ms_clock_compose adds on */
} ms_clock_align;

/* Record a sync sample as the reader delivers it (log_reader.h), for a rank
 * whose header clock is its tool clock + clock_offset_ns. */
void ms_clock_obs_set(ms_clock_align *a, const ms_sync_sample *s, int64_t clock_offset_ns);

/* Fit the model of a rank's measurements, the peer's header clock being its
 * CLOCK_MONOTONIC + peer_offset_ns. */
void ms_clock_fit(ms_clock_align *a, int64_t peer_offset_ns);

/* Compose: a maps the rank's header clock to its peer's, p the peer's to the
 * common clock; afterwards a maps the rank's to the common clock. p of
 * MS_ALIGN_NONE leaves a as it is. */
void ms_clock_compose(ms_clock_align *a, const ms_clock_align *p);

/* A rank that reads the same clock as its host leader: the leader's model
 * (measurements included, for the reports), its header clock being the
 * leader's + shift_ns (the two ranks' header offsets differ by how their
 * CLOCK_REALTIME and CLOCK_MONOTONIC were read together). */
void ms_clock_share(ms_clock_align *a, const ms_clock_align *leader, int64_t shift_ns);

/* A time on the rank's header clock -> the common clock (saturating). */
int64_t ms_clock_apply(const ms_clock_align *a, int64_t t);

/* The rank's clock against rank 0's, as reported: how far ahead it was at
 * its first measurement (ns), and how much faster it ran (ppm); 0 without
 * the model. */
int64_t ms_clock_ahead_ns(const ms_clock_align *a);
double ms_clock_drift_ppm(const ms_clock_align *a);

/* The bound on the measurements' error: half the longer round trip of the
 * measurements the model uses (ns), plus those of the peers' measurements it
 * was composed with; 0 without the model. */
int64_t ms_clock_error_ns(const ms_clock_align *a);

/* The largest shift the model makes between the rank's measurements (ns,
 * absolute). */
int64_t ms_clock_max_shift(const ms_clock_align *a);

#endif
