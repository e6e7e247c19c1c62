/* examples/tensor_parallel_mlp.c — a transformer's MLP block sharded over
   GPUs (tensor parallelism, as Megatron-LM splits it): one process per GPU,
   the partial outputs summed by NCCL's all-reduce.

       Y = gelu(X @ W1) @ W2        X: M x D, W1: D x F, W2: F x D, all f16

   Rank r of R holds F/R columns of W1 and the same F/R rows of W2. It
   computes H_r = gelu(X @ W1_r) (M x F/R in f16: a tile matmul with the GELU
   in its epilogue) and Y_r = H_r @ W2_r (M x D in f32), and the all-reduce
   adds the R partial Y_r into Y on every rank. Nothing else crosses between
   GPUs: the columns the first matmul makes are the rows the second needs.

   NCCL is loaded when the program runs (dlopen of libnccl.so.2, or of the
   path in TP_NCCL), so building this needs no NCCL headers or library. Each
   rank loads it; if every rank has it and kernels run on GPUs, the sum is
   ncclAllReduce on the default stream, after the rank's kernels. Otherwise
   (no GPU: the interpreter; or no NCCL) the partial sums are added through
   host shared memory, in rank order, and the output says so: the sharding
   and its check are the same, so CI runs this with two ranks.

   Checked: rank 0 also runs the whole MLP unsharded (the one-GPU result);
   every rank's Y must match it, and rank 0's sampled rows a float64 C
   reference (with H rounded to f16 as the kernel stores it). On GPUs the
   forward is timed (median of CUDA-event timings after warm-up): sharded,
   with the all-reduce apart, and the one-GPU run beside it.

       tensor_parallel_mlp [--threads] [RANKS [M D F]]

   --threads runs the ranks as threads of one process instead, rank r on
   device r through tile_set_device (the interpreter's devices without GPUs).

   RANKS defaults to the number of GPUs, 2 in the interpreter; rank r runs on
   GPU r (TILE_DEVICE), so RANKS may not exceed the GPUs. F must be a
   multiple of RANKS. Defaults: 4096 x 4096 x 16384 on GPUs, 48 x 64 x 256 in
   the interpreter. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

/* ---- the kernels ------------------------------------------------------------------------
   acc = A @ B for one BLOCK_M x BLOCK_N tile of C, A (M x K) and B (K x N)
   row-major with row strides lda and ldb, tiles in groups of GROUP_SIZE_M
   rows (the order of examples/matmul.c); the epilogue is the caller's. */
typedef struct { tl_t acc, offs_m, offs_n; } tp_tile;
static tp_tile tp_matmul(tl_t a_ptr, tl_t b_ptr, tl_t M, tl_t N, tl_t K, tl_t lda, tl_t ldb)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), BLOCK_K = TL_META(BLOCK_K);
    int GROUP_SIZE_M = TL_META(GROUP_SIZE_M);

    /* the program's tile in the grouped order (tl_swizzle2d, Triton's swizzle2d) */
    tl_t pid = tl_program_id(0), num_pid_n = tl_cdiv(N, BLOCK_N), pid_m, pid_n;
    tl_swizzle2d(tl_floordiv(pid, num_pid_n), tl_mod(pid, num_pid_n), tl_cdiv(M, BLOCK_M), num_pid_n, GROUP_SIZE_M, &pid_m, &pid_n);

    tp_tile t;
    t.offs_m     = tl_add(tl_mul(pid_m, BLOCK_M), tl_arange(0, BLOCK_M));
    t.offs_n     = tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N));
    tl_t offs_k  = tl_arange(0, BLOCK_K);
    /* rows and columns past the edge read row 0 / column 0 (in bounds); the store masks them */
    tl_t a_ptrs  = tl_add(a_ptr, tl_add(tl_mul(tl_expand_dims(tl_mod(t.offs_m, M), 1), lda), tl_expand_dims(offs_k, 0)));
    tl_t b_ptrs  = tl_add(b_ptr, tl_add(tl_mul(tl_expand_dims(offs_k, 1), ldb), tl_expand_dims(tl_mod(t.offs_n, N), 0)));

    t.acc = tl_zeros(TL_F32, BLOCK_M, BLOCK_N);
    tl_t acc = t.acc;
    TL_FOR (k, 0, tl_cdiv(K, BLOCK_K), 1, acc, a_ptrs, b_ptrs) {
        tl_t k_left = tl_sub(K, tl_mul(k, BLOCK_K));
        tl_t a = tl_load(a_ptrs, .mask = tl_lt(tl_expand_dims(offs_k, 0), k_left), .other = 0);
        tl_t b = tl_load(b_ptrs, .mask = tl_lt(tl_expand_dims(offs_k, 1), k_left), .other = 0);
        acc    = tl_dot(a, b, acc);
        a_ptrs = tl_add(a_ptrs, BLOCK_K);
        b_ptrs = tl_add(b_ptrs, tl_mul(BLOCK_K, ldb));
    }
    t.acc = acc;
    return t;
}
/* c[i][j] (row stride ldc) = v where i < M and j < N */
static void tp_store(tl_t c_ptr, tl_t ldc, const tp_tile *t, tl_t v, tl_t M, tl_t N)
{
    tl_t rows = tl_expand_dims(t->offs_m, 1), cols = tl_expand_dims(t->offs_n, 0);
    tl_store(tl_add(c_ptr, tl_add(tl_mul(rows, ldc), cols)), v, .mask = tl_and(tl_lt(rows, M), tl_lt(cols, N)));
}

