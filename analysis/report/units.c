/* Durations in words: see units.h. */
#include "units.h"

#include <stdio.h>

void ms_fmt_ns(char *buf, size_t cap, uint64_t ns)
{
    double v = (double)ns;
    if (v >= 1e9)
        snprintf(buf, cap, "%.3g s", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, cap, "%.3g ms", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, cap, "%.3g µs", v / 1e3);
    else
        snprintf(buf, cap, "%.0f ns", v);
}
