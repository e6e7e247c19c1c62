/* tile/lower_sm90.h — >>lower_sm90: the lowering's sm_90a part: tl_dot on
   wgmma.mma_async, the choice between it and mma.sync (tile/lower_sm80.h),
   and the lowering's entry, the core with these parts. */

/* >>wgmma: the warpgroup's m64nNk16 instructions, K/16 x repm of them, with
   operands read from shared memory by descriptor, then one commit and a
   wait for all of them (the stages can then be overwritten). Warpgroup g
   of repetition rm has rows 16 wm rm + 64 g: A's descriptor starts there
   and at the k step's 32 bytes (inside a 128-byte swizzle atom the
   hardware applies the XOR to the address), B's at k row 16 kk; a K-major
   B (sb->kmaj: B^T's rows in the stage, N of them) is read as A is, with
   wgmma's transpose bit for B off. With rega, A comes from registers
   instead (tile__plan_rega): chunk kk of repetition rm is the accumulator
   tiles 2 kk and 2 kk + 1 of the A value, each pair of columns one 32-bit
   register, low half first. */
static void tile__lower_dot_wgmma(tile__lower *lw, const tile__op *op, int kind, const tile__smop *sa, const tile__smop *sb, int rega, int defer) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int a = f->pool[op->opnd], c = f->pool[op->opnd + 2], res = op->res;
    const tile__layout *L = &lw->lay[res];
    int N = L->shape[1], K = f->vals[a].t.shape[1];
    tl_dtype rt = tile__vdt(lw, res), at = tile__vdt(lw, a);
    /* the instruction's operand dtypes (fp8 widened to f16 unless raw);
       each step takes 32 bytes of K: k16 of 16-bit types, k32 of fp8 */
    tl_dtype ta = sa->raw ? at : tile__mma_sdt(at), bt = tile__vdt(lw, f->pool[op->opnd + 1]), tb = sb->raw ? bt : tile__mma_sdt(bt);
    int ksteps = K * (int)tile__dt[ta].bytes / 32;
    int *acc = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)L->E);
    for (int e = 0; e < L->E; e++) {
        tile__elem z;
        z.u = 0;
        acc[e] = !c ? em->lit(em, TL_F32, z) : rt == TL_F32 ? lw->regs[c][e] : em->op1(em, TILE__OP_CAST, rt, TL_F32, lw->regs[c][e]);
    }
    /* descriptors' hi bits: 128B swizzle; SBO 1024 (8 rows of 128 bytes) for
       both; LBO unused for K-major A and B (1), the 64-column blocks' distance for
       N-major B */
    uint64_t sw = (uint64_t)1 << 62, sbo = (uint64_t)(1024 >> 4) << 32;
    uint64_t hia = sw | sbo | (uint64_t)1 << 16, hib = sw | sbo | (uint64_t)(sb->kmaj ? 1 : sb->rows * 128 >> 4) << 16;
    int abase = -1, stride = L->repn * 4, *areg = NULL;
    if (rega) {   /* the A value's registers, packed in pairs */
        const tile__layout *La = &lw->lay[a];
        areg = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)(La->E / 2));
        /* A = tl_cast(an f32 value of the same layout): each pair rounded and
           packed by one cvt (the cast's own registers go unused) */
        int d = f->vals[a].def, src = d >= 0 && f->ops[d].code == TILE__OP_CAST ? f->pool[f->ops[d].opnd] : 0;
        if (src > 0 && tile__vdt(lw, src) == TL_F32 && lw->regs[src] && tile__same_layout(&lw->lay[src], La)) {
            for (int e = 0; e < La->E; e += 2) areg[e / 2] = tile__ptx_cvt_pack16(em, kind, lw->regs[src][e], lw->regs[src][e + 1]);
        } else {
            tile__elem sh;
            sh.u = 16;
            int sixteen = em->lit(em, TL_U32, sh);
            for (int e = 0; e < La->E; e += 2) {
                int half[2];
                for (int h = 0; h < 2; h++)
                    half[h] = em->op1(em, TILE__OP_CAST, TL_U16, TL_U32, em->op1(em, TILE__OP_BITCAST, at, TL_U16, lw->regs[a][e + h]));
                areg[e / 2] = em->op1(em, TILE__OP_BITCAST, TL_U32, TL_I32,
                                      em->op2(em, TILE__OP_OR, TL_U32, TL_U32, half[0], em->op2(em, TILE__OP_SHL, TL_U32, TL_U32, half[1], sixteen)));
            }
        }
    } else {
        int arow = tile__iop(lw, TILE__OP_MUL, tile__iop(lw, TILE__OP_SHR, lw->warp, 2), 64 * 128);
        abase = tile__iadd(lw, sa->base, arow);
    }
    /* >>imprecise: native fp8 wgmma sums its products in a narrower
       accumulator than f32 (cuBLAS's fast accumulation). With Triton's
       max_num_imprecise_acc n (op->i[1]), as Triton lowers it: every
       ceil(n / 32) k32 steps, and at the dot's last, the steps' sum, made
       in a fresh accumulator from zero, is waited for and added to the f32
       accumulator by an f32 add. */
    int steps = sa->raw && op->i[1] > 0 ? (int)((op->i[1] + 31) / 32) : 0, *part = NULL, *d = acc;
    if (steps) part = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)L->E);
    tile__ptx_wg_sync(em, TILE__WG_FENCE, 0, L->E, acc);
    for (int kk = 0; kk < ksteps; kk++) {
        int kb = kk * 32;
        if (steps && kk % steps == 0) {   /* a partial sum from zero */
            tile__elem z;
            z.u = 0;
            int zero = em->lit(em, TL_F32, z);
            for (int e = 0; e < L->E; e++) part[e] = zero;
            tile__ptx_wg_sync(em, TILE__WG_FENCE, 0, L->E, part);
            d = part;
        }
        int offb = tile__iadd(lw, sb->base, tile__li(lw, sb->kmaj ? (kb / 128 * sb->rows) * 128 + kb % 128 : kk * 16 * 128));
        for (int rm = 0; rm < L->repm; rm++) {
            if (rega) {   /* tiles 2kk, 2kk+1 of row block rm: 2 registers each (rows g, g+8) */
                int r4[4], at0 = (rm * (K / 8) + 2 * kk) * 2;
                for (int q = 0; q < 4; q++) r4[q] = areg[at0 + q];
                tile__ptx_wgmma(em, ta, tb, N, r4, -1, 0, offb, hib, !sb->kmaj, d + rm * stride, d + rm * stride);
                continue;
            }
            int offa = tile__iadd(lw, abase, tile__li(lw, (kb / 128 * sa->rows + rm * 16 * L->wm) * 128 + kb % 128));
            tile__ptx_wgmma(em, ta, tb, N, NULL, offa, hia, offb, hib, !sb->kmaj, d + rm * stride, d + rm * stride);
        }
        if (steps && (kk % steps == steps - 1 || kk == ksteps - 1)) {   /* the partial sum into the f32 one */
            tile__ptx_wg_sync(em, TILE__WG_COMMIT, 0, 0, NULL);
            lw->wg_groups++;
            tile__ptx_wg_sync(em, TILE__WG_WAIT, 0, L->E, part);
            for (int e = 0; e < L->E; e++) acc[e] = em->op2(em, TILE__OP_ADD, TL_F32, TL_F32, acc[e], part[e]);
        }
    }
    if (!steps) {
        tile__ptx_wg_sync(em, TILE__WG_COMMIT, 0, 0, NULL);
        lw->wg_groups++;
        lw->wg_work = 0;
        if (defer) {   /* >>overlap: waited for where first read (tile__wg_settle), A's registers kept till then */
            lw->wgp[lw->nwgp].v = res;
            lw->wgp[lw->nwgp].g = lw->wg_groups;
            lw->wgp[lw->nwgp].na = rega ? lw->lay[a].E / 2 : 0;
            lw->wgp[lw->nwgp++].a = areg;
            areg = NULL;
        } else {
            tile__ptx_wg_sync(em, TILE__WG_WAIT, lw->async_dot == res ? 1 : 0, L->E, acc);   /* see tile__async_dot */
        }
    }
    int *out = tile__regs_new(lw, res);
    for (int e = 0; e < L->E; e++) out[e] = rt == TL_F32 ? acc[e] : em->op1(em, TILE__OP_CAST, TL_F32, rt, acc[e]);
    tile__lw_free(lw, part);
    tile__lw_free(lw, areg);
    tile__lw_free(lw, acc);
}
/* a tl_dot on tensor cores: its operands staged in shared memory (unless
   a ring has them there, or A comes from registers), then mma.sync or wgmma */
