/* examples/matmul_autotune.c — examples/matmul.c's kernel, autotuned, in f16
   and in bf16.

   A kernel's parameter types are fixed, so the body is one C function and
   each dtype gets its own TILE_KERNEL around it: matmul_autotuned takes f16
   pointers, matmul_autotuned_bf16 bf16 ones; both accumulate in f32 with
   tl_dot and write C in the input dtype. Each kernel has its own tuner
   (a tuner keeps the winners of one kernel). The key is (M, N, K); the grid
   depends on the config's BLOCK_M and BLOCK_N through a grid callback.

   Two config lists: on a GPU, the shapes of Triton's tutorial 03 for tensor
   cores (tiles up to 256x128 and 128x256, BLOCK_K 32 or 64, 2 to 8 warps,
   3 to 5 pipeline stages); in the interpreter, small tiles, so that CI runs
   this program (and tunes it) in a fraction of a second. The first run
   tunes and stores the winner (and, on a GPU, every compiled kernel) in the
   disk cache; a second run of the program loads both and neither tunes nor
   compiles (TILE_AUTOTUNE_VERBOSE=1 shows it). bench/bench_matmul.c times
   these kernels and configs against cuBLAS.

       matmul_autotune [M N K [PROFILE]]      default 200 x 136 x 90

   With PROFILE (a path, or - for the tree on stderr alone) the run is
   profiled (README "Profiling"): a scope per dtype, the tuner's runs in its
   own scope, then ten launches of the winner in a scope "tuned"; the
   kernels' work (2 M N K flops, the bytes of A, B and C) comes from a
   metrics function, so the report gives TFLOP/s and GB/s per config.

   Checked in float64 against the rounded inputs: every element for the
   default size, 2000 sampled elements for large ones. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C = A @ B, row-major strides given; C is written in out_dtype */
static void matmul_body(tl_dtype out_dtype, tl_t a_ptr, tl_t b_ptr, tl_t c_ptr, tl_t M, tl_t N, tl_t K,
                        tl_t stride_am, tl_t stride_ak, tl_t stride_bk, tl_t stride_bn, tl_t stride_cm, tl_t stride_cn)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), BLOCK_K = TL_META(BLOCK_K);
    int GROUP_SIZE_M = TL_META(GROUP_SIZE_M);

    tl_t pid              = tl_program_id(0);
    tl_t num_pid_m        = tl_cdiv(M, BLOCK_M);
    tl_t num_pid_n        = tl_cdiv(N, BLOCK_N);
    tl_t num_pid_in_group = tl_mul(GROUP_SIZE_M, num_pid_n);
    tl_t group_id         = tl_floordiv(pid, num_pid_in_group);
    tl_t first_pid_m      = tl_mul(group_id, GROUP_SIZE_M);
    tl_t group_size_m     = tl_minimum(tl_sub(num_pid_m, first_pid_m), GROUP_SIZE_M);
    tl_t pid_m            = tl_add(first_pid_m, tl_mod(tl_mod(pid, num_pid_in_group), group_size_m));
    tl_t pid_n            = tl_floordiv(tl_mod(pid, num_pid_in_group), group_size_m);

    tl_t offs_am = tl_mod(tl_add(tl_mul(pid_m, BLOCK_M), tl_arange(0, BLOCK_M)), M);
    tl_t offs_bn = tl_mod(tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N)), N);
    tl_t offs_k  = tl_arange(0, BLOCK_K);
    tl_t a_ptrs  = tl_add(a_ptr, tl_add(tl_mul(tl_expand_dims(offs_am, 1), stride_am),
                                        tl_mul(tl_expand_dims(offs_k, 0), stride_ak)));
    tl_t b_ptrs  = tl_add(b_ptr, tl_add(tl_mul(tl_expand_dims(offs_k, 1), stride_bk),
                                        tl_mul(tl_expand_dims(offs_bn, 0), stride_bn)));

    tl_t acc = tl_zeros(TL_F32, BLOCK_M, BLOCK_N);
    TL_FOR (k, 0, tl_cdiv(K, BLOCK_K), 1, acc, a_ptrs, b_ptrs) {
        tl_t k_left = tl_sub(K, tl_mul(k, BLOCK_K));
        tl_t a = tl_load(a_ptrs, .mask = tl_lt(tl_expand_dims(offs_k, 0), k_left), .other = 0);
        tl_t b = tl_load(b_ptrs, .mask = tl_lt(tl_expand_dims(offs_k, 1), k_left), .other = 0);
        acc    = tl_dot(a, b, acc);
        a_ptrs = tl_add(a_ptrs, tl_mul(BLOCK_K, stride_ak));
        b_ptrs = tl_add(b_ptrs, tl_mul(BLOCK_K, stride_bk));
    }
    tl_t c = tl_cast(acc, out_dtype);

    tl_t offs_cm = tl_add(tl_mul(pid_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_t offs_cn = tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N));
    tl_t c_ptrs  = tl_add(c_ptr, tl_add(tl_mul(tl_expand_dims(offs_cm, 1), stride_cm),
                                        tl_mul(tl_expand_dims(offs_cn, 0), stride_cn)));
    tl_t c_mask  = tl_and(tl_lt(tl_expand_dims(offs_cm, 1), M), tl_lt(tl_expand_dims(offs_cn, 0), N));
    tl_store(c_ptrs, c, .mask = c_mask);
}

