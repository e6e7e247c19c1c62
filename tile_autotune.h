/* tile_autotune.h — autotuning, benchmarking and the on-disk caches.
   >>autotune

   Included by tile.h (declarations always; the implementation with tile.h's,
   under TILE_IMPLEMENTATION); including it again after tile.h is harmless.

   AN AUTOTUNED KERNEL (Triton's @triton.autotune, in C)
       static const tile_autotune_config configs[] = {
           {.meta = {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 4},
           {.meta = {{"BLOCK_M", 32}, {"BLOCK_N", 64}, {"BLOCK_K", 32}, {"GROUP_SIZE_M", 8}}, .num_warps = 4,
            .num_stages = 4},
       };
       static void grid(const tile_tune_args *a, unsigned g[3])       // grid = lambda META: ...
       {
           g[0] = tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) *
                  tile_cdiv(tile_tune_int(a, "N"), tile_tune_meta(a, "BLOCK_N"));
       }
       static tile_autotuner tuner = {TILE_AUTOTUNE_CONFIGS(configs), .key = {"M", "N", "K"}, .grid = grid};
       ...
       matmul_kernel(TILE_OPTS(.tune = &tuner), a, b, c, M, N, K, ...);  // the kernel's own typed launcher

   The first launch with new values of the key arguments times every config
   (after pruning) with tile_do_bench and keeps the fastest; later launches
   with those values look the winner up in a hash table and launch it: no
   allocation, no timing. The winner is also written to the disk cache, so a
   second process neither tunes nor (on a GPU) compiles.

   What a tuner can also say (all optional; zero means "none"):
     .heuristics     meta-parameters computed from the arguments at every
                     launch (Triton's @triton.heuristics), after the config's
     .prune          drop configs for a key: compact the array, return the count
     .perf_model     an estimate (any unit, lower is better) of a config;
     .top_k          with it, time only the k best estimated
     .restore_value  pointer parameters whose memory (to the end of its
                     tile_malloc allocation) is saved before tuning and put back
                     before every timed run and before the real launch: tuning
                     never changes a user's data (kernels updating in place)
     .reset_to_zero  pointer parameters zeroed (to the end of the allocation)
                     before every timed run (atomic counters)
     .pre_hook, .post_hook  called before and after every timed run, outside
                     the timed region
     .bench          how each config is timed (tile_bench_opts; by default 10 ms
                     of warm-up and 40 ms of timed runs per config on a GPU)
     .cutoff         a config whose first runs are all slower than this times
                     the best median so far is timed no further (default 1.25;
                     negative: every config in full)

   BENCHMARKING (triton.testing.do_bench)
       tile_bench_result r;
       tile_do_bench(run_once, ctx, TILE_BENCH_OPTS(.rep_ms = 200), &r);   // r.median_ms, r.p20_ms, ...
   Warm-up and repetitions by time (warmup_ms, rep_ms) or count (warmup,
   reps); every run is bracketed by events, with L2 flushed before it by
   writing a buffer of twice the device's L2. In the interpreter the events
   read the host's clock, so the same code runs (and is tested) without a GPU.

   THE DISK CACHE: TILE_CACHE_DIR (default $XDG_CACHE_HOME/tile, else
   ~/.cache/tile); TILE_CACHE=0 turns it off. Two kinds of file:
     <kernel>-<hash>.kernel  a compiled variant: PTX and the driver's cubin,
                             keyed by the kernel's printed IR, its CUDA C
                             source, num_warps, the specialization, the
                             library, NVRTC and driver versions, the GPU
     <kernel>-<hash>.tune    a tuning result, keyed by the library version,
                             the device, the key arguments' values and the
                             candidate configs with each one's IR
   Every file starts with a header (magic, format, kind, lengths, checksum)
   and repeats its whole key, so a truncated, corrupt, foreign or colliding
   file is ignored (and rewritten). Files are written to a temporary name and
   renamed: a process never reads another's partial file.
   What is trusted: the directory (and each missing parent) is created 0700
   and used only when this user owns it and nobody else may write in it
   (else, or when its path is too long, the disk cache is off, with one
   notice). A file is opened without following links or blocking, and used
   only when it is a regular file of this user that nobody else may write,
   and when what it says (kernel name, signature, num_warps, num_stages,
   shared memory within the device's limit, PTX with that kernel's entry)
   fits the variant asked for; any other is ignored with one notice and
   replaced by the normal store. New files are 0600, from mkstemp.

   TILE_AUTOTUNE_VERBOSE=1 prints every config's time and the winner per key,
   and what the disk cache loads and stores; otherwise one line is printed
   only when tuning a key takes longer than a second. */
#ifndef TILE_AUTOTUNE_H
#define TILE_AUTOTUNE_H

#ifndef TILE_H
#error "include tile.h before tile_autotune.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TILE_AUTOTUNE_MAX_KEY 8      /* key arguments                              */
#define TILE_AUTOTUNE_MAX_NAMES 8    /* restore_value, reset_to_zero               */

/* One point of the search: meta-parameters and launch knobs (zero: default,
   or the launch options' value). */
typedef struct tile_autotune_config {
    tile_meta meta[TILE_MAX_META];
    int num_warps;
    int num_stages;
    int num_ctas;                    /* reserved for clusters (0)                 */
    int maxnreg;                     /* reserved for register limits (0)          */
} tile_autotune_config;

/* What the tuner's callbacks see: the kernel, its arguments, and the launch
   as it will run (meta-parameters of the config, then the heuristics'). */
typedef struct tile_tune_args {
    const tile_kernel *kernel;
    const tile_arg *args;
    const tile_launch *launch;
    void *user;                      /* the tuner's .user                        */
} tile_tune_args;
/* An argument by parameter name (an error and 0 when there is no such
   parameter); a meta-parameter of the launch by name (0 when missing). */
long long tile_tune_int(const tile_tune_args *a, const char *param);
double    tile_tune_float(const tile_tune_args *a, const char *param);
void     *tile_tune_ptr(const tile_tune_args *a, const char *param);
long long tile_tune_meta(const tile_tune_args *a, const char *name);
/* A meta-parameter of a launch by name (0 when missing). */
long long tile_meta_of(const tile_launch *l, const char *name);

typedef struct tile_heuristic {
    const char *name;                            /* the meta-parameter          */
    long long (*fn)(const tile_tune_args *a);    /* its value for this launch   */
} tile_heuristic;

/* ---- benchmarking ------------------------------------------------------------ */
typedef tile_status (*tile_bench_fn)(void *user);
typedef struct tile_bench_opts {
    double warmup_ms;        /* 0: 25 ms of warm-up runs                         */
    double rep_ms;           /* 0: 100 ms of timed runs                          */
    int warmup;              /* > 0: this many warm-up runs instead              */
    int reps;                /* > 0: this many timed runs instead (at most 10000) */
    int no_flush;            /* 1: leave L2 alone between runs                   */
    size_t flush_bytes;      /* 0: twice the device's L2 (4 MiB in the interpreter) */
    void *stream;            /* where the events go (NULL: the default stream)  */
    tile_bench_fn setup;     /* before every run, untimed (may be NULL)          */
    tile_bench_fn teardown;  /* after every run, untimed (may be NULL)           */
    int cuda_graph;          /* 1: Triton's do_bench_cudagraph: the runs are captured
                                in a CUDA graph and the graph's replays are timed, so
                                launch costs vanish from short kernels' times. fn must
                                launch on .stream (not NULL); no setup, teardown or
                                L2 flush between runs (they would be in the graph)  */
    double stop_above_ms;    /* > 0: stop early when the first runs show fn is slower:
                                the estimating runs (or, when both counts are given,
                                the first 3 timed ones; with .cuda_graph the graph
                                of 5) all took longer than this; the result is those
                                runs', with .stopped set (a tuner's .cutoff)      */
} tile_bench_opts;
typedef struct tile_bench_result {
    double median_ms, mean_ms, min_ms, max_ms, p20_ms, p80_ms;
    int reps, warmup;
    int stopped;             /* 1: .stop_above_ms ended it after the first runs  */
} tile_bench_result;
#define TILE_BENCH_OPTS(...) (&(tile_bench_opts){__VA_ARGS__})   /* C only */
/* Time fn(user): one run to compile, three to estimate one run's time
   (skipped when both counts are given), warm-up, then the timed runs (each
   after setup and an L2 flush, between two events). NULL opts: defaults.
   With .cuda_graph: rep_ms (or reps) worth of runs captured in one graph,
   which is replayed 10 times after a warm-up replay (reps, warmup: 10, 1);
   each replay's time over the runs it holds is one sample. */
