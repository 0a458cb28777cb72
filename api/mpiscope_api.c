/*
 * libmpiscope-api.so: the functions of include/mpiscope.h, doing nothing.
 * A program linked with -lmpiscope-api runs unchanged without the tool; the
 * preload library defines the same functions and, loaded first, takes their
 * calls when the program runs under it (preload/user_regions.c).
 */
#include "mpiscope.h"

void mpiscope_region_begin(const char *name)
{
    (void)name;
}

void mpiscope_region_end(const char *name)
{
    (void)name;
}
