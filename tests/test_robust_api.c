/* tests/test_robust_api.c — bad input to the host API, and what outlives a
   launch (issue 16, the runtime's part).

   - must-fail cases in the style of test_errors.c: NULL kernels, options,
     arguments and out-pointers to every public entry point, memory calls
     from and to NULL, sizes that wrap or that no machine has, stream and
     event calls with NULL; each asserts the error id, the user's file:line
     where one is known, the kernel, a key phrase and exactly one message,
     then launches a correct kernel and checks its result
   - the tuner: every config failing is one message (which configs, the
     first reason); a config that does not build is skipped; one tuner
     shared by two kernels launched from two threads (build this file with
     -fsanitize=thread once to see that it is race-free)
   - device error records (the GPU's tl_device_assert and loop-step checks):
     which checks a kernel's code has, and the host-side decoding of a
     record into the error of the right kernel and line; the GPU run itself
     is in test_cuda.c (the child "device records")
   - knobs: a bad TILE_ARCH is one notice and leaves interpreter launches
     alone, a bad architecture is the same error through NVRTC and LLVM,
     and every other knob with a bad value is one notice naming it; each in
     a child process, since knobs are read once per process

   `test_robust_api NAME...` runs only the named must-fail cases and parts
   (knobs, accepted, tuner, shared, checks). */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the logger: count messages, keep the last ------------------------------------ */
static int n_msgs;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static void count_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
    pthread_mutex_lock(&log_lock);
    n_msgs++;
    pthread_mutex_unlock(&log_lock);
}

/* ---- kernels ---------------------------------------------------------------------- */
/* out = x + 1 */
TILE_KERNEL(inc_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_add(tl_load(tl_add(x, offs), .mask = mask), 1.0f), .mask = mask);
}
/* out = a * x + y, with n at a parameter index inc_kernel does not have */
TILE_KERNEL(axpy_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_f32, a), (tl_i32, pad), (tl_i32, n)) {
    (void)pad;
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t v = tl_add(tl_mul(tl_load(tl_add(x, offs), .mask = mask), a), tl_load(tl_add(y, offs), .mask = mask));
    tl_store(tl_add(out, offs), v, .mask = mask);
}
/* no meta-parameters: NULL options are all defaults */
TILE_KERNEL(plain_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_store(tl_add(out, offs), tl_mul(tl_load(tl_add(x, offs)), 2.0f));
}
/* checks the device makes: a loop whose step is an argument, a user assert
   with the library's own words, a loop with a constant step */
static int L_step_loop, L_fake_assert;
TILE_KERNEL(step_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, step)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, 4, step, acc) { L_step_loop = __LINE__;
        acc = tl_add(acc, tl_load(tl_add(x, offs)));
    }
    tl_store(tl_add(out, offs), acc);
}
TILE_KERNEL(fake_step_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_device_assert(tl_lt(offs, n), "TL_FOR step must be positive"); L_fake_assert = __LINE__;
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs)));
}
TILE_KERNEL(const_step_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, 4, 2, acc) {
        acc = tl_add(acc, tl_load(tl_add(x, offs)));
    }
    tl_store(tl_add(out, offs), acc);
}

#define GN 512
static float *gx, *gy, *gout;
static float hbuf[GN];

/* out = x + 1 for a random n; lanes past n stay poisoned; no message */
static void check_good(const char *after) {
    int n = (int)tt_int(1, GN);
    for (int i = 0; i < GN; i++) hbuf[i] = (float)tt_uniform(-2, 2);
    TT_OK(tile_memcpy_htod(gx, hbuf, sizeof hbuf));
    TT_OK(tile_memset(gout, 0xA5, GN * sizeof(float)));
    n_msgs = 0;
    TT_OK(inc_kernel(TILE_OPTS(.grid = {tile_cdiv(n, 64)}, .meta = {{"BLOCK", 64}}), gx, gout, n));
    static float got[GN];
    TT_OK(tile_memcpy_dtoh(got, gout, sizeof got));
    TT_CHECK(n_msgs == 0, "after %s: a correct launch logged %d messages", after, n_msgs);
    int bad = 0;
    unsigned char pois[sizeof(float)];
    tt_poison(pois, sizeof pois);
    for (int i = 0; i < GN; i++) bad += i < n ? got[i] != hbuf[i] + 1.0f : memcmp(&got[i], pois, sizeof pois) != 0;
    TT_CHECK(bad == 0, "inc_kernel after %s: %d of %d elements wrong", after, bad, GN);
}

/* ---- the tuners --------------------------------------------------------------------- */
static void tune_grid(const tile_tune_args *a, unsigned g[3]) { g[0] = tile_cdiv(tile_tune_int(a, "n"), tile_tune_meta(a, "BLOCK")); }
static const tile_autotune_config bad_warps[] = {
    {.meta = {{"BLOCK", 64}}, .num_warps = 3},
    {.meta = {{"BLOCK", 128}}, .num_warps = 3},
};
static const tile_autotune_config bad_blocks[] = {
    {.meta = {{"BLOCK", 48}}},
    {.meta = {{"BLOCK", 96}}},
};
static const tile_autotune_config one_bad_block[] = {
    {.meta = {{"BLOCK", 48}}},
    {.meta = {{"BLOCK", 64}}},
};
static const tile_autotune_config good_configs[] = {
    {.meta = {{"BLOCK", 32}}},
    {.meta = {{"BLOCK", 64}}},
};
static tile_autotuner tuner_bad_warps = {TILE_AUTOTUNE_CONFIGS(bad_warps), .key = {"n"}, .grid = tune_grid, .bench = {.no_flush = 1}};
static tile_autotuner tuner_bad_blocks = {TILE_AUTOTUNE_CONFIGS(bad_blocks), .key = {"n"}, .grid = tune_grid, .bench = {.no_flush = 1}};
static tile_autotuner tuner_one_bad = {TILE_AUTOTUNE_CONFIGS(one_bad_block), .key = {"n"}, .grid = tune_grid, .bench = {.no_flush = 1}};
static tile_autotuner tuner_plain = {TILE_AUTOTUNE_CONFIGS(good_configs), .key = {"n"}, .grid = tune_grid, .bench = {.no_flush = 1}};
/* shared by inc_kernel and axpy_kernel */
static tile_autotuner tuner_shared = {TILE_AUTOTUNE_CONFIGS(good_configs), .key = {"n"}, .grid = tune_grid, .bench = {.no_flush = 1}};

static tile_status bench_nothing(void *u) {
    (void)u;
    return TILE_OK;
}

/* ---- the must-fail runners ------------------------------------------------------------ */
static int L_launch_null_kernel, L_launch_null_args, L_ir_null_kernel, L_ir_null_out, L_ptx_null_kernel, L_ptx_null_out;
static int L_kernel_bad_nparams, L_kernel_null_params, L_kernel_null_body, L_kernel_null_name;
static int L_tune_null_args, L_tune_null_tuner, L_tune_null_kernel, L_tune_best_null_out;
static int L_tune_all_fail_launch, L_tune_all_fail_build;