TILE_KERNEL(matmul_autotuned, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr),
            (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_ak), (tl_i32, stride_bk), (tl_i32, stride_bn),
            (tl_i32, stride_cm), (tl_i32, stride_cn))
{
    matmul_body(TL_F16, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn);
}

TILE_KERNEL(matmul_autotuned_bf16, (tl_ptr_bf16, a_ptr), (tl_ptr_bf16, b_ptr), (tl_ptr_bf16, c_ptr),
            (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_ak), (tl_i32, stride_bk), (tl_i32, stride_bn),
            (tl_i32, stride_cm), (tl_i32, stride_cn))
{
    matmul_body(TL_BF16, a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn);
}

#define MATMUL_CONFIG(bm, bn, bk, warps, stages)                                                   \
    {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk}, {"GROUP_SIZE_M", 8}}, .num_warps = warps, \
     .num_stages = stages}
/* On a GPU: Triton's tutorial 03 configs for tensor cores, and the large
   tiles Triton picks on Hopper. Pipelined shared memory per program is
   num_stages * (BLOCK_M + BLOCK_N) * BLOCK_K * 2 bytes: at most 192 KiB
   (128x256x64 with 4 stages, as Triton's list has it: the one large tile
   whose ring has room for a wgmma group in flight across iterations). */
static const tile_autotune_config matmul_configs_gpu[] = {
    MATMUL_CONFIG(128, 256, 64, 8, 3),
    MATMUL_CONFIG(128, 256, 64, 8, 4),
    MATMUL_CONFIG(256, 128, 64, 8, 3),
    MATMUL_CONFIG(64, 256, 64, 4, 4),
    MATMUL_CONFIG(128, 128, 64, 4, 4),
    MATMUL_CONFIG(128, 128, 32, 4, 4),
    MATMUL_CONFIG(128, 64, 32, 4, 4),
    MATMUL_CONFIG(64, 128, 32, 4, 4),
    MATMUL_CONFIG(128, 128, 32, 8, 4),
    MATMUL_CONFIG(128, 256, 32, 8, 4),
    MATMUL_CONFIG(256, 128, 32, 8, 4),
    MATMUL_CONFIG(128, 128, 64, 8, 3),
    MATMUL_CONFIG(64, 64, 32, 4, 5),
    MATMUL_CONFIG(32, 64, 32, 2, 5),
};
/* In the interpreter: the same shapes, scaled down to tiles of 32 to 128.
   Both lists end with the same tile, the last IR built when tuning (and so
   the one tests/golden holds, with or without a GPU). */
static const tile_autotune_config matmul_configs_interp[] = {
    MATMUL_CONFIG(128, 64, 32, 8, 3),
    MATMUL_CONFIG(64, 128, 32, 8, 3),
    MATMUL_CONFIG(64, 64, 32, 4, 4),
    MATMUL_CONFIG(64, 32, 32, 4, 4),
    MATMUL_CONFIG(32, 32, 32, 2, 5),
    MATMUL_CONFIG(32, 64, 32, 2, 5),
};
/* the list for where kernels run */
static const tile_autotune_config *matmul_configs(int *n)
{
    int interp = strcmp(tile_backend_name(), "interp") == 0;
    *n = interp ? (int)(sizeof matmul_configs_interp / sizeof *matmul_configs_interp)
                : (int)(sizeof matmul_configs_gpu / sizeof *matmul_configs_gpu);
    return interp ? matmul_configs_interp : matmul_configs_gpu;
}

