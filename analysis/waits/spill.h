/*
 * Files of fixed-size records that the wait-state analysis keeps on disk
 * instead of in memory (DESIGN section 6, "Bounded memory"). On disk, every
 * file is a list of chunks of one file of the merge's, in its private
 * temporary directory (made once, mode 0700, under $TMPDIR or /tmp), one
 * descriptor whatever the number of files; that file is unlinked as soon
 * as it is opened: it vanishes with its descriptor on every way out of the
 * merge, a crash or a signal included; the empty directory is removed at
 * exit and on the usual signals. A file freed gives its chunks' disk back.
 *
 * Small files never reach the disk: all of the merge's files together
 * keep up to MS_SPILL_MEMORY bytes in memory, a file going to disk whole
 * once the share would be exceeded.
 *
 * A writer buffers and appends; a reader keeps one block of records and
 * serves them by index, so that scans forward or backward and bisections
 * cost one read per block. A reader made to keep two (the block used last
 * and the one before) costs one read per block also for walks that go
 * back and forth over a block's edge: a backward walk of each stretch
 * while the stretches go forward, a search that probes the record before
 * the block it ends in.
 */
#ifndef MPISCOPE_SPILL_H
#define MPISCOPE_SPILL_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of all record files together kept in memory at most. */
#define MS_SPILL_MEMORY (32u << 20)
/* Records of a chunk on disk. */
#define MS_SPILL_CHUNK 16384u

typedef struct ms_spill_file {
    int fd;                /* -1: in memory (mem), else on disk (chunks) */
    uint64_t *chunks;      /* on disk: where each chunk of MS_SPILL_CHUNK records starts */
    size_t nchunks, chunks_cap;
    size_t rec;            /* bytes per record */
    uint64_t n;            /* records written (buffered ones included) */
    unsigned char *buf;    /* the write buffer (on disk) */
    size_t nbuf, cap;      /* records in it, and its room */
    unsigned char *mem;    /* every record, while in memory */
    size_t mem_cap;        /* records mem has room for (counted in the share) */
} ms_spill_file;

/* An empty file of records of `rec` bytes, with a write buffer of `cap`
 * records. */
void ms_spill_file_init(ms_spill_file *f, size_t rec, size_t cap);
/* 0, or -1 (out of memory, no temporary file, disk full: errno). */
int ms_spill_file_put(ms_spill_file *f, const void *r);
int ms_spill_file_put_n(ms_spill_file *f, const void *r, size_t n);
/* What is buffered to the file; the buffer is freed (a later put makes a
 * new one). 0, or -1. */
int ms_spill_file_flush(ms_spill_file *f);
void ms_spill_file_free(ms_spill_file *f);

/* Records [lo, lo + n) of a flushed file, read a block at a time (in
 * place while the file is in memory). The file must stay where it is. */
typedef struct ms_spill_reader {
    const ms_spill_file *f;
    size_t rec;
    uint64_t lo, n;
    unsigned char *blk;
    uint64_t blk_at, blk_n;   /* the records held: [blk_at, blk_at + blk_n) of the range */
    unsigned char *old;       /* the block used before (keep_two, on disk only) */
    uint64_t old_at, old_n;
    size_t blk_cap;           /* in records, each block */
    int keep_two;
    int failed;
} ms_spill_reader;

void ms_spill_reader_init(ms_spill_reader *r, const ms_spill_file *f, uint64_t lo, uint64_t n, size_t blk_cap);
/* The reader keeps two blocks from now on (twice its memory). */
void ms_spill_reader_keep_two(ms_spill_reader *r);
void ms_spill_reader_free(ms_spill_reader *r);

const void *ms_spill_load(ms_spill_reader *r, uint64_t i);

/* Record i of the range (i < n); NULL on a read error (r->failed set). The
 * pointer holds until the next call. */
static inline const void *ms_spill_get(ms_spill_reader *r, uint64_t i)
{
    if (i - r->blk_at < r->blk_n)
        return r->blk + (size_t)(i - r->blk_at) * r->rec;
    return ms_spill_load(r, i);
}

/* Read n records from index `at` of a flushed file into out. 0, or -1. */
int ms_spill_read(const ms_spill_file *f, uint64_t at, size_t n, void *out);

/* The merge's private temporary directory (made on the first call), or
 * NULL (errno). */
const char *ms_spill_dir(void);

#endif
