/*
 * The command line and the outputs of mpiscope-merge, shared by the serial
 * merge (merge_main.c) and the MPI merge (merge_mpi_main.c): the options,
 * and what is printed and written once a run is reduced (DESIGN section 6).
 * The reports come from the table of merge_reports.c; the other options
 * are here.
 */
#include "merge_cli.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../reduce/mem_guard.h"
#include "../reduce/reduce.h"
#include "../reduce/wait_facts.h"
#include "../reduce/world_setup.h"
#include "../read/worlds.h"
#include "../report/report.h"
#include "../report/out_file.h"
#include "../report/safe_text.h"
#include "../symbolize/symbolize_file.h"

#define VERSION MS_VERSION

const char *ms_merge_prog = "mpiscope-merge";

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2 };

/* Print nothing (the MPI merge's processes other than the first). */
static int quiet;

/* The column of the help texts in the usage text. */
#define HELP_COLUMN 20

/* A report's lines of the usage text: "  --OPTION ARG", padded to the help
 * column (else two spaces), then the help, its further lines indented to
 * the column. */
static void usage_report(FILE *fp, const ms_merge_report *r)
{
    const char *arg = ms_merge_report_arg(r);
    size_t n = strlen("  --") + strlen(r->option) + 1 + strlen(arg);
    fprintf(fp, "  --%s %s%*s", r->option, arg, n < HELP_COLUMN ? (int)(HELP_COLUMN - n) : 2, "");
    for (const char *h = r->help;;) {
        const char *nl = strchr(h, '\n');
        if (!nl) {
            fprintf(fp, "%s\n", h);
            return;
        }
        fprintf(fp, "%.*s\n%*s", (int)(nl - h), h, HELP_COLUMN, "");
        h = nl + 1;
    }
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: %s [options] DIR\n", ms_merge_prog);
    fputs("Reads every rank-*.zst log in DIR and reports on the run; with no output option,\n"
          "a text report goes to stdout.\n"
          "\n",
          fp);
    for (size_t i = 0; i < ms_merge_nreports; i++)
        usage_report(fp, &ms_merge_reports[i]);
    fputs(
          "  --peak-gflops X   the compute ceiling of the roofline, GFLOP/s (default: the\n"
          "                    largest observation, marked empirical)\n"
          "  --peak-gbs Y      the memory ceiling, GB/s (default: empirical, likewise)\n"
          "  --flops-metric NAME, --bandwidth-metric NAME  the counter metrics of the\n"
          "                    roofline (default: the first containing \"flop/s\", and the\n"
          "                    first containing \"bandwidth\" and \"/s\")\n"
          "  --from S, --to S  timeline outputs (--trace, --otf2, --events-csv, --spt,\n"
          "                    the HTML timeline) keep the calls inside this window,\n"
          "                    in seconds from the run's start\n"
          "  --ranks LIST      ... and on these world ranks only (0-3,7)\n"
          "  --with-spawned    the worlds the run spawned (DIR/spawn-K) too, as one run:\n"
          "                    ranks named world:rank (0:3, 1:0), messages between\n"
          "                    the worlds in the matrix and the wait states\n"
          "  -j, --jobs N      threads reading logs (default: one per CPU)\n"
          "  --no-waits        leave out the wait-state analysis and the critical path\n"
          "                    (their memory grows with the MPI calls of the trace)\n"
          "  --poll-gap S      polls of one loop at most S seconds apart wait as one\n"
          "                    call (default 0.002)\n"
          "  --mem-limit SIZE  leave them out (and say so) when they would take more\n"
          "                    than SIZE (512M, 8G; 0: no limit; default: half of the\n"
          "                    memory available, MemAvailable or the cgroup's room)\n"
          "  -h, --help        show this help\n"
          "  -V, --version     show the version\n"
          "FILE may be - for stdout.\n"
          "\n"
          "Exit status: 0 success (truncated logs are warnings), 1 bad usage,\n"
          "2 an input that is not an mpiscope log or is corrupt, or logs of two runs.\n",
          fp);
}

