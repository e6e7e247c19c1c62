/* tests/cuda_fake.c — a stand-in for libcuda.so with two devices and no
   GPU, for the runtime's bookkeeping of several devices on machines that
   have none (CI): loaded through TILE_CUDA by test_devices
   (TEST_DEVICES_FAKE=1).

   It keeps what a driver keeps per context, and refuses what a driver
   refuses across contexts: a launch of a function whose module was loaded
   in another context than the calling thread's current one, or on a
   stream of another context (CUDA_ERROR_INVALID_CONTEXT / _HANDLE), an
   event recorded on another context's stream, peer access enabled twice.
   Memory is host memory, so copies (peer copies included) move real
   bytes; kernels do not run: a launch is checked and counted
   (cuda_fake_launches, cuda_fake_modules: per device). Only the driver
   calls tile makes exist. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum {
    OK = 0,
    E_INVALID_VALUE = 1,
    E_OUT_OF_MEMORY = 2,
    E_NOT_INITIALIZED = 3,
    E_INVALID_DEVICE = 101,
    E_INVALID_CONTEXT = 201,
    E_INVALID_HANDLE = 400,
    E_NOT_FOUND = 500,
    E_PEER_ALREADY = 704,
};
enum { NDEV = 2 };

typedef struct fake_ctx { int dev; int peer[NDEV]; } fake_ctx;
typedef struct fake_stream { fake_ctx *c; } fake_stream;
typedef struct fake_event { fake_ctx *c; } fake_event;
typedef struct fake_module fake_module;
typedef struct fake_function { fake_module *m; } fake_function;
struct fake_module { fake_ctx *c; fake_function fn; };   /* (tile takes one function a module) */

static fake_ctx ctxs[NDEV] = {{0, {0, 0}}, {1, {0, 0}}};
static _Thread_local fake_ctx *cur;
static int inited;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long launches[NDEV], modules[NDEV];

/* what the test reads back */
long cuda_fake_launches(int dev) { return dev >= 0 && dev < NDEV ? launches[dev] : -1; }
long cuda_fake_modules(int dev) { return dev >= 0 && dev < NDEV ? modules[dev] : -1; }