tile_status tile_do_bench(tile_bench_fn fn, void *user, const tile_bench_opts *opts, tile_bench_result *out);
/* The q-quantile (0..1) of sorted times, interpolated linearly (as numpy). */
double tile_quantile(const float *sorted_ms, int n, double q);

/* ---- the tuner ------------------------------------------------------------------
   A tuner is defined once (static) and used from any thread, for one kernel
   or several (each kernel has its own table of winners): the first launch
   of a new key tunes (other threads' launches of that kernel through the
   tuner wait), every later one looks the winner up. A config that fails to
   build or run is left out; every config failing is one error. */
typedef struct tile_autotuner {
    const tile_autotune_config *configs;
    int nconfigs;
    const char *key[TILE_AUTOTUNE_MAX_KEY];          /* parameter names          */
    void (*grid)(const tile_tune_args *a, unsigned grid[3]); /* NULL: the launch's .grid */
    tile_heuristic heuristics[TILE_MAX_META];
    int (*prune)(const tile_tune_args *a, tile_autotune_config *configs, int n);
    double (*perf_model)(const tile_tune_args *a, const tile_autotune_config *c);
    int top_k;
    const char *restore_value[TILE_AUTOTUNE_MAX_NAMES];
    const char *reset_to_zero[TILE_AUTOTUNE_MAX_NAMES];
    tile_status (*pre_hook)(const tile_tune_args *a);
    tile_status (*post_hook)(const tile_tune_args *a);
    tile_bench_opts bench;   /* zero: 25 ms warm-up, 100 ms of runs (interpreter: 1 and 3 runs) */
    double cutoff;           /* a config whose first runs are all slower than cutoff
                                times the best median so far is timed no further (it
                                cannot win); 0: 1.25; negative: every config timed in
                                full; between 0 and 1: an error (it could stop the
                                winner)                                              */
    void *user;
    void *state;             /* the library's: the table of winners             */
} tile_autotuner;
/* .configs and .nconfigs of a static array (C designated initializers) */
#define TILE_AUTOTUNE_CONFIGS(arr) .configs = (arr), .nconfigs = (int)(sizeof(arr) / sizeof((arr)[0]))

/* Launch through a tuner (what a launch with .tune = &tuner does). */
tile_status tile_autotune_launch(tile_autotuner *t, tile_kernel *k, const tile_launch *opts, const tile_arg *args);
/* The launch the tuner would make for these arguments, tuning first if
   needed (nothing is launched after tuning). */
tile_status tile_autotune_best(tile_autotuner *t, tile_kernel *k, const tile_launch *opts, const tile_arg *args, tile_launch *out);
/* Forget every winner in memory (the disk cache stays); no launch through
   the tuner may be in flight. */
void tile_autotune_release(tile_autotuner *t);

#ifdef __cplusplus
}
#endif

#endif /* TILE_AUTOTUNE_H */

/* ================================================================================ */
#if defined(TILE_IMPLEMENTATION) && defined(TILE__IMPLEMENTED) && !defined(TILE__AUTOTUNE_IMPLEMENTED)
#define TILE__AUTOTUNE_IMPLEMENTED
/* Why it is shaped this way: tuning happens once per key per machine, so
   its cost is a one-time event, but the launch that follows is on every
   call's path: a winner is a complete tile_launch kept in an open-addressing
   table keyed by the key arguments' values, copied and handed to
   tile_launch_kernel. Everything that outlives the process goes through one
   file format (tile__disk_*) with its whole key inside, so a wrong file can
   only be ignored, never misread. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- benchmarking -------------------------------------------------------------------- */
static void *tile__flush_buf[TILE__MAX_DEVICES];   /* one a device */
static size_t tile__flush_len[TILE__MAX_DEVICES];
static pthread_mutex_t tile__flush_lock = PTHREAD_MUTEX_INITIALIZER;

/* Write a buffer larger than L2 (on this thread's device), so that the
   next run finds none of its data there. */
static tile_status tile__flush_l2(size_t bytes) {
    if (!bytes) bytes = tile__gpu_mode() && tile__cu_cur()->props.l2_bytes > 0 ? 2 * (size_t)tile__cu_cur()->props.l2_bytes
                        : tile__gpu_mode()                                  ? (size_t)256 << 20
                                                                            : (size_t)4 << 20;
    int d = tile__dev_here();
    pthread_mutex_lock(&tile__flush_lock);
    if (tile__flush_len[d] < bytes) {
        tile_free(tile__flush_buf[d]);
        tile__flush_len[d] = 0;
        if ((tile__flush_buf[d] = tile_malloc(bytes))) tile__flush_len[d] = bytes;
    }
    void *p = tile__flush_buf[d];
    pthread_mutex_unlock(&tile__flush_lock);
    if (!p) return tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_do_bench: no memory for the %zu-byte L2 flush buffer", bytes);
    return tile_memset(p, 0, bytes);
}
static int tile__cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}
double tile_quantile(const float *x, int n, double q) {
    if (!x || n <= 0) return 0;
    q = q > 1 ? 1 : q >= 0 ? q : 0;   /* NaN: 0 */
    double pos = q * (n - 1);
    int i = (int)pos;
    double f = pos - i;
    return i + 1 < n ? x[i] * (1 - f) + x[i + 1] * f : x[i];
}
/* One run: setup, flush, [start] fn [end], teardown. */
static tile_status tile__bench_run(tile_bench_fn fn, void *user, const tile_bench_opts *o, tile_event start, tile_event end) {
    tile_status st = o->setup ? o->setup(user) : TILE_OK;
    if (st == TILE_OK && !o->no_flush) st = tile__flush_l2(o->flush_bytes);
    if (st == TILE_OK && start) st = tile_event_record(start, (tile_stream)o->stream);
    if (st == TILE_OK) st = fn(user);
    if (st == TILE_OK && end) st = tile_event_record(end, (tile_stream)o->stream);
    if (st == TILE_OK && o->teardown) st = o->teardown(user);
    return st;
}
static void tile__bench_stats(float *ms, int reps, int warmup, tile_bench_result *out) {
    double sum = 0;
    qsort(ms, (size_t)reps, sizeof *ms, tile__cmp_float);
    for (int i = 0; i < reps; i++) sum += ms[i];
    out->median_ms = tile_quantile(ms, reps, 0.5);
    out->p20_ms = tile_quantile(ms, reps, 0.2);
    out->p80_ms = tile_quantile(ms, reps, 0.8);
    out->min_ms = ms[0];
    out->max_ms = ms[reps - 1];
    out->mean_ms = sum / reps;
    out->reps = reps;
    out->warmup = warmup;
}
/* .stop_above_ms: when every one of the first n runs took longer, the
   result is theirs, marked stopped (1); else 0 */
