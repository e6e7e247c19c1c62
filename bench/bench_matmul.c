/* bench/bench_matmul.c — matrix multiplication against cuBLAS.

   C = A @ B, row-major, in fp16 and in bf16 (f32 accumulation, C in the
   input dtype) at 4096x4096x4096, 8192x8192x8192 and M = N = 8192, K = 512,
   with the kernel of examples/matmul_autotune.c (included below, its main()
   renamed): what is measured is what the example shows. For each dtype and
   shape, in one run:
     cuBLAS        cublasGemmEx (CUBLAS_COMPUTE_32F, the default algorithm),
                   opened with dlopen; row-major C = A B is column-major
                   C^T = B^T A^T, so the operands are swapped
     tile tuned    the example's tuner picks a config (every config timed
                   for 10 + 40 ms; on the first shape of a dtype, compiled
                   in parallel first: the tuning time includes that), then
                   the launch through the tuner is timed
     tile <config> every config of the example's list, launched by hand
   Every tile launch is checked once before it is timed, into a poisoned C:
   every element against cuBLAS's C (within two ulps of the dtype, plus
   f32 summation noise) and a sample against float64 sums of the inputs;
   a wrong one is reported as FAILED, never timed. cuBLAS itself is checked
   against the float64 sample. Times are medians of CUDA-event timings
   after warm-up (bench_common.h; at most BENCH_REPS runs, fewer for slow
   rows: about half a second of timed runs each), buffers rotated so every
   run reads its inputs from HBM. TFLOP/s = 2 M N K / median time; the
   last column is tile's TFLOP/s over cuBLAS's.
   After the last shape of a dtype, each config the tuner picked for it is
   compiled cold (tile_kernel_release, no disk cache, no driver JIT cache):
   from the launch call to the end of a tile_synchronize, and the PTX
   alone (tile_kernel_ptx). A summary of every problem ends the output.

   Without cuBLAS (not found, or no device for it) the cuBLAS rows are
   skipped and the tile rows are checked against the float64 sample only.
   cuBLAS is looked for as BENCH_CUBLAS (a path to libcublas.so*), then
   libcublas.so.{13,12,11} and libcublas.so on the loader's path, then under
   $CUDA_HOME, $CUDA_PATH, /usr/local/cuda and Python's nvidia/cublas wheels.
   The disk cache (TILE_CACHE=0) and the driver's JIT cache
   (CUDA_CACHE_DISABLE=1) are off unless set, so every run tunes and
   compiles.

   With BENCH_PLOT_DIR set (bench_plot.h), one figure a dtype: TFLOP/s of
   cuBLAS, the tuner's pick, the best hand-launched config and the best of
   each tensor-descriptor kernel against the size, from the numbers the rows
   print. The shapes are not one family (K = 512 beside cubes), so x is the
   edge of the cube of as much work, (M N K)^(1/3), each tick labelled with
   its shape.

   Build: cc -std=c11 -O2 -I. bench/bench_matmul.c -o build/bench_matmul -ldl -lm -lpthread */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "bench_common.h"

#include <dlfcn.h>
#include <glob.h>
#include <unistd.h>

/* The example's kernels, tuners and config lists (its main() and helpers
   renamed; the implementation is guarded, so it is compiled once, above). */
#define main example_main_matmul_autotune
#define need matmul_autotune_need
#define uniform matmul_autotune_uniform
#include "../examples/matmul_autotune.c"
#undef main
#undef need
#undef uniform
/* examples/matmul_persistent.c's kernels: the tensor-descriptor (TMA) ones */
#define main example_main_matmul_persistent
#define need matmul_persistent_need
#define uniform matmul_persistent_uniform
#define elem_get matmul_persistent_elem_get
#define elem_set matmul_persistent_elem_set
#include "../examples/matmul_persistent.c"
#undef main
#undef need
#undef uniform
#undef elem_get
#undef elem_set

/* ---- cuBLAS, opened at run time ---------------------------------------------------------------
   The few declarations of cublas_api.h and library_types.h this needs. */
typedef struct bench_cublas_context *cublas_handle;
enum {
    BENCH_CUBLAS_OP_N = 0,
    BENCH_CUDA_R_16F = 2,
    BENCH_CUDA_R_16BF = 14,
    BENCH_CUBLAS_COMPUTE_32F = 68,
    BENCH_CUBLAS_GEMM_DEFAULT = -1,
};
static struct {
    int ok;
    char why[1024];                  /* why there is no cuBLAS                  */
    char path[600];                  /* the library opened                      */
    int version;
    cublas_handle h;
    int (*create)(cublas_handle *h);
    int (*destroy)(cublas_handle h);
    int (*get_version)(cublas_handle h, int *version);
    const char *(*status_string)(int status);
    int (*gemm_ex)(cublas_handle h, int transa, int transb, int m, int n, int k, const void *alpha, const void *a, int atype,
                   int lda, const void *b, int btype, int ldb, const void *beta, void *c, int ctype, int ldc, int compute,
                   int algo);
} cublas;

/* cuBLASLt, for the fp8 rows (cublasGemmEx has no fp8): from cublasLt.h */
enum {
    BENCH_CUDA_R_32F = 0,
    BENCH_CUDA_R_8F_E4M3 = 28,
    BENCH_CUBLAS_OP_T = 1,
    BENCH_LT_DESC_TRANSA = 3,
    BENCH_LT_DESC_TRANSB = 4,
    BENCH_LT_DESC_FAST_ACCUM = 25,
    BENCH_LT_PREF_MAX_WORKSPACE = 1,
};
typedef struct { uint64_t data[8]; } bench_lt_algo;
typedef struct {
    bench_lt_algo algo;
    size_t workspace;
    int state;
    float waves;
    int reserved[4];
} bench_lt_heuristic;
static struct {
    int ok;
    char why[256];
    void *h;
    int (*create)(void **h);
    int (*desc_create)(void **d, int compute, int scale);
    int (*desc_set)(void *d, int attr, const void *buf, size_t size);
    int (*layout_create)(void **l, int type, uint64_t rows, uint64_t cols, int64_t ld);
    int (*pref_create)(void **p);
    int (*pref_set)(void *p, int attr, const void *buf, size_t size);
    int (*heuristic)(void *h, void *d, void *a, void *b, void *c, void *dd, void *pref, int n, bench_lt_heuristic *res, int *got);
    int (*matmul)(void *h, void *d, const void *alpha, const void *a, void *al, const void *b, void *bl, const void *beta, const void *c,
                  void *cl, void *dd, void *dl, const bench_lt_algo *algo, void *ws, size_t wss, void *stream);
    void *ws;                         /* the workspace (32 MiB) */
} cublaslt;

