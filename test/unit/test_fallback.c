/*
 * The trace's fall-back on a full disk (preload/fallback.h) follows what it
 * writes lazily while the log has room: at the first write that lacks room
 * it reads back what the log holds (ms_log_read_back), then folds. Here a
 * real lack of room (the file size limit: EFBIG) cuts a thread's trace, and
 * the log read back by the merge's reader must name the gap's requests
 * where the trace goes on, whether the writer followed eagerly or lazily.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../analysis/read/log_reader.h"
#include "../../preload/fallback.h"
#include "read_back.h"
#include "synth.h"

/* ---- ms_log_read_back ---- */

typedef struct blocks {
    int n;
    uint16_t kind[8];
    uint32_t thread[8];
    size_t len[8];
    uint8_t first[8];
    int stop_after;   /* return 7 after this many blocks (0: never) */
} blocks;

static int collect(void *ctx, uint16_t kind, uint32_t thread, const uint8_t *p, size_t n)
{
    blocks *b = ctx;
    if (b->n < 8) {
        b->kind[b->n] = kind;
        b->thread[b->n] = thread;
        b->len[b->n] = n;
        b->first[b->n] = n ? p[0] : 0;
    }
    b->n++;
    return b->stop_after && b->n >= b->stop_after ? 7 : 0;
}

Test(fallback, read_back_gives_every_block_in_order)
{
    char path[512];
    synth sy;
    char *dir = synth_open_fresh(&sy, path, sizeof path);
    cr_assert_not_null(dir);
    uint8_t a[100], b[3000], c[1];
    memset(a, 0xa1, sizeof a);
    for (size_t i = 0; i < sizeof b; i++)
        b[i] = (uint8_t)(i * 7);
    c[0] = 0xc3;
    uint64_t after_header = sy.log.bytes_written;
    cr_assert_eq(ms_log_write_block(&sy.log, MS_BLOCK_DATA, 0, a, sizeof a), 0);
    uint64_t after_a = sy.log.bytes_written;
    cr_assert_eq(ms_log_write_block(&sy.log, MS_BLOCK_DATA, 2, b, sizeof b), 0);
    cr_assert_eq(ms_log_write_block(&sy.log, MS_BLOCK_CLOCK, 0, c, sizeof c), 0);

    blocks all = {0};
    cr_assert_eq(ms_log_read_back(&sy.log, 0, UINT64_MAX, collect, &all, NULL), 0);
    cr_assert_eq(all.n, 4);
    cr_expect_eq(all.kind[0], MS_BLOCK_HEADER);
    cr_expect_eq(all.kind[1], MS_BLOCK_DATA);
    cr_expect_eq(all.len[1], sizeof a);
    cr_expect_eq(all.first[1], 0xa1);
    cr_expect_eq(all.thread[2], 2);
    cr_expect_eq(all.len[2], sizeof b);
    cr_expect_eq(all.kind[3], MS_BLOCK_CLOCK);
    cr_expect_eq(all.first[3], 0xc3);

    blocks tail = {0};
    uint64_t reached = 0;
    cr_assert_eq(ms_log_read_back(&sy.log, after_a, UINT64_MAX, collect, &tail, &reached), 0);
    cr_expect_eq(tail.n, 2, "from the second data block on");
    cr_expect_eq(tail.thread[0], 2);
    cr_expect_eq(reached, sy.log.bytes_written);

    /* Up to an offset: the frames that start before it, whole. */
    blocks part = {0};
    cr_assert_eq(ms_log_read_back(&sy.log, 0, after_a - 1, collect, &part, &reached), 0);
    cr_expect_eq(part.n, 2, "the header and the first data block");
    cr_expect_eq(reached, after_a);

    blocks stopped = {.stop_after = 1};
    cr_expect_eq(ms_log_read_back(&sy.log, after_header, UINT64_MAX, collect, &stopped, NULL), 7, "the callback's value");
    cr_expect_eq(stopped.n, 1);

    /* Bytes that are not a frame where the log says its frames are. */
    uint8_t junk[16];
    memset(junk, 0x5a, sizeof junk);
    cr_assert_eq(pwrite(sy.log.fd, junk, sizeof junk, (off_t)sy.log.bytes_written), (ssize_t)sizeof junk);
    sy.log.bytes_written += sizeof junk;
    blocks bad = {0};
    errno = 0;
    cr_expect_eq(ms_log_read_back(&sy.log, after_a, UINT64_MAX, collect, &bad, NULL), -1);
    cr_expect_eq(errno, EIO);
    cr_expect_eq(bad.n, 2, "the frames before the junk");
    cr_expect_eq(synth_close(&sy, SYNTH_NO_END), 0);
    synth_rmdir(dir);
    free(dir);
}

