/* The thread's LIKWID marker tags and their regions: see lk_tags.h. */
#include "lk_tags.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Most distinct tags per thread. */
#define LK_MAX_TAGS 4096u

static __thread lk_tls *tls;
static pthread_key_t tls_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void tls_free(void *p)
{
    lk_tls *s = p;
    for (uint32_t i = 0; i < s->ntags; i++)
        free(s->tags[i].tag);
    free(s->tags);
    free(s->slots);
    free(s);
}

static void make_key(void)
{
    pthread_key_create(&tls_key, tls_free);
}

lk_tls *lk_tags_get(void)
{
    if (tls)
        return tls;
    pthread_once(&key_once, make_key);
    tls = calloc(1, sizeof *tls);
    if (tls)
        pthread_setspecific(tls_key, tls);
    return tls;
}

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int rehash(lk_tls *s, uint32_t n)
{
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t i = 0; i < s->ntags; i++) {
        uint32_t k = hash(s->tags[i].tag) & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = i + 1;
    }
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
    return 0;
}

int64_t lk_tag_index(lk_tls *s, const char *tag)
{
    uint32_t h = hash(tag);
    if (s->nslots) {
        for (uint32_t k = h & (s->nslots - 1); s->slots[k]; k = (k + 1) & (s->nslots - 1))
            if (strcmp(s->tags[s->slots[k] - 1].tag, tag) == 0)
                return s->slots[k] - 1;
    }
    if (s->ntags >= LK_MAX_TAGS)
        return -1;
    if ((s->ntags + 1) * 2 > s->nslots && rehash(s, s->nslots ? s->nslots * 2 : 64) != 0)
        return -1;
    if (s->ntags == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 16;
        lk_tag *v = realloc(s->tags, cap * sizeof *v);
        if (!v)
            return -1;
        s->tags = v;
        s->cap = cap;
    }
    char *copy = strdup(tag);
    if (!copy)
        return -1;
    uint32_t i = s->ntags++;
    s->tags[i] = (lk_tag){.tag = copy};
    uint32_t k = h & (s->nslots - 1);
    while (s->slots[k])
        k = (k + 1) & (s->nslots - 1);
    s->slots[k] = i + 1;
    return i;
}

uint32_t lk_tag_region(ms_thread *t, lk_tag *g)
{
    if (!g->defined) {
        char name[MS_MAX_NAME + 1];
        size_t n = strlen(g->tag);
        if (n > MS_MAX_NAME - 7)
            n = MS_MAX_NAME - 7;
        memcpy(name, "likwid:", 7);
        memcpy(name + 7, g->tag, n);
        g->id = ms_region_define(t, name, n + 7);
        g->defined = 1;
    }
    return g->id;
}

int lk_region_of(ms_thread *t, const char *tag, uint32_t *id)
{
    lk_tls *s = lk_tags_get();
    int64_t i = s && tag ? lk_tag_index(s, tag) : -1;
    if (i < 0)
        return -1;
    *id = lk_tag_region(t, &s->tags[i]);
    return 0;
}

lk_tls *lk_tags_peek(void)
{
    return tls;
}
