/* examples/matmul_persistent.c — Triton's tutorial 09 ("persistent matmul")
   in C: the matmul through tensor descriptors, one tile per program and
   persistent, autotuned, in f16, bf16 and fp8 (e4m3 inputs, f16 C).

   matmul_tma           one program per output tile, in the grouped order
                        (GROUP_SIZE_M tile-rows share their A tiles in L2);
                        A, B and C through tl_make_tensor_descriptor, so no
                        masks: the descriptor reads zeros past M, N and K
                        and clips the store at M and N.
   matmul_tma_persistent
                        one program per multiprocessor
                        (tile_device_sm_count()), each looping over the
                        tiles tile_id = program_id, program_id + programs,
                        ... in the same grouped order.
   On sm_90a each K loop's descriptor loads are a TMA ring: the copy engine
   moves each stage's blocks into 128-byte-swizzled shared memory and
   signals an mbarrier; wgmma reads them there (TILE_DUMP=ttgir shows the
   ring). On older GPUs and in the interpreter the same kernels run as
   masked pointer loads. The pointer kernel of the tutorial is
   examples/matmul_autotune.c; bench/bench_matmul.c times all three against
   cuBLAS.
   matmul_tma_ws, matmul_tma_persistent_ws
                        the same with TL_LOOP_OPTIONS(.warp_specialize = 1)
                        on the K loop, or on the persistent loop, as
                        tl.range(..., warp_specialize=True): on sm_90a a
                        producer warpgroup issues the copies and two
                        consumer warpgroups run wgmma; persistent, the
                        producer loads the next tile while the consumers
                        store this one. With num_warps 4 (persistent only)
                        the two consumer warpgroups take the tiles in turn
                        ("ping-pong"): one stores its tile while the
                        other's wgmmas run. Elsewhere a notice says why not
                        and the kernel runs as matmul_tma does.

       matmul_persistent [M N K [VARIANT|all [DTYPE]]]   default 200 x 136 x 90, every variant and dtype

   The kernels have in-kernel scopes around each tile, its K loop and its
   epilogue: `TILE_PROFILE=mm matmul_persistent 4096 4096 4096
   matmul_tma_persistent_ws` writes mm.txt, mm.json and mm.html with each
   warp's spans (see the README's "Scopes inside kernels").

   fp8 (the *_fp8 kernels): A and B in e4m3, B given as B^T (N x K) and
   read as tl_trans of its blocks, as Triton's tutorial 09 gives it: on
   sm_90a with BLOCK_K 128 the dot is wgmma's own fp8 form (m64nNk32,
   twice the f16 rate), which reads both operands K-major; elsewhere fp8 is
   widened to f16 (exact).

   A descriptor's row strides must be multiples of 16 bytes, so the rows of
   A, B and C are padded to 16 bytes (K = 90 has rows of 96 f16, 96 fp8);
   the descriptors' shapes are the logical M, N, K. Checked in float64 against
   the rounded inputs (every element for the default size, 2000 samples for
   large ones), and the padding of C must stay unwritten. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the grouped order: tile t of the launch is (pid_m, pid_n) */
static void tile_of(tl_t t, tl_t M, tl_t N, int BLOCK_M, int BLOCK_N, int GROUP_SIZE_M, tl_t *pid_m, tl_t *pid_n)
{
    tl_t num_pid_m        = tl_cdiv(M, BLOCK_M);
    tl_t num_pid_n        = tl_cdiv(N, BLOCK_N);
    tl_t num_pid_in_group = tl_mul(GROUP_SIZE_M, num_pid_n);
    tl_t first_pid_m      = tl_mul(tl_floordiv(t, num_pid_in_group), GROUP_SIZE_M);
    tl_t group_size_m     = tl_minimum(tl_sub(num_pid_m, first_pid_m), GROUP_SIZE_M);
    *pid_m = tl_add(first_pid_m, tl_mod(tl_mod(t, num_pid_in_group), group_size_m));
    *pid_n = tl_floordiv(tl_mod(t, num_pid_in_group), group_size_m);
}
/* one tile of C: the K loop over descriptor blocks, then the store; with
   b_t, B is given as B^T (N x K, as Triton's tutorial 09 takes it) */
