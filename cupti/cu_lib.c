/* libcupti through dlopen: see cu_lib.h. */
#include "cu_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../common/dl_table.h"

static cu_lib lib;
static const cu_lib *loaded;
static char why_buf[1200];
static char guess[1024];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define NCANDIDATES 4

/* Candidate i ($CUDA_HOME/lib64, $CUDA_HOME/extras/CUPTI/lib64, the same
 * under /usr/local/cuda) as a path in buf; 0 when there is none. */
static int candidate(int i, char *buf, size_t cap)
{
    const char *home = i < 2 ? getenv("CUDA_HOME") : "/usr/local/cuda";
    if (!home || !home[0])
        return 0;
    int n = snprintf(buf, cap, "%s/%s/libcupti.so", home, i % 2 ? "extras/CUPTI/lib64" : "lib64");
    return n > 0 && (size_t)n < cap;
}

const char *cu_lib_path_guess(void)
{
    for (int i = 0; i < NCANDIDATES; i++)
        if (candidate(i, guess, sizeof guess) && access(guess, R_OK) == 0)
            return guess;
    return NULL;
}

static const ms_dl_sym syms[] = {
    MS_DL_SYM(cu_lib, cuptiSubscribe),
    MS_DL_SYM(cu_lib, cuptiUnsubscribe),
    MS_DL_SYM(cu_lib, cuptiEnableCallback),
    MS_DL_SYM(cu_lib, cuptiEnableDomain),
    MS_DL_SYM(cu_lib, cuptiGetCallbackName),
    MS_DL_SYM(cu_lib, cuptiActivityEnable),
    MS_DL_SYM(cu_lib, cuptiActivityDisable),
    MS_DL_SYM(cu_lib, cuptiActivityRegisterCallbacks),
    MS_DL_SYM(cu_lib, cuptiActivityFlushAll),
    MS_DL_SYM(cu_lib, cuptiActivityGetNextRecord),
    MS_DL_SYM(cu_lib, cuptiActivityGetNumDroppedRecords),
    MS_DL_SYM(cu_lib, cuptiGetTimestamp),
    MS_DL_SYM(cu_lib, cuptiGetResultString),
    MS_DL_SYM(cu_lib, cuptiGetVersion),
};

static void load(void)
{
    char path[1024];
    void *h = NULL;
    const char *name = "libcupti.so";
    for (int i = 0; !h && i < NCANDIDATES; i++)
        if (candidate(i, path, sizeof path) && access(path, R_OK) == 0 && (h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
            name = path;
    if (!h)
        h = dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why_buf, sizeof why_buf, "cannot load libcupti.so (%s)", e ? e : "not found");
        return;
    }
    if (ms_dl_resolve(h, name, &lib, syms, sizeof syms / sizeof syms[0], why_buf, sizeof why_buf) != 0)
        return;
    loaded = &lib;
}

const cu_lib *cu_lib_get(const char **why)
{
    pthread_once(&once, load);
    if (why)
        *why = why_buf;
    return loaded;
}
