/* tests/fuzz/fuzz_kernel.c — random kernels decoded from bytes, built and run
   in the interpreter; with TILE_FUZZ_PTX=1 also compiled to PTX and assembled.

   Two builds of this one file:
     libFuzzer   clang -fsanitize=fuzzer,address,undefined -DTILE_FUZZ_LIBFUZZER
                 (CMake: -DTILE_FUZZ=ON, target fuzz_kernel_libfuzzer)
     plain       any C11 compiler; main() runs every file named on the command
                 line (a directory: each file in it, by name), then, with
                 -runs=N, N mutations of them (-seed=S, -max_total_time=T).
                 CTest replays tests/fuzz/corpus and tests/fuzz/regress with
                 it, in the interpreter and in the PTX mode (fuzz_*).

   Why it is shaped this way: a TILE_KERNEL body is plain C run while the
   kernel is built, so one kernel, fz_kernel, reads its "program" from the
   input and calls the tl_* functions it names. Its parameters are a pointer
   to every dtype (each a tile_malloc buffer of FZ_BUFN elements) and one
   scalar of each parameter type. Values live on a stack (the pool) that
   starts with the scalar parameters (pointers come by FZ_PARAM and FZ_PTR);
   each instruction takes operands from it by a byte counted from the top
   and pushes its results. Operands are picked to
   fit where a byte asks for it (same shape, a pointer, an integer scalar),
   so that most programs build and the rest fail in interesting places.
   TL_FOR / TL_IF / TL_ELSE / TL_WHILE are opened and closed by instructions
   (their begin/end functions, as the macros call them); carried variables
   are pool slots, so an instruction that stores into a slot inside a body
   is `acc = ...`. The harness keeps every run finite and small: a loop runs
   at most a literal number of trips (FZ_TRIPS along any nesting),
   TL_WHILE carries a hidden counter, tiles are at most FZ_SMALL elements
   unless an input asks for the odd huge or bad shape (a big tile made in a
   loop counts once per trip, a composite op once per op), tl_dot runs on
   at most 64x64x64 (2-D, and batched 3-D through FZ_DOT3).

   Any status is fine for a kernel; what is checked for every input:
     - no crash, sanitizer report, leak, abort or hang (libFuzzer's job);
     - a non-OK status has a tile_last_error() with its TILE_ERR_ id, and
       exactly one message was logged for it (none for an OK launch);
       TILE_ERR_INTERNAL is always a bug;
     - a second launch of the same input (header flag) gives the same status;
     - after a failed launch a known-good kernel still runs correctly;
     - TILE_FUZZ_PTX=1: every kernel that builds compiles to PTX for sm_80
       and sm_90a through the back end TILE_BACKEND names (llvm or nvrtc),
       and ptxas (PTXAS, else /usr/local/cuda/bin/ptxas) accepts it. A
       compile that fails with a clear error is counted and its first
       messages printed; TILE_FUZZ_STRICT=1 makes it a bug too. A kernel
       whose code would hold more than 4096 tile elements per thread (the
       odd huge shape) is TILE_ERR_BLOCK there, counted apart
       (TILE_MAX_UNROLL, set for this mode: such code takes the compilers
       seconds to minutes). The plain driver names an input that took
       more than 20 s. A kernel with inline PTX (FZ_ASM) is
       TILE_ERR_NODEVICE in the interpreter, a status like any other; its
       PTX is compiled and assembled here all the same.
   A failed check prints what failed and aborts (libFuzzer keeps the input).

   Knobs: TILE_FUZZ_PTX=1 and TILE_FUZZ_STRICT=1 (above); TILE_FUZZ_VERBOSE=1
   keeps stdout (tl_print) and prints each input's status; TILE_FUZZ_TRACE=1
   prints each instruction and the pool after it (how to read an input);
   TILE_FUZZ_SKIP=TRANS,INTERLEAVE,CARRY never runs those ops, or changes
   a carried value's type (to fuzz past a known bug); TILE_FUZZ_STATS=1
   prints the statuses at exit (libFuzzer).

   The input: FZ_HDR header bytes, then instructions. A missing byte reads as
   0, so any input decodes. Header:
     h0  bit 0: launch twice; h0 >> 4 == 15: trouble 10 + (h0 >> 1 & 7) % 6
         (10 bad pointer argument, 11 NULL pointer, 12 pointer inside a
         buffer, 13 bad meta-parameters, 14 frames left open at the end,
         15 odd scalar arguments)
     h1  BLOCK = 1 << (h1 & 7); bit 3: K = 1 + (h1 >> 4) also given
     h2  num_warps (low nibble; 15: a bad one), num_stages (high nibble % 9;
         15: a bad one), see fz_read_header
     h3  grid: 1 + (h3 & 3) x 1 + ((h3 >> 2) & 1); 0xfe and 0xff: too large
     h4  n, the i32 argument (masks and loop bounds use it)
     h5  the pattern the buffers are filled with; the float arguments
   Instructions: one byte picks the op (byte % FZ_NOPS, the enum below),
   then the op reads its operand bytes, listed beside it. "pick" is one
   byte choosing a number (not a pointer) in the pool, 0 = the top; "like"
   one of the same shape as a given value, or a scalar; a pick byte >= 0xf0
   takes any value; "shape" is fz_shape's encoding, "dtype" fz_dtype's. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    FZ_HDR = 6,            /* header bytes                                    */
    FZ_POOL = 64,          /* live values                                     */
    FZ_DEPTH = 12,         /* open TL_FOR/TL_IF/TL_WHILE (FZ_DEEP goes deeper) */
    FZ_MAX_INSTR = 512,    /* instructions per kernel                         */
    FZ_TRIPS = 64,         /* loop trips multiplied along a nesting           */
    FZ_SMALL = 256,        /* elements of an ordinary tile                    */
    FZ_BIG = 4096,         /* a tile above this counts against FZ_ELEMS       */
    FZ_ELEMS = 1 << 23,    /* elements of big tiles per kernel                */
    FZ_BUFN = 1024,        /* elements of each pointer argument's buffer      */
    FZ_NPTR = 18,          /* pointer parameters: one per value dtype         */
    FZ_NPARAMS = FZ_NPTR + 6,
    FZ_MAXC = 8            /* carried values (plus the 33 of the error path)  */
};

/* The ops: X(NAME, operand bytes after the op byte). */
#define FZ_OPS(X)                                                                             \
    X(PARAM,     "p: push parameter p % FZ_NPARAMS")                                          \
    X(LIT_INT,   "v: a weak integer literal")                                                 \
    X(LIT_FLT,   "v: a weak float literal")                                                   \
    X(LIT_TYPED, "v dtype: a typed scalar constant (tl_full of rank 0)")                      \
    X(PROGRAM_ID, "a: tl_program_id or (a & 16) tl_num_programs")                             \
    X(ARANGE,    "start len")                                                                 \
    X(FULL,      "dtype mode v shape: tl_full")                                               \
    X(LIKE,      "which pick v: tl_zeros_like / tl_full_like")                                \
    X(UNARY,     "op pick")                                                                   \
    X(BINARY,    "op pick like: op % 23, (op / 23) & 1: through the stack")                   \
    X(TERNARY,   "which pick like like: where, fma, clamp")                                   \
    X(CAST,      "pick mode [dtype|pick]")                                                    \
    X(BITCAST,   "pick d")                                                                    \
    X(SOFTMAX,   "pick axis")                                                                 \
    X(BCAST_TO,  "pick mode ...")                                                             \
    X(BCAST2,    "pick pick form: tl_broadcast, pushes both")                                 \
    X(EXPAND,    "pick axis")                                                                 \
    X(RESHAPE,   "pick mode ...: tl_reshape (tl_view is the same call)")                      \
    X(RAVEL,     "pick")                                                                      \
    X(PERMUTE,   "pick mode ...")                                                             \
    X(TRANS,     "pick")                                                                      \
    X(COMBINE,   "which pick like: cat, join, interleave (which & 4: stack)")                 \
    X(SPLIT,     "pick: pushes both halves")                                                  \
    X(REDUCE,    "kind pick axis flags [dtype]")                                              \
    X(SCAN,      "kind pick axis flags [dtype]")                                              \
    X(DOT,       "mode ...")                                                                  \
    X(PTR,       "param mode ...: a pointer tile into a buffer")                              \
    X(LOAD,      "ptr mask other opts")                                                       \
    X(STORE,     "ptr like mask opts")                                                        \
    X(ATOMIC,    "kind ptr like mask opts")                                                   \
    X(CAS,       "ptr like like opts")                                                        \
    X(PRINT,     "n picks")                                                                   \
    X(ASSERT,    "mode ... msg")                                                              \
    X(BARRIER,   "(none)")                                                                    \
    X(META,      "kind: TL_META / TL_META_OR as a literal (and an arange)")                   \
    X(QUERY,     "pick what: tl_rank / tl_dim / tl_dtype_of as a literal")                    \
    X(FOR,       "mode lo span step [bounds] [dtype] ncarry slots...")                                         \
    X(IF,        "mode ... ncarry slots...")                                                  \
    X(WHILE,     "limit extra ncarry slots...")                                               \
    X(END,       "flags: close the innermost (bit 0: TL_ELSE follows a TL_IF)")               \
    X(ELSE,      "b: a TL_ELSE right after a TL_IF closed; b < 16: anywhere (an error)")      \
    X(SET,       "slot: pool[slot] = top (a carried update inside a body)")                   \
    X(POP,       "k: drop 1 + k % 3 values")                                                  \
    X(DEEP,      "depth kind [more]: 32 * (1 + depth) nested TL_IF or TL_FOR (or more)")      \
    X(DEEP_EXPR, "depth pick: tl_add(x, tl_add(x, ...)) through the operand stack")         \
    X(HINT,      "kind pick n: tl_multiple_of / tl_max_contiguous / tl_max_constancy")        \
    X(SWIZZLE,   "pick: tl_swizzle2d(x, x + 1, 8, 4, 3), pushes both")                       \
    X(RAND,      "kind rounds: tl_randint ... tl_randn4x (seed, offset: the two top values)") \
    X(GATHER,    "axis pick: tl_gather(x, index made in range from an arange, axis); axis >= 128: from any pick") \
    X(HISTOGRAM, "bins pick [mask]: tl_histogram(x, 1 << bins % 10 (or 12), .mask)")       \
    X(LIBDEVICE, "k picks: tl_libdevice(the k-th math row's name, x[, y]); k >= 250: a bad name or count")     \
    X(ASM,       "k flags picks: tl_inline_asm_elementwise(_n)(the k-th PTX form, operands cast); k >= 250: a bad one") \
    X(MAP,       "k flags [ptr] picks: tl_map_elementwise(_n) of the k-th function on 1 to 3 operands, pack 1 << (flags & 3); k >= 250: a misuse") \
    X(ROUNDED,   "k flags [lit] picks: tl_libdevice(a rounding-mode function in a mode, operands cast); k >= 240: jn, yn") \
    X(NAN_MINMAX, "which pick [like | axis flags]: tl_maximum / tl_minimum, tl_max / tl_min with .propagate_nan") \
    X(LIBDEVICE_MORE, "k flags [lit] picks: tl_libdevice(a function of other dtypes, a norm, normcdf, pow of an i32 n ...); k >= 250: a wrong count") \
    X(DOT3,      "mode dims acc [opnds]: a batched tl_dot [B, M, K] x [B, K, N], B 1 to 4 (or 3-D pool picks), an accumulator or out_dtype")
enum {
#define FZ_ENUM(name, bytes) FZ_##name,
    FZ_OPS(FZ_ENUM)
#undef FZ_ENUM
    FZ_NOPS
};

/* ---- the input ------------------------------------------------------------------ */
static const uint8_t *fz_data;
static size_t fz_size, fz_pos;
static unsigned fz_u8(void) { return fz_pos < fz_size ? fz_data[fz_pos++] : 0u; }

typedef struct fz_header {
    int twice, trouble;
    int block, k;          /* k: 0 when not given */
    int num_warps, num_stages;
    unsigned grid[3];
    int n, pattern;
} fz_header;
static fz_header fz_hdr;

static void fz_read_header(const uint8_t *d, size_t n) {
    uint8_t h[FZ_HDR] = {0};
    memcpy(h, d, n < FZ_HDR ? n : FZ_HDR);
    static const int warps[16] = {0, 1, 2, 4, 8, 16, 32, 4, 2, 1, 0, 4, 8, 2, 1, 0};
    static const int bad_warps[4] = {3, 64, -4, 33};
    memset(&fz_hdr, 0, sizeof fz_hdr);
    fz_hdr.twice = h[0] & 1;
    fz_hdr.trouble = h[0] >> 4 == 15 ? 10 + (h[0] >> 1 & 7) % 6 : 0;
    fz_hdr.block = 1 << (h[1] & 7);
    fz_hdr.k = h[1] & 8 ? 1 + (h[1] >> 4) : 0;
    int s = h[2] >> 4;
    fz_hdr.num_warps = (h[2] & 15) == 15 ? bad_warps[s % 4] : warps[h[2] & 15];
    fz_hdr.num_stages = s < 15 ? s % 9 : h[2] & 1 ? 9 : -1;
    fz_hdr.grid[0] = 1 + (h[3] & 3u);
    fz_hdr.grid[1] = 1 + ((h[3] >> 2) & 1u);
    fz_hdr.grid[2] = 1;
    if (h[3] == 0xfe) fz_hdr.grid[1] = 70000;
    if (h[3] == 0xff) fz_hdr.grid[0] = 0x80000000u;
    fz_hdr.n = h[4];
    fz_hdr.pattern = h[5];
}

/* ---- the builder's state while the body runs --------------------------------------- */
#define FZ_FILE "fuzz"           /* errors read "fuzz:<offset of the instruction + 1>" */
static int fz_line;
#define FZ_AT FZ_FILE, fz_line

static tl_t fz_params[FZ_NPARAMS];
static tl_t fz_pool[FZ_POOL];
static int fz_n;
static long long fz_elems;       /* elements of big tiles made so far */
static int fz_trips;             /* product of the open loops' trips  */
static int fz_prints, fz_deeps;
static int fz_after_if;          /* the line of the instruction after a TL_IF closed */
_Static_assert(FZ_NOPS <= 64, "fz_skip_ops has a bit per op");
static uint64_t fz_skip_ops;     /* TILE_FUZZ_SKIP                    */
static int fz_skip_interleave, fz_skip_carry;

enum { FZ_K_FOR, FZ_K_IF, FZ_K_ELSE, FZ_K_WHILE };
typedef struct fz_frame {
    int kind;
    tl__frame *f;               /* NULL: the begin call failed; close nothing */
    int mark;                   /* pool size when it opened                 */
    int trips;                  /* its factor in fz_trips                   */
    int limit;                  /* TL_WHILE: iterations                     */
    int extra;                  /* TL_WHILE: a pool slot also gating it, or -1 */
    tl_t cnt;                   /* TL_WHILE: the hidden counter             */
    tl_t iv;                    /* TL_FOR: the induction variable           */
    int nslots, slots[FZ_MAXC]; /* carried pool slots                       */
} fz_frame;
static fz_frame fz_fr[FZ_DEPTH];
static int fz_depth;

