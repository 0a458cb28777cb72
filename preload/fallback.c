/* A trace-mode log on a full disk: see fallback.h. */
#include "fallback.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "records.h"
#include "tstate.h"

static ms_sum *follow;                    /* NULL: not started (or no memory) */
static uint8_t gap[MS_MAX_THREADS];       /* folded since the last written block */
static int folded_any;
/* How the writer follows the log (fallback.h): MS_FB_LAZY, not yet;
 * MS_FB_CATCHING, reading back what it wrote, a slice after each write;
 * MS_FB_EAGER, every block as it is written. `followed`: the log's bytes
 * read so far (lazy and catching up). */
static int state;
static uint64_t followed;
static uint64_t follow_below;             /* room below which to start following */
static uint64_t next_check;               /* the log's size at the next look at its room */
#define ROOM_CHECK_BYTES (4u << 20)
/* The log's bytes read back after each write while catching up: about
 * 5 ms of the writer on this machine, which a thread's ring outlasts. */
#define CATCH_UP_SLICE (256u << 10)
static int reserve_dirfd = -1;
static char reserve_name[48];

/* Room kept for the aggregates at the end: a file of MS_FB_RESERVE bytes,
 * allocated now (a file system that cannot allocate ahead keeps none). */
static void reserve_make(int dirfd, const char *name)
{
    /* Not on a disk nearly full already: the reserve would take the room
     * the logs of this and the other ranks need to start. */
    struct statvfs sv;
    if (fstatvfs(dirfd, &sv) != 0 || (uint64_t)sv.f_bavail * sv.f_frsize < 2u * (uint64_t)MS_FB_RESERVE)
        return;
    reserve_dirfd = dup(dirfd);
    if (reserve_dirfd < 0)
        return;
    snprintf(reserve_name, sizeof reserve_name, ".%.*s.reserve", (int)(strlen(name) > 4 ? strlen(name) - 4 : 0),
             name);
    int fd = openat(reserve_dirfd, reserve_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        close(reserve_dirfd);
        reserve_dirfd = -1;
        return;
    }
    if (posix_fallocate(fd, 0, MS_FB_RESERVE) != 0)
        unlinkat(reserve_dirfd, reserve_name, 0), close(reserve_dirfd), reserve_dirfd = -1;
    close(fd);
}

static void reserve_release(void)
{
    if (reserve_dirfd < 0)
        return;
    unlinkat(reserve_dirfd, reserve_name, 0);
    close(reserve_dirfd);
    reserve_dirfd = -1;
}

int ms_fb_init(const ms_sum_clock *clock, uint64_t init_end, size_t block_max, int dirfd, const char *name,
               uint64_t below)
{
    follow = ms_sum_new(clock, init_end, block_max);
    if (!follow || ms_sum_match_requests(follow) != 0) {
        ms_sum_free(follow);
        follow = NULL;
        return -1;
    }
    ms_sum_set_folding(follow, 0);
    memset(gap, 0, sizeof gap);
    folded_any = 0;
    state = MS_FB_LAZY;
    followed = 0;
    follow_below = below;
    next_check = 0;
    reserve_make(dirfd, name);
    return 0;
}

void ms_fb_free(void)
{
    reserve_release();
    ms_sum_free(follow);
    follow = NULL;
}

static int consume_data(void *ctx, uint16_t kind, uint32_t thread, const uint8_t *p, size_t n)
{
    (void)ctx;
    if (kind == MS_BLOCK_DATA)
        ms_sum_consume(follow, thread, p, n);
    return 0;
}

/* Read back the log's data blocks from `followed` on, the frames that
 * start before `to`; once all are read, follow eagerly. A log that cannot
 * be read back leaves nothing to follow: what does not fit is then counted
 * as lost. */
static void catch_up(ms_log *log, uint64_t to)
{
    if (state == MS_FB_EAGER || !follow)
        return;
    if (ms_log_read_back(log, followed, to, consume_data, NULL, &followed) != 0) {
        ms_sum_free(follow);
        follow = NULL;
        state = MS_FB_EAGER;
        return;
    }
    if (followed >= log->bytes_written)
        state = MS_FB_EAGER;
}

/* The room left for the log, seen at most every ROOM_CHECK_BYTES written:
 * free space of its file system, and the file size limit. Not a quota,
 * which only a failed write shows. */
