/*
 * Source-line reader for the symbolizer (symbolize.h): the text of line N of
 * a source file. Each file is read once, on its first request, and kept with
 * an index of its line starts; a file that cannot be read is remembered as
 * such. Not thread-safe: the symbolizer calls it under its lock.
 */
#ifndef MPISCOPE_SYMBOLIZE_SOURCE_H
#define MPISCOPE_SYMBOLIZE_SOURCE_H

#include <stddef.h>

#define MS_SRC_FILE_MAX (64u << 20) /* larger files are not read */

typedef struct ms_srccache ms_srccache;

ms_srccache *ms_srccache_new(void);
void ms_srccache_free(ms_srccache *c);

/* Line `line` (1-based) of the file at `path`, without its line end and
 * with white space trimmed at both ends: returns a pointer to its first byte
 * (valid until ms_srccache_free, not NUL-terminated) and sets *len. NULL when
 * the file cannot be read, is not a regular file, is larger than
 * MS_SRC_FILE_MAX, contains NUL bytes (not text), or has fewer lines. */
const char *ms_srccache_line(ms_srccache *c, const char *path, int line, size_t *len);

/* How many distinct paths were asked for (read or not). */
size_t ms_srccache_files(const ms_srccache *c);

#endif
