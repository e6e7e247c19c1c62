/* Compile test: tile.h's declarations and the whole kernel language, as C11,
   without TILE_IMPLEMENTATION. Compiled with -fsyntax-only under
   -std=c11 -Wall -Wextra -Werror -pedantic by gcc and clang (see
   CMakeLists.txt); never linked. Every macro of tile_lang.h appears at least
   once, so a macro that breaks under -pedantic fails here first. */
#include "tile.h"

TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(offs, n);
    tl_t sum   = tl_add(tl_load(tl_add(x, offs), .mask = mask),
                        tl_load(tl_add(y, offs), .mask = mask));
    tl_store(tl_add(out, offs), sum, .mask = mask);
}

/* Every parameter type of TILE_KERNEL. */
TILE_KERNEL(all_params,
            (tl_ptr_i1, p_i1), (tl_ptr_i8, p_i8), (tl_ptr_i16, p_i16), (tl_ptr_i32, p_i32),
            (tl_ptr_i64, p_i64), (tl_ptr_u8, p_u8), (tl_ptr_u16, p_u16), (tl_ptr_u32, p_u32),
            (tl_ptr_u64, p_u64), (tl_ptr_f16, p_f16), (tl_ptr_bf16, p_bf16), (tl_ptr_f32, p_f32),
            (tl_ptr_f64, p_f64), (tl_ptr_f8e4m3, p_f8a), (tl_ptr_f8e5m2, p_f8b),
            (tl_i32, s_i32), (tl_i64, s_i64), (tl_u32, s_u32), (tl_u64, s_u64),
            (tl_f32, s_f32), (tl_f64, s_f64))
{
    (void)p_i1; (void)p_i8; (void)p_i16; (void)p_i32; (void)p_i64; (void)p_u8;
    (void)p_u16; (void)p_u32; (void)p_u64; (void)p_f16; (void)p_bf16; (void)p_f32;
    (void)p_f64; (void)p_f8a; (void)p_f8b; (void)s_i32; (void)s_i64; (void)s_u32;
    (void)s_u64; (void)s_f32; (void)s_f64;
}

/* The rest of the language: creation, shape, elementwise, math, memory,
   atomics, reductions, scans, dot, debugging, control flow. */
