/* Exclusive time (common/nesting.h): direct children per thread, events
 * that arrive out of end order, overlapping events, the memory bound; and
 * the reduction of synthesized logs with nested user regions (GPU regions
 * left out of the nesting). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/nesting.h"
#include "../../analysis/reduce/reduce.h"
#include "synth.h"

static uint64_t ev(ms_nest *n, uint32_t thread, uint64_t start, uint64_t end)
{
    uint64_t excl = UINT64_MAX;
    cr_assert_eq(ms_nest_event(n, thread, start, end, &excl), 0);
    return excl;
}

Test(nesting, direct_children_only)
{
    ms_nest n;
    ms_nest_init(&n);
    /* parent [0,100]: children c1 [10,20], c2 [30,60] with grandchild
     * [35,45], c3 [70,71]; then a sibling of the parent. */
    cr_assert_eq(ev(&n, 0, 10, 20), 10);
    cr_assert_eq(ev(&n, 0, 35, 45), 10);
    cr_assert_eq(ev(&n, 0, 30, 60), 20);
    cr_assert_eq(ev(&n, 0, 70, 71), 1);
    cr_assert_eq(ev(&n, 0, 0, 100), 100 - 10 - 30 - 1);
    cr_assert_eq(ev(&n, 0, 100, 130), 30);
    /* A grandparent claims the parent and its sibling, not the children
     * again. */
    cr_assert_eq(ev(&n, 0, 0, 200), 200 - 100 - 30);
    cr_assert_eq(n.inexact, 0);
    cr_assert_eq(n.unordered, 0);
    ms_nest_free(&n);
}

Test(nesting, equal_bounds_and_empty_events)
{
    ms_nest n;
    ms_nest_init(&n);
    /* A child that starts and ends with its parent, and a zero-length one. */
    cr_assert_eq(ev(&n, 0, 50, 50), 0);
    cr_assert_eq(ev(&n, 0, 50, 80), 30);
    cr_assert_eq(ev(&n, 0, 50, 80), 0);
    ms_nest_free(&n);
}

Test(nesting, threads_are_separate)
{
    ms_nest n;
    ms_nest_init(&n);
    cr_assert_eq(ev(&n, 1, 10, 20), 10);
    cr_assert_eq(ev(&n, 3, 12, 18), 6);
    cr_assert_eq(ev(&n, 0, 11, 19), 8);
    /* Thread 0's parent has only its own child. */
    cr_assert_eq(ev(&n, 0, 0, 100), 92);
    /* Thread 3's parent finds its child; thread 1's event is no child. */
    cr_assert_eq(ev(&n, 3, 5, 30), 19);
    ms_nest_free(&n);
}

Test(nesting, overlapping_events_are_not_children)
{
    ms_nest n;
    ms_nest_init(&n);
    /* a [0,10] and b [5,15] overlap: neither contains the other. */
    cr_assert_eq(ev(&n, 0, 0, 10), 10);
    cr_assert_eq(ev(&n, 0, 5, 15), 15 - 5);
    /* Both lie inside c. */
    cr_assert_eq(ev(&n, 0, 0, 20), 20 - 10 - 10);
    ms_nest_free(&n);
}

Test(nesting, out_of_order_events)
{
    ms_nest n;
    ms_nest_init(&n);
    cr_assert_eq(ev(&n, 0, 10, 20), 10);
    cr_assert_eq(ev(&n, 0, 30, 40), 10);
    /* Ends before the previous event: its own time, no children taken. */
    cr_assert_eq(ev(&n, 0, 12, 18), 6);
    cr_assert_eq(n.unordered, 1);
    /* And it is nobody's child. */
    cr_assert_eq(ev(&n, 0, 0, 50), 50 - 10 - 10);
    ms_nest_free(&n);
}

Test(nesting, many_children_are_claimed_exactly)
{
    ms_nest n;
    ms_nest_init(&n);
    uint64_t count = 3u * (MS_NEST_EXACT + MS_NEST_BUCKETS) + 7;
    for (uint64_t i = 0; i < count; i++)
        cr_assert_eq(ev(&n, 0, 100 + 10 * i, 100 + 10 * i + 4), 4);
    cr_assert_leq(n.threads[0].wcap, MS_NEST_EXACT);
    cr_assert_leq(n.threads[0].nold, MS_NEST_BUCKETS);
    cr_assert_gt(n.threads[0].bucket, 1);
    /* A parent of recent children is exact while older ones are bucketed. */
    uint64_t t = 100 + 10 * count;
    for (uint64_t i = 0; i < 100; i++)
        ev(&n, 0, t + 10 * i + 1, t + 10 * i + 5);
    cr_assert_eq(ev(&n, 0, t, t + 1000), 1000 - 100 * 4);
    /* The parent of them all, buckets included, is exact. */
    cr_assert_eq(ev(&n, 0, 50, t + 2000), t + 2000 - 50 - 4 * count - 1000);
    cr_assert_eq(n.inexact, 0);
    ms_nest_free(&n);
}

