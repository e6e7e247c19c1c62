/* tests/test_lang.c — the parts of triton.language that porting real Triton
   kernels runs into first (issue 15), each against a C reference on fresh
   random inputs, and their user errors at the user's line.

     - TILE_KERNEL with 25 parameters (tutorial 06's _attn_fwd) and with 64,
       the builder's limit;
     - rank-0 tl_full / tl_zeros (Triton's `lo = 0`, a scalar accumulator);
     - tl_reduce_or / tl_reduce_and over integers of each width and over i1,
       along each axis;
     - tl_swizzle2d against Triton's definition written out in C;
     - tl_flip along each dim (negative too) of 3-D tiles of floats, ints,
       i1 and f8, bit for bit;
     - tl_gather along either axis, the index longer or shorter than the
       source there, three source and index dtypes; an index outside the
       source is TILE_ERR_OOB in the interpreter;
     - tl_histogram of skewed integers of five dtypes, values outside the
       bins and masked lanes left out;
     - tl_sort (each dim, either order) and tl_topk (k the whole dim or a
       quarter) of twelve dtypes, many values equal, against qsort; with
       NaNs in the input the result is a permutation of it;
     - block pointers: row sums read through one carried and advanced by a
       TL_FOR (row- and column-major, ragged edges padded with zeros) and
       stored through another, rows past the tensor untouched; a block
       partly outside each side padded with zeros or NaNs, moved by a
       TL_IF; their user errors;
     - tl_static_assert and tl_static_print while a kernel is built;
     - tl_assume on a scalar and a tile: the kernel runs, the IR has it,
       the PTX compiles; a false one is TILE_ERR_ASSERT in the interpreter;
     - tl_reduce / tl_reduce_n / tl_associative_scan(_n) with C combine
       functions, along each axis, forward and reversed: max |x|, a
       (value, index) argmax, products of 2x2 u32 matrices and compositions
       of affine maps (associative, not commutative: the order is checked),
       against C loops; their user errors;
     - dtype-generic kernels (tl_ptr parameters, TILE_PTR arguments): one
       body converting 8 source dtypes to 5 destinations (40
       specializations), mixed f16 + bf16 -> f32, the IR of each
       specialization; tl_ptr_cast reading f32s as u32s and bytes; a dtype
       combination a body refuses is an error naming the launch;
     - tl_multiple_of / tl_max_contiguous / tl_max_constancy: the values
       pass unchanged, and a hint lets the PTX use 16-byte accesses where the
       analysis alone cannot prove them (both back ends: this program has an
       LLVM twin). */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"
#include <unistd.h>

static void quiet_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}

/* ---- 25 and 64 parameters ------------------------------------------------------------- */
/* out[0] = sum of k * a<k>, so that each parameter lands in its own place */
#define P_I32(n) (tl_i32, a##n)
TILE_KERNEL(params25, (tl_ptr_i64, out), P_I32(1), P_I32(2), P_I32(3), P_I32(4), P_I32(5), P_I32(6), P_I32(7), P_I32(8), P_I32(9),
            P_I32(10), P_I32(11), P_I32(12), P_I32(13), P_I32(14), P_I32(15), P_I32(16), P_I32(17), P_I32(18), P_I32(19), P_I32(20),
            P_I32(21), P_I32(22), P_I32(23), P_I32(24))
{
    const tl_t a[24] = {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24};
    tl_t s = tl_zeros(TL_I64);
    for (int k = 0; k < 24; k++) s = tl_add(s, tl_mul(tl_cast(a[k], TL_I64), k + 1));
    tl_store(out, s);
}
TILE_KERNEL(params64, (tl_ptr_i64, out), (tl_ptr_f32, fout), P_I32(1), P_I32(2), P_I32(3), P_I32(4), P_I32(5), P_I32(6), P_I32(7),
            P_I32(8), P_I32(9), P_I32(10), P_I32(11), P_I32(12), P_I32(13), P_I32(14), P_I32(15), P_I32(16), P_I32(17), P_I32(18),
            P_I32(19), P_I32(20), P_I32(21), P_I32(22), P_I32(23), P_I32(24), P_I32(25), P_I32(26), P_I32(27), P_I32(28), P_I32(29),
            P_I32(30), P_I32(31), P_I32(32), P_I32(33), P_I32(34), P_I32(35), P_I32(36), P_I32(37), P_I32(38), P_I32(39), P_I32(40),
            P_I32(41), P_I32(42), P_I32(43), P_I32(44), P_I32(45), P_I32(46), P_I32(47), P_I32(48), P_I32(49), P_I32(50), P_I32(51),
            P_I32(52), P_I32(53), P_I32(54), P_I32(55), P_I32(56), P_I32(57), P_I32(58), P_I32(59), P_I32(60), P_I32(61), (tl_f32, last))
{
    const tl_t a[61] = {a1,  a2,  a3,  a4,  a5,  a6,  a7,  a8,  a9,  a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21,
                        a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32, a33, a34, a35, a36, a37, a38, a39, a40, a41, a42,
                        a43, a44, a45, a46, a47, a48, a49, a50, a51, a52, a53, a54, a55, a56, a57, a58, a59, a60, a61};
    tl_t s = tl_zeros(TL_I64);
    for (int k = 0; k < 61; k++) s = tl_add(s, tl_mul(tl_cast(a[k], TL_I64), k + 1));
    tl_store(out, s);
    tl_store(fout, tl_mul(last, 2.0f));
}

static void test_params(void) {
    int64_t *out = tile_malloc(sizeof(int64_t));
    float *fout = tile_malloc(sizeof(float));
    int32_t a[61];
    for (int k = 0; k < 61; k++) a[k] = (int32_t)tt_int(-1000000, 1000000);
    int64_t want = 0, got = 0;
    for (int k = 0; k < 24; k++) want += (int64_t)(k + 1) * a[k];
    tile_memset(out, 0xa5, sizeof *out);
    TT_OK(params25(TILE_OPTS(.grid = {1}), out, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14],
                   a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]));
    tile_memcpy_dtoh(&got, out, sizeof got);
    TT_CHECK(got == want, "25 parameters: got %lld, want %lld", (long long)got, (long long)want);
    TT_CHECK(TILE_KERNEL_OF(params25)->nparams == 25 && TILE_KERNEL_OF(params64)->nparams == 64, "parameter counts %d and %d",
             TILE_KERNEL_OF(params25)->nparams, TILE_KERNEL_OF(params64)->nparams);

    want = 0;
    for (int k = 0; k < 61; k++) want += (int64_t)(k + 1) * a[k];
    float last = (float)tt_uniform(-10, 10), fgot = 0;
    tile_memset(out, 0xa5, sizeof *out);
    tile_memset(fout, 0xff, sizeof *fout);
    TT_OK(params64(TILE_OPTS(.grid = {1}), out, fout, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
                   a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31],
                   a[32], a[33], a[34], a[35], a[36], a[37], a[38], a[39], a[40], a[41], a[42], a[43], a[44], a[45], a[46], a[47], a[48], a[49],
                   a[50], a[51], a[52], a[53], a[54], a[55], a[56], a[57], a[58], a[59], a[60], last));
    tile_memcpy_dtoh(&got, out, sizeof got);
    tile_memcpy_dtoh(&fgot, fout, sizeof fgot);
    TT_CHECK(got == want && fgot == 2 * last, "64 parameters: got %lld and %g, want %lld and %g", (long long)got, (double)fgot, (long long)want,
             2.0 * last);
    tile_free(out);
    tile_free(fout);
}

/* ---- rank-0 tl_full / tl_zeros -------------------------------------------------------- */
/* Triton's `lo, hi = 0, n` and a scalar accumulator: sum of x[lo:n) and the count */
TILE_KERNEL(scalar_acc, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_ptr_i32, count), (tl_i32, n))
{
    tl_t lo = tl_full(TL_I32, 0), acc = tl_zeros(TL_F32), cnt = tl_full(TL_I32, 0.0);
    tl_static_assert(tl_rank(lo) == 0 && tl_rank(acc) == 0 && tl_dtype_of(acc) == TL_F32 && tl_dtype_of(cnt) == TL_I32,
                     "rank-0 values of the dtype asked for");
    TL_FOR (i, lo, n, 1, acc, cnt) {
        acc = tl_add(acc, tl_load(tl_add(x, i)));
        cnt = tl_add(cnt, 1);
    }
    tl_store(out, acc);
    tl_store(count, cnt);
}

static void test_rank0(void) {
    enum { N = 77 };
    float hx[N], got = 0;
    int32_t cgot = -1;
    double want = 0;
    for (int i = 0; i < N; i++) want += hx[i] = (float)tt_uniform(-1, 1);
    float *x = tile_malloc(sizeof hx), *out = tile_malloc(sizeof(float));
    int32_t *count = tile_malloc(sizeof(int32_t));
    tile_memcpy_htod(x, hx, sizeof hx);
    tile_memset(out, 0xff, sizeof(float));
    tile_memset(count, 0xff, sizeof(int32_t));
    TT_OK(scalar_acc(TILE_OPTS(.grid = {1}), x, out, count, N));
    tile_memcpy_dtoh(&got, out, sizeof got);
    tile_memcpy_dtoh(&cgot, count, sizeof cgot);
    TT_CHECK(tt_close(got, want, 1e-5, 1e-5) && cgot == N, "rank-0 accumulators: sum %.7g (want %.7g), count %d (want %d)", (double)got, want,
             cgot, N);
    tile_free(x);
    tile_free(out);
    tile_free(count);
}

/* ---- tl_reduce_or / tl_reduce_and ------------------------------------------------------ */
/* x [R, C] of dtype DT (via meta DT): or/and along AXIS into out (keep_dims 0);
   BOOL: the reductions of x != 0 (i1), stored as 0/1 */
