/* tile/profile.h — >>profile: the profiler, Triton's Proton in C.

   A profile runs from tile_profile_start to tile_profile_stop (or to the
   program's end: the records are written from atexit, so an exit() in the
   middle loses nothing). While it runs:
   - every tile launch is a record: the kernel, its meta-parameters, warps
     and stages (the tuned ones under a tuner), the grid, the stream, the
     innermost scope of the launching thread, the host time of the launch
     call, and the kernel's own time: on the GPU a pair of CUDA events around
     cuLaunchKernel, read back in order, in the interpreter the host clock
     around the run; a launch that fails is kept, with its status;
   - scopes (tile_scope_begin/end, TILE_SCOPE) nest per thread and carry the
     user's flops and bytes; a launch's flops and bytes come from its options
     (tile_launch.flops/.bytes) or from the kernel's metrics function
     (tile_kernel_metrics), Triton's launch_metadata;
   - the tuner opens a scope "autotune <kernel>" around a tuning, so its
     timing runs are told from the program's own launches.
   When it stops, the records become: a text tree (scope, kernel: calls,
   time, TFLOP/s, GB/s, share of the parent), printed on stderr and written
   to <path>.txt; a Chrome-trace JSON (<path>.json, for Perfetto or
   chrome://tracing: host threads with their scopes and launch calls, one
   track per stream with its kernels); a page (<path>.html) that draws the
   same trace with no network (tile/profile_html.h).

   Why it is shaped this way: the launch path pays one atomic load when no
   profile runs (tile__prof_on); everything else happens under one mutex,
   and the outputs are computed from the raw records at the stop, so a
   record is a plain append. Event pairs come from a bounded pool: when it
   runs out, the oldest pair is waited for and read back, so a long profile
   holds a fixed number of events. The scope stack is per thread and per
   profile: an end that meets no begin of this profile on its thread (the
   begin came before the start) is not an error, one that meets another
   scope's begin is. */
#include <stdatomic.h>
#include "profile_html.h"   /* the page's script and style */

#define TILE__PROF_PAIRS 4096   /* event pairs in flight before the oldest is read back */

typedef struct tile__prof_scope {
    char name[64];
    const char *file;
    int line;
    int parent, thread, depth;   /* parent: a scope index, -1 at the thread's top */
    double t0, t1;               /* host ms since the start; t1 < 0 while open */
    double flops, bytes;
} tile__prof_scope;

typedef struct tile__prof_launch {
    char kernel[64];
    char config[200];            /* "BLOCK=128 ... w4 s3" */
    unsigned grid[3];
    void *stream;
    int thread, scope;           /* the launching thread's innermost scope, or -1 */
    double h0, h1;               /* the launch call, host ms since the start */
    double g0, g1;               /* the kernel, ms since the start; g1 < g0: not timed */
    double flops, bytes;
    int pair;                    /* the event pair in flight, or -1 */
    int foreign;                 /* a kernel of another library (CUPTI's record alone) */
    long seq;                    /* with CUPTI: the launch's place in the order launches reached the driver (0: never) */
    int kring;                   /* with the kernel clock: its slot's ring and place there (kring -1: none) */
    unsigned kidx;
    tile_status st;
} tile__prof_launch;

typedef struct tile__prof_pair {
    CUevent ev[2];
    int launch;                  /* the record it times, -1 when free */
} tile__prof_pair;

/* >>profile: the in-kernel scope records of one launch (the layout: tile/emit.h) */
typedef struct tile__prof_kbuf {
    int launch;                  /* its record */
    CUdeviceptr dev;             /* on a GPU, until the stop reads it back (0: none) */
    unsigned char *host;         /* the records: the interpreter's, or the GPU's read back */
    size_t bytes;
    unsigned all;                /* programs of the grid (the header says how many are recorded) */
    int mode;                    /* TILE__KPROF_WARP or _WARPGROUP */
    int nnames;
    char (*names)[64];           /* the kernel's scope names, by tag >> 1 */
} tile__prof_kbuf;
#define TILE__PROF_KSLOTS 256                      /* records per warp (warpgroup) and launch */
#define TILE__PROF_KPER 2                          /* launches recorded per kernel and config */
#define TILE__PROF_KLAUNCH ((size_t)64 << 20)      /* bytes of one launch's records, at most */
#define TILE__PROF_KTOTAL ((size_t)2048 << 20)     /* bytes of a profile's records, at most */
/* the kernel clock's slots (tile/emit.h): rings of TILE__KTIME_RING
   launches (17 MB), zeroed when made; a profile makes at most 128 (about
   8 million launches, 2.2 GB) */
#define TILE__PROF_KRINGS 128
static size_t tile__prof_kring_bytes(void) { return (size_t)(1 + TILE__KTIME_LANES) * TILE__KTIME_LANE_STRIDE; }
enum { TILE__PROF_BY_CUPTI, TILE__PROF_BY_EVENTS, TILE__PROF_BY_CLOCK };   /* what a start asks to time kernels by */

typedef struct tile__prof_metric {
    const tile_kernel *k;
    tile_metrics_fn fn;
    void *user;
} tile__prof_metric;

static pthread_mutex_t tile__prof_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int tile__prof_on;   /* a profile runs: the launch path's one check */
static atomic_int tile__prof_nfn;  /* kernels with a metrics function: none, no lookup */
static struct {
    unsigned gen;                /* which profile: thread stacks of an older one are stale */
    char path[4096];             /* "" : the tree on stderr only */
    unsigned formats;            /* TILE__PROF_TREE | _JSON | _HTML */
    char file[256];              /* where it started */
    int line;
    double t0;                   /* host ms at the start */
    int gpu;                     /* kernels timed on a GPU: by CUPTI, the kernel clock or CUDA events */
    int cupti;                   /* by CUPTI's activity records */
    int kclock;                  /* by the kernels' own clock (the word "clock") */
    int by;                      /* TILE__PROF_BY_*: what the start asked for */
    char timing_why[320];        /* why events, not CUPTI */
    CUdeviceptr kring[TILE__PROF_KRINGS];   /* the kernel clock's slots */
    int nkrings;
    unsigned kused;              /* slots taken in the last ring */
    int kuntimed;                /* launches the kernel clock could not time (no slot) */
    char kuntimed_why[160];
    double krt0;                 /* the host's realtime clock at the start (ns) */
    int kalign;                  /* the GPU clock placed on the host's by: 1 the realtime clock, 2 the launch calls */
    uint64_t cupti_t0;           /* CUPTI's clock at the start (ns) */
    long seq;                    /* launches handed to the driver so far */
    CUevent base;                /* recorded at the start: the events' zero */
    tile__prof_scope *scopes;
    int nscopes, capscopes;
    tile__prof_launch *launches;
    int nlaunches, caplaunches;
    tile__prof_pair *pairs;      /* TILE__PROF_PAIRS, made on first use */
    int npairs, fifo_head, fifo_len, *fifo;
    int nthreads;
    int lost;                    /* records not kept: out of memory */
    int kmode;                   /* in-kernel scopes: TILE__KPROF_WARP (default) or _WARPGROUP */
    tile__prof_kbuf *kbufs;      /* the launches that recorded in-kernel scopes */
    int nkbufs, capkbufs;
    size_t kbytes;               /* their bytes */
    int knot;                    /* launches whose scopes were not recorded (memory) */
    char knot_why[160];
    int kmore;                   /* launches not recorded: TILE__PROF_KPER of their config were */
    int atexit_set, atexit_free;
    int dev;                     /* the device it records (this thread's at the start) */
    int otherdev;                /* launches on other devices: not recorded */
    tile__prof_metric *metrics;  /* kernels' metrics functions: outlive profiles */
    int nmetrics, capmetrics;
} tile__prof;

enum { TILE__PROF_TREE = 1, TILE__PROF_JSON = 2, TILE__PROF_HTML = 4 };

/* this thread in the running profile: its number, its innermost open scope */
static _Thread_local struct {
    unsigned gen;
    int thread, top, begun;
} tile__prof_me;

static double tile__prof_now(void) { return tile__host_ms() - tile__prof.t0; }

/* the calling thread's state for the running profile (lock held) */
static void tile__prof_thread_locked(void) {
    if (tile__prof_me.gen == tile__prof.gen && tile__prof_me.thread > 0) return;
    tile__prof_me.gen = tile__prof.gen;
    tile__prof_me.thread = ++tile__prof.nthreads;
    tile__prof_me.top = -1;
    tile__prof_me.begun = 0;
}

/* room for one more element of an array (lock held); 0 when out of memory */
static int tile__prof_grow(void **arr, int n, int *cap, size_t size) {
    if (n < *cap) return 1;
    int nc = *cap ? *cap * 2 : 256;
    void *p = realloc(*arr, (size_t)nc * size);
    if (!p) return 0;
    *arr = p;
    *cap = nc;
    return 1;
}

