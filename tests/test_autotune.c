/* tests/test_autotune.c — tile_autotune.h: configs, keys, pruning,
   heuristics, hooks, do_bench and the disk caches. Runs in the interpreter
   (where the events read the host's clock), and on a GPU as well.

   - key selection: a new value of a key argument tunes, a known one or a
     change to an argument outside the key does not
   - the fastest config wins (configs that differ 64x in work)
   - pruning by a function and top-k by a performance model
   - heuristics: meta-parameters computed from the arguments at every launch
   - hooks: an in-place kernel and an atomic counter are tuned with
     restore_value / reset_to_zero, and the user's data comes out exactly as
     one launch leaves it; pre/post hooks run around every timed run
   - do_bench: counts, quantiles and a known host-side duration
   - the disk cache: a winner is reloaded instead of retuned; truncated,
     corrupt, foreign and other-key files are ignored and rewritten; the raw
     file layer rejects every truncation
   - processes: four children tune the same new key at once in one cache
     directory, another four hammer one file with writes and reads (a read
     is always whole or absent), and a last child tunes nothing and
     compiles nothing */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- kernels ---------------------------------------------------------------------- */
/* out = x + y; REPEAT adds x to itself REPEAT times more (more work, same result
   when x is 0 in the extra terms: x * 0 is added) */
TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int  BLOCK  = TL_META(BLOCK);
    int  REPEAT = TL_META_OR(REPEAT, 1);
    tl_t offs   = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask   = tl_lt(offs, n);
    tl_t xv     = tl_load(tl_add(x, offs), .mask = mask);
    tl_t sum    = tl_add(xv, tl_load(tl_add(y, offs), .mask = mask));
    for (int r = 1; r < REPEAT; r++) sum = tl_add(sum, tl_mul(tl_exp(tl_sin(xv)), 0.0f));
    tl_store(tl_add(out, offs), sum, .mask = mask);
}

/* x = 2 x + 1 in place, and one count per program in *cnt */
TILE_KERNEL(inplace_kernel, (tl_ptr_f32, x), (tl_ptr_i32, cnt), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(offs, n);
    tl_t v     = tl_load(tl_add(x, offs), .mask = mask);
    tl_store(tl_add(x, offs), tl_add(tl_mul(v, 2.0f), 1.0f), .mask = mask);
    tl_atomic_add(cnt, 1);
}

/* EVEN (a heuristic) drops the mask when n is a multiple of BLOCK; the
   kernel also writes EVEN itself into flag[0] so the test sees it */
TILE_KERNEL(even_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_ptr_i32, flag), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK), EVEN = TL_META(EVEN);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    if (EVEN) {
        tl_store(tl_add(out, offs), tl_mul(tl_load(tl_add(x, offs)), 3.0f));
    } else {
        tl_t mask = tl_lt(offs, n);
        tl_store(tl_add(out, offs), tl_mul(tl_load(tl_add(x, offs), .mask = mask), 3.0f), .mask = mask);
    }
    TL_IF (tl_eq(tl_program_id(0), 0)) {
        tl_store(flag, EVEN);
    }
}

/* ---- tuners --------------------------------------------------------------------------- */
static void grid_1d(const tile_tune_args *a, unsigned g[3]) { g[0] = tile_cdiv(tile_tune_int(a, "n"), tile_tune_meta(a, "BLOCK")); }

/* the slow configs first: the winner must be found, not be the first */
static const tile_autotune_config add_configs[] = {
    {.meta = {{"BLOCK", 256}, {"REPEAT", 64}}, .num_warps = 4},
    {.meta = {{"BLOCK", 128}, {"REPEAT", 32}}, .num_warps = 2},
    {.meta = {{"BLOCK", 256}, {"REPEAT", 1}}, .num_warps = 8, .num_stages = 2},
};
static tile_autotuner add_tuner = {TILE_AUTOTUNE_CONFIGS(add_configs), .key = {"n"}, .grid = grid_1d};

static int prune_calls;
static int prune_small(const tile_tune_args *a, tile_autotune_config *c, int n) {
    /* drop configs whose BLOCK exceeds n; keep order */
    int m = 0;
    prune_calls++;
    for (int i = 0; i < n; i++)
        if (c[i].meta[0].value <= tile_tune_int(a, "n")) c[m++] = c[i];
    return m;
}
static const tile_autotune_config prune_configs[] = {
    {.meta = {{"BLOCK", 1024}}}, {.meta = {{"BLOCK", 64}}}, {.meta = {{"BLOCK", 2048}}}, {.meta = {{"BLOCK", 32}}},
};
static tile_autotuner prune_tuner = {TILE_AUTOTUNE_CONFIGS(prune_configs), .key = {"n"}, .grid = grid_1d, .prune = prune_small};

/* a model that believes BLOCK 64 is fastest: top-1 times nothing */
static int model_calls;
static double model(const tile_tune_args *a, const tile_autotune_config *c) {
    (void)a;
    model_calls++;
    return c->meta[0].value == 64 ? 1.0 : 2.0 + (double)c->meta[0].value;
}
static tile_autotuner model_tuner = {TILE_AUTOTUNE_CONFIGS(prune_configs), .key = {"n"}, .grid = grid_1d, .perf_model = model, .top_k = 1};

