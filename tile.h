/* tile.h — GPU kernels in C, in the SPMD tile style of OpenAI Triton.

   USAGE
     In exactly one C file of your program:
         #define TILE_IMPLEMENTATION
         #include "tile.h"
     everywhere else just #include "tile.h". Link with -ldl -lm -lpthread.
     The implementation is C11; the declarations (and this manual) also
     compile as C++.
     Add tile_backend_llvm.c to the build to compile kernels through LLVM's
     NVPTX target (a libLLVM >= 15 opened at run time; NVRTC otherwise).

   A KERNEL
       TILE_KERNEL(add_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y),
                               (tl_ptr_f32, out), (tl_i32, n))
       {
           int  BLOCK = TL_META(BLOCK);              // a plain C int
           tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
           tl_t mask  = tl_lt(offs, n);
           tl_t sum   = tl_add(tl_load(tl_add(x, offs), .mask = mask),
                               tl_load(tl_add(y, offs), .mask = mask));
           tl_store(tl_add(out, offs), sum, .mask = mask);
       }

     TILE_KERNEL defines two things: the body, which *builds* the kernel's
     IR when it runs (every tl_* call records an op; nothing is computed
     on the host), and a host launcher with the kernel's own C parameter
     types:
       tile_status add_kernel(const tile_launch *opts,
                              float *x, float *y, float *out, int32_t n);
     Launch it with options built by TILE_OPTS (zero means default):
       add_kernel(TILE_OPTS(.grid = {tile_cdiv(n, 1024)},
                            .meta = {{"BLOCK", 1024}}), x, y, out, n);

   THE LANGUAGE is in tile_lang.h (included by this file): tl_* ops with
   Triton's semantics, TL_FOR / TL_IF / TL_ELSE / TL_WHILE for runtime
   control flow, TL_META for meta-parameters.

   ERRORS: every public call returns a tile_status (or NULL); the message,
   with an error id and the user's file:line, is in tile_last_error().
   Nothing here exits the program. Errors are also printed to stderr
   unless TILE_QUIET=1 or tile_set_log() says otherwise. A NULL kernel,
   argument array, out-pointer or host buffer is TILE_ERR_VALUE; NULL
   launch options are all defaults. On the GPU a failed tl_device_assert
   or TL_FOR step check is reported for its own kernel and line when its
   launch is known to have finished: right away when the launch waits
   (TILE_SYNC, user asserts), else by the next launch, tile_synchronize,
   stream or event synchronize, or tile_memcpy_dtoh.

   MEMORY: host allocations of the IR, the builder, the passes, the
   interpreter, the lowering and the CUDA C emitter go through
   TILE_MALLOC(size), TILE_REALLOC(ptr, size) and TILE_FREE(ptr) (malloc,
   realloc, free by default); define all three before the implementation
   to use your own. A failed allocation is TILE_ERR_NOMEM from the call
   that needed it, never an abort.

   GPU: with an NVIDIA driver and NVRTC (both dlopen'ed), kernels are lowered
   to CUDA C, compiled to PTX and launched on the device; without them they
   run in the interpreter. tile_malloc gives device memory then; move data
   with tile_memcpy_htod/dtoh.

   KNOBS (environment variables, read once; the table is tile/knobs.h, and
   TILE_DUMP=knobs prints it with the values in use). A bad value of any knob
   is one notice naming it, and the knob keeps its default; TILE_ARCH is
   checked against the back end in use, and only where it applies.
     TILE_BACKEND=llvm|nvrtc|interp: the back end: llvm when
       tile_backend_llvm.c is linked and a libLLVM loads, else nvrtc on a GPU,
       else interp (default: llvm, nvrtc or interp)
     TILE_INTERPRET=1: run every kernel in the interpreter, even on a GPU
       (default: 0)
     TILE_INTERPRET_DEVICES=1..16: the devices the interpreter presents to
       tile_set_device, so that code for several GPUs runs and is checked
       without them (default: 1)
     TILE_DUMP=ir,ttgir,cuda,llir,ptx,times,knobs: print these stages to
       stderr, or to TILE_DUMP_DIR/<kernel>.<stage>
     TILE_DUMP_DIR=<dir>: where TILE_DUMP writes, and NVRTC's failing source
     TILE_ARCH=sm_80|sm_90a|...: the target without a GPU (with one, the
       GPU's) (default: sm_90a)
     TILE_SYNC=1: every launch waits for its kernel and reports its errors
       (default: 0)
     TILE_MANAGED=1: tile_malloc hands out unified memory the host can touch
       (default: 0)
     TILE_WGMMA=0|1|wait: tl_dot on sm_90a: 0 mma.sync; 1 wgmma, kept in
       flight; wait: each waited for (default: 1)
     TILE_TMA=0|1: tensor-descriptor loads of a pipelined tl_dot, and stores
       of rows of whole 16-byte chunks, on sm_90a: 1 the copy engine (TMA); 0
       pointer accesses (default: 1)
     TILE_TMA_REDUCE=0|1: tl_desc_atomic_add/min/max and stores of 32-bit
       blocks on sm_90a: 1 the copy engine (a block at a negative coordinate
       or off a 16-byte column, which an H100 refuses, element by element); 0
       pointer atomics and stores (default: 1)
     TILE_QUIET=1: no errors or notices on stderr (default: 0)
     TILE_STRICT=1: a loop option the compiler cannot apply is an error
       (TILE_ERR_OPTION), not a notice (default: 0)
     TILE_MAX_UNROLL=<n>: the most tile elements one thread's code may hold,
       summed over a kernel's ops (TILE_DUMP=ttgir prints it); past it
       TILE_ERR_BLOCK, not a compile of tens of seconds (default: 16384)
     TILE_DEBUG=1: NVRTC emits line info (-lineinfo) (default: 0)
     TILE_MERGE=0|1: the lowering hands the back end each repeated index
       computation once (NVRTC compiles a large matmul 5-13x faster); 0: once
       per element, as before (default: 1)
     TILE_CUDA=<path>: the CUDA driver library
     TILE_NVRTC=<path>: the NVRTC library
     TILE_JITLINK=1: PTX to cubin through the toolkit's libnvJitLink where it
       loads, in the compiling thread, so a tuner's configs assemble side by
       side (the driver's JIT takes them one at a time); its code can be
       slower than the driver's (default: 0)
     TILE_DEVICE=<n>: the GPU of every thread that has not called
       tile_set_device (default: 0)
     CUDA_HOME=<dir>: where NVRTC and libdevice are looked for
     CUDA_PATH=<dir>: where NVRTC and libdevice are looked for, after
       CUDA_HOME
     TILE_CACHE=0|1: the disk cache of tuned configs and compiled kernels
       (default: 1)
     TILE_CACHE_DIR=<dir>: the disk cache's directory (default:
       $XDG_CACHE_HOME/tile or ~/.cache/tile)
     XDG_CACHE_HOME=<dir>: the disk cache is its tile/ when TILE_CACHE_DIR is
       unset
     HOME=<dir>: the disk cache is its .cache/tile when neither of those is
       set
     TILE_EXPORT=<dir>: write every kernel variant compiled and every tuner
       winner picked to <dir>, as C files for a TILE_AOT build
     TILE_EXPORT_ARCH=sm_80,sm_90a,...: with TILE_EXPORT: each variant also as
       PTX for these targets
     TILE_AOT_ONLY=1: in a TILE_AOT build, a variant or tuner key the tables
       lack is an error (TILE_ERR_COMPILE), not compiled (default: 0)
     TILE_AUTOTUNE_VERBOSE=1: the tuner prints each config's time, the cache
       what it does (default: 0)
     TMPDIR=<dir>: NVRTC's failing source, without TILE_DUMP_DIR or a cache
       directory (default: /tmp)
     TILE_LLVM=<path>: the libLLVM of the LLVM back end (tile_backend_llvm.c)
     TILE_LLVM_OPT=1|2|3: the LLVM back end's optimizer, default<O1>, <O2> or
       <O3> (O1 compiles a large matmul an eighth faster than O3 and its
       kernels run as fast) (default: 1)
     TILE_LLVM_CODEGEN=0|1|2|3: the LLVM back end's code generator level,
       None, Less, Default or Aggressive (Default emits a large kernel's PTX a
       third faster than Aggressive) (default: 2)
     TILE_PROFILE=<path>|-: profile the whole program: the report at its end,
       in <path>.txt/.json/.html (- : the tree on stderr)
     TILE_CUPTI=<path>|0: the CUPTI library a profile reads kernel times from;
       0: CUDA events around each launch instead
     TILE_NVTX=<path>|0: the NVTX library (libnvtx3interop, libnvToolsExt)
       that makes a profile's scopes and launches Nsight ranges; 0: none

   SECTIONS (grep for the tag), in the layers' order
     >>api       public types and functions (this file)
     >>lang      the kernel language                      tile_lang.h
     >>knobs     the environment, read once               tile/knobs.h
     >>ir        op table, types, values, regions         tile/ir.h
     >>build     tracing: tl_* ops build the IR           tile/build.h
     >>passes    verify, fold, CSE, DCE, printer          tile/passes.h
     >>emit      the emitter interface, config, metadata  tile/emit.h
     >>ptx       the special instructions, as inline PTX  tile/ptx.h
     >>plan      layouts, alignment, schedules (ttgir)    tile/plan.h
     >>lower     the lowering through an emitter          tile/lower.h
     >>lower_sm80  mma.sync, ldmatrix, the cp.async ring    tile/lower_sm80.h
     >>lower_sm90  wgmma, the lowering's entry              tile/lower_sm90.h
     >>emit_cuda the CUDA C emitter (NVRTC)               tile/emit_cuda.h
     >>cuda      the driver and NVRTC, loaded at run time tile/cuda.h
     >>device    GPU or interpreter, memory, streams      tile/device.h
     >>interp    the CPU interpreter                      tile/interp.h
     >>cache     the disk cache, a compiled variant       tile/cache.h
     >>compile   the pipeline, one stage per line         tile/compile.h
     >>profile   profiles, scopes, launch records         tile/profile.h
     >>runtime   kernel entries, variants, the launch     tile/runtime.h
     >>autotune  configs, do_bench, the tuning cache     tile_autotune.h
     >>launch    the public entry points                  tile/launch.h
*/
#ifndef TILE_H
#define TILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* >>api ------------------------------------------------------------------ */

