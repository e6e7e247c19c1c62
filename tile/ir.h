/* tile/ir.h — >>ir: the op table, types, values, regions, the error channel.
   Part of tile.h's implementation; included once under TILE_IMPLEMENTATION.

   Why it is shaped this way: a kernel is one function of SSA values with
   static shapes. Ops live in one array and refer to values by index; a
   region is an ordered list of op indices plus its block arguments, so
   passes can rewrite operands in place and drop ops by marking them dead.
   One X-macro table (TILE__OPS) drives the enum, the names, the printer,
   the verifier's arity rules, the CSE/DCE flags, and the interpreter.

   Glossary
     value    an SSA value: dtype (+ pointee), rank, static shape; id 0 = none
     op       an operation: operands (value ids, -0 = absent), results
              (contiguous value ids), integer attributes, a float attribute,
              a string attribute, and up to two regions
     region   ops in order, block arguments, the op that owns it
     weak     a C literal's constant, typed when it meets a tile (builder only)
*/
#include <assert.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"   /* the environment, read once */

/* Internal invariant violations only (bugs in tile, never user input). */
#ifndef TILE_ASSERT
#define TILE_ASSERT(c) ((c) ? (void)0 : tile__die(__FILE__, __LINE__, #c))
#endif
static void tile__die(const char *file, int line, const char *what) {
    fprintf(stderr, "tile: internal error at %s:%d: %s\n", file, line, what);
    abort();
}

/* Host allocation, overridable in the stb way: define all three before the
   implementation is included (e.g. to count or to fail allocations). Every
   allocation of the IR, the builder, the passes and the interpreter goes
   through them, and each of their callers survives a NULL. */
#ifndef TILE_MALLOC
#define TILE_MALLOC(size) malloc(size)
#define TILE_REALLOC(ptr, size) realloc(ptr, size)
#define TILE_FREE(ptr) free(ptr)
#endif
static void *tile__calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    void *p = TILE_MALLOC(bytes > 0 ? bytes : 1);
    if (p) memset(p, 0, bytes);
    return p;
}

/* ---- the op table -----------------------------------------------------------
   X(NAME, "name", operands (-1: variadic), results (-1: variadic), flags)
   Semantics of each op are one line beside it. Shapes: EW ops take operands
   already broadcast to the result shape (the builder inserts BROADCAST). */
enum {
    TILE__F_PURE = 1,      /* no side effect: CSE-able, DCE-able            */
    TILE__F_EW = 2,        /* elementwise over equal shapes                 */
    TILE__F_REGION = 4,    /* owns regions                                  */
    TILE__F_TERM = 8,      /* terminates a region                           */
    TILE__F_CMP = 16,      /* result is i1 from a comparison                */
};
#define TILE__PE (TILE__F_PURE | TILE__F_EW)
/* X(NAME, "name", operands, results, flags, libm, ref, opt, lay, attrs): one
   row per op; a new op is its row, its builder function and its tl_ macro,
   and the places its rule differs (README → Development → adding an op).
     operands, results  counts; -1: any number (the verifier checks the rest)
     flags   TILE__F_*: PURE ops are CSE'd and DCE'd, EW ops take operands
             already broadcast to the result's shape (the builder inserts
             BROADCAST), and the interpreter evaluates them by tile__eval
     libm    the C math library's name of an elementwise float function, which
             both emitters call (CUDA C: expf/exp; LLVM: libdevice's
             __nv_expf/__nv_exp); 0 for the others
     ref     the C function of double the interpreter and the constant folder
             evaluate it with (rounded to f32 for f32, f16 and bf16, which are
             computed in f32 as Triton does); 0 where tile__eval has a rule
     opt     the operands that may be absent (value id 0): bit k for operand k
     lay     the layout the lowering gives the operands before the op's rule
             runs (tile__lay_rule below)
     attrs   the names of the integer attributes i[0], i[1], ... separated by
             commas (an empty name: the slot is unused; "name[]": every slot
             from there on, printed as name[k]); the IR dump prints a slot that
             the op's own format does not by its name, so a new op needs no
             printer case. 0: none */
/* libdevice's functions that tl_libdevice(name, x...) calls by name
   (Triton's extra.cuda.libdevice), beyond the ops above that already are
   one (exp, log, erf, ...): rows of the op table like those, whose libm
   column is the name. The GPU calls libdevice's __nv_<name>f (f32; f16 and
   bf16 compute in f32) or __nv_<name> (f64), through CUDA C's <name>f /
   <name> with NVRTC; the interpreter and the folder evaluate the C math
   library's function in double (rounded to f32 for the smaller floats), or
   tile's own for the ones C lacks (tile__ld_*, below). The ones of two to
   four operands have no ref column: tile__ew_eval has their rule (jn and
   yn take an i32 order first, the float second). */
static double tile__ld_exp10(double x) { return pow(10.0, x); }
static double tile__ld_rcbrt(double x) { return 1.0 / cbrt(x); }
/* cos(pi x), sin(pi x), exact where they are 0, 1 or -1: x reduced modulo 2 exactly first */
static double tile__ld_cospi(double x) {
    if (isinf(x)) return NAN;
    double r = fmod(fabs(x), 2.0);   /* exact */
    if (r > 1.0) r = 2.0 - r;         /* cos(pi r) = cos(pi (2 - r)) */
    if (r == 0.5) return 0.0;
    return r < 0.5 ? sin(1.5707963267948966192 - 3.1415926535897932385 * r) : -sin(3.1415926535897932385 * r - 1.5707963267948966192);
}
static double tile__ld_sinpi(double x) {
    if (isinf(x)) return NAN;
    double r = fmod(fabs(x), 2.0), s = x < 0 ? -1.0 : 1.0;
    if (r > 1.0) r -= 1.0, s = -s;    /* sin(pi (r + 1)) = -sin(pi r) */
    if (r == 0.0 || r == 1.0) return s * 0.0;
    if (r > 0.5) r = 1.0 - r;          /* sin(pi r) = sin(pi (1 - r)) */
    return s * sin(3.1415926535897932385 * r);
}
/* exp(x^2) erfc(x), without the overflow of the product for large x */
static double tile__ld_erfcx(double x) {
    if (x < 26.0) return exp(x * x) * erfc(x);
    if (isinf(x)) return 0.0;
    /* the asymptotic series 1/(x sqrt(pi)) sum (-1)^k (2k-1)!! / (2x^2)^k, to its smallest term */
    double sum = 1.0, term = 1.0, q = 1.0 / (2.0 * x * x);
    for (int k = 1; k < 40; k++) {
        double next = -term * (2.0 * k - 1.0) * q;
        if (fabs(next) >= fabs(term) || fabs(next) < 1e-17) break;
        term = next;
        sum += term;
    }
    return sum / (x * 1.7724538509055160273);   /* sqrt(pi) */
}
/* the inverse of erfc on (0, 2): Newton's method on log(erfc(y)) = log(z),
   as log(erfcx(y)) - y^2, which stays finite where erfc underflows */
static double tile__ld_erfcinv(double z) {
    if (isnan(z) || z < 0.0 || z > 2.0) return NAN;
    if (z == 0.0) return INFINITY;
    if (z == 2.0) return -INFINITY;
    if (z > 1.0) return -tile__ld_erfcinv(2.0 - z);
    /* a start: erfc(y) ~ exp(-y^2) / (y sqrt(pi)) for large y; near z = 1, y ~ (1 - z) sqrt(pi) / 2 */
    double t = -log(z), y = z > 0.5 ? (1.0 - z) * 0.88622692545275801365 : sqrt(t);
    if (z <= 0.5)
        for (int k = 0; k < 3; k++) y = sqrt(fmax(t - log(y * 1.7724538509055160273), 0.01));
    for (int k = 0; k < 60; k++) {
        double cx = tile__ld_erfcx(y), f = log(cx) - y * y + log(1.0 / z);
        double df = -1.1283791670955125739 / cx;   /* d/dy log(erfc(y)) = -2/sqrt(pi) / erfcx(y) */
        double step = f / df;
        y -= step;
        if (fabs(step) <= 1e-16 * fabs(y)) break;
    }
    return y;
}
static double tile__ld_erfinv(double x) {
    if (isnan(x) || x < -1.0 || x > 1.0) return NAN;
    if (x == 0.0) return x;
    if (fabs(x) > 0.5) return x < 0 ? -tile__ld_erfcinv(1.0 + x) : tile__ld_erfcinv(1.0 - x);
    /* Newton on erf near 0, from the series' first terms */
    double y = x * 0.88622692545275801365 * (1.0 + 0.78539816339744830962 * x * x / 3.0);
    for (int k = 0; k < 60; k++) {
        double step = (erf(y) - x) / (1.1283791670955125739 * exp(-y * y));
        y -= step;
        if (fabs(step) <= 1e-16 * fabs(y)) break;
    }
    return y;
}
/* The Bessel functions: j0, j1, y0, y1, jn and yn are POSIX's (libm has
   them; strict ISO C's <math.h> does not declare them, so they are declared
   here again, with POSIX's prototypes); I0 and I1 are tile's own. */
double j0(double x);
double j1(double x);
double y0(double x);
double y1(double x);
double jn(int n, double x);
double yn(int n, double x);
/* I0 and I1, the modified Bessel functions of the first kind: below 30 the
   power series sum (x/2)^(2k+n) / (k! (k+n)!), every term positive; above,
   the asymptotic series e^x / sqrt(2 pi x) sum_k c_k, c_k = -c_(k-1)
   (4n^2 - (2k-1)^2) / (8kx), summed to its smallest term, with e^x taken in
   two halves so that only a result past the range overflows */
