/* tests/test_attention.c — what fused attention needs from the back half,
   each part on its own, against float64, in the interpreter and on a GPU;
   and the plan the sm_90a and sm_80 targets make of it.

   scores: S = Q K^T over a loop of key blocks, K read [BLOCK_N, D] and used
     transposed (tl_dot(q, tl_trans(k))), Q loaded once before the loop;
     S's row maxima, row sums, column maxima and row argmax (reductions of
     a dot's result: the row ones in its registers, the column one, which
     crosses warps, through shared memory), S minus its row max
     (broadcast back), and
     O += cast(S * scale) @ V (a dot whose A is the previous dot's result):
     every output checked against float64 from the rounded inputs.
   exp2: tl_exp2 of f32 at the edge of the normal range: below 2^-126 the
     result is 0 (ex2.approx.ftz.f32 on the GPU, the same in the
     interpreter), above it 2^x.
   plan: for sm_90a (8 warps) the key loop is a ring whose K load is read
     K-major by wgmma (the tl_trans is no op of its own), the reductions
     leave slice layouts of the dot's layout and the broadcast gets the
     MMA layout back, the second dot takes A from registers, and Q is
     pinned in shared memory (staged once); for sm_80 the ring takes the
     transposed load too (ldmatrix without .trans); warp-specialized
     (descriptors, 8 warps), Q is still pinned, shared by the two consumer
     warpgroups. The PTX of
     examples/attention.c's kernels (tests/ptx_check.sh assembles them all)
     is checked for wgmma's register-A form and the copy engine here. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

/* Q [BM, D] and K, V [NK, D] row-major f16; outputs for the one program */
TILE_KERNEL(scores, (tl_ptr_f16, q_ptr), (tl_ptr_f16, k_ptr), (tl_ptr_f16, v_ptr), (tl_ptr_f32, rmax), (tl_ptr_f32, rsum),
            (tl_ptr_f32, cmax), (tl_ptr_i32, rarg), (tl_ptr_f32, shift), (tl_ptr_f32, o_ptr), (tl_i32, NK), (tl_f32, scale)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), D = TL_META(HEAD_DIM);
    tl_t rm = tl_arange(0, BM), rn = tl_arange(0, BN), rd = tl_arange(0, D);
    tl_t q = tl_load(tl_add(q_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), D), tl_expand_dims(rd, 0))));
    tl_t acc = tl_zeros(TL_F32, BM, D);
    TL_FOR (j, 0, NK, BN, acc) {
        tl_t kv_off = tl_add(tl_mul(tl_expand_dims(tl_add(j, rn), 1), D), tl_expand_dims(rd, 0));
        tl_t k = tl_load(tl_add(k_ptr, kv_off));
        tl_t s = tl_dot(q, tl_trans(k));                                  /* [BM, BN] */
        tl_t row_max = tl_max(s, 1), col_max = tl_max(s, 0);
        /* (out_c is not j + rn, the loads' own row index: a value of the
           ring's address slice read by the body keeps the loop from a ring) */
        tl_t out_r = tl_add(tl_mul(tl_floordiv(j, BN), BM), rm), out_c = tl_add(tl_mul(tl_floordiv(j, BN), BN), rn);
        tl_store(tl_add(rmax, out_r), row_max);
        tl_store(tl_add(rsum, out_r), tl_sum(s, 1));
        tl_store(tl_add(rarg, out_r), tl_argmax(s, 1));
        tl_store(tl_add(cmax, out_c), col_max);
        tl_t sh = tl_sub(s, tl_expand_dims(row_max, 1));                   /* broadcast back */
        tl_t sh_off = tl_add(tl_mul(tl_expand_dims(out_r, 1), BN), tl_expand_dims(rn, 0));
        tl_store(tl_add(shift, sh_off), sh);
        tl_t v = tl_load(tl_add(v_ptr, kv_off));
        acc = tl_dot(tl_cast(tl_mul(s, scale), TL_F16), v, acc);          /* A from the first dot */
    }
    tl_store(tl_add(o_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), D), tl_expand_dims(rd, 0))), acc);
}

