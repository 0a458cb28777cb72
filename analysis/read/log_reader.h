/*
 * Reading one rank's log (format: common/log_format.h, docs/FORMAT.md).
 *
 * The file is read as a stream, frame by frame, into a buffer that grows up
 * to the largest frame a writer can produce; it never has to fit in memory.
 * Each frame is checked (zstd content checksum, content size, block header)
 * before its records are decoded and delivered through callbacks:
 *
 *   header  once, first, with the file header and its metadata strings
 *   region  when a region name is seen for the first time in this file:
 *           names get dense per-file indices 0, 1, 2, ... (the same name
 *           defined by two threads gets one index)
 *   event   per recorded call: thread, region index, start and end
 *           (absolute tool-clock ns)
 *   comm    per communicator record
 *   site    when a call site is seen for the first time (dense per-file
 *           indices, like regions); events carry their site's index
 *   object  per object of the process's load map
 *   counter_set, counter_sample  hardware-counter sets and samples
 *   summary per aggregate of a region id (summary mode, version 4): the
 *           statistics of all its calls on one thread
 *   sync    per clock-sync measurement (version 4)
 *   message per message record (version 5): a request that the thread's
 *           next event completed or started, delivered before that event
 *   comm_origin, comm_name  how a communicator was made, and its name
 *           (version 8)
 *   end     once, last, with the end record
 *
 * Any callback may be NULL. A callback that returns non-zero stops the read
 * with MS_READ_STOPPED.
 *
 * The input is treated as hostile: every length is checked against what is
 * actually there, nothing is allocated from a length field beyond the limits
 * below, and every failure is a status with a message that names the file
 * and the byte offset of the frame at fault. Callbacks see only data from
 * frames that passed their checksum.
 */
#ifndef MPISCOPE_LOG_READER_H
#define MPISCOPE_LOG_READER_H

#include <stddef.h>
#include <stdint.h>

#include "log_counters.h"
#include "../../common/log_format.h"
#include "log_sites.h"
#include "../../common/stats.h"

/* Limits on what one file may define; beyond them the file is corrupt. */
#define MS_READER_MAX_REGIONS (1u << 18)        /* distinct names per file */
#define MS_READER_MAX_NAME_BYTES (64u << 20)    /* their total length */
#define MS_READER_MAX_THREADS (1u << 16)        /* threads per file */
#define MS_READER_MAX_IDS (1u << 20)            /* region ids per thread */

typedef enum ms_read_status {
    MS_READ_OK = 0,       /* complete log: header, data, end block */
    MS_READ_TRUNCATED,    /* cut short (no end block, or cut inside a frame);
                             everything before the cut was delivered */
    MS_READ_CORRUPT,      /* not an mpiscope log, or a bad frame or record */
    MS_READ_UNSUPPORTED,  /* a newer format version or another byte order */
    MS_READ_IO,           /* the file cannot be opened or read */
    MS_READ_NOMEM,
    MS_READ_STOPPED,      /* a callback returned non-zero */
} ms_read_status;

/* The header block, as read. Strings are "" when the key is absent; they
 * stay valid until the next read with the same reader. */
typedef struct ms_log_meta {
    ms_file_header header;
    const char *host;
    const char *mpi_library;
    const char *argv0;
    const char *run_dir;
    const char *clock;
    /* The run's identity ("run=<16 lowercase hex digits>", the same in the
     * logs of all ranks of one run); "" in logs that do not carry it. */
    const char *run_id;
    /* A spawned world's rank 0 (spawned_by=): "<run>:<id>:<ranks>", its
     * parents' run, the spawn's intercommunicator there and the spawning
     * group's world ranks (pmpi/spawn.h); "" when absent. */
    const char *spawned_by;
    /* The end record when the file's last frame is a valid end block, found
     * before the stream is read so that a consumer knows finalize_start_ns
     * while events arrive. The end callback still confirms it. */
    int has_end_hint;
    ms_end_record end_hint;
} ms_log_meta;

typedef struct ms_read_event {
    uint32_t thread;      /* thread index within the rank (block header) */
    uint32_t region;      /* per-file region index */
    uint64_t start_ns;    /* tool clock */
    uint64_t end_ns;      /* >= start_ns */
    uint32_t site;        /* per-file call-site index, or MS_SITE_NONE */
} ms_read_event;

