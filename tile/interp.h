/* tile/interp.h — >>interp: the CPU interpreter.
   Part of tile.h's implementation; included once under TILE_IMPLEMENTATION.

   Why it is shaped this way: it is the oracle the GPU back ends are checked
   against, so it favours plain rules over cleverness. Every value is a dense
   row-major array of tile__elem; each value id owns one buffer, carved from
   one arena before the first program runs and reused by every program and
   loop iteration (SSA dominance guarantees a buffer is written before it is
   read). Programs run one after another, x fastest, which is one of the
   orders a GPU may pick. The op table's numerics helpers (tile__ew_eval,
   tile__norm, tile__mem_load/store) give every element its rounding, so this
   file only decides which elements meet: one switch per op, plain loops per
   element. Memory checks try the span of a whole tile first (one lookup when
   a tile stays inside one allocation) and fall back to lane by lane only to
   name the lane at fault. */

typedef struct tile__interp {
    const tile__func *f;
    tile__elem **buf;          /* per value id; NULL for values never computed */
    tile__elem *arena;
    tile__elem *scratch;       /* loop carries and dot operands                */
    size_t nscratch;
    unsigned pid[3], grid[3];
    unsigned char *kbuf;       /* >>profile: the in-kernel scopes' records, or NULL */
    unsigned kn;               /* records of this program's units so far       */
} tile__interp;

static int tile__interp_numel(const tile__interp *I, int v) { return tile__numel(&I->f->vals[v].t); }
static int tile__interp_opnd(const tile__interp *I, const tile__op *op, int k) {
    return k < op->nopnd ? I->f->pool[op->opnd + k] : 0;
}
/* the buffer of operand k, NULL when it is absent (value id 0) */
static tile__elem *tile__interp_in(const tile__interp *I, const tile__op *op, int k) {
    return I->buf[tile__interp_opnd(I, op, k)];
}
static const tile__type *tile__interp_type(const tile__interp *I, int v) { return &I->f->vals[v].t; }

/* Give each value computed in region `reg` (its block arguments, the results
   of its live ops, and so on down) an offset in the arena: with `base` NULL
   only count. */
static void tile__interp_place(tile__interp *I, int reg, size_t *at, tile__elem *base) {
    const tile__func *f = I->f;
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nargs; k++) {
        int v = f->pool[r->args + k];
        if (base) I->buf[v] = base + *at;
        *at += (size_t)tile__interp_numel(I, v);
    }
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        if (op->dead) continue;
        for (int j = 0; j < op->nres; j++) {
            if (base) I->buf[op->res + j] = base + *at;
            *at += (size_t)tile__interp_numel(I, op->res + j);
        }
        for (int j = 0; j < 2; j++)
            if (op->region[j] >= 0) tile__interp_place(I, op->region[j], at, base);
    }
}

static tile__elem *tile__interp_scratch(tile__interp *I, size_t n) {
    if (n <= I->nscratch) return I->scratch;
    tile__elem *p = (tile__elem *)TILE_REALLOC(I->scratch, n * sizeof *p);
    if (!p) return NULL;
    I->scratch = p;
    I->nscratch = n;
    return p;
}
static tile_status tile__interp_nomem(const tile__interp *I, const char *file, int line, size_t bytes) {
    return tile__error(TILE_ERR_NOMEM, I->f->name, file, line,
                       "the interpreter could not allocate %zu bytes of host memory", bytes);
}

static void tile__interp_copy(tile__interp *I, int dst, int src) {
    if (dst != src) memcpy(I->buf[dst], I->buf[src], (size_t)tile__interp_numel(I, dst) * sizeof(tile__elem));
}
/* dst[k] = src[k] for all k at once: a yield may name the block arguments it
   replaces (a swap), so every source is read before any target is written. */
static tile_status tile__interp_carry(tile__interp *I, const tile__op *at, const int *dst, const int *src, int n) {
    size_t total = 0;
    for (int k = 0; k < n; k++) total += (size_t)tile__interp_numel(I, dst[k]);
    tile__elem *tmp = tile__interp_scratch(I, total);
    if (!tmp && total) return tile__interp_nomem(I, at->file, at->line, total * sizeof *tmp);
    size_t off = 0;
    for (int k = 0; k < n; k++) {
        size_t m = (size_t)tile__interp_numel(I, dst[k]);
        memcpy(tmp + off, I->buf[src[k]], m * sizeof *tmp);
        off += m;
    }
    off = 0;
    for (int k = 0; k < n; k++) {
        size_t m = (size_t)tile__interp_numel(I, dst[k]);
        memcpy(I->buf[dst[k]], tmp + off, m * sizeof *tmp);
        off += m;
    }
    return TILE_OK;
}

/* " (i, j)" for lane e of a tile; "" for a scalar */
static const char *tile__interp_midx(const tile__type *t, int e, char *out, size_t n) {
    int idx[TILE__MAX_RANK];
    size_t at = 0;
    out[0] = 0;
    for (int d = t->rank - 1; d >= 0; d--) {
        idx[d] = e % t->shape[d];
        e /= t->shape[d];
    }
    for (int d = 0; d < t->rank && at < n; d++) {
        int w = snprintf(out + at, n - at, "%s%d", d ? ", " : " (", idx[d]);
        if (w < 0) break;
        at += (size_t)w;
    }
    if (t->rank && at < n) snprintf(out + at, n - at, ")");
    return out;
}

