/* bench/bench_common.h — what every bench program shares: Triton's do_bench
   (tile_do_bench: warm-up by count, then timed repetitions each bracketed by
   a pair of events on the default stream; median, p20 and p80), buffer sets rotated so
   that every timed run reads from HBM rather than L2, a device-to-device
   copy of the same bytes as the yardstick, periodic test data filled on the
   device, and the table rows every program prints.

   Include after tile.h (with TILE_IMPLEMENTATION in the same file), and
   define _POSIX_C_SOURCE before any include (clock_gettime, setenv).

   Knobs (environment):
     BENCH_REPS=n, BENCH_WARMUP=n   timed repetitions (100) and warm-up runs (10)
     BENCH_SMOKE=1                  tiny shapes, and run even in the interpreter:
                                    a check of the bench programs themselves,
                                    not a measurement
     BENCH_PLOT_DIR=dir             at the end (bench_finish), each figure the
                                    program gave bench_plot_point as
                                    dir/<prog>-<figure>.csv and .svg (a line
                                    chart, no plotting library: bench_plot.h)
   Without a GPU (tile_backend_name() is "interp") a program prints
   "no GPU: bench skipped" and exits 0 unless BENCH_SMOKE=1. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_plot.h"

/* The H200's L2 is 50 MB; a buffer set of at least twice that evicts itself. */
#define BENCH_L2_BYTES ((size_t)50 << 20)
#define BENCH_MAX_REPS 1000
#define BENCH_MAX_SETS 16

static int bench_failures;                 /* rows that failed or were wrong  */

/* ---- knobs, clock, failures -------------------------------------------------- */
static inline int bench_env_int(const char *name, int dflt, int lo, int hi) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    long x = strtol(v, NULL, 10);
    return x < lo ? lo : x > hi ? hi : (int)x;
}
static inline int bench_smoke(void) { return bench_env_int("BENCH_SMOKE", 0, 0, 1); }
static inline int bench_reps(void) { return bench_env_int("BENCH_REPS", bench_smoke() ? 5 : 100, 1, BENCH_MAX_REPS); }
static inline int bench_warmup(void) { return bench_env_int("BENCH_WARMUP", bench_smoke() ? 1 : 10, 0, 100000); }
/* L2 as the rotation sees it: tiny in smoke mode, so that rotation is exercised */
static inline size_t bench_l2_bytes(void) { return bench_smoke() ? (size_t)64 << 10 : BENCH_L2_BYTES; }

/* the host's monotonic clock in ms */
static inline double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* 1 when st is TILE_OK; else prints what failed with tile_last_error() and
   counts a failure. */
static inline int bench_ok(tile_status st, const char *what) {
    if (st == TILE_OK) return 1;
    printf("FAILED  %s: %s (%s)\n", what, tile_last_error(), tile_status_id(st));
    fflush(stdout);
    bench_failures++;
    return 0;
}
/* memory the program cannot go on without */
static inline void *bench_need(void *p, const char *what) {
    if (p) return p;
    printf("FAILED  %s: out of memory: %s\n", what, tile_last_error());
    exit(1);
}
static inline void *bench_dmalloc(size_t bytes, const char *what) { return bench_need(tile_malloc(bytes), what); }
static inline void *bench_hmalloc(size_t bytes, const char *what) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        printf("FAILED  %s: out of host memory (%zu bytes)\n", what, bytes);
        exit(1);
    }
    return p;
}

/* Exits 0 with "no GPU: bench skipped" in interpreter mode (unless
   BENCH_SMOKE=1); prints a header otherwise. */