/* dlsym into a function pointer (ISO C has no cast between the two) */
static int cublas_sym(void *lib, const char *name, void *fnptr, size_t size) {
    void *p = dlsym(lib, name);
    if (!p) return 0;
    memcpy(fnptr, &p, size);
    return 1;
}
/* "what: why; " appended to cublas.why */
static void cublas_note(const char *what, const char *why) {
    size_t n = strlen(cublas.why);
    if (n + 4 < sizeof cublas.why) snprintf(cublas.why + n, sizeof cublas.why - n, "%s: %s; ", what, why);
}
/* cuBLASLt from the library beside libcublas (lib; NULL: none) */
static void cublaslt_open(void *lib) {
    if (!lib) {
        snprintf(cublaslt.why, sizeof cublaslt.why, "no libcublasLt beside libcublas");
        return;
    }
    if (!cublas_sym(lib, "cublasLtCreate", &cublaslt.create, sizeof cublaslt.create) ||
        !cublas_sym(lib, "cublasLtMatmulDescCreate", &cublaslt.desc_create, sizeof cublaslt.desc_create) ||
        !cublas_sym(lib, "cublasLtMatmulDescSetAttribute", &cublaslt.desc_set, sizeof cublaslt.desc_set) ||
        !cublas_sym(lib, "cublasLtMatrixLayoutCreate", &cublaslt.layout_create, sizeof cublaslt.layout_create) ||
        !cublas_sym(lib, "cublasLtMatmulPreferenceCreate", &cublaslt.pref_create, sizeof cublaslt.pref_create) ||
        !cublas_sym(lib, "cublasLtMatmulPreferenceSetAttribute", &cublaslt.pref_set, sizeof cublaslt.pref_set) ||
        !cublas_sym(lib, "cublasLtMatmulAlgoGetHeuristic", &cublaslt.heuristic, sizeof cublaslt.heuristic) ||
        !cublas_sym(lib, "cublasLtMatmul", &cublaslt.matmul, sizeof cublaslt.matmul)) {
        snprintf(cublaslt.why, sizeof cublaslt.why, "libcublasLt lacks a cublasLt* function this needs");
        return;
    }
    if (cublaslt.create(&cublaslt.h) != 0 || !(cublaslt.ws = tile_malloc((size_t)32 << 20))) {
        snprintf(cublaslt.why, sizeof cublaslt.why, "cublasLtCreate or its workspace failed");
        return;
    }
    cublaslt.ok = 1;
}
/* One cuBLASLt fp8 matmul, planned once: row-major C (M x N, f16) = A (M x
   K, e4m3) @ B, B given as B^T (N x K, e4m3), f32 accumulation; fast: the
   fp8 fast-accumulation mode (the wgmma accumulators as they are, as
   tile's kernels use them) or not (cuBLASLt promotes them to f32 now and
   then). Column-major, that is C^T = B^T^T A^T: cuBLASLt's "TN" form, the
   one its fp8 matmuls take. */
typedef struct lt_plan {
    int M, N, K, fast, ok;
    void *desc, *la, *lb, *lc;
    bench_lt_algo algo;
    size_t ws;
} lt_plan;
static int lt_plan_make(lt_plan *p, int M, int N, int K, int fast) {
    memset(p, 0, sizeof *p);
    p->M = M, p->N = N, p->K = K, p->fast = fast;
    int ta = BENCH_CUBLAS_OP_T, tb = BENCH_CUBLAS_OP_N;
    signed char fa = (signed char)fast;
    uint64_t wsmax = (uint64_t)32 << 20;
    void *pref = NULL;
    bench_lt_heuristic res;
    int got = 0;
    if (cublaslt.desc_create(&p->desc, BENCH_CUBLAS_COMPUTE_32F, BENCH_CUDA_R_32F) || cublaslt.desc_set(p->desc, BENCH_LT_DESC_TRANSA, &ta, sizeof ta) ||
        cublaslt.desc_set(p->desc, BENCH_LT_DESC_TRANSB, &tb, sizeof tb) || cublaslt.desc_set(p->desc, BENCH_LT_DESC_FAST_ACCUM, &fa, sizeof fa) ||
        cublaslt.layout_create(&p->la, BENCH_CUDA_R_8F_E4M3, (uint64_t)K, (uint64_t)N, K) ||
        cublaslt.layout_create(&p->lb, BENCH_CUDA_R_8F_E4M3, (uint64_t)K, (uint64_t)M, K) ||
        cublaslt.layout_create(&p->lc, BENCH_CUDA_R_16F, (uint64_t)N, (uint64_t)M, N) || cublaslt.pref_create(&pref) ||
        cublaslt.pref_set(pref, BENCH_LT_PREF_MAX_WORKSPACE, &wsmax, sizeof wsmax) ||
        cublaslt.heuristic(cublaslt.h, p->desc, p->la, p->lb, p->lc, p->lc, pref, 1, &res, &got) || got < 1) {
        printf("# cuBLASLt has no fp8 e4m3 plan for %dx%dx%d%s\n", M, N, K, fast ? " (fast accumulation)" : "");
        return 0;
    }
    p->algo = res.algo;
    p->ws = res.workspace;
    return p->ok = 1;
}
static tile_status lt_gemm_fp8(const lt_plan *p, const void *a, const void *bt, void *c) {
    const float alpha = 1, beta = 0;
    int s = cublaslt.matmul(cublaslt.h, p->desc, &alpha, bt, p->la, a, p->lb, &beta, c, p->lc, c, p->lc, &p->algo, cublaslt.ws, p->ws, NULL);
    if (s == 0) return TILE_OK;
    printf("FAILED  cublasLtMatmul e4m3 %dx%dx%d: status %d\n", p->M, p->N, p->K, s);
    return TILE_ERR_DRIVER;
}

