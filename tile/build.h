/* tile/build.h — >>build: the tl_* ops, which build the IR while a kernel body runs.

   Why it is shaped this way: the kernel body is plain C run once per build on
   the calling thread, so the builder is a thread-local cursor (function +
   current region + a stack of open TL_FOR/TL_IF/TL_WHILE frames). Each tl_*
   op checks its operands (defined, in scope, shapes broadcast, dtypes
   allowed), applies Triton's promotion and broadcasting by inserting CAST and
   BROADCAST ops, and appends one op. The first user error is recorded with
   its id and line; later ops that see the broken value (id -1, "poison")
   return poison without a second message, so one mistake gives one error.

   Rules shared by every binary op (Triton's, see its "Triton Semantics"):
     kind:   bool < integer < float — the higher kind's dtype wins
     width:  same kind: the wider dtype wins
     floats of the same width but different dtypes (f16/bf16, two f8s): f16
     ints of the same width and different signedness: the unsigned one
     C literals are weak: an int literal takes the dtype of an int or float
     operand, a float literal that of a float operand; otherwise i32 (i64 if
     it does not fit) and f32.
     shapes broadcast like numpy (aligned right, dims of 1 stretch). */

enum { TILE__FR_FOR, TILE__FR_IF, TILE__FR_ELSE, TILE__FR_WHILE };
#define TILE__MAX_CARRY 32
/* Constructs nest at most this deep: every pass over regions (verifier,
   printer, CSE, interpreter, lowering) recurses once per level. */
#define TILE__MAX_NEST 64
struct tl__frame {
    int kind;
    int op;                         /* the FOR/IF/WHILE op                  */
    int outer;                      /* region the op sits in                */
    int n;                          /* carried variables                    */
    tl_t *vars[TILE__MAX_CARRY];
    tl_t saved[TILE__MAX_CARRY];    /* their values before the construct    */
    char names[TILE__MAX_CARRY][32];
    int stage;                      /* WHILE: 0 before, 1 body, 2 done      */
    int trash;                      /* WHILE: region for the last cond      */
    int end_nops;                   /* IF: f->nops when the then-part closed */
    int down_lo;                    /* FOR counting down: its lo            */
    int depth;                      /* 1 for the outermost construct        */
    int nbp;                        /* carried block pointers: their offsets are among vars */
    tl_block_ptr *bp[TILE__MAX_CARRY];
    tl_t bp_hdr[TILE__MAX_CARRY];   /* ... and their headers, which must not change */
    int bp_name[TILE__MAX_CARRY];   /* ... and the index of the first offset's name */
    const char *file;
    int line;
    struct tl__frame *up;
};

typedef struct tile__builder {
    tile__func *f;
    const tile_kernel *k;
    const tile_launch *opts;
    int cur;                        /* region receiving new ops             */
    tile_status st;                 /* first error, TILE_OK if none         */
    struct tl__frame *top;          /* innermost open construct             */
    struct tl__frame *pending_else; /* a TL_IF just closed, TL_ELSE may follow */
    uint32_t serial;                /* stamped on every handle of this build */
    int desc_ok;                    /* a tl_desc_* call is taking its descriptor */
    tl_loop_options lopt;           /* TL_LOOP_OPTIONS for the next TL_FOR   */
    const char *lopt_file;          /* where they were given (NULL: none)    */
    int lopt_line;
    struct tile__bptr *bps;         /* the block pointers made (tl_make_block_ptr) */
    int nbps, capbps;
    const tl_dtype *elems;          /* per parameter, the dtype a tl_ptr one was given
                                       at launch (NULL: the kernel has none) */
} tile__builder;

static _Thread_local tile__builder *tile__b;

/* A block pointer's header (tl_make_block_ptr): the builder's record k is
   named by the handle {-2 - k, serial}, which no op takes as a value
   (tile__use says so); its offsets are ordinary i32 scalars beside it in
   the tl_block_ptr. Loads and stores through it become pointer arithmetic
   and masks at the call, so no op of the IR knows block pointers. */
typedef struct tile__bptr {
    int rank;
    int base, shape[TILE__MAX_RANK], strides[TILE__MAX_RANK]; /* values */
    int block[TILE__MAX_RANK], order[TILE__MAX_RANK];
    const char *file;
    int line;
} tile__bptr;
/* the record a handle names, or NULL when it is not a block pointer's header of this build */
static const tile__bptr *tile__bptr_of(tl_t hdr) {
    if (!tile__b || hdr.id > -2 || hdr.build != tile__b->serial) return NULL;
    int k = -2 - hdr.id;
    return k < tile__b->nbps ? &tile__b->bps[k] : NULL;
}

static const tl_t tile__poison = {-1, 0};
static tl_t tile__mk(int id) {
    tl_t v;
    v.id = id;
    v.build = tile__b ? tile__b->serial : 0;
    return v;
}

/* Record a user error at the user's line (only the first one of a build).
   In a kernel with tl_ptr parameters the message names the dtypes it was
   built for and the launch that gave them. */
static tl_t tile__berr(tile_status st, const char *file, int line, const char *fmt, ...) {
    tile__builder *b = tile__b;
    if (b && b->st != TILE_OK) return tile__poison;
    va_list ap;
    va_start(ap, fmt);
    if (b && b->elems) {
        char msg[768], dts[200] = "";
        size_t n = 0;
        vsnprintf(msg, sizeof msg, fmt, ap);
        for (int p = 0; p < b->k->nparams && n < sizeof dts; p++)
            if (b->k->params[p].dtype == TL_PTR && b->k->params[p].elem == TL_VOID)
                n += (size_t)snprintf(dts + n, sizeof dts - n, "%s%s *%s", n ? ", " : "", b->k->params[p].name, tile_dtype_name(b->elems[p]));
        if (b->opts && b->opts->file)
            tile__error(st, b->k->name, file, line, "%s (built for %s, launched at %s:%d)", msg, dts, b->opts->file, b->opts->line);
        else tile__error(st, b->k->name, file, line, "%s (built for %s)", msg, dts);
    } else tile__verror(st, b ? b->k->name : NULL, file, line, fmt, ap);
    va_end(ap);
    if (b) b->st = st;
    return tile__poison;
}

static const tile__type *tile__ty(int id) { return &tile__b->f->vals[id].t; }
static tl_dtype tile__dty(int id) { return tile__b->f->vals[id].t.dtype; }
/* a value's type for messages; a C literal is called one */
static char *tile__tys(int id, char *buf) {
    if (tile__b->f->vals[id].weak) {
        snprintf(buf, 96, "%s literal", tile__is_float(tile__dty(id)) ? "a float" : "an integer");
        return buf;
    }
    return tile__type_str(tile__ty(id), buf, 96);
}

/* Check that a handle may be used here. Returns the value id, or 0 after
   recording an error (or when the value is already poison). */
static int tile__use(const char *file, int line, const char *op, tl_t v) {
    tile__builder *b = tile__b;
    if (!b) {
        /* one message per call site, however many operands it has */
        const tile_error *e = &tile__err;
        if (!(e->status == TILE_ERR_CONTEXT && e->line == line && strcmp(e->file, file ? file : "") == 0))
            tile__error(TILE_ERR_CONTEXT, NULL, file, line, "%s called outside a kernel body being built", op);
        return 0;
    }
    if (v.id < 0) {
        if (v.id <= -2)
            tile__berr(TILE_ERR_DTYPE, file, line,
                       "%s: an operand is a block pointer's header (tl_make_block_ptr): only tl_load, tl_store and tl_advance take a block pointer, "
                       "and it is not computed on", op);
        return 0;   /* poison: its error is already recorded */
    }
    if (v.id > 0 && v.build != b->serial) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: an operand comes from another kernel's build (a tl_t kept in a static or global?)", op);
        return 0;
    }
    if (v.id == 0 || v.id >= b->f->nvals) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: an operand has no value (a tl_t that was never assigned, or one from another kernel)", op);
        return 0;
    }
    const tile__value *val = &b->f->vals[v.id];
    if (val->t.dtype == TL_DESC && !b->desc_ok) {
        tile__berr(TILE_ERR_DTYPE, file, line,
                   "%s: an operand is a tensor descriptor, which only tl_desc_load, tl_desc_store and tl_desc_atomic_* take "
                   "(it cannot be computed on, carried through a TL_FOR, TL_IF or TL_WHILE, or loaded through)", op);
        return 0;
    }
    if (!tile__region_within(b->f, b->cur, val->region)) {
        const tile__region *r = &b->f->regs[val->region];
        const char *what = r->owner >= 0 ? tile__op_names[b->f->ops[r->owner].code] : "region";
        int ol = r->owner >= 0 ? b->f->ops[r->owner].line : 0;
        if (r->owner >= 0 && b->f->ops[r->owner].code == TILE__OP_MAP) {
            tile__berr(TILE_ERR_SCOPE, file, line,
                       "%s: this operand was made at line %d inside the function of the tl_map_elementwise at line %d, which holds one element, "
                       "and is used outside it; hand it out as one of the function's results", op, val->line, ol);
            return 0;
        }
        tile__berr(TILE_ERR_SCOPE, file, line,
                   "%s: this operand was made at line %d inside the TL_%s body at line %d and is used outside it; "
                   "carry it: list the variable that holds it among the TL_%s's carried values",
                   op, val->line, what[0] == 'f' ? "FOR" : what[0] == 'i' ? "IF" : "WHILE", ol,
                   what[0] == 'f' ? "FOR" : what[0] == 'i' ? "IF" : "WHILE");
        return 0;
    }
    return v.id;
}

/* Append an op in the current region; returns its first result as tl_t. */
static int tile__emit(tile__opcode code, const int *opnds, int n, const tile__type *rt, int nres, const char *file, int line) {
    tile__func *f = tile__b->f;
    int op = tile__new_op(f, tile__b->cur, code, opnds, n, rt, nres, file, line);
    if (f->nomem) tile__berr(TILE_ERR_NOMEM, file, line, "out of host memory while building the kernel");
    return op;
}
static int tile__emit1(tile__opcode code, const int *opnds, int n, tile__type rt, const char *file, int line) {
    int op = tile__emit(code, opnds, n, &rt, 1, file, line);
    return tile__b->f->ops[op].res;
}
static tile__op *tile__defop(int id) {
    int d = tile__b->f->vals[id].def;
    return d >= 0 ? &tile__b->f->ops[d] : NULL;
}

static int tile__is_pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }
static int tile__log2i(int x) { int k = 0; while ((1 << k) < x) k++; return k; }
/* the signed integer dtype as wide as dt (i1 and 8-bit: i8) */
static tl_dtype tile__bits_int(tl_dtype dt) {
    switch (tile__dt[dt].bits) {
    case 1: case 8: return TL_I8;
    case 16: return TL_I16;
    case 32: return TL_I32;
    default: return TL_I64;
    }
}
/* A tile shape: each dim a power of two, numel within the limit. */
static int tile__check_shape(const char *file, int line, const char *op, const tile__type *t) {
    long long n = 1;
    for (int d = 0; d < t->rank; d++) {
        if (!tile__is_pow2(t->shape[d])) {
            char s[96];
            tile__berr(TILE_ERR_BLOCK, file, line, "%s: shape %s: every dim must be a power of two (got %d)", op,
                       tile__shape_str(t, s, sizeof s), t->shape[d]);
            return 0;
        }
        n *= t->shape[d];
        if (n > TILE__MAX_NUMEL) break;   /* before the product can overflow */
    }
    if (n > TILE__MAX_NUMEL) {
        char s[96];
        tile__berr(TILE_ERR_BLOCK, file, line, "%s: shape %s has more than the limit of %d elements", op,
                   tile__shape_str(t, s, sizeof s), TILE__MAX_NUMEL);
        return 0;
    }
    return 1;
}

/* ---- the operand stack (see tile_lang.h: operands are traced in order) ------ */
#define TILE__STACK 256
static _Thread_local tl_t tile__stk[TILE__STACK];
static _Thread_local int tile__nstk;
void tl__push(tl_t v) {
    if (tile__nstk < TILE__STACK) tile__stk[tile__nstk] = v;
    tile__nstk++;
}
static tl_t tile__pop(const char *file, int line) {
    tile__nstk--;
    if (tile__nstk >= 0 && tile__nstk < TILE__STACK) return tile__stk[tile__nstk];
    if (tile__nstk < 0) tile__nstk = 0;
    return tile__berr(TILE_ERR_VALUE, file, line, "an expression nests tl_* calls more than %d deep", TILE__STACK);
}
tl_t tl__bin_stk(const char *file, int line, tl__bin_fn fn) {
    tl_t b = tile__pop(file, line), a = tile__pop(file, line);
    return fn(file, line, a, b);
}
tl_t tl__ter_stk(const char *file, int line, tl__ter_fn fn) {
    tl_t c = tile__pop(file, line), b = tile__pop(file, line), a = tile__pop(file, line);
    return fn(file, line, a, b, c);
}
void tl__swizzle2d_stk(const char *file, int line, tl_t *new_i, tl_t *new_j) {
    tl_t sg = tile__pop(file, line), sj = tile__pop(file, line), si = tile__pop(file, line);
    tl_t j = tile__pop(file, line), i = tile__pop(file, line);
    tl_swizzle2d_at(file, line, i, j, si, sj, sg, new_i, new_j);
}
void tl__broadcast_stk(const char *file, int line, tl_t *pa, tl_t *pb) {
    tl_t b = tile__pop(file, line), a = tile__pop(file, line);
    tl_broadcast_at(file, line, a, b, pa, pb);
}
/* a block pointer pushed by tl__push_block (its offsets, then its header), popped */
static int tile__pop_block(const char *file, int line, tl_t hdr, tl_block_ptr *bp) {
    const tile__bptr *r = tile__bptr_of(hdr);
    if (!r) return 0;
    memset(bp, 0, sizeof *bp);
    bp->tl__hdr = hdr;
    for (int d = r->rank - 1; d >= 0; d--) bp->tl__off[d] = tile__pop(file, line);
    return 1;
}
tl_t tl__load_stk(const char *file, int line, tl_load_args o) {
    tl_t p = tile__pop(file, line);
    tl_block_ptr bp;
    if (tile__pop_block(file, line, p, &bp)) return tl_load_block_at(file, line, bp, o);
    return tl_load_at(file, line, p, o);
}
void tl__store_stk(const char *file, int line, tl_store_args o) {
    tl_t v = tile__pop(file, line), p = tile__pop(file, line);
    tl_block_ptr bp;
    if (tile__pop_block(file, line, p, &bp)) tl_store_block_at(file, line, bp, v, o);
    else tl_store_at(file, line, p, v, o);
}
void tl__push_block(tl_block_ptr bp) {
    const tile__bptr *r = tile__bptr_of(bp.tl__hdr);
    for (int d = 0; r && d < r->rank; d++) tl__push(bp.tl__off[d]);
    tl__push(bp.tl__hdr);
}
tl_t tl__atomic_stk(const char *file, int line, tl_atomic_op kind, tl_atomic_args o) {
    tl_t v = tile__pop(file, line), p = tile__pop(file, line);
    return tl_atomic_at(file, line, kind, p, v, o);
}
tl_t tl__cas_stk(const char *file, int line, tl_atomic_args o) {
    tl_t v = tile__pop(file, line), c = tile__pop(file, line), p = tile__pop(file, line);
    return tl_atomic_cas_at(file, line, p, c, v, o);
}
tl_t tl__dot_stk(const char *file, int line, tl_dot_args o) {
    tl_t b = tile__pop(file, line), a = tile__pop(file, line);
    return tl_dot_at(file, line, a, b, o);
}
tl_t tl__dot_scaled_stk(const char *file, int line, tl_fmt lhs_format, tl_fmt rhs_format, tl_dot_scaled_args o) {
    tl_t rs = tile__pop(file, line), r = tile__pop(file, line), ls = tile__pop(file, line), l = tile__pop(file, line);
    return tl_dot_scaled_at(file, line, l, ls, lhs_format, r, rs, rhs_format, o);
}

/* ---- constants --------------------------------------------------------------- */
static int tile__const_i(tl_dtype dt, long long v, const char *file, int line) {
    tile__type t = tile__scalar_type(dt);
    tile__elem e;
    e.i = v;
    e = tile__norm(dt, e);
    int r = tile__emit1(TILE__OP_CONST, NULL, 0, t, file, line);
    tile__b->f->ops[tile__b->f->vals[r].def].i[0] = e.i;
    return r;
}
static int tile__const_f(tl_dtype dt, double v, const char *file, int line) {
    tile__type t = tile__scalar_type(dt);
    int r = tile__emit1(TILE__OP_CONST, NULL, 0, t, file, line);
    tile__b->f->ops[tile__b->f->vals[r].def].f = tile__round_float(dt, v);
    return r;
}
tl_t tl__id(tl_t v) { return v; }
/* Without a builder the literal makers stay silent: the op they feed reports. */
tl_t tl__cint(long long v) {
    if (!tile__b) return tile__poison;
    /* Triton's literal types: i32, then u32, then i64 */
    int id = tile__const_i(v >= INT32_MIN && v <= INT32_MAX ? TL_I32 : v >= 0 && v <= (long long)UINT32_MAX ? TL_U32 : TL_I64, v, NULL, 0);
    tile__b->f->vals[id].weak = 1;
    return tile__mk(id);
}
tl_t tl__cuint(unsigned long long v) {
    if (v <= (unsigned long long)INT64_MAX) return tl__cint((long long)v);
    if (!tile__b) return tile__poison;
    int id = tile__const_i(TL_U64, (long long)v, NULL, 0);
    tile__b->f->vals[id].weak = 1;
    return tile__mk(id);
}
tl_t tl__cflt(double v) {
    if (!tile__b) return tile__poison;
    int id = tile__const_f(TL_F64, v, NULL, 0); /* typed when it meets a tile; alone: f32 */
    tile__b->f->vals[id].weak = 1;
    return tile__mk(id);
}
/* A weak literal standing alone takes its default dtype (i32/i64, f32). */
static tl_dtype tile__weak_default(int id) {
    tl_dtype dt = tile__dty(id);
    return dt == TL_F64 ? TL_F32 : dt;
}

/* ---- casts and broadcasts (the builder's own, without user checks) ----------- */
static int tile__cast(int id, tl_dtype to, const char *file, int line) {
    const tile__type *t = tile__ty(id);
    if (t->dtype == to && !tile__b->f->vals[id].weak) return id;
    if (t->dtype == to && t->rank == 0) {
        /* a weak literal gets a typed twin so it no longer adapts */
        tile__op *c = tile__defop(id);
        if (c && c->code == TILE__OP_CONST)
            return tile__is_float(to) ? tile__const_f(to, c->f, file, line) : tile__const_i(to, c->i[0], file, line);
    }
    tile__op *c = tile__defop(id);
    if (c && c->code == TILE__OP_CONST && t->rank == 0) {
        tile__elem x;
        if (tile__is_float(t->dtype)) x.f = c->f;
        else x.i = c->i[0];
        x = tile__convert(t->dtype, to, x);
        return tile__is_float(to) ? tile__const_f(to, x.f, file, line) : tile__const_i(to, x.i, file, line);
    }
    tile__type rt = tile__with_dtype(*t, to);
    return tile__emit1(TILE__OP_CAST, &id, 1, rt, file, line);
}
static int tile__bcast(int id, const tile__type *shape, const char *file, int line) {
    const tile__type *t = tile__ty(id);
    if (tile__same_shape(t, shape)) return id;
    tile__type rt = *t;
    rt.rank = shape->rank;
    memcpy(rt.shape, shape->shape, sizeof rt.shape);
    return tile__emit1(TILE__OP_BROADCAST, &id, 1, rt, file, line);
}
/* numpy broadcasting of two shapes into *out; 0 when they do not broadcast */
static int tile__bshape(const tile__type *a, const tile__type *b, tile__type *out) {
    int r = a->rank > b->rank ? a->rank : b->rank;
    out->rank = r;
    for (int d = 0; d < r; d++) {
        int da = d - (r - a->rank) >= 0 ? a->shape[d - (r - a->rank)] : 1;
        int db = d - (r - b->rank) >= 0 ? b->shape[d - (r - b->rank)] : 1;
        if (da != db && da != 1 && db != 1) return 0;
        out->shape[d] = da > db ? da : db;
    }
    return 1;
}
/* the broadcast shape, which must also be one a tile may have ([2^20, 1]
   against [1, 2^20] broadcasts to 2^40 elements) */
static int tile__bshape_err(const char *file, int line, const char *op, int a, int b, tile__type *out) {
    if (tile__bshape(tile__ty(a), tile__ty(b), out)) return tile__check_shape(file, line, op, out);
    char sa[96], sb[96];
    tile__berr(TILE_ERR_SHAPE, file, line, "%s: shapes %s and %s do not broadcast", op,
               tile__shape_str(tile__ty(a), sa, sizeof sa), tile__shape_str(tile__ty(b), sb, sizeof sb));
    return 0;
}

/* ---- promotion ----------------------------------------------------------------- */
static int tile__kind(tl_dtype t) { return t == TL_I1 ? 1 : tile__is_int(t) ? 2 : tile__is_float(t) ? 3 : 0; }
static tl_dtype tile__promote2(tl_dtype a, tl_dtype b) {
    int ka = tile__kind(a), kb = tile__kind(b);
    if (a == b) return a;
    if (ka != kb) return ka > kb ? a : b;
    if (tile__dt[a].bits != tile__dt[b].bits) return tile__dt[a].bits > tile__dt[b].bits ? a : b;
    if (ka == 3) return TL_F16;                     /* f16/bf16, e4m3/e5m2 */
    return tile__is_unsigned(a) ? a : b;            /* same width: unsigned */
}
/* The dtype two operands compute in, honoring weak literals. */
static tl_dtype tile__common_dtype(int a, int b) {
    int wa = tile__b->f->vals[a].weak, wb = tile__b->f->vals[b].weak;
    tl_dtype ta = tile__dty(a), tb = tile__dty(b);
    if (wa && wb) return tile__promote2(tile__weak_default(a), tile__weak_default(b));
    if (wa || wb) {
        int lit = wa ? a : b;
        tl_dtype other = wa ? tb : ta, lt = tile__dty(lit);
        if (tile__is_float(lt)) return tile__is_float(other) ? other : TL_F32;
        if (tile__is_float(other) || (tile__is_int(other) && other != TL_I1)) return other;
        return tile__weak_default(lit);             /* bool meets an int literal */
    }
    return tile__promote2(ta, tb);
}
static int tile__check_num(const char *file, int line, const char *op, int id) {
    tl_dtype t = tile__dty(id);
    if (t == TL_PTR) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: operand of type %s: pointers are not allowed here", op, tile__tys(id, s));
        return 0;
    }
    return 1;
}

/* Bring a and b to a common dtype `dt` and shape; 0 on error. */
static int tile__unify(const char *file, int line, const char *op, int *a, int *b, tl_dtype dt) {
    tile__type sh;
    if (!tile__bshape_err(file, line, op, *a, *b, &sh)) return 0;
    if (!tile__check_shape(file, line, op, &sh)) return 0;
    *a = tile__bcast(tile__cast(*a, dt, file, line), &sh, file, line);
    *b = tile__bcast(tile__cast(*b, dt, file, line), &sh, file, line);
    return 1;
}

/* ---- elementwise binary ops ------------------------------------------------------ */
enum { TILE__A_NUM = 1, TILE__A_INT = 2, TILE__A_FLOAT = 4, TILE__A_BOOL_OK = 8 };
static tl_t tile__binary(const char *file, int line, const char *name, tile__opcode code, tl_t av, tl_t bv, int allow) {
    int a = tile__use(file, line, name, av), b = tile__use(file, line, name, bv);
    if (!a || !b) return tile__poison;
    if (!tile__check_num(file, line, name, a) || !tile__check_num(file, line, name, b)) return tile__poison;
    tl_dtype dt = tile__common_dtype(a, b);
    if (((allow & TILE__A_INT) && !tile__is_int(dt)) || ((allow & TILE__A_FLOAT) && !tile__is_float(dt)) ||
        (!(allow & TILE__A_BOOL_OK) && dt == TL_I1 && !(tile__op_flags[code] & TILE__F_CMP))) {
        char sa[96], sb[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for operands %s and %s%s", name, tile__tys(a, sa),
                          tile__tys(b, sb),
                          (allow & TILE__A_INT) ? " (integers only)" : (allow & TILE__A_FLOAT) ? " (floats only)" : "");
    }
    if (!tile__unify(file, line, name, &a, &b, dt)) return tile__poison;
    tile__type rt = *tile__ty(a);
    if (tile__op_flags[code] & TILE__F_CMP) rt = tile__with_dtype(rt, TL_I1);
    int ops[2] = {a, b};
    return tile__mk(tile__emit1(code, ops, 2, rt, file, line));
}

/* pointer +/- integer tile: a PTR_ADD, with the offsets' shape broadcast */
static tl_t tile__ptr_offset(const char *file, int line, const char *name, int p, int off, int negate) {
    if (!tile__is_int(tile__dty(off)) || tile__dty(off) == TL_I1) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: a pointer can only be offset by integers, not %s", name, tile__tys(off, s));
    }
    if (tile__b->f->vals[off].weak) off = tile__cast(off, tile__weak_default(off), file, line);
    if (negate) {
        tile__type t = *tile__ty(off);
        off = tile__emit1(TILE__OP_NEG, &off, 1, t, file, line);
    }
    tile__type sh;
    if (!tile__bshape_err(file, line, name, p, off, &sh)) return tile__poison;
    if (!tile__check_shape(file, line, name, &sh)) return tile__poison;
    p = tile__bcast(p, &sh, file, line);
    off = tile__bcast(off, &sh, file, line);
    tile__type rt = *tile__ty(p);
    int ops[2] = {p, off};
    return tile__mk(tile__emit1(TILE__OP_PTR_ADD, ops, 2, rt, file, line));
}

tl_t tl_add_at(const char *file, int line, tl_t av, tl_t bv) {
    int a = tile__use(file, line, "tl_add", av), b = tile__use(file, line, "tl_add", bv);
    if (!a || !b) return tile__poison;
    if (tile__is_ptr(tile__dty(a)) && tile__is_ptr(tile__dty(b)))
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_add: cannot add two pointers");
    if (tile__is_ptr(tile__dty(a))) return tile__ptr_offset(file, line, "tl_add", a, b, 0);
    if (tile__is_ptr(tile__dty(b))) return tile__ptr_offset(file, line, "tl_add", b, a, 0);
    return tile__binary(file, line, "tl_add", TILE__OP_ADD, av, bv, TILE__A_NUM);
}
tl_t tl_sub_at(const char *file, int line, tl_t av, tl_t bv) {
    int a = tile__use(file, line, "tl_sub", av), b = tile__use(file, line, "tl_sub", bv);
    if (!a || !b) return tile__poison;
    if (tile__is_ptr(tile__dty(a)) && !tile__is_ptr(tile__dty(b))) return tile__ptr_offset(file, line, "tl_sub", a, b, 1);
    return tile__binary(file, line, "tl_sub", TILE__OP_SUB, av, bv, TILE__A_NUM);
}
tl_t tl_mul_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_mul", TILE__OP_MUL, a, b, TILE__A_NUM); }
/* Division and remainder of half-precision floats compute in f32, as
   Triton's (PTX has no f16 division): cast `x` when the pair's dtype is
   narrower than f32. */
static tl_t tile__half_to_f32(int x, int other, tl_t xv, const char *file, int line) {
    tl_dtype dt = tile__common_dtype(x, other);
    if (!tile__is_float(dt) || tile__dt[dt].bits >= 32) return xv;
    return tile__mk(tile__cast(x, TL_F32, file, line));
}
tl_t tl_div_at(const char *file, int line, tl_t av, tl_t bv) {
    /* true division: integer operands are converted to f32 first */
    int a = tile__use(file, line, "tl_div", av), b = tile__use(file, line, "tl_div", bv);
    if (!a || !b) return tile__poison;
    if (!tile__check_num(file, line, "tl_div", a) || !tile__check_num(file, line, "tl_div", b)) return tile__poison;
    if (!tile__is_float(tile__dty(a)) && !tile__is_float(tile__dty(b))) {
        av = tile__mk(tile__cast(a, TL_F32, file, line));
        bv = tile__mk(tile__cast(b, TL_F32, file, line));
    } else {
        av = tile__half_to_f32(a, b, av, file, line);
        bv = tile__half_to_f32(b, a, bv, file, line);
    }
    return tile__binary(file, line, "tl_div", TILE__OP_DIV, av, bv, TILE__A_NUM);
}
tl_t tl_floordiv_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_floordiv", TILE__OP_DIV, a, b, TILE__A_INT); }
tl_t tl_mod_at(const char *file, int line, tl_t av, tl_t bv) {
    int a = tile__use(file, line, "tl_mod", av), b = tile__use(file, line, "tl_mod", bv);
    if (!a || !b || !tile__check_num(file, line, "tl_mod", a) || !tile__check_num(file, line, "tl_mod", b)) return tile__poison;
    tl_t a2 = tile__half_to_f32(a, b, av, file, line), b2 = tile__half_to_f32(b, a, bv, file, line);
    return tile__binary(file, line, "tl_mod", TILE__OP_MOD, a2, b2, TILE__A_NUM);
}
tl_t tl_minimum_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_minimum", TILE__OP_MIN, a, b, TILE__A_NUM); }
tl_t tl_maximum_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_maximum", TILE__OP_MAX, a, b, TILE__A_NUM); }
/* with .propagate_nan: MIN_NAN / MAX_NAN where the operands are floats (an integer has no NaN:
   the plain op, as Triton's maximum ignores the option for integers) */
/* .propagate_nan: TL_PROPAGATE_NAN_NONE (0), TL_PROPAGATE_NAN_ALL, or 1 for ALL;
   another value is an error, as Triton's ValueError for an unexpected
   PropagateNan. 1 when it is one of those (ALL made 1), else 0 and the error. */
static int tile__nan_option(const char *file, int line, const char *name, int *v) {
    if (*v != TL_PROPAGATE_NAN_NONE && *v != TL_PROPAGATE_NAN_ALL && *v != 1) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: .propagate_nan = %d is not TL_PROPAGATE_NAN_NONE (0) or TL_PROPAGATE_NAN_ALL (or 1)", name, *v);
        return 0;
    }
    *v = *v != 0;
    return 1;
}
static tl_t tile__minmax(const char *file, int line, const char *name, int max, tl_t av, tl_t bv, tl_minmax_args o) {
    int a = tile__use(file, line, name, av), b = tile__use(file, line, name, bv);
    if (!a || !b || !tile__check_num(file, line, name, a) || !tile__check_num(file, line, name, b)) return tile__poison;
    if (!tile__nan_option(file, line, name, &o.propagate_nan)) return tile__poison;
    tile__opcode code = max ? TILE__OP_MAX : TILE__OP_MIN;
    if (o.propagate_nan && tile__is_float(tile__common_dtype(a, b))) code = max ? TILE__OP_MAX_NAN : TILE__OP_MIN_NAN;
    return tile__binary(file, line, name, code, av, bv, TILE__A_NUM);
}
tl_t tl_minimum_opts_at(const char *file, int line, tl_t a, tl_t b, tl_minmax_args o) { return tile__minmax(file, line, "tl_minimum", 0, a, b, o); }
tl_t tl_maximum_opts_at(const char *file, int line, tl_t a, tl_t b, tl_minmax_args o) { return tile__minmax(file, line, "tl_maximum", 1, a, b, o); }
tl_t tl__minmax_stk(const char *file, int line, int max, tl_minmax_args o) {
    tl_t b = tile__pop(file, line), a = tile__pop(file, line);
    return tile__minmax(file, line, max ? "tl_maximum" : "tl_minimum", max, a, b, o);
}
tl_t tl_and_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_and", TILE__OP_AND, a, b, TILE__A_INT | TILE__A_BOOL_OK); }
tl_t tl_or_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_or", TILE__OP_OR, a, b, TILE__A_INT | TILE__A_BOOL_OK); }
tl_t tl_xor_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_xor", TILE__OP_XOR, a, b, TILE__A_INT | TILE__A_BOOL_OK); }
tl_t tl_shl_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_shl", TILE__OP_SHL, a, b, TILE__A_INT); }
tl_t tl_shr_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_shr", TILE__OP_SHR, a, b, TILE__A_INT); }
tl_t tl_umulhi_at(const char *file, int line, tl_t a, tl_t b) { return tile__binary(file, line, "tl_umulhi", TILE__OP_UMULHI, a, b, TILE__A_INT); }

