/* tests/test_cuda.c — the CUDA driver and NVRTC layer (tile/cuda.h).

   Everywhere: NVRTC (when installed) compiles a tiny kernel to PTX for sm_80
   and sm_90a, and ptxas (when installed) assembles it; a bad source fails
   with NVRTC's log in the message; missing libraries fail cleanly; streams
   and events work in whichever mode the process is in. Each library is
   opened once per process, so the missing-library cases run in child
   processes forked before the parent opens anything.
   With a GPU: also load the PTX, launch it, copy back, opt into more than
   48 KiB of shared memory, provoke launch errors, use the context from
   another thread, and time launches with events; and see that a device
   check's failure is reported for its own launch (child_device_records).
   Without one it says so. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *k_src = "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n";

/* reverses x[0..blockDim.x) through shared memory and adds 1.0 read from
   beyond the first 64 KiB, so it only works when the opt-in was granted */
static const char *rev_src =
    "extern \"C\" __global__ void rev(float *x) {\n"
    "    extern __shared__ float buf[];\n"
    "    unsigned n = blockDim.x, t = threadIdx.x;\n"
    "    buf[t] = x[t];\n"
    "    buf[16384 + t] = 1.0f;\n"
    "    __syncthreads();\n"
    "    x[t] = buf[n - 1 - t] + buf[16384 + n - 1 - t];\n"
    "}\n";

/* TILE_QUIET is read once: expected errors are silenced by a log function */
static void silent(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}
static int contains(const char *hay, const char *needle) { return hay && needle && strstr(hay, needle) != NULL; }

/* ---- child processes: a library that cannot be found ---------------------------- */
typedef void (*child_fn)(void);

