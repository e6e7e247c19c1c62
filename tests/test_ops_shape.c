/* tests/test_ops_shape.c — the ops that make, move and convert tiles rather
   than compute on them: tl_program_id / tl_num_programs on a 3-D grid,
   tl_arange, tl_full and friends, broadcasting, expand_dims, reshape / view /
   ravel, permute / trans, cat / join / split / interleave, tl_cast between
   every pair of the 18 value dtypes, tl_bitcast bit for bit, and the host
   conversions tile_{f16,bf16,f8e4m3,f8e5m2,f8e4b15,f8e4b8,f8e5b16}_{from,to}.

   Conversions are checked against a bit-level model of the formats written
   here from the IEEE / OCP definitions (integer rounding to nearest even on
   the significand, never a C float cast), exhaustively where the format is
   small: all 65536 f16 and bf16 patterns, all 256 of each f8, every tie
   between neighbours, overflow, subnormals and NaN. The fnuz formats
   (f8e4b8, f8e5b16: one NaN, 0x80, no infinity, no -0) follow their
   definition; f8e4b15 follows Triton's conversion on NVIDIA GPUs (every
   code finite, ties away from zero, saturating at 1.75), but for a NaN,
   which is +1.75 whatever its sign. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <float.h>

/* ---- a bit-level model of the binary float formats --------------------------- */
typedef struct fmt {
    const char *name;
    int ebits, mbits;
    int fn;   /* e4m3 "fn": no infinities, only S.1111.111 is NaN */
    int sat;  /* overflow (and infinity) gives the largest finite value */
    int bias; /* 0: the IEEE bias, 2^(ebits-1) - 1 */
    int nuz;  /* fnuz: 0x80 is the only NaN, no infinity, no -0; NaN and infinities convert to it */
    int nosp; /* no special values (f8e4b15); conversions saturate at the code before the top, NaN too */
    int away; /* ties away from zero */
} fmt;
static const fmt F_F16 = {"f16", 5, 10, 0, 0, 0, 0, 0, 0}, F_BF16 = {"bf16", 8, 7, 0, 0, 0, 0, 0, 0}, F_F32 = {"f32", 8, 23, 0, 0, 0, 0, 0, 0},
                 F_F64 = {"f64", 11, 52, 0, 0, 0, 0, 0, 0}, F_E4M3 = {"f8e4m3", 4, 3, 1, 1, 0, 0, 0, 0}, F_E5M2 = {"f8e5m2", 5, 2, 0, 1, 0, 0, 0, 0},
                 F_E4B15 = {"f8e4b15", 4, 3, 0, 1, 15, 0, 1, 1}, F_E4B8 = {"f8e4b8", 4, 3, 0, 1, 8, 1, 0, 0},
                 F_E5B16 = {"f8e5b16", 5, 2, 0, 1, 16, 1, 0, 0};
static int fmt_bias(const fmt *F) { return F->bias ? F->bias : (1 << (F->ebits - 1)) - 1; }

static uint64_t fmt_sign(const fmt *F) { return (uint64_t)1 << (F->ebits + F->mbits); }
static uint64_t fmt_emask(const fmt *F) { return ((uint64_t)1 << F->ebits) - 1; }
static uint64_t fmt_mmask(const fmt *F) { return ((uint64_t)1 << F->mbits) - 1; }
/* the largest finite value a conversion gives */
static uint64_t fmt_maxfin(const fmt *F) {
    if (F->nuz) return (fmt_emask(F) << F->mbits) | fmt_mmask(F);
    if (F->nosp) return (fmt_emask(F) << F->mbits) | (fmt_mmask(F) - 1);
    return F->fn ? (fmt_emask(F) << F->mbits) | (fmt_mmask(F) - 1) : ((fmt_emask(F) - 1) << F->mbits) | fmt_mmask(F);
}
static uint64_t fmt_inf(const fmt *F) { return fmt_emask(F) << F->mbits; }
static int fmt_isnan(const fmt *F, uint64_t b) {
    uint64_t mag = b & (fmt_sign(F) - 1);
    if (F->nuz) return b == fmt_sign(F);
    if (F->nosp) return 0;
    return F->fn ? mag == (fmt_emask(F) << F->mbits | fmt_mmask(F)) : (mag >> F->mbits) == fmt_emask(F) && (mag & fmt_mmask(F));
}
/* (-1)^neg * m * 2^e to the nearest value of F, ties to even */
static uint64_t enc(const fmt *F, int neg, uint64_t m, int e) {
    uint64_t sign = neg ? fmt_sign(F) : 0, c;
    if (m == 0) return F->nuz ? 0 : sign;
    int bias = fmt_bias(F), emin = 1 - bias, p = 0;
    for (uint64_t t = m; t; t >>= 1) p++;
    int E = e + p - 1, q = (E < emin ? emin : E) - F->mbits, sh = q - e;
    if (sh <= 0) c = m << -sh;
    else if (sh > 64) c = 0;
    else if (sh == 64) c = m > ((uint64_t)1 << 63);
    else {
        uint64_t rem = m & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1);
        c = m >> sh;
        if (rem > half || (rem == half && (F->away || (c & 1)))) c++;
    }
    uint64_t bits;
    if (c < ((uint64_t)1 << F->mbits)) {
        bits = c;
    } else {
        if (c == (uint64_t)1 << (F->mbits + 1)) {
            c >>= 1;
            q++;
        }
        long long be = (long long)q + F->mbits + bias;
        bits = be > 4096 ? ~(uint64_t)0 >> 1 : ((uint64_t)be << F->mbits) | (c & fmt_mmask(F));
    }
    if (bits > fmt_maxfin(F)) bits = F->sat || F->fn ? fmt_maxfin(F) : fmt_inf(F);
    return bits ? sign | bits : F->nuz ? 0 : sign;
}
static uint64_t enc_double(const fmt *F, double x) {
    if (F->nuz && (x != x || isinf(x))) return fmt_sign(F);
    if (F->nosp && x != x) return fmt_maxfin(F);   /* +1.75: tile drops a NaN's sign (the GPU's cvt from f16 does) */
    if (x != x) return (signbit(x) ? fmt_sign(F) : 0) | (F->fn ? (fmt_emask(F) << F->mbits) | fmt_mmask(F) : fmt_inf(F) | ((uint64_t)1 << (F->mbits - 1)));
    int neg = signbit(x) != 0;
    if (isinf(x)) return (neg ? fmt_sign(F) : 0) | (F->sat || F->fn ? fmt_maxfin(F) : fmt_inf(F));
    uint64_t u;
    memcpy(&u, &x, 8);
    uint64_t ex = (u >> 52) & 0x7ff, fr = u & (((uint64_t)1 << 52) - 1);
    return ex == 0 ? enc(F, neg, fr, -1074) : enc(F, neg, fr | ((uint64_t)1 << 52), (int)ex - 1075);
}
static double dec(const fmt *F, uint64_t b) {
    int bias = fmt_bias(F);
    uint64_t ex = (b >> F->mbits) & fmt_emask(F), fr = b & fmt_mmask(F);
    int neg = (b & fmt_sign(F)) != 0;
    double v;
    if (fmt_isnan(F, b)) return neg && !F->nuz ? -NAN : NAN;   /* the fnuz NaN has no sign */
    if (!F->fn && !F->nuz && !F->nosp && ex == fmt_emask(F)) v = INFINITY;
    else if (ex == 0) v = ldexp((double)fr, 1 - bias - F->mbits);
    else v = ldexp((double)(fr | ((uint64_t)1 << F->mbits)), (int)ex - bias - F->mbits);
    return neg ? -v : v;
}
/* x rounded to F, as a double */
static double fround(const fmt *F, double x) { return dec(F, enc_double(F, x)); }
/* same value and, for zeros, same sign; NaN matches NaN */
static int same_float(double got, double want) {
    if (want != want) return got != got;
    return got == want && signbit(got) == signbit(want);
}

/* ---- dtypes ----------------------------------------------------------------------- */
typedef union val { int64_t i; uint64_t u; double f; } val;
static const tl_dtype all_dts[] = {TL_I1, TL_I8, TL_I16, TL_I32, TL_I64, TL_U8, TL_U16, TL_U32, TL_U64,
                                   TL_F16, TL_BF16, TL_F32, TL_F64, TL_F8E4M3, TL_F8E5M2, TL_F8E4B15, TL_F8E4B8, TL_F8E5B16};
