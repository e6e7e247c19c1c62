/* tests/test_profile.c — the profiler (tile/profile.h), in whatever back end
   runs (the interpreter without a GPU):
   - with no profile running, scopes do nothing and launches are as before,
     and a kernel's PTX is the same with a profile running;
   - a profile over nested scopes on the main thread and on four threads,
     launches with flops and bytes from the options and from a metrics
     function, a tuner (its scope), and a failing launch (kept, with its
     status); every kernel's result checked against float64;
   - the text tree's lines for it; the JSON and the page are checked by
     tests/profile_check.py and tests/profile_page.sh (tests/profile_outputs.sh
     runs them on the files this program leaves in DIR);
   - the user errors, each with its id and this file's line: bad nesting, an
     end with nothing open, an unknown format, an unwritable path, a second
     start, a stop without a start, a scope without a name, a scope left open;
   - the timing words "cupti", "events" and "clock": every launch timed
     (tile_profile_times), the tree saying what timed it, the "clock" PTX
     writing %globaltimer only while such a profile runs; two words at once
     and a misspelt one are errors;
   - a profile that the program leaves by exit() (no stop) and one started by
     TILE_PROFILE are written all the same (child processes).

   usage: test_profile [DIR]   (DIR: where to leave the outputs; default a
   temporary directory, removed at the end) */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

TILE_KERNEL(prof_add, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int BLOCK = (int)TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_add(tl_load(tl_add(x, offs), .mask = mask), tl_load(tl_add(y, offs), .mask = mask)), .mask = mask);
}
TILE_KERNEL(prof_scale, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n), (tl_f32, a))
{
    tl_t offs = tl_add(tl_mul(tl_program_id(0), 64), tl_arange(0, 64));
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_mul(tl_load(tl_add(x, offs), .mask = mask), a), .mask = mask);
}
/* in-kernel scopes: "outer" once, "inner" 3 times in each warp of each program */
TILE_KERNEL(prof_inner, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_profile_enter("outer");
    tl_t offs = tl_add(tl_mul(tl_program_id(0), 64), tl_arange(0, 64));
    tl_t v = tl_load(tl_add(x, offs));
    TL_FOR (i, 0, 3, 1, v) {
        (void)i;
        tl_profile_enter("inner");
        v = tl_mul(v, 2.0f);
        tl_profile_exit("inner");
    }
    tl_store(tl_add(out, offs), v);
    tl_profile_exit("outer");
}
/* shapes that do not broadcast on purpose: the launch fails (TILE_ERR_SHAPE)
   after the profile has its record, on a GPU as in the interpreter */
TILE_KERNEL(prof_bad, (tl_ptr_f32, x), (tl_ptr_f32, out))
{
    tl_t offs = tl_arange(0, 64);
    tl_store(tl_add(out, offs), tl_load(tl_add(x, tl_add(offs, tl_arange(0, 32)))));
}

/* prof_scale's work: one multiply per element, a read and a write of 4 bytes */
static int metrics_calls;
static void scale_metrics(const tile_kernel *k, const tile_launch *o, const tile_arg *args, void *user, double *flops, double *bytes) {
    (void)k, (void)o;
    *(int *)user += 1;
    *flops = (double)args[2].i;
    *bytes = 8.0 * (double)args[2].i;
}

enum { N = 1000 };
static float *dx, *dy, *dout;
static float hx[N], hy[N];

static void grid_1d(const tile_tune_args *a, unsigned grid[3]) {
    grid[0] = tile_cdiv(tile_tune_int(a, "n"), tile_tune_meta(a, "BLOCK"));
}
static const tile_autotune_config add_configs[] = {{.meta = {{"BLOCK", 128}}}, {.meta = {{"BLOCK", 256}}}};
static tile_autotuner add_tuner = {TILE_AUTOTUNE_CONFIGS(add_configs), .key = {"n"}, .grid = grid_1d, .bench = {.warmup = 1, .reps = 2}};

