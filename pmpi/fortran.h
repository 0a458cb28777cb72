/*
 * What the generated Fortran entry points (build/gen/pmpi_fortran_<mpi>.c,
 * from scripts/gen_fortran.py) call: the sentinels of each Fortran binding,
 * conversions of Fortran handles, statuses and indices to C, and per-thread
 * scratch arrays for them. An entry point converts the arguments the call's
 * semantics read into C values of the same names as the C parameters, then
 * runs the same statements as the C wrapper. docs/FORTRAN.md says which
 * bindings are wrapped for which MPI, and why.
 */
#ifndef MPISCOPE_FORTRAN_H
#define MPISCOPE_FORTRAN_H

#include <stddef.h>

#include <mpi.h>

#include "pmpi_collector.h"
#include "../preload/tstate.h"

#if defined(OPEN_MPI) && __has_include(<mpif-c-constants-decl.h>)
/* Open MPI's own declarations of its Fortran constants, named as its
 * Fortran compiler mangles them (mpi_fortran_status_ignore_ ...). */
#include <mpif-c-constants-decl.h>
#elif defined(OPEN_MPI)
extern int mpi_fortran_bottom_;
extern int mpi_fortran_in_place_;
extern int *mpi_fortran_status_ignore_;
extern int *mpi_fortran_statuses_ignore_;
#endif

#if defined(MPICH)
/* MPICH's mpif.h sentinels (libmpichfort): pointers to the common blocks,
 * set by mpirinitf_ on the first Fortran call that compares with them
 * (MPIR_F_NeedInit), as MPICH's own pmpi_*_ routines do. Weak: they exist
 * only where the Fortran library is loaded. */
extern int MPIR_F_NeedInit __attribute__((weak));
extern void *MPIR_F_MPI_BOTTOM __attribute__((weak));
extern void *MPIR_F_MPI_IN_PLACE __attribute__((weak));
extern void mpirinitf_(void) __attribute__((weak));

/* Sets MPICH's mpif.h sentinels if no MPICH Fortran routine did yet. */
static inline void ms_f_mpich_init(void)
{
    if (&MPIR_F_NeedInit && MPIR_F_NeedInit && mpirinitf_) {
        mpirinitf_();
        MPIR_F_NeedInit = 0;
    }
}

/* MPICH's mpif.h sentinel *p (NULL where the Fortran library is absent). */
static inline const void *ms_f_mpich_sentinel(void *const *p)
{
    if (!p)
        return NULL;
    ms_f_mpich_init();
    return *p;
}
#endif

/* The Fortran bindings: mpif.h and `use mpi` (one set of symbols), and
 * `use mpi_f08`. */
enum ms_f_binding { MS_F_MPIFH, MS_F_F08 };

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "a Fortran INTEGER is a C int");

/* A Fortran status is an array of MPI_Fint as large as the C status (in
 * both MPIs, and for mpi_f08's TYPE(MPI_Status) too). */
#define MS_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))
_Static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0, "a Fortran status is whole MPI_Fints");
#ifdef MPI_F_STATUS_SIZE
_Static_assert(MPI_F_STATUS_SIZE == sizeof(MPI_Status) / sizeof(MPI_Fint), "MPI_F_STATUS_SIZE");
#endif
#if defined(MPICH)
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPICH's mpi_f08 status is its C status");
#endif

/* ---- sentinels: the addresses the Fortran constants have ---- */

/* Open MPI: common blocks of mpif.h, which mpi_f08 binds to the same
 * symbols; its own Fortran wrappers compare with these addresses
 * (OMPI_IS_FORTRAN_*). MPICH: the objects of mpi_f08, and for mpif.h the
 * values of its pointers MPI_F_STATUS(ES)_IGNORE, MPIR_F_MPI_IN_PLACE and
 * MPIR_F_MPI_BOTTOM, which its pmpi_*_ routines compare with. */
static inline const void *ms_f_status_ignore(enum ms_f_binding b)
{
#if defined(OPEN_MPI)
    (void)b;
    return &mpi_fortran_status_ignore_;
#elif defined(MPICH)
    return b == MS_F_F08 ? (const void *)MPI_F08_STATUS_IGNORE
                         : ms_f_mpich_sentinel((void *const *)&MPI_F_STATUS_IGNORE);
#else
    return b == MS_F_F08 ? NULL : (const void *)MPI_F_STATUS_IGNORE;
#endif
}

static inline const void *ms_f_statuses_ignore(enum ms_f_binding b)
{
#if defined(OPEN_MPI)
    (void)b;
    return &mpi_fortran_statuses_ignore_;
#elif defined(MPICH)
    return b == MS_F_F08 ? (const void *)MPI_F08_STATUSES_IGNORE
                         : ms_f_mpich_sentinel((void *const *)&MPI_F_STATUSES_IGNORE);
#else
    return b == MS_F_F08 ? NULL : (const void *)MPI_F_STATUSES_IGNORE;
#endif
}

