/* Reduction of a synthesized run of three ranks, checked row by row, and
 * the run-level checks: missing, duplicate, truncated and corrupt logs. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/report/report.h"
#include "synth.h"
#include "unit_util.h"

#define INIT "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define FIN "mpi:finalize kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define SEND "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0"
#define RECV "mpi:recv kind=point-to-point bytes=8 peer=0 root=-1 tag=0 comm=0"
#define ALLRED "mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0"
#define STEP "user:step \"a\",b"

UNIT_TMPDIR_FIXTURE();

static void open_rank(synth *s, int rank, int size, int64_t clock_shift, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    ms_file_header h;
    synth_header(&h, rank, size);
    /* Each rank's tool clock is offset differently from real time. */
    h.realtime_ref_ns = SYNTH_REALTIME_REF + clock_shift;
    char host[16];
    snprintf(host, sizeof host, "node%d", rank / 2);
    cr_assert_eq(synth_open_with(s, path, &h, host), 0);
}

/* Tool-clock times; the common clock is shifted by 0, +500 and -300 ns for
 * ranks 0, 1 and 2. Rank 2 has no end block. */
static void write_run(void)
{
    synth s;
    open_rank(&s, 0, 3, 0, "rank-000000.zst");
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, SEND);
    synth_region(&s, 0, 2, ALLRED);
    synth_region(&s, 0, 3, STEP);
    synth_region(&s, 0, 4, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 3000, 4000);
    synth_event(&s, 0, 1, 5000, 8000);
    cr_assert_eq(synth_flush(&s, 0), 0);
    synth_event(&s, 0, 2, 10000, 12000);
    synth_event(&s, 0, 3, 12000, 20000);
    synth_event(&s, 0, 4, 30000, 30500);
    cr_assert_eq(synth_close(&s, 30000), 0);

    open_rank(&s, 1, 3, 500, "rank-000001.zst");
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, RECV);
    synth_region(&s, 0, 2, ALLRED);
    synth_region(&s, 0, 3, FIN);
    synth_region(&s, 1, 7, STEP);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 1, 7, 2500, 6500);
    synth_event(&s, 0, 1, 3000, 7000);
    synth_event(&s, 0, 2, 10000, 14000);
    synth_event(&s, 0, 3, 30000, 30200);
    cr_assert_eq(synth_close(&s, 30000), 0);

    open_rank(&s, 2, 3, -300, "rank-000002.zst");
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, ALLRED);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 10000, 16000);
    cr_assert_eq(synth_close(&s, SYNTH_NO_END), 0);
}

static const char *const expected_csv[] = {
    MS_REGIONS_CSV_HEADER,
    /* 2, 4, 6 us on ranks 0, 1, 2: std sqrt(8/3) us; p50 = p95 = p99 is the
     * middle value, 4 us, as the sketch's bucket value (within 1 %); rank 2
     * starts first and ends last on the common clock. */
    ALLRED ",allreduce,collective,8,-1,-1,-1,0,,3,3,1.2e-05,4e-06,1.63299316e-06,2e-06,6e-06,"
           "3.98473603e-06,3.98473603e-06,3.98473603e-06,6e-06,6e-06,50",
    /* Same total as allreduce: by name. 8 us on rank 0, 4 us on rank 1's
     * second thread, which starts first on the common clock. */
    "\"user:step \"\"a\"\",b\",,,,,,,,,2,2,1.2e-05,6e-06,2e-06,4e-06,8e-06,4e-06,4e-06,4e-06,4e-06,8e-06,"
    "33.3333333",
    RECV ",recv,point-to-point,8,0,-1,0,0,,1,1,4e-06,4e-06,0,4e-06,4e-06,4e-06,4e-06,4e-06,4e-06,4e-06,0",
    SEND ",send,point-to-point,8,1,-1,0,0,,1,2,4e-06,2e-06,1e-06,1e-06,3e-06,1e-06,1e-06,1e-06,1e-06,3e-06,0",
    INIT ",init,other,-1,-1,-1,-1,0,,3,3,3e-06,1e-06,0,1e-06,1e-06,1e-06,1e-06,1e-06,1e-06,1e-06,0",
    FIN ",finalize,other,-1,-1,-1,-1,0,,2,2,7e-07,3.5e-07,1.5e-07,2e-07,5e-07,2e-07,2e-07,2e-07,5e-07,2e-07,"
        "42.8571429",
};

