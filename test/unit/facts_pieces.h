/* The wait-state facts' pieces (analysis/reduce/wire_facts.h) of one
 * sender collected into one buffer, and taken back piece by piece, as the
 * MPI merge sends and receives them. */
#ifndef MPISCOPE_TEST_FACTS_PIECES_H
#define MPISCOPE_TEST_FACTS_PIECES_H

#include <stdint.h>

#include "../../analysis/reduce/wire_facts.h"

static int facts_collect(void *ctx, const unsigned char *piece, size_t n, int done)
{
    (void)done;
    return ms_pbuf_put(ctx, piece, n);
}

/* The pieces of p's files with mine[i] (NULL: all), appended to b. */
static inline int facts_pack(const ms_partial *p, const unsigned char *mine, size_t piece_bytes, ms_pbuf *b)
{
    return ms_facts_pack(p, mine, 0, piece_bytes, facts_collect, b);
}

static inline uint64_t facts_le64(const unsigned char *q)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | q[i];
    return v;
}

/* The pieces in buf[0..n) one by one (each as long as its header says, or
 * what is left), up to the first that is not taken (0): that one's status;
 * 0 when the bytes end first. */
static inline int facts_unpack(ms_partial *p, const int32_t *owner, int32_t from, const unsigned char *buf, size_t n,
                               uint32_t *flags, char *err, size_t errlen)
{
    ms_facts_in in;
    ms_facts_in_init(&in, owner, from);
    size_t off = 0;
    int rc = 0;
    while (off < n && rc == 0) {
        uint64_t len = n - off >= 20 ? facts_le64(buf + off + 12) : n - off;
        if (len == 0 || len > n - off)
            len = n - off;
        rc = ms_facts_unpack(p, &in, buf + off, (size_t)len, err, errlen);
        off += (size_t)len;
    }
    if (flags)
        *flags |= in.flags;
    return rc;
}

#endif
