/* tile/cuda.h — >>cuda: the CUDA driver and NVRTC, opened with dlopen.
   Part of tile.h's implementation; included once under TILE_IMPLEMENTATION.

   Why it is shaped this way: tile must build with a C11 compiler alone and
   run where no GPU, no driver or no toolkit exists (DESIGN §4). So nothing
   here includes a CUDA header: the few driver types and enum values we use
   are declared below (numbers copied from CUDA 13's cuda.h), and every
   symbol comes from one X-macro table that expands into a struct of
   function pointers and its loader, as Triton's driver.c does. Each library
   is opened lazily, once per process (pthread_once); whatever fails is kept
   as a sentence (which library, which symbol, which paths were tried) and
   reported with TILE_ERR_NODEVICE (driver) or TILE_ERR_COMPILE (NVRTC) by
   every call that needs it. NVRTC works without a driver, so CI can make
   PTX on a machine with no GPU.

   One device per process: TILE_DEVICE (default 0), through its primary
   context, the one the CUDA runtime also uses, so tile shares memory and
   streams with other CUDA code of the program. Every entry point makes that
   context current on the calling thread (one cuCtxGetCurrent when it
   already is). A tile_stream and a tile_event are the driver's CUstream and
   CUevent when kernels run on the GPU, and small host objects in the
   interpreter, where every call has finished when it returns; which one is
   decided by tile__gpu_mode() (the runtime's), and must not change while
   the process runs.

   Glossary
     tile__cu          the driver's function table; tile__nvrtc, NVRTC's
     tile__cu_enter    load once, then make our context current here
     tile__cu_fail     a driver error as a tile error: the call, the
                       driver's name and text for the code, the user's line

   Knobs (read in tile__cuda_knobs): TILE_CUDA and TILE_NVRTC (library
   paths), TILE_DEVICE (ordinal), TILE_DEBUG (NVRTC -lineinfo), and
   CUDA_HOME / CUDA_PATH where NVRTC is searched. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The internal API below is not all used by every program. */
#if defined(__GNUC__) || defined(__clang__)
#define TILE__MAYBE_UNUSED __attribute__((unused))
#else
#define TILE__MAYBE_UNUSED
#endif

/* ---- the driver's types, as cuda.h declares them ---------------------------------
   Skipped when the program included cuda.h first (it then supplies the same
   names with the same values). Include cuda.h before tile.h, never after, in
   the file that defines TILE_IMPLEMENTATION. */
#ifndef __cuda_cuda_h__
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_STUB_LIBRARY = 34,
    CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    CUDA_ERROR_ASSERT = 710,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804
} CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef enum CUdevice_attribute_enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,                 /* kHz */
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,          /* kHz */
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,    /* bits */
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,              /* bytes */
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
} CUdevice_attribute;
typedef enum CUfunction_attribute_enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
} CUfunction_attribute;
typedef enum CUjit_option_enum {
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_JIT_LOG_VERBOSE = 12
} CUjit_option;
enum { CU_STREAM_DEFAULT = 0, CU_EVENT_DEFAULT = 0, CU_MEM_ATTACH_GLOBAL = 1 };
#endif

/* NVRTC's, as nvrtc.h declares them. */
#ifndef __NVRTC_H__
typedef enum {
    NVRTC_SUCCESS = 0,
    NVRTC_ERROR_INVALID_OPTION = 5,
    NVRTC_ERROR_COMPILATION = 6
} nvrtcResult;
typedef struct tile__nvrtc_program *nvrtcProgram;
#endif

/* ---- the symbol tables ----------------------------------------------------------
   X(symbol, return type, parameters). Where cuda.h renames a call by macro
   (cuMemAlloc -> cuMemAlloc_v2), the table names the versioned symbol that
   the macro picks, since dlsym sees no macros. cuEventElapsedTime stays at
   its first version, which every driver exports. */
#define TILE__CU_SYMS(X, OPT)                                                                          \
    X(cuInit,                  CUresult, (unsigned flags))                                        \
    X(cuDriverGetVersion,      CUresult, (int *version))                                          \
    X(cuGetErrorName,          CUresult, (CUresult error, const char **str))                      \
    X(cuGetErrorString,        CUresult, (CUresult error, const char **str))                      \
    X(cuDeviceGetCount,        CUresult, (int *count))                                            \
    X(cuDeviceGet,             CUresult, (CUdevice *dev, int ordinal))                            \
    X(cuDeviceGetName,         CUresult, (char *name, int len, CUdevice dev))                     \
    X(cuDeviceGetAttribute,    CUresult, (int *value, CUdevice_attribute attr, CUdevice dev))     \
    X(cuDevicePrimaryCtxRetain, CUresult, (CUcontext *ctx, CUdevice dev))                         \
    X(cuCtxGetCurrent,         CUresult, (CUcontext *ctx))                                        \
    X(cuCtxSetCurrent,         CUresult, (CUcontext ctx))                                         \
    X(cuCtxSynchronize,        CUresult, (void))                                                  \
    X(cuMemGetInfo_v2,         CUresult, (size_t *free_bytes, size_t *total_bytes))               \
    X(cuMemAlloc_v2,           CUresult, (CUdeviceptr *dptr, size_t bytes))                       \
    X(cuMemAllocManaged,       CUresult, (CUdeviceptr *dptr, size_t bytes, unsigned flags))       \
    X(cuMemFree_v2,            CUresult, (CUdeviceptr dptr))                                      \
    X(cuMemcpyHtoD_v2,         CUresult, (CUdeviceptr dst, const void *src, size_t bytes))        \
    X(cuMemcpyDtoH_v2,         CUresult, (void *dst, CUdeviceptr src, size_t bytes))              \
    X(cuMemcpyDtoD_v2,         CUresult, (CUdeviceptr dst, CUdeviceptr src, size_t bytes))        \
    X(cuMemsetD8_v2,           CUresult, (CUdeviceptr dst, unsigned char byte, size_t n))         \
    X(cuMemcpyHtoDAsync_v2,    CUresult, (CUdeviceptr dst, const void *src, size_t bytes, CUstream s)) \
    X(cuMemcpyDtoHAsync_v2,    CUresult, (void *dst, CUdeviceptr src, size_t bytes, CUstream s))  \
    X(cuModuleLoadDataEx,      CUresult, (CUmodule *mod, const void *image, unsigned nopt,        \
                                          CUjit_option *opts, void **vals))                       \
    X(cuModuleGetFunction,     CUresult, (CUfunction *fn, CUmodule mod, const char *name))        \
    X(cuModuleUnload,          CUresult, (CUmodule mod))                                          \
    X(cuFuncGetAttribute,      CUresult, (int *value, CUfunction_attribute attr, CUfunction fn))  \
    X(cuFuncSetAttribute,      CUresult, (CUfunction fn, CUfunction_attribute attr, int value))   \
    X(cuLaunchKernel,          CUresult, (CUfunction fn, unsigned gx, unsigned gy, unsigned gz,   \
                                          unsigned bx, unsigned by, unsigned bz, unsigned smem,   \
                                          CUstream s, void **params, void **extra))               \
    X(cuStreamCreate,          CUresult, (CUstream *s, unsigned flags))                           \
    X(cuStreamDestroy_v2,      CUresult, (CUstream s))                                            \
    X(cuStreamSynchronize,     CUresult, (CUstream s))                                            \
    X(cuEventCreate,           CUresult, (CUevent *e, unsigned flags))                            \
    X(cuEventRecord,           CUresult, (CUevent e, CUstream s))                                 \
    X(cuEventSynchronize,      CUresult, (CUevent e))                                             \
    X(cuEventQuery,            CUresult, (CUevent e))                                             \
    X(cuEventElapsedTime,      CUresult, (float *ms, CUevent start, CUevent end))                 \
    X(cuEventDestroy_v2,       CUresult, (CUevent e))                                              \
    /* optional: an old driver lacks them, and only loses what they give */                      \
    OPT(cuLinkCreate_v2,       CUresult, (unsigned nopt, CUjit_option *opts, void **vals, void **state)) \
    OPT(cuLinkAddData_v2,      CUresult, (void *state, int type, void *data, size_t size, const char *name, \
                                          unsigned nopt, CUjit_option *opts, void **vals))        \
    OPT(cuLinkComplete,        CUresult, (void *state, void **cubin, size_t *size))               \
    OPT(cuLinkDestroy,         CUresult, (void *state))                                           \
    /* for the next steps (>>tma, clusters): a TMA descriptor, and a launch with attributes */   \
    OPT(cuTensorMapEncodeTiled, CUresult, (void *map, int dtype, unsigned rank, void *addr,       \
                                           const uint64_t *dims, const uint64_t *strides,         \
                                           const unsigned *box, const unsigned *elem_strides,     \
                                           int interleave, int swizzle, int l2, int oob))         \
    OPT(cuLaunchKernelEx,      CUresult, (const void *config, CUfunction fn, void **params, void **extra)) \
    /* >>graph: CUDA graphs by stream capture (tile/graph.h) */                                   \
    OPT(cuStreamBeginCapture_v2, CUresult, (CUstream s, int mode))                                \
    OPT(cuStreamEndCapture,    CUresult, (CUstream s, void **graph))                              \
    OPT(cuGraphInstantiateWithFlags, CUresult, (void **exec, void *graph, unsigned long long flags)) \
    OPT(cuGraphLaunch,         CUresult, (void *exec, CUstream s))                                \
    OPT(cuGraphExecDestroy,    CUresult, (void *exec))                                            \
    OPT(cuGraphDestroy,        CUresult, (void *graph))                                           \
    OPT(cuStreamGetCaptureInfo_v2, CUresult, (CUstream s, int *status, unsigned long long *id, void **graph, \
                                              void *const **deps, size_t *ndeps))                 \
    OPT(cuGraphExecKernelNodeSetParams_v2, CUresult, (void *exec, void *node, const void *params)) \
    /* several devices (tile_set_device): a stream's context, peer access and copies */            \
    OPT(cuStreamGetCtx,        CUresult, (CUstream s, CUcontext *ctx))                            \
    OPT(cuDeviceCanAccessPeer, CUresult, (int *can, CUdevice dev, CUdevice peer))                 \
    OPT(cuCtxEnablePeerAccess, CUresult, (CUcontext peer, unsigned flags))                        \
    OPT(cuMemcpyPeer,          CUresult, (CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t bytes))

