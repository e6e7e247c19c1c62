/* tile/lower_sm80.h — >>lower_sm80: the lowering's sm_80 part: tl_dot on
   mma.sync through swizzled shared memory and ldmatrix, and the cp.async
   ring of a TL_FOR the plan pipelines. The core (tile/lower.h) calls it
   through tile__arch_rules. */

/* ---- tl_dot on tensor cores (>>mma) -------------------------------------------------
   The result has the MMA layout. Each operand is a row-major tile in shared
   memory, A [M,K] and B [K,N], staged there from registers or written there
   by the pipeliner's cp.async copies. Rows are cut into 16-byte chunks; in
   every 128-byte line of a tile, chunk j is stored at j ^ (key % 8), the key
   being the row (rows of 128 bytes or more) or the line (shorter rows), so
   the 8 row addresses of one ldmatrix phase (and the chunks 8 lanes copy)
   fall in 8 distinct bank groups. Per k-step of 32 bytes of K a warp loads its A
   fragments with ldmatrix.x4 (16 rows x 32 bytes: the register layout of
   the A operand for f16, bf16, tf32 and i8 alike), its B fragments with
   ldmatrix.x4.trans for 16-bit types (two n8 tiles at a time) or with
   shared loads for tf32 and i8, then issues one mma per 16x8 tile. */


/* a dot operand in shared memory: `rows` rows of `rowbytes`, at byte offset
   `base` (a register); kmaj: B stored transposed, its N rows of K (wgmma);
   raw: its own dtype there, fp8 not widened (native fp8 wgmma, >>f8) */
typedef struct tile__smop { int base, rowbytes, rows, kmaj, raw; } tile__smop;
/* The byte offset of byte `cb` of row `row` (registers) in a swizzled tile.
   Rows of a multiple of 128 bytes are cut into 128-byte column blocks, each
   `rows` lines of 128 bytes, one after the other: wgmma's canonical 128B
   swizzled layout when the tile starts on 1024 bytes. */
static int tile__swz(tile__lower *lw, const tile__smop *s, int row, int cb) {
    if (s->rowbytes % 128 == 0) {
        int line = tile__iadd(lw, tile__iop(lw, TILE__OP_MUL, tile__iop(lw, TILE__OP_SHR, cb, 7), s->rows), row);
        int key = tile__iop(lw, TILE__OP_AND, row, 7);
        int j = lw->em->op2(lw->em, TILE__OP_XOR, TL_I32, TL_I32, tile__iop(lw, TILE__OP_AND, tile__iop(lw, TILE__OP_SHR, cb, 4), 7), key);
        int jb = tile__iop(lw, TILE__OP_SHL, j, 4);
        int off = tile__iadd(lw, tile__iop(lw, TILE__OP_SHL, line, 7), jb);
        return tile__iadd(lw, s->base, tile__iadd(lw, off, tile__iop(lw, TILE__OP_AND, cb, 15)));
    }
    int cq = tile__iop(lw, TILE__OP_SHR, cb, 4);
    int q = tile__iadd(lw, tile__iop(lw, TILE__OP_MUL, row, s->rowbytes / 16), cq);
    int line = tile__iop(lw, TILE__OP_SHR, q, 3);
    /* the key: the line for rows shorter than a line, else the row (8 rows in a row never share a key) */
    int key = tile__iop(lw, TILE__OP_AND, s->rowbytes >= 128 ? row : line, 7);
    int j = lw->em->op2(lw->em, TILE__OP_XOR, TL_I32, TL_I32, tile__iop(lw, TILE__OP_AND, q, 7), key);
    int jb = tile__iop(lw, TILE__OP_SHL, j, 4);
    int off = tile__iadd(lw, tile__iop(lw, TILE__OP_SHL, line, 7), jb);
    return tile__iadd(lw, s->base, tile__iadd(lw, off, tile__iop(lw, TILE__OP_AND, cb, 15)));
}
/* write a blocked operand from registers into its shared tile (B
   transposed when s->kmaj) */
