// Fixture shared library (C++): names that need demangling. Site markers:
// see symfix_main.c.
#include "symfix.h"

namespace symfix {

struct Widget {
    int poke(int n);
};

__attribute__((noinline)) int Widget::poke(int n)
{
    symfix_probe("cxx_member"); // SITE:cxx_member FUNC:symfix::Widget::poke(int)
    return n + 1;
}

template <typename T> __attribute__((noinline)) T twice(T v)
{
    symfix_probe("cxx_template"); // SITE:cxx_template FUNC:int symfix::twice<int>(int)
    return v + v;
}

} // namespace symfix

extern "C" void symfix_cxx_sites(void)
{
    symfix::Widget w;
    volatile int r = w.poke(1);
    r = symfix::twice<int>(r);
    (void)r;
}
