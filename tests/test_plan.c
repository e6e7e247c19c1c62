/* tests/test_plan.c — the plan stage (tile/plan.h): what the back half
   decides before it emits, and that the lowering follows it.

   A tiled matmul (Triton's tutorial loop: masked loads of A and B, tl_dot
   into a carried accumulator, the pointers advanced) is planned for
   several configurations, and the plan is checked against what the rules
   say it must be: the cp.async ring's stages, bytes and offsets, how many
   iterations ahead its copies run, whether a wgmma group stays in flight,
   the layouts of the address slice (16-byte runs), the alignment facts of
   the pointers, what runs the tl_dot. Then the lowering is shown to read
   the plan rather than decide: the CUDA C of the same function and config
   has cp.async with the ring and none once the plan's schedule is taken
   away. TILE_DUMP=ttgir's text is the plan's. Last, every allocation of
   one plan fails in turn: TILE_ERR_NOMEM each time, nothing leaked (the
   sanitizer build), and the next plan is whole. And the one inline-PTX hook
   of the CUDA C emitter (tile/ptx.h's rows) writes operands, in-out
   accumulators, unique labels and flags as the row says. */
#include <stdlib.h>

static long pm_fail_at = -1;   /* the allocation that fails (-1: none) */
static long pm_count;
static void *pm_malloc(size_t n) { return pm_count++ == pm_fail_at ? NULL : malloc(n); }
static void *pm_realloc(void *p, size_t n) { return pm_count++ == pm_fail_at ? NULL : realloc(p, n); }
#define TILE_MALLOC(n) pm_malloc(n)
#define TILE_REALLOC(p, n) pm_realloc(p, n)
#define TILE_FREE(p) free(p)

#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

TILE_KERNEL(plan_mm, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f32, c_ptr), (tl_i32, M), (tl_i32, N), (tl_i32, K), (tl_i32, sam),
            (tl_i32, sak), (tl_i32, sbk), (tl_i32, sbn), (tl_i32, scm), (tl_i32, scn)) {
    int BM = TL_META(BLOCK_M), BN = TL_META(BLOCK_N), BK = TL_META(BLOCK_K);
    tl_t pid_m = tl_program_id(0), pid_n = tl_program_id(1);
    tl_t rm = tl_add(tl_mul(pid_m, BM), tl_arange(0, BM));
    tl_t rn = tl_add(tl_mul(pid_n, BN), tl_arange(0, BN));
    tl_t rk = tl_arange(0, BK);
    tl_t a_ptrs = tl_add(a_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), sam), tl_mul(tl_expand_dims(rk, 0), sak)));
    tl_t b_ptrs = tl_add(b_ptr, tl_add(tl_mul(tl_expand_dims(rk, 1), sbk), tl_mul(tl_expand_dims(rn, 0), sbn)));
    tl_t acc = tl_zeros(TL_F32, BM, BN);
    TL_FOR (k, 0, tl_cdiv(K, BK), 1, acc, a_ptrs, b_ptrs) {
        tl_t left = tl_sub(K, tl_mul(k, BK));
        tl_t a = tl_load(a_ptrs, .mask = tl_lt(tl_expand_dims(rk, 0), left), .other = 0);
        tl_t b = tl_load(b_ptrs, .mask = tl_lt(tl_expand_dims(rk, 1), left), .other = 0);
        acc = tl_dot(a, b, acc);
        a_ptrs = tl_add(a_ptrs, tl_mul(BK, sak));
        b_ptrs = tl_add(b_ptrs, tl_mul(BK, sbk));
    }
    tl_t c_ptrs = tl_add(c_ptr, tl_add(tl_mul(tl_expand_dims(rm, 1), scm), tl_mul(tl_expand_dims(rn, 0), scn)));
    tl_store(c_ptrs, acc, .mask = tl_and(tl_lt(tl_expand_dims(rm, 1), M), tl_lt(tl_expand_dims(rn, 0), N)));
}

/* >>unroll: an elementwise kernel over one block of BLOCK elements; the
   line of its tl_arange is where a block too large for one thread's code
   is reported (the first of the values holding the most) */
static int big_arange_line;
TILE_KERNEL(plan_big, (tl_ptr_f32, x), (tl_ptr_f32, out)) {
    int BLOCK = TL_META(BLOCK);
    big_arange_line = __LINE__ + 1;
    tl_t offs = tl_arange(0, BLOCK);
    tl_t v = tl_load(tl_add(x, offs));
    tl_store(tl_add(out, offs), tl_add(tl_mul(v, v), v));
}

/* a ring whose body reads its address slice too: the row at which each
   iteration loads A by descriptor is also where it stores A @ B (one value
   once the two tl_add are merged), so the body computes the coordinate
   again for its own iteration (tile__loop_plan.remat) */
TILE_KERNEL(plan_rows, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f32, c_ptr), (tl_i32, M), (tl_i32, base)) {
    tl_t da = tl_make_tensor_descriptor(a_ptr, (M, 64), (64, 1), (64, 64));
    tl_t dc = tl_make_tensor_descriptor(c_ptr, (M, 64), (64, 1), (64, 64));
    tl_t off = tl_add(tl_mul(tl_expand_dims(tl_arange(0, 64), 1), 64), tl_expand_dims(tl_arange(0, 64), 0));
    tl_t b = tl_load(tl_add(b_ptr, off));
    TL_FOR (r, 0, M, 64) {
        tl_t a = tl_desc_load(da, (tl_add(base, r), 0));
        tl_desc_store(dc, (tl_add(base, r), 0), tl_dot(a, b));
    }
}

/* plan_rows again, with a tile that goes through shared memory in each
   iteration (a transposed store of X, [128, 256] f32: 128 KiB of
   scratch): at 10 stages (89 KiB of pin and ring) the store's own buffer
   and that scratch do not fit in 227 KiB together, though the rings and the
   buffer do and the plan lets the buffer in; the compile drops it and plans
   again */
