/*
 * Per-file results as bytes and back (analysis/reduce/partial_pack.c and the
 * wire format of wire.h, wire_rank.c, wire_file.c): every field of every
 * struct and every string survives the round trip (the structs are filled
 * with random bytes, so a field the packer drops or mangles shows up as a
 * difference; fields are compared one by one, padding aside); the bytes are
 * the documented little-endian ones; a chunk of another wire version is
 * refused with both versions named; damaged bytes are refused, never a
 * crash; and a run assembled from chunks packed by three "processes"
 * reports exactly what the serial reduction reports.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/partial_pack.h"
#include "../../analysis/reduce/reduce_partial.h"
#include "../../analysis/report/report.h"
#include "facts_pieces.h"
#include "synth.h"
#include "unit_util.h"

static void fill(void *p, size_t n)
{
    unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        c[i] = (unsigned char)unit_rnd();
}

static char *rstr(const char *what)
{
    char *s = NULL;
    cr_assert(asprintf(&s, "%s-%llx-\xc3\xa9\t\"x\"", what, (unsigned long long)unit_rnd()) > 0);
    return s;
}

static void make_counters(ms_file_job *j)
{
    ms_counter_acc *a = malloc(sizeof *a);
    cr_assert(a);
    fill(a, sizeof *a);
    a->nsets = 2;
    a->sets = calloc(2, sizeof *a->sets);
    fill(&a->sets[0], sizeof a->sets[0]);
    a->sets[0].group = NULL;  /* a set index not seen */
    a->sets[0].names = NULL;
    fill(&a->sets[1], sizeof a->sets[1]);
    a->sets[1].group = rstr("group");
    a->sets[1].n = 3;
    a->sets[1].nevents = 2;
    a->sets[1].names = calloc(3, sizeof(char *));
    for (int i = 0; i < 3; i++)
        a->sets[1].names[i] = rstr("metric");
    a->nrows = a->cap = 2;
    a->rows = malloc(2 * sizeof *a->rows);
    fill(a->rows, 2 * sizeof *a->rows);
    a->rows[0].name = NULL;
    a->rows[1].name = rstr("region");
    j->counters = a;
}

static void make_waits(ms_file_job *j, size_t i);
static void same_str(const char *a, const char *b, const char *what);

static void make_file(ms_file_job *j, const char *dir, size_t i)
{
    fill(j, sizeof *j);
    cr_assert(asprintf(&j->path, "%s/rank-%06zu.zst", dir, i) > 0);
    j->base = j->path + strlen(dir) + 1;
    j->read = 1;
    j->res.status = MS_READ_TRUNCATED;
    snprintf(j->res.message, sizeof j->res.message, "%s: truncated at byte %zu", j->path, i);
    j->info.status = MS_READ_OK;
    ms_rank_info *in = &j->info;
    in->file = i == 0 ? NULL : rstr("file");
    in->host = rstr("host");
    in->mpi_library = rstr("mpi");
    in->argv0 = rstr("argv0");
    in->run_dir = rstr("run_dir");
    in->clock = rstr("clock");
    in->run_id = strdup("");
    in->gpu.norigins = i;
    in->gpu.origins = i ? calloc(i, sizeof *in->gpu.origins) : NULL;
    for (size_t k = 0; k < i; k++) {
        fill(&in->gpu.origins[k], sizeof in->gpu.origins[k]);
        in->gpu.origins[k].region = rstr("origin");
    }
    in->io_files.n = i;
    in->io_files.v = i ? calloc(i, sizeof *in->io_files.v) : NULL;
    for (size_t k = 0; k < i; k++)
        in->io_files.v[k] = (ms_io_file){.id = (uint32_t)(7 * k + 1), .comm = (int64_t)k - 1, .path = rstr("path")};
    in->comms.n = i;
    in->comms.v = i ? calloc(i, sizeof *in->comms.v) : NULL;
    for (size_t k = 0; k < i; k++) {
        fill(&in->comms.v[k], sizeof in->comms.v[k]);
        in->comms.v[k].ndims = (uint32_t)k % (MS_MAX_COMM_DIMS + 1);
        for (uint32_t d = in->comms.v[k].ndims; d < MS_MAX_COMM_DIMS; d++)
            in->comms.v[k].dims[d] = 0;  /* only the dimensions it has travel */
        in->comms.v[k].unused = 0;
        in->comms.v[k].name = k % 2 ? rstr("comm name") : NULL;
        in->comms.v[k].where = k % 3 ? rstr("comm site") : NULL;
    }
    in->ending.cause = (uint32_t)(i % (MS_ENDING_ABORT + 1));
    in->ending.site = i % 2 ? rstr("ending site") : NULL;
    in->ending.fault_site = i % 3 ? rstr("fault site") : NULL;
    in->ending.last_site = rstr("last site");
    in->ending.nmembers = (uint32_t)i;
    in->ending.members = i ? calloc(i, sizeof *in->ending.members) : NULL;
    for (size_t k = 0; k < i; k++)
        in->ending.members[k] = (int32_t)(3 * k);
    in->ending.nreqs = (uint32_t)(i % (MS_ENDING_REQS + 1));
    in->ending.reqs = in->ending.nreqs ? calloc(in->ending.nreqs, sizeof *in->ending.reqs) : NULL;
    for (uint32_t k = 0; k < in->ending.nreqs; k++)
        in->ending.reqs[k] = (ms_end_req){.op = 5u + k, .peer = (int32_t)k - 1, .tag = (int32_t)(2 * k)};
    j->warnings.n = i;
    j->warnings.cap = i + 3;
    j->warnings.v = calloc(i + 3, sizeof(char *));
    for (size_t k = 0; k < i; k++)
        j->warnings.v[k] = rstr("warning");
    j->nchans = 3 * i;
    j->chans_cap = 3 * i + 1;
    j->chans = malloc(j->chans_cap * sizeof *j->chans);
    fill(j->chans, j->chans_cap * sizeof *j->chans);
    j->counters = NULL;
    if (i == 1)
        make_counters(j);
    j->waits = NULL;
    if (i >= 2)
        make_waits(j, i);
}

