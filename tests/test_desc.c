/* tests/test_desc.c — tensor descriptors (tl_make_tensor_descriptor,
   tl_desc_load, tl_desc_store, tl_desc_atomic_*), against float64 C.

   Semantics, for every rank from 1 to 5 and every dtype: a block read past
   the tensor's bounds (before its start or past its end, in any dim) gives
   zeros; a block written past them is clipped; the atomics reduce only the
   elements inside. Shapes, padded strides and offsets are drawn fresh each
   run; outputs are poisoned first. On a laptop the interpreter runs the
   descriptors as they are, and each kernel also runs as the GPU lowering
   rewrites it (descriptor accesses as masked pointer accesses, the
   compile's `descs` stage), so that rewrite is checked without a GPU; on a
   GPU the same kernels run on the device. Then a tl_dot matmul whose
   operands come through descriptors (the K tail zero-filled by the
   descriptor, the C edge clipped), and the launch-time rules (base
   alignment, 16-byte strides, positive shapes) failing at the line of the
   tl_make_tensor_descriptor with nothing written. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <unistd.h>

/* ---- 1. every rank, f32 ------------------------------------------------------------
   out (dense) = the block of x at offsets o; that block stored into y at offsets q. */
#define RANK_PARAMS                                                                                                  \
    (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, s0), (tl_i32, s1), (tl_i32, s2), (tl_i32, s3),     \
        (tl_i32, s4), (tl_i32, t0), (tl_i32, t1), (tl_i32, t2), (tl_i32, t3), (tl_i32, o0), (tl_i32, o1), (tl_i32, o2), \
        (tl_i32, o3), (tl_i32, o4), (tl_i32, q0), (tl_i32, q1), (tl_i32, q2), (tl_i32, q3), (tl_i32, q4)
#define RANK_KERNEL(name, numel, SHAPE, STRIDES, BLOCK, OFFS, QOFFS)                                       \
    TILE_KERNEL(name, RANK_PARAMS) {                                                                      \
        (void)s0, (void)s1, (void)s2, (void)s3, (void)s4, (void)t0, (void)t1, (void)t2, (void)t3;         \
        (void)o0, (void)o1, (void)o2, (void)o3, (void)o4, (void)q0, (void)q1, (void)q2, (void)q3, (void)q4; \
        tl_t dx = tl_make_tensor_descriptor(x, SHAPE, STRIDES, BLOCK);                                    \
        tl_t dy = tl_make_tensor_descriptor(y, SHAPE, STRIDES, BLOCK);                                    \
        tl_t v = tl_desc_load(dx, OFFS);                                                                  \
        tl_store(tl_add(out, tl_arange(0, numel)), tl_reshape(v, numel));                                 \
        tl_desc_store(dy, QOFFS, v);                                                                      \
    }
RANK_KERNEL(rank1, 64, (s0), (1), (64), (o0), (q0))
RANK_KERNEL(rank2, 128, (s0, s1), (t0, 1), (8, 16), (o0, o1), (q0, q1))
RANK_KERNEL(rank3, 128, (s0, s1, s2), (t0, t1, 1), (4, 4, 8), (o0, o1, o2), (q0, q1, q2))
RANK_KERNEL(rank4, 128, (s0, s1, s2, s3), (t0, t1, t2, 1), (2, 4, 2, 8), (o0, o1, o2, o3), (q0, q1, q2, q3))
RANK_KERNEL(rank5, 128, (s0, s1, s2, s3, s4), (t0, t1, t2, t3, 1), (2, 2, 2, 2, 8), (o0, o1, o2, o3, o4), (q0, q1, q2, q3, q4))

static const int rank_blocks[5][5] = {{64}, {8, 16}, {4, 4, 8}, {2, 4, 2, 8}, {2, 2, 2, 2, 8}};
static tile_kernel *rank_kernel(int r) {
    switch (r) {
    case 1: return TILE_KERNEL_OF(rank1);
    case 2: return TILE_KERNEL_OF(rank2);
    case 3: return TILE_KERNEL_OF(rank3);
    case 4: return TILE_KERNEL_OF(rank4);
    default: return TILE_KERNEL_OF(rank5);
    }
}

/* Run k with args: normally, and (without a GPU) also as the GPU lowering
   rewrites it, through the interpreter. `bufs` are the device buffers to
   compare between the two runs (their host copies: hosts, sizes). */
static int cpu_mode(void) { return !tile__gpu_mode(); }
static void run_both(const char *what, tile_kernel *k, const tile_launch *o, const tile_arg *args, void **bufs, const size_t *sizes, int nbufs) {
    void *save[4], *first[4];
    for (int b = 0; b < nbufs; b++) {
        save[b] = malloc(sizes[b]);
        first[b] = malloc(sizes[b]);
        tile_memcpy_dtoh(save[b], bufs[b], sizes[b]);
    }
    tile_status st = tile_launch_kernel(k, o, args);
    TT_CHECK(st == TILE_OK, "%s: launch: %s", what, tile_last_error());
    if (cpu_mode() && st == TILE_OK) {
        /* the same kernel as the GPU gets it: descriptors expanded to pointers */
        for (int b = 0; b < nbufs; b++) {
            tile_memcpy_dtoh(first[b], bufs[b], sizes[b]);
            tile_memcpy_htod(bufs[b], save[b], sizes[b]);
        }
        tile__func f, g;
        tile__config cfg;
        const tile__func *use = NULL;
        TT_CHECK(tile__build(k, o, &f) == TILE_OK, "%s: build: %s", what, tile_last_error());
        TT_CHECK(tile__config_resolve(k, o, args, "sm_80", &cfg) == TILE_OK, "%s: config: %s", what, tile_last_error());
        TT_CHECK(tile__descs_stage(&f, &cfg, &g, &use) == TILE_OK && use == &g, "%s: the descs stage: %s", what, tile_last_error());
        if (use == &g) {
            int ndesc = 0;
            for (int id = 0; id < g.nops; id++)
                if (!g.ops[id].dead && (g.ops[id].code == TILE__OP_MAKE_DESC || g.ops[id].code == TILE__OP_DESC_LOAD || g.ops[id].code == TILE__OP_DESC_STORE))
                    ndesc++;
            TT_CHECK(ndesc == 0, "%s: %d descriptor ops left after the descs stage", what, ndesc);
            unsigned grid[3] = {o->grid[0] ? o->grid[0] : 1, o->grid[1] ? o->grid[1] : 1, o->grid[2] ? o->grid[2] : 1};
            TT_CHECK(tile__interp_run(&g, args, grid, NULL) == TILE_OK, "%s: the rewritten kernel: %s", what, tile_last_error());
            for (int b = 0; b < nbufs; b++) {
                void *second = malloc(sizes[b]);
                tile_memcpy_dtoh(second, bufs[b], sizes[b]);
                TT_CHECK(memcmp(first[b], second, sizes[b]) == 0, "%s: buffer %d differs between the descriptors and their pointer rewrite", what, b);
                free(second);
            }
        }
        tile__func_free(&g);
        tile__func_free(&f);
    }
    for (int b = 0; b < nbufs; b++) {
        free(save[b]);
        free(first[b]);
    }
}

static void test_ranks(void) {
    for (int r = 1; r <= 5; r++)
        for (int trial = 0; trial < 6; trial++) {
            const int *B = rank_blocks[r - 1];
            long long shape[5] = {1, 1, 1, 1, 1}, stride[5] = {0}, off[5] = {0}, qoff[5] = {0};
            int numel = 1;
            for (int d = 0; d < r; d++) {
                shape[d] = tt_int(1, 2 * B[d] + 3);
                numel *= B[d];
            }
            /* padded row-major strides, each but the last a multiple of 4 floats (16 bytes) */
            stride[r - 1] = 1;
            for (int d = r - 2; d >= 0; d--) stride[d] = (stride[d + 1] * shape[d + 1] + tt_int(0, 5) + 3) / 4 * 4;
            long long total = stride[0] * shape[0];
            for (int d = 0; d < r; d++) {
                /* before the start, across an edge, inside, or past the end */
                off[d] = tt_int(-B[d] - 2, shape[d] + 1);
                qoff[d] = trial == 0 ? 0 : tt_int(-B[d] - 2, shape[d] + 1);
            }
            size_t bytes = (size_t)total * sizeof(float);
            float *hx = malloc(bytes), *hy = malloc(bytes), *hout = malloc((size_t)numel * sizeof(float));
            float *wy = malloc(bytes);
            double *wout = malloc((size_t)numel * sizeof(double));
            for (long long i = 0; i < total; i++) hx[i] = (float)tt_uniform(-8, 8), hy[i] = (float)tt_uniform(100, 200);
            memcpy(wy, hy, bytes);
            /* the reference: lane e of the block is element (o + j) of x, or 0 outside */
            for (int e = 0; e < numel; e++) {
                int rest = e, in_x = 1, in_y = 1;
                long long ax = 0, ay = 0;
                for (int d = r - 1; d >= 0; d--) {
                    long long j = rest % B[d];
                    rest /= B[d];
                    long long ix = off[d] + j, iy = qoff[d] + j;
                    in_x &= ix >= 0 && ix < shape[d];
                    in_y &= iy >= 0 && iy < shape[d];
                    ax += ix * stride[d];
                    ay += iy * stride[d];
                }
                wout[e] = in_x ? hx[ax] : 0.0;
                if (in_y) wy[ay] = (float)wout[e];
            }
            float *x = tile_malloc(bytes), *y = tile_malloc(bytes), *out = tile_malloc((size_t)numel * sizeof(float));
            tile_memcpy_htod(x, hx, bytes);
            tile_memcpy_htod(y, hy, bytes);
            tile_memset(out, 0xA5, (size_t)numel * sizeof(float));
            tile_arg a[22];
            a[0].p = x, a[1].p = y, a[2].p = out;
            for (int d = 0; d < 5; d++) a[3 + d].i = shape[d], a[12 + d].i = off[d], a[17 + d].i = qoff[d];
            for (int d = 0; d < 4; d++) a[8 + d].i = stride[d];
            void *bufs[2] = {y, out};
            size_t sizes[2] = {bytes, (size_t)numel * sizeof(float)};
            char what[64];
            snprintf(what, sizeof what, "rank %d trial %d", r, trial);
            run_both(what, rank_kernel(r), TILE_OPTS(), a, bufs, sizes, 2);
            tile_memcpy_dtoh(hout, out, (size_t)numel * sizeof(float));
            tile_memcpy_dtoh(hy, y, bytes);
            int bad = 0;
            for (int e = 0; e < numel; e++) bad += (double)hout[e] != wout[e];
            for (long long i = 0; i < total; i++) bad += hy[i] != wy[i];
            TT_CHECK(bad == 0, "%s: %d elements differ from the reference (shape %lld,%lld,%lld,%lld,%lld offsets %lld,%lld,%lld,%lld,%lld)", what, bad,
                     shape[0], shape[1], shape[2], shape[3], shape[4], off[0], off[1], off[2], off[3], off[4]);
            tile_free(x), tile_free(y), tile_free(out);
            free(hx), free(hy), free(hout), free(wy), free(wout);
        }
}

/* ---- 2. every dtype, 2-D -------------------------------------------------------------- */
#define DT_KERNEL(name, ptype)                                                                                    \
    TILE_KERNEL(name, (ptype, x), (ptype, y), (ptype, out), (tl_i32, M), (tl_i32, N), (tl_i32, sx), (tl_i32, o0), \
                (tl_i32, o1), (tl_i32, q0), (tl_i32, q1)) {                                                       \
        tl_t dx = tl_make_tensor_descriptor(x, (M, N), (sx, 1), (4, 32));                                         \
        tl_t dy = tl_make_tensor_descriptor(y, (M, N), (sx, 1), (4, 32));                                         \
        tl_t v = tl_desc_load(dx, (o0, o1));                                                                      \
        tl_store(tl_add(out, tl_arange(0, 128)), tl_reshape(v, 128));                                             \
        tl_desc_store(dy, (q0, q1), v);                                                                           \
    }
