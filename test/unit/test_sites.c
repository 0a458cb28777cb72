/* MPI time per function and call site (analysis/reduce/sites.h) on a run
 * built by hand, and the readable names the reports give them
 * (analysis/report/names.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "../../analysis/reduce/run.h"
#include "../../analysis/reduce/sites.h"
#include "../../analysis/report/names.h"
#include "../../analysis/report/units.h"

/* ---- names ---- */

static void shorten(const char *name, int level, const char *want)
{
    char buf[256];
    ms_cxx_shorten(buf, sizeof buf, name, level);
    cr_expect_str_eq(buf, want, "level %d of %s", level, name);
}

Test(readable_names, cxx_levels)
{
    const char *f = "LAMMPS_NS::CommBrick::reverse_comm()";
    shorten(f, 0, f);
    shorten(f, 1, "LAMMPS_NS::CommBrick::reverse_comm");
    shorten(f, 2, "CommBrick::reverse_comm");
    shorten(f, 3, "reverse_comm");
    shorten("LAMMPS_NS::CommBrick::reverse_comm()+0x2bb", 2, "CommBrick::reverse_comm+0x2bb");
    shorten("std::vector<int, std::allocator<int> >::push_back(int const&) const", 1,
            "std::vector<int, std::allocator<int> >::push_back");
    shorten("std::vector<int, std::allocator<int> >::push_back(int const&) const", 2, "vector::push_back");
    shorten("(anonymous namespace)::exchange(double*)", 1, "(anonymous namespace)::exchange");
    shorten("Grid::operator()(int, int)", 1, "Grid::operator()");
    shorten("main", 3, "main");
    shorten("f<void (*)(int)>(int)", 1, "f<void (*)(int)>");
    shorten("f<void (*)(int)>(int)", 2, "f");
}

static ms_callsite site(const char *function, const char *file, int line, const char *object)
{
    return (ms_callsite){.function = (char *)function, .file = (char *)file, .line = line, .object = (char *)object,
                         .location = (char *)"x"};
}

Test(readable_names, site_labels)
{
    char buf[256];
    ms_callsite a = site("main", "/src/halo.c", 87, "/bin/halo");
    ms_site_label(buf, sizeof buf, &a, 0);
    cr_expect_str_eq(buf, "main (halo.c:87)");
    ms_callsite b = site("LAMMPS_NS::CommBrick::reverse_comm()+0x2bb", "liblammps.so.0+0x4a12bb", 0,
                         "/usr/lib/x86_64-linux-gnu/liblammps.so.0");
    ms_site_label(buf, sizeof buf, &b, 0);
    cr_expect_str_eq(buf, "LAMMPS_NS::CommBrick::reverse_comm()+0x2bb (liblammps.so.0)");
    /* Shortened before it is cut: the class and method stay whole. */
    ms_site_label(buf, sizeof buf, &b, 50);
    cr_expect_str_eq(buf, "CommBrick::reverse_comm+0x2bb (liblammps.so.0)");
    ms_site_label(buf, sizeof buf, &b, 40);
    cr_expect_str_eq(buf, "reverse_comm+0x2bb (liblammps.so.0)");
    /* Never cut: too narrow for any form gives the class and method. */
    ms_site_label(buf, sizeof buf, &b, 20);
    cr_expect_str_eq(buf, "CommBrick::reverse_comm+0x2bb (liblammps.so.0)");
    ms_callsite c = site("", "libx.so+0x1234", 0, "libx.so");
    ms_site_label(buf, sizeof buf, &c, 0);
    cr_expect_str_eq(buf, "libx.so+0x1234");
    ms_site_label(buf, sizeof buf, NULL, 0);
    cr_expect_str_eq(buf, "(no call site)");
    ms_callsite d = site("evil\x1b[31m", "a.c", 3, "a");
    ms_site_label(buf, sizeof buf, &d, 0);
    cr_expect_str_eq(buf, "evil?[31m (a.c:3)");
}

