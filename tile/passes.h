/* tile/passes.h — >>passes: the printer, the verifier, constant folding,
   CSE and DCE. Part of tile.h's implementation; included once under
   TILE_IMPLEMENTATION, after tile/ir.h and tile/build.h.

   Why it is shaped this way: every pass walks the structured regions in
   program order (an op, then the ops of its regions, then the next op), so
   a value is always met before its uses. A pass therefore rewrites operands
   as it goes through one forwarding map (value -> replacement) instead of
   keeping use lists, and a table scoped to the region being walked gives
   CSE exactly SSA dominance (a value of an enclosing region, defined
   earlier) with no dominator tree. Passes never delete from the op array:
   they set `dead` and drop the op from its region's list, so op and value
   ids stay stable, and the printer numbers values afresh in print order,
   so dumps do not depend on the gaps passes leave.

   Glossary
     live     an op without `dead`, listed in a region reachable from the body
     map      int per value id: 0, or the value that replaces it
     in scope a value of the op's region or an enclosing one, defined earlier
*/

/* The tables below spell tile_lang.h's enums by name; keep them in step. */
_Static_assert(TL_REDUCE_AND == 8, "tile__p_reduce_names follows tl_reduce_op");
_Static_assert(TL_ATOMIC_XCHG == 6, "tile__p_atomic_names follows tl_atomic_op");
_Static_assert(TL_CACHE_WT == 6, "tile__p_cache_names follows tl_cache");
_Static_assert(TL_EVICT_LAST == 2, "tile__p_evict_names follows tl_evict");
_Static_assert(TL_SEM_RELEASE == 3, "tile__p_sem_names follows tl_sem");
_Static_assert(TL_SCOPE_SYS == 2, "tile__p_scope_names follows tl_scope");
_Static_assert(TL_PRECISION_IEEE == 3, "tile__p_precision_names follows tl_precision");
static const char *const tile__p_reduce_names[] = {"sum", "max", "min", "argmax", "argmin", "xor_sum", "prod", "or", "and"};
static const char *const tile__p_atomic_names[] = {"add", "max", "min", "and", "or", "xor", "xchg"};
static const char *const tile__p_cache_names[] = {"none", "ca", "cg", "cs", "cv", "wb", "wt"};
static const char *const tile__p_evict_names[] = {"normal", "first", "last"};
static const char *const tile__p_sem_names[] = {"acq_rel", "relaxed", "acquire", "release"};
static const char *const tile__p_scope_names[] = {"gpu", "cta", "sys"};
static const char *const tile__p_precision_names[] = {"default", "tf32", "tf32x3", "ieee"};
#define TILE__COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- shared by the passes ------------------------------------------------- */

static const char *tile__op_name(tile__opcode code) {
    return (code >= 0 && code < TILE__OP_COUNT_) ? tile__op_names[code] : "?";
}

/* Append the live ops of region `reg` and of everything nested in it to
   out[n..cap), in program order; returns the new count. */
static int tile__walk(const tile__func *f, int reg, int *out, int n, int cap) {
    if (reg < 0 || reg >= f->nregs) return n;
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops && n < cap; k++) {
        const tile__op *o = &f->ops[r->ops[k]];
        if (o->dead) continue;
        out[n++] = r->ops[k];
        n = tile__walk(f, o->region[0], out, n, cap);
        n = tile__walk(f, o->region[1], out, n, cap);
    }
    return n;
}

/* The value that finally replaces v (chains end: a replacement is always
   defined before the value it replaces). */
static int tile__resolve(const int *map, int v) {
    while (v > 0 && map[v]) v = map[v];
    return v;
}
static void tile__remap_op(tile__func *f, const tile__op *o, const int *map) {
    int *a = f->pool + o->opnd;
    for (int k = 0; k < o->nopnd; k++) a[k] = tile__resolve(map, a[k]);
}
/* Every use of a value v with map[v] != 0 becomes a use of its replacement,
   in every op of the function, terminators included. */
static void tile__replace_uses(tile__func *f, const int *map) {
    for (int id = 0; id < f->nops; id++)
        if (!f->ops[id].dead) tile__remap_op(f, &f->ops[id], map);
}

/* Drop dead ops from every region's list. */
static void tile__compact(tile__func *f) {
    for (int r = 0; r < f->nregs; r++) {
        tile__region *g = &f->regs[r];
        int j = 0;
        for (int k = 0; k < g->nops; k++)
            if (!f->ops[g->ops[k]].dead) g->ops[j++] = g->ops[k];
        g->nops = j;
    }
}

/* The CONST op defining v, or NULL. */
static const tile__op *tile__const_of(const tile__func *f, int v) {
    if (v <= 0 || v >= f->nvals) return NULL;
    int d = f->vals[v].def;
    if (d < 0 || f->ops[d].dead || f->ops[d].code != TILE__OP_CONST) return NULL;
    return &f->ops[d];
}
/* The element of a constant value (ints in i[0], floats in f). */
static tile__elem tile__const_elem(const tile__func *f, int v) {
    const tile__op *c = tile__const_of(f, v);
    tl_dtype t = f->vals[v].t.dtype;
    tile__elem e;
    e.u = 0;
    if (tile__is_float(t)) e.f = c->f;
    else e.i = c->i[0];
    return tile__norm(t, e);
}
static void tile__set_const(tile__func *f, tile__op *o, tile__elem v) {
    tl_dtype t = f->vals[o->res].t.dtype;
    v = tile__norm(t, v);
    o->code = TILE__OP_CONST;
    o->nopnd = 0;
    memset(o->i, 0, sizeof o->i);
    o->f = 0;
    o->s = NULL;
    if (tile__is_float(t)) o->f = v.f;
    else o->i[0] = v.i;
}

/* ---- the printer ------------------------------------------------------------
   kernel NAME(%0: TYPE, ...) {                               // FILE:LINE
     %4 = OP OPERANDS {ATTRS} : RESULT TYPES                  // FILE:LINE
     %12, %13 = for %14 = LO to HI step S iter(%15 = INIT, %16 = INIT) {
       ...
       yield %20, %21
     } : TYPES
     %20 = if %19 { ... } else { ... } : TYPES
     %30 = while (%31 = INIT) { ... condition %c, %x } do (%32) { ... yield %y } : TYPES
     %40, %41 = map_elementwise %1, %2 (%42: f32, %43: i32) {pack=P} { ... yield %r, %s } : TYPES
   }
   Values are numbered in print order, locations are basenames in a column
   of their own; attributes print by name, hints only when not the default,
   and any attribute slot the printer has no name for prints raw (i3=5), so
   an attribute nobody taught the printer still shows in the dump. */

typedef struct tile__buf {
    char *p;
    size_t n, cap;
    int oom;
} tile__buf;

static void tile__bvprintf(tile__buf *b, const char *fmt, va_list ap) {
    while (!b->oom) {
        size_t room = b->cap - b->n;
        va_list aq;
        va_copy(aq, ap);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, room, fmt, aq);
        va_end(aq);
        if (k < 0) { b->oom = 1; return; }
        if ((size_t)k < room) { b->n += (size_t)k; return; }
        size_t cap = b->cap ? b->cap : 1024;
        while (cap - b->n <= (size_t)k) cap *= 2;
        char *q = (char *)TILE_REALLOC(b->p, cap);
        if (!q) { b->oom = 1; return; }
        b->p = q;
        b->cap = cap;
    }
}

#define TILE__LOC_COLUMN 64

typedef struct tile__printer {
    const tile__func *f;
    tile__buf b;
    size_t line_start;       /* offset of the current line in b           */
    int *num;                /* value id -> printed number, -1 not yet     */
    int next;
    int nattr;               /* attributes printed in the current {...}   */
} tile__printer;

static void tile__p(tile__printer *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tile__bvprintf(&p->b, fmt, ap);
    va_end(ap);
}

static const char *tile__basename(const char *path) {
    const char *s = path;
    for (; *path; path++)
        if (*path == '/' || *path == '\\') s = path + 1;
    return s;
}

/* End the line, with `// file:line` in the location column. */
static void tile__p_eol(tile__printer *p, const char *file, int line) {
    if (file && !p->b.oom) {
        size_t col = p->b.n - p->line_start;
        int pad = col + 2 <= TILE__LOC_COLUMN ? (int)(TILE__LOC_COLUMN - col) : 2;
        tile__p(p, "%*s// %s:%d", pad, "", tile__basename(file), line);
    }
    tile__p(p, "\n");
    p->line_start = p->b.n;
}