TILE_KERNEL(plan_rows_wide, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f32, c_ptr), (tl_ptr_f32, x_ptr), (tl_ptr_f32, y_ptr), (tl_i32, M),
            (tl_i32, base)) {
    tl_t da = tl_make_tensor_descriptor(a_ptr, (M, 64), (64, 1), (64, 64));
    tl_t dc = tl_make_tensor_descriptor(c_ptr, (M, 64), (64, 1), (64, 64));
    tl_t off = tl_add(tl_mul(tl_expand_dims(tl_arange(0, 64), 1), 64), tl_expand_dims(tl_arange(0, 64), 0));
    tl_t b = tl_load(tl_add(b_ptr, off));
    tl_t xo = tl_add(tl_mul(tl_expand_dims(tl_arange(0, 128), 1), 256), tl_expand_dims(tl_arange(0, 256), 0));
    tl_t yo = tl_add(tl_mul(tl_expand_dims(tl_arange(0, 256), 1), 128), tl_expand_dims(tl_arange(0, 128), 0));
    TL_FOR (r, 0, M, 64) {
        tl_t a = tl_desc_load(da, (tl_add(base, r), 0));
        tl_desc_store(dc, (tl_add(base, r), 0), tl_dot(a, b));
        tl_t x = tl_load(tl_add(x_ptr, tl_add(xo, tl_mul(r, 256))));
        tl_store(tl_add(y_ptr, tl_add(yo, tl_mul(r, 128))), tl_trans(x));
    }
}

/* a persistent warp-specialized matmul (tutorial 09's): C's tile stored
   through the copy engine at the end of each tile, inside the specialized
   loop; C in BLOCK x 128 tiles of f16, K in steps of 64 */
TILE_KERNEL(plan_pers, (tl_ptr_f16, a_ptr), (tl_ptr_f16, b_ptr), (tl_ptr_f16, c_ptr), (tl_i32, M), (tl_i32, K)) {
    int BLOCK = TL_META(BLOCK);
    tl_t da = tl_make_tensor_descriptor(a_ptr, (M, K), (K, 1), (BLOCK, 64));
    tl_t db = tl_make_tensor_descriptor(b_ptr, (K, 128), (128, 1), (64, 128));
    tl_t dc = tl_make_tensor_descriptor(c_ptr, (M, 128), (128, 1), (BLOCK, 128));
    TL_LOOP_OPTIONS(.warp_specialize = 1);
    TL_FOR (t, tl_program_id(0), tl_cdiv(M, BLOCK), tl_num_programs(0)) {
        tl_t acc = tl_zeros(TL_F32, BLOCK, 128);
        TL_FOR (k, 0, tl_cdiv(K, 64), 1, acc) {
            acc = tl_dot(tl_desc_load(da, (tl_mul(t, BLOCK), tl_mul(k, 64))), tl_desc_load(db, (tl_mul(k, 64), 0)), acc);
        }
        tl_desc_store(dc, (tl_mul(t, BLOCK), 0), tl_cast(acc, TL_F16));
    }
}

enum { BM = 128, BN = 128, BK = 64 };

/* launch options of warps and stages at this file's line `line`, with blocks
   bm x bn x bk as meta when bm is not 0 */
static tile_launch plan_options(int line, int warps, int stages, int bm, int bn, int bk) {
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = __FILE__;
    o.line = line;
    o.num_warps = warps;
    o.num_stages = stages;
    if (bm) {
        const tile_meta meta[] = {{"BLOCK_M", bm}, {"BLOCK_N", bn}, {"BLOCK_K", bk}};
        memcpy(o.meta, meta, sizeof meta);
    }
    return o;
}

/* the function and config for `arch`, warps, stages and wgmma mode; sak 1
   (row-major A) or `sak` elements apart */
static int setup(const char *arch, int warps, int stages, int hopper, int sak, tile__func *f, tile__config *cfg) {
    tile_launch o = plan_options(__LINE__, warps, stages, BM, BN, BK);
    /* sizes and strides as a launch would pass them: 16-byte aligned
       pointers, strides divisible by 16 (an integer argument equal to 1
       becomes the constant) */
    int M = 512 + 16 * (int)tt_int(0, 8), N = 512 + 16 * (int)tt_int(0, 8), K = 256 + 16 * (int)tt_int(0, 8);
    tile_arg args[12];
    args[0].p = (void *)(uintptr_t)0x10000, args[1].p = (void *)(uintptr_t)0x40000, args[2].p = (void *)(uintptr_t)0x80000;
    const int ints[9] = {M, N, K, sak == 1 ? K : 1, sak, N, 1, N, 1};
    for (int i = 0; i < 9; i++) args[3 + i].i = ints[i];
    tile_kernel *k = TILE_KERNEL_OF(plan_mm);
    if (tile__build(k, &o, f) != TILE_OK) {
        TT_CHECK(0, "build: %s", tile_last_error());
        return 0;
    }
    if (tile__config_resolve(k, &o, args, arch, cfg) != TILE_OK) {
        TT_CHECK(0, "config: %s", tile_last_error());
        tile__func_free(f);
        return 0;
    }
    cfg->hopper = hopper;
    return 1;
}
/* the one TL_FOR of f */
static const tile__op *the_loop(const tile__func *f) {
    for (int k = 0; k < f->nops; k++)
        if (!f->ops[k].dead && f->ops[k].code == TILE__OP_FOR) return &f->ops[k];
    return NULL;
}
static const tile__op *the_dot(const tile__func *f) {
    for (int k = 0; k < f->nops; k++)
        if (!f->ops[k].dead && f->ops[k].code == TILE__OP_DOT) return &f->ops[k];
    return NULL;
}

