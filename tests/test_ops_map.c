/* tests/test_ops_map.c — tl_map_elementwise and tl_map_elementwise_n,
   Triton's map_elementwise: a C function of rank-0 values applied to each
   element (or each pack of 2, 4, 8 consecutive elements of the last dim) of
   the operands broadcast to one shape, with control flow on its scalars.

   Each kernel runs on fresh random inputs (the interpreter here, the GPU
   there), outputs poisoned first, checked against a float64 C reference:
   Triton's selu example (a branch) in f16, bf16, f32 and f64; a load only
   where the element's index is inside the table (the interpreter faults on
   any other load, so the branch must run per element); several results of
   three dtypes from broadcast operands; a TL_WHILE and a TL_FOR whose trip
   counts are the element's own; packs of 1, 2, 4 and 8 whose function mixes
   the pack's elements (so which elements form a pack is checked) at several
   num_warps; a map of a tl_dot's result (tensor-core layout on a GPU);
   every dtype through a branchy max/min; the layouts of packs for every
   thread; TILE_MAX_UNROLL counting the function once per element a thread
   holds. Then each misuse: an error with its id at the user's line. With
   TILE_ARCH every launch also compiles. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "test_util.h"

/* ---- host values of any dtype ------------------------------------------------- */
typedef tt_val val;
static int is_flt(tl_dtype t) { return t >= TL_F16 && t <= TL_F8E5B16; }
static int is_sgn(tl_dtype t) { return t >= TL_I8 && t <= TL_I64; }
/* as a double (exact for every integer the tests make) */
static double num(tl_dtype t, val v) { return is_flt(t) ? v.f : is_sgn(t) ? (double)v.i : (double)v.u; }
/* a random value of t: integers over their whole range (i1: 0 or 1), floats in [-lim, lim] on t's grid */
static val rand_val(tl_dtype t, double lim) {
    val v;
    unsigned char b[8];
    v.u = tt_next();
    if (is_flt(t)) {
        v.f = tile_round_to(t, tt_uniform(-lim, lim));
        return v;
    }
    tt_put(t, b, 0, v);   /* truncated to t's width, read back extended */
    return tt_get(t, b, 0);
}
/* device copies of host arrays, and an output poisoned */
static void *dev_of(const void *h, size_t bytes) {
    void *d = tile_malloc(bytes ? bytes : 1);
    if (d && bytes) tile_memcpy_htod(d, h, bytes);
    return d;
}
static void *dev_poisoned(size_t bytes) {
    void *d = tile_malloc(bytes);
    if (d) tile_memset(d, 0xA5, bytes);
    return d;
}
/* the ulps of float dtype t at |x| */
static double ulps(tl_dtype t, double x, double n) {
    int mant = t == TL_F16 ? 10 : t == TL_BF16 ? 7 : t == TL_F32 ? 23 : 52;
    int emin = t == TL_F16 ? -14 : t == TL_F64 ? -1022 : -126;
    int e = x == 0 ? emin : ilogb(fabs(x));
    return n * ldexp(1.0, (e < emin ? emin : e) - mant);
}

/* ---- Triton's selu: a branch on the element ---------------------------------------- */
/* x[0] the element, x[1] alpha: x if x > 0, else alpha (e^x - 1), in x's dtype */
static tl_t selu_scalar(const tl_t *x) {
    tl_t v = x[0], r = v;
    TL_IF (tl_le(v, 0), r) { r = tl_cast(tl_mul(x[1], tl_sub(tl_exp(v), 1)), tl_dtype_of(v)); }
    return r;
}
TILE_KERNEL(map_selu, (tl_ptr, x), (tl_ptr, y), (tl_f32, alpha), (tl_i32, n))
{
    enum { B = 256 };
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B)), mask = tl_lt(offs, n);
    tl_t v = tl_load(tl_add(x, offs), .mask = mask, .other = 0);
    tl_store(tl_add(y, offs), tl_map_elementwise(selu_scalar, (v, alpha)), .mask = mask);
}
static void test_selu(void) {
    static const tl_dtype dts[] = {TL_F16, TL_BF16, TL_F32, TL_F64};
    enum { N = 1000 };
    for (int d = 0; d < 4; d++) {
        tl_dtype t = dts[d];
        size_t es = tile_dtype_size(t);
        unsigned char *hx = (unsigned char *)malloc(N * es), *hy = (unsigned char *)malloc(N * es);
        float alpha = (float)tt_uniform(0.5, 2.0);
        for (int i = 0; i < N; i++) tt_put(t, hx, (size_t)i, rand_val(t, 6.0));
        void *dx = dev_of(hx, N * es), *dy = dev_poisoned(N * es);
        TT_OK(map_selu(TILE_OPTS(.grid = {(N + 255) / 256}), TILE_PTR(dx, t), TILE_PTR(dy, t), alpha, N));
        tile_memcpy_dtoh(hy, dy, N * es);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double xv = tt_get(t, hx, (size_t)i).f, got = tt_get(t, hy, (size_t)i).f;
            double want = xv > 0 ? xv : (double)alpha * expm1(xv);
            /* e^x and the product round in the dtype (f16, bf16: e^x in f32, then each step in the dtype) */
            double tol = xv > 0 ? 0 : ulps(t, want, 3) + ulps(t, 1.0, t == TL_F64 ? 4 : 2) * alpha;
            if (!(fabs(got - want) <= tol) && bad++ < 3)
                TT_CHECK(0, "selu %s: x %.9g alpha %.9g: %.9g, want %.9g", tile_dtype_name(t), xv, (double)alpha, got, want);
            tt_checks++;
        }
        TT_CHECK(!bad, "selu %s: %d of %d wrong", tile_dtype_name(t), bad, N);
        tile_free(dx), tile_free(dy), free(hx), free(hy);
    }
}