static int usage_error(const char *fmt, const char *arg)
{
    if (quiet)
        return EXIT_USAGE;
    fprintf(stderr, "%s: ", ms_merge_prog);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    return EXIT_USAGE;
}

/* A peak: a finite number > 0; else -1. */
static double parse_peak(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0.0) || v > 1e300)
        return -1.0;
    return v;
}

/* The timeline's bounds (--from, --to, --ranks): the run points to them
 * while its outputs are written. */
static ms_window window;

/* getopt_long's value for report i of ms_merge_reports: OPT_REPORT + i. */
enum { OPT_REPORT = 256 };

/* The options that are not reports. */
static const struct option other_opts[] = {
    {"peak-gflops", required_argument, NULL, 'F'},
    {"peak-gbs", required_argument, NULL, 'B'},
    {"flops-metric", required_argument, NULL, 'f'},
    {"bandwidth-metric", required_argument, NULL, 'b'},
    {"jobs", required_argument, NULL, 'j'},
    {"no-waits", no_argument, NULL, 'W'},
    {"with-spawned", no_argument, NULL, 'S'},
    {"mem-limit", required_argument, NULL, 'M'},
    {"poll-gap", required_argument, NULL, 'P'},
    {"from", required_argument, NULL, 's'},
    {"to", required_argument, NULL, 'e'},
    {"ranks", required_argument, NULL, 'r'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

int ms_merge_parse(int argc, char **argv, int be_quiet, ms_merge_opts *o)
{
    quiet = be_quiet;
    struct option longopts[MS_MERGE_REPORTS_MAX + sizeof other_opts / sizeof other_opts[0]];
    for (size_t i = 0; i < ms_merge_nreports; i++)
        longopts[i] = (struct option){ms_merge_reports[i].option, required_argument, NULL, OPT_REPORT + (int)i};
    memcpy(longopts + ms_merge_nreports, other_opts, sizeof other_opts);
    memset(o, 0, sizeof *o);
    ms_window_free(&window);
    window = MS_WINDOW_ALL;
    o->window = &window;
    ms_reduce_set_waits(1);
    ms_wait_facts_set_poll_gap(MS_WX_POLL_GAP_NS);
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":j:hV", longopts, NULL)) != -1) {
        if (c >= OPT_REPORT && (size_t)(c - OPT_REPORT) < ms_merge_nreports) {
            o->report[c - OPT_REPORT] = optarg;
            continue;
        }
        switch (c) {
        case 'F':
            if ((o->roof.peak_gflops = parse_peak(optarg)) <= 0.0)
                return usage_error("--peak-gflops wants a positive number of GFLOP/s, not \"%s\"", optarg);
            break;
        case 'B':
            if ((o->roof.peak_gbs = parse_peak(optarg)) <= 0.0)
                return usage_error("--peak-gbs wants a positive number of GB/s, not \"%s\"", optarg);
            break;
        case 'S':
            o->with_spawned = 1;
            break;
        case 'W':
            ms_reduce_set_waits(0);
            o->no_waits = 1;
            break;
        case 'M':
            if (ms_mem_parse_size(optarg, &o->mem_limit) != 0)
                return usage_error("--mem-limit wants a size such as 512M or 8G (0: no limit), not \"%s\"", optarg);
            o->mem_limit_set = 1;
            break;
        case 'P': {
            int64_t ns;
            if (ms_window_parse_seconds(optarg, &ns) != 0 || ns < 0)
                return usage_error("--poll-gap wants seconds (0 or more), not \"%s\"", optarg);
            ms_wait_facts_set_poll_gap(ns);
            break;
        }
        case 's':
        case 'e':
            if (ms_window_parse_seconds(optarg, c == 's' ? &window.from_ns : &window.to_ns) != 0)
                return usage_error(c == 's' ? "--from wants seconds from the run's start (0 or more), not \"%s\""
                                            : "--to wants seconds from the run's start (0 or more), not \"%s\"",
                                   optarg);
            window.timed = 1;
            break;
        case 'r': {
            int e = ms_window_parse_ranks(optarg, &window);
            if (e == -2) {
                if (!quiet)
                    fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
                return EXIT_INPUT;
            }
            if (e != 0)
                return usage_error("--ranks wants world ranks and ranges such as 0-3,7, not \"%s\"", optarg);
            break;
        }
        case 'f':
            o->roof.flops_metric = optarg;
            break;
        case 'b':
            o->roof.bandwidth_metric = optarg;
            break;
        case 'j': {
            char *end;
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || v < 1 || v > 256)
                return usage_error("-j wants a number of threads from 1 to 256, not \"%s\"", optarg);
            o->jobs = (unsigned)v;
            break;
        }
        case 'h':
            if (!quiet)
                usage(stdout);
            return EXIT_OK;
        case 'V':
            if (!quiet)
                printf("%s %s\nbuilt with: otf2 %s, libdw %s\n", ms_merge_prog, VERSION,
                       ms_report_otf2_built() ? "yes" : "no", ms_symfile_reads_debug_info ? "yes" : "no");
            return EXIT_OK;
        case ':':
            return usage_error("option %s needs an argument", argv[optind - 1]);
        default:
            if (optopt) {
                char opt[3] = {'-', (char)optopt, '\0'};
                return usage_error("unknown option %s", opt);
            }
            return usage_error("unknown option %s", argv[optind - 1]);
        }
    }
    for (size_t i = 0; i < ms_merge_nreports; i++) {
        const ms_merge_report *r = &ms_merge_reports[i];
        if (o->report[i] && r->built && !r->built()) {
            if (!quiet)
                fprintf(stderr, "%s: --%s: not built (%s)\n", ms_merge_prog, r->option, r->not_built);
            return EXIT_USAGE;
        }
    }
    if (window.to_ns < window.from_ns) {
        char both[80];
        snprintf(both, sizeof both, "%.9g < %.9g", window.to_ns / 1e9, window.from_ns / 1e9);
        return usage_error("--to is before --from (%s)", both);
    }
    if (optind >= argc)
        return usage_error("%s", "no log directory given");
    if (optind + 1 < argc)
        return usage_error("one log directory only; extra argument \"%s\"", argv[optind + 1]);
    o->dir = argv[optind];
    /* Every process of the MPI merge reads the same worlds. */
    if (o->with_spawned && ms_worlds_read(o->dir) != 0) {
        if (!quiet)
            fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
        return EXIT_INPUT;
    }
    return -1;
}