static void check_lines(const char *got, const char *const *want, size_t n)
{
    const char *p = got;
    for (size_t i = 0; i < n; i++) {
        const char *nl = strchr(p, '\n');
        cr_assert_not_null(nl, "line %zu missing", i);
        cr_expect(strlen(want[i]) == (size_t)(nl - p) && strncmp(p, want[i], (size_t)(nl - p)) == 0,
                  "line %zu:\n got  %.*s\n want %s", i, (int)(nl - p), p, want[i]);
        p = nl + 1;
    }
    cr_expect_str_eq(p, "", "no more lines");
}

TestSuite(reduce, .init = setup, .fini = teardown);

Test(reduce, three_ranks_csv_rows_exactly)
{
    write_run();
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    char *csv = report(run, ms_report_csv);
    check_lines(csv, expected_csv, sizeof expected_csv / sizeof expected_csv[0]);
    free(csv);

    static const char *const expected_ranks[] = {
        MS_RANKS_CSV_HEADER,
        ALLRED ",0,1,2e-06,2e-06,0,2e-06,2e-06,2e-06,2e-06,2e-06",
        ALLRED ",1,1,4e-06,4e-06,0,4e-06,4e-06,4e-06,4e-06,4e-06",
        ALLRED ",2,1,6e-06,6e-06,0,6e-06,6e-06,6e-06,6e-06,6e-06",
        "\"user:step \"\"a\"\",b\",0,1,8e-06,8e-06,0,8e-06,8e-06,8e-06,8e-06,8e-06",
        "\"user:step \"\"a\"\",b\",1,1,4e-06,4e-06,0,4e-06,4e-06,4e-06,4e-06,4e-06",
        RECV ",1,1,4e-06,4e-06,0,4e-06,4e-06,4e-06,4e-06,4e-06",
        SEND ",0,2,4e-06,2e-06,1e-06,1e-06,3e-06,1e-06,1e-06,1e-06",
        INIT ",0,1,1e-06,1e-06,0,1e-06,1e-06,1e-06,1e-06,1e-06",
        INIT ",1,1,1e-06,1e-06,0,1e-06,1e-06,1e-06,1e-06,1e-06",
        INIT ",2,1,1e-06,1e-06,0,1e-06,1e-06,1e-06,1e-06,1e-06",
        FIN ",0,1,5e-07,5e-07,0,5e-07,5e-07,5e-07,5e-07,5e-07",
        FIN ",1,1,2e-07,2e-07,0,2e-07,2e-07,2e-07,2e-07,2e-07",
    };
    char *ranks = report(run, ms_report_ranks_csv);
    check_lines(ranks, expected_ranks, sizeof expected_ranks / sizeof expected_ranks[0]);
    free(ranks);
    ms_run_free(run);
}