/* ---- elementwise and creation ------------------------------------------------ */
static void tile__interp_ew(tile__interp *I, const tile__op *op) {
    const tile__func *f = I->f;
    const tile__type *rt = tile__interp_type(I, op->res);
    tile__elem *out = I->buf[op->res];
    const tile__elem *in[4] = {NULL, NULL, NULL, NULL};
    int n = tile__numel(rt), no = op->nopnd;
    for (int k = 0; k < no; k++) in[k] = tile__interp_in(I, op, k);
    if (op->code == TILE__OP_PTR_ADD) {
        /* integers are held sign- or zero-extended, so wrapping u64 math
           gives the right address for signed and unsigned offsets alike */
        int pk = f->vals[tile__interp_opnd(I, op, 0)].t.dtype == TL_PTR ? 0 : 1;
        uint64_t size = tile__dt[rt->elem].bytes;
        const tile__elem *p = in[pk], *o = in[1 - pk];
        for (int e = 0; e < n; e++) out[e].u = p[e].u + o[e].u * size;
        return;
    }
    tl_dtype t = tile__interp_type(I, tile__interp_opnd(I, op, no - 1))->dtype;
    tile__elem x[4];
    memset(x, 0, sizeof x);
    for (int e = 0; e < n; e++) {
        for (int k = 0; k < no; k++) x[k] = in[k][e];
        out[e] = tile__ew_eval(op->code, t, rt->dtype, x);
    }
}

static void tile__interp_const(tile__interp *I, const tile__op *op) {
    const tile__type *rt = tile__interp_type(I, op->res);
    tile__elem *out = I->buf[op->res], v;
    int n = tile__numel(rt);
    if (tile__is_float(rt->dtype)) v.f = op->f;
    else v.i = op->i[0];
    v = tile__norm(rt->dtype, v);
    for (int e = 0; e < n; e++) out[e] = v;
}

/* ---- shapes ---------------------------------------------------------------------- */
/* dst (row-major over `shape`) = src at offsets stepping by stride[d] per dim d */
static void tile__interp_gather(tile__elem *dst, const tile__elem *src, int rank, const int *shape,
                                const long *stride) {
    int idx[TILE__MAX_RANK] = {0};
    int n = 1;
    long off = 0;
    for (int d = 0; d < rank; d++) n *= shape[d];
    for (int e = 0; e < n; e++) {
        dst[e] = src[off];
        for (int d = rank - 1; d >= 0; d--) {
            off += stride[d];
            if (++idx[d] < shape[d]) break;
            off -= stride[d] * shape[d];
            idx[d] = 0;
        }
    }
}
static void tile__interp_strides(const tile__type *t, long *stride) {
    long s = 1;
    for (int d = t->rank - 1; d >= 0; d--) {
        stride[d] = s;
        s *= t->shape[d];
    }
}

static void tile__interp_shape(tile__interp *I, const tile__op *op) {
    const tile__type *rt = tile__interp_type(I, op->res);
    const tile__type *at = tile__interp_type(I, tile__interp_opnd(I, op, 0));
    tile__elem *out = I->buf[op->res];
    const tile__elem *a = tile__interp_in(I, op, 0), *b = tile__interp_in(I, op, 1);
    int n = tile__numel(rt), na = tile__numel(at);
    long src[TILE__MAX_RANK], stride[TILE__MAX_RANK];
    switch (op->code) {
    case TILE__OP_BROADCAST: {
        /* numpy: dims align on the right; a dim of 1 (or a missing one) repeats */
        int lead = rt->rank - at->rank;
        tile__interp_strides(at, src);
        for (int d = 0; d < rt->rank; d++)
            stride[d] = (d < lead || at->shape[d - lead] == 1) ? 0 : src[d - lead];
        tile__interp_gather(out, a, rt->rank, rt->shape, stride);
        break;
    }
    case TILE__OP_EXPAND_DIMS:
    case TILE__OP_RESHAPE: memcpy(out, a, (size_t)n * sizeof *out); break;
    case TILE__OP_PERMUTE:
        tile__interp_strides(at, src);
        for (int d = 0; d < rt->rank; d++) stride[d] = src[op->i[d]];
        tile__interp_gather(out, a, rt->rank, rt->shape, stride);
        break;
    case TILE__OP_CAT:
        /* along axis 0 of row-major tiles, concatenation is of the flat arrays */
        memcpy(out, a, (size_t)na * sizeof *out);
        memcpy(out + na, b, (size_t)(n - na) * sizeof *out);
        break;
    case TILE__OP_JOIN:
        for (int e = 0; e < na; e++) {
            out[2 * e] = a[e];
            out[2 * e + 1] = b[e];
        }
        break;
    case TILE__OP_SPLIT: {
        tile__elem *hi = I->buf[op->res + 1];
        for (int e = 0; e < n; e++) {
            out[e] = a[2 * e];
            hi[e] = a[2 * e + 1];
        }
        break;
    }
    default: TILE_ASSERT(!"not a shape op");
    }
}

/* ---- memory ------------------------------------------------------------------------ */
/* The first lane (not masked off) whose `bytes` at its address lie outside
   every allocation, or -1. One allocation holding the span of all the lanes
   holds each of them, so the common case costs one lookup. */
static int tile__interp_bad_lane(const tile__elem *p, const tile__elem *mask, int n, size_t bytes) {
    uint64_t lo = UINT64_MAX, hi = 0;
    int any = 0;
    for (int e = 0; e < n; e++) {
        if (mask && !mask[e].u) continue;
        any = 1;
        if (p[e].u < lo) lo = p[e].u;
        if (p[e].u > hi) hi = p[e].u;
    }
    if (!any) return -1;
    if (hi - lo <= (uint64_t)(SIZE_MAX - bytes) && tile__mem_valid(lo, (size_t)(hi - lo) + bytes)) return -1;
    for (int e = 0; e < n; e++) {
        if (mask && !mask[e].u) continue;
        if (!tile__mem_valid(p[e].u, bytes)) return e;
    }
    return -1;
}
static tile_status tile__interp_oob(const tile__interp *I, const tile__op *op, const char *what,
                                    const char *verb, const tile__type *t, int lane, uint64_t addr) {
    char midx[96];
    return tile__error(TILE_ERR_OOB, I->f->name, op->file, op->line,
                       "%s: lane %d%s of program (%u,%u,%u) %s address 0x%llx, outside every tile_malloc allocation",
                       what, lane, tile__interp_midx(t, lane, midx, sizeof midx), I->pid[0], I->pid[1], I->pid[2],
                       verb, (unsigned long long)addr);
}

