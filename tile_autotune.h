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
} tile_bench_opts;
typedef struct tile_bench_result {
    double median_ms, mean_ms, min_ms, max_ms, p20_ms, p80_ms;
    int reps, warmup;
} tile_bench_result;
#define TILE_BENCH_OPTS(...) (&(tile_bench_opts){__VA_ARGS__})   /* C only */
/* Time fn(user): one run to compile, three to estimate one run's time
   (skipped when both counts are given), warm-up, then the timed runs (each
   after setup and an L2 flush, between two events). NULL opts: defaults. */
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

/* ---- the disk cache ---------------------------------------------------------------- */
typedef struct tile_cache_stats {
    long compiles;           /* variants compiled in this process (once each, however
                                many threads need one at the same time)            */
    long kernel_loads;       /* variants loaded from the disk cache                */
    long kernel_stores;
    long tunings;            /* keys tuned (configs timed)                         */
    long tune_loads;         /* keys whose winner came from the disk cache         */
    long tune_stores;
    long configs_timed;
    long rejected;           /* cache files ignored: truncated, corrupt, foreign,
                                not a regular file, not this user's, writable by
                                others, or not for the kernel asked for            */
    long lowerings;          /* kernels lowered to CUDA C or LLVM IR: once per
                                variant compiled or loaded from the disk cache
                                (its key is what the lowering made), and once per
                                TILE_DUMP or tile_kernel_ptx                       */
} tile_cache_stats;
void tile_cache_stats_get(tile_cache_stats *out);
/* The cache directory in use, made and checked on the first call (""
   when the disk cache is off, or its directory was refused). */
const char *tile_cache_dir(void);

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
/* (TILE__O_NOFOLLOW, TILE__O_CLOEXEC and mkstemp: tile/runtime.h) */

/* ---- knobs and the cache directory, set up once ---------------------------------
   The directory is trusted only when this user owns it and nobody else may
   write in it: then nobody else can plant, replace or link a file there.
   Missing components are created 0700; a directory that fails the checks, or
   a path that does not fit, turns the disk cache off with one notice (kernels
   then compile and tune in every process, with the same results). */
#define TILE__CACHE_DIR_MAX 3072     /* bytes of the directory's path, with its NUL */
#define TILE__PATH_MAX 4096          /* bytes of a cache file's path, with its NUL  */
typedef struct tile__at_knobs {
    int verbose;                     /* TILE_AUTOTUNE_VERBOSE=1                    */
    int disk;                        /* the disk cache is on                       */
    char dir[TILE__CACHE_DIR_MAX];   /* TILE_CACHE_DIR, else the default           */
} tile__at_knobs;
static tile__at_knobs tile__at_kn;
static pthread_once_t tile__at_kn_once = PTHREAD_ONCE_INIT;
/* mkdir -p, each missing component 0700; 0 on failure (errno says why) */
static int tile__disk_mkdirs(const char *dir) {
    char p[TILE__CACHE_DIR_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/' && s[-1] != '/') {
            *s = 0;
            if (mkdir(p, 0700) != 0 && errno != EEXIST) return 0;
            *s = '/';
        }
    return mkdir(p, 0700) == 0 || errno == EEXIST;
}
/* Why `dir` cannot hold the cache (NULL: it can), creating it if missing. */
static const char *tile__disk_dir_check(const char *dir, char *why, size_t n) {
    struct stat sb;
    if (!tile__disk_mkdirs(dir) || stat(dir, &sb) != 0) snprintf(why, n, "cannot be created: %s", strerror(errno));
    else if (!S_ISDIR(sb.st_mode)) snprintf(why, n, "is not a directory");
    else if (sb.st_uid != geteuid()) snprintf(why, n, "is owned by uid %ld, not by this user (uid %ld)", (long)sb.st_uid, (long)geteuid());
    else if (sb.st_mode & (S_IWGRP | S_IWOTH)) snprintf(why, n, "is writable by others (mode %04o)", (unsigned)(sb.st_mode & 07777));
    else return NULL;
    return why;
}
static void tile__at_read_knobs(void) {
    const tile__knob_values *kv = tile__knob_values_get();
    const char *dir = kv->cache_dir, *xdg = kv->xdg_cache_home, *home = kv->home;
    const char *knob = "TILE_CACHE_DIR";
    int k = -1;
    tile__at_kn.verbose = kv->autotune_verbose;
    tile__at_kn.disk = kv->cache;
    if (dir && *dir) k = snprintf(tile__at_kn.dir, sizeof tile__at_kn.dir, "%s", dir);
    else if (xdg && *xdg) k = snprintf(tile__at_kn.dir, sizeof tile__at_kn.dir, "%s/tile", xdg), knob = "XDG_CACHE_HOME";
    else if (home && *home) k = snprintf(tile__at_kn.dir, sizeof tile__at_kn.dir, "%s/.cache/tile", home), knob = "HOME";
    else tile__at_kn.disk = 0;
    if (tile__at_kn.disk && (k < 0 || (size_t)k >= sizeof tile__at_kn.dir)) {
        tile__notice("cache: the directory from %s is %d characters long (at most %d): the disk cache is off", knob, k,
                     (int)sizeof tile__at_kn.dir - 1);
        tile__at_kn.disk = 0;
    }
    char why[160];
    if (tile__at_kn.disk && tile__disk_dir_check(tile__at_kn.dir, why, sizeof why)) {
        tile__notice("cache: %s %s: the disk cache is off", tile__at_kn.dir, why);
        tile__at_kn.disk = 0;
    }
    if (!tile__at_kn.disk) tile__at_kn.dir[0] = 0;
}
static const tile__at_knobs *tile__at_knobs_get(void) {
    pthread_once(&tile__at_kn_once, tile__at_read_knobs);
    return &tile__at_kn;
}
const char *tile_cache_dir(void) { return tile__at_knobs_get()->dir; }