/* comparisons: pointers compare as addresses */
static tl_t tile__compare(const char *file, int line, const char *name, tile__opcode code, tl_t av, tl_t bv) {
    int a = tile__use(file, line, name, av), b = tile__use(file, line, name, bv);
    if (!a || !b) return tile__poison;
    if (tile__is_ptr(tile__dty(a)) || tile__is_ptr(tile__dty(b))) {
        if (!(tile__is_ptr(tile__dty(a)) && tile__is_ptr(tile__dty(b)))) {
            char sa[96], sb[96];
            return tile__berr(TILE_ERR_DTYPE, file, line, "%s: cannot compare %s with %s", name, tile__tys(a, sa), tile__tys(b, sb));
        }
        tile__type sh;
        if (!tile__bshape_err(file, line, name, a, b, &sh)) return tile__poison;
        a = tile__bcast(tile__cast(a, TL_U64, file, line), &sh, file, line);
        b = tile__bcast(tile__cast(b, TL_U64, file, line), &sh, file, line);
        int ops[2] = {a, b};
        return tile__mk(tile__emit1(code, ops, 2, tile__with_dtype(sh, TL_I1), file, line));
    }
    return tile__binary(file, line, name, code, av, bv, TILE__A_NUM | TILE__A_BOOL_OK);
}
tl_t tl_eq_at(const char *file, int line, tl_t a, tl_t b) { return tile__compare(file, line, "tl_eq", TILE__OP_EQ, a, b); }
tl_t tl_ne_at(const char *file, int line, tl_t a, tl_t b) { return tile__compare(file, line, "tl_ne", TILE__OP_NE, a, b); }
tl_t tl_lt_at(const char *file, int line, tl_t a, tl_t b) { return tile__compare(file, line, "tl_lt", TILE__OP_LT, a, b); }
tl_t tl_le_at(const char *file, int line, tl_t a, tl_t b) { return tile__compare(file, line, "tl_le", TILE__OP_LE, a, b); }
tl_t tl_gt_at(const char *file, int line, tl_t a, tl_t b) { return tile__compare(file, line, "tl_gt", TILE__OP_GT, a, b); }
tl_t tl_ge_at(const char *file, int line, tl_t a, tl_t b) { return tile__compare(file, line, "tl_ge", TILE__OP_GE, a, b); }

/* x != 0 as i1 (i1 stays) */
static int tile__truth(int id, const char *file, int line) {
    if (tile__dty(id) == TL_I1) return id;
    tile__type t = *tile__ty(id);
    int z = tile__is_float(t.dtype) ? tile__const_f(t.dtype, 0.0, file, line) : tile__const_i(t.dtype, 0, file, line);
    z = tile__bcast(z, &t, file, line);
    int ops[2] = {id, z};
    return tile__emit1(TILE__OP_NE, ops, 2, tile__with_dtype(t, TL_I1), file, line);
}
static tl_t tile__logical(const char *file, int line, const char *name, tile__opcode code, tl_t av, tl_t bv) {
    int a = tile__use(file, line, name, av), b = tile__use(file, line, name, bv);
    if (!a || !b) return tile__poison;
    if (!tile__check_num(file, line, name, a) || !tile__check_num(file, line, name, b)) return tile__poison;
    a = tile__truth(a, file, line);
    b = tile__truth(b, file, line);
    return tile__binary(file, line, name, code, tile__mk(a), tile__mk(b), TILE__A_INT | TILE__A_BOOL_OK);
}
tl_t tl_logical_and_at(const char *file, int line, tl_t a, tl_t b) { return tile__logical(file, line, "tl_logical_and", TILE__OP_AND, a, b); }
tl_t tl_logical_or_at(const char *file, int line, tl_t a, tl_t b) { return tile__logical(file, line, "tl_logical_or", TILE__OP_OR, a, b); }

tl_t tl_cdiv_at(const char *file, int line, tl_t av, tl_t bv) {
    /* (a + b - 1) // b, integers only, as Triton's cdiv */
    tl_t s = tile__binary(file, line, "tl_cdiv", TILE__OP_ADD, av, bv, TILE__A_INT);
    if (s.id <= 0) return tile__poison;
    tl_t t = tile__binary(file, line, "tl_cdiv", TILE__OP_SUB, s, tl__cint(1), TILE__A_INT);
    return tile__binary(file, line, "tl_cdiv", TILE__OP_DIV, t, bv, TILE__A_INT);
}

/* ---- elementwise unary ops ----------------------------------------------------------- */
static tl_t tile__unary(const char *file, int line, const char *name, tile__opcode code, tl_t xv, int allow) {
    int x = tile__use(file, line, name, xv);
    if (!x || !tile__check_num(file, line, name, x)) return tile__poison;
    if (tile__b->f->vals[x].weak) x = tile__cast(x, (allow & TILE__A_FLOAT) ? TL_F32 : tile__weak_default(x), file, line);
    tl_dtype dt = tile__dty(x);
    if (((allow & TILE__A_INT) && !tile__is_int(dt)) || ((allow & TILE__A_FLOAT) && !tile__is_float(dt)) ||
        (!(allow & TILE__A_BOOL_OK) && dt == TL_I1) ||
        ((allow & TILE__A_FLOAT) && tile__is_f8(dt))) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s%s", name, tile__tys(x, s),
                          (allow & TILE__A_FLOAT) ? " (f16, bf16, f32 or f64; cast it first)" : (allow & TILE__A_INT) ? " (integers only)" : "");
    }
    return tile__mk(tile__emit1(code, &x, 1, *tile__ty(x), file, line));
}
tl_t tl_neg_at(const char *file, int line, tl_t x) { return tile__unary(file, line, "tl_neg", TILE__OP_NEG, x, TILE__A_NUM); }
tl_t tl_not_at(const char *file, int line, tl_t x) { return tile__unary(file, line, "tl_not", TILE__OP_NOT, x, TILE__A_INT | TILE__A_BOOL_OK); }
tl_t tl_abs_at(const char *file, int line, tl_t xv) {
    int x = tile__use(file, line, "tl_abs", xv);
    if (x && tile__is_unsigned(tile__dty(x)) && !tile__b->f->vals[x].weak) return xv;
    return tile__unary(file, line, "tl_abs", TILE__OP_ABS, xv, TILE__A_NUM);
}
#define TILE__MATH_FN(op, OP)                                                           \
    tl_t tl_##op##_at(const char *file, int line, tl_t x) {                             \
        return tile__unary(file, line, "tl_" #op, TILE__OP_##OP, x, TILE__A_FLOAT);     \
    }
TILE__MATH_OPS(TILE__MATH_FN)   /* tile_lang.h's list */
#undef TILE__MATH_FN

tl_t tl_where_at(const char *file, int line, tl_t cv, tl_t av, tl_t bv) {
    int c = tile__use(file, line, "tl_where", cv), a = tile__use(file, line, "tl_where", av), b = tile__use(file, line, "tl_where", bv);
    if (!c || !a || !b || !tile__check_num(file, line, "tl_where", c)) return tile__poison;
    c = tile__truth(c, file, line);
    tl_dtype dt;
    if (tile__is_ptr(tile__dty(a)) || tile__is_ptr(tile__dty(b))) {
        if (!tile__is_ptr(tile__dty(a)) || !tile__is_ptr(tile__dty(b)) || tile__ty(a)->elem != tile__ty(b)->elem)
            return tile__berr(TILE_ERR_DTYPE, file, line, "tl_where: a pointer can only be chosen against a pointer to the same dtype");
        dt = TL_PTR;
    } else
        dt = tile__common_dtype(a, b);
    tile__type sh, sh2;
    if (!tile__bshape_err(file, line, "tl_where", a, b, &sh)) return tile__poison;
    if (!tile__bshape(&sh, tile__ty(c), &sh2)) {
        char s1[96], s2[96];
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_where: condition shape %s does not broadcast with %s",
                          tile__shape_str(tile__ty(c), s1, sizeof s1), tile__shape_str(&sh, s2, sizeof s2));
    }
    if (!tile__check_shape(file, line, "tl_where", &sh2)) return tile__poison;
    if (dt != TL_PTR) {
        a = tile__cast(a, dt, file, line);
        b = tile__cast(b, dt, file, line);
    }
    int ops[3] = {tile__bcast(c, &sh2, file, line), tile__bcast(a, &sh2, file, line), tile__bcast(b, &sh2, file, line)};
    tile__type rt = *tile__ty(ops[1]);
    return tile__mk(tile__emit1(TILE__OP_WHERE, ops, 3, rt, file, line));
}
tl_t tl_fma_at(const char *file, int line, tl_t av, tl_t bv, tl_t cv) {
    int a = tile__use(file, line, "tl_fma", av), b = tile__use(file, line, "tl_fma", bv), c = tile__use(file, line, "tl_fma", cv);
    if (!a || !b || !c) return tile__poison;
    if (!tile__check_num(file, line, "tl_fma", a) || !tile__check_num(file, line, "tl_fma", b) || !tile__check_num(file, line, "tl_fma", c))
        return tile__poison;
    tl_dtype dt = tile__common_dtype(a, b);
    int ab = tile__cast(a, dt, file, line);
    dt = tile__common_dtype(ab, c);
    if (!tile__is_float(dt)) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_fma: floats only (got %s)", tile__tys(a, s));
    }
    tile__type sh, sh2;
    if (!tile__bshape_err(file, line, "tl_fma", a, b, &sh)) return tile__poison;
    if (!tile__bshape(&sh, tile__ty(c), &sh2)) return tile__berr(TILE_ERR_SHAPE, file, line, "tl_fma: shapes do not broadcast");
    if (!tile__check_shape(file, line, "tl_fma", &sh2)) return tile__poison;
    int ops[3] = {tile__bcast(tile__cast(a, dt, file, line), &sh2, file, line), tile__bcast(tile__cast(b, dt, file, line), &sh2, file, line),
                  tile__bcast(tile__cast(c, dt, file, line), &sh2, file, line)};
    return tile__mk(tile__emit1(TILE__OP_FMA, ops, 3, *tile__ty(ops[0]), file, line));
}
/* Triton's clamp is max then min: maxnum and minnum without .propagate_nan (a
   NaN x gives lo), llvm.maximum and llvm.minimum with it (on sm_80 and later,
   where a NaN bound wins too). Here MAX then MIN, or MAX_NAN then MIN_NAN: the
   ops tl_maximum and tl_minimum make. Triton takes only PropagateNan.NONE and
   ALL; 1 is ALL here too, as for tl_maximum. */
static tl_t tile__clamp(const char *file, int line, tl_t xv, tl_t lov, tl_t hiv, tl_minmax_args o) {
    int x = tile__use(file, line, "tl_clamp", xv), lo = tile__use(file, line, "tl_clamp", lov), hi = tile__use(file, line, "tl_clamp", hiv);
    if (!x || !lo || !hi) return tile__poison;
    if (!tile__nan_option(file, line, "tl_clamp", &o.propagate_nan)) return tile__poison;
    return tile__minmax(file, line, "tl_clamp", 0, tile__minmax(file, line, "tl_clamp", 1, xv, lov, o), hiv, o);
}
tl_t tl_clamp_at(const char *file, int line, tl_t x, tl_t lo, tl_t hi) {
    tl_minmax_args o;
    memset(&o, 0, sizeof o);
    return tile__clamp(file, line, x, lo, hi, o);
}
tl_t tl_clamp_opts_at(const char *file, int line, tl_t x, tl_t lo, tl_t hi, tl_minmax_args o) { return tile__clamp(file, line, x, lo, hi, o); }
tl_t tl__clamp_stk(const char *file, int line, tl_minmax_args o) {
    tl_t hi = tile__pop(file, line), lo = tile__pop(file, line), x = tile__pop(file, line);
    return tile__clamp(file, line, x, lo, hi, o);
}

static int tile__dtype_ok(const char *file, int line, const char *op, tl_dtype dt) {
    if (dt > TL_VOID && dt < TL_PTR) return 1;
    tile__berr(TILE_ERR_DTYPE, file, line, "%s: %d is not a value dtype (use TL_I32, TL_F16, ...)", op, (int)dt);
    return 0;
}
tl_t tl_cast_at(const char *file, int line, tl_t xv, tl_dtype dt) {
    int x = tile__use(file, line, "tl_cast", xv);
    if (!x || !tile__dtype_ok(file, line, "tl_cast", dt)) return tile__poison;
    if (tile__is_ptr(tile__dty(x))) return tile__berr(TILE_ERR_DTYPE, file, line, "tl_cast: a pointer is not a value to convert (tl_ptr_cast gives it another pointee)");
    return tile__mk(tile__cast(x, dt, file, line));
}
tl_t tl_bitcast_at(const char *file, int line, tl_t xv, tl_dtype dt) {
    int x = tile__use(file, line, "tl_bitcast", xv);
    if (!x || !tile__dtype_ok(file, line, "tl_bitcast", dt)) return tile__poison;
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    tl_dtype from = tile__dty(x);
    if (from == TL_PTR || from == TL_I1 || dt == TL_I1 || tile__dt[from].bits != tile__dt[dt].bits) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_bitcast: %s and %s differ in width", tile__tys(x, s), tile_dtype_name(dt));
    }
    if (from == dt) return tile__mk(x);
    return tile__mk(tile__emit1(TILE__OP_BITCAST, &x, 1, tile__with_dtype(*tile__ty(x), dt), file, line));
}

tl_t tl_ptr_cast_at(const char *file, int line, tl_t pv, tl_dtype dt) {
    int p = tile__use(file, line, "tl_ptr_cast", pv);
    if (!p || !tile__dtype_ok(file, line, "tl_ptr_cast", dt)) return tile__poison;
    if (tile__dty(p) != TL_PTR) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_ptr_cast: %s is not a pointer (tl_cast converts values)", tile__tys(p, s));
    }
    if (tile__ty(p)->elem == dt) return tile__mk(p);
    tile__type t = *tile__ty(p);
    t.elem = dt;
    return tile__mk(tile__emit1(TILE__OP_BITCAST, &p, 1, t, file, line));
}

/* ---- creation ------------------------------------------------------------------------- */
tl_shape tl__shape(int n, ...) {
    tl_shape s;
    memset(&s, 0, sizeof s);
    va_list ap;
    va_start(ap, n);
    s.rank = n;
    for (int k = 0; k < n; k++) {
        int d = va_arg(ap, int);
        if (k < TL_MAX_RANK) s.dim[k] = d;
    }
    va_end(ap);
    return s;
}
static int tile__shape_in(const char *file, int line, const char *op, tl_shape s, tile__type *t) {
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "%s called outside a kernel body being built", op); return 0; }
    if (s.rank < 0 || s.rank > TL_MAX_RANK) {
        tile__berr(TILE_ERR_SHAPE, file, line, "%s: %d dims, at most %d are supported", op, s.rank, TL_MAX_RANK);
        return 0;
    }
    t->rank = s.rank;
    for (int d = 0; d < s.rank; d++) t->shape[d] = s.dim[d];
    return tile__check_shape(file, line, op, t);
}
static int tile__axis_ok(const char *file, int line, const char *op, int axis) {
    if (axis >= 0 && axis <= 2) return 1;
    tile__berr(TILE_ERR_AXIS, file, line, "%s: axis must be 0, 1 or 2 (got %d)", op, axis);
    return 0;
}
tl_t tl_program_id_at(const char *file, int line, int axis) {
    if (!tile__b) return tile__berr(TILE_ERR_CONTEXT, file, line, "tl_program_id called outside a kernel body being built");
    if (!tile__axis_ok(file, line, "tl_program_id", axis)) return tile__poison;
    int r = tile__emit1(TILE__OP_PROGRAM_ID, NULL, 0, tile__scalar_type(TL_I32), file, line);
    tile__defop(r)->i[0] = axis;
    return tile__mk(r);
}
tl_t tl_num_programs_at(const char *file, int line, int axis) {
    if (!tile__b) return tile__berr(TILE_ERR_CONTEXT, file, line, "tl_num_programs called outside a kernel body being built");
    if (!tile__axis_ok(file, line, "tl_num_programs", axis)) return tile__poison;
    int r = tile__emit1(TILE__OP_NUM_PROGRAMS, NULL, 0, tile__scalar_type(TL_I32), file, line);
    tile__defop(r)->i[0] = axis;
    return tile__mk(r);
}
tl_t tl_arange_at(const char *file, int line, int start, int end) {
    if (!tile__b) return tile__berr(TILE_ERR_CONTEXT, file, line, "tl_arange called outside a kernel body being built");
    long long n = (long long)end - start;
    if (n <= 0 || !tile__is_pow2(n))
        return tile__berr(TILE_ERR_BLOCK, file, line, "tl_arange(%d, %d): the length end - start must be a positive power of two", start, end);
    if (n > TILE__MAX_NUMEL)
        return tile__berr(TILE_ERR_BLOCK, file, line, "tl_arange(%d, %d): %lld elements, more than the limit of %d", start, end, n, TILE__MAX_NUMEL);
    tile__type t = tile__scalar_type(TL_I32);
    t.rank = 1;
    t.shape[0] = (int)n;
    if (!tile__check_shape(file, line, "tl_arange", &t)) return tile__poison;
    int r = tile__emit1(TILE__OP_ARANGE, NULL, 0, t, file, line);
    tile__defop(r)->i[0] = start;
    tile__defop(r)->i[1] = end;
    return tile__mk(r);
}
tl_t tl_full_at(const char *file, int line, tl_dtype dt, tl_t value, tl_shape shape) {
    tile__type t = tile__scalar_type(dt);
    if (!tile__shape_in(file, line, "tl_full", shape, &t)) return tile__poison;
    int v = tile__use(file, line, "tl_full", value);
    if (!v || !tile__dtype_ok(file, line, "tl_full", dt) || !tile__check_num(file, line, "tl_full", v)) return tile__poison;
    if (tile__ty(v)->rank != 0) {
        char s[96];
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_full: the value must be a scalar, not %s", tile__tys(v, s));
    }
    return tile__mk(tile__bcast(tile__cast(v, dt, file, line), &t, file, line));
}
tl_t tl_zeros_like_at(const char *file, int line, tl_t xv) {
    int x = tile__use(file, line, "tl_zeros_like", xv);
    if (!x || !tile__check_num(file, line, "tl_zeros_like", x)) return tile__poison;
    tile__type t = *tile__ty(x);
    int z = tile__is_float(t.dtype) ? tile__const_f(t.dtype, 0, file, line) : tile__const_i(t.dtype, 0, file, line);
    return tile__mk(tile__bcast(z, &t, file, line));
}
tl_t tl_full_like_at(const char *file, int line, tl_t xv, tl_t value) {
    int x = tile__use(file, line, "tl_full_like", xv);
    if (!x || !tile__check_num(file, line, "tl_full_like", x)) return tile__poison;
    tile__type t = *tile__ty(x);
    tl_shape s;
    s.rank = t.rank;
    memcpy(s.dim, t.shape, sizeof s.dim);
    return tl_full_at(file, line, t.dtype, value, s);
}

/* ---- shape ops -------------------------------------------------------------------------- */
tl_t tl_broadcast_to_at(const char *file, int line, tl_t xv, tl_shape shape) {
    tile__type t;
    memset(&t, 0, sizeof t);
    if (!tile__shape_in(file, line, "tl_broadcast_to", shape, &t)) return tile__poison;
    int x = tile__use(file, line, "tl_broadcast_to", xv);
    if (!x) return tile__poison;
    const tile__type *xt = tile__ty(x);
    tile__type out;
    char s1[96], s2[96];
    if (xt->rank > t.rank || !tile__bshape(xt, &t, &out) || !tile__same_shape(&out, &t))
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_broadcast_to: shape %s cannot be broadcast to %s", tile__shape_str(xt, s1, sizeof s1),
                          tile__shape_str(&t, s2, sizeof s2));
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    return tile__mk(tile__bcast(x, &t, file, line));
}
void tl_broadcast_at(const char *file, int line, tl_t av, tl_t bv, tl_t *pa, tl_t *pb) {
    *pa = *pb = tile__poison;
    int a = tile__use(file, line, "tl_broadcast", av), b = tile__use(file, line, "tl_broadcast", bv);
    tile__type sh;
    if (!a || !b || !tile__bshape_err(file, line, "tl_broadcast", a, b, &sh)) return;
    *pa = tile__mk(tile__bcast(a, &sh, file, line));
    *pb = tile__mk(tile__bcast(b, &sh, file, line));
}
tl_t tl_expand_dims_at(const char *file, int line, tl_t xv, int axis) {
    int x = tile__use(file, line, "tl_expand_dims", xv);
    if (!x) return tile__poison;
    tile__type t = *tile__ty(x);
    if (axis < 0) axis += t.rank + 1;
    if (axis < 0 || axis > t.rank || t.rank + 1 > TL_MAX_RANK)
        return tile__berr(TILE_ERR_AXIS, file, line, "tl_expand_dims: axis %d is out of range for rank %d", axis, t.rank);
    for (int d = t.rank; d > axis; d--) t.shape[d] = t.shape[d - 1];
    t.shape[axis] = 1;
    t.rank++;
    int r = tile__emit1(TILE__OP_EXPAND_DIMS, &x, 1, t, file, line);
    tile__defop(r)->i[0] = axis;
    return tile__mk(r);
}
tl_t tl_reshape_at(const char *file, int line, tl_t xv, tl_shape shape) {
    tile__type t;
    memset(&t, 0, sizeof t);
    if (!tile__shape_in(file, line, "tl_reshape", shape, &t)) return tile__poison;
    int x = tile__use(file, line, "tl_reshape", xv);
    if (!x) return tile__poison;
    if (tile__numel(tile__ty(x)) != tile__numel(&t)) {
        char s1[96], s2[96];
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_reshape: %s has %d elements, %s has %d", tile__shape_str(tile__ty(x), s1, sizeof s1),
                          tile__numel(tile__ty(x)), tile__shape_str(&t, s2, sizeof s2), tile__numel(&t));
    }
    tile__type rt = *tile__ty(x);
    rt.rank = t.rank;
    memcpy(rt.shape, t.shape, sizeof rt.shape);
    if (tile__same_shape(&rt, tile__ty(x))) return tile__mk(x);
    return tile__mk(tile__emit1(TILE__OP_RESHAPE, &x, 1, rt, file, line));
}
tl_t tl_ravel_at(const char *file, int line, tl_t xv) {
    int x = tile__use(file, line, "tl_ravel", xv);
    if (!x) return tile__poison;
    return tl_reshape_at(file, line, xv, tl__shape(1, tile__numel(tile__ty(x))));
}
tl_t tl_permute_at(const char *file, int line, tl_t xv, tl_shape order) {
    int x = tile__use(file, line, "tl_permute", xv);
    if (!x) return tile__poison;
    const tile__type *xt = tile__ty(x);
    int seen[TL_MAX_RANK] = {0};
    if (order.rank != xt->rank)
        return tile__berr(TILE_ERR_ARITY, file, line, "tl_permute: %d dims given for a tile of rank %d", order.rank, xt->rank);
    for (int d = 0; d < order.rank; d++) {
        int o = order.dim[d];
        if (o < 0) o += xt->rank;
        if (o < 0 || o >= xt->rank || seen[o]++)
            return tile__berr(TILE_ERR_AXIS, file, line, "tl_permute: the order is not a permutation of 0..%d", xt->rank - 1);
        order.dim[d] = o;
    }
    tile__type rt = *xt;
    for (int d = 0; d < rt.rank; d++) rt.shape[d] = xt->shape[order.dim[d]];
    int r = tile__emit1(TILE__OP_PERMUTE, &x, 1, rt, file, line);   /* xt is stale from here */
    for (int d = 0; d < rt.rank; d++) tile__defop(r)->i[d] = order.dim[d];
    return tile__mk(r);
}
tl_t tl_trans_at(const char *file, int line, tl_t xv) {
    int x = tile__use(file, line, "tl_trans", xv);
    if (!x) return tile__poison;
    tl_shape o;
    memset(&o, 0, sizeof o);
    o.rank = tile__ty(x)->rank;
    for (int d = 0; d < o.rank; d++) o.dim[d] = o.rank - 1 - d;
    return tl_permute_at(file, line, xv, o);
}
/* a and b to one dtype and one (identical) shape, for cat/join */
static int tile__same2(const char *file, int line, const char *op, int *a, int *b) {
    if (tile__is_ptr(tile__dty(*a)) != tile__is_ptr(tile__dty(*b)))
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: cannot combine a pointer with a number", op), 0;
    tl_dtype dt = tile__is_ptr(tile__dty(*a)) ? TL_PTR : tile__common_dtype(*a, *b);
    if (dt == TL_PTR && tile__ty(*a)->elem != tile__ty(*b)->elem)
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: pointers to different dtypes", op), 0;
    return dt == TL_PTR ? 1 : tile__unify(file, line, op, a, b, dt);
}
tl_t tl_cat_at(const char *file, int line, tl_t av, tl_t bv) {
    int a = tile__use(file, line, "tl_cat", av), b = tile__use(file, line, "tl_cat", bv);
    if (!a || !b || !tile__same2(file, line, "tl_cat", &a, &b)) return tile__poison;
    tile__type t = *tile__ty(a);
    if (t.rank == 0 || !tile__same_shape(&t, tile__ty(b))) {
        char s1[96], s2[96];
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_cat: shapes %s and %s must be equal and not scalars",
                          tile__shape_str(&t, s1, sizeof s1), tile__shape_str(tile__ty(b), s2, sizeof s2));
    }
    t.shape[0] *= 2;
    if (!tile__check_shape(file, line, "tl_cat", &t)) return tile__poison;
    int ops[2] = {a, b};
    return tile__mk(tile__emit1(TILE__OP_CAT, ops, 2, t, file, line));
}
tl_t tl_join_at(const char *file, int line, tl_t av, tl_t bv) {
    int a = tile__use(file, line, "tl_join", av), b = tile__use(file, line, "tl_join", bv);
    if (!a || !b || !tile__same2(file, line, "tl_join", &a, &b)) return tile__poison;
    tile__type t = *tile__ty(a);
    if (!tile__same_shape(&t, tile__ty(b))) return tile__berr(TILE_ERR_SHAPE, file, line, "tl_join: shapes differ");
    if (t.rank + 1 > TL_MAX_RANK) return tile__berr(TILE_ERR_SHAPE, file, line, "tl_join: too many dims");
    t.shape[t.rank++] = 2;
    if (!tile__check_shape(file, line, "tl_join", &t)) return tile__poison;
    int ops[2] = {a, b};
    return tile__mk(tile__emit1(TILE__OP_JOIN, ops, 2, t, file, line));
}
void tl_split_at(const char *file, int line, tl_t xv, tl_t *pa, tl_t *pb) {
    *pa = *pb = tile__poison;
    int x = tile__use(file, line, "tl_split", xv);
    if (!x) return;
    tile__type t = *tile__ty(x);
    if (t.rank == 0 || t.shape[t.rank - 1] != 2) {
        char s[96];
        tile__berr(TILE_ERR_SHAPE, file, line, "tl_split: the last dim must be 2 (shape %s)", tile__shape_str(&t, s, sizeof s));
        return;
    }
    t.rank--;
    tile__type rts[2] = {t, t};
    int op = tile__emit(TILE__OP_SPLIT, &x, 1, rts, 2, file, line);
    *pa = tile__mk(tile__b->f->ops[op].res);
    *pb = tile__mk(tile__b->f->ops[op].res + 1);
}
tl_t tl_interleave_at(const char *file, int line, tl_t a, tl_t b) {
    tl_t j = tl_join_at(file, line, a, b);
    if (j.id <= 0) return tile__poison;
    tile__type t = *tile__ty(j.id);
    if (t.rank < 2) return j;   /* two scalars: [a, b], as Triton */
    tl_shape s;
    s.rank = t.rank - 1;
    memcpy(s.dim, t.shape, sizeof s.dim);
    s.dim[s.rank - 1] *= 2;
    return tl_reshape_at(file, line, j, s);
}

/* ---- memory ------------------------------------------------------------------------------ */
static int tile__ptr_operand(const char *file, int line, const char *op, tl_t pv) {
    int p = tile__use(file, line, op, pv);
    if (!p) return 0;
    if (!tile__is_ptr(tile__dty(p))) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: the first operand must be a pointer (or a tile of pointers), not %s", op, tile__tys(p, s));
        return 0;
    }
    return p;
}
/* Masks, values and `other` go onto the pointers' shape, never the other
   way (as Triton's): a scalar pointer with a tile value is an error, not 64
   lanes hitting one address. 0 after an error. */
static int tile__onto(const char *file, int line, const char *op, const char *what, int id, const tile__type *ptr) {
    tile__type out;
    if (tile__bshape(tile__ty(id), ptr, &out) && tile__same_shape(&out, ptr)) return 1;
    char s1[96], s2[96];
    tile__berr(TILE_ERR_SHAPE, file, line, "%s: %s shape %s does not broadcast to the pointers' shape %s%s", op, what,
               tile__shape_str(tile__ty(id), s1, sizeof s1), tile__shape_str(ptr, s2, sizeof s2),
               ptr->rank == 0 ? " (the pointer is a scalar: offset it by a tile to address several elements)" : "");
    return 0;
}
/* mask (optional) as an i1 of the pointers' shape; -1 on error, 0 when absent */
static int tile__mask(const char *file, int line, const char *op, tl_t mv, tile__type *sh) {
    if (mv.id == 0) return 0;
    int m = tile__use(file, line, op, mv);
    if (!m) return -1;
    if (tile__dty(m) != TL_I1) {   /* Triton: "Mask must have boolean scalar type" */
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: the mask must be i1 (a comparison), not %s", op, tile__tys(m, s));
        return -1;
    }
    if (!tile__onto(file, line, op, "mask", m, sh)) return -1;
    return tile__truth(m, file, line);
}
tl_t tl_load_at(const char *file, int line, tl_t pv, tl_load_args o) {
    int p = tile__ptr_operand(file, line, "tl_load", pv);
    if (!p) return tile__poison;
    if (o.boundary_check || o.padding_option)
        return tile__berr(TILE_ERR_VALUE, file, line, "tl_load: `%s` is for block pointers (tl_make_block_ptr); through a tile of pointers give a `mask` and `other`",
                          o.boundary_check ? "boundary_check" : "padding_option");
    tile__type sh = *tile__ty(p);
    int m = tile__mask(file, line, "tl_load", o.mask, &sh);
    if (m < 0) return tile__poison;
    if (!m && (o.other_v.id != 0 || o.other != 0))
        return tile__berr(TILE_ERR_VALUE, file, line, "tl_load: `other` is given without a `mask` (as in Triton, it would never be used)");
    tl_dtype et = tile__ty(p)->elem;
    int other = 0;
    if (o.other_v.id != 0) {
        other = tile__use(file, line, "tl_load", o.other_v);
        if (!other || !tile__check_num(file, line, "tl_load", other)) return tile__poison;
        if (!tile__onto(file, line, "tl_load", "`other`", other, &sh)) return tile__poison;
        other = tile__cast(other, et, file, line);
    } else if (m) {
        tile__elem x;
        x.f = o.other;
        x = tile__convert(TL_F64, et, x);   /* saturates: .other = -INFINITY on ints is their minimum */
        other = tile__is_float(et) ? tile__const_f(et, x.f, file, line) : tile__const_i(et, x.i, file, line);
    }
    if (!tile__check_shape(file, line, "tl_load", &sh)) return tile__poison;
    int ops[3] = {tile__bcast(p, &sh, file, line), m ? tile__bcast(m, &sh, file, line) : 0, other ? tile__bcast(other, &sh, file, line) : 0};
    tile__type rt = tile__with_dtype(sh, et);
    int r = tile__emit1(TILE__OP_LOAD, ops, 3, rt, file, line);
    tile__op *op = tile__defop(r);
    op->i[0] = o.cache;
    op->i[1] = o.eviction;
    op->i[2] = o.is_volatile;
    return tile__mk(r);
}
void tl_store_at(const char *file, int line, tl_t pv, tl_t vv, tl_store_args o) {
    int p = tile__ptr_operand(file, line, "tl_store", pv);
    int v = tile__use(file, line, "tl_store", vv);
    if (!p || !v || !tile__check_num(file, line, "tl_store", v)) return;
    if (o.boundary_check) {
        tile__berr(TILE_ERR_VALUE, file, line, "tl_store: `boundary_check` is for block pointers (tl_make_block_ptr); through a tile of pointers give a `mask`");
        return;
    }
    tile__type sh = *tile__ty(p);
    if (!tile__onto(file, line, "tl_store", "value", v, &sh)) return;
    int m = tile__mask(file, line, "tl_store", o.mask, &sh);
    if (m < 0 || !tile__check_shape(file, line, "tl_store", &sh)) return;
    int ops[3] = {tile__bcast(p, &sh, file, line), tile__bcast(tile__cast(v, tile__ty(p)->elem, file, line), &sh, file, line),
                  m ? tile__bcast(m, &sh, file, line) : 0};
    int op = tile__emit(TILE__OP_STORE, ops, 3, NULL, 0, file, line);
    tile__b->f->ops[op].i[0] = o.cache;
    tile__b->f->ops[op].i[1] = o.eviction;
}

