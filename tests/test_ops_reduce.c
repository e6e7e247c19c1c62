/* tests/test_ops_reduce.c — reductions, scans and tl_dot in the interpreter,
   each against a float64 (or exact integer) C reference on fresh random data.

   Reductions are where dtypes and shapes change, so every reduction runs
   along each axis of 1-D, 2-D and 3-D tiles, with negative axes, TL_ALL and
   .keep_dims, and the result's rank, dims and dtype are read back from the
   build (tl_rank/tl_dim/tl_dtype_of) and checked against Triton's rules:
   i8/i16 sums are i32, u8 and i1 (unsigned in Triton) sums u32, an f16 sum stays f16, .dtype
   overrides, max/min widen inputs narrower than 32 bits (ints to i32, f16 to
   f32), xor_sum and cumprod keep the input dtype, argmax/argmin return the
   first index of the extreme. tl_dot runs for every supported operand
   pair, with and without an accumulator, f32 at every input_precision,
   f16 results and i8 -> i32, 2-D and batched (3-D operands, B of 1, 2 and
   4, each batch checked against its own product); the reference is a float64
   product of the inputs as the dtype holds them (rounded to tf32 for the tf32
   modes) and the tolerance is the rounding error of a K-step accumulation
   in the result dtype. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

/* what the last build made of the result, read while the body ran */
static int g_traced, g_rank, g_dims[TL_MAX_RANK];
static tl_dtype g_dtype;
static void record(tl_t r) {
    g_traced = 1;
    g_rank = tl_rank(r);
    for (int d = 0; d < g_rank && d < TL_MAX_RANK; d++) g_dims[d] = tl_dim(r, d);
    g_dtype = tl_dtype_of(r);
}

/* the input as a tile of rank R: D0, D0xD1 or D0xD1xD2 (row-major) */
static tl_t load_nd(tl_t ptr) {
    int R = TL_META(R), D0 = TL_META(D0), D1 = TL_META_OR(D1, 1), D2 = TL_META_OR(D2, 1);
    tl_t flat = tl_load(tl_add(ptr, tl_arange(0, D0 * D1 * D2)));
    return R == 1 ? flat : R == 2 ? tl_reshape(flat, D0, D1) : tl_reshape(flat, D0, D1, D2);
}
static void store_any(tl_t ptr, tl_t r) {
    int n = 1;
    for (int d = 0; d < tl_rank(r); d++) n *= tl_dim(r, d);
    if (tl_rank(r) == 0) tl_store(ptr, r);
    else tl_store(tl_add(ptr, tl_arange(0, n)), tl_ravel(r));
}

enum { R_SUM, R_MAX, R_MIN, R_ARGMAX, R_ARGMIN, R_XOR, R_PROD, R_COUNT };
static const char *const rname[] = {"sum", "max", "min", "argmax", "argmin", "xor_sum", "prod"};

static void reduce_body(tl_t x, tl_t out) {
    int op = TL_META(OP), axis = TL_META(AXIS), keep = TL_META(KEEP);
    tl_dtype dt = (tl_dtype)TL_META_OR(DT, 0);
    tl_t v = load_nd(x), r;
    switch (op) {
    case R_SUM: r = dt ? tl_sum(v, axis, .keep_dims = keep, .dtype = dt) : tl_sum(v, axis, .keep_dims = keep); break;
    case R_MAX: r = tl_max(v, axis, .keep_dims = keep); break;
    case R_MIN: r = tl_min(v, axis, .keep_dims = keep); break;
    case R_ARGMAX: r = tl_argmax(v, axis, .keep_dims = keep); break;
    case R_ARGMIN: r = tl_argmin(v, axis, .keep_dims = keep); break;
    case R_XOR: r = tl_xor_sum(v, axis, .keep_dims = keep); break;
    default: r = tl_prod(v, axis, .keep_dims = keep); break;
    }
    record(r);
    store_any(out, r);
}
TILE_KERNEL(reduce_f32, (tl_ptr_f32, x), (tl_ptr_f64, out)) { reduce_body(x, out); }
TILE_KERNEL(reduce_f16, (tl_ptr_f16, x), (tl_ptr_f64, out)) { reduce_body(x, out); }
TILE_KERNEL(reduce_i8, (tl_ptr_i8, x), (tl_ptr_i64, out)) { reduce_body(x, out); }
TILE_KERNEL(reduce_i16, (tl_ptr_i16, x), (tl_ptr_i64, out)) { reduce_body(x, out); }
TILE_KERNEL(reduce_i32, (tl_ptr_i32, x), (tl_ptr_i64, out)) { reduce_body(x, out); }
TILE_KERNEL(reduce_u8, (tl_ptr_u8, x), (tl_ptr_i64, out)) { reduce_body(x, out); }
TILE_KERNEL(reduce_i1, (tl_ptr_i1, x), (tl_ptr_i64, out)) { reduce_body(x, out); }

/* ---- f16 codes, decoded by this test --------------------------------------------- */
static double dec_fmt_b(unsigned c, int eb, int mb, int bias) {
    unsigned mag = c & ((1u << (eb + mb)) - 1), e = mag >> mb, m = mag & ((1u << mb) - 1);
    double v = e == 0 ? ldexp((double)m, 1 - bias - mb) : ldexp((double)((1u << mb) + m), (int)e - bias - mb);
    return (c >> (eb + mb)) & 1 ? -v : v;
}
static double dec_fmt(unsigned c, int eb, int mb) { return dec_fmt_b(c, eb, mb, (1 << (eb - 1)) - 1); }
/* a random normal number of the format with |x| in [2^elo, 2^(ehi+1)) */
static unsigned rand_code_b(int eb, int mb, int bias, int elo, int ehi) {
    unsigned e = (unsigned)(bias + tt_int(elo, ehi)), m = (unsigned)(tt_next() & ((1u << mb) - 1));
    return (unsigned)(tt_int(0, 1) << (eb + mb)) | (e << mb) | m;
}
static unsigned rand_code(int eb, int mb, int elo, int ehi) { return rand_code_b(eb, mb, (1 << (eb - 1)) - 1, elo, ehi); }

/* ---- the reference --------------------------------------------------------------------- */
static const char *axis_name(int axis, char *buf, size_t n) {
    if (axis == TL_ALL) snprintf(buf, n, "TL_ALL");
    else snprintf(buf, n, "%d", axis);
    return buf;
}
typedef struct rshape { int rank, dims[3]; } rshape;
/* [outer, n, inner] around `axis` (already non-negative), or all for TL_ALL */
static void around(const rshape *s, int axis, int *outer, int *n, int *inner) {
    int total = 1;
    for (int d = 0; d < s->rank; d++) total *= s->dims[d];
    if (axis == TL_ALL) {
        *outer = *inner = 1;
        *n = total;
        return;
    }
    *outer = *inner = 1;
    for (int d = 0; d < axis; d++) *outer *= s->dims[d];
    for (int d = axis + 1; d < s->rank; d++) *inner *= s->dims[d];
    *n = s->dims[axis];
}
/* check the rank and dims the build gave the result */
static void check_result_shape(const char *what, const rshape *s, int axis, int keep) {
    int rank = 0, dims[3];
    for (int d = 0; d < s->rank; d++) {
        if (axis == TL_ALL || d == axis) {
            if (keep) dims[rank++] = 1;
        } else {
            dims[rank++] = s->dims[d];
        }
    }
    int ok = g_traced && g_rank == rank;
    for (int d = 0; ok && d < rank; d++) ok = g_dims[d] == dims[d];
    TT_CHECK(ok, "%s: result has rank %d [%d,%d,%d], want rank %d", what, g_rank, g_dims[0], g_dims[1], g_dims[2], rank);
}
static tile_launch reduce_opts(const rshape *s, int op, int axis, int keep, int dt) {
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    tile_meta m[] = {{"R", s->rank}, {"D0", s->dims[0]}, {"D1", s->rank > 1 ? s->dims[1] : 1}, {"D2", s->rank > 2 ? s->dims[2] : 1},
                     {"OP", op}, {"AXIS", axis}, {"KEEP", keep}, {"DT", dt}};
    memcpy(o.meta, m, sizeof m);
    return o;
}
static int numel(const rshape *s) {
    int n = 1;
    for (int d = 0; d < s->rank; d++) n *= s->dims[d];
    return n;
}

