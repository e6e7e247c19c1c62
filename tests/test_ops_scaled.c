/* tests/test_ops_scaled.c — tl_dot_scaled, Triton's dot_scaled (OCP
   microscaling), against a float64 C reference on fresh random data.

   Every lhs x rhs pair of the five formats (e2m1, e4m3, e5m2, bf16, fp16)
   runs with no scale, a scale on either side and on both, each operand
   given as its own dtype or as its bits (u8 / u16), e2m1 packed along K or
   along M / N, with and without an accumulator, M and N of 16 to 64 with
   the rows and columns past a random (often odd) count masked off, K of
   32 to 256. Then the scales' extremes: 0, 1, 2, 126..128, 200, 253, 254,
   and 255 (NaN, or with fast_math inf), for bf16 and f16 compute, non-finite
   fp8 inputs, and bf16 operands beside fp16 ones that f16 cannot hold.
   Batched (3-D) operands [B, M, K] x [B, K, N] with scales [B, M, K/32] and
   [B, N, K/32] and an accumulator [B, M, N]: every format pair, the scales'
   edges, non-finite inputs, each batch against its own reference.
   Last, README.md's MXFP4 x bf16 matmul: a K loop of dot_scaled over blocks
   that the tensor cores take (wgmma on sm_90a).

   The reference decodes the formats from the OCP MX v1.0 spec (its own
   decoders, not the library's) and then does what Triton 3.6 does where the
   tensor cores take no scales (DecomposeScaledBlocked, on Ampere and
   Hopper): each value in the compute dtype (f16 when either format is fp16,
   else bf16), the scale 2^(s - 127) with Triton's exceptions (0 is 0, not
   2^-127: its byte is read as bf16's, or f32's, exponent field; for f16 the
   factor is then rounded to f16), the product rounded to the compute dtype,
   and the sum of the products of those in float64. The tolerance is that of
   a K-step f32 accumulation that may truncate (the tensor cores' adders do:
   an f32 ulp a step), plus an absolute K * 2^-126 for sums that fall among
   f32's subnormals. Data are drawn so that no finite product nears f32's
   range (the scales' extremes are on one side, the other side's scales
   small, yet large enough that its bf16 values stay normal: a subnormal
   operand only ever meets one of 2^-87 or less); NaN and inf must come back
   where the reference has them. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

/* what the last build made of the result, read while the body ran */
static int g_traced, g_rank, g_dims[3];
static tl_dtype g_dtype;
/* elements compared, and how many of them NaN */
static long g_checked, g_nan;

/* ---- the kernel ------------------------------------------------------------------------- */
/* the byte width of a format's elements, and its dtype (e2m1: u8 bytes) */
static int fmt_bytes(int f) { return f == TL_FMT_BF16 || f == TL_FMT_FP16 ? 2 : 1; }
static tl_dtype fmt_dtype(int f) {
    static const tl_dtype dt[] = {TL_VOID, TL_U8, TL_F8E4M3, TL_F8E5M2, TL_BF16, TL_F16};
    return dt[f];
}
/* the offsets of a row-major [rows, cols] tile, or with nb a [nb, rows, cols]
   one (nb matrices one after another), and `keep` made 3-D to match */
static tl_t offsets(int nb, int rows, int cols, tl_t r, tl_t c, tl_t *keep) {
    tl_t off = tl_add(tl_mul(r, cols), c);
    if (!nb) return off;
    *keep = tl_expand_dims(*keep, 0);
    return tl_add(tl_mul(tl_expand_dims(tl_expand_dims(tl_arange(0, nb), 1), 2), rows * cols), tl_expand_dims(off, 0));
}
/* a [rows, cols] tile of p (bytes, or u16 for 16-bit formats), or [nb, rows,
   cols]; rows (lhs) or columns (rhs) past `real` read as 0 */
