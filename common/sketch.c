/* DDSketch-style quantile sketch: see sketch.h. */
#include "sketch.h"

#include "log_format.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Buckets of the values below this bound come from a table computed once
 * with the same formula as for larger values: most MPI calls take less than
 * 65 us, and a table lookup is much cheaper than a logarithm. */
#define TABLE_SIZE 65536u
/* Slack added on each side when a sketch's range grows. */
#define GROW_SLACK 16

static double gamma_value;
static uint16_t small_index[TABLE_SIZE];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static _Atomic int tables_ready;   /* set once the tables are: no call to pthread_once per value */

_Static_assert(MS_SKETCH_MAX_INDEX == MS_SKETCH_MAX_BUCKET, "one bucket range in the log and the merge");

/* The log format's bucket definition (log_format.h), normative for both. */
static int32_t index_by_log(uint64_t v)
{
    return ms_sketch_bucket_of(v);
}

static void init_tables(void)
{
    gamma_value = (1.0 + MS_SKETCH_ACCURACY) / (1.0 - MS_SKETCH_ACCURACY);
    small_index[0] = 0;
    for (uint32_t v = 1; v < TABLE_SIZE; v++)
        small_index[v] = (uint16_t)index_by_log(v);
    atomic_store_explicit(&tables_ready, 1, memory_order_release);
}

static inline void ensure_tables(void)
{
    if (!atomic_load_explicit(&tables_ready, memory_order_acquire))
        pthread_once(&tables_once, init_tables);
}

int32_t ms_sketch_index(uint64_t v)
{
    ensure_tables();
    if (v < TABLE_SIZE)
        return small_index[v];
    int32_t i = index_by_log(v);
    return i > MS_SKETCH_MAX_INDEX ? MS_SKETCH_MAX_INDEX : i;
}

double ms_sketch_bucket_value(int32_t index)
{
    ensure_tables();
    return 2.0 * pow(gamma_value, index) / (gamma_value + 1.0);
}

void ms_sketch_init(ms_sketch *s)
{
    memset(s, 0, sizeof *s);
}

void ms_sketch_free(ms_sketch *s)
{
    free(s->counts);
    memset(s, 0, sizeof *s);
}

/* Make the range include [lo, hi]. */
static int cover(ms_sketch *s, int32_t lo, int32_t hi)
{
    if (s->len > 0 && lo >= s->lo && hi < s->lo + s->len)
        return 0;
    int32_t nlo = lo, nhi = hi;
    if (s->len > 0) {
        int32_t old_hi = s->lo + s->len - 1;
        if (lo < s->lo)
            nlo = lo - GROW_SLACK;
        else
            nlo = s->lo;
        if (hi > old_hi)
            nhi = hi + GROW_SLACK;
        else
            nhi = old_hi;
    }
    if (nlo < 0)
        nlo = 0;
    if (nhi > MS_SKETCH_MAX_INDEX)
        nhi = MS_SKETCH_MAX_INDEX;
    int32_t nlen = nhi - nlo + 1;
    uint64_t *c = calloc((size_t)nlen, sizeof *c);
    if (!c)
        return -1;
    if (s->len > 0)
        memcpy(c + (s->lo - nlo), s->counts, (size_t)s->len * sizeof *c);
    free(s->counts);
    s->counts = c;
    s->lo = nlo;
    s->len = nlen;
    return 0;
}

int ms_sketch_add_n(ms_sketch *s, uint64_t v, uint64_t count)
{
    if (count == 0)
        return 0;
    if (v == 0) {
        s->zero += count;
    } else {
        int32_t i = ms_sketch_index(v);
        if ((i < s->lo || i >= s->lo + s->len) && cover(s, i, i) != 0)
            return -1;
        s->counts[i - s->lo] += count;
    }
    if (s->n == 0 || v < s->min)
        s->min = v;
    if (s->n == 0 || v > s->max)
        s->max = v;
    s->n += count;
    return 0;
}

int ms_sketch_add(ms_sketch *s, uint64_t v)
{
    /* Most often a value of the table's range, in a bucket already held. */
    if (v - 1u < TABLE_SIZE - 1u && s->n > 0 && atomic_load_explicit(&tables_ready, memory_order_acquire)) {
        int32_t i = small_index[v];
        if (i >= s->lo && i < s->lo + s->len) {
            s->counts[i - s->lo]++;
            if (v < s->min)
                s->min = v;
            if (v > s->max)
                s->max = v;
            s->n++;
            return 0;
        }
    }
    return ms_sketch_add_n(s, v, 1);
}

int ms_sketch_merge(ms_sketch *dst, const ms_sketch *src)
{
    if (src->n == 0)
        return 0;
    if (src->len > 0 && cover(dst, src->lo, src->lo + src->len - 1) != 0)
        return -1;
    for (int32_t i = 0; i < src->len; i++)
        dst->counts[src->lo + i - dst->lo] += src->counts[i];
    dst->zero += src->zero;
    if (dst->n == 0 || src->min < dst->min)
        dst->min = src->min;
    if (dst->n == 0 || src->max > dst->max)
        dst->max = src->max;
    dst->n += src->n;
    return 0;
}

double ms_sketch_quantile(const ms_sketch *s, double q)
{
    if (s->n == 0)
        return 0.0;
    if (!(q > 0.0))
        q = 0.0;
    if (q > 1.0)
        q = 1.0;
    uint64_t rank = (uint64_t)floor(q * (double)(s->n - 1));
    if (rank >= s->n - 1)
        return (double)s->max;
    if (rank == 0)
        return (double)s->min;
    double v;
    if (rank < s->zero) {
        v = 0.0;
    } else {
        uint64_t seen = s->zero;
        int32_t i = 0;
        for (; i < s->len; i++) {
            seen += s->counts[i];
            if (seen > rank)
                break;
        }
        if (i == s->len)
            i = s->len - 1;
        v = ms_sketch_bucket_value(s->lo + i);
    }
    if (v < (double)s->min)
        v = (double)s->min;
    if (v > (double)s->max)
        v = (double)s->max;
    return v;
}
