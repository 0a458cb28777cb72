/* HTML report: the wait states and the critical path per call site
 * (html_parts.h), summed as the text report sums them (wait_sites.h) and
 * labelled as the other tables do (ms_site_label). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../names.h"
#include "../wait_sites.h"
#include "../../reduce/ops.h"
#include "../../reduce/run_waits.h"
#include "../../waits/waits.h"
#include "html_parts.h"

#define SITE_ROWS 20      /* rows of the wait-state table */
#define PATH_SITES 12     /* rows of the path's call sites */
#define LABEL_WIDTH 72    /* columns of a call site's label */

/* "call", "site" (its label, LABEL_WIDTH columns), "site_full" and
 * "location" of a group. */
static void put_where(FILE *fp, const ms_run *run, const ms_wait_site *g)
{
    char label[2304], full[4096];
    const ms_callsite *at = ms_wait_site_at(run, g);
    if (g->region == MS_WX_NONE) {
        label[0] = full[0] = '\0';
    } else {
        ms_site_label(label, sizeof label, at, LABEL_WIDTH);
        ms_site_label(full, sizeof full, at, 0);
    }
    fputs("\"call\":", fp);
    ms_html_json_str(fp, g->call);
    fputs(",\"site\":", fp);
    ms_html_json_str(fp, label);
    fputs(",\"site_full\":", fp);
    ms_html_json_str(fp, full);
    fputs(",\"location\":", fp);
    ms_html_json_str(fp, at ? at->location : "");
}

int ms_html_wait_sites(FILE *fp, const ms_run *run, const ms_waits *w)
{
    (void)w;
    ms_wait_site *g;
    size_t n;
    if (ms_wait_sites_rows(run, &g, &n) != 0)
        return -1;
    fprintf(fp, "\"rows_total\":%zu,\"sites\":[", n);
    for (size_t i = 0; i < n && i < SITE_ROWS; i++) {
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"pattern\":\"%s\",\"calls\":%" PRIu64 ",\"wait_ns\":%" PRIu64
                    ",\"cause\":%" PRId32 ",\"root\":%" PRId32 ",",
                i ? ",\n" : "", g[i].rank, ms_wx_pattern_name(g[i].pattern), g[i].instances, g[i].ns, g[i].cause,
                g[i].root);
        put_where(fp, run, &g[i]);
        fputc('}', fp);
    }
    fputs("],\n", fp);
    free(g);
    return 0;
}

int ms_html_path_sites(FILE *fp, const ms_run *run, const ms_waits *w)
{
    (void)w;
    ms_wait_site *g;
    size_t n;
    if (ms_wait_sites_path(run, &g, &n) != 0)
        return -1;
    fprintf(fp, "\"regions_total\":%zu,\"regions\":[", n);
    for (size_t i = 0; i < n && i < PATH_SITES; i++) {
        fputs(i ? ",\n{" : "{", fp);
        put_where(fp, run, &g[i]);
        fprintf(fp, ",\"on_path_ns\":%" PRIu64 "}", g[i].ns);
    }
    fputs("]", fp);
    free(g);
    return 0;
}
