/* Name demangling: see symbolize_demangle.h. */
#include "symbolize_demangle.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static pthread_once_t cxx_once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn cxa_demangle;

static void load_cxx(void)
{
    /* RTLD_LOCAL: nothing of libstdc++ becomes visible to the rest of the
     * merge. The handle is kept for the life of the process. */
    void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return;
    void *f = dlsym(h, "__cxa_demangle");
    if (!f) {
        dlclose(h);
        return;
    }
    memcpy(&cxa_demangle, &f, sizeof cxa_demangle);
}

bool ms_demangle_cxx_available(void)
{
    pthread_once(&cxx_once, load_cxx);
    return cxa_demangle != NULL;
}

static char *demangle_cxx(const char *name)
{
    if (!ms_demangle_cxx_available())
        return NULL;
    int status = 0;
    char *out = cxa_demangle(name, NULL, NULL, &status);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* gfortran names a module procedure __<module>_MOD_<procedure>; both parts
 * are lower case, so the first "_MOD_" after the prefix separates them. */
static char *demangle_fortran_module(const char *name)
{
    const char *sep = strstr(name + 2, "_MOD_");
    if (!sep || sep == name + 2 || sep[5] == '\0')
        return NULL;
    size_t mlen = (size_t)(sep - (name + 2));
    const char *proc = sep + 5;
    size_t plen = strlen(proc);
    char *out = malloc(mlen + 2 + plen + 1);
    if (!out)
        return NULL;
    memcpy(out, name + 2, mlen);
    memcpy(out + mlen, "::", 2);
    memcpy(out + mlen + 2, proc, plen + 1);
    return out;
}

char *ms_demangle(const char *name, bool fortran)
{
    if (!name || !*name)
        return NULL;
    if (name[0] == '_' && name[1] == 'Z')
        return demangle_cxx(name);
    if (name[0] == '_' && name[1] == '_' && strstr(name, "_MOD_"))
        return demangle_fortran_module(name);
    size_t len = strlen(name);
    /* foo_ -> foo; a name that is only underscores, or that ends in two
     * (a compiler-internal name such as MAIN__), is left alone. */
    if (fortran && len >= 2 && name[len - 1] == '_' && name[len - 2] != '_')
        return strndup(name, len - 1);
    return NULL;
}
