/* Per-thread scratch arrays of the Fortran entry points: see fortran.h. */
#include "fortran.h"

#include <stdlib.h>

#include "../preload/diag.h"
#include "../preload/scratch.h"
#include "pmpi_collector.h"

typedef struct fortran_scratch {
    void *arr[MS_F_SLOTS];
    size_t cap[MS_F_SLOTS];
} fortran_scratch;

void *ms_f_scratch(ms_thread *t, unsigned slot, size_t size)
{
    fortran_scratch *s = t->slot[ms_pmpi_slot_fortran];
    if (!s)
        s = t->slot[ms_pmpi_slot_fortran] = ms_scratch_new(sizeof *s);
    if (!s || slot >= MS_F_SLOTS)
        goto no_memory;
    if (ms_scratch_reserve(&s->arr[slot], &s->cap[slot], size < 1024 ? 1024 : size, 1) != 0)
        goto no_memory;
    return s->arr[slot];
no_memory:
    ms_warn_once(MS_WARN_MEMORY, "no memory to convert the arguments of Fortran calls; some are not recorded, or without what they received");
    return NULL;
}