/* rounds of S = Q_r K^T, Q_r carried into the key loop by an outer loop
   that loads the next round's Q after the key loop (as a persistent
   attention kernel prefetches its next tile's Q): the dot's operand is
   then the outer loop's carried value, pinned in shared memory, and must
   be staged there at the top of every round (it once never was on a GPU:
   the dot read whatever shared memory held) */
TILE_KERNEL(scores_rounds, (tl_ptr_f16, q_ptr), (tl_ptr_f16, k_ptr), (tl_ptr_f32, s_ptr), (tl_i32, NK), (tl_i32, R)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), D = TL_META(HEAD_DIM);
    tl_t rm = tl_arange(0, BM), rn = tl_arange(0, BN), rd = tl_arange(0, D);
    tl_t q = tl_load(tl_add(q_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), D), tl_expand_dims(rd, 0))));
    TL_FOR (r, 0, R, 1, q) {
        TL_FOR (j, 0, NK, BN) {
            tl_t k = tl_load(tl_add(k_ptr, tl_add(tl_mul(tl_expand_dims(tl_add(j, rn), 1), D), tl_expand_dims(rd, 0))));
            tl_t s = tl_dot(q, tl_trans(k));
            tl_t s_off = tl_add(tl_mul(tl_expand_dims(tl_add(tl_mul(r, BM), rm), 1), NK), tl_expand_dims(tl_add(j, rn), 0));
            tl_store(tl_add(s_ptr, s_off), s);
        }
        /* the next round's Q (q_ptr has R + 1 rounds of rows) */
        q = tl_load(tl_add(q_ptr, tl_add(tl_mul(tl_expand_dims(tl_add(tl_mul(tl_add(r, 1), BM), rm), 1), D), tl_expand_dims(rd, 0))));
    }
}

/* the key loop of `scores` through tensor descriptors and warp-specialized
   (a TMA ring, a producer warpgroup): only its plan is checked here (the
   example's warp-specialized configs run in examples/attention.c) */
TILE_KERNEL(scores_ws, (tl_ptr_f16, q_ptr), (tl_ptr_f16, k_ptr), (tl_ptr_f16, v_ptr), (tl_ptr_f32, o_ptr), (tl_i32, NK)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), D = TL_META(HEAD_DIM);
    tl_t dq = tl_make_tensor_descriptor(q_ptr, (BM, D), (D, 1), (BM, D));
    tl_t dk = tl_make_tensor_descriptor(k_ptr, (NK, D), (D, 1), (BN, D));
    tl_t dv = tl_make_tensor_descriptor(v_ptr, (NK, D), (D, 1), (BN, D));
    tl_t q = tl_desc_load(dq, (0, 0));
    tl_t acc = tl_zeros(TL_F32, BM, D);
    TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (j, 0, NK, BN, acc) {
        tl_t s = tl_dot(q, tl_trans(tl_desc_load(dk, (j, 0))));
        acc = tl_dot(tl_cast(s, TL_F16), tl_desc_load(dv, (j, 0)), acc);
    }
    tl_t rm = tl_arange(0, BM), rd = tl_arange(0, D);
    tl_store(tl_add(o_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), D), tl_expand_dims(rd, 0))), acc);
}

TILE_KERNEL(exp2_k, (tl_ptr_f32, x), (tl_ptr_f32, y)) {
    tl_t r = tl_arange(0, 64);
    tl_store(tl_add(y, r), tl_exp2(tl_load(tl_add(x, r))));
}

static double h(const tile_f16 *p, size_t i) { return tile_f16_to(p[i]); }

