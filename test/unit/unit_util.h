/*
 * What the merge's unit tests share (Criterion): a fresh directory for each
 * test of a suite, and a report written into a string.
 *
 *   UNIT_TMPDIR_FIXTURE();                       at file scope: `dir`,
 *   TestSuite(name, .init = setup, .fini = teardown);   setup and teardown
 *   char *text = report(run, ms_report_csv);     free() it
 *   uint64_t x = unit_rnd();                     xorshift64, the same
 *                                                sequence in every run
 */
#ifndef MPISCOPE_TEST_UNIT_UTIL_H
#define MPISCOPE_TEST_UNIT_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../analysis/reduce/reduce.h"
#include "synth.h"

#define UNIT_TMPDIR_FIXTURE()                                                  \
    static char *dir;                                                          \
    static void setup(void)                                                    \
    {                                                                          \
        dir = synth_tmpdir();                                                  \
        cr_assert_not_null(dir);                                               \
    }                                                                          \
    static void teardown(void)                                                 \
    {                                                                          \
        synth_rmdir(dir);                                                      \
        free(dir);                                                             \
    }                                                                          \
    _Static_assert(1, "a fixture")

/* Marsaglia's xorshift64 from his example seed: test data that is the
 * same in every run. */
static uint64_t unit_rnd_state = 88172645463325252ull;
__attribute__((unused)) static uint64_t unit_rnd(void)
{
    unit_rnd_state ^= unit_rnd_state << 13;
    unit_rnd_state ^= unit_rnd_state >> 7;
    unit_rnd_state ^= unit_rnd_state << 17;
    return unit_rnd_state;
}

/* What fn writes for run, as a string. */
__attribute__((noinline, unused)) static char *report(const ms_run *run, int (*fn)(FILE *, const ms_run *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_not_null(fp);
    cr_assert_eq(fn(fp, run), 0);
    fclose(fp);
    return buf;
}

#endif