#define NDT 18
static const fmt *fmt_of(tl_dtype t) {
    switch (t) {
    case TL_F16: return &F_F16;
    case TL_BF16: return &F_BF16;
    case TL_F32: return &F_F32;
    case TL_F64: return &F_F64;
    case TL_F8E4M3: return &F_E4M3;
    case TL_F8E5M2: return &F_E5M2;
    case TL_F8E4B15: return &F_E4B15;
    case TL_F8E4B8: return &F_E4B8;
    case TL_F8E5B16: return &F_E5B16;
    default: return NULL;
    }
}
static int dt_signed(tl_dtype t) { return t >= TL_I8 && t <= TL_I64; }
static int dt_bits(tl_dtype t) { return t == TL_I1 ? 1 : (int)tile_dtype_size(t) * 8; }
static val wrap(tl_dtype t, uint64_t u) {
    val r;
    int w = dt_bits(t);
    if (t == TL_I1) r.u = u != 0;
    else if (w == 64) r.u = u;
    else if (dt_signed(t)) r.i = (int64_t)(u << (64 - w)) >> (64 - w);
    else r.u = u & (((uint64_t)1 << w) - 1);
    return r;
}
/* raw little-endian bits of element k of an array of dtype t */
static uint64_t raw_get(tl_dtype t, const void *p, size_t k) {
    size_t s = tile_dtype_size(t);
    uint64_t u = 0;
    memcpy(&u, (const unsigned char *)p + k * s, s);
    return u;
}
static void raw_put(tl_dtype t, void *p, size_t k, uint64_t u) {
    memcpy((unsigned char *)p + k * tile_dtype_size(t), &u, tile_dtype_size(t));
}
/* the value of element bits b of dtype t */
static val from_bits(tl_dtype t, uint64_t b) {
    val v;
    if (fmt_of(t)) v.f = dec(fmt_of(t), b);
    else v = wrap(t, b);
    return v;
}
/* bits of a value the dtype holds exactly (an infinity stays one) */
static uint64_t to_bits(tl_dtype t, val v) {
    const fmt *F = fmt_of(t);
    if (F && isinf(v.f) && !F->fn && !F->nuz && !F->nosp) return (signbit(v.f) ? fmt_sign(F) : 0) | fmt_inf(F);
    if (F && F->nosp && fabs(v.f) == dec(F, fmt_maxfin(F) + 1)) return (signbit(v.f) ? fmt_sign(F) : 0) | (fmt_maxfin(F) + 1);   /* f8e4b15's 0x7f */
    return F ? enc_double(F, v.f) : v.u;
}

/* tl_cast's value conversion, as the GPU's cvt: float -> int truncates and
   saturates (NaN -> 0), int -> float and float -> float round to nearest
   even (f8 saturating), anything -> i1 is != 0, int -> int wraps */
static val ref_cast(tl_dtype s, tl_dtype d, val v) {
    val r;
    r.u = 0;
    const fmt *fs = fmt_of(s), *fd = fmt_of(d);
    if (s == d) return v;   /* a cast to the same dtype is no conversion (Triton returns its input) */
    if (d == TL_I1) {
        r.u = fs ? v.f != 0 : v.u != 0;
        return r;
    }
    if (fs && fd) {
        r.f = fround(fd, v.f);
        return r;
    }
    if (fs) {
        double x = trunc(v.f);
        int w = dt_bits(d);
        if (x != x) return r;
        if (dt_signed(d)) {
            double lim = ldexp(1.0, w - 1);
            r.i = x < -lim ? (int64_t)-lim : x >= lim ? (int64_t)((((uint64_t)1) << (w - 1)) - 1) : (int64_t)x;
        } else {
            double lim = ldexp(1.0, w);
            r.u = x <= 0 ? 0 : x >= lim ? (w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1) : (uint64_t)x;
        }
        return r;
    }
    if (fd) {
        int neg = dt_signed(s) && v.i < 0;
        r.f = dec(fd, enc(fd, neg, neg ? 0 - v.u : v.u, 0));
        return r;
    }
    return wrap(d, v.u);
}

static void silent_log(const tile_error *e, void *user) { (void)e; (void)user; }

/* ---- program ids on a 3-D grid ------------------------------------------------------ */
TILE_KERNEL(pid_kernel, (tl_ptr_i32, out)) {
    tl_t p0 = tl_program_id(0), p1 = tl_program_id(1), p2 = tl_program_id(2);
    tl_t n0 = tl_num_programs(0), n1 = tl_num_programs(1), n2 = tl_num_programs(2);
    tl_t lin = tl_add(p0, tl_mul(n0, tl_add(p1, tl_mul(n1, p2))));
    tl_t base = tl_add(out, tl_mul(lin, 8));
    tl_t v[6] = {p0, p1, p2, n0, n1, n2};
    for (int k = 0; k < 6; k++) tl_store(tl_add(base, k), v[k]);
}
static void test_program_id(void) {
    unsigned grids[][3] = {{3, 4, 5}, {7, 0, 0}, {1, 1, 6}, {2, 3, 1}};
    int32_t *out = tile_malloc(8 * 120 * sizeof *out);
    static int32_t h[8 * 120];
    for (int g = 0; g < 4; g++) {
        unsigned G[3];
        for (int d = 0; d < 3; d++) G[d] = grids[g][d] ? grids[g][d] : 1;
        if (g == 0)
            for (int d = 0; d < 3; d++) G[d] = (unsigned)tt_int(2, 4 + d);
        unsigned total = G[0] * G[1] * G[2];
        const unsigned *lg = g == 0 ? G : grids[g]; /* 0 in a launch grid means 1 */
        tt_poison(out, 8 * 120 * sizeof *out);
        TT_OK(pid_kernel(TILE_OPTS(.grid = {lg[0], lg[1], lg[2]}), out));
        TT_OK(tile_memcpy_dtoh(h, out, sizeof h));
        int bad = 0;
        for (unsigned z = 0; z < G[2]; z++)
            for (unsigned y = 0; y < G[1]; y++)
                for (unsigned x = 0; x < G[0]; x++) {
                    unsigned lin = x + G[0] * (y + G[1] * z);
                    int32_t want[6] = {(int32_t)x, (int32_t)y, (int32_t)z, (int32_t)G[0], (int32_t)G[1], (int32_t)G[2]};
                    for (int k = 0; k < 6; k++) {
                        tt_checks++;
                        if (h[lin * 8 + (unsigned)k] != want[k]) bad++;
                    }
                }
        TT_CHECK(bad == 0, "program_id/num_programs on grid (%u,%u,%u): %d wrong values", G[0], G[1], G[2], bad);
        TT_CHECK(total * 8 >= 8 * 120 || ((unsigned char *)h)[total * 8 * 4] == 0xA5, "grid (%u,%u,%u): a program past the grid ran",
                 G[0], G[1], G[2]);
    }
    tile_kernel_release(TILE_KERNEL_OF(pid_kernel));
    tile_free(out);
}

/* ---- arange ---------------------------------------------------------------------------- */
static int traced_rank, traced_dims[TL_MAX_RANK];
static tl_dtype traced_dt;
static void trace_shape(tl_t r) {
    traced_dt = tl_dtype_of(r);
    traced_rank = tl_rank(r);
    for (int d = 0; d < TL_MAX_RANK; d++) traced_dims[d] = d < traced_rank ? tl_dim(r, d) : 0;
}
static int traced_is(int rank, const int *dims) {
    if (traced_rank != rank) return 0;
    for (int d = 0; d < rank; d++)
        if (traced_dims[d] != dims[d]) return 0;
    return 1;
}
static void shape_str(char *buf, size_t n, int rank, const int *dims) {
    size_t at = 0;
    at += (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < rank && at < n; d++) at += (size_t)snprintf(buf + at, n - at, "%s%d", d ? "," : "", dims[d]);
    if (at < n) snprintf(buf + at, n - at, "]");
}

TILE_KERNEL(arange_kernel, (tl_ptr_i32, out)) {
    int start = TL_META(START), len = TL_META(LEN);
    tl_t r = tl_arange(start, start + len);
    trace_shape(r);
    tl_store(tl_add(out, tl_arange(0, len)), r);
}
static void test_arange(void) {
    int32_t *out = tile_malloc(512 * 4);
    static int32_t h[512];
    int lens[] = {1, 2, 32, 256};
    for (int k = 0; k < 4; k++) {
        int start = k == 0 ? 0 : (int)tt_int(1, 100000), len = lens[k];
        tt_poison(out, 512 * 4);
        TT_OK(arange_kernel(TILE_OPTS(.meta = {{"START", start}, {"LEN", len}}), out));
        TT_OK(tile_memcpy_dtoh(h, out, sizeof h));
        TT_CHECK(traced_dt == TL_I32 && traced_is(1, &len), "tl_arange(%d, %d): dtype %s rank %d dim %d", start, start + len,
                 tile_dtype_name(traced_dt), traced_rank, traced_dims[0]);
        int bad = 0;
        for (int e = 0; e < len; e++) bad += h[e] != start + e;
        tt_checks += len;
        TT_CHECK(bad == 0, "tl_arange(%d, %d): %d wrong values (first %d)", start, start + len, bad, h[0]);
        TT_CHECK(((unsigned char *)h)[len * 4] == 0xA5, "tl_arange(%d, %d) wrote past its length", start, start + len);
    }
    tile_kernel_release(TILE_KERNEL_OF(arange_kernel));
    tile_free(out);
}

/* row-major offsets of a tile of the given shape, built from aranges */
static tl_t offsets_of(int rank, const int *dims) {
    tl_t off = {0};
    int stride = 1;
    for (int d = rank - 1; d >= 0; d--) {
        tl_t a = tl_arange(0, dims[d]);
        for (int j = 0; j < d; j++) a = tl_expand_dims(a, 0);
        for (int j = d + 1; j < rank; j++) a = tl_expand_dims(a, -1);
        tl_t term = tl_mul(a, stride);
        off = off.id ? tl_add(off, term) : term;
        stride *= dims[d];
    }
    return off;
}
static tl_t off2(int m, int n) {
    int dims[2] = {m, n};
    return offsets_of(2, dims);
}

