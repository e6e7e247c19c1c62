/* tests/test_ops_libdevice.c — tl_libdevice(name, x...): libdevice's math
   functions called by name (Triton's extra.cuda.libdevice).

     - every function tile knows, in f32, f64 and f16, on random inputs drawn
       from its domain, against float64 references written here: the C math
       library where it has the function, else long double formulas or
       bisection (erfinv, erfcinv: on erf, erfc), so that tile's own
       implementations (ir.h's tile__ld_*) are checked by other code;
     - operands that broadcast (a scalar against a tile), C numbers;
     - user errors at the user's line: an unknown name, an integer tile, the
       wrong number of operands, a NULL name.
   In the interpreter the results are the C library's (rounded to the
   dtype); on a GPU libdevice's, within a few ulps: the tolerances allow
   both. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <float.h>

/* ---- the functions and their references -------------------------------------------- */
static long double pil(void) { return 3.14159265358979323846264338327950288L; }
static double r_exp10(double x) { return (double)powl(10.0L, (long double)x); }
static double r_rcbrt(double x) { return (double)(1.0L / cbrtl((long double)x)); }
static double r_cospi(double x) {
    long double r = fmodl(fabsl((long double)x), 2.0L);
    if (r == 0.5L || r == 1.5L) return 0.0;
    return (double)cosl(pil() * r);
}
static double r_sinpi(double x) {
    long double r = fmodl((long double)x, 2.0L);
    if (r == 0.0L || fabsl(r) == 1.0L) return 0.0;
    return (double)sinl(pil() * r);
}
/* exp(x^2) erfc(x): directly below 10; above, Laplace's continued fraction
   erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))),
   summed from the bottom (valgrind's long double is a double: exp(x^2) overflows) */
static double r_erfcx(double x) {
    if (x < 10) return (double)(expl((long double)x * (long double)x) * erfcl((long double)x));
    long double f = (long double)x;
    for (int k = 200; k >= 1; k--) f = (long double)x + (k / 2.0L) / f;
    return (double)(1.0L / (1.77245385090551602729816748334114518L * f));
}
/* bisection: the y where f(y) = v, f increasing (sign 1) or decreasing (-1) on [lo, hi] */
static double bisect(double (*f)(double), double v, double lo, double hi, int sign) {
    for (int k = 0; k < 200; k++) {
        double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi) break;
        if ((f(mid) - v) * sign < 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}
static double r_erfinv(double x) { return bisect(erf, x, -6.0, 6.0, 1); }
static double r_erfcinv(double z) { return bisect(erfc, z, -6.0, 27.0, -1); }

typedef struct fn {
    const char *name;
    int n;                              /* operands */
    double (*ref1)(double);             /* one operand */
    double (*ref2)(double, double);     /* two */
    double lo, hi, lo2, hi2;            /* the domains of x and y */
} fn;
static const fn fns[] = {
    {"acos", 1, acos, 0, -1, 1, 0, 0},            {"acosh", 1, acosh, 0, 1, 50, 0, 0},
    {"asin", 1, asin, 0, -1, 1, 0, 0},            {"asinh", 1, asinh, 0, -50, 50, 0, 0},
    {"atan", 1, atan, 0, -50, 50, 0, 0},          {"atanh", 1, atanh, 0, -0.99, 0.99, 0, 0},
    {"cbrt", 1, cbrt, 0, -1000, 1000, 0, 0},      {"cosh", 1, cosh, 0, -10, 10, 0, 0},
    {"sinh", 1, sinh, 0, -10, 10, 0, 0},          {"tan", 1, tan, 0, -1.5, 1.5, 0, 0},
    {"erfc", 1, erfc, 0, -3, 9, 0, 0},            {"expm1", 1, expm1, 0, -10, 10, 0, 0},
    {"log1p", 1, log1p, 0, -0.9, 100, 0, 0},      {"log10", 1, log10, 0, 0.001, 1000, 0, 0},
    {"exp10", 1, r_exp10, 0, -4, 4, 0, 0},        {"lgamma", 1, lgamma, 0, 0.1, 30, 0, 0},
    {"tgamma", 1, tgamma, 0, 0.1, 8, 0, 0},       {"trunc", 1, trunc, 0, -100, 100, 0, 0},
    {"round", 1, round, 0, -100, 100, 0, 0},      {"rint", 1, rint, 0, -100, 100, 0, 0},
    {"logb", 1, logb, 0, -1000, 1000, 0, 0},      {"cospi", 1, r_cospi, 0, -40, 40, 0, 0},
    {"sinpi", 1, r_sinpi, 0, -40, 40, 0, 0},      {"erfinv", 1, r_erfinv, 0, -0.999, 0.999, 0, 0},
    {"erfcinv", 1, r_erfcinv, 0, 0.001, 1.999, 0, 0}, {"erfcx", 1, r_erfcx, 0, -2, 40, 0, 0},
    {"rcbrt", 1, r_rcbrt, 0, 0.01, 1000, 0, 0},   {"exp", 1, exp, 0, -20, 20, 0, 0},
    {"fabs", 1, fabs, 0, -100, 100, 0, 0},        {"atan2", 2, 0, atan2, -10, 10, -10, 10},
    {"pow", 2, 0, pow, 0.1, 10, -4, 4},           {"hypot", 2, 0, hypot, -100, 100, -100, 100},
    {"copysign", 2, 0, copysign, -10, 10, -10, 10}, {"fdim", 2, 0, fdim, -10, 10, -10, 10},
    {"nextafter", 2, 0, nextafter, -10, 10, -10, 10}, {"remainder", 2, 0, remainder, -100, 100, 0.5, 10},
    {"fmod", 2, 0, fmod, -100, 100, 0.5, 10},    {"fmin", 2, 0, fmin, -10, 10, -10, 10},
};
enum { NFN = sizeof fns / sizeof fns[0], N = 1000 };

/* out = name(x) or name(x, y), FN the index in fns; SCALAR: y is y[0], one value for every lane */
static void ld_body(tl_t x, tl_t y, tl_t out, tl_t n) {
    const fn *f = &fns[TL_META(FN)];
    int BLOCK = TL_META(BLOCK), SCALAR = TL_META_OR(SCALAR, 0);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask, .other = 1);
    tl_t r;
    if (f->n == 1) r = tl_libdevice(f->name, xv);
    else if (SCALAR) r = tl_libdevice(f->name, xv, tl_load(y));
    else r = tl_libdevice(f->name, xv, tl_load(tl_add(y, offs), .mask = mask, .other = 1));
    tl_store(tl_add(out, offs), r, .mask = mask);
}
TILE_KERNEL(ld_f32, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n)) { ld_body(x, y, out, n); }
TILE_KERNEL(ld_f64, (tl_ptr_f64, x), (tl_ptr_f64, y), (tl_ptr_f64, out), (tl_i32, n)) { ld_body(x, y, out, n); }
TILE_KERNEL(ld_f16, (tl_ptr_f16, x), (tl_ptr_f16, y), (tl_ptr_f16, out), (tl_i32, n)) { ld_body(x, y, out, n); }