TILE_KERNEL(red_bits, (tl_ptr_u64, x), (tl_ptr_u64, out_or), (tl_ptr_u64, out_and))
{
    int R = TL_META(R), C = TL_META(C), AXIS = TL_META(AXIS), BOOL = TL_META(BOOL);
    tl_dtype dt = (tl_dtype)TL_META(DT);
    tl_t offs = tl_add(tl_mul(tl_expand_dims(tl_arange(0, R), 1), C), tl_expand_dims(tl_arange(0, C), 0));
    tl_t v = tl_cast(tl_load(tl_add(x, offs)), dt);
    if (BOOL) v = tl_ne(v, 0);
    tl_t o = tl_reduce_or(v, AXIS), a = tl_reduce_and(v, AXIS);
    tl_static_assert(tl_dtype_of(o) == tl_dtype_of(v) && tl_dtype_of(a) == tl_dtype_of(v), "the input's dtype");
    tl_t ro = tl_arange(0, AXIS ? R : C);
    tl_store(tl_add(out_or, ro), tl_cast(o, TL_U64));
    tl_store(tl_add(out_and, ro), tl_cast(a, TL_U64));
}

static uint64_t wrap_to(uint64_t v, tl_dtype dt) {
    switch (dt) {
    case TL_I8: return (uint64_t)(int64_t)(int8_t)v;
    case TL_U8: return v & 0xff;
    case TL_I16: return (uint64_t)(int64_t)(int16_t)v;
    case TL_U16: return v & 0xffff;
    case TL_I32: return (uint64_t)(int64_t)(int32_t)v;
    case TL_U32: return v & 0xffffffffu;
    default: return v;
    }
}

static void test_reduce_bits(void) {
    enum { R = 8, C = 16 };
    const tl_dtype dts[] = {TL_I8, TL_U8, TL_I16, TL_U16, TL_I32, TL_U32, TL_I64, TL_U64};
    uint64_t hx[R * C], got_or[C], got_and[C];
    uint64_t *x = tile_malloc(sizeof hx), *oo = tile_malloc(sizeof got_or), *oa = tile_malloc(sizeof got_and);
    for (int b = 0; b < 2; b++)
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
            for (int axis = 0; axis < 2; axis++) {
                tl_dtype dt = dts[d];
                /* mostly-set bits, so that and is not always 0; some zero rows for the i1 case */
                for (int i = 0; i < R * C; i++) {
                    uint64_t r = tt_next() | tt_next() | tt_next();
                    if (b && tt_int(0, 3) == 0) r = 0;
                    if (b && tt_int(0, 5) == 0) r = 0;
                    hx[i] = r;
                }
                tile_memcpy_htod(x, hx, sizeof hx);
                tile_memset(oo, 0xa5, sizeof got_or);
                tile_memset(oa, 0xa5, sizeof got_and);
                TT_OK(red_bits(TILE_OPTS(.grid = {1}, .meta = {{"R", R}, {"C", C}, {"AXIS", axis}, {"BOOL", b}, {"DT", dt}}), x, oo, oa));
                tile_memcpy_dtoh(got_or, oo, sizeof got_or);
                tile_memcpy_dtoh(got_and, oa, sizeof got_and);
                int n = axis ? R : C, bad = 0;
                for (int k = 0; k < n; k++) {
                    uint64_t wo = 0, wa = ~(uint64_t)0;
                    for (int j = 0; j < (axis ? C : R); j++) {
                        uint64_t e = wrap_to(hx[axis ? k * C + j : j * C + k], dt);
                        if (b) e = e != 0;
                        wo |= e;
                        wa &= e;
                    }
                    if (!b) {
                        wo = wrap_to(wo, dt);
                        wa = wrap_to(wa, dt);
                    }
                    bad += got_or[k] != wo || got_and[k] != wa;
                }
                TT_CHECK(bad == 0, "tl_reduce_or/and of %s%s along axis %d: %d of %d wrong", b ? "i1 from " : "", tile_dtype_name(dt), axis, bad, n);
            }
    tile_free(x);
    tile_free(oo);
    tile_free(oa);
}

/* ---- tl_swizzle2d -------------------------------------------------------------------------- */
TILE_KERNEL(swizzle, (tl_ptr_i32, out_i), (tl_ptr_i32, out_j), (tl_i32, size_i), (tl_i32, size_j), (tl_i32, size_g))
{
    int B = TL_META(B);
    tl_t lin = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
    tl_t mask = tl_lt(lin, tl_mul(size_i, size_j));
    tl_t i = tl_floordiv(lin, size_j), j = tl_mod(lin, size_j), ni, nj;
    tl_swizzle2d(i, j, size_i, size_j, size_g, &ni, &nj);
    tl_store(tl_add(out_i, lin), ni, .mask = mask);
    tl_store(tl_add(out_j, lin), nj, .mask = mask);
    /* the scalar form, with C ints where Triton passes constexprs: program 0 writes past the grid */
    tl_t si, sj;
    tl_swizzle2d(tl_program_id(0), 0, 3, 1, 2, &si, &sj);
    tl_store(tl_add(out_i, tl_add(tl_mul(size_i, size_j), tl_program_id(0))), tl_add(tl_mul(si, 100), sj));
}

/* Triton's swizzle2d, transcribed from its definition (language/standard.py) */
static void swizzle_ref(int i, int j, int size_i, int size_j, int size_g, int *ni, int *nj) {
    int ij = i * size_j + j;
    int size_gj = size_g * size_j;
    int group_id = ij / size_gj;
    int off_i = group_id * size_g;
    int g = size_i - off_i < size_g ? size_i - off_i : size_g;
    ij = ij % size_gj;
    *ni = off_i + ij % g;
    *nj = ij / g;
}

static void test_swizzle(void) {
    for (int trial = 0; trial < 6; trial++) {
        int si = (int)tt_int(1, 40), sj = (int)tt_int(1, 40), sg = (int)tt_int(1, 9), n = si * sj, B = 64;
        int grid = (n + B - 1) / B;
        size_t bytes = (size_t)(n + grid) * sizeof(int32_t);
        int32_t *oi = tile_malloc(bytes), *oj = tile_malloc(bytes);
        int32_t *gi = malloc(bytes), *gj = malloc(bytes);
        tile_memset(oi, 0xa5, bytes);
        tile_memset(oj, 0xa5, bytes);
        TT_OK(swizzle(TILE_OPTS(.grid = {(unsigned)grid}, .meta = {{"B", B}}), oi, oj, si, sj, sg));
        tile_memcpy_dtoh(gi, oi, bytes);
        tile_memcpy_dtoh(gj, oj, bytes);
        int bad = 0, perm = 1;
        char *hit = calloc((size_t)n, 1);
        for (int l = 0; l < n; l++) {
            int wi, wj;
            swizzle_ref(l / sj, l % sj, si, sj, sg, &wi, &wj);
            bad += gi[l] != wi || gj[l] != wj;
            if (gi[l] >= 0 && gi[l] < si && gj[l] >= 0 && gj[l] < sj) {
                if (hit[gi[l] * sj + gj[l]]++) perm = 0;
            } else {
                perm = 0;
            }
        }
        for (int p = 0; p < grid; p++) {
            int wi, wj;
            swizzle_ref(p, 0, 3, 1, 2, &wi, &wj);
            bad += gi[n + p] != wi * 100 + wj;
        }
        TT_CHECK(bad == 0 && perm, "tl_swizzle2d %dx%d groups of %d: %d wrong%s", si, sj, sg, bad, perm ? "" : ", not a permutation");
        free(hit);
        free(gi);
        free(gj);
        tile_free(oi);
        tile_free(oj);
    }
}

/* ---- tl_flip -------------------------------------------------------------------------------- */
/* x [A, B, C] of dtype DT (from u64 bits), flipped along DIM (may be negative) */
TILE_KERNEL(flip_k, (tl_ptr_u64, x), (tl_ptr_u64, out))
{
    int A = TL_META(A), B = TL_META(B), C = TL_META(C), DIM = TL_META(DIM);
    tl_dtype dt = (tl_dtype)TL_META(DT);
    tl_t i = tl_expand_dims(tl_expand_dims(tl_arange(0, A), 1), 2), j = tl_expand_dims(tl_expand_dims(tl_arange(0, B), 0), 2);
    tl_t k = tl_expand_dims(tl_expand_dims(tl_arange(0, C), 0), 1);
    tl_t offs = tl_add(tl_add(tl_mul(i, B * C), tl_mul(j, C)), k);
    tl_t bits = tl_load(tl_add(x, offs));
    int w = tile_dtype_size(dt) * 8;
    tl_t v = dt == TL_I1 ? tl_ne(tl_and(bits, 1), 0)
           : tl_bitcast(tl_cast(w == 64 ? bits : tl_and(bits, (long long)((1ull << w) - 1)), w == 8 ? TL_U8 : w == 16 ? TL_U16 : w == 32 ? TL_U32 : TL_U64), dt);
    tl_t f = tl_flip(v, DIM);
    tl_static_assert(tl_dtype_of(f) == dt && tl_rank(f) == 3, "same dtype and shape");
    tl_t fb = dt == TL_I1 ? tl_cast(f, TL_U64)
            : tl_cast(tl_bitcast(f, w == 8 ? TL_U8 : w == 16 ? TL_U16 : w == 32 ? TL_U32 : TL_U64), TL_U64);
    tl_store(tl_add(out, offs), fb);
}