/* ---- full, zeros, zeros_like, full_like ------------------------------------------------- */
enum { FC_F16, FC_BF16, FC_I8_WRAP, FC_U32_NEG, FC_F32_RUNTIME, FC_ZEROS_I64, FC_ZEROS_LIKE, FC_FULL_LIKE_I32,
       FC_FULL_LIKE_F16, FC_F32_INF, FC_I1, FC_E4M3_SAT, FC_F64_EXACT, FC_I64_BIG, FC_U64_MAX, FC_ZEROS_1D, FC_COUNT };
TILE_KERNEL(full_kernel, (tl_ptr_f16, xh), (tl_ptr_i32, xi), (tl_ptr_f64, od), (tl_ptr_i64, oi)) {
    int c = TL_META(CASE);
    tl_t offs = off2(4, 16);
    tl_t h = tl_load(tl_add(xh, offs)), i = tl_load(tl_add(xi, offs)), r;
    switch (c) {
    case FC_F16: r = tl_full(TL_F16, 0.1, 4, 16); break;
    case FC_BF16: r = tl_full(TL_BF16, -3.3, 4, 16); break;
    case FC_I8_WRAP: r = tl_full(TL_I8, 300, 4, 16); break;
    case FC_U32_NEG: r = tl_full(TL_U32, -1, 4, 16); break;
    case FC_F32_RUNTIME: r = tl_full(TL_F32, tl_add(tl_num_programs(0), 2), 4, 16); break;
    case FC_ZEROS_I64: r = tl_zeros(TL_I64, 4, 16); break;
    case FC_ZEROS_LIKE: r = tl_zeros_like(h); break;
    case FC_FULL_LIKE_I32: r = tl_full_like(i, 7); break;
    case FC_FULL_LIKE_F16: r = tl_full_like(h, 1.0 / 3.0); break;
    case FC_F32_INF: r = tl_full(TL_F32, 1e40, 4, 16); break;
    case FC_I1: r = tl_full(TL_I1, 5, 4, 16); break;
    case FC_E4M3_SAT: r = tl_full(TL_F8E4M3, 1000.0, 4, 16); break;
    case FC_F64_EXACT: r = tl_full(TL_F64, 0.1, 4, 16); break;
    case FC_I64_BIG: r = tl_full(TL_I64, 1LL << 40, 4, 16); break;
    case FC_U64_MAX: r = tl_full(TL_U64, 18446744073709551615ull, 4, 16); break;
    default: r = tl_zeros(TL_F16, 16); break;
    }
    trace_shape(r);
    if (traced_dt >= TL_F16) tl_store(tl_add(od, offs), r);
    else tl_store(tl_add(oi, offs), r);
}
static void test_full(void) {
    tile_f16 *xh = tile_malloc(64 * 2);
    int32_t *xi = tile_malloc(64 * 4);
    double *od = tile_malloc(64 * 8);
    int64_t *oi = tile_malloc(64 * 8);
    static tile_f16 hh[64];
    static int32_t hi[64];
    static double god[64];
    static int64_t goi[64];
    for (int e = 0; e < 64; e++) {
        hh[e].bits = (uint16_t)enc_double(&F_F16, e == 0 ? NAN : tt_normal());
        hi[e] = (int32_t)tt_next();
    }
    TT_OK(tile_memcpy_htod(xh, hh, sizeof hh));
    TT_OK(tile_memcpy_htod(xi, hi, sizeof hi));
    static const struct { tl_dtype dt; double f; int64_t i; } want[FC_COUNT] = {
        [FC_F16] = {TL_F16, 0x1.998p-4, 0}, [FC_BF16] = {TL_BF16, -0x1.a6p+1, 0}, [FC_I8_WRAP] = {TL_I8, 0, 44},
        [FC_U32_NEG] = {TL_U32, 0, 4294967295ll}, [FC_F32_RUNTIME] = {TL_F32, 5.0, 0}, [FC_ZEROS_I64] = {TL_I64, 0, 0},
        [FC_ZEROS_LIKE] = {TL_F16, 0.0, 0}, [FC_FULL_LIKE_I32] = {TL_I32, 0, 7}, [FC_FULL_LIKE_F16] = {TL_F16, 0x1.554p-2, 0},
        [FC_F32_INF] = {TL_F32, INFINITY, 0}, [FC_I1] = {TL_I1, 0, 1}, [FC_E4M3_SAT] = {TL_F8E4M3, 448.0, 0},
        [FC_F64_EXACT] = {TL_F64, 0.1, 0}, [FC_I64_BIG] = {TL_I64, 0, 1LL << 40}, [FC_U64_MAX] = {TL_U64, 0, -1},
        [FC_ZEROS_1D] = {TL_F16, 0.0, 0}};
    for (int c = 0; c < FC_COUNT; c++) {
        tt_poison(od, 64 * 8);
        tt_poison(oi, 64 * 8);
        TT_OK(full_kernel(TILE_OPTS(.grid = {3}, .meta = {{"CASE", c}}), xh, xi, od, oi));
        TT_OK(tile_memcpy_dtoh(god, od, sizeof god));
        TT_OK(tile_memcpy_dtoh(goi, oi, sizeof goi));
        int d2[2] = {4, 16}, d1[1] = {16};
        int shape_ok = c == FC_ZEROS_1D ? traced_is(1, d1) : traced_is(2, d2);
        TT_CHECK(traced_dt == want[c].dt && shape_ok, "full case %d: %s rank %d, want %s", c, tile_dtype_name(traced_dt), traced_rank,
                 tile_dtype_name(want[c].dt));
        int bad = 0;
        for (int e = 0; e < 64; e++) {
            tt_checks++;
            if (want[c].dt >= TL_F16 ? !same_float(god[e], want[c].f) : goi[e] != want[c].i) bad++;
        }
        TT_CHECK(bad == 0, "full case %d: %d of 64 wrong (first %.9g / %lld)", c, bad, god[0], (long long)goi[0]);
    }
    tile_kernel_release(TILE_KERNEL_OF(full_kernel));
    tile_free(xh);
    tile_free(xi);
    tile_free(od);
    tile_free(oi);
}

/* ---- broadcasting and expand_dims --------------------------------------------------- */
enum { BC_MAT_ROW, BC_COL_ROW, BC_TO_1N, BC_TO_N, BC_BROADCAST, BC_NEG_AXES, BC_SCALAR, BC_EXPAND_MID, BC_3D_ONES,
       BC_EXPAND_FRONT, BC_COUNT };
