// The GPU check's program (scripts/gpu-check.sh): a known number of
// launches of two kernels, a known copy pattern, and CUDA-event timings of
// every launch taken by the program itself.
//   kernels  scale: SCALE_LAUNCHES, add: ADD_LAUNCHES, all on one stream
//            (they never overlap), each timed by a pair of events
//   copies   HtoD: 3, DtoH: 2, DtoD: 1, each of N floats
// Prints "launches <kernel> <count> <event total ms>" per kernel.
// --probe: exit 3 (with the reason on stderr) when no device is usable.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define N (1 << 22)
#define SCALE_LAUNCHES 40
#define ADD_LAUNCHES 25

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (x);                                                             \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "gpu_check: %s: %s\n", #x, cudaGetErrorString(e_));           \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

__global__ void scale(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < 4096; k++)
            v = v * a + 1e-7f;
        x[i] = v;
    }
}

__global__ void add(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = y[i];
        for (int k = 0; k < 2048; k++)
            v = v + x[i] * 1e-7f;
        y[i] = v;
    }
}

// Launch i is an add for odd i below 2 * ADD_LAUNCHES, else a scale.
static int is_add(int i)
{
    return i < 2 * ADD_LAUNCHES && i % 2 == 1;
}

int main(int argc, char **argv)
{
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        fprintf(stderr, "no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "count 0");
        return 3;
    }
    if (argc > 1 && strcmp(argv[1], "--probe") == 0)
        return 0;
    size_t bytes = (size_t)N * sizeof(float);
    float *h = (float *)malloc(bytes), *x, *y, *z;
    for (int i = 0; i < N; i++)
        h[i] = 1.0f + (float)(i % 7);
    CHECK(cudaMalloc(&x, bytes));
    CHECK(cudaMalloc(&y, bytes));
    CHECK(cudaMalloc(&z, bytes));
    CHECK(cudaMemcpy(x, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(z, h, bytes, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaEvent_t ev[2 * (SCALE_LAUNCHES + ADD_LAUNCHES)];
    for (auto &v : ev)
        CHECK(cudaEventCreate(&v));
    int threads = 256, blocks = (N + threads - 1) / threads, k = 0;
    for (int i = 0; i < SCALE_LAUNCHES + ADD_LAUNCHES; i++) {
        CHECK(cudaEventRecord(ev[k++], s));
        if (!is_add(i))
            scale<<<blocks, threads, 0, s>>>(x, N, 0.999f);
        else
            add<<<blocks, threads, 0, s>>>(y, x, N);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev[k++], s));
    }
    CHECK(cudaStreamSynchronize(s));
    double ms[2] = {0, 0};
    int count[2] = {0, 0};
    for (int i = 0; i < SCALE_LAUNCHES + ADD_LAUNCHES; i++) {
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
        int which = is_add(i);
        ms[which] += t;
        count[which]++;
    }
    CHECK(cudaMemcpy(h, x, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h, y, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(z, y, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaDeviceSynchronize());
    printf("launches scale %d %.6f\n", count[0], ms[0]);
    printf("launches add %d %.6f\n", count[1], ms[1]);
    printf("copies HtoD 3 DtoH 2 DtoD 1 bytes %zu\n", bytes);
    for (auto &v : ev)
        cudaEventDestroy(v);
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    free(h);
    return 0;
}