Test(reduce, per_rank_times_and_run_header)
{
    write_run();
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 3);
    cr_expect_eq(run->world_size, 3);
    cr_expect_eq(run->nhosts, 2);
    cr_expect_str_eq(run->hosts[0], "node0");
    cr_expect_str_eq(run->hosts[1], "node1");
    cr_expect_eq(run->events, 13);

    /* MPI time: calls inside [init_end, finalize_start]; init and finalize
     * themselves are outside. */
    const ms_rank_info *r0 = ms_run_rank(run, 0), *r1 = ms_run_rank(run, 1), *r2 = ms_run_rank(run, 2);
    cr_assert(r0 && r1 && r2);
    cr_expect_eq(r0->app_ns, 28000);
    cr_expect_eq(r0->mpi_ns, 6000);
    cr_expect_eq(r0->wall_ns, 29000);
    cr_expect_eq(r0->finalized, 1);
    cr_expect_eq(r0->status, MS_READ_OK);
    cr_expect_eq(r1->app_ns, 28000);
    cr_expect_eq(r1->mpi_ns, 8000);
    cr_expect_eq(r1->threads, 2);
    cr_expect_str_eq(r1->host, "node0");
    cr_expect_eq(r1->pid, 4001);
    /* Rank 2 was cut short: app time runs to its last event. */
    cr_expect_eq(r2->status, MS_READ_TRUNCATED);
    cr_expect_eq(r2->has_end, 0);
    cr_expect_eq(r2->app_ns, 14000);
    cr_expect_eq(r2->mpi_ns, 6000);
    cr_expect_str_eq(r2->host, "node1");
    cr_expect_eq(run->wall_ns, 29000);
    cr_expect_eq(run->app_ns, 70000);
    cr_expect_eq(run->mpi_ns, 20000);
    cr_expect_float_eq(run->mpi_pct, 100.0 * 20000 / 70000, 1e-9);
    cr_expect_float_eq(run->mpi_pct_min, 100.0 * 6000 / 28000, 1e-9);
    cr_expect_float_eq(run->mpi_pct_max, 100.0 * 6000 / 14000, 1e-9);
    /* The earliest event: init on rank 2, at 1000 - 300 on the common clock. */
    cr_expect_eq(run->origin, SYNTH_REALTIME_REF - (int64_t)SYNTH_CLOCK_REF + 700);

    cr_assert_eq(run->nwarnings, 1);
    cr_expect(strstr(run->warnings[0], "rank-000002.zst") != NULL, "%s", run->warnings[0]);
    cr_expect(strstr(run->warnings[0], "truncated") != NULL, "%s", run->warnings[0]);
    cr_expect_eq(run->nerrors, 0);

    char *text = report(run, ms_report_text);
    cr_expect(strstr(text, "MPI time by call site") != NULL);
    cr_expect(strstr(text, "truncated") != NULL);
    /* 100 columns at most. */
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t cols = 0;
        for (char *c = line; c < nl; c++)
            cols += ((unsigned char)*c & 0xc0) != 0x80;
        cr_expect_leq(cols, 100, "%.*s", (int)(nl - line), line);
        line = nl + 1;
    }
    free(text);
    ms_run_free(run);
}

Test(reduce, result_does_not_depend_on_threads)
{
    write_run();
    char *first = NULL;
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        ms_run *run;
        cr_assert_eq(ms_reduce_dir(dir, jobs, &run), MS_REDUCE_OK);
        char *csv = report(run, ms_report_csv);
        char *json = report(run, ms_report_ranks_csv);
        size_t n = strlen(csv) + strlen(json) + 1;
        char *both = malloc(n + 1);
        snprintf(both, n + 1, "%s\n%s", csv, json);
        if (!first)
            first = both;
        else {
            cr_expect_str_eq(both, first, "jobs=%u", jobs);
            free(both);
        }
        free(csv);
        free(json);
        ms_run_free(run);
    }
    free(first);
}

static int json_report(FILE *fp, const ms_run *run)
{
    return ms_report_json(fp, run, "test");
}

Test(reduce, json_is_valid)
{
    write_run();
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    char *json = report(run, json_report);
    char path[512];
    snprintf(path, sizeof path, "%s/report.json", dir);
    FILE *fp = fopen(path, "w");
    fputs(json, fp);
    fclose(fp);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
             "assert len(d[\"regions\"])==6 and d[\"regions\"][1][\"name\"]==\"user:step \\\"a\\\",b\"; "
             "assert d[\"regions\"][1][\"operation\"] is None; "
             "assert [r[\"rank\"] for r in d[\"ranks\"]]==[0,1,2]; "
             "assert d[\"ranks\"][2][\"status\"]==\"truncated\"' %s",
             path);
    cr_expect_eq(system(cmd), 0, "%s", json);
    free(json);
    ms_run_free(run);
}

