/*
 * A GPU program without MPI (fake_hooks.h): 3 launches of "_Z6kernelv" on
 * stream 1 (40 us each) and one 2048-byte HtoD copy (10 us), unless its
 * argument is "nowork", when it touches no GPU at all. With "hang" it then
 * waits to be killed (the periodic flush must have written the GPU work).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fake_hooks.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "nowork") == 0) {
        puts("no GPU work");
        return 0;
    }
    for (int i = 0; i < 3; i++)
        fake_kernel("_Z6kernelv", 1, 40000);
    fake_memcpy(1, 2048, 1, 10000);
    fake_sync();
    puts("GPU work done");
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "hang") == 0)
        for (;;)
            pause();
    return 0;
}
