/*
 * The directory of a spawned world's logs (docs/DESIGN.md section 5): the
 * first free <base>/spawn-K. MPI-free, tested on its own
 * (test/unit/test_spawn_dir.c).
 */
#ifndef MPISCOPE_SPAWN_DIR_H
#define MPISCOPE_SPAWN_DIR_H

#include <stddef.h>

/* The largest K of a spawn-K directory. */
#define MS_SPAWN_DIR_MAX 999999u

/* Creates the first <base>/spawn-K that does not exist, K = first ..
 * last (mkdir is atomic: processes that search at once get different
 * ones), its path in dir (cap bytes). Returns 0; ENAMETOOLONG when a path
 * does not fit in dir; EEXIST when every one exists (dir then empty);
 * another errno of mkdir, with dir the path it could not create. */
__attribute__((visibility("hidden"))) int ms_spawn_dir_make(const char *base, unsigned first, unsigned last,
                                                            char *dir, size_t cap);

#endif
