/* Numbers in words for the reports, and the cells of the text report:
 * durations ("1.23 s", "45.6 ms", "789 µs", "12 ns"), sizes, counts with
 * thousands separators ("23,119,445"), percentages. */
#ifndef MPISCOPE_UNITS_H
#define MPISCOPE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

/* Three significant digits (ms_fmt_ns: "%.3g"-style; ms_fmt_time: a
 * fixed number of decimals for the text report's columns). */
void ms_fmt_ns(char *buf, size_t cap, uint64_t ns);
void ms_fmt_time(char *buf, size_t cap, double ns);
/* "512 B", "1.50 KiB", ...; 2^k bytes exactly ("64 MiB"). */
void ms_fmt_bytes(char *buf, size_t cap, double bytes);
void ms_fmt_pow2(char *buf, size_t cap, unsigned k);
/* "1,234,567" */
void ms_fmt_count(char *buf, size_t cap, uint64_t n);
/* "12.3" */
void ms_fmt_pct(char *buf, size_t cap, double pct);

/* s padded to width columns (UTF-8 aware), right-aligned when right. */
void ms_cell(FILE *fp, const char *s, int width, int right);

/* Copy s into dst (cap bytes), printable: white space becomes a space,
 * other control bytes '?'. */
void ms_printable(char *dst, size_t cap, const char *s);

/* s on lines of at most 98 columns indented by two, wrapped at spaces to
 * fit the text report's page; longer words are cut. */
void ms_put_wrapped(FILE *fp, const char *s);
/* The same, the first line indented by `first` columns, the others by
 * `next` (a list item's hanging indent), within 98 columns. */
void ms_put_hanging(FILE *fp, const char *s, int first, int next);

#endif
