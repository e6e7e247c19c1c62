/* tile/ptx.h — >>ptx: the special instructions of the lowering (tensor
   cores, asynchronous copies, wgmma's fences and waits), each written once
   as inline PTX for the one `ptx` hook of the emitters.

   Why it is shaped this way: an instruction that is no op of the IR used to
   be a hook of its own in each emitter, its text and constraints written
   twice. Here each is one function: its text, with operands $0, $1, ...
   (outputs first), its operands' roles, types and forms, and its flags
   (tile__px in tile/emit.h); the CUDA C emitter turns any of them into
   asm() with constraints and the LLVM one into an inline asm call. A new
   instruction (mbarrier, TMA, setmaxnreg) is a function here and a call in
   the lowering, and both back ends have it. */

/* an instruction being written: its text and operands */
typedef struct tile__ptxb {
    char text[2048];
    size_t len;
    int n, flags;
    tile__px ops[TILE__PX_MAX];
} tile__ptxb;
static void tile__pb_init(tile__ptxb *b, int flags) {
    b->text[0] = 0;
    b->len = 0;
    b->n = 0;
    b->flags = flags;
}
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void tile__pb_text(tile__ptxb *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = b->len < sizeof b->text ? vsnprintf(b->text + b->len, sizeof b->text - b->len, fmt, ap) : 0;
    va_end(ap);
    TILE_ASSERT(k >= 0 && b->len + (size_t)k < sizeof b->text);
    b->len += (size_t)k;
}
/* operands first .. first+count-1 in the text: "$k, $k+1, ..." */
static void tile__pb_list(tile__ptxb *b, int first, int count) {
    for (int k = 0; k < count; k++) tile__pb_text(b, "%s$%d", k ? ", " : "", first + k);
}
static int tile__pb_op(tile__ptxb *b, int role, tl_dtype t, int form, int reg, uint64_t hi, int tie) {
    TILE_ASSERT(b->n < TILE__PX_MAX);
    tile__px *o = &b->ops[b->n];
    o->role = role;
    o->t = t;
    o->form = form;
    o->reg = reg;
    o->hi = hi;
    o->tie = tie;
    return b->n++;
}
static int tile__pb_out(tile__ptxb *b, tl_dtype t) { return tile__pb_op(b, TILE__PX_OUT, t, TILE__PXF_REG, -1, 0, -1); }
static int tile__pb_inout(tile__ptxb *b, tl_dtype t, int reg) { return tile__pb_op(b, TILE__PX_INOUT, t, TILE__PXF_REG, reg, 0, -1); }
static int tile__pb_in(tile__ptxb *b, tl_dtype t, int form, int reg, uint64_t hi) { return tile__pb_op(b, TILE__PX_IN, t, form, reg, hi, -1); }
/* hand it to the emitter; outputs k0 .. k0+n-1 into out */
static void tile__pb_emit(tile__emitter *em, tile__ptxb *b) { em->ptx(em, b->text, b->flags, b->n, b->ops); }
static void tile__pb_outs(const tile__ptxb *b, int k0, int n, int *out) {
    for (int k = 0; k < n; k++) out[k] = b->ops[k0 + k].reg;
}

/* ---- sm_80: tensor cores and asynchronous copies ---------------------------------------
   Shared-memory operands are byte offsets into the kernel's dynamic shared
   memory (registers), as for smem_store/smem_load. */
/* ldmatrix.sync.aligned.m8n8.x{n}[.trans].shared.b16: `off` is this
   thread's row address; n (1, 2 or 4) b32 registers (I32) come out */