/* Write one report that is a file to path ("-": stdout), through a new
 * temporary file renamed over the path (out_file.h). Returns 0, or -1
 * after a message. */
static int write_file_report(const char *path, ms_merge_file_fn fn, const ms_run *run)
{
    int to_stdout = strcmp(path, "-") == 0;
    ms_out out;
    FILE *fp = to_stdout ? stdout : ms_out_open(&out, path);
    if (!fp) {
        fprintf(stderr, "%s: cannot write %s: %s\n", ms_merge_prog, path, strerror(errno));
        return -1;
    }
    int rc = fn(fp, run);
    int e = errno;
    if (to_stdout) {
        if (fflush(fp) != 0) {
            rc = -1;
            e = errno;
        }
    } else if (ms_out_close(&out, rc == 0) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", ms_merge_prog, to_stdout ? "to stdout" : path, strerror(e));
        return -1;
    }
    return 0;
}

/* An output never replaces an input: a path that is one of the logs of
 * dir (the same file, by any name), or a log's name in dir. Returns 0, or
 * 1 after a message naming both. */
static int names_an_input(const char *option, const char *path, const char *dir)
{
    if (strcmp(path, "-") == 0)
        return 0;
    struct stat out, in;
    int exists = stat(path, &out) == 0;
    char dir_real[4096], parent_real[4096], parent[4096];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (slash)
        *(slash == parent ? slash + 1 : slash) = '\0';
    else
        snprintf(parent, sizeof parent, ".");
    int in_dir = realpath(dir, dir_real) && realpath(parent, parent_real) && strcmp(dir_real, parent_real) == 0;
    DIR *d = exists ? opendir(dir) : NULL;
    int hit = 0;
    for (struct dirent *e; d && !hit && (e = readdir(d));) {
        if (ms_log_name_rank(e->d_name) < 0)
            continue;
        char log[4096 + 256];
        snprintf(log, sizeof log, "%s/%s", dir, e->d_name);
        hit = stat(log, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino;
        if (hit)
            fprintf(stderr, "%s: --%s %s: that is the input log %s; an output never replaces an input\n",
                    ms_merge_prog, option, path, log);
    }
    if (d)
        closedir(d);
    if (!hit && in_dir && ms_log_name_rank(base) >= 0) {
        fprintf(stderr, "%s: --%s %s: that is the name of a log in %s; an output never replaces an input\n",
                ms_merge_prog, option, path, dir);
        hit = 1;
    }
    return hit;
}

/* The same for every world read (--with-spawned: DIR's spawn-K too). */
static int names_any_input(const char *option, const char *path, const char *dir)
{
    if (names_an_input(option, path, dir))
        return 1;
    for (size_t i = 0; i < ms_worlds_count(); i++)
        if (ms_world_at(i)->k && names_an_input(option, path, ms_world_at(i)->dir))
            return 1;
    return 0;
}

/* Write one report that is a directory. Returns 0 (also after a warning),
 * or -1 after a message. */
static int write_dir_report(const char *option, const char *dir, ms_merge_dir_fn fn, const ms_run *run)
{
    char err[1024] = "";
    int rc = fn(dir, run, err, sizeof err);
    if (rc > 0)
        fprintf(stderr, "%s: warning: --%s: %s\n", ms_merge_prog, option, err);
    else if (rc < 0)
        fprintf(stderr, "%s: --%s: %s\n", ms_merge_prog, option, err);
    return rc < 0 ? -1 : 0;
}

/* Above this a timeline output is announced with the options that bound
 * it; MPISCOPE_TEST_TIMELINE_WARN_BYTES (tests only) sets another. */
#define TIMELINE_WARN_BYTES (1ull << 30)

/* About how many bytes timeline report r takes for the calls the window
 * keeps: each rank's calls times the window's share of its time span. */
static double timeline_bytes(const ms_merge_report *r, const ms_run *run, double *calls)
{
    double names = 0.0;
    for (size_t i = 0; i < run->nregions; i++)
        for (size_t k = 0; k < run->regions[i].nranks; k++)
            names += (double)run->regions[i].ranks[k].stats.calls * (double)strlen(run->regions[i].name);
    double per_call = r->call_bytes + (r->call_names && run->events ? names / (double)run->events : 0.0);
    *calls = 0.0;
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        if (in->has_events)
            *calls += (double)in->events * ms_window_share(run->window, in->rank, in->first_start - run->origin,
                                                           in->last_end - run->origin);
    }
    return *calls * per_call;
}