static tile_status run_launch_null_kernel(void) {
    const tile_arg args[] = {{.p = gx}, {.p = gout}, {.i = 64}};
    tile_status st = tile_launch_kernel(NULL, TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}}), args); L_launch_null_kernel = __LINE__;
    return st;
}
static tile_status run_launch_null_args(void) {
    tile_status st = tile_launch_kernel(TILE_KERNEL_OF(inc_kernel), TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}}), NULL); L_launch_null_args = __LINE__;
    return st;
}
static tile_status run_ir_null_kernel(void) {
    char *text = (char *)1;
    tile_status st = tile_kernel_ir(NULL, TILE_OPTS(.meta = {{"BLOCK", 64}}), &text); L_ir_null_kernel = __LINE__;
    TT_CHECK(text == NULL, "ir_null_kernel: the text is not NULL after the error");
    return st;
}
static tile_status run_ir_null_out(void) {
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(inc_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}}), NULL); L_ir_null_out = __LINE__;
    return st;
}
static tile_status run_ptx_null_kernel(void) {
    char *ptx = (char *)1;
    tile_status st = tile_kernel_ptx(NULL, TILE_OPTS(.meta = {{"BLOCK", 64}}), "sm_80", &ptx); L_ptx_null_kernel = __LINE__;
    TT_CHECK(ptx == NULL, "ptx_null_kernel: the PTX is not NULL after the error");
    return st;
}
static tile_status run_ptx_null_out(void) {
    tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(inc_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}}), "sm_80", NULL); L_ptx_null_out = __LINE__;
    return st;
}
/* a kernel object that TILE_KERNEL did not make: one field broken */
static tile_kernel broken;
static tile_status launch_broken(int *line) {
    tile_arg args[3] = {{.p = gx}, {.p = gout}, {.i = 64}};
    tile_status st = tile_launch_kernel(&broken, TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}}), args); *line = __LINE__;
    return st;
}
static tile_status run_kernel_bad_nparams(void) {
    broken = *TILE_KERNEL_OF(inc_kernel);
    broken.nparams = -1;
    return launch_broken(&L_kernel_bad_nparams);
}
static tile_status run_kernel_null_params(void) {
    broken = *TILE_KERNEL_OF(inc_kernel);
    broken.params = NULL;
    return launch_broken(&L_kernel_null_params);
}
static tile_status run_kernel_null_body(void) {
    broken = *TILE_KERNEL_OF(inc_kernel);
    broken.body = NULL;
    return launch_broken(&L_kernel_null_body);
}
static tile_status run_kernel_null_name(void) {
    broken = *TILE_KERNEL_OF(inc_kernel);
    broken.name = NULL;
    return launch_broken(&L_kernel_null_name);
}
static tile_status run_typed_null_opts(void) {
    /* NULL options are the defaults: no BLOCK, so the body's TL_META fails */
    return inc_kernel(NULL, gx, gout, 64);
}
static tile_status run_tune_null_args(void) {
    tile_status st = tile_autotune_launch(&tuner_plain, TILE_KERNEL_OF(inc_kernel), TILE_OPTS(), NULL); L_tune_null_args = __LINE__;
    return st;
}
static tile_status run_tune_null_tuner(void) {
    const tile_arg args[] = {{.p = gx}, {.p = gout}, {.i = 64}};
    tile_status st = tile_autotune_launch(NULL, TILE_KERNEL_OF(inc_kernel), TILE_OPTS(), args); L_tune_null_tuner = __LINE__;
    return st;
}
static tile_status run_tune_null_kernel(void) {
    const tile_arg args[] = {{.p = gx}, {.p = gout}, {.i = 64}};
    tile_status st = tile_autotune_launch(&tuner_plain, NULL, TILE_OPTS(), args); L_tune_null_kernel = __LINE__;
    return st;
}
static tile_status run_tune_best_null_out(void) {
    const tile_arg args[] = {{.p = gx}, {.p = gout}, {.i = 64}};
    tile_status st = tile_autotune_best(&tuner_plain, TILE_KERNEL_OF(inc_kernel), TILE_OPTS(), args, NULL); L_tune_best_null_out = __LINE__;
    return st;
}
static tile_status run_tune_all_fail_launch(void) {
    tile_status st = inc_kernel(TILE_OPTS(.tune = &tuner_bad_warps), gx, gout, 100); L_tune_all_fail_launch = __LINE__;
    return st;
}
static tile_status run_tune_all_fail_build(void) {
    tile_status st = inc_kernel(TILE_OPTS(.tune = &tuner_bad_blocks), gx, gout, 100); L_tune_all_fail_build = __LINE__;
    return st;
}
static tile_status run_htod_null_src(void) { return tile_memcpy_htod(gx, NULL, 64); }
static tile_status run_htod_null_dst(void) { return tile_memcpy_htod(NULL, hbuf, 64); }
static tile_status run_dtoh_null_dst(void) { return tile_memcpy_dtoh(NULL, gx, 64); }
static tile_status run_dtoh_null_src(void) { return tile_memcpy_dtoh(hbuf, NULL, 64); }
static tile_status run_dtod_null_src(void) { return tile_memcpy_dtod(gx, NULL, 64); }
static tile_status run_dtod_null_dst(void) { return tile_memcpy_dtod(NULL, gx, 64); }
static tile_status run_memset_null(void) { return tile_memset(NULL, 0, 64); }
/* sizes that wrap the end of the address space past an allocation's start */
static tile_status run_htod_wrap(void) { return tile_memcpy_htod(gx + 2, hbuf, SIZE_MAX - 4); }
static tile_status run_dtoh_wrap(void) { return tile_memcpy_dtoh(hbuf, gx + 2, SIZE_MAX - 4); }
static tile_status run_dtod_wrap(void) { return tile_memcpy_dtod(gy, gx + 2, SIZE_MAX - 4); }
static tile_status run_memset_wrap(void) { return tile_memset(gx + 2, 0, SIZE_MAX - 4); }
static tile_status malloc_fails(size_t bytes) {
    tile_clear_error();
    void *p = tile_malloc(bytes);
    TT_CHECK(p == NULL, "tile_malloc(%zu) returned %p", bytes, p);
    if (p) {
        tile_free(p);
        return TILE_OK;
    }
    return tile_last_error_info()->status;
}
static tile_status run_malloc_max(void) { return malloc_fails(SIZE_MAX); }
static tile_status run_malloc_wrap(void) { return malloc_fails(SIZE_MAX - 31); }
static tile_status run_malloc_huge(void) { return malloc_fails((size_t)1 << 62); }
static tile_status run_stream_create_null(void) { return tile_stream_create(NULL); }
static tile_status run_event_create_null(void) { return tile_event_create(NULL); }
static tile_status run_event_record_null(void) { return tile_event_record(NULL, NULL); }
static tile_status run_event_sync_null(void) { return tile_event_synchronize(NULL); }
static tile_status run_event_elapsed_null(void) {
    tile_event a = NULL;
    tile_status st = tile_event_create(&a);
    if (st != TILE_OK) return TILE_ERR_INTERNAL;
    n_msgs = 0;
    st = tile_event_elapsed_ms(a, a, NULL);
    tile_event_destroy(a);
    return st;
}
static tile_status run_device_name_null(void) { return tile_device_name(NULL, 16); }
static tile_status run_bench_null_fn(void) {
    tile_bench_result r;
    return tile_do_bench(NULL, NULL, NULL, &r);
}
static tile_status run_bench_null_out(void) { return tile_do_bench(bench_nothing, NULL, NULL, NULL); }
static tile_status run_tune_int_null(void) {
    tile_clear_error();
    long long v = tile_tune_int(NULL, "n");
    TT_CHECK(v == 0, "tile_tune_int(NULL) = %lld", v);
    return tile_last_error_info()->status;
}
static tile_status run_tune_meta_null_name(void) {
    const tile_arg args[] = {{.p = gx}, {.p = gout}, {.i = 64}};
    tile_tune_args a = {TILE_KERNEL_OF(inc_kernel), args, TILE_OPTS(), NULL};
    tile_clear_error();
    long long v = tile_tune_int(&a, NULL);
    TT_CHECK(v == 0, "tile_tune_int(a, NULL) = %lld", v);
    return tile_last_error_info()->status;
}