/* ---- a lack of room, followed eagerly or lazily ---- */

#define T0 5000000ull
#define IRECV "mpi:irecv kind=point-to-point bytes=-1 peer=1 root=-1 tag=2 comm=0"
#define ISEND "mpi:isend kind=point-to-point bytes=8 peer=1 root=-1 tag=1 comm=0"
#define WAITALL "mpi:waitall kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"
#define H1 0xac000001u
#define H2 0xac000002u
#define W0 0x7ffc0000u
#define W1 0x7ffc0008u


typedef struct seen {
    rb_regions regions;
    char names[8][256];
    int nev;
} seen;

static int on_event(void *ctx, const ms_read_event *ev)
{
    seen *s = ctx;
    if (s->nev < 8 && ev->region < 64)
        strcpy(s->names[s->nev++], s->regions.name[ev->region]);
    return 0;
}

static void set_size_limit(rlim_t cur)
{
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &rl), 0);
    rl.rlim_cur = cur;
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
}

/* A fresh log (its directory returned, open as *dirfd) written through the
 * fall-back, which follows it once less than `below` bytes of room are left. */
static char *fb_open(synth *sy, char *path, size_t cap, uint64_t below, int *dirfd)
{
    char *dir = synth_open_fresh(sy, path, cap);
    cr_assert_not_null(dir);
    *dirfd = open(dir, O_DIRECTORY | O_RDONLY);
    cr_assert_geq(*dirfd, 0);
    ms_sum_clock clock = {.ticks = 0, .ticks_ref = 0, .ns_ref = 0, .ticks_per_ns = 1.0};
    cr_assert_eq(ms_fb_init(&clock, 0, 1u << 16, *dirfd, "rank-000000.zst", below), 0);
    return dir;
}

/* A thread's trace through the fall-back: an irecv written; then, with no
 * room, its completion and a new irecv and isend (same handle and address)
 * folded; then, with room again, their completion. The log read back. */
