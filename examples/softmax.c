/* examples/softmax.c — Triton's tutorial 02: a fused row softmax.

   softmax(x) = exp(x - max x) / sum exp(x - max x), row by row, with the
   row read from memory once. A row fits in one tile of BLOCK columns (the
   next power of two >= n_cols); the lanes past n_cols load -inf, so they
   neither win the max nor add to the sum (exp(-inf) = 0). Fewer programs
   than rows: program p takes rows p, p + P, p + 2P, ... in a TL_FOR with a
   run-time step. The input rows are padded (row stride > n_cols). Checked
   against softmax in float64. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

TILE_KERNEL(softmax_kernel, (tl_ptr_f32, output_ptr), (tl_ptr_f32, input_ptr),
            (tl_i32, input_row_stride), (tl_i32, output_row_stride), (tl_i32, n_rows), (tl_i32, n_cols))
{
    int  BLOCK       = TL_META(BLOCK);
    tl_t col_offsets = tl_arange(0, BLOCK);
    tl_t mask        = tl_lt(col_offsets, n_cols);
    TL_FOR (row_idx, tl_program_id(0), n_rows, tl_num_programs(0)) {
        tl_t row_start_ptr  = tl_add(input_ptr, tl_mul(row_idx, input_row_stride));
        tl_t row            = tl_load(tl_add(row_start_ptr, col_offsets), .mask = mask, .other = -INFINITY);
        tl_t row_minus_max  = tl_sub(row, tl_max(row, 0));
        tl_t numerator      = tl_exp(row_minus_max);
        tl_t denominator    = tl_sum(numerator, 0);
        tl_t softmax_output = tl_div(numerator, denominator);
        tl_t out_start_ptr  = tl_add(output_ptr, tl_mul(row_idx, output_row_stride));
        tl_store(tl_add(out_start_ptr, col_offsets), softmax_output, .mask = mask);
    }
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "softmax: out of memory\n");
        exit(1);
    }
    return p;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)rand() / (float)RAND_MAX; }
static int next_power_of_2(int n)
{
    int p = 1;
    while (p < n) p *= 2;
    return p;
}

int main(void)
{
    enum { ROWS = 256, COLS = 781, IN_STRIDE = 800, PROGRAMS = 64 };
    size_t in_bytes = ROWS * IN_STRIDE * sizeof(float), out_bytes = ROWS * COLS * sizeof(float);
    float *hin = need(malloc(in_bytes)), *hout = need(malloc(out_bytes));
    srand((unsigned)time(NULL));
    for (int i = 0; i < ROWS * IN_STRIDE; i++)
        hin[i] = uniform(-8, 8);                      /* the padding too: it must not matter */

    float *in = need(tile_malloc(in_bytes)), *out = need(tile_malloc(out_bytes));
    tile_memcpy_htod(in, hin, in_bytes);
    tile_memset(out, 0xff, out_bytes);                /* NaN: a lane never written shows */

    tile_status st = softmax_kernel(TILE_OPTS(.grid = {PROGRAMS}, .meta = {{"BLOCK", next_power_of_2(COLS)}}),
                                    out, in, IN_STRIDE, COLS, ROWS, COLS);
    tile_memcpy_dtoh(hout, out, out_bytes);

    double err = 0;                                   /* relative; a NaN sticks */
    for (int r = 0; r < ROWS; r++) {
        const float *x = hin + r * IN_STRIDE;
        double max = x[0], sum = 0;
        for (int c = 1; c < COLS; c++) max = fmax(max, x[c]);
        for (int c = 0; c < COLS; c++) sum += exp(x[c] - max);
        for (int c = 0; c < COLS; c++) {
            double want = exp(x[c] - max) / sum;
            double e = fabs(hout[r * COLS + c] - want) / want;
            if (e > err || e != e) err = e;
        }
    }
    int ok = st == TILE_OK && err <= 1e-5;            /* f32 exp and a 781-term f32 sum */
    printf("softmax: %d x %d (BLOCK %d, %d programs), max rel error %.3g vs C reference: %s\n",
           ROWS, COLS, next_power_of_2(COLS), PROGRAMS, err, ok ? "OK" : "FAILED");

    tile_free(in);
    tile_free(out);
    free(hin);
    free(hout);
    tile_kernel_release(TILE_KERNEL_OF(softmax_kernel));
    return ok ? 0 : 1;
}
