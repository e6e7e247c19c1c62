/* tests/test_build_growth.c — valid kernels whose build crosses every growth
   of the IR's tables.

   The builder appends to growing tables (values, ops, regions, the operand
   pool), and each append may move a table. A pointer into one kept across
   an append reads freed memory, but only when that append is the one that
   crosses a capacity boundary, so a suite whose kernels happen to miss the
   boundaries stays clean under AddressSanitizer. Here each kernel puts N
   filler ops before the op under test, for every N up to past several
   boundaries, and checks the result against a float64 reference (or the
   error, for a mistake). The sanitizer build also defines TILE_STRESS_GROW,
   which moves a table on every growth: there a few N suffice.

   Regressions, each once a use after free or a bad index:
   - tl_permute / tl_trans read the operand's type after appending the op;
   - TL_FOR's end, when a carried value changes type, yielded the block
     arguments through a pointer into the pool that the error path moved;
   - TL_WHILE's end did the same with the op's regions;
   - tl_interleave of two scalars indexed the dims at -1;
   - tl_arange next to INT_MAX, and of 2^31 elements. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <limits.h>

#ifdef TILE_STRESS_GROW
static const int fillers[] = {0, 1, 2, 3, 57, 130};
#define NFILL ((int)(sizeof fillers / sizeof fillers[0]))
#define FILL(i) fillers[i]
#else
#define NFILL 320
#define FILL(i) (i)
#endif

static int n_msgs;
static void count_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
    n_msgs++;
}

/* out[j, i] = x[i, j] + N for an [8, 16] x */
TILE_KERNEL(trans_after, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    int N = TL_META(N);
    tl_t r = tl_expand_dims(tl_arange(0, 8), 1), c = tl_expand_dims(tl_arange(0, 16), 0);
    tl_t v = tl_load(tl_add(x, tl_add(tl_mul(r, 16), c)));
    for (int k = 0; k < N; k++) v = tl_add(v, 1.0);
    tl_t t = tl_trans(v);
    tl_t r2 = tl_expand_dims(tl_arange(0, 16), 1), c2 = tl_expand_dims(tl_arange(0, 8), 0);
    tl_store(tl_add(out, tl_add(tl_mul(r2, 8), c2)), t);
}
/* out[k, i, j] = x[i, j, k] + N for a [2, 4, 8] x: permute (2, 0, 1) */
TILE_KERNEL(permute_after, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    int N = TL_META(N);
    tl_t i = tl_reshape(tl_arange(0, 2), 2, 1, 1), j = tl_reshape(tl_arange(0, 4), 1, 4, 1), k = tl_reshape(tl_arange(0, 8), 1, 1, 8);
    tl_t v = tl_load(tl_add(x, tl_add(tl_add(tl_mul(i, 32), tl_mul(j, 8)), k)));
    for (int n = 0; n < N; n++) v = tl_add(v, 1.0);
    tl_t p = tl_permute(v, 2, 0, 1);
    tl_t k2 = tl_reshape(tl_arange(0, 8), 8, 1, 1), i2 = tl_reshape(tl_arange(0, 2), 1, 2, 1), j2 = tl_reshape(tl_arange(0, 4), 1, 1, 4);
    tl_store(tl_add(out, tl_add(tl_add(tl_mul(k2, 8), tl_mul(i2, 4)), j2)), p);
}
/* a carried value that changes type, after N ops: one CARRY error */
static int L_carry_widen;
TILE_KERNEL(carry_widen_after, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int N = TL_META(N);
    tl_t offs = tl_arange(0, 16);
    tl_t acc = tl_load(tl_add(x, offs));
    for (int k = 0; k < N; k++) acc = tl_add(acc, 1.0);
    TL_FOR (i, 0, n, 1, acc) { L_carry_widen = __LINE__;
        acc = tl_add(acc, tl_broadcast_to(tl_load(tl_add(x, offs)), 4, 16));
    }
    tl_store(tl_add(out, offs), tl_sum(acc, 0));
}
/* the same in a TL_WHILE */
static int L_carry_while;
TILE_KERNEL(carry_while_after, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int N = TL_META(N);
    tl_t offs = tl_arange(0, 16);
    tl_t acc = tl_load(tl_add(x, offs)), i = tl_program_id(0);
    for (int k = 0; k < N; k++) acc = tl_add(acc, 1.0);
    TL_WHILE (tl_lt(i, n), acc, i) { L_carry_while = __LINE__;
        acc = tl_cast(acc, TL_F16);
        i = tl_add(i, 1);
    }
    tl_store(tl_add(out, offs), acc);
}
/* a sum over a loop whose carried values keep their types, after N ops */
TILE_KERNEL(loop_after, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int N = TL_META(N);
    tl_t offs = tl_arange(0, 16);
    tl_t acc = tl_zeros(TL_F32, 16), p = tl_add(x, offs);
    for (int k = 0; k < N; k++) acc = tl_add(acc, 1.0);
    TL_FOR (i, 0, n, 1, acc, p) {
        acc = tl_add(acc, tl_load(p));
        p = tl_add(p, 16);
    }
    tl_store(tl_add(out, offs), acc);
}
/* [a, b] from two scalars (Triton's interleave of scalars), and a0 b0 a1 b1 ... */
TILE_KERNEL(interleave_scalars, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t a = tl_load(x), b = tl_load(tl_add(x, 1));
    tl_store(tl_add(out, tl_arange(0, 2)), tl_interleave(a, b));
    tl_t va = tl_load(tl_add(x, tl_arange(0, 4))), vb = tl_load(tl_add(x, tl_arange(4, 8)));
    tl_store(tl_add(out, tl_arange(2, 10)), tl_interleave(va, vb));
}
/* TL_FORs nested as deep as a kernel may (64), one trip each: out = x + 1.
   Built, run, and compiled to PTX (the LLVM back end once overflowed its
   control-flow stack past 64 levels: the lowering adds levels of its own) */
