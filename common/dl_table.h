/*
 * A table of functions looked up in a library opened with dlopen (the CUPTI
 * and LIKWID collectors' cu_lib.c and lk_lib.c): each entry names a symbol
 * and where its address goes in the caller's struct of function pointers.
 *
 *   static const ms_dl_sym syms[] = {MS_DL_SYM(my_lib, fn_a), MS_DL_SYM(my_lib, fn_b)};
 *   if (ms_dl_resolve(handle, "libfoo.so", &lib, syms, 2, why, sizeof why) == 0) ...
 */
#ifndef MPISCOPE_DL_TABLE_H
#define MPISCOPE_DL_TABLE_H

#include <stddef.h>

typedef struct ms_dl_sym {
    const char *name;
    size_t offset;   /* of the function pointer in the table */
} ms_dl_sym;

/* The entry of function pointer member f of struct type T. */
#define MS_DL_SYM(T, f) {#f, offsetof(T, f)}

/* Look up every symbol of syms (n entries) in handle and store each address
 * in table at its offset. Returns 0, or -1 with why ("LIB has no SYMBOL")
 * at the first one missing (the table is then incomplete). */
int ms_dl_resolve(void *handle, const char *lib, void *table, const ms_dl_sym *syms, size_t n, char *why,
                  size_t cap);

#endif