#define TILE_VERSION_MAJOR 0
#define TILE_VERSION_MINOR 2
#define TILE_VERSION_PATCH 0
#define TILE_VERSION_STRING "0.2.0"

/* Every error the library reports has one of these ids. Tests assert on the
   id (tile_last_error_info()->status), never on the wording. */
#define TILE_ERRORS(X)                                                              \
    X(OK,        "success")                                                         \
    X(SHAPE,     "shapes do not match or do not broadcast")                         \
    X(DTYPE,     "a dtype is not allowed here")                                     \
    X(BLOCK,     "a block dimension is not a power of two, or a tile is too large") \
    X(AXIS,      "an axis or permutation is out of range")                          \
    X(VALUE,     "an argument has an invalid value")                                \
    X(SCOPE,     "a value is used outside the region that made it")                 \
    X(ARITY,     "wrong number of arguments or values")                             \
    X(CARRY,     "a carried value changes type in a loop or branch")                \
    X(META,      "a meta-parameter is missing or invalid")                          \
    X(CONTROL,   "malformed runtime control flow")                                  \
    X(CONTEXT,   "a tl_* op was called outside a kernel being built")               \
    X(ARG,       "a bad kernel argument")                                           \
    X(LAUNCH,    "bad launch options")                                              \
    X(OOB,       "a memory access outside every allocation")                        \
    X(ASSERT,    "a device assertion failed")                                       \
    X(NOMEM,     "out of memory")                                                   \
    X(NODEVICE,  "no usable device or back end")                                    \
    X(DRIVER,    "a driver call failed")                                            \
    X(COMPILE,   "a kernel failed to compile")                                      \
    X(OPTION,    "a loop option cannot be applied (TILE_STRICT=1)")                  \
    X(PROFILE,   "a profile or scope is misused: nesting, format, path")            \
    X(INTERNAL,  "an internal error (a bug in tile)")                                \
    X(DEVICE,    "no such device, or a stream or buffer of another device")

