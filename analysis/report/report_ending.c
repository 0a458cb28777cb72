/*
 * How the run ended (run_end.h): the text report's "Run ended" section
 * (only when some rank did not finish), its JSON member "ending" (always),
 * and the phrases the HTML page shares.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "../../common/op_class.h"
#include "../../common/op_names.h"
#include "../reduce/run_clock.h"
#include "../reduce/run_end.h"
#include "json_str.h"
#include "names.h"
#include "report.h"
#include "units.h"

static const struct {
    int sig;
    const char *name;
} signal_names[] = {
    {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"}, {SIGTRAP, "SIGTRAP"},
    {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
    {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
    {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
};

static void ms_signal_name(char *buf, size_t cap, int sig)
{
    for (size_t i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
        if (signal_names[i].sig == sig) {
            snprintf(buf, cap, "%s", signal_names[i].name);
            return;
        }
    snprintf(buf, cap, "signal %d", sig);
}

/* A site for people: the file and line first, without directories
 * ("main at /src/app.c:40" -> "app.c:40 (main)"); "(no call site)". */
static void ms_end_site(char *buf, size_t cap, const char *loc)
{
    if (!loc) {
        snprintf(buf, cap, "(no call site)");
        return;
    }
    const char *at = strstr(loc, " at ");
    const char *file = at ? at + 4 : NULL;
    const char *slash = file ? strrchr(file, '/') : NULL;
    char tmp[1024];
    if (slash)
        snprintf(tmp, sizeof tmp, "%s (%.*s)", slash + 1, (int)(at - loc), loc);
    else if (file)
        snprintf(tmp, sizeof tmp, "%s (%.*s)", file, (int)(at - loc), loc);
    else
        snprintf(tmp, sizeof tmp, "%s", loc);
    ms_printable(buf, cap, tmp);
}

/* "MPI_Recv(src=1, tag=5)" for op with peer and tag (-1: left out). */
static void ms_end_call(char *buf, size_t cap, uint32_t op, int32_t peer, int32_t tag)
{
    char fn[64];
    const char *name = ms_op_name(op);
    ms_mpi_function(fn, sizeof fn, name ? name : "?");
    ms_op_meaning m = ms_op_meaning_of_id(op);
    const char *who = ms_op_data_collective(m) ? "root" : ms_op_sends(m) && !ms_op_receives(m) ? "dest" : "src";
    if (peer < 0 && tag < 0)
        snprintf(buf, cap, "%s", fn);
    else if (tag < 0)
        snprintf(buf, cap, "%s(%s=%" PRId32 ")", fn, who, peer);
    else if (peer < 0)
        snprintf(buf, cap, "%s(%s=any, tag=%" PRId32 ")", fn, who, tag);
    else
        snprintf(buf, cap, "%s(%s=%" PRId32 ", tag=%" PRId32 ")", fn, who, peer, tag);
}

/* A completion call's requests, as the calls that created them:
 * " on MPI_Irecv(src=1, tag=5), MPI_Isend(dest=1, tag=5)"; "" for none. */
static void ms_end_reqs(char *buf, size_t cap, const ms_rank_ending *e)
{
    size_t len = 0;
    buf[0] = 0;
    /* Requests beyond the first MS_ENDING_REQS, whose handles the log does
     * not hold, count among the "more". */
    uint32_t beyond = e->req_count > MS_ENDING_REQS ? e->req_count - MS_ENDING_REQS : 0;
    uint32_t k = 0;
    for (; k < e->nreqs && len + 1 < cap; k++) {
        char one[96];
        if (k == 3 && e->nreqs + beyond > 4) {
            snprintf(one, sizeof one, " and %" PRIu32 " more", e->nreqs - k + beyond);
            k = e->nreqs;
            beyond = 0;
        } else if (e->reqs[k].op) {
            char call[88];
            const ms_end_req *q = &e->reqs[k];
            ms_end_call(call, sizeof call, q->op, q->peer, q->tag);
            if (q->peer < 0 && q->tag < 0 && ms_op_receives(ms_op_meaning_of_id(q->op)))
                snprintf(call + strlen(call), sizeof call - strlen(call), "(src=any)");
            snprintf(one, sizeof one, "%s%s", k ? ", " : " on ", call);
        } else {
            snprintf(one, sizeof one, "%sa request not seen created", k ? ", " : " on ");
        }
        snprintf(buf + len, cap - len, "%s", one);
        len += strlen(buf + len);
    }
    if (beyond && len + 1 < cap)
        snprintf(buf + len, cap - len, k ? " and %" PRIu32 " more" : " on %" PRIu32 " requests", beyond);
}

