/*
 * mpiscope-merge: reduce the per-rank logs of a run into reports
 * (DESIGN section 6).
 *
 * Exit status: 0 success (a truncated log is a warning, its readable part is
 * used); 1 bad usage (also: no such directory, no logs in it, an output that
 * cannot be written); 2 an input that is not an mpiscope log or is corrupt
 * beyond its readable prefix, or logs of two different runs in DIR
 * (docs/RELIABILITY.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "report.h"
#include "roofline.h"

#define VERSION MS_VERSION
#define PROG "mpiscope-merge"

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2 };

static void usage(FILE *fp)
{
    fputs("usage: " PROG " [options] DIR\n"
          "Reads every rank-*.zst log in DIR and reports on the run; with no output option,\n"
          "a text report goes to stdout.\n"
          "\n"
          "  --text FILE       the text report (what goes to stdout without an output option)\n"
          "  --csv FILE        region table, one row per region over all ranks\n"
          "  --ranks-csv FILE  one row per (region, rank)\n"
          "  --callsites-csv FILE  region,rank,function,file,line,calls,total_s: which\n"
          "                    source line made which calls\n"
          "  --json FILE       everything, machine-readable\n"
          "  --html FILE       one self-contained page with the charts\n"
          "  --matrix-csv FILE src,dst,messages,bytes: point-to-point traffic by world rank\n"
          "  --events-csv FILE one row per call: name,rank,thread,call_index,start_s,end_s,\n"
          "                    duration_s (trace mode)\n"
          "  --trace FILE      Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
          "  --otf2 DIR        OTF2 archive DIR/traces.otf2 (Vampir, Scalasca, otf2-print)\n"
          "  --spt DIR         scope-profiler native traces, one DIR/mpiscope_rank<N>.spt per\n"
          "                    rank (scope-profiler import-native DIR)\n"
          "  --roofline-csv FILE  region,rank,gflops,gbs,ai,runtime_s,flops_metric,\n"
          "                    bandwidth_metric: roofline points from LIKWID metrics\n"
          "  --peak-gflops X   the compute ceiling of the roofline, GFLOP/s (default: the\n"
          "                    largest observation, marked empirical)\n"
          "  --peak-gbs Y      the memory ceiling, GB/s (default: empirical, likewise)\n"
          "  --flops-metric NAME, --bandwidth-metric NAME  the LIKWID metrics of the\n"
          "                    roofline (default: the first containing \"flop/s\", and the\n"
          "                    first containing \"bandwidth\" and \"/s\")\n"
          "  -j, --jobs N      threads reading logs (default: one per CPU)\n"
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
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    return EXIT_USAGE;
}

typedef int (*writer_fn)(FILE *fp, const ms_run *run);

static int roofline_writer(FILE *fp, const ms_run *run)
{
    return ms_roofline_csv(fp, run->roofline);
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

static int json_writer(FILE *fp, const ms_run *run)
{
    return ms_report_json(fp, run, VERSION);
}

/* Write one report to path ("-": stdout). Returns 0, or -1 after a message. */
static int write_report(const char *path, writer_fn fn, const ms_run *run)
{
    int to_stdout = strcmp(path, "-") == 0;
    FILE *fp = to_stdout ? stdout : fopen(path, "w");
    if (!fp) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = fn(fp, run);
    int e = errno;
    if (to_stdout) {
        if (fflush(fp) != 0) {
            rc = -1;
            e = errno;
        }
    } else if (fclose(fp) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", to_stdout ? "to stdout" : path, strerror(e));
        return -1;
    }
    return 0;
}

typedef int (*dir_writer_fn)(const char *dir, const ms_run *run, char *err, size_t errlen);

/* Write one report that is a directory. Returns 0 (also after a warning),
 * or -1 after a message. */