typedef enum tile_status {
#define TILE__ENUM_ERR(id, text) TILE_ERR_##id,
    TILE_ERRORS(TILE__ENUM_ERR)
#undef TILE__ENUM_ERR
    TILE_ERR_COUNT_
} tile_status;
#define TILE_OK TILE_ERR_OK

/* The most recent error of the calling thread. */
typedef struct tile_error {
    tile_status status;     /* TILE_ERR_*                                      */
    const char *id;         /* "TILE_ERR_SHAPE"                                */
    char kernel[64];        /* kernel name, "" when none                       */
    char file[256];         /* the user's file ("" when unknown)               */
    int line;               /* the user's line (0 when unknown)                */
    char message[1024];     /* the whole formatted message                     */
} tile_error;

const char       *tile_last_error(void);        /* "" when none               */
const tile_error *tile_last_error_info(void);
void              tile_clear_error(void);
const char       *tile_status_id(tile_status s); /* "TILE_ERR_SHAPE"          */
const char       *tile_status_text(tile_status s);
/* Where error messages go; NULL restores the default (stderr unless
   TILE_QUIET=1). */
typedef void (*tile_log_fn)(const tile_error *err, void *user);
void tile_set_log(tile_log_fn fn, void *user);

/* Element types. Pointers are TL_PTR with a pointee; tensor descriptors
   TL_DESC with their element type. */
typedef enum tl_dtype {
    TL_VOID = 0,
    TL_I1, TL_I8, TL_I16, TL_I32, TL_I64,
    TL_U8, TL_U16, TL_U32, TL_U64,
    TL_F16, TL_BF16, TL_F32, TL_F64, TL_F8E4M3, TL_F8E5M2,
    TL_F8E4B15,                  /* Triton's float8e4b15: bias 15, no inf/NaN, at most 1.75 */
    TL_F8E4B8, TL_F8E5B16,       /* e4m3fnuz, e5m2fnuz (Triton's float8e4b8, float8e5b16) */
    TL_PTR,
    TL_DESC,                     /* a tensor descriptor (tl_make_tensor_descriptor) */
    TL_DTYPE_COUNT_
} tl_dtype;
const char *tile_dtype_name(tl_dtype t);   /* "f32"                           */
size_t      tile_dtype_size(tl_dtype t);   /* bytes in memory (i1: 1)         */

