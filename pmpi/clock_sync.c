/*
 * Clock-sync exchange, hierarchical: the ranks of one host (those of
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), split further by the test-only
 * simulated hosts of preload/clock_skew.h) read one clock, so they measure
 * nothing among themselves: each records that it shares its host leader's
 * clock (the host's lowest world rank; a sync block with same_clock,
 * log_format.h). Only host leaders measure, each against its parent in a
 * binomial tree of the leaders (leader i's parent is i with its lowest set
 * bit cleared), at MPI_Init and at MPI_Finalize, on communicators
 * duplicated and split from MPI_COMM_WORLD (or, where sessions began the
 * run, from the tool's communicator over mpi://WORLD) that only the tool
 * uses (so the application's wildcard receives never see these messages),
 * with errors returned rather than fatal. The merge composes the measured
 * offsets along the tree to rank 0's clock (analysis/reduce/clock_align.h).
 * A leader serves at most ceil(log2 H) children of H hosts: rank 0 answers
 * MS_SYNC_EXCHANGES round trips per child, O(log H) in all.
 *
 * A leader with children first answers their pings, in the order they
 * arrive, with its CLOCK_MONOTONIC read on arrival (serve), then measures
 * against its parent: it sends MS_SYNC_EXCHANGES pings, one at a time,
 * reading its log clock before the send (t_send) and when the reply has
 * arrived (t_recv), and keeps the exchange with the shortest round trip
 * (ms_sync_sample, log_format.h).
 *
 * Nothing blocks: every operation is non-blocking and polled with
 * PMPI_Test against a deadline (MS_SYNC_INIT_MS, MS_SYNC_FINALIZE_MS from
 * the rank's own arrival; a leader gives up on its children earlier, at a
 * share of that bound that grows with its height in the tree, so that it
 * still meets its own parent in time): for SYNC_SPIN_NS without pause, then
 * with a short sleep between polls (on an oversubscribed node the peer
 * needs the core; a plain sched_yield made MPICH ten times slower there).
 * At the deadline a pending request is cancelled, polled a little longer
 * (SYNC_CANCEL_MS) and, if it still has not completed, freed; the rank
 * then says "bye" (a ping or reply with sequence number SYNC_BYE) and goes
 * on without a measurement: a parent stops waiting for a child that said
 * bye, and a child that finds its parent's bye (the parent gave up on it,
 * e.g. it is late) stops at once. At finalize the release flows down the
 * tree once every leader has measured: each leader waits for its parent's
 * release, then sends a bye to every child it served and to the other
 * ranks of its host, which wait for it, so that the ranks enter
 * PMPI_Finalize together: Open MPI 4.1's mpirun crashes or hangs in its
 * own teardown when a job is aborted while some ranks are inside
 * MPI_Finalize and others are not. Every message finds its receive (an
 * unmatched one makes MPICH's UCX layer print a warning on stdout), but
 * for two ranks that give up on each other at the same moment. Messages
 * are a few bytes (sent eagerly, so a send completes without its
 * receive); pings and replies of the two phases have their own tags, so a
 * late message of one phase is never taken for the other.
 */
#include "clock_sync.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../preload/clock.h"
#include "../preload/clock_skew.h"
#include "../preload/config.h"
#include "../preload/diag.h"
#include "../preload/runtime.h"
#include "stacking.h"

/* The sequence number of a "bye": the sender gives up the exchange. */
#define SYNC_BYE UINT32_MAX
/* How long a cancelled request (or a bye) is polled before it is freed (ms). */
#define SYNC_CANCEL_MS 100
/* How long a wait polls without pause (ns); after that each poll sleeps
 * briefly, so that a peer sharing this core (an oversubscribed node) runs. */
#define SYNC_SPIN_NS 100000
/* How long a served rank waits for its parent's release at finalize (ms):
 * the rest of the tree measures meanwhile, each level within its bound. */
#define SYNC_RELEASE_MS (2 * MS_SYNC_FINALIZE_MS + SYNC_CANCEL_MS)

_Static_assert(MS_SYNC_EXCHANGES >= 1 && MS_SYNC_EXCHANGES <= MS_SYNC_MAX_EXCHANGES,
               "a sync block holds at most MS_SYNC_MAX_EXCHANGES exchanges");

/* The tree of host leaders (MPI_COMM_NULL on the other ranks) and the
 * host's ranks. */
