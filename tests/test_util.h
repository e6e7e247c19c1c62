/* tests/test_util.h — what every test program shares: a seeded random source
   (fresh each run, printed so a failure can be replayed with TILE_SEED=...),
   poisoning of outputs, float64 comparisons with tolerances, and checks that
   count failures instead of stopping at the first. Include after tile.h. */
#ifndef TILE_TEST_UTIL_H
#define TILE_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* one element of any dtype as the references hold it (integers sign- or zero-extended, floats as
   doubles), and its store into and load from a host array of that dtype */
typedef union tt_val { int64_t i; uint64_t u; double f; } tt_val;
static inline void tt_put(tl_dtype t, void *p, size_t k, tt_val v) {
    switch (t) {
    case TL_I1: ((uint8_t *)p)[k] = (uint8_t)(v.u != 0); break;
    case TL_I8: ((int8_t *)p)[k] = (int8_t)v.i; break;
    case TL_I16: ((int16_t *)p)[k] = (int16_t)v.i; break;
    case TL_I32: ((int32_t *)p)[k] = (int32_t)v.i; break;
    case TL_I64: ((int64_t *)p)[k] = v.i; break;
    case TL_U8: ((uint8_t *)p)[k] = (uint8_t)v.u; break;
    case TL_U16: ((uint16_t *)p)[k] = (uint16_t)v.u; break;
    case TL_U32: ((uint32_t *)p)[k] = (uint32_t)v.u; break;
    case TL_U64: ((uint64_t *)p)[k] = v.u; break;
    case TL_F16: ((tile_f16 *)p)[k] = tile_f16_from(v.f); break;
    case TL_BF16: ((tile_bf16 *)p)[k] = tile_bf16_from(v.f); break;
    case TL_F32: ((float *)p)[k] = (float)v.f; break;
    case TL_F64: ((double *)p)[k] = v.f; break;
    case TL_F8E4M3: ((tile_f8e4m3 *)p)[k] = tile_f8e4m3_from(v.f); break;
    case TL_F8E5M2: ((tile_f8e5m2 *)p)[k] = tile_f8e5m2_from(v.f); break;
    case TL_F8E4B15: ((tile_f8e4b15 *)p)[k] = tile_f8e4b15_from(v.f); break;
    case TL_F8E4B8: ((tile_f8e4b8 *)p)[k] = tile_f8e4b8_from(v.f); break;
    case TL_F8E5B16: ((tile_f8e5b16 *)p)[k] = tile_f8e5b16_from(v.f); break;
    default: break;
    }
}
static inline tt_val tt_get(tl_dtype t, const void *p, size_t k) {
    tt_val v;
    v.u = 0;
    switch (t) {
    case TL_I1: v.u = ((const uint8_t *)p)[k]; break;
    case TL_I8: v.i = ((const int8_t *)p)[k]; break;
    case TL_I16: v.i = ((const int16_t *)p)[k]; break;
    case TL_I32: v.i = ((const int32_t *)p)[k]; break;
    case TL_I64: v.i = ((const int64_t *)p)[k]; break;
    case TL_U8: v.u = ((const uint8_t *)p)[k]; break;
    case TL_U16: v.u = ((const uint16_t *)p)[k]; break;
    case TL_U32: v.u = ((const uint32_t *)p)[k]; break;
    case TL_U64: v.u = ((const uint64_t *)p)[k]; break;
    case TL_F16: v.f = tile_f16_to(((const tile_f16 *)p)[k]); break;
    case TL_BF16: v.f = tile_bf16_to(((const tile_bf16 *)p)[k]); break;
    case TL_F32: v.f = ((const float *)p)[k]; break;
    case TL_F64: v.f = ((const double *)p)[k]; break;
    case TL_F8E4M3: v.f = tile_f8e4m3_to(((const tile_f8e4m3 *)p)[k]); break;
    case TL_F8E5M2: v.f = tile_f8e5m2_to(((const tile_f8e5m2 *)p)[k]); break;
    case TL_F8E4B15: v.f = tile_f8e4b15_to(((const tile_f8e4b15 *)p)[k]); break;
    case TL_F8E4B8: v.f = tile_f8e4b8_to(((const tile_f8e4b8 *)p)[k]); break;
    case TL_F8E5B16: v.f = tile_f8e5b16_to(((const tile_f8e5b16 *)p)[k]); break;
    default: break;
    }
    return v;
}
static int tt_failures, tt_checks;
static uint64_t tt_state;

