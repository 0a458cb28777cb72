/*
 * What the HTML report's parts write (report_html.h): each part writes
 * members of the page's data object. The page (report_html.c) calls the
 * parts; the parts include this header and json_str.h, never the page's.
 *   report_html_charts.c    the data of the charts from the reduced run
 *   report_html_roofline.c  the data of the roofline chart
 *   report_html_sites.c     MPI time per call site and per function
 *   report_html_waits.c     the wait states and the critical path
 *   report_html_wait_sites.c  their rows and path per call site
 *   report_html_timeline.c  the timeline: a second pass over the logs
 * and two sections written as markup, not data:
 *   report_html_files.c     the files of MPI-IO
 *   report_html_comms.c     the communicators
 *   report_html_ending.c    how the run ended
 *   report_html_causes.c    the root causes and what a fix would save
 *   report_html_threads.c   the critical path per thread
 */
#ifndef MPISCOPE_HTML_PARTS_H
#define MPISCOPE_HTML_PARTS_H

#include <stdio.h>
#include <string.h>

#include "../json_str.h"
#include "../../reduce/reduce.h"

/* Events of one rank the timeline keeps at most (the longest ones), the
 * events of all ranks together (fewer per rank when many ranks are shown),
 * and the ranks it shows at most (the first ones). */
#define MS_HTML_TIMELINE_EVENTS 4000
#define MS_HTML_TIMELINE_TOTAL 131072
#define MS_HTML_TIMELINE_RANKS MS_RUN_TIMELINE_RANKS

/* Rank columns of the wait-state table at most (beyond: the ranks that
 * waited most, and "others"), and the waiting calls and the stretches of
 * the critical path the timeline marks at most, each (the longest ones). */
#define MS_HTML_WAIT_COLUMNS 32
#define MS_HTML_WAIT_MARKS MS_WX_MARKS

/* A JSON string, safe inside an HTML <script> element: quotes, control
 * characters, '<', '>', '&', U+2028 and U+2029 escaped; bytes that are not
 * valid UTF-8 become U+FFFD (json_str.h, MS_JSON_IN_SCRIPT). Numbers of
 * the data object are written with ms_json_put_num. */
static inline void ms_html_json_str(FILE *fp, const char *s)
{
    ms_json_write_str(fp, s, strlen(s), MS_JSON_IN_SCRIPT);
}

/* The members "run", "ranks", "regions" (the program's regions), "tool"
 * (the tool's own regions, tool_stalls.h), "ops", "sizes", "matrix", "gpu"
 * and "warnings" of the data object, each followed by a comma. 0, or -1
 * when out of memory. */
int ms_html_charts(FILE *fp, const ms_run *run);

/* The members "sites" (run->sites: "rows" per call site with their
 * message regions, "functions", "lifecycle": start-up and shutdown) and
 * "imbalance" (the per-rank time of the top sites) of the data object
 * (report_html_sites.c), each followed by a comma. 0, or -1 when out of
 * memory. */
int ms_html_sites(FILE *fp, const ms_run *run);

/* The member "roofline" of the data object (report_html_roofline.c): null
 * without points, followed by a comma. 0, or -1 when writing failed. */
int ms_html_roofline(FILE *fp, const ms_run *run);

/* The member "waits" of the data object (report_html_waits.c), followed
 * by a comma: {"available":false,"summary_ranks":N} without the analysis
 * (run->waits NULL); else the waiting per pattern and rank, the rows of
 * most waiting with their call sites, the ranks that caused waiting, the
 * critical path ("path", null without) and the marks of the timeline
 * ("marks": waiting calls and path stretches of the ranks it shows). 0, or
 * -1 when out of memory. */
int ms_html_waits(FILE *fp, const ms_run *run);

/* Of the member "waits" (report_html_wait_sites.c): "rows_total" and
 * "sites", the waiting summed per (pattern, rank, MPI function, call
 * site), most first, followed by a comma; and the critical path's
 * "regions_total" and "regions", its time per (call, call site). 0, or
 * -1 when out of memory. */
struct ms_waits;
int ms_html_wait_sites(FILE *fp, const ms_run *run, const struct ms_waits *w);
int ms_html_path_sites(FILE *fp, const ms_run *run, const struct ms_waits *w);

/* The member "timeline" of the data object: per rank, the longest events
 * (at most MS_HTML_TIMELINE_EVENTS, and MS_HTML_TIMELINE_TOTAL over all
 * ranks), read again from the logs. 0, or -1 when out of memory. */
int ms_html_timeline(FILE *fp, const ms_run *run);
/* The section of files of MPI-IO (report_html_files.c): HTML, not data;
 * nothing when the run has no calls on files. */
int ms_html_files(FILE *fp, const ms_run *run);
/* The section of communicators (report_html_comms.c): HTML, not data;
 * each one's label, size, how it was made and its call site, as the text
 * report's section (comms.h); nothing when the text report has none. */
int ms_html_comms(FILE *fp, const ms_run *run);
/* The section "Run ended" (report_html_ending.c): HTML, not data; each
 * rank's state and how, and who waits for whom, as the text report's
 * section (run_end.h); nothing when every rank finished. */
int ms_html_ending(FILE *fp, const ms_run *run);

/* The sections "Root causes" and "What a fix would save"
 * (report_html_causes.c): HTML, not data; the text report's sentences
 * (cause_words.h); each nothing when the analysis has none. 0, or -1 when
 * writing failed. */
int ms_html_causes(FILE *fp, const ms_run *run);

/* The section "Critical path per thread" (report_html_threads.c): HTML,
 * not data; after the critical path's; nothing when the path runs on the
 * first thread of every rank. 0, or -1 when writing failed. */
int ms_html_path_threads(FILE *fp, const ms_run *run);

/* s as HTML element content or attribute value: markup characters and
 * quotes escaped, control characters as spaces, bytes that are not valid
 * UTF-8 as U+FFFD (the sections written as markup). */
static inline void ms_html_part_text(FILE *fp, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = ms_utf8_len(p, 4);
        const char *esc = *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : *p == '"' ? "&quot;"
                        : *p == '\'' ? "&#39;" : NULL;
        if (esc)
            fputs(esc, fp);
        else if (n == 0)
            fputs("\xef\xbf\xbd", fp);
        else if (*p < 0x20 || *p == 0x7f)
            fputc(' ', fp);
        else
            fwrite(p, 1, n, fp);
        p += n ? n : 1;
    }
}

#endif