/* float reductions of f32 (exact products in double, tolerance for sums) */
static void test_reduce_f32(const rshape *s, int axis_in, int op, int keep) {
    int axis = axis_in == TL_ALL ? TL_ALL : axis_in < 0 ? axis_in + s->rank : axis_in;
    int total = numel(s), outer, n, inner;
    around(s, axis, &outer, &n, &inner);
    float *x = tile_malloc((size_t)total * 4);
    double *out = tile_malloc((size_t)outer * inner * 8);
    for (int i = 0; i < total; i++)
        x[i] = op == R_ARGMAX || op == R_ARGMIN ? (float)tt_int(0, 3)
             : op == R_PROD ? (float)((tt_int(0, 1) ? -1 : 1) * tt_uniform(0.7, 1.4))
                            : (float)tt_normal();
    tt_poison(out, (size_t)outer * inner * 8);
    char what[96], ab[16];
    snprintf(what, sizeof what, "tl_%s f32 rank %d axis %s%s", rname[op], s->rank, axis_name(axis_in, ab, sizeof ab), keep ? " keep_dims" : "");
    tile_launch o = reduce_opts(s, op, axis_in, keep, 0);
    g_traced = 0;
    tile_status st = reduce_f32(&o, x, out);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    check_result_shape(what, s, axis, keep);
    tl_dtype want_dt = op == R_ARGMAX || op == R_ARGMIN ? TL_I32 : TL_F32;
    TT_CHECK(g_dtype == want_dt, "%s: result dtype %s, want %s", what, tile_dtype_name(g_dtype), tile_dtype_name(want_dt));
    int bad = 0;
    double *wants = malloc((size_t)outer * inner * 8);
    for (int a = 0; a < outer; a++)
        for (int c = 0; c < inner; c++) {
            double acc = op == R_PROD ? 1 : 0, mag = 0, best = 0;
            int arg = -1;
            for (int k = 0; k < n; k++) {
                double v = x[((size_t)a * n + k) * inner + c];
                mag += fabs(v);
                if (op == R_SUM) acc += v;
                else if (op == R_PROD) acc *= v;
                else if (arg < 0 || (op == R_MAX || op == R_ARGMAX ? v > best : v < best)) {
                    best = v;
                    arg = k;
                }
            }
            double want = op == R_SUM || op == R_PROD ? acc : op == R_MAX || op == R_MIN ? best : arg;
            double tol = op == R_SUM ? (n + 1) * ldexp(mag, -24) : (n + 1) * ldexp(fabs(acc), -24);
            double got = out[a * inner + c];
            wants[a * inner + c] = want;
            if ((op == R_SUM || op == R_PROD) && !(fabs(got - want) <= tol) && bad++ < 3)
                printf("  %s at (%d, %d): got %.9g, want %.9g\n", what, a, c, got, want);
        }
    if (op == R_SUM || op == R_PROD) TT_CHECK(bad == 0, "%s: %d of %d results wrong", what, bad, outer * inner);
    else tt_check_close(what, out, wants, (size_t)outer * inner, 0, 0);
    free(wants);
    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(reduce_f32));
}

/* integer and f16 reductions and their result dtypes */
static int64_t wrap_to(tl_dtype t, uint64_t u) {
    int bits = (int)tile_dtype_size(t) * 8;
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    u &= mask;
    int is_signed = t == TL_I8 || t == TL_I16 || t == TL_I32 || t == TL_I64;
    if (is_signed && bits < 64 && (u >> (bits - 1)) & 1) u |= ~mask;
    int64_t v;
    memcpy(&v, &u, 8);
    return v;
}
static int64_t rd_int(tl_dtype t, const void *p, int i) {
    switch (t) {
    case TL_I8: return ((const int8_t *)p)[i];
    case TL_I16: return ((const int16_t *)p)[i];
    case TL_I32: return ((const int32_t *)p)[i];
    case TL_U8: return ((const uint8_t *)p)[i];
    default: return ((const uint8_t *)p)[i] != 0; /* i1 */
    }
}
/* values: `small` picks a range with many ties (argmax, prod) */
static void fill_int(tl_dtype t, void *p, int n, int small) {
    for (int i = 0; i < n; i++) {
        switch (t) {
        case TL_I8: ((int8_t *)p)[i] = (int8_t)(small ? tt_int(-3, 3) : tt_int(-128, 127)); break;
        case TL_I16: ((int16_t *)p)[i] = (int16_t)(small ? tt_int(-3, 3) : tt_int(-32768, 32767)); break;
        case TL_I32: ((int32_t *)p)[i] = (int32_t)(small ? tt_int(-3, 3) : tt_int(INT32_MIN, INT32_MAX)); break;
        case TL_U8: ((uint8_t *)p)[i] = (uint8_t)(small ? tt_int(250, 255) : tt_int(0, 255)); break;
        default: ((uint8_t *)p)[i] = (uint8_t)(tt_int(0, 2) ? tt_int(1, 255) : 0); break;
        }
    }
}
static tile_status launch_reduce(tl_dtype t, const tile_launch *o, void *x, void *out) {
    switch (t) {
    case TL_I8: return reduce_i8(o, x, out);
    case TL_I16: return reduce_i16(o, x, out);
    case TL_I32: return reduce_i32(o, x, out);
    case TL_U8: return reduce_u8(o, x, out);
    default: return reduce_i1(o, x, out);
    }
}
static void test_reduce_int(tl_dtype t, const rshape *s, int axis_in, int op, int keep, tl_dtype dt, tl_dtype want_dt) {
    int axis = axis_in == TL_ALL ? TL_ALL : axis_in < 0 ? axis_in + s->rank : axis_in;
    int total = numel(s), outer, n, inner;
    around(s, axis, &outer, &n, &inner);
    void *x = tile_malloc((size_t)total * tile_dtype_size(t));
    int64_t *out = tile_malloc((size_t)outer * inner * 8);
    fill_int(t, x, total, op == R_ARGMAX || op == R_ARGMIN || op == R_PROD);
    tt_poison(out, (size_t)outer * inner * 8);
    char what[128], ab[16];
    snprintf(what, sizeof what, "tl_%s %s rank %d axis %s%s%s%s", rname[op], tile_dtype_name(t), s->rank,
             axis_name(axis_in, ab, sizeof ab), keep ? " keep_dims" : "", dt ? " .dtype=" : "", dt ? tile_dtype_name(dt) : "");
    tile_launch o = reduce_opts(s, op, axis_in, keep, dt);
    g_traced = 0;
    tile_status st = launch_reduce(t, &o, x, out);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    check_result_shape(what, s, axis, keep);
    TT_CHECK(g_dtype == want_dt, "%s: result dtype %s, want %s (Triton)", what, tile_dtype_name(g_dtype), tile_dtype_name(want_dt));
    int bad = 0;
    for (int a = 0; a < outer; a++)
        for (int c = 0; c < inner; c++) {
            uint64_t acc = op == R_PROD ? 1 : 0;
            int64_t best = 0;
            int arg = -1;
            for (int k = 0; k < n; k++) {
                int64_t v = rd_int(t, x, (a * n + k) * inner + c);
                if (op == R_SUM) acc += (uint64_t)v;
                else if (op == R_PROD) acc *= (uint64_t)v;
                else if (op == R_XOR) acc ^= (uint64_t)v;
                else if (arg < 0 || (op == R_MAX || op == R_ARGMAX ? v > best : v < best)) {
                    best = v;
                    arg = k;
                }
            }
            int64_t want = op == R_SUM || op == R_PROD || op == R_XOR ? wrap_to(want_dt, acc) : op == R_MAX || op == R_MIN ? best : arg;
            int64_t got = out[a * inner + c];
            if (got != want && bad++ < 3) printf("  %s at (%d, %d): got %lld, want %lld\n", what, a, c, (long long)got, (long long)want);
        }
    TT_CHECK(bad == 0, "%s: %d of %d results wrong", what, bad, outer * inner);
    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(reduce_i8));
    tile_kernel_release(TILE_KERNEL_OF(reduce_i16));
    tile_kernel_release(TILE_KERNEL_OF(reduce_i32));
    tile_kernel_release(TILE_KERNEL_OF(reduce_u8));
    tile_kernel_release(TILE_KERNEL_OF(reduce_i1));
}

