/* tests/test_control.c — runtime and build-time control flow in the
   interpreter, each against a C reference on fresh random data.

   Runtime control flow is traced once into regions, so what can go wrong is
   the plumbing: carried values (none, one, several; scalars, tiles and
   pointer tiles), loops that run zero times (the results are the inits),
   bounds and steps known only at run time, a negative literal step (which
   counts down, like Python's range and Triton's for), i64 bounds, carried
   values that swap, nesting, branches with and without TL_ELSE, and
   TL_WHILE's re-evaluated condition. C control flow over
   meta-parameters must unroll at build time, with one cached build per meta
   configuration. The debugging ops are checked by what a user sees:
   tl_print's text on stdout, tl_device_assert's status and line, and
   tile_kernel_ir's text. Two must-fail programs check that misuse of a
   loop's values is reported at the user's line. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"
#include <ctype.h>
#include <unistd.h>

#define BLK 32

static void quiet_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}

/* ---- TL_FOR ---------------------------------------------------------------------------- */
TILE_KERNEL(for_none, (tl_ptr_i32, out), (tl_i32, lo), (tl_i32, hi), (tl_i32, step))
{
    TL_FOR (i, lo, hi, step) {
        tl_store(tl_add(out, i), tl_mul(i, i));
    }
}

TILE_KERNEL(for_one, (tl_ptr_i64, out), (tl_i32, lo), (tl_i32, hi))
{
    tl_t s = tl_cast(0, TL_I64);
    TL_FOR (i, lo, hi, 1, s) {
        s = tl_add(s, tl_mul(i, i));
    }
    tl_store(out, s);
    tl_t p = tl_cast(1, TL_I32);
    TL_FOR (k, 0, 5, 2, p) {
        p = tl_mul(p, tl_add(k, 3));
    }
    tl_store(tl_add(out, 1), p);
}

TILE_KERNEL(for_many, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_ptr_i32, outi), (tl_i32, lo), (tl_i32, hi), (tl_i32, step))
{
    int B = TL_META(BLOCK);
    tl_t offs = tl_arange(0, B);
    tl_t acc = tl_zeros(TL_F32, B), mx = tl_full(TL_F32, -1000.0, B);
    tl_t cnt = tl_cast(0, TL_I32), last = tl_cast(-1, TL_I32);
    TL_FOR (i, lo, hi, step, acc, mx, cnt, last) {
        tl_t row = tl_load(tl_add(x, tl_add(tl_mul(i, B), offs)));
        acc = tl_add(acc, row);
        mx = tl_maximum(mx, row);
        cnt = tl_add(cnt, 1);
        last = i;
    }
    tl_store(tl_add(out, offs), acc);
    tl_store(tl_add(out, tl_add(offs, B)), mx);
    tl_store(outi, cnt);
    tl_store(tl_add(outi, 1), last);
}

TILE_KERNEL(for_nested, (tl_ptr_i32, out), (tl_i32, n))
{
    tl_t total = tl_cast(0, TL_I32);
    TL_FOR (i, 0, n, 1, total) {
        tl_t row = tl_cast(0, TL_I32);
        TL_FOR (j, 0, tl_add(i, 1), 1, row) {
            row = tl_add(row, tl_add(tl_mul(i, 100), j));
        }
        tl_store(tl_add(out, i), row);
        total = tl_add(total, row);
    }
    tl_store(tl_add(out, n), total);
}

/* carried values that swap, a tile carried through two loop levels, i64 bounds */
TILE_KERNEL(for_swap, (tl_ptr_i64, out), (tl_i64, lo), (tl_i64, hi), (tl_i64, step), (tl_i32, n))
{
    tl_t a = tl_cast(1, TL_I64), b = tl_cast(2, TL_I64), s = tl_cast(0, TL_I64), last = tl_cast(-1, TL_I64);
    TL_FOR (i, lo, hi, step, a, b, s, last) {
        tl_t t = a;
        a = b;
        b = tl_add(t, i);
        s = tl_add(s, tl_sub(i, lo));
        last = i;
    }
    tl_t acc = tl_zeros(TL_I64, 4);
    TL_FOR (i, 0, n, 1, acc) {
        TL_FOR (j, 0, n, 1, acc) {
            acc = tl_add(acc, tl_add(tl_mul(i, 10), tl_add(j, tl_arange(0, 4))));
        }
    }
    tl_store(out, a);
    tl_store(tl_add(out, 1), b);
    tl_store(tl_add(out, 2), s);
    tl_store(tl_add(out, 3), last);
    tl_store(tl_add(out, tl_add(tl_arange(0, 4), 4)), acc);
}

/* a negative literal step counts down, as Python's range and Triton's
   for with a negative constexpr step: range(n, 0, -1), range(n, 1, -3) */
