/* Writing CSV (RFC 4180) text fields, for every CSV output of the merge. */
#ifndef MPISCOPE_CSV_H
#define MPISCOPE_CSV_H

#include <stdio.h>

/* s as one text field: valid UTF-8 (invalid bytes as U+FFFD), quoted when
 * it holds a comma, a quote or a line break, its quotes doubled. A field
 * that starts with a character a spreadsheet takes for a formula ('=',
 * '+', '-', '@', a tab or a carriage return) is quoted and prefixed with a
 * single quote inside the quotes ("'=1+2"), as OWASP's advice on CSV
 * injection says, so that it shows as text. Numbers are never written
 * through here: a cell of -1 stays a number. */
void ms_csv_field(FILE *fp, const char *s);

#endif
