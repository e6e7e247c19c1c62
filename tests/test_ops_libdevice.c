/* tests/test_ops_libdevice.c — tl_libdevice(name, x...): libdevice's math
   functions called by name (Triton's extra.cuda.libdevice).

     - every function tile knows, in f32, f64 and f16, on random inputs drawn
       from its domain, against float64 references written here: the C math
       library where it has the function, else long double formulas or
       bisection (erfinv, erfcinv: on erf, erfc), so that tile's own
       implementations (ir.h's tile__ld_*) are checked by other code;
     - operands that broadcast (a scalar against a tile), C numbers;
     - the integer functions (popc, clz, ffs, brev, mulhi, umulhi) in every
       integer dtype from one dtype-generic kernel, bit for bit against
       references written here (bit loops; mulhi by 16-bit digits);
     - the 32-bit ones (hadd, uhadd, rhadd, urhadd, mul24, umul24, sad, usad,
       byte_perm) in i32 and u32, an i32 against a u32 (promoted: unsigned),
       sad's i32 a and b with a u32 c (Triton's signature: signed), and a C
       number as the last operand, on random and edge patterns (every pair of
       INT_MIN, INT_MAX, 0xFFFFFFFF, bit 23, ...), bit for bit against float64
       arithmetic (exact at these sizes) and a byte table for byte_perm;
     - the functions of other dtypes (abs, int_as_float ... double2hiint,
       isnan, isinf, signbit, finitef, isfinited, llrint, llround, ilogb,
       ldexp, scalbn, pow of an i32 exponent, saturatef, nearbyint) in each
       dtype they take, on specials, ties and random bits, with C numbers,
       bit for bit against references on the operands' bits; the result
       dtypes (Triton's: an i1 for isnan and isinf, an i32 for signbit, ...);
     - the approximate fast_expf ... fast_dividef and rcp64h: the exact
       function in the interpreter (an ulp), the GPU's within CUDA's error
       bounds; norm3d, rnorm3d, norm4d, rnorm4d of every magnitude, promoted;
     - user errors at the user's line: an unknown name, an integer tile, the
       wrong number of operands, a NULL name, a float or i1 tile for an
       integer function, and for a 32-bit one an f32, i64, u8 or i1 tile, a
       C number past 32 bits and a C float; a dtype a function of exact
       dtypes does not take, a float exponent.
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
/* The Bessel functions from their integrals (DLMF 10.9.2, 10.32.3, 10.9.7), not from the C
   library the interpreter calls:
     J_n(x) = 1/pi int_0^pi cos(n t - x sin t) dt,  I_n(x) = 1/pi int_0^pi e^(x cos t) cos(n t) dt,
   whose integrands are smooth, even and 2pi-periodic, so that the trapezoidal rule converges
   geometrically (256 panels are past double precision for |x| <= 30, n <= 12), and
     Y_n(x) = 1/pi int_0^pi sin(x sin t - n t) dt - 1/pi int_0^inf (e^(nu) + (-1)^n e^(-nu)) e^(-x sinh u) du
   for x > 0, both by the tanh-sinh rule (double exponential: its error falls as exp(-c / h)), the
   second on [0, T] where the integrand has fallen e^-60 below its peak */
static double r_trapezoid(int bessel_i, int n, double x) {
    enum { K = 256 };
    double s = 0;
    for (int k = 0; k <= K; k++) {
        double t = 3.14159265358979323846 * k / K;
        double f = bessel_i ? exp(x * cos(t)) * cos(n * t) : cos(n * t - x * sin(t));
        s += (k == 0 || k == K) ? f / 2 : f;
    }
    return s / K;
}
static double r_jn(int n, double x) { return r_trapezoid(0, n, x); }
static double r_j0(double x) { return r_jn(0, x); }
static double r_j1(double x) { return r_jn(1, x); }
static double r_i0(double x) { return r_trapezoid(1, 0, x); }
static double r_i1(double x) { return r_trapezoid(1, 1, x); }
/* tanh-sinh on [a, b]: the nodes tanh(pi/2 sinh s) and weights for s = k / 64, |s| <= 3.5 */
enum { TS_K = 224 };
static double ts_node[2 * TS_K + 1], ts_weight[2 * TS_K + 1];
static double r_tanh_sinh(double (*f)(double, int, double), int n, double x, double a, double b) {
    if (ts_weight[TS_K] == 0)
        for (int k = -TS_K; k <= TS_K; k++) {
            double u = 3.14159265358979323846 / 2 * sinh(k / 64.0), ch = cosh(u);
            ts_node[k + TS_K] = tanh(u);
            ts_weight[k + TS_K] = 3.14159265358979323846 / 2 * cosh(k / 64.0) / (ch * ch) / 64.0;
        }
    double mid = (a + b) / 2, half = (b - a) / 2, s = 0;
    for (int k = 0; k <= 2 * TS_K; k++) s += ts_weight[k] * f(mid + half * ts_node[k], n, x);
    return s * half;
}
static double yn_first(double t, int n, double x) { return sin(x * sin(t) - n * t); }
static double yn_second(double u, int n, double x) { return exp(n * u - x * sinh(u)) + ((n & 1) ? -1 : 1) * exp(-n * u - x * sinh(u)); }
static double r_yn(int n, double x) {
    if (x == 0) return -INFINITY;
    /* the exponent n u - x sinh u peaks at cosh u = n / x (or u = 0); T where it is 60 below */
    double up = n > x ? acosh(n / x) : 0, peak = n * up - x * sinh(up), T = up + 0.25;
    while (n * T - x * sinh(T) > peak - 60) T += 0.25;
    return (r_tanh_sinh(yn_first, n, x, 0, 3.14159265358979323846) - r_tanh_sinh(yn_second, n, x, 0, T)) / 3.14159265358979323846;
}
static double r_y0(double x) { return r_yn(0, x); }
static double r_y1(double x) { return r_yn(1, x); }
/* the standard normal distribution and its inverse (bisection), 1 / hypot */
static double r_normcdf(double x) { return (double)(0.5L * erfcl(-(long double)x / sqrtl(2.0L))); }
static double r_normcdfinv(double p) { return bisect(r_normcdf, p, -40.0, 40.0, 1); }
static double r_rhypot(double x, double y) { return (double)(1.0L / hypotl((long double)x, (long double)y)); }

typedef struct fn {
    const char *name;
    int n;                              /* operands */
    double (*ref1)(double);             /* one operand */
    double (*ref2)(double, double);     /* two */
    double lo, hi, lo2, hi2;            /* the domains of x and y */
    double tol64;                       /* f64's tolerance, absolute and relative, if not 1e-12 */
} fn;
static const fn fns[] = {
    {"acos", 1, acos, 0, -1, 1, 0, 0, 0},            {"acosh", 1, acosh, 0, 1, 50, 0, 0, 0},
    {"asin", 1, asin, 0, -1, 1, 0, 0, 0},            {"asinh", 1, asinh, 0, -50, 50, 0, 0, 0},
    {"atan", 1, atan, 0, -50, 50, 0, 0, 0},          {"atanh", 1, atanh, 0, -0.99, 0.99, 0, 0, 0},
    {"cbrt", 1, cbrt, 0, -1000, 1000, 0, 0, 0},      {"cosh", 1, cosh, 0, -10, 10, 0, 0, 0},
    {"sinh", 1, sinh, 0, -10, 10, 0, 0, 0},          {"tan", 1, tan, 0, -1.5, 1.5, 0, 0, 0},
    {"erfc", 1, erfc, 0, -3, 9, 0, 0, 0},            {"expm1", 1, expm1, 0, -10, 10, 0, 0, 0},
    {"log1p", 1, log1p, 0, -0.9, 100, 0, 0, 0},      {"log10", 1, log10, 0, 0.001, 1000, 0, 0, 0},
    {"exp10", 1, r_exp10, 0, -4, 4, 0, 0, 0},        {"lgamma", 1, lgamma, 0, 0.1, 30, 0, 0, 0},
    {"tgamma", 1, tgamma, 0, 0.1, 8, 0, 0, 0},       {"trunc", 1, trunc, 0, -100, 100, 0, 0, 0},
    {"round", 1, round, 0, -100, 100, 0, 0, 0},      {"rint", 1, rint, 0, -100, 100, 0, 0, 0},
    {"logb", 1, logb, 0, -1000, 1000, 0, 0, 0},      {"cospi", 1, r_cospi, 0, -40, 40, 0, 0, 0},
    {"sinpi", 1, r_sinpi, 0, -40, 40, 0, 0, 0},      {"erfinv", 1, r_erfinv, 0, -0.999, 0.999, 0, 0, 0},
    {"erfcinv", 1, r_erfcinv, 0, 0.001, 1.999, 0, 0, 0}, {"erfcx", 1, r_erfcx, 0, -2, 40, 0, 0, 0},
    {"rcbrt", 1, r_rcbrt, 0, 0.01, 1000, 0, 0, 0},   {"exp", 1, exp, 0, -20, 20, 0, 0, 0},
    {"fabs", 1, fabs, 0, -100, 100, 0, 0, 0},        {"atan2", 2, 0, atan2, -10, 10, -10, 10, 0},
    {"pow", 2, 0, pow, 0.1, 10, -4, 4, 0},           {"hypot", 2, 0, hypot, -100, 100, -100, 100, 0},
    {"copysign", 2, 0, copysign, -10, 10, -10, 10, 0}, {"fdim", 2, 0, fdim, -10, 10, -10, 10, 0},
    {"nextafter", 2, 0, nextafter, -10, 10, -10, 10, 0}, {"remainder", 2, 0, remainder, -100, 100, 0.5, 10, 0},
    {"fmod", 2, 0, fmod, -100, 100, 0.5, 10, 0},    {"fmin", 2, 0, fmin, -10, 10, -10, 10, 0},
    /* libdevice's Bessel functions are good to 5e-12 absolute beyond |x| = 8 in f64, 2.2e-6 in f32 */
    {"j0", 1, r_j0, 0, -30, 30, 0, 0, 1e-11},     {"j1", 1, r_j1, 0, -30, 30, 0, 0, 1e-11},
    {"y0", 1, r_y0, 0, 0.05, 30, 0, 0, 1e-11},    {"y1", 1, r_y1, 0, 0.05, 30, 0, 0, 1e-11},
    {"cyl_bessel_i0", 1, r_i0, 0, -30, 30, 0, 0, 1e-11}, {"cyl_bessel_i1", 1, r_i1, 0, -30, 30, 0, 0, 1e-11},
    {"normcdf", 1, r_normcdf, 0, -10, 8, 0, 0, 0},   {"normcdfinv", 1, r_normcdfinv, 0, 0.0005, 0.9995, 0, 0, 0},
    {"rhypot", 2, 0, r_rhypot, -100, 100, -100, 100, 0},
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

/* device copies of the inputs x and y, and a poisoned output */
static void dev_io(const void *hx, const void *hy, size_t in_bytes, size_t out_bytes, void **x, void **y, void **o) {
    *x = tile_malloc(in_bytes), *y = tile_malloc(in_bytes), *o = tile_malloc(out_bytes);
    tile_memcpy_htod(*x, hx, in_bytes);
    tile_memcpy_htod(*y, hy, in_bytes);
    tile_memset(*o, 0xA5, out_bytes);
}
static void dev_free(void *x, void *y, void *o) {
    tile_free(x);
    tile_free(y);
    tile_free(o);
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
    void *x, *y, *o;
    dev_io(hx, hy, N * es, N * es, &x, &y, &o);
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
    double tol64 = f->tol64 ? f->tol64 : 1e-12;
    double rtol = t == TL_F64 ? tol64 : t == TL_F32 ? 2e-5 : 4e-3, atol = t == TL_F64 ? tol64 : t == TL_F32 ? 2e-5 : 4e-3;
    tt_check_close(what, got, want, N, atol, rtol);
    dev_free(x, y, o);
    free(hx);
    free(hy);
    free(ho);
    free(got);
    free(want);
}

/* ---- jn(n, x) and yn(n, x): an i32 order, a float --------------------------------------- */
/* out = name(n, x), name jn (JN 1) or yn; LIT: n is the C number LIT - 1 for every lane */
TILE_KERNEL(ld_bessel_n, (tl_ptr_i32, n_in), (tl_ptr, x), (tl_ptr, out), (tl_i32, n))
{
    int BLOCK = TL_META(BLOCK), LIT = TL_META_OR(LIT, 0);
    const char *name = TL_META(JN) ? "jn" : "yn";
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask, .other = 1);
    tl_t r = LIT ? tl_libdevice(name, LIT - 1, xv) : tl_libdevice(name, tl_load(tl_add(n_in, offs), .mask = mask, .other = 0), xv);
    tl_store(tl_add(out, offs), r, .mask = mask);
}
static void check_bessel_n(int jn, tl_dtype t, int lit) {
    size_t es = tile_dtype_size(t);
    int32_t *hn = (int32_t *)malloc(N * 4);
    void *hx = malloc(N * es), *ho = malloc(N * es);
    double *got = (double *)malloc(N * sizeof(double)), *want = (double *)malloc(N * sizeof(double));
    double lo = jn ? -30 : 0.05, hi = 30;
    if (t == TL_F16) lo = jn ? -4 : 0.05, hi = 4;
    for (int i = 0; i < N; i++) {
        /* orders 0..12, and a few negative ones (NaN, as libdevice's); yn at 0 (-inf) and below (NaN) */
        hn[i] = (int32_t)tt_int(i % 50 == 0 ? -3 : 0, 12);
        double a = rnd(t, tt_uniform(lo, hi));
        if (!jn && i % 97 == 1) a = i % 2 ? 0.0 : -1.5;
        put(t, hx, i, a);
    }
    void *dn = tile_malloc(N * 4), *x, *o, *unused;
    dev_io(hx, hx, N * es, N * es, &x, &unused, &o);
    tile_memcpy_htod(dn, hn, N * 4);
    tile_status st = ld_bessel_n(TILE_OPTS(.grid = {(N + 255) / 256}, .meta = {{"BLOCK", 256}, {"JN", jn}, {"LIT", lit}}), (int32_t *)dn,
                                 TILE_PTR(x, t), TILE_PTR(o, t), N);
    char what[96];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") %s%s", jn ? "jn" : "yn", tile_dtype_name(t), lit ? " (n a C number)" : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, N * es);
    for (int i = 0; i < N; i++) {
        int k = lit ? lit - 1 : hn[i];
        double a = get(t, hx, i), r = k < 0 ? NAN : jn ? r_jn(k, a) : a < 0 ? NAN : r_yn(k, a);
        want[i] = rnd(t, r);
        got[i] = get(t, ho, i);
    }
    double tol = t == TL_F64 ? 1e-11 : t == TL_F32 ? 2e-5 : 4e-3;
    tt_check_close(what, got, want, N, tol, tol);
    tile_free(dn);
    dev_free(x, unused, o);
    free(hn);
    free(hx);
    free(ho);
    free(got);
    free(want);
}

