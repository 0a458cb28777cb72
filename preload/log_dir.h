/*
 * The log directory, made or opened so that nobody else can plant files
 * in it (DESIGN section 5, "Per-rank logs"): it must be this user's own
 * (the effective uid's) and writable by nobody else, unless it is sticky
 * and holds no file of another user. MPI-free.
 */
#ifndef MPISCOPE_LOG_DIR_H
#define MPISCOPE_LOG_DIR_H

#include <stddef.h>

/* Create dir when missing (mode 0755 less the umask) and open it, refusing
 * a symbolic link or anything but a directory in its place, and a
 * directory not safe to share. Returns a descriptor, or -1 with why (cap
 * bytes) saying which rule it breaks. */
int ms_log_dir_open(const char *dir, char *why, size_t cap);

#endif