/* Host-side storage of the narrow float types: distinct types so that a
   kernel taking tl_ptr_f16 cannot be handed a bf16 array. */
typedef struct tile_f16    { uint16_t bits; } tile_f16;
typedef struct tile_bf16   { uint16_t bits; } tile_bf16;
typedef struct tile_f8e4m3 { uint8_t bits; } tile_f8e4m3;
typedef struct tile_f8e5m2 { uint8_t bits; } tile_f8e5m2;
typedef struct tile_f8e4b15 { uint8_t bits; } tile_f8e4b15;
typedef struct tile_f8e4b8 { uint8_t bits; } tile_f8e4b8;
typedef struct tile_f8e5b16 { uint8_t bits; } tile_f8e5b16;
/* Conversions with round-to-nearest-even (f8: saturating to the largest
   finite value, as the GPU's cvt.rn.satfinite), except f8e4b15, which
   rounds ties away from zero and saturates at 1.75, as Triton's
   conversion on NVIDIA GPUs does (a NaN gives +1.75). The fnuz formats
   (f8e4b8, f8e5b16) have one NaN, 0x80, which infinities also become, and
   no negative zero. */
tile_f16    tile_f16_from(double x);
tile_bf16   tile_bf16_from(double x);
tile_f8e4m3 tile_f8e4m3_from(double x);
tile_f8e5m2 tile_f8e5m2_from(double x);
tile_f8e4b15 tile_f8e4b15_from(double x);
tile_f8e4b8 tile_f8e4b8_from(double x);
tile_f8e5b16 tile_f8e5b16_from(double x);
double      tile_f16_to(tile_f16 x);
double      tile_bf16_to(tile_bf16 x);
double      tile_f8e4m3_to(tile_f8e4m3 x);
double      tile_f8e5m2_to(tile_f8e5m2 x);
double      tile_f8e4b15_to(tile_f8e4b15 x);
double      tile_f8e4b8_to(tile_f8e4b8 x);
double      tile_f8e5b16_to(tile_f8e5b16 x);
/* Round a double to the nearest value of a float dtype (integers: wrap). */
double      tile_round_to(tl_dtype t, double x);

/* A traced value: a handle into the kernel being built. {0} is "none".
   `build` tells one build's handles from another's. */
typedef struct tl_t { int32_t id; uint32_t build; } tl_t;

#define TILE_MAX_META 16
typedef struct tile_meta { const char *name; long long value; } tile_meta;

struct tile_autotuner;            /* tile_autotune.h */
/* Launch options; zero means default. Build them with TILE_OPTS so that
   errors can name the launch line. */
typedef struct tile_launch {
    unsigned grid[3];            /* programs per axis (0: 1)                  */
    tile_meta meta[TILE_MAX_META]; /* meta-parameters, {"BLOCK", 1024}        */
    int num_warps;               /* 0: 4                                      */
    int num_stages;              /* 0: 3                                      */
    void *stream;                /* a CUstream; NULL: the default stream      */
    struct tile_autotuner *tune; /* tune meta, num_warps, num_stages (tile_autotune.h) */
    const char *file;            /* the launch site, set by TILE_OPTS         */
    int line;
    double flops, bytes;         /* the launch's work, for the profiler (0: the
                                    kernel's metrics function, or none)       */
} tile_launch;
#define TILE_OPTS(...) (&(tile_launch){.file = __FILE__, .line = __LINE__, __VA_ARGS__})

/* One kernel parameter as the launcher passes it: p, i or f by the
   parameter's dtype; elem is the pointee of an untyped pointer parameter
   (tl_ptr, which TILE_PTR fills) and is read for no other. */
typedef struct tile_arg {
    union { void *p; int64_t i; double f; };
    tl_dtype elem;
} tile_arg;
/* A tensor descriptor made on the host (Triton's TensorDescriptor): the
   argument of a tl_desc kernel parameter, which the kernel uses as it uses
   one from tl_make_tensor_descriptor (tl_desc_load, tl_desc_store,
   tl_desc_atomic_*). The base, shape and strides are arguments (a launch
   with other values runs the same compiled kernel, its tensor map encoded
   for them on the host); the dtype, rank and block shape specialize the
   kernel. A block dim of 0 takes the launch's meta-parameter named in
   block_meta (so that an autotuned kernel's configs set the block, as
   Triton's pre_hook sets block_shape):
       tile_tensor_desc a_desc = {.base = a, .dtype = TL_F16, .rank = 2, .shape = {M, K},
                                  .strides = {K, 1}, .block_meta = {"BLOCK_M", "BLOCK_K"}};
   Rules (checked at the launch's line): rank 1 to 5, the last stride 1,
   shape and strides within i32, and the copy engine's rules of
   tl_make_tensor_descriptor. The kernel reads the struct during the launch
   call only. */
