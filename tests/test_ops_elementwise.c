/* tests/test_ops_elementwise.c — numerics of the elementwise ops in the
   interpreter: every binary, unary and ternary tl_* op on every dtype it
   accepts (i8..i64, u8..u64, f16, bf16, f32, f64), each lane checked against
   a float64 C reference on fresh random inputs, and every op a dtype does not
   accept checked to fail with TILE_ERR_DTYPE. Integers must be exact,
   wraparound included; + - * / sqrt fma must be one rounding of the exact
   result; transcendentals may be 1 ulp of the dtype off (Triton computes
   f16/bf16 math in f32). The result dtype of every op (and of scalars mixed
   with tiles, the weak literal rules) is checked against Triton's promotion
   rules, read with tl_dtype_of while the body is traced.

   The interpreter is the oracle the GPU back ends will be checked against,
   so a wrong rounding or a wrong dtype here would be copied everywhere. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <float.h>

/* ---- host-side values ------------------------------------------------------ */
/* one element: integers sign- or zero-extended to 64 bits, floats as double */
typedef tt_val val;

static int dt_float(tl_dtype t) { return t >= TL_F16 && t <= TL_F8E5B16; }
static int dt_signed(tl_dtype t) { return t >= TL_I8 && t <= TL_I64; }
static int dt_bits(tl_dtype t) {
    switch (t) {
    case TL_I1: return 1;
    case TL_I8: case TL_U8: case TL_F8E4M3: case TL_F8E5M2: case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: return 8;
    case TL_I16: case TL_U16: case TL_F16: case TL_BF16: return 16;
    case TL_I32: case TL_U32: case TL_F32: return 32;
    default: return 64;
    }
}

/* integer u truncated to t's width and extended back to 64 bits */
static val wrap(tl_dtype t, uint64_t u) {
    val r;
    switch (t) {
    case TL_I1: r.u = u != 0; break;
    case TL_I8: r.i = (int8_t)u; break;
    case TL_I16: r.i = (int16_t)u; break;
    case TL_I32: r.i = (int32_t)u; break;
    case TL_I64: r.i = (int64_t)u; break;
    case TL_U8: r.u = (uint8_t)u; break;
    case TL_U16: r.u = (uint16_t)u; break;
    case TL_U32: r.u = (uint32_t)u; break;
    default: r.u = u; break;
    }
    return r;
}
/* x rounded to the float dtype t (to nearest, ties to even) */
static double rnd(tl_dtype t, double x) {
    switch (t) {
    case TL_F16: return tile_f16_to(tile_f16_from(x));
    case TL_BF16: return tile_bf16_to(tile_bf16_from(x));
    case TL_F32: return (double)(float)x;
    default: return x;
    }
}
/* one unit in the last place of t at magnitude |x| */
static double ulp_of(tl_dtype t, double x) {
    int mant = t == TL_F16 ? 10 : t == TL_BF16 ? 7 : t == TL_F32 ? 23 : 52;
    int emin = t == TL_F16 ? -14 : t == TL_BF16 || t == TL_F32 ? -126 : -1022;
    double a = fabs(x);
    int e = (a == 0 || !isfinite(a)) ? emin : ilogb(a);
    if (e < emin) e = emin;
    return ldexp(1.0, e - mant);
}

static void show(char *buf, size_t n, tl_dtype t, val v) {
    if (dt_float(t)) snprintf(buf, n, "%.9g", v.f);
    else if (dt_signed(t)) snprintf(buf, n, "%lld", (long long)v.i);
    else snprintf(buf, n, "%llu", (unsigned long long)v.u);
}

/* ---- the ops ------------------------------------------------------------------ */
#define OPS(X)                                                                         \
    X(ADD, 2) X(SUB, 2) X(MUL, 2) X(DIV, 2) X(FLOORDIV, 2) X(MOD, 2) X(CDIV, 2)        \
    X(MINIMUM, 2) X(MAXIMUM, 2) X(EQ, 2) X(NE, 2) X(LT, 2) X(LE, 2) X(GT, 2) X(GE, 2)  \
    X(AND, 2) X(OR, 2) X(XOR, 2) X(SHL, 2) X(SHR, 2) X(LAND, 2) X(LOR, 2)              \
    X(NEG, 1) X(ABS, 1) X(NOT, 1) X(WHERE, 3) X(FMA, 3) X(CLAMP, 3) X(CLAMP_NAN, 3)    \
    X(EXP, 1) X(EXP2, 1) X(LOG, 1) X(LOG2, 1) X(SQRT, 1) X(RSQRT, 1) X(SIN, 1)         \
    X(COS, 1) X(TANH, 1) X(SIGMOID, 1) X(ERF, 1) X(FLOOR, 1) X(CEIL, 1)
enum {
#define OP_ENUM(name, arity) OP_##name,
    OPS(OP_ENUM)
#undef OP_ENUM
    OP_COUNT
};
static const char *const op_name[] = {
#define OP_NAME(name, arity) #name,
    OPS(OP_NAME)
#undef OP_NAME
};
static int is_cmp(int op) { return op >= OP_EQ && op <= OP_GE; }
static int is_math(int op) { return op >= OP_EXP; }
static int is_transcendental(int op) { return is_math(op) && op != OP_SQRT && op != OP_FLOOR && op != OP_CEIL; }

static tl_t apply_op(int op, tl_t a, tl_t b, tl_t c) {
    switch (op) {
    case OP_ADD: return tl_add(a, b);
    case OP_SUB: return tl_sub(a, b);
    case OP_MUL: return tl_mul(a, b);
    case OP_DIV: return tl_div(a, b);
    case OP_FLOORDIV: return tl_floordiv(a, b);
    case OP_MOD: return tl_mod(a, b);
    case OP_CDIV: return tl_cdiv(a, b);
    case OP_MINIMUM: return tl_minimum(a, b);
    case OP_MAXIMUM: return tl_maximum(a, b);
    case OP_EQ: return tl_eq(a, b);
    case OP_NE: return tl_ne(a, b);
    case OP_LT: return tl_lt(a, b);
    case OP_LE: return tl_le(a, b);
    case OP_GT: return tl_gt(a, b);
    case OP_GE: return tl_ge(a, b);
    case OP_AND: return tl_and(a, b);
    case OP_OR: return tl_or(a, b);
    case OP_XOR: return tl_xor(a, b);
    case OP_SHL: return tl_shl(a, b);
    case OP_SHR: return tl_shr(a, b);
    case OP_LAND: return tl_logical_and(a, b);
    case OP_LOR: return tl_logical_or(a, b);
    case OP_NEG: return tl_neg(a);
    case OP_ABS: return tl_abs(a);
    case OP_NOT: return tl_not(a);
    case OP_WHERE: return tl_where(a, b, c);
    case OP_FMA: return tl_fma(a, b, c);
    case OP_CLAMP: return tl_clamp(a, b, c);
    case OP_CLAMP_NAN: return tl_clamp(a, b, c, .propagate_nan = TL_PROPAGATE_NAN_ALL);
    case OP_EXP: return tl_exp(a);
    case OP_EXP2: return tl_exp2(a);
    case OP_LOG: return tl_log(a);
    case OP_LOG2: return tl_log2(a);
    case OP_SQRT: return tl_sqrt(a);
    case OP_RSQRT: return tl_rsqrt(a);
    case OP_SIN: return tl_sin(a);
    case OP_COS: return tl_cos(a);
    case OP_TANH: return tl_tanh(a);
    case OP_SIGMOID: return tl_sigmoid(a);
    case OP_ERF: return tl_erf(a);
    case OP_FLOOR: return tl_floor(a);
    default: return tl_ceil(a);
    }
}