static void cut_trace(uint64_t below, seen *s, ms_read_result *res)
{
    char path[512];
    synth sy;
    int dirfd;
    char *dir = fb_open(&sy, path, sizeof path, below, &dirfd);

    synth_recs a = {.where = 0};
    a.p = a.b;
    a.p = ms_rec_region(a.p, 0, IRECV, strlen(IRECV));
    a.p = ms_rec_region(a.p, 1, ISEND, strlen(ISEND));
    a.p = ms_rec_region(a.p, 2, WAITALL, strlen(WAITALL));
    a.p = ms_rec_time(a.p, T0);
    synth_req(&a, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, H1, W0);
    a.p = ms_rec_event(a.p, 0, 10, 5);                  /* T0+10 .. T0+15 */
    cr_assert_eq(ms_fb_write(&sy.log, 0, a.b, (size_t)(a.p - a.b), 0), 0);
    cr_expect_eq(ms_fb_folded(), 0);

    /* No room: the file may not grow (EFBIG, not a signal). */
    signal(SIGXFSZ, SIG_IGN);
    set_size_limit((rlim_t)sy.log.bytes_written);
    synth_recs b = {.where = a.where};
    b.p = b.b;
    synth_done(&b, H1, W0, 1, 2, 8);
    b.p = ms_rec_event(b.p, 2, 10, 5);                  /* T0+25 .. T0+30 */
    synth_req(&b, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, H1, W0);
    b.p = ms_rec_event(b.p, 0, 70, 5);                  /* T0+100 .. T0+105 */
    synth_req(&b, MS_REQ_NEW, H2, W1);
    b.p = ms_rec_event(b.p, 1, 15, 5);                  /* T0+120 .. T0+125 */
    cr_assert_eq(ms_fb_write(&sy.log, 0, b.b, (size_t)(b.p - b.b), 0), 0, "folded, not lost");
    cr_expect_eq(ms_fb_folded(), 1);

    set_size_limit(RLIM_INFINITY);
    synth_recs c = {.where = b.where};
    c.p = c.b;
    synth_done(&c, H1, W0, 1, 2, 8);
    synth_done(&c, H2, W1, 0, 0, 0);
    c.p = ms_rec_event(c.p, 2, 75, 10);                 /* T0+200 .. T0+210 */
    cr_assert_eq(ms_fb_write(&sy.log, 0, c.b, (size_t)(c.p - c.b), 0), 0);

    uint8_t *buf = malloc(1u << 16);
    cr_assert_not_null(buf);
    cr_assert_eq(ms_fb_finish(&sy.log, T0 + 1000, buf), 0);
    ms_fb_free();
    free(buf);
    close(dirfd);
    sy.has_time[0] = 1;
    sy.events = 2;
    sy.last_end = T0 + 210;
    cr_assert_eq(synth_close(&sy, T0 + 1000), 0);

    memset(s, 0, sizeof *s);
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_callbacks cb = {.event = on_event, .region = rb_on_region};
    cr_assert_eq(ms_reader_read(r, path, &cb, s, res), MS_READ_OK, "%s", res->message);
    ms_reader_destroy(r);
    synth_rmdir(dir);
    free(dir);
}

static void expect_whole(uint64_t below)
{
    seen s;
    ms_read_result res;
    cut_trace(below, &s, &res);
    cr_expect_eq(res.summarized, 3, "the gap's calls, from the summary");
    cr_assert_eq(s.nev, 2);
    cr_expect_str_eq(s.names[0], IRECV);
    cr_expect_str_eq(s.names[1], "mpi:waitall kind=wait bytes=16 peer=1 root=-1 tag=-1 comm=0 request=mixed",
                     "the irecv and isend created in the gap, completed after it");
}

Test(fallback, followed_eagerly)
{
    expect_whole(UINT64_MAX);
}

Test(fallback, followed_lazily_by_reading_the_log_back)
{
    expect_whole(0);
}

/* ---- catching up in slices ---- */

#define STEP "user:step"

/* Region definitions from id *next on, with names zstd shrinks little,
 * filling about `bytes` of buf. */
static uint8_t *noisy_defs(uint8_t *p, size_t bytes, uint32_t *next, uint64_t *seed)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
    uint8_t *end = p + bytes;
    char name[200];
    while (p + MS_REGION_DEF_MAX < end) {
        for (size_t i = 0; i < sizeof name; i++) {
            *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
            name[i] = chars[*seed & 63u];
        }
        memcpy(name, "user:", 5);
        p = ms_rec_region(p, (*next)++, name, sizeof name);
    }
    return p;
}

struct step_seen {
    uint64_t *starts;
    int *n;
};

static int on_step(void *ctx, const ms_read_event *ev)
{
    struct step_seen *s = ctx;
    if (*s->n < 64)
        s->starts[*s->n] = ev->start_ns;
    ++*s->n;
    return 0;
}

/* The log grows past its first look at the room; then the room left is
 * below the bound: the writer reads its log back a slice after each write,
 * and a write that lacks room before it is done reads the rest back at
 * once. The call folded then is counted under its name, and the trace goes
 * on with its time. */
