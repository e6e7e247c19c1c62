/* tests/test_errors.c — the must-fail corpus.

   Every kernel here holds exactly one user mistake. Each case asserts the
   error id, the user's file:line (inside the body, or the TILE_OPTS launch
   site for launch errors), the kernel's name, a key phrase of the message,
   and that exactly one message reached the logger: later ops on a broken
   value must stay silent. Build-time mistakes are checked twice, through
   tile_kernel_ir and through a launch, and must leave every buffer as it
   was; run-time mistakes (out of bounds, device asserts, a zero step) must
   build cleanly and fail at launch. After every case a correct kernel is
   launched on fresh inputs and checked against a float64 reference, so an
   error that leaves state behind shows up at once (that kernel also has a
   TL_IF without TL_ELSE before a TL_FOR, a shape ASan checks for leaks).
   A case that could hang the library runs on a thread with a time limit.

   A case is its kernel (ERR_KERNEL) plus one line in the table at the end.
   The expected line is recorded where the mistake is: the body runs on the
   host while the IR is built, so `L_name = __LINE__;` on the same line
   stores it. A case the library gets wrong stays here and fails. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

/* ---- the logger: count messages, keep quiet ------------------------------------ */
static int n_msgs;
static void count_log(const tile_error *e, void *user) {
    (void)e;
    (void)user;
    n_msgs++;
}

/* A kernel with one mistake, and the line the error must name. */
#define ERR_KERNEL(name, ...) \
    static int L_##name;      \
    TILE_KERNEL(name, __VA_ARGS__)

/* a [rows, cols] tile loaded row-major from p */
static tl_t load2d(tl_t p, int rows, int cols) {
    tl_t r = tl_expand_dims(tl_arange(0, rows), 1);
    tl_t c = tl_expand_dims(tl_arange(0, cols), 0);
    return tl_load(tl_add(p, tl_add(tl_mul(r, cols), c)));
}
/* a [n, rows, cols] tile: n [rows, cols] matrices one after another from p */
static tl_t load3d(tl_t p, int n, int rows, int cols) {
    tl_t b = tl_expand_dims(tl_expand_dims(tl_arange(0, n), 1), 2);
    tl_t r = tl_expand_dims(tl_expand_dims(tl_arange(0, rows), 1), 0);
    tl_t c = tl_expand_dims(tl_expand_dims(tl_arange(0, cols), 0), 0);
    return tl_load(tl_add(p, tl_add(tl_mul(b, rows * cols), tl_add(tl_mul(r, cols), c))));
}

/* ---- shapes ---------------------------------------------------------------------- */
ERR_KERNEL(shape_add, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(offs, n));
    tl_t w = tl_add(v, tl_arange(0, 32)); L_shape_add = __LINE__;
    tl_store(tl_add(out, offs), tl_mul(w, 2.0), .mask = tl_lt(offs, n));
}
ERR_KERNEL(shape_where, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(offs, n));
    tl_t keep = tl_lt(tl_arange(0, 32), 16);
    tl_t r = tl_where(keep, v, 0.0); L_shape_where = __LINE__;
    tl_store(tl_add(out, offs), r, .mask = tl_lt(offs, n));
}
ERR_KERNEL(shape_store, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), half = tl_arange(0, 32);
    tl_t v = tl_load(tl_add(x, half), .mask = tl_lt(half, n));
    tl_store(tl_add(out, offs), v, .mask = tl_lt(offs, n)); L_shape_store = __LINE__;
    tl_store(tl_add(out, half), tl_add(v, 1.0));
}
/* Triton: "Value argument cannot be block type if pointer argument is not a block" */
ERR_KERNEL(shape_store_scalar_ptr, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(offs, n));
    tl_store(out, v); L_shape_store_scalar_ptr = __LINE__;
}
ERR_KERNEL(shape_mask, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(tl_arange(0, 32), n)); L_shape_mask = __LINE__;
    tl_store(tl_add(out, offs), v);
}
/* Triton: "Mask argument cannot be block type if pointer argument is not a block" */
ERR_KERNEL(shape_mask_scalar_ptr, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(x, .mask = tl_lt(offs, n)); L_shape_mask_scalar_ptr = __LINE__;
    tl_store(tl_add(out, offs), v, .mask = tl_lt(offs, n));
}
ERR_KERNEL(shape_other, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(offs, n), .other_v = tl_zeros(TL_F32, 32)); L_shape_other = __LINE__;
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(shape_reshape, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    tl_t m = tl_reshape(v, 8, 4); L_shape_reshape = __LINE__;
    tl_store(tl_add(out, offs), tl_ravel(m));
}
ERR_KERNEL(shape_cat, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t a = tl_load(tl_add(x, tl_arange(0, 32)));
    tl_t b = tl_load(tl_add(x, tl_arange(32, 48)));
    tl_t c = tl_cat(a, b); L_shape_cat = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), c);
}
ERR_KERNEL(shape_broadcast_to, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t v = tl_load(tl_add(x, tl_arange(0, 16)));
    tl_t m = tl_broadcast_to(v, 4, 8); L_shape_broadcast_to = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 32)), tl_ravel(m));
}

/* ---- blocks: powers of two, the element limit ------------------------------------ */
ERR_KERNEL(block_arange, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 48); L_block_arange = __LINE__;
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs), .mask = mask), .mask = mask);
}
ERR_KERNEL(block_arange_empty, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(64, 32); L_block_arange_empty = __LINE__;
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs)));
}
ERR_KERNEL(block_full, (tl_ptr_f32, out)) {
    tl_t t = tl_full(TL_F32, 1.5, 4, 12); L_block_full = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_ravel(t));
}
ERR_KERNEL(block_reshape, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t v = tl_load(tl_add(x, tl_arange(0, 64)));
    tl_t m = tl_reshape(v, 6, 8); L_block_reshape = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_ravel(m));
}
ERR_KERNEL(block_too_big, (tl_ptr_f32, out)) {
    tl_t acc = tl_zeros(TL_F32, 2048, 1024); L_block_too_big = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_sum(tl_sum(acc, 1), 0));
}

/* ---- axes ---------------------------------------------------------------------- */
ERR_KERNEL(axis_permute, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t m = load2d(x, 8, 8);
    tl_t t = tl_permute(m, 1, 1); L_axis_permute = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_ravel(t));
}
ERR_KERNEL(axis_expand_dims, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t v = tl_load(tl_add(x, tl_arange(0, 64)));
    tl_t e = tl_expand_dims(v, 2); L_axis_expand_dims = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_ravel(e));
}
ERR_KERNEL(axis_sum, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t v = tl_load(tl_add(x, tl_arange(0, 64)));
    tl_t s = tl_sum(v, 1); L_axis_sum = __LINE__;
    tl_store(out, s);
}
ERR_KERNEL(axis_cumsum, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t m = load2d(x, 8, 8);
    tl_t c = tl_cumsum(m, -3); L_axis_cumsum = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_ravel(c));
}
ERR_KERNEL(axis_program_id, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t pid = tl_program_id(3); L_axis_program_id = __LINE__;
    tl_t offs = tl_add(tl_mul(pid, 64), tl_arange(0, 64));
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs)));
}