/* ---- the table ------------------------------------------------------------------------- */
typedef struct tcase {
    const char *name;
    tile_status want;
    int *line;               /* the line the error names (a launch site); NULL: none */
    const char *kernel;      /* the kernel the error names; "" none */
    tile_status (*run)(void);
    const char *phrase;      /* in the message */
} tcase;
#define C(name, id, line, kernel, phrase) {#name, TILE_ERR_##id, line, kernel, run_##name, phrase}
static const tcase cases[] = {
    C(launch_null_kernel, VALUE, &L_launch_null_kernel, "", "NULL"),
    C(launch_null_args, VALUE, &L_launch_null_args, "inc_kernel", "arguments"),
    C(ir_null_kernel, VALUE, &L_ir_null_kernel, "", "NULL"),
    C(ir_null_out, VALUE, &L_ir_null_out, "inc_kernel", "NULL"),
    C(ptx_null_kernel, VALUE, &L_ptx_null_kernel, "", "NULL"),
    C(ptx_null_out, VALUE, &L_ptx_null_out, "inc_kernel", "NULL"),
    C(kernel_bad_nparams, VALUE, &L_kernel_bad_nparams, "inc_kernel", "TILE_KERNEL"),
    C(kernel_null_params, VALUE, &L_kernel_null_params, "inc_kernel", "TILE_KERNEL"),
    C(kernel_null_body, VALUE, &L_kernel_null_body, "inc_kernel", "TILE_KERNEL"),
    C(kernel_null_name, VALUE, &L_kernel_null_name, "", "TILE_KERNEL"),
    C(typed_null_opts, META, NULL, "inc_kernel", "BLOCK"),
    C(tune_null_args, VALUE, &L_tune_null_args, "inc_kernel", "arguments"),
    C(tune_null_tuner, VALUE, &L_tune_null_tuner, "inc_kernel", "NULL"),
    C(tune_null_kernel, VALUE, &L_tune_null_kernel, "", "NULL"),
    C(tune_best_null_out, VALUE, &L_tune_best_null_out, "inc_kernel", "NULL"),
    C(tune_all_fail_launch, LAUNCH, &L_tune_all_fail_launch, "inc_kernel", "num_warps = 3"),
    C(tune_all_fail_build, BLOCK, &L_tune_all_fail_build, "inc_kernel", "power of two"),
    C(htod_null_src, VALUE, NULL, "", "NULL"),
    C(htod_null_dst, VALUE, NULL, "", "NULL"),
    C(dtoh_null_dst, VALUE, NULL, "", "NULL"),
    C(dtoh_null_src, VALUE, NULL, "", "NULL"),
    C(dtod_null_src, VALUE, NULL, "", "NULL"),
    C(dtod_null_dst, VALUE, NULL, "", "NULL"),
    C(memset_null, VALUE, NULL, "", "NULL"),
    C(htod_wrap, ARG, NULL, "", "tile_malloc"),
    C(dtoh_wrap, ARG, NULL, "", "tile_malloc"),
    C(dtod_wrap, ARG, NULL, "", "tile_malloc"),
    C(memset_wrap, ARG, NULL, "", "tile_malloc"),
    C(malloc_max, NOMEM, NULL, "", "tile_malloc"),
    C(malloc_wrap, NOMEM, NULL, "", "tile_malloc"),
    C(malloc_huge, NOMEM, NULL, "", "tile_malloc"),
    C(stream_create_null, VALUE, NULL, "", "NULL"),
    C(event_create_null, VALUE, NULL, "", "NULL"),
    C(event_record_null, VALUE, NULL, "", "NULL"),
    C(event_sync_null, VALUE, NULL, "", "NULL"),
    C(event_elapsed_null, VALUE, NULL, "", "NULL"),
    C(device_name_null, VALUE, NULL, "", "buffer"),
    C(bench_null_fn, VALUE, NULL, "", "NULL"),
    C(bench_null_out, VALUE, NULL, "", "NULL"),
    C(tune_int_null, VALUE, NULL, "", "NULL"),
    C(tune_meta_null_name, VALUE, NULL, "inc_kernel", "NULL"),
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}
/* the error just reported is this case's: id, file:line, kernel, phrase, one message */
static void expect_error(const tcase *c, tile_status st, const tile_error *e) {
    int line = c->line ? *c->line : 0;
    TT_CHECK(st == c->want && e->status == c->want, "%s: returned %s (last error %s), want %s [%s] (%d messages)", c->name, tile_status_id(st), e->id,
             tile_status_id(c->want), e->message, n_msgs);
    if (st != c->want || e->status != c->want) return;
    if (getenv("TEST_ERRORS_VERBOSE")) printf("  %-24s %s\n", c->name, e->message);
    TT_CHECK(!c->line || line > 0, "%s: the call's line was never reached", c->name);
    if (c->line) {
        TT_CHECK(e->line == line, "%s: error at line %d, want line %d [%s]", c->name, e->line, line, e->message);
        TT_CHECK(ends_with(e->file, "test_robust_api.c"), "%s: error names file \"%s\"", c->name, e->file);
    }
    TT_CHECK(strcmp(e->kernel, c->kernel) == 0, "%s: error names kernel \"%s\", want \"%s\"", c->name, e->kernel, c->kernel);
    TT_CHECK(strstr(e->message, c->phrase) != NULL, "%s: message lacks \"%s\": %s", c->name, c->phrase, e->message);
    TT_CHECK(strstr(e->message, e->id) != NULL, "%s: message lacks its id: %s", c->name, e->message);
    TT_CHECK(n_msgs == 1, "%s: %d messages logged for one mistake (last: %s)", c->name, n_msgs, e->message);
}
static void run_case(const tcase *c) {
    if (c->line) *c->line = 0;
    tile_clear_error();
    n_msgs = 0;
    tile_status st = c->run();
    expect_error(c, st, tile_last_error_info());
    check_good(c->name);
}

