/* examples/attention.c — fused attention (FlashAttention), the forward of
   Triton's tutorial 06 in C: softmax(Q K^T * sm_scale) V for every head,
   one program per BLOCK_M rows of one head, the online softmax in a loop
   over BLOCK_N keys at a time that carries the row maxima m, the row sums
   l and the output accumulator, in f16 and bf16, head dims 64 and 128,
   causal and not, autotuned.

   attn_fwd(Q, K, V, O, M, sm_scale, ZH, N_CTX, ROWS)
       Q, K, V, O   [Z, H, N_CTX, HEAD_DIM] contiguous, read through tensor
                    descriptors over the [ROWS = Z*H*N_CTX, HEAD_DIM] matrix (a
                    block past one head's rows reads the next head's, or
                    zeros past the last; those keys are masked, those rows
                    not stored)
       M            [Z, H, N_CTX] f32: m + log2(l) per row, what the
                    backward pass needs (log-sum-exp in base 2)
   K is read as the tutorial reads it, [BLOCK_N, HEAD_DIM] blocks used
   transposed (tl_dot(q, tl_trans(k))). On sm_90a the K and V blocks are a
   TMA ring, Q K^T reads K's stage as wgmma's K-major B operand, the row
   maxima and sums stay in the accumulator's registers (shuffles among the
   four lanes of a row), and P @ V takes P from registers (wgmma's
   register-A form); TILE_DUMP=ttgir shows it. The causal mask is applied
   only on the diagonal blocks (the tutorial's two stages), the bounds mask
   only on the last block.

       attention [Z H N_CTX]      default: 1 2 100, and N_CTX = 1
       ATTENTION_EVERY_CONFIG=1   every config of the list instead of the
                                  tuned one

   Checked against float64 softmax(QK^T)V of the rounded inputs: every row
   at the default sizes, 64 sampled rows of every head otherwise. The
   backward pass of the tutorial is not here yet. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void attn_fwd_body(tl_dtype dt, tl_t q_ptr, tl_t k_ptr, tl_t v_ptr, tl_t o_ptr, tl_t m_ptr, tl_t sm_scale, tl_t ZH, tl_t N_CTX, tl_t rows)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), D = TL_META(HEAD_DIM), causal = TL_META(CAUSAL);
    int ws = TL_META_OR(WARP_SPECIALIZE, 0);
    int no_softmax = TL_META_OR(NO_SOFTMAX, 0);   /* a measurement aid: P = QK^T, what the tensor cores alone take */
    (void)ZH;
    tl_t start_m = tl_program_id(0), off_hz = tl_program_id(1);
    tl_t desc_q  = tl_make_tensor_descriptor(q_ptr, (rows, D), (D, 1), (BLOCK_M, D));
    tl_t desc_k  = tl_make_tensor_descriptor(k_ptr, (rows, D), (D, 1), (BLOCK_N, D));
    tl_t desc_v  = tl_make_tensor_descriptor(v_ptr, (rows, D), (D, 1), (BLOCK_N, D));
    tl_t off_y   = tl_mul(off_hz, N_CTX);
    tl_t offs_m  = tl_add(tl_mul(start_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_t q       = tl_desc_load(desc_q, (tl_add(off_y, tl_mul(start_m, BLOCK_M)), 0));
    tl_t m_i     = tl_full(TL_F32, -INFINITY, BLOCK_M);
    tl_t l_i     = tl_full(TL_F32, 1.0, BLOCK_M);
    tl_t acc     = tl_zeros(TL_F32, BLOCK_M, D);
    tl_t qk_scale = tl_mul(sm_scale, 1.44269504);   /* exp(x) = exp2(x log2 e) */
    /* the keys: all (causal: up to the diagonal block); blocks from `mask`
       on are masked (the diagonal's under causal, else the last partial one) */
    tl_t hi   = causal ? tl_minimum(tl_mul(tl_add(start_m, 1), BLOCK_M), N_CTX) : N_CTX;
    tl_t mask = causal ? tl_mul(start_m, BLOCK_M) : tl_mul(tl_floordiv(N_CTX, BLOCK_N), BLOCK_N);
    if (ws) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (start_n, 0, hi, BLOCK_N, m_i, l_i, acc) {
        tl_t k  = tl_desc_load(desc_k, (tl_add(off_y, start_n), 0));
        tl_t qk = tl_dot(q, tl_trans(k));
        TL_IF (tl_ge(start_n, mask), qk) {
            tl_t cols = tl_expand_dims(tl_add(start_n, tl_arange(0, BLOCK_N)), 0);
            tl_t ok   = tl_lt(cols, N_CTX);
            if (causal) ok = tl_logical_and(ok, tl_ge(tl_expand_dims(offs_m, 1), cols));
            qk = tl_where(ok, qk, -INFINITY);
        }
        tl_t v = tl_desc_load(desc_v, (tl_add(off_y, start_n), 0));
        if (no_softmax) {
            acc = tl_dot(tl_cast(qk, dt), v, acc);
        } else {
            /* the online softmax, in base 2 with the scale folded into one fma */
            tl_t m_ij  = tl_maximum(m_i, tl_mul(tl_max(qk, 1), qk_scale));
            tl_t p     = tl_exp2(tl_fma(qk, qk_scale, tl_neg(tl_expand_dims(m_ij, 1))));
            tl_t alpha = tl_exp2(tl_sub(m_i, m_ij));
            l_i        = tl_add(tl_mul(l_i, alpha), tl_sum(p, 1));
            acc        = tl_mul(acc, tl_expand_dims(alpha, 1));
            acc        = tl_dot(tl_cast(p, dt), v, acc);
            m_i        = m_ij;
        }
    }
    /* the rows of this head only */
    tl_t row_ok = tl_lt(offs_m, N_CTX);
    tl_store(tl_add(m_ptr, tl_add(off_y, offs_m)), tl_add(m_i, tl_log2(l_i)), .mask = row_ok);
    acc        = tl_div(acc, tl_expand_dims(l_i, 1));
    tl_t o_off = tl_add(tl_mul(tl_expand_dims(tl_add(off_y, offs_m), 1), D), tl_expand_dims(tl_arange(0, D), 0));
    tl_store(tl_add(o_ptr, o_off), tl_cast(acc, dt), .mask = tl_expand_dims(row_ok, 1));
}

#define ATTN_PARAMS(ptr) (ptr, q), (ptr, k), (ptr, v), (ptr, o), (tl_ptr_f32, m), (tl_f32, sm_scale), (tl_i32, ZH), (tl_i32, N_CTX), (tl_i32, rows)
TILE_KERNEL(attn_fwd, ATTN_PARAMS(tl_ptr_f16)) { attn_fwd_body(TL_F16, q, k, v, o, m, sm_scale, ZH, N_CTX, rows); }
TILE_KERNEL(attn_fwd_bf16, ATTN_PARAMS(tl_ptr_bf16)) { attn_fwd_body(TL_BF16, q, k, v, o, m, sm_scale, ZH, N_CTX, rows); }

#define ATTN_CONFIG(bm, bn, warps, stages, ws) \
    {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"WARP_SPECIALIZE", ws}}, .num_warps = warps, .num_stages = stages}