static tile_cache_stats tile__at_stats;
static pthread_mutex_t tile__at_stats_lock = PTHREAD_MUTEX_INITIALIZER;
static void tile__at_count(long *field) {
    pthread_mutex_lock(&tile__at_stats_lock);
    (*field)++;
    pthread_mutex_unlock(&tile__at_stats_lock);
}
void tile_cache_stats_get(tile_cache_stats *out) {
    if (!out) return;
    pthread_mutex_lock(&tile__at_stats_lock);
    *out = tile__at_stats;
    pthread_mutex_unlock(&tile__at_stats_lock);
    out->lowerings = tile__lowered_count();
}

/* ---- hashing: FNV-1a, 64 bits ----------------------------------------------------- */
static uint64_t tile__fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define TILE__FNV0 0xcbf29ce484222325ull

/* A growable text for keys. */
typedef struct tile__sbuf { char *s; size_t n, cap; int oom; } tile__sbuf;
TILE__PRINTF(2, 3) static void tile__sb(tile__sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0 || b->oom) return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *s = (char *)realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* ---- the file format ------------------------------------------------------------------
   header (48 bytes, host byte order) | key text | payload. The checksum
   covers the key and the payload; the lengths must add up to the file's
   size exactly. Format 2: kernel entries say what they hold (name,
   signature, num_warps, num_stages) and both keys name the signature. */
#define TILE__DISK_FORMAT 3u
enum { TILE__DISK_KERNEL = 1, TILE__DISK_TUNE = 2 };
typedef struct tile__disk_header {
    char magic[8];           /* "TILECACH"                                       */
    uint32_t format;         /* TILE__DISK_FORMAT                                 */
    uint32_t kind;           /* TILE__DISK_KERNEL or TILE__DISK_TUNE              */
    uint64_t keylen, paylen;
    uint64_t keyhash;        /* of the key text: also in the file's name          */
    uint64_t checksum;
} tile__disk_header;

/* 0 (and a notice) when the path does not fit: never a shortened name */
static int tile__disk_path(char *path, size_t n, const char *name, uint64_t h, int kind) {
    int k = snprintf(path, n, "%s/%s-%016llx.%s", tile__at_knobs_get()->dir, name, (unsigned long long)h,
                     kind == TILE__DISK_KERNEL ? "kernel" : "tune");
    if (k > 0 && (size_t)k < n) return 1;
    tile__notice("cache: the file name for %.64s%s in %.200s%s would be %d characters long (at most %d): not cached", name,
                 strlen(name) > 64 ? "..." : "", tile__at_knobs_get()->dir, strlen(tile__at_knobs_get()->dir) > 200 ? "..." : "", k,
                 (int)n - 1);
    return 0;
}
/* A file the disk layer will not use: counted, and one notice. The caller
   goes on as if there were no file, so the normal store replaces it. */
static void tile__disk_reject(const char *path, const char *why) {
    tile__at_count(&tile__at_stats.rejected);
    tile__notice("cache: ignoring %s: %s", path, why);
}
/* A failed store: the first of a process is a notice, the rest only with
   TILE_AUTOTUNE_VERBOSE (a read-only cache would say it at every store). */
static void tile__disk_store_failed(const char *path, const char *what, int err) {
    static int told;
    pthread_mutex_lock(&tile__at_stats_lock);
    int first = !told;
    told = 1;
    pthread_mutex_unlock(&tile__at_stats_lock);
    if (first) tile__notice("cache: cannot %s %s: %s (later failures to store are not reported)", what, path, strerror(err));
    else if (tile__at_knobs_get()->verbose) fprintf(stderr, "tile cache: cannot %s %s: %s\n", what, path, strerror(err));
}
/* Open a cache file to read, or say why it must not be read: no links
   followed, no blocking on a FIFO, regular files of this user that nobody
   else may write. -1 with *why NULL: there is no file. */
static int tile__disk_open(const char *path, size_t *size, const char **why, char *buf, size_t n) {
    struct stat sb;
    *why = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | TILE__O_NOFOLLOW | TILE__O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP || errno == EMLINK) *why = "a symbolic link";
        else if (errno != ENOENT) snprintf(buf, n, "cannot open: %s", strerror(errno)), *why = buf;
        return -1;
    }
    if (!TILE__O_CLOEXEC) fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (fstat(fd, &sb) != 0) snprintf(buf, n, "cannot stat: %s", strerror(errno)), *why = buf;
    else if (S_ISFIFO(sb.st_mode)) *why = "a FIFO, not a regular file";
    else if (S_ISDIR(sb.st_mode)) *why = "a directory, not a regular file";
    else if (!S_ISREG(sb.st_mode)) *why = "a device or socket, not a regular file";
    else if (sb.st_uid != geteuid()) snprintf(buf, n, "owned by uid %ld, not by this user (uid %ld)", (long)sb.st_uid, (long)geteuid()), *why = buf;
    else if (sb.st_mode & (S_IWGRP | S_IWOTH)) snprintf(buf, n, "writable by others (mode %04o)", (unsigned)(sb.st_mode & 07777)), *why = buf;
    else if (sb.st_size < (off_t)sizeof(tile__disk_header) || sb.st_size > ((off_t)1 << 30)) *why = "too short or too long to be a cache file";
    if (*why) {
        close(fd);
        return -1;
    }
    *size = (size_t)sb.st_size;
    return fd;
}
/* Read the payload stored under `key` (malloc'd, NUL-terminated after its
   length); 0 when there is none or the file is not a good one. */