#define BM 8
#define BN 16
static int bc_dims[2][TL_MAX_RANK + 1]; /* rank, dims of the intermediate tiles a case names */
static void trace_into(int k, tl_t v) {
    bc_dims[k][0] = tl_rank(v);
    for (int d = 0; d < tl_rank(v); d++) bc_dims[k][1 + d] = tl_dim(v, d);
}
TILE_KERNEL(bcast_kernel, (tl_ptr_f32, pm), (tl_ptr_f32, pr), (tl_ptr_f32, pc), (tl_ptr_f32, out)) {
    int c = TL_META(CASE);
    tl_t offs = off2(BM, BN);
    tl_t mat = tl_load(tl_add(pm, offs)), row = tl_load(tl_add(pr, tl_arange(0, BN))), col = tl_load(tl_add(pc, tl_arange(0, BM)));
    tl_t r, a, b;
    memset(bc_dims, 0, sizeof bc_dims);
    switch (c) {
    case BC_MAT_ROW: r = tl_add(mat, row); break;
    case BC_COL_ROW: r = tl_add(tl_expand_dims(col, 1), tl_expand_dims(row, 0)); break;
    case BC_TO_1N: r = tl_broadcast_to(tl_expand_dims(row, 0), BM, BN); break;
    case BC_TO_N: r = tl_broadcast_to(row, BM, BN); break;
    case BC_BROADCAST:
        tl_broadcast(tl_expand_dims(col, 1), row, &a, &b);
        trace_into(0, a);
        trace_into(1, b);
        r = tl_add(tl_mul(a, 1000), b);
        break;
    case BC_NEG_AXES:
        a = tl_expand_dims(row, -2);
        b = tl_expand_dims(col, -1);
        trace_into(0, a);
        trace_into(1, b);
        r = tl_mul(a, b);
        break;
    case BC_SCALAR: r = tl_sub(mat, tl_num_programs(0)); break;
    case BC_EXPAND_MID:
        a = tl_expand_dims(mat, -2);
        trace_into(0, a);
        r = tl_reshape(a, BM, BN);
        break;
    case BC_3D_ONES:
        a = tl_add(tl_reshape(col, BM, 1, 1), tl_reshape(row, 1, 1, BN));
        trace_into(0, a);
        r = tl_reshape(a, BM, BN);
        break;
    default:
        a = tl_add(tl_expand_dims(mat, 0), tl_expand_dims(tl_expand_dims(row, 0), 0));
        trace_into(0, a);
        r = tl_reshape(a, BM, BN);
        break;
    }
    trace_shape(r);
    tl_store(tl_add(out, offs), r);
}
static void test_broadcast(void) {
    float *pm = tile_malloc(BM * BN * 4), *pr = tile_malloc(BN * 4), *pc = tile_malloc(BM * 4), *out = tile_malloc(BM * BN * 4);
    static float m[BM * BN], row[BN], col[BM], got[BM * BN];
    for (int e = 0; e < BM * BN; e++) m[e] = (float)tt_normal();
    for (int e = 0; e < BN; e++) row[e] = (float)tt_normal();
    for (int e = 0; e < BM; e++) col[e] = (float)tt_normal();
    TT_OK(tile_memcpy_htod(pm, m, sizeof m));
    TT_OK(tile_memcpy_htod(pr, row, sizeof row));
    TT_OK(tile_memcpy_htod(pc, col, sizeof col));
    /* the shapes of the named intermediates: rank, dims */
    static const int want_dims[BC_COUNT][2][4] = {
        [BC_BROADCAST] = {{2, BM, BN}, {2, BM, BN}}, [BC_NEG_AXES] = {{2, 1, BN}, {2, BM, 1}},
        [BC_EXPAND_MID] = {{3, BM, 1, BN}}, [BC_3D_ONES] = {{3, BM, 1, BN}}, [BC_EXPAND_FRONT] = {{3, 1, BM, BN}}};
    for (int c = 0; c < BC_COUNT; c++) {
        tt_poison(out, sizeof got);
        TT_OK(bcast_kernel(TILE_OPTS(.meta = {{"CASE", c}}), pm, pr, pc, out));
        TT_OK(tile_memcpy_dtoh(got, out, sizeof got));
        int d2[2] = {BM, BN};
        TT_CHECK(traced_dt == TL_F32 && traced_is(2, d2), "broadcast case %d: result rank %d [%d,%d]", c, traced_rank, traced_dims[0],
                 traced_dims[1]);
        for (int k = 0; k < 2; k++) {
            const int *w = want_dims[c][k];
            int ok = w[0] == bc_dims[k][0];
            for (int d = 0; d < w[0] && ok; d++) ok = w[1 + d] == bc_dims[k][1 + d];
            char s1[64], s2[64];
            shape_str(s1, sizeof s1, bc_dims[k][0], bc_dims[k] + 1);
            shape_str(s2, sizeof s2, w[0], w + 1);
            TT_CHECK(ok, "broadcast case %d: intermediate %d has shape %s, want %s", c, k, s1, s2);
        }
        int bad = 0;
        for (int i = 0; i < BM; i++)
            for (int j = 0; j < BN; j++) {
                float x = m[i * BN + j], want;
                switch (c) {
                case BC_MAT_ROW: want = x + row[j]; break;
                case BC_COL_ROW: case BC_3D_ONES: want = col[i] + row[j]; break;
                case BC_TO_1N: case BC_TO_N: want = row[j]; break;
                case BC_BROADCAST: want = col[i] * 1000.0f + row[j]; break;
                case BC_NEG_AXES: want = row[j] * col[i]; break;
                case BC_SCALAR: want = x - 1.0f; break;
                case BC_EXPAND_MID: want = x; break;
                default: want = x + row[j]; break;
                }
                tt_checks++;
                if (!same_float(got[i * BN + j], want)) bad++;
            }
        TT_CHECK(bad == 0, "broadcast case %d: %d of %d lanes wrong", c, bad, BM * BN);
    }
    tile_kernel_release(TILE_KERNEL_OF(bcast_kernel));
    tile_free(pm);
    tile_free(pr);
    tile_free(pc);
    tile_free(out);
}

/* ---- reshape, view, ravel, permute, trans --------------------------------------------- */
#define LA 2
#define LB 4
#define LC 8
static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
enum { LY_RESHAPE, LY_VIEW, LY_RAVEL, LY_PERM0, LY_TRANS3 = LY_PERM0 + 6, LY_TRANS2, LY_PERM4, LY_SAME, LY_COUNT };
TILE_KERNEL(layout_kernel, (tl_ptr_i32, in), (tl_ptr_i32, out)) {
    int c = TL_META(CASE);
    int d3[3] = {LA, LB, LC};
    tl_t x = tl_load(tl_add(in, offsets_of(3, d3))), r;
    if (c >= LY_PERM0 && c < LY_PERM0 + 6) {
        const int *p = perms[c - LY_PERM0];
        r = tl_permute(x, p[0], p[1], p[2]);
    } else {
        switch (c) {
        case LY_RESHAPE: r = tl_reshape(x, 8, 8); break;
        case LY_VIEW: r = tl_view(x, 4, 16); break;
        case LY_RAVEL: r = tl_ravel(x); break;
        case LY_TRANS3: r = tl_trans(x); break;
        case LY_TRANS2: r = tl_trans(tl_reshape(x, 8, 8)); break;
        case LY_PERM4: r = tl_permute(tl_reshape(x, 2, 2, 2, 8), 3, 1, 0, 2); break;
        default: r = tl_reshape(x, LA, LB, LC); break;
        }
    }
    trace_shape(r);
    tl_store(tl_add(out, offsets_of(traced_rank, traced_dims)), r);
}
/* out = x (row-major over `dims`) permuted: result dim i is x's dim perm[i] */
static void ref_permute(const int32_t *x, int rank, const int *dims, const int *perm, int32_t *out, int *odims) {
    int n = 1, strides[TL_MAX_RANK], idx[TL_MAX_RANK] = {0};
    for (int d = rank - 1; d >= 0; d--) {
        strides[d] = n;
        n *= dims[d];
    }
    for (int d = 0; d < rank; d++) odims[d] = dims[perm[d]];
    for (int e = 0; e < n; e++) {
        int src = 0;
        for (int d = 0; d < rank; d++) src += idx[d] * strides[perm[d]];
        out[e] = x[src];
        for (int d = rank - 1; d >= 0; d--) {
            if (++idx[d] < odims[d]) break;
            idx[d] = 0;
        }
    }
}
static void test_layout(void) {
    enum { N = LA * LB * LC };
    int32_t *in = tile_malloc(N * 4), *out = tile_malloc(N * 4);
    static int32_t x[N], got[N], want[N];
    for (int e = 0; e < N; e++) x[e] = (int32_t)tt_next();
    TT_OK(tile_memcpy_htod(in, x, sizeof x));
    for (int c = 0; c < LY_COUNT; c++) {
        tt_poison(out, sizeof got);
        TT_OK(layout_kernel(TILE_OPTS(.meta = {{"CASE", c}}), in, out));
        TT_OK(tile_memcpy_dtoh(got, out, sizeof got));
        int rank, dims[TL_MAX_RANK];
        int d3[3] = {LA, LB, LC};
        if (c >= LY_PERM0 && c < LY_PERM0 + 6) {
            rank = 3;
            ref_permute(x, 3, d3, perms[c - LY_PERM0], want, dims);
        } else if (c == LY_TRANS3) {
            rank = 3;
            ref_permute(x, 3, d3, perms[5], want, dims);
        } else if (c == LY_TRANS2) {
            int d[2] = {8, 8}, p[2] = {1, 0};
            rank = 2;
            ref_permute(x, 2, d, p, want, dims);
        } else if (c == LY_PERM4) {
            int d[4] = {2, 2, 2, 8}, p[4] = {3, 1, 0, 2};
            rank = 4;
            ref_permute(x, 4, d, p, want, dims);
        } else {
            static const int shapes[][4] = {{2, 8, 8}, {2, 4, 16}, {1, 64}, {3, LA, LB, LC}};
            const int *s = shapes[c == LY_RESHAPE ? 0 : c == LY_VIEW ? 1 : c == LY_RAVEL ? 2 : 3];
            rank = s[0];
            for (int d = 0; d < rank; d++) dims[d] = s[1 + d];
            memcpy(want, x, sizeof want);
        }
        char s1[64], s2[64];
        shape_str(s1, sizeof s1, traced_rank, traced_dims);
        shape_str(s2, sizeof s2, rank, dims);
        TT_CHECK(traced_is(rank, dims) && traced_dt == TL_I32, "layout case %d: shape %s, want %s", c, s1, s2);
        int bad = 0;
        for (int e = 0; e < N; e++) bad += got[e] != want[e];
        tt_checks += N;
        TT_CHECK(bad == 0, "layout case %d (shape %s): %d of %d elements misplaced", c, s2, bad, N);
    }
    tile_kernel_release(TILE_KERNEL_OF(layout_kernel));
    tile_free(in);
    tile_free(out);
}