static void nest_once(tl_t *acc, tl_t p, int depth) {
    if (depth == 0) {
        *acc = tl_add(*acc, tl_load(p));
        return;
    }
    tl_t a = *acc;
    TL_FOR (i, 0, 1, 1, a) { nest_once(&a, p, depth - 1); }
    *acc = a;
}
TILE_KERNEL(nest64, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 16);
    tl_t acc = tl_full(TL_F32, 1.0, 16);
    nest_once(&acc, tl_add(x, offs), 64);
    tl_store(tl_add(out, offs), acc);
}
/* the 64 ints below INT_MAX */
TILE_KERNEL(arange_top, (tl_ptr_i32, out)) {
    tl_t r = tl_arange(INT_MAX - 64, INT_MAX);
    tl_store(tl_add(out, tl_sub(r, INT_MAX - 64)), r);
}

static void fill(float *p, int n) {
    for (int k = 0; k < n; k++) p[k] = (float)tt_uniform(-1, 1);
}

int main(void) {
    tt_seed();
    enum { NX = 128 };
    float *x = (float *)tile_malloc(NX * sizeof *x), *out = (float *)tile_malloc(NX * sizeof *out);
    int32_t *iout = (int32_t *)tile_malloc(64 * sizeof *iout);
    TT_CHECK(x && out && iout, "tile_malloc failed");
    if (!x || !out || !iout) return tt_finish("test_build_growth");
    float hx[NX], hout[NX];

    int bad_trans = 0, bad_perm = 0, bad_loop = 0;
    for (int f = 0; f < NFILL; f++) {
        int N = FILL(f);
        fill(hx, NX);
        tile_memcpy_htod(x, hx, sizeof hx);
        tt_poison(out, NX * sizeof *out);
        TT_OK(trans_after(TILE_OPTS(.grid = {1}, .meta = {{"N", N}}), x, out));
        tile_memcpy_dtoh(hout, out, sizeof hout);
        for (int j = 0; j < 16; j++)
            for (int i = 0; i < 8; i++) {
                double want = (double)hx[i * 16 + j] + N;
                tt_checks++;
                if (!tt_close(hout[j * 8 + i], want, 1e-5, 1e-5) && bad_trans++ < 5)
                    printf("FAIL trans after %d ops: out[%d,%d] = %g, want %g\n", N, j, i, hout[j * 8 + i], want);
            }

        tt_poison(out, NX * sizeof *out);
        TT_OK(permute_after(TILE_OPTS(.grid = {1}, .meta = {{"N", N}}), x, out));
        tile_memcpy_dtoh(hout, out, sizeof hout);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < 8; k++) {
                    double want = (double)hx[i * 32 + j * 8 + k] + N;
                    float got = hout[k * 8 + i * 4 + j];
                    tt_checks++;
                    if (!tt_close(got, want, 1e-5, 1e-5) && bad_perm++ < 5)
                        printf("FAIL permute after %d ops: out[%d,%d,%d] = %g, want %g\n", N, k, i, j, got, want);
                }

        int trips = (int)tt_int(0, 7);
        tt_poison(out, NX * sizeof *out);
        TT_OK(loop_after(TILE_OPTS(.grid = {1}, .meta = {{"N", N}}), x, out, trips));
        tile_memcpy_dtoh(hout, out, sizeof hout);
        for (int c = 0; c < 16; c++) {
            double want = N;
            for (int t = 0; t < trips; t++) want += hx[t * 16 + c];
            tt_checks++;
            if (!tt_close(hout[c], want, 1e-4, 1e-5) && bad_loop++ < 5)
                printf("FAIL loop after %d ops (%d trips): out[%d] = %g, want %g\n", N, trips, c, hout[c], want);
        }

        /* the mistakes: one CARRY error each, at the loop's line, and nothing written */
        tile_kernel *carry[2] = {TILE_KERNEL_OF(carry_widen_after), TILE_KERNEL_OF(carry_while_after)};
        int *lines[2] = {&L_carry_widen, &L_carry_while};
        for (int c = 0; c < 2; c++) {
            tile_set_log(count_log, NULL);
            n_msgs = 0;
            tile_clear_error();
            tt_poison(out, NX * sizeof *out);
            tile_arg args[3];
            args[0].p = x;
            args[1].p = out;
            args[2].i = 3;
            tile_status st = tile_launch_kernel(carry[c], TILE_OPTS(.grid = {1}, .meta = {{"N", N}}), args);
            tile_set_log(NULL, NULL);
            const tile_error *e = tile_last_error_info();
            TT_CHECK(st == TILE_ERR_CARRY && e->line == *lines[c] && n_msgs == 1,
                     "%s after %d ops: %s at line %d (want TILE_ERR_CARRY at line %d), %d messages: %s", carry[c]->name, N,
                     tile_status_id(st), e->line, *lines[c], n_msgs, e->message);
            unsigned char pois[NX * sizeof(float)];
            tt_poison(pois, sizeof pois);
            tile_memcpy_dtoh(hout, out, sizeof hout);
            TT_CHECK(memcmp(hout, pois, sizeof hout) == 0, "%s after %d ops wrote memory", carry[c]->name, N);
        }
    }
    tt_failures += (bad_trans > 0) + (bad_perm > 0) + (bad_loop > 0);
    printf("transpose, permute, a loop and two carry mistakes after 0..%d filler ops: %d builds\n", FILL(NFILL - 1), 5 * NFILL);

    fill(hx, NX);
    tile_memcpy_htod(x, hx, sizeof hx);
    tt_poison(out, NX * sizeof *out);
    TT_OK(interleave_scalars(TILE_OPTS(.grid = {1}), x, out));
    tile_memcpy_dtoh(hout, out, sizeof hout);
    double want[16] = {hx[0], hx[1]};
    for (int k = 0; k < 4; k++) {
        want[2 + 2 * k] = hx[k];
        want[3 + 2 * k] = hx[4 + k];
    }
    double got[16];
    for (int k = 0; k < 10; k++) got[k] = hout[k];
    tt_check_close("tl_interleave(scalar, scalar) and of [4] tiles", got, want, 10, 0, 0);

    fill(hx, NX);
    tile_memcpy_htod(x, hx, sizeof hx);
    tt_poison(out, NX * sizeof *out);
    TT_OK(nest64(TILE_OPTS(.grid = {1}), x, out));
    tile_memcpy_dtoh(hout, out, sizeof hout);
    for (int k = 0; k < 16; k++) {
        got[k] = hout[k];
        want[k] = (double)hx[k] + 1.0;
    }
    tt_check_close("64 nested TL_FORs", got, want, 16, 1e-6, 1e-6);
    char *ptx = NULL;
    tile_status pst = tile_kernel_ptx(TILE_KERNEL_OF(nest64), TILE_OPTS(.grid = {1}), "sm_80", &ptx);
    if (pst == TILE_ERR_NODEVICE || pst == TILE_ERR_COMPILE) {
        /* no compiler at all is a skip; a failed compile with one is a bug */
        TT_CHECK(pst == TILE_ERR_NODEVICE, "64 nested TL_FORs to PTX: %s", tile_last_error());
        if (pst == TILE_ERR_NODEVICE) printf("64 nested TL_FORs to PTX: skipped: %s\n", tile_last_error());
    } else {
        TT_CHECK(pst == TILE_OK && ptx && strstr(ptx, ".entry"), "64 nested TL_FORs to PTX through %s: %s", tile_backend_name(), tile_last_error());
        if (pst == TILE_OK) printf("64 nested TL_FORs to PTX: ok (%zu bytes)\n", strlen(ptx));
    }
    tile_free_text(ptx);
    tile_kernel_release(TILE_KERNEL_OF(nest64));

    tt_poison(iout, 64 * sizeof *iout);
    TT_OK(arange_top(TILE_OPTS(.grid = {1}), iout));
    int32_t hi[64];
    tile_memcpy_dtoh(hi, iout, sizeof hi);
    int bad = 0;
    for (int k = 0; k < 64; k++) bad += hi[k] != INT_MAX - 64 + k;
    TT_CHECK(bad == 0, "tl_arange(INT_MAX - 64, INT_MAX): %d of 64 wrong (first %d)", bad, hi[0]);

    tile_kernel_release(TILE_KERNEL_OF(trans_after));
    tile_kernel_release(TILE_KERNEL_OF(permute_after));
    tile_kernel_release(TILE_KERNEL_OF(loop_after));
    tile_kernel_release(TILE_KERNEL_OF(carry_widen_after));
    tile_kernel_release(TILE_KERNEL_OF(carry_while_after));
    tile_kernel_release(TILE_KERNEL_OF(interleave_scalars));
    tile_kernel_release(TILE_KERNEL_OF(arange_top));
    tile_free(x);
    tile_free(out);
    tile_free(iout);
    return tt_finish("test_build_growth");
}
