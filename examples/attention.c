/* examples/attention.c — fused attention (FlashAttention), the forward of
   Triton's tutorial 06 in C: softmax(Q K^T * sm_scale) V for every head,
   one program per BLOCK_M rows of one head, the online softmax in a loop
   over BLOCK_N keys at a time that carries the row maxima m, the row sums
   l and the output accumulator, in f16 and bf16, head dims 64 and 128,
   causal and not, autotuned.

   attn_fwd(Q, K, V, O, M, sm_scale, ZH, N_CTX, ROWS)
       Q, K, V, O   [Z, H, N_CTX, HEAD_DIM] contiguous, read through tensor
                    descriptors over the [ROWS = Z*H*N_CTX, HEAD_DIM] matrix (a
                    block past one head's rows reads the next head's, or
                    zeros past the last; those keys are masked, those rows
                    not stored)
       M            [Z, H, N_CTX] f32: m + log2(l) per row, what the
                    backward pass needs (log-sum-exp in base 2)
   K is read as the tutorial reads it, [BLOCK_N, HEAD_DIM] blocks used
   transposed (tl_dot(q, tl_trans(k))). On sm_90a the K and V blocks are a
   TMA ring, Q K^T reads K's stage as wgmma's K-major B operand, the row
   maxima and sums stay in the accumulator's registers (shuffles among the
   four lanes of a row), and P @ V takes P from registers (wgmma's
   register-A form); TILE_DUMP=ttgir shows it. The causal mask (the
   diagonal blocks) and the bounds mask (the last block) are applied in a
   TL_IF on those iterations only, where the tutorial has two stages.

       attention [Z H N_CTX]      default: 1 2 100, and N_CTX = 1
       ATTENTION_EVERY_CONFIG=1   every config of the list instead of the
                                  tuned one

   The backward pass (attention_backward): tutorial 06's preprocess
   (Delta = rowsum(dO * O)), then dK and dV (attn_bwd_dkdv: a program per
   key block, a loop over the query blocks) and dQ (attn_bwd_dq: a program
   per query block, a loop over the key blocks), autotuned; on sm_90a their
   loops are TMA rings too, Q, K and dO read both ways from one stage, the
   P and dS of each iteration the A of the next dots from registers.

   Checked against float64 of the rounded inputs: the forward's O and M at
   every row at the default sizes, 64 sampled rows of every head otherwise;
   the backward's dQ, dK and dV (for a random dO) at every element. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the keys of block start_n that a row may see: below N_CTX, and causal:
   at or left of the row's diagonal */
static tl_t attn_mask(tl_t qk, tl_t start_n, tl_t offs_m, tl_t N_CTX, int BLOCK_N, int causal)
{
    tl_t cols = tl_expand_dims(tl_add(start_n, tl_arange(0, BLOCK_N)), 0);
    tl_t ok   = tl_lt(cols, N_CTX);
    if (causal) ok = tl_logical_and(ok, tl_ge(tl_expand_dims(offs_m, 1), cols));
    return tl_where(ok, qk, -INFINITY);
}
/* one step of the online softmax, in base 2 with the scale folded into one
   fma: the new row maxima into *m_i, the row sums into *l_i, acc rescaled;
   returns P */
static tl_t attn_softmax(tl_t qk, tl_t qk_scale, tl_t *m_i, tl_t *l_i, tl_t *acc)
{
    tl_t m_ij  = tl_maximum(*m_i, tl_mul(tl_max(qk, 1), qk_scale));
    tl_t p     = tl_exp2(tl_fma(qk, qk_scale, tl_neg(tl_expand_dims(m_ij, 1))));
    tl_t alpha = tl_exp2(tl_sub(*m_i, m_ij));
    *l_i       = tl_add(tl_mul(*l_i, alpha), tl_sum(p, 1));
    *acc       = tl_mul(*acc, tl_expand_dims(alpha, 1));
    *m_i       = m_ij;
    return p;
}
/* tile t's query block *start_m and head *off_hz in the persistent order:
   G heads at a time, each group's query blocks from the last (the longest
   under causal) down, the heads of a group side by side */
static void attn_tile_of(tl_t t, tl_t nq, tl_t G, tl_t ZH, tl_t *start_m, tl_t *off_hz)
{
    tl_t per_group = tl_mul(nq, G);
    tl_t group = tl_floordiv(t, per_group), r = tl_sub(t, tl_mul(group, per_group));
    tl_t g = tl_maximum(tl_minimum(tl_sub(ZH, tl_mul(group, G)), G), 1);   /* the last group may have fewer */
    *start_m = tl_sub(tl_sub(nq, 1), tl_floordiv(r, g));
    *off_hz  = tl_add(tl_mul(group, G), tl_mod(r, g));
}
/* the Q block of query block start_m of head off_hz (zeros past the last row) */
static tl_t attn_q_load(tl_t desc_q, tl_t start_m, tl_t off_hz, tl_t N_CTX, int BLOCK_M)
{
    return tl_desc_load(desc_q, (tl_add(tl_mul(off_hz, N_CTX), tl_mul(start_m, BLOCK_M)), 0));
}
/* a persistent program's next tile t (of nq query blocks a head, ZH heads,
   G a group): its place and Q are found after this tile's key loop, while
   the epilogue runs */
typedef struct attn_next { tl_t desc_q, t, nq, G, ZH; } attn_next;
/* one tile of the forward: BLOCK_M query rows start_m of head off_hz (its
   rows from off_y = off_hz * N_CTX on), O and M stored; ws: the key loop
   warp-specialized */