/* ---- the kernels' time on the GPU: event pairs ------------------------------------------- */
/* read a pair back into its record (waits for its end event), and free it */
static void tile__prof_pair_read(int p) {
    tile__prof_pair *pr = &tile__prof.pairs[p];
    int l = pr->launch;
    pr->launch = -1;
    if (l < 0 || l >= tile__prof.nlaunches) return;
    tile__prof_launch *r = &tile__prof.launches[l];
    float a = 0, b = 0;
    r->pair = -1;
    if (r->st != TILE_OK) return;   /* the driver refused the launch: no kernel ran */
    if (tile__cu.cuEventSynchronize(pr->ev[1]) != CUDA_SUCCESS || tile__cu.cuEventElapsedTime(&a, tile__prof.base, pr->ev[0]) != CUDA_SUCCESS ||
        tile__cu.cuEventElapsedTime(&b, tile__prof.base, pr->ev[1]) != CUDA_SUCCESS)
        return;   /* not timed: the launch failed before its end event, or the context is gone */
    r->g0 = a;
    r->g1 = b;
}
/* the oldest pair in flight, read back */
static void tile__prof_fifo_pop(void) {
    int p = tile__prof.fifo[tile__prof.fifo_head];
    tile__prof.fifo_head = (tile__prof.fifo_head + 1) % TILE__PROF_PAIRS;
    tile__prof.fifo_len--;
    tile__prof_pair_read(p);
}
/* a free pair for launch record l (lock held); -1 when none can be made */
static int tile__prof_pair_take(int l) {
    if (!tile__prof.pairs) {
        tile__prof.pairs = (tile__prof_pair *)calloc(TILE__PROF_PAIRS, sizeof *tile__prof.pairs);
        tile__prof.fifo = (int *)calloc(TILE__PROF_PAIRS, sizeof *tile__prof.fifo);
        if (!tile__prof.pairs || !tile__prof.fifo) {
            free(tile__prof.pairs), free(tile__prof.fifo);
            tile__prof.pairs = NULL, tile__prof.fifo = NULL;
            return -1;
        }
    }
    int p = -1;
    if (tile__prof.npairs < TILE__PROF_PAIRS) {
        tile__prof_pair *pr = &tile__prof.pairs[tile__prof.npairs];
        if (tile__cu.cuEventCreate(&pr->ev[0], CU_EVENT_DEFAULT) != CUDA_SUCCESS) return -1;
        if (tile__cu.cuEventCreate(&pr->ev[1], CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
            tile__cu.cuEventDestroy_v2(pr->ev[0]);
            return -1;
        }
        p = tile__prof.npairs++;
    }
    if (p < 0) {   /* every pair in flight: the oldest is read back and reused */
        p = tile__prof.fifo[tile__prof.fifo_head];
        tile__prof_fifo_pop();
    }
    tile__prof.pairs[p].launch = l;
    tile__prof.fifo[(tile__prof.fifo_head + tile__prof.fifo_len) % TILE__PROF_PAIRS] = p;
    tile__prof.fifo_len++;
    return p;
}

/* ---- the kernels' time on the GPU: CUPTI's activity records ------------------------------
   Preferred to event pairs: the driver writes a record per kernel with its
   start and end, off the launch path, and the launch itself does nothing
   more. libcupti is opened with dlopen (TILE_CUPTI, else the toolkit's
   places); without it, or when another tool holds CUPTI, the profile uses
   event pairs and says so. The records' layout is CUPTI's public one; the
   fields read (a kernel's start, end, stream, correlation id, name) sit at
   the same offsets in every kernel record version 4 to 10.
   A record is matched to its launch by the kernel's name and the order of
   the launches: the correlation ids number the driver's calls in the order
   they were made, and the profile numbers its launches as they reach the
   driver. (CUPTI's external correlation ids would tie them exactly, but
   they come only with a record of every driver call, which costs every
   call.) Two threads launching kernels of the same name at the same
   instant may see their two times swapped. Kernels of other names (cuBLAS's,
   say) are kept as other libraries' kernels. */
typedef int (*tile__cupti_fn_enable)(int kind);
typedef int (*tile__cupti_fn_register)(void (*req)(uint8_t **, size_t *, size_t *), void (*done)(CUcontext, uint32_t, uint8_t *, size_t, size_t));
typedef int (*tile__cupti_fn_next)(uint8_t *buf, size_t valid, void **rec);
typedef int (*tile__cupti_fn_flush)(uint32_t flag);
typedef int (*tile__cupti_fn_ts)(uint64_t *ts);
enum { TILE__CUPTI_KERNEL = 10 };   /* CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL */
/* a kernel's record: its name copied (cut as a launch record's is), as
   CUPTI's string is CUPTI's to free */
typedef struct { uint32_t corr, stream; uint64_t start, end; char name[64]; } tile__cupti_kernel;
static struct {
    pthread_once_t once;
    int ok;                      /* loaded and its callbacks registered */
    char why[320];               /* why not */
    tile__cupti_fn_enable enable, disable;
    tile__cupti_fn_register reg;
    tile__cupti_fn_next next;
    tile__cupti_fn_flush flush;
    tile__cupti_fn_ts ts;
    pthread_mutex_t lock;        /* the records, filled from CUPTI's thread */
    tile__cupti_kernel *ker;
    int nker, capker;
    int dropped;
} tile__cupti = {PTHREAD_ONCE_INIT, 0, "", NULL, NULL, NULL, NULL, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0};

static void tile__cupti_request(uint8_t **buf, size_t *size, size_t *max) {
    *size = (size_t)1 << 20;
    *buf = (uint8_t *)malloc(*size);   /* CUPTI wants 8-byte aligned buffers: malloc's are */
    if (!*buf) *size = 0;
    *max = 0;
}
static void tile__cupti_complete(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid) {
    (void)ctx, (void)stream, (void)size;
    void *rec = NULL;
    pthread_mutex_lock(&tile__cupti.lock);
    while (buf && tile__cupti.next(buf, valid, &rec) == 0 && rec) {
        const unsigned char *r = (const unsigned char *)rec;
        int kind;
        memcpy(&kind, r, sizeof kind);
        if (kind != TILE__CUPTI_KERNEL) continue;
        uint32_t device;
        memcpy(&device, r + 40, sizeof device);   /* the kernels of the profile's device only */
        if ((int)device != tile__prof.dev) continue;
        if (!tile__prof_grow((void **)&tile__cupti.ker, tile__cupti.nker, &tile__cupti.capker, sizeof *tile__cupti.ker)) {
            tile__cupti.dropped++;
            continue;
        }
        tile__cupti_kernel *k = &tile__cupti.ker[tile__cupti.nker++];
        memcpy(&k->start, r + 16, 8), memcpy(&k->end, r + 24, 8), memcpy(&k->stream, r + 48, 4), memcpy(&k->corr, r + 92, 4);
        const char *name;
        memcpy(&name, r + 104, sizeof name);   /* CUPTI's string: copied */
        tile__copy_cut(k->name, sizeof k->name, name ? name : "(unnamed kernel)");
    }
    pthread_mutex_unlock(&tile__cupti.lock);
    free(buf);
}
static void tile__cupti_open(void) {
    const tile__knob_values *kn = tile__knob_values_get();
    const char *knob = kn->cupti;
    if (strcmp(knob, "0") == 0) {
        snprintf(tile__cupti.why, sizeof tile__cupti.why, "TILE_CUPTI=0");
        return;
    }
    void *h = NULL;
    char err[256] = "", path[600], tried[600];
    static const char *const sonames[] = {"libcupti.so", "libcupti.so.13"};
    static const char *const subs[] = {"lib64", "extras/CUPTI/lib64", "targets/x86_64-linux/lib", "lib"};
    if (knob[0]) h = tile__dlopen(knob, err, sizeof err);
    else h = tile__dlopen_toolkit(sonames, 2, subs, 4, path, sizeof path, err, sizeof err, tried, sizeof tried);
    if (!h) {
        if (knob[0]) snprintf(tile__cupti.why, sizeof tile__cupti.why, "no libcupti at TILE_CUPTI=%.100s (%.150s)", knob, err);
        else snprintf(tile__cupti.why, sizeof tile__cupti.why, "no libcupti in %.200s%s%.80s", tried, err[0] ? ": " : "", err);
        return;
    }
    int ok = tile__dlsym_into(h, "cuptiActivityEnable", &tile__cupti.enable, sizeof tile__cupti.enable, "libcupti", tile__cupti.why, sizeof tile__cupti.why) &&
             tile__dlsym_into(h, "cuptiActivityDisable", &tile__cupti.disable, sizeof tile__cupti.disable, "libcupti", tile__cupti.why, sizeof tile__cupti.why) &&
             tile__dlsym_into(h, "cuptiActivityRegisterCallbacks", &tile__cupti.reg, sizeof tile__cupti.reg, "libcupti", tile__cupti.why, sizeof tile__cupti.why) &&
             tile__dlsym_into(h, "cuptiActivityGetNextRecord", &tile__cupti.next, sizeof tile__cupti.next, "libcupti", tile__cupti.why, sizeof tile__cupti.why) &&
             tile__dlsym_into(h, "cuptiActivityFlushAll", &tile__cupti.flush, sizeof tile__cupti.flush, "libcupti", tile__cupti.why, sizeof tile__cupti.why) &&
             tile__dlsym_into(h, "cuptiGetTimestamp", &tile__cupti.ts, sizeof tile__cupti.ts, "libcupti", tile__cupti.why, sizeof tile__cupti.why);
    int r = ok ? tile__cupti.reg(tile__cupti_request, tile__cupti_complete) : -1;
    if (ok && r != 0) snprintf(tile__cupti.why, sizeof tile__cupti.why, "cuptiActivityRegisterCallbacks failed with CUPTI error %d", r);
    tile__cupti.ok = ok && r == 0;   /* the library stays open: CUPTI lives as long as the process */
}
/* turn the kernel records on (start) or off, flushing them (stop); 1 when on */
static int tile__cupti_switch(int on, char *why, size_t n) {
    pthread_once(&tile__cupti.once, tile__cupti_open);
    if (!tile__cupti.ok) {
        tile__copy_cut(why, n, tile__cupti.why);
        return 0;
    }
    if (!on) {
        tile__cupti.flush(1);   /* CUPTI_ACTIVITY_FLAG_FLUSH_FORCED */
        tile__cupti.disable(TILE__CUPTI_KERNEL);
        return 0;
    }
    int r = tile__cupti.enable(TILE__CUPTI_KERNEL);
    if (r != 0) {
        char text[96];
        snprintf(text, sizeof text, "cuptiActivityEnable failed with CUPTI error %d (another profiler holds CUPTI?)", r);
        tile__copy_cut(why, n, text);
    }
    return r == 0;
}
/* orders: kernel records by name, then correlation id; launches by name, then order */
static int tile__cupti_cmp_ker(const void *a, const void *b) {
    const tile__cupti_kernel *x = (const tile__cupti_kernel *)a, *y = (const tile__cupti_kernel *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->corr < y->corr ? -1 : x->corr > y->corr;
}
static int tile__cupti_cmp_launch(const void *a, const void *b) {
    const tile__prof_launch *x = &tile__prof.launches[*(const int *)a], *y = &tile__prof.launches[*(const int *)b];
    int c = strcmp(x->kernel, y->kernel);
    return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}
/* the records of this profile into its launches (lock held), each name's
   records in order to its launches that reached the driver in order; the
   others become records of their own ("another library's kernel") */
static void tile__cupti_collect_locked(void) {
    pthread_mutex_lock(&tile__cupti.lock);
    int nl = 0, *ours = (int *)malloc(sizeof(int) * (size_t)(tile__prof.nlaunches + 1));
    for (int i = 0; ours && i < tile__prof.nlaunches; i++)
        if (tile__prof.launches[i].seq > 0) ours[nl++] = i;
    if (!ours) tile__prof.lost += tile__prof.nlaunches;
    qsort(ours, (size_t)nl, sizeof *ours, tile__cupti_cmp_launch);
    qsort(tile__cupti.ker, (size_t)tile__cupti.nker, sizeof *tile__cupti.ker, tile__cupti_cmp_ker);
    int at = 0;
    for (int i = 0; i < tile__cupti.nker; i++) {
        const tile__cupti_kernel *k = &tile__cupti.ker[i];
        if (k->start < tile__prof.cupti_t0) continue;   /* from before this profile */
        double g0 = (double)(k->start - tile__prof.cupti_t0) / 1e6, g1 = (double)(k->end - tile__prof.cupti_t0) / 1e6;
        const char *name = k->name;
        int c = 1;
        while (at < nl && (c = strcmp(tile__prof.launches[ours[at]].kernel, name)) < 0) at++;
        if (at < nl && c == 0) {
            tile__prof_launch *r = &tile__prof.launches[ours[at++]];
            r->g0 = g0, r->g1 = g1;
            continue;
        }
        if (!tile__prof_grow((void **)&tile__prof.launches, tile__prof.nlaunches, &tile__prof.caplaunches, sizeof *tile__prof.launches)) {
            tile__prof.lost++;
            continue;
        }
        tile__prof_launch *r = &tile__prof.launches[tile__prof.nlaunches++];
        memset(r, 0, sizeof *r);
        tile__copy_cut(r->kernel, sizeof r->kernel, k->name);
        tile__copy_cut(r->config, sizeof r->config, "another library's kernel");
        r->stream = (void *)(uintptr_t)k->stream;
        r->scope = -1, r->pair = -1, r->foreign = 1;
        r->h0 = r->h1 = g0;
        r->g0 = g0, r->g1 = g1;
    }
    free(ours);
    tile__prof.lost += tile__cupti.dropped;
    tile__cupti.nker = tile__cupti.dropped = 0;
    pthread_mutex_unlock(&tile__cupti.lock);
}

/* ---- NVTX: scopes and launches as ranges that Nsight Systems and Compute show ------------
   While a profile runs, each scope and each launch call is also an NVTX
   range of its thread (nvtxRangePushA / nvtxRangePop), so a trace taken by
   Nsight carries tile's names. The functions come from the toolkit's
   libnvtx3interop (NVTX 3's exported entry points) or the older
   libnvToolsExt, opened with dlopen (TILE_NVTX names another; 0: none);
   with no tool attached they return at once. */
typedef int (*tile__nvtx_push_fn)(const char *message);
typedef int (*tile__nvtx_pop_fn)(void);
static struct {
    pthread_once_t once;
    tile__nvtx_push_fn push;
    tile__nvtx_pop_fn pop;
    char lib[600];               /* the one in use, or why none */
} tile__nvtx = {PTHREAD_ONCE_INIT, NULL, NULL, ""};
static void tile__nvtx_open(void) {
    const tile__knob_values *kn = tile__knob_values_get();
    const char *knob = kn->nvtx;
    if (strcmp(knob, "0") == 0) {
        tile__copy_cut(tile__nvtx.lib, sizeof tile__nvtx.lib, "none (TILE_NVTX=0)");
        return;
    }
    static const char *const names[] = {"libnvtx3interop.so.1", "libnvtx3interop.so", "libnvToolsExt.so.1", "libnvToolsExt.so"};
    static const char *const sub[] = {"lib64", "lib", "targets/x86_64-linux/lib"};
    char path[600], err[256] = "", tried[600];
    void *h = NULL;
    if (knob[0]) {
        tile__copy_cut(path, sizeof path, knob);
        h = tile__dlopen(knob, err, sizeof err);
    } else {
        h = tile__dlopen_toolkit(names, 4, sub, 3, path, sizeof path, err, sizeof err, tried, sizeof tried);
    }
    char why[256] = "";
    if (h && tile__dlsym_into(h, "nvtxRangePushA", &tile__nvtx.push, sizeof tile__nvtx.push, "the NVTX library", why, sizeof why) &&
        tile__dlsym_into(h, "nvtxRangePop", &tile__nvtx.pop, sizeof tile__nvtx.pop, "the NVTX library", why, sizeof why)) {
        tile__copy_cut(tile__nvtx.lib, sizeof tile__nvtx.lib, path);
        return;
    }
    tile__nvtx.push = NULL, tile__nvtx.pop = NULL;
    snprintf(tile__nvtx.lib, sizeof tile__nvtx.lib, "none (%.300s)",
             why[0] ? why : knob[0] ? err : "no libnvtx3interop or libnvToolsExt in the library path, CUDA_HOME, CUDA_PATH or /usr/local/cuda");
}
static void tile__nvtx_push(const char *name) {
    if (tile__nvtx.push) tile__nvtx.push(name);
}
static void tile__nvtx_pop(void) {
    if (tile__nvtx.pop) tile__nvtx.pop();
}

/* ---- launches ------------------------------------------------------------------------ */
/* A launch's handle: its profile and record, or gen 0 when nothing is recorded. */
typedef struct tile__prof_tok {
    unsigned gen;
    int rec;
    int cupti;                   /* timed by CUPTI or the kernel clock: the launch path does no more */
    int kmode;                   /* in-kernel scopes are recorded so (TILE__KPROF_*; a kernel without them ignores it) */
    uint64_t kslot;              /* the kernel clock's slot of the launch (a device address), 0: none */
} tile__prof_tok;

/* "A=1 B=2 w4 s3": the launch's meta-parameters in their order, warps, stages */
static void tile__prof_config(const tile_launch *o, char *buf, size_t n) {
    size_t at = 0;
    int w, s;
    buf[0] = 0;
    for (int i = 0; i < TILE_MAX_META && o->meta[i].name; i++)
        at += (size_t)snprintf(buf + at, at < n ? n - at : 0, "%s=%lld ", o->meta[i].name, o->meta[i].value);
    tile__launch_defaults(o, &w, &s);
    if (at < n) snprintf(buf + at, n - at, "w%d s%d", w, s);
}
/* this thread's last config text and what it was made of */
static _Thread_local struct {
    const tile_kernel *k;
    tile_meta meta[TILE_MAX_META];
    int num_warps, num_stages;
    char text[200];
} tile__prof_me_cfg;
static void tile__prof_config_cached(const tile_kernel *k, const tile_launch *o, char *buf, size_t n) {
    if (tile__prof_me_cfg.k != k || o->num_warps != tile__prof_me_cfg.num_warps || o->num_stages != tile__prof_me_cfg.num_stages ||
        memcmp(o->meta, tile__prof_me_cfg.meta, sizeof o->meta) != 0) {
        tile__prof_config(o, tile__prof_me_cfg.text, sizeof tile__prof_me_cfg.text);
        tile__prof_me_cfg.k = k;
        memcpy(tile__prof_me_cfg.meta, o->meta, sizeof o->meta);   /* names compared by address: a launch's names are its program's strings */
        tile__prof_me_cfg.num_warps = o->num_warps, tile__prof_me_cfg.num_stages = o->num_stages;
    }
    memcpy(buf, tile__prof_me_cfg.text, n < sizeof tile__prof_me_cfg.text ? n : sizeof tile__prof_me_cfg.text);
}
/* >>profile: the kernel clock's slot of launch record r (lock held), a
   device address, or 0 when none can be had (the launch runs the kernel
   compiled without the clock, untimed). A full ring is followed by
   another, made, zeroed and waited for here: one launch in 65536 pays
   that. */
static tile_status tile__prof_kring_new_locked(const char *file, int line) {
    size_t bytes = tile__prof_kring_bytes();
    CUdeviceptr d = 0;
    tile_status st = tile__cu_enter(file, line);
    if (st != TILE_OK) return st;
    if (tile__cu.cuMemAlloc_v2(&d, bytes) != CUDA_SUCCESS) return TILE_ERR_NOMEM;
    /* zeroed before any kernel can use it, whatever stream it runs on */
    if (tile__cu.cuMemsetD8_v2(d, 0, bytes) != CUDA_SUCCESS || tile__cu.cuCtxSynchronize() != CUDA_SUCCESS) {
        tile__cu.cuMemFree_v2(d);
        return TILE_ERR_DRIVER;
    }
    tile__prof.kring[tile__prof.nkrings++] = d;
    tile__prof.kused = 0;
    return TILE_OK;
}
static uint64_t tile__prof_kslot_take_locked(tile__prof_launch *r) {
    int n = tile__prof.nkrings;
    if (n == 0 || tile__prof.kused == TILE__KTIME_RING) {
        const char *why = NULL;
        if (n == TILE__PROF_KRINGS) why = "the profile's slots for the kernel clock are used up (about 8 million launches)";
        else if (tile__prof_kring_new_locked(NULL, 0) != TILE_OK) why = "no device memory for more of the kernel clock's slots";
        if (why) {
            if (!tile__prof.kuntimed++) tile__copy_cut(tile__prof.kuntimed_why, sizeof tile__prof.kuntimed_why, why);
            return 0;
        }
        n = tile__prof.nkrings;
    }
    r->kring = n - 1;
    r->kidx = tile__prof.kused++;
    return (uint64_t)tile__prof.kring[n - 1] + (uint64_t)r->kidx * 8;
}
/* the token of a launch no profile records */
static const tile__prof_tok tile__prof_no_tok = {0, -1, 0, 0, 0};
/* the start of a launch the profile records; *tok is 0 when none runs */
static tile__prof_tok tile__prof_launch_begin(const tile_kernel *k, const tile_launch *o, const tile_arg *args, const unsigned grid[3]) {
    tile__prof_tok tok = tile__prof_no_tok;
    if (!atomic_load_explicit(&tile__prof_on, memory_order_acquire)) return tok;
    double flops = o->flops, bytes = o->bytes;
    tile_metrics_fn fn = NULL;
    void *user = NULL;
    if (!(flops > 0 || bytes > 0) && atomic_load_explicit(&tile__prof_nfn, memory_order_relaxed)) {
        pthread_mutex_lock(&tile__prof_lock);
        for (int i = 0; i < tile__prof.nmetrics; i++)
            if (tile__prof.metrics[i].k == k) fn = tile__prof.metrics[i].fn, user = tile__prof.metrics[i].user;
        pthread_mutex_unlock(&tile__prof_lock);
        if (fn) fn(k, o, args, user, &flops, &bytes);   /* the user's code: not under the lock */
    }
    /* the config's text: the same as this thread's last launch's (a loop of
       launches) is copied, else formatted (outside the lock) */
    char config[sizeof tile__prof_me_cfg.text];
    tile__prof_config_cached(k, o, config, sizeof config);
    pthread_mutex_lock(&tile__prof_lock);
    if (tile__dev_here() != tile__prof.dev) {   /* its events, rings and clock are on the profile's device */
        tile__prof.otherdev++;
        pthread_mutex_unlock(&tile__prof_lock);
        return tok;
    }
    if (atomic_load_explicit(&tile__prof_on, memory_order_relaxed) &&
        tile__prof_grow((void **)&tile__prof.launches, tile__prof.nlaunches, &tile__prof.caplaunches, sizeof *tile__prof.launches)) {
        tile__prof_thread_locked();
        tile__prof_launch *r = &tile__prof.launches[tile__prof.nlaunches];
        memset(r, 0, sizeof *r);
        tile__copy_cut(r->kernel, sizeof r->kernel, k->name ? k->name : "?");
        memcpy(r->config, config, sizeof r->config);
        memcpy(r->grid, grid, sizeof r->grid);
        r->stream = o->stream;
        r->thread = tile__prof_me.thread;
        r->scope = tile__prof_me.top;
        r->h0 = tile__prof_now();
        r->h1 = r->h0;
        r->g0 = 0, r->g1 = -1;
        r->flops = flops > 0 ? flops : 0;
        r->bytes = bytes > 0 ? bytes : 0;
        r->pair = -1;
        r->kring = -1;
        if (tile__prof.cupti) r->seq = ++tile__prof.seq;   /* the order launches go to the driver: CUPTI's records follow it */
        if (tile__prof.kclock) tok.kslot = tile__prof_kslot_take_locked(r);
        tok.gen = tile__prof.gen;
        tok.cupti = tile__prof.cupti || tile__prof.kclock;
        tok.kmode = tile__prof.kmode;
        tok.rec = tile__prof.nlaunches++;
        tile__nvtx_push(r->kernel);
    } else if (atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        tile__prof.lost++;
    }
    pthread_mutex_unlock(&tile__prof_lock);
    return tok;
}
/* the kernel's start (end 0) and end (end 1): on the GPU right before and
   after the driver's launch (ran: the driver took it), an event on the
   launch's stream or, with CUPTI, the launch's place in the order; in the
   interpreter around the run, the host clock */
static void tile__prof_launch_event(tile__prof_tok tok, int end, int ran, void *stream) {
    if (!tok.gen || (tok.cupti && (!end || ran))) return;   /* CUPTI: only a launch the driver refused */
    pthread_mutex_lock(&tile__prof_lock);
    if (tok.gen == tile__prof.gen && atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        tile__prof_launch *r = &tile__prof.launches[tok.rec];
        if (!tile__prof.gpu) {
            if (end) r->g1 = tile__prof_now();
            else r->g0 = tile__prof_now();
        } else if (tile__prof.cupti || tile__prof.kclock) {
            r->seq = 0, r->kring = -1;   /* the driver refused it: no record will come, its slot stays empty */
        } else if (tile__cu_enter(NULL, 0) == TILE_OK) {   /* the context current on this thread */
            if (!end) r->pair = tile__prof_pair_take(tok.rec);
            if (r->pair >= 0) tile__cu.cuEventRecord(tile__prof.pairs[r->pair].ev[end], (CUstream)stream);
        }
    }
    pthread_mutex_unlock(&tile__prof_lock);
}
/* the launch call returned st */
static void tile__prof_launch_end(tile__prof_tok tok, tile_status st) {
    if (!tok.gen) return;
    tile__nvtx_pop();   /* its range was pushed, whatever became of the profile since */
    pthread_mutex_lock(&tile__prof_lock);
    if (tok.gen == tile__prof.gen && atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        tile__prof_launch *r = &tile__prof.launches[tok.rec];
        r->h1 = tile__prof_now();
        r->st = st;
        if (!tile__prof.gpu && st != TILE_OK) r->g1 = -1;   /* an interpreter run that failed: not timed */
    }
    pthread_mutex_unlock(&tile__prof_lock);
}

/* ---- in-kernel scopes ------------------------------------------------------------------
   A launch of a kernel compiled with its scopes (the config's prof, set
   from the launch's token) gets a buffer of its own, zeroed, its header
   written (tile/emit.h); the GPU's are read back at the stop. A launch that
   gets none (the profile stopped since the launch began, the profile's
   budget is spent, no memory) passes one whose header records no program,
   so the launch never fails for the profile's sake. */
static unsigned char tile__prof_knone[TILE__KPROF_HEAD];   /* the interpreter's: all zero */
static CUdeviceptr tile__prof_knone_dev[TILE__MAX_DEVICES]; /* the GPU's, made once a device */
static tile_status tile__prof_kbuf_take(tile__prof_tok tok, const tile__func *f, int nthreads, const unsigned grid[3], uint64_t *out, const char *kname,
                                        const char *file, int line) {
    int gpu = tile__gpu_mode();
    unsigned unit = tok.kmode == TILE__KPROF_WARPGROUP ? 128 : 32;
    unsigned units = ((unsigned)nthreads + unit - 1) / unit, slots = TILE__PROF_KSLOTS;
    size_t per = (size_t)units * slots * TILE__KPROF_REC;
    unsigned long long all = (unsigned long long)grid[0] * grid[1] * grid[2];
    size_t maxp = (TILE__PROF_KLAUNCH - TILE__KPROF_HEAD) / per;
    unsigned programs = (unsigned)(all < maxp ? all : maxp);
    size_t bytes = TILE__KPROF_HEAD + programs * per;
    tile_status st = TILE_OK;
    pthread_mutex_lock(&tile__prof_lock);
    *out = 0;
    if (tok.gen == tile__prof.gen && atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        const char *why = NULL;
        tile__prof_kbuf *kb = NULL;
        const tile__prof_launch *me = &tile__prof.launches[tok.rec];
        int same = 0;   /* recorded launches of this kernel and config */
        for (int i = 0; i < tile__prof.nkbufs && same < TILE__PROF_KPER; i++) {
            const tile__prof_launch *r = &tile__prof.launches[tile__prof.kbufs[i].launch];
            same += strcmp(r->kernel, me->kernel) == 0 && strcmp(r->config, me->config) == 0;
        }
        if (same >= TILE__PROF_KPER) {
            tile__prof.kmore++;
            goto none;
        }
        if (tile__prof.kbytes + bytes > TILE__PROF_KTOTAL) why = "the profile's 2048 MB for in-kernel records are used up";
        else if (!tile__prof_grow((void **)&tile__prof.kbufs, tile__prof.nkbufs, &tile__prof.capkbufs, sizeof *tile__prof.kbufs)) why = "out of host memory";
        else {
            kb = &tile__prof.kbufs[tile__prof.nkbufs];
            memset(kb, 0, sizeof *kb);
            const char *names[256];
            kb->nnames = tile__kprof_names(f, names, 256);
            if (kb->nnames > 256) kb->nnames = 256;
            if (!(kb->names = (char(*)[64])calloc((size_t)kb->nnames + 1, 64))) why = "out of host memory";
            for (int i = 0; !why && i < kb->nnames; i++) tile__copy_cut(kb->names[i], 64, names[i]);
        }
        uint32_t head[4] = {programs, slots, units, 0};
        if (!why && gpu) {
            CUdeviceptr d = 0;
            if (tile__cu_enter(file, line) != TILE_OK || tile__cu.cuMemAlloc_v2(&d, bytes) != CUDA_SUCCESS) why = "out of device memory";
            else if (tile__cu.cuMemsetD8_v2(d, 0, bytes) != CUDA_SUCCESS || tile__cu.cuMemcpyHtoD_v2(d, head, sizeof head) != CUDA_SUCCESS) {
                tile__cu.cuMemFree_v2(d);
                why = "the device memory could not be cleared";
            } else {
                kb->dev = d;
                *out = (uint64_t)d;
            }
        } else if (!why) {
            if (!(kb->host = (unsigned char *)calloc(1, bytes))) why = "out of host memory";
            else {
                memcpy(kb->host, head, sizeof head);
                *out = (uint64_t)(uintptr_t)kb->host;
            }
        }
        if (!why) {
            kb->launch = tok.rec;
            kb->bytes = bytes;
            kb->all = (unsigned)(all < 0xFFFFFFFFull ? all : 0xFFFFFFFFull);
            kb->mode = tok.kmode;
            tile__prof.kbytes += bytes;
            tile__prof.nkbufs++;
        } else {
            if (kb) free(kb->names);
            if (!tile__prof.knot++) snprintf(tile__prof.knot_why, sizeof tile__prof.knot_why, "%s (first: %s)", why, kname);
        }
    }
none:
    if (!*out) {   /* the buffer that records nothing */
        if (!gpu) *out = (uint64_t)(uintptr_t)tile__prof_knone;
        else if (!tile__prof_knone_dev[tile__cu_index()] && (st = tile__cu_enter(file, line)) == TILE_OK) {
            CUdeviceptr d = 0;
            if (tile__cu.cuMemAlloc_v2(&d, TILE__KPROF_HEAD) == CUDA_SUCCESS && tile__cu.cuMemsetD8_v2(d, 0, TILE__KPROF_HEAD) == CUDA_SUCCESS)
                tile__prof_knone_dev[tile__cu_index()] = d;
            else {
                if (d) tile__cu.cuMemFree_v2(d);
                st = tile__error(TILE_ERR_NOMEM, kname, file, line, "out of device memory for the in-kernel scopes' (empty) record buffer");
            }
        }
        if (gpu) *out = (uint64_t)tile__prof_knone_dev[tile__cu_index()];
    }
    pthread_mutex_unlock(&tile__prof_lock);
    return st;
}
/* one scope's span on one unit, from its enter and exit records */
typedef struct tile__prof_kslice {
    int name, depth;
    unsigned program, unit, sm, sm1;   /* sm1: the SM of the exit record */
    uint64_t t0, t1, c0, c1;
    char path[200];              /* "outer/inner" */
} tile__prof_kslice;
/* the spans one launch recorded, in unit order, into *out (malloc'ed; NULL
   when there are none); *open: enters whose exit was not recorded (the
   unit's slots ran out) */
static int tile__prof_kslices(const tile__prof_kbuf *kb, tile__prof_kslice **out, int *open) {
    uint32_t head[4];
    int n = 0, cap = 0;
    *out = NULL;
    *open = 0;
    if (!kb->host) return 0;
    memcpy(head, kb->host, sizeof head);
    for (unsigned p = 0; p < head[0]; p++)
        for (unsigned u = 0; u < head[2]; u++) {
            struct { uint32_t tag, sm; uint64_t t, c; } st[32];
            int depth = 0;
            for (unsigned s = 0; s < head[1]; s++) {
                const unsigned char *r = kb->host + TILE__KPROF_HEAD + ((size_t)(p * head[2] + u) * head[1] + s) * TILE__KPROF_REC;
                uint32_t tag, sm;
                uint64_t t, c;
                memcpy(&tag, r, 4), memcpy(&sm, r + 4, 4), memcpy(&t, r + 8, 8), memcpy(&c, r + 16, 8);
                if (!t) break;   /* never written */
                if (!(tag & 1)) {
                    if (depth < 32) st[depth].tag = tag, st[depth].sm = sm, st[depth].t = t, st[depth].c = c;
                    depth++;
                    continue;
                }
                if (depth == 0 || depth > 32 || (st[depth - 1].tag >> 1) != (tag >> 1)) continue;   /* its enter was not kept */
                if (n == cap) {
                    int nc = cap ? cap * 2 : 1024;
                    tile__prof_kslice *g = (tile__prof_kslice *)realloc(*out, sizeof **out * (size_t)nc);
                    if (!g) return n;
                    *out = g, cap = nc;
                }
                tile__prof_kslice *k = &(*out)[n++];
                depth--;
                k->name = (int)(tag >> 1);
                k->depth = depth;
                k->program = p, k->unit = u, k->sm = st[depth].sm, k->sm1 = sm;
                k->t0 = st[depth].t, k->t1 = t, k->c0 = st[depth].c, k->c1 = c;
                size_t at = 0;
                k->path[0] = 0;
                for (int d = 0; d <= depth; d++) {
                    int id = (int)(st[d].tag >> 1);
                    at += (size_t)snprintf(k->path + at, at < sizeof k->path ? sizeof k->path - at : 0, "%s%s", d ? "/" : "",
                                           id < kb->nnames ? kb->names[id] : "?");
                }
            }
            *open += depth;
        }
    return n;
}
static int tile__prof_cmp_path(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }   /* (a row starts with its path) */
/* the text report's section on in-kernel scopes: per kernel and config,
   each scope path's spans, mean time and cycles */
static void tile__prof_write_kscopes(FILE *f) {
    if (!tile__prof.nkbufs && !tile__prof.knot && !tile__prof.kmore) return;
    fprintf(f, "in-kernel scopes, per %s: %d launch%s recorded; time by %%globaltimer, cycles by %%clock64%s\n",
            tile__prof.kmode == TILE__KPROF_WARPGROUP ? "warpgroup" : "warp", tile__prof.nkbufs, tile__prof.nkbufs == 1 ? "" : "es",
            tile__prof.gpu ? "" : " (interpreter: both the host clock in ns)");
    if (tile__prof.kmore)
        fprintf(f, "  (%d later launch%s not recorded: the first %d of each kernel and config are)\n", tile__prof.kmore, tile__prof.kmore == 1 ? "" : "es", TILE__PROF_KPER);
    if (tile__prof.knot) fprintf(f, "  (%d launch%s not recorded: %s)\n", tile__prof.knot, tile__prof.knot == 1 ? "" : "es", tile__prof.knot_why);
    fprintf(f, "%10s %10s %12s %12s  %s\n", "spans", "avg us", "avg cycles", "total us", "scope");
    typedef struct { char path[200]; long n, ncyc; double ns, cyc; int depth; } row_t;
    char *done = (char *)calloc((size_t)tile__prof.nkbufs + 1, 1);
    for (int i = 0; done && i < tile__prof.nkbufs; i++) {
        if (done[i]) continue;
        const tile__prof_launch *ri = &tile__prof.launches[tile__prof.kbufs[i].launch];
        row_t *rows = NULL;
        int nrows = 0, caprows = 0, launches = 0, open = 0;
        long back = 0;   /* spans whose %clock64 at the exit is below the enter's (seen in warp-specialized kernels) */
        long moved = 0;  /* spans that ended on another SM than they began on */
        unsigned long long rec = 0, all = 0, dropped = 0;
        for (int j = i; j < tile__prof.nkbufs; j++) {
            const tile__prof_kbuf *kb = &tile__prof.kbufs[j];
            const tile__prof_launch *rj = &tile__prof.launches[kb->launch];
            if (done[j] || strcmp(ri->kernel, rj->kernel) != 0 || strcmp(ri->config, rj->config) != 0) continue;
            done[j] = 1;
            launches++;
            all += kb->all;
            if (kb->host) {
                uint32_t head[4];
                memcpy(head, kb->host, sizeof head);
                rec += head[0], dropped += head[3];
            }
            tile__prof_kslice *sl;
            int op, n = tile__prof_kslices(kb, &sl, &op);
            open += op;
            for (int s = 0; s < n; s++) {
                int r = 0;
                while (r < nrows && strcmp(rows[r].path, sl[s].path) != 0) r++;
                if (r == nrows) {
                    if (nrows == caprows) {
                        int nc = caprows ? caprows * 2 : 16;
                        row_t *g = (row_t *)realloc(rows, sizeof *rows * (size_t)nc);
                        if (!g) break;
                        rows = g, caprows = nc;
                    }
                    memset(&rows[r], 0, sizeof rows[r]);
                    memcpy(rows[r].path, sl[s].path, sizeof rows[r].path);
                    rows[r].depth = sl[s].depth;
                    nrows++;
                }
                rows[r].n++;
                rows[r].ns += (double)(sl[s].t1 - sl[s].t0);
                if (sl[s].sm1 != sl[s].sm) moved++;   /* two SMs' clocks: not cycles */
                else if (sl[s].c1 >= sl[s].c0) rows[r].cyc += (double)(sl[s].c1 - sl[s].c0), rows[r].ncyc++;
                else back++;
            }
            free(sl);
        }
        if (nrows > 1) qsort(rows, (size_t)nrows, sizeof *rows, tile__prof_cmp_path);   /* a scope before those inside it */
        fprintf(f, "  %s [%s]: %d launch%s, %llu of %llu programs recorded", ri->kernel, ri->config, launches, launches == 1 ? "" : "es", rec, all);
        if (dropped) fprintf(f, ", %llu records dropped (a unit's %d slots were full)", dropped, TILE__PROF_KSLOTS);
        if (open) fprintf(f, ", %d scope%s left open", open, open == 1 ? "" : "s");
        if (moved) fprintf(f, ", %ld span%s ended on another SM (not in the cycles)", moved, moved == 1 ? "" : "s");
        if (back) fprintf(f, ", %ld span%s whose %%clock64 ran backwards (not in the cycles)", back, back == 1 ? "" : "s");
        fprintf(f, "\n");
        for (int r = 0; r < nrows; r++) {
            const char *leaf = strrchr(rows[r].path, '/');
            fprintf(f, "%10ld %10.3f %12.0f %12.3f  %*s%s\n", rows[r].n, rows[r].ns / (double)rows[r].n / 1e3, rows[r].ncyc ? rows[r].cyc / (double)rows[r].ncyc : 0.0,
                    rows[r].ns / 1e3,
                    2 * rows[r].depth, "", leaf ? leaf + 1 : rows[r].path);
        }
        free(rows);
    }
    free(done);
}

static void tile__prof_atexit_free(void);
tile_status tile_kernel_metrics(tile_kernel *k, tile_metrics_fn fn, void *user) {
    if (!k) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_kernel_metrics: the kernel is NULL");
    tile_status st = TILE_OK;
    pthread_mutex_lock(&tile__prof_lock);
    int i = 0;
    while (i < tile__prof.nmetrics && tile__prof.metrics[i].k != k) i++;
    if (i == tile__prof.nmetrics) {
        if (!fn) goto done;
        if (!tile__prof_grow((void **)&tile__prof.metrics, tile__prof.nmetrics, &tile__prof.capmetrics, sizeof *tile__prof.metrics)) {
            st = TILE_ERR_NOMEM;
            goto done;
        }
        tile__prof.nmetrics++;
        if (!tile__prof.atexit_free) tile__prof.atexit_free = atexit(tile__prof_atexit_free) == 0;
    }
    if (fn) {
        tile__prof.metrics[i].k = k, tile__prof.metrics[i].fn = fn, tile__prof.metrics[i].user = user;
    } else {   /* NULL: forget the kernel's function */
        tile__prof.metrics[i] = tile__prof.metrics[--tile__prof.nmetrics];
    }
    atomic_store_explicit(&tile__prof_nfn, tile__prof.nmetrics, memory_order_relaxed);
done:
    pthread_mutex_unlock(&tile__prof_lock);
    return st == TILE_OK ? st : tile__error(st, k->name, k->file, k->line, "tile_kernel_metrics: out of host memory");
}

/* ---- scopes ------------------------------------------------------------------------- */
/* open a scope on this thread (lock held); 0 when it could not be recorded */
static int tile__prof_open_locked(const char *name, double flops, double bytes, const char *file, int line) {
    if (!tile__prof_grow((void **)&tile__prof.scopes, tile__prof.nscopes, &tile__prof.capscopes, sizeof *tile__prof.scopes)) {
        tile__prof.lost++;
        return 0;
    }
    tile__prof_thread_locked();
    tile__prof_scope *s = &tile__prof.scopes[tile__prof.nscopes];
    memset(s, 0, sizeof *s);
    tile__copy_cut(s->name, sizeof s->name, name);
    s->file = file, s->line = line;
    s->parent = tile__prof_me.top;
    s->depth = s->parent >= 0 ? tile__prof.scopes[s->parent].depth + 1 : 0;
    s->thread = tile__prof_me.thread;
    s->t0 = tile__prof_now();
    s->t1 = -1;
    s->flops = flops > 0 ? flops : 0;
    s->bytes = bytes > 0 ? bytes : 0;
    tile__prof_me.top = tile__prof.nscopes++;
    tile__prof_me.begun++;
    tile__nvtx_push(s->name);
    return 1;
}
static void tile__prof_close_locked(void) {
    tile__prof_scope *s = &tile__prof.scopes[tile__prof_me.top];
    s->t1 = tile__prof_now();
    tile__prof_me.top = s->parent;
    tile__nvtx_pop();
}
/* the library's own scopes (the tuner's): no checks, nothing reported */
static int tile__prof_push(const char *name, const char *file, int line) {
    if (!atomic_load_explicit(&tile__prof_on, memory_order_acquire)) return 0;
    pthread_mutex_lock(&tile__prof_lock);
    int ok = atomic_load_explicit(&tile__prof_on, memory_order_relaxed) && tile__prof_open_locked(name, 0, 0, file, line);
    unsigned gen = tile__prof.gen;
    pthread_mutex_unlock(&tile__prof_lock);
    return ok ? (int)gen : 0;
}
static void tile__prof_pop(int pushed) {
    if (!pushed) return;
    pthread_mutex_lock(&tile__prof_lock);
    if ((unsigned)pushed == tile__prof.gen && tile__prof_me.gen == tile__prof.gen && tile__prof_me.top >= 0 &&
        atomic_load_explicit(&tile__prof_on, memory_order_relaxed))
        tile__prof_close_locked();
    pthread_mutex_unlock(&tile__prof_lock);
}

tile_status tile_scope_begin_at(tile_scope *s) {
    if (!s) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_scope_begin: the scope is NULL");
    s->open_ = 0;
    if (!atomic_load_explicit(&tile__prof_on, memory_order_acquire)) return TILE_OK;   /* no profile: no cost */
    if (!s->name || !s->name[0])
        return tile__error(TILE_ERR_PROFILE, NULL, s->file, s->line, "tile_scope_begin: the scope has no name");
    if (s->flops < 0 || s->bytes < 0 || s->flops != s->flops || s->bytes != s->bytes)
        return tile__error(TILE_ERR_PROFILE, NULL, s->file, s->line, "tile_scope_begin(\"%.63s\"): flops and bytes must be >= 0", s->name);
    pthread_mutex_lock(&tile__prof_lock);
    if (atomic_load_explicit(&tile__prof_on, memory_order_relaxed) && tile__prof_open_locked(s->name, s->flops, s->bytes, s->file, s->line)) {
        s->open_ = (int)tile__prof.gen;
        s->index_ = tile__prof_me.top;
    }
    pthread_mutex_unlock(&tile__prof_lock);
    return TILE_OK;
}
/* end the innermost scope of this thread, which must be `name` (NULL: any),
   or `want` (>= 0: that record) */
static tile_status tile__prof_end(const char *name, int want, const char *file, int line) {
    if (!atomic_load_explicit(&tile__prof_on, memory_order_acquire)) return TILE_OK;
    tile_status st = TILE_OK;
    char have[64] = "", where[300] = "";
    pthread_mutex_lock(&tile__prof_lock);
    if (!atomic_load_explicit(&tile__prof_on, memory_order_relaxed) || tile__prof_me.gen != tile__prof.gen || !tile__prof_me.begun) {
        /* this thread began no scope in this profile: the begin came before the start */
    } else if (tile__prof_me.top < 0) {
        st = TILE_ERR_PROFILE;
    } else {
        const tile__prof_scope *top = &tile__prof.scopes[tile__prof_me.top];
        if ((want >= 0 && want != tile__prof_me.top) || (want < 0 && name && strcmp(name, top->name) != 0)) {
            st = TILE_ERR_PROFILE;
            tile__copy_cut(have, sizeof have, top->name);
            if (top->file) snprintf(where, sizeof where, " (begun at %.255s:%d)", top->file, top->line);
        } else {
            tile__prof_close_locked();
        }
    }
    pthread_mutex_unlock(&tile__prof_lock);
    if (st == TILE_OK) return st;
    if (!have[0])
        return tile__error(st, NULL, file, line, "tile_scope_end(\"%.63s\"): no scope is open on this thread", name ? name : "(innermost)");
    return tile__error(st, NULL, file, line, "tile_scope_end(\"%.63s\"): scopes nest; the innermost open scope of this thread is \"%s\"%s",
                       name ? name : "(innermost)", have, where);
}
tile_status tile_scope_end_at(const char *name, const char *file, int line) { return tile__prof_end(name, -1, file, line); }
tile_status tile_scope_close(tile_scope *s) {
    if (!s) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_scope_close: the scope is NULL");
    int open = s->open_;
    s->open_ = 0;
    if (!open) return TILE_OK;   /* begun while no profile ran, or in another profile */
    pthread_mutex_lock(&tile__prof_lock);
    int same = (unsigned)open == tile__prof.gen;
    pthread_mutex_unlock(&tile__prof_lock);
    return same ? tile__prof_end(s->name, s->index_, s->file, s->line) : TILE_OK;
}

/* ---- the outputs ----------------------------------------------------------------------- */
/* the ceilings the report compares with: the GPU's dense f16 tensor-core
   rate and its memory bandwidth, from its properties; 0 when unknown */
static void tile__prof_ceilings(double *tflops, double *gbps, char *device, size_t n) {
    *tflops = 0, *gbps = 0;
    tile__copy_cut(device, n, "interpreter (host CPU)");
    if (!tile__prof.gpu) return;
    const tile__cu_props *p = &tile__cu_cur()->props;
    tile__copy_cut(device, n, p->name);
    /* dense f16 FLOP per clock per SM: 4096 on sm_90 (wgmma), 2048 on sm_80/86 */
    double per = p->cc_major >= 9 ? 4096 : p->cc_major == 8 ? (p->cc_minor == 0 ? 2048 : 1024) : 0;
    /* the driver may no longer give the clock; then the part's nominal one */
    double mhz = p->clock_khz > 0 ? p->clock_khz / 1e3 : p->cc_major == 9 ? 1830 : p->cc_major == 8 ? 1410 : 0;
    *tflops = per * mhz * 1e6 * p->sm_count / 1e12;
    if (p->mem_clock_khz > 0 && p->mem_bus_bits > 0) *gbps = 2.0 * p->mem_clock_khz * 1e3 * (p->mem_bus_bits / 8.0) / 1e9;
    else if (strstr(p->name, "H200")) *gbps = 4800;
    else if (strstr(p->name, "H100")) *gbps = 3350;
}

/* the tree: a node per scope path, and under it per kernel and config */
typedef struct tile__prof_node {
    char name[64];
    const char *config;         /* a kernel's config; NULL for a scope */
    int parent, child, next;
    long calls;
    double gpu, wall;           /* ms: kernels' time below; a scope's own span */
    double flops, bytes;        /* the kernels' below, or the scope's own when given */
    double uflops, ubytes;      /* the scope's own (user's) */
} tile__prof_node;
typedef struct {
    tile__prof_node *n;
    int len, cap;
} tile__prof_tree;
static int tile__prof_child(tile__prof_tree *t, int parent, const char *name, const char *config) {
    for (int c = t->n[parent].child; c >= 0; c = t->n[c].next)
        if (strcmp(t->n[c].name, name) == 0 && ((!config && !t->n[c].config) || (config && t->n[c].config && strcmp(config, t->n[c].config) == 0)))
            return c;
    if (!tile__prof_grow((void **)&t->n, t->len, &t->cap, sizeof *t->n)) return -1;
    tile__prof_node *x = &t->n[t->len];
    memset(x, 0, sizeof *x);
    tile__copy_cut(x->name, sizeof x->name, name);
    x->config = config;
    x->parent = parent, x->child = -1;
    /* appended at the end of the parent's list: the order of first use */
    int *at = &t->n[parent].child;
    while (*at >= 0) at = &t->n[*at].next;
    *at = t->len;
    x->next = -1;
    return t->len++;
}
/* the tree of the records (lock held); 0 when out of memory */
static int tile__prof_build_tree(tile__prof_tree *t) {
    int *of = (int *)malloc(sizeof(int) * (size_t)(tile__prof.nscopes + 1));
    if (!of || !tile__prof_grow((void **)&t->n, 0, &t->cap, sizeof *t->n)) {
        free(of);
        return 0;
    }
    memset(&t->n[0], 0, sizeof t->n[0]);
    strcpy(t->n[0].name, "(all)");
    t->n[0].parent = -1, t->n[0].child = -1, t->n[0].next = -1;
    t->len = 1;
    for (int i = 0; i < tile__prof.nscopes; i++) {   /* parents come before children */
        const tile__prof_scope *s = &tile__prof.scopes[i];
        int c = tile__prof_child(t, s->parent >= 0 ? of[s->parent] : 0, s->name, NULL);
        if ((of[i] = c) < 0) {
            free(of);
            return 0;
        }
        t->n[c].calls++;
        t->n[c].wall += (s->t1 >= s->t0 ? s->t1 : tile__prof_now()) - s->t0;
        t->n[c].uflops += s->flops, t->n[c].ubytes += s->bytes;
    }
    for (int i = 0; i < tile__prof.nlaunches; i++) {
        const tile__prof_launch *r = &tile__prof.launches[i];
        int c = tile__prof_child(t, r->scope >= 0 ? of[r->scope] : 0, r->kernel, r->config);
        if (c < 0) {
            free(of);
            return 0;
        }
        double ms = r->g1 >= r->g0 ? r->g1 - r->g0 : 0;
        t->n[c].calls++;
        for (int p = c; p >= 0; p = t->n[p].parent) {   /* a kernel's time and work count in every scope above it */
            t->n[p].gpu += ms;
            t->n[p].flops += r->flops, t->n[p].bytes += r->bytes;
        }
    }
    free(of);
    /* a scope's own metrics, where given, are its work */
    for (int i = 1; i < t->len; i++) {
        if (t->n[i].uflops > 0) t->n[i].flops = t->n[i].uflops;
        if (t->n[i].ubytes > 0) t->n[i].bytes = t->n[i].ubytes;
    }
    return 1;
}
static void tile__prof_tree_lines(FILE *f, const tile__prof_tree *t, int node, char *prefix, size_t plen, double ctf, double cgb) {
    /* the children in order of GPU time, most first (selection: lists are short) */
    int kids[512], nk = 0;
    for (int c = t->n[node].child; c >= 0 && nk < 512; c = t->n[c].next) kids[nk++] = c;
    for (int a = 0; a < nk; a++)
        for (int b = a + 1; b < nk; b++)
            if (t->n[kids[b]].gpu > t->n[kids[a]].gpu) {
                int x = kids[a];
                kids[a] = kids[b], kids[b] = x;
            }
    for (int i = 0; i < nk; i++) {
        const tile__prof_node *x = &t->n[kids[i]];
        double pg = t->n[node].gpu, s = x->gpu / 1e3;
        char tf[16] = "", gb[16] = "", pct[16] = "", wall[16] = "";
        if (x->flops > 0 && s > 0) snprintf(tf, sizeof tf, "%.1f", x->flops / s / 1e12);
        if (x->bytes > 0 && s > 0) snprintf(gb, sizeof gb, "%.1f", x->bytes / s / 1e9);
        if (pg > 0) snprintf(pct, sizeof pct, "%.1f", 100.0 * x->gpu / pg);
        if (!x->config) snprintf(wall, sizeof wall, "%.3f", x->wall);
        int last = i == nk - 1;
        fprintf(f, "%10.3f %6s %8ld %10s %8s %8s  %s%s %s", x->gpu, pct, x->calls, wall, tf, gb, prefix, last ? "\\-" : "|-", x->name);
        if (x->config) fprintf(f, " [%s]", x->config);
        if (x->config && ctf > 0 && x->flops > 0 && s > 0) fprintf(f, "  %.0f%% of %.0f TFLOP/s", 100.0 * x->flops / s / 1e12 / ctf, ctf);
        else if (x->config && cgb > 0 && x->bytes > 0 && s > 0) fprintf(f, "  %.0f%% of %.0f GB/s", 100.0 * x->bytes / s / 1e9 / cgb, cgb);
        fputc('\n', f);
        if (x->child >= 0 && plen + 4 < 256) {
            memcpy(prefix + plen, last ? "   " : "|  ", 4);
            tile__prof_tree_lines(f, t, kids[i], prefix, plen + 3, ctf, cgb);
            prefix[plen] = 0;
        }
    }
}
/* what timed the kernels, and why not CUPTI when events did */
static const char *tile__prof_timing(void) {
    static _Thread_local char text[400];
    if (!tile__prof.gpu) return "the host clock (interpreter)";
    if (tile__prof.cupti) return "CUPTI activity records";
    if (tile__prof.kclock) {
        snprintf(text, sizeof text, "the kernels' own clock (%%globaltimer, placed on the host's clock %s; other libraries' kernels are not seen)",
                 tile__prof.kalign == 1 ? "by the realtime clock" : "by the launch calls");
        return text;
    }
    snprintf(text, sizeof text, "CUDA events (no CUPTI: %s)", tile__prof.timing_why);
    return text;
}
static void tile__prof_write_tree(FILE *f, const tile__prof_tree *t, const char *device, double ctf, double cgb) {
    fprintf(f, "tile profile: %d launch%s, %d scope%s, %d thread%s; kernel time by %s on %s (back end %s)\n", tile__prof.nlaunches,
            tile__prof.nlaunches == 1 ? "" : "es", tile__prof.nscopes, tile__prof.nscopes == 1 ? "" : "s", tile__prof.nthreads,
            tile__prof.nthreads == 1 ? "" : "s", tile__prof_timing(), device, tile_backend_name());
    fprintf(f, "  NVTX ranges: %s\n", tile__nvtx.lib);
    if (tile__prof.lost) fprintf(f, "  (%d records were not kept: out of host memory)\n", tile__prof.lost);
    if (tile__prof.otherdev)
        fprintf(f, "  (%d launch%s on other devices not recorded: a profile records the device it was started on, %d)\n", tile__prof.otherdev,
                tile__prof.otherdev == 1 ? "" : "es", tile__prof.dev);
    if (tile__prof.kuntimed) fprintf(f, "  (%d launches were not timed: %s)\n", tile__prof.kuntimed, tile__prof.kuntimed_why);
    fprintf(f, "%10s %6s %8s %10s %8s %8s  %s\n", "kernel ms", "%", "calls", "scope ms", "TFLOP/s", "GB/s", "name");
    fprintf(f, "%10.3f %6s %8s %10s %8s %8s  (all)\n", t->n[0].gpu, "100.0", "", "", "", "");
    char prefix[260] = "";
    tile__prof_tree_lines(f, t, 0, prefix, 0, ctf, cgb);
    tile__prof_write_kscopes(f);
}

/* a JSON string: quotes, backslashes and controls escaped, '<' too, so that
   the page's script element can hold it */
static void tile__prof_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&') fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}
/* the scope path of scope i: "a/b/c" */
static void tile__prof_path(int i, char *buf, size_t n) {
    int chain[64], len = 0;
    for (int s = i; s >= 0 && len < 64; s = tile__prof.scopes[s].parent) chain[len++] = s;
    size_t at = 0;
    buf[0] = 0;
    for (int k = len - 1; k >= 0; k--)
        at += (size_t)snprintf(buf + at, at < n ? n - at : 0, "%s%s", k == len - 1 ? "" : "/", tile__prof.scopes[chain[k]].name);
}
/* the trace events: host threads (pid 1) with scopes and launch calls, the
   streams (pid 2) with kernels; times in microseconds */
/* the in-kernel scopes of each recorded launch: a process of its own,
   a track per program and unit, the spans placed from the kernel's start
   (its first record at the kernel's first instant); at most
   TILE__PROF_KSPANS spans in all, the number left out returned */
#define TILE__PROF_KSPANS 200000
static long tile__prof_write_json_kscopes(FILE *f) {
    long drawn = 0, cut = 0;
    for (int i = 0; i < tile__prof.nkbufs; i++) {
        const tile__prof_kbuf *kb = &tile__prof.kbufs[i];
        const tile__prof_launch *r = &tile__prof.launches[kb->launch];
        tile__prof_kslice *sl;
        int open, n = tile__prof_kslices(kb, &sl, &open);
        if (!n) continue;
        if (drawn + n > TILE__PROF_KSPANS) {
            cut += n;
            free(sl);
            continue;
        }
        uint64_t tmin = sl[0].t0;
        for (int s = 1; s < n; s++)
            if (sl[s].t0 < tmin) tmin = sl[s].t0;
        double base = (r->g1 >= r->g0 ? r->g0 : r->h0) * 1e3;   /* us */
        int pid = 1000 + i;
        char pname[320];
        snprintf(pname, sizeof pname, "in-kernel scopes: %s [%s], launch %d", r->kernel, r->config, kb->launch + 1);
        fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":", pid);
        tile__prof_json_str(f, pname);
        fprintf(f, "}},\n{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,\"tid\":0,\"args\":{\"sort_index\":%d}}", pid, pid);
        unsigned units;
        memcpy(&units, kb->host + 8, 4);
        long last = -1;
        for (int s = 0; s < n; s++) {
            const tile__prof_kslice *k = &sl[s];
            long tid = (long)k->program * units + k->unit + 1;
            if (tid != last) {   /* the spans come a unit at a time */
                fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%ld,\"args\":{\"name\":\"program %u %s %u (SM %u)\"}}", pid, tid,
                        k->program, kb->mode == TILE__KPROF_WARPGROUP ? "warpgroup" : "warp", k->unit, k->sm);
                last = tid;
            }
            fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"in-kernel\",\"name\":");
            tile__prof_json_str(f, k->name < kb->nnames ? kb->names[k->name] : "?");
            fprintf(f, ",\"pid\":%d,\"tid\":%ld,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"path\":", pid, tid, base + (double)(k->t0 - tmin) / 1e3,
                    (double)(k->t1 - k->t0) / 1e3);
            tile__prof_json_str(f, k->path);
            fprintf(f, ",\"cycles\":%lld,\"sm\":%u", (long long)(k->c1 - k->c0), k->sm);   /* (signed: see tile__prof_write_kscopes) */
            if (k->sm1 != k->sm) fprintf(f, ",\"sm_at_exit\":%u", k->sm1);
            fprintf(f, "}}");
        }
        drawn += n;
        free(sl);
    }
    return cut;
}
static void tile__prof_write_json(FILE *f, const char *device, double ctf, double cgb) {
    char path[1024];
    void *streams[64];
    int sthread[64], nstreams = 0;
    fprintf(f, "{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"host threads\"}}");
    fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"tid\":0,\"args\":{\"name\":");
    char gname[320];
    snprintf(gname, sizeof gname, "%s: %s", tile__prof.gpu ? "GPU" : "kernels", device);
    tile__prof_json_str(f, gname);
    fprintf(f, "}}");
    for (int t = 1; t <= tile__prof.nthreads; t++)
        fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"thread %d\"}}", t, t);
    for (int i = 0; i < tile__prof.nscopes; i++) {
        const tile__prof_scope *s = &tile__prof.scopes[i];
        double t1 = s->t1 >= s->t0 ? s->t1 : tile__prof_now();
        fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"scope\",\"name\":");
        tile__prof_json_str(f, s->name);
        tile__prof_path(i, path, sizeof path);
        fprintf(f, ",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"path\":", s->thread, s->t0 * 1e3, (t1 - s->t0) * 1e3);
        tile__prof_json_str(f, path);
        if (s->flops > 0) fprintf(f, ",\"flops\":%.6g", s->flops);
        if (s->bytes > 0) fprintf(f, ",\"bytes\":%.6g", s->bytes);
        if (s->t1 < s->t0) fprintf(f, ",\"open_at_stop\":true");
        if (s->file) {
            char at[300];
            snprintf(at, sizeof at, "%s:%d", s->file, s->line);
            fprintf(f, ",\"at\":");
            tile__prof_json_str(f, at);
        }
        fprintf(f, "}}");
    }
    for (int i = 0; i < tile__prof.nlaunches; i++) {
        const tile__prof_launch *r = &tile__prof.launches[i];
        /* a track per stream; in the interpreter, where every thread runs its
           own kernels at once, per stream and thread */
        int sid = 0, th = tile__prof.gpu ? 0 : r->thread;
        if (r->foreign) th = -1;   /* CUPTI's stream numbers are not our handles */
        while (sid < nstreams && (streams[sid] != r->stream || sthread[sid] != th)) sid++;
        if (sid == nstreams && nstreams < 64) {
            streams[nstreams] = r->stream, sthread[nstreams++] = th;
            fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":%d,\"args\":{\"name\":", sid + 1);
            char sname[80];
            if (r->foreign) snprintf(sname, sizeof sname, "stream %u (CUPTI's number)", (unsigned)(uintptr_t)r->stream);
            else if (r->stream) snprintf(sname, sizeof sname, "stream %p", r->stream);
            else snprintf(sname, sizeof sname, "default stream");
            if (th > 0) snprintf(sname + strlen(sname), sizeof sname - strlen(sname), ", thread %d", th);
            tile__prof_json_str(f, sname);
            fprintf(f, "}}");
        }
        if (r->scope >= 0) tile__prof_path(r->scope, path, sizeof path);
        else path[0] = 0;
        char grid[64];
        snprintf(grid, sizeof grid, "%ux%ux%u", r->grid[0], r->grid[1], r->grid[2]);
        /* the launch call on its thread (not another library's) */
        if (!r->foreign) {
            fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"launch\",\"name\":");
            tile__prof_json_str(f, r->kernel);
            fprintf(f, ",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"scope\":", r->thread, r->h0 * 1e3, (r->h1 - r->h0) * 1e3);
            tile__prof_json_str(f, path);
            if (r->st != TILE_OK) {
                fprintf(f, ",\"status\":");
                tile__prof_json_str(f, tile_status_id(r->st));
            }
            fprintf(f, "}}");
        }
        if (r->g1 < r->g0) continue;   /* not timed */
        double ms = r->g1 - r->g0;
        fprintf(f, ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":");
        tile__prof_json_str(f, r->kernel);
        fprintf(f, ",\"pid\":2,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"scope\":", sid + 1, r->g0 * 1e3, ms * 1e3);
        tile__prof_json_str(f, path);
        fprintf(f, ",\"config\":");
        tile__prof_json_str(f, r->config);
        fprintf(f, ",\"grid\":\"%s\"", grid);
        if (r->flops > 0) fprintf(f, ",\"flops\":%.6g", r->flops);
        if (r->bytes > 0) fprintf(f, ",\"bytes\":%.6g", r->bytes);
        if (r->flops > 0 && ms > 0) fprintf(f, ",\"tflops\":%.4g", r->flops / ms / 1e9);
        if (r->bytes > 0 && ms > 0) fprintf(f, ",\"gbps\":%.4g", r->bytes / ms / 1e6);
        fprintf(f, "}}");
    }
    long kcut = tile__prof_write_json_kscopes(f);
    fprintf(f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"tile %s\",\"backend\":", TILE_VERSION_STRING);
    tile__prof_json_str(f, tile_backend_name());
    fprintf(f, ",\"device\":");
    tile__prof_json_str(f, device);
    fprintf(f, ",\"timing\":");
    tile__prof_json_str(f, tile__prof_timing());
    fprintf(f, ",\"nvtx\":");
    tile__prof_json_str(f, tile__nvtx.lib);
    if (ctf > 0) fprintf(f, ",\"ceiling_tflops\":%.1f", ctf);
    if (cgb > 0) fprintf(f, ",\"ceiling_gbps\":%.1f", cgb);
    fprintf(f, ",\"started_at\":");
    char at[300];
    snprintf(at, sizeof at, "%s:%d", tile__prof.file, tile__prof.line);
    tile__prof_json_str(f, at);
    if (tile__prof.lost) fprintf(f, ",\"records_lost\":%d", tile__prof.lost);
    if (tile__prof.otherdev) fprintf(f, ",\"device\":%d,\"launches_on_other_devices\":%d", tile__prof.dev, tile__prof.otherdev);
    if (kcut) fprintf(f, ",\"in_kernel_spans_not_drawn\":%ld", kcut);
    fprintf(f, "}}\n");
}
static void tile__prof_write_html(FILE *f, const char *device, double ctf, double cgb) {
    for (int i = 0; tile__prof_html_pre[i]; i++) fputs(tile__prof_html_pre[i], f);
    fputs("window.TILE_TRACE = ", f);
    tile__prof_write_json(f, device, ctf, cgb);
    fputs(";", f);
    for (int i = 0; tile__prof_html_post[i]; i++) fputs(tile__prof_html_post[i], f);
}