static tl_t load_operand(tl_t p, int fmt, int as_dtype, int nb, int rows, int cols, tl_t real, int mask_rows) {
    tl_t r = tl_expand_dims(tl_arange(0, rows), 1), c = tl_expand_dims(tl_arange(0, cols), 0);
    if (fmt_bytes(fmt) == 2) p = tl_ptr_cast(p, TL_U16);
    tl_t keep = tl_lt(mask_rows ? r : c, real), off = offsets(nb, rows, cols, r, c, &keep);
    tl_t v = tl_load(tl_add(p, off), .mask = keep, .other = 0);
    if (as_dtype && fmt != TL_FMT_E2M1) v = tl_bitcast(v, fmt_dtype(fmt));
    return v;
}
static tl_t load_scale(tl_t p, int nb, int rows, int groups, tl_t real) {
    tl_t r = tl_expand_dims(tl_arange(0, rows), 1), g = tl_expand_dims(tl_arange(0, groups), 0);
    tl_t keep = tl_lt(r, real), off = offsets(nb, rows, groups, r, g, &keep);
    return tl_load(tl_add(p, off), .mask = keep, .other = 0);
}
TILE_KERNEL(dot_scaled_k, (tl_ptr_u8, a), (tl_ptr_u8, as), (tl_ptr_u8, b), (tl_ptr_u8, bs), (tl_ptr_f32, c0), (tl_ptr_f32, c),
            (tl_i32, a_rows), (tl_i32, b_cols), (tl_i32, m_real), (tl_i32, n_real))
{
    int FA = TL_META(FA), FB = TL_META(FB), M = TL_META(M), N = TL_META(N), K = TL_META(K);
    int SA = TL_META(SA), SB = TL_META(SB), MP = TL_META(MP), NP = TL_META(NP), ACC = TL_META(ACC), FAST = TL_META(FAST);
    int NB = TL_META(BATCH);   /* 0: 2-D operands; else [NB, M, K] x [NB, K, N] */
    /* the stored shapes: an e2m1 operand holds two values a byte along K, or along M / N */
    int ar = FA == TL_FMT_E2M1 && MP ? M / 2 : M, ac = FA == TL_FMT_E2M1 && !MP ? K / 2 : K;
    int br = FB == TL_FMT_E2M1 && !NP ? K / 2 : K, bc = FB == TL_FMT_E2M1 && NP ? N / 2 : N;
    tl_t A = load_operand(a, FA, TL_META(RA), NB, ar, ac, a_rows, 1);
    tl_t sa = SA ? load_scale(as, NB, M, K / 32, m_real) : TL_NO_SCALE;
    tl_t B = load_operand(b, FB, TL_META(RB), NB, br, bc, b_cols, 0);
    tl_t sb = SB ? load_scale(bs, NB, N, K / 32, n_real) : TL_NO_SCALE;
    tl_t rm = tl_expand_dims(tl_arange(0, M), 1), rn = tl_expand_dims(tl_arange(0, N), 0);
    tl_t keep = tl_and(tl_lt(rm, m_real), tl_lt(rn, n_real)), pc = offsets(NB, M, N, rm, rn, &keep);
    tl_t acc = TL_NO_SCALE, r;
    if (ACC) acc = tl_load(tl_add(c0, pc));
    if (!ACC && !FAST && !MP && !NP) r = tl_dot_scaled(A, sa, (tl_fmt)FA, B, sb, (tl_fmt)FB);
    else r = tl_dot_scaled(A, sa, (tl_fmt)FA, B, sb, (tl_fmt)FB, .acc = acc, .fast_math = FAST, .lhs_m_pack = MP, .rhs_n_pack = NP);
    g_traced = 1;
    g_rank = tl_rank(r);
    for (int d = 0; d < 3; d++) g_dims[d] = d < g_rank ? tl_dim(r, d) : 0;
    g_dtype = tl_dtype_of(r);
    tl_store(tl_add(c, pc), r, .mask = keep);
}

/* README.md's kernel (section "Scaled dots"), as written there: MXFP4 x
   bf16 over a TL_FOR of BLOCK_K steps, so through the loop pipeliner */
TILE_KERNEL(mxfp4_matmul, (tl_ptr_u8, a), (tl_ptr_u8, a_scale), (tl_ptr_bf16, b), (tl_ptr_f32, c), (tl_i32, N), (tl_i32, K))
{
    int  BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), BK = TL_META(BLOCK_K);
    tl_t rm = tl_add(tl_mul(tl_program_id(0), BM), tl_arange(0, BM));
    tl_t rn = tl_add(tl_mul(tl_program_id(1), BN), tl_arange(0, BN));
    tl_t pa = tl_add(a, tl_add(tl_mul(tl_expand_dims(rm, 1), tl_floordiv(K, 2)), tl_expand_dims(tl_arange(0, BK / 2), 0)));
    tl_t ps = tl_add(a_scale, tl_add(tl_mul(tl_expand_dims(rm, 1), tl_floordiv(K, 32)), tl_expand_dims(tl_arange(0, BK / 32), 0)));
    tl_t pb = tl_add(b, tl_add(tl_mul(tl_expand_dims(tl_arange(0, BK), 1), N), tl_expand_dims(rn, 0)));
    tl_t acc = tl_zeros(TL_F32, BM, BN);
    TL_FOR (k, 0, K, BK, acc, pa, ps, pb) {
        acc = tl_dot_scaled(tl_load(pa), tl_load(ps), TL_FMT_E2M1, tl_load(pb), TL_NO_SCALE, TL_FMT_BF16, .acc = acc);
        pa  = tl_add(pa, BK / 2);
        ps  = tl_add(ps, BK / 32);
        pb  = tl_add(pb, tl_mul(N, BK));
    }
    tl_store(tl_add(c, tl_add(tl_mul(tl_expand_dims(rm, 1), N), tl_expand_dims(rn, 0))), acc);
}

