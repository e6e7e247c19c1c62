/* bench/bench_profile.c — do the profiler's kernel times agree with CUDA
   events around the same launches?

   Kernels: vector add fp32 (memory-bound) at four sizes, from about 10 us to
   about 1 ms, and a chain of FMAs per element (compute-bound) at two depths.
   Each is first timed by tile_do_bench with no profile (CUDA events around
   each launch on the default stream, median of the runs: the column
   "events"); then, for each way a profile can time kernels ("cupti",
   "events", "clock"), tile_do_bench again while a profile runs, and the
   same launches' kernel times from the profile (tile_profile_times, the
   median of the timed runs) set beside the events of that same run. The
   ratio profile/events is what must stay within 2%; "vs plain" is the
   events' median under the profile over the one without (what the profile
   costs the kernel itself: for "clock", one barrier and two reductions a
   program). Events also count the launch's latency inside the stream
   (a few us, start to start), which the profile's records do not: the
   column "diff us" shows that difference, so the short kernels' ratios can
   be read against it. Every kernel's result is checked against a C
   reference before any timing.

   Build: cc -std=c11 -O2 -I. bench/bench_profile.c -o build/bench_profile -ldl -lm -lpthread */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "bench_common.h"

TILE_KERNEL(bp_vadd, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int BLOCK = (int)TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_add(tl_load(tl_add(x, offs), .mask = mask), tl_load(tl_add(y, offs), .mask = mask)), .mask = mask);
}
/* v = v * a + b, `depth` times per element */
TILE_KERNEL(bp_fma, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n), (tl_i32, depth), (tl_f32, a), (tl_f32, b))
{
    int BLOCK = (int)TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t v = tl_load(tl_add(x, offs), .mask = mask);
    TL_FOR (i, 0, depth, 1, v) {
        (void)i;
        v = tl_fma(v, a, b);
    }
    tl_store(tl_add(out, offs), v, .mask = mask);
}

typedef struct run_ctx {
    int which;   /* 0 vadd, 1 fma */
    int n, depth;
    float *x, *y, *out;
} run_ctx;
static tile_status run_once(void *p) {
    run_ctx *c = (run_ctx *)p;
    if (c->which == 0) return bp_vadd(TILE_OPTS(.grid = {tile_cdiv(c->n, 1024)}, .meta = {{"BLOCK", 1024}}, .num_warps = 4), c->x, c->y, c->out, c->n);
    return bp_fma(TILE_OPTS(.grid = {tile_cdiv(c->n, 512)}, .meta = {{"BLOCK", 512}}, .num_warps = 4), c->x, c->out, c->n, c->depth, 0.999f, 0.001f);
}
static const char *kname(const run_ctx *c) { return c->which == 0 ? "bp_vadd" : "bp_fma"; }

/* the kernel's result on samples of the output against float64 (the FMA
   chain's float rounding allows a few ulps over `depth` steps) */
