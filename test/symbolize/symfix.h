/* Fixture interface shared by the symbolizer's fixture program and its
 * libraries (see symfix_probe.c). */
#ifndef SYMFIX_H
#define SYMFIX_H

#ifdef __cplusplus
extern "C" {
#endif

void symfix_probe(const char *tag);
void symfix_report_addr(const char *kind, const char *tag, const void *addr);

/* libsymfix.so (C) */
void symfix_lib_site(void);
void symfix_c_trailing_(void);
/* libsymfix_cxx.so (C++) */
void symfix_cxx_sites(void);
/* libsymfix_f.so (Fortran), when built */
void __symfix_mod_MOD_fsite(void);
void fplain_(void);

#ifdef __cplusplus
}
#endif

#endif
