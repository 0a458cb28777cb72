/* The pattern names: see wait_types.h. */
#include "wait_types.h"

static const char *const pattern_names[MS_WX_NPATTERNS] = {
    "late_sender", "late_receiver", "wait_at_barrier", "wait_at_nxn", "late_broadcast", "early_reduce",
};

const char *ms_wx_pattern_name(int pattern)
{
    return pattern >= 0 && pattern < MS_WX_NPATTERNS ? pattern_names[pattern] : "?";
}
