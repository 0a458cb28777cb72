/* The HTML page's "Root causes" and "What a fix would save" sections
 * (html_parts.h): HTML, not data; the text report's sentences
 * (cause_words.h), one list item each. Nothing without the analysis's
 * root causes (what-if). */
#include <ctype.h>
#include <stdlib.h>

#include "../cause_words.h"
#include "../../waits/waits.h"
#include "html_parts.h"

static void item(FILE *fp, const char *s)
{
    fputs("<li>", fp);
    ms_html_part_text(fp, s);
    fputs("</li>\n", fp);
}

static void note(FILE *fp, const char *id, const char *s)
{
    fprintf(fp, "<p class=\"note\" id=\"%s\">", id);
    ms_html_part_text(fp, s);
    fputs("</p>\n", fp);
}

static void causes(FILE *fp, const ms_run *run, const ms_waits *w)
{
    size_t n = w->ncauses < MS_CAUSE_ROWS ? w->ncauses : MS_CAUSE_ROWS;
    size_t all = w->ncauses_all > w->ncauses ? w->ncauses_all : w->ncauses;
    fputs("<section id=\"sec-causes\"><h2>Root causes</h2>", fp);
    if (all > n)
        fprintf(fp, "<p class=\"note\">Where the waiting began: the %zu of %zu places that led to the most "
                    "waiting.</p>\n", n, all);
    else
        fputs("<p class=\"note\">Where the waiting began.</p>\n", fp);
    fputs("<ol id=\"causes\" class=\"causes\">\n", fp);
    char line[4096];
    for (size_t i = 0; i < n; i++) {
        ms_cause_line(line, sizeof line, run, &w->causes[i]);
        item(fp, line);
    }
    fputs("</ol>\n", fp);
    ms_cause_total(line, sizeof line, w);
    line[0] = (char)toupper((unsigned char)line[0]);
    note(fp, "causes-total", line);
    note(fp, "causes-terms", MS_CAUSE_TERMS);
    if (w->cause_unexplained_ns) {
        ms_cause_unexplained(line, sizeof line, w);
        note(fp, "causes-unexplained", line);
    }
    if (w->cause_launch_ns) {
        ms_cause_launch(line, sizeof line, w);
        note(fp, "causes-launch", line);
    }
    fputs("</section>\n", fp);
}

static void fixes(FILE *fp, const ms_run *run, const ms_waits *w)
{
    fputs("<section id=\"sec-what-if\"><h2>What a fix would save</h2>", fp);
    note(fp, "what-if-terms", "Each line is " MS_WHAT_IF_TERMS ".");
    char line[4096];
    ms_what_if_bound(line, sizeof line, w);
    fputs("<p id=\"what-if-bound\">", fp);
    ms_html_part_text(fp, line);
    fputs("</p>\n<ol id=\"what-if\" class=\"causes\">\n", fp);
    size_t n = w->nfixes < MS_CAUSE_ROWS ? w->nfixes : MS_CAUSE_ROWS;
    for (size_t i = 0; i < n; i++) {
        ms_fix_line(line, sizeof line, run, w, &w->fixes[i]);
        item(fp, line);
    }
    fputs("</ol></section>\n", fp);
}

int ms_html_causes(FILE *fp, const ms_run *run)
{
    const ms_waits *w = run->waits;
    if (!w)
        return 0;
    if (w->has_causes && w->ncauses)
        causes(fp, run, w);
    if (w->has_what_if)
        fixes(fp, run, w);
    return ferror(fp) ? -1 : 0;
}