/* Does Triton accept op on two tiles of dtype t? (everything else must be
   TILE_ERR_DTYPE) */
static int op_allowed(int op, tl_dtype t) {
    if (dt_float(t))
        return !(op == OP_FLOORDIV || op == OP_CDIV || (op >= OP_AND && op <= OP_SHR) || op == OP_NOT);
    return !(op == OP_FMA || is_math(op));
}
/* Triton's result dtype (semantic.py: computation_type_impl, truediv):
   comparisons and logical ops give i1; int / int is f32; / and % of f16 or
   bf16 tiles compute in f32 ("do not exist natively in PTX for fp16"). */
static tl_dtype op_dtype(int op, tl_dtype t) {
    if (is_cmp(op) || op == OP_LAND || op == OP_LOR) return TL_I1;
    if (op == OP_DIV && !dt_float(t)) return TL_F32;
    if ((op == OP_DIV || op == OP_MOD) && (t == TL_F16 || t == TL_BF16)) return TL_F32;
    return t;
}

/* ---- the kernels: one per dtype, the op chosen by the meta-parameter OP ------- */
static tl_dtype traced_dtype[TL_DTYPE_COUNT_][OP_COUNT];

static void ew_body(tl_dtype t, tl_t x, tl_t y, tl_t z, tl_t out, tl_t outb, tl_t outf, tl_t n) {
    int op = TL_META(OP), block = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), block), tl_arange(0, block));
    tl_t m = tl_lt(offs, n);
    tl_t a = tl_load(tl_add(x, offs), .mask = m);
    tl_t b = tl_load(tl_add(y, offs), .mask = m);
    tl_t c = tl_load(tl_add(z, offs), .mask = m);
    tl_t r = apply_op(op, a, b, c);
    tl_dtype rt = tl_dtype_of(r);
    traced_dtype[t][op] = rt;
    if (rt == t) tl_store(tl_add(out, offs), r, .mask = m);
    else if (rt == TL_I1) tl_store(tl_add(outb, offs), r, .mask = m);
    else if (rt == TL_F32) tl_store(tl_add(outf, offs), r, .mask = m);
}
#define EW_KERNEL(T, DT)                                                                      \
    TILE_KERNEL(ew_##T, (tl_ptr_##T, x), (tl_ptr_##T, y), (tl_ptr_##T, z), (tl_ptr_##T, out), \
                (tl_ptr_i1, outb), (tl_ptr_f32, outf), (tl_i32, n)) {                         \
        ew_body(DT, x, y, z, out, outb, outf, n);                                             \
    }
EW_KERNEL(i8, TL_I8)
EW_KERNEL(i16, TL_I16)
EW_KERNEL(i32, TL_I32)
EW_KERNEL(i64, TL_I64)
EW_KERNEL(u8, TL_U8)
EW_KERNEL(u16, TL_U16)
EW_KERNEL(u32, TL_U32)
EW_KERNEL(u64, TL_U64)
EW_KERNEL(f16, TL_F16)
EW_KERNEL(bf16, TL_BF16)
EW_KERNEL(f32, TL_F32)
EW_KERNEL(f64, TL_F64)

#define EW_DTYPES(X)                                                                          \
    X(i8, TL_I8, int8_t) X(i16, TL_I16, int16_t) X(i32, TL_I32, int32_t) X(i64, TL_I64, int64_t) \
    X(u8, TL_U8, uint8_t) X(u16, TL_U16, uint16_t) X(u32, TL_U32, uint32_t)                   \
    X(u64, TL_U64, uint64_t) X(f16, TL_F16, tile_f16) X(bf16, TL_BF16, tile_bf16)             \
    X(f32, TL_F32, float) X(f64, TL_F64, double)

static tile_status launch_ew(tl_dtype t, int op, int n, void *x, void *y, void *z, void *out, uint8_t *outb, float *outf) {
    const tile_launch *o = TILE_OPTS(.grid = {tile_cdiv(n, 256)}, .meta = {{"OP", op}, {"BLOCK", 256}});
    switch (t) {
#define EW_LAUNCH(T, DT, C) \
    case DT: return ew_##T(o, (C *)x, (C *)y, (C *)z, (C *)out, outb, outf, n);
        EW_DTYPES(EW_LAUNCH)
#undef EW_LAUNCH
    default: return TILE_ERR_INTERNAL;
    }
}
static void release_ew(void) {
#define EW_RELEASE(T, DT, C) tile_kernel_release(TILE_KERNEL_OF(ew_##T));
    EW_DTYPES(EW_RELEASE)
#undef EW_RELEASE
}

/* ---- the reference -------------------------------------------------------------- */
/* a*b + c rounded to odd at 53 bits: exact for a*b (inputs of <= 26 bits), so
   rounding it again to a format of <= 51 bits is one correct rounding */