static int tile__bench_stop(const tile_bench_opts *o, const float *first_ms, int n, tile_bench_result *out) {
    float t[8];
    if (!(o->stop_above_ms > 0) || n < 1 || n > 8) return 0;
    for (int i = 0; i < n; i++)
        if (first_ms[i] <= o->stop_above_ms) return 0;
    memcpy(t, first_ms, (size_t)n * sizeof *t);
    tile__bench_stats(t, n, 0, out);
    out->stopped = 1;
    return 1;
}
/* n runs of fn captured on stream s into *g */
static tile_status tile__bench_capture(tile_bench_fn fn, void *user, tile_stream s, int n, tile_graph *g) {
    tile_status st = tile_graph_begin(s), st2;
    for (int i = 0; i < n && st == TILE_OK; i++) st = fn(user);
    st2 = tile_graph_end(s, g);
    if (st != TILE_OK) tile_graph_destroy(*g), *g = NULL;
    return st != TILE_OK ? st : st2;
}
/* .cuda_graph: replays of a graph of runs, timed (Triton's do_bench_cudagraph) */
static tile_status tile__bench_graph(tile_bench_fn fn, void *user, const tile_bench_opts *o, tile_bench_result *out) {
    enum { MAX_RUNS = 1000, RETRIES = 10, EST = 5 };
    tile_stream s = (tile_stream)o->stream;
    if (!s)
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0,
                           "tile_do_bench: .cuda_graph needs .stream (not NULL), the stream fn launches on: the default stream cannot be captured");
    if (o->setup || o->teardown)
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0,
                           "tile_do_bench: .cuda_graph cannot run .setup or .teardown between runs (a graph holds only the runs); time with them "
                           "without .cuda_graph");
    tile_event ev[2 * RETRIES] = {0};
    tile_graph g = NULL;
    float ms[RETRIES] = {0};
    tile_status st = fn(user);   /* compiles, outside any graph */
    if (st == TILE_OK) st = tile_stream_synchronize(s);
    for (int i = 0; i < 2 * RETRIES && st == TILE_OK; i++) st = tile_event_create(&ev[i]);
    /* one run's time, from a graph of EST */
    double est = 0;
    if (st == TILE_OK) st = tile__bench_capture(fn, user, s, EST, &g);
    for (int rep = 0; rep < 2 && st == TILE_OK; rep++) {   /* the first replay uploads the graph */
        st = tile_event_record(ev[0], s);
        if (st == TILE_OK) st = tile_graph_launch(g, s);
        if (st == TILE_OK) st = tile_event_record(ev[1], s);
        if (st == TILE_OK) st = tile_event_synchronize(ev[1]);
        if (st == TILE_OK) st = tile_event_elapsed_ms(ev[0], ev[1], &ms[0]);
        est = ms[0] / EST;
    }
    tile_graph_destroy(g);
    g = NULL;
    if (st == TILE_OK && o->stop_above_ms > 0 && est > o->stop_above_ms) {   /* it cannot win: the graph of EST says so */
        ms[0] = (float)est;
        tile__bench_stats(ms, 1, 1, out);
        out->reps = EST;
        out->stopped = 1;
        for (int i = 0; i < 2 * RETRIES; i++) tile_event_destroy(ev[i]);
        return TILE_OK;
    }
    if (est <= 0) est = 1e-3;
    int runs = o->reps > 0 ? o->reps : (int)((o->rep_ms > 0 ? o->rep_ms : 100) / est);
    runs = runs < 1 ? 1 : runs > MAX_RUNS ? MAX_RUNS : runs;
    if (st == TILE_OK) st = tile__bench_capture(fn, user, s, runs, &g);
    int warmup = o->warmup > 0 ? o->warmup : 1;
    for (int i = 0; i < warmup && st == TILE_OK; i++) st = tile_graph_launch(g, s);
    for (int i = 0; i < RETRIES && st == TILE_OK; i++) {
        st = tile_event_record(ev[2 * i], s);
        if (st == TILE_OK) st = tile_graph_launch(g, s);
        if (st == TILE_OK) st = tile_event_record(ev[2 * i + 1], s);
    }
    if (st == TILE_OK) st = tile_event_synchronize(ev[2 * RETRIES - 1]);
    for (int i = 0; i < RETRIES && st == TILE_OK; i++) {
        st = tile_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &ms[i]);
        ms[i] /= (float)runs;
    }
    if (st == TILE_OK) tile__bench_stats(ms, RETRIES, warmup, out);
    else tile_stream_synchronize(s);
    if (st == TILE_OK) out->reps = RETRIES * runs;
    tile_graph_destroy(g);
    for (int i = 0; i < 2 * RETRIES; i++) tile_event_destroy(ev[i]);
    return st;
}
tile_status tile_do_bench(tile_bench_fn fn, void *user, const tile_bench_opts *opts, tile_bench_result *out) {
    static const tile_bench_opts none;
    const tile_bench_opts *o = opts ? opts : &none;
    enum { MAX_REPS = 10000, NEST = 3 };
    if (!fn || !out) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_do_bench: the %s is NULL", !fn ? "function" : "result pointer");
    memset(out, 0, sizeof *out);
    if (o->cuda_graph) return tile__bench_graph(fn, user, o, out);
    tile_event ev[2 * NEST] = {0}, *evs = NULL;
    float *ms = NULL;
    tile_status st = TILE_OK;
    for (int i = 0; i < 2 * NEST && st == TILE_OK; i++) st = tile_event_create(&ev[i]);
    /* one run compiles; three more estimate the time of one, unless both counts are given */
    int nest = o->warmup > 0 && o->reps > 0 ? 0 : NEST;
    if (st == TILE_OK) st = tile__bench_run(fn, user, o, NULL, NULL);
    if (st == TILE_OK) st = tile_synchronize();
    double wall0 = tile__host_ms();
    for (int i = 0; i < nest && st == TILE_OK; i++) st = tile__bench_run(fn, user, o, ev[2 * i], ev[2 * i + 1]);
    if (st == TILE_OK && nest) st = tile_event_synchronize(ev[2 * nest - 1]);
    /* a run's cost is the larger of its kernel time and its wall time with
       setup and flush: tiny kernels must not turn rep_ms into seconds */
    double est = nest ? (tile__host_ms() - wall0) / nest : 0, kernel = 0;
    float est_ms[NEST];
    for (int i = 0; i < nest && st == TILE_OK; i++) {
        st = tile_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &est_ms[i]);
        kernel += est_ms[i] / nest;
    }
    if (st == TILE_OK && nest && tile__bench_stop(o, est_ms, nest, out)) {
        for (int i = 0; i < 2 * NEST; i++) tile_event_destroy(ev[i]);
        return TILE_OK;
    }
    if (kernel > est) est = kernel;
    if (est <= 0) est = 1e-3;
    int warmup = o->warmup > 0 ? o->warmup : (int)((o->warmup_ms > 0 ? o->warmup_ms : 25) / est);
    int reps = o->reps > 0 ? o->reps : (int)((o->rep_ms > 0 ? o->rep_ms : 100) / est);
    warmup = warmup < 1 ? 1 : warmup;
    reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
    if (st == TILE_OK && (!(evs = (tile_event *)calloc(2 * (size_t)reps, sizeof *evs)) || !(ms = (float *)malloc((size_t)reps * sizeof *ms))))
        st = tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_do_bench: out of host memory for %d runs", reps);
    for (int i = 0; i < 2 * reps && st == TILE_OK; i++) st = tile_event_create(&evs[i]);
    for (int i = 0; i < warmup && st == TILE_OK; i++) st = tile__bench_run(fn, user, o, NULL, NULL);
    int first = !nest && o->stop_above_ms > 0 ? (reps < NEST ? reps : NEST) : 0;   /* both counts given: the first timed runs decide */
    int made = reps;                                                                 /* event pairs to destroy */
    for (int i = 0; i < reps && st == TILE_OK; i++) {
        st = tile__bench_run(fn, user, o, evs[2 * i], evs[2 * i + 1]);
        if (st != TILE_OK || i + 1 != first) continue;
        st = tile_event_synchronize(evs[2 * i + 1]);
        for (int j = 0; j < first && st == TILE_OK; j++) st = tile_event_elapsed_ms(evs[2 * j], evs[2 * j + 1], &ms[j]);
        if (st == TILE_OK && tile__bench_stop(o, ms, first, out)) {
            out->warmup = warmup;
            break;
        }
    }
    if (st == TILE_OK && !out->stopped) st = tile_event_synchronize(evs[2 * reps - 1]);
    for (int i = 0; i < reps && st == TILE_OK && !out->stopped; i++) st = tile_event_elapsed_ms(evs[2 * i], evs[2 * i + 1], &ms[i]);
    if (st == TILE_OK && !out->stopped) tile__bench_stats(ms, reps, warmup, out);
    else if (st != TILE_OK)
        tile_synchronize();
    for (int i = 0; i < 2 * NEST; i++) tile_event_destroy(ev[i]);
    for (int i = 0; evs && i < 2 * made; i++) tile_event_destroy(evs[i]);
    free(evs);
    free(ms);
    return st;
}

