/*
 * Reading one rank's log (see log_reader.h): the public API, and the
 * dispatch of each frame's block by kind and of each data block's records
 * by type. Events and time records, the hot path, are decoded here; the
 * other records by decode_*.c, the header block by log_header.c, the
 * frames by log_frames.c (log_reader_int.h).
 */
#include "log_reader_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { STATE_START, STATE_BODY, STATE_ENDED };

const char *ms_read_status_str(ms_read_status s)
{
    switch (s) {
    case MS_READ_OK: return "ok";
    case MS_READ_TRUNCATED: return "truncated";
    case MS_READ_CORRUPT: return "corrupt";
    case MS_READ_UNSUPPORTED: return "unsupported";
    case MS_READ_IO: return "unreadable";
    case MS_READ_NOMEM: return "out of memory";
    case MS_READ_STOPPED: return "stopped";
    }
    return "unknown";
}

ms_reader *ms_reader_create(void)
{
    ms_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->dctx = ZSTD_createDCtx();
    if (!r->dctx) {
        free(r);
        return NULL;
    }
    ms_strtab_init(&r->names);
    ms_sites_init(&r->sites);
    ms_idmap_init(&r->thread_slots);
    return r;
}

static void reset(ms_reader *r)
{
    for (size_t i = 0; i < r->nthreads; i++) {
        free(r->threads[i].dense);
        free(r->threads[i].pend);
        ms_idmap_free(&r->threads[i].ids);
    }
    ms_rd_requests_reset(r);
    r->nthreads = 0;
    ms_idmap_free(&r->thread_slots);
    ms_strtab_free(&r->names);
    r->nbinds = 0;
    ms_sites_clear(&r->sites);
    ms_cset_clear(&r->csets);
    free(r->meta_buf);
    r->meta_buf = NULL;
    memset(&r->meta, 0, sizeof r->meta);
    r->has_meta = 0;
    r->has_end_hint = 0;
    r->end_size = 0;
    r->version = 0;
    r->sync_seen = 0;
    r->ticks = 0;
    r->t0 = r->ns0 = 0;
    r->ns_per_tick = 1.0;
    r->rate_final = 0;
}

void ms_reader_destroy(ms_reader *r)
{
    if (!r)
        return;
    reset(r);
    ms_rd_requests_free(r);
    free(r->bind_region);
    free(r->bind_site);
    ms_sites_free(&r->sites);
    free(r->threads);
    free(r->in);
    free(r->out);
    free(r->members);
    free(r->world_members);
    free(r->sum_counts);
    ZSTD_freeDCtx(r->dctx);
    free(r);
}

uint32_t ms_reader_region_count(const ms_reader *r)
{
    return (uint32_t)ms_strtab_count(&r->names);
}

const char *ms_reader_region_name(const ms_reader *r, uint32_t region, size_t *len)
{
    if (region >= ms_strtab_count(&r->names))
        return NULL;
    if (len)
        *len = ms_strtab_len(&r->names, region);
    return ms_strtab_str(&r->names, region);
}

const ms_site_table *ms_reader_sites(const ms_reader *r)
{
    return &r->sites;
}

const ms_log_meta *ms_reader_meta(const ms_reader *r)
{
    return r->has_meta ? &r->meta : NULL;
}

/* ---- data blocks ---- */

static thread_state *thread_for(ms_reader *r, uint32_t thread)
{
    uint32_t i = ms_idmap_get(&r->thread_slots, thread);
    if (i != MS_IDMAP_NONE)
        return &r->threads[i];
    if (r->nthreads >= MS_READER_MAX_THREADS)
        return NULL;
    if (r->nthreads == r->threads_cap) {
        size_t cap = r->threads_cap ? r->threads_cap * 2 : 8;
        thread_state *t = realloc(r->threads, cap * sizeof *t);
        if (!t)
            return NULL;
        r->threads = t;
        r->threads_cap = cap;
    }
    if (ms_idmap_put(&r->thread_slots, thread, (uint32_t)r->nthreads) != 0)
        return NULL;
    thread_state *t = &r->threads[r->nthreads++];
    memset(t, 0, sizeof *t);
    t->thread = thread;
    ms_idmap_init(&t->ids);
    return t;
}