/* H = gelu(X @ W1) in f16: X (M x D), W1 (D x F), H (M x F); GELU as torch's
   default, 0.5 x (1 + erf(x / sqrt 2)), on the f32 accumulator */
TILE_KERNEL(tp_up, (tl_ptr_f16, x), (tl_ptr_f16, w1), (tl_ptr_f16, h), (tl_i32, M), (tl_i32, F), (tl_i32, D))
{
    tp_tile t = tp_matmul(x, w1, M, F, D, D, F);
    tl_t g = tl_mul(tl_mul(t.acc, 0.5f), tl_add(tl_erf(tl_mul(t.acc, 0.70710678118654752f)), 1.0f));
    tp_store(h, F, &t, tl_cast(g, TL_F16), M, F);
}
/* Y = H @ W2 in f32: H (M x F), W2 (F x D), Y (M x D): a rank's part of the sum */
TILE_KERNEL(tp_down, (tl_ptr_f16, h), (tl_ptr_f16, w2), (tl_ptr_f32, y), (tl_i32, M), (tl_i32, D), (tl_i32, F))
{
    tp_tile t = tp_matmul(h, w2, M, D, F, F, D);
    tp_store(y, D, &t, t.acc, M, D);
}

/* Each kernel's tuner, keyed by its sizes; on GPUs tensor-core tiles, in the
   interpreter small ones so that CI runs this in a moment */
#define TP_CONFIG(bm, bn, bk, warps, stages) \
    {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk}, {"GROUP_SIZE_M", 8}}, .num_warps = warps, .num_stages = stages}
/* (both lists end with the same tile: the last IR built when tuning, which
   tests/golden holds, with or without a GPU) */
static const tile_autotune_config tp_configs_gpu[] = {
    TP_CONFIG(128, 256, 64, 8, 3), TP_CONFIG(128, 256, 64, 8, 4), TP_CONFIG(256, 128, 64, 8, 3),
    TP_CONFIG(128, 128, 64, 4, 4), TP_CONFIG(128, 128, 64, 8, 3), TP_CONFIG(64, 128, 64, 4, 4),
    TP_CONFIG(32, 64, 32, 4, 3),
};
static const tile_autotune_config tp_configs_interp[] = {TP_CONFIG(16, 64, 32, 4, 2), TP_CONFIG(32, 64, 32, 4, 3)};
static void tp_grid_up(const tile_tune_args *a, unsigned g[3])   /* H: M x F */
{
    g[0] = tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) * tile_cdiv(tile_tune_int(a, "F"), tile_tune_meta(a, "BLOCK_N"));
}
static void tp_grid_down(const tile_tune_args *a, unsigned g[3])   /* Y: M x D */
{
    g[0] = tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) * tile_cdiv(tile_tune_int(a, "D"), tile_tune_meta(a, "BLOCK_N"));
}
static tile_autotuner tp_up_tuner = {.key = {"M", "F", "D"}, .grid = tp_grid_up};
static tile_autotuner tp_down_tuner = {.key = {"M", "D", "F"}, .grid = tp_grid_down};
static const tile_autotune_config *tp_configs(int *n)
{
    int interp = strcmp(tile_backend_name(), "interp") == 0;
    *n = interp ? (int)(sizeof tp_configs_interp / sizeof *tp_configs_interp) : (int)(sizeof tp_configs_gpu / sizeof *tp_configs_gpu);
    return interp ? tp_configs_interp : tp_configs_gpu;
}

/* ---- the ranks' shared memory: a barrier, NCCL's id, and Ys -----------------------------
   One anonymous shared mapping made before the ranks are forked: a
   barrier on C11 atomics (a rank that fails sets `failed`, and the others
   leave their next barrier), whether each rank loaded NCCL, rank 0's NCCL
   id, the one-GPU Y and its tolerance, and a slot per rank for the host
   all-reduce. */
