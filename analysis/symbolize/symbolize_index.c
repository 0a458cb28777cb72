/* Address indexes for the symbolizer: see symbolize_index.h. */
#include "symbolize_index.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>

struct ms_symidx_ent {
    uint64_t start, size;
    const char *name;
    int rank; /* binding preference among aliases: lower is better */
};

static int bind_rank(unsigned char info)
{
    switch (GELF_ST_BIND(info)) {
    case STB_GLOBAL:
        return 0;
    case STB_WEAK:
        return 1;
    default:
        return 2;
    }
}

static int cmp_ent(const void *a, const void *b)
{
    const struct ms_symidx_ent *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    return x->size < y->size ? 1 : x->size > y->size ? -1 : 0;
}

int ms_symidx_build(ms_symidx *x, Dwfl_Module *mod)
{
    x->ents = NULL;
    x->n = 0;
    int total = dwfl_module_getsymtab(mod);
    if (total <= 1)
        return 0;
    x->ents = malloc((size_t)total * sizeof *x->ents);
    if (!x->ents)
        return -1;
    for (int i = 1; i < total; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        GElf_Word shndx;
        Elf *elf;
        Dwarf_Addr bias;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf, &bias);
        int type = GELF_ST_TYPE(sym.st_info);
        if (!name || !*name || shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_GNU_IFUNC))
            continue;
        uint64_t size = sym.st_size;
        if (size == 0) {
            /* Sizeless (_init, assembly): it reaches at most to the end of
             * its section (never into .plt), and to the next symbol. */
            GElf_Shdr sh;
            Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
            if (!scn || !gelf_getshdr(scn, &sh) || addr < sh.sh_addr + bias ||
                addr >= sh.sh_addr + bias + sh.sh_size)
                continue;
            size = sh.sh_addr + bias + sh.sh_size - addr;
        }
        x->ents[x->n++] = (struct ms_symidx_ent){
            .start = addr, .size = size, .name = name, .rank = bind_rank(sym.st_info)};
    }
    qsort(x->ents, x->n, sizeof *x->ents, cmp_ent);
    return 0;
}

void ms_symidx_free(ms_symidx *x)
{
    free(x->ents);
    x->ents = NULL;
    x->n = 0;
}

const char *ms_symidx_find(const ms_symidx *x, uint64_t pc, uint64_t *start)
{
    /* The first entry whose start is above pc. */
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->ents[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    /* The closest start at or below pc; among its aliases the preferred
     * binding comes first. The symbol must cover pc (a sizeless one was
     * given the rest of its section); a few earlier ones are tried in case
     * symbols nest. */
    uint64_t top = x->ents[lo - 1].start;
    size_t first = lo - 1;
    while (first > 0 && x->ents[first - 1].start == top)
        first--;
    for (size_t i = first; i < lo; i++)
        if (pc < x->ents[i].start + x->ents[i].size) {
            *start = x->ents[i].start;
            return x->ents[i].name;
        }
    for (size_t i = first, tries = 0; i > 0 && tries < 8; i--, tries++) {
        const struct ms_symidx_ent *e = &x->ents[i - 1];
        if (pc < e->start + e->size) {
            *start = e->start;
            return e->name;
        }
    }
    return NULL;
}

typedef struct func {
    Dwarf_Addr lo, hi;
    int depth;
    Dwarf_Die die;
} func;

struct ms_funcidx_cu {
    func *f;
    size_t n, cap;
};

void ms_funcidx_init(ms_funcidx *x)
{
    ms_idmap_init(&x->cus);
    x->units = NULL;
    x->n = x->cap = 0;
}

void ms_funcidx_free(ms_funcidx *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->units[i].f);
    free(x->units);
    ms_idmap_free(&x->cus);
    ms_funcidx_init(x);
}

static int push(struct ms_funcidx_cu *u, Dwarf_Addr lo, Dwarf_Addr hi, int depth, const Dwarf_Die *die)
{
    if (u->n == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 64;
        func *f = realloc(u->f, cap * sizeof *f);
        if (!f)
            return -1;
        u->f = f;
        u->cap = cap;
    }
    u->f[u->n++] = (func){.lo = lo, .hi = hi, .depth = depth, .die = *die};
    return 0;
}

/* Every function DIE below `parent`, with each of its address ranges. */
static void walk(struct ms_funcidx_cu *u, Dwarf_Die *parent, int depth)
{
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(parent, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        int d = depth;
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
            Dwarf_Addr base, lo, hi;
            ptrdiff_t off = 0;
            while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0)
                if (push(u, lo, hi, depth, &child) != 0)
                    return;
            d = depth + 1;
        }
        if (dwarf_haschildren(&child))
            walk(u, &child, d);
    } while (dwarf_siblingof(&child, &child) == 0);
}

static const char *die_function_name(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name = NULL;
    if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
        dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
        name = dwarf_formstring(&attr);
    if (!name && dwarf_attr_integrate(die, DW_AT_name, &attr))
        name = dwarf_formstring(&attr);
    return name;
}

const char *ms_funcidx_find(ms_funcidx *x, Dwarf_Die *cu, Dwarf_Addr pc)
{
    uint64_t key = dwarf_dieoffset(cu);
    uint32_t ui = ms_idmap_get(&x->cus, key);
    if (ui == MS_IDMAP_NONE) {
        if (x->n == x->cap) {
            size_t cap = x->cap ? 2 * x->cap : 16;
            struct ms_funcidx_cu *u = realloc(x->units, cap * sizeof *u);
            if (!u)
                return NULL;
            x->units = u;
            x->cap = cap;
        }
        if (ms_idmap_put(&x->cus, key, (uint32_t)x->n) != 0)
            return NULL;
        ui = (uint32_t)x->n++;
        x->units[ui] = (struct ms_funcidx_cu){0};
        walk(&x->units[ui], cu, 0);
    }
    const struct ms_funcidx_cu *u = &x->units[ui];
    const func *best = NULL;
    for (size_t i = 0; i < u->n; i++)
        if (pc >= u->f[i].lo && pc < u->f[i].hi && (!best || u->f[i].depth > best->depth))
            best = &u->f[i];
    if (!best)
        return NULL;
    Dwarf_Die die = best->die;
    return die_function_name(&die);
}
