/*
 * mpiscope per-rank log format: the one header shared by the runtime
 * (preload/, pmpi/) and the reader (analysis/).  docs/FORMAT.md describes it
 * in prose; this file is normative.  Everything on disk is little endian.
 *
 * A log is a sequence of independent zstd frames (content checksum on).
 * Each frame decompresses to exactly one block: a ms_block_header followed by
 * `length` payload bytes.
 *   - block 1 (kind MS_BLOCK_HEADER): ms_file_header, ms_clock_info (from
 *     version 2 on), metadata strings
 *   - blocks of kind MS_BLOCK_DATA: one thread's record stream, in order
 *   - blocks of kind MS_BLOCK_CLOCK (version 2): a clock sample, written
 *     before the data blocks of each flush
 *   - blocks of kind MS_BLOCK_SYNC (version 4): the rank's clock measured
 *     against rank 0's (version 9: its parent host leader's, or the same
 *     clock as its host leader's) at MPI_Init and at MPI_Finalize
 *   - blocks of kind MS_BLOCK_ENDING (version 9): ms_ending_record, where
 *     the rank was when it was blocked, stuck, aborted or hit by a signal
 *     (version 10: with the requests a completion call waits on)
 *   - last block (kind MS_BLOCK_END): ms_end_record
 * A log without its end block was cut short (crash, kill): readers use its
 * readable prefix and say "truncated".
 * A summary-mode log (header mode MS_MODE_SUMMARY, version 4) has the same
 * blocks; its data blocks hold control records and one MS_CTL_SUMMARY
 * aggregate per region id instead of events (docs/FORMAT.md, "Summary
 * mode").
 * A trace-mode log of version 5 describes the requests each completion or
 * start call handled in MS_CTL_MESSAGE records before its event
 * (docs/FORMAT.md, "Messages").
 */
#ifndef MPISCOPE_LOG_FORMAT_H
#define MPISCOPE_LOG_FORMAT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define MS_FORMAT_VERSION 10u
#define MS_FILE_MAGIC "MPISCOPE"      /* 8 bytes, no terminator on disk */
#define MS_BLOCK_MAGIC 0x4b42534du    /* "MSBK" read as little-endian u32 */
#define MS_ENDIAN_MARK 0x01020304u

/* Largest block payload a writer produces and a reader accepts. */
#define MS_MAX_BLOCK_PAYLOAD (64u * 1024u * 1024u)
/* Longest region name (bytes, without terminator). */
#define MS_MAX_NAME 1024u

enum ms_block_kind {
    MS_BLOCK_HEADER = 1,
    MS_BLOCK_DATA = 2,
    MS_BLOCK_END = 3,
    MS_BLOCK_CLOCK = 4,
    MS_BLOCK_SYNC = 5,
    MS_BLOCK_ENDING = 6,
};

typedef struct ms_block_header {
    uint32_t magic;   /* MS_BLOCK_MAGIC */
    uint16_t kind;    /* enum ms_block_kind */
    uint16_t flags;   /* 0 */
    uint32_t thread;  /* data: thread index within the rank; else 0 */
    uint32_t length;  /* payload bytes that follow */
} ms_block_header;
_Static_assert(sizeof(ms_block_header) == 16, "ms_block_header is 16 bytes on disk");

enum ms_mode { MS_MODE_TRACE = 0, MS_MODE_SUMMARY = 1 };

/* Payload of the header block; followed by ms_clock_info (version 2 on),
 * then `nstrings` metadata strings, each a u32 length and that many bytes of
 * "key=value" (no terminator). Keys: host, mpi_library, argv0, run_dir,
 * clock.
 * Times marked "log clock" are in the unit ms_clock_info names: nanoseconds
 * of CLOCK_MONOTONIC, or time-stamp-counter ticks. */
