/*
 * Writing JSON strings and numbers, for every report that writes JSON
 * (report_json.c, report_counters.c, report_gpu.c, report_trace.c and the
 * data block of the HTML report). Strings are escaped, and bytes that are
 * not valid UTF-8 become U+FFFD, so the output is valid JSON for any input.
 *
 * Every string is written by one escaper. It always escapes '"' and '\'
 * with a backslash, control characters (below 0x20, and 0x7f) as \u00XX,
 * and invalid UTF-8 as \ufffd; the flags below choose what else it escapes,
 * so that each report keeps its own spelling.
 */
#ifndef MPISCOPE_JSON_STR_H
#define MPISCOPE_JSON_STR_H

#include <stddef.h>
#include <stdio.h>

#include "safe_text.h"   /* ms_utf8_len, ms_text_walk */

/* What the escaper does beyond the above (or-ed together). */
enum {
    /* '\n', '\t' and '\r' as the two-character escapes \n, \t and \r
     * (the JSON report) instead of \u000a, \u0009 and \u000d. */
    MS_JSON_SHORT_CONTROLS = 1u << 0,
    /* '<', '>' and '&' as \u003c, \u003e and \u0026, and U+2028 and U+2029
     * as \u2028 and \u2029: the string cannot end an HTML <script> element
     * that holds it, and is valid JavaScript too (the HTML report). */
    MS_JSON_IN_SCRIPT = 1u << 1,
};

/* Write s[0..len) as a quoted JSON string, escaped as `flags` (MS_JSON_*)
 * say. Returns 0. */
int ms_json_write_str(FILE *fp, const char *s, size_t len, unsigned flags);

/* ms_json_write_str with no flags. Returns 0. */
int ms_json_put_str(FILE *fp, const char *s, size_t len);

/* The same into a growing buffer, with no flags: appends to *buf (length
 * *n, capacity *cap). Returns 0, or -1 when out of memory. */
int ms_json_append_str(char **buf, size_t *n, size_t *cap, const char *s, size_t len);

/* Append raw bytes to the same kind of buffer. */
int ms_json_append(char **buf, size_t *n, size_t *cap, const char *s, size_t len);

/* A number: %.9g, or null when it is not finite. */
void ms_json_put_double(FILE *fp, double v);

/* `"key":` and the number v as ms_json_put_double writes it. key is a
 * member name of the report (written as is, not escaped). */
void ms_json_put_num(FILE *fp, const char *key, double v);

#endif
