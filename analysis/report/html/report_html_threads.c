/* The HTML page's "Critical path per thread" section (html_parts.h):
 * HTML, not data; the threads on the path of each rank where it runs on a
 * thread but the first, as the text report's rows t0, t1, ... Nothing
 * when it runs on the first thread of every rank. */
#include <inttypes.h>

#include "../units.h"
#include "../../waits/waits.h"
#include "html_parts.h"

static void cell(FILE *fp, const char *s)
{
    fputs("<td>", fp);
    ms_html_part_text(fp, s);
    fputs("</td>", fp);
}

int ms_html_path_threads(FILE *fp, const ms_run *run)
{
    const ms_waits *w = run->waits;
    if (!w || !w->has_path || !w->npath_threads)
        return 0;
    fputs("<section id=\"sec-path-threads\"><h2>Critical path per thread</h2>"
          "<p class=\"note\">On a rank, the path follows the thread whose call it is in (where a call waited, "
          "the thread that made the call it waited for): the ranks where it runs on a thread but the first, "
          "thread 0 being the one that made MPI_Init.</p>\n"
          "<div class=\"scroll\"><table id=\"path-threads\" class=\"plain\"><thead><tr><th>rank</th><th>thread</th>"
          "<th>compute</th><th>MPI</th><th>share of the path</th></tr></thead><tbody>\n",
          fp);
    for (size_t i = 0; i < w->npath_threads; i++) {
        const ms_wx_path_thread *t = &w->path_threads[i];
        char c[32], m[32], pct[32];
        ms_fmt_ns(c, sizeof c, t->compute_ns);
        ms_fmt_ns(m, sizeof m, t->mpi_ns);
        ms_fmt_pct(pct, sizeof pct,
                   w->path_ns ? 100.0 * (double)(t->compute_ns + t->mpi_ns) / (double)w->path_ns : 0);
        fprintf(fp, "<tr><td>%" PRId32 "</td><td>%" PRIu32 "</td>", t->rank, t->thread);
        cell(fp, c);
        cell(fp, m);
        fprintf(fp, "<td>%s %%</td></tr>\n", pct);
    }
    fputs("</tbody></table></div></section>\n", fp);
    return ferror(fp) ? -1 : 0;
}