static tile_status tile__interp_load(tile__interp *I, const tile__op *op) {
    const tile__type *rt = tile__interp_type(I, op->res);
    const tile__elem *p = tile__interp_in(I, op, 0), *mask = tile__interp_in(I, op, 1);
    const tile__elem *other = tile__interp_in(I, op, 2);
    tile__elem *out = I->buf[op->res];
    tl_dtype t = tile__interp_type(I, tile__interp_opnd(I, op, 0))->elem;
    int n = tile__numel(rt);
    int bad = tile__interp_bad_lane(p, mask, n, tile__dt[t].bytes);
    if (bad >= 0) return tile__interp_oob(I, op, "tl_load", "reads", rt, bad, p[bad].u);
    for (int e = 0; e < n; e++) {
        if (!mask || mask[e].u) out[e] = tile__mem_load(t, (const void *)(uintptr_t)p[e].u);
        else if (other) out[e] = other[e];
        else out[e].u = 0;
    }
    return TILE_OK;
}

static tile_status tile__interp_store(tile__interp *I, const tile__op *op) {
    int pv = tile__interp_opnd(I, op, 0);
    const tile__type *pt = tile__interp_type(I, pv);
    const tile__elem *p = I->buf[pv], *val = tile__interp_in(I, op, 1), *mask = tile__interp_in(I, op, 2);
    int n = tile__numel(pt);
    int bad = tile__interp_bad_lane(p, mask, n, tile__dt[pt->elem].bytes);
    if (bad >= 0) return tile__interp_oob(I, op, "tl_store", "writes", pt, bad, p[bad].u);
    for (int e = 0; e < n; e++)
        if (!mask || mask[e].u) tile__mem_store(pt->elem, (void *)(uintptr_t)p[e].u, val[e]);
    return TILE_OK;
}

static tile_status tile__interp_atomic(tile__interp *I, const tile__op *op) {
    static const char *const names[] = {"tl_atomic_add", "tl_atomic_max", "tl_atomic_min", "tl_atomic_and",
                                        "tl_atomic_or",  "tl_atomic_xor", "tl_atomic_xchg"};
    static const tile__opcode codes[] = {TILE__OP_ADD, TILE__OP_MAX, TILE__OP_MIN, TILE__OP_AND,
                                         TILE__OP_OR,  TILE__OP_XOR, TILE__OP_COUNT_};
    int pv = tile__interp_opnd(I, op, 0), cas = op->code == TILE__OP_ATOMIC_CAS;
    const tile__type *pt = tile__interp_type(I, pv);
    tl_dtype t = pt->elem;
    const tile__elem *p = I->buf[pv], *a = tile__interp_in(I, op, 1), *b = tile__interp_in(I, op, 2);
    const tile__elem *mask = cas ? NULL : b;
    tile__elem *out = I->buf[op->res];
    int n = tile__numel(pt), kind = cas ? 0 : (int)op->i[0];
    TILE_ASSERT(kind >= 0 && kind <= TL_ATOMIC_XCHG);
    int bad = tile__interp_bad_lane(p, mask, n, tile__dt[t].bytes);
    if (bad >= 0) return tile__interp_oob(I, op, cas ? "tl_atomic_cas" : names[kind], "accesses", pt, bad, p[bad].u);
    for (int e = 0; e < n; e++) {
        void *at = (void *)(uintptr_t)p[e].u;
        if (mask && !mask[e].u) {
            out[e].u = 0;
            continue;
        }
        tile__elem old = tile__mem_load(t, at), x[3];
        out[e] = old;
        if (cas) {
            /* compared as stored: -0.0 differs from 0.0, a NaN can equal itself */
            if (tile__elem_bits(t, old) == tile__elem_bits(t, a[e])) tile__mem_store(t, at, b[e]);
            continue;
        }
        if (kind == TL_ATOMIC_XCHG) {
            tile__mem_store(t, at, a[e]);
            continue;
        }
        x[0] = old;
        x[1] = a[e];
        x[2].u = 0;
        tile__mem_store(t, at, tile__ew_eval(codes[kind], t, t, x));
    }
    return TILE_OK;
}

/* ---- tensor descriptors ---------------------------------------------------------------
   A descriptor is its MAKE_DESC's operands (base, shape, strides): the
   accesses read them there, so its own value holds nothing. The rules the
   copy engine puts on them (see tl_make_tensor_descriptor) are checked here
   for the interpreter and by the GPU launch for the arguments it is given,
   so that a kernel fails alike everywhere. v[] holds base, shape x r and
   strides x r as scalars. */
static tile_status tile__desc_check(const tile__func *f, const tile__op *md, const tile__elem *v) {
    int r = (md->nopnd - 1) / 2;
    tl_dtype et = f->vals[md->res].t.elem;
    long long es = (long long)tile__dt[et].bytes;
    const char *nm = "tl_make_tensor_descriptor";
    if (v[0].u % 16)
        return tile__error(TILE_ERR_ARG, f->name, md->file, md->line, "%s: the base 0x%llx is not 16-byte aligned (the copy engine's rule)", nm,
                           (unsigned long long)v[0].u);
    for (int d = 0; d < r; d++) {
        long long n = v[1 + d].i, st = v[1 + r + d].i;
        if (n < 1 || n > INT32_MAX)
            return tile__error(TILE_ERR_ARG, f->name, md->file, md->line, "%s: shape dim %d is %lld; each must be from 1 to 2^31-1", nm, d, n);
        if (d < r - 1 && (st < 1 || st > ((long long)1 << 40) / es || st * es % 16))
            return tile__error(TILE_ERR_ARG, f->name, md->file, md->line,
                               "%s: stride %d is %lld elements of %lld bytes; each stride but the last must be a positive multiple of 16 bytes "
                               "(the copy engine's rule: pad the rows)", nm, d, st, es);
    }
    return TILE_OK;
}
/* the descriptor's operands as scalars, for the interpreter */
static const tile__op *tile__interp_desc(const tile__interp *I, int dv, tile__elem *v) {
    const tile__func *f = I->f;
    const tile__op *md = &f->ops[f->vals[dv].def];
    for (int k = 0; k < md->nopnd; k++) v[k] = I->buf[f->pool[md->opnd + k]][0];
    return md;
}
/* DESC_LOAD and DESC_STORE: the block's lanes inside the tensor, their
   addresses; then as tl_load / tl_store / tl_atomic_* with that mask */