static void tile__ptx_ldmatrix(tile__emitter *em, int off, int n, int trans, int *out) {
    tile__ptxb b;
    TILE_ASSERT(n == 1 || n == 2 || n == 4);
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY | TILE__PX_CONVERGENT);
    for (int k = 0; k < n; k++) tile__pb_out(&b, TL_I32);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, off, 0);
    tile__pb_text(&b, "ldmatrix.sync.aligned.m8n8.x%d%s.shared.b16 {", n, trans ? ".trans" : "");
    tile__pb_list(&b, 0, n);
    tile__pb_text(&b, "}, [$%d];", n);
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, n, out);
}
/* mma.sync.aligned for `kind` (TILE__MMA_*), .row.col: a is 4 b32
   registers (I32), b is 2, c is 4 accumulators (F32, or I32 for
   TILE__MMA_I8); d gets 4 (d may be c) */
static void tile__ptx_mma(tile__emitter *em, int kind, const int *a, const int *bb, const int *c, int *d) {
    static const char *const shapes[] = {"m16n8k16.row.col.f32.f16.f16.f32", "m16n8k16.row.col.f32.bf16.bf16.f32",
                                         "m16n8k8.row.col.f32.tf32.tf32.f32", "m16n8k32.row.col.s32.s8.s8.s32"};
    tile__ptxb b;
    TILE_ASSERT(kind >= TILE__MMA_F16 && kind <= TILE__MMA_I8);
    tl_dtype ct = kind == TILE__MMA_I8 ? TL_I32 : TL_F32;
    tile__pb_init(&b, TILE__PX_CONVERGENT);
    for (int k = 0; k < 4; k++) tile__pb_out(&b, ct);
    for (int k = 0; k < 4; k++) tile__pb_in(&b, TL_I32, TILE__PXF_REG, a[k], 0);
    for (int k = 0; k < 2; k++) tile__pb_in(&b, TL_I32, TILE__PXF_REG, bb[k], 0);
    for (int k = 0; k < 4; k++) b.ops[tile__pb_in(&b, ct, TILE__PXF_REG, c[k], 0)].tie = k;   /* the accumulators may stay in place */
    tile__pb_text(&b, "mma.sync.aligned.%s {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", shapes[kind]);
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 4, d);
}
/* cp.async.{ca|cg}.shared.global: `bytes` (4, 8 or 16; 16 uses .cg, which
   skips L1) from global `gptr` to shared `off`; where pred (I1, -1: none)
   is false the source size is 0 and the bytes become zeros */
static void tile__ptx_cp_async(tile__emitter *em, int off, int gptr, int bytes, int pred) {
    tile__ptxb b;
    TILE_ASSERT(bytes == 4 || bytes == 8 || bytes == 16);
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, off, 0);
    tile__pb_in(&b, TL_PTR, TILE__PXF_REG, gptr, 0);
    tile__pb_text(&b, "cp.async.%s.shared.global [$0], [$1], %d", bytes == 16 ? "cg" : "ca", bytes);
    if (pred >= 0) {
        tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, (uint64_t)bytes);
        tile__pb_text(&b, ", $2");
    }
    tile__pb_text(&b, ";");
    tile__pb_emit(em, &b);
}
static void tile__ptx_cp_commit(tile__emitter *em) {   /* cp.async.commit_group */
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_text(&b, "cp.async.commit_group;");
    tile__pb_emit(em, &b);
}
static void tile__ptx_cp_wait(tile__emitter *em, int pending) {   /* cp.async.wait_group pending */
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_text(&b, "cp.async.wait_group %d;", pending < 0 ? 0 : pending);
    tile__pb_emit(em, &b);
}

/* ---- sm_90a: wgmma ------------------------------------------------------------------------
   The accumulators go through each instruction in place (in-out operands),
   so no use of one moves across a fence, a wgmma or a wait. */
/* wgmma.mma_async.sync.aligned.m64n{n}k{16|32}.f32.{ta}.{tb}: ta and tb
   both f16, both bf16 (k16), or fp8 e4m3/e5m2 in any pairing (k32, >>f8),
   with B in shared memory, N-major (tnspb 1: imm-trans-b; 16-bit only) or
   K-major (0), and A K-major in shared memory or, when areg is given (16-bit
   only), in 4 b32 registers (I32: the fragment's pairs). Each descriptor is
   its hi bits (strides, swizzle) or'ed with the 16-byte address bits of
   shared byte `off`. c is n/2 accumulators (F32, scale-d 1); d gets n/2 (d
   may be c). */
