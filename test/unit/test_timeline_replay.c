/* The replay of a run's timeline (analysis/report/timeline_replay.h) on a
 * synthesized run of two ranks: the calls in the log's order and thread by
 * thread, each thread's call index, the message records handed with the
 * MPI call they belong to, the window (ranks not read, calls outside its
 * time bounds delivered but not kept), and a report that leaves a rank
 * unread or ends the replay early. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/report/timeline_replay.h"
#include "synth.h"
#include "unit_util.h"

#define SEND "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=5 comm=0"
#define WAIT "mpi:wait kind=wait bytes=100 peer=1 root=-1 tag=6 comm=0 request=irecv"
#define STEP "user:step"

UNIT_TMPDIR_FIXTURE();

static void open_rank(synth *s, int rank)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    cr_assert_eq(synth_open(s, path, rank, 2), 0);
}

/* Rank 0: thread 1 (flushed first, so first in the file) makes two steps
 * at 9000 and 11200; thread 0 a send at 10000, a step at 11000 and a wait
 * at 12000 whose message record says it completed a receive of tag 6.
 * Rank 1: one step at 10000. */
static ms_run *reduce(void)
{
    synth s;
    open_rank(&s, 0);
    synth_region(&s, 1, 0, STEP);
    synth_event(&s, 1, 0, 9000, 9100);
    synth_event(&s, 1, 0, 11200, 11300);
    cr_assert_eq(synth_flush(&s, 1), 0);
    synth_region(&s, 0, 1, SEND);
    synth_region(&s, 0, 0, STEP);
    synth_region(&s, 0, 2, WAIT);
    synth_event(&s, 0, 1, 10000, 10500);
    synth_event(&s, 0, 0, 11000, 11500);
    synth_message(&s, 0, synth_op("irecv"), MS_MESSAGE_RECV, 0, 1, 6, 100, 10000);
    synth_event(&s, 0, 2, 12000, 12500);
    cr_assert_eq(synth_close(&s, 50000), 0);
    open_rank(&s, 1);
    synth_region(&s, 0, 0, STEP);
    synth_event(&s, 0, 0, 10000, 10100);
    cr_assert_eq(synth_close(&s, 50000), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    return run;
}

#define MAX_SEEN 16

/* What a report saw. */
typedef struct seen {
    size_t n;
    struct {
        int32_t rank;
        uint32_t thread;
        uint64_t index;
        char name[16];
        int64_t start, dur;
        int kept;
        size_t nmsgs;
        int64_t msg_tag;
        int mapped;
    } call[MAX_SEEN];
    int regions, ranks_done;
    int skip_rank;           /* rank left unread, or -1 */
    int stop_after;          /* rank_done ends the replay after this many, or 0 */
    ms_read_status last;
} seen;

static int on_rank(void *ctx, const ms_rank_info *in)
{
    seen *c = ctx;
    return in->rank == c->skip_rank ? 1 : 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len, const ms_region *g)
{
    (void)region;
    seen *c = ctx;
    cr_expect_eq(strlen(name), len);
    cr_expect(g && strcmp(g->name, name) == 0, "the run's region of %s", name);
    c->regions++;
    return 0;
}

static int on_call(void *ctx, const ms_replay_call *k)
{
    seen *c = ctx;
    cr_assert_lt(c->n, MAX_SEEN);
    __typeof__(c->call[0]) *s = &c->call[c->n++];
    s->rank = k->in->rank;
    s->thread = k->thread;
    s->index = k->index;
    snprintf(s->name, sizeof s->name, "%.*s", (int)(k->name_len < 8 ? k->name_len : 8), k->name);
    s->start = k->start;
    s->dur = k->dur;
    s->kept = k->kept;
    s->nmsgs = k->nmsgs;
    s->msg_tag = k->nmsgs ? k->msgs[0].tag : -1;
    s->mapped = k->run_region != NULL;
    return 0;
}

static int on_rank_done(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message)
{
    (void)in;
    (void)message;
    seen *c = ctx;
    c->last = st;
    c->ranks_done++;
    return c->stop_after && c->ranks_done >= c->stop_after ? 1 : 0;
}

static seen replay(const ms_run *run, int by_thread, int skip_rank, int stop_after)
{
    seen c = {.skip_rank = skip_rank, .stop_after = stop_after};
    const ms_replay_ops ops = {
        .by_thread = by_thread, .rank = on_rank, .region = on_region, .call = on_call, .rank_done = on_rank_done};
    cr_assert_eq(ms_replay_run(run, &ops, &c), 0);
    return c;
}

/* The calls seen, as "rank.thread#index" in order. */
static void expect_order(const seen *c, const char *want)
{
    char got[256] = "";
    for (size_t i = 0; i < c->n; i++) {
        size_t l = strlen(got);
        snprintf(got + l, sizeof got - l, "%s%d.%u#%lu", i ? " " : "", (int)c->call[i].rank,
                 (unsigned)c->call[i].thread, (unsigned long)c->call[i].index);
    }
    cr_expect_str_eq(got, want);
}

TestSuite(timeline_replay, .init = setup, .fini = teardown);

Test(timeline_replay, log_order)
{
    ms_run *run = reduce();
    seen c = replay(run, 0, -1, 0);
    expect_order(&c, "0.1#0 0.1#1 0.0#0 0.0#1 0.0#2 1.0#0");
    cr_expect_eq(c.regions, 4, "each rank's names once: 3 + 1");
    cr_expect_eq(c.ranks_done, 2);
    cr_expect_eq(c.last, MS_READ_OK);
    /* On the common clock from the run's origin, its earliest start. */
    cr_expect_eq(c.call[0].start, 0);
    cr_expect_eq(c.call[2].start, 1000);
    cr_expect_eq(c.call[2].dur, 500);
    cr_expect_eq(c.call[5].start, 1000);
    for (size_t i = 0; i < c.n; i++) {
        cr_expect(c.call[i].kept, "no window keeps call %zu", i);
        cr_expect(c.call[i].mapped, "call %zu has its run region", i);
    }
    /* The wait has its message record; the send, written before any, none. */
    cr_expect_str_eq(c.call[4].name, "mpi:wait");
    cr_expect_eq(c.call[4].nmsgs, 1);
    cr_expect_eq(c.call[4].msg_tag, 6);
    cr_expect_eq(c.call[2].nmsgs, 0);
    ms_run_free(run);
}

Test(timeline_replay, by_thread)
{
    ms_run *run = reduce();
    seen c = replay(run, 1, -1, 0);
    expect_order(&c, "0.0#0 0.0#1 0.0#2 0.1#0 0.1#1 1.0#0");
    cr_expect_eq(c.regions, 4, "the names in the first read only");
    cr_expect_str_eq(c.call[0].name, "mpi:send");
    cr_expect_eq(c.call[2].nmsgs, 1);
    cr_expect_eq(c.call[2].msg_tag, 6);
    cr_expect_eq(c.call[4].start, 2200);
    ms_run_free(run);
}

Test(timeline_replay, window)
{
    ms_run *run = reduce();
    ms_window w = MS_WINDOW_ALL;
    cr_assert_eq(ms_window_parse_ranks("0", &w), 0);
    w.timed = 1;
    w.from_ns = 2000;
    w.to_ns = 2500;
    run->window = &w;
    seen c = replay(run, 0, -1, 0);
    /* Rank 1 is not read; every call of rank 0 comes, two of them kept:
     * the step of thread 0 (2000..2500) and the second of thread 1
     * (2200..2300), not the send (1000..1500) nor the wait (3000..3500). */
    expect_order(&c, "0.1#0 0.1#1 0.0#0 0.0#1 0.0#2");
    cr_expect_eq(c.ranks_done, 1);
    const int kept[] = {0, 1, 0, 1, 0};
    for (size_t i = 0; i < c.n; i++)
        cr_expect_eq(c.call[i].kept, kept[i], "call %zu", i);
    run->window = NULL;
    ms_window_free(&w);
    ms_run_free(run);
}

Test(timeline_replay, rank_left_unread_and_early_end)
{
    ms_run *run = reduce();
    seen c = replay(run, 0, 0, 0);
    expect_order(&c, "1.0#0");
    cr_expect_eq(c.ranks_done, 2, "an unread rank is still done");
    cr_expect_eq(c.regions, 1);
    c = replay(run, 1, -1, 1);
    expect_order(&c, "0.0#0 0.0#1 0.0#2 0.1#0 0.1#1");
    cr_expect_eq(c.ranks_done, 1, "the replay ends where rank_done says");
    ms_run_free(run);
}
