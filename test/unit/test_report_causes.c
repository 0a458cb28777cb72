/* The root causes, the what-if and the late ranks in the text and HTML
 * reports (report_causes_text.c, html/report_html_causes.c, cause_words.h),
 * the root-cause rank of the wait-state rows (text, JSON, wait_sites.h)
 * and the critical path in words (report_waits.c), on a run made by hand:
 * four regions at four call sites, the analysis's results filled in. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/run_waits.h"
#include "../../analysis/report/html/html_parts.h"
#include "../../analysis/report/report.h"
#include "../../analysis/report/wait_sites.h"
#include "../../analysis/waits/waits.h"

#define MS 1000000ull

/* Region names, in the order of run->regions; the places sort by name. */
static const char *const NAMES[] = {
    "mpi:irecv kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0",
    "mpi:waitall kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0",
    "mpi:allreduce kind=collective bytes=800 peer=-1 root=-1 tag=-1 comm=0",
    "user:step",
};
/* Each region's one call site: function, file, line, location. */
static const char *const FUNCS[] = {"exchange", "exchange", "solve<3>", "main"};
static const int LINES[] = {80, 87, 30, 12};
static const char *const LOCS[] = {"exchange at /src/halo.c:80", "exchange at /src/halo.c:87",
                                   "solve<3> at /src/app.c:30", "main at /src/app.c:12"};
static const char *const FILES[] = {"/src/halo.c", "/src/halo.c", "/src/app.c", "/src/app.c"};

typedef struct made {
    ms_run run;
    ms_waits w;
    ms_region regions[4];
    ms_callsite sites[4];
    ms_site_place places[4];
    ms_wait_key keys[4];
    ms_wx_cause causes[5];
    ms_wx_fix fixes[2];
    ms_wx_late late[3];
    ms_wx_row site_rows[3], rows[3];
    ms_wx_path_rank path_ranks[2];
    ms_wx_path_region path_sites[2];
} made;

