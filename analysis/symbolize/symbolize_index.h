/*
 * Address indexes for the symbolizer (symbolize.h), built once per object
 * (or per compilation unit) so that a lookup is a binary search rather than
 * libdwfl's scans: dwfl_module_addrinfo walks the whole symbol table and
 * dwarf_getscopes the whole CU on every call.
 */
#ifndef MPISCOPE_SYMBOLIZE_INDEX_H
#define MPISCOPE_SYMBOLIZE_INDEX_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdint.h>

#include "../read/idmap.h"

/* The function symbols of a module (symbol table, or dynamic symbol table
 * when there is none), by address. */
typedef struct ms_symidx {
    struct ms_symidx_ent *ents;
    size_t n;
} ms_symidx;

/* Returns 0, or -1 when out of memory (the index is then empty). */
int ms_symidx_build(ms_symidx *x, Dwfl_Module *mod);
void ms_symidx_free(ms_symidx *x);
/* The function symbol containing pc (one whose size covers it, or a
 * sizeless one in the same section with no other symbol between), with
 * *start its address; NULL when none. The name lives as long as the
 * module. */
const char *ms_symidx_find(const ms_symidx *x, uint64_t pc, uint64_t *start);

/* The functions (subprograms and inlined subroutines) of each compilation
 * unit looked at, with their address ranges and nesting depth. */
typedef struct ms_funcidx {
    ms_idmap cus;              /* CU DIE offset -> index into units */
    struct ms_funcidx_cu *units;
    size_t n, cap;
} ms_funcidx;

void ms_funcidx_init(ms_funcidx *x);
void ms_funcidx_free(ms_funcidx *x);
/* The name of the innermost function around pc (a CU-relative DWARF
 * address) in `cu`: its linkage name when it has one, else its name; NULL
 * when none. Indexes the CU on its first use. */
const char *ms_funcidx_find(ms_funcidx *x, Dwarf_Die *cu, Dwarf_Addr pc);

#endif