/* Run fn in a child with `var`=`value` set; the child's checks count as one. */
static void in_child(const char *name, const char *var, const char *value, child_fn fn) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        TT_CHECK(0, "%s: fork failed", name);
        return;
    }
    if (pid == 0) {
        setenv(var, value, 1);
        setenv("TILE_QUIET", "1", 1);
        tt_failures = 0;
        fn();
        fflush(stdout);
        _exit(tt_failures ? 1 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    TT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: the child failed (status %d)", name, status);
}

static void child_missing_nvrtc(void) {
    char *ptx = NULL, *log = NULL;
    TT_CHECK(!tile__nvrtc_available(), "NVRTC loaded from TILE_NVRTC=/nonexistent");
    tile_status st = tile__nvrtc_compile(k_src, "k", "sm_80", &ptx, &log);
    TT_CHECK(st == TILE_ERR_COMPILE, "missing NVRTC gave %s", tile_status_id(st));
    TT_CHECK(contains(tile_last_error(), "TILE_NVRTC=/nonexistent/libnvrtc.so"), "message: %s", tile_last_error());
    TT_CHECK(ptx == NULL && log == NULL, "outputs set on failure");
    printf("  missing NVRTC: %s\n", tile_last_error());
}

static void child_missing_driver(void) {
    void *d = (void *)1;
    TT_CHECK(!tile__cu_available(), "driver loaded from TILE_CUDA=/nonexistent");
    TT_CHECK(tile_device_count() == 0, "tile_device_count() = %d without a driver", tile_device_count());
    tile_status st = tile__cu_init();
    TT_CHECK(st == TILE_ERR_NODEVICE, "tile__cu_init gave %s", tile_status_id(st));
    TT_CHECK(contains(tile_last_error(), "TILE_CUDA=/nonexistent/libcuda.so.1"), "message: %s", tile_last_error());
    printf("  missing driver: %s\n", tile_last_error());
    st = tile__cu_alloc(64, &d, "user.c", 7);
    TT_CHECK(st == TILE_ERR_NODEVICE && d == NULL, "tile__cu_alloc without a driver gave %s", tile_status_id(st));
    TT_CHECK(tile_last_error_info()->line == 7 && strcmp(tile_last_error_info()->file, "user.c") == 0,
             "the user's line is not in the error: %s", tile_last_error());
    char name[64];
    TT_OK(tile_device_name(name, sizeof name));
    TT_CHECK(contains(name, "interpreter"), "device name without a driver: %s", name);
}

static void child_stub_driver(void) {
    tile_status st = tile__cu_init();
    TT_CHECK(st == TILE_ERR_NODEVICE, "the stub libcuda gave %s", tile_status_id(st));
    TT_CHECK(contains(tile_last_error(), "stub"), "message does not say stub: %s", tile_last_error());
    printf("  stub driver: %s\n", tile_last_error());
}

static void child_bad_device(void) {
    tile_status st = tile__cu_init();
    if (tile_device_count() == 0) return; /* no driver: nothing to choose from */
    TT_CHECK(st == TILE_ERR_NODEVICE, "TILE_DEVICE=999 gave %s", tile_status_id(st));
    TT_CHECK(contains(tile_last_error(), "TILE_DEVICE=999"), "message: %s", tile_last_error());
    printf("  bad device: %s\n", tile_last_error());
}

/* ---- device error records: each failure belongs to its launch (GPU only) ---------------
   In a child without TILE_SYNC, so that launches do not wait: a TL_FOR
   step <= 0 is the library's own check, a tl_device_assert the user's. */
static int L_neg_loop, L_words_assert;
TILE_KERNEL(neg_step, (tl_ptr_f32, out), (tl_i32, step)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, 4, step, acc) { L_neg_loop = __LINE__;
        acc = tl_add(acc, 1.0f);
    }
    tl_store(tl_add(out, offs), acc);
}
TILE_KERNEL(words_assert, (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_device_assert(tl_lt(offs, n), "TL_FOR step must be positive"); L_words_assert = __LINE__;
    tl_store(tl_add(out, offs), tl_cast(offs, TL_F32));
}
TILE_KERNEL(fill_kernel, (tl_ptr_f32, out), (tl_f32, v)) {
    tl_t offs = tl_arange(0, 64);
    tl_store(tl_add(out, offs), tl_add(tl_zeros(TL_F32, 64), v));
}
static int rec_msgs;
static void rec_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
    rec_msgs++;
}
/* the error just reported is a failure of `kernel` at `line`, launched at `launch` */
static void expect_rec(const char *what, tile_status st, tile_status want, const char *kernel, int line, int launch, const char *phrase) {
    const tile_error *e = tile_last_error_info();
    char site[64];
    snprintf(site, sizeof site, "test_cuda.c:%d", launch);
    TT_CHECK(st == want && e->status == want, "%s: %s, want %s: %s", what, tile_status_id(st), tile_status_id(want), e->message);
    TT_CHECK(strcmp(e->kernel, kernel) == 0 && e->line == line && contains(e->file, "test_cuda.c"), "%s: at %s:%d in \"%s\", want line %d in %s", what,
             e->file, e->line, e->kernel, line, kernel);
    TT_CHECK(contains(e->message, phrase) && contains(e->message, site), "%s: the message lacks \"%s\" or the launch site %s: %s", what, phrase, site,
             e->message);
}
static void child_device_records(void) {
    if (!tile__cu_available()) {
        printf("  device records: skipped: no GPU (%s)\n", tile__cu_st.why);
        return;
    }
    tile_set_log(rec_log, NULL);
    float *out = (float *)tile_malloc(64 * sizeof(float)), host[64];
    tile_stream s = NULL;
    int line, bad = 0;
    tile_status st;
    TT_OK(tile_stream_create(&s));
    /* 1. the launch returns; the next synchronization reports it, for its kernel and line */
    rec_msgs = 0;
    st = neg_step(TILE_OPTS(), out, -1); line = __LINE__;
    TT_CHECK(st == TILE_OK, "a launch that does not wait returned %s", tile_status_id(st));
    st = tile_synchronize();
    expect_rec("negative step, tile_synchronize", st, TILE_ERR_VALUE, "neg_step", L_neg_loop, line, "TL_FOR step must be positive");
    TT_CHECK(rec_msgs == 1, "negative step: %d messages", rec_msgs);
    /* the record was cleared: a correct launch and the next synchronization are clean */
    rec_msgs = 0;
    TT_OK(fill_kernel(TILE_OPTS(), out, 2.0f));
    TT_OK(tile_synchronize());
    TT_OK(tile_memcpy_dtoh(host, out, sizeof host));
    for (int i = 0; i < 64; i++) bad += host[i] != 2.0f;
    TT_CHECK(bad == 0 && rec_msgs == 0, "after a reported failure: %d wrong elements, %d messages", bad, rec_msgs);
    /* 2. another kernel's launch next: the failure is still neg_step's, reported once */
    rec_msgs = 0;
    TT_OK(neg_step(TILE_OPTS(), out, -2)); line = __LINE__;
    tile_status a = fill_kernel(TILE_OPTS(), out, 3.0f), b = tile_synchronize();
    expect_rec("negative step, then another launch", a != TILE_OK ? a : b, TILE_ERR_VALUE, "neg_step", L_neg_loop, line, "TL_FOR step must be positive");
    TT_CHECK((a == TILE_OK) != (b == TILE_OK) && rec_msgs == 1, "the next launch gave %s, the sync %s, %d messages", tile_status_id(a), tile_status_id(b),
             rec_msgs);
    TT_OK(tile_memcpy_dtoh(host, out, sizeof host));
    bad = 0;
    for (int i = 0; i < 64; i++) bad += host[i] != (a == TILE_OK ? 3.0f : 2.0f);
    TT_CHECK(bad == 0, "the launch after a failed one: %d wrong elements (it %s)", bad, a == TILE_OK ? "ran" : "reported the failure");
    /* 3. a user's assert in the library's words is the user's: the launch waits and reports it */
    rec_msgs = 0;
    st = words_assert(TILE_OPTS(), out, 32); line = __LINE__;
    expect_rec("a user's assert in the library's words", st, TILE_ERR_ASSERT, "words_assert", L_words_assert, line, "tl_device_assert failed");
    TT_CHECK(contains(tile_last_error(), "TL_FOR step must be positive"), "the user's message is not in the error: %s", tile_last_error());
    TT_OK(tile_synchronize());
    TT_CHECK(rec_msgs == 1, "a user's assert: %d messages", rec_msgs);
    /* 4. on a stream, read at the stream's synchronization; and at a copy back */
    rec_msgs = 0;
    st = neg_step(TILE_OPTS(.stream = s), out, 0); line = __LINE__;
    TT_CHECK(st == TILE_OK, "a launch on a stream returned %s", tile_status_id(st));
    expect_rec("negative step, stream synchronize", tile_stream_synchronize(s), TILE_ERR_VALUE, "neg_step", L_neg_loop, line, "(program (0,0,0))");
    st = neg_step(TILE_OPTS(.grid = {3}), out, -1); line = __LINE__;
    expect_rec("negative step, copy back", tile_memcpy_dtoh(host, out, sizeof host), TILE_ERR_VALUE, "neg_step", L_neg_loop, line, "TL_FOR step");
    TT_CHECK(rec_msgs == 2, "stream and copy: %d messages", rec_msgs);
    /* 5. more launches in flight than records: one failure among 300, reported once */
    rec_msgs = 0;
    int errors = 0;
    for (int i = 0; i < 300; i++) errors += neg_step(TILE_OPTS(), out, i == 250 ? -1 : 1) != TILE_OK;
    errors += tile_synchronize() != TILE_OK;
    TT_CHECK(errors == 1 && rec_msgs == 1, "300 launches, one failing: %d errors, %d messages (last: %s)", errors, rec_msgs, tile_last_error());
    /* 6. the kernel released before its record is read (after it finished:
       the driver's own wait reads no record): its name and line stay */
    rec_msgs = 0;
    TT_OK(neg_step(TILE_OPTS(), out, -1)); line = __LINE__;
    TT_OK(tile__cu_sync());
    tile_kernel_release(TILE_KERNEL_OF(neg_step));
    expect_rec("released before the sync", tile_synchronize(), TILE_ERR_VALUE, "neg_step", L_neg_loop, line, "TL_FOR step must be positive");
    TT_CHECK(rec_msgs == 1, "released kernel: %d messages", rec_msgs);
    rec_msgs = 0;
    TT_OK(fill_kernel(TILE_OPTS(), out, 1.0f));
    TT_OK(tile_synchronize());
    TT_CHECK(rec_msgs == 0, "the end: %d messages", rec_msgs);
    printf("  device records: 6 checks of launches without TILE_SYNC on %s\n", tile__cu_cur()->props.name);
    tile_kernel_release(TILE_KERNEL_OF(neg_step));
    tile_kernel_release(TILE_KERNEL_OF(words_assert));
    tile_kernel_release(TILE_KERNEL_OF(fill_kernel));
    TT_OK(tile_stream_destroy(s));
    TT_OK(tile_free(out));
    tile_set_log(NULL, NULL);
}