#define TILE__NVRTC_SYMS(X)                                                                       \
    X(nvrtcVersion,            nvrtcResult, (int *major, int *minor))                             \
    X(nvrtcGetErrorString,     const char *, (nvrtcResult r))                                     \
    X(nvrtcCreateProgram,      nvrtcResult, (nvrtcProgram *prog, const char *src, const char *name, \
                                             int nheaders, const char *const *headers,            \
                                             const char *const *include_names))                   \
    X(nvrtcCompileProgram,     nvrtcResult, (nvrtcProgram prog, int nopt, const char *const *opts)) \
    X(nvrtcGetPTXSize,         nvrtcResult, (nvrtcProgram prog, size_t *size))                    \
    X(nvrtcGetPTX,             nvrtcResult, (nvrtcProgram prog, char *ptx))                       \
    X(nvrtcGetProgramLogSize,  nvrtcResult, (nvrtcProgram prog, size_t *size))                    \
    X(nvrtcGetProgramLog,      nvrtcResult, (nvrtcProgram prog, char *log))                       \
    X(nvrtcDestroyProgram,     nvrtcResult, (nvrtcProgram *prog))

#define TILE__SYM_FIELD(name, ret, params) ret (*name) params;
typedef struct tile__cu_api { TILE__CU_SYMS(TILE__SYM_FIELD, TILE__SYM_FIELD) } tile__cu_api;
typedef struct tile__nvrtc_api { TILE__NVRTC_SYMS(TILE__SYM_FIELD) } tile__nvrtc_api;
#undef TILE__SYM_FIELD
static tile__cu_api tile__cu;
static tile__nvrtc_api tile__nvrtc;

/* ---- knobs: this file's (TILE_CUDA, TILE_NVRTC, TILE_DEVICE, CUDA_HOME,
   CUDA_PATH, TILE_DEBUG) are rows of tile/knobs.h's table ---------------- */
static const tile__knob_values *tile__cuda_knobs(void) { return tile__knob_values_get(); }

/* ---- opening a library -------------------------------------------------------------
   dlsym returns a void *; copying its bytes into the function pointer is the
   conversion that ISO C (-pedantic) accepts. */
static void *tile__dlopen(const char *path, char *err, size_t errn) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(err, errn, "%s", e ? e : "unknown dlopen error");
    }
    return h;
}
/* Format into `buf` (append: after what it holds), truncating quietly: the
   messages below embed paths and logs of any length. */
#if defined(__GNUC__) || defined(__clang__)
#define TILE__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TILE__PRINTF(f, a)
#endif
TILE__PRINTF(4, 5) static void tile__bprintf(char *buf, size_t n, int append, const char *fmt, ...) {
    size_t used = append ? strlen(buf) : 0;
    va_list ap;
    if (used + 1 >= n) return;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}
/* A library of the CUDA toolkit (NVRTC, CUPTI, NVTX), opened the one way
   for all: each soname on the loader's path, then each in the folders
   `subs` of CUDA_HOME, CUDA_PATH and /usr/local/cuda (each folder once).
   The path that opened is left in path; the most telling dlopen error (not
   a mere "No such file") in err; where it looked in tried. A knob that
   names the library is the caller's to try first, alone. */
static void *tile__dlopen_toolkit(const char *const *sonames, int nsonames, const char *const *subs, int nsubs, char *path, size_t pathn, char *err,
                                  size_t errn, char *tried, size_t triedn) {
    const tile__knob_values *kn = tile__cuda_knobs();
    const char *dirs[4] = {NULL, kn->cuda_home, kn->cuda_path, "/usr/local/cuda"};
    void *h = NULL;
    err[0] = 0;
    tile__bprintf(tried, triedn, 0, "the loader's search path");
    for (int d = 0; d < 4 && !h; d++) {
        int seen = d > 0 && !dirs[d][0];
        for (int e = 1; e < d && !seen; e++) seen = strcmp(dirs[e], dirs[d]) == 0;
        if (seen) continue;
        for (int j = 0; j < (d ? nsubs : 1) && !h; j++) {
            if (d) tile__bprintf(tried, triedn, 1, ", %s/%s", dirs[d], subs[j]);
            for (int i = 0; i < nsonames && !h; i++) {
                if (d == 0) tile__bprintf(path, pathn, 0, "%s", sonames[i]);
                else tile__bprintf(path, pathn, 0, "%s/%s/%s", dirs[d], subs[j], sonames[i]);
                char e[256];
                if (!(h = tile__dlopen(path, e, sizeof e)) && (!err[0] || !strstr(e, "No such file"))) tile__bprintf(err, errn, 0, "%s", e);
            }
        }
    }
    if (!h) path[0] = 0;
    return h;
}
/* Resolve `name` into the function pointer at `dst`; on failure say which
   symbol `lib` lacks in `why` and return 0. */
static int tile__dlsym_into(void *h, const char *name, void *dst, size_t size, const char *lib, char *why, size_t whyn) {
    void *sym = dlsym(h, name);
    TILE_ASSERT(size == sizeof sym);
    if (!sym) {
        tile__bprintf(why, whyn, 0, "%s lacks the symbol %s (is it too old, or not the real library?)", lib, name);
        return 0;
    }
    memcpy(dst, &sym, size);
    return 1;
}


/* ---- the driver: load, init, the device ---------------------------------------------
   One pass, once: open libcuda, resolve every symbol, cuInit, count the
   devices, pick TILE_DEVICE, read its properties, retain its primary
   context. The first failure is kept in `why` with the status to report. */