static made *make_run(void)
{
    made *m = calloc(1, sizeof *m);
    cr_assert_not_null(m);
    ms_run *run = &m->run;
    run->dir = "made";
    run->nregions = 4;
    run->regions = m->regions;
    for (int i = 0; i < 4; i++) {
        m->regions[i].name = (char *)NAMES[i];
        m->regions[i].is_mpi = ms_region_parse(NAMES[i], &m->regions[i].info);
        m->sites[i] = (ms_callsite){.region = (char *)NAMES[i], .rank = 0, .function = (char *)FUNCS[i],
                                    .file = (char *)FILES[i], .line = LINES[i], .text = "",
                                    .location = (char *)LOCS[i], .object = "", .calls = 1, .total_ns = 1};
        m->keys[i] = (ms_wait_key){.region = (uint32_t)i, .location = (char *)LOCS[i]};
    }
    /* Places by region name: allreduce, irecv, waitall, user:step. */
    static const int order[4] = {2, 0, 1, 3};
    for (int i = 0; i < 4; i++)
        m->places[i] = (ms_site_place){.row = &m->sites[order[i]], .ranks = 1, .calls = 1, .total_ns = 1};
    run->places = m->places;
    run->nplaces = 4;
    run->wait_keys = m->keys;
    run->nwait_keys = 4;
    run->mpi_ns = 1000 * MS;
    run->wait_ranks = 4;

    ms_waits *w = &m->w;
    run->waits = w;
    w->has_causes = 1;
    m->causes[0] = (ms_wx_cause){.rank = 3, .kind = MS_WX_CAUSE_COMPUTE, .region = 0, .region2 = 1,
                                 .delay_ns = 120 * MS, .direct_ns = 200 * MS, .indirect_ns = 290 * MS};
    m->causes[1] = (ms_wx_cause){.rank = 1, .kind = MS_WX_CAUSE_MPI, .region = 2, .region2 = MS_WX_NONE,
                                 .delay_ns = 5 * MS, .direct_ns = 8 * MS};
    m->causes[2] = (ms_wx_cause){.rank = 0, .kind = MS_WX_CAUSE_USER, .region = 3, .region2 = MS_WX_NONE,
                                 .delay_ns = 2 * MS, .direct_ns = 3 * MS, .indirect_ns = 1 * MS};
    m->causes[3] = (ms_wx_cause){.rank = 2, .kind = MS_WX_CAUSE_COMPUTE, .region = MS_WX_NONE, .region2 = 2,
                                 .delay_ns = 1 * MS, .direct_ns = 1 * MS};
    m->causes[4] = (ms_wx_cause){.rank = 2, .kind = MS_WX_CAUSE_COMPUTE, .region = 2, .region2 = MS_WX_NONE,
                                 .delay_ns = 500000, .direct_ns = 500000};
    w->causes = m->causes;
    w->ncauses = 5;
    w->ncauses_all = 7;
    w->cause_direct_ns = 213 * MS;
    w->cause_indirect_ns = 291 * MS;
    w->cause_unexplained_ns = 2100000;
    w->has_what_if = 1;
    w->run_ns = 2900 * MS;
    w->no_waiting_ns = 2100 * MS;
    m->fixes[0] = (ms_wx_fix){.rank = 3, .kind = MS_WX_CAUSE_COMPUTE, .from = MS_WX_FIX_CAUSE, .region = 0,
                              .region2 = 1, .removed_ns = 500 * MS, .saving_ns = 480 * MS};
    m->fixes[1] = (ms_wx_fix){.rank = 1, .kind = MS_WX_CAUSE_MPI, .from = MS_WX_FIX_PATH, .region = 2,
                              .region2 = MS_WX_NONE, .removed_ns = 10 * MS, .saving_ns = 0};
    w->fixes = m->fixes;
    w->nfixes = 2;
    m->late[0] = (ms_wx_late){.rank = 0, .ns = 4 * MS, .calls = 2};
    m->late[1] = (ms_wx_late){.rank = 1, .ns = 300 * MS, .calls = 4};
    m->late[2] = (ms_wx_late){.rank = 3, .ns = 96 * MS, .calls = 12};
    w->late = m->late;
    w->nlate = 3;
    w->wait_ns = 400 * MS;
    w->ninst = 18;
    /* Rank 0 waited at the Waitall for rank 1, whose lateness began at rank
     * 3; rank 2 at the Allreduce for rank 3, the root cause itself. */
    m->site_rows[0] = (ms_wx_row){.pattern = MS_WX_LATE_SENDER, .rank = 0, .region = 1, .instances = 4,
                                  .wait_ns = 300 * MS, .cause_rank = 1, .wait_best = 300 * MS, .root_rank = 3,
                                  .root_best = 250 * MS};
    m->site_rows[1] = (ms_wx_row){.pattern = MS_WX_WAIT_NXN, .rank = 2, .region = 2, .instances = 12,
                                  .wait_ns = 96 * MS, .cause_rank = 3, .wait_best = 96 * MS, .root_rank = 3,
                                  .root_best = 96 * MS};
    m->site_rows[2] = (ms_wx_row){.pattern = MS_WX_LATE_SENDER, .rank = 1, .region = 1, .instances = 2,
                                  .wait_ns = 4 * MS, .cause_rank = 0, .wait_best = 4 * MS, .root_rank = -1};
    memcpy(m->rows, m->site_rows, sizeof m->rows);
    w->site_rows = m->site_rows;
    w->nsite_rows = 3;
    w->rows = m->rows;
    w->nrows = 3;
    w->pattern_ns[MS_WX_LATE_SENDER] = 304 * MS;
    w->pattern_ns[MS_WX_WAIT_NXN] = 96 * MS;
    w->messages = 6;
    w->colls = 12;
    w->clock_violations = 22;
    w->clock_violation_max_ns = 39000;
    w->has_path = 1;
    w->path_ns = 2800 * MS;
    w->imbalance_ns = 400 * MS;
    m->path_ranks[0] = (ms_wx_path_rank){.rank = 1, .compute_ns = 700 * MS, .mpi_ns = 100 * MS};
    m->path_ranks[1] = (ms_wx_path_rank){.rank = 3, .compute_ns = 1900 * MS, .mpi_ns = 100 * MS};
    w->path_ranks = m->path_ranks;
    w->npath_ranks = 2;
    m->path_sites[0] = (ms_wx_path_region){.region = MS_WX_COMPUTE, .on_path_ns = 2600 * MS};
    m->path_sites[1] = (ms_wx_path_region){.region = 2, .on_path_ns = 200 * MS};
    w->path_sites = m->path_sites;
    w->npath_sites = 2;
    w->path_regions = m->path_sites;
    w->npath_regions = 2;
    return m;
}

static char *written(int (*fn)(FILE *, const ms_run *), const ms_run *run)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_not_null(fp);
    cr_assert_eq(fn(fp, run), 0);
    cr_assert_eq(fclose(fp), 0);
    return buf;
}