/* ---- NVRTC ---------------------------------------------------------------------------- */

/* Assemble PTX with ptxas when the toolkit has one: the PTX must be valid. */
static void ptxas_check(const char *ptx, const char *arch) {
    const char *ptxas = getenv("TILE_PTXAS") ? getenv("TILE_PTXAS") : "/usr/local/cuda/bin/ptxas";
    if (access(ptxas, X_OK) != 0) {
        printf("test_cuda: %s not found, ptxas check of %s skipped\n", ptxas, arch);
        return;
    }
    char path[] = "/tmp/tile_test_cuda_XXXXXX";
    int fd = mkstemp(path);
    TT_CHECK(fd >= 0, "mkstemp failed");
    if (fd < 0) return;
    size_t n = strlen(ptx);
    TT_CHECK(write(fd, ptx, n) == (ssize_t)n, "short write of the PTX");
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s -o /dev/null '%s'", ptxas, arch, path);
    int rc = system(cmd);
    TT_CHECK(rc == 0, "ptxas rejected the PTX for %s: %s", arch, cmd);
    unlink(path);
}

static void nvrtc_checks(void) {
    static const struct { const char *arch, *target; } targets[] = {{"sm_80", ".target sm_80"}, {"sm_90a", ".target sm_90a"}};
    int major = tile__nvrtc_st.major, minor = tile__nvrtc_st.minor;
    printf("NVRTC %d.%d from %s\n", major, minor, tile__nvrtc_st.path);
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
        char *ptx = NULL, *log = NULL;
        TT_OK(tile__nvrtc_compile(k_src, "k", targets[i].arch, &ptx, &log));
        TT_CHECK(contains(ptx, ".entry k("), "%s: no .entry k in the PTX", targets[i].arch);
        TT_CHECK(contains(ptx, targets[i].target), "%s: no %s in the PTX", targets[i].arch, targets[i].target);
        if (ptx) ptxas_check(ptx, targets[i].arch);
        free(ptx);
        free(log);
    }
    /* compute_XX is accepted as well, and NULL outputs are fine */
    TT_OK(tile__nvrtc_compile(k_src, "k", "compute_90a", NULL, NULL));

    /* a compile error: TILE_ERR_COMPILE with NVRTC's log in the message */
    char *ptx = (char *)1, *log = NULL;
    tile_set_log(silent, NULL);   /* the errors below are expected */
    tile_status st = tile__nvrtc_compile("extern \"C\" __global__ void bad(float *x) { x[0] = undefined_name; }\n", "bad",
                                         "sm_90a", &ptx, &log);
    TT_CHECK(st == TILE_ERR_COMPILE, "a bad source gave %s", tile_status_id(st));
    TT_CHECK(ptx == NULL, "PTX returned for a bad source");
    TT_CHECK(contains(tile_last_error(), "undefined_name"), "NVRTC's log is not in the message: %s", tile_last_error());
    TT_CHECK(contains(tile_last_error(), "bad.cu"), "the program is not named after the kernel: %s", tile_last_error());
    TT_CHECK(strcmp(tile_last_error_info()->kernel, "bad") == 0, "kernel = \"%s\"", tile_last_error_info()->kernel);
    TT_CHECK(contains(log, "undefined_name"), "the log is not returned: %s", log ? log : "(null)");
    free(log);

    /* an architecture that is not one */
    st = tile__nvrtc_compile(k_src, "k", "gfx90a", NULL, NULL);
    TT_CHECK(st == TILE_ERR_VALUE, "arch gfx90a gave %s", tile_status_id(st));
    st = tile__nvrtc_compile(k_src, "k", "sm_9", NULL, NULL);
    TT_CHECK(st == TILE_ERR_VALUE, "arch sm_9 gave %s", tile_status_id(st));
    tile_set_log(NULL, NULL);
}

