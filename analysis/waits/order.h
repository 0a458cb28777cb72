/*
 * The waiting calls of every rank's first thread in time order (by the
 * end of their waiting), forward or backward, a block at a time from the
 * analysis's file of them (root_causes.c, what_if.c).
 */
#ifndef MPISCOPE_ORDER_H
#define MPISCOPE_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "waits_internal.h"

typedef struct ms_wx_order {
    size_t n;                 /* inputs */
    ms_spill_reader *r;       /* per input: its waiting calls */
    uint64_t *left;           /* per input: calls not yet taken */
    ms_wx_instance *head;     /* per input: its next */
    uint8_t *live;            /* per input: head holds a call */
    struct ms_wx_order_key {
        int64_t to;           /* head[i].to */
        size_t i;
    } *heap;                  /* the inputs with a head, their keys in the heap */
    size_t nheap;
    int backward;
    int failed;
} ms_wx_order;

/* Over f's calls of n inputs; readers of blk records. 0, or -1
 * (ms_wx_order_close in either case). */
int ms_wx_order_open(ms_wx_order *o, const ms_wx_inst_file *f, size_t n, int backward, size_t blk);
/* The next call into *x, its input's index into *ri: 1; 0 when done; -1 on
 * a read error. Ties: the lower input first (forward), the higher
 * (backward). */
int ms_wx_order_next(ms_wx_order *o, ms_wx_instance *x, size_t *ri);
void ms_wx_order_close(ms_wx_order *o);

#endif
