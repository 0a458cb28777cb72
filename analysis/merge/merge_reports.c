/*
 * The reports of mpiscope-merge (merge_reports.h): one row per output
 * option, with the small adapters that give a writer the signature of the
 * table.
 */
#include "merge_reports.h"

#include "../reduce/roofline.h"
#include "../report/report.h"
#include "../report/safe_text.h"

/* The text report reaches terminals: strings from the logs in it are
 * valid UTF-8 with no control character but its lines and columns. */
static int text_writer(FILE *fp, const ms_run *run)
{
    FILE *f = ms_text_filter(fp, MS_TEXT_CONTROLS | MS_TEXT_KEEP_LINES);
    if (!f)
        return -1;
    int rc = ms_report_text(f, run);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

static int json_writer(FILE *fp, const ms_run *run)
{
    return ms_report_json(fp, run, MS_VERSION);
}

static int roofline_writer(FILE *fp, const ms_run *run)
{
    return ms_roofline_csv(fp, run->roofline);
}

const ms_merge_report ms_merge_reports[] = {
    {.option = "text", .file = text_writer, .is_default = true,
     .help = "the text report (what goes to stdout without an output option)"},
    {.option = "csv", .file = ms_report_csv,
     .help = "region table, one row per region over all ranks"},
    {.option = "ranks-csv", .file = ms_report_ranks_csv,
     .help = "one row per (region, rank)"},
    {.option = "sites-csv", .file = ms_report_sites_csv,
     .help = "operation,function,file,line,object,calls,ranks,total_s,\n"
             "mpi_pct,app_pct,bytes,imbalance_pct,wait_pct: MPI time per\n"
             "MPI function and call site, over message fields and ranks"},
    {.option = "callsites-csv", .file = ms_report_callsites_csv,
     .help = "region,rank,function,file,line,calls,total_s: which\n"
             "source line made which calls"},
    {.option = "files-csv", .file = ms_report_files_csv,
     .help = "file,rank,op,calls,bytes,total_s: MPI-IO calls per file,\n"
             "rank and op"},
    {.option = "json", .file = json_writer,
     .help = "everything, machine-readable"},
    {.option = "html", .file = ms_report_html,
     .help = "one self-contained page with the charts"},
    {.option = "matrix-csv", .file = ms_report_matrix_csv,
     .help = "src,dst,messages,bytes: point-to-point traffic by world rank"},
    {.option = "events-csv", .file = ms_report_events_csv, .timeline = true, .call_bytes = 48, .call_names = true,
     .help = "one row per call: name,rank,thread,call_index,start_s,end_s,\n"
             "duration_s (trace mode)"},
    {.option = "waits-csv", .file = ms_report_waits_csv, .timeline = true,
     .help = "pattern,rank,region,instances,wait_s,cause_rank: wait\n"
             "states per waiting rank and region (trace mode)"},
    {.option = "causes-csv", .file = ms_report_causes_csv, .timeline = true,
     .help = "rank,region,call_site,delay_s,direct_s,indirect_s: root\n"
             "causes of waiting, per rank and place (trace mode)"},
    {.option = "trace", .file = ms_report_trace, .timeline = true, .call_bytes = 185, .call_names = true,
     .help = "Chrome trace-event JSON (Perfetto, chrome://tracing)"},
    {.option = "otf2", .dir = ms_report_otf2, .timeline = true, .call_bytes = 36,
     .built = ms_report_otf2_built, .not_built = "libotf2 not found at build time",
     .help = "OTF2 archive DIR/traces.otf2 (Vampir, Scalasca, otf2-print)"},
    {.option = "spt", .dir = ms_report_spt, .timeline = true, .call_bytes = 16,
     .help = "scope-profiler native traces, one DIR/mpiscope_rank<N>.spt per\n"
             "rank (scope-profiler import-native DIR)"},
    {.option = "roofline-csv", .file = roofline_writer, .roofline = true,
     .help = "region,rank,gflops,gbs,ai,runtime_s,flops_metric,\n"
             "bandwidth_metric: roofline points from counter metrics"},
};

const size_t ms_merge_nreports = sizeof ms_merge_reports / sizeof ms_merge_reports[0];

_Static_assert(sizeof ms_merge_reports / sizeof ms_merge_reports[0] <= MS_MERGE_REPORTS_MAX,
               "more reports than MS_MERGE_REPORTS_MAX");

const char *ms_merge_report_arg(const ms_merge_report *r)
{
    return r->dir ? "DIR" : "FILE";
}