static long long even_of(const tile_tune_args *a) { return tile_tune_int(a, "n") % tile_tune_meta(a, "BLOCK") == 0; }
static const tile_autotune_config even_configs[] = {{.meta = {{"BLOCK", 64}}}, {.meta = {{"BLOCK", 128}}}};
static tile_autotuner even_tuner = {TILE_AUTOTUNE_CONFIGS(even_configs), .key = {"n"}, .grid = grid_1d, .heuristics = {{"EVEN", even_of}}};
/* heuristics alone, no configs (Triton's @heuristics without @autotune) */
static long long block_of(const tile_tune_args *a) { return tile_tune_int(a, "n") >= 512 ? 256 : 64; }
static tile_autotuner heur_only = {.grid = grid_1d, .heuristics = {{"BLOCK", block_of}, {"EVEN", even_of}}};

static int pre_calls, post_calls;
static tile_status pre(const tile_tune_args *a) {
    pre_calls++;
    return a->launch && tile_tune_meta(a, "BLOCK") ? TILE_OK : TILE_ERR_INTERNAL;
}
static tile_status post(const tile_tune_args *a) {
    (void)a;
    post_calls++;
    return TILE_OK;
}
static const tile_autotune_config inplace_configs[] = {{.meta = {{"BLOCK", 64}}}, {.meta = {{"BLOCK", 128}}}, {.meta = {{"BLOCK", 256}}}};
static tile_autotuner inplace_tuner = {TILE_AUTOTUNE_CONFIGS(inplace_configs), .key = {"n"}, .grid = grid_1d,
                                       .restore_value = {"x"}, .reset_to_zero = {"cnt"}, .pre_hook = pre, .post_hook = post,
                                       .bench = {.warmup = 2, .reps = 4}, .cutoff = -1};   /* every run of every config: test_hooks counts them */

/* ---- helpers -------------------------------------------------------------------------- */
static char cache_dir[256];
static const char *self = "/proc/self/exe";   /* this program, for the children */

static tile_cache_stats stats(void) {
    tile_cache_stats s;
    tile_cache_stats_get(&s);
    return s;
}
/* the only file in cache_dir ending in `ext` (first found); 0 if none */
static int find_file(const char *ext, char *path, size_t n) {
    DIR *d = opendir(cache_dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d)))
        if (strlen(e->d_name) > strlen(ext) && strcmp(e->d_name + strlen(e->d_name) - strlen(ext), ext) == 0 && !strstr(e->d_name, ".tmp.")) {
            snprintf(path, n, "%s/%s", cache_dir, e->d_name);
            found++;
        }
    if (d) closedir(d);
    return found;
}
/* how many files in cache_dir have `part` in their name */
static int count_named(const char *part) {
    DIR *d = opendir(cache_dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) n += strstr(e->d_name, part) != NULL;
    if (d) closedir(d);
    return n;
}
static long file_size(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}
static void truncate_file(const char *path, long keep) {
    FILE *f = fopen(path, "rb");
    char *buf = (char *)malloc((size_t)keep + 1);
    size_t got = f && buf ? fread(buf, 1, (size_t)keep, f) : 0;
    if (f) fclose(f);
    f = fopen(path, "wb");
    if (f && buf) fwrite(buf, 1, got, f);
    if (f) fclose(f);
    free(buf);
}
static void flip_byte(const char *path, long at) {
    FILE *f = fopen(path, "r+b");
    if (!f) return;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
}
static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}
static void clean_dir(void) {
    DIR *d = opendir(cache_dir);
    struct dirent *e;
    char p[600];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", cache_dir, e->d_name);
            unlink(p);
        }
    if (d) closedir(d);
}

/* x + y with the add tuner; checks the sum */
static int run_add(int n) {
    size_t bytes = (size_t)n * sizeof(float);
    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *ho = (float *)malloc(bytes);
    float *x = (float *)tile_malloc(bytes), *y = (float *)tile_malloc(bytes), *out = (float *)tile_malloc(bytes);
    for (int i = 0; i < n; i++) hx[i] = (float)i, hy[i] = (float)(2 * i);
    tile_memcpy_htod(x, hx, bytes);
    tile_memcpy_htod(y, hy, bytes);
    tile_memset(out, 0xff, bytes);
    tile_status st = add_kernel(TILE_OPTS(.tune = &add_tuner), x, y, out, n);
    tile_memcpy_dtoh(ho, out, bytes);
    int bad = st != TILE_OK;
    for (int i = 0; i < n && !bad; i++) bad = ho[i] != (float)(3 * i);
    TT_CHECK(!bad, "add_kernel n=%d through the tuner: %s", n, st == TILE_OK ? "wrong sum" : tile_last_error());
    tile_free(x);
    tile_free(y);
    tile_free(out);
    free(hx);
    free(hy);
    free(ho);
    return !bad;
}

/* ---- child processes -------------------------------------------------------------------- */
/* "tune": launch add n=3000 through the tuner, print the counters;
   exit 0 when the sum is right (and, with expect_none, nothing was tuned or compiled) */
static int child_tune(int expect_none) {
    int ok = run_add(3000);
    tile_cache_stats s = stats();
    printf("child %ld: tunings %ld, tune_loads %ld, compiles %ld, kernel_loads %ld, rejected %ld\n", (long)getpid(), s.tunings, s.tune_loads,
           s.compiles, s.kernel_loads, s.rejected);
    if (expect_none) ok = ok && s.tunings == 0 && s.tune_loads == 1 && s.compiles == 0;
    else ok = ok && s.tunings + s.tune_loads == 1;
    return ok ? 0 : 1;
}
/* "hammer": write one key's file many times with payloads of varying
   length, each byte equal to its length % 251, and read it back between
   writes: a read finds nothing or a whole, consistent payload */