static void attn_fwd_tile(tl_dtype dt, tl_t desc_q, tl_t desc_k, tl_t desc_v, tl_t o_ptr, tl_t m_ptr, tl_t sm_scale, tl_t N_CTX,
                          tl_t start_m, tl_t off_hz, tl_t *q_io, const attn_next *next, int ws)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), D = TL_META(HEAD_DIM), causal = TL_META(CAUSAL);
    int overlap = TL_META_OR(OVERLAP, 0);
    int no_softmax = TL_META_OR(NO_SOFTMAX, 0);   /* a measurement aid: P = QK^T, what the tensor cores alone take */
    tl_static_assert(!(overlap && no_softmax), "NO_SOFTMAX measures the plain order; OVERLAP does not take it");
    /* (the masked key blocks start at the diagonal's, start_m * BLOCK_M: a
       key block may not straddle it) */
    tl_static_assert(!causal || BLOCK_M % BLOCK_N == 0, "causal: BLOCK_M must be a multiple of BLOCK_N");
    tl_t off_y   = tl_mul(off_hz, N_CTX);
    tl_t offs_m  = tl_add(tl_mul(start_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_t q       = q_io ? *q_io : tl_desc_load(desc_q, (tl_add(off_y, tl_mul(start_m, BLOCK_M)), 0));
    tl_t m_i     = tl_full(TL_F32, -INFINITY, BLOCK_M);
    tl_t l_i     = tl_full(TL_F32, 1.0, BLOCK_M);
    tl_t acc     = tl_zeros(TL_F32, BLOCK_M, D);
    tl_t qk_scale = tl_mul(sm_scale, 1.44269504);   /* exp(x) = exp2(x log2 e) */
    /* the keys: all (causal: up to the diagonal block); blocks from `mask`
       on are masked (the diagonal's under causal, else the last partial one) */
    tl_t hi   = causal ? tl_minimum(tl_mul(tl_add(start_m, 1), BLOCK_M), N_CTX) : N_CTX;
    tl_t mask = causal ? tl_mul(start_m, BLOCK_M) : tl_mul(tl_floordiv(N_CTX, BLOCK_N), BLOCK_N);
    if (ws) TL_LOOP_OPTIONS(.warp_specialize = 1);
    if (overlap) {
        /* FlashAttention-3's order within a warpgroup (OVERLAP 1): an
           iteration issues this block's Q K^T and then the previous block's
           P V, whose wgmmas run while this block's softmax does (the lowering
           waits for each dot where its result is first read). The first
           block's Q K^T and softmax come before the loop, the last P V after. */
        tl_t k0 = tl_desc_load(desc_k, (off_y, 0));
        tl_t p  = attn_softmax(attn_mask(tl_dot(q, tl_trans(k0)), tl_full(TL_I32, 0), offs_m, N_CTX, BLOCK_N, causal), qk_scale, &m_i, &l_i, &acc);
        p = tl_cast(p, dt);
        TL_FOR (start_n, BLOCK_N, hi, BLOCK_N, m_i, l_i, acc, p) {
            tl_t k  = tl_desc_load(desc_k, (tl_add(off_y, start_n), 0));
            tl_t qk = tl_dot(q, tl_trans(k));
            tl_t v  = tl_desc_load(desc_v, (tl_sub(tl_add(off_y, start_n), BLOCK_N), 0));
            acc     = tl_dot(p, v, acc);
            TL_IF (tl_ge(start_n, mask), qk) { qk = attn_mask(qk, start_n, offs_m, N_CTX, BLOCK_N, causal); }
            p = tl_cast(attn_softmax(qk, qk_scale, &m_i, &l_i, &acc), dt);
        }
        tl_t last = tl_mul(tl_floordiv(tl_sub(hi, 1), BLOCK_N), BLOCK_N);
        acc       = tl_dot(p, tl_desc_load(desc_v, (tl_add(off_y, last), 0)), acc);
    } else {
        TL_FOR (start_n, 0, hi, BLOCK_N, m_i, l_i, acc) {
            tl_t k  = tl_desc_load(desc_k, (tl_add(off_y, start_n), 0));
            tl_t qk = tl_dot(q, tl_trans(k));
            TL_IF (tl_ge(start_n, mask), qk) { qk = attn_mask(qk, start_n, offs_m, N_CTX, BLOCK_N, causal); }
            tl_t v = tl_desc_load(desc_v, (tl_add(off_y, start_n), 0));
            if (no_softmax) {
                acc = tl_dot(tl_cast(qk, dt), v, acc);
            } else {
                tl_t p = attn_softmax(qk, qk_scale, &m_i, &l_i, &acc);
                acc    = tl_dot(tl_cast(p, dt), v, acc);
            }
        }
    }
    if (q_io) {
        tl_t next_m, next_hz;
        attn_tile_of(next->t, next->nq, next->G, next->ZH, &next_m, &next_hz);
        *q_io = attn_q_load(next->desc_q, next_m, next_hz, N_CTX, BLOCK_M);
    }
    /* the rows of this head only */
    tl_t row_ok = tl_lt(offs_m, N_CTX);
    tl_store(tl_add(m_ptr, tl_add(off_y, offs_m)), tl_add(m_i, tl_log2(l_i)), .mask = row_ok);
    acc        = tl_div(acc, tl_expand_dims(l_i, 1));
    tl_t o_off = tl_add(tl_mul(tl_expand_dims(tl_add(off_y, offs_m), 1), D), tl_expand_dims(tl_arange(0, D), 0));
    tl_store(tl_add(o_ptr, o_off), tl_cast(acc, dt), .mask = tl_expand_dims(row_ok, 1));
}
/* PERSISTENT 1 (attn_configs_persistent, not tuned): one program per
   multiprocessor (the grid min(multiprocessors, tiles)) looping over the
   tiles, warp-specialized at that loop (the producer loads the next tile's
   keys while the consumers finish this one), the next tile's Q loaded
   during this one's epilogue. Tile t of the ZH * nq (nq = cdiv(N_CTX,
   BLOCK_M)) is in group t / (G * nq) of G heads, within a group the query
   blocks from the longest (causal: the most keys) down, the G heads side
   by side; program p takes tiles p, p + programs, ..., so every program
   gets about as many keys (within 3% at N_CTX 4096 on 132
   multiprocessors; a head at a time would leave 12%), and the K and V of
   the G heads in flight stay in L2: G = ATTN_GROUP_KEYS / N_CTX (1 to 16),
   32 MB of K and V at D 128 (at N_CTX 4096, D 128 causal, G 16 took
   1.114 ms, G 4 1.223, G 1 1.165).
   It lost on an H100 (Z=4 H=32 f16, tuner's medians): D=128 causal
   N=4096 1.26 ms against 1.10 for a program per tile, 17.4 against 16.5 at
   N=16384, D=128 full 2.17 against 1.95, D=64 causal 0.80 against 0.80.
   In-kernel scopes (TILE_PROFILE) show why: a tile's key loop is 83-89% of
   it either way, and what it removes, the 0.6-0.8 us between one
   program's end and the next's start on a multiprocessor and the 2.4 us
   before the first key block (Q's load), comes back as a longer epilogue
   (3.5 us to 5.3-5.7: the wait for the last P V, the division, the stores,
   now with the next Q's load), and the hardware's own order of programs
   balances better than the static one. The two consumer warpgroups on
   different tiles (the plan's ping-pong, 4 warps, each its own 64-row
   tile; not causal, whose key loops differ in length) lost by more:
   non-causal N=4096, D=128 3.60 ms against 2.09 (README, "Attention"). */
#ifndef ATTN_GROUP_KEYS
#define ATTN_GROUP_KEYS 65536
#endif
static void attn_fwd_persistent(tl_dtype dt, tl_t desc_q, tl_t desc_k, tl_t desc_v, tl_t o_ptr, tl_t m_ptr, tl_t sm_scale, tl_t ZH, tl_t N_CTX, int ws)
{
    int BLOCK_M = TL_META(BLOCK_M);
    tl_t nq = tl_cdiv(N_CTX, BLOCK_M);
    tl_t G  = tl_maximum(tl_minimum(tl_floordiv(tl_full(TL_I32, ATTN_GROUP_KEYS), N_CTX), 16), 1);
    tl_t start_m, off_hz;
    attn_tile_of(tl_program_id(0), nq, G, ZH, &start_m, &off_hz);
    tl_t q = attn_q_load(desc_q, start_m, off_hz, N_CTX, BLOCK_M);
    if (ws) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (t, tl_program_id(0), tl_mul(nq, ZH), tl_num_programs(0), q) {
        attn_tile_of(t, nq, G, ZH, &start_m, &off_hz);
        attn_next next = {desc_q, tl_add(t, tl_num_programs(0)), nq, G, ZH};
        attn_fwd_tile(dt, desc_q, desc_k, desc_v, o_ptr, m_ptr, sm_scale, N_CTX, start_m, off_hz, &q, &next, 0);
    }
}
static void attn_fwd_body(tl_dtype dt, tl_t q_ptr, tl_t k_ptr, tl_t v_ptr, tl_t o_ptr, tl_t m_ptr, tl_t sm_scale, tl_t ZH, tl_t N_CTX, tl_t rows)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), D = TL_META(HEAD_DIM), causal = TL_META(CAUSAL);
    int ws = TL_META_OR(WARP_SPECIALIZE, 0);
    if (TL_META_OR(PERSISTENT, 0)) {
        tl_t desc_q = tl_make_tensor_descriptor(q_ptr, (rows, D), (D, 1), (BLOCK_M, D));
        tl_t desc_k = tl_make_tensor_descriptor(k_ptr, (rows, D), (D, 1), (BLOCK_N, D));
        tl_t desc_v = tl_make_tensor_descriptor(v_ptr, (rows, D), (D, 1), (BLOCK_N, D));
        attn_fwd_persistent(dt, desc_q, desc_k, desc_v, o_ptr, m_ptr, sm_scale, ZH, N_CTX, ws);
        return;
    }
    /* causal: the query blocks of a head in reverse, the longest (most keys)
       first, so that the blocks the GPU starts last are the shortest and the
       last wave ends together (a head's blocks still run side by side, and
       share its K and V in L2). On an H100, Z=4 H=32 N=4096 f16 D=64 (64x64
       blocks): 0.76 ms against 0.81 in order (-DATTN_CAUSAL_LONGEST_FIRST=0). */
    tl_t start_m = tl_program_id(0), off_hz = tl_program_id(1);
#ifndef ATTN_CAUSAL_LONGEST_FIRST
#define ATTN_CAUSAL_LONGEST_FIRST 1
#endif
    if (causal && ATTN_CAUSAL_LONGEST_FIRST) start_m = tl_sub(tl_sub(tl_num_programs(0), 1), start_m);
    tl_t desc_q = tl_make_tensor_descriptor(q_ptr, (rows, D), (D, 1), (BLOCK_M, D));
    tl_t desc_k = tl_make_tensor_descriptor(k_ptr, (rows, D), (D, 1), (BLOCK_N, D));
    tl_t desc_v = tl_make_tensor_descriptor(v_ptr, (rows, D), (D, 1), (BLOCK_N, D));
    attn_fwd_tile(dt, desc_q, desc_k, desc_v, o_ptr, m_ptr, sm_scale, N_CTX, start_m, off_hz, NULL, NULL, ws);
}

#define ATTN_PARAMS(ptr) (ptr, q), (ptr, k), (ptr, v), (ptr, o), (tl_ptr_f32, m), (tl_f32, sm_scale), (tl_i32, ZH), (tl_i32, N_CTX), (tl_i32, rows)
TILE_KERNEL(attn_fwd, ATTN_PARAMS(tl_ptr_f16)) { attn_fwd_body(TL_F16, q, k, v, o, m, sm_scale, ZH, N_CTX, rows); }
TILE_KERNEL(attn_fwd_bf16, ATTN_PARAMS(tl_ptr_bf16)) { attn_fwd_body(TL_BF16, q, k, v, o, m, sm_scale, ZH, N_CTX, rows); }

