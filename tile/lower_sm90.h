/* tile/lower_sm90.h — >>lower_sm90: the lowering's sm_90a part: tl_dot on
   wgmma.mma_async, the choice between it and mma.sync (tile/lower_sm80.h),
   and the lowering's entry, the core with these parts. */

/* >>wgmma: the warpgroup's m64nNk16 instructions, K/16 x repm of them, with
   operands read from shared memory by descriptor, then one commit and a
   wait for all of them (the stages can then be overwritten). Warpgroup g
   of repetition rm has rows 16 wm rm + 64 g: A's descriptor starts there
   and at the k step's 32 bytes (inside a 128-byte swizzle atom the
   hardware applies the XOR to the address), B's at k row 16 kk. */
static void tile__lower_dot_wgmma(tile__lower *lw, const tile__op *op, int kind, const tile__smop *sa, const tile__smop *sb) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int c = f->pool[op->opnd + 2], res = op->res;
    const tile__layout *L = &lw->lay[res];
    int N = L->shape[1], K = f->vals[f->pool[op->opnd]].t.shape[1];
    tl_dtype rt = tile__vdt(lw, res);
    int *acc = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)L->E);
    for (int e = 0; e < L->E; e++) {
        tile__elem z;
        z.u = 0;
        acc[e] = !c ? em->lit(em, TL_F32, z) : rt == TL_F32 ? lw->regs[c][e] : em->op1(em, TILE__OP_CAST, rt, TL_F32, lw->regs[c][e]);
    }
    /* descriptors' hi bits: 128B swizzle; SBO 1024 (8 rows of 128 bytes) for
       both; LBO unused for K-major A (1), the 64-column blocks' distance for
       N-major B */
    uint64_t sw = (uint64_t)1 << 62, sbo = (uint64_t)(1024 >> 4) << 32;
    uint64_t hia = sw | sbo | (uint64_t)1 << 16, hib = sw | sbo | (uint64_t)(sb->rows * 128 >> 4) << 16;
    int arow = tile__iop(lw, TILE__OP_MUL, tile__iop(lw, TILE__OP_SHR, lw->warp, 2), 64 * 128);
    int abase = tile__iadd(lw, sa->base, arow), stride = L->repn * 4;
    tile__ptx_wg_sync(em, TILE__WG_FENCE, 0, L->E, acc);
    for (int kk = 0; kk < K / 16; kk++) {
        int kb = kk * 32;
        int offb = tile__iadd(lw, sb->base, tile__li(lw, kk * 16 * 128));
        for (int rm = 0; rm < L->repm; rm++) {
            int offa = tile__iadd(lw, abase, tile__li(lw, (kb / 128 * sa->rows + rm * 16 * L->wm) * 128 + kb % 128));
            tile__ptx_wgmma(em, kind, N, offa, hia, offb, hib, acc + rm * stride, acc + rm * stride);
        }
    }
    tile__ptx_wg_sync(em, TILE__WG_COMMIT, 0, 0, NULL);
    tile__ptx_wg_sync(em, TILE__WG_WAIT, lw->async_dot == res ? 1 : 0, L->E, acc);   /* see tile__async_dot */
    int *out = tile__regs_new(lw, res);
    for (int e = 0; e < L->E; e++) out[e] = rt == TL_F32 ? acc[e] : em->op1(em, TILE__OP_CAST, TL_F32, rt, acc[e]);
    tile__lw_free(lw, acc);
}
/* a tl_dot on tensor cores: its operands staged in shared memory (unless
   a ring has them there), then mma.sync or wgmma */
static void tile__lower_dot_tc(tile__lower *lw, const tile__op *op, int kind) {
    const tile__func *f = lw->f;
    int wg = tile__plan_wgmma(lw->plan, op);
    tile__smop s[2];
    size_t off = wg ? tile__align1k(lw->sbase) - lw->sbase : 0;   /* wgmma's swizzle atoms start on 1024 bytes */
    int staged = 0;
    for (int k = 0; k < 2; k++) {
        int v = f->pool[op->opnd + k];
        const tile__type *t = &f->vals[v].t;
        int es = (int)tile__dt[tile__mma_sdt(t->dtype)].bytes;
        s[k].rowbytes = t->shape[1] * es;
        s[k].rows = t->shape[0];
        if (lw->pipe && lw->pipe[v]) {
            s[k].base = tile__iadd(lw, lw->pipe_cur, tile__li(lw, lw->pipe[v] - 1));
            continue;
        }
        s[k].base = tile__li(lw, (int)(lw->sbase + off));
        off += ((size_t)tile__numel(t) * (size_t)es + 127) / 128 * 128;
        if (wg) off = tile__align1k(off);
        staged |= 1 << k;
    }
    if (staged) {
        tile__need_smem(lw, off);
        lw->em->barrier(lw->em);
        for (int k = 0; k < 2; k++)
            if (staged >> k & 1) tile__mma_stage(lw, f->pool[op->opnd + k], &s[k]);
        if (wg) tile__ptx_wg_sync(lw->em, TILE__WG_PROXY, 0, 0, NULL);   /* generic-proxy stores, then wgmma's reads */
        lw->em->barrier(lw->em);
    }
    if (wg) tile__lower_dot_wgmma(lw, op, kind, &s[0], &s[1]);
    else tile__lower_dot_mma(lw, op, kind, &s[0], &s[1]);
    if (staged) lw->em->barrier(lw->em);
}

/* ---- the entry -------------------------------------------------------------------------- */
static const tile__arch_rules tile__rules = {tile__lower_dot_tc, tile__lower_for_ring};
/* Lower f for cfg as its plan says, through em (the CUDA C emitter's or a
   back end's); what the launch needs comes back in *meta. */
static tile_status tile__lower_func(const tile__func *f, const tile__config *cfg, const tile__plan *plan, tile__emitter *em, tile__kernel_meta *meta) {
    return tile__lower_with(f, cfg, plan, &tile__rules, em, meta);
}
