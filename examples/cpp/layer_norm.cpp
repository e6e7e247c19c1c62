/* examples/cpp/layer_norm.cpp — Triton's tutorial 05 in C++: layer
   normalization, forward.

   The kernel of examples/layer_norm.c with tile.hpp's operators (the same
   IR: tests/golden.sh): one program per row, three TL_FOR loops over the
   row BLOCK columns at a time (the sum, the squared deviations, the
   normalization), the accumulators carried as tl::tensors. Checked against
   the same formulas in float64. */
#include "tile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

TILE_KERNEL(layer_norm_fwd, (tl_ptr_f32, X), (tl_ptr_f32, Y), (tl_ptr_f32, W), (tl_ptr_f32, B),
            (tl_ptr_f32, Mean), (tl_ptr_f32, Rstd), (tl_i32, stride), (tl_i32, N), (tl_f32, eps))
{
    int BLOCK = TL_META(BLOCK);
    tl::tensor row = tl::program_id(0);
    X = X + row * stride;
    Y = Y + row * stride;

    tl::tensor mean_acc = tl::zeros({BLOCK}, tl::float32);
    TL_FOR (off, 0, N, BLOCK, mean_acc) {
        tl::tensor cols = off + tl::arange(0, BLOCK);
        mean_acc = mean_acc + tl::load(X + cols, {.mask = cols < N, .other = 0.0});
    }
    tl::tensor mean = tl::sum(mean_acc, 0) / N;

    tl::tensor var_acc = tl::zeros({BLOCK}, tl::float32);
    TL_FOR (off, 0, N, BLOCK, var_acc) {
        tl::tensor cols = off + tl::arange(0, BLOCK);
        tl::tensor mask = cols < N;
        tl::tensor x    = tl::load(X + cols, {.mask = mask, .other = 0.0});
        x       = tl::where(mask, x - mean, 0.0);
        var_acc = var_acc + x * x;
    }
    tl::tensor var  = tl::sum(var_acc, 0) / N;
    tl::tensor rstd = 1.0 / tl::sqrt(var + eps);
    tl::store(Mean + row, mean);
    tl::store(Rstd + row, rstd);

    TL_FOR (off, 0, N, BLOCK) {
        tl::tensor cols  = off + tl::arange(0, BLOCK);
        tl::tensor mask  = cols < N;
        tl::tensor w     = tl::load(W + cols, {.mask = mask});
        tl::tensor b     = tl::load(B + cols, {.mask = mask});
        tl::tensor x     = tl::load(X + cols, {.mask = mask, .other = 0.0});
        tl::tensor x_hat = (x - mean) * rstd;
        tl::store(Y + cols, x_hat * w + b, {.mask = mask});
    }
}

static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)std::rand() / (float)RAND_MAX; }
// the largest error so far; a NaN sticks
static double worse(double err, double got, double want)
{
    double e = std::fabs(got - want) / (1 + std::fabs(want));
    return e > err || e != e ? e : err;
}

int main()
{
    const int M = 64, N = 1000, BLOCK = 256;              // 3 full blocks and 232 columns more
    const float eps = 1e-5f;
    size_t bytes = M * N * sizeof(float);
    std::vector<float> hx(M * N), hy(M * N), hw(N), hb(N), hmean(M), hrstd(M);
    std::srand((unsigned)std::time(nullptr));
    for (float &v : hx) v = uniform(-2.8f, -1.8f);        // an offset mean, as Triton's
    for (int j = 0; j < N; j++) {
        hw[j] = uniform(0, 2);
        hb[j] = uniform(-1, 1);
    }

    float *x = (float *)tile_malloc(bytes), *y = (float *)tile_malloc(bytes);
    float *w = (float *)tile_malloc(N * sizeof(float)), *b = (float *)tile_malloc(N * sizeof(float));
    float *mean = (float *)tile_malloc(M * sizeof(float)), *rstd = (float *)tile_malloc(M * sizeof(float));
    if (!x || !y || !w || !b || !mean || !rstd) {
        std::fprintf(stderr, "layer_norm: out of memory\n");
        return 1;
    }
    tile_memcpy_htod(x, hx.data(), bytes);
    tile_memcpy_htod(w, hw.data(), N * sizeof(float));
    tile_memcpy_htod(b, hb.data(), N * sizeof(float));
    tile_memset(y, 0xff, bytes);                          // NaN: a lane never written shows
    tile_memset(mean, 0xff, M * sizeof(float));
    tile_memset(rstd, 0xff, M * sizeof(float));

    tile_status st = layer_norm_fwd(tl::opts({.grid = {M}, .meta = {{"BLOCK", BLOCK}}}), x, y, w, b, mean, rstd, N, N, eps);
    if (st != TILE_OK) std::fprintf(stderr, "%s\n", tile_last_error());
    tile_memcpy_dtoh(hy.data(), y, bytes);
    tile_memcpy_dtoh(hmean.data(), mean, M * sizeof(float));
    tile_memcpy_dtoh(hrstd.data(), rstd, M * sizeof(float));

    double err = 0;                                       // relative to 1 + |want|
    for (int r = 0; r < M; r++) {
        const float *xr = hx.data() + r * N;
        double mu = 0, var = 0;
        for (int j = 0; j < N; j++) mu += xr[j];
        mu /= N;
        for (int j = 0; j < N; j++) var += (xr[j] - mu) * (xr[j] - mu);
        double rs = 1 / std::sqrt(var / N + eps);
        err = worse(err, hmean[r], mu);
        err = worse(err, hrstd[r], rs);
        for (int j = 0; j < N; j++) err = worse(err, hy[r * N + j], (xr[j] - mu) * rs * hw[j] + hb[j]);
    }
    bool ok = st == TILE_OK && err <= 1e-5;               // f32 sums of 1000 terms
    std::printf("layer_norm (C++): %d x %d (BLOCK %d), max error %.3g in Y, Mean, Rstd vs C reference: %s\n",
                M, N, BLOCK, err, ok ? "OK" : "FAILED");

    tile_free(x);
    tile_free(y);
    tile_free(w);
    tile_free(b);
    tile_free(mean);
    tile_free(rstd);
    tile_kernel_release(TILE_KERNEL_OF(layer_norm_fwd));
    return ok ? 0 : 1;
}
