/* The known name closest to a misspelt MPISCOPE_ variable (preload/closest_name.c). */
#include <criterion/criterion.h>

#include "../../preload/closest_name.h"

static const char *const known[] = {
    "MPISCOPE_DIR", "MPISCOPE_MODE", "MPISCOPE_CUPTI", "MPISCOPE_LIKWID", "MPISCOPE_BUFFER_KB",
    "MPISCOPE_FLUSH_MS", "MPISCOPE_CALLSITE_DEPTH", "MPISCOPE_DISABLE", "MPISCOPE_VERBOSE",
    "MPISCOPE_WRITER_CPU", "MPISCOPE_TEST_CLOCK_SKEW",
};
#define NKNOWN (sizeof known / sizeof known[0])

static const char *closest(const char *name)
{
    return known[ms_closest_name(name, known, NKNOWN)];
}

Test(closest_name, distance)
{
    cr_expect_eq(ms_edit_distance("", ""), 0);
    cr_expect_eq(ms_edit_distance("MODE", "MODE"), 0);
    cr_expect_eq(ms_edit_distance("", "MODE"), 4);
    cr_expect_eq(ms_edit_distance("MODE", ""), 4);
    cr_expect_eq(ms_edit_distance("MDOE", "MODE"), 1);    /* two neighbours swapped */
    cr_expect_eq(ms_edit_distance("MOD", "MODE"), 1);     /* one left out */
    cr_expect_eq(ms_edit_distance("MOODE", "MODE"), 1);   /* one too many */
    cr_expect_eq(ms_edit_distance("MADE", "MODE"), 1);    /* one replaced */
    cr_expect_eq(ms_edit_distance("kitten", "sitting"), 3);
    cr_expect_eq(ms_edit_distance("abc", "ca"), 3);       /* a swap is not edited again */
    /* Names longer than 63 characters are compared on their first 63. */
    char a[100], b[100];
    memset(a, 'x', 99);
    memset(b, 'x', 99);
    a[99] = b[99] = 0;
    b[80] = 'y';
    cr_expect_eq(ms_edit_distance(a, b), 0);
    b[10] = 'y';
    cr_expect_eq(ms_edit_distance(a, b), 1);
}

Test(closest_name, misspelt_variables)
{
    cr_expect_str_eq(closest("MPISCOPE_MDOE"), "MPISCOPE_MODE");
    cr_expect_str_eq(closest("MPISCOPE_DISABLED"), "MPISCOPE_DISABLE");
    cr_expect_str_eq(closest("MPISCOPE_BUFFER_K"), "MPISCOPE_BUFFER_KB");
    cr_expect_str_eq(closest("MPISCOPE_FLUSHMS"), "MPISCOPE_FLUSH_MS");
    cr_expect_str_eq(closest("MPISCOPE_VERBOS"), "MPISCOPE_VERBOSE");
    cr_expect_str_eq(closest("MPISCOPE_CALLSITES_DEPTH"), "MPISCOPE_CALLSITE_DEPTH");
    cr_expect_str_eq(closest("MPISCOPE_DIRECTORY"), "MPISCOPE_DIR");
    cr_expect_str_eq(closest("MPISCOPE_TEST_CLOCK_SKEWS"), "MPISCOPE_TEST_CLOCK_SKEW");
    /* Far from everything: still the closest one. */
    cr_expect_str_eq(closest("MPISCOPE_X"), "MPISCOPE_DIR");
}

Test(closest_name, first_on_a_tie)
{
    static const char *const two[] = {"MPISCOPE_AB", "MPISCOPE_AC"};
    cr_expect_eq(ms_closest_name("MPISCOPE_AD", two, 2), 0);
    cr_expect_eq(ms_closest_name("MPISCOPE_AC", two, 2), 1);
}