/* The world rank the JSON's "peer" names: the call's, else its first
 * request's; -1: none. */
static int32_t ms_end_peer(const ms_rank_ending *e)
{
    if (e->peer >= 0 || !e->nreqs)
        return e->peer;
    return e->reqs[0].peer;
}

/* How long the rank had been in its call (or in none) when its ending
 * was written, s; -1: unknown. */
static double ms_end_since_s(const ms_rank_ending *e)
{
    uint64_t from = e->since_ns ? e->since_ns : e->idle_ns;
    if (!from || !e->at_ns || e->at_ns < from)
        return -1;
    return (double)(e->at_ns - from) / 1e9;
}

/* One rank's end in words. */
void ms_end_how(char *buf, size_t cap, const ms_rank_info *in, const ms_end_rank *er)
{
    const ms_rank_ending *e = &in->ending;
    char call[128] = "", site[512], sig[32], t[32] = "";
    if (e->op)
        ms_end_call(call, sizeof call, e->op, e->peer, e->tag);
    ms_end_site(site, sizeof site, e->site);
    double since = ms_end_since_s(e);
    if (since >= 0)
        ms_fmt_time(t, sizeof t, since * 1e9);
    switch (er->state) {
    case MS_END_FINISHED:
        snprintf(buf, cap, "%s", in->finalized ? "MPI_Finalize" : "exit() without MPI_Finalize");
        return;
    case MS_END_ABORTED:
        snprintf(buf, cap, "MPI_Abort(%" PRId32 ") at %s", e->code, site);
        return;
    case MS_END_SIGNAL:
        ms_signal_name(sig, sizeof sig, e->signal);
        if (e->fault_site) {
            char fault[512];
            ms_end_site(fault, sizeof fault, e->fault_site);
            snprintf(buf, cap, "died of %s at %s%s%s", sig, fault, e->op ? ", inside " : "", call);
        } else {
            snprintf(buf, cap, "died of %s%s%s%s%s", sig, e->op ? " inside " : "", call, e->op ? " at " : "",
                     e->op ? site : "");
        }
        return;
    case MS_END_KILLED:
        ms_signal_name(sig, sizeof sig, e->signal);
        if (e->op)
            snprintf(buf, cap, "killed by %s in %s at %s, after %s in it", sig, call, site, t);
        else
            snprintf(buf, cap, "killed by %s outside MPI", sig);
        return;
    case MS_END_STUCK:
        if (e->op)
            snprintf(buf, cap, "stuck in %s at %s for %s", call, site, t);
        else
            snprintf(buf, cap, "stuck outside MPI for %s", t);
        return;
    default:
        if (e->op)
            snprintf(buf, cap, "no end record; last seen waiting in %s at %s for %s", call, site, t);
        else
            snprintf(buf, cap, "no end record (killed by SIGKILL, or lost)");
        return;
    }
}

/* "its last call was MPI_Send at x.c:31, 12.1 s before" */
static void last_call(char *buf, size_t cap, const ms_run *run, const ms_run_end *end, const ms_rank_info *in)
{
    const ms_rank_ending *e = &in->ending;
    if (!e->last_op) {
        snprintf(buf, cap, "it made no MPI call");
        return;
    }
    char call[128], site[512], t[32];
    ms_end_call(call, sizeof call, e->last_op, -1, -1);
    ms_end_site(site, sizeof site, e->last_site);
    int64_t at = ms_rank_time(in, e->last_end_ns);
    ms_fmt_time(t, sizeof t, at < end->end ? (double)(end->end - at) : 0.0);
    (void)run;
    snprintf(buf, cap, "its last call was %s at %s, %s before the end", call, site, t);
}

static void rank_list(FILE *fp, const int32_t *v, size_t n)
{
    fputs(n == 1 ? "rank " : "ranks ", fp);
    for (size_t i = 0; i < n; i++) {
        if (i == 8 && n > 9) {
            fprintf(fp, " and %zu more", n - i);
            break;
        }
        fprintf(fp, "%s%s", i ? ", " : "", ms_rank_s(v[i]).s);
    }
}

static void waiting_call(char *buf, size_t cap, const ms_rank_ending *e)
{
    char call[128], site[512], reqs[384];
    ms_end_call(call, sizeof call, e->op, e->peer, e->tag);
    ms_end_site(site, sizeof site, e->site);
    ms_end_reqs(reqs, sizeof reqs, e);
    snprintf(buf, cap, "%s at %s%s", call, site, reqs);
}

