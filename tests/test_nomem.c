/* tests/test_nomem.c — out of host memory while a kernel is built and run.

   tile's allocation hooks (TILE_MALLOC, TILE_REALLOC, TILE_FREE, the stb
   habit) are pointed at an allocator that fails on request. A kernel with
   TL_FOR, TL_IF/TL_ELSE, TL_WHILE, a tl_map_elementwise (a branch per
   element), loads, a reduction and a scan is
   built and launched in the interpreter while the k-th allocation fails,
   for every k the build and run make: once with that one allocation
   failing (a transient failure) and once with it and every later one
   failing. Each attempt must return TILE_ERR_NOMEM with exactly one
   message (or TILE_OK where the failed allocation was not needed), never
   abort or crash, write nothing when it fails, and leave the library able
   to build and run the same kernel correctly at once; the sanitizer build
   checks that nothing leaks. The same for tile_kernel_ir, and for
   tile_kernel_ptx, whose compile adds the lowering and the emitter (the
   lowering's allocations, all from TILE_MALLOC, are one list freed when any
   fails; the CUDA C emitter drops its text). */
#include <stdlib.h>

static long nm_fail_at = -1;   /* the allocation that fails (-1: none)       */
static int nm_sticky;          /* and every one after it                     */
static long nm_count;          /* allocations so far                         */
static long nm_failed;         /* allocations refused                        */
static int nm_refuse(void) {
    long k = nm_count++;
    if (nm_fail_at >= 0 && (k == nm_fail_at || (nm_sticky && k > nm_fail_at))) {
        nm_failed++;
        return 1;
    }
    return 0;
}
static void *nm_malloc(size_t n) { return nm_refuse() ? NULL : malloc(n); }
static void *nm_realloc(void *p, size_t n) { return nm_refuse() ? NULL : realloc(p, n); }
#define TILE_MALLOC(n) nm_malloc(n)
#define TILE_REALLOC(p, n) nm_realloc(p, n)
#define TILE_FREE(p) free(p)

#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

enum { BLOCK = 64, ROWS = 4 };

static int n_msgs;
static void count_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
    n_msgs++;
}

/* x clamped to [-10, 10] by a branch per element (the inputs are inside) */
static tl_t clip(const tl_t *x) {
    tl_t r = x[0];
    TL_IF (tl_gt(tl_abs(r), 10.0), r) { r = tl_where(tl_lt(r, 0), -10.0, 10.0); }
    return r;
}
/* out[r, :] = cumsum over the row of (x[r, :] * (r odd ? 2 : 1)) + the row's max
   (times the same) + 3, with the row walked in chunks of 16 by a TL_FOR and
   the 3 counted by a TL_WHILE; x through a tl_map_elementwise first */
TILE_KERNEL(busy, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int B = TL_META(BLOCK);
    tl_t row = tl_program_id(0);
    tl_t offs = tl_arange(0, B);
    tl_t mask = tl_lt(offs, n);
    tl_t v = tl_map_elementwise(clip, (tl_load(tl_add(x, tl_add(tl_mul(row, n), offs)), .mask = mask, .other = 0)));
    tl_t scale = tl_full(TL_F32, 1.0, B);
    TL_IF (tl_eq(tl_mod(row, 2), 1), scale) {
        scale = tl_full(TL_F32, 2.0, B);
    } TL_ELSE {
        scale = tl_add(scale, 0.0);
    }
    tl_t j = tl_program_id(1), three = tl_zeros(TL_F32, B);   /* j = 0 */
    TL_WHILE (tl_lt(j, 3), j, three) {
        three = tl_add(three, 1.0);
        j = tl_add(j, 1);
    }
    v = tl_mul(v, scale);
    tl_t m = tl_full(TL_F32, -INFINITY, 16);
    tl_t p = tl_add(x, tl_add(tl_mul(row, n), tl_arange(0, 16)));
    TL_FOR (k, 0, n, 16, m, p) {
        tl_t c = tl_load(p, .mask = tl_lt(tl_add(k, tl_arange(0, 16)), n), .other = -INFINITY);
        m = tl_maximum(m, c);
        p = tl_add(p, 16);
    }
    tl_t mx = tl_max(m, 0);
    tl_t mxs = tl_where(tl_eq(tl_mod(row, 2), 1), tl_mul(mx, 2.0), mx);
    tl_store(tl_add(out, tl_add(tl_mul(row, n), offs)), tl_add(tl_add(tl_cumsum(v, 0), mxs), three), .mask = mask);
}

static float hx[ROWS * BLOCK];
static double want[ROWS * BLOCK];
static float *gx, *gout;

static void reference(void) {
    for (int r = 0; r < ROWS; r++) {
        double s = r % 2 ? 2.0 : 1.0, mx = -INFINITY, acc = 0;
        for (int c = 0; c < BLOCK; c++) mx = hx[r * BLOCK + c] > mx ? hx[r * BLOCK + c] : mx;
        for (int c = 0; c < BLOCK; c++) {
            acc += (double)hx[r * BLOCK + c] * s;
            want[r * BLOCK + c] = acc + mx * s + 3;
        }
    }
}
static tile_status launch(void) {
    return busy(TILE_OPTS(.grid = {ROWS}, .meta = {{"BLOCK", BLOCK}}), gx, gout, BLOCK);
}
/* a clean build and run, checked against the reference */
static int run_clean(const char *after) {
    tile_kernel_release(TILE_KERNEL_OF(busy));
    for (int k = 0; k < ROWS * BLOCK; k++) hx[k] = (float)tt_uniform(-4, 4);
    reference();
    tile_memcpy_htod(gx, hx, sizeof hx);
    tt_poison(gout, sizeof hx);
    tile_status st = launch();
    TT_CHECK(st == TILE_OK, "after %s: a clean launch returned %s: %s", after, tile_status_id(st), tile_last_error());
    float got[ROWS * BLOCK];
    double g[ROWS * BLOCK];
    tile_memcpy_dtoh(got, gout, sizeof got);
    for (int k = 0; k < ROWS * BLOCK; k++) g[k] = got[k];
    return tt_check_close(after, g, want, ROWS * BLOCK, 1e-4, 1e-5);
}