/* ---- what must work ----------------------------------------------------------------------- */
static void check_accepted(void) {
    /* NULL options are the defaults; size 0 from and to NULL is nothing */
    const tile_arg args[] = {{.p = gx}, {.p = gout}};
    char *text = NULL;
    n_msgs = 0;
    TT_OK(tile_launch_kernel(TILE_KERNEL_OF(plain_kernel), NULL, args));
    TT_OK(tile_kernel_ir(TILE_KERNEL_OF(plain_kernel), NULL, &text));
    TT_CHECK(text && strstr(text, "plain_kernel"), "tile_kernel_ir with NULL options gave no IR");
    tile_free_text(text);
    TT_OK(tile_memcpy_htod(gx, NULL, 0));
    TT_OK(tile_memcpy_dtoh(NULL, gx, 0));
    TT_OK(tile_memcpy_dtod(NULL, NULL, 0));
    TT_OK(tile_memset(NULL, 0, 0));
    TT_OK(tile_stream_destroy(NULL));
    TT_OK(tile_event_destroy(NULL));
    TT_OK(tile_free(NULL));
    TT_CHECK(n_msgs == 0, "accepted calls logged %d messages", n_msgs);
    /* the registry's arithmetic: the last byte of an allocation is inside, one past is not */
    void *p = tile_malloc(100);
    TT_CHECK(p != NULL, "tile_malloc(100) failed");
    if (p) {
        TT_OK(tile_memset((char *)p + 99, 1, 1));
        n_msgs = 0;
        TT_CHECK(tile_memset((char *)p + 99, 1, 2) == TILE_ERR_ARG && n_msgs == 1, "a memset one byte past an allocation passed");
        tile_free(p);
    }
    /* quantiles: NULL and q outside [0, 1] stay inside the array */
    float sorted[3] = {1, 2, 3};
    TT_CHECK(tile_quantile(NULL, 3, 0.5) == 0, "tile_quantile(NULL) is not 0");
    TT_CHECK(tile_quantile(sorted, 3, 2.0) == 3 && tile_quantile(sorted, 3, -1.0) == 1, "tile_quantile does not clamp q to [0, 1]");
    TT_CHECK(tile_quantile(sorted, 3, NAN) == 1, "tile_quantile(NaN) is not the first element");
    /* tile_cdiv: no division by zero, no wrap */
    TT_CHECK(tile_cdiv(5, 0) == 0 && tile_cdiv(-200, 64) == 0 && tile_cdiv(100, 64) == 2, "tile_cdiv(5, 0) = %u, (-200, 64) = %u, (100, 64) = %u",
             tile_cdiv(5, 0), tile_cdiv(-200, 64), tile_cdiv(100, 64));
    /* tile_round_to: integers wrap, also from doubles beyond int64 (no undefined conversion) */
    TT_CHECK(tile_round_to(TL_I8, 300) == 44 && tile_round_to(TL_U8, -1) == 255 && tile_round_to(TL_I32, 1e30) == 0 &&
                 tile_round_to(TL_I64, NAN) == 0 && tile_round_to(TL_U64, -1e19) == 18446744073709551616.0 - 1e19,
             "tile_round_to: %g %g %g %g", tile_round_to(TL_I8, 300), tile_round_to(TL_U8, -1), tile_round_to(TL_I32, 1e30), tile_round_to(TL_U64, -1e19));
    tile_cache_stats_get(NULL);
    TT_CHECK(tile_meta_of(NULL, "BLOCK") == 0 && tile_meta_of(TILE_OPTS(.meta = {{"BLOCK", 8}}), NULL) == 0, "tile_meta_of with NULL");
    check_good("accepted calls");
}

/* ---- the tuner -------------------------------------------------------------------------------- */
static int L_tune_summary;
static void check_tuner(void) {
    /* all configs failing: one message naming each config and the first reason */
    tile_clear_error();
    n_msgs = 0;
    tile_status st = inc_kernel(TILE_OPTS(.tune = &tuner_bad_warps), gx, gout, 200); L_tune_summary = __LINE__;
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == TILE_ERR_LAUNCH && n_msgs == 1, "all configs failing: %s with %d messages: %s", tile_status_id(st), n_msgs, e->message);
    TT_CHECK(e->line == L_tune_summary, "all configs failing: the error is at line %d, want %d", e->line, L_tune_summary);
    TT_CHECK(strstr(e->message, "BLOCK=64") && strstr(e->message, "BLOCK=128"), "the message does not name both configs: %s", e->message);
    check_good("every config failing");
    /* a config that fails to build is skipped; the other one wins */
    n_msgs = 0;
    for (int i = 0; i < GN; i++) hbuf[i] = (float)i;
    TT_OK(tile_memcpy_htod(gx, hbuf, sizeof hbuf));
    TT_OK(inc_kernel(TILE_OPTS(.tune = &tuner_one_bad), gx, gout, 300));
    TT_CHECK(n_msgs == 0, "a tuner with one config that does not build logged %d messages: %s", n_msgs, tile_last_error());
    static float got[GN];
    TT_OK(tile_memcpy_dtoh(got, gout, sizeof got));
    int bad = 0;
    for (int i = 0; i < 300; i++) bad += got[i] != (float)i + 1.0f;
    TT_CHECK(bad == 0, "the winner of a tuner with one bad config computed %d wrong elements", bad);
    tile_launch best;
    const tile_arg args[] = {{.p = gx}, {.p = gout}, {.i = 300}};
    TT_OK(tile_autotune_best(&tuner_one_bad, TILE_KERNEL_OF(inc_kernel), TILE_OPTS(), args, &best));
    TT_CHECK(tile_meta_of(&best, "BLOCK") == 64, "the winner is BLOCK=%lld, want 64 (48 does not build)", tile_meta_of(&best, "BLOCK"));
    check_good("a config that does not build");
}

/* One tuner, two kernels with the key at different parameter positions,
   two threads, new keys all along (each one tunes). */