enum { TP_MAX_RANKS = 8, TP_HEAD = 1024 };
typedef struct tp_shared {
    atomic_int count, gen, failed;
    int ranks;
    int nccl_ok[TP_MAX_RANKS];
    int ok[TP_MAX_RANKS];      /* rank r's Y passed its checks */
    unsigned char nccl_id[128];
    double tol;        /* |Y - Y one-GPU| allowed, from rank 0's float64 rows */
    size_t ny;         /* floats in a Y (M x D) */
} tp_shared;
/* slot 0: the one-GPU Y; slot 1 + r: rank r's partial Y (host all-reduce) */
static float *tp_slot(tp_shared *s, int k) { return (float *)((char *)s + TP_HEAD) + (size_t)k * s->ny; }
/* 1 when every rank arrived; 0 when one failed */
static int tp_barrier(tp_shared *s)
{
    int gen = atomic_load(&s->gen);
    if (atomic_fetch_add(&s->count, 1) == s->ranks - 1) {
        atomic_store(&s->count, 0);
        atomic_fetch_add(&s->gen, 1);
    } else {
        struct timespec nap = {0, 100000};
        while (atomic_load(&s->gen) == gen && !atomic_load(&s->failed)) nanosleep(&nap, NULL);
    }
    return !atomic_load(&s->failed);
}

/* ---- NCCL, loaded at run time (nccl.h's types and values, declared here) ---------------- */
typedef struct { char internal[128]; } tp_nccl_id;   /* ncclUniqueId */
enum { TP_NCCL_FLOAT32 = 7, TP_NCCL_SUM = 0 };         /* ncclFloat32, ncclSum */
typedef struct tp_nccl {
    void *lib;
    int (*get_unique_id)(tp_nccl_id *id);
    int (*comm_init_rank)(void **comm, int nranks, tp_nccl_id id, int rank);
    int (*all_reduce)(const void *send, void *recv, size_t count, int dtype, int op, void *comm, void *stream);
    int (*comm_destroy)(void *comm);
    int (*comm_abort)(void *comm);   /* a rank that failed: its peers may be waiting in a collective */
    const char *(*get_error_string)(int result);
    int (*get_version)(int *version);
} tp_nccl;
/* 1 when libnccl loads with every function we call; else 0 and why */
static int tp_nccl_load(tp_nccl *n, char *why, size_t whyn)
{
    const char *env = getenv("TP_NCCL");
    const char *names[] = {env && *env ? env : "libnccl.so.2", "libnccl.so"};
    char first[256] = "";
    memset(n, 0, sizeof *n);
    for (int i = 0; i < 2 && !n->lib; i++)
        if (!(n->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)) && i == 0) snprintf(first, sizeof first, "%s", dlerror());
    if (!n->lib) {
        snprintf(why, whyn, "no NCCL (%s; set TP_NCCL to libnccl.so.2's path)", first);
        return 0;
    }
    static const char *const syms[] = {"ncclGetUniqueId", "ncclCommInitRank", "ncclAllReduce", "ncclCommDestroy",
                                       "ncclGetErrorString", "ncclGetVersion", "ncclCommAbort"};
    void *fns[7];
    for (int i = 0; i < 7; i++)
        if (!(fns[i] = dlsym(n->lib, syms[i]))) {
            snprintf(why, whyn, "NCCL has no %s", syms[i]);
            dlclose(n->lib);
            n->lib = NULL;
            return 0;
        }
    memcpy(&n->get_unique_id, &fns[0], sizeof fns[0]);   /* object to function pointers, as POSIX allows */
    memcpy(&n->comm_init_rank, &fns[1], sizeof fns[1]);
    memcpy(&n->all_reduce, &fns[2], sizeof fns[2]);
    memcpy(&n->comm_destroy, &fns[3], sizeof fns[3]);
    memcpy(&n->get_error_string, &fns[4], sizeof fns[4]);
    memcpy(&n->get_version, &fns[5], sizeof fns[5]);
    memcpy(&n->comm_abort, &fns[6], sizeof fns[6]);
    return 1;
}

/* printf, flushed: the ranks share the terminal, each line goes out whole when printed */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
static void tp_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}
/* *worst = the largest e so far; a NaN, once seen, stays (and fails the check) */
static void tp_worst(double *worst, double e)
{
    if (isnan(*worst)) return;
    if (isnan(e) || e > *worst) *worst = e;
}

/* ---- the data: every rank makes the same X, W1 and W2 from the seed --------------------
   element i of matrix `which` is a hash of (seed, which, i), uniform in
   [-1, 1), times `scale`, in f16: a rank makes its shard without the rest */
static uint64_t tp_seed;
static int tp_bench_rows;   /* bench/bench_tp_mlp.c: rank 0 prints a table row, the checks only when they fail */
static int tp_threads;      /* --threads: the ranks are threads (tp_group_threads) */
static tile_f16 tp_value(int which, uint64_t i, double scale)
{
    uint64_t z = tp_seed + (uint64_t)(which + 1) * 0x9E3779B97F4A7C15ull + i * 0xD1B54A32D192ED03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return tile_f16_from(((double)(z >> 11) * 0x1p-52 - 1.0) * scale);
}

typedef struct { tile_f16 *x, *w1, *w2, *h; float *y; int M, D, F; } tp_whole;   /* rank 0's unsharded MLP */
typedef struct tp_run {
    int rank, ranks, M, D, F, Fr, gpu, use_nccl;
    tp_nccl nccl;
    void *comm;
    tp_shared *s;
    tile_f16 *x, *w1, *w2, *h;   /* device: X, this rank's W1 and W2 shards, H */
    float *y;                    /* device: Y */
    float *hy;                   /* host: Y */
    tp_whole whole;              /* rank 0: device W1, W2, H and Y of the whole MLP (x is X) */
    char why[512];               /* what failed, when it was not a tile call */
} tp_run;