static const char *const tile__atomic_names[] = {"tl_atomic_add", "tl_atomic_max", "tl_atomic_min", "tl_atomic_and",
                                                 "tl_atomic_or", "tl_atomic_xor", "tl_atomic_xchg"};
tl_t tl_atomic_at(const char *file, int line, tl_atomic_op kind, tl_t pv, tl_t vv, tl_atomic_args o) {
    const char *name = (unsigned)kind <= TL_ATOMIC_XCHG ? tile__atomic_names[kind] : "tl_atomic";
    int p = tile__ptr_operand(file, line, name, pv);
    int v = tile__use(file, line, name, vv);
    if (!p || !v || !tile__check_num(file, line, name, v)) return tile__poison;
    if ((unsigned)kind > TL_ATOMIC_XCHG) return tile__berr(TILE_ERR_VALUE, file, line, "tl_atomic: unknown operation %d", (int)kind);
    tl_dtype et = tile__ty(p)->elem;
    int bits = tile__dt[et].bits;
    int ok = kind == TL_ATOMIC_XCHG ? (bits >= 16 || tile__is_int(et)) && et != TL_I1
           : kind == TL_ATOMIC_ADD || kind == TL_ATOMIC_MAX || kind == TL_ATOMIC_MIN
               ? (tile__is_int(et) && et != TL_I1 && bits >= 32) || et == TL_F16 || et == TL_BF16 || et == TL_F32 || et == TL_F64
               : tile__is_int(et) && et != TL_I1 && bits >= 32;
    if (!ok) return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not supported on pointers to %s", name, tile_dtype_name(et));
    tile__type sh = *tile__ty(p);
    if (!tile__onto(file, line, name, "value", v, &sh)) return tile__poison;
    int m = tile__mask(file, line, name, o.mask, &sh);
    if (m < 0 || !tile__check_shape(file, line, name, &sh)) return tile__poison;
    int ops[3] = {tile__bcast(p, &sh, file, line), tile__bcast(tile__cast(v, et, file, line), &sh, file, line),
                  m ? tile__bcast(m, &sh, file, line) : 0};
    int r = tile__emit1(TILE__OP_ATOMIC, ops, 3, tile__with_dtype(sh, et), file, line);
    tile__op *op = tile__defop(r);
    op->i[0] = kind;
    op->i[1] = o.sem;
    op->i[2] = o.scope;
    return tile__mk(r);
}
tl_t tl_atomic_cas_at(const char *file, int line, tl_t pv, tl_t cv, tl_t vv, tl_atomic_args o) {
    int p = tile__ptr_operand(file, line, "tl_atomic_cas", pv);
    int c = tile__use(file, line, "tl_atomic_cas", cv), v = tile__use(file, line, "tl_atomic_cas", vv);
    if (!p || !c || !v || !tile__check_num(file, line, "tl_atomic_cas", c) || !tile__check_num(file, line, "tl_atomic_cas", v))
        return tile__poison;
    tl_dtype et = tile__ty(p)->elem;
    if (tile__dt[et].bits < 16 || et == TL_BF16)
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_atomic_cas: not supported on pointers to %s", tile_dtype_name(et));
    if (o.mask.id) return tile__berr(TILE_ERR_VALUE, file, line, "tl_atomic_cas takes no mask (as Triton's)");
    tile__type s2 = *tile__ty(p);
    if (!tile__onto(file, line, "tl_atomic_cas", "cmp", c, &s2) || !tile__onto(file, line, "tl_atomic_cas", "value", v, &s2))
        return tile__poison;
    int ops[3] = {tile__bcast(p, &s2, file, line), tile__bcast(tile__cast(c, et, file, line), &s2, file, line),
                  tile__bcast(tile__cast(v, et, file, line), &s2, file, line)};
    int r = tile__emit1(TILE__OP_ATOMIC_CAS, ops, 3, tile__with_dtype(s2, et), file, line);
    tile__defop(r)->i[1] = o.sem;
    tile__defop(r)->i[2] = o.scope;
    return tile__mk(r);
}

/* ---- tensor descriptors ----------------------------------------------------------------------
   MAKE_DESC holds base, shape and strides as operands and the block shape as
   attributes; its value (a TL_DESC scalar) is used by DESC_LOAD and
   DESC_STORE only. Its operands must be kernel parameters or constants: the
   GPU's copy engine needs the descriptor encoded before the kernel starts,
   and the host does that at launch from the arguments. */
static const char *const tile__desc_store_names[] = {"tl_desc_atomic_add", "tl_desc_atomic_max", "tl_desc_atomic_min"};
static int tile__is_param_or_const(int id) {
    const tile__func *f = tile__b->f;
    const tile__value *v = &f->vals[id];
    if (v->def < 0) return tile__param_of(f, id) >= 0;
    return f->ops[v->def].code == TILE__OP_CONST;
}
/* an integer scalar that is a parameter or a constant, weak literals typed; 0 after an error */
static int tile__desc_scalar(const char *file, int line, const char *what, int d, tl_t xv) {
    int x = tile__use(file, line, "tl_make_tensor_descriptor", xv);
    if (!x) return 0;
    char s[96];
    if (!tile__is_int(tile__dty(x)) || tile__dty(x) == TL_I1 || tile__ty(x)->rank != 0) {
        tile__berr(TILE_ERR_DTYPE, file, line, "tl_make_tensor_descriptor: %s %d must be an integer scalar, not %s", what, d, tile__tys(x, s));
        return 0;
    }
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    if (!tile__is_param_or_const(x)) {
        tile__berr(TILE_ERR_VALUE, file, line,
                   "tl_make_tensor_descriptor: %s %d is computed in the kernel; a descriptor's base, shape and strides must be kernel "
                   "parameters or constants, so that the host can encode it when it launches the kernel (pass the value as a parameter)",
                   what, d);
        return 0;
    }
    return x;
}
tl_t tl_make_tensor_descriptor_at(const char *file, int line, tl_t basev, int n, const tl_t *shape, int nstrides, const tl_t *strides, tl_shape block) {
    static const char *op = "tl_make_tensor_descriptor";
    int ops[1 + 2 * TL_MAX_RANK];
    int b = tile__ptr_operand(file, line, op, basev);
    if (!b) return tile__poison;
    char s[96];
    if (tile__ty(b)->rank != 0)
        return tile__berr(TILE_ERR_SHAPE, file, line, "%s: the base must be a scalar pointer (the tensor's first element), not %s", op, tile__tys(b, s));
    if (!tile__is_param_or_const(b))
        return tile__berr(TILE_ERR_VALUE, file, line,
                          "%s: the base is computed in the kernel; it must be a pointer parameter as passed (offset the block with the "
                          "offsets of tl_desc_load, or pass the offset pointer as a parameter), so that the host can encode the descriptor at launch",
                          op);
    tl_dtype et = tile__ty(b)->elem;
    if (et == TL_I1) return tile__berr(TILE_ERR_DTYPE, file, line, "%s: descriptors of i1 are not supported (use i8 or u8)", op);
    if (n < 1 || n > TL_MAX_RANK || nstrides != n || block.rank != n)
        return tile__berr(TILE_ERR_ARITY, file, line, "%s: %d shape dims, %d strides and %d block dims; a descriptor has one of each per dim, 1 to %d dims", op,
                          n, nstrides, block.rank, TL_MAX_RANK);
    int es = (int)tile__dt[et].bytes, numel = 1;
    for (int d = 0; d < n; d++) {
        if (!tile__is_pow2(block.dim[d]) || block.dim[d] > 256)
            return tile__berr(TILE_ERR_BLOCK, file, line, "%s: block dim %d is %d; each must be a power of two of at most 256 (the copy engine's box)", op, d,
                              block.dim[d]);
        numel *= block.dim[d];
    }
    if (block.dim[n - 1] * es < 16)
        return tile__berr(TILE_ERR_BLOCK, file, line, "%s: the innermost block dim is %d x %d-byte %s = %d bytes; it must be at least 16 bytes (the copy engine's "
                          "unit)", op, block.dim[n - 1], es, tile_dtype_name(et), block.dim[n - 1] * es);
    if (numel > TILE__MAX_NUMEL) return tile__berr(TILE_ERR_BLOCK, file, line, "%s: a block of %d elements; at most %d", op, numel, TILE__MAX_NUMEL);
    ops[0] = b;
    for (int d = 0; d < n; d++)
        if (!(ops[1 + d] = tile__desc_scalar(file, line, "shape dim", d, shape[d]))) return tile__poison;
    for (int d = 0; d < n; d++)
        if (!(ops[1 + n + d] = tile__desc_scalar(file, line, "stride", d, strides[d]))) return tile__poison;
    const tile__op *last = tile__defop(ops[2 * n]);
    if (!last || last->code != TILE__OP_CONST || last->i[0] != 1)
        return tile__berr(TILE_ERR_VALUE, file, line, "%s: the last stride must be the constant 1 (the innermost dim contiguous, as Triton's)", op);
    tile__type t = tile__scalar_type(TL_DESC);
    t.elem = et;
    int r = tile__emit1(TILE__OP_MAKE_DESC, ops, 1 + 2 * n, t, file, line);
    tile__op *o = tile__defop(r);
    for (int d = 0; d < n; d++) o->i[d] = block.dim[d];
    return tile__mk(r);
}
/* the descriptor and its offsets as i32 scalars into ops[0..n]; 0 after an error */
static int tile__desc_access(const char *file, int line, const char *op, tl_t dv, int n, const tl_t *offs, int *ops, tile__type *block) {
    tile__builder *b = tile__b;
    if (b) b->desc_ok = 1;
    int d = tile__use(file, line, op, dv);
    if (b) b->desc_ok = 0;
    if (!d) return 0;
    char s[96];
    if (tile__dty(d) != TL_DESC) {
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: the first operand must be a tensor descriptor (tl_make_tensor_descriptor), not %s", op, tile__tys(d, s));
        return 0;
    }
    const tile__op *md = tile__defop(d);
    if (!md || md->code != TILE__OP_MAKE_DESC) {
        tile__berr(TILE_ERR_INTERNAL, file, line, "%s: a descriptor not made by tl_make_tensor_descriptor", op);
        return 0;
    }
    int rank = (md->nopnd - 1) / 2;
    if (n != rank) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d offsets for a descriptor of %d dims (made at line %d)", op, n, rank, md->line);
        return 0;
    }
    *block = tile__scalar_type(tile__ty(d)->elem);
    block->rank = rank;
    for (int k = 0; k < rank; k++) block->shape[k] = (int)md->i[k];
    ops[0] = d;
    for (int k = 0; k < n; k++) {
        int x = tile__use(file, line, op, offs[k]);
        if (!x) return 0;
        tl_dtype t = tile__dty(x);
        if (!tile__is_int(t) || t == TL_I1 || tile__ty(x)->rank != 0 || (!b->f->vals[x].weak && tile__dt[t].bits > 32)) {
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: offset %d must be an integer scalar of at most 32 bits (the copy engine's coordinates are i32), not %s",
                       op, k, tile__tys(x, s));
            return 0;
        }
        ops[1 + k] = tile__cast(x, TL_I32, file, line);
    }
    return 1;
}
tl_t tl_desc_load_at(const char *file, int line, tl_t dv, int n, const tl_t *offs) {
    int ops[1 + TL_MAX_RANK];
    tile__type bt;
    if (n < 0 || n > TL_MAX_RANK) return tile__berr(TILE_ERR_ARITY, file, line, "tl_desc_load: %d offsets; a descriptor has 1 to %d dims", n, TL_MAX_RANK);
    if (!tile__desc_access(file, line, "tl_desc_load", dv, n, offs, ops, &bt)) return tile__poison;
    return tile__mk(tile__emit1(TILE__OP_DESC_LOAD, ops, 1 + n, bt, file, line));
}
void tl_desc_store_at(const char *file, int line, int kind, tl_t dv, int n, const tl_t *offs, tl_t vv) {
    const char *op = kind < 0 ? "tl_desc_store" : kind <= TL_ATOMIC_MIN ? tile__desc_store_names[kind] : "tl_desc_atomic";
    int ops[2 + TL_MAX_RANK], io[1 + TL_MAX_RANK];
    tile__type bt, sh;
    if (kind < -1 || kind > TL_ATOMIC_MIN) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: operation %d; descriptors reduce with add, min or max", op, kind);
        return;
    }
    if (n < 0 || n > TL_MAX_RANK) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d offsets; a descriptor has 1 to %d dims", op, n, TL_MAX_RANK);
        return;
    }
    if (!tile__desc_access(file, line, op, dv, n, offs, io, &bt)) return;
    int v = tile__use(file, line, op, vv);
    if (!v || !tile__check_num(file, line, op, v)) return;
    char s1[96], s2[96];
    if (!tile__bshape(tile__ty(v), &bt, &sh) || !tile__same_shape(&sh, &bt)) {
        tile__berr(TILE_ERR_SHAPE, file, line, "%s: the value's shape %s does not broadcast to the descriptor's block %s", op,
                   tile__shape_str(tile__ty(v), s1, sizeof s1), tile__shape_str(&bt, s2, sizeof s2));
        return;
    }
    tl_dtype et = bt.dtype;
    if (kind >= 0) {
        int ok = kind == TL_ATOMIC_ADD ? et == TL_I32 || et == TL_U32 || et == TL_U64 || et == TL_F32 || et == TL_F16 || et == TL_BF16
                                       : et == TL_I32 || et == TL_U32 || et == TL_I64 || et == TL_U64 || et == TL_F16 || et == TL_BF16;
        if (!ok) {
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: not supported on descriptors of %s (the copy engine reduces %s)", op, tile_dtype_name(et),
                       kind == TL_ATOMIC_ADD ? "i32, u32, u64, f32, f16 and bf16" : "i32, u32, i64, u64, f16 and bf16");
            return;
        }
    }
    ops[0] = io[0];
    ops[1] = tile__bcast(tile__cast(v, et, file, line), &bt, file, line);
    for (int k = 0; k < n; k++) ops[2 + k] = io[1 + k];
    int o = tile__emit(TILE__OP_DESC_STORE, ops, 2 + n, NULL, 0, file, line);
    tile__b->f->ops[o].i[0] = kind;
}
tl_t tl__make_desc_stk(const char *file, int line, int n, int nstrides, tl_shape block) {
    tl_t sh[TL_MAX_RANK], st[TL_MAX_RANK];
    if (n < 1 || n > TL_MAX_RANK || nstrides < 1 || nstrides > TL_MAX_RANK) {
        for (int k = 0; k < n + nstrides + 1; k++) tile__pop(file, line);
        return tile__berr(TILE_ERR_ARITY, file, line, "tl_make_tensor_descriptor: %d shape dims and %d strides; a descriptor has 1 to %d dims", n, nstrides,
                          TL_MAX_RANK);
    }
    for (int k = nstrides - 1; k >= 0; k--) st[k] = tile__pop(file, line);
    for (int k = n - 1; k >= 0; k--) sh[k] = tile__pop(file, line);
    tl_t base = tile__pop(file, line);
    return tl_make_tensor_descriptor_at(file, line, base, n, sh, nstrides, st, block);
}
/* ---- libdevice by name ------------------------------------------------------------------ */
/* names that are ops of another name, or not a libm row (nearbyint is rint: libdevice's
   __nv_nearbyintf and __nv_rintf are both cvt.rni) */
static const struct { const char *name; tile__opcode code; } tile__ld_alias[] = {
    {"fabs", TILE__OP_ABS}, {"fmin", TILE__OP_MIN}, {"fmax", TILE__OP_MAX}, {"fmod", TILE__OP_MOD}, {"fma", TILE__OP_FMA},
    {"nearbyint", TILE__OP_RINT},
};
/* libdevice's integer functions (__nv_popc, __nv_popcll, ...: one name for
   every width, as Triton's libdevice dispatches on the dtype). bits 32: the
   ones libdevice has for 32-bit integers only (__nv_hadd of int, __nv_uhadd
   of unsigned: no 64-bit twin), so i32, u32 and C integers; hadd, rhadd,
   mul24 and sad are signed when the dtype is (Triton's hadd of uint32 is
   __nv_uhadd), as mulhi is, their u-named twins always unsigned, as umulhi */
static const struct { const char *name; tile__opcode code; int bits; } tile__ld_int[] = {
    {"popc", TILE__OP_POPC, 0}, {"clz", TILE__OP_CLZ, 0}, {"ffs", TILE__OP_FFS, 0}, {"brev", TILE__OP_BREV, 0},
    {"mulhi", TILE__OP_MULHI, 0}, {"umulhi", TILE__OP_UMULHI, 0},
    {"hadd", TILE__OP_HADD, 32}, {"uhadd", TILE__OP_UHADD, 32}, {"rhadd", TILE__OP_RHADD, 32}, {"urhadd", TILE__OP_URHADD, 32},
    {"mul24", TILE__OP_MUL24, 32}, {"umul24", TILE__OP_UMUL24, 32}, {"sad", TILE__OP_SAD, 32}, {"usad", TILE__OP_USAD, 32},
    {"byte_perm", TILE__OP_BYTE_PERM, 32},
};
/* what[] = the call's name for messages; 0 (after the error) when n is not the op's operand count */
static int tile__ld_arity(const char *file, int line, const char *name, tile__opcode code, int n, char what[96]) {
    snprintf(what, 96, "tl_libdevice(\"%s\")", name);
    if (n == tile__op_nopnd[code]) return 1;
    tile__berr(TILE_ERR_VALUE, file, line, "%s takes %d operand%s, not %d", what, tile__op_nopnd[code], tile__op_nopnd[code] == 1 ? "" : "s", n);
    return 0;
}
/* the 32-bit ones: every operand an i32 or u32 tile, or a C integer that
   fits in 32 bits (a larger one, a float or an i1 would have to be narrowed
   or converted first, silently: the user's to do, with tl_cast) */
static int tile__ld_int32(const char *file, int line, const char *what, int n, const tl_t *args) {
    for (int k = 0; k < n; k++) {
        int x = tile__use(file, line, what, args[k]);
        if (!x) return 0;
        tl_dtype dt = tile__dty(x);
        if (dt != TL_I32 && dt != TL_U32) {
            char s[96];
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (32-bit integers only: i32, u32 or a C integer that fits)", what,
                       tile__tys(x, s));
            return 0;
        }
    }
    return 1;
}
/* sad(a, b, c) and byte_perm(a, b, c): a and b broadcast and promoted as
   tl_add and set the dtype (so the signedness of sad's difference); c, whose
   bits alone count (a sum's term, a selector), is taken in that dtype, as
   Triton's sad takes an int32 a and b with a uint32 c */
static tl_t tile__ld_ternary(const char *file, int line, const char *what, tile__opcode code, const tl_t *args) {
    int a = tile__use(file, line, what, args[0]), b = tile__use(file, line, what, args[1]), c = tile__use(file, line, what, args[2]);
    if (!a || !b || !c) return tile__poison;
    tl_dtype dt = tile__common_dtype(a, b);
    tile__type sh, sh2;
    if (!tile__bshape_err(file, line, what, a, b, &sh)) return tile__poison;
    if (!tile__bshape(&sh, tile__ty(c), &sh2)) {
        char s1[96], s2[96];
        return tile__berr(TILE_ERR_SHAPE, file, line, "%s: the third operand's shape %s does not broadcast with %s", what,
                          tile__shape_str(tile__ty(c), s1, sizeof s1), tile__shape_str(&sh, s2, sizeof s2));
    }
    if (!tile__check_shape(file, line, what, &sh2)) return tile__poison;
    int ops[3] = {tile__bcast(tile__cast(a, dt, file, line), &sh2, file, line), tile__bcast(tile__cast(b, dt, file, line), &sh2, file, line),
                  tile__bcast(tile__cast(c, dt, file, line), &sh2, file, line)};
    return tile__mk(tile__emit1(code, ops, 3, *tile__ty(ops[0]), file, line));
}
static tl_t tile__ld_int_call(const char *file, int line, const char *name, tile__opcode code, int bits, int n, const tl_t *args) {
    char what[96];
    if (!tile__ld_arity(file, line, name, code, n, what)) return tile__poison;
    if (bits == 32 && !tile__ld_int32(file, line, what, n, args)) return tile__poison;
    if (n == 3) return tile__ld_ternary(file, line, what, code, args);
    if (n == 2) return tile__binary(file, line, what, code, args[0], args[1], TILE__A_INT);
    tl_t r = tile__unary(file, line, what, code, args[0], TILE__A_INT);
    int x = r.id;
    /* popc, clz and ffs count bits: an i32, whatever the operand's width (as __nv_popcll's) */
    if (x < 0 || code == TILE__OP_BREV || tile__dty(x) == TL_I32) return r;
    return tile__mk(tile__cast(x, TL_I32, file, line));
}
/* libdevice's rounding-mode functions, by Triton's names: <name>_rn, _rz, _rd
   and _ru, each a row of its op's group (op: the group's _RN row). The
   arithmetic ones (from TL_VOID) take f32 and f64 (libdevice has no narrower
   form), promoted as tl_add's; a conversion takes exactly its `from` dtype
   and gives `to`, and float2uint, float2ull, double2uint and double2ull give
   the unsigned result's bits as an i32 or i64, as Triton declares them.
   rn: the ones libdevice has in round-to-nearest only. */
static const struct { const char *name; tile__opcode op; tl_dtype from, to; int rn; } tile__ld_rnd[] = {
    {"add", TILE__OP_ADD_RN, TL_VOID, TL_VOID, 0},     {"sub", TILE__OP_SUB_RN, TL_VOID, TL_VOID, 0},
    {"mul", TILE__OP_MUL_RN, TL_VOID, TL_VOID, 0},     {"div", TILE__OP_DIV_RN, TL_VOID, TL_VOID, 0},
    {"fma", TILE__OP_FMA_RN, TL_VOID, TL_VOID, 0},     {"rcp", TILE__OP_RCP_RN, TL_VOID, TL_VOID, 0},
    {"sqrt", TILE__OP_SQRT_RN, TL_VOID, TL_VOID, 0},   {"rsqrt", TILE__OP_RSQRT_RN, TL_F32, TL_F32, 1},
    {"double2float", TILE__OP_CVT_RN, TL_F64, TL_F32, 0}, {"double2int", TILE__OP_CVT_RN, TL_F64, TL_I32, 0},
    {"double2uint", TILE__OP_CVT_RN, TL_F64, TL_U32, 0}, {"double2ll", TILE__OP_CVT_RN, TL_F64, TL_I64, 0},
    {"double2ull", TILE__OP_CVT_RN, TL_F64, TL_U64, 0},  {"float2int", TILE__OP_CVT_RN, TL_F32, TL_I32, 0},
    {"float2uint", TILE__OP_CVT_RN, TL_F32, TL_U32, 0},  {"float2ll", TILE__OP_CVT_RN, TL_F32, TL_I64, 0},
    {"float2ull", TILE__OP_CVT_RN, TL_F32, TL_U64, 0},   {"int2float", TILE__OP_CVT_RN, TL_I32, TL_F32, 0},
    {"uint2float", TILE__OP_CVT_RN, TL_U32, TL_F32, 0},  {"ll2float", TILE__OP_CVT_RN, TL_I64, TL_F32, 0},
    {"ull2float", TILE__OP_CVT_RN, TL_U64, TL_F32, 0},   {"ll2double", TILE__OP_CVT_RN, TL_I64, TL_F64, 0},
    {"ull2double", TILE__OP_CVT_RN, TL_U64, TL_F64, 0},  {"int2double", TILE__OP_CVT_RN, TL_I32, TL_F64, 1},
    {"uint2double", TILE__OP_CVT_RN, TL_U32, TL_F64, 1},
};
/* the row of name (in tile__ld_rnd) and its rounding mode, or -1 */
static int tile__ld_rnd_find(const char *name, int *mode) {
    static const char *const modes[4] = {"rn", "rz", "rd", "ru"};
    const char *u = strrchr(name, '_');
    if (!u) return -1;
    for (int k = 0; k < (int)(sizeof tile__ld_rnd / sizeof *tile__ld_rnd); k++) {
        if (strlen(tile__ld_rnd[k].name) != (size_t)(u - name) || strncmp(tile__ld_rnd[k].name, name, (size_t)(u - name)) != 0) continue;
        for (int m = 0; m < (tile__ld_rnd[k].rn ? 1 : 4); m++)
            if (strcmp(u + 1, modes[m]) == 0) return *mode = m, k;
    }
    return -1;
}
/* may C number x be taken as dtype `to`? Any as a float; an integer one as an integer dtype whose range holds it */
static int tile__ld_fits(int x, tl_dtype to) {
    tl_dtype dt = tile__dty(x);
    const tile__op *c = tile__defop(x);
    if (tile__is_float(to)) return 1;
    if (tile__is_float(dt) || !c || c->code != TILE__OP_CONST) return 0;
    long long v = c->i[0];
    if (dt == TL_U64) return to == TL_U64;   /* above INT64_MAX */
    return to == TL_I32 ? v >= INT32_MIN && v <= INT32_MAX : to == TL_U32 ? v >= 0 && v <= (long long)UINT32_MAX : to == TL_I64 || v >= 0;
}
/* the n operands of a libdevice call broadcast to one shape, in dtype dts[k]: ops[k]; 0 after an error */
static int tile__ld_operands(const char *file, int line, const char *what, int n, const int *ids, const tl_dtype *dts, int *ops) {
    tile__type sh = *tile__ty(ids[0]), s2;
    for (int k = 1; k < n; k++) {
        if (!tile__bshape(&sh, tile__ty(ids[k]), &s2)) {
            char s1[96], s3[96];
            tile__berr(TILE_ERR_SHAPE, file, line, "%s: operand %d's shape %s does not broadcast with %s", what, k + 1,
                       tile__shape_str(tile__ty(ids[k]), s1, sizeof s1), tile__shape_str(&sh, s3, sizeof s3));
            return 0;
        }
        sh = s2;
    }
    if (!tile__check_shape(file, line, what, &sh)) return 0;
    for (int k = 0; k < n; k++) ops[k] = tile__bcast(tile__cast(ids[k], dts[k], file, line), &sh, file, line);
    return 1;
}
static tl_t tile__ld_rnd_call(const char *file, int line, const char *name, int k, int mode, int n, const tl_t *args) {
    tile__opcode code = (tile__opcode)(tile__ld_rnd[k].op + mode);
    tl_dtype from = tile__ld_rnd[k].from, to = tile__ld_rnd[k].to, dts[3];
    char what[96], s[96];
    int ids[3], ops[3];
    if (!tile__ld_arity(file, line, name, code, n, what)) return tile__poison;
    for (int i = 0; i < n; i++)
        if (!(ids[i] = tile__use(file, line, what, args[i]))) return tile__poison;
    if (from == TL_VOID) {   /* the arithmetic ones: f32, f64 (either wins) and C numbers */
        from = TL_F32;
        for (int i = 0; i < n; i++) {
            tl_dtype dt = tile__dty(ids[i]);
            if (tile__b->f->vals[ids[i]].weak) continue;
            if (dt != TL_F32 && dt != TL_F64)
                return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (f32 or f64, as libdevice's; cast it first)", what, tile__tys(ids[i], s));
            if (dt == TL_F64) from = TL_F64;
        }
        to = from;
    }
    for (int i = 0; i < n; i++) {
        int x = ids[i];
        if (tile__b->f->vals[x].weak ? !tile__ld_fits(x, from) : tile__dty(x) != from && tile__ld_rnd[k].from != TL_VOID)
            return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (it takes %s%s)", what, tile__tys(x, s), tile_dtype_name(from),
                              tile__is_float(from) ? "" : " or a C integer that fits");
        dts[i] = from;
    }
    if (!tile__ld_operands(file, line, what, n, ids, dts, ops)) return tile__poison;
    int r = tile__emit1(code, ops, n, tile__with_dtype(*tile__ty(ops[0]), to), file, line);
    if (to == TL_U32 || to == TL_U64)   /* Triton's int32 / int64: the same bits */
        r = tile__emit1(TILE__OP_BITCAST, &r, 1, tile__with_dtype(*tile__ty(r), to == TL_U32 ? TL_I32 : TL_I64), file, line);
    return tile__mk(r);
}
/* jn(n, x) and yn(n, x): the order n an i32 (or a C integer that fits), x any float (f16 and bf16
   computed in f32, as the others) or a C number (f32); the result has x's dtype */
static tl_t tile__ld_bessel_n(const char *file, int line, const char *what, tile__opcode code, const tl_t *args) {
    int ids[2] = {tile__use(file, line, what, args[0]), tile__use(file, line, what, args[1])}, ops[2];
    char s[96];
    if (!ids[0] || !ids[1]) return tile__poison;
    if (tile__b->f->vals[ids[0]].weak ? !tile__ld_fits(ids[0], TL_I32) : tile__dty(ids[0]) != TL_I32)
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: the order n is %s (an i32 or a C integer that fits)", what, tile__tys(ids[0], s));
    tl_dtype xt = tile__b->f->vals[ids[1]].weak ? TL_F32 : tile__dty(ids[1]);
    if (!tile__is_float(xt) || tile__is_f8(xt))
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (f16, bf16, f32 or f64; cast it first)", what, tile__tys(ids[1], s));
    tl_dtype dts[2] = {TL_I32, xt};
    if (!tile__ld_operands(file, line, what, 2, ids, dts, ops)) return tile__poison;
    return tile__mk(tile__emit1(code, ops, 2, *tile__ty(ops[1]), file, line));
}
/* libdevice's functions whose dtypes are not one float's (Triton's signatures), each with its
   rule (kind):
     ABS     abs: i32, i64 (wrapping: abs(INT32_MIN) is INT32_MIN, as __nv_abs) or a float
     BITS    exactly `from`, its bits as `to`: int_as_float, ..., float_as_uint (an i32, as
             Triton's), longlong_as_double, double_as_longlong
     HILO    hiloint2double(hi, lo): two i32, the f64 of the bits hi:lo
     HALF    double2loint, double2hiint: an f64's low or high 32 bits, an i32
     CLASS   isnan, isinf (an i1, as Triton's .to(int1)), signbit (an i32, 1 or 0) of any float;
             finitef of an f32, isfinited of an f64 (an i32, 1 or 0)
     TOINT   llrint (float2ll_rn), llround (an i64), ilogb (an i32) of any float, f16 and bf16
             through f32
     SCALE   ldexp(x, n), scalbn(x, n), and pow(x, n) of an i32 n (powi): x any float, n an i32
     EXACT   exactly `from`: saturatef and the fast_* ones (f32), rcp64h (f64)
   A C number is taken in the dtype wanted where it fits (a C float as any float; a C integer as
   an integer dtype that holds it); a C float alone is f32, a C integer an i32 where it fits.
   code: the op a rule emits, or for CLASS the one it is built around (NE: x != x, EQ: |x| ==
   inf, LT: |x| < inf, SHR: the top bit); HALF's SHR: the high half. */