DT_KERNEL(dt_i8, tl_ptr_i8)
DT_KERNEL(dt_u8, tl_ptr_u8)
DT_KERNEL(dt_i16, tl_ptr_i16)
DT_KERNEL(dt_u16, tl_ptr_u16)
DT_KERNEL(dt_i32, tl_ptr_i32)
DT_KERNEL(dt_u32, tl_ptr_u32)
DT_KERNEL(dt_i64, tl_ptr_i64)
DT_KERNEL(dt_u64, tl_ptr_u64)
DT_KERNEL(dt_f16, tl_ptr_f16)
DT_KERNEL(dt_bf16, tl_ptr_bf16)
DT_KERNEL(dt_f32, tl_ptr_f32)
DT_KERNEL(dt_f64, tl_ptr_f64)
DT_KERNEL(dt_f8e4m3, tl_ptr_f8e4m3)
DT_KERNEL(dt_f8e5m2, tl_ptr_f8e5m2)

/* one random element of dtype t (finite floats, so a copy keeps its bits) into p */
static void put_random(tl_dtype t, void *p) {
    double v = tt_uniform(-100, 100);
    uint64_t u = tt_next();
    switch (t) {
    case TL_F16: *(tile_f16 *)p = tile_f16_from(v); break;
    case TL_BF16: *(tile_bf16 *)p = tile_bf16_from(v); break;
    case TL_F8E4M3: *(tile_f8e4m3 *)p = tile_f8e4m3_from(v / 4); break;
    case TL_F8E5M2: *(tile_f8e5m2 *)p = tile_f8e5m2_from(v); break;
    case TL_F32: *(float *)p = (float)v; break;
    case TL_F64: *(double *)p = v; break;
    default: memcpy(p, &u, tile_dtype_size(t)); break;
    }
}
static void test_dtypes(void) {
    static const struct { tile_kernel *k; tl_dtype t; } dts[] = {
        {TILE_KERNEL_OF(dt_i8), TL_I8},     {TILE_KERNEL_OF(dt_u8), TL_U8},   {TILE_KERNEL_OF(dt_i16), TL_I16},
        {TILE_KERNEL_OF(dt_u16), TL_U16},   {TILE_KERNEL_OF(dt_i32), TL_I32}, {TILE_KERNEL_OF(dt_u32), TL_U32},
        {TILE_KERNEL_OF(dt_i64), TL_I64},   {TILE_KERNEL_OF(dt_u64), TL_U64}, {TILE_KERNEL_OF(dt_f16), TL_F16},
        {TILE_KERNEL_OF(dt_bf16), TL_BF16}, {TILE_KERNEL_OF(dt_f32), TL_F32}, {TILE_KERNEL_OF(dt_f64), TL_F64},
        {TILE_KERNEL_OF(dt_f8e4m3), TL_F8E4M3}, {TILE_KERNEL_OF(dt_f8e5m2), TL_F8E5M2},
    };
    for (int k = 0; k < (int)(sizeof dts / sizeof dts[0]); k++) {
        tl_dtype t = dts[k].t;
        size_t es = tile_dtype_size(t);
        long long M = tt_int(1, 11), N = tt_int(1, 70), sx = ((long long)N * (long long)es + tt_int(0, 40) + 15) / 16 * 16 / (long long)es;
        long long o0 = tt_int(-5, M), o1 = tt_int(-33, N), q0 = tt_int(-5, M), q1 = tt_int(-33, N);
        size_t bytes = (size_t)(M * sx) * es, obytes = 128 * es;
        unsigned char *hx = malloc(bytes), *hy = malloc(bytes), *wy = malloc(bytes), *hout = malloc(obytes), *wout = malloc(obytes);
        for (long long i = 0; i < M * sx; i++) put_random(t, hx + i * es), put_random(t, hy + i * es);
        memcpy(wy, hy, bytes);
        memset(wout, 0, obytes);   /* zeros outside: +0.0 and integer 0 are all-zero bytes */
        for (int e = 0; e < 128; e++) {
            long long i = o0 + e / 32, j = o1 + e % 32, qi = q0 + e / 32, qj = q1 + e % 32;
            if (i >= 0 && i < M && j >= 0 && j < N) memcpy(wout + e * es, hx + (i * sx + j) * es, es);
            if (qi >= 0 && qi < M && qj >= 0 && qj < N) memcpy(wy + (qi * sx + qj) * es, wout + e * es, es);
        }
        void *x = tile_malloc(bytes), *y = tile_malloc(bytes), *out = tile_malloc(obytes);
        tile_memcpy_htod(x, hx, bytes);
        tile_memcpy_htod(y, hy, bytes);
        tile_memset(out, 0xA5, obytes);
        tile_arg a[10];
        a[0].p = x, a[1].p = y, a[2].p = out, a[3].i = M, a[4].i = N, a[5].i = sx, a[6].i = o0, a[7].i = o1, a[8].i = q0, a[9].i = q1;
        void *bufs[2] = {y, out};
        size_t sizes[2] = {bytes, obytes};
        char what[64];
        snprintf(what, sizeof what, "dtype %s", tile_dtype_name(t));
        run_both(what, dts[k].k, TILE_OPTS(), a, bufs, sizes, 2);
        tile_memcpy_dtoh(hout, out, obytes);
        tile_memcpy_dtoh(hy, y, bytes);
        TT_CHECK(memcmp(hout, wout, obytes) == 0, "%s: the block read (%lldx%lld at %lld,%lld) differs from the reference", what, M, N, o0, o1);
        TT_CHECK(memcmp(hy, wy, bytes) == 0, "%s: the block written (at %lld,%lld) differs from the reference", what, q0, q1);
        tile_free(x), tile_free(y), tile_free(out);
        free(hx), free(hy), free(wy), free(hout), free(wout);
    }
}

/* ---- 3. atomics: y[block at q] op= x (dense), inside only ---------------------------------- */
#define ATOMIC_KERNEL(name, ptype, call)                                                                             \
    TILE_KERNEL(name, (ptype, x), (ptype, y), (tl_i32, M), (tl_i32, N), (tl_i32, sy), (tl_i32, q0), (tl_i32, q1)) { \
        tl_t dy = tl_make_tensor_descriptor(y, (M, N), (sy, 1), (8, 16));                                          \
        tl_t v = tl_reshape(tl_load(tl_add(x, tl_arange(0, 128))), 8, 16);                                           \
        call(dy, (q0, q1), v);                                                                                     \
    }
ATOMIC_KERNEL(at_add_f32, tl_ptr_f32, tl_desc_atomic_add)
ATOMIC_KERNEL(at_min_i32, tl_ptr_i32, tl_desc_atomic_min)
ATOMIC_KERNEL(at_max_i32, tl_ptr_i32, tl_desc_atomic_max)
static void test_atomics(void) {
    for (int kind = 0; kind < 3; kind++) {
        tile_kernel *k = kind == 0 ? TILE_KERNEL_OF(at_add_f32) : kind == 1 ? TILE_KERNEL_OF(at_min_i32) : TILE_KERNEL_OF(at_max_i32);
        long long M = tt_int(1, 20), N = tt_int(1, 40), sy = (N + 3) / 4 * 4 + 4 * tt_int(0, 2);
        long long q0 = tt_int(-9, M), q1 = tt_int(-17, N);
        float hx[128], *hy = malloc((size_t)(M * sy) * 4), *wy = malloc((size_t)(M * sy) * 4);
        int32_t ix[128], *iy = (int32_t *)hy, *wi = (int32_t *)wy;
        for (int e = 0; e < 128; e++) {
            hx[e] = (float)tt_uniform(-4, 4);
            ix[e] = (int32_t)tt_int(-1000, 1000);
        }
        for (long long i = 0; i < M * sy; i++) {
            if (kind == 0) hy[i] = (float)tt_uniform(-4, 4);
            else iy[i] = (int32_t)tt_int(-1000, 1000);
        }
        memcpy(wy, hy, (size_t)(M * sy) * 4);
        for (int e = 0; e < 128; e++) {
            long long i = q0 + e / 16, j = q1 + e % 16;
            if (i < 0 || i >= M || j < 0 || j >= N) continue;
            long long at = i * sy + j;
            if (kind == 0) wy[at] = (float)((double)wy[at] + (double)hx[e]);
            else if (kind == 1) wi[at] = ix[e] < wi[at] ? ix[e] : wi[at];
            else wi[at] = ix[e] > wi[at] ? ix[e] : wi[at];
        }
        void *x = tile_malloc(512), *y = tile_malloc((size_t)(M * sy) * 4);
        tile_memcpy_htod(x, kind == 0 ? (void *)hx : (void *)ix, 512);
        tile_memcpy_htod(y, hy, (size_t)(M * sy) * 4);
        tile_arg a[7];
        a[0].p = x, a[1].p = y, a[2].i = M, a[3].i = N, a[4].i = sy, a[5].i = q0, a[6].i = q1;
        void *bufs[1] = {y};
        size_t sizes[1] = {(size_t)(M * sy) * 4};
        static const char *const names[] = {"atomic add f32", "atomic min i32", "atomic max i32"};
        run_both(names[kind], k, TILE_OPTS(), a, bufs, sizes, 1);
        tile_memcpy_dtoh(hy, y, (size_t)(M * sy) * 4);
        TT_CHECK(memcmp(hy, wy, (size_t)(M * sy) * 4) == 0, "%s: %lldx%lld at %lld,%lld differs from the reference", names[kind], M, N, q0, q1);
        tile_free(x), tile_free(y);
        free(hy), free(wy);
    }
}

/* ---- 3b. reductions through the copy engine: blocks whose rows are 128 bytes ----------
   On sm_90a a tl_desc_atomic_* of a 2-D block of 16- or 32-bit elements with
   rows of whole 128 bytes, into a tensor whose row length is a multiple of
   16 bytes, is one cp.reduce.async.bulk.tensor per 128-byte column of the
   block (tile__tma_store_candidate); elsewhere, and when N is not such a
   multiple, the atomics of the pointer rewrite. The same semantics either
   way: y[block at q] op= x, inside the tensor only. */
#define WIDE_ATOMIC_KERNEL(name, ptype, call, R, C)                                                                   \
    TILE_KERNEL(name, (ptype, x), (ptype, y), (tl_i32, M), (tl_i32, N), (tl_i32, sy), (tl_i32, q0), (tl_i32, q1)) { \
        tl_t dy = tl_make_tensor_descriptor(y, (M, N), (sy, 1), (R, C));                                           \
        tl_t r = tl_expand_dims(tl_arange(0, R), 1), c = tl_expand_dims(tl_arange(0, C), 0);                       \
        call(dy, (q0, q1), tl_load(tl_add(x, tl_add(tl_mul(r, C), c))));                                           \
    }
