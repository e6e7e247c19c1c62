/* examples/cpp/dropout.cpp — Triton's tutorial 04 in C++: low-memory dropout.

   The kernel of examples/dropout.c with tile.hpp's operators (the same IR:
   tests/golden.sh): out = x / (1 - p) where tl::rand(seed, offsets) > p,
   0 elsewhere; no mask is stored, the same seed draws the same numbers.
   Checked as the C twin is: every output 0 or x / (1 - p), the share kept
   1 - p within five standard deviations, the same seed the same outputs,
   another seed others. */
#include "tile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

TILE_KERNEL(seeded_dropout, (tl_ptr_f32, x_ptr), (tl_ptr_f32, output_ptr), (tl_i32, n_elements), (tl_f32, p), (tl_i32, seed))
{
    int BLOCK_SIZE = TL_META(BLOCK_SIZE);
    tl::tensor pid         = tl::program_id(0);
    tl::tensor block_start = pid * BLOCK_SIZE;
    tl::tensor offsets     = block_start + tl::arange(0, BLOCK_SIZE);
    tl::tensor mask        = offsets < n_elements;
    tl::tensor x           = tl::load(x_ptr + offsets, {.mask = mask});
    tl::tensor random      = tl::rand(seed, offsets);
    tl::tensor x_keep      = random > p;
    tl::tensor output      = tl::where(x_keep, x / (1 - p), 0.0);
    tl::store(output_ptr + offsets, output, {.mask = mask});
}

static tile_status dropout(float *out, float *x, int n, float p, int seed)
{
    return seeded_dropout(tl::opts({.grid = {tile_cdiv(n, 1024)}, .meta = {{"BLOCK_SIZE", 1024}}}), x, out, n, p, seed);
}

int main()
{
    const int N = 100000;
    const float p = 0.3f;
    size_t bytes = N * sizeof(float);
    std::vector<float> hx(N), h[3] = {std::vector<float>(N), std::vector<float>(N), std::vector<float>(N)};
    std::srand((unsigned)std::time(nullptr));
    for (float &v : hx) v = 1.0f + (float)std::rand() / (float)RAND_MAX;   // never 0
    /* a fresh seed each run, neither it nor seed + 1 a multiple of 16 (or 1):
       integer arguments are specialized on that, as in Triton, and both
       launches then share the one variant the golden dumps record */
    int seed = 16 * (std::rand() % 6250) + 2 + std::rand() % 13;

    float *x = (float *)tile_malloc(bytes), *out = (float *)tile_malloc(bytes);
    if (!x || !out) {
        std::fprintf(stderr, "dropout: out of memory\n");
        return 1;
    }
    tile_memcpy_htod(x, hx.data(), bytes);
    int seeds[3] = {seed, seed, seed + 1};
    tile_status st = TILE_OK;
    for (int r = 0; r < 3 && st == TILE_OK; r++) {
        tile_memset(out, 0xff, bytes);                    // NaN: a lane never written shows
        st = dropout(out, x, N, p, seeds[r]);
        tile_memcpy_dtoh(h[r].data(), out, bytes);
    }
    if (st != TILE_OK) std::fprintf(stderr, "%s\n", tile_last_error());

    int bad = 0, kept = 0, differ = 0;
    for (int i = 0; i < N; i++) {
        double want = (double)hx[i] / (1.0 - (double)p);
        if (h[0][i] != 0) {
            kept++;
            bad += !(std::fabs(h[0][i] - want) <= 1e-6 * want);   // a NaN is bad
        }
        differ += (h[0][i] != 0) != (h[2][i] != 0);
    }
    double sd = std::sqrt(N * p * (1 - p)), expect = N * (1 - p);
    bool same = h[0] == h[1];
    bool ok = st == TILE_OK && bad == 0 && std::fabs(kept - expect) <= 5 * sd && same && differ > 0;
    std::printf("dropout (C++): n=%d, p=%.1f, seed %d: kept %d (expected %.0f +- %.0f), %d wrong values, "
                "same seed %s, another seed changed %d lanes: %s\n",
                N, p, seed, kept, expect, 5 * sd, bad, same ? "the same" : "DIFFERENT", differ, ok ? "OK" : "FAILED");

    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(seeded_dropout));
    return ok ? 0 : 1;
}
