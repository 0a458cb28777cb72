/* The log reader against logs written by the real writer: exact round
 * trips, and every way a file can be cut short or damaged. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "../../analysis/read/log_reader.h"
#include "synth.h"

#define MAX_SEEN 200000

typedef struct seen_event {
    uint32_t thread;
    char name[128];
    uint64_t start, end;
} seen_event;

typedef struct seen {
    int headers, ends, comms;
    ms_file_header header;
    char host[64], lib[64], argv0[64], run_dir[64], clock[64];
    int has_end_hint;
    ms_end_record end;
    uint32_t regions;
    char region_names[16][128];
    size_t nevents;
    seen_event *events;
    uint64_t comm_id;
    int32_t comm_members[8];
    uint32_t comm_n;
    const ms_reader *reader;
} seen;

static int on_header(void *ctx, const ms_log_meta *m)
{
    seen *s = ctx;
    s->headers++;
    s->header = m->header;
    snprintf(s->host, sizeof s->host, "%s", m->host);
    snprintf(s->lib, sizeof s->lib, "%s", m->mpi_library);
    snprintf(s->argv0, sizeof s->argv0, "%s", m->argv0);
    snprintf(s->run_dir, sizeof s->run_dir, "%s", m->run_dir);
    snprintf(s->clock, sizeof s->clock, "%s", m->clock);
    s->has_end_hint = m->has_end_hint;
    return 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    seen *s = ctx;
    cr_assert_eq(region, s->regions, "region indices are dense and in order");
    if (region < 16)
        snprintf(s->region_names[region], 128, "%.*s", (int)len, name);
    s->regions++;
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    seen *s = ctx;
    if (s->nevents >= MAX_SEEN)
        return 0;
    seen_event *e = &s->events[s->nevents++];
    e->thread = ev->thread;
    size_t len;
    const char *name = ms_reader_region_name(s->reader, ev->region, &len);
    cr_assert_not_null(name);
    snprintf(e->name, sizeof e->name, "%.*s", (int)len, name);
    e->start = ev->start_ns;
    e->end = ev->end_ns;
    return 0;
}

static int on_comm(void *ctx, uint32_t thread, uint64_t id, const int32_t *m, uint32_t n)
{
    seen *s = ctx;
    (void)thread;
    s->comms++;
    s->comm_id = id;
    s->comm_n = n;
    for (uint32_t i = 0; i < n && i < 8; i++)
        s->comm_members[i] = m[i];
    return 0;
}

static int on_end(void *ctx, const ms_end_record *e)
{
    seen *s = ctx;
    s->ends++;
    s->end = *e;
    return 0;
}

static const ms_read_callbacks callbacks = {
    .header = on_header, .region = on_region, .event = on_event, .comm = on_comm, .end = on_end};

static char *dir;
static ms_reader *reader;
static seen got;

static void setup(void)
{
    dir = synth_tmpdir();
    cr_assert_not_null(dir);
    reader = ms_reader_create();
    cr_assert_not_null(reader);
    memset(&got, 0, sizeof got);
    got.events = calloc(MAX_SEEN, sizeof *got.events);
    got.reader = reader;
}

static void teardown(void)
{
    ms_reader_destroy(reader);
    free(got.events);
    synth_rmdir(dir);
    free(dir);
}

static ms_read_status read_log(const char *path, ms_read_result *res)
{
    free(got.events);
    memset(&got, 0, sizeof got);
    got.events = calloc(MAX_SEEN, sizeof *got.events);
    got.reader = reader;
    return ms_reader_read(reader, path, &callbacks, &got, res);
}

static char *path_in(const char *name)
{
    char *p;
    cr_assert(asprintf(&p, "%s/%s", dir, name) > 0);
    return p;
}

#define SEND "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0"
#define RECV "mpi:recv kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0"

/* Two threads, several blocks each, ids reused across blocks. */
static void write_sample(const char *path, int with_end)
{
    synth s;
    cr_assert_eq(synth_open(&s, path, 2, 4), 0);
    synth_time(&s, 0, 5000);
    synth_region(&s, 0, 0, SEND);
    synth_region(&s, 0, 1, RECV);
    synth_event(&s, 0, 0, 5100, 5200);
    synth_event(&s, 0, 1, 5200, 5450);
    int members[] = {3, 1, 2};
    synth_comm(&s, 0, 77, members, 3);
    cr_assert_eq(synth_flush(&s, 0), 0);
    /* Thread 1 defines the same name under another id. */
    synth_time(&s, 1, 6000);
    synth_region(&s, 1, 5, RECV);
    synth_region(&s, 1, 9, "user:phase");
    synth_event(&s, 1, 9, 6000, 9000);
    synth_event(&s, 1, 5, 9000, 9000);
    cr_assert_eq(synth_flush(&s, 1), 0);
    /* The stream of thread 0 continues: no new time record, no new defs. */
    synth_event(&s, 0, 0, 5500, 5600);
    cr_assert_eq(synth_flush(&s, 0), 0);
    cr_assert_eq(synth_close(&s, with_end ? 9500 : SYNTH_NO_END), 0);
}

