/* bench/bench_tp_mlp.c — examples/tensor_parallel_mlp.c's MLP block,
   Y = gelu(X @ W1) @ W2 in f16 with F split over the ranks (a process per
   GPU, ncclAllReduce adding the partial Ys), at growing sizes.

   Each size runs the example's ranks once: every rank's Y is checked
   against rank 0's unsharded run and rank 0's sampled rows against float64
   (a wrong result is FAILED and not timed); then, with NCCL, each rank times
   the sharded forward (both tile matmuls and the all-reduce) and the
   all-reduce alone, and rank 0 the unsharded forward on its GPU, each the
   median of 10 CUDA-event timings after 3 warm-up runs (tile_do_bench, L2
   flushed between runs). A row:

       M D F ranks  one-GPU ms, TFLOP/s   sharded ms, TFLOP/s per GPU   all-reduce ms   speed-up

   with 4 M D F flops. BENCH_TP_RANKS sets the ranks (default: every GPU, at
   most 8); BENCH_TP_SIZES the sizes ("MxDxF,MxDxF"); TP_NCCL the NCCL
   library (libnccl.so.2 on the loader's path otherwise). Without NCCL a
   row says so and is not timed (the host all-reduce is not a measurement).
   Without a GPU: "no GPU: bench skipped".

   Build: cc -std=c11 -O2 -I. bench/bench_tp_mlp.c -o build/bench_tp_mlp -ldl -lm -lpthread */
#define main example_main_tensor_parallel_mlp
#include "../examples/tensor_parallel_mlp.c"
#undef main

int main(void)
{
    int gpus = tp_gpus();
    if (gpus <= 0) {
        printf("no GPU: bench skipped\n");
        return 0;
    }
    const char *env = getenv("BENCH_TP_RANKS");
    int ranks = env && *env ? atoi(env) : gpus < TP_MAX_RANKS ? gpus : TP_MAX_RANKS;
    if (ranks < 1 || ranks > gpus || ranks > TP_MAX_RANKS) {
        printf("BENCH_TP_RANKS=%s: 1 to %d (one rank per GPU)\n", env, gpus < TP_MAX_RANKS ? gpus : TP_MAX_RANKS);
        return 2;
    }
    const char *sizes = getenv("BENCH_TP_SIZES");
    if (!sizes || !*sizes) sizes = "2048x4096x16384,4096x4096x16384,8192x8192x28672,16384x8192x28672";
    printf("bench_tp_mlp: Y = gelu(X @ W1) @ W2 (f16, f32 accumulation), F split over %d ranks on %d GPUs\n", ranks, gpus);
    printf("%6s %6s %6s %5s %9s %8s %9s %8s %9s %8s\n", "M", "D", "F", "ranks", "1gpu-ms", "TFLOP/s", "tp-ms", "TF/s/gpu", "allred-ms", "speedup");
    fflush(stdout);
    tp_bench_rows = 1;
    int failed = 0;
    for (const char *p = sizes; *p;) {
        int M = 0, D = 0, F = 0, used = 0;
        if (sscanf(p, "%dx%dx%d%n", &M, &D, &F, &used) != 3 || M < 1 || D < 1 || F < ranks || F % ranks) {
            printf("BENCH_TP_SIZES: cannot read \"%s\" (MxDxF, F a multiple of %d, comma-separated)\n", p, ranks);
            return 2;
        }
        int bad = tp_group(ranks, M, D, F, gpus);
        if (bad) printf("%6d %6d %6d %5d FAILED (%d ranks)\n", M, D, F, ranks, bad);
        failed += bad != 0;
        p += used;
        if (*p == ',') p++;
    }
    return failed ? 1 : 0;
}