static int fz_is_int(tl_dtype t) { return t >= TL_I1 && t <= TL_U64; }
/* elements, saturating at 2^31 (a shape the library wrongly accepted must not overflow here) */
static long long fz_numel(tl_t v) {
    long long n = 1;
    for (int d = 0; d < tl_rank(v) && d < TL_MAX_RANK; d++) {
        n *= tl_dim(v, d) > 0 ? tl_dim(v, d) : 1;
        if (n > 1LL << 31) n = 1LL << 31;
    }
    return n;
}
static int fz_same_shape(tl_t a, tl_t b) {
    if (tl_rank(a) != tl_rank(b)) return 0;
    for (int d = 0; d < tl_rank(a); d++)
        if (tl_dim(a, d) != tl_dim(b, d)) return 0;
    return 1;
}
static int fz_usable(tl_t v) { return fz_elems <= FZ_ELEMS || fz_numel(v) <= FZ_BIG; }
/* What n elements made here cost: a tile made inside loops is made once per
   trip (fz_trips, the trips multiplied along the nesting). A 2^20 arange and
   a load through it inside a TL_WHILE took libFuzzer's 30 s under the
   sanitizers when a tile counted once. */
static long long fz_cost(long long n) { return n * (long long)fz_trips; }

static void fz_push(tl_t v) {
    if (v.id <= 0 || fz_n >= FZ_POOL) return;   /* poison (after an error) or full */
    long long n = fz_numel(v);
    if (n > FZ_BIG) {
        if (fz_elems > FZ_ELEMS) return;
        fz_elems += fz_cost(n);
    }
    fz_pool[fz_n++] = v;
}
static tl_t fz_top(unsigned k) { return fz_pool[fz_n - 1 - (int)(k % (unsigned)fz_n)]; }
/* A number (not a pointer), counted from the top; a byte >= 0xf0: any value. */
static tl_t fz_pick(void) {
    unsigned b = fz_u8();
    if (b >= 0xf0) return fz_top(b);
    for (int t = 0; t < fz_n; t++) {
        tl_t v = fz_top(b + (unsigned)t);
        if (fz_usable(v) && tl_dtype_of(v) != TL_PTR) return v;
    }
    return fz_pool[0];
}

/* What a predicate pick looks for. */
enum { FZ_W_PTR, FZ_W_INT, FZ_W_INT_SCALAR, FZ_W_SCALAR, FZ_W_2D, FZ_W_BOOL, FZ_W_LAST2, FZ_W_TILE, FZ_W_FLOAT };
static int fz_wants(int what, tl_t v) {
    tl_dtype t = tl_dtype_of(v);
    switch (what) {
    case FZ_W_PTR: return t == TL_PTR;
    case FZ_W_INT: return fz_is_int(t) && t != TL_I1;
    case FZ_W_INT_SCALAR: return fz_is_int(t) && t != TL_I1 && tl_rank(v) == 0;
    case FZ_W_SCALAR: return tl_rank(v) == 0;
    case FZ_W_2D: return tl_rank(v) == 2;
    case FZ_W_BOOL: return t == TL_I1;
    case FZ_W_LAST2: return tl_rank(v) > 0 && tl_dim(v, -1) == 2;
    case FZ_W_TILE: return tl_rank(v) > 0 && t != TL_PTR;
    case FZ_W_FLOAT: return t >= TL_F16 && t <= TL_F8E5B16;
    default: return 0;
    }
}
/* The (b % matches)-th value from the top that `what` wants; byte >= 0xf0:
   any value. No match: `dflt`. */
static tl_t fz_pick_where(int what, tl_t dflt) {
    unsigned b = fz_u8();
    if (b >= 0xf0) return fz_top(b);
    int m = 0;
    for (int k = 0; k < fz_n; k++) m += fz_wants(what, fz_pool[k]) && fz_usable(fz_pool[k]);
    if (m == 0) return dflt;
    int want = (int)(b % (unsigned)m);
    for (int k = fz_n - 1; k >= 0; k--)
        if (fz_wants(what, fz_pool[k]) && fz_usable(fz_pool[k]) && want-- == 0) return fz_pool[k];
    return dflt;
}
/* A number of the same shape as `like` (or a scalar number, which
   broadcasts), else `like` itself; byte >= 0xf0: any value. */
static int fz_fits(tl_t v, tl_t like) { return tl_dtype_of(v) != TL_PTR && (tl_rank(v) == 0 || fz_same_shape(v, like)); }
static tl_t fz_pick_like(tl_t like) {
    unsigned b = fz_u8();
    if (b >= 0xf0) return fz_top(b);
    int m = 0;
    for (int k = 0; k < fz_n; k++) m += fz_fits(fz_pool[k], like);
    if (m == 0) return like;
    int want = (int)(b % (unsigned)m);
    for (int k = fz_n - 1; k >= 0; k--)
        if (fz_fits(fz_pool[k], like) && want-- == 0) return fz_pool[k];
    return like;
}

/* ---- literals, dtypes, shapes ----------------------------------------------------- */
static long long fz_int_value(unsigned b) {
    static const long long odd[] = {0, 1, -1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 1023, 1024,
                                    65535, 65536, INT32_MAX, INT32_MIN, (long long)UINT32_MAX, INT64_MAX, INT64_MIN,
                                    1LL << 32, -129, 46341, 1 << 20, -1024, 3};
    if (b < 192) return (long long)(b % 64) - 16;
    return odd[b % (sizeof odd / sizeof odd[0])];
}
static double fz_flt_value(unsigned b) {
    static const double odd[] = {0.0, -0.0, 0.5, 1.0, -1.0, 2.0, 3.14159, 1e-3, 1e-8, 65504.0, 65520.0, 1e30, -1e30,
                                 1e300, INFINITY, -INFINITY, NAN, 448.0, 57344.0, DBL_MIN, 5e-324, -2.5, 0.1, 1e-40};
    if (b < 160) return ((double)(b % 32) - 8.0) * 0.25;
    return odd[b % (sizeof odd / sizeof odd[0])];
}
static tl_t fz_lit(unsigned b) {
    if (b == 255) return tl__cuint(UINT64_MAX);
    return b & 1 ? tl__cflt(fz_flt_value(b >> 1)) : tl__cint(fz_int_value(b >> 1));
}
/* Every value dtype; now and then one that is not. */
static tl_dtype fz_dtype(void) {
    static const int bad[] = {TL_VOID, TL_PTR, TL_DTYPE_COUNT_, -1, 100};
    unsigned b = fz_u8();
    if (b < 240) return (tl_dtype)(TL_I1 + (int)(b % FZ_NPTR));
    return (tl_dtype)bad[b % 5];
}
static tl_dtype fz_int_dtype(unsigned b) {
    static const tl_dtype t[] = {TL_I32, TL_I64, TL_I8, TL_I16, TL_U8, TL_U16, TL_U32, TL_U64};
    return t[b % 8];
}
static long long fz_shape_numel(const tl_shape *s) {
    long long n = 1;
    for (int d = 0; d < s->rank && d < TL_MAX_RANK; d++) {
        n *= s->dim[d] > 0 ? s->dim[d] : 1;
        if (n > 1LL << 31) n = 1LL << 31;
    }
    return n;
}
/* halve the largest dim until the shape has at most `cap` elements */
static void fz_cap(tl_shape *s, long long cap) {
    while (fz_shape_numel(s) > cap) {
        int m = 0;
        for (int d = 1; d < s->rank && d < TL_MAX_RANK; d++)
            if (s->dim[d] > s->dim[m]) m = d;
        s->dim[m] /= 2;
    }
}
/* A shape: mostly rank 0-3 with power-of-two dims of 1-32 and at most
   FZ_SMALL elements; bytes >= 208 rank 4-5; >= 240 an odd one (dims of 0,
   -1, 3, huge, rank 6 or -1). A huge but valid one only within FZ_ELEMS. */
static tl_shape fz_shape(void) {
    static const int odd_dims[] = {0, -1, 3, 6, 1 << 20, 1 << 21, 1 << 30, INT_MAX, INT_MIN, 65536, 46341, 1024, 2048, 1 << 16, 2};
    static const int odd_ranks[] = {0, 1, 2, 3, 5, 6, -1, 2};
    tl_shape s;
    memset(&s, 0, sizeof s);
    unsigned b = fz_u8();
    if (b < 240) {
        s.rank = b < 208 ? (int)(b % 4) : 4 + (int)(b % 2);
        for (int d = 0; d < s.rank; d++) s.dim[d] = 1 << (fz_u8() % 6);
        fz_cap(&s, FZ_SMALL);
        return s;
    }
    s.rank = odd_ranks[b % 8];
    for (int d = 0; d < s.rank && d < TL_MAX_RANK; d++) s.dim[d] = odd_dims[fz_u8() % 15];
    int valid = s.rank >= 0 && s.rank <= TL_MAX_RANK;
    for (int d = 0; valid && d < s.rank; d++) valid = s.dim[d] > 0 && (s.dim[d] & (s.dim[d] - 1)) == 0;
    if (valid && fz_shape_numel(&s) <= (1 << 20) && fz_elems + fz_cost(fz_shape_numel(&s)) > FZ_ELEMS) fz_cap(&s, FZ_SMALL);
    return s;
}
static tl_shape fz_shape_of(tl_t v) {
    tl_shape s;
    memset(&s, 0, sizeof s);
    s.rank = tl_rank(v);
    for (int d = 0; d < s.rank; d++) s.dim[d] = tl_dim(v, d);
    return s;
}
/* an axis for a value of rank r: -1 .. r (r is out of range), now and then an odd one */
static int fz_axis(int r) {
    static const int odd[] = {-100, INT_MIN, TL_ALL + 1, 5, -6, TL_ALL};
    unsigned b = fz_u8();
    if (b >= 250) return odd[b % 6];
    return (int)(b % (unsigned)(r + 2)) - 1;
}
/* i32 offsets 0 .. numel-1 in the given shape (a scalar 0 for rank 0) */
static tl_t fz_iota(tl_shape s) {
    if (s.rank <= 0) return tl__cint(0);
    long long n = fz_shape_numel(&s);
    return tl_reshape_at(FZ_AT, tl_arange_at(FZ_AT, 0, (int)n), s);
}

/* ---- pointers and memory ops ------------------------------------------------------- */
/* param mode ...: a pointer tile into a parameter's buffer */
static tl_t fz_make_ptr(void) {
    tl_t base = fz_params[fz_u8() % FZ_NPTR];
    unsigned mode = fz_u8() % 6;
    switch (mode) {
    case 0: {                                      /* in bounds: base + iota */
        tl_shape s = fz_shape();
        if (fz_shape_numel(&s) > FZ_BUFN) fz_cap(&s, FZ_BUFN);
        return tl_add_at(FZ_AT, base, fz_iota(s));
    }
    case 1: return tl_add_at(FZ_AT, base, tl_and_at(FZ_AT, fz_pick_where(FZ_W_INT, tl__cint(0)), tl__cint(FZ_BUFN - 1)));
    case 2: return tl_add_at(FZ_AT, fz_pick_where(FZ_W_INT, tl__cint(1)), base);  /* may be out of bounds */
    case 3: {                                      /* an existing pointer moved a little */
        tl_t p = fz_pick_where(FZ_W_PTR, base);
        return tl_add_at(FZ_AT, p, tl_and_at(FZ_AT, fz_pick_like(p), tl__cint(15)));
    }
    case 4: return tl_sub_at(FZ_AT, fz_pick_where(FZ_W_PTR, base), tl__cint((long long)(fz_u8() % 4)));
    default: return tl_add_at(FZ_AT, base, tl__cint((long long)(fz_u8() % (FZ_BUFN + 8))));
    }
}
static tl_t fz_ptr_operand(void) {
    tl_t p = fz_pick_where(FZ_W_PTR, (tl_t){0, 0});
    return p.id ? p : fz_make_ptr();
}
/* mode: none, i1 of the pointers' shape from n, a comparison, a value as it
   is (maybe not i1) */
static tl_t fz_mask(tl_t ptr) {
    unsigned b = fz_u8() % 8;
    if (b < 3) return (tl_t){0, 0};
    if (b < 6) return tl_lt_at(FZ_AT, fz_iota(fz_shape_of(ptr)), fz_params[FZ_NPTR]);
    tl_t v = fz_pick_like(ptr);
    return b == 6 ? tl_gt_at(FZ_AT, v, fz_lit(fz_u8())) : v;
}
static tl_cache fz_cache(unsigned b) { return (tl_cache)(b & 7); }          /* 7 is no cache modifier */
static tl_evict fz_evict(unsigned b) { return (tl_evict)((b >> 3) & 3); }    /* 3 is no eviction policy */

static void fz_load(void) {
    tl_load_args o;
    memset(&o, 0, sizeof o);
    tl_t p = fz_ptr_operand();
    o.mask = fz_mask(p);
    unsigned om = fz_u8() % 4;
    if (o.mask.id && om == 1) o.other = fz_flt_value(fz_u8());
    if (o.mask.id && om == 2) o.other_v = fz_pick_like(p);
    if (o.mask.id && om == 3) o.other = -INFINITY;
    unsigned b = fz_u8();
    o.cache = fz_cache(b);
    o.eviction = fz_evict(b);
    o.is_volatile = (b >> 7) & 1;
    if (b & 0x20) fz_push((tl__push(p), tl__load_stk(FZ_AT, o)));
    else fz_push(tl_load_at(FZ_AT, p, o));
}
static void fz_store(void) {
    tl_store_args o;
    memset(&o, 0, sizeof o);
    tl_t p = fz_ptr_operand();
    tl_t v = fz_pick_like(p);
    o.mask = fz_mask(p);
    unsigned b = fz_u8();
    o.cache = fz_cache(b);
    o.eviction = fz_evict(b);
    if (b & 0x20) {
        tl__push(p);
        tl__push(v);
        tl__store_stk(FZ_AT, o);
    } else
        tl_store_at(FZ_AT, p, v, o);
}
static void fz_atomic(void) {
    tl_atomic_args o;
    memset(&o, 0, sizeof o);
    unsigned kind = fz_u8() % 8;                  /* 7 is no atomic op */
    tl_t p = fz_ptr_operand();
    tl_t v = fz_pick_like(p);
    o.mask = fz_mask(p);
    unsigned b = fz_u8();
    o.sem = (tl_sem)(b % 5);                      /* 4 is no semantics */
    o.scope = (tl_scope)((b >> 3) % 4);           /* 3 is no scope */
    if (b & 0x80) fz_push((tl__push(p), tl__push(v), tl__atomic_stk(FZ_AT, (tl_atomic_op)kind, o)));
    else fz_push(tl_atomic_at(FZ_AT, (tl_atomic_op)kind, p, v, o));
}
static void fz_cas(void) {
    tl_atomic_args o;
    memset(&o, 0, sizeof o);
    tl_t p = fz_ptr_operand();
    tl_t c = fz_pick_like(p), v = fz_pick_like(p);
    unsigned b = fz_u8();
    o.sem = (tl_sem)(b % 4);
    o.scope = (tl_scope)((b >> 2) % 3);
    if ((b & 0x70) == 0x70) o.mask = fz_mask(p);   /* tl_atomic_cas takes none: an error */
    if (b & 0x80) fz_push((tl__push(p), tl__push(c), tl__push(v), tl__cas_stk(FZ_AT, o)));
    else fz_push(tl_atomic_cas_at(FZ_AT, p, c, v, o));
}

/* ---- tl_dot -------------------------------------------------------------------------- */
/* a dot operand of dtype t and shape s ([r, c], or [b, r, c] for a batched dot): loaded
   from that dtype's buffer (an iota into it), or a constant */
