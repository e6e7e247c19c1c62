/* examples/layer_norm.c — Triton's tutorial 05: layer normalization, forward.

   y = (x - mean) * rstd * w + b for each row of x, with mean and
   rstd = 1 / sqrt(var + eps) over the row (var is the biased variance).
   One program per row; a row is longer than a tile, so three TL_FOR loops
   walk it BLOCK columns at a time: one accumulates the sum (the mean),
   one the squared deviations (the variance), and one normalizes. The
   accumulators are [BLOCK] tiles carried around their loops, reduced once
   after. Mean and Rstd are written too (the backward pass needs them).
   Checked against the same formulas in float64. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

TILE_KERNEL(layer_norm_fwd, (tl_ptr_f32, X), (tl_ptr_f32, Y), (tl_ptr_f32, W), (tl_ptr_f32, B),
            (tl_ptr_f32, Mean), (tl_ptr_f32, Rstd), (tl_i32, stride), (tl_i32, N), (tl_f32, eps))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t row   = tl_program_id(0);
    X = tl_add(X, tl_mul(row, stride));
    Y = tl_add(Y, tl_mul(row, stride));

    tl_t mean_acc = tl_zeros(TL_F32, BLOCK);
    TL_FOR (off, 0, N, BLOCK, mean_acc) {
        tl_t cols = tl_add(off, tl_arange(0, BLOCK));
        mean_acc  = tl_add(mean_acc, tl_load(tl_add(X, cols), .mask = tl_lt(cols, N), .other = 0.0));
    }
    tl_t mean = tl_div(tl_sum(mean_acc, 0), N);

    tl_t var_acc = tl_zeros(TL_F32, BLOCK);
    TL_FOR (off, 0, N, BLOCK, var_acc) {
        tl_t cols = tl_add(off, tl_arange(0, BLOCK));
        tl_t mask = tl_lt(cols, N);
        tl_t x    = tl_load(tl_add(X, cols), .mask = mask, .other = 0.0);
        x         = tl_where(mask, tl_sub(x, mean), 0.0);
        var_acc   = tl_add(var_acc, tl_mul(x, x));
    }
    tl_t var  = tl_div(tl_sum(var_acc, 0), N);
    tl_t rstd = tl_div(1.0, tl_sqrt(tl_add(var, eps)));
    tl_store(tl_add(Mean, row), mean);
    tl_store(tl_add(Rstd, row), rstd);

    TL_FOR (off, 0, N, BLOCK) {
        tl_t cols  = tl_add(off, tl_arange(0, BLOCK));
        tl_t mask  = tl_lt(cols, N);
        tl_t w     = tl_load(tl_add(W, cols), .mask = mask);
        tl_t b     = tl_load(tl_add(B, cols), .mask = mask);
        tl_t x     = tl_load(tl_add(X, cols), .mask = mask, .other = 0.0);
        tl_t x_hat = tl_mul(tl_sub(x, mean), rstd);
        tl_store(tl_add(Y, cols), tl_add(tl_mul(x_hat, w), b), .mask = mask);
    }
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "layer_norm: out of memory\n");
        exit(1);
    }
    return p;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)rand() / (float)RAND_MAX; }
/* the largest error so far; a NaN sticks */
static double worse(double err, double got, double want)
{
    double e = fabs(got - want) / (1 + fabs(want));
    return e > err || e != e ? e : err;
}

int main(void)
{
    enum { M = 64, N = 1000, BLOCK = 256 };           /* 3 full blocks and 232 columns more */
    const float eps = 1e-5f;
    size_t bytes = M * N * sizeof(float);
    float *hx = need(malloc(bytes)), *hy = need(malloc(bytes)), *hw = need(malloc(N * sizeof(float)));
    float *hb = need(malloc(N * sizeof(float))), *hmean = need(malloc(M * sizeof(float)));
    float *hrstd = need(malloc(M * sizeof(float)));
    srand((unsigned)time(NULL));
    for (int i = 0; i < M * N; i++) hx[i] = uniform(-2.8f, -1.8f);   /* an offset mean, as Triton's */
    for (int j = 0; j < N; j++) {
        hw[j] = uniform(0, 2);
        hb[j] = uniform(-1, 1);
    }

    float *x = need(tile_malloc(bytes)), *y = need(tile_malloc(bytes));
    float *w = need(tile_malloc(N * sizeof(float))), *b = need(tile_malloc(N * sizeof(float)));
    float *mean = need(tile_malloc(M * sizeof(float))), *rstd = need(tile_malloc(M * sizeof(float)));
    tile_memcpy_htod(x, hx, bytes);
    tile_memcpy_htod(w, hw, N * sizeof(float));
    tile_memcpy_htod(b, hb, N * sizeof(float));
    tile_memset(y, 0xff, bytes);                      /* NaN: a lane never written shows */
    tile_memset(mean, 0xff, M * sizeof(float));
    tile_memset(rstd, 0xff, M * sizeof(float));

    tile_status st = layer_norm_fwd(TILE_OPTS(.grid = {M}, .meta = {{"BLOCK", BLOCK}}),
                                    x, y, w, b, mean, rstd, N, N, eps);
    tile_memcpy_dtoh(hy, y, bytes);
    tile_memcpy_dtoh(hmean, mean, M * sizeof(float));
    tile_memcpy_dtoh(hrstd, rstd, M * sizeof(float));

    double err = 0;                                   /* relative to 1 + |want| */
    for (int r = 0; r < M; r++) {
        const float *xr = hx + r * N;
        double mu = 0, var = 0;
        for (int j = 0; j < N; j++) mu += xr[j];
        mu /= N;
        for (int j = 0; j < N; j++) var += (xr[j] - mu) * (xr[j] - mu);
        double rs = 1 / sqrt(var / N + eps);
        err = worse(err, hmean[r], mu);
        err = worse(err, hrstd[r], rs);
        for (int j = 0; j < N; j++) err = worse(err, hy[r * N + j], (xr[j] - mu) * rs * hw[j] + hb[j]);
    }
    int ok = st == TILE_OK && err <= 1e-5;            /* f32 sums of 1000 terms */
    printf("layer_norm: %d x %d (BLOCK %d), max error %.3g in Y, Mean, Rstd vs C reference: %s\n",
           M, N, BLOCK, err, ok ? "OK" : "FAILED");

    tile_free(x);
    tile_free(y);
    tile_free(w);
    tile_free(b);
    tile_free(mean);
    tile_free(rstd);
    free(hx);
    free(hy);
    free(hw);
    free(hb);
    free(hmean);
    free(hrstd);
    tile_kernel_release(TILE_KERNEL_OF(layer_norm_fwd));
    return ok ? 0 : 1;
}