/* On a GPU: BLOCK_N of 64 or 128 (wgmma's N for Q K^T, its K for P V), a
   warpgroup per 64 rows (128 rows on 4 warps for D = 64: the accumulators
   of 128 x 128 would not fit a thread's registers). Warp-specialized (WS
   1): a producer warpgroup issues the copies, and the two consumer
   warpgroups run apart, one's softmax beside the other's wgmmas. */
static const tile_autotune_config attn_configs_d64[] = {
    ATTN_CONFIG(128, 128, 8, 3, 1), ATTN_CONFIG(128, 64, 8, 4, 1), ATTN_CONFIG(128, 128, 8, 2, 0),
    ATTN_CONFIG(128, 64, 4, 3, 0),  ATTN_CONFIG(64, 64, 4, 3, 0),   ATTN_CONFIG(128, 128, 8, 3, 0),
};
/* (D = 128: warp-specialized configs left out; through NVRTC their
   consumers spill at 168 registers a thread, and on the H200 none won) */
static const tile_autotune_config attn_configs_d128[] = {
    ATTN_CONFIG(128, 128, 8, 2, 0),
    ATTN_CONFIG(128, 64, 8, 3, 0),
    ATTN_CONFIG(64, 64, 4, 3, 0),
};
/* In the interpreter: small blocks, so that CI runs it quickly */
static const tile_autotune_config attn_configs_interp[] = {ATTN_CONFIG(32, 16, 4, 2, 0)};
static void attn_grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "N_CTX"), tile_tune_meta(a, "BLOCK_M"));
    g[1] = (unsigned)tile_tune_int(a, "ZH");
}
/* the config list for where kernels run */
static const tile_autotune_config *attn_configs(int D, int *n)
{
    if (strcmp(tile_backend_name(), "interp") == 0) {
        *n = (int)(sizeof attn_configs_interp / sizeof *attn_configs_interp);
        return attn_configs_interp;
    }
    *n = D == 128 ? (int)(sizeof attn_configs_d128 / sizeof *attn_configs_d128) : (int)(sizeof attn_configs_d64 / sizeof *attn_configs_d64);
    return D == 128 ? attn_configs_d128 : attn_configs_d64;
}
/* one tuner per dtype, head dim and causality (the user's meta-parameters) */
static tile_autotuner attn_tuners[2][2][2];
static tile_autotuner *attn_tuner(tl_dtype dt, int D, int causal)
{
    tile_autotuner *t = &attn_tuners[dt == TL_BF16][D == 128][causal];
    if (!t->configs) {
        t->key[0]  = "N_CTX";
        t->grid    = attn_grid;
        t->configs = attn_configs(D, &t->nconfigs);
    }
    return t;
}
/* O and M of attention for Z*H heads of N_CTX rows: tuned, or with config
   cfg when given */
