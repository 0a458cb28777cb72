/* config/probe.sh: <likwid.h> with every function of the collector's
 * (likwid/) dlopen table. Compiled only: liblikwid is loaded at run time. */
#include "likwid/lk_lib.h"

int main(void)
{
    return sizeof(lk_lib) == 0;
}
