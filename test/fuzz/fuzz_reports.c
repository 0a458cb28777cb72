/* Fuzz target: the report writers over a fuzzed log. The input is a whole
 * log file, as fuzz_log's; it becomes the one log of a run in a fresh
 * directory, which is reduced as the merge does; then the reports are
 * written: the text report (through the merge's terminal filter), the
 * region CSV and JSON, and for a trace --trace, --html and --otf2 (when
 * built), which read the log a second time. The promises:
 *
 *   - the reduction ends with one of its statuses, with a run;
 *   - every writer takes the run it is given (0; --otf2 0 or a warning, or
 *     an error with its message);
 *   - the text, CSV and JSON outputs are valid UTF-8, and the text report
 *     has no control character but its line breaks and tabs.
 *
 * A broken promise aborts. Outputs go to memory, the archive to a
 * directory removed after each input. */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/report/report.h"
#include "../../analysis/report/safe_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz: broken report promise: %s (%s)\n", what, detail ? detail : "");
        abort();
    }
}

/* Whether buf[0..n) is valid UTF-8; text: with no control character but
 * '\n' and '\t'. */
static int valid(const char *buf, size_t n, int text)
{
    const unsigned char *s = (const unsigned char *)buf;
    for (size_t i = 0; i < n;) {
        size_t k = ms_utf8_len(s + i, n - i);
        if (k == 0)
            return 0;
        if (text && k == 1 && (s[i] < 0x20 || s[i] == 0x7f) && s[i] != '\n' && s[i] != '\t')
            return 0;
        i += k;
    }
    return 1;
}

typedef int (*writer_fn)(FILE *, const ms_run *);

static int text_filtered(FILE *fp, const ms_run *run)
{
    FILE *f = ms_text_filter(fp, MS_TEXT_CONTROLS | MS_TEXT_KEEP_LINES);
    check(f != NULL, "filter", NULL);
    int rc = ms_report_text(f, run);
    return fclose(f) != 0 ? -1 : rc;
}

static int json_writer(FILE *fp, const ms_run *run)
{
    return ms_report_json(fp, run, "fuzz");
}

/* Run a writer into memory; utf8: check the output (2: as terminal text). */
static void write_report(const char *what, writer_fn fn, const ms_run *run, int utf8)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    check(fp != NULL, "memstream", what);
    int rc = fn(fp, run);
    check(fclose(fp) == 0, "memstream closed", what);
    check(rc == 0, "the writer takes the run", what);
    if (utf8)
        check(valid(buf, len, utf8 == 2), "valid UTF-8 without raw controls", what);
    free(buf);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static char dir[256];

/* The directory goes when the process ends (the replay, or the fuzzer). */
static void remove_dir(void)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/mpiscope-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        check(mkdtemp(dir) != NULL, "a directory for the log", dir);
        atexit(remove_dir);
        ms_reduce_set_waits(1);
    }
    char log[300], otf2[300];
    snprintf(log, sizeof log, "%s/rank-000000.zst", dir);
    snprintf(otf2, sizeof otf2, "%s/otf2", dir);
    FILE *fp = fopen(log, "wb");
    check(fp && fwrite(data, 1, size, fp) == size && fclose(fp) == 0, "the log written", log);

    ms_run *run = NULL;
    ms_reduce_status st = ms_reduce_dir(dir, 1, &run);
    check(st == MS_REDUCE_OK || st == MS_REDUCE_BAD_INPUT || st == MS_REDUCE_USAGE || st == MS_REDUCE_NOMEM,
          "a status of the reduction", NULL);
    if (st == MS_REDUCE_OK) {
        check(run != NULL, "a run", NULL);
        write_report("text", text_filtered, run, 2);
        write_report("csv", ms_report_csv, run, 1);
        write_report("json", json_writer, run, 1);
        if (run->summary_ranks == 0) {
            write_report("trace", ms_report_trace, run, 1);
            write_report("html", ms_report_html, run, 0);
            if (ms_report_otf2_built()) {
                char err[1024] = "";
                int rc = ms_report_otf2(otf2, run, err, sizeof err);
                check(rc >= 0 || err[0], "--otf2 says why it failed", NULL);
                nftw(otf2, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
            }
        }
    }
    ms_run_free(run);
    unlink(log);
    return 0;
}
