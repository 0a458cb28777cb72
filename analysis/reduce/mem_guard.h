/*
 * The merge's memory guard (--mem-limit, DESIGN section 6): before the
 * wait-state analysis gathers its facts, the events of the logs (from each
 * log's end record, read before its stream; the file's size where a log was
 * cut short) and what the analysis would hold for them (waits_estimate.h),
 * against a limit: by default half of what the machine can give this
 * process (MemAvailable, or the cgroup's limit less its usage when lower).
 */
#ifndef MPISCOPE_MEM_GUARD_H
#define MPISCOPE_MEM_GUARD_H

#include <stddef.h>
#include <stdint.h>

/* "SIZE": bytes, or a number with K, M, G or T (powers of 1024; an optional
 * "B" or "iB" after it), e.g. 512M, 1.5G. 0 and *out set, or -1. */
int ms_mem_parse_size(const char *s, uint64_t *out);

/* The default limit: half of the memory available to this process; 0 when
 * it cannot be told (no limit). */
uint64_t ms_mem_default_limit(void);

/* The traced events of these logs, as above (summary-mode logs count
 * none; a log that cannot be read counts its size in bytes). */
uint64_t ms_mem_log_events(const char *const *paths, size_t n);

/* When the analysis of `events` in `logs` logs (waits_estimate.h) would
 * exceed `limit` (0: none): 1, with
 * what to say in why ("the wait-state analysis would hold about 4.4 GiB
 * for 46.3 M events, over --mem-limit 2.0 GiB"); else 0. */
int ms_mem_guard_exceeds(uint64_t events, uint64_t logs, uint64_t limit, char *why, size_t cap);

#endif