static const char *tile__wgmma_ty(tl_dtype t) {
    switch (t) {
    case TL_BF16: return "bf16";
    case TL_F8E4M3: return "e4m3";
    case TL_F8E5M2: return "e5m2";
    default: return "f16";
    }
}
static void tile__ptx_wgmma(tile__emitter *em, tl_dtype ta, tl_dtype tb, int n, const int *areg, int offa, uint64_t hia, int offb, uint64_t hib,
                            int tnspb, const int *c, int *d) {
    tile__ptxb b;
    int m = n / 2, na = areg ? 4 : 1, k = tile__dt[ta].bytes == 1 ? 32 : 16;
    TILE_ASSERT(m > 0 && m + na + 2 <= TILE__PX_MAX && tile__dt[ta].bytes == tile__dt[tb].bytes && (k == 16 || (!areg && !tnspb)));
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY | TILE__PX_CONVERGENT);
    for (int k = 0; k < m; k++) tile__pb_inout(&b, TL_F32, c[k]);
    if (areg)
        for (int k = 0; k < 4; k++) tile__pb_in(&b, TL_I32, TILE__PXF_REG, areg[k], 0);
    else
        tile__pb_in(&b, TL_I64, TILE__PXF_DESC, offa, hia);
    tile__pb_in(&b, TL_I64, TILE__PXF_DESC, offb, hib);
    tile__pb_in(&b, TL_I32, TILE__PXF_IMM, -1, 1);   /* scale-d: accumulate */
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $%d, 0; wgmma.mma_async.sync.aligned.m64n%dk%d.f32.%s.%s {", m + na + 1, n, k, tile__wgmma_ty(ta),
                  tile__wgmma_ty(tb));
    tile__pb_list(&b, 0, m);
    if (areg) {
        tile__pb_text(&b, "}, {");
        tile__pb_list(&b, m, 4);
        tile__pb_text(&b, "}, $%d, p, 1, 1, %d; }", m + 4, tnspb);
    } else if (k == 32) {   /* 8-bit forms have no transpose operands */
        tile__pb_text(&b, "}, $%d, $%d, p, 1, 1; }", m, m + 1);
    } else {
        tile__pb_text(&b, "}, $%d, $%d, p, 1, 1, 0, %d; }", m, m + 1, tnspb);
    }
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, m, d);
}
/* cvt.rn.{f16x2|bf16x2}.f32 (kind TILE__MMA_F16 or _BF16): two F32
   registers rounded to 16 bits and packed into one b32 (I32), lo in the
   low half: a wgmma register-A fragment pair straight from f32 values */
static int tile__ptx_cvt_pack16(tile__emitter *em, int kind, int lo, int hi) {
    tile__ptxb b;
    int out[1];
    tile__pb_init(&b, 0);
    tile__pb_out(&b, TL_I32);
    tile__pb_in(&b, TL_F32, TILE__PXF_REG, hi, 0);
    tile__pb_in(&b, TL_F32, TILE__PXF_REG, lo, 0);
    tile__pb_text(&b, "cvt.rn.%s.f32 $0, $1, $2;", kind == TILE__MMA_BF16 ? "bf16x2" : "f16x2");
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, out);
    return out[0];
}
/* one instruction `text` ($0 the result, $1 x) of register x of float dtype t, giving t */
static int tile__ptx_unary(tile__emitter *em, tl_dtype t, const char *text, int x) {
    tile__ptxb b;
    int out[1];
    tile__pb_init(&b, 0);
    tile__pb_out(&b, t);
    tile__pb_in(&b, t, TILE__PXF_REG, x, 0);
    tile__pb_text(&b, "%s", text);
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, out);
    return out[0];
}
/* ex2.approx.ftz.f32: tl_exp2 of f32 as Triton lowers it (one MUFU.EX2;
   a result below 2^-126 is 0, which the interpreter does too) */
