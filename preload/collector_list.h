/*
 * The core's side of the collector interface (collector.h): the collectors
 * linked into the library, found in the section ms_collectors, and their
 * hooks run in increasing order.
 */
#ifndef MPISCOPE_COLLECTOR_LIST_H
#define MPISCOPE_COLLECTOR_LIST_H

#include <stddef.h>

#include "collector.h"

MS_HIDDEN void ms_collectors_load(void);
MS_HIDDEN void ms_collectors_start(void);
MS_HIDDEN void ms_collectors_stop(void);
MS_HIDDEN void ms_collectors_thread_attach(ms_thread *t);

/* The collectors' settings linked into the library (of collectors linked
 * in or not), at most cap, by collector name, into out; returns how many. */
MS_HIDDEN size_t ms_collector_settings(const ms_settings **out, size_t cap);

/* Whether the collector `name` is linked into the library. */
MS_HIDDEN int ms_collector_linked(const char *name);

#endif