TILE_KERNEL(for_down, (tl_ptr_i32, out), (tl_ptr_i32, out2), (tl_ptr_i32, counts), (tl_i32, n))
{
    tl_t c1 = tl_cast(0, TL_I32), c2 = tl_cast(0, TL_I32);
    TL_FOR (i, n, 0, -1, c1) {
        tl_store(tl_add(out, c1), i);
        c1 = tl_add(c1, 1);
    }
    TL_FOR (i, n, 1, -3, c2) {
        tl_store(tl_add(out2, c2), i);
        c2 = tl_add(c2, 1);
    }
    tl_store(counts, c1);
    tl_store(tl_add(counts, 1), c2);
}

static void test_for(void) {
    /* no carried values: stores at i*i for i in range(lo, hi, step) */
    int cases[4][3] = {{(int)tt_int(0, 5), (int)tt_int(20, 60), 1}, {(int)tt_int(0, 5), (int)tt_int(20, 60), (int)tt_int(2, 5)},
                       {10, 10, 1}, {(int)tt_int(30, 60), (int)tt_int(0, 20), 2}};
    for (int c = 0; c < 4; c++) {
        int lo = cases[c][0], hi = cases[c][1], step = cases[c][2], bad = 0;
        int32_t *out = tile_malloc(64 * 4);
        tt_poison(out, 64 * 4);
        TT_OK(for_none(TILE_OPTS(.grid = {1}), out, lo, hi, step));
        int32_t poison;
        memset(&poison, 0xA5, 4);
        for (int i = 0; i < 64; i++) {
            int hit = i >= lo && i < hi && (i - lo) % step == 0;
            bad += out[i] != (hit ? i * i : poison);
        }
        TT_CHECK(bad == 0, "TL_FOR (i, %d, %d, %d) without carried values: %d elements wrong", lo, hi, step, bad);
        tile_free(out);
    }

    /* one carried value; a literal range with step 2 */
    for (int c = 0; c < 3; c++) {
        int lo = (int)tt_int(-50, 50), hi = c == 2 ? lo - (int)tt_int(0, 5) : lo + (int)tt_int(1, 3000);
        int64_t *out = tile_malloc(16), want = 0;
        tt_poison(out, 16);
        TT_OK(for_one(TILE_OPTS(.grid = {1}), out, lo, hi));
        for (int i = lo; i < hi; i++) want += (int64_t)i * i;
        TT_CHECK(out[0] == want, "TL_FOR (i, %d, %d) sum of squares: got %lld, want %lld", lo, hi, (long long)out[0], (long long)want);
        TT_CHECK(out[1] == 3 * 5 * 7, "TL_FOR (k, 0, 5, 2) product: got %lld, want 105", (long long)out[1]);
        tile_free(out);
    }

    /* several carried values (tiles and scalars), runtime step, zero trips */
    int many[4][3] = {{0, (int)tt_int(1, 12), 1}, {(int)tt_int(0, 3), (int)tt_int(5, 12), (int)tt_int(2, 4)}, {7, 7, 1}, {9, 2, 1}};
    for (int c = 0; c < 4; c++) {
        int lo = many[c][0], hi = many[c][1], step = many[c][2], rows = 12;
        float *x = tile_malloc((size_t)rows * BLK * 4), *out = tile_malloc(2 * BLK * 4);
        int32_t *outi = tile_malloc(8);
        for (int i = 0; i < rows * BLK; i++) x[i] = (float)tt_normal();
        tt_poison(out, 2 * BLK * 4);
        tt_poison(outi, 8);
        TT_OK(for_many(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", BLK}}), x, out, outi, lo, hi, step));
        int bad = 0, cnt = 0, last = -1;
        for (int j = 0; j < BLK; j++) {
            float acc = 0, mx = -1000;
            for (int i = lo; i < hi; i += step) {
                acc = acc + x[i * BLK + j];
                mx = fmaxf(mx, x[i * BLK + j]);
            }
            bad += out[j] != acc || out[BLK + j] != mx;
        }
        for (int i = lo; i < hi; i += step) {
            cnt++;
            last = i;
        }
        TT_CHECK(bad == 0, "TL_FOR (i, %d, %d, %d) with tile carries: %d lanes wrong", lo, hi, step, bad);
        TT_CHECK(outi[0] == cnt && outi[1] == last, "TL_FOR (i, %d, %d, %d): count %d last %d, want %d and %d", lo, hi, step, outi[0],
                 outi[1], cnt, last);
        tile_free(x);
        tile_free(out);
        tile_free(outi);
    }

    /* nested loops, the inner bound from the outer induction variable */
    int n = (int)tt_int(1, 40);
    int32_t *out = tile_malloc((size_t)(n + 1) * 4);
    tt_poison(out, (size_t)(n + 1) * 4);
    TT_OK(for_nested(TILE_OPTS(.grid = {1}), out, n));
    int bad = 0;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        int64_t row = 0;
        for (int j = 0; j <= i; j++) row += 100 * i + j;
        bad += out[i] != row;
        total += row;
    }
    TT_CHECK(bad == 0 && out[n] == total, "nested TL_FOR (n=%d): %d rows wrong, total %d want %lld", n, bad, out[n], (long long)total);
    tile_free(out);

    int64_t lo = ((int64_t)1 << 40) + tt_int(0, 1000), hi = lo + tt_int(0, 500), step = tt_int(1, 9);
    int nn = (int)tt_int(0, 12);
    int64_t *o64 = tile_malloc(8 * 8), a = 1, b = 2, s = 0, last = -1, acc[4] = {0};
    tt_poison(o64, 8 * 8);
    TT_OK(for_swap(TILE_OPTS(.grid = {1}), o64, lo, hi, step, nn));
    for (int64_t i = lo; i < hi; i += step) {
        int64_t t = a;
        a = b;
        b = t + i;
        s += i - lo;
        last = i;
    }
    for (int i = 0; i < nn; i++)
        for (int j = 0; j < nn; j++)
            for (int k = 0; k < 4; k++) acc[k] += 10 * i + j + k;
    TT_CHECK(o64[0] == a && o64[1] == b && o64[2] == s && o64[3] == last,
             "TL_FOR (i, %lld, %lld, %lld) with swapped carries: got %lld %lld %lld %lld, want %lld %lld %lld %lld", (long long)lo,
             (long long)hi, (long long)step, (long long)o64[0], (long long)o64[1], (long long)o64[2], (long long)o64[3], (long long)a,
             (long long)b, (long long)s, (long long)last);
    TT_CHECK(o64[4] == acc[0] && o64[5] == acc[1] && o64[6] == acc[2] && o64[7] == acc[3],
             "a tile carried through two nested TL_FORs (n=%d): got %lld.., want %lld..", nn, (long long)o64[4], (long long)acc[0]);
    tile_free(o64);
    tile_kernel_release(TILE_KERNEL_OF(for_swap));

    int nd = (int)tt_int(4, 30);
    int32_t *d1 = tile_malloc(32 * 4), *d2 = tile_malloc(32 * 4), *dc = tile_malloc(8);
    tt_poison(d1, 32 * 4);
    tt_poison(d2, 32 * 4);
    tt_poison(dc, 8);
    tile_status st = for_down(TILE_OPTS(.grid = {1}), d1, d2, dc, nd);
    TT_CHECK(st == TILE_OK, "for_down: %s", tile_last_error());
    int c1 = 0, c2 = 0, bad1 = 0, bad2 = 0;
    for (int i = nd; i > 0; i--) bad1 += st != TILE_OK || c1 >= 32 || d1[c1++] != i;
    for (int i = nd; i > 1; i -= 3) bad2 += st != TILE_OK || c2 >= 32 || d2[c2++] != i;
    TT_CHECK(dc[0] == c1 && bad1 == 0, "TL_FOR (i, %d, 0, -1) ran %d times (want %d, %d values wrong)", nd, dc[0], c1, bad1);
    TT_CHECK(dc[1] == c2 && bad2 == 0, "TL_FOR (i, %d, 1, -3) ran %d times (want %d, %d values wrong)", nd, dc[1], c2, bad2);
    tile_free(d1);
    tile_free(d2);
    tile_free(dc);
    tile_kernel_release(TILE_KERNEL_OF(for_down));
    tile_kernel_release(TILE_KERNEL_OF(for_none));
    tile_kernel_release(TILE_KERNEL_OF(for_one));
    tile_kernel_release(TILE_KERNEL_OF(for_many));
    tile_kernel_release(TILE_KERNEL_OF(for_nested));
}

/* ---- TL_FOR carrying pointer tiles: the tiled matmul ------------------------------------------ */
TILE_KERNEL(matmul, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c), (tl_i32, M), (tl_i32, N), (tl_i32, K), (tl_i32, sam),
            (tl_i32, sak), (tl_i32, sbk), (tl_i32, sbn), (tl_i32, scm), (tl_i32, scn))
{
    int BM = TL_META(BM), BN = TL_META(BN), BK = TL_META(BK);
    tl_t rm = tl_expand_dims(tl_add(tl_mul(tl_program_id(0), BM), tl_arange(0, BM)), 1);
    tl_t rn = tl_expand_dims(tl_add(tl_mul(tl_program_id(1), BN), tl_arange(0, BN)), 0);
    tl_t rk_row = tl_expand_dims(tl_arange(0, BK), 0), rk_col = tl_expand_dims(tl_arange(0, BK), 1);
    tl_t pa = tl_add(a, tl_add(tl_mul(rm, sam), tl_mul(rk_row, sak)));
    tl_t pb = tl_add(b, tl_add(tl_mul(rk_col, sbk), tl_mul(rn, sbn)));
    tl_t acc = tl_zeros(TL_F32, BM, BN);
    TL_FOR (k, 0, tl_cdiv(K, BK), 1, acc, pa, pb) {
        tl_t left = tl_sub(K, tl_mul(k, BK));
        tl_t A = tl_load(pa, .mask = tl_and(tl_lt(rm, M), tl_lt(rk_row, left)), .other = 0.0);
        tl_t B = tl_load(pb, .mask = tl_and(tl_lt(rk_col, left), tl_lt(rn, N)), .other = 0.0);
        acc = tl_dot(A, B, acc);
        pa = tl_add(pa, tl_mul(sak, BK));
        pb = tl_add(pb, tl_mul(sbk, BK));
    }
    tl_store(tl_add(c, tl_add(tl_mul(rm, scm), tl_mul(rn, scn))), acc, .mask = tl_and(tl_lt(rm, M), tl_lt(rn, N)));
}