static inline void bench_start(const char *prog) {
    const char *backend = tile_backend_name();
    if (strcmp(backend, "interp") == 0 && !bench_smoke()) {
        printf("no GPU: bench skipped\n");
        exit(0);
    }
    char dev[256];
    if (tile_device_name(dev, sizeof dev) != TILE_OK) snprintf(dev, sizeof dev, "(unknown device: %.200s)", tile_last_error());
    printf("# %s: tile %s, back end %s, device %s; %d timed runs after %d warm-up%s\n", prog, TILE_VERSION_STRING, backend,
           dev, bench_reps(), bench_warmup(), bench_smoke() ? "; SMOKE MODE (tiny shapes, not a measurement)" : "");
    char note[256];
    snprintf(note, sizeof note, "%.32s: tile %s, back end %.16s, %.120s%s", prog, TILE_VERSION_STRING, backend, dev,
             bench_smoke() ? "; SMOKE MODE, not a measurement" : "");
    bench_plot_note(note);
    fflush(stdout);
}
/* Writes the plots (BENCH_PLOT_DIR; a file that cannot be written is a
   failure), then the last line. */
static inline int bench_finish(const char *prog) {
    bench_failures += bench_plot_write(prog);
    if (bench_failures) printf("# %s: %d FAILURE(S)\n", prog, bench_failures);
    else printf("# %s: done\n", prog);
    return bench_failures ? 1 : 0;
}

/* ---- random numbers: xorshift64*, fixed seed (runs are comparable) -------------- */
static uint64_t bench_rng = 0x9e3779b97f4a7c15ull;
static inline uint64_t bench_next(void) {
    bench_rng ^= bench_rng >> 12;
    bench_rng ^= bench_rng << 25;
    bench_rng ^= bench_rng >> 27;
    return bench_rng * 0x2545f4914f6cdd1dull;
}
/* uniform in [lo, hi) */
static inline double bench_uniform(double lo, double hi) {
    return lo + (hi - lo) * (double)(bench_next() >> 11) / 9007199254740992.0;
}

/* ---- elements of any float dtype on the host -------------------------------------- */
static inline double bench_get(tl_dtype t, const void *p, size_t i) {
    switch (t) {
    case TL_F16: return tile_f16_to(((const tile_f16 *)p)[i]);
    case TL_BF16: return tile_bf16_to(((const tile_bf16 *)p)[i]);
    case TL_F64: return ((const double *)p)[i];
    default: return ((const float *)p)[i];
    }
}
static inline void bench_set(tl_dtype t, void *p, size_t i, double v) {
    switch (t) {
    case TL_F16: ((tile_f16 *)p)[i] = tile_f16_from(v); break;
    case TL_BF16: ((tile_bf16 *)p)[i] = tile_bf16_from(v); break;
    case TL_F64: ((double *)p)[i] = v; break;
    default: ((float *)p)[i] = (float)v; break;
    }
}
/* half an ulp of the dtype, relative */
static inline double bench_half_ulp(tl_dtype t) {
    return t == TL_F16 ? ldexp(1, -11) : t == TL_BF16 ? ldexp(1, -8) : t == TL_F64 ? ldexp(1, -53) : ldexp(1, -24);
}

/* ---- test data ----------------------------------------------------------------------
   A device buffer filled with a host pattern repeated: element i is
   pattern[i % period]. The pattern goes up once, then the buffer doubles
   itself on the device, so 1 GiB fills in milliseconds. Pick a prime period,
   so that rows and blocks all see different data. */
static inline tile_status bench_fill_periodic(void *dst, size_t bytes, const void *pattern, size_t pattern_bytes) {
    size_t len = pattern_bytes < bytes ? pattern_bytes : bytes;
    tile_status st = tile_memcpy_htod(dst, pattern, len);
    while (st == TILE_OK && len < bytes) {
        size_t k = bytes - len < len ? bytes - len : len;
        st = tile_memcpy_dtod((char *)dst + len, dst, k);
        len += k;
    }
    return st;
}
/* The start of window w of `count` windows of `win` elements spread over
   [0, n): the first at 0, the last at n - win (the tail), the others
   pseudo-random. */