enum { SHARED_ROUNDS = 12 };
typedef struct shared_job {
    int which;
    float *x, *y, *out;
    int failures;
    char first[1152];   /* a line and a whole message */
} shared_job;
static void *shared_thread(void *p) {
    shared_job *j = (shared_job *)p;
    static float host[2][GN];
    float *h = host[j->which];
    for (int r = 0; r < SHARED_ROUNDS; r++) {
        int n = 64 + 31 * r + j->which;
        tile_status st = j->which == 0 ? inc_kernel(TILE_OPTS(.tune = &tuner_shared), j->x, j->out, n)
                                       : axpy_kernel(TILE_OPTS(.tune = &tuner_shared), j->x, j->y, j->out, 2.0f, 7, n);
        if (st == TILE_OK) st = tile_memcpy_dtoh(h, j->out, sizeof host[0]);
        int bad = st != TILE_OK;
        for (int i = 0; i < n && !bad; i++) bad = h[i] != (j->which == 0 ? (float)i + 1.0f : 2.0f * (float)i + 1.0f);
        if (bad && !j->failures++) snprintf(j->first, sizeof j->first, "round %d (n %d): %s %s", r, n, tile_status_id(st), tile_last_error());
    }
    return NULL;
}
static void check_shared_tuner(void) {
    float *x2 = (float *)tile_malloc(GN * sizeof(float)), *y2 = (float *)tile_malloc(GN * sizeof(float)), *o2 = (float *)tile_malloc(GN * sizeof(float));
    TT_CHECK(x2 && y2 && o2, "tile_malloc failed");
    if (!x2 || !y2 || !o2) return;
    for (int i = 0; i < GN; i++) hbuf[i] = (float)i;
    TT_OK(tile_memcpy_htod(gx, hbuf, sizeof hbuf));
    TT_OK(tile_memcpy_htod(x2, hbuf, sizeof hbuf));
    for (int i = 0; i < GN; i++) hbuf[i] = 1.0f;
    TT_OK(tile_memcpy_htod(y2, hbuf, sizeof hbuf));
    shared_job jobs[2] = {{0, gx, NULL, gout, 0, ""}, {1, x2, y2, o2, 0, ""}};
    pthread_t th[2];
    int started[2];
    n_msgs = 0;
    for (int t = 0; t < 2; t++) started[t] = pthread_create(&th[t], NULL, shared_thread, &jobs[t]) == 0;
    for (int t = 0; t < 2; t++)
        if (started[t]) pthread_join(th[t], NULL);
    TT_CHECK(started[0] && started[1], "pthread_create failed");
    for (int t = 0; t < 2; t++) TT_CHECK(jobs[t].failures == 0, "shared tuner, %s: %d rounds failed; the first: %s", t ? "axpy_kernel" : "inc_kernel", jobs[t].failures, jobs[t].first);
    TT_CHECK(n_msgs == 0, "the shared tuner logged %d messages", n_msgs);
    tile_cache_stats cs;
    tile_cache_stats_get(&cs);
    printf("shared tuner: %d rounds on each of two threads, %ld keys tuned in all\n", SHARED_ROUNDS, cs.tunings);
    tile_free(x2);
    tile_free(y2);
    tile_free(o2);
    check_good("a shared tuner");
}

/* ---- device error records (host side) ------------------------------------------------------- */
/* which checks a kernel's CUDA C has (bit 0: a user's tl_device_assert, so
   the launch waits; bit 1: a check of the library's own, read later) */
static int kernel_checks(tile_kernel *k) {
    tile__func f;
    char *src = NULL;
    tile__config cfg;
    tile__kernel_meta meta;
    int flags = -1;
    if (tile__build(k, TILE_OPTS(), &f) != TILE_OK) return -1;
    tile__plan plan;
    if (tile__config_resolve(k, TILE_OPTS(), NULL, "sm_80", &cfg) == TILE_OK && tile__plan_build(&f, &cfg, 0, &plan) == TILE_OK) {
        if (tile__cuda_source(&f, &cfg, &plan, &src, &meta) == TILE_OK) flags = meta.has_assert;
        tile__plan_free(&plan);
    }
    TILE_FREE(src);
    tile__func_free(&f);
    return flags;
}
static void check_device_checks(void) {
    int s = kernel_checks(TILE_KERNEL_OF(step_kernel)), a = kernel_checks(TILE_KERNEL_OF(fake_step_kernel)),
        c = kernel_checks(TILE_KERNEL_OF(const_step_kernel));
    TT_CHECK(s == 2, "a loop with a step from an argument: checks %d, want 2 (the library's, read later)", s);
    TT_CHECK(a == 1, "a user's assert with the library's words: checks %d, want 1 (a user assert: the launch waits)", a);
    TT_CHECK(c == 0, "a loop with a constant step: checks %d, want 0 (nothing to record)", c);
}

/* A record as the device writes it, decoded and reported on the host: the
   right kernel, file, line and message, one message; the kind decides. */