typedef struct tile__cu_props {
    char name[256];
    int ordinal;
    int cc_major, cc_minor;        /* 9, 0 on an H100/H200                     */
    int sm_count;                  /* multiprocessors                          */
    int max_threads_per_block;
    int warp_size;
    int regs_per_block;
    int smem_per_block;            /* without opting in (48 KiB)               */
    int smem_per_block_optin;      /* the most one block may ask for           */
    int smem_per_sm;
    int l2_bytes;
    int clock_khz, mem_clock_khz;  /* 0 where the driver no longer says        */
    int mem_bus_bits;
    int driver_version;            /* 13000 for CUDA 13.0                      */
} tile__cu_props;

/* One device the driver sees, opened on first use (tile__cu_open_dev):
   its primary context and properties, or why it cannot be used. */
#define TILE__MAX_DEVICES 16
typedef struct tile__cu_device {
    int opened;                    /* 1: tried (status says how it went)       */
    tile_status status;            /* TILE_OK once the device is ready         */
    char why[640];                 /* why not, as a sentence                   */
    CUdevice dev;
    CUcontext ctx;
    tile__cu_props props;
} tile__cu_device;
static struct {
    pthread_once_t once;
    tile_status status;            /* TILE_OK once the default device is ready */
    char why[640];                 /* why not, as a sentence                   */
    void *lib;
    int ndev;                      /* devices the driver sees (0 on failure)   */
    int deflt;                     /* TILE_DEVICE (else 0): a thread's device until it calls tile_set_device */
    _Atomic int nopen;             /* devices opened; above 1, launches check their streams */
    pthread_mutex_t lock;          /* opening a device, peer access           */
    unsigned char peer[TILE__MAX_DEVICES][TILE__MAX_DEVICES];   /* [d][p]: kernels on d may touch p's memory */
    tile__cu_device devs[TILE__MAX_DEVICES];
} tile__cu_st = {.once = PTHREAD_ONCE_INIT, .status = TILE_ERR_NODEVICE, .lock = PTHREAD_MUTEX_INITIALIZER};
/* the calling thread's device (tile_set_device); -1: the default */
static _Thread_local int tile__cu_tls = -1;
static int tile__cu_index(void) { return tile__cu_tls >= 0 ? tile__cu_tls : tile__cu_st.deflt; }
/* the calling thread's device (the driver is open) */
static tile__cu_device *tile__cu_cur(void) { return &tile__cu_st.devs[tile__cu_index()]; }

/* "CUDA_ERROR_INVALID_VALUE (invalid argument)": the driver's words, or
   the name alone where the driver has none (the stub library). */
static void tile__cu_errtext(CUresult r, char *buf, size_t n) {
    static const struct { CUresult r; const char *name; } known[] = {
        {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},     {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
        {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"}, {CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY"},
        {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},             {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
        {CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
        {CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    };
    const char *name = NULL, *text = NULL;
    if (tile__cu.cuGetErrorName && tile__cu.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = NULL;
    if (tile__cu.cuGetErrorString && tile__cu.cuGetErrorString(r, &text) != CUDA_SUCCESS) text = NULL;
    for (size_t i = 0; !name && i < sizeof known / sizeof *known; i++)
        if (known[i].r == r) name = known[i].name;
    if (name && text) snprintf(buf, n, "%s (%s)", name, text);
    else if (name) snprintf(buf, n, "%s", name);
    else snprintf(buf, n, "CUDA error %d", (int)r);
}

/* Open device `ordinal` (below ndev) once: its properties and its primary
   context (retained; made current by tile__cu_enter). Under the lock, or
   from tile__cu_open. */
static void tile__cu_open_dev(int ordinal) {
    tile__cu_device *D = &tile__cu_st.devs[ordinal];
    tile__cu_props *p = &D->props;
    char *why = D->why, et[160];
    size_t whyn = sizeof D->why;
    CUresult r;
    if (D->opened) return;
    D->opened = 1;
    D->status = TILE_ERR_NODEVICE;
    p->ordinal = ordinal;
    if ((r = tile__cu.cuDeviceGet(&D->dev, ordinal)) != CUDA_SUCCESS) {
        tile__cu_errtext(r, et, sizeof et);
        tile__bprintf(why, whyn, 0, "cuDeviceGet(%d) failed with %s", ordinal, et);
        return;
    }
    if (tile__cu.cuDeviceGetName(p->name, (int)sizeof p->name, D->dev) != CUDA_SUCCESS)
        snprintf(p->name, sizeof p->name, "CUDA device %d", ordinal);
    tile__cu.cuDriverGetVersion(&p->driver_version);
    /* the attributes every back end relies on; the others are 0 when absent */
    static const struct { CUdevice_attribute a; size_t off; int required; const char *what; } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, offsetof(tile__cu_props, cc_major), 1, "compute capability"},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, offsetof(tile__cu_props, cc_minor), 1, "compute capability"},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, offsetof(tile__cu_props, sm_count), 1, "multiprocessor count"},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, offsetof(tile__cu_props, smem_per_block_optin), 1,
         "opt-in shared memory"},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, offsetof(tile__cu_props, smem_per_block), 0, ""},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, offsetof(tile__cu_props, smem_per_sm), 0, ""},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, offsetof(tile__cu_props, max_threads_per_block), 0, ""},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, offsetof(tile__cu_props, warp_size), 0, ""},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, offsetof(tile__cu_props, regs_per_block), 0, ""},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, offsetof(tile__cu_props, l2_bytes), 0, ""},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, offsetof(tile__cu_props, clock_khz), 0, ""},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, offsetof(tile__cu_props, mem_clock_khz), 0, ""},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, offsetof(tile__cu_props, mem_bus_bits), 0, ""},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
        int v = 0;
        r = tile__cu.cuDeviceGetAttribute(&v, attrs[i].a, D->dev);
        if (r != CUDA_SUCCESS && attrs[i].required) {
            tile__cu_errtext(r, et, sizeof et);
            tile__bprintf(why, whyn, 0, "cuDeviceGetAttribute(%s of device %d) failed with %s", attrs[i].what, ordinal, et);
            return;
        }
        memcpy((char *)p + attrs[i].off, &v, sizeof v);
    }
    if ((r = tile__cu.cuDevicePrimaryCtxRetain(&D->ctx, D->dev)) != CUDA_SUCCESS) {
        tile__cu_errtext(r, et, sizeof et);
        tile__bprintf(why, whyn, 0, "cannot use device %d (%s): retaining its primary context failed with %s", ordinal,
                 p->name, et);
        return;
    }
    D->status = TILE_OK;
    atomic_fetch_add(&tile__cu_st.nopen, 1);
}

