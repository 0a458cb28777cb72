/*
 * The header block of a log (docs/FORMAT.md "The header block"): the file
 * header, the clock description and the metadata strings; and the log
 * clock the header sets up, which clock blocks and the end record refine.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "log_reader_int.h"

/* ---- the log clock ---- */

/* A later pair of readings of both clocks fixes the rate between them. */
void ms_rd_clock_pair(ms_reader *r, uint64_t ticks, uint64_t mono_ns)
{
    if (!r->ticks || ticks <= r->t0 || mono_ns <= r->ns0)
        return;
    /* Too short a span says little about the rate. */
    if (mono_ns - r->ns0 < 1000000u)
        return;
    r->ns_per_tick = (double)(mono_ns - r->ns0) / (double)(ticks - r->t0);
}

/* The end record with its log-clock times in CLOCK_MONOTONIC ns. */
ms_end_record ms_rd_end_in_ns(const ms_reader *r, const ms_end_record *e)
{
    ms_end_record n = *e;
    if (n.finalize_start_ns)
        n.finalize_start_ns = to_ns(r, n.finalize_start_ns);
    n.end_ticks = n.end_ns;
    return n;
}

/* ---- the header block ---- */

static const char **meta_slot(ms_log_meta *m, const char *key, size_t klen)
{
    static const struct { const char *key; size_t off; } keys[] = {
        {"host", offsetof(ms_log_meta, host)},
        {"mpi_library", offsetof(ms_log_meta, mpi_library)},
        {"argv0", offsetof(ms_log_meta, argv0)},
        {"run_dir", offsetof(ms_log_meta, run_dir)},
        {"clock", offsetof(ms_log_meta, clock)},
        {"run", offsetof(ms_log_meta, run_id)},
        {"spawned_by", offsetof(ms_log_meta, spawned_by)},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].key) == klen && memcmp(keys[i].key, key, klen) == 0)
            return (const char **)((char *)m + keys[i].off);
    return NULL;
}