/* ---- the backward pass (tutorial 06's _attn_bwd_preprocess and _attn_bwd) ----
   With P = exp2(Q K^T * qk_scale - M) (M from the forward), dO the
   gradient of O and Delta = rowsum(dO * O):
       dV = P^T dO,  dP = dO V^T,  dS = P * (dP - Delta),
       dK = sm_scale dS^T Q,  dQ = sm_scale dS K.
   attn_bwd_dkdv: one program per BLOCK_N keys of one head, a loop over the
   query blocks (causal: from the diagonal on); attn_bwd_dq: one program
   per BLOCK_M queries, a loop over the key blocks (causal: up to the
   diagonal). Q and dO are each used both ways in the first (Q^T for
   K Q^T, Q for dS^T Q), K in the second: on sm_90a each is one stage of
   the loop's TMA ring, read K-major and N-major. */
/* the backward's four descriptors: Q and dO in blocks of BLOCK_M rows, K and V of BLOCK_N */
static void bwd_descs(tl_t q_ptr, tl_t k_ptr, tl_t v_ptr, tl_t do_ptr, tl_t rows, int D, tl_t *dq, tl_t *dk, tl_t *dv, tl_t *ddo)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N);
    *dq  = tl_make_tensor_descriptor(q_ptr, (rows, D), (D, 1), (BLOCK_M, D));
    *ddo = tl_make_tensor_descriptor(do_ptr, (rows, D), (D, 1), (BLOCK_M, D));
    *dk  = tl_make_tensor_descriptor(k_ptr, (rows, D), (D, 1), (BLOCK_N, D));
    *dv  = tl_make_tensor_descriptor(v_ptr, (rows, D), (D, 1), (BLOCK_N, D));
}
/* Delta = rowsum(dO * O); with meta FUSED, also zeroes the entries of
   those rows in the fused backward's dQ^T accumulator */
static void attn_bwd_pre_body(tl_t o_ptr, tl_t do_ptr, tl_t delta_ptr, tl_t dqa_ptr, tl_t rows, tl_t N_CTX, tl_t acc_stride)
{
    int BLOCK_M = TL_META(BLOCK_M), D = TL_META(HEAD_DIM);
    tl_t offs_m = tl_add(tl_mul(tl_program_id(0), BLOCK_M), tl_arange(0, BLOCK_M));
    tl_t ok     = tl_lt(offs_m, rows);
    tl_t off    = tl_add(tl_mul(tl_expand_dims(offs_m, 1), D), tl_expand_dims(tl_arange(0, D), 0));
    tl_t o      = tl_cast(tl_load(tl_add(o_ptr, off), .mask = tl_expand_dims(ok, 1)), TL_F32);
    tl_t d_o    = tl_cast(tl_load(tl_add(do_ptr, off), .mask = tl_expand_dims(ok, 1)), TL_F32);
    tl_store(tl_add(delta_ptr, offs_m), tl_sum(tl_mul(o, d_o), 1), .mask = ok);
    if (TL_META_OR(FUSED, 0)) {   /* row r of head r / N_CTX: column r % N_CTX of that head's D rows of dQ^T */
        tl_t hz = tl_floordiv(offs_m, N_CTX), col = tl_sub(offs_m, tl_mul(hz, N_CTX));
        tl_t at = tl_add(tl_mul(tl_add(tl_expand_dims(tl_mul(hz, D), 0), tl_expand_dims(tl_arange(0, D), 1)), acc_stride), tl_expand_dims(col, 0));
        tl_store(tl_add(dqa_ptr, at), tl_zeros(TL_F32, D, BLOCK_M), .mask = tl_expand_dims(ok, 0));
    }
}
static void attn_bwd_dq_body(tl_dtype dt, tl_t q_ptr, tl_t k_ptr, tl_t v_ptr, tl_t do_ptr, tl_t dq_ptr, tl_t m_ptr, tl_t delta_ptr, tl_t sm_scale,
                             tl_t N_CTX, tl_t rows)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), D = TL_META(HEAD_DIM), causal = TL_META(CAUSAL);
    tl_t start_m = tl_mul(tl_program_id(0), BLOCK_M), off_y = tl_mul(tl_program_id(1), N_CTX);
    tl_t desc_q, desc_k, desc_v, desc_do;
    bwd_descs(q_ptr, k_ptr, v_ptr, do_ptr, rows, D, &desc_q, &desc_k, &desc_v, &desc_do);
    tl_t offs_m  = tl_add(start_m, tl_arange(0, BLOCK_M));
    tl_t row_ok  = tl_lt(offs_m, N_CTX);
    tl_t q       = tl_desc_load(desc_q, (tl_add(off_y, start_m), 0));
    tl_t d_o     = tl_desc_load(desc_do, (tl_add(off_y, start_m), 0));
    tl_t m       = tl_expand_dims(tl_load(tl_add(m_ptr, tl_add(off_y, offs_m)), .mask = row_ok, .other = INFINITY), 1);
    tl_t Di      = tl_expand_dims(tl_load(tl_add(delta_ptr, tl_add(off_y, offs_m)), .mask = row_ok), 1);
    tl_t dq      = tl_zeros(TL_F32, BLOCK_M, D);
    tl_t qk_scale = tl_mul(sm_scale, 1.44269504);
    tl_t hi   = causal ? tl_minimum(tl_add(start_m, BLOCK_M), N_CTX) : N_CTX;
    tl_t mask = causal ? start_m : tl_mul(tl_floordiv(N_CTX, BLOCK_N), BLOCK_N);
    if (TL_META_OR(WARP_SPECIALIZE, 0)) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (start_n, 0, hi, BLOCK_N, dq) {
        tl_t k  = tl_desc_load(desc_k, (tl_add(off_y, start_n), 0));
        tl_t v  = tl_desc_load(desc_v, (tl_add(off_y, start_n), 0));
        tl_t qk = tl_dot(q, tl_trans(k));
        tl_t p  = tl_exp2(tl_fma(qk, qk_scale, tl_neg(m)));
        TL_IF (tl_ge(start_n, mask), p) {
            tl_t cols = tl_expand_dims(tl_add(start_n, tl_arange(0, BLOCK_N)), 0);
            tl_t ok   = tl_lt(cols, N_CTX);
            if (causal) ok = tl_logical_and(ok, tl_ge(tl_expand_dims(offs_m, 1), cols));
            p = tl_where(ok, p, 0.0);
        }
        tl_t dp = tl_dot(d_o, tl_trans(v));
        tl_t ds = tl_mul(p, tl_sub(dp, Di));
        dq      = tl_dot(tl_cast(ds, dt), k, dq);
    }
    tl_t off = tl_add(tl_mul(tl_expand_dims(tl_add(off_y, offs_m), 1), D), tl_expand_dims(tl_arange(0, D), 0));
    tl_store(tl_add(dq_ptr, off), tl_cast(tl_mul(dq, sm_scale), dt), .mask = tl_expand_dims(row_ok, 1));
}
/* a value the fused backward's arguments and locals hold where the split one has none */
#define ATTN_UNUSED ((tl_t){0, 0})
/* the dK/dV loop's dP^T - Delta = V dO^T - Delta, [BLOCK_N, BLOCK_M], and
   its dO block (*d_o: loaded here unless the caller has) */
static void attn_bwd_dpT(tl_t desc_do, tl_t delta_ptr, tl_t v, tl_t off_y, tl_t start_m, tl_t offs_m, tl_t row_ok, int BLOCK_N, int BLOCK_M, tl_t *d_o,
                         tl_t *dpT)
{
    if (!d_o->id) *d_o = tl_desc_load(desc_do, (tl_add(off_y, start_m), 0));
    tl_t Di = tl_load(tl_add(delta_ptr, tl_add(off_y, offs_m)), .mask = row_ok);
    *dpT    = tl_dot(v, tl_trans(*d_o), tl_broadcast_to(tl_expand_dims(tl_neg(Di), 0), BLOCK_N, BLOCK_M));
}
/* attn_bwd_dkdv, and with fused set the fused backward (FlashAttention-2's):
   the same program per BLOCK_N keys, whose every iteration also adds its
   dQ contribution (dS K, sm_scale left out) to an f32 accumulator by
   tl_desc_atomic_add (on sm_90a the copy engine's
   cp.reduce.async.bulk.tensor); attn_bwd_dq_cast then scales it and rounds
   it to the dtype. Five dots a pair of blocks, where the split backward
   computes seven (its dQ kernel computes Q K^T and dO V^T again). The
   accumulator holds each head's dQ^T, [HEAD_DIM, N_CTX] rows of acc_stride
   floats (acc_rows = ZH * HEAD_DIM of them): the dot is then K^T dS^T,
   HEAD_DIM rows, which 8 warps run as wgmma (a 64-row dS K would be
   mma.sync there), reading K^T from the copy of K staged once before the
   loop, and its result goes out as it is, with no transpose. attn_bwd_pre
   zeroes the accumulator (meta FUSED). Keys past N_CTX (the next head's,
   which the last key block reads) add nothing to dQ: without a causal mask
   their rows of K are zeroed once, before the loop. The split kernel
   passes ATTN_UNUSED for dqa_ptr, acc_rows and acc_stride. */