static void tile__lower_dot_tc(tile__lower *lw, const tile__op *op, int kind) {
    const tile__func *f = lw->f;
    int wg = tile__plan_wgmma(lw->plan, op), rega = wg && tile__plan_rega(lw->plan, op), f8 = wg && tile__plan_f8(lw->plan, op);
    tile__smop s[2];
    size_t off = wg ? tile__align1k(lw->sbase) - lw->sbase : 0;   /* wgmma's swizzle atoms start on 1024 bytes */
    int staged = 0;
    memset(s, 0, sizeof s);
    for (int k = rega; k < 2; k++) {
        int v = f->pool[op->opnd + k];
        const tile__type *t = &f->vals[v].t;
        int es = (int)tile__dt[f8 ? t->dtype : tile__mma_sdt(t->dtype)].bytes;
        s[k].raw = f8;
        s[k].rowbytes = t->shape[1] * es;
        s[k].rows = t->shape[0];
        if (lw->plan->pin[v]) {   /* >>pin: staged where it was made */
            s[k].base = tile__li(lw, lw->plan->pin[v] - 1);
            continue;
        }
        if (lw->pipe && lw->pipe[v]) {
            int at = lw->pipe[v] > 0 ? lw->pipe[v] - 1 : -lw->pipe[v] - 1;
            if (lw->pipe[v] < 0) {   /* >>wgmma: B^T's rows in the stage */
                s[k].kmaj = 1;
                s[k].rowbytes = t->shape[0] * es;
                s[k].rows = t->shape[1];
            }
            s[k].base = tile__iadd(lw, lw->pipe_cur, tile__li(lw, at));
            continue;
        }
        if (f8 && k == 1) {   /* >>f8: B staged transposed, its N rows of K */
            s[k].kmaj = 1;
            s[k].rowbytes = t->shape[0] * es;
            s[k].rows = t->shape[1];
        }
        s[k].base = tile__li(lw, (int)(lw->sbase + off));
        if (lw->pp) s[k].base = tile__iadd(lw, s[k].base, lw->pp_sreg);   /* >>pingpong: the consumer's own scratch */
        off += ((size_t)tile__numel(t) * (size_t)es + 127) / 128 * 128;
        if (wg) off = tile__align1k(off);
        staged |= 1 << k;
    }
    if (staged) {
        tile__need_smem(lw, off);
        tile__sync(lw);
        for (int k = 0; k < 2; k++)
            if (staged >> k & 1) tile__mma_stage(lw, f->pool[op->opnd + k], &s[k]);
        if (wg) tile__ptx_wg_sync(lw->em, TILE__WG_PROXY, 0, 0, NULL);   /* generic-proxy stores, then wgmma's reads */
        tile__sync(lw);
    }
    if (wg) tile__lower_dot_wgmma(lw, op, kind, &s[0], &s[1], rega, !staged && tile__wg_may_defer(lw, op));
    else tile__lower_dot_mma(lw, op, kind, &s[0], &s[1]);
    if (staged) tile__sync(lw);
}