static void tile__p_def(tile__printer *p, int v) {
    if (v > 0 && v < p->f->nvals) p->num[v] = p->next;
    tile__p(p, "%%%d", p->next++);
}
static void tile__p_use(tile__printer *p, int v) {
    if (v <= 0 || v >= p->f->nvals) tile__p(p, "%%none");
    else if (p->num[v] < 0) tile__p(p, "%%?v%d", v);   /* not in scope: broken IR */
    else tile__p(p, "%%%d", p->num[v]);
}
static void tile__p_uses(tile__printer *p, const int *a, int n) {
    for (int k = 0; k < n; k++) {
        tile__p(p, k ? ", " : " ");
        tile__p_use(p, a[k]);
    }
}
static void tile__p_type(tile__printer *p, const tile__type *t) {
    char buf[160];
    tile__p(p, "%s", tile__type_str(t, buf, sizeof buf));
}
static void tile__p_result_types(tile__printer *p, const tile__op *o) {
    for (int r = 0; r < o->nres; r++) {
        int v = o->res + r;
        tile__p(p, r ? ", " : " : ");
        if (v > 0 && v < p->f->nvals) tile__p_type(p, &p->f->vals[v].t);
        else tile__p(p, "?");
    }
}
static void tile__p_str(tile__printer *p, const char *s) {
    tile__p(p, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') tile__p(p, "\\%c", c);
        else if (c == '\n') tile__p(p, "\\n");
        else if (c == '\t') tile__p(p, "\\t");
        else if (c == '\r') tile__p(p, "\\r");
        else if (c < 0x20 || c == 0x7f) tile__p(p, "\\%03o", c);
        else tile__p(p, "%c", c);
    }
    tile__p(p, "\"");
}

/* The shortest decimal that reads back (rounded to dtype t) as v. */
static void tile__fmt_float(char *out, size_t n, tl_dtype t, double v) {
    if (v != v) { snprintf(out, n, "nan"); return; }
    if (v == INFINITY || v == -INFINITY) { snprintf(out, n, v < 0 ? "-inf" : "inf"); return; }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, v);
        double back = strtod(out, NULL);
        if ((tile__is_float(t) ? tile__round_float(t, back) : back) == v && !signbit(back) == !signbit(v)) break;
    }
    if (!strpbrk(out, ".e") && strlen(out) + 3 <= n) strcat(out, ".0");
}
static void tile__p_const(tile__printer *p, const tile__op *o, tl_dtype t) {
    char buf[64];
    tile__elem e;
    e.i = o->i[0];
    e = tile__norm(t, e);
    if (tile__is_float(t)) {
        tile__fmt_float(buf, sizeof buf, t, o->f);
        tile__p(p, " %s", buf);
    } else if (t == TL_I1) {
        tile__p(p, " %s", e.i ? "true" : "false");
    } else if (tile__is_unsigned(t) || t == TL_PTR) {
        tile__p(p, " %llu", (unsigned long long)e.u);
    } else {
        tile__p(p, " %lld", (long long)e.i);
    }
}

static void tile__p_attr(tile__printer *p, const char *fmt, ...) {
    va_list ap;
    tile__p(p, p->nattr++ ? ", " : " {");
    va_start(ap, fmt);
    tile__bvprintf(&p->b, fmt, ap);
    va_end(ap);
}
/* key=name, or key=number when the value has no name */
static void tile__p_enum(tile__printer *p, const char *key, const char *const *names, int count, long long v) {
    if (v >= 0 && v < count) tile__p_attr(p, "%s=%s", key, names[v]);
    else tile__p_attr(p, "%s=%lld", key, v);
}
/* Attribute slots the op's own format did not print (`used` has bit k for
   i[k]), then the braces' end. */
static void tile__p_rest_attrs(tile__printer *p, const tile__op *o, unsigned used, int f_used, int s_used) {
    char name[32];
    for (int k = 0; k < TILE__MAX_IATTR; k++)
        if (!(used >> k & 1u) && o->i[k]) {
            if (*tile__op_attr_name(o->code, k, name, sizeof name)) tile__p_attr(p, "%s=%lld", name, o->i[k]);
            else tile__p_attr(p, "i%d=%lld", k, o->i[k]);
        }
    if (!f_used && (o->f != 0 || signbit(o->f))) {
        char buf[64];
        tile__fmt_float(buf, sizeof buf, TL_F64, o->f);
        tile__p_attr(p, "f=%s", buf);
    }
    if (!s_used && o->s) {
        tile__p_attr(p, "s=");
        tile__p_str(p, o->s);
    }
    if (p->nattr) tile__p(p, "}");
    p->nattr = 0;
}

static void tile__p_region(tile__printer *p, int reg, int depth);

static const int *tile__region_args(const tile__func *f, int reg, int *n) {
    *n = (reg >= 0 && reg < f->nregs) ? f->regs[reg].nargs : 0;
    return *n ? f->pool + f->regs[reg].args : NULL;
}
/* The last live op of a region: its terminator when the IR is sound. */
static const tile__op *tile__region_last(const tile__func *f, int reg) {
    if (reg < 0 || reg >= f->nregs) return NULL;
    for (int k = f->regs[reg].nops - 1; k >= 0; k--)
        if (!f->ops[f->regs[reg].ops[k]].dead) return &f->ops[f->regs[reg].ops[k]];
    return NULL;
}

/* for / if / while: the header line, the regions, the closing line. */
static void tile__p_control(tile__printer *p, const tile__op *o, int depth) {
    const tile__func *f = p->f;
    const int *a = f->pool + o->opnd;
    int indent = 2 * (depth + 1), nargs, k;
    const int *args = tile__region_args(f, o->region[0], &nargs);
    if (o->code == TILE__OP_FOR) {
        tile__p(p, "for ");
        if (nargs > 0) tile__p_def(p, args[0]);
        else tile__p(p, "%%?");
        tile__p(p, " =");
        tile__p_uses(p, a, o->nopnd < 1 ? o->nopnd : 1);
        tile__p(p, " to");
        tile__p_uses(p, a + 1, o->nopnd < 2 ? 0 : 1);
        tile__p(p, " step");
        tile__p_uses(p, a + 2, o->nopnd < 3 ? 0 : 1);
        if (o->nopnd > 3 || nargs > 1) {
            int n = o->nopnd - 3 > nargs - 1 ? o->nopnd - 3 : nargs - 1;
            tile__p(p, " iter(");
            for (k = 0; k < n; k++) {
                tile__p(p, k ? ", " : "");
                if (k + 1 < nargs) tile__p_def(p, args[k + 1]);
                else tile__p(p, "%%?");
                tile__p(p, " = ");
                tile__p_use(p, 3 + k < o->nopnd ? a[3 + k] : 0);
            }
            tile__p(p, ")");
        }
    } else if (o->code == TILE__OP_IF) {
        tile__p(p, "if");
        tile__p_uses(p, a, o->nopnd);
    } else if (o->code == TILE__OP_MAP) {   /* map_elementwise %x, %y (%a: f32, %b: f32) {pack=2} */
        tile__p(p, "map_elementwise");
        tile__p_uses(p, a, o->nopnd);
        tile__p(p, " (");
        for (k = 0; k < nargs; k++) {
            tile__p(p, k ? ", " : "");
            tile__p_def(p, args[k]);
            tile__p(p, ": ");
            if (args[k] > 0 && args[k] < f->nvals) tile__p_type(p, &f->vals[args[k]].t);
        }
        tile__p(p, ")");
    } else {
        int n = o->nopnd > nargs ? o->nopnd : nargs;
        tile__p(p, "while");
        if (n) tile__p(p, " (");
        for (k = 0; k < n; k++) {
            tile__p(p, k ? ", " : "");
            if (k < nargs) tile__p_def(p, args[k]);
            else tile__p(p, "%%?");
            tile__p(p, " = ");
            tile__p_use(p, k < o->nopnd ? a[k] : 0);
        }
        if (n) tile__p(p, ")");
    }
    unsigned used = o->code == TILE__OP_MAP && o->i[0] == 1;   /* pack 1 goes unsaid */
    if (o->code == TILE__OP_FOR && (o->i[0] & TILE__FOR_OPTIONS)) {   /* TL_LOOP_OPTIONS */
        used = 3;
        if (o->i[1]) tile__p_attr(p, "num_stages=%lld", o->i[1]);
        if (o->i[0] & TILE__FOR_WS) tile__p_attr(p, "warp_specialize");
        if (o->i[0] & TILE__FOR_FLATTEN) tile__p_attr(p, "flatten");
        if (o->i[0] & TILE__FOR_NO_ACC_MB) tile__p_attr(p, "disallow_acc_multi_buffer");
        if (!o->i[1] && o->i[0] == TILE__FOR_OPTIONS) tile__p_attr(p, "options");
    }
    tile__p_rest_attrs(p, o, used, 0, 0);
    tile__p(p, " {");
    tile__p_eol(p, o->file, o->line);
    tile__p_region(p, o->region[0], depth + 1);
    if (o->region[1] >= 0) {
        tile__p(p, "%*s}", indent, "");
        if (o->code == TILE__OP_WHILE) {
            args = tile__region_args(f, o->region[1], &nargs);
            tile__p(p, " do");
            for (k = 0; k < nargs; k++) {
                tile__p(p, k ? ", " : " (");
                tile__p_def(p, args[k]);
            }
            tile__p(p, nargs ? ") {" : " {");
        } else {
            tile__p(p, " else {");
        }
        tile__p_eol(p, NULL, 0);
        tile__p_region(p, o->region[1], depth + 1);
    }
    tile__p(p, "%*s}", indent, "");
    tile__p_result_types(p, o);
    tile__p_eol(p, NULL, 0);
}