static void check_room(ms_log *log)
{
    if (state != MS_FB_LAZY || log->bytes_written < next_check)
        return;
    next_check = log->bytes_written + ROOM_CHECK_BYTES;
    uint64_t room = UINT64_MAX;
    struct statvfs sv;
    if (fstatvfs(log->fd, &sv) == 0)
        room = (uint64_t)sv.f_bavail * sv.f_frsize;
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        uint64_t left = rl.rlim_cur > log->bytes_written ? rl.rlim_cur - log->bytes_written : 0;
        if (left < room)
            room = left;
    }
    if (room < follow_below)
        state = MS_FB_CATCHING;
}

/* Count (fold) what could not be written; quiet: only count it as lost. */
/* Whether a thread's trace may go on after a gap: the log's file system
 * has MS_FB_RESUME_ROOM free (or says nothing; a write then finds out). */
static int room_to_resume(const ms_log *log)
{
    struct statvfs sv;
    return fstatvfs(log->fd, &sv) != 0 || (uint64_t)sv.f_bavail * sv.f_frsize >= MS_FB_RESUME_ROOM;
}

static uint64_t fold(ms_log *log, uint32_t thread, const uint8_t *p, size_t n, int quiet)
{
    /* What the log holds first: the fold needs every definition. */
    if (!quiet)
        catch_up(log, UINT64_MAX);
    if (quiet || !follow)
        return ms_sum_count_events(p, n);
    folded_any = 1;
    if (thread < MS_MAX_THREADS) {
        if (!gap[thread])
            ms_sum_gap_begin(follow, thread);
        gap[thread] = 1;
    }
    ms_sum_set_folding(follow, 1);
    uint64_t lost = ms_sum_consume(follow, thread, p, n);
    ms_sum_set_folding(follow, 0);
    return lost;
}

static int emit(void *ctx, uint32_t thread, const uint8_t *p, size_t n)
{
    if (ms_log_write_block(ctx, MS_BLOCK_DATA, thread, p, n) == 0)
        return 0;
    return errno ? errno : EIO;
}

uint64_t ms_fb_write(ms_log *log, uint32_t thread, const uint8_t *p, size_t n, int quiet)
{
    if (n == 0)
        return 0;
    if (follow && !quiet)
        check_room(log);
    /* After a gap, the thread's stream goes on from where the folded
     * events end. */
    uint64_t cursor;
    if (thread < MS_MAX_THREADS && gap[thread] && !room_to_resume(log))
        return fold(log, thread, p, n, quiet);
    if (thread < MS_MAX_THREADS && gap[thread] && ms_sum_cursor(follow, thread, &cursor) == 0) {
        /* The definitions folded in the gap first: later events use them. */
        uint8_t rec[MS_VARINT_MAX + 1];
        uint8_t *e = ms_rec_time(rec, cursor);
        if (ms_sum_gap_end(follow, thread, emit, log) != 0 ||
            ms_log_write_block(log, MS_BLOCK_DATA, thread, rec, (size_t)(e - rec)) != 0)
            return fold(log, thread, p, n, quiet);
        gap[thread] = 0;
    }
    size_t off = 0, piece = n;
    while (off < n) {
        size_t len = n - off <= piece ? n - off : ms_sum_records_prefix(p + off, n - off, piece);
        if (len == 0)
            break;
        if (ms_log_write_block(log, MS_BLOCK_DATA, thread, p + off, len) == 0) {
            if (follow && !quiet && state == MS_FB_EAGER)
                ms_sum_consume(follow, thread, p + off, len);
            off += len;
            continue;
        }
        if (!ms_log_no_room(errno) || len <= MS_FB_MIN_BLOCK)
            break;
        piece = len / 2;
    }
    if (off < n)
        return fold(log, thread, p + off, n - off, quiet);
    if (state == MS_FB_CATCHING && !quiet)
        catch_up(log, followed + CATCH_UP_SLICE);
    return 0;
}

int ms_fb_following(void)
{
    return state;
}

int ms_fb_folded(void)
{
    return folded_any;
}

int ms_fb_finish(ms_log *log, uint64_t finalize_start, uint8_t *buf)
{
    /* The reserve goes in any case: the end block needs room too. */
    reserve_release();
    /* Anything folded read the log back first: the follow knows every region. */
    if (!follow || !folded_any)
        return 0;
    ms_sum_set_window_end(follow, finalize_start);
    int rc = ms_sum_write(follow, emit, log, buf);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return 0;
}