/* orders past 16384: J_n(x) < (e |x| / 2n)^n underflows to 0 and Y_n(x) overflows to -inf where
   |x| <= n / e (so on a GPU too); beyond, the interpreter does not take C's n steps an element and
   gives NaN (README), the GPU the value */
static void check_bessel_big_order(void) {
    enum { NB = 256, ORDER = 20000 };
    double hx[NB], ho[NB];
    int32_t hn[NB];
    int interp = strcmp(tile_backend_name(), "interp") == 0;
    for (int i = 0; i < NB; i++) hn[i] = ORDER, hx[i] = i < NB - 8 ? tt_uniform(0, ORDER / 2.718281828459045) * (i % 2 ? -1 : 1) : 3.0 * ORDER;
    void *dn = tile_malloc(sizeof hn), *x = tile_malloc(sizeof hx), *o = tile_malloc(sizeof ho);
    tile_memcpy_htod(dn, hn, sizeof hn);
    tile_memcpy_htod(x, hx, sizeof hx);
    for (int jn = 0; jn < 2; jn++) {
        tile_memset(o, 0xA5, sizeof ho);
        tile_status st = ld_bessel_n(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", NB}, {"JN", jn}}), (int32_t *)dn, TILE_PTR(x, TL_F64), TILE_PTR(o, TL_F64), NB);
        TT_CHECK(st == TILE_OK, "%s of order %d: %s", jn ? "jn" : "yn", ORDER, tile_last_error());
        tile_memcpy_dtoh(ho, o, sizeof ho);
        int bad = 0;
        for (int i = 0; i < NB; i++) {
            double want = i >= NB - 8 ? NAN : jn ? 0.0 : hx[i] < 0 ? NAN : -INFINITY;
            if (i >= NB - 8 && !interp) continue;
            bad += !(want != want ? ho[i] != ho[i] : ho[i] == want);
        }
        TT_CHECK(!bad, "%s of order %d: %d of %d wrong", jn ? "jn" : "yn", ORDER, bad, NB);
    }
    tile_free(dn);
    tile_free(x);
    tile_free(o);
}

/* ---- the integer functions: popc, clz, ffs, brev, mulhi, umulhi ---------------------- */
static const struct { const char *name; int n, counts; } ifns[] = {
    {"popc", 1, 1}, {"clz", 1, 1}, {"ffs", 1, 1}, {"brev", 1, 0}, {"mulhi", 2, 0}, {"umulhi", 2, 0},
};
enum { NIFN = sizeof ifns / sizeof ifns[0] };
/* one body for every integer dtype: the pointers' dtypes come with the launch */
TILE_KERNEL(ld_int, (tl_ptr, x), (tl_ptr, y), (tl_ptr, out), (tl_i32, n))
{
    int k = TL_META(FN), BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask, .other = 0);
    tl_t r = ifns[k].n == 1 ? tl_libdevice(ifns[k].name, xv)
                            : tl_libdevice(ifns[k].name, xv, tl_load(tl_add(y, offs), .mask = mask, .other = 0));
    tl_store(tl_add(out, offs), r, .mask = mask);
}
/* an element of integer dtype t as its w-bit pattern (v's low bytes) */
static void iput(tl_dtype t, void *p, int i, uint64_t v) {
    size_t es = tile_dtype_size(t);
    for (size_t b = 0; b < es; b++) ((unsigned char *)p)[i * es + b] = (unsigned char)(v >> (8 * b));
}
static uint64_t iget(tl_dtype t, const void *p, int i) {
    size_t es = tile_dtype_size(t);
    uint64_t v = 0;
    for (size_t b = 0; b < es; b++) v |= (uint64_t)((const unsigned char *)p)[i * es + b] << (8 * b);
    return v;
}
/* the 2w-bit product of two w-bit patterns, high half: schoolbook on 16-bit digits */
static uint64_t ref_mulhi(uint64_t a, uint64_t b, unsigned w, int sgn) {
    uint64_t m = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
    int neg = 0;
    if (sgn && (a >> (w - 1) & 1)) a = (0 - a) & m, neg ^= 1;
    if (sgn && (b >> (w - 1) & 1)) b = (0 - b) & m, neg ^= 1;
    uint32_t d[8] = {0};   /* the product of the magnitudes, 16 bits a digit */
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            uint64_t cur = d[i + j] + ((a >> (16 * i)) & 0xffff) * ((b >> (16 * j)) & 0xffff) + carry;
            d[i + j] = (uint32_t)(cur & 0xffff);
            carry = cur >> 16;
        }
        for (int k = i + 4; carry; k++) {
            uint64_t cur = d[k] + carry;
            d[k] = (uint32_t)(cur & 0xffff);
            carry = cur >> 16;
        }
    }
    if (neg) {   /* two's complement of the 128-bit product */
        uint32_t carry = 1;
        for (int k = 0; k < 8; k++) {
            uint32_t cur = (~d[k] & 0xffff) + carry;
            d[k] = cur & 0xffff;
            carry = cur >> 16;
        }
    }
    uint64_t hi = 0;   /* bits w .. 2w-1 */
    for (unsigned bit = 0; bit < w; bit++) hi |= (uint64_t)(d[(w + bit) / 16] >> ((w + bit) % 16) & 1) << bit;
    return hi;
}
static uint64_t ref_int(int k, uint64_t a, uint64_t b, unsigned w, int sgn) {
    uint64_t r = 0;
    switch (k) {
    case 0: for (unsigned i = 0; i < w; i++) r += a >> i & 1; break;
    case 1: for (r = 0; r < w && !(a >> (w - 1 - r) & 1); r++) {} break;
    case 2: for (unsigned i = 0; i < w && !r; i++) if (a >> i & 1) r = i + 1; break;
    case 3: for (unsigned i = 0; i < w; i++) if (a >> i & 1) r |= (uint64_t)1 << (w - 1 - i); break;
    case 4: r = ref_mulhi(a, b, w, sgn); break;
    default: r = ref_mulhi(a, b, w, 0); break;
    }
    return r;
}
static void check_int(int k, tl_dtype t) {
    enum { NI = 1000 };
    unsigned w = tile_dtype_size(t) * 8;
    uint64_t m = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
    int sgn = t == TL_I8 || t == TL_I16 || t == TL_I32 || t == TL_I64;
    tl_dtype ot = ifns[k].counts ? TL_I32 : t;
    size_t es = tile_dtype_size(t), os = tile_dtype_size(ot);
    void *hx = malloc(NI * es), *hy = malloc(NI * es), *ho = malloc(NI * os);
    static const uint64_t edge[] = {0, 1, 2, 3, ~(uint64_t)0, 0x8000000000000000u, 0x7fffffffffffffffu, 0x80, 0x7f, 0x8000, 0x80000000u, 0xffffffffu};
    for (int i = 0; i < NI; i++) {
        /* random bit patterns, sparse ones (a few bits set: ffs, clz) and the edges */
        uint64_t a = tt_next(), b = tt_next();
        if (i % 3 == 1) a &= tt_next() & tt_next() & tt_next();
        if (i < (int)(sizeof edge / sizeof edge[0])) a = edge[i], b = edge[(i * 5 + 3) % (sizeof edge / sizeof edge[0])];
        iput(t, hx, i, a);
        iput(t, hy, i, b);
    }
    void *x, *y, *o;
    dev_io(hx, hy, NI * es, NI * os, &x, &y, &o);
    tile_status st = ld_int(TILE_OPTS(.grid = {(NI + 255) / 256}, .meta = {{"FN", k}, {"BLOCK", 256}}), TILE_PTR(x, t), TILE_PTR(y, t),
                            TILE_PTR(o, ot), NI);
    char what[96];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") %s", ifns[k].name, tile_dtype_name(t));
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, NI * os);
    int bad = 0;
    for (int i = 0; i < NI; i++) {
        uint64_t a = iget(t, hx, i) & m, b = iget(t, hy, i) & m;
        uint64_t want = ref_int(k, a, b, w, sgn) & (ot == TL_I32 ? 0xffffffffu : m), got = iget(ot, ho, i);
        if (got != want && bad++ < 3)
            TT_CHECK(0, "%s: element %d of 0x%llx, 0x%llx: 0x%llx, want 0x%llx", what, i, (unsigned long long)a, (unsigned long long)b,
                     (unsigned long long)got, (unsigned long long)want);
    }
    TT_CHECK(!bad, "%s: %d of %d elements wrong", what, bad, NI);
    dev_free(x, y, o);
    free(hx);
    free(hy);
    free(ho);
}

/* ---- the 32-bit integer functions: hadd, rhadd, mul24, sad (signed when the dtype is), their
   unsigned twins, byte_perm ---------------------------------------------------------------- */
static const struct { const char *name; int n, uns; } i32fns[] = {
    {"hadd", 2, 0}, {"uhadd", 2, 1}, {"rhadd", 2, 0}, {"urhadd", 2, 1}, {"mul24", 2, 0},
    {"umul24", 2, 1}, {"sad", 3, 0}, {"usad", 3, 1}, {"byte_perm", 3, 0},
};
enum { NI32FN = sizeof i32fns / sizeof i32fns[0] };
/* C numbers for the last operand (LIT k: lits[k - 1]): 0xFFFFFFFF and 0x80000000 are u32 literals, the
   selectors 0xC8E4 and 0x9F3B have nibbles whose top bit (prmt's sign replication) must be ignored */
static const long long lits[] = {7, -1, INT32_MIN, INT32_MAX, 0xFFFFFFFFll, 0x80000000ll, 0x3210, 0xC8E4, 0x9F3B, 0x00800001};
enum { NLIT = sizeof lits / sizeof lits[0] };
/* out = name(x, y) or name(x, y, z), the dtypes with the launch; LIT: the last operand is lits[LIT - 1];
   FOLD: every operand a C number (lits[A], lits[B], lits[C]), so the constant folder computes it */
TILE_KERNEL(ld_int32, (tl_ptr, x), (tl_ptr, y), (tl_ptr, z), (tl_ptr, out), (tl_i32, n))
{
    int k = TL_META(FN), BLOCK = TL_META(BLOCK), LIT = TL_META_OR(LIT, 0), FOLD = TL_META_OR(FOLD, 0);
    const char *name = i32fns[k].name;
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask, .other = 0), r;
    if (FOLD && i32fns[k].n == 2) r = tl_libdevice(name, lits[TL_META(A)], lits[TL_META(B)]);
    else if (FOLD) r = tl_libdevice(name, lits[TL_META(A)], lits[TL_META(B)], lits[TL_META(C)]);
    else if (i32fns[k].n == 2 && LIT) r = tl_libdevice(name, xv, lits[LIT - 1]);
    else if (i32fns[k].n == 2) r = tl_libdevice(name, xv, tl_load(tl_add(y, offs), .mask = mask, .other = 0));
    else if (LIT) r = tl_libdevice(name, xv, tl_load(tl_add(y, offs), .mask = mask, .other = 0), lits[LIT - 1]);
    else r = tl_libdevice(name, xv, tl_load(tl_add(y, offs), .mask = mask, .other = 0), tl_load(tl_add(z, offs), .mask = mask, .other = 0));
    tl_store(tl_add(out, offs), r, .mask = mask);
}
/* a 32-bit pattern as a number: two's complement when signed */
static double num32(uint32_t v, int sg) { return sg && v >= 0x80000000u ? (double)v - 4294967296.0 : (double)v; }
/* the result's 32-bit pattern of function k on the operands' patterns a, b, c; sg: it works signed.
   In float64, where every intermediate here is an integer below 2^48 and so exact: the half sums
   rounded by floor, the 24-bit product, |a - b| + c; then the value modulo 2^32. byte_perm by the
   table CUDA's documentation gives: bytes 0..3 of a then of b, selector nibble i's low 3 bits */
static uint32_t ref_int32(int k, uint32_t a, uint32_t b, uint32_t c, int sg) {
    double x = num32(a, sg), y = num32(b, sg), r;
    switch (k) {
    case 0: case 1: r = floor((x + y) / 2); break;
    case 2: case 3: r = floor((x + y + 1) / 2); break;
    case 4: case 5: {   /* the low 24 bits, as a signed 24-bit number when sg */
        double p = (double)(a & 0xffffffu) - (sg && (a & 0x800000u) ? 16777216.0 : 0);
        double q = (double)(b & 0xffffffu) - (sg && (b & 0x800000u) ? 16777216.0 : 0);
        r = p * q;
        break;
    }
    case 6: case 7: r = fabs(x - y) + num32(c, 0); break;
    default: {
        unsigned char in[8];
        uint32_t o = 0;
        for (int i = 0; i < 4; i++) in[i] = (unsigned char)(a >> (8 * i)), in[4 + i] = (unsigned char)(b >> (8 * i));
        for (int i = 0; i < 4; i++) o |= (uint32_t)in[(c >> (4 * i)) & 7] << (8 * i);
        return o;
    }
    }
    r = fmod(r, 4294967296.0);
    return (uint32_t)(r < 0 ? r + 4294967296.0 : r);
}
/* function k on x of dtype tx, y of ty, z of tz (i32 or u32), or with the C number lits[lit - 1] last */
static void check_int32(int k, tl_dtype tx, tl_dtype ty, tl_dtype tz, int lit) {
    enum { NI = 1000 };
    int nop = i32fns[k].n;
    /* the dtype: x's and y's promoted as tl_add (a u32 wins); a literal and sad's c take it */
    tl_dtype ot = tx == TL_U32 || (!(lit && nop == 2) && ty == TL_U32) ? TL_U32 : TL_I32;
    int sg = ot == TL_I32 && !i32fns[k].uns;
    uint32_t *hx = (uint32_t *)malloc(NI * 4), *hy = (uint32_t *)malloc(NI * 4), *hz = (uint32_t *)malloc(NI * 4), *ho = (uint32_t *)malloc(NI * 4);
    static const uint32_t edge[] = {0, 1, 2, 0xffffffffu, 0xfffffffeu, 0x80000000u, 0x80000001u, 0x7fffffffu,
                                    0x7ffffffeu, 0x00800000u, 0x00ffffffu, 0xff7fffffu, 0x01000000u, 0xc0000000u};
    enum { NE = sizeof edge / sizeof edge[0] };
    for (int i = 0; i < NI; i++) {
        /* every pair of edge patterns first (c an edge too), then random ones: a third of them small
           numbers of either sign (near halves: the rounding of hadd and rhadd) */
        uint32_t a = (uint32_t)tt_next(), b = (uint32_t)tt_next(), c = (uint32_t)tt_next();
        if (i % 3 == 2) a = (uint32_t)tt_int(-40, 40), b = (uint32_t)tt_int(-40, 40);
        if (i < NE * NE) a = edge[i / NE], b = edge[i % NE], c = edge[(i * 7 + 3) % NE];
        hx[i] = a, hy[i] = b, hz[i] = c;
    }
    void *x, *y, *o, *z = tile_malloc(NI * 4);
    dev_io(hx, hy, NI * 4, NI * 4, &x, &y, &o);
    tile_memcpy_htod(z, hz, NI * 4);
    tile_status st = ld_int32(TILE_OPTS(.grid = {(NI + 255) / 256}, .meta = {{"FN", k}, {"BLOCK", 256}, {"LIT", lit}}), TILE_PTR(x, tx),
                              TILE_PTR(y, ty), TILE_PTR(z, tz), TILE_PTR(o, ot), NI);
    char what[128];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") of %s, %s%s%s", i32fns[k].name, tile_dtype_name(tx), lit && nop == 2 ? "a C number" : tile_dtype_name(ty),
             nop == 3 ? ", " : "", nop == 3 ? (lit ? "a C number" : tile_dtype_name(tz)) : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, NI * 4);
    int bad = 0;
    for (int i = 0; i < NI; i++) {
        uint32_t a = hx[i], b = hy[i], c = hz[i];
        if (lit && nop == 2) b = (uint32_t)lits[lit - 1];
        if (lit && nop == 3) c = (uint32_t)lits[lit - 1];
        uint32_t want = ref_int32(k, a, b, c, sg), got = ho[i];
        if (got != want && bad++ < 3)
            TT_CHECK(0, "%s: element %d of 0x%x, 0x%x, 0x%x: 0x%x, want 0x%x", what, i, (unsigned)a, (unsigned)b, (unsigned)c, (unsigned)got, (unsigned)want);
    }
    TT_CHECK(!bad, "%s: %d of %d elements wrong", what, bad, NI);
    dev_free(x, y, o);
    tile_free(z);
    free(hx);
    free(hy);
    free(hz);
    free(ho);
}

