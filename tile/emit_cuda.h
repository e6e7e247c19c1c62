/* tile/emit_cuda.h — >>emit_cuda: the CUDA C emitter, compiled by NVRTC.

   Why it is shaped this way: the lowering (lower.h) speaks to an emitter in
   scalar operations on virtual registers; this one prints each register as
   a C variable `rN` of its dtype, so the source reads like the lowering's
   trace and NVRTC does the register allocation, CSE and scheduling. The
   source is self-contained (no #include: NVRTC needs no headers, CI needs
   no toolkit headers); narrow floats travel as their bits and compute in
   f32, which rounds +, -, *, / and sqrt exactly once for f16 and bf16
   (24 bits >= 2p + 2). Signed integer arithmetic goes through unsigned
   types, so it wraps as the interpreter does instead of being undefined. */

typedef struct tile__cuda_em {
    tile__emitter em;
    char *buf;
    size_t len, cap;
    tl_dtype *types;                /* per register */
    int nregs, capregs;
    int depth;                      /* indentation  */
    const tile__func *f;
    int oom;                        /* out of memory: the text is dropped, the source fails */
    char missing[64];               /* the first op without a CUDA C rule */
    int uid;                        /* inline PTX so far: its $U */
} tile__cuda_em;

static void tile__cc_out(tile__cuda_em *c, const char *fmt, ...) {
    va_list ap;
    if (c->oom) return;
    if (!c->buf) {
        c->cap = 1 << 16;
        if (!(c->buf = (char *)TILE_MALLOC(c->cap))) {
            c->oom = 1;
            return;
        }
    }
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(c->buf + c->len, c->cap - c->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < c->cap - c->len) {
            c->len += (size_t)n;
            return;
        }
        size_t want = c->cap * 2 + (size_t)(n > 0 ? n : 256) + 1;
        char *nb = (char *)TILE_REALLOC(c->buf, want);
        if (!nb) {
            c->oom = 1;
            return;
        }
        c->buf = nb;
        c->cap = want;
    }
}
static void tile__cc_indent(tile__cuda_em *c) {
    for (int i = 0; i < c->depth + 1; i++) tile__cc_out(c, "  ");
}
static const char *tile__cc_ctype(tl_dtype t) {
    switch (t) {
    case TL_I1: return "bool";
    case TL_I8: return "signed char";
    case TL_I16: return "short";
    case TL_I32: return "int";
    case TL_I64: return "long long";
    case TL_U8: case TL_F8E4M3: case TL_F8E5M2: case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: return "unsigned char";
    case TL_U16: case TL_F16: case TL_BF16: return "unsigned short";
    case TL_U32: return "unsigned";
    case TL_U64: return "unsigned long long";
    case TL_F32: return "float";
    case TL_F64: return "double";
    case TL_PTR: return "char *";
    default: return "void";
    }
}
/* the unsigned type of the same width, for wrapping arithmetic */
static const char *tile__cc_utype(tl_dtype t) {
    switch (tile__dt[t].bits) {
    case 64: return "unsigned long long";
    default: return "unsigned";
    }
}
static int tile__cc_new(tile__cuda_em *c, tl_dtype t) {
    if (c->nregs == c->capregs) {
        int cap = c->capregs ? 2 * c->capregs : 256;
        tl_dtype *grown = cap > c->capregs ? (tl_dtype *)TILE_REALLOC(c->types, (size_t)cap * sizeof *grown) : NULL;
        if (!grown) {
            c->oom = 1;   /* the source fails; a register number is still handed out */
            return c->nregs ? c->nregs - 1 : 0;
        }
        c->types = grown;
        c->capregs = cap;
    }
    c->types[c->nregs] = t;
    return c->nregs++;
}
/* an op the CUDA C emitter has no rule for: the source fails with TILE_ERR_INTERNAL naming it */
static int tile__cc_missing(tile__cuda_em *c, const char *what, tile__opcode code, tl_dtype rt) {
    if (!c->missing[0]) snprintf(c->missing, sizeof c->missing, "%s %s", what, tile__op_names[code]);
    return tile__cc_new(c, rt);
}
/* declare a new register of dtype t holding the expression */
static int tile__cc_def(tile__cuda_em *c, tl_dtype t, const char *fmt, ...) {
    int r = tile__cc_new(c, t);
    char expr[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(expr, sizeof expr, fmt, ap);
    va_end(ap);
    tile__cc_indent(c);
    tile__cc_out(c, "%s r%d = %s;\n", tile__cc_ctype(t), r, expr);
    return r;
}
/* an expression reading register r as a float value (narrow floats decoded) */
static void tile__cc_fval(tile__cuda_em *c, int r, char *out, size_t n) {
    switch (c->types[r]) {
    case TL_F16: snprintf(out, n, "tile_h2f(r%d)", r); break;
    case TL_BF16: snprintf(out, n, "tile_b2f(r%d)", r); break;
    case TL_F8E4M3: snprintf(out, n, "tile_e4m3_2f(r%d)", r); break;
    case TL_F8E5M2: snprintf(out, n, "tile_e5m2_2f(r%d)", r); break;
    case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16:   /* >>f8: the format's parameters from tile__f8sw */
        snprintf(out, n, "tile_f8sw_2f(r%d, %d, %d, %d)", r, tile__f8sw(c->types[r])->mbits, tile__f8sw(c->types[r])->bias, c->types[r] != TL_F8E4B15);
        break;
    default: snprintf(out, n, "r%d", r); break;
    }
}
/* wrap a float expression into dtype t's storage */
static void tile__cc_fenc(tl_dtype t, const char *e, char *out, size_t n) {
    switch (t) {
    case TL_F16: snprintf(out, n, "tile_f2h(%s)", e); break;
    case TL_BF16: snprintf(out, n, "tile_f2b(%s)", e); break;
    case TL_F8E4M3: snprintf(out, n, "tile_f2e4m3(%s)", e); break;
    case TL_F8E5M2: snprintf(out, n, "tile_f2e5m2(%s)", e); break;
    case TL_F8E4B15: snprintf(out, n, "tile_f2e4b15(%s)", e); break;
    case TL_F8E4B8: case TL_F8E5B16: snprintf(out, n, "tile_f2f8nuz(%s, %d, %d, %.1ff)", e, tile__f8sw(t)->mbits, tile__f8sw(t)->bias, tile__f8sw(t)->maxv); break;
    default: snprintf(out, n, "%s", e); break;
    }
}

static tile__cuda_em *tile__cc_self(tile__emitter *e) { return (tile__cuda_em *)e; }

static int tile__cc_lit(tile__emitter *e, tl_dtype t, tile__elem v) {
    tile__cuda_em *c = tile__cc_self(e);
    if (t == TL_F32) {
        float f = (float)v.f;
        uint32_t u;
        memcpy(&u, &f, 4);   /* a NaN's payload kept, as the interpreter and the LLVM back end keep it */
        return tile__cc_def(c, t, "__uint_as_float(0x%08xu)", u);
    }
    if (t == TL_F64) {
        uint64_t u;
        memcpy(&u, &v.f, 8);
        return tile__cc_def(c, t, "__longlong_as_double(0x%016llxll)", (unsigned long long)u);
    }
    if (tile__is_float(t)) {
        unsigned char b[8] = {0};
        tile__mem_store(t, b, v);
        unsigned bits = tile__dt[t].bytes == 2 ? (unsigned)(b[0] | b[1] << 8) : b[0];
        return tile__cc_def(c, t, "(%s)0x%x", tile__cc_ctype(t), bits);
    }
    if (t == TL_I1) return tile__cc_def(c, t, "%s", v.i ? "true" : "false");
    if (tile__is_signed(t)) return tile__cc_def(c, t, "(%s)%lldll", tile__cc_ctype(t), (long long)v.i);
    return tile__cc_def(c, t, "(%s)%lluull", tile__cc_ctype(t), (unsigned long long)v.u);
}
static int tile__cc_special(tile__emitter *e, int which) {
    static const char *const names[] = {"threadIdx.x", "blockIdx.x", "blockIdx.y", "blockIdx.z", "gridDim.x", "gridDim.y", "gridDim.z"};
    if (which == 7) return tile__cc_def(tile__cc_self(e), TL_PTR, "tile_prof");    /* >>profile: the hidden parameters, last */
    if (which == 8) return tile__cc_def(tile__cc_self(e), TL_PTR, "tile_ktime");
    return tile__cc_def(tile__cc_self(e), TL_I32, "(int)%s", names[which]);
}
static int tile__cc_param(tile__emitter *e, int k) {
    tile__cuda_em *c = tile__cc_self(e);
    const tile__value *v = &c->f->vals[c->f->pool[c->f->regs[0].args + k]];
    return tile__cc_def(c, v->t.dtype, "p%d", k);
}

/* tl_libdevice's rounding-mode functions (TILE__ROUNDED_OPS): CUDA's intrinsics, each one PTX
   instruction with that rounding and no .ftz (NVRTC runs without -ftz): __fadd_rz, __dmul_ru,
   __fmaf_rd, __drcp_rn, __fsqrt_rz, __frsqrt_rn, and the conversions __<from>2<to>_<mode>
   (__double2float_rd, __float2int_rn, __ull2double_ru, ...) */
static const char *tile__cc_cvt_name(tl_dtype t) {
    return t == TL_F32 ? "float" : t == TL_F64 ? "double" : t == TL_I32 ? "int" : t == TL_U32 ? "uint" : t == TL_I64 ? "ll" : "ull";
}
static int tile__cc_rnd(tile__cuda_em *c, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c3) {
    static const char *const modes[4] = {"rn", "rz", "rd", "ru"};
    const char *m = modes[tile__rnd_mode(code)], *ct = tile__cc_ctype(rt);
    char p = t == TL_F64 ? 'd' : 'f';
    switch (tile__rnd_op(code)) {
    case TILE__OP_ADD_RN: return tile__cc_def(c, rt, "__%cadd_%s(r%d, r%d)", p, m, a, b);
    case TILE__OP_SUB_RN: return tile__cc_def(c, rt, "__%csub_%s(r%d, r%d)", p, m, a, b);
    case TILE__OP_MUL_RN: return tile__cc_def(c, rt, "__%cmul_%s(r%d, r%d)", p, m, a, b);
    case TILE__OP_DIV_RN: return tile__cc_def(c, rt, "__%cdiv_%s(r%d, r%d)", p, m, a, b);
    case TILE__OP_FMA_RN: return tile__cc_def(c, rt, "__fma%s_%s(r%d, r%d, r%d)", p == 'd' ? "" : "f", m, a, b, c3);
    case TILE__OP_RCP_RN: return tile__cc_def(c, rt, "__%crcp_%s(r%d)", p, m, a);
    case TILE__OP_SQRT_RN: return tile__cc_def(c, rt, "__%csqrt_%s(r%d)", p, m, a);
    case TILE__OP_RSQRT_RN: return tile__cc_def(c, rt, "__frsqrt_rn(r%d)", a);
    default: return tile__cc_def(c, rt, "(%s)__%s2%s_%s(r%d)", ct, tile__cc_cvt_name(t), tile__cc_cvt_name(rt), m, a);
    }
}

static int tile__cc_op1(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a) {
    tile__cuda_em *c = tile__cc_self(e);
    char x[160], y[400], z[480];
    int f64 = t == TL_F64;
    if (tile__rnd_mode(code) >= 0) return tile__cc_rnd(c, code, t, rt, a, -1, -1);
    tile__cc_fval(c, a, x, sizeof x);
    if (tile__op_libm[code]) {   /* the C math library's function: expf, exp */
        snprintf(y, sizeof y, "%s%s(%s)", tile__op_libm[code], f64 ? "" : "f", x);
        tile__cc_fenc(rt, y, z, sizeof z);
        return tile__cc_def(c, rt, "%s", z);
    }
    switch (code) {
    case TILE__OP_NEG:
        if (tile__is_float(t)) { snprintf(y, sizeof y, "-%s", x); tile__cc_fenc(rt, y, z, sizeof z); return tile__cc_def(c, rt, "%s", z); }
        return tile__cc_def(c, rt, "(%s)(0 - (%s)r%d)", tile__cc_ctype(rt), tile__cc_utype(t), a);
    case TILE__OP_POPC: case TILE__OP_CLZ: case TILE__OP_FFS: case TILE__OP_BREV: {
        /* CUDA's 32- and 64-bit ones; a narrower integer zero-extended to 32 bits */
        unsigned w = tile__dt[t].bits, m = w < 32 ? (1u << w) - 1 : ~0u;
        const char *ct = tile__cc_ctype(rt);
        if (w == 64) {
            if (code == TILE__OP_POPC) return tile__cc_def(c, rt, "(%s)__popcll((unsigned long long)r%d)", ct, a);
            if (code == TILE__OP_CLZ) return tile__cc_def(c, rt, "(%s)__clzll((long long)r%d)", ct, a);
            if (code == TILE__OP_FFS) return tile__cc_def(c, rt, "(%s)__ffsll((long long)r%d)", ct, a);
            return tile__cc_def(c, rt, "(%s)__brevll((unsigned long long)r%d)", ct, a);
        }
        if (code == TILE__OP_POPC) return tile__cc_def(c, rt, "(%s)__popc((unsigned)r%d & 0x%xu)", ct, a, m);
        if (code == TILE__OP_CLZ) return tile__cc_def(c, rt, "(%s)(__clz((int)((unsigned)r%d & 0x%xu)) - %u)", ct, a, m, 32 - w);
        if (code == TILE__OP_FFS) return tile__cc_def(c, rt, "(%s)__ffs((int)((unsigned)r%d & 0x%xu))", ct, a, m);
        return tile__cc_def(c, rt, "(%s)(__brev((unsigned)r%d & 0x%xu) >> %u)", ct, a, m, 32 - w);
    }
    case TILE__OP_NOT:
        if (t == TL_I1) return tile__cc_def(c, rt, "!r%d", a);
        return tile__cc_def(c, rt, "(%s)~r%d", tile__cc_ctype(rt), a);
    case TILE__OP_ABS:
        if (tile__is_float(t)) { snprintf(y, sizeof y, "%s(%s)", f64 ? "fabs" : "fabsf", x); tile__cc_fenc(rt, y, z, sizeof z); return tile__cc_def(c, rt, "%s", z); }
        return tile__cc_def(c, rt, "(%s)(r%d < 0 ? 0 - (%s)r%d : (%s)r%d)", tile__cc_ctype(rt), a, tile__cc_utype(t), a, tile__cc_utype(t), a);
    case TILE__OP_SIGMOID:
        snprintf(y, sizeof y, f64 ? "1.0 / (1.0 + exp(-%s))" : "1.0f / (1.0f + expf(-%s))", x);
        tile__cc_fenc(rt, y, z, sizeof z);
        return tile__cc_def(c, rt, "%s", z);
    case TILE__OP_CAST:
        if (t == rt) return tile__cc_def(c, rt, "r%d", a);
        if (rt == TL_I1) return tile__cc_def(c, rt, "(%s != 0)", x);
        if (tile__is_float(rt)) {
            if (tile__is_float(t)) {
                if (rt == TL_F64) snprintf(y, sizeof y, "(double)%s", x);
                else if (t == TL_F64 && rt != TL_F32) snprintf(y, sizeof y, "tile_d2f_odd(%s)", x); /* once-rounded narrowing */
                else snprintf(y, sizeof y, "(float)%s", x);
            } else if (rt == TL_F64) snprintf(y, sizeof y, "(double)r%d", a);
            else if (tile__dt[t].bits == 64 && rt != TL_F32) snprintf(y, sizeof y, "tile_%s2f_odd(r%d)", tile__is_signed(t) ? "ll" : "ull", a);
            else if (tile__dt[t].bits > 16 && rt != TL_F32) snprintf(y, sizeof y, "tile_d2f_odd((double)r%d)", a);
            else snprintf(y, sizeof y, "(float)r%d", a);
            if (rt == TL_F8E5M2) { snprintf(z, sizeof z, "tile_f2e5m2_sat(%s)", y); return tile__cc_def(c, rt, "%s", z); }
            tile__cc_fenc(rt, y, z, sizeof z);
            return tile__cc_def(c, rt, "%s", z);
        }
        if (tile__is_float(t)) /* float -> int: truncate, saturate, NaN -> 0 (cvt.rzi.sat) */
            return tile__cc_def(c, rt, "tile_f2i_%s(%s)", tile__dt[rt].name, x);
        if (t == TL_I1) return tile__cc_def(c, rt, "(%s)(r%d ? 1 : 0)", tile__cc_ctype(rt), a);
        return tile__cc_def(c, rt, "(%s)r%d", tile__cc_ctype(rt), a);
    case TILE__OP_BITCAST:
        return tile__cc_def(c, rt, "tile_bitcast<%s>(r%d)", tile__cc_ctype(rt), a);
    /* tl_libdevice's ones of another result dtype (an f32 or f64 operand): ilogbf, llroundf, ... */
    case TILE__OP_ILOGB: return tile__cc_def(c, rt, "%s(%s)", f64 ? "ilogb" : "ilogbf", x);
    case TILE__OP_LLROUND: return tile__cc_def(c, rt, "%s(%s)", f64 ? "llround" : "llroundf", x);
    /* f32 only: CUDA's intrinsics, libdevice's __nv_saturatef and __nv_fast_expf, ... */
    case TILE__OP_SATURATE: return tile__cc_def(c, rt, "__saturatef(%s)", x);
    case TILE__OP_FAST_EXP: return tile__cc_def(c, rt, "__expf(%s)", x);
    case TILE__OP_FAST_LOG: return tile__cc_def(c, rt, "__logf(%s)", x);
    case TILE__OP_FAST_LOG2: return tile__cc_def(c, rt, "__log2f(%s)", x);
    case TILE__OP_FAST_LOG10: return tile__cc_def(c, rt, "__log10f(%s)", x);
    case TILE__OP_FAST_EXP10: return tile__cc_def(c, rt, "__exp10f(%s)", x);
    case TILE__OP_FAST_SIN: return tile__cc_def(c, rt, "__sinf(%s)", x);
    case TILE__OP_FAST_COS: return tile__cc_def(c, rt, "__cosf(%s)", x);
    case TILE__OP_FAST_TAN: return tile__cc_def(c, rt, "__tanf(%s)", x);
    default: break;
    }
    return tile__cc_missing(c, "unary", code, rt);
}

static int tile__cc_op2(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b) {
    tile__cuda_em *c = tile__cc_self(e);
    char x[160], y[160], s[480], z[560];
    tile__cc_fval(c, a, x, sizeof x);
    tile__cc_fval(c, b, y, sizeof y);
    const char *ct = tile__cc_ctype(rt), *ut = tile__cc_utype(t);
    int fl = tile__is_float(t), f64 = t == TL_F64;
    unsigned w = tile__dt[t].bits;
    const char *sym = NULL;
    if (tile__rnd_mode(code) >= 0) return tile__cc_rnd(c, code, t, rt, a, b, -1);
    if (code == TILE__OP_POWI || code == TILE__OP_LDEXP || code == TILE__OP_SCALBN) {
        /* x of the result's dtype (f16 and bf16 in f32) and an i32 n (t): CUDA's pow(float, int) (libdevice's
           __nv_powif; pow(double, int) __nv_powi), ldexpf, scalbnf */
        const char *fn = code == TILE__OP_POWI ? "pow" : code == TILE__OP_LDEXP ? "ldexp" : "scalbn";
        snprintf(s, sizeof s, "%s%s(%s, (int)r%d)", fn, rt == TL_F64 || code == TILE__OP_POWI ? "" : "f", x, b);
        tile__cc_fenc(rt, s, z, sizeof z);
        return tile__cc_def(c, rt, "%s", z);
    }
    if (code == TILE__OP_FAST_POW) return tile__cc_def(c, rt, "__powf(%s, %s)", x, y);
    if (code == TILE__OP_FAST_DIV) return tile__cc_def(c, rt, "__fdividef(%s, %s)", x, y);
    switch (code) {
    case TILE__OP_ADD: sym = "+"; break;
    case TILE__OP_SUB: sym = "-"; break;
    case TILE__OP_MUL: sym = "*"; break;
    default: break;
    }
    if (fl && tile__op_libm[code]) {   /* libdevice's two-operand functions (tl_libdevice): atan2f, atan2 */
        snprintf(s, sizeof s, "%s%s(%s, %s)", tile__op_libm[code], f64 ? "" : "f", x, y);
        tile__cc_fenc(rt, s, z, sizeof z);
        return tile__cc_def(c, rt, "%s", z);
    }
    if (sym) {
        if (fl) { snprintf(s, sizeof s, "%s %s %s", x, sym, y); tile__cc_fenc(rt, s, z, sizeof z); return tile__cc_def(c, rt, "%s", z); }
        if (t == TL_I1) return tile__cc_def(c, rt, "(bool)((r%d %s r%d) & 1)", a, sym, b);
        return tile__cc_def(c, rt, "(%s)((%s)r%d %s (%s)r%d)", ct, ut, a, sym, ut, b);
    }
    switch (code) {
    case TILE__OP_DIV:
        if (fl) { snprintf(s, sizeof s, "%s / %s", x, y); tile__cc_fenc(rt, s, z, sizeof z); return tile__cc_def(c, rt, "%s", z); }
        if (tile__is_signed(t))
            return tile__cc_def(c, rt, "(%s)(r%d == 0 ? -1 : r%d == -1 ? (long long)(0 - (%s)r%d) : r%d / r%d)", ct, b, b, ut, a, a, b);
        return tile__cc_def(c, rt, "(%s)(r%d == 0 ? ~(%s)0 : r%d / r%d)", ct, b, ut, a, b);
    case TILE__OP_MOD:
        if (fl) { snprintf(s, sizeof s, "%s(%s, %s)", f64 ? "fmod" : "fmodf", x, y); tile__cc_fenc(rt, s, z, sizeof z); return tile__cc_def(c, rt, "%s", z); }
        if (tile__is_signed(t)) return tile__cc_def(c, rt, "(%s)(r%d == 0 ? r%d : r%d == -1 ? 0 : r%d %% r%d)", ct, b, a, b, a, b);
        return tile__cc_def(c, rt, "(%s)(r%d == 0 ? r%d : r%d %% r%d)", ct, b, a, a, b);
    case TILE__OP_MIN: case TILE__OP_MAX:
        if (fl) {
            snprintf(s, sizeof s, "%s(%s, %s)", code == TILE__OP_MIN ? (f64 ? "fmin" : "fminf") : (f64 ? "fmax" : "fmaxf"), x, y);
            tile__cc_fenc(rt, s, z, sizeof z);
            return tile__cc_def(c, rt, "%s", z);
        }
        return tile__cc_def(c, rt, "(r%d %s r%d ? r%d : r%d)", a, code == TILE__OP_MIN ? "<" : ">", b, a, b);
    case TILE__OP_MIN_NAN: case TILE__OP_MAX_NAN:   /* a NaN wins (propagate_nan): PTX min.NaN / max.NaN.f32 (sm_80), a compare in f64 */
        if (fl) {
            snprintf(s, sizeof s, "tile_%s_nan%s(%s, %s)", code == TILE__OP_MIN_NAN ? "min" : "max", f64 ? "64" : "", x, y);
            tile__cc_fenc(rt, s, z, sizeof z);
            return tile__cc_def(c, rt, "%s", z);
        }
        return tile__cc_op2(e, code == TILE__OP_MIN_NAN ? TILE__OP_MIN : TILE__OP_MAX, t, rt, a, b);   /* integers: no NaN */
    case TILE__OP_AND: return tile__cc_def(c, rt, "(%s)(r%d & r%d)", ct, a, b);
    case TILE__OP_OR: return tile__cc_def(c, rt, "(%s)(r%d | r%d)", ct, a, b);
    case TILE__OP_XOR: return tile__cc_def(c, rt, "(%s)(r%d ^ r%d)", ct, a, b);
    case TILE__OP_SHL:
        return tile__cc_def(c, rt, "(%s)((%s)r%d >= %uu ? 0 : (%s)r%d << (%s)r%d)", ct, "unsigned long long", b, w, ut, a, "unsigned long long", b);
    case TILE__OP_SHR:
        if (tile__is_signed(t))
            return tile__cc_def(c, rt, "(%s)((unsigned long long)r%d >= %uu ? (r%d < 0 ? -1 : 0) : r%d >> (unsigned long long)r%d)", ct, b, w, a, a, b);
        return tile__cc_def(c, rt, "(%s)((unsigned long long)r%d >= %uu ? 0 : r%d >> (unsigned long long)r%d)", ct, b, w, a, b);
    case TILE__OP_MULHI:
        if (!tile__is_signed(t)) return tile__cc_op2(e, TILE__OP_UMULHI, t, rt, a, b);   /* unsigned: umulhi */
        if (w == 64) return tile__cc_def(c, rt, "(%s)__mul64hi((long long)r%d, (long long)r%d)", ct, a, b);
        if (w == 32) return tile__cc_def(c, rt, "(%s)__mulhi((int)r%d, (int)r%d)", ct, a, b);
        return tile__cc_def(c, rt, "(%s)(((int)r%d * (int)r%d) >> %u)", ct, a, b, w);
    case TILE__OP_UMULHI:
        if (w == 64) return tile__cc_def(c, rt, "(%s)__umul64hi((unsigned long long)r%d, (unsigned long long)r%d)", ct, a, b);
        if (w == 32) return tile__cc_def(c, rt, "(%s)__umulhi((unsigned)r%d, (unsigned)r%d)", ct, a, b);
        return tile__cc_def(c, rt, "(%s)((((unsigned)r%d & 0x%xu) * ((unsigned)r%d & 0x%xu)) >> %u)", ct, a, (1u << w) - 1, b, (1u << w) - 1, w);
    case TILE__OP_HADD: case TILE__OP_UHADD: case TILE__OP_RHADD: case TILE__OP_URHADD: case TILE__OP_MUL24: case TILE__OP_UMUL24: {
        /* tl_libdevice's 32-bit ones: CUDA's __hadd, __uhadd, ... (libdevice's __nv_hadd, ...); hadd,
           rhadd and mul24 of an unsigned dtype are the unsigned ones, as Triton's libdevice dispatches */
        int sgn = tile__is_signed(t) && (code == TILE__OP_HADD || code == TILE__OP_RHADD || code == TILE__OP_MUL24);
        const char *fn = code == TILE__OP_HADD || code == TILE__OP_UHADD ? "hadd" : code == TILE__OP_RHADD || code == TILE__OP_URHADD ? "rhadd" : "mul24";
        if (sgn) return tile__cc_def(c, rt, "(%s)__%s((int)r%d, (int)r%d)", ct, fn, a, b);
        return tile__cc_def(c, rt, "(%s)__u%s((unsigned)r%d, (unsigned)r%d)", ct, fn, a, b);
    }
    case TILE__OP_EQ: return tile__cc_def(c, rt, "(%s == %s)", x, y);
    case TILE__OP_NE: return tile__cc_def(c, rt, "(%s != %s)", x, y);
    case TILE__OP_LT: return tile__cc_def(c, rt, "(%s < %s)", x, y);
    case TILE__OP_LE: return tile__cc_def(c, rt, "(%s <= %s)", x, y);
    case TILE__OP_GT: return tile__cc_def(c, rt, "(%s > %s)", x, y);
    case TILE__OP_GE: return tile__cc_def(c, rt, "(%s >= %s)", x, y);
    default: break;
    }
    return tile__cc_missing(c, "binary", code, rt);
}
static int tile__cc_op3(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c3) {
    tile__cuda_em *c = tile__cc_self(e);
    if (code == TILE__OP_WHERE) return tile__cc_def(c, rt, "(r%d ? r%d : r%d)", a, b, c3);
    if (tile__rnd_mode(code) >= 0) return tile__cc_rnd(c, code, t, rt, a, b, c3);
    /* tl_libdevice's sad (signed when the dtype is), usad and byte_perm: CUDA's, on 32-bit registers */
    if (code == TILE__OP_SAD && tile__is_signed(t))
        return tile__cc_def(c, rt, "(%s)__sad((int)r%d, (int)r%d, (unsigned)r%d)", tile__cc_ctype(rt), a, b, c3);
    if (code == TILE__OP_SAD || code == TILE__OP_USAD || code == TILE__OP_BYTE_PERM)
        return tile__cc_def(c, rt, "(%s)__%s((unsigned)r%d, (unsigned)r%d, (unsigned)r%d)", tile__cc_ctype(rt),
                            code == TILE__OP_BYTE_PERM ? "byte_perm" : "usad", a, b, c3);
    char x[160], y[160], w[160], s[600], z[680];
    tile__cc_fval(c, a, x, sizeof x);
    tile__cc_fval(c, b, y, sizeof y);
    tile__cc_fval(c, c3, w, sizeof w);
    if (tile__op_libm[code])   /* tl_libdevice's three-operand ones: norm3df, rnorm3d */
        snprintf(s, sizeof s, "%s%s(%s, %s, %s)", tile__op_libm[code], t == TL_F64 ? "" : "f", x, y, w);
    else   /* fma; narrow floats: the exact a * b + c rounded to odd, then to the dtype: once-rounded */
        snprintf(s, sizeof s, "%s(%s, %s, %s)", t == TL_F64 ? "fma" : t == TL_F32 ? "fmaf" : "tile_fma_odd", x, y, w);
    tile__cc_fenc(rt, s, z, sizeof z);
    return tile__cc_def(c, rt, "%s", z);
}
/* the four-operand ops, tl_libdevice's norm4d and rnorm4d: norm4df, rnorm4d, ... */
static int tile__cc_op4(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c3, int d) {
    tile__cuda_em *c = tile__cc_self(e);
    char x[4][160], s[720], z[800];
    int r[4] = {a, b, c3, d};
    if (!tile__op_libm[code]) return tile__cc_missing(c, "four-operand", code, rt);
    for (int k = 0; k < 4; k++) tile__cc_fval(c, r[k], x[k], sizeof x[k]);
    snprintf(s, sizeof s, "%s%s(%s, %s, %s, %s)", tile__op_libm[code], t == TL_F64 ? "" : "f", x[0], x[1], x[2], x[3]);
    tile__cc_fenc(rt, s, z, sizeof z);
    return tile__cc_def(c, rt, "%s", z);
}
static int tile__cc_ptr_add(tile__emitter *e, int p, int off, tl_dtype off_t, int elem_bytes) {
    (void)off_t;
    return tile__cc_def(tile__cc_self(e), TL_PTR, "r%d + (long long)r%d * %d", p, off, elem_bytes);
}
static int tile__cc_round_tf32(tile__emitter *e, int v) {
    return tile__cc_def(tile__cc_self(e), TL_F32, "tile_tf32(r%d)", v);
}
/* the C type that moves `bytes` bytes at once */
static const char *tile__cc_vtype(int bytes) {
    return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : bytes == 4 ? "unsigned" : bytes == 2 ? "unsigned short" : "unsigned char";
}
static void tile__cc_load(tile__emitter *e, tl_dtype t, int n, int ptr, int pred, const int *other, int *out, int cache, int evict) {
    tile__cuda_em *c = tile__cc_self(e);
    (void)cache;
    (void)evict;
    int size = (int)tile__dt[t].bytes, bytes = n * size;
    for (int k = 0; k < n; k++) {
        if (other) out[k] = tile__cc_def(c, t, "r%d", other[k]);
        else out[k] = tile__cc_def(c, t, "(%s)0", tile__cc_ctype(t));
    }
    const char *et = t == TL_I1 ? "unsigned char" : tile__cc_ctype(t);
    tile__cc_indent(c);
    if (pred >= 0) tile__cc_out(c, "if (r%d) ", pred);
    tile__cc_out(c, "{ union { %s v; %s e[%d]; } u_; u_.v = *(const %s *)r%d;", tile__cc_vtype(bytes), et, n, tile__cc_vtype(bytes), ptr);
    for (int k = 0; k < n; k++) tile__cc_out(c, t == TL_I1 ? " r%d = u_.e[%d] != 0;" : " r%d = u_.e[%d];", out[k], k);
    tile__cc_out(c, " }\n");
}
static void tile__cc_store(tile__emitter *e, tl_dtype t, int n, int ptr, int pred, const int *vals, int cache, int evict) {
    tile__cuda_em *c = tile__cc_self(e);
    (void)cache;
    (void)evict;
    int size = (int)tile__dt[t].bytes, bytes = n * size;
    const char *et = t == TL_I1 ? "unsigned char" : tile__cc_ctype(t);
    tile__cc_indent(c);
    if (pred >= 0) tile__cc_out(c, "if (r%d) ", pred);
    tile__cc_out(c, "{ union { %s v; %s e[%d]; } u_;", tile__cc_vtype(bytes), et, n);
    for (int k = 0; k < n; k++) tile__cc_out(c, t == TL_I1 ? " u_.e[%d] = r%d ? 1 : 0;" : " u_.e[%d] = r%d;", k, vals[k]);
    tile__cc_out(c, " *(%s *)r%d = u_.v; }\n", tile__cc_vtype(bytes), ptr);
}
static int tile__cc_atomic(tile__emitter *e, int kind, tl_dtype t, int ptr, int val, int pred, int sem, int scope) {
    tile__cuda_em *c = tile__cc_self(e);
    static const char *const names[] = {"add", "max", "min", "and", "or", "xor", "xchg"};
    int r = tile__cc_def(c, t, "(%s)0", tile__cc_ctype(t));
    tile__cc_indent(c);
    if (pred >= 0) tile__cc_out(c, "if (r%d) ", pred);
    tile__cc_out(c, "{ %sr%d = tile_atomic_%s_%s(r%d, r%d, %d); %s}\n", sem != TL_SEM_RELAXED ? "__threadfence(); " : "", r, names[kind],
                 tile__dt[t].name, ptr, val, scope, sem != TL_SEM_RELAXED ? "__threadfence(); " : "");
    return r;
}
static int tile__cc_cas(tile__emitter *e, tl_dtype t, int ptr, int cmp, int val, int pred, int sem, int scope) {
    tile__cuda_em *c = tile__cc_self(e);
    (void)scope;
    int r = tile__cc_def(c, t, "(%s)0", tile__cc_ctype(t));
    tile__cc_indent(c);
    if (pred >= 0) tile__cc_out(c, "if (r%d) ", pred);
    tile__cc_out(c, "{ %sr%d = tile_cas_%u(r%d, r%d, r%d); %s}\n", sem != TL_SEM_RELAXED ? "__threadfence(); " : "", r, tile__dt[t].bits, ptr, cmp,
                 val, sem != TL_SEM_RELAXED ? "__threadfence(); " : "");
    return r;
}
static int tile__cc_shfl_xor(tile__emitter *e, tl_dtype t, int v, int mask) {
    tile__cuda_em *c = tile__cc_self(e);
    if (t == TL_I1 || tile__dt[t].bits < 32)
        return tile__cc_def(c, t, "(%s)__shfl_xor_sync(0xffffffffu, (int)r%d, %d)", tile__cc_ctype(t), v, mask);
    return tile__cc_def(c, t, "__shfl_xor_sync(0xffffffffu, r%d, %d)", v, mask);
}
static void tile__cc_smem_store(tile__emitter *e, tl_dtype t, int off, int v) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    tile__cc_out(c, "*(%s *)(tile_smem + r%d) = r%d;\n", tile__cc_ctype(t), off, v);
}
static int tile__cc_smem_load(tile__emitter *e, tl_dtype t, int off) {
    /* const after the type: for a pointer, `const char **` would be a pointer to pointers to const */
    if (t == TL_PTR) return tile__cc_def(tile__cc_self(e), t, "*(%s const *)(tile_smem + r%d)", tile__cc_ctype(t), off);
    return tile__cc_def(tile__cc_self(e), t, "*(const %s *)(tile_smem + r%d)", tile__cc_ctype(t), off);
}
/* >>mma: tensor cores and cp.async as inline PTX; tile_smem_u32 is the
   shared-window address of tile_smem */