/* a ring's expectations */
typedef struct want {
    const char *what, *arch;
    int warps, stages, hopper, async_ok, sak;
    int ring, ahead, async, wgmma;
} want;

static void check_plan(const want *w) {
    tile__func f;
    tile__config cfg;
    tile__plan p;
    if (!setup(w->arch, w->warps, w->stages, w->hopper, w->sak, &f, &cfg)) return;
    tile_status st = tile__plan_build(&f, &cfg, w->async_ok, &p);
    TT_CHECK(st == TILE_OK, "%s: plan: %s", w->what, tile_last_error());
    if (st != TILE_OK) {
        tile__func_free(&f);
        return;
    }
    const tile__op *fop = the_loop(&f), *dot = the_dot(&f);
    const tile__loop_plan *lp = fop ? tile__plan_ring(&p, fop) : NULL;
    TT_CHECK(fop && dot, "%s: the kernel has its loop and its tl_dot", w->what);
    TT_CHECK(p.nthreads == 32 * w->warps && p.stages == w->stages, "%s: %d threads, %d stages (want %d, %d)", w->what, p.nthreads, p.stages,
             32 * w->warps, w->stages);
    TT_CHECK(!!lp == w->ring, "%s: the loop %s a ring", w->what, lp ? "has" : "lacks");
    if (dot) TT_CHECK(tile__plan_wgmma(&p, dot) == w->wgmma, "%s: the tl_dot %s on wgmma", w->what, w->wgmma ? "is not" : "is");
    if (lp && w->ring) {
        /* 2 loads of a [128,64] and a [64,128] f16 tile: 16384 bytes each */
        TT_CHECK(lp->nloads == 2 && lp->loff[0] == 0 && lp->loff[1] == 16384 && lp->slot == 32768, "%s: loads %d, offsets %d %d, stage %d bytes",
                 w->what, lp->nloads, lp->loff[0], lp->loff[1], lp->slot);
        TT_CHECK(lp->stages == w->stages && lp->ahead == w->ahead, "%s: %d stages, %d ahead (want %d, %d)", w->what, lp->stages, lp->ahead,
                 w->stages, w->ahead);
        TT_CHECK((lp->async_carry >= 0) == w->async, "%s: a wgmma group %s in flight", w->what, w->async ? "is not" : "is");
        TT_CHECK(lp->base == 0 && p.ring_smem == (size_t)w->stages * 32768, "%s: ring at %zu, %zu bytes", w->what, lp->base, p.ring_smem);
        for (int l = 0; l < lp->nloads; l++) {
            const tile__op *ld = &f.ops[f.vals[lp->loads[l]].def];
            int ptr = f.pool[ld->opnd];
            const tile__layout *L = &p.lay[ptr];
            /* the slice's layouts: 16-byte runs of f16 along the last dim */
            TT_CHECK(L->kind == TILE__LAYOUT_BLOCKED && L->spt[1] == 8, "%s: load %d's pointers: %d per thread run (want 8)", w->what, l, L->spt[1]);
            TT_CHECK(p.ax[ptr].contig >= 8 && p.ax[ptr].div >= 16, "%s: load %d's pointers: contig %d, div %d", w->what, l, p.ax[ptr].contig,
                     p.ax[ptr].div);
            TT_CHECK(lp->slice_val[ptr], "%s: load %d's pointers are in the address slice", w->what, l);
        }
    }
    if (!w->ring && fop && dot && w->sak != 1) {
        /* A's pointers 2-byte aligned only: copies of 2 bytes, no ring, the layouts the blocked ones of their shapes */
        int ptr = f.pool[f.ops[f.vals[f.pool[dot->opnd]].def].opnd];
        tile__layout L;
        tile__layout_of(&f.vals[ptr].t, p.nthreads, &L);
        TT_CHECK(tile__same_layout(&L, &p.lay[ptr]), "%s: without a ring the slice keeps its blocked layout", w->what);
    }
    /* the ttgir dump is this plan */
    char *text = tile__plan_dump(&p);
    TT_CHECK(text != NULL, "%s: the dump", w->what);
    if (text) {
        char ring[64];
        snprintf(ring, sizeof ring, "cp.async ring of %d stages", w->stages);
        TT_CHECK(!!strstr(text, ring) == w->ring, "%s: the dump %s \"%s\"", w->what, w->ring ? "lacks" : "has", ring);
        TT_CHECK(!!strstr(text, "group in flight across iterations") == w->async, "%s: the dump and the wgmma group in flight", w->what);
        TT_CHECK(!!strstr(text, "on wgmma") == w->wgmma, "%s: the dump and what runs the tl_dot", w->what);
        TT_CHECK(w->ring || strstr(text, "schedule: as written"), "%s: the dump says the loop runs as written", w->what);
    }
    TILE_FREE(text);
    tile__plan_free(&p);
    tile__func_free(&f);
}

