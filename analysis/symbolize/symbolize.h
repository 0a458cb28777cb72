/*
 * Call-site symbolization for the merge: (object, run-time address) ->
 * function, source file, line and the text of that line.
 *
 * The preload library records, per process, its load map (for each loaded
 * ELF object: its path, GNU build-id and load base, the dlpi_addr of
 * dl_iterate_phdr) and, per call site, return addresses. The merge registers
 * each (path, build-id, base) with ms_sym_add_object and looks addresses up
 * with ms_sym_lookup. Debug information is read with elfutils (libdwfl), from
 * the object itself or from its separate debug file (.gnu_debuglink or
 * /usr/lib/debug/.build-id).
 *
 * Objects are opened lazily, on their first lookup, once per distinct
 * (path, build-id): the same library loaded at different bases by different
 * ranks shares one open file and one result cache, keyed by the address
 * relative to the base. A lookup never fails for lack of information: what
 * is unknown is left NULL/0 and the flags say why.
 *
 * Names are demangled: C++ (Itanium ABI, through libstdc++'s __cxa_demangle,
 * loaded with dlopen when first needed; the raw name when it is absent),
 * gfortran module procedures (__mod_MOD_proc -> mod::proc), and the trailing
 * underscore of Fortran external names (proc_ -> proc) when the code is known
 * to be Fortran: its debug information says so, or, without debug
 * information, the object links libgfortran or defines a gfortran module
 * procedure.
 *
 * All strings handed out belong to the symbolizer and stay valid until
 * ms_sym_free. The functions are safe to call from several threads (one
 * internal lock).
 */
#ifndef MPISCOPE_SYMBOLIZE_H
#define MPISCOPE_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS_SYM_BUILD_ID_MAX 64   /* longer build-ids are refused */
#define MS_SYM_TEXT_MAX 512      /* longest source text kept, in bytes */

typedef struct ms_symbolizer ms_symbolizer;

typedef struct ms_sym_result {
    const char *function;     /* demangled name; NULL when unknown */
    uint64_t function_offset; /* looked-up address minus the function's
                                 symbol start (0 without a symbol) */
    const char *file;         /* source file (absolute when the debug
                                 information allows); NULL when unknown */
    int line;                 /* 1-based; 0 when unknown */
    int column;               /* 1-based; 0 when unknown */
    const char *source_text;  /* the line's text, white space trimmed at both
                                 ends, at most MS_SYM_TEXT_MAX bytes; NULL
                                 when the file cannot be read */
    const char *object;       /* the object's file name (no directory) */
    const char *object_path;  /* the path as recorded */
    uint64_t offset;          /* address minus the object's base: the address
                                 in the object's own link-time address space,
                                 the one `addr2line -e object` takes */
    bool has_debug_info;      /* file and line come from DWARF */
    bool has_symbol;          /* function is known (DWARF or symbol table) */
    bool object_missing;      /* the file is gone, or is not a readable ELF */
    bool build_id_mismatch;   /* the file on disk has another build-id than
                                 the one recorded: it changed since the run,
                                 so it is not used (only object and offset) */
    bool outside_object;      /* the address is not inside the object's
                                 loaded range (a corrupt or foreign address) */
} ms_sym_result;

/* A new, empty symbolizer; NULL when out of memory. */
ms_symbolizer *ms_sym_new(void);
void ms_sym_free(ms_symbolizer *s);

/* Register a loaded object: its path, the build-id recorded at run time
 * (build_id_len 0 when unknown: then no check is made) and its load base
 * (dlpi_addr; 0 for a non-PIE executable). Cheap: the file is opened on its
 * first lookup. Returns the object's index (>= 0), or -1 on bad arguments
 * or when out of memory. */
int ms_sym_add_object(ms_symbolizer *s, const char *path, const uint8_t *build_id,
                      size_t build_id_len, uint64_t base);

/* Symbolize a return address (what __builtin_return_address or a stack walk
 * gives) of the object `object`. A return address points after its call
 * instruction, possibly at the first instruction of the next source line or
 * of the next function, so function, file and line are those of address - 1;
 * `offset` and `function_offset` are those of the address itself.
 * Returns 0 with *out filled, or -1 (and *out zeroed) when `object` is not
 * an index ms_sym_add_object returned or an argument is NULL. Cached: the
 * second lookup of an (object file, offset) costs a hash probe. */
int ms_sym_lookup(ms_symbolizer *s, int object, uint64_t runtime_addr, ms_sym_result *out);

/* As ms_sym_lookup, for an exact instruction address (a function's entry,
 * a sampled program counter): no address - 1 adjustment. */
int ms_sym_lookup_pc(ms_symbolizer *s, int object, uint64_t runtime_addr, ms_sym_result *out);

/* A one-line description of a result, written to buf (always NUL-terminated
 * when cap > 0); returns the length it needed, as snprintf does:
 *   "func at /src/file.c:42"   with debug information
 *   "func+0x1a in libx.so"     with a symbol only
 *   "libx.so+0x1234"           with neither
 * A missing object or changed object is marked " (missing)" / " (changed)". */
size_t ms_sym_format(const ms_sym_result *r, char *buf, size_t cap);

#endif
