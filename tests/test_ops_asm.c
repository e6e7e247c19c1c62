/* tests/test_ops_asm.c — tl_inline_asm_elementwise, Triton's
   inline_asm_elementwise: inline PTX once per element, or once per 2 or 4
   packed elements, for every register class (h: 16-bit, r: 32-bit and
   8-bit, l: 64-bit, f: f32, d: f64), operands broadcast, pure and not;
   and tl_inline_asm_elementwise_n, Triton's tuple of result dtypes, with
   Triton's registers of a pack (as many elements a register as 32 bits
   hold: Triton's documented u8 + f32 case of pack 4, u8 pairs in an h
   register, two l registers a value of a pack of 2).

   On a GPU each kernel runs on random inputs, checked against a C
   reference, outputs poisoned first. Everywhere: the PTX of each kernel
   for sm_80 and sm_90a has the user's instructions (ptx_check assembles
   it), the interpreter refuses to run inline PTX with TILE_ERR_NODEVICE at
   the call's line, and each misuse is an error with its id at its line. */
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "test_util.h"

enum { N = 1000, BLOCK = 256 };

/* FORM: 0 i32 add of two operands (r), 1 i8 negated unpacked (r, widened),
   2 u8 shifted left by 3 and masked, 4 to a word (pack 4), 3 f16 negated
   (h), 4 bf16 pairs xor 0x8000 (pack 2: a negation of both halves),
   5 i64 add of a tile and a scalar (l, broadcast), 6 f32 fma by PTX (f),
   7 f64 square, not pure (d) */
#define ASM_FORMS 8
static const struct { const char *asm_text, *cons; int pack, pure; } forms[ASM_FORMS] = {
    {"add.s32 $0, $1, $2;", "=r,r,r", 1, 1},
    {"neg.s32 $0, $1;", "=r,r", 1, 1},
    {"shl.b32 $0, $1, 3;\n\tand.b32 $0, $0, 0xF8F8F8F8;", "=r,r", 4, 1},
    {"neg.f16 $0, $1;", "=h,h", 1, 1},
    {"xor.b32 $0, $1, 0x80008000;", "=r,r", 2, 1},
    {"add.s64 $0, $1, $2;", "=l,l,l", 1, 1},
    {"fma.rn.f32 $0, $1, $2, $3;", "=f,f,f,f", 1, 1},
    {"mul.f64 $0, $1, $1;", "=d,d", 1, 0},
};
static const tl_dtype form_dt[ASM_FORMS] = {TL_I32, TL_I8, TL_U8, TL_F16, TL_BF16, TL_I64, TL_F32, TL_F64};

/* out = asm(x[, y[, z]]) over n elements; the operand count is the form's */
TILE_KERNEL(asm_kernel, (tl_ptr, x), (tl_ptr, y), (tl_ptr, z), (tl_ptr, out), (tl_i32, n))
{
    int form = TL_META(FORM), B = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
    tl_t mask = tl_lt(offs, n);
    tl_t a = tl_load(tl_add(x, offs), .mask = mask);
    tl_dtype dt = tl_element_ty(out);
    tl_t r;
    switch (form) {
    case 0: r = tl_inline_asm_elementwise(forms[0].asm_text, forms[0].cons, (a, tl_load(tl_add(y, offs), .mask = mask)), dt, 1, 1); break;
    case 5: r = tl_inline_asm_elementwise(forms[5].asm_text, forms[5].cons, (a, tl_load(y)), dt, 1, 1); break;   /* y[0] broadcast */
    case 6:
        r = tl_inline_asm_elementwise(forms[6].asm_text, forms[6].cons, (a, tl_load(tl_add(y, offs), .mask = mask), tl_load(tl_add(z, offs), .mask = mask)),
                                      dt, 1, 1);
        break;
    default: r = tl_inline_asm_elementwise(forms[form].asm_text, forms[form].cons, (a), dt, forms[form].pure, forms[form].pack); break;
    }
    tl_store(tl_add(out, offs), r, .mask = mask);
}