/* What a rank others wait for was doing. */
static void about(FILE *fp, const ms_run *run, const ms_run_end *end, int32_t r)
{
    long j = ms_run_rank_index(run, r);
    if (j < 0) {
        fprintf(fp, "rank %s has no log", ms_rank_s(r).s);
        return;
    }
    const ms_rank_info *in = &run->ranks[j];
    char buf[1024];
    if (end->ranks[j].waiting) {
        waiting_call(buf, sizeof buf, &in->ending);
        fprintf(fp, "rank %s waits in %s instead", ms_rank_s(r).s, buf);
        return;
    }
    last_call(buf, sizeof buf, run, end, in);
    if (end->ranks[j].state == MS_END_FINISHED)
        fprintf(fp, "rank %s never reached it: %s", ms_rank_s(r).s, buf);
    else {
        char how[1024];
        ms_end_how(how, sizeof how, in, &end->ranks[j]);
        fprintf(fp, "rank %s never reached it (%s): %s", ms_rank_s(r).s, how, buf);
    }
}

static int in_cycle(const ms_run_end *end, int32_t r)
{
    for (size_t c = 0; c < end->ncycles; c++)
        for (uint32_t k = 0; k < end->cycle_len[c]; k++)
            if (end->cycles[c][k] == r)
                return 1;
    return 0;
}

static void cycle_text(FILE *fp, const ms_run *run, const ms_run_end *end, size_t c)
{
    const int32_t *v = end->cycles[c];
    uint32_t n = end->cycle_len[c];
    int chain = 1;
    for (uint32_t k = 0; k < n; k++) {
        long j = ms_run_rank_index(run, v[k]);
        if (j < 0 || end->ranks[j].nwaits != 1)
            chain = 0;
    }
    char buf[1024];
    if (!chain) {
        fputs("  ", fp);
        rank_list(fp, v, n);
        fputs(" wait for each other: a cycle\n", fp);
        return;
    }
    /* Follow the chain from its first rank. */
    int32_t r = v[0];
    for (uint32_t k = 0; k < n; k++) {
        long j = ms_run_rank_index(run, r);
        waiting_call(buf, sizeof buf, &run->ranks[j].ending);
        int32_t next = end->ranks[j].waits_for[0];
        if (k)
            fprintf(fp, ",\n    which waits in %s for rank %s", buf, ms_rank_s(next).s);
        else
            fprintf(fp, "  rank %s waits in %s for rank %s", ms_rank_s(r).s, buf, ms_rank_s(next).s);
        r = next;
    }
    fputs(": a cycle\n", fp);
}

int ms_end_graph_text(FILE *fp, const ms_run *run, const ms_run_end *end)
{
    char *done = calloc(run->nranks ? run->nranks : 1, 1);
    int32_t *group = malloc((run->nranks ? run->nranks : 1) * sizeof *group);
    if (!done || !group) {
        free(done);
        free(group);
        return -1;
    }
    for (size_t c = 0; c < end->ncycles; c++)
        cycle_text(fp, run, end, c);
    /* The other waiting ranks, one line per call they share. */
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_end_rank *er = &end->ranks[i];
        if (!er->waiting || done[i] || (in_cycle(end, run->ranks[i].rank) && er->nwaits == 1))
            continue;
        const ms_rank_ending *e = &run->ranks[i].ending;
        size_t ng = 0;
        for (size_t k = i; k < run->nranks; k++) {
            const ms_rank_ending *o = &run->ranks[k].ending;
            const ms_end_rank *ek = &end->ranks[k];
            if (ek->waiting && !done[k] && o->op == e->op && o->peer == e->peer && o->nmembers == e->nmembers &&
                ek->nwaits == er->nwaits &&
                (!er->nwaits || memcmp(ek->waits_for, er->waits_for, er->nwaits * sizeof *er->waits_for) == 0)) {
                done[k] = 1;
                group[ng++] = run->ranks[k].rank;
            }
        }
        char buf[1024];
        waiting_call(buf, sizeof buf, e);
        fputs("  ", fp);
        rank_list(fp, group, ng);
        fprintf(fp, " wait%s in %s", ng == 1 ? "s" : "", buf);
        for (uint32_t w = 0; w < er->nwaits; w++) {
            fputs("; ", fp);
            about(fp, run, end, er->waits_for[w]);
        }
        fputc('\n', fp);
    }
    free(group);
    free(done);
    if (end->nblocking) {
        fputs("  everyone waits on ", fp);
        rank_list(fp, end->blocking, end->nblocking);
        fputc('\n', fp);
    }
    return 0;
}

int ms_end_any_waiting(const ms_run_end *end)
{
    for (size_t i = 0; i < end->n; i++)
        if (end->ranks[i].waiting)
            return 1;
    return 0;
}

