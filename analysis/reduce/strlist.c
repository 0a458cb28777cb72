/* The string lists of the reduction (warnings, errors): see reduce_internal.h. */
#include "reduce_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ms_strlist_addf(ms_strlist *l, const char *fmt, ...)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int rc = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (rc < 0)
        return -1;
    l->v[l->n++] = s;
    return 0;
}

void ms_strlist_free(ms_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

int ms_strlist_move(ms_strlist *dst, ms_strlist *src)
{
    for (size_t i = 0; i < src->n; i++) {
        if (ms_strlist_addf(dst, "%s", src->v[i]) != 0)
            return -1;
    }
    ms_strlist_free(src);
    return 0;
}