/* ---- >>tma: a TL_FOR's ring of copy-engine loads (tile__tma_ring in tile/plan.h) ---------- */
/* lower the address slice (the loads' offsets) for the iteration whose
   induction value is in args[0]'s register; one thread then arrives on the
   stage's barrier expecting the stage's bytes and issues its copies
   (predicated on that thread, not a branch around them): per
   load, one box of 128 bytes x rows per 128-byte column of the block, at
   coordinates (column, row), innermost first */
static void tile__tma_issue(tile__lower *lw, const tile__op *fop, const tile__loop_plan *p, const int *tm, int stage, int bar, int valid) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const tile__region *R = &f->regs[fop->region[0]];
    for (int k = 0; k < R->nops && lw->st == TILE_OK; k++)
        if (p->in_slice[R->ops[k]] && !f->ops[R->ops[k]].dead) tile__lower_op(lw, &f->ops[R->ops[k]]);
    int bytes = 0;
    for (int l = 0; l < p->nloads; l++) bytes += tile__numel(&f->vals[p->loads[l]].t) * (int)tile__dt[tile__vdt(lw, p->loads[l])].bytes;
    int one = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, valid, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0)));
    tile__ptx_mbar_expect_tx(em, bar, bytes, one);
    for (int l = 0; l < p->nloads; l++) {
        const tile__op *ld = &f->ops[f->vals[p->loads[l]].def];
        const tile__type *t = &f->vals[p->loads[l]].t;
        int row = lw->regs[f->pool[ld->opnd + 1]][0], col = lw->regs[f->pool[ld->opnd + 2]][0];
        int es = (int)tile__dt[t->dtype].bytes;   /* 2, or 1 (>>f8) */
        for (int j = 0; j < t->shape[1] * es / 128; j++) {
            int coords[2] = {tile__iadd(lw, col, tile__li(lw, 128 / es * j)), row};
            int dst = tile__iadd(lw, stage, tile__li(lw, p->loff[l] + j * t->shape[0] * 128));
            tile__ptx_tma_load(em, dst, tm[l], 2, coords, bar, one);
        }
    }
    tile__assign_carried(lw, fop, p, 1);   /* advance the carried values the slice owns */
}
/* TL_FOR op as its TMA ring: the barriers, the prologue, the loop, the last waits */
static void tile__lower_for_tma(tile__lower *lw, const tile__op *op, const tile__loop_plan *p) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd;
    const tile__region *R = &f->regs[op->region[0]];
    const int *args = f->pool + R->args;
    int n = op->nres, S = p->stages, slot = p->slot, A = p->ahead, ak = p->async_carry, tm[TILE__PIPE_LOADS];
    int np = f->nparams < TILE__MAX_PARAMS ? f->nparams : TILE__MAX_PARAMS;
    size_t pbase = p->base, bars = p->bars;
    lw->sbase = p->end ? p->end : (bars + 8 * (size_t)S + 15) / 16 * 16;   /* after the barriers and the stores' own buffers */
    tile__need_smem(lw, 0);
    /* the barriers: one thread initializes them, everyone sees it (no
       branches here or after the loop: see tile__ptx_mbar_init) */
    tile__sync(lw);
    int t0 = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0));
    for (int s = 0; s < S; s++) tile__ptx_mbar_init(em, tile__li(lw, (int)bars + 8 * s), 1, t0);
    tile__ptx_mbar_init_fence(em, t0);
    tile__sync(lw);
    for (int l = 0; l < p->nloads; l++) tm[l] = tile__ptx_param_addr(em, f->name, np + 1 + p->tmap[l]);
    for (int k = 0; k < n; k++) tile__vars_for(lw, args[1 + k], tile__converted(lw, o[3 + k], &lw->lay[args[1 + k]]));
    tl_dtype it = tile__vdt(lw, o[0]);
    int iv = tile__vars_for(lw, args[0], NULL)[0];
    int lo = lw->regs[o[0]][0], step = lw->regs[o[2]][0], hi = tile__for_hi(lw, op);
    /* prologue: iterations 0 .. A-1 */
    for (int s = 0; s < A && lw->st == TILE_OK; s++) {
        tile__elem se;
        se.i = s;
        int ivs = em->op2(em, TILE__OP_ADD, it, it, lo, em->op2(em, TILE__OP_MUL, it, it, step, em->lit(em, it, se)));
        lw->regs[args[0]][0] = ivs;
        int in = em->op2(em, TILE__OP_LT, it, TL_I1, ivs, hi), bar = tile__li(lw, (int)bars + 8 * s);
        tile__tma_issue(lw, op, p, tm, tile__li(lw, (int)pbase + s * slot), bar, in);
    }
    int cur = em->var(em, TL_I32, tile__li(lw, 0)), nxt = em->var(em, TL_I32, tile__li(lw, A)), phase = em->var(em, TL_I32, tile__li(lw, 0));
    em->for_begin(em, it, iv, lo, hi, step);
    int bar = tile__iop(lw, TILE__OP_MUL, cur, 8);
    tile__ptx_mbar_wait(em, tile__iadd(lw, tile__li(lw, (int)bars), bar), phase);
    tile__sync(lw);   /* every thread is past the iteration that read stage nxt */
    {
        tile__elem se;
        se.i = A;
        int ivf = em->op2(em, TILE__OP_ADD, it, it, iv, em->op2(em, TILE__OP_MUL, it, it, step, em->lit(em, it, se)));
        lw->regs[args[0]][0] = ivf;
        int at = tile__iop(lw, TILE__OP_MUL, nxt, slot);
        int stage = tile__iadd(lw, tile__li(lw, (int)pbase), at);
        int nb = tile__iop(lw, TILE__OP_MUL, nxt, 8);
        int bar = tile__iadd(lw, tile__li(lw, (int)bars), nb);
        tile__tma_issue(lw, op, p, tm, stage, bar, em->op2(em, TILE__OP_LT, it, TL_I1, ivf, hi));
        lw->regs[args[0]][0] = iv;
    }
    tile__ring_body(lw, op, p, cur);   /* with tl_dot reading this iteration's stage */
    int inc = tile__iadd(lw, cur, tile__li(lw, 1)), wrap = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, inc, tile__li(lw, S));
    em->assign(em, cur, em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, wrap, tile__li(lw, 0), inc));
    em->assign(em, phase, em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, wrap, em->op2(em, TILE__OP_XOR, TL_I32, TL_I32, phase, tile__li(lw, 1)), phase));
    int inc2 = tile__iadd(lw, nxt, tile__li(lw, 1));
    int zero = tile__li(lw, 0);
    em->assign(em, nxt, em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, inc2, tile__li(lw, S)), zero, inc2));
    em->for_end(em);
    /* the last wgmma group; then the barriers go before their memory is scratch again */
    if (ak >= 0) tile__ptx_wg_sync(em, TILE__WG_WAIT, 0, lw->lay[args[1 + ak]].E, lw->regs[args[1 + ak]]);
    if (p->end) tile__ptx_bulk_wait_read(em, t0);   /* and so do the stores' own buffers, once the engine has read them */
    tile__sync(lw);
    for (int s = 0; s < S; s++) tile__ptx_mbar_inval(em, tile__li(lw, (int)bars + 8 * s), t0);
    tile__sync(lw);
    lw->sbase = pbase;
    tile__loop_results(lw, op, args + 1);
}