/* ---- the tuner ----------------------------------------------------------------------- */
static int tile__param_index(const tile_kernel *k, const char *name) {
    for (int p = 0; p < k->nparams; p++)
        if (strcmp(k->params[p].name, name) == 0) return p;
    return -1;
}
static int tile__tune_param(const tile_tune_args *a, const char *name) {
    if (!a || !a->kernel || !a->args || !name) {
        tile__error(TILE_ERR_VALUE, a && a->kernel ? a->kernel->name : NULL, NULL, 0, "tile_tune_int/float/ptr: the %s is NULL",
                    !a ? "tuner's argument" : !name ? "parameter name" : !a->kernel ? "kernel" : "argument array");
        return -1;
    }
    int p = tile__param_index(a->kernel, name);
    if (p < 0) tile__error(TILE_ERR_ARG, a->kernel->name, NULL, 0, "the tuner asks for argument \"%s\", which the kernel does not have", name);
    return p;
}
long long tile_tune_int(const tile_tune_args *a, const char *param) {
    int p = tile__tune_param(a, param);
    return p < 0 ? 0 : a->kernel->params[p].dtype == TL_F32 || a->kernel->params[p].dtype == TL_F64 ? (long long)a->args[p].f : a->args[p].i;
}
double tile_tune_float(const tile_tune_args *a, const char *param) {
    int p = tile__tune_param(a, param);
    return p < 0 ? 0 : a->kernel->params[p].dtype == TL_F32 || a->kernel->params[p].dtype == TL_F64 ? a->args[p].f : (double)a->args[p].i;
}
void *tile_tune_ptr(const tile_tune_args *a, const char *param) {
    int p = tile__tune_param(a, param);
    return p < 0 || a->kernel->params[p].dtype != TL_PTR ? NULL : a->args[p].p;
}
long long tile_meta_of(const tile_launch *l, const char *name) {
    for (int i = 0; l && name && i < TILE_MAX_META && l->meta[i].name; i++)
        if (strcmp(l->meta[i].name, name) == 0) return l->meta[i].value;
    return 0;
}
long long tile_tune_meta(const tile_tune_args *a, const char *name) { return a ? tile_meta_of(a->launch, name) : 0; }

/* A tuned key: its values and the winner's launch, without grid or stream. */
typedef struct tile__tune_slot {
    uint64_t h;              /* 0: empty                                        */
    const tile_kernel *k;
    uint64_t dclass;         /* the devices it holds for (tile__dev_class)      */
    int64_t key[TILE_AUTOTUNE_MAX_KEY];
    tile_launch win;
} tile__tune_slot;
/* Which devices share tuning results: this thread's device's name and
   architecture, hashed (identical GPUs share; the interpreter's devices
   are all one, 0). */
static uint64_t tile__dev_class(void) {
    if (!tile__gpu_mode()) return 0;
    const tile__cu_props *p = &tile__cu_cur()->props;
    uint64_t h = tile__fnv(TILE__FNV0, p->name, strlen(p->name));
    h = tile__fnv(h, &p->cc_major, sizeof p->cc_major);
    h = tile__fnv(h, &p->cc_minor, sizeof p->cc_minor);
    return h ? h : 1;
}
/* A tuner's state for one kernel: a tuner may serve several kernels (their
   parameters differ, so each has its own key positions and table). */
typedef struct tile__tune_state {
    pthread_mutex_t lock;    /* the table                                        */
    pthread_mutex_t tuning;  /* one key tuned at a time                          */
    tile__tune_slot *slots;
    int cap, n;
    const tile_kernel *k;    /* whose; k, key_idx and nkey never change          */
    int key_idx[TILE_AUTOTUNE_MAX_KEY], nkey;
    struct tile__tune_state *next;   /* the tuner's state for another kernel      */
} tile__tune_state;
static pthread_mutex_t tile__tune_global = PTHREAD_MUTEX_INITIALIZER;

/* The tuner's state for kernel k, made on its first launch with the key's
   parameters resolved; under one lock, so that it is published whole. */
static tile_status tile__tune_state_get(tile_autotuner *t, const tile_kernel *k, const tile_launch *o, tile__tune_state **out) {
    tile_status st = TILE_OK;
    pthread_mutex_lock(&tile__tune_global);
    tile__tune_state *s = (tile__tune_state *)t->state;
    while (s && s->k != k) s = s->next;
    if (!s) {
        int key_idx[TILE_AUTOTUNE_MAX_KEY], n = 0;
        for (int i = 0; i < TILE_AUTOTUNE_MAX_KEY && t->key[i] && st == TILE_OK; i++) {
            int p = tile__param_index(k, t->key[i]);
            if (p < 0) st = tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "autotune key \"%s\" is not a parameter of %s", t->key[i], k->name);
            key_idx[n++] = p;
        }
        /* a tl_ptr parameter's dtype is always part of the key, as Triton's
           tuner keys on its tensors' dtypes */
        for (int p = 0; p < k->nparams && st == TILE_OK; p++) {
            int have = 0;
            if (k->params[p].dtype != TL_PTR || k->params[p].elem != TL_VOID) continue;
            for (int i = 0; i < n; i++) have |= key_idx[i] == p;
            if (have) continue;
            if (n == TILE_AUTOTUNE_MAX_KEY)
                st = tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "the tuner's key has no room for the dtype of the tl_ptr parameter %s (at most %d entries)",
                                 k->params[p].name, TILE_AUTOTUNE_MAX_KEY);
            else key_idx[n++] = p;
        }
        if (st == TILE_OK && !(s = (tile__tune_state *)calloc(1, sizeof *s))) st = tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
        if (st == TILE_OK) {
            pthread_mutex_init(&s->lock, NULL);
            pthread_mutex_init(&s->tuning, NULL);
            s->k = k;
            memcpy(s->key_idx, key_idx, sizeof key_idx);
            s->nkey = n;
            s->next = (tile__tune_state *)t->state;
            t->state = s;
        }
    }
    pthread_mutex_unlock(&tile__tune_global);
    *out = s;
    return st;
}
/* The key's values: integers and floats by value, pointers by alignment to
   16 (and a tl_ptr's dtype above that bit). */