static const seen_event sample_events[] = {
    {0, SEND, 5100, 5200}, {0, RECV, 5200, 5450}, {1, "user:phase", 6000, 9000},
    {1, RECV, 9000, 9000}, {0, SEND, 5500, 5600},
};

static void check_sample_events(size_t n)
{
    cr_assert_eq(got.nevents, n);
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(got.events[i].thread, sample_events[i].thread, "event %zu", i);
        cr_expect_str_eq(got.events[i].name, sample_events[i].name, "event %zu", i);
        cr_expect_eq(got.events[i].start, sample_events[i].start, "event %zu", i);
        cr_expect_eq(got.events[i].end, sample_events[i].end, "event %zu", i);
    }
}

/* Offsets where the file's frames start, and the file size. */
static size_t frame_starts(const char *path, size_t *starts, size_t max, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    static uint8_t buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    size_t k = 0, off = 0;
    while (off < n && k < max) {
        starts[k++] = off;
        size_t f = ZSTD_findFrameCompressedSize(buf + off, n - off);
        cr_assert(!ZSTD_isError(f));
        off += f;
    }
    *size = n;
    return k;
}

static void flip_byte(const char *path, size_t off, uint8_t mask)
{
    int fd = open(path, O_RDWR);
    cr_assert(fd >= 0);
    uint8_t b;
    cr_assert_eq(pread(fd, &b, 1, (off_t)off), 1);
    b ^= mask;
    cr_assert_eq(pwrite(fd, &b, 1, (off_t)off), 1);
    close(fd);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(p, 1, n, fp), n);
    fclose(fp);
}

TestSuite(log_reader, .init = setup, .fini = teardown);

Test(log_reader, round_trip_is_exact)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_OK, "%s", res.message);
    cr_expect_eq(res.has_header, 1);
    cr_expect_eq(res.has_end, 1);
    cr_expect_eq(res.frames, 5);  /* header, 3 data, end */
    cr_expect_eq(res.events, 5);
    cr_expect_eq(res.threads, 2);
    cr_expect_eq(got.headers, 1);
    cr_expect_eq(got.header.rank, 2);
    cr_expect_eq(got.header.size, 4);
    cr_expect_eq(got.header.pid, 4002);
    cr_expect_eq(got.header.clock_ref_ns, SYNTH_CLOCK_REF);
    cr_expect_eq(got.header.realtime_ref_ns, SYNTH_REALTIME_REF);
    cr_expect_eq(got.header.init_start_ns, 1000);
    cr_expect_eq(got.header.init_end_ns, 2000);
    cr_expect_str_eq(got.host, "node0");
    cr_expect_str_eq(got.lib, "MPICH Version: 4.0.2");
    cr_expect_str_eq(got.argv0, "./app");
    cr_expect_str_eq(got.run_dir, "/tmp/run");
    cr_expect_str_eq(got.clock, "CLOCK_MONOTONIC");
    cr_expect_eq(got.has_end_hint, 1);
    cr_expect_eq(got.regions, 3, "one index per distinct name");
    cr_expect_str_eq(got.region_names[0], SEND);
    cr_expect_str_eq(got.region_names[1], RECV);
    cr_expect_str_eq(got.region_names[2], "user:phase");
    check_sample_events(5);
    cr_expect_eq(got.comms, 1);
    cr_expect_eq(got.comm_id, 77);
    cr_expect_eq(got.comm_n, 3);
    cr_expect_eq(got.comm_members[0], 3);
    cr_expect_eq(got.comm_members[1], 1);
    cr_expect_eq(got.comm_members[2], 2);
    cr_expect_eq(got.ends, 1);
    cr_expect_eq(got.end.finalize_start_ns, 9500);
    cr_expect_eq(got.end.events, 5);
    cr_expect_eq(got.end.nthreads, 2);
    cr_expect_eq(ms_reader_meta(reader)->header.rank, 2);
    free(p);
}

