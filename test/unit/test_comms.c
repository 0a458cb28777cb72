/* The labels the text and HTML reports give communicators (comms.h): world
 * and self, names, labels derived from how a communicator was made, and
 * logs that do not say how. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/comms.h"
#include "../../common/op_names.h"

#define WORLD 4u

/* A communicator made by op (a calls.tbl name) from parent, the seq-th
 * creation on the parent, of size members the lowest of which is low. */
static ms_comm_fact made(int64_t id, const char *op, int64_t parent, uint64_t seq, uint32_t size, int32_t low)
{
    uint32_t opid = ms_op_id(op, strlen(op));
    cr_assert_neq(opid, 0, "%s is an op of calls.tbl", op);
    return (ms_comm_fact){.id = id, .parent = parent, .seq = seq, .op = opid, .has_origin = 1,
                          .size = size, .low = low, .region = UINT32_MAX, .site = UINT32_MAX};
}

/* A communicator of a log older than version 8: members only. */
static ms_comm_fact bare(int64_t id, uint32_t size, int32_t low)
{
    return (ms_comm_fact){.id = id, .parent = -1, .size = size, .low = low, .region = UINT32_MAX, .site = UINT32_MAX};
}

/* The ranks' facts: up to 16 communicators per rank of a world of 4. */
typedef struct world_facts {
    ms_comm_fact v[WORLD][16];
    ms_comm_facts f[WORLD];
    const ms_comm_facts *p[WORLD];
} world_facts;

static void add(world_facts *w, uint32_t rank, ms_comm_fact c)
{
    cr_assert_lt(w->f[rank].n, 16);
    w->f[rank].v = w->v[rank];
    w->v[rank][w->f[rank].n++] = c;
}

/* c on each rank of members (a bit per world rank). */
static void add_on(world_facts *w, unsigned members, ms_comm_fact c)
{
    for (uint32_t r = 0; r < WORLD; r++)
        if (members & (1u << r))
            add(w, r, c);
}

/* The table built from w, each rank's facts in log order or reversed, the
 * ranks ascending. */
static ms_comms table(world_facts *w, int reversed)
{
    ms_comm_fact rev[WORLD][16];
    ms_comm_facts f[WORLD];
    for (uint32_t r = 0; r < WORLD; r++) {
        f[r] = w->f[r];
        if (reversed) {
            for (size_t i = 0; i < f[r].n; i++)
                rev[r][i] = w->v[r][f[r].n - 1 - i];
            f[r].v = rev[r];
        }
        w->p[r] = &f[r];
    }
    ms_comms t = {0};
    cr_assert_eq(ms_comms_build(&t, w->p, WORLD, WORLD), 0);
    return t;
}

static const char *label_of(const ms_comms *t, int64_t id)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    return ms_comms_label(t, id, buf[k], sizeof buf[k]);
}

Test(comms, world_self_none_unrecorded)
{
    world_facts w = {0};
    char *name = "the world";
    ms_comm_fact named_world = {.id = 0, .parent = -1, .low = -1, .name = name};
    add_on(&w, 0xf, named_world);
    ms_comms t = table(&w, 0);
    cr_expect_eq(t.n, 2, "world and self only");
    cr_expect_eq(ms_comms_listed(&t), 1, "a name given to world: listed");
    cr_expect_str_eq(label_of(&t, 0), "world", "world is world, whatever its name");
    cr_expect_str_eq(label_of(&t, 1), "self");
    cr_expect_str_eq(label_of(&t, -1), "none");
    cr_expect_str_eq(label_of(&t, 42), "unrecorded");
    cr_expect_eq(ms_comms_find(&t, 0)->f.size, WORLD);
    cr_expect_eq(ms_comms_find(&t, 1)->f.size, 1);
    ms_comms_free(&t);
    world_facts none = {0};
    t = table(&none, 0);
    cr_expect_eq(ms_comms_listed(&t), 0, "world and self, unnamed: nothing to list");
    ms_comms_free(&t);
}

/* Names: control characters as '?', more than 64 bytes cut to 61 and
 * "...", never inside a UTF-8 character; the lowest rank's name. */