/* GPU records (version 4; docs/FORMAT.md "GPU activity"). */
typedef enum ms_gpu_kind {
    MS_GPU_STREAM = 0,    /* the thread is a GPU stream: device, context, stream */
    MS_GPU_LAUNCH,        /* the thread's next event was launched by host_thread at launch_ns */
    MS_GPU_DROPPED,       /* dropped more records were lost */
    MS_GPU_TOOL,          /* the thread holds CUPTI's overhead records */
} ms_gpu_kind;

typedef struct ms_gpu_record {
    ms_gpu_kind kind;
    uint32_t thread;              /* the thread of the log the record is on */
    uint32_t device, context, stream;
    uint32_t host_thread;         /* thread index + 1; 0: not known */
    uint64_t launch_ns;           /* tool clock ns (as event times) */
    uint64_t dropped;
} ms_gpu_record;
/* A message record (MS_CTL_MESSAGE, version 5; docs/FORMAT.md "Messages"):
 * one request that the thread's next event completed or started, or the
 * received half of that event (sendrecv). Delivered before that event; a
 * consumer keeps them per thread until the thread's next event. */
enum {
    MS_MSG_RECV = 1u,       /* the receive side (else a send, or no direction) */
    MS_MSG_CANCELLED = 2u,  /* completed as cancelled (MPI_Test_cancelled) */
    MS_MSG_STARTED = 4u,    /* started (start, startall), not completed */
    MS_MSG_POSTED = 8u,     /* post_ns is known */
};
typedef struct ms_read_message {
    uint32_t thread;      /* thread index within the rank */
    uint32_t op;          /* op id of the call that created the request
                             (pmpi/calls.tbl); 0: not known */
    uint32_t flags;       /* MS_MSG_* */
    int64_t comm;         /* communicator id; -1: none */
    int64_t peer;         /* rank in comm: actual source of a receive,
                             destination of a send; -1: none */
    int64_t tag;          /* -1: none */
    int64_t bytes;        /* -1: not known */
    int64_t root;         /* a persistent rooted collective's root, a rank
                             in comm, from the region name of the call that
                             created the request (version 6 on); -1: none
                             or not known */
    uint64_t post_ns;     /* start of the creating call (tool clock), when
                             MS_MSG_POSTED */
} ms_read_message;

/* A file of MPI-IO (MS_CTL_FILE, version 5; docs/FORMAT.md "Files (version 5)"): the
 * rank's calls whose region name ends ` file=<id>` are on it. path is valid
 * during the callback only, len bytes, no NUL. */
typedef struct ms_read_file {
    uint32_t thread;      /* thread index within the rank */
    uint32_t id;          /* <= MS_MAX_FILE_ID */
    int64_t comm;         /* the communicator it was opened on; -1: none */
    const char *path;
    uint32_t len;         /* 1 .. MS_MAX_FILE_PATH */
} ms_read_file;

/* How a communicator was made (MS_CTL_COMM_ORIGIN, version 8; docs/FORMAT.md
 * "Communicators"): the creating call and its call site. */
typedef struct ms_read_comm_origin {
    uint32_t thread;      /* thread index within the rank */
    uint32_t op;          /* op id of the creating call (pmpi/calls.tbl); 0: none */
    uint64_t id;          /* the communicator */
    int64_t parent;       /* -1: none */
    uint64_t seq;         /* the creation's number (the same on every member) */
    uint32_t region;      /* per-file region index of the creating call, or MS_IDMAP_NONE */
    uint32_t site;        /* per-file call-site index of that call, or MS_SITE_NONE */
    uint32_t ndims;       /* a Cartesian communicator's dimensions; 0: none */
    uint32_t dims[MS_MAX_COMM_DIMS];
} ms_read_comm_origin;

/* An aggregate (MS_CTL_SUMMARY), checked (ms_stats_agg_check): durations
 * in ns, agg.first_start and agg.last_end in ns of the tool clock like
 * event times; agg.counts is valid during the callback only. */
typedef struct ms_summary_rec {
    uint32_t thread;      /* thread index within the rank */
    uint32_t region;      /* per-file region index */
    uint32_t site;        /* per-file call-site index, or MS_SITE_NONE */
    ms_stats_agg agg;
    uint64_t window_ns;   /* MPI regions: time inside [init_end, finalize_start] */
    uint64_t excl_ns;     /* exclusive time (common/nesting.h) */
} ms_summary_rec;