/* ---- >>ws: the warp-specialized kernel (tile__ws_plan in tile/plan.h) ---------------------
   Thread 0 initializes each stage's full barrier (one arrival: the
   producer's, with the stage's bytes) and empty barrier (one arrival per
   consumer warp); after the block's barrier the roles split on the
   warpgroup index. Warpgroup 0 lowers its registers and its warp 0 runs
   the loops around the ring with their induction variables alone, the
   producer's slice, and the ring: wait until the stage is empty (parity
   phase ^ 1: a fresh barrier's previous phase counts as complete), then
   one thread arrives on the full barrier expecting the bytes and issues
   the copies. The consumers raise their registers and run the kernel
   with tid from 0, their barriers named barrier 1, the ring: wait until
   the stage is full, the body with tl_dot reading it, and lane 0 of each
   warp arrives on the empty barrier of the stage its wgmmas are done with
   (the previous one while a group stays in flight). The stage and its
   parity are variables of each role, so the ring goes on across the
   loops around it and the producer fills the next tile's stages while
   the consumers store the last. */
static void tile__ws_step(tile__lower *lw, int S) {   /* the next stage, and its parity on a wrap */
    tile__emitter *em = lw->em;
    int inc = tile__iadd(lw, lw->ws_stage, tile__li(lw, 1)), wrap = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, inc, tile__li(lw, S));
    em->assign(em, lw->ws_stage, em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, wrap, tile__li(lw, 0), inc));
    em->assign(em, lw->ws_phase, em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, wrap, em->op2(em, TILE__OP_XOR, TL_I32, TL_I32, lw->ws_phase, tile__li(lw, 1)), lw->ws_phase));
}
static int tile__ws_bar(tile__lower *lw, size_t at, int stage) {   /* shared offset of stage's barrier in the array at `at` */
    int off = tile__iop(lw, TILE__OP_MUL, stage, 8);
    return tile__iadd(lw, tile__li(lw, (int)at), off);
}
/* the producer's ring: the loop with the copies alone */
static void tile__ws_producer_ring(tile__lower *lw, const tile__op *op, const tile__loop_plan *p) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd, *args = f->pool + f->regs[op->region[0]].args;
    int np = f->nparams < TILE__MAX_PARAMS ? f->nparams : TILE__MAX_PARAMS, tm[TILE__PIPE_LOADS];
    for (int l = 0; l < p->nloads; l++) tm[l] = tile__ptx_param_addr(em, f->name, np + 1 + p->tmap[l]);
    for (int k = 0; k < op->nres; k++)
        if (p->ap[k]) tile__vars_for(lw, args[1 + k], tile__converted(lw, o[3 + k], &lw->lay[args[1 + k]]));
    tl_dtype it = tile__vdt(lw, o[0]);
    int iv = tile__vars_for(lw, args[0], NULL)[0];
    int lo = lw->regs[o[0]][0], step = lw->regs[o[2]][0], hi = tile__for_hi(lw, op);
    tile__elem one;
    one.i = 1;
    em->for_begin(em, it, iv, lo, hi, step);
    int parity = tile__iop(lw, TILE__OP_XOR, lw->ws_phase, 1);
    tile__ptx_mbar_wait(em, tile__ws_bar(lw, lw->plan->ws_empty, lw->ws_stage), parity);
    int at = tile__iop(lw, TILE__OP_MUL, lw->ws_stage, p->slot);
    int stage = tile__iadd(lw, tile__li(lw, (int)p->base), at);
    int all = em->lit(em, TL_I1, one);
    tile__tma_issue(lw, op, p, tm, stage, tile__ws_bar(lw, p->bars, lw->ws_stage), all);
    tile__ws_step(lw, p->stages);
    em->for_end(em);
}
static void tile__ws_producer_region(tile__lower *lw, int reg);
/* a loop around the ring, in the producer: its induction variable alone */
static void tile__ws_producer_for(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd, *args = f->pool + f->regs[op->region[0]].args;
    tl_dtype it = tile__vdt(lw, o[0]);
    int iv = tile__vars_for(lw, args[0], NULL)[0];
    int lo = lw->regs[o[0]][0], step = lw->regs[o[2]][0], hi = tile__for_hi(lw, op);
    em->for_begin(em, it, iv, lo, hi, step);
    tile__ws_producer_region(lw, op->region[0]);
    em->for_end(em);
}
static void tile__ws_producer_region(tile__lower *lw, int reg) {
    const tile__func *f = lw->f;
    const tile__plan *pl = lw->plan;
    const tile__op *rop = &f->ops[pl->loops[pl->ws_loop].op];
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops && lw->st == TILE_OK; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        if (op == rop) tile__ws_producer_ring(lw, op, &pl->loops[pl->ws_loop]);
        else if (op->code == TILE__OP_FOR && tile__for_holds(f, op, rop)) tile__ws_producer_for(lw, op);
        else if (pl->ws_prod[r->ops[k]] || op->code == TILE__OP_PROFILE) tile__lower_op(lw, op);   /* >>profile: the producer's scopes too */
    }
}
/* >>pingpong: before consumer c's ring, the other's last ring is done
   (it arrived on named barrier 3 + c; not before the program's first ring,
   consumer 0's first), and the ring's place skips the other's iterations:
   none before consumer 0's first ring, the trip count of one ring (the same
   in every iteration, tile__ws_pp_why) otherwise. Only then does the
   consumer wait on a full barrier: the producer has filled every place
   before this ring's first (the other consumer waited for them), so the
   barrier of that stage is in the phase of this place, and the parity
   waited for is never one a lap behind. */
