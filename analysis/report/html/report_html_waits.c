/* HTML report: the wait states and the critical path (run->waits,
 * analysis/waits/waits.h; html_parts.h), and what the timeline marks of
 * them: the waiting calls and the stretches of the path, of the ranks the
 * timeline shows. Times are ns; relative times count from the run's
 * earliest event, as the timeline's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../cause_words.h"
#include "../json_str.h"
#include "../../reduce/ops.h"
#include "../../reduce/run_waits.h"
#include "../../waits/waits.h"
#include "html_parts.h"

#define LATE_RANKS 32     /* rows of the late ranks */
#define PATH_RANKS 32     /* bars of the path chart (the ranks of most time on it) */

/* The index into run->ranks of a world rank; SIZE_MAX without its log. */
static size_t rank_index(const ms_run *run, int32_t rank)
{
    const ms_rank_info *in = ms_run_rank(run, rank);
    return in ? (size_t)(in - run->ranks) : SIZE_MAX;
}

/* "MPI_Recv" for a region of op "recv"; the region's short name otherwise. */
static void call_name(char *buf, size_t cap, const ms_run *run, uint32_t region)
{
    if (region < run->nregions && run->regions[region].info.is_mpi && run->regions[region].info.op[0]) {
        const char *op = run->regions[region].info.op;
        snprintf(buf, cap, "MPI_%c%s", op[0] >= 'a' && op[0] <= 'z' ? op[0] - 'a' + 'A' : op[0], op + 1);
    } else if (region < run->nregions) {
        ms_short_name(run, buf, cap, &run->regions[region]);
    } else {
        snprintf(buf, cap, "%s", ms_run_wait_region(run, region));
    }
}

/* Waiting per pattern (rows) and rank (columns): every rank, or beyond
 * MS_HTML_WAIT_COLUMNS ranks the ones that waited most, most first, and
 * the rest summed as "others". */
static int put_patterns(FILE *fp, const ms_run *run, const ms_waits *w)
{
    size_t n = run->nranks;
    uint64_t *by = calloc((n ? n : 1) * MS_WX_NPATTERNS, sizeof *by);
    uint64_t *tot = calloc(n ? n : 1, sizeof *tot);
    size_t *col = malloc((n ? n : 1) * sizeof *col);
    if (!by || !tot || !col) {
        free(by);
        free(tot);
        free(col);
        return -1;
    }
    for (size_t i = 0; i < w->nrows; i++) {
        size_t r = rank_index(run, w->rows[i].rank);
        if (r != SIZE_MAX) {
            by[r * MS_WX_NPATTERNS + w->rows[i].pattern] += w->rows[i].wait_ns;
            tot[r] += w->rows[i].wait_ns;
        }
    }
    size_t ncol = n;
    for (size_t i = 0; i < n; i++)
        col[i] = i;
    if (n > MS_HTML_WAIT_COLUMNS) {
        /* The most waiting first (a partial selection: columns are few). */
        for (size_t i = 0; i < MS_HTML_WAIT_COLUMNS; i++)
            for (size_t j = i + 1; j < n; j++)
                if (tot[col[j]] > tot[col[i]] || (tot[col[j]] == tot[col[i]] && col[j] < col[i])) {
                    size_t t = col[i];
                    col[i] = col[j];
                    col[j] = t;
                }
        ncol = MS_HTML_WAIT_COLUMNS;
    }
    fputs("\"columns\":[", fp);
    for (size_t i = 0; i < ncol; i++)
        fprintf(fp, "%s%" PRId32, i ? "," : "", run->ranks[col[i]].rank);
    fprintf(fp, "],\"others\":%s,\"others_ranks\":%zu,\"patterns\":[", ncol < n ? "true" : "false", n - ncol);
    int first = 1;
    for (int p = 0; p < MS_WX_NPATTERNS; p++) {
        if (!w->pattern_ns[p])
            continue;
        fprintf(fp, "%s{\"pattern\":\"%s\",\"total_ns\":%" PRIu64 ",\"ns\":[", first ? "" : ",\n",
                ms_wx_pattern_name(p), w->pattern_ns[p]);
        first = 0;
        uint64_t shown = 0;
        for (size_t i = 0; i < ncol; i++) {
            uint64_t v = by[col[i] * MS_WX_NPATTERNS + p];
            shown += v;
            fprintf(fp, "%s%" PRIu64, i ? "," : "", v);
        }
        fprintf(fp, "],\"others_ns\":%" PRIu64 "}", w->pattern_ns[p] - shown);
    }
    fputs("],\n", fp);
    free(by);
    free(tot);
    free(col);
    return 0;
}

