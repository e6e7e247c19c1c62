/* tile/emit.h — >>emit: the interface between the lowering and the emitters.

   Why it is shaped this way: the lowering (tile/lower.h) turns tile IR into
   scalar operations on virtual registers and calls an emitter for each; the
   emitters (the CUDA C one in tile/emit_cuda.h, the LLVM one in
   tile_backend_llvm.c) print or build them and know nothing of tiles or
   layouts. This file is all the two sides share, so that the LLVM back end,
   compiled on its own, includes it and the IR (tile/ir.h) and not the
   lowering. */

/* ---- the emitter interface ------------------------------------------------------
   Virtual registers are ints >= 0. Types are tile dtypes; pointers are TL_PTR
   (a byte address). Control flow is structured; loops assign to variables
   made with `var`. */
/* An operand of an inline PTX instruction (the `ptx` hook). Its role: an
   output, an input, or both (an accumulator the instruction updates in
   place: in the text it is the output's $k). Its type: TL_I32 (a b32
   register, "r"), TL_F32 ("f"), TL_I64 ("l") or TL_PTR (a global address,
   "l"). An input's value is made by its form from reg and hi: the register
   itself; the 32-bit shared-window address of shared byte offset reg; a
   wgmma descriptor, hi | (that address) >> 4 & 0x3FFF; a copy size, hi
   where the I1 register reg holds and else 0; or the constant hi. An input
   with tie >= 0 may share output tie's register (the emitter may tie them,
   as LLVM does for mma's accumulators; a copy is just as right). */
typedef struct tile__px {
    int role;                        /* TILE__PX_OUT, TILE__PX_INOUT, TILE__PX_IN      */
    tl_dtype t;
    int form;                        /* inputs: TILE__PXF_*                            */
    int reg;                         /* in: the input register; out: the new one        */
    int tie;                         /* inputs: an output's index, or -1                */
    uint64_t hi;
} tile__px;
enum { TILE__PX_OUT, TILE__PX_INOUT, TILE__PX_IN };
enum { TILE__PXF_REG, TILE__PXF_SMEM, TILE__PXF_DESC, TILE__PXF_SIZE, TILE__PXF_IMM };
enum {
    TILE__PX_VOLATILE = 1,           /* effects beyond its outputs: never removed or merged (CUDA C: asm
                                        volatile; LLVM's inline asm has side effects always) */
    TILE__PX_MEMORY = 2,             /* reads or writes memory the compiler does not see: a memory clobber */
    TILE__PX_CONVERGENT = 4          /* warp-wide: no pass may make it depend on more control flow (LLVM) */
};
#define TILE__PX_MAX 260             /* operands of one instruction, at most (a wait on 256 accumulators) */

/* Every hook, once: X(return type, name, (parameters)). The struct's fields
   and each emitter's table come from this list, and an emitter names its
   functions <prefix>_<hook> (tile__cc_lit, tile__ll_lit, ...), so one that
   lacks a hook does not compile. */