Test(log_reader, reader_is_reusable)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    ms_read_result res;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(read_log(p, &res), MS_READ_OK, "%s", res.message);
        check_sample_events(5);
        cr_expect_eq(ms_reader_region_count(reader), 3);
    }
    free(p);
}

Test(log_reader, missing_end_block_is_truncated)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 0);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_TRUNCATED);
    cr_expect(strstr(res.message, "truncated") != NULL, "%s", res.message);
    cr_expect(strstr(res.message, p) != NULL, "%s", res.message);
    cr_expect_eq(res.has_end, 0);
    cr_expect_eq(got.ends, 0);
    cr_expect_eq(got.has_end_hint, 0);
    check_sample_events(5);
    free(p);
}

Test(log_reader, cut_inside_a_frame_is_truncated_with_its_prefix)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    size_t starts[8], size;
    size_t n = frame_starts(p, starts, 8, &size);
    cr_assert_eq(n, 5);
    /* Cut in the middle of the third data block (frame 3): the header and
     * the first two data blocks are delivered. */
    size_t cut = starts[3] + (starts[4] - starts[3]) / 2;
    cr_assert_eq(truncate(p, (off_t)cut), 0);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_TRUNCATED, "%s", res.message);
    cr_expect(strstr(res.message, "truncated") != NULL, "%s", res.message);
    cr_expect(strstr(res.message, p) != NULL, "%s", res.message);
    cr_expect_eq(res.offset, starts[3]);
    cr_expect_eq(res.frames, 3);
    check_sample_events(4);
    /* Cut at every length inside a frame (from the longest down, as
     * truncate() would extend the file with zeros): always truncated. */
    for (size_t len = starts[2] - 1; len > starts[1]; len -= 3) {
        cr_assert_eq(truncate(p, (off_t)len), 0);
        cr_assert_eq(read_log(p, &res), MS_READ_TRUNCATED, "cut at %zu: %s", len, res.message);
        cr_expect_eq(res.offset, starts[1]);
    }
    free(p);
}

Test(log_reader, cut_inside_the_header_frame)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    for (off_t len = 40; len > 0; len -= 7) {
        cr_assert_eq(truncate(p, len), 0);
        ms_read_result res;
        cr_assert_eq(read_log(p, &res), MS_READ_TRUNCATED, "cut at %ld: %s", (long)len, res.message);
        cr_expect_eq(res.has_header, 0);
        cr_expect_eq(got.headers, 0);
    }
    free(p);
}

Test(log_reader, empty_file_is_truncated)
{
    char *p = path_in("rank-000000.zst");
    write_bytes(p, "", 0);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_TRUNCATED);
    cr_expect(strstr(res.message, "truncated") != NULL, "%s", res.message);
    cr_expect(strstr(res.message, "empty") != NULL, "%s", res.message);
    cr_expect_eq(res.has_header, 0);
    free(p);
}