static void tile__mma_stage(tile__lower *lw, int v, const tile__smop *s) {
    tile__emitter *em = lw->em;
    const tile__layout *L = &lw->lay[v];
    tl_dtype t = tile__vdt(lw, v), st = s->raw ? t : tile__mma_sdt(t);
    int es = (int)tile__dt[st].bytes, inner = !s->kmaj;
    for (int e = 0; e < L->E; e++) {
        int val = st == t ? lw->regs[v][e] : em->op1(em, TILE__OP_CAST, t, st, lw->regs[v][e]);
        int cb = tile__iop(lw, TILE__OP_MUL, tile__coord_reg(lw, L, e, inner), es);
        em->smem_store(em, st, tile__swz(lw, s, tile__coord_reg(lw, L, e, 1 - inner), cb), val);
    }
}
/* >>pin: value v into its own shared tile (tile__plan_pins), as a dot stages an operand */
static void tile__pin_stage(tile__lower *lw, int v) {
    const tile__type *t = &lw->f->vals[v].t;
    tile__smop s;
    s.base = tile__li(lw, lw->plan->pin[v] - 1);
    s.rowbytes = t->shape[1] * (int)tile__dt[tile__mma_sdt(t->dtype)].bytes;
    s.rows = t->shape[0];
    s.kmaj = s.raw = 0;
    tile__sync(lw);
    tile__mma_stage(lw, v, &s);
    if (lw->plan->wgmma) tile__ptx_wg_sync(lw->em, TILE__WG_PROXY, 0, 0, NULL);   /* generic-proxy stores, then wgmma's reads */
    tile__sync(lw);
}
/* f32 bits -> tf32 bits (round to nearest even), and the remainder's for tf32x3 */
static int tile__tf32_bits(tile__lower *lw, int bits, int *small) {
    tile__emitter *em = lw->em;
    int x = em->op1(em, TILE__OP_BITCAST, TL_I32, TL_F32, bits);
    int big = em->round_tf32(em, x);
    if (small)
        *small = em->op1(em, TILE__OP_BITCAST, TL_F32, TL_I32,
                          em->round_tf32(em, em->op2(em, TILE__OP_SUB, TL_F32, TL_F32, x, big)));
    return em->op1(em, TILE__OP_BITCAST, TL_F32, TL_I32, big);
}
static void tile__lower_dot_mma(tile__lower *lw, const tile__op *op, int kind, const tile__smop *sa, const tile__smop *sb) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int a = f->pool[op->opnd], c = f->pool[op->opnd + 2], res = op->res;
    const tile__layout *L = &lw->lay[res];
    int M = L->shape[0], N = L->shape[1], K = f->vals[a].t.shape[1];
    tl_dtype rt = tile__vdt(lw, res), ct = kind == TILE__MMA_I8 ? TL_I32 : TL_F32;
    int es = (int)tile__dt[tile__mma_sdt(f->vals[a].t.dtype)].bytes, ksteps = K * es / 32, kel = 32 / es;
    int x3 = kind == TILE__MMA_TF32 && op->i[0] == TL_PRECISION_TF32X3;
    int rnd = kind == TILE__MMA_TF32;
    int repm = L->repm, repn = L->repn;
    int wr = tile__iop(lw, TILE__OP_MUL, tile__mma_wpos(lw, L, 0), L->ilv ? 16 : M / L->wm);
    int wc = tile__iop(lw, TILE__OP_MUL, tile__mma_wpos(lw, L, 1), N / L->wn);
    int l15 = tile__iop(lw, TILE__OP_AND, lw->lane, 15), l16 = tile__iop(lw, TILE__OP_AND, lw->lane, 16);
    int g = tile__iop(lw, TILE__OP_SHR, lw->lane, 2), t4 = tile__iop(lw, TILE__OP_AND, lw->lane, 3);
    int *acc = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)(L->E + repm * 8 + repn * 4));
    int *afr = acc + L->E, *asm_ = afr + repm * 4, *bfr = asm_ + repm * 4, *bsm = bfr + repn * 2;
    for (int e = 0; e < L->E; e++) {
        tile__elem z;
        z.u = 0;
        acc[e] = !c ? em->lit(em, ct, z) : rt == ct ? lw->regs[c][e] : em->op1(em, TILE__OP_CAST, rt, ct, lw->regs[c][e]);
    }
    for (int kk = 0; kk < ksteps; kk++) {
        /* A: rows wr + 16 rm + (lane & 15), bytes 32 kk + (lane & 16) */
        for (int rm = 0; rm < repm; rm++) {
            int row = tile__iadd(lw, wr, tile__iadd(lw, l15, tile__li(lw, tile__mma_row0(L, 0, rm))));
            tile__ptx_ldmatrix(em, tile__swz(lw, sa, row, tile__iadd(lw, l16, tile__li(lw, kk * 32))), 4, 0, afr + rm * 4);
            if (rnd)
                for (int q = 0; q < 4; q++) afr[rm * 4 + q] = tile__tf32_bits(lw, afr[rm * 4 + q], x3 ? &asm_[rm * 4 + q] : NULL);
        }
        /* B */
        for (int rn = 0; rn < repn; rn++) {
            if ((kind == TILE__MMA_F16 || kind == TILE__MMA_BF16) && sb->kmaj) {
                /* B^T's rows in the stage (n, then k): ldmatrix.x4 without
                   .trans gives b0, b1 of tiles rn and rn + 1 (lanes 0-7:
                   n rows, k 0-7; 8-15: k 8-15; 16-31: the next 8 n) */
                if (rn & 1) continue;
                int rn8 = tile__li(lw, rn * 8);
                int nn = tile__iadd(lw, tile__iop(lw, TILE__OP_SHR, l16, 1), rn8);
                int n = tile__iadd(lw, wc, tile__iadd(lw, tile__iop(lw, TILE__OP_AND, lw->lane, 7), nn));
                int kk16 = tile__li(lw, kk * 16);
                int kb = tile__iadd(lw, tile__iop(lw, TILE__OP_AND, lw->lane, 8), kk16);
                int out[4];
                tile__ptx_ldmatrix(em, tile__swz(lw, sb, n, tile__iop(lw, TILE__OP_MUL, kb, 2)), rn + 1 < repn ? 4 : 2, 0, out);
                for (int q = 0; q < (rn + 1 < repn ? 4 : 2); q++) bfr[rn * 2 + q] = out[q];
                continue;
            }
            if (kind == TILE__MMA_F16 || kind == TILE__MMA_BF16) {
                if (rn & 1) continue;
                /* k rows 16 kk + (lane & 15), columns wc + 8 rn + ((lane & 16) ? 8 : 0) */
                int row = tile__iadd(lw, l15, tile__li(lw, kk * 16));
                int cn = tile__iadd(lw, l16, tile__li(lw, rn * 16));
                int cb = tile__iadd(lw, tile__iop(lw, TILE__OP_MUL, wc, 2), cn);
                int out[4];
                tile__ptx_ldmatrix(em, tile__swz(lw, sb, row, cb), rn + 1 < repn ? 4 : 2, 1, out);
                bfr[rn * 2] = out[0];
                bfr[rn * 2 + 1] = out[1];
                if (rn + 1 < repn) {
                    bfr[rn * 2 + 2] = out[2];
                    bfr[rn * 2 + 3] = out[3];
                }
                continue;
            }
            int n = tile__iadd(lw, wc, tile__iadd(lw, g, tile__li(lw, rn * 8)));
            for (int h = 0; h < 2; h++) {
                if (kind == TILE__MMA_TF32) {   /* b_h = B[8 kk + t + 4 h][n] */
                    int k = tile__iadd(lw, t4, tile__li(lw, kk * kel + 4 * h));
                    int bits = em->smem_load(em, TL_I32, tile__swz(lw, sb, k, tile__iop(lw, TILE__OP_MUL, n, 4)));
                    bfr[rn * 2 + h] = tile__tf32_bits(lw, bits, x3 ? &bsm[rn * 2 + h] : NULL);
                } else {                          /* i8: b_h = B[32 kk + 16 h + 4 t + 0..3][n], packed */
                    int word = -1;
                    for (int j = 0; j < 4; j++) {
                        int kj = tile__li(lw, kk * kel + 16 * h + j);
                        int k = tile__iadd(lw, tile__iop(lw, TILE__OP_SHL, t4, 2), kj);
                        int byte = em->op1(em, TILE__OP_CAST, TL_U8, TL_I32, em->smem_load(em, TL_U8, tile__swz(lw, sb, k, n)));
                        if (j) byte = tile__iop(lw, TILE__OP_SHL, byte, 8 * j);
                        word = j ? em->op2(em, TILE__OP_OR, TL_I32, TL_I32, word, byte) : byte;
                    }
                    bfr[rn * 2 + h] = word;
                }
            }
        }
        for (int rm = 0; rm < repm; rm++)
            for (int rn = 0; rn < repn; rn++) {
                int *d = acc + (rm * repn + rn) * 4;
                if (x3) {
                    tile__ptx_mma(em, kind, asm_ + rm * 4, bfr + rn * 2, d, d);
                    tile__ptx_mma(em, kind, afr + rm * 4, bsm + rn * 2, d, d);
                }
                tile__ptx_mma(em, kind, afr + rm * 4, bfr + rn * 2, d, d);
            }
    }
    int *out = tile__regs_new(lw, res);
    for (int e = 0; e < L->E; e++) out[e] = rt == ct ? acc[e] : em->op1(em, TILE__OP_CAST, ct, rt, acc[e]);
    tile__lw_free(lw, acc);
}
/* ---- the cp.async ring of a TL_FOR (>>mma) -------------------------------------------
   What the ring is and when a loop gets one is the plan's (tile__loop_plan
   in tile/plan.h); here it is emitted: the prologue's copies, then per
   iteration the wait, the next copies, and the rest of the body reading
   this iteration's stage. */
