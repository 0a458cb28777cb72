/*
 * The command line and the outputs of mpiscope-merge, shared by the serial
 * merge (merge_main.c) and the MPI merge (merge_mpi_main.c): the options,
 * and what is printed and written once a run is reduced (DESIGN section 6).
 */
#include "merge_cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../report/report.h"
#include "../symbolize/symbolize_file.h"

#define VERSION MS_VERSION

const char *ms_merge_prog = "mpiscope-merge";

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2 };

/* Print nothing (the MPI merge's processes other than the first). */
static int quiet;

static void usage(FILE *fp)
{
    fprintf(fp, "usage: %s [options] DIR\n", ms_merge_prog);
    fputs(
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
    if (quiet)
        return EXIT_USAGE;
    fprintf(stderr, "%s: ", ms_merge_prog);
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
    } else if (fclose(fp) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        fprintf(stderr, "%s: cannot write %s: %s\n", ms_merge_prog, to_stdout ? "to stdout" : path, strerror(e));
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
        fprintf(stderr, "%s: warning: %s: %s\n", ms_merge_prog, option, err);
    else if (rc < 0)
        fprintf(stderr, "%s: %s: %s\n", ms_merge_prog, option, err);
    return rc < 0 ? -1 : 0;
}

int ms_merge_parse(int argc, char **argv, int be_quiet, ms_merge_opts *o)
{
    quiet = be_quiet;
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
    memset(o, 0, sizeof *o);
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":j:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            o->csv = optarg;
            break;
        case 'T':
            o->text = optarg;
            break;
        case 'M':
            o->matrix_csv = optarg;
            break;
        case 'E':
            o->events_csv = optarg;
            break;
        case 'O':
            o->otf2 = optarg;
            break;
        case 'P':
            o->spt = optarg;
            break;
        case 'X':
            o->trace = optarg;
            break;
        case 'r':
            o->ranks_csv = optarg;
            break;
        case 'S':
            o->sites_csv = optarg;
            break;
        case 'J':
            o->json = optarg;
            break;
        case 'H':
            o->html = optarg;
            break;
        case 'R':
            o->roofline_csv = optarg;
            break;
        case 'F':
            if ((o->roof.peak_gflops = parse_peak(optarg)) <= 0.0)
                return usage_error("--peak-gflops wants a positive number of GFLOP/s, not \"%s\"", optarg);
            break;
        case 'B':
            if ((o->roof.peak_gbs = parse_peak(optarg)) <= 0.0)
                return usage_error("--peak-gbs wants a positive number of GB/s, not \"%s\"", optarg);
            break;
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
    if (o->otf2 && !ms_report_otf2_built()) {
        if (!quiet)
            fprintf(stderr, "%s: --otf2: not built (libotf2 not found at build time)\n", ms_merge_prog);
        return EXIT_USAGE;
    }
    if (optind >= argc)
        return usage_error("%s", "no log directory given");
    if (optind + 1 < argc)
        return usage_error("one log directory only; extra argument \"%s\"", argv[optind + 1]);
    o->dir = argv[optind];
    return -1;

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
            fprintf(stderr, "%s: %s\n", ms_merge_prog, run->errors[i]);
        ms_run_free(run);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < run->nwarnings; i++)
        fprintf(stderr, "%s: warning: %s\n", ms_merge_prog, run->warnings[i]);
    if (st == MS_REDUCE_BAD_INPUT) {
        for (size_t i = 0; i < run->nerrors; i++)
            fprintf(stderr, "%s: %s\n", ms_merge_prog, run->errors[i]);
        ms_run_free(run);
        return EXIT_INPUT;
    }

    int rc = EXIT_OK;
    /* Outputs made of single calls need a trace: summary logs have none. */
    int no_timeline = run->summary_ranks > 0 && (o->events_csv || o->trace || o->otf2 || o->spt);
    if (no_timeline) {
        fprintf(stderr, "%s: the run was recorded in summary mode (MPISCOPE_MODE=summary) and has no timeline: "
                "%s%s%s%snot written\n", ms_merge_prog, o->events_csv ? "--events-csv " : "",
                o->trace ? "--trace " : "", o->otf2 ? "--otf2 " : "", o->spt ? "--spt " : "");
        rc = EXIT_USAGE;
    }
    if ((run->counters.nrows || o->roofline_csv) && !(run->roofline = ms_roofline_build(&run->counters, &o->roof))) {
        fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
        ms_run_free(run);
        return EXIT_INPUT;
    }
    if (o->text && write_report(o->text, ms_report_text, run) != 0)
        rc = EXIT_USAGE;
    if (o->csv && write_report(o->csv, ms_report_csv, run) != 0)
        rc = EXIT_USAGE;
    if (o->ranks_csv && write_report(o->ranks_csv, ms_report_ranks_csv, run) != 0)
        rc = EXIT_USAGE;
    if (o->sites_csv && write_report(o->sites_csv, ms_report_callsites_csv, run) != 0)
        rc = EXIT_USAGE;
    if (o->json && write_report(o->json, json_writer, run) != 0)
        rc = EXIT_USAGE;
    if (o->html && write_report(o->html, ms_report_html, run) != 0)
        rc = EXIT_USAGE;
    if (o->matrix_csv && write_report(o->matrix_csv, ms_report_matrix_csv, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && o->events_csv && write_report(o->events_csv, ms_report_events_csv, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && o->trace && write_report(o->trace, ms_report_trace, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && o->otf2 && write_dir_report("--otf2", o->otf2, ms_report_otf2, run) != 0)
        rc = EXIT_USAGE;
    if (!no_timeline && o->spt && write_dir_report("--spt", o->spt, ms_report_spt, run) != 0)
        rc = EXIT_USAGE;
    if (o->roofline_csv && write_report(o->roofline_csv, roofline_writer, run) != 0)
        rc = EXIT_USAGE;
    if (!o->text && !o->csv && !o->ranks_csv && !o->sites_csv && !o->json && !o->html && !o->matrix_csv && !o->events_csv && !o->trace &&
        !o->otf2 && !o->spt && !o->roofline_csv &&
        write_report("-", ms_report_text, run) != 0)
        rc = EXIT_USAGE;
    ms_run_free(run);
    return rc;
}