/* one launch (mode 0), tile_kernel_ir (1) or tile_kernel_ptx (2, for sm_80) */
static tile_status attempt(int mode, char **text) {
    if (mode == 0) return launch();
    if (mode == 1) return tile_kernel_ir(TILE_KERNEL_OF(busy), TILE_OPTS(.meta = {{"BLOCK", BLOCK}}), text);
    return tile_kernel_ptx(TILE_KERNEL_OF(busy), TILE_OPTS(.meta = {{"BLOCK", BLOCK}}), "sm_80", text);
}
/* Every allocation of one attempt in turn. */
static long sweep(int mode, int sticky) {
    const char *what = mode == 2 ? "tile_kernel_ptx" : mode == 1 ? "tile_kernel_ir" : "launch";
    int ir = mode != 0;   /* a text comes back */
    /* how many allocations a clean attempt makes */
    tile_kernel_release(TILE_KERNEL_OF(busy));
    nm_fail_at = -1;
    nm_count = 0;
    char *text = NULL;
    tile_status st = attempt(mode, &text);
    tile_free_text(text);
    TT_CHECK(st == TILE_OK, "a clean %s returned %s", what, tile_status_id(st));
    long total = nm_count;
    int nomem = 0, ok = 0, bad = 0;
    for (long k = 0; k < total; k++) {
        tile_kernel_release(TILE_KERNEL_OF(busy));
        tt_poison(gout, sizeof hx);
        tile_clear_error();
        n_msgs = 0;
        nm_count = 0;
        nm_failed = 0;
        nm_sticky = sticky;
        nm_fail_at = k;
        text = NULL;
        st = attempt(mode, &text);
        nm_fail_at = -1;
        const tile_error *e = tile_last_error_info();
        if (st == TILE_ERR_NOMEM) {
            nomem++;
            TT_CHECK(n_msgs == 1 && e->status == TILE_ERR_NOMEM && strstr(e->message, "TILE_ERR_NOMEM"),
                     "%s, allocation %ld failing: %d messages, last %s", what, k, n_msgs, e->message);
            TT_CHECK(text == NULL, "%s, allocation %ld failing: text returned with an error", what, k);
            if (!ir) {
                unsigned char pois[sizeof hx], got[sizeof hx];
                tt_poison(pois, sizeof pois);
                tile_memcpy_dtoh(got, gout, sizeof got);
                TT_CHECK(memcmp(pois, got, sizeof got) == 0, "launch, allocation %ld failing: memory written", k);
            }
        } else if (st == TILE_OK) {
            ok++;
            TT_CHECK(n_msgs == 0, "%s, allocation %ld failing: OK with %d messages", what, k, n_msgs);
        } else {
            bad++;
            TT_CHECK(0, "%s, allocation %ld failing: %s (want TILE_ERR_NOMEM): %s", what, k, tile_status_id(st), e->message);
        }
        tile_free_text(text);
        if (k % 16 == 0 || k == total - 1) {
            char after[96];
            snprintf(after, sizeof after, "%s with allocation %ld failing", what, k);
            run_clean(after);
        }
    }
    TT_CHECK(nomem > 0, "%s: no failure was ever reported", what);
    printf("%s: %ld allocations, each failing in turn (%s): %d TILE_ERR_NOMEM, %d not needed, %d wrong\n", what, total,
           sticky ? "and all after it" : "alone", nomem, ok, bad);
    return total;
}

int main(void) {
    tt_seed();
    tile_set_log(count_log, NULL);
    gx = (float *)tile_malloc(sizeof hx);
    gout = (float *)tile_malloc(sizeof hx);
    TT_CHECK(gx && gout, "tile_malloc failed");
    if (!gx || !gout) return tt_finish("test_nomem");
    if (strcmp(tile_backend_name(), "interp") != 0)
        printf("backend %s: the sweep runs the interpreter's share of a launch only where it runs\n", tile_backend_name());
    run_clean("nothing");
    long n_ir = 0, n_ptx = 0;
    for (int mode = 0; mode < 2; mode++)
        for (int sticky = 0; sticky < 2; sticky++) n_ir = sweep(mode, sticky);
    if (tile__ext_mode() || tile__nvrtc_available()) {
        for (int sticky = 0; sticky < 2; sticky++) n_ptx = sweep(2, sticky);
        /* the lowering's state, registers and the CUDA C emitter's text come from TILE_MALLOC too */
        TT_CHECK(n_ptx >= n_ir + 16, "tile_kernel_ptx makes %ld allocations through TILE_MALLOC, the build alone %ld: the lowering's are not hooked",
                 n_ptx, n_ir);
    } else
        printf("tile_kernel_ptx: skipped: neither NVRTC nor LLVM loads here to compile the kernel\n");
    run_clean("the sweeps");
    tile_kernel_release(TILE_KERNEL_OF(busy));
    tile_free(gx);
    tile_free(gout);
    tile_set_log(NULL, NULL);
    return tt_finish("test_nomem");
}