/* ---- the formats, decoded from the OCP MX v1.0 spec ----------------------------------------- */
/* a normal or subnormal value with `eb` exponent bits (bias 2^(eb-1) - 1)
   and `mb` mantissa bits, from its exponent and mantissa fields */
static double fields(int sign, unsigned e, unsigned m, int eb, int mb) {
    int bias = (1 << (eb - 1)) - 1;
    double v = e == 0 ? ldexp((double)m, 1 - bias - mb) : ldexp((double)((1u << mb) + m), (int)e - bias - mb);
    return sign ? -v : v;
}
/* FP4 E2M1: no inf or NaN; 0, 0.5, 1, 1.5, 2, 3, 4, 6 */
static double dec_e2m1(unsigned n) { return fields((n >> 3) & 1, (n >> 1) & 3, n & 1, 2, 1); }
/* FP8 E4M3: no inf; S.1111.111 is NaN; max 448 */
static double dec_e4m3(unsigned b) {
    if ((b & 0x7f) == 0x7f) return NAN;
    return fields((b >> 7) & 1, (b >> 3) & 15, b & 7, 4, 3);
}
/* FP8 E5M2: IEEE-like, exponent 31 is inf (mantissa 0) or NaN */
static double dec_e5m2(unsigned b) {
    unsigned e = (b >> 2) & 31, m = b & 3;
    if (e == 31) return m ? NAN : (b & 0x80) ? -INFINITY : INFINITY;
    return fields((b >> 7) & 1, e, m, 5, 2);
}
/* IEEE binary16 and bfloat16 */
static double dec_f16(unsigned h) {
    unsigned e = (h >> 10) & 31, m = h & 1023;
    if (e == 31) return m ? NAN : (h & 0x8000) ? -INFINITY : INFINITY;
    return fields((h >> 15) & 1, e, m, 5, 10);
}
static double dec_bf16(unsigned h) {
    unsigned e = (h >> 7) & 255, m = h & 127;
    if (e == 255) return m ? NAN : (h & 0x8000) ? -INFINITY : INFINITY;
    return fields((h >> 15) & 1, e, m, 8, 7);
}
/* E8M0 scale: 2^(s - 127), 255 is NaN */
static double dec_e8m0(unsigned s) { return s == 255 ? NAN : ldexp(1.0, (int)s - 127); }

/* x rounded to nearest even in a binary format of p significant bits,
   smallest normal exponent emin, largest finite value max (beyond: inf) */
static double round_fmt(double x, int p, int emin, double max) {
    if (x == 0 || x != x || isinf(x)) return x;
    int e;
    frexp(x, &e);               /* |x| in [2^(e-1), 2^e) */
    e -= 1;
    if (e < emin) e = emin;
    double q = ldexp(1.0, e - (p - 1)), r = nearbyint(x / q) * q;
    return fabs(r) > max ? (r < 0 ? -INFINITY : INFINITY) : r;
}
static double to_bf16(double x) { return round_fmt(x, 8, -126, ldexp(255.0, 120)); }
static double to_f16(double x) { return round_fmt(x, 11, -14, 65504.0); }

/* ---- the reference: Triton's decomposition in float64 ------------------------------------------ */
typedef struct scase {
    int fa, fb, M, N, K, m_real, n_real;
    int sa, sb, mp, np, ra, rb, acc, fast;
    int batch;   /* 0: 2-D; else 3-D operands with this batch dim */
} scase;

/* element (i, k) of the lhs, or (k, i) of the rhs, decoded */
static double operand(const uint8_t *p, int fmt, int packed_mn, int lhs, int i, int k, int N, int K) {
    /* the stored shape: bytes (or u16) row-major */
    int r = lhs ? i : k, c = lhs ? k : i, cols = lhs ? K : N;
    if (fmt == TL_FMT_E2M1) {
        /* two values a byte, the low nibble first, along K (or along M / N) */
        int along_rows = lhs ? packed_mn : !packed_mn, idx;
        if (along_rows) idx = (r / 2) * cols + c;
        else idx = r * (cols / 2) + c / 2;
        int hi = along_rows ? r & 1 : c & 1;
        return dec_e2m1(hi ? p[idx] >> 4 : p[idx] & 15);
    }
    int idx = r * cols + c;
    switch (fmt) {
    case TL_FMT_E4M3: return dec_e4m3(p[idx]);
    case TL_FMT_E5M2: return dec_e5m2(p[idx]);
    case TL_FMT_BF16: return dec_bf16(((const uint16_t *)p)[idx]);
    default: return dec_f16(((const uint16_t *)p)[idx]);
    }
}
/* the factor of scale byte s in the compute dtype, as Triton makes it */
static double factor(unsigned s, int f16, int fast) {
    if (s == 255) return fast ? INFINITY : NAN;     /* the exponent field all ones: inf, masked to NaN unless fast_math */
    double v = s == 0 ? 0.0 : dec_e8m0(s);          /* an exponent field of 0 is 0 (the spec's 2^-127) */
    return f16 ? to_f16(v) : v;                     /* bf16 holds 2^-126..2^127 exactly */
}