/* Y_r = gelu(X @ W1_r) @ W2_r for F columns of W1 starting at... (the
   arguments are the rank's shards, or the whole of both) */
static tile_status tp_layers(tile_f16 *x, tile_f16 *w1, tile_f16 *w2, tile_f16 *h, float *y, int M, int D, int F)
{
    tile_status st = tp_up(TILE_OPTS(.tune = &tp_up_tuner), x, w1, h, M, F, D);
    return st != TILE_OK ? st : tp_down(TILE_OPTS(.tune = &tp_down_tuner), h, w2, y, M, D, F);
}
/* Y = the sum over ranks of their Y_r, on every rank */
static tile_status tp_all_reduce(tp_run *t)
{
    if (t->use_nccl) {
        int rc = t->nccl.all_reduce(t->y, t->y, (size_t)t->M * (size_t)t->D, TP_NCCL_FLOAT32, TP_NCCL_SUM, t->comm, NULL);
        if (rc != 0) {
            snprintf(t->why, sizeof t->why, "ncclAllReduce failed: %s", t->nccl.get_error_string(rc));
            return TILE_ERR_LAUNCH;
        }
        return TILE_OK;
    }
    /* through host memory: each rank's part into its slot, then each adds all slots in rank order */
    size_t n = t->s->ny;
    tile_status st = tile_memcpy_dtoh(tp_slot(t->s, 1 + t->rank), t->y, n * sizeof(float));
    if (st != TILE_OK) return st;
    if (!tp_barrier(t->s)) {
        snprintf(t->why, sizeof t->why, "stopped: another rank failed");
        return TILE_ERR_LAUNCH;
    }
    for (size_t i = 0; i < n; i++) {
        float v = 0;
        for (int r = 0; r < t->ranks; r++) v += tp_slot(t->s, 1 + r)[i];
        t->hy[i] = v;
    }
    if (!tp_barrier(t->s)) {   /* every rank has read every slot */
        snprintf(t->why, sizeof t->why, "stopped: another rank failed");
        return TILE_ERR_LAUNCH;
    }
    return tile_memcpy_htod(t->y, t->hy, n * sizeof(float));
}
static tile_status tp_forward(tp_run *t)
{
    tile_status st = tp_layers(t->x, t->w1, t->w2, t->h, t->y, t->M, t->D, t->Fr);
    return st != TILE_OK ? st : tp_all_reduce(t);
}

/* ---- checks and timings ----------------------------------------------------------------- */
/* rank 0: row i of Y in float64 from the f16 inputs, H rounded to f16 as
   the kernel stores it; s[c] = sum over f of |h_f w2_fc|, the size of what
   column c adds up (the kernel's error is at most an f16 rounding of each h) */
static void tp_reference_row(const tile_f16 *x, const tile_f16 *w1, const tile_f16 *w2, int D, int F, int i, double *h, double *y, double *s)
{
    for (int f = 0; f < F; f++) {
        double a = 0;
        for (int d = 0; d < D; d++) a += tile_f16_to(x[(size_t)i * D + d]) * tile_f16_to(w1[(size_t)d * F + f]);
        h[f] = tile_f16_to(tile_f16_from(0.5 * a * (1.0 + erf(a / sqrt(2.0)))));
    }
    for (int c = 0; c < D; c++) y[c] = s[c] = 0;
    for (int f = 0; f < F; f++)
        for (int c = 0; c < D; c++) {
            double p = h[f] * tile_f16_to(w2[(size_t)f * D + c]);
            y[c] += p;
            s[c] += fabs(p);
        }
}
/* for tile_do_bench */
static tile_status tp_forward_fn(void *u) { return tp_forward((tp_run *)u); }
static tile_status tp_all_reduce_fn(void *u) { return tp_all_reduce((tp_run *)u); }
static tile_status tp_whole_fn(void *u)
{
    tp_whole *w = (tp_whole *)u;
    return tp_layers(w->x, w->w1, w->w2, w->h, w->y, w->M, w->D, w->F);
}
static double tp_median_ms(tile_status (*fn)(void *), void *arg, tile_status *st)
{
    tile_bench_result r;
    *st = tile_do_bench(fn, arg, TILE_BENCH_OPTS(.warmup = 3, .reps = 10), &r);
    return *st == TILE_OK ? r.median_ms : 0;
}

/* rank 0's part beyond its shard: the whole MLP on its GPU (the unsharded
   result, into slot 0, its buffers kept in t->whole for the timing), and
   float64 rows against it and against the sharded Y; 1 when all is well */
