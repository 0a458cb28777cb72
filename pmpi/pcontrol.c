/*
 * MPI_Pcontrol as IPM and mpiP users mark regions: MPI_Pcontrol(1, "name")
 * begins and MPI_Pcontrol(-1, "name") ends the user region "name" (the same
 * regions as mpiscope_region_begin/end, preload/user_regions.c). Every call
 * is then passed to PMPI_Pcontrol (or to the next tool's MPI_Pcontrol,
 * stacking.h) with its level and name; other levels are passed through
 * untouched. MPI_Pcontrol itself is not recorded as a call.
 *
 * The function is variadic, so it is written here rather than generated
 * from calls.tbl. Callers at levels 1 and -1 do not always pass a name:
 * MPICH's Fortran MPI_PCONTROL(LEVEL) and mpi4py's MPI.Pcontrol(level) call
 * MPI_Pcontrol(level) alone, and what is then read as the name is whatever
 * the register holds. So the name is read through process_vm_readv, which
 * fails instead of faulting on memory that is not readable, and is used
 * only when it is a NUL-terminated string of at most MS_MAX_NAME printable
 * characters in valid UTF-8; anything else makes no region. A call made
 * from one of the MPI library's binding layers (MPICH's Fortran library,
 * callsite.h) has no name at all. Where the system call is refused (a
 * seccomp filter), the pointer is trusted, as IPM does.
 *
 * Open MPI's Fortran MPI_PCONTROL calls PMPI_Pcontrol directly and has no
 * name argument to pass, so its bindings are not wrapped (docs/FORTRAN.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../common/log_format.h"
#include "call_record.h"
#include "callsite.h"
#include "pmpi_collector.h"
#include "stacking.h"
#include "../preload/user_regions.h"

#define PAGE 4096u

/* Whether s[0..n) is valid UTF-8 without control characters. */
static int printable_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f)
                return 0;
            i++;
            continue;
        }
        size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (len == 0 || i + len > n)
            return 0;
        unsigned cp = c & (0x7fu >> len);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3fu);
        }
        static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += len;
    }
    return 1;
}

/* The string at p, copied into buf (MS_MAX_NAME + 1 bytes), or NULL when p
 * is not a readable, printable, NUL-terminated name. */
static const char *read_name(const char *p, char *buf)
{
    if ((uintptr_t)p < PAGE)
        return NULL;
    size_t got = 0;
    while (got <= MS_MAX_NAME) {
        /* One page at a time: a string may end just before an unmapped one. */
        size_t n = PAGE - (((uintptr_t)p + got) & (PAGE - 1));
        if (n > MS_MAX_NAME + 1 - got)
            n = MS_MAX_NAME + 1 - got;
        struct iovec local = {buf + got, n}, remote = {(void *)(p + got), n};
        ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
        if (r < 0)
            return errno == EFAULT ? NULL : p;
        if (r == 0)
            return NULL;
        for (size_t i = got; i < got + (size_t)r; i++) {
            unsigned char c = (unsigned char)buf[i];
            if (c == 0)
                return i > 0 && printable_utf8((const unsigned char *)buf, i) ? buf : NULL;
        }
        got += (size_t)r;
    }
    return NULL;
}

/* The next tool's MPI_Pcontrol, or PMPI_Pcontrol (stacking.h), found at
 * the first call: a rare one. */
static int (*next_pcontrol(void))(const int, ...)
{
    static int (*_Atomic next)(const int, ...);
    int (*f)(const int, ...) = next;
    if (!f)
        next = f = (int (*)(const int, ...))ms_pmpi_next("MPI_Pcontrol", (void *)PMPI_Pcontrol);
    return f;
}

MS_EXPORT int MPI_Pcontrol(const int level, ...)
{
    if (level != 1 && level != -1)
        return next_pcontrol()(level);
    va_list ap;
    va_start(ap, level);
    const char *arg = va_arg(ap, const char *);
    va_end(ap);
    char buf[MS_MAX_NAME + 1];
    const char *name = ms_site_in_binding((uint64_t)(uintptr_t)__builtin_return_address(0)) ? NULL
                                                                                             : read_name(arg, buf);
    if (name && level == -1)
        ms_user_end(name);
    int rc = next_pcontrol()(level, arg);
    if (name && level == 1)
        ms_user_begin(name);
    return rc;
}
