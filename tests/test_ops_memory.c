/* tests/test_ops_memory.c — tl_load, tl_store and the atomics in the
   interpreter, each checked against a C reference on fresh random data.

   Memory is where a kernel meets the user's buffers, so this covers what a
   port of a Triton kernel leans on: masks with `other` (a double or a tile),
   scalar pointers and 2-D pointer tiles built from strides, cache and
   eviction hints (accepted, results unchanged), scalar values broadcast by a
   store, every dtype in memory (f16, bf16 and fp8 stores round to nearest
   even; the reference rounds by searching a table of every value of the
   format, not by the library's arithmetic), the out-of-bounds detector (the
   error names the line of the tl_load/tl_store; masked-off lanes may point
   anywhere), pointer arguments not from tile_malloc, and atomics under
   contention: integer results exact, and the old values returned must be
   one valid serialization of the updates. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#define BLK 64
#define OPTS1(g) TILE_OPTS(.grid = {(g)}, .meta = {{"BLOCK", BLK}})

static void quiet_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}

/* offs = pid * BLOCK + arange(0, BLOCK) */
static tl_t block_offsets(void) {
    int B = TL_META(BLOCK);
    return tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
}

/* ---- masks and `other` ------------------------------------------------------ */
TILE_KERNEL(copy_other, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_ptr_f32, out_m), (tl_i32, n))
{
    tl_t offs = block_offsets();
    tl_t m = tl_lt(offs, n);
    tl_t v = tl_load(tl_add(x, offs), .mask = m, .other = -2.5);
    tl_store(tl_add(out, offs), v);
    tl_store(tl_add(out_m, offs), tl_mul(v, 3.0), .mask = m);
}

TILE_KERNEL(load_other_v, (tl_ptr_i32, x), (tl_ptr_i32, out1), (tl_ptr_i32, out2), (tl_ptr_i32, out3), (tl_i32, n),
            (tl_i32, fill))
{
    tl_t offs = block_offsets();
    tl_t m = tl_lt(offs, n);
    tl_store(tl_add(out1, offs), tl_load(tl_add(x, offs), .mask = m, .other_v = tl_mul(offs, -1)));
    tl_store(tl_add(out2, offs), tl_load(tl_add(x, offs), .mask = m, .other_v = fill));
    tl_store(tl_add(out3, offs), tl_load(tl_add(x, offs), .mask = m, .other = -7));
}

static void test_masks(void) {
    int n = (int)tt_int(100, 250);
    unsigned g = tile_cdiv(n, BLK);
    int total = (int)g * BLK;
    float *x = tile_malloc((size_t)n * 4), *out = tile_malloc((size_t)total * 4), *out_m = tile_malloc((size_t)total * 4);
    for (int i = 0; i < n; i++) x[i] = (float)tt_normal();
    tt_poison(out, (size_t)total * 4);
    tt_poison(out_m, (size_t)total * 4);
    TT_OK(copy_other(OPTS1(g), x, out, out_m, n));
    uint32_t poison;
    memset(&poison, 0xA5, 4);
    int bad = 0, badm = 0;
    for (int i = 0; i < total; i++) {
        float want = i < n ? x[i] : -2.5f;
        if (out[i] != want) bad++;
        uint32_t bits;
        memcpy(&bits, &out_m[i], 4);
        if (i < n ? out_m[i] != (float)((double)x[i] * 3.0) : bits != poison) badm++;
    }
    TT_CHECK(bad == 0, "copy_other: %d lanes of the .other = -2.5 load are wrong", bad);
    TT_CHECK(badm == 0, "copy_other: %d lanes of the masked store are wrong (masked-off lanes must stay untouched)", badm);
    tile_free(x);
    tile_free(out);
    tile_free(out_m);

    n = (int)tt_int(70, 190);
    g = tile_cdiv(n, BLK);
    total = (int)g * BLK;
    int32_t fill = (int32_t)tt_int(-100000, 100000);
    int32_t *xi = tile_malloc((size_t)n * 4), *o1 = tile_malloc((size_t)total * 4), *o2 = tile_malloc((size_t)total * 4),
            *o3 = tile_malloc((size_t)total * 4);
    for (int i = 0; i < n; i++) xi[i] = (int32_t)tt_int(INT32_MIN, INT32_MAX);
    tt_poison(o1, (size_t)total * 4);
    tt_poison(o2, (size_t)total * 4);
    tt_poison(o3, (size_t)total * 4);
    TT_OK(load_other_v(OPTS1(g), xi, o1, o2, o3, n, fill));
    int b1 = 0, b2 = 0, b3 = 0;
    for (int i = 0; i < total; i++) {
        b1 += o1[i] != (i < n ? xi[i] : -i);
        b2 += o2[i] != (i < n ? xi[i] : fill);
        b3 += o3[i] != (i < n ? xi[i] : -7);
    }
    TT_CHECK(b1 == 0, "load .other_v = tile: %d lanes wrong", b1);
    TT_CHECK(b2 == 0, "load .other_v = scalar argument: %d lanes wrong", b2);
    TT_CHECK(b3 == 0, "load .other = -7 into i32: %d lanes wrong", b3);
    tile_free(xi);
    tile_free(o1);
    tile_free(o2);
    tile_free(o3);
}

/* ---- scalar pointers, 2-D pointer tiles, hints, scalar stores ------------------ */
TILE_KERNEL(scalar_ptr, (tl_ptr_f64, x), (tl_ptr_f64, out))
{
    tl_t pid = tl_program_id(0);
    tl_t v = tl_load(tl_add(x, pid));
    tl_t first = tl_load(x);
    tl_store(tl_add(out, pid), tl_add(tl_mul(v, v), first));
}

TILE_KERNEL(transpose2d, (tl_ptr_f32, a), (tl_ptr_f32, out), (tl_i32, M), (tl_i32, N), (tl_i32, sam), (tl_i32, san))
{
    int BM = TL_META(BM), BN = TL_META(BN);
    tl_t rm = tl_expand_dims(tl_add(tl_mul(tl_program_id(0), BM), tl_arange(0, BM)), 1);
    tl_t rn = tl_expand_dims(tl_add(tl_mul(tl_program_id(1), BN), tl_arange(0, BN)), 0);
    tl_t m = tl_and(tl_lt(rm, M), tl_lt(rn, N));
    tl_t v = tl_load(tl_add(a, tl_add(tl_mul(rm, sam), tl_mul(rn, san))), .mask = m, .other = 0.0);
    tl_store(tl_add(out, tl_add(tl_mul(rn, M), rm)), tl_add(v, 1.0), .mask = m);
}

TILE_KERNEL(copy_hints, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n))
{
    tl_t offs = block_offsets();
    tl_t m = tl_lt(offs, n);
    tl_t a = tl_load(tl_add(x, offs), .mask = m, .cache = TL_CACHE_CG, .eviction = TL_EVICT_FIRST);
    tl_t b = tl_load(tl_add(x, offs), .mask = m, .cache = TL_CACHE_CA, .eviction = TL_EVICT_LAST, .is_volatile = 1);
    tl_t c = tl_load(tl_add(x, offs), .mask = m, .other = 0.0, .cache = TL_CACHE_CV);
    tl_store(tl_add(out, offs), tl_add(tl_add(a, b), c), .mask = m, .cache = TL_CACHE_WT, .eviction = TL_EVICT_LAST);
    tl_store(tl_add(out, tl_add(offs, n)), a, .mask = m, .cache = TL_CACHE_CS, .eviction = TL_EVICT_FIRST);
}