/* A control record of thread t (docs/FORMAT.md "Data blocks and records"). */
static ms_read_status parse_control(ms_reader *r, thread_state *t, uint64_t ctl, const uint8_t **pp,
                                    const uint8_t *end)
{
    switch (ctl) {
    case MS_CTL_REGION:
        return ms_rd_region_def(r, t, pp, end);
    case MS_CTL_TIME: {
        uint64_t v;
        if (get_varint(pp, end, &v) != 0)
            return ms_rd_corrupt_at(r, "time record runs past its block");
        if (v > MS_RD_MAX_TIME)
            return ms_rd_corrupt_at(r, "time out of range");
        t->cursor = v;
        t->has_time = 1;
        return MS_READ_OK;
    }
    case MS_CTL_COMM:
        return ms_rd_comm(r, t, pp, end);
    case MS_CTL_SITE:
        return ms_rd_site(r, t, pp, end);
    case MS_CTL_OBJECT:
        return ms_rd_object(r, pp, end);
    case MS_CTL_COUNTER_SET:
        return ms_rd_counter_set(r, t, pp, end);
    case MS_CTL_COUNTER_SAMPLE:
        return ms_rd_counter_sample(r, t, pp, end);
    case MS_CTL_GPU_STREAM:
    case MS_CTL_GPU_LAUNCH:
    case MS_CTL_GPU_DROPPED:
    case MS_CTL_GPU_TOOL:
        return ms_rd_gpu(r, t, (unsigned)ctl, pp, end);
    case MS_CTL_SUMMARY:
        return ms_rd_summary(r, t, pp, end);
    case MS_CTL_MESSAGE:
        return ms_rd_message(r, t, pp, end);
    case MS_CTL_FILE:
        return ms_rd_file(r, t, pp, end);
    case MS_CTL_REQUEST:
        return ms_rd_request(r, t, pp, end);
    case MS_CTL_COMM_ORIGIN:
        return ms_rd_comm_origin(r, t, pp, end);
    case MS_CTL_COMM_NAME:
        return ms_rd_comm_name(r, t, pp, end);
    default:
        return ms_rd_corrupt_at(r, "unknown control record");
    }
}

static ms_read_status parse_data(ms_reader *r, uint32_t thread, const uint8_t *p, size_t len)
{
    /* The index itself, not only the count of threads: the reports size
     * per-thread tables by it. */
    if (thread >= MS_READER_MAX_THREADS)
        return ms_rd_corrupt_at(r, "thread index past the reader's limit of 65536 threads");
    thread_state *t = thread_for(r, thread);
    if (!t)
        return r->nthreads >= MS_READER_MAX_THREADS ? ms_rd_corrupt_at(r, "more threads than a log may have")
                                                    : ms_rd_nomem(r);
    const uint8_t *end = p + len;
    int (*on_event)(void *, const ms_read_event *) = r->cb ? r->cb->event : NULL;
    ms_read_event ev = {.thread = thread};
    uint64_t nev = 0;
    ms_read_status st = MS_READ_OK;

    while (p < end) {
        uint64_t h;
        if (get_varint(&p, end, &h) != 0) {
            st = ms_rd_corrupt_at(r, "record runs past its block");
            break;
        }
        switch (h & 3u) {
        case MS_REC_EVENT: {
            uint64_t gap, dur;
            if (get_varint(&p, end, &gap) != 0 || get_varint(&p, end, &dur) != 0) {
                st = ms_rd_corrupt_at(r, "event record runs past its block");
                goto out;
            }
            uint32_t bound = region_of(t, h >> 2);
            if (bound == MS_IDMAP_NONE) {
                st = ms_rd_corrupt_at(r, "event of an undefined region");
                goto out;
            }
            if (!t->has_time) {
                st = ms_rd_corrupt_at(r, "event before the thread's first time record");
                goto out;
            }
            if (gap > MS_RD_MAX_TIME - t->cursor || dur > MS_RD_MAX_TIME - t->cursor - gap) {
                st = ms_rd_corrupt_at(r, "event time out of range");
                goto out;
            }
            ev.region = r->bind_region[bound];
            ev.site = r->bind_site[bound];
            ev.start_ns = to_ns(r, t->cursor + gap);
            ev.end_ns = to_ns(r, t->cursor + gap + dur);
            t->cursor += gap + dur;
            nev++;
            if (__builtin_expect(t->npend != 0, 0) && (st = ms_rd_requests_apply(r, t, &ev)) != MS_READ_OK)
                goto out;
            if (on_event && on_event(r->ctx, &ev) != 0) {
                st = ms_rd_stopped(r);
                goto out;
            }
            break;
        }
        case MS_REC_CONTROL: {
            /* Through a copy: p, whose address no call out of this file
             * sees, stays in a register for the events. */
            const uint8_t *q = p;
            st = parse_control(r, t, h >> 2, &q, end);
            p = q;
            if (st != MS_READ_OK)
                goto out;
            break;
        }
        default:
            st = ms_rd_corrupt_at(r, "reserved record type");
            goto out;
        }
    }
out:
    r->res->events += nev;
    return st;
}

