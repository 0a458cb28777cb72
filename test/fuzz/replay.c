/*
 * Replays fuzz inputs through a fuzz target without libFuzzer, so that any
 * C compiler can run the committed corpus (make check):
 *
 *   replay_<target> FILE|DIR...     every regular file, a directory's sorted
 *
 * Exits 0 after all inputs ran; a target that finds a broken promise aborts.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(fp);
            fprintf(stderr, "%s: out of memory\n", path);
            return -1;
        }
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap)
            break;
        cap *= 2;
        uint8_t *b = realloc(buf, cap);
        if (!b)
            free(buf);
        buf = b;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **v = realloc(names, cap * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            names = v;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = -1;
            break;
        }
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat sb;
        if (rc == 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
            rc = run_file(path);
            (*count)++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 1;
    }
    size_t count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            perror(argv[i]);
            return 1;
        }
        int rc = S_ISDIR(sb.st_mode) ? run_dir(argv[i], &count) : (count++, run_file(argv[i]));
        if (rc != 0)
            return 1;
    }
    if (count == 0) {
        fprintf(stderr, "%s: no inputs\n", argv[0]);
        return 1;
    }
    printf("%s: %zu inputs replayed\n", argv[0], count);
    return 0;
}