static int tile__ptx_ex2_ftz(tile__emitter *em, int x) { return tile__ptx_unary(em, TL_F32, "ex2.approx.ftz.f32 $0, $1;", x); }
/* rcp.approx.ftz.f64: tl_libdevice("rcp64h", x), libdevice's __nv_rcp64h (its whole body), for both
   emitters (CUDA C has no name for it) */
static int tile__ptx_rcp64h(tile__emitter *em, int x) { return tile__ptx_unary(em, TL_F64, "rcp.approx.ftz.f64 $0, $1;", x); }
/* the PTX of a TILE__WG_* instruction */
static void tile__wg_sync_ptx(int what, int pending, char *buf, size_t n) {
    switch (what) {
    case TILE__WG_FENCE: snprintf(buf, n, "wgmma.fence.sync.aligned;"); break;
    case TILE__WG_COMMIT: snprintf(buf, n, "wgmma.commit_group.sync.aligned;"); break;
    case TILE__WG_WAIT: snprintf(buf, n, "wgmma.wait_group.sync.aligned %d;", pending < 0 ? 0 : pending); break;
    default: snprintf(buf, n, "fence.proxy.async.shared::cta;"); break;
    }
}
/* what TILE__WG_*: wgmma.fence, wgmma.commit_group, wgmma.wait_group
   `pending`, or fence.proxy.async.shared::cta. The n registers in io (F32)
   go through it in place (io gets new ones). */
static void tile__ptx_wg_sync_keep(tile__emitter *em, int what, int pending, int n, int *io, int nkeep, const int *keep);
static void tile__ptx_wg_sync(tile__emitter *em, int what, int pending, int n, int *io) { tile__ptx_wg_sync_keep(em, what, pending, n, io, 0, NULL); }
/* the same, with nkeep I32 registers read by it (>>overlap: a wgmma's A
   operand in registers, which must stay as they are until its group is
   waited for: read by the wait, they are not reused before it) */
static void tile__ptx_wg_sync_keep(tile__emitter *em, int what, int pending, int n, int *io, int nkeep, const int *keep) {
    tile__ptxb b;
    char text[64];
    TILE_ASSERT(n >= 0 && nkeep >= 0 && n + nkeep <= TILE__PX_MAX);
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY | TILE__PX_CONVERGENT);
    for (int k = 0; k < n; k++) tile__pb_inout(&b, TL_F32, io[k]);
    for (int k = 0; k < nkeep; k++) tile__pb_in(&b, TL_I32, TILE__PXF_REG, keep[k], 0);
    tile__wg_sync_ptx(what, pending, text, sizeof text);
    tile__pb_text(&b, "%s", text);
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, n, io);
}

/* >>overlap: fence.acq_rel.cta before a wgmma.wait_group that is meant to
   come late. ptxas moves a WARPGROUP.DEPBAR up across arithmetic that
   touches none of the registers in flight (on the attention loop it put
   the wait for P V before the softmax it was to overlap); a fence is an
   instruction it does not move the wait across. (It orders this thread's
   own loads and stores, of which such a loop body has none: its operands
   come by the copy engine.) */
static void tile__ptx_wait_pin(tile__emitter *em) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_text(&b, "fence.acq_rel.cta;");
    tile__pb_emit(em, &b);
}

/* ---- sm_90: mbarriers and the copy engine (>>tma) -------------------------------------------
   A barrier is 8 bytes of shared memory (byte offset `bar`, a register).
   One thread initializes each (expected arrivals 1) and fences the inits
   before the block's barrier; the thread that issues a stage's copies
   arrives on its barrier expecting their bytes, and the copies complete
   those bytes; every thread waits for the phase with the parity it expects
   (0, 1, 0, ... for the stage's uses in turn). */
