/* examples/cpp/attention.cpp — Triton's tutorial 06 in C++: the fused
   attention forward (FlashAttention), softmax(Q K^T * sm_scale) V.

   The forward kernels of examples/attention.c with tile.hpp's operators
   (the same IR: tests/golden.sh): one program per BLOCK_M rows of one head,
   Q, K and V read through tensor descriptors, K used transposed, a TL_FOR
   over the keys carrying the row maxima m_i, the row sums l_i and the
   output accumulator (the online softmax in base 2, the scale folded into
   one fma), the masked blocks (the diagonal under causal, the last partial
   one) in a TL_IF; M = m + log2(l) per row for the backward. One config
   per head dim (the C twin tunes; its README section has the numbers).
   Checked against a float64 softmax of the same inputs at every row, f16
   and bf16, D = 64 and 128, causal and not. */
#include "tile.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

using tl::_;
using tl::None;

static void attn_fwd_body(tl_dtype dt, tl::tensor q_ptr, tl::tensor k_ptr, tl::tensor v_ptr, tl::tensor o_ptr, tl::tensor m_ptr,
                          tl::tensor sm_scale, tl::tensor ZH, tl::tensor N_CTX, tl::tensor rows)
{
    int BLOCK_M = TL_META(BLOCK_M), BLOCK_N = TL_META(BLOCK_N), D = TL_META(HEAD_DIM), causal = TL_META(CAUSAL);
    int ws = TL_META_OR(WARP_SPECIALIZE, 0);
    int no_softmax = TL_META_OR(NO_SOFTMAX, 0);   // a measurement aid: P = QK^T, what the tensor cores alone take
    (void)ZH;
    tl::tensor start_m = tl::program_id(0), off_hz = tl::program_id(1);
    if (causal) start_m = tl::num_programs(0) - 1 - start_m;   // the longest query blocks first (as the C example)
    tl::tensor desc_q  = tl::make_tensor_descriptor(q_ptr, {rows, D}, {D, 1}, {BLOCK_M, D});
    tl::tensor desc_k  = tl::make_tensor_descriptor(k_ptr, {rows, D}, {D, 1}, {BLOCK_N, D});
    tl::tensor desc_v  = tl::make_tensor_descriptor(v_ptr, {rows, D}, {D, 1}, {BLOCK_N, D});
    tl::tensor off_y   = off_hz * N_CTX;
    tl::tensor offs_m  = start_m * BLOCK_M + tl::arange(0, BLOCK_M);
    tl::tensor q       = tl::desc_load(desc_q, {off_y + start_m * BLOCK_M, 0});
    tl::tensor m_i     = tl::full({BLOCK_M}, -INFINITY, tl::float32);
    tl::tensor l_i     = tl::full({BLOCK_M}, 1.0, tl::float32);
    tl::tensor acc     = tl::zeros({BLOCK_M, D}, tl::float32);
    tl::tensor qk_scale = sm_scale * 1.44269504;   // exp(x) = exp2(x log2 e)
    // the keys: all (causal: up to the diagonal block); blocks from `mask`
    // on are masked (the diagonal's under causal, else the last partial one)
    tl::tensor hi   = causal ? tl::tensor(tl::minimum((start_m + 1) * BLOCK_M, N_CTX)) : N_CTX;
    tl::tensor mask = causal ? tl::tensor(start_m * BLOCK_M) : tl::tensor(tl::floordiv(N_CTX, BLOCK_N) * BLOCK_N);
    if (ws) TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (start_n, 0, hi, BLOCK_N, m_i, l_i, acc) {
        tl::tensor k  = tl::desc_load(desc_k, {off_y + start_n, 0});
        tl::tensor qk = tl::dot(q, tl::trans(k));
        TL_IF (start_n >= mask, qk) {
            tl::tensor cols = (start_n + tl::arange(0, BLOCK_N))(None, _);
            tl::tensor ok   = cols < N_CTX;
            if (causal) ok = tl::logical_and(ok, offs_m(_, None) >= cols);
            qk = tl::where(ok, qk, -INFINITY);
        }
        tl::tensor v = tl::desc_load(desc_v, {off_y + start_n, 0});
        if (no_softmax) {
            acc = tl::dot(qk.to(dt), v, acc);
        } else {
            // the online softmax, in base 2 with the scale folded into one fma
            tl::tensor m_ij  = tl::maximum(m_i, tl::max(qk, 1) * qk_scale);
            tl::tensor p     = tl::exp2(tl::fma(qk, qk_scale, -m_ij(_, None)));
            tl::tensor alpha = tl::exp2(m_i - m_ij);
            l_i = l_i * alpha + tl::sum(p, 1);
            acc = acc * alpha(_, None);
            acc = tl::dot(p.to(dt), v, acc);
            m_i = m_ij;
        }
    }
    // the rows of this head only
    tl::tensor row_ok = offs_m < N_CTX;
    tl::store(m_ptr + (off_y + offs_m), m_i + tl::log2(l_i), {.mask = row_ok});
    acc = acc / l_i(_, None);
    tl::tensor o_off = (off_y + offs_m)(_, None) * D + tl::arange(0, D)(None, _);
    tl::store(o_ptr + o_off, acc.to(dt), {.mask = row_ok(_, None)});
}

