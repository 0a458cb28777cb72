/*
 * Name demangling for the symbolizer (symbolize.h): C++ (Itanium ABI) through
 * libstdc++'s __cxa_demangle, loaded with dlopen on first use so the merge
 * stays a C program, and gfortran's naming rules.
 */
#ifndef MPISCOPE_SYMBOLIZE_DEMANGLE_H
#define MPISCOPE_SYMBOLIZE_DEMANGLE_H

#include <stdbool.h>

/* The demangled form of `name` as a malloc'ed string, or NULL when `name`
 * is not mangled (or is malformed, or libstdc++ is not available for a C++
 * name): the caller keeps the raw name then.
 *   _ZN2ns3fooEi        -> ns::foo(int)
 *   __mymod_MOD_foo     -> mymod::foo      (gfortran module procedure)
 *   foo_                -> foo             (only when `fortran` is true)
 */
char *ms_demangle(const char *name, bool fortran);

/* Whether C++ names can be demangled here (libstdc++ was found). */
bool ms_demangle_cxx_available(void);

#endif