typedef struct ms_file_header {
    char magic[8];              /* MS_FILE_MAGIC */
    uint32_t version;           /* MS_FORMAT_VERSION */
    uint32_t endian;            /* MS_ENDIAN_MARK */
    int32_t rank;               /* world rank */
    int32_t size;               /* world size */
    int64_t pid;
    uint64_t clock_ref_ns;      /* CLOCK_MONOTONIC ns ... */
    int64_t realtime_ref_ns;    /* ... and CLOCK_REALTIME ns, read together */
    uint64_t init_start_ns;     /* log clock when MPI_Init was entered */
    uint64_t init_end_ns;       /* log clock when MPI_Init returned */
    uint32_t mode;              /* enum ms_mode */
    uint32_t nstrings;
} ms_file_header;
_Static_assert(sizeof(ms_file_header) == 72, "ms_file_header is 72 bytes on disk");

enum ms_clock_kind { MS_CLOCK_NS = 0, MS_CLOCK_TSC = 1 };

/* After the file header (version 2 on): the unit of the log clock. */
typedef struct ms_clock_info {
    uint32_t kind;              /* enum ms_clock_kind */
    uint32_t reserved;          /* 0 */
    uint64_t ticks_ref;         /* log clock, read together with clock_ref_ns */
    double ticks_per_ns;        /* estimate made at start; 1 for MS_CLOCK_NS */
} ms_clock_info;
_Static_assert(sizeof(ms_clock_info) == 24, "ms_clock_info is 24 bytes on disk");

/* Payload of a clock block: the three clocks read together. Readers map the
 * log clock to CLOCK_MONOTONIC through these samples (and the end record's). */
typedef struct ms_clock_sample {
    uint64_t ticks;             /* log clock */
    uint64_t mono_ns;           /* CLOCK_MONOTONIC */
    int64_t realtime_ns;        /* CLOCK_REALTIME */
} ms_clock_sample;
_Static_assert(sizeof(ms_clock_sample) == 24, "ms_clock_sample is 24 bytes on disk");

/* Payload of a sync block (version 4): one measurement of this rank's clock
 * against a peer's (rank 0's before version 9), by ping-pong over a
 * communicator of the tool's own: of `exchanges` round trips, the one with
 * the shortest round trip. The peer read its CLOCK_MONOTONIC (peer_mono_ns)
 * when the ping arrived, so (Cristian) the peer's clock read peer_mono_ns at
 * this rank's log-clock time (t_send + t_recv) / 2, within
 * (t_recv - t_send) / 2. At most one block of each phase; rank 0 and
 * one-rank runs write none.
 * Version 9 adds `peer` (the world rank measured against: the parent host
 * leader in the tree of host leaders) and `same_clock`: 1 says that this
 * rank reads the same clock as `peer` (its host's leader), with nothing
 * measured (exchanges, t_send, t_recv, peer_mono_ns 0; phase MS_SYNC_INIT).
 * Earlier versions wrote the first 32 bytes; readers take peer 0,
 * same_clock 0 for them. */
enum ms_sync_phase { MS_SYNC_INIT = 0, MS_SYNC_FINALIZE = 1 };
typedef struct ms_sync_sample {
    uint32_t phase;             /* enum ms_sync_phase */
    uint32_t exchanges;         /* round trips completed, >= 1 (0 with same_clock) */
    uint64_t t_send;            /* log clock: the ping left this rank ... */
    uint64_t t_recv;            /* ... and the peer's reply arrived (>= t_send) */
    uint64_t peer_mono_ns;      /* the peer's CLOCK_MONOTONIC when the ping arrived */
    int32_t peer;               /* version 9: the peer's world rank */
    uint32_t same_clock;        /* version 9: 1: the peer's clock, not measured */
} ms_sync_sample;
_Static_assert(sizeof(ms_sync_sample) == 40, "ms_sync_sample is 40 bytes on disk");
/* Its size in logs of versions 4 to 8. */
#define MS_SYNC_SAMPLE_V4_SIZE 32u
/* Most round trips one measurement makes. */
#define MS_SYNC_MAX_EXCHANGES 64u