/* one launch of `scores` at BM x BN x D with warps/stages, NK keys */
static void check_scores(int BM, int BN, int D, int NK, int warps, int stages) {
    char what[96];
    snprintf(what, sizeof what, "scores %dx%dx%d, %d keys, %d warps, %d stages", BM, BN, D, NK, warps, stages);
    size_t nq = (size_t)BM * D, nk = (size_t)NK * D, nb = (size_t)NK / BN;
    tile_f16 *hq = malloc(nq * 2), *hk = malloc(nk * 2), *hv = malloc(nk * 2);
    for (size_t i = 0; i < nq; i++) hq[i] = tile_f16_from(tt_uniform(-1, 1));
    for (size_t i = 0; i < nk; i++) hk[i] = tile_f16_from(tt_uniform(-1, 1)), hv[i] = tile_f16_from(tt_uniform(-1, 1));
    size_t nr = nb * BM, ns = nr * BN;
    void *q = tile_malloc(nq * 2), *k = tile_malloc(nk * 2), *v = tile_malloc(nk * 2);
    float *rmax = tile_malloc(nr * 4), *rsum = tile_malloc(nr * 4), *cmax = tile_malloc((size_t)NK * 4), *shift = tile_malloc(ns * 4);
    int32_t *rarg = tile_malloc(nr * 4);
    float *o = tile_malloc(nq * 4);
    TT_CHECK(q && k && v && rmax && rsum && cmax && shift && rarg && o, "%s: device memory", what);
    tile_memcpy_htod(q, hq, nq * 2);
    tile_memcpy_htod(k, hk, nk * 2);
    tile_memcpy_htod(v, hv, nk * 2);
    tile_memset(rmax, 0xff, nr * 4), tile_memset(rsum, 0xff, nr * 4), tile_memset(cmax, 0xff, (size_t)NK * 4);
    tile_memset(shift, 0xff, ns * 4), tile_memset(rarg, 0xff, nr * 4), tile_memset(o, 0xff, nq * 4);
    float scale = 0.125f;
    TT_OK(scores(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"HEAD_DIM", D}}, .num_warps = warps, .num_stages = stages), q, k,
                 v, rmax, rsum, cmax, rarg, shift, o, NK, scale));
    float *g_rmax = malloc(nr * 4), *g_rsum = malloc(nr * 4), *g_cmax = malloc((size_t)NK * 4), *g_shift = malloc(ns * 4), *g_o = malloc(nq * 4);
    int32_t *g_rarg = malloc(nr * 4);
    tile_memcpy_dtoh(g_rmax, rmax, nr * 4), tile_memcpy_dtoh(g_rsum, rsum, nr * 4), tile_memcpy_dtoh(g_cmax, cmax, (size_t)NK * 4);
    tile_memcpy_dtoh(g_shift, shift, ns * 4), tile_memcpy_dtoh(g_rarg, rarg, nr * 4), tile_memcpy_dtoh(g_o, o, nq * 4);
    /* float64: S exactly (the products of f16 values, summed); f32 sums of D terms: 1e-5 relative */
    double *s = malloc((size_t)BM * NK * sizeof(double)), *o_want = calloc(nq, sizeof(double));
    for (int i = 0; i < BM; i++)
        for (int j = 0; j < NK; j++) {
            double d = 0;
            for (int x = 0; x < D; x++) d += h(hq, (size_t)i * D + x) * h(hk, (size_t)j * D + x);
            s[(size_t)i * NK + j] = d;
        }
    int bad_r = 0, bad_c = 0, bad_s = 0, bad_a = 0, bad_o = 0;
    double tol = 1e-4 * D;
    for (size_t b = 0; b < nb; b++)
        for (int i = 0; i < BM; i++) {
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < BN; j++) {
                double x = s[(size_t)i * NK + b * BN + j];
                mx = fmax(mx, x);
                sum += x;
            }
            size_t r = b * BM + (size_t)i;
            bad_r += !tt_close(g_rmax[r], mx, tol, 0) + !tt_close(g_rsum[r], sum, tol * BN, 0);
            /* the argmax: the index of a maximum (ties within rounding allowed) */
            int ga = g_rarg[r];
            bad_a += ga < 0 || ga >= BN || !tt_close(s[(size_t)i * NK + b * BN + ga], mx, 2 * tol, 0);
            for (int j = 0; j < BN; j++) bad_s += !tt_close(g_shift[r * BN + j], s[(size_t)i * NK + b * BN + j] - mx, 2 * tol, 0);
        }
    for (int j = 0; j < NK; j++) {
        double mx = -INFINITY;
        for (int i = 0; i < BM; i++) mx = fmax(mx, s[(size_t)i * NK + j]);
        bad_c += !tt_close(g_cmax[j], mx, tol, 0);
    }
    /* O: P = f16(f32(S) * scale), then sums of f16 products in f32 */
    for (int i = 0; i < BM; i++)
        for (int j = 0; j < NK; j++) {
            double p = tile_f16_to(tile_f16_from((double)(float)s[(size_t)i * NK + j] * scale));
            for (int x = 0; x < D; x++) o_want[(size_t)i * D + x] += p * h(hv, (size_t)j * D + x);
        }
    for (size_t i = 0; i < nq; i++) bad_o += !tt_close(g_o[i], o_want[i], 2e-3 * sqrt((double)NK), 2e-3);
    TT_CHECK(!bad_r && !bad_c && !bad_s && !bad_a && !bad_o, "%s: wrong row max/sum %d, column max %d, shifted %d, argmax %d, O %d", what, bad_r,
             bad_c, bad_s, bad_a, bad_o);
    free(hq), free(hk), free(hv), free(s), free(o_want);
    free(g_rmax), free(g_rsum), free(g_cmax), free(g_shift), free(g_o), free(g_rarg);
    tile_free(q), tile_free(k), tile_free(v), tile_free(rmax), tile_free(rsum), tile_free(cmax), tile_free(shift), tile_free(rarg), tile_free(o);
}

