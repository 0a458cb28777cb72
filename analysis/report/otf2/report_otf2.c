/*
 * --otf2 DIR: the run as an OTF2 archive DIR/traces.otf2 (with DIR/traces/),
 * written through libotf2. This file opens the archive, has each rank's log
 * converted (report_otf2_events.c), then writes the global definitions from
 * the registries (report_otf2_defs.h):
 *   system tree   "machine" -> one "node" per host
 *   location groups  one process per world rank ("MPI Rank N")
 *   locations     one CPU thread per (rank, thread), MS_OTF2_LOCATION
 *   regions       one per MPI function, named as Score-P names it
 *                 (MPI_Send; role from the op, paradigm MPI), one per
 *                 other region name (CUDA for cuda:, USER otherwise; the
 *                 dominant call site as source file and line)
 *   groups, comms MPI_COMM_WORLD, MPI_COMM_SELF and one per communicator
 *                 record of the logs (members as world ranks)
 *   clock         nanoseconds on the run's common clock, offset = run origin
 * Without libotf2 at build time, ms_report_otf2 says so and fails.
 */
#include <inttypes.h>
#include <stdio.h>

#include "../report.h"

/* Every rank of the world keeps its place in an archive (a location and an
 * event file): not for a world far larger than the logs present (a log
 * that claims a rank of two billion). 1, with the reason in err, when run's
 * world is that; else 0. */
static int world_too_large(const ms_run *run, char *err, size_t errlen)
{
    size_t bound = 2 * run->nranks > 64 ? 2 * run->nranks : 64;
    if ((size_t)run->world_size <= bound)
        return 0;
    snprintf(err, errlen, "the logs present (%zu) are too few for the world of %" PRId32 " ranks they claim: an "
             "OTF2 archive keeps a place for every rank; merge the run's logs together", run->nranks,
             run->world_size);
    return 1;
}

#ifndef MS_HAVE_OTF2

int ms_report_otf2_built(void)
{
    return 0;
}

int ms_report_otf2(const char *dir, const ms_run *run, char *err, size_t errlen)
{
    if (world_too_large(run, err, errlen))
        return -1;
    (void)dir;
    (void)run;
    snprintf(err, errlen, "not built (libotf2 not found at build time)");
    return -1;
}

#else

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../out_file.h"
#include "../safe_text.h"
#include "report_otf2_defs.h"
#include "report_otf2_events.h"

int ms_report_otf2_built(void)
{
    return 1;
}