/* Wait-state facts with random times, their indices in range, spilled
 * as a log's are. */
static void make_waits(ms_file_job *j, size_t i)
{
    ms_wait_facts *f = j->waits = calloc(1, sizeof *f);
    ms_wait_facts_init(f);
    f->messages_read = 40 + i;
    f->has_records = i == 2;
    f->nnames = f->names_cap = 2;
    f->names = malloc(2 * sizeof *f->names);
    f->names[0] = rstr("mpi:recv kind=point-to-point");
    f->names[1] = rstr("phase");
    f->nev = 5;
    ms_wx_event ev[5];
    for (size_t k = 0; k < 5; k++) {
        memset(&ev[k], 0, sizeof ev[k]);
        fill(&ev[k].start, sizeof ev[k].start);
        ev[k].end = ev[k].start + 7;
        ev[k].region = (uint32_t)(k % 2);
        ev[k].thread = (uint16_t)(k % 3 == 1);
        ev[k].kind = (uint8_t)(k % 2);
        ev[k].charge = 1;
        cr_assert_eq(ms_wx_spill_event(&f->spill, (uint32_t)k, &ev[k]), 0);
    }
    for (size_t k = 0; k < 4; k++) {
        ms_wx_end x = {.seq = ms_wx_spill_seq(&f->spill), .comm = (int64_t)k, .tag = 9, .other = 1,
                       .kind = k == 3 ? MS_WX_END_COLL : k == 1 ? MS_WX_END_SEND : MS_WX_END_RECV,
                       .sync = k == 3 ? MS_WX_NXN : 0, .ev = k == 2 ? MS_WX_NONE : k == 3 ? 4 : (uint32_t)k};
        fill(&x.entry, sizeof x.entry);
        if (x.ev != MS_WX_NONE) {
            x.ev_start = ev[x.ev].start;
            x.ev_end = ev[x.ev].end;
            x.region = ev[x.ev].region;
            x.thread = ev[x.ev].thread;
            x.charge = 1;
        }
        cr_assert_eq(ms_wx_spill_end(&f->spill, &x), 0);
    }
    cr_assert_eq(ms_wx_spill_finish(&f->spill), 0);
}

/* The records of a finished sort, read back. */
static void *sorted_records(const ms_xsort *s)
{
    size_t n = (size_t)ms_xsort_count(s);
    void *v = calloc(n ? n : 1, s->file.rec);
    cr_assert(v);
    cr_assert_eq(n ? ms_spill_read(&s->file, 0, n, v) : 0, 0, "spilled records read back");
    return v;
}

static void same_sorted(const ms_xsort *a, const ms_xsort *b, const char *what)
{
    cr_assert_eq(ms_xsort_count(a), ms_xsort_count(b), "%s: counts differ", what);
    void *x = sorted_records(a), *y = sorted_records(b);
    cr_assert_eq(memcmp(x, y, (size_t)ms_xsort_count(a) * a->file.rec), 0, "%s differ", what);
    free(x);
    free(y);
}