/* the file of one format: path itself when it ends in the format's
   extension, else path + the extension */
static const char *const tile__prof_ext[3] = {".txt", ".json", ".html"};
static int tile__prof_has_ext(const char *path, const char *ext) {
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcmp(path + n - e, ext) == 0;
}
static void tile__prof_file(const char *path, int fmt, char *out, size_t n) {
    int has = 0;
    for (int i = 0; i < 3; i++) has |= tile__prof_has_ext(path, tile__prof_ext[i]);
    if (has && tile__prof_has_ext(path, tile__prof_ext[fmt])) snprintf(out, n, "%s", path);
    else if (has) {   /* "p.json" with another format too: p.txt, p.html beside it */
        size_t cut = strlen(path) - strlen(strrchr(path, '.'));
        snprintf(out, n, "%.*s%s", (int)cut, path, tile__prof_ext[fmt]);
    } else snprintf(out, n, "%s%s", path, tile__prof_ext[fmt]);
}

/* >>profile: the kernel clock's slots into their launches (lock held, the
   kernels done). %globaltimer counts ns, and on Linux usually follows the
   host's realtime clock; it is placed on the profile's clock by the
   realtime clock at the start when that puts no kernel before its launch
   call, else so that the launch that waited least starts as its call does
   (no kernel can start before its launch call began). */
