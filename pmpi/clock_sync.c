/*
 * Clock-sync exchange: each rank r > 0 measures its log clock against rank
 * 0's CLOCK_MONOTONIC by ping-pong (Cristian's method) at MPI_Init and at
 * MPI_Finalize, on a duplicate of MPI_COMM_WORLD (or, where sessions began
 * the run, of the tool's communicator over mpi://WORLD) that only the tool uses
 * (so the application's wildcard receives never see these messages), with
 * errors returned rather than fatal.
 *
 * Rank r sends MS_SYNC_EXCHANGES pings, one at a time, reading its log
 * clock before the send (t_send) and when rank 0's reply has arrived
 * (t_recv); rank 0 answers each ping, in the order they arrive, with its
 * CLOCK_MONOTONIC read on arrival. The exchange with the shortest round
 * trip is kept (ms_sync_sample, log_format.h). Rank 0 serves (size - 1) x
 * MS_SYNC_EXCHANGES pings one after the other: its cost grows linearly
 * with the ranks (docs/DESIGN.md section 6).
 *
 * Nothing blocks: every operation is non-blocking and polled with
 * PMPI_Test against a deadline (MS_SYNC_INIT_MS, MS_SYNC_FINALIZE_MS from
 * the rank's own arrival): for SYNC_SPIN_NS without pause, then with a
 * short sleep between polls (on an oversubscribed node the peer needs the
 * core; a plain sched_yield made MPICH ten times slower there). At the
 * deadline a pending request is cancelled, polled a little longer
 * (SYNC_CANCEL_MS) and, if it still has not completed, freed; the rank
 * then says "bye" (a ping or reply with sequence number SYNC_BYE) and goes
 * on without a measurement: rank 0 stops waiting for a rank that said bye,
 * and a rank that finds rank 0's bye (rank 0 gave up on it, e.g. it is
 * late) stops at once. At finalize rank 0 ends with a bye to every rank
 * it served (a release) and they wait for it, so that they enter
 * PMPI_Finalize together: Open MPI 4.1's mpirun crashes or hangs in its
 * own teardown when a job is aborted while some ranks are inside
 * MPI_Finalize and others are not. Every message finds its receive (an
 * unmatched one makes MPICH's UCX layer print a warning on stdout), but
 * for a rank and rank 0 that give up on each other at the same moment.
 * Messages are a few bytes (sent eagerly, so a send
 * completes without its receive); pings and replies of the two phases have
 * their own tags, so a late message of one phase is never taken for the
 * other.
 */
#include "clock_sync.h"

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../preload/clock.h"
#include "../preload/clock_skew.h"
#include "../preload/runtime.h"
#include "stacking.h"

/* The sequence number of a "bye": the sender gives up the exchange. */
#define SYNC_BYE UINT32_MAX
/* How long a cancelled request (or a bye) is polled before it is freed (ms). */
#define SYNC_CANCEL_MS 100
/* How long a wait polls without pause (ns); after that each poll sleeps
 * briefly, so that a peer sharing this core (an oversubscribed node) runs. */
#define SYNC_SPIN_NS 100000

_Static_assert(MS_SYNC_EXCHANGES >= 1 && MS_SYNC_EXCHANGES <= MS_SYNC_MAX_EXCHANGES,
               "a sync block holds at most MS_SYNC_MAX_EXCHANGES exchanges");

static MPI_Comm sync_comm = MPI_COMM_NULL;
static int sync_rank, sync_size;

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

/* Rank 0: send a "bye" (seq SYNC_BYE) to the ranks with want[r] set, all
 * at once, waiting at most SYNC_CANCEL_MS for the sends. */
