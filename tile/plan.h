/* tile/plan.h — >>plan: what the back half decides before it emits
   anything (Triton's TTGIR): the layouts of the values, the alignment facts
   the memory ops vectorize by, which tl_dots run on tensor cores, and
   TILE_DUMP=ttgir.

   Why it is shaped this way: every choice here is a function of the IR and
   the configuration alone, so it is made once, printed as it is, and read
   by the lowering (tile/lower.h), which emits code and decides nothing.

   Glossary
     spt/tpw/wpc   size per thread / threads per warp / warps per CTA, per dim
     E             elements a thread holds (product of spt * reps)
     axis info     per value: contiguity, divisibility, constancy of the last dim
*/

#include <setjmp.h>   /* out of memory while planning or lowering: back to the entry */
#include <stddef.h>

#define TILE__MAX_THREADS 1024
#define TILE__VEC 4                   /* elements per thread along the last dim, at most: one 16-byte
                                         access of f32, so each warp-wide access is contiguous */

typedef struct tile__layout {
    int rank;
    int shape[TILE__MAX_RANK];
    int spt[TILE__MAX_RANK], tpw[TILE__MAX_RANK], wpc[TILE__MAX_RANK];
    int reps[TILE__MAX_RANK];         /* repetitions of the CTA tile along each dim */
    int cover[TILE__MAX_RANK];        /* spt * tpw * wpc: the CTA tile            */
    int E;                            /* elements per thread                       */
    int nthreads;
    /* >>mma: kind TILE__LAYOUT_MMA is the accumulator layout of mma.sync
       m16n8: warps tile [M,N] as wm x wn blocks of [M/wm, N/wn]; inside its
       block a warp repeats the 16x8 instruction tile repm x repn times; in
       each, lane l holds rows l/4 and l/4+8, columns 2*(l%4) and +1.
       Element e = ((rm * repn + rn) * 4 + i): row +8 when i & 2, column +1
       when i & 1. Warps past wm*wn replicate the first ones.
       ilv (the wgmma accumulator layout, wn 1): the repm tiles of a warp
       are interleaved with the other warps' instead of adjacent, so warp w
       holds rows 16 w + 16 wm rm + ...; the 4 warps of a warpgroup then
       hold the 64 rows of one wgmma m64nN tile, and repetition rm's
       registers are that instruction's accumulators in its order. */
    int kind, wm, wn, repm, repn, ilv;
    /* >>slice: kind TILE__LAYOUT_SLICE is what a reduction of an MMA
       value along dim sdim leaves (Triton's SliceEncoding): the MMA
       fields above are the parent's, pshape its shape; the value is the
       parent's other dim (rank 1), or that with a dim of 1 at sdim (rank
       2: keep_dims, expand_dims). A thread holds the rows (sdim 1) or
       columns (sdim 0) of the parent it held, 2 per 16x8 tile along them:
       element e is the parent's element of tile e/2, half e&1 (rows: +8;
       columns: +1); the lanes that shared a row (column) hold copies. So a
       reduction leaves its result where the parent's elements are, and
       broadcasting it back (m[:, None] against the scores) moves nothing. */
    int sdim, pshape[2];
} tile__layout;
enum { TILE__LAYOUT_BLOCKED, TILE__LAYOUT_MMA, TILE__LAYOUT_SLICE };

/* The canonical layout of a shape for nthreads threads. The last dim is the
   fastest (row-major); each thread holds up to TILE__VEC consecutive elements
   of it, lanes fill dims from the last, warps from the first. */
static void tile__layout_spt(const tile__type *t, int nthreads, int v, tile__layout *L);
static void tile__layout_vec(const tile__type *t, int nthreads, int vec, tile__layout *L) {
    int n = tile__numel(t), v = n / nthreads;
    if (v < 1) v = 1;
    if (v > vec) v = vec;
    if (t->rank && v > t->shape[t->rank - 1]) v = t->shape[t->rank - 1];
    tile__layout_spt(t, nthreads, v, L);
}
/* the blocked layout whose threads hold runs of v elements of the last dim */
static void tile__layout_spt(const tile__type *t, int nthreads, int v, tile__layout *L) {
    memset(L, 0, sizeof *L);
    L->rank = t->rank;
    L->nthreads = nthreads;
    if (t->rank == 0) { L->E = 1; return; }
    int r = t->rank;
    for (int d = 0; d < r; d++) { L->shape[d] = t->shape[d]; L->spt[d] = 1; L->tpw[d] = 1; L->wpc[d] = 1; }
    L->spt[r - 1] = v;
    int lanes = 32;
    for (int d = r - 1; d >= 0 && lanes > 1; d--) {
        int room = t->shape[d] / L->spt[d];
        int k = room < lanes ? room : lanes;
        if (k < 1) k = 1;
        L->tpw[d] = k;
        lanes /= k;
    }
    L->tpw[0] *= lanes;                   /* more lanes than elements: replicate */
    int warps = nthreads / 32;
    for (int d = 0; d < r && warps > 1; d++) {
        int room = t->shape[d] / (L->spt[d] * L->tpw[d]);
        int k = room < warps ? room : warps;
        if (k < 1) k = 1;
        L->wpc[d] = k;
        warps /= k;
    }
    L->wpc[0] *= warps;
    L->E = 1;
    for (int d = 0; d < r; d++) {
        L->cover[d] = L->spt[d] * L->tpw[d] * L->wpc[d];
        L->reps[d] = t->shape[d] > L->cover[d] ? t->shape[d] / L->cover[d] : 1;
        L->E *= L->spt[d] * L->reps[d];
    }
}
static void tile__layout_of(const tile__type *t, int nthreads, tile__layout *L) { tile__layout_vec(t, nthreads, TILE__VEC, L); }
/* >>map: the layout of a map_elementwise's values with pack p: its shape's
   own, unless a thread would hold fewer than p consecutive elements of the
   last dim; then runs of p (each thread's runs start at multiples of p, so
   its registers e .. e + p - 1, e a multiple of p, are one pack) */
static void tile__layout_pack(const tile__type *t, int nthreads, int pack, tile__layout *L) {
    tile__layout_of(t, nthreads, L);
    if (t->rank && L->spt[t->rank - 1] < pack) tile__layout_spt(t, nthreads, pack, L);
}
/* The mma.sync accumulator layout of a [M,N] tile for nthreads threads;
   0 when the shape does not tile into 16x8 instruction tiles. Warps go
   where the per-warp block stays squarest (as Triton's warpsPerTile). */
static int tile__mma_layout_of(const tile__type *t, int nthreads, int ilv, tile__layout *L) {
    if (t->rank != 2 || t->shape[0] % 16 || t->shape[1] % 8) return 0;
    int M = t->shape[0], N = t->shape[1], nw = nthreads / 32, wm = 1, wn = 1;
    if (ilv) {
        if (nw % 4 || M % (16 * nw)) return 0;
        wm = nw;
    }
    while (wm * wn < nw) {
        int cm = M % (32 * wm) == 0, cn = N % (16 * wn) == 0;
        if (!cm && !cn) break;
        if (cm && (!cn || M / wm >= N / wn)) wm *= 2;
        else wn *= 2;
    }
    memset(L, 0, sizeof *L);
    L->kind = TILE__LAYOUT_MMA;
    L->rank = 2;
    L->nthreads = nthreads;
    L->shape[0] = M;
    L->shape[1] = N;
    L->wm = wm;
    L->wn = wn;
    L->repm = M / (16 * wm);
    L->repn = N / (8 * wn);
    L->E = L->repm * L->repn * 4;
    L->ilv = ilv;
    return 1;
}
/* the first row of warp position wp's repetition rm */
static int tile__mma_row0(const tile__layout *L, int wp, int rm) {
    return L->ilv ? (rm * L->wm + wp) * 16 : wp * (L->shape[0] / L->wm) + rm * 16;
}
static void tile__mma_coords(const tile__layout *L, int tid, int e, int *c) {
    int lane = tid & 31, w = (tid >> 5) % (L->wm * L->wn), i = e & 3, rn = (e >> 2) % L->repn, rm = (e >> 2) / L->repn;
    c[0] = tile__mma_row0(L, w / L->wn, rm) + (lane >> 2) + 8 * (i >> 1);
    c[1] = w % L->wn * (L->shape[1] / L->wn) + rn * 8 + 2 * (lane & 3) + (i & 1);
}
static int tile__mma_holds(const tile__layout *L, int tid, const int *c) {
    int lane = tid & 31, w = (tid >> 5) % (L->wm * L->wn);
    int r = c[0] - tile__mma_row0(L, w / L->wn, 0), q = c[1] - w % L->wn * (L->shape[1] / L->wn);
    if (L->ilv) {                  /* r = 16 wm rm + (0..15) */
        if (r < 0 || r % (16 * L->wm) >= 16) return -1;
        r = r / (16 * L->wm) * 16 + r % 16;
    }
    if (r < 0 || r >= 16 * L->repm || q < 0 || q >= 8 * L->repn) return -1;
    if ((r & 7) != lane >> 2 || (q & 7) >> 1 != (lane & 3)) return -1;
    return ((r / 16 * L->repn + q / 8) * 4) + ((r & 8) ? 2 : 0) + (q & 1);
}
/* >>slice: the parent MMA layout of slice layout L, and the parent's element
   that slice element e stands for */
static void tile__slice_parent(const tile__layout *L, tile__layout *P) {
    *P = *L;
    P->kind = TILE__LAYOUT_MMA;
    P->rank = 2;
    P->shape[0] = L->pshape[0];
    P->shape[1] = L->pshape[1];
    P->E = L->repm * L->repn * 4;
    P->sdim = P->pshape[0] = P->pshape[1] = 0;
}
static int tile__slice_pe(const tile__layout *L, int e) { return L->sdim == 1 ? (e >> 1) * L->repn * 4 + 2 * (e & 1) : (e >> 1) * 4 + (e & 1); }
/* the slice of MMA layout P along dim sdim, of rank 1 or 2 (a 1 at sdim);
   0 when two warps split that dim (the reduction would cross warps) */
static int tile__slice_of(const tile__layout *P, int sdim, int rank, tile__layout *L) {
    if (P->kind != TILE__LAYOUT_MMA || (sdim == 1 ? P->wn : P->wm) != 1) return 0;
    *L = *P;
    L->kind = TILE__LAYOUT_SLICE;
    L->sdim = sdim;
    L->pshape[0] = P->shape[0];
    L->pshape[1] = P->shape[1];
    L->rank = rank;
    int keep = P->shape[1 - sdim];
    if (rank == 1) L->shape[0] = keep, L->shape[1] = 0;
    else L->shape[sdim] = 1, L->shape[1 - sdim] = keep;
    L->E = 2 * (sdim == 1 ? P->repm : P->repn);
    return 1;
}
static void tile__slice_coords(const tile__layout *L, int tid, int e, int *c) {
    tile__layout P;
    int pc[2];
    tile__slice_parent(L, &P);
    tile__mma_coords(&P, tid, tile__slice_pe(L, e), pc);
    if (L->rank == 1) c[0] = pc[1 - L->sdim];
    else c[L->sdim] = 0, c[1 - L->sdim] = pc[1 - L->sdim];
}
static int tile__slice_holds(const tile__layout *L, int tid, const int *c) {
    for (int e = 0; e < L->E; e++) {
        int h[2] = {0, 0};
        tile__slice_coords(L, tid, e, h);
        if (h[0] == c[0] && (L->rank == 1 || h[1] == c[1])) return e;
    }
    return -1;
}
static int tile__same_layout(const tile__layout *a, const tile__layout *b) { return memcmp(a, b, sizeof *a) == 0; }
/* Which thread position along dim d (0 .. tpw*wpc-1) a thread is at. */
static int tile__tpos(const tile__layout *L, int tid, int d) {
    int lane = tid & 31, warp = tid >> 5;
    for (int k = L->rank - 1; k > d; k--) { lane /= L->tpw[k]; warp /= L->wpc[k]; }
    return (warp % L->wpc[d]) * L->tpw[d] + lane % L->tpw[d];
}
/* Coordinates of a thread's element e (compile-time simulation). */
static void tile__coords(const tile__layout *L, int tid, int e, int *c) {
    if (L->kind == TILE__LAYOUT_MMA) { tile__mma_coords(L, tid, e, c); return; }
    if (L->kind == TILE__LAYOUT_SLICE) { tile__slice_coords(L, tid, e, c); return; }
    for (int d = L->rank - 1; d >= 0; d--) {
        int per = L->spt[d] * L->reps[d];
        int l = e % per;
        e /= per;
        int rep = l / L->spt[d], s = l % L->spt[d];
        c[d] = (rep * L->cover[d] + tile__tpos(L, tid, d) * L->spt[d] + s) % L->shape[d];
    }
}
/* The element index at which thread tid holds coordinates c, or -1. */
static int tile__holds(const tile__layout *L, int tid, const int *c) {
    if (L->kind == TILE__LAYOUT_MMA) return tile__mma_holds(L, tid, c);
    if (L->kind == TILE__LAYOUT_SLICE) return tile__slice_holds(L, tid, c);
    int e = 0;
    for (int d = 0; d < L->rank; d++) {
        int base = tile__tpos(L, tid, d) * L->spt[d], per = L->spt[d] * L->reps[d], found = -1;
        for (int l = 0; l < per && found < 0; l++)
            if ((l / L->spt[d] * L->cover[d] + base + l % L->spt[d]) % L->shape[d] == c[d]) found = l;
        if (found < 0) return -1;
        e = e * per + found;
    }
    return e;
}