static int op_index(const tile__func *f, tile__opcode code) {
    for (int i = 0; i < f->nops; i++)
        if (!f->ops[i].dead && f->ops[i].code == code) return i;
    return -1;
}
static void expect_record(const char *what, const int *rec, const tile__rec_site *site, int later, tile_status want, int line, const char *kernel,
                          const char *phrase) {
    tile__rec_error e;
    tile__rec_decode(rec, site, later, &e);
    tile_clear_error();
    n_msgs = 0;
    tile_status st = tile__rec_report(&e);
    const tile_error *info = tile_last_error_info();
    TT_CHECK(st == want && info->status == want && n_msgs == 1, "record %s: %s with %d messages, want %s: %s", what, tile_status_id(st), n_msgs,
             tile_status_id(want), info->message);
    TT_CHECK(info->line == line && ends_with(info->file, "test_robust_api.c"), "record %s: at %s:%d, want line %d", what, info->file, info->line, line);
    TT_CHECK(strcmp(info->kernel, kernel) == 0, "record %s: kernel \"%s\", want \"%s\"", what, info->kernel, kernel);
    TT_CHECK(strstr(info->message, phrase) != NULL, "record %s: the message lacks \"%s\": %s", what, phrase, info->message);
    TT_CHECK(strstr(info->message, "launched at user.c:42") != NULL, "record %s: the launch site is not named: %s", what, info->message);
}
static void check_records(void) {
    tile__func fs, fa;
    TT_OK(tile__build(TILE_KERNEL_OF(step_kernel), TILE_OPTS(), &fs));
    TT_OK(tile__build(TILE_KERNEL_OF(fake_step_kernel), TILE_OPTS(), &fa));
    int loop = op_index(&fs, TILE__OP_FOR), as = op_index(&fa, TILE__OP_ASSERT);
    TT_CHECK(loop >= 0 && as >= 0, "no TL_FOR or no tl_device_assert op in the IR");
    tile__rec_site s = {&fs, TILE_KERNEL_OF(step_kernel), "step_kernel", "", "user.c", 42};
    tile__rec_site a = {&fa, TILE_KERNEL_OF(fake_step_kernel), "fake_step_kernel", "", "user.c", 42};
    snprintf(s.kfile, sizeof s.kfile, "%s", TILE_KERNEL_OF(step_kernel)->file);
    snprintf(a.kfile, sizeof a.kfile, "%s", TILE_KERNEL_OF(fake_step_kernel)->file);
    const int step[8] = {TILE__CHECK_STEP, L_step_loop, loop, 3, 1, 0, 0, 0};
    const int user[8] = {TILE__CHECK_ASSERT, L_fake_assert, as, 5, 0, 0, 0, 0};
    const int step_at_assert[8] = {TILE__CHECK_STEP, L_fake_assert, as, 0, 0, 0, 0, 0};
    const int odd[8] = {7, L_step_loop, loop, 0, 0, 0, 0, 0};
    expect_record("step", step, &s, 0, TILE_ERR_VALUE, L_step_loop, "step_kernel", "TL_FOR step must be positive (program (3,1,0))");
    expect_record("step, with later failures", step, &s, 2, TILE_ERR_VALUE, L_step_loop, "step_kernel", "2 later launches failed as well");
    /* a user's assert that reads like the library's check is the user's */
    expect_record("user assert", user, &a, 0, TILE_ERR_ASSERT, L_fake_assert, "fake_step_kernel",
                  "tl_device_assert failed in program (5,0,0): TL_FOR step must be positive");
    /* the kind decides, whatever op the check index names */
    expect_record("step kind at an assert", step_at_assert, &a, 0, TILE_ERR_VALUE, L_fake_assert, "fake_step_kernel", "TL_FOR step must be positive");
    expect_record("unknown kind", odd, &s, 0, TILE_ERR_INTERNAL, L_step_loop, "step_kernel", "unknown kind 7");
    /* the kernel released before its record was read: still its name and line */
    a.f = NULL;
    expect_record("released kernel", user, &a, 0, TILE_ERR_ASSERT, L_fake_assert, "fake_step_kernel", "released");
    tile__func_free(&fs);
    tile__func_free(&fa);
    /* without a GPU there are no records: reading them is nothing */
    n_msgs = 0;
    if (!tile__gpu_mode()) TT_CHECK(tile__rec_collect(0) == TILE_OK && tile_synchronize() == TILE_OK && n_msgs == 0, "reading no records failed");
    check_good("device records");
}

/* ---- knobs, in child processes ----------------------------------------------------------------- */
typedef void (*child_fn)(const char *errfile);
static char tmpdir[64];

/* Run fn in a child with the environment pairs set (NULL value: unset) and
   its stderr in a file; the child's checks count as one here. */
static void in_child(const char *name, const char *const *env, child_fn fn) {
    char errfile[128];
    snprintf(errfile, sizeof errfile, "%s/%s.stderr", tmpdir, name);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        TT_CHECK(0, "%s: fork failed", name);
        return;
    }
    if (pid == 0) {
        for (int i = 0; env[i]; i += 2) {
            if (env[i + 1]) setenv(env[i], env[i + 1], 1);
            else unsetenv(env[i]);
        }
        int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 2) < 0) _exit(2);
        close(fd);
        tt_failures = 0;
        fn(errfile);
        fflush(stdout);
        _exit(tt_failures ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    TT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: the child failed (status %d)", name, status);
}
/* the child's stderr so far (static buffer) */
static const char *child_stderr(const char *errfile) {
    static char text[1 << 16];
    fflush(stderr);
    FILE *fp = fopen(errfile, "r");
    size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    if (fp) fclose(fp);
    text[n] = 0;
    return text;
}
/* lines of text that start with "tile: " and name `what` */
static int notices(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        if (strncmp(line, "tile: ", 6) == 0 && strstr(line, what)) n++;
        p += len + (e != NULL);
    }
    return n;
}
static int can_compile(void) { return tile__ext_mode() || tile__nvrtc_available(); }

/* TILE_ARCH=<bad> in the interpreter with TILE_DUMP=ptx: launches work, one notice */
static void child_bad_arch(const char *errfile) {
    const char *arch = getenv("TILE_ARCH");
    tile_set_log(count_log, NULL);
    if (!can_compile()) {
        printf("  bad TILE_ARCH: skipped: neither NVRTC nor LLVM loads here\n");
        return;
    }
    float *x = (float *)tile_malloc(256 * sizeof(float)), *out = (float *)tile_malloc(256 * sizeof(float));
    static float h[256], got[256];
    for (int i = 0; i < 256; i++) h[i] = (float)i;
    TT_OK(tile_memcpy_htod(x, h, sizeof h));
    TT_OK(inc_kernel(TILE_OPTS(.grid = {4}, .meta = {{"BLOCK", 64}}), x, out, 256));
    TT_OK(inc_kernel(TILE_OPTS(.grid = {2}, .meta = {{"BLOCK", 128}}), x, out, 256));
    TT_OK(tile_memcpy_dtoh(got, out, sizeof got));
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += got[i] != h[i] + 1.0f;
    TT_CHECK(bad == 0, "TILE_ARCH=%s: the interpreter computed %d wrong elements", arch, bad);
    /* TILE_ARCH is where no arch is given: the notice is not repeated, the default is used */
    char *ptx = NULL;
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(inc_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}}), NULL, &ptx));
    TT_CHECK(ptx && strstr(ptx, ".target sm_90a"), "TILE_ARCH=%s: tile_kernel_ptx(NULL arch) is not for sm_90a", arch);
    tile_free_text(ptx);
    TT_CHECK(n_msgs == 0, "TILE_ARCH=%s: %d errors: %s", arch, n_msgs, tile_last_error());
    const char *err = child_stderr(errfile);
    char what[64];
    snprintf(what, sizeof what, "TILE_ARCH=%s", arch);
    TT_CHECK(notices(err, what) == 1, "TILE_ARCH=%s: %d notices naming it, want 1; stderr:\n%s", arch, notices(err, what), err);
    TT_CHECK(!strstr(err, "not a recognized processor"), "TILE_ARCH=%s: LLVM complained: %s", arch, err);
    printf("  TILE_ARCH=%s (%s): %.*s\n", arch, tile__ext_mode() ? "llvm" : "nvrtc", (int)strcspn(err, "\n"), err);
    tile_free(x);
    tile_free(out);
}
/* an explicit bad arch is the same error through either back end */
static void child_arch_arg(const char *errfile) {
    tile_set_log(count_log, NULL);
    if (!can_compile()) {
        printf("  bad arch argument: skipped: neither NVRTC nor LLVM loads here\n");
        return;
    }
    static const char *const bad[] = {"sm_99", "sm_9", "banana", "sm_90b", "sm_100000"};
    for (int i = 0; i < (int)(sizeof bad / sizeof *bad); i++) {
        char *ptx = (char *)1;
        int line;
        n_msgs = 0;
        tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(inc_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}}), bad[i], &ptx); line = __LINE__;
        const tile_error *e = tile_last_error_info();
        TT_CHECK(st == TILE_ERR_VALUE && n_msgs == 1 && ptx == NULL, "arch %s (%s): %s, %d messages, PTX %p: %s", bad[i], tile_backend_name(),
                 tile_status_id(st), n_msgs, (void *)ptx, e->message);
        TT_CHECK(e->line == line && strstr(e->message, bad[i]), "arch %s: the error is not at the call's line %d or does not name it: %s", bad[i], line,
                 e->message);
        if (i == 0) printf("  arch %s (%s): %s\n", bad[i], tile__ext_mode() ? "llvm" : "nvrtc", e->message);
    }
    char *ptx = NULL;
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(inc_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}}), "sm_80", &ptx));
    TT_CHECK(ptx && strstr(ptx, ".target sm_80"), "sm_80 PTX");
    tile_free_text(ptx);
    const char *err = child_stderr(errfile);
    TT_CHECK(!strstr(err, "not a recognized processor"), "LLVM complained: %s", err);
}
/* every knob with a bad value: one notice naming it */
static const char *const bad_knobs[] = {"TILE_DUMP", "TILE_SYNC", "TILE_MANAGED", "TILE_WGMMA", "TILE_CACHE", "TILE_AUTOTUNE_VERBOSE",
                                        "TILE_DEBUG", "TILE_DUMP_DIR", "TILE_INTERPRET", "TILE_BACKEND", "TILE_MERGE", "TILE_LLVM_OPT",
                                        "TILE_LLVM_CODEGEN", "TILE_INTERPRET_DEVICES", NULL};