typedef struct ms_read_callbacks {
    int (*header)(void *ctx, const ms_log_meta *meta);
    int (*region)(void *ctx, uint32_t region, const char *name, size_t len);
    int (*event)(void *ctx, const ms_read_event *ev);
    int (*comm)(void *ctx, uint32_t thread, uint64_t comm_id, const int32_t *world_ranks,
                uint32_t n);
    int (*end)(void *ctx, const ms_end_record *end);
    /* A call site seen for the first time: per-file index, return addresses
     * innermost first (version 3). */
    int (*site)(void *ctx, uint32_t site, const uint64_t *pc, uint32_t n);
    /* An object of the process's load map (version 3). */
    int (*object)(void *ctx, const ms_object *obj);
    /* A hardware-counter set seen for the first time (per-file index, like
     * regions), and each counter sample (version 3; log_counters.h). */
    int (*counter_set)(void *ctx, uint32_t set, const ms_counter_set *def);
    int (*counter_sample)(void *ctx, const ms_counter_sample *s);
    /* A GPU record (version 4). */
    int (*gpu)(void *ctx, const ms_gpu_record *g);
    /* A region id's aggregate (summary mode, version 4). */
    int (*summary)(void *ctx, const ms_summary_rec *s);
    /* A clock-sync measurement (version 4): t_send and t_recv in
     * CLOCK_MONOTONIC ns of this rank, like event times; peer_mono_ns as
     * stored (rank 0's CLOCK_MONOTONIC). */
    int (*sync)(void *ctx, const ms_sync_sample *s);
    /* A message record (version 5), before the event it belongs to. */
    int (*message)(void *ctx, const ms_read_message *m);
    /* A file record (version 5). */
    int (*file)(void *ctx, const ms_read_file *f);
    /* How a communicator was made, and the name MPI_Comm_set_name gave it
     * (name: len bytes, no NUL, valid during the callback; version 8). */
    int (*comm_origin)(void *ctx, const ms_read_comm_origin *o);
    int (*comm_name)(void *ctx, uint32_t thread, uint64_t comm_id, const char *name, uint32_t len);
    /* Where the rank was as it ended, waited or hung (version 9): ticks,
     * call_since and idle_since in CLOCK_MONOTONIC ns of this rank, like
     * event times (0 stays 0). */
    int (*ending)(void *ctx, const ms_ending_record *e);
} ms_read_callbacks;

typedef struct ms_read_result {
    ms_read_status status;
    uint64_t offset;       /* byte offset of the frame at fault (or of the cut) */
    uint64_t frames;       /* frames read successfully */
    uint64_t events;       /* events delivered */
    uint64_t summarized;   /* calls in the summary records delivered */
    uint32_t threads;      /* distinct threads seen */
    int has_header;
    int has_end;
    char message[512];     /* "<path>: ..." for every status but OK */
} ms_read_result;

typedef struct ms_reader ms_reader;

/* A reader keeps its buffers and decompression context between files: use
 * one per thread. Returns NULL when out of memory. */
ms_reader *ms_reader_create(void);
void ms_reader_destroy(ms_reader *r);

/* Read `path` from its start, delivering its content to cb (may be NULL).
 * Returns res->status, and fills res. */
ms_read_status ms_reader_read(ms_reader *r, const char *path, const ms_read_callbacks *cb,
                              void *ctx, ms_read_result *res);

/* Names of the last file read (or being read): index -> name. */
uint32_t ms_reader_region_count(const ms_reader *r);
const char *ms_reader_region_name(const ms_reader *r, uint32_t region, size_t *len);

/* Call sites and objects of the last file read (or being read). */
const ms_site_table *ms_reader_sites(const ms_reader *r);

/* What the live request of `handle` is, as the last file read left it
 * (common/req_match.h's ms_rq_peek: thread, the caller's handle address
 * `where`); 0, or -1 when none is live. */
struct ms_rq_facts;
int ms_reader_request(const ms_reader *r, uint32_t thread, uint64_t handle, uint64_t where, struct ms_rq_facts *f);

/* Header of the last file read; NULL before a header was read. */
const ms_log_meta *ms_reader_meta(const ms_reader *r);

/* A short word for a status: "ok", "truncated", "corrupt", ... */
const char *ms_read_status_str(ms_read_status s);

#endif