static const char *const CAUSES_TEXT =
    "\n"
    "Root causes: where the waiting began (the 5 of 7 places that led to the most waiting)\n"
    "  rank 3 · compute between MPI_Irecv at exchange (halo.c:80) and MPI_Waitall at exchange\n"
    "      (halo.c:87) · delayed others by 120 ms, which led to 490 ms of waiting (200 ms direct,\n"
    "      290 ms indirect)\n"
    "  rank 1 · MPI_Allreduce at solve<3> (app.c:30), not waiting · delayed others by 5 ms, which led\n"
    "      to 8 ms of waiting (8 ms direct, 0 ns indirect)\n"
    "  rank 0 · user region user:step at main (app.c:12) · delayed others by 2 ms, which led to 4 ms of\n"
    "      waiting (3 ms direct, 1 ms indirect)\n"
    "  rank 2 · compute between MPI_Init and MPI_Allreduce at solve<3> (app.c:30) · delayed others by\n"
    "      1 ms, which led to 1 ms of waiting (1 ms direct, 0 ns indirect)\n"
    "  rank 2 · compute between MPI_Allreduce at solve<3> (app.c:30) and MPI_Finalize · delayed others\n"
    "      by 500 µs, which led to 500 µs of waiting (500 µs direct, 0 ns indirect)\n"
    "  in all: 213 ms direct, 291 ms indirect\n"
    "  (delay: the time a rank took beyond the ranks that waited for it, before the point where they\n"
    "  met; direct: the waiting it caused there; indirect: the waiting passed on by those who waited)\n"
    "  2.1 ms of waiting had no cause found: the rank waited for took no longer than the waiter (clocks\n"
    "  differ between ranks)\n"
    "\n"
    "What a fix would save\n"
    "  (a projection on the recorded run: the place's time on that rank brought to the other ranks'\n"
    "  mean there (where no other rank has it, less by the delay found there) and the run walked again;\n"
    "  the waits that a change would create are not modelled)\n"
    "  with no waiting at all the run would take 2.1 s (of 2.9 s)\n"
    "  balancing rank 3's compute between MPI_Irecv at exchange (halo.c:80) and MPI_Waitall at exchange\n"
    "      (halo.c:87) would shorten the run by ~480 ms (of 2.9 s), taking 500 ms out of it (a top root\n"
    "      cause)\n"
    "  balancing rank 1's time in MPI_Allreduce at solve<3> (app.c:30) would not shorten the run,\n"
    "      taking 10 ms out of it (on the critical path)\n"
    "\n"
    "The late ranks: the waiting each rank caused in others (the late sender, the late root, the last\n"
    "one in), summed over the calls that waited for it\n"
    "   rank       caused   % of waiting   calls that waited\n"
    "      1       300 ms           75.0                   4\n"
    "      3        96 ms           24.0                  12\n"
    "      0         4 ms            1.0                   2\n";

Test(report_causes, text_sections_in_words)
{
    made *m = make_run();
    char *got = written(ms_report_causes_text, &m->run);
    cr_expect_str_eq(got, CAUSES_TEXT);
    free(got);
    free(m);
}

Test(report_causes, nothing_without_them)
{
    made *m = make_run();
    m->w.has_causes = 0;
    m->w.has_what_if = 0;
    m->w.nlate = 0;
    char *got = written(ms_report_causes_text, &m->run);
    cr_expect_str_eq(got, "");
    free(got);
    got = written(ms_html_causes, &m->run);
    cr_expect_str_eq(got, "");
    free(got);
    m->run.waits = NULL;
    got = written(ms_report_causes_text, &m->run);
    cr_expect_str_eq(got, "");
    free(got);
    free(m);
}

Test(report_causes, ten_at_most_and_no_unexplained_line)
{
    made *m = make_run();
    ms_wx_cause many[12];
    for (int i = 0; i < 12; i++)
        many[i] = (ms_wx_cause){.rank = i, .kind = MS_WX_CAUSE_MPI, .region = 2, .region2 = MS_WX_NONE,
                                .delay_ns = 1000, .direct_ns = 1000};
    m->w.causes = many;
    m->w.ncauses = 12;
    m->w.ncauses_all = 12;
    m->w.cause_unexplained_ns = 0;
    m->w.has_what_if = 0;
    char *got = written(ms_report_causes_text, &m->run);
    cr_expect_not_null(strstr(got, "(the 10 of 12 places that led to the most waiting)\n"));
    cr_expect_not_null(strstr(got, "  rank 9 · MPI_Allreduce"));
    cr_expect_null(strstr(got, "  rank 10 ·"));
    cr_expect_null(strstr(got, "no cause found"));
    cr_expect_null(strstr(got, "What a fix would save"));
    free(got);
    free(m);
}

