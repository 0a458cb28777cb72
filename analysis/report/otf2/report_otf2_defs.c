/*
 * The registries of the OTF2 export: see report_otf2_defs.h. Each region of
 * the run is classified once (classify(): what its calls become, messages,
 * requests or collectives, and the role of its function) and given its
 * OTF2 region, one per MPI function or other name; communicators come from
 * the logs' records, locations from the event writer.
 */
/* Built only with libotf2 (report_otf2.c says what happens without it). */
#ifdef MS_HAVE_OTF2

#include <stdlib.h>
#include <string.h>

#include "report_otf2_defs.h"
#include "../../../common/op_class.h"

/* OTF2's own names of collective operations, one per MPI function: OTF2's
 * vocabulary, which the class table does not carry (scripts/house.py
 * leaves this table alone). */
static const struct {
    const char *op;
    OTF2_CollectiveOp coll;
} COLLECTIVES[] = {
    {"barrier", OTF2_COLLECTIVE_OP_BARRIER},
    {"bcast", OTF2_COLLECTIVE_OP_BCAST},
    {"gather", OTF2_COLLECTIVE_OP_GATHER},
    {"gatherv", OTF2_COLLECTIVE_OP_GATHERV},
    {"scatter", OTF2_COLLECTIVE_OP_SCATTER},
    {"scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
    {"allgather", OTF2_COLLECTIVE_OP_ALLGATHER},
    {"allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
    {"alltoall", OTF2_COLLECTIVE_OP_ALLTOALL},
    {"alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
    {"alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW},
    {"allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
    {"reduce", OTF2_COLLECTIVE_OP_REDUCE},
    {"reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
    {"reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
    {"scan", OTF2_COLLECTIVE_OP_SCAN},
    {"exscan", OTF2_COLLECTIVE_OP_EXSCAN},
    {"comm_dup", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"comm_dup_with_info", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"comm_split", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"comm_split_type", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"comm_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"comm_create_group", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"cart_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"cart_sub", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"graph_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"dist_graph_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"dist_graph_create_adjacent", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"intercomm_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"intercomm_merge", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"comm_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE},
    {"win_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"win_create_dynamic", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
    {"win_allocate", OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE},
    {"win_allocate_shared", OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE},
    {"win_free", OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE},
};

static OTF2_RegionRole collective_role(OTF2_CollectiveOp op)
{
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
        return OTF2_REGION_ROLE_BARRIER;
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
    case OTF2_COLLECTIVE_OP_REDUCE:
        return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN:
        return OTF2_REGION_ROLE_COLL_ALL2ALL;
    default:
        return OTF2_REGION_ROLE_COLL_OTHER;
    }
}

/* What an MPI call becomes in the archive, from its op and kind: the one
 * place that decides it. Its class (the events beyond Enter and Leave),
 * its collective operation and the role of its function's region. */
static void classify(ms_otf2_region *x, const ms_region *reg)
{
    const ms_region_info *in = &reg->info;
    x->region = reg;
    x->comm = OTF2_UNDEFINED_COMM;
    x->role = OTF2_REGION_ROLE_FUNCTION;
    if (!in->is_mpi)
        return;
    /* Messages: what the class table says (common/op_class.h); persistent
     * requests stay Enter/Leave. */
    ms_op_meaning m = ms_op_meaning_of(in->op);
    int post = (m.traits & MS_OPT_POST) != 0, init = (m.traits & MS_OPT_INIT) != 0;
    if (m.cls == MS_OPC_SEND && !init)
        x->cls = post ? MS_OTF2_ISEND : MS_OTF2_SEND;
    else if (m.cls == MS_OPC_RECV && !init)
        x->cls = post ? MS_OTF2_IRECV : MS_OTF2_RECV;
    if (strcmp(in->kind, "point-to-point") == 0)
        x->role = OTF2_REGION_ROLE_POINT2POINT;
    else if (strcmp(in->kind, "rma") == 0)
        x->role = OTF2_REGION_ROLE_RMA;
    else if (strcmp(in->kind, "io") == 0)
        x->role = OTF2_REGION_ROLE_FILE_IO;
    else if (strcmp(in->kind, "collective") == 0) {
        x->role = OTF2_REGION_ROLE_COLL_OTHER;
        for (size_t i = 0; i < sizeof COLLECTIVES / sizeof *COLLECTIVES; i++)
            if (strcmp(in->op, COLLECTIVES[i].op) == 0) {
                x->cls = MS_OTF2_COLLECTIVE;
                x->coll = COLLECTIVES[i].coll;
                x->role = collective_role(x->coll);
            }
    }
}

/* The name of a region's OTF2 region: an MPI call's function as MPI names
 * it ("allreduce" -> "MPI_Allreduce"), else the region's own name. */
static char *fn_name(const ms_region *reg)
{
    if (!reg->info.is_mpi)
        return strdup(reg->name);
    size_t n = strlen(reg->info.op);
    char *s = malloc(n + 5);
    if (!s)
        return NULL;
    memcpy(s, "MPI_", 4);
    memcpy(s + 4, reg->info.op, n + 1);
    if (s[4] >= 'a' && s[4] <= 'z')
        s[4] = (char)(s[4] - 'a' + 'A');
    return s;
}

OTF2_CommRef ms_otf2_comm_ref(const ms_otf2 *x, int64_t id)
{
    for (size_t i = 0; i < x->ncomms; i++)
        if (x->comms[i].id == id)
            return x->comms[i].ref;
    return OTF2_UNDEFINED_COMM;
}

int ms_otf2_comm_add(ms_otf2 *x, int64_t id, const int32_t *world_ranks, uint32_t n)
{
    if (ms_otf2_comm_ref(x, id) != OTF2_UNDEFINED_COMM)
        return 0;
    if (x->ncomms == x->capcomms) {
        size_t cap = x->capcomms ? 2 * x->capcomms : 16;
        ms_otf2_comm *c = realloc(x->comms, cap * sizeof *c);
        if (!c)
            return -1;
        x->comms = c;
        x->capcomms = cap;
    }
    int32_t *m = malloc((n ? n : 1) * sizeof *m);
    if (!m)
        return -1;
    if (n)
        memcpy(m, world_ranks, n * sizeof *m);
    x->comms[x->ncomms] = (ms_otf2_comm){.id = id, .ref = (OTF2_CommRef)x->ncomms, .n = n, .members = m};
    x->ncomms++;
    return 0;
}

int ms_otf2_location_add(ms_otf2 *x, int32_t rank, uint32_t thread, uint64_t events)
{
    if (x->nlocs == x->caplocs) {
        size_t cap = x->caplocs ? 2 * x->caplocs : 64;
        ms_otf2_location *l = realloc(x->locs, cap * sizeof *l);
        if (!l)
            return -1;
        x->locs = l;
        x->caplocs = cap;
    }
    x->locs[x->nlocs++] = (ms_otf2_location){
        .ref = MS_OTF2_LOCATION(rank, thread), .rank = rank, .thread = thread, .events = events};
    return 0;
}

static int by_name(const void *a, const void *b)
{
    const ms_region *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

/* The OTF2 regions: MPI functions first, then the other names, each
 * sorted by name. */
typedef struct fn_slot {
    char *name;
    size_t region;
} fn_slot;

static int by_fn(const void *a, const void *b)
{
    const fn_slot *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->region > y->region) - (x->region < y->region);
}

static int fn_rank(const ms_otf2 *x, const fn_slot *s)
{
    return x->regions[s->region].region->info.is_mpi ? 0 : 1;
}

static int setup_fns(ms_otf2 *x)
{
    size_t n = x->nregions;
    fn_slot *slots = calloc(n + 1, sizeof *slots);
    x->fns = calloc(n + 1, sizeof *x->fns);
    if (!slots || !x->fns) {
        free(slots);
        return -1;
    }
    int rc = 0;
    size_t nslots = 0;
    /* MPI functions, then other names: two sorted runs. */
    for (int pass = 0; pass < 2; pass++) {
        size_t from = nslots;
        for (size_t i = 0; i < n; i++) {
            fn_slot s = {.region = i};
            if (fn_rank(x, &s) != pass)
                continue;
            if (!(s.name = fn_name(x->regions[i].region))) {
                rc = -1;
                continue;
            }
            slots[nslots++] = s;
        }
        qsort(slots + from, nslots - from, sizeof *slots, by_fn);
    }
    for (size_t i = 0; i < nslots; i++) {
        if (x->nfns == 0 || strcmp(x->fns[x->nfns - 1].name, slots[i].name) != 0 ||
            fn_rank(x, &slots[i]) != fn_rank(x, &slots[i - 1]))
            x->fns[x->nfns++] = (ms_otf2_fn){.name = slots[i].name, .first = &x->regions[slots[i].region]};
        else
            free(slots[i].name);
        x->regions[slots[i].region].ref = (OTF2_RegionRef)(x->nfns - 1);
    }
    free(slots);
    return rc;
}

int ms_otf2_setup(ms_otf2 *x, const ms_run *run)
{
    x->run = run;
    x->nregions = run->nregions;
    x->regions = calloc(run->nregions + 1, sizeof *x->regions);
    x->by_name = calloc(run->nregions + 1, sizeof *x->by_name);
    if (!x->regions || !x->by_name)
        return -1;
    for (size_t i = 0; i < run->nregions; i++) {
        classify(&x->regions[i], &run->regions[i]);
        x->by_name[i] = &run->regions[i];
    }
    qsort(x->by_name, run->nregions, sizeof *x->by_name, by_name);
    if (setup_fns(x) != 0)
        return -1;
    int32_t self = 0;
    if (ms_otf2_comm_add(x, 0, NULL, 0) != 0 || ms_otf2_comm_add(x, 1, &self, 1) != 0)
        return -1;
    /* The world: every world rank in order. */
    int32_t *w = malloc(((size_t)run->world_size + 1) * sizeof *w);
    if (!w)
        return -1;
    for (int32_t r = 0; r < run->world_size; r++)
        w[r] = r;
    free(x->comms[0].members);
    x->comms[0].members = w;
    x->comms[0].n = (uint32_t)run->world_size;
    return 0;
}

void ms_otf2_teardown(ms_otf2 *x)
{
    for (size_t i = 0; i < x->ncomms; i++)
        free(x->comms[i].members);
    free(x->comms);
    free(x->locs);
    for (size_t i = 0; i < x->nfns; i++)
        free(x->fns[i].name);
    free(x->fns);
    free(x->regions);
    free(x->by_name);
}

#endif