static int child_hammer(int seed) {
    const char *key = "tile test hammer key\n";
    char path[900];
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        size_t n = 1 + (size_t)((seed * 7919 + i * 104729) % 40000);
        char *p = (char *)malloc(n);
        memset(p, (int)(n % 251), n);
        tile__disk_write(TILE__DISK_KERNEL, "hammer", key, p, n, path, sizeof path);
        free(p);
        char *got = NULL;
        size_t len = 0;
        if (tile__disk_read(TILE__DISK_KERNEL, "hammer", key, &got, &len, path, sizeof path)) {
            for (size_t j = 0; j < len && !bad; j++) bad = (unsigned char)got[j] != len % 251;
            free(got);
        } else
            bad = 1; /* the file always exists after the first write: a failed read is a partial file */
    }
    tile_cache_stats s = stats();
    return bad || s.rejected ? 1 : 0;
}
/* Start `count` copies of this program as children with `mode`, all at
   once, and wait for them; returns how many failed. */
static int spawn(const char *mode, int count) {
    pid_t pids[8];
    int failed = 0;
    fflush(stdout);
    for (int i = 0; i < count; i++) {
        char seed[16];
        snprintf(seed, sizeof seed, "%d", i + 1);
        pids[i] = fork();
        if (pids[i] == 0) {
            execl(self, "test_autotune", "--child", mode, seed, (char *)NULL);
            _exit(127);
        }
    }
    for (int i = 0; i < count; i++) {
        int status = 0;
        if (pids[i] < 0 || waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
    }
    return failed;
}

/* ---- the tests ------------------------------------------------------------------------------ */
static void test_key_selection(void) {
    tile_cache_stats s0 = stats();
    run_add(1000);
    tile_cache_stats s1 = stats();
    TT_CHECK(s1.tunings == s0.tunings + 1 && s1.configs_timed == s0.configs_timed + 3, "a new key tunes its 3 configs (tunings %ld -> %ld)",
             s0.tunings, s1.tunings);
    run_add(1000); /* same key, other pointers (new allocations): no tuning */
    run_add(1000);
    tile_cache_stats s2 = stats();
    TT_CHECK(s2.tunings == s1.tunings && s2.configs_timed == s1.configs_timed, "a known key does not tune again");
    run_add(2000);
    tile_cache_stats s3 = stats();
    TT_CHECK(s3.tunings == s2.tunings + 1, "another value of the key tunes again");

    /* the fastest config wins: REPEAT 1 (listed last) over REPEAT 32 and 64 */
    int n = 1000;
    float *x = (float *)tile_malloc(4 * n), *y = (float *)tile_malloc(4 * n), *o = (float *)tile_malloc(4 * n);
    tile_arg args[4];
    args[0].p = x, args[1].p = y, args[2].p = o, args[3].i = n;
    tile_launch best;
    TT_OK(tile_autotune_best(&add_tuner, TILE_KERNEL_OF(add_kernel), TILE_OPTS(.num_warps = 1), args, &best));
    /* (on a GPU all three take a launch's time: only the interpreter sees the work) */
    int interp = strcmp(tile_backend_name(), "interp") == 0;
    TT_CHECK(interp ? tile_meta_of(&best, "REPEAT") == 1 && best.num_warps == 8 && best.num_stages == 2 && best.grid[0] == tile_cdiv(n, 256)
                    : best.grid[0] == tile_cdiv(n, tile_meta_of(&best, "BLOCK")),
             "the winner is the fast config with its num_warps, num_stages and grid (got REPEAT %lld, warps %d, grid %u)",
             tile_meta_of(&best, "REPEAT"), best.num_warps, best.grid[0]);
    tile_free(x);
    tile_free(y);
    tile_free(o);

    /* a key naming no parameter is an error at the launch */
    static tile_autotuner bad = {TILE_AUTOTUNE_CONFIGS(add_configs), .key = {"nope"}, .grid = grid_1d};
    float *z = (float *)tile_malloc(64);
    tile_status st = add_kernel(TILE_OPTS(.tune = &bad), z, z, z, 16);
    TT_CHECK(st == TILE_ERR_ARG && strstr(tile_last_error(), "nope"), "unknown key argument: %s", tile_last_error());
    tile_clear_error();
    tile_free(z);
    tile_autotune_release(&bad);
}

static void test_prune_and_model(void) {
    int n = 100;
    float *x = (float *)tile_malloc(4 * n), *o = (float *)tile_malloc(4 * n);
    int32_t *flag = (int32_t *)tile_malloc(4);
    tile_arg args[4];
    args[0].p = x, args[1].p = o, args[2].p = flag, args[3].i = n;
    /* inputs the kernels read (valgrind: no decision on uninitialized memory) */
    float hx[100];
    int32_t zero = 0;
    for (int i = 0; i < n; i++) hx[i] = (float)tt_uniform(-1, 1);
    TT_OK(tile_memcpy_htod(x, hx, sizeof hx));
    TT_OK(tile_memcpy_htod(flag, &zero, sizeof zero));
    tile_launch best;
    tile_cache_stats s0 = stats();
    prune_calls = 0;
    /* even_kernel needs EVEN: give it as a fixed meta-parameter of the launch */
    TT_OK(tile_autotune_best(&prune_tuner, TILE_KERNEL_OF(even_kernel), TILE_OPTS(.meta = {{"EVEN", 0}}), args, &best));
    tile_cache_stats s1 = stats();
    long long b = tile_meta_of(&best, "BLOCK");
    TT_CHECK(prune_calls == 1 && s1.configs_timed - s0.configs_timed == 2 && (b == 64 || b == 32),
             "prune keeps BLOCK 64 and 32 for n = 100 (timed %ld, best %lld)", s1.configs_timed - s0.configs_timed, b);
    TT_CHECK(tile_meta_of(&best, "EVEN") == 0, "the launch's own meta stays");

    model_calls = 0;
    TT_OK(tile_autotune_best(&model_tuner, TILE_KERNEL_OF(even_kernel), TILE_OPTS(.meta = {{"EVEN", 0}}), args, &best));
    tile_cache_stats s2 = stats();
    b = tile_meta_of(&best, "BLOCK");
    TT_CHECK(model_calls == 4 && s2.configs_timed == s1.configs_timed && b == 64, "top-1 by the model times nothing and picks BLOCK 64 (got %lld)", b);
    TT_OK(even_kernel(TILE_OPTS(.tune = &model_tuner, .meta = {{"EVEN", 0}}), x, o, flag, n));

    /* a prune that leaves nothing is an error */
    static const tile_autotune_config huge[] = {{.meta = {{"BLOCK", 4096}}}, {.meta = {{"BLOCK", 8192}}}};
    static tile_autotuner none = {TILE_AUTOTUNE_CONFIGS(huge), .key = {"n"}, .grid = grid_1d, .prune = prune_small};
    tile_status st = even_kernel(TILE_OPTS(.tune = &none, .meta = {{"EVEN", 0}}), x, o, flag, n);
    TT_CHECK(st == TILE_ERR_LAUNCH, "everything pruned: %s", tile_status_id(st));
    tile_clear_error();
    tile_autotune_release(&none);
    tile_free(x);
    tile_free(o);
    tile_free(flag);
}

static void test_heuristics(void) {
    for (int pass = 0; pass < 2; pass++) {
        tile_autotuner *t = pass ? &heur_only : &even_tuner;
        int sizes[3] = {640, 1000, 512};
        for (int si = 0; si < 3; si++) {
            int n = sizes[si];
            float *hx = (float *)malloc(4 * (size_t)n), *ho = (float *)malloc(4 * (size_t)n);
            float *x = (float *)tile_malloc(4 * (size_t)n + 1024), *o = (float *)tile_malloc(4 * (size_t)n + 1024);
            int32_t *flag = (int32_t *)tile_malloc(4), hflag = -1;
            for (int i = 0; i < n; i++) hx[i] = (float)(i % 17);
            tile_memcpy_htod(x, hx, 4 * (size_t)n);
            tile_memset(flag, 0xff, 4);
            tile_arg args[4];
            args[0].p = x, args[1].p = o, args[2].p = flag, args[3].i = n;
            tile_launch best;
            TT_OK(tile_autotune_best(t, TILE_KERNEL_OF(even_kernel), NULL, args, &best));
            tile_tune_args a = {TILE_KERNEL_OF(even_kernel), args, &best, NULL};
            long long block = tile_tune_meta(&a, "BLOCK"), even = tile_tune_meta(&a, "EVEN");
            TT_CHECK(block && even == (n % block == 0), "%s n=%d: EVEN = %lld for BLOCK %lld", pass ? "heuristics alone" : "tuned", n, even, block);
            if (pass) TT_CHECK(block == (n >= 512 ? 256 : 64), "heuristic BLOCK for n=%d: %lld", n, block);
            TT_OK(even_kernel(TILE_OPTS(.tune = t), x, o, flag, n));
            tile_memcpy_dtoh(ho, o, 4 * (size_t)n);
            tile_memcpy_dtoh(&hflag, flag, 4);
            int bad = 0;
            for (int i = 0; i < n; i++) bad += ho[i] != 3.0f * hx[i];
            TT_CHECK(!bad && hflag == even, "even_kernel n=%d: %d wrong, flag %d (EVEN %lld)", n, bad, hflag, even);
            tile_free(x);
            tile_free(o);
            tile_free(flag);
            free(hx);
            free(ho);
        }
    }
}

static void test_hooks(void) {
    int n = 1000;
    float *hx = (float *)malloc(4 * (size_t)n), *hg = (float *)malloc(4 * (size_t)n);
    float *x = (float *)tile_malloc(4 * (size_t)n);
    int32_t *cnt = (int32_t *)tile_malloc(4), hc = 7, got = 0;
    for (int i = 0; i < n; i++) hx[i] = (float)i * 0.25f;
    tile_memcpy_htod(x, hx, 4 * (size_t)n);
    tile_memcpy_htod(cnt, &hc, 4);
    pre_calls = post_calls = 0;
    tile_cache_stats s0 = stats();
    TT_OK(inplace_kernel(TILE_OPTS(.tune = &inplace_tuner), x, cnt, n));
    tile_cache_stats s1 = stats();
    tile_memcpy_dtoh(hg, x, 4 * (size_t)n);
    tile_memcpy_dtoh(&got, cnt, 4);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hg[i] != 2.0f * hx[i] + 1.0f;
    tile_launch best;
    tile_arg args[3];
    args[0].p = x, args[1].p = cnt, args[2].i = n;
    TT_OK(tile_autotune_best(&inplace_tuner, TILE_KERNEL_OF(inplace_kernel), NULL, args, &best));
    TT_CHECK(s1.tunings == s0.tunings + 1, "the in-place kernel was tuned");
    TT_CHECK(!bad, "restore_value: after tuning %d configs, x was updated exactly once (%d elements differ)", 3, bad);
    TT_CHECK(got == 7 + (int)best.grid[0], "reset_to_zero: the counter is the user's 7 plus one launch's %u programs (got %d)", best.grid[0], got);
    /* every run: 1 compile + 2 warm-up + 4 timed (no estimate: counts given), for 3 configs */
    TT_CHECK(pre_calls == 3 * 7 && post_calls == 3 * 7, "pre/post hooks around every run (pre %d, post %d)", pre_calls, post_calls);
    /* the same key again: no tuning, one more update */
    TT_OK(inplace_kernel(TILE_OPTS(.tune = &inplace_tuner), x, cnt, n));
    tile_memcpy_dtoh(hg, x, 4 * (size_t)n);
    bad = 0;
    for (int i = 0; i < n; i++) bad += hg[i] != 2.0f * (2.0f * hx[i] + 1.0f) + 1.0f;
    TT_CHECK(!bad && pre_calls == 21, "second launch: one more update, no hooks (%d differ)", bad);
    /* restore_value naming a scalar is an error */
    static tile_autotuner bad_t = {TILE_AUTOTUNE_CONFIGS(inplace_configs), .key = {"n"}, .grid = grid_1d, .restore_value = {"n"}};
    TT_CHECK(inplace_kernel(TILE_OPTS(.tune = &bad_t), x, cnt, n + 1) == TILE_ERR_ARG, "restore_value of a scalar: %s", tile_last_error());
    tile_clear_error();
    tile_autotune_release(&bad_t);
    tile_free(x);
    tile_free(cnt);
    free(hx);
    free(hg);
}

/* do_bench with a host-side spin of known length (the interpreter's events
   read the host clock; on a GPU the time between events is ~0) */
static int spin_calls, setup_calls;
static tile_status spin(void *u) {
    double ms = *(double *)u, t0 = tile__host_ms();
    spin_calls++;
    while (tile__host_ms() - t0 < ms) {}
    return TILE_OK;
}
static tile_status count_setup(void *u) {
    (void)u;
    setup_calls++;
    return TILE_OK;
}
static tile_status failing(void *u) {
    (void)u;
    return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "failing bench fn");
}
static void test_do_bench(void) {
    double ms = 2.0;
    tile_bench_result r;
    spin_calls = setup_calls = 0;
    TT_OK(tile_do_bench(spin, &ms, TILE_BENCH_OPTS(.warmup = 2, .reps = 7, .setup = count_setup), &r));
    TT_CHECK(r.reps == 7 && r.warmup == 2 && spin_calls == 1 + 2 + 7 && setup_calls == spin_calls, "counts: reps %d, warmup %d, calls %d, setups %d",
             r.reps, r.warmup, spin_calls, setup_calls);
    TT_CHECK(r.min_ms <= r.p20_ms && r.p20_ms <= r.median_ms && r.median_ms <= r.p80_ms && r.p80_ms <= r.max_ms && r.min_ms <= r.mean_ms &&
                 r.mean_ms <= r.max_ms,
             "ordered statistics: min %g p20 %g median %g p80 %g max %g", r.min_ms, r.p20_ms, r.median_ms, r.p80_ms, r.max_ms);
    if (!tile__gpu_mode()) TT_CHECK(r.median_ms >= 1.9 && r.median_ms < 200, "a 2 ms spin measures %g ms", r.median_ms);
    /* by time: about 20 ms of 2 ms runs */
    if (!tile__gpu_mode()) {
        TT_OK(tile_do_bench(spin, &ms, TILE_BENCH_OPTS(.warmup_ms = 4, .rep_ms = 20, .no_flush = 1), &r));
        TT_CHECK(r.reps >= 1 && r.reps <= 11 && r.warmup >= 1 && r.warmup <= 2, "by time (about 20 ms of 2 ms runs): %d reps, %d warm-up", r.reps,
                 r.warmup);
    }
    float sorted[5] = {1, 2, 3, 4, 10};
    TT_CHECK(tile_quantile(sorted, 5, 0.5) == 3 && tile_quantile(sorted, 5, 0.2) == 1.8 && tile_quantile(sorted, 5, 1.0) == 10,
             "quantiles interpolate like numpy");
    TT_CHECK(tile_do_bench(failing, NULL, NULL, &r) == TILE_ERR_VALUE && r.reps == 0, "a failing fn fails the bench");
    tile_clear_error();
}