static double fma_odd(double a, double b, double c) {
    double p = a * b, s = p + c;
    if (!isfinite(s)) return s;
    double bv = s - p, av = s - bv, e = (p - av) + (c - bv);
    if (e == 0) return s;
    double t = ((e > 0) == (s > 0)) ? s : nextafter(s, 0.0);
    uint64_t u;
    memcpy(&u, &t, 8);
    u |= 1;
    memcpy(&t, &u, 8);
    return t;
}
static double ref_math(int op, double v) {
    switch (op) {
    case OP_EXP: return exp(v);
    case OP_EXP2: return exp2(v);
    case OP_LOG: return log(v);
    case OP_LOG2: return log2(v);
    case OP_SQRT: return sqrt(v);
    case OP_RSQRT: return 1.0 / sqrt(v);
    case OP_SIN: return sin(v);
    case OP_COS: return cos(v);
    case OP_TANH: return tanh(v);
    case OP_SIGMOID: return 1.0 / (1.0 + exp(-v));
    case OP_ERF: return erf(v);
    case OP_FLOOR: return floor(v);
    default: return ceil(v);
    }
}
static int icmp(int op, int sg, val a, val b) {
    int lt = sg ? a.i < b.i : a.u < b.u, eq = a.u == b.u;
    switch (op) {
    case OP_EQ: return eq;
    case OP_NE: return !eq;
    case OP_LT: return lt;
    case OP_LE: return lt || eq;
    case OP_GT: return !lt && !eq;
    default: return !lt;
    }
}
static int fcmp(int op, double a, double b) {
    switch (op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    default: return a >= b;
    }
}
/* C division as the library defines it: x / 0 = -1 (all ones), MIN / -1 wraps */
static val idiv(tl_dtype t, val a, val b) {
    if (b.u == 0) return wrap(t, ~0ull);
    if (dt_signed(t)) return b.i == -1 ? wrap(t, 0 - a.u) : wrap(t, (uint64_t)(a.i / b.i));
    return wrap(t, a.u / b.u);
}
static val imod(tl_dtype t, val a, val b) {
    if (b.u == 0) return a;
    if (dt_signed(t)) return b.i == -1 ? wrap(t, 0) : wrap(t, (uint64_t)(a.i % b.i));
    return wrap(t, a.u % b.u);
}
static float to_f32(tl_dtype t, val a) { return dt_float(t) ? (float)a.f : dt_signed(t) ? (float)a.i : (float)a.u; }

/* The expected value of one lane of op on dtype t, as a value of dtype rt;
   *ulps is the tolerance in ulps of rt (0: exact). */
static val ref_lane(int op, tl_dtype t, tl_dtype rt, val a, val b, val c, int *ulps) {
    val r;
    r.u = 0;
    *ulps = 0;
    if (is_cmp(op)) {
        r.u = dt_float(t) ? (uint64_t)fcmp(op, a.f, b.f) : (uint64_t)icmp(op, dt_signed(t), a, b);
        return r;
    }
    if (op == OP_LAND || op == OP_LOR) {
        int ta = dt_float(t) ? a.f != 0 : a.u != 0, tb = dt_float(t) ? b.f != 0 : b.u != 0;
        r.u = op == OP_LAND ? (ta && tb) : (ta || tb);
        return r;
    }
    if (!dt_float(t)) {
        int sg = dt_signed(t), w = dt_bits(t);
        switch (op) {
        case OP_ADD: return wrap(t, a.u + b.u);
        case OP_SUB: return wrap(t, a.u - b.u);
        case OP_MUL: return wrap(t, a.u * b.u);
        case OP_DIV: r.f = (double)(to_f32(t, a) / to_f32(t, b)); return r;
        case OP_FLOORDIV: return idiv(t, a, b);
        case OP_MOD: return imod(t, a, b);
        case OP_CDIV: return idiv(t, wrap(t, a.u + b.u - 1), b);
        case OP_MINIMUM: return icmp(OP_LT, sg, b, a) ? b : a;
        case OP_MAXIMUM: return icmp(OP_GT, sg, b, a) ? b : a;
        case OP_AND: return wrap(t, a.u & b.u);
        case OP_OR: return wrap(t, a.u | b.u);
        case OP_XOR: return wrap(t, a.u ^ b.u);
        case OP_SHL: return b.u >= (uint64_t)w ? wrap(t, 0) : wrap(t, a.u << b.u);
        case OP_SHR:
            if (sg) return b.u >= (uint64_t)w ? wrap(t, a.i < 0 ? ~0ull : 0) : wrap(t, (uint64_t)(a.i >> b.u));
            return b.u >= (uint64_t)w ? wrap(t, 0) : wrap(t, a.u >> b.u);
        case OP_NEG: return wrap(t, 0 - a.u);
        case OP_ABS: return sg && a.i < 0 ? wrap(t, 0 - a.u) : a;
        case OP_NOT: return wrap(t, ~a.u);
        case OP_WHERE: return a.u ? b : c;
        case OP_CLAMP: case OP_CLAMP_NAN: {   /* an integer has no NaN: the option changes nothing */
            val m = icmp(OP_GT, sg, b, a) ? b : a;
            return icmp(OP_LT, sg, c, m) ? c : m;
        }
        default: return r;
        }
    }
    double x = a.f, y = b.f, z = c.f;
    if (rt == TL_F32 && t != TL_F32) {
        /* / and % of f16/bf16 tiles, computed in f32 as Triton does */
        r.f = op == OP_DIV ? (double)((float)x / (float)y) : (double)fmodf((float)x, (float)y);
        return r;
    }
    switch (op) {
    case OP_ADD: r.f = rnd(rt, x + y); break;
    case OP_SUB: r.f = rnd(rt, x - y); break;
    case OP_MUL: r.f = rnd(rt, x * y); break;
    case OP_DIV: r.f = rnd(rt, x / y); break;
    case OP_MOD: r.f = fmod(x, y); break;
    case OP_MINIMUM: r.f = fmin(x, y); break;
    case OP_MAXIMUM: r.f = fmax(x, y); break;
    case OP_NEG: r.f = -x; break;
    case OP_ABS: r.f = fabs(x); break;
    case OP_WHERE: r.f = x != 0 ? y : z; break;
    case OP_FMA:
        r.f = t == TL_F64 ? fma(x, y, z) : t == TL_F32 ? (double)fmaf((float)x, (float)y, (float)z) : rnd(t, fma_odd(x, y, z));
        break;
    /* C's fmax and fmin are IEEE maxNum and minNum: a NaN loses (lo for a NaN x); with
       propagate_nan a NaN anywhere gives NaN. lo > hi gives hi. */
    case OP_CLAMP: r.f = fmin(fmax(x, y), z); break;
    case OP_CLAMP_NAN: r.f = x != x || y != y || z != z ? NAN : fmin(fmax(x, y), z); break;
    default:
        r.f = rnd(rt, ref_math(op, x));
        if (is_transcendental(op)) *ulps = rt == TL_F16 || rt == TL_BF16 ? 1 : 2;
        /* 1 / (1 + exp(-x)): exp's 2 ulp, then the add and the division (3 ulp seen
           on the H200 through NVRTC at x = -17.3) */
        if (op == OP_SIGMOID && (rt == TL_F32 || rt == TL_F64)) *ulps = 4;
        break;
    }
    return r;
}
static int same_lane(tl_dtype rt, val got, val want, int ulps) {
    if (!dt_float(rt)) return got.u == want.u;
    if (want.f != want.f) return got.f != got.f;
    if (isinf(want.f)) return got.f == want.f;
    return fabs(got.f - want.f) <= ulps * ulp_of(rt, want.f);
}