/* ---- a load only where the element says so; a pointer result ----------------------------- */
/* x[0] an index, x[1] the table (a pointer), x[2] its size: table[i] where 0 <= i < size, else
   -1; and a pointer to table[clamp(i)] */
static void guarded(const tl_t *x, tl_t *out) {
    tl_t i = x[0], r = tl_full(TL_F32, -1.0), last = tl_sub(x[2], 1);
    TL_IF (tl_logical_and(tl_ge(i, 0), tl_lt(i, x[2])), r) { r = tl_load(tl_add(x[1], i)); }
    out[0] = r;
    out[1] = tl_add(x[1], tl_minimum(tl_maximum(i, 0), last));
}
TILE_KERNEL(map_gather, (tl_ptr_i32, idx), (tl_ptr_f32, table), (tl_i32, size), (tl_ptr_f32, out), (tl_ptr_f32, out2), (tl_i32, n))
{
    enum { B = 128 };
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B)), mask = tl_lt(offs, n), r[2];
    tl_map_elementwise_n(guarded, (tl_load(tl_add(idx, offs), .mask = mask), table, size), 2, r);
    tl_store(tl_add(out, offs), r[0], .mask = mask);
    tl_store(tl_add(out2, offs), tl_load(r[1]), .mask = mask);
}
static void test_gather(void) {
    enum { N = 777, T = 50 };
    int32_t hi[N];
    float ht[T], ho[N], ho2[N];
    for (int k = 0; k < T; k++) ht[k] = (float)tt_uniform(-100, 100);
    for (int k = 0; k < N; k++) hi[k] = (int32_t)tt_int(-3 * T, 3 * T);
    hi[0] = -1, hi[1] = T, hi[2] = 0, hi[3] = T - 1, hi[4] = INT32_MIN, hi[5] = INT32_MAX;
    void *di = dev_of(hi, sizeof hi), *dt = dev_of(ht, sizeof ht), *dout = dev_poisoned(sizeof ho), *dout2 = dev_poisoned(sizeof ho2);
    TT_OK(map_gather(TILE_OPTS(.grid = {(N + 127) / 128}), di, dt, T, dout, dout2, N));
    tile_memcpy_dtoh(ho, dout, sizeof ho);
    tile_memcpy_dtoh(ho2, dout2, sizeof ho2);
    int bad = 0;
    for (int k = 0; k < N; k++) {
        float want = hi[k] >= 0 && hi[k] < T ? ht[hi[k]] : -1.0f, want2 = ht[hi[k] < 0 ? 0 : hi[k] >= T ? T - 1 : hi[k]];
        tt_checks++;
        if ((ho[k] != want || ho2[k] != want2) && bad++ < 3)
            TT_CHECK(0, "guarded load: index %d: %g and %g, want %g and %g", hi[k], ho[k], ho2[k], want, want2);
    }
    TT_CHECK(!bad, "guarded load: %d of %d wrong", bad, N);
    tile_free(di), tile_free(dt), tile_free(dout), tile_free(dout2);
}