/* one inline PTX instruction (tile/ptx.h): asm() with constraints. In-out
   operands are copies made first ("+f"), so that no other use of the
   register sees the update; an input's tie is not needed here. */
static const char *tile__cc_cons(tl_dtype t) {
    return t == TL_F32 ? "f" : t == TL_F64 ? "d" : t == TL_I64 || t == TL_PTR ? "l" : t == TL_U16 ? "h" : "r";
}
static void tile__cc_ptx(tile__emitter *e, const char *text, int flags, int n, tile__px *ops) {
    tile__cuda_em *c = tile__cc_self(e);
    int nout = 0, nin = 0, ninout = 0;
    for (int k = 0; k < n; k++) {
        nout += ops[k].role != TILE__PX_IN;
        nin += ops[k].role == TILE__PX_IN;
        ninout += ops[k].role == TILE__PX_INOUT;
    }
    if (ninout) {
        int first = 1;
        for (int k = 0; k < n; k++) {
            if (ops[k].role != TILE__PX_INOUT) continue;
            int r = tile__cc_new(c, ops[k].t);
            if (first) tile__cc_indent(c), tile__cc_out(c, "%s", tile__cc_ctype(ops[k].t));
            tile__cc_out(c, "%s r%d = r%d", first ? "" : ",", r, ops[k].reg);
            ops[k].reg = r;
            first = 0;
        }
        tile__cc_out(c, ";\n");
    }
    tile__cc_indent(c);
    int decl = 0;
    tl_dtype last = TL_VOID;   /* outputs of one C type share a declaration (inline asm's of several dtypes: one each) */
    for (int k = 0; k < n; k++) {
        if (ops[k].role != TILE__PX_OUT) continue;
        ops[k].reg = tile__cc_new(c, ops[k].t);
        if (decl && strcmp(tile__cc_ctype(ops[k].t), tile__cc_ctype(last)) == 0) tile__cc_out(c, ", r%d", ops[k].reg);
        else tile__cc_out(c, "%s%s r%d", decl ? "; " : "", tile__cc_ctype(ops[k].t), ops[k].reg);
        decl = 1;
        last = ops[k].t;
    }
    tile__cc_out(c, "%sasm%s(\"", decl ? "; " : "", flags & TILE__PX_VOLATILE ? " volatile" : "");
    for (const char *t = text; *t; t++) {
        if (*t == '$' && t[1] == 'U') tile__cc_out(c, "%d", c->uid), t++;
        else if (*t == '$') tile__cc_out(c, "%%");
        else if (*t == '%') tile__cc_out(c, "%%%%");
        else if (*t == '"' || *t == '\\') tile__cc_out(c, "\\%c", *t);
        else if (*t == '\n') tile__cc_out(c, "\\n");
        else if (*t == '\t') tile__cc_out(c, "\\t");
        else tile__cc_out(c, "%c", *t);
    }
    c->uid++;
    tile__cc_out(c, "\"%s", nout ? " : " : " ::");
    for (int k = 0, at = 0; k < n; k++)
        if (ops[k].role != TILE__PX_IN)
            tile__cc_out(c, "%s\"%s%s\"(r%d)", at++ ? ", " : "", ops[k].role == TILE__PX_INOUT ? "+" : "=", tile__cc_cons(ops[k].t), ops[k].reg);
    if (nout) tile__cc_out(c, " :");
    if (nin) tile__cc_out(c, " ");
    for (int k = 0, at = 0; k < n; k++) {
        const tile__px *o = &ops[k];
        if (o->role != TILE__PX_IN) continue;
        tile__cc_out(c, "%s\"%s\"(", at++ ? ", " : "", tile__cc_cons(o->t));
        switch (o->form) {
        case TILE__PXF_SMEM: tile__cc_out(c, "tile_smem_u32 + (unsigned)r%d", o->reg); break;
        case TILE__PXF_DESC: tile__cc_out(c, "0x%llxull | (tile_u64)((tile_smem_u32 + (unsigned)r%d) >> 4 & 0x3FFFu)", (unsigned long long)o->hi, o->reg); break;
        case TILE__PXF_SIZE: tile__cc_out(c, "r%d ? %d : 0", o->reg, (int)o->hi); break;
        case TILE__PXF_IMM: tile__cc_out(c, "%lld", (long long)o->hi); break;
        default: tile__cc_out(c, "r%d", o->reg); break;
        }
        tile__cc_out(c, ")");
    }
    if (flags & TILE__PX_MEMORY) tile__cc_out(c, "%s\"memory\"", nout || nin ? " : " : ": ");
    tile__cc_out(c, ");\n");
}
static void tile__cc_barrier(tile__emitter *e) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    tile__cc_out(c, "__syncthreads();\n");
}
static int tile__cc_var(tile__emitter *e, tl_dtype t, int init) {
    tile__cuda_em *c = tile__cc_self(e);
    if (init >= 0) return tile__cc_def(c, t, "r%d", init);
    return tile__cc_def(c, t, "(%s)0", tile__cc_ctype(t));
}
static void tile__cc_assign(tile__emitter *e, int var, int v) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    tile__cc_out(c, "r%d = r%d;\n", var, v);
}
static void tile__cc_for_begin(tile__emitter *e, tl_dtype t, int iv, int lo, int hi, int step) {
    tile__cuda_em *c = tile__cc_self(e);
    (void)t;
    tile__cc_indent(c);
    tile__cc_out(c, "for (r%d = r%d; r%d < r%d; r%d += r%d) {\n", iv, lo, iv, hi, iv, step);
    c->depth++;
}
static void tile__cc_close(tile__emitter *e) {
    tile__cuda_em *c = tile__cc_self(e);
    c->depth--;
    tile__cc_indent(c);
    tile__cc_out(c, "}\n");
}
static void tile__cc_for_end(tile__emitter *e) { tile__cc_close(e); }
static void tile__cc_if_end(tile__emitter *e) { tile__cc_close(e); }
static void tile__cc_loop_end(tile__emitter *e) { tile__cc_close(e); }
static void tile__cc_if_begin(tile__emitter *e, int cond) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    tile__cc_out(c, "if (r%d) {\n", cond);
    c->depth++;
}
static void tile__cc_if_else(tile__emitter *e) {
    tile__cuda_em *c = tile__cc_self(e);
    c->depth--;
    tile__cc_indent(c);
    tile__cc_out(c, "} else {\n");
    c->depth++;
}
static void tile__cc_loop_begin(tile__emitter *e) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    tile__cc_out(c, "for (;;) {\n");
    c->depth++;
}
static void tile__cc_break_unless(tile__emitter *e, int cond) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    tile__cc_out(c, "if (!r%d) break;\n", cond);
}
static void tile__cc_cstr(tile__cuda_em *c, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') tile__cc_out(c, "\\%c", *s);
        else if (*s == '%') tile__cc_out(c, "%%%%");
        else if ((unsigned char)*s < 32) tile__cc_out(c, "\\x%02x", (unsigned char)*s);
        else tile__cc_out(c, "%c", *s);
    }
}
static void tile__cc_print(tile__emitter *e, const char *prefix, int rank, const int *idx, tl_dtype t, int v, int pred) {
    tile__cuda_em *c = tile__cc_self(e);
    tile__cc_indent(c);
    if (pred >= 0) tile__cc_out(c, "if (r%d) ", pred);
    if (v < 0) {   /* the prefix alone, after one space */
        tile__cc_out(c, "printf(\"pid (%%d, %%d, %%d)%s", *prefix ? " " : "");
        tile__cc_cstr(c, prefix);
        tile__cc_out(c, "\\n\", (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z);\n");
        return;
    }
    tile__cc_out(c, "printf(\"pid (%%d, %%d, %%d) ");
    if (rank) {
        tile__cc_out(c, "idx (");
        for (int d = 0; d < rank; d++) tile__cc_out(c, "%s%%d", d ? ", " : "");
        tile__cc_out(c, ") ");
    }
    tile__cc_cstr(c, prefix);
    size_t pl = strlen(prefix);
    const char *conv = tile__is_float(t) ? "%.9g" : t == TL_PTR ? "0x%llx" : tile__is_signed(t) ? "%lld" : "%llu";
    tile__cc_out(c, "%s%s\\n\", (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z", pl && prefix[pl - 1] == ' ' ? "" : " ", conv);
    for (int d = 0; d < rank; d++) tile__cc_out(c, ", r%d", idx[d]);
    char x[160];
    tile__cc_fval(c, v, x, sizeof x);
    if (tile__is_float(t)) tile__cc_out(c, ", (double)%s);\n", x);
    else if (t == TL_PTR) tile__cc_out(c, ", (unsigned long long)r%d);\n", v);
    else if (tile__is_signed(t)) tile__cc_out(c, ", (long long)r%d);\n", v);
    else tile__cc_out(c, ", (unsigned long long)r%d);\n", v);
}
/* A failed check is recorded (the first one wins: its kind, line, check and
   program) in the kernel's hidden last parameter and printed; the kernel
   runs on, and the runtime reports it at the user's line (runtime.h). */