/* f16: the sum stays f16 (tolerance of a pairwise f16 sum) unless .dtype */
static void test_reduce_f16(const rshape *s, int axis_in, int op, tl_dtype dt) {
    int axis = axis_in == TL_ALL ? TL_ALL : axis_in < 0 ? axis_in + s->rank : axis_in;
    int total = numel(s), outer, n, inner;
    around(s, axis, &outer, &n, &inner);
    tile_f16 *x = tile_malloc((size_t)total * 2);
    double *out = tile_malloc((size_t)outer * inner * 8), *xv = malloc((size_t)total * 8);
    for (int i = 0; i < total; i++) {
        x[i].bits = (uint16_t)rand_code(5, 10, -3, 2);
        xv[i] = dec_fmt(x[i].bits, 5, 10);
    }
    tt_poison(out, (size_t)outer * inner * 8);
    char what[96], ab[16];
    snprintf(what, sizeof what, "tl_%s f16 rank %d axis %s%s", rname[op], s->rank, axis_name(axis_in, ab, sizeof ab), dt ? " .dtype=f32" : "");
    tile_launch o = reduce_opts(s, op, axis_in, 0, dt);
    g_traced = 0;
    tile_status st = reduce_f16(&o, x, out);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    check_result_shape(what, s, axis, 0);
    tl_dtype want_dt = op == R_ARGMAX || op == R_ARGMIN ? TL_I32 : op == R_MAX || op == R_MIN ? TL_F32 : dt ? dt : TL_F16;
    TT_CHECK(g_dtype == want_dt, "%s: result dtype %s, want %s", what, tile_dtype_name(g_dtype), tile_dtype_name(want_dt));
    int bad = 0;
    double u = dt == TL_F32 ? ldexp(1.0, -24) : ldexp(1.0, -11);
    for (int a = 0; a < outer; a++)
        for (int c = 0; c < inner; c++) {
            double acc = 0, mag = 0, best = 0;
            int arg = -1;
            for (int k = 0; k < n; k++) {
                double v = xv[(a * n + k) * inner + c];
                acc += v;
                mag += fabs(v);
                if (arg < 0 || (op == R_MAX || op == R_ARGMAX ? v > best : v < best)) {
                    best = v;
                    arg = k;
                }
            }
            double want = op == R_SUM ? acc : op == R_MAX || op == R_MIN ? best : arg;
            double tol = op == R_SUM ? (ceil(log2(n)) + 2) * u * mag : 0;
            double got = out[a * inner + c];
            if (!(fabs(got - want) <= tol) && bad++ < 3) printf("  %s at (%d, %d): got %.9g, want %.9g\n", what, a, c, got, want);
        }
    TT_CHECK(bad == 0, "%s: %d of %d results wrong", what, bad, outer * inner);
    tile_free(x);
    tile_free(out);
    free(xv);
    tile_kernel_release(TILE_KERNEL_OF(reduce_f16));
}

/* ---- propagate_nan: tl_max, tl_min, tl_maximum, tl_minimum where a NaN wins ------------------
   x (and y) are D0 x D1 of the launch's dtype with NaNs in some places: rows without one, rows with
   one, rows with many, a row of NaNs only. OP 0, 1: tl_max, tl_min along AXIS (0, 1, or TL_ALL)
   with .propagate_nan = PN; OP 2, 3: tl_maximum, tl_minimum of x and y with it; OP 4: tl_max along
   1 of tl_dot(a, b) + y (small integers: exact), reduced where the dot leaves it (on a GPU the MMA
   layout's own reduction, by shuffles). The results as f64. */