static const char *const CAUSES_HTML =
    "<section id=\"sec-causes\"><h2>Root causes</h2><p class=\"note\">Where the waiting began: the 5 of 7 places "
    "that led to the most waiting.</p>\n"
    "<ol id=\"causes\" class=\"causes\">\n"
    "<li>rank 3 · compute between MPI_Irecv at exchange (halo.c:80) and MPI_Waitall at exchange (halo.c:87) · "
    "delayed others by 120 ms, which led to 490 ms of waiting (200 ms direct, 290 ms indirect)</li>\n"
    "<li>rank 1 · MPI_Allreduce at solve&lt;3&gt; (app.c:30), not waiting · delayed others by 5 ms, which led to "
    "8 ms of waiting (8 ms direct, 0 ns indirect)</li>\n"
    "<li>rank 0 · user region user:step at main (app.c:12) · delayed others by 2 ms, which led to 4 ms of waiting "
    "(3 ms direct, 1 ms indirect)</li>\n"
    "<li>rank 2 · compute between MPI_Init and MPI_Allreduce at solve&lt;3&gt; (app.c:30) · delayed others by "
    "1 ms, which led to 1 ms of waiting (1 ms direct, 0 ns indirect)</li>\n"
    "<li>rank 2 · compute between MPI_Allreduce at solve&lt;3&gt; (app.c:30) and MPI_Finalize · delayed others by "
    "500 µs, which led to 500 µs of waiting (500 µs direct, 0 ns indirect)</li>\n"
    "</ol>\n"
    "<p class=\"note\" id=\"causes-total\">In all: 213 ms direct, 291 ms indirect</p>\n"
    "<p class=\"note\" id=\"causes-terms\">(delay: the time a rank took beyond the ranks that waited for it, "
    "before the point where they met; direct: the waiting it caused there; indirect: the waiting passed on by "
    "those who waited)</p>\n"
    "<p class=\"note\" id=\"causes-unexplained\">2.1 ms of waiting had no cause found: the rank waited for took "
    "no longer than the waiter (clocks differ between ranks)</p>\n"
    "</section>\n"
    "<section id=\"sec-what-if\"><h2>What a fix would save</h2><p class=\"note\" id=\"what-if-terms\">Each line is a "
    "projection";

Test(report_causes, html_sections)
{
    made *m = make_run();
    char *got = written(ms_html_causes, &m->run);
    cr_expect(strncmp(got, CAUSES_HTML, strlen(CAUSES_HTML)) == 0, "got:\n%s", got);
    cr_expect_not_null(strstr(got, "<p id=\"what-if-bound\">with no waiting at all the run would take 2.1 s "
                                   "(of 2.9 s)</p>\n"));
    cr_expect_not_null(strstr(got, "<li>balancing rank 3&#39;s compute between MPI_Irecv at exchange (halo.c:80) "
                                   "and MPI_Waitall at exchange (halo.c:87) would shorten the run by ~480 ms (of "
                                   "2.9 s), taking 500 ms out of it (a top root cause)</li>\n"));
    cr_expect(strlen(got) > 0 && strcmp(got + strlen(got) - 16, "</ol></section>\n") == 0);
    free(got);
    free(m);
}

static const char *const WAITS_TEXT =
    "  rank 0 · MPI_Waitall at halo.c:87 · late sender · 4 calls · 300 ms · waited for rank 1 (root cause: rank 3)\n"
    "  rank 2 · MPI_Allreduce at app.c:30 · wait at N x N · 12 calls · 96 ms · waited for rank 3\n"
    "  rank 1 · MPI_Waitall at halo.c:87 · late sender · 2 calls · 4 ms · waited for rank 0\n";

static const char *const PATH_TEXT =
    "\n"
    "Critical path: 2.8 s, of it compute 2.6 s and MPI 200 ms\n"
    "  the chain of compute and MPI calls that set the run's length: walked back from the last rank to\n"
    "  enter MPI_Finalize, it moves, where a call waited, to the rank that call waited for\n"
    "  imbalance 400 ms: how much longer the critical path is than the average rank's busy time\n"
    "  (application time less waiting): a perfectly balanced run could end 400 ms sooner\n"
    "   rank     compute         MPI   of the path\n"
    "      1      700 ms      100 ms        28.6 %\n"
    "      3       1.9 s      100 ms        71.4 %\n"
    "  on the path  per call site\n"
    "        2.6 s  (compute: outside MPI calls and user regions)\n"
    "       200 ms  MPI_Allreduce at solve<3> (app.c:30)\n";