WIDE_ATOMIC_KERNEL(wat_add_f32, tl_ptr_f32, tl_desc_atomic_add, 16, 32)
WIDE_ATOMIC_KERNEL(wat_min_i32, tl_ptr_i32, tl_desc_atomic_min, 16, 32)
WIDE_ATOMIC_KERNEL(wat_max_u32, tl_ptr_u32, tl_desc_atomic_max, 8, 64)
WIDE_ATOMIC_KERNEL(wat_add_f16, tl_ptr_f16, tl_desc_atomic_add, 16, 128)
WIDE_ATOMIC_KERNEL(wat_max_bf16, tl_ptr_bf16, tl_desc_atomic_max, 8, 64)
WIDE_ATOMIC_KERNEL(wst_f16, tl_ptr_f16, tl_desc_store, 8, 64)
WIDE_ATOMIC_KERNEL(wst_bf16, tl_ptr_bf16, tl_desc_store, 16, 128)
WIDE_ATOMIC_KERNEL(wst_f32, tl_ptr_f32, tl_desc_store, 16, 32)
static const struct {
    tile_kernel *k;
    const char *name;
    tl_dtype t;
    int kind, R, C;
} wide_atomics[] = {
    {TILE_KERNEL_OF(wat_add_f32), "reduce add f32 16x32", TL_F32, TL_ATOMIC_ADD, 16, 32},
    {TILE_KERNEL_OF(wat_min_i32), "reduce min i32 16x32", TL_I32, TL_ATOMIC_MIN, 16, 32},
    {TILE_KERNEL_OF(wat_max_u32), "reduce max u32 8x64", TL_U32, TL_ATOMIC_MAX, 8, 64},
    {TILE_KERNEL_OF(wat_add_f16), "reduce add f16 16x128", TL_F16, TL_ATOMIC_ADD, 16, 128},
    {TILE_KERNEL_OF(wat_max_bf16), "reduce max bf16 8x64", TL_BF16, TL_ATOMIC_MAX, 8, 64},
    /* kind -1: stores (16-bit floats through the copy engine by default, 32-bit with the knob) */
    {TILE_KERNEL_OF(wst_f16), "store f16 8x64", TL_F16, -1, 8, 64},
    {TILE_KERNEL_OF(wst_bf16), "store bf16 16x128", TL_BF16, -1, 16, 128},
    {TILE_KERNEL_OF(wst_f32), "store f32 16x32", TL_F32, -1, 16, 32},
};
/* element e of a buffer of dtype t as a double, and back (rounded as the device's reduction) */
static double wide_get(tl_dtype t, const void *p, long long e) {
    switch (t) {
    case TL_F32: return ((const float *)p)[e];
    case TL_I32: return ((const int32_t *)p)[e];
    case TL_U32: return ((const uint32_t *)p)[e];
    case TL_F16: return tile_f16_to(((const tile_f16 *)p)[e]);
    default: return tile_bf16_to(((const tile_bf16 *)p)[e]);
    }
}
static void wide_set(tl_dtype t, void *p, long long e, double v) {
    switch (t) {
    case TL_F32: ((float *)p)[e] = (float)v; break;
    case TL_I32: ((int32_t *)p)[e] = (int32_t)v; break;
    case TL_U32: ((uint32_t *)p)[e] = (uint32_t)v; break;
    case TL_F16: ((tile_f16 *)p)[e] = tile_f16_from(v); break;
    default: ((tile_bf16 *)p)[e] = tile_bf16_from(v); break;
    }
}
static double wide_draw(tl_dtype t) {
    if (t == TL_I32) return (double)tt_int(-100000, 100000);
    if (t == TL_U32) return (double)tt_int(0, 4000000000LL);
    return tile_f16_to(tile_f16_from(tt_uniform(-4, 4)));   /* exact in f16, bf16 rounds it */
}
static void test_wide_atomics(void) {
    for (size_t w = 0; w < sizeof wide_atomics / sizeof wide_atomics[0]; w++)
        for (int rep = 0; rep < 5; rep++) {
            tl_dtype t = wide_atomics[w].t;
            int R = wide_atomics[w].R, C = wide_atomics[w].C, kind = wide_atomics[w].kind;
            size_t es = tile_dtype_size(t);
            long long chunk = 16 / (long long)es;
            /* rep 0-3: N a multiple of 16 (the copy engine's path on sm_90a); rep 4: not.
               On sm_90a the engine takes a block at row >= 0 and a column on a whole 16 bytes
               (rep 0: at 0, rep 1: at a multiple of 16 bytes, maybe past N); rep 2 starts
               above the tensor (row < 0) and rep 3 left of it or off 16 bytes, which the
               H100 refuses (CUDA_ERROR_ILLEGAL_INSTRUCTION): those take the element-wise
               fallback in the same kernel */
            long long M = tt_int(1, 3 * R), N = rep < 4 ? 16 * tt_int(1, (3 * C + 15) / 16) : 16 * tt_int(0, C / 16) + tt_int(1, 15);
            long long sy = (N + 15) / 16 * 16 + 16 * tt_int(0, 1), q0 = rep == 2 ? tt_int(-R + 1, -1) : rep < 2 ? tt_int(0, M) : tt_int(-R, M);
            long long q1 = rep == 0 ? 0 : rep == 1 ? chunk * tt_int(0, (N + C) / chunk) : rep == 3 ? (tt_int(0, 1) ? tt_int(-C + 1, -1) : chunk * tt_int(0, N / chunk) + tt_int(1, chunk - 1)) : tt_int(-C, N);
            size_t ybytes = (size_t)(M * sy) * es, xbytes = (size_t)(R * C) * es;
            void *hx = malloc(xbytes), *hy = malloc(ybytes), *wy = malloc(ybytes);
            for (long long e = 0; e < R * C; e++) wide_set(t, hx, e, wide_draw(t));
            for (long long e = 0; e < M * sy; e++) wide_set(t, hy, e, wide_draw(t));
            memcpy(wy, hy, ybytes);
            for (long long e = 0; e < R * C; e++) {
                long long i = q0 + e / C, j = q1 + e % C;
                if (i < 0 || i >= M || j < 0 || j >= N) continue;
                double a = wide_get(t, wy, i * sy + j), b = wide_get(t, hx, e);
                wide_set(t, wy, i * sy + j, kind < 0 ? b : kind == TL_ATOMIC_ADD ? a + b : kind == TL_ATOMIC_MIN ? (b < a ? b : a) : (b > a ? b : a));
            }
            void *x = tile_malloc(xbytes), *y = tile_malloc(ybytes);
            tile_memcpy_htod(x, hx, xbytes);
            tile_memcpy_htod(y, hy, ybytes);
            tile_arg a[7];
            a[0].p = x, a[1].p = y, a[2].i = M, a[3].i = N, a[4].i = sy, a[5].i = q0, a[6].i = q1;
            void *bufs[1] = {y};
            char what[96];
            snprintf(what, sizeof what, "%s (%lldx%lld, row stride %lld, at %lld,%lld)", wide_atomics[w].name, M, N, sy, q0, q1);
            run_both(what, wide_atomics[w].k, TILE_OPTS(), a, bufs, &ybytes, 1);
            tile_memcpy_dtoh(hy, y, ybytes);
            TT_CHECK(memcmp(hy, wy, ybytes) == 0, "%s: differs from the reference", what);
            tile_free(x), tile_free(y);
            free(hx), free(hy), free(wy);
        }
}

/* ---- 4. matmul through descriptors ------------------------------------------------------- */
TILE_KERNEL(desc_matmul, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr), (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_bk), (tl_i32, stride_cm)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), BK = TL_META(BLOCK_K);
    tl_t a_desc = tl_make_tensor_descriptor(a_ptr, (M, K), (stride_am, 1), (BM, BK));
    tl_t b_desc = tl_make_tensor_descriptor(b_ptr, (K, N), (stride_bk, 1), (BK, BN));
    tl_t c_desc = tl_make_tensor_descriptor(c_ptr, (M, N), (stride_cm, 1), (BM, BN));
    tl_t pid = tl_program_id(0), npn = tl_cdiv(N, BN);
    tl_t off_m = tl_mul(tl_floordiv(pid, npn), BM), off_n = tl_mul(tl_mod(pid, npn), BN);
    tl_t acc = tl_zeros(TL_F32, BM, BN);
    TL_FOR (k, 0, tl_cdiv(K, BK), 1, acc) {
        tl_t a = tl_desc_load(a_desc, (off_m, tl_mul(k, BK)));
        tl_t b = tl_desc_load(b_desc, (tl_mul(k, BK), off_n));
        acc = tl_dot(a, b, acc);
    }
    tl_desc_store(c_desc, (off_m, off_n), tl_cast(acc, TL_F16));
}
/* C (f16, row stride sc, its padding after N poisoned with 0xffff) against A B in float64
   (A [M, K] row stride sa, B [K, N] row stride sb): counted as one check; `what` names the run */
static void check_f16_matmul(const char *what, const tile_f16 *ha, const tile_f16 *hb, const tile_f16 *hc, int M, int N, int K, int sa, int sb, int sc) {
    int bad = 0, pad_bad = 0;
    double *row = malloc((size_t)N * sizeof *row), *db = malloc((size_t)K * sb * sizeof *db);
    for (int i = 0; i < K * sb; i++) db[i] = tile_f16_to(hb[i]);
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) row[j] = 0;
        for (int k = 0; k < K; k++) {
            double x = tile_f16_to(ha[i * sa + k]);
            for (int j = 0; j < N; j++) row[j] += x * db[k * sb + j];
        }
        for (int j = 0; j < N; j++)
            if (!(fabs(tile_f16_to(hc[i * sc + j]) - row[j]) <= 2e-3 * fabs(row[j]) + 2e-3)) bad++;
        for (int j = N; j < sc; j++) pad_bad += hc[i * sc + j].bits != 0xffff;   /* clipped: the padding untouched */
    }
    tt_checks++;
    if (bad || pad_bad) {
        tt_failures++;
        printf("FAIL %s: %d wrong, %d padding elements written\n", what, bad, pad_bad);
    }
    free(row), free(db);
}
static void test_matmul(int M, int N, int K, int BM, int BN, int BK, int warps, int stages) {
    int sa = (K + 7) / 8 * 8, sb = (N + 7) / 8 * 8 + 8, sc = (N + 7) / 8 * 8;
    tile_f16 *ha = malloc((size_t)M * sa * 2), *hb = malloc((size_t)K * sb * 2), *hc = malloc((size_t)M * sc * 2);
    for (int i = 0; i < M * sa; i++) ha[i] = tile_f16_from(tt_uniform(-1, 1));
    for (int i = 0; i < K * sb; i++) hb[i] = tile_f16_from(tt_uniform(-1, 1));
    tile_f16 *a = tile_malloc((size_t)M * sa * 2), *b = tile_malloc((size_t)K * sb * 2), *c = tile_malloc((size_t)M * sc * 2);
    tile_memcpy_htod(a, ha, (size_t)M * sa * 2);
    tile_memcpy_htod(b, hb, (size_t)K * sb * 2);
    tile_memset(c, 0xff, (size_t)M * sc * 2);   /* NaN */
    unsigned grid = (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
    TT_OK(desc_matmul(TILE_OPTS(.grid = {grid}, .num_warps = warps, .num_stages = stages,
                                .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK}}),
                      a, b, c, M, N, K, sa, sb, sc));
    tile_memcpy_dtoh(hc, c, (size_t)M * sc * 2);
    char what[128];
    snprintf(what, sizeof what, "desc matmul %dx%dx%d blocks %dx%dx%d, %d warps %d stages", M, N, K, BM, BN, BK, warps, stages);
    check_f16_matmul(what, ha, hb, hc, M, N, K, sa, sb, sc);
    tile_free(a), tile_free(b), tile_free(c);
    free(ha), free(hb), free(hc);
}

/* ---- 4'. split-K: each of SPLIT_K programs of a tile reduces its partial product into C
   (f32) with tl_desc_atomic_add, the copy engine's reduction on sm_90a when N is a
   multiple of 16. C starts as random values: the result is C + A B, and C's padding
   after N keeps its values (the engine clips the block, it does not reduce past N). */
