/* Compile test: tile.h from C++ (declarations only; the implementation is C11).
   Compiled with -fsyntax-only under -std=c++11 and -std=c++17,
   -Wall -Wextra -Werror -pedantic, by g++ and clang++ (see CMakeLists.txt).

   C++ has no compound literals, so TILE_OPTS and the keyword-argument macros
   (tl_load, tl_store, tl_sum, tl_dot, ...) are C only; from C++ a kernel calls
   their named functions (tl_load_at, ...) and fills the option structs by
   hand. Everything else -- TILE_KERNEL, the typed launcher, scalar/tile
   mixing by overloading, TL_FOR / TL_IF / TL_ELSE -- works as in C. */
#include "tile.h"

#include <cstdio>
#include <cstring>

TILE_KERNEL(scale_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_f32, alpha), (tl_i32, n))
{
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_load_args la = tl_load_args();
    la.mask = tl_lt(offs, n);
    tl_t v = tl_load_at(__FILE__, __LINE__, tl_add(x, offs), la);
    v = tl_mul(v, alpha);
    v = tl_add(v, 0.5f);            /* float literal: overload, not _Generic */
    v = tl_maximum(v, 0);           /* int literal */
    tl_t acc = tl_zeros(TL_F32, BLOCK);
    /* a combine function: a captureless lambda converts to one */
    tl_t top = tl_reduce_fn_at(__FILE__, __LINE__, v, 0, +[](tl_t a, tl_t b) { return tl_maximum(a, b); }, tl_reduce_args());
    acc = tl_add(acc, tl_mul(top, 0));
    /* a function per element: a captureless lambda converts to one too */
    v = tl_map_elementwise(+[](const tl_t *x) { return tl_abs(x[0]); }, (v));
    TL_FOR (k, 0, 4, 1, acc) {
        acc = tl_add(acc, tl_cast(k, TL_F32));
    }
    TL_IF (tl_gt(n, 0), acc) {
        acc = tl_add(acc, v);
    } TL_ELSE {
        acc = tl_neg(acc);
    }
    tl_store_args sa = tl_store_args();
    sa.mask = la.mask;
    tl_store_at(__FILE__, __LINE__, tl_add(out, offs), acc, sa);
}

/* a tl_ptr parameter: the launcher takes a tile_ptr (TILE_PTR overloads on the C++ type) */
TILE_KERNEL(copy_any, (tl_ptr, x), (tl_ptr, out))
{
    tl_t offs = tl_arange(0, 16);
    tl_t v = tl_load_at(__FILE__, __LINE__, tl_add(tl_ptr_cast(x, TL_U16), offs), tl_load_args());
    tl_store_at(__FILE__, __LINE__, tl_add(out, offs), tl_cast(v, tl_element_ty(out)), tl_store_args());
}

int main()
{
    const int n = 1000;
    float *x = static_cast<float *>(tile_malloc(n * sizeof(float)));
    float *out = static_cast<float *>(tile_malloc(n * sizeof(float)));
    tile_memset(x, 0, n * sizeof(float));
    tile_launch opts;
    std::memset(&opts, 0, sizeof opts);
    opts.grid[0] = tile_cdiv(n, 256);
    opts.meta[0].name = "BLOCK";
    opts.meta[0].value = 256;
    opts.file = __FILE__;
    opts.line = __LINE__;

    tile_status st = scale_kernel(&opts, x, out, 2.0f, n);
    if (st != TILE_OK) {
        const tile_error *e = tile_last_error_info();
        std::fprintf(stderr, "%s (%s: %s)\n", tile_last_error(), tile_status_id(e->status),
                     tile_status_text(st));
        tile_clear_error();
    }
    char *ir = NULL;
    if (tile_kernel_ir(TILE_KERNEL_OF(scale_kernel), &opts, &ir) == TILE_OK) {
        std::puts(ir);
        tile_free_text(ir);
    }
    tile_kernel_release(TILE_KERNEL_OF(scale_kernel));
    const tile_f16 *hx = reinterpret_cast<const tile_f16 *>(x);   /* TILE_PTR(hx): f16, from the C++ type */
    if (st == TILE_OK) st = copy_any(&opts, TILE_PTR(hx), TILE_PTR(out, TL_F32));
    tile_arg args[2] = {tile__arg_TL_PTR(TILE_PTR(x)), tile__arg_TL_PTR(TILE_PTR(out))};
    if (st == TILE_OK) st = tile_kernel_ir_for(TILE_KERNEL_OF(copy_any), &opts, args, &ir);
    if (st == TILE_OK) {
        std::puts(ir);
        tile_free_text(ir);
    }
    tile_kernel_release(TILE_KERNEL_OF(copy_any));
    tile_synchronize();
    tl_t none = {0, 0};
    tile_f16 h = tile_f16_from(1.5);
    std::printf("%s %s %zu %g %d\n", tile_backend_name(), tile_dtype_name(TL_F32),
                tile_dtype_size(TL_BF16), tile_f16_to(h), none.id);
    tile_free(x);
    tile_free(out);
    return st == TILE_OK ? 0 : 1;
}
