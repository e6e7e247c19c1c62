/* tests/cxx_twins.c — the C twins of test_cxx.cpp's kernels for the calls
   tile.hpp spells with several operands or results (tl::reduce_n,
   tl::associative_scan_n, the 4x random calls, tl::philox, tl::swizzle2d,
   tl::histogram, tl::broadcast, tl::print, tl::assume, the profile
   scopes, tl::dot_scaled, tl::map_elementwise, tl::inline_asm_elementwise of
   two results; and tl::maximum / tl::max / tl::clamp with .propagate_nan, tl::libdevice
   of the rounding-mode and Bessel functions): the same kernels written with
   the C macros, compiled as C11 and linked into test_cxx, which compares
   each pair's IR (source locations
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

TILE_KERNEL(cx_scaled, (tl_ptr_u8, a), (tl_ptr_u8, sa), (tl_ptr_bf16, b), (tl_ptr_u8, e), (tl_ptr_u8, f), (tl_ptr_u8, sf), (tl_ptr_f32, c1),
            (tl_ptr_f32, c2))
{
    tl_t r16 = tl_arange(0, 16), r64 = tl_arange(0, 64), r2 = tl_arange(0, 2);
    tl_t A = tl_load(tl_add(tl_add(a, tl_mul(tl_expand_dims(r16, 1), 32)), tl_expand_dims(tl_arange(0, 32), 0)));
    tl_t SA = tl_load(tl_add(tl_add(sa, tl_mul(tl_expand_dims(r16, 1), 2)), tl_expand_dims(r2, 0)));
    tl_t Bm = tl_load(tl_add(tl_add(b, tl_mul(tl_expand_dims(r64, 1), 16)), tl_expand_dims(r16, 0)));
    tl_t acc = tl_full(TL_F32, 1.0, 16, 16);
    tl_t o16 = tl_add(tl_mul(tl_expand_dims(r16, 1), 16), tl_expand_dims(r16, 0));
    tl_store(tl_add(c1, o16), tl_dot_scaled(A, SA, TL_FMT_E2M1, Bm, TL_NO_SCALE, TL_FMT_BF16, .acc = acc, .fast_math = 1));
    tl_t E = tl_load(tl_add(tl_add(e, tl_mul(tl_expand_dims(r16, 1), 64)), tl_expand_dims(r64, 0)));
    tl_t F = tl_load(tl_add(tl_add(f, tl_mul(tl_expand_dims(r64, 1), 8)), tl_expand_dims(tl_arange(0, 8), 0)));
    tl_store(tl_add(c2, o16), tl_dot_scaled(E, TL_NO_SCALE, TL_FMT_E5M2, F, tl_load(tl_add(tl_add(sf, tl_mul(tl_expand_dims(r16, 1), 2)), tl_expand_dims(r2, 0))),
                                            TL_FMT_E2M1, .rhs_n_pack = 1));
}

TILE_KERNEL(cx_print, (tl_ptr_i32, x), (tl_i32, n))
{
    tl_t v = tl_load(tl_add(x, tl_arange(0, 8)));
    tl_print("val:", v);
    tl_print("sum", tl_add(v, n), n);
    tl_print("here");
}

/* selu scaled by a value made outside (C has no closures: the kernel hands it over in a static) */
static tl_t g_scale;
static tl_t scaled_selu(const tl_t *x) {
    tl_t r = x[0];
    TL_IF (tl_le(x[0], 0), r) { r = tl_mul(x[1], tl_sub(tl_exp(x[0]), 1)); }
    return tl_mul(g_scale, r);
}
static void div_sum(const tl_t *x, tl_t *out) {
    out[0] = tl_div(x[0], x[2]);
    out[1] = tl_div(x[1], x[3]);
    out[2] = tl_add(x[0], x[1]);
    out[3] = tl_add(x[0], x[1]);
}
static void max_lt(const tl_t *x, tl_t *out) {
    tl_t hi = x[1];
    TL_IF (tl_lt(x[1], x[0]), hi) { hi = x[0]; }
    out[0] = hi;
    out[1] = tl_lt(x[0], x[1]);
}
TILE_KERNEL(cx_map, (tl_ptr_f32, x), (tl_f32, alpha), (tl_ptr_i32, a), (tl_ptr_i32, b), (tl_ptr_f32, y), (tl_ptr_i32, q), (tl_ptr_i32, s),
            (tl_ptr_i32, mx), (tl_ptr_i8, lt))
{
    tl_t offs = tl_arange(0, B);
    g_scale = tl_add(tl_mul(alpha, 0.5f), 1);
    tl_t ys = tl_map_elementwise(scaled_selu, (tl_load(tl_add(x, offs)), alpha));
    tl_store(tl_add(y, offs), ys);
    tl_t av = tl_load(tl_add(a, offs)), bv = tl_load(tl_add(b, offs)), qs[2], m[2];
    tl_map_elementwise_n(div_sum, (av, tl_add(bv, 0)), 2, qs, .pack = 2);
    tl_store(tl_add(q, offs), qs[0]);
    tl_store(tl_add(s, offs), qs[1]);
    tl_map_elementwise_n(max_lt, (av, bv), 2, m);
    tl_store(tl_add(mx, offs), m[0]);
    tl_store(tl_add(lt, offs), tl_cast(m[1], TL_I8));
}

