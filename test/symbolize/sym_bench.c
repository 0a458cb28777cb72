/*
 * Lookup rate of the symbolizer on a real binary:
 *     sym_bench FILE [ADDRESSES]
 * Spreads ADDRESSES (default 20000) return addresses evenly over FILE's
 * executable segments, registers FILE at a load base as a rank would, and
 * times: the first lookup (opening the file and its debug information), one
 * pass over all addresses (uncached) and ten more (cached).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../../analysis/symbolize/symbolize.h"

#define BASE 0x7f1234500000ull

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Executable segments [lo, hi) of the file, at most 8. */
static int exec_segments(const char *path, uint64_t *lo, uint64_t *hi)
{
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    size_t nph = 0;
    int n = 0;
    if (elf && elf_getphdrnum(elf, &nph) == 0)
        for (size_t i = 0; i < nph && n < 8; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
                lo[n] = ph.p_vaddr;
                hi[n] = ph.p_vaddr + ph.p_memsz;
                n++;
            }
        }
    elf_end(elf);
    close(fd);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [ADDRESSES]\n", argv[0]);
        return 1;
    }
    size_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 20000;
    uint64_t lo[8], hi[8], total = 0;
    int nseg = exec_segments(argv[1], lo, hi);
    if (nseg <= 0 || n == 0) {
        fprintf(stderr, "%s: no executable segment\n", argv[1]);
        return 1;
    }
    for (int i = 0; i < nseg; i++)
        total += hi[i] - lo[i];
    uint64_t *addrs = malloc(n * sizeof *addrs);
    if (!addrs)
        return 1;
    for (size_t k = 0; k < n; k++) {
        uint64_t at = total * k / n + 1, seg = 0;
        while (at >= hi[seg] - lo[seg]) {
            at -= hi[seg] - lo[seg];
            seg++;
        }
        addrs[k] = BASE + lo[seg] + at;
    }

    ms_symbolizer *s = ms_sym_new();
    int o = ms_sym_add_object(s, argv[1], NULL, 0, BASE);
    ms_sym_result r;
    double t0 = now();
    ms_sym_lookup(s, o, BASE + lo[0] + 1, &r);
    double t1 = now();
    size_t dbg = 0, sym = 0;
    for (size_t k = 0; k < n; k++) {
        ms_sym_lookup(s, o, addrs[k], &r);
        dbg += r.has_debug_info;
        sym += r.has_symbol;
    }
    double t2 = now();
    for (int rep = 0; rep < 10; rep++)
        for (size_t k = 0; k < n; k++)
            ms_sym_lookup(s, o, addrs[k], &r);
    double t3 = now();
    printf("%s: %zu addresses over %llu bytes of code; %zu with file:line, %zu with a function\n", argv[1], n,
           (unsigned long long)total, dbg, sym);
    printf("  open + first lookup: %.1f ms\n", (t1 - t0) * 1e3);
    printf("  uncached: %.0f lookups/s (%.2f us each)\n", (double)n / (t2 - t1), (t2 - t1) / (double)n * 1e6);
    printf("  cached:   %.0f lookups/s (%.3f us each)\n", 10.0 * (double)n / (t3 - t2),
           (t3 - t2) / (10.0 * (double)n) * 1e6);
    ms_sym_free(s);
    free(addrs);
    return 0;
}
