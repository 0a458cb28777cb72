/*
 * The collector interface (DESIGN section 7): how the recording core
 * reaches a collector (pmpi/, cupti/, likwid/), and the only way it does.
 * Each collector defines one ms_collector and registers it with
 * MS_COLLECTOR_REGISTER; the Makefile alone decides which collectors are
 * linked into the library, and the core (runtime.c; registry.c for
 * thread_attach) runs the hooks of those
 * it finds, in increasing order:
 *
 *   load           at library load, after the configuration is read
 *   start          once recording is on (after MPI_Init)
 *   stop           before recording stops, recording still on
 *   thread_attach  a thread that calls in gets its state (first call)
 *
 * Any hook may be NULL. A collector records through tstate.h and keeps
 * per-thread state in slots it asks for with ms_thread_slot (at load).
 *
 * A collector also brings its own settings, rows of the configuration
 * table (config.c reads, checks, describes them and knows their names),
 * in an ms_settings registered with MS_SETTINGS_REGISTER from a file of
 * its folder that the Makefile links in even when the collector itself is
 * left out (NAME_settings.c): its variables stay known, and a value that
 * asks for a collector not built in gets one warning per run. Its warning
 * causes it takes with ms_warn_cause (diag.h), at load.
 */
#ifndef MPISCOPE_COLLECTOR_H
#define MPISCOPE_COLLECTOR_H

#include "tstate.h"

/* One MPISCOPE_ variable: its name, type, default (as text), where its
 * value goes (field, of size bytes), and for a choice or a boolean the
 * texts it takes (NULL-terminated), for an integer its bounds. */
enum ms_setting_type { MS_SETTING_STRING, MS_SETTING_CHOICE, MS_SETTING_UINT, MS_SETTING_BOOL };

typedef struct ms_choice {
    const char *text;
    int value;
} ms_choice;

typedef struct ms_setting {
    const char *name;
    enum ms_setting_type type;
    const char *def;
    void *field;            /* char[size], int or unsigned */
    size_t size;
    const ms_choice *choices;
    unsigned min, max;
    const char *help;
} ms_setting;

/* A boolean's texts: 0/1, no/yes, false/true, off/on (any case). */
extern MS_HIDDEN const ms_choice ms_bool_choices[];

/* The settings of the collector named `collector`. When asks() (may be
 * NULL) returns the index of a row whose value asks for the collector and
 * that collector is not linked in, the core warns once per run
 * "NAME=value: <built> is not built in; <lost>". */
typedef struct ms_settings {
    const char *collector;
    const ms_setting *rows;
    size_t nrows;
    int (*asks)(void);
    const char *built;      /* "CUPTI support" */
    const char *lost;       /* "no GPU activity is recorded" */
} ms_settings;

#define MS_SETTINGS_REGISTER(s)                                                                    \
    static const ms_settings *const ms_settings_entry_##s                                          \
        __attribute__((used, section("ms_settings"), aligned(sizeof(void *)))) = &s

typedef struct ms_collector {
    const char *name;
    int order;
    void (*load)(void);
    void (*start)(void);
    void (*stop)(void);
    void (*thread_attach)(ms_thread *t);
} ms_collector;

/* Register collector c (a static const ms_collector) with the core: a
 * pointer to it in the section ms_collectors, which the linker gathers. */
#define MS_COLLECTOR_REGISTER(c)                                                                   \
    static const ms_collector *const ms_collector_entry_##c                                        \
        __attribute__((used, section("ms_collectors"), aligned(sizeof(void *)))) = &c

/* A per-thread slot (an index of ms_thread.slot) for the collector `owner`;
 * -1 when all MS_THREAD_SLOTS are taken (after one warning): the collector
 * must then never index a slot with it. At load. */
MS_HIDDEN int ms_thread_slot(const char *owner);

#endif