/* Open one candidate and make a handle; 1 on success, else a note in cublas.why. */
static int cublas_try(const char *path) {
    /* libcublas needs libcublasLt of its directory; load it first, global,
       for the versions whose libcublas does not find it on its own */
    const char *slash = strrchr(path, '/'), *so = strstr(path, "libcublas.so");
    void *ltlib = NULL;
    if (so) {
        char lt[700];
        snprintf(lt, sizeof lt, "%.*slibcublasLt%s", (int)(so - path), path, so + strlen("libcublas"));
        if (!slash || access(lt, R_OK) == 0) ltlib = dlopen(lt, RTLD_NOW | RTLD_GLOBAL);
    }
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        if (!slash) return 0;          /* a bare soname the loader does not know: not worth a note */
        cublas_note(path, e ? e : "dlopen failed");
        return 0;
    }
    /* a library already tried under another name (a symlink, the loader's
       path) comes back as the same handle */
    static void *tried[32];
    static int ntried;
    for (int i = 0; i < ntried; i++)
        if (tried[i] == lib) return 0;
    if (ntried < 32) tried[ntried++] = lib;
    if (!cublas_sym(lib, "cublasCreate_v2", &cublas.create, sizeof cublas.create) ||
        !cublas_sym(lib, "cublasDestroy_v2", &cublas.destroy, sizeof cublas.destroy) ||
        !cublas_sym(lib, "cublasGetVersion_v2", &cublas.get_version, sizeof cublas.get_version) ||
        !cublas_sym(lib, "cublasGemmEx", &cublas.gemm_ex, sizeof cublas.gemm_ex)) {
        cublas_note(path, "no cublasCreate_v2, cublasDestroy_v2, cublasGetVersion_v2 or cublasGemmEx");
        return 0;
    }
    cublas_sym(lib, "cublasGetStatusString", &cublas.status_string, sizeof cublas.status_string);
    int s = cublas.create(&cublas.h);
    if (s != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "cublasCreate failed with status %d (%s)", s,
                 cublas.status_string ? cublas.status_string(s) : "no cublasGetStatusString");
        cublas_note(path, msg);
        return 0;                      /* not closed: a library that started may not unload cleanly */
    }
    if (cublas.get_version(cublas.h, &cublas.version) != 0) cublas.version = 0;
    snprintf(cublas.path, sizeof cublas.path, "%s", path);
    cublaslt_open(ltlib);
    return cublas.ok = 1;
}
/* Every candidate in turn until one makes a handle. */
static void cublas_open(void) {
    static const char *const versions[] = {".13", ".12", ".11", ""};
    enum { NV = sizeof versions / sizeof *versions };
    const char *env = getenv("BENCH_CUBLAS");
    if (env && *env) {
        if (!cublas_try(env)) cublas_note("BENCH_CUBLAS", "the library named could not be used");
        return;
    }
    char path[700];
    for (int v = 0; v < NV; v++) {
        snprintf(path, sizeof path, "libcublas.so%s", versions[v]);
        if (cublas_try(path)) return;
    }
    const char *home = getenv("CUDA_HOME"), *cpath = getenv("CUDA_PATH"), *hdir = getenv("HOME");
    char pats[12][300];
    int np = 0;
    if (home && *home) snprintf(pats[np++], sizeof pats[0], "%s/lib64", home);
    if (cpath && *cpath) snprintf(pats[np++], sizeof pats[0], "%s/lib64", cpath);
    snprintf(pats[np++], sizeof pats[0], "/usr/local/cuda/lib64");
    snprintf(pats[np++], sizeof pats[0], "/usr/local/cuda/lib");
    snprintf(pats[np++], sizeof pats[0], "/usr/local/cuda-*/lib64");
    snprintf(pats[np++], sizeof pats[0], "/usr/local/lib/python3*/*-packages/nvidia/cublas/lib");
    snprintf(pats[np++], sizeof pats[0], "/usr/local/lib/python3*/*-packages/nvidia/cu1*/lib");
    snprintf(pats[np++], sizeof pats[0], "/usr/lib/python3*/*-packages/nvidia/cublas/lib");
    snprintf(pats[np++], sizeof pats[0], "/opt/conda/lib/python3*/site-packages/nvidia/cublas/lib");
    if (hdir && *hdir) snprintf(pats[np++], sizeof pats[0], "%s/.local/lib/python3*/site-packages/nvidia/cublas/lib", hdir);
    for (int p = 0; p < np; p++) {
        glob_t g;
        if (glob(pats[p], 0, NULL, &g) != 0) continue;
        for (size_t d = 0; d < g.gl_pathc; d++)
            for (int v = 0; v < NV; v++) {
                snprintf(path, sizeof path, "%s/libcublas.so%s", g.gl_pathv[d], versions[v]);
                if (access(path, R_OK) != 0) continue;
                if (cublas_try(path)) {
                    globfree(&g);
                    return;
                }
            }
        globfree(&g);
    }
    if (!cublas.why[0])
        cublas_note("libcublas.so", "not found on the loader's path, under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda or "
                                    "Python's nvidia wheels (BENCH_CUBLAS=path picks one)");
}

/* row-major C (M x N) = A (M x K) @ B (K x N), f32 accumulation, C in dt */
static tile_status cublas_gemm(tl_dtype dt, const void *a, const void *b, void *c, int M, int N, int K) {
    const float alpha = 1, beta = 0;
    int t = dt == TL_BF16 ? BENCH_CUDA_R_16BF : BENCH_CUDA_R_16F;
    int s = cublas.gemm_ex(cublas.h, BENCH_CUBLAS_OP_N, BENCH_CUBLAS_OP_N, N, M, K, &alpha, b, t, N, a, t, K, &beta, c, t, N,
                           BENCH_CUBLAS_COMPUTE_32F, BENCH_CUBLAS_GEMM_DEFAULT);
    if (s == 0) return TILE_OK;
    printf("FAILED  cublasGemmEx %s %dx%dx%d: status %d (%s)\n", tile_dtype_name(dt), M, N, K, s,
           cublas.status_string ? cublas.status_string(s) : "?");
    return TILE_ERR_DRIVER;
}

/* ---- one problem: a dtype and a shape, its buffers, its reference -------------------------- */
#define PERIOD 1000003u                         /* prime: rows and tiles all see different data */
enum { MM_MAX_CONFIGS = 32 };