static int tile__disk_read(int kind, const char *name, const char *key, char **payload, size_t *paylen, char *path, size_t pathn) {
    *payload = NULL;
    *paylen = 0;
    if (!tile__at_knobs_get()->disk) return 0;
    size_t keylen = strlen(key);
    uint64_t h = tile__fnv(TILE__FNV0, key, keylen);
    if (!tile__disk_path(path, pathn, name, h, kind)) return 0;
    char whybuf[160], *buf = NULL;
    const char *why = NULL;
    size_t want = 0;
    int fd = tile__disk_open(path, &want, &why, whybuf, sizeof whybuf);
    if (fd < 0) {
        if (why) tile__disk_reject(path, why);
        return 0;
    }
    if (!(buf = (char *)malloc(want + 1))) why = "out of host memory";
    else {
        size_t got = 0;
        while (got < want) {
            ssize_t r = read(fd, buf + got, want - got);
            if (r <= 0) break;
            got += (size_t)r;
        }
        tile__disk_header hd;
        memcpy(&hd, buf, sizeof hd);
        if (got != want) why = "short read";
        else if (memcmp(hd.magic, "TILECACH", 8) != 0) why = "not a tile cache file (bad magic)";
        else if (hd.format != TILE__DISK_FORMAT || hd.kind != (uint32_t)kind) why = "another format or kind";
        else if (hd.keylen != keylen || hd.paylen != want - sizeof hd - keylen) why = "truncated (lengths do not add up)";
        else if (hd.keyhash != h || memcmp(buf + sizeof hd, key, keylen) != 0) why = "written for another key";
        else if (tile__fnv(TILE__FNV0, buf + sizeof hd, keylen + hd.paylen) != hd.checksum) why = "corrupt (bad checksum)";
        else {
            size_t n = (size_t)hd.paylen;
            memmove(buf, buf + sizeof hd + keylen, n);
            buf[n] = 0;
            *payload = buf;
            *paylen = n;
        }
    }
    close(fd);
    if (why) {
        free(buf);
        tile__disk_reject(path, why);
        return 0;
    }
    return 1;
}
/* Write atomically: a new file of a unique name (mkstemp, 0600) in the
   cache directory, renamed over the name, which replaces whatever was there
   (a bad file, a FIFO, a link: the link itself, never its target). */