Test(log_reader, garbage_is_not_an_mpiscope_log)
{
    char *p = path_in("rank-000000.zst");
    const char text[] = "this is a text file, not a log\n";
    write_bytes(p, text, sizeof text - 1);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "not an mpiscope log") != NULL, "%s", res.message);
    cr_expect(strstr(res.message, "byte offset 0") != NULL, "%s", res.message);
    cr_expect(strstr(res.message, p) != NULL, "%s", res.message);
    cr_expect_eq(res.offset, 0);
    cr_expect_eq(got.headers, 0);
    free(p);
}

Test(log_reader, zstd_frame_of_something_else_is_not_an_mpiscope_log)
{
    char *p = path_in("rank-000000.zst");
    char data[64] = "hello, a zstd frame that is not a header block";
    uint8_t frame[256];
    size_t n = ZSTD_compress(frame, sizeof frame, data, sizeof data, 3);
    cr_assert(!ZSTD_isError(n));
    write_bytes(p, frame, n);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "not an mpiscope log") != NULL, "%s", res.message);
    free(p);
}

Test(log_reader, flipped_bit_is_corrupt_at_its_frame)
{
    char *p = path_in("rank-000002.zst");
    size_t starts[8], size;
    write_sample(p, 1);
    size_t n = frame_starts(p, starts, 8, &size);
    cr_assert_eq(n, 5);
    for (size_t f = 0; f < 4; f++) {
        /* Flip one bit in the middle of frame f. */
        cr_assert_eq(unlink(p), 0);
        write_sample(p, 1);
        size_t at = starts[f] + (starts[f + 1] - starts[f]) / 2;
        flip_byte(p, at, 0x10);
        ms_read_result res;
        cr_assert_eq(read_log(p, &res), MS_READ_CORRUPT, "frame %zu: %s", f, res.message);
        cr_expect_eq(res.offset, starts[f], "frame %zu: %s", f, res.message);
        char where[64];
        snprintf(where, sizeof where, "byte offset %zu", starts[f]);
        cr_expect(strstr(res.message, where) != NULL, "%s", res.message);
        cr_expect(strstr(res.message, p) != NULL, "%s", res.message);
    }
    free(p);
}

Test(log_reader, a_bit_flip_is_never_silently_wrong)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    size_t starts[8], size;
    frame_starts(p, starts, 8, &size);
    for (size_t at = 0; at < size; at++) {
        for (int bit = 0; bit < 8; bit += 3) {
            flip_byte(p, at, (uint8_t)(1u << bit));
            ms_read_result res;
            ms_read_status st = read_log(p, &res);
            cr_expect(st == MS_READ_CORRUPT || st == MS_READ_TRUNCATED || st == MS_READ_UNSUPPORTED ||
                          st == MS_READ_OK,
                      "byte %zu bit %d: %s (%s)", at, bit, ms_read_status_str(st), res.message);
            /* Some bits are ignored by zstd decoders (padding, unused
             * header bits): then the content is intact. */
            if (st == MS_READ_OK)
                check_sample_events(5);
            flip_byte(p, at, (uint8_t)(1u << bit));
        }
    }
    free(p);
}

Test(log_reader, appended_bytes_are_corrupt)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    size_t starts[8], size;
    frame_starts(p, starts, 8, &size);
    FILE *fp = fopen(p, "ab");
    fputs("junk", fp);
    fclose(fp);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_CORRUPT, "%s", res.message);
    cr_expect_eq(res.offset, size);
    free(p);
}

static void write_with_header(const char *path, const ms_file_header *h)
{
    synth s;
    cr_assert_eq(synth_open_with(&s, path, h, "node0"), 0);
    synth_time(&s, 0, 5000);
    synth_region(&s, 0, 0, SEND);
    synth_event(&s, 0, 0, 5100, 5200);
    cr_assert_eq(synth_close(&s, 9000), 0);
}

Test(log_reader, newer_version_says_so)
{
    char *p = path_in("rank-000000.zst");
    ms_file_header h;
    synth_header(&h, 0, 1);
    h.version = MS_FORMAT_VERSION + 1;
    write_with_header(p, &h);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_UNSUPPORTED);
    cr_expect(strstr(res.message, "newer") != NULL, "%s", res.message);
    cr_expect(strstr(res.message, p) != NULL, "%s", res.message);
    cr_expect_eq(got.nevents, 0);
    free(p);
}