static void tile__pp_ring_start(tile__lower *lw, tl_dtype it, int lo, int hi, int step, int S) {
    tile__emitter *em = lw->em;
    int second = em->op2(em, TILE__OP_NE, TL_I32, TL_I1, lw->pp_c, tile__li(lw, 0));
    int wait = em->op2(em, TILE__OP_OR, TL_I1, TL_I1, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->pp_first, tile__li(lw, 0)), second);
    em->if_begin(em, wait);
    tile__ptx_bar_named_reg(em, 0, tile__iadd(lw, lw->pp_c, tile__li(lw, 3)), 2 * lw->nthreads);
    em->if_end(em);
    tile__elem z, one;
    z.i = 0;
    one.i = 1;
    int span = em->op2(em, TILE__OP_SUB, it, it, hi, lo);
    int onev = em->lit(em, it, one);
    int trips = em->op2(em, TILE__OP_DIV, it, it, em->op2(em, TILE__OP_SUB, it, it, em->op2(em, TILE__OP_ADD, it, it, span, step), onev), step);
    int none = em->lit(em, it, z);
    trips = em->op3(em, TILE__OP_WHERE, it, it, em->op2(em, TILE__OP_GT, it, TL_I1, span, em->lit(em, it, z)), trips, none);
    if (it != TL_I32) trips = em->op1(em, TILE__OP_CAST, it, TL_I32, trips);
    int onei = tile__li(lw, 1);
    int skip = em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, em->op2(em, TILE__OP_NE, TL_I32, TL_I1, lw->pp_first, tile__li(lw, 0)), lw->pp_c, onei);
    int at = tile__iadd(lw, lw->ws_stage, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, skip, trips));
    int wraps = tile__iop(lw, TILE__OP_DIV, at, S);
    em->assign(em, lw->ws_stage, em->op2(em, TILE__OP_SUB, TL_I32, TL_I32, at, tile__iop(lw, TILE__OP_MUL, wraps, S)));
    em->assign(em, lw->ws_phase, em->op2(em, TILE__OP_XOR, TL_I32, TL_I32, lw->ws_phase, tile__iop(lw, TILE__OP_AND, wraps, 1)));
    em->assign(em, lw->pp_first, tile__li(lw, 0));
}
/* >>pingpong: after consumer c's ring has waited for its last stage, the
   other may start its own, if the program has a next iteration (the
   other's): arrive on named barrier 4 - c without waiting */