/* the lowering emits the plan's schedule, and without one it emits none */
static void check_lowering_follows(const char *arch, int hopper) {
    tile__func f;
    tile__config cfg;
    tile__plan p;
    tile__kernel_meta meta;
    char *src = NULL;
    if (!setup(arch, 4, 3, hopper, 1, &f, &cfg)) return;
    if (tile__plan_build(&f, &cfg, 0, &p) != TILE_OK) {
        TT_CHECK(0, "%s: plan: %s", arch, tile_last_error());
        tile__func_free(&f);
        return;
    }
    const tile__op *fop = the_loop(&f);
    TT_CHECK(fop && tile__plan_ring(&p, fop), "%s: the plan has a ring", arch);
    tile_status st = tile__cuda_source(&f, &cfg, &p, &src, &meta);
    TT_CHECK(st == TILE_OK && src && strstr(src, "cp.async.cg.shared.global"), "%s: the CUDA C of the ring has 16-byte cp.async copies", arch);
    if (hopper != TILE__HOPPER_OFF)
        TT_CHECK(st == TILE_OK && src && strstr(src, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16") && strstr(src, "wgmma.wait_group.sync.aligned 0;") &&
                     strstr(src, "fence.proxy.async.shared::cta;"),
                 "%s: the CUDA C has the wgmmas, their wait, and the proxy fence after the copies", arch);
    TT_CHECK(meta.smem >= p.ring_smem && meta.nthreads == p.nthreads, "%s: the kernel's shared memory %zu covers the rings' %zu; %d threads", arch,
             meta.smem, p.ring_smem, meta.nthreads);
    TILE_FREE(src);
    src = NULL;
    /* the plan's schedule taken away: the loop is lowered as written */
    if (fop) p.loop[fop - f.ops] = 0;
    st = tile__cuda_source(&f, &cfg, &p, &src, &meta);
    TT_CHECK(st == TILE_OK && src && !strstr(src, "cp.async") && strstr(src, "mma"),
             "%s: without the plan's ring the CUDA C has no cp.async (and still its tensor-core dot)", arch);
    TILE_FREE(src);
    tile__plan_free(&p);
    tile__func_free(&f);
}

/* the one inline-PTX hook of the CUDA C emitter: operands in the order and
   forms the row gives, in-out accumulators as "+f" copies, $U a number no
   other instruction of the kernel has, the instruction volatile and a
   memory clobber only where its flags say */
static void check_ptx_hook(void) {
    tile__cuda_em c;
    memset(&c, 0, sizeof c);
#define TT_CC_HOOK(ret, name, params) c.em.name = tile__cc_##name;
    TILE__EMITTER_HOOKS(TT_CC_HOOK)
#undef TT_CC_HOOK
    c.capregs = 64;
    c.types = (tl_dtype *)TILE_MALLOC(64 * sizeof *c.types);
    if (!c.types) {
        TT_CHECK(0, "out of host memory");
        return;
    }
    int off = tile__cc_new(&c, TL_I32), acc[2] = {tile__cc_new(&c, TL_F32), tile__cc_new(&c, TL_F32)};
    for (int round = 0; round < 2; round++) {
        /* a made-up row: a loop with a label, an in-out pair, a shared address */
        tile__ptxb b;
        tile__pb_init(&b, TILE__PX_VOLATILE | TILE__PX_MEMORY);
        tile__pb_inout(&b, TL_F32, acc[0]);
        tile__pb_inout(&b, TL_F32, acc[1]);
        tile__pb_in(&b, TL_I32, TILE__PXF_SMEM, off, 0);
        tile__pb_text(&b, "{ L$U: add.f32 $0, $0, $1; ld.shared.f32 $1, [$2]; bra L$U; }");
        tile__pb_emit(&c.em, &b);
        TT_CHECK(b.ops[0].reg != acc[0] && b.ops[1].reg != acc[1], "the in-out operands get new registers");
    }
    tile__ptx_cp_wait(&c.em, 1);
    int d[4], a4[4] = {off, off, off, off}, c4[4] = {acc[0], acc[1], acc[0], acc[1]};
    tile__ptx_mma(&c.em, TILE__MMA_F16, a4, a4, c4, d);
    const char *src = c.buf ? c.buf : "";
    TT_CHECK(strstr(src, "asm volatile(\"{ L0: add.f32 %0, %0, %1; ld.shared.f32 %1, [%2]; bra L0; }\" : \"+f\"(") &&
                 strstr(src, "{ L1: add.f32") && strstr(src, "\"r\"(tile_smem_u32 + (unsigned)r0) : \"memory\");"),
             "the CUDA C of an inline PTX row: %s", src);
    TT_CHECK(strstr(src, "asm volatile(\"cp.async.wait_group 1;\" ::: \"memory\");") != NULL, "cp.async.wait_group: %s", src);
    TT_CHECK(strstr(src, "asm(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\" : \"=f\"(") &&
                 !strstr(strstr(src, "mma.sync"), "memory"),
             "mma.sync: not volatile, no memory clobber, its accumulators plain inputs: %s", src);
    TILE_FREE(c.buf);
    TILE_FREE(c.types);
}
/* the merging emitter (tile__mrg, between the lowering and the back end): a
   pure request already made, whose register is in scope, is answered
   without the back end (the CUDA C emitter here; its nregs counts what it
   made); a register made in an if or a loop is forgotten when it closes,
   everything made before a loop when the loop ends; an op on a variable is
   never merged, nor anything once a register that is not a variable is
   assigned; thousands of requests grow its table */
static void check_merging(void) {
    tile__cuda_em c;
    tile__mrg m;
    memset(&c, 0, sizeof c);
#define TT_CC_HOOK(ret, name, params) c.em.name = tile__cc_##name;
    TILE__EMITTER_HOOKS(TT_CC_HOOK)
#undef TT_CC_HOOK
    tile__mrg_init(&m, &c.em);
    tile__emitter *e = &m.em;
    tile__elem k31;
    k31.i = 31;
    int tid = e->special(e, 0), lit = e->lit(e, TL_I32, k31), n0 = c.nregs;
    TT_CHECK(e->special(e, 0) == tid && e->lit(e, TL_I32, k31) == lit && c.nregs == n0, "special and lit asked again: the same registers, nothing made");
    int lane = e->op2(e, TILE__OP_AND, TL_I32, TL_I32, tid, lit), n1 = c.nregs;
    TT_CHECK(n1 == n0 + 1 && e->op2(e, TILE__OP_AND, TL_I32, TL_I32, tid, lit) == lane && c.nregs == n1, "tid & 31 twice: made once");
    TT_CHECK(e->op2(e, TILE__OP_AND, TL_I32, TL_I32, lit, tid) != lane && c.nregs == n1 + 1, "31 & tid is another request (operands in order)");
    TT_CHECK(e->op2(e, TILE__OP_ADD, TL_I32, TL_I32, tid, lit) != e->op2(e, TILE__OP_SUB, TL_I32, TL_I32, tid, lit), "add and sub differ");
    TT_CHECK(e->op2(e, TILE__OP_ADD, TL_I64, TL_I64, tid, lit) != e->op2(e, TILE__OP_ADD, TL_I32, TL_I32, tid, lit), "the dtype is part of a request");
    /* an if: the outer register is visible inside; what the if made is not after it */
    int cond = e->op2(e, TILE__OP_LT, TL_I32, TL_I1, tid, lit);
    e->if_begin(e, cond);
    int n2 = c.nregs;
    TT_CHECK(e->op2(e, TILE__OP_AND, TL_I32, TL_I32, tid, lit) == lane && c.nregs == n2, "inside an if, the lane made before it is merged");
    int in_then = e->op2(e, TILE__OP_DIV, TL_I32, TL_I32, tid, lit);
    TT_CHECK(e->op2(e, TILE__OP_DIV, TL_I32, TL_I32, tid, lit) == in_then, "within the then branch: merged");
    e->if_else(e);
    int in_else = e->op2(e, TILE__OP_DIV, TL_I32, TL_I32, tid, lit);
    TT_CHECK(in_else != in_then, "the else branch does not see the then branch's register");
    e->if_end(e);
    int after_if = e->op2(e, TILE__OP_DIV, TL_I32, TL_I32, tid, lit);
    TT_CHECK(after_if != in_then && after_if != in_else, "after the if, neither branch's register is reused");
    TT_CHECK(e->op2(e, TILE__OP_DIV, TL_I32, TL_I32, tid, lit) == after_if, "and the one made after it is");
    /* a variable: never merged; a loop: its body's registers and everything before it forgotten at its end */
    int v = e->var(e, TL_I32, lane), n3 = c.nregs;
    int rv1 = e->op2(e, TILE__OP_ADD, TL_I32, TL_I32, v, lit);
    e->assign(e, v, rv1);
    int rv2 = e->op2(e, TILE__OP_ADD, TL_I32, TL_I32, v, lit);
    TT_CHECK(rv1 != rv2 && c.nregs == n3 + 2, "v + 31 before and after v is assigned: two registers");
    int iv = e->var(e, TL_I32, lit);
    e->for_begin(e, TL_I32, iv, lit, tid, lit);
    int n4 = c.nregs;
    TT_CHECK(e->op2(e, TILE__OP_AND, TL_I32, TL_I32, tid, lit) == lane && c.nregs == n4, "in a loop's body, the lane made before the loop is merged");
    int body = e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, tid, tid);
    TT_CHECK(e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, tid, tid) == body, "in the body: merged");
    TT_CHECK(e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, iv, lit) != e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, iv, lit), "the induction variable is a variable");
    e->for_end(e);
    int n5 = c.nregs;
    TT_CHECK(e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, tid, tid) != body && e->op2(e, TILE__OP_AND, TL_I32, TL_I32, tid, lit) != lane &&
                 c.nregs == n5 + 2,
             "after the loop, neither the body's register nor the lane from before it is reused (it would be live across the loop)");
    /* many requests: the table grows, every distinct one is made once, every repeat merged */
    int regs[3000], n6 = c.nregs, same = 1;
    for (int i = 0; i < 3000; i++) {
        tile__elem x;
        x.i = i;
        regs[i] = e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, tid, e->lit(e, TL_I32, x));
    }
    int made = c.nregs - n6;
    for (int i = 0; i < 3000; i++) {
        tile__elem x;
        x.i = i;
        same &= e->op2(e, TILE__OP_MUL, TL_I32, TL_I32, tid, e->lit(e, TL_I32, x)) == regs[i];
    }
    TT_CHECK(same && c.nregs - n6 == made && made <= 6000 && m.cap >= 6000 && !m.off, "3000 requests and their repeats: %d made, %zu slots, the repeats merged", made,
             m.cap);
    /* a register that is not a variable assigned: merging stops */
    e->assign(e, lane, tid);
    int n7 = c.nregs;
    TT_CHECK(m.off && e->op2(e, TILE__OP_ADD, TL_I32, TL_I32, tid, lit) != e->op2(e, TILE__OP_ADD, TL_I32, TL_I32, tid, lit) && c.nregs == n7 + 2,
             "after an assignment to a register that is not a variable, nothing is merged");
    tile__mrg_done(&m);
    TILE_FREE(c.buf);
    TILE_FREE(c.types);
}
/* a 128x256 accumulator on 4 warps: each wgmma fence and wait carries 256
   in-out registers, the widest inline PTX the lowering makes; every back
   end must write it (the LLVM twin runs with TILE_BACKEND=llvm: no falling
   back to NVRTC) */