/* ---- dtypes ---------------------------------------------------------------------- */
ERR_KERNEL(dtype_exp_int, (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t e = tl_exp(offs); L_dtype_exp_int = __LINE__;
    tl_store(tl_add(out, offs), e);
}
/* the software fp8s, as the native ones: math functions need a cast first */
ERR_KERNEL(dtype_sqrt_f8e4b15, (tl_ptr_f8e4b15, x), (tl_ptr_f8e4b15, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    tl_t w = tl_sqrt(v); L_dtype_sqrt_f8e4b15 = __LINE__;
    tl_store(tl_add(out, offs), w);
}
ERR_KERNEL(dtype_exp_f8e5b16, (tl_ptr_f8e5b16, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t e = tl_exp(tl_load(tl_add(x, offs))); L_dtype_exp_f8e5b16 = __LINE__;
    tl_store(tl_add(out, offs), e);
}
ERR_KERNEL(dtype_floordiv_float, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t q = tl_floordiv(tl_load(tl_add(x, offs)), 2); L_dtype_floordiv_float = __LINE__;
    tl_store(tl_add(out, offs), q);
}
ERR_KERNEL(dtype_shl_float, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t s = tl_shl(tl_load(tl_add(x, offs)), 1); L_dtype_shl_float = __LINE__;
    tl_store(tl_add(out, offs), s);
}
ERR_KERNEL(dtype_xor_sum_float, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t s = tl_xor_sum(tl_load(tl_add(x, tl_arange(0, 64))), 0); L_dtype_xor_sum_float = __LINE__;
    tl_store(out, s);
}
ERR_KERNEL(dtype_bitcast_width, (tl_ptr_f32, x), (tl_ptr_f16, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t h = tl_bitcast(tl_load(tl_add(x, offs)), TL_F16); L_dtype_bitcast_width = __LINE__;
    tl_store(tl_add(out, offs), h);
}
ERR_KERNEL(dtype_cast_ptr, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t p = tl_cast(tl_load(tl_add(x, offs)), TL_PTR); L_dtype_cast_ptr = __LINE__;
    tl_store(tl_add(out, offs), tl_load(p));
}
ERR_KERNEL(dtype_ptr_plus_float, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t p = tl_add(x, 1.5); L_dtype_ptr_plus_float = __LINE__;
    tl_store(tl_add(out, offs), tl_load(tl_add(p, offs)));
}
ERR_KERNEL(dtype_ptr_plus_ptr, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t p = tl_add(x, out); L_dtype_ptr_plus_ptr = __LINE__;
    tl_store(tl_add(out, offs), tl_load(tl_add(p, offs)));
}
ERR_KERNEL(dtype_load_nonptr, (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(offs, n)); L_dtype_load_nonptr = __LINE__;
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(dtype_mask_float, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t keep = tl_load(tl_add(x, offs));
    tl_t v = tl_load(tl_add(x, offs), .mask = keep); L_dtype_mask_float = __LINE__;
    tl_store(tl_add(out, offs), v);
}
/* Triton's clamp takes PropagateNan.NONE or ALL, nothing else (a ValueError) */
ERR_KERNEL(clamp_propagate_nan, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t c = tl_clamp(tl_load(tl_add(x, offs)), -1.0, 1.0, .propagate_nan = 2); L_clamp_propagate_nan = __LINE__;
    tl_store(tl_add(out, offs), c);
}
/* the same for tl_maximum and the reduction tl_max (Triton's ValueError "Unexpected propagate_nan") */
ERR_KERNEL(maximum_propagate_nan, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t c = tl_maximum(tl_load(tl_add(x, offs)), 0.5, .propagate_nan = 2); L_maximum_propagate_nan = __LINE__;
    tl_store(tl_add(out, offs), c);
}
ERR_KERNEL(max_propagate_nan, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t m = tl_max(tl_load(tl_add(x, offs)), 0, .propagate_nan = -1); L_max_propagate_nan = __LINE__;
    tl_store(out, m);
}
ERR_KERNEL(clamp_ptr, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t c = tl_clamp(tl_add(x, offs), 0, 8, .propagate_nan = 1); L_clamp_ptr = __LINE__;
    tl_store(tl_add(out, offs), tl_load(c));
}

/* ---- tl_dot -------------------------------------------------------------------------- */
ERR_KERNEL(dot_k_mismatch, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 32, 16), load2d(b, 32, 32)); L_dot_k_mismatch = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 64)), tl_ravel(acc));
}
ERR_KERNEL(dot_small, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 8, 16), load2d(b, 16, 16)); L_dot_small = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 128)), tl_ravel(acc));
}
ERR_KERNEL(dot_mixed_dtypes, (tl_ptr_f16, a), (tl_ptr_f32, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 16, 16), load2d(b, 16, 16)); L_dot_mixed_dtypes = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}
ERR_KERNEL(dot_acc_shape, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_zeros(TL_F32, 16, 32);
    acc = tl_dot(load2d(a, 16, 16), load2d(b, 16, 16), acc); L_dot_acc_shape = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 512)), tl_ravel(acc));
}
ERR_KERNEL(dot_acc_dtype, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_i32, c)) {
    tl_t acc = tl_zeros(TL_I32, 16, 16);
    acc = tl_dot(load2d(a, 16, 16), load2d(b, 16, 16), acc); L_dot_acc_dtype = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}
ERR_KERNEL(dot_precision, (tl_ptr_f32, a), (tl_ptr_f32, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 16, 16), load2d(b, 16, 16), .input_precision = (tl_precision)9); L_dot_precision = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}
/* max_num_imprecise_acc: not negative, and for fp8 inputs at most K (Triton's rule) */
ERR_KERNEL(dot_imprecise_neg, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 16, 16), load2d(b, 16, 16), .max_num_imprecise_acc = -1); L_dot_imprecise_neg = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}
/* also where f32 operands are split into bf16 products (checked before the split) */
ERR_KERNEL(dot_imprecise_neg_bf16x3, (tl_ptr_f32, a), (tl_ptr_f32, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 16, 16), load2d(b, 16, 16), .input_precision = TL_PRECISION_BF16X3, .max_num_imprecise_acc = -2); L_dot_imprecise_neg_bf16x3 = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}
ERR_KERNEL(dot_imprecise_k, (tl_ptr_f8e4m3, a), (tl_ptr_f8e4m3, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load2d(a, 16, 32), load2d(b, 32, 16), .max_num_imprecise_acc = 64); L_dot_imprecise_k = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}

/* batched: both operands 2-D or both 3-D (Triton's rule), one batch dim, the accumulator with it */
ERR_KERNEL(dot_rank_mixed, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load3d(a, 2, 16, 16), load2d(b, 16, 16)); L_dot_rank_mixed = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 512)), tl_ravel(acc));
}
ERR_KERNEL(dot_rank1, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(tl_load(tl_add(a, tl_arange(0, 16))), tl_load(tl_add(b, tl_arange(0, 16)))); L_dot_rank1 = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 16)), acc);
}
ERR_KERNEL(dot_rank4, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t x = tl_reshape(load3d(a, 4, 16, 16), 2, 2, 16, 16), y = tl_reshape(load3d(b, 4, 16, 16), 2, 2, 16, 16);
    tl_t acc = tl_dot(x, y); L_dot_rank4 = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(acc));
}
ERR_KERNEL(dot_batch, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load3d(a, 2, 16, 16), load3d(b, 4, 16, 16)); L_dot_batch = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 512)), tl_ravel(acc));
}
ERR_KERNEL(dot_batch_k, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load3d(a, 2, 16, 32), load3d(b, 2, 16, 16)); L_dot_batch_k = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 512)), tl_ravel(acc));
}
ERR_KERNEL(dot_batch_acc, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_zeros(TL_F32, 4, 16, 16);
    acc = tl_dot(load3d(a, 2, 16, 16), load3d(b, 2, 16, 16), acc); L_dot_batch_acc = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(acc));
}
ERR_KERNEL(dot_batch_acc_rank, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_zeros(TL_F32, 16, 16);
    acc = tl_dot(load3d(a, 2, 16, 16), load3d(b, 2, 16, 16), .acc = acc); L_dot_batch_acc_rank = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(acc));
}
ERR_KERNEL(dot_batch_imprecise_k, (tl_ptr_f8e4m3, a), (tl_ptr_f8e4m3, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_dot(load3d(a, 2, 16, 32), load3d(b, 2, 32, 16), .max_num_imprecise_acc = 64); L_dot_batch_imprecise_k = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 512)), tl_ravel(acc));
}