static void tile__prof_kclock_collect_locked(void) {
    uint64_t *host[TILE__PROF_KRINGS] = {NULL};
    for (int r = 0; r < tile__prof.nkrings; r++) {
        size_t bytes = tile__prof_kring_bytes();
        if ((host[r] = (uint64_t *)malloc(bytes)) && tile__cu.cuMemcpyDtoH_v2(host[r], tile__prof.kring[r], bytes) != CUDA_SUCCESS) {
            free(host[r]);
            host[r] = NULL;
        }
    }
    double off_rt = -tile__prof.krt0, off_lb = -1e300;   /* ns: host = gpu + off */
    int any = 0, rt_ok = 1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < tile__prof.nlaunches; i++) {
            tile__prof_launch *l = &tile__prof.launches[i];
            if (l->kring < 0 || !host[l->kring] || l->st != TILE_OK) continue;
            const uint64_t *w = host[l->kring] + l->kidx;   /* its start; lane j (1 + j) strides on */
            uint64_t a = w[0], b = 0;
            for (int j = 1; j <= TILE__KTIME_LANES; j++) b = w[(size_t)j * (TILE__KTIME_LANE_STRIDE / 8)] > b ? w[(size_t)j * (TILE__KTIME_LANE_STRIDE / 8)] : b;
            if (a == 0 || b == 0 || b < a) continue;   /* never ran to its end */
            double h0 = l->h0 * 1e6;
            if (pass == 0) {
                any = 1;
                if (h0 - (double)a > off_lb) off_lb = h0 - (double)a;
                if ((double)a + off_rt < h0 - 50e3) rt_ok = 0;   /* (50 us: the two clocks' reading) */
                continue;
            }
            double off = tile__prof.kalign == 1 ? off_rt : off_lb;
            l->g0 = ((double)a + off) / 1e6;
            l->g1 = ((double)b + off) / 1e6;
        }
        if (pass == 0) tile__prof.kalign = !any ? 0 : rt_ok ? 1 : 2;
    }
    for (int r = 0; r < tile__prof.nkrings; r++) free(host[r]);
}
/* the last stopped profile's kernel times, for tile_profile_times: each
   launch's kernel (an index into names) and time, in launch order */
