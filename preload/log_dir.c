/* The log directory: see log_dir.h. */
#include "log_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether the open directory fd (st: its status) is safe to write logs in;
 * else why. */
static int safe(int fd, const struct stat *st, char *why, size_t cap)
{
    uid_t me = geteuid();
    if (st->st_uid != me) {
        snprintf(why, cap, "it belongs to uid %u, not to this user (uid %u)", (unsigned)st->st_uid, (unsigned)me);
        return 0;
    }
    if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
        return 1;
    unsigned mode = (unsigned)(st->st_mode & 07777);
    if (!(st->st_mode & S_ISVTX)) {
        snprintf(why, cap, "others can write it (mode %04o) and it is not sticky", mode);
        return 0;
    }
    /* Sticky: others may add files but not remove or rename ours; none of
     * theirs may be there already. */
    int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
    if (!d) {
        if (dup >= 0)
            close(dup);
        snprintf(why, cap, "others can write it (mode %04o) and it cannot be listed", mode);
        return 0;
    }
    int ok = 1;
    for (struct dirent *e; ok && (e = readdir(d));) {
        struct stat es;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(fd, e->d_name, &es, AT_SYMLINK_NOFOLLOW) != 0 || es.st_uid == me)
            continue;
        snprintf(why, cap, "others can write it (mode %04o, sticky) and it holds \"%.200s\" of uid %u", mode,
                 e->d_name, (unsigned)es.st_uid);
        ok = 0;
    }
    closedir(d);
    return ok;
}

int ms_log_dir_open(const char *dir, char *why, size_t cap)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(why, cap, "%s", strerror(errno));
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        snprintf(why, cap, "%s", e == ELOOP ? "it is a symbolic link" : strerror(e));
        return -1;
    }
    if (!safe(fd, &st, why, cap)) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}
