/* config/probe.sh: the CUPTI headers the collector (cupti/) is built
 * against: every function of its dlopen table and every activity record
 * version it decodes. Compiled only: libcupti is loaded at run time. */
#include "cupti/cu_lib.h"

int main(void)
{
    return (int)(sizeof(cu_lib) + sizeof(CUpti_ActivityKernel10) + sizeof(CUpti_ActivityMemcpy6) +
                 sizeof(CUpti_ActivityMemcpyPtoP4) + sizeof(CUpti_ActivityMemset4) +
                 sizeof(CUpti_ActivityOverhead3)) == 0;
}
