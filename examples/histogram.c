/* examples/histogram.c — run-time control flow and atomics.

   bins[v % NBINS] += 1 for every value v of x, and *max_out = max(x). The
   values come in blocks of BLOCK; program p walks blocks p, p + P, ... in a
   TL_FOR whose step (the number of programs) is known only at run time.
   A whole block needs no mask; the last, partial one does: TL_IF / TL_ELSE
   picks the path at run time and yields the loaded values v from either
   branch. Lanes of one tl_atomic_add that hit the same bin all count.
   Each program keeps a lane-wise running max, carried by the loop, and
   publishes it with one tl_atomic_max. Checked exactly against a C count. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

TILE_KERNEL(histogram_kernel, (tl_ptr_i32, x), (tl_ptr_i32, bins), (tl_ptr_i32, max_out), (tl_i32, n))
{
    int  BLOCK    = TL_META(BLOCK), NBINS = TL_META(NBINS);
    tl_t lanes    = tl_arange(0, BLOCK);
    tl_t lane_max = tl_full(TL_I32, -1, BLOCK);       /* the values are >= 0 */
    TL_FOR (blk, tl_program_id(0), tl_cdiv(n, BLOCK), tl_num_programs(0), lane_max) {
        tl_t start = tl_mul(blk, BLOCK);
        tl_t offs  = tl_add(start, lanes);
        tl_t v     = lanes;                           /* replaced by both branches */
        TL_IF (tl_le(tl_add(start, BLOCK), n), v) {   /* a whole block */
            v = tl_load(tl_add(x, offs));
            tl_atomic_add(tl_add(bins, tl_mod(v, NBINS)), 1);
        } TL_ELSE {                                   /* the tail: lanes past n load -1 and add nothing */
            tl_t mask = tl_lt(offs, n);
            v = tl_load(tl_add(x, offs), .mask = mask, .other = -1);
            tl_atomic_add(tl_add(bins, tl_mod(v, NBINS)), 1, .mask = mask);
        }
        lane_max = tl_maximum(lane_max, v);
    }
    tl_atomic_max(max_out, tl_max(lane_max, 0));
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "histogram: out of memory\n");
        exit(1);
    }
    return p;
}

int main(void)
{
    enum { N = 50000, BLOCK = 512, NBINS = 100, PROGRAMS = 16 };  /* 97 whole blocks and 336 values */
    int32_t *hx = need(malloc(N * sizeof(int32_t))), hbins[NBINS], want[NBINS] = {0};
    int32_t hmax, want_max = -1, init_max = -1;
    srand((unsigned)time(NULL));
    for (int i = 0; i < N; i++) {
        hx[i] = rand() % 1000000;
        want[hx[i] % NBINS]++;
        if (hx[i] > want_max) want_max = hx[i];
    }

    int32_t *x = need(tile_malloc(N * sizeof(int32_t))), *bins = need(tile_malloc(sizeof hbins));
    int32_t *max_out = need(tile_malloc(sizeof hmax));
    tile_memcpy_htod(x, hx, N * sizeof(int32_t));
    tile_memset(bins, 0, sizeof hbins);               /* the atomics add to what is there */
    tile_memcpy_htod(max_out, &init_max, sizeof init_max);

    tile_status st = histogram_kernel(TILE_OPTS(.grid = {PROGRAMS}, .meta = {{"BLOCK", BLOCK}, {"NBINS", NBINS}}),
                                      x, bins, max_out, N);
    tile_memcpy_dtoh(hbins, bins, sizeof hbins);
    tile_memcpy_dtoh(&hmax, max_out, sizeof hmax);

    int wrong_bins = 0;
    for (int i = 0; i < NBINS; i++) wrong_bins += hbins[i] != want[i];
    int ok = st == TILE_OK && wrong_bins == 0 && hmax == want_max;
    printf("histogram: n=%d into %d bins (BLOCK %d, %d programs), %d bins differ, max %d (want %d) "
           "vs C reference: %s\n", N, NBINS, BLOCK, PROGRAMS, wrong_bins, (int)hmax, (int)want_max, ok ? "OK" : "FAILED");

    tile_free(x);
    tile_free(bins);
    tile_free(max_out);
    free(hx);
    tile_kernel_release(TILE_KERNEL_OF(histogram_kernel));
    return ok ? 0 : 1;
}
