/*
 * The handle map (pmpi/handle_map.h): no limit on the keys live at once.
 * A first level of 2^8 slots takes 70,000 keys, each found again with its
 * own value, duplicates all found by a scan, erased ones gone, and the
 * probe of any level bounded.
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "../../pmpi/handle_map.h"

_Atomic uint32_t ms_nthreads = 1;

#define KEYS 70000u

static uint64_t key_of(uint32_t i)
{
    return 0x1000u + (uint64_t)i * 4;   /* handle-like: aligned, dense */
}

Test(handle_map, many_more_keys_than_the_first_level)
{
    ms_hmap m;
    cr_assert_eq(ms_hmap_init(&m, 8), 0);
    for (uint32_t i = 0; i < KEYS; i++) {
        uint64_t v = i;
        cr_assert_not_null(ms_hmap_add(&m, key_of(i), &v, sizeof v), "key %u", i);
    }
    cr_assert_not_null(atomic_load(&m.more[0]), "a second level was mapped");
    for (uint32_t i = 0; i < KEYS; i++) {
        ms_hmap_slot *s = ms_hmap_get(&m, key_of(i));
        cr_assert_not_null(s, "key %u is lost", i);
        cr_assert_eq(s->value[0], i, "key %u holds %llu", i, (unsigned long long)s->value[0]);
    }
    /* Erase every other key: those are gone, the rest stay. */
    for (uint32_t i = 0; i < KEYS; i += 2)
        ms_hmap_erase(&m, ms_hmap_get(&m, key_of(i)));
    for (uint32_t i = 0; i < KEYS; i++) {
        ms_hmap_slot *s = ms_hmap_get(&m, key_of(i));
        if (i % 2 == 0)
            cr_assert_null(s, "erased key %u is found", i);
        else
            cr_assert(s && s->value[0] == i, "key %u", i);
    }
}

Test(handle_map, one_key_many_times)
{
    ms_hmap m;
    cr_assert_eq(ms_hmap_init(&m, 4), 0);
    /* More copies of one key than a level's probe holds: they spill over. */
    enum { COPIES = 3 * MS_HMAP_PROBE };
    for (uint64_t i = 0; i < COPIES; i++)
        cr_assert_not_null(ms_hmap_add(&m, 0x77770, &i, sizeof i));
    uint64_t seen[COPIES] = {0}, cursor = 0, n = 0;
    ms_hmap_slot *s;
    while ((s = ms_hmap_scan(&m, 0x77770, &cursor)) != NULL) {
        cr_assert_lt(s->value[0], COPIES);
        seen[s->value[0]]++;
        n++;
    }
    cr_assert_eq(n, COPIES, "the scan finds %llu of %d copies", (unsigned long long)n, COPIES);
    for (int i = 0; i < COPIES; i++)
        cr_assert_eq(seen[i], 1, "copy %d found %llu times", i, (unsigned long long)seen[i]);
}

Test(handle_map, put_finds_or_adds)
{
    ms_hmap m;
    cr_assert_eq(ms_hmap_init(&m, 6), 0);
    for (uint32_t i = 0; i < 5000; i++) {
        ms_hmap_slot *s = ms_hmap_put(&m, key_of(i));
        cr_assert_not_null(s);
        s->value[0] = i + 1;
    }
    for (uint32_t i = 0; i < 5000; i++)
        cr_assert_eq(ms_hmap_put(&m, key_of(i))->value[0], i + 1, "put of key %u made a new slot", i);
    cr_assert_null(ms_hmap_get(&m, key_of(5000)));
    cr_assert_null(ms_hmap_add(&m, MS_HMAP_BUSY, NULL, 0), "reserved keys are refused");
}

/* One key held by many slots: they share its probe windows, so a map of
 * levels 0..L holds at most (L + 1) x MS_HMAP_PROBE of them (the request
 * table puts the rest in a second map, requests.c); every slot added is
 * the map's, and a slot of another map is not. */
Test(handle_map, duplicates_of_one_key_are_capped_per_level)
{
    ms_hmap m, other;
    cr_assert_eq(ms_hmap_init(&m, 8), 0);
    cr_assert_eq(ms_hmap_init(&other, 8), 0);
    const uint32_t levels = 2, cap = (levels + 1) * MS_HMAP_PROBE;
    for (uint32_t i = 0; i < cap; i++) {
        uint64_t v = i;
        ms_hmap_slot *s = ms_hmap_add_upto(&m, 0x5000, &v, sizeof v, levels);
        cr_assert_not_null(s, "duplicate %u", i);
        cr_assert(ms_hmap_holds(&m, s));
        cr_assert(!ms_hmap_holds(&other, s));
    }
    uint64_t v = cap;
    cr_expect_null(ms_hmap_add_upto(&m, 0x5000, &v, sizeof v, levels), "the windows of levels 0..2 are full");
    cr_expect_not_null(ms_hmap_add_upto(&m, 0x5000, &v, sizeof v, levels + 1), "level 3 has room");
    uint64_t cursor = 0, n = 0;
    while (ms_hmap_scan(&m, 0x5000, &cursor))
        n++;
    cr_expect_eq(n, cap + 1, "a scan finds every duplicate");
}