static void attn_bwd_dkdv_body(tl_dtype dt, int fused, tl_t q_ptr, tl_t k_ptr, tl_t v_ptr, tl_t do_ptr, tl_t dk_ptr, tl_t dv_ptr, tl_t dqa_ptr, tl_t m_ptr,
                               tl_t delta_ptr, tl_t sm_scale, tl_t N_CTX, tl_t rows, tl_t acc_rows, tl_t acc_stride)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), D = TL_META(HEAD_DIM), causal = TL_META(CAUSAL);
    tl_t start_n = tl_mul(tl_program_id(0), BLOCK_N), off_y = tl_mul(tl_program_id(1), N_CTX);
    tl_t desc_q, desc_k, desc_v, desc_do, desc_dqa = ATTN_UNUSED, key_ok = ATTN_UNUSED, kT = ATTN_UNUSED;
    bwd_descs(q_ptr, k_ptr, v_ptr, do_ptr, rows, D, &desc_q, &desc_k, &desc_v, &desc_do);
    if (fused) desc_dqa = tl_make_tensor_descriptor(dqa_ptr, (acc_rows, N_CTX), (acc_stride, 1), (D, BLOCK_M));
    tl_t offs_n  = tl_add(start_n, tl_arange(0, BLOCK_N));
    if (fused) key_ok = tl_expand_dims(tl_lt(offs_n, N_CTX), 1);
    tl_t k       = tl_desc_load(desc_k, (tl_add(off_y, start_n), 0));
    if (fused) {
        if (!causal) k = tl_where(key_ok, k, tl_zeros_like(k));
        kT = tl_trans(k);
    }
    tl_t v       = tl_desc_load(desc_v, (tl_add(off_y, start_n), 0));
    tl_t dk = tl_zeros(TL_F32, BLOCK_N, D), dv = tl_zeros(TL_F32, BLOCK_N, D);
    tl_t qk_scale = tl_mul(sm_scale, 1.44269504);
    /* causal: the query blocks from the diagonal's on (BLOCK_N a multiple of
       BLOCK_M), the first BLOCK_N / BLOCK_M of them masked */
    tl_t lo = causal ? start_n : tl_zeros_like(start_n);
    tl_t unmasked = causal ? tl_add(start_n, BLOCK_N) : tl_zeros_like(start_n);
    if (TL_META_OR(WARP_SPECIALIZE, 0)) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (start_m, lo, N_CTX, BLOCK_M, dk, dv) {
        tl_t offs_m = tl_add(start_m, tl_arange(0, BLOCK_M));
        tl_t row_ok = tl_lt(offs_m, N_CTX);
        tl_t q      = tl_desc_load(desc_q, (tl_add(off_y, start_m), 0));
        tl_t m      = tl_load(tl_add(m_ptr, tl_add(off_y, offs_m)), .mask = row_ok, .other = INFINITY);   /* rows past N_CTX: P = 0 */
        tl_t qkT    = tl_dot(k, tl_trans(q));                                                          /* [BLOCK_N, BLOCK_M] */
        tl_t d_o    = ATTN_UNUSED, dpT = ATTN_UNUSED;
        /* dP^T - Delta; the dot accumulates onto -Delta, so Delta's
           registers die before it. At D=64 it is issued before the
           exponentials read K Q^T, so that on sm_90a its wgmmas run under
           them (FlashAttention-3's order; on an H100 the fused kernel at
           N=4096 ran 6% faster, 5.56 against 5.93 ms); at D=128 after the
           dV dot, where its 64x128 f32 tile held through the exponentials
           beside dK and dV spills (the 64x128 config 20.0 against 11.9 ms) */
        if (D <= 64) attn_bwd_dpT(desc_do, delta_ptr, v, off_y, start_m, offs_m, row_ok, BLOCK_N, BLOCK_M, &d_o, &dpT);
        /* causal: K Q^T masked to -inf (P^T = 0 there) before the exponentials,
           which then run on the masked tile alone (on an H100 the fused
           kernel at D=128 ran 2% faster than with P^T masked after them) */
        if (causal) {
            TL_IF (tl_lt(start_m, unmasked), qkT) {
                qkT = tl_where(tl_ge(tl_expand_dims(offs_m, 0), tl_expand_dims(offs_n, 1)), qkT, -INFINITY);
            }
        }
        tl_t pT     = tl_exp2(tl_fma(qkT, qk_scale, tl_neg(tl_expand_dims(m, 0))));
        if (D > 64) d_o = tl_desc_load(desc_do, (tl_add(off_y, start_m), 0));
        dv       = tl_dot(tl_cast(pT, dt), d_o, dv);
        if (D > 64) attn_bwd_dpT(desc_do, delta_ptr, v, off_y, start_m, offs_m, row_ok, BLOCK_N, BLOCK_M, &d_o, &dpT);
        tl_t dsT = tl_cast(tl_mul(pT, dpT), dt);
        dk       = tl_dot(dsT, q, dk);
        if (fused) tl_desc_atomic_add(desc_dqa, (tl_mul(tl_program_id(1), D), start_m), tl_dot(kT, dsT));
    }
    if (!fused) key_ok = tl_expand_dims(tl_lt(offs_n, N_CTX), 1);
    tl_t off = tl_add(tl_mul(tl_expand_dims(tl_add(off_y, offs_n), 1), D), tl_expand_dims(tl_arange(0, D), 0));
    tl_store(tl_add(dk_ptr, off), tl_cast(tl_mul(dk, sm_scale), dt), .mask = key_ok);
    tl_store(tl_add(dv_ptr, off), tl_cast(dv, dt), .mask = key_ok);
}
/* dQ = sm_scale * the fused backward's f32 accumulator, transposed back
   and rounded to the dtype: a program per BLOCK_M queries of one head */
static void attn_bwd_dq_cast_body(tl_dtype dt, tl_t dqa_ptr, tl_t dq_ptr, tl_t sm_scale, tl_t N_CTX, tl_t acc_stride)
{
    int BLOCK_M = TL_META(BLOCK_M), D = TL_META(HEAD_DIM);
    tl_t offs_m = tl_add(tl_mul(tl_program_id(0), BLOCK_M), tl_arange(0, BLOCK_M)), offs_d = tl_arange(0, D);
    tl_t hz     = tl_program_id(1);
    /* [D, BLOCK_M] of the accumulator: head hz's rows d, columns m */
    tl_t src = tl_add(tl_mul(tl_expand_dims(tl_add(tl_mul(hz, D), offs_d), 1), acc_stride), tl_expand_dims(offs_m, 0));
    tl_t acc = tl_load(tl_add(dqa_ptr, src), .mask = tl_expand_dims(tl_lt(offs_m, N_CTX), 0));
    tl_t dst = tl_add(tl_mul(tl_expand_dims(tl_add(tl_mul(hz, N_CTX), offs_m), 1), D), tl_expand_dims(offs_d, 0));
    tl_store(tl_add(dq_ptr, dst), tl_cast(tl_mul(tl_trans(acc), sm_scale), dt), .mask = tl_expand_dims(tl_lt(offs_m, N_CTX), 1));
}
#define BWD_PRE_PARAMS(ptr) (ptr, o), (ptr, d_o), (tl_ptr_f32, delta), (tl_ptr_f32, dq_acc), (tl_i32, rows), (tl_i32, N_CTX), (tl_i32, acc_stride)
#define BWD_DKDV_PARAMS(ptr)                                                                                                        \
    (ptr, q), (ptr, k), (ptr, v), (ptr, d_o), (ptr, dk), (ptr, dv), (tl_ptr_f32, m), (tl_ptr_f32, delta), (tl_f32, sm_scale), (tl_i32, N_CTX), \
        (tl_i32, rows)
#define BWD_DQ_PARAMS(ptr)                                                                                                                  \
    (ptr, q), (ptr, k), (ptr, v), (ptr, d_o), (ptr, dq), (tl_ptr_f32, m), (tl_ptr_f32, delta), (tl_f32, sm_scale), (tl_i32, N_CTX), (tl_i32, rows)
#define BWD_FUSED_PARAMS(ptr)                                                                                                      \
    (ptr, q), (ptr, k), (ptr, v), (ptr, d_o), (ptr, dk), (ptr, dv), (tl_ptr_f32, dq_acc), (tl_ptr_f32, m), (tl_ptr_f32, delta), (tl_f32, sm_scale), \
        (tl_i32, N_CTX), (tl_i32, rows), (tl_i32, acc_rows), (tl_i32, acc_stride)
