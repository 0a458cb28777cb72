/* Durations in words for the reports: "1.23 s", "45.6 ms", "789 µs",
 * "12 ns", three significant digits. */
#ifndef MPISCOPE_UNITS_H
#define MPISCOPE_UNITS_H

#include <stddef.h>
#include <stdint.h>

void ms_fmt_ns(char *buf, size_t cap, uint64_t ns);

#endif
