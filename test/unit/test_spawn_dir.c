/* The first free spawn-K directory of a spawned world (pmpi/spawn_dir.c). */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../pmpi/spawn_dir.h"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

Test(spawn_dir, first_free_then_none)
{
    char base[] = "/tmp/mpiscope-spawn-dir-XXXXXX", dir[256], want[256];
    cr_assert_not_null(mkdtemp(base));
    /* spawn-2 is taken (by a file: any entry counts). */
    snprintf(want, sizeof want, "%s/spawn-2", base);
    FILE *f = fopen(want, "w");
    cr_assert_not_null(f);
    fclose(f);
    const unsigned expect[] = {1, 3};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(ms_spawn_dir_make(base, 1, 3, dir, sizeof dir), 0);
        snprintf(want, sizeof want, "%s/spawn-%u", base, expect[i]);
        cr_expect_str_eq(dir, want);
        cr_expect(is_dir(dir));
    }
    /* Every one up to the last exists: no directory, not an existing one. */
    cr_expect_eq(ms_spawn_dir_make(base, 1, 3, dir, sizeof dir), EEXIST);
    cr_expect_str_eq(dir, "");
    /* A path that does not fit. */
    char small[8];
    cr_expect_eq(ms_spawn_dir_make(base, 1, 3, small, sizeof small), ENAMETOOLONG);
    cr_expect_str_eq(small, "");
    /* A base that cannot hold directories: mkdir's own reason. */
    snprintf(want, sizeof want, "%s/spawn-2/x", base);
    cr_expect_eq(ms_spawn_dir_make(want, 1, 3, dir, sizeof dir), ENOTDIR);
    for (unsigned k = 1; k <= 3; k++) {
        snprintf(want, sizeof want, "%s/spawn-%u", base, k);
        k == 2 ? unlink(want) : rmdir(want);
    }
    cr_expect_eq(rmdir(base), 0);
}