#define ATTN_PARAMS(ptr) (ptr, q), (ptr, k), (ptr, v), (ptr, o), (tl_ptr_f32, m), (tl_f32, sm_scale), (tl_i32, ZH), (tl_i32, N_CTX), (tl_i32, rows)
TILE_KERNEL(attn_fwd, ATTN_PARAMS(tl_ptr_f16)) { attn_fwd_body(TL_F16, q, k, v, o, m, sm_scale, ZH, N_CTX, rows); }
TILE_KERNEL(attn_fwd_bf16, ATTN_PARAMS(tl_ptr_bf16)) { attn_fwd_body(TL_BF16, q, k, v, o, m, sm_scale, ZH, N_CTX, rows); }

// host storage of f16 / bf16
static double to_double(tl_dtype dt, uint16_t h)
{
    tile_f16 f;
    tile_bf16 b;
    if (dt == TL_BF16) return std::memcpy(&b, &h, 2), tile_bf16_to(b);
    return std::memcpy(&f, &h, 2), tile_f16_to(f);
}
static uint16_t from_double(tl_dtype dt, double x)
{
    uint16_t h;
    if (dt == TL_BF16) {
        tile_bf16 b = tile_bf16_from(x);
        std::memcpy(&h, &b, 2);
    } else {
        tile_f16 f = tile_f16_from(x);
        std::memcpy(&h, &f, 2);
    }
    return h;
}