/* R rounds of `scores_rounds` at BM x BN x D with warps/stages, NK keys */
static void check_rounds(int BM, int BN, int D, int NK, int R, int warps, int stages) {
    char what[112];
    snprintf(what, sizeof what, "scores_rounds %dx%dx%d, %d keys, %d rounds, %d warps, %d stages", BM, BN, D, NK, R, warps, stages);
    size_t nq = (size_t)(R + 1) * BM * D, nk = (size_t)NK * D, ns = (size_t)R * BM * NK;
    tile_f16 *hq = malloc(nq * 2), *hk = malloc(nk * 2);
    for (size_t i = 0; i < nq; i++) hq[i] = tile_f16_from(tt_uniform(-1, 1));
    for (size_t i = 0; i < nk; i++) hk[i] = tile_f16_from(tt_uniform(-1, 1));
    void *q = tile_malloc(nq * 2), *k = tile_malloc(nk * 2);
    float *sd = tile_malloc(ns * 4), *g = malloc(ns * 4);
    TT_CHECK(q && k && sd && g, "%s: memory", what);
    tile_memcpy_htod(q, hq, nq * 2);
    tile_memcpy_htod(k, hk, nk * 2);
    tile_memset(sd, 0xff, ns * 4);
    TT_OK(scores_rounds(TILE_OPTS(.grid = {1}, .meta = {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"HEAD_DIM", D}}, .num_warps = warps, .num_stages = stages),
                        q, k, sd, NK, R));
    tile_memcpy_dtoh(g, sd, ns * 4);
    int bad = 0;
    for (int r = 0; r < R; r++)
        for (int i = 0; i < BM; i++)
            for (int j = 0; j < NK; j++) {
                double d = 0;
                for (int x = 0; x < D; x++) d += h(hq, ((size_t)r * BM + i) * D + x) * h(hk, (size_t)j * D + x);
                bad += !tt_close(g[((size_t)r * BM + i) * NK + j], d, 1e-4 * D, 0);
            }
    TT_CHECK(!bad, "%s: %d of %zu scores wrong", what, bad, ns);
    free(hq), free(hk), free(g);
    tile_free(q), tile_free(k), tile_free(sd);
}

