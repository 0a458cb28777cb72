/* Record files in the merge's private temporary directory: see spill.h. */
#include "spill.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[4096];
static int dir_ok;
static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
/* Bytes of record files in memory now. */
static size_t mem_used;

/* Room for `bytes` more in memory: 1 taken, 0 over the share. */
static int mem_take(size_t bytes)
{
    size_t was = __atomic_fetch_add(&mem_used, bytes, __ATOMIC_RELAXED);
    if (was + bytes <= MS_SPILL_MEMORY && was + bytes >= was)
        return 1;
    __atomic_fetch_sub(&mem_used, bytes, __ATOMIC_RELAXED);
    return 0;
}

static void mem_give(size_t bytes)
{
    __atomic_fetch_sub(&mem_used, bytes, __ATOMIC_RELAXED);
}

static int told;

/* Say once why the analysis's files failed (errno), and what to do. */
static void tell(const char *what)
{
    if (__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
        return;
    const char *t = getenv("TMPDIR");
    fprintf(stderr, "mpiscope-merge: the wait-state analysis's temporary files (%s, under %s): %s; "
            "set TMPDIR to a directory with room, or leave the analysis out (--no-waits)\n", what,
            t && *t ? t : "/tmp", strerror(errno));
}

static void remove_dir(void)
{
    if (dir_ok)
        rmdir(dir);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
static struct sigaction before[sizeof caught / sizeof caught[0]];

/* The directory goes, then the signal does what it did before. */
static void on_signal(int sig)
{
    remove_dir();
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        if (caught[i] == sig)
            sigaction(sig, &before[i], NULL);
    raise(sig);
}

static void make_dir(void)
{
    const char *t = getenv("TMPDIR");
    if (!t || !*t)
        t = "/tmp";
    if (snprintf(dir, sizeof dir, "%s/mpiscope-merge-XXXXXX", t) >= (int)sizeof dir || !mkdtemp(dir)) {
        tell("making a directory");
        return;
    }
    dir_ok = 1;
    atexit(remove_dir);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        /* Only where the signal would end the merge as it is: a handler
         * of the program's own (an MPI runtime's) or an ignored one stays. */
        if (sigaction(caught[i], NULL, &before[i]) != 0 || (before[i].sa_flags & SA_SIGINFO) ||
            before[i].sa_handler != SIG_DFL)
            continue;
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(caught[i], &sa, NULL);
    }
}

const char *ms_spill_dir(void)
{
    pthread_once(&dir_once, make_dir);
    if (!dir_ok) {
        errno = errno ? errno : EACCES;
        return NULL;
    }
    return dir;
}

/* The merge's one file of chunks, unlinked at once; where its next chunk
 * goes. */
static int shared_fd = -1;
static uint64_t shared_end;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

/* The shared file's descriptor (opened on the first call); -1 on error. */
static int open_shared(void)
{
    pthread_mutex_lock(&shared_lock);
    if (shared_fd < 0) {
        const char *d = ms_spill_dir();
        if (d) {
            char path[4200];
            snprintf(path, sizeof path, "%s/spill", d);
            shared_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (shared_fd >= 0)
                unlink(path);
            else
                tell("opening a file");
        }
    }
    int fd = shared_fd;
    pthread_mutex_unlock(&shared_lock);
    return fd;
}

/* Room for chunk k of f (made when new). 0, or -1. */
static int chunk(ms_spill_file *f, size_t k)
{
    while (f->nchunks <= k) {
        if (f->nchunks == f->chunks_cap) {
            size_t c = f->chunks_cap ? f->chunks_cap * 2 : 8;
            uint64_t *v = realloc(f->chunks, c * sizeof *v);
            if (!v)
                return -1;
            f->chunks = v;
            f->chunks_cap = c;
        }
        uint64_t bytes = (uint64_t)MS_SPILL_CHUNK * f->rec;
        pthread_mutex_lock(&shared_lock);
        f->chunks[f->nchunks++] = shared_end;
        shared_end += bytes;
        pthread_mutex_unlock(&shared_lock);
    }
    return 0;
}

void ms_spill_file_init(ms_spill_file *f, size_t rec, size_t cap)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->rec = rec;
    f->cap = cap ? cap : 1;
}