#define BWD_DQ_CAST_PARAMS(ptr) (tl_ptr_f32, dq_acc), (ptr, dq), (tl_f32, sm_scale), (tl_i32, N_CTX), (tl_i32, acc_stride)
TILE_KERNEL(attn_bwd_pre, BWD_PRE_PARAMS(tl_ptr_f16)) { attn_bwd_pre_body(o, d_o, delta, dq_acc, rows, N_CTX, acc_stride); }
TILE_KERNEL(attn_bwd_pre_bf16, BWD_PRE_PARAMS(tl_ptr_bf16)) { attn_bwd_pre_body(o, d_o, delta, dq_acc, rows, N_CTX, acc_stride); }
TILE_KERNEL(attn_bwd_fused, BWD_FUSED_PARAMS(tl_ptr_f16))
{
    attn_bwd_dkdv_body(TL_F16, 1, q, k, v, d_o, dk, dv, dq_acc, m, delta, sm_scale, N_CTX, rows, acc_rows, acc_stride);
}
TILE_KERNEL(attn_bwd_fused_bf16, BWD_FUSED_PARAMS(tl_ptr_bf16))
{
    attn_bwd_dkdv_body(TL_BF16, 1, q, k, v, d_o, dk, dv, dq_acc, m, delta, sm_scale, N_CTX, rows, acc_rows, acc_stride);
}
TILE_KERNEL(attn_bwd_dq_cast, BWD_DQ_CAST_PARAMS(tl_ptr_f16)) { attn_bwd_dq_cast_body(TL_F16, dq_acc, dq, sm_scale, N_CTX, acc_stride); }
TILE_KERNEL(attn_bwd_dq_cast_bf16, BWD_DQ_CAST_PARAMS(tl_ptr_bf16)) { attn_bwd_dq_cast_body(TL_BF16, dq_acc, dq, sm_scale, N_CTX, acc_stride); }
TILE_KERNEL(attn_bwd_dkdv, BWD_DKDV_PARAMS(tl_ptr_f16)) {
    attn_bwd_dkdv_body(TL_F16, 0, q, k, v, d_o, dk, dv, ATTN_UNUSED, m, delta, sm_scale, N_CTX, rows, ATTN_UNUSED, ATTN_UNUSED);
}
TILE_KERNEL(attn_bwd_dkdv_bf16, BWD_DKDV_PARAMS(tl_ptr_bf16)) {
    attn_bwd_dkdv_body(TL_BF16, 0, q, k, v, d_o, dk, dv, ATTN_UNUSED, m, delta, sm_scale, N_CTX, rows, ATTN_UNUSED, ATTN_UNUSED);
}
TILE_KERNEL(attn_bwd_dq, BWD_DQ_PARAMS(tl_ptr_f16)) { attn_bwd_dq_body(TL_F16, q, k, v, d_o, dq, m, delta, sm_scale, N_CTX, rows); }
TILE_KERNEL(attn_bwd_dq_bf16, BWD_DQ_PARAMS(tl_ptr_bf16)) { attn_bwd_dq_body(TL_BF16, q, k, v, d_o, dq, m, delta, sm_scale, N_CTX, rows); }

#define ATTN_CONFIG(bm, bn, warps, stages, ws, ov) \
    {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"WARP_SPECIALIZE", ws}, {"OVERLAP", ov}}, .num_warps = warps, .num_stages = stages}
/* persistent (one program per multiprocessor looping over the tiles) and warp-specialized */
#define ATTN_CONFIG_PERSISTENT(bm, bn, warps, stages)                                                               \
    {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"WARP_SPECIALIZE", 1}, {"PERSISTENT", 1}}, .num_warps = warps, \
     .num_stages = stages}
/* On a GPU: BLOCK_N of 64 or 128 (wgmma's N for Q K^T, its K for P V), a
   warpgroup per 64 rows (128 rows on 4 warps for D = 64: the accumulators
   of 128 x 128 would not fit a thread's registers). Warp-specialized (WS
   1): a producer warpgroup issues the copies, and the two consumer
   warpgroups run apart, one's softmax beside the other's wgmmas; Q is
   staged once for both. At D = 128 that won on an H100 (2.05 ms against
   2.46 for the best config without it, Z=4 H=32 N=4096, non-causal).
   OVERLAP 1 (attn_configs_overlap, not tuned): FlashAttention-3's order
   within each warpgroup, the previous block's P V on the tensor cores
   during this block's softmax. It lost on an H100 (Z=4 H=32 N=4096 f16,
   non-causal: 2.66 ms against 2.29 at D=128, 1.98 against 1.14 at D=64;
   warp-specialized 2.23 against 1.89): its first block's Q K^T and last
   P V come outside the ring, it holds P across iterations (254 registers
   at D=128 where 171 do; at D=64, 212 instead of 128, one program a
   multiprocessor instead of two), and the deferred waits themselves win
   nothing measurable there. It is checked with ATTENTION_EVERY_CONFIG=1. */
static const tile_autotune_config attn_configs_d64[] = {
    ATTN_CONFIG(128, 128, 8, 3, 1, 0), ATTN_CONFIG(128, 64, 8, 4, 1, 0), ATTN_CONFIG(128, 128, 8, 2, 0, 0),
    ATTN_CONFIG(128, 64, 4, 3, 0, 0),  ATTN_CONFIG(64, 64, 4, 3, 0, 0),  ATTN_CONFIG(128, 128, 8, 3, 0, 0),
};
static const tile_autotune_config attn_configs_d128[] = {
    ATTN_CONFIG(128, 128, 8, 2, 1, 0), ATTN_CONFIG(128, 64, 8, 3, 1, 0), ATTN_CONFIG(128, 128, 8, 2, 0, 0),
    ATTN_CONFIG(128, 64, 8, 3, 0, 0),  ATTN_CONFIG(64, 64, 4, 3, 0, 0),
};
/* [D == 128]: the OVERLAP config of each head dim (in the interpreter, [2]) */
static const tile_autotune_config attn_configs_overlap[3] = {ATTN_CONFIG(128, 128, 8, 3, 0, 1), ATTN_CONFIG(128, 128, 8, 2, 0, 1),
                                                             ATTN_CONFIG(32, 16, 4, 2, 0, 1)};
/* [D == 128]: the PERSISTENT config of each head dim (in the interpreter, [2]) */
static const tile_autotune_config attn_configs_persistent[3] = {ATTN_CONFIG_PERSISTENT(128, 128, 8, 3), ATTN_CONFIG_PERSISTENT(128, 128, 8, 2),
                                                                ATTN_CONFIG_PERSISTENT(32, 16, 4, 2)};
/* In the interpreter: small blocks, so that CI runs it quickly */
static const tile_autotune_config attn_configs_interp[] = {ATTN_CONFIG(32, 16, 4, 2, 0, 0)};
/* the grid of a launch: a program per tile (BLOCK_M rows of a head), or
   persistent, one per multiprocessor (at most one per tile) */
static void attn_grid_of(long long N_CTX, long long ZH, long long BLOCK_M, int persistent, unsigned g[3])
{
    long long tiles = (N_CTX + BLOCK_M - 1) / BLOCK_M, sms = tile_device_sm_count();
    g[0] = (unsigned)tiles, g[1] = (unsigned)ZH, g[2] = 1;
    if (persistent) g[0] = (unsigned)(sms > 0 && sms < tiles * ZH ? sms : tiles * ZH), g[1] = 1;
}
static void attn_grid(const tile_tune_args *a, unsigned g[3])
{
    attn_grid_of(tile_tune_int(a, "N_CTX"), tile_tune_int(a, "ZH"), tile_tune_meta(a, "BLOCK_M"), (int)tile_tune_meta(a, "PERSISTENT"), g);
}
/* the config list for where kernels run */
static const tile_autotune_config *attn_configs(int D, int *n)
{
    if (strcmp(tile_backend_name(), "interp") == 0) {
        *n = (int)(sizeof attn_configs_interp / sizeof *attn_configs_interp);
        return attn_configs_interp;
    }
    *n = D == 128 ? (int)(sizeof attn_configs_d128 / sizeof *attn_configs_d128) : (int)(sizeof attn_configs_d64 / sizeof *attn_configs_d64);
    return D == 128 ? attn_configs_d128 : attn_configs_d64;
}
/* one tuner per dtype, head dim and causality (the user's meta-parameters) */
static tile_autotuner attn_tuners[2][2][2];
static tile_autotuner *attn_tuner(tl_dtype dt, int D, int causal)
{
    tile_autotuner *t = &attn_tuners[dt == TL_BF16][D == 128][causal];
    if (!t->configs) {
        t->key[0]  = "N_CTX";
        t->grid    = attn_grid;
        t->configs = attn_configs(D, &t->nconfigs);
    }
    return t;
}
/* the launch of config c (meta-parameters HEAD_DIM and CAUSAL first) over grid g */
static tile_launch config_launch(const tile_autotune_config *c, int D, int causal, unsigned g0, unsigned g1)
{
    tile_launch l;
    memset(&l, 0, sizeof l);
    l.meta[0].name = "HEAD_DIM", l.meta[0].value = D;
    l.meta[1].name = "CAUSAL", l.meta[1].value = causal;
    for (int i = 0; i + 2 < TILE_MAX_META && c->meta[i].name; i++) l.meta[i + 2] = c->meta[i];
    l.num_warps = c->num_warps, l.num_stages = c->num_stages, l.grid[0] = g0, l.grid[1] = g1;
    l.file = __FILE__, l.line = __LINE__;
    return l;
}
/* O and M of attention for Z*H heads of N_CTX rows: tuned, or with config
   cfg when given */
