/* Configuration table: see config.h. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "closest_name.h"
#include "collector_list.h"
#include "diag.h"
#include "../common/log_format.h"

ms_config ms_cfg;

static const ms_choice mode_choices[] = {{"trace", MS_MODE_TRACE}, {"summary", MS_MODE_SUMMARY}, {NULL, 0}};
/* Booleans: 0/1, no/yes, false/true, off/on (any case); shown as 0 or 1. */
const ms_choice ms_bool_choices[] = {{"0", 0}, {"1", 1}, {"no", 0}, {"yes", 1}, {"false", 0},
                                     {"true", 1}, {"off", 0}, {"on", 1}, {NULL, 0}};
static const ms_choice writer_cpu_choices[] = {{"auto", MS_WRITER_CPU_AUTO}, {"off", MS_WRITER_CPU_OFF}, {NULL, 0}};

#define FIELD(f) &ms_cfg.f, sizeof ms_cfg.f

/* The core's variables; the collectors' follow them (collector.h). */
static const ms_setting core_vars[] = {
    {"MPISCOPE_DIR", MS_SETTING_STRING, "", FIELD(dir), NULL, 0, 0,
     "where the logs go (default: mpiscope-<date>-<time>-<pid of rank 0>)"},
    {"MPISCOPE_MODE", MS_SETTING_CHOICE, "trace", FIELD(mode), mode_choices, 0, 0,
     "trace: every call is an event; summary: per-region aggregates"},
    {"MPISCOPE_BUFFER_KB", MS_SETTING_UINT, "1024", FIELD(buffer_kb), NULL, 64, 1u << 20,
     "per-thread event buffer, KiB"},
    {"MPISCOPE_FLUSH_MS", MS_SETTING_UINT, "200", FIELD(flush_ms), NULL, 1, 1000,
     "longest time recorded events stay only in memory, ms"},
    {"MPISCOPE_HANG_S", MS_SETTING_UINT, "0", FIELD(hang_s), NULL, 0, 86400,
     "a rank inside one MPI call, or in none, this long (s) writes where it is to its log (0: off)"},
    {"MPISCOPE_CALLSITE_DEPTH", MS_SETTING_UINT, "1", FIELD(callsite_depth), NULL, 0, 16,
     "caller frames kept per call (0: off)"},
    {"MPISCOPE_DISABLE", MS_SETTING_BOOL, "0", FIELD(disable), ms_bool_choices, 0, 0,
     "1: load, record nothing, write nothing"},
    {"MPISCOPE_VERBOSE", MS_SETTING_BOOL, "0", FIELD(verbose), ms_bool_choices, 0, 0,
     "1: print the effective configuration at start (rank 0)"},
    {"MPISCOPE_WRITER_CPU", MS_SETTING_CHOICE, "auto", FIELD(writer_cpu), writer_cpu_choices, 0, 0,
     "auto: a rank bound to CPUs runs its writer thread on a CPU of its node that no rank is bound to, "
     "when there is one; off: where the rank runs"},
    {"MPISCOPE_WRITER_WAIT_S", MS_SETTING_UINT, "5", FIELD(writer_wait_s), NULL, 1, 3600,
     "longest wait for the writer thread at the end (a stalled file system), s"},
};
#define NCORE (sizeof core_vars / sizeof core_vars[0])

/* Every variable: the core's, then each collector's settings (by
 * collector name), gathered by ms_config_load. */
enum { MAX_VARS = MS_WARN_CONFIG_LAST - MS_WARN_CONFIG_FIRST + 1,
       MAX_SETTINGS = MS_WARN_UNBUILT_LAST - MS_WARN_UNBUILT_FIRST + 1 };
_Static_assert(NCORE <= MAX_VARS, "one warning cause per variable");
static const ms_setting *vars[MAX_VARS];
static size_t nvars;
static const ms_settings *settings[MAX_SETTINGS];
static size_t nsettings;