Test(nesting, parent_inside_a_bucket_is_counted)
{
    ms_nest n;
    ms_nest_init(&n);
    uint64_t count = MS_NEST_EXACT + 3u * MS_NEST_BUCKETS;
    for (uint64_t i = 0; i < count; i++)
        ev(&n, 0, 10 * i, 10 * i + 4);
    /* A parent that starts after the first child, which shares a bucket
     * with the next b - 1: the parent misses those. */
    uint64_t end = 10 * count;
    uint64_t excl = ev(&n, 0, 5, end);
    uint64_t exact = (end - 5) - 4 * (count - 1);
    cr_assert_eq(n.inexact, 1);
    cr_assert_gt(excl, exact);
    cr_assert_eq((excl - exact) % 4, 0);
    uint64_t b = (excl - exact) / 4 + 1;  /* events in the first bucket */
    cr_assert_leq(b, 2 * count / MS_NEST_BUCKETS + 2);
    /* An enclosing event claims the parent and that bucket: their time
     * overlaps by b - 1 children, and its exclusive time stops at zero. */
    uint64_t g = ev(&n, 0, 0, end + 10);
    cr_assert_eq(g, 15 > 4 * b ? 15 - 4 * b : 0);
    ms_nest_free(&n);
}

/* ---- through the reduction ---- */

#define KERNEL "cuda:kernel k"
#define ALLRED "mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0"

static const ms_region *region(const ms_run *run, const char *name)
{
    for (size_t i = 0; i < run->nregions; i++)
        if (strcmp(run->regions[i].name, name) == 0)
            return &run->regions[i];
    cr_assert_fail("no region %s", name);
    return NULL;
}

Test(nesting, reduce_sums_exclusive_time_per_rank)
{
    char *dir = synth_tmpdir();
    cr_assert_not_null(dir);
    for (int rank = 0; rank < 2; rank++) {
        char path[512];
        snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
        synth s;
        cr_assert_eq(synth_open(&s, path, rank, 2), 0);
        uint64_t k = (uint64_t)rank + 1;  /* rank 1's times are doubled */
        /* Thread 0: solve [100,1000] > step [200,600] > allreduce
         * [300,400]; a second allreduce [700,800] directly in solve. */
        synth_region(&s, 0, 0, ALLRED);
        synth_region(&s, 0, 1, "step");
        synth_region(&s, 0, 2, "solve");
        synth_region(&s, 0, 3, KERNEL);
        synth_event(&s, 0, 0, 300 * k, 400 * k);
        synth_event(&s, 0, 1, 200 * k, 600 * k);
        synth_event(&s, 0, 0, 700 * k, 800 * k);
        /* GPU time inside solve's span: no child of it. */
        synth_event(&s, 0, 3, 850 * k, 900 * k);
        synth_event(&s, 0, 2, 100 * k, 1000 * k);
        cr_assert_eq(synth_flush(&s, 0), 0);
        /* Thread 1: a step inside solve's time, on another thread: no
         * child of solve. */
        synth_region(&s, 1, 0, "step");
        synth_event(&s, 1, 0, 150 * k, 250 * k);
        cr_assert_eq(synth_flush(&s, 1), 0);
        cr_assert_eq(synth_close(&s, 2000 * k), 0);
    }
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    const ms_region *solve = region(run, "solve"), *step = region(run, "step"), *ar = region(run, ALLRED);
    for (size_t k = 0; k < 2; k++) {
        uint64_t f = k + 1;
        cr_assert_eq(solve->ranks[k].excl_ns, (900 - 400 - 100) * f);
        cr_assert_eq(step->ranks[k].excl_ns, (400 - 100 + 100) * f);
        cr_assert_eq(ar->ranks[k].excl_ns, 200 * f);
    }
    cr_assert_eq(solve->excl_ns, 400 * 3);
    cr_assert_eq(solve->total_ns, 900 * 3);
    cr_assert_eq(step->excl_ns, 400 * 3);
    cr_assert_eq(ar->excl_ns, ar->total_ns);
    cr_assert_eq(region(run, KERNEL)->excl_ns, 50 * 3);
    cr_assert_eq(run->nwarnings, 0);
    ms_run_free(run);
    synth_rmdir(dir);
    free(dir);
}