static void tile__p_op(tile__printer *p, const tile__op *o, int depth) {
    const tile__func *f = p->f;
    const int *a = f->pool + o->opnd;
    int n = o->nopnd, f_used = 0, s_used = 0;
    unsigned used = 0;
    tl_dtype rt = (o->nres > 0 && o->res > 0 && o->res < f->nvals) ? f->vals[o->res].t.dtype : TL_VOID;
    tile__p(p, "%*s", 2 * (depth + 1), "");
    for (int r = 0; r < o->nres; r++) {
        tile__p(p, r ? ", " : "");
        tile__p_def(p, o->res + r);
    }
    if (o->nres > 0) tile__p(p, " = ");
    p->nattr = 0;
    switch (o->code) {
    case TILE__OP_FOR: case TILE__OP_IF: case TILE__OP_WHILE: case TILE__OP_MAP:
        tile__p_control(p, o, depth);
        return;
    case TILE__OP_CONST:
        tile__p(p, "const");
        tile__p_const(p, o, rt);
        if (tile__is_float(rt)) f_used = 1;
        else used = 1;
        break;
    case TILE__OP_PROGRAM_ID: case TILE__OP_NUM_PROGRAMS:
        tile__p(p, "%s %lld", tile__op_name(o->code), o->i[0]);
        used = 1;
        break;
    case TILE__OP_ARANGE:
        tile__p(p, "arange %lld, %lld", o->i[0], o->i[1]);
        used = 3;
        break;
    case TILE__OP_EXPAND_DIMS:
        tile__p(p, "expand_dims");
        tile__p_uses(p, a, n);
        tile__p_attr(p, "axis=%lld", o->i[0]);
        used = 1;
        break;
    case TILE__OP_PERMUTE: {
        int rank = (o->nres > 0 && rt != TL_VOID) ? f->vals[o->res].t.rank : 0;
        tile__p(p, "permute");
        tile__p_uses(p, a, n);
        tile__p_attr(p, "order=[");
        for (int d = 0; d < rank && d < TILE__MAX_IATTR; d++) {
            tile__p(p, "%s%lld", d ? "," : "", o->i[d]);
            used |= 1u << d;
        }
        tile__p(p, "]");
        break;
    }
    case TILE__OP_LOAD:
        tile__p(p, "load");
        tile__p_uses(p, a, n < 1 ? n : 1);
        if (n > 1 && a[1]) { tile__p(p, ", mask "); tile__p_use(p, a[1]); }
        if (n > 2 && a[2]) { tile__p(p, ", other "); tile__p_use(p, a[2]); }
        if (o->i[0]) tile__p_enum(p, "cache", tile__p_cache_names, TILE__COUNT_OF(tile__p_cache_names), o->i[0]);
        if (o->i[1]) tile__p_enum(p, "evict", tile__p_evict_names, TILE__COUNT_OF(tile__p_evict_names), o->i[1]);
        if (o->i[2]) tile__p_attr(p, "volatile");
        used = 7;
        break;
    case TILE__OP_STORE:
        tile__p(p, "store");
        tile__p_uses(p, a, n < 2 ? n : 2);
        if (n > 2 && a[2]) { tile__p(p, ", mask "); tile__p_use(p, a[2]); }
        if (o->i[0]) tile__p_enum(p, "cache", tile__p_cache_names, TILE__COUNT_OF(tile__p_cache_names), o->i[0]);
        if (o->i[1]) tile__p_enum(p, "evict", tile__p_evict_names, TILE__COUNT_OF(tile__p_evict_names), o->i[1]);
        used = 3;
        break;
    case TILE__OP_ATOMIC: case TILE__OP_ATOMIC_CAS:
        if (o->code == TILE__OP_ATOMIC) {
            if (o->i[0] >= 0 && o->i[0] < TILE__COUNT_OF(tile__p_atomic_names))
                tile__p(p, "atomic %s", tile__p_atomic_names[o->i[0]]);
            else
                tile__p(p, "atomic %lld", o->i[0]);
            tile__p_uses(p, a, n < 2 ? n : 2);
            if (n > 2 && a[2]) { tile__p(p, ", mask "); tile__p_use(p, a[2]); }
            used = 1;
        } else {
            tile__p(p, "atomic_cas");
            tile__p_uses(p, a, n);
        }
        if (o->i[1]) tile__p_enum(p, "sem", tile__p_sem_names, TILE__COUNT_OF(tile__p_sem_names), o->i[1]);
        if (o->i[2]) tile__p_enum(p, "scope", tile__p_scope_names, TILE__COUNT_OF(tile__p_scope_names), o->i[2]);
        used |= 6;
        break;
    case TILE__OP_MAKE_DESC: {
        int r = (n - 1) / 2;
        tile__p(p, "make_desc");
        tile__p_uses(p, a, n < 1 ? n : 1);
        tile__p(p, ", shape [");
        for (int d = 0; d < r; d++) { tile__p(p, d ? ", " : ""); tile__p_use(p, a[1 + d]); }
        tile__p(p, "], strides [");
        for (int d = 0; d < r; d++) { tile__p(p, d ? ", " : ""); tile__p_use(p, a[1 + r + d]); }
        tile__p(p, "]");
        tile__p_attr(p, "block=[");
        for (int d = 0; d < r && d < TILE__MAX_IATTR; d++) {
            tile__p(p, "%s%lld", d ? "," : "", o->i[d]);
            used |= 1u << d;
        }
        tile__p(p, "]");
        break;
    }
    case TILE__OP_DESC_LOAD: case TILE__OP_DESC_STORE: {
        int st = o->code == TILE__OP_DESC_STORE, first = 1 + st;
        if (!st) tile__p(p, "desc_load");
        else if (o->i[0] >= 0 && o->i[0] < TILE__COUNT_OF(tile__p_atomic_names)) tile__p(p, "desc_atomic %s", tile__p_atomic_names[o->i[0]]);
        else tile__p(p, "desc_store");
        tile__p_uses(p, a, n < 1 ? n : 1);
        tile__p(p, ", [");
        for (int d = first; d < n; d++) { tile__p(p, d > first ? ", " : ""); tile__p_use(p, a[d]); }
        tile__p(p, "]");
        if (st && n > 1) { tile__p(p, ", "); tile__p_use(p, a[1]); }
        used = st;
        break;
    }
    case TILE__OP_DOT:
        tile__p(p, "dot");
        tile__p_uses(p, a, (n > 2 && !a[2]) ? 2 : n);
        if (o->i[0]) tile__p_enum(p, "precision", tile__p_precision_names, TILE__COUNT_OF(tile__p_precision_names), o->i[0]);
        used = 1;
        break;
    case TILE__OP_REDUCE: case TILE__OP_SCAN:
        tile__p(p, "%s", tile__op_name(o->code));
        tile__p_uses(p, a, n);
        tile__p_enum(p, "kind", tile__p_reduce_names, TILE__COUNT_OF(tile__p_reduce_names), o->i[0]);
        if (o->i[1] == TL_ALL) tile__p_attr(p, "axis=all");
        else tile__p_attr(p, "axis=%lld", o->i[1]);
        if (o->i[2]) tile__p_attr(p, o->code == TILE__OP_REDUCE ? "keep_dims" : "reverse");
        used = 7;
        break;
    case TILE__OP_PRINT:
        tile__p(p, "print");
        if (o->s) {
            tile__p(p, " ");
            tile__p_str(p, o->s);
            for (int k = 0; k < n; k++) { tile__p(p, ", "); tile__p_use(p, a[k]); }
        } else {
            tile__p_uses(p, a, n);
        }
        s_used = 1;
        break;
    case TILE__OP_ASSERT:
        tile__p(p, o->i[0] ? "assume" : "assert");
        tile__p_uses(p, a, n);
        tile__p(p, ", ");
        tile__p_str(p, o->s ? o->s : "");
        s_used = 1;
        break;
    default:
        tile__p(p, "%s", tile__op_name(o->code));
        tile__p_uses(p, a, n);
        break;
    }
    tile__p_rest_attrs(p, o, used, f_used, s_used);
    tile__p_result_types(p, o);
    tile__p_eol(p, o->file, o->line);
}

static void tile__p_region(tile__printer *p, int reg, int depth) {
    if (reg < 0 || reg >= p->f->nregs || depth > 256) return;
    const tile__region *r = &p->f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        const tile__op *o = &p->f->ops[r->ops[k]];
        if (!o->dead) tile__p_op(p, o, depth);
    }
}