/* The header of an entry holding `payload` under `key`. */
static tile__disk_header tile__disk_header_of(int kind, const char *key, const void *payload, size_t paylen) {
    tile__disk_header hd;
    size_t keylen = strlen(key);
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, "TILECACH", 8);
    hd.format = TILE__DISK_FORMAT;
    hd.kind = (uint32_t)kind;
    hd.keylen = keylen;
    hd.paylen = paylen;
    hd.keyhash = tile__fnv(TILE__FNV0, key, keylen);
    hd.checksum = tile__fnv(tile__fnv(TILE__FNV0, key, keylen), payload, paylen);
    return hd;
}
static int tile__disk_write(int kind, const char *name, const char *key, const void *payload, size_t paylen, char *path, size_t pathn) {
    const tile__at_knobs *kn = tile__at_knobs_get();
    if (!kn->disk) return 0;
    size_t keylen = strlen(key);
    tile__disk_header hd = tile__disk_header_of(kind, key, payload, paylen);
    if (!tile__disk_path(path, pathn, name, hd.keyhash, kind)) return 0;
    char tmp[TILE__PATH_MAX + 16];
    int k = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = k > 0 && (size_t)k < sizeof tmp ? mkstemp(tmp) : -1;
    if (fd < 0) {
        tile__disk_store_failed(path, "create a temporary file for", k > 0 && (size_t)k < sizeof tmp ? errno : ENAMETOOLONG);
        return 0;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    const void *parts[3] = {&hd, key, payload};
    size_t lens[3] = {sizeof hd, keylen, paylen};
    int ok = 1, err = 0;
    for (int i = 0; i < 3 && ok; i++) {
        size_t done = 0;
        while (done < lens[i]) {
            ssize_t w = write(fd, (const char *)parts[i] + done, lens[i] - done);
            if (w <= 0) {
                err = w < 0 ? errno : ENOSPC;
                ok = 0;
                break;
            }
            done += (size_t)w;
        }
    }
    if (close(fd) != 0 && ok) ok = 0, err = errno;
    if (ok && rename(tmp, path) != 0) ok = 0, err = errno;
    if (!ok) {
        tile__disk_store_failed(path, "write", err);
        unlink(tmp);
    }
    return ok;
}

/* The device results are for: the interpreter, or the GPU's name, target,
   driver and the back end, and how tl_dot may use wgmma (TILE_WGMMA). */
static void tile__device_id(tile__sbuf *b) {
    if (!tile__gpu_mode()) {
        tile__sb(b, "device interp\n");
        return;
    }
    char arch[32] = "";
    tile__cu_arch(arch, sizeof arch);
    tile__sb(b, "device %s %s driver %d backend %s wgmma %d\n", tile__cu_st.props.name, arch, tile__cu_st.props.driver_version, tile_backend_name(),
             tile__hopper(arch));
}

/* ---- the compiled-kernel cache (called by runtime.h's tile__get_variant) ---------------
   The key is everything the machine code depends on: the printed IR, the
   CUDA C source it lowers to (so a change to the lowering invalidates it
   even when the version number stays), the kernel's signature, num_warps,
   num_stages, the specialization, the target, the compiler, NVRTC's and the
   driver's versions, the GPU, the library version.
   The payload says what it holds (the kernel's name and signature,
   num_warps, num_stages, shared memory) and every field is checked against
   the variant asked for before the code is used: a checksum proves only
   that a file is whole, not that it is the right one. Then come the PTX
   and, where the driver can link, the cubin the driver made from it;
   loading the cubin skips the JIT. Without a GPU a variant is its PTX only
   (what tests compile and cache with no device). */
typedef struct tile__kdisk_payload {   /* its tile__kernel_meta, and what it is for */
    uint64_t smem;               /* dynamic shared memory bytes                   */
    uint32_t has_assert, num_warps, num_stages;
    uint32_t nthreads, cluster[3], maxnreg;
    uint32_t namelen, siglen, pad;
    uint64_t ptxlen, cubinlen;   /* the PTX with its NUL; 0: no cubin             */
} tile__kdisk_payload;           /* then the name, the signature, PTX, cubin      */
/* No GPU gives a block more; an entry asking for more is corrupt or forged. */
#define TILE__SMEM_SANE ((uint64_t)1 << 20)

/* "x *f32, y *f32, n i32": the kernel's parameters as the launcher passes them */
static void tile__signature_text(tile__sbuf *b, const tile_kernel *k) {
    tile__sb(b, "%s", "");   /* a text even without parameters */
    for (int p = 0; p < k->nparams; p++) {
        const tile_param *q = &k->params[p];
        if (q->dtype == TL_PTR) tile__sb(b, "%s%s *%s", p ? ", " : "", q->name, tile_dtype_name(q->elem));
        else tile__sb(b, "%s%s %s", p ? ", " : "", q->name, tile_dtype_name(q->dtype));
    }
}
/* The most dynamic shared memory an entry may ask for here. */
static uint64_t tile__kdisk_smem_limit(void) {
    if (tile__gpu_mode() && tile__cu_st.props.smem_per_block_optin > 0) return (uint64_t)tile__cu_st.props.smem_per_block_optin;
    return TILE__SMEM_SANE;
}
/* The compiler that makes the PTX: the registered back end, else NVRTC. */
static const char *tile__kdisk_compiler(void) { return tile__ext_mode() ? tile__ext->name : "nvrtc"; }

/* The key of one variant, computed once per compile: the library, the
   device and its driver, the kernel's signature, the whole configuration,
   and what emit built: the back end's key (its first line names the
   compiler and its version, verbatim; the code after it, hashed). */
static char *tile__kdisk_key(const tile_kernel *k, const tile__config *cfg, const char *emitted) {
    tile__sbuf b = {0};
    size_t head = strcspn(emitted, "\n"), rest = strlen(emitted) - head;
    tile__sb(&b, "tile kernel %d\nlib %s\n", (int)TILE__DISK_FORMAT, TILE_VERSION_STRING);
    tile__device_id(&b);
    tile__sb(&b, "compiler %s\nkernel %s\nsignature ", tile__kdisk_compiler(), k->name);
    tile__signature_text(&b, k);
    tile__sb(&b, "\nconfig %s num_warps %d num_stages %d hopper %d spec16 %016llx spec1 %016llx\n", cfg->arch, cfg->num_warps, cfg->num_stages,
             cfg->hopper, (unsigned long long)cfg->spec16, (unsigned long long)cfg->spec1);
    tile__sb(&b, "%.*s\ncode %016llx %zu\n", (int)(head < 400 ? head : 400), emitted,
             (unsigned long long)tile__fnv(TILE__FNV0, emitted + head, rest), rest);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* Does the PTX define the entry `name` (".entry name(")? */
static int tile__ptx_has_entry(const char *ptx, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 1, ".entry")) {
        const char *q = p + 6;
        if (*q != ' ' && *q != '\t') continue;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, name, n) == 0 && (q[n] == '(' || q[n] == ' ' || q[n] == '\t' || q[n] == '\n')) return 1;
    }
    return 0;
}
/* Check a kernel entry's payload against the variant asked for; 1 and the
   parts when it is one, else 0 and why. */