TILE_KERNEL(store_scalar, (tl_ptr_f32, out), (tl_ptr_i16, outi), (tl_f32, val), (tl_i32, n))
{
    tl_t offs = block_offsets();
    tl_t m = tl_lt(offs, n);
    tl_store(tl_add(out, offs), val, .mask = m);
    tl_store(tl_add(outi, offs), -7, .mask = m);
    tl_store(tl_add(outi, n), 1234);
    tl_store(tl_add(out, n), 0.75);
}

/* lanes of one pointer tile in two allocations; a mask that broadcasts */
TILE_KERNEL(two_blocks, (tl_ptr_f32, a), (tl_ptr_f32, b), (tl_ptr_f32, out))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t p = tl_where(tl_eq(tl_mod(offs, 2), 0), tl_add(a, offs), tl_add(b, offs));
    tl_store(tl_add(out, offs), tl_load(p));
}
TILE_KERNEL(row_mask, (tl_ptr_f32, a), (tl_ptr_f32, out), (tl_i32, M))
{
    tl_t rm = tl_expand_dims(tl_arange(0, 16), 1), rn = tl_expand_dims(tl_arange(0, 16), 0);
    tl_t at = tl_add(tl_mul(rm, 16), rn);
    tl_store(tl_add(out, at), tl_load(tl_add(a, at), .mask = tl_lt(rm, M), .other = -1.0));
}

static void test_pointers(void) {
    /* scalar pointers: one element per program */
    unsigned g = (unsigned)tt_int(20, 50);
    double *x = tile_malloc(g * 8), *out = tile_malloc(g * 8);
    for (unsigned i = 0; i < g; i++) x[i] = tt_normal();
    tt_poison(out, g * 8);
    TT_OK(scalar_ptr(TILE_OPTS(.grid = {g}), x, out));
    double *want = malloc(g * 8);
    for (unsigned i = 0; i < g; i++) want[i] = x[i] * x[i] + x[0];
    tt_check_close("scalar_ptr", out, want, g, 0, 0);
    free(want);
    int bad;
    tile_free(x);
    tile_free(out);

    /* 2-D pointer tiles from strides, row-major and column-major inputs */
    for (int colmajor = 0; colmajor < 2; colmajor++) {
        int M = (int)tt_int(17, 60), N = (int)tt_int(33, 90);
        int sam = colmajor ? 1 : N, san = colmajor ? M : 1;
        float *a = tile_malloc((size_t)M * N * 4), *o = tile_malloc((size_t)M * N * 4);
        for (int i = 0; i < M * N; i++) a[i] = (float)tt_uniform(-4, 4);
        tt_poison(o, (size_t)M * N * 4);
        TT_OK(transpose2d(TILE_OPTS(.grid = {tile_cdiv(M, 16), tile_cdiv(N, 32)}, .meta = {{"BM", 16}, {"BN", 32}}), a, o, M, N, sam,
                          san));
        bad = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) bad += o[j * M + i] != (float)((double)a[i * sam + j * san] + 1.0);
        TT_CHECK(bad == 0, "transpose2d (%s, M=%d N=%d): %d elements wrong", colmajor ? "column-major" : "row-major", M, N, bad);
        tile_free(a);
        tile_free(o);
    }

    /* cache and eviction hints change nothing */
    int n = (int)tt_int(65, 300);
    g = tile_cdiv(n, BLK);
    float *xf = tile_malloc((size_t)n * 4), *of = tile_malloc((size_t)n * 8);
    for (int i = 0; i < n; i++) xf[i] = (float)tt_normal();
    tt_poison(of, (size_t)n * 8);
    TT_OK(copy_hints(OPTS1(g), xf, of, n));
    bad = 0;
    for (int i = 0; i < n; i++) bad += of[i] != (float)((double)xf[i] * 3.0) || of[n + i] != xf[i];
    TT_CHECK(bad == 0, "copy_hints: %d of %d elements wrong", bad, n);
    tile_free(xf);
    tile_free(of);

    /* a scalar value broadcast by a store, and a scalar store */
    n = (int)tt_int(65, 300);
    g = tile_cdiv(n, BLK);
    float val = (float)tt_normal();
    float *os = tile_malloc((size_t)(n + 1) * 4);
    int16_t *oi = tile_malloc((size_t)(n + 1) * 2);
    tt_poison(os, (size_t)(n + 1) * 4);
    tt_poison(oi, (size_t)(n + 1) * 2);
    TT_OK(store_scalar(OPTS1(g), os, oi, val, n));
    bad = 0;
    for (int i = 0; i < n; i++) bad += os[i] != val || oi[i] != -7;
    TT_CHECK(bad == 0, "store_scalar: %d of %d lanes wrong", bad, n);
    TT_CHECK(oi[n] == 1234 && os[n] == 0.75f, "store_scalar: scalar stores gave %d and %g", oi[n], os[n]);
    tile_free(os);
    tile_free(oi);

    float *a = tile_malloc(BLK * 4), *b = tile_malloc(BLK * 4), *o2 = tile_malloc(BLK * 4);
    for (int i = 0; i < BLK; i++) {
        a[i] = (float)tt_normal();
        b[i] = (float)tt_normal();
    }
    tt_poison(o2, BLK * 4);
    TT_OK(two_blocks(TILE_OPTS(.grid = {1}), a, b, o2));
    bad = 0;
    for (int i = 0; i < BLK; i++) bad += o2[i] != (i % 2 == 0 ? a[i] : b[i]);
    TT_CHECK(bad == 0, "two_blocks: %d of %d lanes wrong", bad, BLK);
    tile_free(a);
    tile_free(b);
    tile_free(o2);

    int M = (int)tt_int(1, 15);
    float *ra = tile_malloc((size_t)M * 16 * 4), *ro = tile_malloc(256 * 4);
    for (int i = 0; i < M * 16; i++) ra[i] = (float)tt_normal();
    tt_poison(ro, 256 * 4);
    TT_OK(row_mask(TILE_OPTS(.grid = {1}), ra, ro, M));
    bad = 0;
    for (int i = 0; i < 256; i++) bad += ro[i] != (i / 16 < M ? ra[i] : -1.0f);
    TT_CHECK(bad == 0, "row_mask (a [16,1] mask on [16,16] pointers, M=%d): %d wrong", M, bad);
    tile_free(ra);
    tile_free(ro);
}

/* Triton: a store's value and mask broadcast *to* the pointers' shape (a
   tile value through a scalar pointer is an error), and `other` needs a mask */
static int line_widen1, line_widen2, line_other;
TILE_KERNEL(store_widen_scalar, (tl_ptr_f32, out))
{
    tl_store(out, tl_full(TL_F32, 1.0, BLK)); line_widen1 = __LINE__;
}
TILE_KERNEL(store_widen_tile, (tl_ptr_f32, out))
{
    tl_store(tl_add(out, tl_arange(0, BLK)), tl_full(TL_F32, 1.0, 2, BLK)); line_widen2 = __LINE__;
}
TILE_KERNEL(other_no_mask, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_t offs = tl_arange(0, BLK);
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs), .other_v = tl_full(TL_F32, 2.0, BLK))); line_other = __LINE__;
}
static void must_fail(tile_status st, tile_status want, int line, const char *what) {
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == want && e->line == line, "%s: %s at line %d, want %s at line %d", what, tile_status_id(st), e->line,
             tile_status_id(want), line);
}
static void test_store_shapes(void) {
    float *x = tile_malloc(2 * BLK * 4), *out = tile_malloc(2 * BLK * 4);
    for (int i = 0; i < 2 * BLK; i++) x[i] = (float)tt_normal();
    tile_set_log(quiet_log, NULL);
    tile_status st = store_widen_scalar(TILE_OPTS(.grid = {1}), out);
    must_fail(st, TILE_ERR_SHAPE, line_widen1, "tl_store of a [64] value through a scalar pointer");
    st = store_widen_tile(TILE_OPTS(.grid = {1}), out);
    must_fail(st, TILE_ERR_SHAPE, line_widen2, "tl_store of a [2,64] value through [64] pointers");
    st = other_no_mask(TILE_OPTS(.grid = {1}), x, out);
    must_fail(st, TILE_ERR_VALUE, line_other, "tl_load with .other_v and no .mask");
    tile_set_log(NULL, NULL);
    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(store_widen_scalar));
    tile_kernel_release(TILE_KERNEL_OF(store_widen_tile));
    tile_kernel_release(TILE_KERNEL_OF(other_no_mask));
}

