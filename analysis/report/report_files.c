/*
 * The files of MPI-IO in the reports (io_rows.h), nothing when the run has
 * no calls on files:
 *   text  "Files (MPI-IO)": per file its path, ranks, reads, bytes read,
 *         writes, bytes written, other calls and time (over its ranks)
 *   json  "files": [{"path", "ranks", "reads", "read_bytes", "writes",
 *         "write_bytes", "other_calls", "total_s", "by_rank": [{"rank",
 *         "op", "calls", "bytes", "total_s"}]}]
 *   csv   --files-csv: file,rank,op,calls,bytes,total_s, one row per file,
 *         rank and op
 * The HTML page's table is html/report_html_files.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "csv.h"
#include "json_str.h"
#include "report.h"
#include "../reduce/io_rows.h"

typedef struct files_view {
    ms_io_row *rows;
    size_t nrows;
    ms_io_sum *sums;
    size_t nsums;
} files_view;

static int view_of(const ms_run *run, files_view *v)
{
    memset(v, 0, sizeof *v);
    if (ms_io_rows(run, &v->rows, &v->nrows) != 0)
        return -1;
    if (ms_io_sums(v->rows, v->nrows, &v->sums, &v->nsums) != 0) {
        free(v->rows);
        return -1;
    }
    return 0;
}

static void view_free(files_view *v)
{
    free(v->rows);
    free(v->sums);
}

static void printable(char *dst, size_t cap, const char *s)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        dst[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    dst[n] = 0;
}

int ms_report_files_text(FILE *fp, const ms_run *run)
{
    files_view v;
    if (view_of(run, &v) != 0)
        return -1;
    if (v.nsums) {
        fprintf(fp, "\nFiles (MPI-IO)\n");
        fprintf(fp, "  %-40s %5s %8s %14s %8s %14s %8s %12s\n", "file", "ranks", "reads", "bytes read", "writes",
                "bytes written", "other", "time (s)");
    }
    for (size_t i = 0; i < v.nsums; i++) {
        const ms_io_sum *s = &v.sums[i];
        char path[4097];
        printable(path, sizeof path, s->path);
        fprintf(fp, "  %-40s %5zu %8" PRIu64 " %14" PRIu64 " %8" PRIu64 " %14" PRIu64 " %8" PRIu64 " %12.6f\n", path,
                s->ranks, s->reads, s->read_bytes, s->writes, s->write_bytes, s->others, (double)s->total_ns / 1e9);
    }
    view_free(&v);
    return ferror(fp) ? -1 : 0;
}

int ms_report_files_csv(FILE *fp, const ms_run *run)
{
    files_view v;
    if (view_of(run, &v) != 0)
        return -1;
    fputs("file,rank,op,calls,bytes,total_s\n", fp);
    for (size_t i = 0; i < v.nrows; i++) {
        const ms_io_row *r = &v.rows[i];
        ms_csv_field(fp, r->path);
        fprintf(fp, ",%s,", ms_rank_s(r->rank).s);
        ms_csv_field(fp, r->op);
        fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",%.9g\n", r->calls, r->bytes, (double)r->total_ns / 1e9);
    }
    view_free(&v);
    return ferror(fp) ? -1 : 0;
}

int ms_report_files_json(FILE *fp, const ms_run *run)
{
    files_view v;
    if (view_of(run, &v) != 0)
        return -1;
    if (v.nsums)
        fputs(",\n\"files\":[", fp);
    for (size_t i = 0, k = 0; i < v.nsums; i++) {
        const ms_io_sum *s = &v.sums[i];
        fputs(i ? ",\n{\"path\":" : "\n{\"path\":", fp);
        ms_json_put_str(fp, s->path, strlen(s->path));
        fprintf(fp, ",\"ranks\":%zu,\"reads\":%" PRIu64 ",\"read_bytes\":%" PRIu64 ",\"writes\":%" PRIu64
                ",\"write_bytes\":%" PRIu64 ",\"other_calls\":%" PRIu64 ",\"total_s\":%.9f,\"by_rank\":[",
                s->ranks, s->reads, s->read_bytes, s->writes, s->write_bytes, s->others, (double)s->total_ns / 1e9);
        for (int first = 1; k < v.nrows && strcmp(v.rows[k].path, s->path) == 0; k++, first = 0) {
            const ms_io_row *r = &v.rows[k];
            fprintf(fp, "%s{\"rank\":%" PRId32 ",\"op\":", first ? "" : ",", r->rank);
            ms_json_put_str(fp, r->op, strlen(r->op));
            fprintf(fp, ",\"calls\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"total_s\":%.9f}", r->calls, r->bytes,
                    (double)r->total_ns / 1e9);
        }
        fputs("]}", fp);
    }
    if (v.nsums)
        fputc(']', fp);
    view_free(&v);
    return ferror(fp) ? -1 : 0;
}