/* out = x + y, checked */
static void run_add(float *out, int n, const tile_launch *o) {
    TT_OK(prof_add(o, dx, dy, out, n));
    float h[N];
    tt_poison(h, sizeof h);
    TT_OK(tile_memcpy_dtoh(h, out, sizeof(float) * (size_t)n));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != (float)((double)hx[i] + (double)hy[i]);
    TT_CHECK(!bad, "prof_add: %d of %d wrong", bad, n);
}
static void run_scale(float *out, int n, float a) {
    TT_OK(prof_scale(TILE_OPTS(.grid = {tile_cdiv(n, 64)}), dx, out, n, a));
    float h[N];
    tt_poison(h, sizeof h);
    TT_OK(tile_memcpy_dtoh(h, out, sizeof(float) * (size_t)n));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != (float)((double)hx[i] * (double)a);
    TT_CHECK(!bad, "prof_scale: %d of %d wrong", bad, n);
}

/* a worker: its own scopes, nested, with launches inside */
static void *worker(void *arg) {
    int w = (int)(intptr_t)arg;
    float *out = (float *)tile_malloc(sizeof(float) * N);
    TT_CHECK(out != NULL, "tile_malloc: %s", tile_last_error());
    if (!out) return NULL;
    TILE_SCOPE("worker") {
        for (int s = 0; s < 3; s++) {
            TILE_SCOPE("step", .flops = 1000.0 * (w + 1)) {
                run_add(out, N, TILE_OPTS(.grid = {tile_cdiv(N, 128)}, .meta = {{"BLOCK", 128}}, .flops = N, .bytes = 12.0 * N));
                run_scale(out, N, 0.5f * (float)(w + 1));
            }
        }
    }
    tile_free(out);
    return NULL;
}

static int has_file(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 && sb.st_size > 0;
}
/* the whole file (NUL-terminated, malloc'ed) or NULL */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = (char *)malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = 0;
    fclose(f);
    return s;
}
/* the tree line of `name` (its first), or NULL */
static const char *tree_line(const char *tree, const char *name, char *buf, size_t n) {
    const char *p = tree ? strstr(tree, name) : NULL;
    if (!p) return NULL;
    const char *b = p, *e = strchr(p, '\n');
    while (b > tree && b[-1] != '\n') b--;
    size_t len = (size_t)((e ? e : p + strlen(p)) - b);
    if (len >= n) len = n - 1;
    memcpy(buf, b, len);
    buf[len] = 0;
    return buf;
}

/* one error case: the call's status, id and line */
#define EXPECT_PROFILE_ERR(call, what)                                                                                              \
    do {                                                                                                                            \
        int line_ = __LINE__;                                                                                                       \
        tile_status st_ = (call);                                                                                                   \
        const tile_error *e_ = tile_last_error_info();                                                                              \
        TT_CHECK(st_ == TILE_ERR_PROFILE && e_->status == TILE_ERR_PROFILE && e_->line == line_ && strstr(e_->file, "test_profile.c") && \
                     strstr(e_->message, what),                                                                                     \
                 "%s: want TILE_ERR_PROFILE at line %d mentioning \"%s\"; got %s at %s:%d: %s", #call, line_, what, tile_status_id(st_),    \
                 e_->file, e_->line, e_->message);                                                                                  \
        tile_clear_error();                                                                                                         \
    } while (0)

