/* tests/test_aot.c — kernels shipped ahead of time (tile/aot.h).

   One program, three ways (tests/aot.sh drives the last two):
     test_aot            TILE_EXPORT to a new directory in this process: the
                         launches run and are checked, tile_export_write
                         writes the C files, and they hold each variant and
                         the tuner's winner
     test_aot export     the launches, checked, with TILE_EXPORT from the
                         environment (a JIT build)
     test_aot aot        built with -DTILE_AOT and the exported C files: the
                         same launches, checked, with nothing compiled (every
                         variant and the winner from the tables) and neither
                         LLVM nor NVRTC in the process; then a variant the
                         tables lack: compiled (the JIT; the interpreter
                         just runs it), or with TILE_AOT_ONLY=1 an error at
                         its line.
   Results are checked against float64 references; outputs are poisoned. */
#define _POSIX_C_SOURCE 200809L   /* mkdtemp, setenv, popen, clock_gettime */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

TILE_KERNEL(aot_add, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_add(tl_load(tl_add(x, offs), .mask = mask), tl_load(tl_add(y, offs), .mask = mask)), .mask = mask);
}
/* out = a * x + 1, tuned over BLOCK and num_warps */
TILE_KERNEL(aot_axpb, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_f32, a), (tl_i32, n))
{
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_add(tl_mul(tl_load(tl_add(x, offs), .mask = mask), a), 1.0f), .mask = mask);
}
static const tile_autotune_config configs[] = {
    {.meta = {{"BLOCK", 128}}, .num_warps = 4},
    {.meta = {{"BLOCK", 256}}, .num_warps = 2},
    {.meta = {{"BLOCK", 512}}, .num_warps = 4},
};
static void grid(const tile_tune_args *a, unsigned g[3]) { g[0] = tile_cdiv(tile_tune_int(a, "n"), tile_tune_meta(a, "BLOCK")); }
static tile_autotuner tuner = {TILE_AUTOTUNE_CONFIGS(configs), .key = {"n"}, .grid = grid};

enum { N = 5000 };
static float hx[N], hy[N], hout[N];
static float *dx, *dy, *dout;