/* .stop_above_ms, and a tuner's .cutoff: what cannot win is timed no further */
static const tile_autotune_config cut_configs[] = {   /* the fast one first */
    {.meta = {{"BLOCK", 256}, {"REPEAT", 1}}, .num_warps = 4},
    {.meta = {{"BLOCK", 256}, {"REPEAT", 64}}, .num_warps = 4},
    {.meta = {{"BLOCK", 128}, {"REPEAT", 48}}, .num_warps = 4},
};
static void test_cutoff(void) {
    tile_bench_result r;
    if (!tile__gpu_mode()) {   /* a host spin: events on a GPU do not see it */
        double ms = 2.0;
        spin_calls = 0;
        TT_OK(tile_do_bench(spin, &ms, TILE_BENCH_OPTS(.warmup_ms = 4, .rep_ms = 20, .no_flush = 1, .stop_above_ms = 1.0), &r));
        TT_CHECK(r.stopped == 1 && r.reps == 3 && spin_calls == 1 + 3 && r.min_ms > 1.0,
                 "stop_above_ms 1 on 2 ms runs: stopped after the estimate (stopped %d, %d reps, %d calls, min %g)", r.stopped, r.reps, spin_calls,
                 r.min_ms);
        spin_calls = 0;
        TT_OK(tile_do_bench(spin, &ms, TILE_BENCH_OPTS(.warmup = 2, .reps = 7, .no_flush = 1, .stop_above_ms = 1.0), &r));
        TT_CHECK(r.stopped == 1 && r.reps == 3 && spin_calls == 1 + 2 + 3, "with both counts: stopped after 3 timed runs (stopped %d, %d reps, %d calls)",
                 r.stopped, r.reps, spin_calls);
        spin_calls = 0;
        TT_OK(tile_do_bench(spin, &ms, TILE_BENCH_OPTS(.warmup = 2, .reps = 7, .no_flush = 1, .stop_above_ms = 1000), &r));
        TT_CHECK(r.stopped == 0 && r.reps == 7 && spin_calls == 1 + 2 + 7, "under the bound: every run (stopped %d, %d reps, %d calls)", r.stopped,
                 r.reps, spin_calls);
    }
    /* a tuner: the two slow configs stop after their first runs, the fast one wins */
    int n = tile__gpu_mode() ? 1 << 22 : 4093;   /* keys no other part of this test tunes */
    size_t bytes = (size_t)(n + 1) * sizeof(float);
    float *hx = (float *)malloc(bytes), *ho = (float *)malloc(bytes);
    float *x = (float *)tile_malloc(bytes), *y = (float *)tile_malloc(bytes), *out = (float *)tile_malloc(bytes);
    for (int i = 0; i <= n; i++) hx[i] = (float)tt_uniform(-2, 2);
    TT_OK(tile_memcpy_htod(x, hx, bytes));
    TT_OK(tile_memcpy_htod(y, hx, bytes));
    static tile_autotuner cut = {TILE_AUTOTUNE_CONFIGS(cut_configs), .key = {"n"}, .grid = grid_1d, .bench = {.warmup = 1, .reps = 5}};
    static tile_autotuner full = {TILE_AUTOTUNE_CONFIGS(cut_configs), .key = {"n"}, .grid = grid_1d, .bench = {.warmup = 1, .reps = 5}, .cutoff = -1};
    for (int pass = 0; pass < 2; pass++) {   /* the default cutoff; then -1: everything timed in full */
        int m = n - pass;
        tile_memset(out, 0xA5, bytes);
        tile_cache_stats s0 = stats();
        tile_launch best;
        TT_OK(tile_autotune_best(pass ? &full : &cut, TILE_KERNEL_OF(add_kernel), NULL, (tile_arg[]){{.p = x}, {.p = y}, {.p = out}, {.i = m}}, &best));
        TT_OK(add_kernel(TILE_OPTS(.tune = pass ? &full : &cut), x, y, out, m));
        tile_cache_stats s1 = stats();
        tile_memcpy_dtoh(ho, out, bytes);
        int bad = 0;
        for (int i = 0; i < m; i++) bad += ho[i] != hx[i] + hx[i];
        long timed = s1.configs_timed - s0.configs_timed, stopped = s1.configs_stopped - s0.configs_stopped;
        TT_CHECK(!bad && timed == 3 && stopped == (pass ? 0 : 2) && tile_meta_of(&best, "REPEAT") == 1,
                 "cutoff %s: %ld configs timed, %ld stopped (want %d), winner REPEAT %lld, %d elements wrong", pass ? "-1" : "default", timed, stopped,
                 pass ? 0 : 2, tile_meta_of(&best, "REPEAT"), bad);
    }
    /* below 1 it could stop the winner: an error at the launch's line */
    static tile_autotuner low = {TILE_AUTOTUNE_CONFIGS(cut_configs), .key = {"n"}, .grid = grid_1d, .cutoff = 0.5};
    int line = __LINE__ + 1;
    tile_status st = add_kernel(TILE_OPTS(.tune = &low), x, y, out, n);
    char at[64];
    snprintf(at, sizeof at, "%s:%d", __FILE__, line);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(tile_last_error(), ".cutoff is 0.5") && strstr(tile_last_error(), at), "cutoff 0.5: %s: %s",
             tile_status_id(st), tile_last_error());
    tile_clear_error();
    tile_autotune_release(&cut);
    tile_autotune_release(&full);
    tile_autotune_release(&low);
    tile_free(x);
    tile_free(y);
    tile_free(out);
    free(hx);
    free(ho);
}