/* ---- data ------------------------------------------------------------------------------ */
enum { MODE_TYPICAL, MODE_EXTREME_A, MODE_EXTREME_B };
/* a random element code of the format: `wide` widens the ranges (fp8 up
   to their largest finite values; beside fp16, bf16 beyond f16's) */
static unsigned rand_code(int fmt, int f16, int wide) {
    unsigned s = (unsigned)tt_int(0, 1);
    switch (fmt) {
    case TL_FMT_E2M1: return (unsigned)tt_int(0, 255);   /* a byte: two values */
    case TL_FMT_E4M3: {
        unsigned e = (unsigned)tt_int(0, f16 && !wide ? 12 : 15), m = (unsigned)tt_int(0, e == 15 ? 6 : 7);
        return s << 7 | e << 3 | m;
    }
    case TL_FMT_E5M2: {
        unsigned e = (unsigned)tt_int(0, f16 && !wide ? 20 : 30), m = (unsigned)tt_int(0, 3);
        return s << 7 | e << 2 | m;
    }
    case TL_FMT_BF16: {
        if (tt_int(0, 19) == 0) return s << 15;
        /* wide, beside fp16: now and then beyond f16's range, above and below */
        int e = !(wide && f16) ? (int)tt_int(-8, 8) : tt_int(0, 63) ? (int)tt_int(-28, 12) : (int)tt_int(16, 17);
        return s << 15 | (unsigned)(127 + e) << 7 | (unsigned)tt_int(0, 127);
    }
    default: {
        if (tt_int(0, 19) == 0) return s << 15;
        int e = (int)tt_int(-8, 8);
        return s << 15 | (unsigned)(15 + e) << 10 | (unsigned)tt_int(0, 1023);
    }
    }
}
/* a random scale byte: typical ones keep every finite product far inside
   f32; an extreme side takes the edges, and the other side then small ones
   (bf16 compute: 2^-110 to 2^-103, values of 2^-16 up stay normal), so that
   a product of theirs stays finite in f32 */
static unsigned rand_scale(int mode, int side, int f16) {
    static const unsigned edges[] = {0, 1, 2, 126, 127, 128, 200, 253, 254, 255};
    int extreme = (mode == MODE_EXTREME_A && side == 0) || (mode == MODE_EXTREME_B && side == 1);
    int other = mode != MODE_TYPICAL && !extreme;
    if (extreme && tt_int(0, 7) == 0) return edges[tt_int(0, 9)];
    if (other && !f16) return (unsigned)tt_int(17, 24);
    if (f16) return (unsigned)tt_int(118, 132);
    if (tt_int(0, 29) == 0) return tt_int(0, 1) ? 0 : 255;   /* now and then a zero or a NaN group */
    return (unsigned)tt_int(112, 136);
}

static const char *const fname[] = {"?", "e2m1", "e4m3", "e5m2", "bf16", "fp16"};

/* element (r, k) of the lhs (row r) or rhs (column r) as the dot takes it: in the compute dtype, then
   times its scale (scales[r * G + k / 32]) and rounded again when scaled; 0 past the real rows or columns */