Test(readable_names, mpi_library_and_counts)
{
    char buf[128];
    ms_mpi_library_short(buf, sizeof buf,
                         "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022");
    cr_expect_str_eq(buf, "Open MPI 4.1.4");
    ms_mpi_library_short(buf, sizeof buf, "MPICH Version:      4.0.2\nMPICH Release date: ...");
    cr_expect_str_eq(buf, "MPICH 4.0.2");
    ms_mpi_library_short(buf, sizeof buf, "MPICH Version: 4.0.2 MPICH Release date: Thu Apr  7 12:34:45 CDT 2022");
    cr_expect_str_eq(buf, "MPICH 4.0.2");
    ms_mpi_library_short(buf, sizeof buf, "Intel(R) MPI Library 2021.6 for Linux* OS");
    cr_expect_str_eq(buf, "Intel(R) MPI Library 2021.6");
    ms_mpi_function(buf, sizeof buf, "allreduce");
    cr_expect_str_eq(buf, "MPI_Allreduce");
    ms_fmt_count(buf, sizeof buf, 23119445);
    cr_expect_str_eq(buf, "23,119,445");
    ms_fmt_count(buf, sizeof buf, 999);
    cr_expect_str_eq(buf, "999");
    ms_fmt_count(buf, sizeof buf, 1000);
    cr_expect_str_eq(buf, "1,000");
}

/* ---- sites ---- */

/* A region with the given calls and time per rank (index = rank). */
static void region(ms_region *g, const char *name, const uint64_t *calls, const uint64_t *ns, size_t nranks,
                   int lifecycle)
{
    memset(g, 0, sizeof *g);
    g->name = (char *)name;
    g->is_mpi = strncmp(name, "mpi:", 4) == 0;
    cr_assert_eq(ms_region_parse(name, &g->info), 1, "%s", name);
    g->ranks = calloc(nranks, sizeof *g->ranks);
    for (size_t r = 0; r < nranks; r++) {
        if (!calls[r])
            continue;
        ms_region_rank *p = &g->ranks[g->nranks++];
        p->rank_index = (uint32_t)r;
        p->stats.calls = calls[r];
        p->stats.total_ns = ns[r];
        p->window_ns = lifecycle ? 0 : ns[r];
        g->total_ns += ns[r];
        g->window_ns += p->window_ns;
    }
}

static const ms_site_row *find(const ms_mpi_sites *s, const char *op, const char *location)
{
    for (size_t i = 0; i < s->nsites; i++)
        if (strcmp(s->sites[i].op, op) == 0 &&
            (location ? s->sites[i].at && strcmp(s->sites[i].at->location, location) == 0 : !s->sites[i].at))
            return &s->sites[i];
    return NULL;
}