static int tile__kdisk_check(const char *pay, size_t n, const tile_kernel *k, int nw, int ns, tile__kdisk_payload *p, const char **ptx,
                             const char **cubin, char *why, size_t whyn) {
    tile__sbuf sig = {0};
    int ok = 0;
    if (n < sizeof *p) {
        snprintf(why, whyn, "a kernel entry shorter than its header");
        return 0;
    }
    memcpy(p, pay, sizeof *p);
    size_t rest = n - sizeof *p;
    if (p->namelen > rest || p->siglen > rest - p->namelen || p->ptxlen > rest - p->namelen - p->siglen ||
        p->cubinlen != rest - p->namelen - p->siglen - p->ptxlen) {
        snprintf(why, whyn, "payload lengths do not add up");
        return 0;
    }
    const char *name = pay + sizeof *p, *sg = name + p->namelen;
    tile__signature_text(&sig, k);
    if (p->namelen != strlen(k->name) || memcmp(name, k->name, p->namelen) != 0)
        snprintf(why, whyn, "compiled for kernel \"%.*s\", not %s", p->namelen > 64 ? 64 : (int)p->namelen, name, k->name);
    else if (sig.oom || p->siglen != sig.n || memcmp(sg, sig.s, sig.n) != 0)
        snprintf(why, whyn, "compiled for another signature than (%s)", sig.s ? sig.s : "");
    else if (p->num_warps != (uint32_t)nw || p->num_stages != (uint32_t)ns)
        snprintf(why, whyn, "compiled for num_warps %u, num_stages %u (asked: %d, %d)", p->num_warps, p->num_stages, nw, ns);
    else if (p->nthreads == 0 || p->nthreads > 1024 || p->nthreads % 32 || p->cluster[0] == 0 || p->cluster[1] == 0 || p->cluster[2] == 0 ||
             (uint64_t)p->cluster[0] * p->cluster[1] * p->cluster[2] > 16 || p->maxnreg > 255)
        snprintf(why, whyn, "a bad launch record (%u threads, cluster %u x %u x %u, %u registers)", p->nthreads, p->cluster[0], p->cluster[1],
                 p->cluster[2], p->maxnreg);
    else if (p->smem > tile__kdisk_smem_limit())
        snprintf(why, whyn, "asks for %llu bytes of shared memory (at most %llu here)", (unsigned long long)p->smem,
                 (unsigned long long)tile__kdisk_smem_limit());
    else if (p->has_assert > (TILE__HAS_USER_CHECK | TILE__HAS_LIB_CHECK)) snprintf(why, whyn, "a bad has_assert flag (%u)", p->has_assert);
    else if (p->ptxlen == 0 || sg[p->siglen + p->ptxlen - 1] != 0 || strlen(sg + p->siglen) != p->ptxlen - 1)
        snprintf(why, whyn, "the PTX is not one NUL-terminated text");
    else if (!tile__ptx_has_entry(sg + p->siglen, k->name)) snprintf(why, whyn, "the PTX has no .entry %s", k->name);
    else {
        *ptx = sg + p->siglen;
        *cubin = p->cubinlen ? *ptx + p->ptxlen : NULL;
        ok = 1;
    }
    free(sig.s);
    return ok;
}

/* Look the variant up on disk; 1 when found and checked, with v's module,
   function, shared memory and assert flag set (without a GPU: v->ptx). */
static int tile__kdisk_load(const tile_kernel *k, const tile__config *cfg, const char *key, tile__variant *v) {
    if (!tile__at_knobs_get()->disk) return 0;
    char *pay = NULL, path[TILE__PATH_MAX], why[256];
    const char *ptx = NULL, *cubin = NULL;
    int nw = cfg->num_warps, ns = cfg->num_stages;
    size_t n = 0;
    int ok = tile__disk_read(TILE__DISK_KERNEL, k->name, key, &pay, &n, path, sizeof path);
    if (!ok) return 0;
    tile__kdisk_payload p;
    ok = tile__kdisk_check(pay, n, k, nw, ns, &p, &ptx, &cubin, why, sizeof why);
    if (!ok) tile__disk_reject(path, why);
    if (ok && tile__gpu_mode()) {
        char log[1024];
        if (tile__cu_load(cubin ? cubin : ptx, &v->mod, &v->fn, k->name, log, sizeof log) != TILE_OK) {
            snprintf(why, sizeof why, "the driver cannot load it: %.200s", tile_last_error());
            tile_clear_error();
            tile__disk_reject(path, why);
            ok = 0;
        }
    } else if (ok) {
        if ((v->ptx = (char *)malloc(p.ptxlen))) memcpy(v->ptx, ptx, p.ptxlen);
        ok = v->ptx != NULL;
    }
    if (ok) {
        v->meta.nthreads = (int)p.nthreads;
        v->meta.smem = (size_t)p.smem;
        v->meta.has_assert = (int)p.has_assert;
        v->meta.cluster[0] = (int)p.cluster[0];
        v->meta.cluster[1] = (int)p.cluster[1];
        v->meta.cluster[2] = (int)p.cluster[2];
        v->meta.maxnreg = (int)p.maxnreg;
        tile__at_count(&tile__at_stats.kernel_loads);
        if (tile__at_knobs_get()->verbose)
            fprintf(stderr, "tile cache: %s (num_warps %d): loaded %s from %s\n", k->name, nw, cubin && tile__gpu_mode() ? "cubin" : "PTX", path);
    }
    free(pay);
    return ok;
}