static double f16_value(uint16_t c) {
    unsigned e = (c >> 10) & 31, m = c & 1023;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, (int)e - 25);
    return (c >> 15) ? -v : v;
}

static void test_matmul(void) {
    int M = (int)tt_int(33, 64), N = (int)tt_int(33, 64), K = (int)tt_int(40, 100);
    tile_f16 *a = tile_malloc((size_t)M * K * 2), *bt = tile_malloc((size_t)K * N * 2);
    float *c = tile_malloc((size_t)M * N * 4);
    /* a row-major, b column-major: the strides do the work */
    for (int i = 0; i < M * K; i++) a[i].bits = (uint16_t)((tt_int(0, 1) << 15) | (tt_int(13, 16) << 10) | tt_int(0, 1023));
    for (int i = 0; i < K * N; i++) bt[i].bits = (uint16_t)((tt_int(0, 1) << 15) | (tt_int(13, 16) << 10) | tt_int(0, 1023));
    tt_poison(c, (size_t)M * N * 4);
    TT_OK(matmul(TILE_OPTS(.grid = {tile_cdiv(M, 32), tile_cdiv(N, 32)}, .meta = {{"BM", 32}, {"BN", 32}, {"BK", 32}}), a, bt, c, M, N, K,
                 K, 1, 1, K, N, 1));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < K; k++) {
                double p = f16_value(a[i * K + k].bits) * f16_value(bt[j * K + k].bits);
                ref += p;
                mag += fabs(p);
            }
            if (!(fabs(c[i * N + j] - ref) <= (K + 2) * ldexp(mag, -24)) && bad++ < 3)
                printf("  matmul (%d, %d): got %.9g, want %.9g\n", i, j, c[i * N + j], ref);
        }
    TT_CHECK(bad == 0, "matmul %dx%dx%d with pointer tiles carried through TL_FOR: %d of %d wrong", M, N, K, bad, M * N);
    tile_free(a);
    tile_free(bt);
    tile_free(c);
    tile_kernel_release(TILE_KERNEL_OF(matmul));
}

