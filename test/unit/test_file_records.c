/* File records (control record 14, format version 5): encoded with
 * preload/records.h, read back exactly through the reader, and rejected
 * when damaged (ids, communicators, lengths, NUL bytes) or in an older log. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../preload/records.h"
#include "read_back.h"
#include "synth.h"

#define T0 5000000ull   /* the thread's first time record (ns) */

typedef struct seen {
    ms_read_file f[4];
    char path[4][MS_MAX_FILE_PATH + 1];
    int n;
} seen;

static int on_file(void *ctx, const ms_read_file *f)
{
    seen *s = ctx;
    if (s->n < 4) {
        s->f[s->n] = *f;
        memcpy(s->path[s->n], f->path, f->len);
        s->path[s->n][f->len] = '\0';
        s->n++;
    }
    return 0;
}

/* [rec, rec + n) as thread 0's records of a log of `version`, read back. */
static ms_read_status read_records(uint32_t version, const uint8_t *rec, size_t n, seen *s, char *msg, size_t cap)
{
    memset(s, 0, sizeof *s);
    ms_read_callbacks cb = {.file = on_file};
    return read_back(version, T0 + 100000, rec, n, &cb, s, msg, cap);
}

/* A time record, then a file record of raw fields: id, comm + 1, len and
 * `len` bytes of `path` (or as many as given: `have`). */
static ms_read_status read_raw(uint32_t version, uint64_t id, uint64_t comm1, uint64_t len, const char *path,
                               size_t have, char *msg, size_t cap)
{
    static uint8_t rec[2 * MS_MAX_FILE_PATH];
    uint8_t *p = ms_rec_time(rec, T0);
    p = ms_put_varint(p, ((uint64_t)MS_CTL_FILE << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, comm1);
    p = ms_put_varint(p, len);
    memcpy(p, path, have);
    p += have;
    seen s;
    return read_records(version, rec, (size_t)(p - rec), &s, msg, cap);
}

Test(file_records, round_trip)
{
    static uint8_t rec[3 * MS_FILE_REC_MAX];
    static char longest[MS_MAX_FILE_PATH + 10];
    memset(longest, 'x', sizeof longest);
    uint8_t *p = ms_rec_time(rec, T0);
    p = ms_rec_file(p, 0, 0, "/tmp/out.dat", 12);
    p = ms_rec_file(p, 7, -1, "a,\"b\"", 5);
    /* Cut to the longest path a record may hold. */
    p = ms_rec_file(p, MS_MAX_FILE_ID, INT64_MAX - 1, longest, sizeof longest);
    seen s;
    char msg[512];
    cr_assert_eq(read_records(MS_FORMAT_VERSION, rec, (size_t)(p - rec), &s, msg, sizeof msg), MS_READ_OK, "%s", msg);
    cr_assert_eq(s.n, 3);
    cr_expect_eq(s.f[0].id, 0);
    cr_expect_eq(s.f[0].comm, 0);
    cr_expect_str_eq(s.path[0], "/tmp/out.dat");
    cr_expect_eq(s.f[1].id, 7);
    cr_expect_eq(s.f[1].comm, -1);
    cr_expect_str_eq(s.path[1], "a,\"b\"");
    cr_expect_eq(s.f[2].id, MS_MAX_FILE_ID);
    cr_expect_eq(s.f[2].comm, INT64_MAX - 1);
    cr_expect_eq(s.f[2].len, MS_MAX_FILE_PATH);
}

static void expect_corrupt(ms_read_status st, const char *msg, const char *why)
{
    cr_expect_eq(st, MS_READ_CORRUPT, "%s: %s", why, msg);
    cr_expect(strstr(msg, why) != NULL, "'%s' in '%s'", why, msg);
}

Test(file_records, rejected)
{
    char msg[512];
    static char big[MS_MAX_FILE_PATH + 1];
    memset(big, 'y', sizeof big);
    cr_assert_eq(read_raw(5, 3, 1, 4, "a.nc", 4, msg, sizeof msg), MS_READ_OK, "%s", msg);
    expect_corrupt(read_raw(5, (uint64_t)MS_MAX_FILE_ID + 1, 1, 4, "a.nc", 4, msg, sizeof msg), msg,
                   "id out of range");
    expect_corrupt(read_raw(5, 3, (uint64_t)INT64_MAX + 1, 4, "a.nc", 4, msg, sizeof msg), msg,
                   "communicator out of range");
    expect_corrupt(read_raw(5, 3, 1, 0, "", 0, msg, sizeof msg), msg, "file path empty");
    expect_corrupt(read_raw(5, 3, 1, sizeof big, big, sizeof big, msg, sizeof msg), msg, "too long");
    expect_corrupt(read_raw(5, 3, 1, 40, "a.nc", 4, msg, sizeof msg), msg, "past its block");
    expect_corrupt(read_raw(5, 3, 1, UINT64_MAX, "a.nc", 4, msg, sizeof msg), msg, "too long");
    expect_corrupt(read_raw(5, 3, 1, 4, "a\0nc", 4, msg, sizeof msg), msg, "NUL byte");
    /* Cut inside the fixed fields. */
    static uint8_t rec[32];
    uint8_t *p = ms_rec_time(rec, T0);
    p = ms_put_varint(p, ((uint64_t)MS_CTL_FILE << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, 3);
    seen s;
    expect_corrupt(read_records(5, rec, (size_t)(p - rec), &s, msg, sizeof msg), msg, "runs past its block");
}

Test(file_records, rejected_before_version_5)
{
    char msg[512];
    for (uint32_t v = 2; v < 5; v++)
        expect_corrupt(read_raw(v, 0, 1, 4, "a.nc", 4, msg, sizeof msg), msg,
                       "file record in a log of format version < 5");
}