static int check(run_ctx *c, const float *hx, const float *hy) {
    float *got = (float *)bench_hmalloc(sizeof(float) * (size_t)c->n, "result");
    if (!got) return 0;
    float poison;
    memset(&poison, 0xA5, sizeof poison);
    int ok = bench_ok(bench_fill_periodic(c->out, sizeof(float) * (size_t)c->n, &poison, sizeof poison), "poison") && bench_ok(run_once(c), kname(c)) &&
             bench_ok(tile_memcpy_dtoh(got, c->out, sizeof(float) * (size_t)c->n), "dtoh");
    int wrong = 0;
    for (int s = 0; ok && s < 4096; s++) {
        size_t i = (size_t)(bench_uniform(0, 1) * c->n) % (size_t)c->n;
        double want;
        if (c->which == 0) want = (double)(float)((double)hx[i % 4096] + (double)hy[i % 4096]);
        else {
            want = hx[i % 4096];
            for (int d = 0; d < c->depth; d++) want = want * (double)0.999f + (double)0.001f;
        }
        double tol = c->which == 0 ? 0 : 1e-4 * (fabs(want) + 1);
        if (!(fabs((double)got[i] - want) <= tol)) wrong++;
    }
    free(got);
    if (ok && wrong) {
        printf("%s n=%d: %d of 4096 samples wrong: FAILED\n", kname(c), c->n, wrong);
        bench_failures++;
        return 0;
    }
    return ok;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    double t_start = bench_now_ms();
    bench_start("bench_profile");
    int smoke = bench_smoke(), gpu = strcmp(tile_backend_name(), "interp") != 0;
    int warmup = smoke || !gpu ? 1 : 20, reps = smoke ? 3 : gpu ? 200 : 10;
    /* sizes: vector add n (12 bytes an element), FMA depth over n = 2^21 */
    int vsizes[4] = {1 << 20, 1 << 23, 1 << 25, 1 << 27}, fdepth[2] = {1024, 8192};
    int nv = 4, nf = 2, fn = 1 << 21;
    if (!gpu || smoke) {   /* the interpreter: the same program, small */
        vsizes[0] = 1 << 12, vsizes[1] = 1 << 14, nv = 2;
        fdepth[0] = 8, nf = 1, fn = 1 << 12;
    }
    size_t maxn = (size_t)(vsizes[nv - 1] > fn ? vsizes[nv - 1] : fn);
    float *hx = (float *)bench_hmalloc(4096 * sizeof(float), "x"), *hy = (float *)bench_hmalloc(4096 * sizeof(float), "y");
    run_ctx c = {0, 0, 0, NULL, NULL, NULL};
    c.x = (float *)bench_dmalloc(maxn * sizeof(float), "x");
    c.y = (float *)bench_dmalloc(maxn * sizeof(float), "y");
    c.out = (float *)bench_dmalloc(maxn * sizeof(float), "out");
    if (!hx || !hy || !c.x || !c.y || !c.out) return bench_finish("bench_profile");
    for (int i = 0; i < 4096; i++) hx[i] = (float)bench_uniform(-1, 1), hy[i] = (float)bench_uniform(-1, 1);
    /* the inputs repeat every 4096 elements */
    if (!bench_ok(bench_fill_periodic(c.x, maxn * sizeof(float), hx, 4096 * sizeof(float)), "fill x") ||
        !bench_ok(bench_fill_periodic(c.y, maxn * sizeof(float), hy, 4096 * sizeof(float)), "fill y"))
        return bench_finish("bench_profile");

    static const char *const words[3] = {"cupti", "events", "clock"};
    printf("\n# kernel times: CUDA events around each launch (tile_do_bench, %d warm-up, %d timed) against the profile's own record of the same launches\n",
           warmup, reps);
    printf("%-8s %-22s %10s | %-6s %10s %10s %8s %8s %9s  %s\n", "kernel", "size", "events ms", "timing", "events ms", "profile ms", "ratio", "diff us",
           "vs plain", "within 2%");
    int rows = nv + nf, within[3] = {0, 0, 0}, within_long[3] = {0, 0, 0}, nlong = 0;
    double worst[3] = {0, 0, 0};
    for (int r = 0; r < rows; r++) {
        c.which = r < nv ? 0 : 1;
        c.n = c.which == 0 ? vsizes[r] : fn;
        c.depth = c.which == 0 ? 0 : fdepth[r - nv];
        char size[40];
        if (c.which == 0) snprintf(size, sizeof size, "n=2^%d", (int)lround(log2((double)c.n)));
        else snprintf(size, sizeof size, "n=2^%d depth=%d", (int)lround(log2((double)c.n)), c.depth);
        if (!check(&c, hx, hy)) continue;
        tile_bench_result plain;
        if (!bench_ok(tile_do_bench(run_once, &c, TILE_BENCH_OPTS(.warmup = warmup, .reps = reps, .no_flush = 1), &plain), "tile_do_bench")) continue;
        int is_long = plain.median_ms >= 0.1;
        nlong += is_long;
        for (int w = 0; w < 3; w++) {
            char formats[32];
            snprintf(formats, sizeof formats, "%s", words[w]);
            /* NULL path, no formats but the timing: the tree on stderr */
            if (!bench_ok(tile_profile_start(NULL, formats), "tile_profile_start")) continue;
            tile_bench_result prof;
            tile_status st = tile_do_bench(run_once, &c, TILE_BENCH_OPTS(.warmup = warmup, .reps = reps, .no_flush = 1), &prof);
            tile_status st2 = tile_profile_stop();
            if (!bench_ok(st, "tile_do_bench under a profile") || !bench_ok(st2, "tile_profile_stop")) continue;
            int total = tile_profile_times(kname(&c), NULL, 0);
            double *ms = (double *)bench_hmalloc(sizeof(double) * (size_t)(total > 0 ? total : 1), "times");
            if (!ms) continue;
            tile_profile_times(kname(&c), ms, total);
            /* the timed runs are the last `reps` launches */
            int first = total - prof.reps, n = 0;
            for (int i = first < 0 ? 0 : first; i < total; i++)
                if (ms[i] >= 0) ms[n++] = ms[i];
            double med = 0;
            if (n) {
                qsort(ms, (size_t)n, sizeof *ms, cmp_d);
                med = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
            }
            free(ms);
            double ratio = prof.median_ms > 0 ? med / prof.median_ms : 0;
            int ok = n == prof.reps && fabs(ratio - 1) <= 0.02;
            within[w] += ok;
            if (is_long) within_long[w] += ok;
            if (fabs(ratio - 1) > worst[w] && is_long) worst[w] = fabs(ratio - 1);
            printf("%-8s %-22s %10.4f | %-6s %10.4f %10.4f %8.4f %8.2f %9.4f  %s%s\n", kname(&c), size, plain.median_ms, words[w], prof.median_ms, med, ratio,
                   (prof.median_ms - med) * 1e3, plain.median_ms > 0 ? prof.median_ms / plain.median_ms : 0, ok ? "yes" : "no",
                   n == prof.reps ? "" : " (launches untimed)");
            fflush(stdout);
        }
    }
    printf("\n# summary: rows within 2%% of the events (all rows / rows of kernels >= 0.1 ms, worst of those)\n");
    for (int w = 0; w < 3; w++)
        printf("%-6s %d/%d, %d/%d (worst %.2f%%)\n", words[w], within[w], rows, within_long[w], nlong, 100 * worst[w]);
    if (!gpu) printf("(the interpreter: the host clock times both; the GPU's figures come from an H200 run)\n");
    tile_free(c.x), tile_free(c.y), tile_free(c.out);
    free(hx), free(hy);
    printf("# bench_profile took %.1f s\n", (bench_now_ms() - t_start) / 1e3);
    return bench_finish("bench_profile");
}
