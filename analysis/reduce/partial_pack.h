/*
 * Per-file results of the reduction (reduce_partial.h) as bytes, for a
 * merge whose processes each read a share of a run's logs: a process packs
 * what it read into a chunk, chunks are concatenated on their way to the
 * process that assembles, and that process adds every chunk to its partial.
 * The bytes carry every field exactly (doubles bit for bit, sketches bucket
 * by bucket, every string), so the run assembled from chunks is the run
 * that one process reading every file assembles.
 *
 * The bytes are the wire format of docs/MERGE_MPI.md: every value with a
 * stated size, little-endian (wire.h), every struct field by field in a
 * stated order (wire_file.h, wire_rank.h, and the parts and call sites
 * here), so that processes of different builds, compilers or machines
 * agree whenever they speak the same version:
 *
 *   chunk    u32 magic "MSPK" (0x4b50534d), u32 version (MS_WIRE_VERSION),
 *            u32 flags, u64 chunk bytes (header included),
 *            u64 files in the directory,
 *            count { u64 file index, file }...
 *            count { count { str name, count { part }... }... }...   tables
 *            count { site }...
 *
 * A chunk of another version is refused with both versions named; a chunk
 * whose lengths, counts, indices or strings do not add up is refused, and
 * nothing is allocated from a count beyond what the bytes left can hold.
 */
#ifndef MPISCOPE_PARTIAL_PACK_H
#define MPISCOPE_PARTIAL_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "reduce_partial.h"
#include "wire.h"

/* The wire format's version: raised with every change of its bytes. */
#define MS_WIRE_VERSION 3u

/* Chunk flags: the process that made the chunk failed (its files are not
 * in it). */
#define MS_PACK_NOMEM 1u      /* out of memory */
#define MS_PACK_FAILED 2u     /* another failure (e.g. a damaged chunk from
                                 a process below it) */

/* Append one chunk with the files i of p with mine[i] != 0 (mine NULL: every
 * file read), every table and call-site row of p, and `flags`. 0, or -1 when
 * out of memory; then b holds what it held before plus, when possible, a
 * chunk with no files and flags | MS_PACK_NOMEM. p->files may be NULL with
 * p->nfiles set: a chunk of flags only, for a process that failed before it
 * had its list. */
int ms_partial_pack(const ms_partial *p, const unsigned char *mine, uint32_t flags, ms_pbuf *b);

/* Add every chunk of buf[0..n) to p, whose file list (p->nfiles files) is
 * the directory's. The flags of the chunks are or-ed into *flags. 0; -1
 * when out of memory; -2 when the bytes are not chunks of this version or
 * do not add up (a file index twice, or beyond the list), with err set. */
int ms_partial_unpack(ms_partial *p, const void *buf, size_t n, uint32_t *flags, char *err, size_t errlen);

#endif
