/* examples/matmul_autotune.c — examples/matmul.c's kernel, autotuned over
   configs like Triton's tutorial 03 (smaller tiles, so that the interpreter
   runs them in CI). The key is (M, N, K); the grid depends on the config's
   BLOCK_M and BLOCK_N through a grid callback. The first run tunes and
   stores the winner (and, on a GPU, every compiled kernel) in the disk
   cache; a second run of the program loads both and neither tunes nor
   compiles (TILE_AUTOTUNE_VERBOSE=1 shows it).

       matmul_autotune [M N K]      default 200 x 136 x 90

   Checked in float64 against the f16-rounded inputs: every element for the
   default size, 2000 sampled elements for large ones. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

TILE_KERNEL(matmul_autotuned, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr),
            (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_ak), (tl_i32, stride_bk), (tl_i32, stride_bn),
            (tl_i32, stride_cm), (tl_i32, stride_cn))
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
    tl_t c = tl_cast(acc, TL_F16);

    tl_t offs_cm = tl_add(tl_mul(pid_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_t offs_cn = tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N));
    tl_t c_ptrs  = tl_add(c_ptr, tl_add(tl_mul(tl_expand_dims(offs_cm, 1), stride_cm),
                                        tl_mul(tl_expand_dims(offs_cn, 0), stride_cn)));
    tl_t c_mask  = tl_and(tl_lt(tl_expand_dims(offs_cm, 1), M), tl_lt(tl_expand_dims(offs_cn, 0), N));
    tl_store(c_ptrs, c, .mask = c_mask);
}

/* Triton's tutorial configs, with tiles of 32 to 128 */
static const tile_autotune_config configs[] = {
    {.meta = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 8, .num_stages = 3},
    {.meta = {{"BLOCK_M", 64}, {"BLOCK_N", 128}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 8, .num_stages = 3},
    {.meta = {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 4, .num_stages = 4},
    {.meta = {{"BLOCK_M", 64}, {"BLOCK_N", 32}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 4, .num_stages = 4},
    {.meta = {{"BLOCK_M", 32}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 4, .num_stages = 4},
    {.meta = {{"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 2, .num_stages = 5},
};
static void grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) *
           tile_cdiv(tile_tune_int(a, "N"), tile_tune_meta(a, "BLOCK_N"));
}
static tile_autotuner tuner = {TILE_AUTOTUNE_CONFIGS(configs), .key = {"M", "N", "K"}, .grid = grid};

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "matmul_autotune: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }

int main(int argc, char **argv)
{
    int M = argc > 3 ? atoi(argv[1]) : 200, N = argc > 3 ? atoi(argv[2]) : 136, K = argc > 3 ? atoi(argv[3]) : 90;
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    tile_f16 *ha = need(malloc(na * sizeof(tile_f16))), *hb = need(malloc(nb * sizeof(tile_f16)));
    tile_f16 *hc = need(malloc(nc * sizeof(tile_f16)));
    srand(1);
    for (size_t i = 0; i < na; i++) ha[i] = tile_f16_from(uniform(-1, 1));
    for (size_t i = 0; i < nb; i++) hb[i] = tile_f16_from(uniform(-1, 1));

    tile_f16 *a = need(tile_malloc(na * sizeof(tile_f16))), *b = need(tile_malloc(nb * sizeof(tile_f16)));
    tile_f16 *c = need(tile_malloc(nc * sizeof(tile_f16)));
    tile_memcpy_htod(a, ha, na * sizeof(tile_f16));
    tile_memcpy_htod(b, hb, nb * sizeof(tile_f16));
    tile_memset(c, 0xff, nc * sizeof(tile_f16));      /* NaN: a lane never written shows */

    /* the typed launcher, with the tuner in the options */
    tile_status st = matmul_autotuned(TILE_OPTS(.tune = &tuner), a, b, c, M, N, K, K, 1, N, 1, N, 1);
    tile_memcpy_dtoh(hc, c, nc * sizeof(tile_f16));

    double err = 0;                                   /* in units of the tolerance; a NaN sticks */
    int all = nc <= 200000;
    for (size_t s = 0; s < (all ? nc : 2000); s++) {
        size_t at = all ? s : (size_t)rand() % nc;
        int i = (int)(at / (size_t)N), j = (int)(at % (size_t)N);
        double want = 0;
        for (int k = 0; k < K; k++) want += tile_f16_to(ha[(size_t)i * K + k]) * tile_f16_to(hb[(size_t)k * N + j]);
        double e = fabs(tile_f16_to(hc[at]) - want) / (1e-3 * fabs(want) + 1e-3 * sqrt((double)K / 90));
        if (e > err || e != e) err = e;
    }
    tile_arg args[12];
    const int64_t ints[9] = {M, N, K, K, 1, N, 1, N, 1};
    args[0].p = a, args[1].p = b, args[2].p = c;
    for (int i = 0; i < 9; i++) args[3 + i].i = ints[i];
    tile_launch best;
    if (st == TILE_OK) st = tile_autotune_best(&tuner, TILE_KERNEL_OF(matmul_autotuned), NULL, args, &best);
    int ok = st == TILE_OK && err <= 1;
    printf("matmul_autotune: %d x %d x %d f16, tuned: blocks %lldx%lldx%lld, group %lld, %d warps, %d stages; "
           "max error %.2f of tolerance vs C reference (%s): %s\n",
           M, N, K, tile_meta_of(&best, "BLOCK_M"), tile_meta_of(&best, "BLOCK_N"), tile_meta_of(&best, "BLOCK_K"),
           tile_meta_of(&best, "GROUP_SIZE_M"), best.num_warps, best.num_stages, err, all ? "every element" : "2000 sampled",
           ok ? "OK" : "FAILED");
    if (st != TILE_OK) printf("  %s\n", tile_last_error());

    tile_free(a);
    tile_free(b);
    tile_free(c);
    free(ha);
    free(hb);
    free(hc);
    tile_autotune_release(&tuner);
    tile_kernel_release(TILE_KERNEL_OF(matmul_autotuned));
    return ok ? 0 : 1;
}