/* ---- nvJitLink: PTX to cubin without the driver (tile__jl_ptx_to_cubin) ------------------ */
static void jitlink_checks(void) {
    char *ptx = NULL;
    TT_OK(tile__nvrtc_compile(k_src, "k", "sm_90a", &ptx, NULL));
    if (!ptx) return;
    size_t n = 0;
    unsigned char *cubin = (unsigned char *)tile__jl_ptx_to_cubin(ptx, "sm_90a", &n);
    if (!tile__jl_st.ok) {
        printf("test_cuda: libnvJitLink not found, its checks skipped\n");
        TT_CHECK(cubin == NULL && n == 0, "a cubin without nvJitLink");
        free(ptx);
        return;
    }
    printf("nvJitLink from %s\n", tile__jl_st.path);
    /* an ELF image with the kernel's name in it */
    TT_CHECK(cubin && n > 64 && memcmp(cubin, "\177ELF", 4) == 0, "nvJitLink's cubin is not an ELF image (%zu bytes)", n);
    int named = 0;
    for (size_t i = 0; cubin && i + 2 < n && !named; i++) named = cubin[i] == 'k' && cubin[i + 1] == 0 && i > 0 && cubin[i - 1] == 0;
    TT_CHECK(named, "no symbol k in nvJitLink's cubin");
    free(cubin);
    /* bad PTX, or not a real architecture: no cubin (the driver's JIT then reports it) */
    cubin = (unsigned char *)tile__jl_ptx_to_cubin(".version 8.0\n.target sm_90a\n.address_size 64\nnot ptx;\n", "sm_90a", &n);
    TT_CHECK(cubin == NULL && n == 0, "a cubin from bad PTX");
    cubin = (unsigned char *)tile__jl_ptx_to_cubin(ptx, "compute_90a", &n);
    TT_CHECK(cubin == NULL && n == 0, "a cubin for compute_90a");
    free(ptx);
}
/* TILE_JITLINK=0 (the default; main sets 1 for the rest): nvJitLink is not opened */
static void child_jitlink_off(void) {
    char *ptx = NULL;
    if (!tile__nvrtc_available() || tile__nvrtc_compile(k_src, "k", "sm_90a", &ptx, NULL) != TILE_OK) return;   /* nothing to assemble */
    size_t n = 1;
    void *cubin = tile__jl_ptx_to_cubin(ptx, "sm_90a", &n);
    TT_CHECK(cubin == NULL && n == 0, "nvJitLink made a cubin under TILE_JITLINK=0");
    TT_CHECK(!tile__jl_st.ok && !tile__jl_st.path[0], "nvJitLink was opened under TILE_JITLINK=0 (%s)", tile__jl_st.path);
    free(cubin);
    free(ptx);
}

