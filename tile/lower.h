/* tile/lower.h — >>lower: the lowering of tile IR to thread-level code
   through an emitter, in the layouts of the plan (tile/plan.h).

   Why it is shaped this way: a program of the grid is a CTA of 32*num_warps
   threads. Every tile value gets a distributed *blocked layout* — elements
   per thread along each dim, threads per warp, warps per CTA, row-major
   order — chosen from its shape alone, so elementwise ops between values of
   one shape never move data. Each thread holds its elements in registers;
   a run of `spt` consecutive elements along the last dim is one vector
   access when the alignment analysis proves it contiguous and aligned.
   Ops that change a shape (broadcast, expand_dims, reshape, permute, cat,
   join, split) move elements between layouts, in registers when every
   thread already holds what it needs and through shared memory otherwise;
   reductions go in-thread, then across lanes by shuffles, then across warps
   through shared memory. Rank-0 values are uniform scalars: every thread
   computes them, so runtime control flow (on scalars) never diverges; but
   in a map_elementwise's region (>>map), emitted once per element a thread
   holds, they are that element's, and its branches and loops do diverge
   (which is why nothing there may need the other threads).

   The lowering is written once and calls a `tile__emitter` — the CUDA C
   emitter below today, the LLVM one later — with scalar operations on
   virtual registers (ints). Emitters see no tiles and no layouts.

   Glossary
     spt/tpw/wpc   size per thread / threads per warp / warps per CTA, per dim
     E             elements a thread holds (product of spt * reps)
     owner         the one thread that stores a replicated element
     axis info     per value: contiguity, divisibility, constancy of the last dim
*/

/* ---- lowering state ------------------------------------------------------------------ */
typedef struct tile__lower tile__lower;
enum { TILE__WGP_MAX = 8 };   /* >>overlap: dots in flight at once, at most */
/* The architecture parts of the lowering, which the core calls for what it
   does not lower itself: a tl_dot on tensor cores (mma.sync, wgmma) and a
   TL_FOR with a ring. tile__lower_func passes the library's. */
typedef struct tile__arch_rules {
    void (*dot)(tile__lower *lw, const tile__op *op, int kind);   /* kind: TILE__MMA_* */
    void (*ring)(tile__lower *lw, const tile__op *op, const tile__loop_plan *p);
    void (*ws)(tile__lower *lw);   /* >>ws: the kernel body of a warp-specialized plan */
    void (*desc_store)(tile__lower *lw, const tile__op *op);   /* >>tma: a store through the copy engine */
    void (*pin)(tile__lower *lw, int v);   /* >>pin: a loop-invariant dot operand into its shared tile */
} tile__arch_rules;
struct tile__lower {
    const tile__func *f;
    const tile__plan *plan;           /* what to emit: layouts, facts, schedules     */
    const tile__arch_rules *rules;
    tile__emitter *em;
    int nthreads;
    tile__layout *lay;                /* per value: the layout of the registers it has
                                         now, the plan's but while one op reads it
                                         converted (tile__swap_in)                  */
    int **regs;                       /* per value: E registers (1 for scalars)      */
    const tile__axis *ax;             /* per value: the plan's alignment facts       */
    int tid, lane, warp;              /* registers                                   */
    size_t smem;                      /* shared memory bytes the kernel needs        */
    int has_check;                    /* the device checks it made: TILE__HAS_*_CHECK */
    tile_status st;
    /* >>mma */
    size_t sbase;                     /* scratch shared memory starts here; below it
                                         live the rings of the loops being lowered  */
    int *pipe;                        /* per value: 1 + its byte offset in a stage's
                                         buffers when it is a pipelined load (minus
                                         that for the tl_trans of one, read K-major),
                                         else 0 (pipe[0]: scratch)                  */
    int pipe_cur;                     /* register: byte offset of this iteration's stage */
    int async_dot;                    /* >>wgmma: the tl_dot whose wgmmas stay in flight
                                         into the next iteration (its result), or 0 */
    /* >>ws: in a warp-specialized kernel, the role being lowered (0: none,
       TILE__WS_PRODUCER, TILE__WS_CONSUMER; tid, lane and warp count from
       the role's first thread) and the ring's place, in variables that live
       across the loops around it: the stage and its phase parity */
    int ws_role, ws_stage, ws_phase;
    /* >>profile: in-kernel scopes recorded (cfg->prof), and registers made
       once at the kernel's start: the records' buffer, this unit's first
       record, whether it writes (its first thread, of a recorded program),
       the slots per unit and the variable counting its records */
    int kp_on, kp_buf, kp_base, kp_ok, kp_slots, kp_n;
    /* >>pingpong: pp while a ping-pong consumer is lowered; registers of its index c (0, 1)
       and of its scratch's offset from sbase; the variable `first` (1 until
       its first ring starts); its named barrier's id (1 + c); the split
       loop's induction variable, step and bound as the whole program counts
       them */
    int pp, pp_c, pp_sreg, pp_first, pp_bar, pp_iv, pp_step, pp_hi;
    /* >>overlap: while a ring's body is lowered, 1 + its region (else 0) and
       the index in it of the op being lowered; the wgmma groups the body has
       committed so far; and the dots whose groups are left in flight, oldest
       first: each one's result, the group count at its commit, and its A
       operand's registers (na of them, or none) */
    int wg_body, wg_at, wg_groups, nwgp, wg_work;   /* wg_work: an op other than a dot lowered since the last commit */
    struct { int v, g, na, *a; } wgp[TILE__WGP_MAX];
    int **tmp; int ntmp, captmp;      /* register arrays of converted operands        */
    tile__arena ar;                   /* every allocation (tile__lw_alloc)           */
};
enum { TILE__WS_PRODUCER = 1, TILE__WS_CONSUMER };
static int tile__li(tile__lower *lw, int v);
/* a barrier of the program's threads: in a warp-specialized kernel's
   consumers, of theirs alone (named barrier 1; the producer runs ahead) */
static void tile__sync(tile__lower *lw) {
    if (lw->pp)   /* a ping-pong consumer: named barrier 1 + c */
        tile__ptx_bar_named_reg(lw->em, 0, lw->pp_bar, lw->nthreads);
    else if (lw->ws_role == TILE__WS_CONSUMER) tile__ptx_bar_named(lw->em, 1, lw->nthreads);
    else lw->em->barrier(lw->em);
}
/* n zeroed bytes, never NULL: out of memory, back to tile__lower_func */
static void *tile__lw_alloc(tile__lower *lw, size_t n) { return tile__arena_alloc(&lw->ar, n); }
static void tile__lw_free(tile__lower *lw, void *p) { tile__arena_free(&lw->ar, p); }

static int tile__li(tile__lower *lw, int v) {
    tile__elem e;
    e.i = v;
    return lw->em->lit(lw->em, TL_I32, e);
}
static int *tile__regs_new(tile__lower *lw, int v) {
    const tile__layout *L = &lw->lay[v];
    tile__lw_free(lw, lw->regs[v]);   /* an op lowered again (a pipelined loop's address code) */
    lw->regs[v] = (int *)tile__lw_alloc(lw, (size_t)L->E * sizeof(int));
    return lw->regs[v];
}
static tl_dtype tile__vdt(const tile__lower *lw, int v) { return lw->f->vals[v].t.dtype; }
/* small integer helpers on registers (b a literal) */
static int tile__iop(tile__lower *lw, tile__opcode code, int a, int b) { return lw->em->op2(lw->em, code, TL_I32, TL_I32, a, tile__li(lw, b)); }
static int tile__iop2(tile__lower *lw, tile__opcode code, int a, int b) { return lw->em->op2(lw->em, code, TL_I32, TL_I32, a, b); }   /* two registers */
static int tile__iadd(tile__lower *lw, int a, int b) { return lw->em->op2(lw->em, TILE__OP_ADD, TL_I32, TL_I32, a, b); }
static int tile__and_pred(tile__lower *lw, int a, int b) {
    if (a < 0) return b;
    if (b < 0) return a;
    return lw->em->op2(lw->em, TILE__OP_AND, TL_I1, TL_I1, a, b);
}
/* a register holding this thread's position along dim d (tile__tpos at run time) */
static int tile__tpos_reg(tile__lower *lw, const tile__layout *L, int d) {
    tile__emitter *em = lw->em;
    int lane_div = 1, warp_div = 1;
    for (int k = L->rank - 1; k > d; k--) { lane_div *= L->tpw[k]; warp_div *= L->wpc[k]; }
    int lmask = tile__li(lw, L->tpw[d] - 1);
    int lanepos = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, tile__iop(lw, TILE__OP_DIV, lw->lane, lane_div), lmask);
    int wmask = tile__li(lw, L->wpc[d] - 1);
    int warppos = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, tile__iop(lw, TILE__OP_DIV, lw->warp, warp_div), wmask);
    return em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, warppos, tile__li(lw, L->tpw[d])), lanepos);
}
/* an integer register holding coordinate d of this thread's element e */
static int tile__mma_coord_reg(tile__lower *lw, const tile__layout *L, int e, int d);
static int tile__coord_reg(tile__lower *lw, const tile__layout *L, int e, int d) {
    tile__emitter *em = lw->em;
    if (L->kind == TILE__LAYOUT_MMA) return tile__mma_coord_reg(lw, L, e, d);
    if (L->kind == TILE__LAYOUT_SLICE) {   /* >>slice: the parent's coordinate, or 0 along sdim */
        tile__layout P;
        tile__slice_parent(L, &P);
        if (L->rank == 2 && d == L->sdim) return tile__li(lw, 0);
        return tile__mma_coord_reg(lw, &P, tile__slice_pe(L, e), 1 - L->sdim);
    }
    int per = 1, ee = e;
    for (int k = L->rank - 1; k > d; k--) { per = L->spt[k] * L->reps[k]; ee /= per; }
    per = L->spt[d] * L->reps[d];
    int l = ee % per;
    int off = l / L->spt[d] * L->cover[d] + l % L->spt[d];
    int tpos = tile__tpos_reg(lw, L, d);
    int offr = tile__li(lw, off);
    int c = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__iop(lw, TILE__OP_MUL, tpos, L->spt[d]), offr);
    if (L->cover[d] > L->shape[d]) c = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, c, tile__li(lw, L->shape[d] - 1));
    return c;
}
/* 1 when this thread is the owner of its element e (replicas stay silent) */
static int tile__owner_reg(tile__lower *lw, const tile__layout *L) {
    tile__emitter *em = lw->em;
    int pred = -1;
    if (L->kind == TILE__LAYOUT_MMA || L->kind == TILE__LAYOUT_SLICE) {
        if (L->wm * L->wn * 32 < lw->nthreads) pred = em->op2(em, TILE__OP_LT, TL_I32, TL_I1, lw->warp, tile__li(lw, L->wm * L->wn));
        if (L->kind == TILE__LAYOUT_SLICE) {   /* >>slice: the first lane of those that share a row (column) */   /* >>slice: the first lane of those that share a row (column) */
            int zero = tile__li(lw, 0);
            pred = tile__and_pred(lw, pred, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, tile__iop(lw, TILE__OP_AND, lw->lane, L->sdim == 1 ? 3 : 28), zero));
        }
        return pred;
    }
    for (int d = 0; d < L->rank; d++) {
        if (L->cover[d] <= L->shape[d]) continue;
        /* tpos * spt < shape: the first copy */
        int tpos = tile__tpos_reg(lw, L, d);
        int shape = tile__li(lw, L->shape[d]);
        int ok = em->op2(em, TILE__OP_LT, TL_I32, TL_I1, tile__iop(lw, TILE__OP_MUL, tpos, L->spt[d]), shape);
        pred = pred < 0 ? ok : em->op2(em, TILE__OP_AND, TL_I1, TL_I1, pred, ok);
    }
    if (L->rank == 0) pred = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0));
    return pred;
}
/* >>ws: the thread's index in its role from its index in the program (raw):
   a consumer counts from its warpgroup's first thread (ping-pong: its own
   warpgroup's; else the first consumer warpgroup's) */
static int tile__role_tid(tile__lower *lw, int raw) {
    if (lw->ws_role != TILE__WS_CONSUMER) return raw;
    return lw->pp ? tile__iop(lw, TILE__OP_AND, raw, 127) : tile__iop(lw, TILE__OP_SUB, raw, 128);
}
/* tid, lane and warp from the thread's index read where this is emitted,
   so that what is computed from them cannot be hoisted above it (LLVM
   would keep a persistent loop's epilogue addresses live across its K
   loop, beside the accumulators, and spill); the caller restores them */
static void tile__tid_fresh(tile__lower *lw) {
    lw->tid = tile__role_tid(lw, tile__ptx_tid_here(lw->em));
    lw->lane = tile__iop(lw, TILE__OP_AND, lw->tid, 31);
    lw->warp = tile__iop(lw, TILE__OP_SHR, lw->tid, 5);
}
/* this thread's warp position (0 .. wm-1 for d 0, 0 .. wn-1 for d 1) in an MMA layout */
static int tile__mma_wpos(tile__lower *lw, const tile__layout *L, int d) {
    int w = tile__iop(lw, TILE__OP_AND, lw->warp, L->wm * L->wn - 1);
    return d == 0 ? tile__iop(lw, TILE__OP_SHR, w, tile__log2i(L->wn)) : tile__iop(lw, TILE__OP_AND, w, L->wn - 1);
}
static int tile__mma_coord_reg(tile__lower *lw, const tile__layout *L, int e, int d) {
    int i = e & 3, rn = (e >> 2) % L->repn, rm = (e >> 2) / L->repn;
    int base = tile__iop(lw, TILE__OP_MUL, tile__mma_wpos(lw, L, d), d ? L->shape[1] / L->wn : L->ilv ? 16 : L->shape[0] / L->wm);
    int in = d == 0 ? tile__iop(lw, TILE__OP_SHR, lw->lane, 2) : tile__iop(lw, TILE__OP_SHL, tile__iop(lw, TILE__OP_AND, lw->lane, 3), 1);
    int off = d == 0 ? tile__mma_row0(L, 0, rm) + 8 * (i >> 1) : rn * 8 + (i & 1);
    int offr = tile__li(lw, off);
    return tile__iadd(lw, tile__iadd(lw, base, in), offr);
}
static void tile__need_smem(tile__lower *lw, size_t bytes) { if (bytes + lw->sbase > lw->smem) lw->smem = bytes + lw->sbase; }
/* shared-memory scratch accesses, at offsets from sbase */
static int tile__soff(tile__lower *lw, int off) {
    if (lw->pp) off = tile__iadd(lw, off, lw->pp_sreg);   /* a ping-pong consumer's own scratch */
    return lw->sbase ? tile__iadd(lw, off, tile__li(lw, (int)lw->sbase)) : off;
}
static void tile__sst(tile__lower *lw, tl_dtype t, int off, int v) { lw->em->smem_store(lw->em, t, tile__soff(lw, off), v); }
static int tile__sld(tile__lower *lw, tl_dtype t, int off) { return lw->em->smem_load(lw->em, t, tile__soff(lw, off)); }

