/* --matrix-csv: the point-to-point traffic matrix (matrix.h), one row per
 * (src, dst) pair that exchanged at least one message, by src then dst. */
#include <inttypes.h>

#include "report.h"

int ms_report_matrix_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_MATRIX_CSV_HEADER "\n", fp);
    for (size_t i = 0; i < run->nmatrix; i++) {
        const ms_matrix_cell *c = &run->matrix[i];
        fprintf(fp, "%" PRId32 ",%" PRId32 ",%" PRIu64 ",%" PRIu64 "\n", c->src, c->dst, c->messages, c->bytes);
    }
    return ferror(fp) ? -1 : 0;
}
