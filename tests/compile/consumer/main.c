/* The consumer of an installed tile: one kernel, launched, checked.
   Built with find_package(tile) and with pkg-config by cmake/package_test.cmake. */
#define TILE_IMPLEMENTATION
#include <tile.h>

#include <stdio.h>

TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(offs, n);
    tl_t sum   = tl_add(tl_load(tl_add(x, offs), .mask = mask),
                        tl_load(tl_add(y, offs), .mask = mask));
    tl_store(tl_add(out, offs), sum, .mask = mask);
}

int main(void)
{
    enum { N = 1000 };
    static float hx[N], hy[N], hout[N];
    float *x = tile_malloc(sizeof hx), *y = tile_malloc(sizeof hy), *out = tile_malloc(sizeof hout);
    int i, bad = 0;
    if (!x || !y || !out) {
        fprintf(stderr, "tile_malloc: %s\n", tile_last_error());
        return 1;
    }
    for (i = 0; i < N; i++) {
        hx[i] = (float)i;
        hy[i] = 2.0f * (float)i;
    }
    tile_memcpy_htod(x, hx, sizeof hx);
    tile_memcpy_htod(y, hy, sizeof hy);
    if (add_kernel(TILE_OPTS(.grid = {tile_cdiv(N, 256)}, .meta = {{"BLOCK", 256}}), x, y, out, N) != TILE_OK) {
        fprintf(stderr, "launch failed: %s\n", tile_last_error());
        return 1;
    }
    tile_memcpy_dtoh(hout, out, sizeof hout);
    for (i = 0; i < N; i++)
        bad += hout[i] != 3.0f * (float)i;
    tile_free(x);
    tile_free(y);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(add_kernel));
    printf("consumer: tile %s, backend %s, %s\n", TILE_VERSION_STRING, tile_backend_name(),
           bad ? "WRONG" : "ok");
    return bad != 0;
}