/* Move values laid out by Ls into `out` laid out by Ld. Each destination
   element reads the element at row-major index map(coords) of the source —
   of the concatenation of the sources when there are two (cat, join); every
   map used here is affine in the coordinates. In registers when every
   thread already holds what it needs at a thread-independent index; through
   shared memory otherwise. */
typedef long long (*tile__map_fn)(const int *dst_coords, const void *ctx);
static int tile__remat_into(tile__lower *lw, int v, const tile__layout *L, int *out);
static long long tile__map_same(const int *c, const void *ctx);
/* >>mma: a 2-D tile of 16-bit elements from an MMA layout (each thread's
   elements in pairs of adjacent columns) to a blocked one whose runs are 2,
   4 or 8 elements: through shared memory in 16-bit slots, each pair one
   32-bit store, each run 1, 2 or 4 adjacent 32-bit loads, rows padded by 8
   elements (16 bytes: an MMA store's 8 rows start 4 banks apart and the
   loads stay aligned). 0 when it does not apply. (A matmul's epilogue:
   128 x 256 f16 is 64 KiB this way, a quarter of the stores and of the
   loads of 4-byte slots.) */
static int tile__relayout16(tile__lower *lw, const tile__layout *Ls, const int *src, tl_dtype t, const tile__layout *Ld, int *out) {
    tile__emitter *em = lw->em;
    int run = Ld->rank == 2 ? Ld->spt[1] : 0;
    if (tile__dt[t].bytes != 2 || Ls->kind != TILE__LAYOUT_MMA || Ld->kind != TILE__LAYOUT_BLOCKED || Ld->rank != 2 || Ld->shape[1] % 8 ||
        Ls->shape[0] != Ld->shape[0] || Ls->shape[1] != Ld->shape[1] || (run != 2 && run != 4 && run != 8) || Ld->E % run || Ls->E % 2)
        return 0;
    int stride = Ld->shape[1] + 8;
    tile__need_smem(lw, (size_t)Ld->shape[0] * (size_t)stride * 2);
    tile__elem sh;
    sh.u = 16;
    int sixteen = em->lit(em, TL_U32, sh);
    tile__sync(lw);
    for (int e = 0; e < Ls->E; e += 2) {
        int c1 = tile__coord_reg(lw, Ls, e, 1);
        int lin = tile__iadd(lw, tile__iop(lw, TILE__OP_MUL, tile__coord_reg(lw, Ls, e, 0), stride), c1);
        int half[2];
        for (int h = 0; h < 2; h++)   /* the element's bits, zero-extended */
            half[h] = em->op1(em, TILE__OP_CAST, TL_U16, TL_U32, t == TL_U16 ? src[e + h] : em->op1(em, TILE__OP_BITCAST, t, TL_U16, src[e + h]));
        int word = em->op2(em, TILE__OP_OR, TL_U32, TL_U32, half[0], em->op2(em, TILE__OP_SHL, TL_U32, TL_U32, half[1], sixteen));
        tile__sst(lw, TL_U32, tile__iop(lw, TILE__OP_MUL, lin, 2), word);
    }
    tile__sync(lw);
    for (int e = 0; e < Ld->E; e += run) {
        int c1 = tile__coord_reg(lw, Ld, e, 1);
        int lin = tile__iadd(lw, tile__iop(lw, TILE__OP_MUL, tile__coord_reg(lw, Ld, e, 0), stride), c1);
        int words[4], at = tile__iop(lw, TILE__OP_MUL, lin, 2);   /* adjacent words of one aligned run */
        for (int k = 0; k < run / 2; k++) words[k] = tile__sld(lw, TL_U32, k ? tile__iadd(lw, at, tile__li(lw, 4 * k)) : at);
        for (int k = 0; k < run; k++) {
            int w = words[k / 2];
            if (k & 1) w = em->op2(em, TILE__OP_SHR, TL_U32, TL_U32, w, sixteen);
            int bits = em->op1(em, TILE__OP_CAST, TL_U32, TL_U16, w);
            out[e + k] = t == TL_U16 ? bits : em->op1(em, TILE__OP_BITCAST, TL_U16, t, bits);
        }
    }
    tile__sync(lw);
    return 1;
}
static void tile__relayout(tile__lower *lw, int nsrc, const tile__layout *Ls, int *const *src, tl_dtype t, const tile__layout *Ld,
                           int *out, tile__map_fn map, const void *ctx, int remat) {
    tile__emitter *em = lw->em;
    if (nsrc == 1) {
        int local = 1;
        int *pick = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)Ld->E);
        for (int e = 0; e < Ld->E && local; e++) {
            pick[e] = -2;
            for (int tid = 0; tid < lw->nthreads && local; tid++) {
                int dc[TILE__MAX_RANK] = {0}, sc[TILE__MAX_RANK] = {0};
                tile__coords(Ld, tid, e, dc);
                long long lin = map(dc, ctx);
                for (int d = Ls->rank - 1; d >= 0; d--) { sc[d] = (int)(lin % Ls->shape[d]); lin /= Ls->shape[d]; }
                int h = Ls->rank == 0 ? 0 : tile__holds(Ls, tid, sc);
                if (h < 0 || (pick[e] != -2 && pick[e] != h)) local = 0;
                pick[e] = h;
            }
        }
        if (local)
            for (int e = 0; e < Ld->E; e++) out[e] = src[0][pick[e]];
        tile__lw_free(lw, pick);
        if (local) return;
    }
    if (remat > 0 && tile__remat_into(lw, remat, Ld, out)) return;   /* recompute rather than move */
    if (nsrc == 1 && map == tile__map_same && tile__relayout16(lw, Ls, src[0], t, Ld, out)) return;
    int sz = t == TL_I1 || tile__dt[t].bytes < 4 ? 4 : tile__dt[t].bytes;
    /* A plain conversion of a 2-D (or more) tile pads each row by 4 slots:
       the rows an MMA layout's lanes write at once then start 4 banks
       apart instead of all in one bank (2-way conflicts instead of 8-way). */
    int same = Ls->rank == Ld->rank && memcmp(Ls->shape, Ld->shape, sizeof Ls->shape) == 0;   /* not a reshape */
    int pad = nsrc == 1 && map == tile__map_same && same && Ls->rank >= 2 && Ls->shape[Ls->rank - 1] >= 32 ? 4 : 0;
    int st[TILE__MAX_RANK];
    long long total = 1;
    for (int d = Ls->rank - 1; d >= 0; d--) {
        st[d] = (int)total;
        total *= Ls->shape[d] + (d == Ls->rank - 1 ? pad : 0);
    }
    tile__need_smem(lw, (size_t)(total * nsrc * sz));
    tile__sync(lw);
    for (int k = 0; k < nsrc; k++)
        for (int e = 0; e < Ls->E; e++) {
            int lin = tile__li(lw, (int)(k * total));
            for (int d = 0; d < Ls->rank; d++) {
                int c = tile__coord_reg(lw, Ls, e, d);
                lin = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, lin, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, c, tile__li(lw, st[d])));
            }
            tile__sst(lw, t, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, lin, tile__li(lw, sz)), src[k][e]);
        }
    tile__sync(lw);
    int zero[TILE__MAX_RANK] = {0};
    long long base = map(zero, ctx);
    for (int e = 0; e < Ld->E; e++) {
        int acc = tile__li(lw, (int)base);
        for (int d = 0; d < Ld->rank; d++) {
            int unit[TILE__MAX_RANK] = {0};
            unit[d] = 1;
            long long coef = pad ? st[d] : map(unit, ctx) - base;
            if (coef == 0) continue;
            int c = tile__coord_reg(lw, Ld, e, d);
            acc = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, acc, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, c, tile__li(lw, (int)coef)));
        }
        out[e] = tile__sld(lw, t, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, acc, tile__li(lw, sz)));
    }
    tile__sync(lw);
}

/* ---- maps for relayouts ---------------------------------------------------------- */
typedef struct tile__mapctx {
    int rank, shape[TILE__MAX_RANK];        /* destination                 */
    int srank, sshape[TILE__MAX_RANK];      /* source                      */
    int order[TILE__MAX_RANK];
    int k, n;                               /* split half / join size      */
} tile__mapctx;
static long long tile__lin(const int *c, const int *shape, int rank) {
    long long l = 0;
    for (int d = 0; d < rank; d++) l = l * shape[d] + c[d];
    return l;
}
static long long tile__map_same(const int *c, const void *ctx) {
    const tile__mapctx *m = (const tile__mapctx *)ctx;
    return tile__lin(c, m->shape, m->rank);
}
static long long tile__map_bcast(const int *c, const void *ctx) {
    const tile__mapctx *m = (const tile__mapctx *)ctx;
    int sc[TILE__MAX_RANK];
    for (int d = 0; d < m->srank; d++) {
        int dd = d + m->rank - m->srank;
        sc[d] = m->sshape[d] == 1 ? 0 : c[dd];
    }
    return tile__lin(sc, m->sshape, m->srank);
}
static long long tile__map_perm(const int *c, const void *ctx) {
    const tile__mapctx *m = (const tile__mapctx *)ctx;
    int sc[TILE__MAX_RANK];
    for (int d = 0; d < m->rank; d++) sc[m->order[d]] = c[d];
    return tile__lin(sc, m->sshape, m->srank);
}
static long long tile__map_join(const int *c, const void *ctx) {
    const tile__mapctx *m = (const tile__mapctx *)ctx;
    return (long long)c[m->rank - 1] * m->n + tile__lin(c, m->shape, m->rank - 1);
}
static long long tile__map_split(const int *c, const void *ctx) {
    const tile__mapctx *m = (const tile__mapctx *)ctx;
    return 2 * tile__lin(c, m->shape, m->rank) + m->k;
}
static void tile__mapctx_of(tile__mapctx *m, const tile__type *dst, const tile__type *src) {
    memset(m, 0, sizeof *m);
    m->rank = dst->rank;
    m->srank = src->rank;
    memcpy(m->shape, dst->shape, sizeof m->shape);
    memcpy(m->sshape, src->shape, sizeof m->sshape);
}

/* a one-operand elementwise op: tl_exp2 of f32 as ex2.approx.ftz.f32 (as
   Triton lowers it; the interpreter flushes the same results), every
   other op through the emitter */
static int tile__ew1(tile__lower *lw, tile__opcode code, tl_dtype t, tl_dtype rt, int x) {
    if (code == TILE__OP_EXP2 && t == TL_F32 && rt == TL_F32) return tile__ptx_ex2_ftz(lw->em, x);
    if (code == TILE__OP_RCP64H) return tile__ptx_rcp64h(lw->em, x);
    if (code == TILE__OP_BITCAST && t == rt) return x;   /* tl_ptr_cast: pointers are untyped here */
    return lw->em->op1(lw->em, code, t, rt, x);
}
/* an elementwise op of n operands, the registers r[0..n-1] */
static int tile__ewn(tile__lower *lw, tile__opcode code, tl_dtype t, tl_dtype rt, int n, const int *r) {
    tile__emitter *em = lw->em;
    if (n == 1) return tile__ew1(lw, code, t, rt, r[0]);
    if (n == 2) return em->op2(em, code, t, rt, r[0], r[1]);
    if (n == 3) return em->op3(em, code, t, rt, r[0], r[1], r[2]);
    return em->op4(em, code, t, rt, r[0], r[1], r[2], r[3]);
}
/* ---- rematerialization and conversions ------------------------------------------------
   An index or pointer tile built from aranges, constants and scalars by
   elementwise ops, broadcasts and expand_dims is cheaper to recompute in
   another layout than to move through shared memory: each destination
   element evaluates the expression at its own coordinates. */