static void test_flip(void) {
    static const int shapes[][3] = {{1, 1, 16}, {4, 8, 2}, {2, 32, 4}, {8, 1, 8}};
    static const tl_dtype dts[] = {TL_F32, TL_F16, TL_BF16, TL_I8, TL_I64, TL_I1, TL_F8E4M3};
    enum { MAXN = 512 };
    uint64_t hx[MAXN], got[MAXN];
    uint64_t *x = tile_malloc(sizeof hx), *out = tile_malloc(sizeof got);
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
        for (size_t di = 0; di < sizeof dts / sizeof *dts; di++)
            for (int dim = -1; dim < 3; dim++) {
                const int *sh = shapes[si];
                int n = sh[0] * sh[1] * sh[2], d = dim < 0 ? 2 : dim, w = tile_dtype_size(dts[di]) * 8;
                for (int q = 0; q < n; q++) hx[q] = tt_next();
                tile_memcpy_htod(x, hx, (size_t)n * 8);
                tile_memset(out, 0xa5, (size_t)n * 8);
                TT_OK(flip_k(TILE_OPTS(.grid = {1}, .meta = {{"A", sh[0]}, {"B", sh[1]}, {"C", sh[2]}, {"DIM", dim}, {"DT", dts[di]}}), x, out));
                tile_memcpy_dtoh(got, out, (size_t)n * 8);
                int bad = 0;
                for (int a = 0; a < sh[0]; a++)
                    for (int b = 0; b < sh[1]; b++)
                        for (int c = 0; c < sh[2]; c++) {
                            int src[3] = {a, b, c};
                            src[d] = sh[d] - 1 - src[d];
                            uint64_t v = hx[(src[0] * sh[1] + src[1]) * sh[2] + src[2]];
                            uint64_t want = dts[di] == TL_I1 ? v & 1 : w == 64 ? v : v & ((1ull << w) - 1);
                            bad += got[(a * sh[1] + b) * sh[2] + c] != want;
                        }
                TT_CHECK(bad == 0, "tl_flip of %s[%d,%d,%d] along %d: %d of %d wrong", tile_dtype_name(dts[di]), sh[0], sh[1], sh[2], dim, bad, n);
            }
    tile_free(x);
    tile_free(out);
}

/* ---- tl_gather ------------------------------------------------------------------------------ */
/* src [R, C] (f32 bits, or cast to DT), index [IR, IC] of dtype IT along AXIS */
TILE_KERNEL(gather_k, (tl_ptr_f32, src), (tl_ptr_i64, index), (tl_ptr_f32, out))
{
    int R = TL_META(R), C = TL_META(C), IR = TL_META(IR), IC = TL_META(IC), AXIS = TL_META(AXIS);
    tl_dtype dt = (tl_dtype)TL_META(DT), it = (tl_dtype)TL_META(IT);
    tl_t s = tl_load(tl_add(src, tl_add(tl_mul(tl_expand_dims(tl_arange(0, R), 1), C), tl_expand_dims(tl_arange(0, C), 0))));
    tl_t io = tl_add(tl_mul(tl_expand_dims(tl_arange(0, IR), 1), IC), tl_expand_dims(tl_arange(0, IC), 0));
    tl_t idx = tl_cast(tl_load(tl_add(index, io)), it);
    tl_t g = tl_gather(tl_cast(s, dt), idx, AXIS);
    tl_store(tl_add(out, io), tl_cast(g, TL_F32));
}

static void test_gather(void) {
    static const struct { int r, c, ir, ic, axis; } cases[] = {{16, 8, 32, 8, 0}, {16, 8, 16, 4, 1}, {4, 32, 4, 64, -1}, {1, 16, 8, 16, 0}};
    static const tl_dtype dts[] = {TL_F32, TL_F16, TL_I8};
    static const tl_dtype its[] = {TL_I32, TL_I64, TL_U8};
    enum { MAXN = 512 };
    float hs[MAXN], got[MAXN];
    int64_t hi[MAXN];
    float *s = tile_malloc(sizeof hs), *out = tile_malloc(sizeof got);
    int64_t *ix = tile_malloc(sizeof hi);
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++)
        for (size_t di = 0; di < 3; di++) {
            int R = cases[ci].r, C = cases[ci].c, IR = cases[ci].ir, IC = cases[ci].ic, ax = cases[ci].axis < 0 ? 1 : cases[ci].axis;
            int n = ax == 0 ? R : C;
            for (int q = 0; q < R * C; q++) hs[q] = (float)tt_int(-100, 100);   /* exact in f16 and i8 */
            for (int q = 0; q < IR * IC; q++) hi[q] = tt_int(0, n - 1);
            tile_memcpy_htod(s, hs, sizeof hs);
            tile_memcpy_htod(ix, hi, sizeof hi);
            tile_memset(out, 0xff, sizeof got);
            TT_OK(gather_k(TILE_OPTS(.grid = {1}, .meta = {{"R", R}, {"C", C}, {"IR", IR}, {"IC", IC}, {"AXIS", cases[ci].axis}, {"DT", dts[di]},
                                                          {"IT", its[di]}}),
                           s, ix, out));
            tile_memcpy_dtoh(got, out, sizeof got);
            int bad = 0;
            for (int i = 0; i < IR; i++)
                for (int j = 0; j < IC; j++) {
                    int k = (int)hi[i * IC + j];
                    float want = ax == 0 ? hs[k * C + j] : hs[i * C + k];
                    bad += got[i * IC + j] != want;
                }
            TT_CHECK(bad == 0, "tl_gather of %s[%d,%d] by %s[%d,%d] along %d: %d of %d wrong", tile_dtype_name(dts[di]), R, C, tile_dtype_name(its[di]),
                     IR, IC, cases[ci].axis, bad, IR * IC);
        }
    /* an index outside the source: TILE_ERR_OOB in the interpreter (the GPU wraps it) */
    if (strcmp(tile_backend_name(), "interp") == 0) {
        for (int q = 0; q < 16 * 8; q++) hi[q] = q == 77 ? 16 : 0;
        tile_memcpy_htod(ix, hi, sizeof hi);
        tile_set_log(quiet_log, NULL);
        tile_status st = gather_k(TILE_OPTS(.grid = {1}, .meta = {{"R", 16}, {"C", 8}, {"IR", 16}, {"IC", 8}, {"AXIS", 0}, {"DT", TL_F32}, {"IT", TL_I32}}),
                                  s, ix, out);
        tile_set_log(NULL, NULL);
        TT_CHECK(st == TILE_ERR_OOB && strstr(tile_last_error(), "tl_gather: lane 77") && strstr(tile_last_error(), "has index 16, outside [0, 16)"),
                 "tl_gather with index 16 of 16: want TILE_ERR_OOB naming lane 77; got %s: %s", tile_status_id(st), tile_last_error());
    }
    tile_free(s);
    tile_free(ix);
    tile_free(out);
}

/* ---- tl_histogram --------------------------------------------------------------------------- */
/* each program's counts of x[pid*B, +B) (dtype DT, values where x < n) into hist[pid] */
TILE_KERNEL(hist_k, (tl_ptr_i64, x), (tl_ptr_i32, hist), (tl_i32, n))
{
    int B = TL_META(B), BINS = TL_META(BINS), MASK = TL_META(MASK);
    tl_dtype dt = (tl_dtype)TL_META(DT);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
    tl_t v = tl_cast(tl_load(tl_add(x, offs)), dt);
    tl_t h = MASK ? tl_histogram(v, BINS, .mask = tl_lt(offs, n)) : tl_histogram(v, BINS);
    tl_static_assert(tl_dtype_of(h) == TL_I32 && tl_dim(h, 0) == BINS, "i32[BINS]");
    tl_store(tl_add(hist, tl_add(tl_mul(tl_program_id(0), BINS), tl_arange(0, BINS))), h);
}

static void test_histogram(void) {
    static const struct { int b, bins; tl_dtype dt; int mask; } cases[] = {
        {256, 16, TL_I32, 0}, {1024, 256, TL_I32, 1}, {64, 128, TL_I8, 1}, {512, 4, TL_U16, 0}, {128, 64, TL_I64, 1}, {32, 1, TL_U32, 0}};
    enum { G = 3, MAXB = 1024, MAXBINS = 256 };
    int64_t *hx = malloc(G * MAXB * sizeof *hx);
    int32_t *got = malloc(G * MAXBINS * sizeof *got);
    int64_t *x = tile_malloc(G * MAXB * sizeof *hx);
    int32_t *hist = tile_malloc(G * MAXBINS * sizeof *got);
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++) {
        int B = cases[ci].b, bins = cases[ci].bins, n = G * B - (int)tt_int(0, B - 1);
        for (int i = 0; i < G * B; i++) {
            /* skewed: half the values in bin 1; some below 0 or past the bins (and their wrap into the dtype) */
            long long v = tt_int(0, 1) ? 1 : tt_int(-bins / 2 - 3, bins + bins / 2 + 3);
            hx[i] = v;
        }
        tile_memcpy_htod(x, hx, (size_t)G * B * sizeof *hx);
        tile_memset(hist, 0xa5, (size_t)G * bins * sizeof *got);
        TT_OK(hist_k(TILE_OPTS(.grid = {G}, .meta = {{"B", B}, {"BINS", bins}, {"MASK", cases[ci].mask}, {"DT", cases[ci].dt}}), x, hist, n));
        tile_memcpy_dtoh(got, hist, (size_t)G * bins * sizeof *got);
        int bad = 0;
        for (int p = 0; p < G; p++)
            for (int k = 0; k < bins; k++) {
                int want = 0;
                for (int i = p * B; i < (p + 1) * B; i++) {
                    if (cases[ci].mask && i >= n) continue;
                    long long v = hx[i];
                    switch (cases[ci].dt) {   /* the value as the dtype holds it */
                    case TL_I8: v = (int8_t)v; break;
                    case TL_U16: v = (uint16_t)v; break;
                    case TL_U32: v = (uint32_t)v; break;
                    default: break;
                    }
                    want += v == k;
                }
                bad += got[p * bins + k] != want;
            }
        TT_CHECK(bad == 0, "tl_histogram of %s[%d] into %d bins%s: %d of %d counts wrong", tile_dtype_name(cases[ci].dt), B, bins,
                 cases[ci].mask ? " (masked)" : "", bad, G * bins);
    }
    free(hx);
    free(got);
    tile_free(x);
    tile_free(hist);
}

