/*
 * Per-file results of the reduction (reduce_partial.h) as bytes, for a
 * merge whose processes each read a share of a run's logs: a process packs
 * what it read into a chunk, chunks are concatenated on their way to the
 * process that assembles, and that process adds every chunk to its partial.
 * The bytes carry every field exactly (doubles bit for bit, sketches bucket
 * by bucket, every string), so the run assembled from chunks is the run
 * that one process reading every file assembles.
 *
 * A chunk is meant for processes of one build on one kind of machine (the
 * processes of one MPI job): structs travel as their bytes in memory, and
 * what they point to after them. Its header holds a magic, the byte order
 * and a signature of the struct layouts; a chunk of another build or byte
 * order is refused, as is any chunk whose lengths do not add up.
 *
 *   chunk    "MSPK" u32 layout-signature u32 flags u32 0x01020304
 *            u64 chunk-bytes u64 files-in-directory
 *            u64 nfiles { u64 file-index, file }...
 *            u64 ntables { u64 nregions { str name, u64 nparts { part }... }... }...
 *            u64 nsites { site }...
 *   file     ms_file_job bytes, str path, u64 offset of base in path,
 *            ms_rank_info's strings and files (io_files.h), warnings (u64 n, str...), channels
 *            (u64 n, ms_p2p_chan bytes), counters (u8 present; ms_counter_acc
 *            bytes, its sets and rows)
 *   part     ms_region_rank bytes, then its sketch's buckets
 *   site     ms_callsite bytes, then its strings
 *   str      u64 length (UINT64_MAX: NULL), bytes
 * All integers are in the machine's byte order.
 */
#ifndef MPISCOPE_PARTIAL_PACK_H
#define MPISCOPE_PARTIAL_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "reduce_partial.h"

/* Chunk flags: the process that made the chunk failed (its files are not
 * in it). */
#define MS_PACK_NOMEM 1u      /* out of memory */
#define MS_PACK_FAILED 2u     /* another failure (e.g. a damaged chunk from
                                 a process below it) */

typedef struct ms_pbuf {
    unsigned char *p;
    size_t n, cap;
    int nomem;
} ms_pbuf;

void ms_pbuf_free(ms_pbuf *b);
/* Append raw bytes; 0, or -1 when out of memory (b->nomem). */
int ms_pbuf_put(ms_pbuf *b, const void *v, size_t n);

/* Append one chunk with the files i of p with mine[i] != 0 (mine NULL: every
 * file read), every table and call-site row of p, and `flags`. 0, or -1 when
 * out of memory; then b holds what it held before plus, when possible, a
 * chunk with no files and flags | MS_PACK_NOMEM. p->files may be NULL with
 * p->nfiles set: a chunk of flags only, for a process that failed before it
 * had its list. */
int ms_partial_pack(const ms_partial *p, const unsigned char *mine, uint32_t flags, ms_pbuf *b);

/* Add every chunk of buf[0..n) to p, whose file list (p->nfiles files) is
 * the directory's. The flags of the chunks are or-ed into *flags. 0; -1
 * when out of memory; -2 when the bytes are not chunks of this build or do
 * not add up (a file index twice, or beyond the list), with err set. */
int ms_partial_unpack(ms_partial *p, const void *buf, size_t n, uint32_t *flags, char *err, size_t errlen);

#endif