static int tp_rank0_check(tp_run *t)
{
    int M = t->M, D = t->D, F = t->F, ok = 1;
    size_t nx = (size_t)M * D, nw = (size_t)D * F;
    tile_f16 *hx = (tile_f16 *)malloc(nx * sizeof *hx), *hw1 = (tile_f16 *)malloc(nw * sizeof *hw1), *hw2 = (tile_f16 *)malloc(nw * sizeof *hw2);
    double *rh = (double *)malloc((size_t)F * sizeof(double)), *ry = (double *)malloc((size_t)D * 2 * sizeof(double));
    tp_whole *w = &t->whole;
    tile_status st = TILE_ERR_NOMEM;
    if (!hx || !hw1 || !hw2 || !rh || !ry) goto done;
    for (size_t i = 0; i < nx; i++) hx[i] = tp_value(0, i, 1.0);
    for (size_t i = 0; i < nw; i++) hw1[i] = tp_value(1, i, sqrt(3.0 / D)), hw2[i] = tp_value(2, i, sqrt(3.0 / F));
    w->x = t->x, w->M = M, w->D = D, w->F = F;
    w->w1 = (tile_f16 *)tile_malloc(nw * 2), w->w2 = (tile_f16 *)tile_malloc(nw * 2), w->h = (tile_f16 *)tile_malloc((size_t)M * F * 2);
    w->y = (float *)tile_malloc(nx * sizeof(float));
    if (!w->w1 || !w->w2 || !w->h || !w->y) goto done;
    if ((st = tile_memcpy_htod(w->w1, hw1, nw * 2)) != TILE_OK || (st = tile_memcpy_htod(w->w2, hw2, nw * 2)) != TILE_OK ||
        (st = tile_memset(w->y, 0xff, nx * sizeof(float))) != TILE_OK || (st = tp_whole_fn(w)) != TILE_OK ||
        (st = tile_memcpy_dtoh(tp_slot(t->s, 0), w->y, nx * sizeof(float))) != TILE_OK)
        goto done;
    /* float64 rows: every row of a small Y, else four */
    int rows[4] = {0, M - 1, M / 3, (2 * M) / 3}, nrows = M <= 64 ? M : 4;
    double err_one = 0, err_tp = 0, smax = 0;   /* errors in units of the tolerance */
    const float *one = tp_slot(t->s, 0);
    for (int k = 0; k < nrows; k++) {
        int i = M <= 64 ? k : rows[k];
        tp_reference_row(hx, hw1, hw2, D, F, i, rh, ry, ry + D);
        for (int c = 0; c < D; c++) {
            double tol = 1e-3 * ry[D + c] + 1e-6, want = ry[c];
            double e1 = fabs(one[(size_t)i * D + c] - want) / tol, e2 = fabs(t->hy[(size_t)i * D + c] - want) / tol;
            tp_worst(&err_one, e1);
            tp_worst(&err_tp, e2);
            if (ry[D + c] > smax) smax = ry[D + c];
        }
    }
    t->s->tol = 2e-3 * smax + 1e-6;
    ok = err_one <= 1 && err_tp <= 1;
    if (!tp_bench_rows || !ok)
        tp_say("float64 reference, %d rows: unsharded %.3f, sharded %.3f of the tolerance (1e-3 sum |h w2|): %s\n", nrows, err_one, err_tp,
               ok ? "OK" : "FAILED");
done:
    if (st != TILE_OK) tp_say("rank 0: the unsharded run: %s\n", tile_last_error()), ok = 0;
    free(hx), free(hw1), free(hw2), free(rh), free(ry);
    return ok;
}

