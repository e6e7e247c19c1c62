/* tests/cxx_twins.c — the C twins of test_cxx.cpp's kernels for the calls
   tile.hpp spells with several operands or results (tl::reduce_n,
   tl::associative_scan_n, the 4x random calls, tl::philox, tl::swizzle2d,
   tl::histogram, tl::broadcast, tl::print, tl::assume, the profile
   scopes; and tl::maximum / tl::max with .propagate_nan, tl::libdevice of the
   rounding-mode and Bessel functions): the same kernels written with the C macros, compiled as C11 and
   linked into test_cxx, which compares each pair's IR (source locations
   left out). Each twin has its C++ kernel's name, and is traced in the same
   order: operands left to right, depth first, options after them. */
#include "tile.h"

#include <string.h>

enum { R = 8, C = 64, B = 64, BINS = 16 };

/* argmax, the first index on ties: (value, index) pairs */
static void arg_max(const tl_t *a, const tl_t *b, tl_t *out) {
    tl_t take_b = tl_or(tl_gt(b[0], a[0]), tl_and(tl_eq(b[0], a[0]), tl_lt(b[1], a[1])));
    out[0] = tl_where(take_b, b[0], a[0]);
    out[1] = tl_where(take_b, b[1], a[1]);
}
/* the min and the max in one pass */
static void min_max(const tl_t *a, const tl_t *b, tl_t *out) {
    out[0] = tl_minimum(a[0], b[0]);
    out[1] = tl_maximum(a[1], b[1]);
}
/* x -> m x + c, composed: (m1, c1) then (m2, c2) is (m1 m2, m2 c1 + c2) */
static void affine(const tl_t *a, const tl_t *b, tl_t *out) {
    out[0] = tl_mul(a[0], b[0]);
    out[1] = tl_add(tl_mul(b[0], a[1]), b[1]);
}
/* the running max with its index, the later one on ties when LAST is 1
   (C has no closures: the meta-parameter is read here) */
static void run_max(const tl_t *a, const tl_t *b, tl_t *out) {
    tl_t take_b;
    if (TL_META(LAST)) take_b = tl_ge(b[0], a[0]);
    else take_b = tl_gt(b[0], a[0]);
    out[0] = tl_where(take_b, b[0], a[0]);
    out[1] = tl_where(take_b, b[1], a[1]);
}
/* two maxima at once: of x, and of -x */
static void two_max(const tl_t *a, const tl_t *b, tl_t *out) {
    out[0] = tl_maximum(a[0], b[0]);
    out[1] = tl_maximum(a[1], b[1]);
}

TILE_KERNEL(cx_combine, (tl_ptr_f32, x), (tl_ptr_u32, mc), (tl_ptr_i32, rarg), (tl_ptr_f32, rbest), (tl_ptr_f32, rmin), (tl_ptr_f32, rmax),
            (tl_ptr_u32, sm), (tl_ptr_u32, sc), (tl_ptr_f32, runmax), (tl_ptr_i32, runarg), (tl_ptr_f32, all))
{
    int AX = TL_META(AX), REV = TL_META(REV);
    tl_t rows = tl_arange(0, R), cols = tl_arange(0, C);
    tl_t at = tl_add(tl_mul(tl_expand_dims(rows, 1), C), tl_expand_dims(cols, 0));
    tl_t v = tl_load(tl_add(x, at));
    tl_t idx;
    if (AX) idx = tl_broadcast_to(tl_expand_dims(cols, 0), R, C);
    else idx = tl_broadcast_to(tl_expand_dims(rows, 1), R, C);
    tl_t ro = tl_arange(0, AX ? R : C);
    tl_t vi[2] = {v, idx}, best[2];
    tl_reduce_n(2, vi, AX, arg_max, best);
    tl_store(tl_add(rarg, ro), best[1]);
    tl_store(tl_add(rbest, ro), best[0]);
    tl_t vv[2] = {v, v}, mm[2];
    tl_reduce_n(2, vv, AX, min_max, mm);
    tl_store(tl_add(rmin, ro), mm[0]);
    tl_store(tl_add(rmax, ro), mm[1]);
    tl_t mul = tl_load(tl_add(mc, tl_mul(at, 2)));
    tl_t add = tl_load(tl_add(mc, tl_add(tl_mul(at, 2), 1)));
    tl_t ma[2] = {mul, add}, sc2[2];
    tl_associative_scan_n(2, ma, AX, affine, sc2, .reverse = REV);
    tl_store(tl_add(sm, at), sc2[0]);
    tl_store(tl_add(sc, at), sc2[1]);
    tl_t run[2];
    tl_associative_scan_n(2, vi, AX, run_max, run);
    tl_store(tl_add(runmax, at), run[0]);
    tl_store(tl_add(runarg, at), run[1]);
    tl_t neg[2] = {v, tl_neg(v)}, top[2];
    tl_reduce_n(2, neg, TL_ALL, two_max, top, .keep_dims = 1);
    tl_t z = tl_zeros(TL_I32, 1, 1);
    tl_store(tl_add(all, z), top[0]);
    tl_store(tl_add(tl_add(all, 1), z), top[1]);
}