/* Payload of the end block. Version 1 wrote the first 40 bytes. */
typedef struct ms_end_record {
    uint64_t finalize_start_ns; /* log clock when MPI_Finalize was entered (0: never) */
    uint64_t end_ns;            /* CLOCK_MONOTONIC ns when the log was closed ... */
    uint64_t events;            /* events written, all threads */
    uint64_t dropped;           /* events that could not be recorded (0 unless noted) */
    uint32_t nthreads;          /* threads that recorded */
    uint32_t flags;             /* MS_END_* */
    uint64_t end_ticks;         /* ... and the log clock, read together (version 2) */
} ms_end_record;
_Static_assert(sizeof(ms_end_record) == 48, "ms_end_record is 48 bytes on disk");
#define MS_END_RECORD_V1_SIZE 40u

#define MS_END_FINALIZED 1u     /* closed by MPI_Finalize (else at exit) */

/* Payload of an ending block (version 9): how the rank ended, or where it
 * waited, and the MPI call it was inside then. A log may hold several; the
 * last one tells the end, unless it is a BLOCKED or STUCK one whose call
 * later completed (an event of that thread ends after call_since). */
/* Requests an ending record names (version 10). */
#define MS_ENDING_REQS 8u

typedef struct ms_ending_record {
    uint32_t cause;             /* MS_ENDING_* */
    int32_t signal;             /* SIGNAL: the signal number, else 0 */
    int32_t code;               /* ABORT: MPI_Abort's error code; SIGNAL: si_code */
    uint32_t thread;            /* thread index of the call below; UINT32_MAX: none */
    uint64_t ticks;             /* log clock when it was written */
    uint64_t fault_pc;          /* SIGNAL from a fault: the faulting instruction, else 0 */
    uint64_t call_since;        /* log clock when the call began; 0: inside no MPI call */
    uint64_t call_pc;           /* the call's return address in the application, 0: none */
    int64_t call_comm;          /* its communicator id (control records), -1: none */
    uint32_t call_op;           /* its op (pmpi_ops.h), 0: none */
    int32_t call_peer;          /* the rank in call_comm it sends to or receives from, -1: none */
    int32_t call_tag;           /* -1: none */
    int32_t call_root;          /* -1: none */
    uint64_t idle_since;        /* STUCK outside MPI: log clock of the last recorded call's end, else 0 */
    /* Version 10: a completion call's requests (the Wait and Test family). */
    uint32_t req_count;         /* the requests the call was given; 0: none */
    uint32_t req_stride;        /* bytes from one caller's handle to the next */
    uint64_t req_at;            /* the address of the caller's first handle */
    uint64_t reqs[MS_ENDING_REQS]; /* the first min(req_count, MS_ENDING_REQS) handles'
                                      bits (as request records name them); 0: MPI_REQUEST_NULL */
} ms_ending_record;
_Static_assert(sizeof(ms_ending_record) == 160, "ms_ending_record is 160 bytes on disk");
/* Its size in a version 9 log (without the requests: they read as none). */
#define MS_ENDING_RECORD_V9_SIZE 80u

enum ms_ending_cause {
    MS_ENDING_BLOCKED = 1,      /* inside a call for a while: written as the log is flushed */
    MS_ENDING_STUCK = 2,        /* the hang watchdog: in one call, or in none, for MPISCOPE_HANG_S */
    MS_ENDING_SIGNAL = 3,       /* a terminating or fatal signal arrived */
    MS_ENDING_ABORT = 4,        /* the rank called MPI_Abort */
};