static inline size_t bench_window(size_t n, size_t win, int w, int count) {
    if (win >= n || w == 0) return 0;
    if (w == count - 1) return n - win;
    return (size_t)(bench_next() % (uint64_t)(n - win + 1));
}

/* ---- timing ---------------------------------------------------------------------------
   fn(ctx, set) enqueues one run on buffer set `set` (0..nsets-1) on the
   default stream and returns its status. */
typedef tile_status (*bench_fn)(void *ctx, int set);
typedef struct bench_stats {
    double ms, p20, p80;    /* median and quantiles of the timed runs, ms   */
    int reps;
} bench_stats;

/* Buffer sets to rotate among so that one run finds nothing of its inputs
   in L2: one when a set is at least twice L2, else enough sets that
   together they are at least four times L2 (at least 4, at most
   BENCH_MAX_SETS). */
static inline int bench_sets_for(size_t set_bytes) {
    size_t l2 = bench_l2_bytes();
    if (set_bytes >= 2 * l2) return 1;
    size_t k = set_bytes ? (4 * l2 + set_bytes - 1) / set_bytes : BENCH_MAX_SETS;
    return k < 4 ? 4 : k > BENCH_MAX_SETS ? BENCH_MAX_SETS : (int)k;
}

/* Warm-up runs, then the timed runs, each between two events on the default
   stream, the sets rotated across all of them: tile_do_bench (the tuner's
   timer, tile_autotune.h) with the counts given and no L2 flush, since the
   rotation already keeps the inputs out of L2. */
typedef struct bench_rotation { bench_fn fn; void *ctx; int nsets, next; } bench_rotation;
static inline tile_status bench_rotate(void *p) {
    bench_rotation *r = (bench_rotation *)p;
    return r->fn(r->ctx, r->next++ % r->nsets);
}
/* with tile_do_bench's options o */
static inline tile_status bench_time_opts(bench_fn fn, void *ctx, int nsets, const tile_bench_opts *o, bench_stats *out) {
    bench_rotation r = {fn, ctx, nsets < 1 ? 1 : nsets, 0};
    tile_bench_result res;
    memset(out, 0, sizeof *out);
    tile_status st = tile_do_bench(bench_rotate, &r, o, &res);
    if (st != TILE_OK) return st;
    out->ms = res.median_ms;
    out->p20 = res.p20_ms;
    out->p80 = res.p80_ms;
    out->reps = res.reps;
    return TILE_OK;
}
/* with `warmup` and `reps` runs */
static inline tile_status bench_time_n(bench_fn fn, void *ctx, int nsets, int warmup, int reps, bench_stats *out) {
    return bench_time_opts(fn, ctx, nsets, TILE_BENCH_OPTS(.warmup = warmup, .reps = reps, .no_flush = 1), out);
}
/* with BENCH_WARMUP and BENCH_REPS runs */
static inline tile_status bench_time(bench_fn fn, void *ctx, int nsets, bench_stats *out) {
    return bench_time_n(fn, ctx, nsets, bench_warmup() > 0 ? bench_warmup() : 1, bench_reps(), out);
}
/* as triton.testing.do_bench(fn, warmup=25, rep=100) times, the call of the
   anchor scripts: 25 ms of warm-up runs, then 100 ms of timed runs, each
   after an L2 flush. A long compute-bound kernel slows down over a longer
   stretch of back-to-back runs (on an H100, a 2 ms attention kernel: p20
   1.93 ms, median 2.15 over 100 runs), so a time from a longer run is not
   the anchors' figure. */
static inline tile_status bench_time_flushed(bench_fn fn, void *ctx, int nsets, bench_stats *out) {
    return bench_time_opts(fn, ctx, nsets, TILE_BENCH_OPTS(.warmup_ms = 25, .rep_ms = 100), out);
}

/* GB/s (1e9 bytes per second) of `bytes` moved in `ms` */
static inline double bench_gbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0; }

