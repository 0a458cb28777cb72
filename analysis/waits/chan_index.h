/*
 * Dense ids for keys of four integers (a point-to-point channel: comm,
 * source, destination, tag; a communicator: its id), in the order first
 * seen: an open-addressing table whose size follows the keys stored.
 */
#ifndef MPISCOPE_CHAN_INDEX_H
#define MPISCOPE_CHAN_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_chan_key {
    int64_t a, b;
    int32_t c, d;
} ms_chan_key;

typedef struct ms_chan_index {
    ms_chan_key *keys;     /* by id */
    uint32_t *slots;       /* id + 1; 0 empty */
    size_t n, nslots;      /* ids given; slots, a power of two or 0 */
    size_t keys_cap;
} ms_chan_index;

void ms_chan_index_init(ms_chan_index *x);
void ms_chan_index_free(ms_chan_index *x);

/* The id of k, given now if k is new. 0, or -1 when out of memory. */
int ms_chan_index_id(ms_chan_index *x, const ms_chan_key *k, uint32_t *id);

/* 1 with *id when k has one, else 0. */
int ms_chan_index_find(const ms_chan_index *x, const ms_chan_key *k, uint32_t *id);

#endif
