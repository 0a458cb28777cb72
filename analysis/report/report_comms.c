/*
 * The run's communicators in the reports (comms.h): the text report's
 * "Communicators" section (each one's label, size, the call that made it
 * from which parent, and where) and the JSON report's "communicators" (ids
 * as numbers, names whole and escaped). Labels, never ids, in the text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json_str.h"
#include "report.h"
#include "../reduce/ops.h"

int ms_report_comms_text(FILE *fp, const ms_run *run)
{
    const ms_comms *c = &run->comms;
    if (!ms_comms_listed(c))
        return 0;   /* world and self, unnamed: nothing to say */
    fprintf(fp, "\nCommunicators (%zu)\n  %-40s %6s  %-30s %s\n", c->n, "communicator", "size", "made by",
            "call site");
    for (size_t i = 0; i < c->n; i++) {
        const ms_comm_row *r = &c->v[i];
        char label[256], how[512], size[32];
        ms_comm_label(run, r->f.id, label, sizeof label);
        ms_comms_made_by(c, r, how, sizeof how);
        if (r->f.size)
            snprintf(size, sizeof size, "%" PRIu32, r->f.size);
        else
            snprintf(size, sizeof size, "-");
        fprintf(fp, "  %-40s %6s  %-30s %s\n", label, size, how, r->f.where ? r->f.where : "-");
    }
    fputs("  (sizes of intercommunicators: their remote group; --json has ids and whole names)\n", fp);
    return ferror(fp) ? -1 : 0;
}

static void put_str_or_null(FILE *fp, const char *s)
{
    if (s)
        ms_json_write_str(fp, s, strlen(s), MS_JSON_SHORT_CONTROLS);
    else
        fputs("null", fp);
}

int ms_report_comms_json(FILE *fp, const ms_run *run)
{
    const ms_comms *c = &run->comms;
    fputs(",\n\"communicators\":[", fp);
    for (size_t i = 0; i < c->n; i++) {
        const ms_comm_row *r = &c->v[i];
        char label[1024];
        fprintf(fp, "%s\n {\"id\":%" PRId64 ",\"label\":", i ? "," : "", r->f.id);
        put_str_or_null(fp, ms_comm_label(run, r->f.id, label, sizeof label));
        fputs(",\"name\":", fp);
        put_str_or_null(fp, r->f.name);
        fprintf(fp, ",\"size\":%" PRIu32 ",\"ranks\":%" PRIu32 ",\"made_by\":", r->f.size, r->ranks);
        put_str_or_null(fp, r->f.id > 1 && r->f.has_origin ? ms_comm_kind(r) : NULL);
        if (r->f.parent >= 0)
            fprintf(fp, ",\"parent\":%" PRId64, r->f.parent);
        else
            fputs(",\"parent\":null", fp);
        fputs(",\"dims\":[", fp);
        for (uint32_t k = 0; k < r->f.ndims; k++)
            fprintf(fp, "%s%" PRIu32, k ? "," : "", r->f.dims[k]);
        fputs("],\"call_site\":", fp);
        put_str_or_null(fp, r->f.where);
        fputc('}', fp);
    }
    fputs("]", fp);
    return ferror(fp) ? -1 : 0;
}