static uint64_t tile__tune_key(const tile__tune_state *s, const tile_kernel *k, const tile_arg *args, int64_t *key) {
    uint64_t dc = tile__dev_class();
    uint64_t h = tile__fnv(tile__fnv(TILE__FNV0, &k, sizeof k), &dc, sizeof dc);
    for (int i = 0; i < s->nkey; i++) {
        int p = s->key_idx[i];
        tl_dtype t = k->params[p].dtype;
        if (t == TL_PTR) key[i] = ((uintptr_t)args[p].p % 16 == 0) | (k->params[p].elem == TL_VOID ? (int64_t)args[p].elem << 1 : 0);
        else if (t == TL_F32 || t == TL_F64) memcpy(&key[i], &args[p].f, sizeof key[i]);
        else key[i] = args[p].i;
        h = tile__fnv(h, &key[i], sizeof key[i]);
    }
    return h ? h : 1;
}
static tile__tune_slot *tile__tune_find(tile__tune_state *s, uint64_t h, const tile_kernel *k, const int64_t *key) {
    if (!s->cap) return NULL;
    uint64_t dc = tile__dev_class();
    for (int i = (int)(h & (uint64_t)(s->cap - 1));; i = (i + 1) & (s->cap - 1)) {
        tile__tune_slot *e = &s->slots[i];
        if (!e->h) return NULL;
        if (e->h == h && e->k == k && e->dclass == dc && memcmp(e->key, key, sizeof(int64_t) * (size_t)s->nkey) == 0) return e;
    }
}
static tile_status tile__tune_insert(tile__tune_state *s, uint64_t h, const tile_kernel *k, const int64_t *key, const tile_launch *win) {
    if (2 * (s->n + 1) > s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        tile__tune_slot *old = s->slots, *slots = (tile__tune_slot *)calloc((size_t)cap, sizeof *slots);
        if (!slots) return tile__error(TILE_ERR_NOMEM, k->name, NULL, 0, "out of host memory");
        for (int i = 0; i < s->cap; i++)
            if (old[i].h) {
                int j = (int)(old[i].h & (uint64_t)(cap - 1));
                while (slots[j].h) j = (j + 1) & (cap - 1);
                slots[j] = old[i];
            }
        s->slots = slots;
        s->cap = cap;
        free(old);
    }
    if (tile__tune_find(s, h, k, key)) return TILE_OK;
    int j = (int)(h & (uint64_t)(s->cap - 1));
    while (s->slots[j].h) j = (j + 1) & (s->cap - 1);
    tile__tune_slot *e = &s->slots[j];
    e->h = h;
    e->k = k;
    e->dclass = tile__dev_class();
    memcpy(e->key, key, sizeof(int64_t) * (size_t)s->nkey);
    e->win = *win;
    s->n++;
    return TILE_OK;
}
void tile_autotune_release(tile_autotuner *t) {
    if (!t) return;
    pthread_mutex_lock(&tile__tune_global);
    tile__tune_state *s = (tile__tune_state *)t->state;
    t->state = NULL;
    pthread_mutex_unlock(&tile__tune_global);
    while (s) {
        tile__tune_state *next = s->next;
        pthread_mutex_destroy(&s->lock);
        pthread_mutex_destroy(&s->tuning);
        free(s->slots);
        free(s);
        s = next;
    }
}

/* Set a meta-parameter of a launch (replace, or append). */
static tile_status tile__meta_set(tile_launch *l, const tile_kernel *k, const char *name, long long value) {
    int i = 0;
    while (i < TILE_MAX_META && l->meta[i].name && strcmp(l->meta[i].name, name) != 0) i++;
    if (i == TILE_MAX_META)
        return tile__error(TILE_ERR_META, k->name, l->file, l->line, "more than %d meta-parameters with the tuner's (adding %s)", TILE_MAX_META, name);
    l->meta[i].name = name;
    l->meta[i].value = value;
    return TILE_OK;
}
/* The launch of config c: the user's options, then the config's values. */
static tile_status tile__config_launch(const tile_launch *o, const tile_kernel *k, const tile_autotune_config *c, tile_launch *l) {
    *l = *o;
    l->tune = NULL;
    tile_status st = TILE_OK;
    for (int i = 0; i < TILE_MAX_META && c->meta[i].name && st == TILE_OK; i++) st = tile__meta_set(l, k, c->meta[i].name, c->meta[i].value);
    if (c->num_warps) l->num_warps = c->num_warps;
    if (c->num_stages) l->num_stages = c->num_stages;
    return st;
}
/* Per launch: heuristics, then the grid. */
static tile_status tile__finish_launch(const tile_autotuner *t, const tile_kernel *k, const tile_launch *o, const tile_arg *args, tile_launch *l) {
    tile_tune_args a = {k, args, l, t->user};
    tile_status st = TILE_OK;
    for (int i = 0; i < TILE_MAX_META && t->heuristics[i].name && st == TILE_OK; i++) {
        if (!t->heuristics[i].fn) return tile__error(TILE_ERR_META, k->name, o->file, o->line, "heuristic %s has no function", t->heuristics[i].name);
        st = tile__meta_set(l, k, t->heuristics[i].name, t->heuristics[i].fn(&a));
    }
    if (st == TILE_OK && t->grid) {
        memset(l->grid, 0, sizeof l->grid);
        t->grid(&a, l->grid);
    }
    return st;
}
/* "BLOCK_M=64 BLOCK_N=64 num_warps=4 num_stages=3" */
static void tile__config_text(tile__sbuf *b, const tile_launch *l) {
    for (int i = 0; i < TILE_MAX_META && l->meta[i].name; i++) tile__sb(b, "%s=%lld ", l->meta[i].name, l->meta[i].value);
    int nw, ns;
    tile__launch_defaults(l, &nw, &ns);
    tile__sb(b, "num_warps=%d num_stages=%d", nw, ns);
}
/* "M=4096 N=4096" (pointers: whether 16-byte aligned) */
static void tile__key_text(tile__sbuf *b, const tile__tune_state *s, const tile_kernel *k, const int64_t *key) {
    for (int i = 0; i < s->nkey; i++) {
        const tile_param *p = &k->params[s->key_idx[i]];
        double f;
        memcpy(&f, &key[i], sizeof f);
        if (p->dtype == TL_PTR && p->elem == TL_VOID)
            tile__sb(b, "%s%s.dtype=%s %s.aligned16=%lld", i ? " " : "", p->name, tile_dtype_name((tl_dtype)(key[i] >> 1)), p->name, (long long)(key[i] & 1));
        else if (p->dtype == TL_PTR) tile__sb(b, "%s%s.aligned16=%lld", i ? " " : "", p->name, (long long)key[i]);
        else if (p->dtype == TL_F32 || p->dtype == TL_F64) tile__sb(b, "%s%s=%.17g", i ? " " : "", p->name, f);
        else tile__sb(b, "%s%s=%lld", i ? " " : "", p->name, (long long)key[i]);
    }
}

/* What the timed runs of one config need. Memory named by restore_value and
   reset_to_zero is saved once (to the end of its allocation); before every
   run restore_value is put back and reset_to_zero zeroed; after tuning both
   are put back as they were. */
