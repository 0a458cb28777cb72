/*
 * A rank's facts (ms_rank_info, run.h) on the MPI merge's wire (wire.h;
 * docs/MERGE_MPI.md "rank"): every field by name, with what it holds (the
 * clock alignment, GPU activity and origins, files of MPI-IO,
 * communicators).
 */
#ifndef MPISCOPE_WIRE_RANK_H
#define MPISCOPE_WIRE_RANK_H

#include "run.h"
#include "wire.h"

void ms_wire_put_rank_info(ms_pbuf *b, const ms_rank_info *in);
/* Into *in (zeroed by the caller); what arrived is freed with
 * ms_rank_info_free, also when r turned bad or out of memory. */
void ms_wire_get_rank_info(ms_wire_in *r, ms_rank_info *in);

#endif