/* a value of dtype t (as a double) near v */
static double rnd(tl_dtype t, double v) {
    if (t == TL_F32) return (double)(float)v;
    if (t == TL_F16) return tile_f16_to(tile_f16_from((float)v));
    return v;
}
static void put(tl_dtype t, void *p, int i, double v) {
    if (t == TL_F32) ((float *)p)[i] = (float)v;
    else if (t == TL_F64) ((double *)p)[i] = v;
    else ((tile_f16 *)p)[i] = tile_f16_from((float)v);
}
static double get(tl_dtype t, const void *p, int i) {
    if (t == TL_F32) return ((const float *)p)[i];
    if (t == TL_F64) return ((const double *)p)[i];
    return tile_f16_to(((const tile_f16 *)p)[i]);
}

static void check_fn(int k, tl_dtype t, int scalar) {
    const fn *f = &fns[k];
    size_t es = tile_dtype_size(t);
    void *hx = malloc(N * es), *hy = malloc(N * es), *ho = malloc(N * es);
    double *got = (double *)malloc(N * sizeof(double)), *want = (double *)malloc(N * sizeof(double));
    /* f16: the domain within [-4, 4] and [0.001, 4] where the function's results stay finite */
    double lo = f->lo, hi = f->hi, lo2 = f->lo2, hi2 = f->hi2;
    if (t == TL_F16) {
        lo = lo < -4 ? -4 : lo, hi = hi > 4 ? 4 : hi;
        lo2 = lo2 < -4 ? -4 : lo2, hi2 = hi2 > 4 ? 4 : hi2;
    }
    for (int i = 0; i < N; i++) {
        double a = rnd(t, tt_uniform(lo, hi)), b = rnd(t, tt_uniform(lo2, hi2));
        if (i % 10 == 0) a = rnd(t, floor(a) + 0.5);   /* halfway cases: round, rint, cospi, sinpi */
        if (a < lo || a > hi) a = rnd(t, lo + 0.25 * (hi - lo));
        put(t, hx, i, a);
        put(t, hy, i, b);
    }
    void *x = tile_malloc(N * es), *y = tile_malloc(N * es), *o = tile_malloc(N * es);
    tile_memcpy_htod(x, hx, N * es);
    tile_memcpy_htod(y, hy, N * es);
    tile_memset(o, 0xA5, N * es);   /* poisoned */
    const tile_launch *opts = TILE_OPTS(.grid = {(N + 255) / 256}, .meta = {{"FN", k}, {"BLOCK", 256}, {"SCALAR", scalar}});
    tile_status st = t == TL_F32   ? ld_f32(opts, (float *)x, (float *)y, (float *)o, N)
                     : t == TL_F64 ? ld_f64(opts, (double *)x, (double *)y, (double *)o, N)
                                   : ld_f16(opts, (tile_f16 *)x, (tile_f16 *)y, (tile_f16 *)o, N);
    char what[96];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") %s%s", f->name, tile_dtype_name(t), scalar ? " (y a scalar)" : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, N * es);
    for (int i = 0; i < N; i++) {
        double a = get(t, hx, i), b = get(t, hy, scalar ? 0 : i);
        /* the reference in float64 on the dtype's inputs; f16 and f32 through the f32 function's rounding, as computed */
        double r = f->n == 1 ? f->ref1(a) : f->ref2(a, b);
        if (t != TL_F64 && f->ref2 == nextafter) r = (double)nextafterf((float)a, (float)b);
        want[i] = rnd(t, r);
        got[i] = get(t, ho, i);
    }
    /* lgamma near its zeros (1, 2) and tgamma, erfcx, cospi, sinpi, rcbrt: absolute error beside the relative */
    double rtol = t == TL_F64 ? 1e-12 : t == TL_F32 ? 2e-5 : 4e-3, atol = t == TL_F64 ? 1e-12 : t == TL_F32 ? 2e-5 : 4e-3;
    tt_check_close(what, got, want, N, atol, rtol);
    tile_free(x);
    tile_free(y);
    tile_free(o);
    free(hx);
    free(hy);
    free(ho);
    free(got);
    free(want);
}

