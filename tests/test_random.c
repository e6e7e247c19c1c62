/* tests/test_random.c — Triton's random numbers (tl_randint, tl_rand,
   tl_randn, their 4x forms, tl_philox), against Philox 4x32 written here in
   C from its definition (Salmon et al., "Parallel random numbers: as easy
   as 1, 2, 3", SC'11) and Triton 3.6's conversions:

     - tl_philox reproduces Random123's known-answer vectors (tests/kat_vectors
       of the Random123 distribution: counter, key -> the four words);
     - tl_randint4x on random seeds (wide, negative) and offsets (i32, and
       i64 ones whose high words count) equals the C Philox, bit for bit,
       also at .n_rounds = 7;
     - tl_rand / tl_rand4x equal the C conversion bit for bit, in [0, 1);
     - tl_randn / tl_randn4x agree with Box-Muller in float64 within f32
       rounding, and 2^16 draws have the moments of U(0,1) and N(0,1);
     - user errors at the user's line.
   Whether the bits are Triton's own is checked on the GPU machine against
   Triton (the README says how); the functions here are the same by
   construction (the same counter layout, key split and conversions). */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

static void quiet_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}

/* ---- the C reference ---------------------------------------------------------------------------- */
static void philox_ref(uint32_t c[4], uint32_t k0, uint32_t k1, int rounds) {
    for (int r = 0; r < rounds; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
        c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}
/* Triton's counter for an offset and key for a seed */
static void randint4x_ref(uint64_t seed, int64_t offset, int wide, int rounds, uint32_t out[4]) {
    out[0] = (uint32_t)offset;
    out[1] = wide ? (uint32_t)((uint64_t)offset >> 32) : 0;
    out[2] = out[3] = 0;
    philox_ref(out, (uint32_t)seed, (uint32_t)(seed >> 32), rounds);
}
static float uniform_ref(uint32_t x) {
    int32_t s = (int32_t)x;
    int32_t m = s < 0 ? (int32_t)(-(int64_t)s - 1) : s;
    return (float)m * 4.6566127342e-10f;
}

/* ---- kernels -------------------------------------------------------------------------------------- */
/* the four words of Philox for counters c0..c3[i] and the key of seed */
TILE_KERNEL(philox_k, (tl_ptr_u32, c0), (tl_ptr_u32, c1), (tl_ptr_u32, c2), (tl_ptr_u32, c3), (tl_ptr_u32, out), (tl_u64, seed))
{
    int B = TL_META(B);
    tl_t i = tl_arange(0, B);
    tl_t c[4] = {tl_load(tl_add(c0, i)), tl_load(tl_add(c1, i)), tl_load(tl_add(c2, i)), tl_load(tl_add(c3, i))}, w[4];
    tl_philox(seed, c, w);
    for (int k = 0; k < 4; k++) tl_store(tl_add(out, tl_add(i, k * B)), w[k]);
}

/* WIDE: i64 offsets from offs64, else i32 from offs32; SEED32: the seed is an i32 */
TILE_KERNEL(rand_k, (tl_ptr_i32, offs32), (tl_ptr_i64, offs64), (tl_ptr_u32, ints), (tl_ptr_f32, unif), (tl_ptr_f32, norm), (tl_u64, seed),
            (tl_i32, seed32))
{
    int B = TL_META(B), WIDE = TL_META(WIDE), SEED32 = TL_META(SEED32), ROUNDS = TL_META_OR(ROUNDS, 0);
    tl_t i = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
    tl_t off = WIDE ? tl_load(tl_add(offs64, i)) : tl_load(tl_add(offs32, i));
    tl_t s = SEED32 ? seed32 : seed;
    tl_t w[4], u[4], n[4];
    tl_randint4x(s, off, w, .n_rounds = ROUNDS);
    tl_rand4x(s, off, u, .n_rounds = ROUNDS);
    tl_randn4x(s, off, n, .n_rounds = ROUNDS);
    tl_t n1 = tl_randint(s, off, .n_rounds = ROUNDS), u1 = tl_rand(s, off, .n_rounds = ROUNDS), g1 = tl_randn(s, off, .n_rounds = ROUNDS);
    tl_t N = tl_mul(tl_num_programs(0), B);
    for (int k = 0; k < 4; k++) {
        tl_store(tl_add(ints, tl_add(i, tl_mul(N, k))), w[k]);
        tl_store(tl_add(unif, tl_add(i, tl_mul(N, k))), u[k]);
        tl_store(tl_add(norm, tl_add(i, tl_mul(N, k))), n[k]);
    }
    tl_store(tl_add(ints, tl_add(i, tl_mul(N, 4))), n1);
    tl_store(tl_add(unif, tl_add(i, tl_mul(N, 4))), u1);
    tl_store(tl_add(norm, tl_add(i, tl_mul(N, 4))), g1);
}

/* ---- Random123's known answers ---------------------------------------------------------------- */
static void test_kat(void) {
    static const uint32_t kat[3][10] = {
        {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    enum { B = 4 };
    uint32_t *c[4], *out = tile_malloc(4 * B * sizeof(uint32_t)), got[4 * B];
    for (int k = 0; k < 4; k++) c[k] = tile_malloc(B * sizeof(uint32_t));
    for (int v = 0; v < 3; v++) {
        /* lane 0 the vector itself; lanes 1-3 random counters against the C reference */
        uint32_t h[4][B], want[4][B];
        for (int l = 0; l < B; l++) {
            uint32_t w[4];
            for (int k = 0; k < 4; k++) w[k] = h[k][l] = l == 0 ? kat[v][k] : (uint32_t)tt_next();
            philox_ref(w, kat[v][4], kat[v][5], 10);
            for (int k = 0; k < 4; k++) want[k][l] = w[k];
        }
        for (int k = 0; k < 4; k++) tile_memcpy_htod(c[k], h[k], sizeof h[k]);
        tile_memset(out, 0xa5, sizeof got);
        uint64_t seed = (uint64_t)kat[v][5] << 32 | kat[v][4];
        TT_OK(philox_k(TILE_OPTS(.grid = {1}, .meta = {{"B", B}}), c[0], c[1], c[2], c[3], out, seed));
        tile_memcpy_dtoh(got, out, sizeof got);
        int bad = 0;
        for (int k = 0; k < 4; k++) {
            bad += got[k * B] != kat[v][6 + k];
            for (int l = 1; l < B; l++) bad += got[k * B + l] != want[k][l];
        }
        TT_CHECK(bad == 0, "tl_philox, Random123 vector %d: got %08x %08x %08x %08x, want %08x %08x %08x %08x (%d words wrong)", v, got[0], got[B],
                 got[2 * B], got[3 * B], kat[v][6], kat[v][7], kat[v][8], kat[v][9], bad);
    }
    for (int k = 0; k < 4; k++) tile_free(c[k]);
    tile_free(out);
}

/* ---- randint / rand / randn against the reference ------------------------------------------------ */
static void run_rand(int wide, int seed32, int rounds) {
    enum { B = 256, G = 4, N = B * G };
    int32_t *h32 = malloc(N * sizeof *h32);
    int64_t *h64 = malloc(N * sizeof *h64);
    uint32_t *ints = malloc(5 * N * sizeof *ints);
    float *unif = malloc(5 * N * sizeof *unif), *norm = malloc(5 * N * sizeof *norm);
    for (int i = 0; i < N; i++) {
        h32[i] = (int32_t)tt_next();
        h64[i] = (int64_t)tt_next();
        if (i % 7 == 0) h64[i] = (int64_t)(tt_next() % 100000);   /* high word 0 */
    }
    uint64_t seed = tt_next();
    int32_t s32 = -(int32_t)tt_int(1, 1 << 30);   /* negative: its high word is all ones */
    uint64_t eff = seed32 ? (uint64_t)(int64_t)s32 : seed;
    int32_t *d32 = tile_malloc(N * sizeof *h32);
    int64_t *d64 = tile_malloc(N * sizeof *h64);
    uint32_t *di = tile_malloc(5 * N * sizeof *ints);
    float *du = tile_malloc(5 * N * sizeof *unif), *dn = tile_malloc(5 * N * sizeof *norm);
    tile_memcpy_htod(d32, h32, N * sizeof *h32);
    tile_memcpy_htod(d64, h64, N * sizeof *h64);
    tile_memset(di, 0xa5, 5 * N * sizeof *ints);
    tile_memset(du, 0xff, 5 * N * sizeof *unif);
    tile_memset(dn, 0xff, 5 * N * sizeof *norm);
    TT_OK(rand_k(TILE_OPTS(.grid = {G}, .meta = {{"B", B}, {"WIDE", wide}, {"SEED32", seed32}, {"ROUNDS", rounds}}), d32, d64, di, du, dn, seed,
                 s32));
    tile_memcpy_dtoh(ints, di, 5 * N * sizeof *ints);
    tile_memcpy_dtoh(unif, du, 5 * N * sizeof *unif);
    tile_memcpy_dtoh(norm, dn, 5 * N * sizeof *norm);
    int bad_i = 0, bad_u = 0, bad_n = 0, out_of_range = 0;
    double worst = 0;
    for (int i = 0; i < N; i++) {
        uint32_t w[4];
        randint4x_ref(eff, wide ? h64[i] : h32[i], wide, rounds ? rounds : 10, w);
        float u[4];
        for (int k = 0; k < 4; k++) {
            u[k] = uniform_ref(w[k]);
            bad_i += ints[k * N + i] != w[k];
            bad_u += memcmp(&unif[k * N + i], &u[k], sizeof(float)) != 0;
            out_of_range += !(unif[k * N + i] >= 0.0f && unif[k * N + i] < 1.0f);
        }
        bad_i += ints[4 * N + i] != w[0];
        bad_u += memcmp(&unif[4 * N + i], &u[0], sizeof(float)) != 0;
        for (int p = 0; p < 2; p++) {
            double u1 = u[2 * p] > 1.0e-7f ? u[2 * p] : 1.0e-7f, th = (float)(6.283185307179586 * u[2 * p + 1]);
            double r = sqrt(-2.0 * log(u1));
            double want[2] = {r * cos(th), r * sin(th)};
            for (int q = 0; q < 2; q++) {
                double got = norm[(2 * p + q) * N + i], err = fabs(got - want[q]);
                if (err > worst) worst = err;
                bad_n += !(err <= 2e-5 * (1 + fabs(want[q])));
            }
            if (p == 0) bad_n += !(fabs(norm[4 * N + i] - want[0]) <= 2e-5 * (1 + fabs(want[0])));
        }
    }
    TT_CHECK(bad_i == 0 && bad_u == 0 && out_of_range == 0,
             "tl_randint4x / tl_rand4x (%s offsets, %s seed, %d rounds): %d words and %d floats differ from the C Philox, %d floats outside [0, 1)",
             wide ? "i64" : "i32", seed32 ? "negative i32" : "u64", rounds ? rounds : 10, bad_i, bad_u, out_of_range);
    TT_CHECK(bad_n == 0, "tl_randn4x / tl_randn (%s offsets): %d of %d values off Box-Muller in float64 (worst %.3g)", wide ? "i64" : "i32", bad_n,
             5 * N, worst);
    free(h32);
    free(h64);
    free(ints);
    free(unif);
    free(norm);
    tile_free(d32);
    tile_free(d64);
    tile_free(di);
    tile_free(du);
    tile_free(dn);
}

/* 2^16 draws over consecutive offsets: the moments of U(0, 1) and N(0, 1) */
TILE_KERNEL(moments_k, (tl_ptr_f32, u), (tl_ptr_f32, n), (tl_i32, seed))
{
    int B = TL_META(B);
    tl_t off = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
    tl_store(tl_add(u, off), tl_rand(seed, off));
    tl_store(tl_add(n, off), tl_randn(seed, off));
}
static void test_moments(void) {
    enum { B = 1024, G = 64, N = B * G };
    float *u = tile_malloc(N * sizeof(float)), *n = tile_malloc(N * sizeof(float));
    float *hu = malloc(N * sizeof(float)), *hn = malloc(N * sizeof(float));
    TT_OK(moments_k(TILE_OPTS(.grid = {G}, .meta = {{"B", B}}), u, n, (int)tt_int(0, 1 << 30)));
    tile_memcpy_dtoh(hu, u, N * sizeof(float));
    tile_memcpy_dtoh(hn, n, N * sizeof(float));
    double su = 0, suu = 0, sn = 0, snn = 0;
    for (int i = 0; i < N; i++) su += hu[i], suu += (double)hu[i] * hu[i], sn += hn[i], snn += (double)hn[i] * hn[i];
    double mu = su / N, vu = suu / N - mu * mu, mn = sn / N, vn = snn / N - mn * mn;
    /* 6 standard errors: U mean 1/sqrt(12 N), variance ~0.3/sqrt(N); N(0,1) mean 1/sqrt(N), variance sqrt(2/N) */
    TT_CHECK(fabs(mu - 0.5) < 6 * 0.2887 / sqrt(N) && fabs(vu - 1.0 / 12) < 6 * 0.0745 / sqrt(N), "tl_rand: mean %.5f (0.5), variance %.5f (0.08333)", mu,
             vu);
    TT_CHECK(fabs(mn) < 6 / sqrt(N) && fabs(vn - 1) < 6 * sqrt(2.0 / N), "tl_randn: mean %.5f (0), variance %.5f (1)", mn, vn);
    tile_free(u);
    tile_free(n);
    free(hu);
    free(hn);
}

/* ---- user errors -------------------------------------------------------------------------------- */
static int err_line;
TILE_KERNEL(rand_bad, (tl_ptr_f32, x))
{
    int WHICH = TL_META(WHICH);
    tl_t v = tl_load(tl_add(x, tl_arange(0, 16))), r = v;
    err_line = __LINE__ + 2;
    switch (WHICH) {
    case 0: r = tl_rand(7, v); break;                                                    /* a float offset */
    case 1: r = tl_rand(v, tl_arange(0, 16)); break;                                     /* a float seed */
    case 2: r = tl_randint(7, tl_arange(0, 16), .n_rounds = 100); break;                 /* too many rounds */
    case 3: tl_randn4x(7, tl_arange(0, 16), NULL); break;                                /* nowhere for the results */
    default: r = tl_uint_to_uniform_float(tl_cast(tl_arange(0, 16), TL_I16)); break;     /* 16-bit */
    }
    tl_store(tl_add(x, tl_arange(0, 16)), tl_cast(r, TL_F32));
}
static void test_errors(void) {
    static const struct {
        tile_status st;
        const char *text;
    } want[] = {
        {TILE_ERR_DTYPE, "tl_rand: the offset must be an integer"},
        {TILE_ERR_DTYPE, "tl_rand: the seed must be an integer"},
        {TILE_ERR_VALUE, "tl_randint: .n_rounds must be 1 to 64 (got 100)"},
        {TILE_ERR_VALUE, "tl_randn4x: the results go to an array of 4 tl_t"},
        {TILE_ERR_DTYPE, "tl_uint_to_uniform_float: 32- or 64-bit integers only"},
    };
    float *x = tile_malloc(16 * sizeof(float));
    tile_memset(x, 0, 16 * sizeof(float));
    tile_set_log(quiet_log, NULL);
    for (int w = 0; w < (int)(sizeof want / sizeof *want); w++) {
        char what[32];
        snprintf(what, sizeof what, "error case %d", w);
        tile_status st = rand_bad(TILE_OPTS(.grid = {1}, .meta = {{"WHICH", w}}), x);   /* first: the build sets err_line */
        tt_check_user_error(what, st, want[w].st, "test_random.c", err_line + w, want[w].text);
    }
    tile_set_log(NULL, NULL);
    tile_free(x);
}

int main(void) {
    tt_seed();
    test_kat();
    for (int wide = 0; wide < 2; wide++)
        for (int s32 = 0; s32 < 2; s32++) run_rand(wide, s32, 0);
    run_rand(1, 0, 7);
    test_moments();
    test_errors();
    return tt_finish("test_random");
}