/* ---- cat, join, split, interleave ----------------------------------------------------- */
#define CM 8
#define CN 16
enum { CB_CAT, CB_JOIN, CB_SPLIT_JOIN, CB_SPLIT_COLS, CB_INTERLEAVE, CB_CAT_1D, CB_JOIN_SCALARS, CB_INTERLEAVE_1D, CB_COUNT };
TILE_KERNEL(combine_kernel, (tl_ptr_i32, pa), (tl_ptr_i32, pb), (tl_ptr_i32, out)) {
    int c = TL_META(CASE);
    tl_t offs = off2(CM, CN), o1 = tl_arange(0, CN);
    tl_t a = tl_load(tl_add(pa, offs)), b = tl_load(tl_add(pb, offs));
    tl_t a1 = tl_load(tl_add(pa, o1)), b1 = tl_load(tl_add(pb, o1)), p, q, r;
    switch (c) {
    case CB_CAT: r = tl_cat(a, b); break;
    case CB_JOIN: r = tl_join(a, b); break;
    case CB_SPLIT_JOIN:
        tl_split(tl_join(a, b), &p, &q);
        r = tl_cat(tl_expand_dims(p, 0), tl_expand_dims(q, 0));
        break;
    case CB_SPLIT_COLS:
        tl_split(tl_reshape(a, CM, CN / 2, 2), &p, &q);
        r = tl_cat(tl_expand_dims(p, 0), tl_expand_dims(q, 0));
        break;
    case CB_INTERLEAVE: r = tl_interleave(a, b); break;
    case CB_CAT_1D: r = tl_cat(a1, b1); break;
    case CB_JOIN_SCALARS: r = tl_join(tl_num_programs(0), 7); break;
    default: r = tl_interleave(a1, b1); break;
    }
    trace_shape(r);
    tl_store(tl_add(out, offsets_of(traced_rank, traced_dims)), r);
}
static void test_combine(void) {
    enum { N = CM * CN };
    int32_t *pa = tile_malloc(N * 4), *pb = tile_malloc(N * 4), *out = tile_malloc(2 * N * 4);
    static int32_t a[N], b[N], got[2 * N], want[2 * N];
    for (int e = 0; e < N; e++) {
        a[e] = (int32_t)tt_next();
        b[e] = (int32_t)tt_next();
    }
    TT_OK(tile_memcpy_htod(pa, a, sizeof a));
    TT_OK(tile_memcpy_htod(pb, b, sizeof b));
    for (int c = 0; c < CB_COUNT; c++) {
        tt_poison(out, sizeof got);
        TT_OK(combine_kernel(TILE_OPTS(.grid = {3}, .meta = {{"CASE", c}}), pa, pb, out));
        TT_OK(tile_memcpy_dtoh(got, out, sizeof got));
        int rank, dims[4], n;
        switch (c) {
        case CB_CAT:
            rank = 2, dims[0] = 2 * CM, dims[1] = CN, n = 2 * N;
            for (int e = 0; e < N; e++) want[e] = a[e], want[N + e] = b[e];
            break;
        case CB_JOIN:
            rank = 3, dims[0] = CM, dims[1] = CN, dims[2] = 2, n = 2 * N;
            for (int e = 0; e < N; e++) want[2 * e] = a[e], want[2 * e + 1] = b[e];
            break;
        case CB_SPLIT_JOIN:
            rank = 3, dims[0] = 2, dims[1] = CM, dims[2] = CN, n = 2 * N;
            for (int e = 0; e < N; e++) want[e] = a[e], want[N + e] = b[e];
            break;
        case CB_SPLIT_COLS:
            rank = 3, dims[0] = 2, dims[1] = CM, dims[2] = CN / 2, n = N;
            for (int e = 0; e < N / 2; e++) want[e] = a[2 * e], want[N / 2 + e] = a[2 * e + 1];
            break;
        case CB_INTERLEAVE:
            rank = 2, dims[0] = CM, dims[1] = 2 * CN, n = 2 * N;
            for (int i = 0; i < CM; i++)
                for (int j = 0; j < CN; j++) {
                    want[i * 2 * CN + 2 * j] = a[i * CN + j];
                    want[i * 2 * CN + 2 * j + 1] = b[i * CN + j];
                }
            break;
        case CB_CAT_1D:
            rank = 1, dims[0] = 2 * CN, n = 2 * CN;
            for (int e = 0; e < CN; e++) want[e] = a[e], want[CN + e] = b[e];
            break;
        case CB_JOIN_SCALARS:
            rank = 1, dims[0] = 2, n = 2;
            want[0] = 3, want[1] = 7;
            break;
        default:
            rank = 1, dims[0] = 2 * CN, n = 2 * CN;
            for (int e = 0; e < CN; e++) want[2 * e] = a[e], want[2 * e + 1] = b[e];
            break;
        }
        char s1[64], s2[64];
        shape_str(s1, sizeof s1, traced_rank, traced_dims);
        shape_str(s2, sizeof s2, rank, dims);
        TT_CHECK(traced_is(rank, dims) && traced_dt == TL_I32, "combine case %d: shape %s, want %s", c, s1, s2);
        int bad = 0;
        for (int e = 0; e < n; e++) bad += got[e] != want[e];
        tt_checks += n;
        TT_CHECK(bad == 0, "combine case %d (shape %s): %d of %d elements wrong", c, s2, bad, n);
        TT_CHECK(n == 2 * N || ((unsigned char *)got)[n * 4] == 0xA5, "combine case %d wrote past its %d elements", c, n);
    }
    tile_kernel_release(TILE_KERNEL_OF(combine_kernel));
    tile_free(pa);
    tile_free(pb);
    tile_free(out);
}

/* ---- tl_cast between every pair of dtypes ----------------------------------------------- */
#define CAST_N 1024
static tl_dtype cast_traced[NDT];
static void cast_body(tl_t x, const tl_t *outs, tl_t n) {
    int block = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), block), tl_arange(0, block));
    tl_t m = tl_lt(offs, n);
    tl_t v = tl_load(tl_add(x, offs), .mask = m);
    for (int d = 0; d < NDT; d++) {
        tl_t r = tl_cast(v, all_dts[d]);
        cast_traced[d] = tl_dtype_of(r);
        tl_store(tl_add(outs[d], offs), r, .mask = m);
    }
}
#define CAST_KERNEL(S)                                                                                          \
    TILE_KERNEL(cast_##S, (tl_ptr_##S, x), (tl_ptr_i1, o0), (tl_ptr_i8, o1), (tl_ptr_i16, o2), (tl_ptr_i32, o3), \
                (tl_ptr_i64, o4), (tl_ptr_u8, o5), (tl_ptr_u16, o6), (tl_ptr_u32, o7), (tl_ptr_u64, o8),        \
                (tl_ptr_f16, o9), (tl_ptr_bf16, o10), (tl_ptr_f32, o11), (tl_ptr_f64, o12), (tl_ptr_f8e4m3, o13), \
                (tl_ptr_f8e5m2, o14), (tl_ptr_f8e4b15, o15), (tl_ptr_f8e4b8, o16), (tl_ptr_f8e5b16, o17), (tl_i32, n)) { \
        tl_t outs[NDT] = {o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, o12, o13, o14, o15, o16, o17};     \
        cast_body(x, outs, n);                                                                                  \
    }
#define CAST_SOURCES(X)                                                                                     \
    X(i1, TL_I1, uint8_t) X(i8, TL_I8, int8_t) X(i16, TL_I16, int16_t) X(i32, TL_I32, int32_t)              \
    X(i64, TL_I64, int64_t) X(u8, TL_U8, uint8_t) X(u16, TL_U16, uint16_t) X(u32, TL_U32, uint32_t)         \
    X(u64, TL_U64, uint64_t) X(f16, TL_F16, tile_f16) X(bf16, TL_BF16, tile_bf16) X(f32, TL_F32, float)     \
    X(f64, TL_F64, double) X(f8e4m3, TL_F8E4M3, tile_f8e4m3) X(f8e5m2, TL_F8E5M2, tile_f8e5m2)                \
    X(f8e4b15, TL_F8E4B15, tile_f8e4b15) X(f8e4b8, TL_F8E4B8, tile_f8e4b8) X(f8e5b16, TL_F8E5B16, tile_f8e5b16)
#define CAST_DEF(S, DT, C) CAST_KERNEL(S)
CAST_SOURCES(CAST_DEF)
#undef CAST_DEF

static tile_status launch_cast(tl_dtype s, int n, void *x, void *const *o) {
    const tile_launch *L = TILE_OPTS(.grid = {tile_cdiv(n, 256)}, .meta = {{"BLOCK", 256}});
    switch (s) {
#define CAST_LAUNCH(S, DT, C)                                                                                       \
    case DT:                                                                                                        \
        return cast_##S(L, (C *)x, (uint8_t *)o[0], (int8_t *)o[1], (int16_t *)o[2], (int32_t *)o[3], (int64_t *)o[4], \
                        (uint8_t *)o[5], (uint16_t *)o[6], (uint32_t *)o[7], (uint64_t *)o[8], (tile_f16 *)o[9],        \
                        (tile_bf16 *)o[10], (float *)o[11], (double *)o[12], (tile_f8e4m3 *)o[13], (tile_f8e5m2 *)o[14], \
                        (tile_f8e4b15 *)o[15], (tile_f8e4b8 *)o[16], (tile_f8e5b16 *)o[17], n);
        CAST_SOURCES(CAST_LAUNCH)
#undef CAST_LAUNCH
    default: return TILE_ERR_INTERNAL;
    }
}