/* assign the yields of the carried values the slice owns (owned 1) or the others (owned 0) */
static void tile__assign_carried(tile__lower *lw, const tile__op *fop, const tile__loop_plan *p, int owned) {
    const tile__func *f = lw->f;
    const int *args = f->pool + f->regs[fop->region[0]].args;
    const tile__op *y = tile__terminator(f, fop->region[0]);
    int dst[TILE__MAX_CARRY + 1], src[TILE__MAX_CARRY + 1], cnt = 0;
    for (int k = 0; k < fop->nres; k++)
        if (p->ap[k] == owned) {
            dst[cnt] = args[1 + k];
            src[cnt++] = f->pool[y->opnd + k];
        }
    tile__assign_all(lw, cnt, dst, src);
}
/* lower the address slice for the iteration whose induction value is in
   args[0]'s register, and issue its copies into the stage at `stage` */
static void tile__pipe_issue(tile__lower *lw, const tile__op *fop, const tile__loop_plan *p, const int *loff, int stage, int valid) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const tile__region *R = &f->regs[fop->region[0]];
    for (int k = 0; k < R->nops && lw->st == TILE_OK; k++)
        if (p->in_slice[R->ops[k]] && !f->ops[R->ops[k]].dead) tile__lower_op(lw, &f->ops[R->ops[k]]);
    for (int l = 0; l < p->nloads; l++) {
        const tile__op *ld = &f->ops[f->vals[p->loads[l]].def];
        int ptr = f->pool[ld->opnd], m = f->pool[ld->opnd + 1];
        const tile__layout *Lp = &lw->lay[ptr];
        const int *mr = m ? tile__converted(lw, m, Lp) : NULL;
        tl_dtype t = tile__vdt(lw, p->loads[l]);
        int es = (int)tile__dt[t].bytes;
        tile__smop s;
        s.kmaj = s.raw = 0;
        s.base = tile__iadd(lw, stage, tile__li(lw, loff[l]));
        s.rowbytes = f->vals[p->loads[l]].t.shape[1] * es;
        s.rows = f->vals[p->loads[l]].t.shape[0];
        for (int e = 0; e < Lp->E;) {
            int w = tile__vec_width(t, tile__run_at(Lp, e), lw->ax[ptr], m ? &lw->ax[m] : NULL);
            int cb = tile__iop(lw, TILE__OP_MUL, tile__coord_reg(lw, Lp, e, 1), es);
            int at = tile__swz(lw, &s, tile__coord_reg(lw, Lp, e, 0), cb);
            tile__ptx_cp_async(em, at, lw->regs[ptr][e], w * es, tile__and_pred(lw, valid, mr ? mr[e] : -1));
            e += w;
        }
    }
    tile__ptx_cp_commit(em);
    tile__assign_carried(lw, fop, p, 1);   /* advance the carried values the slice owns */
}
/* the rest of a ring's body (not its address slice, not its loads), with
   tl_dot reading the stage at register index cur; then the carried values
   the body yields (tile__lower_for_ring, and the TMA ring of lower_sm90.h) */