/* ---- blocks, by kind ---- */

/* A spawned world's MPI_COMM_WORLD, read with the others as one run
 * (worlds.h): its members and its name, before the log's own records. */
static ms_read_status own_world(ms_reader *r)
{
    const ms_world *w = r->world;
    if (!w || w->index == 0 || !r->cb)
        return MS_READ_OK;
    int64_t id = ms_world_comm(w, 0);
    int32_t *m = malloc((size_t)w->size * sizeof *m);
    if (!m)
        return ms_rd_nomem(r);
    for (int32_t i = 0; i < w->size; i++)
        m[i] = w->offset + i;
    int stop = r->cb->comm && r->cb->comm(r->ctx, 0, (uint64_t)id, m, (uint32_t)w->size) != 0;
    free(m);
    char name[32];
    int n = snprintf(name, sizeof name, "world %" PRIu32, w->index);
    if (!stop && r->cb->comm_name && r->cb->comm_name(r->ctx, 0, (uint64_t)id, name, (uint32_t)n) != 0)
        stop = 1;
    return stop ? ms_rd_stopped(r) : MS_READ_OK;
}

static ms_read_status decode_block(ms_reader *r, const uint8_t *blk, size_t n, int *state)
{
    ms_block_header bh;
    memcpy(&bh, blk, sizeof bh);
    int first = *state == STATE_START;
    if (bh.magic != MS_BLOCK_MAGIC || (first && bh.kind != MS_BLOCK_HEADER)) {
        if (first)
            return ms_rd_fail(r, MS_READ_CORRUPT, r->frame_off,
                              "not an mpiscope log (the frame at byte offset %" PRIu64 " is not a header block)",
                              r->frame_off);
        return ms_rd_corrupt_at(r, "bad block magic");
    }
    if (bh.length != n - sizeof bh)
        return ms_rd_corrupt_at(r, "block length does not match the frame");
    if (bh.flags != 0)
        return ms_rd_corrupt_at(r, "unknown block flags");
    if (*state == STATE_ENDED)
        return ms_rd_corrupt_at(r, "block after the end block");
    const uint8_t *p = blk + sizeof bh;
    ms_read_status st;
    switch (bh.kind) {
    case MS_BLOCK_HEADER:
        if (!first)
            return ms_rd_corrupt_at(r, "second header block");
        if (bh.thread != 0)
            return ms_rd_corrupt_at(r, "header block with a thread index");
        st = ms_rd_parse_header(r, p, bh.length);
        if (st != MS_READ_OK)
            return st;
        r->res->has_header = 1;
        *state = STATE_BODY;
        if (r->cb && r->cb->header && r->cb->header(r->ctx, &r->meta) != 0)
            return ms_rd_stopped(r);
        return own_world(r);
    case MS_BLOCK_DATA:
        return parse_data(r, bh.thread, p, bh.length);
    case MS_BLOCK_END: {
        ms_end_record e;
        memset(&e, 0, sizeof e);
        if (bh.length != r->end_size || bh.thread != 0)
            return ms_rd_corrupt_at(r, "malformed end block");
        memcpy(&e, p, r->end_size);
        if (r->has_end_hint && memcmp(&e, &r->end_hint, sizeof e) != 0)
            return ms_rd_corrupt_at(r, "end block differs from the file's last frame (file changed while read?)");
        if (r->end_size == sizeof e && !r->rate_final)
            ms_rd_clock_pair(r, e.end_ticks, e.end_ns);
        *state = STATE_ENDED;
        r->res->has_end = 1;
        ms_end_record n = ms_rd_end_in_ns(r, &e);
        if (r->cb && r->cb->end && r->cb->end(r->ctx, &n) != 0)
            return ms_rd_stopped(r);
        return MS_READ_OK;
    }
    case MS_BLOCK_CLOCK: {
        ms_clock_sample cs;
        if (r->end_size != sizeof(ms_end_record) || bh.length != sizeof cs || bh.thread != 0)
            return ms_rd_corrupt_at(r, "malformed clock block");
        memcpy(&cs, p, sizeof cs);
        if (!r->rate_final)
            ms_rd_clock_pair(r, cs.ticks, cs.mono_ns);
        return MS_READ_OK;
    }
    case MS_BLOCK_SYNC: {
        ms_sync_sample ss;
        size_t want = r->version >= 9 ? sizeof ss : MS_SYNC_SAMPLE_V4_SIZE;
        if (r->version < 4 || bh.length != want || bh.thread != 0)
            return ms_rd_corrupt_at(r, "malformed sync block");
        memset(&ss, 0, sizeof ss);
        memcpy(&ss, p, want);
        /* The rank and size of the log's own world (worlds.h). */
        const ms_file_header *h = &r->meta.header;
        int32_t own = h->rank - (r->world ? r->world->offset : 0), size = r->world ? r->world->size : h->size;
        int peer_ok = r->version < 9 || (ss.peer >= 0 && ss.peer < size && ss.peer != own && ss.same_clock <= 1);
        int same_ok = !ss.same_clock || (ss.phase == MS_SYNC_INIT && ss.exchanges == 0 && ss.t_send == 0 &&
                                         ss.t_recv == 0 && ss.peer_mono_ns == 0);
        if (ss.phase > MS_SYNC_FINALIZE || (!ss.same_clock && ss.exchanges < 1) ||
            ss.exchanges > MS_SYNC_MAX_EXCHANGES || !peer_ok || !same_ok || ss.t_send > ss.t_recv ||
            ss.t_recv > MS_RD_MAX_TIME || ss.peer_mono_ns > MS_RD_MAX_TIME)
            return ms_rd_corrupt_at(r, "bad values in a sync block");
        if (r->sync_seen & (1u << ss.phase))
            return ms_rd_corrupt_at(r, "second sync block of one phase");
        r->sync_seen |= 1u << ss.phase;
        /* Consumers see the rank's times in CLOCK_MONOTONIC ns, like events. */
        if (!ss.same_clock) {
            ss.t_send = to_ns(r, ss.t_send);
            ss.t_recv = to_ns(r, ss.t_recv);
        }
        if (ss.t_recv < ss.t_send)
            ss.t_recv = ss.t_send;
        if (r->world)
            ss.peer += r->world->offset;
        if (r->cb && r->cb->sync && r->cb->sync(r->ctx, &ss) != 0)
            return ms_rd_stopped(r);
        return MS_READ_OK;
    }
    case MS_BLOCK_ENDING: {
        ms_ending_record e;
        size_t want = r->version >= 10 ? sizeof e : MS_ENDING_RECORD_V9_SIZE;
        if (r->version < 9 || bh.length != want || bh.thread != 0)
            return ms_rd_corrupt_at(r, "malformed ending block");
        memset(&e, 0, sizeof e);
        memcpy(&e, p, want);
        if (e.cause < MS_ENDING_BLOCKED || e.cause > MS_ENDING_ABORT || e.signal < 0 || e.signal > 128 ||
            e.ticks > MS_RD_MAX_TIME || e.call_since > MS_RD_MAX_TIME || e.idle_since > MS_RD_MAX_TIME ||
            e.call_op > 0xffff || (e.thread != UINT32_MAX && e.thread >= MS_READER_MAX_THREADS) ||
            e.req_stride > 64 || (e.req_count && !e.call_since))
            return ms_rd_corrupt_at(r, "bad values in an ending block");
        e.ticks = to_ns(r, e.ticks);
        e.call_comm = ms_world_comm(r->world, e.call_comm);
        if (e.call_since)
            e.call_since = to_ns(r, e.call_since);
        if (e.idle_since)
            e.idle_since = to_ns(r, e.idle_since);
        if (r->cb && r->cb->ending && r->cb->ending(r->ctx, &e) != 0)
            return ms_rd_stopped(r);
        return MS_READ_OK;
    }
    default:
        return ms_rd_corrupt_at(r, "unknown block kind");
    }
}

