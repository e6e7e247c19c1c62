/* bench/bench_attention.c — the fused attention forward of
   examples/attention.c (Triton's tutorial 06 in C), autotuned, at the
   shapes of Triton's benchmark: Z=4, H=32, N_CTX 4096 and 16384, HEAD_DIM
   64 and 128, causal and not, f16 and bf16. TFLOP/s = 4 Z H N^2 D / time,
   halved when causal (the tutorial's formula). The references, torch SDPA
   (cuDNN and flash) and Triton's own kernel, are
   ../shared/bench/triton_attention.py, run in the same device call.

       BENCH_ATTN_N=4096,16384  BENCH_ATTN_D=64,128  BENCH_ATTN_DT=f16,bf16
       BENCH_ATTN_CAUSAL=0,1    pick rows (default: all)
       BENCH_ATTN_BWD=1         also the backward, fused and split, each
                                tuned (2.5x the forward's flops, as the
                                tutorial counts; references:
                                bench/sdpa_bwd.py)
       BENCH_ATTN_BWD_SPLIT=0   the fused backward only

   Two timings a row: as triton.testing.do_bench(warmup=25, rep=100)
   times, the anchors' call (do-bench ms, TFLOP/s: 100 ms of runs, each
   after an L2 flush), the figure to set beside theirs; then back to back
   (ms, p20, p80, TFLOP/s: BENCH_REPS runs with nothing between them),
   slower for a long kernel (on an H100 the runs of a 2 ms kernel slow
   down over the stretch: compare p20 with the median).

   Each row checks 8 sampled output rows of 2 heads against a float64
   softmax of the same inputs (|O - want| within 4 units of the dtype's
   last place, V in [-1, 1]).

   With BENCH_PLOT_DIR set (bench_plot.h), one figure a dtype, HEAD_DIM and
   causal-or-not (a second for the backward): TFLOP/s against N_CTX, the
   numbers the rows print. The references (SDPA, Triton) run in Python
   after this program and are not in the figures. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "bench_common.h"

#define main example_main_attention
#include "../examples/attention.c"
#undef main

/* BENCH_ATTN_NOSOFTMAX=1: each row's winning config once more with
   NO_SOFTMAX=1 (P = QK^T, no row max, exp2 or rescale): the time the
   tensor cores and the copies take alone, beside the row */
typedef struct nosm_ctx { tile_kernel *k; tile_launch l; tile_arg args[9]; } nosm_ctx;
static tile_status nosm_run(void *p, int set)
{
    nosm_ctx *c = (nosm_ctx *)p;
    (void)set;
    return tile_launch_kernel(c->k, &c->l, c->args);
}
static int picked(const char *knob, const char *value)
{
    const char *v = getenv(knob);
    if (!v || !*v) return 1;
    size_t n = strlen(value);
    for (const char *p = v; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, value, n) == 0) return 1;
        p += len + (end ? 1 : 0);
    }
    return 0;
}

typedef struct attn_ctx {
    tl_dtype dt;
    int D, causal, ZH, N;
    void *q, *k, *v, *o;
    float *m;
} attn_ctx;
static tile_status attn_run(void *p, int set)
{
    attn_ctx *c = (attn_ctx *)p;
    (void)set;   /* 4 x 0.5 GiB at the smallest shape: far past L2 */
    return attention_with(NULL, c->dt, c->D, c->causal, c->q, c->k, c->v, c->o, c->m, (float)(1.0 / sqrt((double)c->D)), c->ZH, c->N);
}

