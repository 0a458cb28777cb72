/* The merge's memory guard: see mem_guard.h. */
#include "mem_guard.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../read/log_reader.h"
#include "waits_estimate.h"

int ms_mem_parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0.0))
        return -1;
    double unit = 1.0;
    switch (*end) {
    case 'k': case 'K': unit = 1024.0; end++; break;
    case 'm': case 'M': unit = 1024.0 * 1024; end++; break;
    case 'g': case 'G': unit = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': unit = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (unit > 1.0 && (strcasecmp(end, "iB") == 0 || strcasecmp(end, "B") == 0))
        end += strlen(end);
    else if (unit == 1.0 && strcasecmp(end, "B") == 0)
        end++;
    if (*end)
        return -1;
    double bytes = v * unit;
    if (!(bytes < 1.8e19))
        return -1;
    *out = (uint64_t)llround(bytes);
    return 0;
}

/* A number from the first line of a file; 0 when absent or "max". */
static uint64_t file_u64(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[64] = "";
    uint64_t v = 0;
    if (fgets(line, sizeof line, f))
        v = strtoull(line, NULL, 10);
    fclose(f);
    return v;
}

/* MemAvailable of /proc/meminfo, bytes; 0 when absent. */
static uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

/* What the cgroup (v2, else v1) lets this process still take; 0: no limit. */
static uint64_t cgroup_room(void)
{
    uint64_t max = file_u64("/sys/fs/cgroup/memory.max"), cur = file_u64("/sys/fs/cgroup/memory.current");
    if (!max) {
        max = file_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        cur = file_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes");
        if (max >= (UINT64_C(1) << 60))   /* v1's "no limit" */
            max = 0;
    }
    if (!max)
        return 0;
    return max > cur ? max - cur : 1;
}

uint64_t ms_mem_default_limit(void)
{
    uint64_t avail = mem_available(), room = cgroup_room();
    if (room && (!avail || room < avail))
        avail = room;
    return avail / 2;
}

typedef struct count_ctx {
    int seen;
    uint64_t events;
} count_ctx;

static int on_header(void *ctx, const ms_log_meta *m)
{
    count_ctx *c = ctx;
    c->seen = 1;
    if (m->header.mode == MS_MODE_SUMMARY)
        c->events = 0;
    else if (m->has_end_hint)
        c->events = m->end_hint.events;
    else
        c->seen = 0;
    return 1;   /* the header is all that is needed */
}

uint64_t ms_mem_log_events(const char *const *paths, size_t n)
{
    ms_reader *r = ms_reader_create();
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        count_ctx c = {0, 0};
        if (r) {
            const ms_read_callbacks cb = {.header = on_header};
            ms_read_result res;
            ms_reader_read(r, paths[i], &cb, &c, &res);
        }
        uint64_t ev = c.events;
        if (!c.seen) {
            /* Cut short or unreadable: about a byte per event on disk. */
            struct stat st;
            ev = stat(paths[i], &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
        }
        total = total > UINT64_MAX - ev ? UINT64_MAX : total + ev;
    }
    ms_reader_destroy(r);
    return total;
}

/* bytes as "4.4 GiB", "512 MiB". */
static void fmt_bytes(char *buf, size_t cap, uint64_t b)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024.0 && u < 6)
        v /= 1024.0, u++;
    if (u == 0)
        snprintf(buf, cap, "%" PRIu64 " bytes", b);
    else
        snprintf(buf, cap, "%.1f %s", v, units[u]);
}

int ms_mem_guard_exceeds(uint64_t events, uint64_t logs, uint64_t limit, char *why, size_t cap)
{
    uint64_t need = ms_waits_mem_estimate(events, logs);
    if (!limit || need <= limit)
        return 0;
    char a[32], b[32];
    fmt_bytes(a, sizeof a, need);
    fmt_bytes(b, sizeof b, limit);
    snprintf(why, cap, "the wait-state analysis would hold about %s for %.1f M events, over --mem-limit %s", a,
             (double)events / 1e6, b);
    return 1;
}