TILE_KERNEL(splitk_matmul, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f32, c_ptr), (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_bk), (tl_i32, stride_cm)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), BK = TL_META(BLOCK_K), SK = TL_META(SPLIT_K);
    tl_t a_desc = tl_make_tensor_descriptor(a_ptr, (M, K), (stride_am, 1), (BM, BK));
    tl_t b_desc = tl_make_tensor_descriptor(b_ptr, (K, N), (stride_bk, 1), (BK, BN));
    tl_t c_desc = tl_make_tensor_descriptor(c_ptr, (M, N), (stride_cm, 1), (BM, BN));
    tl_t pid = tl_program_id(0), npn = tl_cdiv(N, BN);
    tl_t off_m = tl_mul(tl_floordiv(pid, npn), BM), off_n = tl_mul(tl_mod(pid, npn), BN);
    tl_t acc = tl_zeros(TL_F32, BM, BN);
    TL_FOR (k, tl_program_id(1), tl_cdiv(K, BK), SK, acc) {
        tl_t a = tl_desc_load(a_desc, (off_m, tl_mul(k, BK)));
        tl_t b = tl_desc_load(b_desc, (tl_mul(k, BK), off_n));
        acc = tl_dot(a, b, acc);
    }
    tl_desc_atomic_add(c_desc, (off_m, off_n), acc);
}
static void test_splitk(int M, int N, int K, int BM, int BN, int BK, int SK, int warps, int stages) {
    int sa = (K + 7) / 8 * 8, sb = (N + 7) / 8 * 8 + 8, sc = (N + 3) / 4 * 4 + 4;
    tile_f16 *ha = malloc((size_t)M * sa * 2), *hb = malloc((size_t)K * sb * 2);
    float *hc = malloc((size_t)M * sc * 4), *c0 = malloc((size_t)M * sc * 4);
    for (int i = 0; i < M * sa; i++) ha[i] = tile_f16_from(tt_uniform(-1, 1));
    for (int i = 0; i < K * sb; i++) hb[i] = tile_f16_from(tt_uniform(-1, 1));
    for (int i = 0; i < M * sc; i++) c0[i] = (float)tt_uniform(-1, 1);
    tile_f16 *a = tile_malloc((size_t)M * sa * 2), *b = tile_malloc((size_t)K * sb * 2);
    float *c = tile_malloc((size_t)M * sc * 4);
    tile_memcpy_htod(a, ha, (size_t)M * sa * 2);
    tile_memcpy_htod(b, hb, (size_t)K * sb * 2);
    tile_memcpy_htod(c, c0, (size_t)M * sc * 4);
    unsigned grid = (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
    TT_OK(splitk_matmul(TILE_OPTS(.grid = {grid, (unsigned)SK}, .num_warps = warps, .num_stages = stages,
                                  .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK}, {"SPLIT_K", SK}}),
                        a, b, c, M, N, K, sa, sb, sc));
    tile_memcpy_dtoh(hc, c, (size_t)M * sc * 4);
    int bad = 0, pad_bad = 0;
    double *row = malloc((size_t)N * sizeof *row);
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) row[j] = c0[i * sc + j];
        for (int k = 0; k < K; k++) {
            double x = tile_f16_to(ha[i * sa + k]);
            for (int j = 0; j < N; j++) row[j] += x * tile_f16_to(hb[k * sb + j]);
        }
        for (int j = 0; j < N; j++)
            if (!(fabs(hc[i * sc + j] - row[j]) <= 1e-4 * (fabs(row[j]) + sqrt((double)K)))) bad++;
        for (int j = N; j < sc; j++) pad_bad += hc[i * sc + j] != c0[i * sc + j];
    }
    tt_checks++;
    if (bad || pad_bad) {
        tt_failures++;
        printf("FAIL split-K matmul %dx%dx%d blocks %dx%dx%d split %d, %d warps %d stages: %d wrong, %d padding elements changed\n", M, N, K, BM, BN, BK, SK,
               warps, stages, bad, pad_bad);
    }
    free(row);
    tile_free(a), tile_free(b), tile_free(c);
    free(ha), free(hb), free(hc), free(c0);
}

/* ---- 4b. what the GPU gets, without a GPU: on sm_90a the matmul's loads are a
   TMA ring (copies on mbarriers into wgmma's swizzled layout, the tensor maps
   as parameters), on sm_80 the cp.async ring of their pointer rewrite; ptxas
   (when the toolkit is here) assembles both, with no spills and no
   serialized wgmma (C7510-C7515) */
static const char *ptxas_path(void) {
    static char path[600];
    const char *dirs[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (int d = 0; d < 3; d++) {
        if (!dirs[d] || !*dirs[d]) continue;
        snprintf(path, sizeof path, "%s/bin/ptxas", dirs[d]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return path;
        }
    }
    return NULL;
}
static void check_ptx(const char *what, const char *ptx, const char *arch) {
    const char *px = ptxas_path();
    if (!px) {
        static int said;
        if (!said++) printf("ptxas not found (CUDA_HOME, CUDA_PATH, /usr/local/cuda): the PTX is checked but not assembled\n");
        return;
    }
    char src[] = "/tmp/test_desc_XXXXXX";
    int fd = mkstemp(src);
    TT_CHECK(fd >= 0, "%s: a temporary file", what);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "w");
    fputs(ptx, f);
    fclose(f);
    char cmd[1400], line[1024];
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s -v -o /dev/null '%s' 2>&1", px, arch, src);
    FILE *p = popen(cmd, "r");
    int warned = 0, spills = 0, lines = 0;
    while (p && fgets(line, sizeof line, p)) {
        lines++;
        if (strstr(line, "C751")) warned = 1, printf("  %s: %s", what, line);
        if (strstr(line, "spill") && !strstr(line, " 0 bytes spill stores, 0 bytes spill loads")) spills = 1, printf("  %s: %s", what, line);
    }
    int rc = p ? pclose(p) : -1;
    remove(src);
    TT_CHECK(rc == 0 && lines > 0, "%s: ptxas failed (%d)", what, rc);
    TT_CHECK(!warned, "%s: ptxas serializes the wgmmas", what);
    TT_CHECK(!spills, "%s: ptxas spills", what);
}
static void test_tma_ptx(void) {
    /* two configs (each compile takes seconds): 4 stages keep a wgmma group in flight through
       LLVM, 3 stages wait for each. Under valgrind (tests/valgrind_suite.sh sets
       TILE_TEST_VALGRIND) none: NVRTC takes minutes per kernel there, and the AddressSanitizer
       build of this test (CI's section 2) runs these compiles with every check */
    static const int cf[][5] = {{128, 128, 64, 4, 4}, {128, 256, 64, 8, 3}};
    int ncf = getenv("TILE_TEST_VALGRIND") ? 0 : (int)(sizeof cf / sizeof cf[0]);
    if (!ncf) printf("under valgrind: the sm_90a and sm_80 PTX checks are left to the other builds of this test\n");
    for (int i = 0; i < ncf; i++)
        for (int a = 0; a < 2; a++) {
            const char *arch = a ? "sm_80" : "sm_90a";
            char *ptx = NULL, what[96];
            snprintf(what, sizeof what, "desc matmul %dx%dx%d w%d s%d %s", cf[i][0], cf[i][1], cf[i][2], cf[i][3], cf[i][4], arch);
            /* compiled as a launch at 1024^3 compiles it: its arguments specialize it (strides divisible by 16) */
            tile_launch o = {.num_warps = cf[i][3], .num_stages = cf[i][4], .meta = {{"BLOCK_M", cf[i][0]}, {"BLOCK_N", cf[i][1]}, {"BLOCK_K", cf[i][2]}},
                             .file = __FILE__, .line = __LINE__};
            static char buf[3][64];
            tile_arg args[9];
            for (int q = 0; q < 3; q++) args[q].p = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
            for (int q = 3; q < 9; q++) args[q].i = 1024;
            tile__func f;
            tile__config cfg;
            tile_status st = tile__build(TILE_KERNEL_OF(desc_matmul), &o, &f);
            if (st == TILE_OK) {
                if ((st = tile__config_resolve(TILE_KERNEL_OF(desc_matmul), &o, args, arch, &cfg)) == TILE_OK)
                    st = tile__compile(TILE_KERNEL_OF(desc_matmul), &f, &cfg, NULL, &ptx);
                tile__func_free(&f);
            }
            TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
            if (st != TILE_OK) continue;
            int tma = strstr(ptx, "cp.async.bulk.tensor.2d") != NULL, bar = strstr(ptx, "mbarrier.try_wait.parity") != NULL;
            int maps = strstr(ptx, ".param .align 64 .b8 desc_matmul_param_10[128]") != NULL;
            if (a == 0) {
                TT_CHECK(tma && bar && maps && strstr(ptx, "wgmma.mma_async"), "%s: not a TMA ring into wgmma (copies %d, barriers %d, maps %d)", what, tma, bar,
                         maps);
            } else {
                TT_CHECK(!tma && !bar && !maps && strstr(ptx, "cp.async.cg.shared.global") && strstr(ptx, "mma.sync"),
                         "%s: not the cp.async ring of the pointer rewrite", what);
            }
            check_ptx(what, ptx, arch);
            free(ptx);
        }
}

/* ---- 4b'. the reductions' PTX for sm_90a, without a GPU: with TILE_TMA_REDUCE=1 (the default), N a
   multiple of 16 (as a launch with N = 1024 specializes it) makes one
   cp.reduce.async.bulk.tensor of the block's kind, beside the atomics of the blocks it
   does not take (at a negative coordinate or a column off 16 bytes); N = 1000 (its rows
   not whole 16-byte chunks: the engine would reduce the padding), or the knob off
   (TILE_TMA_REDUCE=0), the pointer rewrite's atomics alone. ptxas assembles both. */
static void test_wide_atomics_ptx(void) {
    if (getenv("TILE_TEST_VALGRIND")) return;   /* sixteen compiles: the other builds of this test check them */
    int on = tile__knob_values_get()->tma_reduce;
    static const char *const ops[] = {"add", "max", "min"};
    for (size_t w = 0; w < sizeof wide_atomics / sizeof wide_atomics[0]; w++)
        for (int n16 = 0; n16 < 2; n16++) {
            char *ptx = NULL, what[128], want[128];
            snprintf(what, sizeof what, "%s, N %s, sm_90a", wide_atomics[w].name, n16 ? "1024" : "1000");
            tile_launch o = {.file = __FILE__, .line = __LINE__};
            static char buf[2][64];
            tile_arg args[7];
            for (int q = 0; q < 2; q++) args[q].p = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
            args[2].i = 512, args[3].i = n16 ? 1024 : 1000, args[4].i = 1024, args[5].i = 0, args[6].i = 0;
            tile__func f;
            tile__config cfg;
            tile_status st = tile__build(wide_atomics[w].k, &o, &f);
            if (st == TILE_OK) {
                if ((st = tile__config_resolve(wide_atomics[w].k, &o, args, "sm_90a", &cfg)) == TILE_OK) st = tile__compile(wide_atomics[w].k, &f, &cfg, NULL, &ptx);
                tile__func_free(&f);
            }
            TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
            if (st != TILE_OK) continue;
            int kind = wide_atomics[w].kind, store = kind < 0;
            if (store) snprintf(want, sizeof want, "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group");
            else snprintf(want, sizeof want, "cp.reduce.async.bulk.tensor.2d.global.shared::cta.%s.tile.bulk_group", ops[kind]);
            int tma = strstr(ptx, want) != NULL, red = store ? strstr(ptx, "\tst.global.") != NULL : strstr(ptx, "\tred.") != NULL || strstr(ptx, "\tatom.") != NULL;
            if (store && wide_atomics[w].t != TL_F32) on = 1;   /* 16-bit float stores: the copy engine's without the knob */
            else on = tile__knob_values_get()->tma_reduce;
            /* on: the copy engine's reduction, and the atomics a block off its 16 bytes (or at a
               negative coordinate) takes instead (the H100 refuses such a box) */
            if (n16 && on) TT_CHECK(tma && red, "%s: not the copy engine's reduction and its element-wise fallback (%s: %d; atomics: %d)", what, want, tma, red);
            else TT_CHECK(!tma && red, "%s: not the pointer rewrite's atomics (%s: %d; pointer atomics: %d)", what, want, tma, red);
            check_ptx(what, ptx, "sm_90a");
            free(ptx);
        }
}

/* the split-K matmul's PTX for sm_90a at 128x256x64 (8 warps, 3 stages; N = 1024):
   a TMA ring into wgmma, then C's f32 block reduced by the copy engine (8 boxes of
   32 columns, staged over the ring's memory), assembled with no spills */