/* ---- alignment analysis ----------------------------------------------------------
   Per value, along its last dim (Triton's AxisInfo, one dim): `contig` — the
   length of runs of consecutive values (pointers: consecutive elements),
   `div` — the largest power of two (<= 2^12) known to divide the first value
   of each run (pointers: in bytes), `constv` — the length of runs of equal
   values. Kernel arguments specialized as divisible by 16 start at div 16. */
typedef struct tile__axis { int contig, div, constv, one; /* one: every value is 1 */ } tile__axis;
static int tile__gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }
static int tile__pow2_div(long long v) {
    if (v == 0) return 1 << 12;
    int d = 1;
    while (d < (1 << 12) && v % (d * 2) == 0) d *= 2;
    return d;
}
static int tile__lastdim(const tile__type *t) { return t->rank ? t->shape[t->rank - 1] : 1; }

static tile__axis tile__ax_unknown(void) { tile__axis a = {1, 1, 1, 0}; return a; }
static int tile__maxi(int a, int b) { return a > b ? a : b; }
static int tile__mini(int a, int b) { return a < b ? a : b; }

/* the widest vector (elements) for a run of `run` elements of dtype t at
   pointers with axis info p, under a mask with axis info m (NULL: none) */
static int tile__vec_width(tl_dtype t, int run, tile__axis p, const tile__axis *m) {
    int size = tile__dt[t].bytes, v = run;
    v = tile__mini(v, p.contig);
    v = tile__mini(v, p.div / size > 0 ? p.div / size : 1);
    v = tile__mini(v, 16 / size);
    if (m) v = tile__mini(v, m->constv);
    int w = 1;
    while (w * 2 <= v) w *= 2;
    return w;
}

/* the tensor-core instruction for a tl_dot, or -1: it runs on CUDA cores */
static int tile__dot_mma_kind(const tile__func *f, const tile__op *op, int nthreads) {
    const tile__type *at = &f->vals[f->pool[op->opnd]].t, *rt = &f->vals[op->res].t;
    tile__layout L;
    if (!tile__mma_layout_of(rt, nthreads, 0, &L)) return -1;
    switch (at->dtype) {
    case TL_F16: case TL_F8E4M3: case TL_F8E5M2: return TILE__MMA_F16;
    case TL_BF16: return TILE__MMA_BF16;
    case TL_I8: return at->shape[1] % 32 ? -1 : TILE__MMA_I8;
    case TL_F32: return op->i[0] == TL_PRECISION_IEEE ? -1 : TILE__MMA_TF32;
    default: return -1;
    }
}
/* >>wgmma: 1 when a tl_dot runs as Hopper's wgmma.mma_async (target
   sm_90a): f16 and bf16 operands (fp8 as f16), whole warpgroups along M
   (each takes m64 tiles), N a multiple of 64 up to 256 and K of 64, so
   both operands sit in shared memory in the canonical 128-byte swizzled
   layouts that wgmma reads through descriptors. */
static int tile__dot_wgmma(const tile__func *f, const tile__op *op, int nthreads, int hopper) {
    if (!hopper) return 0;
    int kind = tile__dot_mma_kind(f, op, nthreads);
    const tile__type *at = &f->vals[f->pool[op->opnd]].t, *rt = &f->vals[op->res].t;
    tile__layout L;
    return (kind == TILE__MMA_F16 || kind == TILE__MMA_BF16) && rt->shape[1] % 64 == 0 && rt->shape[1] <= 256 && at->shape[1] % 64 == 0 &&
           tile__mma_layout_of(rt, nthreads, 1, &L);
}
/* the dtype of an operand in shared memory (fp8 goes in as f16: exact,
   unless its dot is native fp8, tile__dot_f8) */
static tl_dtype tile__mma_sdt(tl_dtype t) { return tile__is_f8_native(t) ? TL_F16 : t; }
/* >>f8: 1 when a tl_dot of fp8 operands runs as wgmma's own fp8 form
   (m64nNk32 .e4m3/.e5m2 in any pairing, f32 accumulators, twice the f16
   rate): a wgmma dot (above) whose operands are both fp8 and whose K is a
   multiple of 128, so that A's rows and B^T's are whole 128-byte swizzle
   atoms. wgmma reads 8-bit operands K-major only, so B sits in shared
   memory transposed: a ring copies it so when B is tl_trans of a load (an
   N x K block, as Triton's tutorials give an fp8 B); any other B is staged
   transposed from registers. Otherwise fp8 is widened to f16 (exact). */
static int tile__dot_f8(const tile__func *f, const tile__op *op, int nthreads, int hopper) {
    const tile__type *at = &f->vals[f->pool[op->opnd]].t, *bt = &f->vals[f->pool[op->opnd + 1]].t;
    return tile__is_f8_native(at->dtype) && tile__is_f8_native(bt->dtype) && at->shape[1] % 128 == 0 && tile__dot_wgmma(f, op, nthreads, hopper);
}

static size_t tile__align1k(size_t x) { return (x + 1023) & ~(size_t)1023; }

static const tile__op *tile__terminator(const tile__func *f, int reg) {
    const tile__region *r = &f->regs[reg];
    for (int k = r->nops - 1; k >= 0; k--)
        if (!f->ops[r->ops[k]].dead) return &f->ops[r->ops[k]];
    return NULL;
}

static int tile__zero_const(const tile__func *f, int v) {
    while (v > 0 && f->vals[v].def >= 0 && f->ops[f->vals[v].def].code == TILE__OP_BROADCAST) v = f->pool[f->ops[f->vals[v].def].opnd];
    if (v <= 0 || f->vals[v].def < 0 || f->ops[f->vals[v].def].code != TILE__OP_CONST) return 0;
    const tile__op *c = &f->ops[f->vals[v].def];
    return tile__is_float(f->vals[v].t.dtype) ? c->f == 0 && !signbit(c->f) : c->i[0] == 0;
}
/* 1 when an op of region reg (or of regions inside it) reads a value marked in pv */
static int tile__region_reads(const tile__func *f, int reg, const char *pv) {
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        for (int j = 0; j < op->nopnd; j++)
            if (f->pool[op->opnd + j] > 0 && pv[f->pool[op->opnd + j]]) return 1;
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0 && tile__region_reads(f, op->region[q], pv)) return 1;
    }
    return 0;
}

/* ---- layout assignment (>>mma) -----------------------------------------------------
   Every value starts with the blocked layout of its shape. A tl_dot on
   tensor cores gives its result the MMA layout, which flows forward through
   elementwise ops and through loop-carried values (a TL_FOR's accumulator
   keeps it across iterations) and out of TL_IFs, so the only conversion is
   where an MMA value meets an op that reads the blocked layout (a store, a
   reduction): once, after the loop. */
/* give v layout `from` (MMA or slice, of v's shape), unless it has one of those */
static int tile__mk_mma(tile__layout *lay, int v, const tile__layout *from) {
    if (v <= 0 || lay[v].kind != TILE__LAYOUT_BLOCKED) return 0;
    lay[v] = *from;
    return 1;
}
/* >>slice: the layout of a broadcast of slice layout S (rank 2, a 1 at
   sdim) to shape t: the MMA layout of t whose slice S is (the parent's,
   or another N's with the same rows), so that the broadcast moves nothing;
   0 when there is none */
static int tile__slice_bcast(const tile__layout *S, const tile__type *t, int nthreads, tile__layout *L) {
    int k = 1 - S->sdim;
    if (S->rank != 2 || t->rank != 2 || t->shape[k] != S->pshape[k] || !tile__mma_layout_of(t, nthreads, S->ilv, L)) return 0;
    return L->wm == S->wm && L->wn == S->wn && (S->sdim == 1 ? L->repm == S->repm : L->repn == S->repn);
}
/* hopper: the target has wgmma, whose dots take the interleaved layout */
static void tile__assign_layouts(const tile__func *f, int nthreads, int mma, int hopper, tile__layout *lay) {
    for (int v = 1; v < f->nvals; v++) tile__layout_of(&f->vals[v].t, nthreads, &lay[v]);
    for (int k = 0; k < f->nops; k++)   /* >>map: a pack's elements in one thread's consecutive registers */
        if (!f->ops[k].dead && f->ops[k].code == TILE__OP_MAP && f->ops[k].i[0] > 1)
            for (int r = 0; r < f->ops[k].nres; r++) tile__layout_pack(&f->vals[f->ops[k].res + r].t, nthreads, (int)f->ops[k].i[0], &lay[f->ops[k].res + r]);
    for (int changed = mma; changed;) {
        changed = 0;
        for (int k = 0; k < f->nops; k++) {
            const tile__op *op = &f->ops[k];
            const int *o = f->pool + op->opnd;
            if (op->dead) continue;
            tile__layout L;
            if (op->code == TILE__OP_DOT && tile__dot_mma_kind(f, op, nthreads) >= 0) {
                if (tile__mma_layout_of(&f->vals[op->res].t, nthreads, tile__dot_wgmma(f, op, nthreads, hopper), &L))
                    changed |= tile__mk_mma(lay, op->res, &L);
            } else if (op->code == TILE__OP_REDUCE) {   /* >>slice: rows (columns) stay where they are */
                if (o[0] > 0 && tile__slice_of(&lay[o[0]], (int)op->i[1], f->vals[op->res].t.rank, &L)) changed |= tile__mk_mma(lay, op->res, &L);
            } else if (op->code == TILE__OP_EXPAND_DIMS) {
                const tile__layout *S = &lay[o[0]];
                if (S->kind == TILE__LAYOUT_SLICE && S->rank == 1 && op->i[0] == S->sdim) {
                    L = *S;
                    L.rank = 2;
                    L.shape[S->sdim] = 1;
                    L.shape[1 - S->sdim] = S->shape[0];
                    changed |= tile__mk_mma(lay, op->res, &L);
                }
            } else if (op->code == TILE__OP_BROADCAST) {
                if (lay[o[0]].kind == TILE__LAYOUT_SLICE && tile__slice_bcast(&lay[o[0]], &f->vals[op->res].t, nthreads, &L))
                    changed |= tile__mk_mma(lay, op->res, &L);
            } else if (((tile__op_flags[op->code] & TILE__F_EW) && op->code != TILE__OP_PTR_ADD) || op->code == TILE__OP_HINT ||
                       (op->code == TILE__OP_MAP && op->i[0] == 1)) {
                /* the first MMA operand's layout, else the first slice one's (every result of an inline asm's, or
                   of a map_elementwise's without packs: their operands are read in their results' layout) */
                const tile__layout *from = NULL;
                for (int q = 0; q < 2 && !from; q++)
                    for (int j = 0; j < op->nopnd && !from; j++)
                        if (o[j] > 0 && lay[o[j]].kind == (q ? TILE__LAYOUT_SLICE : TILE__LAYOUT_MMA)) from = &lay[o[j]];
                for (int r = 0; from && r < op->nres; r++) changed |= tile__mk_mma(lay, op->res + r, from);
            } else if (op->code == TILE__OP_FOR || op->code == TILE__OP_IF) {
                const tile__op *y0 = tile__terminator(f, op->region[0]);
                const tile__op *y1 = op->code == TILE__OP_IF ? tile__terminator(f, op->region[1]) : NULL;
                const int *args = f->pool + f->regs[op->region[0]].args;
                for (int j = 0; j < op->nres; j++) {
                    /* the layout comes from the first MMA (or slice) one of: what the body yields, the other branch's, the initial value */
                    int src[3] = {y0 ? f->pool[y0->opnd + j] : 0, y1 ? f->pool[y1->opnd + j] : 0, op->code == TILE__OP_FOR ? o[3 + j] : 0};
                    const tile__layout *from = NULL;
                    for (int q = 0; q < 3 && !from; q++)
                        if (src[q] > 0 && lay[src[q]].kind != TILE__LAYOUT_BLOCKED) from = &lay[src[q]];
                    if (!from) continue;
                    L = *from;
                    changed |= tile__mk_mma(lay, op->res + j, &L);
                    if (op->code == TILE__OP_FOR) changed |= tile__mk_mma(lay, args[1 + j], &L);
                }
            }
        }
    }
}