/* Every one of these is predicated on an I1 register `pred` (one thread)
   rather than put in a branch: a branch anywhere near a loop whose wgmmas
   stay in flight makes ptxas serialize them (C7514). */
static void tile__ptx_mbar_init(tile__emitter *em, int bar, int count, int pred) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, bar, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.init.shared::cta.b64 [$0], %d; }", count);
    tile__pb_emit(em, &b);
}
static void tile__ptx_mbar_init_fence(tile__emitter *em, int pred) {   /* the inits, visible to the copy engine and the cluster */
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p fence.mbarrier_init.release.cluster; }");
    tile__pb_emit(em, &b);
}
/* arrive, expecting `bytes` of copies */
static void tile__ptx_mbar_expect_tx(tile__emitter *em, int bar, int bytes, int pred) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, bar, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], %d; }", bytes);
    tile__pb_emit(em, &b);
}
/* wait until the phase of parity `parity` (an I32 register, 0 or 1) completes */
static void tile__ptx_mbar_wait(tile__emitter *em, int bar, int parity) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY | TILE__PX_CONVERGENT);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, bar, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_REG, parity, 0);
    tile__pb_text(&b, "{ .reg .pred p; tile_wait_$U: mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1; @!p bra tile_wait_$U; }");
    tile__pb_emit(em, &b);
}
/* cp.async.bulk.tensor.{r}d global -> shared, completing on barrier `bar`:
   the box at coords (innermost first, I32 registers) of the tensor map at
   generic address `tmap` (I64) to shared byte offset `off`, where the I1
   register pred holds */
static void tile__ptx_tma_load(tile__emitter *em, int off, int tmap, int rank, const int *coords, int bar, int pred) {
    tile__ptxb b;
    TILE_ASSERT(rank >= 1 && rank <= 5);
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, off, 0);
    tile__pb_in(&b, TL_I64, TILE__PXF_REG, tmap, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, bar, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    for (int k = 0; k < rank; k++) tile__pb_in(&b, TL_I32, TILE__PXF_REG, coords[k], 0);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $3, 0; @p cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {",
                  rank);
    tile__pb_list(&b, 4, rank);
    tile__pb_text(&b, "}], [$2]; }");
    tile__pb_emit(em, &b);
}
/* the generic address (I64) of the kernel's parameter `index`, a tensor
   map passed by value (.param space, read in place): by its PTX name,
   "<kernel>_param_<index>", which both NVRTC and LLVM give kernel
   parameters */
static int tile__ptx_param_addr(tile__emitter *em, const char *kernel, int index) {
    tile__ptxb b;
    int out;
    tile__pb_init(&b, 0);
    tile__pb_out(&b, TL_I64);
    tile__pb_text(&b, "mov.b64 $0, %s_param_%d; cvta.param.u64 $0, $0;", kernel, index);
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, &out);
    return out;
}
static void tile__ptx_mbar_inval(tile__emitter *em, int bar, int pred) {   /* before its shared memory is used for anything else */
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, bar, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.inval.shared::cta.b64 [$0]; }");
    tile__pb_emit(em, &b);
}

/* ---- sm_90: warp specialization (>>ws) ------------------------------------------------------ */
/* arrive on barrier `bar` (no bytes) where the I1 register pred holds */
static void tile__ptx_mbar_arrive(tile__emitter *em, int bar, int pred) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, bar, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.arrive.shared::cta.b64 _, [$0]; }");
    tile__pb_emit(em, &b);
}
/* the warpgroup of thread `tid` (tid / 128) as lane 0 of its warp has it,
   so that ptxas knows the roles' branch is uniform in each warp */