static void same_waits(const ms_wait_facts *a, const ms_wait_facts *b)
{
    cr_assert_eq(!a, !b, "wait facts: one side has none");
    if (!a)
        return;
    cr_assert_eq(a->messages_read, b->messages_read);
    cr_assert_eq(a->has_records, b->has_records);
    cr_assert_eq(a->nev, b->nev);
    cr_assert_eq(a->nnames, b->nnames);
    same_sorted(&a->spill.ends, &b->spill.ends, "wait ends");
    same_sorted(&a->spill.lane, &b->spill.lane, "wait lane events");
    same_sorted(&a->spill.user, &b->spill.user, "wait user events");
    cr_assert_eq(a->spill.comms.n, b->spill.comms.n, "collective communicators");
    for (size_t i = 0; i < a->nnames; i++)
        same_str(a->names[i], b->names[i], "wait region name");
}

static void make_part(ms_region_rank *r, int len)
{
    fill(r, sizeof *r);
    r->stats.sketch.len = len;
    r->stats.sketch.lo = (int32_t)(unit_rnd() % 2000);
    r->stats.sketch.counts = NULL;
    if (len > 0) {
        r->stats.sketch.counts = malloc((size_t)len * sizeof(uint64_t));
        fill(r->stats.sketch.counts, (size_t)len * sizeof(uint64_t));
    }
}

static void make_site(ms_callsite *c)
{
    fill(c, sizeof *c);
    c->region = rstr("mpi:send");
    c->function = rstr("main");
    c->file = strdup("");
    c->text = rstr("  MPI_Send(buf, n, MPI_INT, 1, 0, MPI_COMM_WORLD);");
    c->location = rstr("main at a.c:12");
    c->object = rstr("/usr/lib/libx.so");
}

#define NFILES 4

/* A partial of NFILES files, every field random. */
static void make_partial(ms_partial *p)
{
    ms_partial_init(p);
    p->nfiles = NFILES;
    p->files = calloc(NFILES, sizeof *p->files);
    for (size_t i = 0; i < NFILES; i++)
        make_file(&p->files[i], "/logs/run", i);
    for (int t = 0; t < 2; t++) {
        ms_region_table *tab = ms_partial_add_table(p);
        cr_assert(tab);
        for (int r = 0; r < 3; r++) {
            char name[32];
            snprintf(name, sizeof name, "mpi:region-%d-%d", t, r);
            for (int k = 0; k < r + 1; k++) {
                ms_region_rank part;
                make_part(&part, k == 0 ? 0 : 17 * k + r);
                cr_assert_eq(ms_region_table_add(tab, name, strlen(name), &part), 0);
            }
        }
    }
    p->nsites = p->sites_cap = 3;
    p->sites = malloc(3 * sizeof *p->sites);
    for (int i = 0; i < 3; i++)
        make_site(&p->sites[i]);
}

/* An empty partial with the same file list, as the assembling process has. */
static void empty_like(ms_partial *q, const ms_partial *p)
{
    ms_partial_init(q);
    const char *names[NFILES];
    for (size_t i = 0; i < p->nfiles; i++)
        names[i] = p->files[i].base;
    cr_assert_eq(ms_partial_files(q, "/logs/run", names, p->nfiles), 0);
}

static void same_str(const char *a, const char *b, const char *what)
{
    if (!a || !b)
        cr_assert(a == b, "%s: %s vs %s", what, a ? a : "NULL", b ? b : "NULL");
    else
        cr_assert_str_eq(a, b, "%s", what);
}

/* Field f of x and y: the same bytes (doubles bit for bit). */
#define SAME(x, y, f) cr_assert_eq(memcmp(&(x).f, &(y).f, sizeof (x).f), 0, "%s differs", #f)