static tile_status attention_with(const tile_autotune_config *cfg, tl_dtype dt, int D, int causal, void *q, void *k, void *v, void *o, float *m,
                                  float sm_scale, int ZH, int N_CTX)
{
    tile_arg args[9];
    args[0].p = q, args[1].p = k, args[2].p = v, args[3].p = o, args[4].p = m;
    args[5].f = sm_scale, args[6].i = ZH, args[7].i = N_CTX, args[8].i = (int64_t)ZH * N_CTX;
    tile_kernel *kern = dt == TL_BF16 ? TILE_KERNEL_OF(attn_fwd_bf16) : TILE_KERNEL_OF(attn_fwd);
    if (!cfg) return tile_launch_kernel(kern, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}, .tune = attn_tuner(dt, D, causal)), args);
    tile_launch l = config_launch(cfg, D, causal, 1, 1);
    attn_grid_of(N_CTX, ZH, tile_meta_of(&l, "BLOCK_M"), (int)tile_meta_of(&l, "PERSISTENT"), l.grid);
    return tile_launch_kernel(kern, &l, args);
}

/* ---- the backward's configs and launches ----
   attn_bwd_dkdv: BLOCK_N keys a program (the dots' M), BLOCK_M queries an
   iteration; attn_bwd_dq the other way round. Causal needs the program's
   block a multiple of the loop's. */
#define BWD_CONFIG(bm, bn, warps, stages) {.meta = {{"BLOCK_M", bm}, {"BLOCK_N", bn}}, .num_warps = warps, .num_stages = stages}
/* (WARP_SPECIALIZE=1 in a config's meta warp-specializes the loop, as in
   the forward; on an H100 it lost on every backward row (dK/dV D=64
   64x128: 4.97 ms against 3.84 for the best; dQ 128x64: 4.31 against 3.35
   at D=64, 5.42 against 4.88 at D=128), so no list has it) */
static const tile_autotune_config bwd_dkdv_configs_gpu[] = {BWD_CONFIG(64, 128, 8, 2), BWD_CONFIG(64, 64, 4, 3), BWD_CONFIG(64, 128, 8, 3)};
/* D = 128: dK and dV of 128 keys on 8 warps fill the registers (254 with
   Delta folded into dP^T's dot; warp-specialized, the consumers' 232 would
   spill); on an H100 (N=4096) 7.76 ms against 9.59 for 64 keys on 4 warps */
static const tile_autotune_config bwd_dkdv_configs_d128[] = {BWD_CONFIG(64, 128, 8, 2), BWD_CONFIG(64, 128, 8, 3), BWD_CONFIG(64, 64, 4, 3),
                                                             BWD_CONFIG(64, 64, 4, 2)};
static const tile_autotune_config bwd_dq_configs_gpu[] = {BWD_CONFIG(128, 64, 8, 2), BWD_CONFIG(64, 64, 4, 3), BWD_CONFIG(128, 64, 8, 3)};
static const tile_autotune_config bwd_dkdv_configs_interp[] = {BWD_CONFIG(16, 32, 4, 2)};
static const tile_autotune_config bwd_dq_configs_interp[] = {BWD_CONFIG(32, 16, 4, 2)};
static void bwd_dkdv_grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "N_CTX"), tile_tune_meta(a, "BLOCK_N"));
    g[1] = (unsigned)(tile_tune_int(a, "rows") / tile_tune_int(a, "N_CTX"));
}
static void bwd_dq_grid(const tile_tune_args *a, unsigned g[3])
{
    g[0] = tile_cdiv(tile_tune_int(a, "N_CTX"), tile_tune_meta(a, "BLOCK_M"));
    g[1] = (unsigned)(tile_tune_int(a, "rows") / tile_tune_int(a, "N_CTX"));
}
/* [kernel: 0 dkdv, 1 dq, 2 fused][bf16][D 128][causal]; the fused kernel
   has dK/dV's shape (a program per key block), so dK/dV's lists */
static tile_autotuner bwd_tuners[3][2][2][2];
static tile_autotuner *bwd_tuner(int which, tl_dtype dt, int D, int causal)
{
    tile_autotuner *t = &bwd_tuners[which][dt == TL_BF16][D == 128][causal];
    if (!t->configs) {
        int interp = strcmp(tile_backend_name(), "interp") == 0;
        t->key[0] = "N_CTX";
        t->grid   = which == 1 ? bwd_dq_grid : bwd_dkdv_grid;
        /* the fused kernel adds into dq_acc: each timed run starts from the
           zeros attn_bwd_pre wrote, and so does the real launch */
        if (which == 2) t->restore_value[0] = "dq_acc";
#define BWD_LIST(list) t->configs = list, t->nconfigs = (int)(sizeof list / sizeof *list)
        if (which == 1 && interp) BWD_LIST(bwd_dq_configs_interp);
        else if (which == 1) BWD_LIST(bwd_dq_configs_gpu);
        else if (interp) BWD_LIST(bwd_dkdv_configs_interp);
        else if (D == 128) BWD_LIST(bwd_dkdv_configs_d128);
        else BWD_LIST(bwd_dkdv_configs_gpu);
#undef BWD_LIST
    }
    return t;
}
/* The backward's scratch, in floats: Delta (ZH*N_CTX, rounded up to 32 so
   that what follows starts on 128 bytes, as a tensor descriptor's base
   must be 16-byte aligned), then the fused backward's f32 dQ accumulator */
static size_t bwd_delta_floats(int ZH, int N_CTX) { return ((size_t)ZH * N_CTX + 31) / 32 * 32; }
/* the accumulator holds dQ^T of each head, [ZH * D, N_CTX] with rows of
   N_CTX rounded up to 4 floats (a descriptor's row stride is a multiple
   of 16 bytes) */
static int bwd_acc_stride(int N_CTX) { return (N_CTX + 3) / 4 * 4; }
static size_t attention_backward_scratch_floats(int ZH, int N_CTX, int D)
{
    return bwd_delta_floats(ZH, N_CTX) + (size_t)ZH * D * (size_t)bwd_acc_stride(N_CTX);
}
/* ATTENTION_BWD=split: the split backward (dK/dV, then dQ) instead of the fused one */
static int bwd_fused(void)
{
    const char *e = getenv("ATTENTION_BWD");
    return !(e && strcmp(e, "split") == 0);
}
static tile_launch bwd_config_launch(const tile_autotune_config *cfg, int D, int causal, int N_CTX, int ZH, const char *block)
{
    tile_launch l = config_launch(cfg, D, causal, 1, (unsigned)ZH);
    l.grid[0] = (unsigned)((N_CTX + tile_meta_of(&l, block) - 1) / tile_meta_of(&l, block));
    return l;
}
/* dQ, dK, dV of attention from Q, K, V, O and M of the forward and dO;
   ws is attention_backward_scratch_floats(ZH, N_CTX, D) floats of scratch.
   fused: one kernel for dK, dV and dQ (attn_bwd_fused, then
   attn_bwd_dq_cast), else dK/dV and dQ by two. Tuned, or with the
   configs cfg[0] (fused, or dK/dV) and cfg[1] (dQ) when cfg is given. */
