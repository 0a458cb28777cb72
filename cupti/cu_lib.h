/*
 * libcupti, loaded with dlopen at run time (DESIGN section 2): the
 * functions the collector calls, typed from the installed CUPTI headers.
 * Searched in $CUDA_HOME/lib64, $CUDA_HOME/extras/CUPTI/lib64, then the
 * same under /usr/local/cuda, then wherever the dynamic loader finds
 * libcupti.so; the library is never linked.
 */
#ifndef MPISCOPE_CU_LIB_H
#define MPISCOPE_CU_LIB_H

#include <cupti.h>

#define CU_FN(name) __typeof__(name) *name
typedef struct cu_lib {
    CU_FN(cuptiSubscribe);
    CU_FN(cuptiUnsubscribe);
    CU_FN(cuptiEnableCallback);
    CU_FN(cuptiEnableDomain);
    CU_FN(cuptiGetCallbackName);
    CU_FN(cuptiActivityEnable);
    CU_FN(cuptiActivityDisable);
    CU_FN(cuptiActivityRegisterCallbacks);
    CU_FN(cuptiActivityFlushAll);
    CU_FN(cuptiActivityGetNextRecord);
    CU_FN(cuptiActivityGetNumDroppedRecords);
    CU_FN(cuptiGetTimestamp);
    CU_FN(cuptiGetResultString);
    CU_FN(cuptiGetVersion);
} cu_lib;
#undef CU_FN

/* The library's functions, loaded once; NULL when it cannot be loaded or
 * lacks one of them (*why says which). Thread-safe. */
__attribute__((visibility("hidden"))) const cu_lib *cu_lib_get(const char **why);

/* The path of the first libcupti.so file the search would try that exists
 * (for NVTX_INJECTION64_PATH), or NULL; without loading anything. */
__attribute__((visibility("hidden"))) const char *cu_lib_path_guess(void);

#endif