static tile_status tile__interp_desc_access(tile__interp *I, const tile__op *op) {
    const tile__func *f = I->f;
    int st = op->code == TILE__OP_DESC_STORE, first = 1 + st;
    tile__elem v[1 + 2 * TILE__MAX_RANK];
    const tile__op *md = tile__interp_desc(I, f->pool[op->opnd], v);
    int r = (md->nopnd - 1) / 2;
    tl_dtype t = f->vals[md->res].t.elem;
    tile__type bt = tile__scalar_type(t);
    bt.rank = r;
    for (int d = 0; d < r; d++) bt.shape[d] = (int)md->i[d];
    int n = tile__numel(&bt);
    long long off[TILE__MAX_RANK];
    for (int d = 0; d < r; d++) off[d] = I->buf[f->pool[op->opnd + first + d]][0].i;
    tile__elem *addr = tile__interp_scratch(I, 2 * (size_t)n), *in = addr + n;
    if (!addr) return tile__interp_nomem(I, op->file, op->line, 2 * (size_t)n * sizeof *addr);
    uint64_t es = tile__dt[t].bytes;
    for (int e = 0; e < n; e++) {
        int rest = e, inside = 1;
        uint64_t a = v[0].u;
        for (int d = r - 1; d >= 0; d--) {
            long long idx = off[d] + rest % bt.shape[d];
            rest /= bt.shape[d];
            inside &= idx >= 0 && idx < v[1 + d].i;
            a += (uint64_t)idx * (uint64_t)v[1 + r + d].i * es;
        }
        addr[e].u = a;
        in[e].u = (uint64_t)inside;
    }
    static const char *const names[] = {"tl_desc_atomic_add", "tl_desc_atomic_max", "tl_desc_atomic_min"};
    const char *nm = !st ? "tl_desc_load" : op->i[0] < 0 ? "tl_desc_store" : names[op->i[0]];
    int bad = tile__interp_bad_lane(addr, in, n, (size_t)es);
    if (bad >= 0) return tile__interp_oob(I, op, nm, st ? "writes" : "reads", &bt, bad, addr[bad].u);
    if (!st) {
        tile__elem *out = I->buf[op->res];
        for (int e = 0; e < n; e++) {
            if (in[e].u) out[e] = tile__mem_load(t, (const void *)(uintptr_t)addr[e].u);
            else out[e].u = 0;
        }
        return TILE_OK;
    }
    static const tile__opcode codes[] = {TILE__OP_ADD, TILE__OP_MAX, TILE__OP_MIN};
    const tile__elem *val = tile__interp_in(I, op, 1);
    for (int e = 0; e < n; e++) {
        if (!in[e].u) continue;
        void *at = (void *)(uintptr_t)addr[e].u;
        if (op->i[0] < 0) {
            tile__mem_store(t, at, val[e]);
            continue;
        }
        tile__elem x[3];
        x[0] = tile__mem_load(t, at);
        x[1] = val[e];
        x[2].u = 0;
        tile__mem_store(t, at, tile__ew_eval(codes[op->i[0]], t, t, x));
    }
    return TILE_OK;
}

/* ---- reductions, scans, dot --------------------------------------------------------- */
/* A tile seen as [outer, n, inner] around `axis`: element (o, k, i) is at
   (o * n + k) * inner + i, and the reduced result (kept dim or not) is the
   row-major [outer, inner]. */
static void tile__interp_around(const tile__type *t, int axis, int *outer, int *n, int *inner) {
    *outer = *inner = 1;
    for (int d = 0; d < axis; d++) *outer *= t->shape[d];
    for (int d = axis + 1; d < t->rank; d++) *inner *= t->shape[d];
    *n = t->shape[axis];
}

static void tile__interp_reduce(tile__interp *I, const tile__op *op) {
    const tile__type *xt = tile__interp_type(I, tile__interp_opnd(I, op, 0));
    const tile__elem *x = tile__interp_in(I, op, 0);
    tile__elem *out = I->buf[op->res];
    tl_dtype dt = xt->dtype;
    int kind = (int)op->i[0], fl = tile__is_float(dt), sg = tile__is_signed(dt);
    int outer, n, inner;
    tile__interp_around(xt, (int)op->i[1], &outer, &n, &inner);
    for (int o = 0; o < outer; o++)
        for (int i = 0; i < inner; i++) {
            const tile__elem *p = x + (size_t)o * n * inner + i;
            tile__elem r = p[0];
            switch (kind) {
            case TL_REDUCE_SUM:
            case TL_REDUCE_PROD: {
                int sum = kind == TL_REDUCE_SUM;
                /* floats: exact-ish in double, one rounding at the end */
                if (fl) {
                    double s = sum ? 0.0 : 1.0;
                    for (int k = 0; k < n; k++) s = sum ? s + p[(size_t)k * inner].f : s * p[(size_t)k * inner].f;
                    r.f = s;
                } else {
                    uint64_t s = sum ? 0 : 1;
                    for (int k = 0; k < n; k++) s = sum ? s + p[(size_t)k * inner].u : s * p[(size_t)k * inner].u;
                    r.u = s;
                }
                r = tile__norm(dt, r);
                break;
            }
            case TL_REDUCE_XOR_SUM:
                r.u = 0;
                for (int k = 0; k < n; k++) r.u ^= p[(size_t)k * inner].u;
                r = tile__norm(dt, r);
                break;
            case TL_REDUCE_OR:
            case TL_REDUCE_AND:
                for (int k = 1; k < n; k++) r.u = kind == TL_REDUCE_OR ? r.u | p[(size_t)k * inner].u : r.u & p[(size_t)k * inner].u;
                r = tile__norm(dt, r);
                break;
            case TL_REDUCE_MAX:
            case TL_REDUCE_MIN: {
                int mx = kind == TL_REDUCE_MAX, nan = op->i[3] != 0;   /* propagate_nan: a NaN wins */
                for (int k = 1; k < n; k++) {
                    tile__elem v = p[(size_t)k * inner];
                    if (fl && nan && (r.f != r.f || v.f != v.f)) r.f = NAN;
                    else if (fl) r.f = mx ? fmax(r.f, v.f) : fmin(r.f, v.f);
                    else if (mx ? (sg ? v.i > r.i : v.u > r.u) : (sg ? v.i < r.i : v.u < r.u)) r = v;
                }
                break;
            }
            case TL_REDUCE_ARGMAX:
            case TL_REDUCE_ARGMIN: {
                /* the first index of the extreme; a NaN is never picked unless all are */
                int mx = kind == TL_REDUCE_ARGMAX, best = -1;
                tile__elem bv = p[0];
                for (int k = 0; k < n; k++) {
                    tile__elem v = p[(size_t)k * inner];
                    int better;
                    if (fl) {
                        if (v.f != v.f) continue;
                        better = best < 0 || (mx ? v.f > bv.f : v.f < bv.f);
                    } else {
                        better = best < 0 || (mx ? (sg ? v.i > bv.i : v.u > bv.u) : (sg ? v.i < bv.i : v.u < bv.u));
                    }
                    if (better) {
                        best = k;
                        bv = v;
                    }
                }
                r.i = best < 0 ? 0 : best;
                break;
            }
            default: TILE_ASSERT(!"unknown reduction");
            }
            out[(size_t)o * inner + i] = r;
        }
}

