/*
 * The null collector: the smallest whole collector, to copy when adding
 * one (DESIGN section 7). Built by the tests only (the Makefile's
 * $(NULL_LIB), test/mpi/collector_null.sh), never shipped.
 *
 * What a collector is, all in its own folder:
 *
 *   - its settings: rows of the configuration table (ms_setting) in one
 *     ms_settings, registered with MS_SETTINGS_REGISTER. The core reads
 *     them with its own variables, warns once per run about a value that
 *     is not valid, names the closest one when a name is misspelt, and
 *     prints them under MPISCOPE_VERBOSE=1. A real collector keeps them in
 *     a file of their own (NAME_settings.c) that the Makefile links in even
 *     when the rest of the folder is left out, and sets .asks, .built and
 *     .lost so that a value asking for it in a build without it gets one
 *     warning (likwid/lk_settings.c, cupti/cu_settings.c);
 *   - its warning causes, taken at load with ms_warn_cause (diag.h), and
 *     printed with ms_warn_once (once per rank) or ms_warn_config (once
 *     per run: a problem with the run's configuration);
 *   - its hooks, in one ms_collector registered with
 *     MS_COLLECTOR_REGISTER (collector.h), recording through tstate.h;
 *   - what it records names itself: its regions are "<name>:..." (as
 *     likwid:<tag> and cuda:...), and any other record it writes carries
 *     its source, so that the merge reports it without knowing it.
 *
 * This one has one setting, MPISCOPE_NULL_REGION (the name of the one
 * region it records; default "null:run"), one warning (once per run: what
 * it records) and records one event per rank of that region, from the
 * start of recording to its stop.
 *
 * To add a collector: copy this folder to NAME/ at the top of the tree,
 * rename the files and symbols, and add its lines to the Makefile (its
 * sources in LIB_SRCS, behind a probe when it needs a library: config/)
 * and its floor to scripts/house.py's FLOORS. Nothing in preload/ or
 * analysis/ changes.
 */
#include <stddef.h>
#include <string.h>

#include "../../preload/clock.h"
#include "../../preload/collector.h"
#include "../../preload/diag.h"

/* ---- its settings ---- */

static char region_name[128];

static const ms_setting rows[] = {
    {"MPISCOPE_NULL_REGION", MS_SETTING_STRING, "null:run", region_name, sizeof region_name, NULL, 0, 0,
     "the name of the null collector's one region"},
};

static const ms_settings null_settings = {
    .collector = "null",
    .rows = rows,
    .nrows = sizeof rows / sizeof rows[0],
};
MS_SETTINGS_REGISTER(null_settings);

/* ---- its collector ---- */

static enum ms_cause cause = MS_WARN_COLLECTOR;
static uint64_t t_start;

static void null_load(void)
{
    cause = ms_warn_cause("the null collector");
}

static void null_start(void)
{
    t_start = ms_now();
    ms_warn_config(cause, "the null collector records one region, \"%s\", per rank", region_name);
}

/* One event of the region, from start to now, on the stopping thread. */
static void null_stop(void)
{
    ms_thread *t = ms_enter();
    if (!t)
        return;
    uint32_t id = ms_region_define(t, region_name, strlen(region_name));
    ms_event(t, id, t_start, ms_now());
    ms_leave(t);
}

static const ms_collector null_collector = {
    .name = "null",
    .order = 90,
    .load = null_load,
    .start = null_start,
    .stop = null_stop,
};
MS_COLLECTOR_REGISTER(null_collector);
