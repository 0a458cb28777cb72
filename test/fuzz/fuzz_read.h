/*
 * The shared body of the fuzz targets: read one in-memory file with the log
 * reader and check what the reader promises (analysis/read/log_reader.h) for
 * every input, well-formed or not:
 *
 *   - callbacks come in order: header once and first, end at most once and
 *     last; region indices are dense; events name a known region and end
 *     no earlier than they start; communicator members lie in the world;
 *     message records (version 5 only) have an op, flags, peer, tag, bytes
 *     and post time within the format's bounds;
 *   - status OK means a header and an end record were read;
 *   - every other status has a message that names the file, and says
 *     "byte offset" (corrupt, unsupported) or "truncated";
 *   - the offset reported lies within the file.
 *
 * A broken promise aborts, which the fuzzer (and the corpus replay of make
 * check) reports as a failure. The input is handed to the reader as a
 * memfd, through its /proc/self/fd path, so nothing touches the disk.
 */
#ifndef MPISCOPE_FUZZ_READ_H
#define MPISCOPE_FUZZ_READ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../analysis/read/log_reader.h"

typedef struct fuzz_state {
    int headers, ends;
    uint32_t regions;
    int32_t world;
    uint32_t version;
    uint64_t events;
    uint64_t messages;
} fuzz_state;

static void fuzz_check(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz: broken reader promise: %s (%s)\n", what, detail ? detail : "");
        abort();
    }
}

static int fuzz_on_header(void *ctx, const ms_log_meta *m)
{
    fuzz_state *s = ctx;
    fuzz_check(s->headers == 0 && s->ends == 0 && s->regions == 0 && s->events == 0,
               "header first and once", NULL);
    fuzz_check(m->header.size >= 1 && m->header.rank >= 0 && m->header.rank < m->header.size,
               "rank within size", NULL);
    fuzz_check(m->host && m->mpi_library && m->argv0 && m->run_dir && m->clock && m->run_id,
               "metadata strings set", NULL);
    s->headers++;
    s->world = m->header.size;
    s->version = m->header.version;
    return 0;
}

static int fuzz_on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    fuzz_state *s = ctx;
    fuzz_check(s->headers == 1 && s->ends == 0, "region inside the log", NULL);
    fuzz_check(region == s->regions, "dense region indices", NULL);
    fuzz_check(len <= MS_MAX_NAME && memchr(name, '\0', len) == NULL, "region name", NULL);
    s->regions++;
    return 0;
}

static int fuzz_on_event(void *ctx, const ms_read_event *ev)
{
    fuzz_state *s = ctx;
    fuzz_check(s->headers == 1 && s->ends == 0, "event inside the log", NULL);
    fuzz_check(ev->region < s->regions, "event of a known region", NULL);
    fuzz_check(ev->end_ns >= ev->start_ns && ev->end_ns <= (uint64_t)INT64_MAX, "event times", NULL);
    s->events++;
    return 0;
}

static int fuzz_on_comm(void *ctx, uint32_t thread, uint64_t id, const int32_t *ranks, uint32_t n)
{
    fuzz_state *s = ctx;
    (void)thread;
    (void)id;
    fuzz_check(s->headers == 1 && s->ends == 0, "communicator inside the log", NULL);
    fuzz_check(n <= (uint32_t)s->world, "communicator within the world", NULL);
    for (uint32_t i = 0; i < n; i++)
        fuzz_check(ranks[i] >= 0 && ranks[i] < s->world, "member within the world", NULL);
    return 0;
}

static int fuzz_on_message(void *ctx, const ms_read_message *m)
{
    fuzz_state *s = ctx;
    fuzz_check(s->headers == 1 && s->ends == 0, "message inside the log", NULL);
    fuzz_check(s->version >= 5, "message records from version 5 on", NULL);
    fuzz_check(m->op <= MS_MESSAGE_MAX_OP && (m->flags & ~(uint32_t)MS_MESSAGE_FLAGS) == 0, "message op and flags",
               NULL);
    fuzz_check(m->peer >= -1 && m->peer <= INT32_MAX && m->tag >= -1 && m->tag <= INT32_MAX && m->bytes >= -1,
               "message peer, tag and bytes", NULL);
    fuzz_check(m->post_ns <= (uint64_t)INT64_MAX && ((m->flags & MS_MSG_POSTED) || m->post_ns == 0),
               "message post time", NULL);
    s->messages++;
    return 0;
}

static int fuzz_on_end(void *ctx, const ms_end_record *e)
{
    fuzz_state *s = ctx;
    (void)e;
    fuzz_check(s->headers == 1 && s->ends == 0, "end once, after the header", NULL);
    s->ends++;
    return 0;
}

static const ms_read_callbacks fuzz_callbacks = {
    .header = fuzz_on_header,
    .region = fuzz_on_region,
    .event = fuzz_on_event,
    .comm = fuzz_on_comm,
    .end = fuzz_on_end,
    .message = fuzz_on_message,
};

/* Read `size` bytes as a log and check the outcome. */
static void fuzz_read(const uint8_t *data, size_t size)
{
    static ms_reader *reader;
    if (!reader) {
        reader = ms_reader_create();
        fuzz_check(reader != NULL, "reader created", NULL);
    }
    int fd = memfd_create("rank-000000.zst", MFD_CLOEXEC);
    fuzz_check(fd >= 0, "memfd", NULL);
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        fuzz_check(w > 0, "memfd write", NULL);
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    fuzz_state st;
    memset(&st, 0, sizeof st);
    ms_read_result res;
    ms_read_status rs = ms_reader_read(reader, path, &fuzz_callbacks, &st, &res);
    close(fd);

    fuzz_check(rs == res.status, "status returned and stored agree", NULL);
    fuzz_check(rs != MS_READ_STOPPED && rs != MS_READ_IO, "no stop, no I/O error", res.message);
    fuzz_check(res.offset <= size, "offset within the file", res.message);
    fuzz_check(res.events == st.events, "events counted as delivered", res.message);
    fuzz_check(res.has_header == (st.headers == 1) && res.has_end == (st.ends == 1), "header and end flags",
               res.message);
    fuzz_check(ms_reader_region_count(reader) == st.regions, "region count", res.message);
    if (rs == MS_READ_OK) {
        fuzz_check(st.headers == 1 && st.ends == 1, "a complete log has a header and an end", NULL);
        fuzz_check(res.message[0] == '\0', "no message when OK", res.message);
        return;
    }
    fuzz_check(strncmp(res.message, path, strlen(path)) == 0, "message names the file", res.message);
    if (rs == MS_READ_TRUNCATED)
        fuzz_check(strstr(res.message, "truncated") != NULL, "says truncated", res.message);
    else if (rs != MS_READ_NOMEM)
        fuzz_check(strstr(res.message, "byte offset") != NULL, "gives the byte offset", res.message);
}

#endif