typedef struct mm_problem {
    tl_dtype dt;
    int M, N, K;
    int nsets;
    void *a[BENCH_MAX_SETS], *b[BENCH_MAX_SETS], *c[BENCH_MAX_SETS];
    uint16_t *pa, *pb;                          /* the periodic patterns of A and B (host)   */
    uint16_t *ref;                              /* cuBLAS's C on the host, or NULL           */
    uint16_t *got;                              /* a C read back, for the checks             */
    int nsamples;
    size_t *at;                                 /* sampled elements of C ...                  */
    double *exact;                              /* ... and their float64 sums                 */
    double *acc_tol;                            /* ... and for fp8, the accumulation's tolerance */
    lt_plan lt[2];                              /* fp8: cuBLASLt's plans (fast accumulation, not) */
    int lt_which;                               /* the one mm_run_cublas runs                 */
    tile_launch launch;                         /* what mm_run_tile launches                  */
    int tma;                                    /* 0: the pointer kernel; 1 + TMA_*: matmul_persistent.c's */
    char what[64];                              /* "f16 4096x4096x4096"                       */
} mm_problem;

static float lut_f16[65536], lut_bf16[65536];  /* every 16-bit pattern as a float            */
static float lut_e4m3[256];                     /* every fp8 e4m3 pattern                     */
static void lut_init(void) {
    for (uint32_t i = 0; i < 65536; i++) {
        tile_f16 h = {(uint16_t)i};
        tile_bf16 b = {(uint16_t)i};
        lut_f16[i] = (float)tile_f16_to(h);
        lut_bf16[i] = (float)tile_bf16_to(b);
    }
    for (uint32_t i = 0; i < 256; i++) {
        tile_f8e4m3 q = {(uint8_t)i};
        lut_e4m3[i] = (float)tile_f8e4m3_to(q);
    }
}
static const float *lut_of(tl_dtype dt) { return dt == TL_BF16 ? lut_bf16 : dt == TL_F8E4M3 ? lut_e4m3 : lut_f16; }
static uint16_t to_bits(tl_dtype dt, double v) {
    return dt == TL_BF16 ? tile_bf16_from(v).bits : dt == TL_F8E4M3 ? tile_f8e4m3_from(v).bits : tile_f16_from(v).bits;
}
/* fp8 problems: e4m3 inputs, B given as B^T (N x K), C in f16 */
static tl_dtype c_dtype(const mm_problem *p) { return p->dt == TL_F8E4M3 ? TL_F16 : p->dt; }

static tile_status mm_run_tile(void *ctx, int set) {
    mm_problem *p = (mm_problem *)ctx;
    if (p->tma) return tma_launch(p->tma - 1, p->dt, &p->launch, p->a[set], p->b[set], p->c[set], p->M, p->N, p->K);
    return matmul_launch(p->dt, &p->launch, p->a[set], p->b[set], p->c[set], p->M, p->N, p->K);
}
static tile_status mm_run_cublas(void *ctx, int set) {
    mm_problem *p = (mm_problem *)ctx;
    if (p->dt == TL_F8E4M3) return lt_gemm_fp8(&p->lt[p->lt_which], p->a[set], p->b[set], p->c[set]);
    return cublas_gemm(p->dt, p->a[set], p->b[set], p->c[set], p->M, p->N, p->K);
}

/* Time fn: a short estimate, then warm-up and timed runs, rotated over the
   sets. BENCH_REPS and BENCH_WARMUP cap the counts; a slow row gets fewer
   runs (about 500 ms timed, 100 ms of warm-up, at least 10 and 2). */
static tile_status mm_time(bench_fn fn, void *ctx, int nsets, bench_stats *out) {
    bench_rotation r = {fn, ctx, nsets < 1 ? 1 : nsets, 0};
    tile_bench_result est;
    memset(out, 0, sizeof *out);
    tile_status st = tile_do_bench(bench_rotate, &r, TILE_BENCH_OPTS(.warmup = 1, .reps = 3, .no_flush = 1), &est);
    if (st != TILE_OK) return st;
    double one = est.median_ms > 1e-3 ? est.median_ms : 1e-3;
    int reps = bench_reps(), warm = bench_warmup() > 0 ? bench_warmup() : 1;
    if (!getenv("BENCH_REPS") && 500 / one < reps) reps = 500 / one < 10 ? 10 : (int)(500 / one);
    if (!getenv("BENCH_WARMUP") && 100 / one < warm) warm = 100 / one < 2 ? 2 : (int)(100 / one);
    return bench_time_n(fn, ctx, nsets, warm, reps, out);
}

static double tflops(const mm_problem *p, double ms) { return ms > 0 ? 2.0 * p->M * p->N * (double)p->K / (ms * 1e9) : 0; }
/* f32 sums of K products differ by far less than this between two orders */
static double mm_atol(const mm_problem *p) { return 1e-3 * sqrt((double)p->K / 90); }