static char *tile__print_func(const tile__func *f) {
    tile__printer p;
    int nargs;
    memset(&p, 0, sizeof p);
    p.f = f;
    p.num = (int *)TILE_MALLOC((size_t)(f->nvals + 1) * sizeof *p.num);
    if (!p.num) return NULL;
    for (int v = 0; v <= f->nvals; v++) p.num[v] = -1;
    const int *params = tile__region_args(f, 0, &nargs);
    tile__p(&p, "kernel %s(", f->name);
    for (int k = 0; k < nargs; k++) {
        tile__p(&p, k ? ", " : "");
        tile__p_def(&p, params[k]);
        tile__p(&p, ": ");
        if (params[k] > 0 && params[k] < f->nvals) tile__p_type(&p, &f->vals[params[k]].t);
    }
    tile__p(&p, ") {");
    tile__p_eol(&p, f->file, f->line);
    tile__p_region(&p, 0, 0);
    tile__p(&p, "}\n");
    TILE_FREE(p.num);
    if (p.b.oom) {
        TILE_FREE(p.b.p);
        return NULL;
    }
    return p.b.p;
}

/* ---- the verifier --------------------------------------------------------------
   Rules (each a bug in tile when broken, reported as TILE_ERR_INTERNAL):
   - operand and result counts follow the op table; FOR has lo, hi, step and
     one init per result; IF has one operand; CONDITION at least one;
   - operands are value ids in range, nonzero except the optional ones
     (LOAD's mask and other, STORE's and ATOMIC's mask, DOT's acc);
   - every operand is in scope: a block argument of the op's region or of
     an enclosing one, or a result of an earlier live op in such a region;
   - every region of FOR/IF/WHILE/MAP ends in its terminator (CONDITION for
     WHILE's first region, YIELD otherwise) and no other op terminates;
   - carried values keep their types: FOR inits = results = body args 1..
     = yield; IF both yields = results; WHILE inits = before args = after's
     yield, condition values = after args = results; MAP's operands and
     results have one shape, its block arguments are its operands' scalars
     (pack of each) and its yield its results';
   - EW operands have the result's shape (inline asm's results one shape), comparisons give i1, PTR_ADD
     gives a pointer to the pointer operand's pointee.
   The walk marks values as in scope while it is inside their region, so
   "defined before use" and "in scope" are one lookup. */

typedef struct tile__vctx {
    tile__func *f;
    unsigned char *defined;   /* per value: in scope at this point of the walk */
    unsigned char *seen_op;
    unsigned char *seen_reg;
} tile__vctx;

static int tile__vfail(const tile__func *f, const tile__op *o, const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tile__error(TILE_ERR_INTERNAL, f->name, o ? o->file : f->file, o ? o->line : f->line, "verifier: %s", msg);
    return 1;
}


/* MAKE_DESC, DESC_LOAD, DESC_STORE: their operand lists and types */
static int tile__v_desc(const tile__func *f, const tile__op *o) {
    const int *a = f->pool + o->opnd;
    const char *nm = tile__op_name(o->code);
    if (o->code == TILE__OP_MAKE_DESC) {
        int r = (o->nopnd - 1) / 2;
        const tile__type *rt = &f->vals[o->res].t, *bt = &f->vals[a[0]].t;
        if (o->nopnd % 2 == 0 || r < 1 || r > TILE__MAX_RANK) return tile__vfail(f, o, "make_desc: %d operands", o->nopnd);
        if (bt->dtype != TL_PTR || bt->rank != 0 || rt->dtype != TL_DESC || rt->rank != 0 || rt->elem != bt->elem)
            return tile__vfail(f, o, "make_desc: a descriptor from a scalar pointer");
        for (int k = 1; k < o->nopnd; k++)
            if (!tile__is_int(f->vals[a[k]].t.dtype) || f->vals[a[k]].t.rank != 0) return tile__vfail(f, o, "make_desc: operand %d is not an integer scalar", k);
        for (int d = 0; d < r; d++)
            if (o->i[d] < 1 || o->i[d] > 256) return tile__vfail(f, o, "make_desc: block dim %d is %lld", d, o->i[d]);
        return 0;
    }
    int st = o->code == TILE__OP_DESC_STORE, first = 1 + st;
    if (o->nopnd < first + 1) return tile__vfail(f, o, "%s: %d operands", nm, o->nopnd);
    const tile__value *dv = &f->vals[a[0]];
    const tile__op *md = dv->def >= 0 && dv->def < f->nops ? &f->ops[dv->def] : NULL;
    if (dv->t.dtype != TL_DESC || !md || md->code != TILE__OP_MAKE_DESC || (md->nopnd - 1) / 2 != o->nopnd - first)
        return tile__vfail(f, o, "%s: operand 0 is not a descriptor of %d dims", nm, o->nopnd - first);
    tile__type bt = tile__scalar_type(dv->t.elem);
    bt.rank = o->nopnd - first;
    for (int d = 0; d < bt.rank; d++) bt.shape[d] = (int)md->i[d];
    for (int k = first; k < o->nopnd; k++)
        if (f->vals[a[k]].t.dtype != TL_I32 || f->vals[a[k]].t.rank != 0) return tile__vfail(f, o, "%s: offset %d is not an i32 scalar", nm, k - first);
    const tile__type *vt = st ? &f->vals[a[1]].t : &f->vals[o->res].t;
    if (!tile__same_type(vt, &bt)) {
        char b1[160], b2[160];
        return tile__vfail(f, o, "%s: %s %s for a block %s", nm, st ? "value" : "result", tile__type_str(vt, b1, sizeof b1), tile__type_str(&bt, b2, sizeof b2));
    }
    return 0;
}

/* Do values xs[0..nx) have the types of ys[0..ny) (or of ybase.., the
   results of an op, when ys is NULL)? */
static int tile__v_match(const tile__func *f, const tile__op *o, const char *what, const int *xs, int nx,
                         const char *against, const int *ys, int ybase, int ny) {
    const char *nm = tile__op_name(o->code);
    if (nx != ny) return tile__vfail(f, o, "%s: %d %s but %d %s", nm, nx, what, ny, against);
    for (int k = 0; k < nx; k++) {
        const tile__type *x = &f->vals[xs[k]].t, *y = &f->vals[ys ? ys[k] : ybase + k].t;
        if (!tile__same_type(x, y)) {
            char bx[160], by[160];
            return tile__vfail(f, o, "%s: %s %d is %s but %s %d is %s", nm, what, k, tile__type_str(x, bx, sizeof bx),
                               against, k, tile__type_str(y, by, sizeof by));
        }
    }
    return 0;
}

/* The terminator's operands of a verified region. */
static const int *tile__term_opnds(const tile__func *f, int reg, int *n) {
    const tile__op *t = tile__region_last(f, reg);
    *n = t->nopnd;
    return f->pool + t->opnd;
}

/* Types carried through the regions of a FOR/IF/WHILE whose regions are verified. */
static int tile__v_control(tile__vctx *c, const tile__op *o) {
    const tile__func *f = c->f;
    const int *a = f->pool + o->opnd, *y, *args;
    int ny, nargs;
    switch (o->code) {
    case TILE__OP_FOR:
        args = tile__region_args(f, o->region[0], &nargs);
        y = tile__term_opnds(f, o->region[0], &ny);
        if (nargs < 1) return tile__vfail(f, o, "for: the body has no induction variable");
        if (tile__v_match(f, o, "inits", a + 3, o->nopnd - 3, "results", NULL, o->res, o->nres) ||
            tile__v_match(f, o, "carried body args", args + 1, nargs - 1, "results", NULL, o->res, o->nres) ||
            tile__v_match(f, o, "yielded values", y, ny, "results", NULL, o->res, o->nres))
            return 1;
        return 0;
    case TILE__OP_IF:
        for (int k = 0; k < 2; k++) {
            if (o->region[k] < 0) {
                if (o->nres) return tile__vfail(f, o, "if: %d results but no else region", o->nres);
                continue;
            }
            tile__region_args(f, o->region[k], &nargs);
            if (nargs) return tile__vfail(f, o, "if: region %d has %d block arguments", o->region[k], nargs);
            y = tile__term_opnds(f, o->region[k], &ny);
            if (tile__v_match(f, o, k ? "else values" : "then values", y, ny, "results", NULL, o->res, o->nres))
                return 1;
        }
        return 0;
    case TILE__OP_WHILE: {
        int nafter;
        const int *after;
        args = tile__region_args(f, o->region[0], &nargs);
        after = tile__region_args(f, o->region[1], &nafter);
        y = tile__term_opnds(f, o->region[0], &ny);
        if (tile__v_match(f, o, "before args", args, nargs, "inits", a, 0, o->nopnd) ||
            tile__v_match(f, o, "condition values", y + 1, ny - 1, "results", NULL, o->res, o->nres) ||
            tile__v_match(f, o, "after args", after, nafter, "results", NULL, o->res, o->nres))
            return 1;
        y = tile__term_opnds(f, o->region[1], &ny);
        return tile__v_match(f, o, "yielded values", y, ny, "before args", args, 0, nargs);
    }
    case TILE__OP_MAP: {   /* operands and results of one shape; args x[k*pack+j], yields out[r*pack+j]: their scalars */
        int pack = (int)o->i[0];
        if (pack < 1 || (pack & (pack - 1)) || o->nopnd < 1 || o->nres < 1) return tile__vfail(f, o, "map_elementwise: pack %d, %d operands, %d results", pack, o->nopnd, o->nres);
        args = tile__region_args(f, o->region[0], &nargs);
        y = tile__term_opnds(f, o->region[0], &ny);
        if (nargs != o->nopnd * pack || ny != o->nres * pack)
            return tile__vfail(f, o, "map_elementwise: %d block arguments and %d yielded values for %d operands, %d results and pack %d", nargs, ny, o->nopnd,
                               o->nres, pack);
        for (int k = 0; k < o->nopnd + o->nres; k++) {
            const tile__type *t = &f->vals[k < o->nopnd ? a[k] : o->res + k - o->nopnd].t, *rt = &f->vals[o->res].t;
            for (int j = 0; j < pack; j++) {
                const tile__type *s = &f->vals[k < o->nopnd ? args[k * pack + j] : y[(k - o->nopnd) * pack + j]].t;
                if (!tile__same_shape(t, rt) || s->rank != 0 || s->dtype != t->dtype || s->elem != t->elem) {
                    char b1[160], b2[160], b3[160];
                    return tile__vfail(f, o, "map_elementwise: %s %d is %s, its scalar %s (the results %s)", k < o->nopnd ? "operand" : "result",
                                       k < o->nopnd ? k : k - o->nopnd, tile__type_str(t, b1, sizeof b1), tile__type_str(s, b2, sizeof b2),
                                       tile__type_str(rt, b3, sizeof b3));
                }
            }
        }
        return 0;
    }
    default:
        return 0;
    }
}