typedef struct tile_tensor_desc {
    void *base;                  /* the tensor's first element (device memory)       */
    tl_dtype dtype;              /* its elements' dtype                              */
    int rank;                    /* 1 to 5                                           */
    int64_t shape[5];            /* elements per dim, outermost first               */
    int64_t strides[5];          /* elements between neighbours per dim; the last 1 */
    int block[5];                /* the block one access moves                       */
    const char *block_meta[5];   /* where block[d] is 0: the meta-parameter giving it */
} tile_tensor_desc;
/* A pointer with its element dtype: the argument of a tl_ptr parameter,
   whose dtype is given at launch and specializes the kernel (as Triton
   specializes on a tensor's dtype). Make one with TILE_PTR. */
typedef struct tile_ptr { void *p; tl_dtype dtype; } tile_ptr;
static inline tile_ptr tile_ptr_of(const void *p, tl_dtype dtype) {
    tile_ptr r;
    r.p = (void *)(uintptr_t)p;
    r.dtype = dtype;
    return r;
}
typedef struct tile_param { const char *name; tl_dtype dtype; tl_dtype elem; } tile_param;

/* What TILE_KERNEL defines for each kernel; `state` is the library's cache. */
typedef struct tile_kernel {
    const char *name;
    const char *file;
    int line;
    int nparams;
    const tile_param *params;
    void (*body)(const tl_t *args);
    void (*launch)(void);       /* the typed launcher, type-erased          */
    void *state;
} tile_kernel;

tile_status tile_launch_kernel(tile_kernel *k, const tile_launch *opts, const tile_arg *args);
/* Build (trace, verify, optimize) a kernel for the given meta-parameters and
   return its IR as text; free the text with tile_free_text. */
tile_status tile_kernel_ir(tile_kernel *k, const tile_launch *opts, char **text);
void        tile_free_text(char *text);
/* Compile a kernel to PTX for `arch` ("sm_90a", "sm_80"; NULL: the device's,
   else TILE_ARCH, else sm_90a) through LLVM when tile_backend_llvm.c is linked
   in and loads, else NVRTC, with no GPU needed; free the text with
   tile_free_text. Pointer arguments are assumed 16-byte aligned. */
tile_status tile_kernel_ptx(tile_kernel *k, const tile_launch *opts, const char *arch, char **ptx);
/* The same for the arguments of one launch (args as the launcher passes
   them): the dtypes of untyped pointer parameters (tl_ptr) come from them,
   and the PTX is specialized as a launch with them would be. A kernel with
   a tl_ptr parameter needs these. */
tile_status tile_kernel_ir_for(tile_kernel *k, const tile_launch *opts, const tile_arg *args, char **text);
tile_status tile_kernel_ptx_for(tile_kernel *k, const tile_launch *opts, const tile_arg *args, const char *arch, char **ptx);
/* Free everything cached for a kernel (its built IR for every meta key, its
   modules on every device). No launch of it may be in flight on another
   thread meanwhile. */
void        tile_kernel_release(tile_kernel *k);

/* Memory. In interpreter mode these are host memory; every pointer a kernel
   touches must come from tile_malloc (out-of-bounds lanes are reported).
   A copy or memset of 0 bytes does nothing, whatever the pointers. */
void       *tile_malloc(size_t bytes);            /* NULL on failure (NOMEM)  */
tile_status tile_free(void *p);                   /* NULL is fine             */
tile_status tile_memcpy_htod(void *dst, const void *src, size_t bytes);
tile_status tile_memcpy_dtoh(void *dst, const void *src, size_t bytes);
/* (also between the memory of two devices: a peer copy) */
tile_status tile_memcpy_dtod(void *dst, const void *src, size_t bytes);
tile_status tile_memset(void *dst, int byte, size_t bytes);
/* waits for the work of this thread's device */
tile_status tile_synchronize(void);

/* Devices, streams and events. On the GPU a tile_stream is the driver's
   CUstream and a tile_event its CUevent (a tile_stream goes in
   tile_launch.stream; NULL means the default stream), so they mix with other
   CUDA code. In the interpreter every call has finished when it returns,
   streams are placeholders and events read the host's monotonic clock. */
typedef struct tile_stream_s *tile_stream;
typedef struct tile_event_s *tile_event;
int         tile_device_count(void);                /* 0 without a driver      */
/* The multiprocessors of the GPU kernels run on (132 on an H100 SXM and an
   H200): the grid of a persistent kernel. In the interpreter, 4. */
int         tile_device_sm_count(void);
tile_status tile_device_name(char *buf, size_t n);  /* where kernels run (cut to n-1) */
/* Several devices. Each host thread works on one device at a time: its
   tile_malloc, streams, events, launches and tile_synchronize go there
   (until tile_set_device, on a GPU TILE_DEVICE's, else 0). Kernels are compiled
   once per architecture and loaded on each device that launches them;
   tuners' results are kept per device name. A stream of another device
   (checked once two devices are in use) or a pointer argument to another
   device's memory is TILE_ERR_DEVICE at the launch's line, unless
   tile_device_enable_peer made that memory reachable; copies and
   tile_free run on the device that owns the memory, tile_memcpy_dtod
   also between devices. Without a GPU the interpreter presents
   TILE_INTERPRET_DEVICES devices (default 1), with the same checks. */