static void tile__cc_check(tile__emitter *e, int cond, int kind, int id, const char *msg, const char *file, int line) {
    tile__cuda_em *c = tile__cc_self(e);
    const char *base = file ? strrchr(file, '/') : NULL;
    tile__cc_indent(c);
    if (kind == TILE__CHECK_ASSUME) {
        tile__cc_out(c, "__builtin_assume(r%d);\n", cond);
        return;
    }
    tile__cc_out(c, "if (!r%d) tile_assert_fail(tile_err, %d, %d, %d, \"", cond, kind, id, line);
    tile__cc_cstr(c, base ? base + 1 : file ? file : "?");
    tile__cc_out(c, "\", \"");
    tile__cc_cstr(c, msg);
    tile__cc_out(c, "\");\n");
}


/* Helpers every kernel's source starts with: narrow-float conversions,
   saturating float->int casts, bitcasts, tf32 rounding, atomics. */
static const char *const tile__cc_prelude[] = {
    "typedef unsigned long long tile_u64;\n",
    "__device__ __forceinline__ float tile_h2f(unsigned short h) { float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }\n",
    "__device__ __forceinline__ unsigned short tile_f2h(float f) { unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n",
    "__device__ __forceinline__ float tile_b2f(unsigned short h) { return __uint_as_float((unsigned)h << 16); }\n",
    "__device__ __forceinline__ unsigned short tile_f2b(float f) { unsigned short h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n",
    "__device__ __forceinline__ float tile_max_nan(float a, float b) { float r; asm(\"max.NaN.f32 %0, %1, %2;\" : \"=f\"(r) : \"f\"(a), \"f\"(b)); return r; }\n",
    "__device__ __forceinline__ float tile_min_nan(float a, float b) { float r; asm(\"min.NaN.f32 %0, %1, %2;\" : \"=f\"(r) : \"f\"(a), \"f\"(b)); return r; }\n",
    "__device__ __forceinline__ double tile_max_nan64(double a, double b) { return a != a || b != b ? a + b : fmax(a, b); }\n",
    "__device__ __forceinline__ double tile_min_nan64(double a, double b) { return a != a || b != b ? a + b : fmin(a, b); }\n",
    "__device__ __forceinline__ float tile_ull2f_odd(unsigned long long u) {\n",
    "  float f = __ull2float_rz(u); if ((unsigned long long)f != u) f = __uint_as_float(__float_as_uint(f) | 1u); return f; }\n",
    "__device__ __forceinline__ float tile_ll2f_odd(long long i) {\n",
    "  float f = tile_ull2f_odd(i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i); return i < 0 ? -f : f; }\n",
    "__device__ __forceinline__ float tile_d2f_odd(double d);\n",
    "__device__ __forceinline__ float tile_fma_odd(float a, float b, float c) {\n",
    "  double p = (double)a * (double)b, s = p + (double)c, bv = s - p, av = s - bv, err = (p - av) + ((double)c - bv);\n",
    "  long long u = __double_as_longlong(s);\n",
    "  if (err != 0.0 && !(u & 1)) s = __longlong_as_double(u + (((err > 0.0) == (s > 0.0)) ? 1 : -1));\n",
    "  return tile_d2f_odd(s); }\n",
    "__device__ __forceinline__ float tile_d2f_odd(double d) {\n",
    "  float f = __double2float_rz(d);\n",
    "  if ((double)f != d && d == d && f - f == 0.0f) f = __uint_as_float(__float_as_uint(f) | 1u);\n",
    "  return f; }\n"
    /* a float rounded to nearest even with mbits fraction bits and smallest normal exponent emin */
    "__device__ __forceinline__ float tile_round_fmt(float a, int mbits, int emin) {\n",
    "  int e; frexpf(a, &e); int q = (e - 1 < emin ? emin : e - 1) - mbits; return ldexpf(rintf(ldexpf(a, -q)), q); }\n",
    "__device__ __forceinline__ unsigned tile_fenc(float v, int mbits, int bias) {\n",
    "  if (v == 0.0f) return 0u; int e; float m = frexpf(v, &e); int E = e - 1 + bias;\n",
    "  if (E <= 0) return (unsigned)ldexpf(v, bias - 1 + mbits);\n",
    "  return ((unsigned)E << mbits) | (unsigned)ldexpf(m * 2.0f - 1.0f, mbits); }\n",
    "__device__ __forceinline__ unsigned char tile_f2e4m3(float x) {\n",
    "  unsigned s = signbit(x) ? 0x80u : 0u; if (x != x) return (unsigned char)(s | 0x7fu);\n",
    "  float r = tile_round_fmt(fabsf(x), 3, -6); if (r > 448.0f) r = 448.0f;\n",
    "  return (unsigned char)(s | tile_fenc(r, 3, 7)); }\n",
    "__device__ __forceinline__ unsigned char tile_f2e5m2(float x) {\n",
    "  unsigned s = signbit(x) ? 0x80u : 0u; if (x != x) return (unsigned char)(s | 0x7eu);\n",
    "  float r = fabsf(x) == __int_as_float(0x7f800000) ? r = fabsf(x) : tile_round_fmt(fabsf(x), 2, -14);\n",
    "  if (r > 57344.0f) return (unsigned char)(s | 0x7cu);\n",
    "  return (unsigned char)(s | tile_fenc(r, 2, 15)); }\n",
    "__device__ __forceinline__ unsigned char tile_f2e5m2_sat(float x) {\n",
    "  if (x == x && tile_round_fmt(fabsf(x) > 1e30f ? 1e30f : fabsf(x), 2, -14) > 57344.0f) x = copysignf(57344.0f, x);\n",
    "  return tile_f2e5m2(x); }\n",
    "__device__ __forceinline__ float tile_e4m3_2f(unsigned char b) {\n",
    "  unsigned e = (b >> 3) & 15u, m = b & 7u; float v;\n",
    "  if (e == 15u && m == 7u) v = __int_as_float(0x7fc00000); else if (e == 0u) v = ldexpf((float)m, -9); else v = ldexpf(1.0f + (float)m / 8.0f, (int)e - 7);\n",
    "  return (b & 0x80u) ? -v : v; }\n",
    "__device__ __forceinline__ float tile_e5m2_2f(unsigned char b) { return tile_h2f((unsigned short)((unsigned)b << 8)); }\n",
    /* >>f8: the software formats: f8e4b15 (ties away, saturating at 1.75, NaN to +1.75), the fnuz ones (NaN 0x80, no -0) */
    "__device__ __forceinline__ float tile_f8sw_2f(unsigned char b, int mbits, int bias, int fnuz) {\n",
    "  if (fnuz && b == 0x80u) return __int_as_float(0x7fc00000);\n",
    "  unsigned e = ((unsigned)b >> mbits) & ((1u << (7 - mbits)) - 1u), m = (unsigned)b & ((1u << mbits) - 1u);\n",
    "  float v = e == 0u ? ldexpf((float)m, 1 - bias - mbits) : ldexpf((float)(m | (1u << mbits)), (int)e - bias - mbits);\n",
    "  return (b & 0x80u) ? -v : v; }\n",
    "__device__ __forceinline__ unsigned char tile_f2e4b15(float x) {\n",
    "  unsigned s = x == x && signbit(x) ? 0x80u : 0u; float a = x != x ? 1.75f : fminf(fabsf(x), 2.0f);\n",
    "  int e; frexpf(a, &e); int q = (e - 1 < -14 ? -14 : e - 1) - 3; float r = ldexpf(roundf(ldexpf(a, -q)), q);\n",
    "  return (unsigned char)(s | tile_fenc(r > 1.75f ? 1.75f : r, 3, 15)); }\n",
    "__device__ __forceinline__ unsigned char tile_f2f8nuz(float x, int mbits, int bias, float maxv) {\n",
    "  if (x != x || fabsf(x) == __int_as_float(0x7f800000)) return (unsigned char)0x80u;\n",
    "  float r = tile_round_fmt(fminf(fabsf(x), 2.0f * maxv), mbits, 1 - bias); if (r > maxv) r = maxv;\n",
    "  return r == 0.0f ? (unsigned char)0u : (unsigned char)((signbit(x) ? 0x80u : 0u) | tile_fenc(r, mbits, bias)); }\n",
    "__device__ __forceinline__ float tile_tf32(float x) {\n",
    "  unsigned u = __float_as_uint(x);\n",
    "  if ((u & 0x7f800000u) != 0x7f800000u) { u += 0xfffu + ((u >> 13) & 1u); u &= 0xffffe000u; }\n",
    "  return __uint_as_float(u); }\n",
    "template <typename T, typename F> __device__ __forceinline__ T tile_bitcast(F v) { union { F f; T t; } u; u.f = v; return u.t; }\n",
    "#define TILE_F2I(name, T, lo, hi) __device__ __forceinline__ T tile_f2i_##name(double x) {",
    " return x != x ? (T)0 : x <= (double)(lo) ? (T)(lo) : x >= (double)(hi) ? (T)(hi) : (T)x; }\n",
    "TILE_F2I(i8, signed char, -128, 127) TILE_F2I(i16, short, -32768, 32767) TILE_F2I(i32, int, -2147483648.0, 2147483647)\n",
    "TILE_F2I(i64, long long, -9223372036854775808.0, 9223372036854775807LL) TILE_F2I(u8, unsigned char, 0, 255)\n",
    "TILE_F2I(u16, unsigned short, 0, 65535) TILE_F2I(u32, unsigned, 0, 4294967295u) TILE_F2I(u64, unsigned long long, 0, 18446744073709551615ull)\n"
    /* compare-and-swap on 2, 4 or 8 bytes, and a CAS loop for every other atomic */
    "__device__ __forceinline__ unsigned short tile_cas_16(char *p, unsigned short c, unsigned short v) { return atomicCAS((unsigned short *)p, c, v); }\n",
    "__device__ __forceinline__ unsigned tile_cas_32_(char *p, unsigned c, unsigned v) { return atomicCAS((unsigned *)p, c, v); }\n",
    "__device__ __forceinline__ tile_u64 tile_cas_64_(char *p, tile_u64 c, tile_u64 v) { return atomicCAS((tile_u64 *)p, c, v); }\n",
    "template <typename T> __device__ __forceinline__ T tile_cas_32(char *p, T c, T v) { return tile_bitcast<T>(tile_cas_32_(p, tile_bitcast<unsigned>(c), tile_bitcast<unsigned>(v))); }\n",
    "template <typename T> __device__ __forceinline__ T tile_cas_64(char *p, T c, T v) { return tile_bitcast<T>(tile_cas_64_(p, tile_bitcast<tile_u64>(c), tile_bitcast<tile_u64>(v))); }\n",
    "template <typename T, typename F> __device__ T tile_cas_loop(char *p, F f) {\n",
    "  if (sizeof(T) == 8) { tile_u64 old = *(volatile tile_u64 *)p, seen;\n",
    "    do { seen = old; old = atomicCAS((tile_u64 *)p, seen, tile_bitcast<tile_u64>(f(tile_bitcast<T>(seen)))); } while (old != seen);\n",
    "    return tile_bitcast<T>(old); }\n",
    "  char *w = (char *)((tile_u64)p & ~(tile_u64)3); int sh = (int)((tile_u64)p & 3) * 8;\n",
    "  unsigned mask = sizeof(T) == 4 ? 0xffffffffu : ((1u << (8 * sizeof(T))) - 1u) << sh;\n",
    "  unsigned old = *(volatile unsigned *)w, seen;\n",
    "  do { seen = old; union { unsigned u; T t; } cur, nv; cur.u = (seen & mask) >> sh;\n",
    "       nv.u = 0; nv.t = f(cur.t);\n",
    "       old = atomicCAS((unsigned *)w, seen, (seen & ~mask) | ((nv.u << sh) & mask)); } while (old != seen);\n",
    "  union { unsigned u; T t; } r; r.u = (old & mask) >> sh; return r.t; }\n",
    "#define TILE_ATOMIC_LOOP(op, name, T, expr) __device__ __forceinline__ T tile_atomic_##op##_##name(char *p, T v, int scope) {",
    " (void)scope; return tile_cas_loop<T>(p, [=](T a) -> T { return expr; }); }\n",
    "#define TILE_ATOMIC_HW(op, name, T, fn, U) __device__ __forceinline__ T tile_atomic_##op##_##name(char *p, T v, int scope) {",
    " (void)scope; return (T)fn((U *)p, (U)v); }\n",
    "TILE_ATOMIC_HW(add, i32, int, atomicAdd, int) TILE_ATOMIC_HW(add, u32, unsigned, atomicAdd, unsigned)\n",
    "TILE_ATOMIC_HW(add, i64, long long, atomicAdd, tile_u64) TILE_ATOMIC_HW(add, u64, tile_u64, atomicAdd, tile_u64)\n",
    "TILE_ATOMIC_HW(add, f32, float, atomicAdd, float) TILE_ATOMIC_HW(add, f64, double, atomicAdd, double)\n",
    "TILE_ATOMIC_LOOP(add, f16, unsigned short, tile_f2h(tile_h2f(a) + tile_h2f(v)))\n",
    "TILE_ATOMIC_LOOP(add, bf16, unsigned short, tile_f2b(tile_b2f(a) + tile_b2f(v)))\n",
    "TILE_ATOMIC_HW(max, i32, int, atomicMax, int) TILE_ATOMIC_HW(max, u32, unsigned, atomicMax, unsigned)\n",
    "TILE_ATOMIC_HW(max, i64, long long, atomicMax, long long) TILE_ATOMIC_HW(max, u64, tile_u64, atomicMax, tile_u64)\n",
    "TILE_ATOMIC_HW(min, i32, int, atomicMin, int) TILE_ATOMIC_HW(min, u32, unsigned, atomicMin, unsigned)\n",
    "TILE_ATOMIC_HW(min, i64, long long, atomicMin, long long) TILE_ATOMIC_HW(min, u64, tile_u64, atomicMin, tile_u64)\n",
    "TILE_ATOMIC_LOOP(max, f32, float, fmaxf(a, v)) TILE_ATOMIC_LOOP(min, f32, float, fminf(a, v))\n",
    "TILE_ATOMIC_LOOP(max, f64, double, fmax(a, v)) TILE_ATOMIC_LOOP(min, f64, double, fmin(a, v))\n",
    "TILE_ATOMIC_LOOP(max, f16, unsigned short, tile_f2h(fmaxf(tile_h2f(a), tile_h2f(v)))) TILE_ATOMIC_LOOP(min, f16, unsigned short, tile_f2h(fminf(tile_h2f(a), tile_h2f(v))))\n",
    "TILE_ATOMIC_LOOP(max, bf16, unsigned short, tile_f2b(fmaxf(tile_b2f(a), tile_b2f(v)))) TILE_ATOMIC_LOOP(min, bf16, unsigned short, tile_f2b(fminf(tile_b2f(a), tile_b2f(v))))\n",
    "TILE_ATOMIC_HW(and, i32, int, atomicAnd, int) TILE_ATOMIC_HW(and, u32, unsigned, atomicAnd, unsigned)\n",
    "TILE_ATOMIC_HW(and, i64, long long, atomicAnd, tile_u64) TILE_ATOMIC_HW(and, u64, tile_u64, atomicAnd, tile_u64)\n",
    "TILE_ATOMIC_HW(or, i32, int, atomicOr, int) TILE_ATOMIC_HW(or, u32, unsigned, atomicOr, unsigned)\n",
    "TILE_ATOMIC_HW(or, i64, long long, atomicOr, tile_u64) TILE_ATOMIC_HW(or, u64, tile_u64, atomicOr, tile_u64)\n",
    "TILE_ATOMIC_HW(xor, i32, int, atomicXor, int) TILE_ATOMIC_HW(xor, u32, unsigned, atomicXor, unsigned)\n",
    "TILE_ATOMIC_HW(xor, i64, long long, atomicXor, tile_u64) TILE_ATOMIC_HW(xor, u64, tile_u64, atomicXor, tile_u64)\n",
    "TILE_ATOMIC_HW(xchg, i32, int, atomicExch, int) TILE_ATOMIC_HW(xchg, u32, unsigned, atomicExch, unsigned)\n",
    "TILE_ATOMIC_HW(xchg, f32, float, atomicExch, float) TILE_ATOMIC_HW(xchg, i64, long long, atomicExch, tile_u64)\n",
    "TILE_ATOMIC_HW(xchg, u64, tile_u64, atomicExch, tile_u64)\n",
    "TILE_ATOMIC_LOOP(xchg, f64, double, v) TILE_ATOMIC_LOOP(xchg, f16, unsigned short, v) TILE_ATOMIC_LOOP(xchg, bf16, unsigned short, v)\n",
    "TILE_ATOMIC_LOOP(xchg, i16, short, v) TILE_ATOMIC_LOOP(xchg, u16, unsigned short, v)\n",
    "TILE_ATOMIC_LOOP(xchg, i8, signed char, v) TILE_ATOMIC_LOOP(xchg, u8, unsigned char, v)\n",
    "__device__ void tile_assert_fail(int *err, int kind, int id, int line, const char *file, const char *msg) {\n",
    "  if (atomicCAS(err, 0, kind) == 0) { err[1] = line; err[2] = id; err[3] = (int)blockIdx.x; err[4] = (int)blockIdx.y; err[5] = (int)blockIdx.z; }\n",
    "  printf(\"%s:%d: tl_device_assert failed in program (%d, %d, %d), thread %d: %s\\n\", file, line,\n",
    "         (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, (int)threadIdx.x, msg); }\n",
    NULL};