/* source values: the edges of every conversion, then random ones */
static int cast_inputs(tl_dtype s, val *v, int n) {
    int k = 0;
    const fmt *F = fmt_of(s);
    if (F) {
        static const double sp[] = {
            NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.999, -0.999,
            127.9, 128.0, -128.5, -129.0, 255.5, 256.0, 300.0, -300.0, 32767.5, 32768.0, -32769.0, 65535.9, 65536.0,
            2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0,
            9223372036854774784.0, 9223372036854775808.0, -9223372036854775808.0, -9223373136366403584.0,
            18446744073709549568.0, 18446744073709551616.0, 1e30, -1e30, 3e38, 1e300,
            /* f16: max, its rounding edge, ties, subnormals */
            65504.0, 65519.0, 65520.0, -65520.0, 1 + 0x1p-11, 1 + 3 * 0x1p-11, 1 + 0x1p-11 + 0x1p-20, 0x1p-24, 0x1p-25,
            0x1.8p-25, 3 * 0x1p-26, 0x1p-14 - 0x1p-25,
            /* bf16 ties and edges */
            1 + 0x1p-8, 1 + 3 * 0x1p-8, -(1 + 0x1p-8), 0x1.fefp127, 0x1p-133, 0x1p-134, 0x1.8p-134,
            /* f8e4m3: ties, max 448, its saturation, subnormal ties */
            1 + 0x1p-4, 1 + 3 * 0x1p-4, 448.0, 464.0, 479.0, 480.0, 0x1p-9, 0x1p-10, 3 * 0x1p-10, 0x1p-6 - 0x1p-10,
            /* f8e5m2 */
            1 + 0x1p-3, 1 + 3 * 0x1p-3, 57344.0, 59392.0, 61439.0, 61440.0, 0x1p-16, 0x1p-17, 3 * 0x1p-17, -3 * 0x1p-17,
            /* f8e4b15: its saturation at 1.75, ties away, subnormal ties */
            1.75, 1.8125, 1.875, -1.8125, 0x1p-17, 0x1p-18, 3 * 0x1p-18, -0x1p-18, 0x1p-14 - 0x1p-18,
            /* f8e4b8: max 240, the tie above it, subnormal ties (to +0) */
            240.0, 248.0, -248.0, 0x1p-10, 0x1p-11, -0x1p-11, 3 * 0x1p-11, 0x1p-7 - 0x1p-11,
            /* f8e5b16: max 57344, subnormal ties */
            0x1p-18, -0x1p-18, 3 * 0x1p-18, 0x1p-15 - 0x1p-18};
        for (size_t j = 0; j < sizeof sp / sizeof sp[0] && k < n; j++) v[k++].f = fround(F, sp[j]);
        while (k < n) {
            int r = (int)tt_int(0, 3);
            if (r == 0) {
                /* any bit pattern of the source format */
                int w = F->ebits + F->mbits + 1;
                v[k++].f = dec(F, tt_next() >> (64 - w));
            } else if (r == 1) {
                /* a tie (or its neighbours) between two values of a narrower format */
                static const fmt *const narrow[] = {&F_F16, &F_BF16, &F_E4M3, &F_E5M2, &F_F32, &F_E4B15, &F_E4B8, &F_E5B16};
                const fmt *T = narrow[tt_int(0, 7)];
                uint64_t b = (uint64_t)tt_int(0, (long long)fmt_maxfin(T) - 1);
                double mid = (dec(T, b) + dec(T, b + 1)) / 2, x = tt_int(0, 2) == 0 ? mid : nextafter(mid, tt_int(0, 1) ? 0.0 : INFINITY);
                v[k++].f = fround(F, tt_int(0, 1) ? x : -x);
            } else {
                v[k++].f = fround(F, tt_normal() * pow(10.0, (double)tt_int(-6, 12)));
            }
        }
        return k;
    }
    static const int64_t sp[] = {0, 1, -1, 2, -2, 44, 127, 128, -128, -129, 255, 256, 300, -300, 32767, 32768, -32769,
                                 65535, 65536, 2049, 2051, 65519, 65520, 65536 + 32, 257, 259, 449, 464, 1000, 57344, 61440,
                                 16777217, 16777219, -16777217, 2147483647, -2147483647 - 1, 4294967295ll,
                                 (1ll << 53) + 1, (1ll << 60) + (1ll << 36) + 1, -((1ll << 60) + (1ll << 36) + 1),
                                 (1ll << 60) + (1ll << 52) + 1, INT64_MAX, INT64_MIN};
    for (size_t j = 0; j < sizeof sp / sizeof sp[0] && k < n; j++) v[k++] = wrap(s, (uint64_t)sp[j]);
    if (s == TL_U64 && k + 2 <= n) {
        /* f32 rounding traps above 2^63 */
        v[k++].u = ((uint64_t)1 << 63) + ((uint64_t)1 << 39) + 1;
        v[k++].u = ~(uint64_t)0;
    }
    while (k < n) v[k++] = wrap(s, tt_int(0, 1) ? tt_next() >> tt_int(0, 63) : (uint64_t)tt_int(-1000, 1000));
    return k;
}

static void test_cast(void) {
    void *x = tile_malloc(8 * CAST_N), *o[NDT];
    for (int d = 0; d < NDT; d++) o[d] = tile_malloc(8 * CAST_N);
    static unsigned char hx[8 * CAST_N], ho[8 * CAST_N];
    static val v[CAST_N];
    for (int si = 0; si < NDT; si++) {
        tl_dtype s = all_dts[si];
        int n = CAST_N - (int)tt_int(0, 100);
        cast_inputs(s, v, n);
        for (int e = 0; e < n; e++) raw_put(s, hx, (size_t)e, to_bits(s, v[e]));
        TT_OK(tile_memcpy_htod(x, hx, (size_t)n * tile_dtype_size(s)));
        for (int d = 0; d < NDT; d++) tt_poison(o[d], 8 * CAST_N);
        TT_OK(launch_cast(s, n, x, o));
        for (int di = 0; di < NDT; di++) {
            tl_dtype d = all_dts[di];
            TT_CHECK(cast_traced[di] == d, "tl_cast(%s, %s) has dtype %s", tile_dtype_name(s), tile_dtype_name(d),
                     tile_dtype_name(cast_traced[di]));
            TT_OK(tile_memcpy_dtoh(ho, o[di], 8 * CAST_N));
            int bad = 0;
            for (int e = 0; e < n; e++) {
                val want = ref_cast(s, d, v[e]), got = from_bits(d, raw_get(d, ho, (size_t)e));
                int ok = fmt_of(d) ? same_float(got.f, want.f) : got.u == want.u;
                if (d == TL_I1) ok = ok && ho[e] == want.u;
                tt_checks++;
                if (!ok) {
                    if (bad < 3) {
                        char sv[48], sg[48], sw[48];
                        if (fmt_of(s)) snprintf(sv, sizeof sv, "%.17g", v[e].f);
                        else snprintf(sv, sizeof sv, dt_signed(s) ? "%lld" : "%llu", (long long)v[e].i);
                        if (fmt_of(d)) {
                            snprintf(sg, sizeof sg, "%.17g", got.f);
                            snprintf(sw, sizeof sw, "%.17g", want.f);
                        } else {
                            snprintf(sg, sizeof sg, dt_signed(d) ? "%lld" : "%llu", (long long)got.i);
                            snprintf(sw, sizeof sw, dt_signed(d) ? "%lld" : "%llu", (long long)want.i);
                        }
                        printf("FAIL tl_cast(%s %s, %s) = %s, want %s\n", tile_dtype_name(s), sv, tile_dtype_name(d), sg, sw);
                    }
                    bad++;
                }
            }
            size_t es = tile_dtype_size(d);
            int tail = 1;
            for (size_t b = (size_t)n * es; b < 8 * CAST_N; b++) tail &= ho[b] == 0xA5;
            TT_CHECK(tail, "tl_cast(%s, %s) wrote masked-off lanes", tile_dtype_name(s), tile_dtype_name(d));
            if (bad) {
                tt_failures++;
                printf("FAIL tl_cast(%s, %s): %d of %d lanes differ\n", tile_dtype_name(s), tile_dtype_name(d), bad, n);
            }
        }
    }
#define CAST_RELEASE(S, DT, C) tile_kernel_release(TILE_KERNEL_OF(cast_##S));
    CAST_SOURCES(CAST_RELEASE)
#undef CAST_RELEASE
    tile_free(x);
    for (int d = 0; d < NDT; d++) tile_free(o[d]);
}