/* ---- inputs ---------------------------------------------------------------------- */
static uint64_t imin_bits(tl_dtype t) { return dt_signed(t) ? (uint64_t)1 << (dt_bits(t) - 1) : 0; }
static uint64_t imax_bits(tl_dtype t) {
    int w = dt_bits(t);
    uint64_t all = w == 64 ? ~0ull : (((uint64_t)1 << w) - 1);
    return dt_signed(t) ? all >> 1 : all;
}
static val gen_int(tl_dtype t) {
    int r = (int)tt_int(0, 15);
    if (r < 3) {
        uint64_t edge[] = {0, 1, ~0ull, imin_bits(t), imax_bits(t), imin_bits(t) + 1, imax_bits(t) - 1, 2};
        return wrap(t, edge[tt_int(0, 7)]);
    }
    if (r < 9) return wrap(t, (uint64_t)tt_int(dt_signed(t) ? -20 : 0, 40));
    return wrap(t, tt_next());
}
static double gen_special(tl_dtype t) {
    double big = t == TL_F16 ? 65504.0 : t == TL_BF16 ? 0x1.fep127 : t == TL_F32 ? FLT_MAX : DBL_MAX;
    double tiny = t == TL_F16 ? 0x1p-24 : t == TL_BF16 ? 0x1p-133 : t == TL_F32 ? 0x1p-149 : 0x1p-1074;
    double s[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, big, -big, tiny, -tiny, 1.0, -1.0};
    return s[tt_int(0, 10)];
}
static double gen_float(tl_dtype t) {
    if (tt_int(0, 19) == 0) return gen_special(t);
    return rnd(t, tt_normal() * pow(10.0, (double)tt_int(-2, 2)));
}
/* the interval each math function is sampled on */
static void math_domain(int op, tl_dtype t, double *lo, double *hi) {
    int h = t == TL_F16;
    switch (op) {
    case OP_EXP: *lo = h ? -10 : -80; *hi = h ? 10 : 80; break;
    case OP_EXP2: *lo = h ? -20 : -120; *hi = h ? 15 : 120; break;
    case OP_LOG: case OP_LOG2: case OP_SQRT: case OP_RSQRT: *lo = 0; *hi = h ? 1000 : 1e6; break;
    case OP_SIN: case OP_COS: *lo = h ? -10 : -50; *hi = -*lo; break;
    case OP_TANH: *lo = -10; *hi = 10; break;
    case OP_SIGMOID: *lo = -30; *hi = 30; break;
    case OP_ERF: *lo = -4; *hi = 4; break;
    default: *lo = h ? -2000 : -1e6; *hi = -*lo; break;
    }
}

static void gen_inputs(int op, tl_dtype t, int n, val *x, val *y, val *z) {
    int w = dt_bits(t), sg = dt_signed(t);
    for (int k = 0; k < n; k++) {
        if (dt_float(t)) {
            if (is_math(op)) {
                double lo, hi;
                math_domain(op, t, &lo, &hi);
                x[k].f = rnd(t, tt_uniform(lo, hi));
            } else {
                x[k].f = gen_float(t);
            }
            y[k].f = gen_float(t);
            z[k].f = gen_float(t);
            if (op == OP_WHERE && tt_int(0, 1)) x[k].f = 0.0;
            if (op == OP_FMA) {
                x[k].f = rnd(t, tt_normal() * 4);
                y[k].f = rnd(t, tt_normal() * 4);
                z[k].f = rnd(t, tt_normal() * 4);
            }
            if (op == OP_CLAMP || op == OP_CLAMP_NAN) {
                /* x a special one time in four, each bound one time in eight */
                x[k].f = tt_int(0, 3) ? rnd(t, tt_normal() * 4) : gen_special(t);
                y[k].f = tt_int(0, 7) ? rnd(t, tt_normal() * 4) : gen_special(t);
                z[k].f = tt_int(0, 7) ? rnd(t, tt_normal() * 4) : gen_special(t);
            }
        } else {
            x[k] = gen_int(t);
            y[k] = gen_int(t);
            z[k] = gen_int(t);
            if (op == OP_SHL || op == OP_SHR) {
                int r = (int)tt_int(0, 15);
                y[k] = wrap(t, (uint64_t)(r == 0 ? tt_int(w, w + 3) : r == 1 && sg ? tt_int(-3, -1) : tt_int(0, w - 1)));
            }
            if (op == OP_WHERE && tt_int(0, 1)) x[k].u = 0;
        }
        if (op == OP_CLAMP || op == OP_CLAMP_NAN) {
            /* lo <= hi but one time in eight */
            int swap = tt_int(0, 7) && (dt_float(t) ? y[k].f > z[k].f : icmp(OP_GT, sg, y[k], z[k]));
            if (swap) {
                val s = y[k];
                y[k] = z[k];
                z[k] = s;
            }
        }
    }
    if (dt_float(t) && is_math(op)) {
        /* the special operands of every function */
        double s[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5};
        for (int k = 0; k < 8 && k < n; k++) x[k].f = s[k];
    } else if (dt_float(t) && (op == OP_CLAMP || op == OP_CLAMP_NAN)) {
        /* a NaN, an infinity or a zero in each place, bounds crossed */
        double s[][3] = {{NAN, -1.0, 1.0},   {0.5, NAN, 1.0},       {0.5, -1.0, NAN},     {NAN, NAN, 1.0},       {NAN, -1.0, NAN},
                         {NAN, NAN, NAN},    {3.0, NAN, NAN},       {INFINITY, -1.0, 1.0}, {-INFINITY, -1.0, 1.0}, {2.0, -INFINITY, INFINITY},
                         {NAN, -INFINITY, INFINITY}, {-2.0, INFINITY, INFINITY}, {2.0, 3.0, 1.0}, {-0.0, 0.0, 1.0}, {0.0, -1.0, -0.0},
                         {-5.0, 1.0, NAN}};
        for (int k = 0; k < 16 && k < n; k++) {
            x[k].f = s[k][0];
            y[k].f = s[k][1];
            z[k].f = s[k][2];
        }
    } else if (dt_float(t) && op != OP_FMA) {
        /* NaN loses in minimum/maximum, is unordered in comparisons */
        double s[][2] = {{NAN, 1.0}, {1.0, NAN}, {NAN, NAN}, {INFINITY, -INFINITY}, {-INFINITY, NAN},
                         {-0.0, 0.0}, {2.0, 0.0}, {0.0, 0.0}, {-3.0, 2.0}, {3.0, -2.0}};
        for (int k = 0; k < 10 && k < n; k++) {
            x[k].f = s[k][0];
            y[k].f = s[k][1];
        }
    } else if (!dt_float(t) && (op == OP_FLOORDIV || op == OP_MOD || op == OP_CDIV || op == OP_DIV)) {
        /* truncation toward zero, the dividend's sign, x / 0, MIN / -1 */
        int64_t s[][2] = {{INT64_MIN, -1}, {INT64_MIN, 1}, {INT64_MAX, -1}, {5, 0}, {0, 0},
                          {-7, 2}, {7, -2}, {-7, -2}, {-8, 3}, {9, 4}, {-1, 0}, {0, 5}};
        for (int k = 0; k < 12 && k < n; k++) {
            x[k] = s[k][0] == INT64_MIN ? wrap(t, imin_bits(t)) : s[k][0] == INT64_MAX ? wrap(t, imax_bits(t)) : wrap(t, (uint64_t)s[k][0]);
            y[k] = wrap(t, (uint64_t)s[k][1]);
        }
    }
    if (op == OP_FMA && t == TL_F32 && n > 0) {
        /* a*b = 1 + 2^-11 + 2^-24 is an f32 tie; c = 2^-80 breaks it upward, but
           only for a single rounding (in double the 2^-80 is lost first) */
        x[0].f = 1 + 0x1p-12;
        y[0].f = 1 + 0x1p-12;
        z[0].f = 0x1p-80;
    }
    if (op == OP_FMA && t == TL_BF16 && n > 0) {
        /* the same for bf16: a*b = 1 + 2^-3 + 2^-8 is a bf16 tie */
        x[0].f = 1 + 0x1p-4;
        y[0].f = 1 + 0x1p-4;
        z[0].f = 0x1p-100;
    }
}

