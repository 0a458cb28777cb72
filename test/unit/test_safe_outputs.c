/* Outputs that other programs cannot misread (docs/RELIABILITY.md,
 * "Outputs"): CSV cells that a spreadsheet would take for a formula, bytes
 * that are not UTF-8, control characters on their way to a terminal. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/report/csv.h"
#include "../../analysis/report/report.h"
#include "../../analysis/report/safe_text.h"
#include "synth.h"
#include "unit_util.h"

UNIT_TMPDIR_FIXTURE();

TestSuite(safe_outputs, .init = setup, .fini = teardown);

static char *csv_of(const char *field)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_not_null(fp);
    ms_csv_field(fp, field);
    fclose(fp);
    return buf;
}

static void expect_csv(const char *field, const char *want)
{
    char *got = csv_of(field);
    cr_expect_str_eq(got, want, "field \"%s\"", field);
    free(got);
}

Test(safe_outputs, formula_cells_are_quoted_text)
{
    expect_csv("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    expect_csv("+1", "\"'+1\"");
    expect_csv("-2+3", "\"'-2+3\"");
    expect_csv("@SUM(A1)", "\"'@SUM(A1)\"");
    expect_csv("\tcmd", "\"'\tcmd\"");
    expect_csv("\rcmd", "\"'\rcmd\"");
    /* Elsewhere in a cell they mean nothing. */
    expect_csv("a=b", "a=b");
    expect_csv("mpi:send kind=point-to-point", "mpi:send kind=point-to-point");
    expect_csv("", "");
    expect_csv("a,b", "\"a,b\"");
}

Test(safe_outputs, invalid_utf8_becomes_the_replacement_character)
{
    expect_csv("a\xff" "b", "a\xef\xbf\xbd" "b");
    expect_csv("caf\xc3\xa9", "caf\xc3\xa9");
    expect_csv("\xc3", "\xef\xbf\xbd");
    expect_csv("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    expect_csv("=\xfe,", "\"'=\xef\xbf\xbd,\"");
}

Test(safe_outputs, no_control_character_reaches_a_terminal)
{
    char out[128];
    cr_expect_str_eq(ms_text_safe(out, sizeof out, "run=\x1b]0;pwned\x07\x1b[2J", MS_TEXT_CONTROLS),
                     "run=\\x1b]0;pwned\\x07\\x1b[2J");
    cr_expect_str_eq(ms_text_safe(out, sizeof out, "a\nb\\c\xc2\x9b" "d\xff", MS_TEXT_CONTROLS),
                     "a\\x0ab\\\\c\\u009bd\xef\xbf\xbd");
    cr_expect_str_eq(ms_text_safe(out, sizeof out, "a\nb\tc\rd", MS_TEXT_CONTROLS | MS_TEXT_KEEP_LINES),
                     "a\nb\tc\\x0dd");
    /* Cut at a character's end. */
    cr_expect_str_eq(ms_text_safe(out, 6, "ab\x1b" "cd", MS_TEXT_CONTROLS), "ab");
}

/* The text report's filter, written to in pieces that cut a UTF-8
 * sequence: the same as in one piece. */
Test(safe_outputs, the_filter_keeps_sequences_cut_between_writes)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *to = open_memstream(&buf, &len);
    cr_assert_not_null(to);
    FILE *f = ms_text_filter(to, MS_TEXT_CONTROLS | MS_TEXT_KEEP_LINES);
    cr_assert_not_null(f);
    setvbuf(f, NULL, _IONBF, 0);
    const char *parts[] = {"x \xe2", "\x94", "\x80 \x1b[31m", "\xf0\x9f", "\x98\x80\n", "\xe2"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        fputs(parts[i], f);
    cr_assert_eq(fclose(f), 0);
    fclose(to);
    cr_expect_str_eq(buf, "x \xe2\x94\x80 \\x1b[31m\xf0\x9f\x98\x80\n\xef\xbf\xbd");
    free(buf);
}

/* A region whose name is a formula with bytes that are not UTF-8, through
 * the real region table. */
Test(safe_outputs, a_crafted_region_name_in_the_csv)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    synth_region(&s, 0, 0, "=cmd|' /C calc'!A0\xff");
    synth_event(&s, 0, 0, 3000, 4000);
    cr_assert_eq(synth_close(&s, 9000), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    char *csv = report(run, ms_report_csv);
    cr_expect(strstr(csv, "\n\"'=cmd|' /C calc'!A0\xef\xbf\xbd\",") != NULL, "%s", csv);
    cr_expect(strstr(csv, "\xff") == NULL);
    free(csv);
    ms_run_free(run);
}