static void check_wide_wgmma(void) {
    tile_launch o = plan_options(__LINE__, 4, 4, 128, 256, 64);
    char *ptx = NULL;
    tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(plan_mm), &o, "sm_90a", &ptx);
    TT_CHECK(st == TILE_OK && ptx && strstr(ptx, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16") && strstr(ptx, "wgmma.fence.sync.aligned"),
             "a 128x256 wgmma tile on 4 warps (256 accumulators per thread) compiles through %s: %s", tile_backend_name(),
             st == TILE_OK ? "no wgmma in its PTX" : tile_last_error());
    tile_free_text(ptx);
}
/* plan_rows on sm_90a: the loop keeps its TMA ring (copies of A by the
   copy engine, waited on an mbarrier), the body computing the row again;
   A @ B runs on wgmma and C goes out through the copy engine */
static void check_slice_reread(void) {
    tile_launch o = plan_options(__LINE__, 4, 3, 0, 0, 0);
    tile_arg args[5];
    args[0].p = (void *)(uintptr_t)0x10000, args[1].p = (void *)(uintptr_t)0x40000, args[2].p = (void *)(uintptr_t)0x80000;
    args[3].i = 64 * (int)tt_int(2, 40), args[4].i = 64 * (int)tt_int(0, 8);
    char *ptx = NULL;
    tile_status st = tile_kernel_ptx_for(TILE_KERNEL_OF(plan_rows), &o, args, "sm_90a", &ptx);
    TT_CHECK(st == TILE_OK && ptx && strstr(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global") && strstr(ptx, "mbarrier.try_wait.parity") &&
                 strstr(ptx, "wgmma.mma_async") && strstr(ptx, "cp.async.bulk.tensor.2d.global.shared::cta"),
             "a descriptor load whose row a store of the body also uses keeps its TMA ring (%s): %s", tile_backend_name(),
             st == TILE_OK ? "not in its PTX" : tile_last_error());
    tile_free_text(ptx);
    /* the plan says so */
    tile__func f;
    tile__config cfg;
    tile__plan p;
    if (tile__build(TILE_KERNEL_OF(plan_rows), &o, &f) != TILE_OK) {
        TT_CHECK(0, "plan_rows: build: %s", tile_last_error());
        return;
    }
    if (tile__config_resolve(TILE_KERNEL_OF(plan_rows), &o, args, "sm_90a", &cfg) == TILE_OK && tile__plan_build(&f, &cfg, 0, &p) == TILE_OK) {
        const tile__op *fop = the_loop(&f);
        const tile__loop_plan *lp = fop ? tile__plan_ring(&p, fop) : NULL;
        TT_CHECK(lp && lp->remat && lp->nloads == 1, "plan_rows: a ring of one load whose slice the body computes again");
        char *text = tile__plan_dump(&p);
        TT_CHECK(text && strstr(text, "computes it again for its own iteration"), "plan_rows: the dump says the body computes the slice again");
        TT_CHECK(text && strstr(text, "own buffer at"), "plan_rows: the dump says the store has a buffer of its own");
        TILE_FREE(text);
        tile__plan_free(&p);
    } else {
        TT_CHECK(0, "plan_rows: plan: %s", tile_last_error());
    }
    tile__func_free(&f);
}
/* kernel k's sm_90a PTX for o and args: how many bulk groups it commits
   with nothing waiting (*alone), how many waits for the engine's reads it
   has (*waits), and whether it is warp-specialized (*ws: setmaxnreg) */
static tile_status bulk_counts(tile_kernel *k, const tile_launch *o, const tile_arg *args, int *alone, int *waits, int *ws) {
    char *ptx = NULL;
    *alone = *waits = *ws = 0;
    tile_status st = tile_kernel_ptx_for(k, o, args, "sm_90a", &ptx);
    if (st == TILE_OK && ptx) {
        *ws = strstr(ptx, "setmaxnreg") != NULL;
        for (const char *q = ptx; (q = strstr(q, "cp.async.bulk.")) != NULL; q++) {
            if (strncmp(q, "cp.async.bulk.wait_group.read 0", 31) == 0) (*waits)++;
            if (strncmp(q, "cp.async.bulk.commit_group; }", 29) == 0) (*alone)++;
        }
    }
    tile_free_text(ptx);
    return st;
}
/* the store's own buffer (tile__plan_store_bufs): the loop commits the
   store without waiting (the next write waits for the engine's read), and
   waits for the last after the loop; where the buffer does not fit, or
   does not fit beside the scratch, the store waits as it goes */
static void check_store_bufs(void) {
    tile_arg args[7];
    args[0].p = (void *)(uintptr_t)0x10000, args[1].p = (void *)(uintptr_t)0x40000, args[2].p = (void *)(uintptr_t)0x80000;
    args[3].i = 64 * (int)tt_int(2, 40), args[4].i = 64 * (int)tt_int(0, 8);
    int alone, waits, ws;
    {
        tile_launch o = plan_options(__LINE__, 4, 3, 0, 0, 0);
        tile_status st = bulk_counts(TILE_KERNEL_OF(plan_rows), &o, args, &alone, &waits, &ws);
        TT_CHECK(st == TILE_OK && alone == 1 && waits == 2, "plan_rows: the store commits without waiting, each write and the loop's exit wait (%s): "
                 "%d commits alone, %d waits%s", tile_backend_name(), alone, waits, st == TILE_OK ? "" : tile_last_error());
    }
    /* plan_pers: the consumers' epilogue store, on 8 warps (two consumer
       warpgroups share each tile) and on 4 (ping-pong: a buffer in each
       consumer's scratch); the consumers' end waits for the last */
    for (int warps = 8; warps >= 4; warps -= 4) {
        tile_arg pargs[5];
        pargs[0] = args[0], pargs[1] = args[1], pargs[2] = args[2];
        pargs[3].i = 128 * (int)tt_int(4, 40), pargs[4].i = 64 * (int)tt_int(4, 16);
        tile_launch o = plan_options(__LINE__, warps, 4, 0, 0, 0);
        o.meta[0].name = "BLOCK", o.meta[0].value = warps == 8 ? 128 : 64;
        tile_status st = bulk_counts(TILE_KERNEL_OF(plan_pers), &o, pargs, &alone, &waits, &ws);
        TT_CHECK(st == TILE_OK && ws && alone == 1 && waits == 2,
                 "plan_pers, %d warps: the warp-specialized epilogue commits without waiting, its next write and the consumers' end wait (%s): "
                 "%d commits alone, %d waits%s", warps, tile_backend_name(), alone, waits, st == TILE_OK ? "" : tile_last_error());
    }
    /* plan_rows_wide: the plan gives the buffer, the compile takes it back */
    tile_arg wargs[7];
    wargs[0] = args[0], wargs[1] = args[1], wargs[2] = args[2];
    wargs[3].p = (void *)(uintptr_t)0x100000, wargs[4].p = (void *)(uintptr_t)0x200000, wargs[5] = args[3], wargs[6] = args[4];
    tile_launch o = plan_options(__LINE__, 4, 10, 0, 0, 0);
    tile__func f;
    tile__config cfg;
    tile__plan p;
    if (tile__build(TILE_KERNEL_OF(plan_rows_wide), &o, &f) == TILE_OK) {
        if (tile__config_resolve(TILE_KERNEL_OF(plan_rows_wide), &o, wargs, "sm_90a", &cfg) == TILE_OK && tile__plan_build(&f, &cfg, 0, &p) == TILE_OK) {
            TT_CHECK(p.store_bufs == 1, "plan_rows_wide: the plan gives the store its buffer (%d)", p.store_bufs);
            tile__plan_free(&p);
        } else {
            TT_CHECK(0, "plan_rows_wide: plan: %s", tile_last_error());
        }
        tile__func_free(&f);
    } else {
        TT_CHECK(0, "plan_rows_wide: build: %s", tile_last_error());
    }
    tile_status st = bulk_counts(TILE_KERNEL_OF(plan_rows_wide), &o, wargs, &alone, &waits, &ws);
    TT_CHECK(st == TILE_OK && alone == 0 && waits == 1, "plan_rows_wide: with 128 KiB of scratch the compile plans the store without its buffer (%s): "
             "%d commits alone, %d waits%s", tile_backend_name(), alone, waits, st == TILE_OK ? "" : tile_last_error());
}
/* TILE_MAX_UNROLL: 131072 elements on one warp is 4096 a thread in each of
   the eight values (arange, the two pointers splat and the two pointer
   tiles, load, mul, add): 32768, over the bound of 16384, an error before
   any compile at the arange's line; on 16 warps, 2048, and it compiles. The interpreter is not bound by it. */
static void check_unroll(void) {
    enum { N = 131072 };
    float *x = (float *)tile_malloc(N * sizeof(float)), *out = (float *)tile_malloc(N * sizeof(float));
    TT_CHECK(x && out, "tile_malloc");
    if (!x || !out) return;
    char *ptx = NULL;
    tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(plan_big), TILE_OPTS(.num_warps = 1, .meta = {{"BLOCK", N}}), "sm_80", &ptx);
    const tile_error *e = tile_last_error_info();
    TT_CHECK(st == TILE_ERR_BLOCK && !ptx && e->line == big_arange_line && strstr(e->file, "test_plan.c") &&
                 strstr(e->message, "holds 32768 tile elements per thread at 1 warp,") && strstr(e->message, "TILE_MAX_UNROLL=16384") &&
                 strstr(e->message, "the most, 4096, in the arange [131072]"),
             "a block of %d on one warp: want TILE_ERR_BLOCK at line %d, 32768 elements per thread, the arange named; got %s at %s:%d: %s", N,
             big_arange_line, tile_status_id(st), e->file, e->line, e->message);
    tile_free_text(ptx);
    ptx = NULL;
    st = tile_kernel_ptx(TILE_KERNEL_OF(plan_big), TILE_OPTS(.num_warps = 16, .meta = {{"BLOCK", N}}), "sm_80", &ptx);
    TT_CHECK(st == TILE_OK && ptx && strstr(ptx, ".entry"), "the same block on 16 warps (2048 a thread) compiles: %s", tile_last_error());
    tile_free_text(ptx);
    if (strcmp(tile_backend_name(), "interp") != 0) {
        st = plan_big(TILE_OPTS(.num_warps = 1, .meta = {{"BLOCK", N}}), x, out);
        TT_CHECK(st == TILE_ERR_BLOCK, "a launch of the block on one warp on the GPU: want TILE_ERR_BLOCK, got %s", tile_status_id(st));
    } else {
        float *hx = (float *)malloc(N * sizeof(float)), *ho = (float *)malloc(N * sizeof(float));
        TT_CHECK(hx && ho, "malloc");
        if (hx && ho) {
            for (int i = 0; i < N; i++) hx[i] = (float)tt_uniform(-2, 2);
            tile_memcpy_htod(x, hx, N * sizeof(float));
            tile_memset(out, 0xff, N * sizeof(float));
            TT_OK(plan_big(TILE_OPTS(.num_warps = 1, .meta = {{"BLOCK", N}}), x, out));
            tile_memcpy_dtoh(ho, out, N * sizeof(float));
            int bad = 0;
            for (int i = 0; i < N; i++) {
                double want = (double)hx[i] * hx[i] + hx[i];
                bad += !(fabs(ho[i] - want) <= 1e-6 * (1 + fabs(want)));
            }
            TT_CHECK(bad == 0, "the interpreter runs the block of %d on one warp: %d wrong", N, bad);
        }
        free(hx);
        free(ho);
    }
    tile_free(x);
    tile_free(out);
}
static void quiet(const tile_error *e, void *user) {
    (void)e;
    (void)user;
}
/* every allocation of one plan failing in turn */
static void check_nomem(void) {
    tile__func f;
    tile__config cfg;
    tile__plan p;
    if (!setup("sm_90a", 4, 4, TILE__HOPPER_ASYNC, 1, &f, &cfg)) return;
    tile_set_log(quiet, NULL);
    pm_count = 0;
    TT_CHECK(tile__plan_build(&f, &cfg, 1, &p) == TILE_OK, "a clean plan");
    long n = pm_count;
    size_t want_smem = p.ring_smem;
    tile__plan_free(&p);
    TT_CHECK(n >= 6, "a plan makes %ld allocations through TILE_MALLOC (want the tables and the ring's)", n);
    int bad = 0;
    for (long k = 0; k < n; k++) {
        pm_count = 0;
        pm_fail_at = k;
        tile_status st = tile__plan_build(&f, &cfg, 1, &p);
        pm_fail_at = -1;
        if (st != TILE_ERR_NOMEM || p.lay || p.loops) bad++;
        if (st == TILE_OK) tile__plan_free(&p);
        pm_count = 0;
        if (tile__plan_build(&f, &cfg, 1, &p) != TILE_OK || p.ring_smem != want_smem) bad++;
        tile__plan_free(&p);
    }
    TT_CHECK(bad == 0, "%d of %ld failing allocations were not TILE_ERR_NOMEM with an empty plan, or the next plan was not whole", bad, n);
    tile__func_free(&f);
}

