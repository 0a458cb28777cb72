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

enum var_type { V_STRING, V_CHOICE, V_UINT, V_BOOL };

typedef struct choice {
    const char *text;
    int value;
} choice;

typedef struct var {
    const char *name;
    enum var_type type;
    const char *def;         /* default, as text */
    size_t offset;           /* field in ms_config */
    size_t size;             /* V_STRING: field capacity */
    const choice *choices;   /* V_CHOICE, V_BOOL: NULL-terminated */
    unsigned min, max;       /* V_UINT */
    const char *help;
} var;

static const choice mode_choices[] = {{"trace", MS_MODE_TRACE}, {"summary", MS_MODE_SUMMARY}, {NULL, 0}};
/* Booleans: 0/1, no/yes, false/true, off/on (any case); shown as 0 or 1. */
static const choice cupti_choices[] = {{"auto", MS_CUPTI_AUTO}, {"1", MS_CUPTI_ON}, {"0", MS_CUPTI_OFF},
                                       {"yes", MS_CUPTI_ON}, {"no", MS_CUPTI_OFF}, {"true", MS_CUPTI_ON},
                                       {"false", MS_CUPTI_OFF}, {"on", MS_CUPTI_ON}, {"off", MS_CUPTI_OFF},
                                       {NULL, 0}};
static const choice bool_choices[] = {{"0", 0}, {"1", 1}, {"no", 0}, {"yes", 1}, {"false", 0},
                                      {"true", 1}, {"off", 0}, {"on", 1}, {NULL, 0}};
static const choice writer_cpu_choices[] = {{"auto", MS_WRITER_CPU_AUTO}, {"off", MS_WRITER_CPU_OFF}, {NULL, 0}};

#define FIELD(f) offsetof(ms_config, f), sizeof(((ms_config *)0)->f)

static const var vars[] = {
    {"MPISCOPE_DIR", V_STRING, "", FIELD(dir), NULL, 0, 0,
     "where the logs go (default: mpiscope-<date>-<time>-<pid of rank 0>)"},
    {"MPISCOPE_MODE", V_CHOICE, "trace", FIELD(mode), mode_choices, 0, 0,
     "trace: every call is an event; summary: per-region aggregates"},
    {"MPISCOPE_CUPTI", V_CHOICE, "auto", FIELD(cupti), cupti_choices, 0, 0,
     "GPU activity from CUPTI: auto, or a boolean"},
    {"MPISCOPE_LIKWID", V_STRING, "", FIELD(likwid), NULL, 0, 0,
     "LIKWID group measured per rank and region (unset: off)"},
    {"MPISCOPE_BUFFER_KB", V_UINT, "1024", FIELD(buffer_kb), NULL, 64, 1u << 20,
     "per-thread event buffer, KiB"},
    {"MPISCOPE_FLUSH_MS", V_UINT, "200", FIELD(flush_ms), NULL, 1, 1000,
     "longest time recorded events stay only in memory, ms"},
    {"MPISCOPE_CALLSITE_DEPTH", V_UINT, "1", FIELD(callsite_depth), NULL, 0, 16,
     "caller frames kept per call (0: off)"},
    {"MPISCOPE_DISABLE", V_BOOL, "0", FIELD(disable), bool_choices, 0, 0,
     "1: load, record nothing, write nothing"},
    {"MPISCOPE_VERBOSE", V_BOOL, "0", FIELD(verbose), bool_choices, 0, 0,
     "1: print the effective configuration at start (rank 0)"},
    {"MPISCOPE_WRITER_CPU", V_CHOICE, "auto", FIELD(writer_cpu), writer_cpu_choices, 0, 0,
     "auto: a rank bound to CPUs runs its writer thread on a CPU of its node that no rank is bound to, "
     "when there is one; off: where the rank runs"},
};
#define NVARS (sizeof vars / sizeof vars[0])
_Static_assert(NVARS <= MS_WARN_CONFIG_LAST - MS_WARN_CONFIG_FIRST + 1, "one warning cause per variable");

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
static const char *bad_value[NVARS];
enum { MAX_UNKNOWN = MS_WARN_UNKNOWN_LAST - MS_WARN_UNKNOWN_FIRST + 1 };
static char unknown[MAX_UNKNOWN][64];  /* unknown MPISCOPE_ variables, cut to 63 characters */
static size_t n_unknown, n_unknown_more;
static uint64_t fingerprint;