static void tile__cu_open(void) {
    const tile__knob_values *kn = tile__cuda_knobs();
    char *why = tile__cu_st.why, e1[256] = "", e2[256] = "", et[160];
    size_t whyn = sizeof tile__cu_st.why;
    const char *path;
    CUresult r;
    tile__cu_st.status = TILE_ERR_NODEVICE;
    if (kn->cuda[0]) {
        path = kn->cuda;
        if (!(tile__cu_st.lib = tile__dlopen(path, e1, sizeof e1))) {
            tile__bprintf(why, whyn, 0, "cannot open the CUDA driver at TILE_CUDA=%s: %s", path, e1);
            return;
        }
    } else {
        path = "libcuda.so.1";
        if (!(tile__cu_st.lib = tile__dlopen(path, e1, sizeof e1))) {
            path = "libcuda.so";
            if (!(tile__cu_st.lib = tile__dlopen(path, e2, sizeof e2))) {
                tile__bprintf(why, whyn, 0, "no CUDA driver: tried libcuda.so.1 (%s) and libcuda.so (%s); "
                         "install the NVIDIA driver or set TILE_CUDA to the library's path", e1, e2);
                return;
            }
        }
    }
    int ok = 1;
#define TILE__CU_LOAD(name, ret, params) \
    ok = ok && tile__dlsym_into(tile__cu_st.lib, #name, (void *)&tile__cu.name, sizeof tile__cu.name, path, why, whyn);
#define TILE__CU_LOAD_OPT(name, ret, params)                    \
    {                                                           \
        void *sym = dlsym(tile__cu_st.lib, #name);              \
        memcpy((void *)&tile__cu.name, &sym, sizeof tile__cu.name); \
    }
    TILE__CU_SYMS(TILE__CU_LOAD, TILE__CU_LOAD_OPT)
#undef TILE__CU_LOAD
#undef TILE__CU_LOAD_OPT
    if (!ok) {
        memset(&tile__cu, 0, sizeof tile__cu);
        dlclose(tile__cu_st.lib);
        tile__cu_st.lib = NULL;
        return;
    }
    if ((r = tile__cu.cuInit(0)) != CUDA_SUCCESS) {
        tile__cu_errtext(r, et, sizeof et);
        tile__bprintf(why, whyn, 0, "cuInit failed with %s%s", et,
                 r == CUDA_ERROR_STUB_LIBRARY ? ": the loaded libcuda is the toolkit's stub, not a driver"
                 : r == CUDA_ERROR_NO_DEVICE  ? ": the driver sees no GPU"
                                              : "");
        return;
    }
    if ((r = tile__cu.cuDeviceGetCount(&tile__cu_st.ndev)) != CUDA_SUCCESS || tile__cu_st.ndev < 1) {
        tile__cu_st.ndev = 0;
        tile__bprintf(why, whyn, 0, "the CUDA driver (%s) sees no GPU", path);
        return;
    }
    if (tile__cu_st.ndev > TILE__MAX_DEVICES) tile__cu_st.ndev = TILE__MAX_DEVICES;   /* the first 16 (CUDA_VISIBLE_DEVICES picks) */
    int ordinal = 0;
    if (kn->device[0]) {
        char *end;
        long v = strtol(kn->device, &end, 10);
        if (*end || v < 0 || v >= tile__cu_st.ndev) {
            tile__bprintf(why, whyn, 0, "TILE_DEVICE=%s is not a device: the driver sees %d (0 to %d)", kn->device,
                     tile__cu_st.ndev, tile__cu_st.ndev - 1);
            return;
        }
        ordinal = (int)v;
    }
    tile__cu_st.deflt = ordinal;
    tile__cu_open_dev(ordinal);
    memcpy(why, tile__cu_st.devs[ordinal].why, whyn);
    tile__cu_st.status = tile__cu_st.devs[ordinal].status;
}

/* Make device d's context current on this thread (d is open and ready). */
static tile_status tile__cu_enter_dev(int d, const char *file, int line) {
    CUcontext cur = NULL, want = tile__cu_st.devs[d].ctx;
    if (tile__cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == want) return TILE_OK;
    CUresult r = tile__cu.cuCtxSetCurrent(want);
    if (r != CUDA_SUCCESS) {
        char et[160];
        tile__cu_errtext(r, et, sizeof et);
        return tile__error(TILE_ERR_DRIVER, NULL, file, line, "cuCtxSetCurrent (device %d) failed with %s", d, et);
    }
    return TILE_OK;
}
/* Put this thread's device back to `old` (a tile__cu_tls value) after a
   call that ran on another device (a copy of its memory, a free, a module
   unload), with that device's context current again, so that the user's
   own CUDA calls that follow go where they went before. */
static void tile__cu_restore(int old) {
    tile__cu_tls = old;
    if (tile__cu_st.status != TILE_OK) return;
    CUcontext cur = NULL, want = tile__cu_st.devs[tile__cu_index()].ctx;
    if (want && tile__cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur != want) (void)tile__cu.cuCtxSetCurrent(want);
}
/* Load once, then make this thread's device's context current. Reports
   the reason when there is no device. */
static tile_status tile__cu_enter(const char *file, int line) {
    pthread_once(&tile__cu_st.once, tile__cu_open);
    if (tile__cu_st.status != TILE_OK)
        return tile__error(tile__cu_st.status, NULL, file, line, "%s", tile__cu_st.why);
    return tile__cu_enter_dev(tile__cu_index(), file, line);
}

/* Report a failed driver call. `st` is the status for this call site;
   codes that mean the same thing wherever they come from override it. */
static tile_status tile__cu_fail(CUresult r, tile_status st, const char *kernel, const char *file, int line,
                                 const char *fmt, ...) {
    char what[400], et[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    tile__cu_errtext(r, et, sizeof et);
    const char *hint = "";
    if (r == CUDA_ERROR_OUT_OF_MEMORY) st = TILE_ERR_NOMEM;
    else if (r == CUDA_ERROR_ASSERT) st = TILE_ERR_ASSERT;
    if (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED || r == CUDA_ERROR_ASSERT)
        hint = "; a kernel faulted earlier and the CUDA context is now unusable (rerun with TILE_INTERPRET=1 "
               "or under compute-sanitizer to find the lane)";
    return tile__error(st, kernel, file, line, "%s failed with %s%s", what, et, hint);
}

/* TILE_OK when a driver and a device are ready (and the context is current
   on this thread), else TILE_ERR_NODEVICE with the reason. */
TILE__MAYBE_UNUSED static tile_status tile__cu_init(void) { return tile__cu_enter(NULL, 0); }

/* 1 when tile__cu_init would succeed; reports nothing. */
TILE__MAYBE_UNUSED static int tile__cu_available(void) {
    pthread_once(&tile__cu_st.once, tile__cu_open);
    return tile__cu_st.status == TILE_OK;
}

/* The device's properties (a copy). */
TILE__MAYBE_UNUSED static tile_status tile__cu_get_props(tile__cu_props *out) {
    tile_status st = tile__cu_enter(NULL, 0);
    if (st == TILE_OK) *out = tile__cu_cur()->props;
    return st;
}

/* The target to compile for: sm_90a on compute capability 9.0 (wgmma and
   setmaxnreg need the `a` variant), else sm_<major><minor>. */
TILE__MAYBE_UNUSED static tile_status tile__cu_arch(char *buf, size_t n) {
    tile_status st = tile__cu_enter(NULL, 0);
    if (st != TILE_OK) return st;
    const tile__cu_props *p = &tile__cu_cur()->props;
    snprintf(buf, n, "sm_%d%d%s", p->cc_major, p->cc_minor, p->cc_major == 9 && p->cc_minor == 0 ? "a" : "");
    return TILE_OK;
}

/* ---- memory ------------------------------------------------------------------------
   Device addresses travel as void * so that the host API has one pointer type.
   Copies and memset are ordered on the default stream. */
static CUdeviceptr tile__cu_dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

TILE__MAYBE_UNUSED static tile_status tile__cu_alloc(size_t bytes, void **out, const char *file, int line) {
    CUdeviceptr d = 0;
    CUresult r;
    *out = NULL;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    if ((r = tile__cu.cuMemAlloc_v2(&d, bytes ? bytes : 1)) != CUDA_SUCCESS) {
        size_t fr = 0, total = 0;
        tile__cu.cuMemGetInfo_v2(&fr, &total);
        return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemAlloc_v2(%zu bytes; %zu MiB of %zu MiB free)", bytes,
                             fr >> 20, total >> 20);
    }
    *out = (void *)(uintptr_t)d;
    return TILE_OK;
}
/* Unified memory: the same address works on the host and the device (the
   driver migrates pages on touch). Freed with tile__cu_free. */
TILE__MAYBE_UNUSED static tile_status tile__cu_alloc_managed(size_t bytes, void **out, const char *file, int line) {
    CUdeviceptr d = 0;
    CUresult r;
    *out = NULL;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    if ((r = tile__cu.cuMemAllocManaged(&d, bytes ? bytes : 1, CU_MEM_ATTACH_GLOBAL)) != CUDA_SUCCESS)
        return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemAllocManaged(%zu bytes)", bytes);
    *out = (void *)(uintptr_t)d;
    return TILE_OK;
}
TILE__MAYBE_UNUSED static tile_status tile__cu_free(void *p, const char *file, int line) {
    if (!p) return TILE_OK;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuMemFree_v2(tile__cu_dptr(p));
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemFree_v2(%p)", p);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_htod(void *dst, const void *src, size_t bytes, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemcpyHtoD_v2(tile__cu_dptr(dst), src, bytes);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemcpyHtoD_v2(%p <- %p, %zu bytes)", dst, src, bytes);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_dtoh(void *dst, const void *src, size_t bytes, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemcpyDtoH_v2(dst, tile__cu_dptr(src), bytes);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemcpyDtoH_v2(%p <- %p, %zu bytes)", dst, src, bytes);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_dtod(void *dst, const void *src, size_t bytes, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemcpyDtoD_v2(tile__cu_dptr(dst), tile__cu_dptr(src), bytes);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemcpyDtoD_v2(%p <- %p, %zu bytes)", dst, src, bytes);
}
/* A copy between the memory of two devices (both open: their memory was
   allocated there), through the driver's peer copy: after the work queued
   before it on both devices, and before the work queued after it (the host
   may go on before it ends, as with a copy on one device). */
TILE__MAYBE_UNUSED static tile_status tile__cu_peer_copy(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes) {
    tile_status st = tile__cu_enter(NULL, 0);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemcpyPeer ? tile__cu.cuMemcpyPeer(tile__cu_dptr(dst), tile__cu_st.devs[dst_dev].ctx, tile__cu_dptr(src),
                                                               tile__cu_st.devs[src_dev].ctx, bytes)
                                       : tile__cu.cuMemcpyDtoD_v2(tile__cu_dptr(dst), tile__cu_dptr(src), bytes);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "%s(%p on device %d <- %p on device %d, %zu bytes)",
                                             tile__cu.cuMemcpyPeer ? "cuMemcpyPeer" : "cuMemcpyDtoD_v2", dst, dst_dev, src, src_dev, bytes);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_memset(void *dst, int byte, size_t bytes, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemsetD8_v2(tile__cu_dptr(dst), (unsigned char)byte, bytes);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemsetD8_v2(%p, %d, %zu bytes)", dst, byte, bytes);
}
/* Asynchronous copies on `stream` (NULL: the default stream); the host
   memory must stay alive, and pinned memory is needed for real overlap. */
TILE__MAYBE_UNUSED static tile_status tile__cu_htod_async(void *dst, const void *src, size_t bytes, void *stream,
                                                          const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemcpyHtoDAsync_v2(tile__cu_dptr(dst), src, bytes, (CUstream)stream);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemcpyHtoDAsync_v2(%p <- %p, %zu bytes)", dst, src, bytes);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_dtoh_async(void *dst, const void *src, size_t bytes, void *stream,
                                                          const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK || !bytes) return st;
    CUresult r = tile__cu.cuMemcpyDtoHAsync_v2(dst, tile__cu_dptr(src), bytes, (CUstream)stream);
    return r == CUDA_SUCCESS ? TILE_OK
                             : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuMemcpyDtoHAsync_v2(%p <- %p, %zu bytes)", dst, src, bytes);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_mem_info(size_t *free_bytes, size_t *total_bytes) {
    tile_status st = tile__cu_enter(NULL, 0);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuMemGetInfo_v2(free_bytes, total_bytes);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuMemGetInfo_v2");
}
/* Wait for all work on the device. Faults of earlier launches surface here;
   tile__cu_sync_at blames them on a kernel and its launch line (TILE_SYNC,
   device asserts), tile__cu_sync on nobody. */