static MPI_Comm lead_comm = MPI_COMM_NULL, host_comm = MPI_COMM_NULL;
static int started;
static int lead_rank, lead_size, host_rank, host_size;
static int parent_world = -1, leader_world = -1;
/* Round trips this rank answered, per phase (reported by rank 0 under
 * MPISCOPE_VERBOSE). */
static unsigned long answered[2];

typedef struct sync_reply {
    uint64_t mono_ns;   /* rank 0's CLOCK_MONOTONIC when the ping arrived */
    uint32_t seq;       /* the ping's */
    uint32_t pad;
} sync_reply;

static void pause_cpu(void)
{
    struct timespec ts = {0, 1000};
    nanosleep(&ts, NULL);
}

static int tag_ping(int phase)
{
    return 2 * phase;
}

static int tag_reply(int phase)
{
    return 2 * phase + 1;
}

static uint64_t deadline_in(unsigned ms)
{
    return ms_mono_ns() + (uint64_t)ms * 1000000u;
}

/* Cancel a pending request and make sure its handle is released. */
static void drop(MPI_Request *rq)
{
    if (*rq == MPI_REQUEST_NULL)
        return;
    ms_pmpi_Cancel(rq);
    uint64_t until = deadline_in(SYNC_CANCEL_MS);
    int flag = 0;
    while (*rq != MPI_REQUEST_NULL && ms_pmpi_Test(rq, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag &&
           ms_mono_ns() < until)
        pause_cpu();
    if (*rq != MPI_REQUEST_NULL && !flag)
        ms_pmpi_Request_free(rq);
    *rq = MPI_REQUEST_NULL;
}

/* Poll until *rq completes (1, status in *st when st) or the deadline
 * passes or an error occurs (0, the request dropped). */
static int wait_until(MPI_Request *rq, MPI_Status *st, uint64_t deadline)
{
    MPI_Status ignored;
    uint64_t spin_until = ms_mono_ns() + SYNC_SPIN_NS;
    for (;;) {
        int flag = 0;
        if (ms_pmpi_Test(rq, &flag, st ? st : &ignored) != MPI_SUCCESS)
            break;
        if (flag)
            return 1;
        uint64_t now = ms_mono_ns();
        if (now >= deadline)
            break;
        if (now >= spin_until)
            pause_cpu();
    }
    drop(rq);
    return 0;
}

/* Send a "bye" (seq SYNC_BYE) to the ranks of comm with want[r] set, all
 * at once, waiting at most SYNC_CANCEL_MS for the sends. */
static void send_byes(MPI_Comm comm, const uint8_t *want, int n_want, int phase)
{
    static const sync_reply bye = {.mono_ns = 0, .seq = SYNC_BYE, .pad = 0};
    MPI_Request *rq = malloc((size_t)(n_want > 0 ? n_want : 1) * sizeof *rq);
    if (!rq)
        return;
    int n = 0;
    for (int r = 0; r < n_want; r++)
        if (want[r] && ms_pmpi_Isend((void *)&bye, (int)sizeof bye, MPI_BYTE, r, tag_reply(phase), comm,
                                  &rq[n]) == MPI_SUCCESS)
            n++;
    uint64_t until = deadline_in(SYNC_CANCEL_MS);
    for (int pending = n; pending > 0 && ms_mono_ns() < until;) {
        for (int i = 0; i < n; i++) {
            int flag = 0;
            if (rq[i] != MPI_REQUEST_NULL &&
                (ms_pmpi_Test(&rq[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag)) {
                if (rq[i] != MPI_REQUEST_NULL)
                    ms_pmpi_Request_free(&rq[i]);
                rq[i] = MPI_REQUEST_NULL;
                pending--;
            }
        }
        if (pending > 0)
            pause_cpu();
    }
    for (int i = 0; i < n; i++)
        if (rq[i] != MPI_REQUEST_NULL) {
            ms_pmpi_Cancel(&rq[i]);
            ms_pmpi_Request_free(&rq[i]);
        }
    free(rq);
}

/* Whether a message from src with this tag is waiting; if so, receive it
 * (into a reply-sized buffer) and return 1. Only ever a bye: a rank sends
 * its next ping only after its reply, and a parent replies only to pings. */
static int take_waiting(MPI_Comm comm, int src, int tag)
{
    int flag = 0;
    MPI_Status st;
    if (ms_pmpi_Iprobe(src, tag, comm, &flag, &st) != MPI_SUCCESS || !flag)
        return 0;
    sync_reply rp;
    MPI_Request rq = MPI_REQUEST_NULL;
    if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, src, tag, comm, &rq) == MPI_SUCCESS)
        wait_until(&rq, NULL, deadline_in(SYNC_CANCEL_MS));
    return 1;
}

enum { ACTIVE = 0, SERVED = 1, GONE = 2 };

/* Whether leader c is a child of leader p in the binomial tree. */
static int is_child(int p, int c)
{
    return c > p && (c & (c - 1)) == p;
}

/* A leader: answer the pings of its children in the tree, in the order
 * they come, until each has had its round trips or said bye, or the
 * deadline passes; then say bye to the children not done, so that a late
 * child does not wait for an answer. A ping already followed by its
 * sender's bye (it gave up before its parent came) is not answered, and
 * such a child gets no bye: every message finds its receive. Returns the
 * children's states (by leader index; NULL when out of memory), SERVED for
 * those served, whom a finalize releases later. */
static uint8_t *serve(int phase, uint64_t deadline)
{
    uint8_t *state = calloc((size_t)lead_size, 1);
    uint32_t *count = calloc((size_t)lead_size, sizeof *count);
    if (!state || !count) {
        free(state);
        free(count);
        return NULL;
    }
    int remaining = 0;
    for (int c = lead_rank + 1; c < lead_size; c++) {
        if (is_child(lead_rank, c))
            remaining++;
        else
            state[c] = GONE;
    }
    while (remaining > 0) {
        uint32_t seq = 0;
        MPI_Request rq = MPI_REQUEST_NULL;
        MPI_Status st;
        if (ms_pmpi_Irecv(&seq, (int)sizeof seq, MPI_BYTE, MPI_ANY_SOURCE, tag_ping(phase), lead_comm, &rq) !=
                MPI_SUCCESS ||
            !wait_until(&rq, &st, deadline))
            break;
        uint64_t now = ms_skew_mono(ms_mono_ns());
        int src = st.MPI_SOURCE;
        if (src <= lead_rank || src >= lead_size || state[src] != ACTIVE)
            continue;
        if (seq == SYNC_BYE || take_waiting(lead_comm, src, tag_ping(phase))) {
            state[src] = GONE;
            remaining--;
            continue;
        }
        answered[phase]++;
        if (++count[src] >= MS_SYNC_EXCHANGES) {
            state[src] = SERVED;
            remaining--;
        }
        sync_reply rp = {.mono_ns = now, .seq = seq, .pad = 0};
        MPI_Request sr = MPI_REQUEST_NULL;
        if (ms_pmpi_Isend(&rp, (int)sizeof rp, MPI_BYTE, src, tag_reply(phase), lead_comm, &sr) != MPI_SUCCESS ||
            !wait_until(&sr, NULL, deadline))
            break;
    }
    free(count);
    /* Those not done (those served get theirs at finalize, as a release). */
    uint8_t *bye = calloc((size_t)lead_size, 1);
    if (bye) {
        for (int c = lead_rank + 1; c < lead_size; c++)
            bye[c] = state[c] == ACTIVE;
        send_byes(lead_comm, bye, lead_size, phase);
        free(bye);
    }
    return state;
}

/* A leader other than the first: the round trips with its parent; returns
 * 1 with the shortest in *out. A leader that gives up says bye, so that its
 * parent does not wait for it. */
static int measure(int phase, uint64_t deadline, ms_sync_sample *out)
{
    const int parent = lead_rank & (lead_rank - 1);
    uint32_t done = 0;
    uint64_t best = UINT64_MAX, best_send = 0, best_recv = 0, best_peer = 0;
    int bye = 0, released = 0;
    for (uint32_t k = 0; k < MS_SYNC_EXCHANGES; k++) {
        /* The parent said bye already (this rank is late): no more pings. */
        if (take_waiting(lead_comm, parent, tag_reply(phase))) {
            released = 1;
            break;
        }
        sync_reply rp;
        memset(&rp, 0, sizeof rp);
        MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, parent, tag_reply(phase), lead_comm, &rq[1]) !=
            MPI_SUCCESS) {
            bye = 1;
            break;
        }
        uint32_t seq = k;
        uint64_t t_send = ms_now(), t_recv = 0;
        if (ms_pmpi_Isend(&seq, (int)sizeof seq, MPI_BYTE, parent, tag_ping(phase), lead_comm, &rq[0]) !=
            MPI_SUCCESS) {
            drop(&rq[1]);
            bye = 1;
            break;
        }
        int ok = 1;
        uint64_t spin_until = ms_mono_ns() + SYNC_SPIN_NS;
        while (rq[0] != MPI_REQUEST_NULL || rq[1] != MPI_REQUEST_NULL) {
            int flag = 0;
            if (rq[1] != MPI_REQUEST_NULL) {
                if (ms_pmpi_Test(&rq[1], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                    ok = 0;
                    break;
                }
                if (flag)
                    t_recv = ms_now();
            }
            if (rq[0] != MPI_REQUEST_NULL && ms_pmpi_Test(&rq[0], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                ok = 0;
                break;
            }
            uint64_t now = ms_mono_ns();
            if (now >= deadline) {
                ok = 0;
                break;
            }
            if (now >= spin_until)
                pause_cpu();
        }
        if (!ok) {
            drop(&rq[0]);
            drop(&rq[1]);
            bye = 1;
            break;
        }
        if (rp.seq == SYNC_BYE) {
            released = 1;   /* the parent gave up */
            break;
        }
        if (rp.seq != seq || t_recv < t_send)
            continue;
        done++;
        if (t_recv - t_send < best) {
            best = t_recv - t_send;
            best_send = t_send;
            best_recv = t_recv;
            best_peer = rp.mono_ns;
        }
    }
    /* At finalize, after its round trips, wait for its parent's release,
     * which comes once the whole tree has measured: the parent's own bound
     * may end after this rank's, and its parent's after that. */
    if (!bye && !released && phase == MS_SYNC_FINALIZE) {
        sync_reply rp;
        MPI_Request rq = MPI_REQUEST_NULL;
        uint64_t release_by = deadline_in(SYNC_RELEASE_MS);
        if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, parent, tag_reply(phase), lead_comm, &rq) != MPI_SUCCESS ||
            !wait_until(&rq, NULL, release_by))
            bye = 1;
    }
    if (bye) {
        uint32_t seq = SYNC_BYE;
        MPI_Request rq = MPI_REQUEST_NULL;
        if (ms_pmpi_Isend(&seq, (int)sizeof seq, MPI_BYTE, parent, tag_ping(phase), lead_comm, &rq) == MPI_SUCCESS)
            wait_until(&rq, NULL, deadline_in(SYNC_CANCEL_MS));
    }
    memset(out, 0, sizeof *out);
    if (done > 0) {
        out->t_send = best_send;
        out->t_recv = best_recv;
        out->peer_mono_ns = best_peer;
    }
    out->phase = (uint32_t)phase;
    out->exchanges = done;
    out->peer = parent_world;
    /* A log names only a peer it knows. */
    return done > 0 && parent_world >= 0;
}