/* ---- several results of three dtypes, from operands broadcast [M,1] x [1,N] x scalar ----------- */
/* a (i32), b (f32), c (f32): a > 0 ? b * a : b - c (f32); a even (i1); a * a (i64) */
static void three(const tl_t *x, tl_t *out) {
    tl_t a = x[0], r = x[1];
    TL_IF (tl_gt(a, 0), r) { r = tl_mul(r, a); } TL_ELSE { r = tl_sub(r, x[2]); }
    out[0] = r;
    out[1] = tl_eq(tl_and(a, 1), 0);
    tl_t w = tl_cast(a, TL_I64);
    out[2] = tl_mul(w, w);
}
TILE_KERNEL(map_three, (tl_ptr_i32, a), (tl_ptr_f32, b), (tl_f32, c), (tl_ptr_f32, o0), (tl_ptr_i8, o1), (tl_ptr_i64, o2))
{
    enum { M = 32, N = 16 };
    tl_t av = tl_expand_dims(tl_load(tl_add(a, tl_arange(0, M))), 1);   /* [M, 1] */
    tl_t bv = tl_expand_dims(tl_load(tl_add(b, tl_arange(0, N))), 0);   /* [1, N] */
    tl_t r[3];
    tl_map_elementwise_n(three, (av, bv, c), 3, r);
    tl_static_assert(tl_dtype_of(r[0]) == TL_F32 && tl_dtype_of(r[1]) == TL_I1 && tl_dtype_of(r[2]) == TL_I64 && tl_rank(r[0]) == 2 &&
                         tl_dim(r[2], 0) == M && tl_dim(r[2], 1) == N,
                     "the results' dtypes and shape");
    tl_t at = tl_add(tl_mul(tl_expand_dims(tl_arange(0, M), 1), N), tl_expand_dims(tl_arange(0, N), 0));
    tl_store(tl_add(o0, at), r[0]);
    tl_store(tl_add(o1, at), tl_cast(r[1], TL_I8));
    tl_store(tl_add(o2, at), r[2]);
}
static void test_three(void) {
    enum { M = 32, N = 16 };
    int32_t ha[M];
    float hb[N], h0[M * N];
    int8_t h1[M * N];
    int64_t h2[M * N];
    float c = (float)tt_uniform(-10, 10);
    for (int i = 0; i < M; i++) ha[i] = (int32_t)tt_int(-2000000, 2000000);
    for (int j = 0; j < N; j++) hb[j] = (float)tt_uniform(-10, 10);
    ha[0] = 0, ha[1] = INT32_MIN, ha[2] = 46341;
    void *da = dev_of(ha, sizeof ha), *db = dev_of(hb, sizeof hb), *d0 = dev_poisoned(sizeof h0), *d1 = dev_poisoned(sizeof h1), *d2 = dev_poisoned(sizeof h2);
    TT_OK(map_three(TILE_OPTS(.grid = {1}), da, db, c, d0, d1, d2));
    tile_memcpy_dtoh(h0, d0, sizeof h0);
    tile_memcpy_dtoh(h1, d1, sizeof h1);
    tile_memcpy_dtoh(h2, d2, sizeof h2);
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int k = i * N + j;
            /* b * a: a rounds to f32 first (tl_mul promotes the i32), then the product once */
            double w0 = ha[i] > 0 ? (double)(float)((double)hb[j] * (double)(float)ha[i]) : (double)(float)((double)hb[j] - (double)c);
            int w1 = (ha[i] & 1) == 0;
            int64_t w2 = (int64_t)ha[i] * ha[i];
            tt_checks++;
            if (((double)h0[k] != w0 || h1[k] != w1 || h2[k] != w2) && bad++ < 3)
                TT_CHECK(0, "three results at (%d, %d) of a %d, b %g, c %g: %g %d %lld, want %g %d %lld", i, j, ha[i], hb[j], c, h0[k], h1[k],
                         (long long)h2[k], w0, w1, (long long)w2);
        }
    TT_CHECK(!bad, "three results: %d of %d wrong", bad, M * N);
    tile_free(da), tile_free(db), tile_free(d0), tile_free(d1), tile_free(d2);
}

/* ---- loops whose trip counts are the element's ------------------------------------------------ */
/* x[0] (i64) n: Collatz steps to 1 (a TL_WHILE); x[1] (i32) k: 3^k mod 1000003 (a TL_FOR of k trips) */
static void loops(const tl_t *x, tl_t *out) {
    tl_t n = x[0], steps = tl_zeros(TL_I32), acc = tl_full(TL_I64, 1);
    TL_WHILE (tl_gt(n, 1), n, steps) {
        TL_IF (tl_ne(tl_and(n, 1), 0), n) { n = tl_add(tl_mul(n, 3), 1); } TL_ELSE { n = tl_shr(n, 1); }
        steps = tl_add(steps, 1);
    }
    TL_FOR (i, 0, x[1], 1, acc) { acc = tl_mod(tl_mul(acc, 3), 1000003); }
    out[0] = steps;
    out[1] = acc;
}
TILE_KERNEL(map_loops, (tl_ptr_i64, ns), (tl_ptr_i32, ks), (tl_ptr_i32, steps), (tl_ptr_i64, pows), (tl_i32, n))
{
    enum { B = 64 };
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B)), mask = tl_lt(offs, n), r[2];
    tl_map_elementwise_n(loops, (tl_load(tl_add(ns, offs), .mask = mask, .other = 1), tl_load(tl_add(ks, offs), .mask = mask)), 2, r);
    tl_store(tl_add(steps, offs), r[0], .mask = mask);
    tl_store(tl_add(pows, offs), r[1], .mask = mask);
}
static void test_loops(void) {
    enum { N = 300 };
    int64_t hn[N], hp[N];
    int32_t hk[N], hs[N];
    for (int i = 0; i < N; i++) hn[i] = tt_int(1, 100000), hk[i] = (int32_t)tt_int(-3, 200);
    hn[0] = 1, hn[1] = 27, hk[0] = 0;
    void *dn = dev_of(hn, sizeof hn), *dk = dev_of(hk, sizeof hk), *ds = dev_poisoned(sizeof hs), *dp = dev_poisoned(sizeof hp);
    TT_OK(map_loops(TILE_OPTS(.grid = {(N + 63) / 64}), dn, dk, ds, dp, N));
    tile_memcpy_dtoh(hs, ds, sizeof hs);
    tile_memcpy_dtoh(hp, dp, sizeof hp);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int64_t v = hn[i], w = 1;
        int s = 0;
        while (v > 1) v = (v & 1) ? 3 * v + 1 : v >> 1, s++;
        for (int j = 0; j < hk[i]; j++) w = w * 3 % 1000003;
        tt_checks++;
        if ((hs[i] != s || hp[i] != w) && bad++ < 3)
            TT_CHECK(0, "loops: n %lld k %d: %d steps and %lld, want %d and %lld", (long long)hn[i], hk[i], hs[i], (long long)hp[i], s, (long long)w);
    }
    TT_CHECK(!bad, "loops: %d of %d wrong", bad, N);
    tile_free(dn), tile_free(dk), tile_free(ds), tile_free(dp);
}