TILE_KERNEL(nan_minmax, (tl_ptr, x), (tl_ptr, y), (tl_ptr, a), (tl_ptr, b), (tl_ptr_f64, out))
{
    int OP = TL_META(OP), AXIS = TL_META(AXIS), PN = TL_META(PN), D0 = TL_META(D0), D1 = TL_META(D1);
    tl_t v = tl_reshape(tl_load(tl_add(x, tl_arange(0, D0 * D1))), D0, D1), r;
    tl_t w = tl_reshape(tl_load(tl_add(y, tl_arange(0, D0 * D1))), D0, D1);
    if (OP == 2) r = tl_maximum(v, w, .propagate_nan = PN);
    else if (OP == 3) r = tl_minimum(v, w, .propagate_nan = PN);
    else {
        if (OP == 4) {
            enum { K = 16 };
            tl_t av = tl_load(tl_add(tl_add(a, tl_mul(tl_expand_dims(tl_arange(0, D0), 1), K)), tl_expand_dims(tl_arange(0, K), 0)));
            tl_t bv = tl_load(tl_add(tl_add(b, tl_mul(tl_expand_dims(tl_arange(0, K), 1), D1)), tl_expand_dims(tl_arange(0, D1), 0)));
            v = tl_add(tl_dot(av, bv), w);
        }
        r = OP == 3 || OP == 1 ? tl_min(v, AXIS, .propagate_nan = PN) : tl_max(v, AXIS, .propagate_nan = PN);
    }
    record(r);
    store_any(out, r);
}
static double nan_get(tl_dtype t, const void *p, int i) {
    if (t == TL_F32) return ((const float *)p)[i];
    if (t == TL_F64) return ((const double *)p)[i];
    if (t == TL_I32) return ((const int32_t *)p)[i];
    if (t == TL_F16) return tile_f16_to(((const tile_f16 *)p)[i]);
    return tile_bf16_to(((const tile_bf16 *)p)[i]);
}
static void nan_put(tl_dtype t, void *p, int i, double v) {
    if (t == TL_F32) ((float *)p)[i] = (float)v;
    else if (t == TL_F64) ((double *)p)[i] = v;
    else if (t == TL_I32) ((int32_t *)p)[i] = (int32_t)v;
    else if (t == TL_F16) ((tile_f16 *)p)[i] = tile_f16_from(v);
    else ((tile_bf16 *)p)[i] = tile_bf16_from(v);
}
/* the max (mx) or min of a run of values, a NaN winning (pn) or losing (every NaN: NaN) */
static double nan_fold(const double *v, int n, int stride, int mx, int pn) {
    double r = NAN;
    for (int k = 0; k < n; k++) {
        double e = v[k * stride];
        if (e != e) {
            if (pn) return NAN;
            continue;
        }
        if (r != r || (mx ? e > r : e < r)) r = e;
    }
    return r;
}
static void test_nan_minmax(tl_dtype t, int op, int axis, int pn) {
    enum { D0 = 16, D1 = 32, K = 16, NE = D0 * D1 };
    size_t es = tile_dtype_size(t);
    void *hx = malloc(NE * es), *hy = malloc(NE * es);
    double xv[NE], yv[NE], av[D0 * K], bv[K * D1];
    int flt = t != TL_I32;
    for (int i = 0; i < NE; i++) {
        int row = i / D1, many = row % 3 == 2;
        double e = op == 4 ? (double)tt_int(-40, 40) : t == TL_I32 ? (double)tt_int(-1000, 1000) : tt_normal() * 10;
        if (flt && ((row % 3 == 1 && i % D1 == row * 7 % D1) || (many && tt_int(0, 3) == 0) || row == D0 - 1)) e = NAN;
        if (flt && axis == 0 && op < 2 && i % D1 == 5) e = NAN;   /* a column with NaNs (the reduction along 0) */
        nan_put(t, hx, i, e);
        xv[i] = nan_get(t, hx, i);
        double f = t == TL_I32 ? (double)tt_int(-1000, 1000) : flt && tt_int(0, 4) == 0 ? NAN : tt_normal() * 10;
        if (op == 4) f = row % 3 == 0 ? (double)tt_int(-40, 40) : xv[i];   /* the dot's rows 0, 3, ... NaN-free */
        nan_put(t, hy, i, f);
        yv[i] = nan_get(t, hy, i);
    }
    tile_f16 ha[D0 * K], hb[K * D1];
    for (int i = 0; i < D0 * K; i++) ha[i] = tile_f16_from(av[i] = (double)tt_int(-3, 3));
    for (int i = 0; i < K * D1; i++) hb[i] = tile_f16_from(bv[i] = (double)tt_int(-3, 3));
    void *x = tile_malloc(NE * es), *y = tile_malloc(NE * es), *a = tile_malloc(sizeof ha), *b = tile_malloc(sizeof hb);
    double *out = tile_malloc(NE * 8), got[NE];
    tile_memcpy_htod(x, hx, NE * es);
    tile_memcpy_htod(y, hy, NE * es);
    tile_memcpy_htod(a, ha, sizeof ha);
    tile_memcpy_htod(b, hb, sizeof hb);
    tile_memset(out, 0xA5, NE * 8);
    static const char *const ops[] = {"tl_max", "tl_min", "tl_maximum", "tl_minimum", "tl_max of tl_dot + y"};
    char what[128], ab[16];
    snprintf(what, sizeof what, "%s %s%s%s, .propagate_nan = %d", ops[op], tile_dtype_name(t), op < 2 || op == 4 ? " axis " : "",
             op < 2 || op == 4 ? axis_name(axis, ab, sizeof ab) : "", pn);
    tile_status st = nan_minmax(TILE_OPTS(.grid = {1}, .meta = {{"OP", op}, {"AXIS", axis}, {"PN", pn}, {"D0", D0}, {"D1", D1}}), TILE_PTR(x, t),
                                TILE_PTR(y, t), TILE_PTR(a, TL_F16), TILE_PTR(b, TL_F16), out);
    TT_CHECK(st == TILE_OK, "%s: %s: %s", what, tile_status_id(st), tile_last_error());
    int n = op >= 2 && op <= 3 ? NE : axis == TL_ALL ? 1 : axis == 0 ? D1 : D0;
    tile_memcpy_dtoh(got, out, (size_t)n * 8);
    double v[NE];
    if (op == 4)   /* the dot, exact in f32: small integers */
        for (int i = 0; i < D0; i++)
            for (int j = 0; j < D1; j++) {
                double sum = 0;
                for (int k = 0; k < K; k++) sum += av[i * K + k] * bv[k * D1 + j];
                v[i * D1 + j] = sum + yv[i * D1 + j];
            }
    else memcpy(v, xv, sizeof v);
    int bad = 0, mx = op == 0 || op == 2 || op == 4;
    for (int i = 0; i < n; i++) {
        double want;
        if (op == 2 || op == 3) {
            double p[2] = {xv[i], yv[i]};
            want = nan_fold(p, 2, 1, mx, pn);
        } else want = axis == TL_ALL ? nan_fold(v, NE, 1, mx, pn) : axis == 0 ? nan_fold(v + i, D0, D1, mx, pn) : nan_fold(v + i * D1, D1, 1, mx, pn);
        if (op >= 2 && op <= 3) want = nan_get(t, (nan_put(t, hx, 0, want), hx), 0);   /* in the dtype */
        int same = (got[i] != got[i] && want != want) || got[i] == want;
        if (!same && bad++ < 3) printf("  %s: result %d: got %.9g, want %.9g\n", what, i, got[i], want);
    }
    TT_CHECK(!bad, "%s: %d of %d results wrong", what, bad, n);
    tile_free(x);
    tile_free(y);
    tile_free(a);
    tile_free(b);
    tile_free(out);
    free(hx);
    free(hy);
}
/* the option where it is an error: a sum, a reduction with a combine function */
static int nan_err_line;
static tl_t nan_keep(tl_t p, tl_t q) { return tl_maximum(p, q, .propagate_nan = 1); }
TILE_KERNEL(nan_bad, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_t v = tl_load(tl_add(x, tl_arange(0, 32))), r;
    if (TL_META(CASE) == 0) nan_err_line = __LINE__, r = tl_sum(v, 0, .propagate_nan = 1);
    else if (TL_META(CASE) == 1) nan_err_line = __LINE__, r = tl_argmax(v, 0, .propagate_nan = 1);
    else nan_err_line = __LINE__, r = tl_reduce(v, 0, nan_keep, .propagate_nan = 1);
    tl_store(out, r);
}
static void nan_quiet(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}
static void test_nan_errors(void) {
    static const struct { tile_status st; const char *text; } want[] = {
        {TILE_ERR_VALUE, "tl_sum: .propagate_nan is an option of tl_max and tl_min only"},
        {TILE_ERR_VALUE, "tl_argmax: .propagate_nan is an option of tl_max and tl_min only"},
        {TILE_ERR_VALUE, "tl_reduce: no .propagate_nan: the combine function decides"},
    };
    float *x = tile_malloc(32 * 4), *out = tile_malloc(4);
    tile_memset(x, 0, 32 * 4);
    tile_set_log(nan_quiet, NULL);
    for (int c = 0; c < 3; c++) {
        char what[64];
        snprintf(what, sizeof what, "propagate_nan error case %d", c);
        tile_status st = nan_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", c}}), x, out);
        tt_check_user_error(what, st, want[c].st, "test_ops_reduce.c", nan_err_line, want[c].text);
        tile_clear_error();
    }
    tile_set_log(NULL, NULL);
    tile_free(x);
    tile_free(out);
}

