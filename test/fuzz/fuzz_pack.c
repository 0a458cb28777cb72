/* Fuzz target: the input is what process 0 of the MPI merge receives from
 * one process: its packet (per-file results in the wire format,
 * analysis/reduce/partial_pack.h), then the pieces of its wait-state facts
 * (analysis/reduce/wire_facts.h), from the first bytes that do not start a
 * chunk ("MSPK") on; or, when it starts with "MSLS", the list of logs that
 * process 0 broadcasts (analysis/reduce/wire_list.h), as a merge of 4
 * processes receives it. The receiving partial lists as many logs as the
 * first chunk's header says (at most 4096), so that well-formed chunks get
 * past the header. Promises checked for every input:
 *
 *   - the unpackers return 0, -1 (out of memory) or -2 with a message, and
 *     the pieces' 1 at the sender's last piece;
 *   - a packet and pieces taken whole pack again into bytes that unpack,
 *     and those pack into the same bytes (nothing taken that the format
 *     cannot say); a list taken packs again into the very bytes it came as;
 *   - no crash, no read past the input, no leak (ASan, UBSan).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/partial_pack.h"
#include "../../analysis/reduce/wire_list.h"
#include "../unit/facts_pieces.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what, const char *detail)
{
    if (!ok) {
        fprintf(stderr, "fuzz: broken unpacker promise: %s (%s)\n", what, detail ? detail : "");
        abort();
    }
}

/* A partial listing n logs, as process 0 has before the packets come. */
static void listed(ms_partial *p, size_t n)
{
    static char names[4096][24];
    static const char *v[4096];
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "rank-%06zu.zst", i);
        v[i] = names[i];
    }
    ms_partial_init(p);
    check(ms_partial_files(p, "/fuzz", v, n) == 0, "file list", NULL);
}

/* p's files read, tables and call sites as one chunk, then its facts'
 * pieces; 0, or -1 when out of memory. */
static int repack(const ms_partial *p, ms_pbuf *b)
{
    if (ms_partial_pack(p, NULL, 0, b) != 0)
        return -1;
    return facts_pack(p, NULL, 1024, b);
}

/* Where the chunks of data end: at the first bytes that are not a chunk's
 * magic, or a chunk whose length does not fit. */
static size_t chunks_end(const uint8_t *data, size_t size)
{
    size_t off = 0;
    while (size - off >= 20 && memcmp(data + off, "MSPK", 4) == 0) {
        uint64_t len = facts_le64(data + off + 12);
        if (len < 20 || len > size - off)
            return size;
        off += (size_t)len;
    }
    return size - off < 20 ? size : off;
}

/* The chunks, then the pieces; the status of the pieces (1: all taken), or
 * that of the chunks when they were not taken. */
static int unpack_all(ms_partial *p, const uint8_t *data, size_t size, char *err, size_t errlen)
{
    size_t cut = chunks_end(data, size);
    uint32_t flags = 0;
    int rc = ms_partial_unpack(p, data, cut, &flags, err, errlen);
    check(rc == 0 || rc == -1 || rc == -2, "status 0, -1 or -2", NULL);
    if (rc != 0)
        return rc;
    rc = facts_unpack(p, NULL, 0, data + cut, size - cut, NULL, err, errlen);
    check(rc == 0 || rc == 1 || rc == -1 || rc == -2, "pieces: status 0, 1, -1 or -2", NULL);
    return rc;
}

/* A list of logs, as a process other than 0 of 4 receives it. */
static void list_input(const uint8_t *data, size_t size)
{
    ms_partial p;
    ms_partial_init(&p);
    int32_t *owner = NULL;
    size_t nlisted = 0;
    char err[256] = "";
    int rc = ms_wire_get_list(data, size, 4, "/fuzz", &p, &owner, &nlisted, err, sizeof err);
    check(rc == 0 || rc == -1 || rc == -2, "status 0, -1 or -2", NULL);
    check(rc != -2 || (err[0] && nlisted == 0 && !owner), "a refusal says why and lists nothing", NULL);
    if (rc == 0) {
        check(p.nfiles == nlisted, "every log listed", NULL);
        ms_pbuf b = {0};
        if (ms_wire_put_list(&b, &p, owner) == 0)
            check(b.n == size && memcmp(b.p, data, size) == 0, "packed again, the same bytes", NULL);
        ms_pbuf_free(&b);
    }
    free(owner);
    ms_partial_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4 && memcmp(data, "MSLS", 4) == 0) {
        list_input(data, size);
        return 0;
    }
    size_t nfiles = 1;
    if (size >= 28) {
        uint64_t n = 0;
        for (int i = 7; i >= 0; i--)
            n = n << 8 | data[20 + i];
        nfiles = n <= 4096 ? (size_t)n : 1;
    }
    ms_partial p;
    listed(&p, nfiles);
    char err[256] = "";
    int rc = unpack_all(&p, data, size, err, sizeof err);
    check(rc != -2 || err[0], "a refusal says why", NULL);
    if (rc == 1) {
        ms_pbuf b = {0}, b2 = {0};
        if (repack(&p, &b) == 0) {
            ms_partial q;
            listed(&q, nfiles);
            int rc2 = unpack_all(&q, b.p, b.n, err, sizeof err);
            check(rc2 == 1 || rc2 == -1, "packed again, the bytes unpack", err);
            if (rc2 == 1 && repack(&q, &b2) == 0)
                check(b2.n == b.n && memcmp(b.p, b2.p, b.n) == 0, "packed twice, the same bytes", NULL);
            ms_partial_free(&q);
        }
        ms_pbuf_free(&b);
        ms_pbuf_free(&b2);
    }
    ms_partial_free(&p);
    return 0;
}