static void same_rank_info(const ms_rank_info *a, const ms_rank_info *b)
{
    SAME(*a, *b, rank);
    SAME(*a, *b, size);
    SAME(*a, *b, pid);
    SAME(*a, *b, mode);
    SAME(*a, *b, status);
    SAME(*a, *b, has_end);
    SAME(*a, *b, finalized);
    SAME(*a, *b, threads);
    SAME(*a, *b, events);
    SAME(*a, *b, dropped);
    SAME(*a, *b, init_start_ns);
    SAME(*a, *b, init_end_ns);
    SAME(*a, *b, finalize_start_ns);
    SAME(*a, *b, clock_offset_ns);
    for (int k = 0; k < 2; k++) {
        SAME(*a, *b, align.obs[k].has);
        SAME(*a, *b, align.obs[k].local);
        SAME(*a, *b, align.obs[k].peer_mono_ns);
        SAME(*a, *b, align.obs[k].rtt_ns);
        SAME(*a, *b, align.obs[k].exchanges);
    }
    SAME(*a, *b, align.model);
    SAME(*a, *b, align.offset_ns);
    SAME(*a, *b, align.ref);
    SAME(*a, *b, align.drift);
    SAME(*a, *b, has_events);
    SAME(*a, *b, first_start);
    SAME(*a, *b, last_end);
    SAME(*a, *b, app_ns);
    SAME(*a, *b, mpi_ns);
    SAME(*a, *b, wall_ns);
    SAME(*a, *b, mpi_pct);
    SAME(*a, *b, gpu.streams);
    SAME(*a, *b, gpu.kernels);
    SAME(*a, *b, gpu.copies);
    SAME(*a, *b, gpu.memsets);
    SAME(*a, *b, gpu.kernel_ns);
    SAME(*a, *b, gpu.copy_ns);
    SAME(*a, *b, gpu.memset_ns);
    SAME(*a, *b, gpu.busy_ns);
    SAME(*a, *b, gpu.dropped);
    SAME(*a, *b, gpu.norigins);
    SAME(*a, *b, io_files.n);
    SAME(*a, *b, comms.n);
    SAME(*a, *b, ending.cause);
    SAME(*a, *b, ending.signal);
    SAME(*a, *b, ending.code);
    SAME(*a, *b, ending.op);
    SAME(*a, *b, ending.peer);
    SAME(*a, *b, ending.tag);
    SAME(*a, *b, ending.at_ns);
    SAME(*a, *b, ending.since_ns);
    SAME(*a, *b, ending.idle_ns);
    SAME(*a, *b, ending.nmembers);
    SAME(*a, *b, ending.last_op);
    SAME(*a, *b, ending.last_end_ns);
    same_str(a->ending.site, b->ending.site, "ending site");
    same_str(a->ending.fault_site, b->ending.fault_site, "fault site");
    same_str(a->ending.last_site, b->ending.last_site, "last site");
    for (uint32_t k = 0; k < a->ending.nmembers; k++)
        cr_assert_eq(a->ending.members[k], b->ending.members[k]);
    SAME(*a, *b, ending.req_count);
    SAME(*a, *b, ending.nreqs);
    for (uint32_t k = 0; k < a->ending.nreqs; k++)
        cr_assert(memcmp(&a->ending.reqs[k], &b->ending.reqs[k], sizeof a->ending.reqs[k]) == 0);
}

static void same_chan(const ms_p2p_chan *a, const ms_p2p_chan *b)
{
    SAME(*a, *b, rank);
    SAME(*a, *b, dir);
    SAME(*a, *b, comm);
    SAME(*a, *b, peer);
    SAME(*a, *b, tag);
    SAME(*a, *b, world_peer);
    SAME(*a, *b, calls);
    SAME(*a, *b, bytes);
}