/* ---- one op on one dtype -------------------------------------------------------------- */
#define NMAX 1024
typedef struct bufs {
    void *x, *y, *z, *out;     /* device: 8 * NMAX bytes each */
    uint8_t *outb;
    float *outf;
    unsigned char hx[8 * NMAX], hy[8 * NMAX], hz[8 * NMAX], hout[8 * NMAX], houtb[NMAX], houtf[4 * NMAX];
    val vx[NMAX], vy[NMAX], vz[NMAX];
} bufs;

static void silent_log(const tile_error *e, void *user) { (void)e; (void)user; }

static int poisoned(const unsigned char *p, size_t from, size_t to) {
    for (size_t k = from; k < to; k++)
        if (p[k] != 0xA5) return 0;
    return 1;
}

static void run_op(bufs *B, tl_dtype t, int op) {
    const char *tn = tile_dtype_name(t);
    if (!op_allowed(op, t)) {
        tile_set_log(silent_log, NULL);
        tile_status st = launch_ew(t, op, 64, B->x, B->y, B->z, B->out, B->outb, B->outf);
        tile_set_log(NULL, NULL);
        TT_CHECK(st == TILE_ERR_DTYPE, "%s on %s: got %s, want TILE_ERR_DTYPE", op_name[op], tn, tile_status_id(st));
        return;
    }
    int n = (int)tt_int(600, NMAX);
    size_t es = tile_dtype_size(t);
    gen_inputs(op, t, n, B->vx, B->vy, B->vz);
    for (int k = 0; k < n; k++) {
        tt_put(t, B->hx, (size_t)k, B->vx[k]);
        tt_put(t, B->hy, (size_t)k, B->vy[k]);
        tt_put(t, B->hz, (size_t)k, B->vz[k]);
    }
    TT_OK(tile_memcpy_htod(B->x, B->hx, (size_t)n * es));
    TT_OK(tile_memcpy_htod(B->y, B->hy, (size_t)n * es));
    TT_OK(tile_memcpy_htod(B->z, B->hz, (size_t)n * es));
    tt_poison(B->out, 8 * NMAX);
    tt_poison(B->outb, NMAX);
    tt_poison(B->outf, 4 * NMAX);
    tile_status st = launch_ew(t, op, n, B->x, B->y, B->z, B->out, B->outb, B->outf);
    TT_CHECK(st == TILE_OK, "%s on %s: launch returned %s: %s", op_name[op], tn, tile_status_id(st), tile_last_error());
    if (st != TILE_OK) return;
    TT_OK(tile_memcpy_dtoh(B->hout, B->out, 8 * NMAX));
    TT_OK(tile_memcpy_dtoh(B->houtb, B->outb, NMAX));
    TT_OK(tile_memcpy_dtoh(B->houtf, B->outf, 4 * NMAX));

    tl_dtype rt = traced_dtype[t][op], want_rt = op_dtype(op, t);
    TT_CHECK(rt == want_rt, "%s on two %s tiles gives %s, Triton gives %s", op_name[op], tn, tile_dtype_name(rt),
             tile_dtype_name(want_rt));
    const unsigned char *res = rt == t ? B->hout : rt == TL_I1 ? B->houtb : rt == TL_F32 ? B->houtf : NULL;
    TT_CHECK(res != NULL, "%s on %s: result dtype %s was not stored", op_name[op], tn, tile_dtype_name(rt));
    if (!res) return;
    /* the lanes past n and the outputs not written keep their poison */
    size_t rs = tile_dtype_size(rt);
    TT_CHECK(poisoned(res, (size_t)n * rs, NMAX * rs), "%s on %s: masked-off lanes were written", op_name[op], tn);
    TT_CHECK((res == B->hout || poisoned(B->hout, 0, 8 * NMAX)) && (res == B->houtb || poisoned(B->houtb, 0, NMAX)) &&
                 (res == B->houtf || poisoned(B->houtf, 0, 4 * NMAX)),
             "%s on %s: an output it does not produce was written", op_name[op], tn);
    int bad = 0;
    for (int k = 0; k < n; k++) {
        int ulps;
        val want = ref_lane(op, t, rt, B->vx[k], B->vy[k], B->vz[k], &ulps), got = tt_get(rt, res, (size_t)k);
        tt_checks++;
        if (!same_lane(rt, got, want, ulps)) {
            if (bad < 4) {
                char sa[40], sb[40], sc[40], sg[40], sw[40];
                show(sa, sizeof sa, t, B->vx[k]);
                show(sb, sizeof sb, t, B->vy[k]);
                show(sc, sizeof sc, t, B->vz[k]);
                show(sg, sizeof sg, rt, got);
                show(sw, sizeof sw, rt, want);
                printf("FAIL %s %s lane %d: (%s, %s, %s) -> %s, want %s (%d ulp)\n", tn, op_name[op], k, sa, sb, sc, sg, sw, ulps);
            }
            bad++;
        }
    }
    if (bad) {
        tt_failures++;
        printf("FAIL %s %s: %d of %d lanes differ\n", tn, op_name[op], bad, n);
    }
}

/* ---- the same ops on constants, so the folder computes them ------------------------
   Each build takes its operands from fold_in (C values read while the body is
   traced) as typed constants; the meta-parameter SEQ forces a fresh build. */
#define FOLD_N 16
static val fold_in[3][FOLD_N];
static tl_dtype fold_traced;