static inline const void *ms_f_in_place(enum ms_f_binding b)
{
#if defined(OPEN_MPI)
    (void)b;
    return &mpi_fortran_in_place_;
#elif defined(MPICH)
    return b == MS_F_F08 ? (const void *)&MPIR_F08_MPI_IN_PLACE : ms_f_mpich_sentinel(&MPIR_F_MPI_IN_PLACE);
#else
    (void)b;
    return NULL;
#endif
}

static inline const void *ms_f_bottom(enum ms_f_binding b)
{
#if defined(OPEN_MPI)
    (void)b;
    return &mpi_fortran_bottom_;
#elif defined(MPICH)
    return b == MS_F_F08 ? (const void *)&MPIR_F08_MPI_BOTTOM : ms_f_mpich_sentinel(&MPIR_F_MPI_BOTTOM);
#else
    (void)b;
    return NULL;
#endif
}

/* Whether p is the sentinel s (absent sentinels, NULL, match nothing). */
static inline int ms_f_is(const void *p, const void *s)
{
    return s != NULL && p == s;
}

/* A choice buffer as C sees it: MPI_IN_PLACE and MPI_BOTTOM translated. */
static inline const void *ms_f_buf(enum ms_f_binding b, const void *p)
{
    if (ms_f_is(p, ms_f_in_place(b)))
        return MPI_IN_PLACE;
    if (ms_f_is(p, ms_f_bottom(b)))
        return MPI_BOTTOM;
    return p;
}

/* ---- handles: invalid ones become the null handle (Open MPI's f2c
 * returns NULL for them, which the tool's own PMPI queries would reject) */

static inline MPI_Datatype ms_f_type(MPI_Fint f)
{
    MPI_Datatype d = PMPI_Type_f2c(f);
    return d ? d : MPI_DATATYPE_NULL;
}

static inline MPI_Comm ms_f_comm(MPI_Fint f)
{
    MPI_Comm c = PMPI_Comm_f2c(f);
    return c ? c : MPI_COMM_NULL;
}

static inline MPI_Win ms_f_win(MPI_Fint f)
{
    MPI_Win w = PMPI_Win_f2c(f);
    return w ? w : MPI_WIN_NULL;
}

static inline MPI_File ms_f_file(MPI_Fint f)
{
    MPI_File h = PMPI_File_f2c(f);
    return h ? h : MPI_FILE_NULL;
}

/* A CHARACTER argument of `len` bytes as a C string in buf (cap bytes):
 * without its trailing blanks, cut to fit. */
static inline const char *ms_f_string(char *buf, size_t cap, const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    while (len > 0 && *f == ' ')
        f++, len--;
    if (len >= cap)
        len = cap - 1;
    if (len)
        memcpy(buf, f, len);
    buf[len] = '\0';
    return buf;
}

static inline MPI_Request ms_f_request(MPI_Fint f)
{
    MPI_Request r = PMPI_Request_f2c(f);
    return r ? r : MPI_REQUEST_NULL;
}

static inline MPI_Message ms_f_message(MPI_Fint f)
{
    MPI_Message m = PMPI_Message_f2c(f);
    return m ? m : MPI_MESSAGE_NULL;
}

static inline MPI_Group ms_f_group(MPI_Fint f)
{
    MPI_Group g = PMPI_Group_f2c(f);
    return g ? g : MPI_GROUP_NULL;
}

/* ---- per-thread scratch arrays ---- */

#define MS_F_SLOTS 4u

/* Scratch array `slot` (< MS_F_SLOTS) of this thread, at least `size` bytes;
 * NULL, after one warning, when there is no memory. It grows only when a
 * call needs more than any before it on this thread. */
MS_HIDDEN void *ms_f_scratch(ms_thread *t, unsigned slot, size_t size);

/* n Fortran request handles as C handles, or NULL. */
static inline MPI_Request *ms_f_requests(ms_thread *t, unsigned slot, const MPI_Fint *f, int n)
{
    MPI_Request *r = ms_f_scratch(t, slot, sizeof *r * (size_t)(n > 0 ? n : 0));
    for (int i = 0; r && i < n; i++)
        r[i] = ms_f_request(f[i]);
    return r;
}

/* n Fortran datatype handles as C handles, or NULL. */
static inline const MPI_Datatype *ms_f_types(ms_thread *t, unsigned slot, const MPI_Fint *f, int n)
{
    MPI_Datatype *d = ms_f_scratch(t, slot, sizeof *d * (size_t)(n > 0 ? n : 0));
    for (int i = 0; d && i < n; i++)
        d[i] = ms_f_type(f[i]);
    return d;
}

/* Room for n C indices, or NULL. */
static inline int *ms_f_indices(ms_thread *t, unsigned slot, int n)
{
    return ms_f_scratch(t, slot, sizeof(int) * (size_t)(n > 0 ? n : 0));
}