/* Say so before a timeline output over the limit is written. */
static void warn_size(const ms_merge_report *r, const char *path, const ms_run *run)
{
    if (!r->call_bytes || quiet)
        return;
    double limit = (double)TIMELINE_WARN_BYTES;
    const char *env = getenv("MPISCOPE_TEST_TIMELINE_WARN_BYTES");
    if (env && *env)
        limit = strtod(env, NULL);
    double calls, bytes = timeline_bytes(r, run, &calls);
    if (bytes <= limit)
        return;
    int giga = bytes >= 1e9;
    fprintf(stderr,
            "%s: warning: --%s %s will take about %.1f %s (%.0f calls); --from S, --to S (seconds from the "
            "run's start) and --ranks LIST bound a timeline\n",
            ms_merge_prog, r->option, path, bytes / (giga ? 1e9 : 1e6), giga ? "GB" : "MB", calls);
}

/* Write report r to path, a file or a directory after r's writer. Returns
 * 0, or -1 after a message. */
static int write_report(const ms_merge_report *r, const char *path, const ms_run *run)
{
    return r->file ? write_file_report(path, r->file, run) : write_dir_report(r->option, path, r->dir, run);
}

/* A message made of what the logs say (file names, run identities, hosts):
 * on stderr as valid UTF-8 without a control character raw. */