TILE_KERNEL(cx_random, (tl_u64, seed), (tl_i32, base), (tl_ptr_u32, ctr), (tl_ptr_f32, uin), (tl_ptr_u32, words), (tl_ptr_f32, unif),
            (tl_ptr_f32, norm), (tl_ptr_u32, pw), (tl_ptr_f32, pu), (tl_ptr_f32, pn))
{
    int ROUNDS = TL_META(ROUNDS);
    tl_t i = tl_arange(0, B);
    tl_t offs = tl_add(base, i);
    tl_t r[4], u[4], n[4];
    tl_randint4x(seed, offs, r, .n_rounds = ROUNDS);
    tl_rand4x(seed, offs, u, .n_rounds = ROUNDS);
    tl_randn4x(seed, offs, n, .n_rounds = ROUNDS);
    for (int k = 0; k < 4; k++) {
        tl_store(tl_add(words, tl_add(i, k * B)), r[k]);
        tl_store(tl_add(unif, tl_add(i, k * B)), u[k]);
        tl_store(tl_add(norm, tl_add(i, k * B)), n[k]);
    }
    tl_t c[4], w[4];
    for (int k = 0; k < 4; k++) c[k] = tl_load(tl_add(ctr, tl_add(i, k * B)));
    tl_philox(seed, c, w, .n_rounds = ROUNDS);
    for (int k = 0; k < 4; k++) tl_store(tl_add(pw, tl_add(i, k * B)), w[k]);
    tl_store(tl_add(pu, i), tl_uint_to_uniform_float(tl_load(tl_add(ctr, i))));
    tl_t u1 = tl_load(tl_add(uin, i)), u2 = tl_load(tl_add(uin, tl_add(i, B))), n1, n2;
    tl_pair_uniform_to_normal(u1, u2, &n1, &n2);
    tl_store(tl_add(pn, i), n1);
    tl_store(tl_add(pn, tl_add(i, B)), n2);
}

TILE_KERNEL(cx_misc, (tl_ptr_i32, hv), (tl_ptr_i32, hist), (tl_ptr_i32, sw_i), (tl_ptr_i32, sw_j), (tl_ptr_i32, bc), (tl_i32, n), (tl_i32, size_g))
{
    int SI = TL_META(SI), SJ = TL_META(SJ);
    tl_profile_enter("misc");
    tl_t i = tl_arange(0, SI), j = tl_arange(0, SJ), bi, bj, ni, nj;
    tl_broadcast(tl_expand_dims(i, 1), tl_expand_dims(j, 0), &bi, &bj);
    tl_swizzle2d(bi, bj, SI, SJ, size_g, &ni, &nj);
    tl_t at = tl_add(tl_mul(bi, SJ), bj);
    tl_store(tl_add(sw_i, at), ni);
    tl_store(tl_add(sw_j, at), nj);
    tl_store(tl_add(bc, at), tl_add(tl_mul(bi, 1000), bj));
    tl_t offs = tl_arange(0, 64);
    tl_t mask = tl_lt(offs, n);
    tl_t vals = tl_load(tl_add(hv, offs));
    tl_t h = tl_histogram(vals, BINS, .mask = mask);
    tl_store(tl_add(hist, tl_arange(0, BINS)), h);
    /* the C macro names its condition by its text; C++ gives the text */
    tl_assume_at(__FILE__, __LINE__, tl_ge(n, 0), "n >= 0");
    tl_profile_exit("misc");
}

TILE_KERNEL(cx_print, (tl_ptr_i32, x), (tl_i32, n))
{
    tl_t v = tl_load(tl_add(x, tl_arange(0, 8)));
    tl_print("val:", v);
    tl_print("sum", tl_add(v, n), n);
    tl_print("here");
}

/* NaNs that win (.propagate_nan), libdevice's rounding-mode and Bessel functions by name */
TILE_KERNEL(cx_nan, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, mx), (tl_ptr_f32, mn), (tl_ptr_f32, rmax), (tl_ptr_f32, rmin), (tl_ptr_f32, lib),
            (tl_ptr_i32, ilib))
{
    tl_t rows = tl_arange(0, R), cols = tl_arange(0, C);
    tl_t at = tl_add(tl_mul(tl_expand_dims(rows, 1), C), tl_expand_dims(cols, 0));
    tl_t v = tl_load(tl_add(x, at)), w = tl_load(tl_add(y, at));
    tl_store(tl_add(mx, at), tl_maximum(v, w, .propagate_nan = 1));
    tl_store(tl_add(mn, at), tl_minimum(v, w, .propagate_nan = TL_PROPAGATE_NAN_ALL));
    tl_store(tl_add(rmax, rows), tl_max(v, 1, .propagate_nan = 1));
    tl_store(tl_add(rmin, cols), tl_min(v, 0, .propagate_nan = 1));
    tl_store(tl_add(lib, at), tl_add(tl_libdevice("fma_rz", v, w, 1.0), tl_libdevice("j0", w)));
    tl_store(tl_add(ilib, at), tl_libdevice("float2int_rd", w));
}

/* the twin of test_cxx.cpp's kernel of this name */
tile_kernel *cx_twin(const char *name);
tile_kernel *cx_twin(const char *name) {
    if (!strcmp(name, "cx_combine")) return TILE_KERNEL_OF(cx_combine);
    if (!strcmp(name, "cx_random")) return TILE_KERNEL_OF(cx_random);
    if (!strcmp(name, "cx_misc")) return TILE_KERNEL_OF(cx_misc);
    if (!strcmp(name, "cx_print")) return TILE_KERNEL_OF(cx_print);
    if (!strcmp(name, "cx_nan")) return TILE_KERNEL_OF(cx_nan);
    return NULL;
}