static void send_byes(const uint8_t *want, int phase)
{
    static const sync_reply bye = {.mono_ns = 0, .seq = SYNC_BYE, .pad = 0};
    MPI_Request *rq = malloc((size_t)sync_size * sizeof *rq);
    if (!rq)
        return;
    int n = 0;
    for (int r = 1; r < sync_size; r++)
        if (want[r] && ms_pmpi_Isend((void *)&bye, (int)sizeof bye, MPI_BYTE, r, tag_reply(phase), sync_comm,
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
 * its next ping only after its reply, and rank 0 replies only to pings. */
static int take_waiting(int src, int tag)
{
    int flag = 0;
    MPI_Status st;
    if (ms_pmpi_Iprobe(src, tag, sync_comm, &flag, &st) != MPI_SUCCESS || !flag)
        return 0;
    sync_reply rp;
    MPI_Request rq = MPI_REQUEST_NULL;
    if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, src, tag, sync_comm, &rq) == MPI_SUCCESS)
        wait_until(&rq, NULL, deadline_in(SYNC_CANCEL_MS));
    return 1;
}

/* Rank 0: answer the pings of every other rank, in the order they come,
 * until each rank has had its round trips or said bye, or the deadline
 * passes; then say bye to the ranks not done, so that a late rank does not
 * wait for an answer, and at finalize also to those done: they wait for it
 * (a release), so that the ranks enter PMPI_Finalize together. A ping
 * already followed by its sender's bye (it gave up before rank 0 came) is
 * not answered, and such a rank gets no bye: every message finds its
 * receive. */
static void serve(int phase, uint64_t deadline)
{
    enum { ACTIVE = 0, SERVED = 1, GONE = 2 };
    uint8_t *state = calloc((size_t)sync_size, 1);
    uint32_t *count = calloc((size_t)sync_size, sizeof *count);
    if (!state || !count) {
        free(state);
        free(count);
        return;
    }
    int remaining = sync_size - 1;
    while (remaining > 0) {
        uint32_t seq = 0;
        MPI_Request rq = MPI_REQUEST_NULL;
        MPI_Status st;
        if (ms_pmpi_Irecv(&seq, (int)sizeof seq, MPI_BYTE, MPI_ANY_SOURCE, tag_ping(phase), sync_comm, &rq) !=
                MPI_SUCCESS ||
            !wait_until(&rq, &st, deadline))
            break;
        uint64_t now = ms_skew_mono(ms_mono_ns());
        int src = st.MPI_SOURCE;
        if (src <= 0 || src >= sync_size || state[src] != ACTIVE)
            continue;
        if (seq == SYNC_BYE || take_waiting(src, tag_ping(phase))) {
            state[src] = GONE;
            remaining--;
            continue;
        }
        if (++count[src] >= MS_SYNC_EXCHANGES) {
            state[src] = SERVED;
            remaining--;
        }
        sync_reply rp = {.mono_ns = now, .seq = seq, .pad = 0};
        MPI_Request sr = MPI_REQUEST_NULL;
        if (ms_pmpi_Isend(&rp, (int)sizeof rp, MPI_BYTE, src, tag_reply(phase), sync_comm, &sr) != MPI_SUCCESS ||
            !wait_until(&sr, NULL, deadline))
            break;
    }
    /* At init, the ranks not done; at finalize, all but those gone. */
    for (int r = 1; r < sync_size; r++)
        state[r] = state[r] == ACTIVE || (state[r] == SERVED && phase == MS_SYNC_FINALIZE);
    send_byes(state, phase);
    free(state);
    free(count);
}

/* Rank r > 0: the round trips; returns 1 with the shortest in *out. A rank
 * that gives up says bye, so that rank 0 does not wait for it. */
static int measure(int phase, uint64_t deadline, ms_sync_sample *out)
{
    uint32_t done = 0;
    uint64_t best = UINT64_MAX;
    int bye = 0, released = 0;
    for (uint32_t k = 0; k < MS_SYNC_EXCHANGES; k++) {
        /* Rank 0 said bye already (this rank is late): no more pings. */
        if (take_waiting(0, tag_reply(phase))) {
            released = 1;
            break;
        }
        sync_reply rp;
        memset(&rp, 0, sizeof rp);
        MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, 0, tag_reply(phase), sync_comm, &rq[1]) != MPI_SUCCESS) {
            bye = 1;
            break;
        }
        uint32_t seq = k;
        uint64_t t_send = ms_now(), t_recv = 0;
        if (ms_pmpi_Isend(&seq, (int)sizeof seq, MPI_BYTE, 0, tag_ping(phase), sync_comm, &rq[0]) != MPI_SUCCESS) {
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
            released = 1;   /* rank 0 gave up */
            break;
        }
        if (rp.seq != seq || t_recv < t_send)
            continue;
        done++;
        if (t_recv - t_send < best) {
            best = t_recv - t_send;
            out->t_send = t_send;
            out->t_recv = t_recv;
            out->peer_mono_ns = rp.mono_ns;
        }
    }
    /* At finalize, after its round trips, wait for rank 0's release. Rank 0
     * was there to answer, so it sends it within its own bound, which may
     * end after this rank's: wait as long again (and a little). */
    if (!bye && !released && phase == MS_SYNC_FINALIZE) {
        sync_reply rp;
        MPI_Request rq = MPI_REQUEST_NULL;
        uint64_t release_by = deadline_in(MS_SYNC_FINALIZE_MS + SYNC_CANCEL_MS);
        if (ms_pmpi_Irecv(&rp, (int)sizeof rp, MPI_BYTE, 0, tag_reply(phase), sync_comm, &rq) != MPI_SUCCESS ||
            !wait_until(&rq, NULL, release_by))
            bye = 1;
    }
    if (bye) {
        uint32_t seq = SYNC_BYE;
        MPI_Request rq = MPI_REQUEST_NULL;
        if (ms_pmpi_Isend(&seq, (int)sizeof seq, MPI_BYTE, 0, tag_ping(phase), sync_comm, &rq) == MPI_SUCCESS)
            wait_until(&rq, NULL, deadline_in(SYNC_CANCEL_MS));
    }
    out->phase = (uint32_t)phase;
    out->exchanges = done;
    return done > 0;
}

static int run_phase(int phase, unsigned ms, ms_sync_sample *out)
{
    uint64_t deadline = deadline_in(ms);
    memset(out, 0, sizeof *out);
    if (sync_rank == 0) {
        serve(phase, deadline);
        return 0;
    }
    return measure(phase, deadline, out);
}

int ms_sync_init(MPI_Comm world, int rank, int size, ms_sync_sample *out)
{
    if (size < 2 || sync_comm != MPI_COMM_NULL)
        return 0;
    MPI_Comm c;
    if (ms_pmpi_Comm_dup(world, &c) != MPI_SUCCESS)
        return 0;
    PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    sync_comm = c;
    sync_rank = rank;
    sync_size = size;
    return run_phase(MS_SYNC_INIT, MS_SYNC_INIT_MS, out);
}

void ms_sync_finalize(void)
{
    if (sync_comm == MPI_COMM_NULL)
        return;
    ms_sync_sample s;
    if (run_phase(MS_SYNC_FINALIZE, MS_SYNC_FINALIZE_MS, &s))
        ms_runtime_write_sync(&s);
    /* The communicator is left to PMPI_Finalize: freeing it is collective
     * in principle, and a rank may be missing. */
    sync_comm = MPI_COMM_NULL;
}
