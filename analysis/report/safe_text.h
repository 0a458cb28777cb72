/*
 * Text from logs, made safe for every output: valid UTF-8 (a byte that
 * does not start a valid sequence becomes U+FFFD, as the JSON escaper
 * does), and, where a terminal may show it, no control character raw.
 * One function does it for the CSV fields, the text report and the
 * merge's messages on stderr; the JSON escaper (json_str.h) uses the
 * same UTF-8 test.
 */
#ifndef MPISCOPE_SAFE_TEXT_H
#define MPISCOPE_SAFE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (at most `left` bytes, s NUL
 * terminated or not), or 0 when the bytes there are not one. */
size_t ms_utf8_len(const unsigned char *s, size_t left);

/* What ms_text_put does beyond replacing invalid UTF-8 (or-ed together). */
enum {
    /* Control characters (U+0000-U+001F, U+007F, U+0080-U+009F) as \xNN
     * (\u0085 for the C1 ones), and a backslash as \\: the text reaches a
     * terminal without a control sequence, and reads back unambiguously. */
    MS_TEXT_CONTROLS = 1u << 0,
    /* With MS_TEXT_CONTROLS: '\n' and '\t' pass as they are (the lines and
     * columns of the text report); the backslash too. */
    MS_TEXT_KEEP_LINES = 1u << 1,
};

/* Write s[0..len) to fp, as `flags` (MS_TEXT_*) say. Returns the number of
 * bytes of s it took: all of them, except, when `partial` is set, the last
 * bytes of a UTF-8 sequence that len cut short (the caller writes them
 * again with what follows). */
size_t ms_text_put(FILE *fp, const char *s, size_t len, unsigned flags, int partial);

/* The same as a NUL-terminated string in a buffer of cap bytes (cut at a
 * character's end when it does not fit). Returns out. */
char *ms_text_safe(char *out, size_t cap, const char *s, unsigned flags);

/* A stream that writes every byte through ms_text_put(flags) to fp (the
 * text report's filter): fclose it before fp. NULL when out of memory. */
FILE *ms_text_filter(FILE *fp, unsigned flags);

#endif