static int tile__can_remat(const tile__lower *lw, int v, int depth) {
    const tile__func *f = lw->f;
    if (f->vals[v].t.rank == 0) return 1;
    int d = f->vals[v].def;
    if (d < 0 || depth > 24) return 0;
    const tile__op *op = &f->ops[d];
    switch (op->code) {
    case TILE__OP_CONST: case TILE__OP_ARANGE: return 1;
    case TILE__OP_BROADCAST: case TILE__OP_EXPAND_DIMS: return tile__can_remat(lw, f->pool[op->opnd], depth + 1);
    default:
        if (!(tile__op_flags[op->code] & TILE__F_EW) || op->nres != 1 || op->code == TILE__OP_INLINE_ASM) return 0;
        for (int k = 0; k < op->nopnd; k++)
            if (!tile__can_remat(lw, f->pool[op->opnd + k], depth + 1)) return 0;
        return 1;
    }
}
/* registers for value v at E points whose coordinates are the registers cs[e * rank + d] */
static void tile__remat(tile__lower *lw, int v, int E, const int *cs, int *out) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const tile__type *t = &f->vals[v].t;
    int r = t->rank;
    if (r == 0) {
        for (int e = 0; e < E; e++) out[e] = lw->regs[v][0];
        return;
    }
    const tile__op *op = &f->ops[f->vals[v].def];
    const int *o = f->pool + op->opnd;
    switch (op->code) {
    case TILE__OP_CONST: {
        tile__elem x;
        if (tile__is_float(t->dtype)) x.f = op->f;
        else x.i = op->i[0];
        int reg = em->lit(em, t->dtype, x);
        for (int e = 0; e < E; e++) out[e] = reg;
        return;
    }
    case TILE__OP_ARANGE:
        for (int e = 0; e < E; e++) out[e] = tile__iadd(lw, cs[e * r], tile__li(lw, (int)op->i[0]));
        return;
    case TILE__OP_BROADCAST: case TILE__OP_EXPAND_DIMS: {
        const tile__type *st = &f->vals[o[0]].t;
        int sr = st->rank;
        if (sr == 0) {
            tile__remat(lw, o[0], E, NULL, out);
            return;
        }
        int *sc = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)E * (size_t)sr);
        int zero = tile__li(lw, 0);
        for (int e = 0; e < E; e++)
            for (int d = 0; d < sr; d++) {
                if (op->code == TILE__OP_BROADCAST) sc[e * sr + d] = st->shape[d] == 1 ? zero : cs[e * r + d + r - sr];
                else sc[e * sr + d] = cs[e * r + (d < op->i[0] ? d : d + 1)];
            }
        tile__remat(lw, o[0], E, sc, out);
        tile__lw_free(lw, sc);
        return;
    }
    default: {
        int *in = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)E * 4);
        for (int k = 0; k < op->nopnd; k++) tile__remat(lw, o[k], E, cs, in + k * E);
        tl_dtype ot = tile__vdt(lw, o[op->nopnd - 1]), rt = t->dtype;
        for (int e = 0; e < E; e++) {
            if (op->code == TILE__OP_PTR_ADD) {
                int pa = tile__is_ptr(tile__vdt(lw, o[0])) ? 0 : 1;
                out[e] = em->ptr_add(em, in[pa * E + e], in[(1 - pa) * E + e], tile__vdt(lw, o[1 - pa]), (int)tile__dt[t->elem].bytes);
            } else {
                int r[4];
                for (int k = 0; k < op->nopnd; k++) r[k] = in[k * E + e];
                out[e] = tile__ewn(lw, op->code, ot, rt, op->nopnd, r);
            }
        }
        tile__lw_free(lw, in);
        return;
    }
    }
}
/* value v recomputed in layout L, when it can be: 1 */
static int tile__remat_into(tile__lower *lw, int v, const tile__layout *L, int *out) {
    if (!tile__can_remat(lw, v, 0)) return 0;
    int r = L->rank;
    int *cs = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)L->E * (size_t)(r ? r : 1));
    for (int e = 0; e < L->E; e++)
        for (int d = 0; d < r; d++) cs[e * r + d] = tile__coord_reg(lw, L, e, d);
    tile__remat(lw, v, L->E, cs, out);
    tile__lw_free(lw, cs);
    return 1;
}
/* value v's registers in layout L (v's own when it has L already) */
static int *tile__converted(tile__lower *lw, int v, const tile__layout *L) {
    const tile__func *f = lw->f;
    if (tile__same_layout(&lw->lay[v], L)) return lw->regs[v];
    int *out = (int *)tile__lw_alloc(lw, (size_t)L->E * sizeof(int));
    if (lw->ntmp == lw->captmp) {
        int cap = lw->captmp ? 2 * lw->captmp : 16;
        int **grown = (int **)tile__lw_alloc(lw, (size_t)cap * sizeof *grown);
        if (lw->ntmp) memcpy(grown, lw->tmp, (size_t)lw->ntmp * sizeof *grown);
        tile__lw_free(lw, lw->tmp);
        lw->tmp = grown;
        lw->captmp = cap;
    }
    lw->tmp[lw->ntmp++] = out;
    int d = f->vals[v].def;
    if (lw->lay[v].rank == 0 || (d >= 0 && f->ops[d].code == TILE__OP_CONST)) {
        for (int e = 0; e < L->E; e++) out[e] = lw->regs[v][0];
        return out;
    }
    tile__mapctx m;
    tile__mapctx_of(&m, &f->vals[v].t, &f->vals[v].t);
    int *srcs[1] = {lw->regs[v]};
    tile__relayout(lw, 1, &lw->lay[v], srcs, f->vals[v].t.dtype, L, out, tile__map_same, &m, v);
    return out;
}

/* ---- combining for reductions ---------------------------------------------------- */
/* (v, i) = combine((v, i), (w, j)) for kind; i/j are -1 unless arg-kinds. kind | TILE__REDUCE_NAN:
   max and min where a NaN wins (the reduction's propagate_nan) */
enum { TILE__REDUCE_NAN = 256 };
static void tile__combine(tile__lower *lw, int kind, tl_dtype t, int *v, int *i, int w, int j) {
    tile__emitter *em = lw->em;
    int nan = kind & TILE__REDUCE_NAN;
    switch (kind & ~TILE__REDUCE_NAN) {
    case TL_REDUCE_SUM: *v = em->op2(em, TILE__OP_ADD, t, t, *v, w); break;
    case TL_REDUCE_PROD: *v = em->op2(em, TILE__OP_MUL, t, t, *v, w); break;
    case TL_REDUCE_MAX: *v = em->op2(em, nan ? TILE__OP_MAX_NAN : TILE__OP_MAX, t, t, *v, w); break;
    case TL_REDUCE_MIN: *v = em->op2(em, nan ? TILE__OP_MIN_NAN : TILE__OP_MIN, t, t, *v, w); break;
    case TL_REDUCE_XOR_SUM: *v = em->op2(em, TILE__OP_XOR, t, t, *v, w); break;
    case TL_REDUCE_OR: *v = em->op2(em, TILE__OP_OR, t, t, *v, w); break;
    case TL_REDUCE_AND: *v = em->op2(em, TILE__OP_AND, t, t, *v, w); break;
    default: {
        /* take (w, j) when it is better: larger (smaller), or equal with a smaller
           index; a NaN never wins over a number, and between NaNs the smaller index */
        tile__opcode cmp = kind == TL_REDUCE_ARGMAX ? TILE__OP_GT : TILE__OP_LT;
        int better = em->op2(em, cmp, t, TL_I1, w, *v);
        int first = em->op2(em, TILE__OP_LT, TL_I32, TL_I1, j, *i);
        int tie = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, em->op2(em, TILE__OP_EQ, t, TL_I1, w, *v), first);
        better = em->op2(em, TILE__OP_OR, TL_I1, TL_I1, better, tie);
        if (tile__is_float(t)) {
            int vn = em->op2(em, TILE__OP_NE, t, TL_I1, *v, *v), wn = em->op2(em, TILE__OP_NE, t, TL_I1, w, w);
            int wnum = em->op1(em, TILE__OP_NOT, TL_I1, TL_I1, wn);
            /* w wins if it is a number and (v is NaN or better); or both NaN and j < i */
            int a1 = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, wnum, em->op2(em, TILE__OP_OR, TL_I1, TL_I1, vn, better));
            int first = em->op2(em, TILE__OP_LT, TL_I32, TL_I1, j, *i);
            int a2 = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, em->op2(em, TILE__OP_AND, TL_I1, TL_I1, vn, wn), first);
            better = em->op2(em, TILE__OP_OR, TL_I1, TL_I1, a1, a2);
        }
        int nv = em->op3(em, TILE__OP_WHERE, t, t, better, w, *v);
        int ni = em->op3(em, TILE__OP_WHERE, TL_I32, TL_I32, better, j, *i);
        *v = nv;
        *i = ni;
    }
    }
}
static int tile__lin_reg(tile__lower *lw, const tile__layout *L, int e, int skip_dim, int fixed) {
    tile__emitter *em = lw->em;
    int lin = tile__li(lw, 0);
    for (int d = 0; d < L->rank; d++) {
        int c = d == skip_dim ? fixed : tile__coord_reg(lw, L, e, d);
        lin = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, lin, tile__li(lw, L->shape[d])), c);
    }
    return lin;
}
static int tile__smem_size(tl_dtype t) { return t == TL_I1 || tile__dt[t].bytes < 4 ? 4 : tile__dt[t].bytes; }

/* >>slice: a reduction of an MMA value along a dim no two warps split,
   into the slice layout: in the thread over its elements of each row
   (column), then across the lanes that share it, by shuffles (the 4 of a
   row: lane bits 0-1; the 8 of a column: bits 2-4). No shared memory, no
   barrier: a softmax's row maxima and sums stay beside the scores. */
static void tile__lower_reduce_mma(tile__lower *lw, int x, int res, int kind, int axis, int arg) {
    tile__emitter *em = lw->em;
    const tile__layout *L = &lw->lay[x], *Lr = &lw->lay[res];
    tl_dtype t = tile__vdt(lw, x);
    int *gv = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)Lr->E * 2), *gi = gv + Lr->E;
    for (int g = 0; g < Lr->E; g++) gv[g] = -1;
    for (int e = 0; e < L->E; e++) {
        int rn = (e >> 2) % L->repn, rm = (e >> 2) / L->repn, i = e & 3;
        int g = axis == 1 ? rm * 2 + (i >> 1) : rn * 2 + (i & 1);
        int v = lw->regs[x][e], j = arg ? tile__coord_reg(lw, L, e, axis) : -1;
        if (gv[g] < 0) gv[g] = v, gi[g] = j;
        else tile__combine(lw, kind, t, &gv[g], &gi[g], v, j);
    }
    for (int b = axis == 1 ? 1 : 4; b <= (axis == 1 ? 2 : 16); b *= 2)
        for (int g = 0; g < Lr->E; g++) {
            int w = em->shfl_xor(em, t, gv[g], b);
            int j = arg ? em->shfl_xor(em, TL_I32, gi[g], b) : -1;
            tile__combine(lw, kind, t, &gv[g], &gi[g], w, j);
        }
    int *out = tile__regs_new(lw, res);
    for (int g = 0; g < Lr->E; g++) out[g] = arg ? gi[g] : gv[g];
    tile__lw_free(lw, gv);
}
static void tile__lower_reduce(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int x = f->pool[op->opnd], res = op->res, kind = (int)op->i[0], axis = (int)op->i[1];
    const tile__layout *L = &lw->lay[x], *Lr = &lw->lay[res];
    tl_dtype t = tile__vdt(lw, x);
    int arg = kind == TL_REDUCE_ARGMAX || kind == TL_REDUCE_ARGMIN;
    if (op->i[3]) kind |= TILE__REDUCE_NAN;   /* max, min: propagate_nan */
    if (Lr->kind == TILE__LAYOUT_SLICE && L->kind == TILE__LAYOUT_MMA) {
        tile__lower_reduce_mma(lw, x, res, kind, axis, arg);
        return;
    }
    /* 1. in-thread: elements that differ only in the axis' local index */
    int per = L->spt[axis] * L->reps[axis], inner = 1;
    for (int d = axis + 1; d < L->rank; d++) inner *= L->spt[d] * L->reps[d];
    int ngroups = L->E / per;
    int *gv = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)ngroups * 2), *gi = gv + ngroups;
    for (int g = 0; g < ngroups; g++) {
        int outer = g / inner, in = g % inner;
        for (int l = 0; l < per; l++) {
            int e = (outer * per + l) * inner + in;
            int v = lw->regs[x][e], i = arg ? tile__coord_reg(lw, L, e, axis) : -1;
            if (l == 0) { gv[g] = v; gi[g] = i; }
            else tile__combine(lw, kind, t, &gv[g], &gi[g], v, i);
        }
    }
    /* 2. across the lanes along the axis that hold distinct elements */
    int npos = L->shape[axis] / L->spt[axis];
    int shift = 0;
    for (int d = axis + 1; d < L->rank; d++) shift += tile__log2i(L->tpw[d]);
    for (int k = 0; k < tile__log2i(L->tpw[axis]) && (1 << k) < npos; k++)
        for (int g = 0; g < ngroups; g++) {
            int w = em->shfl_xor(em, t, gv[g], 1 << (shift + k));
            int j = arg ? em->shfl_xor(em, TL_I32, gi[g], 1 << (shift + k)) : -1;
            tile__combine(lw, kind, t, &gv[g], &gi[g], w, j);
        }
    /* 3. across warps, and into the result's layout, through shared memory */
    int nw = npos / L->tpw[axis];
    if (nw < 1) nw = 1;
    if (nw > L->wpc[axis]) nw = L->wpc[axis];
    int nr = 1;
    for (int d = 0; d < Lr->rank; d++) nr *= Lr->shape[d];
    int sz = tile__smem_size(t);
    tile__need_smem(lw, (size_t)nw * nr * (size_t)(sz + (arg ? 4 : 0)));
    int warp_div = 1;
    for (int d = L->rank - 1; d > axis; d--) warp_div *= L->wpc[d];
    int wmask = tile__li(lw, nw - 1);
    int wpos = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, tile__iop(lw, TILE__OP_DIV, lw->warp, warp_div), wmask);
    tile__sync(lw);
    for (int g = 0; g < ngroups; g++) {
        int e = (g / inner * per) * inner + g % inner;    /* a representative element, axis index 0 */
        int lin = tile__li(lw, 0);
        for (int d = 0; d < L->rank; d++) {
            if (d == axis) continue;
            int cd = tile__coord_reg(lw, L, e, d);
            lin = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__iop(lw, TILE__OP_MUL, lin, L->shape[d]), cd);
        }
        int slot = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, wpos, tile__li(lw, nr)), lin);
        tile__sst(lw, t, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, slot, tile__li(lw, sz)), gv[g]);
        if (arg) {
            int at = tile__iop(lw, TILE__OP_MUL, slot, 4);
            tile__sst(lw, TL_I32, em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__li(lw, nw * nr * sz), at), gi[g]);
        }
    }
    tile__sync(lw);
    int *out = tile__regs_new(lw, res);
    for (int e = 0; e < Lr->E; e++) {
        int lin = Lr->rank == 0 ? tile__li(lw, 0) : tile__lin_reg(lw, Lr, e, -1, 0);
        int v = -1, i = -1;
        for (int w = 0; w < nw; w++) {
            int slot = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, lin, tile__li(lw, w * nr));
            int pv = tile__sld(lw, t, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, slot, tile__li(lw, sz)));
            int pi = -1;
            if (arg) {
                int at = tile__iop(lw, TILE__OP_MUL, slot, 4);
                pi = tile__sld(lw, TL_I32, em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__li(lw, nw * nr * sz), at));
            }
            if (w == 0) { v = pv; i = pi; }
            else tile__combine(lw, kind, t, &v, &i, pv, pi);
        }
        out[e] = arg ? i : v;
    }
    tile__sync(lw);
    tile__lw_free(lw, gv);
}

/* Inclusive scan: every element to shared memory, then each thread walks
   the axis up to (or, reversed, down to) its element, rounding every step
   as the interpreter does. */