/* .cuda_graph (Triton's do_bench_cudagraph): runs captured on a stream, replays timed */
typedef struct graph_ctx { float *x, *y, *out; int n; tile_stream s; int calls; } graph_ctx;
static tile_status add_on_stream(void *u) {
    graph_ctx *c = (graph_ctx *)u;
    c->calls++;
    return add_kernel(TILE_OPTS(.grid = {tile_cdiv(c->n, 256)}, .meta = {{"BLOCK", 256}}, .stream = c->s), c->x, c->y, c->out, c->n);
}
static void test_do_bench_graph(void) {
    int n = 2999;   /* a key no other part of this test tunes */
    size_t bytes = (size_t)n * sizeof(float);
    float *hx = (float *)malloc(bytes), *ho = (float *)malloc(bytes);
    graph_ctx c = {(float *)tile_malloc(bytes), (float *)tile_malloc(bytes), (float *)tile_malloc(bytes), n, NULL, 0};
    for (int i = 0; i < n; i++) hx[i] = (float)tt_uniform(-2, 2);
    tile_memcpy_htod(c.x, hx, bytes);
    tile_memcpy_htod(c.y, hx, bytes);
    tile_memset(c.out, 0xA5, bytes);
    TT_OK(tile_stream_create(&c.s));
    tile_bench_result r;
    TT_OK(tile_do_bench(add_on_stream, &c, TILE_BENCH_OPTS(.cuda_graph = 1, .stream = c.s, .reps = 4), &r));
    /* fn: once to compile, 5 captured to estimate, 4 captured to time (replays do not call it) */
    TT_CHECK(c.calls == 1 + 5 + 4 && r.reps == 10 * 4, "cuda_graph: %d calls of fn (want 10), %d runs timed (want 40)", c.calls, r.reps);
    TT_CHECK(r.median_ms > 0 && r.min_ms <= r.median_ms && r.median_ms <= r.max_ms, "cuda_graph: min %g median %g max %g", r.min_ms, r.median_ms,
             r.max_ms);
    tile_stream_synchronize(c.s);
    tile_memcpy_dtoh(ho, c.out, bytes);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += ho[i] != hx[i] + hx[i];
    TT_CHECK(!bad, "cuda_graph: the replayed runs computed x + y (%d elements differ)", bad);
    /* what a graph cannot hold */
    int line = __LINE__ + 1;
    tile_status st = tile_do_bench(add_on_stream, &c, TILE_BENCH_OPTS(.cuda_graph = 1, .reps = 4), &r);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(tile_last_error(), "needs .stream"), "cuda_graph without a stream (line %d): %s", line, tile_last_error());
    st = tile_do_bench(add_on_stream, &c, TILE_BENCH_OPTS(.cuda_graph = 1, .stream = c.s, .setup = count_setup), &r);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(tile_last_error(), ".setup or .teardown"), "cuda_graph with a setup: %s", tile_last_error());
    tile_clear_error();
    /* a tuner timing by graph replays picks a config, and the launch is right */
    static tile_autotuner graph_tuner = {TILE_AUTOTUNE_CONFIGS(add_configs), .key = {"n"}, .grid = grid_1d, .bench = {.cuda_graph = 1}};
    tile_memset(c.out, 0xA5, bytes);
    tile_cache_stats s0 = stats();
    TT_OK(add_kernel(TILE_OPTS(.tune = &graph_tuner), c.x, c.y, c.out, n));
    tile_cache_stats s1 = stats();
    tile_memcpy_dtoh(ho, c.out, bytes);
    bad = 0;
    for (int i = 0; i < n; i++) bad += ho[i] != hx[i] + hx[i];
    TT_CHECK(!bad && s1.configs_timed - s0.configs_timed == (long)(sizeof add_configs / sizeof add_configs[0]),
             "a tuner with .bench.cuda_graph: %d elements differ, %ld configs timed", bad, s1.configs_timed - s0.configs_timed);
    tile_autotune_release(&graph_tuner);
    tile_stream_destroy(c.s);
    tile_free(c.x);
    tile_free(c.y);
    tile_free(c.out);
    free(hx);
    free(ho);
}