static uint64_t get_bits(tl_dtype t, const void *p, int i) {
    uint64_t v = 0;
    memcpy(&v, (const char *)p + (size_t)i * tile_dtype_size(t), tile_dtype_size(t));
    return v;
}
static double get_num(tl_dtype t, const void *p, int i) {
    switch (t) {
    case TL_F16: return tile_f16_to(((const tile_f16 *)p)[i]);
    case TL_F32: return ((const float *)p)[i];
    case TL_F64: return ((const double *)p)[i];
    case TL_I8: return ((const int8_t *)p)[i];
    case TL_I32: return ((const int32_t *)p)[i];
    case TL_I64: return (double)((const int64_t *)p)[i];
    default: return (double)get_bits(t, p, i);
    }
}

static void run_form(int form) {
    tl_dtype t = form_dt[form];
    size_t es = tile_dtype_size(t), bytes = N * es;
    unsigned char *h[3], *ho = (unsigned char *)malloc(bytes);
    void *d[3], *dout = tile_malloc(bytes);
    for (int k = 0; k < 3; k++) {
        h[k] = (unsigned char *)malloc(bytes);
        for (int i = 0; i < N; i++) {
            uint64_t bits = tt_next();
            if (t == TL_F16) { tile_f16 v = tile_f16_from(tt_uniform(-8, 8)); memcpy(&bits, &v, 2); }
            if (t == TL_BF16) { tile_bf16 v = tile_bf16_from(tt_uniform(-8, 8)); memcpy(&bits, &v, 2); }
            if (t == TL_F32) { float v = (float)tt_uniform(-8, 8); memcpy(&bits, &v, 4); }
            if (t == TL_F64) { double v = tt_uniform(-1e3, 1e3); memcpy(&bits, &v, 8); }
            memcpy(h[k] + (size_t)i * es, &bits, es);
        }
        d[k] = tile_malloc(bytes);
        tile_memcpy_htod(d[k], h[k], bytes);
    }
    tile_memset(dout, 0xA5, bytes);   /* poisoned */
    tile_status st = asm_kernel(TILE_OPTS(.grid = {(N + BLOCK - 1) / BLOCK}, .meta = {{"FORM", form}, {"BLOCK", BLOCK}}), TILE_PTR(d[0], t),
                                TILE_PTR(d[1], t), TILE_PTR(d[2], t), TILE_PTR(dout, t), N);
    TT_CHECK(st == TILE_OK, "form %d (%s): %s", form, forms[form].asm_text, tile_last_error());
    tile_memcpy_dtoh(ho, dout, bytes);
    int bad = 0;
    for (int i = 0; i < N && st == TILE_OK; i++) {
        uint64_t x = get_bits(t, h[0], i), y = get_bits(t, h[1], i), got = get_bits(t, ho, i), want = 0;
        int ok;
        switch (form) {
        case 0: want = (uint32_t)((uint32_t)x + (uint32_t)y); ok = got == want; break;
        case 1: want = (uint8_t)(0u - (uint8_t)x); ok = got == want; break;
        case 2: want = (uint8_t)((x << 3) & 0xF8); ok = got == want; break;
        case 3: case 4: want = x ^ 0x8000; ok = got == want; break;
        case 5: want = x + get_bits(t, h[1], 0); ok = got == want; break;
        case 6: {
            double a = get_num(t, h[0], i), b = get_num(t, h[1], i), c = get_num(t, h[2], i);
            float w = fmaf((float)a, (float)b, (float)c);
            ok = get_num(t, ho, i) == (double)w;
            memcpy(&want, &w, 4);
            break;
        }
        default: {
            double a = get_num(t, h[0], i);
            ok = get_num(t, ho, i) == a * a;
            double w = a * a;
            memcpy(&want, &w, 8);
        }
        }
        if (!ok && bad++ < 3)
            TT_CHECK(0, "form %d (%s) %s: element %d of 0x%llx, 0x%llx: 0x%llx, want 0x%llx", form, forms[form].asm_text, tile_dtype_name(t), i,
                     (unsigned long long)x, (unsigned long long)y, (unsigned long long)got, (unsigned long long)want);
    }
    TT_CHECK(!bad, "form %d: %d of %d elements wrong", form, bad, N);
    for (int k = 0; k < 3; k++) tile_free(d[k]), free(h[k]);
    tile_free(dout);
    free(ho);
}

/* kernel k's PTX for sm_80 and sm_90a, launched with o and args, has asm_text's first instruction
   (its opcode and its first operand's space); what names the case */