static tile_status attention_backward_with(int fused, const tile_autotune_config *const *cfg, tl_dtype dt, int D, int causal, void *q, void *k,
                                           void *v, void *o, const float *m, void *d_o, void *dq, void *dk, void *dv, float *ws, float sm_scale,
                                           int ZH, int N_CTX)
{
    int bf = dt == TL_BF16;
    int64_t rows = (int64_t)ZH * N_CTX;
    float *delta = ws, *dq_acc = ws + bwd_delta_floats(ZH, N_CTX);
    tile_arg pre[7];
    pre[0].p = o, pre[1].p = d_o, pre[2].p = delta, pre[3].p = dq_acc, pre[4].i = rows, pre[5].i = N_CTX, pre[6].i = bwd_acc_stride(N_CTX);
    unsigned pre_grid = (unsigned)((rows + 63) / 64);
    tile_status st = tile_launch_kernel(bf ? TILE_KERNEL_OF(attn_bwd_pre_bf16) : TILE_KERNEL_OF(attn_bwd_pre),
                                        TILE_OPTS(.grid = {pre_grid}, .meta = {{"BLOCK_M", 64}, {"HEAD_DIM", D}, {"FUSED", fused}}), pre);
    if (st != TILE_OK) return st;
    if (fused) {
        tile_arg a[14];
        a[0].p = q, a[1].p = k, a[2].p = v, a[3].p = d_o, a[4].p = dk, a[5].p = dv, a[6].p = dq_acc, a[7].p = (void *)m, a[8].p = delta;
        a[9].f = sm_scale, a[10].i = N_CTX, a[11].i = rows, a[12].i = (int64_t)ZH * D, a[13].i = bwd_acc_stride(N_CTX);
        tile_kernel *kf = bf ? TILE_KERNEL_OF(attn_bwd_fused_bf16) : TILE_KERNEL_OF(attn_bwd_fused);
        if (cfg) {
            tile_launch l = bwd_config_launch(cfg[0], D, causal, N_CTX, ZH, "BLOCK_N");
            st = tile_launch_kernel(kf, &l, a);
        } else {
            st = tile_launch_kernel(kf, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}, .tune = bwd_tuner(2, dt, D, causal)), a);
        }
        if (st != TILE_OK) return st;
        tile_arg c[5];
        c[0].p = dq_acc, c[1].p = dq, c[2].f = sm_scale, c[3].i = N_CTX, c[4].i = bwd_acc_stride(N_CTX);
        return tile_launch_kernel(bf ? TILE_KERNEL_OF(attn_bwd_dq_cast_bf16) : TILE_KERNEL_OF(attn_bwd_dq_cast),
                                  TILE_OPTS(.grid = {(unsigned)((N_CTX + 63) / 64), (unsigned)ZH}, .meta = {{"BLOCK_M", 64}, {"HEAD_DIM", D}}), c);
    }
    tile_arg a[11];
    a[0].p = q, a[1].p = k, a[2].p = v, a[3].p = d_o, a[4].p = dk, a[5].p = dv, a[6].p = (void *)m, a[7].p = delta;
    a[8].f = sm_scale, a[9].i = N_CTX, a[10].i = rows;
    tile_kernel *kdkdv = bf ? TILE_KERNEL_OF(attn_bwd_dkdv_bf16) : TILE_KERNEL_OF(attn_bwd_dkdv);
    tile_kernel *kdq = bf ? TILE_KERNEL_OF(attn_bwd_dq_bf16) : TILE_KERNEL_OF(attn_bwd_dq);
    if (cfg) {
        tile_launch l = bwd_config_launch(cfg[0], D, causal, N_CTX, ZH, "BLOCK_N");
        st = tile_launch_kernel(kdkdv, &l, a);
    } else {
        st = tile_launch_kernel(kdkdv, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}, .tune = bwd_tuner(0, dt, D, causal)), a);
    }
    if (st != TILE_OK) return st;
    a[4].p = dq, a[5].p = (void *)m, a[6].p = delta, a[7].f = sm_scale, a[8].i = N_CTX, a[9].i = rows;
    if (cfg) {
        tile_launch l = bwd_config_launch(cfg[1], D, causal, N_CTX, ZH, "BLOCK_M");
        return tile_launch_kernel(kdq, &l, a);
    }
    return tile_launch_kernel(kdq, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}, .tune = bwd_tuner(1, dt, D, causal)), a);
}
static tile_status attention_backward(tl_dtype dt, int D, int causal, void *q, void *k, void *v, void *o, const float *m, void *d_o, void *dq,
                                      void *dk, void *dv, float *ws, float sm_scale, int ZH, int N_CTX)
{
    return attention_backward_with(bwd_fused(), NULL, dt, D, causal, q, k, v, o, m, d_o, dq, dk, dv, ws, sm_scale, ZH, N_CTX);
}

static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "attention: out of memory\n");
        exit(1);
    }
    return p;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)rand() / (double)RAND_MAX; }
static double elem_get(tl_dtype dt, const void *p, size_t i)
{
    return dt == TL_BF16 ? tile_bf16_to(((const tile_bf16 *)p)[i]) : tile_f16_to(((const tile_f16 *)p)[i]);
}
static void elem_set(tl_dtype dt, void *p, size_t i, double v)
{
    if (dt == TL_BF16) ((tile_bf16 *)p)[i] = tile_bf16_from(v);
    else ((tile_f16 *)p)[i] = tile_f16_from(v);
}

/* The backward of one case against float64 (P, O, Delta, dP and dS of the
   rounded inputs and dO): every element of dQ, dK and dV within a few
   units of the dtype's last place of the largest of each; 1 when right. */
static int check_backward(tl_dtype dt, int D, int causal, int ZH, int N, const void *hq, const void *hk, const void *hv, void *q, void *k, void *v,
                          void *o, const float *m, float sm_scale)
{
    size_t n = (size_t)ZH * N * D, es = 2;
    void *hdo = need(malloc(n * es)), *hg[3];
    for (size_t i = 0; i < n; i++) elem_set(dt, hdo, i, uniform(-1, 1));
    void *d_o = need(tile_malloc(n * es)), *g[3];
    size_t ws_bytes = attention_backward_scratch_floats(ZH, N, D) * sizeof(float);
    float *ws = need(tile_malloc(ws_bytes));
    tile_memcpy_htod(d_o, hdo, n * es);
    for (int t = 0; t < 3; t++) g[t] = need(tile_malloc(n * es)), hg[t] = need(malloc(n * es));
    /* float64: want[0..2] = dQ, dK, dV */
    double *want = need(calloc(3 * n, sizeof(double))), *p = need(malloc((size_t)N * sizeof(double))), *dp = need(malloc((size_t)N * sizeof(double)));
    for (int zh = 0; zh < ZH; zh++) {
        size_t base = (size_t)zh * N;
        for (int i = 0; i < N; i++) {
            int last = causal ? i : N - 1;
            double mx = -INFINITY, sum = 0, delta_i = 0;
            for (int j = 0; j <= last; j++) {
                double s = 0;
                for (int d = 0; d < D; d++) s += elem_get(dt, hq, (base + i) * D + d) * elem_get(dt, hk, (base + j) * D + d);
                p[j] = s * sm_scale;
                mx = fmax(mx, p[j]);
            }
            for (int j = 0; j <= last; j++) sum += p[j] = exp(p[j] - mx);
            for (int j = 0; j <= last; j++) p[j] /= sum;
            for (int d = 0; d < D; d++) {
                double od = 0;
                for (int j = 0; j <= last; j++) od += p[j] * elem_get(dt, hv, (base + j) * D + d);
                delta_i += od * elem_get(dt, hdo, (base + i) * D + d);
            }
            for (int j = 0; j <= last; j++) {
                double x = 0;
                for (int d = 0; d < D; d++) x += elem_get(dt, hdo, (base + i) * D + d) * elem_get(dt, hv, (base + j) * D + d);
                dp[j] = p[j] * (x - delta_i);   /* dS */
            }
            for (int j = 0; j <= last; j++)
                for (int d = 0; d < D; d++) {
                    want[(base + i) * D + d] += sm_scale * dp[j] * elem_get(dt, hk, (base + j) * D + d);
                    want[n + (base + j) * D + d] += sm_scale * dp[j] * elem_get(dt, hq, (base + i) * D + d);
                    want[2 * n + (base + j) * D + d] += p[j] * elem_get(dt, hdo, (base + i) * D + d);
                }
        }
    }
    /* attention_backward (the fused backward unless ATTENTION_BWD=split),
       then the other one, each into outputs and scratch poisoned with NaN
       (0xff bytes) */
    double ulp = dt == TL_BF16 ? 1.0 / 128 : 1.0 / 1024;
    int ok = 1;
    for (int round = 0; round < 2; round++) {
        int fused = round ? !bwd_fused() : bwd_fused();
        double err[3] = {0, 0, 0};
        for (int t = 0; t < 3; t++) tile_memset(g[t], 0xff, n * es);
        tile_memset(ws, 0xff, ws_bytes);
        tile_status st = round ? attention_backward_with(fused, NULL, dt, D, causal, q, k, v, o, m, d_o, g[0], g[1], g[2], ws, sm_scale, ZH, N)
                               : attention_backward(dt, D, causal, q, k, v, o, m, d_o, g[0], g[1], g[2], ws, sm_scale, ZH, N);
        for (int t = 0; t < 3; t++) tile_memcpy_dtoh(hg[t], g[t], n * es);
        for (int t = 0; t < 3; t++) {
            double mag = 1e-3;
            for (size_t i = 0; i < n; i++) mag = fmax(mag, fabs(want[t * n + i]));
            for (size_t i = 0; i < n; i++) {
                double e = fabs(elem_get(dt, hg[t], i) - want[t * n + i]) / (8 * ulp * mag);
                if (e > err[t] || e != e) err[t] = e;
            }
        }
        int one = st == TILE_OK && err[0] <= 1 && err[1] <= 1 && err[2] <= 1;
        printf("attn_bwd %s %s D=%d %s: Z*H=%d N=%d, max error of tolerance vs float64: dQ %.2f dK %.2f dV %.2f: %s\n", fused ? "fused" : "split",
               tile_dtype_name(dt), D, causal ? "causal" : "full", ZH, N, err[0], err[1], err[2], one ? "OK" : "FAILED");
        if (st != TILE_OK) printf("  %s\n", tile_last_error());
        ok &= one;
    }
    tile_free(d_o), tile_free(ws);
    for (int t = 0; t < 3; t++) tile_free(g[t]), free(hg[t]);
    free(hdo), free(want), free(p), free(dp);
    return ok;
}
/* Run and check one case, tuned or with config cfg; 1 when right. The
   reference: float64 softmax of the rounded inputs; the tolerance a few
   units of the dtype's last place (|O| <= 1: V is in [-1, 1]). */