static tile_status attention_with(const tile_autotune_config *cfg, tl_dtype dt, int D, int causal, void *q, void *k, void *v, void *o, float *m,
                                  float sm_scale, int ZH, int N_CTX)
{
    tile_arg args[9];
    args[0].p = q, args[1].p = k, args[2].p = v, args[3].p = o, args[4].p = m;
    args[5].f = sm_scale, args[6].i = ZH, args[7].i = N_CTX, args[8].i = (int64_t)ZH * N_CTX;
    tile_kernel *kern = dt == TL_BF16 ? TILE_KERNEL_OF(attn_fwd_bf16) : TILE_KERNEL_OF(attn_fwd);
    if (!cfg) return tile_launch_kernel(kern, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}, .tune = attn_tuner(dt, D, causal)), args);
    tile_launch l;
    memset(&l, 0, sizeof l);
    l.meta[0].name = "HEAD_DIM", l.meta[0].value = D;
    l.meta[1].name = "CAUSAL", l.meta[1].value = causal;
    for (int i = 0; i + 2 < TILE_MAX_META && cfg->meta[i].name; i++) l.meta[i + 2] = cfg->meta[i];
    l.num_warps = cfg->num_warps, l.num_stages = cfg->num_stages;
    l.grid[0] = (unsigned)((N_CTX + tile_meta_of(&l, "BLOCK_M") - 1) / tile_meta_of(&l, "BLOCK_M")), l.grid[1] = (unsigned)ZH;
    l.file = __FILE__, l.line = __LINE__;
    return tile_launch_kernel(kern, &l, args);
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "attention: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }
static double elem_get(tl_dtype dt, const void *p, size_t i)
{
    return dt == TL_BF16 ? tile_bf16_to(((const tile_bf16 *)p)[i]) : tile_f16_to(((const tile_f16 *)p)[i]);
}
static void elem_set(tl_dtype dt, void *p, size_t i, double v)
{
    if (dt == TL_BF16) ((tile_bf16 *)p)[i] = tile_bf16_from(v);
    else ((tile_f16 *)p)[i] = tile_f16_from(v);
}

/* Run and check one case, tuned or with config cfg; 1 when right. The
   reference: float64 softmax of the rounded inputs; the tolerance a few
   units of the dtype's last place (|O| <= 1: V is in [-1, 1]). */