/* ---- packs: which elements form one ------------------------------------------------------------- */
/* pack p (P): x[0..p) a pack of a, x[p..2p) of b (broadcast [1, C]); out[j] = 3 a[j] + b[(j + 1) % p],
   out[p + j] = the pack's sum of a at j = 0, a[j] elsewhere: wrong packs give wrong sums */
static int g_pack;
static void packed(const tl_t *x, tl_t *out) {
    int p = g_pack;
    tl_t sum = x[0];
    for (int j = 1; j < p; j++) sum = tl_add(sum, x[j]);
    for (int j = 0; j < p; j++) {
        out[j] = tl_add(tl_mul(x[j], 3), x[p + (j + 1) % p]);
        out[p + j] = j == 0 ? sum : x[j];
    }
}
TILE_KERNEL(map_pack, (tl_ptr, a), (tl_ptr, b), (tl_ptr, o0), (tl_ptr, o1))
{
    int R = TL_META(R), C = TL_META(C);
    g_pack = TL_META(P);
    tl_t at = tl_add(tl_mul(tl_expand_dims(tl_arange(0, R), 1), C), tl_expand_dims(tl_arange(0, C), 0));
    tl_t bv = tl_expand_dims(tl_load(tl_add(b, tl_arange(0, C))), 0), r[2];
    tl_map_elementwise_n(packed, (tl_load(tl_add(a, at)), bv), 2, r, .pack = g_pack);
    tl_store(tl_add(o0, at), r[0]);
    tl_store(tl_add(o1, at), r[1]);
}
static void test_pack(void) {
    static const struct { int r, c, p, warps; tl_dtype t; } cases[] = {
        {4, 8, 1, 4, TL_I32}, {4, 8, 2, 4, TL_I32},   {8, 4, 4, 4, TL_I32},  {16, 64, 2, 1, TL_I32}, {16, 64, 4, 8, TL_U8}, {2, 128, 4, 2, TL_I16},
        {64, 4, 4, 4, TL_F32}, {1, 256, 8, 4, TL_I32}, {32, 32, 2, 8, TL_I8}, {8, 16, 8, 1, TL_U32},  {4, 4, 4, 1, TL_I64},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int R = cases[c].r, C = cases[c].c, p = cases[c].p, n = R * C;
        tl_dtype t = cases[c].t;
        size_t es = tile_dtype_size(t);
        unsigned char *ha = (unsigned char *)malloc((size_t)n * es), *hb = (unsigned char *)malloc((size_t)C * es);
        unsigned char *h0 = (unsigned char *)malloc((size_t)n * es), *h1 = (unsigned char *)malloc((size_t)n * es);
        for (int k = 0; k < n; k++) tt_put(t, ha, (size_t)k, rand_val(t, 1000));
        for (int k = 0; k < C; k++) tt_put(t, hb, (size_t)k, rand_val(t, 1000));
        void *da = dev_of(ha, (size_t)n * es), *db = dev_of(hb, (size_t)C * es), *d0 = dev_poisoned((size_t)n * es), *d1 = dev_poisoned((size_t)n * es);
        TT_OK(map_pack(TILE_OPTS(.grid = {1}, .num_warps = cases[c].warps, .meta = {{"R", R}, {"C", C}, {"P", p}}), TILE_PTR(da, t), TILE_PTR(db, t),
                       TILE_PTR(d0, t), TILE_PTR(d1, t)));
        tile_memcpy_dtoh(h0, d0, (size_t)n * es);
        tile_memcpy_dtoh(h1, d1, (size_t)n * es);
        int bad = 0;
        unsigned char w[8];
        for (int k = 0; k < n; k++) {
            int j = k % C % p, g = k - j;   /* its place in its pack, the pack's first element */
            double s = 0;   /* exact for the floats here (f32 values below 2^10) */
            for (int q = 0; q < p; q++) s += num(t, tt_get(t, ha, (size_t)(g + q)));
            val a = tt_get(t, ha, (size_t)k), b = tt_get(t, hb, (size_t)(k % C - j + (j + 1) % p));
            double w0, w1 = j == 0 ? s : num(t, a);
            double g0 = num(t, tt_get(t, h0, (size_t)k)), g1 = num(t, tt_get(t, h1, (size_t)k));
            if (!is_flt(t)) {   /* integers wrap at their width: the sums modulo 2^64, then wrapped to t */
                val v;
                v.u = 3 * a.u + b.u, tt_put(t, w, 0, v), w0 = num(t, tt_get(t, w, 0));
                v.u = a.u;
                for (int q = 1; j == 0 && q < p; q++) v.u += tt_get(t, ha, (size_t)(g + q)).u;
                tt_put(t, w, 0, v), w1 = num(t, tt_get(t, w, 0));
            } else {   /* the float sums round step by step: 3a + b once, the pack's sum p - 1 times */
                w0 = (double)(float)((double)(float)(3 * a.f) + b.f);
                double acc = num(t, tt_get(t, ha, (size_t)g));
                for (int q = 1; q < p; q++) acc = (double)(float)(acc + num(t, tt_get(t, ha, (size_t)(g + q))));
                if (j == 0) w1 = acc;
            }
            tt_checks++;
            if ((g0 != w0 || g1 != w1) && bad++ < 3)
                TT_CHECK(0, "pack %d, %s [%d, %d], %d warps: element %d (%d of its pack): %.17g and %.17g, want %.17g and %.17g", p, tile_dtype_name(t), R, C,
                         cases[c].warps, k, j, g0, g1, w0, w1);
        }
        TT_CHECK(!bad, "pack %d %s [%d, %d]: %d of %d wrong", p, tile_dtype_name(t), R, C, bad, n);
        tile_free(da), tile_free(db), tile_free(d0), tile_free(d1);
        free(ha), free(hb), free(h0), free(h1);
    }
}