/* Seed from TILE_SEED or the clock; print it once. */
static inline void tt_seed(void) {
    const char *s = getenv("TILE_SEED");
    tt_state = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    if (!tt_state) tt_state = 0x9e3779b97f4a7c15ull;
    printf("seed: TILE_SEED=%llu\n", (unsigned long long)tt_state);
}
static inline uint64_t tt_next(void) { /* xorshift64* */
    tt_state ^= tt_state >> 12;
    tt_state ^= tt_state << 25;
    tt_state ^= tt_state >> 27;
    return tt_state * 0x2545f4914f6cdd1dull;
}
/* uniform in [lo, hi) */
static inline double tt_uniform(double lo, double hi) { return lo + (hi - lo) * (double)(tt_next() >> 11) / 9007199254740992.0; }
/* integer in [lo, hi] */
static inline long long tt_int(long long lo, long long hi) { return lo + (long long)(tt_next() % (uint64_t)(hi - lo + 1)); }
/* standard normal */
static inline double tt_normal(void) {
    double u = tt_uniform(1e-12, 1.0), v = tt_uniform(0.0, 1.0);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Fill `bytes` of memory with a pattern that no correct kernel writes. */
static inline void tt_poison(void *p, size_t bytes) { memset(p, 0xA5, bytes); }

#define TT_CHECK(cond, ...)                                                        \
    do {                                                                           \
        tt_checks++;                                                               \
        if (!(cond)) {                                                             \
            tt_failures++;                                                         \
            if (tt_failures <= 50) {                                               \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                        \
                printf(__VA_ARGS__);                                               \
                printf("\n");                                                      \
                fflush(stdout); /* in order with the library's notices */          \
            }                                                                      \
        }                                                                          \
    } while (0)

/* |got - want| <= atol + rtol * |want|, NaN matches NaN, inf matches inf */
static inline int tt_close(double got, double want, double atol, double rtol) {
    if (want != want) return got != got;
    if (isinf(want)) return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}
/* Compare n results with a float64 reference; reports the first few misses. */
static inline int tt_check_close(const char *what, const double *got, const double *want, size_t n, double atol, double rtol) {
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        tt_checks++;
        if (!tt_close(got[i], want[i], atol, rtol)) {
            if (bad < 5) printf("FAIL %s[%zu]: got %.9g, want %.9g\n", what, i, got[i], want[i]);
            bad++;
        }
    }
    if (bad) {
        tt_failures++;
        printf("FAIL %s: %d of %zu elements differ (atol %g, rtol %g)\n", what, bad, n, atol, rtol);
    }
    return bad == 0;
}

/* Call a launch and check it returned TILE_OK. */
#define TT_OK(call)                                                                \
    do {                                                                           \
        tile_status tt_st_ = (call);                                               \
        TT_CHECK(tt_st_ == TILE_OK, "%s returned %s: %s", #call,                  \
                 tile_status_id(tt_st_), tile_last_error());                       \
    } while (0)

/* A call that must fail: status `want`, reported at `line` of a file whose
   name contains `file`, its message containing `text`. */
static inline void tt_check_user_error(const char *what, tile_status st, tile_status want, const char *file, int line, const char *text) {
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == want && e->status == st && e->line == line && strstr(e->file, file) && strstr(e->message, text),
             "%s: want %s \"%s\" at %s:%d; got %s at %s:%d: %s", what, tile_status_id(want), text, file, line, tile_status_id(st), e->file, e->line,
             e->message);
}

/* Print the summary and return the process exit code. */
static inline int tt_finish(const char *name) {
    printf("%s: %d checks, %d failures\n", name, tt_checks, tt_failures);
    return tt_failures ? 1 : 0;
}

#endif
