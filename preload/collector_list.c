/* The collectors linked into the library: see collector_list.h. */
#include "collector_list.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "collector.h"
#include "diag.h"

/* Defined by the linker around the section (absent: no collector). */
extern const ms_collector *const __start_ms_collectors[] __attribute__((weak, visibility("hidden")));
extern const ms_collector *const __stop_ms_collectors[] __attribute__((weak, visibility("hidden")));

extern const ms_settings *const __start_ms_settings[] __attribute__((weak, visibility("hidden")));
extern const ms_settings *const __stop_ms_settings[] __attribute__((weak, visibility("hidden")));

#define MAX_COLLECTORS 16

static const ms_collector *list[MAX_COLLECTORS];
static size_t count;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int next_slot;

/* The section's entries by order (then name): the link order is no order. */
static void gather(void)
{
    const ms_collector *const *p = __start_ms_collectors;
    for (; p && p < __stop_ms_collectors && count < MAX_COLLECTORS; p++) {
        size_t i = count++;
        while (i > 0 && (list[i - 1]->order > (*p)->order ||
                         (list[i - 1]->order == (*p)->order && strcmp(list[i - 1]->name, (*p)->name) > 0))) {
            list[i] = list[i - 1];
            i--;
        }
        list[i] = *p;
    }
    if (p && p < __stop_ms_collectors)
        ms_warn_once(MS_WARN_UNSUPPORTED, "more than %d collectors are linked in; the others are not run",
                     MAX_COLLECTORS);
}

#define EACH(hook, ...)                                                                            \
    do {                                                                                           \
        pthread_once(&once, gather);                                                               \
        for (size_t i = 0; i < count; i++)                                                         \
            if (list[i]->hook)                                                                     \
                list[i]->hook(__VA_ARGS__);                                                        \
    } while (0)

void ms_collectors_load(void)
{
    EACH(load);
}

void ms_collectors_start(void)
{
    EACH(start);
}

void ms_collectors_stop(void)
{
    EACH(stop);
}

void ms_collectors_thread_attach(ms_thread *t)
{
    EACH(thread_attach, t);
}

int ms_collector_linked(const char *name)
{
    pthread_once(&once, gather);
    for (size_t i = 0; i < count; i++)
        if (strcmp(list[i]->name, name) == 0)
            return 1;
    return 0;
}

size_t ms_collector_settings(const ms_settings **out, size_t cap)
{
    size_t n = 0;
    for (const ms_settings *const *p = __start_ms_settings; p && p < __stop_ms_settings && n < cap; p++) {
        size_t i = n++;
        while (i > 0 && strcmp(out[i - 1]->collector, (*p)->collector) > 0) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = *p;
    }
    return n;
}

int ms_thread_slot(const char *owner)
{
    if (next_slot >= MS_THREAD_SLOTS) {
        ms_warn_once(MS_WARN_MEMORY, "no per-thread slot left for %s (%d in all)", owner, MS_THREAD_SLOTS);
        return -1;
    }
    return next_slot++;
}
