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
     - user errors at the user's line: an unknown name, an integer tile, the
       wrong number of operands, a NULL name, a float or i1 tile for an
       integer function, and for a 32-bit one an f32, i64, u8 or i1 tile, a
       C number past 32 bits and a C float.
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
    double rtol = t == TL_F64 ? 1e-12 : t == TL_F32 ? 2e-5 : 4e-3, atol = t == TL_F64 ? 1e-12 : t == TL_F32 ? 2e-5 : 4e-3;
    tt_check_close(what, got, want, N, atol, rtol);
    dev_free(x, y, o);
    free(hx);
    free(hy);
    free(ho);
    free(got);
    free(want);
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
    test_errors();
    tile_kernel_release(TILE_KERNEL_OF(ld_int));
    tile_kernel_release(TILE_KERNEL_OF(ld_int32));
    tile_kernel_release(TILE_KERNEL_OF(ld_f32));
    tile_kernel_release(TILE_KERNEL_OF(ld_f64));
    tile_kernel_release(TILE_KERNEL_OF(ld_f16));
    tile_kernel_release(TILE_KERNEL_OF(ld_bad));
    return tt_finish("test_ops_libdevice");
}