/* ---- tl_sort / tl_topk ---------------------------------------------------------------------- */
/* x [A, B] (f64, cast to DT) sorted along DIM (DESC), or its top K (K > 0) */
TILE_KERNEL(sort_k, (tl_ptr_f64, x), (tl_ptr_f64, out))
{
    int A = TL_META(A), B = TL_META(B), DIM = TL_META(DIM), DESC = TL_META(DESC), K = TL_META(K);
    tl_dtype dt = (tl_dtype)TL_META(DT);
    tl_t v = tl_cast(tl_load(tl_add(x, tl_add(tl_mul(tl_expand_dims(tl_arange(0, A), 1), B), tl_expand_dims(tl_arange(0, B), 0)))), dt);
    tl_t r = K ? tl_topk(v, K, DIM) : DIM == -1 && !DESC ? tl_sort(v) : tl_sort(v, DIM, DESC);
    int d = DIM < 0 ? DIM + 2 : DIM, oa = d == 0 && K ? K : A, ob = d == 1 && K ? K : B;
    tl_static_assert(tl_dtype_of(r) == dt && tl_dim(r, 0) == oa && tl_dim(r, 1) == ob, "the dtype, and the dim cut to k");
    tl_store(tl_add(out, tl_add(tl_mul(tl_expand_dims(tl_arange(0, oa), 1), ob), tl_expand_dims(tl_arange(0, ob), 0))), tl_cast(r, TL_F64));
}

static int cmp_up(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static int cmp_bits(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_sort(void) {
    /* each dtype with values it holds exactly, many of them equal */
    static const struct { tl_dtype dt; double lo, hi, step; } dts[] = {
        {TL_F32, -1e6, 1e6, 0}, {TL_F16, -16, 16, 0.5}, {TL_BF16, -64, 64, 0.25}, {TL_F8E4M3, -8, 8, 0.5}, {TL_F64, -1, 1, 0},
        {TL_I8, -100, 100, 1}, {TL_U8, 0, 255, 1}, {TL_I16, -3, 3, 1}, {TL_I32, -2e9, 2e9, 1}, {TL_U32, 0, 4e9, 1},
        {TL_I64, -1e15, 1e15, 1}, {TL_I1, 0, 1, 1}};
    static const int shapes[][2] = {{1, 16}, {4, 32}, {8, 8}, {2, 128}, {16, 1}, {1, 1024}};
    enum { MAXN = 1024 };
    double hx[MAXN], got[MAXN], line[MAXN];
    double *x = tile_malloc(sizeof hx), *out = tile_malloc(sizeof got);
    for (size_t di = 0; di < sizeof dts / sizeof *dts; di++)
        for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
            int A = shapes[si][0], B = shapes[si][1], n = A * B;
            for (int i = 0; i < n; i++) {
                double v = tt_uniform(dts[di].lo, dts[di].hi);
                if (dts[di].step) v = dts[di].lo + dts[di].step * (double)tt_int(0, (long long)((dts[di].hi - dts[di].lo) / dts[di].step));
                hx[i] = dts[di].dt == TL_F32 ? (double)(float)v : v;
            }
            tile_memcpy_htod(x, hx, (size_t)n * sizeof *hx);
            /* one of the twelve: each dim (-1 for the last) by each order and
               each k of topk, in turn over the dtypes and shapes (every one
               compiles to PTX twice per back end in ptx_check: kept few) */
            {
                int c = (int)(di * 5 + si) % 12, dim = c / 4 - 1, mode = c % 4;
                    int d = dim < 0 ? 1 : dim, len = d ? B : A, other = d ? A : B;
                    int K = mode < 2 ? 0 : mode == 2 ? len : (len >= 4 ? len / 4 : 1), desc = mode == 1 || K;
                    int klen = K ? K : len;
                    tile_memset(out, 0xa5, (size_t)n * sizeof *got);
                    TT_OK(sort_k(TILE_OPTS(.grid = {1}, .meta = {{"A", A}, {"B", B}, {"DIM", dim}, {"DESC", desc}, {"K", K}, {"DT", dts[di].dt}}), x, out));
                    tile_memcpy_dtoh(got, out, (size_t)other * klen * sizeof *got);
                    int bad = 0;
                    for (int o = 0; o < other; o++) {
                        for (int i = 0; i < len; i++) {
                            double v = d ? hx[o * B + i] : hx[i * B + o];
                            line[i] = dts[di].dt == TL_I1 ? (double)(v != 0) : v;
                        }
                        qsort(line, (size_t)len, sizeof *line, cmp_up);
                        for (int i = 0; i < klen; i++) {
                            double want = desc ? line[len - 1 - i] : line[i];
                            double g = d ? got[o * klen + i] : got[i * B + o];
                            bad += g != want;
                        }
                    }
                    TT_CHECK(bad == 0, "%s of %s[%d,%d] along %d%s: %d of %d wrong", K ? "tl_topk" : "tl_sort", tile_dtype_name(dts[di].dt), A, B, dim,
                             K ? "" : desc ? " descending" : "", bad, other * klen);
                }
        }
    /* NaNs: the result is still a permutation of the input */
    for (int i = 0; i < 256; i++) hx[i] = tt_int(0, 7) ? (double)(float)tt_normal() : NAN;
    tile_memcpy_htod(x, hx, 256 * sizeof *hx);
    tile_memset(out, 0xa5, 256 * sizeof *got);
    TT_OK(sort_k(TILE_OPTS(.grid = {1}, .meta = {{"A", 1}, {"B", 256}, {"DIM", -1}, {"DESC", 0}, {"K", 0}, {"DT", TL_F32}}), x, out));
    tile_memcpy_dtoh(got, out, 256 * sizeof *got);
    uint64_t bi[256], bo[256];   /* the bits, a NaN's as one key (a conversion may make it the canonical NaN) */
    for (int i = 0; i < 256; i++) {
        memcpy(&bi[i], &hx[i], 8);
        memcpy(&bo[i], &got[i], 8);
        if (isnan(hx[i])) bi[i] = ~0ull;
        if (isnan(got[i])) bo[i] = ~0ull;
    }
    qsort(bi, 256, 8, cmp_bits);
    qsort(bo, 256, 8, cmp_bits);
    TT_CHECK(memcmp(bi, bo, sizeof bi) == 0, "tl_sort of f32[256] with NaNs: the result is not a permutation of the input");
    tile_free(x);
    tile_free(out);
}

/* ---- block pointers ------------------------------------------------------------------------- */
/* c[pid block of BM rows, BK] = the sum over the K blocks of a [M, K]
   (strides sam, sak: row- or column-major), read through a block pointer
   advanced by a TL_FOR that carries it, the last block's columns past K
   read as zeros; stored through another, rows past M left alone */
TILE_KERNEL(bp_rows, (tl_ptr_f32, a), (tl_ptr_f32, c), (tl_i32, M), (tl_i32, K), (tl_i32, sam), (tl_i32, sak))
{
    int BM = TL_META(BM), BK = TL_META(BK);
    tl_t pid = tl_program_id(0);
    tl_block_ptr a_bp = tl_make_block_ptr(a, (M, K), (sam, sak), (tl_mul(pid, BM), 0), (BM, BK), (1, 0));
    tl_t acc = tl_zeros(TL_F32, BM, BK);
    TL_FOR (k, 0, K, BK, acc, a_bp) {
        acc = tl_add(acc, tl_load(a_bp, .boundary_check = TL_DIMS(0, 1), .padding_option = TL_PAD_ZERO));
        a_bp = tl_advance(a_bp, (0, BK));
    }
    tl_block_ptr c_bp = tl_make_block_ptr(c, (M, BK), (BK, 1), (tl_mul(pid, BM), 0), (BM, BK), (1, 0));
    tl_store(c_bp, acc, .boundary_check = TL_DIMS(0));
}
/* out[8, 16] = the block of a [M, N] at (o0, o1) (moved back 100 rows by a
   TL_IF when o0 > 100), lanes outside the tensor read as PAD gives */
TILE_KERNEL(bp_pad, (tl_ptr_f32, a), (tl_ptr_f32, out), (tl_i32, M), (tl_i32, N), (tl_i32, o0), (tl_i32, o1))
{
    tl_block_ptr bp = tl_make_block_ptr(a, (M, N), (N, 1), (o0, o1), (8, 16), (1, 0));
    TL_IF (tl_gt(o0, 100), bp) {
        bp = tl_advance(bp, (-100, 0));
    }
    tl_t x = tl_load(bp, .boundary_check = TL_DIMS(0, 1), .padding_option = (tl_padding)TL_META(PAD));
    tl_store(tl_make_block_ptr(out, (8, 16), (16, 1), (0, 0), (8, 16), (0, 1)), x);
}

static void test_block_ptr(void) {
    enum { MAXM = 200, MAXK = 200 };
    float *ha = malloc(MAXM * MAXK * sizeof *ha), *hc = malloc(MAXM * 64 * sizeof *hc);
    float *a = tile_malloc(MAXM * MAXK * sizeof *ha), *c = tile_malloc(MAXM * 64 * sizeof *hc);
    static const struct { int m, k, bm, bk, colmajor; } cases[] = {{100, 90, 16, 32, 0}, {64, 64, 32, 16, 1}, {37, 5, 8, 8, 0}, {130, 200, 64, 64, 1}};
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++) {
        int M = cases[ci].m, K = cases[ci].k, BM = cases[ci].bm, BK = cases[ci].bk, G = (M + BM - 1) / BM;
        int sam = cases[ci].colmajor ? 1 : K, sak = cases[ci].colmajor ? M : 1;
        for (int i = 0; i < M * K; i++) ha[i] = (float)tt_uniform(-1, 1);
        tile_memcpy_htod(a, ha, (size_t)M * K * sizeof *ha);
        tile_memset(c, 0xff, (size_t)G * BM * BK * sizeof *hc);   /* NaN: rows past M must stay so */
        TT_OK(bp_rows(TILE_OPTS(.grid = {G}, .meta = {{"BM", BM}, {"BK", BK}}), a, c, M, K, sam, sak));
        tile_memcpy_dtoh(hc, c, (size_t)G * BM * BK * sizeof *hc);
        int bad = 0;
        for (int i = 0; i < G * BM; i++)
            for (int j = 0; j < BK; j++) {
                float g = hc[i * BK + j];
                if (i >= M) {
                    bad += !isnan(g);
                    continue;
                }
                double want = 0;
                for (int k = j; k < K; k += BK) want += ha[i * sam + k * sak];
                bad += !tt_close(g, want, 1e-5, 1e-5);
            }
        TT_CHECK(bad == 0, "block pointers: the row sums of a %s %dx%d by %dx%d blocks: %d of %d wrong", cases[ci].colmajor ? "column-major" : "row-major", M, K,
                 BM, BK, bad, G * BM * BK);
    }
    /* a block partly outside the tensor on each side, padded with zeros or NaNs */
    static const struct { int o0, o1, pad; } pads[] = {{-3, -5, TL_PAD_ZERO}, {10, 20, TL_PAD_NAN}, {103, 30, TL_PAD_NAN}, {2, 3, TL_PAD_NONE}, {114, -9, TL_PAD_ZERO}};
    int M = 16, N = 40;
    for (int i = 0; i < M * N; i++) ha[i] = (float)tt_uniform(-1, 1);
    tile_memcpy_htod(a, ha, (size_t)M * N * sizeof *ha);
    for (size_t pi = 0; pi < sizeof pads / sizeof *pads; pi++) {
        tile_memset(c, 0xa5, 128 * sizeof *hc);
        TT_OK(bp_pad(TILE_OPTS(.grid = {1}, .meta = {{"PAD", pads[pi].pad}}), a, c, M, N, pads[pi].o0, pads[pi].o1));
        tile_memcpy_dtoh(hc, c, 128 * sizeof *hc);
        int bad = 0, r0 = pads[pi].o0 > 100 ? pads[pi].o0 - 100 : pads[pi].o0;
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 16; j++) {
                int r = r0 + i, q = pads[pi].o1 + j;
                float g = hc[i * 16 + j];
                if (r >= 0 && r < M && q >= 0 && q < N) bad += g != ha[r * N + q];
                else bad += pads[pi].pad == TL_PAD_NAN ? !isnan(g) : g != 0;
            }
        TT_CHECK(bad == 0, "block pointers: the 8x16 block at (%d, %d) of a 16x40 tensor, padding %d: %d of 128 wrong", pads[pi].o0, pads[pi].o1, pads[pi].pad,
                 bad);
    }
    free(ha);
    free(hc);
    tile_free(a);
    tile_free(c);
}

