/*
 * The bounds of a timeline (--from S, --to S, --ranks LIST; DESIGN section
 * 6): which calls the timeline outputs (--trace, --otf2, --events-csv, the
 * HTML timeline, --spt) keep.
 *
 *   time    a call is kept when it lies inside [from, to]: it starts at or
 *           after `from` and ends at or before `to`, both in seconds from
 *           the run's start (run->origin, the earliest event start on the
 *           common clock);
 *   ranks   a call is kept when its world rank is listed: "0-3,7" is
 *           ranks 0, 1, 2, 3 and 7 (ranges and single ranks, in any order).
 *
 * A message arrow (a flow of --trace) is kept when both its ends are.
 * A window not given keeps everything.
 */
#ifndef MPISCOPE_WINDOW_H
#define MPISCOPE_WINDOW_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_window_range {
    int32_t lo, hi;            /* world ranks lo..hi */
} ms_window_range;

typedef struct ms_window {
    int timed;                 /* --from or --to given */
    int64_t from_ns, to_ns;    /* from the run's start; to_ns INT64_MAX: open */
    size_t nranges;            /* 0: every rank */
    ms_window_range *ranges;
} ms_window;

/* An empty window: keeps everything. */
#define MS_WINDOW_ALL ((ms_window){.timed = 0, .from_ns = 0, .to_ns = INT64_MAX, .nranges = 0, .ranges = NULL})

/* Seconds ("1.5", "0", "2e-3"), at least 0 and below 1e9, into ns.
 * 0, or -1 when s is not such a number. */
int ms_window_parse_seconds(const char *s, int64_t *ns);

/* A rank list ("0-3,7": ranks and ranges lo-hi, lo <= hi, from 0, comma
 * separated) into w's ranges. 0; -1 when malformed; -2 when out of
 * memory. */
int ms_window_parse_ranks(const char *s, ms_window *w);

void ms_window_free(ms_window *w);

/* Whether w (NULL: everything) bounds anything. */
int ms_window_bounds(const ms_window *w);

/* Whether world rank `rank` is kept. */
int ms_window_rank(const ms_window *w, int32_t rank);

/* Whether a call from start to end (ns from the run's start) is kept. */
int ms_window_time(const ms_window *w, int64_t start, int64_t end);

/* The share (0..1) of a rank's calls, from first_start to last_end (ns
 * from the run's start), that the window keeps, assuming they are spread
 * evenly in time: for estimates. */
double ms_window_share(const ms_window *w, int32_t rank, int64_t first_start, int64_t last_end);

#endif
