/*
 * Where the writer thread runs (MPISCOPE_WRITER_CPU=auto). A rank that a
 * launcher bound to some CPUs (Open MPI binds each rank to a core by
 * default) starts its writer thread with its own mask: the writer then
 * compresses on the very core the rank computes or busy-polls on. At
 * MPI_Init the ranks of each node (MPI_COMM_TYPE_SHARED) OR their masks
 * together; the online CPUs that no rank of the node is bound to are free,
 * and the k-th rank of the node gets the (k mod free)-th of them for its
 * writer (preload/writer.h: ms_writer_place). An unbound rank (its mask is
 * every online CPU), or a node without a free CPU, leaves the writer where
 * the rank runs.
 */
#ifndef MPISCOPE_WRITER_CPU_H
#define MPISCOPE_WRITER_CPU_H

#include <mpi.h>

/* Collective over world, on every rank when rank 0 records with
 * MPISCOPE_WRITER_CPU=auto (also on a rank configured otherwise, so that
 * all meet; such a rank leaves its writer where it is): tells the writer
 * where to run, if anywhere. */
__attribute__((visibility("hidden"))) void ms_writer_cpu_choose(MPI_Comm world);

#endif