static void same_file(const ms_file_job *a, const ms_file_job *b)
{
    SAME(*a, *b, name_rank);
    SAME(*a, *b, res.status);
    SAME(*a, *b, res.offset);
    SAME(*a, *b, res.frames);
    SAME(*a, *b, res.events);
    SAME(*a, *b, res.summarized);
    SAME(*a, *b, res.threads);
    SAME(*a, *b, res.has_header);
    SAME(*a, *b, res.has_end);
    cr_assert_str_eq(a->res.message, b->res.message);
    SAME(*a, *b, usable);
    SAME(*a, *b, read);
    SAME(*a, *b, nchans);
    SAME(*a, *b, warnings.n);
    same_rank_info(&a->info, &b->info);
    same_waits(a->waits, b->waits);
    same_str(a->path, b->path, "path");
    cr_assert_eq(a->base - a->path, b->base - b->path);
    same_str(a->info.file, b->info.file, "file");
    same_str(a->info.host, b->info.host, "host");
    same_str(a->info.mpi_library, b->info.mpi_library, "mpi_library");
    same_str(a->info.argv0, b->info.argv0, "argv0");
    same_str(a->info.run_dir, b->info.run_dir, "run_dir");
    same_str(a->info.clock, b->info.clock, "clock");
    same_str(a->info.run_id, b->info.run_id, "run_id");
    for (size_t i = 0; i < a->info.gpu.norigins; i++) {
        same_str(a->info.gpu.origins[i].region, b->info.gpu.origins[i].region, "GPU origin");
        cr_assert_eq(a->info.gpu.origins[i].calls, b->info.gpu.origins[i].calls);
        cr_assert_eq(a->info.gpu.origins[i].gpu_ns, b->info.gpu.origins[i].gpu_ns);
    }
    for (size_t i = 0; i < a->info.comms.n; i++) {
        ms_comm_fact x = a->info.comms.v[i], y = b->info.comms.v[i];
        same_str(x.name, y.name, "communicator name");
        same_str(x.where, y.where, "communicator call site");
        x.name = x.where = y.name = y.where = NULL;
        cr_assert(memcmp(&x, &y, sizeof x) == 0, "communicator fact %zu", i);
    }
    for (size_t i = 0; i < a->info.io_files.n; i++) {
        same_str(a->info.io_files.v[i].path, b->info.io_files.v[i].path, "file path");
        cr_assert_eq(a->info.io_files.v[i].id, b->info.io_files.v[i].id);
        cr_assert_eq(a->info.io_files.v[i].comm, b->info.io_files.v[i].comm);
    }
    for (size_t i = 0; i < a->warnings.n; i++)
        same_str(a->warnings.v[i], b->warnings.v[i], "warning");
    for (size_t i = 0; i < a->nchans; i++)
        same_chan(&a->chans[i], &b->chans[i]);
    cr_assert_eq(!a->counters, !b->counters);
    if (!a->counters)
        return;
    SAME(*a->counters, *b->counters, nsets);
    SAME(*a->counters, *b->counters, nrows);
    SAME(*a->counters, *b->counters, last);
    for (size_t i = 0; i < a->counters->nsets; i++) {
        ms_counter_set sa = a->counters->sets[i], sb = b->counters->sets[i];
        same_str(sa.group, sb.group, "group");
        for (uint32_t k = 0; sa.group && k < sa.n; k++)
            same_str(sa.names[k], sb.names[k], "counter name");
        sa.group = sb.group = NULL;
        sa.names = sb.names = NULL;
        if (!a->counters->sets[i].group)
            sa.n = sa.nevents = 0; /* an unseen set carries no names */
        cr_assert_eq(memcmp(&sa, &sb, sizeof sa), 0, "counter set %zu bytes differ", i);
    }
    for (size_t i = 0; i < a->counters->nrows; i++) {
        ms_counter_acc_row ra = a->counters->rows[i], rb = b->counters->rows[i];
        same_str(ra.name, rb.name, "counter row region");
        ra.name = rb.name = NULL;
        cr_assert_eq(memcmp(&ra, &rb, sizeof ra), 0, "counter row %zu bytes differ", i);
    }
}

static void same_tables(const ms_partial *p, const ms_partial *q)
{
    cr_assert_eq(q->ntabs, p->ntabs);
    for (size_t t = 0; t < p->ntabs; t++) {
        const ms_region_table *a = &p->tabs[t], *b = &q->tabs[t];
        cr_assert_eq(ms_strtab_count(&b->names), ms_strtab_count(&a->names));
        for (uint32_t r = 0; r < ms_strtab_count(&a->names); r++) {
            same_str(ms_strtab_str(&a->names, r), ms_strtab_str(&b->names, r), "region name");
            cr_assert_eq(b->regs[r].n, a->regs[r].n);
            for (size_t k = 0; k < a->regs[r].n; k++) {
                ms_region_rank x = a->regs[r].parts[k], y = b->regs[r].parts[k];
                int32_t len = x.stats.sketch.len;
                cr_assert_eq(y.stats.sketch.len, len);
                if (len > 0)
                    cr_assert_eq(memcmp(x.stats.sketch.counts, y.stats.sketch.counts, (size_t)len * 8), 0,
                                 "sketch buckets differ");
                SAME(x, y, rank_index);
                SAME(x, y, window_ns);
                SAME(x, y, excl_ns);
                SAME(x, y, stats.calls);
                SAME(x, y, stats.total_ns);
                SAME(x, y, stats.min_ns);
                SAME(x, y, stats.max_ns);
                SAME(x, y, stats.mean_ns);
                SAME(x, y, stats.m2);
                SAME(x, y, stats.first_start);
                SAME(x, y, stats.first_ns);
                SAME(x, y, stats.last_end);
                SAME(x, y, stats.last_ns);
                SAME(x, y, stats.sketch.lo);
                SAME(x, y, stats.sketch.zero);
                SAME(x, y, stats.sketch.n);
                SAME(x, y, stats.sketch.min);
                SAME(x, y, stats.sketch.max);
            }
        }
    }
}

static void same_sites(const ms_partial *p, const ms_partial *q)
{
    cr_assert_eq(q->nsites, p->nsites);
    for (size_t i = 0; i < p->nsites; i++) {
        ms_callsite x = p->sites[i], y = q->sites[i];
        same_str(x.region, y.region, "site region");
        same_str(x.function, y.function, "site function");
        same_str(x.file, y.file, "site file");
        same_str(x.text, y.text, "site text");
        same_str(x.location, y.location, "site location");
        same_str(x.object, y.object, "site object");
        SAME(x, y, rank);
        SAME(x, y, line);
        SAME(x, y, object_changed);
        SAME(x, y, object_missing);
        SAME(x, y, calls);
        SAME(x, y, total_ns);
    }
}