Test(report_causes, wait_rows_name_the_root_cause_and_the_path_reads)
{
    made *m = make_run();
    char *got = written(ms_report_waits_text, &m->run);
    const char *root = strstr(got, "\nRoot causes:"), *late = strstr(got, "\nThe late ranks:"),
               *waits = strstr(got, "\nWait states:");
    cr_assert(root && late && waits && root < late && late < waits, "root causes lead: %s", got);
    cr_expect_not_null(strstr(got, WAITS_TEXT), "got:\n%s", got);
    cr_expect_not_null(strstr(got, "  22 receives appear to end before their send began, by at most 39 µs, because "
                                   "clocks\n  differ between ranks; they were adjusted\n"));
    const char *path = strstr(got, "\nCritical path:");
    cr_assert_not_null(path);
    cr_expect_str_eq(path, PATH_TEXT);
    free(got);
    m->w.clock_violations = 1;
    got = written(ms_report_waits_text, &m->run);
    cr_expect_not_null(strstr(got, "  1 receive appears to end before its send began, by 39 µs, because clocks "
                                   "differ between\n  ranks; it was adjusted\n"));
    free(got);
    free(m);
}

Test(report_causes, json_rows_carry_the_root_rank)
{
    made *m = make_run();
    char *got = written(ms_report_waits_json, &m->run);
    cr_expect_not_null(strstr(got, "\"rank\":0,\"region\":\"mpi:waitall kind=other bytes=-1 peer=-1 root=-1 tag=-1 "
                                   "comm=0\",\"instances\":4,\"wait_s\":0.300000000,\"cause_rank\":1,"
                                   "\"root_rank\":3,"), "got:\n%s", got);
    cr_expect_not_null(strstr(got, "\"cause_rank\":0,\"root_rank\":-1,"));
    free(got);
    free(m);
}

/* Regions at several call sites of one row sum per site; their root cause
 * is the one of most time summed over them. */
Test(report_causes, the_root_of_most_time_over_a_sites_regions)
{
    made *m = make_run();
    ms_wx_row r[3] = {
        {.pattern = MS_WX_LATE_SENDER, .rank = 0, .region = 1, .instances = 1, .wait_ns = 10, .cause_rank = 1,
         .wait_best = 10, .root_rank = 2, .root_best = 6},
        {.pattern = MS_WX_LATE_SENDER, .rank = 0, .region = 1, .instances = 1, .wait_ns = 10, .cause_rank = 1,
         .wait_best = 10, .root_rank = 3, .root_best = 5},
        {.pattern = MS_WX_LATE_SENDER, .rank = 0, .region = 1, .instances = 1, .wait_ns = 10, .cause_rank = 1,
         .wait_best = 10, .root_rank = 3, .root_best = 4},
    };
    m->w.site_rows = r;
    m->w.nsite_rows = 3;
    ms_wait_site *g;
    size_t n;
    cr_assert_eq(ms_wait_sites_rows(&m->run, &g, &n), 0);
    cr_assert_eq(n, 1);
    cr_expect_eq(g[0].ns, 30);
    cr_expect_eq(g[0].cause, 1);
    cr_expect_eq(g[0].root, 3);
    cr_expect_eq(g[0].root_ns, 9);
    free(g);
    free(m);
}

static int html_wait_sites(FILE *fp, const ms_run *run)
{
    return ms_html_wait_sites(fp, run, run->waits);
}

Test(report_causes, html_rows_carry_the_root_rank)
{
    made *m = make_run();
    char *got = written(html_wait_sites, &m->run);
    cr_expect_not_null(strstr(got, "{\"rank\":0,\"pattern\":\"late_sender\",\"calls\":4,\"wait_ns\":300000000,"
                                   "\"cause\":1,\"root\":3,\"call\":\"MPI_Waitall\","), "got:\n%s", got);
    cr_expect_not_null(strstr(got, "{\"rank\":1,\"pattern\":\"late_sender\",\"calls\":2,\"wait_ns\":4000000,"
                                   "\"cause\":0,\"root\":-1,"));
    free(got);
    free(m);
}