static const tl_dtype asm_ii[2] = {TL_I32, TL_I32}, asm_if[2] = {TL_I32, TL_F32};
TILE_KERNEL(cx_asm_n, (tl_ptr_i32, x), (tl_ptr_u8, b), (tl_ptr_i32, qr), (tl_ptr_f32, f))
{
    tl_t offs = tl_arange(0, 64), r[2], w[2];
    tl_inline_asm_elementwise_n("div.s32 $0, $2, $3;\n\trem.s32 $1, $2, $3;", "=r,=r,r,r", (tl_load(tl_add(x, offs)), 7), 2, asm_ii, 1, 1, r);
    tl_store(tl_add(qr, offs), tl_add(tl_mul(r[0], 7), r[1]));
    tl_inline_asm_elementwise_n("bfe.u32 $0, $8, 0, 8;\n\tbfe.u32 $1, $8, 8, 8;\n\tbfe.u32 $2, $8, 16, 8;\n\tbfe.u32 $3, $8, 24, 8;\n\t"
                                "cvt.rn.f32.u32 $4, $0;\n\tcvt.rn.f32.u32 $5, $1;\n\tcvt.rn.f32.u32 $6, $2;\n\tcvt.rn.f32.u32 $7, $3;",
                                "=r,=r,=r,=r,=f,=f,=f,=f,r", (tl_load(tl_add(b, offs))), 2, asm_if, 1, 4, w);
    tl_store(tl_add(f, offs), tl_add(w[1], tl_cast(w[0], TL_F32)));
}

/* NaNs that win (.propagate_nan), libdevice's rounding-mode and Bessel functions, norm4d and signbit by name */
TILE_KERNEL(cx_nan, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, mx), (tl_ptr_f32, mn), (tl_ptr_f32, rmax), (tl_ptr_f32, rmin), (tl_ptr_f32, lib),
            (tl_ptr_i32, ilib), (tl_ptr_f32, cl))
{
    tl_t rows = tl_arange(0, R), cols = tl_arange(0, C);
    tl_t at = tl_add(tl_mul(tl_expand_dims(rows, 1), C), tl_expand_dims(cols, 0));
    tl_t v = tl_load(tl_add(x, at)), w = tl_load(tl_add(y, at));
    tl_store(tl_add(mx, at), tl_maximum(v, w, .propagate_nan = 1));
    tl_store(tl_add(mn, at), tl_minimum(v, w, .propagate_nan = TL_PROPAGATE_NAN_ALL));
    tl_store(tl_add(rmax, rows), tl_max(v, 1, .propagate_nan = 1));
    tl_store(tl_add(rmin, cols), tl_min(v, 0, .propagate_nan = 1));
    tl_store(tl_add(cl, at), tl_clamp(v, w, 1.0, .propagate_nan = 1));
    tl_store(tl_add(lib, at), tl_add(tl_add(tl_libdevice("fma_rz", v, w, 1.0), tl_libdevice("j0", w)), tl_libdevice("norm4d", v, w, 1.0, 2.0)));
    tl_store(tl_add(ilib, at), tl_add(tl_libdevice("float2int_rd", w), tl_libdevice("signbit", w)));
}

/* the twin of test_cxx.cpp's kernel of this name */
tile_kernel *cx_twin(const char *name);
tile_kernel *cx_twin(const char *name) {
    if (!strcmp(name, "cx_combine")) return TILE_KERNEL_OF(cx_combine);
    if (!strcmp(name, "cx_random")) return TILE_KERNEL_OF(cx_random);
    if (!strcmp(name, "cx_misc")) return TILE_KERNEL_OF(cx_misc);
    if (!strcmp(name, "cx_print")) return TILE_KERNEL_OF(cx_print);
    if (!strcmp(name, "cx_scaled")) return TILE_KERNEL_OF(cx_scaled);
    if (!strcmp(name, "cx_map")) return TILE_KERNEL_OF(cx_map);
    if (!strcmp(name, "cx_asm_n")) return TILE_KERNEL_OF(cx_asm_n);
    if (!strcmp(name, "cx_nan")) return TILE_KERNEL_OF(cx_nan);
    return NULL;
}
