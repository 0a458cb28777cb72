/* The roofline data of the HTML report (report_html.h, roofline.h). */
#include <inttypes.h>

#include "../json_str.h"
#include "html_parts.h"
#include "../../reduce/roofline.h"

/* Points the page draws at most. */
#define HTML_ROOFLINE_POINTS 4096

int ms_html_roofline(FILE *fp, const ms_run *run)
{
    const ms_roofline *r = run->roofline;
    fputs("\"roofline\":", fp);
    if (!r || r->npoints == 0) {
        fputs("null,", fp);
        return ferror(fp) ? -1 : 0;
    }
    fputc('{', fp);
    ms_json_put_num(fp, "peak_gflops", r->peak_gflops);
    fprintf(fp, ",\"gflops_empirical\":%s,", r->gflops_empirical ? "true" : "false");
    ms_json_put_num(fp, "peak_gbs", r->peak_gbs);
    fprintf(fp, ",\"gbs_empirical\":%s,\"rejected\":%zu,\"total\":%zu,\"points\":[", r->gbs_empirical ? "true" : "false",
            r->nrejected, r->npoints);
    for (size_t i = 0; i < r->npoints && i < HTML_ROOFLINE_POINTS; i++) {
        const ms_roofline_point *p = &r->points[i];
        fputs(i ? ",{\"region\":" : "{\"region\":", fp);
        ms_html_json_str(fp, p->region);
        fprintf(fp, ",\"rank\":%" PRId32 ",", p->rank);
        ms_json_put_num(fp, "gflops", p->gflops);
        fputc(',', fp);
        ms_json_put_num(fp, "gbs", p->gbs);
        fputc(',', fp);
        ms_json_put_num(fp, "ai", p->ai);
        fputc(',', fp);
        ms_json_put_num(fp, "runtime_s", p->runtime_s);
        fputs(",\"flops_metric\":", fp);
        ms_html_json_str(fp, p->flops_metric);
        fputs(",\"bandwidth_metric\":", fp);
        ms_html_json_str(fp, p->bandwidth_metric);
        fputc('}', fp);
    }
    fputs("]},", fp);
    return ferror(fp) ? -1 : 0;
}
