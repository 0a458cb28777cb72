/*
 * The event writer of the OTF2 export (report_otf2_events.c): the run's
 * timeline (timeline_replay.h) -> the events of its locations, recorded in
 * the registries (report_otf2_defs.h). Compiled only with libotf2
 * (MS_HAVE_OTF2).
 */
#ifndef MPISCOPE_REPORT_OTF2_EVENTS_H
#define MPISCOPE_REPORT_OTF2_EVENTS_H

#include <stddef.h>

#include "report_otf2_defs.h"

/* Convert the logs of the ranks the window keeps into events, one rank
 * after the other: their communicator records and the locations they wrote
 * go into x's registries. Returns 0, or -1 with err set. */
int ms_otf2_events(ms_otf2 *x, char *err, size_t errlen);

#endif