/* ---- tl_dot_scaled -------------------------------------------------------------------- */
/* lhs e2m1 [32, K = 64] (bytes [32, 32]), its scale [32, 2]; rhs e4m3 bits [64, 32] */
ERR_KERNEL(ds_format, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, (tl_fmt)7); L_ds_format = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_operand_dtype, (tl_ptr_u8, a), (tl_ptr_f16, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_operand_dtype = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_e2m1_dtype, (tl_ptr_i8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_e2m1_dtype = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_scale_dtype, (tl_ptr_u8, a), (tl_ptr_i32, s), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), load2d(s, 32, 2), TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_scale_dtype = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_scale_shape, (tl_ptr_u8, a), (tl_ptr_u8, s), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), load2d(s, 32, 4), TL_FMT_E4M3); L_ds_scale_shape = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
/* K = 16: no group of 32 for a scale */
ERR_KERNEL(ds_scale_k, (tl_ptr_u8, a), (tl_ptr_u8, s), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 16), load2d(s, 32, 1), TL_FMT_E4M3, load2d(b, 16, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_scale_k = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
/* e2m1 bytes [32, 32] hold K = 64 values; the e4m3 rhs has 32 rows */
ERR_KERNEL(ds_k_mismatch, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 32, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_k_mismatch = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_pack, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 64), TL_NO_SCALE, TL_FMT_E4M3, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3, .lhs_m_pack = 1); L_ds_pack = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_out_dtype, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3, .out_dtype = TL_F16); L_ds_out_dtype = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
ERR_KERNEL(ds_acc_dtype, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f16, c)) {
    tl_t acc = tl_zeros(TL_F16, 32, 32);
    acc = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3, .acc = acc); L_ds_acc_dtype = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(acc));
}
ERR_KERNEL(ds_acc_shape, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_zeros(TL_F32, 32, 64);
    acc = tl_dot_scaled(load2d(a, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3, .acc = acc); L_ds_acc_shape = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 2048)), tl_ravel(acc));
}
ERR_KERNEL(ds_rank, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(tl_load(tl_add(a, tl_arange(0, 64))), TL_NO_SCALE, TL_FMT_E4M3, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_rank = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 1024)), tl_ravel(r));
}
/* e2m1 packed along M: bytes [4, 32] are 8 rows */
ERR_KERNEL(ds_small, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load2d(a, 4, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 32, 32), TL_NO_SCALE, TL_FMT_E4M3, .lhs_m_pack = 1); L_ds_small = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 256)), tl_ravel(r));
}
/* batched: both operands 3-D, one batch dim, the scales and the accumulator with it */
ERR_KERNEL(ds_rank_mixed, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load3d(a, 2, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load2d(b, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_rank_mixed = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 2048)), tl_ravel(r));
}
ERR_KERNEL(ds_batch, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load3d(a, 2, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load3d(b, 4, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_batch = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 2048)), tl_ravel(r));
}
ERR_KERNEL(ds_batch_scale_rank, (tl_ptr_u8, a), (tl_ptr_u8, s), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load3d(a, 2, 32, 32), load2d(s, 32, 2), TL_FMT_E2M1, load3d(b, 2, 64, 32), TL_NO_SCALE, TL_FMT_E4M3); L_ds_batch_scale_rank = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 2048)), tl_ravel(r));
}
ERR_KERNEL(ds_batch_scale, (tl_ptr_u8, a), (tl_ptr_u8, s), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t r = tl_dot_scaled(load3d(a, 2, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load3d(b, 2, 64, 32), load3d(s, 4, 32, 2), TL_FMT_E4M3); L_ds_batch_scale = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 2048)), tl_ravel(r));
}
ERR_KERNEL(ds_batch_acc, (tl_ptr_u8, a), (tl_ptr_u8, b), (tl_ptr_f32, c)) {
    tl_t acc = tl_zeros(TL_F32, 4, 32, 32);
    acc = tl_dot_scaled(load3d(a, 2, 32, 32), TL_NO_SCALE, TL_FMT_E2M1, load3d(b, 2, 64, 32), TL_NO_SCALE, TL_FMT_E4M3, .acc = acc); L_ds_batch_acc = __LINE__;
    tl_store(tl_add(c, tl_arange(0, 4096)), tl_ravel(acc));
}

/* ---- tensor descriptors ------------------------------------------------------------ */
ERR_KERNEL(desc_block_big, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n), (1), (512)); L_desc_block_big = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 512)), tl_desc_load(d, (0)));
}
ERR_KERNEL(desc_block_pow2, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n, n), (n, 1), (6, 8)); L_desc_block_pow2 = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_reshape(tl_desc_load(d, (0, 0)), 64));
}
ERR_KERNEL(desc_inner_small, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n, n), (n, 1), (32, 2)); L_desc_inner_small = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_reshape(tl_desc_load(d, (0, 0)), 64));
}
ERR_KERNEL(desc_rank_mismatch, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n, n), (n, 1), (64)); L_desc_rank_mismatch = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_desc_load(d, (0)));
}
ERR_KERNEL(desc_last_stride, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n, n), (1, n), (8, 8)); L_desc_last_stride = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_reshape(tl_desc_load(d, (0, 0)), 64));
}
ERR_KERNEL(desc_shape_computed, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (tl_sub(n, 1), n), (n, 1), (8, 8)); L_desc_shape_computed = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_reshape(tl_desc_load(d, (0, 0)), 64));
}
ERR_KERNEL(desc_base_computed, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(tl_add(x, 4), (n), (1), (32)); L_desc_base_computed = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 32)), tl_desc_load(d, (0)));
}
ERR_KERNEL(desc_base_tile, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(tl_add(x, tl_arange(0, 4)), (n), (1), (32)); L_desc_base_tile = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 32)), tl_desc_load(d, (0)));
}
ERR_KERNEL(desc_offsets, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n, n), (n, 1), (8, 8));
    tl_t v = tl_desc_load(d, (0)); L_desc_offsets = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_reshape(v, 64));
}
ERR_KERNEL(desc_offset_i64, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i64, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n), (1), (64));
    tl_t v = tl_desc_load(d, (n)); L_desc_offset_i64 = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), v);
}
ERR_KERNEL(desc_computed_on, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n), (1), (64));
    tl_t e = tl_add(d, 1); L_desc_computed_on = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_desc_load(e, (0)));
}
ERR_KERNEL(desc_carried, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n), (1), (64));
    tl_t acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, 2, 1, acc, d) { L_desc_carried = __LINE__;
        acc = tl_add(acc, tl_desc_load(d, (tl_mul(i, 64))));
    }
    tl_store(tl_add(out, tl_arange(0, 64)), acc);
}
ERR_KERNEL(desc_load_pointer, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t v = tl_desc_load(x, (0)); L_desc_load_pointer = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), v, .mask = tl_lt(tl_arange(0, 64), n));
}
ERR_KERNEL(desc_store_shape, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(out, (n), (1), (64));
    tl_desc_store(d, (0), tl_load(tl_add(x, tl_arange(0, 32)))); L_desc_store_shape = __LINE__;
}
ERR_KERNEL(desc_atomic_dtype, (tl_ptr_f64, x), (tl_ptr_f64, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(out, (n), (1), (64));
    tl_desc_atomic_add(d, (0), tl_load(tl_add(x, tl_arange(0, 64)))); L_desc_atomic_dtype = __LINE__;
}
ERR_KERNEL(desc_i1, (tl_ptr_i1, x), (tl_ptr_i1, out), (tl_i32, n)) {
    tl_t d = tl_make_tensor_descriptor(x, (n), (1), (64)); L_desc_i1 = __LINE__;
    tl_store(tl_add(out, tl_arange(0, 64)), tl_desc_load(d, (0)));
}

/* ---- loop options ------------------------------------------------------------------- */
ERR_KERNEL(lopt_twice, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t acc = tl_zeros(TL_F32, 32);
    TL_LOOP_OPTIONS(.num_stages = 3);
    TL_LOOP_OPTIONS(.warp_specialize = 1); L_lopt_twice = __LINE__;
    TL_FOR (i, 0, n, 32, acc) { acc = tl_add(acc, tl_load(tl_add(x, tl_add(i, tl_arange(0, 32))))); }
    tl_store(tl_add(out, tl_arange(0, 32)), acc);
}
ERR_KERNEL(lopt_if, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t v = tl_load(tl_add(x, tl_arange(0, 32)));
    TL_LOOP_OPTIONS(.num_stages = 3); L_lopt_if = __LINE__;
    TL_IF (tl_gt(n, 4), v) { v = tl_mul(v, 2.0); }
    tl_store(tl_add(out, tl_arange(0, 32)), v);
}
ERR_KERNEL(lopt_no_for, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_store(tl_add(out, tl_arange(0, 32)), tl_load(tl_add(x, tl_arange(0, 32)), .mask = tl_lt(tl_arange(0, 32), n)));
    TL_LOOP_OPTIONS(.warp_specialize = 1); L_lopt_no_for = __LINE__;
}
ERR_KERNEL(lopt_stages, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t acc = tl_zeros(TL_F32, 32);
    TL_LOOP_OPTIONS(.num_stages = 17); L_lopt_stages = __LINE__;
    TL_FOR (i, 0, n, 32, acc) { acc = tl_add(acc, tl_load(tl_add(x, tl_add(i, tl_arange(0, 32))))); }
    tl_store(tl_add(out, tl_arange(0, 32)), acc);
}
ERR_KERNEL(lopt_ws_value, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t acc = tl_zeros(TL_F32, 32);
    TL_LOOP_OPTIONS(.warp_specialize = 2); L_lopt_ws_value = __LINE__;
    TL_FOR (i, 0, n, 32, acc) { acc = tl_add(acc, tl_load(tl_add(x, tl_add(i, tl_arange(0, 32))))); }
    tl_store(tl_add(out, tl_arange(0, 32)), acc);
}

/* ---- values used outside the region that made them --------------------------------- */
static int M_scope_for, M_scope_if, M_scope_while, M_scope_else;
ERR_KERNEL(scope_for, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t acc = tl_zeros(TL_F32, 64), last = acc;
    TL_FOR (i, 0, n, 1, acc) {
        tl_t v = tl_load(tl_add(x, tl_add(offs, i)), .mask = tl_lt(tl_add(offs, i), n));
        acc = tl_add(acc, v);
        last = tl_mul(v, 2.0); M_scope_for = __LINE__;
    }
    tl_store(tl_add(out, offs), tl_add(acc, last)); L_scope_for = __LINE__;
}
ERR_KERNEL(scope_if, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(offs, n));
    tl_t scaled = v;
    TL_IF (tl_gt(n, 32)) {
        scaled = tl_mul(v, 0.5); M_scope_if = __LINE__;
    }
    tl_store(tl_add(out, offs), scaled, .mask = tl_lt(offs, n)); L_scope_if = __LINE__;
}
ERR_KERNEL(scope_while, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t i = tl_program_id(0), v = tl_load(tl_add(x, offs)), seen = v;
    TL_WHILE (tl_lt(i, n), i) {
        seen = tl_add(v, i); M_scope_while = __LINE__;
        i = tl_add(i, 16);
    }
    tl_store(tl_add(out, offs), seen); L_scope_while = __LINE__;
}
ERR_KERNEL(scope_else, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs)), r = v, t = v;
    TL_IF (tl_gt(n, 32), r) {
        t = tl_exp(v); M_scope_else = __LINE__;
        r = t;
    } TL_ELSE {
        r = tl_add(t, 1.0); L_scope_else = __LINE__;
    }
    tl_store(tl_add(out, offs), r);
}