/* ---- tl_static_assert / tl_static_print ---------------------------------------------------- */
static int assert_line, print_line;
TILE_KERNEL(static_checks, (tl_ptr_f32, x))
{
    int B = TL_META(B);
    tl_t v = tl_load(tl_add(x, tl_arange(0, B)));
    print_line = __LINE__ + 1;
    tl_static_print("v", v);
    tl_static_print("", tl_full(TL_I32, B * 3));
    assert_line = __LINE__ + 1;
    tl_static_assert(B % 32 == 0, "B must be a multiple of 32");
    tl_store(tl_add(x, tl_arange(0, B)), tl_mul(v, 2));
}

static void test_static(void) {
    float *x = tile_malloc(64 * sizeof(float));
    tile_memset(x, 0, 64 * sizeof(float));
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    TT_CHECK(saved >= 0 && tmp, "cannot redirect stdout");
    if (saved < 0 || !tmp) return;
    dup2(fileno(tmp), 1);
    tile_status ok = static_checks(TILE_OPTS(.grid = {1}, .meta = {{"B", 64}}), x);
    tile_set_log(quiet_log, NULL);
    tile_status bad = static_checks(TILE_OPTS(.grid = {1}, .meta = {{"B", 16}}), x);
    tile_set_log(NULL, NULL);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    const tile_error *e = tile_last_error_info();
    TT_CHECK(ok == TILE_OK, "B = 64 passes the static assert: %s", tile_status_id(ok));
    TT_CHECK(bad == TILE_ERR_ASSERT && e->line == assert_line && strstr(e->file, "test_lang.c") &&
                 strstr(e->message, "tl_static_assert(B % 32 == 0) failed: B must be a multiple of 32"),
             "B = 16: want TILE_ERR_ASSERT at line %d naming the condition and message; got %s at %s:%d: %s", assert_line, tile_status_id(bad),
             e->file, e->line, e->message);
    rewind(tmp);
    char line[512], want_v[128], want_c64[128], want_c16[128];
    snprintf(want_v, sizeof want_v, "test_lang.c:%d: tl_static_print: v: f32[64]", print_line);
    snprintf(want_c64, sizeof want_c64, "test_lang.c:%d: tl_static_print: i32 = 192", print_line + 1);
    snprintf(want_c16, sizeof want_c16, "test_lang.c:%d: tl_static_print: i32 = 48", print_line + 1);
    int nv = 0, n64 = 0, n16 = 0;
    while (fgets(line, sizeof line, tmp)) {
        nv += strstr(line, want_v) != NULL;
        n64 += strstr(line, want_c64) != NULL;
        n16 += strstr(line, want_c16) != NULL;
    }
    fclose(tmp);
    TT_CHECK(nv == 1 && n64 == 1 && n16 == 1, "tl_static_print: want \"%s\" once, \"%s\" once and \"%s\" once (each build); got %d, %d, %d",
             want_v, want_c64, want_c16, nv, n64, n16);
    tile_free(x);
}

/* ---- hints ---------------------------------------------------------------------------------- */
/* y[row * stride + c] = x[row * stride + c] + 1, c < C. stride is a plain
   parameter (not specialized by the launch: 17 is not a multiple of 16), so
   nothing proves a row's start aligned; HINT 1 vouches that it is a
   multiple of 4 elements (16 bytes) and that C values run consecutively. */
TILE_KERNEL(hinted, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_i32, stride))
{
    int C = TL_META(C), HINT = TL_META(HINT);
    tl_t start = tl_mul(tl_program_id(0), stride);
    if (HINT) {   /* the rows start at multiples of 16 bytes, and so do the buffers */
        start = tl_multiple_of(start, 4);
        x = tl_multiple_of(x, 16);
        y = tl_multiple_of(y, 16);
    }
    tl_t offs = tl_add(start, tl_arange(0, C));
    if (HINT) offs = tl_max_contiguous(tl_multiple_of(offs, 4), C);
    tl_t flag = tl_max_constancy(tl_full(TL_I32, 1, C), C);
    tl_store(tl_add(y, offs), tl_add(tl_load(tl_add(x, offs)), tl_cast(flag, TL_F32)));
}

static void test_hints(void) {
    enum { ROWS = 8, C = 128 };   /* 4 elements a thread on one warp: 16-byte accesses when aligned */
    for (int h = 0; h < 2; h++) {
        int stride = 4 * (int)tt_int(C / 4, C / 2);   /* multiples of 4: the hint holds */
        size_t n = (size_t)ROWS * stride;
        float *hx = malloc(n * sizeof(float)), *hy = malloc(n * sizeof(float));
        for (size_t i = 0; i < n; i++) hx[i] = (float)tt_uniform(-4, 4);
        float *x = tile_malloc(n * sizeof(float)), *y = tile_malloc(n * sizeof(float));
        tile_memcpy_htod(x, hx, n * sizeof(float));
        tile_memset(y, 0xff, n * sizeof(float));
        TT_OK(hinted(TILE_OPTS(.grid = {ROWS}, .meta = {{"C", C}, {"HINT", h}}), x, y, stride));
        tile_memcpy_dtoh(hy, y, n * sizeof(float));
        int bad = 0;
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < C; c++) bad += hy[(size_t)r * stride + c] != hx[(size_t)r * stride + c] + 1.0f;
        TT_CHECK(bad == 0, "hinted copy (hints %s): %d of %d wrong", h ? "on" : "off", bad, ROWS * C);
        free(hx);
        free(hy);
        tile_free(x);
        tile_free(y);
    }
    /* the PTX: 16-byte loads and stores with the hints, none without */
    for (int h = 0; h < 2; h++) {
        char *ptx = NULL, *ir = NULL;
        const tile_launch *o = TILE_OPTS(.grid = {ROWS}, .num_warps = 1, .meta = {{"C", C}, {"HINT", h}});
        tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(hinted), o, "sm_80", &ptx);
        TT_CHECK(st == TILE_OK && ptx, "hinted kernel's PTX (hints %s): %s", h ? "on" : "off", tile_last_error());
        if (ptx) {
            int v4 = strstr(ptx, "ld.global.v4.f32") || strstr(ptx, "ld.global.v4.b32") || strstr(ptx, "ld.global.v4.u32");
            TT_CHECK(v4 == h, "hints %s: want %s16-byte loads in the PTX (%s)", h ? "on" : "off", h ? "" : "no ", tile_backend_name());
        }
        st = tile_kernel_ir(TILE_KERNEL_OF(hinted), o, &ir);
        TT_CHECK(st == TILE_OK && ir && strstr(ir, "max_constancy=128") && (!h || (strstr(ir, "multiple_of=4") && strstr(ir, "max_contiguous=128"))),
                 "the IR shows the hints (hints %s)", h ? "on" : "off");
        tile_free_text(ptx);
        tile_free_text(ir);
    }
}

/* ---- tl_assume ----------------------------------------------------------------------------- */
TILE_KERNEL(assumed, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_i32, n))
{
    tl_t offs = tl_arange(0, 64);
    tl_assume(tl_gt(n, 0));
    tl_assume(tl_lt(offs, 64));   /* a tile: each element */
    tl_t m = tl_lt(offs, n);
    tl_store(tl_add(y, offs), tl_mul(tl_load(tl_add(x, offs), .mask = m), 2.0f), .mask = m);
}

