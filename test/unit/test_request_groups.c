/*
 * Request groups (pmpi/request_groups.h): any number of live entries of one
 * handle value, each found again by the address it was returned to, in
 * creation order; without that address the oldest not yet taken by the
 * call; erased once; 70,000 live at once; memory reused across rounds;
 * threads that add, find and erase entries of one value at once.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>

#include "../../pmpi/request_groups.h"

_Atomic uint32_t ms_nthreads = 1;

#define KEY 0x6c000001u

/* An entry's value: where, claim, then an id. */
static ms_hmap_slot *add(uint64_t key, uint64_t where, uint64_t id)
{
    uint64_t v[3] = {where, 0, id};
    ms_hmap_slot *s = ms_reqgroup_add(key, v, sizeof v);
    cr_assert_not_null(s, "entry %llu added", (unsigned long long)id);
    return s;
}

Test(request_groups, found_by_address_in_creation_order)
{
    enum { N = 70000 };
    for (uint64_t i = 0; i < N; i++)
        add(KEY, 0x10000 + 8 * i, i);
    cr_assert_eq(ms_reqgroup_live(KEY), N);
    cr_assert(atomic_load(&ms_reqgroup_used));
    for (uint64_t i = 0; i < N; i++) {
        ms_hmap_slot *s = ms_reqgroup_find(KEY, 0x10000 + 8 * i, 7, 1);
        cr_assert_not_null(s, "entry %llu is lost", (unsigned long long)i);
        cr_assert_eq(s->value[2], i, "address of %llu finds %llu", (unsigned long long)i,
                     (unsigned long long)s->value[2]);
        ms_reqgroup_erase(s);
        ms_reqgroup_erase(s);   /* again: nothing */
    }
    cr_assert_eq(ms_reqgroup_live(KEY), 0);
    cr_assert_null(ms_reqgroup_find(KEY, 0x10000, 0, 1), "none left");
}

Test(request_groups, out_of_order_by_address)
{
    enum { N = 500 };
    for (uint64_t i = 0; i < N; i++)
        add(KEY + 4, 0x20000 + 8 * i, i);
    for (uint64_t k = 0; k < N; k++) {
        uint64_t i = (k * 7919) % N;   /* a permutation of 0..N-1 */
        ms_hmap_slot *s = ms_reqgroup_find(KEY + 4, 0x20000 + 8 * i, 0, 1);
        cr_assert_not_null(s);
        cr_assert_eq(s->value[2], i);
        ms_reqgroup_erase(s);
    }
    cr_assert_eq(ms_reqgroup_live(KEY + 4), 0);
}

Test(request_groups, moved_handles_take_the_oldest_not_taken)
{
    enum { N = 1000 };
    /* Every handle returned to one temporary, then completed elsewhere. */
    for (uint64_t i = 0; i < N; i++)
        add(KEY + 8, 0x30000, i);
    uint64_t token = 42;
    /* A call that takes them all without erasing (a start of many)... */
    for (uint64_t i = 0; i < N; i++) {
        ms_hmap_slot *s = ms_reqgroup_find(KEY + 8, 0x90000 + 8 * i, token, 1);
        cr_assert_not_null(s, "entry %llu", (unsigned long long)i);
        cr_assert_eq(s->value[2], i, "call takes %llu for element %llu", (unsigned long long)s->value[2],
                     (unsigned long long)i);
        cr_assert_eq(s->value[1], token);
    }
    cr_assert_null(ms_reqgroup_find(KEY + 8, 0x90000, token, 1), "all taken by the call");
    /* ... and the next call, which erases what it takes. */
    for (uint64_t i = 0; i < N; i++) {
        ms_hmap_slot *s = ms_reqgroup_find(KEY + 8, 0x90000 + 8 * i, token + 1, 1);
        cr_assert_not_null(s);
        cr_assert_eq(s->value[2], i);
        ms_reqgroup_erase(s);
    }
    cr_assert_eq(ms_reqgroup_live(KEY + 8), 0);
}

Test(request_groups, only_by_address_when_asked)
{
    add(KEY + 12, 0x40000, 1);
    add(KEY + 12, 0x40008, 2);
    cr_assert_null(ms_reqgroup_find(KEY + 12, 0x50000, 9, 0), "no entry returned to that address");
    ms_hmap_slot *s = ms_reqgroup_find(KEY + 12, 0x40008, 9, 0);
    cr_assert_not_null(s);
    cr_assert_eq(s->value[2], 2);
    s = ms_reqgroup_find(KEY + 12, 0x40008, 9, 1);
    cr_assert_eq(s->value[2], 1, "taken by the call: the oldest other");
    cr_assert_eq(ms_reqgroup_live(KEY + 12), 2, "finding erases nothing");
}

Test(request_groups, rounds_reuse_their_memory)
{
    /* Round after round of 1,000 live entries: the same chunks hold them. */
    for (int round = 0; round < 50; round++) {
        ms_hmap_slot *s[1000];
        for (uint64_t i = 0; i < 1000; i++)
            s[i] = add(KEY + 16, 0x60000 + 8 * i, i);
        for (int i = 0; i < 1000; i++)
            ms_reqgroup_erase(s[i]);
        cr_assert_eq(ms_reqgroup_live(KEY + 16), 0);
    }
    /* 1,000 entries take 16 chunks of 63 (each test runs in a process of
     * its own). */
    cr_assert_leq(ms_reqgroup_chunks(), 1000 / 63 + 2,
                  "chunks allocated: %llu", (unsigned long long)ms_reqgroup_chunks());
}

enum { THREADS = 4, PER_THREAD = 2000, ROUNDS = 20 };

/* Thread t's entries: addresses of its own, ids t * PER_THREAD + i. */
static void *churn(void *arg)
{
    uint64_t t = (uint64_t)(uintptr_t)arg, bad = 0;
    uint64_t base = 0x1000000u * (t + 1);
    for (int round = 0; round < ROUNDS; round++) {
        for (uint64_t i = 0; i < PER_THREAD; i++) {
            uint64_t v[3] = {base + 8 * i, 0, t * PER_THREAD + i};
            if (!ms_reqgroup_add(KEY + 20, v, sizeof v))
                bad++;
        }
        for (uint64_t i = 0; i < PER_THREAD; i++) {
            ms_hmap_slot *s = ms_reqgroup_find(KEY + 20, base + 8 * i, 0, 0);
            if (!s || s->value[2] != t * PER_THREAD + i)
                bad++;
            else
                ms_reqgroup_erase(s);
        }
    }
    return (void *)(uintptr_t)bad;
}

Test(request_groups, threads_at_once)
{
    pthread_t tid[THREADS];
    for (uintptr_t t = 0; t < THREADS; t++)
        cr_assert_eq(pthread_create(&tid[t], NULL, churn, (void *)t), 0);
    for (int t = 0; t < THREADS; t++) {
        void *bad = NULL;
        pthread_join(tid[t], &bad);
        cr_assert_eq((uintptr_t)bad, 0, "thread %d: %lu entries lost or wrong", t, (unsigned long)(uintptr_t)bad);
    }
    cr_assert_eq(ms_reqgroup_live(KEY + 20), 0);
}
