/* Test-only slow writer: see slow_writer.h. */
#include "slow_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "diag.h"

static long delay_ms;

void ms_slow_writer_setup(void)
{
    const char *v = getenv("MPISCOPE_TEST_WRITER_DELAY_MS");
    delay_ms = 0;
    if (!v || !*v)
        return;
    char *end;
    errno = 0;
    long ms = strtol(v, &end, 10);
    if (errno || end == v || *end || ms < 0 || ms > 10000) {
        ms_warn_config(MS_WARN_CONFIG_LAST, "MPISCOPE_TEST_WRITER_DELAY_MS=\"%s\" is not 0 to 10000 ms; ignored", v);
        return;
    }
    delay_ms = ms;
}

void ms_slow_writer_pause(void)
{
    if (!delay_ms)
        return;
    struct timespec ts = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}