static void check_exp2(void) {
    float hx[64], hy[64];
    for (int i = 0; i < 64; i++) hx[i] = i < 16 ? -120.0f - 2.0f * (float)i : (float)tt_uniform(-30, 30);   /* -120 .. -150, then normal */
    float *x = tile_malloc(sizeof hx), *y = tile_malloc(sizeof hy);
    tile_memcpy_htod(x, hx, sizeof hx);
    tile_memset(y, 0xff, sizeof hy);
    TT_OK(exp2_k(TILE_OPTS(.grid = {1}), x, y));
    tile_memcpy_dtoh(hy, y, sizeof hy);
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        double want = exp2((double)hx[i]);
        if (want < 0x1p-126) want = 0;   /* flushed, as ex2.approx.ftz.f32 */
        bad += !(want == 0 ? hy[i] == 0 : fabs(hy[i] - want) <= 4 * ldexp(want, -23));
    }
    TT_CHECK(!bad, "tl_exp2 f32: %d of 64 wrong (below 2^-126 must be 0)", bad);
    tile_free(x), tile_free(y);
}

/* the plan of `scores` for arch */
static void check_plan(const char *arch, int warps) {
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__, o.line = __LINE__, o.num_warps = warps, o.num_stages = 3;
    const tile_meta meta[] = {{"BLOCK_M", 128}, {"BLOCK_N", 64}, {"HEAD_DIM", 64}};
    memcpy(o.meta, meta, sizeof meta);
    tile_arg args[11];
    for (int i = 0; i < 9; i++) args[i].p = (void *)(uintptr_t)(0x10000 * (i + 1));
    args[9].i = 1024, args[10].f = 0.125;
    tile__func f;
    tile__config cfg;
    tile__plan p;
    tile_kernel *k = TILE_KERNEL_OF(scores);
    if (tile__build(k, &o, &f) != TILE_OK || tile__config_resolve(k, &o, args, arch, &cfg) != TILE_OK) {
        TT_CHECK(0, "%s: build: %s", arch, tile_last_error());
        return;
    }
    int hopper = cfg.hopper != TILE__HOPPER_OFF;   /* sm_90a, unless TILE_WGMMA=0 */
    if (tile__plan_build(&f, &cfg, 1, &p) != TILE_OK) {
        TT_CHECK(0, "%s: plan: %s", arch, tile_last_error());
        tile__func_free(&f);
        return;
    }
    const tile__op *dots[2] = {NULL, NULL}, *fop = NULL;
    int nd = 0, slices = 0, bcast_mma = 0, pinned = 0;
    for (int i = 0; i < f.nops; i++) {
        const tile__op *op = &f.ops[i];
        if (op->dead) continue;
        if (op->code == TILE__OP_FOR) fop = op;
        if (op->code == TILE__OP_DOT && nd < 2) dots[nd++] = op;
        if (op->code == TILE__OP_REDUCE && f.vals[f.pool[op->opnd]].t.rank == 2) slices += p.lay[op->res].kind == TILE__LAYOUT_SLICE;
        if (op->code == TILE__OP_BROADCAST && f.vals[op->res].t.dtype == TL_F32 && f.vals[op->res].t.rank == 2 &&
            f.vals[f.pool[op->opnd]].t.shape[1] == 1)
            bcast_mma += p.lay[op->res].kind == TILE__LAYOUT_MMA;
    }
    for (int v = 1; v < f.nvals; v++) pinned += p.pin[v] > 0;
    const tile__loop_plan *lp = fop ? tile__plan_ring(&p, fop) : NULL;
    int tv = 0;
    for (int l = 0; lp && l < lp->nloads; l++) tv += lp->tval[l] > 0;
    TT_CHECK(nd == 2 && lp && lp->nloads == 2 && tv == 1, "%s: the key loop is a ring of 2 loads, one read transposed (%d dots, ring %d, %d)", arch,
             nd, !!lp, tv);
    /* the row max, sum and argmax; not the column max: two warps split the
       rows (and where two split the columns, as mma.sync's 8-warp layout
       does, none) */
    int whole_rows = nd > 0 && p.lay[dots[0]->res].wn == 1;
    TT_CHECK(slices == (whole_rows ? 3 : 0), "%s: the row reductions of the dot's result keep its rows in place (%d slices)", arch, slices);
    TT_CHECK(bcast_mma == whole_rows, "%s: the row max broadcast back takes the MMA layout", arch);
    TT_CHECK(pinned == 1, "%s: Q is pinned in shared memory (%d pinned)", arch, pinned);
    if (nd == 2) {
        TT_CHECK(tile__plan_wgmma(&p, dots[0]) == hopper && tile__plan_wgmma(&p, dots[1]) == hopper, "%s: the dots %s wgmma", arch,
                 hopper ? "are" : "are not");
        TT_CHECK(tile__plan_rega(&p, dots[1]) == hopper, "%s: the second dot %s its A from registers", arch, hopper ? "takes" : "does not take");
    }
    tile__plan_free(&p);
    tile__func_free(&f);
}

