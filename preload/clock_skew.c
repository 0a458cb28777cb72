/* Test-only clock skew: see clock_skew.h. */
#include "clock_skew.h"

#include <errno.h>
#include <stdlib.h>

#include "clock.h"
#include "diag.h"

int ms_skew_on;
static int set_up;
static double skew_offset, skew_drift;
static uint64_t skew_base;
static long ranks_per_host;    /* 0: no simulated hosts */

void ms_skew_setup(int rank)
{
    if (set_up)
        return;
    set_up = 1;
    const char *v = getenv("MPISCOPE_TEST_CLOCK_SKEW");
    if (!v || !*v)
        return;
    char *end;
    errno = 0;
    double off = strtod(v, &end);
    double ppm = 0.0;
    int ok = errno == 0 && end != v;
    if (ok && *end == ',') {
        const char *p = end + 1;
        ppm = strtod(p, &end);
        ok = errno == 0 && end != p;
    }
    long per_host = 1;
    if (ok && *end == ',') {
        const char *p = end + 1;
        per_host = strtol(p, &end, 10);
        ok = errno == 0 && end != p && per_host >= 1 && per_host <= 1000000;
    }
    /* At most 1000 s and 10 % per rank: enough for any test. */
    if (!ok || *end || !(off >= -1e12 && off <= 1e12) || !(ppm >= -1e5 && ppm <= 1e5)) {
        ms_warn_config(MS_WARN_CONFIG_LAST,
                       "MPISCOPE_TEST_CLOCK_SKEW=\"%s\" is not \"<offset_ns>,<drift_ppm>[,<ranks_per_host>]\"; ignored",
                       v);
        return;
    }
    ranks_per_host = per_host;
    double host = (double)(rank / per_host);
    skew_offset = off * host;
    skew_drift = ppm * 1e-6 * host;
    skew_base = ms_mono_ns();
    ms_skew_on = skew_offset != 0.0 || skew_drift != 0.0;
}

long ms_skew_host(int rank)
{
    return ranks_per_host > 0 ? rank / ranks_per_host : -1;
}

int64_t ms_skew_delta(uint64_t mono_ns)
{
    if (!ms_skew_on)
        return 0;
    double d = skew_offset + skew_drift * ((double)mono_ns - (double)skew_base);
    /* Never before the clock's start. */
    if (d < -(double)mono_ns)
        d = -(double)mono_ns;
    return (int64_t)(d >= 0 ? d + 0.5 : d - 0.5);
}

double ms_skew_rate(void)
{
    return 1.0 + (ms_skew_on ? skew_drift : 0.0);
}