enum { TILE__LDK_ABS, TILE__LDK_BITS, TILE__LDK_HILO, TILE__LDK_HALF, TILE__LDK_CLASS, TILE__LDK_TOINT, TILE__LDK_SCALE, TILE__LDK_EXACT };
static const struct { const char *name; int kind; tile__opcode code; tl_dtype from, to; } tile__ld_more[] = {
    {"abs", TILE__LDK_ABS, TILE__OP_ABS, TL_VOID, TL_VOID},
    {"int_as_float", TILE__LDK_BITS, TILE__OP_BITCAST, TL_I32, TL_F32},
    {"uint_as_float", TILE__LDK_BITS, TILE__OP_BITCAST, TL_U32, TL_F32},
    {"float_as_int", TILE__LDK_BITS, TILE__OP_BITCAST, TL_F32, TL_I32},
    {"float_as_uint", TILE__LDK_BITS, TILE__OP_BITCAST, TL_F32, TL_I32},
    {"longlong_as_double", TILE__LDK_BITS, TILE__OP_BITCAST, TL_I64, TL_F64},
    {"double_as_longlong", TILE__LDK_BITS, TILE__OP_BITCAST, TL_F64, TL_I64},
    {"hiloint2double", TILE__LDK_HILO, TILE__OP_BITCAST, TL_I32, TL_F64},
    {"double2loint", TILE__LDK_HALF, TILE__OP_BITCAST, TL_F64, TL_I32},
    {"double2hiint", TILE__LDK_HALF, TILE__OP_SHR, TL_F64, TL_I32},
    {"isnan", TILE__LDK_CLASS, TILE__OP_NE, TL_VOID, TL_I1},
    {"isinf", TILE__LDK_CLASS, TILE__OP_EQ, TL_VOID, TL_I1},
    {"signbit", TILE__LDK_CLASS, TILE__OP_SHR, TL_VOID, TL_I32},
    {"finitef", TILE__LDK_CLASS, TILE__OP_LT, TL_F32, TL_I32},
    {"isfinited", TILE__LDK_CLASS, TILE__OP_LT, TL_F64, TL_I32},
    {"llrint", TILE__LDK_TOINT, TILE__OP_CVT_RN, TL_VOID, TL_I64},
    {"llround", TILE__LDK_TOINT, TILE__OP_LLROUND, TL_VOID, TL_I64},
    {"ilogb", TILE__LDK_TOINT, TILE__OP_ILOGB, TL_VOID, TL_I32},
    {"ldexp", TILE__LDK_SCALE, TILE__OP_LDEXP, TL_VOID, TL_VOID},
    {"scalbn", TILE__LDK_SCALE, TILE__OP_SCALBN, TL_VOID, TL_VOID},
    {"saturatef", TILE__LDK_EXACT, TILE__OP_SATURATE, TL_F32, TL_F32},
    {"fast_expf", TILE__LDK_EXACT, TILE__OP_FAST_EXP, TL_F32, TL_F32},
    {"fast_logf", TILE__LDK_EXACT, TILE__OP_FAST_LOG, TL_F32, TL_F32},
    {"fast_log2f", TILE__LDK_EXACT, TILE__OP_FAST_LOG2, TL_F32, TL_F32},
    {"fast_log10f", TILE__LDK_EXACT, TILE__OP_FAST_LOG10, TL_F32, TL_F32},
    {"fast_exp10f", TILE__LDK_EXACT, TILE__OP_FAST_EXP10, TL_F32, TL_F32},
    {"fast_sinf", TILE__LDK_EXACT, TILE__OP_FAST_SIN, TL_F32, TL_F32},
    {"fast_cosf", TILE__LDK_EXACT, TILE__OP_FAST_COS, TL_F32, TL_F32},
    {"fast_tanf", TILE__LDK_EXACT, TILE__OP_FAST_TAN, TL_F32, TL_F32},
    {"fast_powf", TILE__LDK_EXACT, TILE__OP_FAST_POW, TL_F32, TL_F32},
    {"fast_dividef", TILE__LDK_EXACT, TILE__OP_FAST_DIV, TL_F32, TL_F32},
    {"rcp64h", TILE__LDK_EXACT, TILE__OP_RCP64H, TL_F64, TL_F64},
};
/* operand x as a float (a C number: f32); 0 after the error */
static int tile__ld_float(const char *file, int line, const char *what, int x) {
    tl_dtype dt = tile__dty(x);
    if (tile__b->f->vals[x].weak) return tile__cast(x, TL_F32, file, line);
    if (!tile__is_float(dt) || tile__is_f8(dt)) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (f16, bf16, f32 or f64; cast it first)", what, tile__tys(x, s));
        return 0;
    }
    return x;
}
/* the n operands, each exactly dtype from[k] or a C number it holds, broadcast to one shape: ops[k]; 0 after the error */
static int tile__ld_exactly(const char *file, int line, const char *what, int n, const int *ids, const tl_dtype *from, int *ops) {
    for (int k = 0; k < n; k++) {
        int x = ids[k];
        if (tile__b->f->vals[x].weak ? !tile__ld_fits(x, from[k]) : tile__dty(x) != from[k]) {
            char s[96];
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (it takes %s%s)", what, tile__tys(x, s), tile_dtype_name(from[k]),
                       tile__is_float(from[k]) ? "" : " or a C integer that fits");
            return 0;
        }
    }
    return tile__ld_operands(file, line, what, n, ids, from, ops);
}
/* ldexp(x, n), scalbn(x, n), powi(x, n): x any float (the result's dtype; a C number: f32), n an i32
   or a C integer that fits */
static int tile__ld_int_exponent(int n) { return tile__b->f->vals[n].weak ? tile__ld_fits(n, TL_I32) : tile__dty(n) == TL_I32; }
static tl_t tile__ld_scale(const char *file, int line, const char *what, tile__opcode code, const int *ids) {
    int x = tile__ld_float(file, line, what, ids[0]), ops[2];
    char s[96];
    if (!x) return tile__poison;
    if (!tile__ld_int_exponent(ids[1]))
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: the exponent n is %s (an i32 or a C integer that fits)", what, tile__tys(ids[1], s));
    int xs[2] = {x, ids[1]};
    tl_dtype dts[2] = {tile__dty(x), TL_I32};
    if (!tile__ld_operands(file, line, what, 2, xs, dts, ops)) return tile__poison;
    return tile__mk(tile__emit1(code, ops, 2, *tile__ty(ops[0]), file, line));
}
static tl_t tile__ld_more_call(const char *file, int line, const char *name, int k, int n, const tl_t *args) {
    tile__opcode code = tile__ld_more[k].code;
    tl_dtype from = tile__ld_more[k].from, to = tile__ld_more[k].to, dts[2] = {from, from};
    int kind = tile__ld_more[k].kind, want = kind == TILE__LDK_HILO || kind == TILE__LDK_SCALE ? 2 : kind == TILE__LDK_EXACT ? tile__op_nopnd[code] : 1;
    int ids[2] = {0, 0}, ops[2];
    char what[96];
    snprintf(what, sizeof what, "tl_libdevice(\"%s\")", name);
    if (n != want) return tile__berr(TILE_ERR_VALUE, file, line, "%s takes %d operand%s, not %d", what, want, want == 1 ? "" : "s", n);
    for (int i = 0; i < n; i++)
        if (!(ids[i] = tile__use(file, line, what, args[i]))) return tile__poison;
    switch (kind) {
    case TILE__LDK_ABS: {   /* __nv_abs, __nv_llabs, __nv_fabsf, __nv_fabs: Triton's four; f16 and bf16 exact too */
        int x = ids[0];
        tl_dtype dt = tile__dty(x);
        if (tile__b->f->vals[x].weak && (tile__is_float(dt) || tile__ld_fits(x, TL_I64)))
            x = tile__cast(x, tile__is_float(dt) ? TL_F32 : tile__ld_fits(x, TL_I32) ? TL_I32 : TL_I64, file, line), dt = tile__dty(x);
        if (dt != TL_I32 && dt != TL_I64 && (!tile__is_float(dt) || tile__is_f8(dt))) {
            char s[96];
            return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (i32, i64, f16, bf16, f32 or f64)", what, tile__tys(ids[0], s));
        }
        return tile__mk(tile__emit1(TILE__OP_ABS, &x, 1, *tile__ty(x), file, line));
    }
    case TILE__LDK_BITS:
        if (!tile__ld_exactly(file, line, what, 1, ids, dts, ops)) return tile__poison;
        return tile__mk(tile__emit1(TILE__OP_BITCAST, ops, 1, tile__with_dtype(*tile__ty(ops[0]), to), file, line));
    case TILE__LDK_HILO: {   /* hi's bits above lo's: (u64(hi) << 32 | u64(lo)) as an f64 */
        if (!tile__ld_exactly(file, line, what, 2, ids, dts, ops)) return tile__poison;
        tl_t hi = tl_cast_at(file, line, tl_bitcast_at(file, line, tile__mk(ops[0]), TL_U32), TL_U64);
        tl_t lo = tl_cast_at(file, line, tl_bitcast_at(file, line, tile__mk(ops[1]), TL_U32), TL_U64);
        return tl_bitcast_at(file, line, tl_or_at(file, line, tl_shl_at(file, line, hi, tl__cint(32)), lo), TL_F64);
    }
    case TILE__LDK_HALF: {   /* the f64's bits, shifted down 32 for the high half, truncated to 32 */
        if (!tile__ld_exactly(file, line, what, 1, ids, dts, ops)) return tile__poison;
        tl_t bits = tl_bitcast_at(file, line, tile__mk(ops[0]), TL_I64);
        if (code == TILE__OP_SHR) bits = tl_shr_at(file, line, bits, tl__cint(32));
        return tl_cast_at(file, line, bits, TL_I32);
    }
    case TILE__LDK_CLASS: {
        int x;
        if (from != TL_VOID) {
            if (!tile__ld_exactly(file, line, what, 1, ids, dts, ops)) return tile__poison;
            x = ops[0];
        } else if (!(x = tile__ld_float(file, line, what, ids[0]))) return tile__poison;
        tl_t v = tile__mk(x);
        if (code == TILE__OP_NE) return tl_ne_at(file, line, v, v);   /* isnan: x != x */
        if (code == TILE__OP_EQ) return tl_eq_at(file, line, tl_abs_at(file, line, v), tl__cflt(INFINITY));
        if (code == TILE__OP_LT) return tl_cast_at(file, line, tl_lt_at(file, line, tl_abs_at(file, line, v), tl__cflt(INFINITY)), TL_I32);
        /* signbit: the top bit of the float's bits, as the unsigned integer of its width */
        unsigned w = tile__dt[tile__dty(x)].bits;
        tl_t bits = tl_bitcast_at(file, line, v, w == 64 ? TL_U64 : w == 32 ? TL_U32 : TL_U16);
        return tl_cast_at(file, line, tl_shr_at(file, line, bits, tl__cint(w - 1)), TL_I32);
    }
    case TILE__LDK_TOINT: {   /* libdevice's f32 and f64 functions: the smaller floats through f32, exactly */
        int x = tile__ld_float(file, line, what, ids[0]);
        if (!x) return tile__poison;
        if (tile__dty(x) != TL_F64) x = tile__cast(x, TL_F32, file, line);
        return tile__mk(tile__emit1(code, &x, 1, tile__with_dtype(*tile__ty(x), to), file, line));
    }
    case TILE__LDK_SCALE: return tile__ld_scale(file, line, what, code, ids);
    default:   /* EXACT */
        if (!tile__ld_exactly(file, line, what, n, ids, dts, ops)) return tile__poison;
        return tile__mk(tile__emit1(code, ops, n, *tile__ty(ops[0]), file, line));
    }
}
tl_t tl_libdevice_at(const char *file, int line, const char *name, int n, const tl_t *args) {
    enum { NALIAS = sizeof tile__ld_alias / sizeof *tile__ld_alias, NINT = sizeof tile__ld_int / sizeof *tile__ld_int };
    enum { NRND = sizeof tile__ld_rnd / sizeof *tile__ld_rnd, NMORE = sizeof tile__ld_more / sizeof *tile__ld_more };
    int mode = 0, rk;
    if (!name) return tile__berr(TILE_ERR_VALUE, file, line, "tl_libdevice: the function's name is NULL");
    for (int k = 0; k < NINT; k++)
        if (strcmp(tile__ld_int[k].name, name) == 0) return tile__ld_int_call(file, line, name, tile__ld_int[k].code, tile__ld_int[k].bits, n, args);
    for (int k = 0; k < NMORE; k++)
        if (strcmp(tile__ld_more[k].name, name) == 0) return tile__ld_more_call(file, line, name, k, n, args);
    if ((rk = tile__ld_rnd_find(name, &mode)) >= 0) return tile__ld_rnd_call(file, line, name, rk, mode, n, args);
    int code = -1;
    for (int c = 0; c < TILE__OP_COUNT_ && code < 0; c++)
        if (tile__op_libm[c] && strcmp(tile__op_libm[c], name) == 0) code = c;
    for (int k = 0; k < NALIAS && code < 0; k++)
        if (strcmp(tile__ld_alias[k].name, name) == 0) code = (int)tile__ld_alias[k].code;
    if (code < 0) {
        char known[2560];
        size_t used = 0;
        known[0] = 0;
        for (int c = 0; c < TILE__OP_COUNT_ && used < sizeof known; c++)
            if (tile__op_libm[c]) used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", used ? " " : "", tile__op_libm[c]);
        for (int k = 0; k < NALIAS && used < sizeof known; k++) used += (size_t)snprintf(known + used, sizeof known - used, " %s", tile__ld_alias[k].name);
        for (int k = 0; k < NINT && used < sizeof known; k++) used += (size_t)snprintf(known + used, sizeof known - used, " %s", tile__ld_int[k].name);
        for (int k = 0; k < NMORE && used < sizeof known; k++) used += (size_t)snprintf(known + used, sizeof known - used, " %s", tile__ld_more[k].name);
        for (int k = 0; k < NRND && used < sizeof known; k++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s%s", k ? " " : "; and with _rn, _rz, _rd or _ru: ", tile__ld_rnd[k].name,
                                     tile__ld_rnd[k].rn ? " (_rn only)" : "");
        return tile__berr(TILE_ERR_VALUE, file, line, "tl_libdevice: no function \"%.60s\" (tile has: %s)", name, known);
    }
    char what[96];
    if (!tile__ld_arity(file, line, name, (tile__opcode)code, n, what)) return tile__poison;
    if (code == TILE__OP_JN || code == TILE__OP_YN) return tile__ld_bessel_n(file, line, what, (tile__opcode)code, args);
    int ids[4];
    if (code == TILE__OP_POW) {   /* an i32 exponent (a C integer that fits): libdevice's __nv_powif, as Triton dispatches */
        ids[0] = tile__use(file, line, what, args[0]), ids[1] = tile__use(file, line, what, args[1]);
        if (!ids[0] || !ids[1]) return tile__poison;
        if (tile__ld_int_exponent(ids[1])) return tile__ld_scale(file, line, what, TILE__OP_POWI, ids);
    }
    for (int k = 0; k < n; k++) {
        int x = ids[k] = tile__use(file, line, what, args[k]);
        if (!x) return tile__poison;
        tl_dtype dt = tile__dty(x);
        if (tile__is_f8(dt) || (!tile__is_float(dt) && !tile__b->f->vals[x].weak)) {
            char s[96];
            return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not defined for %s (f16, bf16, f32 or f64; cast it first)", what, tile__tys(x, s));
        }
    }
    if (code == TILE__OP_FMA) return tl_fma_at(file, line, args[0], args[1], args[2]);
    if (n == 1) return tile__unary(file, line, what, (tile__opcode)code, args[0], TILE__A_FLOAT);
    if (n > 2) {   /* norm3d, norm4d, ...: promoted as tl_add, C numbers alone f32 */
        tl_dtype dt = TL_VOID, dts[4];
        int ops[4];
        for (int k = 0; k < n; k++)
            if (!tile__b->f->vals[ids[k]].weak) dt = dt == TL_VOID ? tile__dty(ids[k]) : tile__promote2(dt, tile__dty(ids[k]));
        for (int k = 0; k < n; k++) dts[k] = dt == TL_VOID ? TL_F32 : dt;
        if (!tile__ld_operands(file, line, what, n, ids, dts, ops)) return tile__poison;
        return tile__mk(tile__emit1((tile__opcode)code, ops, n, *tile__ty(ops[0]), file, line));
    }
    /* two weak C numbers are f32, as one is */
    tl_t a = args[0];
    if (tile__b->f->vals[ids[0]].weak && tile__b->f->vals[ids[1]].weak) a = tile__mk(tile__cast(ids[0], TL_F32, file, line));
    return tile__binary(file, line, what, (tile__opcode)code, a, args[1], TILE__A_FLOAT);
}
tl_t tl__libdevice_stk(const char *file, int line, const char *name, int n) {
    tl_t args[64];
    for (int k = n - 1; k >= 0; k--) {
        tl_t x = tile__pop(file, line);
        if (k < 64) args[k] = x;
    }
    return tl_libdevice_at(file, line, name, n < 64 ? n : 64, args);
}

tl_t tl__desc_load_stk(const char *file, int line, int n) {
    tl_t offs[TL_MAX_RANK];
    for (int k = n - 1; k >= 0; k--) {
        tl_t x = tile__pop(file, line);
        if (k < TL_MAX_RANK) offs[k] = x;
    }
    tl_t d = tile__pop(file, line);
    return tl_desc_load_at(file, line, d, n, offs);
}
void tl__desc_store_stk(const char *file, int line, int kind, int n) {
    tl_t offs[TL_MAX_RANK];
    tl_t v = tile__pop(file, line);
    for (int k = n - 1; k >= 0; k--) {
        tl_t x = tile__pop(file, line);
        if (k < TL_MAX_RANK) offs[k] = x;
    }
    tl_t d = tile__pop(file, line);
    tl_desc_store_at(file, line, kind, d, n, offs, v);
}

/* ---- reductions and scans ------------------------------------------------------------------ */
static const char *const tile__reduce_names[] = {"tl_sum", "tl_max", "tl_min", "tl_argmax", "tl_argmin", "tl_xor_sum", "tl_prod", "tl_reduce_or", "tl_reduce_and"};
/* Triton's sum dtype: ints narrower than 32 bits accumulate in 32, keeping
   their signedness (i1 counts as unsigned, as in Triton) */
static tl_dtype tile__sum_dtype(tl_dtype t) {
    if (t == TL_I8 || t == TL_I16) return TL_I32;
    if (t == TL_I1 || t == TL_U8 || t == TL_U16) return TL_U32;
    return t;
}
static int tile__axis_of(const char *file, int line, const char *op, int x, int *axis) {
    int r = tile__ty(x)->rank;
    int a = *axis < 0 ? *axis + r : *axis;
    if (r == 0 || a < 0 || a >= r) {
        tile__berr(TILE_ERR_AXIS, file, line, "%s: axis %d is out of range for a tile of rank %d", op, *axis, r);
        return 0;
    }
    *axis = a;
    return 1;
}
tl_t tl_reduce_at(const char *file, int line, tl_reduce_op kind, tl_t xv, int axis, tl_reduce_args o) {
    const char *name = (unsigned)kind <= TL_REDUCE_AND ? tile__reduce_names[kind] : "tl_reduce";
    int x = tile__use(file, line, name, xv);
    if (!x || !tile__check_num(file, line, name, x)) return tile__poison;
    if ((unsigned)kind > TL_REDUCE_AND) return tile__berr(TILE_ERR_VALUE, file, line, "tl_reduce: unknown reduction %d", (int)kind);
    if (o.propagate_nan && kind != TL_REDUCE_MAX && kind != TL_REDUCE_MIN)
        return tile__berr(TILE_ERR_VALUE, file, line, "%s: .propagate_nan is an option of tl_max and tl_min only", name);
    if (!tile__nan_option(file, line, name, &o.propagate_nan)) return tile__poison;
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    tile__type xt = *tile__ty(x);
    if (axis == TL_ALL) {
        /* over every dim: flatten, reduce, then give back rank-many 1s if asked */
        if (xt.rank == 0) return tile__berr(TILE_ERR_AXIS, file, line, "%s: cannot reduce a scalar", name);
        tl_t flat = tl_ravel_at(file, line, tile__mk(x));
        tl_reduce_args o2 = o;
        o2.keep_dims = 0;
        tl_t r = tl_reduce_at(file, line, kind, flat, 0, o2);
        if (!o.keep_dims || r.id <= 0) return r;
        tl_shape s;
        s.rank = xt.rank;
        for (int d = 0; d < xt.rank; d++) s.dim[d] = 1;
        return tl_reshape_at(file, line, r, s);
    }
    if (!tile__axis_of(file, line, name, x, &axis)) return tile__poison;
    tl_dtype dt = xt.dtype;
    if (kind == TL_REDUCE_XOR_SUM && !tile__is_int(dt))
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_xor_sum: integers only (got %s)", tile_dtype_name(dt));
    if (kind == TL_REDUCE_XOR_SUM && o.dtype && !tile__is_int(o.dtype))
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_xor_sum: .dtype must be an integer dtype (got %s)", tile_dtype_name(o.dtype));
    if (kind == TL_REDUCE_OR || kind == TL_REDUCE_AND) {
        if (!tile__is_int(dt) && dt != TL_I1)
            return tile__berr(TILE_ERR_DTYPE, file, line, "%s: integers or i1 only (got %s)", name, tile_dtype_name(dt));
        if (o.dtype)
            return tile__berr(TILE_ERR_VALUE, file, line, "%s: no .dtype: the result has the input's dtype (%s)", name, tile_dtype_name(dt));
        if (dt == TL_I1) {
            /* i1 as u32 0/1 (what the lowering moves between lanes), then back */
            tl_reduce_args o2 = o;
            tl_t r = tl_reduce_at(file, line, kind, tile__mk(tile__cast(x, TL_U32, file, line)), axis, o2);
            if (r.id <= 0) return r;
            return tl_ne_at(file, line, r, tl__cint(0));
        }
    }
    if ((kind == TL_REDUCE_MAX || kind == TL_REDUCE_MIN) && tile__dt[dt].bits < 32) {
        /* Triton's max/min widen narrow inputs: floats to f32, ints to i32 */
        dt = tile__is_float(dt) ? TL_F32 : TL_I32;
        x = tile__cast(x, dt, file, line);
    }
    if (kind == TL_REDUCE_SUM || kind == TL_REDUCE_PROD || kind == TL_REDUCE_XOR_SUM) {
        tl_dtype acc = o.dtype ? o.dtype : kind == TL_REDUCE_XOR_SUM ? dt : tile__sum_dtype(dt);
        if (!tile__dtype_ok(file, line, name, acc)) return tile__poison;
        x = tile__cast(x, acc, file, line);
        dt = acc;
    }
    tile__type rt = tile__with_dtype(xt, (kind == TL_REDUCE_ARGMAX || kind == TL_REDUCE_ARGMIN) ? TL_I32 : dt);
    if (o.keep_dims) rt.shape[axis] = 1;
    else {
        for (int d = axis; d + 1 < rt.rank; d++) rt.shape[d] = rt.shape[d + 1];
        rt.rank--;
    }
    int r = tile__emit1(TILE__OP_REDUCE, &x, 1, rt, file, line);
    tile__op *op = tile__defop(r);
    op->i[0] = kind;
    op->i[1] = axis;
    op->i[2] = o.keep_dims != 0;
    op->i[3] = o.propagate_nan && tile__is_float(dt);   /* an integer has no NaN */
    return tile__mk(r);
}
tl_t tl_scan_at(const char *file, int line, tl_reduce_op kind, tl_t xv, int axis, tl_scan_args o) {
    const char *name = kind == TL_REDUCE_PROD ? "tl_cumprod" : "tl_cumsum";
    int x = tile__use(file, line, name, xv);
    if (!x || !tile__check_num(file, line, name, x)) return tile__poison;
    if (kind != TL_REDUCE_SUM && kind != TL_REDUCE_PROD) return tile__berr(TILE_ERR_VALUE, file, line, "tl_scan: only sum and prod");
    if (!tile__axis_of(file, line, name, x, &axis)) return tile__poison;
    /* Triton: bf16 scans run in f32; cumsum widens narrow ints, cumprod does not */
    tl_dtype dt = tile__dty(x) == TL_BF16 ? TL_F32 : tile__dty(x);
    tl_dtype acc = o.dtype ? o.dtype : kind == TL_REDUCE_SUM ? tile__sum_dtype(dt) : dt;
    if (!tile__dtype_ok(file, line, name, acc)) return tile__poison;
    x = tile__cast(x, acc, file, line);
    int r = tile__emit1(TILE__OP_SCAN, &x, 1, *tile__ty(x), file, line);
    tile__op *op = tile__defop(r);
    op->i[0] = kind;
    op->i[1] = axis;
    op->i[2] = o.reverse != 0;
    return tile__mk(r);
}

/* ---- reductions and scans with a combine function (tl.reduce, tl.associative_scan) -----------
   Built from ops the back ends already have, the user's combine function
   traced on whole tiles (it is elementwise, so a tile of pairs is as good
   as a pair): a reduction halves the axis log2(n) times, combining each
   element with its right neighbour (so an associative combine need not be
   commutative); a scan is Hillis and Steele's, log2(n) steps, each element
   combined with the one d before it (tl_gather) where there is one. The
   interpreter and both back ends run the same ops, in the same order. */
#define TILE__MAX_COMBINE 8
/* out[k] = the combine of a[k] and b[k] (values of shape `want` and the
   operands' dtypes); 0 after recording an error */
static int tile__combine_call(const char *file, int line, const char *name, int n, tl_combine_fn fn1, tl_combine_n_fn fnn, const int *a, const int *b,
                              const tl_dtype *dts, const tile__type *want, int *out) {
    tl_t A[TILE__MAX_COMBINE], B[TILE__MAX_COMBINE], O[TILE__MAX_COMBINE];
    char s1[96];
    for (int k = 0; k < n; k++) {
        A[k] = tile__mk(a[k]);
        B[k] = tile__mk(b[k]);
        O[k].id = 0;   /* {0}: not given */
        O[k].build = 0;
    }
    if (fn1) O[0] = fn1(A[0], B[0]);
    else fnn(A, B, O);
    if (tile__b->st != TILE_OK) return 0;   /* an error inside the combine function, at its line */
    for (int k = 0; k < n; k++) {
        int o = O[k].id == 0 && O[k].build == 0 ? 0 : tile__use(file, line, name, O[k]);
        if (!o) {
            tile__berr(TILE_ERR_VALUE, file, line, "%s: the combine function gave no value for result %d of %d", name, k, n);
            return 0;
        }
        if (tile__b->f->vals[o].weak) o = tile__cast(o, dts[k], file, line);
        const tile__type *ot = tile__ty(o);
        tile__type bs;
        if (ot->dtype != dts[k]) {
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: the combine function returned %s for an operand of dtype %s (it must keep the operands' dtypes)",
                       name, tile__tys(o, s1), tile_dtype_name(dts[k]));
            return 0;
        }
        if (!tile__bshape(ot, want, &bs) || !tile__same_shape(&bs, want)) {
            tile__berr(TILE_ERR_SHAPE, file, line, "%s: the combine function returned %s, not elementwise on its operands", name, tile__tys(o, s1));
            return 0;
        }
        out[k] = tile__bcast(o, want, file, line);
    }
    return 1;
}
/* the operands, checked: 1..TILE__MAX_COMBINE tiles of one shape (weak literals typed) */
static int tile__combine_operands(const char *file, int line, const char *name, int n, const tl_t *xs, int has_fn, int *x, tl_dtype *dts) {
    char s1[96], s2[96];
    if (n < 1 || n > TILE__MAX_COMBINE) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d operands (1 to %d)", name, n, TILE__MAX_COMBINE);
        return 0;
    }
    if (!has_fn) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the combine function is NULL", name);
        return 0;
    }
    for (int k = 0; k < n; k++) {
        if (!(x[k] = tile__use(file, line, name, xs[k]))) return 0;
        if (tile__b->f->vals[x[k]].weak) x[k] = tile__cast(x[k], tile__weak_default(x[k]), file, line);
        dts[k] = tile__dty(x[k]);
        const char *why = tile__is_ptr(dts[k]) ? "a pointer" : tile__ty(x[k])->rank == 0 ? "a scalar" : NULL;
        if (why) {
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: operand %d is %s (%s)", name, k, why, tile__tys(x[k], s1));
            return 0;
        }
        if (k && !tile__same_shape(tile__ty(x[k]), tile__ty(x[0]))) {
            tile__berr(TILE_ERR_SHAPE, file, line, "%s: operand %d is %s, operand 0 %s: the operands must have one shape", name, k, tile__tys(x[k], s1),
                       tile__tys(x[0], s2));
            return 0;
        }
    }
    return 1;
}
/* what tl_reduce and tl_associative_scan check first: the results poisoned,
   the operands (tile__combine_operands), no .dtype (has_dtype) */
static int tile__combine_begin(const char *file, int line, const char *name, int n, const tl_t *xs, int has_fn, int has_dtype, tl_t *out, int *x,
                               tl_dtype *dts) {
    for (int k = 0; k < n && k < TILE__MAX_COMBINE; k++) out[k] = tile__poison;
    if (!tile__combine_operands(file, line, name, n, xs, has_fn, x, dts)) return 0;
    if (has_dtype) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: no .dtype: the results have the operands' dtypes", name);
        return 0;
    }
    return 1;
}
/* the arrays of the _n forms: 1 when both are there (the results poisoned when only they are) */
static int tile__combine_arrays(const char *file, int line, const char *name, int n, const tl_t *xs, tl_t *out) {
    if (!out) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the results' array is NULL", name);
        return 0;
    }
    if (!xs) {
        for (int k = 0; k < n && k < TILE__MAX_COMBINE; k++) out[k] = tile__poison;
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the operands' array is NULL", name);
        return 0;
    }
    return 1;
}
static tl_shape tile__shape_of(const tile__type *t) {
    tl_shape s;
    memset(&s, 0, sizeof s);
    s.rank = t->rank;
    for (int d = 0; d < t->rank; d++) s.dim[d] = t->shape[d];
    return s;
}
static void tile__reduce_fn(const char *file, int line, int n, const tl_t *xs, int axis, tl_combine_fn fn1, tl_combine_n_fn fnn, tl_t *out,
                            tl_reduce_args o) {
    const char *name = "tl_reduce";
    int x[TILE__MAX_COMBINE], cur[TILE__MAX_COMBINE], ev[TILE__MAX_COMBINE], od[TILE__MAX_COMBINE];
    tl_dtype dts[TILE__MAX_COMBINE];
    if (!tile__combine_begin(file, line, name, n, xs, fn1 || fnn, o.dtype != 0, out, x, dts)) return;
    if (o.propagate_nan) {   /* the combine function decides what a NaN does (tl_maximum's option) */
        tile__berr(TILE_ERR_VALUE, file, line, "%s: no .propagate_nan: the combine function decides (tl_maximum(a, b, .propagate_nan = 1))", name);
        return;
    }
    tile__type xt = *tile__ty(x[0]);
    if (axis == TL_ALL) {   /* over every dim: flattened, then rank-many 1s if asked */
        tl_t flat[TILE__MAX_COMBINE] = {{0, 0}};
        for (int k = 0; k < n; k++) flat[k] = tl_ravel_at(file, line, tile__mk(x[k]));
        tl_reduce_args o2 = o;
        o2.keep_dims = 0;
        tile__reduce_fn(file, line, n, flat, 0, fn1, fnn, out, o2);
        for (int k = 0; k < n && o.keep_dims && out[k].id > 0; k++) {
            tl_shape s;
            s.rank = xt.rank;
            for (int d = 0; d < xt.rank; d++) s.dim[d] = 1;
            out[k] = tl_reshape_at(file, line, out[k], s);
        }
        return;
    }
    if (!tile__axis_of(file, line, name, x[0], &axis)) return;
    int outer = 1, inner = 1, len = xt.shape[axis];
    for (int d = 0; d < axis; d++) outer *= xt.shape[d];
    for (int d = axis + 1; d < xt.rank; d++) inner *= xt.shape[d];
    /* [outer, len, inner], the dims of 1 left out; each step views the axis
       as [len/2, 2], moves the 2 last and splits it: neighbours k, k+1 */
    for (int k = 0; k < n; k++) cur[k] = x[k];
    for (; len > 1; len /= 2) {
        tl_shape s, perm;
        int r = 0, two;
        if (outer > 1) s.dim[r++] = outer;
        s.dim[r++] = len / 2;
        two = r;
        s.dim[r++] = 2;
        if (inner > 1) s.dim[r++] = inner;
        s.rank = r;
        perm.rank = r;
        for (int d = 0, j = 0; d < r; d++)
            if (d != two) perm.dim[j++] = d;
        perm.dim[r - 1] = two;
        tile__type half;
        memset(&half, 0, sizeof half);
        for (int k = 0; k < n; k++) {
            tl_t y = tl_reshape_at(file, line, tile__mk(cur[k]), s), e, f;
            if (inner > 1) y = tl_permute_at(file, line, y, perm);
            tl_split_at(file, line, y, &e, &f);
            if (e.id <= 0 || f.id <= 0) return;
            ev[k] = e.id;
            od[k] = f.id;
        }
        half = *tile__ty(ev[0]);
        if (!tile__combine_call(file, line, name, n, fn1, fnn, ev, od, dts, &half, cur)) return;
    }
    tl_shape fs = tile__shape_of(&xt);
    if (o.keep_dims) fs.dim[axis] = 1;
    else {
        for (int d = axis; d + 1 < fs.rank; d++) fs.dim[d] = fs.dim[d + 1];
        fs.rank--;
    }
    for (int k = 0; k < n; k++) out[k] = tl_reshape_at(file, line, tile__mk(cur[k]), fs);
}
tl_t tl_reduce_fn_at(const char *file, int line, tl_t x, int axis, tl_combine_fn fn, tl_reduce_args o) {
    tl_t out = tile__poison;
    tile__reduce_fn(file, line, 1, &x, axis, fn, NULL, &out, o);
    return out;
}
void tl_reduce_n_at(const char *file, int line, int n, const tl_t *xs, int axis, tl_combine_n_fn fn, tl_t *out, tl_reduce_args o) {
    if (tile__combine_arrays(file, line, "tl_reduce_n", n, xs, out)) tile__reduce_fn(file, line, n, xs, axis, NULL, fn, out, o);
}
static void tile__scan_fn(const char *file, int line, int n, const tl_t *xs, int axis, tl_combine_fn fn1, tl_combine_n_fn fnn, tl_t *out, tl_scan_args o) {
    const char *name = "tl_associative_scan";
    int x[TILE__MAX_COMBINE], sh[TILE__MAX_COMBINE], c[TILE__MAX_COMBINE];
    tl_dtype dts[TILE__MAX_COMBINE];
    if (!tile__combine_begin(file, line, name, n, xs, fn1 || fnn, o.dtype != 0, out, x, dts)) return;
    if (!tile__axis_of(file, line, name, x[0], &axis)) return;
    tile__type xt = *tile__ty(x[0]);
    int len = xt.shape[axis];
    tl_t cur[TILE__MAX_COMBINE];
    /* reversed: Triton's, the scan of the flipped axis, flipped back */
    for (int k = 0; k < n; k++) cur[k] = o.reverse ? tl_flip_at(file, line, tile__mk(x[k]), axis) : tile__mk(x[k]);
    /* each element's index along the axis, in the whole shape */
    tl_shape is;
    is.rank = xt.rank;
    for (int d = 0; d < xt.rank; d++) is.dim[d] = d == axis ? len : 1;
    tl_t idx = tl_broadcast_to_at(file, line, tl_reshape_at(file, line, tl_arange_at(file, line, 0, len), is), tile__shape_of(&xt));
    for (int d = 1; d < len; d *= 2) {
        tl_t from = tl_maximum_at(file, line, tl_sub_at(file, line, idx, tl__cint(d)), tl__cint(0));
        tl_t has = tl_ge_at(file, line, idx, tl__cint(d));
        for (int k = 0; k < n; k++) {
            tl_t g = tl_gather_at(file, line, cur[k], from, axis);
            if (g.id <= 0) return;
            sh[k] = g.id;
            x[k] = cur[k].id;
        }
        if (!tile__combine_call(file, line, name, n, fn1, fnn, sh, x, dts, &xt, c)) return;
        for (int k = 0; k < n; k++) cur[k] = tl_where_at(file, line, has, tile__mk(c[k]), cur[k]);
    }
    for (int k = 0; k < n; k++) out[k] = o.reverse ? tl_flip_at(file, line, cur[k], axis) : cur[k];
}
tl_t tl_associative_scan_at(const char *file, int line, tl_t x, int axis, tl_combine_fn fn, tl_scan_args o) {
    tl_t out = tile__poison;
    tile__scan_fn(file, line, 1, &x, axis, fn, NULL, &out, o);
    return out;
}
void tl_associative_scan_n_at(const char *file, int line, int n, const tl_t *xs, int axis, tl_combine_n_fn fn, tl_t *out, tl_scan_args o) {
    if (tile__combine_arrays(file, line, "tl_associative_scan_n", n, xs, out)) tile__scan_fn(file, line, n, xs, axis, NULL, fn, out, o);
}