static double dot_input(const uint8_t *p, const uint8_t *scales, int fmt, int packed_mn, int lhs, int scaled, int r, int real, int k, int N, int K,
                        int G, int f16, int fast) {
    if (r >= real) return 0.0;
    double v = operand(p, fmt, packed_mn, lhs, r, k, N, K);
    v = f16 ? to_f16(v) : to_bf16(v);
    if (scaled) {
        double s = factor(scales[r * G + k / 32], f16, fast);
        v = f16 ? to_f16(v * s) : to_bf16(v * s);
    }
    return v;
}
static void run_case(const scase *sc, int mode, int nonfinite) {
    const int M = sc->M, N = sc->N, K = sc->K, G = K / 32, NB = sc->batch ? sc->batch : 1;
    int f16 = sc->fa == TL_FMT_FP16 || sc->fb == TL_FMT_FP16;
    /* the stored shapes and the real rows of lhs / columns of rhs; with a batch, NB of each one after another */
    int e2a = sc->fa == TL_FMT_E2M1, e2b = sc->fb == TL_FMT_E2M1;
    int ar = e2a && sc->mp ? M / 2 : M, ac = e2a && !sc->mp ? K / 2 : K;
    int br = e2b && !sc->np ? K / 2 : K, bc = e2b && sc->np ? N / 2 : N;
    int a_rows = e2a && sc->mp ? (sc->m_real + 1) / 2 : sc->m_real, b_cols = e2b && sc->np ? (sc->n_real + 1) / 2 : sc->n_real;
    size_t na = (size_t)ar * ac * fmt_bytes(sc->fa), nb = (size_t)br * bc * fmt_bytes(sc->fb);   /* one matrix's bytes */
    size_t nsa = (size_t)M * G, nsb = (size_t)N * G, nc = (size_t)M * N;
    uint8_t *a = (uint8_t *)tile_malloc(NB * na), *b = (uint8_t *)tile_malloc(NB * nb);
    uint8_t *as = (uint8_t *)tile_malloc(NB * nsa), *bs = (uint8_t *)tile_malloc(NB * nsb);
    float *c0 = (float *)tile_malloc(NB * nc * sizeof(float)), *c = (float *)tile_malloc(NB * nc * sizeof(float));
    TT_CHECK(a && b && as && bs && c0 && c, "tile_malloc");
    if (!a || !b || !as || !bs || !c0 || !c) return;
    /* host copies, written to the device buffers (unified or not) */
    uint8_t *ha = (uint8_t *)malloc(NB * na), *hb = (uint8_t *)malloc(NB * nb), *has = (uint8_t *)malloc(NB * nsa), *hbs = (uint8_t *)malloc(NB * nsb);
    float *hc0 = (float *)malloc(NB * nc * sizeof(float)), *hc = (float *)malloc(NB * nc * sizeof(float));
    if (!ha || !hb || !has || !hbs || !hc0 || !hc) {
        TT_CHECK(0, "malloc");
        return;
    }
    for (size_t i = 0; i < NB * na / (size_t)fmt_bytes(sc->fa); i++) {
        unsigned v = rand_code(sc->fa, f16, mode != MODE_TYPICAL);
        if (fmt_bytes(sc->fa) == 2) memcpy(ha + 2 * i, &(uint16_t){(uint16_t)v}, 2);
        else ha[i] = (uint8_t)v;
    }
    for (size_t i = 0; i < NB * nb / (size_t)fmt_bytes(sc->fb); i++) {
        unsigned v = rand_code(sc->fb, f16, mode != MODE_TYPICAL);
        if (fmt_bytes(sc->fb) == 2) memcpy(hb + 2 * i, &(uint16_t){(uint16_t)v}, 2);
        else hb[i] = (uint8_t)v;
    }
    /* a few non-finite fp8 codes: e4m3's NaN, e5m2's inf and NaN */
    for (int n = 0; n < nonfinite; n++) {
        if (sc->fa == TL_FMT_E4M3 || sc->fa == TL_FMT_E5M2)
            ha[tt_int(0, (long long)(NB * na) - 1)] = sc->fa == TL_FMT_E4M3 ? 0x7f : (uint8_t)(tt_int(0, 1) ? 0x7c : 0xfe);
        if (sc->fb == TL_FMT_E4M3 || sc->fb == TL_FMT_E5M2)
            hb[tt_int(0, (long long)(NB * nb) - 1)] = sc->fb == TL_FMT_E4M3 ? 0xff : (uint8_t)(tt_int(0, 1) ? 0xfc : 0x7d);
    }
    for (size_t i = 0; i < NB * nsa; i++) has[i] = (uint8_t)rand_scale(mode, 0, f16);
    for (size_t i = 0; i < NB * nsb; i++) hbs[i] = (uint8_t)rand_scale(mode, 1, f16);
    for (size_t i = 0; i < NB * nc; i++) hc0[i] = (float)tt_normal();
    tile_memcpy_htod(a, ha, NB * na), tile_memcpy_htod(b, hb, NB * nb);
    tile_memcpy_htod(as, has, NB * nsa), tile_memcpy_htod(bs, hbs, NB * nsb);
    tile_memcpy_htod(c0, hc0, NB * nc * sizeof(float));
    tile_memset(c, 0xA5, NB * nc * sizeof(float));

    char what[220], batch[24] = "";
    if (sc->batch) snprintf(batch, sizeof batch, " batch %d", sc->batch);
    snprintf(what, sizeof what, "tl_dot_scaled %s%s%s x %s%s%s%s %dx%dx%d (real %dx%d)%s%s%s%s", fname[sc->fa], sc->sa ? "*scale" : "",
             sc->fa == TL_FMT_E2M1 ? (sc->mp ? " packed along M" : "") : sc->ra ? " (dtype)" : " (bits)", fname[sc->fb], sc->sb ? "*scale" : "",
             sc->fb == TL_FMT_E2M1 ? (sc->np ? " packed along N" : "") : sc->rb ? " (dtype)" : " (bits)", batch, M, N, K, sc->m_real, sc->n_real,
             sc->acc ? " +acc" : "", sc->fast ? " fast_math" : "", mode == MODE_TYPICAL ? "" : mode == MODE_EXTREME_A ? " lhs scale edges" : " rhs scale edges",
             nonfinite ? " non-finite inputs" : "");
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    tile_meta m[] = {{"FA", sc->fa}, {"FB", sc->fb}, {"M", M},        {"N", N},          {"K", K},           {"SA", sc->sa},        {"SB", sc->sb},
                     {"MP", sc->mp}, {"NP", sc->np}, {"RA", sc->ra}, {"RB", sc->rb}, {"ACC", sc->acc}, {"FAST", sc->fast}, {"BATCH", sc->batch}};
    memcpy(o.meta, m, sizeof m);
    tile_arg args[10] = {{.p = a}, {.p = as}, {.p = b}, {.p = bs}, {.p = c0}, {.p = c}, {.i = a_rows}, {.i = b_cols}, {.i = sc->m_real}, {.i = sc->n_real}};
    g_traced = 0;
    tile_status st = tile_launch_kernel(TILE_KERNEL_OF(dot_scaled_k), &o, args);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    int want_rank = sc->batch ? 3 : 2, want_dims[3] = {sc->batch ? sc->batch : M, sc->batch ? M : N, sc->batch ? N : 0};
    TT_CHECK(g_traced && g_dtype == TL_F32 && g_rank == want_rank && !memcmp(g_dims, want_dims, sizeof want_dims),
             "%s: result %s rank %d [%d, %d, %d], want f32 rank %d [%d, %d, %d]", what, tile_dtype_name(g_dtype), g_rank, g_dims[0], g_dims[1], g_dims[2],
             want_rank, want_dims[0], want_dims[1], want_dims[2]);
    tile_memcpy_dtoh(hc, c, NB * nc * sizeof(float));

    /* the operands as the dot takes them: in the compute dtype, scaled, rounded; a batch at a time */
    double *x = (double *)malloc(sizeof(double) * (size_t)M * K), *y = (double *)malloc(sizeof(double) * (size_t)K * N);
    if (!x || !y) {
        TT_CHECK(0, "malloc");
        return;
    }
    int bad = 0, nan_seen = 0, untouched = 1;
    for (int t = 0; t < NB; t++) {
        const uint8_t *ta = ha + t * na, *tb = hb + t * nb, *tas = has + t * nsa, *tbs = hbs + t * nsb;
        const float *tc0 = hc0 + t * nc, *tc = hc + t * nc;
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) x[(size_t)i * K + k] = dot_input(ta, tas, sc->fa, sc->mp, 1, sc->sa, i, sc->m_real, k, N, K, G, f16, sc->fast);
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++) y[(size_t)k * N + j] = dot_input(tb, tbs, sc->fb, sc->np, 0, sc->sb, j, sc->n_real, k, N, K, G, f16, sc->fast);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float got = tc[i * N + j];
                if (i >= sc->m_real || j >= sc->n_real) {
                    uint32_t u;
                    memcpy(&u, &got, 4);
                    untouched &= u == 0xA5A5A5A5u;
                    continue;
                }
                double ref = sc->acc ? tc0[i * N + j] : 0.0, mag = fabs(ref);
                for (int k = 0; k < K; k++) {
                    double p = x[(size_t)i * K + k] * y[(size_t)k * N + j];
                    ref += p;
                    mag += fabs(p);
                }
                nan_seen += ref != ref;
                double tol = (K + 2) * ldexp(mag, -23) + K * ldexp(1.0, -126);
                int ok = ref != ref ? got != got : isinf(ref) ? (double)got == ref : fabs((double)got - ref) <= tol;
                if (!ok && bad++ < 3) printf("  %s at (%d, %d, %d): got %.9g, want %.9g (tol %.3g)\n", what, t, i, j, (double)got, ref, tol);
            }
    }
    TT_CHECK(bad == 0, "%s: %d of %d elements out of tolerance", what, bad, NB * sc->m_real * sc->n_real);
    TT_CHECK(untouched, "%s: an element outside the masked store was written", what);
    free(x), free(y);
    free(ha), free(hb), free(has), free(hbs), free(hc0), free(hc);
    tile_free(a), tile_free(b), tile_free(as), tile_free(bs), tile_free(c0), tile_free(c);
    tile_kernel_release(TILE_KERNEL_OF(dot_scaled_k));   /* the next case builds afresh (and records its result) */
    g_checked += NB * sc->m_real * sc->n_real, g_nan += nan_seen;
}