/* the backward of a row (dO = Q's data: the values do not change the time) */
typedef struct bwd_ctx { attn_ctx *c; void *d_o, *dq, *dk, *dv; float *ws; int fused; } bwd_ctx;
static tile_status bwd_run(void *p, int set)
{
    bwd_ctx *b = (bwd_ctx *)p;
    attn_ctx *c = b->c;
    (void)set;
    return attention_backward_with(b->fused, NULL, c->dt, c->D, c->causal, c->q, c->k, c->v, c->o, c->m, b->d_o, b->dq, b->dk, b->dv, b->ws,
                                   (float)(1.0 / sqrt((double)c->D)), c->ZH, c->N);
}
/* 8 rows of heads 0 and ZH-1 against float64 */
static int attn_check(const attn_ctx *c, const void *hq, const void *hk, const void *hv, size_t period)
{
    size_t D = (size_t)c->D, N = (size_t)c->N, es = 2;
    void *row = bench_hmalloc(D * es, "check"), *seen = NULL;
    double *s = (double *)bench_hmalloc(N * sizeof(double), "check"), ulp = ldexp(1, c->dt == TL_BF16 ? -7 : -10), err = 0;
    double scale = 1.0 / sqrt((double)D);
    (void)seen;
    for (int h = 0; h < 2; h++)
        for (int r = 0; r < 8; r++) {
            size_t zh = h ? (size_t)c->ZH - 1 : 0, i = r == 7 ? N - 1 : (size_t)(bench_next() % N), base = zh * N;
            size_t last = c->causal ? i : N - 1;
            double mx = -INFINITY, sum = 0;
            for (size_t j = 0; j <= last; j++) {
                double d = 0;
                for (size_t x = 0; x < D; x++)
                    d += bench_get(c->dt, hq, ((base + i) * D + x) % period) * bench_get(c->dt, hk, ((base + j) * D + x) % period);
                s[j] = d * scale;
                if (s[j] > mx) mx = s[j];
            }
            for (size_t j = 0; j <= last; j++) sum += s[j] = exp(s[j] - mx);
            if (tile_memcpy_dtoh(row, (char *)c->o + (base + i) * D * es, D * es) != TILE_OK) return 0;
            for (size_t x = 0; x < D; x++) {
                double want = 0;
                for (size_t j = 0; j <= last; j++) want += s[j] * bench_get(c->dt, hv, ((base + j) * D + x) % period);
                double e = fabs(bench_get(c->dt, row, x) - want / sum) / (4 * ulp);
                if (e > err || e != e) err = e;
            }
        }
    free(row);
    free(s);
    if (err <= 1) return 1;
    printf("FAILED  attention %s D=%d N=%d %s: max error %.2f of tolerance against float64\n", tile_dtype_name(c->dt), c->D, c->N,
           c->causal ? "causal" : "full", err);
    bench_failures++;
    return 0;
}

/* a point of the figure of (pass, dt, D, causal) at N */
static void attn_plot(const char *pass, tl_dtype dt, int D, int causal, int Z, int H, const char *series, int N, double tflops)
{
    char fig[64], xl[48];
    snprintf(fig, sizeof fig, "attention %s %s D=%d %s", pass, tile_dtype_name(dt), D, causal ? "causal" : "full");
    snprintf(xl, sizeof xl, "N_CTX (Z=%d, H=%d)", Z, H);
    bench_plot_point(fig, xl, strcmp(pass, "bwd") == 0 ? "TFLOP/s (2.5 x the forward's flops / time)"
                                                      : "TFLOP/s (4 Z H N^2 D / time, half if causal)", series, N, tflops);
}