static int known_name(const char *name, size_t len)
{
    for (size_t i = 0; i < NVARS + NOTHER; i++) {
        const char *k = i < NVARS ? vars[i].name : other_names[i - NVARS];
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

static int parse(const var *v, const char *text)
{
    char *field = (char *)&ms_cfg + v->offset;
    switch (v->type) {
    case V_STRING:
        if (strlen(text) >= v->size)
            return -1;
        strcpy(field, text);
        return 0;
    case V_CHOICE:
    case V_BOOL:
        for (const choice *c = v->choices; c->text; c++) {
            if (strcasecmp(c->text, text) == 0) {
                *(int *)field = c->value;
                return 0;
            }
        }
        return -1;
    case V_UINT: {
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
    for (size_t i = 0; i < NVARS; i++) {
        parse(&vars[i], vars[i].def);
        bad_value[i] = NULL;
        const char *env = getenv(vars[i].name);
        if (env && parse(&vars[i], env) != 0) {
            bad_value[i] = env;
            parse(&vars[i], vars[i].def);
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
    const char *known[NVARS + NOTHER];
    for (size_t i = 0; i < NVARS + NOTHER; i++)
        known[i] = i < NVARS ? vars[i].name : other_names[i - NVARS];
    return known[ms_closest_name(name, known, NVARS + NOTHER)];
}

static void describe_allowed(const var *v, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    if (v->type == V_UINT) {
        snprintf(buf, cap, "an integer from %u to %u", v->min, v->max);
    } else if (v->type == V_STRING) {
        snprintf(buf, cap, "at most %zu characters", v->size - 1);
    } else {
        for (const choice *c = v->choices; c->text && n < cap; c++)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "one of ", c->text);
    }
}

void ms_config_report(int print_effective)
{
    for (size_t i = 0; i < NVARS; i++) {
        if (!bad_value[i])
            continue;
        char allowed[160];
        describe_allowed(&vars[i], allowed, sizeof allowed);
        ms_warn_config((enum ms_cause)(MS_WARN_CONFIG_FIRST + i),
                     "%s=\"%.64s\" is not valid (%s); using the default \"%s\"",
                     vars[i].name, bad_value[i], allowed, vars[i].def);
    }
    for (size_t i = 0; i < n_unknown; i++) {
        char more[64] = "";
        if (i + 1 == n_unknown && n_unknown_more)
            snprintf(more, sizeof more, " (and %zu more unknown MPISCOPE_ variables)", n_unknown_more);
        ms_warn_config((enum ms_cause)(MS_WARN_UNKNOWN_FIRST + i),
                       "%s is not a variable of mpiscope and is ignored: did you mean %s?%s", unknown[i],
                       closest(unknown[i]), more);
    }
    /* Settings this build cannot honour: say so once, carry on. */
    if (ms_cfg.cupti == MS_CUPTI_ON && !ms_collector_linked("cupti"))
        ms_warn_config(MS_WARN_CUPTI, "MPISCOPE_CUPTI=1: CUPTI support is not built in; no GPU activity is recorded");
    if (ms_cfg.likwid[0] && !ms_collector_linked("likwid"))
        ms_warn_config(MS_WARN_LIKWID, "MPISCOPE_LIKWID=%s: LIKWID support is not built in; no counters are recorded",
                     ms_cfg.likwid);
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
    for (size_t i = 0; i < NVARS && n < cap; i++) {
        const var *v = &vars[i];
        const char *field = (const char *)&ms_cfg + v->offset;
        int w = 0;
        switch (v->type) {
        case V_STRING:
            w = snprintf(buf + n, cap - n, "  %s=%s\n", v->name, field);
            break;
        case V_UINT:
            w = snprintf(buf + n, cap - n, "  %s=%u\n", v->name, *(const unsigned *)field);
            break;
        case V_CHOICE:
        case V_BOOL: {
            const char *text = "?";
            for (const choice *c = v->choices; c->text; c++)
                if (c->value == *(const int *)field) {
                    text = c->text;
                    break;
                }
            w = snprintf(buf + n, cap - n, "  %s=%s\n", v->name, text);
            break;
        }
        }
        if (w < 0)
            break;
        n += (size_t)w;
    }
    return n < cap ? n : cap;
}