static void tile__interp_scan(tile__interp *I, const tile__op *op) {
    const tile__type *xt = tile__interp_type(I, tile__interp_opnd(I, op, 0));
    const tile__elem *x = tile__interp_in(I, op, 0);
    tile__elem *out = I->buf[op->res];
    tile__opcode code = op->i[0] == TL_REDUCE_PROD ? TILE__OP_MUL : TILE__OP_ADD;
    int outer, n, inner, rev = op->i[2] != 0;
    TILE_ASSERT(op->i[0] == TL_REDUCE_SUM || op->i[0] == TL_REDUCE_PROD);
    tile__interp_around(xt, (int)op->i[1], &outer, &n, &inner);
    for (int o = 0; o < outer; o++)
        for (int i = 0; i < inner; i++) {
            size_t base = (size_t)o * n * inner + i;
            tile__elem acc[3];
            memset(acc, 0, sizeof acc);
            for (int s = 0; s < n; s++) {
                size_t at = base + (size_t)(rev ? n - 1 - s : s) * inner;
                acc[1] = x[at];
                acc[0] = s ? tile__ew_eval(code, xt->dtype, xt->dtype, acc) : x[at];
                out[at] = acc[0];
            }
        }
}

/* out[i, j] = acc[i, j], then for k ascending: out[i, j] += a[i, k] * b[k, j],
   rounded to the result dtype at every step (an FMA chain; the products of
   f16/bf16/f8/tf32 values are exact in double). The j loop is innermost so
   the independent chains of one row run side by side. */
static tile_status tile__interp_dot(tile__interp *I, const tile__op *op) {
    const tile__type *at = tile__interp_type(I, tile__interp_opnd(I, op, 0));
    const tile__type *bt = tile__interp_type(I, tile__interp_opnd(I, op, 1));
    const tile__type *rt = tile__interp_type(I, op->res);
    const tile__elem *a = tile__interp_in(I, op, 0), *b = tile__interp_in(I, op, 1);
    const tile__elem *acc = tile__interp_in(I, op, 2);
    tile__elem *out = I->buf[op->res];
    int R = rt->rank, M = rt->shape[R - 2], N = rt->shape[R - 1], K = at->shape[at->rank - 1];
    int batches = tile__numel(rt) / (M * N);
    tl_dtype t = rt->dtype;
    /* Triton's default for f32 operands is tf32, as on the tensor cores */
    int tf32 = at->dtype == TL_F32 && bt->dtype == TL_F32 &&
               (op->i[0] == TL_PRECISION_TF32 || op->i[0] == TL_PRECISION_DEFAULT);
    size_t nb = (size_t)K * N;
    tile__elem *bp = NULL;
    if (tf32) {
        bp = tile__interp_scratch(I, nb);
        if (!bp) return tile__interp_nomem(I, op->file, op->line, nb * sizeof *bp);
    }
    for (int q = 0; q < batches; q++) {
        const tile__elem *aq = a + (size_t)q * M * K, *bq = b + (size_t)q * nb;
        if (tf32) {
            for (size_t e = 0; e < nb; e++) bp[e].f = tile__round_tf32(bq[e].f);
            bq = bp;
        }
        for (int i = 0; i < M; i++) {
            tile__elem *restrict row = out + ((size_t)q * M + i) * N;
            if (acc) memcpy(row, acc + ((size_t)q * M + i) * N, (size_t)N * sizeof *row);
            else memset(row, 0, (size_t)N * sizeof *row);
            for (int k = 0; k < K; k++) {
                const tile__elem *restrict bk = bq + (size_t)k * N;
                tile__elem aik = aq[(size_t)i * K + k];
                if (t == TL_F32) {
                    double x = tf32 ? tile__round_tf32(aik.f) : aik.f;
                    for (int j = 0; j < N; j++) row[j].f = (double)(float)(row[j].f + x * bk[j].f);
                } else if (tile__is_float(t)) {
                    for (int j = 0; j < N; j++) {
                        tile__elem s;
                        s.f = row[j].f + aik.f * bk[j].f;
                        row[j] = tile__norm(t, s);
                    }
                } else {
                    /* sign- or zero-extended operands: the wrapped u64 product is exact mod 2^64 */
                    for (int j = 0; j < N; j++) {
                        tile__elem s;
                        s.u = row[j].u + aik.u * bk[j].u;
                        row[j] = tile__norm(t, s);
                    }
                }
            }
        }
    }
    return TILE_OK;
}