TILE_KERNEL(everything, (tl_ptr_f32, a), (tl_ptr_f32, b), (tl_ptr_i32, cnt), (tl_i32, n), (tl_f32, s))
{
    int BM = TL_META(BM), BN = TL_META_OR(BN, 16), BK = TL_META_OR(BK, 16);
    tl_t pid = tl_program_id(0), np = tl_num_programs(1);
    tl_t rm = tl_arange(0, BM), rn = tl_arange(0, BN), rk = tl_arange(0, BK);

    /* creation */
    tl_t z = tl_zeros(TL_F32, BM, BN), f = tl_full(TL_F16, 1.5, BM, BN);
    tl_t zl = tl_zeros_like(z), fl = tl_full_like(z, 2);

    /* shape */
    tl_t col = tl_expand_dims(rm, 1), row = tl_expand_dims(rn, 0);
    tl_t bc = tl_broadcast_to(col, BM, BN), c2, r2;
    tl_broadcast(col, row, &c2, &r2);
    tl_t rs = tl_reshape(bc, BM * BN), vw = tl_view(rs, BN, BM), rv = tl_ravel(vw);
    tl_t pm = tl_permute(bc, 1, 0), tr = tl_trans(pm), ct = tl_cat(rm, rm);
    tl_t jn = tl_join(rm, rm), h0, h1, il = tl_interleave(rm, rm);
    tl_split(jn, &h0, &h1);

    /* elementwise */
    tl_t e = tl_add(tl_sub(tl_mul(z, 2.0f), 1), tl_div(fl, 3.0));
    e = tl_add(e, tl_cast(tl_floordiv(tl_mod(c2, 3), tl_cdiv(r2, 2)), TL_F32));
    e = tl_maximum(tl_minimum(e, s), 0.0);
    tl_t cmp = tl_and(tl_or(tl_eq(c2, r2), tl_ne(c2, 1)), tl_xor(tl_le(c2, r2), tl_ge(c2, r2)));
    cmp = tl_logical_or(tl_logical_and(cmp, tl_gt(r2, 0)), tl_not(cmp));
    tl_t bits = tl_shr(tl_shl(c2, 2), 1u);
    e = tl_where(cmp, e, tl_neg(e));
    e = tl_fma(e, e, tl_clamp(e, -1.0, 1.0));
    e = tl_add(e, tl_cast(bits, TL_F32));
    tl_t bc2 = tl_bitcast(e, TL_I32);

    /* math */
    tl_t m = tl_abs(e);
    m = tl_add(tl_exp(m), tl_exp2(m));
    m = tl_add(tl_log(m), tl_log2(m));
    m = tl_add(tl_sqrt(m), tl_rsqrt(m));
    m = tl_add(tl_sin(m), tl_cos(m));
    m = tl_add(tl_tanh(m), tl_sigmoid(m));
    m = tl_add(tl_erf(m), tl_floor(m));
    m = tl_add(m, tl_ceil(m));

    /* memory */
    tl_t pa = tl_add(tl_add(a, tl_mul(tl_expand_dims(rm, 1), BK)), tl_expand_dims(rk, 0));
    tl_t pb = tl_add(tl_add(b, tl_mul(tl_expand_dims(rk, 1), BN)), tl_expand_dims(rn, 0));
    tl_t la = tl_load(pa);
    tl_t lb = tl_load(pb, .mask = tl_lt(tl_expand_dims(rk, 1), n), .other = 0.0,
                      .cache = TL_CACHE_CG, .eviction = TL_EVICT_LAST);
    tl_t lc = tl_load(pb, .mask = tl_lt(tl_expand_dims(rk, 1), n), .other_v = tl_full_like(lb, 1),
                      .is_volatile = 1);
    tl_store(tl_add(a, rm), tl_sum(m, 1), .mask = tl_lt(rm, n), .cache = TL_CACHE_WB,
             .eviction = TL_EVICT_FIRST);
    tl_store(a, 0.0);

    /* atomics */
    tl_t old = tl_atomic_add(tl_add(cnt, pid), 1);
    old = tl_atomic_max(cnt, old, .mask = tl_gt(old, 0), .sem = TL_SEM_RELAXED, .scope = TL_SCOPE_CTA);
    old = tl_atomic_min(cnt, old);
    old = tl_atomic_and(cnt, old);
    old = tl_atomic_or(cnt, old);
    old = tl_atomic_xor(cnt, old);
    old = tl_atomic_xchg(cnt, old, .sem = TL_SEM_RELEASE, .scope = TL_SCOPE_SYS);
    old = tl_atomic_cas(cnt, 0, old);
    old = tl_atomic_cas(cnt, 0, old, .sem = TL_SEM_ACQUIRE);

    /* reductions and scans */
    tl_t r = tl_add(tl_sum(m, 0), tl_max(m, 0));
    r = tl_add(r, tl_min(m, -1, .keep_dims = 0));
    r = tl_add(r, tl_cast(tl_argmax(m, 0), TL_F32));
    r = tl_add(r, tl_cast(tl_argmin(m, 0), TL_F32));
    r = tl_add(r, tl_prod(m, 0, .dtype = TL_F32));
    tl_t xs = tl_xor_sum(bc2, TL_ALL, .keep_dims = 1);
    tl_t cs = tl_add(tl_cumsum(m, 1), tl_cumprod(m, 0, .reverse = 1));

    /* dot */
    tl_t acc = tl_dot(la, lb);
    acc = tl_dot(la, lb, acc);
    acc = tl_dot(la, lc, .acc = acc, .input_precision = TL_PRECISION_IEEE);
    acc = tl_add(acc, tl_dot(tl_cast(la, TL_F16), tl_cast(lb, TL_F16), .out_dtype = TL_F32));

    /* debugging */
    tl_print("acc:", acc);
    tl_print("two:", acc, r);
    tl_device_assert(tl_ge(n, 0), "n must not be negative");
    tl_assert(tl_ge(n, 0), "n must not be negative");
    tl_debug_barrier();
    if (tl_rank(acc) == 2 && tl_dim(acc, 0) == BM && tl_dtype_of(acc) == TL_F32) {
        acc = tl_add(acc, 0);
    }

    /* control flow */
    tl_t total = tl_zeros(TL_F32, BM), p = tl_add(a, rm);
    TL_FOR (k, 0, tl_cdiv(n, BM), 1, total, p) {
        total = tl_add(total, tl_load(p, .mask = tl_lt(tl_add(tl_mul(k, BM), rm), n)));
        p = tl_add(p, BM);
    }
    TL_FOR (k, 0, n, 2) {
        tl_store(tl_add(cnt, k), k);
    }
    tl_t best = tl_max(total, 0);
    TL_IF (tl_gt(best, 0.0f), best) {
        best = tl_mul(best, 2);
    } TL_ELSE {
        best = tl_neg(best);
    }
    TL_IF (tl_eq(pid, 0)) {
        tl_store(a, best);
    }
    tl_t i = tl_mul(pid, 0), x = tl_add(tl_cast(i, TL_F32), 1.0);  /* scalars */
    TL_WHILE (tl_lt(i, n), i, x) {
        i = tl_add(i, 1);
        x = tl_mul(x, 0.5);
    }

    tl_store(tl_add(b, rm), tl_add(total, x), .mask = tl_lt(rm, n));
    (void)f; (void)zl; (void)rv; (void)tr; (void)ct; (void)il; (void)h0; (void)h1;
    (void)np; (void)xs; (void)cs; (void)old; (void)r;
}