static tl_t fz_dot_operand(tl_dtype t, tl_shape s) {
    unsigned b = fz_u8();
    if (b & 1) return tl_full_at(FZ_AT, t, fz_lit(b >> 1), s);
    tl_t p = tl_add_at(FZ_AT, fz_params[t - TL_I1], fz_iota(s));
    return tl_load_at(FZ_AT, p, (tl_load_args){0});
}
/* mode dims acc: batched (3-D) tl_dot. mode % 6 the dtype (the DOT's), mode & 0x40 two 3-D
   picks from the pool instead (mostly shape errors), mode & 0x80 through the operand stack;
   dims: B = 1 + dims % 4, M, N, K 16 or 32 by its bits 2, 3, 4 (both operands inside the
   buffers); acc % 4: none, f32 zeros [B, M, N], a pool pick, out_dtype f16 */
static void fz_dot3(void) {
    static const tl_dtype dts[] = {TL_F16, TL_BF16, TL_F32, TL_I8, TL_F8E4M3, TL_F8E5M2};
    unsigned mode = fz_u8(), d = fz_u8(), acc = fz_u8();
    tl_dot_args o;
    memset(&o, 0, sizeof o);
    tl_t a, b;
    int B = 1 + (int)(d % 4), M = 16 << ((d >> 2) & 1), N = 16 << ((d >> 3) & 1), K = 16 << ((d >> 4) & 1);
    if (mode & 0x40) {
        a = fz_pick();
        b = fz_pick();
        if (tl_rank(a) != 3 || tl_rank(b) != 3 || fz_numel(a) * tl_dim(b, 2) > 64 * 64 * 64) return;
        B = tl_dim(a, 0), M = tl_dim(a, 1), N = tl_dim(b, 2);
    } else {
        tl_dtype t = dts[mode % 6];
        while (B > 1 && (B * M * K > FZ_BUFN || B * K * N > FZ_BUFN)) B--;
        a = fz_dot_operand(t, tl__shape(3, B, M, K));
        b = fz_dot_operand(t, tl__shape(3, B, K, N));
    }
    tl_shape cs;
    memset(&cs, 0, sizeof cs);
    cs.rank = 3;
    cs.dim[0] = B > 0 ? B : 1;
    cs.dim[1] = M > 0 ? M : 1;
    cs.dim[2] = N > 0 ? N : 1;
    switch (acc % 4) {
    case 1: o.acc = tl_full_at(FZ_AT, TL_F32, tl__cint(0), cs); break;
    case 2: o.acc = fz_pick(); break;
    case 3: o.out_dtype = TL_F16; break;
    default: break;
    }
    if (mode & 0x80) fz_push((tl__push(a), tl__push(b), tl__dot_stk(FZ_AT, o)));
    else fz_push(tl_dot_at(FZ_AT, a, b, o));
}
static void fz_dot(void) {
    static const tl_dtype dts[] = {TL_F16, TL_BF16, TL_F32, TL_I8, TL_F8E4M3, TL_F8E5M2};
    unsigned mode = fz_u8();
    tl_dot_args o;
    memset(&o, 0, sizeof o);
    tl_t a, b;
    if (mode & 1) {                               /* two 2-D values from the pool */
        a = fz_pick_where(FZ_W_2D, (tl_t){0, 0});
        b = fz_pick_where(FZ_W_2D, (tl_t){0, 0});
        if (!a.id || !b.id || fz_numel(a) * tl_dim(b, 1) > 64 * 64 * 64) return;
    } else {
        tl_dtype ta = dts[(mode >> 1) % 6], tb = ta;
        if ((ta == TL_F8E4M3 || ta == TL_F8E5M2) && (mode & 0x80)) tb = ta == TL_F8E4M3 ? TL_F8E5M2 : TL_F8E4M3;
        unsigned d = fz_u8();
        int M = 16 << (d & 1), N = 16 << ((d >> 1) & 1), K = 16 << ((d >> 2) % 3);
        if (M * K > FZ_BUFN) K = FZ_BUFN / M;
        if (K * N > FZ_BUFN) N = FZ_BUFN / K;       /* both operands inside the buffers */
        a = fz_dot_operand(ta, tl__shape(2, M, K));
        b = fz_dot_operand(tb, tl__shape(2, K, N));
    }
    unsigned acc = fz_u8();
    int M = tl_dim(a, 0), N = tl_dim(b, 1);
    tl_shape cs;
    memset(&cs, 0, sizeof cs);
    cs.rank = 2;
    cs.dim[0] = M > 0 ? M : 1;
    cs.dim[1] = N > 0 ? N : 1;
    switch (acc % 6) {
    case 1: o.acc = tl_full_at(FZ_AT, TL_F32, tl__cint(0), cs); break;
    case 2: o.acc = tl_full_at(FZ_AT, TL_F16, tl__cflt(1.0), cs); break;
    case 3: o.acc = tl_full_at(FZ_AT, TL_I32, tl__cint(1), cs); break;
    case 4: o.acc = fz_pick_where(FZ_W_2D, (tl_t){0, 0}); break;
    case 5: o.out_dtype = acc & 0x40 ? fz_dtype() : acc & 0x20 ? TL_F16 : TL_F32; break;
    default: break;
    }
    o.input_precision = (tl_precision)((acc >> 3) % 5);   /* 4 is no precision */
    if (acc & 0x80) fz_push((tl__push(a), tl__push(b), tl__dot_stk(FZ_AT, o)));
    else fz_push(tl_dot_at(FZ_AT, a, b, o));
}

/* ---- shape ops ------------------------------------------------------------------------ */
static void fz_bcast_to(void) {
    tl_t x = fz_pick();
    tl_shape s;
    if ((fz_u8() & 3) == 3) s = fz_shape();
    else {                                        /* x's shape, its 1s stretched, dims put in front */
        tl_shape xs = fz_shape_of(x);
        int extra = (int)(fz_u8() % 3);
        if (xs.rank + extra > TL_MAX_RANK) extra = TL_MAX_RANK - xs.rank;
        memset(&s, 0, sizeof s);
        s.rank = xs.rank + extra;
        for (int d = 0; d < extra; d++) s.dim[d] = 1 << (fz_u8() % 3);
        for (int d = 0; d < xs.rank; d++) s.dim[extra + d] = xs.dim[d] == 1 ? 1 << (fz_u8() % 4) : xs.dim[d];
        if (fz_shape_numel(&s) > FZ_SMALL * 4) return;
    }
    fz_push(tl_broadcast_to_at(FZ_AT, x, s));
}
static void fz_reshape(void) {
    tl_t x = fz_pick();
    unsigned mode = fz_u8();
    tl_shape s;
    memset(&s, 0, sizeof s);
    long long n = fz_numel(x);
    if ((mode & 3) == 3 || n <= 0 || (n & (n - 1)) != 0) s = fz_shape();
    else {                                        /* the same elements in another power-of-two shape */
        int k = 0;
        while ((1LL << k) < n) k++;
        s.rank = (int)((mode >> 2) % 4);
        if (s.rank == 0 && k > 0) s.rank = 1;
        for (int d = 0; d < s.rank; d++) s.dim[d] = 1;
        for (int j = 0; j < k; j++) s.dim[fz_u8() % (unsigned)s.rank] *= 2;
    }
    fz_push(tl_reshape_at(FZ_AT, x, s));
}
static void fz_permute(void) {
    tl_t x = fz_pick();
    unsigned mode = fz_u8();
    tl_shape o;
    memset(&o, 0, sizeof o);
    int r = tl_rank(x);
    if ((mode & 7) == 7) {                        /* any order, often not a permutation */
        o.rank = r + (int)((mode >> 3) % 3) - 1;
        if (o.rank < 0) o.rank = 0;
        for (int d = 0; d < o.rank && d < TL_MAX_RANK; d++) o.dim[d] = (int)(fz_u8() % (unsigned)(r + 2)) - 1;
    } else {
        o.rank = r;
        for (int d = 0; d < r; d++) o.dim[d] = d;
        for (int d = r - 1; d > 0; d--) {
            int j = (int)(fz_u8() % (unsigned)(d + 1)), t = o.dim[d];
            o.dim[d] = o.dim[j];
            o.dim[j] = t;
        }
    }
    fz_push(tl_permute_at(FZ_AT, x, o));
}
static void fz_combine(void) {
    unsigned w = fz_u8();
    tl_t a = fz_pick(), b = fz_pick_like(a);
    tl__bin_fn fn = w % 3 == 0 ? tl_cat_at : w % 3 == 1 ? tl_join_at : tl_interleave_at;
    if (fn == tl_interleave_at && fz_skip_interleave) return;
    if (w & 4) fz_push((tl__push(a), tl__push(b), tl__bin_stk(FZ_AT, fn)));
    else fz_push(fn(FZ_AT, a, b));
}

/* ---- elementwise --------------------------------------------------------------------- */
typedef tl_t (*fz_un_fn)(const char *file, int line, tl_t x);
/* FZ_B_add, FZ_U_exp, ...: the index of each op in the tables below (the seeds use them) */
#define FZ_B_ENUM(op) FZ_B_##op,
#define FZ_U_ENUM(op, OP) FZ_U_##op,
enum { TILE__BINARY_OPS(FZ_B_ENUM) FZ_B_COUNT_ };
enum { TILE__UNARY_OPS(FZ_U_ENUM) FZ_U_COUNT_ };
#undef FZ_B_ENUM
#undef FZ_U_ENUM
#define FZ_FN_AT(op) tl_##op##_at,
#define FZ_UFN_AT(op, OP) tl_##op##_at,
static const tl__bin_fn fz_binary_fns[] = {TILE__BINARY_OPS(FZ_FN_AT)};
static const fz_un_fn fz_unary_fns[] = {TILE__UNARY_OPS(FZ_UFN_AT)};
#undef FZ_FN_AT
#undef FZ_UFN_AT
enum {
    FZ_NBINARY = (int)(sizeof fz_binary_fns / sizeof fz_binary_fns[0]),
    FZ_NUNARY = (int)(sizeof fz_unary_fns / sizeof fz_unary_fns[0])
};

#define FZ_NAME(op) #op,
#define FZ_UNAME(op, OP) #op,
static const char *const fz_binary_names[] = {TILE__BINARY_OPS(FZ_NAME)};
static const char *const fz_unary_names[] = {TILE__UNARY_OPS(FZ_UNAME)};
#undef FZ_NAME
#undef FZ_UNAME
/* ops that want integers (the others take any number; math functions floats) */
static int fz_int_op(const char *name) {
    static const char *const ints[] = {"floordiv", "cdiv", "and", "or", "xor", "shl", "shr", "umulhi", "not"};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(name, ints[i]) == 0) return 1;
    return 0;
}
static void fz_binary(void) {
    unsigned op = fz_u8();
    tl__bin_fn fn = fz_binary_fns[op % FZ_NBINARY];
    tl_t a = fz_int_op(fz_binary_names[op % FZ_NBINARY]) ? fz_pick_where(FZ_W_INT, tl__cint(3)) : fz_pick(), b = fz_pick_like(a);
    if ((op / FZ_NBINARY) & 1) fz_push((tl__push(a), tl__push(b), tl__bin_stk(FZ_AT, fn)));
    else fz_push(fn(FZ_AT, a, b));
}
static void fz_ternary(void) {
    unsigned w = fz_u8();
    tl_t a = w % 3 == 0 ? fz_pick_where(FZ_W_BOOL, fz_pool[fz_n - 1]) : w % 3 == 1 ? fz_pick_where(FZ_W_FLOAT, tl__cflt(0.5)) : fz_pick();
    tl_t b = fz_pick_like(a), c = fz_pick_like(a);
    tl__ter_fn fn = w % 3 == 0 ? tl_where_at : w % 3 == 1 ? tl_fma_at : tl_clamp_at;
    if (w & 4) fz_push((tl__push(a), tl__push(b), tl__push(c), tl__ter_stk(FZ_AT, fn)));
    else fz_push(fn(FZ_AT, a, b, c));
}
static void fz_bitcast(void) {
    static const tl_dtype same_width[4][4] = {{TL_I8, TL_U8, TL_F8E4M3, TL_F8E5M2}, {TL_I16, TL_U16, TL_F16, TL_BF16},
                                              {TL_I32, TL_U32, TL_F32, TL_I32}, {TL_I64, TL_U64, TL_F64, TL_I64}};
    tl_t x = fz_pick();
    unsigned b = fz_u8();
    tl_dtype t = tl_dtype_of(x), to;
    size_t w = tile_dtype_size(t);
    if ((b & 0xf0) == 0xf0 || t == TL_I1 || t == TL_PTR || t == TL_VOID) to = fz_dtype();
    else if (w == 1 && (b & 8)) to = (tl_dtype)(TL_F8E4B15 + (int)(b % 3));   /* the software fp8s */
    else to = same_width[w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3][b % 4];
    fz_push(tl_bitcast_at(FZ_AT, x, to));
}

/* The inline PTX forms of FZ_ASM: each valid for its dtypes (rt the
   result's, at every operand's, n operands, packed by pack; the last ones
   with nres 2 results, the second rt2, or registers of several elements),
   as tests/test_ops_asm.c runs them on a GPU. */
static const struct { const char *asm_text, *cons; tl_dtype rt, at; int n, pack, nres; tl_dtype rt2; } fz_asm_forms[] = {
    {"add.s32 $0, $1, $2;", "=r,r,r", TL_I32, TL_I32, 2, 1, 1, TL_VOID},
    {"neg.s32 $0, $1;", "=r,r", TL_I8, TL_I8, 1, 1, 1, TL_VOID},   /* 8-bit, widened */
    {"shl.b32 $0, $1, 3;\n\tand.b32 $0, $0, 0xF8F8F8F8;", "=r,r", TL_U8, TL_U8, 1, 4, 1, TL_VOID},
    {"xor.b32 $0, $1, $2;", "=r,r,r", TL_I8, TL_I8, 2, 4, 1, TL_VOID},
    {"neg.f16 $0, $1;", "=h,h", TL_F16, TL_F16, 1, 1, 1, TL_VOID},
    {"xor.b32 $0, $1, 0x80008000;", "=r,r", TL_BF16, TL_BF16, 1, 2, 1, TL_VOID},
    {"and.b32 $0, $1, $2;", "=r,r,r", TL_U16, TL_U16, 2, 2, 1, TL_VOID},
    {"min.u16 $0, $1, $2;", "=h,h,h", TL_U16, TL_U16, 2, 1, 1, TL_VOID},
    {"add.s64 $0, $1, $2;", "=l,l,l", TL_I64, TL_I64, 2, 1, 1, TL_VOID},
    {"mov.b64 $0, $1;", "=l,l", TL_U64, TL_U64, 1, 1, 1, TL_VOID},
    {"add.u32 $0, $1, $2;\n\tadd.u32 $0, $0, $3;", "=r,r,r,r", TL_U32, TL_U32, 3, 1, 1, TL_VOID},
    {"fma.rn.f32 $0, $1, $2, $3;", "=f,f,f,f", TL_F32, TL_F32, 3, 1, 1, TL_VOID},
    {"abs.f32 $0, $1;", "=f,f", TL_F32, TL_F32, 1, 1, 1, TL_VOID},
    {"mul.f64 $0, $1, $1;", "=d,d", TL_F64, TL_F64, 1, 1, 1, TL_VOID},
    {"cvt.rn.f32.s32 $0, $1;", "=f,r", TL_F32, TL_I32, 1, 1, 1, TL_VOID},
    {"cvt.f32.f16 $0, $1;", "=f,h", TL_F32, TL_F16, 1, 1, 1, TL_VOID},
    {"cvt.rzi.s64.f64 $0, $1;", "=l,d", TL_I64, TL_F64, 1, 1, 1, TL_VOID},
    {"div.s32 $0, $2, $3;\n\trem.s32 $1, $2, $3;", "=r,=r,r,r", TL_I32, TL_I32, 2, 1, 2, TL_I32},
    {"neg.s32 $0, $2;\n\tcvt.rn.f32.s32 $1, $2;", "=r,=f,r", TL_I32, TL_I32, 1, 1, 2, TL_F32},
    {"bfe.u32 $0, $4, 0, 8;\n\tbfe.u32 $1, $4, 8, 8;\n\tbfe.u32 $2, $4, 16, 8;\n\tbfe.u32 $3, $4, 24, 8;", "=r,=r,=r,=r,r", TL_I32, TL_U8, 1, 4, 1, TL_VOID},
    {"add.s64 $0, $4, 1;\n\tadd.s64 $1, $5, 1;\n\tshl.b64 $2, $4, 1;\n\tshl.b64 $3, $5, 1;", "=l,=l,=l,=l,l,l", TL_I64, TL_I64, 1, 2, 2, TL_I64},
    {"not.b16 $0, $1;", "=h,h", TL_U8, TL_U8, 1, 2, 1, TL_VOID},
};
enum { FZ_NASM = (int)(sizeof fz_asm_forms / sizeof fz_asm_forms[0]) };
/* k flags picks: form k % FZ_NASM, pure = flags & 1, through the stack
   (flags & 2), the operands (a value, then ones like it) cast to the form's
   dtype unless (flags >> 2) % 8 == 7. k >= 250 breaks form flags % FZ_NASM
   (flags & 32 picks the variant): 250 a NULL asm text or constraints, 251
   an empty one, 252 another form's constraints, 253 a bad pack, 254 too many
   operands, 255 a result dtype inline asm does not take (the first). Forms
   of two results go through the _n calls and push both. The interpreter
   refuses every kernel with one (TILE_ERR_NODEVICE); PTX mode compiles it. */