/* TILE_ERR_DEVICE: no such device; TILE_ERR_NODEVICE: it cannot be used (why) */
tile_status tile_set_device(int device);
int         tile_get_device(void);
/* kernels on this thread's device may then read and write `peer`'s memory
   (NVLink or PCIe peer access; TILE_ERR_DEVICE where there is no path) */
tile_status tile_device_enable_peer(int peer);
tile_status tile_stream_create(tile_stream *s);
tile_status tile_stream_destroy(tile_stream s);     /* NULL is fine            */
tile_status tile_stream_synchronize(tile_stream s); /* NULL: the default stream */
tile_status tile_event_create(tile_event *e);
tile_status tile_event_record(tile_event e, tile_stream s);
tile_status tile_event_synchronize(tile_event e);
tile_status tile_event_elapsed_ms(tile_event start, tile_event end, float *ms);
tile_status tile_event_destroy(tile_event e);       /* NULL is fine            */

/* CUDA graphs. Between tile_graph_begin(s) and tile_graph_end(s, &g) the
   launches made on stream s (not NULL) are recorded, not run; each
   tile_graph_launch(g, stream) then runs them all again, in order, for
   the host cost of one call (on a GPU: the driver's stream capture and one
   cuGraphLaunch). The arguments are the recorded ones: change the memory
   they point to, or the arguments with tile_graph_set_args. During a capture, launch only on s and
   do not wait on s or on the default stream (no tile_memcpy_dtoh,
   tile_synchronize); a launch through a tuner must have been tuned for its
   arguments before (tuning runs kernels), and on a GPU a kernel with device
   checks (tl_device_assert) cannot be captured. A profile does not record
   captured launches. In the interpreter a graph keeps its launches and
   replays them one by one. */
typedef struct tile_graph_s *tile_graph;
tile_status tile_graph_begin(tile_stream s);
tile_status tile_graph_end(tile_stream s, tile_graph *graph);
tile_status tile_graph_launch(tile_graph graph, tile_stream s);
tile_status tile_graph_destroy(tile_graph graph);   /* NULL is fine            */
/* Change the arguments of launch i (counted from 0, in the order captured)
   for the graph's later replays, without capturing it again (on a GPU the
   driver's cuGraphExecKernelNodeSetParams). The launch keeps its kernel,
   grid and options, and the variant it was compiled as: arguments that
   would need another variant (alignment to 16 bytes, an integer equal to 1
   or divisible by 16, a tl_ptr's dtype, as the first launch specialized
   them) are TILE_ERR_ARG at the captured launch's line. */
tile_status tile_graph_set_args(tile_graph graph, int i, const tile_arg *args);

/* "interp", "nvrtc" or "llvm": where kernels run and how they compile. */
const char *tile_backend_name(void);

/* >>cache: the disk cache (tile/cache.h) ---------------------------------------------------------------- */
typedef struct tile_cache_stats {
    long compiles;           /* variants compiled in this process (once each, however
                                many threads need one at the same time)            */
    long kernel_loads;       /* variants loaded from the disk cache                */
    long kernel_stores;
    long tunings;            /* keys tuned (configs timed)                         */
    long tune_loads;         /* keys whose winner came from the disk cache         */
    long tune_stores;
    long configs_timed;
    long rejected;           /* cache files ignored: truncated, corrupt, foreign,
                                not a regular file, not this user's, writable by
                                others, or not for the kernel asked for            */
    long lowerings;          /* kernels lowered to CUDA C or LLVM IR: once per
                                variant compiled or loaded from the disk cache
                                (its key is what the lowering made), and once per
                                TILE_DUMP or tile_kernel_ptx                       */
    long aot_loads;          /* >>aot: variants and tuner winners a TILE_AOT build
                                took from its tables                               */
    long aot_misses;         /* and those it looked for there and did not find     */
    long configs_stopped;    /* of configs_timed, those a tuner's .cutoff stopped
                                after their first runs                            */
    long compile_peak;       /* the most variants compiled at the same time (a
                                tuner compiles its configs at once, one thread
                                each, through either back end)                    */
} tile_cache_stats;
void tile_cache_stats_get(tile_cache_stats *out);
/* >>aot: kernels shipped ahead of time (tile/aot.h; README "Shipping
   kernels"). A run with TILE_EXPORT=<dir> exports every variant it compiles
   and every tuner winner it picks; at the process's end, or when this is
   called, <dir> gets one C file per kernel (tile_aot_<kernel>.c) and an
   index (tile_aot.c). A program built with those files and -DTILE_AOT (on
   the file that defines TILE_IMPLEMENTATION) launches what they hold with
   no compile. Without TILE_EXPORT this does nothing. */