/* ---- streams and events, in whichever mode this process runs -------------------------- */
static void host_event_checks(void) {
    tile_stream s = NULL;
    tile_event a = NULL, b = NULL, never = NULL;
    float ms = -1;
    TT_OK(tile_stream_create(&s));
    TT_OK(tile_event_create(&a));
    TT_OK(tile_event_create(&b));
    TT_OK(tile_event_create(&never));
    TT_OK(tile_event_record(a, s));
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
    TT_OK(tile_event_record(b, NULL));
    TT_OK(tile_event_synchronize(b));
    TT_OK(tile_event_elapsed_ms(a, b, &ms));
    TT_CHECK(ms >= 15.0f && ms < 5000.0f, "host events: %.3f ms across a 20 ms sleep", ms);
    tile_set_log(silent, NULL);   /* the errors below are expected */
    tile_status st = tile_event_elapsed_ms(a, never, &ms);
    TT_CHECK(st == TILE_ERR_VALUE, "an unrecorded event gave %s", tile_status_id(st));
    st = tile_stream_create(NULL);
    TT_CHECK(st == TILE_ERR_VALUE, "tile_stream_create(NULL) gave %s", tile_status_id(st));
    tile_set_log(NULL, NULL);
    TT_OK(tile_stream_synchronize(s));
    TT_OK(tile_stream_synchronize(NULL));
    TT_OK(tile_event_destroy(a));
    TT_OK(tile_event_destroy(b));
    TT_OK(tile_event_destroy(never));
    TT_OK(tile_event_destroy(NULL));
    TT_OK(tile_stream_destroy(s));
    TT_OK(tile_stream_destroy(NULL));
}