/* README.md's mxfp4_matmul at M x N x K in blocks of BM x BN x BK */
static void run_matmul(int M, int N, int K, int BM, int BN, int BK) {
    size_t na = (size_t)M * K / 2, ns = (size_t)M * K / 32, nb = (size_t)K * N, nc = (size_t)M * N;
    uint8_t *a = (uint8_t *)tile_malloc(na), *as = (uint8_t *)tile_malloc(ns);
    uint16_t *b = (uint16_t *)tile_malloc(nb * 2);
    float *c = (float *)tile_malloc(nc * sizeof(float));
    uint8_t *ha = (uint8_t *)malloc(na), *has = (uint8_t *)malloc(ns);
    uint16_t *hb = (uint16_t *)malloc(nb * 2);
    float *hc = (float *)malloc(nc * sizeof(float));
    double *x = (double *)malloc(sizeof(double) * (size_t)M * K);
    TT_CHECK(a && as && b && c && ha && has && hb && hc && x, "malloc");
    if (!a || !as || !b || !c || !ha || !has || !hb || !hc || !x) return;
    for (size_t i = 0; i < na; i++) ha[i] = (uint8_t)rand_code(TL_FMT_E2M1, 0, 0);
    for (size_t i = 0; i < ns; i++) has[i] = (uint8_t)rand_scale(MODE_TYPICAL, 0, 0);
    for (size_t i = 0; i < nb; i++) hb[i] = (uint16_t)rand_code(TL_FMT_BF16, 0, 0);
    tile_memcpy_htod(a, ha, na), tile_memcpy_htod(as, has, ns), tile_memcpy_htod(b, hb, nb * 2);
    tile_memset(c, 0xA5, nc * sizeof(float));
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    o.grid[0] = (unsigned)(M / BM), o.grid[1] = (unsigned)(N / BN), o.grid[2] = 1;
    tile_meta m[] = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK}};
    memcpy(o.meta, m, sizeof m);
    tile_arg args[6] = {{.p = a}, {.p = as}, {.p = b}, {.p = c}, {.i = N}, {.i = K}};
    tile_status st = tile_launch_kernel(TILE_KERNEL_OF(mxfp4_matmul), &o, args);
    char what[96];
    snprintf(what, sizeof what, "mxfp4_matmul %dx%dx%d in blocks of %dx%dx%d", M, N, K, BM, BN, BK);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    tile_memcpy_dtoh(hc, c, nc * sizeof(float));
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            x[(size_t)i * K + k] = to_bf16(operand(ha, TL_FMT_E2M1, 0, 1, i, k, N, K) * factor(has[i * (K / 32) + k / 32], 0, 0));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < K; k++) {
                double p = x[(size_t)i * K + k] * dec_bf16(hb[(size_t)k * N + j]);
                ref += p, mag += fabs(p);
            }
            double got = hc[(size_t)i * N + j], tol = (K + 2) * ldexp(mag, -23) + K * ldexp(1.0, -126);
            int ok = ref != ref ? got != got : fabs(got - ref) <= tol;
            if (!ok && bad++ < 3) printf("  %s at (%d, %d): got %.9g, want %.9g (tol %.3g)\n", what, i, j, got, ref, tol);
        }
    TT_CHECK(bad == 0, "%s: %d of %d elements out of tolerance", what, bad, M * N);
    free(ha), free(has), free(hb), free(hc), free(x);
    tile_free(a), tile_free(as), tile_free(b), tile_free(c);
}