/* ---- one rank (a process of its own) ---------------------------------------------------- */
static int tp_rank_main(int rank, int ranks, int M, int D, int F, int gpu, tp_shared *s)
{
    tp_run t = {.rank = rank, .ranks = ranks, .M = M, .D = D, .F = F, .Fr = F / ranks, .gpu = gpu, .s = s};
    int Fr = t.Fr, ok = 0;
    size_t nx = (size_t)M * D, nw = (size_t)D * Fr;
    tile_f16 *hx = (tile_f16 *)malloc(nx * 2), *hw1 = (tile_f16 *)malloc(nw * 2), *hw2 = (tile_f16 *)malloc(nw * 2);
    t.hy = (float *)malloc(nx * sizeof(float));
    tile_status st = TILE_ERR_NOMEM;
    char *why = t.why, nccl_why[512] = "";   /* why this rank failed; why NCCL is not used */
    if (!hx || !hw1 || !hw2 || !t.hy) {
        snprintf(why, sizeof t.why, "out of host memory");
        goto done;
    }
    /* this rank's shards: W1's columns and W2's rows [rank Fr, (rank + 1) Fr) */
    for (size_t i = 0; i < nx; i++) hx[i] = tp_value(0, i, 1.0);
    for (int d = 0; d < D; d++)
        for (int j = 0; j < Fr; j++) hw1[(size_t)d * Fr + j] = tp_value(1, (size_t)d * F + (size_t)rank * Fr + j, sqrt(3.0 / D));
    for (int j = 0; j < Fr; j++)
        for (int c = 0; c < D; c++) hw2[(size_t)j * D + c] = tp_value(2, ((size_t)rank * Fr + j) * D + c, sqrt(3.0 / F));
    t.x = (tile_f16 *)tile_malloc(nx * 2), t.w1 = (tile_f16 *)tile_malloc(nw * 2), t.w2 = (tile_f16 *)tile_malloc(nw * 2);
    t.h = (tile_f16 *)tile_malloc((size_t)M * Fr * 2), t.y = (float *)tile_malloc(nx * sizeof(float));
    if (!t.x || !t.w1 || !t.w2 || !t.h || !t.y) goto done;
    if ((st = tile_memcpy_htod(t.x, hx, nx * 2)) != TILE_OK || (st = tile_memcpy_htod(t.w1, hw1, nw * 2)) != TILE_OK ||
        (st = tile_memcpy_htod(t.w2, hw2, nw * 2)) != TILE_OK || (st = tile_memset(t.y, 0xff, nx * sizeof(float))) != TILE_OK)
        goto done;
    if (!tp_up_tuner.configs) {   /* (set before the threads start, with --threads) */
        tp_up_tuner.configs = tp_configs(&tp_up_tuner.nconfigs);
        tp_down_tuner.configs = tp_configs(&tp_down_tuner.nconfigs);
    }

    /* NCCL when every rank has it and kernels run on GPUs; rank 0 makes the id */
    s->nccl_ok[rank] = gpu && tp_nccl_load(&t.nccl, nccl_why, sizeof nccl_why);
    if (!gpu) snprintf(nccl_why, sizeof nccl_why, "kernels run in the interpreter");
    if (!tp_barrier(s)) goto done;
    for (int r = 0; r < ranks && !nccl_why[0]; r++)
        if (!s->nccl_ok[r]) snprintf(nccl_why, sizeof nccl_why, "rank %d has no NCCL", r);
    t.use_nccl = 1;
    for (int r = 0; r < ranks; r++) t.use_nccl &= s->nccl_ok[r];
    if (t.use_nccl) {
        tp_nccl_id id;
        int rc = 0;
        if (rank == 0 && (rc = t.nccl.get_unique_id(&id)) == 0) memcpy(s->nccl_id, &id, sizeof id);
        if (rc != 0) snprintf(why, sizeof t.why, "ncclGetUniqueId failed: %s", t.nccl.get_error_string(rc));
        if (rc != 0 || !tp_barrier(s)) goto done;
        memcpy(&id, s->nccl_id, sizeof id);
        if ((rc = t.nccl.comm_init_rank(&t.comm, ranks, id, rank)) != 0) {
            snprintf(why, sizeof t.why, "ncclCommInitRank failed: %s", t.nccl.get_error_string(rc));
            goto done;
        }
    }
    if (rank == 0 && !tp_bench_rows) {
        char dev[128] = "";
        int v = 0;
        tile_device_name(dev, sizeof dev);
        if (t.use_nccl) t.nccl.get_version(&v);
        const char *each = tp_threads ? "each a thread on its own device" : "each a process";
        if (t.use_nccl) tp_say("%d ranks on %s, %s with its GPU; the sum: ncclAllReduce (NCCL %d)\n", ranks, dev, each, v);
        else tp_say("%d ranks on %s, %s; the sum: through host shared memory (%s)\n", ranks, dev, each, nccl_why);
    }

    /* the sharded forward (its first run tunes both kernels), then Y back */
    if ((st = tp_forward(&t)) != TILE_OK || (st = tile_memcpy_dtoh(t.hy, t.y, nx * sizeof(float))) != TILE_OK) goto done;
    if (!tp_barrier(s)) goto done;
    if (rank == 0 && !tp_rank0_check(&t)) goto done;
    if (!tp_barrier(s)) goto done;
    /* every rank: its Y against the unsharded Y */
    double worst = 0;
    const float *one = tp_slot(s, 0);
    for (size_t i = 0; i < nx; i++) {
        tp_worst(&worst, fabs((double)t.hy[i] - one[i]));
    }
    s->ok[rank] = worst <= s->tol;
    if (!tp_bench_rows || !s->ok[rank])
        tp_say("rank %d: Y (%d x %d) against the unsharded run: max difference %.3g (tolerance %.3g): %s\n", rank, M, D, worst, s->tol,
               s->ok[rank] ? "OK" : "FAILED");
    if (!tp_barrier(s)) goto done;
    ok = 1;
    for (int r = 0; r < ranks; r++) ok &= s->ok[r];
    if (ok && !t.use_nccl && rank == 0 && tp_bench_rows) tp_say("%6d %6d %6d %5d not timed: %s\n", M, D, F, ranks, nccl_why);
    /* checked everywhere: timed on every rank alike (the collectives pair up), rank 0 reports */
    if (ok && t.use_nccl) {
        double tp_ms = tp_median_ms(tp_forward_fn, &t, &st), ar_ms = 0, one_ms = 0;
        if (st == TILE_OK) ar_ms = tp_median_ms(tp_all_reduce_fn, &t, &st);
        if (st == TILE_OK && !tp_barrier(s)) ok = 0;
        if (st == TILE_OK && ok && rank == 0) one_ms = tp_median_ms(tp_whole_fn, &t.whole, &st);
        if (st != TILE_OK) ok = 0;
        double flop = 4.0 * M * (double)D * F;
        if (ok && rank == 0 && tp_bench_rows)
            tp_say("%6d %6d %6d %5d %9.3f %8.0f %9.3f %8.0f %9.3f %7.2fx\n", M, D, F, ranks, one_ms, flop / one_ms * 1e-9, tp_ms,
                   flop / ranks / tp_ms * 1e-9, ar_ms, one_ms / tp_ms);
        else if (ok && rank == 0)
            tp_say("forward %d x %d x %d: unsharded on one GPU %.3f ms (%.0f TFLOP/s); %d ranks %.3f ms (%.0f TFLOP/s per GPU), of which the "
                   "all-reduce %.3f ms: %.2fx faster\n",
                   M, D, F, one_ms, flop / one_ms * 1e-9, ranks, tp_ms, flop / ranks / tp_ms * 1e-9, ar_ms, one_ms / tp_ms);
    }
done:
    if (!ok) {
        const char *e = why[0] ? why : st != TILE_OK && tile_last_error()[0] ? tile_last_error() : atomic_load(&s->failed) ? "stopped: another rank failed" : "";
        if (e[0]) tp_say("rank %d: %s\n", rank, e);
    }
    if (!ok) atomic_store(&s->failed, 1);   /* the others leave their barriers */
    if (t.comm && ok) t.nccl.comm_destroy(t.comm);
    else if (t.comm) t.nccl.comm_abort(t.comm);   /* the peers' collectives fail instead of waiting for this rank */
    if (t.nccl.lib) dlclose(t.nccl.lib);
    tile_free(t.x), tile_free(t.w1), tile_free(t.w2), tile_free(t.h), tile_free(t.y);
    tile_free(t.whole.w1), tile_free(t.whole.w2), tile_free(t.whole.h), tile_free(t.whole.y);
    free(hx), free(hw1), free(hw2), free(t.hy);
    tile_autotune_release(&tp_up_tuner);
    tile_autotune_release(&tp_down_tuner);
    tile_kernel_release(TILE_KERNEL_OF(tp_up));
    tile_kernel_release(TILE_KERNEL_OF(tp_down));
    return ok;
}

