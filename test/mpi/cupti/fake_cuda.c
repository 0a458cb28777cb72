/*
 * A fake libcuda.so.1 for the CUPTI tests: cuInit and cuDeviceGetCount.
 * FAKE_CUDA_DEVICES (default 1) devices; with 0, cuInit fails with
 * CUDA_ERROR_NO_DEVICE, as on a machine without a GPU. Like the real
 * driver, the first successful cuInit loads the library named by
 * CUDA_INJECTION64_PATH and calls its InitializeInjection. When
 * FAKE_CUDA_LOADLOG names a file, loading appends "libcuda" to it.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int devices(void)
{
    const char *s = getenv("FAKE_CUDA_DEVICES");
    return s ? atoi(s) : 1;
}

__attribute__((constructor)) static void loaded(void)
{
    const char *log = getenv("FAKE_CUDA_LOADLOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fputs("libcuda\n", f);
        fclose(f);
    }
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void inject(void)
{
    const char *path = getenv("CUDA_INJECTION64_PATH");
    void *h = path && path[0] ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    int (*init)(void) = NULL;
    if (h)
        *(void **)&init = dlsym(h, "InitializeInjection");
    if (init)
        init();
}

CUresult cuInit(unsigned int flags)
{
    (void)flags;
    if (devices() <= 0)
        return CUDA_ERROR_NO_DEVICE;
    pthread_once(&once, inject);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    if (devices() <= 0)
        return CUDA_ERROR_NOT_INITIALIZED;
    *count = devices();
    return CUDA_SUCCESS;
}