static void test_splitk_ptx(void) {
    if (getenv("TILE_TEST_VALGRIND")) return;
    tile_launch o = {.num_warps = 8, .num_stages = 3, .meta = {{"BLOCK_M", 128}, {"BLOCK_N", 256}, {"BLOCK_K", 64}, {"SPLIT_K", 4}}, .file = __FILE__, .line = __LINE__};
    static char buf[3][64];
    tile_arg args[9];
    for (int q = 0; q < 3; q++) args[q].p = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
    for (int q = 3; q < 9; q++) args[q].i = 1024;
    tile__func f;
    tile__config cfg;
    char *ptx = NULL;
    tile_status st = tile__build(TILE_KERNEL_OF(splitk_matmul), &o, &f);
    if (st == TILE_OK) {
        if ((st = tile__config_resolve(TILE_KERNEL_OF(splitk_matmul), &o, args, "sm_90a", &cfg)) == TILE_OK)
            st = tile__compile(TILE_KERNEL_OF(splitk_matmul), &f, &cfg, NULL, &ptx);
        tile__func_free(&f);
    }
    TT_CHECK(st == TILE_OK, "split-K matmul 128x256x64 sm_90a: %s", tile_last_error());
    if (st != TILE_OK) return;
    int boxes = 0, want = tile__knob_values_get()->tma_reduce ? 8 : 0;   /* TILE_TMA_REDUCE=1 (the default); else pointer atomics */
    for (const char *p = ptx; (p = strstr(p, "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group")) != NULL; p++) boxes++;
    TT_CHECK(boxes == want && (want || strstr(ptx, "\tred.") || strstr(ptx, "\tatom.")) && strstr(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global") && strstr(ptx, "wgmma.mma_async"),
             "split-K matmul 128x256x64 sm_90a: %d reductions (want %d), TMA loads %d, wgmma %d", boxes, want,
             strstr(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global") != NULL, strstr(ptx, "wgmma.mma_async") != NULL);
    check_ptx("split-K matmul 128x256x64 w8 s3 sm_90a", ptx, "sm_90a");
    free(ptx);
}

/* ---- 4c. the plan: on sm_90a the matmul's loop is a TMA ring (stages of both blocks, 1 KiB
   aligned, the full barriers after them, two tensor maps and C's store's, the loads' offsets as the address
   slice), copies S-2 ahead with a wgmma group in flight where the back end allows it, S-1
   without; on sm_80 the cp.async ring of the pointer rewrite, no tensor maps */
static void test_tma_plan(void) {
    for (int a = 0; a < 3; a++) {
        const char *arch = a == 2 ? "sm_80" : "sm_90a";
        int async_ok = a == 1, S = 4;
        tile_launch o = {.num_warps = 4, .num_stages = S, .meta = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}}, .file = __FILE__, .line = __LINE__};
        static char buf[3][64];
        tile_arg args[9];
        for (int q = 0; q < 3; q++) args[q].p = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
        for (int q = 3; q < 9; q++) args[q].i = 1024;
        tile__func f, own;
        const tile__func *g = NULL;
        tile__config cfg;
        tile__plan p;
        TT_CHECK(tile__build(TILE_KERNEL_OF(desc_matmul), &o, &f) == TILE_OK, "plan %s: build", arch);
        TT_CHECK(tile__config_resolve(TILE_KERNEL_OF(desc_matmul), &o, args, arch, &cfg) == TILE_OK, "plan %s: config", arch);
        TT_CHECK(tile__descs_stage(&f, &cfg, &own, &g) == TILE_OK && g, "plan %s: descs stage: %s", arch, tile_last_error());
        if (!g || tile__plan_build(g, &cfg, async_ok, &p) != TILE_OK) {
            TT_CHECK(0, "plan %s: %s", arch, tile_last_error());
            tile__func_free(&own);
            tile__func_free(&f);
            continue;
        }
        const tile__loop_plan *lp = NULL;
        for (int l = 0; l < p.nloops; l++)
            if (p.loops[l].kind != TILE__SCHED_NONE) lp = &p.loops[l];
        TT_CHECK(lp != NULL, "plan %s: the K loop has no ring", arch);
        if (lp && a < 2) {
            /* and C's store through the copy engine (N = 1024 is divisible by 16): a third map */
            int nst = 0, stmap = 0;
            for (int k = 0; k < g->nops; k++)
                if (!g->ops[k].dead && g->ops[k].code == TILE__OP_DESC_STORE) nst++, stmap = p.store_tmap[k];
            TT_CHECK(lp->kind == TILE__SCHED_TMA && p.ntmaps == 3 && lp->nloads == 2 && nst == 1 && stmap == 3,
                     "plan %s: a TMA ring of two loads, two maps, C's store the third (kind %d, %d maps, %d stores, store map %d)", arch, lp->kind, p.ntmaps, nst,
                     stmap);
            TT_CHECK(lp->stages == S && lp->slot == 32768 && lp->loff[0] == 0 && lp->loff[1] == 16384 && lp->base % 1024 == 0 &&
                         lp->bars == lp->base + (size_t)S * 32768,
                     "plan %s: stages %d x %d bytes, loads at %d and %d, base %zu, barriers at %zu", arch, lp->stages, lp->slot, lp->loff[0], lp->loff[1],
                     lp->base, lp->bars);
            TT_CHECK(async_ok ? lp->async_carry >= 0 && lp->ahead == S - 2 : lp->async_carry < 0 && lp->ahead == S - 1,
                     "plan %s (async %d): %d ahead, carry %d", arch, async_ok, lp->ahead, lp->async_carry);
            int tm0 = p.tmap_op[lp->tmap[0]], tm1 = p.tmap_op[lp->tmap[1]];
            TT_CHECK(tm0 != tm1 && g->ops[tm0].code == TILE__OP_MAKE_DESC && g->ops[tm1].code == TILE__OP_MAKE_DESC, "plan %s: each load its own map", arch);
            tile__tmap_info ti;
            tile__plan_tmap_info(&p, lp->tmap[1], &ti);
            TT_CHECK(ti.rank == 2 && ti.dtype == TL_F16 && ti.swizzle == 3 && ti.box[0] == 64 && ti.box[1] == 64 && ti.src[0] == 1 && ti.src[1] == 5 &&
                         ti.src[2] == 4 && ti.src[3] == 7 && ti.src[4] == -1 && ti.cval[4] == 1,
                     "plan %s: B's map (box %d x %d, sources %d %d %d %d %d)", arch, ti.box[0], ti.box[1], ti.src[0], ti.src[1], ti.src[2], ti.src[3], ti.src[4]);
        } else if (lp) {
            TT_CHECK(lp->kind == TILE__SCHED_CP_ASYNC && p.ntmaps == 0, "plan sm_80: the cp.async ring of the pointer rewrite (kind %d, %d maps)", lp->kind,
                     p.ntmaps);
        }
        tile__plan_free(&p);
        tile__func_free(&own);
        tile__func_free(&f);
    }
}

/* ---- 4d. loop options and warp specialization: the matmul persistent over
   tiles, TL_LOOP_OPTIONS on the loop meta WS_AT names (1 the K loop, 2 the
   tiles' loop; 0 none), with meta STAGES as the K loop's num_stages and
   FLATTEN as the tiles' loop's flatten ------------------------------------------------- */
static int L_ws_tiles, L_ws_k;
TILE_KERNEL(ws_matmul, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr), (tl_i32, M), (tl_i32, N), (tl_i32, K),
            (tl_i32, stride_am), (tl_i32, stride_bk), (tl_i32, stride_cm)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), BK = TL_META(BLOCK_K), at = (int)TL_META(WS_AT);
    tl_t a_desc = tl_make_tensor_descriptor(a_ptr, (M, K), (stride_am, 1), (BM, BK));
    tl_t b_desc = tl_make_tensor_descriptor(b_ptr, (K, N), (stride_bk, 1), (BK, BN));
    /* CN (when given): C's row length as a constant, known to be a multiple of 16 bytes without arguments */
    int CN = (int)TL_META_OR(CN, 0);
    tl_t c_desc = CN ? tl_make_tensor_descriptor(c_ptr, (M, CN), (stride_cm, 1), (BM, BN)) : tl_make_tensor_descriptor(c_ptr, (M, N), (stride_cm, 1), (BM, BN));
    tl_t npn = tl_cdiv(N, BN), ntiles = tl_mul(tl_cdiv(M, BM), npn);
    TL_LOOP_OPTIONS(.warp_specialize = at == 2, .flatten = (int)TL_META(FLATTEN));
    TL_FOR (t, tl_program_id(0), ntiles, tl_num_programs(0)) {
        L_ws_tiles = __LINE__;
        tl_t off_m = tl_mul(tl_floordiv(t, npn), BM), off_n = tl_mul(tl_mod(t, npn), BN);
        tl_t acc = tl_zeros(TL_F32, BM, BN);
        TL_LOOP_OPTIONS(.warp_specialize = at == 1, .num_stages = (int)TL_META(STAGES));
        TL_FOR (k, 0, tl_cdiv(K, BK), 1, acc) {
            L_ws_k = __LINE__;
            tl_t a = tl_desc_load(a_desc, (off_m, tl_mul(k, BK)));
            tl_t b = tl_desc_load(b_desc, (tl_mul(k, BK), off_n));
            acc = tl_dot(a, b, acc);
        }
        tl_desc_store(c_desc, (off_m, off_n), tl_cast(acc, TL_F16));
    }
}
/* ping-pong explained: warp_specialize on the tiles' loop with 4 warps where
   the consumers cannot take its iterations in turn. HOW 1: the tiles' loop
   carries a value; 2: the K loop's bound changes with the tile */
