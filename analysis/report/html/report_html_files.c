/* The HTML page's table of files of MPI-IO (io_rows.h): like the text
 * report's section; nothing when the run has no calls on files. */
#include <inttypes.h>
#include <stdlib.h>

#include "../../reduce/io_rows.h"
#include "html_parts.h"

int ms_html_files(FILE *fp, const ms_run *run)
{
    ms_io_row *rows;
    size_t nrows;
    ms_io_sum *sums;
    size_t nsums;
    if (ms_io_rows(run, &rows, &nrows) != 0)
        return -1;
    if (ms_io_sums(rows, nrows, &sums, &nsums) != 0) {
        free(rows);
        return -1;
    }
    if (nsums)
        fputs("<section id=\"sec-files\"><h2>Files (MPI-IO)</h2>"
              "<p class=\"note\">Calls on each file over its ranks; bytes as the calls moved them.</p>"
              "<div class=\"scroll\"><table id=\"files\" class=\"plain\"><thead><tr><th>file</th><th>ranks</th>"
              "<th>reads</th><th>bytes read</th><th>writes</th><th>bytes written</th><th>other calls</th>"
              "<th>time (s)</th></tr></thead><tbody>\n",
              fp);
    for (size_t i = 0; i < nsums; i++) {
        const ms_io_sum *s = &sums[i];
        fputs("<tr><td>", fp);
        ms_html_part_text(fp, s->path);
        fprintf(fp, "</td><td>%zu</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64
                "</td><td>%" PRIu64 "</td><td>%.6f</td></tr>\n",
                s->ranks, s->reads, s->read_bytes, s->writes, s->write_bytes, s->others, (double)s->total_ns / 1e9);
    }
    if (nsums)
        fputs("</tbody></table></div></section>\n", fp);
    free(rows);
    free(sums);
    return ferror(fp) ? -1 : 0;
}
