/*
 * Hardware counters of a run (LIKWID groups), from the counter records of
 * the logs (log_counters.h): per file, the latest sample of each (set,
 * region, counter thread) is kept; a final sample (MS_SAMPLE_FINAL)
 * replaces every other sample of its set and region in that rank. The
 * run's table holds one row per (set, region, rank, counter thread).
 */
#ifndef MPISCOPE_COUNTERS_H
#define MPISCOPE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "../read/log_counters.h"
#include "../../common/log_format.h"
#include "../read/log_reader.h"

typedef struct ms_counter_row {
    uint32_t set;          /* index into ms_counters.sets */
    char *region;          /* region name; NULL: the whole run */
    int32_t rank;
    uint32_t cthread;      /* counter thread */
    uint32_t cpu;          /* its hardware thread */
    uint64_t count;        /* calls of the region it covers */
    double time_s;         /* time it covers on that thread */
    double *values;        /* the set's n values; NaN: not measured */
} ms_counter_row;

typedef struct ms_counters {
    size_t nsets;
    ms_counter_set *sets;  /* distinct over the run, in order of first use */
    size_t nrows;
    ms_counter_row *rows;  /* by set, region (whole run first, then by
                              name), rank, counter thread */
} ms_counters;

/* One file's samples while it is read (its fields are read only here and
 * by wire_file.c, which carries them between merge processes). */
typedef struct ms_counter_acc_row {
    uint32_t set, region, cthread, cpu;
    int final, dead;
    uint64_t count;
    double time_s;
    double values[MS_MAX_COUNTER_VALUES];
    char *name;            /* after resolve; NULL for the whole run */
} ms_counter_acc_row;

typedef struct ms_counter_acc {
    ms_counter_set *sets;  /* file set index -> copy (group NULL: unseen) */
    size_t nsets;
    ms_counter_acc_row *rows;
    size_t nrows, cap;
    size_t last;           /* row of the previous sample */
} ms_counter_acc;

ms_counter_acc *ms_counter_acc_new(void);
void ms_counter_acc_free(ms_counter_acc *a);
/* Reader callbacks' work; 0, or -1 when out of memory. */
int ms_counter_acc_set(ms_counter_acc *a, uint32_t set, const ms_counter_set *def);
int ms_counter_acc_sample(ms_counter_acc *a, const ms_counter_sample *s);
/* Once the file is read: region indices -> names (rd: the file's reader). */
int ms_counter_acc_resolve(ms_counter_acc *a, const ms_reader *rd);

/* Add a file's rows as rank `rank`; 0, or -1 when out of memory. */
int ms_counters_add(ms_counters *c, const ms_counter_acc *a, int32_t rank);
/* Sort the rows (once every file is added). */
void ms_counters_sort(ms_counters *c);
void ms_counters_free(ms_counters *c);

#endif
