/* Logs crafted to make the merge work or allocate by what they claim, not
 * by what they hold (docs/RELIABILITY.md, "Crafted logs"): a thread index
 * past the reader's limit, a world size no log bears out. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analysis/read/log_reader.h"
#include "../../analysis/reduce/reduce.h"
#include "synth.h"
#include "unit_util.h"

#define SEND "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0"

UNIT_TMPDIR_FIXTURE();

TestSuite(crafted_logs, .init = setup, .fini = teardown);

/* A complete log of `rank` of `size` with one send; its data block on
 * thread index `thread`. */
static void write_rank(int rank, int size, uint32_t thread)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    ms_file_header h;
    synth_header(&h, rank, size);
    synth s;
    cr_assert_eq(synth_open(&s, path, rank, size), 0);
    synth_region(&s, 0, 0, SEND);
    synth_event(&s, 0, 0, 3000, 4000);
    /* The thread index of the block is the crafted field. */
    cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_DATA, thread, s.buf[0], s.len[0]), 0);
    s.len[0] = 0;
    cr_assert_eq(synth_close(&s, 9000), 0);
}

static size_t count_with(char **v, size_t n, const char *a)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strstr(v[i], a) != NULL;
    return k;
}

Test(crafted_logs, a_thread_index_past_the_limit_is_corrupt_at_its_frame)
{
    uint32_t crafted[] = {1u << 16, 1u << 24, (1u << 28) - 1, 0xffffffffu};
    for (size_t i = 0; i < sizeof crafted / sizeof crafted[0]; i++) {
        write_rank(0, 1, crafted[i]);
        ms_run *run = NULL;
        cr_expect_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_BAD_INPUT, "thread %u", crafted[i]);
        const char *msg = run && run->errors && run->errors[0] ? run->errors[0] : "";
        cr_expect(strstr(msg, "rank-000000.zst") && strstr(msg, "thread index past the reader's limit") &&
                      strstr(msg, "byte offset"), "thread %u: %s", crafted[i], msg);
        ms_run_free(run);
        char path[512];
        snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
        unlink(path);
    }
}

Test(crafted_logs, the_last_thread_index_is_read)
{
    write_rank(0, 1, (1u << 16) - 1);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->ranks[0].events, 1);
    ms_run_free(run);
}

Test(crafted_logs, a_small_world_is_believed)
{
    write_rank(0, 4, 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->world_size, 4);
    ms_run_free(run);
}

Test(crafted_logs, a_world_no_log_bears_out_is_not_believed)
{
    write_rank(0, 2000000000, 0);
    write_rank(1, 2000000000, 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->world_claimed, 2000000000);
    cr_expect_eq(run->world_size, 64);
    cr_expect_eq(count_with(run->warnings, run->nwarnings,
                            "the headers claim a world of 2000000000 ranks, but only 2 logs are present: "
                            "the reports' world has 64 ranks"), 1);
    cr_expect_eq(count_with(run->warnings, run->nwarnings, "1999999998 of 2000000000 ranks have no log"), 1);
    ms_run_free(run);
}

Test(crafted_logs, a_world_with_half_its_logs_is_believed)
{
    /* Ranks 0-99 of 200: the highest rank and the floor of 64 say less;
     * twice the logs bears the claim out. */
    for (int r = 0; r < 100; r++)
        write_rank(r, 200, 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->world_size, 200);
    cr_expect_eq(count_with(run->warnings, run->nwarnings, "the headers claim"), 0);
    ms_run_free(run);
}