static void test_disk(void) {
    char path[900], other[900];
    clean_dir();
    tile_autotune_release(&add_tuner);
    run_add(1500);
    TT_CHECK(find_file(".tune", path, sizeof path) == 1, "one .tune file in %s", cache_dir);
    long size = file_size(path);
    /* a new process (simulated: the table forgotten) loads the winner */
    tile_cache_stats s0 = stats();
    tile_autotune_release(&add_tuner);
    run_add(1500);
    tile_cache_stats s1 = stats();
    TT_CHECK(s1.tunings == s0.tunings && s1.tune_loads == s0.tune_loads + 1, "the winner comes from disk (tunings %ld -> %ld, loads %ld -> %ld)",
             s0.tunings, s1.tunings, s0.tune_loads, s1.tune_loads);

    /* bad files: each is ignored, the key retuned, the file rewritten whole */
    for (int kind = 0; kind < 5; kind++) {
        const char *what[] = {"truncated to the header", "truncated by one byte", "a flipped payload byte", "foreign text", "another key's file"};
        /* the file rewritten by the previous kind may differ in length by a digit of its timing: cut the one on disk now */
        long now = file_size(path);
        if (kind == 0) truncate_file(path, 40);
        if (kind == 1) truncate_file(path, now - 1);
        if (kind == 2) flip_byte(path, now - 3);
        if (kind == 3) write_text(path, "hello, I am not a cache file\n");
        if (kind == 4) {
            /* tune another key, then copy its file over this one's */
            run_add(1700);
            char p2[900];
            DIR *d = opendir(cache_dir);
            struct dirent *e;
            other[0] = 0;
            while (d && (e = readdir(d))) {
                snprintf(p2, sizeof p2, "%s/%s", cache_dir, e->d_name);
                if (strstr(e->d_name, ".tune") && !strstr(e->d_name, ".tmp.") && strcmp(p2, path) != 0) snprintf(other, sizeof other, "%s", p2);
            }
            if (d) closedir(d);
            FILE *in = fopen(other, "rb"), *out = fopen(path, "wb");
            int c;
            while (in && out && (c = fgetc(in)) != EOF) fputc(c, out);
            if (in) fclose(in);
            if (out) fclose(out);
        }
        tile_cache_stats a = stats();
        tile_autotune_release(&add_tuner);
        run_add(1500);
        tile_cache_stats b = stats();
        TT_CHECK(b.rejected == a.rejected + 1 && b.tunings == a.tunings + 1 && b.tune_stores == a.tune_stores + 1,
                 "%s: rejected (%ld -> %ld), retuned (%ld -> %ld), rewritten", what[kind], a.rejected, b.rejected, a.tunings, b.tunings);
        /* whole: the next process loads it (its size may differ by a digit of the timing it records) */
        tile_autotune_release(&add_tuner);
        run_add(1500);
        tile_cache_stats c = stats();
        TT_CHECK(c.rejected == b.rejected && c.tunings == b.tunings && labs(file_size(path) - size) <= 8,
                 "%s: the rewritten file is whole and loads (%ld bytes, was %ld; rejected %ld -> %ld, tunings %ld -> %ld)", what[kind],
                 file_size(path), size, b.rejected, c.rejected, b.tunings, c.tunings);
    }

    /* the raw layer: every truncation of a kernel file is rejected */
    const char *key = "tile test key\nline 2\n";
    char payload[3000], *got = NULL;
    size_t len = 0;
    for (int i = 0; i < (int)sizeof payload; i++) payload[i] = (char)(i * 7);
    TT_CHECK(tile__disk_write(TILE__DISK_KERNEL, "raw", key, payload, sizeof payload, path, sizeof path), "raw write");
    TT_CHECK(tile__disk_read(TILE__DISK_KERNEL, "raw", key, &got, &len, path, sizeof path) && len == sizeof payload && memcmp(got, payload, len) == 0,
             "raw read back");
    free(got);
    TT_CHECK(!tile__disk_read(TILE__DISK_TUNE, "raw", key, &got, &len, other, sizeof other), "the other kind is another file");
    long full = file_size(path);
    int accepted = 0;
    for (long keep = 0; keep < full; keep += keep < 64 ? 1 : 97) {
        tile__disk_write(TILE__DISK_KERNEL, "raw", key, payload, sizeof payload, path, sizeof path);
        truncate_file(path, keep);
        if (tile__disk_read(TILE__DISK_KERNEL, "raw", key, &got, &len, path, sizeof path)) {
            accepted++;
            free(got);
        }
    }
    TT_CHECK(accepted == 0, "%d truncations of a cache file were accepted", accepted);
    /* with the cache off nothing is read or written */
    tile__at_kn.disk = 0;
    TT_CHECK(!tile__disk_write(TILE__DISK_KERNEL, "raw2", key, payload, 10, path, sizeof path) && count_named("raw2") == 0,
             "TILE_CACHE=0 writes nothing");
    tile__at_kn.disk = 1;
}