static tl_t const_of(tl_dtype t, val v) {
    if (dt_float(t)) return tl_cast(v.f, t);
    if (dt_signed(t)) return tl_cast((long long)v.i, t);
    return tl_cast((unsigned long long)v.u, t);
}
static void fold_body(tl_dtype t, tl_t out, tl_t outb, tl_t outf) {
    int op = TL_META(OP);
    (void)TL_META(SEQ);
    for (int k = 0; k < FOLD_N; k++) {
        tl_t r = apply_op(op, const_of(t, fold_in[0][k]), const_of(t, fold_in[1][k]), const_of(t, fold_in[2][k]));
        tl_dtype rt = tl_dtype_of(r);
        fold_traced = rt;
        if (rt == t) tl_store(tl_add(out, k), r);
        else if (rt == TL_I1) tl_store(tl_add(outb, k), r);
        else if (rt == TL_F32) tl_store(tl_add(outf, k), r);
    }
}
#define FOLD_KERNEL(T, DT, C) \
    TILE_KERNEL(fold_##T, (tl_ptr_##T, out), (tl_ptr_i1, outb), (tl_ptr_f32, outf)) { fold_body(DT, out, outb, outf); }
EW_DTYPES(FOLD_KERNEL)
#undef FOLD_KERNEL

static void run_fold(bufs *B, tl_dtype t, int op, int seq) {
    if (!op_allowed(op, t)) return;
    const char *tn = tile_dtype_name(t);
    gen_inputs(op, t, FOLD_N, fold_in[0], fold_in[1], fold_in[2]);
    tt_poison(B->out, 8 * NMAX);
    tt_poison(B->outb, NMAX);
    tt_poison(B->outf, 4 * NMAX);
    const tile_launch *o = TILE_OPTS(.meta = {{"OP", op}, {"SEQ", seq}});
    tile_status st = TILE_ERR_INTERNAL;
    switch (t) {
#define FOLD_LAUNCH(T, DT, C) \
    case DT: st = fold_##T(o, (C *)B->out, B->outb, B->outf); break;
        EW_DTYPES(FOLD_LAUNCH)
#undef FOLD_LAUNCH
    default: break;
    }
    TT_CHECK(st == TILE_OK, "folded %s on %s: launch returned %s: %s", op_name[op], tn, tile_status_id(st), tile_last_error());
    if (st != TILE_OK) return;
    tl_dtype rt = fold_traced;
    TT_CHECK(rt == op_dtype(op, t), "folded %s on %s constants gives %s, Triton gives %s", op_name[op], tn,
             tile_dtype_name(rt), tile_dtype_name(op_dtype(op, t)));
    TT_OK(tile_memcpy_dtoh(B->hout, B->out, 8 * NMAX));
    TT_OK(tile_memcpy_dtoh(B->houtb, B->outb, NMAX));
    TT_OK(tile_memcpy_dtoh(B->houtf, B->outf, 4 * NMAX));
    const unsigned char *res = rt == t ? B->hout : rt == TL_I1 ? B->houtb : rt == TL_F32 ? B->houtf : NULL;
    if (!res) return;
    int bad = 0;
    for (int k = 0; k < FOLD_N; k++) {
        int ulps;
        val want = ref_lane(op, t, rt, fold_in[0][k], fold_in[1][k], fold_in[2][k], &ulps), got = tt_get(rt, res, (size_t)k);
        tt_checks++;
        if (!same_lane(rt, got, want, ulps)) {
            if (bad < 3) {
                char sa[40], sb[40], sc[40], sg[40], sw[40];
                show(sa, sizeof sa, t, fold_in[0][k]);
                show(sb, sizeof sb, t, fold_in[1][k]);
                show(sc, sizeof sc, t, fold_in[2][k]);
                show(sg, sizeof sg, rt, got);
                show(sw, sizeof sw, rt, want);
                printf("FAIL folded %s %s #%d: (%s, %s, %s) -> %s, want %s\n", tn, op_name[op], k, sa, sb, sc, sg, sw);
            }
            bad++;
        }
    }
    if (bad) {
        tt_failures++;
        printf("FAIL folded %s %s: %d of %d constants differ\n", tn, op_name[op], bad, FOLD_N);
    }
}

/* ---- scalars mixed with tiles: the weak-literal rules ------------------------------- */
enum {
    MX_F16_PLUS_LIT, MX_LIT_MINUS_F16, MX_F16_TIMES_INT, MX_BF16_PLUS_LIT, MX_I8_PLUS_1, MX_I8_TIMES_NEG3,
    MX_I32_TIMES_HALF, MX_I32_PLUS_FLT, MX_I64_PLUS_FLT, MX_U32_PLUS_I32, MX_F16_PLUS_BF16, MX_BOOL_PLUS_INT,
    MX_BOOL_PLUS_U32LIT, MX_F16_PLUS_F32ARG, MX_I8_PLUS_I32ARG, MX_I8_PLUS_I32, MX_U32_PLUS_I64, MX_F16_PLUS_F32,
    MX_F16_DIV_LIT, MX_WHERE_F16_LIT, MX_MAX_F16_INT, MX_ARG_TIMES_LIT, MX_LIT_PLUS_LIT, MX_INT_LIT_PLUS_FLT_LIT,
    MX_FMA_F16_LITS, MX_LAND_CMP, MX_NOT_CMP, MX_AND_CMP, MX_CLAMP_I8_LITS, MX_COUNT
};
static const char *const mx_name[] = {
    "f16 + 0.1", "0.1 - f16", "f16 * 3", "bf16 + 0.1", "i8 + 1", "i8 * -3", "i32 * 0.5", "i32 + 2.5", "i64 + 1.5",
    "u32 + i32", "f16 + bf16", "bool + 1", "bool + 3000000000", "f16 + f32 arg", "i8 + i32 arg", "i8 + i32",
    "u32 + i64", "f16 + f32", "f16 / 2.0", "where(c, f16, 0.1)", "maximum(f16, 1)", "f32 arg * 2", "1 + 2",
    "1 + 2.5", "fma(f16, 2.0, 0.1)", "logical_and(i32 > 0, i32 < 9)", "not(i32 > 0)", "(i32 > 0) & (i8 < 0)",
    "clamp(i8, -5, 5)"};
static tl_dtype mix_traced[MX_COUNT];

TILE_KERNEL(mix_kernel, (tl_ptr_f16, ph), (tl_ptr_bf16, pb), (tl_ptr_i8, pi8), (tl_ptr_i32, pi32), (tl_ptr_u32, pu32),
            (tl_ptr_f32, pf32), (tl_ptr_i64, pi64), (tl_ptr_f64, od), (tl_ptr_i64, oi), (tl_f32, s), (tl_i32, k),
            (tl_i32, n)) {
    int c = TL_META(CASE), block = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), block), tl_arange(0, block));
    tl_t m = tl_lt(offs, n);
    tl_t h = tl_load(tl_add(ph, offs), .mask = m), b = tl_load(tl_add(pb, offs), .mask = m);
    tl_t i8 = tl_load(tl_add(pi8, offs), .mask = m), i32 = tl_load(tl_add(pi32, offs), .mask = m);
    tl_t u32 = tl_load(tl_add(pu32, offs), .mask = m), f32 = tl_load(tl_add(pf32, offs), .mask = m);
    tl_t i64 = tl_load(tl_add(pi64, offs), .mask = m);
    tl_t r;
    switch (c) {
    case MX_F16_PLUS_LIT: r = tl_add(h, 0.1); break;
    case MX_LIT_MINUS_F16: r = tl_sub(0.1, h); break;
    case MX_F16_TIMES_INT: r = tl_mul(h, 3); break;
    case MX_BF16_PLUS_LIT: r = tl_add(b, 0.1); break;
    case MX_I8_PLUS_1: r = tl_add(i8, 1); break;
    case MX_I8_TIMES_NEG3: r = tl_mul(i8, -3); break;
    case MX_I32_TIMES_HALF: r = tl_mul(i32, 0.5); break;
    case MX_I32_PLUS_FLT: r = tl_add(i32, 2.5); break;
    case MX_I64_PLUS_FLT: r = tl_add(i64, 1.5); break;
    case MX_U32_PLUS_I32: r = tl_add(u32, i32); break;
    case MX_F16_PLUS_BF16: r = tl_add(h, b); break;
    case MX_BOOL_PLUS_INT: r = tl_add(tl_gt(i32, 0), 1); break;
    case MX_BOOL_PLUS_U32LIT: r = tl_add(tl_gt(i32, 0), 3000000000u); break;
    case MX_F16_PLUS_F32ARG: r = tl_add(h, s); break;
    case MX_I8_PLUS_I32ARG: r = tl_add(i8, k); break;
    case MX_I8_PLUS_I32: r = tl_add(i8, i32); break;
    case MX_U32_PLUS_I64: r = tl_add(u32, i64); break;
    case MX_F16_PLUS_F32: r = tl_add(h, f32); break;
    case MX_F16_DIV_LIT: r = tl_div(h, 2.0); break;
    case MX_WHERE_F16_LIT: r = tl_where(tl_gt(i32, 0), h, 0.1); break;
    case MX_MAX_F16_INT: r = tl_maximum(h, 1); break;
    case MX_ARG_TIMES_LIT: r = tl_mul(s, 2); break;
    case MX_LIT_PLUS_LIT: r = tl_add(1, 2); break;
    case MX_INT_LIT_PLUS_FLT_LIT: r = tl_add(1, 2.5); break;
    case MX_FMA_F16_LITS: r = tl_fma(h, 2.0, 0.1); break;
    case MX_LAND_CMP: r = tl_logical_and(tl_gt(i32, 0), tl_lt(i32, 9)); break;
    case MX_NOT_CMP: r = tl_not(tl_gt(i32, 0)); break;
    case MX_AND_CMP: r = tl_and(tl_gt(i32, 0), tl_lt(i8, 0)); break;
    default: r = tl_clamp(i8, -5, 5); break;
    }
    mix_traced[c] = tl_dtype_of(r);
    if (mix_traced[c] >= TL_F16) tl_store(tl_add(od, offs), r, .mask = m);
    else tl_store(tl_add(oi, offs), r, .mask = m);
}