static struct {
    char (*names)[64];
    int nnames;
    struct { int name; double ms; } *t;
    int n;
} tile__prof_last;
static void tile__prof_last_free(void) {
    free(tile__prof_last.names), free(tile__prof_last.t);
    memset(&tile__prof_last, 0, sizeof tile__prof_last);
}
/* keep this profile's times (lock held); nothing kept when out of memory */
static void tile__prof_last_keep_locked(void) {
    tile__prof_last_free();
    int n = tile__prof.nlaunches, last = -1;
    if (!n || !(tile__prof_last.t = malloc(sizeof *tile__prof_last.t * (size_t)n))) return;
    int cap = 0;
    for (int i = 0; i < n; i++) {
        const tile__prof_launch *l = &tile__prof.launches[i];
        if (l->foreign) continue;
        int k = last >= 0 && strcmp(tile__prof_last.names[last], l->kernel) == 0 ? last : -1;
        for (int j = 0; k < 0 && j < tile__prof_last.nnames; j++)
            if (strcmp(tile__prof_last.names[j], l->kernel) == 0) k = j;
        if (k < 0) {
            if (tile__prof_last.nnames == cap) {
                int nc = cap ? 2 * cap : 16;
                char(*g)[64] = (char(*)[64])realloc(tile__prof_last.names, 64 * (size_t)nc);
                if (!g) {
                    tile__prof_last_free();
                    return;
                }
                tile__prof_last.names = g, cap = nc;
            }
            k = tile__prof_last.nnames++;
            memcpy(tile__prof_last.names[k], l->kernel, 64);
        }
        last = k;
        tile__prof_last.t[tile__prof_last.n].name = k;
        tile__prof_last.t[tile__prof_last.n++].ms = l->g1 >= l->g0 ? l->g1 - l->g0 : -1;
    }
}
int tile_profile_times(const char *kernel, double *ms, int max) {
    int c = 0;
    if (!kernel) return 0;
    pthread_mutex_lock(&tile__prof_lock);
    int k = -1;
    for (int j = 0; j < tile__prof_last.nnames && k < 0; j++)
        if (strncmp(tile__prof_last.names[j], kernel, 63) == 0) k = j;
    for (int i = 0; k >= 0 && i < tile__prof_last.n; i++)
        if (tile__prof_last.t[i].name == k) {
            if (ms && c < max) ms[c] = tile__prof_last.t[i].ms;
            c++;
        }
    pthread_mutex_unlock(&tile__prof_lock);
    return c;
}
/* write every output and free the records (lock held); the first failure */
static tile_status tile__prof_finish_locked_here(const char *file, int line);
/* on the profile's device (its events, rings and buffers are there) */
static tile_status tile__prof_finish_locked(const char *file, int line) {
    int here = tile__cu_tls;
    tile__cu_tls = tile__prof.dev;
    tile_status st = tile__prof_finish_locked_here(file, line);
    if (here != tile__cu_tls) tile__cu_restore(here);
    return st;
}
static tile_status tile__prof_finish_locked_here(const char *file, int line) {
    tile_status st = TILE_OK;
    char device[256], fname[4200];
    double ctf, cgb;
    if (tile__prof.gpu && tile__cu_enter(file, line) == TILE_OK) {   /* every kernel has ended; then its record or events */
        tile__cu.cuCtxSynchronize();
        if (tile__prof.cupti) {
            char why[320];
            tile__cupti_switch(0, why, sizeof why);
            tile__cupti_collect_locked();
        }
        while (tile__prof.fifo_len) tile__prof_fifo_pop();
        if (tile__prof.kclock) tile__prof_kclock_collect_locked();
        for (int i = 0; i < tile__prof.nkbufs; i++) {   /* the in-kernel records */
            tile__prof_kbuf *kb = &tile__prof.kbufs[i];
            if (!kb->dev) continue;
            if ((kb->host = (unsigned char *)malloc(kb->bytes)) && tile__cu.cuMemcpyDtoH_v2(kb->host, kb->dev, kb->bytes) != CUDA_SUCCESS) {
                free(kb->host);
                kb->host = NULL;
            }
            tile__cu.cuMemFree_v2(kb->dev);
            kb->dev = 0;
        }
    }
    tile__prof_ceilings(&ctf, &cgb, device, sizeof device);
    tile__prof_tree t = {NULL, 0, 0};
    if (!tile__prof_build_tree(&t)) st = tile__error(TILE_ERR_NOMEM, NULL, file, line, "tile_profile_stop: out of host memory for the report");
    if (st == TILE_OK && (tile__prof.formats & TILE__PROF_TREE) && !tile__knob_values_get()->quiet) tile__prof_write_tree(stderr, &t, device, ctf, cgb);
    for (int fmt = 0; fmt < 3 && tile__prof.path[0]; fmt++) {
        if (!(tile__prof.formats >> fmt & 1) || (fmt == 0 && st != TILE_OK)) continue;
        tile__prof_file(tile__prof.path, fmt, fname, sizeof fname);
        FILE *f = fopen(fname, "w");
        if (!f) {
            if (st == TILE_OK) st = tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_stop: cannot write %s: %s", fname, strerror(errno));
            continue;
        }
        if (fmt == 0) tile__prof_write_tree(f, &t, device, ctf, cgb);
        else if (fmt == 1) tile__prof_write_json(f, device, ctf, cgb);
        else tile__prof_write_html(f, device, ctf, cgb);
        if ((ferror(f) | fclose(f)) && st == TILE_OK) st = tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_stop: writing %s failed", fname);
    }
    free(t.n);
    tile__prof_last_keep_locked();
    /* scopes still open: reported after the outputs are safe */
    int open = -1;
    for (int i = 0; i < tile__prof.nscopes && open < 0; i++)
        if (tile__prof.scopes[i].t1 < tile__prof.scopes[i].t0) open = i;
    if (open >= 0 && st == TILE_OK && file) {
        const tile__prof_scope *s = &tile__prof.scopes[open];
        st = tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_stop: scope \"%s\" (begun at %s:%d) was never ended; the report shows it open", s->name,
                         s->file ? s->file : "?", s->line);
    }
    if (tile__prof.gpu && !tile__prof.cupti && !tile__prof.kclock) {   /* timed by events: theirs */
        for (int i = 0; i < tile__prof.npairs; i++) tile__cu.cuEventDestroy_v2(tile__prof.pairs[i].ev[0]), tile__cu.cuEventDestroy_v2(tile__prof.pairs[i].ev[1]);
        tile__cu.cuEventDestroy_v2(tile__prof.base);
        tile__prof.base = NULL;
    }
    for (int i = 0; i < tile__prof.nkbufs; i++) {
        if (tile__prof.kbufs[i].dev && tile__cu_enter(NULL, 0) == TILE_OK) tile__cu.cuMemFree_v2(tile__prof.kbufs[i].dev);   /* (not read back: no context) */
        free(tile__prof.kbufs[i].host), free(tile__prof.kbufs[i].names);
    }
    for (int r = 0; r < tile__prof.nkrings; r++)
        if (tile__prof.gpu && tile__cu_enter(NULL, 0) == TILE_OK) tile__cu.cuMemFree_v2(tile__prof.kring[r]);
    tile__prof.nkrings = 0, tile__prof.kused = 0, tile__prof.kclock = 0;
    free(tile__prof.kbufs);
    tile__prof.kbufs = NULL, tile__prof.nkbufs = tile__prof.capkbufs = tile__prof.knot = tile__prof.kmore = 0, tile__prof.kbytes = 0;
    free(tile__prof.scopes), free(tile__prof.launches), free(tile__prof.pairs), free(tile__prof.fifo);
    tile__prof.scopes = NULL, tile__prof.launches = NULL, tile__prof.pairs = NULL, tile__prof.fifo = NULL;
    tile__prof.nscopes = tile__prof.capscopes = tile__prof.nlaunches = tile__prof.caplaunches = 0;
    tile__prof.npairs = tile__prof.fifo_head = tile__prof.fifo_len = tile__prof.nthreads = tile__prof.lost = 0;
    tile__prof.otherdev = 0;
    return st;
}

