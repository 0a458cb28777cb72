/*
 * Creating the merge's output files safely in a directory that others may
 * write: a report is written to a new temporary file beside its path
 * (".NAME.XXXXXX", created with O_EXCL, so never through a link or into a
 * FIFO planted there), then renamed over the path. A symbolic link, a FIFO
 * or a file at the path is replaced, never followed or opened, so nothing
 * blocks and nothing else is written; a directory there is an error. The
 * file gets the mode a plain creation would (0666 less the umask).
 *
 * What nobody else could have put at the path is written through, as the
 * user means it: a device (/dev/null), and a link or FIFO in a directory
 * that only the user (or root) can write (/dev/stdout, /dev/fd/N of a
 * shell's process substitution), opened with O_NONBLOCK so that a FIFO
 * without a reader is an error, not a hang.
 */
#ifndef MPISCOPE_OUT_FILE_H
#define MPISCOPE_OUT_FILE_H

#include <stdio.h>

typedef struct ms_out {
    FILE *fp;
    int direct;                   /* written through, no rename */
    char path[4096];
    char tmp[4096 + 16];
} ms_out;

/* Start writing path. Returns o->fp, or NULL with errno set. */
FILE *ms_out_open(ms_out *o, const char *path);

/* Finish: keep (close, rename over the path) or drop (close, remove the
 * temporary file). Returns 0, or -1 with errno set (the temporary file is
 * removed). */
int ms_out_close(ms_out *o, int keep);

/* A report made of several files (the OTF2 archive, written by a library
 * that opens its files itself) is written into a new private directory
 * dir/.stage-XXXXXX (mode 0700, made with mkdtemp), then its entries are
 * moved into dir, each refused rather than replacing what is there.
 * ms_out_stage makes it (stage: a buffer of cap bytes); 0, or -1 with
 * errno. */
int ms_out_stage(char *stage, size_t cap, const char *dir);

/* Move every entry of stage into dir (renameat2 RENAME_NOREPLACE) and
 * remove stage. 0, or -1 with errno (EEXIST: an entry is there already;
 * what was not moved stays in stage). */
int ms_out_stage_commit(const char *stage, const char *dir);

/* Remove stage and everything in it. */
void ms_out_stage_remove(const char *stage);

#endif