static void fz_inline_asm(void) {
    static const int bad_packs[6] = {3, 0, -1, 8, 2, 4};
    static const tl_dtype bad_dts[4] = {TL_I1, TL_F8E5M2, TL_PTR, TL_VOID};
    unsigned k = fz_u8(), f = fz_u8();
    int form = (int)(k < 250 ? k % FZ_NASM : f % FZ_NASM), bad = k < 250 ? -1 : (int)k - 250, alt = (f & 32) != 0;
    const char *asm_text = fz_asm_forms[form].asm_text, *cons = fz_asm_forms[form].cons;
    tl_dtype rt = fz_asm_forms[form].rt;
    int n = fz_asm_forms[form].n, pack = fz_asm_forms[form].pack;
    if (bad == 0) {
        if (alt) cons = NULL;
        else asm_text = NULL;
    }
    if (bad == 1) {
        if (alt) cons = "";
        else asm_text = "";   /* valid: the result is whatever the register held */
    }
    if (bad == 2) cons = fz_asm_forms[(form + 1 + (int)(f >> 6)) % FZ_NASM].cons;
    if (bad == 3) pack = bad_packs[(f >> 6) + 2 * alt];
    if (bad == 4) n = alt ? 9 : n + 1;
    if (bad == 5) rt = bad_dts[f >> 6];
    tl_t xs[9];
    for (int i = 0; i < n; i++) {
        xs[i] = i ? fz_pick_like(xs[0]) : fz_pick();
        if ((f >> 2) % 8 != 7) xs[i] = tl_cast_at(FZ_AT, xs[i], fz_asm_forms[form].at);
    }
    if (fz_asm_forms[form].nres == 2) {   /* several results: the _n calls, both pushed */
        tl_dtype rts[2] = {rt, fz_asm_forms[form].rt2};
        tl_t out[2] = {{0, 0}, {0, 0}};
        if (f & 2) {
            for (int i = 0; i < n; i++) tl__push(xs[i]);
            tl__inline_asm_n_stk(FZ_AT, asm_text, cons, n, 2, rts, (int)(f & 1), pack, out);
        } else {
            tl_inline_asm_elementwise_n_at(FZ_AT, asm_text, cons, n, xs, 2, rts, (int)(f & 1), pack, out);
        }
        fz_push(out[0]);
        fz_push(out[1]);
    } else if (f & 2) {
        for (int i = 0; i < n; i++) tl__push(xs[i]);
        fz_push(tl__inline_asm_stk(FZ_AT, asm_text, cons, n, rt, (int)(f & 1), pack));
    } else {
        fz_push(tl_inline_asm_elementwise_at(FZ_AT, asm_text, cons, n, xs, rt, (int)(f & 1), pack));
    }
}

/* ---- tl_map_elementwise ----------------------------------------------------------------
   The functions of FZ_MAP, each on the elements of its operands (operand
   k % n's j-th of each pack), built with the calls the macros make; what
   they do and how many results they give is the decoded instruction's
   (these statics), as a C function has no closure. */
static int fz_map_fn, fz_map_n, fz_map_p, fz_map_ptr;
enum { FZ_NMAP = 8 };
static tl_t fz_mx(const tl_t *x, int k, int j) { return x[(k % fz_map_n) * fz_map_p + j]; }
/* the results a function gives, a pack each */
static int fz_map_nres(int fn) { return fn == 3 ? 3 : fn == 7 ? 2 : 1; }
static tl_t fz_map_max(const tl_t *x) {   /* a branch: the larger (of one operand: itself) */
    tl_t a = x[0], b = x[fz_map_n > 1], r = a;
    tl__frame *f = tl__if_begin(FZ_AT, tl_lt_at(FZ_AT, a, b), "c, r", 1, &r);
    if (f) {
        r = b;
        tl__if_end(FZ_AT, f);
    }
    return r;
}
static void fz_map_body(const tl_t *x, tl_t *out) {
    int p = fz_map_p, nres = fz_map_fn >= 250 ? 1 : fz_map_nres(fz_map_fn);
    for (int j = 0; j < p; j++) {
        tl_t a = fz_mx(x, 0, j), b = fz_mx(x, 1, j), r = a, ab[2] = {a, b};
        tl__frame *f;
        switch (fz_map_fn) {
        case 0: r = fz_map_max(ab); break;
        case 1: {   /* a loop of 0 to 5 trips, the element's: b added that many times */
            tl_t iv, trips = tl_clamp_at(FZ_AT, tl_cast_at(FZ_AT, a, TL_I32), tl__cint(0), tl__cint(5));
            r = b;
            tl__push(tl__cint(0)), tl__push(trips), tl__push(tl__cint(1));
            if ((f = tl__for_begin(FZ_AT, &iv, "s, r", 1, &r))) {
                r = tl_add_at(FZ_AT, r, b);
                tl__for_end(FZ_AT, f);
            }
            break;
        }
        case 2: {   /* a while of 0 to 7 trips, the element's: b doubled */
            tl_t cnt = tl_and_at(FZ_AT, tl_cast_at(FZ_AT, a, TL_I32), tl__cint(7));
            r = b;
            f = tl__while_begin(FZ_AT, "c, cnt, r", 2, &cnt, &r);
            while (tl__while_cond(FZ_AT, f, tl_gt_at(FZ_AT, cnt, tl__cint(0)))) {
                r = tl_mul_at(FZ_AT, r, tl__cint(2));
                cnt = tl_sub_at(FZ_AT, cnt, tl__cint(1));
                f = tl__while_end(FZ_AT, f);
            }
            break;
        }
        case 3:   /* three results of three dtypes */
            out[j] = tl_minimum_at(FZ_AT, a, b);
            out[p + j] = tl_eq_at(FZ_AT, a, b);
            out[2 * p + j] = tl_cast_at(FZ_AT, a, TL_F32);
            continue;
        case 4: r = tl_add_at(FZ_AT, a, fz_mx(x, 0, (j + 1) % p)); break;   /* the pack's elements mixed */
        case 5: {   /* a load where the element is not 0, from a pointer parameter */
            tl_t ptr = fz_params[fz_map_ptr % FZ_NPTR];
            r = tl_full_at(FZ_AT, tl_element_ty(ptr), tl__cint(0), tl__shape(0));
            if ((f = tl__if_begin(FZ_AT, tl_ne_at(FZ_AT, a, tl__cint(0)), "c, r", 1, &r))) {
                r = tl_load_at(FZ_AT, tl_add_at(FZ_AT, ptr, tl_and_at(FZ_AT, tl_cast_at(FZ_AT, a, TL_I32), tl__cint(FZ_BUFN - 1))), (tl_load_args){0});
                tl__if_end(FZ_AT, f);
            }
            break;
        }
        case 6: r = tl_map_elementwise_at(FZ_AT, fz_map_max, 2, ab); break;   /* a map inside */
        case 7:   /* a fact and a select, two results */
            tl_assume_at(FZ_AT, tl_eq_at(FZ_AT, a, a), "a == a");
            out[j] = tl_where_at(FZ_AT, tl_gt_at(FZ_AT, a, b), a, b);
            out[p + j] = tl_maximum_at(FZ_AT, a, b);
            continue;
        case 250: tl_store_at(FZ_AT, fz_params[fz_map_ptr % FZ_NPTR], a, (tl_store_args){0}); break;
        case 251: r = tl_add_at(FZ_AT, a, tl_arange_at(FZ_AT, 0, 4)); break;
        case 252: if (j) continue; break;   /* out[1..] not given */
        case 254: tl_print_at(FZ_AT, 1, "m", a); break;
        case 255:   /* a TL_IF left open */
            if (tl__if_begin(FZ_AT, tl_ne_at(FZ_AT, a, tl__cint(0)), "c, r", 1, &r)) return;
            break;
        default: break;
        }
        for (int k = 0; k < nres; k++) out[k * p + j] = r;
    }
}
/* A composite op (one call, many IR ops) on a big tile: its elements times
   the ops it makes count against FZ_ELEMS; 0 (do not make it) when the
   budget is spent. A deep expression of 510 adds on a 2^20 tile inside a
   loop took libFuzzer's 30 s under the sanitizers. */
static int fz_spend(tl_t x, long long ops) {
    long long n = x.id > 0 ? fz_numel(x) : 0;
    if (n <= FZ_BIG) return 1;
    if (fz_elems + fz_cost(n * ops) > FZ_ELEMS) return 0;
    fz_elems += fz_cost(n * ops);
    return 1;
}
/* k flags [ptr] picks: function k % FZ_NMAP (the loops only on small tiles), pack 1 << (flags & 3),
   1 + (flags >> 2) % 3 operands (picked like the first), through the stack when flags & 32, the
   one-result call when flags & 64 (pack 1). k >= 250 a misuse: 250 a tl_store inside, 251 a tile
   inside, 252 a result not given, 253 a bad pack (3, 32, 0 or -1 by flags >> 6), 254 a tl_print
   inside, 255 a TL_IF left open. ptr (functions 5 and 250): the pointer parameter. */
static void fz_map(void) {
    static const int bad_packs[4] = {3, 32, 0, -1};
    unsigned k = fz_u8(), f = fz_u8();
    fz_map_fn = k < 250 ? (int)(k % FZ_NMAP) : (int)k;
    fz_map_p = 1 << (f & 3);
    fz_map_n = 1 + (int)(f >> 2) % 3;
    fz_map_ptr = fz_map_fn == 5 || fz_map_fn == 250 ? (int)fz_u8() : 0;
    if (fz_map_fn == 253) fz_map_p = bad_packs[f >> 6];
    tl_t xs[3];
    for (int i = 0; i < fz_map_n; i++) xs[i] = i ? fz_pick_like(xs[0]) : fz_pick();
    if ((fz_map_fn == 1 || fz_map_fn == 2) && fz_numel(xs[0]) > FZ_SMALL) fz_map_fn = 0;
    /* the body's ops run once per element (two maps of 2^20 elements took libFuzzer's 30 s) */
    if (!fz_spend(xs[0], 16)) return;
    int nres = k < 250 ? fz_map_nres(fz_map_fn) : 1, one = (f & 64) && nres == 1 && fz_map_p == 1 && k != 253;
    tl_t out[3] = {{0, 0}, {0, 0}, {0, 0}};
    tl_map_args o = {0, fz_map_p};
    if (f & 32) {
        for (int i = 0; i < fz_map_n; i++) tl__push(xs[i]);
        if (one) out[0] = tl__map_stk(FZ_AT, fz_map_max, fz_map_n);
        else tl__map_n_stk(FZ_AT, fz_map_body, fz_map_n, nres, out, o);
    } else {
        if (one) out[0] = tl_map_elementwise_at(FZ_AT, fz_map_max, fz_map_n, xs);
        else tl_map_elementwise_n_at(FZ_AT, fz_map_body, fz_map_n, xs, nres, out, o);
    }
    for (int r = 0; r < nres; r++) fz_push(out[r]);
}

/* tl_libdevice(name, xs[0..n-1]) pushed: through the operand stack (the tl_libdevice macro's
   stack function) when stack, else the array form */
static void fz_libdevice_call(const char *name, int n, const tl_t *xs, unsigned stack) {
    if (stack) {
        for (int i = 0; i < n; i++) tl__push(xs[i]);
        fz_push(tl__libdevice_stk(FZ_AT, name, n));
    } else {
        fz_push(tl_libdevice_at(FZ_AT, name, n, xs));
    }
}
/* FZ_ROUNDED: tl_libdevice's rounding-mode functions, by the builder's own table (tile__ld_rnd):
   k % 25 names one, (k / 25) % 4 its mode (an _rn-only one in another: no such function), its
   operands picked and cast to its dtype (f32, or f64 when flags & 32, for the arithmetic ones) unless
   flags & 7 == 7 (as picked: mostly errors), the last a C literal (the byte after flags) when
   flags & 8, one operand too many when flags & 16. k >= 240: jn or yn (k & 1), the order an i32
   pick (or the literal), x a float pick; k >= 252 with a wrong count */
static void fz_rounded(void) {
    enum { NRND = sizeof tile__ld_rnd / sizeof *tile__ld_rnd };
    static const char *const modes[4] = {"rn", "rz", "rd", "ru"};
    unsigned k = fz_u8(), f = fz_u8(), lit = f & 8 ? fz_u8() : 0;
    int any = (f & 7) == 7, n;
    char name[40];
    tl_t xs[4];
    if (k >= 240) {
        snprintf(name, sizeof name, "%s", k & 1 ? "jn" : "yn");
        n = k >= 252 ? 1 + (int)(k & 2) : 2;
        xs[0] = f & 8 ? fz_lit(lit) : any ? fz_pick() : tl_cast_at(FZ_AT, fz_pick_where(FZ_W_INT, tl__cint(3)), TL_I32);
        for (int i = 1; i < n; i++) xs[i] = any ? fz_pick() : fz_pick_where(FZ_W_FLOAT, tl__cflt(0.5));
        fz_push(tl_libdevice_at(FZ_AT, name, n, xs));
        return;
    }
    int r = (int)(k % NRND);
    tl_dtype dt = tile__ld_rnd[r].from != TL_VOID ? tile__ld_rnd[r].from : f & 32 ? TL_F64 : TL_F32;
    snprintf(name, sizeof name, "%s_%s", tile__ld_rnd[r].name, modes[(k / NRND) % 4]);
    n = tile__op_nopnd[tile__ld_rnd[r].op] + ((f & 16) != 0);
    for (int i = 0; i < n; i++) {
        xs[i] = i ? fz_pick_like(xs[0]) : fz_pick();
        if (!any) xs[i] = tl_cast_at(FZ_AT, xs[i], dt);
    }
    if (f & 8) xs[n - 1] = fz_lit(lit);
    fz_libdevice_call(name, n, xs, f & 64);
}