/* ---- TL_IF / TL_ELSE ---------------------------------------------------------------------------- */
TILE_KERNEL(if_else, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_ptr_i32, outi), (tl_i32, flag))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t v = tl_load(tl_add(x, offs));
    tl_t s = tl_cast(10, TL_I32);
    TL_IF (tl_gt(flag, 0), v, s) {
        v = tl_mul(v, 2.0);
        s = tl_add(s, flag);
    } TL_ELSE {
        v = tl_sub(v, 1.0);
        s = tl_sub(s, 1);
    }
    tl_t w = v, t = tl_cast(0, TL_I32);
    TL_IF (tl_mod(flag, 2), w, t) {
        w = tl_add(w, 100.0);
        t = tl_add(t, 7);
    }
    TL_IF (tl_lt(flag, 0)) {
        tl_store(tl_add(outi, 2), flag);
    }
    tl_store(tl_add(out, offs), v);
    tl_store(tl_add(out, tl_add(offs, BLK)), w);
    tl_store(outi, s);
    tl_store(tl_add(outi, 1), t);
}

TILE_KERNEL(for_if, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t acc = tl_zeros(TL_F32, BLK);
    TL_FOR (i, 0, n, 1, acc) {
        tl_t row = tl_load(tl_add(x, tl_add(tl_mul(i, BLK), offs)));
        TL_IF (tl_eq(tl_mod(i, 3), 0), acc) {
            acc = tl_add(acc, row);
        } TL_ELSE {
            TL_IF (tl_eq(tl_mod(i, 3), 1), acc) {
                acc = tl_sub(acc, row);
            } TL_ELSE {
                acc = tl_maximum(acc, row);
            }
        }
    }
    tl_store(tl_add(out, offs), acc);
}