/* ---- the read ---- */

static ms_read_status read_stream(ms_reader *r, int fd)
{
    ms_rd_frames s;
    int state = STATE_START;
    ms_rd_frames_begin(r, &s, fd);
    for (;;) {
        const uint8_t *blk;
        size_t n;
        ms_read_status st = ms_rd_frames_next(r, &s, state == STATE_START, state == STATE_ENDED, &blk, &n);
        if (st != MS_READ_OK)
            return st;
        if (!blk)
            break;
        st = decode_block(r, blk, n, &state);
        if (st != MS_READ_OK)
            return st;
        ms_rd_frames_consumed(r, &s);
    }
    if (state == STATE_START)
        return ms_rd_fail(r, MS_READ_TRUNCATED, 0, "truncated: empty file");
    if (state != STATE_ENDED)
        return ms_rd_fail(r, MS_READ_TRUNCATED, r->frame_off,
                          "truncated: no end block (file ends at byte offset %" PRIu64 " after %" PRIu64 " frames)",
                          r->frame_off, r->res->frames);
    return MS_READ_OK;
}

ms_read_status ms_reader_read(ms_reader *r, const char *path, const ms_read_callbacks *cb,
                              void *ctx, ms_read_result *res)
{
    reset(r);
    memset(res, 0, sizeof *res);
    r->path = path;
    r->world = ms_world_of_path(path);
    r->cb = cb;
    r->ctx = ctx;
    r->res = res;
    r->frame_off = 0;

    /* O_NONBLOCK: a FIFO in place of a log must not hang the reader. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return ms_rd_fail(r, MS_READ_IO, 0, "cannot open: %s", strerror(errno));
    struct stat sb;
    ms_read_status st;
    if (fstat(fd, &sb) != 0) {
        st = ms_rd_fail(r, MS_READ_IO, 0, "cannot stat: %s", strerror(errno));
    } else if (!S_ISREG(sb.st_mode)) {
        st = ms_rd_fail(r, MS_READ_IO, 0, "not a regular file");
    } else {
        r->file_size = (uint64_t)sb.st_size;
        ms_rd_probe_end(r, fd, sb.st_size);
        st = read_stream(r, fd);
    }
    close(fd);
    res->threads = (uint32_t)r->nthreads;
    res->status = st;
    if (st == MS_READ_OK)
        res->message[0] = '\0';
    r->cb = NULL;
    r->ctx = NULL;
    r->res = NULL;
    return st;
}