static bool run_one(tl_dtype dt, int D, int causal, int ZH, int N)
{
    const bool interp = std::strcmp(tile_backend_name(), "interp") == 0;
    // in the interpreter small blocks (the C twin's interpreter config); on a GPU one of its tuned list's
    int BM = interp ? 32 : 128, BN = interp ? 16 : 64, warps = interp ? 4 : (D == 128 ? 8 : 4), stages = interp ? 2 : 3;
    size_t n = (size_t)ZH * N * D, bytes = n * 2;
    std::vector<uint16_t> hq(n), hk(n), hv(n), ho(n);
    std::vector<float> hm((size_t)ZH * N);
    for (size_t i = 0; i < n; i++) {
        hq[i] = from_double(dt, 2.0 * std::rand() / RAND_MAX - 1);
        hk[i] = from_double(dt, 2.0 * std::rand() / RAND_MAX - 1);
        hv[i] = from_double(dt, 2.0 * std::rand() / RAND_MAX - 1);
    }
    void *q = tile_malloc(bytes), *k = tile_malloc(bytes), *v = tile_malloc(bytes), *o = tile_malloc(bytes);
    float *m = (float *)tile_malloc(hm.size() * sizeof(float));
    if (!q || !k || !v || !o || !m) {
        std::fprintf(stderr, "attention: out of memory\n");
        std::exit(1);
    }
    tile_memcpy_htod(q, hq.data(), bytes);
    tile_memcpy_htod(k, hk.data(), bytes);
    tile_memcpy_htod(v, hv.data(), bytes);
    tile_memset(o, 0xff, bytes);                          // NaN: a row never written shows
    tile_memset(m, 0xff, hm.size() * sizeof(float));
    float sm_scale = (float)(1.0 / std::sqrt((double)D));
    tl::opts opts({.grid = {tile_cdiv(N, BM), (unsigned)ZH},
                   .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"HEAD_DIM", D}, {"CAUSAL", causal}},
                   .num_warps = warps,
                   .num_stages = stages});
    tile_status st = dt == TL_BF16 ? attn_fwd_bf16(opts, (tile_bf16 *)q, (tile_bf16 *)k, (tile_bf16 *)v, (tile_bf16 *)o, m, sm_scale, ZH, N, ZH * N)
                                   : attn_fwd(opts, (tile_f16 *)q, (tile_f16 *)k, (tile_f16 *)v, (tile_f16 *)o, m, sm_scale, ZH, N, ZH * N);
    if (st != TILE_OK) std::fprintf(stderr, "%s\n", tile_last_error());
    tile_memcpy_dtoh(ho.data(), o, bytes);
    tile_memcpy_dtoh(hm.data(), m, hm.size() * sizeof(float));

    // float64 of the rounded inputs; O within 4 units of the dtype's last place (V in [-1, 1]), M relative 1e-4
    double ulp = dt == TL_BF16 ? 1.0 / 128 : 1.0 / 1024, err_o = 0, err_m = 0;
    std::vector<double> s(N);
    for (int h = 0; h < ZH; h++)
        for (int i = 0; i < N; i++) {
            const uint16_t *qi = &hq[((size_t)h * N + i) * D];
            int last = causal ? i : N - 1;
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j <= last; j++) {
                const uint16_t *kj = &hk[((size_t)h * N + j) * D];
                double dotv = 0;
                for (int d = 0; d < D; d++) dotv += to_double(dt, qi[d]) * to_double(dt, kj[d]);
                s[j] = dotv * sm_scale;
                mx = std::fmax(mx, s[j]);
            }
            for (int j = 0; j <= last; j++) sum += std::exp(s[j] - mx);
            double want_m = (mx + std::log(sum)) / std::log(2.0), got_m = hm[(size_t)h * N + i];
            double em = std::fabs(got_m - want_m) / (1 + std::fabs(want_m));
            if (em > err_m || em != em) err_m = em;
            for (int d = 0; d < D; d++) {
                double want = 0;
                for (int j = 0; j <= last; j++) want += std::exp(s[j] - mx) / sum * to_double(dt, hv[((size_t)h * N + j) * D + d]);
                double e = std::fabs(to_double(dt, ho[((size_t)h * N + i) * D + d]) - want) / ulp;
                if (e > err_o || e != e) err_o = e;
            }
        }
    bool ok = st == TILE_OK && err_o <= 4 && err_m <= 1e-4;
    std::printf("attention (C++): %s D=%d %s, %d heads x %d rows (blocks %dx%d): max error %.2f ulp in O, %.2g in M: %s\n",
                tile_dtype_name(dt), D, causal ? "causal" : "full", ZH, N, BM, BN, err_o, err_m, ok ? "OK" : "FAILED");
    tile_free(q), tile_free(k), tile_free(v), tile_free(o), tile_free(m);
    return ok;
}

int main()
{
    std::srand((unsigned)std::time(nullptr));
    bool ok = true;
    // the C twin's order (its golden is the last f16 and bf16 specialization: D = 128, causal)
    for (tl_dtype dt : {TL_F16, TL_BF16})
        for (int D = 64; D <= 128; D *= 2)
            for (int causal = 0; causal < 2; causal++) ok &= run_one(dt, D, causal, 2, 100);
    tile_kernel_release(TILE_KERNEL_OF(attn_fwd));
    tile_kernel_release(TILE_KERNEL_OF(attn_fwd_bf16));
    return ok ? 0 : 1;
}
