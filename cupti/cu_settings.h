/*
 * The CUPTI collector's settings (DESIGN section 3): MPISCOPE_CUPTI, read
 * with the core's configuration (collector.h). cu_settings.c is linked in
 * even when the collector is left out, so that the variable stays known.
 */
#ifndef MPISCOPE_CU_SETTINGS_H
#define MPISCOPE_CU_SETTINGS_H

#include "../preload/tstate.h"

enum { CU_MODE_OFF = 0, CU_MODE_ON = 1, CU_MODE_AUTO = 2 };

/* MPISCOPE_CUPTI: CU_MODE_*. */
extern MS_HIDDEN int cu_mode;

#endif
