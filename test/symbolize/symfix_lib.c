/* Fixture shared library (C). Site markers: see symfix_main.c. */
#include "symfix.h"

/* Not exported: absent from the dynamic symbol table, so a stripped copy
 * has no name for it. */
__attribute__((noinline)) static void lib_hidden(void)
{
    symfix_probe("c_static"); /* SITE:c_static FUNC:lib_hidden LOCAL */
}

void symfix_lib_site(void)
{
    symfix_probe("c_lib"); /* SITE:c_lib FUNC:symfix_lib_site */
    lib_hidden();
}

/* A C name ending in an underscore keeps it (this library is not Fortran). */
void symfix_c_trailing_(void)
{
    symfix_probe("c_trailing"); /* SITE:c_trailing FUNC:symfix_c_trailing_ */
}