static int run_one(const tile_autotune_config *cfg_in, tl_dtype dt, int D, int causal, int Z, int H, int N)
{
    size_t n = (size_t)Z * H * N * D, es = 2;
    void *hq = need(malloc(n * es)), *hk = need(malloc(n * es)), *hv = need(malloc(n * es)), *ho = need(malloc(n * es));
    float *hm = need(malloc((size_t)Z * H * N * sizeof(float)));
    for (size_t i = 0; i < n; i++) {
        elem_set(dt, hq, i, uniform(-1, 1));
        elem_set(dt, hk, i, uniform(-1, 1));
        elem_set(dt, hv, i, uniform(-1, 1));
    }
    void *q = need(tile_malloc(n * es)), *k = need(tile_malloc(n * es)), *v = need(tile_malloc(n * es)), *o = need(tile_malloc(n * es));
    float *m = need(tile_malloc((size_t)Z * H * N * sizeof(float)));
    tile_memcpy_htod(q, hq, n * es);
    tile_memcpy_htod(k, hk, n * es);
    tile_memcpy_htod(v, hv, n * es);
    tile_memset(o, 0xff, n * es);   /* NaN: an element never written shows */
    tile_memset(m, 0xff, (size_t)Z * H * N * sizeof(float));
    float sm_scale = (float)(1.0 / sqrt((double)D));
    tile_status st = attention_with(cfg_in, dt, D, causal, q, k, v, o, m, sm_scale, Z * H, N);
    tile_memcpy_dtoh(ho, o, n * es);
    tile_memcpy_dtoh(hm, m, (size_t)Z * H * N * sizeof(float));
    double ulp = dt == TL_BF16 ? 1.0 / 128 : 1.0 / 1024, err = 0;
    double *s = need(malloc((size_t)N * sizeof(double)));
    int all = (size_t)N <= 256, nrows = all ? N : 64;
    for (int zh = 0; zh < Z * H; zh++)
        for (int r = 0; r < nrows; r++) {
            int i = all ? r : (int)(((unsigned)rand() * 7919u) % (unsigned)N);
            size_t base = (size_t)zh * N;
            double mx = -INFINITY, sum = 0;
            int last = causal ? i : N - 1;
            for (int j = 0; j <= last; j++) {
                double dotv = 0;
                for (int d = 0; d < D; d++) dotv += elem_get(dt, hq, (base + i) * D + d) * elem_get(dt, hk, (base + j) * D + d);
                s[j] = dotv * sm_scale;
                if (s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= last; j++) sum += s[j] = exp(s[j] - mx);
            for (int d = 0; d < D; d++) {
                double want = 0;
                for (int j = 0; j <= last; j++) want += s[j] * elem_get(dt, hv, (base + j) * D + d);
                want /= sum;
                double e = fabs(elem_get(dt, ho, (base + i) * D + d) - want) / (4 * ulp);
                if (e > err || e != e) err = e;
            }
            double lse = (mx + log(sum)) / log(2.0), e = fabs(hm[base + i] - lse) / (1e-4 * (1 + fabs(lse)));
            if (e > err || e != e) err = e;
        }
    tile_launch best;
    char cfg[96] = "?";
    tile_arg args[9];
    args[0].p = q, args[1].p = k, args[2].p = v, args[3].p = o, args[4].p = m;
    args[5].f = sm_scale, args[6].i = Z * H, args[7].i = N, args[8].i = (int64_t)Z * H * N;
    tile_kernel *kern = dt == TL_BF16 ? TILE_KERNEL_OF(attn_fwd_bf16) : TILE_KERNEL_OF(attn_fwd);
    memset(&best, 0, sizeof best);
    if (cfg_in) {
        memcpy(best.meta, cfg_in->meta, sizeof cfg_in->meta);
        best.num_warps = cfg_in->num_warps, best.num_stages = cfg_in->num_stages;
    }
    if (st == TILE_OK &&
        (cfg_in || tile_autotune_best(attn_tuner(dt, D, causal), kern, TILE_OPTS(.meta = {{"HEAD_DIM", D}, {"CAUSAL", causal}}), args, &best) == TILE_OK))
        snprintf(cfg, sizeof cfg, "%lldx%lld, %d warps, %d stages%s%s%s", tile_meta_of(&best, "BLOCK_M"), tile_meta_of(&best, "BLOCK_N"),
                 best.num_warps, best.num_stages, tile_meta_of(&best, "WARP_SPECIALIZE") ? ", warp-specialized" : "",
                 tile_meta_of(&best, "PERSISTENT") ? ", persistent" : "", tile_meta_of(&best, "OVERLAP") ? ", overlapped" : "");
    int ok = st == TILE_OK && err <= 1;
    printf("attn_fwd %s D=%d %s: Z=%d H=%d N=%d (%s: %s), max error %.2f of tolerance vs float64: %s\n", tile_dtype_name(dt), D,
           causal ? "causal" : "full", Z, H, N, cfg_in ? "config" : "tuned", cfg, err, ok ? "OK" : "FAILED");
    if (st != TILE_OK) printf("  %s\n", tile_last_error());
    if (!cfg_in && st == TILE_OK) ok &= check_backward(dt, D, causal, Z * H, N, hq, hk, hv, q, k, v, o, m, sm_scale);
    tile_free(q), tile_free(k), tile_free(v), tile_free(o), tile_free(m);
    free(hq), free(hk), free(hv), free(ho), free(hm), free(s);
    return ok;
}

int main(int argc, char **argv)
{
    int Z = argc > 3 ? atoi(argv[1]) : 1, H = argc > 3 ? atoi(argv[2]) : 2, N = argc > 3 ? atoi(argv[3]) : 100;
    if (Z < 1 || H < 1 || N < 1) {
        fprintf(stderr, "usage: attention [Z H N_CTX]\n");
        return 2;
    }
    /* ATTENTION_EVERY_CONFIG=1: each config of the list, not the tuner's pick */
    const char *every = getenv("ATTENTION_EVERY_CONFIG");
    int all = every && *every == '1';
    srand(1);
    int ok = 1;
    for (int d = 0; d < 2; d++)
        for (int D = 64; D <= 128; D *= 2)
            for (int causal = 0; causal < 2; causal++) {
                int nc = 1;
                const tile_autotune_config *list = attn_configs(D, &nc);
                /* every config: the list's, then the OVERLAP and PERSISTENT
                   ones; otherwise (at the default sizes) the PERSISTENT one,
                   then the tuned */
                int interp = strcmp(tile_backend_name(), "interp") == 0, which = interp ? 2 : D == 128;
                for (int c = all ? 0 : argc <= 3 ? -1 : 0; c < (all ? nc + 2 : 1); c++) {
                    const tile_autotune_config *cfg = c < 0 || c == nc + 1 ? &attn_configs_persistent[which]
                                                      : !all               ? NULL
                                                      : c < nc             ? &list[c]
                                                                           : &attn_configs_overlap[which];
                    ok &= run_one(cfg, d ? TL_BF16 : TL_F16, D, causal, Z, H, N);
                    if (argc <= 3) ok &= run_one(cfg, d ? TL_BF16 : TL_F16, D, causal, 1, 1, 1);
                }
            }
    return ok ? 0 : 1;
}