/* function k of three C numbers lits[a], lits[b], lits[c] (c unused by the two-operand ones), folded
   to one constant: the dtype is the literals' (i32, or u32 where one is above INT32_MAX), stored */
static void check_int32_fold(int k, int a, int b, int c) {
    enum { NF = 64 };
    tl_dtype ot = lits[a] > INT32_MAX || lits[b] > INT32_MAX ? TL_U32 : TL_I32;
    uint32_t ho[NF];
    void *o = tile_malloc(NF * 4);
    tile_memset(o, 0xA5, NF * 4);
    tile_status st = ld_int32(TILE_OPTS(.grid = {1}, .meta = {{"FN", k}, {"BLOCK", NF}, {"FOLD", 1}, {"A", a}, {"B", b}, {"C", c}}),
                              TILE_PTR(o, ot), TILE_PTR(o, ot), TILE_PTR(o, ot), TILE_PTR(o, ot), NF);
    char what[128];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\", %lld, %lld%s) folded", i32fns[k].name, lits[a], lits[b], i32fns[k].n == 3 ? ", ..." : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, NF * 4);
    uint32_t want = ref_int32(k, (uint32_t)lits[a], (uint32_t)lits[b], (uint32_t)lits[c], ot == TL_I32 && !i32fns[k].uns);
    int bad = 0;
    for (int i = 0; i < NF; i++) bad += ho[i] != want;
    TT_CHECK(!bad, "%s: %d of %d elements wrong (element 0: 0x%x, want 0x%x)", what, bad, NF, (unsigned)ho[0], (unsigned)want);
    tile_free(o);
}

/* ---- the rounding-mode functions: add_rz, fma_rd, float2int_rn, ull2double_ru, ... -------
   Checked bit for bit (a NaN as any NaN; the sign of a zero counts) against references made
   here by exact arithmetic: a number is a two's complement integer of XW 32-bit words whose bit
   k weighs 2^(XLO + k), so that every sum and product of two doubles (down to 2^-2252, up past
   2^2048) is exact in it, and it is rounded to f32 or f64 by its bits (round, sticky) in the
   mode. Quotients and roots are found by comparison: y <= a / b <=> y b <= a, exactly, for the
   candidates next to a double estimate; the conversions to integers round by the bits of the
   operand's significand. None of it uses the host's rounding modes, which the interpreter does. */