/* FZ_LIBDEVICE_MORE: tl_libdevice's functions of other dtypes, by the builder's table (tile__ld_more),
   then the libm rows from normcdf on (normcdf ... rnorm4d: up to four operands), pow of an i32 n
   and nearbyint: k % their number names one. Its operands are picks cast to what it takes (its
   exact dtype; for a float, the pick's float dtype, or flags >> 3 & 3 picks f32, f64, f16, bf16;
   ldexp's, scalbn's and pow's n an i32) unless flags & 7 == 7 (as picked: mostly errors); the last
   a C literal (the byte after flags) when flags & 32; through the operand stack when flags & 64;
   k >= 250: one operand too many */
static void fz_libdevice_more(void) {
    enum { NMORE = sizeof tile__ld_more / sizeof *tile__ld_more, NLIBM = TILE__OP_RNORM4D - TILE__OP_NORMCDF + 1 };
    static const tl_dtype floats[4] = {TL_F32, TL_F64, TL_F16, TL_BF16};
    unsigned k = fz_u8(), f = fz_u8(), lit = f & 32 ? fz_u8() : 0;
    int j = (int)(k % (NMORE + NLIBM + 2)), any = (f & 7) == 7, n, wide = 0;
    const char *name;
    tl_dtype from[4] = {TL_VOID, TL_VOID, TL_VOID, TL_VOID};
    tl_t xs[5];
    if (j < NMORE) {
        int kind = tile__ld_more[j].kind;
        name = tile__ld_more[j].name;
        n = kind == TILE__LDK_HILO || kind == TILE__LDK_SCALE ? 2 : kind == TILE__LDK_EXACT ? tile__op_nopnd[tile__ld_more[j].code] : 1;
        for (int i = 0; i < n; i++) from[i] = tile__ld_more[j].from;
        if (kind == TILE__LDK_SCALE) from[1] = TL_I32;
        wide = kind == TILE__LDK_ABS;
    } else if (j < NMORE + NLIBM) {
        name = tile__op_libm[TILE__OP_NORMCDF + j - NMORE];
        n = tile__op_nopnd[TILE__OP_NORMCDF + j - NMORE];
    } else {
        name = j == NMORE + NLIBM ? "pow" : "nearbyint";
        n = j == NMORE + NLIBM ? 2 : 1;
        from[1] = TL_I32;
    }
    n += k >= 250;
    for (int i = 0; i < n; i++) {
        xs[i] = i ? fz_pick_like(xs[0]) : wide ? fz_pick() : fz_pick_where(FZ_W_FLOAT, tl__cflt(0.5));
        if (any) continue;
        if (from[i] != TL_VOID) xs[i] = tl_cast_at(FZ_AT, xs[i], from[i]);
        else if (!wide && (f >> 3 & 3)) xs[i] = tl_cast_at(FZ_AT, xs[i], floats[f >> 3 & 3]);
    }
    if (f & 32) xs[n - 1] = fz_lit(lit);
    fz_libdevice_call(name, n, xs, f & 64);
}

/* FZ_NAN_MINMAX: .propagate_nan. which & 1: the min; which & 4: the reduction (tl_max, tl_min of a
   tile along an axis; which & 8 another kind, an error with the option; flags & 2: keep_dims),
   else the elementwise op of two picks (which & 2: through the tl_maximum(a, b, ...) macro's
   stack function); which & 16: the option off (NaN loses) */
static void fz_nan_minmax(void) {
    unsigned w = fz_u8();
    int min = w & 1, pn = !(w & 16);
    if (w & 4) {
        tl_t x = fz_pick_where(FZ_W_TILE, fz_pool[fz_n - 1]);
        int axis = fz_axis(tl_rank(x));
        unsigned fl = fz_u8();
        tl_reduce_args o;
        memset(&o, 0, sizeof o);
        o.keep_dims = (int)(fl >> 1 & 1);
        o.propagate_nan = pn;
        tl_reduce_op kind = w & 8 ? (tl_reduce_op)(fl >> 2 & 7) : min ? TL_REDUCE_MIN : TL_REDUCE_MAX;
        fz_push(tl_reduce_at(FZ_AT, kind, x, axis, o));
        return;
    }
    tl_t a = fz_pick(), b = fz_pick_like(a);
    tl_minmax_args o;
    memset(&o, 0, sizeof o);
    o.propagate_nan = pn;
    if (w & 2) fz_push((tl__push(a), tl__push(b), tl__minmax_stk(FZ_AT, !min, o)));
    else fz_push(min ? tl_minimum_opts_at(FZ_AT, a, b, o) : tl_maximum_opts_at(FZ_AT, a, b, o));
}

/* ---- runtime control flow ------------------------------------------------------------- */
/* The begin calls take the carried variables as varargs: one call per count. */
#define FZ_R4(p) p, p, p, p
#define FZ_R32(p) FZ_R4(p), FZ_R4(p), FZ_R4(p), FZ_R4(p), FZ_R4(p), FZ_R4(p), FZ_R4(p), FZ_R4(p)
#define FZ_CARRY_CALL(call, ...)                                                                    \
    switch (n) {                                                                                    \
    case 0: return call(__VA_ARGS__, "s", 0);                                                       \
    case 1: return call(__VA_ARGS__, "s, c0", 1, v[0]);                                             \
    case 2: return call(__VA_ARGS__, "s, c0, c1", 2, v[0], v[1]);                                   \
    case 3: return call(__VA_ARGS__, "s, c0, c1, c2", 3, v[0], v[1], v[2]);                         \
    case 4: return call(__VA_ARGS__, "s, c0, c1, c2, c3", 4, v[0], v[1], v[2], v[3]);               \
    case 5: return call(__VA_ARGS__, "s, c0, c1, c2, c3, c4", 5, v[0], v[1], v[2], v[3], v[4]);     \
    case 6: return call(__VA_ARGS__, "s, c0, c1, c2, c3, c4, c5", 6, v[0], v[1], v[2], v[3], v[4], v[5]); \
    case 7: return call(__VA_ARGS__, "s, c0, c1, c2, c3, c4, c5, c6", 7, v[0], v[1], v[2], v[3], v[4], v[5], v[6]); \
    case 8: return call(__VA_ARGS__, "s, c0, c1, c2, c3, c4, c5, c6, c7", 8, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]); \
    default: return call(__VA_ARGS__, "s, c0", 33, FZ_R32(v[0]), v[0]);                             \
    }
static tl__frame *fz_for_begin(tl_t *iv, int n, tl_t **v) { FZ_CARRY_CALL(tl__for_begin, FZ_AT, iv) }
static tl__frame *fz_if_begin(tl_t cond, int n, tl_t **v) { FZ_CARRY_CALL(tl__if_begin, FZ_AT, cond) }
static tl__frame *fz_while_begin(int n, tl_t **v) { FZ_CARRY_CALL(tl__while_begin, FZ_AT) }

/* ncarry slots...: the carried pool slots of a new frame (n 33 is the error path) */
static int fz_carried(fz_frame *fr, tl_t **v, int first) {
    unsigned b = fz_u8();
    int n = b == 255 ? 33 : b >= 250 ? 5 + (int)(b - 250) % 4 : (int)(b % 5);
    int k = first;
    fr->nslots = 0;
    for (int i = 0; i < n && i < FZ_MAXC - first; i++) {
        int slot = fz_n - 1 - (int)(fz_u8() % (unsigned)fz_n);
        fr->slots[fr->nslots++] = slot;
        v[k++] = &fz_pool[slot];
    }
    return n == 33 ? 33 : k;
}
static fz_frame *fz_open(int kind) {
    fz_frame *fr = &fz_fr[fz_depth];
    memset(fr, 0, sizeof *fr);
    fr->kind = kind;
    fr->mark = fz_n;
    fr->trips = 1;
    fr->extra = -1;
    return fr;
}
/* a bound: a literal, a typed literal or a run-time value (clamped by fz_for) */
static tl_t fz_bound(unsigned kind, int lit) {
    switch (kind % 3) {
    case 1: return tl_cast_at(FZ_AT, tl__cint(lit), fz_int_dtype(fz_u8()));
    case 2: return fz_pick_where(FZ_W_INT_SCALAR, fz_params[FZ_NPTR]);
    default: return tl__cint(lit);
    }
}
static void fz_for(void) {
    if (fz_depth >= FZ_DEPTH) return;
    unsigned mode = fz_u8();
    int lo = (int)(fz_u8() % 5) - 2, allowed = FZ_TRIPS / fz_trips;
    int span = (int)(fz_u8() % (unsigned)(allowed + 1));
    unsigned sb = fz_u8();
    int down = (mode >> 4) % 4 == 1;
    tl_t lov = fz_bound(mode, lo), hiv = fz_bound(mode >> 2, lo + span), step;
    switch ((mode >> 4) % 4) {
    case 1: step = tl__cint(-1 - (int)(sb % 2)); break;   /* counts down from hi to lo */
    case 2: step = sb < 16 ? tl__cint(0) : fz_pick_where(FZ_W_INT_SCALAR, tl__cint(1)); break;
    default: step = tl__cint(1 + (int)(sb % 3)); break;
    }
    if (mode % 3 || (mode >> 2) % 3 || (mode >> 4) % 4 == 2) {
        /* not all weak literals: bounds and step in one dtype, lo <= hi <= lo + span
           in it (wrapping past its end gives no trips): at most span trips */
        tl_dtype t = fz_int_dtype(fz_u8());
        lov = tl_cast_at(FZ_AT, lov, t);
        hiv = tl_minimum_at(FZ_AT, tl_maximum_at(FZ_AT, tl_cast_at(FZ_AT, hiv, t), lov), tl_add_at(FZ_AT, lov, tl__cint(span)));
        if ((mode >> 4) % 4 == 2) step = tl_cast_at(FZ_AT, step, t);
    }
    fz_frame *fr = fz_open(FZ_K_FOR);
    tl_t *v[FZ_MAXC];
    int n = fz_carried(fr, v, 0);
    tl__push(down ? hiv : lov);
    tl__push(down ? lov : hiv);
    tl__push(step);
    fr->f = fz_for_begin(&fr->iv, n, v);
    fr->trips = span > 0 ? span : 1;
    fz_trips *= fr->trips;
    fz_depth++;
    fz_push(fr->iv);
}
static void fz_if(void) {
    if (fz_depth >= FZ_DEPTH) return;
    unsigned mode = fz_u8();
    tl_t c;
    switch (mode % 4) {
    case 0: c = fz_pick_where(FZ_W_INT_SCALAR, tl__cint(1)); break;
    case 1: c = tl_lt_at(FZ_AT, tl_program_id_at(FZ_AT, 0), tl__cint((long long)(fz_u8() % 4))); break;
    case 2: c = tl__cint((long long)(fz_u8() % 2)); break;
    default: c = fz_pick(); break;                /* often a tile: an error */
    }
    fz_frame *fr = fz_open(FZ_K_IF);
    tl_t *v[FZ_MAXC];
    int n = fz_carried(fr, v, 0);
    fr->f = fz_if_begin(c, n, v);
    fz_depth++;
}
/* cnt < limit, and the extra slot's truth when there is one */
static tl_t fz_while_cond(fz_frame *fr) {
    tl_t c = tl_lt_at(FZ_AT, fr->cnt, tl__cint(fr->limit));
    if (fr->extra >= 0) c = tl_logical_and_at(FZ_AT, c, fz_pool[fr->extra]);
    return c;
}
static void fz_while(void) {
    if (fz_depth >= FZ_DEPTH) return;
    int allowed = FZ_TRIPS / fz_trips;
    int limit = (int)(fz_u8() % (unsigned)(allowed + 1));
    unsigned e = fz_u8();
    fz_frame *fr = fz_open(FZ_K_WHILE);
    fr->limit = limit;
    fr->cnt = tl_cast_at(FZ_AT, tl__cint(0), TL_I32);
    tl_t *v[FZ_MAXC];
    v[0] = &fr->cnt;
    int n = fz_carried(fr, v, 1);
    if (e & 0x80) fr->extra = fz_n - 1 - (int)((e >> 1) % (unsigned)fz_n);   /* any slot */
    else if (e & 1) {                             /* an integer scalar's slot */
        int m = 0;
        for (int k = 0; k < fz_n; k++) m += fz_wants(FZ_W_INT_SCALAR, fz_pool[k]);
        for (int k = fz_n - 1, want = m ? (int)((e >> 1) % (unsigned)m) : -1; k >= 0 && want >= 0; k--)
            if (fz_wants(FZ_W_INT_SCALAR, fz_pool[k]) && want-- == 0) fr->extra = k;
    }
    fr->f = fz_while_begin(n, v);
    tl__while_cond(FZ_AT, fr->f, fz_while_cond(fr));
    fr->trips = limit > 0 ? limit : 1;
    fz_trips *= fr->trips;
    fz_depth++;
}
/* flags: bit 0 a TL_ELSE follows a TL_IF; (flags >> 1) & 15 == 15: the
   values made inside stay in the pool (using them is a scope error) */
static void fz_close(unsigned flags) {
    if (fz_depth == 0) return;
    fz_frame *fr = &fz_fr[fz_depth - 1];
    int leak = ((flags >> 1) & 15) == 15;
    if (fr->f) {
        switch (fr->kind) {
        case FZ_K_FOR: tl__for_end(FZ_AT, fr->f); break;
        case FZ_K_IF:
            tl__if_end(FZ_AT, fr->f);
            fz_after_if = (int)fz_pos + 1;        /* the next instruction's line */
            if (!leak) fz_n = fr->mark;
            if (flags & 1) {
                fr->f = tl__else_begin(FZ_AT);
                fr->kind = FZ_K_ELSE;
                if (fr->f) return;             /* the frame stays open for the else part */
            }
            break;
        case FZ_K_ELSE: tl__else_end(FZ_AT, fr->f); break;
        case FZ_K_WHILE:
            fr->cnt = tl_add_at(FZ_AT, fr->cnt, tl__cint(1));
            fr->f = tl__while_end(FZ_AT, fr->f);
            tl__while_cond(FZ_AT, fr->f, fz_while_cond(fr));   /* the C for's second test */
            break;
        default: break;
        }
    }
    if (!leak) fz_n = fr->mark;
    fz_trips /= fr->trips;
    fz_depth--;
}
/* depth kind [more]: very deep nesting, closed at once: 32 * (1 + depth)
   levels, or with depth 255 8192 * (1 + more % 8) */