/*
 * Data block payload: one thread's records. Each record starts with an
 * unsigned LEB128 varint h; its low two bits give the record type.
 *
 *   h & 3 == MS_REC_EVENT: an event of region (h >> 2), the thread-local
 *       region id, then varint gap (start - previous end) and varint
 *       duration, both in log clock units. The stream's time cursor is then start+duration.
 *   h & 3 == MS_REC_CONTROL: (h >> 2) is one of enum ms_control:
 *       MS_CTL_REGION: varint id, varint len, len bytes of name
 *       MS_CTL_TIME:   varint t; the time cursor becomes t (absolute, log clock)
 *       MS_CTL_COMM:   varint comm id, varint n, n varints (world ranks)
 *       MS_CTL_SITE:   varint region id, varint n (1..MS_MAX_SITE_FRAMES),
 *                      n varints: the call site of the region id defined
 *                      just before, as return addresses, innermost first
 *                      (version 3)
 *       MS_CTL_OBJECT: varint base, varint lo, varint hi, varint path len,
 *                      path bytes, varint build-id len, build-id bytes: an
 *                      ELF object loaded in the process at base, spanning
 *                      addresses [lo, hi) (version 3)
 *       MS_CTL_COUNTER_SET: varint set id (thread-local, < MS_MAX_COUNTER_SETS),
 *                      varint nevents, varint n (nevents <= n <=
 *                      MS_MAX_COUNTER_VALUES), varint group len, group
 *                      bytes, then n names (varint len, bytes): a set of
 *                      hardware-counter values, nevents raw events then
 *                      n - nevents derived metrics (version 3)
 *       MS_CTL_COUNTER_SAMPLE: varint set id, varint region (0: the whole
 *                      run; else thread-local region id + 1), varint
 *                      counter thread, varint cpu, varint count, varint
 *                      flags (MS_SAMPLE_*), 8 bytes time (IEEE double, s),
 *                      varint n (the set's n), n 8-byte IEEE doubles: the
 *                      values of the region on that counter thread so far
 *                      (version 3)
 *       MS_CTL_GPU_STREAM: varint device, varint context, varint stream:
 *                      this thread of the log is a GPU stream, not a host
 *                      thread (version 4)
 *       MS_CTL_GPU_LAUNCH: varint host thread (thread index + 1; 0: not
 *                      known), varint t (log clock): the next event of this
 *                      thread was launched by that host thread at t
 *                      (version 4)
 *       MS_CTL_GPU_DROPPED: varint n: n more GPU activity records were
 *                      dropped by CUPTI (version 4)
 *       MS_CTL_GPU_TOOL: this thread holds CUPTI's own overhead records,
 *                      not a GPU stream (version 4)
 *       MS_CTL_MESSAGE: varint op (the calls.tbl op id of the call that
 *                      created the request, <= MS_MESSAGE_MAX_OP; 0: not
 *                      known), varint flags (MS_MESSAGE_*), varint comm + 1
 *                      (0: none), zigzag varints peer, tag, bytes (-1:
 *                      none or not known) and post (the time cursor at
 *                      this record minus the log-clock start of the call
 *                      that posted the request; 0 without
 *                      MS_MESSAGE_POSTED): one request that the thread's
 *                      next event completed or started (version 5)
 *       MS_CTL_FILE:   varint file id (<= MS_MAX_FILE_ID), varint comm + 1
 *                      (0: none), varint len (1..MS_MAX_FILE_PATH), len
 *                      bytes of the path (no NUL): the file that the
 *                      rank's MPI-IO calls with ` file=<id>` in their
 *                      region name are made on (version 5)
 *       MS_CTL_REQUEST: varint what (MS_REQ_* kind in its low 3 bits,
 *                      MS_REQF_* flags above them), varint handle (the
 *                      request handle's bits, never MPI_REQUEST_NULL),
 *                      zigzag varint where (the address of the caller's
 *                      handle minus that of the thread's previous request
 *                      record), and with MS_REQF_STATUS three zigzag
 *                      varints peer, tag, bytes (what the completion's
 *                      status says: source, tag and bytes; -1 none), with
 *                      MS_REQF_PARTS a varint partition count (version
 *                      9): one
 *                      request that the thread's next event (not a tool
 *                      event, "mpiscope:...") created, completed, started,
 *                      cancelled, freed or named (version 6); or, of
 *                      kind MS_REQ_CARRIED, one the thread created in a
 *                      gap of its trace and that is live where the
 *                      trace goes on (version 7; see docs/FORMAT.md)
 *       MS_CTL_COMM_ORIGIN: varint comm id, varint op (the calls.tbl op
 *                      id of the call that created it; 0: none), varint
 *                      parent + 1 (0: none), varint seq (the creation's
 *                      number, the same on every member), varint region
 *                      (the creating call's thread-local region id + 1,
 *                      defined before; 0: none), varint ndims
 *                      (<= MS_MAX_COMM_DIMS), ndims varints: a Cartesian
 *                      communicator's dimensions (version 8)
 *       MS_CTL_COMM_NAME: varint comm id, varint len (<= MS_MAX_COMM_NAME),
 *                      len bytes (no NUL): the name MPI_Comm_set_name gave
 *                      it (version 8)
 *       MS_CTL_SUMMARY: the aggregate of every call of one region id of
 *                      this thread (summary mode, version 4; see
 *                      docs/FORMAT.md): varint id, varint calls (>= 1),
 *                      varint total, varint min, varint max (ns), 8 bytes
 *                      mean (ns), 8 bytes m2 (ns^2; IEEE doubles),
 *                      varint first start (log clock), varint its
 *                      duration (ns), varint last end (log clock),
 *                      varint its duration (ns), varint window (ns),
 *                      varint exclusive (ns), varint zero (calls shorter
 *                      than 1 ns), varint lo, varint n, n varints: the
 *                      counts of sketch buckets lo .. lo + n - 1
 *                      (ms_sketch_bucket_of)
 *   types 2 and 3 are reserved; a reader rejects them.
 * A thread's stream continues across its data blocks: region ids and the
 * time cursor carry over. A thread's stream has an MS_CTL_TIME before its
 * first event.
 */