static void check_add(const char *what) {
    tile_memcpy_dtoh(hout, dout, sizeof hout);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += !tt_close(hout[i], (double)hx[i] + (double)hy[i], 1e-6, 1e-6);
    TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, N);
}
/* the launches every mode makes: two variants of aot_add, one tuned key of aot_axpb */
static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
static double first_ms;   /* the first launch, to its kernel's end */
static void workload(void) {
    for (int i = 0; i < N; i++) hx[i] = (float)tt_uniform(-1, 1), hy[i] = (float)tt_uniform(-1, 1);
    tile_memcpy_htod(dx, hx, sizeof hx);
    tile_memcpy_htod(dy, hy, sizeof hy);
    static const int blocks[2] = {256, 1024};
    for (int b = 0; b < 2; b++) {
        tile_memset(dout, 0xA5, sizeof hout);
        tile_synchronize();
        double t0 = now_ms();
        tile_status st = aot_add(TILE_OPTS(.grid = {tile_cdiv(N, blocks[b])}, .meta = {{"BLOCK", blocks[b]}}), dx, dy, dout, N);
        if (b == 0 && tile_synchronize() == TILE_OK) first_ms = now_ms() - t0;
        TT_CHECK(st == TILE_OK, "aot_add BLOCK %d: %s", blocks[b], tile_last_error());
        check_add(blocks[b] == 256 ? "aot_add BLOCK 256" : "aot_add BLOCK 1024");
    }
    tile_memset(dout, 0xA5, sizeof hout);
    tile_status st = aot_axpb(TILE_OPTS(.tune = &tuner), dx, dout, 1.5f, N);
    TT_CHECK(st == TILE_OK, "aot_axpb (tuned): %s", tile_last_error());
    tile_memcpy_dtoh(hout, dout, sizeof hout);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += !tt_close(hout[i], 1.5 * (double)hx[i] + 1.0, 1e-6, 1e-6);
    TT_CHECK(bad == 0, "aot_axpb: %d of %d elements wrong", bad, N);
}
static long count_files(const char *dir, const char *suffix) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' 2>/dev/null | grep -c '%s$'", dir, suffix);
    FILE *p = popen(cmd, "r");
    long n = 0;
    if (p) {
        if (fscanf(p, "%ld", &n) != 1) n = 0;
        pclose(p);
    }
    return n;
}
static int file_has(const char *path, const char *text) {
    FILE *fp = fopen(path, "r");
    char line[4096];
    int found = 0;
    if (!fp) return 0;
    while (!found && fgets(line, sizeof line, fp)) found = strstr(line, text) != NULL;
    fclose(fp);
    return found;
}
#ifdef TILE_AOT
/* is a library whose name holds `part` mapped into this process? */
static int mapped(const char *part) { return file_has("/proc/self/maps", part); }
#endif

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "self";
    char dir[256] = "";
    tt_seed();
    if (strcmp(mode, "self") == 0) {
        /* the export in this process: a fresh directory, set before the first call reads the knobs */
        snprintf(dir, sizeof dir, "%s/tile_aot_test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) {
            printf("FAIL: cannot make a directory: %s\n", dir);
            return 1;
        }
        setenv("TILE_EXPORT", dir, 1);
        setenv("TILE_EXPORT_ARCH", "sm_80,sm_90a", 1);   /* each variant for sm_80 as well (sm_90a: TILE_ARCH's, or the GPU's) */
        setenv("TILE_CACHE", "0", 1);   /* every variant compiled here, none from an earlier run */
    }
    double t0 = now_ms();
    dx = tile_malloc(sizeof hx), dy = tile_malloc(sizeof hy), dout = tile_malloc(sizeof hout);
    if (!dx || !dy || !dout) {
        printf("FAIL: tile_malloc: %s\n", tile_last_error());
        return 1;
    }
    double t1 = now_ms();
    workload();
    double t2 = now_ms();
    tile_cache_stats cs;
    tile_cache_stats_get(&cs);
    printf("%s on %s: startup (the driver) %.2f ms; the first launch %.2f ms, to its kernel's end; all launches %.2f ms; %ld compiled, %ld from the "
           "TILE_AOT tables, %ld not in them\n",
           mode, tile_backend_name(), t1 - t0, first_ms, t2 - t1, cs.compiles, cs.aot_loads, cs.aot_misses);

    if (strcmp(mode, "self") == 0) {
        TT_CHECK(tile_export_write() == TILE_OK, "tile_export_write: %s", tile_last_error());
        char store[300], path[320];
        snprintf(store, sizeof store, "%s/store", dir);
        /* two variants of aot_add, three of aot_axpb (each config was timed), each for two targets; and the winner */
        const char *arch = getenv("TILE_ARCH");   /* the target: TILE_ARCH's without a GPU (sm_90a unset), an H100/H200's on one */
        int ntargets = !arch || !*arch || !strcmp(arch, "sm_80") || !strcmp(arch, "sm_90a") ? 2 : 3;
        TT_CHECK(count_files(store, ".kernel") == 5 * ntargets, "the store holds %ld variants (want %d)", count_files(store, ".kernel"), 5 * ntargets);
        TT_CHECK(count_files(store, ".tune") == 1, "the store holds %ld winners (want 1)", count_files(store, ".tune"));
        snprintf(path, sizeof path, "%s/tile_aot.c", dir);
        TT_CHECK(file_has(path, "tile_aot_aot_add_") && file_has(path, "tile_aot_aot_axpb_"), "%s does not name both kernels' tables", path);
        TT_CHECK(count_files(dir, ".c") == 3, "%ld C files (want 3: the index and one per kernel)", count_files(dir, ".c"));
        snprintf(path, sizeof path, "%s/tile_aot_aot_add_%08x.c", dir, 0x88ff6d2bu);
        TT_CHECK(file_has(path, "   config sm_80 num_warps 4") && file_has(path, "   config sm_90a num_warps 4"), "%s lacks the sm_80 or the sm_90a variants", path);
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        TT_CHECK(system(cmd) == 0, "cannot remove %s", dir);
    } else if (strcmp(mode, "aot") == 0) {
#ifndef TILE_AOT
        printf("FAIL: 'aot' needs a build with -DTILE_AOT and the exported C files\n");
        return 1;
#else
        /* nothing compiled: 2 variants of aot_add, the winner and its variant */
        TT_CHECK(cs.compiles == 0, "%ld variants were compiled", cs.compiles);
        TT_CHECK(cs.aot_loads == 4, "%ld entries came from the TILE_AOT tables (want 4)", cs.aot_loads);
        TT_CHECK(cs.tunings == 0, "%ld keys were tuned", cs.tunings);
        TT_CHECK(!mapped("libnvrtc") && !mapped("libLLVM"), "a compiler is loaded: libnvrtc %d, libLLVM %d", mapped("libnvrtc"), mapped("libLLVM"));
        /* a variant the tables lack: BLOCK 512 of aot_add was never exported */
        int only = getenv("TILE_AOT_ONLY") && strcmp(getenv("TILE_AOT_ONLY"), "1") == 0;
        tile_memset(dout, 0xA5, sizeof hout);
        int line = __LINE__ + 1;
        tile_status st = aot_add(TILE_OPTS(.grid = {tile_cdiv(N, 512)}, .meta = {{"BLOCK", 512}}), dx, dy, dout, N);
        tile_cache_stats_get(&cs);
        if (only) {
            const tile_error *e = tile_last_error_info();
            TT_CHECK(st == TILE_ERR_COMPILE && e->line == line && strstr(e->file, "test_aot.c") && strstr(e->message, "TILE_AOT_ONLY"),
                     "a missing variant under TILE_AOT_ONLY=1: status %s at %s:%d: %s", tile_status_id(st), e->file, e->line, e->message);
            TT_CHECK(cs.compiles == 0, "%ld variants were compiled under TILE_AOT_ONLY=1", cs.compiles);
        } else {
            TT_CHECK(st == TILE_OK, "a missing variant, compiled: %s", tile_last_error());
            if (st == TILE_OK) check_add("aot_add BLOCK 512 (compiled)");
            /* on a GPU it is compiled (or found in the disk cache); the interpreter runs it, compiling nothing */
            long want = strcmp(tile_backend_name(), "interp") != 0;
            TT_CHECK(cs.compiles + cs.kernel_loads == want && cs.aot_misses == 1,
                     "a missing variant: %ld compiled, %ld from the disk cache, %ld missed (want %ld in all, 1)", cs.compiles, cs.kernel_loads,
                     cs.aot_misses, want);
            TT_CHECK(want || (!mapped("libnvrtc") && !mapped("libLLVM")), "the interpreter ran a missing variant, but a compiler is loaded");
        }
#endif
    }
    tile_free(dx);
    tile_free(dy);
    tile_free(dout);
    tile_kernel_release(TILE_KERNEL_OF(aot_add));
    tile_kernel_release(TILE_KERNEL_OF(aot_axpb));
    printf("test_aot %s: %d checks, %d failures\n", mode, tt_checks, tt_failures);
    return tt_failures != 0;
}