enum { XW = 140, XLO = -2320 };
static int isflt(tl_dtype t) { return t == TL_F32 || t == TL_F64 || t == TL_F16 || t == TL_BF16; }
typedef struct xv { uint32_t w[XW]; } xv;
static void xv_zero(xv *v) { memset(v, 0, sizeof *v); }
/* v += (neg ? -1 : 1) m 2^e, m of nm <= 4 little-endian words */
static void xv_add(xv *v, int neg, const uint32_t *m, int nm, int e) {
    int pos = e - XLO, wo = pos / 32, bo = pos % 32;
    uint32_t sh[5] = {0};
    TT_CHECK(pos >= 0 && wo + 6 < XW, "exact arithmetic: 2^%d is out of range", e);
    if (pos < 0 || wo + 6 >= XW) return;
    for (int i = 0; i < nm; i++) {
        sh[i] |= m[i] << bo;
        if (bo) sh[i + 1] |= m[i] >> (32 - bo);
    }
    uint64_t carry = 0;   /* a borrow when neg */
    for (int i = wo; i < XW; i++) {
        uint64_t t = i - wo <= nm ? sh[i - wo] : 0, w = v->w[i];
        uint64_t r = neg ? w - t - carry : w + t + carry;
        v->w[i] = (uint32_t)r;
        carry = neg ? (r >> 32) & 1 : r >> 32;
        if (i - wo > nm && !carry) break;
    }
}
/* a finite nonzero double as M 2^E, M < 2^53 */
static uint64_t dsplit(double d, int *E) {
    int e;
    double f = frexp(fabs(d), &e);
    *E = e - 53;
    return (uint64_t)ldexp(f, 53);
}
static void xv_prod(xv *v, int neg, uint64_t a, uint64_t b, int e) {   /* v += (-1)^neg a b 2^e */
    uint32_t p[4] = {0}, x[2] = {(uint32_t)a, (uint32_t)(a >> 32)}, y[2] = {(uint32_t)b, (uint32_t)(b >> 32)};
    for (int i = 0; i < 2; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 2; j++) {
            uint64_t t = (uint64_t)x[i] * y[j] + p[i + j] + carry;
            p[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        p[i + 2] = (uint32_t)carry;
    }
    xv_add(v, neg, p, 4, e);
}
static void xv_dbl(xv *v, int neg, double d) {   /* v += (-1)^neg d, d finite */
    if (d == 0) return;
    int E;
    uint64_t M = dsplit(d, &E);
    xv_prod(v, neg ^ (d < 0), M, 1, E);
}
static int xv_sign(const xv *v) {
    if (v->w[XW - 1] >> 31) return -1;
    for (int i = 0; i < XW; i++)
        if (v->w[i]) return 1;
    return 0;
}
static int xv_bit(const xv *v, int i) { return i >= 0 && i < XW * 32 ? (int)(v->w[i / 32] >> (i % 32) & 1) : 0; }
typedef struct fmt { int p, emin, emax; } fmt;
static const fmt FMT_F32 = {24, -126, 127}, FMT_F64 = {53, -1022, 1023};
enum { RN, RZ, RD, RU };
static const char *const rnd_modes[4] = {"rn", "rz", "rd", "ru"};
/* v rounded to format f in mode: +0 for an exact zero (whose sign the caller decides), infinity or
   the largest finite number past the range, as IEEE 754's directed roundings have it */
static double xv_round(const xv *v, fmt f, int mode) {
    xv a = *v;
    int neg = xv_sign(v) < 0, H = -1;
    if (neg) {   /* the magnitude: -v */
        uint64_t carry = 1;
        for (int i = 0; i < XW; i++) {
            uint64_t r = (uint64_t)(uint32_t)~a.w[i] + carry;
            a.w[i] = (uint32_t)r;
            carry = r >> 32;
        }
    }
    for (int i = XW - 1; i >= 0 && H < 0; i--)
        for (int b = 31; b >= 0 && a.w[i] && H < 0; b--)
            if (a.w[i] >> b & 1) H = 32 * i + b;
    if (H < 0) return 0.0;
    int q = H + XLO - f.p + 1;
    if (q < f.emin - f.p + 1) q = f.emin - f.p + 1;   /* the subnormals' quantum */
    int qp = q - XLO, round = xv_bit(&a, qp - 1), sticky = 0;
    uint64_t kept = 0;
    for (int i = H; i >= qp; i--) kept = kept << 1 | (uint64_t)xv_bit(&a, i);
    for (int i = qp - 2; i >= 0 && !sticky; i--) {
        if (i % 32 == 31 && !a.w[i / 32]) i -= 31;   /* a zero word at once */
        else sticky = xv_bit(&a, i);
    }
    int up = mode == RN ? round && (sticky || (kept & 1)) : mode == RD ? neg && (round || sticky) : mode == RU ? !neg && (round || sticky) : 0;
    double r = ldexp((double)(kept + (uint64_t)up), q), mx = ldexp((double)((1ull << f.p) - 1), f.emax - f.p + 1);
    if (r > mx) r = mode == RN || (mode == RU && !neg) || (mode == RD && neg) ? INFINITY : mx;
    return neg ? -r : r;
}
/* The rounding of a positive v known only through cmp (the sign of v - M 2^Q), for a result of
   sign neg: RD(v) found from the estimate by steps, then RD, RU or the nearer (the midpoint
   (2M + 1) 2^(Q-1) compared too; a tie to the even M) */
typedef struct qctx { int kind; double a, b; } qctx;   /* kind 0: a / b; 1: sqrt(a); 2: 1 / sqrt(a) */
static int q_cmp(const qctx *c, uint64_t M, int Q) {
    xv v;
    int E;
    xv_zero(&v);
    if (c->kind == 0) {   /* a - M 2^Q b */
        xv_dbl(&v, 0, c->a);
        uint64_t Mb = dsplit(c->b, &E);
        xv_prod(&v, 1, M, Mb, Q + E);
    } else if (c->kind == 1) {   /* a - (M 2^Q)^2 */
        xv_dbl(&v, 0, c->a);
        xv_prod(&v, 1, M, M, 2 * Q);
    } else {   /* 1 - (M 2^Q)^2 a, M below 2^26 here */
        xv_dbl(&v, 0, 1.0);
        uint64_t Ma = dsplit(c->a, &E);
        xv_prod(&v, 1, M * M, Ma, 2 * Q + E);
    }
    return xv_sign(&v);
}
static double q_round(const qctx *c, double est, fmt f, int mode, int neg) {
    int qmin = f.emin - f.p + 1, qmax = f.emax - f.p + 1, Q = qmin;
    uint64_t top = 1ull << f.p, half = top >> 1, M = 0;
    if (!(est < ldexp(1.0, f.emax + 1))) M = top - 1, Q = qmax;
    else if (est > 0) {
        int e;
        frexp(est, &e);
        Q = e - f.p > qmin ? e - f.p : qmin;
        M = (uint64_t)floor(ldexp(est, -Q));
        if (M >= top) M = top - 1;
    }
    while (M > 0 && q_cmp(c, M, Q) < 0) {   /* down while v < y */
        if (M > half || Q == qmin) M--;
        else M = top - 1, Q--;
    }
    for (;;) {   /* up while the next one is still <= v */
        uint64_t M2 = M + 1;
        int Q2 = Q;
        if (M2 == top) M2 = half, Q2++;
        if (Q2 > qmax || q_cmp(c, M2, Q2) < 0) break;
        M = M2, Q = Q2;
    }
    double lo = ldexp((double)M, Q), hi = M + 1 == top && Q == qmax ? INFINITY : ldexp((double)(M + 1), Q);
    int side = q_cmp(c, M, Q), up;
    if (side == 0) up = 0;
    else if (mode == RN) {
        int m = q_cmp(c, 2 * M + 1, Q - 1);
        up = m > 0 || (m == 0 && (M & 1));
    } else up = mode == RZ ? 0 : mode == RD ? neg : !neg;
    double r = up ? hi : lo;
    return neg ? -r : r;
}
/* the rounding-mode arithmetic op ("add", ..., "rsqrt") of a, b, c in format f */
/* x rounded to the nearest f32, through a volatile: gcc 12 at -O3 (its SLP
   vectorizer on an unswitched loop) dropped the rounding of
   `in[j] = ct == TL_F32 ? (double)(float)in[j] : in[j]` in the loops below,
   and the reference then took 0.1 for float(0.1) (CI's Release build) */
static double as_f32(double x) {
    volatile float f = (float)x;
    return f;
}
static double ref_arith(const char *op, int mode, fmt f, double a, double b, double c) {
    xv v;
    xv_zero(&v);
    if (!strcmp(op, "add") || !strcmp(op, "sub")) {
        if (!strcmp(op, "sub")) b = -b;
        if (!isfinite(a) || !isfinite(b)) return a + b;   /* infinities and NaNs: no rounding */
        xv_dbl(&v, 0, a);
        xv_dbl(&v, 0, b);
        if (!xv_sign(&v)) return a == 0 && b == 0 && signbit(a) == signbit(b) ? a : mode == RD ? -0.0 : 0.0;
        return xv_round(&v, f, mode);
    }
    if (!strcmp(op, "mul")) {
        if (!isfinite(a) || !isfinite(b) || a == 0 || b == 0) return a * b;
        int Ea, Eb;
        uint64_t Ma = dsplit(a, &Ea), Mb = dsplit(b, &Eb);
        xv_prod(&v, (a < 0) != (b < 0), Ma, Mb, Ea + Eb);
        return xv_round(&v, f, mode);
    }
    if (!strcmp(op, "fma")) {
        if (!isfinite(a) || !isfinite(b) || !isfinite(c)) return fma(a, b, c);
        if (a == 0 || b == 0) {   /* a signed zero product, then the sum's rule */
            double p = (signbit(a) != signbit(b)) ? -0.0 : 0.0;
            return c != 0 ? c : signbit(p) == signbit(c) ? c : mode == RD ? -0.0 : 0.0;
        }
        int Ea, Eb;
        uint64_t Ma = dsplit(a, &Ea), Mb = dsplit(b, &Eb);
        xv_prod(&v, (a < 0) != (b < 0), Ma, Mb, Ea + Eb);
        xv_dbl(&v, 0, c);
        if (!xv_sign(&v)) return mode == RD ? -0.0 : 0.0;
        return xv_round(&v, f, mode);
    }
    if (!strcmp(op, "div") || !strcmp(op, "rcp")) {
        if (!strcmp(op, "rcp")) b = a, a = 1.0;
        if (a != a || b != b || isinf(a) || isinf(b) || a == 0 || b == 0) return a / b;
        qctx q = {0, fabs(a), fabs(b)};
        return q_round(&q, fabs(a) / fabs(b), f, mode, (a < 0) != (b < 0));
    }
    if (!strcmp(op, "sqrt")) {
        if (a != a || a < 0) return NAN;
        if (a == 0 || isinf(a)) return a;
        qctx q = {1, a, 0};
        return q_round(&q, sqrt(a), f, mode, 0);
    }
    /* rsqrt */
    if (a != a || a < 0) return NAN;
    if (a == 0) return signbit(a) ? -INFINITY : INFINITY;
    if (isinf(a)) return 0.0;
    qctx q = {2, a, 0};
    return q_round(&q, 1.0 / sqrt(a), f, mode, 0);
}
/* the float x rounded to an integer by mode and saturated to w bits (signed or not), from the bits
   of x's significand; a NaN 0 (what an f32 to 32 bits gives on the GPU; ref_f2i_nan has the rest) */
static uint64_t ref_f2i(double x, int mode, unsigned w, int sg);
/* a NaN to w bits from the float dtype `from`, as an H100 gives it through both back ends: 0 from
   an f32 to 32 bits, else the sign bit alone (cvt.rni.s32.f64, cvt.rzi.s64.f32, ... of a NaN) */
static uint64_t ref_f2i_nan(tl_dtype from, unsigned w) { return from == TL_F32 && w == 32 ? 0 : (uint64_t)1 << (w - 1); }
static uint64_t ref_f2i(double x, int mode, unsigned w, int sg) {
    uint64_t hi = sg ? ((uint64_t)1 << (w - 1)) - 1 : w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
    uint64_t lo_mag = sg ? (uint64_t)1 << (w - 1) : 0;   /* the most negative value's magnitude */
    int neg = x < 0;
    uint64_t mag;
    if (x != x) return 0;
    if (fabs(x) >= 18446744073709551616.0) mag = ~(uint64_t)0;
    else if (x == 0) mag = 0;
    else {
        int E;
        uint64_t M = dsplit(x, &E);
        if (E >= 0) mag = M << E;
        else {
            uint64_t ip = -E >= 64 ? 0 : M >> -E, fr = -E >= 64 ? M : M & (((uint64_t)1 << -E) - 1);
            uint64_t halfv = -E > 64 ? 0 : (uint64_t)1 << (-E - 1);   /* 2^-1 in M's units (0: below M's reach) */
            int up;
            if (mode == RN) up = -E <= 64 && (fr > halfv || (fr == halfv && (ip & 1)));
            else up = fr != 0 && (mode == RZ ? 0 : mode == RD ? neg : !neg);
            mag = ip + (uint64_t)up;
        }
    }
    if (neg) {
        if (!sg) return 0;
        if (mag >= lo_mag) return (uint64_t)0 - lo_mag;
        return (uint64_t)0 - mag;
    }
    return mag > hi ? hi : mag;
}
/* the integer of w bits (its pattern v; signed or not) rounded to format f */
static double ref_i2f(uint64_t v, unsigned w, int sg, fmt f, int mode) {
    xv a;
    xv_zero(&a);
    if (w < 64) v &= ((uint64_t)1 << w) - 1;
    int neg = sg && (v >> (w - 1) & 1);
    uint64_t mag = neg ? (w == 64 ? 0 - v : ((uint64_t)1 << w) - v) : v;
    if (!mag) return 0.0;
    xv_prod(&a, neg, mag, 1, 0);
    return xv_round(&a, f, mode);
}
/* The functions: Triton's names, without the mode; from/to TL_VOID: f32 or f64 operands and result */
typedef struct rfn { const char *name; int n; tl_dtype from, to; int rn; } rfn;
static const rfn rfns[] = {
    {"add", 2, TL_VOID, TL_VOID, 0},          {"sub", 2, TL_VOID, TL_VOID, 0},         {"mul", 2, TL_VOID, TL_VOID, 0},
    {"div", 2, TL_VOID, TL_VOID, 0},          {"fma", 3, TL_VOID, TL_VOID, 0},         {"rcp", 1, TL_VOID, TL_VOID, 0},
    {"sqrt", 1, TL_VOID, TL_VOID, 0},         {"rsqrt", 1, TL_F32, TL_F32, 1},         {"double2float", 1, TL_F64, TL_F32, 0},
    {"double2int", 1, TL_F64, TL_I32, 0},     {"double2uint", 1, TL_F64, TL_U32, 0},   {"double2ll", 1, TL_F64, TL_I64, 0},
    {"double2ull", 1, TL_F64, TL_U64, 0},     {"float2int", 1, TL_F32, TL_I32, 0},     {"float2uint", 1, TL_F32, TL_U32, 0},
    {"float2ll", 1, TL_F32, TL_I64, 0},       {"float2ull", 1, TL_F32, TL_U64, 0},     {"int2float", 1, TL_I32, TL_F32, 0},
    {"uint2float", 1, TL_U32, TL_F32, 0},     {"ll2float", 1, TL_I64, TL_F32, 0},      {"ull2float", 1, TL_U64, TL_F32, 0},
    {"ll2double", 1, TL_I64, TL_F64, 0},      {"ull2double", 1, TL_U64, TL_F64, 0},    {"int2double", 1, TL_I32, TL_F64, 1},
    {"uint2double", 1, TL_U32, TL_F64, 1},
};
enum { NRFN = sizeof rfns / sizeof rfns[0], NR = 1024 };
/* Triton's result dtype: the unsigned conversions' bits as an i32 or i64 */
static tl_dtype rfn_out(const rfn *r, tl_dtype arith) {
    tl_dtype t = r->to == TL_VOID ? arith : r->to;
    return t == TL_U32 ? TL_I32 : t == TL_U64 ? TL_I64 : t;
}
/* C numbers for LIT and FOLD: floats (each exact in f32, but 0.1 and 1e-40, which f64 keeps and f32
   rounds), integers (INT32_MIN, UINT32_MAX, 2^24 + 1, 2^53 + 1, ...), and one past INT64_MAX */
static const double flits[] = {1.0, 0x1p-30, -2.5, 3.0, 0.1, 0x1.fffffep127, 1e-40, -0.0, 0.5, 7.0, 0x1.000002p0, -1e30};
static const long long ilits[] = {16777217, -16777219, INT32_MIN, 4294967295ll, 9007199254740993ll, -1, 33554434, 0};
static const unsigned long long ulit = 0xFFFFFFFFFFFFFFFFull;
enum { NFLIT = sizeof flits / sizeof flits[0], NILIT = sizeof ilits / sizeof ilits[0] };
static tl_dtype rnd_result[NRFN];   /* each function's result dtype, as the kernel saw it */
/* out = <name>_<mode>(x[, y[, z]]), the dtypes with the launch. LIT k: the last operand is the C number
   flits[k - 1] (ilits for an integer operand); FOLD: every operand a C number (flits[A], [B], [C],
   ilits[A], or ulit for U64), so that the constant folder computes the function */
TILE_KERNEL(ld_rnd, (tl_ptr, x), (tl_ptr, y), (tl_ptr, z), (tl_ptr, out), (tl_i32, n))
{
    int k = TL_META(FN), MODE = TL_META(MODE), BLOCK = TL_META(BLOCK), LIT = TL_META_OR(LIT, 0), FOLD = TL_META_OR(FOLD, 0);
    const rfn *f = &rfns[k];
    char name[32];
    snprintf(name, sizeof name, "%s_%s", f->name, rnd_modes[MODE]);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t v[3], r;
    for (int i = 0; i < f->n; i++) {
        tl_t p = i == 0 ? x : i == 1 ? y : z;
        v[i] = tl_load(tl_add(p, offs), .mask = mask, .other = 0);
    }
    int intop = f->from != TL_VOID && !isflt(f->from);
    if (FOLD && f->from == TL_U64) v[0] = tl__cuint(ulit);
    else if (FOLD && intop) v[0] = tl__cint(ilits[TL_META(A)]);
    else if (FOLD) {
        v[0] = tl__cflt(flits[TL_META(A)]);
        if (f->n > 1) v[1] = tl__cflt(flits[TL_META(B)]);
        if (f->n > 2) v[2] = tl__cflt(flits[TL_META(C)]);
    } else if (LIT) v[f->n - 1] = intop ? tl__cint(ilits[LIT - 1]) : tl__cflt(flits[LIT - 1]);
    if (f->n == 1) r = tl_libdevice(name, v[0]);
    else if (f->n == 2) r = tl_libdevice(name, v[0], v[1]);
    else r = tl_libdevice(name, v[0], v[1], v[2]);
    rnd_result[k] = tl_dtype_of(r);
    tl_store(tl_add(out, offs), r, .mask = mask);
}
/* element i of a buffer of dtype t: floats as doubles, integers as their patterns */
static double fget(tl_dtype t, const void *p, int i) { return t == TL_F32 ? ((const float *)p)[i] : ((const double *)p)[i]; }
static void fput(tl_dtype t, void *p, int i, double v) {
    if (t == TL_F32) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
}
/* a value of float dtype t for operand `which` of op, element i: specials paired with specials first,
   then ties made on purpose (half an ulp of a, a 25-bit odd product, a product and half its ulp), and
   random values from every binade (random bits), small integers and ordinary numbers */
static double rnd_arith_input(const char *op, tl_dtype t, int which, int i, const double *prev) {
    int f32 = t == TL_F32, p = f32 ? 24 : 53;
    double mx = f32 ? FLT_MAX : DBL_MAX, mn = f32 ? FLT_MIN : DBL_MIN, sub = f32 ? 0x1p-149 : 0x1p-1074;
    const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, mx, -mx, mn, sub, -sub, 0.5, 3.0, -mn * 1.5};
    enum { NS = sizeof sp / sizeof sp[0] };
    double v;
    if (i < NS * NS) return which == 0 ? sp[i / NS] : which == 1 ? sp[i % NS] : sp[(i * 7 + 3) % NS];
    int kind = i % 8;
    if (kind == 0 && which > 0) {   /* a tie, or next to one */
        double a = prev[0];
        if (!strcmp(op, "add") || !strcmp(op, "sub") || (!strcmp(op, "fma") && which == 2)) {
            double base = !strcmp(op, "fma") ? prev[0] * prev[1] : a;   /* exact: the factors are small */
            if (base == 0 || !isfinite(base)) base = 1.0;
            v = ldexp((double)(2 * tt_int(0, 2) + 1), ilogb(base) - p) * (tt_int(0, 1) ? 1 : -1);
            if (!strcmp(op, "sub")) v = -v;
            return v;
        }
        if (!strcmp(op, "fma") || !strcmp(op, "mul"))   /* odd, so that the product has p + 1 bits */
            return ldexp((double)(2 * tt_int(1 << (f32 ? 11 : 26), (1 << (f32 ? 12 : 27)) - 1) + 1), (int)tt_int(-20, 20));
    }
    if (kind == 0 && (!strcmp(op, "fma") || !strcmp(op, "mul")))
        return ldexp((double)(2 * tt_int(1 << (f32 ? 10 : 25), (1 << (f32 ? 11 : 26)) - 1) + 1), (int)tt_int(-20, 20)) * (tt_int(0, 1) ? 1 : -1);
    if (kind == 1 || kind == 2) {   /* random bits, finite */
        do {
            uint64_t u = tt_next();
            if (f32) {
                uint32_t w = (uint32_t)u;
                float g;
                memcpy(&g, &w, 4);
                v = g;
            } else memcpy(&v, &u, 8);
        } while (!isfinite(v));
        return v;
    }
    if (kind == 3) return (double)tt_int(-20, 20);
    if (kind == 4) v = tt_uniform(-1, 1) * ldexp(1.0, (int)tt_int(f32 ? -130 : -1030, f32 ? -110 : -1010));   /* subnormal results */
    else v = tt_uniform(-4, 4) * ldexp(1.0, (int)tt_int(-30, 30));
    return f32 ? (double)(float)v : v;
}
/* a float operand of a conversion to integers of w bits, or to f32 (w 0): specials, ties, the
   target's bounds and either side of them, random values across its range and random bits */
static double rnd_cvt_input(tl_dtype t, unsigned w, int sg, int i) {
    int f32 = t == TL_F32;
    double B = w ? ldexp(1.0, (int)w - (sg ? 1 : 0)) : 0;
    const double sp[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, -0.7, 1e30, -1e30,
                         B, -B, B - 0.5, -B - 0.5, B - 1, -B - 1, B + 0.5, 2 * B, B / 2 + 0.5, 0x1p-149, -0x1p-149,
                         /* to f32: its largest, half an ulp past it, past the range, tiny (ties with 0 and 2^-149) */
                         0x1.fffffep127, 0x1.ffffffp127, 1e39, -1e39, 0x1p-150, 0x1.8p-149, 1e-50, -1e-50, 0x1.000001p0};
    enum { NS = sizeof sp / sizeof sp[0] };
    double v;
    if (i < NS) v = sp[i];
    else if (i % 4 == 0) v = (double)tt_int(-(1 << 20), 1 << 20) + 0.5;   /* ties */
    else if (i % 4 == 1 && w) v = tt_uniform(-2.5, 2.5) * B;
    else if (i % 4 == 1) {   /* an f32 midpoint, or just beside one */
        float g = (float)tt_uniform(-1e6, 1e6);
        v = ((double)g + nextafterf(g, INFINITY)) / 2;
        if (tt_int(0, 2) == 0) v = nextafter(v, 0);
    } else if (i % 4 == 2) v = tt_uniform(-2, 2) * ldexp(1.0, (int)tt_int(-160, 140));
    else {
        uint64_t u = tt_next();
        if (f32) {
            uint32_t b32 = (uint32_t)u;
            float g;
            memcpy(&g, &b32, 4);
            v = g;
        } else memcpy(&v, &u, 8);
    }
    return f32 ? (double)(float)v : v;
}
/* an integer operand of w bits (its pattern): the edges, ties of f32 and f64 (p + 1 significant bits
   ending in 1), random patterns of every length */
