/* The symbolizer's file reader with elfutils (libdwfl): see
 * symbolize_file.h. */
#include "symbolize_file.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "symbolize_index.h"

const bool ms_symfile_reads_debug_info = true;

struct ms_symfile {
    Dwfl *dwfl;                  /* the file reported at bias 0 */
    Dwfl_Module *mod;
    uint64_t low, high;          /* the module's loaded range */
    bool fortran_names;          /* links libgfortran */
    ms_symidx syms;              /* function symbols by address */
    ms_funcidx funcs;            /* DWARF functions by address, per CU */
};

static char *debuginfo_path; /* NULL: libdwfl's default search path */

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

/* Whether the object names libgfortran among its DT_NEEDED libraries. */
static bool links_libgfortran(Dwfl_Module *mod)
{
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    Elf_Scn *scn = NULL;
    while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || sh.sh_entsize == 0)
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
                break;
            const char *lib = dyn.d_tag == DT_NEEDED ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val) : NULL;
            if (lib && strncmp(lib, "libgfortran", 11) == 0)
                return true;
        }
    }
    return false;
}

/* Whether the object defines a gfortran module procedure (__mod_MOD_proc). */
static bool defines_fortran_module_procedure(Dwfl_Module *mod)
{
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
        if (name && sym.st_shndx != SHN_UNDEF && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
            name[0] == '_' && name[1] == '_' && strstr(name, "_MOD_"))
            return true;
    }
    return false;
}

/* Whether names without debug information follow gfortran's conventions:
 * the object links the gfortran run time, or holds module procedures. */
static bool fortran_object(Dwfl_Module *mod)
{
    return links_libgfortran(mod) || defines_fortran_module_procedure(mod);
}

ms_symfile *ms_symfile_open(const char *path, const char *name, const uint8_t *build_id,
                            size_t build_id_len, enum ms_symfile_state *state)
{
    struct stat st;
    *state = MS_SYMFILE_MISSING;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    Dwfl *dwfl = dwfl_begin(&offline_callbacks);
    if (!dwfl)
        return NULL;
    dwfl_report_begin(dwfl);
    /* Bias 0: module addresses are the object's own (link-time) addresses,
     * whatever base each process loaded it at. */
    Dwfl_Module *mod = dwfl_report_elf(dwfl, name, path, -1, 0, false);
    dwfl_report_end(dwfl, NULL, NULL);
    if (!mod) {
        dwfl_end(dwfl);
        return NULL;
    }
    if (build_id_len) {
        const unsigned char *bits = NULL;
        GElf_Addr vaddr;
        int n = dwfl_module_build_id(mod, &bits, &vaddr);
        if (n != (int)build_id_len || memcmp(bits, build_id, build_id_len) != 0) {
            dwfl_end(dwfl);
            *state = MS_SYMFILE_MISMATCH;
            return NULL;
        }
    }
    ms_symfile *f = calloc(1, sizeof *f);
    if (!f) {
        dwfl_end(dwfl);
        return NULL;
    }
    Dwarf_Addr low, high;
    dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL);
    f->dwfl = dwfl;
    f->mod = mod;
    f->low = low;
    f->high = high;
    f->fortran_names = fortran_object(mod);
    ms_funcidx_init(&f->funcs);
    ms_symidx_build(&f->syms, mod); /* empty when out of memory */
    *state = MS_SYMFILE_OPEN;
    return f;
}

void ms_symfile_close(ms_symfile *f)
{
    if (!f)
        return;
    ms_symidx_free(&f->syms);
    ms_funcidx_free(&f->funcs);
    dwfl_end(f->dwfl);
    free(f);
}

static bool is_fortran(int lang)
{
    switch (lang) {
    case DW_LANG_Fortran77:
    case DW_LANG_Fortran90:
    case DW_LANG_Fortran95:
    case DW_LANG_Fortran03:
    case DW_LANG_Fortran08:
        return true;
    default:
        return false;
    }
}

void ms_symfile_resolve(ms_symfile *f, uint64_t pc, ms_symfile_info *out)
{
    memset(out, 0, sizeof *out);
    if (pc < f->low || pc >= f->high) {
        out->outside = true;
        return;
    }
    uint64_t sym_start = 0;
    const char *sym_name = ms_symidx_find(&f->syms, pc, &sym_start);
    if (sym_name) {
        out->has_symbol_start = true;
        out->symbol_start = sym_start;
    }
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(f->mod, pc, &bias);
    const char *dw_name = NULL;
    out->fortran = f->fortran_names;
    if (cu) {
        out->fortran = is_fortran(dwarf_srclang(cu));
        dw_name = ms_funcidx_find(&f->funcs, cu, pc - bias);
        Dwfl_Line *ln = dwfl_module_getsrc(f->mod, pc);
        int line = 0, col = 0;
        const char *file = ln ? dwfl_lineinfo(ln, NULL, &line, &col, NULL, NULL) : NULL;
        if (file && *file && line > 0) {
            out->file = file;
            out->comp_dir = dwfl_line_comp_dir(ln);
            out->line = line;
            out->column = col > 0 ? col : 0;
        }
    }
    out->function = dw_name ? dw_name : sym_name;
}
