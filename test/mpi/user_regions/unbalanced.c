/*
 * Misused user regions: an end out of order, ends of regions that are not
 * open, a NULL name, and a region still open at MPI_Finalize. The program
 * must run to its end; each cause is reported once per rank
 * (user_regions.sh) and the regions that were open are recorded
 * (unbalanced.expect.py).
 */
#include <stdio.h>

#include "mpiscope.h"
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mpiscope_region_begin("a");
    mpiscope_region_begin("b");
    mpiscope_region_end("a");        /* out of order: "a" is recorded, "b" stays open */
    mpiscope_region_end("b");
    mpiscope_region_end("never");    /* not open: ignored, reported once */
    mpiscope_region_end("never");
    MPI_Pcontrol(-1, "never");
    mpiscope_region_begin(NULL);     /* ignored, reported once */
    mpiscope_region_begin("left");   /* closed at MPI_Finalize */
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("done\n");
    return mt_finish();
}