static void one_tile(tl_dtype out_dtype, int b_t, tl_t a_desc, tl_t b_desc, tl_t c_desc, tl_t pid_m, tl_t pid_n, tl_t K, int BLOCK_M,
                     int BLOCK_N, int BLOCK_K, int warp_specialize)
{
    /* in-kernel scopes: recorded while a profile runs (TILE_PROFILE=path),
       compiled out otherwise */
    tl_profile_enter("tile");
    tl_t off_m = tl_mul(pid_m, BLOCK_M), off_n = tl_mul(pid_n, BLOCK_N);
    tl_t acc   = tl_zeros(TL_F32, BLOCK_M, BLOCK_N);
    tl_profile_enter("mainloop");
    if (warp_specialize) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (k, 0, tl_cdiv(K, BLOCK_K), 1, acc) {
        tl_t off_k = tl_mul(k, BLOCK_K);
        tl_t a     = tl_desc_load(a_desc, (off_m, off_k));
        if (b_t) {
            tl_t b = tl_desc_load(b_desc, (off_n, off_k));
            acc    = tl_dot(a, tl_trans(b), acc);
        } else {
            tl_t b = tl_desc_load(b_desc, (off_k, off_n));
            acc    = tl_dot(a, b, acc);
        }
    }
    tl_profile_exit("mainloop");
    tl_profile_enter("epilogue");
    tl_desc_store(c_desc, (off_m, off_n), tl_cast(acc, out_dtype));
    tl_profile_exit("epilogue");
    tl_profile_exit("tile");
}
/* dt: C's dtype; fp8: A and B are e4m3 and B is given as B^T (N x K,
   stride_bk its row stride), as wgmma's fp8 form reads B K-major */
static void matmul_tma_body(tl_dtype dt, int fp8, int persistent, int warp_specialize, tl_t a_ptr, tl_t b_ptr, tl_t c_ptr, tl_t M, tl_t N, tl_t K,
                            tl_t stride_am, tl_t stride_bk, tl_t stride_cm)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), BLOCK_K = TL_META(BLOCK_K);
    int GROUP_SIZE_M = TL_META(GROUP_SIZE_M);
    tl_t a_desc = tl_make_tensor_descriptor(a_ptr, (M, K), (stride_am, 1), (BLOCK_M, BLOCK_K));
    tl_t b_desc = fp8 ? tl_make_tensor_descriptor(b_ptr, (N, K), (stride_bk, 1), (BLOCK_N, BLOCK_K))
                      : tl_make_tensor_descriptor(b_ptr, (K, N), (stride_bk, 1), (BLOCK_K, BLOCK_N));
    tl_t c_desc = tl_make_tensor_descriptor(c_ptr, (M, N), (stride_cm, 1), (BLOCK_M, BLOCK_N));
    tl_t pid_m, pid_n;
    if (!persistent) {
        tile_of(tl_program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M, &pid_m, &pid_n);
        one_tile(dt, fp8, a_desc, b_desc, c_desc, pid_m, pid_n, K, BLOCK_M, BLOCK_N, BLOCK_K, warp_specialize);
        return;
    }
    tl_t num_tiles = tl_mul(tl_cdiv(M, BLOCK_M), tl_cdiv(N, BLOCK_N));
    /* warp-specialized: the producer runs this loop too, its copies for the
       next tile going on while the consumers store this one */
    if (warp_specialize) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (tile_id, tl_program_id(0), num_tiles, tl_num_programs(0)) {
        tile_of(tile_id, M, N, BLOCK_M, BLOCK_N, GROUP_SIZE_M, &pid_m, &pid_n);
        one_tile(dt, fp8, a_desc, b_desc, c_desc, pid_m, pid_n, K, BLOCK_M, BLOCK_N, BLOCK_K, 0);
    }
}

