/* The closest known name: see closest_name.h. */
#include "closest_name.h"

#include <string.h>

enum { MAX_LEN = 63 };

static unsigned min3(unsigned x, unsigned y, unsigned z)
{
    unsigned m = x < y ? x : y;
    return m < z ? m : z;
}

unsigned ms_edit_distance(const char *a, const char *b)
{
    size_t la = strnlen(a, MAX_LEN), lb = strnlen(b, MAX_LEN);
    /* d[i][j]: edits from a's first i characters to b's first j. */
    unsigned d[MAX_LEN + 1][MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = a[i - 1] != b[j - 1];
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    }
    return d[la][lb];
}

size_t ms_closest_name(const char *name, const char *const *known, size_t n)
{
    size_t best = 0;
    unsigned best_d = ~0u;
    for (size_t i = 0; i < n; i++) {
        unsigned d = ms_edit_distance(name, known[i]);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}
