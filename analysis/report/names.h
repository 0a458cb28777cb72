/*
 * Names a person can read, for the text and HTML reports (CSV and JSON
 * keep every name whole): call sites, C++ function names, MPI functions
 * and the MPI library. A name is shortened from its least telling parts
 * first (a C++ function's argument list, then its template arguments and
 * namespaces) and only then cut, at its end, never in its middle.
 */
#ifndef MPISCOPE_NAMES_H
#define MPISCOPE_NAMES_H

#include <stddef.h>

#include "../reduce/callsites.h"

/* Columns s takes (one per UTF-8 character). */
size_t ms_columns(const char *s);

/* A C++ function name at shortening level 0 (as given), 1 (without its
 * argument list and what follows it: "f(int) const" -> "f"), 2 (also
 * without template arguments and namespaces, keeping the class:
 * "LAMMPS_NS::CommBrick::reverse_comm()" -> "CommBrick::reverse_comm"),
 * or 3 (the last component only: "reverse_comm"). An offset suffix
 * ("+0x2bb") is kept. Names that are not C++ come back as given. */
void ms_cxx_shorten(char *buf, size_t cap, const char *name, int level);

/* A call site for people: "function (file:line)" with the file's base
 * name; "function+0x2bb (object)" without line information; "object+0x1234"
 * without a function; "(no call site)" for NULL. Shortened as above until
 * it fits width columns (0: no limit); when no form fits, the one with
 * the class and method (level 2), whole: a site is never cut. Control
 * bytes become '?'. */
void ms_site_label(char *buf, size_t cap, const ms_callsite *at, size_t width);

/* "MPI_Send" for op "send" (an op that is not a plain word as given). */
void ms_mpi_function(char *buf, size_t cap, const char *op);

/* The MPI library's short name and version from its version string:
 * "Open MPI v4.1.4, package: Debian OpenMPI, ..." -> "Open MPI 4.1.4",
 * "MPICH Version: 4.0.2 ..." -> "MPICH 4.0.2"; else its first line, up to
 * 60 columns. */
void ms_mpi_library_short(char *buf, size_t cap, const char *version);

/* Copy s into dst, cut at its end to width columns ("..." marks the cut). */
void ms_fit_end(char *dst, size_t cap, const char *s, size_t width);

#endif
