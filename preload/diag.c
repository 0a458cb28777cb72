/* Diagnostics: see diag.h. */
#include "diag.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_bool warned[MS_WARN_COUNT];
static atomic_int config_quiet;
static atomic_int next_own;

static void vprint(const char *fmt, va_list ap)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "mpiscope: ");
    int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    /* One write, so lines of different ranks do not interleave. */
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

void ms_warn_once(enum ms_cause cause, const char *fmt, ...)
{
    if ((unsigned)cause >= MS_WARN_COUNT || atomic_exchange(&warned[cause], 1))
        return;
    va_list ap;
    va_start(ap, fmt);
    vprint(fmt, ap);
    va_end(ap);
}

void ms_warn_config(enum ms_cause cause, const char *fmt, ...)
{
    if (atomic_load(&config_quiet) || (unsigned)cause >= MS_WARN_COUNT || atomic_exchange(&warned[cause], 1))
        return;
    va_list ap;
    va_start(ap, fmt);
    vprint(fmt, ap);
    va_end(ap);
}

enum ms_cause ms_warn_cause(const char *owner)
{
    int k = atomic_fetch_add(&next_own, 1);
    if (k <= MS_WARN_OWN_LAST - MS_WARN_OWN_FIRST)
        return (enum ms_cause)(MS_WARN_OWN_FIRST + k);
    ms_warn_once(MS_WARN_COLLECTOR, "no warning cause left for %s (%d in all); its warnings share one",
                 owner, MS_WARN_OWN_LAST - MS_WARN_OWN_FIRST + 1);
    return MS_WARN_COLLECTOR;
}

void ms_diag_config_quiet(int quiet)
{
    atomic_store(&config_quiet, quiet != 0);
}

void ms_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint(fmt, ap);
    va_end(ap);
}
