/* A run's identity and default directory: see run_ident.h. */
#include "run_ident.h"

#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

void ms_default_dir(char *buf, size_t cap)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(buf, cap, "mpiscope-%s-%ld", stamp, (long)getpid());
}

/* The kernel's random bytes, mixed with the time and the process id in case
 * those are unavailable. */
uint64_t ms_new_run_id(void)
{
    uint64_t x = 0;
    if (getrandom(&x, sizeof x, GRND_NONBLOCK) != (ssize_t)sizeof x)
        x = 0;
    x ^= (uint64_t)ms_realtime_ns() ^ ((uint64_t)getpid() << 40) ^ ms_mono_ns();
    /* splitmix64 finalizer */
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}