static int run_one(const tile_autotune_config *cfg_in, tl_dtype dt, int D, int causal, int Z, int H, int N)
{
    size_t n = (size_t)Z * H * N * D, es = 2;
    void *hq = need(malloc(n * es)), *hk = need(malloc(n * es)), *hv = need(malloc(n * es)), *ho = need(malloc(n * es));
    float *hm = need(malloc((size_t)Z * H * N * sizeof(float)));
    for (size_t i = 0; i < n; i++) {
        elem_set(dt, hq, i, uniform(-1, 1));
        elem_set(dt, hk, i, uniform(-1, 1));
        elem_set(dt, hv, i, uniform(-1, 1));
    }
    void *q = need(tile_malloc(n * es)), *k = need(tile_malloc(n * es)), *v = need(tile_malloc(n * es)), *o = need(tile_malloc(n * es));
    float *m = need(tile_malloc((size_t)Z * H * N * sizeof(float)));
    tile_memcpy_htod(q, hq, n * es);
    tile_memcpy_htod(k, hk, n * es);
    tile_memcpy_htod(v, hv, n * es);
    tile_memset(o, 0xff, n * es);   /* NaN: an element never written shows */
    tile_memset(m, 0xff, (size_t)Z * H * N * sizeof(float));
    float sm_scale = (float)(1.0 / sqrt((double)D));
    tile_status st = attention_with(cfg_in, dt, D, causal, q, k, v, o, m, sm_scale, Z * H, N);
    tile_memcpy_dtoh(ho, o, n * es);
    tile_memcpy_dtoh(hm, m, (size_t)Z * H * N * sizeof(float));
    double ulp = dt == TL_BF16 ? 1.0 / 128 : 1.0 / 1024, err = 0;
    double *s = need(malloc((size_t)N * sizeof(double)));
    int all = (size_t)N <= 256, nrows = all ? N : 64;
    for (int zh = 0; zh < Z * H; zh++)
        for (int r = 0; r < nrows; r++) {
            int i = all ? r : (int)(((unsigned)rand() * 7919u) % (unsigned)N);
            size_t base = (size_t)zh * N;
            double mx = -INFINITY, sum = 0;
            int last = causal ? i : N - 1;
            for (int j = 0; j <= last; j++) {
                double dotv = 0;
                for (int d = 0; d < D; d++) dotv += elem_get(dt, hq, (base + i) * D + d) * elem_get(dt, hk, (base + j) * D + d);
                s[j] = dotv * sm_scale;
                if (s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= last; j++) sum += s[j] = exp(s[j] - mx);
            for (int d = 0; d < D; d++) {
                double want = 0;
                for (int j = 0; j <= last; j++) want += s[j] * elem_get(dt, hv, (base + j) * D + d);
                want /= sum;
                double e = fabs(elem_get(dt, ho, (base + i) * D + d) - want) / (4 * ulp);
                if (e > err || e != e) err = e;
            }
            double lse = (mx + log(sum)) / log(2.0), e = fabs(hm[base + i] - lse) / (1e-4 * (1 + fabs(lse)));
            if (e > err || e != e) err = e;
        }
    tile_launch best;
    char cfg[96] = "?";
    tile_arg args[9];
    args[0].p = q, args[1].p = k, args[2].p = v, args[3].p = o, args[4].p = m;
    args[5].f = sm_scale, args[6].i = Z * H, args[7].i = N, args[8].i = (int64_t)Z * H * N;
    tile_kernel *kern = dt == TL_BF16 ? TILE_KERNEL_OF(attn_fwd_bf16) : TILE_KERNEL_OF(attn_fwd);
    memset(&best, 0, sizeof best);
    if (cfg_in) {
        memcpy(best.meta, cfg_in->meta, sizeof cfg_in->meta);
        best.num_warps = cfg_in->num_warps, best.num_stages = cfg_in->num_stages;
    }
    if (st == TILE_OK &&
        (cfg_in || tile_autotune_best(attn_tuner(dt, D, causal), kern, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}), args, &best) == TILE_OK))
        snprintf(cfg, sizeof cfg, "%lldx%lld, %d warps, %d stages%s", tile_meta_of(&best, "BLOCK_M"), tile_meta_of(&best, "BLOCK_N"),
                 best.num_warps, best.num_stages, tile_meta_of(&best, "WARP_SPECIALIZE") ? ", warp-specialized" : "");
    int ok = st == TILE_OK && err <= 1;
    printf("attn_fwd %s D=%d %s: Z=%d H=%d N=%d (%s: %s), max error %.2f of tolerance vs float64: %s\n", tile_dtype_name(dt), D,
           causal ? "causal" : "full", Z, H, N, cfg_in ? "config" : "tuned", cfg, err, ok ? "OK" : "FAILED");
    if (st != TILE_OK) printf("  %s\n", tile_last_error());
    tile_free(q), tile_free(k), tile_free(v), tile_free(o), tile_free(m);
    free(hq), free(hk), free(hv), free(ho), free(hm), free(s);
    return ok;
}

int main(int argc, char **argv)
{
    int Z = argc > 3 ? atoi(argv[1]) : 1, H = argc > 3 ? atoi(argv[2]) : 2, N = argc > 3 ? atoi(argv[3]) : 100;
    if (Z < 1 || H < 1 || N < 1) {
        fprintf(stderr, "usage: attention [Z H N_CTX]\n");
        return 2;
    }
    /* ATTENTION_EVERY_CONFIG=1: each config of the list, not the tuner's pick */
    const char *every = getenv("ATTENTION_EVERY_CONFIG");
    int all = every && *every == '1';
    srand(1);
    int ok = 1;
    for (int d = 0; d < 2; d++)
        for (int D = 64; D <= 128; D *= 2)
            for (int causal = 0; causal < 2; causal++) {
                int nc = 1;
                const tile_autotune_config *list = attn_configs(D, &nc);
                for (int c = 0; c < (all ? nc : 1); c++) {
                    ok &= run_one(all ? &list[c] : NULL, d ? TL_BF16 : TL_F16, D, causal, Z, H, N);
                    if (argc <= 3) ok &= run_one(all ? &list[c] : NULL, d ? TL_BF16 : TL_F16, D, causal, 1, 1, 1);
                }
            }
    return ok ? 0 : 1;
}