static int write_dir_report(const char *option, const char *dir, dir_writer_fn fn, const ms_run *run)
{
    char err[1024] = "";
    int rc = fn(dir, run, err, sizeof err);
    if (rc > 0)
        fprintf(stderr, PROG ": warning: %s: %s\n", option, err);
    else if (rc < 0)
        fprintf(stderr, PROG ": %s: %s\n", option, err);
    return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"csv", required_argument, NULL, 'c'},
        {"text", required_argument, NULL, 'T'},
        {"ranks-csv", required_argument, NULL, 'r'},
        {"callsites-csv", required_argument, NULL, 'S'},
        {"json", required_argument, NULL, 'J'},
        {"html", required_argument, NULL, 'H'},
        {"matrix-csv", required_argument, NULL, 'M'},
        {"events-csv", required_argument, NULL, 'E'},
        {"trace", required_argument, NULL, 'X'},
        {"otf2", required_argument, NULL, 'O'},
        {"spt", required_argument, NULL, 'P'},
        {"roofline-csv", required_argument, NULL, 'R'},
        {"peak-gflops", required_argument, NULL, 'F'},
        {"peak-gbs", required_argument, NULL, 'B'},
        {"flops-metric", required_argument, NULL, 'f'},
        {"bandwidth-metric", required_argument, NULL, 'b'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char *text = NULL, *html = NULL;
    const char *matrix_csv = NULL, *events_csv = NULL, *trace = NULL;
    const char *otf2 = NULL, *spt = NULL;
    const char *csv = NULL, *ranks_csv = NULL, *sites_csv = NULL, *json = NULL;
    const char *roofline_csv = NULL;
    ms_roofline_opts roof = {0};
    unsigned jobs = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":j:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            csv = optarg;
            break;
        case 'T':
            text = optarg;
            break;
        case 'M':
            matrix_csv = optarg;
            break;
        case 'E':
            events_csv = optarg;
            break;
        case 'O':
            otf2 = optarg;
            break;
        case 'P':
            spt = optarg;
            break;
        case 'X':
            trace = optarg;
            break;
        case 'r':
            ranks_csv = optarg;
            break;
        case 'S':
            sites_csv = optarg;
            break;
        case 'J':
            json = optarg;
            break;
        case 'H':
            html = optarg;
            break;
        case 'R':
            roofline_csv = optarg;
            break;
        case 'F':
            if ((roof.peak_gflops = parse_peak(optarg)) <= 0.0)
                return usage_error("--peak-gflops wants a positive number of GFLOP/s, not \"%s\"", optarg);
            break;
        case 'B':
            if ((roof.peak_gbs = parse_peak(optarg)) <= 0.0)
                return usage_error("--peak-gbs wants a positive number of GB/s, not \"%s\"", optarg);
            break;
        case 'f':
            roof.flops_metric = optarg;
            break;
        case 'b':
            roof.bandwidth_metric = optarg;
            break;
        case 'j': {
            char *end;
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || v < 1 || v > 256)
                return usage_error("-j wants a number of threads from 1 to 256, not \"%s\"", optarg);
            jobs = (unsigned)v;
            break;
        }
        case 'h':
            usage(stdout);
            return EXIT_OK;
        case 'V':
            puts(PROG " " VERSION);
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
    if (otf2 && !ms_report_otf2_built()) {
        fprintf(stderr, PROG ": --otf2: not built (libotf2 not found at build time)\n");
        return EXIT_USAGE;
    }
    if (optind >= argc)
        return usage_error("%s", "no log directory given");
    if (optind + 1 < argc)
        return usage_error("one log directory only; extra argument \"%s\"", argv[optind + 1]);
    const char *dir = argv[optind];

    ms_run *run = NULL;
    ms_reduce_status st = ms_reduce_dir(dir, jobs, &run);
    if (st == MS_REDUCE_NOMEM || !run) {
        fprintf(stderr, PROG ": out of memory\n");
        ms_run_free(run);
        return EXIT_INPUT;
    }
    if (st == MS_REDUCE_USAGE) {
        for (size_t i = 0; i < run->nerrors; i++)
            fprintf(stderr, PROG ": %s\n", run->errors[i]);
        ms_run_free(run);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < run->nwarnings; i++)
        fprintf(stderr, PROG ": warning: %s\n", run->warnings[i]);
    if (st == MS_REDUCE_BAD_INPUT) {
        for (size_t i = 0; i < run->nerrors; i++)
            fprintf(stderr, PROG ": %s\n", run->errors[i]);
        ms_run_free(run);
        return EXIT_INPUT;
    }

    int rc = EXIT_OK;
    /* Outputs made of single calls need a trace: summary logs have none. */
    int no_timeline = run->summary_ranks > 0 && (events_csv || trace || otf2 || spt);
    if (no_timeline) {
        fprintf(stderr, PROG ": the run was recorded in summary mode (MPISCOPE_MODE=summary) and has no timeline: "
                "%s%s%s%snot written\n", events_csv ? "--events-csv " : "", trace ? "--trace " : "",
                otf2 ? "--otf2 " : "", spt ? "--spt " : "");
        rc = EXIT_USAGE;
    }
    if ((run->counters.nrows || roofline_csv) && !(run->roofline = ms_roofline_build(&run->counters, &roof))) {
        fprintf(stderr, PROG ": out of memory\n");
        ms_run_free(run);
        return EXIT_INPUT;
    }
    if (text && write_report(text, ms_report_text, run) != 0)
        rc = EXIT_USAGE;
    if (csv && write_report(csv, ms_report_csv, run) != 0)
        rc = EXIT_USAGE;
    if (ranks_csv && write_report(ranks_csv, ms_report_ranks_csv, run) != 0)
        rc = EXIT_USAGE;
    if (sites_csv && write_report(sites_csv, ms_report_callsites_csv, run) != 0)
        rc = EXIT_USAGE;
    if (json && write_report(json, json_writer, run) != 0)
        rc = EXIT_USAGE;
    if (html && write_report(html, ms_report_html, run) != 0)
        rc = EXIT_USAGE;
    if (matrix_csv && write_report(matrix_csv, ms_report_matrix_csv, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && events_csv && write_report(events_csv, ms_report_events_csv, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && trace && write_report(trace, ms_report_trace, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && otf2 && write_dir_report("--otf2", otf2, ms_report_otf2, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && spt && write_dir_report("--spt", spt, ms_report_spt, run) != 0)
        rc = EXIT_USAGE;
    if (roofline_csv && write_report(roofline_csv, roofline_writer, run) != 0)
        rc = EXIT_USAGE;
    if (!text && !csv && !ranks_csv && !sites_csv && !json && !html && !matrix_csv && !events_csv && !trace &&
        !otf2 && !spt && !roofline_csv &&
        write_report("-", ms_report_text, run) != 0)
        rc = EXIT_USAGE;
    ms_run_free(run);
    return rc;
}
