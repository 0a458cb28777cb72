/*
 * The log reader's private parts, shared by its files (log_reader.h is the
 * public side). The files form layers; each calls only into lower ones:
 *
 *   log_dispatch.c    the public API (log_reader.h), the block and record dispatch
 *   log_header.c      the header block and the log clock it defines
 *   decode_*.c        the control records of data blocks, one file per kind
 *   log_frames.c      zstd framing: the stream of frames, the end-block probe
 *   log_errors.c      how a read fails: status, offset and message
 *
 * The helpers of the hot path (varints, region ids, the log clock) are
 * inline here, so that the event loop makes no call between files.
 */
#ifndef MPISCOPE_LOG_READER_INT_H
#define MPISCOPE_LOG_READER_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zstd.h>

#include "../../common/req_records.h"
#include "idmap.h"
#include "log_reader.h"
#include "strtab.h"
#include "worlds.h"

/* The largest time a log may hold: every time must fit an int64_t. */
#define MS_RD_MAX_TIME ((uint64_t)INT64_MAX)

typedef struct ms_rd_name_info ms_rd_name_info;

typedef struct thread_state {
    uint32_t thread;
    int has_time;
    uint64_t cursor;         /* end of the previous event, or a time record */
    uint32_t *dense;         /* id -> file region index, for ids < ndense */
    uint32_t ndense;
    uint32_t ndefs;
    ms_idmap ids;            /* the other ids */
    uint16_t cset[MS_MAX_COUNTER_SETS];  /* set id -> per-file set index + 1 */
    ms_rq_record *pend;      /* request records before the next event */
    size_t npend, pend_cap;
    uint64_t req_where;      /* the handle address of the latest request record */
} thread_state;

struct ms_reader {
    ZSTD_DCtx *dctx;
    uint8_t *in;
    size_t in_cap;
    uint8_t *out;
    size_t out_cap;
    int32_t *members;
    size_t members_cap;
    int32_t *world_members;  /* members in the one run of several worlds */
    size_t world_cap;
    char *meta_buf;
    ms_log_meta meta;
    int has_meta;
    int has_end_hint;
    ms_end_record end_hint;  /* as stored (log clock) */
    size_t hint_size;        /* its size in the last frame */
    size_t end_size;         /* the end record's size on disk: by format version */
    uint32_t version;        /* of the file being read */
    uint32_t sync_seen;      /* bit per sync phase read */
    /* Log clock -> CLOCK_MONOTONIC ns: ns = ns0 + (ticks - t0) * ns_per_tick,
     * the rate taken from the latest clock sample, or the end record. */
    int ticks;               /* the log clock is not already ns */
    uint64_t t0, ns0;
    double ns_per_tick;
    int rate_final;          /* fixed by the end record */
    ms_strtab names;
    /* Each definition of a region id binds it to a name and a call site:
     * thread maps hold binding indices. */
    uint32_t *bind_region, *bind_site;
    size_t nbinds, binds_cap;
    ms_site_table sites;
    ms_cset_table csets;     /* counter sets (log_counters.h) */
    uint64_t *sum_counts;    /* a summary record's bucket counts */
    ms_idmap thread_slots;   /* thread index -> position in threads */
    /* Requests (decode_request.c): the live ones, what request records
     * learnt of names, and the names of completions by their fields. */
    ms_rq_table *rq;
    ms_rd_name_info **info;
    size_t ninfo;
    ms_rq_names derived;     /* completion names by (event name, fold) */
    thread_state *threads;
    size_t nthreads, threads_cap;

    /* The read in progress. */
    const char *path;
    const ms_world *world;   /* the world of its log (worlds.h); NULL: as itself */
    const ms_read_callbacks *cb;
    void *ctx;
    ms_read_result *res;
    uint64_t frame_off;      /* file offset of the frame being decoded */
    uint64_t file_size;      /* as seen when the read began */
};

/* ---- varints, region ids and the log clock, on the hot path ---- */

static inline int get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    if (p < end && *p < 0x80) {
        *out = *p;
        *pp = p + 1;
        return 0;
    }
    return ms_get_varint(pp, end, out);
}

/* A thread's region id -> binding index, or MS_IDMAP_NONE. */
static inline uint32_t region_of(const thread_state *t, uint64_t id)
{
    if (id < t->ndense)
        return t->dense[id];
    return ms_idmap_get(&t->ids, id);
}