/* One run into a poisoned C, read back into p->got. */
static int mm_run_once(mm_problem *p, bench_fn fn, const char *label) {
    size_t bytes = (size_t)p->M * p->N * 2;
    if (!bench_ok(tile_memset(p->c[0], 0xff, bytes), label)) return 0;
    tile_status st = fn(p, 0);
    if (st == TILE_ERR_LAUNCH && strstr(tile_last_error(), "bytes of dynamic shared memory (the device allows")) {
        /* a config that needs more shared memory than a block gets here (at
           this shape: a store that cannot go through the copy engine takes
           scratch): not run, as Triton's autotuner prunes OutOfResources */
        printf("SKIPPED %s: %s\n", label, tile_last_error());
        fflush(stdout);
        return 0;
    }
    return bench_ok(st, label) && bench_ok(tile_synchronize(), label) && bench_ok(tile_memcpy_dtoh(p->got, p->c[0], bytes), label);
}
/* p->got against the float64 sample: within half an ulp of the dtype, twice, plus the summation noise */
static int mm_check_sample(const mm_problem *p, const char *label) {
    const float *lut = lut_of(c_dtype(p));
    double tol = 2 * bench_half_ulp(c_dtype(p));
    for (int s = 0; s < p->nsamples; s++) {
        double got = lut[p->got[p->at[s]]], want = p->exact[s];
        if (!(fabs(got - want) <= tol * fabs(want) + mm_atol(p) + (p->acc_tol ? p->acc_tol[s] : 0))) {
            printf("FAILED  %s: C[%zu][%zu] = %.6g, want %.6g (float64 reference)\n", label, p->at[s] / (size_t)p->N,
                   p->at[s] % (size_t)p->N, got, want);
            fflush(stdout);
            bench_failures++;
            return 0;
        }
    }
    return 1;
}
/* p->got against cuBLAS's C, every element: two ulps of the dtype apart at most, plus the summation noise */
static int mm_check_ref(const mm_problem *p, const char *label) {
    const float *lut = lut_of(c_dtype(p));
    double tol = 4 * bench_half_ulp(c_dtype(p)), atol = mm_atol(p);
    size_t n = (size_t)p->M * p->N, bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        float got = lut[p->got[i]], want = lut[p->ref[i]];
        if (!(fabsf(got - want) <= tol * fabsf(want) + atol)) {
            if (!bad++) first = i;
        }
    }
    if (bad) {
        printf("FAILED  %s: %zu of %zu elements differ from cuBLAS; the first, C[%zu][%zu] = %.6g, cuBLAS %.6g\n", label, bad, n,
               first / (size_t)p->N, first % (size_t)p->N, (double)lut[p->got[first]], (double)lut[p->ref[first]]);
        fflush(stdout);
        bench_failures++;
    }
    return !bad;
}
/* one tile run, checked: the sample always, every element against cuBLAS when there is its C */
static int mm_check_tile(mm_problem *p, const char *label) {
    /* fp8: the sample only (two fp8 matmuls may keep different bits of their sums) */
    return mm_run_once(p, mm_run_tile, label) && mm_check_sample(p, label) && (!p->ref || p->acc_tol || mm_check_ref(p, label));
}

/* ---- the table ------------------------------------------------------------------------------------ */
static void mm_header(void) {
    printf("%-11s %-16s %-5s %-26s %9s %9s %9s %5s %8s %9s\n", "name", "shape", "dtype", "config", "ms", "p20", "p80", "runs",
           "TFLOP/s", "vs-cuBLAS");
}
static void mm_row(const char *name, const mm_problem *p, const char *config, const bench_stats *s, double cublas_tflops) {
    char shape[40], ratio[16] = "-";
    snprintf(shape, sizeof shape, "%dx%dx%d", p->M, p->N, p->K);
    double t = tflops(p, s->ms);
    if (cublas_tflops > 0) snprintf(ratio, sizeof ratio, "%.3f", t / cublas_tflops);
    printf("%-11s %-16s %-5s %-26s %9.4f %9.4f %9.4f %5d %8.1f %9s\n", name, shape, tile_dtype_name(p->dt), config, s->ms, s->p20,
           s->p80, s->reps, t, ratio);
    fflush(stdout);
}
/* A point of p's figure: x the edge of the cube with p's work, (M N K)^(1/3)
   (a square problem is its own size; the tick names the shape). */
static void mm_plot(const mm_problem *p, const char *series, double t) {
    char fig[32], shape[40];
    double x = cbrt((double)p->M * p->N * (double)p->K);
    snprintf(fig, sizeof fig, "matmul %s", tile_dtype_name(p->dt));
    snprintf(shape, sizeof shape, "%dx%dx%d", p->M, p->N, p->K);
    bench_plot_xtick(fig, x, shape);
    bench_plot_point(fig, "size: (M*N*K)^(1/3); ticks: M x N x K", "TFLOP/s (2MNK / median time)", series, x, t);
}
static void config_text(char *buf, size_t n, const tile_launch *l) {
    snprintf(buf, n, "%lldx%lldx%lld g%lld w%d s%d", tile_meta_of(l, "BLOCK_M"), tile_meta_of(l, "BLOCK_N"),
             tile_meta_of(l, "BLOCK_K"), tile_meta_of(l, "GROUP_SIZE_M"), l->num_warps ? l->num_warps : 4,
             l->num_stages ? l->num_stages : 3);
}

/* BENCH_MM_ROWS: a comma-separated list of the row kinds to run ("tile"
   for the pointer kernel's tuner and configs, "tma", "tma-pers", "tma-ws",
   "tma-pers-ws"); unset or empty: all. cuBLAS always runs. */
static int mm_list_has(const char *var, const char *kind) {
    const char *want = getenv(var);
    if (!want || !*want) return 1;
    size_t n = strlen(kind);
    for (const char *s = want; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncmp(s, kind, n) == 0) return 1;
        if (!e) break;
        s = e + 1;
    }
    return 0;
}
static int mm_row_wanted(const char *kind) { return mm_list_has("BENCH_MM_ROWS", kind); }
/* BENCH_MM_DTYPES: the same for the input dtypes ("f16", "bf16", "f8e4m3") */
static int mm_dtype_wanted(tl_dtype dt) { return mm_list_has("BENCH_MM_DTYPES", tile_dtype_name(dt)); }

/* what the summary reports, one per problem */
typedef struct mm_summary {
    char what[64], tuned_cfg[40], best_cfg[40], tma_cfg[TMA_VARIANTS][40];
    double tma[TMA_VARIANTS];                   /* TFLOP/s of the best config of each TMA_* variant */
    tl_dtype dt;
    tile_launch pick;                           /* the tuner's (valid when tuned_cfg[0]) */
    double cublas, tuned, best;                 /* TFLOP/s; 0: none                   */
    double tune_s, cold_ms, ptx_ms;             /* < 0: not measured                   */
} mm_summary;
static mm_summary summaries[8];
static int nsummaries;

/* The tuner's picks for dt so far, each compiled cold once, on p's buffers:
   tile_kernel_release, then a launch and tile_synchronize; released again,
   tile_kernel_ptx alone. The result goes to every problem with that pick. */
