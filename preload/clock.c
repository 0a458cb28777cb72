/* Choosing the tool clock: see clock.h. */
#include "clock.h"

#if MS_HAVE_TSC
#include <cpuid.h>
#endif

int ms_clock_tsc;

void ms_clock_init(void)
{
#if MS_HAVE_TSC
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000007u &&
        __get_cpuid(0x80000007u, &a, &b, &c, &d) && (d & (1u << 8)))
        ms_clock_tsc = 1;
#endif
}
