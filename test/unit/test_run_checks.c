/* What the merge checks across the logs of a directory, and what it says
 * about a damaged one: the run identity, the message of a truncated log,
 * trailing bytes, a newer version (docs/RELIABILITY.md). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../analysis/reduce/reduce.h"
#include "synth.h"
#include "unit_util.h"

#define SEND "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0"
#define RUN_A "0123456789abcdef"
#define RUN_B "fedcba9876543210"

UNIT_TMPDIR_FIXTURE();

TestSuite(run_checks, .init = setup, .fini = teardown);

static void path_of(char *path, size_t cap, int file_rank)
{
    snprintf(path, cap, "%s/rank-%06d.zst", dir, file_rank);
}

/* A complete log of `rank` of `size`, in the file of its rank, with one
 * send event; run_id NULL: no run identity. end: write the end block. */
static void write_rank(int rank, int size, const char *run_id, int end)
{
    char path[512];
    path_of(path, sizeof path, rank);
    ms_file_header h;
    synth_header(&h, rank, size);
    synth s;
    cr_assert_eq(synth_open_run(&s, path, &h, "node0", run_id), 0);
    synth_region(&s, 0, 0, SEND);
    synth_event(&s, 0, 0, 3000, 4000 + (uint64_t)rank);
    cr_assert_eq(synth_flush(&s, 0), 0);
    synth_event(&s, 0, 0, 5000, 6000);
    cr_assert_eq(synth_close(&s, end ? 9000 : SYNTH_NO_END), 0);
}

static size_t count_with(char **v, size_t n, const char *a, const char *b)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strstr(v[i], a) && (!b || strstr(v[i], b));
    return k;
}

static int meta_run(void *ctx, const ms_log_meta *m)
{
    snprintf(ctx, 32, "%s", m->run_id);
    return 0;
}

Test(run_checks, the_reader_gives_the_run_identity)
{
    write_rank(0, 2, RUN_A, 1);
    write_rank(1, 2, NULL, 1);
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_callbacks cb = {.header = meta_run};
    char run[32] = "unset";
    char path[512];
    ms_read_result res;
    path_of(path, sizeof path, 0);
    cr_assert_eq(ms_reader_read(r, path, &cb, run, &res), MS_READ_OK, "%s", res.message);
    cr_expect_str_eq(run, RUN_A);
    path_of(path, sizeof path, 1);
    cr_assert_eq(ms_reader_read(r, path, &cb, run, &res), MS_READ_OK, "%s", res.message);
    cr_expect_str_eq(run, "", "a log without run=... has an empty run identity");
    ms_reader_destroy(r);
}

Test(run_checks, logs_of_one_run_merge)
{
    for (int rank = 0; rank < 3; rank++)
        write_rank(rank, 3, RUN_A, 1);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_expect_eq(run->nranks, 3);
    cr_expect_eq(run->nwarnings, 0, "%s", run->nwarnings ? run->warnings[0] : "");
    cr_expect_str_eq(run->ranks[2].run_id, RUN_A);
    ms_run_free(run);
}

Test(run_checks, logs_of_two_runs_are_an_error_naming_the_file)
{
    write_rank(0, 4, RUN_A, 1);
    write_rank(1, 4, RUN_A, 1);
    write_rank(2, 4, RUN_B, 1);
    write_rank(3, 4, RUN_A, 1);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_BAD_INPUT);
    cr_assert_eq(run->nerrors, 1);
    char path[512], first[512];
    path_of(path, sizeof path, 2);
    path_of(first, sizeof first, 0);
    cr_expect(strstr(run->errors[0], path) == run->errors[0], "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], "another run") != NULL, "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], "byte offset 0") != NULL, "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], "run=" RUN_B) != NULL, "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], first) != NULL, "%s", run->errors[0]);
    ms_run_free(run);
}

Test(run_checks, a_rank_claimed_by_two_runs_is_an_error)
{
    write_rank(0, 2, RUN_A, 1);
    write_rank(1, 2, RUN_A, 1);
    /* A stale log of rank 1 from another run, under another name. */
    char path[512], stale[512];
    path_of(path, sizeof path, 1);
    path_of(stale, sizeof stale, 5);
    ms_file_header h;
    synth_header(&h, 1, 2);
    synth s;
    cr_assert_eq(synth_open_run(&s, stale, &h, "node0", RUN_B), 0);
    cr_assert_eq(synth_close(&s, 9000), 0);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_BAD_INPUT);
    cr_expect_eq(count_with(run->errors, run->nerrors, stale, "another run"), 1);
    ms_run_free(run);
}

Test(run_checks, logs_without_a_run_identity_are_not_compared)
{
    write_rank(0, 3, RUN_A, 1);
    write_rank(1, 3, NULL, 1);
    write_rank(2, 3, RUN_A, 1);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->nranks, 3);
    cr_expect_str_eq(run->ranks[1].run_id, "");
    ms_run_free(run);
}

Test(run_checks, truncated_warning_says_what_was_used)
{
    write_rank(0, 2, RUN_A, 1);
    write_rank(1, 2, RUN_A, 0);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    char path[512];
    path_of(path, sizeof path, 1);
    cr_assert_eq(run->nwarnings, 1);
    const char *w = run->warnings[0];
    cr_expect(strstr(w, path) == w, "%s", w);
    cr_expect(strstr(w, "truncated: no end block") != NULL, "%s", w);
    cr_expect(strstr(w, "its readable part is used: 2 events in 3 checksummed frames before byte offset")
                  != NULL, "%s", w);
    cr_expect_eq(run->ranks[1].events, 2);
    ms_run_free(run);
}

Test(run_checks, missing_ranks_name_the_directory)
{
    write_rank(0, 3, RUN_A, 1);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    char want[600];
    snprintf(want, sizeof want, "%s: 2 of 3 ranks have no log (missing ranks: 1-2)", dir);
    cr_expect_eq(count_with(run->warnings, run->nwarnings, want, "covers the other ranks only"), 1);
    ms_run_free(run);
}

Test(run_checks, trailing_bytes_are_corrupt_at_their_offset)
{
    write_rank(0, 1, RUN_A, 1);
    char path[512];
    path_of(path, sizeof path, 0);
    FILE *fp = fopen(path, "ab");
    cr_assert_not_null(fp);
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fputs("0123456789", fp);
    fclose(fp);
    ms_reader *r = ms_reader_create();
    ms_read_result res;
    cr_assert_eq(ms_reader_read(r, path, NULL, NULL, &res), MS_READ_CORRUPT);
    char want[128];
    snprintf(want, sizeof want, "10 bytes of trailing data after the end block, from byte offset %ld", size);
    cr_expect(strstr(res.message, want) != NULL, "%s", res.message);
    cr_expect_eq(res.offset, (uint64_t)size);
    cr_expect(res.has_end);
    ms_reader_destroy(r);
}

Test(run_checks, newer_version_names_the_header_offset)
{
    char path[512];
    path_of(path, sizeof path, 0);
    ms_file_header h;
    synth_header(&h, 0, 1);
    h.version = MS_FORMAT_VERSION + 1;
    synth s;
    cr_assert_eq(synth_open_run(&s, path, &h, "node0", RUN_A), 0);
    cr_assert_eq(synth_close(&s, 9000), 0);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_BAD_INPUT);
    cr_assert_eq(run->nerrors, 1);
    cr_expect(strstr(run->errors[0], path) == run->errors[0], "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], "newer than this reader supports") != NULL, "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], "byte offset 0") != NULL, "%s", run->errors[0]);
    ms_run_free(run);
}
