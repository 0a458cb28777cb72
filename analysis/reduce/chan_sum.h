/*
 * Point-to-point channels (p2p.h) summed by key as they come: one entry per
 * key (rank, dir, comm, peer, tag) in the order first seen, found through
 * an open-addressing table whose size follows the keys, so that each
 * message costs one probe and memory follows the keys, not the messages.
 */
#ifndef MPISCOPE_CHAN_SUM_H
#define MPISCOPE_CHAN_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "p2p.h"

typedef struct ms_chan_sum {
    ms_p2p_chan *v;        /* one per key, first seen first */
    size_t n, cap;
    uint32_t *slots;       /* index into v + 1; 0 empty */
    size_t nslots;         /* a power of two, or 0 */
} ms_chan_sum;

void ms_chan_sum_init(ms_chan_sum *s);
void ms_chan_sum_free(ms_chan_sum *s);

/* Add c's calls and bytes to the entry of its key (c itself when the key is
 * new). 0, or -1 when out of memory (s is as it was). */
int ms_chan_sum_add(ms_chan_sum *s, const ms_p2p_chan *c);

#endif