static void tile__pp_ring_end(tile__lower *lw) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const tile__op *wop = &f->ops[lw->plan->ws_outer];
    tl_dtype oit = tile__vdt(lw, f->pool[wop->opnd]);
    int next = em->op2(em, TILE__OP_ADD, oit, oit, lw->pp_iv, lw->pp_step);
    em->if_begin(em, em->op2(em, TILE__OP_LT, oit, TL_I1, next, lw->pp_hi));
    tile__ptx_bar_named_reg(em, 1, em->op2(em, TILE__OP_SUB, TL_I32, TL_I32, tile__li(lw, 4), lw->pp_c), 2 * lw->nthreads);
    em->if_end(em);
}
/* the consumers' ring: the loop without its copies */
static void tile__ws_consumer_ring(tile__lower *lw, const tile__op *op, const tile__loop_plan *p) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd, *args = f->pool + f->regs[op->region[0]].args;
    int ak = p->async_carry;
    for (int k = 0; k < op->nres; k++) tile__vars_for(lw, args[1 + k], tile__converted(lw, o[3 + k], &lw->lay[args[1 + k]]));
    tl_dtype it = tile__vdt(lw, o[0]);
    int iv = tile__vars_for(lw, args[0], NULL)[0];
    int lo = lw->regs[o[0]][0], step = lw->regs[o[2]][0], hi = tile__for_hi(lw, op);
    if (lw->pp) tile__pp_ring_start(lw, it, lo, hi, step, p->stages);
    int lane0 = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->lane, tile__li(lw, 0));
    int prev = em->var(em, TL_I32, tile__li(lw, 0)), held = em->var(em, TL_I32, tile__li(lw, 0));
    em->for_begin(em, it, iv, lo, hi, step);
    tile__ptx_mbar_wait(em, tile__ws_bar(lw, p->bars, lw->ws_stage), lw->ws_phase);
    tile__ring_body(lw, op, p, lw->ws_stage);   /* with tl_dot reading this stage */
    if (ak >= 0) {   /* the group before this one is done: its stage is free */
        int was = em->op2(em, TILE__OP_NE, TL_I32, TL_I1, held, tile__li(lw, 0));
        int pred = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, lane0, was);
        tile__ptx_mbar_arrive(em, tile__ws_bar(lw, lw->plan->ws_empty, prev), pred);
        em->assign(em, prev, lw->ws_stage);
        em->assign(em, held, tile__li(lw, 1));
    } else {
        tile__ptx_mbar_arrive(em, tile__ws_bar(lw, lw->plan->ws_empty, lw->ws_stage), lane0);
    }
    tile__ws_step(lw, p->stages);
    em->for_end(em);
    /* ping-pong: the other consumer may start its ring once this one has
       waited for its last stage, before this one's last wgmmas are done:
       the other's then queue behind them */
    if (lw->pp) tile__pp_ring_end(lw);
    if (ak >= 0) {
        tile__ptx_wg_sync(em, TILE__WG_WAIT, 0, lw->lay[args[1 + ak]].E, lw->regs[args[1 + ak]]);
        int was = em->op2(em, TILE__OP_NE, TL_I32, TL_I1, held, tile__li(lw, 0));
        int pred = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, lane0, was);
        tile__ptx_mbar_arrive(em, tile__ws_bar(lw, lw->plan->ws_empty, prev), pred);
    }
    tile__loop_results(lw, op, args + 1);
}
/* the kernel body of a warp-specialized plan */
static void tile__lower_ws(tile__lower *lw) {
    tile__emitter *em = lw->em;
    const tile__plan *pl = lw->plan;
    const tile__loop_plan *p = &pl->loops[pl->ws_loop];
    int S = p->stages;
    /* the ring lives through the whole kernel: scratch goes after it, and
       after the stores' own buffers (tile__plan_store_bufs) */
    lw->sbase = pl->ws_bufs ? tile__align1k(pl->ws_end) + pl->ws_bufs : pl->ws_end;
    tile__need_smem(lw, 0);
    int t0 = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0));
    for (int s = 0; s < S; s++) {
        tile__ptx_mbar_init(em, tile__li(lw, (int)p->bars + 8 * s), 1, t0);
        tile__ptx_mbar_init(em, tile__li(lw, (int)pl->ws_empty + 8 * s), lw->nthreads / 32, t0);
    }
    tile__ptx_mbar_init_fence(em, t0);
    em->barrier(em);   /* every thread sees the barriers */
    int wg = tile__ptx_warpgroup(em, lw->tid);
    em->if_begin(em, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, wg, tile__li(lw, 0)));
    tile__ptx_setmaxnreg(em, 0, pl->ws_regs[0]);
    lw->ws_role = TILE__WS_PRODUCER;
    em->if_begin(em, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->warp, tile__li(lw, 0)));
    lw->ws_stage = em->var(em, TL_I32, tile__li(lw, 0));
    lw->ws_phase = em->var(em, TL_I32, tile__li(lw, 0));
    tile__ws_producer_region(lw, 0);
    em->if_end(em);
    em->if_else(em);
    tile__ptx_setmaxnreg(em, 1, pl->ws_regs[1]);
    lw->ws_role = TILE__WS_CONSUMER;
    if (pl->ws_pp) {
        /* >>pingpong: consumer c = wg - 1 of 128 threads, tid from 0 in each;
           its scratch is the c-th half of what is above the ring (the launch
           gives two consumers' worth: see below) */
        lw->pp = 1;
        lw->pp_c = em->op2(em, TILE__OP_SUB, TL_I32, TL_I32, wg, tile__li(lw, 1));
        lw->pp_bar = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, lw->pp_c, tile__li(lw, 1));
    }
    lw->tid = tile__role_tid(lw, lw->tid);
    if (pl->ws_pp) {
        lw->sbase = tile__align1k(pl->ws_end);   /* each half a whole number of KiB from here */
        int sbase = tile__li(lw, (int)lw->sbase);
        int half = tile__iop(lw, TILE__OP_SHR, em->op2(em, TILE__OP_SUB, TL_I32, TL_I32, tile__ptx_dyn_smem(em), sbase), 1);
        lw->pp_sreg = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, lw->pp_c, half);
        lw->pp_first = em->var(em, TL_I32, tile__li(lw, 1));
        lw->sbase += pl->ws_bufs;   /* each half starts with the stores' own buffers */
    }
    lw->warp = em->op2(em, TILE__OP_SHR, TL_I32, TL_I32, lw->tid, tile__li(lw, 5));   /* (lane: tid's low bits are the same) */
    lw->ws_stage = em->var(em, TL_I32, tile__li(lw, 0));
    lw->ws_phase = em->var(em, TL_I32, tile__li(lw, 0));
    tile__lower_region(lw, 0);
    /* the stores' own buffers: the engine has read the last of them */
    if (pl->ws_bufs) tile__ptx_bulk_wait_read(em, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0)));
    em->if_end(em);
    lw->ws_role = 0;
    lw->pp = 0;
    /* ping-pong: two consumers' scratch, each a whole number of KiB (wgmma's
       staging is 1 KiB-aligned) */
    if (pl->ws_pp) lw->smem = tile__align1k(pl->ws_end) + 2 * tile__align1k(lw->smem - tile__align1k(pl->ws_end));
}
static void tile__lower_for_sched(tile__lower *lw, const tile__op *op, const tile__loop_plan *p) {
    if (lw->ws_role == TILE__WS_CONSUMER && p == &lw->plan->loops[lw->plan->ws_loop]) tile__ws_consumer_ring(lw, op, p);
    else if (p->kind == TILE__SCHED_TMA) tile__lower_for_tma(lw, op, p);
    else tile__lower_for_ring(lw, op, p);
}