/* a random case of formats fa x fb with these scales */
static scase random_case(int fa, int fb, int sa, int sb) {
    static const int mn[] = {16, 32, 64}, ks[] = {32, 64, 128, 256};
    scase s;
    memset(&s, 0, sizeof s);
    s.fa = fa, s.fb = fb, s.sa = sa, s.sb = sb;
    s.M = mn[tt_int(0, 2)], s.N = mn[tt_int(0, 2)], s.K = ks[tt_int(0, 3)];
    /* the real rows and columns: often odd, at least half */
    s.m_real = tt_int(0, 2) ? (int)tt_int(s.M / 2, s.M) : s.M;
    s.n_real = tt_int(0, 2) ? (int)tt_int(s.N / 2, s.N) : s.N;
    s.mp = fa == TL_FMT_E2M1 && tt_int(0, 1), s.np = fb == TL_FMT_E2M1 && tt_int(0, 1);
    s.ra = (int)tt_int(0, 1), s.rb = (int)tt_int(0, 1);
    s.acc = (int)tt_int(0, 1);
    s.fast = (sa || sb) && tt_int(0, 2) == 0;
    return s;
}

/* s with a batch of nb, its K (then M and N) halved while a batch of operands holds more values
   than the largest 2-D case's (64 x 256): the GPU's code unrolls every matrix of the batch */