static void tile__lower_scan(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int x = f->pool[op->opnd], res = op->res, kind = (int)op->i[0], axis = (int)op->i[1], rev = (int)op->i[2];
    const tile__layout *L = &lw->lay[x];
    tl_dtype t = tile__vdt(lw, x);
    int sz = tile__smem_size(t), n = 1;
    for (int d = 0; d < L->rank; d++) n *= L->shape[d];
    tile__need_smem(lw, (size_t)n * sz);
    int stride = 1;
    for (int d = axis + 1; d < L->rank; d++) stride *= L->shape[d];
    tile__sync(lw);
    for (int e = 0; e < L->E; e++) {
        int szr = tile__li(lw, sz);
        tile__sst(lw, t, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__lin_reg(lw, L, e, -1, 0), szr), lw->regs[x][e]);
    }
    tile__sync(lw);
    int *out = tile__regs_new(lw, res);
    for (int e = 0; e < L->E; e++) {
        int c = tile__coord_reg(lw, L, e, axis);
        int base = tile__lin_reg(lw, L, e, axis, tile__li(lw, 0));
        tile__elem z;
        z.u = 0;
        if (tile__is_float(t)) z.f = kind == TL_REDUCE_PROD ? 1.0 : 0.0;
        else z.i = kind == TL_REDUCE_PROD ? 1 : 0;
        int acc = em->var(em, t, em->lit(em, t, z));
        int k = em->var(em, TL_I32, -1);
        int lo = rev ? c : tile__li(lw, 0);
        int hi = rev ? tile__li(lw, L->shape[axis]) : em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, c, tile__li(lw, 1));
        em->for_begin(em, TL_I32, k, lo, hi, tile__li(lw, 1));
        int at = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, base, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, k, tile__li(lw, stride)));
        int v = tile__sld(lw, t, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, at, tile__li(lw, sz)));
        em->assign(em, acc, em->op2(em, kind == TL_REDUCE_PROD ? TILE__OP_MUL : TILE__OP_ADD, t, t, acc, v));
        em->for_end(em);
        out[e] = acc;
    }
    tile__sync(lw);
}

/* tl_dot on CUDA cores: both operands through shared memory (as f32, or
   i32 for i8), then each thread runs the k loop for its accumulators with
   one fused multiply-add per step. Tensor cores come with MMA layouts. */
static void tile__lower_dot_fma(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int a = f->pool[op->opnd], b = f->pool[op->opnd + 1], c = f->pool[op->opnd + 2], res = op->res;
    const tile__layout *La = &lw->lay[a], *Lb = &lw->lay[b], *Lr = &lw->lay[res];
    int M = La->shape[0], K = La->shape[1], N = Lb->shape[1];
    tl_dtype rt = tile__vdt(lw, res), ta = tile__vdt(lw, a), tb = tile__vdt(lw, b);
    int ints = ta == TL_I8;
    tl_dtype ct = ints ? TL_I32 : TL_F32;            /* compute type of the products */
    tile__need_smem(lw, (size_t)(M * K + K * N) * 4);
    tile__sync(lw);
    for (int e = 0; e < La->E; e++) {
        int v = em->op1(em, TILE__OP_CAST, ta, ct, lw->regs[a][e]);
        int four = tile__li(lw, 4);
        tile__sst(lw, ct, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__lin_reg(lw, La, e, -1, 0), four), v);
    }
    for (int e = 0; e < Lb->E; e++) {
        int v = em->op1(em, TILE__OP_CAST, tb, ct, lw->regs[b][e]);
        int four = tile__li(lw, 4);
        int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__lin_reg(lw, Lb, e, -1, 0), four);
        tile__sst(lw, ct, em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__li(lw, M * K * 4), at), v);
    }
    tile__sync(lw);
    int *out = tile__regs_new(lw, res);
    int *accv = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)Lr->E * 3), *mrow = accv + Lr->E, *ncol = mrow + Lr->E;
    for (int e = 0; e < Lr->E; e++) {
        tile__elem z;
        z.u = 0;
        int init = c ? lw->regs[c][e] : em->lit(em, rt, z);
        accv[e] = em->var(em, rt, init);
        int k4 = tile__li(lw, K * 4);
        mrow[e] = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__coord_reg(lw, Lr, e, 0), k4);
        int four = tile__li(lw, 4);
        int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__coord_reg(lw, Lr, e, 1), four);
        ncol[e] = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__li(lw, M * K * 4), at);
    }
    int k = em->var(em, TL_I32, -1);
    int one = tile__li(lw, 1), kk = tile__li(lw, K);
    em->for_begin(em, TL_I32, k, tile__li(lw, 0), kk, one);
    int ka = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, k, tile__li(lw, 4)), kb = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, k, tile__li(lw, N * 4));
    for (int e = 0; e < Lr->E; e++) {
        int av = tile__sld(lw, ct, em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, mrow[e], ka));
        int bv = tile__sld(lw, ct, em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, ncol[e], kb));
        if (op->i[0] == TL_PRECISION_TF32) {
            av = em->round_tf32(em, av);
            bv = em->round_tf32(em, bv);
        }
        int acc = accv[e];
        int nv;
        if (ints) nv = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, acc, em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, av, bv));
        else if (rt == TL_F32) nv = em->op3(em, TILE__OP_FMA, TL_F32, TL_F32, av, bv, acc);
        else nv = em->op1(em, TILE__OP_CAST, TL_F32, rt, em->op3(em, TILE__OP_FMA, TL_F32, TL_F32, av, bv, em->op1(em, TILE__OP_CAST, rt, TL_F32, acc)));
        em->assign(em, acc, nv);
    }
    em->for_end(em);
    for (int e = 0; e < Lr->E; e++) out[e] = accv[e];
    tile__sync(lw);
    tile__lw_free(lw, accv);
}

/* ---- memory ops --------------------------------------------------------------------- */
static void tile__lower_load(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int p = f->pool[op->opnd], m = f->pool[op->opnd + 1], o = f->pool[op->opnd + 2], r = op->res;
    const tile__layout *L = &lw->lay[r];
    tl_dtype t = tile__vdt(lw, r);
    int *out = tile__regs_new(lw, r);
    for (int e = 0; e < L->E;) {
        int run = tile__run_at(L, e);
        int w = tile__vec_width(t, run, lw->ax[p], m ? &lw->ax[m] : NULL);
        int others[16];
        for (int k = 0; k < w; k++) others[k] = o ? lw->regs[o][e + k] : -1;
        em->load(em, t, w, lw->regs[p][e], m ? lw->regs[m][e] : -1, o ? others : NULL, out + e, (int)op->i[0], (int)op->i[1]);
        e += w;
    }
}
static void tile__lower_store(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int p = f->pool[op->opnd], v = f->pool[op->opnd + 1], m = f->pool[op->opnd + 2];
    const tile__layout *L = &lw->lay[p];
    tl_dtype t = tile__vdt(lw, v);
    int own = tile__owner_reg(lw, L);
    for (int e = 0; e < L->E;) {
        int run = tile__run_at(L, e);
        int w = tile__vec_width(t, run, lw->ax[p], m ? &lw->ax[m] : NULL);
        int pred = tile__and_pred(lw, own, m ? lw->regs[m][e] : -1);
        em->store(em, t, w, lw->regs[p][e], pred, lw->regs[v] + e, (int)op->i[0], (int)op->i[1]);
        e += w;
    }
}
/* An atomic on a scalar pointer runs in one thread; its old value reaches
   the others through shared memory. */
static void tile__lower_atomic(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    int p = f->pool[op->opnd], v = f->pool[op->opnd + 1], x = f->pool[op->opnd + 2], r = op->res;
    const tile__layout *L = &lw->lay[p];
    tl_dtype t = tile__vdt(lw, r);
    int own = tile__owner_reg(lw, L);
    int *out = tile__regs_new(lw, r);
    for (int e = 0; e < L->E; e++) {
        if (op->code == TILE__OP_ATOMIC) {
            int pred = tile__and_pred(lw, own, x ? lw->regs[x][e] : -1);
            out[e] = em->atomic(em, (int)op->i[0], t, lw->regs[p][e], lw->regs[v][e], pred, (int)op->i[1], (int)op->i[2]);
        } else {
            out[e] = em->cas(em, t, lw->regs[p][e], lw->regs[v][e], lw->regs[x][e], own, (int)op->i[1], (int)op->i[2]);
        }
    }
    if (L->rank == 0) {
        int sz = tile__smem_size(t);
        tile__need_smem(lw, (size_t)sz);
        tile__sync(lw);
        em->if_begin(em, own);
        tile__sst(lw, t, tile__li(lw, 0), out[0]);
        em->if_end(em);
        tile__sync(lw);
        out[0] = tile__sld(lw, t, tile__li(lw, 0));
        tile__sync(lw);
    }
}

/* ---- control flow ---------------------------------------------------------------------- */
static void tile__lower_region(tile__lower *lw, int reg);
/* mutable variables for the E registers of each value in `vals`, initialized from `init` values (or undefined) */
static int *tile__vars_for(tile__lower *lw, int value, const int *init) {
    const tile__layout *L = &lw->lay[value];
    int *vars = tile__regs_new(lw, value);
    for (int e = 0; e < L->E; e++) vars[e] = lw->em->var(lw->em, tile__vdt(lw, value), init ? init[e] : -1);
    return vars;
}
/* assign yields (through fresh temporaries, so swapped values stay right) */
static void tile__assign_all(tile__lower *lw, int n, const int *dst_values, const int *src_values) {
    tile__emitter *em = lw->em;
    int total = 0;
    for (int k = 0; k < n; k++) total += lw->lay[dst_values[k]].E;
    int *tmp = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)(total + 1)), at = 0;
    for (int k = 0; k < n; k++) {
        const int *src = tile__converted(lw, src_values[k], &lw->lay[dst_values[k]]);
        for (int e = 0; e < lw->lay[dst_values[k]].E; e++) tmp[at++] = em->var(em, tile__vdt(lw, src_values[k]), src[e]);
    }
    at = 0;
    for (int k = 0; k < n; k++)
        for (int e = 0; e < lw->lay[dst_values[k]].E; e++) em->assign(em, lw->regs[dst_values[k]][e], tmp[at++]);
    tile__lw_free(lw, tmp);
}
/* A loop's results: the registers its carried variables hold after it
   (vars[k] is the block argument that carries result k). */
static void tile__loop_results(tile__lower *lw, const tile__op *op, const int *vars) {
    for (int k = 0; k < op->nres; k++) {
        int E = lw->lay[vars[k]].E;
        tile__lw_free(lw, lw->regs[op->res + k]);
        lw->regs[op->res + k] = (int *)tile__lw_alloc(lw, sizeof(int) * (size_t)E);
        memcpy(lw->regs[op->res + k], lw->regs[vars[k]], sizeof(int) * (size_t)E);
    }
}
static void tile__lower_op(tile__lower *lw, const tile__op *op);
/* A TL_FOR's upper bound as run: a step <= 0 with lo < hi would never
   end, so it is reported (as the interpreter does) and the loop skipped.
   A step that is a positive constant needs neither. */
static int tile__for_hi(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd;
    tl_dtype it = tile__vdt(lw, o[0]);
    int lo = lw->regs[o[0]][0], hi = lw->regs[o[1]][0], sd = f->vals[o[2]].def;
    if (sd >= 0 && f->ops[sd].code == TILE__OP_CONST && (tile__is_signed(tile__vdt(lw, o[2])) ? f->ops[sd].i[0] > 0 : f->ops[sd].i[0] != 0)) return hi;
    /* tl_num_programs is at least 1: a persistent loop's step needs no check
       (and through NVRTC the check's call made ptxas serialize the wgmmas of
       a persistent matmul, C7510) */
    if (sd >= 0 && f->ops[sd].code == TILE__OP_NUM_PROGRAMS) return hi;
    tile__elem z;
    z.u = 0;
    int runs = em->op2(em, TILE__OP_LT, it, TL_I1, lo, hi);
    int bad = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, em->op2(em, TILE__OP_LE, it, TL_I1, lw->regs[o[2]][0], em->lit(em, it, z)), runs);
    lw->has_check |= TILE__HAS_LIB_CHECK;
    em->check(em, em->op1(em, TILE__OP_NOT, TL_I1, TL_I1, bad), TILE__CHECK_STEP, (int)(op - f->ops), "TL_FOR step must be positive", op->file,
              op->line);
    return em->op3(em, TILE__OP_WHERE, it, it, bad, lo, hi);
}
static void tile__lower_for(tile__lower *lw, const tile__op *op) {
    const tile__func *f = lw->f;
    tile__emitter *em = lw->em;
    const int *o = f->pool + op->opnd;
    const tile__region *body = &f->regs[op->region[0]];
    const int *args = f->pool + body->args;
    int n = op->nres;
    const tile__loop_plan *ring = tile__plan_ring(lw->plan, op);
    if (ring) {
        lw->rules->ring(lw, op, ring);
        return;
    }
    for (int k = 0; k < n; k++) tile__vars_for(lw, args[1 + k], tile__converted(lw, o[3 + k], &lw->lay[args[1 + k]]));
    tl_dtype it = tile__vdt(lw, o[0]);
    int iv = tile__vars_for(lw, args[0], NULL)[0];
    int lo = lw->regs[o[0]][0], step = lw->regs[o[2]][0], hi = tile__for_hi(lw, op);
    int split = lw->pp && op - f->ops == lw->plan->ws_outer;
    if (split) {
        /* >>pingpong: consumer c takes the iterations c, c + 2, ... */
        lw->pp_iv = iv, lw->pp_step = step, lw->pp_hi = hi;
        int c = it == TL_I32 ? lw->pp_c : em->op1(em, TILE__OP_CAST, TL_I32, it, lw->pp_c);
        tile__elem two;
        two.i = 2;
        lo = em->op2(em, TILE__OP_ADD, it, it, lo, em->op2(em, TILE__OP_MUL, it, it, step, c));
        step = em->op2(em, TILE__OP_MUL, it, it, step, em->lit(em, it, two));
    }
    em->for_begin(em, it, iv, lo, hi, step);
    int saved[3] = {lw->tid, lw->lane, lw->warp};
    if (split) tile__tid_fresh(lw);   /* read in each iteration: the epilogue's addresses stay out of the ring */
    tile__lower_region(lw, op->region[0]);
    lw->tid = saved[0], lw->lane = saved[1], lw->warp = saved[2];
    const tile__op *y = tile__terminator(f, op->region[0]);
    tile__assign_all(lw, n, args + 1, f->pool + y->opnd);
    em->for_end(em);
    tile__loop_results(lw, op, args + 1);
}
static void tile__lower_if(tile__lower *lw, const tile__op *op) {
    const tile__func *f = lw->f;
    tile__emitter *em = lw->em;
    int n = op->nres;
    for (int k = 0; k < n; k++) tile__vars_for(lw, op->res + k, NULL);
    int res[TILE__MAX_CARRY + 1];
    for (int k = 0; k < n && k <= TILE__MAX_CARRY; k++) res[k] = op->res + k;
    em->if_begin(em, lw->regs[f->pool[op->opnd]][0]);
    tile__lower_region(lw, op->region[0]);
    tile__assign_all(lw, n, res, f->pool + tile__terminator(f, op->region[0])->opnd);
    em->if_else(em);
    tile__lower_region(lw, op->region[1]);
    tile__assign_all(lw, n, res, f->pool + tile__terminator(f, op->region[1])->opnd);
    em->if_end(em);
}
static void tile__lower_while(tile__lower *lw, const tile__op *op) {
    const tile__func *f = lw->f;
    tile__emitter *em = lw->em;
    const tile__region *before = &f->regs[op->region[0]], *after = &f->regs[op->region[1]];
    const int *bargs = f->pool + before->args, *aargs = f->pool + after->args;
    int n = op->nres;
    for (int k = 0; k < n; k++) {
        tile__vars_for(lw, bargs[k], tile__converted(lw, f->pool[op->opnd + k], &lw->lay[bargs[k]]));
        tile__vars_for(lw, aargs[k], NULL);
    }
    em->loop_begin(em);
    tile__lower_region(lw, op->region[0]);
    const tile__op *c = tile__terminator(f, op->region[0]);
    tile__assign_all(lw, n, aargs, f->pool + c->opnd + 1);
    em->break_unless(em, lw->regs[f->pool[c->opnd]][0]);
    tile__lower_region(lw, op->region[1]);
    tile__assign_all(lw, n, bargs, f->pool + tile__terminator(f, op->region[1])->opnd);
    em->loop_end(em);
    tile__loop_results(lw, op, aargs);
}

