/* The pattern names and the freeing of results: see wait_types.h. */
#include "wait_types.h"

#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const pattern_names[MS_WX_NPATTERNS] = {
    "late_sender", "late_receiver", "wait_at_barrier", "wait_at_nxn", "late_broadcast", "early_reduce",
};

const char *ms_wx_pattern_name(int pattern)
{
    return pattern >= 0 && pattern < MS_WX_NPATTERNS ? pattern_names[pattern] : "?";
}

void ms_waits_free(ms_waits *w)
{
    if (!w)
        return;
    free(w->rows);
    free(w->site_rows);
    free(w->path_sites);
    ms_wx_inst_file *f = w->inst_file;
    if (f) {
        ms_spill_file_free(&f->f);
        free(f->off);
        free(f);
    }
    free(w->late);
    free(w->marks);
    free(w->path_ranks);
    free(w->path_regions);
    free(w->path_segs);
    memset(w, 0, sizeof *w);
}