/* ---- scans ----------------------------------------------------------------------------------- */
static void scan_body(tl_t x, tl_t out) {
    int axis = TL_META(AXIS), rev = TL_META(REV);
    tl_t v = load_nd(x);
    tl_t r = TL_META(OP) == R_PROD ? tl_cumprod(v, axis, .reverse = rev) : tl_cumsum(v, axis, .reverse = rev);
    record(r);
    store_any(out, r);
}
TILE_KERNEL(scan_f32, (tl_ptr_f32, x), (tl_ptr_f64, out)) { scan_body(x, out); }
TILE_KERNEL(scan_i32, (tl_ptr_i32, x), (tl_ptr_i64, out)) { scan_body(x, out); }
TILE_KERNEL(scan_i8, (tl_ptr_i8, x), (tl_ptr_i64, out)) { scan_body(x, out); }

static void test_scan(tl_dtype t, const rshape *s, int axis_in, int op, int rev, tl_dtype want_dt) {
    int axis = axis_in < 0 ? axis_in + s->rank : axis_in;
    int total = numel(s), outer, n, inner;
    around(s, axis, &outer, &n, &inner);
    size_t es = tile_dtype_size(t);
    void *x = tile_malloc((size_t)total * es), *out = tile_malloc((size_t)total * 8);
    for (int i = 0; i < total; i++) {
        if (t == TL_F32) ((float *)x)[i] = op == R_PROD ? (float)((tt_int(0, 1) ? -1 : 1) * tt_uniform(0.8, 1.25)) : (float)tt_normal();
        else if (t == TL_I32) ((int32_t *)x)[i] = (int32_t)(op == R_PROD ? tt_int(-3, 3) : tt_int(INT32_MIN, INT32_MAX));
        else ((int8_t *)x)[i] = (int8_t)(op == R_PROD ? 2 * tt_int(-4, 3) + 1 : tt_int(-128, 127));
    }
    tt_poison(out, (size_t)total * 8);
    char what[96], ab[16];
    snprintf(what, sizeof what, "tl_%s %s rank %d axis %s%s", op == R_PROD ? "cumprod" : "cumsum", tile_dtype_name(t), s->rank,
             axis_name(axis_in, ab, sizeof ab), rev ? " reverse" : "");
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    tile_meta m[] = {{"R", s->rank}, {"D0", s->dims[0]}, {"D1", s->rank > 1 ? s->dims[1] : 1}, {"D2", s->rank > 2 ? s->dims[2] : 1},
                     {"OP", op}, {"AXIS", axis_in}, {"REV", rev}};
    memcpy(o.meta, m, sizeof m);
    g_traced = 0;
    tile_status st = t == TL_F32 ? scan_f32(&o, x, out) : t == TL_I32 ? scan_i32(&o, x, out) : scan_i8(&o, x, out);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    int ok = g_traced && g_rank == s->rank;
    for (int d = 0; ok && d < s->rank; d++) ok = g_dims[d] == s->dims[d];
    TT_CHECK(ok, "%s: the result shape is not the input's", what);
    TT_CHECK(g_dtype == want_dt, "%s: result dtype %s, want %s (Triton)", what, tile_dtype_name(g_dtype), tile_dtype_name(want_dt));
    int bad = 0;
    for (int a = 0; a < outer; a++)
        for (int c = 0; c < inner; c++) {
            double facc = op == R_PROD ? 1 : 0, mag = 0;
            uint64_t iacc = op == R_PROD ? 1 : 0;
            for (int s2 = 0; s2 < n; s2++) {
                int k = rev ? n - 1 - s2 : s2;
                size_t at = ((size_t)a * n + k) * inner + c;
                int ok1;
                if (t == TL_F32) {
                    double v = ((float *)x)[at];
                    if (op == R_PROD) facc *= v;
                    else facc += v;
                    mag += fabs(v);
                    double got = ((double *)out)[at];
                    double tol = (s2 + 2) * ldexp(op == R_PROD ? fabs(facc) : mag, -24);
                    ok1 = fabs(got - facc) <= tol;
                } else {
                    int64_t v = t == TL_I32 ? ((int32_t *)x)[at] : ((int8_t *)x)[at];
                    if (op == R_PROD) iacc *= (uint64_t)v;
                    else iacc += (uint64_t)v;
                    ok1 = ((int64_t *)out)[at] == wrap_to(want_dt, iacc);
                }
                if (!ok1 && bad++ < 3) printf("  %s: element %zu wrong\n", what, at);
            }
        }
    TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, total);
    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(scan_f32));
    tile_kernel_release(TILE_KERNEL_OF(scan_i32));
    tile_kernel_release(TILE_KERNEL_OF(scan_i8));
}

/* ---- dot ------------------------------------------------------------------------------------------ */
/* c = a @ b (+ c0), every operand row-major; with BATCH > 0 batched: a
   [BATCH, M, K], b [BATCH, K, N], c0 and c [BATCH, M, N], batch after batch */