Test(partial_pack, every_field_survives_the_round_trip)
{
    ms_partial p, q;
    make_partial(&p);
    ms_pbuf b = {0};
    cr_assert_eq(ms_partial_pack(&p, NULL, 0, &b), 0);
    empty_like(&q, &p);
    uint32_t flags = 0;
    char err[256] = "";
    cr_assert_eq(ms_partial_unpack(&q, b.p, b.n, &flags, err, sizeof err), 0, "%s", err);
    cr_assert_eq(flags, 0);
    /* The facts' records follow in pieces (small ones: several a file). */
    ms_pbuf fb = {0};
    cr_assert_eq(facts_pack(&p, NULL, MS_FACTS_PIECE_MIN, &fb), 0);
    cr_assert_eq(facts_unpack(&q, NULL, 0, fb.p, fb.n, &flags, err, sizeof err), 1, "%s", err);
    ms_pbuf_free(&fb);
    for (size_t i = 0; i < NFILES; i++)
        same_file(&p.files[i], &q.files[i]);
    same_tables(&p, &q);
    same_sites(&p, &q);
    /* And packed again: the same bytes. */
    ms_pbuf b2 = {0};
    cr_assert_eq(ms_partial_pack(&q, NULL, 0, &b2), 0);
    cr_assert_eq(b2.n, b.n);
    size_t at = 0;
    while (at < b.n && b.p[at] == b2.p[at])
        at++;
    cr_assert_eq(at, b.n, "packed again, the bytes differ at %zu of %zu", at, b.n);
    ms_pbuf_free(&b);
    ms_pbuf_free(&b2);
    ms_partial_free(&p);
    ms_partial_free(&q);
}

Test(partial_pack, a_subset_and_flags)
{
    ms_partial p, q;
    make_partial(&p);
    unsigned char mine[NFILES] = {0, 1, 0, 1};
    ms_pbuf b = {0};
    cr_assert_eq(ms_partial_pack(&p, mine, MS_PACK_NOMEM, &b), 0);
    empty_like(&q, &p);
    uint32_t flags = 0;
    char err[256] = "";
    cr_assert_eq(ms_partial_unpack(&q, b.p, b.n, &flags, err, sizeof err), 0, "%s", err);
    cr_assert_eq(flags, MS_PACK_NOMEM);
    cr_assert(!q.files[0].read && q.files[1].read && !q.files[2].read && q.files[3].read);
    ms_pbuf fb = {0};
    const int32_t owner[NFILES] = {0, 1, 0, 1};
    cr_assert_eq(facts_pack(&p, mine, 4096, &fb), 0);
    cr_assert_eq(facts_unpack(&q, owner, 1, fb.p, fb.n, NULL, err, sizeof err), 1, "%s", err);
    ms_pbuf_free(&fb);
    same_file(&p.files[1], &q.files[1]);
    same_file(&p.files[3], &q.files[3]);
    /* A process that failed before it had the list: flags only. */
    ms_partial none;
    ms_partial_init(&none);
    none.nfiles = NFILES;
    none.nomem = 1;
    ms_pbuf b0 = {0};
    cr_assert_eq(ms_partial_pack(&none, NULL, MS_PACK_FAILED, &b0), 0);
    flags = 0;
    cr_assert_eq(ms_partial_unpack(&q, b0.p, b0.n, &flags, err, sizeof err), 0, "%s", err);
    cr_assert_eq(flags, MS_PACK_FAILED | MS_PACK_NOMEM);
    cr_assert(!q.files[0].read && !q.files[2].read);
    ms_pbuf_free(&b0);
    /* The same files a second time: refused. */
    cr_assert_eq(ms_partial_unpack(&q, b.p, b.n, &flags, err, sizeof err), -2);
    cr_assert(strstr(err, "a second time"), "%s", err);
    ms_pbuf_free(&b);
    ms_partial_free(&p);
    ms_partial_free(&q);
}