Test(fallback, catching_up_in_slices_then_at_the_first_lack_of_room)
{
    char path[512];
    synth sy;
    int dirfd;
    char *dir = fb_open(&sy, path, sizeof path, 3u << 20, &dirfd);
    size_t cap = 1u << 20;
    uint8_t *b = malloc(cap), *p;
    cr_assert_not_null(b);
    uint32_t next = 1;
    uint64_t seed = 88172645463325252ull;

    uint64_t first_look = sy.log.bytes_written;
    p = ms_rec_region(b, 0, STEP, strlen(STEP));
    p = ms_rec_time(p, T0);
    p = ms_rec_event(p, 0, 10, 5);                        /* T0+10 .. T0+15 */
    cr_assert_eq(ms_fb_write(&sy.log, 0, b, (size_t)(p - b), 0), 0);
    cr_expect_eq(ms_fb_following(), MS_FB_LAZY, "room enough");
    while (sy.log.bytes_written < first_look + (4u << 20)) {
        p = noisy_defs(b, 512u << 10, &next, &seed);
        cr_assert_eq(ms_fb_write(&sy.log, 0, b, (size_t)(p - b), 0), 0);
    }
    cr_expect_eq(ms_fb_following(), MS_FB_LAZY, "not looked at again yet");

    /* 600 KiB of room left, under the bound of 3 MiB. */
    signal(SIGXFSZ, SIG_IGN);
    set_size_limit((rlim_t)(sy.log.bytes_written + (600u << 10)));
    p = ms_rec_event(b, 0, 5, 5);                         /* T0+20 .. T0+25 */
    cr_assert_eq(ms_fb_write(&sy.log, 0, b, (size_t)(p - b), 0), 0);
    cr_expect_eq(ms_fb_following(), MS_FB_CATCHING, "one slice read back, more to read");

    /* Until a write lacks room: its event (T0+40 .. T0+45) is folded. */
    uint64_t t = 25;
    int written_events = 2;
    while (!ms_fb_folded()) {
        p = noisy_defs(b, 256u << 10, &next, &seed);
        p = ms_rec_event(p, 0, 15, 5);
        t += 20;
        cr_assert_eq(ms_fb_write(&sy.log, 0, b, (size_t)(p - b), 0), 0, "folded, not lost");
        written_events += !ms_fb_folded();
    }
    cr_expect_eq(ms_fb_following(), MS_FB_EAGER, "the rest read back before the fold");

    set_size_limit(RLIM_INFINITY);
    p = ms_rec_event(b, 0, 55, 5);
    cr_assert_eq(ms_fb_write(&sy.log, 0, b, (size_t)(p - b), 0), 0);
    uint64_t last = T0 + t + 60;
    cr_assert_eq(ms_fb_finish(&sy.log, last + 1000, b), 0);
    ms_fb_free();
    close(dirfd);
    sy.has_time[0] = 1;
    sy.events = (uint64_t)written_events + 1;
    sy.last_end = last;
    cr_assert_eq(synth_close(&sy, last + 1000), 0);

    uint64_t starts[64];
    int nstart = 0;
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_callbacks cb = {.event = on_step, .region = NULL};
    struct step_seen ss = {.starts = starts, .n = &nstart};
    ms_read_result res;
    cr_assert_eq(ms_reader_read(r, path, &cb, &ss, &res), MS_READ_OK, "%s", res.message);
    ms_reader_destroy(r);
    cr_expect_eq(res.summarized, 1, "the folded call, counted under its region");
    cr_expect_eq(res.events, (uint64_t)written_events + 1);
    cr_assert_eq(nstart, written_events + 1);
    cr_expect_eq(starts[0], T0 + 10);
    cr_expect_eq(starts[1], T0 + 20);
    cr_expect_eq(starts[nstart - 1], last - 5, "the trace goes on at its time after the gap");
    free(b);
    synth_rmdir(dir);
    free(dir);
}
