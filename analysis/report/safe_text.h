/*
 * Text from logs, made safe for every output: valid UTF-8 (a byte that
 * does not start a valid sequence becomes U+FFFD, as the JSON escaper
 * does), and, where a terminal may show it, no control character raw.
 * One function does it for the CSV fields, the text report and the
 * merge's messages on stderr. The UTF-8 decoder and the walk that writes
 * a text character by character (ms_text_walk) are this file's, and the
 * JSON escaper (json_str.h) and the HTML page's text (html/report_html.c)
 * are the same walk with steps of their own.
 */
#ifndef MPISCOPE_SAFE_TEXT_H
#define MPISCOPE_SAFE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (at most `left` bytes, s NUL
 * terminated or not), or 0 when the bytes there are not one. */
size_t ms_utf8_len(const unsigned char *s, size_t left);

/* Whether s[0..left) is the start of a valid sequence that left cuts
 * short (its last bytes are still to come). */
int ms_utf8_cut_short(const unsigned char *s, size_t left);

/* One step of a walk over a text: how the next character of s[0..left)
 * (left > 0) is written. Returns the bytes it takes; sets *rep_len to the
 * length of its replacement in rep, or to 0 when those bytes are written
 * as they are (then they are valid UTF-8). */
typedef size_t (*ms_text_step)(const unsigned char *s, size_t left, unsigned flags, char rep[8], size_t *rep_len);

/* Where a walk writes: put(ctx, bytes, n, 0) for each run of bytes written
 * as they are (whole characters), put(ctx, rep, n, 1) for each
 * replacement (one character's); a non-zero return stops the walk. */
typedef int (*ms_text_put_fn)(void *ctx, const char *p, size_t n, int is_rep);

/* Walk s[0..len) with step(flags), writing through put. Returns the
 * number of bytes of s taken: all of them, except where put stopped, or,
 * when `partial` is set, the last bytes of a UTF-8 sequence that len cut
 * short.
 * Inline: each writer's step is inlined into its own copy of the walk. */
static inline size_t ms_text_walk(const char *str, size_t len, ms_text_step step, unsigned flags, int partial,
                                  ms_text_put_fn put, void *ctx)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t raw = 0, i = 0;   /* raw: the start of the bytes kept as they are, not written yet */
    while (i < len) {
        if (partial && ms_utf8_cut_short(s + i, len - i))
            break;
        char rep[8];
        size_t rep_len;
        size_t k = step(s + i, len - i, flags, rep, &rep_len);
        if (rep_len) {
            if ((i > raw && put(ctx, str + raw, i - raw, 0) != 0) || put(ctx, rep, rep_len, 1) != 0)
                return i;
            raw = i + k;
        }
        i += k;
    }
    if (i > raw && put(ctx, str + raw, i - raw, 0) != 0)
        return raw;
    return i;
}

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