/* The height of leader i in the binomial tree of lead_size leaders: the
 * number of levels below it (0 for a leaf). */
static int height(int i)
{
    int h = 0;
    while ((i & (1 << h)) == 0 && (1 << h) < lead_size && i + (1 << h) < lead_size)
        h++;
    return h;
}

/* Another rank of the host: at finalize, wait for the leader's release;
 * one that gives up says bye, so that the leader sends it none. */
static void await_release(int phase)
{
    if (phase != MS_SYNC_FINALIZE)
        return;
    sync_reply rp;
    MPI_Request rq = MPI_REQUEST_NULL;
    if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, 0, tag_reply(phase), host_comm, &rq) == MPI_SUCCESS &&
        wait_until(&rq, NULL, deadline_in(SYNC_RELEASE_MS + MS_SYNC_FINALIZE_MS)))
        return;
    uint32_t seq = SYNC_BYE;
    rq = MPI_REQUEST_NULL;
    if (ms_pmpi_Isend(&seq, (int)sizeof seq, MPI_BYTE, 0, tag_ping(phase), host_comm, &rq) == MPI_SUCCESS)
        wait_until(&rq, NULL, deadline_in(SYNC_CANCEL_MS));
}

/* A leader at finalize: release the children it served and the other ranks
 * of its host (but those that said bye). */
