/*
 * NVTX ranges through CUPTI's NVTX callbacks (docs/GPU.md): at load the
 * collector names libcupti in NVTX_INJECTION64_PATH (unless set), so NVTX
 * hands its calls to CUPTI, which passes them to the collector's
 * subscription once CUPTI is set up. nvtxRangePushA/PushEx (ASCII message)
 * begin, nvtxRangePop ends, the user region "nvtx:<message>" of the calling
 * thread (preload/user_regions.c): NVTX ranges nest with the regions of the
 * C API and MPI_Pcontrol. Start/end ranges (not nested per thread) and wide
 * messages are not recorded.
 */
#include "cu_nvtx.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>
#include <cupti.h>
#include <generated_nvtx_meta.h>

#include "../common/log_format.h"
#include "../preload/user_regions.h"

#define NVTX_DEPTH 128u

typedef struct nvtx_stack {
    unsigned depth;       /* pushes not yet popped, also those not kept */
    char *name[NVTX_DEPTH];
} nvtx_stack;

static __thread nvtx_stack *tls_stack;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int key_ok;

/* At the exit of the thread that owns p. */
static void free_stack(void *p)
{
    nvtx_stack *s = p;
    for (unsigned i = 0; i < s->depth && i < NVTX_DEPTH; i++)
        free(s->name[i]);
    free(s);
    tls_stack = NULL;
}

static void make_key(void)
{
    key_ok = pthread_key_create(&key, free_stack) == 0;
}

static void push(const char *msg)
{
    nvtx_stack *s = tls_stack;
    if (!s) {
        pthread_once(&key_once, make_key);
        if (!(s = tls_stack = calloc(1, sizeof *s)))
            return;
        if (key_ok)
            pthread_setspecific(key, s);
    }
    char *name = NULL;
    if (msg && s->depth < NVTX_DEPTH) {
        size_t len = strnlen(msg, MS_MAX_NAME - 5);
        if ((name = malloc(len + 6)) != NULL) {
            memcpy(name, "nvtx:", 5);
            memcpy(name + 5, msg, len);
            name[len + 5] = 0;
            ms_user_begin(name);
        }
    }
    if (s->depth < NVTX_DEPTH)
        s->name[s->depth] = name;
    s->depth++;
}

static void pop(void)
{
    nvtx_stack *s = tls_stack;
    if (!s || !s->depth)
        return;
    s->depth--;
    if (s->depth < NVTX_DEPTH && s->name[s->depth]) {
        ms_user_end(s->name[s->depth]);
        free(s->name[s->depth]);
        s->name[s->depth] = NULL;
    }
}

void cu_nvtx_callback(uint32_t cbid, const void *cbdata)
{
    const CUpti_NvtxData *d = cbdata;
    if (!d)
        return;
    switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA: {
        const nvtxRangePushA_params *p = d->functionParams;
        push(p ? p->message : NULL);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushEx: {
        const nvtxRangePushEx_params *p = d->functionParams;
        const nvtxEventAttributes_t *a = p ? p->eventAttrib : NULL;
        push(a && a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : NULL);
        break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushW:
        push(NULL);
        break;
    case CUPTI_CBID_NVTX_nvtxRangePop:
        pop();
        break;
    default:
        break;
    }
}