static void fz_deep(void) {
    unsigned b = fz_u8();
    unsigned kind = fz_u8() % 3;
    int depth = b < 255 ? 32 * (1 + (int)b) : 8192 * (1 + (int)(fz_u8() % 8));
    if (fz_deeps++) return;          /* one per kernel: building them takes time quadratic in depth */
    tl__frame **fs = (tl__frame **)calloc((size_t)depth, sizeof *fs);
    if (!fs) return;
    tl_t iv, x = fz_pick_where(FZ_W_INT_SCALAR, tl__cint(1));
    for (int d = 0; d < depth; d++) {
        if (kind == 0 || (kind == 2 && d % 2)) fs[d] = tl__if_begin(FZ_AT, tl__cint(1), "s", 0);
        else {
            tl__push(tl__cint(0));
            tl__push(tl__cint(1));
            tl__push(tl__cint(1));
            fs[d] = tl__for_begin(FZ_AT, &iv, "s", 0);
        }
    }
    tl_store_at(FZ_AT, tl_add_at(FZ_AT, fz_params[TL_I32 - TL_I1], tl__cint(0)), tl_cast_at(FZ_AT, x, TL_I32), (tl_store_args){0});
    for (int d = depth - 1; d >= 0; d--) {
        if (!fs[d]) continue;
        if (kind == 0 || (kind == 2 && d % 2)) tl__if_end(FZ_AT, fs[d]);
        else tl__for_end(FZ_AT, fs[d]);
    }
    free(fs);
}
/* depth pick: tl_add(x, tl_add(x, ... tl_add(x, x))) as the macros trace it */
static void fz_deep_expr(void) {
    unsigned b = fz_u8();
    int depth = b < 200 ? (int)(b % 32) : 2 * (int)b;   /* > 254: the stack's limit */
    tl_t x = fz_pick();
    if (!fz_spend(x, depth + 1)) depth = 0;
    for (int d = 0; d < depth; d++) tl__push(x);
    tl__push(x);
    tl__push(x);
    tl_t r = tl__bin_stk(FZ_AT, tl_add_at);
    for (int d = 0; d < depth; d++) {
        tl__push(r);
        r = tl__bin_stk(FZ_AT, tl_add_at);
    }
    fz_push(r);
}

/* ---- one instruction ------------------------------------------------------------------ */
static void fz_step(unsigned op) {
    switch (op) {
    case FZ_PARAM: fz_push(fz_params[fz_u8() % FZ_NPARAMS]); break;
    case FZ_LIT_INT: fz_push(tl__cint(fz_int_value(fz_u8()))); break;
    case FZ_LIT_FLT: fz_push(tl__cflt(fz_flt_value(fz_u8()))); break;
    case FZ_LIT_TYPED: {
        tl_t v = fz_lit(fz_u8());
        fz_push(tl_full_at(FZ_AT, fz_dtype(), v, tl__shape(0)));
        break;
    }
    case FZ_PROGRAM_ID: {
        unsigned a = fz_u8();
        int axis = a % 16 == 15 ? (a & 32 ? 3 : -1) : (int)(a % 3);
        fz_push(a & 16 ? tl_num_programs_at(FZ_AT, axis) : tl_program_id_at(FZ_AT, axis));
        break;
    }
    case FZ_ARANGE: {
        static const int starts[] = {0, 0, 0, 0, 1, 4, -8, -1, 100, INT_MAX - 15, INT_MIN, INT_MAX - 1023, 1 << 30, 16};
        static const int odd_lens[] = {0, 3, -4, 1 << 20, 1 << 21, INT_MAX};
        int start = starts[fz_u8() % 14];
        unsigned l = fz_u8();
        long long len = l >= 250 ? odd_lens[l % 6] : 1LL << (l % 9);
        if (len > FZ_BIG && fz_elems + fz_cost(len) > FZ_ELEMS) len = FZ_SMALL;
        int end = (int)(unsigned)((unsigned)start + (unsigned)len);   /* wraps, as a user's C would */
        fz_push(tl_arange_at(FZ_AT, start, end));
        break;
    }
    case FZ_FULL: {
        tl_dtype t = fz_dtype();
        unsigned m = fz_u8();
        tl_t v = m & 1 ? fz_pick_where(FZ_W_SCALAR, tl__cint(0)) : fz_lit(fz_u8());
        fz_push(tl_full_at(FZ_AT, t, v, fz_shape()));
        break;
    }
    case FZ_LIKE: {
        unsigned w = fz_u8();
        tl_t x = fz_pick();
        if (w & 1) fz_push(tl_zeros_like_at(FZ_AT, x));
        else fz_push((tl__push(x), tl__push(fz_lit(fz_u8())), tl__bin_stk(FZ_AT, tl_full_like_at)));
        break;
    }
    case FZ_LIBDEVICE: {   /* every op-table row with a C name, by that name; the bad ones are errors */
        unsigned k = fz_u8();
        if (k >= 226 && k < 250) {
            /* the integer functions, on integers: j = k - 226 names ints[j % 15], with its count, or one
               more for j >= 15 (an error); j % 8 == 7: any operands. The 32-bit ones on another
               integer dtype are errors too, which fz_pick_where(FZ_W_INT) often picks */
            static const struct { const char *name; int n; } ints[] = {
                {"popc", 1}, {"clz", 1}, {"ffs", 1}, {"brev", 1}, {"mulhi", 2}, {"umulhi", 2}, {"hadd", 2}, {"uhadd", 2},
                {"rhadd", 2}, {"urhadd", 2}, {"mul24", 2}, {"umul24", 2}, {"sad", 3}, {"usad", 3}, {"byte_perm", 3},
            };
            unsigned j = k - 226;
            tl_t xs[3];   /* at most 3: the ones given a count too many have 1 or 2 */
            int n = ints[j % 15].n + (j >= 15);
            for (int i = 0; i < n; i++) xs[i] = j % 8 == 7 ? fz_pick() : fz_pick_where(FZ_W_INT, tl__cint(5));
            fz_push(tl_libdevice_at(FZ_AT, ints[j % 15].name, n, xs));
            break;
        }
        /* the rows before normcdf, so that a byte names the row it named before those were added
           (FZ_LIBDEVICE_MORE calls the later ones) */
        int code = -1, seen = 0, nlibm = 0;
        for (int c = 0; c < TILE__OP_NORMCDF; c++) nlibm += tile__op_libm[c] != NULL;
        for (int c = 0; c < TILE__OP_NORMCDF && k < 250; c++)
            if (tile__op_libm[c] && seen++ == (int)(k % (unsigned)nlibm)) code = c;
        tl_t xs[3];
        int n = code >= 0 ? tile__op_nopnd[code] : 1 + (int)(k % 3);
        for (int i = 0; i < n; i++) xs[i] = k % 7 == 0 ? fz_pick() : fz_pick_where(FZ_W_FLOAT, tl__cflt(0.25));
        const char *name = code >= 0 ? tile__op_libm[code] : k == 250 ? NULL : k % 2 ? "acos" : "no_such_fn";
        fz_push(tl_libdevice_at(FZ_AT, name, n, xs));
        break;
    }
    case FZ_ASM: fz_inline_asm(); break;
    case FZ_MAP: fz_map(); break;
    case FZ_ROUNDED: fz_rounded(); break;
    case FZ_NAN_MINMAX: fz_nan_minmax(); break;
    case FZ_LIBDEVICE_MORE: fz_libdevice_more(); break;
    case FZ_UNARY: {
        unsigned k = fz_u8() % FZ_NUNARY;
        const char *name = fz_unary_names[k];
        int math = strcmp(name, "neg") != 0 && strcmp(name, "abs") != 0 && !fz_int_op(name);
        tl_t x = fz_int_op(name) ? fz_pick_where(FZ_W_INT, tl__cint(5)) : math ? fz_pick_where(FZ_W_FLOAT, tl__cflt(0.5)) : fz_pick();
        fz_push(fz_unary_fns[k](FZ_AT, x));
        break;
    }
    case FZ_BINARY: fz_binary(); break;
    case FZ_TERNARY: fz_ternary(); break;
    case FZ_CAST: {
        tl_t x = fz_pick();
        tl_dtype t = fz_u8() & 1 ? tl_dtype_of(fz_pick()) : fz_dtype();   /* a pointer's: an error */
        fz_push(tl_cast_at(FZ_AT, x, t));
        break;
    }
    case FZ_BITCAST: fz_bitcast(); break;
    case FZ_HINT: {   /* any kind on any value: the wrong dtypes and n < 1 are errors */
        unsigned kind = fz_u8() % 3;
        tl_t x = fz_pick();
        int n = (int)fz_u8() - 8;
        fz_push(tl_hint_at(FZ_AT, (int)kind, x, n));
        break;
    }
    case FZ_HISTOGRAM: {
        unsigned bb = fz_u8();
        tl_t x = fz_pick();
        tl_histogram_args o;
        memset(&o, 0, sizeof o);
        if (bb & 128) o.mask = fz_pick();
        fz_push(tl_histogram_at(FZ_AT, x, (bb & 15) == 15 ? 12 : 1 << (bb % 10), o));
        break;
    }
    case FZ_GATHER: {
        unsigned ab = fz_u8();
        tl_t x = fz_pick();
        int r = x.id > 0 ? tl_rank(x) : 0, axis = r > 0 ? (int)(ab % (unsigned)r) : 0;
        tl_t index;
        if (ab >= 128 || r == 0) {
            index = fz_pick();   /* anything: the errors */
        } else {
            /* x's shape, along axis (arange * 3) % n: in range */
            tl_t a = tl_arange_at(FZ_AT, 0, tl_dim(x, axis));
            tl_t three = tl__cint(3);
            tl_t m = tl_mul_at(FZ_AT, a, three);
            tl_t nn = tl__cint(tl_dim(x, axis));
            tl_t ar = tl_mod_at(FZ_AT, m, nn);
            for (int d = 0; d < r; d++)
                if (d != axis) ar = tl_expand_dims_at(FZ_AT, ar, d);
            tl_shape sh;
            sh.rank = r;
            for (int d = 0; d < r && d < TL_MAX_RANK; d++) sh.dim[d] = tl_dim(x, d);
            index = tl_broadcast_to_at(FZ_AT, ar, sh);
        }
        fz_push(tl_gather_at(FZ_AT, x, index, ab >= 128 || r == 0 ? (int)(ab % 5) - 2 : axis));
        break;
    }
    case FZ_RAND: {   /* the 4x kinds push their four results */
        int kind = (int)(fz_u8() % 6);
        tl_rand_args o;
        memset(&o, 0, sizeof o);
        unsigned rb = fz_u8();
        o.n_rounds = rb < 240 ? (int)(rb % 12) : (int)rb - 240 + 60;   /* 0 (10) .. 11, and the odd one past 64 */
        tl_t offset = fz_pick(), seed = fz_pick(), out[4];
        /* ~16 ops a round, ~40 to convert, over the shape of seed and offset
           together: a tile seed makes the whole Philox run that wide too */
        long long ops = 16 * (o.n_rounds ? o.n_rounds : 10) + 40;
        if (!fz_spend(offset, ops)) offset = tl__cint(7);
        if (fz_numel(seed) > fz_numel(offset) && !fz_spend(seed, ops)) seed = tl__cint(5);
        tl_t r = tl_random_at(FZ_AT, kind, seed, offset, out, o);
        if (kind == TL__RAND_INT4 || kind == TL__RAND_U4 || kind == TL__RAND_N4)
            for (int k = 0; k < 4; k++) fz_push(out[k]);
        else
            fz_push(r);
        break;
    }
    case FZ_SWIZZLE: {
        tl_t x = fz_pick(), ni, nj;
        tl_t one = tl__cint(1);
        tl_t x1 = tl_add_at(FZ_AT, x, one);
        tl_t si = tl__cint(8), sj = tl__cint(4), sg = tl__cint(3);   /* made in this order on every compiler */
        tl_swizzle2d_at(FZ_AT, x, x1, si, sj, sg, &ni, &nj);
        fz_push(ni);
        fz_push(nj);
        break;
    }
    case FZ_SOFTMAX: {
        tl_t x = fz_pick_where(FZ_W_FLOAT, fz_pool[fz_n - 1]);
        fz_push(tl_softmax_at(FZ_AT, x, fz_axis(tl_rank(x))));
        break;
    }
    case FZ_BCAST_TO: fz_bcast_to(); break;
    case FZ_BCAST2: {
        tl_t a = fz_pick(), b = fz_pick(), pa, pb;
        if (fz_u8() & 1) tl__push(a), tl__push(b), tl__broadcast_stk(FZ_AT, &pa, &pb);
        else tl_broadcast_at(FZ_AT, a, b, &pa, &pb);
        fz_push(pa);
        fz_push(pb);
        break;
    }
    case FZ_EXPAND: {
        tl_t x = fz_pick();
        fz_push(tl_expand_dims_at(FZ_AT, x, fz_axis(tl_rank(x))));
        break;
    }
    case FZ_RESHAPE: fz_reshape(); break;
    case FZ_RAVEL: fz_push(tl_ravel_at(FZ_AT, fz_pick())); break;
    case FZ_PERMUTE: fz_permute(); break;
    case FZ_TRANS: fz_push(tl_trans_at(FZ_AT, fz_pick())); break;
    case FZ_COMBINE: fz_combine(); break;
    case FZ_SPLIT: {
        tl_t a, b;
        tl_split_at(FZ_AT, fz_pick_where(FZ_W_LAST2, fz_pool[fz_n - 1]), &a, &b);
        fz_push(a);
        fz_push(b);
        break;
    }
    case FZ_REDUCE: {
        unsigned kb = fz_u8();
        unsigned kind = kb == 255 ? 99 : kb % 9;   /* 99 is no reduction */
        tl_t x = fz_pick_where(FZ_W_TILE, fz_pool[fz_n - 1]);
        int axis = fz_axis(tl_rank(x));
        unsigned fl = fz_u8();
        tl_reduce_args o;
        memset(&o, 0, sizeof o);
        o.keep_dims = (int)(fl & 1);
        if (((fl >> 1) & 7) == 7) o.dtype = fz_dtype();
        fz_push(tl_reduce_at(FZ_AT, (tl_reduce_op)kind, x, axis, o));
        break;
    }
    case FZ_SCAN: {
        unsigned k = fz_u8();
        tl_reduce_op kind = k == 255 ? TL_REDUCE_MAX : k & 1 ? TL_REDUCE_PROD : TL_REDUCE_SUM;   /* max: not a scan */
        tl_t x = fz_pick_where(FZ_W_TILE, fz_pool[fz_n - 1]);
        int axis = fz_axis(tl_rank(x));
        unsigned fl = fz_u8();
        tl_scan_args o;
        memset(&o, 0, sizeof o);
        o.reverse = (int)(fl & 1);
        if (((fl >> 1) & 7) == 7) o.dtype = fz_dtype();
        fz_push(tl_scan_at(FZ_AT, kind, x, axis, o));
        break;
    }
    case FZ_DOT: fz_dot(); break;
    case FZ_DOT3: fz_dot3(); break;
    case FZ_PTR: fz_push(fz_make_ptr()); break;
    case FZ_LOAD: fz_load(); break;
    case FZ_STORE: fz_store(); break;
    case FZ_ATOMIC: fz_atomic(); break;
    case FZ_CAS: fz_cas(); break;
    case FZ_PRINT: {
        static const char *const prefixes[] = {"fz: ", "", NULL, " x = "};
        unsigned b = fz_u8();
        int n = (int)(b % 3);
        tl_t v[2];
        for (int i = 0; i < n; i++) v[i] = fz_pick();
        if (fz_prints >= 2 || (n > 0 && fz_numel(v[0]) > 64) || (n > 1 && fz_numel(v[1]) > 64)) break;
        fz_prints++;
        const char *p = prefixes[(b >> 2) % 4];
        if (n == 0) tl_print_at(FZ_AT, 0, p);
        else if (n == 1) tl_print_at(FZ_AT, 1, p, v[0]);
        else tl_print_at(FZ_AT, 2, p, v[0], v[1]);
        break;
    }
    case FZ_ASSERT: {
        static const char *const msgs[] = {"fz assert", "", NULL, "TL_FOR step must be positive"};
        unsigned m = fz_u8();
        tl_t c;
        switch (m % 3) {
        case 0: c = tl_ge_at(FZ_AT, tl_program_id_at(FZ_AT, 0), tl__cint(0)); break;   /* holds */
        case 1: c = fz_pick(); break;
        default: {
            tl_t x = fz_pick();
            c = tl_le_at(FZ_AT, x, fz_lit(fz_u8()));
            break;
        }
        }
        tl_assert_at(FZ_AT, c, msgs[(m >> 2) % 4]);
        break;
    }
    case FZ_BARRIER: tl_debug_barrier_at(FZ_AT); break;
    case FZ_META: {
        unsigned k = fz_u8() % 16;
        int v = k < 8 ? tl_meta_or_at(FZ_AT, "BLOCK", 8) : k < 12 ? tl_meta_at(FZ_AT, "BLOCK")
              : k < 15 ? tl_meta_or_at(FZ_AT, "K", 2) : tl_meta_at(FZ_AT, "NOT_GIVEN");
        fz_push(tl__cint(v));
        if (v > 0 && v <= 1024 && (v & (v - 1)) == 0) fz_push(tl_arange_at(FZ_AT, 0, v));
        break;
    }
    case FZ_QUERY: {
        tl_t x = fz_pick();
        unsigned w = fz_u8();
        if (w % 3 == 0) fz_push(tl__cint(tl_rank(x)));
        else if (w % 3 == 1) fz_push(tl__cint(tl_dim(x, (int)(w >> 2) % 4 - 1)));
        else fz_push(tl_full_at(FZ_AT, tl_dtype_of(x) == TL_PTR ? TL_I64 : tl_dtype_of(x), tl__cint(1), tl__shape(0)));
        break;
    }
    case FZ_FOR: fz_for(); break;
    case FZ_IF: fz_if(); break;
    case FZ_WHILE: fz_while(); break;
    case FZ_END: fz_close(fz_u8()); break;
    case FZ_ELSE:                                 /* b < 16: anywhere; else only right after a TL_IF */
        if (fz_u8() < 16 || fz_after_if == fz_line) {
            tl__frame *f = tl__else_begin(FZ_AT);
            if (f) tl__else_end(FZ_AT, f);
        }
        break;
    case FZ_SET: {
        unsigned b = fz_u8();
        const fz_frame *fr = fz_depth ? &fz_fr[fz_depth - 1] : NULL;
        int slot = fr && fr->nslots && (b & 1) ? fr->slots[(b >> 1) % (unsigned)fr->nslots] : fz_n - 1 - (int)((b >> 1) % (unsigned)fz_n);
        tl_t v = fz_pool[fz_n - 1];
        for (int k = 0; fz_skip_carry && fr && k < fr->nslots; k++)
            if (fr->slots[k] == slot && (tl_dtype_of(v) != tl_dtype_of(fz_pool[slot]) || !fz_same_shape(v, fz_pool[slot]))) return;
        fz_pool[slot] = v;
        break;
    }
    case FZ_POP: {
        int floor = fz_depth ? fz_fr[fz_depth - 1].mark : 1;
        fz_n -= 1 + (int)(fz_u8() % 3);
        if (fz_n < floor) fz_n = floor;
        break;
    }
    case FZ_DEEP: fz_deep(); break;
    case FZ_DEEP_EXPR: fz_deep_expr(); break;
    default: break;
    }
}