static void child_bad_knobs(const char *errfile) {
    tile_set_log(count_log, NULL);
    /* read every knob: a launch, a compile, the cache directory */
    float *x = (float *)tile_malloc(64 * sizeof(float)), *out = (float *)tile_malloc(64 * sizeof(float));
    TT_OK(tile_memset(x, 0, 64 * sizeof(float)));
    TT_OK(plain_kernel(TILE_OPTS(), x, out));
    TT_OK(plain_kernel(TILE_OPTS(), x, out));
    TT_OK(tile_set_device(0));   /* the devices there are: TILE_INTERPRET_DEVICES's count, read */
    (void)tile_cache_dir();
    if (can_compile()) {
        char *ptx = NULL;
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(plain_kernel), TILE_OPTS(), "sm_80", &ptx));
        tile_free_text(ptx);
    }
    TT_CHECK(n_msgs == 0, "bad knobs: %d errors: %s", n_msgs, tile_last_error());
    const char *err = child_stderr(errfile);
    for (int i = 0; bad_knobs[i]; i++) {
        char what[64];
        snprintf(what, sizeof what, "%s=", bad_knobs[i]);
        TT_CHECK(notices(err, what) == 1, "%s: %d notices naming it, want 1; stderr:\n%s", bad_knobs[i], notices(err, what), err);
    }
    tile_free(x);
    tile_free(out);
}
/* TILE_LLVM that does not load: one notice, NVRTC compiles */
static void child_bad_llvm(const char *errfile) {
    tile_set_log(count_log, NULL);
    char *ptx = NULL;
    if (!tile__nvrtc_available()) {
        printf("  bad TILE_LLVM: skipped: NVRTC does not load here\n");
        return;
    }
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(plain_kernel), TILE_OPTS(), "sm_80", &ptx));
    tile_free_text(ptx);
    TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(plain_kernel), TILE_OPTS(), "sm_80", &ptx));
    tile_free_text(ptx);
    const char *err = child_stderr(errfile);
    TT_CHECK(notices(err, "TILE_LLVM=/nonexistent/libLLVM.so") == 1, "TILE_LLVM: %d notices, want 1; stderr:\n%s", notices(err, "TILE_LLVM="), err);
}