/* ---- debugging ------------------------------------------------------------------------ */
static void tile__interp_print(tile__interp *I, const tile__op *op) {
    const char *prefix = op->s ? op->s : "";
    size_t np = strlen(prefix);
    /* as Triton: a space between prefix and value unless the prefix ends in one */
    const char *lead = np ? " " : "", *tail = np && prefix[np - 1] == ' ' ? "" : " ";
    char midx[96];
    if (op->nopnd == 0) printf("pid (%u, %u, %u)%s%s\n", I->pid[0], I->pid[1], I->pid[2], lead, prefix);
    for (int k = 0; k < op->nopnd; k++) {
        int v = tile__interp_opnd(I, op, k);
        const tile__type *t = tile__interp_type(I, v);
        const tile__elem *x = I->buf[v];
        int n = tile__numel(t);
        for (int e = 0; e < n; e++) {
            printf("pid (%u, %u, %u)%s%s%s%s%s", I->pid[0], I->pid[1], I->pid[2], t->rank ? " idx" : "",
                   tile__interp_midx(t, e, midx, sizeof midx), lead, prefix, tail);
            if (tile__is_float(t->dtype)) printf("%.9g\n", x[e].f);
            else if (t->dtype == TL_PTR) printf("0x%llx\n", (unsigned long long)x[e].u);
            else if (tile__is_signed(t->dtype)) printf("%lld\n", (long long)x[e].i);
            else printf("%llu\n", (unsigned long long)x[e].u);
        }
    }
    fflush(stdout);
}

static tile_status tile__interp_assert(tile__interp *I, const tile__op *op) {
    int v = tile__interp_opnd(I, op, 0);
    const tile__type *t = tile__interp_type(I, v);
    const tile__elem *c = I->buf[v];
    int n = tile__numel(t);
    char midx[96];
    for (int e = 0; e < n; e++)
        if (!c[e].u && op->i[0])   /* tl_assume */
            return tile__error(TILE_ERR_ASSERT, I->f->name, op->file, op->line,
                               "tl_assume(%s) does not hold in program (%u,%u,%u) at lane %d%s (the GPU code would be undefined there)",
                               op->s ? op->s : "", I->pid[0], I->pid[1], I->pid[2], e, tile__interp_midx(t, e, midx, sizeof midx));
        else if (!c[e].u)
            return tile__error(TILE_ERR_ASSERT, I->f->name, op->file, op->line,
                               "tl_device_assert failed in program (%u,%u,%u) at lane %d%s: %s", I->pid[0],
                               I->pid[1], I->pid[2], e, tile__interp_midx(t, e, midx, sizeof midx),
                               op->s ? op->s : "");
    return TILE_OK;
}

/* >>profile: an in-kernel scope's record, in the layout the GPU writes
   (tile/emit.h), for every unit of the program at once (they run as one
   here), with the host clock's ns for both clocks and SM 0 */
static void tile__interp_kprof(tile__interp *I, const tile__op *op) {
    if (!I->kbuf) return;
    uint32_t head[4];
    memcpy(head, I->kbuf, sizeof head);
    unsigned lin = I->pid[0] + I->grid[0] * (I->pid[1] + I->grid[1] * I->pid[2]);
    unsigned n = I->kn++;
    if (lin >= head[0]) return;
    if (n >= head[1]) {
        head[3] += head[2];
        memcpy(I->kbuf + 12, &head[3], 4);
        return;
    }
    double ms = tile__host_ms();
    uint64_t ns = (uint64_t)(ms * 1e6);
    uint32_t tag = (uint32_t)tile__kprof_id(I->f, op->s) << 1 | (op->i[0] ? 1u : 0u), sm = 0;
    for (unsigned u = 0; u < head[2]; u++) {
        unsigned char *r = I->kbuf + TILE__KPROF_HEAD + ((size_t)(lin * head[2] + u) * head[1] + n) * TILE__KPROF_REC;
        memcpy(r, &tag, 4);
        memcpy(r + 4, &sm, 4);
        memcpy(r + 8, &ns, 8);
        memcpy(r + 16, &ns, 8);
    }
}

/* ---- control flow ---------------------------------------------------------------------- */
static tile_status tile__interp_region(tile__interp *I, int reg, const tile__op **term);

/* scf.for: lo, hi and step are read once, iv runs lo, lo + step, ... < hi */
static tile_status tile__interp_for(tile__interp *I, const tile__op *op) {
    const tile__func *f = I->f;
    const int *o = f->pool + op->opnd;
    const tile__region *body = &f->regs[op->region[0]];
    const int *args = f->pool + body->args;
    int nc = op->nopnd - 3;
    tl_dtype dt = tile__interp_type(I, o[0])->dtype;
    tile__elem lo = I->buf[o[0]][0], hi = I->buf[o[1]][0], step = I->buf[o[2]][0];
    int sg = tile__is_signed(dt);
    tile_status st;
    for (int k = 0; k < nc; k++) tile__interp_copy(I, args[1 + k], o[3 + k]);
    if (sg ? lo.i < hi.i : lo.u < hi.u) {
        if (sg ? step.i <= 0 : step.u == 0)
            return tile__error(TILE_ERR_VALUE, f->name, op->file, op->line,
                               "TL_FOR step must be positive (got %lld) in program (%u,%u,%u)",
                               (long long)step.i, I->pid[0], I->pid[1], I->pid[2]);
        /* hi - lo as u64 is the true distance for signed and unsigned bounds,
           and counting trips first keeps iv from overflowing past hi */
        uint64_t dist = hi.u - lo.u, trips = dist / step.u + (dist % step.u != 0);
        tile__elem iv = lo;
        for (uint64_t n = 0; n < trips; n++, iv.u += step.u) {
            const tile__op *y;
            I->buf[args[0]][0] = iv;
            if ((st = tile__interp_region(I, op->region[0], &y)) != TILE_OK) return st;
            TILE_ASSERT(y || nc == 0);
            if (nc && (st = tile__interp_carry(I, op, args + 1, f->pool + y->opnd, nc)) != TILE_OK) return st;
        }
    }
    for (int k = 0; k < nc; k++) tile__interp_copy(I, op->res + k, args[1 + k]);
    return TILE_OK;
}