/* the layouts the plan gives a map's values with pack p (the lowering's
   premise): every thread's registers e .. e + p - 1, e a multiple of p,
   hold p consecutive elements of the last dim, the first at a multiple of
   p, so each pack is one run of the function; checked for every thread of
   shapes of rank 1 to 3 at 1 to 32 warps */
static void test_pack_layouts(void) {
    static const int shapes[][4] = {{1, 2}, {1, 16}, {1, 1024}, {2, 4, 2}, {2, 64, 16}, {2, 1, 8}, {3, 2, 4, 4}, {3, 8, 1, 32}, {2, 512, 64}};
    int checked = 0, bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int warps = 1; warps <= 32; warps *= 2)
            for (int pack = 2; pack <= 16 && pack <= shapes[s][shapes[s][0]]; pack *= 2) {
                tile__type t = tile__scalar_type(TL_I8);
                t.rank = shapes[s][0];
                for (int d = 0; d < t.rank; d++) t.shape[d] = shapes[s][1 + d];
                tile__layout L;
                tile__layout_pack(&t, 32 * warps, pack, &L);
                int last = t.rank - 1;
                for (int tid = 0; tid < 32 * warps && bad < 3; tid++)
                    for (int e = 0; e < L.E; e += pack) {
                        int c0[TILE__MAX_RANK], c[TILE__MAX_RANK];
                        tile__coords(&L, tid, e, c0);
                        int ok = L.E % pack == 0 && c0[last] % pack == 0;
                        for (int j = 1; j < pack && ok; j++) {
                            tile__coords(&L, tid, e + j, c);
                            for (int d = 0; d < t.rank; d++) ok &= c[d] == c0[d] + (d == last ? j : 0);
                        }
                        checked++;
                        if (!ok && bad++ < 3)
                            TT_CHECK(0, "pack %d layout of shape %d dims [%d, ...] at %d warps: thread %d's registers %d.. are not one pack", pack, t.rank,
                                     t.shape[0], warps, tid, e);
                    }
            }
    TT_CHECK(!bad && checked > 1000, "pack layouts: %d of %d packs broken", bad, checked);
}

