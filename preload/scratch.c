/* Per-thread scratch memory: see scratch.h. */
#include "scratch.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_round(size_t n)
{
    long p = sysconf(_SC_PAGESIZE);
    size_t page = p > 0 ? (size_t)p : 4096u;
    return (n + page - 1) / page * page;
}

void *ms_scratch_new(size_t size)
{
    void *p = mmap(NULL, page_round(size ? size : 1), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int ms_scratch_reserve(void **arr, size_t *cap, size_t n, size_t item)
{
    if (n <= *cap && *arr)
        return 0;
    if (item == 0 || n > SIZE_MAX / item / 2)
        return -1;
    size_t want = page_round((n < 64 ? 64 : n) * item);
    void *p;
    if (*arr)
        p = mremap(*arr, page_round(*cap * item), want, MREMAP_MAYMOVE);
    else
        p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    *arr = p;
    *cap = want / item;
    return 0;
}