static void ptx_has_asm(tile_kernel *k, const tile_launch *o, const tile_arg *args, const char *asm_text, const char *what) {
    /* TILE_ARCH's last: TILE_DUMP=ptx (tests/ptx_check.sh) keeps a kernel's last PTX */
    const char *env = getenv("TILE_ARCH");
    int last80 = env && strcmp(env, "sm_80") == 0;
    const char *archs[2] = {last80 ? "sm_90a" : "sm_80", last80 ? "sm_80" : "sm_90a"};
    char first[32];
    size_t m = strcspn(asm_text, " ");
    snprintf(first, sizeof first, "%.*s ", (int)m, asm_text);
    for (int a = 0; a < 2; a++) {
        char *ptx = NULL;
        tile_status st = tile_kernel_ptx_for(k, o, args, archs[a], &ptx);
        TT_CHECK(st == TILE_OK && ptx && strstr(ptx, first), "%s for %s: %s (looked for \"%s\")", what, archs[a],
                 st == TILE_OK ? "the instruction is not in the PTX" : tile_last_error(), first);
        tile_free_text(ptx);
    }
}
/* the PTX for both targets has the user's instructions */
static void check_ptx(int form) {
    tl_dtype t = form_dt[form];
    static char dummy[8];
    tile_arg args[5];
    for (int k = 0; k < 4; k++) args[k].p = dummy, args[k].elem = t;
    args[4].i = N, args[4].elem = TL_VOID;
    char what[32];
    snprintf(what, sizeof what, "form %d", form);
    ptx_has_asm(TILE_KERNEL_OF(asm_kernel), TILE_OPTS(.grid = {1}, .meta = {{"FORM", form}, {"BLOCK", BLOCK}}), args, forms[form].asm_text, what);
}

/* ---- several results (Triton's tuple of dtypes), and packs of any width ---------------------
   MULTI: 0 Triton's documented case in our own PTX: u8 a and f32 b, pack 4, (i32 c, f32 d): c the
   bytes of a zero-extended (bfe of the one packed register), d = max(f32(c), b); 1 i32 quotient
   and remainder by div and rem; 2 f16 pairs (one r register, pack 2) doubled and, as u8 pairs
   (one h register), their high bytes (prmt); 3 i64 pack 2 (two l registers each): x + 1 and 2x */