/* the dtype Triton gives and the value of lane e */
static tl_dtype mix_ref(int c, const double *h, const double *b, const int8_t *i8, const int32_t *i32,
                        const uint32_t *u32, const float *f32, const int64_t *i64, float s, int32_t k, int e, val *w) {
    double H = h[e], Bf = b[e];
    w->u = 0;
    switch (c) {
    case MX_F16_PLUS_LIT: w->f = rnd(TL_F16, H + rnd(TL_F16, 0.1)); return TL_F16;
    case MX_LIT_MINUS_F16: w->f = rnd(TL_F16, rnd(TL_F16, 0.1) - H); return TL_F16;
    case MX_F16_TIMES_INT: w->f = rnd(TL_F16, H * 3); return TL_F16;
    case MX_BF16_PLUS_LIT: w->f = rnd(TL_BF16, Bf + rnd(TL_BF16, 0.1)); return TL_BF16;
    case MX_I8_PLUS_1: *w = wrap(TL_I8, (uint64_t)(i8[e] + 1)); return TL_I8;
    case MX_I8_TIMES_NEG3: *w = wrap(TL_I8, (uint64_t)(i8[e] * -3)); return TL_I8;
    case MX_I32_TIMES_HALF: w->f = (double)((float)i32[e] * 0.5f); return TL_F32;
    case MX_I32_PLUS_FLT: w->f = (double)((float)i32[e] + 2.5f); return TL_F32;
    case MX_I64_PLUS_FLT: w->f = (double)((float)i64[e] + 1.5f); return TL_F32;
    case MX_U32_PLUS_I32: *w = wrap(TL_U32, (uint64_t)u32[e] + (uint64_t)(uint32_t)i32[e]); return TL_U32;
    case MX_F16_PLUS_BF16: w->f = rnd(TL_F16, H + rnd(TL_F16, Bf)); return TL_F16;
    case MX_BOOL_PLUS_INT: w->i = (i32[e] > 0) + 1; return TL_I32;
    /* Triton types the literal 3000000000 as u32, and i1 + u32 is u32 */
    case MX_BOOL_PLUS_U32LIT: w->u = (uint64_t)(i32[e] > 0) + 3000000000u; return TL_U32;
    case MX_F16_PLUS_F32ARG: w->f = (double)((float)H + s); return TL_F32;
    case MX_I8_PLUS_I32ARG: *w = wrap(TL_I32, (uint64_t)((int64_t)i8[e] + k)); return TL_I32;
    case MX_I8_PLUS_I32: *w = wrap(TL_I32, (uint64_t)((int64_t)i8[e] + i32[e])); return TL_I32;
    case MX_U32_PLUS_I64: w->i = (int64_t)u32[e] + i64[e]; return TL_I64;
    case MX_F16_PLUS_F32: w->f = (double)((float)H + f32[e]); return TL_F32;
    case MX_F16_DIV_LIT: w->f = (double)((float)H / 2.0f); return TL_F32;
    case MX_WHERE_F16_LIT: w->f = i32[e] > 0 ? H : rnd(TL_F16, 0.1); return TL_F16;
    case MX_MAX_F16_INT: w->f = fmax(H, 1.0); return TL_F16;
    case MX_ARG_TIMES_LIT: w->f = (double)(s * 2.0f); return TL_F32;
    case MX_LIT_PLUS_LIT: w->i = 3; return TL_I32;
    case MX_INT_LIT_PLUS_FLT_LIT: w->f = 3.5; return TL_F32;
    case MX_FMA_F16_LITS: w->f = rnd(TL_F16, fma_odd(H, 2.0, rnd(TL_F16, 0.1))); return TL_F16;
    case MX_LAND_CMP: w->i = i32[e] > 0 && i32[e] < 9; return TL_I1;
    case MX_NOT_CMP: w->i = !(i32[e] > 0); return TL_I1;
    case MX_AND_CMP: w->i = i32[e] > 0 && i8[e] < 0; return TL_I1;
    default: w->i = i8[e] < -5 ? -5 : i8[e] > 5 ? 5 : i8[e]; return TL_I8;
    }
}

