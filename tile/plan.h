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
} tile__layout;
enum { TILE__LAYOUT_BLOCKED, TILE__LAYOUT_MMA };

static int tile__log2i(int x) { int k = 0; while ((1 << k) < x) k++; return k; }

/* The canonical layout of a shape for nthreads threads. The last dim is the
   fastest (row-major); each thread holds up to TILE__VEC consecutive elements
   of it, lanes fill dims from the last, warps from the first. */
static void tile__layout_vec(const tile__type *t, int nthreads, int vec, tile__layout *L) {
    memset(L, 0, sizeof *L);
    L->rank = t->rank;
    L->nthreads = nthreads;
    if (t->rank == 0) { L->E = 1; return; }
    int r = t->rank, n = tile__numel(t);
    for (int d = 0; d < r; d++) { L->shape[d] = t->shape[d]; L->spt[d] = 1; L->tpw[d] = 1; L->wpc[d] = 1; }
    int v = n / nthreads;
    if (v < 1) v = 1;
    if (v > vec) v = vec;
    if (v > t->shape[r - 1]) v = t->shape[r - 1];
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
/* the dtype of an operand in shared memory (fp8 goes in as f16: exact) */
static tl_dtype tile__mma_sdt(tl_dtype t) { return t == TL_F8E4M3 || t == TL_F8E5M2 ? TL_F16 : t; }

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
/* give v the MMA layout `from` (a value of the same shape), unless it has one */
static int tile__mk_mma(tile__layout *lay, int v, const tile__layout *from) {
    if (v <= 0 || lay[v].kind == TILE__LAYOUT_MMA) return 0;
    lay[v] = *from;
    return 1;
}
/* hopper: the target has wgmma, whose dots take the interleaved layout */
static void tile__assign_layouts(const tile__func *f, int nthreads, int mma, int hopper, tile__layout *lay) {
    for (int v = 1; v < f->nvals; v++) tile__layout_of(&f->vals[v].t, nthreads, &lay[v]);
    for (int changed = mma; changed;) {
        changed = 0;
        for (int k = 0; k < f->nops; k++) {
            const tile__op *op = &f->ops[k];
            const int *o = f->pool + op->opnd;
            if (op->dead) continue;
            if (op->code == TILE__OP_DOT && tile__dot_mma_kind(f, op, nthreads) >= 0) {
                tile__layout L;
                if (tile__mma_layout_of(&f->vals[op->res].t, nthreads, tile__dot_wgmma(f, op, nthreads, hopper), &L))
                    changed |= tile__mk_mma(lay, op->res, &L);
            } else if ((tile__op_flags[op->code] & TILE__F_EW) && op->code != TILE__OP_PTR_ADD && op->nres == 1) {
                for (int j = 0; j < op->nopnd; j++)
                    if (o[j] > 0 && lay[o[j]].kind == TILE__LAYOUT_MMA) changed |= tile__mk_mma(lay, op->res, &lay[o[j]]);
            } else if (op->code == TILE__OP_FOR || op->code == TILE__OP_IF) {
                const tile__op *y0 = tile__terminator(f, op->region[0]);
                const tile__op *y1 = op->code == TILE__OP_IF ? tile__terminator(f, op->region[1]) : NULL;
                const int *args = f->pool + f->regs[op->region[0]].args;
                for (int j = 0; j < op->nres; j++) {
                    /* the layout comes from the first MMA one of: what the body yields, the other branch's, the initial value */
                    int src[3] = {y0 ? f->pool[y0->opnd + j] : 0, y1 ? f->pool[y1->opnd + j] : 0, op->code == TILE__OP_FOR ? o[3 + j] : 0};
                    const tile__layout *from = NULL;
                    for (int q = 0; q < 3 && !from; q++)
                        if (src[q] > 0 && lay[src[q]].kind == TILE__LAYOUT_MMA) from = &lay[src[q]];
                    if (!from) continue;
                    tile__layout L = *from;
                    changed |= tile__mk_mma(lay, op->res + j, &L);
                    if (op->code == TILE__OP_FOR) changed |= tile__mk_mma(lay, args[1 + j], &L);
                }
            }
        }
    }
}


/* ---- TILE_DUMP=ttgir: the IR's values with their layouts ---------------------------------------
   One line per op result in program order: the op, its type, the blocked
   layout the lowering gives it, and the user's line. */
static void tile__layout_dump_region(const tile__func *f, const tile__layout *lays, int reg, int nthreads, int depth, char **buf, size_t *len,
                                     size_t *cap) {
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        for (int j = 0; j < (op->nres ? op->nres : 1); j++) {
            char line[512], ty[96] = "", lay[256] = "";
            if (op->nres) {
                tile__layout L = lays[op->res + j];
                tile__type_str(&f->vals[op->res + j].t, ty, sizeof ty);
                if (L.rank == 0) snprintf(lay, sizeof lay, "uniform scalar");
                else if (L.kind == TILE__LAYOUT_MMA)
                    snprintf(lay, sizeof lay, "%s warps=[%d,%d] reps=[%d,%d] E=%d", L.ilv ? "wgmma m64" : "mma m16n8", L.wm, L.wn, L.repm, L.repn, L.E);
                else {
                    size_t at = 0;
                    const char *names[3] = {"spt", "tpw", "wpc"};
                    for (int q = 0; q < 3; q++) {
                        const int *v = q == 0 ? L.spt : q == 1 ? L.tpw : L.wpc;
                        at += (size_t)snprintf(lay + at, sizeof lay - at, "%s%s=[", q ? " " : "", names[q]);
                        for (int d = 0; d < L.rank; d++) at += (size_t)snprintf(lay + at, sizeof lay - at, "%s%d", d ? "," : "", v[d]);
                        at += (size_t)snprintf(lay + at, sizeof lay - at, "]");
                    }
                    snprintf(lay + at, sizeof lay - at, " E=%d", L.E);
                }
            }
            const char *base = op->file ? strrchr(op->file, '/') : NULL;
            int n = snprintf(line, sizeof line, "%*s%-12s %-22s %-44s // %s:%d\n", 2 * depth, "", tile__op_names[op->code], ty, lay,
                             base ? base + 1 : op->file ? op->file : "?", op->line);
            if (n < 0) continue;
            if (!*buf) return;   /* out of memory: no dump */
            if (*len + (size_t)n + 1 > *cap) {
                *cap = (*cap + (size_t)n + 1) * 2;
                char *nb = (char *)TILE_REALLOC(*buf, *cap);
                if (!nb) {
                    TILE_FREE(*buf);
                    *buf = NULL;
                    return;
                }
                *buf = nb;
            }
            memcpy(*buf + *len, line, (size_t)n + 1);
            *len += (size_t)n;
        }
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0) tile__layout_dump_region(f, lays, op->region[q], nthreads, depth + 1, buf, len, cap);
    }
}
static char *tile__layout_dump(const tile__func *f, int num_warps, int hopper) {
    size_t len = 0, cap = 4096;
    char *buf = (char *)TILE_MALLOC(cap);
    tile__layout *lays = buf ? (tile__layout *)TILE_MALLOC((size_t)(f->nvals ? f->nvals : 1) * sizeof *lays) : NULL;
    if (!lays) {   /* out of memory: no dump */
        TILE_FREE(buf);
        return NULL;
    }
    memset(lays, 0, (size_t)(f->nvals ? f->nvals : 1) * sizeof *lays);
    len = (size_t)snprintf(buf, cap, "// %s: layouts for %d warps (blocked: size per thread, threads per warp, warps per program; mma: warps and 16x8 tiles per warp; E: elements per thread)\n",
                           f->name, num_warps);
    tile__assign_layouts(f, 32 * num_warps, 1, hopper, lays);
    tile__layout_dump_region(f, lays, 0, 32 * num_warps, 0, &buf, &len, &cap);
    TILE_FREE(lays);
    return buf;
}