static void cold_compiles(mm_problem *p) {
    tile_kernel *kern = matmul_kernel_of(p->dt);
    for (int i = 0; i < nsummaries; i++) {
        mm_summary *m = &summaries[i];
        if (m->dt != p->dt || !m->tuned_cfg[0] || m->cold_ms >= 0) continue;
        char label[192];
        snprintf(label, sizeof label, "cold compile %s %s", tile_dtype_name(p->dt), m->tuned_cfg);
        p->launch = m->pick;
        p->launch.tune = NULL;
        p->launch.grid[0] = tile_cdiv(p->M, tile_meta_of(&m->pick, "BLOCK_M")) * tile_cdiv(p->N, tile_meta_of(&m->pick, "BLOCK_N"));
        p->launch.file = __FILE__;
        p->launch.line = __LINE__;
        if (!bench_ok(tile_synchronize(), label)) return;
        tile_kernel_release(kern);
        double t0 = bench_now_ms(), cold, ptx_ms = -1;
        if (!bench_ok(mm_run_tile(p, 0), label) || !bench_ok(tile_synchronize(), label)) return;
        cold = bench_now_ms() - t0;
        tile_kernel_release(kern);
        char *ptx = NULL;
        t0 = bench_now_ms();
        /* (the interpreter needs no PTX, nor NVRTC) */
        if (strcmp(tile_backend_name(), "interp") != 0 && bench_ok(tile_kernel_ptx(kern, &p->launch, NULL, &ptx), label))
            ptx_ms = bench_now_ms() - t0;
        tile_free_text(ptx);
        for (int j = i; j < nsummaries; j++)
            if (summaries[j].dt == p->dt && strcmp(summaries[j].tuned_cfg, m->tuned_cfg) == 0) {
                summaries[j].cold_ms = cold;
                summaries[j].ptx_ms = ptx_ms;
            }
    }
}

/* ---- one problem, start to end --------------------------------------------------------------------------
   last: the last problem of this dtype, after which its picks are compiled cold */