tile_status tile_export_write(void);
/* an entry of those tables, as the generated files define them */
typedef struct tile_aot_entry {
    int kind;                          /* 1: a compiled variant; 2: a tuner's winner */
    const char *name;                  /* the kernel's                               */
    const char *key;                   /* what it is for                             */
    const unsigned char *payload;
    unsigned long long paylen;
} tile_aot_entry;
/* The cache directory in use, made and checked on the first call (""
   when the disk cache is off, or its directory was refused). */
const char *tile_cache_dir(void);


/* >>profile: the profiler (tile/profile.h), Triton's Proton -----------------------------------------------
   tile_profile_start(path, formats) records every tile launch until
   tile_profile_stop() (or the program's end, from atexit): the kernel, its
   meta-parameters, warps and stages, grid, stream, scope and time (on the
   GPU by CUPTI's activity records, or by CUDA events around the launch, or
   by the kernel's own clock; in the interpreter by the host clock). The
   stop writes `formats`, a comma list of "tree" (the text tree
   on stderr and in <path>.txt), "json" (a Chrome trace for Perfetto,
   <path>.json) and "html" (a page with the timeline and a chart per kernel,
   <path>.html); NULL means all three when path has no extension, else the
   one its extension names; a NULL path prints the tree on stderr only.
   The list may also name what times the kernels on a GPU: "cupti" (the
   default; CUDA events where CUPTI is missing), "events", or "clock" (each
   kernel compiled to write its first program's start and last program's
   end, %globaltimer, into a slot of the launch: the least host cost per
   launch, but only tile's own kernels are seen); and the unit of in-kernel
   scopes, "warp" (the default) or "warpgroup".
   TILE_PROFILE=path does the same for a program that never calls them.
   Scopes nest per thread and carry optional work:
       TILE_SCOPE("attention", .flops = 4.0 * N * N * D) { ...launches... }
       tile_scope_begin("step"); ... tile_scope_end("step");
   Leave a TILE_SCOPE block at its end (a break, return or goto out of it
   leaves the scope open; the stop reports it). With no profile running a
   scope costs one atomic load. A launch's flops and bytes come from its
   options (.flops, .bytes) or from its kernel's metrics function, Triton's
   launch_metadata; the report gives TFLOP/s and GB/s from them. */
tile_status tile_profile_start_at(const char *path, const char *formats, const char *file, int line);
tile_status tile_profile_stop_at(const char *file, int line);
int         tile_profile_running(void);
/* The kernel times (ms) of the launches of `kernel` in the last profile that
   stopped, in launch order: the first `max` into ms (which may be NULL), and
   how many there were returned; a launch that was not timed has a negative
   time. */
int         tile_profile_times(const char *kernel, double *ms, int max);
#define tile_profile_start(path, formats) tile_profile_start_at((path), (formats), __FILE__, __LINE__)
#define tile_profile_stop() tile_profile_stop_at(__FILE__, __LINE__)
typedef struct tile_scope {
    const char *name;            /* shown in the tree and the trace (cut to 63 bytes) */
    double flops, bytes;         /* optional: the scope's work                */
    const char *file;            /* set by the macros                         */
    int line;
    int open_, index_;           /* the library's                             */
} tile_scope;
tile_status tile_scope_begin_at(tile_scope *s);
tile_status tile_scope_end_at(const char *name, const char *file, int line);   /* NULL: the innermost */
tile_status tile_scope_close(tile_scope *s);   /* ends s, begun by tile_scope_begin_at */
#define tile_scope_begin(...) tile_scope_begin_at(&(tile_scope){__VA_ARGS__, .file = __FILE__, .line = __LINE__})
#define tile_scope_end(name) tile_scope_end_at((name), __FILE__, __LINE__)
#define TILE_SCOPE(...)                                                                                          \
    for (tile_scope tile__scope_ = {__VA_ARGS__, .file = __FILE__, .line = __LINE__},                            \
                    *tile__scope_p_ = (tile_scope_begin_at(&tile__scope_), &tile__scope_);                       \
         tile__scope_p_; tile_scope_close(tile__scope_p_), tile__scope_p_ = NULL)
/* A kernel's work per launch, from its arguments (in parameter order) and
   options (meta-parameters: tile_meta_of), for the profile's TFLOP/s and
   GB/s; NULL forgets it. Launch options' .flops/.bytes take precedence. */
typedef void (*tile_metrics_fn)(const tile_kernel *k, const tile_launch *opts, const tile_arg *args, void *user, double *flops, double *bytes);
tile_status tile_kernel_metrics(tile_kernel *k, tile_metrics_fn fn, void *user);


/* >>backends: a back end that lives in its own file (tile_backend_llvm.c)
   registers itself here when it is linked in, from a constructor; the
   runtime hands it one kernel variant at a time. Not for users' code. */