Test(comms, names)
{
    world_facts w = {0};
    char ctl[] = "a\tb\x01" "c\x7f" "d";
    char exact[65], longer[71], utf8[96];
    memset(exact, 'e', 64);
    exact[64] = '\0';
    memset(longer, 'l', 70);
    longer[70] = '\0';
    memset(utf8, 'u', 60);
    strcpy(utf8 + 60, "\xc3\xa9 and more to be cut");   /* é at bytes 60 and 61 */
    char two[] = "named on rank 2", three[] = "named on rank 3", empty[] = "";
    ms_comm_fact c = made(10, "comm_dup", 0, 1, WORLD, 0);
    c.name = ctl;
    add_on(&w, 0xf, c);
    c = made(11, "comm_dup", 0, 2, WORLD, 0);
    c.name = exact;
    add_on(&w, 0xf, c);
    c = made(12, "comm_dup", 0, 3, WORLD, 0);
    c.name = longer;
    add_on(&w, 0xf, c);
    c = made(13, "comm_dup", 0, 4, WORLD, 0);
    c.name = utf8;
    add_on(&w, 0xf, c);
    c = made(14, "comm_dup", 0, 5, WORLD, 0);
    add_on(&w, 0x3, c);
    c.name = three;
    add(&w, 3, c);
    c.name = two;
    add(&w, 2, c);
    c = made(15, "comm_dup", 0, 6, WORLD, 0);
    c.name = empty;
    add_on(&w, 0xf, c);
    ms_comms t = table(&w, 0);
    cr_expect_str_eq(label_of(&t, 10), "a?b?c?d");
    cr_expect_str_eq(label_of(&t, 11), exact, "64 bytes are shown whole");
    char want[80];
    snprintf(want, sizeof want, "%.61s...", longer);
    cr_expect_str_eq(label_of(&t, 12), want);
    snprintf(want, sizeof want, "%.60s...", utf8);
    cr_expect_str_eq(label_of(&t, 13), want, "the cut does not split a character");
    cr_expect_str_eq(label_of(&t, 14), two, "the lowest rank's name");
    cr_expect_str_eq(ms_comms_find(&t, 14)->f.name, two);
    cr_expect_str_eq(ms_comms_find(&t, 12)->f.name, longer, "the row keeps the whole name");
    cr_expect_str_eq(label_of(&t, 15), "dup#6 of world", "an empty name: derived");
    /* Numbers count the named communicators too: the six dups of world. */
    cr_expect_eq(ms_comms_find(&t, 15)->of_kind, 6);
    char small[6];
    cr_expect_str_eq(ms_comms_label(&t, 12, small, sizeof small), "lllll", "cut to the buffer");
    ms_comms_free(&t);
}

/* The facts of a world of 4: two communicators of one split (the half with
 * rank 1 has the smaller id), two dups of world, a 2x2 Cartesian one, a
 * dup of a split half, a split of one rank, kinds of non-blocking and
 * _with_info forms, and a chain of dups deeper than labels go. */
static void derived_facts(world_facts *w)
{
    add_on(w, 0x5, made(900, "comm_split", 0, 1, 2, 0));
    add_on(w, 0xa, made(100, "comm_split", 0, 1, 2, 1));
    ms_comm_fact c = made(300, "comm_dup", 0, 2, WORLD, 0);
    add_on(w, 0xd, c);
    c.where = "main at app.c:12";
    add(w, 1, c);
    ms_comm_fact cart = made(400, "cart_create", 0, 3, WORLD, 0);
    cart.ndims = 2;
    cart.dims[0] = cart.dims[1] = 2;
    add_on(w, 0xf, cart);
    add_on(w, 0xf, made(200, "comm_idup_with_info", 0, 4, WORLD, 0));
    add_on(w, 0x5, made(500, "comm_dup", 900, 1, 2, 0));
    add_on(w, 0x8, made(600, "comm_split", 0, 5, 1, 3));
    add_on(w, 0x2, made(610, "comm_split", 0, 5, 1, 1));
    add_on(w, 0x1, made(700, "dist_graph_create_adjacent", 0, 6, WORLD, 0));
    add_on(w, 0x1, made(710, "intercomm_create", 900, 2, 2, 1));
    int64_t parent = 0;
    for (int64_t id = 1000; id < 1006; parent = id++)
        add_on(w, 0x1, made(id, "comm_dup", parent, id == 1000 ? 7 : 1, WORLD, 0));
}