/* ---- user errors ---------------------------------------------------------------------- */
static int err_line;
TILE_KERNEL(ld_bad, (tl_ptr_f32, x), (tl_ptr_i32, xi), (tl_ptr_f32, out))
{
    int CASE = TL_META(CASE);
    tl_t offs = tl_arange(0, 32);
    tl_t v = tl_load(tl_add(x, offs)), r = v;
    switch (CASE) {
    case 0: err_line = __LINE__; r = tl_libdevice("erfinvv", v); break;
    case 1: err_line = __LINE__; r = tl_libdevice("erfinv", tl_load(tl_add(xi, offs))); break;
    case 2: err_line = __LINE__; r = tl_libdevice("atan2", v); break;
    case 3: err_line = __LINE__; r = tl_libdevice("acos", v, v); break;
    case 4: err_line = __LINE__; r = tl_libdevice(NULL, v); break;
    default: r = tl_libdevice("pow", 2, 3); break;   /* two C numbers: f32 */
    }
    tl_store(tl_add(out, offs), tl_add(r, v));
}
static void test_errors(void) {
    static const struct { tile_status st; const char *text; } want[] = {
        {TILE_ERR_VALUE, "no function \"erfinvv\" (tile has: "},
        {TILE_ERR_DTYPE, "tl_libdevice(\"erfinv\"): not defined for i32"},
        {TILE_ERR_VALUE, "tl_libdevice(\"atan2\") takes 2 operands, not 1"},
        {TILE_ERR_VALUE, "tl_libdevice(\"acos\") takes 1 operand, not 2"},
        {TILE_ERR_VALUE, "the function's name is NULL"},
    };
    float *x = (float *)tile_malloc(32 * 4), *out = (float *)tile_malloc(32 * 4);
    int32_t *xi = (int32_t *)tile_malloc(32 * 4);
    float h[32], o[32];
    for (int i = 0; i < 32; i++) h[i] = (float)tt_uniform(-1, 1);
    tile_memcpy_htod(x, h, sizeof h);
    tile_memset(xi, 0, 32 * 4);
    for (int c = 0; c < 5; c++) {
        char what[64];
        snprintf(what, sizeof what, "tl_libdevice error case %d", c);
        tile_status st = ld_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", c}}), x, xi, out);
        tt_check_user_error(what, st, want[c].st, "test_ops_libdevice.c", err_line, want[c].text);
        tile_clear_error();
    }
    tile_memset(out, 0xA5, sizeof o);
    TT_OK(ld_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", 5}}), x, xi, out));
    tile_memcpy_dtoh(o, out, sizeof o);
    int bad = 0;
    for (int i = 0; i < 32; i++) bad += !tt_close(o[i], 8.0 + (double)h[i], 1e-5, 1e-5);
    TT_CHECK(!bad, "tl_libdevice(\"pow\", 2, 3): two C numbers are f32 (%d lanes wrong)", bad);
    tile_free(x);
    tile_free(xi);
    tile_free(out);
}

static void quiet(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}

int main(void) {
    tt_seed();
    printf("back end %s\n", tile_backend_name());
    tile_set_log(quiet, NULL);
    for (int k = 0; k < NFN; k++) {
        check_fn(k, TL_F32, 0);
        check_fn(k, TL_F64, 0);
        check_fn(k, TL_F16, 0);
        if (fns[k].n == 2) check_fn(k, TL_F32, 1);
    }
    test_errors();
    tile_kernel_release(TILE_KERNEL_OF(ld_f32));
    tile_kernel_release(TILE_KERNEL_OF(ld_f64));
    tile_kernel_release(TILE_KERNEL_OF(ld_f16));
    tile_kernel_release(TILE_KERNEL_OF(ld_bad));
    return tt_finish("test_ops_libdevice");
}