/* ---- >>tma: a descriptor store or reduction through the copy engine (tile__tma_store_candidate)
   Each thread writes its elements into the block's copy in shared memory,
   laid out as the rings' boxes are (one box of 128 bytes by the block's
   rows per 128 / es columns, 128-byte swizzled: element (r, c) in box
   c / (128 / es), row r, 16-byte chunk (c % (128 / es) / (16 / es)) ^ (r % 8),
   so that the 8 rows a warp's store touches fall in different banks), a
   pair of 16-bit columns as one 32-bit word where the layout holds pairs
   (an MMA layout); each fences its stores for the async proxy; after the
   barrier one thread issues a copy (or a reduction: op->i[0] is the
   atomic kind) per box and waits until the engine has read them (not
   until they are written), and after a second barrier the memory is
   scratch again.
   The H100 takes a box stored or reduced from shared memory only where it
   starts at a coordinate >= 0 and on a whole 16 bytes of its row (anything
   else is CUDA_ERROR_ILLEGAL_INSTRUCTION; a box past the end is clipped):
   a block elsewhere is stored, or reduced, an element at a time under its
   bounds (tile__desc_store_elems). The offsets are scalars, so the whole
   program takes one branch and the barriers in it stay whole. */
/* a scalar value's register as dtype `to` */
static int tile__scalar_as(tile__lower *lw, int v, tl_dtype to) {
    tl_dtype dt = tile__vdt(lw, v);
    int r = lw->regs[v][0];
    return dt == to ? r : lw->em->op1(lw->em, TILE__OP_CAST, dt, to, r);
}
/* descriptor store (reduction) op without the copy engine: each element
   its thread owns at base + (row + r) * stride0 + (col + c), where
   0 <= row + r < shape0 and 0 <= col + c < shape1 (the innermost stride is
   1), as the pointer form of a descriptor store does (passes.h) */
