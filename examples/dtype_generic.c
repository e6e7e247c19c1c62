/* examples/dtype_generic.c — one kernel body for several dtypes.

   Triton compiles a kernel once per dtype of the tensors it is handed; a
   tile kernel gets the same with tl_ptr parameters. The launcher takes a
   tile_ptr (TILE_PTR(p, TL_F16), or TILE_PTR(p) where p's C type names the
   dtype), the dtypes are part of the specialization (built and compiled
   once each, like meta-parameters), and the body reads them with
   tl_element_ty. Here tutorial 01's vector add and tutorial 02's softmax
   run for f32, f16 and bf16, each checked against float64 C. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* out = x + y in the operands' dtype, as Triton's tutorial kernel does */
TILE_KERNEL(add_any, (tl_ptr, x), (tl_ptr, y), (tl_ptr, out), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(offs, n);
    tl_static_assert(tl_element_ty(x) == tl_element_ty(y) && tl_element_ty(y) == tl_element_ty(out),
                     "add_any adds tensors of one dtype");
    tl_t sum   = tl_add(tl_load(tl_add(x, offs), .mask = mask), tl_load(tl_add(y, offs), .mask = mask));
    tl_store(tl_add(out, offs), sum, .mask = mask);
}

/* one row per program, computed in f32 and stored in the output's dtype */
TILE_KERNEL(softmax_any, (tl_ptr, output_ptr), (tl_ptr, input_ptr), (tl_i32, n_rows), (tl_i32, n_cols))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t cols  = tl_arange(0, BLOCK);
    tl_t mask  = tl_lt(cols, n_cols);
    TL_FOR (row, tl_program_id(0), n_rows, tl_num_programs(0)) {
        tl_t x   = tl_load(tl_add(tl_add(input_ptr, tl_mul(row, n_cols)), cols), .mask = mask, .other = -INFINITY);
        x        = tl_cast(x, TL_F32);
        tl_t num = tl_exp(tl_sub(x, tl_max(x, 0)));
        tl_t y   = tl_div(num, tl_sum(num, 0));
        tl_store(tl_add(tl_add(output_ptr, tl_mul(row, n_cols)), cols), tl_cast(y, tl_element_ty(output_ptr)), .mask = mask);
    }
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "dtype_generic: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }
/* element i of a host array of dtype t, as a double, and back (rounded to t) */
static double get(tl_dtype t, const void *a, int i)
{
    if (t == TL_F16) return tile_f16_to(((const tile_f16 *)a)[i]);
    if (t == TL_BF16) return tile_bf16_to(((const tile_bf16 *)a)[i]);
    return ((const float *)a)[i];
}
static void put(tl_dtype t, void *a, int i, double v)
{
    if (t == TL_F16) ((tile_f16 *)a)[i] = tile_f16_from(v);
    else if (t == TL_BF16) ((tile_bf16 *)a)[i] = tile_bf16_from(v);
    else ((float *)a)[i] = (float)v;
}

int main(void)
{
    enum { N = 98432, ROWS = 1000, COLS = 781, MAXE = ROWS * COLS };
    static const tl_dtype dtypes[] = {TL_F32, TL_F16, TL_BF16};
    /* one rounding to the dtype: half an ulp, relative */
    static const double ulp[] = {0x1p-24, 0x1p-11, 0x1p-8};
    static const double tiny[] = {0x1p-126, 0x1p-14, 0x1p-126};   /* the smallest normal value */
    void *hx = need(malloc(MAXE * 4)), *hy = need(malloc(N * 4)), *ho = need(malloc(MAXE * 4));
    void *x = need(tile_malloc(MAXE * 4)), *y = need(tile_malloc(N * 4)), *out = need(tile_malloc(MAXE * 4));
    int ok = 1;
    srand((unsigned)time(NULL));

    for (int d = 0; d < 3; d++) {
        tl_dtype t = dtypes[d];
        size_t es = tile_dtype_size(t);

        /* vector add */
        for (int i = 0; i < N; i++) {
            put(t, hx, i, uniform(-1, 1));
            put(t, hy, i, uniform(-1, 1));
        }
        tile_memcpy_htod(x, hx, N * es);
        tile_memcpy_htod(y, hy, N * es);
        tile_memset(out, 0xff, N * es);               /* NaN: a lane never written shows */
        tile_status st = add_any(TILE_OPTS(.grid = {tile_cdiv(N, 1024)}, .meta = {{"BLOCK", 1024}}),
                                 TILE_PTR(x, t), TILE_PTR(y, t), TILE_PTR(out, t), N);
        tile_memcpy_dtoh(ho, out, N * es);
        double err = 0;                               /* in ulps of the sum; a NaN sticks */
        for (int i = 0; i < N; i++) {
            double want = get(t, hx, i) + get(t, hy, i);
            double e = fabs(get(t, ho, i) - want) / (fabs(want) * ulp[d] + 1e-30);
            if (want == 0) e = get(t, ho, i) == 0 ? 0 : INFINITY;
            if (e > err || e != e) err = e;
        }
        int add_ok = st == TILE_OK && err <= 1.0;    /* one rounding of the exact sum */
        printf("dtype_generic: add_any %-4s n=%d, max error %.3g half-ulps vs C reference: %s\n", tile_dtype_name(t), N, err,
               add_ok ? "OK" : "FAILED");

        /* softmax */
        for (int i = 0; i < ROWS * COLS; i++) put(t, hx, i, uniform(-4, 4));
        tile_memcpy_htod(x, hx, (size_t)ROWS * COLS * es);
        tile_memset(out, 0xff, (size_t)ROWS * COLS * es);
        st = softmax_any(TILE_OPTS(.grid = {132}, .meta = {{"BLOCK", 1024}}), TILE_PTR(out, t), TILE_PTR(x, t), ROWS, COLS);
        tile_memcpy_dtoh(ho, out, (size_t)ROWS * COLS * es);
        /* f32 math (1e-5, as examples/softmax.c), then one rounding to the
           dtype: relative, but absolute below the smallest normal value (f16
           has subnormals from 6.1e-5 down) */
        err = 0;
        for (int r = 0; r < ROWS; r++) {
            double max = -INFINITY, sum = 0;
            for (int c = 0; c < COLS; c++) max = fmax(max, get(t, hx, r * COLS + c));
            for (int c = 0; c < COLS; c++) sum += exp(get(t, hx, r * COLS + c) - max);
            for (int c = 0; c < COLS; c++) {
                double want = exp(get(t, hx, r * COLS + c) - max) / sum;
                double e = fabs(get(t, ho, r * COLS + c) - want) / fmax(want, tiny[d]);
                if (e > err || e != e) err = e;
            }
        }
        int sm_ok = st == TILE_OK && err <= 1e-5 + ulp[d];
        printf("dtype_generic: softmax_any %-4s %d x %d, max rel error %.3g vs C reference: %s\n", tile_dtype_name(t), ROWS, COLS, err,
               sm_ok ? "OK" : "FAILED");
        ok &= add_ok && sm_ok;
    }

    tile_free(x);
    tile_free(y);
    tile_free(out);
    free(hx);
    free(hy);
    free(ho);
    tile_kernel_release(TILE_KERNEL_OF(add_any));
    tile_kernel_release(TILE_KERNEL_OF(softmax_any));
    return ok ? 0 : 1;
}