Test(reduce, missing_and_duplicate_ranks_are_warnings)
{
    synth s;
    open_rank(&s, 0, 6, 0, "rank-000000.zst");
    synth_region(&s, 0, 0, SEND);
    synth_event(&s, 0, 0, 3000, 4000);
    cr_assert_eq(synth_close(&s, 9000), 0);
    open_rank(&s, 2, 6, 0, "rank-000002.zst");
    synth_region(&s, 0, 0, SEND);
    synth_event(&s, 0, 0, 3000, 5000);
    cr_assert_eq(synth_close(&s, 9000), 0);
    /* A second log that says rank 2 under another name. */
    open_rank(&s, 2, 6, 0, "rank-000005.zst");
    synth_region(&s, 0, 0, SEND);
    synth_event(&s, 0, 0, 3000, 9000);
    cr_assert_eq(synth_close(&s, 9000), 0);

    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_expect_eq(run->nranks, 2);
    cr_expect_eq(run->regions[0].summary.calls, 2, "the duplicate is left out");
    cr_expect_eq(run->regions[0].total_ns, 3000);
    int name = 0, dup = 0, missing = 0;
    for (size_t i = 0; i < run->nwarnings; i++) {
        const char *w = run->warnings[i];
        name += strstr(w, "rank-000005.zst") && strstr(w, "file name says rank 5");
        dup += strstr(w, "duplicate log of rank 2") != NULL;
        missing += strstr(w, "4 of 6 ranks have no log (missing ranks: 1, 3-5)") != NULL;
    }
    cr_expect_eq(name, 1);
    cr_expect_eq(dup, 1);
    cr_expect_eq(missing, 1);
    ms_run_free(run);
}

Test(reduce, corrupt_log_is_an_error_naming_file_and_offset)
{
    write_run();
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000001.zst", dir);
    FILE *fp = fopen(path, "r+b");
    cr_assert_not_null(fp);
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, size / 2, SEEK_SET);
    int c = fgetc(fp);
    fseek(fp, size / 2, SEEK_SET);
    fputc(c ^ 0x55, fp);
    fclose(fp);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_BAD_INPUT);
    cr_assert_eq(run->nerrors, 1);
    cr_expect(strstr(run->errors[0], path) != NULL, "%s", run->errors[0]);
    cr_expect(strstr(run->errors[0], "byte offset") != NULL, "%s", run->errors[0]);
    ms_run_free(run);
}

Test(reduce, no_logs_is_a_usage_error)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_USAGE);
    cr_assert_eq(run->nerrors, 1);
    cr_expect(strstr(run->errors[0], "no rank-*.zst") != NULL, "%s", run->errors[0]);
    ms_run_free(run);
    cr_assert_eq(ms_reduce_dir("/nonexistent/mpiscope", 1, &run), MS_REDUCE_USAGE);
    cr_expect(strstr(run->errors[0], "no such directory") != NULL, "%s", run->errors[0]);
    ms_run_free(run);
}

Test(reduce, header_only_and_empty_logs)
{
    synth s;
    /* A rank that wrote its header and nothing else, and an empty file. */
    open_rank(&s, 0, 2, 0, "rank-000000.zst");
    cr_assert_eq(synth_close(&s, SYNTH_NO_END), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000001.zst", dir);
    FILE *fp = fopen(path, "w");
    fclose(fp);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->nranks, 1);
    cr_expect_eq(run->nregions, 0);
    cr_expect_eq(run->ranks[0].app_ns, 0);
    size_t truncated = 0;
    for (size_t i = 0; i < run->nwarnings; i++)
        truncated += strstr(run->warnings[i], "truncated") != NULL;
    cr_expect_eq(truncated, 2);
    char *text = report(run, ms_report_text);
    free(text);
    ms_run_free(run);
}
