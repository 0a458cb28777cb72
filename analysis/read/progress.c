/* Progress line: see progress.h. */
#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define DELAY_MS 1000   /* nothing is shown for shorter work */
#define PERIOD_MS 200

struct ms_progress {
    const char *what;
    const atomic_size_t *done;
    size_t total;
    atomic_int stop;
    int shown;
    pthread_t thread;
};

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *progress_main(void *arg)
{
    ms_progress *p = arg;
    for (long waited = 0; !atomic_load(&p->stop); waited += PERIOD_MS) {
        sleep_ms(PERIOD_MS);
        if (waited + PERIOD_MS < DELAY_MS || atomic_load(&p->stop))
            continue;
        size_t d = atomic_load(p->done);
        fprintf(stderr, "\rmpiscope-merge: %s %zu of %zu (%zu %%)", p->what, d, p->total,
                p->total ? d * 100 / p->total : 100);
        p->shown = 1;
    }
    if (p->shown)
        fputs("\r\033[K", stderr);
    return NULL;
}

ms_progress *ms_progress_start(const char *what, const atomic_size_t *done, size_t total)
{
    if (!isatty(STDERR_FILENO))
        return NULL;
    ms_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->what = what;
    p->done = done;
    p->total = total;
    atomic_init(&p->stop, 0);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void ms_progress_stop(ms_progress *p)
{
    if (!p)
        return;
    atomic_store(&p->stop, 1);
    pthread_join(p->thread, NULL);
    free(p);
}
