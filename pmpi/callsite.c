/* Call-site capture and the load map: see callsite.h. */
#include "callsite.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

#include "../preload/config.h"
#include "../preload/records.h"

_Atomic int ms_site_mode = MS_SITE_SLOW;

/* Objects recorded so far (under objects_lock), and the binding layers
 * among them (append-only, read without the lock). */
#define MAX_OBJECTS 4096u
#define MAX_BINDINGS 16u
typedef struct { uint64_t base, lo, hi; } object_range;
static object_range objects[MAX_OBJECTS];
static unsigned nobjects;
static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { uint64_t lo, hi; } bindings[MAX_BINDINGS];
static _Atomic unsigned nbindings;

/* Libraries of MPI's own language bindings, which call the C functions on
 * the application's behalf: a site is looked for past them. */
static const char *const binding_libraries[] = {
    "libmpifort.so",    "libmpichfort.so", "libfmpich.so",        "libmpichf90.so",
    "libmpicxx.so",     "libmpichcxx.so",  "libmpi_cxx.so",       "libmpi_mpifh.so",
    "libmpi_usempi.so", "libmpi_usempi_ignore_tkr.so",            "libmpi_usempif08.so",
};

static int is_binding(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof binding_libraries / sizeof binding_libraries[0]; i++) {
        size_t n = strlen(binding_libraries[i]);
        if (strncmp(base, binding_libraries[i], n) == 0 && (base[n] == '\0' || base[n] == '.'))
            return 1;
    }
    return 0;
}

int ms_site_in_binding(uint64_t pc)
{
    unsigned n = atomic_load_explicit(&nbindings, memory_order_acquire);
    for (unsigned i = 0; i < n; i++)
        if (pc - bindings[i].lo < bindings[i].hi - bindings[i].lo)
            return 1;
    return 0;
}

/* ---- the stack walk ---- */

typedef struct site_chain {
    uint64_t key;
    unsigned n;
    uint64_t pc[MS_MAX_SITE_FRAMES];
} site_chain;

/* The last chain walked on this thread: its definition, if the key is new. */
static __thread site_chain last_chain __attribute__((tls_model("initial-exec")));
MS_HIDDEN __thread void *ms_caller __attribute__((tls_model("initial-exec")));

typedef struct walk {
    uint64_t ra;        /* the wrapper's return address */
    unsigned depth;
    unsigned frames;    /* frames seen (bounded) */
    int found;          /* ra's frame reached */
    int passed;         /* a binding frame was passed */
    uint64_t slot;      /* where the first frame past the bindings keeps its
                           address (x86-64: the last binding frame's CFA - 8) */
    site_chain *chain;
} walk;

#define MAX_WALK 64u

static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg)
{
    walk *w = arg;
    if (++w->frames > MAX_WALK)
        return _URC_END_OF_STACK;
    uint64_t ip = (uint64_t)_Unwind_GetIP(ctx);
    if (!w->found) {
        if (ip != w->ra)
            return _URC_NO_REASON;
        w->found = 1;
    }
    if (w->chain->n == 0 && ms_site_in_binding(ip)) {
        w->passed = 1;
        return _URC_NO_REASON;
    }
    /* In the callback of a frame, the CFA is that of the frame it returns
     * from: here the last binding frame's. */
    if (w->chain->n == 0 && w->passed)
        w->slot = (uint64_t)_Unwind_GetCFA(ctx) - sizeof(uint64_t);
    w->chain->pc[w->chain->n++] = ip;
    return w->chain->n >= w->depth ? _URC_END_OF_STACK : _URC_NO_REASON;
}

static uint64_t chain_key(const site_chain *c)
{
    if (c->n == 1)
        return c->pc[0];
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < c->n; i++)
        h = (h ^ c->pc[i]) * 0xff51afd7ed558ccdull, h ^= h >> 29;
    /* Addresses of user space never have the top bit set. */
    return h | (1ull << 63);
}

/*
 * Stepping out of a binding layer at depth 1, without a stack walk per call.
 * For one wrapper call site (this function's return address) and one
 * binding return address, the frames in between have fixed sizes, so the
 * application's return address sits at a fixed offset from this function's
 * frame. The first walk from such a pair finds that offset (the binding
 * frame's CFA - 8 on x86-64, checked against the walk's answer); later calls
 * read the address there, and take a walk again should what they read not
 * be a plausible address outside the bindings. Per thread, so no entry is
 * ever read half written.
 */
#define STEP_CACHE 64u
typedef struct step_entry {
    uint64_t caller, ra;
    int64_t offset;
} step_entry;
static __thread step_entry step_cache[STEP_CACHE] __attribute__((tls_model("initial-exec")));

static step_entry *step_slot(uint64_t caller, uint64_t ra)
{
    return &step_cache[((caller ^ (ra * 0x9e3779b97f4a7c15ull)) >> 40) % STEP_CACHE];
}