static void test_if(void) {
    int flags[5] = {(int)tt_int(1, 50) * 2, (int)tt_int(1, 50) * 2 + 1, -(int)tt_int(1, 50) * 2, -(int)tt_int(1, 50) * 2 - 1, 0};
    for (int c = 0; c < 5; c++) {
        int flag = flags[c], bad = 0;
        float *x = tile_malloc(BLK * 4), *out = tile_malloc(2 * BLK * 4);
        int32_t *outi = tile_malloc(12), poison;
        memset(&poison, 0xA5, 4);
        for (int i = 0; i < BLK; i++) x[i] = (float)tt_normal();
        tt_poison(out, 2 * BLK * 4);
        tt_poison(outi, 12);
        TT_OK(if_else(TILE_OPTS(.grid = {1}), x, out, outi, flag));
        for (int i = 0; i < BLK; i++) {
            float v = flag > 0 ? x[i] * 2.0f : x[i] - 1.0f;
            float w = flag % 2 ? v + 100.0f : v;
            bad += out[i] != v || out[BLK + i] != w;
        }
        TT_CHECK(bad == 0, "TL_IF/TL_ELSE on tiles (flag %d): %d lanes wrong", flag, bad);
        TT_CHECK(outi[0] == (flag > 0 ? 10 + flag : 9), "TL_IF/TL_ELSE scalar (flag %d): got %d", flag, outi[0]);
        TT_CHECK(outi[1] == (flag % 2 ? 7 : 0), "TL_IF without TL_ELSE (flag %d): got %d", flag, outi[1]);
        TT_CHECK(outi[2] == (flag < 0 ? flag : poison), "TL_IF without values (flag %d): got %d", flag, outi[2]);
        tile_free(x);
        tile_free(out);
        tile_free(outi);
    }

    int n = (int)tt_int(0, 20), bad = 0;
    float *x = tile_malloc((size_t)(n + 1) * BLK * 4), *out = tile_malloc(BLK * 4);
    for (int i = 0; i < n * BLK; i++) x[i] = (float)tt_normal();
    tt_poison(out, BLK * 4);
    TT_OK(for_if(TILE_OPTS(.grid = {1}), x, out, n));
    for (int j = 0; j < BLK; j++) {
        float acc = 0;
        for (int i = 0; i < n; i++) {
            float row = x[i * BLK + j];
            acc = i % 3 == 0 ? acc + row : i % 3 == 1 ? acc - row : fmaxf(acc, row);
        }
        bad += out[j] != acc;
    }
    TT_CHECK(bad == 0, "nested TL_IF in TL_FOR (n=%d): %d lanes wrong", n, bad);
    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(if_else));
    tile_kernel_release(TILE_KERNEL_OF(for_if));
}

/* ---- TL_WHILE --------------------------------------------------------------------------------- */
TILE_KERNEL(collatz, (tl_ptr_i32, x), (tl_ptr_i32, steps), (tl_ptr_i32, iters))
{
    tl_t offs = tl_arange(0, BLK);
    tl_t v = tl_load(tl_add(x, offs));
    tl_t st = tl_zeros(TL_I32, BLK), it = tl_cast(0, TL_I32);
    TL_WHILE (tl_gt(tl_max(v, 0), 1), v, st, it) {
        tl_t active = tl_gt(v, 1);
        tl_t next = tl_where(tl_eq(tl_mod(v, 2), 0), tl_floordiv(v, 2), tl_add(tl_mul(v, 3), 1));
        v = tl_where(active, next, v);
        st = tl_add(st, tl_where(active, 1, 0));
        it = tl_add(it, 1);
    }
    tl_store(tl_add(steps, offs), st);
    tl_store(tl_add(x, offs), v);
    tl_store(iters, it);
}

TILE_KERNEL(countdown, (tl_ptr_i32, nptr), (tl_ptr_i32, out))
{
    tl_t n = tl_load(nptr);
    tl_t c = tl_cast(0, TL_I32);
    TL_WHILE (tl_gt(n, 0), n, c) {
        n = tl_sub(n, 1);
        c = tl_add(c, 2);
    }
    tl_store(out, c);
    tl_store(tl_add(out, 1), n);
}

/* a data-dependent TL_WHILE inside a TL_FOR, and a TL_FOR inside a TL_WHILE */
TILE_KERNEL(while_for, (tl_ptr_i32, x), (tl_ptr_i32, out), (tl_i32, n))
{
    tl_t total = tl_cast(0, TL_I32);
    TL_FOR (i, 0, n, 1, total) {
        tl_t v = tl_load(tl_add(x, i)), c = tl_cast(0, TL_I32);
        TL_WHILE (tl_gt(v, 0), v, c) {
            v = tl_floordiv(v, 2);
            c = tl_add(c, 1);
        }
        tl_store(tl_add(out, i), c);
        total = tl_add(total, c);
    }
    tl_t k = tl_cast(0, TL_I32), acc = tl_cast(0, TL_I32);
    TL_WHILE (tl_lt(k, n), k, acc) {
        TL_FOR (j, 0, k, 1, acc) {
            acc = tl_add(acc, j);
        }
        k = tl_add(k, 1);
    }
    tl_store(tl_add(out, n), total);
    tl_store(tl_add(out, tl_add(n, 1)), acc);
}