/* the plan of `scores_ws` on sm_90a: with 8 warps it is warp-specialized
   and Q, which the key loop does not make, is staged once for both
   consumer warpgroups (pinned), not in every iteration from registers */
static void check_plan_ws(void) {
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__, o.line = __LINE__, o.num_warps = 8, o.num_stages = 2;
    const tile_meta meta[] = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"HEAD_DIM", 128}};
    memcpy(o.meta, meta, sizeof meta);
    tile_arg args[5];
    for (int i = 0; i < 4; i++) args[i].p = (void *)(uintptr_t)(0x10000 * (i + 1));
    args[4].i = 1024;
    tile__func f;
    tile__config cfg;
    tile__plan p;
    tile_kernel *k = TILE_KERNEL_OF(scores_ws);
    if (tile__build(k, &o, &f) != TILE_OK || tile__config_resolve(k, &o, args, "sm_90a", &cfg) != TILE_OK) {
        TT_CHECK(0, "scores_ws: build: %s", tile_last_error());
        return;
    }
    if (cfg.hopper == TILE__HOPPER_OFF) {   /* TILE_WGMMA=0: no TMA ring, no producer */
        printf("scores_ws: TILE_WGMMA=0, its plan not checked\n");
        tile__func_free(&f);
        return;
    }
    if (tile__plan_build(&f, &cfg, 1, &p) != TILE_OK) {
        TT_CHECK(0, "scores_ws: plan: %s", tile_last_error());
        tile__func_free(&f);
        return;
    }
    int pinned = 0;
    for (int v = 1; v < f.nvals; v++) pinned += p.pin[v] > 0;
    TT_CHECK(p.ws == 1 && !p.ws_pp, "scores_ws: warp-specialized with two consumer warpgroups (ws %d, ping-pong %d)", p.ws, p.ws_pp);
    TT_CHECK(pinned == 1, "scores_ws: Q is pinned in shared memory under warp specialization (%d pinned)", pinned);
    tile__plan_free(&p);
    tile__func_free(&f);
}

int main(void) {
    tt_seed();
    int gpu = strcmp(tile_backend_name(), "interp") != 0;
    printf("backend: %s\n", tile_backend_name());
    check_plan("sm_90a", 8);
    check_plan("sm_80", 4);
    check_plan_ws();
    check_exp2();
    /* 4 and 8 warps (one and two warpgroups), BLOCK_N 64 and 128, D 64 and 128 */
    check_scores(64, 64, 64, 192, 4, 3);
    check_scores(128, 64, 128, 128, 8, 2);
    check_rounds(64, 64, 64, 128, 3, 4, 2);
    if (gpu) {
        check_rounds(128, 64, 128, 256, 4, 8, 3);
        check_scores(128, 128, 64, 512, 8, 3);
        check_scores(128, 64, 64, 640, 4, 4);
    }
    return tt_finish("test_attention");
}