static void errors(const char *dir) {
    char path[1200];
    /* stop without a start */
    EXPECT_PROFILE_ERR(tile_profile_stop(), "no profile is running");
    /* unknown format; a format that needs a path */
    snprintf(path, sizeof path, "%s/err", dir);
    EXPECT_PROFILE_ERR(tile_profile_start(path, "json,xml"), "unknown format \"xml\"");
    EXPECT_PROFILE_ERR(tile_profile_start(NULL, "json"), "need a path");
    /* an unwritable path */
    snprintf(path, sizeof path, "%s/no/such/dir/p", dir);
    EXPECT_PROFILE_ERR(tile_profile_start(path, NULL), "cannot write");
    TT_CHECK(!tile_profile_running(), "a failed start left a profile running");
    /* a second start */
    snprintf(path, sizeof path, "%s/err", dir);
    TT_OK(tile_profile_start(path, "json"));
    EXPECT_PROFILE_ERR(tile_profile_start(path, "json"), "already running");
    /* nesting: an end that is not the innermost, an end with nothing open, no name */
    TT_OK(tile_scope_begin("a"));
    TT_OK(tile_scope_begin("b"));
    EXPECT_PROFILE_ERR(tile_scope_end("a"), "innermost open scope of this thread is \"b\"");
    TT_OK(tile_scope_end("b"));
    TT_OK(tile_scope_end(NULL));   /* the innermost: "a" */
    EXPECT_PROFILE_ERR(tile_scope_end("a"), "no scope is open");
    EXPECT_PROFILE_ERR(tile_scope_begin(NULL), "no name");
    EXPECT_PROFILE_ERR(tile_scope_begin("neg", .flops = -1), "must be >= 0");
    /* a scope left open: the stop writes the report, then says so */
    TT_OK(tile_scope_begin("left open"));
    int line = __LINE__ - 1;
    EXPECT_PROFILE_ERR(tile_profile_stop(), "was never ended");
    char want[64];
    snprintf(want, sizeof want, "test_profile.c:%d", line);
    snprintf(path, sizeof path, "%s/err.json", dir);
    char *json = slurp(path);
    TT_CHECK(json && strstr(json, "\"left open\"") && strstr(json, "\"open_at_stop\":true") && strstr(json, want),
             "the report of a profile with an open scope lacks it: %.300s", json ? json : "(no file)");
    free(json);
    TT_CHECK(!tile_profile_running(), "the profile still runs after its stop");
    /* no profile: scopes are free and say nothing, whatever their nesting */
    TT_OK(tile_scope_end("never begun"));
    TT_OK(tile_scope_begin("x"));
    TT_OK(tile_scope_end("y"));
}

/* what times the kernels: "cupti", "events" and "clock" each give every
   launch a time (tile_profile_times), the tree says which timed them, and
   "clock" compiles kernels that write %globaltimer into the launch's slot
   while it runs (their PTX shows it; once it stops, the PTX is as before) */