Test(partial_pack, damaged_bytes_are_refused)
{
    ms_partial p;
    make_partial(&p);
    ms_pbuf b = {0};
    cr_assert_eq(ms_partial_pack(&p, NULL, 0, &b), 0);
    char err[256];
    uint32_t flags;
    /* Cut anywhere. */
    for (size_t cut = 0; cut < b.n; cut += cut < 64 ? 1 : 7) {
        ms_partial q;
        empty_like(&q, &p);
        err[0] = 0;
        flags = 0;
        int rc = ms_partial_unpack(&q, b.p, cut, &flags, err, sizeof err);
        cr_assert(cut == 0 ? rc == 0 : rc == -2, "cut at %zu: %d", cut, rc);
        cr_assert(cut == 0 || err[0]);
        ms_partial_free(&q);
    }
    /* Bytes overwritten: refused or taken, never a crash (run under ASan
     * with SANITIZE=1). */
    for (size_t at = 0; at < b.n; at += 5) {
        unsigned char *copy = malloc(b.n);
        memcpy(copy, b.p, b.n);
        copy[at] ^= 0xff;
        ms_partial q;
        empty_like(&q, &p);
        flags = 0;
        (void)ms_partial_unpack(&q, copy, b.n, &flags, err, sizeof err);
        ms_partial_free(&q);
        free(copy);
    }
    /* Another wire version: refused, both versions named. */
    unsigned char *copy = malloc(b.n);
    memcpy(copy, b.p, b.n);
    copy[4] = (unsigned char)(MS_WIRE_VERSION + 1);
    ms_partial q;
    empty_like(&q, &p);
    cr_assert_eq(ms_partial_unpack(&q, copy, b.n, &flags, err, sizeof err), -2);
    char want[128];
    snprintf(want, sizeof want, "wire format version %u; this program reads version %u", MS_WIRE_VERSION + 1,
             MS_WIRE_VERSION);
    cr_assert(strstr(err, want), "%s", err);
    ms_partial_free(&q);
    free(copy);
    /* A list of another length. */
    ms_partial_init(&q);
    const char *one[] = {"rank-000000.zst"};
    cr_assert_eq(ms_partial_files(&q, "/logs/run", one, 1), 0);
    cr_assert_eq(ms_partial_unpack(&q, b.p, b.n, &flags, err, sizeof err), -2);
    ms_partial_free(&q);
    ms_pbuf_free(&b);
    ms_partial_free(&p);
}

static uint64_t le64(const unsigned char *q)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | q[i];
    return v;
}

Test(partial_pack, the_bytes_are_the_documented_little_endian_ones)
{
    ms_partial p;
    make_partial(&p);
    ms_pbuf b = {0};
    cr_assert_eq(ms_partial_pack(&p, NULL, 0x0102u, &b), 0);
    /* docs/MERGE_MPI.md: magic, version, flags, chunk bytes, files in the
     * directory, then the count of files and the first one's index and
     * path. */
    const unsigned char head[] = {'M', 'S', 'P', 'K', (unsigned char)MS_WIRE_VERSION, 0, 0, 0, 0x02, 0x01, 0, 0};
    cr_assert_eq(memcmp(b.p, head, sizeof head), 0, "chunk header");
    cr_assert_eq(le64(b.p + 12), b.n, "chunk bytes");
    cr_assert_eq(le64(b.p + 20), NFILES, "files in the directory");
    cr_assert_eq(le64(b.p + 28), NFILES, "files in the chunk");
    cr_assert_eq(le64(b.p + 36), 0, "first file's index");
    size_t len = strlen(p.files[0].path);
    cr_assert_eq(le64(b.p + 44), len, "path length");
    cr_assert_eq(memcmp(b.p + 52, p.files[0].path, len), 0, "path bytes");
    cr_assert_eq(le64(b.p + 52 + len), (uint64_t)(p.files[0].base - p.files[0].path), "base offset");
    /* A count of files the bytes cannot hold: refused before anything is
     * allocated for it. */
    unsigned char *copy = malloc(b.n);
    memcpy(copy, b.p, b.n);
    memset(copy + 28, 0xff, 7);
    ms_partial q;
    empty_like(&q, &p);
    uint32_t flags = 0;
    char err[256] = "";
    cr_assert_eq(ms_partial_unpack(&q, copy, b.n, &flags, err, sizeof err), -2);
    cr_assert(strstr(err, "does not add up"), "%s", err);
    ms_partial_free(&q);
    free(copy);
    ms_pbuf_free(&b);
    ms_partial_free(&p);
}

/* ---- chunks of three processes -> the serial result ---- */

static char *dir;