enum ms_record_type { MS_REC_EVENT = 0, MS_REC_CONTROL = 1 };
enum ms_control {
    MS_CTL_REGION = 0,
    MS_CTL_TIME = 1,
    MS_CTL_COMM = 2,
    MS_CTL_SITE = 3,
    MS_CTL_OBJECT = 4,
    MS_CTL_COUNTER_SET = 5,
    MS_CTL_COUNTER_SAMPLE = 6,
    MS_CTL_SUMMARY = 7,
    /* 8 was never given to a record; it stays unused, and a reader
     * rejects it like any value not listed here. */
    MS_CTL_GPU_STREAM = 9,
    MS_CTL_GPU_LAUNCH = 10,
    MS_CTL_GPU_DROPPED = 11,
    MS_CTL_GPU_TOOL = 12,
    MS_CTL_MESSAGE = 13,
    MS_CTL_FILE = 14,
    MS_CTL_REQUEST = 15,
    MS_CTL_COMM_ORIGIN = 16,
    MS_CTL_COMM_NAME = 17,
};

/* A request record's kind (version 6; docs/FORMAT.md "Requests"): the
 * call created the request (MS_REQ_NEW), completed it (MS_REQ_DONE),
 * started it (MS_REQ_START: MPI_Start, MPI_Startall), cancelled it, freed
 * it (MPI_Request_free), or names it without changing it (MS_REQ_REF:
 * MPI_Pready, MPI_Parrived); or, version 7, the writer carries a request
 * over a gap of the trace (MS_REQ_CARRIED: created by a call the log's
 * summary counts, and live where the trace goes on; what that call would
 * have said of it follows), and sets the address that the thread's next
 * request record's where is relative to (MS_REQ_BASE: the trace goes on
 * after request records it does not hold). */
enum ms_req_kind {
    MS_REQ_NEW = 0,
    MS_REQ_DONE = 1,
    MS_REQ_START = 2,
    MS_REQ_CANCEL = 3,
    MS_REQ_FREE = 4,
    MS_REQ_REF = 5,
    MS_REQ_CARRIED = 6,
    MS_REQ_BASE = 7,
};
#define MS_REQ_KIND_MASK 7u
/* Flags above the kind. MS_REQ_NEW: the request's direction in
 * MS_REQF_DIR (0 a send or a request of no direction, 1 a receive, whose
 * completion reports what its status says, 2 a receive of exactly what it
 * posted: partitioned) and MS_REQF_PERSISTENT (MS_REQ_CARRIED: the
 * same); MS_REQ_DONE: MS_REQF_STATUS
 * (the status fields follow) and MS_REQF_CANCELLED (the status says
 * cancelled); MS_REQ_NEW and MS_REQ_REF, from version 9: MS_REQF_PARTS
 * (one varint follows, 1 or more: a partitioned request's partitions, at
 * its MPI_Psend_init or MPI_Precv_init; the partitions an MPI_Pready,
 * MPI_Pready_range or MPI_Pready_list names); the other kinds none (a
 * start or a free is written only when the call succeeded). */
