/*
 * Reading synthesized records back through the reader, for the unit tests
 * of one kind of record: [rec, rec + n) as thread 0's records (a time
 * record first) of a one-rank log of `version` whose end block says
 * finalize started at end_ns, read with the callbacks cb. The reader's
 * message goes to msg (cap bytes) when msg is not NULL.
 */
#ifndef MPISCOPE_TEST_READ_BACK_H
#define MPISCOPE_TEST_READ_BACK_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../preload/summary.h"
#include "synth.h"

/* Region names by the reader's index, as its region callback gives them;
 * a test's callback context begins with one. */
typedef struct rb_regions {
    char name[64][256];
} rb_regions;

static inline int rb_on_region(void *ctx, uint32_t idx, const char *name, size_t len)
{
    rb_regions *r = ctx;
    if (idx < 64 && len < 256) {
        memcpy(r->name[idx], name, len);
        r->name[idx][len] = 0;
    }
    return 0;
}

static inline ms_read_status read_back(uint32_t version, uint64_t end_ns, const uint8_t *rec, size_t n,
                                       const ms_read_callbacks *cb, void *ctx, char *msg, size_t cap)
{
    char *dir = synth_tmpdir();
    cr_assert_not_null(dir);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    ms_file_header h;
    synth_header(&h, 0, 1);
    h.version = version;
    synth sy;
    cr_assert_eq(synth_open_with(&sy, path, &h, "node0"), 0);
    cr_assert_leq(n, (size_t)SYNTH_BUF);
    memcpy(sy.buf[0], rec, n);
    sy.len[0] = n;
    sy.has_time[0] = 1;
    cr_assert_eq(synth_close(&sy, end_ns), 0);
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, path, cb, ctx, &res);
    if (msg)
        snprintf(msg, cap, "%s", res.message);
    ms_reader_destroy(r);
    synth_rmdir(dir);
    free(dir);
    return st;
}

/* The writer's snapshot of sum (ms_sum_write; its blocks at most 64 KiB)
 * as rank 0's log in a fresh directory, whose end block says finalize
 * started at end_ns: the directory (synth_rmdir and free it), the log's
 * path in path[cap]. */
static inline char *read_back_snapshot(ms_sum *sum, uint64_t end_ns, char *path, size_t cap)
{
    synth sy;
    char *dir = synth_open_fresh(&sy, path, cap);
    cr_assert_not_null(dir);
    uint8_t *buf = malloc(1u << 16);
    cr_assert_not_null(buf);
    cr_assert_eq(ms_sum_write(sum, synth_emit_block, &sy, buf), 0);
    free(buf);
    cr_assert_eq(synth_close(&sy, end_ns), 0);
    return dir;
}

#endif
