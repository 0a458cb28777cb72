/*
 * Writing JSON strings: escaped, and bytes that are not valid UTF-8 become
 * U+FFFD, so the output is valid JSON for any input.
 */
#ifndef MPISCOPE_JSON_STR_H
#define MPISCOPE_JSON_STR_H

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (at most `left` bytes, s NUL
 * terminated or not), or 0 when the bytes there are not one. */
size_t ms_utf8_len(const unsigned char *s, size_t left);

/* Write s[0..len) as a quoted JSON string. Returns 0, or -1 when out of
 * memory (nothing written). */
int ms_json_put_str(FILE *fp, const char *s, size_t len);

/* The same into a growing buffer: appends to *buf (length *n, capacity
 * *cap). Returns 0, or -1 when out of memory. */
int ms_json_append_str(char **buf, size_t *n, size_t *cap, const char *s, size_t len);

/* Append raw bytes to the same kind of buffer. */
int ms_json_append(char **buf, size_t *n, size_t *cap, const char *s, size_t len);

#endif
