/*
 * Derived datatypes: the bytes of a call are count x MPI_Type_size, the
 * payload without the holes of the layout.
 *   contiguous 3 ints            size 12
 *   vector 4 blocks of 2 doubles, stride 3   size 64 (extent 80)
 *   struct {int; double[2]; char}           size 21 (extent 32)
 * On a ring (a single rank is its own neighbour): sends and receives of each
 * type, a vector received as 8 plain doubles, then MPI_Bcast of structs and
 * MPI_Allgather of the contiguous type.
 */
#include <stddef.h>
#include <string.h>

#include "mpitest.h"

struct item {
    int a;
    double b[2];
    char c;
};

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request req;
    MPI_Status st;
    long sum = 0;

    MPI_Datatype contig, vec, strct;
    MPI_Type_contiguous(3, MPI_INT, &contig);
    MPI_Type_commit(&contig);
    MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    {
        const int lens[3] = {1, 2, 1};
        const MPI_Aint disps[3] = {offsetof(struct item, a), offsetof(struct item, b), offsetof(struct item, c)};
        const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
        MPI_Datatype tmp;
        MPI_Type_create_struct(3, lens, disps, types, &tmp);
        MPI_Type_create_resized(tmp, 0, sizeof(struct item), &strct);
        MPI_Type_free(&tmp);
        MPI_Type_commit(&strct);
    }
    int size;
    MPI_Type_size(contig, &size);
    mt_check(size == 12, "contiguous size %d", size);
    MPI_Type_size(vec, &size);
    mt_check(size == 64, "vector size %d", size);
    MPI_Type_size(strct, &size);
    mt_check(size == 21, "struct size %d", size);

    /* 2 contiguous (6 ints) with tag 70, received into room for 4. */
    {
        int out[6], in[12] = {0};
        for (int k = 0; k < 6; k++)
            out[k] = mt_rank * 10 + k;
        MPI_Isend(out, 2, contig, right, 70, MPI_COMM_WORLD, &req);
        MPI_Recv(in, 4, contig, left, 70, MPI_COMM_WORLD, &st);
        mt_check_status(&st, contig, left, 70, 2);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[5] == left * 10 + 5 && in[6] == 0, "contiguous data %d %d", in[5], in[6]);
        sum += in[5];
    }

    /* 1 vector with tag 71, received as a vector; 1 with tag 72, received as
     * 8 doubles. */
    {
        double out[12], in[12], flat[8];
        for (int k = 0; k < 12; k++) {
            out[k] = mt_rank * 100 + k;
            in[k] = -1;
        }
        MPI_Isend(out, 1, vec, right, 71, MPI_COMM_WORLD, &req);
        MPI_Recv(in, 1, vec, left, 71, MPI_COMM_WORLD, &st);
        mt_check_status(&st, vec, left, 71, 1);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[0] == left * 100 && in[1] == left * 100 + 1 && in[2] == -1 && in[10] == left * 100 + 10,
                 "vector data %g %g %g %g", in[0], in[1], in[2], in[10]);
        MPI_Isend(out, 1, vec, right, 72, MPI_COMM_WORLD, &req);
        MPI_Recv(flat, 8, MPI_DOUBLE, left, 72, MPI_COMM_WORLD, &st);
        mt_check_status(&st, MPI_DOUBLE, left, 72, 8);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(flat[2] == left * 100 + 3 && flat[7] == left * 100 + 10, "flattened vector %g %g", flat[2],
                 flat[7]);
        sum += (long)flat[7];
    }

    /* 3 structs with tag 73, received with a nonblocking receive. */
    {
        struct item out[3], in[3];
        memset(in, 0, sizeof in);
        for (int k = 0; k < 3; k++) {
            out[k].a = mt_rank + k;
            out[k].b[0] = out[k].b[1] = 0.5 * k;
            out[k].c = (char)('x' + k);
        }
        MPI_Request rreq;
        MPI_Irecv(in, 3, strct, left, 73, MPI_COMM_WORLD, &rreq);
        MPI_Send(out, 3, strct, right, 73, MPI_COMM_WORLD);
        MPI_Wait(&rreq, &st);
        mt_check_status(&st, strct, left, 73, 3);
        mt_check(in[2].a == left + 2 && in[2].b[1] == 1.0 && in[2].c == 'z', "struct data %d %g %c", in[2].a,
                 in[2].b[1], in[2].c);
        sum += in[2].a;
    }

    /* Collectives: 2 structs from rank 0; 1 contiguous from every rank. */
    {
        struct item items[2];
        memset(items, 0, sizeof items);
        if (mt_rank == 0) {
            items[1].a = 42;
            items[1].c = 'q';
        }
        MPI_Bcast(items, 2, strct, 0, MPI_COMM_WORLD);
        mt_check(items[1].a == 42 && items[1].c == 'q', "bcast struct %d %c", items[1].a, items[1].c);
        int mine[3] = {mt_rank, 2 * mt_rank, 3 * mt_rank}, all[3 * 64];
        MPI_Allgather(mine, 1, contig, all, 1, contig, MPI_COMM_WORLD);
        for (int r = 0; r < mt_size && r < 64; r++)
            mt_check(all[3 * r + 2] == 3 * r, "allgather from %d: %d", r, all[3 * r + 2]);
        sum += items[1].a;
    }

    MPI_Type_free(&contig);
    MPI_Type_free(&vec);
    MPI_Type_free(&strct);
    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_datatypes: ranks=%d checksum=%ld\n", mt_size, total);
    return mt_finish();
}