/* The driver's linker, looked up on its own so that an old driver without
   it only loses the cubin. */
typedef struct tile__culink_st *tile__culink;
static struct {
    pthread_once_t once;
    int ok;
    CUresult (*create)(unsigned nopt, CUjit_option *opts, void **vals, tile__culink *state);
    CUresult (*add_data)(tile__culink state, int type, void *data, size_t size, const char *name, unsigned nopt, CUjit_option *opts,
                         void **vals);
    CUresult (*complete)(tile__culink state, void **cubin, size_t *size);
    CUresult (*destroy)(tile__culink state);
} tile__culink_api = {PTHREAD_ONCE_INIT, 0, NULL, NULL, NULL, NULL};
static void tile__culink_open(void) {
    char why[256];
    void *lib = tile__cu_st.lib;
    tile__culink_api.ok = lib && tile__dlsym_into(lib, "cuLinkCreate_v2", (void *)&tile__culink_api.create, sizeof tile__culink_api.create, "libcuda", why, sizeof why) &&
                          tile__dlsym_into(lib, "cuLinkAddData_v2", (void *)&tile__culink_api.add_data, sizeof tile__culink_api.add_data, "libcuda", why, sizeof why) &&
                          tile__dlsym_into(lib, "cuLinkComplete", (void *)&tile__culink_api.complete, sizeof tile__culink_api.complete, "libcuda", why, sizeof why) &&
                          tile__dlsym_into(lib, "cuLinkDestroy", (void *)&tile__culink_api.destroy, sizeof tile__culink_api.destroy, "libcuda", why, sizeof why);
}
/* PTX -> cubin by the driver's JIT (malloc'd); NULL when it cannot. */
static void *tile__cu_ptx_to_cubin(const char *ptx, size_t *size) {
    enum { CU_JIT_INPUT_PTX_ = 1 };
    *size = 0;
    if (tile__cu_enter(NULL, 0) != TILE_OK) {
        tile_clear_error();
        return NULL;
    }
    pthread_once(&tile__culink_api.once, tile__culink_open);
    if (!tile__culink_api.ok) return NULL;
    tile__culink st = NULL;
    void *out = NULL, *cubin = NULL;
    size_t n = 0;
    if (tile__culink_api.create(0, NULL, NULL, &st) != CUDA_SUCCESS) return NULL;
    if (tile__culink_api.add_data(st, CU_JIT_INPUT_PTX_, (void *)(uintptr_t)ptx, strlen(ptx) + 1, "tile.ptx", 0, NULL, NULL) == CUDA_SUCCESS &&
        tile__culink_api.complete(st, &cubin, &n) == CUDA_SUCCESS && cubin && n && (out = malloc(n))) {
        memcpy(out, cubin, n);
        *size = n;
    }
    tile__culink_api.destroy(st);
    return out;
}

/* A variant was just compiled to `ptx`: load it (from the driver's cubin
   where possible) and store both on disk; without a GPU keep its PTX and
   store that. Without the disk cache this is tile__cu_load. An entry that
   could never be loaded (shared memory beyond the limit) is not stored. */
static tile_status tile__kdisk_load_store(const tile_kernel *k, const tile__config *cfg, const char *key, const char *ptx, tile__variant *v, char *log,
                                          size_t logn) {
    const char *kname = k->name;
    int nw = cfg->num_warps, ns = cfg->num_stages;
    int gpu = tile__gpu_mode();
    tile__at_count(&tile__at_stats.compiles);
    if (!gpu) {
        size_t len = strlen(ptx) + 1;
        if (!(v->ptx = (char *)malloc(len))) return tile__error(TILE_ERR_NOMEM, kname, NULL, 0, "out of host memory");
        memcpy(v->ptx, ptx, len);
    }
    if (!tile__at_knobs_get()->disk || !key) return gpu ? tile__cu_load(ptx, &v->mod, &v->fn, kname, log, logn) : TILE_OK;
    size_t cubinlen = 0;
    void *cubin = gpu ? tile__cu_ptx_to_cubin(ptx, &cubinlen) : NULL;
    tile_status st = gpu ? TILE_ERR_INTERNAL : TILE_OK;
    if (cubin) {
        st = tile__cu_load((const char *)cubin, &v->mod, &v->fn, kname, log, logn);
        if (st != TILE_OK) tile_clear_error();
    }
    if (st != TILE_OK) {
        free(cubin);
        cubin = NULL;
        cubinlen = 0;
        if ((st = tile__cu_load(ptx, &v->mod, &v->fn, kname, log, logn)) != TILE_OK) return st;
    }
    if ((uint64_t)v->meta.smem > tile__kdisk_smem_limit()) {
        if (tile__at_knobs_get()->verbose)
            fprintf(stderr, "tile cache: %s (num_warps %d): not stored: %zu bytes of shared memory is more than a block may have\n", kname, nw,
                    v->meta.smem);
        free(cubin);
        return TILE_OK;
    }
    tile__sbuf sig = {0};
    tile__signature_text(&sig, k);
    tile__kdisk_payload p;
    memset(&p, 0, sizeof p);
    p.smem = v->meta.smem;
    p.has_assert = (uint32_t)(v->meta.has_assert & (TILE__HAS_USER_CHECK | TILE__HAS_LIB_CHECK));   /* which checks: TILE__HAS_*_CHECK */
    p.nthreads = (uint32_t)v->meta.nthreads;
    p.cluster[0] = (uint32_t)v->meta.cluster[0];
    p.cluster[1] = (uint32_t)v->meta.cluster[1];
    p.cluster[2] = (uint32_t)v->meta.cluster[2];
    p.maxnreg = (uint32_t)v->meta.maxnreg;
    p.num_warps = (uint32_t)nw;
    p.num_stages = (uint32_t)ns;
    p.namelen = (uint32_t)strlen(kname);
    p.siglen = (uint32_t)sig.n;
    p.ptxlen = strlen(ptx) + 1;
    p.cubinlen = cubinlen;
    size_t total = sizeof p + p.namelen + p.siglen + p.ptxlen + cubinlen;
    char *pay = !sig.oom ? (char *)malloc(total) : NULL;
    if (pay) {
        char path[TILE__PATH_MAX], *at = pay;
        memcpy(at, &p, sizeof p), at += sizeof p;
        memcpy(at, kname, p.namelen), at += p.namelen;
        memcpy(at, sig.s ? sig.s : "", p.siglen), at += p.siglen;
        memcpy(at, ptx, p.ptxlen), at += p.ptxlen;
        if (cubinlen) memcpy(at, cubin, cubinlen);
        if (tile__disk_write(TILE__DISK_KERNEL, kname, key, pay, total, path, sizeof path)) {
            tile__at_count(&tile__at_stats.kernel_stores);
            if (tile__at_knobs_get()->verbose)
                fprintf(stderr, "tile cache: %s (num_warps %d): compiled, stored PTX%s in %s\n", kname, nw, cubinlen ? " and cubin" : "", path);
        }
    }
    free(pay);
    free(sig.s);
    free(cubin);
    return TILE_OK;
}

