/* tests/test_cxx.cpp — tile.hpp, the C++20 spelling of the language,
   beyond what the tutorials (examples/cpp, tests/cxx_tutorials.sh) use:
   combine lambdas with captures (tl::reduce, tl::associative_scan with
   .reverse), the reductions' options, indexing with None, compound
   assignment, tl::where, tl::dot, block pointers with boundary checks,
   atomics, tl::split, and errors reported at the user's line from an
   operator and from a tl:: call. Random inputs, float64 references, outputs
   poisoned before each launch. */
#include "tile.hpp"

#include "test_util.h"

using tl::_;
using tl::None;

enum { R = 8, C = 64 };

/* one program: x is R x C (row stride C); per row: the max or min by a
   captured flag (a combine lambda), the reverse cumulative sum (a scan
   lambda), the sum kept as [R, 1] and broadcast back, the argmax, |x| by
   tl::where, and x * 2 + 1 by compound assignment */
TILE_KERNEL(cx_rows, (tl_ptr_f32, x), (tl_ptr_f32, ext), (tl_ptr_f32, rcum), (tl_ptr_f32, centered), (tl_ptr_i32, amax),
            (tl_ptr_f32, absx), (tl_ptr_f32, affine), (tl_i32, use_max))
{
    int want_max = TL_META(WANT_MAX);
    tl::tensor rows = tl::arange(0, R), cols = tl::arange(0, C);
    tl::tensor offs = rows(_, None) * C + cols(None, _);
    tl::tensor v = tl::load(x + offs);
    auto pick = [want_max](tl::tensor a, tl::tensor b) -> tl::tensor { return want_max ? tl::maximum(a, b) : tl::minimum(a, b); };
    tl::store(ext + rows, tl::reduce(v, 1, pick));
    tl::store(rcum + offs, tl::associative_scan(v, 1, [](tl::tensor a, tl::tensor b) { return a + b; }, {.reverse = 1}));
    tl::tensor s = tl::sum(v, 1, {.keep_dims = 1});                  /* [R, 1] */
    tl::store(centered + offs, v - s / C);
    tl::store(amax + rows, tl::argmax(v, 1));
    tl::store(absx + offs, tl::where(v > 0, v, -v));
    tl::tensor a = v;
    a *= 2;
    a += 1;
    tl::store(affine + offs, a);
    (void)use_max;
}

/* C = A @ B for 16 x 16 f16 blocks, f32 accumulation started from ones,
   then split: the even and odd columns of C go to two outputs */
TILE_KERNEL(cx_dot, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c_even), (tl_ptr_f32, c_odd))
{
    tl::tensor i = tl::arange(0, 16);
    tl::tensor offs = i(_, None) * 16 + i(None, _);
    tl::tensor acc = tl::full({16, 16}, 1.0, tl::float32);
    acc = tl::dot(tl::load(a + offs), tl::load(b + offs), acc, {.input_precision = TL_PRECISION_IEEE});
    auto [even, odd] = tl::split(tl::reshape(acc, {16, 8, 2}));
    tl::tensor o8 = i(_, None) * 8 + tl::arange(0, 8)(None, _);
    tl::store(c_even + o8, even);
    tl::store(c_odd + o8, odd);
}

/* a 16 x 16 block at (row0, col0) of an m x n matrix through a block
   pointer, its lanes outside read as 0, written back clipped; each program
   adds one to a counter */
TILE_KERNEL(cx_block, (tl_ptr_f32, src), (tl_ptr_f32, dst), (tl_ptr_i32, counter), (tl_i32, m), (tl_i32, n), (tl_i32, row0), (tl_i32, col0))
{
    tl_block_ptr in = tl::make_block_ptr(src, {m, n}, {n, 1}, {row0, col0}, {16, 16}, {1, 0});
    tl::tensor blk = tl::load(in, {.boundary_check = TL_DIMS(0, 1), .padding_option = TL_PAD_ZERO});
    tl_block_ptr out = tl::make_block_ptr(dst, {m, n}, {n, 1}, {0, 0}, {16, 16}, {1, 0});
    out = tl::advance(out, {row0, col0});
    tl::store(out, blk + 1, {.boundary_check = TL_DIMS(0, 1)});
    tl::atomic_add(counter, 1);
}