Test(log_reader, bad_headers_are_corrupt)
{
    char *p = path_in("rank-000000.zst");
    ms_file_header h;
    ms_read_result res;

    synth_header(&h, 0, 1);
    memcpy(h.magic, "NOTMPISC", 8);
    write_with_header(p, &h);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "not an mpiscope log") != NULL, "%s", res.message);
    unlink(p);

    synth_header(&h, 0, 1);
    h.endian = 0x04030201u;
    write_with_header(p, &h);
    cr_expect_eq(read_log(p, &res), MS_READ_UNSUPPORTED, "%s", res.message);
    cr_expect(strstr(res.message, "byte order") != NULL, "%s", res.message);
    unlink(p);

    synth_header(&h, 5, 4);
    write_with_header(p, &h);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT, "%s", res.message);
    unlink(p);

    synth_header(&h, 0, 1);
    h.version = 0;
    write_with_header(p, &h);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT, "%s", res.message);
    free(p);
}

/* A log whose data block holds these raw record bytes. */
static void write_records(const char *path, const uint8_t *rec, size_t n)
{
    ms_log log;
    ms_file_header h;
    synth_header(&h, 0, 2);
    cr_assert_eq(ms_log_open(&log, path, 1 << 16, 1), 0);
    const char *strings[] = {"host=n"};
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, strings, 1), 0);
    cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, 0, rec, n), 0);
    ms_end_record end = {0};
    cr_assert_eq(ms_log_close(&log, &end), 0);
}

static ms_read_status read_records(const uint8_t *rec, size_t n, ms_read_result *res)
{
    char *p = path_in("rank-000000.zst");
    unlink(p);
    write_records(p, rec, n);
    ms_read_status st = read_log(p, res);
    free(p);
    return st;
}

Test(log_reader, bad_records_are_corrupt)
{
    uint8_t b[256], *q;
    ms_read_result res;

    /* An event of a region never defined. */
    q = ms_rec_time(b, 100);
    q = ms_rec_event(q, 3, 0, 5);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "undefined region") != NULL, "%s", res.message);

    /* An event before any time record. */
    q = ms_rec_region(b, 0, "x", 1);
    q = ms_rec_event(q, 0, 0, 5);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* Reserved record types 2 and 3. */
    q = ms_rec_time(b, 100);
    q = ms_put_varint(q, 2);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "reserved") != NULL, "%s", res.message);
    q = ms_rec_time(b, 100);
    q = ms_put_varint(q, 7);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* An unknown control record. */
    q = ms_put_varint(b, (9u << 2) | MS_REC_CONTROL);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* A region name that runs past the block. */
    q = ms_put_varint(b, (MS_CTL_REGION << 2) | MS_REC_CONTROL);
    q = ms_put_varint(q, 0);
    q = ms_put_varint(q, 200);
    memcpy(q, "abc", 3);
    q += 3;
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* A name longer than the format allows. */
    q = ms_put_varint(b, (MS_CTL_REGION << 2) | MS_REC_CONTROL);
    q = ms_put_varint(q, 0);
    q = ms_put_varint(q, MS_MAX_NAME + 1);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* A varint cut at the end of the block. */
    q = ms_rec_time(b, 100);
    *q++ = 0x80;
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* An overlong varint. */
    q = b;
    for (int i = 0; i < 11; i++)
        *q++ = 0xff;
    *q++ = 0;
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* A time past 2^63 - 1, and an event that overflows it. */
    q = ms_rec_time(b, (uint64_t)INT64_MAX + 1);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);
    q = ms_rec_region(b, 0, "x", 1);
    q = ms_rec_time(q, (uint64_t)INT64_MAX - 10);
    q = ms_rec_event(q, 0, 5, 6);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* A communicator larger than the world (size 2), or with a member
     * outside it. */
    int big[3] = {0, 1, 0};
    q = ms_rec_comm(b, 5, big, 3);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);
    int outside[2] = {0, 2};
    q = ms_rec_comm(b, 5, outside, 2);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* A name with a NUL byte. */
    q = ms_rec_region(b, 0, "a\0b", 3);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_CORRUPT);

    /* And the good case with the same helper. */
    q = ms_rec_region(b, 0, "x", 1);
    q = ms_rec_time(q, 100);
    q = ms_rec_event(q, 0, 5, 6);
    cr_expect_eq(read_records(b, (size_t)(q - b), &res), MS_READ_OK, "%s", res.message);
    cr_expect_eq(got.nevents, 1);
    cr_expect_eq(got.events[0].start, 105);
    cr_expect_eq(got.events[0].end, 111);
}