static void timing(const char *dir) {
    static const char *const words[3] = {"cupti", "events", "clock"};
    int gpu = strcmp(tile_backend_name(), "interp") != 0;
    char path[1200], formats[32];
    char *ptx0 = NULL, *ptx1 = NULL, *ptx2 = NULL;
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(prof_add), TILE_OPTS(.meta = {{"BLOCK", 128}}), "sm_90a", &ptx0));
    for (int w = 0; w < 3; w++) {
        snprintf(path, sizeof path, "%s/time_%s", dir, words[w]);
        snprintf(formats, sizeof formats, "tree,%s", words[w]);
        TT_OK(tile_profile_start(path, formats));
        if (w == 2) {
            TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(prof_add), TILE_OPTS(.meta = {{"BLOCK", 128}}), "sm_90a", &ptx1));
            TT_CHECK(ptx1 && strstr(ptx1, "%globaltimer") && strstr(ptx1, "red.relaxed.gpu.global.max.u64") && strstr(ptx1, "bar.sync"),
                     "\"clock\": the PTX does not write the kernel's clock");
        }
        const int reps = 5, n = N - (int)tt_int(0, 100);
        for (int r = 0; r < reps; r++) {
            static float got[N];
            tt_poison(got, sizeof got);
            TT_OK(tile_memcpy_htod(dout, got, sizeof got));
            TT_OK(prof_add(TILE_OPTS(.grid = {tile_cdiv(n, 128)}, .meta = {{"BLOCK", 128}}), dx, dy, dout, n));
            TT_OK(tile_memcpy_dtoh(got, dout, sizeof got));
            int wrong = 0;
            for (int i = 0; i < n; i++) wrong += got[i] != (float)((double)hx[i] + (double)hy[i]);
            TT_CHECK(wrong == 0, "\"%s\": prof_add: %d of %d elements wrong", words[w], wrong, n);
        }
        TT_OK(tile_profile_stop());
        double ms[8];
        int c = tile_profile_times("prof_add", ms, 8);
        TT_CHECK(c == reps, "\"%s\": tile_profile_times counts %d launches of prof_add, want %d", words[w], c, reps);
        /* (%globaltimer moves in steps of about a us on the H200: a kernel
           this short may read 0 by the clock, but is timed) */
        for (int i = 0; i < c && i < 8; i++)
            TT_CHECK(gpu && w != 2 ? ms[i] > 0 && ms[i] < 100 : ms[i] >= 0 && ms[i] < 100, "\"%s\": launch %d timed %g ms", words[w], i, ms[i]);
        TT_CHECK(tile_profile_times("prof_scale", NULL, 0) == 0 && tile_profile_times("no such kernel", ms, 8) == 0,
                 "\"%s\": tile_profile_times counts launches of kernels that did not run", words[w]);
        snprintf(path, sizeof path, "%s/time_%s.txt", dir, words[w]);
        char *tree = slurp(path);
        const char *want = !gpu ? "the host clock" : w == 2 ? "the kernels' own clock (%globaltimer" : w == 1 ? "CUDA events (no CUPTI: \"events\" asked for)" : NULL;
        TT_CHECK(tree && (want ? strstr(tree, want) != NULL : strstr(tree, "CUPTI activity records") || strstr(tree, "CUDA events (no CUPTI: ")),
                 "\"%s\": the tree does not say what timed the kernels (want \"%s\"): %.300s", words[w], want ? want : "CUPTI or why not", tree ? tree : "(no file)");
        free(tree);
        remove(path);
    }
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(prof_add), TILE_OPTS(.meta = {{"BLOCK", 128}}), "sm_90a", &ptx2));
    TT_CHECK(ptx0 && ptx2 && strcmp(ptx0, ptx2) == 0, "the PTX after a \"clock\" profile differs from the PTX before it");
    tile_free_text(ptx0), tile_free_text(ptx1), tile_free_text(ptx2);
    snprintf(path, sizeof path, "%s/err", dir);
    EXPECT_PROFILE_ERR(tile_profile_start(path, "tree,clocks"), "unknown format \"clocks\"");
    EXPECT_PROFILE_ERR(tile_profile_start(path, "clock,json,cupti"), "\"clock\" and \"cupti\"");
    TT_CHECK(!tile_profile_running(), "a failed start left a profile running");
}

/* test_profile --exit-child PATH: starts a profile, launches, and leaves by
   exit() with no stop (a new process by exec: a CUDA driver does not carry
   over a fork) */
static int exit_child(const char *path) {
    if (tile_profile_start(path, "tree,json") != TILE_OK) return 5;
    float *x = (float *)tile_malloc(sizeof hx), *out = (float *)tile_malloc(sizeof hx);
    if (!x || !out || tile_memcpy_htod(x, hx, sizeof hx) != TILE_OK) return 6;
    TILE_SCOPE("child") {
        if (prof_scale(TILE_OPTS(.grid = {tile_cdiv(N, 64)}), x, out, N, 2.0f) != TILE_OK) return 7;
    }
    exit(3);   /* no stop: the atexit handler writes the report */
}
/* run this program again with these arguments; its exit status */
static int run_self(const char *self, const char *a1, const char *a2) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        execl(self, self, a1, a2, (char *)NULL);
        _exit(9);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* test_profile --env-child, with TILE_PROFILE set: one launch, no profile call */