static void release(const uint8_t *state, int phase)
{
    if (phase != MS_SYNC_FINALIZE)
        return;
    if (state) {
        uint8_t *want = calloc((size_t)lead_size, 1);
        if (want) {
            for (int c = lead_rank + 1; c < lead_size; c++)
                want[c] = state[c] == SERVED;
            send_byes(lead_comm, want, lead_size, phase);
            free(want);
        }
    }
    if (host_size > 1) {
        uint8_t *want = calloc((size_t)host_size, 1);
        if (want) {
            for (int r = 1; r < host_size; r++)
                want[r] = !take_waiting(host_comm, r, tag_ping(phase));
            send_byes(host_comm, want, host_size, phase);
            free(want);
        }
    }
}

static int run_phase(int phase, unsigned ms, ms_sync_sample *out)
{
    uint64_t start = ms_mono_ns();
    memset(out, 0, sizeof *out);
    if (host_rank != 0) {
        await_release(phase);
        if (phase != MS_SYNC_INIT || leader_world < 0)
            return 0;
        out->phase = MS_SYNC_INIT;
        out->peer = leader_world;
        out->same_clock = 1;
        return 1;
    }
    uint8_t *state = NULL;
    int h = height(lead_rank), top = height(0);
    if (h > 0)
        state = serve(phase, start + (uint64_t)ms * 1000000u * (uint64_t)h / (uint64_t)(top + 1));
    int got = 0;
    if (lead_rank > 0)
        got = measure(phase, start + (uint64_t)ms * 1000000u, out);
    release(state, phase);
    free(state);
    return got;
}

