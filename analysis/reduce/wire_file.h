/*
 * One log's per-file result (ms_file_job, reduce_partial.h) on the MPI
 * merge's wire (wire.h; docs/MERGE_MPI.md "file"): every field by name,
 * with what it holds (the read's outcome, the rank's facts, warnings,
 * channels, counter samples, wait-state facts).
 */
#ifndef MPISCOPE_WIRE_FILE_H
#define MPISCOPE_WIRE_FILE_H

#include "reduce_partial.h"
#include "wire.h"

void ms_wire_put_file(ms_pbuf *b, const ms_file_job *j);
/* Into *j (zeroed by the caller); what arrived is freed with
 * ms_wire_file_free, also when r turned bad or out of memory. */
void ms_wire_get_file(ms_wire_in *r, ms_file_job *j);
void ms_wire_file_free(ms_file_job *j);

#endif
