/*
 * The hardware-counter parts of the text and JSON reports (counters.h) and
 * the roofline summary (roofline.h). In the text, raw events and rates
 * (metric names with "/s") are summed over a rank's counter threads, other
 * metrics (ratios such as CPI) are averaged over them; the JSON has every
 * thread's values as stored.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../read/worlds.h"
#include "csv.h"
#include "json_str.h"
#include "report.h"

/* (region, rank) blocks the text shows per set. */
#define TEXT_COUNTER_BLOCKS 24
#define TEXT_ROOFLINE_ROWS 24

/* s with control bytes as '?', cut to width columns (bytes). */
static void clean(char *dst, size_t cap, const char *s, size_t width)
{
    size_t n = 0;
    for (; *s && n + 1 < cap && n < width; s++)
        dst[n++] = ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
    dst[n] = 0;
}

static int same_block(const ms_counter_row *a, const ms_counter_row *b)
{
    if (a->set != b->set || a->rank != b->rank || !a->region != !b->region)
        return 0;
    return !a->region || strcmp(a->region, b->region) == 0;
}

static void text_block(FILE *fp, const ms_counter_set *s, const ms_counter_row *rows, size_t n)
{
    char name[128];
    clean(name, sizeof name, rows[0].region ? rows[0].region : "(whole run)", 60);
    double time_s = 0;
    uint64_t count = 0;
    for (size_t k = 0; k < n; k++) {
        if (rows[k].time_s > time_s)
            time_s = rows[k].time_s;
        if (rows[k].count > count)
            count = rows[k].count;
    }
    fprintf(fp, "  %s  rank %s  %zu thread%s  calls %" PRIu64 "  time %.6g s\n", name, ms_rank_s(rows[0].rank).s, n,
            n == 1 ? "" : "s", count, time_s);
    for (uint32_t v = 0; v < s->n; v++) {
        int summed = v < s->nevents || strstr(s->names[v], "/s") != NULL;
        double sum = 0;
        for (size_t k = 0; k < n; k++)
            sum += rows[k].values[v];
        if (!summed)
            sum /= (double)n;
        clean(name, sizeof name, s->names[v], 56);
        if (isfinite(sum))
            fprintf(fp, "      %-56s %16.6g%s\n", name, sum, summed ? "" : " (mean)");
        else
            fprintf(fp, "      %-56s %16s\n", name, "-");
    }
}

static void text_roofline(FILE *fp, const ms_roofline *r)
{
    fprintf(fp, "\nRoofline (%zu points; ceilings %.6g GFLOP/s%s, %.6g GB/s%s)\n", r->npoints, r->peak_gflops,
            r->gflops_empirical ? " empirical" : "", r->peak_gbs, r->gbs_empirical ? " empirical" : "");
    if (r->npoints)
        fprintf(fp, "  %-40s %6s %12s %12s %10s %12s\n", "region", "rank", "GFLOP/s", "GB/s", "FLOP/byte",
                "runtime s");
    for (size_t i = 0; i < r->npoints && i < TEXT_ROOFLINE_ROWS; i++) {
        const ms_roofline_point *p = &r->points[i];
        char name[64];
        clean(name, sizeof name, p->region, 40);
        fprintf(fp, "  %-40s %6s %12.6g %12.6g %10.4g %12.6g\n", name, ms_rank_s(p->rank).s, p->gflops, p->gbs, p->ai,
                p->runtime_s);
    }
    if (r->npoints > TEXT_ROOFLINE_ROWS)
        fprintf(fp, "  ... %zu more (--roofline-csv lists all)\n", r->npoints - TEXT_ROOFLINE_ROWS);
    if (r->nrejected)
        fprintf(fp, "  %zu region%s left out: a rate not measured, not finite or not positive\n", r->nrejected,
                r->nrejected == 1 ? "" : "s");
}

int ms_report_counters_text(FILE *fp, const ms_run *run)
{
    const ms_counters *c = &run->counters;
    for (uint32_t set = 0; set < c->nsets; set++) {
        const ms_counter_set *s = &c->sets[set];
        char name[80];
        clean(name, sizeof name, s->group, 60);
        fprintf(fp, "\nHardware counters (%s: %" PRIu32 " events, %" PRIu32 " metrics)\n", name, s->nevents,
                s->n - s->nevents);
        size_t blocks = 0, hidden = 0;
        for (size_t i = 0; i < c->nrows;) {
            size_t j = i + 1;
            while (j < c->nrows && same_block(&c->rows[i], &c->rows[j]))
                j++;
            if (c->rows[i].set == set) {
                if (blocks < TEXT_COUNTER_BLOCKS)
                    text_block(fp, s, &c->rows[i], j - i);
                else
                    hidden++;
                blocks++;
            }
            i = j;
        }
        if (hidden)
            fprintf(fp, "  ... %zu more region and rank pairs (--json lists all)\n", hidden);
    }
    if (run->roofline && (run->roofline->npoints || run->roofline->nrejected))
        text_roofline(fp, run->roofline);
    return ferror(fp) ? -1 : 0;
}