static int write_all(int fd, const unsigned char *p, size_t len, uint64_t off)
{
    while (len) {
        ssize_t k = pwrite(fd, p, len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = ENOSPC;
            tell("writing");
            return -1;
        }
        p += k;
        len -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

/* Records [at, at + n) of f from p, chunk by chunk. 0, or -1. */
static int write_recs(ms_spill_file *f, const unsigned char *p, uint64_t at, size_t n)
{
    while (n) {
        size_t k = (size_t)(at / MS_SPILL_CHUNK), in = (size_t)(at % MS_SPILL_CHUNK);
        size_t m = MS_SPILL_CHUNK - in < n ? MS_SPILL_CHUNK - in : n;
        if (chunk(f, k) != 0 || write_all(f->fd, p, m * f->rec, f->chunks[k] + (uint64_t)in * f->rec) != 0)
            return -1;
        p += m * f->rec;
        at += m;
        n -= m;
    }
    return 0;
}

/* The file to disk: what memory held written, the share given back. */
static int to_disk(ms_spill_file *f)
{
    if ((f->fd = open_shared()) < 0)
        return -1;
    int rc = f->n ? write_recs(f, f->mem, 0, (size_t)f->n) : 0;
    free(f->mem);
    f->mem = NULL;
    mem_give(f->mem_cap * f->rec);
    f->mem_cap = 0;
    return rc;
}

/* Room in memory for n more records; 0 when the file must go to disk. */
static int mem_room(ms_spill_file *f, size_t n)
{
    if (f->n + n <= f->mem_cap)
        return 1;
    size_t cap = f->mem_cap ? f->mem_cap * 2 : 64;
    while (cap < f->n + n)
        cap *= 2;
    if (!mem_take((cap - f->mem_cap) * f->rec))
        return 0;
    unsigned char *m = realloc(f->mem, cap * f->rec);
    if (!m) {
        mem_give((cap - f->mem_cap) * f->rec);
        return 0;
    }
    f->mem = m;
    f->mem_cap = cap;
    return 1;
}

int ms_spill_file_flush(ms_spill_file *f)
{
    int rc = 0;
    if (f->nbuf)
        rc = write_recs(f, f->buf, f->n - f->nbuf, f->nbuf);
    f->nbuf = 0;
    free(f->buf);
    f->buf = NULL;
    return rc;
}

int ms_spill_file_put_n(ms_spill_file *f, const void *r, size_t n)
{
    const unsigned char *p = r;
    if (f->fd < 0) {
        if (mem_room(f, n)) {
            memcpy(f->mem + (size_t)f->n * f->rec, p, n * f->rec);
            f->n += n;
            return 0;
        }
        if (to_disk(f) != 0)
            return -1;
    }
    if (f->nbuf == 0 && n >= f->cap) {
        /* A batch of the buffer's size or more: written as it is. */
        if (write_recs(f, p, f->n, n) != 0)
            return -1;
        f->n += n;
        return 0;
    }
    while (n) {
        if (!f->buf && !(f->buf = malloc(f->cap * f->rec)))
            return -1;
        size_t k = f->cap - f->nbuf < n ? f->cap - f->nbuf : n;
        memcpy(f->buf + f->nbuf * f->rec, p, k * f->rec);
        f->nbuf += k;
        f->n += k;
        p += k * f->rec;
        n -= k;
        if (f->nbuf == f->cap) {
            if (write_recs(f, f->buf, f->n - f->nbuf, f->nbuf) != 0)
                return -1;
            f->nbuf = 0;
        }
    }
    return 0;
}

int ms_spill_file_put(ms_spill_file *f, const void *r)
{
    if (f->fd < 0 && f->n < f->mem_cap) {
        memcpy(f->mem + (size_t)f->n * f->rec, r, f->rec);
        f->n++;
        return 0;
    }
    if (f->buf && f->nbuf + 1 < f->cap) {
        memcpy(f->buf + f->nbuf * f->rec, r, f->rec);
        f->nbuf++;
        f->n++;
        return 0;
    }
    return ms_spill_file_put_n(f, r, 1);
}

void ms_spill_file_free(ms_spill_file *f)
{
    /* The chunks' disk back (the shared file stays open). */
    for (size_t k = 0; f->fd >= 0 && k < f->nchunks; k++)
        fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)f->chunks[k],
                  (off_t)((uint64_t)MS_SPILL_CHUNK * f->rec));
    free(f->chunks);
    f->chunks = NULL;
    f->nchunks = f->chunks_cap = 0;
    free(f->buf);
    free(f->mem);
    mem_give(f->mem_cap * f->rec);
    f->fd = -1;
    f->buf = f->mem = NULL;
    f->n = f->nbuf = f->mem_cap = 0;
}