static tile_status tile__interp_if(tile__interp *I, const tile__op *op) {
    int reg = I->buf[tile__interp_opnd(I, op, 0)][0].u ? op->region[0] : op->region[1];
    const tile__op *y;
    tile_status st;
    if (reg < 0) {
        TILE_ASSERT(op->nres == 0);
        return TILE_OK;
    }
    if ((st = tile__interp_region(I, reg, &y)) != TILE_OK) return st;
    TILE_ASSERT(y || op->nres == 0);
    for (int k = 0; k < op->nres; k++) tile__interp_copy(I, op->res + k, I->f->pool[y->opnd + k]);
    return TILE_OK;
}

/* scf.while: before(carried) -> condition(c, values); while c:
   after(values) -> yield(next carried) */
static tile_status tile__interp_while(tile__interp *I, const tile__op *op) {
    const tile__func *f = I->f;
    const tile__region *before = &f->regs[op->region[0]], *after = &f->regs[op->region[1]];
    tile_status st;
    for (int k = 0; k < op->nopnd; k++) tile__interp_copy(I, f->pool[before->args + k], f->pool[op->opnd + k]);
    for (;;) {
        const tile__op *c, *y;
        if ((st = tile__interp_region(I, op->region[0], &c)) != TILE_OK) return st;
        TILE_ASSERT(c && c->code == TILE__OP_CONDITION);
        const int *vals = f->pool + c->opnd + 1;
        if (!I->buf[f->pool[c->opnd]][0].u) {
            for (int k = 0; k < op->nres; k++) tile__interp_copy(I, op->res + k, vals[k]);
            return TILE_OK;
        }
        for (int k = 0; k < after->nargs; k++) tile__interp_copy(I, f->pool[after->args + k], vals[k]);
        if ((st = tile__interp_region(I, op->region[1], &y)) != TILE_OK) return st;
        TILE_ASSERT(y || before->nargs == 0);
        if (before->nargs &&
            (st = tile__interp_carry(I, op, f->pool + before->args, f->pool + y->opnd, before->nargs)) != TILE_OK)
            return st;
    }
}

/* map_elementwise: the region once per element (per pack of pack
   consecutive ones), its arguments that element of each operand */
static tile_status tile__interp_map(tile__interp *I, const tile__op *op) {
    const tile__func *f = I->f;
    const int *o = f->pool + op->opnd, *args = f->pool + f->regs[op->region[0]].args;
    int pack = (int)op->i[0], n = tile__interp_numel(I, op->res);
    for (int e = 0; e < n; e += pack) {
        const tile__op *y;
        for (int k = 0; k < op->nopnd; k++)
            for (int j = 0; j < pack; j++) I->buf[args[k * pack + j]][0] = I->buf[o[k]][e + j];
        tile_status st = tile__interp_region(I, op->region[0], &y);
        if (st != TILE_OK) return st;
        TILE_ASSERT(y && y->nopnd == op->nres * pack);
        for (int r = 0; r < op->nres; r++)
            for (int j = 0; j < pack; j++) I->buf[op->res + r][e + j] = I->buf[f->pool[y->opnd + r * pack + j]][0];
    }
    return TILE_OK;
}

