/*
 * The MPI merge's list of logs (docs/MERGE_MPI.md "The list"), which
 * process 0 broadcasts before anyone reads: every log of the directory, in
 * file order, with the process that reads it, in the wire format (wire.h):
 *
 *   list     u32 magic "MSLS" (0x534c534d), u32 version (MS_WIRE_VERSION),
 *            count { i32 owner, str name }
 *
 * A list of another version is refused with both versions named; a list
 * whose count, owners (0 to nprocs - 1) or names (a file name: not empty,
 * no '/') do not add up, or that does not end at its last name, is
 * refused.
 */
#ifndef MPISCOPE_WIRE_LIST_H
#define MPISCOPE_WIRE_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "reduce_partial.h"
#include "wire.h"

/* Append the list of p's files, file i read by process owner[i]. 0, or -1
 * when out of memory. */
int ms_wire_put_list(ms_pbuf *b, const ms_partial *p, const int32_t *owner);

/* The list of buf[0..n) for a merge of nprocs processes: its files into p
 * (empty) under dir, *owner malloc'ed (one per file). *nlisted: the files
 * it lists (also when memory ran out; 0 when refused). 0; -1 when out of
 * memory; -2 when the bytes are not a list of this version or do not add
 * up, with err set. */
int ms_wire_get_list(const void *buf, size_t n, int nprocs, const char *dir, ms_partial *p, int32_t **owner,
                     size_t *nlisted, char *err, size_t errlen);

#endif