static int tile__ptx_warpgroup(tile__emitter *em, int tid) {
    tile__ptxb b;
    int out;
    tile__pb_init(&b, TILE__PX_CONVERGENT);
    tile__pb_out(&b, TL_I32);
    tile__pb_in(&b, TL_I32, TILE__PXF_REG, tid, 0);
    tile__pb_text(&b, "{ .reg .b32 t; shr.u32 t, $1, 7; shfl.sync.idx.b32 $0, t, 0, 31, -1; }");
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, &out);
    return out;
}
/* this warpgroup's registers per thread, down (inc 0) or up to `regs` */
static void tile__ptx_setmaxnreg(tile__emitter *em, int inc, int regs) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_CONVERGENT);
    tile__pb_text(&b, "setmaxnreg.%s.sync.aligned.u32 %d;", inc ? "inc" : "dec", regs);
    tile__pb_emit(em, &b);
}
/* named barrier `id` of `threads` threads (whole warps) */
static void tile__ptx_bar_named(tile__emitter *em, int id, int threads) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY | TILE__PX_CONVERGENT);
    tile__pb_text(&b, "bar.sync %d, %d;", id, threads);
    tile__pb_emit(em, &b);
}
/* cp.async.bulk.tensor.{r}d shared -> global (a bulk group): the box at
   shared byte offset `off` to coords of the tensor map at `tmap`, where the
   I1 register pred holds; past the tensor's bounds the engine clips it
   (in whole 16-byte chunks of a row: see tile__tma_store_candidate).
   kind -1: a copy; TL_ATOMIC_ADD, _MIN, _MAX: cp.reduce.async.bulk.tensor,
   each element reduced into memory atomically (the tensor map's dtype) */
static void tile__ptx_tma_store(tile__emitter *em, int off, int tmap, int rank, const int *coords, int kind, int pred) {
    tile__ptxb b;
    TILE_ASSERT(rank >= 1 && rank <= 5);
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, off, 0);
    tile__pb_in(&b, TL_I64, TILE__PXF_REG, tmap, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    for (int k = 0; k < rank; k++) tile__pb_in(&b, TL_I32, TILE__PXF_REG, coords[k], 0);
    if (kind < 0) tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group [$1, {", rank);
    else
        tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $2, 0; @p cp.reduce.async.bulk.tensor.%dd.global.shared::cta.%s.tile.bulk_group [$1, {", rank,
                      kind == TL_ATOMIC_ADD ? "add" : kind == TL_ATOMIC_MIN ? "min" : "max");
    tile__pb_list(&b, 3, rank);
    tile__pb_text(&b, "}], [$0]; }");
    tile__pb_emit(em, &b);
}
/* `what` (bulk-group instructions, each predicated on @p) where the I1
   register pred holds */
static void tile__ptx_bulk_pred(tile__emitter *em, int pred, const char *what) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $0, 0; %s }", what);
    tile__pb_emit(em, &b);
}
/* commit this thread's bulk stores as a group and wait until every group
   has read its shared memory (it may then be written again), where the I1
   register pred holds */
static void tile__ptx_bulk_commit_read(tile__emitter *em, int pred) {
    tile__ptx_bulk_pred(em, pred, "@p cp.async.bulk.commit_group; @p cp.async.bulk.wait_group.read 0;");
}
/* commit this thread's bulk stores as a group, where the I1 register pred
   holds; nothing waits (a store from a buffer of its own: tile__plan_store_bufs) */
static void tile__ptx_bulk_commit(tile__emitter *em, int pred) { tile__ptx_bulk_pred(em, pred, "@p cp.async.bulk.commit_group;"); }
/* wait until every bulk group this thread committed has read its shared
   memory, where the I1 register pred holds */
static void tile__ptx_bulk_wait_read(tile__emitter *em, int pred) { tile__ptx_bulk_pred(em, pred, "@p cp.async.bulk.wait_group.read 0;"); }
/* >>pingpong: named barrier whose id is the I32 register `id`, of
   `threads` threads (whole warps): wait for them (bar.sync), or arrive
   without waiting (arrive 1: bar.arrive) */
static void tile__ptx_bar_named_reg(tile__emitter *em, int arrive, int id, int threads) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY | TILE__PX_CONVERGENT);
    tile__pb_in(&b, TL_I32, TILE__PXF_REG, id, 0);
    tile__pb_text(&b, "bar.%s $0, %d;", arrive ? "arrive" : "sync", threads);
    tile__pb_emit(em, &b);
}
/* the bytes of dynamic shared memory the launch gave the program (I32) */
static int tile__ptx_dyn_smem(tile__emitter *em) {
    tile__ptxb b;
    int out;
    tile__pb_init(&b, 0);
    tile__pb_out(&b, TL_I32);
    tile__pb_text(&b, "mov.u32 $0, %%dynamic_smem_size;");
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, &out);
    return out;
}
/* the thread's index (I32), read where this is emitted: what is computed
   from it cannot be hoisted above this point (LLVM would otherwise keep a
   persistent loop's epilogue addresses live across its K loop, beside the
   accumulators, and spill) */
