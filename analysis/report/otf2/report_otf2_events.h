/*
 * The event writer of the OTF2 export (report_otf2_events.c): one rank's
 * log -> the events of its locations, recorded in the registries
 * (report_otf2_defs.h). Compiled only with libotf2 (MS_HAVE_OTF2).
 */
#ifndef MPISCOPE_REPORT_OTF2_EVENTS_H
#define MPISCOPE_REPORT_OTF2_EVENTS_H

#include <stddef.h>

#include "../../read/log_reader.h"
#include "report_otf2_defs.h"

/* Convert one rank's log into events: its communicator records and the
 * locations it wrote go into x's registries. Returns 0, or -1 with err set. */
int ms_otf2_rank(ms_otf2 *x, ms_reader *r, const ms_rank_info *in, char *err, size_t errlen);

#endif