/* ---- the table ------------------------------------------------------------------------ */
static inline void bench_header(void) {
    printf("%-16s %-13s %-5s %-24s %9s %9s %9s %8s %8s\n", "name", "shape", "dtype", "config", "ms", "p20", "p80", "GB/s",
           "%of-copy");
}
/* One row; copy_gbps <= 0 leaves %copy empty. */
static inline void bench_row(const char *name, const char *shape, const char *dtype, const char *config, const bench_stats *s,
                             double bytes, double copy_gbps) {
    double g = bench_gbps(bytes, s->ms);
    char pct[16] = "-";
    if (copy_gbps > 0) snprintf(pct, sizeof pct, "%.1f%%", 100 * g / copy_gbps);
    printf("%-16s %-13s %-5s %-24s %9.4f %9.4f %9.4f %8.0f %8s\n", name, shape, dtype, config, s->ms, s->p20, s->p80, g, pct);
    fflush(stdout);
}

/* ---- the copy baseline -------------------------------------------------------------------
   tile_memcpy_dtod of half the bytes a kernel moves (a copy reads and writes
   each byte: read + write counted, as for the kernels), timed like a kernel
   with its own rotated buffers. Measured once per size and printed as a row. */
typedef struct bench_copy_ctx {
    void *src[BENCH_MAX_SETS], *dst[BENCH_MAX_SETS];
    size_t bytes;
} bench_copy_ctx;
static inline tile_status bench_copy_run(void *ctx, int set) {
    bench_copy_ctx *c = (bench_copy_ctx *)ctx;
    return tile_memcpy_dtod(c->dst[set], c->src[set], c->bytes);
}
static struct { double moved, gbps; } bench_copies[32];
static int bench_ncopies;

/* GB/s of a device copy moving `moved` bytes (read + write); 0 on failure */
static inline double bench_copy_gbps(double moved) {
    for (int i = 0; i < bench_ncopies; i++)
        if (bench_copies[i].moved == moved) return bench_copies[i].gbps;
    bench_copy_ctx c;
    memset(&c, 0, sizeof c);
    c.bytes = (size_t)(moved / 2) / 16 * 16;
    int nsets = bench_sets_for(2 * c.bytes), ok = 1;
    for (int s = 0; s < nsets && ok; s++) {
        c.src[s] = tile_malloc(c.bytes);
        c.dst[s] = tile_malloc(c.bytes);
        ok = c.src[s] && c.dst[s] && bench_ok(tile_memset(c.src[s], 0x3c, c.bytes), "copy baseline: memset");
        if (!c.src[s] || !c.dst[s]) bench_ok(TILE_ERR_NOMEM, "copy baseline: tile_malloc");
    }
    double gbps = 0;
    bench_stats st;
    if (ok && bench_ok(bench_time(bench_copy_run, &c, nsets, &st), "copy baseline: timing")) {
        char shape[48], config[64];
        if (c.bytes >= (size_t)1 << 20) snprintf(shape, sizeof shape, "%.0f MiB", (double)c.bytes / (1 << 20));
        else snprintf(shape, sizeof shape, "%.1f KiB", (double)c.bytes / (1 << 10));
        snprintf(config, sizeof config, "tile_memcpy_dtod, %d set%s", nsets, nsets > 1 ? "s" : "");
        gbps = bench_gbps(2.0 * (double)c.bytes, st.ms);
        bench_row("copy (d2d)", shape, "-", config, &st, 2.0 * (double)c.bytes, gbps);
    }
    for (int s = 0; s < nsets; s++) {
        tile_free(c.src[s]);
        tile_free(c.dst[s]);
    }
    if (gbps > 0 && bench_ncopies < (int)(sizeof bench_copies / sizeof bench_copies[0])) {
        bench_copies[bench_ncopies].moved = moved;
        bench_copies[bench_ncopies++].gbps = gbps;
    }
    return gbps;
}

#endif /* BENCH_COMMON_H */