/* >>profile: a special register read where this is emitted (%smid,
   %globaltimer, %clock64), never merged with another read */
static int tile__ptx_sreg(tile__emitter *em, tl_dtype t, const char *name) {
    tile__ptxb b;
    int out;
    tile__pb_init(&b, TILE__PX_VOLATILE);
    tile__pb_out(&b, t);
    tile__pb_text(&b, "mov.u%d $0, %%%s;", t == TL_I64 ? 64 : 32, name);
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, &out);
    return out;
}
/* >>profile: the kernel clock (the slot's layout: TILE__KTIME_* in
   tile/emit.h). The start (end 0): thread 0 of program (0,0,0) stores
   %globaltimer into the slot. The end (end 1): thread 0 of each program
   reduces it (max) into the lane of its SM */
static void tile__ptx_ktime(tile__emitter *em, int ptr, int tid, int end) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_PTR, TILE__PXF_REG, ptr, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_REG, tid, 0);
    if (!end)
        tile__pb_text(&b, "{ .reg .pred p; .reg .b32 a, c; .reg .b64 t; mov.u32 a, %%ctaid.x; mov.u32 c, %%ctaid.y; or.b32 a, a, c; "
                          "mov.u32 c, %%ctaid.z; or.b32 a, a, c; or.b32 a, a, $1; setp.eq.u32 p, a, 0; "
                          "mov.u64 t, %%globaltimer; @p st.global.u64 [$0], t; }");
    else
        tile__pb_text(&b, "{ .reg .pred p; .reg .b32 s; .reg .b64 o, t; setp.eq.u32 p, $1, 0; mov.u32 s, %%smid; and.b32 s, s, %d; add.u32 s, s, 1; "
                          "mul.wide.u32 o, s, %d; add.u64 o, o, $0; mov.u64 t, %%globaltimer; @p red.relaxed.gpu.global.max.u64 [o], t; }",
                      TILE__KTIME_LANES - 1, TILE__KTIME_LANE_STRIDE);
    tile__pb_emit(em, &b);
}
/* >>histogram: one more in the u32 at shared byte offset off, where pred */
static void tile__ptx_red_shared_inc(tile__emitter *em, int off, int pred) {
    tile__ptxb b;
    tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
    tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, off, 0);
    tile__pb_in(&b, TL_I32, TILE__PXF_SIZE, pred, 1);
    tile__pb_text(&b, "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p red.shared.add.u32 [$0], 1; }");
    tile__pb_emit(em, &b);
}
static int tile__ptx_tid_here(tile__emitter *em) {
    tile__ptxb b;
    int out;
    tile__pb_init(&b, TILE__PX_VOLATILE);
    tile__pb_out(&b, TL_I32);
    tile__pb_text(&b, "mov.u32 $0, %%tid.x;");
    tile__pb_emit(em, &b);
    tile__pb_outs(&b, 0, 1, &out);
    return out;
}
