/*
 * The debug-information reader behind the symbolizer (symbolize.c): one
 * object file, opened once, asked about link-time addresses. Two builds of
 * it (config.mk's HAVE_DW decides which is linked):
 *   symbolize_dwfl.c  elfutils (libdwfl): symbol tables, DWARF lines and
 *                     functions, build-id checks, separate debug files;
 *   symbolize_nodw.c  without elfutils: an object is checked to exist and
 *                     nothing is resolved, so call sites are reported as
 *                     object+offset (ms_sym_format's third form).
 */
#ifndef MPISCOPE_SYMBOLIZE_FILE_H
#define MPISCOPE_SYMBOLIZE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ms_symfile ms_symfile;

enum ms_symfile_state {
    MS_SYMFILE_OPEN,     /* opened: it can be asked */
    MS_SYMFILE_MISSING,  /* gone, or not a readable ELF file */
    MS_SYMFILE_MISMATCH, /* another build-id than the one recorded */
};

/* Whether this build reads debug information at all (false: nodw). */
extern const bool ms_symfile_reads_debug_info;

/* Opens `path` (`name`: its last component). With build_id_len > 0 the
 * file's build-id must equal build_id. Returns the file when *state is
 * MS_SYMFILE_OPEN, else NULL. */
ms_symfile *ms_symfile_open(const char *path, const char *name, const uint8_t *build_id,
                            size_t build_id_len, enum ms_symfile_state *state);
void ms_symfile_close(ms_symfile *f);

/* What the file says of the instruction at link-time address pc. Strings
 * belong to the file and live until ms_symfile_close. */
typedef struct ms_symfile_info {
    bool outside;              /* pc is outside the object's loaded range */
    const char *function;      /* raw (mangled) name of the innermost
                                  function: DWARF's, else the symbol's */
    bool has_symbol_start;     /* a symbol table entry covers pc ... */
    uint64_t symbol_start;     /* ... starting here */
    const char *file;          /* source file as DWARF names it */
    const char *comp_dir;      /* its compilation directory, or NULL */
    int line, column;          /* 0 when unknown */
    bool fortran;              /* names follow gfortran's conventions */
} ms_symfile_info;

void ms_symfile_resolve(ms_symfile *f, uint64_t pc, ms_symfile_info *out);

#endif
