/* examples/vector_add.c — Triton's tutorial 01: out = x + y.

   Each program adds one BLOCK-element slice. n is not a multiple of BLOCK,
   so the last program's mask switches off the lanes past the end. BLOCK is
   a meta-parameter: a plain C int while the kernel is built, a constant in
   the IR. Checked against the same sum in float64. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK);                      /* a plain C int */
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(offs, n);
    tl_t sum   = tl_add(tl_load(tl_add(x, offs), .mask = mask),
                        tl_load(tl_add(y, offs), .mask = mask));
    tl_store(tl_add(out, offs), sum, .mask = mask);
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "vector_add: out of memory\n");
        exit(1);
    }
    return p;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)rand() / (float)RAND_MAX; }

int main(void)
{
    enum { N = 98432, BLOCK = 1024 };                 /* 96 full blocks and 128 more */
    size_t bytes = N * sizeof(float);
    float *hx = need(malloc(bytes)), *hy = need(malloc(bytes)), *hout = need(malloc(bytes));
    srand((unsigned)time(NULL));
    for (int i = 0; i < N; i++) {
        hx[i] = uniform(-1, 1);
        hy[i] = uniform(-1, 1);
    }

    /* every pointer a kernel touches comes from tile_malloc */
    float *x = need(tile_malloc(bytes)), *y = need(tile_malloc(bytes)), *out = need(tile_malloc(bytes));
    tile_memcpy_htod(x, hx, bytes);
    tile_memcpy_htod(y, hy, bytes);
    tile_memset(out, 0xff, bytes);                    /* NaN: a lane never written shows */

    tile_status st = add_kernel(TILE_OPTS(.grid = {tile_cdiv(N, BLOCK)}, .meta = {{"BLOCK", BLOCK}}),
                                x, y, out, N);
    tile_memcpy_dtoh(hout, out, bytes);

    double err = 0;                                   /* a NaN sticks */
    for (int i = 0; i < N; i++) {
        double e = fabs(hout[i] - ((double)hx[i] + (double)hy[i]));
        if (e > err || e != e) err = e;
    }
    int ok = st == TILE_OK && err <= 1e-6;            /* one f32 rounding of |sum| < 2 */
    printf("vector_add: n=%d, max abs error %.3g vs C reference: %s\n", N, err, ok ? "OK" : "FAILED");

    tile_free(x);
    tile_free(y);
    tile_free(out);
    free(hx);
    free(hy);
    free(hout);
    tile_kernel_release(TILE_KERNEL_OF(add_kernel));
    return ok ? 0 : 1;
}
