/*
 * One rank's point-to-point channels (p2p.h) summed by key as they come:
 * one entry per key (dir, comm, peer, tag) in the order first seen, found
 * through a channel index (waits/chan_index.h), so that each message costs
 * one probe and memory follows the keys, not the messages. Peers and tags
 * are those of message records, which the reader keeps within an int.
 */
#ifndef MPISCOPE_CHAN_SUM_H
#define MPISCOPE_CHAN_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "../waits/chan_index.h"
#include "p2p.h"

typedef struct ms_chan_sum {
    ms_p2p_chan *v;        /* by the index's id: first seen first */
    size_t n, cap;
    ms_chan_index index;
} ms_chan_sum;

void ms_chan_sum_init(ms_chan_sum *s);
void ms_chan_sum_free(ms_chan_sum *s);

/* Add c's calls and bytes to the entry of its key (c itself when the key is
 * new); c's rank is the rank of all. 0, or -1 when out of memory or c's peer
 * or tag do not fit an int (s is as it was). */
int ms_chan_sum_add(ms_chan_sum *s, const ms_p2p_chan *c);

#endif