int main(void)
{
    bench_start("bench_attention");
    int Z = bench_smoke() ? 1 : 4, H = bench_smoke() ? 2 : 32;
    static const int Ns[2] = {4096, 16384}, Ds[2] = {64, 128};
    printf("%-10s %-5s %-4s %-7s %-6s %-30s %9s %9s %9s %9s %11s %9s\n", "name", "dtype", "D", "N", "causal", "config", "ms", "p20", "p80", "TFLOP/s",
           "do-bench ms", "TFLOP/s");
    for (int di = 0; di < 2; di++) {
        tl_dtype dt = di ? TL_BF16 : TL_F16;
        if (!picked("BENCH_ATTN_DT", tile_dtype_name(dt))) continue;
        for (int ni = 0; ni < 2; ni++) {
            int N = bench_smoke() ? (ni ? 300 : 128) : Ns[ni];
            char nbuf[16];
            snprintf(nbuf, sizeof nbuf, "%d", Ns[ni]);
            if (!picked("BENCH_ATTN_N", nbuf)) continue;
            for (int dd = 0; dd < 2; dd++) {
                int D = Ds[dd];
                char dbuf[16];
                snprintf(dbuf, sizeof dbuf, "%d", D);
                if (!picked("BENCH_ATTN_D", dbuf)) continue;
                size_t n = (size_t)Z * H * N * D, bytes = n * 2, period = 1000003;
                attn_ctx c = {dt, D, 0, Z * H, N, NULL, NULL, NULL, NULL, NULL};
                void *hq = bench_hmalloc(period * 2, "q"), *hk = bench_hmalloc(period * 2, "k"), *hv = bench_hmalloc(period * 2, "v");
                for (size_t i = 0; i < period; i++) {
                    bench_set(dt, hq, i, bench_uniform(-1, 1));
                    bench_set(dt, hk, i, bench_uniform(-1, 1));
                    bench_set(dt, hv, i, bench_uniform(-1, 1));
                }
                c.q = bench_dmalloc(bytes, "q"), c.k = bench_dmalloc(bytes, "k"), c.v = bench_dmalloc(bytes, "v");
                c.o = bench_dmalloc(bytes, "o"), c.m = (float *)bench_dmalloc((size_t)Z * H * N * sizeof(float), "m");
                int ok = bench_ok(bench_fill_periodic(c.q, bytes, hq, period * 2), "fill") &&
                         bench_ok(bench_fill_periodic(c.k, bytes, hk, period * 2), "fill") &&
                         bench_ok(bench_fill_periodic(c.v, bytes, hv, period * 2), "fill");
                for (int causal = 0; causal < 2 && ok; causal++) {
                    if (!picked("BENCH_ATTN_CAUSAL", causal ? "1" : "0")) continue;
                    c.causal = causal;
                    tile_memset(c.o, 0xff, bytes);
                    if (!bench_ok(attn_run(&c, 0), "attention (tuning)")) continue;
                    if (!attn_check(&c, hq, hk, hv, period)) continue;
                    bench_stats st, sf;
                    if (!bench_ok(bench_time_flushed(attn_run, &c, 1, &sf), "attention (as do_bench)") || !bench_ok(bench_time(attn_run, &c, 1, &st), "attention"))
                        continue;
                    tile_launch best;
                    char cfg[64] = "?";
                    tile_arg args[9];
                    args[0].p = c.q, args[1].p = c.k, args[2].p = c.v, args[3].p = c.o, args[4].p = c.m;
                    args[5].f = 1.0 / sqrt((double)D), args[6].i = Z * H, args[7].i = N, args[8].i = (int64_t)Z * H * N;
                    if (tile_autotune_best(attn_tuner(dt, D, causal), dt == TL_BF16 ? TILE_KERNEL_OF(attn_fwd_bf16) : TILE_KERNEL_OF(attn_fwd),
                                           TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}), args, &best) == TILE_OK)
                        snprintf(cfg, sizeof cfg, "%lldx%lld w%d s%d%s%s", tile_meta_of(&best, "BLOCK_M"), tile_meta_of(&best, "BLOCK_N"),
                                 best.num_warps, best.num_stages, tile_meta_of(&best, "WARP_SPECIALIZE") ? " ws" : "",
                                 tile_meta_of(&best, "PERSISTENT") ? " pers" : "");
                    double flops = 4.0 * Z * H * (double)N * N * D * (causal ? 0.5 : 1);
                    printf("%-10s %-5s %-4d %-7d %-6s %-30s %9.4f %9.4f %9.4f %9.1f %11.4f %9.1f\n", "attn_fwd", tile_dtype_name(dt), D, N,
                           causal ? "yes" : "no", cfg, st.ms, st.p20, st.p80, flops / (st.ms * 1e9), sf.ms, flops / (sf.ms * 1e9));
                    fflush(stdout);
                    attn_plot("fwd", dt, D, causal, Z, H, "tile (tuned)", N, flops / (st.ms * 1e9));
                    /* the backward, tuned: 2.5x the forward's flops, as the tutorial counts; the fused one (Delta, dK dV and
                       dQ in one kernel, dQ's cast) and the split one (Delta, dK dV, dQ) */
                    for (int fused = 1; fused >= !bench_env_int("BENCH_ATTN_BWD_SPLIT", 1, 0, 1) && bench_env_int("BENCH_ATTN_BWD", 0, 0, 1); fused--) {
                        bwd_ctx bc = {&c, NULL, NULL, NULL, NULL, NULL, fused};
                        const char *what = fused ? "tuned, fused (3 kernels)" : "tuned, split (3 kernels)";
                        bc.d_o = c.q, bc.ws = (float *)bench_dmalloc(attention_backward_scratch_floats(Z * H, N, D) * sizeof(float), "scratch");
                        bc.dq = bench_dmalloc(bytes, "dq"), bc.dk = bench_dmalloc(bytes, "dk"), bc.dv = bench_dmalloc(bytes, "dv");
                        bench_stats bs, bf;
                        if (bench_ok(bwd_run(&bc, 0), "attention backward (tuning)") && bench_ok(bench_time_flushed(bwd_run, &bc, 1, &bf), "attention backward (as do_bench)") &&
                            bench_ok(bench_time(bwd_run, &bc, 1, &bs), "attention backward")) {
                            printf("%-10s %-5s %-4d %-7d %-6s %-30s %9.4f %9.4f %9.4f %9.1f %11.4f %9.1f\n", "attn_bwd", tile_dtype_name(dt), D, N,
                                   causal ? "yes" : "no", what, bs.ms, bs.p20, bs.p80, 2.5 * flops / (bs.ms * 1e9), bf.ms,
                                   2.5 * flops / (bf.ms * 1e9));
                            attn_plot("bwd", dt, D, causal, Z, H, fused ? "tile (tuned, fused)" : "tile (tuned, split)", N, 2.5 * flops / (bs.ms * 1e9));
                        }
                        tile_free(bc.ws), tile_free(bc.dq), tile_free(bc.dk), tile_free(bc.dv);
                    }
                    if (bench_env_int("BENCH_ATTN_NOSOFTMAX", 0, 0, 1) && strcmp(cfg, "?") != 0) {
                        nosm_ctx nc;
                        nc.k = dt == TL_BF16 ? TILE_KERNEL_OF(attn_fwd_bf16) : TILE_KERNEL_OF(attn_fwd);
                        nc.l = best;
                        nc.l.tune = NULL;
                        memcpy(nc.args, args, sizeof args);
                        int i = 0;
                        while (i < TILE_MAX_META && nc.l.meta[i].name) i++;
                        if (i < TILE_MAX_META) {
                            nc.l.meta[i].name = "NO_SOFTMAX", nc.l.meta[i].value = 1;
                            bench_stats ns;
                            if (bench_ok(bench_time(nosm_run, &nc, 1, &ns), "attention without softmax")) {
                                printf("%-10s %-5s %-4d %-7d %-6s %-30s %9.4f %9.4f %9.4f %9.1f\n", "no_softmax", tile_dtype_name(dt), D, N,
                                       causal ? "yes" : "no", cfg, ns.ms, ns.p20, ns.p80, flops / (ns.ms * 1e9));
                                attn_plot("fwd", dt, D, causal, Z, H, "tile, NO_SOFTMAX=1 (P = QK^T)", N, flops / (ns.ms * 1e9));
                            }
                        }
                    }
                }
                tile_free(c.q), tile_free(c.k), tile_free(c.v), tile_free(c.o), tile_free(c.m);
                free(hq), free(hk), free(hv);
            }
        }
    }
    return bench_finish("bench_attention");
}