typedef struct tile__tune_run {
    const tile_autotuner *t;
    tile_kernel *k;
    const tile_arg *args;
    tile_launch l;
    int nsave;
    void *dst[2 * TILE_AUTOTUNE_MAX_NAMES], *copy[2 * TILE_AUTOTUNE_MAX_NAMES];
    size_t bytes[2 * TILE_AUTOTUNE_MAX_NAMES];
    int zero[2 * TILE_AUTOTUNE_MAX_NAMES];
} tile__tune_run;
static tile_status tile__tune_restore(tile__tune_run *r, int zero) {
    tile_status st = TILE_OK;
    for (int i = 0; i < r->nsave && st == TILE_OK; i++)
        st = zero && r->zero[i] ? tile_memset(r->dst[i], 0, r->bytes[i]) : tile_memcpy_dtod(r->dst[i], r->copy[i], r->bytes[i]);
    return st;
}
static tile_status tile__tune_setup(void *u) {
    tile__tune_run *r = (tile__tune_run *)u;
    tile_status st = tile__tune_restore(r, 1);
    tile_tune_args a = {r->k, r->args, &r->l, r->t->user};
    if (st == TILE_OK && r->t->pre_hook) st = r->t->pre_hook(&a);
    return st;
}
static tile_status tile__tune_fn(void *u) {
    tile__tune_run *r = (tile__tune_run *)u;
    return tile_launch_kernel(r->k, &r->l, r->args);
}
static tile_status tile__tune_teardown(void *u) {
    tile__tune_run *r = (tile__tune_run *)u;
    tile_tune_args a = {r->k, r->args, &r->l, r->t->user};
    return r->t->post_hook ? r->t->post_hook(&a) : TILE_OK;
}
static tile_status tile__tune_save(tile__tune_run *r, const tile_launch *o) {
    for (int set = 0; set < 2; set++) {
        const char *const *names = set ? r->t->reset_to_zero : r->t->restore_value;
        for (int i = 0; i < TILE_AUTOTUNE_MAX_NAMES && names[i]; i++) {
            int p = tile__param_index(r->k, names[i]);
            if (p < 0 || r->k->params[p].dtype != TL_PTR)
                return tile__error(TILE_ERR_ARG, r->k->name, o->file, o->line, "%s \"%s\" is not a pointer parameter of %s",
                                   set ? "reset_to_zero" : "restore_value", names[i], r->k->name);
            uintptr_t a = (uintptr_t)r->args[p].p;
            pthread_mutex_lock(&tile__mem_lock);
            int b = tile__block_find(a);
            size_t n = b < 0 ? 0 : tile__blocks[b].base + tile__blocks[b].size - a;
            pthread_mutex_unlock(&tile__mem_lock);
            if (b < 0)
                return tile__error(TILE_ERR_ARG, r->k->name, o->file, o->line, "argument %s = %p is not memory from tile_malloc", names[i], r->args[p].p);
            int j = r->nsave;
            r->dst[j] = r->args[p].p;
            r->bytes[j] = n;
            r->zero[j] = set;
            if (!(r->copy[j] = tile_malloc(n))) return tile__error(TILE_ERR_NOMEM, r->k->name, o->file, o->line, "no memory to save %s (%zu bytes)", names[i], n);
            r->nsave++;
            tile_status st = tile_memcpy_dtod(r->copy[j], r->dst[j], n);
            if (st != TILE_OK) return st;
        }
    }
    return TILE_OK;
}
static tile_status tile__tune_unsave(tile__tune_run *r) {
    tile_status st = tile__tune_restore(r, 0);
    if (st == TILE_OK && r->nsave) st = tile_synchronize();
    for (int i = 0; i < r->nsave; i++) tile_free(r->copy[i]);
    r->nsave = 0;
    return st;
}

/* On a GPU, compile every candidate at once, one thread each, before any is
   timed: NVRTC and the driver's JIT run side by side, and tuning costs
   about one compile instead of one per config. A failure here is left for
   the timed run to report. */
typedef struct tile__precompile_job {
    tile_kernel *k;
    const tile_launch *l;
    const tile_arg *args;
    tile__config cfg;
    int dev;                 /* the tuning thread's device: the variant is loaded there */
} tile__precompile_job;
static void *tile__precompile_one(void *p) {
    const tile__precompile_job *j = (const tile__precompile_job *)p;
    tile__cu_tls = j->dev;
    tile__entry *e;
    tile__variant *v;
    tile__err_mute++;
    if (tile__get_entry_for(j->k, j->l, j->args, &e) == TILE_OK) tile__get_variant(e, j->k, j->l, &j->cfg, &v);
    tile__err_mute--;
    tile_clear_error();
    return NULL;
}
static void tile__precompile(tile_kernel *k, const tile_launch *full, int n, const tile_arg *args) {
    enum { MAXT = 32 };
    pthread_t th[MAXT];
    tile__precompile_job jobs[MAXT];
    int started[MAXT];
    for (int i0 = 0; i0 < n; i0 += MAXT) {
        int m = n - i0 < MAXT ? n - i0 : MAXT;
        for (int i = 0; i < m; i++) {
            jobs[i].k = k;
            jobs[i].l = &full[i0 + i];
            jobs[i].args = args;
            jobs[i].dev = tile__cu_tls;
            if (tile__config_resolve(k, jobs[i].l, args, NULL, &jobs[i].cfg) != TILE_OK) {
                tile_clear_error();
                started[i] = 0;
                continue;
            }
            jobs[i].cfg.ktime = tile__prof_ktime_now();   /* >>profile: the variant the timed runs will launch */
            started[i] = pthread_create(&th[i], NULL, tile__precompile_one, &jobs[i]) == 0;
            if (!started[i]) tile__precompile_one(&jobs[i]);
        }
        for (int i = 0; i < m; i++)
            if (started[i]) pthread_join(th[i], NULL);
    }
}

/* A config failed (its error just recorded, not logged): keep the first. */
static void tile__tune_failure(tile_status *first, char *msg, size_t n, tile_status st) {
    if (*first != TILE_OK) return;
    *first = st;
    tile__copy_cut(msg, n, tile_last_error());
}
/* The one error of a tuning in which no config ran: each config, and the
   first failure's own message; the first failure's id, at the launch. */
static tile_status tile__tune_failed(const tile_kernel *k, const tile_launch *o, const tile_launch *full, int n, tile_status first, const char *why) {
    tile__sbuf b = {0};
    for (int i = 0; i < n; i++) {
        tile__sb(&b, "%s[", i ? " " : "");
        tile__config_text(&b, &full[i]);
        tile__sb(&b, "]");
    }
    tile_status st = tile__error(first != TILE_OK ? first : TILE_ERR_LAUNCH, k->name, o->file, o->line, "every config failed while tuning (%d): %.300s%s; the first: %s",
                                 n, b.s ? b.s : "", b.n > 300 ? "..." : "", why);
    free(b.s);
    return st;
}
/* Tune one key: prune, look on disk, else time every config; *win is the
   winner's launch (before heuristics and grid). */