static OTF2_Paradigm region_paradigm(const ms_region *reg)
{
    if (reg->is_mpi)
        return OTF2_PARADIGM_MPI;
    if (strncmp(reg->name, "mpiscope:", 9) == 0)
        return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    if (strncmp(reg->name, "cuda:", 5) == 0)
        return OTF2_PARADIGM_CUDA;
    return OTF2_PARADIGM_USER;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller, bool final)
{
    (void)user;
    (void)type;
    (void)loc;
    (void)caller;
    (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
    (void)user;
    (void)type;
    (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks FLUSH = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

/* Global definitions, strings written just before their first use. */
typedef struct defs {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
    OTF2_ErrorCode rc;
} defs;

/* A string of the archive, valid UTF-8 (safe_text.h) whatever the logs
 * hold. */
static OTF2_StringRef str(defs *d, const char *s)
{
    OTF2_StringRef ref = d->next++;
    size_t cap = 3 * strlen(s) + 1;
    char *safe = malloc(cap);
    OTF2_ErrorCode e = safe ? OTF2_GlobalDefWriter_WriteString(d->w, ref, ms_text_safe(safe, cap, s, 0))
                            : OTF2_ERROR_MEM_ALLOC_FAILED;
    free(safe);
    if (e != OTF2_SUCCESS && d->rc == OTF2_SUCCESS)
        d->rc = e;
    return ref;
}

#define DEF(d, call)                                                                              \
    do {                                                                                          \
        OTF2_ErrorCode e_ = (call);                                                               \
        if (e_ != OTF2_SUCCESS && (d)->rc == OTF2_SUCCESS)                                        \
            (d)->rc = e_;                                                                         \
    } while (0)

static int has_location(const ms_otf2 *x, int32_t rank, uint32_t thread)
{
    for (size_t i = 0; i < x->nlocs; i++)
        if (x->locs[i].rank == rank && x->locs[i].thread == thread)
            return 1;
    return 0;
}

static void write_system(defs *d, ms_otf2 *x)
{
    const ms_run *run = x->run;
    DEF(d, OTF2_GlobalDefWriter_WriteSystemTreeNode(d->w, 0, str(d, "machine"), str(d, "machine"),
                                                    OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    for (size_t h = 0; h < run->nhosts; h++)
        DEF(d, OTF2_GlobalDefWriter_WriteSystemTreeNode(d->w, (OTF2_SystemTreeNodeRef)(h + 1),
                                                        str(d, run->hosts[h]), str(d, "node"), 0));
    char name[64];
    for (int32_t r = 0; r < run->world_size; r++) {
        const ms_rank_info *in = ms_run_rank(run, r);
        OTF2_SystemTreeNodeRef node = 0;
        for (size_t h = 0; in && h < run->nhosts; h++)
            if (strcmp(run->hosts[h], in->host) == 0)
                node = (OTF2_SystemTreeNodeRef)(h + 1);
        snprintf(name, sizeof name, "MPI Rank %d", (int)r);
        DEF(d, OTF2_GlobalDefWriter_WriteLocationGroup(d->w, (OTF2_LocationGroupRef)r, str(d, name),
                                                       OTF2_LOCATION_GROUP_TYPE_PROCESS, node,
                                                       OTF2_UNDEFINED_LOCATION_GROUP));
    }
    for (size_t i = 0; i < x->nlocs; i++) {
        snprintf(name, sizeof name, "thread %u", x->locs[i].thread);
        DEF(d, OTF2_GlobalDefWriter_WriteLocation(d->w, x->locs[i].ref, str(d, name), OTF2_LOCATION_TYPE_CPU_THREAD,
                                                  x->locs[i].events, (OTF2_LocationGroupRef)x->locs[i].rank));
    }
}

/* One region per MPI function (Score-P's names: MPI_Send, no source
 * location) and one per other name, with its dominant call site. */
static void write_regions(defs *d, ms_otf2 *x)
{
    const ms_run *run = x->run;
    OTF2_StringRef empty = str(d, "");
    for (size_t i = 0; i < x->nfns; i++) {
        const ms_otf2_region *first = x->fns[i].first;
        const ms_region *reg = first->region;
        OTF2_StringRef name = str(d, x->fns[i].name);
        OTF2_StringRef file = empty;
        uint32_t line = 0;
        size_t at;
        if (!reg->is_mpi && ms_site_places_of(run->places, run->nplaces, reg->name, &at) > 0) {
            const ms_callsite *row = run->places[at].row;
            if (row && row->line > 0 && row->file && row->file[0]) {
                file = str(d, row->file);
                line = (uint32_t)row->line;
            }
        }
        DEF(d, OTF2_GlobalDefWriter_WriteRegion(d->w, (OTF2_RegionRef)i, name, name, empty, first->role,
                                                region_paradigm(reg), OTF2_REGION_FLAG_NONE, file, line, line));
    }
}

/* Groups: 0 the world's locations (thread 0 of each world rank, in rank
 * order), 1 MPI_COMM_SELF's, then one per communicator (members as indices
 * into group 0, that is world ranks). */
static int write_comms(defs *d, ms_otf2 *x)
{
    int32_t ws = x->run->world_size;
    uint64_t *m = malloc(((size_t)ws + 1) * sizeof *m);
    if (!m)
        return -1;
    for (int32_t r = 0; r < ws; r++)
        m[r] = MS_OTF2_LOCATION(r, 0);
    DEF(d, OTF2_GlobalDefWriter_WriteGroup(d->w, 0, str(d, "MPI_COMM_WORLD locations"),
                                           OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                           (uint32_t)ws, m));
    DEF(d, OTF2_GlobalDefWriter_WriteGroup(d->w, 1, str(d, "MPI_COMM_SELF"), OTF2_GROUP_TYPE_COMM_SELF,
                                           OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, NULL));
    free(m);
    char name[64];
    OTF2_GroupRef next = 2;  /* definitions are numbered densely */
    for (size_t i = 0; i < x->ncomms; i++) {
        const ms_otf2_comm *c = &x->comms[i];
        OTF2_GroupRef group = 1;
        if (c->id != 1) {
            uint64_t *g = malloc(((size_t)c->n + 1) * sizeof *g);
            if (!g)
                return -1;
            for (uint32_t k = 0; k < c->n; k++)
                g[k] = (uint64_t)c->members[k];
            group = next++;
            snprintf(name, sizeof name, "comm %lld", (long long)c->id);
            DEF(d, OTF2_GlobalDefWriter_WriteGroup(d->w, group, str(d, c->id == 0 ? "MPI_COMM_WORLD" : name),
                                                   OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                                   OTF2_GROUP_FLAG_NONE, c->n, g));
            free(g);
        }
        snprintf(name, sizeof name, "comm %lld", (long long)c->id);
        const char *cname = c->id == 0 ? "MPI_COMM_WORLD" : c->id == 1 ? "MPI_COMM_SELF" : name;
        DEF(d, OTF2_GlobalDefWriter_WriteComm(d->w, c->ref, str(d, cname), group, OTF2_UNDEFINED_COMM,
                                              OTF2_COMM_FLAG_NONE));
    }
    return 0;
}

static int write_definitions(ms_otf2 *x, char *err, size_t errlen)
{
    defs d = {.w = OTF2_Archive_GetGlobalDefWriter(x->archive)};
    if (!d.w) {
        snprintf(err, errlen, "cannot open the global definitions");
        return -1;
    }
    const ms_run *run = x->run;
    uint64_t origin = run->has_events ? (uint64_t)run->origin : 0;
    DEF(&d, OTF2_GlobalDefWriter_WriteClockProperties(d.w, 1000000000u, origin,
                                                      x->last_ts > origin ? x->last_ts - origin : 0, origin));
    DEF(&d, OTF2_GlobalDefWriter_WriteParadigm(d.w, OTF2_PARADIGM_MPI, str(&d, "MPI"), OTF2_PARADIGM_CLASS_PROCESS));
    write_system(&d, x);
    write_regions(&d, x);
    if (write_comms(&d, x) != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (d.rc != OTF2_SUCCESS) {
        snprintf(err, errlen, "writing the definitions: %s", OTF2_Error_GetDescription(d.rc));
        return -1;
    }
    return 0;
}

/* Ranks without a log, or that the window leaves out, keep their place in
 * the world: thread 0 with an empty event file. */
static int add_missing_ranks(ms_otf2 *x)
{
    for (int32_t r = 0; r < x->run->world_size; r++) {
        if (has_location(x, r, 0))
            continue;
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(x->archive, MS_OTF2_LOCATION(r, 0));
        if (!w || OTF2_Archive_CloseEvtWriter(x->archive, w) != OTF2_SUCCESS || ms_otf2_location_add(x, r, 0, 0) != 0)
            return -1;
    }
    return 0;
}

/* Every location gets its (empty) local definitions file. */
static int write_local_defs(ms_otf2 *x)
{
    if (OTF2_Archive_OpenDefFiles(x->archive) != OTF2_SUCCESS)
        return -1;
    for (size_t i = 0; i < x->nlocs; i++) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(x->archive, x->locs[i].ref);
        if (!w || OTF2_Archive_CloseDefWriter(x->archive, w) != OTF2_SUCCESS)
            return -1;
    }
    return OTF2_Archive_CloseDefFiles(x->archive) == OTF2_SUCCESS ? 0 : -1;
}

int ms_report_otf2(const char *dir, const ms_run *run, char *err, size_t errlen)
{
    if (world_too_large(run, err, errlen))
        return -1;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    char path[4096];
    struct stat sb;
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    if (stat(path, &sb) == 0) {
        snprintf(err, errlen, "%s already exists; give a new directory", path);
        return -1;
    }
    /* libotf2 opens its files itself: it writes into a private directory
     * of ours, whose entries are then moved into dir without replacing
     * anything there (out_file.h). */
    char stage[4096];
    if (ms_out_stage(stage, sizeof stage, dir) != 0) {
        snprintf(err, errlen, "cannot create a directory in %s: %s", dir, strerror(errno));
        return -1;
    }
    ms_otf2 x = {0};
    if (ms_otf2_setup(&x, run) != 0) {
        snprintf(err, errlen, "out of memory");
        ms_otf2_teardown(&x);
        ms_out_stage_remove(stage);
        return -1;
    }
    int rc = -1;
    x.archive = OTF2_Archive_Open(stage, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!x.archive) {
        snprintf(err, errlen, "cannot create an OTF2 archive in %s", dir);
        goto out;
    }
    if (OTF2_Archive_SetFlushCallbacks(x.archive, &FLUSH, NULL) != OTF2_SUCCESS ||
        OTF2_Archive_SetSerialCollectiveCallbacks(x.archive) != OTF2_SUCCESS ||
        OTF2_Archive_SetCreator(x.archive, "mpiscope " MS_VERSION) != OTF2_SUCCESS ||
        OTF2_Archive_OpenEvtFiles(x.archive) != OTF2_SUCCESS) {
        snprintf(err, errlen, "cannot set up the OTF2 archive in %s", dir);
        goto out;
    }
    /* Ranks the window leaves out keep their place: no events. */
    if (ms_otf2_events(&x, err, errlen) != 0)
        goto out;
    if (add_missing_ranks(&x) != 0) {
        snprintf(err, errlen, "cannot write the events of the ranks without any in %s", dir);
        goto out;
    }
    if (OTF2_Archive_CloseEvtFiles(x.archive) != OTF2_SUCCESS) {
        snprintf(err, errlen, "cannot close the event files in %s", dir);
        goto out;
    }
    if (write_local_defs(&x) != 0) {
        snprintf(err, errlen, "cannot write the local definitions in %s", dir);
        goto out;
    }
    if (write_definitions(&x, err, errlen) != 0)
        goto out;
    rc = 0;
    if (x.unmatched)
        snprintf(err, errlen, "%llu non-blocking requests left without a matching completion (see docs/DESIGN.md)",
                 (unsigned long long)x.unmatched);
out:
    if (x.archive && OTF2_Archive_Close(x.archive) != OTF2_SUCCESS && rc == 0) {
        snprintf(err, errlen, "cannot close the OTF2 archive in %s", dir);
        rc = -1;
    }
    ms_otf2_teardown(&x);
    if (rc == 0 && ms_out_stage_commit(stage, dir) != 0) {
        snprintf(err, errlen, "cannot move the archive into %s: %s", dir, strerror(errno));
        rc = -1;
    }
    ms_out_stage_remove(stage);
    return rc == 0 && x.unmatched ? 1 : rc;
}

#endif
