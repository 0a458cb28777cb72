/* Source-line reader: see symbolize_source.h. */
#include "symbolize_source.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../read/strtab.h"

typedef struct srcfile {
    char *text;        /* NULL when the file could not be read */
    size_t size;
    uint32_t *starts;  /* offset of each line's first byte */
    size_t nlines;
} srcfile;

struct ms_srccache {
    ms_strtab paths;   /* path -> index into files */
    srcfile *files;
    size_t cap;
};

ms_srccache *ms_srccache_new(void)
{
    ms_srccache *c = calloc(1, sizeof *c);
    if (c)
        ms_strtab_init(&c->paths);
    return c;
}

void ms_srccache_free(ms_srccache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < ms_strtab_count(&c->paths); i++) {
        free(c->files[i].text);
        free(c->files[i].starts);
    }
    free(c->files);
    ms_strtab_free(&c->paths);
    free(c);
}

size_t ms_srccache_files(const ms_srccache *c)
{
    return ms_strtab_count(&c->paths);
}

static int read_all(const char *path, char **text, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
        (uint64_t)st.st_size > MS_SRC_FILE_MAX) {
        close(fd);
        return -1;
    }
    size_t want = (size_t)st.st_size;
    char *buf = malloc(want + 1);
    if (!buf) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    while (got < want) {
        ssize_t r = read(fd, buf + got, want - got);
        if (r <= 0)
            break; /* shrank while reading: keep what was read */
        got += (size_t)r;
    }
    close(fd);
    if (memchr(buf, '\0', got)) {
        free(buf);
        return -1;
    }
    buf[got] = '\0';
    *text = buf;
    *size = got;
    return 0;
}

static void load(srcfile *f, const char *path)
{
    memset(f, 0, sizeof *f);
    if (read_all(path, &f->text, &f->size) != 0)
        return;
    size_t n = 1;
    for (size_t i = 0; i < f->size; i++)
        n += f->text[i] == '\n' && i + 1 < f->size;
    f->starts = malloc(n * sizeof *f->starts);
    if (!f->starts) {
        free(f->text);
        f->text = NULL;
        return;
    }
    size_t k = 0;
    f->starts[k++] = 0;
    for (size_t i = 0; i < f->size; i++)
        if (f->text[i] == '\n' && i + 1 < f->size)
            f->starts[k++] = (uint32_t)(i + 1);
    f->nlines = f->size ? k : 0;
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v';
}

const char *ms_srccache_line(ms_srccache *c, const char *path, int line, size_t *len)
{
    if (!c || !path || !len || line <= 0)
        return NULL;
    /* Room for one more file first, so every interned path has its slot. */
    if (ms_strtab_count(&c->paths) == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        srcfile *nf = realloc(c->files, cap * sizeof *nf);
        if (!nf)
            return NULL;
        c->files = nf;
        c->cap = cap;
    }
    uint32_t idx;
    int is_new = 0;
    if (ms_strtab_intern(&c->paths, path, strlen(path), &idx, &is_new) != 0)
        return NULL;
    if (is_new)
        load(&c->files[idx], path);
    const srcfile *f = &c->files[idx];
    if (!f->text || (size_t)line > f->nlines)
        return NULL;
    size_t b = f->starts[line - 1];
    size_t e = (size_t)line < f->nlines ? f->starts[line] : f->size;
    while (b < e && is_space(f->text[b]))
        b++;
    while (e > b && is_space(f->text[e - 1]))
        e--;
    *len = e - b;
    return f->text + b;
}
