/* The CUPTI collector's settings: see cu_settings.h. */
#include "cu_settings.h"

#include <stddef.h>

#include "../preload/collector.h"

int cu_mode;

/* auto, or a boolean (shown as 0 or 1). */
static const ms_choice mode_choices[] = {{"auto", CU_MODE_AUTO}, {"1", CU_MODE_ON}, {"0", CU_MODE_OFF},
                                         {"yes", CU_MODE_ON}, {"no", CU_MODE_OFF}, {"true", CU_MODE_ON},
                                         {"false", CU_MODE_OFF}, {"on", CU_MODE_ON}, {"off", CU_MODE_OFF},
                                         {NULL, 0}};

static const ms_setting rows[] = {
    {"MPISCOPE_CUPTI", MS_SETTING_CHOICE, "auto", &cu_mode, sizeof cu_mode, mode_choices, 0, 0,
     "GPU activity from CUPTI: auto, or a boolean"},
};

/* Only an explicit "on" asks for the collector; auto does without it. */
static int asks(void)
{
    return cu_mode == CU_MODE_ON ? 0 : -1;
}

static const ms_settings cupti_settings = {
    .collector = "cupti",
    .rows = rows,
    .nrows = sizeof rows / sizeof rows[0],
    .asks = asks,
    .built = "CUPTI support",
    .lost = "no GPU activity is recorded",
};
MS_SETTINGS_REGISTER(cupti_settings);
