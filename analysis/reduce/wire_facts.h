/*
 * The wait-state facts' records on the MPI merge's wire, in bounded
 * pieces (docs/MERGE_MPI.md "Fact pieces"). After the chunks (partial_pack.h),
 * which carry each log's facts without their records, every process sends
 * process 0 the records of its logs, read back from its temporary files in
 * sorted order, a piece at a time; process 0 spills each piece as it comes.
 * A piece is a few MiB whatever the events (the MPI merge's senders hold
 * two: one in flight, the next being made; process 0 one):
 *
 *   piece   u32 magic "MSWF" (0x4657534d), u32 version (MS_WIRE_VERSION),
 *           u32 flags (partial_pack.h's), u64 piece bytes (header included),
 *           u64 piece number (the sender's pieces from 0), u64 file index
 *           (2^64-1: the sender's last piece), u8 last (1: the file's last
 *           piece),
 *           count { end } count { lane event } count { user event }
 *
 * A sender's files come in ascending index, each in one or more pieces,
 * the last flagged; then one last piece with no records, which carries the
 * sender's failure flags. A piece whose bytes, indices or order do not add
 * up is refused, and nothing is allocated from a count beyond what the
 * bytes left can hold.
 */
#ifndef MPISCOPE_WIRE_FACTS_H
#define MPISCOPE_WIRE_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "reduce_partial.h"
#include "wire.h"

#define MS_FACTS_MAGIC 0x4657534du   /* "MSWF" */
/* A piece's size: the MPI merge's, and the least a sender takes. */
#define MS_FACTS_PIECE_BYTES ((size_t)4 << 20)
#define MS_FACTS_PIECE_MIN ((size_t)256)

/* Hands one piece on (done: the sender's last); 0, or -1 to stop. */
typedef int (*ms_facts_emit)(void *ctx, const unsigned char *piece, size_t n, int done);

/* The records of the files i of p with mine[i] (NULL: every file) that
 * were read and have facts, in pieces of at most piece_bytes (at least
 * MS_FACTS_PIECE_MIN), then the last piece with `flags`. With flags set
 * or p->nomem, the last piece alone. 0, or -1 when a spill could not be
 * read back or memory ran out (the last piece then says so, when emit
 * still takes it) or emit stopped. */
int ms_facts_pack(const ms_partial *p, const unsigned char *mine, uint32_t flags, size_t piece_bytes,
                  ms_facts_emit emit, void *ctx);

/* What a receiver knows of one sender's pieces. */
typedef struct ms_facts_in {
    const int32_t *owner;  /* file -> the process that read it; NULL: any */
    int32_t from;          /* the sender */
    size_t next;           /* the lowest file index the next file may have */
    uint64_t seq;          /* the next piece's number */
    size_t open;           /* the file whose pieces are coming; SIZE_MAX: none */
    uint32_t flags;        /* the last piece's */
} ms_facts_in;

void ms_facts_in_init(ms_facts_in *in, const int32_t *owner, int32_t from);

/* One piece of in's sender into p, whose chunks came before: the records
 * spilled into their file's facts. 0: taken, more to come; 1: the
 * sender's last piece (its flags in in->flags); -1: out of memory; -2: the
 * bytes do not add up (a file twice, out of order, not the sender's, or
 * left out), with err set. */
int ms_facts_unpack(ms_partial *p, ms_facts_in *in, const void *buf, size_t n, char *err, size_t errlen);

#endif