#define TILE__EMITTER_HOOKS(X) \
    X(int, lit, (tile__emitter *, tl_dtype t, tile__elem v))                                                             \
    X(int, special, (tile__emitter *, int which)) /* 0 tid, 1-3 ctaid.xyz, 4-6 nctaid.xyz, 7 the in-kernel scopes' buffer, 8 the kernel clock's slot */ \
    X(int, param, (tile__emitter *, int k))                                                                              \
    X(int, op1, (tile__emitter *, tile__opcode code, tl_dtype t, tl_dtype rt, int a))                                    \
    X(int, op2, (tile__emitter *, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b))                             \
    X(int, op3, (tile__emitter *, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c))                      \
    X(int, op4, (tile__emitter *, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c, int d))               \
    X(int, ptr_add, (tile__emitter *, int p, int off, tl_dtype off_t, int elem_bytes))                                   \
    X(int, round_tf32, (tile__emitter *, int v)) /* an f32 rounded to tf32 (10 fraction bits, to even) */                \
    /* n consecutive elements of dtype t at ptr (n * size <= 16 bytes, aligned), under pred (-1: none) */                \
    X(void, load, (tile__emitter *, tl_dtype t, int n, int ptr, int pred, const int *other, int *out, int cache, int evict)) \
    X(void, store, (tile__emitter *, tl_dtype t, int n, int ptr, int pred, const int *vals, int cache, int evict))       \
    X(int, atomic, (tile__emitter *, int kind, tl_dtype t, int ptr, int val, int pred, int sem, int scope))              \
    X(int, cas, (tile__emitter *, tl_dtype t, int ptr, int cmp, int val, int pred, int sem, int scope))                  \
    X(int, shfl_xor, (tile__emitter *, tl_dtype t, int v, int lane_mask))                                                \
    X(void, smem_store, (tile__emitter *, tl_dtype t, int byte_off, int v))                                              \
    X(int, smem_load, (tile__emitter *, tl_dtype t, int byte_off))                                                       \
    X(void, barrier, (tile__emitter *))                                                                                  \
    X(int, var, (tile__emitter *, tl_dtype t, int init))                                                                 \
    X(void, assign, (tile__emitter *, int var, int v))                                                                   \
    X(void, for_begin, (tile__emitter *, tl_dtype t, int iv_var, int lo, int hi, int step))                              \
    X(void, for_end, (tile__emitter *))                                                                                  \
    X(void, if_begin, (tile__emitter *, int cond))                                                                       \
    X(void, if_else, (tile__emitter *))                                                                                  \
    X(void, if_end, (tile__emitter *))                                                                                   \
    X(void, loop_begin, (tile__emitter *))                                                                               \
    X(void, break_unless, (tile__emitter *, int cond))                                                                   \
    X(void, loop_end, (tile__emitter *))                                                                                 \
    /* print one element: the program ids, its index in the tile (rank                                                   \
       ints); v -1: the prefix alone, no element */                                                                      \
    X(void, print, (tile__emitter *, const char *prefix, int rank, const int *idx, tl_dtype t, int v, int pred))         \
    /* where cond is false: record a failure of the kernel (TILE__CHECK_*                                                \
       `kind`, check `id`: the op's index, `line`) for the launch to report,                                             \
       and go on */                                                                                                      \
    X(void, check, (tile__emitter *, int cond, int kind, int id, const char *msg, const char *file, int line))           \
    /* One inline PTX instruction (tile/ptx.h has every one the lowering                                              \
       uses, written once for both emitters): `text` names operand k as $k                                              \
       (outputs first, then inputs, in ops' order) and has $U where a                                                   \
       label must be unique in the kernel; flags are TILE__PX_*. Each                                                   \
       output's reg is set to a new register. */                                                                        \
    X(void, ptx, (tile__emitter *, const char *text, int flags, int n, tile__px *ops))

typedef struct tile__emitter tile__emitter;
#define TILE__EMITTER_FIELD(ret, name, params) ret(*name) params;
struct tile__emitter {
    TILE__EMITTER_HOOKS(TILE__EMITTER_FIELD)
};
enum { TILE__WG_FENCE, TILE__WG_COMMIT, TILE__WG_WAIT, TILE__WG_PROXY };
/* A failed device check writes the kernel's record (the hidden last
   parameter; the first failure of a launch wins): {kind, line, check (the
   op's index), program x, y, z, 0, 0}. The kind, not the message, tells the
   library's own check from a user's. A compiled kernel's has_assert says
   which kinds it has: a user's assert makes the launch wait for it. */
enum { TILE__CHECK_ASSERT = 1, TILE__CHECK_STEP = 2 };   /* tl_device_assert; a TL_FOR step <= 0 */
enum { TILE__CHECK_ASSUME = 3 };   /* tl_assume: no check, cond handed to the compiler as a fact */
enum { TILE__HAS_USER_CHECK = 1, TILE__HAS_LIB_CHECK = 2 };
enum { TILE__REC_INTS = 8 };
/* hopper modes of tile__lower_func: no wgmma; wgmma, each tl_dot waiting
   for its own; wgmma kept in flight across iterations where the emitter
   allows it (tile__async_dot) */
enum { TILE__HOPPER_OFF, TILE__HOPPER_WAIT, TILE__HOPPER_ASYNC };
/* the tensor-core instructions the lowering uses (all .row.col, .aligned) */
enum {
    TILE__MMA_F16,     /* mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32   */
    TILE__MMA_BF16,    /* mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 */
    TILE__MMA_TF32,    /* mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32  */
    TILE__MMA_I8       /* mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 (wrapping) */
};

/* ---- one configuration in, one record out ---------------------------------------
   tile__config is every choice a compile depends on, resolved once from the
   launch options, the knobs and the target (tile__resolve in
   tile/runtime.h, which holds every default), passed by pointer to each
   stage and hashed whole for the caches. tile__kernel_meta is what the
   compile hands back and the disk cache stores beside the code: the launch
   reads its block size from it, not from num_warps. */
