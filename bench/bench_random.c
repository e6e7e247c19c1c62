/* bench/bench_random.c — Triton's random numbers in tile: their speed, and
   their bits for a comparison with Triton's own.

   Speed: tl_rand and tl_randn filling 2^26 f32 values (one program per
   BLOCK of offsets, seed a kernel argument), GB/s of the values written
   against a copy of as many bytes, medians of CUDA-event timings; every
   config is first checked on a sample against the C Philox below.

   Bits: with RANDOM_DUMP=path, the program also writes, for two seeds
   (12345 and 0x0123456789abcdef) and the offsets 0 .. N-1 as i32 and
   2^32 + 3 .. as i64, tl_randint4x's four words, tl_rand and tl_randn, to
   path; bench/triton_random.py computes the same with Triton on the same
   GPU and compares them bit for bit (randn: in ulps, its log, sqrt and
   cos are each library's own).

   Build: cc -std=c11 -O2 -I. bench/bench_random.c -o build/bench_random -ldl -lm -lpthread */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "bench_common.h"

/* ---- kernels -------------------------------------------------------------------------------- */
TILE_KERNEL(fill_rand, (tl_ptr_f32, out), (tl_u64, seed), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK), NORMAL = TL_META(NORMAL);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t v     = NORMAL ? tl_randn(seed, offs) : tl_rand(seed, offs);
    tl_store(tl_add(out, offs), v, .mask = tl_lt(offs, n));
}
/* offsets base + i (i32, or i64 when WIDE); randint4x's words, rand, randn */
TILE_KERNEL(dump_rand, (tl_ptr_u32, words), (tl_ptr_f32, unif), (tl_ptr_f32, norm), (tl_u64, seed), (tl_i64, base), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK), WIDE = TL_META(WIDE);
    tl_t i     = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(i, n);
    tl_t off   = WIDE ? tl_add(tl_cast(i, TL_I64), base) : tl_add(i, tl_cast(base, TL_I32));
    tl_t w[4];
    tl_randint4x(seed, off, w);
    for (int k = 0; k < 4; k++) tl_store(tl_add(words, tl_add(i, tl_mul(n, k))), w[k], .mask = mask);
    tl_store(tl_add(unif, i), tl_rand(seed, off), .mask = mask);
    tl_store(tl_add(norm, i), tl_randn(seed, off), .mask = mask);
}

/* ---- the C Philox (as tests/test_random.c) ------------------------------------------------------ */
static void philox_c(uint32_t c[4], uint32_t k0, uint32_t k1) {
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1, n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
        c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}
static float uniform_c(uint32_t x) {
    int32_t s = (int32_t)x;
    return (float)(s < 0 ? (int32_t)(-(int64_t)s - 1) : s) * 4.6566127342e-10f;
}

typedef struct fill_ctx {
    int32_t n;
    int block, warps, normal;
    uint64_t seed;
    float *out[BENCH_MAX_SETS];
} fill_ctx;
static tile_status fill_run(void *ctx, int set) {
    const fill_ctx *c = (const fill_ctx *)ctx;
    return fill_rand(TILE_OPTS(.grid = {tile_cdiv(c->n, c->block)}, .num_warps = c->warps, .meta = {{"BLOCK", c->block}, {"NORMAL", c->normal}}),
                     c->out[set], c->seed, c->n);
}

static void bench_fill(int32_t n, int normal) {
    char what[64], shape[32];
    snprintf(shape, sizeof shape, "n=%ld", (long)n);
    if ((n & (n - 1)) == 0) snprintf(shape, sizeof shape, "n=2^%d", (int)log2((double)n));
    snprintf(what, sizeof what, "%s f32 %s", normal ? "tl_randn" : "tl_rand", shape);
    double moved = 4.0 * n, copy = bench_copy_gbps(2 * moved) / 2;   /* writing alone: half a copy's bytes */
    fill_ctx c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.normal = normal;
    c.seed = 0x9e3779b97f4a7c15ull;
    int nsets = bench_sets_for((size_t)moved);
    for (int s = 0; s < nsets; s++) c.out[s] = (float *)bench_dmalloc((size_t)moved, what);
    static const int blocks[] = {1024, 4096}, warps[] = {4, 8};
    for (int b = 0; b < 2; b++)
        for (int w = 0; w < 2; w++) {
            char config[40], label[128];
            c.block = blocks[b];
            c.warps = warps[w];
            snprintf(config, sizeof config, "BLOCK=%d warps=%d", c.block, c.warps);
            snprintf(label, sizeof label, "%s %s", what, config);
            /* a sample of 4096 values at the start, checked (rand exactly, randn to f32 rounding) */
            float got[4096];
            if (!bench_ok(tile_memset(c.out[0], 0xff, (size_t)moved), label) || !bench_ok(fill_run(&c, 0), label) ||
                !bench_ok(tile_memcpy_dtoh(got, c.out[0], sizeof got), label))
                continue;
            int bad = -1;
            for (int i = 0; i < 4096 && i < n && bad < 0; i++) {
                uint32_t w4[4] = {(uint32_t)i, 0, 0, 0};
                philox_c(w4, (uint32_t)c.seed, (uint32_t)(c.seed >> 32));
                float u1 = uniform_c(w4[0]), u2 = uniform_c(w4[1]);
                double want = normal ? sqrt(-2.0 * log(u1 > 1e-7f ? u1 : 1e-7f)) * cos((double)(float)(6.283185307179586 * u2)) : u1;
                if (normal ? !(fabs(got[i] - want) <= 2e-5 * (1 + fabs(want))) : got[i] != (float)want) bad = i;
            }
            if (bad >= 0) {
                printf("FAILED  %s: value %d is %.9g (C reference)\n", label, bad, (double)got[bad]);
                bench_failures++;
                continue;
            }
            bench_stats st;
            if (!bench_ok(bench_time(fill_run, &c, nsets, &st), label)) continue;
            bench_row(normal ? "randn" : "rand", shape, "f32", config, &st, moved, copy);
        }
    for (int s = 0; s < nsets; s++) tile_free(c.out[s]);
    tile_kernel_release(TILE_KERNEL_OF(fill_rand));
}