static tile_status tile__tune(const tile_autotuner *t, const tile__tune_state *s, tile_kernel *k, const tile_launch *o, const tile_arg *args,
                              const int64_t *keyv, tile_launch *win) {
    const tile__at_knobs *kn = tile__at_knobs_get();
    double t0 = tile__host_ms();
    int n = t->nconfigs;
    tile_status st = TILE_OK;
    tile_autotune_config *cf = (tile_autotune_config *)malloc(sizeof *cf * (size_t)n);
    tile_launch *base = (tile_launch *)malloc(sizeof *base * (size_t)n), *full = (tile_launch *)malloc(sizeof *full * (size_t)n);
    double *ms = (double *)malloc(sizeof *ms * (size_t)n), *est = (double *)malloc(sizeof *est * (size_t)n);
    int *failed = (int *)calloc((size_t)n, sizeof *failed);   /* config i does not build */
    tile_status first = TILE_OK;                              /* the first failure, and its message */
    char firsterr[1024] = "";
    tile__sbuf key = {0}, what = {0}, akey = {0};   /* akey: >>aot, the TILE_AOT tables' key */
    int aot = tile__aot_linked() || tile__export_on();
    tile__tune_run run;
    memset(&run, 0, sizeof run);
    if (!cf || !base || !full || !ms || !est || !failed) {
        st = tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
        goto done;
    }
    memcpy(cf, t->configs, sizeof *cf * (size_t)n);
    tile_tune_args a = {k, args, o, t->user};
    if (t->prune) {
        int m = t->prune(&a, cf, n);
        n = m < 0 ? 0 : m > n ? n : m;
    }
    if (t->perf_model && t->top_k > 0 && n > t->top_k) {
        /* keep the top_k best estimated, in their order */
        for (int i = 0; i < n; i++) {
            tile_launch l;
            if ((st = tile__config_launch(o, k, &cf[i], &l)) != TILE_OK || (st = tile__finish_launch(t, k, o, args, &l)) != TILE_OK) goto done;
            tile_tune_args ca = {k, args, &l, t->user};
            est[i] = t->perf_model(&ca, &cf[i]);
        }
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && est[j] < est[j - 1]; j--) {
                tile_autotune_config c = cf[j];
                double e = est[j];
                cf[j] = cf[j - 1], est[j] = est[j - 1];
                cf[j - 1] = c, est[j - 1] = e;
            }
        n = t->top_k;
    }
    if (n == 0) {
        st = tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "the tuner's prune function left no config");
        goto done;
    }
    if (t->cutoff > 0 && t->cutoff < 1) {
        st = tile__error(TILE_ERR_VALUE, k->name, o->file, o->line,
                         "the tuner's .cutoff is %g: a config slower than that times the best so far is timed no further, so below 1 it could stop "
                         "the winner; give 1 or more (0: 1.25; negative: every config timed in full)",
                         t->cutoff);
        goto done;
    }
    for (int i = 0; i < n && st == TILE_OK; i++) {
        st = tile__config_launch(o, k, &cf[i], &base[i]);
        full[i] = base[i];
        if (st == TILE_OK) st = tile__finish_launch(t, k, o, args, &full[i]);
    }
    if (st != TILE_OK) goto done;
    tile__key_text(&what, s, k, keyv);
    if (n == 1) {
        *win = base[0];
        goto done;
    }

    /* the disk: the key holds every candidate with a hash of its IR (and
       so does the TILE_AOT tables', for the target) */
    if (aot) {
        tile__aot_tune_head(&akey, k);
        tile__sb(&akey, "key ");
        tile__key_text(&akey, s, k, keyv);
        tile__sb(&akey, "\n");
    }
    tile__sb(&key, "tile tune %d\nlib %s\n", (int)TILE__DISK_FORMAT, TILE_VERSION_STRING);
    tile__device_id(&key);
    tile__sb(&key, "kernel %s\nsignature ", k->name);
    tile__signature_text(&key, k);
    tile__sb(&key, "\nkey ");
    tile__key_text(&key, s, k, keyv);
    tile__sb(&key, "\n");
    /* a config that does not build is left out (ir=failed), quietly: only
       every config failing is an error, and then one (tile__tune_failed) */
    tile__err_mute++;
    for (int i = 0; i < n; i++) {
        tile__entry *e;
        tile_status cst = tile__get_entry_for(k, &full[i], args, &e);
        char *ir = cst == TILE_OK ? tile__print_func(&e->f) : NULL;
        failed[i] = cst != TILE_OK;
        if (cst != TILE_OK) tile__tune_failure(&first, firsterr, sizeof firsterr, cst);
        size_t at = key.n;
        tile__sb(&key, "config %d: ", i);
        tile__config_text(&key, &full[i]);
        if (ir) tile__sb(&key, " ir=%016llx\n", (unsigned long long)tile__fnv(TILE__FNV0, ir, strlen(ir)));
        else tile__sb(&key, " ir=failed\n");
        if (aot && !key.oom) tile__sb(&akey, "%s", key.s + at);
        TILE_FREE(ir);
    }
    tile__err_mute--;
    if (key.oom || what.oom || akey.oom) {
        st = tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
        goto done;
    }
    char path[TILE__PATH_MAX], *pay = NULL;
    size_t paylen = 0;
    int w = -1;
    if (tile__aot_linked()) {   /* >>aot: the tables first */
        if ((w = tile__aot_winner(k, o, akey.s, n, &st)) >= 0 && failed[w]) w = -1;
        if (st != TILE_OK) goto done;
        if (w >= 0) {
            *win = base[w];
            if (kn->verbose) {
                tile__sbuf c = {0};
                tile__config_text(&c, &base[w]);
                fprintf(stderr, "tile autotune: %s [%s]: best %s, from the TILE_AOT tables (nothing tuned)\n", k->name, what.s, c.s ? c.s : "");
                free(c.s);
            }
            goto done;
        }
    }
    if (w < 0 && tile__disk_read(TILE__DISK_TUNE, k->name, key.s, &pay, &paylen, path, sizeof path)) {
        if (sscanf(pay, "winner %d", &w) != 1 || w < 0 || w >= n || failed[w]) {
            tile__disk_reject(path, "no winner in range");
            w = -1;
        }
        free(pay);
    }
    if (w >= 0) {
        *win = base[w];
        tile__at_count(&tile__at_stats.tune_loads);
        if (tile__export_on()) tile__export_winner(k, akey.s, w);   /* >>aot */
        if (kn->verbose) {
            tile__sbuf c = {0};
            tile__config_text(&c, &base[w]);
            fprintf(stderr, "tile autotune: %s [%s]: best %s, from %s (nothing tuned)\n", k->name, what.s, c.s ? c.s : "", path);
            free(c.s);
        }
        goto done;
    }

    /* time every candidate */
    if (kn->verbose) fprintf(stderr, "tile autotune: %s [%s]: tuning %d configs\n", k->name, what.s, n);
    if (tile__gpu_mode()) tile__precompile(k, full, n, args);
    run.t = t;
    run.k = k;
    run.args = args;
    if ((st = tile__tune_save(&run, o)) != TILE_OK) {
        tile__tune_unsave(&run);
        goto done;
    }
    tile_bench_opts bo = t->bench;
    bo.setup = tile__tune_setup;
    bo.teardown = tile__tune_teardown;
    tile_stream gs = NULL;   /* .bench.cuda_graph: the stream the configs' runs are captured on */
    if (bo.cuda_graph) {
        const char *why = t->restore_value[0] ? "restore_value" : t->reset_to_zero[0] ? "reset_to_zero" : t->pre_hook ? "pre_hook" : t->post_hook ? "post_hook" : NULL;
        if (why) {
            tile__notice("%s:%d: the tuner of %s times without a CUDA graph (.bench.cuda_graph): its %s runs between timed runs, which a graph "
                         "cannot hold",
                         o->file ? o->file : "?", o->line, k->name, why);
            bo.cuda_graph = 0;
        } else if ((st = tile_stream_create(&gs)) != TILE_OK) {
            tile__tune_unsave(&run);
            goto done;
        } else {
            bo.setup = bo.teardown = NULL;
            bo.stream = gs;
        }
    }
    if (!bo.warmup && !bo.reps && !bo.warmup_ms && !bo.rep_ms) {
        /* tuning only ranks configs: shorter than do_bench's 25 + 100 ms */
        if (tile__gpu_mode()) bo.warmup_ms = 10, bo.rep_ms = 40;
        else bo.warmup = 1, bo.reps = 3;
    }
    int best = -1;
    double cutoff = t->cutoff == 0 ? 1.25 : t->cutoff;
    for (int i = 0; i < n; i++) {
        tile_bench_result r;
        tile_status cst = TILE_ERR_COMPILE;
        run.l = full[i];
        if (gs) run.l.stream = gs;
        if (!failed[i]) {
            tile_bench_opts bi = bo;
            if (cutoff > 0 && best >= 0 && !(bo.stop_above_ms > 0)) bi.stop_above_ms = cutoff * ms[best];   /* .bench's own, if set, stays */
            tile__err_mute++;   /* a config that fails is left out, quietly (as above) */
            cst = tile_do_bench(tile__tune_fn, &run, &bi, &r);
            tile__err_mute--;
            tile__at_count(&tile__at_stats.configs_timed);
            if (cst == TILE_OK && r.stopped) tile__at_count(&tile__at_stats.configs_stopped);
            if (cst != TILE_OK) tile__tune_failure(&first, firsterr, sizeof firsterr, cst);
        }
        ms[i] = cst == TILE_OK ? r.median_ms : INFINITY;
        if (cst == TILE_OK && !r.stopped && (best < 0 || ms[i] < ms[best])) best = i;
        if (kn->verbose) {
            tile__sbuf c = {0};
            tile__config_text(&c, &full[i]);
            if (cst == TILE_OK && r.stopped)
                fprintf(stderr, "tile autotune:   %-60s %10.4f ms (stopped after %d runs: all slower than %.4f ms)\n", c.s ? c.s : "", r.median_ms, r.reps,
                        bo.stop_above_ms > 0 ? bo.stop_above_ms : cutoff * ms[best]);
            else if (cst == TILE_OK)
                fprintf(stderr, "tile autotune:   %-60s %10.4f ms (p20 %.4f, p80 %.4f, %d runs)\n", c.s ? c.s : "", r.median_ms, r.p20_ms, r.p80_ms, r.reps);
            else
                fprintf(stderr, "tile autotune:   %-60s     failed: %s\n", c.s ? c.s : "", failed[i] ? "it does not build" : tile_last_error());
            free(c.s);
        }
        if (cst != TILE_OK) tile_clear_error();
    }
    if (gs) tile_stream_destroy(gs);
    st = tile__tune_unsave(&run);
    if (st == TILE_OK && best < 0) st = tile__tune_failed(k, o, full, n, first, firsterr);
    if (st != TILE_OK) goto done;
    *win = base[best];
    tile__at_count(&tile__at_stats.tunings);
    if (tile__export_on()) tile__export_winner(k, akey.s, best);   /* >>aot */
    {
        tile__sbuf p = {0};
        tile__sb(&p, "winner %d\n", best);
        for (int i = 0; i < n; i++) tile__sb(&p, "config %d %.6f ms\n", i, ms[i]);
        int stored = !p.oom && tile__disk_write(TILE__DISK_TUNE, k->name, key.s, p.s, p.n, path, sizeof path);
        if (stored) tile__at_count(&tile__at_stats.tune_stores);
        free(p.s);
        double secs = (tile__host_ms() - t0) / 1e3;
        if (kn->verbose || secs > 1.0) {
            tile__sbuf c = {0};
            tile__config_text(&c, &base[best]);
            fprintf(stderr, "tile autotune: %s [%s]: best %s: %.4f ms; tuned %d configs in %.2f s%s%s\n", k->name, what.s, c.s ? c.s : "", ms[best], n,
                    secs, stored && kn->verbose ? ", stored in " : "", stored && kn->verbose ? path : "");
            free(c.s);
        }
    }