/* seconds on a monotonic clock */
static double tp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
/* The number of GPUs kernels would run on, asked in a child process: a
   process must not fork after it has started the CUDA driver; -1 when the
   child could not be run */
static int tp_gpus(void)
{
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) _exit(strcmp(tile_backend_name(), "interp") == 0 ? 0 : tile_device_count() > 100 ? 100 : tile_device_count());
    int status = 0;
    if (p < 0 || waitpid(p, &status, 0) < 0 || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}
/* Run the MLP on `ranks` processes (rank r on GPU r when gpus > 0) and wait
   for them; the number of ranks that failed */
static int tp_group(int ranks, int M, int D, int F, int gpus)
{
    /* the ranks' shared memory: the header, the unsharded Y and a Y per rank */
    size_t ny = (size_t)M * D, bytes = TP_HEAD + (1 + (size_t)ranks) * ny * sizeof(float);
    tp_shared *s = (tp_shared *)mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        perror("tensor_parallel_mlp: mmap");
        return ranks;
    }
    memset(s, 0, TP_HEAD);
    atomic_init(&s->count, 0), atomic_init(&s->gen, 0), atomic_init(&s->failed, 0);
    s->ranks = ranks;
    s->ny = ny;
    tp_seed = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();   /* fresh inputs each run, the same on every rank */
    pid_t pids[TP_MAX_RANKS];
    fflush(stdout);
    for (int r = 0; r < ranks; r++) {
        if ((pids[r] = fork()) == 0) {
            if (gpus) {   /* rank r runs on GPU r */
                char dev[16];
                snprintf(dev, sizeof dev, "%d", r);
                setenv("TILE_DEVICE", dev, 1);
            }
            exit(tp_rank_main(r, ranks, M, D, F, gpus > 0, s) ? 0 : 1);
        }
        if (pids[r] < 0) atomic_store(&s->failed, 1);
    }
    /* wait for the ranks. When one fails (an error, or a signal), the others
       leave their next barrier; those still running 60 s later (waiting in a
       collective for the failed one) are killed */
    int failed = 0, left = 0;
    double since = 0;   /* when the first failure was seen */
    for (int r = 0; r < ranks; r++) pids[r] < 0 ? failed++ : left++;
    if (failed) since = tp_now();
    while (left > 0) {
        int status = 0;
        pid_t p = waitpid(-1, &status, failed ? WNOHANG : 0);
        if (p < 0) break;
        for (int r = 0; r < ranks && p > 0; r++)
            if (pids[r] == p) {
                pids[r] = -1, left--;
                if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                    if (!failed++) since = tp_now();
                    atomic_store(&s->failed, 1);
                }
            }
        if (p == 0 && tp_now() - since > 60) {
            for (int r = 0; r < ranks; r++)
                if (pids[r] > 0) kill(pids[r], SIGKILL);
            since = tp_now();   /* (reaped above as they go) */
        } else if (p == 0) {
            struct timespec nap = {0, 10000000};
            nanosleep(&nap, NULL);
        }
    }
    munmap(s, bytes);
    return failed;
}

