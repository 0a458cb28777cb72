/*
 * Communicator ids (DESIGN §4): 0 is MPI_COMM_WORLD, 1 is MPI_COMM_SELF; every
 * other communicator's id is derived on each member, without any message,
 * from its parent's id, the parent's creation sequence number and the world
 * rank of the new communicator's rank 0. MPI_Comm_create_group, which only a
 * group of the parent calls, counts in a sequence of its own. An
 * intercommunicator's id comes from the world ranks of both groups' rank 0
 * and how many intercommunicators joined those two before. A communicator
 * of MPI_Comm_create_from_group (MPI 4.0), which has no parent, gets its id
 * from its members' world ranks, its string tag and how many communicators
 * those members made with that tag before. The log keeps each
 * communicator's members as world ranks (for an intercommunicator: its
 * remote group, whose ranks its peers are). World ranks are ranks of
 * MPI_COMM_WORLD, or of the mpi://WORLD process set where sessions began the
 * run (the same numbering). Each new communicator's log entry also says
 * how it was made (version 8): the creating call's op and region, its
 * parent, the creation's number and a Cartesian communicator's dimensions;
 * and MPI_Comm_set_name's names are logged.
 */
#include <stdlib.h>
#include <string.h>

#include "../preload/diag.h"
#include "../preload/ending.h"
#include "comm_ids.h"

#define COMM_BITS 14u

static ms_hmap comms;
static ms_hmap inter_pairs;  /* (world rank, world rank) -> intercommunicators so far */
static ms_hmap from_groups;  /* hash of (members, string tag) -> communicators so far */
static MPI_Group world_group = MPI_GROUP_NULL;
static int world_known;      /* MPI_COMM_WORLD and MPI_COMM_SELF have their ids */

static inline uint64_t comm_key(MPI_Comm c)
{
    uint64_t k = 0;
    memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
    return k;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Ids are positive and never 0 or 1. */
static int64_t derive(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = mix64(mix64(mix64(a) ^ b) ^ c) & (uint64_t)INT64_MAX;
    return h < 2 ? (int64_t)h + 2 : (int64_t)h;
}

static ms_comm_info query(MPI_Comm comm, int64_t id)
{
    ms_comm_info ci = {.id = id, .rank = -1, .size = 0, .remote_size = 0};
    int inter = 0;
    PMPI_Comm_rank(comm, &ci.rank);
    PMPI_Comm_size(comm, &ci.size);
    if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter)
        PMPI_Comm_remote_size(comm, &ci.remote_size);
    return ci;
}

static void put(MPI_Comm comm, const ms_comm_info *ci)
{
    ms_hmap_slot *s = ms_hmap_put(&comms, comm_key(comm));
    if (s)
        memcpy(s->value, ci, sizeof *ci);
    else
        ms_warn_once(MS_WARN_COMM, "no memory for more communicators; the others are reported as comm=-1");
}

void ms_comm_ids_init(MPI_Group world)
{
    if (!comms.slots) {
        ms_hmap_init(&comms, COMM_BITS);
        ms_hmap_init(&inter_pairs, 10);
        ms_hmap_init(&from_groups, 10);
    }
    /* The first world group stays: ids made before MPI_Init used it. */
    if (world_group == MPI_GROUP_NULL) {
        if (world != MPI_GROUP_NULL)
            world_group = world;
        else
            PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    }
    if (world != MPI_GROUP_NULL || world_known)
        return;
    world_known = 1;
    ms_comm_info w = query(MPI_COMM_WORLD, 0);
    ms_comm_info s = query(MPI_COMM_SELF, 1);
    put(MPI_COMM_WORLD, &w);
    put(MPI_COMM_SELF, &s);
}

ms_comm_info ms_comm_get(MPI_Comm comm)
{
    ms_hmap_slot *s = ms_hmap_get(&comms, comm_key(comm));
    if (s) {
        ms_comm_info ci;
        memcpy(&ci, s->value, sizeof ci);
        return ci;
    }
    if (comm == MPI_COMM_NULL) {
        ms_comm_info none = {.id = -1, .rank = -1};
        return none;
    }
    return query(comm, -1);
}

int64_t ms_comm_lookup(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return -1;
    ms_hmap_slot *s = ms_hmap_get(&comms, comm_key(comm));
    if (s)
        return (int64_t)s->value[0];
    ms_warn_once(MS_WARN_COMM, "a communicator created by a call mpiscope does not record is reported as comm=-1");
    return -1;
}