/* ---- benchmarking -------------------------------------------------------------------- */
static void *tile__flush_buf;
static size_t tile__flush_len;
static pthread_mutex_t tile__flush_lock = PTHREAD_MUTEX_INITIALIZER;

/* Write a buffer larger than L2, so that the next run finds none of its data there. */
static tile_status tile__flush_l2(size_t bytes) {
    if (!bytes) bytes = tile__gpu_mode() && tile__cu_st.props.l2_bytes > 0 ? 2 * (size_t)tile__cu_st.props.l2_bytes
                        : tile__gpu_mode()                                  ? (size_t)256 << 20
                                                                            : (size_t)4 << 20;
    pthread_mutex_lock(&tile__flush_lock);
    if (tile__flush_len < bytes) {
        tile_free(tile__flush_buf);
        tile__flush_len = 0;
        if ((tile__flush_buf = tile_malloc(bytes))) tile__flush_len = bytes;
    }
    void *p = tile__flush_buf;
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
tile_status tile_do_bench(tile_bench_fn fn, void *user, const tile_bench_opts *opts, tile_bench_result *out) {
    static const tile_bench_opts none;
    const tile_bench_opts *o = opts ? opts : &none;
    enum { MAX_REPS = 10000, NEST = 3 };
    if (!fn || !out) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_do_bench: the %s is NULL", !fn ? "function" : "result pointer");
    memset(out, 0, sizeof *out);
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
    for (int i = 0; i < nest && st == TILE_OK; i++) {
        float t = 0;
        st = tile_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &t);
        kernel += t / nest;
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
    for (int i = 0; i < reps && st == TILE_OK; i++) st = tile__bench_run(fn, user, o, evs[2 * i], evs[2 * i + 1]);
    if (st == TILE_OK) st = tile_event_synchronize(evs[2 * reps - 1]);
    for (int i = 0; i < reps && st == TILE_OK; i++) st = tile_event_elapsed_ms(evs[2 * i], evs[2 * i + 1], &ms[i]);
    if (st == TILE_OK) {
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
    } else
        tile_synchronize();
    for (int i = 0; i < 2 * NEST; i++) tile_event_destroy(ev[i]);
    for (int i = 0; evs && i < 2 * reps; i++) tile_event_destroy(evs[i]);
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
    int64_t key[TILE_AUTOTUNE_MAX_KEY];
    tile_launch win;
} tile__tune_slot;
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
/* The key's values: integers and floats by value, pointers by alignment to 16. */
static uint64_t tile__tune_key(const tile__tune_state *s, const tile_kernel *k, const tile_arg *args, int64_t *key) {
    uint64_t h = tile__fnv(TILE__FNV0, &k, sizeof k);
    for (int i = 0; i < s->nkey; i++) {
        int p = s->key_idx[i];
        tl_dtype t = k->params[p].dtype;
        if (t == TL_PTR) key[i] = (uintptr_t)args[p].p % 16 == 0;
        else if (t == TL_F32 || t == TL_F64) memcpy(&key[i], &args[p].f, sizeof key[i]);
        else key[i] = args[p].i;
        h = tile__fnv(h, &key[i], sizeof key[i]);
    }
    return h ? h : 1;
}
static tile__tune_slot *tile__tune_find(tile__tune_state *s, uint64_t h, const tile_kernel *k, const int64_t *key) {
    if (!s->cap) return NULL;
    for (int i = (int)(h & (uint64_t)(s->cap - 1));; i = (i + 1) & (s->cap - 1)) {
        tile__tune_slot *e = &s->slots[i];
        if (!e->h) return NULL;
        if (e->h == h && e->k == k && memcmp(e->key, key, sizeof(int64_t) * (size_t)s->nkey) == 0) return e;
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
        if (p->dtype == TL_PTR) tile__sb(b, "%s%s.aligned16=%lld", i ? " " : "", p->name, (long long)key[i]);
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
    tile__config cfg;
} tile__precompile_job;
static void *tile__precompile_one(void *p) {
    const tile__precompile_job *j = (const tile__precompile_job *)p;
    tile__entry *e;
    tile__variant *v;
    tile__err_mute++;
    if (tile__get_entry(j->k, j->l, &e) == TILE_OK) tile__get_variant(e, j->k, j->l, &j->cfg, &v);
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
            if (tile__config_resolve(k, jobs[i].l, args, NULL, &jobs[i].cfg) != TILE_OK) {
                tile_clear_error();
                started[i] = 0;
                continue;
            }
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
    tile__sbuf key = {0}, what = {0};
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

    /* the disk: the key holds every candidate with a hash of its IR */
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
        tile_status cst = tile__get_entry(k, &full[i], &e);
        char *ir = cst == TILE_OK ? tile__print_func(&e->f) : NULL;
        failed[i] = cst != TILE_OK;
        if (cst != TILE_OK) tile__tune_failure(&first, firsterr, sizeof firsterr, cst);
        tile__sb(&key, "config %d: ", i);
        tile__config_text(&key, &full[i]);
        if (ir) tile__sb(&key, " ir=%016llx\n", (unsigned long long)tile__fnv(TILE__FNV0, ir, strlen(ir)));
        else tile__sb(&key, " ir=failed\n");
        TILE_FREE(ir);
    }
    tile__err_mute--;
    if (key.oom || what.oom) {
        st = tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
        goto done;
    }
    char path[TILE__PATH_MAX], *pay = NULL;
    size_t paylen = 0;
    int w = -1;
    if (tile__disk_read(TILE__DISK_TUNE, k->name, key.s, &pay, &paylen, path, sizeof path)) {
        if (sscanf(pay, "winner %d", &w) != 1 || w < 0 || w >= n || failed[w]) {
            tile__disk_reject(path, "no winner in range");
            w = -1;
        }
        free(pay);
    }
    if (w >= 0) {
        *win = base[w];
        tile__at_count(&tile__at_stats.tune_loads);
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
    if (!bo.warmup && !bo.reps && !bo.warmup_ms && !bo.rep_ms) {
        /* tuning only ranks configs: shorter than do_bench's 25 + 100 ms */
        if (tile__gpu_mode()) bo.warmup_ms = 10, bo.rep_ms = 40;
        else bo.warmup = 1, bo.reps = 3;
    }
    int best = -1;
    for (int i = 0; i < n; i++) {
        tile_bench_result r;
        tile_status cst = TILE_ERR_COMPILE;
        run.l = full[i];
        if (!failed[i]) {
            tile__err_mute++;   /* a config that fails is left out, quietly (as above) */
            cst = tile_do_bench(tile__tune_fn, &run, &bo, &r);
            tile__err_mute--;
            tile__at_count(&tile__at_stats.configs_timed);
            if (cst != TILE_OK) tile__tune_failure(&first, firsterr, sizeof firsterr, cst);
        }
        ms[i] = cst == TILE_OK ? r.median_ms : INFINITY;
        if (cst == TILE_OK && (best < 0 || ms[i] < ms[best])) best = i;
        if (kn->verbose) {
            tile__sbuf c = {0};
            tile__config_text(&c, &full[i]);
            if (cst == TILE_OK)
                fprintf(stderr, "tile autotune:   %-60s %10.4f ms (p20 %.4f, p80 %.4f, %d runs)\n", c.s ? c.s : "", r.median_ms, r.p20_ms, r.p80_ms, r.reps);
            else
                fprintf(stderr, "tile autotune:   %-60s     failed: %s\n", c.s ? c.s : "", failed[i] ? "it does not build" : tile_last_error());
            free(c.s);
        }
        if (cst != TILE_OK) tile_clear_error();
    }
    st = tile__tune_unsave(&run);
    if (st == TILE_OK && best < 0) st = tile__tune_failed(k, o, full, n, first, firsterr);
    if (st != TILE_OK) goto done;
    *win = base[best];
    tile__at_count(&tile__at_stats.tunings);
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
    if (!e) {
        /* one key tuned at a time; another thread may have tuned this one meanwhile */
        pthread_mutex_lock(&s->tuning);
        pthread_mutex_lock(&s->lock);
        e = tile__tune_find(s, h, k, key);
        if (e) *l = e->win;
        pthread_mutex_unlock(&s->lock);
        if (!e && (st = tile__tune(t, s, k, o, args, key, l)) == TILE_OK) {
            pthread_mutex_lock(&s->lock);
            st = tile__tune_insert(s, h, k, key, l);
            pthread_mutex_unlock(&s->lock);
        }
        pthread_mutex_unlock(&s->tuning);
        if (st != TILE_OK) return st;
    }
    /* this launch's own grid, stream and line */
    memcpy(l->grid, o->grid, sizeof l->grid);
    l->stream = o->stream;
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