static int tile__v_region(tile__vctx *c, int reg, int owner);

/* One op: counts, operands, type rules, then its regions. */
static int tile__v_op(tile__vctx *c, int id) {
    tile__func *f = c->f;
    const tile__op *o = &f->ops[id];
    const int *a = tile__opnds(f, o);
    const char *nm = tile__op_name(o->code);
    int fl = tile__op_flags[o->code], want = tile__op_nopnd[o->code], k;
    if (o->nopnd < 0 || o->opnd < 0 || o->opnd + o->nopnd > f->npool)
        return tile__vfail(f, o, "%s: operand list %d+%d outside the pool", nm, o->opnd, o->nopnd);
    if (want >= 0 && o->nopnd != want) return tile__vfail(f, o, "%s: %d operands, expects %d", nm, o->nopnd, want);
    if (o->code == TILE__OP_FOR && o->nopnd < 3) return tile__vfail(f, o, "for: %d operands, expects lo, hi, step", o->nopnd);
    if (o->code == TILE__OP_IF && o->nopnd != 1) return tile__vfail(f, o, "if: %d operands, expects 1", o->nopnd);
    if (o->code == TILE__OP_CONDITION && o->nopnd < 1) return tile__vfail(f, o, "condition: no operands");
    want = tile__op_nres[o->code];
    if (want >= 0 && o->nres != want) return tile__vfail(f, o, "%s: %d results, expects %d", nm, o->nres, want);
    if (o->code == TILE__OP_FOR && o->nres != o->nopnd - 3)
        return tile__vfail(f, o, "for: %d results for %d inits", o->nres, o->nopnd - 3);
    if (o->nres < 0 || (o->nres > 0 && (o->res < 1 || o->res + o->nres > f->nvals)))
        return tile__vfail(f, o, "%s: results %d+%d out of range", nm, o->res, o->nres);

    for (k = 0; k < o->nopnd; k++) {
        int v = a[k];
        if (v == 0 && tile__opnd_optional(o->code, k)) continue;
        if (v <= 0 || v >= f->nvals) return tile__vfail(f, o, "%s: operand %d is v%d, not a value", nm, k, v);
        if (c->defined[v]) continue;
        const tile__value *val = &f->vals[v];
        if (val->def >= 0 && val->def < f->nops && f->ops[val->def].dead)
            return tile__vfail(f, o, "%s: operand %d (v%d) is a result of removed op %d", nm, k, v, val->def);
        if (val->region < 0 || val->region >= f->nregs || !tile__region_within(f, o->parent, val->region))
            return tile__vfail(f, o, "%s: operand %d (v%d) is used outside its region %d", nm, k, v, val->region);
        return tile__vfail(f, o, "%s: operand %d (v%d) is used before its definition", nm, k, v);
    }

    if ((o->code == TILE__OP_MAKE_DESC || o->code == TILE__OP_DESC_LOAD || o->code == TILE__OP_DESC_STORE) && tile__v_desc(f, o)) return 1;
    if ((fl & TILE__F_EW) && o->nres >= 1) {   /* (several: inline asm's, each of the one shape) */
        const tile__type *rt = &f->vals[o->res].t;
        for (k = 0; k < o->nopnd + o->nres - 1; k++) {
            const tile__type *t = &f->vals[k < o->nopnd ? a[k] : o->res + 1 + k - o->nopnd].t;
            if (!tile__same_shape(t, rt)) {
                char bx[160], by[160];
                return tile__vfail(f, o, "%s: %s %d is %s, the result %s", nm, k < o->nopnd ? "operand" : "result", k < o->nopnd ? k : 1 + k - o->nopnd,
                                   tile__type_str(t, bx, sizeof bx), tile__type_str(rt, by, sizeof by));
            }
        }
        if ((fl & TILE__F_CMP) && rt->dtype != TL_I1)
            return tile__vfail(f, o, "%s: a comparison gives %s, not i1", nm, tile_dtype_name(rt->dtype));
        if (o->code == TILE__OP_PTR_ADD) {
            const tile__type *pt = &f->vals[a[0]].t;
            if (pt->dtype != TL_PTR || rt->dtype != TL_PTR || rt->elem != pt->elem)
                return tile__vfail(f, o, "ptr_add: %s<%s> from %s<%s>", tile_dtype_name(rt->dtype),
                                   tile_dtype_name(rt->elem), tile_dtype_name(pt->dtype), tile_dtype_name(pt->elem));
        }
    }

    if (!(fl & TILE__F_REGION)) {
        if (o->region[0] != -1 || o->region[1] != -1) return tile__vfail(f, o, "%s: owns a region", nm);
        return 0;
    }
    if (o->region[0] < 0) return tile__vfail(f, o, "%s: no body region", nm);
    if ((o->code == TILE__OP_FOR || o->code == TILE__OP_MAP) && o->region[1] != -1) return tile__vfail(f, o, "%s: a second region", nm);
    if (o->code == TILE__OP_WHILE && o->region[1] < 0) return tile__vfail(f, o, "while: no after region");
    for (k = 0; k < 2; k++)
        if (o->region[k] >= 0 && tile__v_region(c, o->region[k], id)) return 1;
    return tile__v_control(c, o);
}

/* A region: its block arguments, its ops in order, its terminator; values
   defined in it leave scope at its end. */
static int tile__v_region(tile__vctx *c, int reg, int owner) {
    tile__func *f = c->f;
    const tile__op *oo = owner >= 0 ? &f->ops[owner] : NULL;
    int k, last = -1;
    if (reg < 0 || reg >= f->nregs) return tile__vfail(f, oo, "region %d out of range", reg);
    if (c->seen_reg[reg]) return tile__vfail(f, oo, "region %d is reached twice", reg);
    c->seen_reg[reg] = 1;
    const tile__region *r = &f->regs[reg];
    int want_parent = oo ? oo->parent : -1;
    if (r->owner != owner || r->parent != want_parent)
        return tile__vfail(f, oo, "region %d has owner %d and parent %d, expects %d and %d", reg, r->owner, r->parent,
                           owner, want_parent);
    if (r->nargs < 0 || r->args < 0 || r->args + r->nargs > f->npool || r->nops < 0 || r->nops > r->capops ||
        (r->nops && !r->ops))
        return tile__vfail(f, oo, "region %d has broken lists", reg);
    const int *args = f->pool + r->args;
    for (k = 0; k < r->nargs; k++) {
        int v = args[k];
        if (v <= 0 || v >= f->nvals) return tile__vfail(f, oo, "region %d: block argument %d is v%d", reg, k, v);
        if (f->vals[v].def != -1 || f->vals[v].region != reg || c->defined[v])
            return tile__vfail(f, oo, "region %d: block argument v%d is also defined by op %d in region %d", reg, v,
                               f->vals[v].def, f->vals[v].region);
        c->defined[v] = 1;
    }
    for (k = 0; k < r->nops; k++) {
        int id = r->ops[k];
        if (id < 0 || id >= f->nops) return tile__vfail(f, oo, "region %d lists op %d of %d", reg, id, f->nops);
        if (f->ops[id].dead) continue;
        if (f->ops[id].code < 0 || f->ops[id].code >= TILE__OP_COUNT_)
            return tile__vfail(f, &f->ops[id], "op %d has opcode %d", id, (int)f->ops[id].code);
        last = id;
    }
    for (k = 0; k < r->nops; k++) {
        int id = r->ops[k];
        const tile__op *o = &f->ops[id];
        if (o->dead) continue;
        if (c->seen_op[id]) return tile__vfail(f, o, "%s: op %d is listed twice", tile__op_name(o->code), id);
        c->seen_op[id] = 1;
        if (o->parent != reg)
            return tile__vfail(f, o, "%s: op %d is in region %d but records %d", tile__op_name(o->code), id, reg, o->parent);
        if (tile__op_flags[o->code] & TILE__F_TERM) {
            if (!oo || id != last)
                return tile__vfail(f, o, "%s: a terminator before the end of region %d", tile__op_name(o->code), reg);
            tile__opcode want = (oo->code == TILE__OP_WHILE && reg == oo->region[0]) ? TILE__OP_CONDITION : TILE__OP_YIELD;
            if (o->code != want)
                return tile__vfail(f, o, "region %d of %s ends in %s, expects %s", reg, tile__op_name(oo->code),
                                   tile__op_name(o->code), tile__op_name(want));
        }
        if (tile__v_op(c, id)) return 1;
        for (int j = 0; j < o->nres; j++) {
            int v = o->res + j;
            if (f->vals[v].def != id || f->vals[v].region != reg || c->defined[v])
                return tile__vfail(f, o, "%s: result v%d records op %d in region %d", tile__op_name(o->code), v,
                                   f->vals[v].def, f->vals[v].region);
            c->defined[v] = 1;
        }
    }
    if (oo && (last < 0 || !(tile__op_flags[f->ops[last].code] & TILE__F_TERM))) {
        tile__opcode want = (oo->code == TILE__OP_WHILE && reg == oo->region[0]) ? TILE__OP_CONDITION : TILE__OP_YIELD;
        return tile__vfail(f, oo, "region %d of %s does not end in %s", reg, tile__op_name(oo->code), tile__op_name(want));
    }
    for (k = 0; k < r->nargs; k++) c->defined[args[k]] = 0;
    for (k = 0; k < r->nops; k++) {
        const tile__op *o = &f->ops[r->ops[k]];
        if (!o->dead)
            for (int j = 0; j < o->nres; j++) c->defined[o->res + j] = 0;
    }
    return 0;
}