static void dot_body(tl_t a, tl_t b, tl_t c0, tl_t c) {
    int M = TL_META(M), N = TL_META(N), K = TL_META(K), acc = TL_META(ACC), batch = TL_META_OR(BATCH, 0);
    int imp = TL_META_OR(IMP, 0);
    tl_precision prec = (tl_precision)TL_META_OR(PREC, 0);
    tl_dtype out_dt = TL_META_OR(F16OUT, 0) ? TL_F16 : TL_VOID;
    tl_t rm = tl_expand_dims(tl_arange(0, M), 1), rn = tl_expand_dims(tl_arange(0, N), 0);
    tl_t rk_row = tl_expand_dims(tl_arange(0, K), 0), rk_col = tl_expand_dims(tl_arange(0, K), 1);
    tl_t pa = tl_add(tl_mul(rm, K), rk_row), pb = tl_add(tl_mul(rk_col, N), rn), pc = tl_add(tl_mul(rm, N), rn), r;
    if (batch) {   /* each offset plus its batch's start, [BATCH, 1, 1] */
        tl_t rb = tl_expand_dims(tl_expand_dims(tl_arange(0, batch), 1), 2);
        pa = tl_add(tl_mul(rb, M * K), tl_expand_dims(pa, 0));
        pb = tl_add(tl_mul(rb, K * N), tl_expand_dims(pb, 0));
        pc = tl_add(tl_mul(rb, M * N), tl_expand_dims(pc, 0));
    }
    tl_t A = tl_load(tl_add(a, pa)), B = tl_load(tl_add(b, pb));
    if (acc == 1) r = tl_dot(A, B, tl_load(tl_add(c0, pc)), .input_precision = prec, .max_num_imprecise_acc = imp);
    else if (acc == 2) r = tl_dot(A, B, .acc = tl_load(tl_add(c0, pc)), .input_precision = prec, .max_num_imprecise_acc = imp);
    else if (prec || out_dt || imp) r = tl_dot(A, B, .input_precision = prec, .out_dtype = out_dt, .max_num_imprecise_acc = imp);
    else r = tl_dot(A, B);
    record(r);
    tl_store(tl_add(c, pc), r);
}
#define DOT_KERNEL(name, TA, TB, TC) \
    TILE_KERNEL(name, (tl_ptr_##TA, a), (tl_ptr_##TB, b), (tl_ptr_##TC, c0), (tl_ptr_##TC, c)) { dot_body(a, b, c0, c); }
DOT_KERNEL(dot_f16, f16, f16, f32)
DOT_KERNEL(dot_f16h, f16, f16, f16)
DOT_KERNEL(dot_bf16, bf16, bf16, f32)
DOT_KERNEL(dot_f32, f32, f32, f32)
DOT_KERNEL(dot_e4, f8e4m3, f8e4m3, f32)
DOT_KERNEL(dot_e5, f8e5m2, f8e5m2, f32)
DOT_KERNEL(dot_e4e5, f8e4m3, f8e5m2, f32)
DOT_KERNEL(dot_e5e4, f8e5m2, f8e4m3, f32)
DOT_KERNEL(dot_e4h, f8e4m3, f8e4m3, f16)
DOT_KERNEL(dot_e4b15, f8e4b15, f8e4b15, f32)
DOT_KERNEL(dot_e4b8e5b16, f8e4b8, f8e5b16, f32)
DOT_KERNEL(dot_e4b15e4m3, f8e4b15, f8e4m3, f32)
DOT_KERNEL(dot_i8, i8, i8, i32)

typedef struct dotcase {
    const char *name;
    tl_dtype ta, tb, tc;
    tile_kernel *k;
} dotcase;
static tile_status launch_dot(const dotcase *dc, const tile_launch *o, void *a, void *b, void *c0, void *c) {
    const tile_arg args[4] = {{.p = a}, {.p = b}, {.p = c0}, {.p = c}};
    return tile_launch_kernel(dc->k, o, args);
}
static double rd_num(tl_dtype t, const void *p, int i) {
    switch (t) {
    case TL_F16: return dec_fmt(((const uint16_t *)p)[i], 5, 10);
    case TL_BF16: return dec_fmt(((const uint16_t *)p)[i], 8, 7);
    case TL_F8E4M3: return dec_fmt(((const uint8_t *)p)[i], 4, 3);
    case TL_F8E5M2: return dec_fmt(((const uint8_t *)p)[i], 5, 2);
    case TL_F8E4B15: return dec_fmt_b(((const uint8_t *)p)[i], 4, 3, 15);
    case TL_F8E4B8: return dec_fmt_b(((const uint8_t *)p)[i], 4, 3, 8);
    case TL_F8E5B16: return dec_fmt_b(((const uint8_t *)p)[i], 5, 2, 16);
    case TL_F32: return ((const float *)p)[i];
    case TL_I8: return ((const int8_t *)p)[i];
    default: return ((const int32_t *)p)[i];
    }
}
static void fill_num(tl_dtype t, void *p, int n) {
    for (int i = 0; i < n; i++) {
        switch (t) {
        case TL_F16: ((uint16_t *)p)[i] = (uint16_t)rand_code(5, 10, -4, 2); break;
        case TL_BF16: ((uint16_t *)p)[i] = (uint16_t)rand_code(8, 7, -4, 2); break;
        case TL_F8E4M3: ((uint8_t *)p)[i] = (uint8_t)rand_code(4, 3, -4, 2); break;
        case TL_F8E5M2: ((uint8_t *)p)[i] = (uint8_t)rand_code(5, 2, -4, 2); break;
        case TL_F8E4B15: ((uint8_t *)p)[i] = (uint8_t)rand_code_b(4, 3, 15, -4, 0); break;   /* |x| < 2, 0x7f (1.875) included */
        case TL_F8E4B8: ((uint8_t *)p)[i] = (uint8_t)rand_code_b(4, 3, 8, -4, 2); break;
        case TL_F8E5B16: ((uint8_t *)p)[i] = (uint8_t)rand_code_b(5, 2, 16, -4, 2); break;
        case TL_F32: ((float *)p)[i] = (float)tt_normal(); break;
        case TL_I8: ((int8_t *)p)[i] = (int8_t)tt_int(-128, 127); break;
        default: ((int32_t *)p)[i] = (int32_t)tt_int(-(1 << 28), 1 << 28); break;
        }
    }
}
/* f32 -> tf32 as the tensor cores read it: keep 10 fraction bits, ties to even */
static double tf32(double x) {
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    u = (u + 0xfffu + ((u >> 13) & 1)) & ~0x1fffu;
    memcpy(&f, &u, 4);
    return f;
}

/* batch 0: 2-D operands; else that many batches (3-D operands), each
   checked against its own product; imp: .max_num_imprecise_acc */
static void test_dot_b(const dotcase *dc, int batch, int M, int N, int K, int acc, tl_precision prec, int f16out, int imp) {
    int nb = batch ? batch : 1, na = nb * M * K, nbk = nb * K * N, nc = nb * M * N;
    size_t sa = tile_dtype_size(dc->ta), sb = tile_dtype_size(dc->tb), sc = tile_dtype_size(dc->tc);
    void *a = tile_malloc((size_t)na * sa), *b = tile_malloc((size_t)nbk * sb);
    void *c0 = tile_malloc((size_t)nc * sc), *c = tile_malloc((size_t)nc * sc);
    fill_num(dc->ta, a, na);
    fill_num(dc->tb, b, nbk);
    fill_num(dc->tc, c0, nc);
    tt_poison(c, (size_t)nc * sc);
    static const char *const pname[] = {"default", "tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"};
    char what[160], bs[16] = "", is[40] = "";
    if (batch) snprintf(bs, sizeof bs, "%d x ", batch);
    if (imp) snprintf(is, sizeof is, " max_num_imprecise_acc=%d", imp);
    snprintf(what, sizeof what, "tl_dot %s %s%dx%dx%d%s%s%s%s%s", dc->name, bs, M, N, K, acc ? " +acc" : "", f16out ? " out_dtype=f16" : "",
             dc->ta == TL_F32 ? " " : "", dc->ta == TL_F32 ? pname[prec] : "", is);
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    tile_meta m[] = {{"M", M}, {"N", N}, {"K", K}, {"ACC", acc}, {"PREC", prec}, {"F16OUT", f16out}, {"BATCH", batch}, {"IMP", imp}};
    memcpy(o.meta, m, sizeof m);
    g_traced = 0;
    tile_status st = launch_dot(dc, &o, a, b, c0, c);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    tl_dtype want_dt = dc->tc == TL_I32 ? TL_I32 : (acc || f16out) ? dc->tc : TL_F32;
    if (f16out) want_dt = TL_F16;
    TT_CHECK(g_traced && g_dtype == want_dt, "%s: result dtype %s, want %s", what, tile_dtype_name(g_dtype), tile_dtype_name(want_dt));
    int want_rank = batch ? 3 : 2;
    TT_CHECK(g_traced && g_rank == want_rank && (!batch || g_dims[0] == batch) && g_dims[want_rank - 2] == M && g_dims[want_rank - 1] == N,
             "%s: result of rank %d [%d, %d, ...], want %s[%d, %d]", what, g_rank, g_dims[0], g_dims[1], bs, M, N);
    int rounded = dc->ta == TL_F32 && (prec == TL_PRECISION_DEFAULT || prec == TL_PRECISION_TF32);
    double u = want_dt == TL_F16 ? ldexp(1.0, -11) : ldexp(1.0, -24);
    /* tf32x3 about 21 bits; bf16x3 16 (x1 y1 left out), bf16x6 about 24 (the products of order 3 left out) */
    double ux = dc->ta != TL_F32                  ? u
              : prec == TL_PRECISION_TF32X3       ? ldexp(1.0, -21)
              : prec == TL_PRECISION_BF16X3       ? ldexp(1.0, -15)
              : prec == TL_PRECISION_BF16X6       ? ldexp(1.0, -21)
                                                  : u;
    int bad = 0, far_from_ieee = 0;
    for (int bb = 0; bb < nb; bb++) {
        int oa = bb * M * K, ob = bb * K * N, oc = bb * M * N;   /* this batch's first element */
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double ref = acc ? rd_num(dc->tc, c0, oc + i * N + j) : 0, ieee = ref, mag = fabs(ref);
                for (int k = 0; k < K; k++) {
                    double x = rd_num(dc->ta, a, oa + i * K + k), y = rd_num(dc->tb, b, ob + k * N + j);
                    ieee += x * y;
                    if (rounded) {
                        x = tf32(x);
                        y = tf32(y);
                    }
                    ref += x * y;
                    mag += fabs(x * y);
                }
                double got = rd_num(want_dt, c, oc + i * N + j);
                double tol = want_dt == TL_I32 ? 0 : (K + 2) * ux * mag + (want_dt == TL_F16 ? K * ldexp(1.0, -24) : 0);
                if (want_dt == TL_I32) ref = (double)wrap_to(TL_I32, (uint64_t)(int64_t)ref);
                if (!(fabs(got - ref) <= tol) && bad++ < 3)
                    printf("  %s at (%d, %d, %d): got %.9g, want %.9g (tol %.3g)\n", what, bb, i, j, got, ref, tol);
                if (fabs(got - ieee) > (K + 2) * ldexp(mag, -24)) far_from_ieee++;
            }
    }
    TT_CHECK(bad == 0, "%s: %d of %d elements out of tolerance", what, bad, nc);
    if (rounded)
        TT_CHECK(far_from_ieee > nc / 2, "%s: only %d of %d elements differ from the unrounded product; tf32 rounding did not happen",
                 what, far_from_ieee, nc);
    tile_free(a);
    tile_free(b);
    tile_free(c0);
    tile_free(c);
    tile_kernel_release(dc->k);
}
static void test_dot(const dotcase *dc, int M, int N, int K, int acc, tl_precision prec, int f16out) {
    test_dot_b(dc, 0, M, N, K, acc, prec, f16out, 0);
}

int main(void) {
    tt_seed();
    static const rshape shapes[3] = {{1, {64, 1, 1}}, {2, {16, 32, 1}}, {3, {4, 8, 16}}};
    /* f32: every reduction along every axis (negative too) and TL_ALL */
    for (int si = 0; si < 3; si++) {
        const rshape *s = &shapes[si];
        for (int ax = -s->rank; ax <= s->rank; ax++) {
            int axis = ax == s->rank ? TL_ALL : ax;
            for (int op = 0; op < R_COUNT; op++) {
                if (op == R_XOR) continue;
                for (int keep = 0; keep < 2; keep++) test_reduce_f32(s, axis, op, keep);
            }
        }
    }
    /* integer reductions and Triton's result dtypes */
    static const rshape s1 = {1, {128, 1, 1}}, s2 = {2, {8, 64, 1}}, s3 = {3, {4, 8, 8}};
    test_reduce_int(TL_I8, &s2, 1, R_SUM, 0, TL_VOID, TL_I32);
    test_reduce_int(TL_I8, &s3, -3, R_SUM, 1, TL_VOID, TL_I32);
    test_reduce_int(TL_I8, &s1, TL_ALL, R_SUM, 0, TL_VOID, TL_I32);
    test_reduce_int(TL_I16, &s1, 0, R_SUM, 0, TL_VOID, TL_I32);
    test_reduce_int(TL_I16, &s2, 0, R_SUM, 0, TL_VOID, TL_I32);
    test_reduce_int(TL_U8, &s1, 0, R_SUM, 0, TL_VOID, TL_U32);
    test_reduce_int(TL_U8, &s2, -1, R_SUM, 1, TL_VOID, TL_U32);
    test_reduce_int(TL_I1, &s2, 1, R_SUM, 0, TL_VOID, TL_U32);
    test_reduce_int(TL_I1, &s3, TL_ALL, R_SUM, 1, TL_VOID, TL_U32);
    test_reduce_int(TL_I32, &s2, 1, R_SUM, 0, TL_VOID, TL_I32);
    test_reduce_int(TL_I32, &s2, 1, R_SUM, 0, TL_I64, TL_I64);
    test_reduce_int(TL_I32, &s3, 2, R_SUM, 0, TL_I64, TL_I64);
    test_reduce_int(TL_I8, &s2, 1, R_SUM, 0, TL_I8, TL_I8);
    for (int si = 0; si < 3; si++) {
        const rshape *s = si == 0 ? &s1 : si == 1 ? &s2 : &s3;
        for (int ax = -s->rank; ax <= s->rank; ax++)
            for (int op = R_MAX; op <= R_PROD; op++)
                test_reduce_int(TL_I32, s, ax == s->rank ? TL_ALL : ax, op, ax & 1, TL_VOID, TL_I32);
    }
    /* Triton's max/min widen sub-32-bit inputs (ints to i32, floats to f32) */
    for (int op = R_MAX; op <= R_ARGMIN; op++) {
        test_reduce_int(TL_U8, &s3, 1, op, 0, TL_VOID, TL_I32);
        test_reduce_int(TL_I8, &s3, 2, op, 0, TL_VOID, TL_I32);
        test_reduce_int(TL_I16, &s1, TL_ALL, op, 0, TL_VOID, TL_I32);
    }
    test_reduce_int(TL_I32, &s3, TL_ALL, R_XOR, 0, TL_VOID, TL_I32);
    test_reduce_int(TL_I8, &s2, 1, R_XOR, 0, TL_VOID, TL_I8);
    test_reduce_int(TL_I16, &s3, 0, R_XOR, 1, TL_VOID, TL_I16);
    /* f16 */
    test_reduce_f16(&s1, 0, R_SUM, TL_VOID);
    test_reduce_f16(&s2, 1, R_SUM, TL_VOID);
    test_reduce_f16(&s3, -2, R_SUM, TL_VOID);
    test_reduce_f16(&s2, 1, R_SUM, TL_F32);
    test_reduce_f16(&s1, TL_ALL, R_SUM, TL_F32);
    test_reduce_f16(&s2, 0, R_MAX, TL_VOID);
    test_reduce_f16(&s3, 2, R_MIN, TL_VOID);
    test_reduce_f16(&s2, 1, R_ARGMAX, TL_VOID);

    /* propagate_nan: every float dtype, both reductions along each axis and over all, the
       elementwise ops, with and without the option; an integer (no NaN: unchanged); the MMA
       layout's reduction; the misuses */
    static const tl_dtype nan_dts[] = {TL_F16, TL_BF16, TL_F32, TL_F64};
    for (int d = 0; d < 4; d++)
        for (int pn = 0; pn < 2; pn++) {
            for (int op = 0; op < 2; op++) {
                test_nan_minmax(nan_dts[d], op, 0, pn);
                test_nan_minmax(nan_dts[d], op, 1, pn);
                test_nan_minmax(nan_dts[d], op, TL_ALL, pn);
            }
            test_nan_minmax(nan_dts[d], 2, 0, pn);
            test_nan_minmax(nan_dts[d], 3, 0, pn);
        }
    test_nan_minmax(TL_I32, 0, 1, 1);
    test_nan_minmax(TL_I32, 3, 0, 1);
    test_nan_minmax(TL_F32, 4, 1, 1);
    test_nan_minmax(TL_F32, 4, 1, 0);
    test_nan_errors();

    /* scans: every axis, both directions, int and float */
    for (int si = 0; si < 3; si++) {
        const rshape *s = &shapes[si];
        for (int ax = -1; ax < s->rank; ax++)
            for (int rev = 0; rev < 2; rev++) {
                test_scan(TL_F32, s, ax, R_SUM, rev, TL_F32);
                test_scan(TL_F32, s, ax, R_PROD, rev, TL_F32);
                test_scan(TL_I32, s, ax, R_SUM, rev, TL_I32);
                test_scan(TL_I32, s, ax, R_PROD, rev, TL_I32);
            }
    }
    static const rshape s16 = {1, {16, 1, 1}};
    test_scan(TL_I8, &shapes[0], 0, R_SUM, 0, TL_I32);
    test_scan(TL_I8, &shapes[1], 1, R_SUM, 1, TL_I32);
    test_scan(TL_I8, &s16, 0, R_PROD, 0, TL_I8);

    /* dot: every operand pair, with and without an accumulator */
    static const int dims[][3] = {{16, 16, 16}, {32, 32, 16}, {16, 64, 32}, {64, 32, 32}, {32, 16, 64}, {64, 128, 32}};
    const dotcase cases[] = {
        {"f16 x f16 -> f32", TL_F16, TL_F16, TL_F32, TILE_KERNEL_OF(dot_f16)},
        {"bf16 x bf16 -> f32", TL_BF16, TL_BF16, TL_F32, TILE_KERNEL_OF(dot_bf16)},
        {"f8e4m3 x f8e4m3 -> f32", TL_F8E4M3, TL_F8E4M3, TL_F32, TILE_KERNEL_OF(dot_e4)},
        {"f8e5m2 x f8e5m2 -> f32", TL_F8E5M2, TL_F8E5M2, TL_F32, TILE_KERNEL_OF(dot_e5)},
        {"f8e4m3 x f8e5m2 -> f32", TL_F8E4M3, TL_F8E5M2, TL_F32, TILE_KERNEL_OF(dot_e4e5)},
        {"f8e5m2 x f8e4m3 -> f32", TL_F8E5M2, TL_F8E4M3, TL_F32, TILE_KERNEL_OF(dot_e5e4)},
        {"i8 x i8 -> i32", TL_I8, TL_I8, TL_I32, TILE_KERNEL_OF(dot_i8)},
        /* the software fp8s: the dot of their f16 values */
        {"f8e4b15 x f8e4b15 -> f32", TL_F8E4B15, TL_F8E4B15, TL_F32, TILE_KERNEL_OF(dot_e4b15)},
        {"f8e4b8 x f8e5b16 -> f32", TL_F8E4B8, TL_F8E5B16, TL_F32, TILE_KERNEL_OF(dot_e4b8e5b16)},
        {"f8e4b15 x f8e4m3 -> f32", TL_F8E4B15, TL_F8E4M3, TL_F32, TILE_KERNEL_OF(dot_e4b15e4m3)},
    };
    const dotcase f32case = {"f32 x f32 -> f32", TL_F32, TL_F32, TL_F32, TILE_KERNEL_OF(dot_f32)};
    const dotcase f16h = {"f16 x f16 -> f16", TL_F16, TL_F16, TL_F16, TILE_KERNEL_OF(dot_f16h)};
    const dotcase e4h = {"f8e4m3 x f8e4m3 -> f16", TL_F8E4M3, TL_F8E4M3, TL_F16, TILE_KERNEL_OF(dot_e4h)};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int acc = 0; acc < 3; acc++) {
            const int *d = dims[tt_int(0, 5)];
            test_dot(&cases[k], d[0], d[1], d[2], acc, TL_PRECISION_DEFAULT, 0);
        }
    test_dot(&cases[0], 64, 128, 32, 1, TL_PRECISION_DEFAULT, 0);
    test_dot(&cases[6], 64, 128, 32, 0, TL_PRECISION_DEFAULT, 0);
    for (int prec = TL_PRECISION_DEFAULT; prec <= TL_PRECISION_BF16X6; prec++)
        for (int acc = 0; acc < 2; acc++) {
            const int *d = dims[tt_int(0, 5)];
            test_dot(&f32case, d[0], d[1], d[2], acc, (tl_precision)prec, 0);
        }
    test_dot(&f16h, 32, 32, 32, 0, TL_PRECISION_DEFAULT, 1);
    test_dot(&f16h, 16, 64, 64, 1, TL_PRECISION_DEFAULT, 0);
    test_dot(&f16h, 64, 16, 16, 2, TL_PRECISION_DEFAULT, 0);
    test_dot(&e4h, 32, 16, 32, 0, TL_PRECISION_DEFAULT, 1);
    test_dot(&e4h, 16, 32, 32, 1, TL_PRECISION_DEFAULT, 0);

    /* batched dots: B of 1, 2 and 4 for every operand pair, with and
       without an accumulator (both ways of giving it), f32 at every
       precision, f16 results (out_dtype and an f16 acc), fp8 with
       max_num_imprecise_acc */
    static const int bdims[][3] = {{16, 16, 16}, {32, 16, 32}, {16, 32, 64}, {32, 32, 16}, {64, 16, 32}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int bi = 0; bi < 3; bi++) {
            const int *d = bdims[tt_int(0, 4)];
            int fp8 = cases[k].ta == TL_F8E4M3 || cases[k].ta == TL_F8E5M2, imp = fp8 && bi == 2 ? 16 : 0;
            test_dot_b(&cases[k], 1 << bi, d[0], d[1], d[2], (int)(k + (size_t)bi) % 3, TL_PRECISION_DEFAULT, 0, imp);
        }
    for (int prec = TL_PRECISION_DEFAULT; prec <= TL_PRECISION_BF16X6; prec++)
        for (int acc = 0; acc < 2; acc++) {
            const int *d = bdims[tt_int(0, 4)];
            test_dot_b(&f32case, 1 << ((prec + acc) % 3), d[0], d[1], d[2], acc, (tl_precision)prec, 0, 0);
        }
    test_dot_b(&f16h, 2, 32, 16, 32, 0, TL_PRECISION_DEFAULT, 1, 0);
    test_dot_b(&f16h, 4, 16, 32, 16, 1, TL_PRECISION_DEFAULT, 0, 0);
    test_dot_b(&f16h, 1, 16, 16, 32, 2, TL_PRECISION_DEFAULT, 0, 0);
    test_dot_b(&e4h, 4, 16, 16, 32, 0, TL_PRECISION_DEFAULT, 1, 32);
    test_dot_b(&e4h, 2, 32, 16, 16, 1, TL_PRECISION_DEFAULT, 0, 0);
    test_dot_b(&cases[0], 4, 64, 64, 32, 1, TL_PRECISION_DEFAULT, 0, 0);
    return tt_finish("test_ops_reduce");
}