static void test_while(void) {
    int bad;
    int32_t *x = tile_malloc(BLK * 4), *steps = tile_malloc(BLK * 4), *iters = tile_malloc(4), want[BLK], maxsteps = 0;
    for (int i = 0; i < BLK; i++) {
        x[i] = (int32_t)tt_int(1, 2000);
        int64_t v = x[i];
        want[i] = 0;
        while (v > 1) {
            v = v % 2 == 0 ? v / 2 : 3 * v + 1;
            want[i]++;
        }
        if (want[i] > maxsteps) maxsteps = want[i];
    }
    tt_poison(steps, BLK * 4);
    tt_poison(iters, 4);
    TT_OK(collatz(TILE_OPTS(.grid = {1}), x, steps, iters));
    bad = 0;
    for (int i = 0; i < BLK; i++) bad += steps[i] != want[i] || x[i] != 1;
    TT_CHECK(bad == 0, "TL_WHILE Collatz: %d of %d lanes wrong", bad, BLK);
    TT_CHECK(iters[0] == maxsteps, "TL_WHILE Collatz ran %d iterations, want %d", iters[0], maxsteps);
    tile_free(x);
    tile_free(steps);
    tile_free(iters);

    int starts[3] = {(int)tt_int(1, 500), 0, -(int)tt_int(1, 10)};
    for (int c = 0; c < 3; c++) {
        int32_t *np = tile_malloc(4), *out = tile_malloc(8);
        np[0] = starts[c];
        tt_poison(out, 8);
        TT_OK(countdown(TILE_OPTS(.grid = {1}), np, out));
        int n0 = starts[c] > 0 ? starts[c] : 0;
        TT_CHECK(out[0] == 2 * n0 && out[1] == (starts[c] > 0 ? 0 : starts[c]), "TL_WHILE count-down from %d: got %d and %d", starts[c],
                 out[0], out[1]);
        tile_free(np);
        tile_free(out);
    }
    int n = (int)tt_int(0, 40);
    int32_t *xs = tile_malloc((size_t)(n + 1) * 4), *os = tile_malloc((size_t)(n + 2) * 4), total = 0, acc = 0;
    for (int i = 0; i < n; i++) xs[i] = (int32_t)tt_int(-5, 1 << 30);
    tt_poison(os, (size_t)(n + 2) * 4);
    TT_OK(while_for(TILE_OPTS(.grid = {1}), xs, os, n));
    bad = 0;
    for (int i = 0; i < n; i++) {
        int c = 0;
        for (int32_t v = xs[i]; v > 0; v /= 2) c++;
        bad += os[i] != c;
        total += c;
    }
    for (int k = 0; k < n; k++) acc += k * (k - 1) / 2;
    TT_CHECK(bad == 0 && os[n] == total && os[n + 1] == acc, "TL_WHILE in TL_FOR / TL_FOR in TL_WHILE (n=%d): %d wrong, %d/%d, %d/%d", n,
             bad, os[n], total, os[n + 1], acc);
    tile_free(xs);
    tile_free(os);
    tile_kernel_release(TILE_KERNEL_OF(while_for));
    tile_kernel_release(TILE_KERNEL_OF(collatz));
    tile_kernel_release(TILE_KERNEL_OF(countdown));
}

/* ---- C control flow over meta-parameters ----------------------------------------------------- */
static int meta_traces;
TILE_KERNEL(meta_unroll, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    int U = TL_META(UNROLL), MODE = TL_META(MODE);
    meta_traces++;
    tl_t offs = tl_arange(0, BLK);
    tl_t v = tl_load(tl_add(x, offs));
    tl_t acc = tl_zeros_like(v);
    for (int j = 0; j < U; j++) acc = tl_add(acc, tl_mul(v, (double)(j + 1)));
    if (MODE == 1) acc = tl_neg(acc);
    else acc = tl_add(acc, 0.5);
    tl_store(tl_add(out, offs), acc);
}

static int has_word(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        int before = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before && after) return 1;
    }
    return 0;
}