/* ---- the plan --------------------------------------------------------------------
   tile__plan_build decides, for one function and one configuration, in
   three walks over the IR: the alignment facts of every value (in program
   order, each loop's carried values met over its iterations); the layouts
   (the blocked one of each shape, the MMA ones that tensor-core tl_dots
   give and that flow from them); and a schedule for each TL_FOR (none, or
   the cp.async ring below, with the layouts of its address slice, its
   shared-memory stages and how many wgmma groups stay in flight). The
   lowering reads it; TILE_DUMP=ttgir prints it. */
enum { TILE__SCHED_NONE, TILE__SCHED_CP_ASYNC, TILE__SCHED_TMA };   /* a TL_FOR's schedule */
/* tile__plan_build's flags */
enum { TILE__PLAN_ASYNC_OK = 1, TILE__PLAN_NO_STORE_BUFS = 2 };
#define TILE__PIPE_LOADS 8                       /* loads one ring takes, at most */

/* every allocation of the plan (and of the lowering) is a block of one
   list: out of memory anywhere, the walk jumps back to its entry, which
   frees the list and reports TILE_ERR_NOMEM */
typedef struct tile__blk {
    struct tile__blk *prev, *next;
    union { max_align_t a; char c[1]; } data;   /* what the caller gets */
} tile__blk;
typedef struct tile__arena {
    tile__blk *blocks;
    jmp_buf oom;
} tile__arena;
/* n zeroed bytes through TILE_MALLOC, kept on a's list; never NULL */
static void *tile__arena_alloc(tile__arena *a, size_t n) {
    size_t head = offsetof(tile__blk, data);
    tile__blk *b = n <= (size_t)-1 - head ? (tile__blk *)TILE_MALLOC(head + (n ? n : 1)) : NULL;
    if (!b) longjmp(a->oom, 1);
    memset(&b->data, 0, n ? n : 1);
    b->prev = NULL;
    b->next = a->blocks;
    if (a->blocks) a->blocks->prev = b;
    a->blocks = b;
    return &b->data;
}
static void tile__arena_free(tile__arena *a, void *p) {
    if (!p) return;
    tile__blk *b = (tile__blk *)(void *)((char *)p - offsetof(tile__blk, data));
    if (b->prev) b->prev->next = b->next;
    else a->blocks = b->next;
    if (b->next) b->next->prev = b->prev;
    TILE_FREE(b);
}
static void tile__arena_free_all(tile__arena *a) {
    while (a->blocks) tile__arena_free(a, &a->blocks->data);
}

/* A TL_FOR's cp.async ring (>>mma), Triton's pipeliner: the loads in the
   loop body whose one use is an operand of a tensor-core tl_dot become
   cp.async copies into a ring of num_stages shared-memory stages; the code
   their addresses and masks come from (the "address slice": pure ops of
   the body, and the carried values it advances, such as a_ptrs) runs
   `ahead` iterations ahead, num_stages - 1 of them. The prologue issues
   iterations 0 .. ahead-1; iteration i waits for its stage
   (cp.async.wait_group ahead-1, then a barrier, which also frees the stage
   read in iteration i-1), issues iteration i+ahead into that freed stage,
   then runs the rest of the body with tl_dot reading stage i % S. The
   address slice is lowered in a layout of 16 bytes per thread run (16-byte
   copies), independent of the rest of the body.
   It applies when the slice has no side effects and nothing else reads
   it, the loads' `other` is 0 (a copy of size 0 fills zeros), the copies
   are at least 4 bytes, and the advanced values are not used after the
   loop; otherwise the loop runs as written, with tl_dot staging its
   operands itself. */
/* a loop option the plan could not apply: the notice (or, with
   TILE_STRICT=1, the error) the compile gives at the loop's line */
#define TILE__PLAN_NOTES 8
typedef struct tile__plan_note {
    const char *file;
    int line;
    char text[320];
} tile__plan_note;
typedef struct tile__loop_plan {
    int op;                           /* the TL_FOR's index in f->ops                */
    int kind;                         /* TILE__SCHED_*                               */
    int stages;                       /* S: stages of the ring                       */
    int ahead;                        /* A: iterations the copies run ahead          */
    int async_carry;                  /* >>wgmma: the carried value whose wgmmas stay
                                         in flight into the next iteration, or -1   */
    int nloads, loads[TILE__PIPE_LOADS];   /* the pipelined loads' results          */
    int loff[TILE__PIPE_LOADS];       /* each one's byte offset in a stage           */
    int slot;                         /* bytes of one stage                          */
    size_t base;                      /* stage 0's shared byte offset                */
    char *in_slice;                   /* per op: in the address slice                */
    char *slice_val;                  /* per value: made by the slice                */
    int remat;                        /* the body reads slice values too: it computes
                                         the slice again for its own iteration       */
    int ap[TILE__MAX_CARRY + 1];      /* per carried value: advanced by the slice    */
    int tval[TILE__PIPE_LOADS];       /* per load: the tl_trans of it that a wgmma reads
                                         as its B operand (K-major: K^T), or 0        */
    int tmap[TILE__PIPE_LOADS];       /* >>tma: each load's tensor map (an index into
                                         the plan's tmap_op)                         */
    size_t bars;                      /* >>tma: the stages' full barriers (8 bytes each) */
    size_t end;                       /* >>tma: where the ring's own store buffers end
                                         (tile__plan_store_bufs), else 0: the ring
                                         ends after its barriers                     */
} tile__loop_plan;
typedef struct tile__plan {
    const tile__func *f;
    int nthreads;                     /* 32 * num_warps                              */
    int stages;                       /* num_stages of the launch (>= 1)             */
    int wgmma;                        /* the target is sm_90a and TILE_WGMMA allows it */
    int wgmma_async;                  /* and wgmmas may stay in flight (tile__async_dot) */
    tile__layout *lay;                /* per value                                   */
    tile__axis *ax;                   /* per value                                   */
    int *uses;                        /* per value: how many operands name it        */
    int *loop;                        /* per op: 1 + its index in loops, or 0        */
    tile__loop_plan *loops;
    int nloops;
    size_t sbase;                     /* while planning: where enclosing rings end   */
    size_t ring_smem;                 /* shared memory the rings take, at most       */
    int ntmaps;                       /* >>tma: the tensor maps the rings read and the */
    int tmap_op[TILE__MAX_TMAPS];     /* stores write: the MAKE_DESC op of each (kernel parameters after the record) */
    int *pin;                         /* >>pin: per value, 1 + the shared byte offset
                                         where a tl_dot operand made outside the dot's
                                         loop is staged once, where it is made (Q of
                                         attention), else 0; pins end at pin_end and
                                         the rings and scratch go after them        */
    size_t pin_end;
    int *store_tmap;                  /* >>tma: per op, a DESC_STORE through the copy
                                         engine: 1 + its tensor map (the same box as a
                                         ring's: 128 bytes by the block's rows), else 0 */
    int *store_buf;                   /* >>tma: per op, such a store with a buffer of
                                         its own (tile__plan_store_bufs): 1 + its
                                         shared byte offset (in a warp-specialized
                                         kernel from the start of the consumers'
                                         scratch), else 0 (the op's scratch)        */
    /* >>ws: a warp-specialized kernel (tile__ws_plan): warpgroup 0 the
       producer, running the loops around the ring and the copies; the
       others (nthreads of them) everything else */
    int ws;                           /* 1 when so                                   */
    int ws_loop;                      /* the ring's index in loops                   */
    int ws_regs[2];                   /* setmaxnreg: the producer's, the consumers'  */
    char *ws_prod;                    /* per op: the producer lowers it (its slice)  */
    size_t ws_empty;                  /* the stages' empty barriers (8 bytes each)   */
    size_t ws_end;                    /* the ring and its barriers end here          */
    int ws_pp;                        /* ping-pong: two consumer warpgroups of nthreads
                                         (128) each take the iterations of ws_outer in
                                         turn, each with its own scratch; else one
                                         group of nthreads (256) shares each iteration */
    int ws_outer;                     /* ping-pong: the op index of the loop they split */
    size_t ws_bufs;                   /* >>tma: the consumers' stores' own buffers, at
                                         the start of their scratch (each consumer's
                                         with ping-pong): tile__plan_store_bufs      */
    long long unroll;                 /* >>unroll: the elements of every value a thread
                                         holds, summed over the ops (loop bodies once) */
    int unroll_big;                   /* the value holding the most of them           */
    int flags;                        /* tile__plan_build's                          */
    int store_bufs;                   /* >>tma: stores with buffers of their own     */
    int nnotes;                       /* loop options not applied, and why           */
    tile__plan_note notes[TILE__PLAN_NOTES];
    tile__arena ar;
} tile__plan;
/* >>tma: 1 + the tensor map of DESC_STORE op when it goes through the copy engine, else 0 */
static int tile__plan_store_map(const tile__plan *p, const tile__op *op) { return p->store_tmap ? p->store_tmap[op - p->f->ops] : 0; }
/* >>tma: 1 + the shared byte offset of DESC_STORE op's own buffer, else 0 */
static int tile__plan_store_buf(const tile__plan *p, const tile__op *op) { return p->store_buf ? p->store_buf[op - p->f->ops] : 0; }
/* the threads of a program: the consumers' and a producer warpgroup's */
static int tile__plan_threads(const tile__plan *p) { return p->nthreads * (p->ws_pp ? 2 : 1) + (p->ws ? 128 : 0); }
static void tile__plan_free(tile__plan *p) {
    tile__arena_free_all(&p->ar);
    memset(p, 0, sizeof *p);
}
/* 1 when this tl_dot is lowered as wgmma: the target has it, the shape
   allows it, and its result got wgmma's layout */
static int tile__plan_wgmma(const tile__plan *p, const tile__op *op) {
    return p->wgmma && tile__dot_wgmma(p->f, op, p->nthreads, 1) && p->lay[op->res].ilv;
}
/* >>f8: 1 when this tl_dot is lowered as native fp8 wgmma (tile__dot_f8) */
static int tile__plan_f8(const tile__plan *p, const tile__op *op) { return tile__plan_wgmma(p, op) && tile__dot_f8(p->f, op, p->nthreads, 1); }
/* the ring of TL_FOR op, or NULL when it runs as written */
static const tile__loop_plan *tile__plan_ring(const tile__plan *p, const tile__op *op) {
    int k = p->loop[op - p->f->ops];
    return k && p->loops[k - 1].kind != TILE__SCHED_NONE ? &p->loops[k - 1] : NULL;
}
/* 1 when op makes one of the ring's pipelined loads */
static int tile__ring_makes_load(const tile__loop_plan *p, const tile__op *op) {
    for (int l = 0; l < p->nloads; l++)
        if (op->nres && (op->res == p->loads[l] || op->res == p->tval[l])) return 1;
    return 0;
}
/* >>wgmma: 1 when tl_dot op takes its A operand from registers (wgmma's
   register-A form): A has the interleaved MMA layout of the result's rows
   (an earlier dot's accumulator cast to 16 bits, as attention's P), whose
   fragments are where the instruction wants them (its k16 chunk's four
   32-bit registers are the two 16x8 accumulator tiles of those columns,
   each pair of columns packed) */
