/*
 * Declarations shared by the files of the reduction and by nothing outside
 * analysis/reduce/: the string lists that carry warnings and errors
 * (strlist.c) and the reading of one log into its per-file result
 * (rank_reduce.c), which the pool of readers (read_logs.c) calls.
 */
#ifndef MPISCOPE_REDUCE_INTERNAL_H
#define MPISCOPE_REDUCE_INTERNAL_H

#include <stddef.h>

#include "reduce_partial.h"

/* Append a formatted string; 0, or -1 when out of memory. */
__attribute__((format(printf, 2, 3)))
int ms_strlist_addf(ms_strlist *l, const char *fmt, ...);

/* Free the strings and the list (which is then empty). */
void ms_strlist_free(ms_strlist *l);

/* Append src's strings to dst and free src; 0, or -1 when out of memory. */
int ms_strlist_move(ms_strlist *dst, ms_strlist *src);

/* Read file j (index file_index in file order) with rd into its result:
 * j's rank info, warnings, channels and counters, its region parts into
 * tab (rank_index = file_index), its call-site rows appended to *sites
 * (symbolized with sym; NULL: not symbolized). 0, also for a file that is
 * not usable (j->res says why); -1 when out of memory. */
int ms_reduce_file(ms_reader *rd, ms_file_job *j, size_t file_index, ms_symbolizer *sym, ms_region_table *tab,
                   ms_callsite **sites, size_t *nsites, size_t *sites_cap);

#endif