static void test_meta(void) {
    float *x = tile_malloc(BLK * 4), *out = tile_malloc(BLK * 4);
    for (int i = 0; i < BLK; i++) x[i] = (float)tt_normal();
    int U[2] = {(int)tt_int(1, 4), (int)tt_int(5, 8)}, MODE[2] = {1, 0};
    meta_traces = 0;
    for (int rep = 0; rep < 2; rep++)
        for (int c = 0; c < 2; c++) {
            tt_poison(out, BLK * 4);
            TT_OK(meta_unroll(TILE_OPTS(.grid = {1}, .meta = {{"UNROLL", U[c]}, {"MODE", MODE[c]}}), x, out));
            double got[BLK], want[BLK];
            for (int i = 0; i < BLK; i++) {
                float acc = 0;
                for (int j = 0; j < U[c]; j++) acc = acc + x[i] * (float)(j + 1);
                want[i] = MODE[c] == 1 ? -acc : acc + 0.5f;
                got[i] = out[i];
            }
            char what[64];
            snprintf(what, sizeof what, "meta_unroll UNROLL=%d MODE=%d launch %d", U[c], MODE[c], rep + 1);
            tt_check_close(what, got, want, BLK, 0, 0);
        }
    TT_CHECK(meta_traces == 2, "two meta configurations launched twice each were built %d times, want 2 (one per configuration)",
             meta_traces);
    char *ir = NULL;
    TT_OK(tile_kernel_ir(TILE_KERNEL_OF(meta_unroll), TILE_OPTS(.meta = {{"UNROLL", 3}, {"MODE", 1}}), &ir));
    TT_CHECK(ir && !has_word(ir, "for") && !has_word(ir, "if") && !has_word(ir, "while"),
             "C control flow over meta-parameters left runtime control flow in the IR:\n%s", ir ? ir : "(null)");
    tile_free_text(ir);
    tile_free(x);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(meta_unroll));
}

/* ---- tl_print, tl_device_assert, tl_debug_barrier, tile_kernel_ir ---------------------------- */
TILE_KERNEL(printer, (tl_ptr_i32, x), (tl_i32, n))
{
    tl_t v = tl_load(tl_add(x, tl_arange(0, 8)));
    tl_print("val:", v);
    tl_print("n =", n);
}

static void test_print(void) {
    int32_t *x = tile_malloc(8 * 4);
    int n = (int)tt_int(-100000, 100000), seen[8] = {0}, nval = 0, nn = 0, stray = 0;
    for (int i = 0; i < 8; i++) x[i] = (int32_t)tt_int(-1000000, 1000000) * 8 + i;   /* distinct */
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    TT_CHECK(saved >= 0 && tmp, "cannot redirect stdout");
    if (saved < 0 || !tmp) return;
    dup2(fileno(tmp), 1);
    tile_status st = printer(TILE_OPTS(.grid = {2}), x, n);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    TT_CHECK(st == TILE_OK, "printer: %s", tile_last_error());
    rewind(tmp);
    char line[512];
    while (fgets(line, sizeof line, tmp)) {
        const char *p;
        if ((p = strstr(line, "val:"))) {
            long v = strtol(p + 4, NULL, 10);
            int k = -1;
            for (int i = 0; i < 8; i++)
                if (x[i] == v) k = i;
            if (k < 0) stray++;
            else seen[k]++;
            nval++;
        } else if ((p = strstr(line, "n ="))) {
            stray += strtol(p + 3, NULL, 10) != n;
            nn++;
        } else {
            stray++;
        }
    }
    fclose(tmp);
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += seen[i] != 2;
    TT_CHECK(nval == 16 && bad == 0 && nn == 2 && stray == 0,
             "tl_print: %d 'val:' lines (want 16, each value twice: %d wrong), %d 'n =' lines (want 2), %d stray lines", nval, bad, nn, stray);
    tile_free(x);
    tile_kernel_release(TILE_KERNEL_OF(printer));
}

static int assert_line;
TILE_KERNEL(checker, (tl_ptr_i32, x), (tl_i32, n))
{
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLK), tl_arange(0, BLK));
    tl_t m = tl_lt(offs, n);
    tl_t v = tl_load(tl_add(x, offs), .mask = m, .other = 0);
    tl_device_assert(tl_ge(v, 0), "values must be non-negative"); assert_line = __LINE__;
    tl_debug_barrier();
    tl_store(tl_add(x, offs), tl_add(v, 1), .mask = m);
}