static int tile__plan_rega(const tile__plan *p, const tile__op *op) {
    if (!tile__plan_wgmma(p, op)) return 0;
    int a = p->f->pool[op->opnd];
    const tile__layout *La = &p->lay[a], *Lr = &p->lay[op->res];
    return La->kind == TILE__LAYOUT_MMA && La->ilv && La->wn == 1 && La->wm == Lr->wm && La->repm == Lr->repm &&
           tile__dt[p->f->vals[a].t.dtype].bytes == 2;
}

/* >>tma: the record of the plan's tensor map k for the launch: its
   MAKE_DESC's operands (parameters or constants), the box of the ring's
   copies (128 bytes by the block's rows) and the 128-byte swizzle */
static void tile__plan_tmap_info(const tile__plan *p, int k, tile__tmap_info *t) {
    const tile__func *f = p->f;
    const tile__op *md = &f->ops[p->tmap_op[k]];
    memset(t, 0, sizeof *t);
    t->rank = (md->nopnd - 1) / 2;
    t->dtype = f->vals[md->res].t.elem;
    t->swizzle = 3;
    t->line = md->line;
    t->box[0] = 128 / (int)tile__dt[t->dtype].bytes;
    t->box[1] = (int)md->i[0];
    for (int j = 0; j < md->nopnd && j < 11; j++) {
        int v = f->pool[md->opnd + j], d = f->vals[v].def;
        t->src[j] = tile__param_of(f, v);
        if (d >= 0) t->cval[j] = f->ops[d].i[0];
    }
}
/* forget a ring that does not apply */
static void tile__ring_drop(tile__plan *pl, tile__loop_plan *p) {
    tile__arena_free(&pl->ar, p->in_slice);
    tile__arena_free(&pl->ar, p->slice_val);
    memset(p, 0, sizeof *p);
    p->async_carry = -1;
}
/* ---- the alignment analysis, one op at a time ------------------------------------------ */
static void tile__axis_op(tile__plan *p, const tile__op *op) {
    const tile__func *f = p->f;
    tile__axis *A = p->ax;
    int r = op->res;
    if (op->nres == 0) return;
    const tile__type *rt = &f->vals[r].t;
    int last = tile__lastdim(rt);
    tile__axis a = tile__ax_unknown(), x = tile__ax_unknown(), y = tile__ax_unknown();
    if (op->nopnd >= 1 && f->pool[op->opnd] > 0) x = A[f->pool[op->opnd]];
    if (op->nopnd >= 2 && f->pool[op->opnd + 1] > 0) y = A[f->pool[op->opnd + 1]];
    switch (op->code) {
    case TILE__OP_CONST:
        a.constv = last;
        a.div = tile__is_int(rt->dtype) ? tile__pow2_div(op->i[0]) : 1;
        a.one = tile__is_int(rt->dtype) && op->i[0] == 1;
        break;
    case TILE__OP_ARANGE: a.contig = last; a.div = tile__pow2_div(op->i[0]); break;
    case TILE__OP_BROADCAST: {
        const tile__type *st = &f->vals[f->pool[op->opnd]].t;
        if (st->rank == 0 || st->shape[st->rank - 1] == 1) { a.constv = last; a.div = x.div; a.one = x.one; }
        else a = x;
        break;
    }
    case TILE__OP_EXPAND_DIMS:
        if (op->i[0] == rt->rank - 1) a.div = x.div; else a = x;
        break;
    case TILE__OP_BITCAST:   /* tl_ptr_cast: the same addresses (runs of them count the new pointee) */
        if (rt->dtype == TL_PTR) {
            const tile__type *st = &f->vals[f->pool[op->opnd]].t;
            a = x;
            if (tile__dt[st->elem].bytes != tile__dt[rt->elem].bytes) a.contig = 1;
        } else a.constv = tile__gcd(last, x.constv);
        break;
    case TILE__OP_HINT:   /* tl_multiple_of, tl_max_contiguous, tl_max_constancy: what the user vouches for */
        a = x;
        if (op->i[0] > 1) a.div = tile__maxi(a.div, tile__mini(tile__pow2_div(op->i[0]), 1 << 12));
        if (op->i[1] > 1) a.contig = tile__maxi(a.contig, (int)tile__mini((int)op->i[1], last));
        if (op->i[2] > 1) a.constv = tile__maxi(a.constv, (int)tile__mini((int)op->i[2], last));
        break;
    case TILE__OP_ADD: case TILE__OP_PTR_ADD: {
        int scale = op->code == TILE__OP_PTR_ADD ? (int)tile__dt[rt->elem].bytes : 1;
        a.contig = tile__maxi(tile__gcd(x.contig, y.constv), tile__gcd(x.constv, y.contig));
        a.div = tile__gcd(x.div, tile__mini(y.div * scale, 1 << 12));
        a.constv = tile__gcd(x.constv, y.constv);
        break;
    }
    case TILE__OP_SUB:
        a.contig = tile__gcd(x.contig, y.constv);
        a.div = tile__gcd(x.div, y.div);
        a.constv = tile__gcd(x.constv, y.constv);
        break;
    case TILE__OP_MUL:
        if (y.one || x.one) { a = y.one ? x : y; break; }   /* x * 1: a stride specialized to 1 */
        a.div = tile__mini(x.div * y.div, 1 << 12);
        a.constv = tile__gcd(x.constv, y.constv);
        break;
    case TILE__OP_MOD:
        /* x % y, y the same across a run: x's runs split only where a
           multiple of y falls, which is at multiples of gcd(x.div, y.div) */
        if (tile__is_int(rt->dtype)) {
            int L = tile__gcd(tile__gcd(x.contig, tile__gcd(x.div, y.div)), y.constv);
            a.contig = L;
            a.div = L > 1 ? L : x.contig == 1 ? tile__gcd(x.div, y.div) : 1;
            a.constv = tile__gcd(x.constv, y.constv);
        }
        break;
    case TILE__OP_EQ: case TILE__OP_NE: case TILE__OP_LT: case TILE__OP_LE: case TILE__OP_GT: case TILE__OP_GE: {
        /* a contiguous run compared with a constant changes only at multiples of both divisibilities */
        int c1 = tile__gcd(x.constv, y.constv);
        int c2 = tile__gcd(tile__gcd(x.contig, tile__gcd(x.div, y.div)), y.constv);
        int c3 = tile__gcd(tile__gcd(y.contig, tile__gcd(x.div, y.div)), x.constv);
        a.constv = tile__maxi(c1, tile__maxi(c2, c3));
        break;
    }
    default:   /* inline asm: nothing known (a pack's results may differ where its operands do not; not pure: anything) */
        if ((tile__op_flags[op->code] & TILE__F_EW) && op->code != TILE__OP_INLINE_ASM) {
            int c = last;
            for (int k = 0; k < op->nopnd; k++) c = tile__gcd(c, A[f->pool[op->opnd + k]].constv);
            a.constv = c;
            if (op->code == TILE__OP_CAST && tile__is_int(rt->dtype)) a.div = x.div;
        }
        break;
    }
    if (a.contig > last) a.contig = last;
    if (a.constv > last) a.constv = last;
    for (int k = 0; k < op->nres; k++) A[r + k] = a;
}



/* The alignment facts of a loop's carried values: those of the initial
   values, met with those of the yielded ones until nothing changes. */
static void tile__loop_axis(tile__plan *p, const tile__op *op) {
    const tile__func *f = p->f;
    const tile__region *R = &f->regs[op->region[0]];
    const int *args = f->pool + R->args, *o = f->pool + op->opnd;
    const tile__op *y = tile__terminator(f, op->region[0]);
    int n = op->nres, it;
    for (int k = 0; k < n; k++) p->ax[args[1 + k]] = p->ax[o[3 + k]];
    for (it = 0; it < 8 && y; it++) {
        for (int k = 0; k < R->nops; k++)
            if (!f->ops[R->ops[k]].dead) tile__axis_op(p, &f->ops[R->ops[k]]);
        int changed = 0;
        for (int k = 0; k < n; k++) {
            tile__axis a = p->ax[args[1 + k]], b = p->ax[f->pool[y->opnd + k]], m;
            m.contig = tile__gcd(a.contig, b.contig);
            m.div = tile__gcd(a.div, b.div);
            m.constv = tile__gcd(a.constv, b.constv);
            m.one = a.one && b.one;
            if (memcmp(&m, &a, sizeof m)) changed = 1;
            p->ax[args[1 + k]] = m;
        }
        if (!changed) break;
    }
    if (it == 8 || !y)
        for (int k = 0; k < n; k++) p->ax[args[1 + k]] = tile__ax_unknown();
}


/* the stages of TL_FOR fop's ring: its TL_LOOP_OPTIONS' num_stages, else the launch's */
static int tile__for_stages(const tile__plan *pl, const tile__op *fop) {
    return (fop->i[0] & TILE__FOR_OPTIONS) && fop->i[1] > 0 ? (int)fop->i[1] : pl->stages;
}
/* How a ring may take value v of loop body `body` (a load): every use an
   operand of a tensor-core tl_dot there, or a tl_trans there whose one use
   is the B operand of a 16-bit one (the stage then holds the load's rows as
   they come, B^T K-major, which wgmma reads as it reads A and mma.sync
   through ldmatrix without .trans; attention's backward uses Q and dO both
   ways). The tl_trans (at most one), 0 when none, or -1 when another use
   keeps the load out of the ring. */
static int tile__ring_uses(const tile__plan *pl, int body, int v) {
    const tile__func *f = pl->f;
    const tile__region *R = &f->regs[body];
    int seen = 0, tv = 0;
    for (int k = 0; k < R->nops; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        if (op->dead) continue;
        for (int j = 0; j < op->nopnd; j++) {
            if (f->pool[op->opnd + j] != v) continue;
            seen++;
            if (op->code == TILE__OP_DOT && j < 2 && tile__dot_mma_kind(f, op, pl->nthreads) >= 0) continue;
            int t = op->res, kind = -1, ok = 0;
            if (op->code != TILE__OP_PERMUTE || f->vals[t].t.rank != 2 || op->i[0] != 1 || op->i[1] != 0 || tv || pl->uses[t] != 1) return -1;
            for (int q = 0; q < R->nops && !ok; q++) {   /* its one use: B of a 16-bit tensor-core dot */
                const tile__op *u = &f->ops[R->ops[q]];
                if (u->dead || u->code != TILE__OP_DOT || f->pool[u->opnd + 1] != t) continue;
                kind = tile__dot_mma_kind(f, u, pl->nthreads);
                ok = kind == TILE__MMA_F16 || kind == TILE__MMA_BF16;
            }
            if (!ok) return -1;
            tv = t;
        }
    }
    return seen == pl->uses[v] ? tv : -1;
}
/* >>f8: 1 when a ring may copy fp8 load v (ring use tv, tile__ring_uses)
   as it is: every dot reading it is native fp8 (the others widen it) and
   takes it K-major, as A or through the tl_trans as B */
