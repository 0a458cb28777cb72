/*
 * External sorting of fixed-size records (spill.h): records come in any
 * order and are kept in memory only by the buffer's worth; each full
 * buffer is sorted and written as a run (appended to the previous run
 * when it starts at or after that run's last record, as nearly sorted
 * streams do). An iterator merges the runs with a small buffer each; a
 * flat reader gives the sorted records by index, merging the runs into a
 * new file when there are several.
 *
 * The order must be total (a sequence number as the last key): equal
 * records would come out in an unspecified order.
 */
#ifndef MPISCOPE_XSORT_H
#define MPISCOPE_XSORT_H

#include "spill.h"

typedef int (*ms_xsort_cmp)(const void *a, const void *b);

typedef struct ms_xsort {
    ms_spill_file file;      /* the runs, one after the other */
    ms_xsort_cmp cmp;
    unsigned char *buf;    /* the records not yet sorted */
    size_t n, cap;
    unsigned char *last;   /* the last record written */
    uint64_t *run_lo;      /* where each run starts; a run ends where the next starts */
    size_t nruns, runs_cap;
    int flat;              /* the file is one run */
} ms_xsort;

/* Records of `rec` bytes, sorted `cap` at a time. */
void ms_xsort_init(ms_xsort *s, size_t rec, size_t cap, ms_xsort_cmp cmp);
/* 0, or -1 (out of memory, disk: errno). */
int ms_xsort_add(ms_xsort *s, const void *r);
/* Every record added written; the buffer freed. 0, or -1. */
int ms_xsort_finish(ms_xsort *s);
void ms_xsort_free(ms_xsort *s);

static inline uint64_t ms_xsort_count(const ms_xsort *s)
{
    return s->file.n;
}

/* The sorted records, one after the other, over a finished sort. */
typedef struct ms_xsort_iter {
    struct xs_run *runs;   /* per run: its reader and place */
    size_t nruns;
    size_t *heap, nheap;
    unsigned char *cur;    /* the record given last */
    size_t rec;
    ms_xsort_cmp cmp;
    int failed;
} ms_xsort_iter;

/* buf_recs: records each run's reader holds. 0, or -1. */
int ms_xsort_iter_init(ms_xsort_iter *it, const ms_xsort *s, size_t buf_recs);
/* The next record (valid until the next call), NULL at the end or on a
 * read error (it->failed). */
const void *ms_xsort_next(ms_xsort_iter *it);
void ms_xsort_iter_free(ms_xsort_iter *it);

/* Make the finished sort's file one run (merging its runs into a new
 * file when there are several). 0, or -1. */
int ms_xsort_flatten(ms_xsort *s);

#endif