/* ---- carried values that change type ---------------------------------------------- */
ERR_KERNEL(carry_for_dtype, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t acc = tl_zeros(TL_F32, 64), count = tl_zeros(TL_I32, 64);
    TL_FOR (i, 0, n, 1, count, acc) { L_carry_for_dtype = __LINE__;
        acc = tl_cast(tl_add(acc, tl_load(tl_add(x, offs))), TL_F16);
        count = tl_add(count, i);
    }
    tl_store(tl_add(out, offs), tl_add(acc, count));
}
ERR_KERNEL(carry_for_shape, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, n, 1, acc) { L_carry_for_shape = __LINE__;
        acc = tl_sum(tl_add(acc, tl_load(tl_add(x, tl_add(offs, i)))), 0);
    }
    tl_store(tl_add(out, offs), acc);
}
ERR_KERNEL(carry_if, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t r = tl_load(tl_add(x, offs));
    TL_IF (tl_gt(n, 32), r) { L_carry_if = __LINE__;
        r = tl_cast(r, TL_F64);
    }
    tl_store(tl_add(out, offs), r);
}
ERR_KERNEL(carry_else, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t r = tl_load(tl_add(x, offs));
    TL_IF (tl_gt(n, 32), r) {
        r = tl_mul(r, 2.0);
    } TL_ELSE { L_carry_else = __LINE__;
        r = tl_expand_dims(r, 0);
    }
    tl_store(tl_add(out, offs), r);
}
ERR_KERNEL(carry_while, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t i = tl_program_id(0), acc = tl_zeros(TL_F32, 64);
    TL_WHILE (tl_lt(i, n), i, acc) { L_carry_while = __LINE__;
        acc = tl_cast(tl_add(acc, tl_load(tl_add(x, offs))), TL_I32);
        i = tl_add(i, 16);
    }
    tl_store(tl_add(out, offs), acc);
}

/* ---- malformed runtime control flow ------------------------------------------------ */
ERR_KERNEL(for_bound_tile, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, tl_add(offs, n), 1, acc) { L_for_bound_tile = __LINE__;
        acc = tl_add(acc, tl_load(tl_add(x, i)));
    }
    tl_store(tl_add(out, offs), acc);
}
ERR_KERNEL(for_bound_float, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, tl_load(x), 1, acc) { L_for_bound_float = __LINE__;
        acc = tl_add(acc, tl_load(tl_add(x, tl_add(offs, i))));
    }
    tl_store(tl_add(out, offs), acc);
}
ERR_KERNEL(if_cond_tile, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    TL_IF (tl_lt(offs, n), v) { L_if_cond_tile = __LINE__;
        v = tl_mul(v, 2.0);
    } TL_ELSE {
        v = tl_neg(v);
    }
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(while_cond_tile, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    TL_WHILE (tl_lt(offs, n), v) { L_while_cond_tile = __LINE__;
        v = tl_mul(v, 0.5);
    }
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(step_zero, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, 4, tl_sub(n, 64), acc) { L_step_zero = __LINE__;
        acc = tl_add(acc, tl_load(tl_add(x, offs)));
    }
    tl_store(tl_add(out, offs), acc);
}
ERR_KERNEL(else_orphan, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    L_else_orphan = __LINE__; TL_ELSE {
        v = tl_neg(v);
    }
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(else_not_adjacent, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    TL_IF (tl_gt(n, 32), v) {
        v = tl_mul(v, 2.0);
    }
    v = tl_add(v, 1.0);
    L_else_not_adjacent = __LINE__; TL_ELSE {
        v = tl_neg(v);
    }
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(else_twice, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    TL_IF (tl_gt(n, 32), v) {
        v = tl_mul(v, 2.0);
    } TL_ELSE {
        v = tl_neg(v);
    }
    L_else_twice = __LINE__; TL_ELSE {
        v = tl_abs(v);
    }
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(break_for, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, n, 1, acc) { L_break_for = __LINE__;
        acc = tl_add(acc, tl_load(tl_add(x, offs)));
        break;
    }
    tl_store(tl_add(out, offs), acc);
}
ERR_KERNEL(break_while, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), i = tl_program_id(0);
    TL_WHILE (tl_lt(i, n), i) { L_break_while = __LINE__;
        i = tl_add(i, 1);
        break;
    }
    tl_store(tl_add(out, offs), tl_load(tl_add(x, tl_add(offs, i))));
}
ERR_KERNEL(return_if, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs));
    TL_IF (tl_gt(n, 32)) { L_return_if = __LINE__;
        tl_store(tl_add(out, offs), v);
        return;
    }
    tl_store(tl_add(out, offs), tl_neg(v));
}
ERR_KERNEL(carry_unset, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t acc = {0};
    TL_FOR (i, 0, n, 1, acc) { L_carry_unset = __LINE__;
        acc = tl_add(acc, tl_load(tl_add(x, offs)));
    }
    tl_store(tl_add(out, offs), acc);
}
ERR_KERNEL(unset_operand, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t scale = {0};
    tl_t v = tl_mul(tl_load(tl_add(x, offs)), scale); L_unset_operand = __LINE__;
    tl_store(tl_add(out, offs), tl_add(v, 1.0));
}

/* the loop condition, re-evaluated after each iteration, reads a value the body made */
static int M_scope_while_cond, M_scope_while_cond_var;
ERR_KERNEL(scope_while_cond, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), i = tl_program_id(0), limit = tl_sub(n, 64);
    TL_WHILE (tl_lt(i, limit), i) { L_scope_while_cond = __LINE__;
        i = tl_add(i, 16);
        limit = tl_sub(limit, 1); M_scope_while_cond = __LINE__;
    }
    tl_store(tl_add(out, offs), tl_add(tl_load(tl_add(x, offs)), i));
}
ERR_KERNEL(scope_while_cond_var, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64), i = tl_program_id(0), more = tl_lt(i, tl_sub(n, 64));
    TL_WHILE (more, i) { L_scope_while_cond_var = __LINE__;
        i = tl_add(i, 16);
        more = tl_lt(i, n); M_scope_while_cond_var = __LINE__;
    }
    tl_store(tl_add(out, offs), tl_add(tl_load(tl_add(x, offs)), i));
}

/* a handle kept from another kernel's build */
static tl_t kept;
TILE_KERNEL(keeper, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    kept = offs;
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs)));
}
ERR_KERNEL(foreign_value, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, kept), .mask = tl_lt(offs, n)); L_foreign_value = __LINE__;
    tl_store(tl_add(out, offs), v, .mask = tl_lt(offs, n));
}

/* ---- meta-parameters ---------------------------------------------------------------- */
ERR_KERNEL(meta_kernel, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int BLOCK = TL_META(BLOCK); L_meta_kernel = __LINE__;
    tl_t offs = tl_arange(0, BLOCK);
    tl_t mask = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs), .mask = mask), .mask = mask);
}

/* ---- run-time mistakes ---------------------------------------------------------------- */
ERR_KERNEL(oob_store, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 128);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_lt(offs, n));
    tl_store(tl_add(out, offs), v); L_oob_store = __LINE__;
}
ERR_KERNEL(oob_load, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, tl_add(offs, n))); L_oob_load = __LINE__;
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(oob_in_loop, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 32);
    TL_FOR (i, 0, 3, 1) {
        tl_t at = tl_add(tl_mul(i, 32), offs);
        tl_store(tl_add(out, at), tl_load(tl_add(x, at), .mask = tl_lt(at, n))); L_oob_in_loop = __LINE__;
    }
}
ERR_KERNEL(assert_fail, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_device_assert(tl_lt(offs, tl_sub(n, 32)), "offs within the first half"); L_assert_fail = __LINE__;
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs)));
}