/* ---- tl_map_elementwise (Triton's map_elementwise) ---------------------------------------
   The user's function is traced once, on rank-0 values, into the region of
   one MAP op; the lowering emits that region once per element a thread
   holds (or per pack of them), bound to the element's registers, and the
   interpreter runs it per element. So control flow on its scalars
   (TL_IF, TL_FOR, TL_WHILE) runs only the side an element takes, unlike
   tl_where. Inside it every value is one element (a tile made outside it
   cannot be used, nor one made), and nothing writes memory, prints,
   asserts or waits at a barrier: the function's code runs once per element
   of every thread, replicas included (Triton's map_elementwise refuses
   stores alike). With pack p the function takes p consecutive elements of
   the last dim at once: x[k * p + j] is operand k's j-th, and it gives
   out[r * p + j] for result r. */
#define TILE__MAP_MAX 64   /* operands x pack, and results x pack, at most */
/* the user's name of an op the function may not hold, or NULL when it may */
static const char *tile__map_banned(const tile__op *op) {
    switch (op->code) {
    case TILE__OP_STORE: return "tl_store";
    case TILE__OP_ATOMIC: return "an atomic (tl_atomic_*)";
    case TILE__OP_ATOMIC_CAS: return "tl_atomic_cas";
    case TILE__OP_MAKE_DESC: return "tl_make_tensor_descriptor";
    case TILE__OP_DESC_LOAD: return "tl_desc_load";
    case TILE__OP_DESC_STORE: return "tl_desc_store (or a tl_desc_atomic_*)";
    case TILE__OP_PRINT: return "tl_print";
    case TILE__OP_ASSERT: return op->i[0] ? NULL : "tl_device_assert";
    case TILE__OP_BARRIER: return "tl_debug_barrier";
    case TILE__OP_PROFILE: return "an in-kernel profile scope";
    case TILE__OP_INLINE_ASM: return op->i[0] ? NULL : "tl_inline_asm_elementwise with is_pure 0";
    default: return NULL;
    }
}
/* the first op of region reg (and the regions in it) the function may not
   hold, reported at its line; 0 then */
static int tile__map_check(const char *file, int line, int reg) {
    tile__func *f = tile__b->f;
    for (int k = 0; k < f->regs[reg].nops; k++) {
        const tile__op *op = &f->ops[f->regs[reg].ops[k]];
        if (op->dead) continue;
        const char *bad = tile__map_banned(op);
        if (bad) {
            tile__berr(TILE_ERR_VALUE, op->file, op->line,
                       "%s inside the function of the tl_map_elementwise at %s:%d: the function runs once per element (replicas included) "
                       "and may not write memory, print, assert or wait at a barrier; it may load, compute and branch", bad, file, line);
            return 0;
        }
        for (int j = 0; j < op->nopnd + op->nres; j++) {
            int v = j < op->nopnd ? f->pool[op->opnd + j] : op->res + j - op->nopnd;
            if (v <= 0 || f->vals[v].t.rank == 0) continue;
            char s[96];
            tile__berr(TILE_ERR_SHAPE, op->file, op->line,
                       "this call (its %s) %s %s inside the function of the tl_map_elementwise at %s:%d, which holds one element: every value in it "
                       "is a scalar (rank 0), so it can neither make a tile nor use one made outside it",
                       tile__op_names[op->code], j < op->nopnd ? "takes" : "makes", tile__type_str(&f->vals[v].t, s, sizeof s), file, line);
            return 0;
        }
        for (int q = 0; q < 2; q++)
            if (op->region[q] >= 0 && !tile__map_check(file, line, op->region[q])) return 0;
    }
    return 1;
}
/* tl_map_elementwise (fnn NULL: fn1 gives the one result) and _n; out[0..nres) */
static void tile__map(const char *file, int line, const char *what, tl_map_fn fn1, tl_map_n_fn fnn, int n, const tl_t *args, int nres, tl_t *out,
                      int pack) {
    int ids[TILE__MAP_MAX];
    for (int r = 0; r < nres && r < TILE__MAP_MAX; r++) out[r] = tile__poison;
    if (n < 1 || n > TILE__MAP_MAX) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d operands (1 to %d)", what, n, TILE__MAP_MAX);
        return;
    }
    for (int k = 0; k < n; k++) {
        if (!(ids[k] = tile__use(file, line, what, args[k]))) return;
        if (tile__b->f->vals[ids[k]].weak) ids[k] = tile__cast(ids[k], tile__weak_default(ids[k]), file, line);
    }
    if (!fn1 && !fnn) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the function is NULL", what);
        return;
    }
    if (nres < 1 || nres > TILE__MAP_MAX) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d results (1 to %d)", what, nres, TILE__MAP_MAX);
        return;
    }
    if (!tile__is_pow2(pack) || pack > 16 || n * pack > TILE__MAP_MAX || nres * pack > TILE__MAP_MAX) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: pack %d with %d operands and %d results (a power of two up to 16; operands and results times pack at most %d)",
                   what, pack, n, nres, TILE__MAP_MAX);
        return;
    }
    /* the operands broadcast to one shape */
    tile__type sh = *tile__ty(ids[0]), bs;
    for (int k = 1; k < n; k++) {
        if (!tile__bshape(&sh, tile__ty(ids[k]), &bs)) {
            char s1[96], s2[96];
            tile__berr(TILE_ERR_SHAPE, file, line, "%s: operand %d's shape %s does not broadcast with %s", what, k, tile__shape_str(tile__ty(ids[k]), s1, sizeof s1),
                       tile__shape_str(&sh, s2, sizeof s2));
            return;
        }
        sh.rank = bs.rank;
        memcpy(sh.shape, bs.shape, sizeof sh.shape);
    }
    if (!tile__check_shape(file, line, what, &sh)) return;
    if (pack > 1 && (sh.rank == 0 || sh.shape[sh.rank - 1] < pack)) {
        char s1[96];
        tile__berr(TILE_ERR_SHAPE, file, line, "%s: pack %d takes %d consecutive elements of the last dim at once, and the operands' shape %s has %s", what, pack,
                   pack, tile__shape_str(&sh, s1, sizeof s1), sh.rank ? "fewer" : "no dims");
        return;
    }
    for (int k = 0; k < n; k++) ids[k] = tile__bcast(ids[k], &sh, file, line);
    /* the region and its block arguments: operand k's j-th element of a pack is x[k * pack + j] */
    tile__func *f = tile__b->f;
    int outer = tile__b->cur, reg = tile__new_region(f, -1, outer), argv[TILE__MAP_MAX];
    tl_t x[TILE__MAP_MAX], o[TILE__MAP_MAX];
    for (int j = 0; j < TILE__MAP_MAX; j++) x[j].id = 0, x[j].build = 0;   /* read past the operands: no value, an error */
    for (int k = 0; k < n; k++)
        for (int j = 0; j < pack; j++) {
            tile__type at = tile__scalar_type(tile__dty(ids[k]));
            at.elem = tile__ty(ids[k])->elem;
            argv[k * pack + j] = tile__new_value(f, &at, -1, reg, file, line);
            x[k * pack + j] = tile__mk(argv[k * pack + j]);
        }
    f->regs[reg].args = tile__pool_add(f, argv, n * pack);
    f->regs[reg].nargs = n * pack;
    for (int j = 0; j < nres * pack; j++) o[j].id = 0, o[j].build = 0;   /* {0}: not given */
    if (f->nomem) {
        tile__berr(TILE_ERR_NOMEM, file, line, "out of host memory while building the kernel");
        return;
    }
    /* the function, traced in the region; a construct it leaves open is its error */
    struct tl__frame *top = tile__b->top;
    tile__b->cur = reg;
    if (fn1) o[0] = fn1(x);
    else fnn(x, o);
    while (tile__b->top != top) {
        struct tl__frame *fr = tile__b->top;
        if (!fr) break;
        tile__berr(TILE_ERR_CONTROL, fr->file, fr->line, "the body of this TL_%s in the function of the tl_map_elementwise at line %d was left by break, "
                   "return or goto; runtime loops and branches must run to their end", fr->kind == TILE__FR_FOR ? "FOR" : fr->kind == TILE__FR_WHILE ? "WHILE"
                   : fr->kind == TILE__FR_ELSE ? "ELSE" : "IF", line);
        tile__b->top = fr->up;
        TILE_FREE(fr);
    }
    TILE_FREE(tile__b->pending_else);   /* a TL_IF of the function: no TL_ELSE outside it is its */
    tile__b->pending_else = NULL;
    f = tile__b->f;
    if (tile__b->st != TILE_OK || !tile__map_check(file, line, reg)) {
        tile__b->cur = outer;
        return;
    }
    /* its values, rank-0 and one dtype per result (weak literals typed), yielded */
    tile__type rt[TILE__MAP_MAX];
    int yv[TILE__MAP_MAX];
    for (int j = 0; j < nres * pack; j++) {
        int r = j / pack, given = !(o[j].id == 0 && o[j].build == 0), v = given ? tile__use(file, line, what, o[j]) : 0;
        char s1[96];
        if (!given)
            tile__berr(TILE_ERR_VALUE, file, line, "%s: the function gave no value for out[%d] (result %d%s) of its %d", what, j, r,
                       pack > 1 ? ", an element of its pack" : "", nres * pack);
        if (v && tile__b->f->vals[v].weak) v = tile__cast(v, tile__weak_default(v), file, line);
        if (v && tile__ty(v)->rank != 0) {
            tile__berr(TILE_ERR_SHAPE, file, line, "%s: the function returned %s for out[%d]; it returns one element (a rank-0 value) a result", what,
                       tile__tys(v, s1), j);
            v = 0;
        }
        if (v && j % pack == 0) {
            rt[r] = sh;
            rt[r].dtype = tile__dty(v);
            rt[r].elem = tile__ty(v)->elem;
        } else if (v && !(tile__dty(v) == rt[r].dtype && tile__ty(v)->elem == rt[r].elem)) {
            char s2[96];
            tile__type t0 = tile__with_dtype(tile__scalar_type(rt[r].dtype), rt[r].dtype);
            t0.elem = rt[r].elem;
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: the function returned %s for out[%d] and %s for out[%d], elements of one result's pack; a result has one dtype",
                       what, tile__tys(v, s1), j, tile__type_str(&t0, s2, sizeof s2), r * pack);
            v = 0;
        }
        if (!v) {
            tile__b->cur = outer;
            return;
        }
        yv[j] = v;
    }
    tile__emit(TILE__OP_YIELD, yv, nres * pack, NULL, 0, file, line);
    tile__b->cur = outer;
    /* the op (after its region's ops in the op array; in program order before them) */
    int op = tile__emit(TILE__OP_MAP, ids, n, rt, nres, file, line);
    f = tile__b->f;
    if (f->nomem) return;
    f->ops[op].i[0] = pack;
    f->ops[op].region[0] = reg;
    f->regs[reg].owner = op;
    for (int r = 0; r < nres; r++) out[r] = tile__mk(f->ops[op].res + r);
}
tl_t tl_map_elementwise_at(const char *file, int line, tl_map_fn fn, int n, const tl_t *args) {
    tl_t out = tile__poison;
    tile__map(file, line, "tl_map_elementwise", fn, NULL, n, args, 1, &out, 1);
    return out;
}
void tl_map_elementwise_n_at(const char *file, int line, tl_map_n_fn fn, int n, const tl_t *args, int nres, tl_t *out, tl_map_args o) {
    const char *what = "tl_map_elementwise_n";
    if (!out) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the results' array is NULL", what);
        return;
    }
    tile__map(file, line, what, NULL, fn, n, args, nres, out, o.pack ? o.pack : 1);
}
/* the operands from the stack (tile_lang.h's macros push them in order) */
static int tile__map_pop(const char *file, int line, int n, tl_t *a) {
    int m = n < 0 ? 0 : n > TILE__MAP_MAX ? TILE__MAP_MAX : n;
    for (int k = n - 1; k >= 0; k--) {
        tl_t v = tile__pop(file, line);
        if (k < m) a[k] = v;
    }
    return m;
}
tl_t tl__map_stk(const char *file, int line, tl_map_fn fn, int n) {
    tl_t a[TILE__MAP_MAX];
    tile__map_pop(file, line, n, a);
    return tl_map_elementwise_at(file, line, fn, n, a);
}
void tl__map_n_stk(const char *file, int line, tl_map_n_fn fn, int n, int nres, tl_t *out, tl_map_args o) {
    tl_t a[TILE__MAP_MAX];
    tile__map_pop(file, line, n, a);
    tl_map_elementwise_n_at(file, line, fn, n, a, nres, out, o);
}

/* ---- dot ------------------------------------------------------------------------------------- */
/* Batched operands: the dot op is 2-D ([M, K] and [K, N]: the lowering's
   MMAs), so a batch of B (a power of two, as every dim) is cut into B of
   those, B dots made, and their results put back together. Each cut halves
   the batch dim, moved last, with tl_split (even batches, odd batches), and
   each join undoes one: the same ops as a program's own split and join, for
   the interpreter and every back end alike. */
static void tile__unbatch_rec(const char *file, int line, tl_t t, int n, int base, int step, tl_t *out) {
    if (t.id <= 0) {
        for (int i = 0; i < n; i++) out[base + i * step] = tile__poison;
        return;
    }
    tl_shape sh = tile__shape_of(tile__ty(t.id));   /* [R, C, n] */
    if (n == 1) {
        sh.rank = 2;
        out[base] = tl_reshape_at(file, line, t, sh);
        return;
    }
    sh.rank = 4, sh.dim[2] = n / 2, sh.dim[3] = 2;
    tl_t e, o;
    tl_split_at(file, line, tl_reshape_at(file, line, t, sh), &e, &o);
    tile__unbatch_rec(file, line, e, n / 2, base, 2 * step, out);
    tile__unbatch_rec(file, line, o, n / 2, base + step, 2 * step, out);
}
/* x [B, R, C] as B tiles [R, C]: out[b] is batch b */
static void tile__unbatch(const char *file, int line, tl_t x, int batch, tl_t *out) {
    tl_t t = tl_permute_at(file, line, x, tl__shape(3, 1, 2, 0));
    tile__unbatch_rec(file, line, t, batch, 0, 1, out);
}
/* the tiles y[base + i * step] (i < n), each [R, C], as one [R, C, n] */
static tl_t tile__rebatch_rec(const char *file, int line, const tl_t *y, int n, int base, int step) {
    if (n == 1) return tl_expand_dims_at(file, line, y[base], 2);
    tl_t e = tile__rebatch_rec(file, line, y, n / 2, base, 2 * step), o = tile__rebatch_rec(file, line, y, n / 2, base + step, 2 * step);
    tl_t j = tl_join_at(file, line, e, o);   /* [R, C, n/2, 2]: batch 2i + s */
    if (j.id <= 0) return tile__poison;
    tl_shape sh = tile__shape_of(tile__ty(j.id));
    sh.rank = 3, sh.dim[2] = n;
    return tl_reshape_at(file, line, j, sh);
}
/* B tiles [R, C] as one [B, R, C] */
static tl_t tile__rebatch(const char *file, int line, const tl_t *y, int batch) {
    tl_t t = tile__rebatch_rec(file, line, y, batch, 0, 1);
    return t.id > 0 ? tl_permute_at(file, line, t, tl__shape(3, 2, 0, 1)) : t;
}

/* bf16x3 / bf16x6 of f32 operands: x = x0 + x1 (+ x2), each part the bf16
   rounding of what the parts before it left (x0 = bf16(x), x1 = bf16(x -
   x0), ...), then the products xi yj with i + j < parts (3 or 6 of them)
   as bf16 dots accumulated in f32, the smallest first so that the largest
   is added last. A part past a non-finite x0 is 0 (inf - inf would make
   every product NaN). The dots are ordinary bf16 tl_dots: tensor cores on
   a GPU, the same sums in the interpreter. */
static tl_t tile__dot_bf16xn(const char *file, int line, int a, int b, int acc, tl_dtype rdt, int parts) {
    int x[2][3];
    for (int s = 0; s < 2; s++) {
        tl_t rest = tile__mk(s ? b : a);
        tl_t finite = tl_lt_at(file, line, tl_abs_at(file, line, rest), tl__cflt(INFINITY));
        for (int k = 0; k < parts; k++) {
            tl_t part = tl_cast_at(file, line, rest, TL_BF16);
            x[s][k] = part.id;
            if (k + 1 < parts) {
                rest = tl_sub_at(file, line, rest, tl_cast_at(file, line, part, TL_F32));
                rest = tl_where_at(file, line, finite, rest, tl__cflt(0.0));
            }
        }
    }
    tl_t r;
    memset(&r, 0, sizeof r);
    if (acc) r = tile__mk(acc);
    for (int sum = parts - 1; sum >= 0; sum--)     /* the smallest products first */
        for (int i = sum; i >= 0; i--) {
            tl_dot_args o;
            memset(&o, 0, sizeof o);
            o.acc = r;
            o.out_dtype = rdt;
            r = tl_dot_at(file, line, tile__mk(x[0][i]), tile__mk(x[1][sum - i]), o);
            if (r.id <= 0) return tile__poison;
        }
    return r;
}
/* a [B, M, K] @ b [B, K, N] (+ acc [B, M, N]), checked by tl_dot_at: one
   2-D tl_dot a batch with the same options (so a bf16x3 or bf16x6 one
   decomposes per batch), the results joined into [B, M, N] */
static tl_t tile__dot_batch(const char *file, int line, int a, int b, int acc, int batch, tl_dot_args o) {
    tl_t *part = (tl_t *)tile__calloc(4 * (size_t)batch, sizeof(tl_t));
    if (!part) return tile__berr(TILE_ERR_NOMEM, file, line, "tl_dot: out of host memory while building the kernel");
    tl_t *xa = part, *xb = part + batch, *ca = part + 2 * batch, *r = part + 3 * batch;
    tile__unbatch(file, line, tile__mk(a), batch, xa);
    tile__unbatch(file, line, tile__mk(b), batch, xb);
    if (acc) tile__unbatch(file, line, tile__mk(acc), batch, ca);
    for (int i = 0; i < batch; i++) {
        if (acc) o.acc = ca[i];
        r[i] = tl_dot_at(file, line, xa[i], xb[i], o);
    }
    tl_t res = tile__rebatch(file, line, r, batch);
    TILE_FREE(part);
    return res;
}
/* a[M,K] @ b[K,N] (+ acc[M,N]), or batched, a[B,M,K] @ b[B,K,N] (+
   acc[B,M,N]) as B of those (Triton's rule: both 2-D or both 3-D, one batch
   dim). Inputs: both f16, both bf16, both f32, fp8 (any of the five on
   each side; a dot with f8e4b15, f8e4b8 or f8e5b16 is the dot of the f16
   values, exact), or both i8 (-> i32). M, N, K >= 16, as Triton. */
tl_t tl_dot_at(const char *file, int line, tl_t av, tl_t bv, tl_dot_args o) {
    int a = tile__use(file, line, "tl_dot", av), b = tile__use(file, line, "tl_dot", bv);
    if (!a || !b) return tile__poison;
    const tile__type *at = tile__ty(a), *bt = tile__ty(b);
    char s1[96], s2[96];
    int rank = at->rank;
    if ((rank != 2 && rank != 3) || bt->rank != rank)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot: shapes %s and %s: need both 2-D, [M,K] and [K,N], or both 3-D, [B,M,K] and [B,K,N]",
                          tile__type_str(at, s1, sizeof s1), tile__type_str(bt, s2, sizeof s2));
    int r0 = rank - 2, batch = rank == 3 ? at->shape[0] : 0;   /* r0: the first matrix dim */
    if (batch && bt->shape[0] != batch)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot: shapes %s and %s: batch dims %d and %d differ", tile__type_str(at, s1, sizeof s1),
                          tile__type_str(bt, s2, sizeof s2), batch, bt->shape[0]);
    if (at->shape[r0 + 1] != bt->shape[r0])
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot: shapes %s and %s: need %s and %s", tile__type_str(at, s1, sizeof s1),
                          tile__type_str(bt, s2, sizeof s2), batch ? "[B,M,K]" : "[M,K]", batch ? "[B,K,N]" : "[K,N]");
    int M = at->shape[r0], K = at->shape[r0 + 1], N = bt->shape[r0 + 1];
    if (M < 16 || N < 16 || K < 16)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot: M, N and K must be at least 16 (got M=%d N=%d K=%d)", M, N, K);
    tl_dtype ta = at->dtype, tb = bt->dtype;
    int f8a = tile__is_f8(ta), f8b = tile__is_f8(tb);
    int ints = ta == TL_I8 && tb == TL_I8;
    if (!(ta == tb && (ta == TL_F16 || ta == TL_BF16 || ta == TL_F32 || ta == TL_I8)) && !(f8a && f8b))
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot: operand dtypes %s and %s are not supported (both f16, bf16, f32, i8, or fp8)",
                          tile_dtype_name(ta), tile_dtype_name(tb));
    tile__type rt = tile__scalar_type(ints ? TL_I32 : TL_F32);
    rt.rank = rank;
    if (batch) rt.shape[0] = batch;
    rt.shape[r0] = M;
    rt.shape[r0 + 1] = N;
    if (!tile__check_shape(file, line, "tl_dot", &rt)) return tile__poison;   /* [M,K] x [K,N] may be far larger than both */
    int acc = 0;
    if (o.acc.id) {
        acc = tile__use(file, line, "tl_dot", o.acc);
        if (!acc) return tile__poison;
        const tile__type *ct = tile__ty(acc);
        if (ct->rank != rank || (batch && ct->shape[0] != batch) || ct->shape[r0] != M || ct->shape[r0 + 1] != N) {
            char bdim[16] = "";
            if (batch) snprintf(bdim, sizeof bdim, "%d,", batch);
            return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot: accumulator %s must be [%s%d,%d]", tile__type_str(ct, s1, sizeof s1), bdim, M, N);
        }
        rt.dtype = ct->dtype;
    } else if (o.out_dtype) {
        rt.dtype = o.out_dtype;
    }
    int acc_ok = ints ? rt.dtype == TL_I32 : (rt.dtype == TL_F32 || (rt.dtype == TL_F16 && (ta == TL_F16 || f8a)));
    if (!acc_ok)
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot: a %s result is not supported for %s inputs (f32; f16 for f16 inputs; i32 for i8)",
                          tile_dtype_name(rt.dtype), tile_dtype_name(ta));
    if ((unsigned)o.input_precision > (unsigned)TL_PRECISION_BF16X6)
        return tile__berr(TILE_ERR_VALUE, file, line, "tl_dot: input_precision %d is not a tl_precision", (int)o.input_precision);
    /* Triton's max_num_imprecise_acc: at most K; it means something for fp8
       inputs only (others accumulate in f32 already), so it is kept for them */
    if (o.max_num_imprecise_acc < 0 || (f8a && o.max_num_imprecise_acc > K))
        return tile__berr(TILE_ERR_VALUE, file, line, "tl_dot: max_num_imprecise_acc %d must be between 0 (no limit) and K = %d", o.max_num_imprecise_acc, K);
    if (f8a && !(tile__is_f8_native(ta) && tile__is_f8_native(tb)))   /* >>f8: f8e4b15, f8e4b8, f8e5b16 are exact in f16 (Triton upcasts f8e4b15 so) */
        return tl_dot_at(file, line, tl_cast_at(file, line, av, TL_F16), tl_cast_at(file, line, bv, TL_F16), o);
    if (batch) return tile__dot_batch(file, line, a, b, acc, batch, o);
    if (ta == TL_F32 && (o.input_precision == TL_PRECISION_BF16X3 || o.input_precision == TL_PRECISION_BF16X6))
        return tile__dot_bf16xn(file, line, a, b, acc, rt.dtype, o.input_precision == TL_PRECISION_BF16X6 ? 3 : 2);
    int ops[3] = {a, b, acc};
    int r = tile__emit1(TILE__OP_DOT, ops, 3, rt, file, line);
    tl_precision p = o.input_precision;
    if (ta != TL_F32) p = TL_PRECISION_DEFAULT;
    else if (p == TL_PRECISION_DEFAULT) p = TL_PRECISION_TF32;
    tile__defop(r)->i[0] = p;
    tile__defop(r)->i[1] = f8a ? o.max_num_imprecise_acc : 0;
    return tile__mk(r);
}

/* ---- dot_scaled ------------------------------------------------------------------------------ */
/* Triton's dot_scaled (OCP microscaling, MX v1.0) as Triton builds it where
   the tensor cores take no scales (Ampere and Hopper: its
   DecomposeScaledBlocked pass), here in the builder, so that the
   interpreter and both back ends run it as the ops it is made of, with no
   op of its own. Each operand is upcast to a 16-bit compute dtype, f16
   when either format is fp16 and bf16 otherwise: e2m1 nibbles decoded with
   integer ops, fp8 and bf16 converted (exact, but for a bf16 operand beside
   an fp16 one: rounded to f16). A scale is put into the compute dtype as
   Triton does, its byte shifted into the exponent field (of bf16; for f16
   of f32, then rounded to f16), so that 0 is 0 (the OCP spec's 2^-127) and
   255 is inf, made NaN unless fast_math; it multiplies its group of 32
   values along K in the compute dtype. Then one tl_dot, f32 accumulation
   (of 3-D operands for a batch: tl_dot makes it one 2-D dot a batch). */
static const char *const tile__fmt_names[] = {"?", "e2m1", "e4m3", "e5m2", "bf16", "fp16"};
static const tl_dtype tile__fmt_dtype[] = {TL_VOID, TL_U8, TL_F8E4M3, TL_F8E5M2, TL_BF16, TL_F16};   /* as the dot reads it */

/* the order that swaps the last two dims of a tile of this rank */
static tl_shape tile__swap_last2(int rank) {
    tl_shape o;
    memset(&o, 0, sizeof o);
    o.rank = rank;
    for (int d = 0; d < rank; d++) o.dim[d] = d;
    o.dim[rank - 2] = rank - 1, o.dim[rank - 1] = rank - 2;
    return o;
}
/* e2m1 values from the u8 tile p ([.., R, C], a batch dim or none first),
   two a byte along its last dim (cols) or along R (!cols), the low nibble
   first, as bits of the 16-bit float ct: the sign to bit 15, the magnitude
   em (3 bits) to 0 (em 0), 0.5 (em 1, the subnormal) or 2^(e-1) (1 + m/2)
   for em = e:m >= 2 (em shifted under the exponent field, plus the bits of
   0.5, whose exponent is the bias less one) */
static tl_t tile__e2m1_upcast(const char *file, int line, int p, int cols, tl_dtype ct) {
    tl_shape sh = tile__shape_of(tile__ty(p));
    int r = sh.rank;
    tl_t pv = tile__mk(p), n;
    tl_t lo = tl_and_at(file, line, pv, tl__cint(15)), hi = tl_shr_at(file, line, pv, tl__cint(4));
    if (cols) {
        n = tl_interleave_at(file, line, lo, hi);
    } else {
        tl_t j = tl_join_at(file, line, lo, hi);   /* [.., R, C, 2] */
        n = j.id > 0 ? tl_permute_at(file, line, j, tile__swap_last2(r + 1)) : j;
        sh.dim[r - 2] *= 2;
        n = tl_reshape_at(file, line, n, sh);
    }
    tl_t x = tl_cast_at(file, line, n, TL_U16);
    tl_t em = tl_and_at(file, line, x, tl__cint(7));
    int shift = ct == TL_BF16 ? 6 : 9, half = ct == TL_BF16 ? 0x3f00 : 0x3800;
    tl_t normal = tl_add_at(file, line, tl_shl_at(file, line, em, tl__cint(shift)), tl__cint(half));
    tl_t mag = tl_where_at(file, line, tl_gt_at(file, line, em, tl__cint(1)), normal, tl_mul_at(file, line, em, tl__cint(half)));
    tl_t sign = tl_shl_at(file, line, tl_and_at(file, line, x, tl__cint(8)), tl__cint(12));
    return tl_bitcast_at(file, line, tl_or_at(file, line, sign, mag), ct);
}
/* the factors of the u8 scale s [.., R, K/32] in ct, each repeated over its
   32 values along K: [.., R, K] for the lhs (k_last), [.., K, R] for the rhs */