static void gather_vars(void)
{
    nvars = 0;
    for (size_t i = 0; i < NCORE; i++)
        vars[nvars++] = &core_vars[i];
    nsettings = ms_collector_settings(settings, MAX_SETTINGS);
    for (size_t s = 0; s < nsettings; s++)
        for (size_t i = 0; i < settings[s]->nrows && nvars < MAX_VARS; i++)
            vars[nvars++] = &settings[s]->rows[i];
}

/* The other MPISCOPE_ variables of the project, known and never warned
 * about: those of the tests (read by preload/clock_skew.c, slow_writer.c
 * and sink_trace.c, and by the merge: analysis/merge/merge_cli.c), of the
 * modulefile (scripts/install/) and of scripts/deps.sh. */
static const char *const other_names[] = {
    "MPISCOPE_TEST_CLOCK_SKEW", "MPISCOPE_TEST_WRITER_DELAY_MS", "MPISCOPE_TEST_FOLLOW_BELOW",
    "MPISCOPE_TEST_TIMELINE_WARN_BYTES", "MPISCOPE_HOME", "MPISCOPE_VENV",
};
#define NOTHER (sizeof other_names / sizeof other_names[0])

/* Problems found while loading, reported later. */
static const char *bad_value[MAX_VARS];
enum { MAX_UNKNOWN = MS_WARN_UNKNOWN_LAST - MS_WARN_UNKNOWN_FIRST + 1 };
static char unknown[MAX_UNKNOWN][64];  /* unknown MPISCOPE_ variables, cut to 63 characters */
static size_t n_unknown, n_unknown_more;
static uint64_t fingerprint;

static int known_name(const char *name, size_t len)
{
    for (size_t i = 0; i < nvars + NOTHER; i++) {
        const char *k = i < nvars ? vars[i]->name : other_names[i - nvars];
        if (strlen(k) == len && memcmp(k, name, len) == 0)
            return 1;
    }
    return 0;
}

/* FNV-1a of one "NAME=value". */
static uint64_t hash_entry(const char *e)
{
    uint64_t h = 14695981039346656037ull;
    for (; *e; e++)
        h = (h ^ (unsigned char)*e) * 1099511628211ull;
    return h;
}

/* The environment's MPISCOPE_ variables: the unknown ones, and the
 * fingerprint (a sum, so that their order does not matter). */
static void scan_environment(void)
{
    extern char **environ;
    n_unknown = n_unknown_more = 0;
    fingerprint = 0;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "MPISCOPE_", 9) != 0)
            continue;
        fingerprint += hash_entry(*e);
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (known_name(*e, len))
            continue;
        if (n_unknown == MAX_UNKNOWN) {
            n_unknown_more++;
            continue;
        }
        if (len >= sizeof unknown[0])
            len = sizeof unknown[0] - 1;
        memcpy(unknown[n_unknown], *e, len);
        unknown[n_unknown][len] = 0;
        n_unknown++;
    }
}

static int parse(const ms_setting *v, const char *text)
{
    char *field = v->field;
    switch (v->type) {
    case MS_SETTING_STRING:
        if (strlen(text) >= v->size)
            return -1;
        strcpy(field, text);
        return 0;
    case MS_SETTING_CHOICE:
    case MS_SETTING_BOOL:
        for (const ms_choice *c = v->choices; c->text; c++) {
            if (strcasecmp(c->text, text) == 0) {
                *(int *)field = c->value;
                return 0;
            }
        }
        return -1;
    case MS_SETTING_UINT: {
        char *end;
        errno = 0;
        unsigned long x = strtoul(text, &end, 10);
        if (errno || end == text || *end || text[0] == '-' || x < v->min || x > v->max)
            return -1;
        *(unsigned *)field = (unsigned)x;
        return 0;
    }
    }
    return -1;
}

void ms_config_load(void)
{
    memset(&ms_cfg, 0, sizeof ms_cfg);
    gather_vars();
    for (size_t i = 0; i < nvars; i++) {
        parse(vars[i], vars[i]->def);
        bad_value[i] = NULL;
        const char *env = getenv(vars[i]->name);
        if (env && parse(vars[i], env) != 0) {
            bad_value[i] = env;
            parse(vars[i], vars[i]->def);
        }
    }
    scan_environment();
}