/* >>profile: the registers every record of the kernel uses (the layout of
   the buffer is in tile/emit.h): made at the start, so that each scope is a
   few instructions of one thread per unit */
static void tile__kprof_prologue(tile__lower *lw, int mode) {
    tile__emitter *em = lw->em;
    int sh = mode == TILE__KPROF_WARPGROUP ? 7 : 5;
    int units = (lw->nthreads + (1 << sh) - 1) >> sh;
    int head[2];
    lw->kp_on = 1;
    lw->kp_buf = em->special(em, 7);
    em->load(em, TL_I32, 2, lw->kp_buf, -1, NULL, head, 0, 0);   /* programs recorded, slots per unit */
    lw->kp_slots = head[1];
    int nx = em->special(em, 4), ny = em->special(em, 5);
    int lin = tile__iop2(lw, TILE__OP_ADD, em->special(em, 1),
                         tile__iop2(lw, TILE__OP_MUL, nx, tile__iop2(lw, TILE__OP_ADD, em->special(em, 2), tile__iop2(lw, TILE__OP_MUL, ny, em->special(em, 3)))));
    int tid = em->special(em, 0);
    int unit = tile__iop(lw, TILE__OP_SHR, tid, sh);
    int lead = em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, tile__iop(lw, TILE__OP_AND, tid, (1 << sh) - 1), tile__li(lw, 0));
    lw->kp_ok = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, lead, em->op2(em, TILE__OP_LT, TL_I32, TL_I1, lin, head[0]));
    int idx = tile__iop2(lw, TILE__OP_MUL, tile__iop2(lw, TILE__OP_ADD, tile__iop(lw, TILE__OP_MUL, lin, units), unit), lw->kp_slots);
    lw->kp_base = em->ptr_add(em, em->ptr_add(em, lw->kp_buf, tile__li(lw, 1), TL_I32, TILE__KPROF_HEAD), idx, TL_I32, TILE__KPROF_REC);
    lw->kp_n = em->var(em, TL_I32, tile__li(lw, 0));
}
/* >>profile: one record of this unit, where it is its first thread, of a
   recorded program, and has a free slot (else the header's dropped count) */
static void tile__kprof_record(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    if (!lw->kp_on) return;   /* no profile: compiled out */
    int id = tile__kprof_id(lw->f, op->s);
    int v[2], clk[2];
    v[0] = tile__li(lw, id << 1 | (op->i[0] ? 1 : 0));
    v[1] = tile__ptx_sreg(em, TL_I32, "smid");
    clk[0] = tile__ptx_sreg(em, TL_I64, "globaltimer");
    clk[1] = tile__ptx_sreg(em, TL_I64, "clock64");
    int n = lw->kp_n;
    int room = em->op2(em, TILE__OP_LT, TL_I32, TL_I1, n, lw->kp_slots);
    int pred = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, lw->kp_ok, room);
    int p = em->ptr_add(em, lw->kp_base, n, TL_I32, TILE__KPROF_REC);
    em->store(em, TL_I32, 2, p, pred, v, 0, 0);
    em->store(em, TL_I64, 1, em->ptr_add(em, p, tile__li(lw, 1), TL_I32, 8), pred, &clk[0], 0, 0);   /* (8-byte aligned: one each) */
    em->store(em, TL_I64, 1, em->ptr_add(em, p, tile__li(lw, 2), TL_I32, 8), pred, &clk[1], 0, 0);
    int full = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, lw->kp_ok, em->op1(em, TILE__OP_NOT, TL_I1, TL_I1, room));
    em->atomic(em, TL_ATOMIC_ADD, TL_I32, em->ptr_add(em, lw->kp_buf, tile__li(lw, 3), TL_I32, 4), tile__li(lw, 1), full, TL_SEM_RELAXED, TL_SCOPE_GPU);
    em->assign(em, n, tile__iop2(lw, TILE__OP_ADD, n, tile__li(lw, 1)));
}
/* ---- tl_inline_asm_elementwise ----------------------------------------------------------- */
/* the dtype the emitters' inline PTX takes a register of class c as */
static tl_dtype tile__asm_px_of(char c) {
    switch (c) {
    case 'h': return TL_U16;
    case 'l': return TL_I64;
    case 'f': return TL_F32;
    case 'd': return TL_F64;
    default: return TL_I32;
    }
}
/* element value v of dtype t as the register of one element of class pt takes it */
static int tile__asm_in(tile__lower *lw, tl_dtype t, tl_dtype pt, int v) {
    tile__emitter *em = lw->em;
    if (t == pt || (pt == TL_I32 && t == TL_U32) || (pt == TL_I64 && t == TL_U64)) return v;
    if (pt == TL_U16) return em->op1(em, TILE__OP_BITCAST, t, TL_U16, v);
    return em->op1(em, TILE__OP_CAST, t, TL_I32, v);   /* 8-bit integers widen */
}
static int tile__asm_out(tile__lower *lw, tl_dtype pt, tl_dtype rt, int v) {
    tile__emitter *em = lw->em;
    if (rt == pt || (pt == TL_I32 && rt == TL_U32) || (pt == TL_I64 && rt == TL_U64)) return v;
    if (pt == TL_U16) return em->op1(em, TILE__OP_BITCAST, TL_U16, rt, v);
    return em->op1(em, TILE__OP_CAST, TL_I32, rt, v);
}
/* the elements e0 .. e0 + k - 1 (those below E) of register list in, of
   dtype t (8 or 16 bits), in one register of type pt (U16 or I32), the
   first lowest; the lanes past E are 0 */
static int tile__asm_pack(tile__lower *lw, tl_dtype t, tl_dtype pt, const int *in, int e0, int k, int E) {
    tile__emitter *em = lw->em;
    tl_dtype ut = tile__dt[t].bits == 8 ? TL_U8 : TL_U16;
    int word = -1;
    for (int j = 0; j < k && e0 + j < E; j++) {
        int u = t == ut ? in[e0 + j] : em->op1(em, TILE__OP_BITCAST, t, ut, in[e0 + j]);
        int w = em->op1(em, TILE__OP_CAST, ut, TL_U32, u);
        if (j) w = em->op2(em, TILE__OP_SHL, TL_U32, TL_U32, w, tile__li(lw, (int)tile__dt[t].bits * j));
        word = j ? em->op2(em, TILE__OP_OR, TL_U32, TL_U32, word, w) : w;
    }
    if (word < 0) {   /* a register wholly past E */
        tile__elem z;
        z.u = 0;
        word = em->lit(em, TL_U32, z);
    }
    return pt == TL_U16 ? em->op1(em, TILE__OP_CAST, TL_U32, TL_U16, word) : word;
}
/* Triton's rule (the builder's tile__asm_per_reg): k of a value's pack
   elements a register, as many as 32 bits hold */
static int tile__asm_k(tl_dtype t, int pack) {
    int k = 32 / (int)tile__dt[t].bits;
    return k < 1 ? 1 : k < pack ? k : pack;
}
static char tile__asm_cls(tl_dtype t, int pack) {
    int k = tile__asm_k(t, pack);
    if (k > 1) return k * tile__dt[t].bits == 16 ? 'h' : 'r';
    switch (tile__dt[t].bits) {
    case 16: return 'h';
    case 64: return t == TL_F64 ? 'd' : 'l';
    default: return t == TL_F32 ? 'f' : 'r';
    }
}
/* The text once per run of pack elements a thread holds (a last, shorter
   run padded with zeros): each result and operand as pack / k registers of
   k elements, the results' first ($0..), in order */
static void tile__lower_inline_asm(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const int *o = lw->f->pool + op->opnd;
    int n = op->nopnd, pack = (int)op->i[1], E = lw->lay[op->res].E, nres = op->nres;
    int *out[8];
    for (int r = 0; r < nres && r < 8; r++) out[r] = tile__regs_new(lw, op->res + r);
    tile__px px[64];
    for (int e = 0; e < E; e += pack) {
        int np = 0;
        for (int k = 0; k < nres + n; k++) {
            tl_dtype t = tile__vdt(lw, k < nres ? op->res + k : o[k - nres]);
            int per = tile__asm_k(t, pack);
            tl_dtype pt = tile__asm_px_of(tile__asm_cls(t, pack));
            for (int j = 0; j < pack; j += per, np++) {
                tile__px *p = &px[np];
                p->role = k < nres ? TILE__PX_OUT : TILE__PX_IN, p->t = pt, p->form = TILE__PXF_REG, p->tie = -1, p->hi = 0, p->reg = -1;
                if (k < nres) continue;
                const int *in = lw->regs[o[k - nres]];
                tile__elem z;
                z.u = 0;
                if (per > 1) p->reg = tile__asm_pack(lw, t, pt, in, e + j, per, E);
                else p->reg = e + j < E ? tile__asm_in(lw, t, pt, in[e + j]) : em->lit(em, pt, z);
            }
        }
        em->ptx(em, op->s ? op->s : "", op->i[0] ? 0 : TILE__PX_VOLATILE, np, px);
        /* the results' registers back into elements, the first lowest */
        for (int r = 0, at = 0; r < nres; r++) {
            tl_dtype rt = tile__vdt(lw, op->res + r);
            int per = tile__asm_k(rt, pack);
            for (int j = 0; j < pack; j += per, at++) {
                tl_dtype pt = px[at].t, ut = tile__dt[rt].bits == 8 ? TL_U8 : TL_U16;
                for (int i = 0; i < per && e + j + i < E; i++) {
                    if (per == 1) {
                        out[r][e + j] = tile__asm_out(lw, pt, rt, px[at].reg);
                        continue;
                    }
                    int w = pt == TL_U16 ? em->op1(em, TILE__OP_CAST, TL_U16, TL_U32, px[at].reg) : px[at].reg;
                    if (i) w = em->op2(em, TILE__OP_SHR, TL_U32, TL_U32, w, tile__li(lw, (int)tile__dt[rt].bits * i));
                    int u = em->op1(em, TILE__OP_CAST, TL_U32, ut, w);
                    out[r][e + j + i] = rt == ut ? u : em->op1(em, TILE__OP_BITCAST, ut, rt, u);
                }
            }
        }
    }
}

/* ---- tl_map_elementwise -------------------------------------------------------------------- */
/* >>map: the function's region once per pack of elements this thread holds
   (the plan's layouts put a pack in registers e .. e + pack - 1), its block
   arguments bound to those elements' registers and its yield read into the
   results' ones: the code of the region E / pack times, each copy with its
   own registers, its branches on the element's own values. A thread runs
   it for its replicas too (their results are the same). The operands are
   read in the results' layout (one layout for all: of their one shape). */
static void tile__lower_map(tile__lower *lw, const tile__op *op) {
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd, *args = f->pool + f->regs[op->region[0]].args;
    int pack = (int)op->i[0], E = lw->lay[op->res].E;
    int **in = (int **)tile__lw_alloc(lw, sizeof *in * (size_t)op->nopnd), **out = (int **)tile__lw_alloc(lw, sizeof *out * (size_t)op->nres);
    for (int k = 0; k < op->nopnd; k++) in[k] = tile__converted(lw, o[k], &lw->lay[op->res]);
    for (int r = 0; r < op->nres; r++) out[r] = tile__regs_new(lw, op->res + r);
    for (int e = 0; e < E; e += pack) {
        for (int k = 0; k < op->nopnd; k++)
            for (int j = 0; j < pack; j++) tile__regs_new(lw, args[k * pack + j])[0] = in[k][e + j];
        tile__lower_region(lw, op->region[0]);
        const tile__op *y = tile__terminator(f, op->region[0]);
        for (int r = 0; r < op->nres; r++)
            for (int j = 0; j < pack; j++) out[r][e + j] = lw->regs[f->pool[y->opnd + r * pack + j]][0];
    }
    tile__lw_free(lw, in);
    tile__lw_free(lw, out);
}