static int L_pp_tiles;
static void pp_tile(tl_t t, tl_t a_desc, tl_t b_desc, tl_t c_desc, tl_t npn, tl_t K, int how) {
    tl_t off_m = tl_mul(tl_floordiv(t, npn), 128), off_n = tl_mul(tl_mod(t, npn), 128);
    tl_t acc = tl_zeros(TL_F32, 128, 128);
    tl_t kend = how == 2 ? tl_sub(tl_cdiv(K, 64), tl_mod(t, 2)) : tl_cdiv(K, 64);
    TL_FOR (k, 0, kend, 1, acc) {
        tl_t a = tl_desc_load(a_desc, (off_m, tl_mul(k, 64)));
        tl_t b = tl_desc_load(b_desc, (tl_mul(k, 64), off_n));
        acc = tl_dot(a, b, acc);
    }
    tl_desc_store(c_desc, (off_m, off_n), tl_cast(acc, TL_F16));
}
TILE_KERNEL(pp_why, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr), (tl_ptr_i32, count), (tl_i32, M), (tl_i32, N), (tl_i32, K)) {
    int how = (int)TL_META(HOW);
    tl_t a_desc = tl_make_tensor_descriptor(a_ptr, (M, K), (K, 1), (128, 64));
    tl_t b_desc = tl_make_tensor_descriptor(b_ptr, (K, N), (N, 1), (64, 128));
    tl_t c_desc = tl_make_tensor_descriptor(c_ptr, (M, N), (N, 1), (128, 128));
    tl_t npn = tl_cdiv(N, 128), ntiles = tl_mul(tl_cdiv(M, 128), npn);
    if (how == 1) {
        tl_t n = tl_program_id(0);
        TL_LOOP_OPTIONS(.warp_specialize = 1);
        TL_FOR (t, tl_program_id(0), ntiles, tl_num_programs(0), n) {
            L_pp_tiles = __LINE__;
            pp_tile(t, a_desc, b_desc, c_desc, npn, K, how);
            n = tl_add(n, 1);
        }
        tl_store(count, n);
    } else {
        TL_LOOP_OPTIONS(.warp_specialize = 1);
        TL_FOR (t, tl_program_id(0), ntiles, tl_num_programs(0)) {
            L_pp_tiles = __LINE__;
            pp_tile(t, a_desc, b_desc, c_desc, npn, K, how);
        }
    }
}
/* the plan of ws_matmul for arch, warps, stages and the metas; 1 when made */
static int ws_plan(const char *arch, int warps, int stages, int bn, int at, int kstages, int flatten, tile__plan *p, tile__func *f, tile__func *own) {
    tile_launch o = {.num_warps = warps, .num_stages = stages,
                     .meta = {{"BLOCK_M", 128}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WS_AT", at}, {"STAGES", kstages}, {"FLATTEN", flatten}},
                     .file = __FILE__, .line = __LINE__};
    static char buf[3][64];
    tile_arg args[9];
    for (int q = 0; q < 3; q++) args[q].p = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
    for (int q = 3; q < 9; q++) args[q].i = 1024;
    const tile__func *g = NULL;
    tile__config cfg;
    memset(own, 0, sizeof *own);
    if (tile__build(TILE_KERNEL_OF(ws_matmul), &o, f) != TILE_OK) return 0;
    if (tile__config_resolve(TILE_KERNEL_OF(ws_matmul), &o, args, arch, &cfg) != TILE_OK || tile__descs_stage(f, &cfg, own, &g) != TILE_OK ||
        tile__plan_build(g, &cfg, 1, p) != TILE_OK) {
        tile__func_free(own);
        tile__func_free(f);
        return 0;
    }
    return 1;
}
static void ws_plan_free(tile__plan *p, tile__func *f, tile__func *own) {
    tile__plan_free(p);
    tile__func_free(own);
    tile__func_free(f);
}
/* the plan's one note, or NULL */
static const char *ws_note(const tile__plan *p, int *line) {
    *line = p->nnotes ? p->notes[0].line : 0;
    return p->nnotes == 1 ? p->notes[0].text : NULL;
}
static void test_loop_options(void) {
    tile__plan p;
    tile__func f, own;
    for (int at = 1; at <= 2; at++) {   /* honoured: the producer's slice, its registers, the barriers, 384 threads */
        if (!ws_plan("sm_90a", 8, 3, 256, at, 0, 0, &p, &f, &own)) {
            TT_CHECK(0, "ws plan at %d: %s", at, tile_last_error());
            continue;
        }
        const tile__loop_plan *lp = p.ws ? &p.loops[p.ws_loop] : NULL;
        int nprod = 0;
        for (int k = 0; p.ws && k < own.nops; k++) nprod += p.ws_prod[k];
        TT_CHECK(p.ws && p.nnotes == 0 && tile__plan_threads(&p) == 384 && p.ws_regs[0] == 40 && p.ws_regs[1] == 232 && nprod > 0,
                 "ws at %d: applied (ws %d, %d notes, %d threads, %d producer ops)", at, p.ws, p.nnotes, tile__plan_threads(&p), nprod);
        if (lp)
            TT_CHECK(lp->kind == TILE__SCHED_TMA && lp->stages == 3 && p.ws_empty == lp->bars + 24 && p.ws_end == p.ws_empty + 24 && p.ring_smem >= p.ws_end &&
                         lp->async_carry < 0,
                     "ws at %d: the ring (kind %d, %d stages, empty barriers at %zu, end %zu, carry %d)", at, lp->kind, lp->stages, p.ws_empty, p.ws_end,
                     lp->async_carry);
        ws_plan_free(&p, &f, &own);
    }
    /* 4 stages, a back end that allows it: a wgmma group in flight in the consumers' loop */
    if (ws_plan("sm_90a", 8, 4, 128, 2, 0, 0, &p, &f, &own)) {
        TT_CHECK(p.ws && p.loops[p.ws_loop].async_carry >= 0, "ws with 4 stages: a wgmma group in flight (ws %d)", p.ws);
        ws_plan_free(&p, &f, &own);
    }
    /* explained: each note at the loop's line, and what runs instead */
    static const struct { const char *arch; int warps, bn, at, kstages, flatten; const char *says; int *line; } no[] = {
        {"sm_90a", 2, 128, 2, 0, 0, "takes num_warps 8 (two consumer warpgroups) or 4", &L_ws_tiles},
        {"sm_90a", 4, 128, 1, 0, 0, "take turns over the iterations of a loop around the ring", &L_ws_k},
        {"sm_80", 8, 256, 1, 0, 0, "needs wgmma on sm_90a", &L_ws_k},
        {"sm_90a", 8, 32, 1, 0, 0, "pointer loads (cp.async)", &L_ws_k},   /* rows of 64 bytes: no TMA ring */
        {"sm_90a", 8, 256, 0, 0, 1, "flatten is not done", &L_ws_tiles},
    };
    for (int i = 0; i < (int)(sizeof no / sizeof no[0]); i++) {
        int line;
        if (!ws_plan(no[i].arch, no[i].warps, 3, no[i].bn, no[i].at, no[i].kstages, no[i].flatten, &p, &f, &own)) {
            TT_CHECK(0, "options case %d: %s", i, tile_last_error());
            continue;
        }
        const char *t = ws_note(&p, &line);
        TT_CHECK(!p.ws && t && strstr(t, no[i].says) && line == *no[i].line - 1, "options case %d: note '%s' at line %d (want '%s' at %d)", i, t ? t : "(none)", line,
                 no[i].says, *no[i].line - 1);
        ws_plan_free(&p, &f, &own);
    }
    /* ping-pong: 4 warps, warp_specialize on the tiles' loop: two consumer
       warpgroups of 128 threads take its iterations in turn */
    if (ws_plan("sm_90a", 4, 4, 128, 2, 0, 0, &p, &f, &own)) {
        TT_CHECK(p.ws && p.ws_pp && p.nnotes == 0 && tile__plan_threads(&p) == 384 && p.nthreads == 128 && own.ops[p.ws_outer].line == L_ws_tiles - 1,
                 "ping-pong: applied (ws %d, pp %d, %d notes, %d threads, outer loop line %d)", p.ws, p.ws_pp, p.nnotes, tile__plan_threads(&p),
                 p.ws ? own.ops[p.ws_outer].line : -1);
        char *d = tile__plan_dump(&p);
        TT_CHECK(d && strstr(d, "ping-pong"), "ping-pong: the ttgir dump says so");
        TILE_FREE(d);
        ws_plan_free(&p, &f, &own);
    }
    /* ping-pong explained: a carried value, a K loop whose bound changes */
    for (int how = 1; how <= 2; how++) {
        tile_launch o = {.num_warps = 4, .num_stages = 4, .meta = {{"HOW", how}}, .file = __FILE__, .line = __LINE__};
        static char buf[4][64];
        tile_arg args[7];
        for (int q = 0; q < 4; q++) args[q].p = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
        for (int q = 4; q < 7; q++) args[q].i = 1024;
        const tile__func *g = NULL;
        tile__config cfg;
        memset(&own, 0, sizeof own);
        int made = tile__build(TILE_KERNEL_OF(pp_why), &o, &f) == TILE_OK;
        made = made && tile__config_resolve(TILE_KERNEL_OF(pp_why), &o, args, "sm_90a", &cfg) == TILE_OK && tile__descs_stage(&f, &cfg, &own, &g) == TILE_OK &&
               tile__plan_build(g, &cfg, 1, &p) == TILE_OK;
        TT_CHECK(made, "ping-pong explained %d: %s", how, tile_last_error());
        if (!made) continue;
        int line;
        const char *t = ws_note(&p, &line);
        const char *want = how == 1 ? "may not carry values" : "bounds must be the same in every iteration";
        TT_CHECK(!p.ws && t && strstr(t, want) && line == L_pp_tiles - 1, "ping-pong explained %d: note '%s' at line %d (want '%s' at %d)", how,
                 t ? t : "(none)", line, want, L_pp_tiles - 1);
        ws_plan_free(&p, &f, &own);
    }
    /* num_stages of the K loop, not the launch's */
    if (ws_plan("sm_90a", 8, 4, 256, 0, 2, 0, &p, &f, &own)) {
        int S = 0;
        for (int l = 0; l < p.nloops; l++)
            if (p.loops[l].kind == TILE__SCHED_TMA) S = p.loops[l].stages;
        TT_CHECK(S == 2 && p.nnotes == 0 && !p.ws, "num_stages 2 on the K loop: %d stages, %d notes", S, p.nnotes);
        ws_plan_free(&p, &f, &own);
    }
    /* TILE_STRICT=1: the note is the compile's error, at the loop's line */
    (void)tile__knob_values_get();
    tile__kv.strict = 1;
    {
        tile_launch o = {.num_warps = 4, .num_stages = 3, .meta = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}, {"WS_AT", 1}, {"STAGES", 0}, {"FLATTEN", 0}},
                         .file = __FILE__, .line = __LINE__};
        char *ptx = NULL;
        tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(ws_matmul), &o, "sm_90a", &ptx);
        const tile_error *e = tile_last_error_info();
        TT_CHECK(st == TILE_ERR_OPTION && e && e->line == L_ws_k - 1 && strstr(e->message, "TILE_STRICT"), "strict: %s (status %d, line %d)", tile_last_error(),
                 (int)st, e ? e->line : -1);
        tile_free_text(ptx);
    }
    tile__kv.strict = 0;
}
/* the inline PTX's $U: each mbarrier wait's loop label ("tile_wait_<n>:",
   from ptx.h's one text) gets the number of its inline PTX, so the waits of
   a kernel have labels of their own, and no "$U" is left (a compiler may
   copy one wait, label and all: its braces make the label local to the
   copy). The LLVM twin of this test checks the LLVM emitter's substitution. */
static void check_wait_labels(const char *what, const char *ptx) {
    int n = 0, distinct = 0, ids[256];
    for (const char *p = strstr(ptx, "tile_wait_"); p; p = strstr(p + 1, "tile_wait_")) {
        int id = -1, len = 0, seen = 0;
        if (sscanf(p, "tile_wait_%d:%n", &id, &len) != 1 || len == 0 || p[len - 1] != ':') continue;   /* a branch to it, not its definition */
        for (int i = 0; i < distinct; i++) seen |= ids[i] == id;
        if (!seen && distinct < 256) ids[distinct++] = id;
        n++;
    }
    TT_CHECK(n >= 2 && distinct >= 2 && !strstr(ptx, "$U"), "%s: %d mbarrier wait labels, %d numbers (the $U of TILE_BACKEND=%s)", what, n, distinct, getenv("TILE_BACKEND") ? getenv("TILE_BACKEND") : "(unset)");
}
/* the PTX of the warp-specialized kernels for sm_90a: the roles' registers,
   TMA, mbarriers, wgmma, no spills or serialized wgmma */
