/*
 * The names of the ops of pmpi/calls.tbl by id, for readers of message
 * records (docs/FORMAT.md "Messages"). Generated into the build's
 * gen/op_names.c by scripts/gen_op_names.py from the table.
 */
#ifndef MPISCOPE_OP_NAMES_H
#define MPISCOPE_OP_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* The op's name ("isend"), or NULL for an id the table does not give
 * (0, retired, or beyond it). */
const char *ms_op_name(uint32_t id);

/* The id of the op named name[0..len) ("isend"), or 0 for a name the
 * table does not give. */
uint32_t ms_op_id(const char *name, size_t len);

#endif