static void bench_problem(tl_dtype dt, int M, int N, int K, int last) {
    mm_problem p;
    memset(&p, 0, sizeof p);
    p.dt = dt;
    p.M = M;
    p.N = N;
    p.K = K;
    snprintf(p.what, sizeof p.what, "%s %dx%dx%d", tile_dtype_name(dt), M, N, K);
    mm_summary *sum = &summaries[nsummaries < 8 ? nsummaries++ : 7];
    memset(sum, 0, sizeof *sum);
    sum->dt = dt;
    snprintf(sum->what, sizeof sum->what, "%s", p.what);
    sum->tune_s = sum->cold_ms = sum->ptx_ms = -1;
    int fp8 = dt == TL_F8E4M3;
    tile_kernel *kern = fp8 ? NULL : matmul_kernel_of(dt);
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N, es = fp8 ? 1 : 2;
    p.nsets = bench_sets_for(es * (na + nb) + 2 * nc);
    uint8_t *pa8 = NULL, *pb8 = NULL;

    /* inputs: uniform in [-1, 1), periodic; the float64 sample */
    size_t pn = PERIOD;
    p.pa = (uint16_t *)bench_hmalloc(pn * 2, p.what);
    p.pb = (uint16_t *)bench_hmalloc(pn * 2, p.what);
    p.got = (uint16_t *)bench_hmalloc(nc * 2, p.what);
    for (size_t i = 0; i < pn; i++) {
        p.pa[i] = to_bits(dt, bench_uniform(-1, 1));
        p.pb[i] = to_bits(dt, bench_uniform(-1, 1));
    }
    p.nsamples = bench_smoke() ? 64 : 1024;
    p.at = (size_t *)bench_hmalloc((size_t)p.nsamples * sizeof *p.at, p.what);
    p.exact = (double *)bench_hmalloc((size_t)p.nsamples * sizeof *p.exact, p.what);
    if (fp8) p.acc_tol = (double *)bench_hmalloc((size_t)p.nsamples * sizeof *p.acc_tol, p.what);
    const float *lut = lut_of(dt);
    for (int s = 0; s < p.nsamples; s++) {
        size_t i = s == 0 || s == 2 ? 0 : s == 1 || s == 3 ? (size_t)M - 1 : (size_t)(bench_next() % (uint64_t)M);
        size_t j = s == 0 || s == 3 ? 0 : s == 1 || s == 2 ? (size_t)N - 1 : (size_t)(bench_next() % (uint64_t)N);
        double want = 0, peak = 0;
        for (size_t k = 0; k < (size_t)K; k++) {
            want += (double)lut[p.pa[(i * K + k) % PERIOD]] * (double)lut[p.pb[(fp8 ? j * K + k : k * N + j) % PERIOD]];
            if (fabs(want) > peak) peak = fabs(want);
        }
        p.at[s] = i * N + j;
        p.exact[s] = want;
        /* fp8 wgmma keeps about 14 bits of its running sum after each k32
           step: 2^-13 of the largest partial sum, K/32 times */
        if (fp8) p.acc_tol[s] = (K / 32 + 2) * ldexp(peak, -13);
    }
    if (fp8) {   /* the patterns as bytes */
        pa8 = (uint8_t *)bench_hmalloc(pn, p.what);
        pb8 = (uint8_t *)bench_hmalloc(pn, p.what);
        for (size_t i = 0; i < pn; i++) pa8[i] = (uint8_t)p.pa[i], pb8[i] = (uint8_t)p.pb[i];
    }
    for (int s = 0; s < p.nsets; s++) {
        p.a[s] = bench_dmalloc(na * es, p.what);
        p.b[s] = bench_dmalloc(nb * es, p.what);
        p.c[s] = bench_dmalloc(nc * 2, p.what);
        if (!bench_ok(bench_fill_periodic(p.a[s], na * es, fp8 ? (const void *)pa8 : p.pa, pn * es), p.what) ||
            !bench_ok(bench_fill_periodic(p.b[s], nb * es, fp8 ? (const void *)pb8 : p.pb, pn * es), p.what))
            goto done;
    }
    bench_stats s;
    char cfg[40], label[192];

    /* cuBLAS: checked against the sample, then its C is the reference */
    double cub = 0;
    if (fp8) {   /* cuBLASLt's fp8 matmul, fast accumulation first (what the table compares with), then not */
        static const char *const lt_name[2] = {"cuBLASLt", "cuBLASLt-p"};
        static const char *const lt_cfg[2] = {"e4m3 fast accumulation", "e4m3 f32 promotion"};
        for (int w = 0; w < 2 && cublaslt.ok; w++) {
            if (!lt_plan_make(&p.lt[w], M, N, K, !w)) continue;
            p.lt_which = w;
            snprintf(label, sizeof label, "%s %s %s", lt_name[w], lt_cfg[w], p.what);
            if (mm_run_once(&p, mm_run_cublas, label) && mm_check_sample(&p, label) && bench_ok(mm_time(mm_run_cublas, &p, p.nsets, &s), label)) {
                mm_row(lt_name[w], &p, lt_cfg[w], &s, 0);
                if (!w) cub = sum->cublas = tflops(&p, s.ms);
                mm_plot(&p, lt_name[w], tflops(&p, s.ms));
            }
        }
        if (!cublaslt.ok) printf("# cuBLASLt fp8 rows skipped: %s\n", cublaslt.why[0] ? cublaslt.why : cublas.why);
        goto tma_rows;
    }
    if (cublas.ok) {
        snprintf(label, sizeof label, "cuBLAS %s", p.what);
        if (mm_run_once(&p, mm_run_cublas, label) && mm_check_sample(&p, label)) {
            p.ref = (uint16_t *)bench_hmalloc(nc * 2, p.what);
            memcpy(p.ref, p.got, nc * 2);
            if (bench_ok(mm_time(mm_run_cublas, &p, p.nsets, &s), label)) {
                mm_row("cuBLAS", &p, "cublasGemmEx 32F", &s, 0);
                cub = sum->cublas = tflops(&p, s.ms);
                mm_plot(&p, "cuBLAS", cub);
            }
        }
    }

    if (!mm_row_wanted("tile")) goto tma_rows;
    /* the tuner: one launch tunes (compiling every config), then the launch through it is timed */
    tile_launch best;
    memset(&best, 0, sizeof best);
    p.launch = (tile_launch){.tune = matmul_tuner(dt), .file = __FILE__, .line = __LINE__};
    snprintf(label, sizeof label, "tile tuned %s", p.what);
    double t0 = bench_now_ms();
    if (!bench_ok(mm_run_tile(&p, 0), label) || !bench_ok(tile_synchronize(), label)) goto done;
    sum->tune_s = (bench_now_ms() - t0) / 1e3;
    if (!bench_ok(matmul_best(dt, p.a[0], p.b[0], p.c[0], M, N, K, &best), label)) goto done;
    config_text(cfg, sizeof cfg, &best);
    snprintf(sum->tuned_cfg, sizeof sum->tuned_cfg, "%s", cfg);
    sum->pick = best;
    if (mm_check_tile(&p, label) && bench_ok(mm_time(mm_run_tile, &p, p.nsets, &s), label)) {
        char shown[56];
        snprintf(shown, sizeof shown, "tuned: %s", cfg);
        mm_row("tile", &p, shown, &s, cub);
        sum->tuned = tflops(&p, s.ms);
        mm_plot(&p, "tile (tuner's pick)", sum->tuned);
    }

    /* every config of the example's list, by hand */
    int ncf;
    const tile_autotune_config *cf = matmul_configs(&ncf);
    for (int i = 0; i < ncf && i < MM_MAX_CONFIGS; i++) {
        tile_launch l;
        memset(&l, 0, sizeof l);
        memcpy(l.meta, cf[i].meta, sizeof l.meta);
        l.num_warps = cf[i].num_warps;
        l.num_stages = cf[i].num_stages;
        l.grid[0] = tile_cdiv(M, (int)tile_meta_of(&l, "BLOCK_M")) * tile_cdiv(N, (int)tile_meta_of(&l, "BLOCK_N"));
        l.file = __FILE__;
        l.line = __LINE__;
        p.launch = l;
        config_text(cfg, sizeof cfg, &l);
        snprintf(label, sizeof label, "tile %s %s", p.what, cfg);
        if (!mm_check_tile(&p, label) || !bench_ok(mm_time(mm_run_tile, &p, p.nsets, &s), label)) continue;
        mm_row("tile", &p, cfg, &s, cub);
        mm_plot(&p, "tile (best config)", tflops(&p, s.ms));
        if (tflops(&p, s.ms) > sum->best) {
            sum->best = tflops(&p, s.ms);
            snprintf(sum->best_cfg, sizeof sum->best_cfg, "%s", cfg);
        }
    }

    /* the tensor-descriptor kernels of examples/matmul_persistent.c, every config by hand */
tma_rows:;
    static const char *const rows[TMA_VARIANTS] = {"tma", "tma-pers", "tma-ws", "tma-pers-ws"};
    for (int v = 0; v < TMA_VARIANTS; v++) {
        if (!mm_row_wanted(rows[v])) continue;
        const tile_autotuner *tt = tma_tuner(v, dt);
        for (int i = 0; i < tt->nconfigs; i++) {
            tile_launch l;
            memset(&l, 0, sizeof l);
            memcpy(l.meta, tt->configs[i].meta, sizeof l.meta);
            l.num_warps = tt->configs[i].num_warps;
            l.num_stages = tt->configs[i].num_stages;
            l.grid[0] = tile_cdiv(M, (int)tile_meta_of(&l, "BLOCK_M")) * tile_cdiv(N, (int)tile_meta_of(&l, "BLOCK_N"));
            if ((v == TMA_PERSISTENT || v == TMA_PERSISTENT_WS) && l.grid[0] > (unsigned)tile_device_sm_count())
                l.grid[0] = (unsigned)tile_device_sm_count();
            l.file = __FILE__;
            l.line = __LINE__;
            p.launch = l;
            p.tma = 1 + v;
            config_text(cfg, sizeof cfg, &l);
            snprintf(label, sizeof label, "tile %s %s %s", rows[v], p.what, cfg);
            if (!mm_check_tile(&p, label) || !bench_ok(mm_time(mm_run_tile, &p, p.nsets, &s), label)) continue;
            mm_row(rows[v], &p, cfg, &s, cub);
            char series[40];
            snprintf(series, sizeof series, "%s (best config)", rows[v]);
            mm_plot(&p, series, tflops(&p, s.ms));
            if (tflops(&p, s.ms) > sum->tma[v]) {
                sum->tma[v] = tflops(&p, s.ms);
                snprintf(sum->tma_cfg[v], sizeof sum->tma_cfg[v], "%s", cfg);
            }
        }
        p.tma = 0;
    }

    if (last && !fp8) cold_compiles(&p);
done:
    tile_synchronize();
    for (int i = 0; i < p.nsets; i++) {
        tile_free(p.a[i]);
        tile_free(p.b[i]);
        tile_free(p.c[i]);
    }
    free(p.pa);
    free(p.pb);
    free(p.got);
    free(p.ref);
    free(p.at);
    free(p.exact);
    free(p.acc_tol);
    free(pa8);
    free(pb8);
    if (last && kern) tile_kernel_release(kern);
}