/* The host side: every declaration of tile.h. */
static void my_log(const tile_error *err, void *user) { (void)err; (void)user; }

int main(void)
{
    int n = 4096;
    float *x = tile_malloc(n * sizeof(float)), *y = tile_malloc(n * sizeof(float));
    float *out = tile_malloc(n * sizeof(float));
    float host[16] = {0};
    char *ir = NULL;
    tile_status st;

    tile_set_log(my_log, NULL);
    tile_set_log(NULL, NULL);
    tile_memset(x, 0, n * sizeof(float));
    tile_memcpy_htod(y, host, sizeof host);
    tile_memcpy_dtod(out, y, sizeof host);
    st = add_kernel(TILE_OPTS(.grid = {tile_cdiv(n, 1024)}, .meta = {{"BLOCK", 1024}}), x, y, out, n);
    st = add_kernel(TILE_OPTS(.grid = {1, 1, 1}, .meta = {{"BLOCK", 256}}, .num_warps = 8,
                              .num_stages = 2, .stream = NULL), x, y, out, n);
    if (st != TILE_OK) {
        const tile_error *e = tile_last_error_info();
        (void)tile_last_error(); (void)tile_status_id(e->status); (void)tile_status_text(e->status);
        (void)e->id; (void)e->kernel; (void)e->file; (void)e->line; (void)e->message;
        tile_clear_error();
    }
    tile_synchronize();
    tile_memcpy_dtoh(host, out, sizeof host);
    if (tile_kernel_ir(TILE_KERNEL_OF(add_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}}), &ir) == TILE_OK)
        tile_free_text(ir);
    tile_kernel_release(TILE_KERNEL_OF(add_kernel));
    {
        tile_arg args[4];
        args[0].p = x; args[1].p = y; args[2].p = out; args[3].i = n;
        tile_launch_kernel(TILE_KERNEL_OF(add_kernel), TILE_OPTS(.meta = {{"BLOCK", 1024}}), args);
    }
    (void)all_params; (void)everything;
    (void)tile_dtype_name(TL_F32); (void)tile_dtype_size(TL_BF16);
    (void)tile_f16_to(tile_f16_from(1.0)); (void)tile_bf16_to(tile_bf16_from(1.0));
    (void)tile_f8e4m3_to(tile_f8e4m3_from(1.0)); (void)tile_f8e5m2_to(tile_f8e5m2_from(1.0));
    (void)tile_round_to(TL_F16, 0.1);
    (void)tile_backend_name();
    (void)TILE_VERSION_STRING;
    tile_free(x); tile_free(y); tile_free(out);
    return 0;
}