/* Ids in any order and magnitude, redefined, shared between threads. */
Test(log_reader, sparse_and_redefined_region_ids)
{
    char *p = path_in("rank-000000.zst");
    synth s;
    cr_assert_eq(synth_open(&s, p, 0, 1), 0);
    static const uint32_t ids[] = {79, 100, 0, 5000, 4095, 4096, 127, 128, 1u << 31, 63, 64};
    enum { N = sizeof ids / sizeof ids[0] };
    char names[N][32];
    uint64_t t = 100;
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "r%zu", i);
        synth_region(&s, 0, ids[i], names[i]);
        synth_event(&s, 0, ids[i], t, t + 1);
        t += 2;
    }
    /* Every id again, after all were defined; then id 100 names r0. */
    for (size_t i = 0; i < N; i++) {
        synth_event(&s, 0, ids[i], t, t + 1);
        t += 2;
    }
    synth_region(&s, 0, 100, names[0]);
    synth_event(&s, 0, 100, t, t + 1);
    cr_assert_eq(synth_close(&s, t + 10), 0);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_OK, "%s", res.message);
    cr_assert_eq(got.nevents, 2 * N + 1);
    for (size_t i = 0; i < N; i++) {
        cr_expect_str_eq(got.events[i].name, names[i], "id %u", ids[i]);
        cr_expect_str_eq(got.events[N + i].name, names[i], "id %u", ids[i]);
    }
    cr_expect_str_eq(got.events[2 * N].name, names[0]);
    free(p);
}

Test(log_reader, block_order_is_checked)
{
    char *p = path_in("rank-000000.zst");
    ms_log log;
    ms_file_header h;
    synth_header(&h, 0, 1);
    ms_read_result res;
    uint8_t rec[32];
    uint8_t *q = ms_rec_time(rec, 5);

    /* A data block first. */
    cr_assert_eq(ms_log_open(&log, p, 1 << 16, 1), 0);
    cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, 0, rec, (size_t)(q - rec)), 0);
    cr_assert_eq(ms_log_close(&log, NULL), 0);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "not an mpiscope log") != NULL, "%s", res.message);
    unlink(p);

    /* Two header blocks. */
    cr_assert_eq(ms_log_open(&log, p, 1 << 16, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, NULL, 0), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, NULL, 0), 0);
    cr_assert_eq(ms_log_close(&log, NULL), 0);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT);
    unlink(p);

    /* A block after the end block. */
    cr_assert_eq(ms_log_open(&log, p, 1 << 16, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, NULL, 0), 0);
    ms_end_record end = {0};
    cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_END, 0, &end, sizeof end), 0);
    cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, 0, rec, (size_t)(q - rec)), 0);
    cr_assert_eq(ms_log_close(&log, NULL), 0);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT);
    unlink(p);

    /* An unknown block kind, and an end block of the wrong size. */
    cr_assert_eq(ms_log_open(&log, p, 1 << 16, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, NULL, 0), 0);
    cr_assert_eq(ms_log_write_block(&log, 9, 0, rec, (size_t)(q - rec)), 0);
    cr_assert_eq(ms_log_close(&log, NULL), 0);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT);
    unlink(p);
    cr_assert_eq(ms_log_open(&log, p, 1 << 16, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, NULL, 0), 0);
    cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_END, 0, &end, sizeof end - 8), 0);
    cr_assert_eq(ms_log_close(&log, NULL), 0);
    cr_expect_eq(read_log(p, &res), MS_READ_CORRUPT);
    free(p);
}