static tl_t tile__e8m0_factors(const char *file, int line, int s, int k_last, tl_dtype ct, int fast_math) {
    tl_shape sh = tile__shape_of(tile__ty(s));
    int r = sh.rank;
    tl_t sv = tile__mk(s), f;
    if (ct == TL_BF16) {
        f = tl_bitcast_at(file, line, tl_shl_at(file, line, tl_cast_at(file, line, sv, TL_U16), tl__cint(7)), TL_BF16);
    } else {
        f = tl_bitcast_at(file, line, tl_shl_at(file, line, tl_cast_at(file, line, sv, TL_U32), tl__cint(23)), TL_F32);
        f = tl_cast_at(file, line, f, TL_F16);
    }
    if (!fast_math) f = tl_where_at(file, line, tl_eq_at(file, line, sv, tl__cint(255)), tl__cflt(NAN), f);
    if (!k_last) {   /* [.., K/32, R]: the groups before the rows */
        f = tl_permute_at(file, line, f, tile__swap_last2(r));
        int t = sh.dim[r - 2];
        sh.dim[r - 2] = sh.dim[r - 1], sh.dim[r - 1] = t;
    }
    /* [.., A, B] to [.., A, 32, B] (k_last: [.., A, B, 32]), then the 32 folded into its neighbour */
    int at = k_last ? r : r - 1;
    tl_shape b = sh;
    b.rank = r + 1;
    for (int d = r; d > at; d--) b.dim[d] = b.dim[d - 1];
    b.dim[at] = 32;
    f = tl_broadcast_to_at(file, line, tl_expand_dims_at(file, line, f, at), b);
    sh.dim[k_last ? r - 1 : r - 2] *= 32;
    return tl_reshape_at(file, line, f, sh);
}
/* lhs [M, K] @ rhs [K, N] (+ acc) in f32, or [B, M, K] @ [B, K, N] a batch
   at a time; the dims of an e2m1 operand count bytes, half its values along
   the packed dim */
tl_t tl_dot_scaled_at(const char *file, int line, tl_t lhs, tl_t lhs_scale, tl_fmt lhs_format, tl_t rhs, tl_t rhs_scale, tl_fmt rhs_format,
                      tl_dot_scaled_args o) {
    static const char *const side[2] = {"lhs", "rhs"};
    tl_fmt fmt[2] = {lhs_format, rhs_format};
    tl_t given[4] = {lhs, lhs_scale, rhs, rhs_scale};
    int id[4] = {0, 0, 0, 0}, ok = 1;   /* lhs, its scale, rhs, its scale */
    for (int k = 0; k < 4; k++)
        if (!(k & 1) || given[k].id != 0) {
            id[k] = tile__use(file, line, "tl_dot_scaled", given[k]);
            ok &= id[k] != 0;
            if (!tile__b) return tile__poison;
        }
    int acc = 0;
    if (ok && o.acc.id) ok = (acc = tile__use(file, line, "tl_dot_scaled", o.acc)) != 0;
    if (!ok) return tile__poison;
    char s1[96], s2[96];
    for (int i = 0; i < 2; i++)
        if ((unsigned)fmt[i] < TL_FMT_E2M1 || (unsigned)fmt[i] > TL_FMT_FP16)
            return tile__berr(TILE_ERR_VALUE, file, line,
                              "tl_dot_scaled: %s_format %d is not a tl_fmt (TL_FMT_E2M1, TL_FMT_E4M3, TL_FMT_E5M2, TL_FMT_BF16, TL_FMT_FP16)",
                              side[i], (int)fmt[i]);
    if (o.out_dtype != TL_VOID && o.out_dtype != TL_F32)
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot_scaled: out_dtype %s: only f32 is supported, as in Triton",
                          tile_dtype_name(o.out_dtype));
    /* both operands 2-D, or both 3-D with one batch dim first (Triton's rule) */
    int rank = tile__ty(id[0])->rank, batch = 0;
    if ((rank != 2 && rank != 3) || tile__ty(id[2])->rank != rank)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: lhs %s and rhs %s must both be 2-D ([M, K] and [K, N]) or both 3-D ([B, M, K] and [B, K, N])",
                          tile__tys(id[0], s1), tile__tys(id[2], s2));
    if (rank == 3) {
        batch = tile__ty(id[0])->shape[0];
        if (tile__ty(id[2])->shape[0] != batch)
            return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: lhs %s and rhs %s have batch dims %d and %d", tile__tys(id[0], s1),
                              tile__tys(id[2], s2), batch, tile__ty(id[2])->shape[0]);
    }
    int r0 = rank - 2;   /* the first of the matrix dims */
    /* each operand: its format's dtype or that dtype's bits; only e2m1 packs along M or N */
    int rows[2], cols[2], packed_mn[2] = {o.lhs_m_pack != 0, o.rhs_n_pack != 0};
    for (int i = 0; i < 2; i++) {
        int v = id[2 * i];
        tl_dtype dt = tile__dty(v);
        tl_dtype own = tile__fmt_dtype[fmt[i]], bits = fmt[i] == TL_FMT_BF16 || fmt[i] == TL_FMT_FP16 ? TL_U16 : TL_U8;
        if (dt != own && dt != bits) {
            if (fmt[i] == TL_FMT_E2M1)
                return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot_scaled: an e2m1 %s must be u8 (two values a byte), not %s", side[i],
                                  tile__tys(v, s1));
            return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot_scaled: %s %s %s must be %s or %s (its bits), not %s", fmt[i] == TL_FMT_BF16 ? "a" : "an",
                              tile__fmt_names[fmt[i]], side[i], tile_dtype_name(own), tile_dtype_name(bits), tile__tys(v, s1));
        }
        if (packed_mn[i] && fmt[i] != TL_FMT_E2M1)
            return tile__berr(TILE_ERR_VALUE, file, line, "tl_dot_scaled: only an e2m1 %s can be packed along %s (%s), not %s", side[i],
                              i ? "N" : "M", i ? "rhs_n_pack" : "lhs_m_pack", tile__fmt_names[fmt[i]]);
        rows[i] = tile__ty(v)->shape[r0];
        cols[i] = tile__ty(v)->shape[r0 + 1];
    }
    int e2[2] = {fmt[0] == TL_FMT_E2M1, fmt[1] == TL_FMT_E2M1};
    int M = rows[0] * (e2[0] && packed_mn[0] ? 2 : 1), KA = cols[0] * (e2[0] && !packed_mn[0] ? 2 : 1);
    int KB = rows[1] * (e2[1] && !packed_mn[1] ? 2 : 1), N = cols[1] * (e2[1] && packed_mn[1] ? 2 : 1);
    if (KA != KB)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: lhs %s and rhs %s hold K = %d and %d values (e2m1: two a byte)",
                          tile__tys(id[0], s1), tile__tys(id[2], s2), KA, KB);
    int K = KA;
    if (M < 16 || N < 16 || K < 16)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: M, N and K must be at least 16 (got M=%d N=%d K=%d)", M, N, K);
    char bdim[16] = "", bacc[16] = "", bname[8] = "";   /* the batch dim in messages */
    if (batch) snprintf(bdim, sizeof bdim, "%d, ", batch), snprintf(bacc, sizeof bacc, "%d,", batch), snprintf(bname, sizeof bname, "B, ");
    for (int i = 0; i < 2; i++) {
        int s = id[2 * i + 1];
        if (!s) continue;
        if (tile__dty(s) != TL_U8)
            return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot_scaled: %s_scale must be u8 (e8m0 exponents), not %s", side[i], tile__tys(s, s1));
        if (K % 32)
            return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: K = %d is not a multiple of 32, the values one scale covers", K);
        const tile__type *st = tile__ty(s);
        if (st->rank != rank || (batch && st->shape[0] != batch) || st->shape[r0] != (i ? N : M) || st->shape[r0 + 1] != K / 32)
            return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: %s_scale %s must be [%s%d, %d] ([%s%s, K / 32])", side[i], tile__tys(s, s1),
                              bdim, i ? N : M, K / 32, bname, i ? "N" : "M");
    }
    if (acc) {
        const tile__type *at = tile__ty(acc);
        if (at->rank != rank || (batch && at->shape[0] != batch) || at->shape[r0] != M || at->shape[r0 + 1] != N)
            return tile__berr(TILE_ERR_SHAPE, file, line, "tl_dot_scaled: the accumulator %s must be [%s%d,%d]", tile__tys(acc, s1), bacc, M, N);
        if (at->dtype != TL_F32)
            return tile__berr(TILE_ERR_DTYPE, file, line, "tl_dot_scaled: the accumulator %s must be f32 (out_dtype), as in Triton", tile__tys(acc, s1));
    }

    tl_dtype ct = fmt[0] == TL_FMT_FP16 || fmt[1] == TL_FMT_FP16 ? TL_F16 : TL_BF16;
    tl_t x[2];
    for (int i = 0; i < 2; i++) {
        int v = id[2 * i];
        if (e2[i]) {
            /* lhs bytes along K are along its last dim, rhs bytes along K along its rows */
            x[i] = tile__e2m1_upcast(file, line, v, i ? packed_mn[i] : !packed_mn[i], ct);
        } else {
            x[i] = tl_cast_at(file, line, tl_bitcast_at(file, line, tile__mk(v), tile__fmt_dtype[fmt[i]]), ct);
        }
        if (id[2 * i + 1]) x[i] = tl_mul_at(file, line, x[i], tile__e8m0_factors(file, line, id[2 * i + 1], !i, ct, o.fast_math));
    }
    tl_dot_args d;
    memset(&d, 0, sizeof d);
    d.out_dtype = TL_F32;
    if (acc) d.acc = tile__mk(acc);
    return tl_dot_at(file, line, x[0], x[1], d);   /* 3-D: one dot a batch */
}

tl_t tl_softmax_at(const char *file, int line, tl_t x, int axis) {
    tl_reduce_args keep;
    memset(&keep, 0, sizeof keep);
    keep.keep_dims = 1;
    tl_t z = tl_sub_at(file, line, x, tl_reduce_at(file, line, TL_REDUCE_MAX, x, axis, keep));
    tl_t num = tl_exp_at(file, line, z);
    return tl_div_at(file, line, num, tl_reduce_at(file, line, TL_REDUCE_SUM, num, axis, keep));
}

/* ---- debugging -------------------------------------------------------------------------------- */
void tl_print_at(const char *file, int line, int n, const char *prefix, ...) {
    int ids[64];
    va_list ap;
    va_start(ap, prefix);
    int ok = 1;
    for (int k = 0; k < n; k++) {
        tl_t v = va_arg(ap, tl_t);
        if (k < 64) {
            ids[k] = tile__use(file, line, "tl_print", v);
            if (!ids[k]) ok = 0;
            else if (tile__b->f->vals[ids[k]].weak) ids[k] = tile__cast(ids[k], tile__weak_default(ids[k]), file, line);
        }
    }
    va_end(ap);
    if (!tile__b) { if (n == 0) tile__error(TILE_ERR_CONTEXT, NULL, file, line, "tl_print called outside a kernel body being built"); return; }
    if (n > 64) { tile__berr(TILE_ERR_ARITY, file, line, "tl_print: at most 64 values"); return; }
    if (!ok) return;
    int op = tile__emit(TILE__OP_PRINT, ids, n, NULL, 0, file, line);
    tile__b->f->ops[op].s = tile__func_str(tile__b->f, prefix ? prefix : "");
}
/* the register class an inline-asm operand of dtype t takes unpacked, as
   LLVM's NVPTX constraints name them: h 16 bits, r 32, l 64, f f32, d f64
   (8-bit integers widen to r); 0 for a dtype it cannot take */
static char tile__asm_class(tl_dtype t) {
    switch (t) {
    case TL_I8: case TL_U8: case TL_I32: case TL_U32: return 'r';
    case TL_I16: case TL_U16: case TL_F16: case TL_BF16: return 'h';
    case TL_I64: case TL_U64: return 'l';
    case TL_F32: return 'f';
    case TL_F64: return 'd';
    default: return 0;
    }
}
/* Triton's rule for a value of dtype t in a run of pack elements: as many
   of them a register as 32 bits hold (at most pack, at least 1), so pack /
   that many registers; a register of several is h (two 8-bit ones) or r,
   one of one element its dtype's class */
static int tile__asm_per_reg(tl_dtype t, int pack) {
    int k = 32 / (int)tile__dt[t].bits;
    return k < 1 ? 1 : k < pack ? k : pack;
}
static char tile__asm_reg_class(tl_dtype t, int pack) {
    int k = tile__asm_per_reg(t, pack);
    return k == 1 ? tile__asm_class(t) : k * tile__dt[t].bits == 16 ? 'h' : 'r';
}
#define TILE__ASM_MAX_REGS 64   /* registers of one instruction, results and operands */
/* Triton's inline_asm_elementwise with nres results (a tuple of dtypes):
   "=c,...,c,..." against the dtypes (per result, then per operand, pack /
   per-register registers of its class), the operands broadcast to one shape */
static void tile__inline_asm(const char *file, int line, const char *what, const char *asm_text, const char *constraints, int n, const tl_t *args,
                             int nres, const tl_dtype *dtypes, int is_pure, int pack, tl_t *out) {
    int ids[9];
    for (int r = 0; r < nres && r < 8; r++) out[r] = tile__poison;
    if (n < 0 || n > 8) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d operands (0 to 8)", what, n);
        return;
    }
    for (int k = 0; k < n; k++) {
        ids[k] = tile__use(file, line, what, args[k]);
        if (!ids[k]) return;
        if (tile__b->f->vals[ids[k]].weak) ids[k] = tile__cast(ids[k], tile__weak_default(ids[k]), file, line);
    }
    if (!tile__b) return;
    if (nres < 1 || nres > 8) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d results (1 to 8)", what, nres);
        return;
    }
    if (!dtypes) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the results' dtypes are NULL", what);
        return;
    }
    if (!asm_text || !constraints) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the %s is NULL", what, asm_text ? "constraints string" : "asm text");
        return;
    }
    if (!tile__is_pow2(pack) || pack > 16) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: pack %d (a power of two up to 16)", what, pack);
        return;
    }
    for (int r = 0; r < nres; r++)
        if ((unsigned)dtypes[r] >= (unsigned)TL_PTR || !tile__asm_class(dtypes[r])) {
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: result %d's dtype %s is not an integer or float of 8 to 64 bits", what, r,
                       (unsigned)dtypes[r] < (unsigned)TL_DTYPE_COUNT_ ? tile__dt[dtypes[r]].name : "?");
            return;
        }
    /* the shape of all, and what each result and operand takes: regs[k] registers of class want[k] */
    tile__type sh = *tile__ty(n ? ids[0] : 0), bs;
    if (n == 0) sh.rank = 0;
    char want[16];
    int regs[16], total = 0;
    for (int k = 0; k < nres + n; k++) {
        tl_dtype t = k < nres ? dtypes[k] : tile__dty(ids[k - nres]);
        char sd[96];
        if (k >= nres && !tile__asm_class(t)) {
            tile__berr(TILE_ERR_DTYPE, file, line, "%s: operand %d is %s (inline asm takes integers and floats of 8 to 64 bits)", what, k - nres + 1,
                       tile__tys(ids[k - nres], sd));
            return;
        }
        want[k] = tile__asm_reg_class(t, pack);
        regs[k] = pack / tile__asm_per_reg(t, pack);
        total += regs[k];
        if (k > nres && !tile__bshape(&sh, tile__ty(ids[k - nres]), &bs)) {
            char s1[96], s2[96];
            tile__berr(TILE_ERR_SHAPE, file, line, "%s: operand %d's shape %s does not broadcast with %s", what, k - nres + 1,
                       tile__shape_str(tile__ty(ids[k - nres]), s1, sizeof s1), tile__shape_str(&sh, s2, sizeof s2));
            return;
        }
        if (k > nres) sh.rank = bs.rank, memcpy(sh.shape, bs.shape, sizeof sh.shape);
    }
    if (total > TILE__ASM_MAX_REGS) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: pack %d takes %d registers for its results and operands, more than %d", what, pack, total, TILE__ASM_MAX_REGS);
        return;
    }
    if (!tile__check_shape(file, line, what, &sh)) return;
    /* the constraints: "=c" a result register, then "c" an operand register, comma-separated */
    const char *c = constraints;
    int bad = 0, at = 0;
    for (int k = 0; k < nres + n && !bad; k++)
        for (int j = 0; j < regs[k] && !bad; j++, at++) {
            while (*c == ' ') c++;
            int eq = *c == '=';
            c += eq;
            char got = *c ? *c++ : 0;
            while (*c == ' ') c++;
            bad = eq != (k < nres) || got != want[k] || (at + 1 < total ? *c != ',' : *c != 0);
            if (at + 1 < total && !bad) c++;
        }
    if (bad) {
        char expect[TILE__ASM_MAX_REGS * 3 + 8];
        size_t e = 0;
        for (int k = 0; k < nres + n; k++)
            for (int j = 0; j < regs[k]; j++) e += (size_t)snprintf(expect + e, sizeof expect - e, "%s%s%c", e ? "," : "", k < nres ? "=" : "", want[k]);
        tile__berr(TILE_ERR_VALUE, file, line, "%s: constraints \"%.60s\": the dtypes%s take \"%s\" (h 16-bit, r 32-bit, l 64-bit, f f32, d f64; %s)", what,
                   constraints, pack > 1 ? " packed" : "", expect,
                   pack > 1 ? "a register holds as many of a pack's elements as 32 bits do" : "a result's registers, then an operand's");
        return;
    }
    tile__type rt[8];
    for (int r = 0; r < nres; r++) {
        rt[r] = sh;
        rt[r].dtype = dtypes[r];
        rt[r].elem = TL_VOID;
    }
    for (int k = 0; k < n; k++) ids[k] = tile__bcast(ids[k], &sh, file, line);
    int op = tile__emit(TILE__OP_INLINE_ASM, ids, n, rt, nres, file, line);
    tile__func *f = tile__b->f;
    if (f->nomem) return;
    f->ops[op].i[0] = is_pure != 0;
    f->ops[op].i[1] = pack;
    f->ops[op].s = tile__func_str(f, asm_text);
    for (int r = 0; r < nres; r++) out[r] = tile__mk(f->ops[op].res + r);
}
tl_t tl_inline_asm_elementwise_at(const char *file, int line, const char *asm_text, const char *constraints, int n, const tl_t *args,
                                  tl_dtype dtype, int is_pure, int pack) {
    tl_t out = tile__poison;
    tile__inline_asm(file, line, "tl_inline_asm_elementwise", asm_text, constraints, n, args, 1, &dtype, is_pure, pack, &out);
    return out;
}
void tl_inline_asm_elementwise_n_at(const char *file, int line, const char *asm_text, const char *constraints, int n, const tl_t *args, int nres,
                                    const tl_dtype *dtypes, int is_pure, int pack, tl_t *out) {
    if (!out) {
        tile__berr(TILE_ERR_VALUE, file, line, "tl_inline_asm_elementwise_n: the results' array is NULL");
        return;
    }
    tile__inline_asm(file, line, "tl_inline_asm_elementwise_n", asm_text, constraints, n, args, nres, dtypes, is_pure, pack, out);
}
/* the operands from the stack (tile_lang.h's macros push them in order) */
static void tile__asm_pop(const char *file, int line, int n, tl_t *a) {
    int m = n < 0 ? 0 : n > 9 ? 9 : n;
    for (int k = n - 1; k >= 0; k--) {
        tl_t v = tile__pop(file, line);
        if (k < m) a[k] = v;
    }
}
tl_t tl__inline_asm_stk(const char *file, int line, const char *asm_text, const char *constraints, int n, tl_dtype dtype, int is_pure, int pack) {
    tl_t a[9];
    tile__asm_pop(file, line, n, a);
    return tl_inline_asm_elementwise_at(file, line, asm_text, constraints, n, a, dtype, is_pure, pack);
}
void tl__inline_asm_n_stk(const char *file, int line, const char *asm_text, const char *constraints, int n, int nres, const tl_dtype *dtypes, int is_pure,
                          int pack, tl_t *out) {
    tl_t a[9];
    tile__asm_pop(file, line, n, a);
    tl_inline_asm_elementwise_n_at(file, line, asm_text, constraints, n, a, nres, dtypes, is_pure, pack, out);
}
void tl_assert_at(const char *file, int line, tl_t cv, const char *msg) {
    int c = tile__use(file, line, "tl_device_assert", cv);
    if (!c || !tile__check_num(file, line, "tl_device_assert", c)) return;
    c = tile__truth(c, file, line);
    int op = tile__emit(TILE__OP_ASSERT, &c, 1, NULL, 0, file, line);
    tile__b->f->ops[op].s = tile__func_str(tile__b->f, msg ? msg : "");
}
/* tl_assume: an ASSERT whose i[0] is 1: checked by the interpreter, a fact for the GPU compilers */
void tl_assume_at(const char *file, int line, tl_t cv, const char *text) {
    int c = tile__use(file, line, "tl_assume", cv);
    if (!c) return;
    if (tile__b->f->vals[c].weak) c = tile__cast(c, tile__weak_default(c), file, line);
    if (!tile__is_int(tile__dty(c))) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "tl_assume: the condition must be i1 or an integer (got %s)", tile__tys(c, s));
        return;
    }
    c = tile__truth(c, file, line);
    int op = tile__emit(TILE__OP_ASSERT, &c, 1, NULL, 0, file, line);
    tile__b->f->ops[op].i[0] = 1;
    tile__b->f->ops[op].s = tile__func_str(tile__b->f, text ? text : "");
}
/* Triton's swizzle2d, step by step (its integer // and % truncate, as
   tl_floordiv and tl_mod do) */
void tl_swizzle2d_at(const char *file, int line, tl_t i, tl_t j, tl_t size_i, tl_t size_j, tl_t size_g, tl_t *new_i, tl_t *new_j) {
    if (!new_i || !new_j) {
        if (new_i) *new_i = tile__poison;
        if (new_j) *new_j = tile__poison;
        tile__berr(TILE_ERR_VALUE, file, line, "tl_swizzle2d: new_i and new_j must point to the results");
        return;
    }
    const int ids[5] = {tile__use(file, line, "tl_swizzle2d", i), tile__use(file, line, "tl_swizzle2d", j), tile__use(file, line, "tl_swizzle2d", size_i),
                        tile__use(file, line, "tl_swizzle2d", size_j), tile__use(file, line, "tl_swizzle2d", size_g)};
    *new_i = *new_j = tile__poison;
    for (int k = 0; k < 5; k++) {
        if (!ids[k]) return;
        if (!tile__is_int(tile__dty(ids[k])) || tile__dty(ids[k]) == TL_I1) {
            char s[96];
            tile__berr(TILE_ERR_DTYPE, file, line, "tl_swizzle2d: integers only (operand %d is %s)", k + 1, tile__tys(ids[k], s));
            return;
        }
    }
    tl_t ij = tl_add_at(file, line, tl_mul_at(file, line, i, size_j), j);
    tl_t size_gj = tl_mul_at(file, line, size_g, size_j);
    tl_t group_id = tl_floordiv_at(file, line, ij, size_gj);
    tl_t off_i = tl_mul_at(file, line, group_id, size_g);
    tl_t rows = tl_minimum_at(file, line, tl_sub_at(file, line, size_i, off_i), size_g);
    tl_t in_group = tl_mod_at(file, line, ij, size_gj);
    *new_i = tl_add_at(file, line, off_i, tl_mod_at(file, line, in_group, rows));
    *new_j = tl_floordiv_at(file, line, in_group, rows);
}
tl_t tl_histogram_at(const char *file, int line, tl_t xv, int num_bins, tl_histogram_args o) {
    int x = tile__use(file, line, "tl_histogram", xv);
    if (!x) return tile__poison;
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    tile__type xt = *tile__ty(x);
    char s[96];
    if (!tile__is_int(xt.dtype) || xt.dtype == TL_I1)
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_histogram: the input must be integers (got %s)", tile__tys(x, s));
    if (xt.rank != 1) return tile__berr(TILE_ERR_SHAPE, file, line, "tl_histogram: the input must be a 1-D tile (got %s)", tile__tys(x, s));
    if (num_bins < 1 || !tile__is_pow2(num_bins) || num_bins > TILE__MAX_NUMEL)
        return tile__berr(TILE_ERR_BLOCK, file, line, "tl_histogram: num_bins must be a power of two from 1 to %d (got %d)", TILE__MAX_NUMEL, num_bins);
    int m = tile__mask(file, line, "tl_histogram", o.mask, &xt);
    if (m < 0) return tile__poison;
    tile__type rt = tile__scalar_type(TL_I32);
    rt.rank = 1;
    rt.shape[0] = num_bins;
    int ops[2] = {x, m};
    return tile__mk(tile__emit1(TILE__OP_HISTOGRAM, ops, 2, rt, file, line));
}
tl_t tl_gather_at(const char *file, int line, tl_t srcv, tl_t indexv, int axis) {
    int src = tile__use(file, line, "tl_gather", srcv), idx = tile__use(file, line, "tl_gather", indexv);
    if (!src || !idx) return tile__poison;
    if (tile__b->f->vals[src].weak) src = tile__cast(src, tile__weak_default(src), file, line);
    if (tile__b->f->vals[idx].weak) idx = tile__cast(idx, tile__weak_default(idx), file, line);
    const tile__type *st = tile__ty(src), *it = tile__ty(idx);
    char a[96], b[96];
    if (!tile__is_int(it->dtype) || it->dtype == TL_I1)
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_gather: the index must be an integer tile (got %s)", tile__tys(idx, a));
    if (st->rank == 0 || st->rank != it->rank)
        return tile__berr(TILE_ERR_SHAPE, file, line, "tl_gather: the source (%s) and the index (%s) must be tiles of one rank", tile__tys(src, a),
                          tile__tys(idx, b));
    int d = axis < 0 ? axis + st->rank : axis;
    if (d < 0 || d >= st->rank) return tile__berr(TILE_ERR_AXIS, file, line, "tl_gather: axis %d is out of range for rank %d", axis, st->rank);
    for (int k = 0; k < st->rank; k++)
        if (k != d && st->shape[k] != it->shape[k])
            return tile__berr(TILE_ERR_SHAPE, file, line, "tl_gather: dim %d of the index (%s) must be the source's (%s): only dim %d may differ", k,
                              tile__tys(idx, a), tile__tys(src, b), d);
    tile__type rt = *it;
    rt.dtype = st->dtype;
    rt.elem = st->elem;
    int ops[2] = {src, idx};
    int r = tile__emit1(TILE__OP_GATHER, ops, 2, rt, file, line);
    if (r > 0) tile__defop(r)->i[0] = d;
    return tile__mk(r);
}
tl_t tl__gather_stk(const char *file, int line, int axis) {
    tl_t index = tile__pop(file, line), src = tile__pop(file, line);
    return tl_gather_at(file, line, src, index, axis);
}
/* tl_flip: as a [pre, n, post] tile, for each s = 1, 2, 4 ... < n the
   index's bit s complemented: viewed as [pre, n / 2s, 2, s, post], each pair
   along the 2 swapped by y ^ xor_sum(y) over it (in the integers of x's
   width: exact for every dtype's bits) */
tl_t tl_flip_at(const char *file, int line, tl_t xv, int dim) {
    int x = tile__use(file, line, "tl_flip", xv);
    if (!x) return tile__poison;
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    tile__type t = *tile__ty(x);
    if (t.rank == 0) return tile__berr(TILE_ERR_AXIS, file, line, "tl_flip: cannot flip a scalar");
    int d = dim < 0 ? dim + t.rank : dim;
    if (d < 0 || d >= t.rank) return tile__berr(TILE_ERR_AXIS, file, line, "tl_flip: dim %d is out of range for a tile of rank %d", dim, t.rank);
    if (t.dtype == TL_PTR) return tile__berr(TILE_ERR_DTYPE, file, line, "tl_flip: not on pointers (flip the offsets)");
    int n = t.shape[d];
    if (n == 1) return tile__mk(x);
    tl_dtype it = tile__bits_int(t.dtype);
    tl_t y = t.dtype == TL_I1 ? tl_cast_at(file, line, tile__mk(x), it)
           : t.dtype == it ? tile__mk(x) : tl_bitcast_at(file, line, tile__mk(x), it);
    int pre = 1, post = 1;
    for (int k = 0; k < d; k++) pre *= t.shape[k];
    for (int k = d + 1; k < t.rank; k++) post *= t.shape[k];
    for (int s = 1; s < n; s *= 2) {
        tl_shape v;
        v.rank = 5;
        v.dim[0] = pre, v.dim[1] = n / (2 * s), v.dim[2] = 2, v.dim[3] = s, v.dim[4] = post;
        tl_t y5 = tl_reshape_at(file, line, y, v);
        tl_reduce_args o;
        memset(&o, 0, sizeof o);
        o.keep_dims = 1;
        tl_t pair = tl_reduce_at(file, line, TL_REDUCE_XOR_SUM, y5, 2, o);
        y = tl_xor_at(file, line, y5, pair);
    }
    tl_shape back;
    back.rank = t.rank;
    for (int k = 0; k < t.rank; k++) back.dim[k] = t.shape[k];
    y = tl_reshape_at(file, line, y, back);
    if (t.dtype == TL_I1) return tl_ne_at(file, line, y, tl__cint(0));
    return t.dtype == it ? y : tl_bitcast_at(file, line, y, t.dtype);
}
/* ---- block pointers ------------------------------------------------------------------------------
   Triton's tl.make_block_ptr: the record holds the tensor (base, shape,
   strides) and the block (shape, order); the offsets travel in the
   tl_block_ptr beside its header. An access makes the block's pointers
   base + sum over d of (off_d + arange(block_d)) * stride_d, and the mask
   of the checked dims, 0 <= off_d + i < shape_d, with ordinary ops. */