static void say(const char *msg, const char *what)
{
    fprintf(stderr, "%s: %s", ms_merge_prog, what);
    ms_text_put(stderr, msg, strlen(msg), MS_TEXT_CONTROLS, 0);
    fputc('\n', stderr);
}

int ms_merge_finish(ms_reduce_status st, ms_run *run, const ms_merge_opts *o)
{
    if (st == MS_REDUCE_NOMEM || !run) {
        fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
        ms_run_free(run);
        return EXIT_INPUT;
    }
    if (st == MS_REDUCE_USAGE) {
        for (size_t i = 0; i < run->nerrors; i++)
            say(run->errors[i], "");
        ms_run_free(run);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < run->nwarnings; i++)
        say(run->warnings[i], "warning: ");
    if (st == MS_REDUCE_BAD_INPUT) {
        for (size_t i = 0; i < run->nerrors; i++)
            say(run->errors[i], "");
        ms_run_free(run);
        return EXIT_INPUT;
    }

    bool any = false, timeline = false, roofline = false;
    for (size_t i = 0; i < ms_merge_nreports; i++) {
        if (o->report[i]) {
            any = true;
            timeline |= ms_merge_reports[i].timeline;
            roofline |= ms_merge_reports[i].roofline;
        }
    }
    int rc = EXIT_OK;
    for (size_t i = 0; i < ms_merge_nreports; i++)
        if (o->report[i] && ms_merge_reports[i].file && names_any_input(ms_merge_reports[i].option, o->report[i], o->dir)) {
            ms_run_free(run);
            ms_window_free(&window);
            return EXIT_USAGE;
        }
    run->window = ms_window_bounds(o->window) ? o->window : NULL;
    run->waits_skipped = o->waits_skipped[0] ? o->waits_skipped : NULL;
    /* Reports made of single calls need a trace: summary logs have none. */
    bool no_timeline = run->summary_ranks > 0 && timeline;
    if (no_timeline) {
        fprintf(stderr, "%s: the run was recorded in summary mode (MPISCOPE_MODE=summary) and has no timeline: ",
                ms_merge_prog);
        for (size_t i = 0; i < ms_merge_nreports; i++)
            if (o->report[i] && ms_merge_reports[i].timeline)
                fprintf(stderr, "--%s ", ms_merge_reports[i].option);
        fputs("not written\n", stderr);
        rc = EXIT_USAGE;
    }
    if ((run->counters.nrows || roofline) && !(run->roofline = ms_roofline_build(&run->counters, &o->roof))) {
        fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
        ms_run_free(run);
        return EXIT_INPUT;
    }
    for (size_t i = 0; i < ms_merge_nreports; i++) {
        const ms_merge_report *r = &ms_merge_reports[i];
        const char *path = o->report[i] ? o->report[i] : !any && r->is_default ? "-" : NULL;
        if (!path || (no_timeline && r->timeline))
            continue;
        if (r->timeline)
            warn_size(r, path, run);
        if (write_report(r, path, run) != 0)
            rc = EXIT_USAGE;
    }
    ms_run_free(run);
    ms_window_free(&window);
    return rc;
}