/* ---- a tl_dot's result (the tensor cores' layout on a GPU), pack 1 and 2 ---------------------- */
/* v > 0 ? v : v / 2, and the pair's (v0 + v1, v0 - v1) */
static tl_t leaky(const tl_t *x) {
    tl_t r = x[0];
    TL_IF (tl_le(r, 0), r) { r = tl_mul(r, 0.5); }
    return r;
}
static void pairs(const tl_t *x, tl_t *out) {
    out[0] = tl_add(x[0], x[1]);
    out[1] = tl_sub(x[0], x[1]);
}
TILE_KERNEL(map_dot, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, o0), (tl_ptr_f32, o1))
{
    enum { S = 32 };
    tl_t at = tl_add(tl_mul(tl_expand_dims(tl_arange(0, S), 1), S), tl_expand_dims(tl_arange(0, S), 0));
    tl_t acc = tl_dot(tl_load(tl_add(a, at)), tl_load(tl_add(b, at))), r;
    tl_store(tl_add(o0, at), tl_map_elementwise(leaky, (acc)));
    tl_map_elementwise_n(pairs, (acc), 1, &r, .pack = 2);
    tl_store(tl_add(o1, at), r);
}
static void test_dot(void) {
    enum { S = 32 };
    tile_f16 ha[S * S], hb[S * S];
    float h0[S * S], h1[S * S];
    double ref[S * S];
    for (int k = 0; k < S * S; k++) ha[k] = tile_f16_from(tt_uniform(-2, 2)), hb[k] = tile_f16_from(tt_uniform(-2, 2));
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            double s = 0;
            for (int k = 0; k < S; k++) s += tile_f16_to(ha[i * S + k]) * tile_f16_to(hb[k * S + j]);
            ref[i * S + j] = s;
        }
    void *da = dev_of(ha, sizeof ha), *db = dev_of(hb, sizeof hb), *d0 = dev_poisoned(sizeof h0), *d1 = dev_poisoned(sizeof h1);
    TT_OK(map_dot(TILE_OPTS(.grid = {1}), da, db, d0, d1));
    tile_memcpy_dtoh(h0, d0, sizeof h0);
    tile_memcpy_dtoh(h1, d1, sizeof h1);
    int bad = 0;
    for (int k = 0; k < S * S; k++) {
        int j = k % 2;
        double v = ref[k], w0 = v > 0 ? v : v / 2, w1 = j == 0 ? ref[k] + ref[k + 1] : ref[k - 1] - ref[k];
        tt_checks++;
        if ((!tt_close(h0[k], w0, 1e-4, 1e-5) || !tt_close(h1[k], w1, 2e-4, 1e-5)) && bad++ < 3)
            TT_CHECK(0, "map of a dot's result at %d: %.9g and %.9g, want %.9g and %.9g", k, h0[k], h1[k], w0, w1);
    }
    TT_CHECK(!bad, "map of a dot's result: %d of %d wrong", bad, S * S);
    tile_free(da), tile_free(db), tile_free(d0), tile_free(d1);
}

/* ---- every dtype: a branchy max and min, and a == b ------------------------------------------ */
static void maxmin(const tl_t *x, tl_t *out) {
    tl_t hi = x[1], lo = x[0];
    TL_IF (tl_lt(x[0], x[1]), hi, lo) {} TL_ELSE { hi = x[0]; lo = x[1]; }
    out[0] = hi;
    out[1] = lo;
    out[2] = tl_eq(x[0], x[1]);
}
TILE_KERNEL(map_dt, (tl_ptr, a), (tl_ptr, b), (tl_ptr, hi), (tl_ptr, lo), (tl_ptr_i1, eq), (tl_i32, n))
{
    enum { B = 128 };
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B)), mask = tl_lt(offs, n), r[3];
    tl_map_elementwise_n(maxmin, (tl_load(tl_add(a, offs), .mask = mask), tl_load(tl_add(b, offs), .mask = mask)), 3, r);
    tl_store(tl_add(hi, offs), r[0], .mask = mask);
    tl_store(tl_add(lo, offs), r[1], .mask = mask);
    tl_store(tl_add(eq, offs), r[2], .mask = mask);
}
static void test_dtypes(void) {
    static const tl_dtype dts[] = {TL_I1, TL_I8, TL_I16, TL_I32, TL_I64, TL_U8, TL_U16, TL_U32, TL_U64, TL_F16, TL_BF16, TL_F32, TL_F64, TL_F8E4M3, TL_F8E5M2};
    enum { N = 300 };
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        tl_dtype t = dts[d];
        size_t es = tile_dtype_size(t);
        unsigned char *ha = (unsigned char *)malloc(N * es), *hb = (unsigned char *)malloc(N * es), *hh = (unsigned char *)malloc(N * es),
                      *hl = (unsigned char *)malloc(N * es), he[N];
        for (int i = 0; i < N; i++) {
            val x = rand_val(t, 100), y = i % 5 == 0 ? x : rand_val(t, 100);   /* some equal pairs */
            tt_put(t, ha, (size_t)i, x), tt_put(t, hb, (size_t)i, y);
        }
        void *da = dev_of(ha, N * es), *db = dev_of(hb, N * es), *dh = dev_poisoned(N * es), *dl = dev_poisoned(N * es), *de = dev_poisoned(N);
        TT_OK(map_dt(TILE_OPTS(.grid = {(N + 127) / 128}), TILE_PTR(da, t), TILE_PTR(db, t), TILE_PTR(dh, t), TILE_PTR(dl, t), de, N));
        tile_memcpy_dtoh(hh, dh, N * es);
        tile_memcpy_dtoh(hl, dl, N * es);
        tile_memcpy_dtoh(he, de, N);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double x = num(t, tt_get(t, ha, (size_t)i)), y = num(t, tt_get(t, hb, (size_t)i));
            double gh = num(t, tt_get(t, hh, (size_t)i)), gl = num(t, tt_get(t, hl, (size_t)i));
            tt_checks++;
            if ((gh != (x < y ? y : x) || gl != (x < y ? x : y) || he[i] != (x == y)) && bad++ < 3)
                TT_CHECK(0, "max/min %s of %.17g, %.17g: %.17g, %.17g, %d", tile_dtype_name(t), x, y, gh, gl, he[i]);
        }
        TT_CHECK(!bad, "max/min %s: %d of %d wrong", tile_dtype_name(t), bad, N);
        tile_free(da), tile_free(db), tile_free(dh), tile_free(dl), tile_free(de);
        free(ha), free(hb), free(hh), free(hl);
    }
}