/* The whole CUDA C source of one kernel: the prelude, then the kernel. */
static tile_status tile__cuda_source(const tile__func *f, const tile__config *cfg, const tile__plan *plan, char **src, tile__kernel_meta *meta) {
    tile__cuda_em c;
    memset(&c, 0, sizeof c);
    c.f = f;
#define TILE__CC_HOOK(ret, name, params) c.em.name = tile__cc_##name;
    TILE__EMITTER_HOOKS(TILE__CC_HOOK)
#undef TILE__CC_HOOK
    tile__cc_out(&c, "// %s: generated by tile %s for %d warps, %d stages\n", f->name, TILE_VERSION_STRING, cfg->num_warps, cfg->num_stages);
    for (int k = 0; tile__cc_prelude[k]; k++) tile__cc_out(&c, "%s", tile__cc_prelude[k]);
    /* >>tma: tensor maps come after the record, by value, read in place */
    if (plan->ntmaps) tile__cc_out(&c, "struct __align__(64) tile_tmap_t { unsigned long long v[16]; };\n");
    /* a warp-specialized kernel: at least one program per SM (.minnctapersm 1), so that ptxas
       knows the registers at entry and applies setmaxnreg (C7508 otherwise: ignored, and spills) */
    tile__cc_out(&c, "\nextern \"C\" __global__ void __launch_bounds__(%d%s) %s(", tile__plan_threads(plan), plan->ws ? ", 1" : "", f->name);
    for (int p = 0; p < f->nparams; p++) {
        tl_dtype t = f->vals[f->pool[f->regs[0].args + p]].t.dtype;
        tile__cc_out(&c, "%s%s p%d", p ? ", " : "", t == TL_PTR ? "char *" : tile__cc_ctype(t), p);
    }
    tile__cc_out(&c, "%sint *tile_err", f->nparams ? ", " : "");
    for (int t = 0; t < plan->ntmaps; t++) tile__cc_out(&c, ", const __grid_constant__ tile_tmap_t tile_tmap%d", t);
    if (cfg->prof) tile__cc_out(&c, ", char *tile_prof");   /* >>profile: the in-kernel scopes' records, last */
    if (cfg->ktime) tile__cc_out(&c, ", char *tile_ktime");   /* >>profile: and the kernel clock's slot */
    tile__cc_out(&c, ") {\n  extern __shared__ __align__(1024) char tile_smem[];\n");
    tile__cc_out(&c, "  unsigned tile_smem_u32; asm(\"{ .reg .u64 t; cvta.to.shared.u64 t, %%1; cvt.u32.u64 %%0, t; }\" : \"=r\"(tile_smem_u32) : "
                     "\"l\"(tile_smem));\n");
    tile_status st = (c.types = (tl_dtype *)TILE_MALLOC(256 * sizeof *c.types)) != NULL ? TILE_OK : TILE_ERR_NOMEM;
    if (st == TILE_OK) {
        c.capregs = 256;
        c.types[0] = TL_I32;
        st = tile__lower_func(f, cfg, plan, &c.em, meta);
    }
    tile__cc_out(&c, "}\n");
    int reported = c.types != NULL;   /* the lowering reports its own errors */
    TILE_FREE(c.types);
    if ((st == TILE_OK && c.oom) || !reported) st = tile__error(TILE_ERR_NOMEM, f->name, NULL, 0, "out of host memory while writing the kernel's CUDA C");
    else if (st == TILE_OK && c.missing[0])
        st = tile__error(TILE_ERR_INTERNAL, f->name, NULL, 0, "the CUDA C emitter has no rule for the %s op (a bug in tile)", c.missing);
    if (st != TILE_OK) {
        TILE_FREE(c.buf);
        *src = NULL;
        return st;
    }
    *src = c.buf;   /* the caller frees it with TILE_FREE */
    return TILE_OK;
}