static void test_assume(void) {
    float hx[64], hy[64];
    float *x = tile_malloc(sizeof hx), *y = tile_malloc(sizeof hy);
    for (int i = 0; i < 64; i++) hx[i] = (float)tt_uniform(-8, 8);
    tile_memcpy_htod(x, hx, sizeof hx);
    tile_memset(y, 0xff, sizeof hy);
    int n = (int)tt_int(1, 64);
    TT_OK(assumed(TILE_OPTS(.grid = {1}), x, y, n));
    tile_memcpy_dtoh(hy, y, sizeof hy);
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += i < n ? hy[i] != 2 * hx[i] : !isnan(hy[i]);
    TT_CHECK(bad == 0, "tl_assume: a kernel with two assumptions, n = %d: %d of 64 wrong", n, bad);
    char *ir = NULL, *ptx = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(assumed), TILE_OPTS(.grid = {1}), &ir);
    TT_CHECK(st == TILE_OK && ir && strstr(ir, "assume") && strstr(ir, "tl_gt(n, 0)"), "tl_assume: the IR shows the assumption");
    st = tile_kernel_ptx(TILE_KERNEL_OF(assumed), TILE_OPTS(.grid = {1}), "sm_80", &ptx);
    TT_CHECK(st == TILE_OK && ptx, "tl_assume: the PTX (%s): %s", tile_backend_name(), tile_last_error());
    tile_free_text(ir);
    tile_free_text(ptx);
    /* false: the interpreter says so at the line; a GPU takes it on trust */
    if (strcmp(tile_backend_name(), "interp") == 0) {
        tile_set_log(quiet_log, NULL);
        st = assumed(TILE_OPTS(.grid = {1}), x, y, 0);
        tile_set_log(NULL, NULL);
        TT_CHECK(st == TILE_ERR_ASSERT && strstr(tile_last_error(), "tl_assume(tl_gt(n, 0)) does not hold in program (0,0,0)"),
                 "tl_assume false in the interpreter: want TILE_ERR_ASSERT; got %s: %s", tile_status_id(st), tile_last_error());
    } else {
        printf("skipped: a false tl_assume is checked by the interpreter only (the GPU code takes it on trust)\n");
    }
    tile_free(x);
    tile_free(y);
}

/* ---- tl_reduce / tl_associative_scan with a combine function -------------------------------- */
static tl_t max_abs(tl_t a, tl_t b) { return tl_maximum(tl_abs(a), tl_abs(b)); }
/* 2x2 matrices of u32 (row-major a b / c d), multiplied mod 2^32: associative, not commutative */
static void mat_mul(const tl_t *x, const tl_t *y, tl_t *out) {
    out[0] = tl_add(tl_mul(x[0], y[0]), tl_mul(x[1], y[2]));
    out[1] = tl_add(tl_mul(x[0], y[1]), tl_mul(x[1], y[3]));
    out[2] = tl_add(tl_mul(x[2], y[0]), tl_mul(x[3], y[2]));
    out[3] = tl_add(tl_mul(x[2], y[1]), tl_mul(x[3], y[3]));
}
/* (value, index): the larger value, the smaller index on a tie */
static void arg_max(const tl_t *a, const tl_t *b, tl_t *out) {
    tl_t take_b = tl_logical_or(tl_gt(b[0], a[0]), tl_logical_and(tl_eq(b[0], a[0]), tl_lt(b[1], a[1])));
    out[0] = tl_where(take_b, b[0], a[0]);
    out[1] = tl_where(take_b, b[1], a[1]);
}
/* x -> m x + c composed: (m1, c1) then (m2, c2) is (m1 m2, m2 c1 + c2), mod 2^32 */
static void affine(const tl_t *a, const tl_t *b, tl_t *out) {
    out[0] = tl_mul(a[0], b[0]);
    out[1] = tl_add(tl_mul(b[0], a[1]), b[1]);
}
/* R x C tiles; reductions along AX into r*, scans along AX into s* (REV: reversed) */
TILE_KERNEL(combine_k, (tl_ptr_f32, x), (tl_ptr_u32, m), (tl_ptr_f32, rmax), (tl_ptr_u32, rmat), (tl_ptr_i32, rarg), (tl_ptr_f32, rall),
            (tl_ptr_u32, saff), (tl_ptr_f32, smax))
{
    int R = TL_META(R), C = TL_META(C), AX = TL_META(AX), REV = TL_META(REV);
    tl_t rows = tl_expand_dims(tl_arange(0, R), 1), cols = tl_expand_dims(tl_arange(0, C), 0);
    tl_t at = tl_add(tl_mul(rows, C), cols);   /* [R, C] */
    tl_t v = tl_load(tl_add(x, at));
    tl_t mats[4], prod[4];
    for (int k = 0; k < 4; k++) mats[k] = tl_load(tl_add(m, tl_add(tl_mul(at, 4), k)));
    int n = AX ? R : C;   /* results per reduction */
    tl_t ro = tl_arange(0, n);
    tl_store(tl_add(rmax, ro), tl_reduce(v, AX, max_abs));
    tl_reduce_n(4, mats, AX, mat_mul, prod);
    for (int k = 0; k < 4; k++) tl_store(tl_add(rmat, tl_add(tl_mul(ro, 4), k)), prod[k]);
    tl_t vi[2] = {v, tl_broadcast_to(AX ? cols : rows, R, C)}, best[2];
    tl_reduce_n(2, vi, AX, arg_max, best);
    tl_store(tl_add(rarg, ro), best[1]);
    tl_t all = tl_reduce(v, TL_ALL, max_abs, .keep_dims = 1);
    tl_static_assert(tl_rank(all) == 2 && tl_dim(all, 0) == 1 && tl_dim(all, 1) == 1, "TL_ALL with keep_dims: [1, 1]");
    tl_store(tl_add(rall, tl_zeros(TL_I32, 1, 1)), all);
    tl_t sc[2];
    tl_associative_scan_n(2, mats, AX, affine, sc, .reverse = REV);
    tl_store(tl_add(saff, tl_mul(at, 2)), sc[0]);
    tl_store(tl_add(saff, tl_add(tl_mul(at, 2), 1)), sc[1]);
    tl_store(tl_add(smax, at), tl_associative_scan(v, AX, max_abs, .reverse = REV));
}

static void mat2(uint32_t *acc, const uint32_t *y) {
    uint32_t r[4] = {acc[0] * y[0] + acc[1] * y[2], acc[0] * y[1] + acc[1] * y[3], acc[2] * y[0] + acc[3] * y[2], acc[2] * y[1] + acc[3] * y[3]};
    memcpy(acc, r, sizeof r);
}
static void test_combine(void) {
    enum { R = 8, C = 32, N = R * C };
    float hx[N], g_max[C], g_all, g_smax[N];
    uint32_t hm[N * 4], g_mat[C * 4], g_aff[N * 2];
    int32_t g_arg[C];
    float *x = tile_malloc(sizeof hx), *rmax = tile_malloc(sizeof g_max), *rall = tile_malloc(sizeof g_all), *smax = tile_malloc(sizeof g_smax);
    uint32_t *m = tile_malloc(sizeof hm), *rmat = tile_malloc(sizeof g_mat), *saff = tile_malloc(sizeof g_aff);
    int32_t *rarg = tile_malloc(sizeof g_arg);
    for (int ax = 0; ax < 2; ax++)
        for (int rev = 0; rev < 2; rev++) {
            for (int i = 0; i < N; i++) hx[i] = (float)tt_int(-20, 20) / 4;   /* ties and equal magnitudes */
            for (int i = 0; i < N * 4; i++) hm[i] = (uint32_t)tt_next();
            tile_memcpy_htod(x, hx, sizeof hx);
            tile_memcpy_htod(m, hm, sizeof hm);
            tile_memset(rmax, 0xff, sizeof g_max);
            tile_memset(rmat, 0xa5, sizeof g_mat);
            tile_memset(rarg, 0xa5, sizeof g_arg);
            tile_memset(rall, 0xff, sizeof g_all);
            tile_memset(saff, 0xa5, sizeof g_aff);
            tile_memset(smax, 0xff, sizeof g_smax);
            TT_OK(combine_k(TILE_OPTS(.grid = {1}, .meta = {{"R", R}, {"C", C}, {"AX", ax}, {"REV", rev}}), x, m, rmax, rmat, rarg, rall, saff, smax));
            int nres = ax ? R : C, len = ax ? C : R;
            tile_memcpy_dtoh(g_max, rmax, sizeof(float) * nres);
            tile_memcpy_dtoh(g_mat, rmat, sizeof(uint32_t) * 4 * nres);
            tile_memcpy_dtoh(g_arg, rarg, sizeof(int32_t) * nres);
            tile_memcpy_dtoh(&g_all, rall, sizeof g_all);
            tile_memcpy_dtoh(g_aff, saff, sizeof g_aff);
            tile_memcpy_dtoh(g_smax, smax, sizeof g_smax);
            int bad_max = 0, bad_mat = 0, bad_arg = 0, bad_aff = 0, bad_smax = 0;
            float all = 0;
            for (int i = 0; i < N; i++) all = fmaxf(all, fabsf(hx[i]));
            for (int o = 0; o < nres; o++) {
                float mx = 0, best = -INFINITY;
                int arg = 0;
                uint32_t acc[4] = {1, 0, 0, 1};
                for (int k = 0; k < len; k++) {
                    int i = ax ? o * C + k : k * C + o;
                    mx = fmaxf(mx, fabsf(hx[i]));
                    if (hx[i] > best) best = hx[i], arg = k;
                    mat2(acc, &hm[i * 4]);
                }
                bad_max += g_max[o] != mx;
                bad_arg += g_arg[o] != arg;
                bad_mat += memcmp(&g_mat[o * 4], acc, sizeof acc) != 0;
                /* scans in the scan's order (reversed: from the end): carry = combine(carry, x) */
                uint32_t cm = 1, cc = 0;
                float cmx = 0;
                for (int s = 0; s < len; s++) {
                    int k = rev ? len - 1 - s : s, i = ax ? o * C + k : k * C + o;
                    uint32_t m2 = hm[i * 4], c2 = hm[i * 4 + 1];
                    if (s == 0) cm = m2, cc = c2, cmx = hx[i];
                    else cc = m2 * cc + c2, cm = cm * m2, cmx = fmaxf(fabsf(cmx), fabsf(hx[i]));
                    bad_aff += g_aff[i * 2] != cm || g_aff[i * 2 + 1] != cc;
                    bad_smax += g_smax[i] != cmx;
                }
            }
            TT_CHECK(bad_max == 0 && bad_arg == 0 && g_all == all, "tl_reduce along %d: max |x| %d of %d wrong, argmax (tuple) %d wrong, TL_ALL %g (want %g)", ax,
                     bad_max, nres, bad_arg, (double)g_all, (double)all);
            TT_CHECK(bad_mat == 0, "tl_reduce_n along %d: 2x2 u32 matrix products (not commutative): %d of %d wrong", ax, bad_mat, nres);
            TT_CHECK(bad_aff == 0 && bad_smax == 0, "tl_associative_scan%s along %d: affine maps (tuple, not commutative) %d of %d wrong, max |x| %d wrong",
                     rev ? " reversed" : "", ax, bad_aff, N, bad_smax);
        }
    tile_free(x), tile_free(rmax), tile_free(rall), tile_free(smax), tile_free(m), tile_free(rmat), tile_free(saff), tile_free(rarg);
}