/* ---- the device ----------------------------------------------------------------------- */
static void *other_thread(void *arg) {
    int *ok = (int *)arg;
    float in[32], out[32];
    void *d = NULL;
    for (int i = 0; i < 32; i++) in[i] = (float)i;
    *ok = tile__cu_alloc(sizeof in, &d, __FILE__, __LINE__) == TILE_OK &&
          tile__cu_htod(d, in, sizeof in, __FILE__, __LINE__) == TILE_OK &&
          tile__cu_dtoh(out, d, sizeof out, __FILE__, __LINE__) == TILE_OK && memcmp(in, out, sizeof in) == 0 &&
          tile__cu_free(d, __FILE__, __LINE__) == TILE_OK;
    return NULL;
}

static void device_checks(void) {
    tile__cu_props p;
    char arch[16] = "", name[256] = "";
    TT_OK(tile__cu_get_props(&p));
    TT_OK(tile__cu_arch(arch, sizeof arch));
    printf("device %d of %d: %s, cc %d.%d -> %s, %d SMs, %d KiB shared memory opt-in, %d MiB L2, driver %d\n", p.ordinal,
           tile_device_count(), p.name, p.cc_major, p.cc_minor, arch, p.sm_count, p.smem_per_block_optin >> 10, p.l2_bytes >> 20,
           p.driver_version);
    TT_CHECK(p.sm_count > 0 && p.smem_per_block_optin >= 48 * 1024 && p.cc_major >= 5, "implausible properties");
    TT_CHECK(p.cc_major != 9 || p.cc_minor != 0 || strcmp(arch, "sm_90a") == 0, "cc 9.0 gives %s", arch);
    TT_OK(tile_device_name(name, sizeof name));
    TT_CHECK(strcmp(name, tile__gpu_mode() ? p.name : "interpreter (CPU)") == 0, "tile_device_name: %s, props: %s", name, p.name);
    size_t fr = 0, total = 0;
    TT_OK(tile__cu_mem_info(&fr, &total));
    TT_CHECK(total > 0 && fr <= total, "mem info: %zu free of %zu", fr, total);

    /* compile, load, launch, copy back */
    enum { N = 256 };
    float in[N], out[N];
    char *ptx = NULL, *log = NULL, jitlog[2048];
    CUmodule mod = NULL, mod2 = NULL;
    CUfunction fn = NULL, rev = NULL;
    void *d = NULL, *d2 = NULL;
    unsigned grid[3] = {1, 1, 1};
    for (int i = 0; i < N; i++) in[i] = (float)i - 100.0f;
    TT_OK(tile__nvrtc_compile(k_src, "k", arch, &ptx, &log));
    TT_OK(tile__cu_load(ptx, &mod, &fn, "k", jitlog, sizeof jitlog));
    TT_OK(tile__cu_alloc(sizeof in, &d, __FILE__, __LINE__));
    TT_OK(tile__cu_alloc(sizeof in, &d2, __FILE__, __LINE__));
    TT_OK(tile__cu_htod(d, in, sizeof in, __FILE__, __LINE__));
    void *args[] = {&d};
    TT_OK(tile__cu_launch(fn, grid, N, 0, NULL, args, __FILE__, __LINE__, "k"));
    tt_poison(out, sizeof out);
    TT_OK(tile__cu_dtoh(out, d, sizeof out, __FILE__, __LINE__));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != 2.0f * in[i];
    TT_CHECK(bad == 0, "k: %d of %d elements wrong (out[1] = %g)", bad, N, (double)out[1]);

    /* memset, device-to-device copy */
    TT_OK(tile__cu_memset(d2, 0, sizeof in, __FILE__, __LINE__));
    TT_OK(tile__cu_dtod(d2, d, sizeof in / 2, __FILE__, __LINE__));
    TT_OK(tile__cu_dtoh(out, d2, sizeof out, __FILE__, __LINE__));
    bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != (i < N / 2 ? 2.0f * in[i] : 0.0f);
    TT_CHECK(bad == 0, "memset + dtod: %d elements wrong", bad);

    /* unified memory: written and read by the host, doubled by the device */
    float *m = NULL;
    void *mp = NULL;
    TT_OK(tile__cu_alloc_managed(sizeof in, &mp, __FILE__, __LINE__));
    if ((m = (float *)mp) != NULL) {
        void *margs[] = {&mp};
        memcpy(m, in, sizeof in);
        TT_OK(tile__cu_launch(fn, grid, N, 0, NULL, margs, __FILE__, __LINE__, "k"));
        TT_OK(tile__cu_sync_at(__FILE__, __LINE__, "k"));
        bad = 0;
        for (int i = 0; i < N; i++) bad += m[i] != 2.0f * in[i];
        TT_CHECK(bad == 0, "managed memory: %d elements wrong", bad);
        TT_OK(tile__cu_free(mp, __FILE__, __LINE__));
    }

    /* more than 48 KiB of dynamic shared memory, twice (the second from the cache) */
    unsigned smem = 64 * 1024 + N * 4;
    free(ptx);
    free(log);
    TT_OK(tile__nvrtc_compile(rev_src, "rev", arch, &ptx, &log));
    TT_OK(tile__cu_load(ptx, &mod2, &rev, "rev", NULL, 0));
    if ((int)smem <= p.smem_per_block_optin) {
        for (int rep = 0; rep < 2; rep++) {
            TT_OK(tile__cu_htod(d, in, sizeof in, __FILE__, __LINE__));
            TT_OK(tile__cu_launch(rev, grid, N, smem, NULL, args, __FILE__, __LINE__, "rev"));
            TT_OK(tile__cu_dtoh(out, d, sizeof out, __FILE__, __LINE__));
            bad = 0;
            for (int i = 0; i < N; i++) bad += out[i] != in[N - 1 - i] + 1.0f;
            TT_CHECK(bad == 0, "rev with %u bytes of shared memory: %d elements wrong", smem, bad);
        }
    }
    /* errors: too much shared memory, too many threads, bad PTX */
    tile_set_log(silent, NULL);   /* the errors below are expected */
    int at = __LINE__ + 1;
    tile_status st = tile__cu_launch(rev, grid, N, (unsigned)p.smem_per_block_optin + 1024, NULL, args, __FILE__, at, "rev");
    TT_CHECK(st == TILE_ERR_LAUNCH, "too much shared memory gave %s", tile_status_id(st));
    TT_CHECK(tile_last_error_info()->line == at && strcmp(tile_last_error_info()->kernel, "rev") == 0,
             "the launch error does not name the kernel and line: %s", tile_last_error());
    printf("  too much shared memory: %s\n", tile_last_error());
    st = tile__cu_launch(fn, grid, 2048, 0, NULL, args, __FILE__, __LINE__, "k");
    TT_CHECK(st == TILE_ERR_LAUNCH, "2048 threads gave %s", tile_status_id(st));
    CUmodule badmod = NULL;
    CUfunction badfn = NULL;
    st = tile__cu_load(".version 8.0\n.target sm_90a\n.address_size 64\nthis is not ptx\n", &badmod, &badfn, "x", jitlog,
                       sizeof jitlog);
    TT_CHECK(st == TILE_ERR_COMPILE && badmod == NULL, "bad PTX gave %s", tile_status_id(st));
    printf("  bad PTX: %s\n", tile_last_error());
    st = tile__cu_load(ptx, &badmod, &badfn, "no_such_kernel", NULL, 0);
    TT_CHECK(st == TILE_ERR_COMPILE && badmod == NULL, "a missing kernel name gave %s", tile_status_id(st));
    tile_set_log(NULL, NULL);

    /* another thread uses the same context */
    pthread_t th;
    int ok = 0;
    TT_CHECK(pthread_create(&th, NULL, other_thread, &ok) == 0, "pthread_create");
    pthread_join(th, NULL);
    TT_CHECK(ok, "memory calls from another thread failed: %s", tile_last_error());

    /* events on a stream around 100 launches: the driver's directly, and in
       GPU mode through the public API (in the interpreter a tile_stream is
       a host object, not a CUstream) */
    CUstream cs = NULL;
    CUevent ca = NULL, cb = NULL;
    float ms = -1;
    TT_OK(tile__cu_stream_create(&cs, __FILE__, __LINE__));
    TT_OK(tile__cu_event_create(&ca, __FILE__, __LINE__));
    TT_OK(tile__cu_event_create(&cb, __FILE__, __LINE__));
    TT_OK(tile__cu_event_record(ca, cs, __FILE__, __LINE__));
    for (int i = 0; i < 100; i++) TT_OK(tile__cu_launch(fn, grid, N, 0, cs, args, __FILE__, __LINE__, "k"));
    TT_OK(tile__cu_event_record(cb, cs, __FILE__, __LINE__));
    TT_OK(tile__cu_event_sync(cb, __FILE__, __LINE__));
    TT_OK(tile__cu_event_elapsed(ca, cb, &ms, __FILE__, __LINE__));
    TT_CHECK(ms > 0.0f && ms < 10000.0f, "100 launches took %.3f ms", ms);
    printf("  100 launches of k: %.3f ms by events\n", ms);
    TT_OK(tile__cu_stream_sync(cs, __FILE__, __LINE__));
    TT_OK(tile__cu_event_destroy(ca, __FILE__, __LINE__));
    TT_OK(tile__cu_event_destroy(cb, __FILE__, __LINE__));
    TT_OK(tile__cu_stream_destroy(cs, __FILE__, __LINE__));
    if (tile__gpu_mode()) {
        tile_stream s = NULL;
        tile_event a = NULL, b = NULL;
        TT_OK(tile_stream_create(&s));
        TT_OK(tile_event_create(&a));
        TT_OK(tile_event_create(&b));
        TT_OK(tile_event_record(a, s));
        for (int i = 0; i < 100; i++) TT_OK(tile__cu_launch(fn, grid, N, 0, (void *)s, args, __FILE__, __LINE__, "k"));
        TT_OK(tile_event_record(b, s));
        TT_OK(tile_event_synchronize(b));
        TT_OK(tile_event_elapsed_ms(a, b, &ms));
        TT_CHECK(ms > 0.0f && ms < 10000.0f, "100 launches took %.3f ms", ms);
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_event_destroy(a));
        TT_OK(tile_event_destroy(b));
        TT_OK(tile_stream_destroy(s));
    }

    TT_OK(tile__cu_sync());
    TT_OK(tile__cu_free(d, __FILE__, __LINE__));
    TT_OK(tile__cu_free(d2, __FILE__, __LINE__));
    TT_OK(tile__cu_unload(mod));
    TT_OK(tile__cu_unload(mod2));
    free(ptx);
    free(log);
}

