/* examples/matmul.c — Triton's tutorial 03: blocked matrix multiplication.

   C = A @ B with A (M x K) and B (K x N) in f16, accumulated in f32 by
   tl_dot, and C written in f16 (as the tutorial). Each program computes
   one BLOCK_M x BLOCK_N tile of C. Programs are ordered in groups of
   GROUP_SIZE_M tile-rows, column by column inside a group, so programs
   running together share the A and B tiles they load (L2 reuse on a GPU).
   Pointer tiles come from the strides: a column of row offsets times one
   stride plus a row of column offsets times the other, broadcast to 2-D.
   The TL_FOR over K carries the accumulator and both pointer tiles.
   M, N and K are not multiples of the blocks: rows and columns past the
   edge are wrapped (% M, % N) so their loads stay in bounds and masked at
   the store; the K tail is masked at the loads (other = 0 adds nothing).
   Checked in float64 against the f16-rounded inputs. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

TILE_KERNEL(matmul_kernel, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr),
            (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_ak), (tl_i32, stride_bk), (tl_i32, stride_bn),
            (tl_i32, stride_cm), (tl_i32, stride_cn))
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), BLOCK_K = TL_META(BLOCK_K);
    int GROUP_SIZE_M = TL_META(GROUP_SIZE_M);

    /* which tile of C this program computes */
    tl_t pid              = tl_program_id(0);
    tl_t num_pid_m        = tl_cdiv(M, BLOCK_M);
    tl_t num_pid_n        = tl_cdiv(N, BLOCK_N);
    tl_t num_pid_in_group = tl_mul(GROUP_SIZE_M, num_pid_n);
    tl_t group_id         = tl_floordiv(pid, num_pid_in_group);
    tl_t first_pid_m      = tl_mul(group_id, GROUP_SIZE_M);
    tl_t group_size_m     = tl_minimum(tl_sub(num_pid_m, first_pid_m), GROUP_SIZE_M);
    tl_t pid_m            = tl_add(first_pid_m, tl_mod(tl_mod(pid, num_pid_in_group), group_size_m));
    tl_t pid_n            = tl_floordiv(tl_mod(pid, num_pid_in_group), group_size_m);

    /* pointers to the first A and B tiles: a_ptrs[i][k] = a_ptr + am[i] * stride_am + k * stride_ak */
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

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "matmul: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }

int main(void)
{
    enum { M = 200, N = 136, K = 90, BM = 32, BN = 32, BK = 32, GROUP = 4 };
    tile_f16 *ha = need(malloc(M * K * sizeof(tile_f16))), *hb = need(malloc(K * N * sizeof(tile_f16)));
    tile_f16 *hc = need(malloc(M * N * sizeof(tile_f16)));
    srand((unsigned)time(NULL));
    for (int i = 0; i < M * K; i++) ha[i] = tile_f16_from(uniform(-1, 1));
    for (int i = 0; i < K * N; i++) hb[i] = tile_f16_from(uniform(-1, 1));

    tile_f16 *a = need(tile_malloc(M * K * sizeof(tile_f16))), *b = need(tile_malloc(K * N * sizeof(tile_f16)));
    tile_f16 *c = need(tile_malloc(M * N * sizeof(tile_f16)));
    tile_memcpy_htod(a, ha, M * K * sizeof(tile_f16));
    tile_memcpy_htod(b, hb, K * N * sizeof(tile_f16));
    tile_memset(c, 0xff, M * N * sizeof(tile_f16));   /* NaN: a lane never written shows */

    /* row-major A, B and C: the strides of a row and of an element */
    tile_status st = matmul_kernel(TILE_OPTS(.grid = {tile_cdiv(M, BM) * tile_cdiv(N, BN)},
                                             .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK},
                                                      {"GROUP_SIZE_M", GROUP}}),
                                   a, b, c, M, N, K, K, 1, N, 1, N, 1);
    tile_memcpy_dtoh(hc, c, M * N * sizeof(tile_f16));

    double err = 0;                                   /* in units of the tolerance; a NaN sticks */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = 0;
            for (int k = 0; k < K; k++) want += tile_f16_to(ha[i * K + k]) * tile_f16_to(hb[k * N + j]);
            /* the f16 result is off by half an f16 ulp (2^-11 relative) at most, f32 sums much less */
            double e = fabs(tile_f16_to(hc[i * N + j]) - want) / (1e-3 * fabs(want) + 1e-3);
            if (e > err || e != e) err = e;
        }
    int ok = st == TILE_OK && err <= 1;
    printf("matmul: %d x %d x %d f16 -> f32 acc -> f16 (blocks %dx%dx%d, group %d), "
           "max error %.2f of tolerance (1e-3 + 1e-3 |ref|) vs C reference: %s\n",
           M, N, K, BM, BN, BK, GROUP, err, ok ? "OK" : "FAILED");

    tile_free(a);
    tile_free(b);
    tile_free(c);
    free(ha);
    free(hb);
    free(hc);
    tile_kernel_release(TILE_KERNEL_OF(matmul_kernel));
    return ok ? 0 : 1;
}
