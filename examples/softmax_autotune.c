/* examples/softmax_autotune.c — examples/softmax.c's kernel, autotuned.

   BLOCK is not tuned: it is a heuristic, the next power of two >= n_cols
   (Triton's tutorial computes it the same way). What is tuned is how the
   rows are spread: num_warps per program, and how many rows each program
   takes (the grid, which depends on the config: a grid callback, like
   Triton's `grid = lambda META: ...`). The key is n_cols: a new row length
   tunes again, a new row count does not. The first run of this program
   tunes and stores the winner in the disk cache (TILE_CACHE_DIR); the next
   run loads it and tunes nothing (TILE_AUTOTUNE_VERBOSE=1 shows which).

       softmax_autotune [ROWS COLS]      default 256 x 781 (the interpreter's size)

   Checked against softmax in float64; with a GPU it also times the tuned
   launch against a hand-picked one with tile_do_bench. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* one row: its softmax, stored. It divides once (the reciprocal of the
   row's sum, then a product an element: within an ulp of the quotient,
   where examples/softmax.c divides every element), and e^x is
   2^(x log2 e), one multiply and ex2.approx, as Triton computes tl.exp of
   f32 (tl_exp is libdevice's expf, a few more instructions) */
static void softmax_row(tl_t row, tl_t row_idx, tl_t output_ptr, tl_t output_row_stride, tl_t col_offsets, tl_t mask)
{
    tl_t row_minus_max  = tl_sub(row, tl_max(row, 0));
    tl_t numerator      = tl_exp2(tl_mul(row_minus_max, 1.4426950408889634));
    tl_t denominator    = tl_sum(numerator, 0);
    tl_t softmax_output = tl_mul(numerator, tl_div(tl_full(TL_F32, 1.0), denominator));
    tl_t out_start_ptr  = tl_add(output_ptr, tl_mul(row_idx, output_row_stride));
    tl_store(tl_add(out_start_ptr, col_offsets), softmax_output, .mask = mask);
}
TILE_KERNEL(softmax_autotuned, (tl_ptr_f32, output_ptr), (tl_ptr_f32, input_ptr),
            (tl_i32, input_row_stride), (tl_i32, output_row_stride), (tl_i32, n_rows), (tl_i32, n_cols))
{
    int  BLOCK       = TL_META(BLOCK);
    tl_t col_offsets = tl_arange(0, BLOCK);
    tl_t mask        = tl_lt(col_offsets, n_cols);
    tl_t first       = tl_program_id(0), step = tl_num_programs(0);
    if (TL_META_OR(ROWS_PER_PROGRAM, 1) == 1) {
        TL_FOR (row_idx, first, n_rows, step) {
            tl_t row = tl_load(tl_add(tl_add(input_ptr, tl_mul(row_idx, input_row_stride)), col_offsets), .mask = mask, .other = -INFINITY);
            softmax_row(row, row_idx, output_ptr, output_row_stride, col_offsets, mask);
        }
        return;
    }
    /* several rows a program: the row after this one is loaded before this
       one is computed and stored (carried in registers), so that its loads
       are in flight while the program works (twice the registers: on an
       H100 a program of 16 warps then has a multiprocessor to itself) */
    tl_t row = tl_load(tl_add(tl_add(input_ptr, tl_mul(first, input_row_stride)), col_offsets),
                       .mask = tl_logical_and(mask, tl_lt(first, n_rows)), .other = -INFINITY);
    TL_FOR (row_idx, first, n_rows, step, row) {
        tl_t next_idx = tl_add(row_idx, step);
        tl_t next_ptr = tl_add(input_ptr, tl_mul(next_idx, input_row_stride));
        tl_t next     = tl_load(tl_add(next_ptr, col_offsets), .mask = tl_logical_and(mask, tl_lt(next_idx, n_rows)), .other = -INFINITY);
        softmax_row(row, row_idx, output_ptr, output_row_stride, col_offsets, mask);
        row = next;
    }
}

/* ROWS_PER_PROGRAM shapes the grid; the kernel reads only whether it is 1 */
static const tile_autotune_config configs[] = {
    {.meta = {{"ROWS_PER_PROGRAM", 1}}, .num_warps = 4},  {.meta = {{"ROWS_PER_PROGRAM", 1}}, .num_warps = 8},
    {.meta = {{"ROWS_PER_PROGRAM", 1}}, .num_warps = 16}, {.meta = {{"ROWS_PER_PROGRAM", 4}}, .num_warps = 8},
    {.meta = {{"ROWS_PER_PROGRAM", 4}}, .num_warps = 16}, {.meta = {{"ROWS_PER_PROGRAM", 8}}, .num_warps = 16},
};
static long long block_for(const tile_tune_args *a)
{
    long long n = tile_tune_int(a, "n_cols"), p = 1;
    while (p < n) p *= 2;
    return p;
}
static void grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "n_rows"), tile_tune_meta(a, "ROWS_PER_PROGRAM"));
}
static tile_autotuner tuner = {
    TILE_AUTOTUNE_CONFIGS(configs),
    .key        = {"n_cols"},
    .grid       = grid,
    .heuristics = {{"BLOCK", block_for}},
};