/* Per rank that caused waiting: the waiting of all the calls it caused. */
static int put_late(FILE *fp, const ms_waits *w)
{
    size_t n = w->nlate;
    ms_wx_late *s = ms_late_by_time(w);
    if (n && !s)
        return -1;
    fprintf(fp, "\"late_total\":%zu,\"late\":[", n);
    for (size_t i = 0; i < n && i < LATE_RANKS; i++)
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"wait_ns\":%" PRIu64 ",\"calls\":%" PRIu64 "}", i ? "," : "", s[i].rank,
                s[i].ns, s[i].calls);
    fputs("],\n", fp);
    free(s);
    return 0;
}

static int path_rank_cmp(const void *a, const void *b)
{
    const ms_wx_path_rank *x = a, *y = b;
    uint64_t p = x->compute_ns + x->mpi_ns, q = y->compute_ns + y->mpi_ns;
    if (p != q)
        return p > q ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The critical path: its length and imbalance, the ranks it runs on (most
 * time first) and its regions. */
static int put_path(FILE *fp, const ms_run *run, const ms_waits *w)
{
    if (!w->has_path) {
        fputs("\"path\":null,\n", fp);
        return 0;
    }
    ms_wx_path_rank *pr = malloc((w->npath_ranks ? w->npath_ranks : 1) * sizeof *pr);
    if (!pr)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < w->npath_ranks; i++)
        if (w->path_ranks[i].compute_ns || w->path_ranks[i].mpi_ns)
            pr[n++] = w->path_ranks[i];
    qsort(pr, n, sizeof *pr, path_rank_cmp);
    uint64_t compute = 0, mpi = 0;
    for (size_t i = 0; i < n; i++) {
        compute += pr[i].compute_ns;
        mpi += pr[i].mpi_ns;
    }
    fprintf(fp, "\"path\":{\"length_ns\":%" PRIu64 ",\"imbalance_ns\":%" PRIu64 ",\"wall_ns\":%" PRIu64
                ",\"compute_ns\":%" PRIu64 ",\"mpi_ns\":%" PRIu64 ",\"ranks_total\":%zu,\"ranks\":[",
            w->path_ns, w->imbalance_ns, run->wall_ns, compute, mpi, n);
    for (size_t i = 0; i < n && i < PATH_RANKS; i++)
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"compute_ns\":%" PRIu64 ",\"mpi_ns\":%" PRIu64 "}", i ? "," : "",
                pr[i].rank, pr[i].compute_ns, pr[i].mpi_ns);
    fputs("],", fp);
    free(pr);
    if (ms_html_path_sites(fp, run, w) != 0)
        return -1;
    fputs("},\n", fp);
    return 0;
}

/* A mark of the timeline: a stretch of the path (i into w->path_segs). */
typedef struct mark {
    int64_t from;
    uint64_t dur;
    size_t i;
} mark;

static int mark_dur_cmp(const void *a, const void *b)
{
    const mark *x = a, *y = b;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    return x->from < y->from ? -1 : x->from > y->from;
}