static uint64_t rnd_int_input(unsigned w, int i) {
    const uint64_t sp[] = {0, 1, ~(uint64_t)0, 0x80000000u, 0x7fffffffu, 0xffffffffu, 16777217, 16777219, 0x2000002, 0xffffff7f,
                           0x8000000000000000u, 0x7fffffffffffffffu, (1ull << 53) + 1, (1ull << 53) + 3, 0xfffffffffffffbffu,
                           0x8000000000000401u, 0xffffff8000000000u};
    enum { NS = sizeof sp / sizeof sp[0] };
    uint64_t v;
    if (i < NS) v = sp[i];
    else if (i % 3 == 0) {   /* a tie: p + 1 bits, the last 1 */
        int p = tt_int(0, 1) ? 24 : 53, sh = (int)tt_int(0, (int)w - p - 1 > 0 ? (int)w - p - 1 : 0);
        uint64_t m = (tt_next() | (1ull << p) | 1) & ((1ull << (p + 1)) - 1);
        v = p + 1 + sh <= (int)w ? m << sh : tt_next();
    } else v = tt_next() >> tt_int(0, 63);
    if (tt_int(0, 3) == 0) v = 0 - v;
    return w == 64 ? v : v & (((uint64_t)1 << w) - 1);
}
/* function k in mode: operands of dtype tx (and ty for the second, tz for the third; an arithmetic
   function of f32 and f64 operands computes in f64), or with a C number last (lit) */
static void check_rnd(int k, int mode, tl_dtype tx, tl_dtype ty, int lit) {
    const rfn *f = &rfns[k];
    int arith = f->from == TL_VOID;
    tl_dtype ct = arith ? (tx == TL_F64 || (f->n > 1 && !(lit && f->n == 2) && ty == TL_F64) ? TL_F64 : TL_F32) : f->from;
    if (arith && f->n == 3 && !lit && ty == TL_F64) ct = TL_F64;
    tl_dtype ot = rfn_out(f, ct), tin[3] = {tx, ty, ty};
    fmt F = (f->to == TL_VOID ? ct : f->to) == TL_F64 ? FMT_F64 : FMT_F32;
    size_t os = tile_dtype_size(ot);
    void *h[3], *ho = malloc(NR * os);
    for (int j = 0; j < 3; j++) h[j] = malloc(NR * 8);
    for (int i = 0; i < NR; i++) {
        double prev[3] = {0, 0, 0};
        for (int j = 0; j < f->n; j++) {
            if (arith) {
                prev[j] = rnd_arith_input(f->name, tin[j], j, i, prev);
                fput(tin[j], h[j], i, prev[j]);
            } else if (isflt(f->from)) {
                fput(tx, h[j], i, rnd_cvt_input(tx, isflt(f->to) ? 0 : (unsigned)tile_dtype_size(f->to) * 8, f->to == TL_I32 || f->to == TL_I64, i));
            } else iput(tx, h[j], i, rnd_int_input((unsigned)tile_dtype_size(tx) * 8, i));
        }
    }
    void *x, *y, *o, *z = tile_malloc(NR * 8);
    dev_io(h[0], h[1], NR * 8, NR * os, &x, &y, &o);
    tile_memcpy_htod(z, h[2], NR * 8);
    rnd_result[k] = TL_VOID;
    tile_status st = ld_rnd(TILE_OPTS(.grid = {(NR + 255) / 256}, .meta = {{"FN", k}, {"MODE", mode}, {"BLOCK", 256}, {"LIT", lit}}), TILE_PTR(x, tx),
                            TILE_PTR(y, ty), TILE_PTR(z, ty), TILE_PTR(o, ot), NR);
    char what[128];
    snprintf(what, sizeof what, "tl_libdevice(\"%s_%s\") of %s%s%s%s", f->name, rnd_modes[mode], tile_dtype_name(tx), f->n > 1 ? ", " : "",
             f->n > 1 ? (lit ? "..., a C number" : tile_dtype_name(ty)) : "", f->n > 2 && !lit ? ", ..." : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    TT_CHECK(rnd_result[k] == TL_VOID || rnd_result[k] == ot, "%s: the result is %s, want %s", what, tile_dtype_name(rnd_result[k]), tile_dtype_name(ot));
    tile_memcpy_dtoh(ho, o, NR * os);
    int bad = 0;
    for (int i = 0; i < NR; i++) {
        double in[3] = {0, 0, 0};
        uint64_t iin = 0;
        for (int j = 0; j < f->n; j++) {
            if (arith || isflt(f->from)) in[j] = fget(tin[j], h[j], i);
            else iin = iget(tx, h[0], i);
        }
        if (lit && f->n > 0 && !(f->from != TL_VOID && !isflt(f->from))) {
            double l = flits[lit - 1];
            in[f->n - 1] = ct == TL_F32 ? as_f32(l) : l;
        }
        if (lit && f->from != TL_VOID && !isflt(f->from)) iin = (uint64_t)ilits[lit - 1];
        for (int j = 0; arith && j < f->n; j++) in[j] = ct == TL_F32 ? as_f32(in[j]) : in[j];   /* f32 operands are exact in f64 */
        int same;
        char gs[64], ws[64];
        if (isflt(ot)) {
            double want;
            if (arith || (f->from == TL_F32 && f->to == TL_F32)) want = ref_arith(f->name, mode, F, in[0], in[1], in[2]);
            else if (f->from == TL_F64) {   /* double2float */
                xv a;
                xv_zero(&a);
                if (isfinite(in[0])) xv_dbl(&a, 0, in[0]);
                want = !isfinite(in[0]) || in[0] == 0 ? (double)(float)in[0] : xv_round(&a, F, mode);
            } else want = ref_i2f(iin, (unsigned)tile_dtype_size(f->from) * 8, f->from == TL_I32 || f->from == TL_I64, F, mode);
            double got = fget(ot, ho, i);
            same = (got != got && want != want) || (got == want && signbit(got) == signbit(want));
            snprintf(gs, sizeof gs, "%a", got);
            snprintf(ws, sizeof ws, "%a", want);
        } else {
            unsigned w = (unsigned)tile_dtype_size(f->to) * 8;
            uint64_t want = in[0] != in[0] ? ref_f2i_nan(f->from, w) : ref_f2i(in[0], mode, w, f->to == TL_I32 || f->to == TL_I64);
            uint64_t got = iget(ot, ho, i);
            if (w < 64) want &= ((uint64_t)1 << w) - 1, got &= ((uint64_t)1 << w) - 1;
            same = got == want;
            snprintf(gs, sizeof gs, "0x%llx", (unsigned long long)got);
            snprintf(ws, sizeof ws, "0x%llx", (unsigned long long)want);
        }
        if (!same && bad++ < 4)
            TT_CHECK(0, "%s: element %d of %a, %a, %a (0x%llx): %s, want %s", what, i, in[0], in[1], in[2], (unsigned long long)iin, gs, ws);
        tt_checks++;
    }
    TT_CHECK(!bad, "%s: %d of %d elements wrong", what, bad, NR);
    dev_free(x, y, o);
    tile_free(z);
    for (int j = 0; j < 3; j++) free(h[j]);
    free(ho);
}
/* function k in mode of C numbers only (flits[a], [b], [c]; ilits[a]; ulit for U64), folded to one
   constant, stored */
static void check_rnd_fold(int k, int mode, int a, int b, int c) {
    enum { NF = 64 };
    const rfn *f = &rfns[k];
    int intop = f->from != TL_VOID && !isflt(f->from);
    tl_dtype ct = f->from == TL_VOID ? TL_F32 : f->from, ot = rfn_out(f, TL_F32);
    fmt F = (f->to == TL_VOID ? ct : f->to) == TL_F64 ? FMT_F64 : FMT_F32;
    if (intop)   /* a C integer its dtype holds */
        for (a %= NILIT; !(f->from == TL_I64 || f->from == TL_U64 || (f->from == TL_I32 ? ilits[a] >= INT32_MIN && ilits[a] <= INT32_MAX
                                                                                      : ilits[a] >= 0 && ilits[a] <= (long long)UINT32_MAX));
             a = (a + 1) % NILIT) {}
    unsigned char ho[NF * 8];
    void *o = tile_malloc(NF * 8);
    tile_memset(o, 0xA5, NF * 8);
    tile_status st = ld_rnd(TILE_OPTS(.grid = {1}, .meta = {{"FN", k}, {"MODE", mode}, {"BLOCK", NF}, {"FOLD", 1}, {"A", a}, {"B", b}, {"C", c}}),
                            TILE_PTR(o, ot), TILE_PTR(o, ot), TILE_PTR(o, ot), TILE_PTR(o, ot), NF);
    char what[128];
    snprintf(what, sizeof what, "tl_libdevice(\"%s_%s\") of C numbers (%d, %d, %d) folded", f->name, rnd_modes[mode], a, b, c);
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, NF * tile_dtype_size(ot));
    int bad = 0;
    /* the operands as the builder takes them: a C float in the operand dtype, a C integer as it is */
    double in[3] = {flits[a], flits[b], flits[c]};
    for (int j = 0; j < 3; j++) in[j] = ct == TL_F32 ? as_f32(in[j]) : in[j];
    for (int i = 0; i < NF; i++) {
        if (isflt(ot)) {
            double want, got = fget(ot, ho, i);
            if (intop) want = ref_i2f(f->from == TL_U64 ? ulit : (uint64_t)ilits[a], (unsigned)tile_dtype_size(f->from) * 8, f->from == TL_I32 || f->from == TL_I64, F, mode);
            else if (f->from == TL_F64 && f->to == TL_F32) {
                xv v;
                xv_zero(&v);
                xv_dbl(&v, 0, in[0]);
                want = in[0] == 0 ? in[0] : xv_round(&v, F, mode);
            } else want = ref_arith(f->name, mode, F, in[0], in[1], in[2]);
            bad += !((got != got && want != want) || (got == want && signbit(got) == signbit(want)));
            if (bad == 1 && i == 0) TT_CHECK(0, "%s: %a, want %a", what, got, want);
        } else {
            unsigned w = (unsigned)tile_dtype_size(f->to) * 8;
            uint64_t want = in[0] != in[0] ? ref_f2i_nan(f->from, w) : ref_f2i(in[0], mode, w, f->to == TL_I32 || f->to == TL_I64);
            uint64_t got = iget(ot, ho, i);
            if (w < 64) want &= ((uint64_t)1 << w) - 1, got &= ((uint64_t)1 << w) - 1;
            bad += got != want;
            if (bad == 1 && i == 0) TT_CHECK(0, "%s: 0x%llx, want 0x%llx", what, (unsigned long long)got, (unsigned long long)want);
        }
    }
    TT_CHECK(!bad, "%s: %d of %d elements wrong", what, bad, NF);
    tile_free(o);
}
static void check_rounding(void) {
    for (int k = 0; k < NRFN; k++)
        for (int mode = 0; mode < (rfns[k].rn ? 1 : 4); mode++) {
            const rfn *f = &rfns[k];
            if (f->from == TL_VOID) {
                check_rnd(k, mode, TL_F32, TL_F32, 0);
                check_rnd(k, mode, TL_F64, TL_F64, 0);
                if (f->n > 1) {
                    check_rnd(k, mode, TL_F32, TL_F64, 0);   /* promoted: f64 */
                    check_rnd(k, mode, tt_int(0, 1) ? TL_F32 : TL_F64, TL_F32, 1 + (int)tt_int(0, NFLIT - 1));
                }
            } else check_rnd(k, mode, f->from, f->from, 0);
            check_rnd_fold(k, mode, (int)tt_int(0, NFLIT - 1), (int)tt_int(0, NFLIT - 1), (int)tt_int(0, NFLIT - 1));
        }
}

/* ---- the functions of other dtypes, bit for bit ----------------------------------------------
   abs, the bit reinterpretations, the classifications, llrint, llround, ilogb, ldexp, scalbn, pow of
   an i32 exponent, saturatef and nearbyint, in each dtype Triton's libdevice declares them for (and
   f16 and bf16, which compute in f32), against references on the operands' bits: the
   classifications by the exponent and significand fields, ldexp rounded once by the exact
   arithmetic above, llround by trunc and the fraction, ilogb by the exponent field and the
   significand's leading zeros, pow by libdevice's loop in the dtype's own arithmetic (x^|n| by
   squaring, each product rounded, then 1 / it for n < 0). Each result is compared bit for bit (the
   sign of a zero counts); a NaN as any NaN, but for the bit reinterpretations, where the bits are
   the point, signaling NaNs and payloads included. */