static void write_rank(int rank, int size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    synth s;
    cr_assert_eq(synth_open(&s, path, rank, size), 0);
    const char *names[] = {"mpi:init", "mpi:send:bytes=64:peer=1:tag=3:comm=0", "mpi:recv:bytes=64:peer=0:tag=3:comm=0",
                           "mpi:allreduce:bytes=8:op=sum:comm=0", "user:step", "mpi:finalize"};
    for (uint32_t i = 0; i < 6; i++)
        synth_region(&s, 0, i, names[i]);
    synth_region(&s, 1, 4, names[4]);
    synth_event(&s, 0, 0, 1000, 2000);
    uint64_t t = 3000;
    for (int k = 0; k < 40 + 13 * rank; k++) {
        uint32_t r = 1 + (uint32_t)((k + rank) % 4);
        uint64_t d = 100 + (uint64_t)((k * 7919 + rank * 104729) % 5000);
        synth_event(&s, 0, r, t, t + d);
        t += d + 50;
    }
    synth_event(&s, 1, 4, 2500, 2500 + 100 * (uint64_t)(rank + 1));
    synth_event(&s, 0, 5, t, t + 300);
    cr_assert_eq(synth_close(&s, t), 0);
}

/* All reports but those that read the logs again, as one string. */
static char *reports(const ms_run *run)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert(fp);
    cr_assert_eq(ms_report_csv(fp, run), 0);
    cr_assert_eq(ms_report_ranks_csv(fp, run), 0);
    cr_assert_eq(ms_report_json(fp, run, "test"), 0);
    cr_assert_eq(ms_report_text(fp, run), 0);
    cr_assert_eq(ms_report_matrix_csv(fp, run), 0);
    cr_assert_eq(ms_report_callsites_csv(fp, run), 0);
    for (size_t i = 0; i < run->nwarnings; i++)
        fprintf(fp, "warning %s\n", run->warnings[i]);
    fclose(fp);
    return buf;
}

Test(partial_pack, three_processes_give_the_serial_run)
{
    dir = synth_tmpdir();
    cr_assert(dir);
    for (int r = 0; r < 7; r++)
        if (r != 5)
            write_rank(r, 8);  /* rank 5 missing: a run-wide warning */
    ms_run *serial = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &serial), MS_REDUCE_OK);
    char *want = reports(serial);

    ms_run *run = ms_run_new(dir);
    ms_partial root;
    ms_partial_init(&root);
    cr_assert_eq(ms_partial_list(&root, dir, run), MS_REDUCE_OK);
    cr_assert_eq(root.nfiles, 6);
    const char *names[6];
    for (size_t i = 0; i < 6; i++)
        names[i] = root.files[i].base;
    ms_pbuf b = {0}, fb[3] = {{0}};
    int32_t owner[6];
    for (int i = 0; i < 6; i++)
        owner[i] = i % 3;
    for (int proc = 2; proc >= 0; proc--) {
        ms_partial p;
        ms_partial_init(&p);
        cr_assert_eq(ms_partial_files(&p, dir, names, 6), 0);
        unsigned char mine[6];
        for (int i = 0; i < 6; i++)
            mine[i] = i % 3 == proc;
        cr_assert_eq(ms_partial_read(&p, 1, mine), 0);
        cr_assert_eq(ms_partial_pack(&p, mine, 0, &b), 0);
        cr_assert_eq(facts_pack(&p, mine, 1000, &fb[proc]), 0);
        ms_partial_free(&p);
    }
    uint32_t flags = 0;
    char err[256] = "";
    cr_assert_eq(ms_partial_unpack(&root, b.p, b.n, &flags, err, sizeof err), 0, "%s", err);
    for (int proc = 0; proc < 3; proc++) {
        cr_assert_eq(facts_unpack(&root, owner, proc, fb[proc].p, fb[proc].n, &flags, err, sizeof err), 1, "%s",
                     err);
        ms_pbuf_free(&fb[proc]);
    }
    cr_assert_eq(flags, 0);
    cr_assert_eq(ms_partial_assemble(&root, run), MS_REDUCE_OK);
    char *got = reports(run);
    cr_assert_str_eq(got, want);
    cr_assert(strstr(want, "ranks have no log"));

    free(want);
    free(got);
    ms_pbuf_free(&b);
    ms_partial_free(&root);
    ms_run_free(run);
    ms_run_free(serial);
    synth_rmdir(dir);
    free(dir);
}

Test(partial_pack, a_file_not_read_is_a_failure)
{
    dir = synth_tmpdir();
    cr_assert(dir);
    write_rank(0, 2);
    write_rank(1, 2);
    ms_run *run = ms_run_new(dir);
    ms_partial p;
    ms_partial_init(&p);
    cr_assert_eq(ms_partial_list(&p, dir, run), MS_REDUCE_OK);
    unsigned char mine[2] = {1, 0};
    cr_assert_eq(ms_partial_read(&p, 1, mine), 0);
    cr_assert_eq(ms_partial_assemble(&p, run), MS_REDUCE_NOMEM);
    ms_partial_free(&p);
    ms_run_free(run);
    synth_rmdir(dir);
    free(dir);
}