#define MS_REQF_DIR_SHIFT 3u
#define MS_REQF_DIR (3u << MS_REQF_DIR_SHIFT)
#define MS_REQF_PERSISTENT 32u
#define MS_REQF_STATUS 8u
#define MS_REQF_CANCELLED 16u
#define MS_REQF_PARTS 64u
#define MS_REQ_WHAT_MAX 127u

/* The varints that follow a request record's head, handle and where, by
 * its what (not MS_REQ_CARRIED): a completion's status fields, a
 * partition count. */
static inline unsigned ms_req_more_varints(uint64_t what)
{
    unsigned k = (unsigned)(what & MS_REQ_KIND_MASK);
    return (k == MS_REQ_DONE && (what & MS_REQF_STATUS) ? 3u : 0u) +
           ((k == MS_REQ_NEW || k == MS_REQ_REF) && (what & MS_REQF_PARTS) ? 1u : 0u);
}
/* A carried request's traits (its varint after op). */
#define MS_REQT_IO 1u     /* an MPI-IO request */
#define MS_REQT_PAIR 2u   /* an isendrecv: a send, then a receive */
#define MS_REQT_ALL 3u

/* File records (version 5): the largest file id, the longest path. */
#define MS_MAX_FILE_ID 0x7fffffffu
#define MS_MAX_FILE_PATH 4096u

/* Communicator records (version 8): a Cartesian communicator's dimensions
 * (more are left out: ndims 0) and a name's bytes (longer ones are cut). */
#define MS_MAX_COMM_DIMS 16u
#define MS_MAX_COMM_NAME 1024u

/* A message record's flags (version 5; docs/FORMAT.md "Messages"): the
 * receive side; completed as cancelled; started (MPI_Start, MPI_Startall),
 * not completed; the post field is meaningful. Readers reject other bits. */
#define MS_MESSAGE_RECV 1u
#define MS_MESSAGE_CANCELLED 2u
#define MS_MESSAGE_STARTED 4u
#define MS_MESSAGE_POSTED 8u
#define MS_MESSAGE_FLAGS 15u
/* The largest op id a message record may name. */
#define MS_MESSAGE_MAX_OP 65535u

/* Summary mode's duration sketch (DDSketch, relative accuracy 1 %): a
 * duration v >= 1 ns counts in bucket ceil(ln(v) / ln(gamma)), gamma =
 * 1.01 / 0.99, computed in IEEE double as below and capped at
 * MS_SKETCH_MAX_BUCKET; durations below 1 ns count in the zero bucket.
 * The merge's sketch (common/sketch.c) uses this same definition. */
#define MS_SKETCH_MAX_BUCKET 2240
/* 1 / ln(1.01 / 0.99), the double nearest to it as computed by libm. */
#define MS_SKETCH_INV_LN_GAMMA 0x1.8ffc9629d237p+5
static inline int32_t ms_sketch_bucket_of(uint64_t v)
{
    double i = ceil(log((double)v) * MS_SKETCH_INV_LN_GAMMA);
    return i > (double)MS_SKETCH_MAX_BUCKET ? MS_SKETCH_MAX_BUCKET : (int32_t)i;
}

/* Hardware-counter sets (LIKWID groups): most sets one thread defines, most
 * values in a set, longest group or value name. */
#define MS_MAX_COUNTER_SETS 64u
#define MS_MAX_COUNTER_VALUES 64u
#define MS_MAX_COUNTER_NAME 256u
/* A sample's flags: MS_SAMPLE_FINAL replaces every earlier sample of its
 * set and region in the rank (the counting tool's own final evaluation). */
#define MS_SAMPLE_FINAL 1u
/* Counter values and times are stored as 8-byte IEEE doubles. */
_Static_assert(sizeof(double) == 8, "counter values are 8-byte IEEE doubles on disk");

/* Most frames of one call site (MPISCOPE_CALLSITE_DEPTH), longest object
 * path and build-id an object record holds. */