/* The op table's columns (tile/ir.h): what the printer, the verifier, the
   interpreter and the lowering read from a row instead of a case per op. */
static void check_op_table(void) {
    char buf[32];
    TT_CHECK(strcmp(tile__op_attr_name(TILE__OP_REDUCE, 1, buf, sizeof buf), "axis") == 0, "reduce's i[1]: '%s', want axis", buf);
    TT_CHECK(strcmp(tile__op_attr_name(TILE__OP_LOAD, 2, buf, sizeof buf), "volatile") == 0, "load's i[2]: '%s'", buf);
    TT_CHECK(strcmp(tile__op_attr_name(TILE__OP_PERMUTE, 2, buf, sizeof buf), "order[2]") == 0, "permute's i[2]: '%s', want order[2]", buf);
    TT_CHECK(strcmp(tile__op_attr_name(TILE__OP_ATOMIC_CAS, 0, buf, sizeof buf), "") == 0, "atomic_cas's unused i[0]: '%s'", buf);
    TT_CHECK(strcmp(tile__op_attr_name(TILE__OP_ATOMIC_CAS, 2, buf, sizeof buf), "scope") == 0, "atomic_cas's i[2]: '%s'", buf);
    TT_CHECK(strcmp(tile__op_attr_name(TILE__OP_ADD, 0, buf, sizeof buf), "") == 0, "add has no attribute: '%s'", buf);
    TT_CHECK(tile__opnd_optional(TILE__OP_LOAD, 1) && tile__opnd_optional(TILE__OP_LOAD, 2) && !tile__opnd_optional(TILE__OP_LOAD, 0),
             "load: mask and other optional, the pointer not");
    TT_CHECK(tile__opnd_optional(TILE__OP_DOT, 2) && !tile__opnd_optional(TILE__OP_DOT, 1) && !tile__opnd_optional(TILE__OP_ADD, 1),
             "dot: the accumulator optional; add: nothing");
    int bad = 0;
    for (int c = 0; c < TILE__OP_COUNT_; c++) {
        /* an elementwise op's operands take its result's layout; control flow takes them as they are */
        if ((tile__op_flags[c] & TILE__F_EW) && tile__op_lay[c] != TILE__LAY_RES) bad++;
        if ((tile__op_flags[c] & (TILE__F_REGION | TILE__F_TERM)) && tile__op_lay[c] != TILE__LAY_BODY) bad++;
        /* a C math library function evaluates in the interpreter through the ref column unless tile__ew_eval has a rule */
        if (tile__op_ref[c] && !(tile__op_flags[c] & TILE__F_EW)) bad++;
    }
    TT_CHECK(bad == 0, "%d rows whose layout rule or ref function does not fit their flags", bad);
    /* the interpreter's value of ERF is the ref column's, rounded to f32 */
    tile__elem x[3];
    memset(x, 0, sizeof x);
    x[0].f = 0.3;
    tile__elem r = tile__ew_eval(TILE__OP_ERF, TL_F32, TL_F32, x);
    TT_CHECK(r.f == (double)(float)erf(0.3), "erf(0.3) in f32: %.17g, want %.17g", r.f, (double)(float)erf(0.3));
    r = tile__ew_eval(TILE__OP_CEIL, TL_F64, TL_F64, x);
    TT_CHECK(r.f == 1.0, "ceil(0.3) in f64: %g", r.f);
}