static void test_ws_ptx(void) {
    /* WS_AT, BLOCK_M, BLOCK_N, stages, warps, CN; 4 warps: ping-pong; CN: C's rows a
       constant multiple of 16 bytes, so C's store goes through the copy engine */
    static const int cf[][6] = {{1, 128, 128, 4, 8, 0}, {2, 128, 128, 4, 8, 0}, {2, 128, 256, 3, 8, 4096}, {2, 128, 128, 4, 4, 0},
                                {2, 128, 128, 5, 4, 4096}, {2, 64, 256, 3, 4, 4096}, {1, 128, 256, 3, 8, 4096}};
    if (getenv("TILE_TEST_VALGRIND")) {
        printf("under valgrind: the warp-specialized PTX checks are left to the other builds of this test\n");
        return;
    }
    for (int i = 0; i < (int)(sizeof cf / sizeof cf[0]); i++) {
        tile_launch o = {.num_warps = cf[i][4], .num_stages = cf[i][3],
                         .meta = {{"BLOCK_M", cf[i][1]}, {"BLOCK_N", cf[i][2]}, {"BLOCK_K", 64}, {"WS_AT", cf[i][0]}, {"STAGES", 0}, {"FLATTEN", 0},
                                  {"CN", cf[i][5]}},
                         .file = __FILE__, .line = __LINE__};
        char *ptx = NULL, what[96];
        int pp = cf[i][4] == 4;
        snprintf(what, sizeof what, "ws matmul (at %d) %dx%dx64 w%d s%d CN %d sm_90a", cf[i][0], cf[i][1], cf[i][2], cf[i][4], cf[i][3], cf[i][5]);
        tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(ws_matmul), &o, "sm_90a", &ptx);
        TT_CHECK(st == TILE_OK, "%s: %s", what, tile_last_error());
        if (st != TILE_OK) continue;
        TT_CHECK(strstr(ptx, pp ? "setmaxnreg.dec.sync.aligned.u32 24" : "setmaxnreg.dec.sync.aligned.u32 40") &&
                     strstr(ptx, pp ? "setmaxnreg.inc.sync.aligned.u32 240" : "setmaxnreg.inc.sync.aligned.u32 232") && strstr(ptx, "cp.async.bulk.tensor.2d") &&
                     strstr(ptx, "mbarrier.try_wait.parity") && strstr(ptx, "mbarrier.arrive.shared") && strstr(ptx, "wgmma.mma_async") &&
                     strstr(ptx, pp ? ", 128;" : "bar.sync 1, 256") && strstr(ptx, ".maxntid 384"),
                 "%s: not warp-specialized", what);
        /* ping-pong: the consumers' turns (bar.arrive / bar.sync of 256 threads on a
           register id) and their scratch halves (the dynamic shared memory's size) */
        TT_CHECK(!pp || (strstr(ptx, "bar.arrive") && strstr(ptx, ", 256;") && strstr(ptx, "%dynamic_smem_size")), "%s: not ping-pong", what);
        /* C's store through the copy engine exactly where its rows are known to be whole 16-byte chunks */
        int tma_st = strstr(ptx, "global.shared::cta.tile.bulk_group") && strstr(ptx, "cp.async.bulk.wait_group.read 0");
        TT_CHECK(tma_st == (cf[i][5] != 0), "%s: the TMA store is %s", what, tma_st ? "there" : "missing");
        check_wait_labels(what, ptx);
        check_ptx(what, ptx, "sm_90a");
        tile_free_text(ptx);
    }
}
/* warps 4 with at 2: ping-pong; progs: the programs at most (0: one per multiprocessor) */
static void test_ws_matmul_w(int M, int N, int K, int at, int bm, int bn, int stages, int warps, unsigned progs) {
    int sa = (K + 7) / 8 * 8, sb = (N + 7) / 8 * 8, sc = sb + 8;   /* C has 8 columns of padding at least, which must stay unwritten */
    tile_f16 *ha = malloc((size_t)M * sa * 2), *hb = malloc((size_t)K * sb * 2), *hc = malloc((size_t)M * sc * 2);
    for (int i = 0; i < M * sa; i++) ha[i] = tile_f16_from(tt_uniform(-1, 1));
    for (int i = 0; i < K * sb; i++) hb[i] = tile_f16_from(tt_uniform(-1, 1));
    tile_f16 *a = tile_malloc((size_t)M * sa * 2), *b = tile_malloc((size_t)K * sb * 2), *c = tile_malloc((size_t)M * sc * 2);
    tile_memcpy_htod(a, ha, (size_t)M * sa * 2);
    tile_memcpy_htod(b, hb, (size_t)K * sb * 2);
    tile_memset(c, 0xff, (size_t)M * sc * 2);   /* NaN */
    unsigned tiles = (unsigned)(((M + bm - 1) / bm) * ((N + bn - 1) / bn)), sms = progs ? progs : (unsigned)tile_device_sm_count();
    TT_OK(ws_matmul(TILE_OPTS(.grid = {tiles < sms ? tiles : sms}, .num_warps = warps, .num_stages = stages,
                              .meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", 64}, {"WS_AT", at}, {"STAGES", 0}, {"FLATTEN", 0}}),
                    a, b, c, M, N, K, sa, sb, sc));
    tile_memcpy_dtoh(hc, c, (size_t)M * sc * 2);
    char what[160];
    snprintf(what, sizeof what, "ws matmul %dx%dx%d (at %d) %dx%dx64 w%d s%d, %u programs", M, N, K, at, bm, bn, warps, stages, tiles < sms ? tiles : sms);
    check_f16_matmul(what, ha, hb, hc, M, N, K, sa, sb, sc);
    tile_free(a), tile_free(b), tile_free(c);
    free(ha), free(hb), free(hc);
}

static void test_ws_matmul(int M, int N, int K, int at, int bn, int stages) { test_ws_matmul_w(M, N, K, at, 128, bn, stages, 8, 0); }

/* ---- 5. the launch-time rules: the line of tl_make_tensor_descriptor, nothing written ------ */
static int L_rule;
TILE_KERNEL(rule_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, M), (tl_i32, N), (tl_i32, sx)) {
    tl_t d = tl_make_tensor_descriptor(x, (M, N), (sx, 1), (4, 8)); L_rule = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 32)), tl_reshape(tl_desc_load(d, (0, 0)), 32));
}
static int n_msgs;
static void count_log(const tile_error *e, void *user) {
    (void)e, (void)user;
    n_msgs++;
}
static void test_rules(void) {
    float *x = tile_malloc(4096), *out = tile_malloc(128);
    static const struct { const char *what; int shift, M, N, sx; const char *phrase; } cases[] = {
        {"a misaligned base", 1, 8, 8, 8, "16-byte aligned"},
        {"a stride of 20 bytes", 0, 8, 5, 5, "multiple of 16 bytes"},
        {"a shape of 0", 0, 0, 8, 8, "shape dim 0 is 0"},
        {"a negative shape", 0, 8, -3, 8, "shape dim 1 is -3"},
    };
    tile_set_log(count_log, NULL);
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        tile_memset(out, 0xA5, 128);
        n_msgs = 0;
        tile_clear_error();
        tile_status st = rule_kernel(TILE_OPTS(), x + cases[c].shift, out, cases[c].M, cases[c].N, cases[c].sx);
        const tile_error *e = tile_last_error_info();
        TT_CHECK(st == TILE_ERR_ARG && e->status == TILE_ERR_ARG, "%s: %s, want TILE_ERR_ARG (%s)", cases[c].what, tile_status_id(st), e->message);
        TT_CHECK(e->line == L_rule && strstr(e->file, "test_desc.c"), "%s: at %s:%d, want the descriptor's line %d", cases[c].what, e->file, e->line, L_rule);
        TT_CHECK(strstr(e->message, cases[c].phrase) && strstr(e->message, "TILE_ERR_ARG") && strcmp(e->kernel, "rule_kernel") == 0,
                 "%s: the message lacks \"%s\": %s", cases[c].what, cases[c].phrase, e->message);
        TT_CHECK(n_msgs == 1, "%s: %d messages", cases[c].what, n_msgs);
        unsigned char h[128], p[128];
        tile_memcpy_dtoh(h, out, 128);
        memset(p, 0xA5, 128);
        TT_CHECK(memcmp(h, p, 128) == 0, "%s: the failed launch wrote memory", cases[c].what);
    }
    tile_set_log(NULL, NULL);
    /* and the same kernel with good arguments runs */
    float hx[64];
    for (int i = 0; i < 64; i++) hx[i] = (float)i;
    tile_memcpy_htod(x, hx, sizeof hx);
    TT_OK(rule_kernel(TILE_OPTS(), x, out, 8, 8, 8));
    float ho[32];
    tile_memcpy_dtoh(ho, out, sizeof ho);
    int bad = 0;
    for (int e = 0; e < 32; e++) bad += ho[e] != hx[(e / 8) * 8 + e % 8];
    TT_CHECK(bad == 0, "good arguments: %d wrong", bad);
    tile_free(x), tile_free(out);
}

/* ---- 6. descriptors made on the host (tl_desc parameters, Triton's TensorDescriptor) ------
   The matmul of tutorial 09's descriptor kernel: A, B and C passed as descriptors whose
   block shapes are the launch's meta-parameters (block_meta), so that a tuner's configs set
   them; run against float64 C through the typed launcher, and through a tuner of two
   configs. A rank-3 descriptor with a fixed block; the rules at the launch's line. */
TILE_KERNEL(hd_matmul, (tl_desc, a_desc), (tl_desc, b_desc), (tl_desc, c_desc), (tl_i32, M), (tl_i32, N), (tl_i32, K)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), BK = TL_META(BLOCK_K);
    tl_t pid = tl_program_id(0), npn = tl_cdiv(N, BN);
    tl_t off_m = tl_mul(tl_floordiv(pid, npn), BM), off_n = tl_mul(tl_mod(pid, npn), BN);
    tl_t acc = tl_zeros(TL_F32, BM, BN);
    (void)M;
    TL_FOR (k, 0, tl_cdiv(K, BK), 1, acc) {
        tl_t a = tl_desc_load(a_desc, (off_m, tl_mul(k, BK)));
        tl_t b = tl_desc_load(b_desc, (tl_mul(k, BK), off_n));
        acc = tl_dot(a, b, acc);
    }
    tl_desc_store(c_desc, (off_m, off_n), tl_cast(acc, TL_F16));
}
static void hd_grid(const tile_tune_args *a, unsigned g[3]) {
    g[0] = (unsigned)(tile_cdiv(tile_tune_int(a, "M"), tile_tune_meta(a, "BLOCK_M")) * tile_cdiv(tile_tune_int(a, "N"), tile_tune_meta(a, "BLOCK_N")));
}
static const tile_autotune_config hd_configs[] = {
    {.meta = {{"BLOCK_M", 32}, {"BLOCK_N", 32}, {"BLOCK_K", 32}}, .num_warps = 4, .num_stages = 3},
    {.meta = {{"BLOCK_M", 16}, {"BLOCK_N", 64}, {"BLOCK_K", 16}}, .num_warps = 2, .num_stages = 2},
};
static tile_autotuner hd_tuner = {TILE_AUTOTUNE_CONFIGS(hd_configs), .key = {"M", "N", "K"}, .grid = hd_grid};
static void test_host_desc_matmul(int M, int N, int K, int BM, int BN, int BK, int warps, int stages, int tuned) {
    int sa = (K + 7) / 8 * 8, sb = (N + 7) / 8 * 8 + 8, sc = (N + 7) / 8 * 8;
    tile_f16 *ha = malloc((size_t)M * sa * 2), *hb = malloc((size_t)K * sb * 2), *hc = malloc((size_t)M * sc * 2);
    for (int i = 0; i < M * sa; i++) ha[i] = tile_f16_from(tt_uniform(-1, 1));
    for (int i = 0; i < K * sb; i++) hb[i] = tile_f16_from(tt_uniform(-1, 1));
    tile_f16 *a = tile_malloc((size_t)M * sa * 2), *b = tile_malloc((size_t)K * sb * 2), *c = tile_malloc((size_t)M * sc * 2);
    tile_memcpy_htod(a, ha, (size_t)M * sa * 2);
    tile_memcpy_htod(b, hb, (size_t)K * sb * 2);
    tile_memset(c, 0xff, (size_t)M * sc * 2);   /* NaN */
    tile_tensor_desc ad = {.base = a, .dtype = TL_F16, .rank = 2, .shape = {M, K}, .strides = {sa, 1}, .block_meta = {"BLOCK_M", "BLOCK_K"}};
    tile_tensor_desc bd = {.base = b, .dtype = TL_F16, .rank = 2, .shape = {K, N}, .strides = {sb, 1}, .block_meta = {"BLOCK_K", "BLOCK_N"}};
    tile_tensor_desc cd = {.base = c, .dtype = TL_F16, .rank = 2, .shape = {M, N}, .strides = {sc, 1}, .block_meta = {"BLOCK_M", "BLOCK_N"}};
    unsigned grid = tuned ? 0 : (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
    if (tuned) TT_OK(hd_matmul(TILE_OPTS(.tune = &hd_tuner), &ad, &bd, &cd, M, N, K));
    else
        TT_OK(hd_matmul(TILE_OPTS(.grid = {grid}, .num_warps = warps, .num_stages = stages, .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK}}),
                        &ad, &bd, &cd, M, N, K));
    tile_memcpy_dtoh(hc, c, (size_t)M * sc * 2);
    char what[128];
    snprintf(what, sizeof what, "host-descriptor matmul %dx%dx%d %s", M, N, K, tuned ? "tuned" : "blocks as given");
    check_f16_matmul(what, ha, hb, hc, M, N, K, sa, sb, sc);
    tile_free(a), tile_free(b), tile_free(c);
    free(ha), free(hb), free(hc);
}
static int L_hd_copy;
TILE_KERNEL(hd_copy3, (tl_desc, x), (tl_ptr_f32, out), (tl_i32, o0), (tl_i32, o1), (tl_i32, o2)) {
    tl_t v = tl_desc_load(x, (o0, o1, o2));
    int n = tl_dim(v, 0) * tl_dim(v, 1) * tl_dim(v, 2);
    tl_store(tl_add(out, tl_arange(0, n)), tl_reshape(v, n));
}
static void test_host_desc(void) {
    /* rank 3, the block fixed on the host (2 x 4 x 8), offsets past each side */
    long long s0 = tt_int(1, 5), s1 = tt_int(1, 9), s2 = tt_int(1, 20), t1 = s2 + 4 * tt_int(0, 2), t0 = s1 * t1;
    t1 = (t1 + 3) / 4 * 4, t0 = s1 * t1;
    float *hx = malloc((size_t)(s0 * t0) * 4), ho[64], want[64];
    for (long long i = 0; i < s0 * t0; i++) hx[i] = (float)tt_uniform(-9, 9);
    float *x = tile_malloc((size_t)(s0 * t0) * 4), *out = tile_malloc(256);
    tile_memcpy_htod(x, hx, (size_t)(s0 * t0) * 4);
    tile_tensor_desc xd = {.base = x, .dtype = TL_F32, .rank = 3, .shape = {s0, s1, s2}, .strides = {t0, t1, 1}, .block = {2, 4, 8}};
    for (int rep = 0; rep < 4; rep++) {
        int o0 = (int)tt_int(-2, s0), o1 = (int)tt_int(-4, s1), o2 = (int)tt_int(-8, s2);
        for (int e = 0; e < 64; e++) {
            long long i = o0 + e / 32, j = o1 + e / 8 % 4, l = o2 + e % 8;
            want[e] = i >= 0 && i < s0 && j >= 0 && j < s1 && l >= 0 && l < s2 ? hx[i * t0 + j * t1 + l] : 0.0f;
        }
        tile_memset(out, 0xA5, 256);
        TT_OK(hd_copy3(TILE_OPTS(), &xd, out, o0, o1, o2));
        tile_memcpy_dtoh(ho, out, 256);
        TT_CHECK(memcmp(ho, want, 256) == 0, "host descriptor rank 3 (%lldx%lldx%lld) at %d,%d,%d: differs from the reference", s0, s1, s2, o0, o1, o2);
    }
    /* one compiled kernel for other values of the same specialization (shapes and bases are arguments) */
    tile_tensor_desc xd2 = xd;
    xd2.shape[2] = s2 > 1 ? s2 - 1 : 1;
    TT_OK(hd_copy3(TILE_OPTS(), &xd2, out, 0, 0, 0));
    /* the rules, at the launch's line, one message each, nothing written */
    static const struct { const char *what; int field; long long value; tile_status want; const char *phrase; } cases[] = {
        {"a NULL descriptor", 0, 0, TILE_ERR_ARG, "the tensor descriptor is NULL"},
        {"rank 6", 1, 6, TILE_ERR_ARG, "rank 6"},
        {"the last stride 2", 2, 2, TILE_ERR_ARG, "the last stride is 2"},
        {"a block dim of 0 and no meta name", 3, 0, TILE_ERR_ARG, "no block_meta"},
        {"a shape of 0", 4, 0, TILE_ERR_ARG, "has shape 0"},
        {"a block dim of 3", 3, 3, TILE_ERR_BLOCK, "power of two"},
        {"a misaligned base", 5, 1, TILE_ERR_ARG, "16-byte aligned"},
        {"a meta name not given", 6, 0, TILE_ERR_META, "NOPE"},
        {"a bool dtype", 7, TL_I1, TILE_ERR_ARG, "dtype"},
        {"a stride of 20 bytes", 8, 5, TILE_ERR_ARG, "multiple of 16 bytes"},
    };
    tile_set_log(count_log, NULL);
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        tile_tensor_desc bad = xd;
        if (cases[c].field == 1) bad.rank = (int)cases[c].value;
        if (cases[c].field == 2) bad.strides[2] = cases[c].value;
        if (cases[c].field == 3) bad.block[1] = (int)cases[c].value;
        if (cases[c].field == 4) bad.shape[0] = cases[c].value;
        if (cases[c].field == 5) bad.base = (char *)x + 4;
        if (cases[c].field == 6) bad.block[0] = 0, bad.block_meta[0] = "NOPE";
        if (cases[c].field == 7) bad.dtype = (tl_dtype)cases[c].value;
        if (cases[c].field == 8) bad.strides[1] = cases[c].value;
        tile_memset(out, 0xA5, 256);
        n_msgs = 0;
        tile_clear_error();
        tile_status st = hd_copy3(TILE_OPTS(), cases[c].field ? &bad : NULL, out, 0, 0, 0); L_hd_copy = __LINE__;
        const tile_error *e = tile_last_error_info();
        TT_CHECK(st == cases[c].want && e->status == cases[c].want, "host descriptor, %s: %s, want %s (%s)", cases[c].what, tile_status_id(st),
                 tile_status_id(cases[c].want), e->message);
        TT_CHECK(e->line == L_hd_copy && strstr(e->file, "test_desc.c"), "host descriptor, %s: at %s:%d, want the launch's line %d", cases[c].what, e->file,
                 e->line, L_hd_copy);
        TT_CHECK(strstr(e->message, cases[c].phrase) != NULL, "host descriptor, %s: the message lacks \"%s\": %s", cases[c].what, cases[c].phrase, e->message);
        TT_CHECK(n_msgs == 1, "host descriptor, %s: %d messages", cases[c].what, n_msgs);
        unsigned char h[256], pz[256];
        tile_memcpy_dtoh(h, out, 256);
        memset(pz, 0xA5, 256);
        TT_CHECK(memcmp(h, pz, 256) == 0, "host descriptor, %s: the failed launch wrote memory", cases[c].what);
    }
    /* PTX and IR need the arguments (the block shape is theirs) */
    char *text = NULL;
    tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(hd_copy3), TILE_OPTS(), "sm_90a", &text);
    TT_CHECK(st == TILE_ERR_ARG && strstr(tile_last_error(), "tile_kernel_ptx_for"), "tile_kernel_ptx of a tl_desc kernel: %s (%s)", tile_status_id(st),
             tile_last_error());
    tile_set_log(NULL, NULL);
    tile_arg args[5];
    args[0].p = &xd, args[0].elem = TL_DESC, args[1].p = out;
    for (int q = 2; q < 5; q++) args[q].i = 0;
    TT_OK(tile_kernel_ir_for(TILE_KERNEL_OF(hd_copy3), TILE_OPTS(), args, &text));
    if (text) {
        TT_CHECK(strstr(text, "make_desc") && strstr(text, "desc_load"), "the IR of a tl_desc kernel: no make_desc and desc_load:\n%s", text);
        tile_free_text(text);
    }
    tile_free(x), tile_free(out);
    free(hx);
}
/* what the GPU gets: the host descriptors' matmul on sm_90a is the TMA ring into wgmma and C's
   store through the copy engine, as the in-kernel descriptors' is */