/* at exit: the running profile's report (registered by the first start,
   after the driver and CUPTI have started, so it runs before theirs) */
static void tile__prof_atexit(void) {
    pthread_mutex_lock(&tile__prof_lock);
    if (atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        atomic_store_explicit(&tile__prof_on, 0, memory_order_release);
        tile__prof_finish_locked(NULL, 0);
    }
    pthread_mutex_unlock(&tile__prof_lock);
}
/* at exit: the tables that outlive profiles */
static void tile__prof_atexit_free(void) {
    pthread_mutex_lock(&tile__prof_lock);
    free(tile__prof.metrics);
    tile__prof.metrics = NULL, tile__prof.nmetrics = tile__prof.capmetrics = 0;
    tile__prof_last_free();
    atomic_store_explicit(&tile__prof_nfn, 0, memory_order_relaxed);
    pthread_mutex_unlock(&tile__prof_lock);
    pthread_mutex_lock(&tile__cupti.lock);   /* CUPTI's kinds are off by now */
    free(tile__cupti.ker);
    tile__cupti.ker = NULL;
    tile__cupti.nker = tile__cupti.capker = 0;
    pthread_mutex_unlock(&tile__cupti.lock);
}

/* 1 when the n characters at p are `word`, whatever their case */
static int tile__prof_word(const char *p, const char *word, size_t n) {
    for (size_t i = 0; i < n; i++)
        if ((p[i] >= 'A' && p[i] <= 'Z' ? p[i] - 'A' + 'a' : p[i]) != word[i]) return 0;
    return 1;
}
/* formats: "tree,json,html" in any order and case; NULL or "" : by path;
   "warp" (the default) or "warpgroup": the unit of in-kernel scopes; and
   "cupti" (the default), "events" or "clock": what times the kernels */