int main(void) {
    setenv("TILE_JITLINK", "1", 1);   /* nvJitLink is opt-in: jitlink_checks use it */
    /* children first: each opens the libraries afresh */
    in_child("missing NVRTC", "TILE_NVRTC", "/nonexistent/libnvrtc.so", child_missing_nvrtc);
    in_child("missing driver", "TILE_CUDA", "/nonexistent/libcuda.so.1", child_missing_driver);
    if (access("/usr/local/cuda/lib64/stubs/libcuda.so", R_OK) == 0)
        in_child("stub driver", "TILE_CUDA", "/usr/local/cuda/lib64/stubs/libcuda.so", child_stub_driver);
    in_child("bad device", "TILE_DEVICE", "999", child_bad_device);
    in_child("device records", "TILE_SYNC", "0", child_device_records);

    in_child("TILE_JITLINK=0", "TILE_JITLINK", "0", child_jitlink_off);
    if (tile__nvrtc_available()) nvrtc_checks(), jitlink_checks();
    else printf("test_cuda: NVRTC not found, NVRTC checks skipped (%s)\n", tile__nvrtc_st.why);

    host_event_checks(); /* in GPU mode these are device events */
    if (tile__cu_available()) device_checks();
    else printf("test_cuda: no GPU, device checks skipped (%s)\n", tile__cu_st.why);
    return tt_finish("test_cuda");
}