int ms_spill_read(const ms_spill_file *f, uint64_t at, size_t n, void *out)
{
    if (f->fd < 0) {
        if (at > f->n || n > f->n - at) {
            errno = EIO;
            return -1;
        }
        memcpy(out, f->mem + (size_t)at * f->rec, n * f->rec);
        return 0;
    }
    unsigned char *p = out;
    while (n) {
        size_t k = (size_t)(at / MS_SPILL_CHUNK), in = (size_t)(at % MS_SPILL_CHUNK);
        size_t m = MS_SPILL_CHUNK - in < n ? MS_SPILL_CHUNK - in : n;
        if (k >= f->nchunks) {
            errno = EIO;
            return -1;
        }
        size_t len = m * f->rec;
        uint64_t off = f->chunks[k] + (uint64_t)in * f->rec;
        while (len) {
            ssize_t got = pread(f->fd, p, len, (off_t)off);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                if (got == 0)
                    errno = EIO;
                return -1;
            }
            p += got;
            len -= (size_t)got;
            off += (uint64_t)got;
        }
        at += m;
        n -= m;
    }
    return 0;
}

void ms_spill_reader_init(ms_spill_reader *r, const ms_spill_file *f, uint64_t lo, uint64_t n, size_t blk_cap)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->rec = f->rec;
    r->lo = lo;
    r->n = n;
    r->blk_cap = blk_cap ? blk_cap : 1;
    if (f->fd < 0 && f->mem) {
        /* In memory: the whole range is the block. */
        r->blk = f->mem + (size_t)lo * f->rec;
        r->blk_at = 0;
        r->blk_n = n;
    }
}

void ms_spill_reader_keep_two(ms_spill_reader *r)
{
    r->keep_two = 1;
}

void ms_spill_reader_free(ms_spill_reader *r)
{
    if (r->f && r->f->fd < 0)
        r->blk = NULL;
    free(r->blk);
    free(r->old);
    r->blk = r->old = NULL;
    r->blk_n = r->old_n = 0;
}

const void *ms_spill_load(ms_spill_reader *r, uint64_t i)
{
    if (i >= r->n || r->failed)
        return NULL;
    if (r->f->fd < 0) {
        r->failed = 1;    /* past what the file held when the reader began */
        return NULL;
    }
    if (r->keep_two) {
        /* The block used before becomes the current one, or is replaced. */
        unsigned char *b = r->old;
        uint64_t b_at = r->old_at, b_n = r->old_n;
        r->old = r->blk;
        r->old_at = r->blk_at;
        r->old_n = r->blk_n;
        r->blk = b;
        r->blk_at = b_at;
        r->blk_n = b_n;
        if (i - r->blk_at < r->blk_n)
            return r->blk + (size_t)(i - r->blk_at) * r->rec;
    }
    if (!r->blk && !(r->blk = malloc(r->blk_cap * r->rec))) {
        r->failed = 1;
        return NULL;
    }
    /* Blocks on a grid: a backward scan reads each once, as a forward one. */
    uint64_t at = i - i % r->blk_cap, n = r->n - at < r->blk_cap ? r->n - at : r->blk_cap;
    if (ms_spill_read(r->f, r->lo + at, (size_t)n, r->blk) != 0) {
        r->failed = 1;
        r->blk_n = 0;
        return NULL;
    }
    r->blk_at = at;
    r->blk_n = n;
    return r->blk + (size_t)(i - at) * r->rec;
}
