/* examples/cpp/vector_add.cpp — Triton's tutorial 01 in C++: out = x + y.

   The kernel of examples/vector_add.c, written with tile.hpp's operators:
   it builds the same IR (tests/golden.sh compares it with the C twin's
   golden). Checked against the same sum in float64. */
#include "tile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int BLOCK = TL_META(BLOCK);                           // a plain C++ int
    tl::tensor offs = tl::program_id(0) * BLOCK + tl::arange(0, BLOCK);
    tl::tensor mask = offs < n;
    tl::tensor sum  = tl::load(x + offs, {.mask = mask}) + tl::load(y + offs, {.mask = mask});
    tl::store(out + offs, sum, {.mask = mask});
}

static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)std::rand() / (float)RAND_MAX; }

int main()
{
    const int N = 98432, BLOCK = 1024;                    // 96 full blocks and 128 more
    size_t bytes = N * sizeof(float);
    std::vector<float> hx(N), hy(N), hout(N);
    std::srand((unsigned)std::time(nullptr));
    for (int i = 0; i < N; i++) {
        hx[i] = uniform(-1, 1);
        hy[i] = uniform(-1, 1);
    }

    float *x = (float *)tile_malloc(bytes), *y = (float *)tile_malloc(bytes), *out = (float *)tile_malloc(bytes);
    if (!x || !y || !out) {
        std::fprintf(stderr, "vector_add: out of memory\n");
        return 1;
    }
    tile_memcpy_htod(x, hx.data(), bytes);
    tile_memcpy_htod(y, hy.data(), bytes);
    tile_memset(out, 0xff, bytes);                        // NaN: a lane never written shows

    tile_status st = add_kernel(tl::opts({.grid = {tile_cdiv(N, BLOCK)}, .meta = {{"BLOCK", BLOCK}}}), x, y, out, N);
    if (st != TILE_OK) std::fprintf(stderr, "%s\n", tile_last_error());
    tile_memcpy_dtoh(hout.data(), out, bytes);

    double err = 0;                                       // a NaN sticks
    for (int i = 0; i < N; i++) {
        double e = std::fabs(hout[i] - ((double)hx[i] + (double)hy[i]));
        if (e > err || e != e) err = e;
    }
    bool ok = st == TILE_OK && err <= 1e-6;
    std::printf("vector_add (C++): n=%d, max abs error %.3g vs C reference: %s\n", N, err, ok ? "OK" : "FAILED");

    tile_free(x);
    tile_free(y);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(add_kernel));
    return ok ? 0 : 1;
}