/* inline PTX: x + y + 1 by add.s32 on the GPU; the interpreter refuses it at its line */
enum { ASM_LINE = __LINE__ + 4 };
TILE_KERNEL(cx_asm, (tl_ptr_i32, x), (tl_ptr_i32, y), (tl_ptr_i32, out))
{
    tl::tensor offs = tl::arange(0, 64);
    tl::tensor r = tl::inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", {tl::load(x + offs), tl::load(y + offs)}, tl::int32, true, 1);
    tl::store(out + offs, r + 1);
}

/* errors: a shape mismatch in an operator, reported at the line of the
   tl::tensor it is bound to; a mask of the wrong shape, at tl::load's line */
enum { SHAPE_LINE = __LINE__ + 3 };
TILE_KERNEL(cx_bad_shape, (tl_ptr_f32, x))
{
    tl::tensor bad = tl::arange(0, 16) + tl::arange(0, 32);
    tl::store(x + tl::arange(0, 16), bad);
}
enum { MASK_LINE = __LINE__ + 4 };
TILE_KERNEL(cx_bad_mask, (tl_ptr_f32, x))
{
    tl::tensor offs = tl::arange(0, 16);
    tl::tensor v = tl::load(x + offs, {.mask = tl::arange(0, 8) < 4});
    tl::store(x + offs, v);
}

static void test_rows(int want_max)
{
    const size_t n = R * C;
    float hx[n], ext[R], rcum[n], cen[n], absx[n], aff[n];
    int32_t am[R];
    for (size_t i = 0; i < n; i++) hx[i] = (float)tt_uniform(-4, 4);
    float *x = (float *)tile_malloc(sizeof hx), *dext = (float *)tile_malloc(sizeof ext), *drc = (float *)tile_malloc(sizeof rcum);
    float *dcen = (float *)tile_malloc(sizeof cen), *dabs = (float *)tile_malloc(sizeof absx), *daff = (float *)tile_malloc(sizeof aff);
    int32_t *dam = (int32_t *)tile_malloc(sizeof am);
    TT_CHECK(x && dext && drc && dcen && dabs && daff && dam, "tile_malloc");
    if (!x || !dext || !drc || !dcen || !dabs || !daff || !dam) return;
    tile_memcpy_htod(x, hx, sizeof hx);
    tile_memset(dext, 0xA5, sizeof ext), tile_memset(drc, 0xA5, sizeof rcum), tile_memset(dcen, 0xA5, sizeof cen);
    tile_memset(dabs, 0xA5, sizeof absx), tile_memset(daff, 0xA5, sizeof aff), tile_memset(dam, 0xA5, sizeof am);
    tile_status st = cx_rows(tl::opts({.grid = {1}, .meta = {{"WANT_MAX", want_max}}}), x, dext, drc, dcen, dam, dabs, daff, 0);
    TT_CHECK(st == TILE_OK, "cx_rows: %s", tile_last_error());
    tile_memcpy_dtoh(ext, dext, sizeof ext), tile_memcpy_dtoh(rcum, drc, sizeof rcum), tile_memcpy_dtoh(cen, dcen, sizeof cen);
    tile_memcpy_dtoh(am, dam, sizeof am), tile_memcpy_dtoh(absx, dabs, sizeof absx), tile_memcpy_dtoh(aff, daff, sizeof aff);
    for (int r = 0; r < R; r++) {
        const float *xr = hx + r * C;
        double best = xr[0], sum = 0;
        int arg = 0;
        for (int c = 0; c < C; c++) {
            if (want_max ? xr[c] > best : xr[c] < best) best = xr[c];
            if (xr[c] > xr[arg]) arg = c;
            sum += xr[c];
        }
        TT_CHECK(ext[r] == (float)best, "row %d: %s %g, want %g", r, want_max ? "max" : "min", ext[r], best);
        TT_CHECK(am[r] == arg, "row %d: argmax %d, want %d", r, am[r], arg);
        double tail = 0;
        for (int c = C - 1; c >= 0; c--) {
            tail += xr[c];
            TT_CHECK(tt_close(rcum[r * C + c], tail, 1e-4, 1e-5), "rcum[%d][%d] = %g, want %g", r, c, rcum[r * C + c], tail);
            TT_CHECK(tt_close(cen[r * C + c], xr[c] - sum / (double)C, 1e-4, 1e-5), "centered[%d][%d] = %g, want %g", r, c, cen[r * C + c], xr[c] - sum / (double)C);
            TT_CHECK(absx[r * C + c] == fabsf(xr[c]), "abs[%d][%d] = %g", r, c, absx[r * C + c]);
            TT_CHECK(aff[r * C + c] == xr[c] * 2.0f + 1.0f, "affine[%d][%d] = %g, want %g", r, c, aff[r * C + c], xr[c] * 2.0 + 1.0);
        }
    }
    tile_free(x), tile_free(dext), tile_free(drc), tile_free(dcen), tile_free(dabs), tile_free(daff), tile_free(dam);
}