/* World ranks of a group's members, in group rank order (malloc'd). */
static int *world_ranks(MPI_Group g, int n)
{
    int *in = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int *out = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!in || !out) {
        free(in);
        free(out);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        in[i] = i;
    if (PMPI_Group_translate_ranks(g, n, in, world_group, out) != MPI_SUCCESS) {
        free(out);
        out = NULL;
    }
    free(in);
    return out;
}

int *ms_comm_members(MPI_Comm comm, int *n)
{
    MPI_Group g;
    *n = 0;
    if (world_group == MPI_GROUP_NULL || PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(g, n);
    int *out = world_ranks(g, *n);
    PMPI_Group_free(&g);
    return out;
}

static int world_rank_of(MPI_Group g, int rank)
{
    int out = MPI_UNDEFINED;
    PMPI_Group_translate_ranks(g, 1, &rank, world_group, &out);
    return out;
}

/* How newcomm (id) was made, into the log: by call c (NULL: none) from
 * parent (-1: none) as its creation number seq. */
static void log_origin(ms_thread *t, const ms_call *c, int64_t id, int64_t parent, uint64_t seq, MPI_Comm newcomm)
{
    int dims[MS_MAX_COMM_DIMS], kind = MPI_UNDEFINED, nd = 0;
    if (PMPI_Topo_test(newcomm, &kind) == MPI_SUCCESS && kind == MPI_CART &&
        PMPI_Cartdim_get(newcomm, &nd) == MPI_SUCCESS && nd > 0 && nd <= (int)MS_MAX_COMM_DIMS) {
        int periods[MS_MAX_COMM_DIMS], coords[MS_MAX_COMM_DIMS];
        if (PMPI_Cart_get(newcomm, nd, dims, periods, coords) != MPI_SUCCESS)
            nd = 0;
    } else {
        nd = 0;
    }
    int64_t region = c ? (int64_t)ms_call_id(t, c) : -1;
    ms_comm_origin_define(t, id, c ? c->op : 0u, parent, seq, region, dims, (uint32_t)nd);
}

void ms_comm_named(ms_thread *t, MPI_Comm comm, const char *name)
{
    int64_t id = comm == MPI_COMM_NULL ? -1 : ms_comm_lookup(comm);
    if (t && id >= 0 && name)
        ms_comm_name_define(t, id, name, strnlen(name, MS_MAX_COMM_NAME));
}

void ms_comm_created(ms_thread *t, const ms_call *c, MPI_Comm parent, MPI_Comm newcomm, enum ms_comm_origin how)
{
    /* Every member of the parent counts the creation, even those that get
     * MPI_COMM_NULL, so that the sequence stays the same on all of them. */
    ms_hmap_slot *ps = ms_hmap_get(&comms, comm_key(parent));
    ms_comm_info pi = {.id = -1};
    if (ps)
        memcpy(&pi, ps->value, sizeof pi);
    uint64_t seq = how == MS_COMM_GROUP ? (1ull << 32) | ++pi.seq_group : ++pi.seq;
    if (ps)
        memcpy(ps->value, &pi, sizeof pi);
    if (newcomm == MPI_COMM_NULL)
        return;
    /* MPI_COMM_NULL: made without a parent (MPI_Comm_join,
     * MPI_Intercomm_create_from_groups). */
    if (!ps && parent != MPI_COMM_NULL)
        ms_warn_once(MS_WARN_COMM, "a communicator created by a call mpiscope does not record is reported as comm=-1");

    ms_comm_info ci;
    MPI_Group g = MPI_GROUP_NULL;
    if (how == MS_COMM_DUP) {
        /* Same group as the parent (an idup'ed communicator may not be used yet). */
        ci = ps ? pi : query(parent, -1);
        ci.seq = ci.seq_group = 0;
        if (ci.remote_size > 0)
            PMPI_Comm_remote_group(parent, &g);
        else
            PMPI_Comm_group(parent, &g);
    } else {
        ci = query(newcomm, -1);
        if (ci.remote_size > 0)
            PMPI_Comm_remote_group(newcomm, &g);
        else
            PMPI_Comm_group(newcomm, &g);
    }
    int n = ci.remote_size > 0 ? ci.remote_size : ci.size;
    if (ci.remote_size > 0)
        ms_ending_set_alone(0);   /* another job may die with this one */
    int *members = g != MPI_GROUP_NULL ? world_ranks(g, n) : NULL;

    if (how == MS_COMM_INTER) {
        MPI_Group lg;
        PMPI_Comm_group(newcomm, &lg);
        uint64_t a = (uint32_t)world_rank_of(lg, 0);
        uint64_t b = members ? (uint32_t)members[0] : 0;
        PMPI_Group_free(&lg);
        uint64_t pair = (a < b ? a << 32 | b : b << 32 | a) + 2;
        ms_hmap_slot *s = ms_hmap_put(&inter_pairs, pair);
        uint64_t nth = s ? ++s->value[0] : 0;
        ci.id = derive(UINT64_C(0x696e746572636f6d), pair, nth);
        seq = nth;
    } else {
        /* An intercommunicator made from another (dup, split) is seen from
         * both groups: its "rank 0" is the pair of both groups' rank 0. */
        uint64_t rank0 = (uint32_t)(members && ci.remote_size == 0 ? members[0] : -1);
        if (ci.remote_size > 0 && g != MPI_GROUP_NULL) {
            MPI_Group lg;
            PMPI_Comm_group(how == MS_COMM_DUP ? parent : newcomm, &lg);
            uint64_t a = (uint32_t)world_rank_of(lg, 0), b = members ? (uint32_t)members[0] : 0;
            PMPI_Group_free(&lg);
            rank0 = a < b ? a << 32 | b : b << 32 | a;
        }
        ci.id = derive((uint64_t)pi.id, seq, rank0);
    }
    ci.seq = ci.seq_group = 0;
    put(newcomm, &ci);
    /* Members outside this world (a spawned or connected world's, pmpi/spawn.c)
     * have no world rank: such a communicator is logged without members. */
    for (int i = 0; members && i < n; i++)
        if (members[i] == MPI_UNDEFINED) {
            free(members);
            members = NULL;
        }
    if (t) {
        ms_comm_define(t, ci.id, members ? members : &ci.rank, members ? (uint32_t)n : 0);
        log_origin(t, c, ci.id, c ? pi.id : -1, seq, newcomm);
    }
    free(members);
    if (g != MPI_GROUP_NULL)
        PMPI_Group_free(&g);
}

#if MPI_VERSION >= 4
void ms_comm_from_group(ms_thread *t, const ms_call *c, MPI_Group group, const char *stringtag, MPI_Comm newcomm)
{
    (void)group;  /* newcomm's own group: the same members */
    if (newcomm == MPI_COMM_NULL)
        return;
    ms_comm_info ci = query(newcomm, -1);
    MPI_Group g = MPI_GROUP_NULL;
    PMPI_Comm_group(newcomm, &g);
    int *members = g != MPI_GROUP_NULL ? world_ranks(g, ci.size) : NULL;
    /* Every member calls with the same group and tag, and calls with one
     * tag on one group come in the same order on all of them (the tag is
     * what tells concurrent ones apart): the n-th with these members and
     * this tag is the same communicator everywhere. */
    uint64_t h = UINT64_C(0xcbf29ce484222325);  /* FNV-1a of the tag */
    for (const unsigned char *p = (const unsigned char *)(stringtag ? stringtag : ""); *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    h = mix64(h ^ (uint64_t)(uint32_t)ci.size);
    for (int i = 0; members && i < ci.size; i++)
        h = mix64(h ^ (uint32_t)members[i]);
    ms_hmap_slot *s = ms_hmap_put(&from_groups, h > MS_HMAP_BUSY ? h : h + MS_HMAP_BUSY + 1);
    uint64_t nth = s ? ++s->value[0] : 0;
    ci.id = derive(UINT64_C(0x66726f6d67726f75), h, nth);  /* "fromgrou" */
    ci.seq = ci.seq_group = 0;
    put(newcomm, &ci);
    if (t) {
        ms_comm_define(t, ci.id, members ? members : &ci.rank, members ? (uint32_t)ci.size : 0);
        log_origin(t, c, ci.id, -1, nth, newcomm);
    }
    free(members);
    if (g != MPI_GROUP_NULL)
        PMPI_Group_free(&g);
}
#endif

void ms_comm_forget(MPI_Comm comm)
{
    ms_hmap_slot *s = ms_hmap_get(&comms, comm_key(comm));
    if (s)
        ms_hmap_erase(&comms, s);
}

int ms_topo_outdegree(MPI_Comm comm)
{
    int kind = MPI_UNDEFINED, n = 0;
    if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
        return 0;
    if (kind == MPI_CART) {
        PMPI_Cartdim_get(comm, &n);
        return 2 * n;
    }
    if (kind == MPI_GRAPH) {
        int rank;
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, &n);
        return n;
    }
    if (kind == MPI_DIST_GRAPH) {
        int in, out, weighted;
        PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
        return out;
    }
    return 0;
}