int tl__dims(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int m = 0;
    for (int k = 0; k < n; k++) {
        int d = va_arg(ap, int);
        m |= d >= 0 && d < TILE__MAX_RANK ? 1 << d : 1 << 30;   /* a dim past the last: said at the access */
    }
    va_end(ap);
    return m;
}
static tl_block_ptr tile__bp_poison(void) {
    tl_block_ptr bp;
    memset(&bp, 0, sizeof bp);
    bp.tl__hdr = tile__poison;
    for (int d = 0; d < TL_MAX_RANK; d++) bp.tl__off[d] = tile__poison;
    return bp;
}
/* an integer scalar operand of a block pointer, weak literals typed; 0 after an error */
static int tile__bp_scalar(const char *file, int line, const char *op, const char *what, int d, tl_t xv) {
    int x = tile__use(file, line, op, xv);
    if (!x) return 0;
    char s[96];
    if (!tile__is_int(tile__dty(x)) || tile__dty(x) == TL_I1 || tile__ty(x)->rank != 0) {
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: %s %d must be an integer scalar, not %s", op, what, d, tile__tys(x, s));
        return 0;
    }
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    return x;
}
tl_block_ptr tl_make_block_ptr_at(const char *file, int line, tl_t basev, int n, const tl_t *shape, int nstrides, const tl_t *strides, int noffsets,
                                  const tl_t *offsets, tl_shape block, tl_shape order) {
    static const char *op = "tl_make_block_ptr";
    tile__bptr r;
    memset(&r, 0, sizeof r);
    int b = tile__ptr_operand(file, line, op, basev);
    if (!b) return tile__bp_poison();
    char s[96];
    if (tile__ty(b)->rank != 0) {
        tile__berr(TILE_ERR_SHAPE, file, line, "%s: the base must be a scalar pointer (the tensor's first element), not %s", op, tile__tys(b, s));
        return tile__bp_poison();
    }
    if (n < 1 || n > TL_MAX_RANK || nstrides != n || noffsets != n || block.rank != n || order.rank != n) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d shape dims, %d strides, %d offsets, %d block dims and %d in order; a block pointer has one of each per dim, 1 to %d dims",
                   op, n, nstrides, noffsets, block.rank, order.rank, TL_MAX_RANK);
        return tile__bp_poison();
    }
    int numel = 1, seen = 0;
    for (int d = 0; d < n; d++) {
        if (!tile__is_pow2(block.dim[d])) {
            tile__berr(TILE_ERR_BLOCK, file, line, "%s: block dim %d is %d; each must be a power of two", op, d, block.dim[d]);
            return tile__bp_poison();
        }
        numel *= block.dim[d];
        if (numel > TILE__MAX_NUMEL) {
            tile__berr(TILE_ERR_BLOCK, file, line, "%s: a block of more than %d elements", op, TILE__MAX_NUMEL);
            return tile__bp_poison();
        }
        if (order.dim[d] < 0 || order.dim[d] >= n || (seen >> order.dim[d] & 1)) {
            tile__berr(TILE_ERR_VALUE, file, line, "%s: order must be a permutation of the dims 0 to %d (got %d at %d)", op, n - 1, order.dim[d], d);
            return tile__bp_poison();
        }
        seen |= 1 << order.dim[d];
    }
    r.rank = n;
    r.base = b;
    r.file = file;
    r.line = line;
    tl_block_ptr bp = tile__bp_poison();
    for (int d = 0; d < n; d++) {
        if (!(r.shape[d] = tile__bp_scalar(file, line, op, "shape dim", d, shape[d]))) return tile__bp_poison();
        if (!(r.strides[d] = tile__bp_scalar(file, line, op, "stride", d, strides[d]))) return tile__bp_poison();
        int o = tile__bp_scalar(file, line, op, "offset", d, offsets[d]);
        if (!o) return tile__bp_poison();
        bp.tl__off[d] = tile__mk(tile__cast(o, TL_I32, file, line));   /* Triton's offsets are i32 */
        r.block[d] = block.dim[d];
        r.order[d] = order.dim[d];
    }
    tile__builder *B = tile__b;
    if (B->nbps >= (1 << 24) || !TILE__RESERVE(B->f, B->bps, B->capbps, B->nbps + 1)) {
        tile__berr(TILE_ERR_NOMEM, file, line, "%s: out of host memory while building the kernel", op);
        return tile__bp_poison();
    }
    B->bps[B->nbps] = r;
    bp.tl__hdr.id = -2 - B->nbps++;
    bp.tl__hdr.build = B->serial;
    return bp;
}
/* the block pointer's record, its offsets checked; NULL after an error */
static const tile__bptr *tile__bp_use(const char *file, int line, const char *op, tl_block_ptr bp) {
    if (!tile__b) {
        tile__error(TILE_ERR_CONTEXT, NULL, file, line, "%s called outside a kernel body being built", op);
        return NULL;
    }
    if (bp.tl__hdr.id == -1) return NULL;   /* poison: said already */
    const tile__bptr *r = tile__bptr_of(bp.tl__hdr);
    if (!r) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: the block pointer was not made by tl_make_block_ptr in this kernel's build", op);
        return NULL;
    }
    for (int d = 0; d < r->rank; d++)
        if (!tile__use(file, line, op, bp.tl__off[d])) return NULL;
    return r;
}
tl_block_ptr tl_advance_at(const char *file, int line, tl_block_ptr bp, int n, const tl_t *offsets) {
    static const char *op = "tl_advance";
    const tile__bptr *r = tile__bp_use(file, line, op, bp);
    if (!r) return tile__bp_poison();
    if (n != r->rank) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: %d offsets for a block pointer of %d dims (made at line %d)", op, n, r->rank, r->line);
        return tile__bp_poison();
    }
    tl_block_ptr out = bp;
    for (int d = 0; d < n; d++) {
        int x = tile__bp_scalar(file, line, op, "offset", d, offsets[d]);
        if (!x) return tile__bp_poison();
        tl_t sum = tl_add_at(file, line, bp.tl__off[d], tile__mk(tile__cast(x, TL_I32, file, line)));
        out.tl__off[d] = sum;
    }
    return out;
}
tl_block_ptr tl__make_block_ptr_stk(const char *file, int line, int n, int nstrides, int noffsets, tl_shape block, tl_shape order) {
    tl_t sh[TL_MAX_RANK], st[TL_MAX_RANK], of[TL_MAX_RANK];
    if (n < 1 || n > TL_MAX_RANK || nstrides < 1 || nstrides > TL_MAX_RANK || noffsets < 1 || noffsets > TL_MAX_RANK) {
        for (int k = 0; k < n + nstrides + noffsets + 1; k++) tile__pop(file, line);
        tile__berr(TILE_ERR_ARITY, file, line, "tl_make_block_ptr: %d shape dims, %d strides and %d offsets; a block pointer has 1 to %d dims", n, nstrides,
                   noffsets, TL_MAX_RANK);
        return tile__bp_poison();
    }
    for (int k = noffsets - 1; k >= 0; k--) of[k] = tile__pop(file, line);
    for (int k = nstrides - 1; k >= 0; k--) st[k] = tile__pop(file, line);
    for (int k = n - 1; k >= 0; k--) sh[k] = tile__pop(file, line);
    tl_t base = tile__pop(file, line);
    return tl_make_block_ptr_at(file, line, base, n, sh, nstrides, st, noffsets, of, block, order);
}
tl_block_ptr tl__advance_stk(const char *file, int line, tl_block_ptr bp, int n) {
    tl_t of[TL_MAX_RANK];
    if (n < 1 || n > TL_MAX_RANK) {
        for (int k = 0; k < n; k++) tile__pop(file, line);
        tile__berr(TILE_ERR_ARITY, file, line, "tl_advance: %d offsets; a block pointer has 1 to %d dims", n, TL_MAX_RANK);
        return tile__bp_poison();
    }
    for (int k = n - 1; k >= 0; k--) of[k] = tile__pop(file, line);
    return tl_advance_at(file, line, bp, n, of);
}
/* the block's pointers and, for the dims in check, its mask (mask->id 0: none) */
static tl_t tile__bp_access(const char *file, int line, const char *op, const tile__bptr *r, tl_block_ptr bp, int check, tl_t *mask) {
    int bad = check & ~((1 << r->rank) - 1);
    if (bad) {
        int d = 0;
        while (d < 30 && !(bad >> d & 1)) d++;
        if (d == 30) tile__berr(TILE_ERR_AXIS, file, line, "%s: boundary_check names a dim outside 0 to %d", op, TL_MAX_RANK - 1);
        else tile__berr(TILE_ERR_AXIS, file, line, "%s: boundary_check names dim %d for a block pointer of %d dims (made at line %d)", op, d, r->rank, r->line);
        return tile__poison;
    }
    tl_t p = tile__mk(r->base);
    mask->id = 0;
    mask->build = 0;
    for (int d = 0; d < r->rank; d++) {
        tl_shape sh;
        sh.rank = r->rank;
        for (int q = 0; q < r->rank; q++) sh.dim[q] = q == d ? r->block[d] : 1;
        tl_t i = tl_reshape_at(file, line, tl_add_at(file, line, bp.tl__off[d], tl_arange_at(file, line, 0, r->block[d])), sh);
        p = tl_add_at(file, line, p, tl_mul_at(file, line, i, tile__mk(r->strides[d])));
        if (check >> d & 1) {
            tl_t in = tl_and_at(file, line, tl_ge_at(file, line, i, tl__cint(0)), tl_lt_at(file, line, i, tile__mk(r->shape[d])));
            *mask = mask->id ? tl_and_at(file, line, *mask, in) : in;
        }
    }
    if (mask->id) {   /* onto the block's shape */
        tl_t ignored;
        tl_broadcast_at(file, line, *mask, p, mask, &ignored);
    }
    return p;
}
tl_t tl_load_block_at(const char *file, int line, tl_block_ptr bp, tl_load_args o) {
    static const char *op = "tl_load";
    const tile__bptr *r = tile__bp_use(file, line, op, bp);
    if (!r) return tile__poison;
    if (o.mask.id != 0 || o.other != 0 || o.other_v.id != 0)
        return tile__berr(TILE_ERR_VALUE, file, line, "%s: `mask` and `other` are not taken through a block pointer (as in Triton); give `boundary_check` and "
                          "`padding_option`", op);
    tl_dtype et = tile__ty(r->base)->elem;
    if ((unsigned)o.padding_option > TL_PAD_NAN) return tile__berr(TILE_ERR_VALUE, file, line, "%s: no padding_option %d", op, (int)o.padding_option);
    if (o.padding_option == TL_PAD_NAN && !tile__is_float(et))
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: padding_option TL_PAD_NAN needs floats; the block pointer's are %s", op, tile_dtype_name(et));
    tl_t mask;
    tl_t p = tile__bp_access(file, line, op, r, bp, o.boundary_check, &mask);
    tl_load_args lo = o;
    lo.boundary_check = 0;
    lo.padding_option = TL_PAD_NONE;
    lo.mask = mask;
    if (mask.id && o.padding_option == TL_PAD_NAN) lo.other = NAN;
    return tl_load_at(file, line, p, lo);
}
void tl_store_block_at(const char *file, int line, tl_block_ptr bp, tl_t value, tl_store_args o) {
    static const char *op = "tl_store";
    const tile__bptr *r = tile__bp_use(file, line, op, bp);
    if (!r) return;
    if (o.mask.id != 0) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: `mask` is not taken through a block pointer (as in Triton); give `boundary_check`", op);
        return;
    }
    tl_t mask;
    tl_t p = tile__bp_access(file, line, op, r, bp, o.boundary_check, &mask);
    tl_store_args so = o;
    so.boundary_check = 0;
    so.mask = mask;
    tl_store_at(file, line, p, value, so);
}
/* ---- tl_sort and tl_topk: Triton's bitonic network ---------------------------------------
   x is viewed as [pre, n, post] around the sorted dim. A compare-and-swap
   across bit s of the index views it as [pre, n / 2s, 2, s, post]: the
   partner of each element is found, as tl_flip does, by an xor with the
   xor-sum of its pair's bits (exact for every dtype), both elements of a
   pair take the one decision (left > right) != flip, so the result is a
   permutation of x whatever the values (NaNs included), and the pair is
   swapped where it holds. Merge stage t (sorted runs of 2^t) compares bits
   t-1 .. 0 with flip the index's bit t (runs alternately up and down, so
   that each pair of runs is bitonic), or, at the last stage, the order
   asked for. Top-k (Triton's): sort runs of k, then while n > k keep the
   larger half of each bitonic pair of runs (an elementwise max) and merge
   it again. Every step is ops the back ends already have. */
typedef struct tile__sorter {
    const char *file;
    int line;
    tl_dtype dt, it; /* the values' dtype, and the integers of their bits */
    int pre, post;
} tile__sorter;
static tl_t tile__sort_view(const tile__sorter *z, tl_t v, int a, int b, int c, int d, int e) {
    tl_shape sh;
    sh.rank = 5;
    sh.dim[0] = a, sh.dim[1] = b, sh.dim[2] = c, sh.dim[3] = d, sh.dim[4] = e;
    return tl_reshape_at(z->file, z->line, v, sh);
}
/* one compare-and-swap of bits y ([pre, n, post] integers) across stride
   s; flip_bit >= 0: flip is the index's bit flip_bit, else flip is
   flip_const */
static tl_t tile__sort_cas(const tile__sorter *z, tl_t y, int n, int s, int flip_bit, int flip_const) {
    const char *file = z->file;
    int line = z->line;
    tl_t y5 = tile__sort_view(z, y, z->pre, n / (2 * s), 2, s, z->post);
    tl_reduce_args o;
    memset(&o, 0, sizeof o);
    o.keep_dims = 1;
    tl_t pair = tl_reduce_at(file, line, TL_REDUCE_XOR_SUM, y5, 2, o);
    tl_t other = tl_xor_at(file, line, y5, pair);
    tl_t side = tile__sort_view(z, tl_ne_at(file, line, tl_arange_at(file, line, 0, 2), tl__cint(0)), 1, 1, 2, 1, 1);
    tl_t lb = tl_where_at(file, line, side, other, y5), rb = tl_where_at(file, line, side, y5, other);
    tl_t l = z->dt == z->it ? lb : tl_bitcast_at(file, line, lb, z->dt);
    tl_t r = z->dt == z->it ? rb : tl_bitcast_at(file, line, rb, z->dt);
    tl_t swap = tl_gt_at(file, line, l, r);
    if (flip_bit >= 0) {
        /* bit flip_bit of the index a * 2s + b * s + c lies in a */
        int m = n / (2 * s), sh = flip_bit - tile__log2i(2 * s);
        tl_t a = tl_arange_at(file, line, 0, m);
        tl_t bit = tl_and_at(file, line, tl_shr_at(file, line, a, tl__cint(sh)), tl__cint(1));
        tl_t f = tile__sort_view(z, tl_ne_at(file, line, bit, tl__cint(0)), 1, m, 1, 1, 1);
        swap = tl_xor_at(file, line, swap, f);
    } else if (flip_const) {
        swap = tl_xor_at(file, line, swap, tl_ne_at(file, line, tl__cint(1), tl__cint(0)));
    }
    tl_t out = tl_where_at(file, line, swap, other, y5);
    tl_shape back;
    back.rank = 3;
    back.dim[0] = z->pre, back.dim[1] = n, back.dim[2] = z->post;
    return tl_reshape_at(file, line, out, back);
}
/* merge stage t over n: bits t-1 .. 0, flip bit t or the final order */
static tl_t tile__sort_merge(const tile__sorter *z, tl_t y, int n, int t, int last, int descending) {
    for (int b = t - 1; b >= 0; b--) y = tile__sort_cas(z, y, n, 1 << b, last ? -1 : t, descending);
    return y;
}
/* k: the top k (tl_topk), or 0: the whole dim (tl_sort) */
static tl_t tile__sort(const char *file, int line, const char *op, tl_t xv, int dim, int k, int descending) {
    int x = tile__use(file, line, op, xv);
    if (!x) return tile__poison;
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    tile__type t = *tile__ty(x);
    char s[96];
    if (t.rank == 0) return tile__berr(TILE_ERR_AXIS, file, line, "%s: cannot sort a scalar", op);
    int d = dim < 0 ? dim + t.rank : dim;
    if (d < 0 || d >= t.rank) return tile__berr(TILE_ERR_AXIS, file, line, "%s: dim %d is out of range for a tile of rank %d", op, dim, t.rank);
    if (t.dtype == TL_PTR) return tile__berr(TILE_ERR_DTYPE, file, line, "%s: not on pointers (got %s)", op, tile__tys(x, s));
    if (descending != 0 && descending != 1) return tile__berr(TILE_ERR_VALUE, file, line, "%s: descending must be 0 or 1 (got %d)", op, descending);
    int n = t.shape[d];
    if (!k) k = n; /* tl_sort */
    else if (k < 1 || k > n || !tile__is_pow2(k))
        return tile__berr(TILE_ERR_VALUE, file, line, "%s: k must be a power of two from 1 to dim %d's %d (got %d)", op, d, n, k);
    tile__sorter z;
    z.file = file, z.line = line, z.dt = t.dtype, z.pre = 1, z.post = 1;
    for (int q = 0; q < d; q++) z.pre *= t.shape[q];
    for (int q = d + 1; q < t.rank; q++) z.post *= t.shape[q];
    tl_t v = tile__mk(x);
    if (t.dtype == TL_I1) v = tl_cast_at(file, line, v, TL_U8), z.dt = TL_U8;   /* false < true */
    z.it = tile__is_int(z.dt) ? z.dt : tile__bits_int(z.dt);
    tl_shape v3;
    v3.rank = 3;
    v3.dim[0] = z.pre, v3.dim[1] = n, v3.dim[2] = z.post;
    v = tl_reshape_at(file, line, v, v3);
    tl_t y = z.dt == z.it ? v : tl_bitcast_at(file, line, v, z.it);
    int log_n = tile__log2i(n), log_k = tile__log2i(k);
    for (int st = 1; st <= log_k; st++) y = tile__sort_merge(&z, y, n, st, st == log_n, descending);
    for (int st = log_k + 1; st <= log_n; st++) {
        /* runs of k alternately up and down: the larger of each pair of runs'
           elements are the pair's top k, a bitonic run; sort it again */
        tl_t y5 = tile__sort_view(&z, z.dt == z.it ? y : tl_bitcast_at(file, line, y, z.dt), z.pre, n / (2 * k), 2, k, z.post);
        tl_reduce_args o;
        memset(&o, 0, sizeof o);
        tl_t m = tl_reduce_at(file, line, TL_REDUCE_MAX, y5, 2, o);
        if (tl_dtype_of(m) != z.dt) m = tl_cast_at(file, line, m, z.dt);   /* a 16-bit float's max comes as f32: exact back */
        n /= 2;
        v3.dim[1] = n;
        m = tl_reshape_at(file, line, m, v3);
        y = z.dt == z.it ? m : tl_bitcast_at(file, line, m, z.it);
        y = tile__sort_merge(&z, y, n, log_k, st == log_n, descending);
    }
    tl_t r = z.dt == z.it ? y : tl_bitcast_at(file, line, y, z.dt);
    tl_shape back;
    back.rank = t.rank;
    for (int q = 0; q < t.rank; q++) back.dim[q] = t.shape[q];
    back.dim[d] = k;
    r = tl_reshape_at(file, line, r, back);
    return t.dtype == TL_I1 ? tl_ne_at(file, line, r, tl__cint(0)) : r;
}
tl_t tl_sort_at(const char *file, int line, tl_t x, int dim, int descending) { return tile__sort(file, line, "tl_sort", x, dim, 0, descending); }
tl_t tl_topk_at(const char *file, int line, tl_t x, int k, int dim) { return tile__sort(file, line, "tl_topk", x, dim, k, 1); }
/* ---- random numbers: Philox 4x32, as Triton 3.6's random.py --------------------------- */
static int tile__rand_rounds(const char *file, int line, const char *op, tl_rand_args o) {
    if (o.n_rounds < 0 || o.n_rounds > 64) {
        tile__berr(TILE_ERR_VALUE, file, line, "%s: .n_rounds must be 1 to 64 (got %d)", op, o.n_rounds);
        return -1;
    }
    return o.n_rounds ? o.n_rounds : 10;
}
/* an integer operand of a random op, or 0 after an error */
static int tile__rand_int(const char *file, int line, const char *op, const char *what, tl_t v) {
    int x = tile__use(file, line, op, v);
    if (!x) return 0;
    if (!tile__is_int(tile__dty(x)) || tile__dty(x) == TL_I1) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "%s: the %s must be an integer (got %s)", op, what, tile__tys(x, s));
        return 0;
    }
    return x;
}
/* The rounds on u32 counters c[4] with key words k0, k1 (u32 scalars): each
   round c0' = hi(B c2) ^ c1 ^ k0, c1' = lo(B c2), c2' = hi(A c0) ^ c3 ^ k1,
   c3' = lo(A c0), then the key raised by the Weyl constants. One op per
   statement, so that the IR is the same whichever order a compiler
   evaluates arguments in. */
static void tile__philox_rounds(const char *file, int line, tl_t *c, tl_t k0, tl_t k1, int rounds) {
    for (int r = 0; r < rounds; r++) {
        tl_t ra = tl__cuint(0xD2511F53u), rb = tl__cuint(0xCD9E8D57u);
        tl_t hb = tl_umulhi_at(file, line, rb, c[2]);
        tl_t x0 = tl_xor_at(file, line, hb, c[1]);
        tl_t n0 = tl_xor_at(file, line, x0, k0);
        tl_t ha = tl_umulhi_at(file, line, ra, c[0]);
        tl_t x2 = tl_xor_at(file, line, ha, c[3]);
        tl_t n2 = tl_xor_at(file, line, x2, k1);
        tl_t n1 = tl_mul_at(file, line, rb, c[2]);
        tl_t n3 = tl_mul_at(file, line, ra, c[0]);
        c[0] = n0, c[1] = n1, c[2] = n2, c[3] = n3;
        if (r + 1 < rounds) {
            tl_t ka = tl__cuint(0x9E3779B9u), kb = tl__cuint(0xBB67AE85u);
            k0 = tl_add_at(file, line, k0, ka);
            k1 = tl_add_at(file, line, k1, kb);
        }
    }
}
/* Philox of counters c (integers, cast to u32) keyed by seed's two halves */
static int tile__philox(const char *file, int line, const char *op, tl_t seedv, tl_t *c, int rounds) {
    int seed = tile__rand_int(file, line, op, "seed", seedv);
    if (!seed) return 0;
    tl_t s64 = tl_cast_at(file, line, tile__mk(seed), TL_U64);
    tl_t lo_mask = tl__cuint(0xffffffffu);
    tl_t lo = tl_and_at(file, line, s64, lo_mask);
    tl_t k0 = tl_cast_at(file, line, lo, TL_U32);
    tl_t sh = tl__cint(32);
    tl_t hi = tl_shr_at(file, line, s64, sh);
    tl_t k1 = tl_cast_at(file, line, hi, TL_U32);
    for (int k = 0; k < 4; k++) c[k] = tl_cast_at(file, line, c[k], TL_U32);
    tile__philox_rounds(file, line, c, k0, k1, rounds);
    return tile__b && tile__b->st == TILE_OK;
}
void tl_philox_at(const char *file, int line, tl_t seed, const tl_t *c, tl_t *out, tl_rand_args o) {
    if (!out || !c) {
        tile__berr(TILE_ERR_VALUE, file, line, "tl_philox: the counters and the results are arrays of 4 tl_t");
        return;
    }
    for (int k = 0; k < 4; k++) out[k] = tile__poison;
    int rounds = tile__rand_rounds(file, line, "tl_philox", o);
    if (rounds < 0) return;
    tl_t w[4];
    for (int k = 0; k < 4; k++) {
        int x = tile__rand_int(file, line, "tl_philox", "counter", c[k]);
        if (!x) return;
        w[k] = tile__mk(x);
    }
    /* the counters broadcast to one shape, as Triton's elementwise ops would */
    for (int k = 1; k < 4; k++) tl_broadcast_at(file, line, w[0], w[k], &w[0], &w[k]);
    for (int k = 1; k < 4; k++) tl_broadcast_at(file, line, w[k], w[0], &w[k], &w[0]);
    if (tile__philox(file, line, "tl_philox", seed, w, rounds))
        for (int k = 0; k < 4; k++) out[k] = w[k];
}
tl_t tl_uint_to_uniform_float_at(const char *file, int line, tl_t xv) {
    int x = tile__rand_int(file, line, "tl_uint_to_uniform_float", "operand", xv);
    if (!x) return tile__poison;
    int wide = tile__dt[tile__dty(x)].bits == 64;
    if (!wide && tile__dt[tile__dty(x)].bits != 32) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "tl_uint_to_uniform_float: 32- or 64-bit integers only (got %s)", tile__tys(x, s));
    }
    tl_t s = tl_bitcast_at(file, line, tile__mk(x), wide ? TL_I64 : TL_I32);
    tl_t zero = tl__cint(0);
    tl_t neg = tl_lt_at(file, line, s, zero);
    tl_t ns = tl_neg_at(file, line, s);
    tl_t one = tl__cint(1);
    tl_t alt = tl_sub_at(file, line, ns, one);
    tl_t mag = tl_where_at(file, line, neg, alt, s);
    tl_t f = tl_cast_at(file, line, mag, TL_F32);
    tl_t scale = tl__cflt(wide ? 1.0842020432385337e-19 : 4.6566127342e-10);
    return tl_mul_at(file, line, f, scale);
}
void tl_pair_uniform_to_normal_at(const char *file, int line, tl_t u1, tl_t u2, tl_t *n1, tl_t *n2) {
    if (!n1 || !n2) {
        tile__berr(TILE_ERR_VALUE, file, line, "tl_pair_uniform_to_normal: n1 and n2 must point to the results");
        return;
    }
    *n1 = *n2 = tile__poison;
    tl_t eps = tl__cflt(1.0e-7);
    tl_t v1 = tl_maximum_at(file, line, eps, u1);
    tl_t two_pi = tl__cflt(6.283185307179586);
    tl_t th = tl_mul_at(file, line, two_pi, u2);
    tl_t lg = tl_log_at(file, line, v1);
    tl_t m2 = tl__cflt(-2.0);
    tl_t e = tl_mul_at(file, line, m2, lg);
    tl_t r = tl_sqrt_at(file, line, e);
    tl_t c = tl_cos_at(file, line, th);
    tl_t sn = tl_sin_at(file, line, th);
    *n1 = tl_mul_at(file, line, r, c);
    *n2 = tl_mul_at(file, line, r, sn);
}
tl_t tl_random_at(const char *file, int line, int kind, tl_t seed, tl_t offset, tl_t *out, tl_rand_args o) {
    static const char *const names[] = {"tl_randint", "tl_randint4x", "tl_rand", "tl_rand4x", "tl_randn", "tl_randn4x"};
    const char *name = kind >= 0 && kind <= TL__RAND_N4 ? names[kind] : "tl_random";
    int four = kind == TL__RAND_INT4 || kind == TL__RAND_U4 || kind == TL__RAND_N4;
    if (kind < 0 || kind > TL__RAND_N4) return tile__berr(TILE_ERR_VALUE, file, line, "tl_random: no kind %d", kind);
    if (four && !out) return tile__berr(TILE_ERR_VALUE, file, line, "%s: the results go to an array of 4 tl_t (got NULL)", name);
    if (four)
        for (int k = 0; k < 4; k++) out[k] = tile__poison;
    int rounds = tile__rand_rounds(file, line, name, o);
    int off = rounds < 0 ? 0 : tile__rand_int(file, line, name, "offset", offset);
    if (!off) return tile__poison;
    /* the counter: the offset's low 32 bits, its high 32 bits (64-bit offsets), 0, 0 */
    tl_t c[4];
    c[0] = tl_cast_at(file, line, tile__mk(off), TL_U32);
    tl_t zero = tl__cuint(0);
    c[2] = c[3] = tl_mul_at(file, line, c[0], zero);
    if (tile__dt[tile__dty(off)].bits > 32) {
        tl_t sh = tl__cint(32);
        tl_t hi = tl_shr_at(file, line, tile__mk(off), sh);
        c[1] = tl_cast_at(file, line, hi, TL_U32);
    } else {
        c[1] = c[2];
    }
    if (!tile__philox(file, line, name, seed, c, rounds)) return tile__poison;
    if (kind == TL__RAND_INT) return c[0];
    if (kind == TL__RAND_INT4) {
        for (int k = 0; k < 4; k++) out[k] = c[k];
        return c[0];
    }
    tl_t u[4];
    for (int k = 0; k < (kind == TL__RAND_U || kind == TL__RAND_N ? (kind == TL__RAND_U ? 1 : 2) : 4); k++)
        u[k] = tl_uint_to_uniform_float_at(file, line, c[k]);
    if (kind == TL__RAND_U) return u[0];
    if (kind == TL__RAND_U4) {
        for (int k = 0; k < 4; k++) out[k] = u[k];
        return u[0];
    }
    tl_t n[4];
    tl_pair_uniform_to_normal_at(file, line, u[0], u[1], &n[0], &n[1]);
    if (kind == TL__RAND_N) return n[0];
    tl_pair_uniform_to_normal_at(file, line, u[2], u[3], &n[2], &n[3]);
    for (int k = 0; k < 4; k++) out[k] = n[k];
    return n[0];
}
tl_t tl__random_stk(const char *file, int line, int kind, tl_t *out, tl_rand_args o) {
    tl_t offset = tile__pop(file, line), seed = tile__pop(file, line);
    return tl_random_at(file, line, kind, seed, offset, out, o);
}
/* tl_multiple_of (kind 0), tl_max_contiguous (1), tl_max_constancy (2) */
tl_t tl_hint_at(const char *file, int line, int kind, tl_t xv, int n) {
    static const char *const names[] = {"tl_multiple_of", "tl_max_contiguous", "tl_max_constancy"};
    const char *name = kind >= 0 && kind < 3 ? names[kind] : "tl_hint";
    int x = tile__use(file, line, name, xv);
    if (!x) return tile__poison;
    if (kind < 0 || kind > 2) return tile__berr(TILE_ERR_VALUE, file, line, "tl_hint: no hint %d", kind);
    if (n < 1) return tile__berr(TILE_ERR_VALUE, file, line, "%s: n must be at least 1 (got %d)", name, n);
    if (tile__b->f->vals[x].weak) x = tile__cast(x, tile__weak_default(x), file, line);
    tl_dtype dt = tile__dty(x);
    if (kind < 2 && !(tile__is_ptr(dt) || (tile__is_int(dt) && dt != TL_I1))) {
        char s[96];
        return tile__berr(TILE_ERR_DTYPE, file, line, "%s: integers or pointers only (got %s)", name, tile__tys(x, s));
    }
    int r = tile__emit1(TILE__OP_HINT, &x, 1, *tile__ty(x), file, line);
    if (r > 0) tile__defop(r)->i[kind] = n;
    return tile__mk(r);
}
void tl_static_assert_at(const char *file, int line, int cond, const char *text, const char *msg) {
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "tl_static_assert called outside a kernel body being built"); return; }
    if (!cond) tile__berr(TILE_ERR_ASSERT, file, line, "tl_static_assert(%s) failed%s%s", text ? text : "", msg && msg[0] ? ": " : "", msg ? msg : "");
}
void tl_static_print_at(const char *file, int line, const char *label, tl_t xv) {
    int x = tile__use(file, line, "tl_static_print", xv);
    if (!x) return;
    const tile__func *f = tile__b->f;
    const tile__value *v = &f->vals[x];
    char ty[96], val[64] = "";
    tile__tys(x, ty);
    int def = v->def;
    if (def >= 0 && f->ops[def].code == TILE__OP_CONST && v->t.rank == 0) {
        if (tile__is_float(v->t.dtype)) snprintf(val, sizeof val, " = %.17g", f->ops[def].f);
        else snprintf(val, sizeof val, " = %lld", f->ops[def].i[0]);
    }
    printf("%s:%d: tl_static_print: %s%s%s%s\n", file ? file : "", line, label ? label : "", label && label[0] ? ": " : "", ty, val);
    fflush(stdout);
}
void tl_debug_barrier_at(const char *file, int line) {
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "tl_debug_barrier called outside a kernel body being built"); return; }
    tile__emit(TILE__OP_BARRIER, NULL, 0, NULL, 0, file, line);
}
/* >>profile: an in-kernel scope's enter or exit. Its nesting is checked
   when the body is done (tile__profile_nesting). */
void tl_profile_at(const char *file, int line, const char *name, int exit) {
    const char *what = exit ? "tl_profile_exit" : "tl_profile_enter";
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "%s called outside a kernel body being built", what); return; }
    if (!name || !name[0]) { tile__berr(TILE_ERR_PROFILE, file, line, "%s: a scope needs a name", what); return; }
    if (strlen(name) > 63) { tile__berr(TILE_ERR_PROFILE, file, line, "%s: the name \"%.40s...\" is longer than 63 characters", what, name); return; }
    int op = tile__emit(TILE__OP_PROFILE, NULL, 0, NULL, 0, file, line);
    if (tile__b->f->nomem) return;
    tile__b->f->ops[op].s = tile__func_str(tile__b->f, name);
    tile__b->f->ops[op].i[0] = exit ? 1 : 0;
}
/* In-kernel scopes nest within each block: an exit leaves the innermost
   scope its block entered, and a block (a TL_FOR's or TL_IF's body, or the
   kernel's) ends with every scope it entered left. 0 when they do not (the
   error is reported at the op's line). */
static int tile__profile_nesting(const tile__func *f, int reg) {
    const tile__region *r = &f->regs[reg];
    const tile__op *open[32];
    int n = 0;
    for (int k = 0; k < r->nops; k++) {
        const tile__op *op = &f->ops[r->ops[k]];
        for (int j = 0; j < 2; j++)
            if (op->region[j] >= 0 && !tile__profile_nesting(f, op->region[j])) return 0;
        if (op->code != TILE__OP_PROFILE) continue;
        const char *name = op->s ? op->s : "";
        if (!op->i[0]) {
            if (n == 32) {
                tile__berr(TILE_ERR_PROFILE, op->file, op->line, "tl_profile_enter(\"%s\"): in-kernel scopes nest at most 32 deep in a block", name);
                return 0;
            }
            open[n++] = op;
        } else if (n == 0) {
            tile__berr(TILE_ERR_PROFILE, op->file, op->line, "tl_profile_exit(\"%s\"): no scope of this block is open (an exit must be in the block of its enter)", name);
            return 0;
        } else if (strcmp(open[n - 1]->s ? open[n - 1]->s : "", name) != 0) {
            tile__berr(TILE_ERR_PROFILE, op->file, op->line, "tl_profile_exit(\"%s\"): the innermost open scope is \"%s\" (entered at line %d)", name,
                       open[n - 1]->s ? open[n - 1]->s : "", open[n - 1]->line);
            return 0;
        } else {
            n--;
        }
    }
    if (n > 0) {
        tile__berr(TILE_ERR_PROFILE, open[n - 1]->file, open[n - 1]->line, "tl_profile_enter(\"%s\"): the scope is not exited before the end of its block",
                   open[n - 1]->s ? open[n - 1]->s : "");
        return 0;
    }
    return 1;
}
int tl_rank(tl_t x) { return tile__b && x.id > 0 && x.id < tile__b->f->nvals ? tile__ty(x.id)->rank : 0; }
int tl_dim(tl_t x, int axis) {
    if (!tile__b || x.id <= 0 || x.id >= tile__b->f->nvals) return 0;
    const tile__type *t = tile__ty(x.id);
    if (axis < 0) axis += t->rank;
    return axis >= 0 && axis < t->rank ? t->shape[axis] : 0;
}
tl_dtype tl_dtype_of(tl_t x) { return tile__b && x.id > 0 && x.id < tile__b->f->nvals ? tile__dty(x.id) : TL_VOID; }
tl_dtype tl_element_ty(tl_t x) {
    if (!tile__b || x.id <= 0 || x.id >= tile__b->f->nvals) return TL_VOID;
    const tile__type *t = tile__ty(x.id);
    return t->dtype == TL_PTR || t->dtype == TL_DESC ? t->elem : t->dtype;
}