/* ---- dtype-generic kernels (tl_ptr) and pointer casts ------------------------------------- */
/* out = x converted to out's dtype: one body, a specialization per pair */
TILE_KERNEL(gen_convert, (tl_ptr, x), (tl_ptr, out), (tl_i32, n))
{
    tl_t offs = tl_add(tl_mul(tl_program_id(0), 64), tl_arange(0, 64)), m = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_cast(tl_load(tl_add(x, offs), .mask = m), tl_element_ty(out)), .mask = m);
}
/* out = x + y in f32, stored as out's dtype; x and y may differ */
TILE_KERNEL(gen_add, (tl_ptr, x), (tl_ptr, y), (tl_ptr, out), (tl_i32, n))
{
    tl_t offs = tl_add(tl_mul(tl_program_id(0), 64), tl_arange(0, 64)), m = tl_lt(offs, n);
    tl_t s = tl_add(tl_cast(tl_load(tl_add(x, offs), .mask = m), TL_F32), tl_cast(tl_load(tl_add(y, offs), .mask = m), TL_F32));
    tl_store(tl_add(out, offs), tl_cast(s, tl_element_ty(out)), .mask = m);
}
/* x and y must share a dtype: checked while building, reported with the launch */
static int same_line;
TILE_KERNEL(gen_same, (tl_ptr, x), (tl_ptr_f32, out), (tl_ptr, y))
{
    same_line = __LINE__ + 1;
    tl_static_assert(tl_element_ty(x) == tl_element_ty(y), "x and y must have one dtype");
    tl_store(out, tl_cast(tl_add(tl_load(x), tl_load(y)), TL_F32));
}
/* a pointer cast: the bits of f32s read as u32s and as bytes (offsets count the new dtype) */
TILE_KERNEL(ptr_casts, (tl_ptr_f32, x), (tl_ptr_u32, bits), (tl_ptr_u8, bytes))
{
    tl_t u = tl_ptr_cast(x, TL_U32), b = tl_ptr_cast(x, TL_U8);
    tl_static_assert(tl_element_ty(u) == TL_U32 && tl_element_ty(x) == TL_F32 && tl_dtype_of(u) == TL_PTR, "pointee dtypes");
    tl_store(tl_add(bits, tl_arange(0, 16)), tl_load(tl_add(u, tl_arange(0, 16))));
    tl_store(tl_add(bytes, tl_arange(0, 64)), tl_load(tl_add(b, tl_arange(0, 64))));
}

/* host side of the dtypes the generic tests use */
static void put_as(tl_dtype t, void *buf, int i, double v) {
    switch (t) {
    case TL_I8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case TL_I16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case TL_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case TL_U8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case TL_F16: ((tile_f16 *)buf)[i] = tile_f16_from(v); break;
    case TL_BF16: ((tile_bf16 *)buf)[i] = tile_bf16_from(v); break;
    case TL_F32: ((float *)buf)[i] = (float)v; break;
    case TL_F64: ((double *)buf)[i] = v; break;
    default: break;
    }
}
static double get_as(tl_dtype t, const void *buf, int i) {
    switch (t) {
    case TL_I8: return ((const int8_t *)buf)[i];
    case TL_I16: return ((const int16_t *)buf)[i];
    case TL_I32: return ((const int32_t *)buf)[i];
    case TL_U8: return ((const uint8_t *)buf)[i];
    case TL_F16: return tile_f16_to(((const tile_f16 *)buf)[i]);
    case TL_BF16: return tile_bf16_to(((const tile_bf16 *)buf)[i]);
    case TL_F32: return ((const float *)buf)[i];
    case TL_F64: return ((const double *)buf)[i];
    default: return 0;
    }
}

static void test_generic(void) {
    enum { N = 300 };
    static const tl_dtype src[] = {TL_I8, TL_I16, TL_I32, TL_U8, TL_F16, TL_BF16, TL_F32, TL_F64};
    static const tl_dtype dst[] = {TL_F16, TL_BF16, TL_F32, TL_F64, TL_I32};
    void *hx = malloc(N * 8), *hy = malloc(N * 8), *ho = malloc(N * 8);
    void *x = tile_malloc(N * 8), *y = tile_malloc(N * 8), *out = tile_malloc(N * 8);
    double ref[N];
    int G = (N + 63) / 64;
    /* 40 conversions from one body, each its own specialization */
    for (size_t a = 0; a < sizeof src / sizeof *src; a++)
        for (size_t b = 0; b < sizeof dst / sizeof *dst; b++) {
            int bad = 0;
            for (int i = 0; i < N; i++) {
                double v = src[a] >= TL_F16 ? tt_uniform(-100, 100) : (double)tt_int(src[a] == TL_U8 ? 0 : -100, 100);
                put_as(src[a], hx, i, v);
                double exact = get_as(src[a], hx, i);
                ref[i] = dst[b] == TL_I32 ? trunc(exact) : tile_round_to(dst[b], exact);
            }
            tile_memcpy_htod(x, hx, N * tile_dtype_size(src[a]));
            tile_memset(out, 0xa5, N * 8);
            TT_OK(gen_convert(TILE_OPTS(.grid = {G}), TILE_PTR(x, src[a]), TILE_PTR(out, dst[b]), N));
            tile_memcpy_dtoh(ho, out, N * tile_dtype_size(dst[b]));
            for (int i = 0; i < N; i++) bad += get_as(dst[b], ho, i) != ref[i];
            TT_CHECK(bad == 0, "gen_convert %s -> %s: %d of %d wrong", tile_dtype_name(src[a]), tile_dtype_name(dst[b]), bad, N);
        }
    /* mixed operands, the dtype from the C type (TILE_PTR with one argument) */
    {
        tile_f16 *hx16 = hx;
        tile_bf16 *hyb = hy;
        for (int i = 0; i < N; i++) {
            hx16[i] = tile_f16_from(tt_uniform(-4, 4));
            hyb[i] = tile_bf16_from(tt_uniform(-4, 4));
            ref[i] = (double)(float)(tile_f16_to(hx16[i]) + tile_bf16_to(hyb[i]));   /* exact in f32, one rounding to f32 */
        }
        tile_memcpy_htod(x, hx, N * 2);
        tile_memcpy_htod(y, hy, N * 2);
        tile_memset(out, 0xff, N * 8);
        TT_OK(gen_add(TILE_OPTS(.grid = {G}), TILE_PTR((tile_f16 *)x), TILE_PTR((const tile_bf16 *)y), TILE_PTR((float *)out), N));
        tile_memcpy_dtoh(ho, out, N * 4);
        int bad = 0;
        for (int i = 0; i < N; i++) bad += ((float *)ho)[i] != (float)ref[i];
        TT_CHECK(bad == 0, "gen_add f16 + bf16 -> f32: %d of %d wrong", bad, N);
    }
    /* each specialization is its own IR */
    {
        char *t16 = NULL, *t32 = NULL;
        tile_arg a16[4] = {{.p = x, .elem = TL_F16}, {.p = y, .elem = TL_F16}, {.p = out, .elem = TL_F16}, {.i = N}};
        tile_arg a32[4] = {{.p = x, .elem = TL_F32}, {.p = y, .elem = TL_BF16}, {.p = out, .elem = TL_F64}, {.i = N}};
        TT_OK(tile_kernel_ir_for(TILE_KERNEL_OF(gen_add), TILE_OPTS(.grid = {1}), a16, &t16));
        TT_OK(tile_kernel_ir_for(TILE_KERNEL_OF(gen_add), TILE_OPTS(.grid = {1}), a32, &t32));
        TT_CHECK(t16 && t32 && strstr(t16, "ptr<f16>") && !strstr(t16, "ptr<f32>") && strstr(t32, "ptr<bf16>") && strstr(t32, "ptr<f64>"),
                 "tile_kernel_ir_for: the pointee dtypes are the arguments'");
        tile_free_text(t16);
        tile_free_text(t32);
        char *ptx = NULL;
        TT_OK(tile_kernel_ptx_for(TILE_KERNEL_OF(gen_add), TILE_OPTS(.grid = {1}), a16, NULL, &ptx));   /* TILE_ARCH, or sm_90a */
        TT_CHECK(ptx && strstr(ptx, ".entry gen_add"), "tile_kernel_ptx_for: the PTX of the f16 specialization");
        tile_free_text(ptx);
    }
    /* pointer casts */
    {
        float f[16];
        uint32_t bits[16];
        uint8_t bytes[64];
        for (int i = 0; i < 16; i++) f[i] = (float)tt_uniform(-1e6, 1e6);
        uint32_t *dbits = tile_malloc(sizeof bits);
        uint8_t *dbytes = tile_malloc(sizeof bytes);
        tile_memcpy_htod(x, f, sizeof f);
        tile_memset(dbits, 0xa5, sizeof bits);
        tile_memset(dbytes, 0xa5, sizeof bytes);
        TT_OK(ptr_casts(TILE_OPTS(.grid = {1}), x, dbits, dbytes));
        tile_memcpy_dtoh(bits, dbits, sizeof bits);
        tile_memcpy_dtoh(bytes, dbytes, sizeof bytes);
        TT_CHECK(memcmp(bits, f, sizeof f) == 0 && memcmp(bytes, f, sizeof f) == 0, "tl_ptr_cast: f32 memory read as u32 and as u8");
        tile_free(dbits);
        tile_free(dbytes);
    }
    /* user errors: a dtype combination the body refuses, at the body's line
       and naming the launch; a tl_ptr argument without a dtype; the IR of a
       generic kernel without arguments */
    {
        tile_set_log(quiet_log, NULL);
        int launch_line = __LINE__ + 1;
        tile_status st = gen_same(TILE_OPTS(.grid = {1}), TILE_PTR(x, TL_F16), out, TILE_PTR(y, TL_F32));
        char want[160];
        snprintf(want, sizeof want, "(built for x *f16, y *f32, launched at %s:%d)", __FILE__, launch_line);
        tt_check_user_error("gen_same f16 and f32", st, TILE_ERR_ASSERT, "test_lang.c", same_line, want);
        TT_OK(gen_same(TILE_OPTS(.grid = {1}), TILE_PTR(x, TL_BF16), out, TILE_PTR(y, TL_BF16)));
        tile_arg bad[4] = {{.p = x}, {.p = y}, {.p = out}, {.i = N}};
        int bad_line = __LINE__ + 1;
        st = tile_launch_kernel(TILE_KERNEL_OF(gen_add), TILE_OPTS(.grid = {1}), bad);
        tt_check_user_error("a tl_ptr without a dtype", st, TILE_ERR_ARG, "test_lang.c", bad_line,
                            "argument 1 (x) is a tl_ptr and has no dtype (0): pass TILE_PTR(p, TL_F16)");
        char *text = NULL;
        int ir_line = __LINE__ + 1;
        st = tile_kernel_ir(TILE_KERNEL_OF(gen_add), TILE_OPTS(.grid = {1}), &text);
        tt_check_user_error("tile_kernel_ir of a generic kernel", st, TILE_ERR_ARG, "test_lang.c", ir_line,
                            "gen_add's parameter x is a tl_ptr, whose dtype comes from the launch's argument: build it with tile_kernel_ir_for");
        TT_CHECK(text == NULL, "tile_kernel_ir failed and gave no text");
        tile_set_log(NULL, NULL);
    }
    free(hx);
    free(hy);
    free(ho);
    tile_free(x);
    tile_free(y);
    tile_free(out);
}