/* The world rank (in tool) of rank r of comm. */
static int world_of(MPI_Comm comm, int r, MPI_Comm tool)
{
    MPI_Group g, w;
    int out = MPI_UNDEFINED;
    if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return -1;
    if (PMPI_Comm_group(tool, &w) == MPI_SUCCESS) {
        PMPI_Group_translate_ranks(g, 1, &r, w, &out);
        PMPI_Group_free(&w);
    }
    PMPI_Group_free(&g);
    return out == MPI_UNDEFINED ? -1 : out;
}

int ms_sync_init(MPI_Comm world, int rank, int size, ms_sync_sample *out)
{
    if (size < 2 || started)
        return 0;
    started = 1;
    MPI_Comm tool, node = MPI_COMM_NULL;
    if (ms_pmpi_Comm_dup(world, &tool) != MPI_SUCCESS)
        return 0;
    PMPI_Comm_set_errhandler(tool, MPI_ERRORS_RETURN);
    /* The host: the ranks sharing memory, split by simulated host (tests). */
    if (ms_pmpi_Comm_split_type(tool, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        node = MPI_COMM_NULL;
    long sim = ms_skew_host(rank);
    int color = node == MPI_COMM_NULL ? rank : sim >= 0 ? (int)(sim % 0x40000000L) : 0;
    if (ms_pmpi_Comm_split(node == MPI_COMM_NULL ? tool : node, color, rank, &host_comm) != MPI_SUCCESS) {
        host_comm = MPI_COMM_NULL;
        return 0;
    }
    if (node != MPI_COMM_NULL)
        ms_pmpi_Comm_free(&node);
    PMPI_Comm_set_errhandler(host_comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(host_comm, &host_rank);
    PMPI_Comm_size(host_comm, &host_size);
    leader_world = world_of(host_comm, 0, tool);
    if (ms_pmpi_Comm_split(tool, host_rank == 0 ? 0 : MPI_UNDEFINED, rank, &lead_comm) != MPI_SUCCESS)
        lead_comm = MPI_COMM_NULL;
    if (host_rank == 0 && lead_comm == MPI_COMM_NULL)
        return 0;
    if (lead_comm != MPI_COMM_NULL) {
        PMPI_Comm_set_errhandler(lead_comm, MPI_ERRORS_RETURN);
        PMPI_Comm_rank(lead_comm, &lead_rank);
        PMPI_Comm_size(lead_comm, &lead_size);
        if (lead_rank > 0)
            parent_world = world_of(lead_comm, lead_rank & (lead_rank - 1), tool);
    }
    return run_phase(MS_SYNC_INIT, MS_SYNC_INIT_MS, out);
}

void ms_sync_finalize(void)
{
    if (!started || host_comm == MPI_COMM_NULL)
        return;
    ms_sync_sample s;
    if (run_phase(MS_SYNC_FINALIZE, MS_SYNC_FINALIZE_MS, &s))
        ms_runtime_write_sync(&s);
    if (lead_comm != MPI_COMM_NULL && lead_rank == 0 && ms_cfg.verbose && !ms_cfg.disable)
        ms_info("clock sync: %d host%s; rank 0 answered %lu round trips at MPI_Init, %lu at MPI_Finalize",
                lead_size, lead_size == 1 ? "" : "s", answered[MS_SYNC_INIT], answered[MS_SYNC_FINALIZE]);
    /* The communicators are left to PMPI_Finalize: freeing them is
     * collective in principle, and a rank may be missing. */
    host_comm = MPI_COMM_NULL;
    lead_comm = MPI_COMM_NULL;
}