static double tile__ld_bessel_i(int n, double x) {
    double ax = fabs(x), r;
    if (x != x) return x;
    if (isinf(x)) return n && x < 0 ? -INFINITY : INFINITY;
    if (ax <= 30.0) {
        double q = ax * ax / 4.0, term = n ? ax / 2.0 : 1.0, sum = term;
        for (int k = 1; k < 200 && term > sum * 1e-18; k++) {
            term *= q / ((double)k * (double)(k + n));
            sum += term;
        }
        r = sum;
    } else {
        double mu = 4.0 * n * n, term = 1.0, sum = 1.0;
        for (int k = 1; k < 80; k++) {
            double next = -term * (mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (8.0 * k * ax);
            if (fabs(next) >= fabs(term) || fabs(next) < 1e-18 * fabs(sum)) break;
            term = next;
            sum += term;
        }
        double h = exp(ax / 2.0);
        r = h * (h * sum / sqrt(6.283185307179586477 * ax));
    }
    return n && x < 0 ? -r : r;
}
/* jn and yn of larger orders are not computed in the interpreter (tile__ew_eval) */
#define TILE__BESSEL_MAX_ORDER 16384
static double tile__ld_i0(double x) { return tile__ld_bessel_i(0, x); }
static double tile__ld_i1(double x) { return tile__ld_bessel_i(1, x); }
/* the standard normal distribution: P(X <= x) = erfc(-x / sqrt 2) / 2, and its inverse -sqrt 2
   erfcinv(2p) (2p exact); -x / sqrt 2 is rounded once, so far in the lower tail (x near -38) the
   result's relative error grows to about 2 x^2 2^-53 (2e-13) */
static double tile__ld_normcdf(double x) { return 0.5 * erfc(x * -0.70710678118654752440); }
static double tile__ld_normcdfinv(double p) { return -1.4142135623730950488 * tile__ld_erfcinv(2.0 * p); }
static double tile__ld_rcp(double x) { return 1.0 / x; }
/* sqrt(x0^2 + ... + x(n-1)^2) without overflow or underflow on the way: each divided by the
   largest magnitude m first (an infinity wins over a NaN, as C's hypot and libdevice's norm) */
static double tile__ld_norm(int n, const double *x) {
    double m = 0, s = 0;
    for (int k = 0; k < n; k++)
        if (isinf(x[k])) return INFINITY;
    for (int k = 0; k < n; k++) {
        if (x[k] != x[k]) return x[k];
        if (fabs(x[k]) > m) m = fabs(x[k]);
    }
    if (m == 0) return 0.0;
    for (int k = 0; k < n; k++) s += (x[k] / m) * (x[k] / m);
    return m * sqrt(s);
}
/* libdevice's __nv_powif / __nv_powi: x^|n| by squaring (x, x^2, x^4, ... each rounded, the ones
   of n's bits multiplied in order, each product rounded), then 1 / that for n < 0; f32 products of
   two f32 values are exact in double, so each is rounded once, and so is the f32 quotient (53 bits
   hold 2 x 24 + 2: the double rounding is innocuous) */
static double tile__ld_powi(double x, int64_t n, int f32) {
    uint32_t e = (uint32_t)(n < 0 ? 0 - (uint64_t)n : (uint64_t)n);   /* |INT32_MIN|: 2^31 */
    double r = 1.0;
    for (;;) {
        if (e & 1) r = f32 ? (double)(float)(r * x) : r * x;
        e >>= 1;
        if (!e) break;
        x = f32 ? (double)(float)(x * x) : x * x;
    }
    if (n < 0) r = f32 ? (double)(float)(1.0 / r) : 1.0 / r;
    return r;
}
/* X(name, NAME, operands, C reference (one operand) or 0) */
#define TILE__LIBDEVICE_FNS(M, X)                                                                       \
    M(X, acos, ACOS, 1, acos) M(X, acosh, ACOSH, 1, acosh) M(X, asin, ASIN, 1, asin) M(X, asinh, ASINH, 1, asinh)   \
    M(X, atan, ATAN, 1, atan) M(X, atanh, ATANH, 1, atanh) M(X, cbrt, CBRT, 1, cbrt) M(X, cosh, COSH, 1, cosh)      \
    M(X, sinh, SINH, 1, sinh) M(X, tan, TAN, 1, tan) M(X, erfc, ERFC, 1, erfc) M(X, expm1, EXPM1, 1, expm1)         \
    M(X, log1p, LOG1P, 1, log1p) M(X, log10, LOG10, 1, log10) M(X, exp10, EXP10, 1, tile__ld_exp10)              \
    M(X, lgamma, LGAMMA, 1, lgamma) M(X, tgamma, TGAMMA, 1, tgamma) M(X, trunc, TRUNC, 1, trunc)                 \
    M(X, round, ROUND, 1, round) M(X, rint, RINT, 1, rint) M(X, logb, LOGB, 1, logb)                             \
    M(X, cospi, COSPI, 1, tile__ld_cospi) M(X, sinpi, SINPI, 1, tile__ld_sinpi) M(X, erfinv, ERFINV, 1, tile__ld_erfinv) \
    M(X, erfcinv, ERFCINV, 1, tile__ld_erfcinv) M(X, erfcx, ERFCX, 1, tile__ld_erfcx) M(X, rcbrt, RCBRT, 1, tile__ld_rcbrt) \
    M(X, atan2, ATAN2, 2, 0) M(X, pow, POW, 2, 0) M(X, hypot, HYPOT, 2, 0) M(X, copysign, COPYSIGN, 2, 0)          \
    M(X, fdim, FDIM, 2, 0) M(X, nextafter, NEXTAFTER, 2, 0) M(X, remainder, REMAINDER, 2, 0)          \
    M(X, j0, J0, 1, j0) M(X, j1, J1, 1, j1) M(X, y0, Y0, 1, y0) M(X, y1, Y1, 1, y1)                          \
    M(X, cyl_bessel_i0, CYL_BESSEL_I0, 1, tile__ld_i0) M(X, cyl_bessel_i1, CYL_BESSEL_I1, 1, tile__ld_i1)     \
    M(X, jn, JN, 2, 0) M(X, yn, YN, 2, 0)                                                                    \
    M(X, normcdf, NORMCDF, 1, tile__ld_normcdf) M(X, normcdfinv, NORMCDFINV, 1, tile__ld_normcdfinv)         \
    M(X, rhypot, RHYPOT, 2, 0) M(X, norm3d, NORM3D, 3, 0) M(X, rnorm3d, RNORM3D, 3, 0)                       \
    M(X, norm4d, NORM4D, 4, 0) M(X, rnorm4d, RNORM4D, 4, 0)
#define TILE__LIBDEVICE_ROW(X, name, NAME, n, ref) X(NAME, #name, n, 1, TILE__PE, #name, ref, 0, RES, 0)
#define TILE__LIBDEVICE_OPS(X) TILE__LIBDEVICE_FNS(TILE__LIBDEVICE_ROW, X)
/* libdevice's functions whose operands or result are not all of one float
   dtype, or which libdevice has for one dtype only (tl_libdevice("ldexp",
   x, n), "ilogb", "fast_expf", ...), named as Triton names them; each
   emitter has a rule for each. The fast_* ones and rcp64h are the GPU's
   approximations (ex2.approx, sin.approx, rcp.approx.ftz.f64, ...); their
   ref column is the exact function, which the interpreter and the folder
   compute, rounded to the dtype. */
#define TILE__LIBDEVICE_MORE(X)                                                                                              \
    X(POWI,       "powi",         2, 1, TILE__PE, 0, 0,              0, RES, 0) /* x^n, n an i32: libdevice's squarings, 1 / x^|n| for n < 0 */ \
    X(LDEXP,      "ldexp",        2, 1, TILE__PE, 0, 0,              0, RES, 0) /* x 2^n, n an i32, rounded once */ \
    X(SCALBN,     "scalbn",       2, 1, TILE__PE, 0, 0,              0, RES, 0) /* the same (libdevice's __nv_scalbnf) */ \
    X(ILOGB,      "ilogb",        1, 1, TILE__PE, 0, 0,              0, RES, 0) /* i32: x's exponent, floor(log2 |x|); INT_MIN for 0 and NaN, INT_MAX for inf */ \
    X(LLROUND,    "llround",      1, 1, TILE__PE, 0, 0,              0, RES, 0) /* i64: x rounded half away from zero, saturated; NaN: INT64_MIN */ \
    X(SATURATE,   "saturatef",    1, 1, TILE__PE, 0, 0,              0, RES, 0) /* f32: x clamped to [+0, 1], NaN +0 */ \
    X(FAST_EXP,   "fast_expf",    1, 1, TILE__PE, 0, exp,            0, RES, 0) /* f32: e^x (GPU: ex2.approx of x log2 e) */ \
    X(FAST_LOG,   "fast_logf",    1, 1, TILE__PE, 0, log,            0, RES, 0) /* f32: ln x (GPU: lg2.approx times ln 2) */ \
    X(FAST_LOG2,  "fast_log2f",   1, 1, TILE__PE, 0, log2,           0, RES, 0) /* f32: log2 x (GPU: lg2.approx) */ \
    X(FAST_LOG10, "fast_log10f",  1, 1, TILE__PE, 0, log10,          0, RES, 0) /* f32: log10 x (GPU: lg2.approx times log10 2) */ \
    X(FAST_EXP10, "fast_exp10f",  1, 1, TILE__PE, 0, tile__ld_exp10, 0, RES, 0) /* f32: 10^x (GPU: ex2.approx of x log2 10) */ \
    X(FAST_SIN,   "fast_sinf",    1, 1, TILE__PE, 0, sin,            0, RES, 0) /* f32: sin x (GPU: sin.approx) */ \
    X(FAST_COS,   "fast_cosf",    1, 1, TILE__PE, 0, cos,            0, RES, 0) /* f32: cos x (GPU: cos.approx) */ \
    X(FAST_TAN,   "fast_tanf",    1, 1, TILE__PE, 0, tan,            0, RES, 0) /* f32: tan x (GPU: sin.approx / cos.approx, div.approx) */ \
    X(FAST_POW,   "fast_powf",    2, 1, TILE__PE, 0, 0,              0, RES, 0) /* f32: x^y (GPU: ex2.approx of y lg2.approx x) */ \
    X(FAST_DIV,   "fast_dividef", 2, 1, TILE__PE, 0, 0,              0, RES, 0) /* f32: x / y (GPU: div.approx.f32) */ \
    X(RCP64H,     "rcp64h",       1, 1, TILE__PE, 0, tile__ld_rcp,   0, RES, 0) /* f64: 1 / x (GPU: rcp.approx.ftz.f64) */
/* libdevice's rounding-mode functions (tl_libdevice("add_rz", a, b),
   "float2int_rd", ...): a row per operation and rounding, in the order rn,
   rz, rd, ru (to nearest even, toward zero, down, up: tile__rnd_mode reads
   it from the code), f32 or f64 operands and no flush of subnormals, as
   PTX's add.rz.f32 and the others without .ftz. CVT_* converts its
   operand's dtype to the result's: float to float, float to integer
   (rounded to an integer, saturated, as cvt.rzi and its siblings; a NaN
   0 from f32 to 32 bits, else the sign bit alone, as the GPU gives it),
   integer to float. */
#define TILE__ROUNDED_ROWS(X, NAME, name, n)                                                                     \
    X(NAME##_RN, #name "_rn", n, 1, TILE__PE, 0, 0, 0, RES, 0)                                                   \
    X(NAME##_RZ, #name "_rz", n, 1, TILE__PE, 0, 0, 0, RES, 0)                                                   \
    X(NAME##_RD, #name "_rd", n, 1, TILE__PE, 0, 0, 0, RES, 0)                                                   \
    X(NAME##_RU, #name "_ru", n, 1, TILE__PE, 0, 0, 0, RES, 0)
#define TILE__ROUNDED_OPS(X)                                                                                      \
    TILE__ROUNDED_ROWS(X, ADD, add, 2)  /* a + b */                                                              \
    TILE__ROUNDED_ROWS(X, SUB, sub, 2)  /* a - b */                                                              \
    TILE__ROUNDED_ROWS(X, MUL, mul, 2)  /* a * b */                                                              \
    TILE__ROUNDED_ROWS(X, DIV, div, 2)  /* a / b */                                                              \
    TILE__ROUNDED_ROWS(X, FMA, fma, 3)  /* a * b + c, one rounding */                                            \
    TILE__ROUNDED_ROWS(X, RCP, rcp, 1)  /* 1 / a */                                                              \
    TILE__ROUNDED_ROWS(X, SQRT, sqrt, 1) /* the square root */                                                   \
    TILE__ROUNDED_ROWS(X, CVT, cvt, 1)  /* a in the result's dtype */                                            \
    X(RSQRT_RN, "rsqrt_rn", 1, 1, TILE__PE, 0, 0, 0, RES, 0) /* f32: 1 / sqrt(a), rounded once to nearest even */
#define TILE__OPS(X) \
    X(CONST,        "const",        0,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "value")                /* splat of value (ints) or f (floats) */ \
    X(PROGRAM_ID,   "program_id",   0,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "axis")                 /* program index on the axis */ \
    X(NUM_PROGRAMS, "num_programs", 0,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "axis")                 /* grid size on the axis */ \
    X(ARANGE,       "arange",       0,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "start,end")            /* start, start+1, ... < end */ \
    X(BROADCAST,    "broadcast",    1,  1,  TILE__F_PURE,           0,       0,     0, OWN,  0)                      /* size-1 dims (or rank 0) to the result shape */ \
    X(EXPAND_DIMS,  "expand_dims",  1,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "axis")                 /* insert a dim of 1 at axis */ \
    X(RESHAPE,      "reshape",      1,  1,  TILE__F_PURE,           0,       0,     0, OWN,  0)                      /* same elements, row-major, new shape */ \
    X(PERMUTE,      "permute",      1,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "order[]")              /* result dim d = operand dim order<d> */ \
    X(CAT,          "cat",          2,  1,  TILE__F_PURE,           0,       0,     0, OWN,  0)                      /* a then b along axis 0 */ \
    X(JOIN,         "join",         2,  1,  TILE__F_PURE,           0,       0,     0, OWN,  0)                      /* stack a, b on a new last dim of 2 */ \
    X(SPLIT,        "split",        1,  2,  TILE__F_PURE,           0,       0,     0, OWN,  0)                      /* the halves of the last dim (of 2) */ \
    X(HISTOGRAM,    "histogram",    2,  1,  TILE__F_PURE,           0,       0,     2, OWN,  0)                      /* x, mask (optional): i32 counts of x's values in [0, bins), lanes where mask */ \
    X(GATHER,       "gather",       2,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "axis")                 /* src, index: the result has index's shape; at c, src at c with c[axis] = index[c] */ \
    X(HINT,         "hint",         1,  1,  TILE__F_PURE,           0,       0,     0, RES,  "multiple_of,max_contiguous,max_constancy") /* x itself; facts of its last dim the user vouches for (0: none) */ \
    X(ADD,          "add",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* a + b (ints wrap) */ \
    X(SUB,          "sub",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* a - b */ \
    X(MUL,          "mul",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* a * b */ \
    X(DIV,          "div",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* floats: a / b; ints: truncating (x/0 = -1 as the GPU) */ \
    X(MOD,          "mod",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* floats: fmod; ints: C remainder */ \
    X(MIN,          "min",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* min; floats: a NaN loses */ \
    X(MAX,          "max",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* max */ \
    X(MIN_NAN,      "min_nan",      2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* min; floats: a NaN wins (propagate_nan) */ \
    X(MAX_NAN,      "max_nan",      2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* max; floats: a NaN wins */ \
    X(AND,          "and",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* bitwise and */ \
    X(OR,           "or",           2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* bitwise or */ \
    X(XOR,          "xor",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* bitwise xor */ \
    X(SHL,          "shl",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* a << b (b >= width gives 0) */ \
    X(SHR,          "shr",          2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* a >> b, arithmetic when signed */ \
    X(UMULHI,       "umulhi",       2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* the high half of the unsigned 2N-bit product */ \
    X(MULHI,        "mulhi",        2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* the high half of the 2N-bit product, signed when the dtype is */ \
    X(POPC,         "popc",         1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* ints: the number of 1 bits */ \
    X(CLZ,          "clz",          1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* ints: the number of 0 bits above the highest 1 (the width for 0) */ \
    X(FFS,          "ffs",          1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* ints: 1 + the position of the lowest 1 bit, 0 for 0 */ \
    X(BREV,         "brev",         1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* ints: the bits in reverse order */ \
    X(HADD,         "hadd",         2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* 32-bit ints: (a + b) >> 1 without overflow, signed when the dtype is */ \
    X(UHADD,        "uhadd",        2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* the same, unsigned */ \
    X(RHADD,        "rhadd",        2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* 32-bit ints: (a + b + 1) >> 1 without overflow, signed when the dtype is */ \
    X(URHADD,       "urhadd",       2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* the same, unsigned */ \
    X(MUL24,        "mul24",        2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* 32-bit ints: the low half of the product of the low 24 bits, signed 24-bit numbers when the dtype is */ \
    X(UMUL24,       "umul24",       2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* the same, unsigned */ \
    X(SAD,          "sad",          3,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* 32-bit ints: |a - b| + c (wrapping), a < b signed when the dtype is */ \
    X(USAD,         "usad",         3,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* the same, unsigned */ \
    X(BYTE_PERM,    "byte_perm",    3,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* 32-bit ints: byte k of b:a picked by bits 4k..4k+2 of c (prmt.b32) */ \
    X(EQ,           "eq",           2,  1,  TILE__PE | TILE__F_CMP, 0,       0,     0, RES,  0)                      /* a == b -> i1 */ \
    X(NE,           "ne",           2,  1,  TILE__PE | TILE__F_CMP, 0,       0,     0, RES,  0)                      /* a != b (true for NaN) */ \
    X(LT,           "lt",           2,  1,  TILE__PE | TILE__F_CMP, 0,       0,     0, RES,  0)                      /* a < b */ \
    X(LE,           "le",           2,  1,  TILE__PE | TILE__F_CMP, 0,       0,     0, RES,  0)                      /* a <= b */ \
    X(GT,           "gt",           2,  1,  TILE__PE | TILE__F_CMP, 0,       0,     0, RES,  0)                      /* a > b */ \
    X(GE,           "ge",           2,  1,  TILE__PE | TILE__F_CMP, 0,       0,     0, RES,  0)                      /* a >= b */ \
    X(PTR_ADD,      "ptr_add",      2,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* pointer a advanced by b elements */ \
    X(NEG,          "neg",          1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* -x */ \
    X(NOT,          "not",          1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* ~x (i1: logical not) */ \
    X(ABS,          "abs",          1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* |x| */ \
    X(EXP,          "exp",          1,  1,  TILE__PE,               "exp",   exp,   0, RES,  0)                      /* e^x */ \
    X(EXP2,         "exp2",         1,  1,  TILE__PE,               "exp2",  exp2,  0, RES,  0)                      /* 2^x */ \
    X(LOG,          "log",          1,  1,  TILE__PE,               "log",   log,   0, RES,  0)                      /* ln x */ \
    X(LOG2,         "log2",         1,  1,  TILE__PE,               "log2",  log2,  0, RES,  0)                      /* log2 x */ \
    X(SQRT,         "sqrt",         1,  1,  TILE__PE,               "sqrt",  sqrt,  0, RES,  0)                      /* square root, correctly rounded */ \
    X(RSQRT,        "rsqrt",        1,  1,  TILE__PE,               "rsqrt", 0,     0, RES,  0)                      /* 1 / sqrt(x) */ \
    X(SIN,          "sin",          1,  1,  TILE__PE,               "sin",   sin,   0, RES,  0)                      /* sin x */ \
    X(COS,          "cos",          1,  1,  TILE__PE,               "cos",   cos,   0, RES,  0)                      /* cos x */ \
    X(TANH,         "tanh",         1,  1,  TILE__PE,               "tanh",  tanh,  0, RES,  0)                      /* tanh x */ \
    X(SIGMOID,      "sigmoid",      1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* 1 / (1 + e^-x) */ \
    X(ERF,          "erf",          1,  1,  TILE__PE,               "erf",   erf,   0, RES,  0)                      /* the error function */ \
    X(FLOOR,        "floor",        1,  1,  TILE__PE,               "floor", floor, 0, RES,  0)                      /* round toward -inf */ \
    X(CEIL,         "ceil",         1,  1,  TILE__PE,               "ceil",  ceil,  0, RES,  0)                      /* round toward +inf */ \
    TILE__LIBDEVICE_OPS(X)                                                                                                          \
    TILE__LIBDEVICE_MORE(X)                                                                                                         \
    TILE__ROUNDED_OPS(X)                                                                                                            \
    X(CAST,         "cast",         1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* value conversion to the result dtype */ \
    X(BITCAST,      "bitcast",      1,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* same bits, another dtype of equal width */ \
    X(WHERE,        "where",        3,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* c ? a : b */ \
    X(FMA,          "fma",          3,  1,  TILE__PE,               0,       0,     0, RES,  0)                      /* a * b + c, one rounding */ \
    X(LOAD,         "load",         3,  1,  0,                      0,       0,     6, RES,  "cache,evict,volatile") /* *ptr where mask (operand 1, optional) else other (2, optional) */ \
    X(STORE,        "store",        3,  0,  0,                      0,       0,     4, PTR,  "cache,evict")          /* *ptr = value where mask (optional) */ \
    X(REDUCE,       "reduce",       1,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "kind,axis,keep_dims,propagate_nan") /* the axis dropped unless keep_dims; max, min of floats: a NaN wins when propagate_nan */ \
    X(SCAN,         "scan",         1,  1,  TILE__F_PURE,           0,       0,     0, OWN,  "kind,axis,reverse")    /* inclusive along axis */ \
    X(DOT,          "dot",          3,  1,  TILE__F_PURE,           0,       0,     4, ACC,  "precision,max_num_imprecise_acc") /* a[M,K] @ b[K,N] (+ acc, optional) */ \
    X(ATOMIC,       "atomic",       3,  1,  0,                      0,       0,     4, PTR,  "op,sem,scope")         /* old = *ptr; *ptr = op(old, val) where mask */ \
    X(ATOMIC_CAS,   "atomic_cas",   3,  1,  0,                      0,       0,     0, PTR,  ",sem,scope")           /* old = *ptr; if old == cmp: *ptr = val */ \
    X(MAKE_DESC,    "make_desc",    -1, 1,  TILE__F_PURE,           0,       0,     0, OWN,  "block[]")              /* base, shape x r, strides x r (elements) -> a descriptor of blocks block<0..r> */ \
    X(DESC_LOAD,    "desc_load",    -1, 1,  0,                      0,       0,     0, OWN,  0)                      /* the block of desc at offsets (operands 1..r); zeros outside the tensor */ \
    X(DESC_STORE,   "desc_store",   -1, 0,  0,                      0,       0,     0, OWN,  "kind")                 /* desc, value, offsets x r: the block's elements inside the tensor; kind -1: a store, else the atomic kind */ \
    X(INLINE_ASM,   "inline_asm",   -1, -1, TILE__F_EW,             0,       0,     0, RES,  "pure,pack")            /* the PTX text s per element (pack elements a run, as many a register as 32 bits hold): $0.. the results' registers, then the operands'; never evaluated on the host */ \
    X(MAP,          "map_elementwise", -1, -1, TILE__F_REGION,      0,       0,     0, BODY, "pack")                 /* the region once per element (per pack elements along the last dim) of the operands: args x[k*pack+j], yields out[r*pack+j] */ \
    X(PRINT,        "print",        -1, 0,  0,                      0,       0,     0, BODY, 0)                      /* print s (the prefix) and each operand's elements */ \
    X(ASSERT,       "assert",       1,  0,  0,                      0,       0,     0, BODY, 0)                      /* fail the launch with s where a lane is false */ \
    X(BARRIER,      "barrier",      0,  0,  0,                      0,       0,     0, OWN,  0)                      /* all threads of the program meet */ \
    X(PROFILE,      "profile",      0,  0,  0,                      0,       0,     0, BODY, "exit")                 /* an in-kernel scope s entered (exit 0) or left (1): a record per warp or warpgroup while a profile runs */ \
    X(FOR,          "for",          -1, -1, TILE__F_REGION,         0,       0,     0, BODY, "options,num_stages")   /* lo, hi, step, inits...; body args (iv, carried...) */ \
    X(IF,           "if",           -1, -1, TILE__F_REGION,         0,       0,     0, BODY, 0)                      /* cond; then, else regions yield the results */ \
    X(WHILE,        "while",        -1, -1, TILE__F_REGION,         0,       0,     0, BODY, 0)                      /* inits...; before region ends in CONDITION, after in YIELD */ \
    X(YIELD,        "yield",        -1, 0,  TILE__F_TERM,           0,       0,     0, BODY, 0)                      /* the values a region hands back */ \
    X(CONDITION,    "condition",    -1, 0,  TILE__F_TERM,           0,       0,     0, BODY, 0)                      /* cond, values...: continue with values while cond */

typedef enum tile__opcode {
#define TILE__OP_ENUM(N, s, no, nr, f, libm, ref, opt, lay, attrs) TILE__OP_##N,
    TILE__OPS(TILE__OP_ENUM)
#undef TILE__OP_ENUM
    TILE__OP_COUNT_
} tile__opcode;
/* a rounding-mode row's rounding (its place in its group of four), -1 for
   another op; and its operation, the group's _RN row */
enum { TILE__RN, TILE__RZ, TILE__RD, TILE__RU };
static int tile__rnd_mode(tile__opcode code) {
    if (code == TILE__OP_RSQRT_RN) return TILE__RN;
    return code >= TILE__OP_ADD_RN && code <= TILE__OP_CVT_RU ? (int)(code - TILE__OP_ADD_RN) % 4 : -1;
}
static tile__opcode tile__rnd_op(tile__opcode code) {
    return code == TILE__OP_RSQRT_RN ? code : (tile__opcode)(TILE__OP_ADD_RN + (code - TILE__OP_ADD_RN) / 4 * 4);
}
/* the lay column: where the lowering puts an op's operands before its rule */
typedef enum tile__lay_rule {
    TILE__LAY_OWN,    /* each operand as it is when it is blocked, else in its type's default blocked layout */
    TILE__LAY_RES,    /* every operand in the result's layout (elementwise ops, load) */
    TILE__LAY_PTR,    /* every operand in the pointer's (operand 0) layout when it is blocked, else all in the
                         default blocked layout, the pointer last (store, atomics) */
    TILE__LAY_ACC,    /* operand 2 (the accumulator) in the result's layout, the others as OWN (dot) */
    TILE__LAY_BODY,   /* the op's rule takes its operands as they are (control flow, print, assert) */
} tile__lay_rule;
#define TILE__X_COLUMN(col, type, name)                                                \
    static const type name[] = {TILE__OPS(TILE__X_##col)};
#define TILE__X_LIBM(N, s, no, nr, f, libm, ref, opt, lay, attrs) libm,
#define TILE__X_NAME(N, s, no, nr, f, libm, ref, opt, lay, attrs) s,
#define TILE__X_NO(N, s, no, nr, f, libm, ref, opt, lay, attrs) no,
#define TILE__X_NR(N, s, no, nr, f, libm, ref, opt, lay, attrs) nr,
#define TILE__X_FL(N, s, no, nr, f, libm, ref, opt, lay, attrs) f,
#define TILE__X_REF(N, s, no, nr, f, libm, ref, opt, lay, attrs) ref,
#define TILE__X_OPT(N, s, no, nr, f, libm, ref, opt, lay, attrs) opt,
#define TILE__X_LAY(N, s, no, nr, f, libm, ref, opt, lay, attrs) TILE__LAY_##lay,
#define TILE__X_ATTRS(N, s, no, nr, f, libm, ref, opt, lay, attrs) attrs,
typedef double (*tile__ref_fn)(double);
TILE__X_COLUMN(LIBM, char *const, tile__op_libm)          /* "exp" for EXP, NULL for an op that is not one */
TILE__X_COLUMN(NAME, char *const, tile__op_names)
TILE__X_COLUMN(NO, signed char, tile__op_nopnd)
TILE__X_COLUMN(NR, signed char, tile__op_nres)
TILE__X_COLUMN(FL, unsigned char, tile__op_flags)
TILE__X_COLUMN(REF, tile__ref_fn, tile__op_ref)
TILE__X_COLUMN(OPT, unsigned char, tile__op_opt)
TILE__X_COLUMN(LAY, unsigned char, tile__op_lay)
TILE__X_COLUMN(ATTRS, char *const, tile__op_attrs)
#undef TILE__X_COLUMN
/* Operand k of an op may be absent (value id 0). */
static int tile__opnd_optional(int code, int k) { return k >= 0 && k < 8 && (tile__op_opt[code] >> k & 1); }
/* The name of i[k] of an op into buf ("" when the slot has none). */
static const char *tile__op_attr_name(int code, int k, char *buf, size_t n) {
    const char *a = tile__op_attrs[code];
    buf[0] = 0;
    for (int slot = 0; a && *a; slot++) {
        size_t len = strcspn(a, ",");
        int arr = len >= 2 && a[len - 2] == '[' && a[len - 1] == ']';
        if (slot == k || arr) {
            if (arr) snprintf(buf, n, "%.*s[%d]", (int)(len - 2), a, k - slot);
            else snprintf(buf, n, "%.*s", (int)len, a);
            return buf;
        }
        a += len + (a[len] == ',');
    }
    return buf;
}

/* ---- dtypes ---------------------------------------------------------------- */
typedef struct tile__dtinfo {
    const char *name;
    unsigned char bits;    /* width in registers (i1: 1)           */
    unsigned char bytes;   /* size in memory                        */
    unsigned char kind;    /* 0 void, 1 bool, 2 signed, 3 unsigned, 4 float, 5 pointer, 6 descriptor */
} tile__dtinfo;
static const tile__dtinfo tile__dt[TL_DTYPE_COUNT_] = {
    [TL_VOID] = {"void", 0, 0, 0},
    [TL_I1] = {"i1", 1, 1, 1},
    [TL_I8] = {"i8", 8, 1, 2},     [TL_I16] = {"i16", 16, 2, 2},
    [TL_I32] = {"i32", 32, 4, 2},  [TL_I64] = {"i64", 64, 8, 2},
    [TL_U8] = {"u8", 8, 1, 3},     [TL_U16] = {"u16", 16, 2, 3},
    [TL_U32] = {"u32", 32, 4, 3},  [TL_U64] = {"u64", 64, 8, 3},
    [TL_F16] = {"f16", 16, 2, 4},  [TL_BF16] = {"bf16", 16, 2, 4},
    [TL_F32] = {"f32", 32, 4, 4},  [TL_F64] = {"f64", 64, 8, 4},
    [TL_F8E4M3] = {"f8e4m3", 8, 1, 4}, [TL_F8E5M2] = {"f8e5m2", 8, 1, 4},
    [TL_F8E4B15] = {"f8e4b15", 8, 1, 4}, [TL_F8E4B8] = {"f8e4b8", 8, 1, 4}, [TL_F8E5B16] = {"f8e5b16", 8, 1, 4},
    [TL_PTR] = {"ptr", 64, 8, 5},
    [TL_DESC] = {"desc", 64, 8, 6},
};
static int tile__is_float(tl_dtype t) { return t > 0 && t < TL_DTYPE_COUNT_ && tile__dt[t].kind == 4; }
static int tile__is_int(tl_dtype t) { return t > 0 && t < TL_DTYPE_COUNT_ && tile__dt[t].kind >= 1 && tile__dt[t].kind <= 3; }
static int tile__is_signed(tl_dtype t) { return tile__dt[t].kind == 2; }
static int tile__is_unsigned(tl_dtype t) { return tile__dt[t].kind == 3 || t == TL_I1; }
static int tile__is_ptr(tl_dtype t) { return t == TL_PTR; }
/* the 8-bit floats: no math functions on them (cast first); + - * / compute in f32 and convert back */
static int tile__is_f8(tl_dtype t) { return t == TL_F8E4M3 || t == TL_F8E5M2 || t == TL_F8E4B15 || t == TL_F8E4B8 || t == TL_F8E5B16; }
/* the 8-bit floats the tensor cores take as they are (the others are dot operands through f16) */
static int tile__is_f8_native(tl_dtype t) { return t == TL_F8E4M3 || t == TL_F8E5M2; }
/* >>f8: the software formats' parameters: fraction bits, exponent bias,
   smallest normal binade, largest finite value (f8e4b15: the largest a
   conversion gives, 1.75; its code 0x7f reads as 1.875) */
typedef struct tile__f8fmt { int mbits, bias, emin; double maxv; } tile__f8fmt;
static const tile__f8fmt tile__f8e4b15 = {3, 15, -14, 1.75}, tile__f8e4b8 = {3, 8, -7, 240.0}, tile__f8e5b16 = {2, 16, -15, 57344.0};
static const tile__f8fmt *tile__f8sw(tl_dtype t) {
    return t == TL_F8E4B15 ? &tile__f8e4b15 : t == TL_F8E4B8 ? &tile__f8e4b8 : t == TL_F8E5B16 ? &tile__f8e5b16 : NULL;
}

#ifndef TILE__IR_TYPES_ONLY /* tile_backend_llvm.c includes this file for its types and helpers only */
const char *tile_dtype_name(tl_dtype t) { return (t >= 0 && t < TL_DTYPE_COUNT_) ? tile__dt[t].name : "?"; }
size_t tile_dtype_size(tl_dtype t) { return (t >= 0 && t < TL_DTYPE_COUNT_) ? tile__dt[t].bytes : 0; }
#endif

/* ---- values, ops, regions, functions ---------------------------------------- */
#define TILE__MAX_RANK TL_MAX_RANK
#define TILE__MAX_NUMEL (1 << 20)   /* elements in one tile, as Triton's limit */
typedef struct tile__type {
    tl_dtype dtype;
    tl_dtype elem;                  /* pointee when dtype == TL_PTR, element
                                       type when TL_DESC (then rank 0: the
                                       block shape is its MAKE_DESC's)      */
    int rank;
    int shape[TILE__MAX_RANK];
} tile__type;

typedef struct tile__value {
    tile__type t;
    int def;                        /* defining op, or -1 for a block argument */
    int region;                     /* region it is defined in                 */
    int weak;                       /* a C literal's constant (builder only)   */
    const char *file;
    int line;
} tile__value;

#define TILE__MAX_IATTR 6
/* a FOR's i[0]: its TL_LOOP_OPTIONS (i[1]: their num_stages, 0 for the launch's) */
enum { TILE__FOR_OPTIONS = 1, TILE__FOR_WS = 2, TILE__FOR_FLATTEN = 4, TILE__FOR_NO_ACC_MB = 8 };
typedef struct tile__op {
    tile__opcode code;
    int nopnd;                      /* operands at f->pool[opnd ...]           */
    int opnd;
    int nres;                       /* results: value ids res .. res+nres-1     */
    int res;
    int region[2];                  /* owned regions, -1 when none             */
    int parent;                     /* the region holding this op              */
    int dead;                       /* removed by a pass                       */
    long long i[TILE__MAX_IATTR];
    double f;
    const char *s;                  /* owned by the function's string pool     */
    const char *file;
    int line;
} tile__op;

typedef struct tile__region {
    int owner;                      /* op owning it, -1 for the kernel body    */
    int parent;                     /* enclosing region, -1 for the body       */
    int nargs, args;                /* block arguments at f->pool[args ...]    */
    int nops, capops;
    int *ops;                       /* op ids in order                         */
} tile__region;

typedef struct tile__func {
    char name[64];
    char dump_name[128];            /* TILE_DUMP's file name: the name, then the dtypes of
                                       tl_ptr parameters (vadd.f16.f16.f16) */
    const char *file;               /* the kernel's definition                 */
    int line;
    tile__value *vals; int nvals, capvals;   /* vals[0] is the "none" value    */
    tile__op *ops;     int nops, capops;
    tile__region *regs; int nregs, capregs;  /* regs[0] is the body           */
    int *pool;         int npool, cappool;   /* operand and arg lists          */
    char **strs;       int nstrs, capstrs;   /* owned strings                  */
    int nparams;                             /* body args 0..nparams-1         */
    int nomem;                               /* an allocation failed: see below */
} tile__func;

/* Growing tables of the emitters and the runtime (internal sizes only),
   through TILE_REALLOC: 0 when the host is out of memory, with the table as
   it was; each caller fails its call cleanly. */
static int tile__grow(void **p, int *cap, int need, size_t elem) {
    if (need <= *cap) return 1;
    int n = *cap ? *cap : 16;
    while (n < need && n <= INT_MAX / 2) n *= 2;
    void *q = n >= need && (size_t)n <= (size_t)-1 / elem ? TILE_REALLOC(*p, (size_t)n * elem) : NULL;
    if (!q) return 0;   /* *p and *cap unchanged */
    *p = q;
    *cap = n;
    return 1;
}

/* The function's tables, and out of memory while building.
   The builder keeps pointers to nothing across an append (every table may
   move), and refers to values, ops and regions by index. Each table keeps
   TILE__SPARE free slots past its count. When an allocation fails the
   function is marked `nomem` for good: every later append fails too, and
   writes its element into the spare slots without counting it. So the
   kernel body, which goes on running (it is the user's C code), stays in
   bounds, every id it gets is an uncounted one that the builder's checks
   turn into poison, and the build reports TILE_ERR_NOMEM once at the end.
   TILE_STRESS_GROW (tests) moves a table on every growth, growing it by
   exactly what is needed while it is small (then by doubling, so that a
   huge kernel stays linear), so a stale pointer into one is caught by
   AddressSanitizer at once. */
#define TILE__SPARE 72      /* > the most results, operands or args one append writes */
static int tile__reserve(tile__func *f, void **p, int *cap, long long need, size_t elem) {
    if (f->nomem) return 0;
    need += TILE__SPARE;
    if (need <= *cap) return 1;
    long long n = *cap ? *cap : 16;
#ifdef TILE_STRESS_GROW
    if (need < 4096) n = need;
#endif
    while (n < need) n *= 2;
    if (n > INT_MAX / 2 || (size_t)n > SIZE_MAX / elem) {
        f->nomem = 1;
        return 0;
    }
#ifdef TILE_STRESS_GROW
    void *q = TILE_MALLOC((size_t)n * elem);
    if (q && *p) memcpy(q, *p, (size_t)*cap * elem);
    if (q) TILE_FREE(*p);
#else
    void *q = TILE_REALLOC(*p, (size_t)n * elem);
#endif
    if (!q) {
        f->nomem = 1;
        return 0;
    }
    *p = q;
    *cap = (int)n;
    return 1;
}
#define TILE__RESERVE(f, arr, cap, need) tile__reserve((f), (void **)&(arr), &(cap), (need), sizeof *(arr))

static int tile__numel(const tile__type *t) {
    int n = 1;
    for (int d = 0; d < t->rank; d++) n *= t->shape[d];
    return n;
}
static int tile__same_shape(const tile__type *a, const tile__type *b) {
    if (a->rank != b->rank) return 0;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d]) return 0;
    return 1;
}
static int tile__same_type(const tile__type *a, const tile__type *b) {
    return a->dtype == b->dtype && ((a->dtype != TL_PTR && a->dtype != TL_DESC) || a->elem == b->elem) && tile__same_shape(a, b);
}
static tile__type tile__scalar_type(tl_dtype dt) {
    tile__type t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    return t;
}
static tile__type tile__with_dtype(tile__type t, tl_dtype dt) {
    t.dtype = dt;
    if (dt != TL_PTR) t.elem = TL_VOID;
    return t;
}
/* "f32[128,64]", "ptr<f16>[64]", "i32" */
static char *tile__type_str(const tile__type *t, char *buf, size_t n) {
    int k;
    if (t->dtype == TL_PTR || t->dtype == TL_DESC) k = snprintf(buf, n, "%s<%s>", t->dtype == TL_PTR ? "ptr" : "desc", tile_dtype_name(t->elem));
    else k = snprintf(buf, n, "%s", tile_dtype_name(t->dtype));
    if (t->rank == 0 || k < 0 || (size_t)k >= n) return buf;
    size_t at = (size_t)k;
    for (int d = 0; d < t->rank && at < n; d++) {
        int w = snprintf(buf + at, n - at, "%s%d", d ? "," : "[", t->shape[d]);
        if (w < 0) break;
        at += (size_t)w;
    }
    if (at < n) snprintf(buf + at, n - at, "]");
    return buf;
}
static char *tile__shape_str(const tile__type *t, char *buf, size_t n) {
    size_t at = 0;
    int w = snprintf(buf, n, "[");
    at = (size_t)w;
    for (int d = 0; d < t->rank && at < n; d++) {
        w = snprintf(buf + at, n - at, "%s%d", d ? "," : "", t->shape[d]);
        if (w < 0) break;
        at += (size_t)w;
    }
    if (at < n) snprintf(buf + at, n - at, "]");
    return buf;
}

/* A fresh function: value 0 ("none") and region 0 (the body), and every
   table with its spare slots. Returns 0 when out of memory (f is then empty). */
static int tile__func_init(tile__func *f, const char *name) {
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->dump_name, sizeof f->dump_name, "%s", f->name);
    if (!TILE__RESERVE(f, f->vals, f->capvals, 1) || !TILE__RESERVE(f, f->regs, f->capregs, 1) ||
        !TILE__RESERVE(f, f->ops, f->capops, 1) || !TILE__RESERVE(f, f->pool, f->cappool, 1)) {
        TILE_FREE(f->vals); TILE_FREE(f->regs); TILE_FREE(f->ops); TILE_FREE(f->pool);
        memset(f, 0, sizeof *f);
        return 0;
    }
    memset(&f->vals[0], 0, sizeof f->vals[0]);
    f->nvals = 1;
    memset(&f->regs[0], 0, sizeof f->regs[0]);
    f->regs[0].owner = -1;
    f->regs[0].parent = -1;
    f->nregs = 1;
    return 1;
}
static void tile__func_free(tile__func *f) {
    if (!f) return;
    for (int r = 0; r < f->nregs; r++) TILE_FREE(f->regs[r].ops);
    for (int s = 0; s < f->nstrs; s++) TILE_FREE(f->strs[s]);
    TILE_FREE(f->vals); TILE_FREE(f->ops); TILE_FREE(f->regs); TILE_FREE(f->pool); TILE_FREE(f->strs);
    memset(f, 0, sizeof *f);
}
/* A deep copy of src into *dst (for a pass that rewrites a kernel only for
   one target); 0 when out of memory (*dst is then empty). */
static int tile__func_clone(tile__func *dst, const tile__func *src) {
    memset(dst, 0, sizeof *dst);
    memcpy(dst->name, src->name, sizeof dst->name);
    memcpy(dst->dump_name, src->dump_name, sizeof dst->dump_name);
    dst->file = src->file;
    dst->line = src->line;
    dst->nparams = src->nparams;
    if (!TILE__RESERVE(dst, dst->vals, dst->capvals, src->nvals) || !TILE__RESERVE(dst, dst->ops, dst->capops, src->nops) ||
        !TILE__RESERVE(dst, dst->regs, dst->capregs, src->nregs) || !TILE__RESERVE(dst, dst->pool, dst->cappool, src->npool) ||
        !TILE__RESERVE(dst, dst->strs, dst->capstrs, src->nstrs))
        goto fail;
    memcpy(dst->vals, src->vals, (size_t)src->nvals * sizeof *dst->vals);
    memcpy(dst->ops, src->ops, (size_t)src->nops * sizeof *dst->ops);
    memcpy(dst->pool, src->pool, (size_t)src->npool * sizeof *dst->pool);
    dst->nvals = src->nvals;
    dst->nops = src->nops;
    dst->npool = src->npool;
    for (int r = 0; r < src->nregs; r++) {
        dst->regs[r] = src->regs[r];
        dst->regs[r].ops = NULL;
        dst->regs[r].capops = 0;
        dst->nregs = r + 1;
        if (!TILE__RESERVE(dst, dst->regs[r].ops, dst->regs[r].capops, src->regs[r].nops)) goto fail;
        memcpy(dst->regs[r].ops, src->regs[r].ops, (size_t)src->regs[r].nops * sizeof(int));
    }
    for (int k = 0; k < src->nstrs; k++) {
        size_t n = strlen(src->strs[k]) + 1;
        if (!(dst->strs[k] = (char *)TILE_MALLOC(n))) goto fail;
        memcpy(dst->strs[k], src->strs[k], n);
        dst->nstrs = k + 1;
        for (int o = 0; o < src->nops; o++)
            if (src->ops[o].s == src->strs[k]) dst->ops[o].s = dst->strs[k];
    }
    return 1;
fail:
    tile__func_free(dst);
    return 0;
}
/* >>profile: the in-kernel scopes of f (PROFILE ops): their names in the
   order each first appears among f's live ops; tile__kprof_id is a name's
   index there (the tag of its records), tile__kprof_names fills names[max]
   and returns how many there are (0: f records nothing). */
static int tile__kprof_names(const tile__func *f, const char **names, int max) {
    int n = 0;
    for (int id = 0; id < f->nops; id++) {
        const tile__op *op = &f->ops[id];
        if (op->dead || op->code != TILE__OP_PROFILE) continue;
        const char *s = op->s ? op->s : "";
        int k = 0;
        while (k < n && k < max && strcmp(names[k], s) != 0) k++;
        if (k == n) {
            if (n < max) names[n] = s;
            n++;
        }
    }
    return n;
}
static int tile__kprof_id(const tile__func *f, const char *name) {
    const char *names[256];
    int n = tile__kprof_names(f, names, 256);
    for (int k = 0; k < n && k < 256; k++)
        if (strcmp(names[k], name ? name : "") == 0) return k;
    return 0;
}
/* A copy owned by the function ("" when out of memory). */
static const char *tile__func_str(tile__func *f, const char *s) {
    if (!s) return NULL;
    if (!TILE__RESERVE(f, f->strs, f->capstrs, f->nstrs + 1)) return "";
    size_t n = strlen(s) + 1;
    char *c = (char *)TILE_MALLOC(n);
    if (!c) {
        f->nomem = 1;
        return "";
    }
    memcpy(c, s, n);
    f->strs[f->nstrs++] = c;
    return c;
}
static int tile__new_value(tile__func *f, const tile__type *t, int def, int region, const char *file, int line) {
    int ok = TILE__RESERVE(f, f->vals, f->capvals, f->nvals + 1);
    tile__value *v = &f->vals[f->nvals];
    memset(v, 0, sizeof *v);
    v->t = *t;
    v->def = def;
    v->region = region;
    v->file = file;
    v->line = line;
    return ok ? f->nvals++ : f->nvals;
}
static int tile__new_region(tile__func *f, int owner, int parent) {
    int ok = TILE__RESERVE(f, f->regs, f->capregs, f->nregs + 1);
    tile__region *r = &f->regs[f->nregs];
    memset(r, 0, sizeof *r);
    r->owner = owner;
    r->parent = ok ? parent : -1;   /* an uncounted region closes no cycle */
    return ok ? f->nregs++ : f->nregs;
}
/* n ids (zeros when ids is NULL) appended to the pool; returns where. */
static int tile__pool_add(tile__func *f, const int *ids, int n) {
    int ok = TILE__RESERVE(f, f->pool, f->cappool, (long long)f->npool + n + 1);
    int at = f->npool;
    if (!ok && n > TILE__SPARE - 1) n = TILE__SPARE - 1;
    for (int k = 0; k < n; k++) f->pool[at + k] = ids ? ids[k] : 0;
    if (ok) f->npool += n;
    return at;
}
static int *tile__opnds(tile__func *f, const tile__op *o) { return f->pool + o->opnd; }
static int tile__opnd(tile__func *f, const tile__op *o, int k) { return k < o->nopnd ? f->pool[o->opnd + k] : 0; }
static int *tile__args(tile__func *f, const tile__region *r) { return f->pool + r->args; }
static void tile__region_append(tile__func *f, int reg, int op) {
    if (reg >= f->nregs) return;   /* an uncounted region (out of memory) */
    tile__region *r = &f->regs[reg];
    if (!TILE__RESERVE(f, r->ops, r->capops, r->nops + 1)) return;
    r->ops[r->nops++] = op;
}
/* Append an op to region `reg` with the given operands; results get types
   res_t[0..nres-1]. Returns the op id (an uncounted one when out of memory). */
static int tile__new_op(tile__func *f, int reg, tile__opcode code, const int *opnds, int nopnd,
                        const tile__type *res_t, int nres, const char *file, int line) {
    int ok = TILE__RESERVE(f, f->ops, f->capops, f->nops + 1) &&
             TILE__RESERVE(f, f->vals, f->capvals, (long long)f->nvals + nres);
    int id = f->nops;
    tile__op *o = &f->ops[id];
    memset(o, 0, sizeof *o);
    o->code = code;
    o->opnd = tile__pool_add(f, opnds, nopnd);
    o->nopnd = f->nomem && nopnd > TILE__SPARE - 1 ? TILE__SPARE - 1 : nopnd;
    o->region[0] = o->region[1] = -1;
    o->parent = reg;
    o->file = file;
    o->line = line;
    o->nres = f->nomem && nres > TILE__SPARE ? TILE__SPARE : nres;
    o->res = f->nvals;
    if (ok && !f->nomem) f->nops++;
    for (int k = 0; k < o->nres; k++) {
        if (f->nomem) {   /* into the spare slots, uncounted */
            tile__value *v = &f->vals[f->nvals + k];
            memset(v, 0, sizeof *v);
            v->t = res_t[k];
            v->def = id;
            v->region = reg;
        } else {
            tile__new_value(f, &res_t[k], id, reg, file, line);
        }
    }
    if (reg >= 0) tile__region_append(f, reg, id);
    return id;
}
/* the index of kernel parameter v (a block argument of the body), or -1 */
static int tile__param_of(const tile__func *f, int v) {
    const tile__region *body = &f->regs[0];
    for (int k = 0; k < f->nparams && k < body->nargs; k++)
        if (f->pool[body->args + k] == v) return k;
    return -1;
}
/* Is region `inner` equal to or nested inside region `outer`? */
static int tile__region_within(const tile__func *f, int inner, int outer) {
    for (int r = inner; r >= 0; r = f->regs[r].parent)
        if (r == outer) return 1;
    return 0;
}

/* ---- the error channel ------------------------------------------------------------
   One thread-local tile_error. tile__error() formats it, hands it to the log
   function, and returns the status so callers can `return tile__error(...)`. */
static _Thread_local tile_error tile__err;
/* > 0: errors are recorded but not logged (a caller that reports them as
   one error of its own: the tuner's failing configs) */
static _Thread_local int tile__err_mute;
static tile_log_fn tile__log_fn;
static void *tile__log_user;
static int tile__log_set;

#ifndef TILE__IR_TYPES_ONLY /* tile_backend_llvm.c includes this file for its types and helpers only */
const char *tile_status_id(tile_status s) {
    static const char *const ids[] = {
#define TILE__ERR_ID(id, text) "TILE_ERR_" #id,
        TILE_ERRORS(TILE__ERR_ID)
#undef TILE__ERR_ID
    };
    return (s >= 0 && s < TILE_ERR_COUNT_) ? ids[s] : "TILE_ERR_?";
}
const char *tile_status_text(tile_status s) {
    static const char *const texts[] = {
#define TILE__ERR_TEXT(id, text) text,
        TILE_ERRORS(TILE__ERR_TEXT)
#undef TILE__ERR_TEXT
    };
    return (s >= 0 && s < TILE_ERR_COUNT_) ? texts[s] : "unknown status";
}
const char *tile_last_error(void) { return tile__err.message; }
const tile_error *tile_last_error_info(void) {
    tile__err.id = tile_status_id(tile__err.status);
    return &tile__err;
}
void tile_clear_error(void) { memset(&tile__err, 0, sizeof tile__err); }
void tile_set_log(tile_log_fn fn, void *user) {
    tile__log_fn = fn;
    tile__log_user = user;
    tile__log_set = fn != NULL;
}
#endif
/* Report an error: `file`/`line` are the user's, `kernel` may be NULL. */
static tile_status tile__verror(tile_status st, const char *kernel, const char *file, int line,
                                const char *fmt, va_list ap) {
    tile_error *e = &tile__err;
    char text[768];
    vsnprintf(text, sizeof text, fmt, ap);
    e->status = st;
    e->id = tile_status_id(st);
    snprintf(e->kernel, sizeof e->kernel, "%s", kernel ? kernel : "");
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    if (file && kernel && *kernel)
        snprintf(e->message, sizeof e->message, "%s:%d: error %s in kernel %s: %s", file, line, e->id, kernel, text);
    else if (file)
        snprintf(e->message, sizeof e->message, "%s:%d: error %s: %s", file, line, e->id, text);
    else
        snprintf(e->message, sizeof e->message, "error %s: %s", e->id, text);
    if (tile__err_mute) return st;
    if (tile__log_set) tile__log_fn(e, tile__log_user);
    else if (!tile__knob_values_get()->quiet) fprintf(stderr, "tile: %s\n", e->message);
    return st;
}
static tile_status tile__error(tile_status st, const char *kernel, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tile__verror(st, kernel, file, line, fmt, ap);
    va_end(ap);
    return st;
}
/* A notice: something the library worked around (a bad cache file, a
   knob it ignores) without failing the call. One line on stderr, "tile: "
   first, unless TILE_QUIET=1; the thread's last error is left alone. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
static void tile__notice(const char *fmt, ...) {
    char text[1536];
    va_list ap;
    if (tile__knob_values_get()->quiet) return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "tile: %s\n", text);
}

/* ---- numerics -------------------------------------------------------------------
   One element of any dtype, as the interpreter and the constant folder hold
   it: integers sign- or zero-extended into 64 bits (i1 is 0/1), floats as a
   double already rounded to their dtype, pointers as an address. Every
   result goes through tile__norm, so f16 math rounds like the GPU's f16. */
typedef union tile__elem { int64_t i; uint64_t u; double f; } tile__elem;

/* Round x to a binary float format with `mbits` fraction bits, smallest
   normal exponent `emin`, largest finite `maxv`. sat: overflow gives the
   largest finite (NVIDIA's satfinite), else infinity. Ties go to even, or
   away from zero with `away`. */
static double tile__round_fmt_ties(double x, int mbits, int emin, double maxv, int sat, int away) {
    if (x != x || x == 0.0) return x;
    double ax = fabs(x);
    if (ax == INFINITY) return sat ? copysign(maxv, x) : x;
    int e;
    frexp(ax, &e);                         /* ax = m * 2^e, m in [0.5, 1) */
    int q = (e - 1 < emin ? emin : e - 1) - mbits; /* exponent of one ulp */
    double r = ldexp(away ? round(ldexp(ax, -q)) : nearbyint(ldexp(ax, -q)), q);
    if (r > maxv) r = sat ? maxv : INFINITY;
    return copysign(r, x);
}
static double tile__round_fmt(double x, int mbits, int emin, double maxv, int sat) { return tile__round_fmt_ties(x, mbits, emin, maxv, sat, 0); }
/* >>f8: x rounded to a software f8 format: f8e4b15 ties away and saturates
   (NaN to +1.75: a NaN's sign does not survive the GPU's cvt from f16); the fnuz ones to nearest even, saturating,
   with infinities NaN and no negative zero */
static double tile__round_f8sw(tl_dtype t, double x) {
    const tile__f8fmt *F = tile__f8sw(t);
    if (t == TL_F8E4B15) return x != x ? F->maxv : tile__round_fmt_ties(x, F->mbits, F->emin, F->maxv, 1, 1);
    if (x != x || isinf(x)) return NAN;
    double r = tile__round_fmt(x, F->mbits, F->emin, F->maxv, 1);
    return r == 0 ? 0.0 : r;
}
static double tile__round_float(tl_dtype t, double x) {
    switch (t) {
    case TL_F16: return tile__round_fmt(x, 10, -14, 65504.0, 0);
    case TL_BF16: return tile__round_fmt(x, 7, -126, 0x1.fep127, 0);
    case TL_F32: return x != x ? x : (double)(float)x;   /* keep a NaN's payload */
    case TL_F8E4M3: return tile__round_fmt(x, 3, -6, 448.0, 1);
    case TL_F8E5M2: return tile__round_fmt(x, 2, -14, 57344.0, 0);  /* has inf; casts saturate */
    case TL_F8E4B15: return fabs(x) == 1.875 ? x : tile__round_f8sw(t, x);   /* its 0x7f is a value, which conversions do not give */
    case TL_F8E4B8: case TL_F8E5B16: return tile__round_f8sw(t, x);
    default: return x;
    }
}
/* tf32 as the tensor cores read it: 10 fraction bits, f32's range */
static double tile__round_tf32(double x) { return tile__round_fmt(x, 10, -126, 0x1.ffcp127, 0); }

/* Wrap an integer to its dtype's width; round a float to its dtype. */
static tile__elem tile__norm(tl_dtype t, tile__elem x) {
    switch (t) {
    case TL_I1: x.i = x.i != 0; break;
    case TL_I8: x.i = (int8_t)x.u; break;
    case TL_I16: x.i = (int16_t)x.u; break;
    case TL_I32: x.i = (int32_t)x.u; break;
    case TL_U8: x.u = (uint8_t)x.u; break;
    case TL_U16: x.u = (uint16_t)x.u; break;
    case TL_U32: x.u = (uint32_t)x.u; break;
    case TL_I64: case TL_U64: case TL_PTR: break;
    default: if (tile__is_float(t)) x.f = tile__round_float(t, x.f); break;
    }
    return x;
}

/* u as a double rounded to odd: exact below 2^53, else the lost bits are
   kept as a sticky last bit, so a second rounding to a narrower float gives
   the once-rounded result. */
static double tile__u64_odd(uint64_t u) {
    if (u < ((uint64_t)1 << 53)) return (double)u;
    int shift = 0;
    uint64_t v = u;
    while (v >= ((uint64_t)1 << 53)) { v >>= 1; shift++; }
    if (u & (((uint64_t)1 << shift) - 1)) v |= 1;
    return ldexp((double)v, shift);
}
/* cvt.rn.satfinite to e5m2: out-of-range and infinite values clamp */
static double tile__satfinite_e5m2(double x) {
    if (x != x) return x;
    return fabs(tile__round_fmt(x, 2, -14, INFINITY, 0)) > 57344.0 ? copysign(57344.0, x) : x;
}
/* fma(a, b, c), with an exact zero product added plainly: a * b is then exactly +-0 and the sum
   exact, with IEEE's sign rule (under valgrind, whose FMA loses it, fma(0, -1, -0) gave +0) */
static double tile__fma64(double a, double b, double c) {
    return (a == 0 || b == 0) && isfinite(a) && isfinite(b) ? a * b + c : fma(a, b, c);
}
static float tile__fma32(float a, float b, float c) {
    return (a == 0 || b == 0) && isfinite(a) && isfinite(b) ? a * b + c : fmaf(a, b, c);
}
/* a * b + c rounded to odd in double, for operands of at most 26
   significant bits (f32 and narrower), whose product a double holds
   exactly; rounding that to the dtype rounds the exact result once. */
static double tile__fma_odd(double a, double b, double c) {
    double p = a * b, s = p + c;
    if (!isfinite(s)) return s;
    double bv = s - p, av = s - bv, err = (p - av) + (c - bv); /* s + err == p + c */
    uint64_t u;
    memcpy(&u, &s, 8);
    if (err != 0 && !(u & 1)) s = nextafter(s, err > 0 ? INFINITY : -INFINITY);
    return s;
}

/* Bits in memory <-> element. A NaN keeps its sign and fraction bits (as the
   top fraction bits of the double), so copies and bitcasts are bit-exact. */
static double tile__nan_dec(uint64_t sign, uint64_t man, int mbits) {
    uint64_t u = sign << 63 | (uint64_t)0x7ff << 52 | man << (52 - mbits);
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static uint64_t tile__nan_man(double r, int mbits) {
    uint64_t u;
    memcpy(&u, &r, 8);
    uint64_t m = (u & (((uint64_t)1 << 52) - 1)) >> (52 - mbits);
    return m ? m : (uint64_t)1 << (mbits - 1);
}
static uint64_t tile__fbits_enc_b(double r, int ebits, int mbits, int bias) {
    uint64_t sign = signbit(r) ? 1 : 0, ex, man;
    double a = fabs(r);
    if (r != r) { ex = (1u << ebits) - 1; man = tile__nan_man(r, mbits); }
    else if (a == INFINITY) { ex = (1u << ebits) - 1; man = 0; }
    else if (a == 0) { ex = 0; man = 0; }
    else {
        int e;
        double m = frexp(a, &e);                  /* a = m 2^e */
        int E = e - 1 + bias;
        if (E <= 0) { ex = 0; man = (uint64_t)ldexp(a, bias - 1 + mbits); }
        else { ex = (uint64_t)E; man = (uint64_t)ldexp(m * 2 - 1, mbits); }
    }
    return (sign << (ebits + mbits)) | (ex << mbits) | man;
}
static uint64_t tile__fbits_enc(double r, int ebits, int mbits) { return tile__fbits_enc_b(r, ebits, mbits, (1 << (ebits - 1)) - 1); }
static double tile__fbits_dec_b(uint64_t b, int ebits, int mbits, int bias, int ieee_special) {
    uint64_t man = b & (((uint64_t)1 << mbits) - 1);
    uint64_t ex = (b >> mbits) & ((1u << ebits) - 1);
    uint64_t sign = (b >> (ebits + mbits)) & 1;
    double s = sign ? -1.0 : 1.0, v;
    if (ex == (1u << ebits) - 1 && ieee_special && man) return tile__nan_dec(sign, man, mbits);
    if (ex == (1u << ebits) - 1 && ieee_special) v = INFINITY;
    else if (ex == 0) v = ldexp((double)man, 1 - bias - mbits);
    else v = ldexp(1.0 + ldexp((double)man, -mbits), (int)ex - bias);
    return s * v;
}
static double tile__fbits_dec(uint64_t b, int ebits, int mbits, int ieee_special) { return tile__fbits_dec_b(b, ebits, mbits, (1 << (ebits - 1)) - 1, ieee_special); }
/* >>f8: a software f8's bits <-> its value (fnuz: 0x80 is the NaN) */
static double tile__f8sw_dec(tl_dtype t, uint8_t v) {
    const tile__f8fmt *F = tile__f8sw(t);
    if (t != TL_F8E4B15 && v == 0x80) return NAN;
    return tile__fbits_dec_b(v, 7 - F->mbits, F->mbits, F->bias, 0);
}
static uint8_t tile__f8sw_bits(tl_dtype t, double r) {   /* r one of t's values */
    const tile__f8fmt *F = tile__f8sw(t);
    if (r != r) return 0x80;
    return (uint8_t)tile__fbits_enc_b(r, 7 - F->mbits, F->mbits, F->bias);
}
static uint8_t tile__f8sw_enc(tl_dtype t, double x) { return tile__f8sw_bits(t, tile__round_f8sw(t, x)); }   /* a conversion */
static tile__elem tile__mem_load(tl_dtype t, const void *p) {
    tile__elem x;
    x.u = 0;
    switch (t) {
    case TL_I1: x.i = *(const uint8_t *)p != 0; break;
    case TL_I8: x.i = *(const int8_t *)p; break;
    case TL_I16: { int16_t v; memcpy(&v, p, 2); x.i = v; } break;
    case TL_I32: { int32_t v; memcpy(&v, p, 4); x.i = v; } break;
    case TL_I64: case TL_U64: case TL_PTR: memcpy(&x.u, p, 8); break;
    case TL_U8: x.u = *(const uint8_t *)p; break;
    case TL_U16: { uint16_t v; memcpy(&v, p, 2); x.u = v; } break;
    case TL_U32: { uint32_t v; memcpy(&v, p, 4); x.u = v; } break;
    case TL_F32: {
        uint32_t u;
        float v;
        memcpy(&u, p, 4);
        memcpy(&v, p, 4);
        x.f = (u & 0x7fffffffu) > 0x7f800000u ? tile__nan_dec(u >> 31, u & 0x7fffff, 23) : v;
    } break;
    case TL_F64: memcpy(&x.f, p, 8); break;
    case TL_F16: { uint16_t v; memcpy(&v, p, 2); x.f = tile__fbits_dec(v, 5, 10, 1); } break;
    case TL_BF16: { uint16_t v; memcpy(&v, p, 2); x.f = tile__fbits_dec(v, 8, 7, 1); } break;
    case TL_F8E4M3: { uint8_t v = *(const uint8_t *)p; x.f = (v & 0x7f) == 0x7f ? tile__nan_dec(v >> 7, 7, 3) : tile__fbits_dec(v, 4, 3, 0); } break;
    case TL_F8E5M2: x.f = tile__fbits_dec(*(const uint8_t *)p, 5, 2, 1); break;
    case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: x.f = tile__f8sw_dec(t, *(const uint8_t *)p); break;
    default: break;
    }
    return x;
}
static void tile__mem_store(tl_dtype t, void *p, tile__elem x) {
    switch (t) {
    case TL_I1: case TL_I8: case TL_U8: *(uint8_t *)p = (uint8_t)x.u; break;
    case TL_I16: case TL_U16: { uint16_t v = (uint16_t)x.u; memcpy(p, &v, 2); } break;
    case TL_I32: case TL_U32: { uint32_t v = (uint32_t)x.u; memcpy(p, &v, 4); } break;
    case TL_I64: case TL_U64: case TL_PTR: memcpy(p, &x.u, 8); break;
    case TL_F32: {
        float v = (float)x.f;
        uint32_t u;
        memcpy(&u, &v, 4);
        if (x.f != x.f) u = (uint32_t)(signbit(x.f) ? 0x80000000u : 0) | 0x7f800000u | (uint32_t)tile__nan_man(x.f, 23);
        memcpy(p, &u, 4);
    } break;
    case TL_F64: memcpy(p, &x.f, 8); break;
    case TL_F16: { uint16_t v = (uint16_t)tile__fbits_enc(tile__round_float(t, x.f), 5, 10); memcpy(p, &v, 2); } break;
    case TL_BF16: { uint16_t v = (uint16_t)tile__fbits_enc(tile__round_float(t, x.f), 8, 7); memcpy(p, &v, 2); } break;
    case TL_F8E4M3: { double r = tile__round_float(t, x.f); *(uint8_t *)p = r != r ? (uint8_t)(signbit(r) ? 0xff : 0x7f) : (uint8_t)tile__fbits_enc(r, 4, 3); } break;
    case TL_F8E5M2: *(uint8_t *)p = (uint8_t)tile__fbits_enc(tile__round_float(t, x.f), 5, 2); break;
    case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: *(uint8_t *)p = tile__f8sw_bits(t, tile__round_float(t, x.f)); break;
    default: break;
    }
}
/* bits of an element as an unsigned integer of its width (for bitcast) */
static uint64_t tile__elem_bits(tl_dtype t, tile__elem x) {
    unsigned char buf[8] = {0};
    uint64_t u = 0;
    tile__mem_store(t, buf, x);
    memcpy(&u, buf, 8);   /* little-endian hosts */
    return u;
}

#ifndef TILE__IR_TYPES_ONLY /* tile_backend_llvm.c includes this file for its types and helpers only */
tile_f16 tile_f16_from(double x) { tile_f16 r; tile__elem e; e.f = x; tile__mem_store(TL_F16, &r.bits, e); return r; }
tile_bf16 tile_bf16_from(double x) { tile_bf16 r; tile__elem e; e.f = x; tile__mem_store(TL_BF16, &r.bits, e); return r; }
tile_f8e4m3 tile_f8e4m3_from(double x) { tile_f8e4m3 r; tile__elem e; e.f = x; tile__mem_store(TL_F8E4M3, &r.bits, e); return r; }
tile_f8e5m2 tile_f8e5m2_from(double x) { tile_f8e5m2 r; tile__elem e; e.f = tile__satfinite_e5m2(x); tile__mem_store(TL_F8E5M2, &r.bits, e); return r; }
double tile_f16_to(tile_f16 x) { return tile__mem_load(TL_F16, &x.bits).f; }
double tile_bf16_to(tile_bf16 x) { return tile__mem_load(TL_BF16, &x.bits).f; }
double tile_f8e4m3_to(tile_f8e4m3 x) { return tile__mem_load(TL_F8E4M3, &x.bits).f; }
double tile_f8e5m2_to(tile_f8e5m2 x) { return tile__mem_load(TL_F8E5M2, &x.bits).f; }
tile_f8e4b15 tile_f8e4b15_from(double x) { tile_f8e4b15 r; r.bits = tile__f8sw_enc(TL_F8E4B15, x); return r; }
tile_f8e4b8 tile_f8e4b8_from(double x) { tile_f8e4b8 r; r.bits = tile__f8sw_enc(TL_F8E4B8, x); return r; }
tile_f8e5b16 tile_f8e5b16_from(double x) { tile_f8e5b16 r; r.bits = tile__f8sw_enc(TL_F8E5B16, x); return r; }
double tile_f8e4b15_to(tile_f8e4b15 x) { return tile__f8sw_dec(TL_F8E4B15, x.bits); }
double tile_f8e4b8_to(tile_f8e4b8 x) { return tile__f8sw_dec(TL_F8E4B8, x.bits); }
double tile_f8e5b16_to(tile_f8e5b16 x) { return tile__f8sw_dec(TL_F8E5B16, x.bits); }
static tile__elem tile__convert(tl_dtype from, tl_dtype to, tile__elem x);
double tile_round_to(tl_dtype t, double x) {
    tile__elem e;
    if (tile__is_float(t)) { e.f = x; return tile__convert(TL_F64, t, e).f; }
    if (!tile__is_int(t)) return x;
    /* wrap modulo 2^64 first: converting a double out of int64's range is undefined */
    if (x != x || isinf(x)) e.i = 0;
    else if (fabs(x) < 9223372036854775808.0) e.i = (int64_t)x;
    else {
        double m = fmod(x, 18446744073709551616.0);
        e.u = (uint64_t)(m < 0 ? m + 18446744073709551616.0 : m);
    }
    e = tile__norm(t, e);
    return tile__is_signed(t) || t == TL_I1 ? (double)e.i : (double)e.u;
}
#endif

/* Value conversion, as the GPU's cvt: float->int truncates and saturates
   (NaN gives 0); int->float rounds; to i1 is "!= 0". */
static tile__elem tile__convert(tl_dtype from, tl_dtype to, tile__elem x) {
    tile__elem r;
    r.u = 0;
    if (from == to) return x;
    if (to == TL_I1) {
        r.i = tile__is_float(from) ? x.f != 0 : x.u != 0;
        return r;
    }
    if (tile__is_float(from)) {
        if (tile__f8sw(to)) { r.f = tile__round_f8sw(to, x.f); return r; }
        if (tile__is_float(to)) { r.f = to == TL_F8E5M2 ? tile__satfinite_e5m2(x.f) : x.f; return tile__norm(to, r); }
        double v = trunc(x.f);
        if (v != v) { r.u = 0; return r; }
        if (tile__is_signed(to)) {
            double lo = -ldexp(1.0, tile__dt[to].bits - 1), hi = ldexp(1.0, tile__dt[to].bits - 1) - 1;
            r.i = v < lo ? (int64_t)lo : v >= hi ? (tile__dt[to].bits == 64 ? INT64_MAX : (int64_t)hi) : (int64_t)v;
        } else {
            double hi = ldexp(1.0, tile__dt[to].bits);
            r.u = v <= 0 ? 0 : v >= hi ? (tile__dt[to].bits == 64 ? UINT64_MAX : (uint64_t)hi - 1) : (uint64_t)v;
        }
        return r;
    }
    /* from an integer (or pointer) */
    if (tile__is_float(to)) {
        if (to == TL_F64) r.f = tile__is_signed(from) ? (double)x.i : (double)x.u;
        else if (tile__is_signed(from) && x.i < 0) r.f = -tile__u64_odd(0 - x.u);
        else r.f = tile__u64_odd(x.u);
        if (to == TL_F8E5M2) r.f = tile__satfinite_e5m2(r.f);
        if (tile__f8sw(to)) { r.f = tile__round_f8sw(to, r.f); return r; }
        return tile__norm(to, r);
    }
    return tile__norm(to, x);
}

/* ---- libdevice's rounding modes, bit for bit ------------------------------------------
   The floating-point environment is never touched: a compiler may move
   arithmetic past fesetround (the users of a header cannot all be asked for
   -frounding-math), and valgrind runs every operation rounded to nearest
   whatever the mode. The host's arithmetic in the operation's precision
   gives the result rounded to nearest; the sign of the exact result less
   that one, computed exactly, says whether a directed rounding is the
   neighbour one ulp away. The conversions to and from integers are integer
   arithmetic. */

/* An exact sum of products of two doubles: a two's complement integer in
   units of 2^-TILE__XS_BIAS, wide enough for any product of finite doubles
   (each m 2^e, m < 2^53, -1126 <= e <= 971) and a few of them added. */
enum { TILE__XS_WORDS = 70, TILE__XS_BIAS = 2304 };
typedef struct tile__xsum { uint64_t w[TILE__XS_WORDS]; } tile__xsum;

/* |x| = m 2^e, m an integer below 2^53 (x finite, nonzero) */
static uint64_t tile__xs_split(double x, int *e) {
    int ex;
    double f = frexp(fabs(x), &ex);
    *e = ex - 53;
    return (uint64_t)ldexp(f, 53);
}
/* s += hi:lo 2^(sh - TILE__XS_BIAS), or -= where neg */
static void tile__xs_add(tile__xsum *s, uint64_t hi, uint64_t lo, int sh, int neg) {
    int q = sh / 64, b = sh % 64;
    uint64_t v[3], carry = 0;
    v[0] = lo << b;
    v[1] = b ? (lo >> (64 - b)) | (hi << b) : hi;
    v[2] = b ? hi >> (64 - b) : 0;
    for (int i = q; i < TILE__XS_WORDS && (i - q < 3 || carry); i++) {
        uint64_t w = s->w[i], d = i - q < 3 ? v[i - q] : 0, t;
        if (!neg) {
            t = w + d;
            uint64_t c = t < w;
            s->w[i] = t + carry;
            carry = c + (s->w[i] < t);
        } else {
            t = w - d;
            uint64_t c = w < d;
            s->w[i] = t - carry;
            carry = c + (t < carry);
        }
    }
}
/* s += x y, exactly (x, y finite) */
static void tile__xs_term(tile__xsum *s, double x, double y) {
    if (x == 0 || y == 0) return;
    int ex, ey;
    uint64_t mx = tile__xs_split(x, &ex), my = tile__xs_split(y, &ey);
    uint64_t x0 = mx & 0xffffffffu, x1 = mx >> 32, y0 = my & 0xffffffffu, y1 = my >> 32;
    uint64_t lo = x0 * y0, mid = x0 * y1 + x1 * y0, hi = x1 * y1;   /* mid < 2^54 */
    uint64_t l = lo + (mid << 32);
    hi += (mid >> 32) + (l < lo);
    tile__xs_add(s, hi, l, ex + ey + TILE__XS_BIAS, (x < 0) != (y < 0));
}
static int tile__xs_sign(const tile__xsum *s) {
    if (s->w[TILE__XS_WORDS - 1] >> 63) return -1;
    for (int i = 0; i < TILE__XS_WORDS; i++)
        if (s->w[i]) return 1;
    return 0;
}
/* the sign of (the exact result of op on a, b, c) - r, all finite */
static int tile__rnd_side(tile__opcode op, double a, double b, double c, double r) {
    tile__xsum s;
    memset(&s, 0, sizeof s);
    switch (op) {
    case TILE__OP_ADD_RN: tile__xs_term(&s, a, 1.0); tile__xs_term(&s, b, 1.0); break;
    case TILE__OP_SUB_RN: tile__xs_term(&s, a, 1.0); tile__xs_term(&s, -b, 1.0); break;
    case TILE__OP_MUL_RN: tile__xs_term(&s, a, b); break;
    case TILE__OP_FMA_RN: tile__xs_term(&s, a, b); tile__xs_term(&s, c, 1.0); break;
    case TILE__OP_DIV_RN: /* a / b - r = (a - r b) / b */
        tile__xs_term(&s, a, 1.0);
        tile__xs_term(&s, -r, b);
        return tile__xs_sign(&s) * (b < 0 ? -1 : 1);
    case TILE__OP_RCP_RN:
        tile__xs_term(&s, 1.0, 1.0);
        tile__xs_term(&s, -r, a);
        return tile__xs_sign(&s) * (a < 0 ? -1 : 1);
    case TILE__OP_SQRT_RN: /* sqrt(a) - r has the sign of a - r^2 (r >= 0) */
        tile__xs_term(&s, a, 1.0);
        tile__xs_term(&s, -r, r);
        return tile__xs_sign(&s);
    default: tile__xs_term(&s, a, 1.0); break;   /* CVT */
    }
    tile__xs_term(&s, -r, 1.0);
    return tile__xs_sign(&s);
}
/* op (a TILE__ROUNDED_OPS row's _rn opcode) on a, b, c of float dtype t, rounded by mode to rt */
static double tile__rnd_float(tile__opcode op, int mode, tl_dtype t, tl_dtype rt, double a, double b, double c) {
    int f64 = t == TL_F64, zero_sum = 0;
    double r;
    if (op == TILE__OP_CVT_RN && (!f64 || rt == TL_F64)) return a;   /* to a wider float: exact */
    if (f64) {
        switch (op) {
        case TILE__OP_ADD_RN: r = a + b; break;
        case TILE__OP_SUB_RN: r = a - b; break;
        case TILE__OP_MUL_RN: r = a * b; break;
        case TILE__OP_DIV_RN: r = a / b; break;
        case TILE__OP_FMA_RN: r = tile__fma64(a, b, c); break;
        case TILE__OP_RCP_RN: r = 1.0 / a; break;
        case TILE__OP_SQRT_RN: r = sqrt(a); break;
        default: r = (float)a; break;   /* CVT: f64 to f32 */
        }
    } else {
        float x = (float)a, y = (float)b, z = (float)c;
        switch (op) {
        case TILE__OP_ADD_RN: r = (float)(x + y); break;
        case TILE__OP_SUB_RN: r = (float)(x - y); break;
        case TILE__OP_MUL_RN: r = (float)(x * y); break;
        case TILE__OP_DIV_RN: r = (float)(x / y); break;
        case TILE__OP_FMA_RN: r = tile__fma32(x, y, z); break;
        case TILE__OP_RCP_RN: r = (float)(1.0f / x); break;
        default: r = sqrtf(x); break;
        }
        a = x, b = y, c = z;
    }
    int binary = op == TILE__OP_ADD_RN || op == TILE__OP_SUB_RN || op == TILE__OP_MUL_RN || op == TILE__OP_DIV_RN;
    if (mode == TILE__RN || r != r || !isfinite(a) || ((binary || op == TILE__OP_FMA_RN) && !isfinite(b)) ||
        (op == TILE__OP_FMA_RN && !isfinite(c)))
        return r;   /* rounded to nearest; NaN; or an infinite operand: exact */
    int f32r = !f64 || op == TILE__OP_CVT_RN;   /* the result is an f32 */
    double big = f32r ? FLT_MAX : DBL_MAX;
    if (isinf(r)) {
        if ((op == TILE__OP_DIV_RN && b == 0) || (op == TILE__OP_RCP_RN && a == 0)) return r;   /* exact */
        /* an overflow: the largest finite toward zero */
        if (mode == TILE__RZ || mode == (r > 0 ? TILE__RD : TILE__RU)) return copysign(big, r);
        return r;
    }
    int side = tile__rnd_side(op, a, b, c, r), step = 0;
    if (mode == TILE__RZ) step = (r > 0 && side < 0) || (r < 0 && side > 0) ? (r > 0 ? -1 : 1) : 0;
    else if (mode == TILE__RD) step = side < 0 ? -1 : 0;
    else step = side > 0 ? 1 : 0;
    if (step) return f32r ? (double)nextafterf((float)r, step > 0 ? INFINITY : -INFINITY) : nextafter(r, step > 0 ? INFINITY : -INFINITY);
    /* an exact zero sum: -0 rounding down, unless both addends are +0 (IEEE 754's sign rule) */
    if (op == TILE__OP_ADD_RN) zero_sum = !(a == 0 && b == 0 && !signbit(a) && !signbit(b));
    else if (op == TILE__OP_SUB_RN) zero_sum = !(a == 0 && b == 0 && !signbit(a) && signbit(b));
    else if (op == TILE__OP_FMA_RN) {
        double p = f64 ? a * b : (double)((float)a * (float)b);
        zero_sum = !(p == 0 && c == 0 && !signbit(p) && !signbit(c));
    }
    if (r == 0 && side == 0 && mode == TILE__RD && zero_sum) return -0.0;
    return r;
}
/* v rounded to an integer (a double) by mode; NaN and infinities stay */
static double tile__rnd_int(double v, int mode) {
    if (mode == TILE__RZ) return trunc(v);
    if (mode == TILE__RD) return floor(v);
    if (mode == TILE__RU) return ceil(v);
    double f = floor(v), d = v - f;   /* exact: the fraction, in [0, 1) */
    return d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0) ? f + 1.0 : f;
}
/* the integer x of dtype t rounded by mode to p significant bits (24: f32, 53: f64), exactly:
   the bits below the top p decide, as integers */
static double tile__rnd_i2f(tl_dtype t, tile__elem x, int p, int mode) {
    int neg = tile__is_signed(t) && x.i < 0, bits = 0;
    uint64_t m = neg ? 0 - x.u : x.u;
    for (uint64_t v = m; v; v >>= 1) bits++;
    if (bits <= p) return neg ? -(double)m : (double)m;
    int sh = bits - p;
    uint64_t q = m >> sh, rem = m & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1);
    int up = mode == TILE__RN ? rem > half || (rem == half && (q & 1)) : rem != 0 && mode == (neg ? TILE__RD : TILE__RU);
    double r = ldexp((double)(q + (uint64_t)up), sh);   /* q + up <= 2^p: exact */
    return neg ? -r : r;
}
/* 1 / sqrt(a) of an f32 a rounded once to the nearest f32 (libdevice's __nv_frsqrt_rn; a tie cannot
   happen). With a = m 4^k, m in [1, 4), the result is 2^-k / sqrt(m), 1 / sqrt(m) in (0.5, 1]: its
   double estimate's f32 rounding y moves until the midpoints between y and its neighbours bracket
   1 / sqrt(m), each compared exactly: 1 / sqrt(m) < mid <=> mid^2 m > 1, where mid^2 (25 bits
   squared) is exact in double and mid^2 m - 1 is the sum p - 1 + e of two doubles (e by fma) */
static int tile__rsqrt_side(double mid, double m) {
    double q = mid * mid, p = q * m, e = fma(q, m, -p), d = (p - 1.0) + e;
    return d > 0 ? 1 : d < 0 ? -1 : 0;
}
static double tile__rsqrt_rn(double a) {
    if (a != a || a < 0) return NAN;
    if (a == 0) return signbit(a) ? -INFINITY : INFINITY;
    if (isinf(a)) return 0.0;
    int e;
    double m = 2.0 * frexp(a, &e);   /* a = m 2^(e - 1), m in [1, 2) */
    e -= 1;
    if (e & 1) m *= 2.0, e -= 1;
    float y = (float)(1.0 / sqrt(m));
    for (int k = 0; k < 4; k++) {
        float up = nextafterf(y, 2.0f), dn = nextafterf(y, 0.0f);
        if (tile__rsqrt_side(((double)y + up) / 2, m) < 0) y = up;
        else if (tile__rsqrt_side(((double)y + dn) / 2, m) > 0) y = dn;
        else break;
    }
    return ldexp((double)y, -e / 2);
}
/* a rounding-mode row (TILE__ROUNDED_OPS) on its operands x, of dtype t, to dtype rt */
static tile__elem tile__rnd_eval(tile__opcode code, tl_dtype t, tl_dtype rt, const tile__elem *x) {
    tile__opcode op = tile__rnd_op(code);
    int mode = tile__rnd_mode(code), n = tile__op_nopnd[code];
    tile__elem r;
    r.u = 0;
    if (op == TILE__OP_RSQRT_RN) r.f = tile__rsqrt_rn(x[0].f);
    else if (op != TILE__OP_CVT_RN || (tile__is_float(t) && tile__is_float(rt)))
        r.f = tile__rnd_float(op, mode, t, rt, x[0].f, n > 1 ? x[1].f : 0.0, n > 2 ? x[2].f : 0.0);
    else if (tile__is_float(t)) {
        /* to an integer: rounded by mode, then saturated as every float-to-integer cvt. A NaN
           gives what an H100 gives (both back ends): 0 from an f32 to 32 bits, else the sign
           bit alone (0x80000000, 0x8000000000000000) */
        if (x[0].f != x[0].f) {
            unsigned wb = tile__dt[rt].bits;
            r.u = t == TL_F32 && wb == 32 ? 0 : (uint64_t)1 << (wb - 1);
            return tile__norm(rt, r);
        }
        r.f = tile__rnd_int(x[0].f, mode);
        return tile__convert(TL_F64, rt, r);
    } else r.f = tile__rnd_i2f(t, x[0], rt == TL_F64 ? 53 : 24, mode);
    return r;
}

/* Evaluate one element of a pure elementwise op other than PTR_ADD (which
   needs the pointee size: a + b * size). `t` is the dtype of the op's last
   operand (the promoted operand dtype; WHERE's value dtype), `rt` the
   result's. */
static tile__elem tile__ew_eval(tile__opcode code, tl_dtype t, tl_dtype rt, const tile__elem *x) {
    tile__elem a = x[0], b = x[1], r;
    int fl = tile__is_float(t), sg = tile__is_signed(t);
    unsigned w = tile__dt[t].bits;
    r.u = 0;
    if (tile__rnd_mode(code) >= 0) return tile__norm(rt, tile__rnd_eval(code, t, rt, x));
    switch (code) {
    case TILE__OP_ADD: if (fl) r.f = a.f + b.f; else r.u = a.u + b.u; break;
    case TILE__OP_SUB: if (fl) r.f = a.f - b.f; else r.u = a.u - b.u; break;
    case TILE__OP_MUL: if (fl) r.f = a.f * b.f; else r.u = a.u * b.u; break;
    case TILE__OP_DIV:
        if (fl) r.f = a.f / b.f;
        else if (b.u == 0) r.i = -1;
        else if (sg) r.i = (b.i == -1) ? (int64_t)(0 - a.u) : a.i / b.i;
        else r.u = a.u / b.u;
        break;
    case TILE__OP_MOD:
        if (fl) r.f = fmod(a.f, b.f);
        else if (b.u == 0) r = a;
        else if (sg) r.i = (b.i == -1) ? 0 : a.i % b.i;
        else r.u = a.u % b.u;
        break;
    case TILE__OP_MIN:
        if (fl) r.f = fmin(a.f, b.f);
        else r = (sg ? a.i < b.i : a.u < b.u) ? a : b;
        break;
    case TILE__OP_MAX:
        if (fl) r.f = fmax(a.f, b.f);
        else r = (sg ? a.i > b.i : a.u > b.u) ? a : b;
        break;
    case TILE__OP_MIN_NAN: case TILE__OP_MAX_NAN:
        if (fl && (a.f != a.f || b.f != b.f)) r.f = NAN;
        else r = tile__ew_eval(code == TILE__OP_MIN_NAN ? TILE__OP_MIN : TILE__OP_MAX, t, rt, x);
        break;
    case TILE__OP_AND: r.u = a.u & b.u; break;
    case TILE__OP_OR: r.u = a.u | b.u; break;
    case TILE__OP_XOR: r.u = a.u ^ b.u; break;
    case TILE__OP_SHL: r.u = b.u >= w ? 0 : a.u << b.u; break;
    case TILE__OP_SHR:
        if (sg) r.i = b.u >= w ? (a.i < 0 ? -1 : 0) : a.i >> b.u;
        else r.u = b.u >= w ? 0 : a.u >> b.u;
        break;
    case TILE__OP_UMULHI:
        if (w <= 32) {
            uint64_t m = w == 32 ? 0xffffffffu : ((uint64_t)1 << w) - 1;
            r.u = ((a.u & m) * (b.u & m)) >> w;
        } else { /* 64 x 64 -> high 64, from 32-bit halves */
            uint64_t al = a.u & 0xffffffffu, ah = a.u >> 32, bl = b.u & 0xffffffffu, bh = b.u >> 32;
            uint64_t mid = (al * bl >> 32) + (ah * bl & 0xffffffffu) + (al * bh & 0xffffffffu);
            r.u = ah * bh + (ah * bl >> 32) + (al * bh >> 32) + (mid >> 32);
        }
        break;
    case TILE__OP_MULHI:   /* signed: the unsigned high half, less b where a < 0 and a where b < 0 */
        r = tile__ew_eval(TILE__OP_UMULHI, t, rt, x);
        if (sg) {
            uint64_t sb = (uint64_t)1 << (w - 1);
            if (a.u & sb) r.u -= b.u;
            if (b.u & sb) r.u -= a.u;
        }
        break;
    case TILE__OP_POPC: case TILE__OP_CLZ: case TILE__OP_FFS: case TILE__OP_BREV: {
        uint64_t v = w == 64 ? a.u : a.u & (((uint64_t)1 << w) - 1);
        unsigned n = 0;
        if (code == TILE__OP_POPC) for (; v; v &= v - 1) n++;
        else if (code == TILE__OP_CLZ) for (n = w; v; v >>= 1) n--;
        else if (code == TILE__OP_FFS) { if (v) for (n = 1; !(v & 1); v >>= 1) n++; }
        else {
            uint64_t o = 0;
            for (unsigned k = 0; k < w; k++) o |= ((v >> k) & 1) << (w - 1 - k);
            r.u = o;
            break;
        }
        r.u = n;
        break;
    }
    /* libdevice's 32-bit integer functions, computed as their bodies in libdevice.10.bc do (any width
       here, though only i32 and u32 reach them). The unsigned ones, and the signed ones of an unsigned
       dtype, work on the w-bit patterns: an i32's a.u is sign-extended, so it is masked first. */
    case TILE__OP_HADD: case TILE__OP_UHADD: case TILE__OP_RHADD: case TILE__OP_URHADD: {
        /* a + b = 2 (a & b) + (a ^ b) = 2 (a | b) - (a ^ b): the half sum, rounded down (hadd) or up
           (rhadd), with no carry out of the width; the halving shift is arithmetic when signed */
        int down = code == TILE__OP_HADD || code == TILE__OP_UHADD;
        if (sg && (code == TILE__OP_HADD || code == TILE__OP_RHADD)) {
            int64_t h = (a.i ^ b.i) >> 1;
            r.i = down ? (a.i & b.i) + h : (a.i | b.i) - h;
        } else {
            uint64_t m = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1, ua = a.u & m, ub = b.u & m, h = (ua ^ ub) >> 1;
            r.u = down ? (ua & ub) + h : (ua | ub) - h;
        }
        break;
    }
    case TILE__OP_MUL24: case TILE__OP_UMUL24: {
        /* the low 24 bits of each, sign-extended from bit 23 for a signed mul24 ((v ^ 2^23) - 2^23,
           wrapping in 64 bits), multiplied modulo 2^64: the low w bits are the GPU's */
        uint64_t ma = a.u & 0xffffffu, mb = b.u & 0xffffffu;
        if (sg && code == TILE__OP_MUL24) ma = (ma ^ 0x800000u) - 0x800000u, mb = (mb ^ 0x800000u) - 0x800000u;
        r.u = ma * mb;
        break;
    }
    case TILE__OP_SAD: case TILE__OP_USAD: {   /* PTX sad: c + (a < b ? b - a : a - b), every step modulo 2^w */
        uint64_t m = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1, ua = a.u & m, ub = b.u & m;
        int lt = sg && code == TILE__OP_SAD ? a.i < b.i : ua < ub;
        r.u = (lt ? ub - ua : ua - ub) + x[2].u;
        break;
    }
    case TILE__OP_BYTE_PERM: {
        /* prmt.b32 in its default mode on the bytes b:a (a's are 0..3, b's 4..7): byte k of the result
           is the one selector nibble k's low three bits name. libdevice's __nv_byte_perm clears each
           nibble's top bit (c & 0x7777) before prmt, so prmt's sign replication never happens, as
           CUDA's __byte_perm documents; bits 16 and up are unused. */
        uint64_t v = (b.u & 0xffffffffu) << 32 | (a.u & 0xffffffffu);
        for (unsigned k = 0; k < 4; k++) r.u |= (v >> (8 * (x[2].u >> (4 * k) & 7)) & 0xff) << (8 * k);
        break;
    }
#define TILE__CMP(OP, op)                                                           \
    case TILE__OP_##OP:                                                             \
        r.i = fl ? (a.f op b.f) : sg ? (a.i op b.i) : (a.u op b.u);                 \
        break;
    TILE__CMP(EQ, ==) TILE__CMP(LT, <) TILE__CMP(LE, <=) TILE__CMP(GT, >) TILE__CMP(GE, >=)
#undef TILE__CMP
    case TILE__OP_NE: r.i = fl ? !(a.f == b.f) : a.u != b.u; break;
    case TILE__OP_NEG: if (fl) r.f = -a.f; else r.u = 0 - a.u; break;
    case TILE__OP_NOT: r.u = t == TL_I1 ? !a.u : ~a.u; break;
    case TILE__OP_ABS: if (fl) r.f = fabs(a.f); else r.u = (sg && a.i < 0) ? 0 - a.u : a.u; break;
    /* the table's ref functions (below, the ones with a rule of their own);
       transcendental functions of f16/bf16 are computed in f32, as Triton does */
#define TILE__MATH(OP, expr) case TILE__OP_##OP: { double v = a.f; r.f = (t == TL_F64) ? (expr) : (double)(float)(expr); } break;
    case TILE__OP_EXP2:   /* f32: as ex2.approx.ftz.f32 on the GPU, a result below 2^-126 is 0 */
        r.f = t == TL_F64 ? exp2(a.f) : (double)(float)exp2(a.f);
        if (t == TL_F32 && r.f < 0x1p-126) r.f = 0;
        break;
    TILE__MATH(RSQRT, 1.0 / sqrt(v)) TILE__MATH(SIGMOID, 1.0 / (1.0 + exp(-v)))
#undef TILE__MATH
    /* libdevice's two-operand functions: f32 (and f16, bf16, computed in f32) through the C library's f32 one */
#define TILE__MATH2(OP, fn) case TILE__OP_##OP: r.f = t == TL_F64 ? fn(a.f, b.f) : (double)fn##f((float)a.f, (float)b.f); break;
    TILE__MATH2(ATAN2, atan2) TILE__MATH2(POW, pow) TILE__MATH2(HYPOT, hypot) TILE__MATH2(COPYSIGN, copysign)
    TILE__MATH2(FDIM, fdim) TILE__MATH2(NEXTAFTER, nextafter) TILE__MATH2(REMAINDER, remainder)
#undef TILE__MATH2
    case TILE__OP_JN: case TILE__OP_YN: {
        /* the order n is operand 0 (an i32), x operand 1 (t); n < 0 gives NaN, as libdevice's
           __nv_jnf and __nv_ynf (C's jn(-n, x) would be (-1)^n jn(n, x)). C's recurrences take
           about n steps an element, so past TILE__BESSEL_MAX_ORDER only what needs none: where
           |x| <= n / e, |J_n(x)| < 2^-n underflows to 0 and Y_n(x) (x > 0) overflows to -inf;
           elsewhere NaN, not computed (README: the interpreter's limit) */
        double v, ax = fabs(b.f);
        int odd = (int)(a.i & 1);
        if (a.i < 0 || b.f != b.f) v = NAN;
        else if (a.i <= TILE__BESSEL_MAX_ORDER) v = code == TILE__OP_JN ? jn((int)a.i, b.f) : yn((int)a.i, b.f);
        else if (ax > (double)a.i / 2.718281828459045) v = code == TILE__OP_YN && b.f < 0 ? NAN : code == TILE__OP_YN && b.f == 0 ? -INFINITY : NAN;
        else v = code == TILE__OP_JN ? (odd && b.f < 0 ? -0.0 : 0.0) : b.f < 0 ? NAN : -INFINITY;
        r.f = t == TL_F64 ? v : (double)(float)v;
        break;
    }
    /* the norms in double, each rounded once to f32 for the smaller floats */
    case TILE__OP_RHYPOT: case TILE__OP_NORM3D: case TILE__OP_RNORM3D: case TILE__OP_NORM4D: case TILE__OP_RNORM4D: {
        double v[4] = {a.f, b.f, 0, 0};
        int n = tile__op_nopnd[code];
        for (int k = 2; k < n; k++) v[k] = x[k].f;
        double m = tile__ld_norm(n, v);
        m = code == TILE__OP_NORM3D || code == TILE__OP_NORM4D ? m : 1.0 / m;
        r.f = t == TL_F64 ? m : (double)(float)m;
        break;
    }
    /* x (operand 0, of the result's dtype rt) and an i32 n (operand 1, the t of this call) */
    case TILE__OP_POWI: r.f = tile__ld_powi(a.f, b.i, rt != TL_F64); break;
    case TILE__OP_LDEXP: case TILE__OP_SCALBN: {   /* exact in double, then rounded once */
        double v = ldexp(a.f, (int)b.i);
        r.f = rt == TL_F64 ? v : (double)(float)v;
        break;
    }
    case TILE__OP_ILOGB: {
        int e = 0;
        if (a.f != a.f || a.f == 0) r.i = INT32_MIN;
        else if (isinf(a.f)) r.i = INT32_MAX;
        else {
            frexp(a.f, &e);
            r.i = e - 1;
        }
        break;
    }
    case TILE__OP_LLROUND:   /* a NaN is INT64_MIN from any float (an H100 through both back ends; libdevice's __nv_llround reads as 0 for an f64, but its cvt.rzi.s64.f64 gives the sign bit) */
        if (a.f != a.f) r.i = INT64_MIN;
        else if (a.f >= 0x1p63) r.i = INT64_MAX;
        else if (a.f <= -0x1p63) r.i = INT64_MIN;
        else r.i = (int64_t)round(a.f);
        break;
    case TILE__OP_SATURATE: r.f = a.f > 0 ? (a.f < 1 ? a.f : 1.0) : 0.0; break;   /* NaN and -0: +0 */
    case TILE__OP_FAST_POW: r.f = (double)(float)pow(a.f, b.f); break;
    case TILE__OP_FAST_DIV: r.f = (double)(float)(a.f / b.f); break;
    case TILE__OP_WHERE: r = a.i ? b : x[2]; break;
    case TILE__OP_FMA: r.f = t == TL_F64 ? tile__fma64(a.f, b.f, x[2].f) : tile__fma_odd(a.f, b.f, x[2].f); break;
    case TILE__OP_CAST: return tile__convert(t, rt, a);
    case TILE__OP_BITCAST: {
        uint64_t bits = tile__elem_bits(t, a);
        unsigned char buf[8];
        memcpy(buf, &bits, 8);
        return tile__mem_load(rt, buf);
    }
    default:
        TILE_ASSERT(tile__op_ref[code] && "an elementwise op without a ref function or a rule");
        r.f = t == TL_F64 ? tile__op_ref[code](a.f) : (double)(float)tile__op_ref[code](a.f);
        break;
    }
    /* >>f8: a result computed in f8e4b15 is converted as the GPU converts it (saturating at 1.75);
       WHERE moves its 0x7f (1.875) as it is */
    if (rt == TL_F8E4B15 && code != TILE__OP_WHERE) r.f = tile__round_f8sw(rt, r.f);
    return tile__norm(rt, r);
}

/* ---- the stages, in the order the pipeline runs them --------------------------
   Defined in the files that follow; declared here so each file stands alone. */
/* passes.h */
static tile_status tile__verify(tile__func *f);       /* structural checks; TILE_ERR_INTERNAL */
static int  tile__fold(tile__func *f);                 /* constant folding; returns #changes */
static int  tile__cse(tile__func *f);                  /* common subexpressions            */
static int  tile__dce(tile__func *f);                  /* dead pure ops                   */
static char *tile__print_func(const tile__func *f);    /* malloc'd text: TILE_DUMP=ir     */