TILE__MAYBE_UNUSED static tile_status tile__cu_sync_at(const char *file, int line, const char *kernel) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuCtxSynchronize();
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, kernel, file, line, "cuCtxSynchronize");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_sync(void) { return tile__cu_sync_at(NULL, 0, NULL); }
/* the same for the work of one stream (NULL: the whole device). While another
   stream is captured into a graph, waiting for the whole device is refused
   by the driver and ends that capture; waiting for this stream is not */
TILE__MAYBE_UNUSED static tile_status tile__cu_sync_stream_at(CUstream s, const char *file, int line, const char *kernel) {
    if (!s) return tile__cu_sync_at(file, line, kernel);
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuStreamSynchronize(s);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, kernel, file, line, "cuStreamSynchronize");
}

/* ---- modules and launch --------------------------------------------------------------
   The driver JIT-compiles PTX at load; its error log is the only useful part
   of a failure, so it goes into the message and into the caller's buffer.
   Dynamic shared memory above 48 KiB must be opted into per function; the
   amount granted is remembered here so a launch asks the driver only once. */
typedef struct tile__cu_fsmem { CUfunction fn; unsigned bytes; } tile__cu_fsmem;
static tile__cu_fsmem *tile__cu_fsmems;
static int tile__cu_nfsmem, tile__cu_capfsmem;
static pthread_mutex_t tile__cu_fsmem_lock = PTHREAD_MUTEX_INITIALIZER;

/* Drop what is remembered for `fn` (a new module may reuse an old handle). */
static void tile__cu_fsmem_forget(CUfunction fn) {
    pthread_mutex_lock(&tile__cu_fsmem_lock);
    for (int i = 0; i < tile__cu_nfsmem; i++)
        if (tile__cu_fsmems[i].fn == fn) tile__cu_fsmems[i] = tile__cu_fsmems[--tile__cu_nfsmem];
    pthread_mutex_unlock(&tile__cu_fsmem_lock);
}

/* Load PTX and find `kernel_name` in it. `log` (may be NULL) receives the
   JIT's error log. On failure nothing stays loaded. */
TILE__MAYBE_UNUSED static tile_status tile__cu_load(const char *ptx, CUmodule *mod, CUfunction *fn, const char *kernel_name,
                                                    char *log, size_t logn) {
    char own[2048];
    char *buf = log && logn ? log : own;
    size_t bufn = log && logn ? logn : sizeof own;
    *mod = NULL;
    *fn = NULL;
    buf[0] = 0;
    tile_status st = tile__cu_enter(NULL, 0);
    if (st != TILE_OK) return st;
    CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[2] = {buf, (void *)(uintptr_t)(bufn > 0xffffffffu ? 0xffffffffu : bufn)};
    CUresult r = tile__cu.cuModuleLoadDataEx(mod, ptx, 2, opts, vals);
    if (r != CUDA_SUCCESS) {
        *mod = NULL;
        buf[bufn - 1] = 0;
        tile_status why = (r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ||
                           r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE)
                              ? TILE_ERR_COMPILE
                              : TILE_ERR_DRIVER;
        char et[160];
        tile__cu_errtext(r, et, sizeof et);
        return tile__error(why, kernel_name, NULL, 0, "cuModuleLoadDataEx failed with %s%s: %.480s", et,
                           r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ? " (the driver is older than the PTX's .version)" : "",
                           buf[0] ? buf : "(the JIT left no log)");
    }
    if ((r = tile__cu.cuModuleGetFunction(fn, *mod, kernel_name)) != CUDA_SUCCESS) {
        tile__cu.cuModuleUnload(*mod);
        *mod = NULL;
        *fn = NULL;
        return tile__cu_fail(r, TILE_ERR_COMPILE, kernel_name, NULL, 0, "cuModuleGetFunction(\"%s\") (is the PTX's .entry named so?)",
                             kernel_name);
    }
    tile__cu_fsmem_forget(*fn);
    return TILE_OK;
}
TILE__MAYBE_UNUSED static tile_status tile__cu_unload(CUmodule mod) {
    if (!mod) return TILE_OK;
    tile_status st = tile__cu_enter(NULL, 0);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuModuleUnload(mod);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuModuleUnload");
}