static scase batched(scase s, int nb) {
    s.batch = nb;
    while (nb * s.K * (s.M > s.N ? s.M : s.N) > 64 * 256) {
        if (s.K > 32) s.K /= 2;
        else if (s.M >= s.N) s.M /= 2;
        else s.N /= 2;
    }
    s.m_real = s.m_real > s.M ? s.M : s.m_real, s.n_real = s.n_real > s.N ? s.N : s.n_real;
    return s;
}

int main(void) {
    tt_seed();
    /* every format pair, with no scale, either and both */
    for (int fa = TL_FMT_E2M1; fa <= TL_FMT_FP16; fa++)
        for (int fb = TL_FMT_E2M1; fb <= TL_FMT_FP16; fb++)
            for (int scales = 0; scales < 4; scales++) {
                scase s = random_case(fa, fb, scales & 1, scales >> 1);
                run_case(&s, MODE_TYPICAL, 0);
            }
    /* the scales' edges on one side, bf16 and f16 compute, fast_math or not */
    static const int pairs[][2] = {{TL_FMT_E2M1, TL_FMT_E4M3}, {TL_FMT_E5M2, TL_FMT_BF16}, {TL_FMT_E2M1, TL_FMT_E2M1},
                                   {TL_FMT_E4M3, TL_FMT_FP16}, {TL_FMT_FP16, TL_FMT_E2M1}, {TL_FMT_BF16, TL_FMT_FP16}};
    for (int p = 0; p < 6; p++)
        for (int side = 0; side < 2; side++)
            for (int fast = 0; fast < 2; fast++) {
                scase s = random_case(pairs[p][0], pairs[p][1], 1, 1);
                s.fast = fast;
                run_case(&s, side ? MODE_EXTREME_B : MODE_EXTREME_A, 0);
            }
    /* non-finite fp8 inputs */
    static const int nf[][2] = {{TL_FMT_E4M3, TL_FMT_E5M2}, {TL_FMT_E5M2, TL_FMT_E4M3}, {TL_FMT_E4M3, TL_FMT_FP16}};
    for (int p = 0; p < 3; p++) {
        scase s = random_case(nf[p][0], nf[p][1], (int)tt_int(0, 1), (int)tt_int(0, 1));
        run_case(&s, MODE_TYPICAL, 2);
    }
    /* batched (3-D) operands, a batch of 1, 2 or 4: every format pair with a scale on either side or
       none, then the scales' edges and non-finite inputs */
    for (int fa = TL_FMT_E2M1; fa <= TL_FMT_FP16; fa++)
        for (int fb = TL_FMT_E2M1; fb <= TL_FMT_FP16; fb++) {
            scase s = batched(random_case(fa, fb, (int)tt_int(0, 1), (int)tt_int(0, 1)), 1 << tt_int(0, 2));
            run_case(&s, MODE_TYPICAL, 0);
        }
    for (int p = 0; p < 6; p++) {
        scase s = batched(random_case(pairs[p][0], pairs[p][1], 1, 1), 2 << tt_int(0, 1));
        s.fast = p & 1;
        run_case(&s, p & 2 ? MODE_EXTREME_B : MODE_EXTREME_A, 0);
    }
    scase nb = batched(random_case(TL_FMT_E5M2, TL_FMT_E4M3, 1, 0), 4);
    run_case(&nb, MODE_TYPICAL, 3);
    /* the largest tiles, scaled both sides, through the accumulator */
    scase big = random_case(TL_FMT_E2M1, TL_FMT_E4M3, 1, 1);
    big.M = 64, big.N = 64, big.K = 256, big.m_real = 61, big.n_real = 37, big.acc = 1;
    run_case(&big, MODE_TYPICAL, 0);
    scase bigb = big;
    bigb.batch = 4, bigb.M = 32, bigb.N = 64, bigb.K = 128, bigb.m_real = 32, bigb.n_real = 53, bigb.mp = 1, bigb.np = 0;
    run_case(&bigb, MODE_TYPICAL, 0);
    /* README.md's kernel: a K loop, blocks the tensor cores take (wgmma on sm_90a at 64 x 64 x 64) */
    run_matmul(128, 128, 256, 64, 64, 64);
    run_matmul(64, 128, 256, 32, 64, 128);
    run_matmul(32, 64, 96, 16, 32, 32);
    printf("%ld elements compared, %ld of them NaN\n", g_checked, g_nan);
    return tt_finish("test_ops_scaled");
}