/* TILE_DUMP=knobs: once, every knob of the table with its value */
static void child_dump_knobs(const char *errfile) {
    tile_set_log(count_log, NULL);
    float *x = (float *)tile_malloc(64 * sizeof(float)), *out = (float *)tile_malloc(64 * sizeof(float));
    TT_OK(tile_memset(x, 0, 64 * sizeof(float)));
    TT_OK(plain_kernel(TILE_OPTS(), x, out));
    TT_OK(plain_kernel(TILE_OPTS(), x, out));
    const char *err = child_stderr(errfile);
    int dumps = 0;
    for (const char *p = strstr(err, "// ---- tile: knobs\n"); p; p = strstr(p + 1, "// ---- tile: knobs\n")) dumps++;
    TT_CHECK(dumps == 1, "TILE_DUMP=knobs: %d dumps, want 1; stderr:\n%s", dumps, err);
    int missing = 0;
#define KNOB_SEEN(name, kind, field, size, def, values, what) \
    if (!strstr(err, "\n" #name " ")) missing++, printf("  TILE_DUMP=knobs lacks %s\n", #name);
    TILE__KNOBS(KNOB_SEEN)
#undef KNOB_SEEN
    TT_CHECK(missing == 0, "TILE_DUMP=knobs: %d knobs of the table missing", missing);
    TT_CHECK(strstr(err, "\nTILE_DEBUG             1 ") && strstr(err, "\nTILE_CACHE_DIR         (unset)"),
             "TILE_DUMP=knobs: the values in use (TILE_DEBUG=yes is 1, TILE_CACHE_DIR unset); stderr:\n%s", err);
    tile_free(x);
    tile_free(out);
}

static void check_knobs(void) {
    char longdir[700];
    memset(longdir, 'd', sizeof longdir - 1);
    longdir[0] = '/';
    longdir[sizeof longdir - 1] = 0;
    static const char *const arch1[] = {"TILE_QUIET", NULL, "TILE_INTERPRET", "1", "TILE_ARCH", "sm_99", "TILE_DUMP", "ptx", "TILE_DUMP_DIR", tmpdir, NULL};
    static const char *const arch2[] = {"TILE_QUIET", NULL, "TILE_INTERPRET", "1", "TILE_ARCH", "banana", "TILE_DUMP", "ptx", "TILE_DUMP_DIR", tmpdir, NULL};
    static const char *const arg[] = {"TILE_QUIET", NULL, "TILE_INTERPRET", "1", NULL};
    const char *knobs[] = {"TILE_QUIET", NULL, "TILE_DUMP", "ir,bogus", "TILE_SYNC", "maybe", "TILE_MANAGED", "perhaps", "TILE_WGMMA", "fast",
                           "TILE_CACHE", "sometimes", "TILE_AUTOTUNE_VERBOSE", "loud", "TILE_DEBUG", "x", "TILE_DUMP_DIR", longdir,
                           "TILE_INTERPRET", "sure", "TILE_BACKEND", "bogus", "TILE_MERGE", "sometimes", "TILE_LLVM_OPT", "O3",
                           "TILE_LLVM_CODEGEN", "4", "TILE_INTERPRET_DEVICES", "17", NULL};
    static const char *const llvm[] = {"TILE_QUIET", NULL, "TILE_INTERPRET", "1", "TILE_BACKEND", NULL, "TILE_LLVM", "/nonexistent/libLLVM.so", NULL};
    in_child("bad_arch_sm_99", arch1, child_bad_arch);
    in_child("bad_arch_banana", arch2, child_bad_arch);
    in_child("arch_argument", arg, child_arch_arg);
    in_child("bad_knobs", knobs, child_bad_knobs);
    static const char *const dump[] = {"TILE_QUIET", NULL, "TILE_DUMP", "knobs", "TILE_DEBUG", "yes", "TILE_CACHE_DIR", NULL, "TILE_DUMP_DIR", NULL, NULL};
    in_child("dump_knobs", dump, child_dump_knobs);
    if (tile__ext) in_child("bad_llvm", llvm, child_bad_llvm);
    else printf("knobs: TILE_LLVM not checked: this program is built without tile_backend_llvm.c\n");
}

/* everything without arguments, else what is named */
static int wanted(int argc, char **argv, const char *name) {
    int want = argc == 1;
    for (int a = 1; a < argc; a++) want |= strcmp(argv[a], name) == 0;
    return want;
}

/* ---- specialization past the 32nd parameter ----------------------------------------------
   A kernel of 40 parameters, made by hand (TILE_KERNEL takes 24): pointers
   are specialized as divisible by 16 wherever they are (masks were 32 bits,
   so parameters 32 and up never were), which makes its loads and stores 16
   bytes wide; the same kernel with its pointers first is the yardstick. */
enum { WIDE_N = 40 };
static void wide_body_last(const tl_t *args) {
    tl_t offs = tl_arange(0, 512);
    tl_store(tl_add(args[WIDE_N - 1], offs), tl_load(tl_add(args[WIDE_N - 2], offs)));
}
static void wide_body_first(const tl_t *args) {
    tl_t offs = tl_arange(0, 512);
    tl_store(tl_add(args[1], offs), tl_load(tl_add(args[0], offs)));
}
static int wide_vector_ops(int last) {
    static tile_param params[2][WIDE_N];
    static const char *const names[WIDE_N] = {"p0",  "p1",  "p2",  "p3",  "p4",  "p5",  "p6",  "p7",  "p8",  "p9",  "p10", "p11", "p12", "p13",
                                              "p14", "p15", "p16", "p17", "p18", "p19", "p20", "p21", "p22", "p23", "p24", "p25", "p26", "p27",
                                              "p28", "p29", "p30", "p31", "p32", "p33", "p34", "p35", "p36", "p37", "p38", "p39"};
    tile_param *pp = params[last];
    for (int p = 0; p < WIDE_N; p++) {
        int ptr = last ? p >= WIDE_N - 2 : p < 2;
        pp[p].name = names[p];
        pp[p].dtype = ptr ? TL_PTR : TL_I32;
        pp[p].elem = ptr ? TL_F32 : TL_VOID;
    }
    tile_kernel k = {last ? "wide_last" : "wide_first", __FILE__, __LINE__, WIDE_N, pp, last ? wide_body_last : wide_body_first, NULL, NULL};
    char *ptx = NULL;
    tile_status st = tile_kernel_ptx(&k, TILE_OPTS(), "sm_80", &ptx);
    TT_CHECK(st == TILE_OK && ptx, "wide kernel (%s): %s: %s", last ? "pointers last" : "pointers first", tile_status_id(st), tile_last_error());
    int n = 0;
    for (const char *q = ptx ? strstr(ptx, ".v4.") : NULL; q; q = strstr(q + 1, ".v4.")) n++;
    tile_free_text(ptx);
    tile_kernel_release(&k);
    return n;
}
static void check_wide_spec(void) {
    if (!can_compile()) {
        printf("specialization past the 32nd parameter: skipped: neither NVRTC nor LLVM loads here\n");
        return;
    }
    int first = wide_vector_ops(0), last = wide_vector_ops(1);
    printf("a kernel of %d parameters: %d 16-byte accesses with its pointers first, %d with them last\n", WIDE_N, first, last);
    TT_CHECK(first > 0 && last == first, "pointers 38 and 39 of %d are specialized as pointers 0 and 1 are (%d 16-byte accesses, want %d)", WIDE_N,
             last, first);
}

int main(int argc, char **argv) {
    setenv("TILE_CACHE", "0", 1);
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/tile_robust_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        printf("mkdtemp failed\n");
        return 1;
    }
    tt_seed();
    if (wanted(argc, argv, "knobs")) check_knobs();   /* children first: each reads the knobs afresh */
    tile_set_log(count_log, NULL);
    gx = (float *)tile_malloc(GN * sizeof *gx);
    gy = (float *)tile_malloc(GN * sizeof *gy);
    gout = (float *)tile_malloc(GN * sizeof *gout);
    TT_CHECK(gx && gy && gout, "tile_malloc failed");
    if (!gx || !gy || !gout) return tt_finish("test_robust_api");
    check_good("nothing");
    int ran = 0;
    for (int k = 0; k < NCASES; k++)
        if (wanted(argc, argv, cases[k].name)) {
            run_case(&cases[k]);
            ran++;
        }
    printf("%d must-fail cases\n", ran);
    if (wanted(argc, argv, "accepted")) check_accepted();
    if (wanted(argc, argv, "tuner")) check_tuner();
    if (wanted(argc, argv, "shared")) check_shared_tuner();
    if (wanted(argc, argv, "wide")) check_wide_spec();
    if (wanted(argc, argv, "checks")) {
        check_device_checks();
        check_records();
    }
    tile_autotune_release(&tuner_bad_warps);
    tile_autotune_release(&tuner_bad_blocks);
    tile_autotune_release(&tuner_one_bad);
    tile_autotune_release(&tuner_plain);
    tile_autotune_release(&tuner_shared);
    tile_kernel_release(TILE_KERNEL_OF(inc_kernel));
    tile_kernel_release(TILE_KERNEL_OF(axpy_kernel));
    tile_kernel_release(TILE_KERNEL_OF(plain_kernel));
    tile_free(gx);
    tile_free(gy);
    tile_free(gout);
    tile_set_log(NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) printf("could not remove %s\n", tmpdir);
    return tt_finish("test_robust_api");
}