/* Grant `fn` `bytes` of dynamic shared memory when above the default 48 KiB. */
static tile_status tile__cu_smem_optin(CUfunction fn, unsigned bytes, const char *file, int line, const char *kernel) {
    if (bytes <= 48u * 1024) return TILE_OK;
    tile_status st = TILE_OK;
    pthread_mutex_lock(&tile__cu_fsmem_lock);
    int i = 0;
    while (i < tile__cu_nfsmem && tile__cu_fsmems[i].fn != fn) i++;
    if (i == tile__cu_nfsmem || tile__cu_fsmems[i].bytes < bytes) {
        CUresult r = tile__cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)bytes);
        if (r != CUDA_SUCCESS) {
            st = tile__cu_fail(r, TILE_ERR_LAUNCH, kernel, file, line,
                               "asking for %u bytes of dynamic shared memory (the device allows %d per block): "
                               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                               bytes, tile__cu_cur()->props.smem_per_block_optin);
        } else {
            void *grown = tile__cu_fsmems;
            if (i < tile__cu_nfsmem) tile__cu_fsmems[i].bytes = bytes;
            else if (tile__grow(&grown, &tile__cu_capfsmem, tile__cu_nfsmem + 1, sizeof *tile__cu_fsmems)) {
                tile__cu_fsmems = (tile__cu_fsmem *)grown;
                tile__cu_fsmems[tile__cu_nfsmem].fn = fn;
                tile__cu_fsmems[tile__cu_nfsmem++].bytes = bytes;
            }   /* else not remembered: the attribute is set again next time */
        }
    }
    pthread_mutex_unlock(&tile__cu_fsmem_lock);
    return st;
}

/* Launch `fn` on grid[0..2] programs of `block_threads` threads with
   `smem_bytes` of dynamic shared memory on `stream` (a CUstream; NULL: the
   default). `args` points at each kernel parameter's value. Errors name
   the kernel and the user's launch line. */
TILE__MAYBE_UNUSED static tile_status tile__cu_launch(CUfunction fn, const unsigned grid[3], unsigned block_threads,
                                                      unsigned smem_bytes, void *stream, void **args, const char *file,
                                                      int line, const char *kernel) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    if (!grid[0] || !grid[1] || !grid[2] || !block_threads || block_threads > 1024)
        return tile__error(TILE_ERR_LAUNCH, kernel, file, line, "cannot launch grid (%u, %u, %u) of %u threads per program",
                           grid[0], grid[1], grid[2], block_threads);
    if ((st = tile__cu_smem_optin(fn, smem_bytes, file, line, kernel)) != TILE_OK) return st;
    CUresult r = tile__cu.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block_threads, 1, 1, smem_bytes, (CUstream)stream,
                                         args, NULL);
    if (r == CUDA_SUCCESS) return TILE_OK;
    tile_status why = (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ||
                       r == CUDA_ERROR_INVALID_HANDLE)
                          ? TILE_ERR_LAUNCH
                          : TILE_ERR_DRIVER;
    return tile__cu_fail(r, why, kernel, file, line, "cuLaunchKernel(grid (%u, %u, %u), %u threads, %u bytes of shared memory)",
                         grid[0], grid[1], grid[2], block_threads, smem_bytes);
}

/* >>tma: encode a tiled tensor map into out (128 bytes, 64-aligned): the
   element dtype (a tile dtype), rank, the global address, dims and byte
   strides innermost first (strides of dims 1..rank-1), the box, swizzle
   (CUtensorMapSwizzle); out-of-bounds elements read as zeros. */
static tile_status tile__cu_tmap_encode(void *out, tl_dtype dt, int rank, uint64_t addr, const uint64_t *dims, const uint64_t *strides, const unsigned *box,
                                        int swizzle, const char *kernel, const char *file, int line) {
    static const int cu_dtype[TL_DTYPE_COUNT_] = {[TL_I8] = 0, [TL_U8] = 0, [TL_F8E4M3] = 0, [TL_F8E5M2] = 0, [TL_F8E4B15] = 0, [TL_F8E4B8] = 0, [TL_F8E5B16] = 0, [TL_I16] = 1, [TL_U16] = 1,
                                                  [TL_U32] = 2, [TL_I32] = 3, [TL_U64] = 4, [TL_I64] = 5, [TL_F16] = 6, [TL_F32] = 7,
                                                  [TL_F64] = 8, [TL_BF16] = 9};
    if (!tile__cu.cuTensorMapEncodeTiled)
        return tile__error(TILE_ERR_DRIVER, kernel, file, line, "the CUDA driver has no cuTensorMapEncodeTiled (a driver older than CUDA 12)");
    unsigned es[5] = {1, 1, 1, 1, 1};
    CUresult r = tile__cu.cuTensorMapEncodeTiled(out, cu_dtype[dt], (unsigned)rank, (void *)(uintptr_t)addr, dims, strides, box, es, 0, swizzle,
                                                 3 /* L2 promotion 256 bytes */, 0 /* zeros */);
    if (r == CUDA_SUCCESS) return TILE_OK;
    return tile__cu_fail(r, TILE_ERR_ARG, kernel, file, line, "cuTensorMapEncodeTiled(rank %d, dims %llu x %llu, box %u x %u) for the tensor descriptor", rank,
                         (unsigned long long)dims[0], (unsigned long long)(rank > 1 ? dims[1] : 1), box[0], rank > 1 ? box[1] : 1);
}

/* ---- streams and events on the device -------------------------------------------------- */
/* the driver's flag values, named here so that they do not clash with cuda.h's */
enum { TILE__CU_STREAM_NON_BLOCKING = 1, TILE__CU_EVENT_DISABLE_TIMING = 2 };
TILE__MAYBE_UNUSED static tile_status tile__cu_stream_create_flags(CUstream *out, unsigned flags, const char *file, int line) {
    *out = NULL;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuStreamCreate(out, flags);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuStreamCreate");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_stream_create(CUstream *out, const char *file, int line) {
    return tile__cu_stream_create_flags(out, CU_STREAM_DEFAULT, file, line);
}
TILE__MAYBE_UNUSED static tile_status tile__cu_stream_destroy(CUstream s, const char *file, int line) {
    if (!s) return TILE_OK;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuStreamDestroy_v2(s);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuStreamDestroy_v2");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_stream_sync(CUstream s, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuStreamSynchronize(s);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuStreamSynchronize");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_event_create_flags(CUevent *out, unsigned flags, const char *file, int line) {
    *out = NULL;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuEventCreate(out, flags);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuEventCreate");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_event_create(CUevent *out, const char *file, int line) {
    return tile__cu_event_create_flags(out, CU_EVENT_DEFAULT, file, line);
}
/* *done: 1 when the work before the event has finished, 0 when not yet */
TILE__MAYBE_UNUSED static tile_status tile__cu_event_done(CUevent e, int *done, const char *file, int line) {
    *done = 0;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuEventQuery(e);
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY) {
        *done = r == CUDA_SUCCESS;
        return TILE_OK;
    }
    return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuEventQuery");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_event_record(CUevent e, CUstream s, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuEventRecord(e, s);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuEventRecord");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_event_sync(CUevent e, const char *file, int line) {
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuEventSynchronize(e);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuEventSynchronize");
}
/* Milliseconds between two recorded events (about 0.5 µs resolution). */
TILE__MAYBE_UNUSED static tile_status tile__cu_event_elapsed(CUevent start, CUevent end, float *ms, const char *file, int line) {
    *ms = 0;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuEventElapsedTime(ms, start, end);
    if (r == CUDA_SUCCESS) return TILE_OK;
    return tile__cu_fail(r, r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_NOT_READY ? TILE_ERR_VALUE : TILE_ERR_DRIVER, NULL,
                         file, line, "cuEventElapsedTime (both events must be recorded, and the end one reached)");
}
TILE__MAYBE_UNUSED static tile_status tile__cu_event_destroy(CUevent e, const char *file, int line) {
    if (!e) return TILE_OK;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    CUresult r = tile__cu.cuEventDestroy_v2(e);
    return r == CUDA_SUCCESS ? TILE_OK : tile__cu_fail(r, TILE_ERR_DRIVER, NULL, file, line, "cuEventDestroy_v2");
}

/* ---- NVRTC -------------------------------------------------------------------------------
   CUDA C to PTX, with no driver needed. Searched as TILE_NVRTC alone when it
   is set, else by soname on the loader's path and then in the toolkit's
   lib64 directories. */
static struct {
    pthread_once_t once;
    int ok;
    char why[640];
    char path[600];       /* the library that was opened                  */
    int major, minor;     /* its version                                  */
    int archs[64];        /* the targets it compiles for (75, 80, ... 121), */
    int narchs;           /* where it says (NVRTC 11.2 and later); else 0  */
} tile__nvrtc_st = {.once = PTHREAD_ONCE_INIT};