static tile_status tile__interp_op(tile__interp *I, const tile__op *op) {
    const tile__func *f = I->f;
    if (op->code == TILE__OP_INLINE_ASM)
        return tile__error(TILE_ERR_NODEVICE, f->name, op->file, op->line,
                           "tl_inline_asm_elementwise: inline PTX runs on a GPU only, and the interpreter has none to run it on "
                           "(TILE_ARCH=sm_90a still compiles the kernel to PTX)");
    if (tile__op_flags[op->code] & TILE__F_EW) {
        tile__interp_ew(I, op);
        return TILE_OK;
    }
    switch (op->code) {
    case TILE__OP_CONST: tile__interp_const(I, op); return TILE_OK;
    case TILE__OP_PROGRAM_ID:
    case TILE__OP_NUM_PROGRAMS: {
        unsigned v = (op->code == TILE__OP_PROGRAM_ID ? I->pid : I->grid)[op->i[0]];
        I->buf[op->res][0].i = (int32_t)v;
        return TILE_OK;
    }
    case TILE__OP_ARANGE: {
        tile__elem *out = I->buf[op->res];
        for (long long v = op->i[0]; v < op->i[1]; v++) out[v - op->i[0]].i = v;
        return TILE_OK;
    }
    case TILE__OP_BROADCAST: case TILE__OP_EXPAND_DIMS: case TILE__OP_RESHAPE: case TILE__OP_PERMUTE:
    case TILE__OP_CAT: case TILE__OP_JOIN: case TILE__OP_SPLIT:
        tile__interp_shape(I, op);
        return TILE_OK;
    case TILE__OP_HISTOGRAM: {
        const tile__type *xt = &f->vals[f->pool[op->opnd]].t;
        const tile__elem *x = tile__interp_in(I, op, 0), *m = f->pool[op->opnd + 1] > 0 ? tile__interp_in(I, op, 1) : NULL;
        tile__elem *out = I->buf[op->res];
        int nb = f->vals[op->res].t.shape[0], n = tile__numel(xt), sg = tile__is_signed(xt->dtype);
        for (int b = 0; b < nb; b++) out[b].i = 0;
        for (int e = 0; e < n; e++) {
            if (m && !m[e].u) continue;
            if (sg ? x[e].i >= 0 && x[e].i < nb : x[e].u < (uint64_t)nb) out[sg ? x[e].i : (int64_t)x[e].u].i++;
        }
        return TILE_OK;
    }
    case TILE__OP_GATHER: {
        const tile__type *st = &f->vals[f->pool[op->opnd]].t, *rt = &f->vals[op->res].t, *it = &f->vals[f->pool[op->opnd + 1]].t;
        const tile__elem *src = tile__interp_in(I, op, 0), *idx = tile__interp_in(I, op, 1);
        tile__elem *out = I->buf[op->res];
        int axis = (int)op->i[0], n = tile__numel(rt), c[TILE__MAX_RANK];
        for (int e = 0; e < n; e++) {
            int rest = e;
            for (int d = rt->rank - 1; d >= 0; d--) c[d] = rest % rt->shape[d], rest /= rt->shape[d];
            long long k = tile__is_signed(it->dtype) ? idx[e].i : (long long)(idx[e].u > (uint64_t)INT_MAX ? (uint64_t)INT_MAX + 1 : idx[e].u);
            if (k < 0 || k >= st->shape[axis]) {
                char midx[96];
                return tile__error(TILE_ERR_OOB, f->name, op->file, op->line, "tl_gather: lane %d%s of program (%u,%u,%u) has index %lld, outside [0, %d) along axis %d",
                                   e, tile__interp_midx(rt, e, midx, sizeof midx), I->pid[0], I->pid[1], I->pid[2], k, st->shape[axis], axis);
            }
            c[axis] = (int)k;
            long long lin = 0;
            for (int d = 0; d < st->rank; d++) lin = lin * st->shape[d] + c[d];
            out[e] = src[lin];
        }
        return TILE_OK;
    }
    case TILE__OP_HINT: {   /* the facts are the compiler's; the values pass */
        const tile__type *t = &f->vals[op->res].t;
        memcpy(I->buf[op->res], tile__interp_in(I, op, 0), (size_t)tile__numel(t) * sizeof(tile__elem));
        return TILE_OK;
    }
    case TILE__OP_LOAD: return tile__interp_load(I, op);
    case TILE__OP_STORE: return tile__interp_store(I, op);
    case TILE__OP_ATOMIC: case TILE__OP_ATOMIC_CAS: return tile__interp_atomic(I, op);
    case TILE__OP_MAKE_DESC: {
        tile__elem v[1 + 2 * TILE__MAX_RANK];
        for (int k = 0; k < op->nopnd; k++) v[k] = I->buf[f->pool[op->opnd + k]][0];
        return tile__desc_check(f, op, v);
    }
    case TILE__OP_DESC_LOAD: case TILE__OP_DESC_STORE: return tile__interp_desc_access(I, op);
    case TILE__OP_REDUCE: tile__interp_reduce(I, op); return TILE_OK;
    case TILE__OP_SCAN: tile__interp_scan(I, op); return TILE_OK;
    case TILE__OP_DOT: return tile__interp_dot(I, op);
    case TILE__OP_PRINT: tile__interp_print(I, op); return TILE_OK;
    case TILE__OP_ASSERT: return tile__interp_assert(I, op);
    case TILE__OP_BARRIER: return TILE_OK;
    case TILE__OP_PROFILE: tile__interp_kprof(I, op); return TILE_OK;
    case TILE__OP_FOR: return tile__interp_for(I, op);
    case TILE__OP_IF: return tile__interp_if(I, op);
    case TILE__OP_WHILE: return tile__interp_while(I, op);
    case TILE__OP_MAP: return tile__interp_map(I, op);
    default:
        return tile__error(TILE_ERR_INTERNAL, f->name, op->file, op->line, "the interpreter has no rule for op %s",
                           tile__op_names[op->code]);
    }
}

/* Run a region's live ops in order; *term is its terminator (YIELD or
   CONDITION, left for the owner to read), NULL when it has none. */
static tile_status tile__interp_region(tile__interp *I, int reg, const tile__op **term) {
    const tile__region *r = &I->f->regs[reg];
    *term = NULL;
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &I->f->ops[r->ops[k]];
        if (op->dead) continue;
        if (tile__op_flags[op->code] & TILE__F_TERM) {
            *term = op;
            return TILE_OK;
        }
        tile_status st = tile__interp_op(I, op);
        if (st != TILE_OK) return st;
    }
    return TILE_OK;
}

/* kbuf: the launch's in-kernel scope records (>>profile), or NULL */
static tile_status tile__interp_run(const tile__func *f, const tile_arg *args, const unsigned grid[3], unsigned char *kbuf) {
    tile__interp I;
    tile_status st = TILE_OK;
    size_t total = 0;
    memset(&I, 0, sizeof I);
    I.f = f;
    I.kbuf = kbuf;
    memcpy(I.grid, grid, sizeof I.grid);
    I.buf = (tile__elem **)tile__calloc((size_t)f->nvals, sizeof *I.buf);
    if (!I.buf) return tile__interp_nomem(&I, f->file, f->line, (size_t)f->nvals * sizeof *I.buf);
    tile__interp_place(&I, 0, &total, NULL);
    I.arena = (tile__elem *)tile__calloc(total ? total : 1, sizeof *I.arena);
    if (!I.arena) {
        TILE_FREE(I.buf);
        return tile__interp_nomem(&I, f->file, f->line, total * sizeof *I.arena);
    }
    total = 0;
    tile__interp_place(&I, 0, &total, I.arena);

    const tile__region *body = &f->regs[0];
    for (int k = 0; k < f->nparams; k++) {
        int v = f->pool[body->args + k];
        tl_dtype t = f->vals[v].t.dtype;
        tile__elem x;
        if (t == TL_PTR) x.u = (uint64_t)(uintptr_t)args[k].p;
        else if (tile__is_float(t)) x.f = args[k].f;
        else x.i = args[k].i;
        I.buf[v][0] = tile__norm(t, x);
    }
    for (unsigned z = 0; z < grid[2] && st == TILE_OK; z++)
        for (unsigned y = 0; y < grid[1] && st == TILE_OK; y++)
            for (unsigned x = 0; x < grid[0] && st == TILE_OK; x++) {
                const tile__op *term;
                I.pid[0] = x;
                I.pid[1] = y;
                I.pid[2] = z;
                I.kn = 0;
                st = tile__interp_region(&I, 0, &term);
            }
    TILE_FREE(I.scratch);
    TILE_FREE(I.arena);
    TILE_FREE(I.buf);
    return st;
}