static int tile__ring_f8(const tile__plan *pl, int body, int v, int tv) {
    const tile__func *f = pl->f;
    const tile__region *R = &f->regs[body];
    for (int k = 0; k < R->nops; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        if (op->dead || op->code != TILE__OP_DOT) continue;
        const int *o = f->pool + op->opnd;
        if ((o[0] == v || o[1] == v || (tv && o[1] == tv)) && (!tile__plan_f8(pl, op) || o[1] == v)) return 0;
    }
    return 1;
}
static int tile__ring_slice(tile__plan *pl, const tile__op *fop, tile__loop_plan *p) {
    const tile__func *f = pl->f;
    const tile__region *R = &f->regs[fop->region[0]];
    const int *args = f->pool + R->args;
    const tile__op *y = tile__terminator(f, fop->region[0]);
    int n = fop->nres, body = fop->region[0];
    memset(p, 0, sizeof *p);
    p->async_carry = -1;
    if (tile__for_stages(pl, fop) < 2 || !y || n > TILE__MAX_CARRY) return 0;
    for (int k = 0; k < R->nops; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        if (op->dead || op->code != TILE__OP_DOT || tile__dot_mma_kind(f, op, pl->nthreads) < 0) continue;
        for (int j = 0; j < 2 && p->nloads < TILE__PIPE_LOADS; j++) {
            int v = f->pool[op->opnd + j], d = f->vals[v].def;
            if (d >= 0 && f->ops[d].code == TILE__OP_PERMUTE && j == 1) {   /* B = tl_trans(a load) */
                v = f->pool[f->ops[d].opnd];
                d = f->vals[v].def;
            }
            int tv = tile__ring_uses(pl, body, v), dup = 0;
            for (int l = 0; l < p->nloads; l++) dup |= p->loads[l] == v;
            if (dup || tv < 0 || d < 0 || f->vals[v].region != body) continue;
            if (tile__is_f8_native(f->vals[v].t.dtype) && !tile__ring_f8(pl, body, v, tv)) continue;
            if (f->ops[d].code == TILE__OP_DESC_LOAD) {
                p->tval[p->nloads] = tv;
                p->loads[p->nloads++] = v;   /* >>tma: a copy-engine load (tile__tma_ring) */
                continue;
            }
            if (f->ops[d].code != TILE__OP_LOAD) continue;
            const tile__op *ld = &f->ops[d];
            int other = f->pool[ld->opnd + 2];
            if (other > 0 && !tile__zero_const(f, other)) continue;
            if (ld->i[2]) continue;   /* volatile */
            p->tval[p->nloads] = tv;
            p->loads[p->nloads++] = v;
        }
    }
    if (!p->nloads) return 0;
    p->in_slice = (char *)tile__arena_alloc(&pl->ar, (size_t)f->nops);
    p->slice_val = (char *)tile__arena_alloc(&pl->ar, (size_t)f->nvals);
    int *stack = (int *)tile__arena_alloc(&pl->ar, sizeof(int) * (size_t)(f->npool + 16)), sp = 0, ok = 1;
    for (int l = 0; l < p->nloads; l++) {
        const tile__op *ld = &f->ops[f->vals[p->loads[l]].def];
        if (ld->code == TILE__OP_DESC_LOAD) {   /* its offsets */
            for (int k = 1; k < ld->nopnd; k++) stack[sp++] = f->pool[ld->opnd + k];
            continue;
        }
        stack[sp++] = f->pool[ld->opnd];
        stack[sp++] = f->pool[ld->opnd + 1];
    }
    while (sp > 0 && ok) {
        int v = stack[--sp];
        if (v <= 0 || v == args[0]) continue;
        for (int l = 0; l < p->nloads; l++)
            if (v == p->loads[l]) ok = 0;
        int carried = 0;
        for (int k = 0; k < n; k++)
            if (v == args[1 + k]) {
                carried = 1;
                if (!p->ap[k]) {
                    p->ap[k] = 1;
                    stack[sp++] = f->pool[y->opnd + k];
                }
            }
        int d = f->vals[v].def;
        if (carried || d < 0 || f->vals[v].region != body || p->in_slice[d]) continue;
        const tile__op *op = &f->ops[d];
        if (!(tile__op_flags[op->code] & TILE__F_PURE) || op->region[0] >= 0 || op->code == TILE__OP_DOT) { ok = 0; break; }
        p->in_slice[d] = 1;
        if (sp + op->nopnd > f->npool + 16) { ok = 0; break; }
        for (int j = 0; j < op->nopnd; j++) stack[sp++] = f->pool[op->opnd + j];
    }
    tile__arena_free(&pl->ar, stack);
    for (int k = 0; k < R->nops && ok; k++)
        if (p->in_slice[R->ops[k]])
            for (int j = 0; j < f->ops[R->ops[k]].nres; j++) p->slice_val[f->ops[R->ops[k]].res + j] = 1;
    for (int k = 0; k < n; k++)
        if (p->ap[k]) {
            p->slice_val[args[1 + k]] = 1;
            if (pl->uses[fop->res + k]) ok = 0;     /* read after the loop: it would be S-1 steps ahead */
        }
    /* nothing but the slice (and the yields of what it advances) reads the
       slice; or, when the slice advances no carried value (it is a pure
       function of the induction variable and of values made before the
       loop, as a descriptor load's coordinates are), the body computes it
       again for its own iteration (p->remat): a coordinate that also
       addresses a store of the body, one value once common
       subexpressions are merged, keeps the ring */
    int advances = 0;
    for (int k = 0; k < n; k++) advances |= p->ap[k];
    for (int k = 0; k < R->nops && ok; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        if (op->dead || p->in_slice[R->ops[k]] || op->code == TILE__OP_YIELD) continue;
        if (tile__ring_makes_load(p, op)) continue;
        int reads = 0;
        for (int j = 0; j < op->nopnd; j++)
            if (f->pool[op->opnd + j] > 0 && p->slice_val[f->pool[op->opnd + j]]) reads = 1;
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0 && tile__region_reads(f, op->region[q], p->slice_val)) reads = 1;
        if (reads && advances) ok = 0;
        p->remat |= reads;
    }
    for (int k = 0; k < n && ok; k++) {
        int v = f->pool[y->opnd + k];
        if (v > 0 && p->slice_val[v] && !p->ap[k]) ok = 0;
    }
    if (!ok) tile__ring_drop(pl, p);
    return ok;
}

/* >>wgmma: a pipelined loop whose one tl_dot is a wgmma on two pipelined
   loads that accumulates into a carried f32 value and yields its result
   straight back (acc = tl_dot(a, b, acc), as every matmul) can leave each
   iteration's wgmmas running while the next iteration waits for its data
   and issues its copies: the dot waits for all groups but its own
   (wgmma.wait_group 1), the copies run S-2 iterations ahead instead of S-1
   (the stage of the iteration before is still being read), and the loop's
   result waits for the last group. Only with 4 stages or more: with 3 the
   copies would run one iteration ahead, and on the H200 that lost more
   than the overlap won (fp16 4096^3, 128x256x64, 8 warps: 512 TFLOP/s
   against 578 waiting), while with 4 it won (128x128x64, 4 warps: 524
   against 469). The carried value's index, or -1. */
static int tile__async_dot(const tile__plan *pl, const tile__op *fop, const tile__loop_plan *p) {
    const tile__func *f = pl->f;
    const tile__region *R = &f->regs[fop->region[0]];
    const int *args = f->pool + R->args;
    const tile__op *y = tile__terminator(f, fop->region[0]), *dot = NULL;
    if (!pl->wgmma_async || p->stages < 4 || !y) return -1;
    for (int k = 0; k < R->nops; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        if (op->dead || op->code != TILE__OP_DOT) continue;
        if (dot) return -1;                  /* one dot only */
        dot = op;
    }
    if (!dot || !tile__plan_wgmma(pl, dot)) return -1;
    int a = f->pool[dot->opnd], b = f->pool[dot->opnd + 1], c = f->pool[dot->opnd + 2], la = 0, lb = 0;
    for (int l = 0; l < p->nloads; l++) la |= p->loads[l] == a, lb |= p->loads[l] == b;
    if (!la || !lb || c <= 0 || f->vals[c].t.dtype != TL_F32 || f->vals[dot->res].t.dtype != TL_F32) return -1;
    if (pl->uses[c] != 1 || pl->uses[dot->res] != 1 || !tile__same_layout(&pl->lay[c], &pl->lay[dot->res])) return -1;
    for (int k = 0; k < fop->nres; k++)
        if (args[1 + k] == c && f->pool[y->opnd + k] == dot->res) return k;
    return -1;
}

/* How many consecutive elements along the last dim this thread holds from
   its element e on (e itself included). */
static int tile__run_at(const tile__layout *L, int e) {
    if (L->rank == 0) return 1;
    int s = L->spt[L->rank - 1];
    return s - e % s;
}
/* The ring of TL_FOR fop, into *p: 1 when it applies, its slice's layouts
   (16-byte runs of the loaded dtype) set in pl->lay; else 0, with pl->lay
   as it was. */
/* >>tma: a ring whose loads are all tensor-descriptor loads of 16-bit
   elements (or fp8 ones native fp8 dots read, tile__ring_f8), 2-D blocks of rows of a multiple of 128 bytes (the descs stage
   keeps only those, on sm_90a): each stage is the blocks in wgmma's 128B
   swizzled layout (tile__swz), one copy per 128-byte column of a block,
   the stage's copies completing on its full barrier. One thread issues
   them; every thread waits on the barrier with the stage's parity, then
   passes the block's barrier, which also frees the stage the copies about
   to be issued overwrite (read A+1-S iterations ago, its wgmmas waited). */
/* the index of MAKE_DESC md's tensor map (a load's box: 128 bytes by the
   block's rows), added when new; -1 when the kernel has TILE__MAX_TMAPS */
static int tile__plan_tmap(tile__plan *pl, int md) {
    int k = 0;
    while (k < pl->ntmaps && pl->tmap_op[k] != md) k++;
    if (k < pl->ntmaps) return k;
    if (pl->ntmaps == TILE__MAX_TMAPS) return -1;
    pl->tmap_op[pl->ntmaps] = md;
    return pl->ntmaps++;
}
static int tile__tma_ring(tile__plan *pl, const tile__op *fop, tile__loop_plan *p) {
    const tile__func *f = pl->f;
    p->slot = 0;
    for (int l = 0; l < p->nloads; l++) {
        const tile__op *ld = &f->ops[f->vals[p->loads[l]].def];
        const tile__type *t = &f->vals[p->loads[l]].t;
        int es = (int)tile__dt[t->dtype].bytes, md = f->vals[f->pool[ld->opnd]].def;
        if (ld->code != TILE__OP_DESC_LOAD || t->rank != 2 || es > 2 || t->shape[1] * es % 128 || t->shape[0] % 8 || !pl->wgmma) return 0;
        int k = tile__plan_tmap(pl, md);
        if (k < 0) return 0;
        p->tmap[l] = k;
        p->loff[l] = p->slot;
        p->slot = (int)tile__align1k((size_t)p->slot + (size_t)tile__numel(t) * (size_t)es);
    }
    p->kind = TILE__SCHED_TMA;
    p->stages = tile__for_stages(pl, fop);
    p->base = tile__align1k(pl->sbase);
    p->bars = p->base + (size_t)p->stages * (size_t)p->slot;
    p->async_carry = tile__async_dot(pl, fop, p);
    p->ahead = p->async_carry >= 0 ? p->stages - 2 : p->stages - 1;
    return 1;
}
static int tile__ring_plan(tile__plan *pl, const tile__op *fop, tile__loop_plan *p) {
    const tile__func *f = pl->f;
    if (!tile__ring_slice(pl, fop, p)) return 0;
    int ndesc = 0;
    for (int l = 0; l < p->nloads; l++) ndesc += f->ops[f->vals[p->loads[l]].def].code == TILE__OP_DESC_LOAD;
    if (ndesc) {   /* all of them, or no ring (the descs stage then makes them pointer loads) */
        int nt = pl->ntmaps;
        if (ndesc == p->nloads && tile__tma_ring(pl, fop, p)) return 1;
        pl->ntmaps = nt;
        tile__ring_drop(pl, p);
        return 0;
    }
    const int *args = f->pool + f->regs[fop->region[0]].args;
    int n = fop->nres, minb = 16;
    for (int l = 0; l < p->nloads; l++) minb = tile__mini(minb, (int)tile__dt[f->vals[p->loads[l]].t.dtype].bytes);
    tile__layout *saved = (tile__layout *)tile__arena_alloc(&pl->ar, sizeof *saved * (size_t)f->nvals);
    memcpy(saved, pl->lay, sizeof *saved * (size_t)f->nvals);
    for (int v = 1; v < f->nvals; v++)
        if (p->slice_val[v] && pl->lay[v].kind == TILE__LAYOUT_BLOCKED) tile__layout_vec(&f->vals[v].t, pl->nthreads, 16 / minb, &pl->lay[v]);
    for (int k = 0; k < n; k++)
        if (p->ap[k]) pl->lay[fop->res + k] = pl->lay[args[1 + k]];
    /* every copy must move 4 bytes or more */
    int ok = 1;
    p->slot = 0;
    for (int l = 0; l < p->nloads; l++) {
        const tile__op *ld = &f->ops[f->vals[p->loads[l]].def];
        int ptr = f->pool[ld->opnd], m = f->pool[ld->opnd + 1];
        tl_dtype t = f->vals[p->loads[l]].t.dtype;
        const tile__layout *Lp = &pl->lay[ptr];
        if (Lp->kind != TILE__LAYOUT_BLOCKED || Lp->rank != 2) ok = 0;
        else if (tile__vec_width(t, tile__run_at(Lp, 0), pl->ax[ptr], m ? &pl->ax[m] : NULL) * (int)tile__dt[t].bytes < 4) ok = 0;
        p->loff[l] = p->slot;
        p->slot += (tile__numel(&f->vals[p->loads[l]].t) * (int)tile__dt[t].bytes + 127) / 128 * 128;
        if (pl->wgmma) p->slot = (int)tile__align1k((size_t)p->slot);    /* wgmma's swizzle atoms start on 1024 bytes */
    }
    if (!ok) memcpy(pl->lay, saved, sizeof *saved * (size_t)f->nvals);
    tile__arena_free(&pl->ar, saved);
    if (!ok) {
        tile__ring_drop(pl, p);
        return 0;
    }
    p->kind = TILE__SCHED_CP_ASYNC;
    p->stages = tile__for_stages(pl, fop);
    p->base = pl->wgmma ? tile__align1k(pl->sbase) : pl->sbase;
    p->async_carry = tile__async_dot(pl, fop, p);
    /* the copies run A iterations ahead: S-1, or S-2 when a wgmma stays in flight */
    p->ahead = p->async_carry >= 0 ? p->stages - 2 : p->stages - 1;
    return 1;
}

