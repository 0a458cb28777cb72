/* config/probe.sh: elfutils (libdw, libdwfl, libelf), linked: the merge
 * symbolizes call sites with it (analysis/symbolize/symbolize_dwfl.c). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

static char *path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &path,
};

int main(void)
{
    Dwfl *d = dwfl_begin(&callbacks);
    if (d)
        dwfl_end(d);
    return elf_version(EV_CURRENT) == EV_NONE && DW_LANG_Fortran08 == 0;
}
