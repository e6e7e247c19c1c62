/* tests/test_matmul.c — Triton's tutorial matmul (tutorial 03) and single
   tl_dot calls, for every tl_dot dtype, against a float64 C reference.

   The blocked kernel: programs ordered in groups of GROUP_SIZE_M tile-rows,
   a TL_FOR over K carrying the accumulator and both pointer tiles, the K
   tail masked at the loads (other = 0), the ragged M/N edges either wrapped
   (% M, % N, as the tutorial) or masked at the loads (WRAP = 0), and always
   masked at the store. A, B and C are addressed through their strides only,
   so the same kernel reads row-major and column-major (transposed) operands
   with padded leading dimensions (some rounded up to multiples of 16, where
   a launch knows its rows are aligned for 16-byte copies).

   dtypes: f16 and bf16 inputs accumulate in f32 and write f16/bf16 or f32;
   f32 inputs run at the default precision (tf32), and at tf32x3 and ieee
   through .input_precision; i8 inputs accumulate and write i32.

   Every case draws fresh inputs (TILE_SEED replays a run), fills the whole
   operand buffers (padding included, so a wrong stride reads garbage),
   poisons C and a guard region after it (0xff: NaN for floats; 0x80 for
   i32, a value no i8 product sum here reaches), and checks that every
   element of C was written, that nothing else was, and that the elements
   match the float64 product of the inputs as their dtype holds them within
   the tolerance below (exactly for i8).

   In the interpreter the sizes are small and odd so the test stays fast;
   on a GPU (tile_backend_name() is not "interp") the large cases run too,
   and their values are checked on a sample (edges and corners included);
   the written/not-written checks still cover every element. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

/* ---- the kernels ------------------------------------------------------------------------------------ */
static void mm_body(tl_t a_ptr, tl_t b_ptr, tl_t c_ptr, tl_t M, tl_t N, tl_t K, tl_t stride_am, tl_t stride_ak,
                    tl_t stride_bk, tl_t stride_bn, tl_t stride_cm, tl_t stride_cn, tl_dtype acc_dt, tl_dtype out_dt) {
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), BLOCK_K = TL_META(BLOCK_K);
    int GROUP_SIZE_M = TL_META(GROUP_SIZE_M), WRAP = TL_META(WRAP), BT = TL_META(BT);
    tl_precision prec = (tl_precision)TL_META(PREC);

    /* grouped ordering of the programs */
    tl_t pid = tl_program_id(0);
    tl_t num_pid_m = tl_cdiv(M, BLOCK_M);
    tl_t num_pid_n = tl_cdiv(N, BLOCK_N);
    tl_t num_pid_in_group = tl_mul(GROUP_SIZE_M, num_pid_n);
    tl_t group_id = tl_floordiv(pid, num_pid_in_group);
    tl_t first_pid_m = tl_mul(group_id, GROUP_SIZE_M);
    tl_t group_size_m = tl_minimum(tl_sub(num_pid_m, first_pid_m), GROUP_SIZE_M);
    tl_t pid_m = tl_add(first_pid_m, tl_mod(tl_mod(pid, num_pid_in_group), group_size_m));
    tl_t pid_n = tl_floordiv(tl_mod(pid, num_pid_in_group), group_size_m);

    tl_t rm = tl_add(tl_mul(pid_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_t rn = tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N));
    tl_t offs_am = WRAP ? tl_mod(rm, M) : rm;
    tl_t offs_bn = WRAP ? tl_mod(rn, N) : rn;
    tl_t offs_k = tl_arange(0, BLOCK_K);
    tl_t a_ptrs = tl_add(a_ptr, tl_add(tl_mul(tl_expand_dims(offs_am, 1), stride_am), tl_mul(tl_expand_dims(offs_k, 0), stride_ak)));
    /* BT: B's block read as B^T (BLOCK_N x BLOCK_K) and given to tl_dot as
       tl_trans of it, as Triton's tutorials give an fp8 B */
    tl_t b_ptrs = BT ? tl_add(b_ptr, tl_add(tl_mul(tl_expand_dims(offs_bn, 1), stride_bn), tl_mul(tl_expand_dims(offs_k, 0), stride_bk)))
                     : tl_add(b_ptr, tl_add(tl_mul(tl_expand_dims(offs_k, 1), stride_bk), tl_mul(tl_expand_dims(offs_bn, 0), stride_bn)));
    tl_t a_row_ok = tl_lt(tl_expand_dims(offs_am, 1), M), b_col_ok = tl_lt(tl_expand_dims(offs_bn, 0), N);

    tl_t acc = tl_zeros(acc_dt, BLOCK_M, BLOCK_N);
    TL_FOR (k, 0, tl_cdiv(K, BLOCK_K), 1, acc, a_ptrs, b_ptrs) {
        tl_t k_left = tl_sub(K, tl_mul(k, BLOCK_K));
        tl_t a_mask = tl_lt(tl_expand_dims(offs_k, 0), k_left), b_mask = tl_lt(tl_expand_dims(offs_k, BT ? 0 : 1), k_left);
        if (!WRAP) {
            a_mask = tl_and(a_mask, a_row_ok);
            b_mask = tl_and(b_mask, BT ? tl_trans(b_col_ok) : b_col_ok);
        }
        tl_t a = tl_load(a_ptrs, .mask = a_mask, .other = 0);
        tl_t b = tl_load(b_ptrs, .mask = b_mask, .other = 0);
        acc = tl_dot(a, BT ? tl_trans(b) : b, acc, .input_precision = prec);
        a_ptrs = tl_add(a_ptrs, tl_mul(BLOCK_K, stride_ak));
        b_ptrs = tl_add(b_ptrs, tl_mul(BLOCK_K, stride_bk));
    }
    tl_t c = out_dt == acc_dt ? acc : tl_cast(acc, out_dt);

    tl_t c_ptrs = tl_add(c_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), stride_cm), tl_mul(tl_expand_dims(rn, 0), stride_cn)));
    tl_t c_mask = tl_and(tl_lt(tl_expand_dims(rm, 1), M), tl_lt(tl_expand_dims(rn, 0), N));
    tl_store(c_ptrs, c, .mask = c_mask);
}
#define MM_KERNEL(name, TA, TC, ACC, OUT)                                                                          \
    TILE_KERNEL(name, (tl_ptr_##TA, a), (tl_ptr_##TA, b), (tl_ptr_##TC, c), (tl_i32, M), (tl_i32, N), (tl_i32, K), \
                (tl_i32, sam), (tl_i32, sak), (tl_i32, sbk), (tl_i32, sbn), (tl_i32, scm), (tl_i32, scn)) {        \
        mm_body(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn, ACC, OUT);                                         \
    }
MM_KERNEL(mm_f16_f16, f16, f16, TL_F32, TL_F16)
MM_KERNEL(mm_f16_f32, f16, f32, TL_F32, TL_F32)
MM_KERNEL(mm_bf16_bf16, bf16, bf16, TL_F32, TL_BF16)
MM_KERNEL(mm_bf16_f32, bf16, f32, TL_F32, TL_F32)
MM_KERNEL(mm_f32_f32, f32, f32, TL_F32, TL_F32)
MM_KERNEL(mm_i8_i32, i8, i32, TL_I32, TL_I32)
MM_KERNEL(mm_e4m3_f32, f8e4m3, f32, TL_F32, TL_F32)
MM_KERNEL(mm_e5m2_f16, f8e5m2, f16, TL_F32, TL_F16)

/* One tl_dot of whole tiles, no loop: c = a @ b (+ c0 with ACC), c row-major. */
static void dot1_body(tl_t a, tl_t b, tl_t c0, tl_t c, tl_t sam, tl_t sak, tl_t sbk, tl_t sbn) {
    int M = TL_META(M), N = TL_META(N), K = TL_META(K), ACC = TL_META(ACC);
    tl_precision prec = (tl_precision)TL_META(PREC);
    tl_t rm = tl_expand_dims(tl_arange(0, M), 1), rn = tl_expand_dims(tl_arange(0, N), 0);
    tl_t A = tl_load(tl_add(a, tl_add(tl_mul(rm, sam), tl_mul(tl_expand_dims(tl_arange(0, K), 0), sak))));
    tl_t B = tl_load(tl_add(b, tl_add(tl_mul(tl_expand_dims(tl_arange(0, K), 1), sbk), tl_mul(rn, sbn))));
    tl_t pc = tl_add(tl_mul(rm, N), rn);
    tl_t r = ACC ? tl_dot(A, B, tl_load(tl_add(c0, pc)), .input_precision = prec) : tl_dot(A, B, .input_precision = prec);
    tl_store(tl_add(c, pc), r);
}
#define DOT1_KERNEL(name, TA, TC)                                                                                 \
    TILE_KERNEL(name, (tl_ptr_##TA, a), (tl_ptr_##TA, b), (tl_ptr_##TC, c0), (tl_ptr_##TC, c), (tl_i32, sam),     \
                (tl_i32, sak), (tl_i32, sbk), (tl_i32, sbn)) {                                                    \
        dot1_body(a, b, c0, c, sam, sak, sbk, sbn);                                                               \
    }
DOT1_KERNEL(dot1_f16, f16, f32)
DOT1_KERNEL(dot1_bf16, bf16, f32)
DOT1_KERNEL(dot1_f32, f32, f32)
DOT1_KERNEL(dot1_i8, i8, i32)
DOT1_KERNEL(dot1_e4m3, f8e4m3, f32)
DOT1_KERNEL(dot1_e5m2, f8e5m2, f32)

/* max_num_imprecise_acc: C (64 x 64, one program of 4 warps) = A @ B over
   a K loop of BLOCK_K 128, e4m3 (native fp8 wgmma on sm_90a) */
TILE_KERNEL(f8_acc, (tl_ptr_f8e4m3, a), (tl_ptr_f8e4m3, b), (tl_ptr_f32, c), (tl_i32, K)) {
    int IMP = TL_META(IMP);
    tl_t rm = tl_arange(0, 64), rn = tl_arange(0, 64), rk = tl_arange(0, 128);
    tl_t acc = tl_zeros(TL_F32, 64, 64);
    TL_FOR (k, 0, K, 128, acc) {
        tl_t x = tl_load(tl_add(a, tl_add(tl_mul(tl_expand_dims(rm, 1), K), tl_expand_dims(tl_add(k, rk), 0))));
        tl_t y = tl_load(tl_add(b, tl_add(tl_mul(tl_expand_dims(tl_add(k, rk), 1), 64), tl_expand_dims(rn, 0))));
        acc = tl_dot(x, y, acc, .max_num_imprecise_acc = IMP);
    }
    tl_store(tl_add(c, tl_add(tl_mul(tl_expand_dims(rm, 1), 64), tl_expand_dims(rn, 0))), acc);
}

/* ---- what a case is --------------------------------------------------------------------------------- */
typedef struct variant {
    const char *name;
    tl_dtype in, out;
    tl_precision prec;
    tile_kernel *mm, *dot1;
} variant;

typedef struct config {
    int bm, bn, bk, group, warps, stages;
} config;

/* a matrix of rows x cols inside a buffer: element (i, j) at i * si + j * sj */
typedef struct mat {
    int rows, cols, si, sj;
    size_t extent; /* elements from the first to one past the last */
} mat;
/* row-major (trans = 0) or column-major, the leading dimension padded by
   pad elements, or with pad = ALIGN16 rounded up to a multiple of 16 (then
   a launch knows every row starts 16-element aligned: 16-byte copies) */
enum { ALIGN16 = -1 };
static mat mat_make(int rows, int cols, int trans, int pad) {
    mat m = {rows, cols, 0, 0, 0};
    int ld = trans ? rows : cols;
    ld = pad == ALIGN16 ? (ld + 15) / 16 * 16 : ld + pad;
    if (trans) m.si = 1, m.sj = ld;
    else m.si = ld, m.sj = 1;
    m.extent = (size_t)(rows - 1) * (size_t)m.si + (size_t)(cols - 1) * (size_t)m.sj + 1;
    return m;
}
static size_t mat_at(const mat *m, int i, int j) { return (size_t)i * (size_t)m->si + (size_t)j * (size_t)m->sj; }

static double rd(tl_dtype t, const void *p, size_t i) {
    switch (t) {
    case TL_F16: return tile_f16_to(((const tile_f16 *)p)[i]);
    case TL_BF16: return tile_bf16_to(((const tile_bf16 *)p)[i]);
    case TL_F32: return ((const float *)p)[i];
    case TL_I8: return ((const int8_t *)p)[i];
    case TL_F8E4M3: return tile_f8e4m3_to(((const tile_f8e4m3 *)p)[i]);
    case TL_F8E5M2: return tile_f8e5m2_to(((const tile_f8e5m2 *)p)[i]);
    default: return ((const int32_t *)p)[i];
    }
}
/* uniform in [-1, 1) rounded to the dtype (f32 keeps all 24 bits, so tf32 rounding shows); any i8 */
static void fill(tl_dtype t, void *p, size_t n) {
    for (size_t i = 0; i < n; i++) switch (t) {
        case TL_F16: ((tile_f16 *)p)[i] = tile_f16_from(tt_uniform(-1, 1)); break;
        case TL_BF16: ((tile_bf16 *)p)[i] = tile_bf16_from(tt_uniform(-1, 1)); break;
        case TL_F32: ((float *)p)[i] = (float)tt_uniform(-1, 1); break;
        case TL_I8: ((int8_t *)p)[i] = (int8_t)tt_int(-128, 127); break;
        case TL_F8E4M3: ((tile_f8e4m3 *)p)[i] = tile_f8e4m3_from(tt_uniform(-1, 1)); break;
        case TL_F8E5M2: ((tile_f8e5m2 *)p)[i] = tile_f8e5m2_from(tt_uniform(-1, 1)); break;
        default: ((int32_t *)p)[i] = (int32_t)tt_int(-(1 << 20), 1 << 20); break;
        }
}
static int poison_byte(tl_dtype t) { return t == TL_I32 ? 0x80 : 0xff; }
static int is_poison(const unsigned char *p, size_t bytes, int byte) {
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != (unsigned char)byte) return 0;
    return 1;
}

/* The tolerance of one element of C, from the float64 value ref and the sum
   of |products| mag (plus |acc|), for K products:
   - accumulation in f32: K additions, each off by at most one f32 ulp of the
     running sum (2^-23 relative: tensor cores truncate rather than round
     when they align and add; CUDA-core FMAs round, 2^-24), so (K + 2)
     2^-23 mag bounds it (2^-24 for ieee);
   - f16 and bf16 products are exact in f32 (11 + 11 and 8 + 8 significant
     bits), as are i8 products and sums in i32 (exact, tolerance 0);
   - tf32 keeps 10 fraction bits of each f32 input: 2^-11 relative rounded to
     nearest, 2^-10 truncated (a tensor core fed raw f32 ignores the low 13
     bits); a product is off by twice that, so 2^-9 mag covers both;
   - tf32x3 splits x = hi + lo, both tf32, and adds hi*hi + hi*lo + lo*hi:
     lo is off by 2^-10 of 2^-10 |x| at most and lo*lo (2^-20) is dropped, so
     3 2^-20 < 2^-18 per product;
   - fp8 products are exact too (4 + 4 and 3 + 3 bits), but Hopper's
     native fp8 wgmma keeps fewer bits of the running sum than f32 (about
     14 after each k32 instruction: what cuBLAS calls fast accumulation),
     so (K/32 + 2) 2^-13 mag;
   - the output rounds once more: half an ulp, 2^-11 |ref| for f16 (2^-25
     below the normal range), 2^-8 |ref| for bf16. */
static int is_f8(tl_dtype t) { return t == TL_F8E4M3 || t == TL_F8E5M2; }
static double tolerance(const variant *v, int K, double ref, double mag) {
    if (v->out == TL_I32) return 0;
    double per_product = v->in != TL_F32 || v->prec == TL_PRECISION_IEEE ? 0
                         : v->prec == TL_PRECISION_TF32X3               ? ldexp(1.0, -18)
                                                                        : ldexp(1.0, -9);
    double u_acc = v->prec == TL_PRECISION_IEEE ? ldexp(1.0, -24) : ldexp(1.0, -23);
    double tol = mag * (per_product + (K + 2) * u_acc);
    if (is_f8(v->in)) tol += mag * (K / 32 + 2) * ldexp(1.0, -13);
    if (v->out == TL_F16) tol = tol * (1 + ldexp(1.0, -10)) + ldexp(fabs(ref), -11) + ldexp(1.0, -25);
    if (v->out == TL_BF16) tol = tol * (1 + ldexp(1.0, -7)) + ldexp(fabs(ref), -8);
    return tol;
}
/* tf32 (the default precision) must show: each product is then off by about
   2^-12 of itself at random, so a sum by about 2^-12 sqrt(sum of squares of
   the products), while f32 rounding errors (2^-24 each, also at random) stay
   far below 2^-16 sqrt(sum of squares). An element is "far" from the exact
   product beyond that: about 95% are with tf32, hardly any in f32. */
static int far_from_ieee(double got, double ref, double sumsq) { return fabs(got - ref) > ldexp(sqrt(sumsq), -16); }

static void *host(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        printf("FAIL out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* ---- the blocked matmul ------------------------------------------------------------------------------ */
static void test_mm(const variant *v, int M, int N, int K, const config *cf, int ta, int tb, int tc, int pad, int wrap, int bt) {
    size_t sin = tile_dtype_size(v->in), sout = tile_dtype_size(v->out);
    mat A = mat_make(M, K, ta, pad), B = mat_make(K, N, tb, pad), C = mat_make(M, N, tc, pad);
    const size_t guard = 64; /* elements after C that must stay poisoned */
    size_t csize = (C.extent + guard) * sout;
    void *ha = host(A.extent * sin), *hb = host(B.extent * sin), *hc = host(csize);
    fill(v->in, ha, A.extent);
    fill(v->in, hb, B.extent);
    void *da = tile_malloc(A.extent * sin), *db = tile_malloc(B.extent * sin), *dc = tile_malloc(csize);
    TT_CHECK(da && db && dc, "tile_malloc failed");
    if (!da || !db || !dc) goto out;
    TT_OK(tile_memcpy_htod(da, ha, A.extent * sin));
    TT_OK(tile_memcpy_htod(db, hb, B.extent * sin));
    TT_OK(tile_memset(dc, poison_byte(v->out), csize));

    char what[256], ld[16];
    if (pad == ALIGN16) snprintf(ld, sizeof ld, "ld%%16=0");
    else snprintf(ld, sizeof ld, "ld+%d", pad);
    snprintf(what, sizeof what, "matmul %s %dx%dx%d %s%s%s %s %s%s blocks %dx%dx%d group %d, %d warps, %d stages", v->name, M, N, K,
             ta ? "A^T" : "A", tb ? " B^T" : " B", tc ? " C^T" : " C", ld, wrap ? "wrap" : "masked", bt ? " tl_trans(B^T block)" : "", cf->bm,
             cf->bn, cf->bk, cf->group, cf->warps, cf->stages);
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    o.grid[0] = (unsigned)(tile_cdiv(M, cf->bm) * tile_cdiv(N, cf->bn));
    o.num_warps = cf->warps;
    o.num_stages = cf->stages;
    const tile_meta meta[] = {{"BLOCK_M", cf->bm},     {"BLOCK_N", cf->bn}, {"BLOCK_K", cf->bk},
                              {"GROUP_SIZE_M", cf->group}, {"WRAP", wrap},  {"PREC", v->prec}, {"BT", bt}};
    memcpy(o.meta, meta, sizeof meta);
    tile_arg args[12];
    args[0].p = da, args[1].p = db, args[2].p = dc;
    const int ints[9] = {M, N, K, A.si, A.sj, B.si, B.sj, C.si, C.sj};
    for (int i = 0; i < 9; i++) args[3 + i].i = ints[i];
    tile_status st = tile_launch_kernel(v->mm, &o, args);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    TT_OK(tile_memcpy_dtoh(hc, dc, csize));
    if (st != TILE_OK) goto out;

    /* every element of C written (no poison, no NaN), nothing else touched */
    unsigned char *inside = calloc(C.extent, 1);
    if (!inside) {
        printf("FAIL out of host memory\n");
        exit(1);
    }
    int unwritten = 0, stray = 0, pb = poison_byte(v->out);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            size_t at = mat_at(&C, i, j);
            inside[at] = 1;
            double g = rd(v->out, hc, at);
            if (is_poison((unsigned char *)hc + at * sout, sout, pb) || g != g) unwritten++;
        }
    for (size_t at = 0; at < C.extent + guard; at++)
        if ((at >= C.extent || !inside[at]) && !is_poison((unsigned char *)hc + at * sout, sout, pb)) stray++;
    free(inside);

    /* values: every element for small sizes; else a sample with the four
       corners and the last row and column */
    int all = (size_t)M * N <= 20000;
    int nsample = all ? M * N : 4000;
    int bad = 0, far = 0;
    double worst = 0; /* error over tolerance */
    for (int s = 0; s < nsample; s++) {
        int i, j;
        if (all) i = s / N, j = s % N;
        else if (s < 4) i = s & 1 ? M - 1 : 0, j = s & 2 ? N - 1 : 0;
        else if (s < 104) i = M - 1, j = (int)tt_int(0, N - 1);
        else if (s < 204) i = (int)tt_int(0, M - 1), j = N - 1;
        else i = (int)tt_int(0, M - 1), j = (int)tt_int(0, N - 1);
        double ref = 0, mag = 0, sumsq = 0;
        for (int k = 0; k < K; k++) {
            double p = rd(v->in, ha, mat_at(&A, i, k)) * rd(v->in, hb, mat_at(&B, k, j));
            ref += p;
            mag += fabs(p);
            sumsq += p * p;
        }
        double got = rd(v->out, hc, mat_at(&C, i, j)), tol = tolerance(v, K, ref, mag);
        double e = fabs(got - ref);
        if (!(e <= tol)) {
            if (bad++ < 3) printf("  %s at (%d, %d): got %.9g, want %.9g (tol %.3g)\n", what, i, j, got, ref, tol);
            worst = INFINITY;
        } else if (tol > 0 && e / tol > worst) worst = e / tol;
        if (v->in == TL_F32 && v->prec == TL_PRECISION_DEFAULT) far += far_from_ieee(got, ref, sumsq);
    }
    TT_CHECK(unwritten == 0, "%s: %d of %d elements of C not written", what, unwritten, M * N);
    TT_CHECK(stray == 0, "%s: %d elements outside C written", what, stray);
    TT_CHECK(bad == 0, "%s: %d of %d elements out of tolerance", what, bad, nsample);
    if (v->in == TL_F32 && v->prec == TL_PRECISION_DEFAULT && K >= 16)
        TT_CHECK(far > nsample / 2, "%s: only %d of %d elements differ from the f32 product: no tf32 rounding", what, far,
                 nsample);
    int ok = unwritten == 0 && stray == 0 && bad == 0;
    char tf32note[64] = "";
    if (v->in == TL_F32 && v->prec == TL_PRECISION_DEFAULT)
        snprintf(tf32note, sizeof tf32note, ", %.0f%% off the f32 product", 100.0 * far / nsample);
    printf("%s  %s: %s, max error %.3f of tolerance%s\n", ok ? "ok  " : "FAIL", what, all ? "all elements" : "4000 sampled",
           worst, tf32note);
out:
    tile_free(da);
    tile_free(db);
    tile_free(dc);
    free(ha);
    free(hb);
    free(hc);
}

/* ---- one tl_dot, no loop ----------------------------------------------------------------------------- */
static void test_dot1(const variant *v, int M, int N, int K, int warps, int acc, int ta, int tb) {
    tl_dtype cdt = v->in == TL_I8 ? TL_I32 : TL_F32;
    size_t sin = tile_dtype_size(v->in), sc = tile_dtype_size(cdt);
    mat A = mat_make(M, K, ta, 0), B = mat_make(K, N, tb, 0);
    size_t nc = (size_t)M * N;
    void *ha = host(A.extent * sin), *hb = host(B.extent * sin), *hc0 = host(nc * sc), *hc = host(nc * sc);
    fill(v->in, ha, A.extent);
    fill(v->in, hb, B.extent);
    fill(cdt, hc0, nc);
    if (cdt == TL_F32)
        for (size_t i = 0; i < nc; i++) ((float *)hc0)[i] *= (float)(K / 4); /* an acc the size of the products' sum */
    void *da = tile_malloc(A.extent * sin), *db = tile_malloc(B.extent * sin), *dc0 = tile_malloc(nc * sc), *dc = tile_malloc(nc * sc);
    TT_CHECK(da && db && dc0 && dc, "tile_malloc failed");
    if (!da || !db || !dc0 || !dc) goto out;
    TT_OK(tile_memcpy_htod(da, ha, A.extent * sin));
    TT_OK(tile_memcpy_htod(db, hb, B.extent * sin));
    TT_OK(tile_memcpy_htod(dc0, hc0, nc * sc));
    TT_OK(tile_memset(dc, poison_byte(cdt), nc * sc));

    char what[192];
    static const char *const pname[] = {" (tf32)", " tf32", " tf32x3", " ieee"};
    snprintf(what, sizeof what, "tl_dot %s -> %s%s %dx%dx%d%s %s%s, %d warps", tile_dtype_name(v->in), tile_dtype_name(cdt),
             v->in == TL_F32 ? pname[v->prec] : "", M, N, K, acc ? " +acc" : "", ta ? "A^T" : "A", tb ? " B^T" : " B", warps);
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = __LINE__;
    o.num_warps = warps;
    const tile_meta meta[] = {{"M", M}, {"N", N}, {"K", K}, {"ACC", acc}, {"PREC", v->prec}};
    memcpy(o.meta, meta, sizeof meta);
    tile_arg args[8];
    args[0].p = da, args[1].p = db, args[2].p = dc0, args[3].p = dc;
    args[4].i = A.si, args[5].i = A.sj, args[6].i = B.si, args[7].i = B.sj;
    tile_status st = tile_launch_kernel(v->dot1, &o, args);
    TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
    TT_OK(tile_memcpy_dtoh(hc, dc, nc * sc));
    if (st != TILE_OK) goto out;

    /* the output dtype is the accumulator's (f32 / i32), so tolerance() sees it as v->out */
    variant vo = *v;
    vo.out = cdt;
    int bad = 0;
    double worst = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double c0 = acc ? rd(cdt, hc0, (size_t)i * N + j) : 0, ref = c0, mag = fabs(c0);
            for (int k = 0; k < K; k++) {
                double p = rd(v->in, ha, mat_at(&A, i, k)) * rd(v->in, hb, mat_at(&B, k, j));
                ref += p;
                mag += fabs(p);
            }
            double got = rd(cdt, hc, (size_t)i * N + j), tol = tolerance(&vo, K, ref, mag), e = fabs(got - ref);
            if (!(e <= tol)) {
                if (bad++ < 3) printf("  %s at (%d, %d): got %.9g, want %.9g (tol %.3g)\n", what, i, j, got, ref, tol);
                worst = INFINITY;
            } else if (tol > 0 && e / tol > worst) worst = e / tol;
        }
    TT_CHECK(bad == 0, "%s: %d of %d elements out of tolerance", what, bad, M * N);
    printf("%s  %s: max error %.3f of tolerance\n", bad ? "FAIL" : "ok  ", what, worst);
out:
    tile_free(da);
    tile_free(db);
    tile_free(dc0);
    tile_free(dc);
    free(ha);
    free(hb);
    free(hc0);
    free(hc);
}

/* The lowering's accumulator layouts, on the host (no GPU needed): for
   mma.sync's layout and wgmma's interleaved one, at shapes and warp counts
   the matmul configs use, every element of the tile is held by exactly one
   thread of the first wm x wn warps, inside the tile, at the element index
   that tile__mma_holds gives back; the warps past them replicate those
   (tile__mma_holds finds the same e). For wgmma, warp w of each warpgroup
   holds rows 16 (w % 4) .. + 15 of each m64 block, as the instruction
   writes them. */
static void test_mma_layouts(void) {
    static const int S[][3] = {{16, 8, 1}, {32, 64, 2},   {64, 64, 4},  {128, 128, 4}, {128, 128, 8},
                               {64, 256, 4}, {128, 256, 8}, {256, 128, 8}, {128, 64, 8},  {64, 32, 16}};
    for (int si = 0; si < (int)(sizeof S / sizeof S[0]); si++)
        for (int ilv = 0; ilv < 2; ilv++) {
            tile__type t;
            memset(&t, 0, sizeof t);
            t.dtype = TL_F32;
            t.rank = 2;
            t.shape[0] = S[si][0];
            t.shape[1] = S[si][1];
            int nt = 32 * S[si][2], M = t.shape[0], N = t.shape[1];
            tile__layout L;
            if (!tile__mma_layout_of(&t, nt, ilv, &L)) {
                /* wgmma's needs whole warpgroups and 16 rows per warp */
                TT_CHECK(ilv && (S[si][2] % 4 || M % (16 * S[si][2])), "no %s layout for %dx%d at %d warps", ilv ? "wgmma" : "mma", M, N,
                         S[si][2]);
                continue;
            }
            int *seen = (int *)calloc((size_t)M * (size_t)N, sizeof(int)), bad = 0, wrong_rows = 0;
            if (!seen) exit(2);
            for (int tid = 0; tid < nt; tid++)
                for (int e = 0; e < L.E; e++) {
                    int c[2];
                    tile__mma_coords(&L, tid, e, c);
                    if (c[0] < 0 || c[0] >= M || c[1] < 0 || c[1] >= N || tile__mma_holds(&L, tid, c) != e) {
                        bad++;
                        continue;
                    }
                    if (tid / 32 < L.wm * L.wn) seen[c[0] * N + c[1]]++;
                    if (ilv && (c[0] % 64) / 16 != (tid / 32) % 4) wrong_rows++;
                }
            int miss = 0;
            for (int k = 0; k < M * N; k++) miss += seen[k] != 1;
            free(seen);
            TT_CHECK(!bad && !miss && !wrong_rows, "%s layout %dx%d, %d warps (warps %dx%d, reps %dx%d): %d coordinates off the map, %d elements not held once, %d rows off the warpgroup's",
                     ilv ? "wgmma" : "mma", M, N, S[si][2], L.wm, L.wn, L.repm, L.repn, bad, miss, wrong_rows);
        }
}

/* max_num_imprecise_acc (Triton's): the operands are e4m3 values in [1, 2)
   (multiples of 1/8), so each product is a multiple of 1/64 below 4, a k32
   step's sum of 32 of them fits 13 bits, and the whole sum, below 2^15,
   fits f32's 24 exactly. With .max_num_imprecise_acc = 32 every step's
   sum is added to the f32 accumulator by an f32 add, so C is exact, on a
   GPU as in the interpreter; without it, Hopper's fp8 wgmma sums the
   running C in its own narrower accumulator (the error is printed, not
   checked). The sm_90a PTX with it waits for and adds each step's sum:
   a wgmma.wait_group per k32 step instead of one per dot. */
static void test_imprecise_acc(int gpu) {
    enum { M = 64 };
    int K = gpu ? 8192 : 1024;
    tile_f8e4m3 *ha = (tile_f8e4m3 *)malloc((size_t)M * K), *hb = (tile_f8e4m3 *)malloc((size_t)K * M);
    float *hc = (float *)malloc(sizeof(float) * M * M);
    void *a = tile_malloc((size_t)M * K), *b = tile_malloc((size_t)K * M), *c = tile_malloc(sizeof(float) * M * M);
    TT_CHECK(ha && hb && hc && a && b && c, "imprecise_acc: out of memory");
    if (!(ha && hb && hc && a && b && c)) goto done;
    for (int i = 0; i < M * K; i++) {
        ha[i] = tile_f8e4m3_from((float)(8 + (int)(tt_uniform(0, 8) - 1e-9)) / 8);
        hb[i] = tile_f8e4m3_from((float)(8 + (int)(tt_uniform(0, 8) - 1e-9)) / 8);
    }
    tile_memcpy_htod(a, ha, (size_t)M * K);
    tile_memcpy_htod(b, hb, (size_t)K * M);
    for (int imp = 0; imp <= 32; imp += 32) {
        tile_memset(c, 0xff, sizeof(float) * M * M);
        tile_status st = f8_acc(TILE_OPTS(.num_warps = 4, .num_stages = 3, .meta = {{"IMP", imp}}), a, b, c, K);
        TT_CHECK(st == TILE_OK, "imprecise_acc %d: %s", imp, tile_last_error());
        if (st != TILE_OK) continue;
        tile_memcpy_dtoh(hc, c, sizeof(float) * M * M);
        double worst = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++) {
                double ref = 0;
                for (int k = 0; k < K; k++) ref += (double)tile_f8e4m3_to(ha[i * K + k]) * (double)tile_f8e4m3_to(hb[k * M + j]);
                double e = fabs(hc[i * M + j] - ref);
                if (!(e <= worst)) worst = e;
            }
        printf("imprecise_acc: K=%d max_num_imprecise_acc=%d: max abs error %g\n", K, imp, worst);
        if (imp) TT_CHECK(worst == 0, "imprecise_acc: with max_num_imprecise_acc=32 C is exact (max abs error %g, K=%d)", worst, K);
    }
    /* the PTX (sm_90a): one wait per k32 step with it, one per dot without */
    int waits[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        char *ptx = NULL;
        tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(f8_acc), TILE_OPTS(.num_warps = 4, .num_stages = 3, .meta = {{"IMP", 32 * w}}), "sm_90a", &ptx);
        if (st == TILE_ERR_NODEVICE) {
            printf("imprecise_acc: no compiler to make PTX with, skipped: %s\n", tile_last_error());
            break;
        }
        TT_CHECK(st == TILE_OK && ptx, "imprecise_acc: PTX: %s", tile_last_error());
        for (const char *q = ptx; q && (q = strstr(q, "wgmma.wait_group")); q++) waits[w]++;
        tile_free_text(ptx);
    }
    if (waits[0] || waits[1])
        TT_CHECK(waits[1] >= waits[0] + 3, "imprecise_acc: the sm_90a PTX waits for each k32 step's sum (%d waits, %d without)", waits[1], waits[0]);