/* ---- the correct kernel launched after every case ------------------------------------ */
TILE_KERNEL(good_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n)) {
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask);
    tl_t yv = tl_load(tl_add(y, offs), .mask = mask);
    tl_t acc = tl_zeros(TL_F32, BLOCK);
    TL_IF (tl_gt(n, 0), acc) {
        acc = tl_add(acc, 1.0);
    }
    TL_FOR (k, 0, 3, 1, acc) {
        acc = tl_add(acc, tl_mul(xv, yv));
    }
    tl_store(tl_add(out, offs), acc, .mask = mask);
}

#define GN 512
static float *gx, *gy, *gout;

/* a launch from inside a kernel body (the body runs while the outer kernel is built) */
ERR_KERNEL(nested_launch, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tile_status st = good_kernel(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}}), gx, gy, gout, 64); L_nested_launch = __LINE__;
    tl_store(tl_add(out, offs), tl_load(tl_add(x, offs)));
    (void)st;
}

/* out = 3*x*y + 1 for a random n; lanes past n stay poisoned; no message */
static void check_good(const char *after) {
    int n = (int)tt_int(1, GN);
    for (int i = 0; i < GN; i++) {
        gx[i] = (float)tt_uniform(-2, 2);
        gy[i] = (float)tt_normal();
    }
    tt_poison(gout, GN * sizeof *gout);
    n_msgs = 0;
    TT_OK(good_kernel(TILE_OPTS(.grid = {tile_cdiv(n, 64)}, .meta = {{"BLOCK", 64}}), gx, gy, gout, n));
    TT_CHECK(n_msgs == 0, "after %s: a correct launch logged %d messages", after, n_msgs);
    static double got[GN], want[GN];
    for (int i = 0; i < n; i++) {
        got[i] = gout[i];
        want[i] = 3.0 * (double)gx[i] * (double)gy[i] + 1.0;
    }
    char what[96];
    snprintf(what, sizeof what, "good_kernel after %s", after);
    tt_check_close(what, got, want, (size_t)n, 1e-5, 1e-5);
    unsigned char pois[sizeof(float)];
    tt_poison(pois, sizeof pois);
    int clobbered = 0;
    for (int i = n; i < GN; i++) clobbered += memcmp(&gout[i], pois, sizeof pois) != 0;
    TT_CHECK(clobbered == 0, "good_kernel after %s: %d masked-off lanes were written", after, clobbered);
}

/* ---- host-side runners ------------------------------------------------------------------ */
static int L_ctx_program_id, L_ctx_meta, L_ctx_add_scalar;
static int L_launch_warps, L_launch_stages, L_launch_grid, L_arg_foreign;
static int L_meta_twice, L_meta_twice_ir, L_meta_name, A_meta_missing, A_meta_missing_ir;

static tile_status run_ctx_program_id(void) {
    tl_t pid = tl_program_id(0); L_ctx_program_id = __LINE__;
    (void)pid;
    return tile_last_error_info()->status;
}
static tile_status run_ctx_meta(void) {
    int block = TL_META(BLOCK); L_ctx_meta = __LINE__;
    (void)block;
    return tile_last_error_info()->status;
}
static tile_status run_ctx_add_scalar(void) {
    tl_t none = {0};
    tl_t r = tl_add(none, 1); L_ctx_add_scalar = __LINE__;
    (void)r;
    return tile_last_error_info()->status;
}
static tile_status run_launch_warps(void) {
    tile_status st = good_kernel(TILE_OPTS(.grid = {1}, .num_warps = 3, .meta = {{"BLOCK", 64}}), gx, gy, gout, 64); L_launch_warps = __LINE__;
    return st;
}
static tile_status run_launch_stages(void) {
    tile_status st = good_kernel(TILE_OPTS(.grid = {1}, .num_stages = 9, .meta = {{"BLOCK", 64}}), gx, gy, gout, 64); L_launch_stages = __LINE__;
    return st;
}
static tile_status run_launch_grid(void) {
    tile_status st = good_kernel(TILE_OPTS(.grid = {1, 70000}, .meta = {{"BLOCK", 64}}), gx, gy, gout, 64); L_launch_grid = __LINE__;
    return st;
}
static tile_status run_arg_foreign(void) {
    float *host = (float *)calloc(64, sizeof *host);
    if (!host) return TILE_ERR_NOMEM;
    tile_status st = good_kernel(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}}), host, gy, gout, 64); L_arg_foreign = __LINE__;
    free(host);
    return st;
}
static tile_status run_free_foreign(void) {
    int local = 0;
    return tile_free(&local);
}
static tile_status run_free_twice(void) {
    void *p = tile_malloc(256);
    tile_status st = tile_free(p);
    TT_CHECK(p && st == TILE_OK, "free_twice: the first tile_free returned %s", tile_status_id(st));
    return tile_free(p);
}
static tile_status run_meta_missing(void) {
    tile_status st = meta_kernel(TILE_OPTS(.grid = {1}), gx, gout, 64); A_meta_missing = __LINE__;
    return st;
}
static tile_status run_meta_missing_ir(void) {
    char *text = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(meta_kernel), TILE_OPTS(.grid = {1}), &text); A_meta_missing_ir = __LINE__;
    TT_CHECK(text == NULL, "meta_missing_ir: IR text returned with an error");
    tile_free_text(text);
    return st;
}
static tile_status run_meta_range(void) {
    return meta_kernel(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 1LL << 40}}), gx, gout, 64);
}
static tile_status run_meta_twice(void) {
    tile_status st = meta_kernel(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}, {"BLOCK", 32}}), gx, gout, 64); L_meta_twice = __LINE__;
    return st;
}
static tile_status run_meta_twice_ir(void) {
    char *text = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(meta_kernel), TILE_OPTS(.meta = {{"BLOCK", 64}, {"BLOCK", 32}}), &text); L_meta_twice_ir = __LINE__;
    tile_free_text(text);
    return st;
}
static tile_status run_meta_name(void) {
    tile_status st = meta_kernel(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK", 64}, {"", 1}}), gx, gout, 64); L_meta_name = __LINE__;
    return st;
}

static tile_status run_foreign_value(void) {
    char *text = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(keeper), NULL, &text);
    TT_CHECK(st == TILE_OK && n_msgs == 0, "foreign_value: the keeper kernel failed: %s", tile_last_error());
    tile_free_text(text);
    return tile_launch_kernel(TILE_KERNEL_OF(foreign_value), TILE_OPTS(.grid = {1}),
                              (const tile_arg[]){{.p = gx}, {.p = gout}, {.i = 64}});
}
static tile_status run_nested_ir(void) {
    char *text = NULL;
    tile_status st = tile_kernel_ir(TILE_KERNEL_OF(nested_launch), NULL, &text);
    tile_free_text(text);
    return st;
}
static tile_status run_nested_launch(void) {
    return nested_launch(TILE_OPTS(.grid = {1}), gx, gout);
}

/* ---- bad input that once crashed or was accepted (a fuzzer's and a skeptic's finds) ---- */
ERR_KERNEL(dtype_mask_int, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 64);
    tl_t v = tl_load(tl_add(x, offs), .mask = tl_and(offs, 1)); L_dtype_mask_int = __LINE__;
    tl_store(tl_add(out, offs), v);
}
ERR_KERNEL(dtype_xor_sum_f64, (tl_ptr_i32, x), (tl_ptr_f64, out)) {
    tl_t s = tl_xor_sum(tl_load(tl_add(x, tl_arange(0, 16))), 0, .dtype = TL_F64); L_dtype_xor_sum_f64 = __LINE__;
    tl_store(out, s);
}
/* 2^120 elements: the element count must not overflow while it is checked */
ERR_KERNEL(block_zeros_huge, (tl_ptr_f32, out)) {
    tl_t z = tl_zeros(TL_F32, 1 << 30, 1 << 30, 1 << 30, 1 << 30); L_block_zeros_huge = __LINE__;
    tl_store(out, tl_sum(z, TL_ALL));
}
/* 2^31 elements: end - start does not fit in an int */
ERR_KERNEL(block_arange_huge, (tl_ptr_i32, out)) {
    tl_t r = tl_arange(INT_MIN, 0); L_block_arange_huge = __LINE__;
    tl_store(tl_add(out, r), r);
}
/* results larger than their operands: [2^16, 16] x [16, 2^16] is 2^32 elements,
   [2^20, 1] against [1, 2^20] broadcasts to 2^40 (the fuzzer's find: the
   lowering's element count overflowed) */