#define MULTI_FORMS 4
static const struct { const char *asm_text, *cons; int pack, nres, nin; tl_dtype in[2], out[2]; } multi[MULTI_FORMS] = {
    {"bfe.u32 $0, $8, 0, 8;\n\tbfe.u32 $1, $8, 8, 8;\n\tbfe.u32 $2, $8, 16, 8;\n\tbfe.u32 $3, $8, 24, 8;\n\t"
     "cvt.rn.f32.u32 $4, $0;\n\tcvt.rn.f32.u32 $5, $1;\n\tcvt.rn.f32.u32 $6, $2;\n\tcvt.rn.f32.u32 $7, $3;\n\t"
     "max.f32 $4, $4, $9;\n\tmax.f32 $5, $5, $10;\n\tmax.f32 $6, $6, $11;\n\tmax.f32 $7, $7, $12;",
     "=r,=r,=r,=r,=f,=f,=f,=f,r,f,f,f,f", 4, 2, 2, {TL_U8, TL_F32}, {TL_I32, TL_F32}},
    {"div.s32 $0, $2, $3;\n\trem.s32 $1, $2, $3;", "=r,=r,r,r", 1, 2, 2, {TL_I32, TL_I32}, {TL_I32, TL_I32}},
    {"add.rn.f16x2 $0, $2, $2;\n\t{\n\t.reg .b32 t;\n\tprmt.b32 t, $2, 0, 0x0031;\n\tcvt.u16.u32 $1, t;\n\t}", "=r,=h,r", 2, 2, 1, {TL_F16, TL_F16},
     {TL_F16, TL_U8}},
    {"add.s64 $0, $4, 1;\n\tadd.s64 $1, $5, 1;\n\tshl.b64 $2, $4, 1;\n\tshl.b64 $3, $5, 1;", "=l,=l,=l,=l,l,l", 2, 2, 1, {TL_I64, TL_I64},
     {TL_I64, TL_I64}},
};
TILE_KERNEL(asm_multi, (tl_ptr, x), (tl_ptr, y), (tl_ptr, o0), (tl_ptr, o1), (tl_i32, n))
{
    int form = TL_META(FORM), B = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), B), tl_arange(0, B));
    tl_t mask = tl_lt(offs, n), r[2];
    tl_t a = tl_load(tl_add(x, offs), .mask = mask), b = tl_load(tl_add(y, offs), .mask = mask, .other = 1);
    if (multi[form].nin == 2) tl_inline_asm_elementwise_n(multi[form].asm_text, multi[form].cons, (a, b), 2, multi[form].out, 1, multi[form].pack, r);
    else tl_inline_asm_elementwise_n(multi[form].asm_text, multi[form].cons, (a), 2, multi[form].out, 1, multi[form].pack, r);
    tl_store(tl_add(o0, offs), r[0], .mask = mask);
    tl_store(tl_add(o1, offs), r[1], .mask = mask);
}
/* one input element of dtype t, random (floats small, a nonzero divisor for form 1) */
static void put_rand(tl_dtype t, unsigned char *p, int i, int form, int k) {
    uint64_t bits = tt_next();
    if (t == TL_F16) { tile_f16 v = tile_f16_from(tt_uniform(-8, 8)); memcpy(&bits, &v, 2); }
    if (t == TL_F32) { float v = (float)tt_uniform(-50, 300); memcpy(&bits, &v, 4); }
    if (t == TL_I64) bits >>= 2;   /* 2x does not overflow */
    if (form == 1 && k == 1 && (int32_t)bits == 0) bits = 7;
    memcpy(p + (size_t)i * tile_dtype_size(t), &bits, tile_dtype_size(t));
}
static void run_multi(int form) {
    enum { NM = 1000 };
    unsigned char *h[2], *ho[2];
    void *d[2], *dout[2];
    for (int k = 0; k < 2; k++) {
        size_t bi = NM * tile_dtype_size(multi[form].in[k]), bo = NM * tile_dtype_size(multi[form].out[k]);
        h[k] = (unsigned char *)malloc(bi), ho[k] = (unsigned char *)malloc(bo);
        for (int i = 0; i < NM; i++) put_rand(multi[form].in[k], h[k], i, form, k);
        d[k] = tile_malloc(bi), dout[k] = tile_malloc(bo);
        tile_memcpy_htod(d[k], h[k], bi);
        tile_memset(dout[k], 0xA5, bo);   /* poisoned */
    }
    tile_status st = asm_multi(TILE_OPTS(.grid = {(NM + BLOCK - 1) / BLOCK}, .meta = {{"FORM", form}, {"BLOCK", BLOCK}}), TILE_PTR(d[0], multi[form].in[0]),
                               TILE_PTR(d[1], multi[form].in[1]), TILE_PTR(dout[0], multi[form].out[0]), TILE_PTR(dout[1], multi[form].out[1]), NM);
    TT_CHECK(st == TILE_OK, "multi-result form %d: %s", form, tile_last_error());
    for (int k = 0; k < 2; k++) tile_memcpy_dtoh(ho[k], dout[k], NM * tile_dtype_size(multi[form].out[k]));
    int bad = 0;
    for (int i = 0; i < NM && st == TILE_OK; i++) {
        uint64_t x = get_bits(multi[form].in[0], h[0], i), y = get_bits(multi[form].in[1], h[1], i);
        uint64_t g0 = get_bits(multi[form].out[0], ho[0], i), g1 = get_bits(multi[form].out[1], ho[1], i), w0 = 0, w1 = 0;
        switch (form) {
        case 0: {
            float m = fmaxf((float)x, (float)get_num(TL_F32, h[1], i));
            w0 = x, memcpy(&w1, &m, 4);
            break;
        }
        case 1: w0 = (uint32_t)((int32_t)x / (int32_t)y), w1 = (uint32_t)((int32_t)x % (int32_t)y); break;
        case 2: {
            tile_f16 v = tile_f16_from(2 * get_num(TL_F16, h[0], i));
            memcpy(&w0, &v, 2);
            w1 = x >> 8 & 0xFF;
            break;
        }
        default: w0 = x + 1, w1 = x << 1; break;
        }
        if ((g0 != w0 || g1 != w1) && bad++ < 3)
            TT_CHECK(0, "multi-result form %d: element %d of 0x%llx, 0x%llx: 0x%llx, 0x%llx, want 0x%llx, 0x%llx", form, i, (unsigned long long)x,
                     (unsigned long long)y, (unsigned long long)g0, (unsigned long long)g1, (unsigned long long)w0, (unsigned long long)w1);
    }
    TT_CHECK(!bad, "multi-result form %d: %d of %d elements wrong", form, bad, NM);
    for (int k = 0; k < 2; k++) tile_free(d[k]), tile_free(dout[k]), free(h[k]), free(ho[k]);
}
/* the multi-result forms' PTX for both targets, each result's first instruction in it */
static void check_multi_ptx(int form) {
    static char dummy[8];
    tile_arg args[5];
    args[0].p = args[1].p = args[2].p = args[3].p = dummy;
    args[0].elem = multi[form].in[0], args[1].elem = multi[form].in[1], args[2].elem = multi[form].out[0], args[3].elem = multi[form].out[1];
    args[4].i = 1000, args[4].elem = TL_VOID;
    char what[32];
    snprintf(what, sizeof what, "multi-result form %d", form);
    ptx_has_asm(TILE_KERNEL_OF(asm_multi), TILE_OPTS(.grid = {1}, .meta = {{"FORM", form}, {"BLOCK", BLOCK}}), args, multi[form].asm_text, what);
}