static void matmul_grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) *
           tile_cdiv(tile_tune_int(a, "N"), tile_tune_meta(a, "BLOCK_N"));
}
/* the configs are filled in by matmul_tuner() */
static tile_autotuner matmul_tuner_f16 = {.key = {"M", "N", "K"}, .grid = matmul_grid};
static tile_autotuner matmul_tuner_bf16 = {.key = {"M", "N", "K"}, .grid = matmul_grid};

/* The tuner of the dtype's kernel, with the config list for where kernels run. */
static tile_autotuner *matmul_tuner(tl_dtype dt)
{
    tile_autotuner *t = dt == TL_BF16 ? &matmul_tuner_bf16 : &matmul_tuner_f16;
    if (!t->configs) t->configs = matmul_configs(&t->nconfigs);
    return t;
}
static tile_kernel *matmul_kernel_of(tl_dtype dt)
{
    return dt == TL_BF16 ? TILE_KERNEL_OF(matmul_autotuned_bf16) : TILE_KERNEL_OF(matmul_autotuned);
}

/* C = A @ B for row-major, contiguous A (M x K), B (K x N) and C (M x N) of
   dtype dt (TL_F16 or TL_BF16): the typed launcher of that dtype's kernel.
   opts with .tune = matmul_tuner(dt) tunes; else it names the config. */
static tile_status matmul_launch(tl_dtype dt, const tile_launch *opts, void *a, void *b, void *c, int M, int N, int K)
{
    if (dt == TL_BF16)
        return matmul_autotuned_bf16(opts, (tile_bf16 *)a, (tile_bf16 *)b, (tile_bf16 *)c, M, N, K, K, 1, N, 1, N, 1);
    return matmul_autotuned(opts, (tile_f16 *)a, (tile_f16 *)b, (tile_f16 *)c, M, N, K, K, 1, N, 1, N, 1);
}
/* The launch the tuner picked for these arguments (tuning first if needed). */
static tile_status matmul_best(tl_dtype dt, void *a, void *b, void *c, int M, int N, int K, tile_launch *best)
{
    tile_arg args[12];
    const int64_t ints[9] = {M, N, K, K, 1, N, 1, N, 1};
    args[0].p = a, args[1].p = b, args[2].p = c;
    for (int i = 0; i < 9; i++) args[3 + i].i = ints[i];
    return tile_autotune_best(matmul_tuner(dt), matmul_kernel_of(dt), NULL, args, best);
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "matmul_autotune: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }

/* host elements of dtype dt (2 bytes each) */
static double elem_get(tl_dtype dt, const void *p, size_t i)
{
    return dt == TL_BF16 ? tile_bf16_to(((const tile_bf16 *)p)[i]) : tile_f16_to(((const tile_f16 *)p)[i]);
}
static void elem_set(tl_dtype dt, void *p, size_t i, double v)
{
    if (dt == TL_BF16) ((tile_bf16 *)p)[i] = tile_bf16_from(v);
    else ((tile_f16 *)p)[i] = tile_f16_from(v);
}

/* the profiler's view of a launch's work: M, N, K are parameters 3, 4, 5 */
static void matmul_metrics(const tile_kernel *k, const tile_launch *o, const tile_arg *args, void *user, double *flops, double *bytes)
{
    (void)k, (void)o, (void)user;
    double M = (double)args[3].i, N = (double)args[4].i, K = (double)args[5].i;
    *flops = 2 * M * N * K;
    *bytes = 2 * (M * K + K * N + M * N);
}

/* Tune, run and check one dtype; 1 when the result is right. */
static int run_dtype(tl_dtype dt, int M, int N, int K)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N, es = 2;
    void *ha = need(malloc(na * es)), *hb = need(malloc(nb * es)), *hc = need(malloc(nc * es));
    srand(1);
    for (size_t i = 0; i < na; i++) elem_set(dt, ha, i, uniform(-1, 1));
    for (size_t i = 0; i < nb; i++) elem_set(dt, hb, i, uniform(-1, 1));

    void *a = need(tile_malloc(na * es)), *b = need(tile_malloc(nb * es)), *c = need(tile_malloc(nc * es));
    tile_memcpy_htod(a, ha, na * es);
    tile_memcpy_htod(b, hb, nb * es);
    tile_memset(c, 0xff, nc * es);                    /* NaN: a lane never written shows */

    /* the typed launcher, with the tuner in the options */
    tile_status st = matmul_launch(dt, TILE_OPTS(.tune = matmul_tuner(dt)), a, b, c, M, N, K);
    tile_memcpy_dtoh(hc, c, nc * es);

    /* the result is off by half an ulp of the dtype (relative) at most, the
       f32 sums by much less: 1e-3 relative for f16, 8e-3 for bf16 */
    double rel = dt == TL_BF16 ? 8e-3 : 1e-3, err = 0;   /* in units of the tolerance; a NaN sticks */
    int all = nc <= 200000;
    for (size_t s = 0; s < (all ? nc : 2000); s++) {
        size_t at = all ? s : (size_t)rand() % nc;
        size_t i = at / (size_t)N, j = at % (size_t)N;
        double want = 0;
        for (size_t k = 0; k < (size_t)K; k++) want += elem_get(dt, ha, i * K + k) * elem_get(dt, hb, k * N + j);
        double e = fabs(elem_get(dt, hc, at) - want) / (rel * fabs(want) + 1e-3 * sqrt((double)K / 90));
        if (e > err || e != e) err = e;
    }
    tile_launch best;
    memset(&best, 0, sizeof best);
    if (st == TILE_OK) st = matmul_best(dt, a, b, c, M, N, K, &best);
    if (st == TILE_OK && tile_profile_running()) {
        /* the winner's own launches, for the profile */
        best.file = __FILE__, best.line = __LINE__;
        TILE_SCOPE("tuned") for (int i = 0; i < 10 && st == TILE_OK; i++) st = matmul_launch(dt, &best, a, b, c, M, N, K);
        if (st == TILE_OK) st = tile_synchronize();
    }
    int ok = st == TILE_OK && err <= 1;
    printf("matmul_autotune: %d x %d x %d %s, tuned over %d configs: blocks %lldx%lldx%lld, group %lld, %d warps, "
           "%d stages; max error %.2f of tolerance vs C reference (%s): %s\n",
           M, N, K, tile_dtype_name(dt), matmul_tuner(dt)->nconfigs, tile_meta_of(&best, "BLOCK_M"),
           tile_meta_of(&best, "BLOCK_N"), tile_meta_of(&best, "BLOCK_K"), tile_meta_of(&best, "GROUP_SIZE_M"),
           best.num_warps, best.num_stages, err, all ? "every element" : "2000 sampled", ok ? "OK" : "FAILED");
    if (st != TILE_OK) printf("  %s\n", tile_last_error());

    tile_free(a);
    tile_free(b);
    tile_free(c);
    free(ha);
    free(hb);
    free(hc);
    return ok;
}