ERR_KERNEL(block_dot_huge, (tl_ptr_f32, out)) {
    tl_t a = tl_zeros(TL_F16, 1 << 16, 16), b = tl_zeros(TL_F16, 16, 1 << 16);
    tl_t c = tl_dot(a, b); L_block_dot_huge = __LINE__;
    tl_store(out, tl_sum(c, TL_ALL));
}
/* a batch of 64: [64, 1024, 16] x [64, 16, 1024] is 2^26 elements */
ERR_KERNEL(block_dot_batch_huge, (tl_ptr_f32, out)) {
    tl_t a = tl_zeros(TL_F16, 64, 1 << 10, 16), b = tl_zeros(TL_F16, 64, 16, 1 << 10);
    tl_t c = tl_dot(a, b); L_block_dot_batch_huge = __LINE__;
    tl_store(out, tl_sum(c, TL_ALL));
}
ERR_KERNEL(block_fma_huge, (tl_ptr_f32, out)) {
    tl_t a = tl_zeros(TL_F32, 1 << 20, 1), b = tl_zeros(TL_F32, 1, 1 << 20);
    tl_t c = tl_fma(a, b, 1.0); L_block_fma_huge = __LINE__;
    tl_store(out, tl_sum(c, TL_ALL));
}
ERR_KERNEL(block_ptr_compare_huge, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    tl_t r = tl_arange(0, 1 << 20);
    tl_t p = tl_add(x, tl_expand_dims(r, 1)), q = tl_add(x, tl_expand_dims(r, 0));
    tl_t c = tl_lt(p, q); L_block_ptr_compare_huge = __LINE__;
    tl_store(out, tl_sum(tl_cast(c, TL_F32), TL_ALL));
}
/* 3000 nested TL_FORs: once a stack overflow in the verifier's recursion */
static int L_nest_deep;
static void nest_for(tl_t *acc, int depth) {
    if (depth == 0) {
        *acc = tl_add(*acc, 1.0);
        return;
    }
    tl_t a = *acc;
    TL_FOR (i, 0, 2, 1, a) { L_nest_deep = __LINE__; nest_for(&a, depth - 1); }
    *acc = a;
}
TILE_KERNEL(nest_deep, (tl_ptr_f32, out)) {
    tl_t acc = tl_zeros(TL_F32, 16);
    nest_for(&acc, 3000);
    tl_store(tl_add(out, tl_arange(0, 16)), acc);
}
/* a carried value that changes type: the loop's yield once read the operand
   pool through a pointer that the error path's casts had moved */
ERR_KERNEL(carry_for_widen, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t acc = tl_zeros(TL_F16, 16), offs = tl_arange(0, 16);
    TL_FOR (i, 0, n, 1, acc) { L_carry_for_widen = __LINE__;
        acc = tl_add(acc, tl_broadcast_to(tl_load(tl_add(x, offs)), 4, 16));
    }
    tl_store(tl_add(out, offs), tl_sum(acc, 0));
}

/* found by the fuzzer: neither back end has an i1 exchange; a pointer as cmp */
ERR_KERNEL(dtype_xchg_i1, (tl_ptr_i1, flags), (tl_ptr_f32, out)) {
    tl_t offs = tl_arange(0, 16);
    tl_t old = tl_atomic_xchg(tl_add(flags, offs), tl_lt(offs, 8)); L_dtype_xchg_i1 = __LINE__;
    tl_store(tl_add(out, offs), tl_cast(old, TL_F32));
}
ERR_KERNEL(dtype_cas_ptr_cmp, (tl_ptr_i64, x), (tl_ptr_f32, out)) {
    tl_t old = tl_atomic_cas(x, out, 1); L_dtype_cas_ptr_cmp = __LINE__;
    tl_store(tl_add(out, 1), tl_cast(old, TL_F32));
}

/* ---- the table ------------------------------------------------------------------------------ */
enum { BUILD, RUN, HOST, GUARDED };
typedef struct tcase {
    const char *name;
    tile_status want;
    int *line;                 /* the line the error names; NULL: none (a plain host call) */
    tile_kernel *k;            /* whose name the error carries; NULL: none */
    int when;                  /* BUILD: fails to build; RUN: builds, fails at launch; HOST: run();
                                  GUARDED: run() on a thread, given up after a few seconds */
    tile_status (*run)(void);
    const char *phrase;        /* in the message; a %d in it is *aux */
    int *aux;
} tcase;
#define B(k, id, phrase) {#k, TILE_ERR_##id, &L_##k, TILE_KERNEL_OF(k), BUILD, NULL, phrase, NULL}
#define B2(k, id, phrase, aux) {#k, TILE_ERR_##id, &L_##k, TILE_KERNEL_OF(k), BUILD, NULL, phrase, &aux}
#define R(k, id, phrase) {#k, TILE_ERR_##id, &L_##k, TILE_KERNEL_OF(k), RUN, NULL, phrase, NULL}
#define H(name, id, line, k, phrase, aux) {#name, TILE_ERR_##id, line, k, HOST, run_##name, phrase, aux}
#define G(name, id, line, k, phrase, aux) {#name, TILE_ERR_##id, line, k, GUARDED, run_##name, phrase, aux}

