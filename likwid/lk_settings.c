/* The LIKWID collector's settings: see lk_settings.h. */
#include "lk_settings.h"

#include <stddef.h>

#include "../preload/collector.h"

char lk_group[64];

static const ms_setting rows[] = {
    {"MPISCOPE_LIKWID", MS_SETTING_STRING, "", lk_group, sizeof lk_group, NULL, 0, 0,
     "LIKWID group measured per rank and region (unset: off)"},
};

/* A group asks for the collector. */
static int asks(void)
{
    return lk_group[0] ? 0 : -1;
}

static const ms_settings likwid_settings = {
    .collector = "likwid",
    .rows = rows,
    .nrows = sizeof rows / sizeof rows[0],
    .asks = asks,
    .built = "LIKWID support",
    .lost = "no counters are recorded",
};
MS_SETTINGS_REGISTER(likwid_settings);
