/* The analyses put together: the replay's waiting calls summed as they
 * come, then the critical path (waits.h). */
#include "waits.h"

#include <stdlib.h>
#include <string.h>

#include "waits_internal.h"

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
    free(w->path_threads);
    free(w->path_regions);
    free(w->path_segs);
    free(w->causes);
    free(w->fixes);
    memset(w, 0, sizeof *w);
}

int ms_waits_run(const ms_wx_input *in, size_t n, const ms_wx_opts *opts, ms_waits *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 1; i < n; i++)
        if (in[i].rank <= in[i - 1].rank)
            return -1;
    ms_wx_sums *s = ms_wx_sums_new(opts, n);
    if (!s)
        return -1;
    int rc = ms_wx_replay(in, n, out, s);
    if (rc != 0)
        ms_wx_sums_free(s);
    else
        rc = ms_wx_sums_done(s, out);
    if (rc == 0)
        rc = ms_wx_critical_path(in, n, opts, out);
    if (rc == 0)
        rc = ms_wx_root_causes(in, n, opts, out);
    if (rc == 0)
        rc = ms_wx_what_if(in, n, opts, out);
    if (rc != 0)
        ms_waits_free(out);
    return rc;
}

int ms_waits_inst_read(const ms_waits *w, size_t at, size_t n, ms_wx_instance *out)
{
    const ms_wx_inst_file *f = w->inst_file;
    if (at > w->ninst || n > w->ninst - at || (n && !f))
        return -1;
    return n ? ms_spill_read(&f->f, at, n, out) : 0;
}

/* One rank's facts in memory spilled as the merge spills a log's. */
static int spill_rank(const ms_wx_rank *r, ms_wx_spill *sp)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->nev; i++)
        rc = ms_wx_spill_event(sp, (uint32_t)i, &r->ev[i]);
    for (size_t k = 0; rc == 0 && k < r->nmsg + r->ncoll; k++) {
        ms_wx_end x = {.seq = ms_wx_spill_seq(sp), .ev = MS_WX_NONE};
        uint32_t ev;
        if (k < r->nmsg) {
            const ms_wx_msg *m = &r->msg[k];
            x.kind = m->is_send ? MS_WX_END_SEND : MS_WX_END_RECV;
            x.entry = m->entry;
            x.comm = m->comm;
            x.tag = m->tag;
            x.other = m->other;
            x.sync = m->sync;
            ev = m->ev;
        } else {
            const ms_wx_coll *c = &r->coll[k - r->nmsg];
            x.kind = MS_WX_END_COLL;
            x.entry = c->entry;
            x.comm = c->comm;
            x.other = c->root;
            x.sync = c->cls;
            ev = c->ev;
        }
        if (ev < r->nev) {
            const ms_wx_event *e = &r->ev[ev];
            x.ev = ev;
            x.ev_start = e->start;
            x.ev_end = e->end;
            x.region = e->region;
            x.thread = e->thread;
            x.charge = e->charge;
        }
        rc = ms_wx_spill_end(sp, &x);
    }
    return rc == 0 ? ms_wx_spill_finish(sp) : -1;
}

int ms_waits_compute(const ms_wx_rank *ranks, size_t nranks, ms_waits *out)
{
    memset(out, 0, sizeof *out);
    ms_wx_spill *sp = calloc(nranks ? nranks : 1, sizeof *sp);
    ms_wx_input *in = calloc(nranks ? nranks : 1, sizeof *in);
    int rc = sp && in ? 0 : -1;
    uint32_t nregions = 0;
    for (size_t i = 0; rc == 0 && i < nranks; i++) {
        ms_wx_spill_init(&sp[i]);
        rc = spill_rank(&ranks[i], &sp[i]);
        for (size_t e = 0; e < ranks[i].nev; e++)
            if (ranks[i].ev[e].region != MS_WX_NONE && ranks[i].ev[e].region >= nregions)
                nregions = ranks[i].ev[e].region + 1;
        in[i] = (ms_wx_input){.rank = ranks[i].rank, .app_start = ranks[i].app_start, .app_end = ranks[i].app_end,
                              .finalized = ranks[i].finalized, .app_ns = ranks[i].app_ns, .spill = &sp[i]};
    }
    ms_wx_opts o = {.nregions = nregions, .mark_rank = INT32_MAX};
    if (rc == 0)
        rc = ms_waits_run(in, nranks, &o, out);
    for (size_t i = 0; sp && i < nranks; i++)
        ms_wx_spill_free(&sp[i]);
    free(sp);
    free(in);
    return rc;
}