static void tile__nvrtc_open(void) {
    static const char *const sonames[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
    enum { NSONAMES = sizeof sonames / sizeof *sonames };
    const tile__knob_values *kn = tile__cuda_knobs();
    char *why = tile__nvrtc_st.why, err[256] = "";
    size_t whyn = sizeof tile__nvrtc_st.why;
    void *h = NULL;
    if (kn->nvrtc[0]) {
        tile__bprintf(tile__nvrtc_st.path, sizeof tile__nvrtc_st.path, 0, "%s", kn->nvrtc);
        if (!(h = tile__dlopen(kn->nvrtc, err, sizeof err))) {
            tile__bprintf(why, whyn, 0, "cannot open NVRTC at TILE_NVRTC=%s: %s", kn->nvrtc, err);
            return;
        }
    } else {
        /* the soname on the loader's path first, then each toolkit directory */
        static const char *const lib64[] = {"lib64"};
        char tried[400];
        h = tile__dlopen_toolkit(sonames, NSONAMES, lib64, 1, tile__nvrtc_st.path, sizeof tile__nvrtc_st.path, err, sizeof err, tried, sizeof tried);
        if (!h) {
            tile__nvrtc_st.path[0] = 0;
            tile__bprintf(why, whyn, 0, "NVRTC not found: tried libnvrtc.so, .so.13, .so.12 and .so.11.2 in %s (%s); "
                     "install the CUDA toolkit or set TILE_NVRTC to libnvrtc's path", tried, err);
            return;
        }
    }
    int ok = 1;
#define TILE__NVRTC_LOAD(name, ret, params) \
    ok = ok && tile__dlsym_into(h, #name, (void *)&tile__nvrtc.name, sizeof tile__nvrtc.name, tile__nvrtc_st.path, why, whyn);
    TILE__NVRTC_SYMS(TILE__NVRTC_LOAD)
#undef TILE__NVRTC_LOAD
    if (!ok) {
        memset(&tile__nvrtc, 0, sizeof tile__nvrtc);
        dlclose(h);
        return;
    }
    tile__nvrtc.nvrtcVersion(&tile__nvrtc_st.major, &tile__nvrtc_st.minor);
    /* the targets, where this NVRTC can list them */
    nvrtcResult (*count)(int *) = NULL, (*list)(int *) = NULL;
    void *sc = dlsym(h, "nvrtcGetNumSupportedArchs"), *sl = dlsym(h, "nvrtcGetSupportedArchs");
    int n = 0;
    if (sc && sl) {
        memcpy(&count, &sc, sizeof count);
        memcpy(&list, &sl, sizeof list);
        if (count(&n) != NVRTC_SUCCESS || n < 1 || n > (int)(sizeof tile__nvrtc_st.archs / sizeof *tile__nvrtc_st.archs) ||
            list(tile__nvrtc_st.archs) != NVRTC_SUCCESS)
            n = 0;
    }
    tile__nvrtc_st.narchs = n;
    tile__nvrtc_st.ok = 1;
}

/* 1 when NVRTC can be loaded; reports nothing. */
TILE__MAYBE_UNUSED static int tile__nvrtc_available(void) {
    pthread_once(&tile__nvrtc_st.once, tile__nvrtc_open);
    return tile__nvrtc_st.ok;
}

/* ---- nvJitLink: PTX to cubin in the calling thread --------------------------------------
   The driver's JIT (cuModuleLoadDataEx of PTX, and cuLink) assembles one
   module at a time in a process: a tuner's configs, compiled side by side,
   queue there (on an H100 the last of 14 matmul configs waited 2.6 s for its
   load). The toolkit's libnvJitLink (CUDA 12 and later) assembles PTX in
   the thread that asks, so they assemble side by side, and the driver then
   loads a cubin in milliseconds. Opt-in (TILE_JITLINK=1): on the same H100
   (driver 580, toolkit 13.0) its code for some kernels ran slower than the
   driver JIT's (a 128x128x64 matmul config from NVRTC's PTX: 508 TFLOP/s
   against 604), while the tune of 14 configs took 0.96 s instead of 2.7.
   Where it does not load, or fails, the driver's JIT does it. */
typedef struct tile__jl_link *tile__jl_handle;
#define TILE__JL_SYMS(X)                                                                        \
    X(nvJitLinkCreate, int, (tile__jl_handle * h, uint32_t n, const char **opts))               \
    X(nvJitLinkAddData, int, (tile__jl_handle h, int type, const void *data, size_t size, const char *name)) \
    X(nvJitLinkComplete, int, (tile__jl_handle h))                                              \
    X(nvJitLinkGetLinkedCubinSize, int, (tile__jl_handle h, size_t *size))                      \
    X(nvJitLinkGetLinkedCubin, int, (tile__jl_handle h, void *cubin))                           \
    X(nvJitLinkDestroy, int, (tile__jl_handle * h))
static struct {
#define TILE__JL_FIELD(name, ret, params) ret(*name) params;
    TILE__JL_SYMS(TILE__JL_FIELD)
#undef TILE__JL_FIELD
} tile__jl;
static struct {
    pthread_once_t once;
    int ok;
    char path[600];
} tile__jl_st = {.once = PTHREAD_ONCE_INIT};
static void tile__jl_open(void) {
    static const char *const sonames[] = {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"};
    static const char *const lib64[] = {"lib64"};
    char err[256], tried[400];
    if (!tile__cuda_knobs()->jitlink) return;
    void *h = tile__dlopen_toolkit(sonames, 3, lib64, 1, tile__jl_st.path, sizeof tile__jl_st.path, err, sizeof err, tried, sizeof tried);
    if (!h) return;
    int ok = 1;
    /* each name as CUDA 13 exports it, else with the ABI suffix its header maps it to */
#define TILE__JL_LOAD(name, ret, params)                                                         \
    if (ok) {                                                                                   \
        void *sym = dlsym(h, #name);                                                            \
        if (!sym) sym = dlsym(h, "__" #name "_13_0");                                           \
        if (!sym) sym = dlsym(h, "__" #name "_12_0");                                           \
        if (sym) memcpy(&tile__jl.name, &sym, sizeof sym);                                      \
        else ok = 0;                                                                            \
    }
    TILE__JL_SYMS(TILE__JL_LOAD)
#undef TILE__JL_LOAD
    if (!ok) {
        memset(&tile__jl, 0, sizeof tile__jl);
        dlclose(h);
        return;
    }
    tile__jl_st.ok = 1;
}
/* PTX -> cubin for arch ("sm_90a") by nvJitLink (malloc'd); NULL when it
   cannot (not there, switched off, or the PTX rejected: the driver's JIT
   then says why). */
static void *tile__jl_ptx_to_cubin(const char *ptx, const char *arch, size_t *size) {
    enum { NVJITLINK_INPUT_PTX_ = 2 };
    *size = 0;
    pthread_once(&tile__jl_st.once, tile__jl_open);
    if (!tile__jl_st.ok || !arch || strncmp(arch, "sm_", 3) != 0) return NULL;
    char opt[48];
    snprintf(opt, sizeof opt, "-arch=%s", arch);
    const char *opts[1] = {opt};
    tile__jl_handle h = NULL;
    void *out = NULL;
    size_t n = 0;
    if (tile__jl.nvJitLinkCreate(&h, 1, opts) != 0) return NULL;
    if (tile__jl.nvJitLinkAddData(h, NVJITLINK_INPUT_PTX_, ptx, strlen(ptx), "tile.ptx") == 0 && tile__jl.nvJitLinkComplete(h) == 0 &&
        tile__jl.nvJitLinkGetLinkedCubinSize(h, &n) == 0 && n && (out = malloc(n))) {
        if (tile__jl.nvJitLinkGetLinkedCubin(h, out) == 0) *size = n;
        else {
            free(out);
            out = NULL;
        }
    }
    tile__jl.nvJitLinkDestroy(&h);
    return out;
}

/* "sm_90a" or "compute_90a" -> "compute_90a"; 0 when it is neither. */
static int tile__nvrtc_virtual_arch(const char *arch, char *out, size_t n) {
    const char *num = strncmp(arch, "sm_", 3) == 0 ? arch + 3 : strncmp(arch, "compute_", 8) == 0 ? arch + 8 : NULL;
    if (!num) return 0;
    size_t digits = strspn(num, "0123456789");
    if (digits < 2 || digits > 3 || strlen(num + digits) > 1 || (num[digits] && !strchr("af", num[digits]))) return 0;
    snprintf(out, n, "compute_%s", num);
    return 1;
}

/* 1 when NVRTC compiles for `arch` (sm_XY, with `a` from sm_90 and `f` from
   sm_100); else 0 and why not. Only the form is checked when NVRTC does
   not load (compiling says why) or cannot list its targets. */
TILE__MAYBE_UNUSED static int tile__nvrtc_arch_ok(const char *arch, char *why, size_t n) {
    char varch[32];
    if (!arch || !tile__nvrtc_virtual_arch(arch, varch, sizeof varch)) {
        snprintf(why, n, "not an architecture like sm_80 or sm_90a");
        return 0;
    }
    if (!tile__nvrtc_available() || !tile__nvrtc_st.narchs) return 1;
    const char *num = varch + 8;
    int v = atoi(num);
    char sfx = num[strspn(num, "0123456789")];
    for (int i = 0; i < tile__nvrtc_st.narchs; i++)
        if (tile__nvrtc_st.archs[i] == v && (!sfx || (sfx == 'a' && v >= 90) || (sfx == 'f' && v >= 100))) return 1;
    size_t used = (size_t)snprintf(why, n, "NVRTC %d.%d compiles for", tile__nvrtc_st.major, tile__nvrtc_st.minor);
    for (int i = 0; i < tile__nvrtc_st.narchs && used < n; i++)
        used += (size_t)snprintf(why + used, n - used, "%s sm_%d", i ? "," : "", tile__nvrtc_st.archs[i]);
    if (used < n) snprintf(why + used, n - used, " (an `a` from sm_90, an `f` from sm_100)");
    return 0;
}

/* Compile self-contained CUDA C (no #include) to PTX for `arch` ("sm_90a").
   *ptx and *log (either may be NULL) are malloc'd, NUL-terminated; the log
   is kept on failure too. Failures are TILE_ERR_COMPILE with NVRTC's log,
   TILE_ERR_VALUE for an arch that is not sm_XY[a] or that NVRTC lacks. */
TILE__MAYBE_UNUSED static tile_status tile__nvrtc_compile(const char *src, const char *kernel_name, const char *arch, char **ptx,
                                                          char **log) {
    const char *kname = kernel_name && *kernel_name ? kernel_name : "kernel";
    char varch[32], opt_arch[64], progname[96];
    const char *opts[8];
    int nopt = 0;
    nvrtcProgram prog = NULL;
    nvrtcResult r;
    char *text = NULL;
    tile_status st = TILE_OK;
    if (ptx) *ptx = NULL;
    if (log) *log = NULL;
    if (!arch || !tile__nvrtc_virtual_arch(arch, varch, sizeof varch))
        return tile__error(TILE_ERR_VALUE, kname, NULL, 0, "target \"%s\" is not an architecture like sm_80 or sm_90a",
                           arch ? arch : "(null)");
    pthread_once(&tile__nvrtc_st.once, tile__nvrtc_open);
    if (!tile__nvrtc_st.ok) return tile__error(TILE_ERR_COMPILE, kname, NULL, 0, "%s", tile__nvrtc_st.why);
    char why[400];
    if (!tile__nvrtc_arch_ok(arch, why, sizeof why)) return tile__error(TILE_ERR_VALUE, kname, NULL, 0, "target \"%s\": %s", arch, why);

    snprintf(opt_arch, sizeof opt_arch, "--gpu-architecture=%s", varch);
    snprintf(progname, sizeof progname, "%s.cu", kname);
    opts[nopt++] = opt_arch;
    opts[nopt++] = "-default-device";
    opts[nopt++] = "--std=c++17";
    /* a * b + c stays two roundings unless the kernel asks for tl_fma: the
       same results as the interpreter (and CPU code) give */
    opts[nopt++] = "--fmad=false";
    if (tile__cuda_knobs()->debug) opts[nopt++] = "-lineinfo";

    if ((r = tile__nvrtc.nvrtcCreateProgram(&prog, src, progname, 0, NULL, NULL)) != NVRTC_SUCCESS)
        return tile__error(TILE_ERR_COMPILE, kname, NULL, 0, "nvrtcCreateProgram failed: %s", tile__nvrtc.nvrtcGetErrorString(r));
    r = tile__nvrtc.nvrtcCompileProgram(prog, nopt, opts);

    size_t n = 0;
    if (tile__nvrtc.nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 0 && (text = (char *)malloc(n + 1))) {
        if (tile__nvrtc.nvrtcGetProgramLog(prog, text) != NVRTC_SUCCESS) text[0] = 0;
        text[n] = 0;
    }
    if (r != NVRTC_SUCCESS) {
        st = tile__error(TILE_ERR_COMPILE, kname, NULL, 0, "NVRTC %d.%d (%s, %s) failed with %s:\n%.520s",
                         tile__nvrtc_st.major, tile__nvrtc_st.minor, opt_arch, tile__nvrtc_st.path,
                         tile__nvrtc.nvrtcGetErrorString(r), text && text[0] ? text : "(no log)");
    } else if (ptx) {
        n = 0;
        if ((r = tile__nvrtc.nvrtcGetPTXSize(prog, &n)) != NVRTC_SUCCESS)
            st = tile__error(TILE_ERR_COMPILE, kname, NULL, 0, "nvrtcGetPTXSize failed: %s", tile__nvrtc.nvrtcGetErrorString(r));
        else if (!(*ptx = (char *)malloc(n + 1)))
            st = tile__error(TILE_ERR_NOMEM, kname, NULL, 0, "out of host memory for %zu bytes of PTX", n);
        else if ((r = tile__nvrtc.nvrtcGetPTX(prog, *ptx)) != NVRTC_SUCCESS) {
            st = tile__error(TILE_ERR_COMPILE, kname, NULL, 0, "nvrtcGetPTX failed: %s", tile__nvrtc.nvrtcGetErrorString(r));
            free(*ptx);
            *ptx = NULL;
        } else
            (*ptx)[n] = 0;
    }
    tile__nvrtc.nvrtcDestroyProgram(&prog);
    if (log) *log = text;
    else free(text);
    return st;
}

/* PTX -> cubin by the driver's JIT (malloc'd); NULL when it cannot. */
static void *tile__cu_ptx_to_cubin(const char *ptx, size_t *size) {
    enum { CU_JIT_INPUT_PTX_ = 1 };
    *size = 0;
    if (tile__cu_enter(NULL, 0) != TILE_OK) {
        tile_clear_error();
        return NULL;
    }
    /* the driver's linker: an old driver without it only loses the cubin */
    if (!tile__cu.cuLinkCreate_v2 || !tile__cu.cuLinkAddData_v2 || !tile__cu.cuLinkComplete || !tile__cu.cuLinkDestroy) return NULL;
    void *st = NULL, *out = NULL, *cubin = NULL;
    size_t n = 0;
    if (tile__cu.cuLinkCreate_v2(0, NULL, NULL, &st) != CUDA_SUCCESS) return NULL;
    if (tile__cu.cuLinkAddData_v2(st, CU_JIT_INPUT_PTX_, (void *)(uintptr_t)ptx, strlen(ptx) + 1, "tile.ptx", 0, NULL, NULL) == CUDA_SUCCESS &&
        tile__cu.cuLinkComplete(st, &cubin, &n) == CUDA_SUCCESS && cubin && n && (out = malloc(n))) {
        memcpy(out, cubin, n);
        *size = n;
    }
    tile__cu.cuLinkDestroy(st);
    return out;
}