/* ---- TILE_MAX_UNROLL counts the function once per element a thread holds ------------------------ */
/* K steps r = 3 r + k: about 3K scalars in the function, each emitted once per element; 4096
   elements on one warp are 128 a thread, 150 steps past 16384 (the tile's own values are 1000);
   on 16 warps 8 a thread: it compiles */
static tl_t chain(const tl_t *x) {
    tl_t r = x[0];
    for (int k = 0; k < TL_META(K); k++) r = tl_add(tl_mul(r, 3), k);
    return r;
}
TILE_KERNEL(map_unroll, (tl_ptr_i32, x))
{
    tl_t offs = tl_arange(0, 4096);
    tl_store(tl_add(x, offs), tl_map_elementwise(chain, (tl_load(tl_add(x, offs)))));
}
static void test_unroll(void) {
    static char dummy[8];
    tile_arg a;
    a.p = dummy, a.elem = TL_VOID;
    char *ptx = NULL;
    tile_status st = tile_kernel_ptx_for(TILE_KERNEL_OF(map_unroll), TILE_OPTS(.num_warps = 1, .meta = {{"K", 150}}), &a, "sm_80", &ptx);
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == TILE_ERR_BLOCK && !ptx && strstr(e->message, "more than TILE_MAX_UNROLL=16384"),
             "a function of 450 scalars over 4096 elements on one warp: want TILE_ERR_BLOCK past TILE_MAX_UNROLL, got %s: %s", tile_status_id(st), e->message);
    tile_free_text(ptx);
    ptx = NULL;
    st = tile_kernel_ptx_for(TILE_KERNEL_OF(map_unroll), TILE_OPTS(.num_warps = 16, .meta = {{"K", 150}}), &a, "sm_80", &ptx);
    TT_CHECK(st == TILE_OK && ptx && strstr(ptx, ".entry"), "the same on 16 warps (8 elements a thread) compiles: %s", tile_last_error());
    tile_free_text(ptx);
}

