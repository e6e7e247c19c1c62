/* examples/cpp/matmul.cpp — Triton's tutorial 03 in C++: C = A @ B, f16 in,
   f32 accumulators, f16 out, grouped program order for L2 reuse.

   The kernel of examples/matmul.c with tile.hpp's operators (the same IR:
   tests/golden.sh); offs(_, None) is Triton's offs[:, None]. Checked
   against a float64 product. */
#include "tile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

using tl::_;
using tl::None;

TILE_KERNEL(matmul_kernel, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr),
            (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_ak), (tl_i32, stride_bk), (tl_i32, stride_bn),
            (tl_i32, stride_cm), (tl_i32, stride_cn))
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), BLOCK_K = TL_META(BLOCK_K);
    int GROUP_SIZE_M = TL_META(GROUP_SIZE_M);

    // which tile of C this program computes
    tl::tensor pid              = tl::program_id(0);
    tl::tensor num_pid_m        = tl::cdiv(M, BLOCK_M);
    tl::tensor num_pid_n        = tl::cdiv(N, BLOCK_N);
    tl::tensor num_pid_in_group = GROUP_SIZE_M * num_pid_n;
    tl::tensor group_id         = tl::floordiv(pid, num_pid_in_group);
    tl::tensor first_pid_m      = group_id * GROUP_SIZE_M;
    tl::tensor group_size_m     = tl::minimum(num_pid_m - first_pid_m, GROUP_SIZE_M);
    tl::tensor pid_m            = first_pid_m + ((pid % num_pid_in_group) % group_size_m);
    tl::tensor pid_n            = tl::floordiv(pid % num_pid_in_group, group_size_m);

    // pointers to the first A and B tiles
    tl::tensor offs_am = (pid_m * BLOCK_M + tl::arange(0, BLOCK_M)) % M;
    tl::tensor offs_bn = (pid_n * BLOCK_N + tl::arange(0, BLOCK_N)) % N;
    tl::tensor offs_k  = tl::arange(0, BLOCK_K);
    tl::tensor a_ptrs  = a_ptr + (offs_am(_, None) * stride_am + offs_k(None, _) * stride_ak);
    tl::tensor b_ptrs  = b_ptr + (offs_k(_, None) * stride_bk + offs_bn(None, _) * stride_bn);

    tl::tensor acc = tl::zeros({BLOCK_M, BLOCK_N}, tl::float32);
    TL_FOR (k, 0, tl::cdiv(K, BLOCK_K), 1, acc, a_ptrs, b_ptrs) {
        tl::tensor k_left = K - k * BLOCK_K;
        tl::tensor a = tl::load(a_ptrs, {.mask = offs_k(None, _) < k_left, .other = 0});
        tl::tensor b = tl::load(b_ptrs, {.mask = offs_k(_, None) < k_left, .other = 0});
        acc = tl::dot(a, b, acc);
        a_ptrs += BLOCK_K * stride_ak;
        b_ptrs += BLOCK_K * stride_bk;
    }
    tl::tensor c = acc.to(tl::float16);

    tl::tensor offs_cm = pid_m * BLOCK_M + tl::arange(0, BLOCK_M);
    tl::tensor offs_cn = pid_n * BLOCK_N + tl::arange(0, BLOCK_N);
    tl::tensor c_ptrs  = c_ptr + (offs_cm(_, None) * stride_cm + offs_cn(None, _) * stride_cn);
    tl::tensor c_mask  = (offs_cm(_, None) < M) & (offs_cn(None, _) < N);
    tl::store(c_ptrs, c, {.mask = c_mask});
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)std::rand() / (double)RAND_MAX; }

int main()
{
    const int M = 200, N = 136, K = 90, BM = 32, BN = 32, BK = 32, GROUP = 4;
    std::vector<tile_f16> ha(M * K), hb(K * N), hc(M * N);
    std::srand((unsigned)std::time(nullptr));
    for (tile_f16 &v : ha) v = tile_f16_from(uniform(-1, 1));
    for (tile_f16 &v : hb) v = tile_f16_from(uniform(-1, 1));

    tile_f16 *a = (tile_f16 *)tile_malloc(M * K * sizeof(tile_f16)), *b = (tile_f16 *)tile_malloc(K * N * sizeof(tile_f16));
    tile_f16 *c = (tile_f16 *)tile_malloc(M * N * sizeof(tile_f16));
    if (!a || !b || !c) {
        std::fprintf(stderr, "matmul: out of memory\n");
        return 1;
    }
    tile_memcpy_htod(a, ha.data(), M * K * sizeof(tile_f16));
    tile_memcpy_htod(b, hb.data(), K * N * sizeof(tile_f16));
    tile_memset(c, 0xff, M * N * sizeof(tile_f16));       // NaN: a lane never written shows

    // row-major A, B and C: the strides of a row and of an element
    tile_status st = matmul_kernel(tl::opts({.grid = {tile_cdiv(M, BM) * tile_cdiv(N, BN)},
                                             .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK}, {"GROUP_SIZE_M", GROUP}}}),
                                   a, b, c, M, N, K, K, 1, N, 1, N, 1);
    if (st != TILE_OK) std::fprintf(stderr, "%s\n", tile_last_error());
    tile_memcpy_dtoh(hc.data(), c, M * N * sizeof(tile_f16));

    double err = 0;                                       // in units of the tolerance; a NaN sticks
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double want = 0;
            for (int k = 0; k < K; k++) want += tile_f16_to(ha[i * K + k]) * tile_f16_to(hb[k * N + j]);
            double e = std::fabs(tile_f16_to(hc[i * N + j]) - want) / (1e-3 * std::fabs(want) + 1e-3);
            if (e > err || e != e) err = e;
        }
    bool ok = st == TILE_OK && err <= 1;
    std::printf("matmul (C++): %d x %d x %d f16 -> f32 acc -> f16, max error %.2f of tolerance vs C reference: %s\n",
                M, N, K, err, ok ? "OK" : "FAILED");

    tile_free(a);
    tile_free(b);
    tile_free(c);
    tile_kernel_release(TILE_KERNEL_OF(matmul_kernel));
    return ok ? 0 : 1;
}