static tile_status tile__verify(tile__func *f) {
    tile__vctx c;
    int bad;
    if (f->nvals < 1 || f->nregs < 1 || f->nops < 0 || f->npool < 0)
        return tile__error(TILE_ERR_INTERNAL, f->name, f->file, f->line, "verifier: empty function tables");
    if (f->regs[0].nargs != f->nparams)
        return tile__error(TILE_ERR_INTERNAL, f->name, f->file, f->line, "verifier: %d parameters but %d body arguments",
                           f->nparams, f->regs[0].nargs);
    c.f = f;
    c.defined = (unsigned char *)tile__calloc((size_t)f->nvals, 1);
    c.seen_op = (unsigned char *)tile__calloc((size_t)f->nops + 1, 1);
    c.seen_reg = (unsigned char *)tile__calloc((size_t)f->nregs, 1);
    if (!c.defined || !c.seen_op || !c.seen_reg) {
        TILE_FREE(c.defined); TILE_FREE(c.seen_op); TILE_FREE(c.seen_reg);
        return tile__error(TILE_ERR_NOMEM, f->name, f->file, f->line, "out of host memory in the verifier");
    }
    bad = tile__v_region(&c, 0, -1);
    for (int id = 0; !bad && id < f->nops; id++)
        if (!f->ops[id].dead && !c.seen_op[id])
            bad = tile__vfail(f, &f->ops[id], "%s: op %d is live but in no region", tile__op_name(f->ops[id].code), id);
    TILE_FREE(c.defined); TILE_FREE(c.seen_op); TILE_FREE(c.seen_reg);
    return bad ? TILE_ERR_INTERNAL : TILE_OK;
}

/* ---- constant folding -------------------------------------------------------
   Rules, applied in program order until nothing changes:
   - a pure elementwise op (not PTR_ADD) whose operands are all constants
     becomes a constant, computed by tile__ew_eval exactly as the
     interpreter computes it (so f16 math rounds to f16);
   - broadcast / reshape / expand_dims / permute of a constant is a
     constant of the new shape (constants are splats);
   - identities exact for the dtype: integer x+0, 0+x, x-0, x*0 (-> 0);
     x*1, 1*x, x/1 for integers and floats; float x-(+0) and x+(-0) (but
     not x+(+0): -0 + +0 is +0); where with a constant condition; a cast
     or bitcast to the operand's own type. */

/* Is v a constant equal to `want`? For floats the sign of a zero counts. */
static int tile__const_is(const tile__func *f, int v, double want) {
    if (!tile__const_of(f, v)) return 0;
    tl_dtype t = f->vals[v].t.dtype;
    tile__elem e = tile__const_elem(f, v);
    if (tile__is_float(t)) return e.f == want && !signbit(e.f) == !signbit(want);
    return tile__is_int(t) && e.i == (int64_t)want;
}

/* Forward o's result to `with` when the types agree; returns 1 if it did. */
static int tile__fold_to(tile__func *f, tile__op *o, int with, int *map) {
    if (!tile__same_type(&f->vals[with].t, &f->vals[o->res].t)) return 0;
    map[o->res] = with;
    o->dead = 1;
    return 1;
}

static int tile__fold_op(tile__func *f, tile__op *o, int *map) {
    const int *a = tile__opnds(f, o);
    int x = tile__opnd(f, o, 0), y = tile__opnd(f, o, 1), fl = tile__op_flags[o->code];
    if (o->nres != 1 || (fl & TILE__F_REGION)) return 0;
    tl_dtype rt = f->vals[o->res].t.dtype;
    if ((fl & TILE__PE) == TILE__PE && o->code != TILE__OP_PTR_ADD && o->nopnd >= 1 && o->nopnd <= 4 && rt != TL_PTR) {
        tile__elem el[4];
        int k;
        memset(el, 0, sizeof el);
        for (k = 0; k < o->nopnd; k++) {
            if (!tile__const_of(f, a[k]) || f->vals[a[k]].t.dtype == TL_PTR) break;
            el[k] = tile__const_elem(f, a[k]);
        }
        if (k == o->nopnd) {
            tile__set_const(f, o, tile__ew_eval(o->code, f->vals[a[o->nopnd - 1]].t.dtype, rt, el));
            return 1;
        }
    }
    int fl_t = tile__is_float(rt), int_t = tile__is_int(rt);
    switch (o->code) {
    case TILE__OP_BROADCAST: case TILE__OP_RESHAPE: case TILE__OP_EXPAND_DIMS: case TILE__OP_PERMUTE:
        if (tile__const_of(f, x) && f->vals[x].t.dtype == rt && rt != TL_PTR) {
            tile__set_const(f, o, tile__const_elem(f, x));
            return 1;
        }
        return 0;
    case TILE__OP_ADD:
        if (int_t && tile__const_is(f, y, 0)) return tile__fold_to(f, o, x, map);
        if (int_t && tile__const_is(f, x, 0)) return tile__fold_to(f, o, y, map);
        if (fl_t && tile__const_is(f, y, -0.0)) return tile__fold_to(f, o, x, map);
        if (fl_t && tile__const_is(f, x, -0.0)) return tile__fold_to(f, o, y, map);
        return 0;
    case TILE__OP_SUB:
        if ((int_t || fl_t) && tile__const_is(f, y, 0)) return tile__fold_to(f, o, x, map);
        return 0;
    case TILE__OP_MUL:
        if ((int_t || fl_t) && tile__const_is(f, y, 1)) return tile__fold_to(f, o, x, map);
        if ((int_t || fl_t) && tile__const_is(f, x, 1)) return tile__fold_to(f, o, y, map);
        if (int_t && (tile__const_is(f, x, 0) || tile__const_is(f, y, 0))) {
            tile__elem zero;
            zero.u = 0;
            tile__set_const(f, o, zero);
            return 1;
        }
        return 0;
    case TILE__OP_DIV:
        if ((int_t || fl_t) && tile__const_is(f, y, 1)) return tile__fold_to(f, o, x, map);
        return 0;
    case TILE__OP_WHERE:
        if (tile__const_of(f, x)) return tile__fold_to(f, o, tile__const_elem(f, x).i ? y : tile__opnd(f, o, 2), map);
        return 0;
    case TILE__OP_CAST: case TILE__OP_BITCAST:
        return tile__fold_to(f, o, x, map);
    default:
        return 0;
    }
}

static int tile__fold(tile__func *f) {
    int *map = (int *)tile__calloc((size_t)f->nvals + 1, sizeof *map);
    int *order = (int *)TILE_MALLOC(((size_t)f->nops + 1) * sizeof *order);
    int total = 0, changed;
    if (!map || !order) {
        TILE_FREE(map); TILE_FREE(order);
        return -1;
    }
    do {
        int n = tile__walk(f, 0, order, 0, f->nops);
        changed = 0;
        for (int k = 0; k < n; k++) {
            tile__op *o = &f->ops[order[k]];
            if (o->dead) continue;
            tile__remap_op(f, o, map);
            changed += tile__fold_op(f, o, map);
        }
        total += changed;
    } while (changed);
    tile__replace_uses(f, map);
    tile__compact(f);
    TILE_FREE(map);
    TILE_FREE(order);
    return total;
}