uint64_t ms_config_fingerprint(void)
{
    return fingerprint;
}

int ms_config_launcher_rank(void)
{
    static const char *const names[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        char *end;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && !*end && r >= 0 && r <= INT_MAX)
            return (int)r;
    }
    return -1;
}

/* The closest known name to an unknown one. */
static const char *closest(const char *name)
{
    const char *known[MAX_VARS + NOTHER];
    for (size_t i = 0; i < nvars + NOTHER; i++)
        known[i] = i < nvars ? vars[i]->name : other_names[i - nvars];
    return known[ms_closest_name(name, known, nvars + NOTHER)];
}

static void describe_allowed(const ms_setting *v, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    if (v->type == MS_SETTING_UINT) {
        snprintf(buf, cap, "an integer from %u to %u", v->min, v->max);
    } else if (v->type == MS_SETTING_STRING) {
        snprintf(buf, cap, "at most %zu characters", v->size - 1);
    } else {
        for (const ms_choice *c = v->choices; c->text && n < cap; c++)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "one of ", c->text);
    }
}

/* A variable's effective value as text (a choice's first text). */
static void describe_value(const ms_setting *v, char *buf, size_t cap)
{
    const char *field = v->field;
    switch (v->type) {
    case MS_SETTING_STRING:
        snprintf(buf, cap, "%s", field);
        return;
    case MS_SETTING_UINT:
        snprintf(buf, cap, "%u", *(const unsigned *)field);
        return;
    case MS_SETTING_CHOICE:
    case MS_SETTING_BOOL:
        snprintf(buf, cap, "?");
        for (const ms_choice *c = v->choices; c->text; c++)
            if (c->value == *(const int *)field) {
                snprintf(buf, cap, "%s", c->text);
                return;
            }
        return;
    }
}

void ms_config_report(int print_effective)
{
    for (size_t i = 0; i < nvars; i++) {
        if (!bad_value[i])
            continue;
        char allowed[160];
        describe_allowed(vars[i], allowed, sizeof allowed);
        ms_warn_config((enum ms_cause)(MS_WARN_CONFIG_FIRST + i),
                     "%s=\"%.64s\" is not valid (%s); using the default \"%s\"",
                     vars[i]->name, bad_value[i], allowed, vars[i]->def);
    }
    for (size_t i = 0; i < n_unknown; i++) {
        char more[64] = "";
        if (i + 1 == n_unknown && n_unknown_more)
            snprintf(more, sizeof more, " (and %zu more unknown MPISCOPE_ variables)", n_unknown_more);
        ms_warn_config((enum ms_cause)(MS_WARN_UNKNOWN_FIRST + i),
                       "%s is not a variable of mpiscope and is ignored: did you mean %s?%s", unknown[i],
                       closest(unknown[i]), more);
    }
    /* Settings that ask for a collector this build leaves out: say so
     * once, carry on. */
    for (size_t k = 0; k < nsettings; k++) {
        const ms_settings *g = settings[k];
        int row = g->asks ? g->asks() : -1;
        if (row < 0 || (size_t)row >= g->nrows || ms_collector_linked(g->collector))
            continue;
        char value[sizeof ms_cfg.dir + 8];
        describe_value(&g->rows[row], value, sizeof value);
        ms_warn_config((enum ms_cause)(MS_WARN_UNBUILT_FIRST + k), "%s=%s: %s is not built in; %s",
                       g->rows[row].name, value, g->built, g->lost);
    }
    if (print_effective) {
        char buf[4096];
        size_t n = ms_config_describe(buf, sizeof buf);
        if (n > 0 && buf[n - 1] == '\n')
            buf[n - 1] = 0;
        ms_info("configuration:\n%s", buf);
    }
}

size_t ms_config_describe(char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; i < nvars && n < cap; i++) {
        char value[sizeof ms_cfg.dir + 8];
        describe_value(vars[i], value, sizeof value);
        int w = snprintf(buf + n, cap - n, "  %s=%s\n", vars[i]->name, value);
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return n < cap ? n : cap;
}