static void test_mixed(void) {
    enum { N = 512 };
    tile_f16 *ph = tile_malloc(N * sizeof *ph);
    tile_bf16 *pb = tile_malloc(N * sizeof *pb);
    int8_t *pi8 = tile_malloc(N);
    int32_t *pi32 = tile_malloc(N * 4);
    uint32_t *pu32 = tile_malloc(N * 4);
    float *pf32 = tile_malloc(N * 4);
    int64_t *pi64 = tile_malloc(N * 8);
    double *od = tile_malloc(N * 8);
    int64_t *oi = tile_malloc(N * 8);
    static double h[N], b[N], god[N];
    static tile_f16 hh[N];
    static tile_bf16 hb[N];
    static int8_t i8[N];
    static int32_t i32[N];
    static uint32_t u32[N];
    static float f32[N];
    static int64_t i64[N], goi[N];
    for (int e = 0; e < N; e++) {
        hh[e] = tile_f16_from(tt_normal() * 100);
        h[e] = tile_f16_to(hh[e]);
        hb[e] = tile_bf16_from(tt_normal() * 100);
        b[e] = tile_bf16_to(hb[e]);
        i8[e] = (int8_t)tt_int(-128, 127);
        i32[e] = (int32_t)(tt_int(0, 3) ? tt_int(-100, 100) : (int64_t)(int32_t)tt_next());
        u32[e] = (uint32_t)tt_next();
        f32[e] = (float)(tt_normal() * 1000);
        i64[e] = tt_int(0, 3) ? tt_int(-100000, 100000) : (int64_t)(tt_next() >> 2);
    }
    i8[0] = 127;
    i8[1] = -128;
    TT_OK(tile_memcpy_htod(ph, hh, sizeof hh));
    TT_OK(tile_memcpy_htod(pb, hb, sizeof hb));
    TT_OK(tile_memcpy_htod(pi8, i8, sizeof i8));
    TT_OK(tile_memcpy_htod(pi32, i32, sizeof i32));
    TT_OK(tile_memcpy_htod(pu32, u32, sizeof u32));
    TT_OK(tile_memcpy_htod(pf32, f32, sizeof f32));
    TT_OK(tile_memcpy_htod(pi64, i64, sizeof i64));
    float s = (float)tt_normal();
    int32_t k = (int32_t)tt_int(-1000, 1000);
    for (int c = 0; c < MX_COUNT; c++) {
        int n = (int)tt_int(N / 2, N);
        tt_poison(od, N * 8);
        tt_poison(oi, N * 8);
        TT_OK(mix_kernel(TILE_OPTS(.grid = {tile_cdiv(n, 128)}, .meta = {{"CASE", c}, {"BLOCK", 128}}), ph, pb, pi8, pi32,
                         pu32, pf32, pi64, od, oi, s, k, n));
        TT_OK(tile_memcpy_dtoh(god, od, sizeof god));
        TT_OK(tile_memcpy_dtoh(goi, oi, sizeof goi));
        val w;
        tl_dtype want = mix_ref(c, h, b, i8, i32, u32, f32, i64, s, k, 0, &w);
        tl_dtype got = mix_traced[c];
        TT_CHECK(got == want, "%s: result dtype %s, Triton gives %s", mx_name[c], tile_dtype_name(got), tile_dtype_name(want));
        if (got >= TL_F16 && dt_float(want)) {
            static double wantf[N];
            for (int e = 0; e < n; e++) {
                mix_ref(c, h, b, i8, i32, u32, f32, i64, s, k, e, &w);
                wantf[e] = w.f;
            }
            tt_check_close(mx_name[c], god, wantf, (size_t)n, 0, 0);
            continue;
        }
        int bad = 0;
        for (int e = 0; e < n; e++) {
            mix_ref(c, h, b, i8, i32, u32, f32, i64, s, k, e, &w);
            /* the value as the produced dtype holds it, stored as f64 or i64 */
            int ok = got >= TL_F16 ? god[e] == (double)w.i
                   : dt_float(want) ? (double)goi[e] == w.f
                   : dt_signed(want) || want == TL_I1 ? goi[e] == w.i : (uint64_t)goi[e] == w.u;
            tt_checks++;
            if (!ok) {
                if (bad < 3)
                    printf("FAIL %s lane %d: got %.9g / %lld, want %.9g / %lld\n", mx_name[c], e, god[e], (long long)goi[e],
                           w.f, (long long)w.i);
                bad++;
            }
        }
        if (bad) {
            tt_failures++;
            printf("FAIL %s: %d of %d lanes differ\n", mx_name[c], bad, n);
        }
    }
    tile_kernel_release(TILE_KERNEL_OF(mix_kernel));
    tile_free(ph);
    tile_free(pb);
    tile_free(pi8);
    tile_free(pi32);
    tile_free(pu32);
    tile_free(pf32);
    tile_free(pi64);
    tile_free(od);
    tile_free(oi);
}

int main(void) {
    tt_seed();
    static bufs B;
    B.x = tile_malloc(8 * NMAX);
    B.y = tile_malloc(8 * NMAX);
    B.z = tile_malloc(8 * NMAX);
    B.out = tile_malloc(8 * NMAX);
    B.outb = tile_malloc(NMAX);
    B.outf = tile_malloc(4 * NMAX);
    static const tl_dtype dts[] = {TL_I8, TL_I16, TL_I32, TL_I64, TL_U8, TL_U16,
                                   TL_U32, TL_U64, TL_F16, TL_BF16, TL_F32, TL_F64};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
        for (int op = 0; op < OP_COUNT; op++) {
            run_op(&B, dts[d], op);
            run_fold(&B, dts[d], op, (int)tt_int(0, 1 << 30));
        }
    release_ew();
#define FOLD_RELEASE(T, DT, C) tile_kernel_release(TILE_KERNEL_OF(fold_##T));
    EW_DTYPES(FOLD_RELEASE)
#undef FOLD_RELEASE
    tile_free(B.x);
    tile_free(B.y);
    tile_free(B.z);
    tile_free(B.out);
    tile_free(B.outb);
    tile_free(B.outf);
    test_mixed();
    return tt_finish("test_ops_elementwise");
}