enum { CMP_VAL, CMP_BITS };
/* lit: a C number may stand for operand 0 (taken in in0) */
typedef struct mcase { const char *name; int n; tl_dtype in0, in1, out; int cmp, lit; } mcase;
static const mcase mcases[] = {
    {"abs", 1, TL_I32, TL_VOID, TL_I32, CMP_VAL, 1},
    {"abs", 1, TL_I64, TL_VOID, TL_I64, CMP_VAL, 0},
    {"abs", 1, TL_F32, TL_VOID, TL_F32, CMP_VAL, 1},
    {"abs", 1, TL_F64, TL_VOID, TL_F64, CMP_VAL, 0},
    {"abs", 1, TL_F16, TL_VOID, TL_F16, CMP_VAL, 0},
    {"abs", 1, TL_BF16, TL_VOID, TL_BF16, CMP_VAL, 0},
    {"int_as_float", 1, TL_I32, TL_VOID, TL_F32, CMP_BITS, 1},
    {"uint_as_float", 1, TL_U32, TL_VOID, TL_F32, CMP_BITS, 1},
    {"float_as_int", 1, TL_F32, TL_VOID, TL_I32, CMP_BITS, 1},
    {"float_as_uint", 1, TL_F32, TL_VOID, TL_I32, CMP_BITS, 0},
    {"longlong_as_double", 1, TL_I64, TL_VOID, TL_F64, CMP_BITS, 1},
    {"double_as_longlong", 1, TL_F64, TL_VOID, TL_I64, CMP_BITS, 1},
    {"hiloint2double", 2, TL_I32, TL_I32, TL_F64, CMP_BITS, 1},
    {"double2loint", 1, TL_F64, TL_VOID, TL_I32, CMP_BITS, 1},
    {"double2hiint", 1, TL_F64, TL_VOID, TL_I32, CMP_BITS, 0},
    {"isnan", 1, TL_F32, TL_VOID, TL_I1, CMP_VAL, 1},
    {"isnan", 1, TL_F64, TL_VOID, TL_I1, CMP_VAL, 0},
    {"isnan", 1, TL_F16, TL_VOID, TL_I1, CMP_VAL, 0},
    {"isinf", 1, TL_F32, TL_VOID, TL_I1, CMP_VAL, 1},
    {"isinf", 1, TL_F64, TL_VOID, TL_I1, CMP_VAL, 0},
    {"isinf", 1, TL_BF16, TL_VOID, TL_I1, CMP_VAL, 0},
    {"signbit", 1, TL_F32, TL_VOID, TL_I32, CMP_VAL, 1},
    {"signbit", 1, TL_F64, TL_VOID, TL_I32, CMP_VAL, 0},
    {"signbit", 1, TL_F16, TL_VOID, TL_I32, CMP_VAL, 0},
    {"signbit", 1, TL_BF16, TL_VOID, TL_I32, CMP_VAL, 0},
    {"finitef", 1, TL_F32, TL_VOID, TL_I32, CMP_VAL, 1},
    {"isfinited", 1, TL_F64, TL_VOID, TL_I32, CMP_VAL, 1},
    {"llrint", 1, TL_F32, TL_VOID, TL_I64, CMP_VAL, 1},
    {"llrint", 1, TL_F64, TL_VOID, TL_I64, CMP_VAL, 0},
    {"llrint", 1, TL_F16, TL_VOID, TL_I64, CMP_VAL, 0},
    {"llround", 1, TL_F32, TL_VOID, TL_I64, CMP_VAL, 1},
    {"llround", 1, TL_F64, TL_VOID, TL_I64, CMP_VAL, 0},
    {"llround", 1, TL_BF16, TL_VOID, TL_I64, CMP_VAL, 0},
    {"ilogb", 1, TL_F32, TL_VOID, TL_I32, CMP_VAL, 1},
    {"ilogb", 1, TL_F64, TL_VOID, TL_I32, CMP_VAL, 0},
    {"ilogb", 1, TL_F16, TL_VOID, TL_I32, CMP_VAL, 0},
    {"ilogb", 1, TL_BF16, TL_VOID, TL_I32, CMP_VAL, 0},
    {"ldexp", 2, TL_F32, TL_I32, TL_F32, CMP_VAL, 1},
    {"ldexp", 2, TL_F64, TL_I32, TL_F64, CMP_VAL, 0},
    {"ldexp", 2, TL_F16, TL_I32, TL_F16, CMP_VAL, 0},
    {"scalbn", 2, TL_F32, TL_I32, TL_F32, CMP_VAL, 1},
    {"scalbn", 2, TL_F64, TL_I32, TL_F64, CMP_VAL, 0},
    {"scalbn", 2, TL_BF16, TL_I32, TL_BF16, CMP_VAL, 0},
    {"pow", 2, TL_F32, TL_I32, TL_F32, CMP_VAL, 1},
    {"pow", 2, TL_F64, TL_I32, TL_F64, CMP_VAL, 0},
    {"pow", 2, TL_F16, TL_I32, TL_F16, CMP_VAL, 0},
    {"saturatef", 1, TL_F32, TL_VOID, TL_F32, CMP_VAL, 1},
    {"nearbyint", 1, TL_F32, TL_VOID, TL_F32, CMP_VAL, 1},
    {"nearbyint", 1, TL_F64, TL_VOID, TL_F64, CMP_VAL, 0},
    {"nearbyint", 1, TL_F16, TL_VOID, TL_F16, CMP_VAL, 0},
};
enum { NMCASE = sizeof mcases / sizeof mcases[0], NM = 1024 };
/* C numbers: floats, and integers (each used where its dtype holds it) */
static const double mflits[] = {1.5, -0.0, INFINITY, -INFINITY, NAN, -2.5, 1e-40, 3e38, 0.1, 2.5, -7.0, 1e300, 0x1p63, -0.5};
static const long long milits[] = {0, 1, -1, 7, -7, INT32_MIN, INT32_MAX, 149, -150, 300, -1100, 0x7ff00000, 0x7f800001, 4294967295ll,
                                   0x7ff0000000000001ll, -(1ll << 62) - 5};
enum { NMFLIT = sizeof mflits / sizeof mflits[0], NMILIT = sizeof milits / sizeof milits[0] };
static tl_dtype more_result[NMCASE];   /* each case's result dtype, as the kernel saw it */
/* out = name(x[, y]); LIT: y is the C integer milits[B]; FOLD: x is the C number mflits[A] (milits[A]
   for an integer operand) and y milits[B], so that the folder computes it */
TILE_KERNEL(ld_more, (tl_ptr, x), (tl_ptr, y), (tl_ptr, out), (tl_i32, n))
{
    int k = TL_META(FN), BLOCK = TL_META(BLOCK), LIT = TL_META_OR(LIT, 0), FOLD = TL_META_OR(FOLD, 0);
    const mcase *c = &mcases[k];
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t v0 = tl_load(tl_add(x, offs), .mask = mask, .other = 0), v1 = v0, r;
    if (c->n == 2) v1 = tl_load(tl_add(y, offs), .mask = mask, .other = 0);
    if (FOLD) v0 = isflt(c->in0) ? tl__cflt(mflits[TL_META(A)]) : tl__cint(milits[TL_META(A)]);
    if (FOLD || LIT) v1 = tl__cint(milits[TL_META(B)]);
    r = c->n == 1 ? tl_libdevice(c->name, v0) : tl_libdevice(c->name, v0, v1);
    more_result[k] = tl_dtype_of(r);
    tl_store(tl_add(out, offs), r, .mask = mask);
}
/* a float dtype's fields: its width and significand bits */
static unsigned fw(tl_dtype t) { return (unsigned)tile_dtype_size(t) * 8; }
static unsigned fm(tl_dtype t) { return t == TL_F64 ? 52 : t == TL_F32 ? 23 : t == TL_F16 ? 10 : 7; }
static uint64_t fexpo(tl_dtype t, uint64_t b) { return b >> fm(t) & ((1ull << (fw(t) - 1 - fm(t))) - 1); }
static uint64_t fmant(tl_dtype t, uint64_t b) { return b & ((1ull << fm(t)) - 1); }
static int fsign(tl_dtype t, uint64_t b) { return (int)(b >> (fw(t) - 1) & 1); }
static int fnan(tl_dtype t, uint64_t b) { return fexpo(t, b) == (1ull << (fw(t) - 1 - fm(t))) - 1 && fmant(t, b) != 0; }
static int finf(tl_dtype t, uint64_t b) { return fexpo(t, b) == (1ull << (fw(t) - 1 - fm(t))) - 1 && fmant(t, b) == 0; }
/* the value of float bits b of dtype t, and the bits of value v rounded to t */
static double fval(tl_dtype t, uint64_t b) {
    if (t == TL_F64) {
        double d;
        memcpy(&d, &b, 8);
        return d;
    }
    if (t == TL_F32) {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    if (t == TL_F16) {
        tile_f16 h = {(uint16_t)b};
        return tile_f16_to(h);
    }
    tile_bf16 h = {(uint16_t)b};
    return tile_bf16_to(h);
}
static uint64_t fbits(tl_dtype t, double v) {
    if (t == TL_F64) {
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    if (t == TL_F32) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    return t == TL_F16 ? tile_f16_from(v).bits : tile_bf16_from(v).bits;
}
/* a float operand's bits: specials (zeros, infinities, quiet and signaling NaNs, the subnormal and
   normal bounds, ties, 2^63 and its neighbours), then random bits, small numbers, ties k + 1/2 and
   numbers of every binade; pow gets mostly |x| <= 3 */
static uint64_t more_float(tl_dtype t, int i, int pow_like) {
    unsigned w = fw(t), m = fm(t);
    uint64_t sgn = 1ull << (w - 1), inf = ((1ull << (w - 1 - m)) - 1) << m, top = 1ull << (m - 1);
    const uint64_t bsp[] = {0, sgn, inf, inf | sgn, inf | top, inf | top | sgn, inf | 1, inf | 5 | sgn, 1, 1 | sgn, top * 2 - 1, 1ull << m,
                            inf - 1, (inf - 1) | sgn};
    const double vsp[] = {1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.49999999999999994, 0x1p63, -0x1p63, 0x1.fffffep62, -0x1.fffffffffffffp62,
                          0x1p64, 1e30, -1e30, 0x1p31, 8388608.5, 4503599627370495.5, 1e-5};
    enum { NB = sizeof bsp / sizeof bsp[0], NV = sizeof vsp / sizeof vsp[0] };
    if (i < NB) return bsp[i];
    if (i < NB + NV) return fbits(t, vsp[i - NB]);
    if (pow_like && i % 2) return fbits(t, tt_uniform(-3, 3));
    switch (i % 4) {
    case 0: return tt_next() & (w == 64 ? ~0ull : (1ull << w) - 1);
    case 1: return fbits(t, tt_uniform(-100, 100));
    case 2: return fbits(t, (double)tt_int(-(1 << 20), 1 << 20) + 0.5);
    default: return fbits(t, tt_uniform(-2.5, 2.5) * ldexp(1.0, (int)tt_int(-160, 80)));
    }
}
/* the i32 operand n: ldexp's and scalbn's across the dtype's range and past it, pow's small, with
   the edges; hiloint2double's any bits */
static uint64_t more_n(const mcase *c, int i) {
    static const int32_t edge[] = {0, 1, -1, 2, -2, INT32_MIN, INT32_MAX, 149, -149, 150, -150, 278, -279, 1074, -1075, 2099, -2100, 31, 127, -126};
    enum { NE = sizeof edge / sizeof edge[0] };
    int32_t v;
    if (!strcmp(c->name, "hiloint2double")) return (uint32_t)tt_next();
    if (i % 7 == 3) v = edge[tt_int(0, NE - 1)];
    else if (!strcmp(c->name, "pow")) v = (int32_t)tt_int(-40, 40);
    else v = (int32_t)(c->in0 == TL_F64 ? tt_int(-2200, 2200) : tt_int(-330, 330));
    return (uint32_t)v;
}
/* x^n as libdevice's __nv_powif / __nv_powi compute it, in float or double arithmetic */
static double ref_powi(double x, int32_t n, int f32) {
    uint32_t e = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    if (f32) {
        volatile float r = 1.0f, p = (float)x;
        for (;;) {
            if (e & 1) r = r * p;
            e >>= 1;
            if (!e) break;
            p = p * p;
        }
        if (n < 0) r = 1.0f / r;
        return r;
    }
    volatile double r = 1.0, p = x;
    for (;;) {
        if (e & 1) r = r * p;
        e >>= 1;
        if (!e) break;
        p = p * p;
    }
    if (n < 0) r = 1.0 / r;
    return r;
}
/* x 2^n rounded once to t's format (f16: 11 bits, bf16: 8, both as f32's range or f16's) */
static double ref_ldexp(tl_dtype t, double x, int32_t n) {
    static const fmt F16 = {11, -14, 15}, BF16 = {8, -126, 127};
    fmt F = t == TL_F64 ? FMT_F64 : t == TL_F32 ? FMT_F32 : t == TL_F16 ? F16 : BF16;
    if (x != x || isinf(x) || x == 0) return x;
    int E;
    uint64_t M = dsplit(x, &E);
    long long e = (long long)E + n;
    if (e > 1100) return x < 0 ? -INFINITY : INFINITY;
    if (e < -1200) return x < 0 ? -0.0 : 0.0;
    xv v;
    xv_zero(&v);
    xv_prod(&v, x < 0, M, 1, (int)e);
    return xv_round(&v, F, RN);
}
/* the result's bits of case c on operand bits a and b */
static uint64_t ref_more(const mcase *c, uint64_t a, uint64_t b) {
    const char *nm = c->name;
    tl_dtype t = c->in0;
    double v = isflt(t) ? fval(t, a) : 0, r;
    if (!strcmp(nm, "abs")) {
        if (isflt(t)) return a & ~(1ull << (fw(t) - 1));
        if (t == TL_I32) return (uint32_t)((int32_t)a < 0 ? 0u - (uint32_t)a : (uint32_t)a);
        return (int64_t)a < 0 ? 0 - a : a;
    }
    if (!strcmp(nm, "int_as_float") || !strcmp(nm, "uint_as_float") || !strcmp(nm, "float_as_int") || !strcmp(nm, "float_as_uint"))
        return a & 0xffffffffu;
    if (!strcmp(nm, "longlong_as_double") || !strcmp(nm, "double_as_longlong")) return a;
    if (!strcmp(nm, "hiloint2double")) return a << 32 | (b & 0xffffffffu);
    if (!strcmp(nm, "double2loint")) return a & 0xffffffffu;
    if (!strcmp(nm, "double2hiint")) return a >> 32;
    if (!strcmp(nm, "isnan")) return (uint64_t)fnan(t, a);
    if (!strcmp(nm, "isinf")) return (uint64_t)finf(t, a);
    if (!strcmp(nm, "signbit")) return (uint64_t)fsign(t, a);
    if (!strcmp(nm, "finitef") || !strcmp(nm, "isfinited")) return (uint64_t)(!fnan(t, a) && !finf(t, a));
    if (!strcmp(nm, "llrint")) return v != v ? ref_f2i_nan(t, 64) : ref_f2i(v, RN, 64, 1);
    if (!strcmp(nm, "llround")) {
        if (v != v) return 0x8000000000000000u;   /* from any float, as an H100 gives it */
        if (v >= 0x1p63) return 0x7fffffffffffffffu;
        if (v <= -0x1p63) return 0x8000000000000000u;
        double tr = trunc(v);
        return (uint64_t)(int64_t)(tr + (fabs(v - tr) >= 0.5 ? (v < 0 ? -1 : 1) : 0));
    }
    if (!strcmp(nm, "ilogb")) {
        if (v != v || v == 0) return (uint32_t)INT32_MIN;
        if (isinf(v)) return INT32_MAX;
        uint64_t db = fbits(TL_F64, v), e = fexpo(TL_F64, db), mt = fmant(TL_F64, db);
        int top = 51;
        if (e) return (uint32_t)((int)e - 1023);
        while (!(mt >> top & 1)) top--;
        return (uint32_t)(top - 1074);
    }
    if (!strcmp(nm, "saturatef")) r = v != v || v <= 0 ? 0.0 : v >= 1 ? 1.0 : v;
    else if (!strcmp(nm, "nearbyint")) {
        double f = floor(v), d = v - f;
        r = !isfinite(v) ? v : (d > 0.5 || (d == 0.5 && fmod(f, 2) != 0)) ? f + 1 : f;
        if (r == 0) r = copysign(0.0, v);
    } else if (!strcmp(nm, "pow")) r = ref_powi(v, (int32_t)b, t != TL_F64);
    else r = ref_ldexp(t, v, (int32_t)b);   /* ldexp, scalbn */
    return fbits(c->out, r);
}
/* case k on NM operands (LIT: the second a C number; FOLD: every operand one) */
static void check_more(int k, int lit, int fold) {
    const mcase *c = &mcases[k];
    int A = 0, B = 0;
    unsigned w0 = (unsigned)tile_dtype_size(c->in0) * 8, ow = (unsigned)tile_dtype_size(c->out) * 8;
    uint64_t *a = (uint64_t *)malloc(NM * 8), *b = (uint64_t *)malloc(NM * 8), mask0 = w0 == 64 ? ~0ull : (1ull << w0) - 1;
    void *hx = malloc(NM * 8), *hy = malloc(NM * 8), *ho = malloc(NM * 8);
    if (lit || fold) {   /* a C integer that i32 holds for n, one that in0 holds for an integer x */
        do B = (int)tt_int(0, NMILIT - 1);
        while (milits[B] < INT32_MIN || milits[B] > INT32_MAX);
    }
    if (fold && isflt(c->in0)) A = (int)tt_int(0, NMFLIT - 1);
    else if (fold)
        do A = (int)tt_int(0, NMILIT - 1);
        while (!(c->in0 == TL_I64 || (c->in0 == TL_I32 ? milits[A] >= INT32_MIN && milits[A] <= INT32_MAX
                                                          : milits[A] >= 0 && milits[A] <= (long long)UINT32_MAX)));
    for (int i = 0; i < NM; i++) {
        if (fold) a[i] = isflt(c->in0) ? fbits(c->in0, c->in0 == TL_F32 ? as_f32(mflits[A]) : mflits[A]) : (uint64_t)milits[A] & mask0;
        else a[i] = isflt(c->in0) ? more_float(c->in0, i, !strcmp(c->name, "pow")) : rnd_int_input(w0, i);
        b[i] = lit || fold ? (uint32_t)milits[B] : c->n == 2 ? more_n(c, i) : 0;
        iput(c->in0, hx, i, a[i]);
        if (c->n == 2) iput(c->in1, hy, i, b[i]);
    }
    void *x, *y, *o;
    dev_io(hx, hy, NM * 8, NM * 8, &x, &y, &o);
    more_result[k] = TL_VOID;
    tile_status st = ld_more(TILE_OPTS(.grid = {(NM + 255) / 256}, .meta = {{"FN", k}, {"BLOCK", 256}, {"LIT", lit}, {"FOLD", fold}, {"A", A}, {"B", B}}),
                             TILE_PTR(x, c->in0), TILE_PTR(y, c->n == 2 ? c->in1 : c->in0), TILE_PTR(o, c->out), NM);
    char what[128];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") of %s%s%s%s", c->name, fold ? "C numbers" : tile_dtype_name(c->in0),
             c->n == 2 && !fold ? ", " : "", c->n == 2 && !fold ? (lit ? "a C integer" : tile_dtype_name(c->in1)) : "", fold ? " (folded)" : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    TT_CHECK(more_result[k] == TL_VOID || more_result[k] == c->out, "%s: the result is %s, want %s", what, tile_dtype_name(more_result[k]),
             tile_dtype_name(c->out));
    tile_memcpy_dtoh(ho, o, NM * (ow / 8));
    int bad = 0;
    uint64_t omask = ow == 64 ? ~0ull : (1ull << ow) - 1;
    for (int i = 0; i < NM; i++) {
        uint64_t want = ref_more(c, a[i], b[i]) & omask, got = iget(c->out, ho, i) & omask;
        int same = got == want || (c->cmp == CMP_VAL && isflt(c->out) && fnan(c->out, want) && fnan(c->out, got));
        if (!same && bad++ < 4)
            TT_CHECK(0, "%s: element %d of 0x%llx, 0x%llx: 0x%llx, want 0x%llx", what, i, (unsigned long long)a[i], (unsigned long long)b[i],
                     (unsigned long long)got, (unsigned long long)want);
        tt_checks++;
    }
    TT_CHECK(!bad, "%s: %d of %d elements wrong", what, bad, NM);
    dev_free(x, y, o);
    free(a), free(b), free(hx), free(hy), free(ho);
}

/* ---- the approximate ones: fast_expf ... fast_dividef (f32), rcp64h (f64) ------------------
   The interpreter computes the exact function, rounded once to the dtype: within an ulp of the
   long double references here. The GPU's are the special-function unit's approximations
   (ex2.approx, lg2.approx, sin.approx, div.approx, rcp.approx.ftz.f64): the tolerances below are
   CUDA's documented error bounds on these domains, with room (an absolute one where the function
   crosses 0) */
static double r_fexp(double x) { return (double)expl((long double)x); }
static double r_flog(double x) { return (double)logl((long double)x); }
static double r_flog2(double x) { return (double)log2l((long double)x); }
static double r_flog10(double x) { return (double)log10l((long double)x); }
static double r_fsin(double x) { return (double)sinl((long double)x); }
static double r_fcos(double x) { return (double)cosl((long double)x); }
static double r_ftan(double x) { return (double)tanl((long double)x); }
static double r_frcp(double x) { return (double)(1.0L / (long double)x); }
static double r_fpow(double x, double y) { return (double)powl((long double)x, (long double)y); }
static double r_fdiv(double x, double y) { return (double)((long double)x / (long double)y); }
static const struct afn {
    const char *name;
    double (*ref1)(double);
    double (*ref2)(double, double);
    double lo, hi, lo2, hi2, atol, rtol;   /* the domains; the GPU's tolerance */
} afns[] = {
    {"fast_expf", r_fexp, 0, -10, 10, 0, 0, 0, 4e-6},          {"fast_exp10f", r_exp10, 0, -4, 4, 0, 0, 0, 4e-6},
    {"fast_logf", r_flog, 0, 1e-3, 1e3, 0, 0, 2e-6, 2e-6},     {"fast_log2f", r_flog2, 0, 1e-3, 1e3, 0, 0, 2e-6, 2e-6},
    {"fast_log10f", r_flog10, 0, 1e-3, 1e3, 0, 0, 2e-6, 2e-6}, {"fast_sinf", r_fsin, 0, -3.14159, 3.14159, 0, 0, 2e-6, 0},
    {"fast_cosf", r_fcos, 0, -3.14159, 3.14159, 0, 0, 2e-6, 0}, {"fast_tanf", r_ftan, 0, -1.2, 1.2, 0, 0, 2e-6, 1e-5},
    {"fast_powf", 0, r_fpow, 0.5, 4, -4, 4, 1e-6, 2e-5},       {"fast_dividef", 0, r_fdiv, -100, 100, 0.01, 100, 0, 1e-6},
    {"rcp64h", r_frcp, 0, 1e-300, 1e300, 0, 0, 0, 1e-5},
};
enum { NAFN = sizeof afns / sizeof afns[0] };
/* out = name(x[, y]), FN the index in afns; the dtypes with the launch */
TILE_KERNEL(ld_fast, (tl_ptr, x), (tl_ptr, y), (tl_ptr, out), (tl_i32, n))
{
    const struct afn *f = &afns[TL_META(FN)];
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask, .other = 1);
    tl_t r = f->ref2 ? tl_libdevice(f->name, xv, tl_load(tl_add(y, offs), .mask = mask, .other = 1)) : tl_libdevice(f->name, xv);
    tl_store(tl_add(out, offs), r, .mask = mask);
}
static void check_fast(int k) {
    const struct afn *f = &afns[k];
    tl_dtype t = strcmp(f->name, "rcp64h") ? TL_F32 : TL_F64;
    int interp = strcmp(tile_backend_name(), "interp") == 0, two = f->ref2 != NULL;
    size_t es = tile_dtype_size(t);
    void *hx = malloc(N * es), *hy = malloc(N * es), *ho = malloc(N * es);
    double *got = (double *)malloc(N * sizeof(double)), *want = (double *)malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) {
        /* rcp64h: magnitudes spread over the exponents, either sign; the others uniform on the domain */
        double a = t == TL_F64 ? ldexp(tt_uniform(1, 2), (int)tt_int(-990, 990)) * (i % 2 ? -1 : 1) : tt_uniform(f->lo, f->hi);
        double b = tt_uniform(f->lo2, f->hi2);
        if (!strcmp(f->name, "fast_dividef") && i % 2) b = -b;
        put(t, hx, i, a);
        put(t, hy, i, b);
    }
    void *x, *y, *o;
    dev_io(hx, hy, N * es, N * es, &x, &y, &o);
    tile_status st = ld_fast(TILE_OPTS(.grid = {(N + 255) / 256}, .meta = {{"FN", k}, {"BLOCK", 256}}), TILE_PTR(x, t), TILE_PTR(y, t), TILE_PTR(o, t), N);
    char what[96];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") %s", f->name, tile_dtype_name(t));
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, N * es);
    for (int i = 0; i < N; i++) {
        double a = get(t, hx, i), b = get(t, hy, i);
        want[i] = two ? f->ref2(a, b) : f->ref1(a);
        got[i] = get(t, ho, i);
    }
    /* the interpreter: the exact function rounded once (an ulp: 2^-24 or 2^-53 relative, with room) */
    double ulp = t == TL_F64 ? 0x1p-52 : 0x1p-23;
    tt_check_close(what, got, want, N, interp ? 0 : f->atol, interp ? ulp : f->rtol);
    dev_free(x, y, o);
    free(hx), free(hy), free(ho), free(got), free(want);
}

