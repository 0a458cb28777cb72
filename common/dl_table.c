/* Functions looked up in a library opened with dlopen: see dl_table.h. */
#include "dl_table.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int ms_dl_resolve(void *handle, const char *lib, void *table, const ms_dl_sym *syms, size_t n, char *why,
                  size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(handle, syms[i].name);
        if (!p) {
            snprintf(why, cap, "%s has no %s", lib, syms[i].name);
            return -1;
        }
        memcpy((char *)table + syms[i].offset, &p, sizeof p);
    }
    return 0;
}
