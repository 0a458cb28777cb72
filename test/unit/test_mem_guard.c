/* The merge's memory guard (analysis/reduce/mem_guard.h, waits_estimate.h):
 * sizes as --mem-limit takes them, the events counted from the logs' end
 * records (or their sizes when cut short), and the verdict. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/mem_guard.h"
#include "../../analysis/reduce/waits_estimate.h"
#include "synth.h"

Test(mem_guard, sizes)
{
    const struct {
        const char *s;
        uint64_t v;
    } good[] = {
        {"0", 0}, {"4096", 4096}, {"100B", 100}, {"1K", 1024}, {"512M", 512ull << 20}, {"8G", 8ull << 30},
        {"1.5g", 3ull << 29}, {"2GiB", 2ull << 30}, {"1TB", 1ull << 40}, {"64k", 65536},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 1;
        cr_expect_eq(ms_mem_parse_size(good[i].s, &v), 0, "%s", good[i].s);
        cr_expect_eq(v, good[i].v, "%s: %llu", good[i].s, (unsigned long long)v);
    }
    const char *bad[] = {"", "M", "-1G", "1X", "1GG", "1 G", "nan", "1e30", "12parsecs"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        cr_expect_eq(ms_mem_parse_size(bad[i], &v), -1, "\"%s\" taken", bad[i]);
    }
}

Test(mem_guard, verdict)
{
    char why[200] = "";
    /* The streamed analysis does not grow with the events, only a little
     * with the logs; it saturates. */
    cr_expect_eq(ms_waits_mem_estimate(2000000000ull, 64), ms_waits_mem_estimate(1000, 64));
    cr_expect(ms_waits_mem_estimate(1000, 1024) > ms_waits_mem_estimate(1000, 64));
    cr_expect(ms_waits_mem_estimate(1000, 64) >= (40ull << 20), "about what was measured (54 MB in all)");
    cr_expect(ms_waits_mem_estimate(1000, 64) < (200ull << 20), "within the 200 MiB budget");
    cr_expect_eq(ms_waits_mem_estimate(UINT64_MAX, UINT64_MAX), UINT64_MAX);
    uint64_t need = ms_waits_mem_estimate(46300000, 2);
    cr_expect_eq(ms_mem_guard_exceeds(46300000, 2, need, why, sizeof why), 0, "at the limit");
    cr_expect_eq(ms_mem_guard_exceeds(46300000, 2, 0, why, sizeof why), 0, "no limit");
    cr_expect_eq(ms_mem_guard_exceeds(46300000, 2, 100ull << 20, why, sizeof why), 0, "bounded");
    cr_expect_eq(ms_mem_guard_exceeds(46300000, 2, 16ull << 20, why, sizeof why), 1);
    cr_expect(strstr(why, "46.3 M events") && strstr(why, "over --mem-limit 16.0 MiB"), "%s", why);
    /* The default: half of something, on a machine that says. */
    uint64_t def = ms_mem_default_limit();
    cr_expect(def > 0 && def < (1ull << 50), "default %llu", (unsigned long long)def);
}

Test(mem_guard, events_of_the_logs)
{
    char *dir = synth_tmpdir();
    cr_assert(dir);
    char a[512], b[512], c[512];
    snprintf(a, sizeof a, "%s/rank-000000.zst", dir);
    snprintf(b, sizeof b, "%s/rank-000001.zst", dir);
    snprintf(c, sizeof c, "%s/rank-000002.zst", dir);
    synth s;
    for (int r = 0; r < 3; r++) {
        cr_assert_eq(synth_open(&s, r == 0 ? a : r == 1 ? b : c, r, 3), 0);
        synth_region(&s, 0, 0, "mpi:barrier");
        int n = r == 0 ? 1000 : 250;
        for (int i = 0; i < n; i++)
            synth_event(&s, 0, 0, SYNTH_CLOCK_REF + 100 + 10 * (uint64_t)i, SYNTH_CLOCK_REF + 105 + 10 * (uint64_t)i);
        /* Rank 2's log is cut short: no end record. */
        cr_assert_eq(synth_close(&s, r == 2 ? SYNTH_NO_END : SYNTH_CLOCK_REF + 20000), 0);
    }
    struct stat st;
    cr_assert_eq(stat(c, &st), 0);
    const char *paths[] = {a, b, c};
    cr_expect_eq(ms_mem_log_events(paths, 2), 1250u, "from the end records");
    cr_expect_eq(ms_mem_log_events(paths, 3), 1250u + (uint64_t)st.st_size, "the cut log by its size");
    synth_rmdir(dir);
    free(dir);
}
