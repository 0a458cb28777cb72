/* Communicators made every way the reports name: split (two per call), dup,
 * a 2-D Cartesian communicator, and names given with MPI_Comm_set_name,
 * one with quotes, markup and an ampersand, one of 1,000 characters. Each
 * communicator carries a collective, so that its region names it. */
#include <mpi.h>
#include <string.h>

#define HOSTILE "\"q\" <b>bold</b> & 'x'"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, v = 1, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm half, dup, cart, named, longname;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, dup);
    int dims[2] = {0, 0}, periods[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Barrier(cart);
    MPI_Comm_dup(half, &named);
    MPI_Comm_set_name(named, HOSTILE);
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, named);
    char big[1001];
    for (int i = 0; i < 1000; i++)
        big[i] = "std::vector<std::map<int, char>>"[i % 32];
    big[1000] = '\0';
    MPI_Comm_dup(MPI_COMM_WORLD, &longname);
    MPI_Comm_set_name(longname, big);
    MPI_Barrier(longname);

    MPI_Comm_free(&longname);
    MPI_Comm_free(&named);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