typedef struct tile_backend_job tile_backend_job;
struct tile_backend_job {
    const void *func;          /* the kernel's optimized tile IR (a tile__func) */
    const void *config;        /* what to compile it for (a tile__config, tile/emit.h):
                                  the target, warps, stages, specialization     */
    const void *plan;          /* what `lower` follows (a tile__plan, tile/plan.h) */
    void *meta;                /* out: what the launch needs (a tile__kernel_meta),
                                  filled by `lower`                             */
    const char *name;          /* the kernel's name                              */
    const char *arch;          /* the config's target: "sm_90a", "sm_80"        */
    /* the library's lowering of the job, driving `emitter` (a tile__emitter) */
    tile_status (*lower)(tile_backend_job *job, void *emitter);
    tile_status (*error)(tile_status st, const char *kernel, const char *message);
    void (*dump)(const char *kernel, const char *stage, const char *text);
    int dump_llir, times;      /* TILE_DUMP=llir, TILE_DUMP=times                */
    int emitter_size;          /* sizeof(tile__emitter): both sides must agree   */
    int forced;                /* TILE_BACKEND names this back end: no fallback  */
    char *key;                 /* out of emit: what the PTX will depend on (the
                                  back end's version, the code it built), for
                                  the disk cache's key (malloc'ed)               */
    void *state;               /* the back end's own, from emit to release       */
    char *ptx;                 /* out of assemble: the PTX (malloc'ed)           */
    int unsupported;           /* out: it failed on a feature the back end lacks */
    int ntmaps;                /* tensor-map parameters after the record (128-byte,
                                  64-aligned, read in place: __grid_constant__)  */
    int nthreads;              /* threads per program (the kernel's .maxntid)    */
    int min_ctas;              /* the kernel's .minnctapersm, 0 for none: 1 when
                                  warp-specialized, so that ptxas knows the
                                  registers at entry and applies setmaxnreg
                                  (without it, C7508: ignored, and spills)       */
    int prof;                  /* one more hidden parameter, last: the buffer of
                                  in-kernel scope records (a pointer)            */
    int ktime;                 /* one more after that: the kernel clock's slot
                                  of the launch (a pointer)                      */
};
/* A compile is emit (lower the kernel and build the code), then, unless the
   disk cache has the result of that code, assemble (to PTX); release ends
   every emit. */
typedef struct tile_backend_hooks {
    const char *name;                                 /* "llvm"                  */
    /* 1: ready; else why not: 0, or -1 when a knob of its own is to blame.
       knobs: the library's (a tile__knob_values, tile/knobs.h), read once */
    int (*load)(const void *knobs, char *why, size_t n);
    /* after load: 1 when it compiles for `arch` ("sm_90a"); else why not */
    int (*supports)(const char *arch, char *why, size_t n);
    tile_status (*emit)(tile_backend_job *job);
    tile_status (*assemble)(tile_backend_job *job);
    void (*release)(tile_backend_job *job);
    /* 1: a loop of its code may end with a wgmma group in flight, and ptxas
       keeps the wgmmas asynchronous (LLVM's PTX). Not NVRTC's: NVVM computes
       values (the lane) between the loop's exit and the wait, and ptxas
       serializes every wgmma of some tiles (C7514). The plan keeps wgmma
       groups in flight across iterations only for a back end that has it. */
    int wgmma_async;
} tile_backend_hooks;
void tile_register_backend(const tile_backend_hooks *h);

/* ceil(a / b), for grids: 0 when a <= 0 or b <= 0, at most UINT_MAX */
static inline unsigned tile_cdiv(long long a, long long b) {
    long long q = a > 0 && b > 0 ? a / b + (a % b != 0) : 0;
    return q > 0xffffffffLL ? 0xffffffffu : (unsigned)q;
}

#ifdef __cplusplus
}
#endif

#include "tile_lang.h"
#include "tile_autotune.h"

#endif /* TILE_H */

#ifdef TILE_IMPLEMENTATION
#ifndef TILE__IMPLEMENTED
#define TILE__IMPLEMENTED
#ifdef __cplusplus
#error "tile.h: define TILE_IMPLEMENTATION in a C file (the implementation is C11); C++ files include tile.h for the declarations only"
#endif
#include "tile/ir.h"
#include "tile/build.h"
#include "tile/passes.h"
#include "tile/emit.h"
#include "tile/ptx.h"
#include "tile/plan.h"
#include "tile/lower.h"
#include "tile/lower_sm80.h"
#include "tile/lower_sm90.h"
#include "tile/emit_cuda.h"
#include "tile/cuda.h"
#include "tile/device.h"
#include "tile/interp.h"
#include "tile/cache.h"
#include "tile/compile.h"
#include "tile/aot.h"
#include "tile/profile.h"
#include "tile/graph.h"
#include "tile/runtime.h"
#include "tile_autotune.h"
#include "tile/launch.h"
#endif
#endif