static int put_s(FILE *fp, const char *s)
{
    return ms_json_put_str(fp, s, strlen(s));
}

static int json_names(FILE *fp, const ms_counter_set *s, uint32_t from, uint32_t to)
{
    fputc('[', fp);
    for (uint32_t i = from; i < to; i++) {
        if (i > from)
            fputc(',', fp);
        if (put_s(fp, s->names[i]) != 0)
            return -1;
    }
    fputc(']', fp);
    return 0;
}

static int json_roofline(FILE *fp, const ms_roofline *r)
{
    fputs("{\"peak_gflops\":", fp);
    ms_json_put_double(fp, r->peak_gflops);
    fprintf(fp, ",\"peak_gflops_empirical\":%s,\"peak_gbs\":", r->gflops_empirical ? "true" : "false");
    ms_json_put_double(fp, r->peak_gbs);
    fprintf(fp, ",\"peak_gbs_empirical\":%s,\"rejected\":%zu,\"points\":[", r->gbs_empirical ? "true" : "false",
            r->nrejected);
    for (size_t i = 0; i < r->npoints; i++) {
        const ms_roofline_point *p = &r->points[i];
        fputs(i ? ",\n{\"region\":" : "\n{\"region\":", fp);
        if (put_s(fp, p->region) != 0)
            return -1;
        fprintf(fp, ",\"rank\":%" PRId32 ",\"gflops\":", p->rank);
        ms_json_put_double(fp, p->gflops);
        fputs(",\"gbs\":", fp);
        ms_json_put_double(fp, p->gbs);
        fputs(",\"ai\":", fp);
        ms_json_put_double(fp, p->ai);
        fputs(",\"runtime_s\":", fp);
        ms_json_put_double(fp, p->runtime_s);
        fputs(",\"flops_metric\":", fp);
        if (put_s(fp, p->flops_metric) != 0)
            return -1;
        fputs(",\"bandwidth_metric\":", fp);
        if (put_s(fp, p->bandwidth_metric) != 0)
            return -1;
        fputc('}', fp);
    }
    fputs("]}", fp);
    return 0;
}

int ms_report_counters_json(FILE *fp, const ms_run *run)
{
    const ms_counters *c = &run->counters;
    fputs("{\"sets\":[", fp);
    for (size_t i = 0; i < c->nsets; i++) {
        const ms_counter_set *s = &c->sets[i];
        fputs(i ? ",\n{\"group\":" : "\n{\"group\":", fp);
        if (put_s(fp, ms_counter_set_group(s->group)) != 0)
            return -1;
        size_t source = ms_counter_set_source_len(s->group);
        if (source) {
            fputs(",\"source\":", fp);
            if (ms_json_put_str(fp, s->group, source) != 0)
                return -1;
        }
        fputs(",\"events\":", fp);
        if (json_names(fp, s, 0, s->nevents) != 0)
            return -1;
        fputs(",\"metrics\":", fp);
        if (json_names(fp, s, s->nevents, s->n) != 0)
            return -1;
        fputc('}', fp);
    }
    fputs("],\n\"rows\":[", fp);
    for (size_t i = 0; i < c->nrows; i++) {
        const ms_counter_row *r = &c->rows[i];
        fprintf(fp, "%s{\"set\":%" PRIu32 ",\"region\":", i ? ",\n" : "\n", r->set);
        if (r->region) {
            if (put_s(fp, r->region) != 0)
                return -1;
        } else {
            fputs("null", fp);
        }
        fprintf(fp, ",\"rank\":%" PRId32 ",\"thread\":%" PRIu32 ",\"cpu\":%" PRIu32 ",\"count\":%" PRIu64
                    ",\"time_s\":",
                r->rank, r->cthread, r->cpu, r->count);
        ms_json_put_double(fp, r->time_s);
        fputs(",\"values\":[", fp);
        for (uint32_t v = 0; v < c->sets[r->set].n; v++) {
            if (v)
                fputc(',', fp);
            ms_json_put_double(fp, r->values[v]);
        }
        fputs("]}", fp);
    }
    fputs("],\n\"roofline\":", fp);
    if (run->roofline) {
        if (json_roofline(fp, run->roofline) != 0)
            return -1;
    } else {
        fputs("null", fp);
    }
    fputc('}', fp);
    return ferror(fp) ? -1 : 0;
}

int ms_roofline_csv(FILE *fp, const ms_roofline *r)
{
    fputs(MS_ROOFLINE_CSV_HEADER "\n", fp);
    for (size_t i = 0; r && i < r->npoints; i++) {
        const ms_roofline_point *p = &r->points[i];
        ms_csv_field(fp, p->region);
        fprintf(fp, ",%s,%.9g,%.9g,%.9g,%.9g,", ms_rank_s(p->rank).s, p->gflops, p->gbs, p->ai, p->runtime_s);
        ms_csv_field(fp, p->flops_metric);
        fputc(',', fp);
        ms_csv_field(fp, p->bandwidth_metric);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}