/* ---- one op ------------------------------------------------------------------------------ */
static void tile__lower_op_body(tile__lower *lw, const tile__op *op) {
    tile__emitter *em = lw->em;
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd;
    int r = op->res;
    if (op->code == TILE__OP_YIELD || op->code == TILE__OP_CONDITION) return;   /* owners handle them */
    if ((tile__op_flags[op->code] & TILE__F_EW) && op->code != TILE__OP_PTR_ADD && op->code != TILE__OP_INLINE_ASM) {
        const tile__layout *L = &lw->lay[r];
        int *out = tile__regs_new(lw, r);
        tl_dtype t = tile__vdt(lw, o[op->nopnd - 1]), rt = tile__vdt(lw, r);
        for (int e = 0; e < L->E; e++) {
            int in[4];
            for (int k = 0; k < op->nopnd; k++) in[k] = lw->regs[o[k]][e];
            out[e] = tile__ewn(lw, op->code, t, rt, op->nopnd, in);
        }
        return;
    }
    switch (op->code) {
    case TILE__OP_CONST: {
        tile__elem v;
        const tile__type *t = &f->vals[r].t;
        if (tile__is_float(t->dtype)) v.f = op->f;
        else v.i = op->i[0];
        int reg = em->lit(em, t->dtype, v);
        int *out = tile__regs_new(lw, r);
        for (int e = 0; e < lw->lay[r].E; e++) out[e] = reg;
        return;
    }
    case TILE__OP_PROGRAM_ID: tile__regs_new(lw, r)[0] = em->special(em, 1 + (int)op->i[0]); return;
    case TILE__OP_NUM_PROGRAMS: tile__regs_new(lw, r)[0] = em->special(em, 4 + (int)op->i[0]); return;
    case TILE__OP_ARANGE: {
        const tile__layout *L = &lw->lay[r];
        int *out = tile__regs_new(lw, r);
        for (int e = 0; e < L->E; e++) {
            int start = tile__li(lw, (int)op->i[0]);
            out[e] = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, tile__coord_reg(lw, L, e, 0), start);
        }
        return;
    }
    case TILE__OP_PTR_ADD: {
        const tile__layout *L = &lw->lay[r];
        int *out = tile__regs_new(lw, r);
        int pa = tile__is_ptr(tile__vdt(lw, o[0])) ? 0 : 1;
        tl_dtype ot = tile__vdt(lw, o[1 - pa]);
        int size = (int)tile__dt[f->vals[r].t.elem].bytes;
        for (int e = 0; e < L->E; e++) out[e] = em->ptr_add(em, lw->regs[o[pa]][e], lw->regs[o[1 - pa]][e], ot, size);
        return;
    }
    case TILE__OP_BROADCAST: case TILE__OP_EXPAND_DIMS: case TILE__OP_RESHAPE: case TILE__OP_PERMUTE: {
        const tile__type *st = &f->vals[o[0]].t, *dt = &f->vals[r].t;
        int *out = tile__regs_new(lw, r);
        if (st->rank == 0) {
            for (int e = 0; e < lw->lay[r].E; e++) out[e] = lw->regs[o[0]][0];
            return;
        }
        tile__mapctx m;
        tile__mapctx_of(&m, dt, st);
        tile__map_fn fn = tile__map_same;
        if (op->code == TILE__OP_BROADCAST) fn = tile__map_bcast;
        if (op->code == TILE__OP_PERMUTE) {
            fn = tile__map_perm;
            for (int d = 0; d < dt->rank; d++) m.order[d] = (int)op->i[d];
        }
        int *srcs[1] = {lw->regs[o[0]]};
        tile__relayout(lw, 1, &lw->lay[o[0]], srcs, dt->dtype, &lw->lay[r], out, fn, &m, r);
        return;
    }
    case TILE__OP_CAT: case TILE__OP_JOIN: {
        const tile__type *st = &f->vals[o[0]].t, *dt = &f->vals[r].t;
        int *out = tile__regs_new(lw, r);
        tile__mapctx m;
        tile__mapctx_of(&m, dt, st);
        m.n = tile__numel(st);
        int *srcs[2] = {lw->regs[o[0]], lw->regs[o[1]]};
        if (st->rank == 0) {          /* join of two scalars: a [2] tile */
            for (int e = 0; e < lw->lay[r].E; e++) {
                int c = tile__coord_reg(lw, &lw->lay[r], e, 0);
                out[e] = em->op3(em, TILE__OP_WHERE, dt->dtype, dt->dtype, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, c, tile__li(lw, 0)),
                                 srcs[0][0], srcs[1][0]);
            }
            return;
        }
        tile__relayout(lw, 2, &lw->lay[o[0]], srcs, dt->dtype, &lw->lay[r], out, op->code == TILE__OP_CAT ? tile__map_same : tile__map_join, &m, 0);
        return;
    }
    case TILE__OP_HISTOGRAM: {
        /* counts in shared memory: zeroed, one red.shared.add per element
           in range (its owner only: replicas stay silent), read back */
        const tile__layout *Lx = &lw->lay[o[0]], *Lr = &lw->lay[r];
        tl_dtype xt = tile__vdt(lw, o[0]);
        int nb = f->vals[r].t.shape[0], sg = tile__is_signed(xt);   /* (sg: i8..i64) */
        const int *mask = o[1] > 0 ? tile__converted(lw, o[1], Lx) : NULL;
        int own = tile__owner_reg(lw, Lx), *out = tile__regs_new(lw, r);
        /* the range test in i32 for the narrower dtypes (a u8's 256 bins
           do not fit a u8 literal; a u32 past 2^31 turns negative: out), in
           the dtype itself for the 64-bit ones */
        int wide = tile__dt[xt].bits == 64;
        tl_dtype ct = wide ? xt : TL_I32;
        tile__elem z, top;
        z.i = 0;
        top.i = nb;
        int zero32 = tile__li(lw, 0), four = tile__li(lw, 4);
        tile__need_smem(lw, (size_t)nb * 4);
        tile__sync(lw);
        for (int e = 0; e < Lr->E; e++) {
            int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__coord_reg(lw, Lr, e, 0), four);
            tile__sst(lw, TL_I32, at, zero32);
        }
        tile__sync(lw);
        int lo = em->lit(em, ct, z), hi = em->lit(em, ct, top);
        for (int e = 0; e < Lx->E; e++) {
            int v = lw->regs[o[0]][e];
            if (!wide && xt != TL_I32) v = em->op1(em, xt == TL_U32 ? TILE__OP_BITCAST : TILE__OP_CAST, xt, TL_I32, v);
            int in = em->op2(em, TILE__OP_LT, ct, TL_I1, v, hi);
            if (sg || !wide) {
                int ge = em->op2(em, TILE__OP_GE, ct, TL_I1, v, lo);
                in = em->op2(em, TILE__OP_AND, TL_I1, TL_I1, in, ge);
            }
            int pred = tile__and_pred(lw, tile__and_pred(lw, own, mask ? mask[e] : -1), in);
            int bin = wide ? em->op1(em, TILE__OP_CAST, xt, TL_I32, v) : v;
            bin = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, bin, tile__li(lw, nb - 1));   /* in range already; keeps the address inside */
            int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, bin, four);
            tile__ptx_red_shared_inc(em, tile__soff(lw, at), pred);
        }
        tile__sync(lw);
        for (int e = 0; e < Lr->E; e++) {
            int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, tile__coord_reg(lw, Lr, e, 0), four);
            out[e] = tile__sld(lw, TL_I32, at);
        }
        tile__sync(lw);
        return;
    }
    case TILE__OP_GATHER: {
        /* src through shared memory (4-byte slots at least), each result
           element read at its index along axis, masked into [0, n) */
        const tile__type *st = &f->vals[o[0]].t;
        const tile__layout *Ls = &lw->lay[o[0]], *Lr = &lw->lay[r];
        tl_dtype t = st->dtype;
        int axis = (int)op->i[0], sz = tile__smem_size(t), n = st->shape[axis];
        const int *idx = tile__converted(lw, o[1], Lr);
        tl_dtype it = tile__vdt(lw, o[1]);
        int *out = tile__regs_new(lw, r);
        tile__need_smem(lw, (size_t)tile__numel(st) * (size_t)sz);
        tile__sync(lw);
        for (int e = 0; e < Ls->E; e++) {
            int lin = tile__lin_reg(lw, Ls, e, -1, 0);
            int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, lin, tile__li(lw, sz));
            tile__sst(lw, t, at, lw->regs[o[0]][e]);
        }
        tile__sync(lw);
        for (int e = 0; e < Lr->E; e++) {
            int k = it == TL_I32 ? idx[e] : em->op1(em, TILE__OP_CAST, it, TL_I32, idx[e]);
            k = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, k, tile__li(lw, n - 1));
            int lin = tile__li(lw, 0);
            for (int d = 0; d < st->rank; d++) {
                int c = d == axis ? k : tile__coord_reg(lw, Lr, e, d);
                int scaled = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, lin, tile__li(lw, st->shape[d]));
                lin = em->op2(em, TILE__OP_ADD, TL_I32, TL_I32, scaled, c);
            }
            int at = em->op2(em, TILE__OP_MUL, TL_I32, TL_I32, lin, tile__li(lw, sz));
            out[e] = tile__sld(lw, t, at);
        }
        tile__sync(lw);
        return;
    }
    case TILE__OP_HINT: {   /* the operand is in the result's layout (RES): the same registers */
        int *out = tile__regs_new(lw, r);
        for (int e = 0; e < lw->lay[r].E; e++) out[e] = lw->regs[o[0]][e];
        return;
    }
    case TILE__OP_SPLIT: {
        const tile__type *st = &f->vals[o[0]].t, *dt = &f->vals[r].t;
        for (int k = 0; k < 2; k++) {
            int *out = tile__regs_new(lw, r + k);
            tile__mapctx m;
            tile__mapctx_of(&m, dt, st);
            m.k = k;
            int *srcs[1] = {lw->regs[o[0]]};
            if (dt->rank == 0) {
                int c = -1;
                (void)c;
            }
            tile__relayout(lw, 1, &lw->lay[o[0]], srcs, dt->dtype, &lw->lay[r + k], out, tile__map_split, &m, 0);
        }
        return;
    }
    case TILE__OP_LOAD: tile__lower_load(lw, op); return;
    case TILE__OP_MAKE_DESC: return;   /* >>tma: a tensor-map parameter; its loads are a ring's copies */
    case TILE__OP_DESC_STORE:
        if (tile__plan_store_map(lw->plan, op)) {
            lw->rules->desc_store(lw, op);
            return;
        }
        lw->st = tile__error(TILE_ERR_INTERNAL, f->name, op->file, op->line, "lowering: a descriptor store the copy engine does not take");
        return;
    case TILE__OP_STORE: tile__lower_store(lw, op); return;
    case TILE__OP_ATOMIC: case TILE__OP_ATOMIC_CAS: tile__lower_atomic(lw, op); return;
    case TILE__OP_REDUCE: tile__lower_reduce(lw, op); return;
    case TILE__OP_SCAN: tile__lower_scan(lw, op); return;
    case TILE__OP_DOT: {
        int kind = tile__dot_mma_kind(f, op, lw->nthreads);
        if (kind < 0) tile__lower_dot_fma(lw, op);
        else lw->rules->dot(lw, op, kind);
        return;
    }
    case TILE__OP_INLINE_ASM: tile__lower_inline_asm(lw, op); return;
    case TILE__OP_PRINT:
        /* a prefix alone: one line a program, as the interpreter prints it (v -1: no value) */
        if (op->nopnd == 0) em->print(em, op->s ? op->s : "", 0, NULL, TL_I32, -1, em->op2(em, TILE__OP_EQ, TL_I32, TL_I1, lw->tid, tile__li(lw, 0)));
        for (int k = 0; k < op->nopnd; k++) {
            const tile__layout *L = &lw->lay[o[k]];
            int own = tile__owner_reg(lw, L);
            for (int e = 0; e < L->E; e++) {
                int idx[TILE__MAX_RANK];
                for (int d = 0; d < L->rank; d++) idx[d] = tile__coord_reg(lw, L, e, d);
                em->print(em, op->s ? op->s : "", L->rank, idx, tile__vdt(lw, o[k]), lw->regs[o[k]][e], own);
            }
        }
        return;
    case TILE__OP_ASSERT: {
        const tile__layout *L = &lw->lay[o[0]];
        if (op->i[0]) {   /* tl_assume: a fact for the compiler, no check */
            for (int e = 0; e < L->E; e++)
                em->check(em, lw->regs[o[0]][e], TILE__CHECK_ASSUME, (int)(op - lw->f->ops), op->s ? op->s : "", op->file, op->line);
            return;
        }
        lw->has_check |= TILE__HAS_USER_CHECK;
        for (int e = 0; e < L->E; e++)
            em->check(em, lw->regs[o[0]][e], TILE__CHECK_ASSERT, (int)(op - lw->f->ops), op->s ? op->s : "", op->file, op->line);
        return;
    }
    case TILE__OP_BARRIER: tile__sync(lw); return;
    case TILE__OP_PROFILE: tile__kprof_record(lw, op); return;
    case TILE__OP_FOR: tile__lower_for(lw, op); return;
    case TILE__OP_IF: tile__lower_if(lw, op); return;
    case TILE__OP_WHILE: tile__lower_while(lw, op); return;
    case TILE__OP_MAP: tile__lower_map(lw, op); return;
    default:
        lw->st = tile__error(TILE_ERR_INTERNAL, f->name, op->file, op->line, "lowering: no rule for op %s", tile__op_names[op->code]);
        return;
    }
}
/* One op, its operands first brought into the layouts it reads them in:
   elementwise ops and loads read theirs in the result's layout, stores and
   atomics in the pointer's, tl_dot its accumulator in the result's; every
   other op reads an MMA-layout operand in the blocked layout. Control flow
   converts its carried values itself. */
typedef struct tile__swapped { int v, *regs; tile__layout lay; } tile__swapped;
/* give value v layout `want` for the op being lowered, remembering what it had */
static void tile__swap_in(tile__lower *lw, int v, const tile__layout *want, tile__swapped *saved, int *n) {
    if (tile__same_layout(&lw->lay[v], want)) return;
    int *conv = tile__converted(lw, v, want);
    saved[*n].v = v;
    saved[*n].regs = lw->regs[v];
    saved[(*n)++].lay = lw->lay[v];
    lw->regs[v] = conv;
    lw->lay[v] = *want;
}
/* >>overlap: a wgmma dot in a ring's body whose result is first read after
   another wgmma dot has been issued (FlashAttention-3's order: this block's
   Q K^T, then the last block's P V, then this block's softmax) leaves its
   group in flight; it is waited for where its result is first read. Only
   where its operands are the ring's stages, pinned tiles or registers, which
   nothing in the body writes (a staged operand's scratch is any later op's),
   its result is f32 (no cast reads it at once) and no other group stays in
   flight across iterations (tile__async_dot); and another wgmma dot is
   issued before its result is read (or it follows one in flight), and the
   body reads the result before it ends (a result only yielded would hold
   its registers in flight through the next dot, for a small overlap: the
   attention backward's dV spills so). 1 when the dot being lowered
   (lw->wg_at in the body) may leave its group so. */