int main(int argc, char **argv)
{
    int M = argc > 3 ? atoi(argv[1]) : 200, N = argc > 3 ? atoi(argv[2]) : 136, K = argc > 3 ? atoi(argv[3]) : 90;
    if (M <= 0 || N <= 0 || K <= 0) {
        fprintf(stderr, "usage: matmul_autotune [M N K [PROFILE]]\n");
        return 2;
    }
    /* PROFILE: a path, or - for the tree on stderr alone */
    const char *prof = argc > 4 ? argv[4] : NULL;
    if (prof && tile_profile_start(strcmp(prof, "-") == 0 ? NULL : prof, NULL) != TILE_OK) return 1;
    tile_kernel_metrics(TILE_KERNEL_OF(matmul_autotuned), matmul_metrics, NULL);
    tile_kernel_metrics(TILE_KERNEL_OF(matmul_autotuned_bf16), matmul_metrics, NULL);
    int ok = 1;
    TILE_SCOPE("f16") ok = run_dtype(TL_F16, M, N, K);
    TILE_SCOPE("bf16") ok = run_dtype(TL_BF16, M, N, K) && ok;
    if (prof && tile_profile_stop() != TILE_OK) ok = 0;

    tile_autotune_release(&matmul_tuner_f16);
    tile_autotune_release(&matmul_tuner_bf16);
    tile_kernel_release(TILE_KERNEL_OF(matmul_autotuned));
    tile_kernel_release(TILE_KERNEL_OF(matmul_autotuned_bf16));
    return ok ? 0 : 1;
}
