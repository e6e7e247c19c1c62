/* tests/test_ops_asm.c — tl_inline_asm_elementwise, Triton's
   inline_asm_elementwise: inline PTX once per element, or once per 2 or 4
   packed elements, for every register class (h: 16-bit, r: 32-bit and
   8-bit, l: 64-bit, f: f32, d: f64), operands broadcast, pure and not.

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

/* the PTX for both targets has the user's instructions */
static void check_ptx(int form) {
    tl_dtype t = form_dt[form];
    static char dummy[8];
    tile_arg args[5];
    for (int k = 0; k < 4; k++) args[k].p = dummy, args[k].elem = t;
    args[4].i = N, args[4].elem = TL_VOID;
    const tile_launch *o = TILE_OPTS(.grid = {1}, .meta = {{"FORM", form}, {"BLOCK", BLOCK}});
    /* TILE_ARCH's last: TILE_DUMP=ptx (tests/ptx_check.sh) keeps a kernel's last PTX */
    const char *env = getenv("TILE_ARCH");
    int last80 = env && strcmp(env, "sm_80") == 0;
    const char *archs[2] = {last80 ? "sm_90a" : "sm_80", last80 ? "sm_80" : "sm_90a"};
    char first[32];
    size_t m = strcspn(forms[form].asm_text, " ");
    snprintf(first, sizeof first, "%.*s ", (int)m, forms[form].asm_text);   /* the opcode and its first operand's space */
    for (int a = 0; a < 2; a++) {
        char *ptx = NULL;
        tile_status st = tile_kernel_ptx_for(TILE_KERNEL_OF(asm_kernel), o, args, archs[a], &ptx);
        TT_CHECK(st == TILE_OK && ptx && strstr(ptx, first), "form %d for %s: %s (looked for \"%s\")", form, archs[a],
                 st == TILE_OK ? "the instruction is not in the PTX" : tile_last_error(), first);
        tile_free_text(ptx);
    }
}

/* misuse: each an error with its id at its line */
enum { L_CONS = __LINE__ + 5, L_PACK3 = __LINE__ + 6, L_PACKW = __LINE__ + 7, L_I1 = __LINE__ + 8, L_SHAPE = __LINE__ + 9, L_PTR = __LINE__ + 10 };
TILE_KERNEL(asm_bad, (tl_ptr_i32, x))
{
    tl_t a = tl_load(tl_add(x, tl_arange(0, 16))), r = a;
    switch (TL_META(CASE)) {
    case 0: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,f", (a), TL_I32, 1, 1); break;
    case 1: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", (a), TL_I32, 1, 3); break;
    case 2: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", (a), TL_I32, 1, 4); break;
    case 3: r = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", (tl_lt(a, 0)), TL_I32, 1, 1); break;
    case 4: r = tl_inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", (a, tl_arange(0, 32)), TL_I32, 1, 1); break;
    case 5: r = tl_inline_asm_elementwise("mov.b64 $0, $1;", "=l,l", (tl_add(x, tl_arange(0, 16))), TL_I64, 1, 1); break;
    }
    tl_store(tl_add(x, tl_arange(0, 16)), r);
}
/* in the interpreter: a kernel with inline PTX does not run */
enum { L_RUN = __LINE__ + 4 };
TILE_KERNEL(asm_interp, (tl_ptr_i32, x))
{
    tl_t offs = tl_arange(0, 16);
    tl_store(tl_add(x, offs), tl_inline_asm_elementwise("add.s32 $0, $1, 1;", "=r,r", (tl_load(tl_add(x, offs))), TL_I32, 1, 1));
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
    if (!gpu) printf("the kernels' runs: skipped (the interpreter cannot run inline PTX; their PTX was checked)\n");
    static const struct { int line; tile_status st; const char *text; } bad[] = {
        {L_CONS, TILE_ERR_VALUE, "take \"=r,r\""}, {L_PACK3, TILE_ERR_VALUE, "pack 3"}, {L_PACKW, TILE_ERR_VALUE, "i32 is 32 bits"},
        {L_I1, TILE_ERR_DTYPE, "operand 1 is i1"},  {L_SHAPE, TILE_ERR_SHAPE, "does not broadcast"}, {L_PTR, TILE_ERR_DTYPE, "operand 1"},
    };
    for (int c = 0; c < 6 && x; c++) {
        tile_status st = asm_bad(TILE_OPTS(.grid = {1}, .meta = {{"CASE", c}}), x);
        char what[64];
        snprintf(what, sizeof what, "inline asm misuse %d", c);
        tt_check_user_error(what, st, bad[c].st, "test_ops_asm.c", bad[c].line, bad[c].text);
    }
    if (!gpu && x) {
        tile_status st = asm_interp(TILE_OPTS(.grid = {1}), x);
        tt_check_user_error("inline PTX in the interpreter", st, TILE_ERR_NODEVICE, "test_ops_asm.c", L_RUN, "runs on a GPU only");
    }
    tile_free(x);
    tile_kernel_release(TILE_KERNEL_OF(asm_kernel));
    return tt_finish("test_ops_asm");
}