__attribute__((noinline)) uint64_t ms_site_slow(void *ra)
{
    unsigned depth = ms_cfg.callsite_depth;
    uint64_t a = (uint64_t)(uintptr_t)ra;
    if (depth == 0 || a == 0)
        return 0;
    if (depth > MS_MAX_SITE_FRAMES)
        depth = MS_MAX_SITE_FRAMES;
    if (depth == 1 && !ms_site_in_binding(a))
        return a;
    site_chain *c = &last_chain;
#if defined(__x86_64__)
    uint64_t fp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    uint64_t caller = (uint64_t)(uintptr_t)__builtin_return_address(0);
    step_entry *e = step_slot(caller, a);
    if (depth == 1 && e->caller == caller && e->ra == a) {
        uint64_t pc = *(const uint64_t *)(uintptr_t)(fp + (uint64_t)e->offset);
        if (pc > 4096 && !ms_site_in_binding(pc)) {
            c->pc[0] = pc;
            c->n = 1;
            c->key = pc;
            return pc;
        }
    }
#endif
    c->n = 0;
    walk w = {.ra = a, .depth = depth, .chain = c};
    _Unwind_Backtrace(walk_frame, &w);
#if defined(__x86_64__)
    if (depth == 1 && c->n == 1 && w.slot && *(const uint64_t *)(uintptr_t)w.slot == c->pc[0])
        *e = (step_entry){.caller = caller, .ra = a, .offset = (int64_t)(w.slot - fp)};
#endif
    if (c->n == 0) {
        /* The walk did not get past the binding layer (no unwind tables):
         * the address in it is still the best answer. */
        c->pc[0] = a;
        c->n = 1;
    }
    c->key = chain_key(c);
    return c->key;
}

unsigned ms_site_frames(uint64_t key, uint64_t *pc)
{
    if (key == 0)
        return 0;
    const site_chain *c = &last_chain;
    if (c->n > 0 && c->key == key) {
        memcpy(pc, c->pc, c->n * sizeof *pc);
        return c->n;
    }
    if (key >> 63)
        return 0;   /* a chain not walked by this thread: cannot happen */
    pc[0] = key;
    return 1;
}

/* ---- the load map ---- */

typedef struct scan {
    ms_thread *t;
    int first;
} scan;

static size_t build_id_of(const struct dl_phdr_info *info, const uint8_t **id)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
            size_t name = (nh->n_namesz + 3u) & ~3u, desc = (nh->n_descsz + 3u) & ~3u;
            const uint8_t *d = p + sizeof *nh + name;
            if (d + nh->n_descsz > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(p + sizeof *nh, "GNU", 4) == 0) {
                *id = d;
                return nh->n_descsz;
            }
            p = d + desc;
        }
    }
    return 0;
}

static int known(uint64_t base, uint64_t lo)
{
    for (unsigned i = 0; i < nobjects; i++)
        if (objects[i].base == base && objects[i].lo == lo)
            return 1;
    return 0;
}

static int record_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    scan *s = arg;
    int first = s->first;
    s->first = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (lo >= hi || known(info->dlpi_addr, lo) || nobjects >= MAX_OBJECTS)
        return 0;
    char exe[MS_MAX_OBJECT_PATH + 1];
    const char *path = info->dlpi_name ? info->dlpi_name : "";
    if (!path[0] && first) {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        path = exe;
    }
    if (!path[0])
        return 0;
    objects[nobjects++] = (object_range){info->dlpi_addr, lo, hi};
    if (is_binding(path)) {
        unsigned nb = atomic_load_explicit(&nbindings, memory_order_relaxed);
        if (nb < MAX_BINDINGS) {
            bindings[nb].lo = lo;
            bindings[nb].hi = hi;
            atomic_store_explicit(&nbindings, nb + 1, memory_order_release);
        }
    }
    const uint8_t *id = NULL;
    size_t idlen = build_id_of(info, &id);
    uint8_t rec[MS_OBJECT_DEF_MAX];
    uint8_t *p = ms_rec_object(rec, info->dlpi_addr, lo, hi, path, strlen(path), id, idlen);
    ms_append(s->t, rec, (size_t)(p - rec));
    return 0;
}

static void rescan(ms_thread *t)
{
    scan s = {.t = t, .first = 1};
    dl_iterate_phdr(record_object, &s);
    atomic_store_explicit(&ms_site_mode,
                          ms_cfg.callsite_depth == 1 && atomic_load(&nbindings) == 0 ? MS_SITE_FAST : MS_SITE_SLOW,
                          memory_order_relaxed);
}

void ms_sites_start(ms_thread *t)
{
    pthread_mutex_lock(&objects_lock);
    if (ms_cfg.callsite_depth > 0)
        rescan(t);
    else
        atomic_store_explicit(&ms_site_mode, MS_SITE_OFF, memory_order_relaxed);
    pthread_mutex_unlock(&objects_lock);
}

static int covered(uint64_t pc)
{
    for (unsigned i = 0; i < nobjects; i++)
        if (pc - objects[i].lo < objects[i].hi - objects[i].lo)
            return 1;
    return 0;
}

void ms_sites_cover(ms_thread *t, const uint64_t *pc, unsigned n)
{
    pthread_mutex_lock(&objects_lock);
    for (unsigned i = 0; i < n; i++) {
        if (!covered(pc[i])) {
            rescan(t);
            break;
        }
    }
    pthread_mutex_unlock(&objects_lock);
}