static void tile__ring_body(tile__lower *lw, const tile__op *op, const tile__loop_plan *p, int cur) {
    const tile__func *f = lw->f;
    const tile__region *R = &f->regs[op->region[0]];
    int at = tile__iop(lw, TILE__OP_MUL, cur, p->slot);
    lw->pipe_cur = tile__iadd(lw, tile__li(lw, (int)p->base), at);
    for (int l = 0; l < p->nloads; l++) {
        lw->pipe[p->loads[l]] = 1 + p->loff[l];
        if (p->tval[l]) lw->pipe[p->tval[l]] = -(1 + p->loff[l]);   /* >>wgmma: read K-major */
    }
    lw->async_dot = p->async_carry >= 0 ? f->pool[tile__terminator(f, op->region[0])->opnd + p->async_carry] : 0;
    lw->wg_body = 1 + op->region[0], lw->wg_groups = lw->nwgp = 0;   /* >>overlap */
    tile__pin_args(lw, op->region[0]);
    for (int k = 0; k < R->nops && lw->st == TILE_OK && p->remat; k++)   /* the slice again, for this iteration */
        if (p->in_slice[R->ops[k]] && !f->ops[R->ops[k]].dead) tile__lower_op(lw, &f->ops[R->ops[k]]);
    for (int k = 0; k < R->nops && lw->st == TILE_OK; k++) {
        const tile__op *bop = &f->ops[R->ops[k]];
        lw->wg_at = k;
        if (!bop->dead && !p->in_slice[R->ops[k]] && !tile__ring_makes_load(p, bop)) tile__lower_op(lw, bop);
    }
    if (lw->nwgp) tile__wg_settle(lw, op, 1);   /* the stages are done with before the body ends */
    lw->wg_body = 0;
    lw->async_dot = 0;
    for (int l = 0; l < p->nloads; l++) lw->pipe[p->loads[l]] = lw->pipe[p->tval[l]] = 0;
    tile__assign_carried(lw, op, p, 0);
}
/* TL_FOR op as its ring: the prologue, the loop, the last waits */
static void tile__lower_for_ring(tile__lower *lw, const tile__op *op, const tile__loop_plan *p) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd;
    const tile__region *R = &f->regs[op->region[0]];
    const int *args = f->pool + R->args;
    int n = op->nres, S = p->stages, slot = p->slot, A = p->ahead, ak = p->async_carry;
    size_t pbase = p->base;
    const int *loff = p->loff;
    lw->sbase = pbase + (size_t)S * (size_t)slot;
    tile__need_smem(lw, 0);
    /* carried values, the induction variable, and the bounds (as tile__lower_for) */
    for (int k = 0; k < n; k++) tile__vars_for(lw, args[1 + k], tile__converted(lw, o[3 + k], &lw->lay[args[1 + k]]));
    tl_dtype it = tile__vdt(lw, o[0]);
    int iv = tile__vars_for(lw, args[0], NULL)[0];
    int lo = lw->regs[o[0]][0], step = lw->regs[o[2]][0], hi = tile__for_hi(lw, op);
    /* prologue: iterations 0 .. A-1 */
    tile__sync(lw);
    for (int s = 0; s < A && lw->st == TILE_OK; s++) {
        tile__elem se;
        se.i = s;
        int ivs = em->op2(em, TILE__OP_ADD, it, it, lo, em->op2(em, TILE__OP_MUL, it, it, step, em->lit(em, it, se)));
        lw->regs[args[0]][0] = ivs;
        int in = em->op2(em, TILE__OP_LT, it, TL_I1, ivs, hi);
        tile__pipe_issue(lw, op, p, loff, tile__li(lw, (int)pbase + s * slot), in);
    }
    int cur = em->var(em, TL_I32, tile__li(lw, 0)), nxt = em->var(em, TL_I32, tile__li(lw, A));
    em->for_begin(em, it, iv, lo, hi, step);
    tile__ptx_cp_wait(em, A - 1);
    if (lw->plan->wgmma) tile__ptx_wg_sync(em, TILE__WG_PROXY, 0, 0, NULL);   /* the copies' writes, then wgmma's reads */
    tile__sync(lw);
    {
        tile__elem se;
        se.i = A;
        int ivf = em->op2(em, TILE__OP_ADD, it, it, iv, em->op2(em, TILE__OP_MUL, it, it, step, em->lit(em, it, se)));
        lw->regs[args[0]][0] = ivf;
        int at = tile__iop(lw, TILE__OP_MUL, nxt, slot);
        int stage = tile__iadd(lw, tile__li(lw, (int)pbase), at);
        tile__pipe_issue(lw, op, p, loff, stage, em->op2(em, TILE__OP_LT, it, TL_I1, ivf, hi));
        lw->regs[args[0]][0] = iv;
    }
    tile__ring_body(lw, op, p, cur);
    for (int q = 0; q < 2; q++) {
        int var = q ? nxt : cur;
        int inc = tile__iadd(lw, var, tile__li(lw, 1));
        int zero = tile__li(lw, 0);
        em->assign(em, var, em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, inc, tile__li(lw, S)), zero, inc));
    }
    em->for_end(em);
    /* the last wgmma group, before the barrier that frees the stages */
    if (ak >= 0) tile__ptx_wg_sync(em, TILE__WG_WAIT, 0, lw->lay[args[1 + ak]].E, lw->regs[args[1 + ak]]);
    tile__ptx_cp_wait(em, 0);
    tile__sync(lw);
    lw->sbase = pbase;
    tile__loop_results(lw, op, args + 1);
}