static void test_assert(void) {
    int n = (int)tt_int(40, 150);
    unsigned g = tile_cdiv(n, BLK);
    int32_t *x = tile_malloc((size_t)n * 4), *orig = malloc((size_t)n * 4);
    for (int i = 0; i < n; i++) orig[i] = x[i] = (int32_t)tt_int(0, 1000);
    tile_status st = checker(TILE_OPTS(.grid = {g}), x, n);
    TT_CHECK(st == TILE_OK, "a passing tl_device_assert returned %s: %s", tile_status_id(st), tile_last_error());
    int bad = 0;
    for (int i = 0; i < n; i++) bad += x[i] != orig[i] + 1;
    TT_CHECK(bad == 0, "checker (assert passes): %d of %d elements wrong", bad, n);

    x[tt_int(0, n - 1)] = -(int32_t)tt_int(1, 100);
    tile_set_log(quiet_log, NULL);
    tile_clear_error();
    st = checker(TILE_OPTS(.grid = {g}), x, n);
    tile_set_log(NULL, NULL);
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == TILE_ERR_ASSERT && e->status == TILE_ERR_ASSERT, "a failing tl_device_assert returned %s", tile_status_id(st));
    TT_CHECK(e->line == assert_line && strstr(e->file, "test_control.c") && strstr(e->message, "values must be non-negative"),
             "a failing tl_device_assert reported %s:%d '%s', want line %d", e->file, e->line, e->message, assert_line);
    tile_free(x);
    free(orig);
    tile_kernel_release(TILE_KERNEL_OF(checker));
}

TILE_KERNEL(all_control, (tl_ptr_i32, out), (tl_i32, n))
{
    tl_t s = tl_cast(0, TL_I32), k = tl_cast(0, TL_I32);
    TL_FOR (i, 0, n, 1, s) {
        TL_IF (tl_gt(i, 2), s) {
            s = tl_add(s, i);
        }
    }
    TL_WHILE (tl_lt(k, n), k, s) {
        k = tl_add(k, 1);
        s = tl_add(s, 1);
    }
    tl_store(out, s);
    tl_store(tl_add(out, 1), k);
}

static void test_ir(void) {
    int n = (int)tt_int(-3, 60);
    int32_t *out = tile_malloc(8);
    tt_poison(out, 8);
    TT_OK(all_control(TILE_OPTS(.grid = {1}), out, n));
    int want = 0;
    for (int i = 3; i < n; i++) want += i;
    want += n > 0 ? n : 0;
    TT_CHECK(out[0] == want && out[1] == (n > 0 ? n : 0), "all_control (n=%d): got %d and %d, want %d and %d", n, out[0], out[1], want,
             n > 0 ? n : 0);
    char *ir = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(all_control), TILE_OPTS(.grid = {1}), &ir);
    TT_CHECK(st == TILE_OK && ir, "tile_kernel_ir: %s", tile_last_error());
    if (ir)
        TT_CHECK(has_word(ir, "for") && has_word(ir, "if") && has_word(ir, "while") && strstr(ir, "all_control"),
                 "the IR of all_control does not mention for, if and while:\n%s", ir);
    tile_free_text(ir);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(all_control));
}

/* ---- misuse of loop values is reported at the user's line ---------------------------------------- */
static int scope_line, carry_line;
TILE_KERNEL(bad_scope, (tl_ptr_f32, out), (tl_i32, n))
{
    tl_t inner = {0}, acc = tl_zeros(TL_F32, 16);
    TL_FOR (i, 0, n, 1, acc) {
        inner = tl_full(TL_F32, 1.0, 16);
        acc = tl_add(acc, inner);
    }
    tl_store(tl_add(out, tl_arange(0, 16)), inner); scope_line = __LINE__;
}
TILE_KERNEL(bad_carry, (tl_ptr_f32, out), (tl_i32, n))
{
    tl_t acc = tl_zeros(TL_F32, 16);
    TL_FOR (i, 0, n, 1, acc) { carry_line = __LINE__; acc = tl_cast(acc, TL_F16); }
    tl_store(tl_add(out, tl_arange(0, 16)), acc);
}

static void test_misuse(void) {
    float *out = tile_malloc(16 * 4);
    tile_set_log(quiet_log, NULL);
    tile_status st = bad_scope(TILE_OPTS(.grid = {1}), out, 4);
    TT_CHECK(st == TILE_ERR_SCOPE && tile_last_error_info()->line == scope_line,
             "a loop value used after the loop: %s at line %d, want TILE_ERR_SCOPE at line %d", tile_status_id(st),
             tile_last_error_info()->line, scope_line);
    st = bad_carry(TILE_OPTS(.grid = {1}), out, 4);
    TT_CHECK(st == TILE_ERR_CARRY && tile_last_error_info()->line == carry_line,
             "a carried value changing dtype: %s at line %d, want TILE_ERR_CARRY at line %d", tile_status_id(st),
             tile_last_error_info()->line, carry_line);
    tile_set_log(NULL, NULL);
    tile_free(out);
    tile_kernel_release(TILE_KERNEL_OF(bad_scope));
    tile_kernel_release(TILE_KERNEL_OF(bad_carry));
}

int main(void) {
    tt_seed();
    test_for();
    test_matmul();
    test_if();
    test_while();
    test_meta();
    test_print();
    test_assert();
    test_ir();
    test_misuse();
    return tt_finish("test_control");
}