done:
    free(cf);
    free(base);
    free(full);
    free(ms);
    free(est);
    free(failed);
    free(key.s);
    free(akey.s);
    free(what.s);
    return st;
}

/* The winner for these arguments, tuning first when the key is new. */
static tile_status tile__autotune_pick(tile_autotuner *t, tile_kernel *k, const tile_launch *o, const tile_arg *args, tile_launch *l) {
    if (t->nconfigs <= 0) {
        /* heuristics alone */
        *l = *o;
        l->tune = NULL;
        return tile__finish_launch(t, k, o, args, l);
    }
    if (!t->configs) return tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "the tuner has nconfigs = %d but no configs", t->nconfigs);
    tile__tune_state *s = NULL;
    int64_t key[TILE_AUTOTUNE_MAX_KEY];
    tile_status st = tile__tune_state_get(t, k, o, &s);
    if (st != TILE_OK) return st;
    uint64_t h = tile__tune_key(s, k, args, key);
    pthread_mutex_lock(&s->lock);
    tile__tune_slot *e = tile__tune_find(s, h, k, key);
    if (e) *l = e->win;
    pthread_mutex_unlock(&s->lock);
    if (!e && tile__graph_capturing(o->stream))   /* >>graph: tuning runs and times kernels */
        return tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line,
                           "the tuner has not tuned %s for these arguments, and its stream is being captured into a graph: launch it once "
                           "before tile_graph_begin",
                           k->name);
    if (!e) {
        /* one key tuned at a time; another thread may have tuned this one meanwhile */
        pthread_mutex_lock(&s->tuning);
        pthread_mutex_lock(&s->lock);
        e = tile__tune_find(s, h, k, key);
        if (e) *l = e->win;
        pthread_mutex_unlock(&s->lock);
        /* >>profile: the tuning's timed runs in a scope of their own */
        char scope[96];
        snprintf(scope, sizeof scope, "autotune %s", k->name ? k->name : "?");
        int prof = e ? 0 : tile__prof_push(scope, o->file, o->line);
        if (!e && (st = tile__tune(t, s, k, o, args, key, l)) == TILE_OK) {
            pthread_mutex_lock(&s->lock);
            st = tile__tune_insert(s, h, k, key, l);
            pthread_mutex_unlock(&s->lock);
        }
        tile__prof_pop(prof);
        pthread_mutex_unlock(&s->tuning);
        if (st != TILE_OK) return st;
    }
    /* this launch's own grid, stream, work and line */
    memcpy(l->grid, o->grid, sizeof l->grid);
    l->stream = o->stream;
    l->flops = o->flops;
    l->bytes = o->bytes;
    l->file = o->file;
    l->line = o->line;
    return tile__finish_launch(t, k, o, args, l);
}
/* The checks of both entry points: the kernel and its arguments as every
   launch's, then the tuner and the result. */
static tile_status tile__autotune_check(const char *call, const tile_autotuner *t, const tile_kernel *k, const tile_launch *o, const tile_arg *args,
                                        int has_out) {
    tile_status st = tile__check_kernel(call, k, o, args, 1, NULL, 0);
    if (st == TILE_OK && (!t || !has_out))
        st = tile__error(TILE_ERR_VALUE, k->name, o->file, o->line, "%s: the %s is NULL", call, !t ? "tuner" : "result pointer");
    return st;
}
tile_status tile_autotune_best(tile_autotuner *t, tile_kernel *k, const tile_launch *opts, const tile_arg *args, tile_launch *out) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    tile_status st = tile__autotune_check("tile_autotune_best", t, k, o, args, out != NULL);
    return st == TILE_OK ? tile__autotune_pick(t, k, o, args, out) : st;
}
tile_status tile_autotune_launch(tile_autotuner *t, tile_kernel *k, const tile_launch *opts, const tile_arg *args) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    tile_launch l;
    tile_status st = tile__autotune_check("tile_autotune_launch", t, k, o, args, 1);
    if (st == TILE_OK) st = tile__autotune_pick(t, k, o, args, &l);
    return st == TILE_OK ? tile_launch_kernel(k, &l, args) : st;
}

#endif /* TILE_IMPLEMENTATION */