#define TILE__MAX_PARAMS 64          /* parameters a kernel may have; each can be specialized */
typedef struct tile__config {
    char arch[32];                   /* the target: "sm_90a", "sm_80"                       */
    int num_warps;                   /* warps per program (>= 1)                            */
    int num_stages;                  /* stages of a pipelined TL_FOR (>= 1)                 */
    int hopper;                      /* TILE__HOPPER_*: TILE_WGMMA on sm_90a, else OFF      */
    uint64_t spec16;                 /* bit p: parameter p is divisible by 16 (a pointer: its address) */
    uint64_t spec1;                  /* bit p: integer parameter p is 1 (it becomes the constant)       */
    int prof;                        /* >>profile: TILE__KPROF_*: in-kernel scopes recorded per warp or
                                        warpgroup (a profile runs), else compiled out                  */
    int ktime;                       /* >>profile: 1: the kernel times itself (a profile timing by the
                                        kernel clock runs): one more hidden parameter, last            */
} tile__config;
/* >>profile: the records of in-kernel scopes (tl_profile_enter/exit). A
   kernel compiled with them takes one more hidden parameter, last: its
   launch's buffer, a 64-byte header {u32 programs recorded, u32 slots per
   unit, u32 units per program, u32 records dropped (a unit's slots were
   full)} and then, for program p (x + y * nx + z * nx * ny) below the
   recorded count, unit u (its warp, or warpgroup) and slot s, the record at
   64 + ((p * units + u) * slots + s) * 24: {u32 tag: the scope's index
   among the kernel's scope names (tile__kprof_names) << 1 | exit, u32 the
   SM, u64 %globaltimer (ns), u64 %clock64}. The first thread of the unit
   writes it; the interpreter writes the same layout with the host clock. */
enum { TILE__KPROF_OFF, TILE__KPROF_WARP, TILE__KPROF_WARPGROUP };
enum { TILE__KPROF_HEAD = 64, TILE__KPROF_REC = 24 };
/* >>profile: a kernel compiled to time itself (the config's ktime) takes a
   hidden parameter after everything else: its launch's slot, the word of
   the launch in a ring of TILE__KTIME_RING launches, zero before the
   launch. The word is the start, %globaltimer (ns) at thread 0 of program
   (0,0,0) (the first dispatched). The ends go into lanes: thread 0 of each
   program, after a barrier of the program's threads at the kernel's end,
   reduces its %globaltimer (max) into lane %smid mod TILE__KTIME_LANES, at
   (1 + lane) * TILE__KTIME_LANE_STRIDE bytes from the slot; the end is the
   lanes' max. A ring is 1 + TILE__KTIME_LANES arrays of a word per launch,
   each a line longer than the last so that one launch's lanes fall on
   different lines (the reductions of thousands of programs queued on one
   address, or one line, made a memory-bound kernel 1.5x, or 1.03x, slower
   on the H200; on lines apart, no slower) at 8 bytes a lane a launch. */
enum { TILE__KTIME_LANES = 32, TILE__KTIME_RING = 65536, TILE__KTIME_LANE_STRIDE = TILE__KTIME_RING * 8 + 128 };
/* >>tma: a tensor map the launch encodes (cuTensorMapEncodeTiled) and
   passes as a 128-byte, 64-aligned __grid_constant__ parameter after the
   record: what its MAKE_DESC's base, shape and strides are (a parameter's
   index, or -1 and the constant), the element dtype, the box the copies
   move (innermost dim first, as the copy engine counts) and the swizzle. */
#define TILE__MAX_TMAPS 8
typedef struct tile__tmap_info {
    int32_t rank, dtype, swizzle;    /* swizzle: CUtensorMapSwizzle (3: 128 bytes)          */
    int32_t line;                    /* the tl_make_tensor_descriptor's, for errors         */
    int32_t box[5];
    int32_t src[11];                 /* base, shape x rank, strides x rank (outermost first) */
    int64_t cval[11];
} tile__tmap_info;
typedef struct tile__kernel_meta {
    int nthreads;                    /* threads per program: the launch's block             */
    size_t smem;                     /* dynamic shared memory bytes                         */
    int has_assert;                  /* its device checks: TILE__HAS_*_CHECK bits           */
    int cluster[3];                  /* programs per cluster (1, 1, 1 today)                */
    int maxnreg;                     /* registers per thread at most; 0: the compiler's choice */
    int ntmaps;                      /* tensor-map parameters after the record              */
    tile__tmap_info tmaps[TILE__MAX_TMAPS];
} tile__kernel_meta;