static void expect_derived(const ms_comms *t)
{
    cr_expect_str_eq(label_of(t, 900), "split#1 of world (2 ranks)", "the half with world rank 0 first");
    cr_expect_str_eq(label_of(t, 100), "split#2 of world (2 ranks)");
    cr_expect_str_eq(label_of(t, 300), "dup#1 of world", "dups are as big as their parent: no size");
    cr_expect_str_eq(label_of(t, 200), "dup#2 of world", "comm_idup_with_info makes a dup");
    cr_expect_str_eq(label_of(t, 400), "cart 2\xc3\x97" "2 of world", "the only cart: no number");
    cr_expect_str_eq(label_of(t, 500), "dup#1 of split#1 of world", "sizes only at the top");
    cr_expect_str_eq(label_of(t, 610), "split#3 of world (1 rank)", "a later split: numbered after");
    cr_expect_str_eq(label_of(t, 600), "split#4 of world (1 rank)");
    cr_expect_str_eq(label_of(t, 700), "dist_graph#1 of world (4 ranks)");
    cr_expect_str_eq(label_of(t, 710), "intercomm#1 of split#1 of world");
    cr_expect_str_eq(label_of(t, 1005), "dup#1 of dup#1 of dup#1 of dup#1 of dup#1 of ...", "a deep chain, cut");
    cr_expect_str_eq(label_of(t, 1000), "dup#3 of world");
    const ms_comm_row *r = ms_comms_find(t, 300);
    cr_assert_not_null(r);
    cr_expect_str_eq(ms_comm_kind(r), "dup");
    cr_expect_eq(r->ranks, 4, "in every member's log");
    cr_expect_str_eq(r->f.where, "main at app.c:12", "the call site of the lowest rank that has one");
    cr_expect_str_eq(ms_comm_kind(ms_comms_find(t, 400)), "cart");
    cr_expect_str_eq(ms_comm_kind(ms_comms_find(t, 700)), "dist_graph");
    cr_expect_str_eq(ms_comm_kind(ms_comms_find(t, 710)), "intercomm");
    cr_expect_eq(ms_comms_find(t, 900)->ranks, 2);
    char how[256];
    cr_expect_str_eq(ms_comms_made_by(t, ms_comms_find(t, 0), how, sizeof how), "MPI_Init");
    cr_expect_str_eq(ms_comms_made_by(t, ms_comms_find(t, 100), how, sizeof how), "split of world");
    cr_expect_str_eq(ms_comms_made_by(t, ms_comms_find(t, 500), how, sizeof how), "dup of split#1 of world (2 ranks)",
                     "the parent's whole label");
    cr_expect_eq(ms_comms_listed(t), 1);
}

Test(comms, derived)
{
    world_facts w = {0};
    derived_facts(&w);
    ms_comms t = table(&w, 0);
    expect_derived(&t);
    ms_comms_free(&t);
}

/* The numbers do not depend on the order in which a log lists its
 * communicators, nor on which rank's log holds them first. */
Test(comms, derived_any_order)
{
    world_facts w = {0};
    derived_facts(&w);
    ms_comms t = table(&w, 1);
    expect_derived(&t);
    world_facts back = {0};
    for (uint32_t r = 0; r < WORLD; r++)
        for (size_t i = 0; i < w.f[r].n; i++) {
            ms_comm_fact c = w.v[r][i];
            c.where = NULL;
            add(&back, WORLD - 1 - r, c);
        }
    ms_comms u = table(&back, 0);
    for (size_t i = 0; i < t.n; i++)
        cr_expect_str_eq(label_of(&u, t.v[i].f.id), label_of(&t, t.v[i].f.id), "id %lld",
                         (long long)t.v[i].f.id);
    ms_comms_free(&t);
    ms_comms_free(&u);
}

/* A log older than version 8: no origins, comm#k (N ranks), numbered by
 * the lowest member's world rank, then id; an origin read from another
 * rank's log wins. */
Test(comms, without_origins)
{
    world_facts w = {0};
    add_on(&w, 0xa, bare(7, 2, 1));
    add_on(&w, 0x5, bare(9, 2, 0));
    add_on(&w, 0xf, bare(5, WORLD, 0));
    add_on(&w, 0x1, bare(3, 1, 0));
    add(&w, 0, bare(8, 2, 0));
    add(&w, 3, made(8, "comm_split", 0, 1, 2, 0));
    ms_comms t = table(&w, 0);
    cr_expect_str_eq(label_of(&t, 3), "comm#1 (1 rank)");
    cr_expect_str_eq(label_of(&t, 5), "comm#2 (4 ranks)");
    cr_expect_str_eq(label_of(&t, 9), "comm#3 (2 ranks)");
    cr_expect_str_eq(label_of(&t, 7), "comm#4 (2 ranks)");
    cr_expect_str_eq(label_of(&t, 8), "split#1 of world (2 ranks)");
    cr_expect_str_eq(ms_comm_kind(ms_comms_find(&t, 7)), "comm");
    cr_expect_eq(ms_comms_find(&t, 7)->f.has_origin, 0);
    char how[64];
    cr_expect_str_eq(ms_comms_made_by(&t, ms_comms_find(&t, 7), how, sizeof how), "-", "not known");
    ms_comms_free(&t);
}