/* Operands of tensor-core dots that a loop around the dot does not make
   (loop-invariant: attention's Q) get their own shared memory, below the
   rings, and are staged there once, where they are made, instead of in
   every iteration (in registers across the loop they would also take a
   register each per element). In a warp-specialized kernel only with 8
   warps, whose two consumer warpgroups share the operand (each reads its
   rows); with 4 they may ping-pong, each with an operand of its own, which
   would share the slot. */
static void tile__plan_pins(tile__plan *p) {
    const tile__func *f = p->f;
    for (int k = 0; k < f->nops; k++)
        if (!f->ops[k].dead && f->ops[k].code == TILE__OP_FOR && (f->ops[k].i[0] & TILE__FOR_WS) && p->nthreads != 256) return;
    size_t at = 0;
    for (int k = 0; k < f->nops; k++) {
        const tile__op *op = &f->ops[k];
        if (op->dead || op->code != TILE__OP_DOT || tile__dot_mma_kind(f, op, p->nthreads) < 0) continue;
        int wg = tile__plan_wgmma(p, op);
        if (tile__plan_f8(p, op)) continue;   /* its operands staged where it runs, as they are */
        /* the innermost loop around the dot */
        int reg = op->parent, body = -1;
        while (reg >= 0 && body < 0) {
            int own = f->regs[reg].owner;
            if (own >= 0 && f->ops[own].code == TILE__OP_FOR) body = reg;
            else reg = f->regs[reg].parent;
        }
        if (body < 0) continue;
        for (int j = wg && tile__plan_rega(p, op); j < 2; j++) {
            int v = f->pool[op->opnd + j];
            if (v <= 0 || p->pin[v] || f->vals[v].t.rank != 2 || tile__region_within(f, f->vals[v].region, body)) continue;
            if (wg) at = tile__align1k(at);
            p->pin[v] = 1 + (int)at;
            at += ((size_t)tile__numel(&f->vals[v].t) * tile__dt[tile__mma_sdt(f->vals[v].t.dtype)].bytes + 127) / 128 * 128;
        }
    }
    p->pin_end = p->sbase = at;
}
/* the alignment facts of region reg's values, in program order */
static void tile__plan_axes(tile__plan *p, int reg) {
    const tile__func *f = p->f;
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        tile__axis_op(p, op);   /* a loop's or an if's results: nothing known */
        if (op->code == TILE__OP_FOR) {
            const int *o = f->pool + op->opnd, *args = f->pool + f->regs[op->region[0]].args;
            tile__axis ia = tile__ax_unknown();
            ia.div = tile__gcd(p->ax[o[0]].div, p->ax[o[2]].div);
            p->ax[args[0]] = ia;
            tile__loop_axis(p, op);
        } else if (op->code == TILE__OP_WHILE) {
            const int *bargs = f->pool + f->regs[op->region[0]].args, *aargs = f->pool + f->regs[op->region[1]].args;
            for (int j = 0; j < op->nres; j++) p->ax[bargs[j]] = p->ax[aargs[j]] = tile__ax_unknown();
        } else if (op->code == TILE__OP_MAP) {   /* an element's scalars: nothing known */
            const tile__region *R = &f->regs[op->region[0]];
            for (int j = 0; j < R->nargs; j++) p->ax[f->pool[R->args + j]] = tile__ax_unknown();
        }
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0) tile__plan_axes(p, op->region[q]);
    }
}
/* the schedules of region reg's loops, in program order (the rings of
   loops inside a ring's body go after it in shared memory) */
static void tile__plan_loops(tile__plan *p, int reg) {
    const tile__func *f = p->f;
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        const tile__loop_plan *ring = NULL;
        if (op->code == TILE__OP_FOR) {
            tile__loop_plan *lp = &p->loops[p->nloops];
            p->loop[r->ops[k]] = ++p->nloops;
            if (tile__ring_plan(p, op, lp)) {
                ring = lp;
                p->sbase = lp->base + (size_t)lp->stages * (size_t)lp->slot + (lp->kind == TILE__SCHED_TMA ? 8 * (size_t)lp->stages : 0);
                if (p->sbase > p->ring_smem) p->ring_smem = p->sbase;
            }
            lp->op = r->ops[k];
        }
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0) tile__plan_loops(p, op->region[q]);
        if (ring) p->sbase = ring->base;
    }
}
/* ---- >>ws: loop options, and warp specialization ---------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void tile__plan_note_add(tile__plan *pl, const tile__op *op, const char *fmt, ...) {
    if (pl->nnotes == TILE__PLAN_NOTES) return;
    tile__plan_note *n = &pl->notes[pl->nnotes++];
    n->file = op->file;
    n->line = op->line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
}
/* the TL_FOR owning region reg, or NULL (the kernel body) */
static const tile__op *tile__region_for(const tile__func *f, int reg) {
    int o = f->regs[reg].owner;
    return o >= 0 ? &f->ops[o] : NULL;
}
/* 1 when op (a TL_FOR) is rop or holds it at some depth */
static int tile__for_holds(const tile__func *f, const tile__op *op, const tile__op *rop) {
    for (const tile__op *q = rop; q; q = tile__region_for(f, q->parent))
        if (q == op) return 1;
    return 0;
}
/* The producer's slice of a warp-specialized kernel, into prod (per op):
   the pure ops outside the ring that the bounds of the ring and of the
   loops around it, and the ring's copies (their offsets and the address
   slice's inputs), need; scalars only (one warp runs them: no barriers).
   NULL when there is one, else why not. */
static const char *tile__ws_slice(tile__plan *pl, const tile__loop_plan *rp, char *prod) {
    const tile__func *f = pl->f;
    const tile__op *rop = &f->ops[rp->op];
    const tile__region *R = &f->regs[rop->region[0]];
    int *stack = (int *)tile__arena_alloc(&pl->ar, sizeof(int) * (size_t)(f->npool + 64)), sp = 0, cap = f->npool + 64;
    const char *why = NULL;
#define TILE__WS_PUSH(v) do { if (sp < cap) stack[sp++] = (v); else why = "the loads' offsets need too much code"; } while (0)
    for (const tile__op *q = rop; q; q = tile__region_for(f, q->parent)) {
        if (q->code != TILE__OP_FOR) { why = "the ring is inside a TL_IF or TL_WHILE"; break; }
        for (int j = 0; j < 3; j++) TILE__WS_PUSH(f->pool[q->opnd + j]);
    }
    for (int k = 0; k < rop->nres; k++)
        if (rp->ap[k]) TILE__WS_PUSH(f->pool[rop->opnd + 3 + k]);
    for (int k = 0; k < R->nops; k++)
        if (rp->in_slice[R->ops[k]]) {
            const tile__op *op = &f->ops[R->ops[k]];
            if (op->nres && f->vals[op->res].t.rank) why = "the loads' offsets are computed from a tensor";
            for (int j = 0; j < op->nopnd; j++) TILE__WS_PUSH(f->pool[op->opnd + j]);
        }
    for (int l = 0; l < rp->nloads; l++) {
        const tile__op *ld = &f->ops[f->vals[rp->loads[l]].def];
        for (int j = 1; j < ld->nopnd; j++) TILE__WS_PUSH(f->pool[ld->opnd + j]);
    }
    while (sp > 0 && !why) {
        int v = stack[--sp];
        if (v <= 0) continue;
        int d = f->vals[v].def;
        if (d < 0) {   /* a parameter, or a loop's induction variable or carried value */
            const tile__op *own = tile__region_for(f, f->vals[v].region);
            if (!own) continue;
            const int *args = f->pool + f->regs[own->region[0]].args;
            if (own->code == TILE__OP_FOR && args[0] == v && tile__for_holds(f, own, rop)) continue;
            int k = 0;
            while (own == rop && k < rop->nres && args[1 + k] != v) k++;
            if (own == rop && k < rop->nres && rp->ap[k]) continue;
            why = "the loads' offsets depend on a value a loop carries";
            break;
        }
        if (f->vals[v].region == rop->region[0] || prod[d]) continue;   /* the ring's own address slice */
        const tile__op *op = &f->ops[d];
        if (!(tile__op_flags[op->code] & TILE__F_PURE) || op->region[0] >= 0 || op->code == TILE__OP_DOT) {
            why = "the loads' offsets depend on an op with effects or regions";
            break;
        }
        if (op->nres && f->vals[op->res].t.rank) {   /* a tensor op may need the block's barriers: one warp runs this */
            why = "the loads' offsets are computed from a tensor";
            break;
        }
        prod[d] = 1;
        for (int j = 0; j < op->nopnd; j++) TILE__WS_PUSH(f->pool[op->opnd + j]);
    }
#undef TILE__WS_PUSH
    tile__arena_free(&pl->ar, stack);
    return why;
}
/* 1 when value v is the same in every iteration of TL_FOR wop: made
   outside it, or by pure ops inside it from such values (depth-limited) */
static int tile__ws_invariant(const tile__func *f, const tile__op *wop, int v, int depth) {
    if (v <= 0) return 1;
    int d = f->vals[v].def;
    const tile__op *own = tile__region_for(f, f->vals[v].region);
    int inside = 0;
    for (const tile__op *q = own; q && !inside; q = tile__region_for(f, q->parent)) inside = q == wop;
    if (!inside) return 1;
    if (d < 0 || depth > 48) return 0;   /* an induction variable or carried value of a loop in wop */
    const tile__op *op = &f->ops[d];
    if (!(tile__op_flags[op->code] & TILE__F_PURE) || op->region[0] >= 0) return 0;
    for (int j = 0; j < op->nopnd; j++)
        if (!tile__ws_invariant(f, wop, f->pool[op->opnd + j], depth + 1)) return 0;
    return 1;
}
/* >>pingpong: why the two consumer warpgroups of a 4-warp plan cannot take
   turns over wop's iterations with ring rp (NULL when they can): each
   iteration runs the ring once, with the same trip count, and nothing
   passes between iterations */
static const char *tile__ws_pp_why(const tile__func *f, const tile__op *wop, const tile__loop_plan *rp) {
    const tile__op *rop = &f->ops[rp->op];
    if (wop == rop)
        return "with num_warps 4 the consumer warpgroups take turns over the iterations of a loop around the ring (a persistent "
               "loop), not over the ring's own";
    if (wop->code != TILE__OP_FOR || rop->parent != wop->region[0])
        return "with num_warps 4 the ring must be directly in the body of the warp-specialized loop";
    if (wop->nres) return "with num_warps 4 the consumer warpgroups take turns over its iterations, so it may not carry values";
    for (int j = 0; j < 3; j++)
        if (!tile__ws_invariant(f, wop, f->pool[rop->opnd + j], 0))
            return "with num_warps 4 the ring's bounds must be the same in every iteration of the loop around it";
    return NULL;
}
/* warp_specialize on TL_FOR wop: applied (pl->ws) when the kernel's one
   ring is a TMA ring, wop's own or inside it through TL_FORs alone, on
   sm_90a with 8 warps (two consumer warpgroups share each iteration) or
   4 (ping-pong: two consumer warpgroups of 4 warps take wop's iterations in
   turn); else the notice says why and what runs */