static void test_dot(void)
{
    tile_f16 ha[256], hb[256];
    float ce[128], co[128];
    for (int i = 0; i < 256; i++) ha[i] = tile_f16_from(tt_uniform(-1, 1)), hb[i] = tile_f16_from(tt_uniform(-1, 1));
    tile_f16 *a = (tile_f16 *)tile_malloc(sizeof ha), *b = (tile_f16 *)tile_malloc(sizeof hb);
    float *de = (float *)tile_malloc(sizeof ce), *dodd = (float *)tile_malloc(sizeof co);
    TT_CHECK(a && b && de && dodd, "tile_malloc");
    if (!a || !b || !de || !dodd) return;
    tile_memcpy_htod(a, ha, sizeof ha), tile_memcpy_htod(b, hb, sizeof hb);
    tile_memset(de, 0xA5, sizeof ce), tile_memset(dodd, 0xA5, sizeof co);
    tile_status st = cx_dot(tl::opts({.grid = {1}}), a, b, de, dodd);
    TT_CHECK(st == TILE_OK, "cx_dot: %s", tile_last_error());
    tile_memcpy_dtoh(ce, de, sizeof ce), tile_memcpy_dtoh(co, dodd, sizeof co);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double want = 1;
            for (int k = 0; k < 16; k++) want += tile_f16_to(ha[i * 16 + k]) * tile_f16_to(hb[k * 16 + j]);
            float got = j % 2 ? co[i * 8 + j / 2] : ce[i * 8 + j / 2];
            TT_CHECK(tt_close(got, want, 1e-4, 1e-5), "dot[%d][%d] = %g, want %g", i, j, got, want);
        }
    tile_free(a), tile_free(b), tile_free(de), tile_free(dodd);
}