static tile_status tile__prof_formats(const char *path, const char *formats, unsigned *out, int *kmode, int *by, const char *file, int line) {
    static const char *const names[3] = {"tree", "json", "html"};
    static const char *const bys[3] = {"cupti", "events", "clock"};
    *out = 0;
    *kmode = TILE__KPROF_WARP;
    *by = TILE__PROF_BY_CUPTI;
    int unit_seen = 0, by_seen = -1;
    if (!formats || !formats[0]) {
        for (int i = 0; i < 3; i++)
            if (path && tile__prof_has_ext(path, tile__prof_ext[i])) *out = 1u << i;
        if (!*out) *out = path && path[0] ? TILE__PROF_TREE | TILE__PROF_JSON | TILE__PROF_HTML : TILE__PROF_TREE;
        return TILE_OK;
    }
    for (const char *p = formats; *p;) {
        size_t n = strcspn(p, ", ");
        int hit = -1;
        for (int i = 0; i < 3; i++)
            if (n == strlen(names[i]) && tile__prof_word(p, names[i], n)) hit = i;
        if (n == 4 && tile__prof_word(p, "warp", n)) *kmode = TILE__KPROF_WARP, hit = 3;
        if (n == 9 && tile__prof_word(p, "warpgroup", n)) *kmode = TILE__KPROF_WARPGROUP, hit = 3;
        for (int i = 0; i < 3; i++)
            if (n == strlen(bys[i]) && tile__prof_word(p, bys[i], n)) {
                if (by_seen >= 0 && by_seen != i)
                    return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_start: \"%s\" and \"%s\" in \"%.100s\": the kernels are timed one way", bys[by_seen],
                                       bys[i], formats);
                *by = by_seen = i, hit = 3;
            }
        if (n && hit < 0)
            return tile__error(TILE_ERR_PROFILE, NULL, file, line,
                               "tile_profile_start: unknown format \"%.*s\" in \"%.100s\" (tree, json or html; warp or warpgroup for in-kernel scopes; "
                               "cupti, events or clock for the kernels' time)",
                               (int)(n > 40 ? 40 : n), p, formats);
        if (hit == 3) {
            unit_seen = 1;
            p += n;
            while (*p == ',' || *p == ' ') p++;
            continue;
        }
        if (hit >= 0) *out |= 1u << hit;
        p += n;
        while (*p == ',' || *p == ' ') p++;
    }
    if (!*out && unit_seen) {   /* only the unit or the timing: the formats by path */
        int km = *kmode, b = *by;
        tile__prof_formats(path, NULL, out, kmode, by, file, line);
        *kmode = km, *by = b;
        return TILE_OK;
    }
    if (!*out) return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_start: no format in \"%.100s\" (tree, json or html)", formats);
    if ((*out & ~(unsigned)TILE__PROF_TREE) && (!path || !path[0]))
        return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_start: the formats \"%.100s\" need a path to write to", formats);
    return TILE_OK;
}

