/* A shared library of the call-site test: MPI calls made from a library. */
#ifndef CALLSITES_HELPER_H
#define CALLSITES_HELPER_H

void helper_bcast(double *v, int times);

#endif
