/* Writing CSV (RFC 4180) text fields, for every CSV output of the merge. */
#ifndef MPISCOPE_CSV_H
#define MPISCOPE_CSV_H

#include <stdio.h>

/* s as one field: quoted when it holds a comma, a quote or a line break,
 * its quotes doubled. */
void ms_csv_field(FILE *fp, const char *s);

#endif