/* RANDOM_DUMP: "tile-random-v1", n, then for each (seed, offsets) case the
   seed (u64), the offset base (i64), the width (i32: 32 or 64), then the
   four words (4 n u32), rand (n f32) and randn (n f32) */
static int dump(const char *path, int32_t n) {
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        printf("FAILED  RANDOM_DUMP=%s: cannot write it\n", path);
        bench_failures++;
        return 0;
    }
    static const uint64_t seeds[2] = {12345, 0x0123456789abcdefull};
    static const int64_t bases[2] = {0, ((int64_t)1 << 32) + 3};
    uint32_t *w = (uint32_t *)bench_dmalloc((size_t)n * 16, "dump"), *hw = (uint32_t *)bench_hmalloc((size_t)n * 16, "dump");
    float *u = (float *)bench_dmalloc((size_t)n * 4, "dump"), *g = (float *)bench_dmalloc((size_t)n * 4, "dump");
    float *hu = (float *)bench_hmalloc((size_t)n * 4, "dump"), *hg = (float *)bench_hmalloc((size_t)n * 4, "dump");
    int ok = fwrite("tile-random-v1", 1, 14, fp) == 14 && fwrite(&n, sizeof n, 1, fp) == 1;
    for (int s = 0; s < 2 && ok; s++)
        for (int wide = 0; wide < 2 && ok; wide++) {
            int32_t width = wide ? 64 : 32;
            ok = bench_ok(dump_rand(TILE_OPTS(.grid = {tile_cdiv(n, 1024)}, .meta = {{"BLOCK", 1024}, {"WIDE", wide}}), w, u, g, seeds[s], bases[wide], n),
                          "dump") &&
                 bench_ok(tile_memcpy_dtoh(hw, w, (size_t)n * 16), "dump") && bench_ok(tile_memcpy_dtoh(hu, u, (size_t)n * 4), "dump") &&
                 bench_ok(tile_memcpy_dtoh(hg, g, (size_t)n * 4), "dump");
            ok = ok && fwrite(&seeds[s], 8, 1, fp) == 1 && fwrite(&bases[wide], 8, 1, fp) == 1 && fwrite(&width, 4, 1, fp) == 1 &&
                 fwrite(hw, 4, (size_t)n * 4, fp) == (size_t)n * 4 && fwrite(hu, 4, (size_t)n, fp) == (size_t)n &&
                 fwrite(hg, 4, (size_t)n, fp) == (size_t)n;
        }
    if (fclose(fp) != 0) ok = 0;
    if (!ok) {
        printf("FAILED  RANDOM_DUMP=%s: not written whole\n", path);
        bench_failures++;
    } else {
        printf("# RANDOM_DUMP: %s (4 cases of %d offsets; compare with: python3 bench/triton_random.py %s)\n", path, n, path);
    }
    tile_free(w);
    tile_free(u);
    tile_free(g);
    free(hw);
    free(hu);
    free(hg);
    return ok;
}

int main(void) {
    bench_start("bench_random");
    int smoke = bench_smoke();
    bench_header();
    bench_fill(smoke ? 5000 : 1 << 26, 0);
    bench_fill(smoke ? 5000 : 1 << 26, 1);
    const char *path = getenv("RANDOM_DUMP");
    if (path && *path) dump(path, smoke ? 4096 : 1 << 20);
    return bench_finish("bench_random");
}