/* TILE_FUZZ_TRACE=1: each instruction and the pool after it, on stderr */
static int fz_trace;
/* TILE_FUZZ_SKIP=TRANS,PERMUTE,INTERLEAVE,CARRY: ops (names of FZ_OPS,
   INTERLEAVE for tl_interleave) never run, and with CARRY a carried value
   never changes its type (no TILE_ERR_CARRY), to fuzz past a known bug */
static void fz_read_skip(void) {
#define FZ_NAME(name, bytes) #name,
    static const char *const names[] = {FZ_OPS(FZ_NAME)};
#undef FZ_NAME
    const char *v = getenv("TILE_FUZZ_SKIP");
    for (const char *p = v; p && *p;) {
        size_t n = strcspn(p, ",");
        int known = n == 10 && strncmp(p, "INTERLEAVE", n) == 0;
        fz_skip_interleave |= known;
        if (n == 5 && strncmp(p, "CARRY", n) == 0) fz_skip_carry = known = 1;
        for (int op = 0; op < FZ_NOPS; op++)
            if (strlen(names[op]) == n && strncmp(p, names[op], n) == 0) fz_skip_ops |= 1ull << op, known = 1;
        if (!known) fprintf(stderr, "fuzz_kernel: TILE_FUZZ_SKIP: no op %.*s\n", (int)n, p);
        p += n + (p[n] == ',');
    }
}
static void fz_trace_step(unsigned op) {
#define FZ_NAME(name, bytes) #name,
    static const char *const names[] = {FZ_OPS(FZ_NAME)};
#undef FZ_NAME
    fprintf(stderr, "fz %4d %-10s depth %d pool (top first)", fz_line, names[op], fz_depth);
    for (int k = fz_n - 1; k >= 0; k--) {
        tl_t t = fz_pool[k];
        fprintf(stderr, " %s", tl_dtype_of(t) == TL_PTR ? "ptr" : tile_dtype_name(tl_dtype_of(t)));
        for (int d = 0; d < tl_rank(t); d++) fprintf(stderr, "%s%d", d ? "," : "[", tl_dim(t, d));
        fprintf(stderr, "%s", tl_rank(t) ? "]" : "");
    }
    fprintf(stderr, "\n");
}

/* The body: decode the program after the header. */
static void fz_decode(const tl_t *params) {
    fz_pos = FZ_HDR;
    fz_n = 0;
    fz_depth = 0;
    fz_trips = 1;
    fz_elems = 0;
    fz_prints = 0;
    fz_deeps = 0;
    fz_after_if = 0;
    for (int p = 0; p < FZ_NPARAMS; p++) fz_params[p] = params[p];
    for (int p = FZ_NPTR; p < FZ_NPARAMS; p++) fz_pool[fz_n++] = params[p];   /* pointers come by FZ_PARAM and FZ_PTR */
    for (int i = 0; i < FZ_MAX_INSTR && fz_pos < fz_size; i++) {
        fz_line = (int)fz_pos + 1;
        unsigned op = fz_u8() % FZ_NOPS;
        if (fz_skip_ops >> op & 1) continue;
        fz_step(op);
        if (fz_trace) fz_trace_step(op);
    }
    fz_line = (int)fz_pos + 1;
    if (fz_hdr.trouble != 14)
        while (fz_depth) fz_close(0);
}

TILE_KERNEL(fz_kernel, (tl_ptr_i1, p_i1), (tl_ptr_i8, p_i8), (tl_ptr_i16, p_i16), (tl_ptr_i32, p_i32), (tl_ptr_i64, p_i64),
            (tl_ptr_u8, p_u8), (tl_ptr_u16, p_u16), (tl_ptr_u32, p_u32), (tl_ptr_u64, p_u64), (tl_ptr_f16, p_f16),
            (tl_ptr_bf16, p_bf16), (tl_ptr_f32, p_f32), (tl_ptr_f64, p_f64), (tl_ptr_f8e4m3, p_f8e4m3),
            (tl_ptr_f8e5m2, p_f8e5m2), (tl_ptr_f8e4b15, p_f8e4b15), (tl_ptr_f8e4b8, p_f8e4b8), (tl_ptr_f8e5b16, p_f8e5b16), (tl_i32, n), (tl_i64, n64), (tl_u32, nu32), (tl_u64, nu64), (tl_f32, x32),
            (tl_f64, x64))
{
    const tl_t params[FZ_NPARAMS] = {p_i1, p_i8, p_i16, p_i32, p_i64, p_u8, p_u16, p_u32, p_u64, p_f16, p_bf16,
                                     p_f32, p_f64, p_f8e4m3, p_f8e5m2, p_f8e4b15, p_f8e4b8, p_f8e5b16, n, n64, nu32, nu64, x32, x64};
    fz_decode(params);
}

/* A kernel that must keep working after any failure: y = 2x + 1 on n of 64 lanes. */
TILE_KERNEL(fz_good, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_i32, n))
{
    tl_t offs = tl_arange(0, 64);
    tl_t m = tl_lt(offs, n);
    tl_store(tl_add(y, offs), tl_add(tl_mul(tl_load(tl_add(x, offs), .mask = m), 2.0f), 1.0f), .mask = m);
}

/* ---- the checks ------------------------------------------------------------------------- */
static const char *fz_input_name = "";   /* the plain driver's current file */
static int fz_nlog;
static char fz_log_first[1024], fz_log_last[1024];
static void fz_log(const tile_error *e, void *user) {
    (void)user;
    if (fz_nlog++ == 0) snprintf(fz_log_first, sizeof fz_log_first, "%s", e->message);
    snprintf(fz_log_last, sizeof fz_log_last, "%s", e->message);
}
static void fz_bug(int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nfuzz_kernel: BUG (check at fuzz_kernel.c:%d)%s%s: ", line, fz_input_name[0] ? " in " : "", fz_input_name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  tile_last_error(): %s\n  messages logged: %d\n  first: %s\n  last:  %s\n", tile_last_error(), fz_nlog,
            fz_log_first, fz_log_last);
    fflush(stderr);
    abort();
}
#define FZ_BUG(...) fz_bug(__LINE__, __VA_ARGS__)

/* the status of one call and what it logged */
static void fz_check_status(const char *what, tile_status st) {
    if ((int)st < 0 || st >= TILE_ERR_COUNT_) FZ_BUG("%s returned %d, not a tile_status", what, (int)st);
    if (st == TILE_ERR_INTERNAL) FZ_BUG("%s: TILE_ERR_INTERNAL (a bug in tile)", what);
    if (st == TILE_OK) {
        if (fz_nlog != 0) FZ_BUG("%s returned TILE_OK but logged %d messages", what, fz_nlog);
        return;
    }
    const tile_error *e = tile_last_error_info();
    if (e->status != st) FZ_BUG("%s returned %s but tile_last_error_info()->status is %s", what, tile_status_id(st), tile_status_id(e->status));
    if (!strstr(tile_last_error(), tile_status_id(st))) FZ_BUG("%s returned %s; the message does not name it", what, tile_status_id(st));
    if (!e->id || strcmp(e->id, tile_status_id(st)) != 0) FZ_BUG("%s returned %s; tile_last_error_info()->id is %s", what, tile_status_id(st), e->id ? e->id : "NULL");
    if (fz_nlog != 1) FZ_BUG("%s returned %s and logged %d messages (one error, one message)", what, tile_status_id(st), fz_nlog);
}

/* ---- memory ------------------------------------------------------------------------------- */
static void *fz_buf[FZ_NPTR];
static float *fz_good_x, *fz_good_y;
static int fz_ptx, fz_strict, fz_llvm_forced, fz_verbose;
static long long fz_stats[TILE_ERR_COUNT_], fz_ptx_ok, fz_ptx_fail, fz_ptx_big, fz_inputs;

/* element i of the pattern, as dtype t, into dst */
static void fz_fill_elem(tl_dtype t, unsigned char *dst, int i, int pattern) {
    int v = (i * 7 + pattern) % 19 - 9;
    double f = v * 0.25;
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; float f32; double f64; tile_f16 h; tile_bf16 bh; tile_f8e4m3 e4; tile_f8e5m2 e5; tile_f8e4b15 e4b15; tile_f8e4b8 e4b8; tile_f8e5b16 e5b16; uint8_t b; } u;
    memset(&u, 0, sizeof u);
    switch (t) {
    case TL_I1: u.b = (uint8_t)((i + pattern) & 1); break;
    case TL_I8: case TL_U8: u.i8 = (int8_t)v; break;
    case TL_I16: case TL_U16: u.i16 = (int16_t)v; break;
    case TL_I32: case TL_U32: u.i32 = v; break;
    case TL_I64: case TL_U64: u.i64 = v; break;
    case TL_F16: u.h = tile_f16_from(f); break;
    case TL_BF16: u.bh = tile_bf16_from(f); break;
    case TL_F32: u.f32 = (float)f; break;
    case TL_F64: u.f64 = f; break;
    case TL_F8E4M3: u.e4 = tile_f8e4m3_from(f); break;
    case TL_F8E5M2: u.e5 = tile_f8e5m2_from(f); break;
    case TL_F8E4B15: u.e4b15 = tile_f8e4b15_from(f); break;
    case TL_F8E4B8: u.e4b8 = tile_f8e4b8_from(f); break;
    case TL_F8E5B16: u.e5b16 = tile_f8e5b16_from(f); break;
    default: break;
    }
    memcpy(dst, &u, tile_dtype_size(t));
}
static void fz_fill(int pattern) {
    static unsigned char host[FZ_BUFN * 8];
    for (int p = 0; p < FZ_NPTR; p++) {
        tl_dtype t = (tl_dtype)(TL_I1 + p);
        size_t es = tile_dtype_size(t);
        for (int i = 0; i < FZ_BUFN; i++) fz_fill_elem(t, host + (size_t)i * es, i, pattern);
        if (tile_memcpy_htod(fz_buf[p], host, es * FZ_BUFN) != TILE_OK) FZ_BUG("tile_memcpy_htod into a buffer failed");
    }
}

static void fz_init(void) {
    static int done;
    if (done) return;
    done = 1;
    setenv("TILE_CACHE", "0", 0);
    fz_verbose = getenv("TILE_FUZZ_VERBOSE") != NULL;
    fz_trace = getenv("TILE_FUZZ_TRACE") != NULL;
    fz_read_skip();
    if (!fz_verbose) {
        setenv("TILE_QUIET", "1", 0);
        if (!freopen("/dev/null", "w", stdout)) fprintf(stderr, "fuzz_kernel: cannot silence stdout\n");   /* tl_print */
    }
    fz_ptx = getenv("TILE_FUZZ_PTX") && strcmp(getenv("TILE_FUZZ_PTX"), "0") != 0;
    fz_strict = getenv("TILE_FUZZ_STRICT") && strcmp(getenv("TILE_FUZZ_STRICT"), "0") != 0;
    fz_llvm_forced = getenv("TILE_BACKEND") && strcmp(getenv("TILE_BACKEND"), "llvm") == 0;
    /* a kernel whose code would hold more tile elements per thread is
       TILE_ERR_BLOCK at the compile, counted apart: the compilers take
       seconds to minutes on such code (the library's own bound is 16384) */
    if (fz_ptx) setenv("TILE_MAX_UNROLL", "4096", 0);
    tile_set_log(fz_log, NULL);
    for (int p = 0; p < FZ_NPTR; p++)
        if (!(fz_buf[p] = tile_malloc(FZ_BUFN * tile_dtype_size((tl_dtype)(TL_I1 + p))))) FZ_BUG("tile_malloc failed");
    fz_good_x = (float *)tile_malloc(64 * sizeof(float));
    fz_good_y = (float *)tile_malloc(64 * sizeof(float));
    if (!fz_good_x || !fz_good_y) FZ_BUG("tile_malloc failed");
    if (fz_ptx) fprintf(stderr, "fuzz_kernel: PTX mode: sm_80 and sm_90a through %s\n", getenv("TILE_BACKEND") ? getenv("TILE_BACKEND") : "the default back end");
}

/* The known-good kernel, after a failure: it must run and compute. */
static void fz_check_good(void) {
    float x[64], y[64];
    for (int i = 0; i < 64; i++) x[i] = (float)i, y[i] = -7.0f;
    tile_memcpy_htod(fz_good_x, x, sizeof x);
    tile_memcpy_htod(fz_good_y, y, sizeof y);
    fz_nlog = 0;
    tile_status st = fz_good(TILE_OPTS(.grid = {1}), fz_good_x, fz_good_y, 50);
    if (st != TILE_OK) FZ_BUG("the known-good kernel fails after an error: %s", tile_status_id(st));
    fz_check_status("the known-good kernel", st);
    tile_memcpy_dtoh(y, fz_good_y, sizeof y);
    for (int i = 0; i < 64; i++)
        if (y[i] != (i < 50 ? 2.0f * (float)i + 1.0f : -7.0f)) FZ_BUG("the known-good kernel computes y[%d] = %g after an error", i, (double)y[i]);
}