/* ---- tl_bitcast, bit for bit ----------------------------------------------------------------- */
/* each pair both ways, and a round trip through the float type in registers */
TILE_KERNEL(bitcast16_kernel, (tl_ptr_i16, xi), (tl_ptr_f16, oh), (tl_ptr_f16, xh), (tl_ptr_i16, oi), (tl_ptr_u16, xu),
            (tl_ptr_bf16, ob), (tl_ptr_bf16, xb), (tl_ptr_u16, ou), (tl_ptr_i16, trip), (tl_ptr_f16, copy), (tl_i32, n)) {
    int block = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), block), tl_arange(0, block));
    tl_t m = tl_lt(offs, n), i = tl_load(tl_add(xi, offs), .mask = m);
    tl_store(tl_add(oh, offs), tl_bitcast(i, TL_F16), .mask = m);
    tl_store(tl_add(oi, offs), tl_bitcast(tl_load(tl_add(xh, offs), .mask = m), TL_I16), .mask = m);
    tl_store(tl_add(ob, offs), tl_bitcast(tl_load(tl_add(xu, offs), .mask = m), TL_BF16), .mask = m);
    tl_store(tl_add(ou, offs), tl_bitcast(tl_load(tl_add(xb, offs), .mask = m), TL_U16), .mask = m);
    tl_store(tl_add(trip, offs), tl_bitcast(tl_bitcast(i, TL_F16), TL_I16), .mask = m);
    tl_store(tl_add(copy, offs), tl_load(tl_add(xh, offs), .mask = m), .mask = m);
}
TILE_KERNEL(bitcast32_kernel, (tl_ptr_i32, xi), (tl_ptr_f32, of), (tl_ptr_f32, xf), (tl_ptr_i32, oi), (tl_ptr_i32, trip),
            (tl_ptr_i64, xl), (tl_ptr_f64, od), (tl_ptr_f64, xd), (tl_ptr_i64, ol), (tl_ptr_u8, xu8),
            (tl_ptr_f8e4m3, oe4), (tl_ptr_f8e5m2, xe5), (tl_ptr_i8, oi8), (tl_ptr_f8e5m2, ce5), (tl_i32, n)) {
    int block = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), block), tl_arange(0, block));
    tl_t m = tl_lt(offs, n), i = tl_load(tl_add(xi, offs), .mask = m);
    tl_store(tl_add(of, offs), tl_bitcast(i, TL_F32), .mask = m);
    tl_store(tl_add(oi, offs), tl_bitcast(tl_load(tl_add(xf, offs), .mask = m), TL_I32), .mask = m);
    tl_store(tl_add(trip, offs), tl_bitcast(tl_bitcast(i, TL_F32), TL_I32), .mask = m);
    tl_store(tl_add(od, offs), tl_bitcast(tl_load(tl_add(xl, offs), .mask = m), TL_F64), .mask = m);
    tl_store(tl_add(ol, offs), tl_bitcast(tl_load(tl_add(xd, offs), .mask = m), TL_I64), .mask = m);
    tl_t small = tl_lt(offs, 256);
    tl_store(tl_add(oe4, offs), tl_bitcast(tl_load(tl_add(xu8, offs), .mask = small), TL_F8E4M3), .mask = small);
    tl_store(tl_add(oi8, offs), tl_bitcast(tl_load(tl_add(xe5, offs), .mask = small), TL_I8), .mask = small);
    tl_store(tl_add(ce5, offs), tl_load(tl_add(xe5, offs), .mask = small), .mask = small);
}
TILE_KERNEL(bitcast_bad_kernel, (tl_ptr_i32, p)) {
    tl_t offs = tl_arange(0, 16), x = tl_load(tl_add(p, offs));
    if (TL_META(CASE) == 0) tl_store(tl_add(p, offs), tl_bitcast(x, TL_F16));
    else tl_store(tl_add(p, offs), tl_bitcast(tl_gt(x, 0), TL_U8));
}
/* count the lanes whose bits differ; print the first few */
static void bits_same(const char *what, const void *got, const void *want, size_t es, int n) {
    int bad = 0;
    for (int e = 0; e < n; e++) {
        uint64_t g = 0, w = 0;
        memcpy(&g, (const unsigned char *)got + (size_t)e * es, es);
        memcpy(&w, (const unsigned char *)want + (size_t)e * es, es);
        tt_checks++;
        if (g != w) {
            if (bad < 8) printf("FAIL %s: bits 0x%llx came back as 0x%llx\n", what, (unsigned long long)w, (unsigned long long)g);
            bad++;
        }
    }
    if (bad) {
        tt_failures++;
        printf("FAIL %s: %d of %d patterns changed\n", what, bad, n);
    }
}
static void test_bitcast(void) {
    enum { N16 = 65536, N32 = 4096 };
    static uint16_t p16[N16], g16[N16];
    uint16_t *xi = tile_malloc(N16 * 2), *oh = tile_malloc(N16 * 2), *xh = tile_malloc(N16 * 2), *oi = tile_malloc(N16 * 2),
             *xu = tile_malloc(N16 * 2), *ob = tile_malloc(N16 * 2), *xb = tile_malloc(N16 * 2), *ou = tile_malloc(N16 * 2),
             *trip = tile_malloc(N16 * 2), *copy = tile_malloc(N16 * 2);
    for (int e = 0; e < N16; e++) p16[e] = (uint16_t)e;
    uint16_t *ins[] = {xi, xh, xu, xb}, *outs[] = {oh, oi, ob, ou, trip, copy};
    for (int k = 0; k < 4; k++) TT_OK(tile_memcpy_htod(ins[k], p16, sizeof p16));
    for (int k = 0; k < 6; k++) tt_poison(outs[k], N16 * 2);
    TT_OK(bitcast16_kernel(TILE_OPTS(.grid = {N16 / 1024}, .meta = {{"BLOCK", 1024}}), (int16_t *)xi, (tile_f16 *)oh,
                           (tile_f16 *)xh, (int16_t *)oi, xu, (tile_bf16 *)ob, (tile_bf16 *)xb, ou, (int16_t *)trip, (tile_f16 *)copy, N16));
    static const char *const names16[] = {"bitcast i16 -> f16", "bitcast f16 -> i16", "bitcast u16 -> bf16",
                                          "bitcast bf16 -> u16", "bitcast i16 -> f16 -> i16", "f16 load + store"};
    for (int k = 0; k < 6; k++) {
        TT_OK(tile_memcpy_dtoh(g16, outs[k], sizeof g16));
        bits_same(names16[k], g16, p16, 2, N16);
    }
    for (int k = 0; k < 6; k++) tile_free(outs[k]);
    for (int k = 0; k < 4; k++) tile_free(ins[k]);

    static uint32_t p32[N32], g32[N32];
    static uint64_t p64[N32], g64[N32];
    static uint8_t p8[N32], g8[N32];
    static const uint32_t sp32[] = {0x7f800001u, 0x7fbfffffu, 0x7fc00000u, 0x7fc12345u, 0xffc00001u, 0xff800001u,
                                    0x7f800000u, 0xff800000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu};
    static const uint64_t sp64[] = {0x7ff0000000000001ull, 0x7ff8000000000123ull, 0xfff4000000000000ull, 0x0000000000000001ull,
                                    0x8000000000000000ull, 0x7ff0000000000000ull};
    for (int e = 0; e < N32; e++) {
        p32[e] = e < 12 ? sp32[e] : (uint32_t)tt_next();
        p64[e] = e < 6 ? sp64[e] : tt_next();
        p8[e] = (uint8_t)e;
    }
    void *b32[14];
    size_t sz[14] = {4, 4, 4, 4, 4, 8, 8, 8, 8, 1, 1, 1, 1, 1};
    for (int k = 0; k < 14; k++) b32[k] = tile_malloc(sz[k] * N32);
    TT_OK(tile_memcpy_htod(b32[0], p32, sizeof p32));
    TT_OK(tile_memcpy_htod(b32[2], p32, sizeof p32));
    TT_OK(tile_memcpy_htod(b32[5], p64, sizeof p64));
    TT_OK(tile_memcpy_htod(b32[7], p64, sizeof p64));
    TT_OK(tile_memcpy_htod(b32[9], p8, 256));
    TT_OK(tile_memcpy_htod(b32[11], p8, 256));
    int outs32[] = {1, 3, 4, 6, 8, 10, 12, 13};
    for (int k = 0; k < 8; k++) tt_poison(b32[outs32[k]], sz[outs32[k]] * N32);
    TT_OK(bitcast32_kernel(TILE_OPTS(.grid = {N32 / 1024}, .meta = {{"BLOCK", 1024}}), (int32_t *)b32[0], (float *)b32[1],
                           (float *)b32[2], (int32_t *)b32[3], (int32_t *)b32[4], (int64_t *)b32[5], (double *)b32[6],
                           (double *)b32[7], (int64_t *)b32[8], (uint8_t *)b32[9], (tile_f8e4m3 *)b32[10],
                           (tile_f8e5m2 *)b32[11], (int8_t *)b32[12], (tile_f8e5m2 *)b32[13], N32));
    static const char *const names32[] = {"bitcast i32 -> f32", "bitcast f32 -> i32", "bitcast i32 -> f32 -> i32"};
    for (int k = 0; k < 3; k++) {
        TT_OK(tile_memcpy_dtoh(g32, b32[outs32[k]], sizeof g32));
        bits_same(names32[k], g32, p32, 4, N32);
    }
    TT_OK(tile_memcpy_dtoh(g64, b32[6], sizeof g64));
    bits_same("bitcast i64 -> f64", g64, p64, 8, N32);
    TT_OK(tile_memcpy_dtoh(g64, b32[8], sizeof g64));
    bits_same("bitcast f64 -> i64", g64, p64, 8, N32);
    TT_OK(tile_memcpy_dtoh(g8, b32[10], N32));
    bits_same("bitcast u8 -> f8e4m3", g8, p8, 1, 256);
    TT_CHECK(g8[256] == 0xA5, "bitcast u8 -> f8e4m3 wrote a masked-off lane");
    TT_OK(tile_memcpy_dtoh(g8, b32[12], N32));
    bits_same("bitcast f8e5m2 -> i8", g8, p8, 1, 256);
    TT_OK(tile_memcpy_dtoh(g8, b32[13], N32));
    bits_same("f8e5m2 load + store", g8, p8, 1, 256);
    for (int k = 0; k < 14; k++) tile_free(b32[k]);
    tile_kernel_release(TILE_KERNEL_OF(bitcast16_kernel));
    tile_kernel_release(TILE_KERNEL_OF(bitcast32_kernel));

    /* widths must match, and i1 has no bit layout to reinterpret */
    tile_set_log(silent_log, NULL);
    char *ir = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(bitcast_bad_kernel), TILE_OPTS(.meta = {{"CASE", 0}}), &ir);
    tile_free_text(ir);
    TT_CHECK(st == TILE_ERR_DTYPE, "tl_bitcast(i32, f16): %s, want TILE_ERR_DTYPE", tile_status_id(st));
    st = tile_kernel_ir(TILE_KERNEL_OF(bitcast_bad_kernel), TILE_OPTS(.meta = {{"CASE", 1}}), &ir);
    tile_free_text(ir);
    TT_CHECK(st == TILE_ERR_DTYPE, "tl_bitcast(i1, u8): %s, want TILE_ERR_DTYPE", tile_status_id(st));
    tile_set_log(NULL, NULL);
    tile_kernel_release(TILE_KERNEL_OF(bitcast_bad_kernel));
}