/* ---- every dtype in memory ----------------------------------------------------------- */
static void copy_body(tl_t src, tl_t dst, tl_t n) {
    tl_t offs = block_offsets();
    tl_t m = tl_lt(offs, n);
    tl_store(tl_add(dst, offs), tl_load(tl_add(src, offs), .mask = m), .mask = m);
}
/* rt_T: T -> T; in_T: W -> T (the store converts); out_T: T -> W (the load's value converts) */
#define IO_KERNELS(T, W)                                                                             \
    TILE_KERNEL(rt_##T, (tl_ptr_##T, src), (tl_ptr_##T, dst), (tl_i32, n)) { copy_body(src, dst, n); } \
    TILE_KERNEL(in_##T, (tl_ptr_##W, src), (tl_ptr_##T, dst), (tl_i32, n)) { copy_body(src, dst, n); } \
    TILE_KERNEL(out_##T, (tl_ptr_##T, src), (tl_ptr_##W, dst), (tl_i32, n)) { copy_body(src, dst, n); }
IO_KERNELS(i8, i64)
IO_KERNELS(i16, i64)
IO_KERNELS(i32, i64)
IO_KERNELS(u8, i64)
IO_KERNELS(u16, i64)
IO_KERNELS(u32, i64)
IO_KERNELS(u64, i64)
IO_KERNELS(f16, f64)
IO_KERNELS(bf16, f64)
IO_KERNELS(f32, f64)
IO_KERNELS(f8e4m3, f64)
IO_KERNELS(f8e5m2, f64)
TILE_KERNEL(rt_i64, (tl_ptr_i64, src), (tl_ptr_i64, dst), (tl_i32, n)) { copy_body(src, dst, n); }
TILE_KERNEL(rt_f64, (tl_ptr_f64, src), (tl_ptr_f64, dst), (tl_i32, n)) { copy_body(src, dst, n); }

#define KREL(T)                                          \
    do {                                                 \
        tile_kernel_release(TILE_KERNEL_OF(rt_##T));     \
        tile_kernel_release(TILE_KERNEL_OF(in_##T));     \
        tile_kernel_release(TILE_KERNEL_OF(out_##T));    \
    } while (0)

/* integers: the round trip keeps the bits; widening sign- or zero-extends;
   narrowing keeps the low bytes (little-endian hosts) */
#define IO_INT_TEST(T, CT, SIGNED)                                                                          \
    static void test_io_##T(void) {                                                                         \
        int n = (int)tt_int(100, 300), b_rt = 0, b_out = 0, b_in = 0;                                       \
        unsigned g = tile_cdiv(n, BLK);                                                                     \
        CT *src = tile_malloc((size_t)n * sizeof(CT)), *dst = tile_malloc((size_t)n * sizeof(CT));          \
        int64_t *wide = tile_malloc((size_t)n * 8), *wout = tile_malloc((size_t)n * 8);                     \
        for (int i = 0; i < n; i++) {                                                                       \
            uint64_t r = tt_next(), w = tt_next();                                                          \
            memcpy(&src[i], &r, sizeof(CT));                                                                \
            memcpy(&wide[i], &w, 8);                                                                        \
        }                                                                                                   \
        tt_poison(dst, (size_t)n * sizeof(CT));                                                             \
        tt_poison(wout, (size_t)n * 8);                                                                     \
        TT_OK(rt_##T(OPTS1(g), src, dst, n));                                                               \
        TT_OK(out_##T(OPTS1(g), src, wout, n));                                                             \
        for (int i = 0; i < n; i++) {                                                                       \
            uint64_t want = SIGNED ? (uint64_t)(int64_t)src[i] : (uint64_t)src[i];                          \
            b_rt += memcmp(&src[i], &dst[i], sizeof(CT)) != 0;                                              \
            b_out += (uint64_t)wout[i] != want;                                                             \
        }                                                                                                   \
        tt_poison(dst, (size_t)n * sizeof(CT));                                                             \
        TT_OK(in_##T(OPTS1(g), wide, dst, n));                                                              \
        for (int i = 0; i < n; i++) b_in += memcmp(&dst[i], &wide[i], sizeof(CT)) != 0;                     \
        TT_CHECK(b_rt == 0, #T ": %d of %d elements changed in a load/store round trip", b_rt, n);          \
        TT_CHECK(b_out == 0, #T ": %d of %d elements wrong when loaded and stored as i64", b_out, n);       \
        TT_CHECK(b_in == 0, #T ": %d of %d i64 values not truncated to " #T " by the store", b_in, n);     \
        tile_free(src);                                                                                     \
        tile_free(dst);                                                                                     \
        tile_free(wide);                                                                                    \
        tile_free(wout);                                                                                    \
        KREL(T);                                                                                            \
    }
IO_INT_TEST(i8, int8_t, 1)
IO_INT_TEST(i16, int16_t, 1)
IO_INT_TEST(i32, int32_t, 1)
IO_INT_TEST(u8, uint8_t, 0)
IO_INT_TEST(u16, uint16_t, 0)
IO_INT_TEST(u32, uint32_t, 0)
IO_INT_TEST(u64, uint64_t, 0)

static void test_io_64(void) {
    int n = (int)tt_int(100, 300), bi = 0, bf = 0;
    unsigned g = tile_cdiv(n, BLK);
    int64_t *si = tile_malloc((size_t)n * 8), *di = tile_malloc((size_t)n * 8);
    double *sf = tile_malloc((size_t)n * 8), *df = tile_malloc((size_t)n * 8);
    for (int i = 0; i < n; i++) {
        uint64_t r = tt_next();
        memcpy(&si[i], &r, 8);
        sf[i] = tt_normal() * ldexp(1.0, (int)tt_int(-1000, 1000));
    }
    tt_poison(di, (size_t)n * 8);
    tt_poison(df, (size_t)n * 8);
    TT_OK(rt_i64(OPTS1(g), si, di, n));
    TT_OK(rt_f64(OPTS1(g), sf, df, n));
    for (int i = 0; i < n; i++) {
        bi += si[i] != di[i];
        bf += memcmp(&sf[i], &df[i], 8) != 0;
    }
    TT_CHECK(bi == 0, "i64 round trip: %d of %d wrong", bi, n);
    TT_CHECK(bf == 0, "f64 round trip: %d of %d wrong", bf, n);
    tile_free(si);
    tile_free(di);
    tile_free(sf);
    tile_free(df);
    tile_kernel_release(TILE_KERNEL_OF(rt_i64));
    tile_kernel_release(TILE_KERNEL_OF(rt_f64));
}

/* i1 in memory is a byte: any nonzero byte loads as true, stores write 0/1 */
TILE_KERNEL(io_i1, (tl_ptr_i1, src), (tl_ptr_i1, dst), (tl_ptr_i32, asint), (tl_i32, n))
{
    tl_t offs = block_offsets();
    tl_t m = tl_lt(offs, n);
    tl_t v = tl_load(tl_add(src, offs), .mask = m);
    tl_store(tl_add(dst, offs), tl_not(v), .mask = m);
    tl_store(tl_add(asint, offs), v, .mask = m);
}
static void test_io_i1(void) {
    int n = (int)tt_int(100, 300), bad = 0;
    unsigned g = tile_cdiv(n, BLK);
    uint8_t *src = tile_malloc((size_t)n), *dst = tile_malloc((size_t)n);
    int32_t *asint = tile_malloc((size_t)n * 4);
    static const uint8_t bytes[] = {0, 1, 2, 0x80, 0xff};
    for (int i = 0; i < n; i++) src[i] = bytes[tt_int(0, 4)];
    tt_poison(dst, (size_t)n);
    tt_poison(asint, (size_t)n * 4);
    TT_OK(io_i1(OPTS1(g), src, dst, asint, n));
    for (int i = 0; i < n; i++) bad += dst[i] != (src[i] == 0) || asint[i] != (src[i] != 0);
    TT_CHECK(bad == 0, "i1: %d of %d elements wrong", bad, n);
    tile_free(src);
    tile_free(dst);
    tile_free(asint);
    tile_kernel_release(TILE_KERNEL_OF(io_i1));
}

/* Narrow floats: this test's own decoder, and rounding by a search over the
   codes of the format (positive codes increase with their value). */
typedef struct fmt {
    const char *name;
    int eb, mb;  /* exponent and fraction bits                        */
    int fn;      /* e4m3 "fn": no infinity, only S.1111.111 is NaN   */
    int sat;     /* overflow gives the largest finite (satfinite)    */
} fmt;
static const fmt F16 = {"f16", 5, 10, 0, 0}, BF16 = {"bf16", 8, 7, 0, 0};
static const fmt E4M3 = {"f8e4m3", 4, 3, 1, 1}, E5M2 = {"f8e5m2", 5, 2, 0, 1};

static unsigned fmt_sign(const fmt *f) { return 1u << (f->eb + f->mb); }
static int fmt_isnan(const fmt *f, unsigned c) {
    unsigned mag = c & (fmt_sign(f) - 1), emax = (1u << f->eb) - 1;
    if (f->fn) return mag == fmt_sign(f) - 1;
    return (mag >> f->mb) == emax && (mag & ((1u << f->mb) - 1)) != 0;
}
static double fmt_dec(const fmt *f, unsigned c) {
    int bias = (1 << (f->eb - 1)) - 1;
    unsigned mag = c & (fmt_sign(f) - 1), e = mag >> f->mb, m = mag & ((1u << f->mb) - 1);
    double v;
    if (fmt_isnan(f, c)) return NAN;
    if (!f->fn && e == (1u << f->eb) - 1) v = INFINITY;
    else if (e == 0) v = ldexp((double)m, 1 - bias - f->mb);
    else v = ldexp((double)((1u << f->mb) + m), (int)e - bias - f->mb);
    return (c & fmt_sign(f)) ? -v : v;
}
static unsigned fmt_maxcode(const fmt *f) {
    return f->fn ? fmt_sign(f) - 2 : (((1u << f->eb) - 1) << f->mb) - 1;
}
static unsigned fmt_round(const fmt *f, double x) {
    unsigned s = signbit(x) ? fmt_sign(f) : 0, top = fmt_maxcode(f);
    double a = fabs(x), vmax = fmt_dec(f, top);
    if (a == 0) return s;
    if (a > vmax) {
        double ulp = vmax - fmt_dec(f, top - 1);
        if (f->sat || a < vmax + ulp / 2) return s | top;
        return s | (top + 1);   /* infinity */
    }
    unsigned lo = 0, hi = top;  /* the largest code whose value is <= a */
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (fmt_dec(f, mid) <= a) lo = mid;
        else hi = mid - 1;
    }
    if (fmt_dec(f, lo) == a) return s | lo;
    double d1 = a - fmt_dec(f, lo), d2 = fmt_dec(f, lo + 1) - a;
    if (d1 < d2) return s | lo;
    if (d2 < d1) return s | (lo + 1);
    return s | ((lo & 1) ? lo + 1 : lo);
}
/* a random code that is not NaN (infinity allowed) */
static unsigned fmt_random_code(const fmt *f) {
    for (;;) {
        unsigned c = (unsigned)(tt_next() & (2 * fmt_sign(f) - 1));
        if (!fmt_isnan(f, c)) return c;
    }
}
/* doubles that exercise rounding: random, exact ties, overflow, underflow */
static double fmt_random_input(const fmt *f) {
    unsigned top = fmt_maxcode(f);
    double vmax = fmt_dec(f, top), tiny = fmt_dec(f, 1), sgn = tt_int(0, 1) ? -1.0 : 1.0;
    switch (tt_int(0, 7)) {
    case 0: case 1: {
        unsigned c = (unsigned)tt_int(0, top - 1);
        return sgn * (fmt_dec(f, c) + fmt_dec(f, c + 1)) / 2;
    }
    case 2: return sgn * vmax * tt_uniform(1.0, 1.2);
    case 3: return sgn * (vmax + (vmax - fmt_dec(f, top - 1)) / 2);
    case 4: return sgn * tiny * tt_uniform(0, 3);
    case 5: return sgn * tiny / 2;
    default: {
        int bias = (1 << (f->eb - 1)) - 1;
        return sgn * tt_uniform(1, 2) * ldexp(1.0, (int)tt_int(1 - bias - f->mb, bias));
    }
    }
}

#define IO_FLT_TEST(T, CT, F)                                                                               \
    static void test_io_##T(void) {                                                                         \
        const fmt *f = &(F);                                                                                \
        int n = (int)tt_int(200, 400), b_rt = 0, b_out = 0, b_in = 0;                                       \
        unsigned g = tile_cdiv(n, BLK);                                                                     \
        CT *src = tile_malloc((size_t)n * sizeof(CT)), *dst = tile_malloc((size_t)n * sizeof(CT));          \
        double *wide = tile_malloc((size_t)n * 8), *wout = tile_malloc((size_t)n * 8);                      \
        for (int i = 0; i < n; i++) {                                                                       \
            src[i].bits = fmt_random_code(f);                                                               \
            wide[i] = fmt_random_input(f);                                                                  \
        }                                                                                                   \
        if (!f->fn) {                                                                                       \
            src[0].bits = fmt_maxcode(f) + 1;                                                               \
            src[1].bits = fmt_sign(f) | (fmt_maxcode(f) + 1);                                               \
        }                                                                                                   \
        tt_poison(dst, (size_t)n * sizeof(CT));                                                             \
        tt_poison(wout, (size_t)n * 8);                                                                     \
        TT_OK(rt_##T(OPTS1(g), src, dst, n));                                                               \
        TT_OK(out_##T(OPTS1(g), src, wout, n));                                                             \
        for (int i = 0; i < n; i++) {                                                                       \
            double want = fmt_dec(f, src[i].bits);                                                          \
            if (dst[i].bits != src[i].bits && b_rt++ < 3)                                                   \
                printf("  %s code 0x%x comes back as 0x%x\n", f->name, (unsigned)src[i].bits, (unsigned)dst[i].bits); \
            if (wout[i] != want || signbit(wout[i]) != signbit(want)) {                                     \
                if (b_out++ < 3) printf("  %s code 0x%x loads as %.17g, want %.17g\n", f->name, (unsigned)src[i].bits, wout[i], want); \
            }                                                                                               \
        }                                                                                                   \
        tt_poison(dst, (size_t)n * sizeof(CT));                                                             \
        TT_OK(in_##T(OPTS1(g), wide, dst, n));                                                              \
        for (int i = 0; i < n; i++) {                                                                       \
            unsigned want = fmt_round(f, wide[i]);                                                          \
            if (dst[i].bits != want && b_in++ < 3)                                                          \
                printf("  %.17g stored as %s 0x%x, want 0x%x\n", wide[i], f->name, (unsigned)dst[i].bits, want); \
        }                                                                                                   \
        TT_CHECK(b_rt == 0, #T ": %d of %d codes changed in a load/store round trip", b_rt, n);             \
        TT_CHECK(b_out == 0, #T ": %d of %d codes decoded wrong", b_out, n);                                \
        TT_CHECK(b_in == 0, #T ": %d of %d stores not rounded to nearest even", b_in, n);                   \
        tile_free(src);                                                                                     \
        tile_free(dst);                                                                                     \
        tile_free(wide);                                                                                    \
        tile_free(wout);                                                                                    \
        KREL(T);                                                                                            \
    }
IO_FLT_TEST(f16, tile_f16, F16)
IO_FLT_TEST(bf16, tile_bf16, BF16)
IO_FLT_TEST(f8e4m3, tile_f8e4m3, E4M3)
IO_FLT_TEST(f8e5m2, tile_f8e5m2, E5M2)

static void test_io_f32(void) {
    int n = (int)tt_int(200, 400), b_rt = 0, b_out = 0, b_in = 0;
    unsigned g = tile_cdiv(n, BLK);
    float *src = tile_malloc((size_t)n * 4), *dst = tile_malloc((size_t)n * 4);
    double *wide = tile_malloc((size_t)n * 8), *wout = tile_malloc((size_t)n * 8);
    for (int i = 0; i < n; i++) {
        src[i] = (float)(tt_normal() * ldexp(1.0, (int)tt_int(-140, 120)));
        switch (tt_int(0, 3)) {
        case 0: wide[i] = tt_normal() * ldexp(1.0, (int)tt_int(-160, 140)); break;
        case 1: {   /* an exact tie between two floats */
            float a = (float)tt_normal(), b = nextafterf(a, INFINITY);
            wide[i] = ((double)a + (double)b) / 2;
            break;
        }
        case 2: wide[i] = ldexp(tt_uniform(-3, 3), -149); break;   /* subnormal f32 */
        default: wide[i] = tt_uniform(-1, 1) * 1e39; break;       /* overflow */
        }
    }
    tt_poison(dst, (size_t)n * 4);
    tt_poison(wout, (size_t)n * 8);
    TT_OK(rt_f32(OPTS1(g), src, dst, n));
    TT_OK(out_f32(OPTS1(g), src, wout, n));
    for (int i = 0; i < n; i++) {
        b_rt += memcmp(&src[i], &dst[i], 4) != 0;
        b_out += wout[i] != (double)src[i];
    }
    tt_poison(dst, (size_t)n * 4);
    TT_OK(in_f32(OPTS1(g), wide, dst, n));
    for (int i = 0; i < n; i++) {
        float want = (float)wide[i];
        b_in += memcmp(&want, &dst[i], 4) != 0;
    }
    TT_CHECK(b_rt == 0, "f32: %d of %d changed in a round trip", b_rt, n);
    TT_CHECK(b_out == 0, "f32: %d of %d wrong when widened to f64", b_out, n);
    TT_CHECK(b_in == 0, "f32: %d of %d f64 values not rounded to nearest even", b_in, n);
    tile_free(src);
    tile_free(dst);
    tile_free(wide);
    tile_free(wout);
    KREL(f32);
}

/* ---- out of bounds ------------------------------------------------------------------ */
static int line_load, line_store, line_back, line_atomic;
TILE_KERNEL(oob_load, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t v = tl_load(tl_add(x, offs)); line_load = __LINE__;
    tl_store(tl_add(out, offs), v);
}
TILE_KERNEL(oob_store, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t v = tl_load(tl_add(x, offs));
    tl_store(tl_add(out, offs), tl_add(v, 1.0)); line_store = __LINE__;
}
TILE_KERNEL(oob_back, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_t v = tl_load(tl_sub(x, 1)); line_back = __LINE__;
    tl_store(out, v);
}
TILE_KERNEL(oob_atomic, (tl_ptr_i32, cnt), (tl_ptr_i32, out))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t old = tl_atomic_add(tl_add(cnt, offs), 1); line_atomic = __LINE__;
    tl_store(tl_add(out, offs), old);
}
/* an element that starts inside an allocation and ends past it */
static int line_straddle;
TILE_KERNEL(oob_straddle, (tl_ptr_i64, x), (tl_ptr_i64, out))
{
    tl_t offs = tl_arange(0, 2);
    tl_t v = tl_load(tl_add(x, offs)); line_straddle = __LINE__;
    tl_store(tl_add(out, offs), v);
}
/* masked-off lanes may point anywhere, even far outside memory */
TILE_KERNEL(masked_far, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_ptr_f32, out2), (tl_i32, n))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t m = tl_lt(offs, n);
    tl_t far = tl_where(m, offs, 1 << 28);
    tl_t v = tl_load(tl_add(x, far), .mask = m, .other = 4.0);
    tl_store(tl_add(out, far), v, .mask = m);
    tl_t back = tl_sub(offs, BLK);
    tl_t u = tl_load(tl_add(x, back), .mask = tl_ge(back, 0), .other = 1.0);
    tl_store(tl_add(out2, offs), tl_add(v, u));
    tl_store(tl_add(out2, back), u, .mask = tl_ge(back, 0));
}
TILE_KERNEL(arg_kernel, (tl_ptr_f32, x), (tl_i32, n))
{
    tl_t offs = tl_arange(0, BLK);
    tl_store(tl_add(x, offs), 1.0, .mask = tl_lt(offs, n));
}

static void check_oob(tile_status st, const char *kernel, int line) {
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == TILE_ERR_OOB, "%s returned %s, want TILE_ERR_OOB", kernel, tile_status_id(st));
    TT_CHECK(e->status == TILE_ERR_OOB && e->line == line && line > 0,
             "%s: error %s at line %d, want TILE_ERR_OOB at line %d (%s)", kernel, e->id ? e->id : "?", e->line, line,
             tile_last_error());
    TT_CHECK(strcmp(e->kernel, kernel) == 0, "%s: error names kernel '%s'", kernel, e->kernel);
    TT_CHECK(strstr(e->file, "test_ops_memory.c") != NULL, "%s: error names file '%s'", kernel, e->file);
}

static void test_oob(void) {
    if (strcmp(tile_backend_name(), "interp") != 0) {
        printf("test_oob: skipped on the GPU (%s): out-of-bounds lanes are caught by the interpreter only\n", tile_backend_name());
        return;
    }
    int n = (int)tt_int(5, 40);
    float *x = tile_malloc((size_t)n * 4), *big = tile_malloc(BLK * 4), *out = tile_malloc(BLK * 4), *out2 = tile_malloc(BLK * 4);
    int32_t *cnt = tile_malloc((size_t)n * 4), *oi = tile_malloc(BLK * 4);
    for (int i = 0; i < n; i++) x[i] = (float)tt_normal();
    for (int i = 0; i < BLK; i++) big[i] = (float)tt_normal();

    tile_set_log(quiet_log, NULL);
    tile_clear_error();
    tile_status st = oob_load(TILE_OPTS(.grid = {1}), x, out);
    check_oob(st, "oob_load", line_load);
    tile_clear_error();
    st = oob_store(TILE_OPTS(.grid = {1}), big, x);
    check_oob(st, "oob_store", line_store);
    tile_clear_error();
    st = oob_back(TILE_OPTS(.grid = {1}), x, out);
    check_oob(st, "oob_back", line_back);
    tile_clear_error();
    st = oob_atomic(TILE_OPTS(.grid = {1}), cnt, oi);
    check_oob(st, "oob_atomic", line_atomic);
    int64_t *x12 = tile_malloc(12), *o16 = tile_malloc(16);
    tile_clear_error();
    st = oob_straddle(TILE_OPTS(.grid = {1}), x12, o16);
    check_oob(st, "oob_straddle", line_straddle);
    tile_free(x12);
    tile_free(o16);

    /* masked-off lanes outside memory are not an error */
    tt_poison(out, BLK * 4);
    tt_poison(out2, BLK * 4);
    st = masked_far(TILE_OPTS(.grid = {1}), x, out, out2, n);
    TT_CHECK(st == TILE_OK, "masked_far returned %s: %s", tile_status_id(st), tile_last_error());
    int bad = 0;
    for (int i = 0; i < BLK; i++) {
        if (i < n) bad += out[i] != x[i];
        bad += out2[i] != (float)((i < n ? (double)x[i] : 4.0) + 1.0);
    }
    TT_CHECK(bad == 0, "masked_far: %d lanes wrong", bad);

    /* pointer arguments that are not tile_malloc memory */
    float stack[BLK], *heap = malloc(BLK * 4), *freed = tile_malloc(BLK * 4);
    uintptr_t freed_addr = (uintptr_t)freed;
    tile_free(freed);
    tt_poison(stack, sizeof stack);
    tt_poison(heap, BLK * 4);
    float *bads[3] = {stack, heap, (float *)freed_addr};
    const char *what[3] = {"a stack array", "malloc memory", "freed tile memory"};
    for (int k = 0; k < 3; k++) {
        tile_clear_error();
        st = arg_kernel(TILE_OPTS(.grid = {1}), bads[k], BLK);
        TT_CHECK(st == TILE_ERR_ARG && tile_last_error_info()->status == TILE_ERR_ARG, "launch with %s returned %s, want TILE_ERR_ARG",
                 what[k], tile_status_id(st));
    }
    uint32_t w0, w1, poison;
    memset(&poison, 0xA5, 4);
    memcpy(&w0, &stack[0], 4);
    memcpy(&w1, &heap[0], 4);
    TT_CHECK(w0 == poison && w1 == poison, "a rejected launch wrote to its pointer argument");
    st = arg_kernel(TILE_OPTS(.grid = {1}), out, BLK);
    TT_CHECK(st == TILE_OK && out[BLK - 1] == 1.0f, "arg_kernel with tile memory: %s", tile_status_id(st));
    tile_set_log(NULL, NULL);

    free(heap);
    tile_free(x);
    tile_free(big);
    tile_free(out);
    tile_free(out2);
    tile_free(cnt);
    tile_free(oi);
    tile_kernel_release(TILE_KERNEL_OF(oob_load));
    tile_kernel_release(TILE_KERNEL_OF(oob_store));
    tile_kernel_release(TILE_KERNEL_OF(oob_back));
    tile_kernel_release(TILE_KERNEL_OF(oob_atomic));
    tile_kernel_release(TILE_KERNEL_OF(oob_straddle));
    tile_kernel_release(TILE_KERNEL_OF(masked_far));
    tile_kernel_release(TILE_KERNEL_OF(arg_kernel));
}

/* ---- atomics -------------------------------------------------------------------------- */
/* every lane of every program adds 1 to one counter: the olds are 0..n-1 */
TILE_KERNEL(atom_count, (tl_ptr_i32, cnt), (tl_ptr_i32, olds), (tl_ptr_i32, olds2))
{
    int B = TL_META(BLOCK);
    tl_t pid = tl_program_id(0);
    tl_t old = tl_atomic_add(tl_add(cnt, tl_zeros(TL_I32, B)), 1);
    tl_store(tl_add(olds, block_offsets()), old);
    tl_store(tl_add(olds2, pid), tl_atomic_add(tl_add(cnt, 1), 1, .sem = TL_SEM_RELAXED, .scope = TL_SCOPE_CTA));
}

static int is_permutation(const int32_t *v, int n) {
    char *seen = calloc((size_t)n, 1);
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        if (v[i] < 0 || v[i] >= n || seen[v[i]]) ok = 0;
        else seen[v[i]] = 1;
    }
    free(seen);
    return ok;
}

static void test_atomic_count(void) {
    unsigned g = (unsigned)tt_int(3, 9);
    int n = (int)g * BLK;
    int32_t *cnt = tile_malloc(8), *olds = tile_malloc((size_t)n * 4), *olds2 = tile_malloc(g * 4);
    tile_memset(cnt, 0, 8);
    tt_poison(olds, (size_t)n * 4);
    tt_poison(olds2, g * 4);
    TT_OK(atom_count(OPTS1(g), cnt, olds, olds2));
    TT_CHECK(cnt[0] == n && cnt[1] == (int)g, "atomic counters: %d and %d, want %d and %u", cnt[0], cnt[1], n, g);
    TT_CHECK(is_permutation(olds, n), "the olds of %d atomic +1 on one address are not 0..%d", n, n - 1);
    TT_CHECK(is_permutation(olds2, (int)g), "the olds of %u scalar atomic +1 are not 0..%u", g, g - 1);
    tile_free(cnt);
    tile_free(olds);
    tile_free(olds2);
    tile_kernel_release(TILE_KERNEL_OF(atom_count));
}

/* One kernel per dtype; meta OP picks the atomic, MASKED adds a mask (whose
   masked-off lanes point far outside memory). Lanes update slot[i] of tgt. */
enum { A_ADD, A_MAX, A_MIN, A_AND, A_OR, A_XOR, A_XCHG, A_COUNT };
static const char *const aname[] = {"add", "max", "min", "and", "or", "xor", "xchg"};
static void atomic_body(tl_t tgt, tl_t vals, tl_t slot, tl_t olds, tl_t n) {
    int op = TL_META(OP), masked = TL_META(MASKED);
    tl_t offs = block_offsets();
    tl_t in = tl_lt(offs, n);
    tl_t m = tl_and(in, tl_ne(tl_mod(offs, 3), 1));
    tl_t v = masked ? tl_load(tl_add(vals, offs), .mask = in) : tl_load(tl_add(vals, offs));
    tl_t s = masked ? tl_where(m, tl_load(tl_add(slot, offs), .mask = in), 1 << 26) : tl_load(tl_add(slot, offs));
    tl_t p = tl_add(tgt, s), old = {0};
#define DO_ATOMIC(fn) (masked ? fn(p, v, .mask = m) : fn(p, v))
    switch (op) {
    case A_ADD: old = DO_ATOMIC(tl_atomic_add); break;
    case A_MAX: old = DO_ATOMIC(tl_atomic_max); break;
    case A_MIN: old = DO_ATOMIC(tl_atomic_min); break;
    case A_AND: old = DO_ATOMIC(tl_atomic_and); break;
    case A_OR: old = DO_ATOMIC(tl_atomic_or); break;
    case A_XOR: old = DO_ATOMIC(tl_atomic_xor); break;
    default: old = DO_ATOMIC(tl_atomic_xchg); break;
    }
#undef DO_ATOMIC
    if (masked) tl_store(tl_add(olds, offs), old, .mask = m);
    else tl_store(tl_add(olds, offs), old);
}
#define ATOMIC_KERNEL(T)                                                                                   \
    TILE_KERNEL(atom_##T, (tl_ptr_##T, tgt), (tl_ptr_##T, vals), (tl_ptr_i32, slot), (tl_ptr_##T, olds), \
                (tl_i32, n)) { atomic_body(tgt, vals, slot, olds, n); }
ATOMIC_KERNEL(i32)
ATOMIC_KERNEL(u32)
ATOMIC_KERNEL(i64)
ATOMIC_KERNEL(f32)
ATOMIC_KERNEL(f16)

/* elements as bit patterns of their width; the reference combines them */
static int dt_float(tl_dtype t) { return t == TL_F32 || t == TL_F16; }
static uint64_t rd(tl_dtype t, const void *p, int i) {
    uint64_t u = 0;
    memcpy(&u, (const char *)p + (size_t)i * tile_dtype_size(t), tile_dtype_size(t));
    return u;
}
static void wr(tl_dtype t, void *p, int i, uint64_t u) { memcpy((char *)p + (size_t)i * tile_dtype_size(t), &u, tile_dtype_size(t)); }
static double fval(tl_dtype t, uint64_t u) {
    if (t == TL_F16) return fmt_dec(&F16, (unsigned)u);
    float f;
    uint32_t w = (uint32_t)u;
    memcpy(&f, &w, 4);
    return f;
}
static uint64_t fbits(tl_dtype t, double x) {
    if (t == TL_F16) return fmt_round(&F16, x);
    float f = (float)x;
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}
static int64_t sval(tl_dtype t, uint64_t u) {
    if (t == TL_I64) {
        int64_t v;
        memcpy(&v, &u, 8);
        return v;
    }
    int32_t v;
    uint32_t w = (uint32_t)u;
    memcpy(&v, &w, 4);
    return v;
}
static uint64_t wmask(tl_dtype t) { return tile_dtype_size(t) == 8 ? ~0ull : (1ull << (8 * tile_dtype_size(t))) - 1; }
/* a < b in the dtype's order */
static int less(tl_dtype t, uint64_t a, uint64_t b) {
    if (dt_float(t)) return fval(t, a) < fval(t, b);
    if (t == TL_U32) return a < b;
    return sval(t, a) < sval(t, b);
}
static uint64_t combine(tl_dtype t, int op, uint64_t a, uint64_t b) {
    switch (op) {
    case A_ADD: return dt_float(t) ? fbits(t, fval(t, a) + fval(t, b)) : (a + b) & wmask(t);
    case A_MAX: return less(t, a, b) ? b : a;
    case A_MIN: return less(t, b, a) ? b : a;
    case A_AND: return a & b;
    case A_OR: return a | b;
    case A_XOR: return a ^ b;
    default: return b;
    }
}
static tile_status launch_atomic(tl_dtype t, int op, int masked, unsigned g, void *tgt, void *vals, int32_t *slot, void *olds, int n) {
    const tile_launch *o = TILE_OPTS(.grid = {g}, .meta = {{"BLOCK", BLK}, {"OP", op}, {"MASKED", masked}});
    switch (t) {
    case TL_I32: return atom_i32(o, tgt, vals, slot, olds, n);
    case TL_U32: return atom_u32(o, tgt, vals, slot, olds, n);
    case TL_I64: return atom_i64(o, tgt, vals, slot, olds, n);
    case TL_F32: return atom_f32(o, tgt, vals, slot, olds, n);
    default: return atom_f16(o, tgt, vals, slot, olds, n);
    }
}
/* a value for lane i: add gets small positive numbers (so the olds of one
   slot strictly increase and order the updates), xchg distinct ones */
static uint64_t atomic_value(tl_dtype t, int op, int i, int real) {
    if (op == A_ADD) {
        if (t == TL_F16) return fbits(t, (double)tt_int(1, 8));
        if (t == TL_F32) return fbits(t, real ? tt_normal() : (double)tt_int(1, 1000));
        if (t == TL_I64) return (uint64_t)tt_int(1, 1ll << 40);
        return (uint64_t)tt_int(1, 1 << 20);
    }
    if (op == A_XCHG) return dt_float(t) ? fbits(t, i + 0.5) : (uint64_t)(i + 1) * 2654435761u & wmask(t);
    if (dt_float(t)) return fbits(t, tt_normal() * 100);
    return tt_next() & wmask(t);
}

static void test_atomic(tl_dtype t, int op, int masked) {
    const int S = 4;
    unsigned g = (unsigned)tt_int(3, 6);
    int n = masked ? (int)g * BLK - (int)tt_int(1, BLK - 1) : (int)g * BLK;
    int real = masked && t == TL_F32 && op == A_ADD;
    size_t es = tile_dtype_size(t);
    void *tgt = tile_malloc(S * es), *vals = tile_malloc((size_t)n * es), *olds = tile_malloc((size_t)n * es);
    int32_t *slot = tile_malloc((size_t)n * 4);
    uint64_t init[4];
    for (int k = 0; k < S; k++) {
        init[k] = op == A_ADD ? (dt_float(t) ? fbits(t, (double)tt_int(-100, 100)) : (uint64_t)tt_int(0, 1 << 20))
                  : op == A_XCHG ? (dt_float(t) ? fbits(t, -1.0 - k) : wmask(t) - (uint64_t)k)
                                 : atomic_value(t, op, 0, 0);
        wr(t, tgt, k, init[k]);
    }
    for (int i = 0; i < n; i++) {
        wr(t, vals, i, atomic_value(t, op, i, real));
        slot[i] = (int32_t)tt_int(0, S - 1);
    }
    tt_poison(olds, (size_t)n * es);
    tile_status st = launch_atomic(t, op, masked, g, tgt, vals, slot, olds, n);
    TT_CHECK(st == TILE_OK, "atomic_%s %s%s: %s", aname[op], tile_dtype_name(t), masked ? " masked" : "", tile_last_error());
    if (st != TILE_OK) goto done;
    int bad_final = 0, bad_olds = 0;
    for (int k = 0; k < S; k++) {
        /* the lanes that updated slot k, the reference final value */
        int idx[BLK * 8], cnt = 0;
        uint64_t want = init[k];
        double sum_abs = fabs(dt_float(t) ? fval(t, init[k]) : 0), exact = dt_float(t) ? fval(t, init[k]) : 0;
        for (int i = 0; i < n; i++) {
            if (slot[i] != k || (masked && i % 3 == 1)) continue;
            idx[cnt++] = i;
            want = combine(t, op, want, rd(t, vals, i));
            if (dt_float(t)) {
                exact += fval(t, rd(t, vals, i));
                sum_abs += fabs(fval(t, rd(t, vals, i)));
            }
        }
        uint64_t got = rd(t, tgt, k);
        if (real) {
            if (fabs(fval(t, got) - exact) > (cnt + 2) * sum_abs * ldexp(1.0, -24)) bad_final++;
        } else if (op != A_XCHG && got != want) {
            if (bad_final++ < 2) printf("  atomic_%s %s slot %d: got 0x%llx, want 0x%llx\n", aname[op], tile_dtype_name(t), k,
                                        (unsigned long long)got, (unsigned long long)want);
        }
        /* the olds must be a serialization of the updates */
        if (op == A_ADD && !real) {
            /* positive increments: sorted by old, each old is the sum so far */
            for (int a = 1; a < cnt; a++)
                for (int b = a; b > 0 && less(t, rd(t, olds, idx[b]), rd(t, olds, idx[b - 1])); b--) {
                    int tmp = idx[b];
                    idx[b] = idx[b - 1];
                    idx[b - 1] = tmp;
                }
            uint64_t cur = init[k];
            for (int a = 0; a < cnt; a++) {
                if (rd(t, olds, idx[a]) != cur) {
                    bad_olds++;
                    break;
                }
                cur = combine(t, op, cur, rd(t, vals, idx[a]));
            }
        } else if (op == A_XCHG) {
            /* distinct values: follow the chain from the initial value */
            uint64_t cur = init[k];
            char used[BLK * 8] = {0};
            for (int a = 0; a < cnt; a++) {
                int found = -1;
                for (int b = 0; b < cnt; b++)
                    if (!used[b] && rd(t, olds, idx[b]) == cur) found = b;
                if (found < 0) {
                    bad_olds++;
                    break;
                }
                used[found] = 1;
                cur = rd(t, vals, idx[found]);
            }
            if (cur != got) bad_final++;
        } else if (op == A_MAX || op == A_MIN || op == A_OR || op == A_AND) {
            /* monotone: every old lies between the initial and the final value */
            for (int a = 0; a < cnt; a++) {
                uint64_t o = rd(t, olds, idx[a]);
                int ok = op == A_MAX ? !less(t, o, init[k]) && !less(t, got, o)
                       : op == A_MIN ? !less(t, init[k], o) && !less(t, o, got)
                       : op == A_OR  ? (o & init[k]) == init[k] && (o & got) == o
                                     : (o & init[k]) == o && (o & got) == got;
                bad_olds += !ok;
            }
        }
    }
    TT_CHECK(bad_final == 0, "atomic_%s %s%s: %d of %d slots end wrong", aname[op], tile_dtype_name(t), masked ? " masked" : "",
             bad_final, S);
    TT_CHECK(bad_olds == 0, "atomic_%s %s%s: the returned old values are no serialization (%d bad)", aname[op],
             tile_dtype_name(t), masked ? " masked" : "", bad_olds);
done:
    tile_free(tgt);
    tile_free(vals);
    tile_free(olds);
    tile_free(slot);
}

/* tl_atomic_cas: each program claims a slot with its id if the slot holds -1 */
TILE_KERNEL(cas_scalar, (tl_ptr_i32, slots), (tl_ptr_i32, olds), (tl_i32, nslots))
{
    tl_t pid = tl_program_id(0);
    tl_t old = tl_atomic_cas(tl_add(slots, tl_mod(pid, nslots)), -1, pid);
    tl_store(tl_add(olds, pid), old);
}
TILE_KERNEL(cas_tile, (tl_ptr_i64, slots), (tl_ptr_i64, olds))
{
    int B = TL_META(BLOCK);
    tl_t lane = tl_arange(0, B);
    tl_t id = tl_add(tl_mul(tl_cast(tl_program_id(0), TL_I64), 1000), lane);
    tl_t old = tl_atomic_cas(tl_add(slots, lane), -1, id);
    tl_store(tl_add(olds, block_offsets()), old);
}
static void test_cas(void) {
    int ns = (int)tt_int(3, 9);
    unsigned g = (unsigned)tt_int(20, 60);
    int32_t *slots = tile_malloc((size_t)ns * 4), *olds = tile_malloc(g * 4);
    for (int k = 0; k < ns; k++) slots[k] = -1;
    tt_poison(olds, g * 4);
    TT_OK(cas_scalar(TILE_OPTS(.grid = {g}), slots, olds, ns));
    int bad = 0;
    for (int k = 0; k < ns; k++) {
        int winners = 0;
        for (unsigned p = (unsigned)k; p < g; p += (unsigned)ns) {
            if (olds[p] == -1) {
                winners++;
                bad += slots[k] != (int)p;
            } else {
                bad += olds[p] != slots[k];
            }
        }
        bad += winners != 1;
    }
    TT_CHECK(bad == 0, "cas_scalar: %d violations (one winner per slot, losers see the winner)", bad);
    tile_free(slots);
    tile_free(olds);

    unsigned g2 = (unsigned)tt_int(3, 8);
    int64_t *s64 = tile_malloc(BLK * 8), *o64 = tile_malloc(g2 * BLK * 8);
    for (int k = 0; k < BLK; k++) s64[k] = -1;
    tt_poison(o64, g2 * BLK * 8);
    TT_OK(cas_tile(OPTS1(g2), s64, o64));
    bad = 0;
    for (int k = 0; k < BLK; k++) {
        int winners = 0;
        for (unsigned p = 0; p < g2; p++) {
            int64_t o = o64[p * BLK + (unsigned)k];
            if (o == -1) {
                winners++;
                bad += s64[k] != (int64_t)p * 1000 + k;
            } else {
                bad += o != s64[k];
            }
        }
        bad += winners != 1;
    }
    TT_CHECK(bad == 0, "cas_tile: %d violations", bad);
    tile_free(s64);
    tile_free(o64);
    tile_kernel_release(TILE_KERNEL_OF(cas_scalar));
    tile_kernel_release(TILE_KERNEL_OF(cas_tile));
}

int main(void) {
    tt_seed();
    test_masks();
    test_pointers();
    test_store_shapes();
    test_io_i8();
    test_io_i16();
    test_io_i32();
    test_io_u8();
    test_io_u16();
    test_io_u32();
    test_io_u64();
    test_io_64();
    test_io_i1();
    test_io_f16();
    test_io_bf16();
    test_io_f8e4m3();
    test_io_f8e5m2();
    test_io_f32();
    test_oob();
    test_atomic_count();
    static const tl_dtype ints[] = {TL_I32, TL_U32, TL_I64};
    for (int k = 0; k < 3; k++)
        for (int op = 0; op < A_COUNT; op++)
            for (int masked = 0; masked < 2; masked++) test_atomic(ints[k], op, masked);
    static const int fops[] = {A_ADD, A_MAX, A_MIN, A_XCHG};
    for (int k = 0; k < 4; k++)
        for (int masked = 0; masked < 2; masked++) test_atomic(TL_F32, fops[k], masked);
    for (int masked = 0; masked < 2; masked++) test_atomic(TL_F16, A_ADD, masked);
    test_cas();
    tile_kernel_release(TILE_KERNEL_OF(copy_other));
    tile_kernel_release(TILE_KERNEL_OF(load_other_v));
    tile_kernel_release(TILE_KERNEL_OF(scalar_ptr));
    tile_kernel_release(TILE_KERNEL_OF(transpose2d));
    tile_kernel_release(TILE_KERNEL_OF(copy_hints));
    tile_kernel_release(TILE_KERNEL_OF(store_scalar));
    tile_kernel_release(TILE_KERNEL_OF(two_blocks));
    tile_kernel_release(TILE_KERNEL_OF(row_mask));
    tile_kernel_release(TILE_KERNEL_OF(atom_i32));
    tile_kernel_release(TILE_KERNEL_OF(atom_u32));
    tile_kernel_release(TILE_KERNEL_OF(atom_i64));
    tile_kernel_release(TILE_KERNEL_OF(atom_f32));
    tile_kernel_release(TILE_KERNEL_OF(atom_f16));
    return tt_finish("test_ops_memory");
}
