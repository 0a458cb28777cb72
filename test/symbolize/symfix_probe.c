/*
 * Fixture for test/unit/test_symbolize.c: records call sites the way the
 * preload library does. symfix_probe(tag) finds the object that holds its
 * return address with dl_iterate_phdr (path, GNU build-id, load base) and
 * prints one line:
 *     site <tag> <path> <build-id hex or -> <base hex> <address hex>
 * symfix_report_addr does the same for any address (kind "func": a
 * function's entry).
 */
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symfix.h"

struct find {
    uintptr_t addr;
    char path[4096];
    char build_id[2 * 64 + 1];
    uintptr_t base;
    int found;
};

static void read_build_id(const struct dl_phdr_info *info, const ElfW(Phdr) *ph, char *hex)
{
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
        const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
        const unsigned char *name = p + sizeof *n;
        const unsigned char *desc = name + ((n->n_namesz + 3) & ~3u);
        if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
            n->n_descsz <= 64) {
            for (unsigned i = 0; i < n->n_descsz; i++)
                sprintf(hex + 2 * i, "%02x", desc[i]);
            return;
        }
        p = desc + ((n->n_descsz + 3) & ~3u);
    }
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct find *f = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_LOAD || f->addr < lo || f->addr >= lo + ph->p_memsz)
            continue;
        f->found = 1;
        f->base = info->dlpi_addr;
        if (info->dlpi_name && info->dlpi_name[0]) {
            snprintf(f->path, sizeof f->path, "%s", info->dlpi_name);
        } else {
            /* The main program has no name in the list. */
            ssize_t n = readlink("/proc/self/exe", f->path, sizeof f->path - 1);
            f->path[n > 0 ? n : 0] = '\0';
        }
        strcpy(f->build_id, "-");
        for (int j = 0; j < info->dlpi_phnum; j++)
            if (info->dlpi_phdr[j].p_type == PT_NOTE && strcmp(f->build_id, "-") == 0)
                read_build_id(info, &info->dlpi_phdr[j], f->build_id);
        return 1;
    }
    return 0;
}

void symfix_report_addr(const char *kind, const char *tag, const void *addr)
{
    struct find f = {.addr = (uintptr_t)addr};
    dl_iterate_phdr(visit, &f);
    if (!f.found)
        printf("%s %s ? - 0 %lx\n", kind, tag, (unsigned long)f.addr);
    else
        printf("%s %s %s %s %lx %lx\n", kind, tag, f.path, f.build_id, (unsigned long)f.base,
               (unsigned long)f.addr);
    fflush(stdout);
}

__attribute__((noinline)) void symfix_probe(const char *tag)
{
    symfix_report_addr("site", tag, __builtin_return_address(0));
}