/* ---- PTX mode ------------------------------------------------------------------------------- */
/* Assemble `ptx` for `arch` with ptxas; a rejection is a bug. */
static void fz_ptxas(const char *ptx, const char *arch) {
    const char *ptxas = getenv("PTXAS") ? getenv("PTXAS") : "/usr/local/cuda/bin/ptxas";
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char src[1024], log[1024], archopt[64];
    snprintf(src, sizeof src, "%s/tile_fuzz_ptx_XXXXXX", tmp);
    snprintf(log, sizeof log, "%s/tile_fuzz_log_XXXXXX", tmp);
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    int fd = mkstemp(src), lfd = mkstemp(log);
    if (fd < 0 || lfd < 0) FZ_BUG("mkstemp in %s failed", tmp);
    size_t len = strlen(ptx);
    if (write(fd, ptx, len) != (ssize_t)len) FZ_BUG("cannot write %s", src);
    close(fd);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(lfd, 1);
        dup2(lfd, 2);
        execl(ptxas, "ptxas", archopt, src, "-o", "/dev/null", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) FZ_BUG("cannot run %s", ptxas);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char text[4096];
        ssize_t n = pread(lfd, text, sizeof text - 1, 0);
        text[n > 0 ? n : 0] = 0;
        close(lfd);
        unlink(log);
        FZ_BUG("%s -arch=%s rejected the PTX (kept in %s; status %d):\n%s", ptxas, arch, src, status, text);
    }
    close(lfd);
    unlink(log);
    unlink(src);
}
static void fz_check_ptx(const tile_launch *o) {
    static const char *const archs[] = {"sm_80", "sm_90a"};
    tile_kernel *k = TILE_KERNEL_OF(fz_kernel);
    char *text = NULL;
    fz_nlog = 0;
    tile_status st = tile_kernel_ir(k, o, &text);
    fz_check_status("tile_kernel_ir", st);
    tile_free_text(text);
    if (st != TILE_OK) return;
    for (int a = 0; a < 2; a++) {
        char *ptx = NULL;
        fz_nlog = 0;
        st = tile_kernel_ptx(k, o, archs[a], &ptx);
        fz_check_status("tile_kernel_ptx", st);
        if (st == TILE_ERR_BLOCK) {   /* past TILE_MAX_UNROLL: the IR built, so nothing else is BLOCK here */
            if (!strstr(tile_last_error(), "TILE_MAX_UNROLL")) FZ_BUG("tile_kernel_ptx: TILE_ERR_BLOCK for a kernel that builds: %s", tile_last_error());
            fz_ptx_big++;
            continue;
        }
        if (st != TILE_OK) {
            if (fz_strict) FZ_BUG("a kernel that builds does not compile for %s: %s", archs[a], tile_last_error());
            if (fz_ptx_fail++ < 20) fprintf(stderr, "fuzz_kernel: %s%sno PTX for %s: %s\n", fz_input_name, fz_input_name[0] ? ": " : "", archs[a], tile_last_error());
            continue;
        }
        if (!ptx) FZ_BUG("tile_kernel_ptx returned TILE_OK without PTX");
        if (fz_llvm_forced && !strstr(ptx, "Generated by LLVM NVPTX")) FZ_BUG("TILE_BACKEND=llvm, but the PTX for %s is not LLVM's", archs[a]);
        fz_ptxas(ptx, archs[a]);
        fz_ptx_ok++;
        tile_free_text(ptx);
    }
}

/* ---- one input -------------------------------------------------------------------------------- */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_init();
    fz_data = data;
    fz_size = size;
    fz_read_header(data, size);
    fz_inputs++;

    tile_launch o;
    memset(&o, 0, sizeof o);
    o.file = "fuzz-launch";
    o.line = 1;
    memcpy(o.grid, fz_hdr.grid, sizeof o.grid);
    o.num_warps = fz_hdr.num_warps;
    o.num_stages = fz_hdr.num_stages;
    o.meta[0].name = "BLOCK";
    o.meta[0].value = fz_hdr.block;
    if (fz_hdr.k) {
        o.meta[1].name = "K";
        o.meta[1].value = fz_hdr.k;
    }
    if (fz_hdr.trouble == 13) {          /* a duplicate, an empty name, a value that is no int */
        int w = fz_hdr.pattern % 3;
        o.meta[1].name = w == 0 ? "BLOCK" : w == 1 ? "" : "K";
        o.meta[1].value = w == 2 ? 1LL << 40 : 4;
    }

    tile_arg args[FZ_NPARAMS];
    int dummy = 0;
    for (int p = 0; p < FZ_NPTR; p++) args[p].p = fz_buf[p];
    int victim = fz_hdr.pattern % FZ_NPTR;
    if (fz_hdr.trouble == 10) args[victim].p = &dummy;
    if (fz_hdr.trouble == 11) args[victim].p = NULL;
    if (fz_hdr.trouble == 12) args[victim].p = (char *)fz_buf[victim] + tile_dtype_size((tl_dtype)(TL_I1 + victim));
    int odd = fz_hdr.trouble == 15;
    args[FZ_NPTR + 0].i = odd ? -1 : fz_hdr.n;
    args[FZ_NPTR + 1].i = odd ? INT64_MIN : (int64_t)fz_hdr.n * 3 - 100;
    args[FZ_NPTR + 2].i = odd ? (int64_t)UINT32_MAX : fz_hdr.n;
    args[FZ_NPTR + 3].i = odd ? -1 : 1;
    args[FZ_NPTR + 4].f = odd ? NAN : fz_hdr.pattern / 8.0;
    args[FZ_NPTR + 5].f = odd ? -INFINITY : -fz_hdr.pattern / 16.0;

    tile_kernel *k = TILE_KERNEL_OF(fz_kernel);
    fz_fill(fz_hdr.pattern);
    fz_nlog = 0;
    tile_clear_error();
    tile_status st = tile_launch_kernel(k, &o, args);
    fz_check_status("the launch", st);
    fz_stats[st]++;
    if (fz_verbose) fprintf(stderr, "   %s\n", st == TILE_OK ? "TILE_ERR_OK" : tile_last_error());
    if (fz_hdr.twice) {                  /* from the cache this time, on the same data */
        fz_fill(fz_hdr.pattern);
        fz_nlog = 0;
        tile_status st2 = tile_launch_kernel(k, &o, args);
        fz_check_status("the second launch", st2);
        if (st2 != st) FZ_BUG("the first launch returned %s, the second %s", tile_status_id(st), tile_status_id(st2));
    }
    if (fz_ptx) fz_check_ptx(&o);
    tile_kernel_release(k);
    if (st != TILE_OK) fz_check_good();
    return 0;
}

static void fz_print_stats(double secs) {
    fprintf(stderr, "fuzz_kernel: %lld inputs in %.1f s:", fz_inputs, secs);
    for (int s = 0; s < TILE_ERR_COUNT_; s++)
        if (fz_stats[s]) fprintf(stderr, " %s %lld", tile_status_id((tile_status)s), fz_stats[s]);
    if (fz_ptx) fprintf(stderr, "; PTX assembled %lld, compile failures %lld, past TILE_MAX_UNROLL %lld", fz_ptx_ok, fz_ptx_fail, fz_ptx_big);
    fprintf(stderr, "\n");
}

#ifdef TILE_FUZZ_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char ***argv);
static double fz_t0;
static void fz_at_exit(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (getenv("TILE_FUZZ_STATS")) fz_print_stats((double)ts.tv_sec + ts.tv_nsec * 1e-9 - fz_t0);
}
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    fz_t0 = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    atexit(fz_at_exit);
    fz_init();
    return 0;
}
#else
/* ---- the plain driver ------------------------------------------------------------------------- */
#include "fuzz_seeds.h"

/* -write-seeds=DIR: the seed corpus, one file per seed */
static int fz_write_seeds(const char *dir) {
    for (size_t i = 0; i < sizeof fz_seeds / sizeof fz_seeds[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, fz_seeds[i].name);
        FILE *fp = fopen(path, "wb");
        if (!fp || fwrite(fz_seeds[i].data, 1, fz_seeds[i].size, fp) != fz_seeds[i].size) {
            fprintf(stderr, "fuzz_kernel: cannot write %s\n", path);
            if (fp) fclose(fp);
            return 1;
        }
        fclose(fp);
    }
    fprintf(stderr, "fuzz_kernel: %d seeds written to %s\n", (int)(sizeof fz_seeds / sizeof fz_seeds[0]), dir);
    return 0;
}
typedef struct fz_input { char *name; uint8_t *data; size_t size; } fz_input;
static fz_input *fz_ins;
static int fz_nins, fz_capins;

static int fz_load_file(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "fuzz_kernel: cannot open %s\n", path);
        return 0;
    }
    uint8_t *d = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *q = (uint8_t *)realloc(d, cap);
            if (!q) break;
            d = q;
        }
        size_t r = fread(d + n, 1, cap - n, fp);
        if (r == 0) break;
        n += r;
    }
    fclose(fp);
    if (fz_nins == fz_capins) {
        fz_capins = fz_capins ? fz_capins * 2 : 64;
        fz_ins = (fz_input *)realloc(fz_ins, (size_t)fz_capins * sizeof *fz_ins);
        if (!fz_ins) return 0;
    }
    fz_ins[fz_nins].name = strdup(path);
    fz_ins[fz_nins].data = d;
    fz_ins[fz_nins].size = n;
    fz_nins++;
    return 1;
}
static int fz_name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
/* a file, or every regular file of a directory in name order; 0 on error */
static int fz_load_path(const char *path) {
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "fuzz_kernel: %s does not exist\n", path);
        return 0;
    }
    if (!S_ISDIR(sb.st_mode)) return fz_load_file(path);
    DIR *dir = opendir(path);
    if (!dir) return 0;
    char **names = NULL;
    int nn = 0, cap = 0, ok = 1;
    for (struct dirent *de; (de = readdir(dir));) {
        if (de->d_name[0] == '.') continue;
        if (nn == cap) {
            cap = cap ? cap * 2 : 64;
            char **q = (char **)realloc(names, (size_t)cap * sizeof *names);
            if (!q) break;
            names = q;
        }
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        names[nn] = (char *)malloc(len);
        if (!names[nn]) break;
        snprintf(names[nn], len, "%s/%s", path, de->d_name);
        nn++;
    }
    closedir(dir);
    qsort(names, (size_t)nn, sizeof *names, fz_name_cmp);
    for (int i = 0; i < nn; i++) {
        if (stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode)) ok &= fz_load_file(names[i]);
        free(names[i]);
    }
    free(names);
    return ok;
}

static uint64_t fz_rng = 0x9e3779b97f4a7c15ull;
static uint64_t fz_rand(void) {   /* xorshift64* */
    fz_rng ^= fz_rng >> 12;
    fz_rng ^= fz_rng << 25;
    fz_rng ^= fz_rng >> 27;
    return fz_rng * 0x2545f4914f6cdd1dull;
}
/* a few random edits of a copy of input `i` (another input spliced in, now and then) */
static size_t fz_mutate(uint8_t *out, size_t cap, int i) {
    size_t n = fz_ins[i].size < cap ? fz_ins[i].size : cap;
    memcpy(out, fz_ins[i].data, n);
    int edits = 1 + (int)(fz_rand() % 4);
    for (int e = 0; e < edits; e++) {
        size_t at = n ? (size_t)(fz_rand() % n) : 0;
        switch (fz_rand() % 6) {
        case 0: if (n) out[at] ^= (uint8_t)(1u << (fz_rand() % 8)); break;
        case 1: if (n) out[at] = (uint8_t)fz_rand(); break;
        case 2:
            if (n < cap) {
                memmove(out + at + 1, out + at, n - at);
                out[at] = (uint8_t)fz_rand();
                n++;
            }
            break;
        case 3:
            if (n > FZ_HDR) {
                memmove(out + at, out + at + 1, n - at - 1);
                n--;
            }
            break;
        case 4: if (n) out[at] = (uint8_t)(fz_rand() % FZ_NOPS); break;
        default: {
            const fz_input *o = &fz_ins[fz_rand() % (uint64_t)fz_nins];
            if (!o->size) break;
            size_t from = (size_t)(fz_rand() % o->size), len = 1 + (size_t)(fz_rand() % 16);
            if (from + len > o->size) len = o->size - from;
            if (at + len > cap) len = cap - at;
            memcpy(out + at, o->data + from, len);
            if (at + len > n) n = at + len;
            break;
        }
        }
    }
    return n;
}
static double fz_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    long long runs = 0;
    double max_time = 0;
    int verbose = getenv("TILE_FUZZ_VERBOSE") != NULL, ok = 1;
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "-runs=", 6) == 0) runs = atoll(argv[a] + 6);
        else if (strncmp(argv[a], "-seed=", 6) == 0) fz_rng = strtoull(argv[a] + 6, NULL, 0) ? strtoull(argv[a] + 6, NULL, 0) : fz_rng;
        else if (strncmp(argv[a], "-max_total_time=", 16) == 0) max_time = atof(argv[a] + 16);
        else if (strncmp(argv[a], "-write-seeds=", 13) == 0) return fz_write_seeds(argv[a] + 13);
        else if (argv[a][0] == '-') {
            fprintf(stderr, "usage: %s [-runs=N] [-seed=S] [-max_total_time=SECONDS] FILE|DIR...\n"
                            "       %s -write-seeds=DIR\n", argv[0], argv[0]);
            return 2;
        } else
            ok &= fz_load_path(argv[a]);
    }
    if (!ok) return 2;
    if (fz_nins == 0) {
        fprintf(stderr, "fuzz_kernel: no inputs\n");
        return 2;
    }
    fz_init();
    double t0 = fz_now();
    int replayed = 0;
    for (; replayed < fz_nins && (max_time <= 0 || fz_now() - t0 < max_time); replayed++) {
        fz_input_name = fz_ins[replayed].name;
        if (verbose) fprintf(stderr, "== %s\n", fz_input_name);
        double t1 = fz_now();
        LLVMFuzzerTestOneInput(fz_ins[replayed].data, fz_ins[replayed].size);
        if (fz_now() - t1 > 20) fprintf(stderr, "fuzz_kernel: %s took %.1f s\n", fz_input_name, fz_now() - t1);
    }
    fprintf(stderr, "fuzz_kernel: %d of %d files replayed\n", replayed, fz_nins);
    static uint8_t buf[4096];
    char name[64];
    for (long long r = 0; r < runs && (max_time <= 0 || fz_now() - t0 < max_time); r++) {
        uint64_t before = fz_rng;
        size_t n = fz_mutate(buf, sizeof buf, (int)(fz_rand() % (uint64_t)fz_nins));
        snprintf(name, sizeof name, "mutation %lld (-seed=%llu)", r, (unsigned long long)before);
        fz_input_name = name;
        LLVMFuzzerTestOneInput(buf, n);
    }
    fz_print_stats(fz_now() - t0);
    for (int i = 0; i < fz_nins; i++) {
        free(fz_ins[i].name);
        free(fz_ins[i].data);
    }
    free(fz_ins);
    return 0;
}
#endif
