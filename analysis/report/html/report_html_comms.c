/* The HTML page's table of communicators (comms.h): like the text
 * report's section, labels and never ids; a name cut in its label is
 * whole in the cell's title. Nothing when the run has only world and
 * self, unnamed. */
#include <inttypes.h>

#include "../../reduce/ops.h"
#include "html_parts.h"

/* A cell of class cls holding text, with title when there is one. */
static void cell(FILE *fp, const char *cls, const char *text, const char *title)
{
    fprintf(fp, "<td class=\"%s\"", cls);
    if (title) {
        fputs(" title=\"", fp);
        ms_html_part_text(fp, title);
        fputc('"', fp);
    }
    fputc('>', fp);
    ms_html_part_text(fp, text);
    fputs("</td>", fp);
}

int ms_html_comms(FILE *fp, const ms_run *run)
{
    const ms_comms *c = &run->comms;
    if (!ms_comms_listed(c))
        return 0;
    fprintf(fp,
            "<section id=\"sec-comms\"><h2>Communicators (%zu)</h2>"
            "<p class=\"note\">Each communicator as region names call it: the name the program gave it with "
            "MPI_Comm_set_name (hover for the whole name), else how it was made. Size: its members (an "
            "intercommunicator's: its remote group). Call site: where the call that made it was made.</p>"
            "<div class=\"scroll\"><table id=\"comms\" class=\"plain\"><thead><tr><th class=\"name\">communicator"
            "</th><th>size</th><th class=\"name\">made by</th><th class=\"site\">call site</th></tr></thead>"
            "<tbody>\n",
            c->n);
    for (size_t i = 0; i < c->n; i++) {
        const ms_comm_row *r = &c->v[i];
        char label[256], how[512];
        fputs("<tr>", fp);
        cell(fp, "name", ms_comm_label(run, r->f.id, label, sizeof label), r->f.name);
        if (r->f.size)
            fprintf(fp, "<td>%" PRIu32 "</td>", r->f.size);
        else
            fputs("<td>-</td>", fp);
        cell(fp, "name", ms_comms_made_by(c, r, how, sizeof how), NULL);
        cell(fp, "site", r->f.where ? r->f.where : "-", r->f.where);
        fputs("</tr>\n", fp);
    }
    fputs("</tbody></table></div></section>\n", fp);
    return ferror(fp) ? -1 : 0;
}