int main(void) {
    /* every run tunes and compiles: no disk cache, no driver JIT cache (before the driver loads) */
    if (!getenv("TILE_CACHE")) setenv("TILE_CACHE", "0", 1);
    if (!getenv("CUDA_CACHE_DISABLE")) setenv("CUDA_CACHE_DISABLE", "1", 1);
    bench_start("bench_matmul");
    double t0 = bench_now_ms();
    int smoke = bench_smoke(), ncf;
    lut_init();
    matmul_configs(&ncf);
    if (strcmp(tile_backend_name(), "interp") == 0) {
        snprintf(cublas.why, sizeof cublas.why, "kernels run in the interpreter");
    } else {
        double c0 = bench_now_ms();
        cublas_open();
        if (cublas.ok)
            printf("# cuBLAS %d from %s (opened in %.0f ms)\n", cublas.version, cublas.path, bench_now_ms() - c0);
    }
    if (!cublas.ok) printf("# cuBLAS rows skipped: %s\n", cublas.why);
    printf("# tile: the kernel of examples/matmul_autotune.c, %d configs (%s list); "
           "disk cache %s, driver JIT cache %s\n", ncf, strcmp(tile_backend_name(), "interp") == 0 ? "interpreter" : "GPU",
           strcmp(getenv("TILE_CACHE"), "0") == 0 ? "off" : "ON", strcmp(getenv("CUDA_CACHE_DISABLE"), "0") ? "off" : "ON");
    mm_header();

    static const int shapes[3][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 512}};
    static const int smoke_shapes[3][3] = {{64, 64, 64}, {96, 64, 32}, {72, 40, 56}};
    const tl_dtype dts[2] = {TL_F16, TL_BF16};
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 3 && mm_dtype_wanted(dts[d]); i++) {
            const int *sh = smoke ? smoke_shapes[i] : shapes[i];
            bench_problem(dts[d], sh[0], sh[1], sh[2], i == 2);
        }
    /* fp8 e4m3 (B given as B^T, C in f16), the tensor-descriptor kernels
       only, next to cuBLASLt's fp8 matmul */
    if (mm_dtype_wanted(TL_F8E4M3))
        for (int i = 0; i < 2; i++) {
            const int *sh = smoke ? smoke_shapes[i] : shapes[i];
            bench_problem(TL_F8E4M3, sh[0], sh[1], sh[2], 0);
        }

    printf("\n# summary: TFLOP/s = 2 M N K / median time; tile / cuBLAS in ()\n");
    printf("%-24s %8s   %-38s   %-38s %8s %10s %8s\n", "problem", "cuBLAS", "tile, tuner's pick", "tile, best config", "tune s",
           "cold ms", "PTX ms");
    for (int i = 0; i < nsummaries; i++) {
        const mm_summary *m = &summaries[i];
        char cub[16] = "-", tuned[64] = "-", bestc[64] = "-", tune[16] = "-", cold[16] = "-", ptx[16] = "-";
        if (m->cublas > 0) snprintf(cub, sizeof cub, "%.1f", m->cublas);
        if (m->tuned > 0) {
            if (m->cublas > 0) snprintf(tuned, sizeof tuned, "%.1f (%.2f) %s", m->tuned, m->tuned / m->cublas, m->tuned_cfg);
            else snprintf(tuned, sizeof tuned, "%.1f %s", m->tuned, m->tuned_cfg);
        }
        if (m->best > 0) {
            if (m->cublas > 0) snprintf(bestc, sizeof bestc, "%.1f (%.2f) %s", m->best, m->best / m->cublas, m->best_cfg);
            else snprintf(bestc, sizeof bestc, "%.1f %s", m->best, m->best_cfg);
        }
        if (m->tune_s >= 0) snprintf(tune, sizeof tune, "%.2f", m->tune_s);
        if (m->cold_ms >= 0) snprintf(cold, sizeof cold, "%.1f", m->cold_ms);
        if (m->ptx_ms >= 0) snprintf(ptx, sizeof ptx, "%.1f", m->ptx_ms);
        printf("%-24s %8s   %-38s   %-38s %8s %10s %8s\n", m->what, cub, tuned, bestc, tune, cold, ptx);
    }
    printf("\n# the tensor-descriptor kernels (examples/matmul_persistent.c; on sm_90a their loads are a TMA ring), best config\n");
    printf("%-24s %8s   %-34s   %-34s   %-34s   %-34s\n", "problem", "cuBLAS", "tma", "tma persistent", "tma warp-specialized",
           "tma persistent warp-specialized");
    for (int i = 0; i < nsummaries; i++) {
        const mm_summary *m = &summaries[i];
        char cub[16] = "-", col[TMA_VARIANTS][64] = {"-", "-", "-", "-"};
        if (m->cublas > 0) snprintf(cub, sizeof cub, "%.1f", m->cublas);
        for (int v = 0; v < TMA_VARIANTS; v++)
            if (m->tma[v] > 0) {
                if (m->cublas > 0) snprintf(col[v], sizeof col[v], "%.1f (%.2f) %s", m->tma[v], m->tma[v] / m->cublas, m->tma_cfg[v]);
                else snprintf(col[v], sizeof col[v], "%.1f %s", m->tma[v], m->tma_cfg[v]);
            }
        printf("%-24s %8s   %-34s   %-34s   %-34s   %-34s\n", m->what, cub, col[0], col[1], col[2], col[3]);
    }
    printf("(tune s: the first launch through the tuner, every config timed, and compiled in parallel on the first "
           "problem of each dtype; cold ms: the tuner's pick compiled from nothing, launch to the end of "
           "tile_synchronize; PTX ms: the same without the driver)\n");
    printf("# bench_matmul took %.1f s\n", (bench_now_ms() - t0) / 1e3);
    if (cublas.ok) cublas.destroy(cublas.h);
    return bench_finish("bench_matmul");
}