int main(void) {
    tt_seed();
    const want ws[] = {
        /* what, arch, warps, stages, hopper, async_ok, sak, ring, ahead, async, wgmma */
        {"sm_90a, 4 stages, LLVM (groups in flight)", "sm_90a", 4, 4, TILE__HOPPER_ASYNC, 1, 1, 1, 2, 1, 1},
        {"sm_90a, 4 stages, NVRTC (each dot waits)", "sm_90a", 4, 4, TILE__HOPPER_ASYNC, 0, 1, 1, 3, 0, 1},
        {"sm_90a, 3 stages (too few to keep a group)", "sm_90a", 8, 3, TILE__HOPPER_ASYNC, 1, 1, 1, 2, 0, 1},
        {"sm_90a, TILE_WGMMA=0", "sm_90a", 4, 4, TILE__HOPPER_OFF, 1, 1, 1, 3, 0, 0},
        {"sm_80, 3 stages", "sm_80", 4, 3, TILE__HOPPER_OFF, 0, 1, 1, 2, 0, 0},
        {"sm_80, 1 stage (no ring)", "sm_80", 4, 1, TILE__HOPPER_OFF, 0, 1, 0, 0, 0, 0},
        {"sm_80, A column-major (2-byte copies: no ring)", "sm_80", 4, 3, TILE__HOPPER_OFF, 0, 3, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) check_plan(&ws[i]);
    check_lowering_follows("sm_80", TILE__HOPPER_OFF);
    check_lowering_follows("sm_90a", TILE__HOPPER_WAIT);
    check_ptx_hook();
    check_merging();
    check_wide_wgmma();
    check_slice_reread();
    check_store_bufs();
    check_unroll();
    check_nomem();
    check_op_table();
    tile_set_log(NULL, NULL);
    return tt_finish("test_plan");
}