tile_status tile_profile_start_at(const char *path, const char *formats, const char *file, int line) {
    unsigned fm;
    int kmode, by;
    tile_status st = tile__prof_formats(path, formats, &fm, &kmode, &by, file, line);
    if (st != TILE_OK) return st;
    if (path && strlen(path) >= sizeof tile__prof.path - 8)
        return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_start: the path is longer than %zu characters", sizeof tile__prof.path - 8);
    /* every file it will write, tried now: a path that cannot be written is
       this call's error, not a lost profile at the end */
    for (int i = 0; i < 3 && path && path[0]; i++) {
        char fname[4200];
        if (!(fm >> i & 1)) continue;
        tile__prof_file(path, i, fname, sizeof fname);
        FILE *f = fopen(fname, "a");
        if (!f) return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_start: cannot write %s: %s", fname, strerror(errno));
        fclose(f);
    }
    int gpu = tile__gpu_mode();   /* starts the driver first: its own atexit then runs after ours */
    pthread_once(&tile__nvtx.once, tile__nvtx_open);
    pthread_mutex_lock(&tile__prof_lock);
    if (atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        char at[300];
        snprintf(at, sizeof at, "%s:%d", tile__prof.file, tile__prof.line);
        pthread_mutex_unlock(&tile__prof_lock);
        return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_start: a profile is already running (started at %s)", at);
    }
    tile__prof.gpu = gpu;
    tile__prof.dev = tile__dev_here();
    tile__prof.otherdev = 0;
    tile__prof.by = by;
    tile__prof.kclock = gpu && by == TILE__PROF_BY_CLOCK;
    tile__prof.cupti = gpu && by == TILE__PROF_BY_CUPTI && tile__cupti_switch(1, tile__prof.timing_why, sizeof tile__prof.timing_why);
    if (by == TILE__PROF_BY_EVENTS) tile__copy_cut(tile__prof.timing_why, sizeof tile__prof.timing_why, "\"events\" asked for");
    if (tile__prof.kclock) {
        /* the first ring of slots now (the realtime clock, which %globaltimer
           usually follows, is read with t0 below) */
        tile__prof.nkrings = 0, tile__prof.kuntimed = 0, tile__prof.kalign = 0;
        st = tile__prof_kring_new_locked(file, line);
        if (st != TILE_OK) {
            pthread_mutex_unlock(&tile__prof_lock);
            if (st == TILE_ERR_NOMEM) return tile__error(st, NULL, file, line, "tile_profile_start: no device memory for the kernel clock's slots (17 MB)");
            return st == TILE_ERR_DRIVER ? tile__error(st, NULL, file, line, "tile_profile_start: the kernel clock's slots could not be cleared") : st;
        }
    } else if (tile__prof.cupti) {
        /* both clocks' zero: CUPTI's timestamps are the GPU's, in ns */
        tile__cupti.ts(&tile__prof.cupti_t0);
    } else if (gpu) {
        CUevent base;
        if ((st = tile__cu_event_create(&base, file, line)) == TILE_OK) {
            tile__prof.base = base;
            if ((st = tile__cu_event_record(base, NULL, file, line)) == TILE_OK) st = tile__cu_event_sync(base, file, line);
            if (st != TILE_OK) tile__cu.cuEventDestroy_v2(base);
        }
        if (st != TILE_OK) {
            pthread_mutex_unlock(&tile__prof_lock);
            return st;
        }
    }
    tile__prof.t0 = tile__host_ms();
    if (tile__prof.kclock) {   /* the realtime clock at the same instant as t0 */
        struct timespec ts;
        timespec_get(&ts, TIME_UTC);   /* the realtime clock (C11) */
        tile__prof.krt0 = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
    }   /* the base event has just completed: both clocks' zero */
    tile__copy_cut(tile__prof.path, sizeof tile__prof.path, path ? path : "");
    tile__copy_cut(tile__prof.file, sizeof tile__prof.file, file ? file : "?");
    tile__prof.line = line;
    tile__prof.formats = fm;
    tile__prof.kmode = kmode;
    if (++tile__prof.gen == 0) tile__prof.gen = 1;
    /* atexit runs last first: the report, then the tables freed */
    if (!tile__prof.atexit_free) tile__prof.atexit_free = atexit(tile__prof_atexit_free) == 0;
    if (!tile__prof.atexit_set) tile__prof.atexit_set = atexit(tile__prof_atexit) == 0;
    atomic_store_explicit(&tile__prof_on, 1, memory_order_release);
    pthread_mutex_unlock(&tile__prof_lock);
    return TILE_OK;
}
tile_status tile_profile_stop_at(const char *file, int line) {
    pthread_mutex_lock(&tile__prof_lock);
    if (!atomic_load_explicit(&tile__prof_on, memory_order_relaxed)) {
        pthread_mutex_unlock(&tile__prof_lock);
        return tile__error(TILE_ERR_PROFILE, NULL, file, line, "tile_profile_stop: no profile is running");
    }
    atomic_store_explicit(&tile__prof_on, 0, memory_order_release);
    tile_status st = tile__prof_finish_locked(file, line);
    pthread_mutex_unlock(&tile__prof_lock);
    return st;
}
int tile_profile_running(void) { return atomic_load_explicit(&tile__prof_on, memory_order_acquire); }
/* how in-kernel scopes are compiled now: TILE__KPROF_OFF with no profile running */
static int tile__prof_kmode_now(void) {
    if (!atomic_load_explicit(&tile__prof_on, memory_order_acquire)) return TILE__KPROF_OFF;
    pthread_mutex_lock(&tile__prof_lock);
    int m = atomic_load_explicit(&tile__prof_on, memory_order_relaxed) ? tile__prof.kmode : TILE__KPROF_OFF;
    pthread_mutex_unlock(&tile__prof_lock);
    return m;
}

/* 1 when kernels are compiled to time themselves now: a profile timing by
   the kernel clock runs (on a GPU, or asked for in the interpreter, whose
   PTX then shows what a GPU would run) */
static int tile__prof_ktime_now(void) {
    if (!atomic_load_explicit(&tile__prof_on, memory_order_acquire)) return 0;
    pthread_mutex_lock(&tile__prof_lock);
    int m = atomic_load_explicit(&tile__prof_on, memory_order_relaxed) && tile__prof.by == TILE__PROF_BY_CLOCK;
    pthread_mutex_unlock(&tile__prof_lock);
    return m;
}

/* TILE_PROFILE=path: a profile from the first launch to the program's end */
static pthread_once_t tile__prof_env_once = PTHREAD_ONCE_INIT;
static void tile__prof_env(void) {
    const char *p = tile__knob_values_get()->profile;
    if (!p[0]) return;
    if (tile_profile_start_at(strcmp(p, "-") == 0 ? NULL : p, NULL, "TILE_PROFILE", 0) != TILE_OK)
        tile__notice("TILE_PROFILE=%s: no profile: %s", p, tile_last_error());
}
static void tile__prof_env_check(void) { pthread_once(&tile__prof_env_once, tile__prof_env); }