ms_read_status ms_rd_parse_header(ms_reader *r, const uint8_t *p, size_t len)
{
    ms_file_header h;
    if (len < 16 || memcmp(p, MS_FILE_MAGIC, 8) != 0)
        return ms_rd_fail(r, MS_READ_CORRUPT, r->frame_off,
                          "not an mpiscope log (bad file magic in the header block at byte offset %" PRIu64 ")",
                          r->frame_off);
    uint32_t version, endian;
    memcpy(&version, p + 8, 4);
    memcpy(&endian, p + 12, 4);
    if (endian != MS_ENDIAN_MARK) {
        if (endian == 0x04030201u)
            return ms_rd_fail(r, MS_READ_UNSUPPORTED, r->frame_off,
                              "log written with the other byte order (header block at byte offset %" PRIu64
                              "); this reader reads little-endian logs",
                              r->frame_off);
        return ms_rd_corrupt_at(r, "bad endian mark in the header block");
    }
    if (version == 0)
        return ms_rd_corrupt_at(r, "format version 0 in the header block");
    if (version > MS_FORMAT_VERSION)
        return ms_rd_fail(r, MS_READ_UNSUPPORTED, r->frame_off,
                          "format version %" PRIu32 " (header block at byte offset %" PRIu64
                          ") is newer than this reader supports (version %u); use a newer mpiscope-merge",
                          version, r->frame_off, MS_FORMAT_VERSION);
    ms_clock_info clock = {.kind = MS_CLOCK_NS, .ticks_per_ns = 1.0};
    size_t fixed = sizeof h + (version >= 2 ? sizeof clock : 0);
    if (len < fixed)
        return ms_rd_corrupt_at(r, "header block too short");
    memcpy(&h, p, sizeof h);
    if (version >= 2) {
        memcpy(&clock, p + sizeof h, sizeof clock);
        if ((clock.kind != MS_CLOCK_NS && clock.kind != MS_CLOCK_TSC) || clock.reserved != 0 ||
            !(clock.ticks_per_ns > 1e-3 && clock.ticks_per_ns < 1e3) || clock.ticks_ref > MS_RD_MAX_TIME)
            return ms_rd_corrupt_at(r, "bad clock description in the header block");
    } else {
        clock.ticks_ref = h.clock_ref_ns;
    }
    if (h.size < 1 || h.rank < 0 || h.rank >= h.size)
        return ms_rd_corrupt_at(r, "rank or size out of range in the header block");
    if (h.mode != MS_MODE_TRACE && h.mode != MS_MODE_SUMMARY)
        return ms_rd_corrupt_at(r, "unknown mode in the header block");
    if (h.clock_ref_ns > MS_RD_MAX_TIME || h.init_start_ns > MS_RD_MAX_TIME || h.init_end_ns > MS_RD_MAX_TIME)
        return ms_rd_corrupt_at(r, "time out of range in the header block");
    size_t rest = len - fixed;
    if (h.nstrings > rest / 4)
        return ms_rd_corrupt_at(r, "metadata string count exceeds the header block");

    /* Copy the strings, each followed by a terminator. */
    char *buf = malloc(rest + h.nstrings + 1);
    if (!buf)
        return ms_rd_nomem(r);
    r->meta_buf = buf;
    memset(&r->meta, 0, sizeof r->meta);
    r->meta.host = r->meta.mpi_library = r->meta.argv0 = r->meta.run_dir = r->meta.clock = "";
    r->meta.run_id = r->meta.spawned_by = "";
    const uint8_t *s = p + fixed, *end = p + len;
    char *dst = buf;
    for (uint32_t i = 0; i < h.nstrings; i++) {
        uint32_t sl;
        if ((size_t)(end - s) < 4)
            return ms_rd_corrupt_at(r, "metadata string runs past the header block");
        memcpy(&sl, s, 4);
        s += 4;
        if (sl > (size_t)(end - s))
            return ms_rd_corrupt_at(r, "metadata string runs past the header block");
        memcpy(dst, s, sl);
        dst[sl] = '\0';
        const char *eq = memchr(dst, '=', sl);
        if (eq) {
            const char **slot = meta_slot(&r->meta, dst, (size_t)(eq - dst));
            if (slot)
                *slot = eq + 1;
        }
        s += sl;
        dst += sl + 1;
    }
    if (s != end)
        return ms_rd_corrupt_at(r, "unexpected bytes after the metadata strings");

    r->end_size = version >= 2 ? sizeof(ms_end_record) : MS_END_RECORD_V1_SIZE;
    r->version = version;
    if (r->has_end_hint && r->hint_size != r->end_size)
        r->has_end_hint = 0;
    r->ticks = clock.kind == MS_CLOCK_TSC;
    r->t0 = clock.ticks_ref;
    r->ns0 = h.clock_ref_ns;
    r->ns_per_tick = 1.0 / clock.ticks_per_ns;
    if (r->has_end_hint && r->end_size == sizeof(ms_end_record)) {
        ms_rd_clock_pair(r, r->end_hint.end_ticks, r->end_hint.end_ns);
        r->rate_final = 1;
    }
    /* Consumers see every time in CLOCK_MONOTONIC ns. */
    h.init_start_ns = to_ns(r, h.init_start_ns);
    h.init_end_ns = to_ns(r, h.init_end_ns);
    r->meta.has_end_hint = r->has_end_hint;
    if (r->has_end_hint)
        r->meta.end_hint = ms_rd_end_in_ns(r, &r->end_hint);
    if (r->world) {
        /* One of several worlds read as one run (worlds.h): its ranks stay
         * in its range. */
        if (h.rank >= r->world->size)
            return ms_rd_corrupt_at(r, "rank outside its world (the size its lowest rank's log gives)");
        h.rank += r->world->offset;
        h.size = ms_worlds_ranks();
    }
    r->meta.header = h;
    r->has_meta = 1;
    return MS_READ_OK;
}
