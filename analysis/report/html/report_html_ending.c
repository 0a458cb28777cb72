/* The HTML page's "Run ended" section (report_ending.c, run_end.h): each
 * rank's state and how, and who waits for whom, as the text report says
 * them; nothing when every rank finished. */
#include <inttypes.h>
#include <stdlib.h>

#include "../../read/worlds.h"
#include "../../reduce/run_end.h"
#include "../report.h"
#include "html_parts.h"

int ms_html_ending(FILE *fp, const ms_run *run)
{
    ms_run_end end;
    if (ms_run_end_make(run, &end) != 0)
        return -1;
    if (end.clean) {
        ms_run_end_free(&end);
        return 0;
    }
    fputs("<section id=\"sec-ending\"><h2>Run ended</h2>"
          "<div class=\"scroll\"><table id=\"ending\" class=\"plain\"><thead><tr><th>rank</th><th>state</th>"
          "<th>how</th></tr></thead><tbody>\n",
          fp);
    for (size_t i = 0; i < run->nranks; i++) {
        char how[1024];
        ms_end_how(how, sizeof how, &run->ranks[i], &end.ranks[i]);
        fprintf(fp, "<tr><td>%s</td><td>%s</td><td>", ms_rank_s(run->ranks[i].rank).s,
                ms_end_state_name(end.ranks[i].state));
        ms_html_part_text(fp, how);
        fputs("</td></tr>\n", fp);
    }
    fputs("</tbody></table></div>\n", fp);
    int rc = 0;
    if (ms_end_any_waiting(&end)) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        rc = m ? ms_end_graph_text(m, run, &end) : -1;
        if (m && fclose(m) != 0)
            rc = -1;
        if (rc == 0) {
            fputs("<h3>Who waits for whom at the end</h3><pre id=\"waits-for\">", fp);
            /* Line by line: the markup writer turns line ends into spaces. */
            for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
                nl = strchr(line, '\n');
                if (nl)
                    *nl = 0;
                ms_html_part_text(fp, line);
                fputc('\n', fp);
            }
            fputs("</pre>\n", fp);
        }
        free(buf);
    }
    fputs("</section>\n", fp);
    ms_run_end_free(&end);
    return rc != 0 || ferror(fp) ? -1 : 0;
}