done:
    free(ha), free(hb), free(hc);
    tile_free(a), tile_free(b), tile_free(c);
    tile_kernel_release(TILE_KERNEL_OF(f8_acc));
}

int main(void) {
    tt_seed();
    test_mma_layouts();
    int gpu = strcmp(tile_backend_name(), "interp") != 0;
    /* the large cases (sampled) run on a GPU; TEST_MATMUL_LARGE=1 runs them
       in the interpreter too, =0 leaves them out on a GPU as well (for
       compute-sanitizer, which the small cases keep within minutes) */
    const char *large_env = getenv("TEST_MATMUL_LARGE");
    int large = large_env && *large_env ? atoi(large_env) > 0 : gpu;
    printf("backend: %s%s\n", tile_backend_name(), large ? ", large sizes" : "");

    const variant V[] = {
        {"f16 -> f16", TL_F16, TL_F16, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_f16_f16), TILE_KERNEL_OF(dot1_f16)},
        {"f16 -> f32", TL_F16, TL_F32, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_f16_f32), TILE_KERNEL_OF(dot1_f16)},
        {"bf16 -> bf16", TL_BF16, TL_BF16, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_bf16_bf16), TILE_KERNEL_OF(dot1_bf16)},
        {"bf16 -> f32", TL_BF16, TL_F32, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_bf16_f32), TILE_KERNEL_OF(dot1_bf16)},
        {"f32 (tf32)", TL_F32, TL_F32, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_f32_f32), TILE_KERNEL_OF(dot1_f32)},
        {"f32 tf32x3", TL_F32, TL_F32, TL_PRECISION_TF32X3, TILE_KERNEL_OF(mm_f32_f32), TILE_KERNEL_OF(dot1_f32)},
        {"f32 ieee", TL_F32, TL_F32, TL_PRECISION_IEEE, TILE_KERNEL_OF(mm_f32_f32), TILE_KERNEL_OF(dot1_f32)},
        {"i8 -> i32", TL_I8, TL_I32, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_i8_i32), TILE_KERNEL_OF(dot1_i8)},
        /* native fp8 wgmma on sm_90a where BLOCK_K is 128 (else widened to f16) */
        {"e4m3 -> f32", TL_F8E4M3, TL_F32, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_e4m3_f32), TILE_KERNEL_OF(dot1_e4m3)},
        {"e5m2 -> f16", TL_F8E5M2, TL_F16, TL_PRECISION_DEFAULT, TILE_KERNEL_OF(mm_e5m2_f16), TILE_KERNEL_OF(dot1_e5m2)},
    };
    enum { NV = sizeof V / sizeof V[0] };
    /* BLOCK_M x BLOCK_N x BLOCK_K, group, warps, stages: from one MMA per warp to Triton's configs */
    static const config CF[] = {
        {16, 16, 32, 1, 1, 1}, {32, 32, 32, 4, 2, 2},  {64, 32, 32, 2, 4, 3},  {32, 64, 64, 8, 4, 4},
        {64, 64, 32, 8, 4, 4}, {128, 64, 32, 8, 8, 3}, {64, 128, 32, 8, 8, 4}, {32, 16, 16, 2, 1, 2},
        /* BLOCK_K 64 with whole warpgroups: wgmma on sm_90a (m64n128, m64n256) */
        {128, 128, 64, 8, 4, 3}, {64, 256, 64, 4, 4, 2},
        /* BLOCK_K 128: native fp8 wgmma on sm_90a (fp8 only: f32 tiles would not fit) */
        {128, 128, 128, 8, 4, 3}, {64, 256, 128, 4, 4, 3},
    };
    enum { NCF = sizeof CF / sizeof CF[0] };
    /* small and odd: ragged edges in M and N, a K tail, K shorter than
       BLOCK_K, M shorter than BLOCK_M; and multiples of 16 that are not
       multiples of the blocks (contiguous rows and masks in whole 16-element
       runs: on a GPU, the 16-byte asynchronous copies with edges) */
    static const int SMALL[][3] = {{67, 45, 33}, {100, 37, 70}, {19, 130, 20}, {130, 9, 97}, {80, 48, 80}};
    enum { NSMALL = sizeof SMALL / sizeof SMALL[0] };

    /* every dtype at every config; layouts (A, B, C row- or column-major),
       padding, wrap or masked edges and sizes rotate through the configs */
    for (int vi = 0; vi < NV; vi++)
        for (int ci = 0; ci < NCF; ci++) {
            const config *cf = &CF[ci];
            if (V[vi].in == TL_I8 && cf->bk < 32) continue; /* i8 MMAs are k = 32 deep */
            if (cf->bk == 128 && !is_f8(V[vi].in)) continue;
            int r = vi + ci, si = r % NSMALL;
            const int *sz = SMALL[si];
            const int pads[3] = {0, 3, ALIGN16};
            int pad = si == NSMALL - 1 ? ALIGN16 : pads[r % 3]; /* the multiples of 16 keep aligned rows */
            test_mm(&V[vi], sz[0], sz[1], sz[2], cf, r & 1, (r >> 1) & 1, ci == 5, pad, (r / 4) & 1, (r / 2) & 1);
        }
    /* the tutorial's configuration, row-major and contiguous, for every dtype */
    for (int vi = 0; vi < NV; vi++) test_mm(&V[vi], 67, 45, 33, &CF[4], 0, 0, 0, 0, 1, 0);

    if (large) {
        /* large: many programs, long K loops, the pipeline's steady state;
           the last size is all multiples of 16 (not of the blocks) */
        static const config big16[] = {{128, 128, 32, 8, 4, 4}, {128, 64, 32, 8, 8, 3}, {64, 128, 64, 8, 4, 3},
                                       {128, 256, 64, 8, 8, 3}, {128, 128, 64, 8, 4, 4}}; /* the last two: wgmma on sm_90a */
        static const config big32[] = {{64, 64, 32, 8, 4, 4}, {128, 64, 32, 8, 8, 3}}; /* f32 tiles take twice the room */
        /* fp8: BLOCK_K 128, native wgmma on sm_90a (the ring holds A, and B
           where it is read as tl_trans of a B^T block) */
        static const config big8[] = {{128, 128, 128, 8, 4, 4}, {128, 256, 128, 8, 8, 3}};
        static const int BIG[][3] = {{1000, 1000, 1000}, {4097, 511, 129}, {1040, 1008, 1040}, {1, 256, 384}};
        const int bigv[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; /* f16, bf16 (both outputs), f32 tf32 / tf32x3 / ieee, i8, e4m3, e5m2 */
        for (int bi = 0; bi < (int)(sizeof bigv / sizeof bigv[0]); bi++)
            for (int si = 0; si < 4; si++) {
                const variant *v = &V[bigv[bi]];
                int r = bi + si;
                if (si == 3 && !is_f8(v->in)) continue; /* M = 1 */
                const config *cf = v->in == TL_F32 ? &big32[r % 2] : is_f8(v->in) ? &big8[r % 2] : &big16[r % 5];
                /* row-major and contiguous, then one operand transposed and
                   the leading dimensions rounded up to multiples of 16;
                   fp8 also with B read as B^T blocks */
                test_mm(v, BIG[si][0], BIG[si][1], BIG[si][2], cf, 0, 0, 0, 0, 1, 0);
                test_mm(v, BIG[si][0], BIG[si][1], BIG[si][2], cf, r & 1, !(r & 1), 0, ALIGN16, si & 1, 0);
                if (is_f8(v->in)) test_mm(v, BIG[si][0], BIG[si][1], BIG[si][2], cf, 0, 1, 0, ALIGN16, 0, 1);
            }
    }

    /* one tl_dot of whole tiles, with and without an accumulator, at 1 to 8
       warps: f16 always, and one other dtype by turns */
    static const int SH[][3] = {{16, 16, 16}, {32, 64, 32}, {64, 32, 128}, {128, 128, 32}, {128, 64, 64}, {128, 64, 128}}; /* the last two: wgmma at 4 and 8 warps (fp8 native at K 128) */
    const int others[] = {2, 4, 7, 5, 6, 8, 9};
    for (int si = 0; si < (int)(sizeof SH / sizeof SH[0]); si++)
        for (int wi = 0; wi < 4; wi++)
            for (int acc = 0; acc < 2; acc++) {
                int warps = 1 << wi, r = si + 4 * wi + acc;
                test_dot1(&V[0], SH[si][0], SH[si][1], SH[si][2], warps, acc, 0, 0);
                const variant *o = &V[others[r % 7]];
                if (o->in == TL_I8 && SH[si][2] < 32) o = &V[2];
                test_dot1(o, SH[si][0], SH[si][1], SH[si][2], warps, acc, r & 1, (r >> 1) & 1);
            }

    test_imprecise_acc(gpu);

    for (int vi = 0; vi < NV; vi++) {
        tile_kernel_release(V[vi].mm);
        tile_kernel_release(V[vi].dot1);
    }
    return tt_finish("test_matmul");
}