Test(sites, sums_over_messages_and_ranks)
{
    /* Two send regions (two peers) at one line, one of them also at a
     * second line; a barrier whose calls have no call site on rank 1;
     * MPI_Init outside the window. */
    ms_rank_info ranks[2] = {{.rank = 0}, {.rank = 1}};
    ms_region g[4];
    region(&g[0], "mpi:send kind=point-to-point bytes=100 peer=1 root=-1 tag=0 comm=0", (uint64_t[]){3, 2},
           (uint64_t[]){300, 600}, 2, 0);
    region(&g[1], "mpi:send kind=point-to-point bytes=8 peer=0 root=-1 tag=0 comm=0", (uint64_t[]){0, 4},
           (uint64_t[]){0, 400}, 2, 0);
    region(&g[2], "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0", (uint64_t[]){1, 1},
           (uint64_t[]){1000, 3000}, 2, 0);
    region(&g[3], "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0", (uint64_t[]){1, 1},
           (uint64_t[]){5000, 5000}, 2, 1);
    /* Call-site rows: sorted by region name, rank, time. */
    ms_callsite rows[] = {
        {.region = g[2].name, .rank = 0, .function = "main", .file = "a.c", .line = 9, .object = "a",
         .location = "main at a.c:9", .calls = 1, .total_ns = 1000},
        {.region = g[3].name, .rank = 0, .function = "main", .file = "a.c", .line = 1, .object = "a",
         .location = "main at a.c:1", .calls = 1, .total_ns = 5000},
        {.region = g[0].name, .rank = 0, .function = "main", .file = "a.c", .line = 5, .object = "a",
         .location = "main at a.c:5", .calls = 2, .total_ns = 200},
        {.region = g[0].name, .rank = 0, .function = "main", .file = "a.c", .line = 6, .object = "a",
         .location = "main at a.c:6", .calls = 1, .total_ns = 100},
        {.region = g[0].name, .rank = 1, .function = "main", .file = "a.c", .line = 5, .object = "a",
         .location = "main at a.c:5", .calls = 2, .total_ns = 600},
        {.region = g[1].name, .rank = 1, .function = "main", .file = "a.c", .line = 5, .object = "a",
         .location = "main at a.c:5", .calls = 4, .total_ns = 400},
    };
    size_t nrows = sizeof rows / sizeof rows[0];
    ms_callsites_sort(rows, nrows);
    ms_run run = {.nranks = 2, .ranks = ranks, .nregions = 4, .regions = g, .callsites = rows,
                  .ncallsites = nrows, .mpi_ns = 5300, .app_ns = 10600};
    ms_mpi_sites s;
    cr_assert_eq(ms_mpi_sites_build(&run, &s), 0);
    cr_expect_eq(s.has_wait, 0);
    cr_assert_eq(s.nsites, 4);
    const ms_site_row *a5 = find(&s, "send", "main at a.c:5");
    cr_assert(a5);
    cr_expect_eq(a5->calls, 8);
    cr_expect_eq(a5->total_ns, 1200);
    cr_expect_eq(a5->ranks, 2);
    cr_expect_eq(a5->bytes, 2 * 100 + 2 * 100 + 4 * 8);
    /* per rank 200 and 1000: max / mean - 1 */
    cr_expect_float_eq(a5->imbalance_pct, (1000.0 / 600.0 - 1) * 100, 1e-9);
    cr_assert(a5->per_rank);
    cr_expect_eq(a5->per_rank[0].rank, 0);
    cr_expect_eq(a5->per_rank[0].ns, 200);
    cr_expect_eq(a5->per_rank[1].rank, 1);
    cr_expect_eq(a5->per_rank[1].ns, 1000);
    cr_expect_float_eq(a5->mpi_pct, 100.0 * 1200 / 5300, 1e-9);
    cr_expect_float_eq(a5->app_pct, 100.0 * 1200 / 10600, 1e-9);
    const ms_site_row *a6 = find(&s, "send", "main at a.c:6");
    cr_assert(a6);
    cr_expect_eq(a6->calls, 1);
    cr_expect_eq(a6->ranks, 1);
    cr_expect_eq(a6->imbalance_pct, 0);
    const ms_site_row *b9 = find(&s, "barrier", "main at a.c:9");
    cr_assert(b9);
    cr_expect_eq(b9->calls, 1);
    cr_expect_eq(b9->bytes, -1);
    /* rank 1's barrier had no call site */
    const ms_site_row *bx = find(&s, "barrier", NULL);
    cr_assert(bx);
    cr_expect_eq(bx->calls, 1);
    cr_expect_eq(bx->total_ns, 3000);
    cr_assert_eq(bx->ranks, 1);
    cr_expect_eq(bx->per_rank[0].rank, 1);
    cr_expect_eq(bx->per_rank[0].ns, 3000);
    cr_expect_null(s.functions[0].per_rank);
    /* by time, largest first */
    cr_expect_eq(s.sites[0].total_ns, 3000);
    cr_expect_eq(s.sites[1].total_ns, 1200);
    /* functions: init apart */
    cr_assert_eq(s.nfunctions, 2);
    cr_expect_str_eq(s.functions[0].op, "barrier");
    cr_expect_eq(s.functions[0].total_ns, 4000);
    cr_expect_str_eq(s.functions[1].op, "send");
    cr_expect_eq(s.functions[1].calls, 9);
    cr_assert_eq(s.nlifecycle, 1);
    cr_expect_str_eq(s.lifecycle[0].op, "init");
    cr_expect_eq(s.lifecycle_ns, 10000);
    ms_mpi_sites_free(&s);
    for (int i = 0; i < 4; i++)
        free(g[i].ranks);
}