static const tcase cases[] = {
    B(shape_add, SHAPE, "do not broadcast"),
    B(shape_where, SHAPE, "does not broadcast"),
    B(shape_store, SHAPE, "does not broadcast"),
    B(shape_store_scalar_ptr, SHAPE, "pointer"),
    B(shape_mask, SHAPE, "mask shape"),
    B(shape_mask_scalar_ptr, SHAPE, "mask"),
    B(shape_other, SHAPE, "other"),
    B(shape_reshape, SHAPE, "64 elements"),
    B(shape_cat, SHAPE, "tl_cat"),
    B(shape_broadcast_to, SHAPE, "cannot be broadcast"),
    B(block_arange, BLOCK, "power of two"),
    B(block_arange_empty, BLOCK, "tl_arange(64, 32)"),
    B(block_full, BLOCK, "power of two"),
    B(block_reshape, BLOCK, "power of two"),
    B(block_too_big, BLOCK, "limit"),
    B(axis_permute, AXIS, "not a permutation"),
    B(axis_expand_dims, AXIS, "out of range"),
    B(axis_sum, AXIS, "out of range"),
    B(axis_cumsum, AXIS, "axis -3"),
    B(axis_program_id, AXIS, "0, 1 or 2"),
    B(dtype_exp_int, DTYPE, "tl_exp"),
    B(dtype_sqrt_f8e4b15, DTYPE, "f8e4b15"),
    B(dtype_exp_f8e5b16, DTYPE, "cast it first"),
    B(dtype_floordiv_float, DTYPE, "integers only"),
    B(dtype_shl_float, DTYPE, "integers only"),
    B(dtype_xor_sum_float, DTYPE, "integers only"),
    B(dtype_bitcast_width, DTYPE, "width"),
    B(dtype_cast_ptr, DTYPE, "tl_cast"),
    B(dtype_ptr_plus_float, DTYPE, "integers"),
    B(dtype_ptr_plus_ptr, DTYPE, "two pointers"),
    B(dtype_load_nonptr, DTYPE, "must be a pointer"),
    B(dtype_mask_float, DTYPE, "mask must be i1"),
    B(clamp_propagate_nan, VALUE, "tl_clamp: .propagate_nan = 2"),
    B(maximum_propagate_nan, VALUE, "tl_maximum: .propagate_nan = 2 is not"),
    B(max_propagate_nan, VALUE, "tl_max: .propagate_nan = -1 is not"),
    B(clamp_ptr, DTYPE, "tl_clamp: operand of type"),
    B(dtype_mask_int, DTYPE, "mask must be i1"),
    B(dtype_xor_sum_f64, DTYPE, ".dtype must be an integer"),
    B(block_zeros_huge, BLOCK, "limit"),
    B(block_arange_huge, BLOCK, "limit"),
    B(block_dot_huge, BLOCK, "tl_dot"),
    B(block_dot_batch_huge, BLOCK, "tl_dot: shape [64,1024,1024] has more than the limit"),
    B(block_fma_huge, BLOCK, "tl_fma"),
    B(block_ptr_compare_huge, BLOCK, "tl_lt"),
    B(nest_deep, CONTROL, "nest at most 64 deep"),
    B(carry_for_widen, CARRY, "'acc'"),
    B(dtype_xchg_i1, DTYPE, "pointers to i1"),
    B(dtype_cas_ptr_cmp, DTYPE, "pointers are not allowed"),
    B(dot_k_mismatch, SHAPE, "[K,N]"),
    B(dot_small, SHAPE, "at least 16"),
    B(dot_mixed_dtypes, DTYPE, "f16 and f32"),
    B(dot_acc_shape, SHAPE, "accumulator"),
    B(dot_acc_dtype, DTYPE, "i32"),
    B(dot_precision, VALUE, "not a tl_precision"),
    B(dot_imprecise_neg, VALUE, "max_num_imprecise_acc -1 must be between 0 (no limit) and K = 16"),
    B(dot_imprecise_neg_bf16x3, VALUE, "max_num_imprecise_acc -2 must be between 0 (no limit) and K = 16"),
    B(dot_imprecise_k, VALUE, "max_num_imprecise_acc 64 must be between 0 (no limit) and K = 32"),
    B(dot_rank_mixed, SHAPE, "shapes f16[2,16,16] and f16[16,16]: need both 2-D"),
    B(dot_rank1, SHAPE, "shapes f16[16] and f16[16]: need both 2-D"),
    B(dot_rank4, SHAPE, "shapes f16[2,2,16,16] and f16[2,2,16,16]: need both 2-D"),
    B(dot_batch, SHAPE, "batch dims 2 and 4 differ"),
    B(dot_batch_k, SHAPE, "shapes f16[2,16,32] and f16[2,16,16]: need [B,M,K] and [B,K,N]"),
    B(dot_batch_acc, SHAPE, "accumulator f32[4,16,16] must be [2,16,16]"),
    B(dot_batch_acc_rank, SHAPE, "accumulator f32[16,16] must be [2,16,16]"),
    B(dot_batch_imprecise_k, VALUE, "max_num_imprecise_acc 64 must be between 0 (no limit) and K = 32"),
    B(ds_format, VALUE, "rhs_format 7 is not a tl_fmt"),
    B(ds_operand_dtype, DTYPE, "an e4m3 rhs must be f8e4m3 or u8 (its bits), not f16"),
    B(ds_e2m1_dtype, DTYPE, "an e2m1 lhs must be u8"),
    B(ds_scale_dtype, DTYPE, "lhs_scale must be u8"),
    B(ds_scale_shape, SHAPE, "rhs_scale u8[32,4] must be [32, 2]"),
    B(ds_scale_k, SHAPE, "K = 16 is not a multiple of 32"),
    B(ds_k_mismatch, SHAPE, "hold K = 64 and 32"),
    B(ds_pack, VALUE, "only an e2m1 lhs can be packed along M"),
    B(ds_out_dtype, DTYPE, "only f32"),
    B(ds_acc_dtype, DTYPE, "must be f32"),
    B(ds_acc_shape, SHAPE, "accumulator f32[32,64] must be [32,32]"),
    B(ds_rank, SHAPE, "must both be 2-D"),
    B(ds_small, SHAPE, "M=8"),
    B(ds_rank_mixed, SHAPE, "must both be 2-D"),
    B(ds_batch, SHAPE, "batch dims 2 and 4"),
    B(ds_batch_scale_rank, SHAPE, "lhs_scale u8[32,2] must be [2, 32, 2] ([B, M, K / 32])"),
    B(ds_batch_scale, SHAPE, "rhs_scale u8[4,32,2] must be [2, 32, 2] ([B, N, K / 32])"),
    B(ds_batch_acc, SHAPE, "accumulator f32[4,32,32] must be [2,32,32]"),
    B(lopt_twice, CONTROL, "have no TL_FOR yet"),
    B(lopt_if, CONTROL, "not a TL_FOR"),
    B(lopt_no_for, CONTROL, "no TL_FOR follows"),
    B(lopt_stages, VALUE, "num_stages"),
    B(lopt_ws_value, VALUE, "warp_specialize (0 or 1)"),
    B(desc_block_big, BLOCK, "at most 256"),
    B(desc_block_pow2, BLOCK, "power of two"),
    B(desc_inner_small, BLOCK, "at least 16 bytes"),
    B(desc_rank_mismatch, ARITY, "1 block dims"),
    B(desc_last_stride, VALUE, "last stride must be the constant 1"),
    B(desc_shape_computed, VALUE, "shape dim 0 is computed in the kernel"),
    B(desc_base_computed, VALUE, "the base is computed in the kernel"),
    B(desc_base_tile, SHAPE, "scalar pointer"),
    B(desc_offsets, ARITY, "1 offsets for a descriptor of 2 dims"),
    B(desc_offset_i64, DTYPE, "at most 32 bits"),
    B(desc_computed_on, DTYPE, "tensor descriptor"),
    B(desc_carried, DTYPE, "carried through a TL_FOR"),
    B(desc_load_pointer, DTYPE, "must be a tensor descriptor"),
    B(desc_store_shape, SHAPE, "descriptor's block"),
    B(desc_atomic_dtype, DTYPE, "not supported on descriptors of f64"),
    B(desc_i1, DTYPE, "i1"),
    B2(scope_for, SCOPE, "made at line %d", M_scope_for),
    B2(scope_if, SCOPE, "made at line %d", M_scope_if),
    B2(scope_while, SCOPE, "made at line %d", M_scope_while),
    B2(scope_else, SCOPE, "made at line %d", M_scope_else),
    B(carry_for_dtype, CARRY, "'acc'"),
    B(carry_for_shape, CARRY, "'acc'"),
    B(carry_if, CARRY, "'r'"),
    B(carry_else, CARRY, "'r'"),
    B(carry_while, CARRY, "'acc'"),
    B(for_bound_tile, DTYPE, "integer scalars"),
    B(for_bound_float, DTYPE, "integer scalars"),
    B(if_cond_tile, DTYPE, "scalar"),
    B(while_cond_tile, DTYPE, "scalar"),
    B(else_orphan, CONTROL, "TL_ELSE"),
    B(else_not_adjacent, CONTROL, "TL_ELSE"),
    B(else_twice, CONTROL, "TL_ELSE"),
    B(break_for, CONTROL, "break"),
    B(break_while, CONTROL, "break"),
    B(return_if, CONTROL, "return"),
    B(carry_unset, VALUE, "'acc'"),
    B(unset_operand, VALUE, "never assigned"),
    R(step_zero, VALUE, "step"),
    R(oob_store, OOB, "tl_store: lane 64"),
    R(oob_load, OOB, "tl_load: lane 0"),
    R(oob_in_loop, OOB, "tl_store: lane 0"),
    R(assert_fail, ASSERT, "offs within the first half"),
    H(meta_missing, META, &L_meta_kernel, TILE_KERNEL_OF(meta_kernel), "test_errors.c:%d", &A_meta_missing),
    H(meta_missing_ir, META, &L_meta_kernel, TILE_KERNEL_OF(meta_kernel), "test_errors.c:%d", &A_meta_missing_ir),
    H(meta_range, META, &L_meta_kernel, TILE_KERNEL_OF(meta_kernel), "BLOCK", NULL),
    H(meta_twice, META, &L_meta_twice, TILE_KERNEL_OF(meta_kernel), "twice", NULL),
    H(meta_twice_ir, META, &L_meta_twice_ir, TILE_KERNEL_OF(meta_kernel), "twice", NULL),
    H(meta_name, META, &L_meta_name, TILE_KERNEL_OF(meta_kernel), "characters", NULL),
    H(ctx_program_id, CONTEXT, &L_ctx_program_id, NULL, "tl_program_id", NULL),
    H(ctx_meta, CONTEXT, &L_ctx_meta, NULL, "TL_META(BLOCK)", NULL),
    H(ctx_add_scalar, CONTEXT, &L_ctx_add_scalar, NULL, "tl_add", NULL),
    H(launch_warps, LAUNCH, &L_launch_warps, TILE_KERNEL_OF(good_kernel), "num_warps", NULL),
    H(launch_stages, LAUNCH, &L_launch_stages, TILE_KERNEL_OF(good_kernel), "num_stages", NULL),
    H(launch_grid, LAUNCH, &L_launch_grid, TILE_KERNEL_OF(good_kernel), "70000", NULL),
    H(arg_foreign, ARG, &L_arg_foreign, TILE_KERNEL_OF(good_kernel), "tile_malloc", NULL),
    H(free_foreign, ARG, NULL, NULL, "tile_malloc", NULL),
    H(free_twice, ARG, NULL, NULL, "tile_malloc", NULL),
    B2(scope_while_cond, SCOPE, "made at line %d", M_scope_while_cond),
    B2(scope_while_cond_var, SCOPE, "made at line %d", M_scope_while_cond_var),
    H(foreign_value, VALUE, &L_foreign_value, TILE_KERNEL_OF(foreign_value), "another kernel", NULL),
    H(nested_ir, CONTEXT, &L_nested_launch, TILE_KERNEL_OF(nested_launch), "inside another kernel", NULL),
    /* run once, after the others: if it hangs, the library's locks are gone for good */
    G(nested_launch, CONTEXT, &L_nested_launch, TILE_KERNEL_OF(nested_launch), "inside another kernel", NULL),
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* ---- the checks ------------------------------------------------------------------------------ */
static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* The error just reported is this case's: id, line, file, kernel, phrase, one message. */
static void expect_error(const tcase *c, const char *path, tile_status st, const tile_error *e) {
    int line = c->line ? *c->line : 0;
    const char *kernel = c->k ? c->k->name : "";
    char phrase[160];
    snprintf(phrase, sizeof phrase, c->phrase, c->aux ? *c->aux : 0);
    TT_CHECK(st == c->want && e->status == c->want, "%s (%s): returned %s (last error %s), want %s [%s] (%d messages)", c->name, path,
             tile_status_id(st), e->id, tile_status_id(c->want), e->message, n_msgs);
    if (st != c->want || e->status != c->want) return;
    if (getenv("TEST_ERRORS_VERBOSE")) printf("  %-24s %s\n", c->name, e->message);
    TT_CHECK(!c->line || line > 0, "%s (%s): the mistake's line was never reached", c->name, path);
    TT_CHECK(e->line == line, "%s (%s): error at line %d, want line %d [%s]", c->name, path, e->line, line, e->message);
    TT_CHECK(c->line ? ends_with(e->file, "test_errors.c") : e->file[0] == 0, "%s (%s): error names file \"%s\"", c->name, path, e->file);
    TT_CHECK(strcmp(e->kernel, kernel) == 0, "%s (%s): error names kernel \"%s\", want \"%s\"", c->name, path, e->kernel, kernel);
    TT_CHECK(strstr(e->message, phrase) != NULL, "%s (%s): message lacks \"%s\": %s", c->name, path, phrase, e->message);
    TT_CHECK(strstr(e->message, e->id) != NULL, "%s (%s): message lacks its id: %s", c->name, path, e->message);
    TT_CHECK(n_msgs == 1, "%s (%s): %d messages logged for one mistake (last: %s)", c->name, path, n_msgs, e->message);
}

/* Launch (or build) c->k with a fresh 64-element buffer per pointer parameter
   (poisoned), 64 for integers, 1.0 for floats. */
static tile_status run_kernel(const tcase *c, int ir, int *untouched) {
    enum { MAXP = 8, NELEM = 64 };
    void *bufs[MAXP] = {0};
    size_t sizes[MAXP] = {0};
    tile_arg args[MAXP];
    int np = c->k->nparams < MAXP ? c->k->nparams : MAXP;
    for (int p = 0; p < np; p++) {
        const tile_param *pr = &c->k->params[p];
        if (pr->dtype == TL_PTR) {
            sizes[p] = NELEM * tile_dtype_size(pr->elem);
            bufs[p] = tile_malloc(sizes[p]);
            tt_poison(bufs[p], sizes[p]);
            args[p].p = bufs[p];
        } else if (pr->dtype == TL_F32 || pr->dtype == TL_F64) {
            args[p].f = 1.0;
        } else {
            args[p].i = NELEM;
        }
    }
    tile_status st;
    if (ir) {
        char *text = NULL;
        st = tile_kernel_ir(c->k, TILE_OPTS(.meta = {{"BLOCK", 64}}), &text);
        TT_CHECK((st == TILE_OK) == (text != NULL), "%s (ir): status %s with text %p", c->name, tile_status_id(st), (void *)text);
        tile_free_text(text);
    } else {
        st = tile_launch_kernel(c->k, TILE_OPTS(.grid = {2}, .meta = {{"BLOCK", 64}}), args);
    }
    unsigned char pois[NELEM * 8];
    tt_poison(pois, sizeof pois);
    *untouched = 1;
    for (int p = 0; p < np; p++) {
        if (bufs[p] && memcmp(bufs[p], pois, sizes[p]) != 0) *untouched = 0;
        tile_free(bufs[p]);
    }
    return st;
}

/* GUARDED cases run on a thread so that a hang is a failure, not a stuck test;
   the thread hands back its (thread-local) error. */
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t guard_cv = PTHREAD_COND_INITIALIZER;
static int guard_done;
static tile_status guard_st;
static tile_error guard_err;
static void *guard_thread(void *arg) {
    const tcase *c = (const tcase *)arg;
    tile_status st = c->run();
    pthread_mutex_lock(&guard_lock);
    guard_st = st;
    guard_err = *tile_last_error_info();
    guard_done = 1;
    pthread_cond_signal(&guard_cv);
    pthread_mutex_unlock(&guard_lock);
    return NULL;
}
/* 0 when the runner did not come back within the limit */
static int run_guarded(const tcase *c) {
    pthread_t th;
    guard_done = 0;
    if (pthread_create(&th, NULL, guard_thread, (void *)(uintptr_t)c) != 0) {
        TT_CHECK(0, "%s: cannot start a thread", c->name);
        return 1;
    }
    struct timespec until;
    timespec_get(&until, TIME_UTC);
    until.tv_sec += 5;
    pthread_mutex_lock(&guard_lock);
    while (!guard_done && pthread_cond_timedwait(&guard_cv, &guard_lock, &until) == 0) {}
    int done = guard_done;
    pthread_mutex_unlock(&guard_lock);
    if (!done) {
        TT_CHECK(0, "%s: no answer after 5 s (a deadlock?)", c->name);
        pthread_detach(th);
        return 0;
    }
    pthread_join(th, NULL);
    expect_error(c, "host", guard_st, &guard_err);
    return 1;
}

/* Run one case and then the correct kernel; 0 when the library hung. */
static int run_case(const tcase *c) {
    int untouched;
    tile_status st;
    if (c->line) *c->line = 0;
    if (c->aux) *c->aux = 0;
    tile_clear_error();
    n_msgs = 0;
    switch (c->when) {
    case BUILD:
        st = run_kernel(c, 1, &untouched);
        expect_error(c, "ir", st, tile_last_error_info());
        *c->line = 0;
        if (c->aux) *c->aux = 0;
        tile_clear_error();
        n_msgs = 0;
        st = run_kernel(c, 0, &untouched);
        expect_error(c, "launch", st, tile_last_error_info());
        TT_CHECK(st != c->want || untouched, "%s: a kernel that failed to build wrote memory", c->name);
        break;
    case RUN:
        st = run_kernel(c, 1, &untouched);
        TT_CHECK(st == TILE_OK && n_msgs == 0, "%s (ir): a run-time mistake failed the build: %s", c->name, tile_last_error());
        tile_clear_error();
        n_msgs = 0;
        st = run_kernel(c, 0, &untouched);
        expect_error(c, "launch", st, tile_last_error_info());
        break;
    case HOST:
        st = c->run();
        expect_error(c, "host", st, tile_last_error_info());
        break;
    default:
        if (!run_guarded(c)) return 0;
        break;
    }
    check_good(c->name);
    return 1;
}

int main(void) {
    tt_seed();
    tile_set_log(count_log, NULL);
    gx = (float *)tile_malloc(GN * sizeof *gx);
    gy = (float *)tile_malloc(GN * sizeof *gy);
    gout = (float *)tile_malloc(GN * sizeof *gout);
    TT_CHECK(gx && gy && gout, "tile_malloc failed");
    if (!gx || !gy || !gout) return tt_finish("test_errors");

    check_good("nothing");
    /* Out-of-bounds lanes are caught by the interpreter only: on a GPU those
       cases would touch memory that is not there, so they are skipped (and
       said to be). */
    int gpu = strcmp(tile_backend_name(), "interp") != 0, skipped = 0;
    /* TEST_ERRORS_ONLY=name runs one case (to see what each does on its own) */
    const char *only = getenv("TEST_ERRORS_ONLY");
    /* twice: an error is not cached, and the same mistake gives the same report */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < NCASES; k++) {
            if (gpu && cases[k].want == TILE_ERR_OOB) {
                skipped += pass == 0;
                continue;
            }
            if (only && strcmp(only, cases[k].name) != 0) continue;
            if (cases[k].when != GUARDED) run_case(&cases[k]);
        }
    if (skipped) printf("skipped %d out-of-bounds cases on the GPU (%s): the interpreter checks those\n", skipped, tile_backend_name());
    for (int k = 0; k < NCASES; k++)
        if (cases[k].when == GUARDED && (!only || strcmp(only, cases[k].name) == 0) && !run_case(&cases[k])) {
            printf("%d must-fail cases; stopped at %s: the library is stuck\n", NCASES, cases[k].name);
            int rc = tt_finish("test_errors");
            fflush(stdout);
            return rc;
        }
    printf("%d must-fail cases\n", NCASES);

    for (int k = 0; k < NCASES; k++) tile_kernel_release(cases[k].k);
    tile_kernel_release(TILE_KERNEL_OF(good_kernel));
    tile_free(gx);
    tile_free(gy);
    tile_free(gout);
    tile_set_log(NULL, NULL);
    int rc = tt_finish("test_errors");
    fflush(stdout);
    return rc;
}
