/*
 * The LIKWID collector's settings (DESIGN section 3): MPISCOPE_LIKWID,
 * read with the core's configuration (collector.h). lk_settings.c is
 * linked in even when the collector is left out, so that the variable
 * stays known.
 */
#ifndef MPISCOPE_LK_SETTINGS_H
#define MPISCOPE_LK_SETTINGS_H

#include "../preload/tstate.h"

/* MPISCOPE_LIKWID: the group measured per rank and region; "" = off. */
extern MS_HIDDEN char lk_group[64];

#endif
