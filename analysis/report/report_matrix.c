/* --matrix-csv: the point-to-point traffic matrix (matrix.h), one row per
 * (src, dst) pair that exchanged at least one message, by src then dst. */
#include <inttypes.h>

#include "../read/worlds.h"
#include "report.h"

int ms_report_matrix_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_MATRIX_CSV_HEADER "\n", fp);
    for (size_t i = 0; i < run->nmatrix; i++) {
        const ms_matrix_cell *c = &run->matrix[i];
        fprintf(fp, "%s,%s,%" PRIu64 ",%" PRIu64 "\n", ms_rank_s(c->src).s, ms_rank_s(c->dst).s, c->messages,
                c->bytes);
    }
    return ferror(fp) ? -1 : 0;
}
