/* HTML report: see report.h and report_html.h. One self-contained page: the
 * style sheet, the script and the data are inline; nothing is loaded. */
#include <string.h>

#include "../json_str.h"
#include "../report.h"
#include "report_html.h"
#include "report_html_assets.h"

/* The page's text, one step of the walk (safe_text.h): the characters
 * HTML gives a meaning to as entities, a control character as a space,
 * invalid UTF-8 as U+FFFD. */
static size_t html_step(const unsigned char *s, size_t left, unsigned flags, char rep[8], size_t *rep_len)
{
    static const char *const entity[] = {['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;", ['"'] = "&quot;",
                                         ['\''] = "&#39;"};
    (void)flags;
    if (s[0] < sizeof entity / sizeof entity[0] && entity[s[0]]) {
        *rep_len = strlen(entity[s[0]]);
        memcpy(rep, entity[s[0]], *rep_len);
        return 1;
    }
    size_t n = ms_utf8_len(s, left);
    *rep_len = 0;
    if (n == 0) {
        memcpy(rep, "\xef\xbf\xbd", 3);   /* U+FFFD */
        *rep_len = 3;
        return 1;
    }
    if (s[0] < 0x20 || s[0] == 0x7f) {
        rep[0] = ' ';
        *rep_len = 1;
    }
    return n;
}

static int put_file(void *ctx, const char *p, size_t n, int is_rep)
{
    (void)is_rep;
    fwrite(p, 1, n, (FILE *)ctx);
    return 0;
}

void ms_html_text(FILE *fp, const char *str)
{
    ms_text_walk(str, strlen(str), html_step, 0, 0, put_file, fp);
}

/* The sections, in page order; report_html.js and report_html_sites.js
 * fill them (the root causes come between the timeline and the wait
 * states). The roofline
 * section stays hidden unless the run has roofline points, the GPU section
 * unless it has cuda: regions. The wait-state and critical-path sections
 * say so when the run has no analysis (summary mode). */
static const char *const SECTIONS =
    "<section id=\"sec-run\"><h2>Run</h2><dl id=\"run-facts\" class=\"facts\"></dl></section>\n"
    "<section id=\"sec-sites\"><h2>MPI time by call site</h2><p class=\"lead\" id=\"sites-lead\"></p>"
    "<p class=\"note\" id=\"sites-note\"></p>"
    "<div class=\"scroll tall\"><table id=\"sites\" class=\"plain sites\"><thead></thead><tbody></tbody></table></div>"
    "</section>\n"
    "<section id=\"sec-functions\"><h2>MPI time by function</h2>"
    "<div class=\"scroll\"><table id=\"functions\" class=\"plain sites\"><thead></thead><tbody></tbody></table>"
    "</div><p class=\"lifecycle\" id=\"lifecycle\"></p></section>\n"
    "<section id=\"sec-imbalance\"><h2>Imbalance per call site</h2>"
    "<p class=\"note\">Per-rank time at the call sites of the most MPI time; the dashed line is the mean over the "
    "ranks that made calls there.</p><div id=\"imbalance\"></div></section>\n"
    "<section id=\"sec-ranks\"><h2>MPI time per rank</h2>"
    "<p class=\"note\">Share of each rank's application time (MPI_Init to MPI_Finalize) spent in "
    "MPI calls; the dashed line is the mean.</p><svg class=\"chart\" id=\"chart-ranks\"></svg></section>\n"
    "<section id=\"sec-timeline\"><h2>Timeline</h2><p class=\"note\" id=\"timeline-note\"></p>"
    "<div class=\"tools\"><button id=\"tl-in\" type=\"button\">zoom in</button>"
    "<button id=\"tl-out\" type=\"button\">zoom out</button>"
    "<button id=\"tl-reset\" type=\"button\">reset</button>"
    "<label><input type=\"checkbox\" id=\"tl-waits\" checked> wait states</label>"
    "<label><input type=\"checkbox\" id=\"tl-path\"> critical path</label>"
    "<span class=\"note\">wheel: zoom at the pointer; drag: pan</span></div>"
    "<svg class=\"chart\" id=\"chart-timeline\"></svg><div id=\"timeline-legend\" class=\"legend\"></div>"
    "</section>\n";
/* The wait states after the root causes (report_html_causes.c). */
static const char *const SECTIONS_WAITS =
    "<section id=\"sec-waits\"><h2>Wait states</h2><p class=\"note\" id=\"waits-note\"></p>"
    "<div id=\"waits-body\" hidden><h3>Waiting per pattern and rank (seconds)</h3>"
    "<p class=\"note\" id=\"waits-patterns-note\"></p>"
    "<div class=\"scroll\"><table id=\"waits-patterns\" class=\"plain\"><thead></thead><tbody></tbody></table></div>"
    "<h3>Waiting per call site and rank</h3><p class=\"note\" id=\"waits-sites-note\"></p>"
    "<div class=\"scroll\"><table id=\"waits-sites\" class=\"plain\"><thead></thead><tbody></tbody></table></div>"
    "<h3>The late ranks</h3><p class=\"note\">The waiting each rank caused in others (it was the late sender, "
    "the late root, the last one in), summed over all the calls that waited for it.</p>"
    "<div class=\"scroll\"><table id=\"waits-late\" class=\"plain\"><thead></thead><tbody></tbody></table></div>"
    "</div></section>\n"
    "<section id=\"sec-path\"><h2>Critical path</h2><p class=\"note\" id=\"path-note\"></p>"
    "<div id=\"path-body\" hidden><dl id=\"path-facts\" class=\"facts\"></dl>"
    "<h3>Time on the path per rank</h3><svg class=\"chart\" id=\"chart-path\"></svg>"
    "<h3>On the path per call site</h3>"
    "<div class=\"scroll\"><table id=\"path-regions\" class=\"plain\"><thead></thead><tbody></tbody></table></div>"
    "</div></section>\n";
/* The critical path per thread after them (report_html_threads.c). */
static const char *const SECTIONS_REST =
    "<section id=\"sec-regions\"><h2>Top regions</h2>"
    "<p class=\"note\">The program's regions, MPI message regions among them (the finest grain of the call "
    "sites above; MPI_Init and MPI_Finalize are under start-up and shutdown). Click a column to sort. Call site: the one of the most time in the region (hover for where it "
    "is).</p>"
    "<div class=\"scroll\"><table id=\"regions\"><thead></thead><tbody></tbody></table></div></section>\n"
    "<section id=\"sec-sizes\"><h2>Message sizes</h2>"
    "<p class=\"note\">Calls per size class, point-to-point and collective calls of known size.</p>"
    "<svg class=\"chart\" id=\"chart-sizes\"></svg></section>\n"
    "<section id=\"sec-matrix\"><h2>Communication matrix</h2><p class=\"note\" id=\"matrix-note\"></p>"
    "<svg class=\"chart\" id=\"chart-matrix\"></svg></section>\n"
    "<section id=\"sec-roofline\" hidden><h2>Roofline</h2><p class=\"note\" id=\"roofline-note\"></p>"
    "<svg class=\"chart\" id=\"chart-roofline\"></svg></section>\n"
    "<section id=\"sec-gpu\" class=\"gpu\" hidden><h2>GPU</h2>"
    "<p class=\"note\">CUDA kernels and copies (regions named cuda:).</p>"
    "<h3>Kernels</h3><svg class=\"chart\" id=\"chart-gpu-kernels\"></svg>"
    "<h3>Copies</h3><svg class=\"chart\" id=\"chart-gpu-copies\"></svg></section>\n"
    "<section id=\"sec-tool\" hidden><h2>The tool</h2><p class=\"note\">The time mpiscope itself took from the "
    "program (its final flush, waits for room in its buffers): not the program's time, and in no table above."
    "</p><div class=\"scroll\"><table id=\"tool\" class=\"plain\"><thead></thead><tbody></tbody></table></div>"
    "</section>\n"
    "<section id=\"sec-warnings\" hidden><h2>Warnings</h2><ul id=\"warning-list\"></ul></section>\n";

int ms_report_html(FILE *fp, const ms_run *run)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>mpiscope report: ",
          fp);
    ms_html_text(fp, run->dir);
    fputs("</title>\n<style>\n", fp);
    fputs(HTML_CSS, fp);
    fputs("</style>\n</head>\n<body>\n<header><h1>mpiscope report</h1><p class=\"dir\">", fp);
    ms_html_text(fp, run->dir);
    fputs("</p><p id=\"errors\" class=\"errors\" hidden></p></header>\n"
          "<noscript><p>This report draws its charts with JavaScript.</p></noscript>\n<main>\n",
          fp);
    if (ms_html_ending(fp, run) != 0)
        return -1;
    fputs(SECTIONS, fp);
    if (ms_html_causes(fp, run) != 0)
        return -1;
    fputs(SECTIONS_WAITS, fp);
    if (ms_html_path_threads(fp, run) != 0)
        return -1;
    fputs(SECTIONS_REST, fp);
    if (ms_html_files(fp, run) != 0 || ms_html_comms(fp, run) != 0)
        return -1;
    fputs("</main>\n<div id=\"tip\" class=\"tip\" hidden></div>\n"
          "<script type=\"application/json\" id=\"mpiscope-data\">{",
          fp);
    if (ms_html_roofline(fp, run) != 0 || ms_html_charts(fp, run) != 0 || ms_html_sites(fp, run) != 0 || ms_html_waits(fp, run) != 0 ||
        ms_html_timeline(fp, run) != 0)
        return -1;
    fputs("}</script>\n<script>\n", fp);
    fputs(HTML_SITES_JS, fp);
    fputs(HTML_JS, fp);
    fputs("</script>\n</body>\n</html>\n", fp);
    return ferror(fp) ? -1 : 0;
}
