/* Fixture program (a PIE executable) for test/unit/test_symbolize.c: calls
 * every site of itself and its libraries; symfix_probe prints each.
 *
 * Markers on the lines that call the probe, read by the test:
 *   SITE:<tag>      the site
 *   FUNC:<name>     the function the symbolizer must report (to the end of
 *                   the comment, or up to the next marker)
 *   NODEBUG:<name>  the function reported without debug information, when
 *                   it differs (an inlined function is then its caller)
 *   LOCAL           the function is not exported: a stripped copy has no
 *                   name for it */
#include "symfix.h"

__attribute__((always_inline)) static inline void inlined_site(void)
{
    symfix_probe("c_inline"); /* SITE:c_inline FUNC:inlined_site NODEBUG:symfix_exe_site LOCAL */
}

__attribute__((noinline)) void symfix_exe_site(void)
{
    symfix_probe("c_exe"); /* SITE:c_exe FUNC:symfix_exe_site LOCAL */
    inlined_site();
}

int main(void)
{
    symfix_report_addr("func", "symfix_exe_site", (const void *)symfix_exe_site);
    symfix_exe_site();
    symfix_lib_site();
    symfix_c_trailing_();
    symfix_cxx_sites();
#ifdef SYMFIX_FORTRAN
    __symfix_mod_MOD_fsite();
    fplain_();
#endif
    return 0;
}