/* ---- user errors ------------------------------------------------------------------------------- */
static tl_t to_int(tl_t a, tl_t b) { return tl_cast(tl_add(a, b), TL_I32); }
static int err_line;
TILE_KERNEL(bad_hint, (tl_ptr_f32, x), (tl_i32, n))
{
    int WHICH = TL_META(WHICH);
    tl_t v = tl_load(tl_add(x, tl_arange(0, 16)));
    tl_t r = v, q = v;
    err_line = __LINE__ + 2;
    switch (WHICH) {
    case 0: r = tl_multiple_of(v, 16); break;                       /* a float */
    case 1: r = tl_max_contiguous(n, 0); break;                     /* n < 1 */
    case 2: r = tl_reduce_or(v, 0); break;                          /* a float */
    case 3: r = tl_reduce_and(tl_cast(v, TL_I32), 0, .dtype = TL_I64); break;   /* no .dtype */
    case 4: tl_swizzle2d(v, 0, 4, 4, 2, &r, &q); break;             /* a float */
    case 5: tl_swizzle2d(n, 0, 4, 4, 2, &r, NULL); break;           /* no place for new_j */
    case 6: r = tl_gather(v, v, 0); break;                          /* a float index */
    case 7: r = tl_gather(v, tl_zeros(TL_I32, 16, 1), 0); break;    /* another rank */
    case 8: r = tl_gather(tl_zeros(TL_F32, 4, 16), tl_zeros(TL_I32, 8, 8), 0); break;   /* dim 1 differs */
    case 9: r = tl_histogram(v, 16); break;                           /* floats */
    case 10: r = tl_histogram(tl_cast(v, TL_I32), 12); break;        /* not a power of two */
    case 11: r = tl_sort(n); break;                                   /* a scalar */
    case 12: r = tl_sort(v, 1); break;                                /* no dim 1 */
    case 13: r = tl_sort(v, 0, 2); break;                             /* descending is 0 or 1 */
    case 14: r = tl_sort(tl_add(x, tl_arange(0, 16))); break;         /* pointers */
    case 15: r = tl_topk(v, 3); break;                                /* k not a power of two */
    case 16: r = tl_load(tl_make_block_ptr(x, (n), (1), (0), (16), (0)), .mask = tl_lt(tl_arange(0, 16), n)); break;   /* a mask */
    case 17: r = tl_load(tl_make_block_ptr(x, (n), (1), (0), (16), (0)), .boundary_check = TL_DIMS(1)); break;         /* no dim 1 */
    case 18: r = tl_add(tl_make_block_ptr(x, (n), (1), (0), (16), (0)).tl__hdr, 1); break;                                /* computed on */
    case 19: r = tl_load(tl_make_block_ptr(x, (n, n), (n, 1), (0, 0), (4, 4), (1, 1))); break;                         /* order */
    case 20: { tl_block_ptr b = tl_make_block_ptr(x, (n), (1), (0), (16), (0)); TL_FOR (i, 0, n, 1, b) { b = tl_make_block_ptr(x, (n), (1), (i), (16), (0)); } } break;
    case 21: r = tl_load(tl_add(x, tl_arange(0, 16)), .boundary_check = TL_DIMS(0)); break;                          /* not a block pointer */
    case 22: r = tl_ptr_cast(v, TL_I32); break;                                                                        /* not a pointer */
    case 23: r = tl_cast(x, TL_I64); break;                                                                            /* a pointer */
    case 24: r = tl_reduce(v, 0, to_int); break;                                                                       /* changes the dtype */
    case 25: r = tl_associative_scan(n, 0, max_abs); break;                                                            /* a scalar */
    case 26: r = tl_reduce(v, 0, max_abs, .dtype = TL_F64); break;                                                     /* a .dtype */
    default: tl_assume(v); break;                                                                                      /* a float */
    }
    tl_store(tl_add(x, tl_arange(0, 16)), tl_add(tl_cast(r, TL_F32), tl_cast(q, TL_F32)));
}

static void test_errors(void) {
    static const struct {
        tile_status st;
        const char *text;
    } want[] = {
        {TILE_ERR_DTYPE, "tl_multiple_of: integers or pointers only"},
        {TILE_ERR_VALUE, "tl_max_contiguous: n must be at least 1"},
        {TILE_ERR_DTYPE, "tl_reduce_or: integers or i1 only"},
        {TILE_ERR_VALUE, "tl_reduce_and: no .dtype"},
        {TILE_ERR_DTYPE, "tl_swizzle2d: integers only (operand 1"},
        {TILE_ERR_VALUE, "tl_swizzle2d: new_i and new_j must point to the results"},
        {TILE_ERR_DTYPE, "tl_gather: the index must be an integer tile"},
        {TILE_ERR_SHAPE, "must be tiles of one rank"},
        {TILE_ERR_SHAPE, "tl_gather: dim 1 of the index"},
        {TILE_ERR_DTYPE, "tl_histogram: the input must be integers"},
        {TILE_ERR_BLOCK, "tl_histogram: num_bins must be a power of two"},
        {TILE_ERR_AXIS, "tl_sort: cannot sort a scalar"},
        {TILE_ERR_AXIS, "tl_sort: dim 1 is out of range for a tile of rank 1"},
        {TILE_ERR_VALUE, "tl_sort: descending must be 0 or 1 (got 2)"},
        {TILE_ERR_DTYPE, "tl_sort: not on pointers"},
        {TILE_ERR_VALUE, "tl_topk: k must be a power of two from 1 to dim 0's 16 (got 3)"},
        {TILE_ERR_VALUE, "tl_load: `mask` and `other` are not taken through a block pointer"},
        {TILE_ERR_AXIS, "tl_load: boundary_check names dim 1 for a block pointer of 1 dims"},
        {TILE_ERR_DTYPE, "tl_add: an operand is a block pointer's header"},
        {TILE_ERR_VALUE, "tl_make_block_ptr: order must be a permutation of the dims 0 to 1 (got 1 at 1)"},
        {TILE_ERR_CARRY, "TL_FOR: the carried block pointer 'b' was made anew in the body"},
        {TILE_ERR_VALUE, "tl_load: `boundary_check` is for block pointers"},
        {TILE_ERR_DTYPE, "tl_ptr_cast: f32[16] is not a pointer (tl_cast converts values)"},
        {TILE_ERR_DTYPE, "tl_cast: a pointer is not a value to convert (tl_ptr_cast gives it another pointee)"},
        {TILE_ERR_DTYPE, "tl_reduce: the combine function returned i32[8] for an operand of dtype f32 (it must keep the operands' dtypes)"},
        {TILE_ERR_DTYPE, "tl_associative_scan: operand 0 is a scalar (i32)"},
        {TILE_ERR_VALUE, "tl_reduce: no .dtype: the results have the operands' dtypes"},
        {TILE_ERR_DTYPE, "tl_assume: the condition must be i1 or an integer (got f32[16])"},
    };
    float *x = tile_malloc(16 * sizeof(float));
    tile_memset(x, 0, 16 * sizeof(float));
    tile_set_log(quiet_log, NULL);
    for (int w = 0; w < (int)(sizeof want / sizeof *want); w++) {
        char what[32];
        snprintf(what, sizeof what, "error case %d", w);
        tile_status st = bad_hint(TILE_OPTS(.grid = {1}, .meta = {{"WHICH", w}}), x, 3);   /* first: the build sets err_line */
        tt_check_user_error(what, st, want[w].st, "test_lang.c", err_line + w, want[w].text);
    }
    tile_set_log(NULL, NULL);
    tile_free(x);
}

int main(void) {
    tt_seed();
    test_params();
    test_rank0();
    test_reduce_bits();
    test_swizzle();
    test_flip();
    test_gather();
    test_histogram();
    test_sort();
    test_block_ptr();
    test_static();
    test_hints();
    test_assume();
    test_combine();
    test_generic();
    test_errors();
    return tt_finish("test_lang");
}
