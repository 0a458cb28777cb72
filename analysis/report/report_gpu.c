/*
 * GPU sections of the reports (gpu.h), nothing when the run has no GPU
 * records:
 *   text  "GPU": per rank the kernels, copies and memsets, their times, the
 *         GPU busy % of the rank's wall time and the records CUPTI
 *         dropped; then GPU time per enclosing host region over all ranks
 *   json  the value of "gpu": null, or {"kernels", "copies", "memsets",
 *         "dropped", "ranks": [{"rank", "streams", "kernels", "copies",
 *         "memsets", "kernel_s", "copy_s", "memset_s", "busy_s",
 *         "busy_pct", "dropped", "by_region": [{"region", "calls",
 *         "gpu_s"}]}], "by_region": [...] over all ranks}
 * Per-kernel and per-copy statistics are the regions cuda:kernel and
 * cuda:memcpy of the region tables.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../read/worlds.h"
#include "json_str.h"
#include "report.h"
#include "units.h"

#define TEXT_ORIGINS 20

static void printable(char *dst, size_t cap, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        dst[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    dst[n] = 0;
}

int ms_report_gpu_text(FILE *fp, const ms_run *run)
{
    if (!run->gpu)
        return 0;
    fprintf(fp, "\nGPU: %" PRIu64 " kernels, %" PRIu64 " copies, %" PRIu64 " memsets\n",
            run->gpu->kernels, run->gpu->copies, run->gpu->memsets);
    fprintf(fp, "   rank streams  kernels   kernel time   copies   copy time  memsets  busy %%   dropped\n");
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        const ms_gpu_rank *g = &in->gpu;
        if (!g->streams && !g->dropped)
            continue;
        char kt[32], ct[32];
        ms_fmt_ns(kt, sizeof kt, g->kernel_ns);
        ms_fmt_ns(ct, sizeof ct, g->copy_ns);
        fprintf(fp, "  %5s %7" PRIu32 " %8" PRIu64 " %13s %8" PRIu64 " %11s %8" PRIu64 " %7.1f %9" PRIu64 "\n",
                ms_rank_s(in->rank).s, g->streams, g->kernels, kt, g->copies, ct, g->memsets,
                ms_gpu_busy_pct(g, in->wall_ns), g->dropped);
    }
    fprintf(fp, "\nGPU time by enclosing host region (the region or MPI call open at launch)\n");
    fprintf(fp, "  %-60s %10s %12s\n", "region", "launches", "GPU time");
    for (size_t i = 0; i < run->gpu->norigins && i < TEXT_ORIGINS; i++) {
        const ms_gpu_origin *o = &run->gpu->origins[i];
        char name[61], t[32];
        printable(name, sizeof name, o->region);
        ms_fmt_ns(t, sizeof t, o->gpu_ns);
        fprintf(fp, "  %-60s %10" PRIu64 " %12s\n", name, o->calls, t);
    }
    if (run->gpu->norigins > TEXT_ORIGINS)
        fprintf(fp, "  ... %zu more (--json lists all)\n", run->gpu->norigins - TEXT_ORIGINS);
    return ferror(fp) ? -1 : 0;
}

static void put_origins(FILE *fp, const ms_gpu_origin *o, size_t n)
{
    fputc('[', fp);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",{\"region\":" : "{\"region\":", fp);
        ms_json_put_str(fp, o[i].region, strlen(o[i].region));
        fprintf(fp, ",\"calls\":%" PRIu64 ",\"gpu_s\":%.9f,\"gpu_ns\":%" PRIu64 "}", o[i].calls,
                (double)o[i].gpu_ns / 1e9, o[i].gpu_ns);
    }
    fputc(']', fp);
}

int ms_report_gpu_json(FILE *fp, const ms_run *run)
{
    const ms_gpu_run *r = run->gpu;
    if (!r) {
        fputs("null", fp);
        return ferror(fp) ? -1 : 0;
    }
    fprintf(fp, "{\"kernels\":%" PRIu64 ",\"copies\":%" PRIu64 ",\"memsets\":%" PRIu64 ",\"dropped\":%" PRIu64
            ",\"ranks\":[",
            r->kernels, r->copies, r->memsets, r->dropped);
    int first = 1;
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        const ms_gpu_rank *g = &in->gpu;
        if (!g->streams && !g->dropped)
            continue;
        fprintf(fp, "%s\n{\"rank\":%" PRId32 ",\"streams\":%" PRIu32 ",\"kernels\":%" PRIu64 ",\"copies\":%" PRIu64
                ",\"memsets\":%" PRIu64 ",\"kernel_s\":%.9f,\"copy_s\":%.9f,\"memset_s\":%.9f,\"busy_s\":%.9f"
                ",\"busy_ns\":%" PRIu64 ",\"wall_ns\":%" PRIu64 ",\"busy_pct\":%.6f,\"dropped\":%" PRIu64
                ",\"by_region\":",
                first ? "" : ",", in->rank, g->streams, g->kernels, g->copies, g->memsets,
                (double)g->kernel_ns / 1e9, (double)g->copy_ns / 1e9, (double)g->memset_ns / 1e9,
                (double)g->busy_ns / 1e9, g->busy_ns, in->wall_ns, ms_gpu_busy_pct(g, in->wall_ns), g->dropped);
        put_origins(fp, g->origins, g->norigins);
        fputc('}', fp);
        first = 0;
    }
    fputs("],\"by_region\":", fp);
    put_origins(fp, r->origins, r->norigins);
    fputc('}', fp);
    return ferror(fp) ? -1 : 0;
}
