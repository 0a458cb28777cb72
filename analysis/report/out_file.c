/* Output files written safely: see out_file.h. */
#include "out_file.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The process's umask, read without changing it (no race with threads). */
static mode_t current_umask(void)
{
    mode_t m = 022;
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return m;
    char line[128];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Umask:", 6) == 0) {
            m = (mode_t)strtoul(line + 6, NULL, 8);
            break;
        }
    fclose(f);
    return m;
}

/* Whether the directory of path is one only this user (or root) can
 * write in: what is there was put there by them. */
static int own_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct stat st;
    if (stat(dir, &st) != 0)
        return 0;
    return (st.st_uid == geteuid() || st.st_uid == 0) && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

FILE *ms_out_open(ms_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof o->path) {
        errno = n ? ENAMETOOLONG : ENOENT;
        return NULL;
    }
    memcpy(o->path, path, n + 1);
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", (int)dir_len, path, path + dir_len);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    /* A device (/dev/null), or a link or FIFO that only the user could
     * have put there (/dev/stdout, a pipe of the shell's): written
     * through, opened without blocking (a FIFO without a reader is an
     * error, not a hang). */
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && (S_ISCHR(st.st_mode) || own_dir(path))) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
        if (fd < 0)
            return NULL;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        if (!(o->fp = fdopen(fd, "w"))) {
            close(fd);
            return NULL;
        }
        o->direct = 1;
        return o->fp;
    }
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fchmod(fd, 0666 & ~current_umask()) != 0 || !(o->fp = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        errno = e;
        return NULL;
    }
    return o->fp;
}

int ms_out_close(ms_out *o, int keep)
{
    int rc = fclose(o->fp);
    o->fp = NULL;
    if (o->direct)
        return rc;
    int e = errno;
    if (rc == 0 && keep && rename(o->tmp, o->path) == 0)
        return 0;
    if (keep && rc == 0)
        e = errno;
    unlink(o->tmp);
    errno = e;
    return keep ? -1 : 0;
}

int ms_out_stage(char *stage, size_t cap, const char *dir)
{
    int n = snprintf(stage, cap, "%s/.stage-XXXXXX", dir);
    if (n < 0 || (size_t)n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(stage) ? 0 : -1;
}

int ms_out_stage_commit(const char *stage, const char *dir)
{
    DIR *d = opendir(stage);
    if (!d)
        return -1;
    int rc = 0, e = 0;
    for (struct dirent *ent; rc == 0 && (ent = readdir(d));) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", stage, ent->d_name);
        snprintf(to, sizeof to, "%s/%s", dir, ent->d_name);
        if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) != 0) {
            rc = -1;
            e = errno;
        }
    }
    closedir(d);
    if (rc == 0 && rmdir(stage) != 0)
        return -1;
    errno = e;
    return rc;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path) == 0 ? 0 : 0;
}

void ms_out_stage_remove(const char *stage)
{
    nftw(stage, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