#define MS_MAX_SITE_FRAMES 16u
#define MS_MAX_OBJECT_PATH 1024u
#define MS_MAX_BUILD_ID 64u

#define MS_VARINT_MAX 10u

/* Append v as LEB128 at p (room for MS_VARINT_MAX bytes); returns the end. */
static inline __attribute__((always_inline)) uint8_t *ms_put_varint(uint8_t *p, uint64_t v)
{
    if (v < 0x80) {
        *p = (uint8_t)v;
        return p + 1;
    }
    if (v < 0x4000) {
        p[0] = (uint8_t)(v | 0x80);
        p[1] = (uint8_t)(v >> 7);
        return p + 2;
    }
    /* Up to 5 bytes unrolled: times in ticks, and request handles (most
     * libraries' are 32-bit values, 5 bytes). */
    p[0] = (uint8_t)(v | 0x80);
    p[1] = (uint8_t)((v >> 7) | 0x80);
    if (v < (1u << 21)) {
        p[2] = (uint8_t)(v >> 14);
        return p + 3;
    }
    p[2] = (uint8_t)((v >> 14) | 0x80);
    if (v < (1u << 28)) {
        p[3] = (uint8_t)(v >> 21);
        return p + 4;
    }
    p[3] = (uint8_t)((v >> 21) | 0x80);
    if (v < (1ull << 35)) {
        p[4] = (uint8_t)(v >> 28);
        return p + 5;
    }
    p += 4;
    v >>= 28;
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* Signed values as unsigned varints (zigzag): 0, -1, 1, -2, ... become
 * 0, 1, 2, 3, ... so that small magnitudes of either sign stay short. */
static inline uint64_t ms_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0u);
}

static inline int64_t ms_unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1u);
}

/* A varint of at most 5 bytes at p, unrolled (p[0] to p[4] readable): its
 * length, or 0 when it is longer (*out then undefined). */
static inline __attribute__((always_inline)) unsigned ms_varint_head5(const uint8_t *p, uint64_t *out)
{
    uint64_t v = p[0];
    unsigned n = 1;
    if (v >= 0x80) {
        v = (v & 0x7f) | (uint64_t)p[1] << 7;
        n = 2;
        if (p[1] >= 0x80) {
            v = (v & 0x3fff) | (uint64_t)p[2] << 14;
            n = 3;
            if (p[2] >= 0x80) {
                v = (v & 0x1fffff) | (uint64_t)p[3] << 21;
                n = 4;
                if (p[3] >= 0x80) {
                    v = (v & 0xfffffff) | (uint64_t)p[4] << 28;
                    n = p[4] < 0x80 ? 5 : 0;
                }
            }
        }
    }
    *out = v;
    return n;
}

/* Read a LEB128 varint from [*pp, end). Returns 0 and advances *pp on
 * success, -1 on a varint that runs past end or is longer than 10 bytes. */
static inline int ms_get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    unsigned n;
    if (end - p >= 5 && (n = ms_varint_head5(p, out)) != 0) {
        *pp = p + n;
        return 0;
    }
    uint64_t v = 0;
    unsigned shift = 0;
    for (unsigned i = 0; i < MS_VARINT_MAX; i++) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        if (shift == 63 && b > 1)
            return -1;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pp = p;
            *out = v;
            return 0;
        }
        shift += 7;
    }
    return -1;
}

/* Reading a writer's own records back (summary mode's writer thread
 * follows and folds them, preload/summary.h): a varint known to lie whole
 * before the end of its buffer, unchecked. */
static inline const uint8_t *ms_rec_varint_in(const uint8_t *p, uint64_t *out)
{
    unsigned n = ms_varint_head5(p, out);
    if (n)
        return p + n;
    uint64_t v = *p & 0x7f;
    unsigned shift = 7;
    while (*p++ & 0x80) {
        v |= (uint64_t)(*p & 0x7f) << shift;
        shift += 7;
    }
    *out = v;
    return p;
}

static inline const uint8_t *ms_rec_skip_varint_in(const uint8_t *p)
{
    while (*p++ & 0x80) {
    }
    return p;
}

#endif
