/* tests/test_attention_config.c — the configs examples/attention.c refuses.
   Causal attention masks the key blocks from the diagonal's on
   (start_m * BLOCK_M), so a key block may not straddle the diagonal:
   BLOCK_M must be a multiple of BLOCK_N. A causal config with BLOCK_N >
   BLOCK_M (64x128) is TILE_ERR_ASSERT at the example's tl_static_assert
   line, found here in examples/attention.c itself, before anything runs:
   O and M keep their poison. The same config without the causal mask is
   accepted and its O matches a float64 softmax of the same inputs. Runs on
   the GPU when there is one, in the interpreter otherwise (the assert is
   raised while the kernel is built, the same on both). */
#define main attention_example_main
#include "../examples/attention.c"
#undef main
#include "test_util.h"

/* the line of the causal assert in examples/attention.c (tests run from the
   source root), 0 when not found */
static int assert_line(void)
{
    FILE *fp = fopen("examples/attention.c", "r");
    char buf[512];
    int line = 0, at = 0;
    if (!fp) return 0;
    while (fgets(buf, sizeof buf, fp)) {
        line++;
        if (strstr(buf, "tl_static_assert(!causal || BLOCK_M % BLOCK_N == 0")) {
            at = line;
            break;
        }
    }
    fclose(fp);
    return at;
}

int main(void)
{
    tt_seed();
    enum { Z = 1, H = 2, N = 64 };
    const tile_autotune_config cfg = {.meta = {{"BLOCK_M", 64}, {"BLOCK_N", 128}}, .num_warps = 8, .num_stages = 2};
    int want_line = assert_line();
    TT_CHECK(want_line > 0, "examples/attention.c has the causal tl_static_assert");
    for (int D = 64; D <= 128; D *= 2) {
        size_t n = (size_t)Z * H * N * D;
        tile_f16 *hq = malloc(n * 2), *hk = malloc(n * 2), *hv = malloc(n * 2), *ho = malloc(n * 2);
        float *hm = malloc((size_t)Z * H * N * sizeof(float));
        void *q = tile_malloc(n * 2), *k = tile_malloc(n * 2), *v = tile_malloc(n * 2), *o = tile_malloc(n * 2);
        float *m = tile_malloc((size_t)Z * H * N * sizeof(float));
        if (!hq || !hk || !hv || !ho || !hm || !q || !k || !v || !o || !m) {
            TT_CHECK(0, "D=%d: out of memory", D);
            return tt_finish("test_attention_config");
        }
        for (size_t i = 0; i < n; i++) hq[i] = tile_f16_from(tt_uniform(-1, 1)), hk[i] = tile_f16_from(tt_uniform(-1, 1)), hv[i] = tile_f16_from(tt_uniform(-1, 1));
        tile_memcpy_htod(q, hq, n * 2), tile_memcpy_htod(k, hk, n * 2), tile_memcpy_htod(v, hv, n * 2);
        float sm_scale = (float)(1.0 / sqrt((double)D));
        for (int causal = 1; causal >= 0; causal--) {
            tile_memset(o, 0xff, n * 2), tile_memset(m, 0xff, (size_t)Z * H * N * sizeof(float));   /* NaN where written */
            tile_clear_error();
            tile_status st = attention_with(&cfg, TL_F16, D, causal, q, k, v, o, m, sm_scale, Z * H, N);
            tile_memcpy_dtoh(ho, o, n * 2), tile_memcpy_dtoh(hm, m, (size_t)Z * H * N * sizeof(float));
            if (causal) {
                const tile_error *e = tile_last_error_info();
                size_t fl = strlen(e->file), sl = strlen("examples/attention.c");
                TT_CHECK(st == TILE_ERR_ASSERT && e->status == TILE_ERR_ASSERT && e->line == want_line && fl >= sl &&
                             strcmp(e->file + fl - sl, "examples/attention.c") == 0 && strstr(e->message, "BLOCK_M must be a multiple of BLOCK_N"),
                         "D=%d causal 64x128: want TILE_ERR_ASSERT at examples/attention.c:%d, got %s at %s:%d: %s", D, want_line,
                         tile_status_id(st), e->file, e->line, e->message);
                int untouched = 1;
                for (size_t i = 0; i < n; i++) untouched &= ho[i].bits == 0xffff;
                for (int i = 0; i < Z * H * N; i++) untouched &= hm[i] != hm[i];
                TT_CHECK(untouched, "D=%d causal 64x128: refused, and O and M are as they were", D);
                continue;
            }
            TT_CHECK(st == TILE_OK, "D=%d non-causal 64x128: %s", D, tile_last_error());
            /* O against a float64 softmax of the rounded inputs, within 4 units of f16's last place (|O| <= 1) */
            double worst = 0;
            for (int zh = 0; zh < Z * H; zh++)
                for (int i = 0; i < N; i++) {
                    double s[N], mx = -INFINITY, sum = 0;
                    for (int j = 0; j < N; j++) {
                        double x = 0;
                        for (int d = 0; d < D; d++)
                            x += tile_f16_to(hq[((size_t)zh * N + i) * D + d]) * tile_f16_to(hk[((size_t)zh * N + j) * D + d]);
                        s[j] = x * sm_scale;
                        mx = fmax(mx, s[j]);
                    }
                    for (int j = 0; j < N; j++) sum += s[j] = exp(s[j] - mx);
                    for (int d = 0; d < D; d++) {
                        double want = 0;
                        for (int j = 0; j < N; j++) want += s[j] / sum * tile_f16_to(hv[((size_t)zh * N + j) * D + d]);
                        double e = fabs(tile_f16_to(ho[((size_t)zh * N + i) * D + d]) - want) / (4.0 / 1024);
                        if (e > worst || e != e) worst = e;
                    }
                }
            TT_CHECK(worst <= 1, "D=%d non-causal 64x128: O within 4 units of f16's last place of float64 (worst %.2f of that)", D, worst);
        }
        tile_free(q), tile_free(k), tile_free(v), tile_free(o), tile_free(m);
        free(hq), free(hk), free(hv), free(ho), free(hm);
    }
    return tt_finish("test_attention_config");
}