static void tile__desc_store_elems(tile__lower *lw, const tile__op *op, int row, int col) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int v = f->pool[op->opnd + 1];
    const tile__layout *L = &lw->lay[v];
    tl_dtype dt = tile__vdt(lw, v);
    const tile__op *md = &f->ops[f->vals[f->pool[op->opnd]].def];
    int rank = (md->nopnd - 1) / 2, es = (int)tile__dt[f->vals[v].t.dtype].bytes;
    int base = lw->regs[f->pool[md->opnd]][0], zero = tile__li(lw, 0);
    int shape[2] = {tile__scalar_as(lw, f->pool[md->opnd + 1], TL_I32), tile__scalar_as(lw, f->pool[md->opnd + 2], TL_I32)};
    int stride0 = tile__scalar_as(lw, f->pool[md->opnd + 1 + rank], TL_I64);
    int saved[3] = {lw->tid, lw->lane, lw->warp};
    tile__tid_fresh(lw);
    int own = tile__owner_reg(lw, L);
    for (int e = 0; e < L->E; e++) {
        int at[2], in = own;
        for (int d = 0; d < 2; d++) {
            at[d] = tile__iadd(lw, d ? col : row, tile__coord_reg(lw, L, e, d));
            in = tile__and_pred(lw, in, em->op2(em, TILE__OP_GE, TL_I32, TL_I1, at[d], zero));
            in = tile__and_pred(lw, in, em->op2(em, TILE__OP_LT, TL_I32, TL_I1, at[d], shape[d]));
        }
        int off = em->op2(em, TILE__OP_MUL, TL_I64, TL_I64, em->op1(em, TILE__OP_CAST, TL_I32, TL_I64, at[0]), stride0);
        off = em->op2(em, TILE__OP_ADD, TL_I64, TL_I64, off, em->op1(em, TILE__OP_CAST, TL_I32, TL_I64, at[1]));
        int p = em->ptr_add(em, base, off, TL_I64, es);
        if (op->i[0] < 0) em->store(em, dt, 1, p, in, &lw->regs[v][e], 0, 0);
        else em->atomic(em, (int)op->i[0], dt, p, lw->regs[v][e], in, TL_SEM_RELAXED, TL_SCOPE_GPU);
    }
    lw->tid = saved[0], lw->lane = saved[1], lw->warp = saved[2];
}
static void tile__lower_desc_store_tma(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int v = f->pool[op->opnd + 1], np = f->nparams < TILE__MAX_PARAMS ? f->nparams : TILE__MAX_PARAMS;
    const tile__type *t = &f->vals[v].t;
    const tile__layout *L = &lw->lay[v];
    tl_dtype dt = tile__vdt(lw, v);
    int es = (int)tile__dt[t->dtype].bytes, per_box = 128 / es, per_chunk = 16 / es, lg_box = es == 2 ? 6 : 5;
    int rows = t->shape[0], cols = t->shape[1], pairs = es == 2 && L->kind == TILE__LAYOUT_MMA && L->E % 2 == 0;
    /* the op's scratch, or its own buffer (tile__plan_store_bufs): addressed
       from 0 while it is lowered (a warp-specialized kernel's: from the
       start of the consumer's scratch), not from the scratch's start */
    size_t sbase = lw->sbase, own = (size_t)tile__plan_store_buf(lw->plan, op);
    if (own) lw->sbase = lw->plan->ws ? tile__align1k(lw->plan->ws_end) : 0;
    size_t base = own ? own - 1 : tile__align1k(lw->sbase) - lw->sbase;   /* the swizzle atoms start on 1024 bytes */
    tile__need_smem(lw, base + (size_t)rows * (size_t)cols * (size_t)es);
    int tmap = tile__ptx_param_addr(em, f->name, np + tile__plan_store_map(lw->plan, op));
    int t0 = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0));
    int row = tile__scalar_as(lw, f->pool[op->opnd + 2], TL_I32), col = tile__scalar_as(lw, f->pool[op->opnd + 3], TL_I32), zero = tile__li(lw, 0);
    int fits = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, em->op2(em, TILE__OP_GE, TL_I32, TL_I1, row, zero),
                       em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, tile__iop(lw, TILE__OP_AND, col, INT_MIN | (per_chunk - 1)), zero));
    em->if_begin(em, fits);   /* col >= 0 and a whole number of 16-byte chunks: its sign bit and low bits clear */
    if (own) tile__ptx_bulk_wait_read(em, t0);   /* the engine has read the last iteration's tile */
    tile__sync(lw);   /* the scratch may hold what an earlier op still reads */
    int saved[3] = {lw->tid, lw->lane, lw->warp};
    tile__tid_fresh(lw);   /* the addresses from the thread's index read here, not hoisted */
    tile__elem sh;
    sh.u = 16;
    int sixteen = em->lit(em, TL_U32, sh);
    for (int e = 0; e < L->E; e += pairs ? 2 : 1) {
        int r = tile__coord_reg(lw, L, e, 0), c = tile__coord_reg(lw, L, e, 1);
        int chunk = tile__iop(lw, TILE__OP_SHR, tile__iop(lw, TILE__OP_AND, c, per_box - 1), es == 2 ? 3 : 2);
        int sw = tile__iop(lw, TILE__OP_SHL, em->op2(em, TILE__OP_XOR, TL_I32, TL_I32, chunk, tile__iop(lw, TILE__OP_AND, r, 7)), 4);
        int rb = tile__iop(lw, TILE__OP_MUL, r, 128);
        int off = tile__iadd(lw, tile__iop(lw, TILE__OP_MUL, tile__iop(lw, TILE__OP_SHR, c, lg_box), rows * 128), rb);
        int cb = tile__iop(lw, TILE__OP_MUL, tile__iop(lw, TILE__OP_AND, c, per_chunk - 1), es);
        off = tile__iadd(lw, tile__iadd(lw, off, sw), cb);
        off = tile__iadd(lw, off, tile__li(lw, (int)base));
        if (!pairs) {
            tile__sst(lw, dt, off, lw->regs[v][e]);
            continue;
        }
        int half[2];
        for (int h = 0; h < 2; h++)   /* the element's bits, zero-extended */
            half[h] = em->op1(em, TILE__OP_CAST, TL_U16, TL_U32, em->op1(em, TILE__OP_BITCAST, dt, TL_U16, lw->regs[v][e + h]));
        tile__sst(lw, TL_U32, off, em->op2(em, TILE__OP_OR, TL_U32, TL_U32, half[0], em->op2(em, TILE__OP_SHL, TL_U32, TL_U32, half[1], sixteen)));
    }
    lw->tid = saved[0], lw->lane = saved[1], lw->warp = saved[2];
    tile__ptx_wg_sync(em, TILE__WG_PROXY, 0, 0, NULL);   /* generic stores, then the copy engine's reads */
    tile__sync(lw);
    for (int j = 0; j < cols / per_box; j++) {
        int coords[2] = {j ? tile__iadd(lw, col, tile__li(lw, per_box * j)) : col, row};
        tile__ptx_tma_store(em, tile__soff(lw, tile__li(lw, (int)base + j * rows * 128)), tmap, 2, coords, (int)op->i[0], t0);
    }
    if (own) tile__ptx_bulk_commit(em, t0);   /* read while the body goes on */
    else {
        tile__ptx_bulk_commit_read(em, t0);
        tile__sync(lw);
    }
    lw->sbase = sbase;
    em->if_else(em);
    tile__desc_store_elems(lw, op, row, col);
    em->if_end(em);
}

/* ---- the entry -------------------------------------------------------------------------- */
static const tile__arch_rules tile__rules = {tile__lower_dot_tc, tile__lower_for_sched, tile__lower_ws, tile__lower_desc_store_tma, tile__pin_stage};
/* Lower f for cfg as its plan says, through em (the CUDA C emitter's or a
   back end's); what the launch needs comes back in *meta. */
static tile_status tile__lower_func(const tile__func *f, const tile__config *cfg, const tile__plan *plan, tile__emitter *em, tile__kernel_meta *meta) {
    return tile__lower_with(f, cfg, plan, &tile__rules, em, meta);
}