static int mark_from_cmp(const void *a, const void *b)
{
    const mark *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Keep the MS_HTML_WAIT_MARKS longest of m[0..n), in time order; their
 * count. */
static size_t keep_longest(mark *m, size_t n)
{
    if (n > MS_HTML_WAIT_MARKS) {
        qsort(m, n, sizeof *m, mark_dur_cmp);
        n = MS_HTML_WAIT_MARKS;
    }
    qsort(m, n, sizeof *m, mark_from_cmp);
    return n;
}

/* The marks of the ranks the timeline shows (its first
 * MS_HTML_TIMELINE_RANKS): waiting calls as [rank, start, duration,
 * pattern, cause, ...], the path as [rank, start, duration, is_mpi, name,
 * ...] (name: index into "names", [name, call, MPI op or ""]). */
static int put_marks(FILE *fp, const ms_run *run, const ms_waits *w)
{
    /* A run with ranks in summary mode has no timeline. */
    size_t shown = run->nranks < MS_HTML_TIMELINE_RANKS ? run->nranks : MS_HTML_TIMELINE_RANKS;
    if (run->summary_ranks)
        shown = 0;
    int32_t last = shown ? run->ranks[shown - 1].rank : -1;
    size_t cap = w->npath_segs;
    mark *m = malloc((cap ? cap : 1) * sizeof *m);
    uint32_t *name_of = malloc((run->nregions + 1) * sizeof *name_of);
    uint32_t *names = malloc((run->nregions + 1) * sizeof *names);
    if (!m || !name_of || !names) {
        free(m);
        free(name_of);
        free(names);
        return -1;
    }
    /* The analysis kept the longest waiting calls of the ranks shown, in
     * time order (ms_waits.marks). */
    fprintf(fp, "\"marks\":{\"cap\":%d,\"inst_total\":%zu,\"inst\":[", MS_HTML_WAIT_MARKS, w->marks_total);
    for (size_t k = 0; k < w->nmarks; k++) {
        const ms_wx_instance *x = &w->marks[k];
        fprintf(fp, "%s%" PRId32 ",%" PRId64 ",%" PRIu64 ",%d,%" PRId32, k ? "," : "", x->rank, x->from - run->origin,
                (uint64_t)(x->to - x->from), (int)x->pattern, x->cause);
    }
    size_t n = 0;
    for (size_t i = 0; i < w->npath_segs; i++)
        if (w->path_segs[i].rank <= last)
            m[n++] = (mark){w->path_segs[i].from - run->origin, (uint64_t)(w->path_segs[i].to - w->path_segs[i].from), i};
    /* The analysis kept the path's longest pieces: the total is its count. */
    size_t segs_total = w->npath_segs_all > w->npath_segs ? n + (w->npath_segs_all - w->npath_segs) : n;
    fprintf(fp, "],\n\"segs_total\":%zu,\"segs\":[", segs_total);
    n = keep_longest(m, n);
    /* Region -> index into the names (assigned on first use); the last
     * slot is (compute). */
    for (size_t g = 0; g <= run->nregions; g++)
        name_of[g] = UINT32_MAX;
    uint32_t nnames = 0;
    for (size_t k = 0; k < n; k++) {
        const ms_wx_path_seg *s = &w->path_segs[m[k].i];
        size_t g = s->region < run->nregions ? s->region : run->nregions;
        if (name_of[g] == UINT32_MAX) {
            name_of[g] = nnames;
            names[nnames++] = (uint32_t)g;
        }
        fprintf(fp, "%s%" PRId32 ",%" PRId64 ",%" PRIu64 ",%d,%" PRIu32, k ? "," : "", s->rank, m[k].from, m[k].dur,
                (int)s->is_mpi, name_of[g]);
    }
    fputs("],\n\"names\":[", fp);
    for (uint32_t i = 0; i < nnames; i++) {
        uint32_t g = names[i] < run->nregions ? names[i] : MS_WX_COMPUTE;
        char call[2048];
        call_name(call, sizeof call, run, g);
        char full[2048];
        ms_long_name(run, full, sizeof full, ms_run_wait_region(run, g));
        fputs(i ? ",[" : "[", fp);
        ms_html_json_str(fp, full);
        fputc(',', fp);
        ms_html_json_str(fp, call);
        fputc(',', fp);
        ms_html_json_str(fp, g < run->nregions && run->regions[g].info.is_mpi ? run->regions[g].info.op : "");
        fputc(']', fp);
    }
    fputs("]}", fp);
    free(m);
    free(name_of);
    free(names);
    return 0;
}

int ms_html_waits(FILE *fp, const ms_run *run)
{
    const ms_waits *w = run->waits;
    if (!w) {
        fprintf(fp, "\"waits\":{\"available\":false,\"summary_ranks\":%zu", run->summary_ranks);
        if (run->waits_skipped) {
            fputs(",\"skipped\":", fp);
            ms_html_json_str(fp, run->waits_skipped);
        }
        fputs("},\n", fp);
        return ferror(fp) ? -1 : 0;
    }
    fprintf(fp, "\"waits\":{\"available\":true,\"summary_ranks\":%zu,\"traced_ranks\":%zu,\"old_ranks\":%zu,"
                "\"wait_ns\":%" PRIu64 ",\"calls\":%zu,\"mpi_ns\":%" PRIu64 ",\"messages\":%" PRIu64
                ",\"collectives\":%" PRIu64 ",\"unmatched_sends\":%" PRIu64 ",\"unmatched_recvs\":%" PRIu64
                ",\"unmatched_collectives\":%" PRIu64 ",\"clock_violations\":%" PRIu64
                ",\"clock_violation_max_ns\":%" PRIu64 ",\n",
            run->summary_ranks, run->wait_ranks, run->wait_ranks_old, w->wait_ns, w->ninst, run->mpi_ns, w->messages,
            w->colls, w->unmatched_sends, w->unmatched_recvs, w->unmatched_colls, w->clock_violations,
            w->clock_violation_max_ns);
    if (put_patterns(fp, run, w) != 0)
        return -1;
    if (ms_html_wait_sites(fp, run, w) != 0 || put_late(fp, w) != 0 || put_path(fp, run, w) != 0 || put_marks(fp, run, w) != 0)
        return -1;
    fputs("},\n", fp);
    return ferror(fp) ? -1 : 0;
}