static void tile__ws_plan(tile__plan *pl, const tile__config *cfg, const tile__op *wop) {
    const tile__func *f = pl->f;
    const char *why = NULL;
    int ring = -1, nrings = 0;
    for (int k = 0; k < pl->nloops; k++)
        if (pl->loops[k].kind != TILE__SCHED_NONE) {
            nrings++;
            if (tile__for_holds(f, wop, &f->ops[pl->loops[k].op])) ring = k;
        }
    char buf[96];
    if (!pl->wgmma) {
        snprintf(buf, sizeof buf, "it needs wgmma on sm_90a (the target is %s%s)", cfg->arch,
                 strcmp(cfg->arch, "sm_90a") == 0 ? " with TILE_WGMMA=0" : "");
        why = buf;
    } else if (ring < 0)
        why = "no pipelined tl_dot loop is in it (no ring: its operands are not loads the ring takes)";
    else if (pl->loops[ring].kind != TILE__SCHED_TMA)
        why = "its ring copies pointer loads (cp.async); a producer takes tensor-descriptor loads (a TMA ring)";
    else if (nrings > 1)
        why = "the kernel has more than one ring";
    else if (cfg->num_warps != 8 && cfg->num_warps != 4) {
        snprintf(buf, sizeof buf, "it takes num_warps 8 (two consumer warpgroups) or 4 (two taking turns), not %d", cfg->num_warps);
        why = buf;
    } else if (cfg->num_warps == 4)
        why = tile__ws_pp_why(f, wop, &pl->loops[ring]);
    char *prod = why ? NULL : (char *)tile__arena_alloc(&pl->ar, (size_t)f->nops);
    if (!why) why = tile__ws_slice(pl, &pl->loops[ring], prod);
    if (why) {
        if (prod) tile__arena_free(&pl->ar, prod);
        tile__plan_note_add(pl, wop, "TL_FOR: warp_specialize is not applied: %s; every warp loads and computes", why);
        return;
    }
    tile__loop_plan *rp = &pl->loops[ring];
    pl->ws = 1;
    pl->ws_loop = ring;
    pl->ws_prod = prod;
    pl->ws_pp = cfg->num_warps == 4;
    pl->ws_outer = (int)(wop - f->ops);
    pl->ws_regs[0] = pl->ws_pp ? 24 : 40;    /* 128 x 40 + 256 x 232 (ping-pong: 24, 240) = 64512 of the 65536 registers */
    pl->ws_regs[1] = pl->ws_pp ? 240 : 232;
    pl->ws_empty = rp->bars + 8 * (size_t)rp->stages;
    pl->ws_end = pl->ws_empty + 8 * (size_t)rp->stages;
    if (pl->ws_end > pl->ring_smem) pl->ring_smem = pl->ws_end;
    /* the producer fills every stage the consumers have freed; a wgmma
       group stays in flight as in the ring alone (4 stages or more, where
       the back end allows it: the consumers then free a stage one
       iteration late) */
    rp->ahead = rp->stages;
    rp->async_carry = tile__async_dot(pl, &f->ops[rp->op], rp);
}
/* every TL_FOR's TL_LOOP_OPTIONS: applied, or a note */
static void tile__plan_options(tile__plan *pl, const tile__config *cfg) {
    const tile__func *f = pl->f;
    const tile__op *wop = NULL;
    for (int k = 0; k < f->nops; k++) {
        const tile__op *op = &f->ops[k];
        if (op->dead || op->code != TILE__OP_FOR || !(op->i[0] & TILE__FOR_OPTIONS)) continue;
        if (op->i[1] > 1 && !tile__plan_ring(pl, op))
            tile__plan_note_add(pl, op, "TL_FOR: num_stages=%lld is not applied: the loop has no ring (no tl_dot operand of its body is a load the ring takes); "
                                "it runs as written", op->i[1]);
        if (op->i[0] & TILE__FOR_FLATTEN)
            tile__plan_note_add(pl, op, "TL_FOR: flatten is not done by tile: the loops stay nested (warp_specialize on the outer loop runs the copies "
                                "ahead across its iterations instead)");
        if (op->i[0] & TILE__FOR_WS) {
            if (!wop) wop = op;
            else if (!tile__for_holds(f, wop, op) && !tile__for_holds(f, op, wop))
                tile__plan_note_add(pl, op, "TL_FOR: warp_specialize is not applied: the kernel is specialized at the loop of line %d already", wop->line);
        }
    }
    if (wop) tile__ws_plan(pl, cfg, wop);
}
/* >>tma: the shared memory a block may have on sm_90 (227 KiB) */
#define TILE__SM90_SMEM 232448
/* >>tma: a store through the copy engine in a loop writes its tile to
   shared memory, and the engine reads it from there while the kernel goes
   on. In the op's scratch, every thread would wait behind a barrier until
   the engine has read it (the next op may write the scratch); with a
   buffer of its own, the store waits only before its next write, an
   iteration later, for what the engine has not yet read
   (cp.async.bulk.wait_group.read), and the loop's exit (or the consumers'
   end) waits for the last. Two places:
   - in the body of a TMA ring (not around a ring inside that body, which
     starts where this ring ends): after the ring's barriers, 1 + its
     shared byte offset;
   - in a warp-specialized kernel, a store of the consumers inside the
     specialized loop (the persistent matmul's epilogue): at the start of
     the consumers' scratch, which then starts after the buffers (with
     ping-pong in each consumer's half), 1 + its offset from there.
   Only where the rings and the buffers fit in 227 KiB; the scratch the
   body's other ops take is known once the kernel is lowered, and a
   compile whose scratch then does not fit beside the buffers plans again
   without them (tile__compile_to). A store's buffer often replaces its
   scratch: the epilogue of a 128x256 tile needs 64 KiB either way. */
static int tile__store_buf_bytes(const tile__plan *p, const tile__op *op) {
    const tile__type *t = &p->f->vals[p->f->pool[op->opnd + 1]].t;
    return (int)tile__align1k((size_t)tile__numel(t) * tile__dt[t->dtype].bytes);
}
/* op k is a store through the copy engine of region `body` (directly in
   it, or anywhere within it: `within`), and not the producer's */
static int tile__store_buf_takes(const tile__plan *p, int k, int body, int within) {
    const tile__op *op = &p->f->ops[k];
    return !op->dead && op->code == TILE__OP_DESC_STORE && tile__plan_store_map(p, op) && !(p->ws_prod && p->ws_prod[k]) &&
           (within ? tile__region_within(p->f, op->parent, body) : op->parent == body);
}
/* the buffers of the stores op[k] of region `body` takes, from byte `at`;
   where they end */
static size_t tile__store_bufs_at(tile__plan *p, int body, int within, size_t at) {
    for (int k = 0; k < p->f->nops; k++)
        if (tile__store_buf_takes(p, k, body, within)) {
            p->store_buf[k] = 1 + (int)at;
            p->store_bufs++;
            at += (size_t)tile__store_buf_bytes(p, &p->f->ops[k]);
        }
    return at;
}
static size_t tile__store_bufs_bytes(const tile__plan *p, int body, int within) {
    size_t bytes = 0;
    for (int k = 0; k < p->f->nops; k++)
        if (tile__store_buf_takes(p, k, body, within)) bytes += (size_t)tile__store_buf_bytes(p, &p->f->ops[k]);
    return bytes;
}
static void tile__plan_store_bufs_ws(tile__plan *p) {
    int body = p->f->ops[p->ws_outer].region[0];
    size_t bytes = tile__store_bufs_bytes(p, body, 1);
    if (!bytes || tile__align1k(p->ws_end) + (p->ws_pp ? 2 : 1) * bytes > TILE__SM90_SMEM) return;
    p->ws_bufs = tile__store_bufs_at(p, body, 1, 0);
}
static void tile__plan_store_bufs(tile__plan *p) {
    const tile__func *f = p->f;
    if (!p->wgmma) return;
    if (p->ws) {
        tile__plan_store_bufs_ws(p);
        return;
    }
    for (int l = 0; l < p->nloops; l++) {
        tile__loop_plan *lp = &p->loops[l];
        if (lp->kind != TILE__SCHED_TMA) continue;
        int body = f->ops[lp->op].region[0], inner = 0;
        for (int q = 0; q < p->nloops && !inner; q++)
            inner = q != l && p->loops[q].kind != TILE__SCHED_NONE && tile__region_within(f, f->ops[p->loops[q].op].parent, body);
        if (inner) continue;
        size_t at = tile__align1k(lp->bars + 8 * (size_t)lp->stages), bytes = tile__store_bufs_bytes(p, body, 0);
        if (!bytes || at + bytes > TILE__SM90_SMEM) continue;
        lp->end = tile__store_bufs_at(p, body, 0, at);
        if (lp->end > p->ring_smem) p->ring_smem = lp->end;
    }
}
/* >>unroll: the elements region reg's ops hold, each emitted `times` times
   (>>map: a map_elementwise's region once per pack its results hold) */
static void tile__plan_unroll(tile__plan *p, int reg, long long times) {
    const tile__func *f = p->f;
    const tile__region *R = &f->regs[reg];
    for (int k = 0; k < R->nops; k++) {
        const tile__op *op = &f->ops[R->ops[k]];
        if (op->dead) continue;
        for (int r = 0; r < op->nres; r++) {
            int v = op->res + r;
            p->unroll += p->lay[v].E * times;
            if (!p->unroll_big || p->lay[v].E > p->lay[p->unroll_big].E) p->unroll_big = v;
        }
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0) tile__plan_unroll(p, op->region[q], op->code == TILE__OP_MAP ? times * (p->lay[op->res].E / op->i[0]) : times);
    }
}
static void tile__plan_run(tile__plan *p, const tile__config *cfg, int flags) {
    const tile__func *f = p->f;
    size_t nv = (size_t)(f->nvals ? f->nvals : 1), no = (size_t)(f->nops ? f->nops : 1);
    p->nthreads = 32 * cfg->num_warps;
    p->stages = cfg->num_stages;
    p->wgmma = cfg->hopper != TILE__HOPPER_OFF;
    p->wgmma_async = p->wgmma && cfg->hopper == TILE__HOPPER_ASYNC && (flags & TILE__PLAN_ASYNC_OK);
    p->flags = flags;
    p->lay = (tile__layout *)tile__arena_alloc(&p->ar, nv * sizeof *p->lay);
    p->ax = (tile__axis *)tile__arena_alloc(&p->ar, nv * sizeof *p->ax);
    p->uses = (int *)tile__arena_alloc(&p->ar, nv * sizeof *p->uses);
    p->loop = (int *)tile__arena_alloc(&p->ar, no * sizeof *p->loop);
    int nfor = 0;
    for (int k = 0; k < f->nops; k++) nfor += !f->ops[k].dead && f->ops[k].code == TILE__OP_FOR;
    p->loops = (tile__loop_plan *)tile__arena_alloc(&p->ar, (size_t)(nfor ? nfor : 1) * sizeof *p->loops);
    for (int k = 0; k < f->nops; k++)
        if (!f->ops[k].dead)
            for (int j = 0; j < f->ops[k].nopnd; j++)
                if (f->pool[f->ops[k].opnd + j] > 0) p->uses[f->pool[f->ops[k].opnd + j]]++;
    /* the parameters: specialized as divisible by 16, or as the constant 1 */
    for (int v = 1; v < f->nvals; v++) p->ax[v] = tile__ax_unknown();
    const int *params = f->pool + f->regs[0].args;
    for (int q = 0; q < f->nparams && q < TILE__MAX_PARAMS; q++) {
        if (cfg->spec1 >> q & 1) p->ax[params[q]].one = 1;
        if (cfg->spec16 >> q & 1) p->ax[params[q]].div = 16;
    }
    tile__plan_axes(p, 0);
    tile__assign_layouts(f, p->nthreads, 1, p->wgmma, p->lay);
    p->pin = (int *)tile__arena_alloc(&p->ar, nv * sizeof *p->pin);
    tile__plan_pins(p);
    tile__plan_loops(p, 0);
    /* >>tma: the descriptor stores the descs stage left (tile__tma_store_candidate)
       go through the copy engine; their tensor maps after the rings' */
    p->store_tmap = (int *)tile__arena_alloc(&p->ar, no * sizeof *p->store_tmap);
    for (int k = 0; k < f->nops; k++)
        if (!f->ops[k].dead && f->ops[k].code == TILE__OP_DESC_STORE && p->wgmma)
            p->store_tmap[k] = 1 + tile__plan_tmap(p, f->vals[f->pool[f->ops[k].opnd]].def);
    tile__plan_options(p, cfg);
    p->store_buf = (int *)tile__arena_alloc(&p->ar, no * sizeof *p->store_buf);
    if (!(flags & TILE__PLAN_NO_STORE_BUFS)) tile__plan_store_bufs(p);
    /* >>unroll: the code of a tile op is one instruction (or a few) per
       element a thread holds; the compilers' time grows faster than that
       count (NVRTC: 0.3 s at 2000, 11 s at 14000, 47 s at 28000), which
       TILE_MAX_UNROLL bounds (tile__plan_stage; the examples' kernels
       hold at most 3400) */
    tile__plan_unroll(p, 0, 1);
}
/* The plan of verified function f for cfg; flags: TILE__PLAN_ASYNC_OK
   when the emitter's code keeps a wgmma group in flight across a loop's
   exit (tile_backend_hooks), TILE__PLAN_NO_STORE_BUFS (tile__plan_store_bufs).
   Out of memory: TILE_ERR_NOMEM, and *p holds nothing. */