Test(log_reader, frame_without_checksum_is_corrupt)
{
    char *p = path_in("rank-000000.zst");
    uint8_t block[16 + sizeof(ms_file_header)];
    ms_block_header bh = {MS_BLOCK_MAGIC, MS_BLOCK_HEADER, 0, 0, sizeof(ms_file_header)};
    ms_file_header h;
    synth_header(&h, 0, 1);
    memcpy(block, &bh, 16);
    memcpy(block + 16, &h, sizeof h);
    uint8_t frame[512];
    size_t n = ZSTD_compress(frame, sizeof frame, block, sizeof block, 1);
    cr_assert(!ZSTD_isError(n));
    write_bytes(p, frame, n);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_CORRUPT);
    cr_expect(strstr(res.message, "checksum") != NULL, "%s", res.message);
    free(p);
}

typedef struct stream_check {
    size_t n, disorder;
    uint64_t last_end;
} stream_check;

static int check_stream(void *ctx, const ms_read_event *ev)
{
    stream_check *c = ctx;
    if (c->n++ > 0 && ev->start_ns < c->last_end)
        c->disorder++;
    c->last_end = ev->end_ns;
    return 0;
}

Test(log_reader, large_blocks_stream_through_a_growing_buffer)
{
    char *p = path_in("rank-000001.zst");
    synth s;
    cr_assert_eq(synth_open(&s, p, 1, 2), 0);
    synth_region(&s, 0, 0, "work");
    /* Irregular gaps and durations compress badly: frames of about 1 MiB
     * and more, bigger than the reader's first buffer. */
    uint64_t t = 10000, x = 88172645463325252ull;
    size_t total = 0;
    for (int blk = 0; blk < 3; blk++) {
        for (int i = 0; i < 150000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint64_t start = t + (x & 0xfffff), end = start + ((x >> 20) & 0xfffff);
            synth_event(&s, 0, 0, start, end);
            t = end;
            total++;
        }
        cr_assert_eq(synth_flush(&s, 0), 0);
    }
    cr_assert_eq(synth_close(&s, t + 1), 0);
    struct stat sb;
    cr_assert_eq(stat(p, &sb), 0);
    cr_assert_gt(sb.st_size, 2 << 20);
    ms_read_result res;
    stream_check chk = {0};
    ms_read_callbacks cb = {.event = check_stream};
    cr_assert_eq(ms_reader_read(reader, p, &cb, &chk, &res), MS_READ_OK, "%s", res.message);
    cr_expect_eq(res.events, total);
    cr_expect_eq(chk.n, total);
    cr_expect_eq(chk.disorder, 0);
    cr_expect_eq(chk.last_end, t);
    free(p);
}

Test(log_reader, not_a_regular_file)
{
    char *p = path_in("rank-000000.zst");
    cr_assert_eq(mkfifo(p, 0600), 0);
    ms_read_result res;
    cr_assert_eq(read_log(p, &res), MS_READ_IO);
    cr_expect(strstr(res.message, "regular") != NULL, "%s", res.message);
    unlink(p);
    cr_assert_eq(read_log(p, &res), MS_READ_IO);
    free(p);
}

static int stop_at_second(void *ctx, const ms_read_event *ev)
{
    (void)ev;
    return ++*(int *)ctx == 2;
}

Test(log_reader, callback_can_stop)
{
    char *p = path_in("rank-000002.zst");
    write_sample(p, 1);
    int n = 0;
    ms_read_callbacks cb = {.event = stop_at_second};
    ms_read_result res;
    cr_assert_eq(ms_reader_read(reader, p, &cb, &n, &res), MS_READ_STOPPED);
    cr_expect_eq(n, 2);
    free(p);
}