int ms_report_ending_text(FILE *fp, const ms_run *run)
{
    ms_run_end end;
    if (ms_run_end_make(run, &end) != 0)
        return -1;
    int rc = 0;
    if (!end.clean) {
        fputs("\nRun ended\n   rank  state     how\n", fp);
        for (size_t i = 0; i < run->nranks; i++) {
            char how[1024];
            ms_end_how(how, sizeof how, &run->ranks[i], &end.ranks[i]);
            fprintf(fp, "  %5s  %-8s  %s\n", ms_rank_s(run->ranks[i].rank).s, ms_end_state_name(end.ranks[i].state),
                    how);
        }
        if (ms_end_any_waiting(&end)) {
            fputs("\nWho waits for whom at the end\n", fp);
            rc = ms_end_graph_text(fp, run, &end);
        }
    }
    ms_run_end_free(&end);
    return rc != 0 || ferror(fp) ? -1 : 0;
}

static void json_str_or_null(FILE *fp, const char *s)
{
    if (s)
        ms_json_put_str(fp, s, strlen(s));
    else
        fputs("null", fp);
}

/* ,"requests":[{"op","peer","tag"}, ...]: what a completion call waits on. */
static void requests_json(FILE *fp, const ms_rank_ending *e)
{
    fputs(",\"requests\":[", fp);
    for (uint32_t k = 0; k < e->nreqs; k++) {
        const ms_end_req *q = &e->reqs[k];
        const char *name = q->op ? ms_op_name(q->op) : NULL;
        fputs(k ? ",{\"op\":" : "{\"op\":", fp);
        if (name) {
            char fn[64];
            ms_mpi_function(fn, sizeof fn, name);
            json_str_or_null(fp, fn);
        } else {
            fputs("null", fp);
        }
        fputs(",\"peer\":", fp);
        if (q->peer >= 0)
            fprintf(fp, "%" PRId32, q->peer);
        else
            fputs("null", fp);
        fputs(",\"tag\":", fp);
        if (q->tag >= 0)
            fprintf(fp, "%" PRId32 "}", q->tag);
        else
            fputs("null}", fp);
    }
    fputc(']', fp);
}

int ms_report_ending_json(FILE *fp, const ms_run *run)
{
    ms_run_end end;
    if (ms_run_end_make(run, &end) != 0)
        return -1;
    fputs("\"ending\":{\"ranks\":[", fp);
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        const ms_rank_ending *e = &in->ending;
        int st = end.ranks[i].state;
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"state\":\"%s\",\"code\":", i ? ",\n" : "\n", in->rank,
                ms_end_state_name(st));
        if (st == MS_END_ABORTED)
            fprintf(fp, "%" PRId32, e->code);
        else
            fputs("null", fp);
        fputs(",\"signal\":", fp);
        if (st == MS_END_SIGNAL || st == MS_END_KILLED) {
            char sig[32];
            ms_signal_name(sig, sizeof sig, e->signal);
            json_str_or_null(fp, sig);
        } else {
            fputs("null", fp);
        }
        fputs(",\"call\":", fp);
        char fn[64];
        const char *name = e->op && st != MS_END_FINISHED ? ms_op_name(e->op) : NULL;
        if (name) {
            ms_mpi_function(fn, sizeof fn, name);
            json_str_or_null(fp, fn);
        } else {
            fputs("null", fp);
        }
        fputs(",\"call_site\":", fp);
        json_str_or_null(fp, st == MS_END_FINISHED ? NULL : e->fault_site ? e->fault_site : e->site);
        fputs(",\"peer\":", fp);
        if (name && ms_end_peer(e) >= 0)
            fprintf(fp, "%" PRId32, ms_end_peer(e));
        else
            fputs("null", fp);
        double since = st == MS_END_FINISHED ? -1 : ms_end_since_s(e);
        fputc(',', fp);
        if (since >= 0)
            ms_json_put_num(fp, "since_s", since);
        else
            fputs("\"since_s\":null", fp);
        if (name && e->nreqs)
            requests_json(fp, e);
        fputc('}', fp);
    }
    fputs("],\n\"cycles\":[", fp);
    for (size_t c = 0; c < end.ncycles; c++) {
        fputs(c ? ",[" : "[", fp);
        for (uint32_t k = 0; k < end.cycle_len[c]; k++)
            fprintf(fp, "%s%" PRId32, k ? "," : "", end.cycles[c][k]);
        fputc(']', fp);
    }
    fputs("],\"blocking\":[", fp);
    for (uint32_t k = 0; k < end.nblocking; k++)
        fprintf(fp, "%s%" PRId32, k ? "," : "", end.blocking[k]);
    fputs("]}", fp);
    ms_run_end_free(&end);
    return ferror(fp) ? -1 : 0;
}