/* The index of the first request that Waitany, Waitsome, Testany and
 * Testsome return: 1 in Fortran, but MPICH's mpi_f08 returned C indices
 * before MPICH 4.1 (pmodels/mpich#6270; docs/FORTRAN.md). */
static inline int ms_f_index_base(enum ms_f_binding b)
{
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
    return b == MS_F_F08 ? 0 : 1;
#else
    (void)b;
    return 1;
#endif
}

/* The first outcount (at most n) indices the binding returned, as C
 * indices. */
static inline void ms_f_indices_to_c(enum ms_f_binding b, int *c, const MPI_Fint *f, int n, int outcount)
{
    int base = ms_f_index_base(b);
    for (int k = 0; k < outcount && k < n; k++)
        c[k] = f[k] - base;
}

/* An index the binding returned (or MPI_UNDEFINED) as a C index. MPICH's
 * mpi_f08 from 4.1 on adds 1 to MPI_UNDEFINED too (pmodels/mpich#6989),
 * which this maps back to MPI_UNDEFINED. */
static inline int ms_f_index_to_c(enum ms_f_binding b, MPI_Fint f)
{
    return f == MPI_UNDEFINED ? MPI_UNDEFINED : f - ms_f_index_base(b);
}

/* ---- statuses ---- */

/* The status to hand to the library: the caller's, or `own` (an array of
 * MS_F_STATUS_SIZE) for MPI_STATUS_IGNORE, so that the call reports what
 * arrived, as the C wrappers do. */
static inline MPI_Fint *ms_f_status(enum ms_f_binding b, MPI_Fint *f, MPI_Fint *own)
{
    return ms_f_is(f, ms_f_status_ignore(b)) ? own : f;
}

/* The statuses to hand to the library for n requests: the caller's, or
 * scratch for MPI_STATUSES_IGNORE (the caller's sentinel when there is no
 * memory). */
static inline MPI_Fint *ms_f_statuses(ms_thread *t, unsigned slot, enum ms_f_binding b, MPI_Fint *f, int n)
{
    if (n <= 0 || !ms_f_is(f, ms_f_statuses_ignore(b)))
        return f;
    MPI_Fint *own = ms_f_scratch(t, slot, sizeof *own * MS_F_STATUS_SIZE * (size_t)n);
    return own ? own : f;
}

/* C copies of n Fortran statuses, or MPI_STATUSES_IGNORE when there are
 * none (the sentinel itself, or no memory). */
static inline MPI_Status *ms_f_statuses_to_c(ms_thread *t, unsigned slot, enum ms_f_binding b, const MPI_Fint *f,
                                             int n)
{
    if (n <= 0 || ms_f_is(f, ms_f_statuses_ignore(b)))
        return MPI_STATUSES_IGNORE;
    MPI_Status *c = ms_f_scratch(t, slot, sizeof *c * (size_t)n);
    if (!c)
        return MPI_STATUSES_IGNORE;
    for (int i = 0; i < n; i++)
        PMPI_Status_f2c(f + (size_t)i * MS_F_STATUS_SIZE, &c[i]);
    return c;
}

/* ---- life cycle (lifecycle.c): MPI_Init, MPI_Init_thread, MPI_Finalize
 * and MPI_Abort from Fortran, given the binding's own PMPI entry point ---- */

typedef void ms_f_init_fn(MPI_Fint *ierror);
typedef void ms_f_init_thread_fn(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);
typedef void ms_f_finalize_fn(MPI_Fint *ierror);

MS_HIDDEN void ms_f_init(ms_f_init_fn *pmpi, MPI_Fint *ierror);
MS_HIDDEN void ms_f_init_thread(ms_f_init_thread_fn *pmpi, MPI_Fint *required, MPI_Fint *provided,
                                MPI_Fint *ierror);
typedef void ms_f_abort_fn(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierror);

MS_HIDDEN void ms_f_finalize(ms_f_finalize_fn *pmpi, MPI_Fint *ierror);
MS_HIDDEN void ms_f_abort(ms_f_abort_fn *pmpi, MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierror);
#if MPI_VERSION >= 4
/* MPI_Session_init and MPI_Session_finalize (the `custom mpi4` rows). */
typedef void ms_f_session_init_fn(MPI_Fint *info, MPI_Fint *errhandler, MPI_Fint *session, MPI_Fint *ierror);
typedef void ms_f_session_finalize_fn(MPI_Fint *session, MPI_Fint *ierror);
MS_HIDDEN void ms_f_session_init(ms_f_session_init_fn *pmpi, MPI_Fint *info, MPI_Fint *errhandler, MPI_Fint *session,
                                 MPI_Fint *ierror);
MS_HIDDEN void ms_f_session_finalize(ms_f_session_finalize_fn *pmpi, MPI_Fint *session, MPI_Fint *ierror);
#endif

#endif