/* misuse: each an error with its id at its line */
static int g_line;   /* the line of the call that fails, where the kernel makes it */
static const tl_dtype dts_if[2] = {TL_I32, TL_F32}, dts_i1[2] = {TL_I32, TL_I1}, dts_d4[4] = {TL_F64, TL_F64, TL_F64, TL_F64};
enum { L_CONS = __LINE__ + 5, L_PACK3 = __LINE__ + 6, L_PACKW = __LINE__ + 7, L_I1 = __LINE__ + 8, L_SHAPE = __LINE__ + 9, L_PTR = __LINE__ + 10 };
TILE_KERNEL(asm_bad, (tl_ptr_i32, x))
{
    tl_t a = tl_load(tl_add(x, tl_arange(0, 16))), r = a, rs[9];
    switch (TL_META(CASE)) {
    case 0: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,f", (a), TL_I32, 1, 1); break;
    case 1: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", (a), TL_I32, 1, 3); break;
    case 2: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", (a), TL_I32, 1, 4); break;
    case 3: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", (tl_lt(a, 0)), TL_I32, 1, 1); break;
    case 4: r = tl_inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", (a, tl_arange(0, 32)), TL_I32, 1, 1); break;
    case 5: r = tl_inline_asm_elementwise("mov.b64 $0, $1;", "=l,l", (tl_add(x, tl_arange(0, 16))), TL_I64, 1, 1); break;
    case 6: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $1;", "=r,r", (a), 2, dts_if, 1, 1, rs), r = rs[0]; break;
    case 7: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $2;", "=r,=r,r", (a), 2, dts_if, 1, 1, rs), r = rs[0]; break;
    case 8: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $1;", "=r,r", (a), 0, dts_if, 1, 1, rs); break;
    case 9: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $1;", "=r,r", (a), 9, dts_if, 1, 1, rs); break;
    case 10: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $1;", "=r,=r,r", (a), 2, NULL, 1, 1, rs); break;
    case 11: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $2;", "=r,=r,r", (a), 2, dts_i1, 1, 1, rs), r = rs[0]; break;
    case 12: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $2;", "=r,=r,r", (a), 2, dts_if, 1, 32, rs), r = rs[0]; break;
    case 13: g_line = __LINE__, tl_inline_asm_elementwise_n("", "=d", (tl_cast(a, TL_F64)), 4, dts_d4, 1, 16, rs), r = rs[0]; break;
    case 14: g_line = __LINE__, tl_inline_asm_elementwise_n("mov.b32 $0, $2;", "=r,=f,r", (a), 2, dts_if, 1, 1, NULL); break;
    }
    tl_store(tl_add(x, tl_arange(0, 16)), r);
}
/* in the interpreter: a kernel with inline PTX does not run */
enum { L_RUN = __LINE__ + 4, L_RUN_N = __LINE__ + 5 };
TILE_KERNEL(asm_interp, (tl_ptr_i32, x))
{
    tl_t offs = tl_arange(0, 16), r[2];
    if (!TL_META(MULTI)) tl_store(tl_add(x, offs), tl_inline_asm_elementwise("add.s32 $0, $1, 1;", "=r,r", (tl_load(tl_add(x, offs))), TL_I32, 1, 1));
    else tl_inline_asm_elementwise_n("add.s32 $0, $2, 1;\n\tadd.f32 $1, 0f00000000, 0f3F800000;", "=r,=f,r", (tl_load(tl_add(x, offs))), 2, dts_if, 1, 1, r);
    if (TL_META(MULTI)) tl_store(tl_add(x, offs), tl_add(r[0], tl_cast(r[1], TL_I32)));
}