static void test_block(void)
{
    const int m = 21, n = 19;
    float hs[m * n], hd[m * n];
    for (int i = 0; i < m * n; i++) hs[i] = (float)tt_uniform(-1, 1);
    float *s = (float *)tile_malloc(sizeof hs), *d = (float *)tile_malloc(sizeof hd);
    int32_t *cnt = (int32_t *)tile_malloc(sizeof(int32_t));
    TT_CHECK(s && d && cnt, "tile_malloc");
    if (!s || !d || !cnt) return;
    tile_memcpy_htod(s, hs, sizeof hs);
    int row0 = (int)tt_int(0, m - 1), col0 = (int)tt_int(0, n - 1), zero = 0;
    tile_memset(d, 0xA5, sizeof hd);
    tile_memcpy_htod(cnt, &zero, sizeof zero);
    tile_status st = cx_block(tl::opts({.grid = {3}}), s, d, cnt, m, n, row0, col0);
    TT_CHECK(st == TILE_OK, "cx_block: %s", tile_last_error());
    tile_memcpy_dtoh(hd, d, sizeof hd);
    int32_t count = -1;
    tile_memcpy_dtoh(&count, cnt, sizeof count);
    TT_CHECK(count == 3, "the counter: %d atomic adds, want 3", count);
    uint32_t poison;
    memset(&poison, 0xA5, sizeof poison);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            int inside = i >= row0 && i < row0 + 16 && j >= col0 && j < col0 + 16;
            uint32_t bits;
            memcpy(&bits, &hd[i * n + j], sizeof bits);
            if (inside) TT_CHECK(hd[i * n + j] == hs[i * n + j] + 1.0f, "block (%d, %d): %g, want %g", i, j, hd[i * n + j], hs[i * n + j] + 1.0);
            else TT_CHECK(bits == poison, "(%d, %d) outside the block (at %d, %d) was written", i, j, row0, col0);
        }
    tile_free(s), tile_free(d), tile_free(cnt);
}

static void test_errors(void)
{
    float *x = (float *)tile_malloc(64 * sizeof(float));
    TT_CHECK(x != NULL, "tile_malloc");
    if (!x) return;
    tile_status st = cx_bad_shape(tl::opts({.grid = {1}}), x);
    tt_check_user_error("an operator's shape mismatch", st, TILE_ERR_SHAPE, "test_cxx.cpp", SHAPE_LINE, "");
    st = cx_bad_mask(tl::opts({.grid = {1}}), x);
    tt_check_user_error("a mask of another shape", st, TILE_ERR_SHAPE, "test_cxx.cpp", MASK_LINE, "");
    tile_free(x);
}

static void test_asm(void)
{
    int32_t hx[64], hy[64], ho[64];
    for (int i = 0; i < 64; i++) hx[i] = (int32_t)tt_int(-1000000, 1000000), hy[i] = (int32_t)tt_int(-1000000, 1000000);
    int32_t *x = (int32_t *)tile_malloc(sizeof hx), *y = (int32_t *)tile_malloc(sizeof hy), *o = (int32_t *)tile_malloc(sizeof ho);
    TT_CHECK(x && y && o, "tile_malloc");
    if (!x || !y || !o) return;
    tile_memcpy_htod(x, hx, sizeof hx), tile_memcpy_htod(y, hy, sizeof hy), tile_memset(o, 0xA5, sizeof ho);
    char *ptx = nullptr;
    tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(cx_asm), tl::opts({.grid = {1}}), "sm_90a", &ptx);
    TT_CHECK(st == TILE_OK && ptx && strstr(ptx, "add.s32 "), "cx_asm's PTX: %s", st == TILE_OK ? "no add.s32" : tile_last_error());
    tile_free_text(ptx);
    st = cx_asm(tl::opts({.grid = {1}}), x, y, o);
    if (strcmp(tile_backend_name(), "interp") == 0) {
        tt_check_user_error("inline PTX in the interpreter", st, TILE_ERR_NODEVICE, "test_cxx.cpp", ASM_LINE, "GPU only");
        printf("cx_asm's run: skipped (no GPU; the interpreter refuses inline PTX, checked)\n");
    } else {
        TT_CHECK(st == TILE_OK, "cx_asm: %s", tile_last_error());
        tile_memcpy_dtoh(ho, o, sizeof ho);
        for (int i = 0; i < 64; i++) TT_CHECK(ho[i] == hx[i] + hy[i] + 1, "cx_asm[%d] = %d, want %d", i, ho[i], hx[i] + hy[i] + 1);
    }
    tile_free(x), tile_free(y), tile_free(o);
}

int main()
{
    tt_seed();
    test_asm();
    test_rows(1);
    test_rows(0);
    test_dot();
    test_block();
    test_errors();
    return tt_finish("test_cxx");
}
