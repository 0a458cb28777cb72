/* How the run ended (analysis/reduce/run_end.h): states, whom each rank
 * waits for, deadlock cycles and the ranks waited on, from ranks' endings
 * made by hand. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/run_end.h"
#include "../../analysis/reduce/run.h"
#include "../../analysis/report/report.h"
#include "../../common/op_class.h"
#include "../../common/op_names.h"

static ms_rank_info ranks[8];
static ms_run run;

static void setup(size_t n)
{
    memset(ranks, 0, sizeof ranks);
    memset(&run, 0, sizeof run);
    for (size_t i = 0; i < n; i++) {
        ranks[i].rank = (int32_t)i;
        ranks[i].size = (int32_t)n;
        ranks[i].ending.peer = ranks[i].ending.tag = -1;
    }
    run.ranks = ranks;
    run.nranks = n;
    run.world_size = (int32_t)n;
}

static void waits_in(size_t r, const char *op, int32_t peer, uint32_t cause)
{
    ms_rank_ending *e = &ranks[r].ending;
    e->cause = cause;
    e->op = ms_op_id(op, strlen(op));
    cr_assert_neq(e->op, 0, "op %s", op);
    e->peer = peer;
    e->since_ns = 1000;
    e->at_ns = 2000;
}

static void in_world(size_t r, size_t n)
{
    ms_rank_ending *e = &ranks[r].ending;
    e->members = malloc(n * sizeof *e->members);
    for (size_t i = 0; i < n; i++)
        e->members[i] = (int32_t)i;
    e->nmembers = (uint32_t)n;
}

static void done(size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ranks[i].ending.members);
}

Test(run_end, finished_ranks_are_clean)
{
    setup(2);
    ranks[0].has_end = ranks[1].has_end = 1;
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_assert(e.clean);
    cr_assert_str_eq(ms_end_state_name(e.ranks[0].state), "finished");
    cr_assert_eq(e.ncycles, 0);
    ms_run_end_free(&e);
}

Test(run_end, a_receive_deadlock_is_a_cycle)
{
    setup(4);
    waits_in(0, "recv", 1, MS_ENDING_STUCK);
    waits_in(1, "recv", 0, MS_ENDING_SIGNAL);
    ranks[1].ending.signal = SIGTERM;
    waits_in(2, "barrier", -1, MS_ENDING_STUCK);
    waits_in(3, "barrier", -1, MS_ENDING_BLOCKED);
    in_world(2, 4);
    in_world(3, 4);
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_assert(!e.clean);
    cr_assert_str_eq(ms_end_state_name(e.ranks[0].state), "stuck");
    cr_assert_str_eq(ms_end_state_name(e.ranks[1].state), "killed");
    cr_assert_str_eq(ms_end_state_name(e.ranks[3].state), "unknown");
    cr_assert_eq(e.ncycles, 1);
    cr_assert_eq(e.cycle_len[0], 2);
    cr_assert_eq(e.cycles[0][0], 0);
    cr_assert_eq(e.cycles[0][1], 1);
    /* The barrier waits for 0 and 1, which wait elsewhere: nobody blocks
     * without waiting. */
    cr_assert_eq(e.ranks[2].nwaits, 2);
    cr_assert_eq(e.nblocking, 0);
    ms_run_end_free(&e);
    done(4);
}

Test(run_end, a_rank_missing_from_a_barrier_is_waited_on)
{
    setup(4);
    for (size_t r = 0; r < 3; r++) {
        waits_in(r, "barrier", -1, MS_ENDING_STUCK);
        in_world(r, 4);
    }
    ranks[3].ending.cause = MS_ENDING_ABORT;
    ranks[3].ending.code = 3;
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_assert_str_eq(ms_end_state_name(e.ranks[3].state), "aborted");
    for (size_t r = 0; r < 3; r++) {
        cr_assert_eq(e.ranks[r].nwaits, 1);
        cr_assert_eq(e.ranks[r].waits_for[0], 3);
    }
    cr_assert_eq(e.ncycles, 0);
    cr_assert_eq(e.nblocking, 1);
    cr_assert_eq(e.blocking[0], 3);
    ms_run_end_free(&e);
    done(4);
}

Test(run_end, a_fault_is_a_signal_and_sigterm_a_kill)
{
    setup(2);
    ranks[0].ending.cause = MS_ENDING_SIGNAL;
    ranks[0].ending.signal = SIGSEGV;
    ranks[1].ending.cause = MS_ENDING_SIGNAL;
    ranks[1].ending.signal = SIGINT;
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_assert_str_eq(ms_end_state_name(e.ranks[0].state), "signal");
    cr_assert_str_eq(ms_end_state_name(e.ranks[1].state), "killed");
    cr_assert(!e.ranks[0].waiting && !e.ranks[1].waiting);
    ms_run_end_free(&e);
}

/* Rank r waits in a completion call on requests to the ranks `peers`. */
static void waits_on(size_t r, const char *op, const int32_t *peers, uint32_t n)
{
    waits_in(r, op, -1, MS_ENDING_STUCK);
    ms_rank_ending *e = &ranks[r].ending;
    e->reqs = calloc(n, sizeof *e->reqs);
    for (uint32_t k = 0; k < n; k++)
        e->reqs[k] = (ms_end_req){.op = ms_op_id("irecv", 5), .peer = peers[k], .tag = 5};
    e->nreqs = e->req_count = n;
}

Test(run_end, a_waitany_is_held_only_while_all_its_peers_wait)
{
    /* Rank 0 waits for any of ranks 1 and 2; rank 1 waits for rank 0;
     * rank 2 computes: rank 2 may free rank 0, no deadlock. */
    setup(3);
    int32_t peers[2] = {1, 2}, zero = 0;
    waits_on(0, "waitany", peers, 2);
    waits_on(1, "wait", &zero, 1);
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_expect_eq(e.ranks[0].nwaits, 2);
    cr_expect(e.ranks[0].any);
    cr_expect_eq(e.ncycles, 0);
    cr_assert_eq(e.nblocking, 1);
    cr_expect_eq(e.blocking[0], 2);
    ms_run_end_free(&e);
    /* Rank 2 waits for rank 0 too: nobody can go on. */
    waits_on(2, "wait", &zero, 1);
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_assert_eq(e.ncycles, 1);
    cr_expect_eq(e.cycle_len[0], 3);
    ms_run_end_free(&e);
    /* Rank 0's second request a receive from any source: anyone may
     * free it. */
    ranks[0].ending.reqs[1].peer = -1;
    cr_assert_eq(ms_run_end_make(&run, &e), 0);
    cr_expect_eq(e.ranks[0].any, 2);
    cr_expect_eq(e.ncycles, 0);
    ms_run_end_free(&e);
    for (size_t i = 0; i < 3; i++)
        free(ranks[i].ending.reqs);
}

/* A Waitall of 20 requests, the log holding the first 8 handles: the text
 * counts the 12 it could not name among the "more". */
Test(run_end, requests_beyond_the_held_ones_are_counted)
{
    setup(2);
    int32_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1}, zero = 0;
    waits_on(0, "waitall", ones, 8);
    ranks[0].ending.req_count = 20;
    waits_on(1, "wait", &zero, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    cr_assert_eq(ms_report_ending_text(fp, &run), 0);
    fclose(fp);
    cr_expect(strstr(text, "(src=1, tag=5) and 17 more for rank 1"), "%s", text);
    free(text);
    for (size_t i = 0; i < 2; i++)
        free(ranks[i].ending.reqs);
}
