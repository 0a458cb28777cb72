/* One rank's channels summed by key (analysis/reduce/chan_sum.h): every key
 * once, in the order first seen, with the calls and bytes of all its
 * messages; the same channels as sorting all messages and merging equal keys
 * (ms_p2p_chans_normalize), across the index's growth; a peer or tag beyond
 * an int is refused, not folded into another key. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../analysis/reduce/chan_sum.h"

static ms_p2p_chan chan(int32_t dir, int64_t comm, int64_t peer, int64_t tag, uint64_t bytes)
{
    return (ms_p2p_chan){.rank = 3, .dir = dir, .comm = comm, .peer = peer, .tag = tag, .world_peer = -1,
                         .calls = 1, .bytes = bytes};
}

Test(chan_sum, first_seen_order_and_sums)
{
    ms_chan_sum s;
    ms_chan_sum_init(&s);
    ms_p2p_chan a = chan(MS_P2P_SEND, 0, 1, 4, 8), b = chan(MS_P2P_RECV_ANY, 0, 1, 4, 16);
    ms_p2p_chan c = chan(MS_P2P_SEND, 0, 1, 5, 8), d = chan(MS_P2P_SEND, 1, 1, 4, 2);
    cr_assert_eq(ms_chan_sum_add(&s, &a), 0);
    cr_assert_eq(ms_chan_sum_add(&s, &b), 0);
    cr_assert_eq(ms_chan_sum_add(&s, &a), 0);
    cr_assert_eq(ms_chan_sum_add(&s, &c), 0);
    cr_assert_eq(ms_chan_sum_add(&s, &d), 0);
    cr_assert_eq(ms_chan_sum_add(&s, &b), 0);
    cr_assert_eq(s.n, 4);
    cr_assert_eq(s.v[0].tag, 4);
    cr_assert_eq(s.v[0].calls, 2);
    cr_assert_eq(s.v[0].bytes, 16);
    cr_assert_eq(s.v[1].dir, MS_P2P_RECV_ANY);
    cr_assert_eq(s.v[1].calls, 2);
    cr_assert_eq(s.v[1].bytes, 32);
    cr_assert_eq(s.v[2].tag, 5);
    cr_assert_eq(s.v[3].comm, 1);
    ms_p2p_chan wide = chan(MS_P2P_SEND, 0, 1, (int64_t)1 << 32 | 4, 8);
    cr_assert_eq(ms_chan_sum_add(&s, &wide), -1);
    cr_assert_eq(s.n, 4);
    cr_assert_eq(s.v[0].calls, 2);
    ms_chan_sum_free(&s);
    cr_assert_eq(s.n, 0);
}

Test(chan_sum, same_as_sorting_every_message)
{
    enum { KEYS = 5000, MESSAGES = 200000 };
    ms_chan_sum s;
    ms_chan_sum_init(&s);
    ms_p2p_chan *all = malloc(MESSAGES * sizeof *all);
    cr_assert_not_null(all);
    uint64_t x = 12345;
    for (size_t i = 0; i < MESSAGES; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t k = (x >> 33) % KEYS;
        /* Keys that differ in one field only, and negative fields. */
        all[i] = chan((int32_t)(k % 2), (int64_t)(k / 2 % 3) - 1, (int64_t)(k / 6 % 40) - 1,
                      (int64_t)(k / 240) - 1, (x >> 20) & 0xff);
        cr_assert_eq(ms_chan_sum_add(&s, &all[i]), 0);
    }
    size_t n = ms_p2p_chans_normalize(all, MESSAGES);
    cr_assert_eq(s.n, n);
    size_t m = ms_p2p_chans_normalize(s.v, s.n);
    cr_assert_eq(m, n);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(ms_p2p_chan_cmp(&s.v[i], &all[i]), 0);
        cr_assert_eq(s.v[i].calls, all[i].calls);
        cr_assert_eq(s.v[i].bytes, all[i].bytes);
    }
    free(all);
    ms_chan_sum_free(&s);
}
