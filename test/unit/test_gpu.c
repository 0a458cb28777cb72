/*
 * GPU records (format version 4) through the reader and the reduction
 * (analysis/reduce/gpu.h): stream threads, launches charged to the innermost host
 * event holding them, busy time, dropped records; damaged GPU records.
 */
#include <criterion/criterion.h>

#include "../../analysis/reduce/gpu.h"
#include "../../analysis/read/log_reader.h"
#include "../../analysis/reduce/reduce.h"
#include "synth.h"

#define B 10000u   /* after init_start (1000) of the synthesized header */

static void gpu_stream(synth *s, int thread, uint32_t stream)
{
    s->len[thread] = (size_t)(ms_rec_gpu_stream(s->buf[thread] + s->len[thread], 0, 1, stream) - s->buf[thread]);
}

static void gpu_launch(synth *s, int thread, uint32_t host, uint64_t t)
{
    s->len[thread] = (size_t)(ms_rec_gpu_launch(s->buf[thread] + s->len[thread], host, t) - s->buf[thread]);
}

static const ms_gpu_origin *origin(const ms_gpu_rank *g, const char *name)
{
    for (size_t i = 0; i < g->norigins; i++)
        if (strcmp(g->origins[i].region, name) == 0)
            return &g->origins[i];
    cr_assert_fail("no origin %s", name);
    return NULL;
}

Test(gpu, launches_busy_and_dropped)
{
    char *dir = synth_tmpdir();
    cr_assert_not_null(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    /* The GPU stream first, out of time order, before the host events. */
    gpu_stream(&s, 2, 7);
    synth_region(&s, 2, 0, "cuda:kernel a()");
    synth_region(&s, 2, 1, "cuda:memcpy HtoD bytes=8");
    synth_region(&s, 2, 2, "cuda:kernel b()");
    gpu_launch(&s, 2, 1, B + 550);
    synth_event(&s, 2, 0, B + 700, B + 760);
    gpu_launch(&s, 2, 1, B + 250);
    synth_event(&s, 2, 0, B + 300, B + 350);
    gpu_launch(&s, 2, 1, B + 900);
    synth_event(&s, 2, 1, B + 950, B + 1100);
    gpu_launch(&s, 2, 0, 0);
    synth_event(&s, 2, 2, B + 1200, B + 1210);
    gpu_launch(&s, 2, 1, B + 1500);
    synth_event(&s, 2, 2, B + 1500, B + 1510);
    cr_assert_eq(synth_flush(&s, 2), 0);
    /* Host thread 0: outer [100, 1000] > inner [200, 400]; a barrier
     * [500, 600] directly in outer. */
    synth_region(&s, 0, 0, "inner");
    synth_region(&s, 0, 1, "outer");
    synth_region(&s, 0, 2, "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0");
    synth_event(&s, 0, 0, B + 200, B + 400);
    synth_event(&s, 0, 2, B + 500, B + 600);
    synth_event(&s, 0, 1, B + 100, B + 1000);
    /* CUPTI's own thread: dropped records. */
    s.len[3] = (size_t)(ms_rec_gpu_tool(s.buf[3]) - s.buf[3]);
    s.len[3] = (size_t)(ms_rec_gpu_dropped(s.buf[3] + s.len[3], 7) - s.buf[3]);
    s.len[3] = (size_t)(ms_rec_gpu_dropped(s.buf[3] + s.len[3], 2) - s.buf[3]);
    cr_assert_eq(synth_close(&s, B + 20000), 0);

    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->gpu);
    const ms_gpu_rank *g = &run->ranks[0].gpu;
    cr_assert_eq(g->streams, 1);
    cr_assert_eq(g->kernels, 4);
    cr_assert_eq(g->copies, 1);
    cr_assert_eq(g->memsets, 0);
    cr_assert_eq(g->kernel_ns, 50 + 60 + 10 + 10);
    cr_assert_eq(g->copy_ns, 150);
    cr_assert_eq(g->busy_ns, 280);
    cr_assert_eq(g->dropped, 9);
    cr_assert_eq(g->norigins, 5);
    cr_assert_eq(origin(g, "inner")->calls, 1);
    cr_assert_eq(origin(g, "inner")->gpu_ns, 50);
    cr_assert_eq(origin(g, "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0")->gpu_ns, 60);
    cr_assert_eq(origin(g, "outer")->gpu_ns, 150);
    cr_assert_eq(origin(g, "(unknown)")->gpu_ns, 10);
    cr_assert_eq(origin(g, "(none)")->gpu_ns, 10);
    /* The heaviest first. */
    cr_assert_str_eq(g->origins[0].region, "outer");
    cr_assert_eq(run->gpu->kernels, 4);
    cr_assert_eq(run->gpu->dropped, 9);
    cr_assert_eq(run->nwarnings, 1);
    cr_assert(strstr(run->warnings[0], "9 GPU activity records were dropped") != NULL, "%s", run->warnings[0]);
    /* GPU events are device time: outer's exclusive time is without the
     * barrier and inner only. */
    for (size_t i = 0; i < run->nregions; i++)
        if (strcmp(run->regions[i].name, "outer") == 0)
            cr_assert_eq(run->regions[i].excl_ns, 900 - 200 - 100);
    ms_run_free(run);
    synth_rmdir(dir);
    free(dir);
}

Test(gpu, no_gpu_records_no_gpu_section)
{
    char *dir = synth_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    synth_region(&s, 0, 0, "work");
    synth_event(&s, 0, 0, B, B + 10);
    cr_assert_eq(synth_close(&s, B + 100), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_null(run->gpu);
    cr_assert_eq(run->ranks[0].gpu.streams, 0);
    ms_run_free(run);
    synth_rmdir(dir);
    free(dir);
}

/* A GPU record with a value out of range makes the log corrupt. */
static ms_read_status read_one(const uint8_t *rec, size_t n)
{
    char *dir = synth_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    memcpy(s.buf[0], rec, n);
    s.len[0] = n;
    cr_assert_eq(synth_close(&s, B), 0);
    ms_reader *r = ms_reader_create();
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, path, NULL, NULL, &res);
    ms_reader_destroy(r);
    synth_rmdir(dir);
    free(dir);
    return st;
}

Test(gpu, damaged_records)
{
    uint8_t rec[64], *p;
    p = ms_rec_gpu_stream(rec, 0, 0, 0);
    cr_assert_eq(read_one(rec, (size_t)(p - rec)), MS_READ_OK);
    p = ms_put_varint(rec, ((uint64_t)MS_CTL_GPU_STREAM << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, 1ull << 40);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 0);
    cr_assert_eq(read_one(rec, (size_t)(p - rec)), MS_READ_CORRUPT);
    p = ms_rec_gpu_launch(rec, 1u << 20, 5);
    cr_assert_eq(read_one(rec, (size_t)(p - rec)), MS_READ_CORRUPT);
    p = ms_put_varint(rec, ((uint64_t)MS_CTL_GPU_LAUNCH << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, 1);
    cr_assert_eq(read_one(rec, (size_t)(p - rec)), MS_READ_CORRUPT);
    p = ms_put_varint(rec, ((uint64_t)8 << 2) | MS_REC_CONTROL);
    cr_assert_eq(read_one(rec, (size_t)(p - rec)), MS_READ_CORRUPT);
}