static tile_status tile__plan_build(const tile__func *f, const tile__config *cfg, int flags, tile__plan *p) {
    memset(p, 0, sizeof *p);
    p->f = f;
    if (setjmp(p->ar.oom) == 0) {
        tile__plan_run(p, cfg, flags);
        return TILE_OK;
    }
    tile__plan_free(p);
    return tile__error(TILE_ERR_NOMEM, f->name, NULL, 0, "out of host memory while planning the kernel");
}

/* ---- TILE_DUMP=ttgir: the plan ----------------------------------------------------------
   One line per op result in program order: the value, the op, its type,
   its layout, its alignment facts where something is known, and the user's
   line; a tl_dot says what runs it, a TL_FOR its schedule. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void tile__text_add(tile__buf *t, const char *fmt, ...) {   /* the printer's buffer (passes.h) */
    va_list ap;
    va_start(ap, fmt);
    tile__bvprintf(t, fmt, ap);
    va_end(ap);
}
static void tile__layout_str(const tile__layout *L, char *lay, size_t n) {
    if (L->rank == 0) {
        snprintf(lay, n, "uniform scalar");
        return;
    }
    if (L->kind == TILE__LAYOUT_MMA) {
        snprintf(lay, n, "%s warps=[%d,%d] reps=[%d,%d] E=%d", L->ilv ? "wgmma m64" : "mma m16n8", L->wm, L->wn, L->repm, L->repn, L->E);
        return;
    }
    if (L->kind == TILE__LAYOUT_SLICE) {
        snprintf(lay, n, "slice dim %d of %s [%d,%d] E=%d", L->sdim, L->ilv ? "wgmma m64" : "mma m16n8", L->pshape[0], L->pshape[1], L->E);
        return;
    }
    size_t at = 0;
    const char *names[3] = {"spt", "tpw", "wpc"};
    for (int q = 0; q < 3 && at < n; q++) {
        const int *v = q == 0 ? L->spt : q == 1 ? L->tpw : L->wpc;
        at += (size_t)snprintf(lay + at, n - at, "%s%s=[", q ? " " : "", names[q]);
        for (int d = 0; d < L->rank && at < n; d++) at += (size_t)snprintf(lay + at, n - at, "%s%d", d ? "," : "", v[d]);
        if (at < n) at += (size_t)snprintf(lay + at, n - at, "]");
    }
    if (at < n) snprintf(lay + at, n - at, " E=%d", L->E);
}
/* elem: the region is (in) a map_elementwise's, whose scalars are an element's, not uniform */
static void tile__plan_dump_region(const tile__plan *p, int reg, int depth, int elem, tile__buf *t) {
    const tile__func *f = p->f;
    const tile__region *r = &f->regs[reg];
    static const char *const mma_names[] = {"mma.sync m16n8k16 f16", "mma.sync m16n8k16 bf16", "mma.sync m16n8k8 tf32", "mma.sync m16n8k32 s8"};
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        const char *base = op->file ? strrchr(op->file, '/') : NULL;
        const char *file = base ? base + 1 : op->file ? op->file : "?";
        for (int j = 0; j < (op->nres ? op->nres : 1); j++) {
            char res[24] = "", ty[96] = "", lay[256] = "", ax[96] = "";
            if (op->nres) {
                int v = op->res + j;
                snprintf(res, sizeof res, "%%%d =", v);
                tile__type_str(&f->vals[v].t, ty, sizeof ty);
                if (elem && p->lay[v].rank == 0) snprintf(lay, sizeof lay, "an element's scalar");
                else tile__layout_str(&p->lay[v], lay, sizeof lay);
                tile__axis a = p->ax[v];
                if (a.contig > 1 || a.div > 1 || a.constv > 1 || a.one)
                    snprintf(ax, sizeof ax, "contig=%d div=%d const=%d%s", a.contig, a.div, a.constv, a.one ? " one" : "");
            }
            if (op->code == TILE__OP_DOT) {
                int kind = tile__dot_mma_kind(f, op, p->nthreads);
                snprintf(ax, sizeof ax, "on %s", kind < 0                  ? "CUDA cores (fma)"
                                                 : tile__plan_f8(p, op)    ? "wgmma m64nNk32 fp8"
                                                 : tile__plan_wgmma(p, op) ? "wgmma m64nNk16"
                                                                           : mma_names[kind]);
            }
            if (op->code == TILE__OP_DESC_STORE && tile__plan_store_map(p, op))
                snprintf(ax, sizeof ax, "TMA %s, map %d",
                         op->i[0] < 0 ? "store" : op->i[0] == TL_ATOMIC_ADD ? "reduce add" : op->i[0] == TL_ATOMIC_MIN ? "reduce min" : "reduce max",
                         tile__plan_store_map(p, op) - 1);
            if (tile__plan_store_buf(p, op)) {
                size_t at = strlen(ax);
                snprintf(ax + at, sizeof ax - at, p->ws ? ", own buffer at scratch+%d" : ", own buffer at %d", tile__plan_store_buf(p, op) - 1);
            }
            tile__text_add(t, "%*s%-7s %-12s %-22s %-44s %-30s // %s:%d\n", 2 * depth, "", res, tile__op_names[op->code], ty, lay, ax, file, op->line);
        }
        if (op->code == TILE__OP_FOR) {
            const tile__loop_plan *lp = tile__plan_ring(p, op);
            if (!lp) tile__text_add(t, "%*s  schedule: as written\n", 2 * depth, "");
            else {
                char loads[160] = "";
                size_t at = 0;
                for (int l = 0; l < lp->nloads && at < sizeof loads; l++)
                    at += (size_t)snprintf(loads + at, sizeof loads - at, " %%%d@+%d", lp->loads[l], lp->loff[l]);
                int nslice = 0;
                for (int q = 0; q < f->nops; q++) nslice += lp->in_slice[q];
                if (lp->kind == TILE__SCHED_TMA && p->ws && lp == &p->loops[p->ws_loop])
                    tile__text_add(t, "%*s  schedule: TMA ring of %d stages x %d bytes at shared %zu (128B swizzle), full barriers at shared %zu, "
                                      "empty barriers at shared %zu; the producer's one thread issues the copies as the consumers free stages "
                                      "(across the loops around it), loads%s, address slice of %d ops\n",
                                   2 * depth, "", lp->stages, lp->slot, lp->base, lp->bars, p->ws_empty, loads, nslice);
                else if (lp->kind == TILE__SCHED_TMA)
                    tile__text_add(t, "%*s  schedule: TMA ring of %d stages x %d bytes at shared %zu (128B swizzle), full barriers at shared %zu, "
                                      "copies %d iterations ahead by one thread, loads%s, address slice of %d ops\n",
                                   2 * depth, "", lp->stages, lp->slot, lp->base, lp->bars, lp->ahead, loads, nslice);
                else
                    tile__text_add(t, "%*s  schedule: cp.async ring of %d stages x %d bytes at shared %zu, copies %d iterations ahead, loads%s, address slice of %d ops\n",
                                   2 * depth, "", lp->stages, lp->slot, lp->base, lp->ahead, loads, nslice);
                if (lp->remat) tile__text_add(t, "%*s  the body reads the address slice too: it computes it again for its own iteration\n", 2 * depth, "");
                if (lp->async_carry >= 0)
                    tile__text_add(t, "%*s  wgmma: 1 group in flight across iterations (carried %%%d)\n", 2 * depth, "",
                                   f->pool[f->regs[op->region[0]].args + 1 + lp->async_carry]);
            }
        }
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0) tile__plan_dump_region(p, op->region[q], depth + 1, elem || op->code == TILE__OP_MAP, t);
    }
}
/* the plan as text (TILE_MALLOC'ed; NULL when out of memory) */
static char *tile__plan_dump(const tile__plan *p) {
    tile__buf t;
    memset(&t, 0, sizeof t);
    tile__text_add(&t, "// %s: the plan for %d warps, %d stages%s\n", p->f->name, p->nthreads / 32, p->stages,
                   !p->wgmma ? "" : p->wgmma_async ? ", wgmma (groups may stay in flight)" : ", wgmma (each tl_dot waits for its own)");
    tile__text_add(&t, "// layouts: blocked spt/tpw/wpc: size per thread, threads per warp, warps per program; mma: warps and 16x8 tiles per warp; "
                       "E: elements per thread\n");
    tile__text_add(&t, "// per thread: %lld tile elements over the ops (TILE_MAX_UNROLL bounds it)\n", p->unroll);
    tile__text_add(&t, "// facts of the last dim: runs of consecutive values (contig), the power of two dividing each run's first (div; pointers: bytes), "
                       "runs of equal values (const)\n");
    tile__text_add(&t, "// shared memory: the rings take %zu bytes; the rest, from there, is each op's scratch\n", p->ring_smem);
    if (p->ws) {
        int nprod = 0;
        for (int k = 0; k < p->f->nops; k++) nprod += p->ws_prod[k];
        if (p->ws_pp)
            tile__text_add(&t, "// warp specialized, ping-pong: %d threads; warpgroup 0 the producer (setmaxnreg %d; the loops around the ring, "
                               "%d ops of address code, the copies), warpgroups 1 and 2 the consumers (setmaxnreg %d), taking the iterations "
                               "of the loop of line %d in turn (the ring of one after the other's: named barriers 3 and 4 of 256 threads), "
                               "each with its own scratch and its barriers named barrier 1 or 2 of %d threads\n",
                           tile__plan_threads(p), p->ws_regs[0], nprod, p->ws_regs[1], p->f->ops[p->ws_outer].line, p->nthreads);
        else
            tile__text_add(&t, "// warp specialized: %d threads; warpgroup 0 the producer (setmaxnreg %d; the loops around the ring, %d ops of "
                               "address code, the copies), warpgroups 1-%d the consumers (setmaxnreg %d; everything else, their barriers "
                               "named barrier 1 of %d threads)\n",
                           tile__plan_threads(p), p->ws_regs[0], nprod, p->nthreads / 128, p->ws_regs[1], p->nthreads);
    }
    for (int k = 0; k < p->nnotes; k++) tile__text_add(&t, "// not applied, line %d: %s\n", p->notes[k].line, p->notes[k].text);
    tile__plan_dump_region(p, 0, 0, 0, &t);
    if (t.oom) {
        TILE_FREE(t.p);
        return NULL;
    }
    return t.p;
}