static int env_child(void) {
    float *a = (float *)tile_malloc(sizeof hx), *b = (float *)tile_malloc(sizeof hx);
    if (!a || !b || tile_memcpy_htod(a, hx, sizeof hx) != TILE_OK || tile_memcpy_htod(b, hx, sizeof hx) != TILE_OK) return 1;
    if (prof_add(TILE_OPTS(.grid = {tile_cdiv(N, 128)}, .meta = {{"BLOCK", 128}}), a, a, b, N) != TILE_OK) return 1;
    if (!tile_profile_running()) return 2;
    tile_free(a), tile_free(b);
    return 0;   /* the report is written at exit */
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--env-child") == 0) return env_child();
    if (argc > 2 && strcmp(argv[1], "--exit-child") == 0) return exit_child(argv[2]);
    tt_seed();
    char tmpl[] = "/tmp/tile_profile.XXXXXX", dir[1024], path[1200], buf[512];
    int own = argc < 2;
    if (own) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/tile_profile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            snprintf(dir, sizeof dir, "%s", tmpl);
            if (!mkdtemp(dir)) {
                printf("FAIL: no temporary directory\n");
                return 1;
            }
        }
    } else {
        snprintf(dir, sizeof dir, "%s", argv[1]);
        mkdir(dir, 0700);
    }
    printf("outputs in %s (back end %s)\n", dir, tile_backend_name());
    dx = (float *)tile_malloc(sizeof hx), dy = (float *)tile_malloc(sizeof hy), dout = (float *)tile_malloc(sizeof hx);
    if (!dx || !dy || !dout) {
        printf("FAIL: tile_malloc: %s\n", tile_last_error());
        return 1;
    }
    for (int i = 0; i < N; i++) hx[i] = (float)tt_uniform(-1, 1), hy[i] = (float)tt_uniform(-1, 1);
    TT_OK(tile_memcpy_htod(dx, hx, sizeof hx));
    TT_OK(tile_memcpy_htod(dy, hy, sizeof hy));
    TT_OK(tile_kernel_metrics(TILE_KERNEL_OF(prof_scale), scale_metrics, &metrics_calls));

    /* 1. no profile: nothing recorded, nothing reported, the PTX of a kernel is what it is with one */
    TT_CHECK(!tile_profile_running(), "a profile runs before any start");
    TILE_SCOPE("unprofiled") run_scale(dout, N, 3.0f);
    TT_CHECK(metrics_calls == 0, "the metrics function ran without a profile (%d calls)", metrics_calls);
    char *ptx0 = NULL, *ptx1 = NULL;
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(prof_add), TILE_OPTS(.meta = {{"BLOCK", 128}}), "sm_90a", &ptx0));

    /* 2. the profile */
    snprintf(path, sizeof path, "%s/main", dir);
    TT_OK(tile_profile_start(path, NULL));
    TT_CHECK(tile_profile_running(), "no profile runs after the start");
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(prof_add), TILE_OPTS(.meta = {{"BLOCK", 128}}), "sm_90a", &ptx1));
    TT_CHECK(ptx0 && ptx1 && strcmp(ptx0, ptx1) == 0, "the PTX differs with a profile running");
    tile_free_text(ptx0), tile_free_text(ptx1);
    TILE_SCOPE("setup") run_add(dout, N, TILE_OPTS(.grid = {tile_cdiv(N, 256)}, .meta = {{"BLOCK", 256}}, .flops = N, .bytes = 12.0 * N));
    TT_OK(tile_scope_begin("outer", .bytes = 1e6));
    TT_OK(tile_scope_begin("inner"));
    run_scale(dout, N, 1.5f);
    TT_OK(tile_scope_end("inner"));
    TILE_SCOPE("tuned") run_add(dout, N, TILE_OPTS(.tune = &add_tuner));
    TT_OK(tile_scope_end("outer"));
    pthread_t th[4];
    for (int w = 0; w < 4; w++) TT_CHECK(pthread_create(&th[w], NULL, worker, (void *)(intptr_t)w) == 0, "pthread_create");
    for (int w = 0; w < 4; w++) pthread_join(th[w], NULL);
    /* in-kernel scopes: 2 programs of 2 warps */
    static float kout[128];
    tt_poison(kout, sizeof kout);
    TT_OK(tile_memcpy_htod(dout, kout, sizeof kout));
    TT_OK(prof_inner(TILE_OPTS(.grid = {2}, .num_warps = 2), dx, dout));
    TT_OK(tile_memcpy_dtoh(kout, dout, sizeof kout));
    int wrong = 0;
    for (int i = 0; i < 128; i++) wrong += kout[i] != (float)((double)hx[i] * 8.0);
    TT_CHECK(wrong == 0, "prof_inner: %d of 128 elements wrong", wrong);
    /* a failing launch is kept, with its status */
    tile_status st = prof_bad(TILE_OPTS(.grid = {1}), dx, dout);
    TT_CHECK(st == TILE_ERR_SHAPE, "prof_bad returned %s, want TILE_ERR_SHAPE", tile_status_id(st));
    tile_clear_error();
    TT_CHECK(metrics_calls == 1 + 4 * 3, "the metrics function ran %d times, want 13 (one per profiled prof_scale launch)", metrics_calls);
    TT_OK(tile_profile_stop());
    TT_CHECK(!tile_profile_running(), "the profile still runs after its stop");

    /* the tree: the kernels under their scopes, with the counts of calls */
    snprintf(path, sizeof path, "%s/main.txt", dir);
    char *tree = slurp(path);
    TT_CHECK(tree && strstr(tree, "tile profile: ") && strstr(tree, "(all)"), "no tree in %s", path);
    int nlaunch = 0, nscope = 0;   /* the tuner's launches depend on the disk cache: counted from the report */
    if (tree && sscanf(tree, "tile profile: %d launch%*[es,] %d scope", &nlaunch, &nscope) != 2) nlaunch = nscope = -1000;
    int nrec = nlaunch + nscope;
    TT_CHECK(nscope == 21, "the report has %d scopes, want 21", nscope);
    const char *l;
    l = tree_line(tree, "worker", buf, sizeof buf);
    TT_CHECK(l && strstr(l, " 4 "), "the worker scope is not 4 calls: %s", l ? l : "(none)");
    l = tree_line(tree, "- step", buf, sizeof buf);
    TT_CHECK(l && strstr(l, " 12 "), "the step scope is not 12 calls: %s", l ? l : "(none)");
    l = tree_line(tree, "prof_add [BLOCK=128 w4 s3]", buf, sizeof buf);
    TT_CHECK(l && strstr(l, " 12 "), "prof_add under step is not 12 calls: %s", l ? l : "(none)");
    l = tree_line(tree, "autotune prof_add", buf, sizeof buf);
    TT_CHECK(l != NULL, "no tuner scope in the tree");
    l = tree_line(tree, "prof_bad", buf, sizeof buf);
    TT_CHECK(l && strstr(l, " 1 "), "the failed launch is not in the tree: %s", l ? l : "(none)");
    free(tree);
    snprintf(path, sizeof path, "%s/main.json", dir);
    char *json = slurp(path);
    TT_CHECK(json && strstr(json, "\"status\":\"TILE_ERR_SHAPE\""), "the failed launch's status is not in the trace");
    free(json);
    snprintf(path, sizeof path, "%s/main.html", dir);
    TT_CHECK(has_file(path), "no page at %s", path);
    /* what profile_check.py expects of main.json */
    snprintf(path, sizeof path, "%s/expect.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "threads 5\nscope worker 4\nscope step 12\nscope setup 1\nscope outer 1\nscope inner 1\nscope tuned 1\n");
        fprintf(f, "kernel prof_scale 13\nkernel_min prof_add 14\nfailed prof_bad 1\nmetric prof_scale flops %d\n", N);
        fprintf(f, "inkernel outer 4\ninkernel inner 12\n");
        fclose(f);
    }

    /* the NVTX ranges, when TILE_NVTX names tests/nvtx_fake.c's library (CTest
       sets it): every scope and launch of the profile, balanced, none before it */
    const char *nvtx = getenv("TILE_NVTX");
    void *fake = nvtx && *nvtx && strcmp(nvtx, "0") != 0 ? dlopen(nvtx, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *sym = fake ? dlsym(fake, "nvtx_fake_log") : NULL;
    if (sym) {
        const char *(*get)(void);
        memcpy(&get, &sym, sizeof get);
        const char *log = get();
        int push = 0, pop = 0;
        for (const char *p = log; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) push += *p == '+', pop += *p == '-';
        TT_CHECK(push > 0 && push == pop, "NVTX: %d pushes, %d pops", push, pop);
        TT_CHECK(push == nrec, "NVTX: %d ranges, want %d (the report's scopes and launches)", push, nrec);
        TT_CHECK(strstr(log, "+outer 0\n+inner 1\n+prof_scale 2\n- 2\n- 1\n") && strstr(log, "+worker 0\n+step 1\n+prof_add 2\n- 2\n") &&
                     strstr(log, "+autotune prof_add 2\n") && !strstr(log, "unprofiled"),
                 "NVTX: the ranges are not the profile's scopes and launches:\n%.2000s", log);
        printf("NVTX ranges checked: %d, through %s\n", push, nvtx);
    } else {
        printf("NVTX ranges not checked: TILE_NVTX does not name tests/nvtx_fake.c's library (CTest's test_profile sets it)\n");
    }
    if (fake) dlclose(fake);

    /* 3. the user errors */
    errors(dir);
    /* 4. what times the kernels */
    timing(dir);

    /* 5. a profile the program leaves by exit(): started by a call, then by TILE_PROFILE */
    snprintf(path, sizeof path, "%s/exit", dir);
    int rc = run_self(argv[0], "--exit-child", path);
    TT_CHECK(rc == 3, "the child exited with %d", rc);
    snprintf(path, sizeof path, "%s/exit.json", dir);
    json = slurp(path);
    TT_CHECK(json && strstr(json, "\"prof_scale\"") && strstr(json, "\"child\""), "exit(): the report lacks the launch or the scope");
    free(json);
    snprintf(path, sizeof path, "%s/env", dir);
    setenv("TILE_PROFILE", path, 1);
    /* the knob is read once per process: the child reads it fresh only if
       this process has not; it has, so the child re-reads it by exec */
    rc = run_self(argv[0], "--env-child", NULL);
    TT_CHECK(rc == 0, "the TILE_PROFILE child exited with %d", rc);
    unsetenv("TILE_PROFILE");
    for (int i = 0; i < 3; i++) {
        static const char *const ext[] = {".txt", ".json", ".html"};
        snprintf(path, sizeof path, "%s/env%s", dir, ext[i]);
        TT_CHECK(has_file(path), "TILE_PROFILE: no %s", path);
    }
    snprintf(path, sizeof path, "%s/env.json", dir);
    json = slurp(path);
    TT_CHECK(json && strstr(json, "\"prof_add\""), "TILE_PROFILE: the report lacks the launch");
    free(json);

    tile_free(dx), tile_free(dy), tile_free(dout);
    if (own) {
        static const char *const names[] = {"main.txt", "main.json", "main.html", "expect.txt", "err.json", "exit.txt", "exit.json", "env.txt", "env.json", "env.html"};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            remove(path);
        }
        rmdir(dir);
    }
    return tt_finish("test_profile");
}