static int tile__reads_value(const tile__func *f, const tile__op *op, int v, int *dots) {
    for (int j = 0; j < op->nopnd; j++)
        if (f->pool[op->opnd + j] == v) return 1;
    for (int q = 0; q < 2; q++) {
        if (op->region[q] < 0) continue;
        const tile__region *R = &f->regs[op->region[q]];
        for (int k = 0; k < R->nops; k++) {
            const tile__op *in = &f->ops[R->ops[k]];
            if (in->dead) continue;
            if (in->code == TILE__OP_DOT) *dots = 1;
            if (tile__reads_value(f, in, v, dots)) return 1;
        }
    }
    return 0;
}
static int tile__wg_may_defer(const tile__lower *lw, const tile__op *dot) {
    const tile__func *f = lw->f;
    if (!lw->wg_body || lw->async_dot || lw->nwgp == TILE__WGP_MAX || f->vals[dot->res].t.dtype != TL_F32) return 0;
    const tile__region *R = &f->regs[lw->wg_body - 1];
    if (lw->wg_at >= R->nops || &f->ops[R->ops[lw->wg_at]] != dot) return 0;
    int later = lw->nwgp > 0, read = 0;   /* after one in flight: read after it, at the earliest */
    for (int k = lw->wg_at + 1; k < R->nops && !read; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        int dots = 0;
        if (op->dead || op->code == TILE__OP_YIELD) continue;
        read = tile__reads_value(f, op, dot->res, &dots);
        if (!read && !later && (dots || (op->code == TILE__OP_DOT && !tile__plan_wgmma(lw->plan, op)))) return 0;
        if (!read && op->code == TILE__OP_DOT) later = 1;
    }
    return later && read;
}
/* before op: wait for the groups of the dots in flight whose results it
   reads (in its regions too), and for all of them before a region holding
   a dot (its groups would be committed on some paths only) */
static void tile__wg_settle(tile__lower *lw, const tile__op *op, int all) {
    int need = all ? lw->nwgp - 1 : -1;
    for (int i = 0; i < lw->nwgp && !all; i++) {
        int dots = 0;
        if (tile__reads_value(lw->f, op, lw->wgp[i].v, &dots)) need = i;
        if (dots) need = lw->nwgp - 1;
    }
    if (need < 0) return;
    if (lw->wg_work) tile__ptx_wait_pin(lw->em);   /* the wait stays after the work between */
    for (int i = 0; i <= need; i++) {
        int v = lw->wgp[i].v;
        tile__ptx_wg_sync_keep(lw->em, TILE__WG_WAIT, lw->wg_groups - lw->wgp[i].g, lw->lay[v].E, lw->regs[v], lw->wgp[i].na, lw->wgp[i].a);
        tile__lw_free(lw, lw->wgp[i].a);
    }
    lw->nwgp -= need + 1;
    memmove(lw->wgp, lw->wgp + need + 1, sizeof *lw->wgp * (size_t)lw->nwgp);
}
static void tile__lower_op(tile__lower *lw, const tile__op *op) {
    const tile__func *f = lw->f;
    const int *o = f->pool + op->opnd;
    int code = op->code, n = 0, rule = tile__op_lay[code];
    if (lw->nwgp) {
        tile__wg_settle(lw, op, 0);
        lw->wg_work |= code != TILE__OP_DOT;
    }
    if (rule == TILE__LAY_BODY || op->nopnd == 0) {
        tile__lower_op_body(lw, op);
        return;
    }
    tile__swapped *saved = (tile__swapped *)tile__lw_alloc(lw, sizeof *saved * (size_t)(op->nopnd + 1));
    int ew = rule == TILE__LAY_RES, byptr = rule == TILE__LAY_PTR;
    /* >>tma: a store through the copy engine takes its value in any layout */
    int any = code == TILE__OP_DESC_STORE && tile__plan_store_map(lw->plan, op);
    for (int k = 0; k < op->nopnd && !any; k++) {
        int v = o[k];
        if (v <= 0 || (lw->pipe && lw->pipe[v])) continue;
        tile__layout want;
        if (ew || (rule == TILE__LAY_ACC && k == 2)) want = lw->lay[op->res];
        else if (byptr && lw->lay[o[0]].kind == TILE__LAYOUT_BLOCKED) want = lw->lay[o[0]];
        else if (code == TILE__OP_REDUCE && lw->lay[op->res].kind == TILE__LAYOUT_SLICE) continue;   /* >>slice: in its MMA layout */
        else if (code == TILE__OP_DOT && k == 0 && tile__plan_rega(lw->plan, op)) continue;   /* >>wgmma: A from registers */
        else if ((code == TILE__OP_BROADCAST || code == TILE__OP_EXPAND_DIMS) && lw->lay[v].kind == TILE__LAYOUT_SLICE) continue;
        else if (lw->lay[v].kind != TILE__LAYOUT_BLOCKED || byptr) tile__layout_of(&f->vals[v].t, lw->nthreads, &want);
        else continue;
        tile__swap_in(lw, v, &want, saved, &n);
    }
    if (byptr && lw->lay[o[0]].kind != TILE__LAYOUT_BLOCKED) {   /* the pointer itself, last */
        tile__layout want;
        tile__layout_of(&f->vals[o[0]].t, lw->nthreads, &want);
        tile__swap_in(lw, o[0], &want, saved, &n);
    }
    tile__lower_op_body(lw, op);
    while (n > 0) {
        n--;
        lw->regs[saved[n].v] = saved[n].regs;
        lw->lay[saved[n].v] = saved[n].lay;
    }
    tile__lw_free(lw, saved);
    /* >>pin: staged once, where it is made (a loop's or a branch's results too) */
    for (int j = 0; j < op->nres; j++)
        if (lw->plan->pin[op->res + j]) lw->rules->pin(lw, op->res + j);
}
/* >>pin: region reg's arguments that are pinned, staged at its top: a
   value an outer loop carries into a dot of an inner one, once each
   iteration (tile__lower_region, and a ring's body: tile__ring_body) */
static void tile__pin_args(tile__lower *lw, int reg) {
    const tile__region *r = &lw->f->regs[reg];
    for (int j = 0; j < r->nargs && lw->st == TILE_OK; j++) {
        int v = lw->f->pool[r->args + j];
        if (v > 0 && lw->plan->pin[v]) lw->rules->pin(lw, v);
    }
}
static void tile__lower_region(tile__lower *lw, int reg) {
    const tile__region *r = &lw->f->regs[reg];
    tile__pin_args(lw, reg);
    for (int k = 0; k < r->nops && lw->st == TILE_OK; k++) {
        const tile__op *op = &lw->f->ops[r->ops[k]];
        if (!op->dead) tile__lower_op(lw, op);
    }
}

/* kernels lowered in this process (tile_cache_stats.lowerings): once per
   compiled variant, and once per dump or tile_kernel_ptx */
static long tile__lowered;
static pthread_mutex_t tile__lowered_lock = PTHREAD_MUTEX_INITIALIZER;
static long tile__lowered_count(void) {
    pthread_mutex_lock(&tile__lowered_lock);
    long n = tile__lowered;
    pthread_mutex_unlock(&tile__lowered_lock);
    return n;
}
/* Lower a verified function for cfg (its warps, stages, wgmma mode and the
   parameters' specialization: divisible by 16, or integers known to be 1,
   which become the constant) through em; what the kernel needs at launch
   comes back in *meta. */
static void tile__lower_run(tile__lower *lw, const tile__config *cfg) {
    const tile__func *f = lw->f;
    tile__emitter *em = lw->em;
    lw->nthreads = lw->plan->nthreads;
    lw->ax = lw->plan->ax;
    lw->lay = (tile__layout *)tile__lw_alloc(lw, (size_t)f->nvals * sizeof *lw->lay);
    memcpy(lw->lay, lw->plan->lay, (size_t)f->nvals * sizeof *lw->lay);
    lw->regs = (int **)tile__lw_alloc(lw, (size_t)f->nvals * sizeof *lw->regs);
    lw->pipe = (int *)tile__lw_alloc(lw, (size_t)f->nvals * sizeof *lw->pipe);
    lw->tid = em->special(em, 0);
    lw->lane = em->op2(em, TILE__OP_AND, TL_I32, TL_I32, lw->tid, tile__li(lw, 31));
    lw->warp = em->op2(em, TILE__OP_SHR, TL_I32, TL_I32, lw->tid, tile__li(lw, 5));
    lw->sbase = lw->plan->pin_end;   /* >>pin: the pinned operands' tiles are below */
    tile__need_smem(lw, 0);
    if (cfg->ktime) tile__ptx_ktime(em, em->special(em, 8), lw->tid, 0);   /* >>profile: the kernel clock's start */
    if (cfg->prof) tile__kprof_prologue(lw, cfg->prof);
    const int *params = f->pool + f->regs[0].args;
    for (int p = 0; p < f->nparams; p++) {
        int reg = em->param(em, p);
        if (p < TILE__MAX_PARAMS && (cfg->spec1 >> p & 1)) {
            tile__elem one;
            one.i = 1;
            reg = em->lit(em, tile__vdt(lw, params[p]), one);
        }
        tile__regs_new(lw, params[p])[0] = reg;
    }
    if (lw->plan->ws) lw->rules->ws(lw);
    else tile__lower_region(lw, 0);
    if (cfg->ktime) {   /* >>profile: and its end, once every thread of the program is done */
        em->barrier(em);
        tile__ptx_ktime(em, em->special(em, 8), em->special(em, 0), 1);
    }
}
/* ---- common subexpressions, merged as they are emitted ------------------------------
   The lowering asks for the same index arithmetic once per element it
   places (a lane's row and column, each one's mask and address): a 128x256
   matmul asked LLVM for 18500 instructions of which 6000 differed, and
   wrote NVRTC 45000 statements of CUDA C, which it took 2.2 s to merge back
   (0.3 s for the merged 4500). This emitter sits
   between the lowering and the real one and answers a pure operation (lit,
   special, param, op1-op3 of a pure opcode, ptr_add, round_tf32) that it
   has already passed on with the register it got then, where that register
   is still in scope: made in the region now open or one enclosing it (the
   emitters' control flow is structured, so such a value dominates where it
   is asked for), and reading no variable (var's registers change under
   assign). Everything else goes straight through. Out of memory, it stops
   merging and goes on forwarding. */
typedef struct tile__mrg_ent {
    int32_t hook, code, t, rt, a, b, c, d; /* the request; hook 0: an empty slot               */
    uint64_t bits;                         /* lit's value                                       */
    int32_t reg;                           /* the answer                                        */
    int32_t depth;                         /* the region it was made in: its depth ...          */
    uint32_t serial;                       /* ... and which region of that depth                */
} tile__mrg_ent;
typedef struct tile__mrg {
    tile__emitter em;                      /* first: what the lowering calls                    */
    tile__emitter *in;                     /* the real emitter                                  */
    tile__mrg_ent *tab;
    size_t cap, used;                      /* slots (a power of two), those taken               */
    uint32_t *open;                        /* the serial of the region open at each depth       */
    int depth, ocap;
    uint32_t serial;                       /* the last region's                                 */
    unsigned char *var;                    /* var[r]: register r is a variable                  */
    size_t nvar;
    int off;                               /* out of memory: forward only                       */
} tile__mrg;
enum { TILE__MRG_LIT = 1, TILE__MRG_SPECIAL, TILE__MRG_PARAM, TILE__MRG_OP, TILE__MRG_PTR_ADD, TILE__MRG_TF32 };
static tile__mrg *tile__mrg_of(tile__emitter *e) { return (tile__mrg *)e; }
static int tile__mrg_isvar(const tile__mrg *c, int r) { return r >= 0 && (size_t)r < c->nvar && c->var[r]; }
static uint64_t tile__mrg_hash(const tile__mrg_ent *k) {
    uint64_t h = 1469598103934665603ull;
    const int32_t f[8] = {k->hook, k->code, k->t, k->rt, k->a, k->b, k->c, k->d};
    for (int i = 0; i < 8; i++) h = (h ^ (uint32_t)f[i]) * 1099511628211ull;
    h = (h ^ k->bits) * 1099511628211ull;
    return h ^ h >> 29;
}
static int tile__mrg_same(const tile__mrg_ent *x, const tile__mrg_ent *k) {
    return x->hook == k->hook && x->code == k->code && x->t == k->t && x->rt == k->rt && x->a == k->a && x->b == k->b && x->c == k->c &&
           x->d == k->d && x->bits == k->bits;
}
/* an entry's register may be used here: its region is still open */
static int tile__mrg_live(const tile__mrg *c, const tile__mrg_ent *x) { return x->depth <= c->depth && c->open[x->depth] == x->serial; }
/* the slot of k: its entry, or the empty slot where it goes */
static tile__mrg_ent *tile__mrg_slot(tile__mrg *c, const tile__mrg_ent *k) {
    size_t m = c->cap - 1, i = (size_t)tile__mrg_hash(k) & m;
    while (c->tab[i].hook && !tile__mrg_same(&c->tab[i], k)) i = (i + 1) & m;
    return &c->tab[i];
}
/* twice the slots, the dead entries dropped; 0 out of memory */
static int tile__mrg_grow(tile__mrg *c) {
    size_t cap = c->cap ? c->cap * 2 : 1024;
    tile__mrg_ent *old = c->tab, *tab = (tile__mrg_ent *)TILE_MALLOC(cap * sizeof *tab);
    size_t oldcap = c->cap;
    if (!tab) return 0;
    memset(tab, 0, cap * sizeof *tab);
    c->tab = tab;
    c->cap = cap;
    c->used = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].hook && tile__mrg_live(c, &old[i])) {
            *tile__mrg_slot(c, &old[i]) = old[i];
            c->used++;
        }
    TILE_FREE(old);
    return 1;
}
/* the live register for k, or -1 */
static int tile__mrg_find(tile__mrg *c, const tile__mrg_ent *k) {
    if (c->off || !c->cap) return -1;
    const tile__mrg_ent *x = tile__mrg_slot(c, k);
    return x->hook && tile__mrg_live(c, x) ? x->reg : -1;
}
static int tile__mrg_keep(tile__mrg *c, tile__mrg_ent *k, int reg) {
    if (c->off || reg < 0) return reg;
    if ((c->used + 1) * 2 > c->cap && !tile__mrg_grow(c)) {
        c->off = 1;
        return reg;
    }
    tile__mrg_ent *x = tile__mrg_slot(c, k);
    if (!x->hook) c->used++;
    *x = *k;
    x->reg = reg;
    x->depth = c->depth;
    x->serial = c->open[c->depth];
    return reg;
}
static void tile__mrg_key(tile__mrg_ent *k, int hook, int code, int t, int rt, int a, int b, int cc, int d, uint64_t bits) {
    memset(k, 0, sizeof *k);
    k->hook = hook, k->code = code, k->t = t, k->rt = rt, k->a = a, k->b = b, k->c = cc, k->d = d, k->bits = bits;
}
/* regions: a new one opens inside the current one; closing it forgets what was made there */
static void tile__mrg_push(tile__mrg *c) {
    if (c->off) return;
    if (c->depth + 1 >= c->ocap) {
        int n = c->ocap * 2;
        uint32_t *o = (uint32_t *)TILE_REALLOC(c->open, (size_t)n * sizeof *o);
        if (!o) {
            c->off = 1;
            return;
        }
        c->open = o;
        c->ocap = n;
    }
    c->open[++c->depth] = ++c->serial;
}
static void tile__mrg_pop(tile__mrg *c) {
    if (!c->off && c->depth > 0) c->depth--;
}
/* after a loop, nothing made before it is reused: a value kept for after
   the loop would be live across it, in registers the loop wants */