/* ---- the host conversions, exhaustively ------------------------------------------------- */
typedef struct conv {
    const fmt *F;
    uint64_t (*from)(double);
    double (*to)(uint64_t);
} conv;
static uint64_t f16_from(double x) { return tile_f16_from(x).bits; }
static uint64_t bf16_from(double x) { return tile_bf16_from(x).bits; }
static uint64_t e4m3_from(double x) { return tile_f8e4m3_from(x).bits; }
static uint64_t e5m2_from(double x) { return tile_f8e5m2_from(x).bits; }
static uint64_t e4b15_from(double x) { return tile_f8e4b15_from(x).bits; }
static uint64_t e4b8_from(double x) { return tile_f8e4b8_from(x).bits; }
static uint64_t e5b16_from(double x) { return tile_f8e5b16_from(x).bits; }
static double f16_to(uint64_t b) { tile_f16 h; h.bits = (uint16_t)b; return tile_f16_to(h); }
static double bf16_to(uint64_t b) { tile_bf16 h; h.bits = (uint16_t)b; return tile_bf16_to(h); }
static double e4m3_to(uint64_t b) { tile_f8e4m3 h; h.bits = (uint8_t)b; return tile_f8e4m3_to(h); }
static double e5m2_to(uint64_t b) { tile_f8e5m2 h; h.bits = (uint8_t)b; return tile_f8e5m2_to(h); }
static double e4b15_to(uint64_t b) { tile_f8e4b15 h; h.bits = (uint8_t)b; return tile_f8e4b15_to(h); }
static double e4b8_to(uint64_t b) { tile_f8e4b8 h; h.bits = (uint8_t)b; return tile_f8e4b8_to(h); }
static double e5b16_to(uint64_t b) { tile_f8e5b16 h; h.bits = (uint8_t)b; return tile_f8e5b16_to(h); }

static void test_host_conv(const conv *C) {
    const fmt *F = C->F;
    uint64_t npat = (uint64_t)1 << (F->ebits + F->mbits + 1), sign = fmt_sign(F);
    int bad_to = 0, bad_from = 0, bad_tie = 0, bad_nan = 0;
    for (uint64_t b = 0; b < npat; b++) {
        double want = dec(F, b), got = C->to(b);
        tt_checks++;
        if (!same_float(got, want)) {
            if (bad_to < 3) printf("FAIL %s_to(0x%llx) = %.17g, want %.17g\n", F->name, (unsigned long long)b, got, want);
            bad_to++;
        }
        if (want != want) {
            tt_checks++;
            if (!fmt_isnan(F, C->from(want))) bad_nan++;
            continue;
        }
        /* every value comes back as itself; an f8 infinity saturates */
        uint64_t mag0 = b & (sign - 1);
        uint64_t back = C->from(want), wb = (isinf(want) && F->sat) || mag0 > fmt_maxfin(F) ? enc_double(F, want) : b;   /* f8e4b15's 0x7f: 1.75 */
        tt_checks++;
        if (back != wb) {
            if (bad_from < 3) printf("FAIL %s_from(%.17g) = 0x%llx, want 0x%llx\n", F->name, want, (unsigned long long)back, (unsigned long long)wb);
            bad_from++;
        }
        /* halfway to the next magnitude up (the largest finite: to the first
           value past it, 2^(emax+1) or, for e4m3, the would-be 0x7f), and
           just either side of it */
        uint64_t mag = b & (sign - 1);
        if (mag > fmt_maxfin(F)) continue;
        double lo = fabs(want), hi;
        if (mag == fmt_maxfin(F) && F->nosp) {
            hi = dec(F, mag + 1);
        } else if (mag == fmt_maxfin(F) && F->nuz) {
            hi = lo + ldexp(1.0, (int)fmt_emask(F) - fmt_bias(F) - F->mbits);
        } else if (mag == fmt_maxfin(F)) {
            int bias = (1 << (F->ebits - 1)) - 1;
            hi = F->fn ? lo + ldexp(1.0, (int)fmt_emask(F) - bias - F->mbits) : ldexp(1.0, (int)fmt_emask(F) - bias);
        } else {
            hi = dec(F, mag + 1);
        }
        double mid = (lo + hi) / 2, s = (b & sign) ? -1.0 : 1.0;
        double pts[3] = {mid, nextafter(mid, 0.0), nextafter(mid, INFINITY)};
        for (int k = 0; k < 3; k++) {
            uint64_t w = enc_double(F, s * pts[k]), g = C->from(s * pts[k]);
            tt_checks++;
            if (g != w) {
                if (bad_tie < 3)
                    printf("FAIL %s_from(%.17g) = 0x%llx, want 0x%llx (%s)\n", F->name, s * pts[k], (unsigned long long)g,
                           (unsigned long long)w, k == 0 ? "a tie" : "next to a tie");
                bad_tie++;
            }
        }
    }
    /* doubles of every magnitude, with all their bits */
    int bad_rand = 0;
    for (int k = 0; k < 20000; k++) {
        int bias = fmt_bias(F);
        double x = ldexp(1.0 + tt_uniform(0, 1), (int)tt_int(-bias - F->mbits - 3, bias + 3)) * (tt_int(0, 1) ? 1 : -1);
        uint64_t w = enc_double(F, x), g = C->from(x);
        tt_checks++;
        if (g != w) {
            if (bad_rand < 3) printf("FAIL %s_from(%.17g) = 0x%llx, want 0x%llx\n", F->name, x, (unsigned long long)g, (unsigned long long)w);
            bad_rand++;
        }
    }
    double sp[] = {INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, 1e300, DBL_MIN, 0x1p-1074, -0x1p-1074, 0.0, -0.0};
    for (size_t k = 0; k < sizeof sp / sizeof sp[0]; k++) {
        uint64_t w = enc_double(F, sp[k]), g = C->from(sp[k]);
        tt_checks++;
        if (g != w) {
            printf("FAIL %s_from(%g) = 0x%llx, want 0x%llx\n", F->name, sp[k], (unsigned long long)g, (unsigned long long)w);
            bad_rand++;
        }
    }
    TT_CHECK(!bad_to, "%s_to: %d of %llu patterns decode wrong", F->name, bad_to, (unsigned long long)npat);
    TT_CHECK(!bad_from, "%s_from: %d values do not round-trip", F->name, bad_from);
    TT_CHECK(!bad_tie, "%s_from: %d ties or near-ties round wrong", F->name, bad_tie);
    TT_CHECK(!bad_nan, "%s_from(NaN): %d results are not NaN", F->name, bad_nan);
    TT_CHECK(!bad_rand, "%s_from: %d of the random and special doubles round wrong", F->name, bad_rand);
}
static void test_round_to(void) {
    int bad = 0;
    for (int k = 0; k < 5000; k++) {
        double x = tt_normal() * pow(10.0, (double)tt_int(-40, 40));
        for (int j = 0; j < 8; j++) {
            static const tl_dtype t[] = {TL_F16, TL_BF16, TL_F32, TL_F8E4M3, TL_F8E5M2, TL_F8E4B15, TL_F8E4B8, TL_F8E5B16};
            double w = fround(fmt_of(t[j]), x), g = tile_round_to(t[j], x);
            tt_checks++;
            if (!same_float(g, w)) {
                if (bad < 3) printf("FAIL tile_round_to(%s, %.17g) = %.17g, want %.17g\n", tile_dtype_name(t[j]), x, g, w);
                bad++;
            }
        }
    }
    double iw[][3] = {{TL_I8, 300, 44}, {TL_U8, -1, 255}, {TL_I16, 40000, -25536}, {TL_U32, 4294967297.0, 1}, {TL_I1, 5, 1}, {TL_F64, 0.1, 0.1}};
    for (int k = 0; k < 6; k++) {
        double g = tile_round_to((tl_dtype)iw[k][0], iw[k][1]);
        tt_checks++;
        if (g != iw[k][2]) {
            printf("FAIL tile_round_to(%s, %g) = %g, want %g\n", tile_dtype_name((tl_dtype)iw[k][0]), iw[k][1], g, iw[k][2]);
            bad++;
        }
    }
    TT_CHECK(!bad, "tile_round_to: %d wrong", bad);
}

int main(void) {
    tt_seed();
    test_program_id();
    test_arange();
    test_full();
    test_broadcast();
    test_layout();
    test_combine();
    test_cast();
    test_bitcast();
    static const conv convs[] = {{&F_F16, f16_from, f16_to}, {&F_BF16, bf16_from, bf16_to},
                                 {&F_E4M3, e4m3_from, e4m3_to}, {&F_E5M2, e5m2_from, e5m2_to},
                                 {&F_E4B15, e4b15_from, e4b15_to}, {&F_E4B8, e4b8_from, e4b8_to}, {&F_E5B16, e5b16_from, e5b16_to}};
    for (int k = 0; k < 7; k++) test_host_conv(&convs[k]);
    test_round_to();
    return tt_finish("test_ops_shape");
}