typedef struct run_ctx { float *out, *in; int rows, cols, stride; const tile_launch *fixed; } run_ctx;
static tile_status run_tuned(void *p)
{
    run_ctx *c = (run_ctx *)p;
    return softmax_autotuned(TILE_OPTS(.tune = &tuner), c->out, c->in, c->stride, c->cols, c->rows, c->cols);
}
static tile_status run_fixed(void *p)
{
    run_ctx *c = (run_ctx *)p;
    return softmax_autotuned(c->fixed, c->out, c->in, c->stride, c->cols, c->rows, c->cols);
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "softmax_autotune: out of memory\n");
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    int rows = argc > 2 ? atoi(argv[1]) : 256, cols = argc > 2 ? atoi(argv[2]) : 781;
    int stride = cols + (cols > 4096 ? 0 : 19);         /* padded rows when small */
    size_t in_bytes = (size_t)rows * stride * sizeof(float), out_bytes = (size_t)rows * cols * sizeof(float);
    float *hin = need(malloc(in_bytes)), *hout = need(malloc(out_bytes));
    srand(1);
    for (size_t i = 0; i < (size_t)rows * stride; i++) hin[i] = -8 + 16 * (float)rand() / (float)RAND_MAX;

    float *in = need(tile_malloc(in_bytes)), *out = need(tile_malloc(out_bytes));
    tile_memcpy_htod(in, hin, in_bytes);
    tile_memset(out, 0xff, out_bytes);                  /* NaN: a lane never written shows */

    tile_status st = softmax_autotuned(TILE_OPTS(.tune = &tuner), out, in, stride, cols, rows, cols);
    tile_memcpy_dtoh(hout, out, out_bytes);

    double err = 0;                                     /* relative; a NaN sticks */
    for (int r = 0; r < rows; r++) {
        const float *x = hin + (size_t)r * stride;
        double max = x[0], sum = 0;
        for (int c = 1; c < cols; c++) max = fmax(max, x[c]);
        for (int c = 0; c < cols; c++) sum += exp(x[c] - max);
        for (int c = 0; c < cols; c++) {
            double want = exp(x[c] - max) / sum;
            double e = fabs(hout[(size_t)r * cols + c] - want) / want;
            if (e > err || e != e) err = e;
        }
    }
    /* the winner, as the tuner launches it */
    tile_arg args[6];
    args[0].p = out, args[1].p = in, args[2].i = stride, args[3].i = cols, args[4].i = rows, args[5].i = cols;
    tile_launch best = {0};                             /* (read below even when tuning failed) */
    if (st == TILE_OK) st = tile_autotune_best(&tuner, TILE_KERNEL_OF(softmax_autotuned), NULL, args, &best);
    int ok = st == TILE_OK && err <= 1e-5;
    printf("softmax_autotune: %d x %d, tuned: BLOCK %lld, %d warps, %u programs; max rel error %.3g vs C reference: %s\n",
           rows, cols, tile_meta_of(&best, "BLOCK"), best.num_warps ? best.num_warps : 4, best.grid[0], err,
           ok ? "OK" : "FAILED");
    if (st != TILE_OK) printf("  %s\n", tile_last_error());

    /* on a GPU: the tuned launch against the hand-picked one of bench/bench_memory.c */
    if (ok && strcmp(tile_backend_name(), "interp") != 0) {
        run_ctx c = {out, in, rows, cols, stride, NULL};
        tile_launch fixed = {.grid = {(unsigned)rows}, .meta = {{"BLOCK", tile_meta_of(&best, "BLOCK")}}, .num_warps = 8};
        c.fixed = &fixed;
        tile_bench_result tuned_r, fixed_r;
        double gb = 2.0 * (double)rows * cols * sizeof(float) / 1e9;
        if (tile_do_bench(run_tuned, &c, NULL, &tuned_r) == TILE_OK && tile_do_bench(run_fixed, &c, NULL, &fixed_r) == TILE_OK)
            printf("  tuned      %.4f ms (p20 %.4f, p80 %.4f) %7.0f GB/s\n"
                   "  hand-picked BLOCK %lld, 8 warps, one program per row: %.4f ms (p20 %.4f, p80 %.4f) %7.0f GB/s\n",
                   tuned_r.median_ms, tuned_r.p20_ms, tuned_r.p80_ms, gb / (tuned_r.median_ms * 1e-3), tile_meta_of(&best, "BLOCK"),
                   fixed_r.median_ms, fixed_r.p20_ms, fixed_r.p80_ms, gb / (fixed_r.median_ms * 1e-3));
    }

    tile_free(in);
    tile_free(out);
    free(hin);
    free(hout);
    tile_autotune_release(&tuner);
    tile_kernel_release(TILE_KERNEL_OF(softmax_autotuned));
    return ok ? 0 : 1;
}