/* ---- norm3d, rnorm3d, norm4d, rnorm4d: three and four operands -------------------------------
   sqrt(x^2 + y^2 + z^2 [+ w^2]) and its reciprocal, against the sum of squares scaled by the
   largest magnitude in long double, on operands of every magnitude (squares past the dtype's
   range), zeros (rnorm: inf), an infinity beside a NaN (inf, as C's hypot) and NaNs alone */
static double ref_norm(int n, const double *v, int recip) {
    long double m = 0, s = 0;
    int nan = 0;
    for (int k = 0; k < n; k++) {
        if (isinf(v[k])) return recip ? 0.0 : INFINITY;
        nan |= v[k] != v[k];
        if (fabsl((long double)v[k]) > m) m = fabsl((long double)v[k]);
    }
    if (nan) return NAN;
    if (m == 0) return recip ? INFINITY : 0.0;
    for (int k = 0; k < n; k++) s += ((long double)v[k] / m) * ((long double)v[k] / m);
    long double r = m * sqrtl(s);
    return (double)(recip ? 1.0L / r : r);
}
static const char *const norm_names[4] = {"norm3d", "rnorm3d", "norm4d", "rnorm4d"};
/* out = name(x, y, z[, w]), FN the index in norm_names; LIT: the last operand the C number 2.5 */
TILE_KERNEL(ld_norm, (tl_ptr, x), (tl_ptr, y), (tl_ptr, z), (tl_ptr, w), (tl_ptr, out), (tl_i32, n))
{
    int k = TL_META(FN), BLOCK = TL_META(BLOCK), LIT = TL_META_OR(LIT, 0), nops = k < 2 ? 3 : 4;
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n), v[4];
    tl_t p[4] = {x, y, z, w};
    for (int i = 0; i < nops; i++) v[i] = tl_load(tl_add(p[i], offs), .mask = mask, .other = 1);
    if (LIT) v[nops - 1] = tl__cflt(2.5);
    tl_t r = nops == 3 ? tl_libdevice(norm_names[k], v[0], v[1], v[2]) : tl_libdevice(norm_names[k], v[0], v[1], v[2], v[3]);
    tl_store(tl_add(out, offs), r, .mask = mask);
}
/* norm k on operands of dtype t (the last of dtype tl: promoted), or the last the C number 2.5 */
static void check_norm(int k, tl_dtype t, tl_dtype tlast, int lit) {
    int nops = k < 2 ? 3 : 4, recip = k & 1;
    tl_dtype ot = tlast == TL_F64 && !lit ? TL_F64 : t;
    size_t es = 8;
    void *h[4], *ho = malloc(N * es);
    double *got = (double *)malloc(N * sizeof(double)), *want = (double *)malloc(N * sizeof(double));
    int big = t == TL_F64 ? 600 : t == TL_F32 ? 70 : 3;
    for (int j = 0; j < 4; j++) h[j] = malloc(N * es);
    for (int i = 0; i < N; i++) {
        /* one scale for the element (its squares overflow or underflow the dtype), each operand below it */
        int sc = i % 4 == 0 ? big : i % 4 == 1 ? -big : 0;
        for (int j = 0; j < nops; j++) {
            tl_dtype tj = j == nops - 1 ? tlast : t;
            double v = tt_uniform(-4, 4) * ldexp(1.0, sc);
            if (i % 50 == 7) v = j == 0 ? INFINITY : j == 1 ? NAN : v;   /* inf wins over NaN */
            if (i % 50 == 9 && j == 1) v = NAN;
            if (i % 50 == 11) v = j == nops - 1 && !lit ? -3.0 : 0.0;    /* one nonzero: |x| exactly */
            if (i % 50 == 13) v = 0.0;                                  /* all zero (with lit: 2.5) */
            put(tj, h[j], i, v);
        }
    }
    void *d[4], *o = tile_malloc(N * es);
    for (int j = 0; j < 4; j++) {
        d[j] = tile_malloc(N * es);
        tile_memcpy_htod(d[j], h[j], N * es);
    }
    tile_memset(o, 0xA5, N * es);
    tile_status st = ld_norm(TILE_OPTS(.grid = {(N + 255) / 256}, .meta = {{"FN", k}, {"BLOCK", 256}, {"LIT", lit}}), TILE_PTR(d[0], t),
                             TILE_PTR(d[1], t), TILE_PTR(d[2], nops == 3 ? tlast : t), TILE_PTR(d[3], tlast), TILE_PTR(o, ot), N);
    char what[96];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\") %s%s%s", norm_names[k], tile_dtype_name(t), lit ? ", C number" : tlast != t ? ", " : "",
             !lit && tlast != t ? tile_dtype_name(tlast) : "");
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    tile_memcpy_dtoh(ho, o, N * tile_dtype_size(ot));
    for (int i = 0; i < N; i++) {
        double v[4];
        for (int j = 0; j < nops; j++) v[j] = get(j == nops - 1 ? tlast : t, h[j], i);
        if (lit) v[nops - 1] = 2.5;
        /* computed in the operands' common dtype: an f16's in f32, then rounded to f16 */
        want[i] = rnd(ot, ref_norm(nops, v, recip));
        got[i] = get(ot, ho, i);
    }
    double tol = ot == TL_F64 ? 1e-12 : ot == TL_F32 ? 2e-5 : 4e-3;
    tt_check_close(what, got, want, N, 0, tol);
    for (int j = 0; j < 4; j++) {
        tile_free(d[j]);
        free(h[j]);
    }
    tile_free(o);
    free(ho), free(got), free(want);
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
    case 5: err_line = __LINE__; r = tl_libdevice("popc", v); break;
    case 6: err_line = __LINE__; r = tl_cast(tl_libdevice("clz", tl_lt(v, 0)), TL_F32); break;
    case 7: err_line = __LINE__; r = tl_cast(tl_libdevice("mulhi", tl_load(tl_add(xi, offs))), TL_F32); break;
    case 8: err_line = __LINE__; r = tl_libdevice("hadd", v, v); break;
    case 9: err_line = __LINE__; r = tl_cast(tl_libdevice("sad", tl_cast(tl_load(tl_add(xi, offs)), TL_I64), 1, 2), TL_F32); break;
    case 10: err_line = __LINE__; r = tl_cast(tl_libdevice("mul24", tl_load(tl_add(xi, offs)), tl_cast(v, TL_U8)), TL_F32); break;
    case 11: err_line = __LINE__; r = tl_cast(tl_libdevice("byte_perm", tl_load(tl_add(xi, offs)), 0x3210), TL_F32); break;
    case 12: err_line = __LINE__; r = tl_cast(tl_libdevice("uhadd", tl_load(tl_add(xi, offs)), 1ll << 40), TL_F32); break;
    case 13: err_line = __LINE__; r = tl_cast(tl_libdevice("rhadd", tl_load(tl_add(xi, offs)), 0.5), TL_F32); break;
    case 14: err_line = __LINE__; r = tl_cast(tl_libdevice("usad", tl_lt(v, 0), 1, 2), TL_F32); break;
    case 15: err_line = __LINE__; r = tl_cast(tl_libdevice("umul24", tl_load(tl_add(xi, offs)), 3, 4), TL_F32); break;
    case 16: err_line = __LINE__; r = tl_libdevice("add_rz", tl_cast(v, TL_F16), v); break;
    case 17: err_line = __LINE__; r = tl_libdevice("mul_ru", v, tl_load(tl_add(xi, offs))); break;
    case 18: err_line = __LINE__; r = tl_cast(tl_libdevice("float2int_rn", tl_cast(v, TL_F64)), TL_F32); break;
    case 19: err_line = __LINE__; r = tl_libdevice("int2float_rd", 1ll << 40); break;
    case 20: err_line = __LINE__; r = tl_libdevice("uint2float_rn", -1); break;
    case 21: err_line = __LINE__; r = tl_libdevice("ll2double_rz", 0.5); break;
    case 22: err_line = __LINE__; r = tl_libdevice("fma_rn", v, v); break;
    case 23: err_line = __LINE__; r = tl_libdevice("sqrt_rz", v, v); break;
    case 24: err_line = __LINE__; r = tl_libdevice("int2double_rz", tl_load(tl_add(xi, offs))); break;
    case 25: err_line = __LINE__; r = tl_libdevice("rsqrt_rn", tl_cast(v, TL_F64)); break;
    case 26: err_line = __LINE__; r = tl_libdevice("fma_rd", v, v, tl_cast(tl_arange(0, 16), TL_F32)); break;
    case 27: err_line = __LINE__; r = tl_libdevice("jn", v, v); break;
    case 28: err_line = __LINE__; r = tl_libdevice("yn", 2); break;
    case 29: err_line = __LINE__; r = tl_libdevice("jn", 1, tl_load(tl_add(xi, offs))); break;
    case 30: err_line = __LINE__; r = tl_libdevice("yn", 1ll << 33, v); break;
    case 31: err_line = __LINE__; r = tl_libdevice("add_rx", v, v); break;
    case 32: err_line = __LINE__; r = tl_libdevice("double2float_rn", tl_cast(v, TL_BF16)); break;
    case 33: err_line = __LINE__; r = tl_libdevice("abs", tl_cast(v, TL_U32)); break;
    case 34: err_line = __LINE__; r = tl_libdevice("int_as_float", v); break;
    case 35: err_line = __LINE__; r = tl_cast(tl_libdevice("float_as_int", tl_cast(v, TL_F64)), TL_F32); break;
    case 36: err_line = __LINE__; r = tl_libdevice("hiloint2double", tl_load(tl_add(xi, offs))); break;
    case 37: err_line = __LINE__; r = tl_libdevice("hiloint2double", tl_load(tl_add(xi, offs)), 0.5); break;
    case 38: err_line = __LINE__; r = tl_cast(tl_libdevice("isnan", tl_load(tl_add(xi, offs))), TL_F32); break;
    case 39: err_line = __LINE__; r = tl_cast(tl_libdevice("finitef", tl_cast(v, TL_F64)), TL_F32); break;
    case 40: err_line = __LINE__; r = tl_cast(tl_libdevice("isfinited", v), TL_F32); break;
    case 41: err_line = __LINE__; r = tl_cast(tl_libdevice("llround", tl_load(tl_add(xi, offs))), TL_F32); break;
    case 42: err_line = __LINE__; r = tl_libdevice("ldexp", v, v); break;
    case 43: err_line = __LINE__; r = tl_libdevice("scalbn", v, 1ll << 40); break;
    case 44: err_line = __LINE__; r = tl_libdevice("ldexp", tl_load(tl_add(xi, offs)), 2); break;
    case 45: err_line = __LINE__; r = tl_libdevice("pow", v, tl_cast(tl_load(tl_add(xi, offs)), TL_I64)); break;
    case 46: err_line = __LINE__; r = tl_libdevice("saturatef", tl_cast(v, TL_F64)); break;
    case 47: err_line = __LINE__; r = tl_libdevice("fast_expf", tl_cast(v, TL_F16)); break;
    case 48: err_line = __LINE__; r = tl_libdevice("fast_powf", v); break;
    case 49: err_line = __LINE__; r = tl_libdevice("rcp64h", v); break;
    case 50: err_line = __LINE__; r = tl_libdevice("norm3d", v, v); break;
    case 51: err_line = __LINE__; r = tl_libdevice("norm4d", v, v, v, tl_load(tl_add(xi, offs))); break;
    case 52: err_line = __LINE__; r = tl_libdevice("norm3d", v, v, tl_cast(tl_arange(0, 16), TL_F32)); break;
    case 53: err_line = __LINE__; r = tl_cast(tl_libdevice("ilogb", v, v), TL_F32); break;
    case 54: err_line = __LINE__; r = tl_libdevice("abs", 18446744073709551615ull); break;
    case 55: err_line = __LINE__; r = tl_cast(tl_libdevice("double2hiint", v), TL_F32); break;
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
        {TILE_ERR_DTYPE, "tl_libdevice(\"popc\"): not defined for f32"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"clz\"): not defined for i1"},
        {TILE_ERR_VALUE, "tl_libdevice(\"mulhi\") takes 2 operands, not 1"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"hadd\"): not defined for f32"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"sad\"): not defined for i64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"mul24\"): not defined for u8"},
        {TILE_ERR_VALUE, "tl_libdevice(\"byte_perm\") takes 3 operands, not 2"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"uhadd\"): not defined for an integer literal (32-bit integers only"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"rhadd\"): not defined for a float literal"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"usad\"): not defined for i1"},
        {TILE_ERR_VALUE, "tl_libdevice(\"umul24\") takes 2 operands, not 3"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"add_rz\"): not defined for f16[32] (f32 or f64, as libdevice's"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"mul_ru\"): not defined for i32[32]"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"float2int_rn\"): not defined for f64[32] (it takes f32)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"int2float_rd\"): not defined for an integer literal (it takes i32 or a C integer that fits)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"uint2float_rn\"): not defined for an integer literal (it takes u32"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"ll2double_rz\"): not defined for a float literal (it takes i64"},
        {TILE_ERR_VALUE, "tl_libdevice(\"fma_rn\") takes 3 operands, not 2"},
        {TILE_ERR_VALUE, "tl_libdevice(\"sqrt_rz\") takes 1 operand, not 2"},
        {TILE_ERR_VALUE, "no function \"int2double_rz\" (tile has: "},
        {TILE_ERR_DTYPE, "tl_libdevice(\"rsqrt_rn\"): not defined for f64[32] (it takes f32)"},
        {TILE_ERR_SHAPE, "tl_libdevice(\"fma_rd\"): operand 3's shape [16] does not broadcast with [32]"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"jn\"): the order n is f32[32] (an i32 or a C integer that fits)"},
        {TILE_ERR_VALUE, "tl_libdevice(\"yn\") takes 2 operands, not 1"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"jn\"): not defined for i32[32] (f16, bf16, f32 or f64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"yn\"): the order n is an integer literal"},
        {TILE_ERR_VALUE, "no function \"add_rx\""},
        {TILE_ERR_DTYPE, "tl_libdevice(\"double2float_rn\"): not defined for bf16[32] (it takes f64)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"abs\"): not defined for u32[32] (i32, i64, f16, bf16, f32 or f64)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"int_as_float\"): not defined for f32[32] (it takes i32 or a C integer that fits)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"float_as_int\"): not defined for f64[32] (it takes f32)"},
        {TILE_ERR_VALUE, "tl_libdevice(\"hiloint2double\") takes 2 operands, not 1"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"hiloint2double\"): not defined for a float literal (it takes i32"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"isnan\"): not defined for i32[32] (f16, bf16, f32 or f64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"finitef\"): not defined for f64[32] (it takes f32)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"isfinited\"): not defined for f32[32] (it takes f64)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"llround\"): not defined for i32[32] (f16, bf16, f32 or f64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"ldexp\"): the exponent n is f32[32] (an i32 or a C integer that fits)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"scalbn\"): the exponent n is an integer literal"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"ldexp\"): not defined for i32[32] (f16, bf16, f32 or f64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"pow\"): not defined for i64[32] (f16, bf16, f32 or f64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"saturatef\"): not defined for f64[32] (it takes f32)"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"fast_expf\"): not defined for f16[32] (it takes f32)"},
        {TILE_ERR_VALUE, "tl_libdevice(\"fast_powf\") takes 2 operands, not 1"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"rcp64h\"): not defined for f32[32] (it takes f64)"},
        {TILE_ERR_VALUE, "tl_libdevice(\"norm3d\") takes 3 operands, not 2"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"norm4d\"): not defined for i32[32] (f16, bf16, f32 or f64"},
        {TILE_ERR_SHAPE, "tl_libdevice(\"norm3d\"): operand 3's shape [16] does not broadcast with [32]"},
        {TILE_ERR_VALUE, "tl_libdevice(\"ilogb\") takes 1 operand, not 2"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"abs\"): not defined for an integer literal (i32, i64"},
        {TILE_ERR_DTYPE, "tl_libdevice(\"double2hiint\"): not defined for f32[32] (it takes f64)"},
    };
    enum { NCASE = sizeof want / sizeof want[0] };
    float *x = (float *)tile_malloc(32 * 4), *out = (float *)tile_malloc(32 * 4);
    int32_t *xi = (int32_t *)tile_malloc(32 * 4);
    float h[32], o[32];
    for (int i = 0; i < 32; i++) h[i] = (float)tt_uniform(-1, 1);
    tile_memcpy_htod(x, h, sizeof h);
    tile_memset(xi, 0, 32 * 4);
    for (int c = 0; c < NCASE; c++) {
        char what[64];
        snprintf(what, sizeof what, "tl_libdevice error case %d", c);
        tile_status st = ld_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", c}}), x, xi, out);
        tt_check_user_error(what, st, want[c].st, "test_ops_libdevice.c", err_line, want[c].text);
        tile_clear_error();
    }
    tile_memset(out, 0xA5, sizeof o);
    TT_OK(ld_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", NCASE}}), x, xi, out));
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
    check_rounding();
    static const tl_dtype floats[] = {TL_F32, TL_F64, TL_F16};
    for (int jn = 0; jn < 2; jn++)
        for (int d = 0; d < 3; d++) check_bessel_n(jn, floats[d], 0);
    check_bessel_n(1, TL_F32, 1 + (int)tt_int(0, 12));
    check_bessel_n(0, TL_F64, 1 + (int)tt_int(0, 12));
    check_bessel_big_order();
    static const tl_dtype ints[] = {TL_I8, TL_I16, TL_I32, TL_I64, TL_U8, TL_U16, TL_U32, TL_U64};
    for (int k = 0; k < NIFN; k++)
        for (size_t d = 0; d < sizeof ints / sizeof ints[0]; d++) check_int(k, ints[d]);
    for (int k = 0; k < NI32FN; k++) {
        check_int32(k, TL_I32, TL_I32, TL_I32, 0);
        check_int32(k, TL_U32, TL_U32, TL_U32, 0);
        if (i32fns[k].n == 2) check_int32(k, TL_I32, TL_U32, TL_I32, 0);   /* promoted to u32: unsigned */
        else check_int32(k, TL_I32, TL_I32, TL_U32, 0);                    /* c's dtype does not count */
        check_int32(k, TL_I32, TL_I32, TL_I32, 1 + (int)tt_int(0, NLIT - 1));
        check_int32(k, TL_U32, TL_U32, TL_U32, 1 + (int)tt_int(0, NLIT - 1));
        for (int j = 0; j < 3; j++) check_int32_fold(k, (int)tt_int(0, NLIT - 1), (int)tt_int(0, NLIT - 1), (int)tt_int(0, NLIT - 1));
    }
    for (int k = 0; k < NMCASE; k++) {
        check_more(k, 0, 0);
        if (mcases[k].n == 2) check_more(k, 1, 0);   /* n a C integer */
        if (mcases[k].lit) check_more(k, 0, 1);      /* every operand a C number: folded */
    }
    for (int k = 0; k < NAFN; k++) check_fast(k);
    for (int k = 0; k < 4; k++) {
        check_norm(k, TL_F32, TL_F32, 0);
        check_norm(k, TL_F64, TL_F64, 0);
        check_norm(k, TL_F16, TL_F16, 0);
        check_norm(k, TL_F32, TL_F64, 0);   /* promoted: f64 */
        tl_dtype t = tt_int(0, 1) ? TL_F32 : TL_F64;
        check_norm(k, t, t, 1);
    }
    test_errors();
    tile_kernel_release(TILE_KERNEL_OF(ld_more));
    tile_kernel_release(TILE_KERNEL_OF(ld_fast));
    tile_kernel_release(TILE_KERNEL_OF(ld_norm));
    tile_kernel_release(TILE_KERNEL_OF(ld_int));
    tile_kernel_release(TILE_KERNEL_OF(ld_bessel_n));
    tile_kernel_release(TILE_KERNEL_OF(ld_rnd));
    tile_kernel_release(TILE_KERNEL_OF(ld_int32));
    tile_kernel_release(TILE_KERNEL_OF(ld_f32));
    tile_kernel_release(TILE_KERNEL_OF(ld_f64));
    tile_kernel_release(TILE_KERNEL_OF(ld_f16));
    tile_kernel_release(TILE_KERNEL_OF(ld_bad));
    return tt_finish("test_ops_libdevice");
}