/* ---- common subexpressions ------------------------------------------------------
   Rule: a pure op without regions equal to an earlier op in its own region
   or an enclosing one (same code, operands, attributes i[], f bit for bit,
   s by content, and result types) is replaced by that op. Nothing moves out
   of a region: the table holds only the ops of the regions the walk is in,
   and forgets a region's ops when the walk leaves it. */

typedef struct tile__cse_tab {
    int *head;        /* bucket -> newest entry, -1 none             */
    unsigned mask;
    int *op, *next;   /* entries, a stack                             */
    unsigned *bucket;
    int top;
} tile__cse_tab;

static uint64_t tile__mix(uint64_t h, uint64_t x) { return (h ^ x) * 1099511628211ull; }

static uint64_t tile__cse_hash(const tile__func *f, const tile__op *o) {
    uint64_t h = 1469598103934665603ull, fb;
    const int *a = f->pool + o->opnd;
    h = tile__mix(h, (uint64_t)o->code);
    for (int k = 0; k < o->nopnd; k++) h = tile__mix(h, (uint64_t)(unsigned)a[k]);
    for (int k = 0; k < TILE__MAX_IATTR; k++) h = tile__mix(h, (uint64_t)o->i[k]);
    memcpy(&fb, &o->f, sizeof fb);
    h = tile__mix(h, fb);
    for (const char *s = o->s; s && *s; s++) h = tile__mix(h, (unsigned char)*s);
    for (int r = 0; r < o->nres; r++) {
        const tile__type *t = &f->vals[o->res + r].t;
        h = tile__mix(h, (uint64_t)t->dtype);
        h = tile__mix(h, (uint64_t)(t->dtype == TL_PTR ? t->elem : 0));
        for (int d = 0; d < t->rank; d++) h = tile__mix(h, (uint64_t)t->shape[d]);
    }
    return h ^ (h >> 29);
}

static int tile__cse_equal(const tile__func *f, const tile__op *x, const tile__op *y) {
    if (x->code != y->code || x->nopnd != y->nopnd || x->nres != y->nres) return 0;
    for (int k = 0; k < x->nopnd; k++)
        if (f->pool[x->opnd + k] != f->pool[y->opnd + k]) return 0;
    for (int k = 0; k < TILE__MAX_IATTR; k++)
        if (x->i[k] != y->i[k]) return 0;
    if (memcmp(&x->f, &y->f, sizeof x->f) != 0) return 0;
    if ((x->s == NULL) != (y->s == NULL) || (x->s && strcmp(x->s, y->s) != 0)) return 0;
    for (int r = 0; r < x->nres; r++)
        if (!tile__same_type(&f->vals[x->res + r].t, &f->vals[y->res + r].t)) return 0;
    return 1;
}

static int tile__cse_region(tile__func *f, int reg, tile__cse_tab *t, int *map) {
    int mark = t->top, n = 0;
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        int id = r->ops[k];
        tile__op *o = &f->ops[id];
        if (o->dead) continue;
        tile__remap_op(f, o, map);
        if ((tile__op_flags[o->code] & TILE__F_PURE) && o->region[0] < 0 && o->region[1] < 0 && o->nres > 0) {
            unsigned b = (unsigned)tile__cse_hash(f, o) & t->mask;
            int e = t->head[b];
            while (e >= 0 && !tile__cse_equal(f, &f->ops[t->op[e]], o)) e = t->next[e];
            if (e >= 0) {
                for (int j = 0; j < o->nres; j++) map[o->res + j] = f->ops[t->op[e]].res + j;
                o->dead = 1;
                n++;
                continue;
            }
            t->op[t->top] = id;
            t->bucket[t->top] = b;
            t->next[t->top] = t->head[b];
            t->head[b] = t->top++;
        }
        for (int j = 0; j < 2; j++)
            if (o->region[j] >= 0) n += tile__cse_region(f, o->region[j], t, map);
    }
    while (t->top > mark) {
        t->top--;
        t->head[t->bucket[t->top]] = t->next[t->top];
    }
    return n;
}

static int tile__cse(tile__func *f) {
    tile__cse_tab t;
    unsigned nb = 16;
    int n = 0;
    while (nb < 2u * (unsigned)f->nops) nb *= 2;
    memset(&t, 0, sizeof t);
    t.mask = nb - 1;
    t.head = (int *)TILE_MALLOC(nb * sizeof *t.head);
    t.op = (int *)TILE_MALLOC(((size_t)f->nops + 1) * sizeof *t.op);
    t.next = (int *)TILE_MALLOC(((size_t)f->nops + 1) * sizeof *t.next);
    t.bucket = (unsigned *)TILE_MALLOC(((size_t)f->nops + 1) * sizeof *t.bucket);
    int *map = (int *)tile__calloc((size_t)f->nvals + 1, sizeof *map);
    if (t.head && t.op && t.next && t.bucket && map) {
        for (unsigned b = 0; b < nb; b++) t.head[b] = -1;
        n = tile__cse_region(f, 0, &t, map);
        tile__replace_uses(f, map);
        tile__compact(f);
    } else {
        n = -1;
    }
    TILE_FREE(t.head); TILE_FREE(t.op); TILE_FREE(t.next); TILE_FREE(t.bucket); TILE_FREE(map);
    return n;
}

/* ---- dead code ---------------------------------------------------------------
   Rules, until nothing changes: a pure op without regions whose results are
   all unused goes; so does a FOR/IF/WHILE whose results are all unused and
   whose regions hold no side effect (a non-pure op other than YIELD and
   CONDITION, looking inside nested FOR/IF/WHILE), with everything inside
   it. Uses are counted over the live ops, terminators included. */

static int tile__has_effects(const tile__func *f, int reg) {
    if (reg < 0 || reg >= f->nregs) return 0;
    const tile__region *r = &f->regs[reg];
    for (int k = 0; k < r->nops; k++) {
        const tile__op *o = &f->ops[r->ops[k]];
        int fl = tile__op_flags[o->code];
        if (o->dead || (fl & (TILE__F_PURE | TILE__F_TERM))) continue;
        if (!(fl & TILE__F_REGION)) return 1;
        if (tile__has_effects(f, o->region[0]) || tile__has_effects(f, o->region[1])) return 1;
    }
    return 0;
}

/* Mark op `id` and everything in its regions dead; returns how many died. */
static int tile__kill(tile__func *f, int id, int *uses) {
    tile__op *o = &f->ops[id];
    const int *a = tile__opnds(f, o);
    int n = 1;
    o->dead = 1;
    for (int k = 0; k < o->nopnd; k++)
        if (a[k] > 0 && a[k] < f->nvals) uses[a[k]]--;
    for (int j = 0; j < 2; j++) {
        if (o->region[j] < 0) continue;
        const tile__region *r = &f->regs[o->region[j]];
        for (int k = 0; k < r->nops; k++)
            if (!f->ops[r->ops[k]].dead) n += tile__kill(f, r->ops[k], uses);
    }
    return n;
}

static int tile__dce_removable(const tile__func *f, const tile__op *o, const int *uses) {
    int fl = tile__op_flags[o->code];
    for (int r = 0; r < o->nres; r++)
        if (uses[o->res + r] > 0) return 0;
    if ((fl & TILE__F_PURE) && o->region[0] < 0 && o->region[1] < 0) return 1;
    if (fl & TILE__F_REGION) return !tile__has_effects(f, o->region[0]) && !tile__has_effects(f, o->region[1]);
    return 0;
}

static int tile__dce(tile__func *f) {
    int *uses = (int *)tile__calloc((size_t)f->nvals + 1, sizeof *uses);
    int *order = (int *)TILE_MALLOC(((size_t)f->nops + 1) * sizeof *order);
    int removed = 0, changed, n;
    if (!uses || !order) {
        TILE_FREE(uses); TILE_FREE(order);
        return -1;
    }
    n = tile__walk(f, 0, order, 0, f->nops);
    for (int k = 0; k < n; k++) {
        const tile__op *o = &f->ops[order[k]];
        const int *a = f->pool + o->opnd;
        for (int j = 0; j < o->nopnd; j++)
            if (a[j] > 0 && a[j] < f->nvals) uses[a[j]]++;
    }
    do {
        changed = 0;
        for (int k = n - 1; k >= 0; k--) {
            const tile__op *o = &f->ops[order[k]];
            if (o->dead || !tile__dce_removable(f, o, uses)) continue;
            removed += tile__kill(f, order[k], uses);
            changed = 1;
        }
    } while (changed);
    tile__compact(f);
    TILE_FREE(uses);
    TILE_FREE(order);
    return removed;
}

/* ---- descriptors to pointers ----------------------------------------------------------
   Where no copy-engine schedule takes a descriptor access (sm_80 and older;
   today every target), DESC_LOAD and DESC_STORE become what a Triton user
   writes by hand, so the plan's alignment facts and the cp.async ring apply
   to them as to any pointer load: per dim d a vector idx = offset + arange
   (i32), in bounds where 0 <= idx < shape; the outer dims' element offsets
   idx * stride in i64, the innermost's idx itself (its stride is 1), each
   expanded to the block's rank and broadcast; then LOAD (other 0), STORE or
   ATOMIC (relaxed) under the AND of the bounds. Runs on a copy of the kernel
   (tile__func_clone): the interpreter keeps the descriptors. */