static void test_host_desc_ptx(void) {
    if (getenv("TILE_TEST_VALGRIND")) return;
    static char buf[3][64];
    void *p[3];
    for (int q = 0; q < 3; q++) p[q] = (void *)(((uintptr_t)buf[q] + 15) & ~(uintptr_t)15);
    tile_tensor_desc ad = {.base = p[0], .dtype = TL_F16, .rank = 2, .shape = {1024, 1024}, .strides = {1024, 1}, .block_meta = {"BLOCK_M", "BLOCK_K"}};
    tile_tensor_desc bd = {.base = p[1], .dtype = TL_F16, .rank = 2, .shape = {1024, 1024}, .strides = {1024, 1}, .block_meta = {"BLOCK_K", "BLOCK_N"}};
    tile_tensor_desc cd = {.base = p[2], .dtype = TL_F16, .rank = 2, .shape = {1024, 1024}, .strides = {1024, 1}, .block_meta = {"BLOCK_M", "BLOCK_N"}};
    tile_arg args[6];
    args[0].p = &ad, args[1].p = &bd, args[2].p = &cd;
    for (int q = 0; q < 3; q++) args[q].elem = TL_DESC;
    for (int q = 3; q < 6; q++) args[q].i = 1024;
    char *ptx = NULL;
    tile_status st = tile_kernel_ptx_for(TILE_KERNEL_OF(hd_matmul), TILE_OPTS(.num_warps = 4, .num_stages = 4, .meta = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}}),
                                         args, "sm_90a", &ptx);
    TT_CHECK(st == TILE_OK, "host-descriptor matmul sm_90a: %s", tile_last_error());
    if (st != TILE_OK) return;
    TT_CHECK(strstr(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global") && strstr(ptx, "mbarrier.try_wait.parity") && strstr(ptx, "wgmma.mma_async") &&
                 strstr(ptx, "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"),
             "host-descriptor matmul sm_90a: not a TMA ring into wgmma with C through the copy engine");
    check_ptx("host-descriptor matmul 128x128x64 w4 s4 sm_90a", ptx, "sm_90a");
    tile_free_text(ptx);
}

int main(void) {
    tt_seed();
    printf("running on %s\n", tile_backend_name());
    test_ranks();
    test_dtypes();
    test_atomics();
    test_wide_atomics();
    test_rules();
    test_tma_plan();
    test_tma_ptx();
    test_wide_atomics_ptx();
    test_splitk_ptx();
    test_loop_options();
    test_ws_ptx();
    test_ws_matmul(200, 136, 90, 1, 128, 3);   /* in the interpreter the options change nothing */
    test_ws_matmul_w(200, 136, 90, 2, 64, 64, 3, 4, 3);
    test_matmul(100, 72, 45, 32, 32, 32, 4, 3);
    test_matmul(37, 130, 70, 16, 64, 16, 2, 2);
    test_splitk(40, 48, 100, 16, 32, 16, 3, 2, 2);   /* N a multiple of 16; K's last block partial */
    test_splitk(33, 37, 64, 16, 32, 16, 2, 2, 2);
    test_host_desc();
    test_host_desc_ptx();
    test_host_desc_matmul(70, 48, 45, 32, 16, 16, 4, 2, 0);
    test_host_desc_matmul(40, 72, 50, 0, 0, 0, 0, 0, 1);   /* through the tuner: its configs set the blocks */
    if (tile__gpu_mode()) {
        /* the tensor-core paths: mma.sync / wgmma with the cp.async ring */
        /* on sm_90a the rows of 128 bytes or more go through the copy engine (a TMA ring) */
        test_matmul(1000, 1000, 1000, 128, 128, 64, 4, 3);
        test_matmul(1000, 1000, 1000, 128, 256, 64, 8, 4);
        test_matmul(4097, 511, 129, 128, 128, 64, 4, 4);
        test_matmul(4097, 511, 129, 128, 64, 32, 4, 4);
        test_matmul(1, 256, 200, 64, 128, 64, 8, 3);
        /* split-K into f32 C: the copy engine's reduce-add when N is a multiple of 16 */
        test_splitk(1000, 512, 4000, 128, 128, 64, 4, 4, 4);
        test_splitk(520, 400, 1000, 128, 256, 64, 3, 8, 3);
        test_splitk(300, 250, 700, 128, 128, 64, 2, 4, 3);   /* N not: pointer atomics */
        /* descriptors made on the host: the same TMA ring and store */
        test_host_desc_matmul(1000, 1024, 1000, 128, 128, 64, 4, 4, 0);
        test_host_desc_matmul(4097, 511, 129, 128, 256, 64, 8, 3, 0);
        test_host_desc_matmul(1000, 512, 700, 0, 0, 0, 0, 0, 1);
        /* warp-specialized: on the K loop, on the tiles' loop (the ring across tiles, fewer
           programs than tiles), odd shapes, K not a multiple of BLOCK_K */
        for (int at = 1; at <= 2; at++) {
            test_ws_matmul(520, 392, 1000, at, 256, 3);   /* the ring wraps; partial tiles */
            test_ws_matmul(4097, 511, 129, at, 128, 4);
            test_ws_matmul(1, 256, 200, at, 128, 5);
            test_ws_matmul(2050, 1544, 200, at, 128, 2);   /* 221 tiles: programs loop over two */
        }
        /* ping-pong (4 warps, the tiles' loop): the two consumers take turns; programs
           with one tile (the second consumer idle), with odd and even counts, many */
        test_ws_matmul_w(520, 392, 1000, 2, 128, 128, 4, 4, 0);
        test_ws_matmul_w(4097, 511, 129, 2, 128, 128, 4, 4, 0);
        test_ws_matmul_w(1, 256, 200, 2, 128, 128, 3, 4, 0);
        test_ws_matmul_w(2050, 1544, 200, 2, 128, 128, 4, 4, 7);
        test_ws_matmul_w(2050, 1544, 200, 2, 64, 256, 3, 4, 0);
        test_ws_matmul_w(1000, 1000, 64, 2, 128, 128, 2, 4, 5);   /* one K step a tile */
        /* N a multiple of 16: C's store through the copy engine (clipped at M and N,
           the padding after N unwritten), plain, warp-specialized, ping-pong */
        for (int at = 0; at <= 2; at++) {
            test_ws_matmul_w(4097, 512, 129, at, 128, 256, 3, 8, 0);
            test_ws_matmul_w(1000, 400, 300, at, 128, 128, 4, 8, 0);
            test_ws_matmul_w(1, 256, 200, at, 128, 128, 3, 8, 0);
        }
        test_ws_matmul_w(4097, 512, 129, 2, 128, 128, 5, 4, 0);
        test_ws_matmul_w(1000, 400, 300, 2, 128, 128, 4, 4, 3);
        test_ws_matmul_w(2050, 1536, 200, 2, 64, 256, 3, 4, 7);
        test_ws_matmul_w(1, 256, 200, 2, 128, 128, 4, 4, 0);
    } else {
        printf("the large matmuls run on a GPU only (none here)\n");
    }
    return tt_finish("test_desc");
}