int main(void) {
    tt_seed();
    int gpu = strcmp(tile_backend_name(), "interp") != 0;
    int32_t *x = (int32_t *)tile_malloc(64 * sizeof(int32_t));
    TT_CHECK(x != NULL, "tile_malloc");
    for (int form = 0; form < ASM_FORMS; form++) {
        check_ptx(form);
        if (gpu) run_form(form);
    }
    for (int form = 0; form < MULTI_FORMS; form++) {
        check_multi_ptx(form);
        if (gpu) run_multi(form);
    }
    if (!gpu) printf("the kernels' runs: skipped (the interpreter cannot run inline PTX; their PTX was checked)\n");
    static const struct { int line; tile_status st; const char *text; } bad[] = {
        {L_CONS, TILE_ERR_VALUE, "take \"=r,r\""}, {L_PACK3, TILE_ERR_VALUE, "pack 3"},
        {L_PACKW, TILE_ERR_VALUE, "the dtypes packed take \"=r,=r,=r,=r,r,r,r,r\""},   /* pack 4 of i32: 4 registers each, as Triton's */
        {L_I1, TILE_ERR_DTYPE, "operand 1 is i1"},  {L_SHAPE, TILE_ERR_SHAPE, "does not broadcast"}, {L_PTR, TILE_ERR_DTYPE, "operand 1"},
        /* several results (line 0: the call's, which the kernel records in g_line) */
        {0, TILE_ERR_VALUE, "constraints \"=r,r\": the dtypes take \"=r,=f,r\""},
        {0, TILE_ERR_VALUE, "constraints \"=r,=r,r\": the dtypes take \"=r,=f,r\""},
        {0, TILE_ERR_ARITY, "0 results (1 to 8)"}, {0, TILE_ERR_ARITY, "9 results (1 to 8)"},
        {0, TILE_ERR_VALUE, "the results' dtypes are NULL"}, {0, TILE_ERR_DTYPE, "result 1's dtype i1 is not"},
        {0, TILE_ERR_VALUE, "pack 32 (a power of two up to 16)"}, {0, TILE_ERR_VALUE, "pack 16 takes 80 registers"},
        {0, TILE_ERR_VALUE, "the results' array is NULL"},
    };
    for (int c = 0; c < (int)(sizeof bad / sizeof bad[0]) && x; c++) {
        tile_status st = asm_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", c}}), x);
        char what[64];
        snprintf(what, sizeof what, "inline asm misuse %d", c);
        tt_check_user_error(what, st, bad[c].st, "test_ops_asm.c", bad[c].line ? bad[c].line : g_line, bad[c].text);
    }
    if (!gpu && x) {
        tile_status st = asm_interp(TILE_OPTS(.grid = {1}, .meta = {{"MULTI", 0}}), x);
        tt_check_user_error("inline PTX in the interpreter", st, TILE_ERR_NODEVICE, "test_ops_asm.c", L_RUN, "runs on a GPU only");
        st = asm_interp(TILE_OPTS(.grid = {1}, .meta = {{"MULTI", 1}}), x);
        tt_check_user_error("inline PTX of two results in the interpreter", st, TILE_ERR_NODEVICE, "test_ops_asm.c", L_RUN_N, "runs on a GPU only");
    }
    tile_free(x);
    tile_kernel_release(TILE_KERNEL_OF(asm_kernel));
    tile_kernel_release(TILE_KERNEL_OF(asm_multi));
    return tt_finish("test_ops_asm");
}