typedef struct tile__xb { tile__func *f; int reg; const char *file; int line; } tile__xb;
static int tile__xb_op(tile__xb *b, tile__opcode code, const int *o, int n, tile__type t) {
    int id = tile__new_op(b->f, b->reg, code, o, n, &t, 1, b->file, b->line);
    return b->f->ops[id].res;
}
static tile__type tile__xb_vec(tl_dtype dt, int rank, const int *shape) {
    tile__type t = tile__scalar_type(dt);
    t.rank = rank;
    for (int d = 0; d < rank; d++) t.shape[d] = shape[d];
    return t;
}
static int tile__xb_cast(tile__xb *b, int v, tl_dtype to) {
    tile__type t = b->f->vals[v].t;
    if (t.dtype == to) return v;
    return tile__xb_op(b, TILE__OP_CAST, &v, 1, tile__with_dtype(t, to));
}
static int tile__xb_bcast(tile__xb *b, int v, const tile__type *to) {
    tile__type t = *to;
    t.dtype = b->f->vals[v].t.dtype;
    t.elem = b->f->vals[v].t.elem;
    if (tile__same_shape(&b->f->vals[v].t, &t)) return v;
    return tile__xb_op(b, TILE__OP_BROADCAST, &v, 1, t);
}
/* a vector [n] as dim d of a rank-r block: expand to [1..n..1], then broadcast */
static int tile__xb_place(tile__xb *b, int v, int d, const tile__type *full) {
    for (int k = 0; k < full->rank - 1; k++) {
        tile__type t = b->f->vals[v].t;
        int axis = k < d ? 0 : t.rank;
        for (int j = t.rank; j > axis; j--) t.shape[j] = t.shape[j - 1];
        t.shape[axis] = 1;
        t.rank++;
        int id = tile__new_op(b->f, b->reg, TILE__OP_EXPAND_DIMS, &v, 1, &t, 1, b->file, b->line);
        b->f->ops[id].i[0] = axis;
        v = b->f->ops[id].res;
    }
    return tile__xb_bcast(b, v, full);
}
static int tile__xb_const(tile__xb *b, tl_dtype dt, const tile__type *shape, long long v) {
    tile__type t = tile__with_dtype(*shape, dt);
    int id = tile__new_op(b->f, b->reg, TILE__OP_CONST, NULL, 0, &t, 1, b->file, b->line);
    if (tile__is_float(dt)) b->f->ops[id].f = (double)v;
    else b->f->ops[id].i[0] = v;
    return b->f->ops[id].res;
}
/* the ops replacing access `id` (appended to its region); its result's
   replacement into map */
static void tile__desc_expand_op(tile__func *f, int id, int *map) {
    tile__op x = f->ops[id];   /* a copy: the tables grow below */
    int st = x.code == TILE__OP_DESC_STORE, first = 1 + st;
    const tile__op *mdp = &f->ops[f->vals[f->pool[x.opnd]].def];
    int r = (mdp->nopnd - 1) / 2, mopnd = mdp->opnd, B[TILE__MAX_RANK];
    for (int d = 0; d < r; d++) B[d] = (int)mdp->i[d];
    tl_dtype et = f->vals[mdp->res].t.elem;
    tile__xb b = {f, x.parent, x.file, x.line};
    tile__type full = tile__xb_vec(TL_PTR, r, B);
    full.elem = et;
    int ptr = tile__xb_bcast(&b, f->pool[mopnd], &full), mask = 0, inner = 0;
    for (int d = 0; d < r; d++) {
        tile__type v32 = tile__xb_vec(TL_I32, 1, &B[d]);
        int ar = tile__new_op(f, b.reg, TILE__OP_ARANGE, NULL, 0, &v32, 1, b.file, b.line);
        f->ops[ar].i[0] = 0;
        f->ops[ar].i[1] = B[d];
        int o[2] = {tile__xb_bcast(&b, f->pool[x.opnd + first + d], &v32), f->ops[ar].res};
        int idx = tile__xb_op(&b, TILE__OP_ADD, o, 2, v32);
        tile__type v1 = tile__with_dtype(v32, TL_I1);
        int ge[2] = {idx, tile__xb_const(&b, TL_I32, &v32, 0)};
        int lt[2] = {idx, tile__xb_bcast(&b, tile__xb_cast(&b, f->pool[mopnd + 1 + d], TL_I32), &v32)};
        int in[2] = {tile__xb_op(&b, TILE__OP_GE, ge, 2, v1), tile__xb_op(&b, TILE__OP_LT, lt, 2, v1)};
        int ind = tile__xb_place(&b, tile__xb_op(&b, TILE__OP_AND, in, 2, v1), d, &full);
        if (mask) {
            int m[2] = {mask, ind};
            mask = tile__xb_op(&b, TILE__OP_AND, m, 2, tile__with_dtype(full, TL_I1));
        } else {
            mask = ind;
        }
        if (d == r - 1) {
            inner = tile__xb_place(&b, idx, d, &full);
            continue;
        }
        tile__type v64 = tile__with_dtype(v32, TL_I64);
        int mo[2] = {tile__xb_cast(&b, idx, TL_I64), tile__xb_bcast(&b, tile__xb_cast(&b, f->pool[mopnd + 1 + r + d], TL_I64), &v64)};
        int pa[2] = {ptr, tile__xb_place(&b, tile__xb_op(&b, TILE__OP_MUL, mo, 2, v64), d, &full)};
        ptr = tile__xb_op(&b, TILE__OP_PTR_ADD, pa, 2, full);
    }
    int pa[2] = {ptr, inner};
    ptr = tile__xb_op(&b, TILE__OP_PTR_ADD, pa, 2, full);
    tile__type vt = tile__with_dtype(full, et);
    if (!st) {
        int lo[3] = {ptr, mask, tile__xb_const(&b, et, &vt, 0)};
        map[x.res] = tile__xb_op(&b, TILE__OP_LOAD, lo, 3, vt);
        return;
    }
    int so[3] = {ptr, f->pool[x.opnd + 1], mask};
    if (x.i[0] < 0) {
        tile__new_op(f, b.reg, TILE__OP_STORE, so, 3, NULL, 0, b.file, b.line);
        return;
    }
    int at = tile__new_op(f, b.reg, TILE__OP_ATOMIC, so, 3, &vt, 1, b.file, b.line);
    f->ops[at].i[0] = x.i[0];
    f->ops[at].i[1] = TL_SEM_RELAXED;
    f->ops[at].i[2] = TL_SCOPE_GPU;
}
/* rebuild region reg's op list with each access's replacement before it; 0 when out of memory */
static int tile__desc_expand_region(tile__func *f, int reg, int *map, const char *keep) {
    int n = f->regs[reg].nops;
    int *old = (int *)TILE_MALLOC(((size_t)n + 1) * sizeof *old);
    if (!old) return 0;
    memcpy(old, f->regs[reg].ops, (size_t)n * sizeof *old);
    f->regs[reg].nops = 0;
    for (int k = 0; k < n && !f->nomem; k++) {
        int id = old[k];
        if (!f->ops[id].dead && (f->ops[id].code == TILE__OP_DESC_LOAD || f->ops[id].code == TILE__OP_DESC_STORE) && !(keep && keep[id])) {
            tile__desc_expand_op(f, id, map);
            f->ops[id].dead = 1;
        }
        tile__region_append(f, reg, id);
        for (int j = 0; j < 2; j++)
            if (f->ops[id].region[j] >= 0 && !tile__desc_expand_region(f, f->ops[id].region[j], map, keep)) {
                TILE_FREE(old);
                return 0;
            }
    }
    TILE_FREE(old);
    return !f->nomem;
}
static int tile__has_descs(const tile__func *f) {
    for (int id = 0; id < f->nops; id++)
        if (!f->ops[id].dead && f->ops[id].code == TILE__OP_MAKE_DESC) return 1;
    return 0;
}
/* f's descriptor accesses as pointer accesses but those keep[op] marks
   (keep NULL: all), then fold, CSE, DCE (the MAKE_DESCs no access uses go);
   0 when out of memory */
static int tile__desc_expand(tile__func *f, const char *keep) {
    int nold = f->nvals;
    int *repl = (int *)tile__calloc((size_t)nold + 1, sizeof *repl);   /* old load result -> its LOAD's */
    if (!repl) return 0;
    int ok = tile__desc_expand_region(f, 0, repl, keep);
    int *map = ok ? (int *)tile__calloc((size_t)f->nvals + 1, sizeof *map) : NULL;
    if (map) {
        memcpy(map, repl, (size_t)nold * sizeof *map);
        tile__replace_uses(f, map);
    }
    int good = map != NULL;
    TILE_FREE(repl);
    TILE_FREE(map);
    return good && tile__fold(f) >= 0 && tile__cse(f) >= 0 && tile__dce(f) >= 0;
}