CUresult cuInit(unsigned flags)
{
    (void)flags;
    inited = 1;
    return OK;
}
CUresult cuDriverGetVersion(int *v)
{
    *v = 13000;
    return OK;
}
CUresult cuGetErrorName(CUresult r, const char **s)
{
    *s = r == E_INVALID_CONTEXT ? "CUDA_ERROR_INVALID_CONTEXT" : r == E_INVALID_HANDLE ? "CUDA_ERROR_INVALID_HANDLE" : "CUDA_ERROR_FAKE";
    return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s)
{
    *s = r == E_INVALID_CONTEXT ? "invalid device context" : r == E_INVALID_HANDLE ? "invalid resource handle" : "an error of the fake driver";
    return OK;
}
CUresult cuDeviceGetCount(int *n)
{
    if (!inited) return E_NOT_INITIALIZED;
    *n = NDEV;
    return OK;
}
CUresult cuDeviceGet(int *d, int ordinal)
{
    if (ordinal < 0 || ordinal >= NDEV) return E_INVALID_DEVICE;
    *d = ordinal;
    return OK;
}
CUresult cuDeviceGetName(char *name, int len, int dev)
{
    if (dev < 0 || dev >= NDEV || len < 1) return E_INVALID_DEVICE;
    strncpy(name, "tile fake GPU (no kernels run)", (size_t)len - 1);
    name[len - 1] = 0;
    return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
    if (dev < 0 || dev >= NDEV) return E_INVALID_DEVICE;
    switch (attr) {
    case 75: *v = 9; break;             /* compute capability 9.0 */
    case 76: *v = 0; break;
    case 16: *v = 132; break;           /* multiprocessors */
    case 97: *v = 232448; break;        /* opt-in shared memory per block */
    case 8: *v = 49152; break;          /* shared memory per block */
    case 81: *v = 233472; break;        /* per multiprocessor */
    case 1: *v = 1024; break;           /* threads per block */
    case 10: *v = 32; break;            /* warp */
    case 12: *v = 65536; break;         /* registers per block */
    case 38: *v = 50 << 20; break;      /* L2 */
    case 13: *v = 1980000; break;       /* clock kHz */
    case 36: *v = 2619000; break;       /* memory clock kHz */
    case 37: *v = 5120; break;          /* bus bits */
    default: *v = 0; break;
    }
    return OK;
}
CUresult cuDevicePrimaryCtxRetain(fake_ctx **c, int dev)
{
    if (dev < 0 || dev >= NDEV) return E_INVALID_DEVICE;
    *c = &ctxs[dev];
    return OK;
}
CUresult cuCtxGetCurrent(fake_ctx **c)
{
    *c = cur;
    return OK;
}
CUresult cuCtxSetCurrent(fake_ctx *c)
{
    cur = c;
    return OK;
}
CUresult cuCtxSynchronize(void) { return cur ? OK : E_INVALID_CONTEXT; }
CUresult cuMemGetInfo_v2(size_t *fr, size_t *total)
{
    if (!cur) return E_INVALID_CONTEXT;
    *fr = *total = (size_t)8 << 30;
    return OK;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    if (!cur) return E_INVALID_CONTEXT;
    void *q = aligned_alloc(256, (n + 255) / 256 * 256);
    if (!q) return E_OUT_OF_MEMORY;
    *p = (CUdeviceptr)(uintptr_t)q;
    return OK;
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags)
{
    (void)flags;
    return cuMemAlloc_v2(p, n);
}
CUresult cuMemFree_v2(CUdeviceptr p)
{
    free((void *)(uintptr_t)p);
    return OK;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n)
{
    memcpy((void *)(uintptr_t)d, s, n);
    return OK;
}
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n)
{
    memcpy(d, (const void *)(uintptr_t)s, n);
    return OK;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n)
{
    memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
    return OK;
}
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char b, size_t n)
{
    memset((void *)(uintptr_t)d, b, n);
    return OK;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, fake_stream *st)
{
    (void)st;
    return cuMemcpyHtoD_v2(d, s, n);
}
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, fake_stream *st)
{
    (void)st;
    return cuMemcpyDtoH_v2(d, s, n);
}
CUresult cuMemcpyPeer(CUdeviceptr d, fake_ctx *dc, CUdeviceptr s, fake_ctx *sc, size_t n)
{
    if (!dc || !sc) return E_INVALID_CONTEXT;
    return cuMemcpyDtoD_v2(d, s, n);
}
CUresult cuModuleLoadDataEx(fake_module **m, const void *image, unsigned n, int *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    if (!cur) return E_INVALID_CONTEXT;
    if (!image) return E_INVALID_VALUE;
    if (!(*m = (fake_module *)malloc(sizeof **m))) return E_OUT_OF_MEMORY;
    (*m)->c = cur;
    pthread_mutex_lock(&lock);
    modules[cur->dev]++;
    pthread_mutex_unlock(&lock);
    return OK;
}
CUresult cuModuleGetFunction(fake_function **f, fake_module *m, const char *name)
{
    if (!m || !name) return E_NOT_FOUND;
    m->fn.m = m;
    *f = &m->fn;
    return OK;
}
CUresult cuModuleUnload(fake_module *m)
{
    free(m);
    return OK;
}
CUresult cuFuncGetAttribute(int *v, int attr, fake_function *f)
{
    (void)attr, (void)f;
    *v = 0;
    return OK;
}
CUresult cuFuncSetAttribute(fake_function *f, int attr, int v)
{
    (void)attr, (void)v;
    return f ? OK : E_INVALID_HANDLE;
}
CUresult cuLaunchKernel(fake_function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        fake_stream *s, void **params, void **extra)
{
    (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem, (void)params, (void)extra;
    if (!cur || !f || f->m->c != cur) return E_INVALID_CONTEXT;   /* a function of another context's module */
    if (s && s->c != cur) return E_INVALID_HANDLE;                /* a stream of another context */
    pthread_mutex_lock(&lock);
    launches[cur->dev]++;
    pthread_mutex_unlock(&lock);
    return OK;
}
CUresult cuStreamCreate(fake_stream **s, unsigned flags)
{
    (void)flags;
    if (!cur) return E_INVALID_CONTEXT;
    if (!(*s = (fake_stream *)malloc(sizeof **s))) return E_OUT_OF_MEMORY;
    (*s)->c = cur;
    return OK;
}
CUresult cuStreamDestroy_v2(fake_stream *s)
{
    free(s);
    return OK;
}
CUresult cuStreamSynchronize(fake_stream *s)
{
    (void)s;
    return OK;
}
CUresult cuStreamGetCtx(fake_stream *s, fake_ctx **c)
{
    if (!s) return E_INVALID_HANDLE;
    *c = s->c;
    return OK;
}
CUresult cuEventCreate(fake_event **e, unsigned flags)
{
    (void)flags;
    if (!cur) return E_INVALID_CONTEXT;
    if (!(*e = (fake_event *)malloc(sizeof **e))) return E_OUT_OF_MEMORY;
    (*e)->c = cur;
    return OK;
}
CUresult cuEventRecord(fake_event *e, fake_stream *s)
{
    if (!e) return E_INVALID_HANDLE;
    if ((s ? s->c : cur) != e->c) return E_INVALID_HANDLE;   /* an event of another context */
    return OK;
}
CUresult cuEventSynchronize(fake_event *e) { return e ? OK : E_INVALID_HANDLE; }
CUresult cuEventQuery(fake_event *e) { return e ? OK : E_INVALID_HANDLE; }
CUresult cuEventElapsedTime(float *ms, fake_event *a, fake_event *b)
{
    if (!a || !b || a->c != b->c) return E_INVALID_HANDLE;
    *ms = 0.001f;
    return OK;
}
CUresult cuEventDestroy_v2(fake_event *e)
{
    free(e);
    return OK;
}
CUresult cuDeviceCanAccessPeer(int *can, int dev, int peer)
{
    if (dev < 0 || dev >= NDEV || peer < 0 || peer >= NDEV) return E_INVALID_DEVICE;
    *can = dev != peer;
    return OK;
}
CUresult cuCtxEnablePeerAccess(fake_ctx *peer, unsigned flags)
{
    (void)flags;
    if (!cur || !peer || peer == cur) return E_INVALID_CONTEXT;
    pthread_mutex_lock(&lock);
    int already = cur->peer[peer->dev];
    cur->peer[peer->dev] = 1;
    pthread_mutex_unlock(&lock);
    return already ? E_PEER_ALREADY : OK;
}
