/* The first free spawn-K directory: see spawn_dir.h. */
#include "spawn_dir.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

int ms_spawn_dir_make(const char *base, unsigned first, unsigned last, char *dir, size_t cap)
{
    for (unsigned k = first; k <= last && k >= first; k++) {
        int len = snprintf(dir, cap, "%s/spawn-%u", base, k);
        if (len < 0 || (size_t)len >= cap) {
            if (cap)
                dir[0] = 0;
            return ENAMETOOLONG;
        }
        if (mkdir(dir, 0777) == 0)
            return 0;
        if (errno != EEXIST)
            return errno;
    }
    if (cap)
        dir[0] = 0;
    return EEXIST;
}