#define MATMUL_TMA_PARAMS(ptr, cptr)                                                                                           \
    (ptr, a_ptr), (ptr, b_ptr), (cptr, c_ptr), (tl_i32, M), (tl_i32, N), (tl_i32, K), (tl_i32, stride_am), (tl_i32, stride_bk), \
        (tl_i32, stride_cm)
#define MATMUL_TMA_ARGS a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm
TILE_KERNEL(matmul_tma, MATMUL_TMA_PARAMS(tl_ptr_f16, tl_ptr_f16)) { matmul_tma_body(TL_F16, 0, 0, 0, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_bf16, MATMUL_TMA_PARAMS(tl_ptr_bf16, tl_ptr_bf16)) { matmul_tma_body(TL_BF16, 0, 0, 0, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_fp8, MATMUL_TMA_PARAMS(tl_ptr_f8e4m3, tl_ptr_f16)) { matmul_tma_body(TL_F16, 1, 0, 0, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_persistent, MATMUL_TMA_PARAMS(tl_ptr_f16, tl_ptr_f16)) { matmul_tma_body(TL_F16, 0, 1, 0, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_persistent_bf16, MATMUL_TMA_PARAMS(tl_ptr_bf16, tl_ptr_bf16)) { matmul_tma_body(TL_BF16, 0, 1, 0, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_persistent_fp8, MATMUL_TMA_PARAMS(tl_ptr_f8e4m3, tl_ptr_f16)) { matmul_tma_body(TL_F16, 1, 1, 0, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_ws, MATMUL_TMA_PARAMS(tl_ptr_f16, tl_ptr_f16)) { matmul_tma_body(TL_F16, 0, 0, 1, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_ws_bf16, MATMUL_TMA_PARAMS(tl_ptr_bf16, tl_ptr_bf16)) { matmul_tma_body(TL_BF16, 0, 0, 1, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_ws_fp8, MATMUL_TMA_PARAMS(tl_ptr_f8e4m3, tl_ptr_f16)) { matmul_tma_body(TL_F16, 1, 0, 1, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_persistent_ws, MATMUL_TMA_PARAMS(tl_ptr_f16, tl_ptr_f16)) { matmul_tma_body(TL_F16, 0, 1, 1, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_persistent_ws_bf16, MATMUL_TMA_PARAMS(tl_ptr_bf16, tl_ptr_bf16)) { matmul_tma_body(TL_BF16, 0, 1, 1, MATMUL_TMA_ARGS); }
TILE_KERNEL(matmul_tma_persistent_ws_fp8, MATMUL_TMA_PARAMS(tl_ptr_f8e4m3, tl_ptr_f16)) { matmul_tma_body(TL_F16, 1, 1, 1, MATMUL_TMA_ARGS); }

#define TMA_CONFIG(bm, bn, bk, warps, stages)                                                      \
    {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk}, {"GROUP_SIZE_M", 8}}, .num_warps = warps, \
     .num_stages = stages}
/* On a GPU: tiles whose rows of A and B are whole 128-byte swizzle atoms
   (BLOCK_K and BLOCK_N of 64 f16 or more), what the TMA ring takes. */
static const tile_autotune_config tma_configs_gpu[] = {
    TMA_CONFIG(128, 256, 64, 8, 3), TMA_CONFIG(128, 256, 64, 8, 4), TMA_CONFIG(256, 128, 64, 8, 3),
    TMA_CONFIG(256, 128, 64, 8, 4), TMA_CONFIG(128, 128, 64, 4, 4), TMA_CONFIG(128, 128, 64, 8, 4),
    TMA_CONFIG(64, 256, 64, 4, 4),  TMA_CONFIG(128, 64, 64, 4, 4),
    /* 96 KiB of stages: two programs per multiprocessor, one's epilogue beside the other's loop */
    TMA_CONFIG(128, 128, 64, 4, 3), TMA_CONFIG(128, 128, 64, 8, 3),
};
/* In the interpreter: small tiles, so that CI runs and tunes this program
   quickly; the last (the IR tests/golden holds) has rows of 128 bytes, so
   its sm_90a plan is a TMA ring. */
static const tile_autotune_config tma_configs_interp[] = {
    TMA_CONFIG(32, 32, 32, 2, 3),
    TMA_CONFIG(32, 64, 32, 4, 3),
    TMA_CONFIG(64, 64, 64, 4, 3),
};
/* Warp-specialized: 8 warps compute (two consumer warpgroups) beside the
   producer warpgroup, and the ring stays out of the epilogue's shared
   memory, so the stages are fewer. */
static const tile_autotune_config ws_configs_gpu[] = {
    TMA_CONFIG(128, 256, 64, 8, 3), TMA_CONFIG(256, 128, 64, 8, 3), TMA_CONFIG(128, 256, 64, 8, 2),
    TMA_CONFIG(128, 128, 64, 8, 4), TMA_CONFIG(128, 128, 64, 8, 5), TMA_CONFIG(128, 128, 64, 8, 6),
};
/* Persistent and warp-specialized: with 8 warps the two consumer
   warpgroups share each tile (as above); with 4 warps each consumer
   warpgroup has its own tile and the two take the tiles in turn (ping-pong:
   one stores its tile while the other's wgmmas run), each with its own
   epilogue scratch: 5 stages of 128x128 fit where C's store goes through
   the copy engine (its rows whole 16-byte chunks), 4 otherwise. */
static const tile_autotune_config wsp_configs_gpu[] = {
    TMA_CONFIG(128, 256, 64, 8, 3), TMA_CONFIG(256, 128, 64, 8, 3), TMA_CONFIG(128, 128, 64, 8, 5),
    TMA_CONFIG(128, 128, 64, 4, 4), TMA_CONFIG(128, 128, 64, 4, 5), TMA_CONFIG(64, 256, 64, 4, 3),
};
static const tile_autotune_config ws_configs_interp[] = {
    TMA_CONFIG(32, 64, 32, 4, 3),
    TMA_CONFIG(128, 64, 64, 8, 3),
};
/* fp8 (e4m3): BLOCK_K 128, rows of A and B^T of 128 bytes, what wgmma's
   native fp8 form reads (m64nNk32, twice the f16 rate); in the interpreter,
   a small tile and one the sm_90a plan runs natively */
static const tile_autotune_config fp8_configs_gpu[] = {
    TMA_CONFIG(128, 256, 128, 8, 3), TMA_CONFIG(128, 256, 128, 8, 4), TMA_CONFIG(256, 128, 128, 8, 3),
    TMA_CONFIG(128, 128, 128, 8, 4), TMA_CONFIG(128, 128, 128, 4, 4), TMA_CONFIG(128, 128, 128, 4, 5),
};
static const tile_autotune_config fp8_ws_configs_gpu[] = {
    TMA_CONFIG(128, 256, 128, 8, 3), TMA_CONFIG(256, 128, 128, 8, 3), TMA_CONFIG(128, 256, 128, 8, 2),
    TMA_CONFIG(128, 128, 128, 8, 4), TMA_CONFIG(128, 128, 128, 8, 5), TMA_CONFIG(128, 128, 128, 8, 3),
};
/* persistent: with 4 warps, ping-pong (as wsp_configs_gpu) */
static const tile_autotune_config fp8_wsp_configs_gpu[] = {
    TMA_CONFIG(128, 256, 128, 8, 3), TMA_CONFIG(256, 128, 128, 8, 3), TMA_CONFIG(128, 256, 128, 8, 2),
    TMA_CONFIG(128, 128, 128, 8, 4), TMA_CONFIG(128, 128, 128, 4, 4), TMA_CONFIG(128, 128, 128, 4, 5),
};
static const tile_autotune_config fp8_configs_interp[] = {
    TMA_CONFIG(32, 32, 32, 2, 3),
    TMA_CONFIG(64, 64, 128, 4, 3),
};
static void tma_grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) * tile_cdiv(tile_tune_int(a, "N"), tile_tune_meta(a, "BLOCK_N"));
}
/* persistent: one program per multiprocessor, at most one per tile */
static void tma_persistent_grid(const tile_tune_args *a, unsigned g[3])
{
    tma_grid(a, g);
    unsigned sms = (unsigned)tile_device_sm_count();
    if (g[0] > sms) g[0] = sms;
}
enum { TMA_PLAIN, TMA_PERSISTENT, TMA_WS, TMA_PERSISTENT_WS, TMA_VARIANTS };
static const char *const tma_variant_names[TMA_VARIANTS] = {"matmul_tma", "matmul_tma_persistent", "matmul_tma_ws", "matmul_tma_persistent_ws"};
#define TMA_TUNER(fn) {.key = {"M", "N", "K"}, .grid = fn}
#define TMA_TUNERS(fn) {TMA_TUNER(fn), TMA_TUNER(fn), TMA_TUNER(fn)}
static tile_autotuner tma_tuners[TMA_VARIANTS][3] = {
    TMA_TUNERS(tma_grid),
    TMA_TUNERS(tma_persistent_grid),
    TMA_TUNERS(tma_grid),
    TMA_TUNERS(tma_persistent_grid),
};
/* the input dtypes: f16, bf16, and fp8 e4m3 (C in f16, B given as B^T) */
static int dt_index(tl_dtype dt) { return dt == TL_BF16 ? 1 : dt == TL_F8E4M3 ? 2 : 0; }
/* the tuner of variant v (TMA_*) for dtype dt, with the config list for where kernels run */
static tile_autotuner *tma_tuner(int v, tl_dtype dt)
{
    tile_autotuner *t = &tma_tuners[v][dt_index(dt)];
    if (!t->configs) {
        int interp = strcmp(tile_backend_name(), "interp") == 0, ws = v == TMA_WS || v == TMA_PERSISTENT_WS;
#define TMA_LIST(list) t->configs = list, t->nconfigs = (int)(sizeof list / sizeof *list)
        if (dt == TL_F8E4M3 && interp) TMA_LIST(fp8_configs_interp);
        else if (dt == TL_F8E4M3 && v == TMA_PERSISTENT_WS) TMA_LIST(fp8_wsp_configs_gpu);
        else if (dt == TL_F8E4M3 && ws) TMA_LIST(fp8_ws_configs_gpu);
        else if (dt == TL_F8E4M3) TMA_LIST(fp8_configs_gpu);
        else if (ws && interp) TMA_LIST(ws_configs_interp);
        else if (v == TMA_PERSISTENT_WS) TMA_LIST(wsp_configs_gpu);
        else if (ws) TMA_LIST(ws_configs_gpu);
        else if (interp) TMA_LIST(tma_configs_interp);
        else TMA_LIST(tma_configs_gpu);
#undef TMA_LIST
    }
    return t;
}
static tile_kernel *tma_kernel_of(int v, tl_dtype dt)
{
    static tile_kernel *const k[TMA_VARIANTS][3] = {
        {TILE_KERNEL_OF(matmul_tma), TILE_KERNEL_OF(matmul_tma_bf16), TILE_KERNEL_OF(matmul_tma_fp8)},
        {TILE_KERNEL_OF(matmul_tma_persistent), TILE_KERNEL_OF(matmul_tma_persistent_bf16), TILE_KERNEL_OF(matmul_tma_persistent_fp8)},
        {TILE_KERNEL_OF(matmul_tma_ws), TILE_KERNEL_OF(matmul_tma_ws_bf16), TILE_KERNEL_OF(matmul_tma_ws_fp8)},
        {TILE_KERNEL_OF(matmul_tma_persistent_ws), TILE_KERNEL_OF(matmul_tma_persistent_ws_bf16), TILE_KERNEL_OF(matmul_tma_persistent_ws_fp8)},
    };
    return k[v][dt_index(dt)];
}
/* A descriptor's row strides are multiples of 16 bytes: rows of n elements
   of es bytes padded to 16 bytes (as Triton's TensorDescriptor asks too). */
static int padded(int n, int es) { return (n * es + 15) / 16 * 16 / es; }
/* the kernel's arguments for row-major A (M x K), B (K x N; for fp8 B^T,
   N x K) and C (M x N) with padded rows; C is f16 for fp8 inputs */
static void tma_args(tile_arg *args, tl_dtype dt, void *a, void *b, void *c, int M, int N, int K)
{
    int fp8 = dt == TL_F8E4M3;
    const int64_t ints[6] = {M, N, K, padded(K, fp8 ? 1 : 2), fp8 ? padded(K, 1) : padded(N, 2), padded(N, 2)};
    args[0].p = a, args[1].p = b, args[2].p = c;
    for (int i = 0; i < 6; i++) args[3 + i].i = ints[i];
}
/* C = A @ B with inputs of dtype dt (TL_F16, TL_BF16, or TL_F8E4M3 with B
   given as B^T and C in f16) with variant v; opts with .tune = tma_tuner(v,
   dt) tunes, else it names the config */
static tile_status tma_launch(int v, tl_dtype dt, const tile_launch *opts, void *a, void *b, void *c, int M, int N, int K)
{
    tile_arg args[9];
    tma_args(args, dt, a, b, c, M, N, K);
    return tile_launch_kernel(tma_kernel_of(v, dt), opts, args);
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "matmul_persistent: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }
static double elem_get(tl_dtype dt, const void *p, size_t i)
{
    switch (dt) {
    case TL_BF16: return tile_bf16_to(((const tile_bf16 *)p)[i]);
    case TL_F8E4M3: return tile_f8e4m3_to(((const tile_f8e4m3 *)p)[i]);
    default: return tile_f16_to(((const tile_f16 *)p)[i]);
    }
}
static void elem_set(tl_dtype dt, void *p, size_t i, double v)
{
    if (dt == TL_BF16) ((tile_bf16 *)p)[i] = tile_bf16_from(v);
    else if (dt == TL_F8E4M3) ((tile_f8e4m3 *)p)[i] = tile_f8e4m3_from(v);
    else ((tile_f16 *)p)[i] = tile_f16_from(v);
}

/* Tune, run and check one variant and dtype; 1 when the result is right. */
static int run_one(int v, tl_dtype dt, int M, int N, int K)
{
    int fp8 = dt == TL_F8E4M3;
    tl_dtype ct = fp8 ? TL_F16 : dt;
    /* B is K x N, or for fp8 B^T, N x K: element (k, j) at k * sbk + j * sbn */
    size_t es = tile_dtype_size(dt), lda = (size_t)padded(K, (int)es), ldb = fp8 ? lda : (size_t)padded(N, 2), ldc = (size_t)padded(N, 2);
    size_t sbk = fp8 ? 1 : ldb, sbn = fp8 ? ldb : 1;
    size_t na = (size_t)M * lda, nb = (size_t)(fp8 ? N : K) * ldb, nc = (size_t)M * ldc;
    void *ha = need(malloc(na * es)), *hb = need(malloc(nb * es)), *hc = need(malloc(nc * 2));
    srand(1);
    for (size_t i = 0; i < na; i++) elem_set(dt, ha, i, uniform(-1, 1));
    for (size_t i = 0; i < nb; i++) elem_set(dt, hb, i, uniform(-1, 1));
    void *a = need(tile_malloc(na * es)), *b = need(tile_malloc(nb * es)), *c = need(tile_malloc(nc * 2));
    tile_memcpy_htod(a, ha, na * es);
    tile_memcpy_htod(b, hb, nb * es);
    tile_memset(c, 0xff, nc * 2);   /* NaN: an element never written shows */
    tile_status st = tma_launch(v, dt, TILE_OPTS(.tune = tma_tuner(v, dt)), a, b, c, M, N, K);
    tile_memcpy_dtoh(hc, c, nc * 2);
    /* every element when small, else 2000 samples; f32 sums, one rounding
       to C's dtype (fp8: Hopper's fp8 wgmma keeps about 14 bits of its
       running sum after each k32 step, so (K/32 + 2) 2^-13 of the sum of
       |products| more) */
    double ulp = ct == TL_BF16 ? 1.0 / 128 : 1.0 / 1024, acc = fp8 ? (K / 32 + 2) * ldexp(1.0, -13) : 1e-6, err = 0;
    size_t mn = (size_t)M * (size_t)N;
    int all = mn <= 100000, n = all ? (int)mn : 2000, pad_written = 0;
    for (int s = 0; s < n; s++) {
        size_t at = all ? (size_t)s : ((size_t)rand() * 7919u) % mn, i = at / (size_t)N, j = at % (size_t)N;
        double want = 0, mag = 0;
        for (size_t k = 0; k < (size_t)K; k++) {
            double x = elem_get(dt, ha, i * lda + k) * elem_get(dt, hb, k * sbk + j * sbn);
            want += x;
            mag += fabs(x);
        }
        double e = fabs(elem_get(ct, hc, i * ldc + j) - want) / (ulp * fabs(want) + acc * mag + 1e-6);
        if (e > err || e != e) err = e;
    }
    for (size_t i = 0; i < (size_t)M; i++)   /* the store is clipped at N: the padding keeps its NaN */
        for (size_t j = (size_t)N; j < ldc; j++) pad_written += ((const uint16_t *)hc)[i * ldc + j] != 0xffff;
    if (pad_written) err = 1e9;
    tile_launch best;
    char cfg[96] = "?";
    tile_arg args[9];
    tma_args(args, dt, a, b, c, M, N, K);
    if (st == TILE_OK && tile_autotune_best(tma_tuner(v, dt), tma_kernel_of(v, dt), NULL, args, &best) == TILE_OK)
        snprintf(cfg, sizeof cfg, "%lldx%lldx%lld, %d warps, %d stages", tile_meta_of(&best, "BLOCK_M"), tile_meta_of(&best, "BLOCK_N"),
                 tile_meta_of(&best, "BLOCK_K"), best.num_warps, best.num_stages);
    int ok = st == TILE_OK && err <= 1;
    printf("%s %s: %d x %d x %d (tuned: %s), max error %.2f of tolerance vs float64: %s\n", tma_variant_names[v],
           tile_dtype_name(dt), M, N, K, cfg, err, ok ? "OK" : "FAILED");
    if (st != TILE_OK) printf("  %s\n", tile_last_error());
    tile_free(a);
    tile_free(b);
    tile_free(c);
    free(ha);
    free(hb);
    free(hc);
    return ok;
}

int main(int argc, char **argv)
{
    int M = argc > 3 ? atoi(argv[1]) : 200, N = argc > 3 ? atoi(argv[2]) : 136, K = argc > 3 ? atoi(argv[3]) : 90;
    static const tl_dtype dts[3] = {TL_F16, TL_BF16, TL_F8E4M3};
    int only = -1, only_dt = -1;
    for (int v = 0; argc > 4 && v < TMA_VARIANTS; v++)
        if (strcmp(argv[4], tma_variant_names[v]) == 0 || strcmp(argv[4], "all") == 0) only = v;
    for (int d = 0; argc > 5 && d < 3; d++)
        if (strcmp(argv[5], tile_dtype_name(dts[d])) == 0) only_dt = d;
    if (M < 1 || N < 1 || K < 1 || (argc > 4 && only < 0) || (argc > 5 && only_dt < 0)) {
        fprintf(stderr, "usage: matmul_persistent [M N K [matmul_tma|matmul_tma_persistent|matmul_tma_ws|matmul_tma_persistent_ws|all "
                        "[f16|bf16|f8e4m3]]]\n");
        return 2;
    }
    if (argc > 4 && strcmp(argv[4], "all") == 0) only = -1;
    int ok = 1;
    for (int v = 0; v < TMA_VARIANTS; v++)
        for (int d = 0; d < 3 && (only < 0 || only == v); d++)
            if (only_dt < 0 || only_dt == d) ok &= run_one(v, dts[d], M, N, K);
    return ok ? 0 : 1;
}