/* ---- misuse: each an error with its id at its line ---------------------------------------------- */
static int g_line;   /* the line of the call that fails, where the kernel makes it */
static tl_t g_outer, g_inner, g_ptr;   /* a tile of pointers, a value made inside, the kernel's pointer */
enum { L_STORE = __LINE__ + 2 };
static tl_t bad_store(const tl_t *x) {
    tl_store(g_ptr, x[0]);
    return x[0];
}
enum { L_PRINT = __LINE__ + 2 };
static tl_t bad_print(const tl_t *x) {
    tl_print("x", x[0]);
    return x[0];
}
enum { L_ATOMIC = __LINE__ + 1, L_TILE = __LINE__ + 2, L_OUTER = __LINE__ + 3 };
static tl_t bad_atomic(const tl_t *x) { return tl_atomic_add(g_ptr, x[0]); }
static tl_t bad_tile(const tl_t *x) { return tl_add(x[0], tl_sum(tl_arange(0, 8), 0)); }
static tl_t bad_outer(const tl_t *x) { return tl_add(x[0], g_outer); }
static void bad_missing(const tl_t *x, tl_t *out) { out[0] = x[0]; }
static void bad_pack_dtypes(const tl_t *x, tl_t *out) { out[0] = x[0], out[1] = tl_cast(x[1], TL_F32); }
static tl_t bad_keep(const tl_t *x) {
    g_inner = tl_add(x[0], 1);
    return x[0];
}
enum { L_LEAVE = __LINE__ + 3 };
static tl_t bad_leave(const tl_t *x) {
    tl_t r = x[0];
    TL_IF (tl_gt(r, 0), r) { return r; }
    return r;
}
enum { L_ASSERT = __LINE__ + 2 };
static tl_t bad_assert(const tl_t *x) {
    tl_device_assert(tl_gt(x[0], -5), "x > -5");
    return x[0];
}
static tl_t ok_assume(const tl_t *x) {
    tl_assume(tl_ge(x[0], INT32_MIN));
    return x[0];
}
TILE_KERNEL(map_bad, (tl_ptr_i32, p))
{
    tl_t offs = tl_arange(0, 16), v = tl_load(tl_add(p, offs)), r[2];
    g_outer = tl_add(p, offs);
    g_ptr = p;
    switch (TL_META(CASE)) {
    case 0: v = tl_map_elementwise(bad_store, (v)); break;
    case 1: v = tl_map_elementwise(bad_print, (v)); break;
    case 2: v = tl_map_elementwise(bad_atomic, (v)); break;
    case 3: v = tl_map_elementwise(bad_tile, (v)); break;
    case 4: v = tl_map_elementwise(bad_outer, (v)); break;
    case 5: g_line = __LINE__; tl_map_elementwise_n(bad_missing, (v), 2, r); v = r[0]; break;
    case 6: g_line = __LINE__; tl_map_elementwise_n(bad_missing, (v), 1, r, .pack = 3); v = r[0]; break;
    case 7: g_line = __LINE__; tl_map_elementwise_n(bad_missing, (tl_reshape(v, 8, 2)), 1, r, .pack = 4); v = r[0]; break;
    case 8: g_line = __LINE__; tl_map_elementwise_n(bad_pack_dtypes, (v), 1, r, .pack = 2); v = r[0]; break;
    case 9: g_line = __LINE__; v = tl_map_elementwise(bad_store, (v, tl_arange(0, 32))); break;
    case 10: g_line = __LINE__; v = tl_map_elementwise(NULL, (v)); break;
    case 11:
        v = tl_map_elementwise(bad_keep, (v));
        g_line = __LINE__, v = tl_add(v, g_inner);
        break;
    case 12: g_line = __LINE__; tl_map_elementwise_n(bad_missing, (v), 0, r); break;
    case 13: g_line = __LINE__; tl_map_elementwise_n(bad_missing, (tl_load(p)), 1, r, .pack = 2); v = r[0]; break;
    case 14: v = tl_map_elementwise(bad_leave, (v)); break;
    case 15: v = tl_map_elementwise(bad_assert, (v)); break;
    default: v = tl_map_elementwise(ok_assume, (v)); break;
    }
    tl_store(tl_add(p, offs), v);
}
static void test_misuse(void) {
    /* line 0: the call's own, which the kernel records in g_line */
    static const struct { int line; tile_status st; const char *text; } bad[] = {
        {L_STORE, TILE_ERR_VALUE, "tl_store inside the function of the tl_map_elementwise"},
        {L_PRINT, TILE_ERR_VALUE, "tl_print inside the function"},
        {L_ATOMIC, TILE_ERR_VALUE, "an atomic (tl_atomic_*) inside"},
        {L_TILE, TILE_ERR_SHAPE, "this call (its arange) makes i32[8] inside the function"},
        {L_OUTER, TILE_ERR_SHAPE, "makes i32[16] inside the function"},
        {0, TILE_ERR_VALUE, "gave no value for out[1] (result 1) of its 2"},
        {0, TILE_ERR_VALUE, "pack 3 with 1 operands"},
        {0, TILE_ERR_SHAPE, "pack 4 takes 4 consecutive elements of the last dim at once, and the operands' shape [8,2] has fewer"},
        {0, TILE_ERR_DTYPE, "elements of one result's pack"},
        {0, TILE_ERR_SHAPE, "operand 1's shape [32] does not broadcast with [16]"},
        {0, TILE_ERR_VALUE, "the function is NULL"},
        {0, TILE_ERR_SCOPE, "inside the function of the tl_map_elementwise at line"},
        {0, TILE_ERR_ARITY, "0 results (1 to 64)"},
        {0, TILE_ERR_SHAPE, "has no dims"},
        {L_LEAVE, TILE_ERR_CONTROL, "left by break, return or goto"},
        {L_ASSERT, TILE_ERR_VALUE, "tl_device_assert inside the function"},
    };
    int32_t *p = (int32_t *)tile_malloc(16 * sizeof(int32_t));
    for (int c = 0; c < (int)(sizeof bad / sizeof bad[0]) && p; c++) {
        tile_status st = map_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", c}}), p);
        char what[64];
        snprintf(what, sizeof what, "tl_map_elementwise misuse %d", c);
        tt_check_user_error(what, st, bad[c].st, "test_ops_map.c", bad[c].line ? bad[c].line : g_line, bad[c].text);
    }
    /* tl_assume is allowed: a fact, not a check */
    if (p) {
        tile_memset(p, 0, 16 * sizeof(int32_t));
        TT_OK(map_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", 99}}), p));
    }
    tile_free(p);
}

int main(void) {
    tt_seed();
    test_selu();
    test_gather();
    test_three();
    test_loops();
    test_pack();
    test_pack_layouts();
    test_dot();
    test_dtypes();
    test_unroll();
    test_misuse();
    return tt_finish("test_ops_map");
}