/* --threads: the ranks are threads of this process, rank r on device r
   through tile_set_device (one thread per GPU; NCCL's communicators made
   by each thread as the processes make theirs). In the interpreter the
   devices are TILE_INTERPRET_DEVICES's, set to the ranks. */
typedef struct tp_thread { int rank, ranks, M, D, F, gpu, ok; tp_shared *s; } tp_thread;
static void *tp_thread_main(void *p)
{
    tp_thread *t = (tp_thread *)p;
    if (tile_set_device(t->rank) != TILE_OK) {
        tp_say("rank %d: FAILED: tile_set_device(%d): %s\n", t->rank, t->rank, tile_last_error());
        atomic_store(&t->s->failed, 1);
        return NULL;
    }
    t->ok = tp_rank_main(t->rank, t->ranks, t->M, t->D, t->F, t->gpu, t->s);
    if (!t->ok) atomic_store(&t->s->failed, 1);   /* the others leave their barriers */
    return NULL;
}
static int tp_group_threads(int ranks, int M, int D, int F, int gpus)
{
    size_t ny = (size_t)M * D, bytes = TP_HEAD + (1 + (size_t)ranks) * ny * sizeof(float);
    tp_shared *s = (tp_shared *)calloc(1, bytes);
    if (!s) {
        fprintf(stderr, "tensor_parallel_mlp: out of host memory\n");
        return ranks;
    }
    atomic_init(&s->count, 0), atomic_init(&s->gen, 0), atomic_init(&s->failed, 0);
    s->ranks = ranks;
    s->ny = ny;
    tp_seed = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
    tp_up_tuner.configs = tp_configs(&tp_up_tuner.nconfigs);
    tp_down_tuner.configs = tp_configs(&tp_down_tuner.nconfigs);
    tp_threads = 1;
    pthread_t th[TP_MAX_RANKS];
    tp_thread t[TP_MAX_RANKS];
    int started[TP_MAX_RANKS], failed = 0;
    for (int r = 0; r < ranks; r++) {
        t[r] = (tp_thread){.rank = r, .ranks = ranks, .M = M, .D = D, .F = F, .gpu = gpus > 0, .ok = 0, .s = s};
        started[r] = pthread_create(&th[r], NULL, tp_thread_main, &t[r]) == 0;
        if (!started[r]) atomic_store(&s->failed, 1);
    }
    for (int r = 0; r < ranks; r++) {
        if (started[r]) pthread_join(th[r], NULL);
        failed += !t[r].ok;
    }
    free(s);
    return failed;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 && strcmp(argv[1], "--threads") == 0;
    if (threads) argc--, argv++;
    if (threads && argc > 1 && atoi(argv[1]) > 0)
        setenv("TILE_INTERPRET_DEVICES", argv[1], 0);   /* without GPUs: a device a rank */
    else if (threads)
        setenv("TILE_INTERPRET_DEVICES", "2", 0);
    int gpus = tp_gpus();
    if (gpus < 0) {
        fprintf(stderr, "tensor_parallel_mlp: could not ask a child process for the GPUs\n");
        return 1;
    }
    int ranks = argc > 1 ? atoi(argv[1]) : gpus ? (gpus < TP_MAX_RANKS ? gpus : TP_MAX_RANKS) : 2;
    int M = gpus ? 4096 : 48, D = gpus ? 4096 : 64, F = gpus ? 16384 : 256;
    if (argc > 4) M = atoi(argv[2]), D = atoi(argv[3]), F = atoi(argv[4]);
    if (ranks < 1 || ranks > TP_MAX_RANKS || (gpus && ranks > gpus) || M < 1 || D < 1 || F < ranks || F % ranks) {
        fprintf(stderr, "usage: tensor_parallel_mlp [--threads] [RANKS [M D F]]: 1 to %d ranks, at most one per GPU (%d here), F a multiple of RANKS\n",
                TP_MAX_RANKS, gpus);
        return 2;
    }
    printf("tensor_parallel_mlp: Y = gelu(X @ W1) @ W2, X %d x %d, W1 %d x %d, W2 %d x %d (f16), F split over %d ranks (%s)\n", M, D, D, F, F, D, ranks,
           threads ? "threads of one process, tile_set_device" : "a process each");
    int failed = threads ? tp_group_threads(ranks, M, D, F, gpus) : tp_group(ranks, M, D, F, gpus);
    printf("tensor_parallel_mlp: %d of %d ranks %s\n", ranks - failed, ranks, failed ? "succeeded: FAILED" : "OK");
    return failed ? 1 : 0;
}