/* A log-clock time in CLOCK_MONOTONIC ns. */
static inline uint64_t to_ns(const ms_reader *r, uint64_t t)
{
    if (!r->ticks)
        return t;
    double d = ((double)t - (double)r->t0) * r->ns_per_tick + (double)r->ns0;
    if (!(d > 0))
        return 0;
    return d >= (double)MS_RD_MAX_TIME ? MS_RD_MAX_TIME : (uint64_t)d;
}

/* ---- log_errors.c: each fills r->res and returns the status ---- */

__attribute__((format(printf, 4, 5)))
ms_read_status ms_rd_fail(ms_reader *r, ms_read_status st, uint64_t off, const char *fmt, ...);
/* MS_READ_CORRUPT: `what` in the frame being decoded. */
ms_read_status ms_rd_corrupt_at(ms_reader *r, const char *what);
ms_read_status ms_rd_stopped(ms_reader *r);
ms_read_status ms_rd_nomem(ms_reader *r);

/* ---- log_frames.c ---- */

/* Where a stream of frames stands: the unconsumed input is r->in[pos, len). */
typedef struct ms_rd_frames {
    int fd;
    size_t pos, len;
    size_t fsz;              /* compressed size of the frame last returned */
    int eof;
} ms_rd_frames;

/* Looks for a valid end block in the file's last frame; sets r->end_hint,
 * r->hint_size and r->has_end_hint when one is found. */
void ms_rd_probe_end(ms_reader *r, int fd, off_t size);
/* Starts the stream at the file's first byte (r->frame_off = 0). */
void ms_rd_frames_begin(ms_reader *r, ms_rd_frames *s, int fd);
/* The next frame, checked and decompressed: *blk (in r->out) and *n, its
 * content; *blk is NULL at the end of the file. `first`: no frame was
 * decoded yet (messages say "not an mpiscope log"); `ended`: the end block
 * was read, so any further byte is an error. */
ms_read_status ms_rd_frames_next(ms_reader *r, ms_rd_frames *s, int first, int ended,
                                 const uint8_t **blk, size_t *n);
/* The frame last returned was decoded: count it and move past it. */
void ms_rd_frames_consumed(ms_reader *r, ms_rd_frames *s);

/* ---- log_header.c ---- */

/* The header block's content (after its block header): fills r->meta and
 * sets up the log clock. */
ms_read_status ms_rd_parse_header(ms_reader *r, const uint8_t *p, size_t len);
/* A later pair of readings of both clocks fixes the rate between them. */
void ms_rd_clock_pair(ms_reader *r, uint64_t ticks, uint64_t mono_ns);
/* The end record with its log-clock times in CLOCK_MONOTONIC ns. */
ms_end_record ms_rd_end_in_ns(const ms_reader *r, const ms_end_record *e);

/* ---- decode_*.c: one control record of thread t, from *pp (advanced past
 * it) up to the end of its block ---- */

/* decode_defs.c: definitions */
ms_read_status ms_rd_region_def(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_comm_origin(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_comm_name(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_site(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_object(ms_reader *r, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_comm(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_file(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
/* decode_counters.c: hardware counters */
ms_read_status ms_rd_counter_set(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_counter_sample(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
/* decode_gpu.c: the GPU records, control values ctl 9 to 12 */
ms_read_status ms_rd_gpu(ms_reader *r, thread_state *t, unsigned ctl, const uint8_t **pp, const uint8_t *end);
/* decode_summary.c: a region id's aggregate (summary mode) */
ms_read_status ms_rd_summary(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
/* decode_message.c: a message record (version 5) */
ms_read_status ms_rd_message(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
/* decode_request.c: a request record (version 6), kept until its event;
 * at that event (thread t has records kept), the requests matched, their
 * messages delivered, and the event's name (ev->region) rewritten */
ms_read_status ms_rd_request(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end);
ms_read_status ms_rd_requests_apply(ms_reader *r, thread_state *t, ms_read_event *ev);
/* Forget the requests and names of the file read (a new read), or all. */
void ms_rd_requests_reset(ms_reader *r);
void ms_rd_requests_free(ms_reader *r);

#endif
