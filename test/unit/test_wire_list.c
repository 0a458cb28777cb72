/* The MPI merge's list of logs on the wire (analysis/reduce/wire_list.h,
 * docs/MERGE_MPI.md "The list"): its documented bytes, the round trip, and
 * every damaged copy refused with a reason. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/partial_pack.h"
#include "../../analysis/reduce/wire_list.h"

static const char *const names[] = {"rank-0.zst", "rank-1.zst", "r\xc3\xa9sum\xc3\xa9-2.zst"};
static const int32_t owners[] = {1, 0, 2};

/* A list of the three names above, read by processes owners[]. */
static void packed(ms_pbuf *b)
{
    ms_partial p;
    ms_partial_init(&p);
    cr_assert_eq(ms_partial_files(&p, "/logs", names, 3), 0);
    cr_assert_eq(ms_wire_put_list(b, &p, owners), 0);
    ms_partial_free(&p);
}

/* ms_wire_get_list of buf[0..n) for 3 processes; its status, err set. */
static int unpacked(const void *buf, size_t n, ms_partial *p, int32_t **owner, size_t *nlisted, char *err,
                    size_t errlen)
{
    ms_partial_init(p);
    err[0] = '\0';
    return ms_wire_get_list(buf, n, 3, "/logs", p, owner, nlisted, err, errlen);
}

Test(wire_list, the_bytes_are_the_documented_little_endian_ones)
{
    ms_pbuf b = {0};
    packed(&b);
    static const unsigned char head[] = {'M', 'S', 'L', 'S', MS_WIRE_VERSION, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                                         1, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 'r', 'a', 'n', 'k', '-', '0'};
    cr_assert_geq(b.n, sizeof head);
    cr_expect_eq(memcmp(b.p, head, sizeof head), 0, "the list's first bytes");
    cr_expect_eq(b.n, 16 + 3 * (4 + 8) + 10 + 10 + 14);
    ms_pbuf_free(&b);
}

Test(wire_list, every_log_and_owner_survives_the_round_trip)
{
    ms_pbuf b = {0};
    packed(&b);
    ms_partial p;
    int32_t *owner;
    size_t nlisted;
    char err[256];
    cr_assert_eq(unpacked(b.p, b.n, &p, &owner, &nlisted, err, sizeof err), 0, "%s", err);
    cr_assert_eq(p.nfiles, 3);
    cr_expect_eq(nlisted, 3);
    for (size_t i = 0; i < 3; i++) {
        cr_expect_str_eq(p.files[i].base, names[i]);
        char path[64];
        snprintf(path, sizeof path, "/logs/%s", names[i]);
        cr_expect_str_eq(p.files[i].path, path);
        cr_expect_eq(owner[i], owners[i]);
    }
    free(owner);
    ms_partial_free(&p);
    ms_pbuf_free(&b);
}

/* Refused (-2) with a reason containing `why`, nothing listed. */
static void refused(const unsigned char *buf, size_t n, const char *why)
{
    ms_partial p;
    int32_t *owner = NULL;
    size_t nlisted = 99;
    char err[256];
    cr_expect_eq(unpacked(buf, n, &p, &owner, &nlisted, err, sizeof err), -2, "%zu bytes, wanted: %s", n, why);
    cr_expect(strstr(err, why) != NULL, "\"%s\" says \"%s\"", err, why);
    cr_expect_eq(nlisted, 0);
    cr_expect_null(owner);
    cr_expect_eq(p.nfiles, 0);
    ms_partial_free(&p);
}

Test(wire_list, damaged_lists_are_refused)
{
    ms_pbuf b = {0};
    packed(&b);
    unsigned char *c = malloc(b.n + 1);
    cr_assert_not_null(c);
    /* Cut anywhere. */
    for (size_t n = 0; n < b.n; n++)
        refused(b.p, n, n < 8 ? "not a list" : "a list of logs ");
    /* Another version, named with this one. */
    memcpy(c, b.p, b.n);
    c[4] = 99;
    char want[128];
    snprintf(want, sizeof want, "version 99; this program reads version %u", MS_WIRE_VERSION);
    refused(c, b.n, want);
    /* A count the bytes cannot hold. */
    memcpy(c, b.p, b.n);
    c[8] = 6;   /* 6 x 12 bytes at least: more than the 70 after the count */
    refused(c, b.n, "more logs than its bytes can hold");
    /* An owner beyond the processes, or below 0. */
    memcpy(c, b.p, b.n);
    c[16] = 3;
    refused(c, b.n, "log 0 is read by no process");
    c[16] = 0xff, c[17] = 0xff, c[18] = 0xff, c[19] = 0xff;
    refused(c, b.n, "log 0 is read by no process");
    /* A name that is not a file's. */
    memcpy(c, b.p, b.n);
    c[28 + 4] = '/';
    refused(c, b.n, "log 0 is not a file name");
    /* Trailing bytes. */
    memcpy(c, b.p, b.n);
    c[b.n] = 0;
    refused(c, b.n + 1, "followed by 1 bytes");
    free(c);
    ms_pbuf_free(&b);
}

/* A list of one log named n; its status when read back. */
static int one_name(const char *n, char *err, size_t errlen)
{
    ms_partial p;
    ms_partial_init(&p);
    const char *v[] = {n};
    cr_assert_eq(ms_partial_files(&p, "/logs", v, 1), 0);
    ms_pbuf b = {0};
    int32_t own = 0;
    cr_assert_eq(ms_wire_put_list(&b, &p, &own), 0);
    ms_partial_free(&p);
    ms_partial q;
    int32_t *owner = NULL;
    size_t nlisted = 0;
    int rc = unpacked(b.p, b.n, &q, &owner, &nlisted, err, errlen);
    free(owner);
    ms_partial_free(&q);
    ms_pbuf_free(&b);
    return rc;
}

Test(wire_list, a_spawned_worlds_log_is_named_in_its_folder_and_nothing_else_is)
{
    char err[256];
    cr_expect_eq(one_name("spawn-1/rank-000000.zst", err, sizeof err), 0, "%s", err);
    cr_expect_eq(one_name("spawn-12/rank-000003.zst", err, sizeof err), 0, "%s", err);
    static const char *const bad[] = {"../rank-0.zst", "spawn-0/rank-0.zst", "spawn-1/", "spawn-1/a/b",
                                      "/etc/rank-0.zst", "spawn-x/rank-0.zst"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(one_name(bad[i], err, sizeof err), -2, "%s taken", bad[i]);
        cr_expect(strstr(err, "not a file name"), "%s: %s", bad[i], err);
    }
}