static void test_processes(void) {
    clean_dir();
    /* four processes tune the same new key at once */
    int failed = spawn("tune", 4);
    TT_CHECK(failed == 0, "%d of 4 concurrent tuning processes failed", failed);
    char path[900];
    TT_CHECK(find_file(".tune", path, sizeof path) == 1, "one .tune file after the concurrent processes");
    /* a fifth finds the winner: tunes nothing, compiles nothing */
    failed = spawn("none", 1);
    TT_CHECK(failed == 0, "the process after them tuned or compiled something");
    /* four processes write and read one file, always seeing it whole */
    failed = spawn("hammer", 4);
    TT_CHECK(failed == 0, "%d of 4 processes saw a partial cache file", failed);
    int tmps = count_named(".tmp.");
    TT_CHECK(tmps == 0, "%d temporary files left behind", tmps);
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--child") == 0) {
        if (strcmp(argv[2], "tune") == 0) return child_tune(0);
        if (strcmp(argv[2], "none") == 0) return child_tune(1);
        if (strcmp(argv[2], "hammer") == 0) return child_hammer(atoi(argv[3]));
        return 2;
    }
    if (strchr(argv[0], '/')) self = argv[0];
    tt_seed();
    /* a private cache directory, for this process and its children */
    const char *tmp = getenv("TMPDIR");
    snprintf(cache_dir, sizeof cache_dir, "%s/tile-autotune-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cache_dir)) {
        printf("FAIL: mkdtemp(%s)\n", cache_dir);
        return 1;
    }
    setenv("TILE_CACHE_DIR", cache_dir, 1);
    unsetenv("TILE_CACHE");
    printf("back end %s, cache %s\n", tile_backend_name(), tile_cache_dir());
    TT_CHECK(strcmp(tile_cache_dir(), cache_dir) == 0, "TILE_CACHE_DIR is used");

    test_key_selection();
    test_prune_and_model();
    test_heuristics();
    test_hooks();
    test_do_bench();
    test_cutoff();
    test_do_bench_graph();
    test_disk();
    test_processes();

    clean_dir();
    rmdir(cache_dir);
    tile_autotune_release(&add_tuner);
    tile_autotune_release(&prune_tuner);
    tile_autotune_release(&model_tuner);
    tile_autotune_release(&even_tuner);
    tile_autotune_release(&heur_only);
    tile_autotune_release(&inplace_tuner);
    tile_kernel_release(TILE_KERNEL_OF(add_kernel));
    tile_kernel_release(TILE_KERNEL_OF(inplace_kernel));
    tile_kernel_release(TILE_KERNEL_OF(even_kernel));
    return tt_finish("test_autotune");
}