static void tile__mrg_forget(tile__mrg *c) {
    if (c->off) return;
    for (int d = 0; d <= c->depth; d++) c->open[d] = ++c->serial;
}
static int tile__mrg_lit(tile__emitter *e, tl_dtype t, tile__elem v) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_ent k;
    tile__mrg_key(&k, TILE__MRG_LIT, 0, (int)t, 0, 0, 0, 0, 0, v.u);
    int r = tile__mrg_find(c, &k);
    return r >= 0 ? r : tile__mrg_keep(c, &k, c->in->lit(c->in, t, v));
}
static int tile__mrg_special(tile__emitter *e, int which) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_ent k;
    tile__mrg_key(&k, TILE__MRG_SPECIAL, which, 0, 0, 0, 0, 0, 0, 0);
    int r = tile__mrg_find(c, &k);
    return r >= 0 ? r : tile__mrg_keep(c, &k, c->in->special(c->in, which));
}
static int tile__mrg_param(tile__emitter *e, int p) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_ent k;
    tile__mrg_key(&k, TILE__MRG_PARAM, p, 0, 0, 0, 0, 0, 0, 0);
    int r = tile__mrg_find(c, &k);
    return r >= 0 ? r : tile__mrg_keep(c, &k, c->in->param(c->in, p));
}
/* op1-op4 (n operands) of a pure opcode on no variable: merged (the key's bits hold the fourth) */
static int tile__mrg_op(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int n, int a, int b, int cc, int d) {
    tile__mrg *c = tile__mrg_of(e);
    int pure = (tile__op_flags[code] & TILE__F_PURE) && !tile__mrg_isvar(c, a) && (n < 2 || !tile__mrg_isvar(c, b)) && (n < 3 || !tile__mrg_isvar(c, cc)) &&
               (n < 4 || !tile__mrg_isvar(c, d));
    tile__mrg_ent k;
    int r = -1;
    if (pure) {
        tile__mrg_key(&k, TILE__MRG_OP, (int)code, (int)t, (int)rt, a, n > 1 ? b : -1, n > 2 ? cc : -1, n, n > 3 ? (uint64_t)(uint32_t)d : 0);
        if ((r = tile__mrg_find(c, &k)) >= 0) return r;
    }
    r = n == 1   ? c->in->op1(c->in, code, t, rt, a)
        : n == 2 ? c->in->op2(c->in, code, t, rt, a, b)
        : n == 3 ? c->in->op3(c->in, code, t, rt, a, b, cc)
                 : c->in->op4(c->in, code, t, rt, a, b, cc, d);
    return pure ? tile__mrg_keep(c, &k, r) : r;
}
static int tile__mrg_op1(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a) { return tile__mrg_op(e, code, t, rt, 1, a, -1, -1, -1); }
static int tile__mrg_op2(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b) { return tile__mrg_op(e, code, t, rt, 2, a, b, -1, -1); }
static int tile__mrg_op3(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int cc) {
    return tile__mrg_op(e, code, t, rt, 3, a, b, cc, -1);
}
static int tile__mrg_op4(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int cc, int d) {
    return tile__mrg_op(e, code, t, rt, 4, a, b, cc, d);
}
static int tile__mrg_ptr_add(tile__emitter *e, int p, int off, tl_dtype off_t, int elem_bytes) {
    tile__mrg *c = tile__mrg_of(e);
    if (tile__mrg_isvar(c, p) || tile__mrg_isvar(c, off)) return c->in->ptr_add(c->in, p, off, off_t, elem_bytes);
    tile__mrg_ent k;
    tile__mrg_key(&k, TILE__MRG_PTR_ADD, 0, (int)off_t, 0, p, off, 0, elem_bytes, 0);
    int r = tile__mrg_find(c, &k);
    return r >= 0 ? r : tile__mrg_keep(c, &k, c->in->ptr_add(c->in, p, off, off_t, elem_bytes));
}
static int tile__mrg_round_tf32(tile__emitter *e, int v) {
    tile__mrg *c = tile__mrg_of(e);
    if (tile__mrg_isvar(c, v)) return c->in->round_tf32(c->in, v);
    tile__mrg_ent k;
    tile__mrg_key(&k, TILE__MRG_TF32, 0, 0, 0, v, 0, 0, 0, 0);
    int r = tile__mrg_find(c, &k);
    return r >= 0 ? r : tile__mrg_keep(c, &k, c->in->round_tf32(c->in, v));
}
static int tile__mrg_var(tile__emitter *e, tl_dtype t, int init) {
    tile__mrg *c = tile__mrg_of(e);
    int r = c->in->var(c->in, t, init);
    if (r >= 0 && (size_t)r >= c->nvar) {
        size_t n = c->nvar ? c->nvar : 256;
        while (n <= (size_t)r) n *= 2;
        unsigned char *v = (unsigned char *)TILE_REALLOC(c->var, n);
        if (!v) {
            /* a variable unmarked would be merged: stop merging */
            c->off = 1;
            return r;
        }
        memset(v + c->nvar, 0, n - c->nvar);
        c->var = v;
        c->nvar = n;
    }
    if (r >= 0) c->var[r] = 1;
    return r;
}
static void tile__mrg_for_begin(tile__emitter *e, tl_dtype t, int iv_var, int lo, int hi, int step) {
    tile__mrg *c = tile__mrg_of(e);
    c->in->for_begin(c->in, t, iv_var, lo, hi, step);
    tile__mrg_push(c);
}
static void tile__mrg_for_end(tile__emitter *e) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_pop(c);
    tile__mrg_forget(c);
    c->in->for_end(c->in);
}
static void tile__mrg_if_begin(tile__emitter *e, int cond) {
    tile__mrg *c = tile__mrg_of(e);
    c->in->if_begin(c->in, cond);
    tile__mrg_push(c);
}
static void tile__mrg_if_else(tile__emitter *e) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_pop(c);
    c->in->if_else(c->in);
    tile__mrg_push(c);
}
static void tile__mrg_if_end(tile__emitter *e) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_pop(c);
    c->in->if_end(c->in);
}
static void tile__mrg_loop_begin(tile__emitter *e) {
    tile__mrg *c = tile__mrg_of(e);
    c->in->loop_begin(c->in);
    tile__mrg_push(c);
}
static void tile__mrg_loop_end(tile__emitter *e) {
    tile__mrg *c = tile__mrg_of(e);
    tile__mrg_pop(c);
    tile__mrg_forget(c);
    c->in->loop_end(c->in);
}
/* the hooks that go straight through */
static void tile__mrg_load(tile__emitter *e, tl_dtype t, int n, int ptr, int pred, const int *other, int *out, int cache, int evict) {
    tile__mrg_of(e)->in->load(tile__mrg_of(e)->in, t, n, ptr, pred, other, out, cache, evict);
}
static void tile__mrg_store(tile__emitter *e, tl_dtype t, int n, int ptr, int pred, const int *vals, int cache, int evict) {
    tile__mrg_of(e)->in->store(tile__mrg_of(e)->in, t, n, ptr, pred, vals, cache, evict);
}
static int tile__mrg_atomic(tile__emitter *e, int kind, tl_dtype t, int ptr, int val, int pred, int sem, int scope) {
    return tile__mrg_of(e)->in->atomic(tile__mrg_of(e)->in, kind, t, ptr, val, pred, sem, scope);
}
static int tile__mrg_cas(tile__emitter *e, tl_dtype t, int ptr, int cmp, int val, int pred, int sem, int scope) {
    return tile__mrg_of(e)->in->cas(tile__mrg_of(e)->in, t, ptr, cmp, val, pred, sem, scope);
}
static int tile__mrg_shfl_xor(tile__emitter *e, tl_dtype t, int v, int lane_mask) { return tile__mrg_of(e)->in->shfl_xor(tile__mrg_of(e)->in, t, v, lane_mask); }
static void tile__mrg_smem_store(tile__emitter *e, tl_dtype t, int byte_off, int v) { tile__mrg_of(e)->in->smem_store(tile__mrg_of(e)->in, t, byte_off, v); }
static int tile__mrg_smem_load(tile__emitter *e, tl_dtype t, int byte_off) { return tile__mrg_of(e)->in->smem_load(tile__mrg_of(e)->in, t, byte_off); }
static void tile__mrg_barrier(tile__emitter *e) { tile__mrg_of(e)->in->barrier(tile__mrg_of(e)->in); }
static void tile__mrg_assign(tile__emitter *e, int var, int v) {
    tile__mrg *c = tile__mrg_of(e);
    /* only var's registers change; were another to, what was merged with it would be stale: stop merging */
    if (!tile__mrg_isvar(c, var)) c->off = 1;
    c->in->assign(c->in, var, v);
}
static void tile__mrg_break_unless(tile__emitter *e, int cond) { tile__mrg_of(e)->in->break_unless(tile__mrg_of(e)->in, cond); }
static void tile__mrg_print(tile__emitter *e, const char *prefix, int rank, const int *idx, tl_dtype t, int v, int pred) {
    tile__mrg_of(e)->in->print(tile__mrg_of(e)->in, prefix, rank, idx, t, v, pred);
}
static void tile__mrg_check(tile__emitter *e, int cond, int kind, int id, const char *msg, const char *file, int line) {
    tile__mrg_of(e)->in->check(tile__mrg_of(e)->in, cond, kind, id, msg, file, line);
}
static void tile__mrg_ptx(tile__emitter *e, const char *text, int flags, int n, tile__px *ops) { tile__mrg_of(e)->in->ptx(tile__mrg_of(e)->in, text, flags, n, ops); }
/* c wrapping the real emitter in; tile__mrg_done frees what it holds */
static void tile__mrg_init(tile__mrg *c, tile__emitter *in) {
    memset(c, 0, sizeof *c);
#define TILE__MRG_HOOK(ret, name, params) c->em.name = tile__mrg_##name;
    TILE__EMITTER_HOOKS(TILE__MRG_HOOK)
#undef TILE__MRG_HOOK
    c->in = in;
    c->ocap = 16;
    if (!(c->open = (uint32_t *)TILE_MALLOC((size_t)c->ocap * sizeof *c->open))) c->off = 1;
    else c->open[0] = 0;
}
static void tile__mrg_done(tile__mrg *c) {
    TILE_FREE(c->tab);
    TILE_FREE(c->open);
    TILE_FREE(c->var);
    c->tab = NULL, c->open = NULL, c->var = NULL;
}
static tile_status tile__lower_with(const tile__func *f, const tile__config *cfg, const tile__plan *plan, const tile__arch_rules *rules, tile__emitter *em,
                                    tile__kernel_meta *meta) {
    pthread_mutex_lock(&tile__lowered_lock);
    tile__lowered++;
    pthread_mutex_unlock(&tile__lowered_lock);
    /* the state is on the heap: after the jump back its fields are what the
       lowering left (a local would be indeterminate) */
    tile__lower *const lw = (tile__lower *)TILE_MALLOC(sizeof *lw);
    if (!lw) return tile__error(TILE_ERR_NOMEM, f->name, NULL, 0, "out of host memory while lowering the kernel");
    memset(lw, 0, sizeof *lw);
    /* the lowering calls the merging emitter (on the heap: after the jump back its tables are there to free) */
    tile__mrg *mrg = (tile__mrg *)TILE_MALLOC(sizeof *mrg);
    if (!mrg) {
        TILE_FREE(lw);
        return tile__error(TILE_ERR_NOMEM, f->name, NULL, 0, "out of host memory while lowering the kernel");
    }
    tile__mrg_init(mrg, em);
    lw->f = f;
    lw->plan = plan;
    lw->rules = rules;
    if (tile__knob_values_get()->merge) lw->em = &mrg->em;
    else lw->em = em;
    tile_status st;
    if (setjmp(lw->ar.oom) == 0) {
        tile__lower_run(lw, cfg);
        st = lw->st;
    } else {
        st = tile__error(TILE_ERR_NOMEM, f->name, NULL, 0, "out of host memory while lowering the kernel");
    }
    meta->nthreads = tile__plan_threads(plan);
    meta->smem = lw->smem;
    meta->has_assert = lw->has_check;
    meta->cluster[0] = meta->cluster[1] = meta->cluster[2] = 1;
    meta->maxnreg = 0;
    meta->ntmaps = plan->ntmaps;
    for (int k = 0; k < plan->ntmaps; k++) tile__plan_tmap_info(plan, k, &meta->tmaps[k]);
    tile__arena_free_all(&lw->ar);
    tile__mrg_done(mrg);
    TILE_FREE(mrg);
    TILE_FREE(lw);
    return st;
}