/* ---- meta-parameters ------------------------------------------------------------------------- */
static const tile_meta *tile__find_meta(const tile_launch *o, const char *name) {
    for (int k = 0; o && k < TILE_MAX_META && o->meta[k].name; k++)
        if (strcmp(o->meta[k].name, name) == 0) return &o->meta[k];
    return NULL;
}
int tl_meta_or_at(const char *file, int line, const char *name, int dflt) {
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "TL_META(%s) used outside a kernel body being built", name); return dflt; }
    const tile_meta *m = tile__find_meta(tile__b->opts, name);
    if (!m) return dflt;
    if (m->value < INT_MIN || m->value > INT_MAX) {
        tile__berr(TILE_ERR_META, file, line, "meta-parameter %s = %lld does not fit in an int", name, m->value);
        return dflt;
    }
    return (int)m->value;
}
int tl_meta_at(const char *file, int line, const char *name) {
    if (tile__b && !tile__find_meta(tile__b->opts, name)) {
        const tile_launch *o = tile__b->opts;
        tile__berr(TILE_ERR_META, file, line, "meta-parameter %s was not given; pass .meta = {{\"%s\", value}} at the launch (%s:%d)", name,
                   name, o && o->file ? o->file : "?", o ? o->line : 0);
        return 1;
    }
    return tl_meta_or_at(file, line, name, 1);
}

/* ---- runtime control flow ------------------------------------------------------------------------
   TL_FOR/TL_IF/TL_WHILE are C `for` statements that run their body once:
   the begin call opens the op's region and points the carried C variables
   at its block arguments; the end call yields their current values, closes
   the region, and points the variables at the op's results. */
static void tile__carry_names(struct tl__frame *fr, const char *names) {
    /* names is the stringized argument list; skip the first item (the step or
       the condition), respecting parentheses */
    int depth = 0, k = -1;
    size_t at = 0;
    const char *p = names;
    for (; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{') depth++;
        else if (*p == ')' || *p == ']' || *p == '}') depth--;
        else if (*p == ',' && depth == 0) {
            if (k >= 0 && k < TILE__MAX_CARRY) fr->names[k][at] = 0;
            k++;
            at = 0;
            continue;
        }
        if (k >= 0 && k < TILE__MAX_CARRY && at + 1 < sizeof fr->names[0] && !(at == 0 && *p == ' ')) fr->names[k][at++] = *p;
    }
    if (k >= 0 && k < TILE__MAX_CARRY) fr->names[k][at] = 0;
}
static int tile__control_ok(const char *file, int line, const char *what) {
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "%s used outside a kernel body being built", what); return 0; }
    TILE_FREE(tile__b->pending_else);
    tile__b->pending_else = NULL;
    return 1;
}
/* A carried block pointer flows around a construct as its offsets: each
   becomes a carried variable of its own (named "bp.off[d]"); its header
   (base, shape, strides, block) is the one from before and must stay so.
   0 after an error. */
static int tile__carry_blocks(struct tl__frame *fr, const char *what) {
    int n = 0;
    tl_t *vars[TILE__MAX_CARRY];
    char names[TILE__MAX_CARRY][32];
    for (int k = 0; k < fr->n; k++) {
        const struct tile__bptr *r = tile__bptr_of(*fr->vars[k]);
        int m = r ? r->rank : 1;
        if (n + m > TILE__MAX_CARRY) {
            tile__berr(TILE_ERR_ARITY, fr->file, fr->line, "%s: at most %d carried values (a block pointer counts one per dim)", what, TILE__MAX_CARRY);
            return 0;
        }
        if (!r) {
            vars[n] = fr->vars[k];
            memcpy(names[n++], fr->names[k], sizeof names[0]);
            continue;
        }
        tl_block_ptr *bp = (tl_block_ptr *)(void *)fr->vars[k];
        fr->bp[fr->nbp] = bp;
        fr->bp_hdr[fr->nbp] = bp->tl__hdr;
        fr->bp_name[fr->nbp++] = n;
        for (int d = 0; d < m; d++) {
            vars[n] = &bp->tl__off[d];
            snprintf(names[n++], sizeof names[0], "%.20s.off[%c]", fr->names[k], (char)('0' + d));   /* d < TL_MAX_RANK */
        }
    }
    fr->n = n;
    memcpy(fr->vars, vars, sizeof(tl_t *) * (size_t)n);
    memcpy(fr->names, names, sizeof names[0] * (size_t)n);
    return 1;
}
/* the carried block pointers kept their headers; 0 after an error */
static int tile__blocks_kept(struct tl__frame *fr, const char *file, int line, const char *what) {
    for (int j = 0; j < fr->nbp; j++) {
        if (fr->bp[j]->tl__hdr.id == fr->bp_hdr[j].id && fr->bp[j]->tl__hdr.build == fr->bp_hdr[j].build) continue;
        char nm[32];
        snprintf(nm, sizeof nm, "%s", fr->names[fr->bp_name[j]]);
        char *dot = strrchr(nm, '.');
        if (dot) *dot = 0;
        tile__berr(TILE_ERR_CARRY, file, line,
                   "%s: the carried block pointer '%s' was made anew in the body; a block pointer flows around a construct by its offsets only: "
                   "move it with tl_advance (or make it before the %s)", what, nm, what);
        return 0;
    }
    return 1;
}
/* Open a TL_FOR/TL_IF/TL_WHILE frame; NULL after an error (no builder, too
   many carried values). */
static struct tl__frame *tile__frame_open(int kind, const char *what, const char *file, int line, const char *names, int n, va_list ap) {
    if (!tile__control_ok(file, line, what)) return NULL;
    if (kind != TILE__FR_FOR && tile__b->lopt_file) {
        tile__berr(TILE_ERR_CONTROL, tile__b->lopt_file, tile__b->lopt_line, "TL_LOOP_OPTIONS: the next construct is the %s at line %d, not a TL_FOR", what, line);
        tile__b->lopt_file = NULL;
    }
    if (n > TILE__MAX_CARRY) {
        tile__berr(TILE_ERR_ARITY, file, line, "%s: at most %d carried values", what, TILE__MAX_CARRY);
        return NULL;
    }
    int depth = tile__b->top ? tile__b->top->depth + 1 : 1;
    if (depth > TILE__MAX_NEST) {
        tile__berr(TILE_ERR_CONTROL, file, line, "%s: runtime loops and branches nest at most %d deep", what, TILE__MAX_NEST);
        return NULL;
    }
    struct tl__frame *fr = (struct tl__frame *)tile__calloc(1, sizeof *fr);
    if (!fr) {
        tile__berr(TILE_ERR_NOMEM, file, line, "%s: out of host memory while building the kernel", what);
        return NULL;
    }
    fr->depth = depth;
    fr->kind = kind;
    fr->file = file;
    fr->line = line;
    fr->n = n < TILE__MAX_CARRY ? n : TILE__MAX_CARRY;
    for (int k = 0; k < n; k++) {
        tl_t *v = va_arg(ap, tl_t *);
        if (k < TILE__MAX_CARRY) fr->vars[k] = v;
    }
    tile__carry_names(fr, names);
    if (!tile__carry_blocks(fr, what)) {
        TILE_FREE(fr);
        return NULL;
    }
    fr->outer = tile__b->cur;
    fr->up = tile__b->top;
    tile__b->top = fr;
    return fr;
}
static void tile__frame_close(struct tl__frame *fr) {
    tile__b->top = fr->up;
    tile__b->cur = fr->outer;
    TILE_FREE(fr);
}
/* the current values of the carried variables; 0 and an error if one is bad */
static int tile__carried(struct tl__frame *fr, int *ids, const char *what) {
    for (int k = 0; k < fr->n; k++) {
        tl_t v = *fr->vars[k];
        if (v.id == 0) {
            tile__berr(TILE_ERR_VALUE, fr->file, fr->line, "%s: carried variable '%s' has no value; give it one before the %s", what, fr->names[k], what);
            return 0;
        }
        ids[k] = tile__use(fr->file, fr->line, what, v);
        if (!ids[k]) return 0;
        if (tile__b->f->vals[ids[k]].weak) ids[k] = tile__cast(ids[k], tile__weak_default(ids[k]), fr->file, fr->line);
    }
    return 1;
}
/* check the values yielded at the end of a body against the expected types,
   casting weak literals; returns 0 after an error */
static int tile__yield_check(struct tl__frame *fr, const char *file, int line, const char *what, int *ids, const tile__type *want) {
    if (!tile__blocks_kept(fr, file, line, what)) return 0;
    for (int k = 0; k < fr->n; k++) {
        tl_t v = *fr->vars[k];
        ids[k] = v.id == 0 ? 0 : tile__use(file, line, what, v);
        if (!ids[k]) {
            if (v.id == 0) tile__berr(TILE_ERR_VALUE, file, line, "%s: carried variable '%s' has no value", what, fr->names[k]);
            return 0;
        }
        if (tile__b->f->vals[ids[k]].weak && tile__ty(ids[k])->rank == 0 && want[k].rank == 0 && want[k].dtype != TL_PTR)
            ids[k] = tile__cast(ids[k], want[k].dtype, file, line);
        if (!tile__same_type(tile__ty(ids[k]), &want[k])) {
            char s1[96], s2[96];
            tile__berr(TILE_ERR_CARRY, file, line, "%s: carried variable '%s' is %s before but %s at the end of the body; it must keep one type (cast or reshape it)",
                       what, fr->names[k], tile__type_str(&want[k], s1, sizeof s1), tile__tys(ids[k], s2));
            return 0;
        }
    }
    return 1;
}

/* TL_LOOP_OPTIONS: kept for the next TL_FOR (tl__for_begin puts them in
   its op: TILE__FOR_* bits in i[0], num_stages in i[1]) */
void tl__loop_options(const char *file, int line, tl_loop_options o) {
    if (!tile__control_ok(file, line, "TL_LOOP_OPTIONS")) return;
    if (tile__b->lopt_file) {
        tile__berr(TILE_ERR_CONTROL, file, line, "TL_LOOP_OPTIONS: the options of line %d have no TL_FOR yet; give a loop's options once, right before it",
                   tile__b->lopt_line);
        return;
    }
    const char *bad = o.num_stages < 0 || o.num_stages > 16 ? "num_stages (0 for the launch's, else 1 to 16)"
                      : o.warp_specialize != 0 && o.warp_specialize != 1 ? "warp_specialize (0 or 1)"
                      : o.flatten != 0 && o.flatten != 1 ? "flatten (0 or 1)"
                      : o.disallow_acc_multi_buffer != 0 && o.disallow_acc_multi_buffer != 1 ? "disallow_acc_multi_buffer (0 or 1)" : NULL;
    if (bad) {
        tile__berr(TILE_ERR_VALUE, file, line, "TL_LOOP_OPTIONS: a bad %s", bad);
        return;
    }
    tile__b->lopt = o;
    tile__b->lopt_file = file;
    tile__b->lopt_line = line;
}
tl__frame *tl__for_begin(const char *file, int line, tl_t *iv, const char *names, int n, ...) {
    tl_t step = tile__pop(file, line), hi = tile__pop(file, line), lo = tile__pop(file, line);
    va_list ap;
    va_start(ap, n);
    struct tl__frame *fr = tile__frame_open(TILE__FR_FOR, "TL_FOR", file, line, names, n, ap);
    va_end(ap);
    tl_loop_options lopt;   /* TL_LOOP_OPTIONS before this loop, taken */
    int has_lopt = tile__b && tile__b->lopt_file;
    if (has_lopt) lopt = tile__b->lopt;
    else memset(&lopt, 0, sizeof lopt);
    if (tile__b) tile__b->lopt_file = NULL;
    if (!fr) return NULL;
    int ids[3 + TILE__MAX_CARRY];
    int l = tile__use(file, line, "TL_FOR", lo), h = tile__use(file, line, "TL_FOR", hi), s = tile__use(file, line, "TL_FOR", step);
    int ok = l && h && s && tile__carried(fr, ids + 3, "TL_FOR");
    tl_dtype it = TL_I32;
    if (ok) {
        int bad = 0;
        for (int k = 0; k < 3; k++) {
            int v = k == 0 ? l : k == 1 ? h : s;
            if (tile__ty(v)->rank != 0 || !tile__is_int(tile__dty(v)) || tile__dty(v) == TL_I1) bad = v;
        }
        if (bad) {
            char sb[96];
            tile__berr(TILE_ERR_DTYPE, file, line, "TL_FOR: bounds and step must be integer scalars (got %s)", tile__tys(bad, sb));
            ok = 0;
        } else {
            it = tile__common_dtype(l, h);
            it = tile__promote2(it, tile__b->f->vals[s].weak ? it : tile__dty(s));
            if (tile__b->f->vals[l].weak && tile__b->f->vals[h].weak && tile__b->f->vals[s].weak) it = TL_I32;
            ids[0] = tile__cast(l, it, file, line);
            ids[1] = tile__cast(h, it, file, line);
            ids[2] = tile__cast(s, it, file, line);
        }
    }
    /* A constant negative step counts down, as Python's range: loop j over
       [0, trip) and give the body iv = lo + j * step. */
    int down = 0;
    if (ok) {
        tile__op *so = tile__defop(ids[2]);
        if (so && so->code == TILE__OP_CONST && so->i[0] < 0 && tile__is_signed(it)) {
            down = ids[2];
            int neg = tile__emit1(TILE__OP_NEG, &ids[2], 1, *tile__ty(ids[2]), file, line);
            int span_ops[2] = {ids[0], ids[1]};
            int span = tile__emit1(TILE__OP_SUB, span_ops, 2, *tile__ty(ids[0]), file, line);
            int one = tile__const_i(it, 1, file, line);
            int t1[2] = {span, neg}, t2[2], t3[2];
            int a = tile__emit1(TILE__OP_ADD, t1, 2, *tile__ty(span), file, line);
            t2[0] = a; t2[1] = one;
            int b = tile__emit1(TILE__OP_SUB, t2, 2, *tile__ty(span), file, line);
            t3[0] = b; t3[1] = neg;
            int trip = tile__emit1(TILE__OP_DIV, t3, 2, *tile__ty(span), file, line);
            int zero = tile__const_i(it, 0, file, line);
            int mx[2] = {trip, zero};
            ids[1] = tile__emit1(TILE__OP_MAX, mx, 2, *tile__ty(span), file, line);
            fr->down_lo = ids[0];
            ids[0] = zero;
            ids[2] = one;
        }
    }
    if (!ok) {
        /* keep tracing the body (it may hold more errors) in a region of its own */
        int reg = tile__new_region(tile__b->f, -1, tile__b->cur);
        tile__b->cur = reg;
        fr->op = -1;
        *iv = tile__poison;
        return fr;
    }
    tile__type rts[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) rts[k] = *tile__ty(ids[3 + k]);
    int op = tile__emit(TILE__OP_FOR, ids, 3 + fr->n, rts, fr->n, file, line);
    tile__func *f = tile__b->f;
    if (has_lopt) {
        f->ops[op].i[0] = TILE__FOR_OPTIONS | (lopt.warp_specialize ? TILE__FOR_WS : 0) | (lopt.flatten ? TILE__FOR_FLATTEN : 0) |
                          (lopt.disallow_acc_multi_buffer ? TILE__FOR_NO_ACC_MB : 0);
        f->ops[op].i[1] = lopt.num_stages;
    }
    int reg = tile__new_region(f, op, tile__b->cur);
    f->ops[op].region[0] = reg;
    int args[1 + TILE__MAX_CARRY];
    tile__type ivt = tile__scalar_type(it);
    args[0] = tile__new_value(f, &ivt, -1, reg, file, line);
    for (int k = 0; k < fr->n; k++) args[1 + k] = tile__new_value(f, &rts[k], -1, reg, file, line);
    f->regs[reg].args = tile__pool_add(f, args, 1 + fr->n);
    f->regs[reg].nargs = 1 + fr->n;
    fr->op = op;
    tile__b->cur = reg;
    *iv = tile__mk(args[0]);
    if (down) {
        int m[2] = {args[0], down}, a2[2];
        a2[0] = fr->down_lo;
        a2[1] = tile__emit1(TILE__OP_MUL, m, 2, ivt, file, line);
        *iv = tile__mk(tile__emit1(TILE__OP_ADD, a2, 2, ivt, file, line));
    }
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__mk(args[1 + k]);
    return fr;
}
/* A construct whose op failed (an error in its header, or out of memory
   since: then its op may be an uncounted one) only closes, poisoning its
   carried variables. */
static int tile__frame_dead(struct tl__frame *fr) {
    if (fr->op >= 0 && tile__b->f->nomem) fr->op = -1;
    return fr->op < 0;
}
static int tile__frame_is_top(struct tl__frame *fr, const char *file, int line, const char *what) {
    if (tile__b && tile__b->top == fr) return 1;
    tile__berr(TILE_ERR_CONTROL, file, line, "%s: the construct does not match the innermost open TL_FOR/TL_IF/TL_WHILE (a break or goto inside a body?)", what);
    return 0;
}
tl__frame *tl__for_end(const char *file, int line, tl__frame *fr) {
    if (!tile__frame_is_top(fr, file, line, "TL_FOR")) return NULL;
    if (tile__frame_dead(fr)) {                     /* the loop header had an error */
        for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__poison;
        tile__frame_close(fr);
        return NULL;
    }
    tile__func *f = tile__b->f;
    tile__type want[TILE__MAX_CARRY];
    int ids[TILE__MAX_CARRY];
    int res = f->ops[fr->op].res;
    for (int k = 0; k < fr->n; k++) want[k] = f->vals[res + k].t;
    if (!tile__yield_check(fr, fr->file, fr->line, "TL_FOR", ids, want)) {
        /* yield the block arguments unchanged; copied: the pool moves on an append */
        const int *args = tile__args(f, &f->regs[f->ops[fr->op].region[0]]) + 1;
        for (int k = 0; k < fr->n; k++) ids[k] = args[k];
    }
    tile__emit(TILE__OP_YIELD, ids, fr->n, NULL, 0, file, line);
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__mk(res + k);
    tile__frame_close(fr);
    return NULL;
}

tl__frame *tl__if_begin(const char *file, int line, tl_t cond, const char *names, int n, ...) {
    va_list ap;
    va_start(ap, n);
    struct tl__frame *fr = tile__frame_open(TILE__FR_IF, "TL_IF", file, line, names, n, ap);
    va_end(ap);
    if (!fr) return NULL;
    int ids[TILE__MAX_CARRY];
    int c = tile__use(file, line, "TL_IF", cond);
    int ok = c && tile__carried(fr, ids, "TL_IF");
    if (ok && (tile__ty(c)->rank != 0 || !tile__is_int(tile__dty(c)))) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "TL_IF: the condition must be an integer or i1 scalar, not %s", tile__tys(c, s));
        ok = 0;
    }
    for (int k = 0; k < fr->n; k++) fr->saved[k] = *fr->vars[k];
    if (!ok) {
        tile__b->cur = tile__new_region(tile__b->f, -1, tile__b->cur);
        fr->op = -1;
        return fr;
    }
    c = tile__truth(c, file, line);
    tile__type rts[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) {
        rts[k] = *tile__ty(ids[k]);
        fr->saved[k] = tile__mk(ids[k]);
    }
    int op = tile__emit(TILE__OP_IF, &c, 1, rts, fr->n, file, line);
    tile__func *f = tile__b->f;
    f->ops[op].region[0] = tile__new_region(f, op, tile__b->cur);
    f->ops[op].region[1] = tile__new_region(f, op, tile__b->cur);
    fr->op = op;
    tile__b->cur = f->ops[op].region[0];
    return fr;
}
/* close the current branch of an IF: yield the carried values */
static void tile__if_yield(struct tl__frame *fr, const char *file, int line, const char *what) {
    tile__func *f = tile__b->f;
    tile__type want[TILE__MAX_CARRY];
    int ids[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) want[k] = f->vals[f->ops[fr->op].res + k].t;
    if (!tile__yield_check(fr, fr->file, fr->line, what, ids, want))
        for (int k = 0; k < fr->n; k++) ids[k] = fr->saved[k].id;
    tile__emit(TILE__OP_YIELD, ids, fr->n, NULL, 0, file, line);
}
tl__frame *tl__if_end(const char *file, int line, tl__frame *fr) {
    if (!tile__frame_is_top(fr, file, line, "TL_IF")) return NULL;
    if (tile__frame_dead(fr)) {
        for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__poison;
        tile__frame_close(fr);
        return NULL;
    }
    tile__func *f = tile__b->f;
    tile__if_yield(fr, file, line, "TL_IF");
    /* the else branch, until a TL_ELSE replaces it, yields the values from before */
    tile__b->cur = f->ops[fr->op].region[1];
    int ids[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) ids[k] = fr->saved[k].id;
    tile__emit(TILE__OP_YIELD, ids, fr->n, NULL, 0, file, line);
    int res = f->ops[fr->op].res;
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__mk(res + k);
    /* keep the frame for a TL_ELSE that may follow */
    tile__b->top = fr->up;
    tile__b->cur = fr->outer;
    TILE_FREE(tile__b->pending_else);
    tile__b->pending_else = fr;
    fr->end_nops = f->nops;
    return NULL;
}
tl__frame *tl__else_begin(const char *file, int line) {
    if (!tile__b) { tile__error(TILE_ERR_CONTEXT, NULL, file, line, "TL_ELSE used outside a kernel body being built"); return NULL; }
    struct tl__frame *fr = tile__b->pending_else;
    tile__b->pending_else = NULL;
    if (!fr || fr->end_nops != tile__b->f->nops || fr->outer != tile__b->cur) {
        TILE_FREE(fr);
        tile__berr(TILE_ERR_CONTROL, file, line, "TL_ELSE does not follow a TL_IF body");
        return NULL;
    }
    tile__func *f = tile__b->f;
    tile__region *r = &f->regs[f->ops[fr->op].region[1]];
    for (int k = 0; k < r->nops; k++) f->ops[r->ops[k]].dead = 1;
    r->nops = 0;
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = fr->saved[k];
    fr->kind = TILE__FR_ELSE;
    fr->file = file;                /* errors in the else part point at TL_ELSE */
    fr->line = line;
    fr->up = tile__b->top;
    tile__b->top = fr;
    tile__b->cur = f->ops[fr->op].region[1];
    return fr;
}
tl__frame *tl__else_end(const char *file, int line, tl__frame *fr) {
    if (!tile__frame_is_top(fr, file, line, "TL_ELSE")) return NULL;
    if (tile__frame_dead(fr)) {
        for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__poison;
        tile__frame_close(fr);
        return NULL;
    }
    tile__if_yield(fr, file, line, "TL_ELSE");
    int res = tile__b->f->ops[fr->op].res;
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__mk(res + k);
    tile__frame_close(fr);
    return NULL;
}

tl__frame *tl__while_begin(const char *file, int line, const char *names, int n, ...) {
    va_list ap;
    va_start(ap, n);
    struct tl__frame *fr = tile__frame_open(TILE__FR_WHILE, "TL_WHILE", file, line, names, n, ap);
    va_end(ap);
    if (!fr) return NULL;
    int ids[TILE__MAX_CARRY];
    tile__func *f = tile__b->f;
    if (!tile__carried(fr, ids, "TL_WHILE")) {
        fr->op = -1;
        tile__b->cur = tile__new_region(f, -1, tile__b->cur);
        return fr;
    }
    tile__type rts[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) rts[k] = *tile__ty(ids[k]);
    int op = tile__emit(TILE__OP_WHILE, ids, fr->n, rts, fr->n, file, line);
    int before = tile__new_region(f, op, tile__b->cur), after = tile__new_region(f, op, tile__b->cur);
    f->ops[op].region[0] = before;
    f->ops[op].region[1] = after;
    int a1[TILE__MAX_CARRY], a2[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) {
        a1[k] = tile__new_value(f, &rts[k], -1, before, file, line);
        a2[k] = tile__new_value(f, &rts[k], -1, after, file, line);
    }
    f->regs[before].args = tile__pool_add(f, a1, fr->n);
    f->regs[before].nargs = fr->n;
    f->regs[after].args = tile__pool_add(f, a2, fr->n);
    f->regs[after].nargs = fr->n;
    fr->op = op;
    tile__b->cur = before;
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__mk(a1[k]);
    return fr;
}
int tl__while_cond(const char *file, int line, tl__frame *fr, tl_t cond) {
    if (!fr) return 0;
    if (fr->stage == 2) {
        /* the condition was traced once more by C's `for`; throw that away,
           but a condition that reads a value made in the body was never the
           loop's condition: say so */
        if (cond.id > 0 && cond.build == tile__b->serial && cond.id < tile__b->f->nvals &&
            !tile__region_within(tile__b->f, tile__b->cur, tile__b->f->vals[cond.id].region))
            tile__berr(TILE_ERR_SCOPE, fr->file, fr->line,
                       "TL_WHILE: the condition reads a value made at line %d inside the loop body; carry that variable so the condition sees it",
                       tile__b->f->vals[cond.id].line);
        tile__func *f = tile__b->f;
        tile__region *r = &f->regs[fr->trash];
        for (int k = 0; k < r->nops; k++) f->ops[r->ops[k]].dead = 1;
        r->nops = 0;
        tile__frame_close(fr);
        return 0;
    }
    if (!tile__frame_is_top(fr, file, line, "TL_WHILE")) return 0;
    fr->stage = 1;
    if (tile__frame_dead(fr)) return 1;
    tile__func *f = tile__b->f;
    int c = tile__use(file, line, "TL_WHILE", cond);
    if (c && (tile__ty(c)->rank != 0 || !tile__is_int(tile__dty(c)))) {
        char s[96];
        tile__berr(TILE_ERR_DTYPE, file, line, "TL_WHILE: the condition must be an integer or i1 scalar, not %s", tile__tys(c, s));
        c = 0;
    }
    int ids[1 + TILE__MAX_CARRY];
    tile__type want[TILE__MAX_CARRY];
    for (int k = 0; k < fr->n; k++) want[k] = f->vals[f->ops[fr->op].res + k].t;
    int before = f->ops[fr->op].region[0], after = f->ops[fr->op].region[1];
    if (c && tile__yield_check(fr, file, line, "TL_WHILE", ids + 1, want)) {
        ids[0] = tile__truth(c, file, line);
    } else {
        ids[0] = tile__const_i(TL_I1, 0, file, line);
        memcpy(ids + 1, tile__args(f, &f->regs[before]), sizeof(int) * (size_t)fr->n);
    }
    tile__emit(TILE__OP_CONDITION, ids, 1 + fr->n, NULL, 0, file, line);
    tile__b->cur = after;
    const int *a2 = tile__args(f, &f->regs[after]);
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = tile__mk(a2[k]);
    return 1;
}
tl__frame *tl__while_end(const char *file, int line, tl__frame *fr) {
    if (!tile__frame_is_top(fr, file, line, "TL_WHILE")) return NULL;
    tile__func *f = tile__b->f;
    if (!tile__frame_dead(fr)) {
        tile__type want[TILE__MAX_CARRY];
        int ids[TILE__MAX_CARRY];
        for (int k = 0; k < fr->n; k++) want[k] = f->vals[f->ops[fr->op].res + k].t;
        if (!tile__yield_check(fr, fr->file, fr->line, "TL_WHILE", ids, want))
            memcpy(ids, tile__args(f, &f->regs[f->ops[fr->op].region[1]]), sizeof(int) * (size_t)fr->n);
        tile__emit(TILE__OP_YIELD, ids, fr->n, NULL, 0, file, line);
    }
    int res = fr->op >= 0 ? f->ops[fr->op].res : 0;
    for (int k = 0; k < fr->n; k++) *fr->vars[k] = fr->op >= 0 ? tile__mk(res + k) : tile__poison;
    fr->stage = 2;
    fr->trash = tile__new_region(f, -1, fr->outer);
    tile__b->cur = fr->trash;
    return fr;
}

/* ---- a whole build ----------------------------------------------------------------------------
   Trace the kernel body for one launch configuration into a fresh function;
   elems: per parameter, the dtype a tl_ptr one was given (NULL when the
   kernel has none). Returns TILE_OK and fills *out, or the first user error. */
static tile_status tile__trace(const tile_kernel *k, const tile_launch *opts, const tl_dtype *elems, tile__func *out) {
    tile__builder b;
    memset(&b, 0, sizeof b);
    if (!tile__func_init(out, k->name))
        return tile__error(TILE_ERR_NOMEM, k->name, opts && opts->file ? opts->file : k->file, opts && opts->file ? opts->line : k->line,
                           "out of host memory while building the kernel");
    out->file = k->file;
    out->line = k->line;
    for (int p = 0; elems && p < k->nparams && p < 64; p++)   /* tl_ptr parameters: their dtypes name the dumps */
        if (k->params[p].dtype == TL_PTR && k->params[p].elem == TL_VOID) {
            size_t n = strlen(out->dump_name);
            snprintf(out->dump_name + n, sizeof out->dump_name - n, ".%s", tile_dtype_name(elems[p]));
        }
    static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;
    static uint32_t serials;
    b.f = out;
    b.k = k;
    b.opts = opts;
    b.elems = elems;
    b.cur = 0;
    pthread_mutex_lock(&serial_lock);
    b.serial = ++serials ? serials : ++serials;  /* never 0 */
    pthread_mutex_unlock(&serial_lock);
    tile__builder *saved = tile__b;
    if (saved) {
        tile__func_free(out);
        return tile__error(TILE_ERR_CONTEXT, k->name, opts && opts->file ? opts->file : k->file, opts && opts->file ? opts->line : k->line,
                           "a kernel was launched from inside another kernel's body");
    }
    tile__b = &b;
    tl_t args[64];
    int np = k->nparams < 64 ? k->nparams : 64;
    int ids[64] = {0};
    for (int p = 0; p < np; p++) {
        tile__type t = tile__scalar_type(k->params[p].dtype);
        t.elem = k->params[p].elem;
        if (t.dtype == TL_PTR && t.elem == TL_VOID) t.elem = elems ? elems[p] : TL_VOID;   /* tl_ptr: the launch's dtype */
        ids[p] = tile__new_value(out, &t, -1, 0, k->file, k->line);
        args[p] = tile__mk(ids[p]);
    }
    out->regs[0].args = tile__pool_add(out, ids, np);
    out->regs[0].nargs = np;
    out->nparams = np;
    int hdesc = -1;   /* >>hostdesc: a tl_desc parameter is built through its launch's arguments only (launch.h) */
    for (int p = 0; p < np && hdesc < 0; p++)
        if (k->params[p].dtype == TL_DESC) hdesc = p;
    if (k->nparams > 64) tile__berr(TILE_ERR_ARITY, k->file, k->line, "a kernel takes at most 64 parameters");
    else if (hdesc >= 0)
        tile__berr(TILE_ERR_ARG, opts && opts->file ? opts->file : k->file, opts && opts->file ? opts->line : k->line,
                   "parameter %d (%s) is a tl_desc: its block shape comes from the launch's argument; build the kernel through a call that "
                   "takes the arguments (the launcher, tile_launch_kernel, tile_kernel_ptx_for, tile_kernel_ir_for)",
                   hdesc + 1, k->params[hdesc].name);
    else k->body(args);
    /* a construct left open means its body was left by break/return/goto */
    while (b.top) {
        struct tl__frame *fr = b.top;
        tile__berr(TILE_ERR_CONTROL, fr->file, fr->line, "the body of this TL_%s was left by break, return or goto; runtime loops and branches must run to their end",
                   fr->kind == TILE__FR_FOR ? "FOR" : fr->kind == TILE__FR_WHILE ? "WHILE" : fr->kind == TILE__FR_ELSE ? "ELSE" : "IF");
        b.top = fr->up;
        TILE_FREE(fr);
    }
    TILE_FREE(b.pending_else);
    TILE_FREE(b.bps);
    if (b.st == TILE_OK && !out->nomem && tile__profile_nesting(out, 0)) {
        const char *names[257];
        if (tile__kprof_names(out, names, 257) > 256) tile__berr(TILE_ERR_PROFILE, k->file, k->line, "the kernel has more than 256 names of in-kernel scopes");
    }
    if (b.lopt_file) tile__berr(TILE_ERR_CONTROL, b.lopt_file, b.lopt_line, "TL_LOOP_OPTIONS: no TL_FOR follows in the kernel");
    if (out->nomem) tile__berr(TILE_ERR_NOMEM, k->file, k->line, "out of host memory while building the kernel");
    tile__b = saved;
    if (b.st != TILE_OK) tile__func_free(out);
    return b.st;
}
