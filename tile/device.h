/* tile/device.h — >>device: the GPU or the interpreter, memory, device
   error records, and the public memory, stream and event API.

   Why it is shaped this way: whether a process runs its kernels on a GPU
   is decided once (tile__gpu_mode), and everything that touches memory or
   time asks this layer, never the launch code above it: tile_malloc's
   blocks are registered so a launch can tell a stray pointer, and the
   interpreter a stray lane, from a real one; the record each checked
   launch writes is read when its stream, the device or a copy back is
   synchronized. It sits on the driver table (tile/cuda.h) and the knobs
   (tile/knobs.h), and below the interpreter, the caches and the runtime. */
#include <unistd.h>   /* sysconf: the host's memory */

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
/* Under strict ISO C (-std=c11 with no _POSIX_C_SOURCE) glibc hides these
   POSIX names; the system's own values are used (glibc's spelling where the
   public one is hidden), and mkstemp is declared again (the same prototype). */
#if defined(O_NOFOLLOW)
#define TILE__O_NOFOLLOW O_NOFOLLOW
#elif defined(__O_NOFOLLOW)
#define TILE__O_NOFOLLOW __O_NOFOLLOW
#else
#define TILE__O_NOFOLLOW 0   /* the cache's owner and mode checks still hold */
#endif
#if defined(O_CLOEXEC)
#define TILE__O_CLOEXEC O_CLOEXEC
#elif defined(__O_CLOEXEC)
#define TILE__O_CLOEXEC __O_CLOEXEC
#else
#define TILE__O_CLOEXEC 0    /* FD_CLOEXEC is set after the open */
#endif
int mkstemp(char *tmpl);

/* ---- knobs: what the library makes of the knobs that need more than reading
   (tile/knobs.h reads every one, once: its values are used as they are).
   A bad value is one notice naming the knob, and the default. TILE_ARCH is
   checked where it applies, when a kernel is compiled without a GPU
   (tile__target), against the back end in use. */
typedef struct tile__knobs {
    int dump_ir, dump_ttgir, dump_cuda, dump_ptx;   /* TILE_DUMP=ir,ttgir,cuda,ptx */
    int dump_llir, dump_times; /* >>backends: TILE_DUMP=llir (the LLVM IR), TILE_DUMP=times (compile stages) */
    int dump_knobs;           /* TILE_DUMP=knobs: every knob and its value, once */
    int wgmma;                /* >>wgmma: TILE_WGMMA=0: tl_dot on sm_90a uses mma.sync, as on sm_80;
                                 =wait: wgmma, each tl_dot waiting for its own (TILE__HOPPER_*) */
    long long max_unroll;     /* >>unroll: TILE_MAX_UNROLL (tile__plan_stage)    */
} tile__knobs;
static tile__knobs tile__kn;
static pthread_once_t tile__kn_once = PTHREAD_ONCE_INIT;
/* TILE_DUMP: a comma-separated list of stage names; the unknown ones in one notice */
static void tile__read_dump_knob(void) {
    static const char *const names[] = {"ir", "ttgir", "cuda", "ptx", "llir", "times", "knobs"};
    int *const flags[] = {&tile__kn.dump_ir, &tile__kn.dump_ttgir, &tile__kn.dump_cuda, &tile__kn.dump_ptx, &tile__kn.dump_llir, &tile__kn.dump_times,
                          &tile__kn.dump_knobs};
    const char *v = tile__knob_values_get()->dump, *p = v;
    char bad[160] = "";
    size_t nbad = 0;
    while (p && *p) {
        size_t n = strcspn(p, ","), k = 0;
        while (k < sizeof names / sizeof *names && !(strlen(names[k]) == n && strncmp(p, names[k], n) == 0)) k++;
        if (k < sizeof names / sizeof *names) *flags[k] = 1;
        else if (n && nbad < sizeof bad) nbad += (size_t)snprintf(bad + nbad, sizeof bad - nbad, "%s\"%.*s\"", nbad ? ", " : "", (int)(n < 40 ? n : 40), p);
        p += n;
        if (*p == ',') p++;
    }
    if (nbad) {
        char why[256];
        snprintf(why, sizeof why, "no stage %s (ir, ttgir, cuda, ptx, llir, times, knobs); ignored", bad);
        tile__knob_notice("TILE_DUMP", v, why);
    }
}
static void tile__read_knobs(void) {
    const tile__knob_values *kv = tile__knob_values_get();
    const char *v;
    tile__read_dump_knob();
    v = kv->wgmma;
    tile__kn.wgmma = TILE__HOPPER_ASYNC;
    if (strcmp(v, "0") == 0) tile__kn.wgmma = TILE__HOPPER_OFF;
    else if (strcmp(v, "wait") == 0) tile__kn.wgmma = TILE__HOPPER_WAIT;
    else if (*v && strcmp(v, "1") != 0) tile__knob_notice("TILE_WGMMA", v, "not 0, 1 or wait; ignored");
    v = kv->llvm_opt;   /* read by tile_backend_llvm.c, which treats anything else as 1 */
    if (*v && !(v[1] == 0 && v[0] >= '1' && v[0] <= '3')) tile__knob_notice("TILE_LLVM_OPT", v, "not 1, 2 or 3; ignored");
    v = kv->llvm_codegen;   /* likewise, anything else as 2 */
    if (*v && !(v[1] == 0 && v[0] >= '0' && v[0] <= '3')) tile__knob_notice("TILE_LLVM_CODEGEN", v, "not 0, 1, 2 or 3; ignored");
    v = kv->max_unroll;
    tile__kn.max_unroll = 16384;
    if (*v) {
        char *end;
        long long n = strtoll(v, &end, 10);
        if (end != v && !*end && n > 0) tile__kn.max_unroll = n;
        else tile__knob_notice("TILE_MAX_UNROLL", v, "not a positive number; ignored");
    }
    if (tile__kn.dump_knobs) {   /* as tile__dump prints a stage (which reads these knobs: not from here) */
        char text[8192], path[768];
        FILE *fp = NULL;
        tile__knobs_text(text, sizeof text);
        if (kv->dump_dir[0]) {
            snprintf(path, sizeof path, "%.511s/tile.knobs", kv->dump_dir);
            if (!(fp = fopen(path, "w"))) fprintf(stderr, "tile: cannot write %s: %s\n", path, strerror(errno));
        }
        if (fp) {
            fputs(text, fp);
            fclose(fp);
        } else fprintf(stderr, "// ---- tile: knobs\n%s", text);
    }
}
static const tile__knobs *tile__knobs_get(void) {
    pthread_once(&tile__kn_once, tile__read_knobs);
    return &tile__kn;
}
/* >>wgmma: how kernels for `arch` may use wgmma (TILE__HOPPER_*): only on
   sm_90a (it is neither in sm_90 nor in later architectures) */
static int tile__hopper(const char *arch) { return arch && strcmp(arch, "sm_90a") == 0 ? tile__knobs_get()->wgmma : TILE__HOPPER_OFF; }
/* GPU mode or interpreter, decided once per process: the interpreter when
   asked for, or when there is no driver, no device or no NVRTC (with one
   line saying why); the GPU through NVRTC otherwise. */
static int tile__gpu_on;
static pthread_once_t tile__mode_once = PTHREAD_ONCE_INIT;
/* >>backends: a back end linked in from its own file (tile_backend_llvm.c)
   registers here from a constructor. It compiles every kernel when it loads
   and TILE_BACKEND is unset or names it; NVRTC compiles otherwise, and also
   a kernel it reports unsupported when TILE_BACKEND does not force it. */
static const tile_backend_hooks *tile__ext;
void tile_register_backend(const tile_backend_hooks *h) { tile__ext = h && h->name && h->load && h->supports && h->emit && h->assemble && h->release ? h : NULL; }
static int tile__ext_on;
static pthread_once_t tile__ext_once = PTHREAD_ONCE_INIT;
static void tile__decide_ext(void) {
    const tile__knob_values *kn = tile__knob_values_get();
    char why[1024] = "";
    int forced = tile__ext && strcmp(kn->backend, tile__ext->name) == 0;
    if (!tile__ext || (kn->backend[0] && !forced && strcmp(kn->backend, "interp") != 0)) return;
    int r = tile__ext->load(tile__knob_values_get(), why, sizeof why);   /* < 0: a knob of its own is wrong, and `why` names it */
    tile__ext_on = r > 0;
    if (!tile__ext_on && (forced || r < 0) && !tile__knob_values_get()->quiet)
        fprintf(stderr, "tile: %s%s%s%s; compiling with NVRTC\n", forced ? "TILE_BACKEND=" : "", forced ? kn->backend : "", forced ? ": " : "", why);
}
static int tile__ext_mode(void) {
    pthread_once(&tile__ext_once, tile__decide_ext);
    return tile__ext_on;
}
static void tile__decide_mode(void) {
    const tile__knob_values *kn = tile__knob_values_get();
    if (kn->interpret || strcmp(kn->backend, "interp") == 0) return;
    const char *why = NULL;
    int ext = tile__ext && strcmp(kn->backend, tile__ext->name) == 0;
    if (kn->backend[0] && strcmp(kn->backend, "nvrtc") != 0 && !ext)
        why = tile__ext ? "this build has no such back end (interp, nvrtc, llvm)" : "this build has no such back end (interp, nvrtc; llvm needs tile_backend_llvm.c)";
    else if (!tile__cu_available())   /* the driver's own words where a knob of cuda.h is set: they name it */
        why = tile__cuda_knobs()->cuda[0] || tile__cuda_knobs()->device[0] ? tile__cu_st.why : "no CUDA driver or device";
#ifndef TILE_AOT /* >>aot: a TILE_AOT build runs its tables' variants without a compiler (a variant they lack says so when compiled) */
    else if (!tile__ext_mode() && !tile__nvrtc_available()) why = "NVRTC could not be loaded (set TILE_NVRTC)";
#endif
    if (!why) {
        tile__gpu_on = 1;
        return;
    }
    if (!tile__knob_values_get()->quiet)
        fprintf(stderr, "tile: %s%s%s%s; running kernels in the interpreter\n", kn->backend[0] ? "TILE_BACKEND=" : "", kn->backend,
                kn->backend[0] ? ": " : "", why);
}
static int tile__gpu_mode(void) {
    pthread_once(&tile__mode_once, tile__decide_mode);
    return tile__gpu_on;
}
const char *tile_backend_name(void) { return !tile__gpu_mode() ? "interp" : tile__ext_mode() ? tile__ext->name : "nvrtc"; }

/* ---- helpers ---------------------------------------------------------------------- */
/* The host's clock in milliseconds: monotonic where POSIX offers it. */
static double tile__host_ms(void) {
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
/* src into dst[n] (n > 0), cut to n - 1 characters when it must be */
static void tile__copy_cut(char *dst, size_t n, const char *src) {
    size_t len = strlen(src);
    if (len >= n) len = n - 1;
    memcpy(dst, src, len);
    dst[len] = 0;
}

/* ---- device error records ----------------------------------------------------------
   Why it is shaped this way: a kernel's checks (a user's tl_device_assert,
   and the library's own: a TL_FOR whose step is not positive) fail on the
   device after the launch has returned, so a failure is written down there
   and read later. Each launch of a kernel that has checks gets a record of
   its own, a slot of one pool in device memory, as the kernel's hidden last
   parameter; the first check of the launch to fail writes {kind, line,
   check, program x, y, z} into it (TILE__CHECK_*, lower.h). The host keeps
   for each slot whose launch it is (kernel, launch line) and an event
   recorded after the launch. A slot is read, and cleared, as soon as its
   launch is known to have finished: right after it when the launch waits
   (TILE_SYNC, or a user's assert), else at the next launch if its event
   has completed, and at the latest at the next tile_synchronize,
   tile_stream_synchronize, tile_event_synchronize or tile_memcpy_dtoh.
   The pool is read back on a non-blocking stream of its own, so reading
   waits for no other work. The record's kind, never a message's text,
   tells the library's checks from a user's; its check index names the op,
   and so the file, line and message to report. */
enum { TILE__NREC = 128 };
typedef struct tile__rec_site {        /* whose a record is                              */
    const tile__func *f;               /* the kernel's IR; NULL once it is released      */
    const tile_kernel *k;
    char kernel[64], kfile[256];       /* the kernel's name and file                     */
    char file[256];                    /* the launch site ("" when unknown)              */
    int line;
} tile__rec_site;
typedef struct tile__rec_slot {
    int busy;                          /* a launch owns it                               */
    int launched;                      /* the kernel is launched and `seq` set           */
    int has_event;                     /* `done` was recorded after it                   */
    unsigned long long seq;            /* launch order                                   */
    CUevent done;
    tile__rec_site site;
} tile__rec_slot;
/* One pool a device (its launches write their records in its memory),
   each under its own lock (one device's wait for a slot does not hold up
   another's launches). */
typedef struct tile__rec_pool {
    pthread_mutex_t lock;
    void *pool;                        /* TILE__NREC records of TILE__REC_INTS ints      */
    CUstream side;                     /* where the pool is read and cleared             */
    tile__rec_slot *slots;
    int nbusy;
    unsigned long long seq;            /* the latest launch's                            */
    int host[TILE__NREC * TILE__REC_INTS];
} tile__rec_pool;
#define TILE__REC_POOL_INIT {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, 0, 0, {0}}
static tile__rec_pool tile__recs_of[TILE__MAX_DEVICES] = {
    TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT,
    TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT,
    TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT, TILE__REC_POOL_INIT};
#undef TILE__REC_POOL_INIT
/* the calling thread's device's pool */
static tile__rec_pool *tile__recs_here(void) { return &tile__recs_of[tile__cu_index()]; }

/* The error a record stands for, decoded without reporting it: the record,
   whose it is, and how many later launches failed as well. */
typedef struct tile__rec_error {
    tile_status status;
    char kernel[64], file[256];
    int line;
    char text[768];        /* what tile__error formats at most */
} tile__rec_error;
static void tile__rec_decode(const int *rec, const tile__rec_site *s, int later, tile__rec_error *out) {
    int kind = rec[0], line = rec[1], check = rec[2];
    const tile__op *op = s->f && check >= 0 && check < s->f->nops ? &s->f->ops[check] : NULL;
    if (op && (op->line != line || op->code != (kind == TILE__CHECK_STEP ? TILE__OP_FOR : TILE__OP_ASSERT))) op = NULL;
    char where[300] = "", more[64] = "";
    if (s->file[0]) snprintf(where, sizeof where, "; launched at %s:%d", s->file, s->line);
    if (later) snprintf(more, sizeof more, "; %d later launch%s failed as well", later, later > 1 ? "es" : "");
    tile__copy_cut(out->kernel, sizeof out->kernel, s->kernel);
    tile__copy_cut(out->file, sizeof out->file, op && op->file ? op->file : s->kfile);
    out->line = line;
    if (kind == TILE__CHECK_STEP) {
        out->status = TILE_ERR_VALUE;
        snprintf(out->text, sizeof out->text, "TL_FOR step must be positive (program (%d,%d,%d))%s%s", rec[3], rec[4], rec[5], where, more);
    } else if (kind == TILE__CHECK_ASSERT) {
        out->status = TILE_ERR_ASSERT;
        snprintf(out->text, sizeof out->text, "tl_device_assert failed in program (%d,%d,%d): %.300s%s%s", rec[3], rec[4], rec[5],
                 !op ? "(the message is gone: the kernel was released before its record was read)" : op->s ? op->s : "", where, more);
    } else {
        out->status = TILE_ERR_INTERNAL;
        snprintf(out->text, sizeof out->text, "a device record of unknown kind %d%s", kind, where);
    }
}
static tile_status tile__rec_report(const tile__rec_error *e) { return tile__error(e->status, e->kernel, e->file, e->line, "%s", e->text); }

/* The pool, its stream and its slots, made on first use (lock held). */
static tile_status tile__rec_init_locked(void) {
    tile__rec_pool *R = tile__recs_here();
    if (R->slots) return TILE_OK;
    tile_status st = tile__cu_alloc(sizeof R->host, &R->pool, NULL, 0);
    if (st == TILE_OK) st = tile__cu_memset(R->pool, 0, sizeof R->host, NULL, 0);
    if (st == TILE_OK) st = tile__cu_stream_create_flags(&R->side, TILE__CU_STREAM_NON_BLOCKING, NULL, 0);
    if (st == TILE_OK && !(R->slots = (tile__rec_slot *)calloc(TILE__NREC, sizeof *R->slots)))
        st = tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "out of host memory for the device error records");
    if (st != TILE_OK) {
        tile__cu_free(R->pool, NULL, 0);
        tile__cu_stream_destroy(R->side, NULL, 0);
        R->pool = NULL;
        R->side = NULL;
    }
    return st;
}
/* Read the records of the launches known to have finished (launched at or
   before `upto`, or with a completed event), clear the failed ones and free
   their slots. The earliest failure is decoded into *err (*found = 1), the
   later ones counted in it. Lock held. */
static tile_status tile__rec_collect_locked(unsigned long long upto, int *found, tile__rec_error *err) {
    tile__rec_pool *R = tile__recs_here();
    static const int zeros[TILE__REC_INTS];
    int fin[TILE__NREC], nfin = 0, later = 0, cleared = 0, first = -1;
    tile_status st = TILE_OK;
    for (int i = 0; i < TILE__NREC && st == TILE_OK; i++) {
        tile__rec_slot *sl = &R->slots[i];
        int done = sl->busy && sl->launched && sl->seq <= upto;
        if (sl->busy && sl->launched && !done && sl->has_event) st = tile__cu_event_done(sl->done, &done, NULL, 0);
        if (done) fin[nfin++] = i;
    }
    if (st != TILE_OK || !nfin) return st;
    st = tile__cu_dtoh_async(R->host, R->pool, sizeof R->host, R->side, NULL, 0);
    if (st == TILE_OK) st = tile__cu_stream_sync(R->side, NULL, 0);
    for (int j = 0; j < nfin && st == TILE_OK; j++) {
        int i = fin[j];
        tile__rec_slot *sl = &R->slots[i];
        if (R->host[i * TILE__REC_INTS]) {
            if (first < 0 || sl->seq < R->slots[first].seq) first = i;
            later++;
            st = tile__cu_htod_async((char *)R->pool + (size_t)i * sizeof zeros, zeros, sizeof zeros, R->side, NULL, 0);
            cleared = 1;
        }
    }
    if (st == TILE_OK && cleared) st = tile__cu_stream_sync(R->side, NULL, 0);
    if (st == TILE_OK && first >= 0) {
        tile__rec_decode(&R->host[first * TILE__REC_INTS], &R->slots[first].site, later - 1, err);
        *found = 1;
    }
    for (int j = 0; j < nfin && st == TILE_OK; j++) {
        R->slots[fin[j]].busy = 0;
        R->nbusy--;
    }
    return st;
}
/* The latest launch so far: what a synchronization that starts now finishes. */
static unsigned long long tile__rec_mark(void) {
    tile__rec_pool *R = tile__recs_here();
    pthread_mutex_lock(&R->lock);
    unsigned long long m = R->seq;
    pthread_mutex_unlock(&R->lock);
    return m;
}
/* Read what can be read (see above); the earliest failure is the error. */
static tile_status tile__rec_collect(unsigned long long upto) {
    tile__rec_pool *R = tile__recs_here();
    tile__rec_error err;
    int found = 0;
    if (!tile__gpu_mode()) return TILE_OK;
    pthread_mutex_lock(&R->lock);
    tile_status st = R->nbusy ? tile__rec_collect_locked(upto, &found, &err) : TILE_OK;
    pthread_mutex_unlock(&R->lock);
    return st == TILE_OK && found ? tile__rec_report(&err) : st;
}
/* A slot for a launch of k (IR f) from o: its index and the record's device
   address. With every slot taken, the oldest launch is waited for. */
static tile_status tile__rec_take(const tile__func *f, const tile_kernel *k, const tile_launch *o, int *slot, void **rec) {
    tile__rec_pool *R = tile__recs_here();
    tile__rec_error err;
    int found = 0, i = 0;
    pthread_mutex_lock(&R->lock);
    tile_status st = tile__rec_init_locked();
    while (st == TILE_OK && !found && R->nbusy == TILE__NREC) {
        int old = -1;
        for (int j = 0; j < TILE__NREC; j++)
            if (R->slots[j].launched && R->slots[j].has_event && (old < 0 || R->slots[j].seq < R->slots[old].seq)) old = j;
        if (old < 0) st = tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "more than %d launches with device checks at once", TILE__NREC);
        else if ((st = tile__cu_event_sync(R->slots[old].done, o->file, o->line)) == TILE_OK) st = tile__rec_collect_locked(0, &found, &err);
    }
    while (st == TILE_OK && !found && R->slots[i].busy) i++;
    tile__rec_slot *sl = st == TILE_OK && !found ? &R->slots[i] : NULL;
    if (sl && !sl->done) st = tile__cu_event_create_flags(&sl->done, TILE__CU_EVENT_DISABLE_TIMING, o->file, o->line);
    if (sl && st == TILE_OK) {
        sl->busy = 1;
        sl->launched = sl->has_event = 0;
        sl->site.f = f;
        sl->site.k = k;
        tile__copy_cut(sl->site.kernel, sizeof sl->site.kernel, k->name);
        tile__copy_cut(sl->site.kfile, sizeof sl->site.kfile, k->file ? k->file : "");
        tile__copy_cut(sl->site.file, sizeof sl->site.file, o->file ? o->file : "");
        sl->site.line = o->line;
        R->nbusy++;
        *slot = i;
        *rec = (char *)R->pool + (size_t)i * TILE__REC_INTS * sizeof(int);
    }
    pthread_mutex_unlock(&R->lock);
    return st == TILE_OK && found ? tile__rec_report(&err) : st;
}
/* The launch of a slot's kernel is on `stream`: number it and mark its end. */
static tile_status tile__rec_launched(int slot, void *stream, const tile_launch *o) {
    tile__rec_pool *R = tile__recs_here();
    pthread_mutex_lock(&R->lock);
    tile__rec_slot *sl = &R->slots[slot];
    sl->seq = ++R->seq;
    sl->launched = 1;
    tile_status st = tile__cu_event_record(sl->done, (CUstream)stream, o->file, o->line);
    sl->has_event = st == TILE_OK;
    pthread_mutex_unlock(&R->lock);
    return st;
}
/* The launch never happened: its record is still clear. */
static void tile__rec_drop(int slot) {
    tile__rec_pool *R = tile__recs_here();
    pthread_mutex_lock(&R->lock);
    R->slots[slot].busy = 0;
    R->nbusy--;
    pthread_mutex_unlock(&R->lock);
}
/* k's IR is about to be freed: records still to be read lose their messages. */
static void tile__rec_forget(const tile_kernel *k) {
    for (int d = 0; d < TILE__MAX_DEVICES; d++) {
        tile__rec_pool *R = &tile__recs_of[d];
        pthread_mutex_lock(&R->lock);
        for (int i = 0; R->slots && i < TILE__NREC; i++)
            if (R->slots[i].busy && R->slots[i].site.k == k) R->slots[i].site.f = NULL;
        pthread_mutex_unlock(&R->lock);
    }
}
/* ---- memory ----------------------------------------------------------------------
   Host memory in interpreter mode, kept in an address-sorted table so a lane's
   address can be checked in O(log n). */
typedef struct tile__block {
    uintptr_t base;
    size_t size;
    int dev;                       /* the device it was allocated on; -1: any (unified memory) */
} tile__block;
static tile__block *tile__blocks;
static int tile__nblocks, tile__capblocks;
static pthread_mutex_t tile__mem_lock = PTHREAD_MUTEX_INITIALIZER;

/* index of the block containing addr, or -1 */
static int tile__block_find(uintptr_t addr) {
    int lo = 0, hi = tile__nblocks - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (addr < tile__blocks[mid].base) hi = mid - 1;
        else if (addr >= tile__blocks[mid].base + tile__blocks[mid].size) lo = mid + 1;
        else return mid;
    }
    return -1;
}
/* [addr, addr + bytes) inside one allocation; no sum that could wrap.
   *dev (when given): the allocation's device (-1: any). */
static int tile__mem_valid_on(uint64_t addr, size_t bytes, int *dev) {
    pthread_mutex_lock(&tile__mem_lock);
    int b = tile__block_find((uintptr_t)addr);
    int ok = b >= 0 && bytes <= tile__blocks[b].base + tile__blocks[b].size - (uintptr_t)addr;
    if (dev) *dev = b >= 0 ? tile__blocks[b].dev : -1;
    pthread_mutex_unlock(&tile__mem_lock);
    return ok;
}
static int tile__mem_valid(uint64_t addr, size_t bytes) { return tile__mem_valid_on(addr, bytes, NULL); }

/* ---- devices ----------------------------------------------------------------------
   A host thread works on one device at a time (tile_set_device; until then
   TILE_DEVICE's, else 0): its allocations, streams and launches are there.
   On a GPU the devices are the driver's; the interpreter presents
   TILE_INTERPRET_DEVICES of them (default 1), so that code written for
   several GPUs runs, checks included, on a machine with none. */
static int tile__interp_ndev = 1;
static pthread_once_t tile__interp_ndev_once = PTHREAD_ONCE_INIT;
static void tile__read_interp_ndev(void) {
    const char *v = tile__knob_values_get()->interpret_devices;
    char *end;
    long n = *v ? strtol(v, &end, 10) : 1;
    if (*v && (*end || n < 1 || n > TILE__MAX_DEVICES)) {
        tile__knob_notice("TILE_INTERPRET_DEVICES", v, "not a count from 1 to 16; the interpreter has 1 device");
        n = 1;
    }
    tile__interp_ndev = (int)n;
}
/* the devices there are: the driver's, or the interpreter's */
static int tile__ndev(void) {
    pthread_once(&tile__interp_ndev_once, tile__read_interp_ndev);   /* (a bad value is told on a GPU too) */
    return tile__gpu_mode() ? tile__cu_st.ndev : tile__interp_ndev;
}
/* the calling thread's device */
static int tile__dev_here(void) { return tile__gpu_mode() ? tile__cu_index() : tile__cu_tls >= 0 ? tile__cu_tls : 0; }
/* in the interpreter, [d][p]: kernels on d may touch p's memory (the GPU's is tile__cu_st.peer) */
static unsigned char tile__interp_peer[TILE__MAX_DEVICES][TILE__MAX_DEVICES];
static pthread_mutex_t tile__interp_peer_lock = PTHREAD_MUTEX_INITIALIZER;
/* 1 when a kernel on device d may touch memory of device p (-1: unified) */
static int tile__dev_reaches(int d, int p) {
    if (p < 0 || p == d) return 1;
    int gpu = tile__gpu_mode();
    pthread_mutex_t *lk = gpu ? &tile__cu_st.lock : &tile__interp_peer_lock;
    pthread_mutex_lock(lk);
    int ok = gpu ? tile__cu_st.peer[d][p] : tile__interp_peer[d][p];
    pthread_mutex_unlock(lk);
    return ok;
}
/* more than one device in use: streams are checked against the launch's device */
static int tile__multi_dev(void) {
    if (!tile__gpu_mode()) return tile__ndev() > 1;
    return atomic_load_explicit(&tile__cu_st.nopen, memory_order_relaxed) > 1;
}
/* The device of tile_malloc memory at p (-1: unified, or not known). */
static int tile__mem_dev(const void *p) {
    int d = -1;
    tile__mem_valid_on((uint64_t)(uintptr_t)p, 1, &d);
    return d;
}
/* A copy or memset runs on the device that owns its memory p: this
   thread's device for the call is p's (tile__dev_back puts it back). */
static int tile__dev_to(const void *p) {
    int old = tile__cu_tls, d = tile__mem_dev(p);
    if (d >= 0 && d != tile__dev_here()) tile__cu_tls = d;
    return old;
}
static tile_status tile__dev_back(int old, tile_status st) {
    if (old != tile__cu_tls) tile__cu_restore(old);
    return st;
}
/* The bytes of memory this host has (0: unknown). */
static size_t tile__host_bytes(void) {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (unsigned long long)pages <= SIZE_MAX / (unsigned long long)page) return (size_t)pages * (size_t)page;
#endif
    return 0;
}
/* The bytes of memory this thread's device has (0: unknown), asked once a device. */
static size_t tile__dev_total[TILE__MAX_DEVICES];
static unsigned char tile__dev_total_asked[TILE__MAX_DEVICES];
static pthread_mutex_t tile__dev_total_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t tile__dev_total_here(void) {
    int d = tile__cu_index();
    pthread_mutex_lock(&tile__dev_total_lock);
    if (!tile__dev_total_asked[d]) {
        size_t fr = 0, total = 0;
        tile_error kept = tile__err;   /* a failure here is no one's error */
        tile__err_mute++;
        if (tile__cu_mem_info(&fr, &total) == TILE_OK) tile__dev_total[d] = total;
        tile__err_mute--;
        tile__err = kept;
        tile__dev_total_asked[d] = 1;
    }
    size_t total = tile__dev_total[d];
    pthread_mutex_unlock(&tile__dev_total_lock);
    return total;
}
void *tile_malloc(size_t bytes) {
    /* rounded up to 64 bytes; a size that cannot be rounded, or more than
       the memory there is (the device's; with TILE_MANAGED the device's and
       the host's; the host's in the interpreter), fails before an allocator
       sees it */
    if (bytes > SIZE_MAX - 63) {
        tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_malloc(%zu): no device or host has that much memory", bytes);
        return NULL;
    }
    size_t n = bytes ? (bytes + 63) / 64 * 64 : 64, have = 0;
    int gpu = tile__gpu_mode(), managed = gpu && tile__knob_values_get()->managed;
    size_t dev_total = gpu ? tile__dev_total_here() : 0;
    if (!gpu || managed) have = tile__host_bytes();
    if (gpu && dev_total) have = managed && have <= SIZE_MAX - dev_total ? have + dev_total : dev_total;
    void *p = NULL;
    if (have && n > have) {
        tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_malloc(%zu): more than the %zu MiB of memory %s", bytes, have >> 20,
                    !gpu ? "the host has" : managed ? "the device and the host have" : "the device has");
        return NULL;
    }
    if (gpu) {
        /* the driver's failure, told once and as tile_malloc's */
        tile__err_mute++;
        tile_status st = managed ? tile__cu_alloc_managed(n, &p, NULL, 0) : tile__cu_alloc(n, &p, NULL, 0);
        tile__err_mute--;
        if (st != TILE_OK) {
            char why[sizeof tile__err.message];
            const char *w = tile__err.message, *colon = strstr(w, ": ");
            if (strncmp(w, "error ", 6) == 0 && colon) w = colon + 2;   /* without its "error TILE_ERR_...: " */
            snprintf(why, sizeof why, "%s", w);
            tile__error(st, NULL, NULL, 0, "tile_malloc(%zu): %s", bytes, why);
            return NULL;
        }
    } else if (!(p = aligned_alloc(64, n))) {
        tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_malloc(%zu): out of host memory", bytes);
        return NULL;
    }
    pthread_mutex_lock(&tile__mem_lock);
    void *grown = tile__blocks;
    if (!tile__grow(&grown, &tile__capblocks, tile__nblocks + 1, sizeof *tile__blocks)) {
        pthread_mutex_unlock(&tile__mem_lock);
        if (gpu) (void)tile__cu_free(p, NULL, 0);
        else free(p);
        tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_malloc(%zu): out of host memory for the allocation's record", bytes);
        return NULL;
    }
    tile__blocks = (tile__block *)grown;
    int at = tile__nblocks;
    while (at > 0 && tile__blocks[at - 1].base > (uintptr_t)p) {
        tile__blocks[at] = tile__blocks[at - 1];
        at--;
    }
    tile__blocks[at].base = (uintptr_t)p;
    tile__blocks[at].size = bytes ? bytes : 1;
    tile__blocks[at].dev = managed ? -1 : tile__dev_here();
    tile__nblocks++;
    pthread_mutex_unlock(&tile__mem_lock);
    return p;
}
tile_status tile_free(void *p) {
    if (!p) return TILE_OK;
    pthread_mutex_lock(&tile__mem_lock);
    int b = tile__block_find((uintptr_t)p);
    if (b < 0 || tile__blocks[b].base != (uintptr_t)p) {
        pthread_mutex_unlock(&tile__mem_lock);
        return tile__error(TILE_ERR_ARG, NULL, NULL, 0, "tile_free(%p): not a pointer returned by tile_malloc (or freed twice)", p);
    }
    int dev = tile__blocks[b].dev;
    memmove(&tile__blocks[b], &tile__blocks[b + 1], sizeof *tile__blocks * (size_t)(tile__nblocks - b - 1));
    tile__nblocks--;
    if (tile__nblocks == 0) {
        free(tile__blocks);
        tile__blocks = NULL;
        tile__capblocks = 0;
    }
    pthread_mutex_unlock(&tile__mem_lock);
    if (tile__gpu_mode()) {
        int old = tile__cu_tls;
        if (dev >= 0) tile__cu_tls = dev;
        return tile__dev_back(old, tile__cu_free(p, NULL, 0));
    }
    free(p);
    return TILE_OK;
}
/* The pointers of a copy or memset: none NULL, device ones inside one
   allocation (with 0 bytes, anything goes). The NULL test is written out
   at each call, so that a compiler sees no copy from or to NULL follows. */
static tile_status tile__null_arg(const char *call, const char *which, size_t bytes) {
    tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "%s: the %s is NULL (%zu bytes)", call, which, bytes);
    return TILE_ERR_VALUE;
}
static tile_status tile__check_dev(const char *call, const char *which, const void *p, size_t bytes) {
    if (bytes == 0 || (bytes <= PTRDIFF_MAX && tile__mem_valid((uint64_t)(uintptr_t)p, bytes))) return TILE_OK;
    tile__error(TILE_ERR_ARG, NULL, NULL, 0, "%s: %s [%p, +%zu) is not inside one tile_malloc allocation", call, which, p, bytes);
    return TILE_ERR_ARG;
}
tile_status tile_memcpy_htod(void *dst, const void *src, size_t bytes) {
    if (bytes && (!dst || !src)) return tile__null_arg("tile_memcpy_htod", !dst ? "destination" : "source", bytes);
    tile_status st = tile__check_dev("tile_memcpy_htod", "destination", dst, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) {
        int old = tile__dev_to(dst);
        return tile__dev_back(old, tile__cu_htod(dst, src, bytes, NULL, 0));
    }
    memcpy(dst, src, bytes);
    return TILE_OK;
}
/* a synchronous copy back: the launches before it have finished, and their device records are read */
tile_status tile_memcpy_dtoh(void *dst, const void *src, size_t bytes) {
    if (bytes && (!dst || !src)) return tile__null_arg("tile_memcpy_dtoh", !dst ? "destination" : "source", bytes);
    tile_status st = tile__check_dev("tile_memcpy_dtoh", "source", src, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) {
        int old = tile__dev_to(src);
        st = tile__cu_dtoh(dst, src, bytes, NULL, 0);
        return tile__dev_back(old, st == TILE_OK ? tile__rec_collect(0) : st);
    }
    memcpy(dst, src, bytes);
    return TILE_OK;
}
tile_status tile_memcpy_dtod(void *dst, const void *src, size_t bytes) {
    if (bytes && (!dst || !src)) return tile__null_arg("tile_memcpy_dtod", !dst ? "destination" : "source", bytes);
    tile_status st = tile__check_dev("tile_memcpy_dtod", "source", src, bytes);
    if (st == TILE_OK) st = tile__check_dev("tile_memcpy_dtod", "destination", dst, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) {
        int sd = tile__mem_dev(src), dd = tile__mem_dev(dst);
        if (sd >= 0 && dd >= 0 && sd != dd) return tile__cu_peer_copy(dst, dd, src, sd, bytes);   /* across GPUs */
        int old = tile__dev_to(dd >= 0 ? dst : src);
        return tile__dev_back(old, tile__cu_dtod(dst, src, bytes, NULL, 0));
    }
    memmove(dst, src, bytes);
    return TILE_OK;
}
tile_status tile_memset(void *dst, int byte, size_t bytes) {
    if (bytes && !dst) return tile__null_arg("tile_memset", "destination", bytes);
    tile_status st = tile__check_dev("tile_memset", "destination", dst, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) {
        int old = tile__dev_to(dst);
        return tile__dev_back(old, tile__cu_memset(dst, byte, bytes, NULL, 0));
    }
    memset(dst, byte, bytes);
    return TILE_OK;
}
tile_status tile_synchronize(void) {
    if (!tile__gpu_mode()) return TILE_OK;
    unsigned long long upto = tile__rec_mark();
    tile_status st = tile__cu_sync();
    return st == TILE_OK ? tile__rec_collect(upto) : st;
}

/* ---- the public API: devices, streams, events -------------------------------------------
   In GPU mode the handles are the driver's own (cast); in the interpreter
   they are these host objects, which know their device. */
struct tile_stream_s { int host; int dev; };
struct tile_event_s { int recorded; double ms; int dev; };

int tile_device_count(void) {
    pthread_once(&tile__cu_st.once, tile__cu_open);
    return tile__cu_st.ndev;
}
int tile_device_sm_count(void) {
    if (!tile__gpu_mode()) return 4;
    return tile__cu_cur()->props.sm_count > 0 ? tile__cu_cur()->props.sm_count : 1;
}
tile_status tile_device_name(char *buf, size_t n) {
    if (!buf || !n) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_device_name: no buffer (NULL or 0 bytes)");
    buf[0] = 0;
    if (!tile__gpu_mode()) {
        tile__copy_cut(buf, n, "interpreter (CPU)");
        return TILE_OK;
    }
    tile_status st = tile__cu_enter(NULL, 0);
    if (st == TILE_OK) tile__copy_cut(buf, n, tile__cu_cur()->props.name);
    return st;
}
/* "the driver sees 2 devices (0 to 1)", or the interpreter's */
static void tile__ndev_text(char *buf, size_t n) {
    int nd = tile__ndev();
    if (tile__gpu_mode()) snprintf(buf, n, "the driver sees %d device%s (0 to %d)", nd, nd == 1 ? "" : "s", nd - 1);
    else snprintf(buf, n, "the interpreter has %d device%s (0 to %d; TILE_INTERPRET_DEVICES sets how many)", nd, nd == 1 ? "" : "s", nd - 1);
}
tile_status tile_set_device(int device) {
    char have[128];
    if (device < 0 || device >= tile__ndev()) {
        tile__ndev_text(have, sizeof have);
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_set_device(%d): no such device: %s", device, have);
    }
    if (!tile__gpu_mode()) {
        tile__cu_tls = device;
        return TILE_OK;
    }
    pthread_mutex_lock(&tile__cu_st.lock);
    tile__cu_open_dev(device);
    pthread_mutex_unlock(&tile__cu_st.lock);
    const tile__cu_device *D = &tile__cu_st.devs[device];
    if (D->status != TILE_OK) return tile__error(D->status, NULL, NULL, 0, "tile_set_device(%d): %s", device, D->why);
    tile_status st = tile__cu_enter_dev(device, NULL, 0);
    if (st == TILE_OK) tile__cu_tls = device;
    return st;
}
int tile_get_device(void) {
    if (tile__gpu_mode()) pthread_once(&tile__cu_st.once, tile__cu_open);
    return tile__dev_here();
}
tile_status tile_device_enable_peer(int peer) {
    char have[128];
    int d = tile_get_device();
    if (peer < 0 || peer >= tile__ndev()) {
        tile__ndev_text(have, sizeof have);
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_device_enable_peer(%d): no such device: %s", peer, have);
    }
    if (peer == d) return TILE_OK;
    if (!tile__gpu_mode()) {
        pthread_mutex_lock(&tile__interp_peer_lock);
        tile__interp_peer[d][peer] = 1;
        pthread_mutex_unlock(&tile__interp_peer_lock);
        return TILE_OK;
    }
    tile_status st = tile__cu_enter(NULL, 0);
    if (st != TILE_OK) return st;
    /* decided under the lock, told after it (a log callback may call back in) */
    enum { PEER_OK, PEER_OPEN, PEER_NOCALLS, PEER_ASK, PEER_NOPATH, PEER_ENABLE } how = PEER_OK;
    pthread_mutex_lock(&tile__cu_st.lock);
    tile__cu_open_dev(peer);
    const tile__cu_device *P = &tile__cu_st.devs[peer], *D = &tile__cu_st.devs[d];
    int can = 0;
    CUresult r = CUDA_SUCCESS;
    if (tile__cu_st.peer[d][peer]) how = PEER_OK;
    else if (P->status != TILE_OK) how = PEER_OPEN;
    else if (!tile__cu.cuDeviceCanAccessPeer || !tile__cu.cuCtxEnablePeerAccess) how = PEER_NOCALLS;
    else if ((r = tile__cu.cuDeviceCanAccessPeer(&can, D->dev, P->dev)) != CUDA_SUCCESS) how = PEER_ASK;
    else if (!can) how = PEER_NOPATH;
    else if ((r = tile__cu.cuCtxEnablePeerAccess(P->ctx, 0)) != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) how = PEER_ENABLE;
    else tile__cu_st.peer[d][peer] = 1;
    pthread_mutex_unlock(&tile__cu_st.lock);
    switch (how) {
    case PEER_OK: return TILE_OK;
    case PEER_OPEN: return tile__error(P->status, NULL, NULL, 0, "tile_device_enable_peer(%d): %s", peer, P->why);
    case PEER_NOCALLS: return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_device_enable_peer(%d): this driver has no peer access calls", peer);
    case PEER_ASK: return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuDeviceCanAccessPeer(%d, %d)", d, peer);
    case PEER_NOPATH:
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0,
                           "tile_device_enable_peer(%d): device %d (%s) cannot reach device %d's memory (%s) directly (no NVLink or PCIe peer path); "
                           "copy with tile_memcpy_dtod instead",
                           peer, d, D->props.name, peer, P->props.name);
    default: return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuCtxEnablePeerAccess(device %d -> %d)", d, peer);
    }
}
/* The device a stream belongs to (NULL: this thread's); -1 when the
   driver cannot say. */
static int tile__stream_dev(tile_stream s) {
    if (!s) return tile__dev_here();
    if (!tile__gpu_mode()) return s->dev;
    CUcontext c = NULL;
    if (!tile__cu.cuStreamGetCtx || tile__cu.cuStreamGetCtx((CUstream)(void *)s, &c) != CUDA_SUCCESS) return -1;
    int sd = -1;
    pthread_mutex_lock(&tile__cu_st.lock);
    for (int d = 0; d < tile__cu_st.ndev && sd < 0; d++)
        if (tile__cu_st.devs[d].opened && tile__cu_st.devs[d].status == TILE_OK && tile__cu_st.devs[d].ctx == c) sd = d;
    pthread_mutex_unlock(&tile__cu_st.lock);
    return sd;
}
/* A stream used by a call on this thread's device must be that device's
   (checked once more than one device is in use). */
static tile_status tile__stream_here(tile_stream s, const char *call, const char *kernel, const char *file, int line) {
    if (!s || !tile__multi_dev()) return TILE_OK;
    int sd = tile__stream_dev(s), d = tile__dev_here();
    if (sd < 0 || sd == d) return TILE_OK;
    return tile__error(TILE_ERR_DEVICE, kernel, file, line,
                       "%s: the stream belongs to device %d, but this thread's device is %d (tile_set_device(%d) first, or use a stream made on device %d)",
                       call, sd, d, sd, d);
}

tile_status tile_stream_create(tile_stream *s) {
    if (!s) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_stream_create: the result pointer is NULL");
    *s = NULL;
    if (tile__gpu_mode()) {
        CUstream cs;
        tile_status st = tile__cu_stream_create(&cs, NULL, 0);
        if (st == TILE_OK) *s = (tile_stream)(void *)cs;
        return st;
    }
    if (!(*s = (tile_stream)calloc(1, sizeof **s)))
        return tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_stream_create: out of host memory");
    (*s)->host = 1;
    (*s)->dev = tile__dev_here();
    return TILE_OK;
}
tile_status tile_stream_destroy(tile_stream s) {
    if (!s) return TILE_OK;
    if (tile__gpu_mode()) return tile__cu_stream_destroy((CUstream)(void *)s, NULL, 0);
    free(s);
    return TILE_OK;
}
tile_status tile_stream_synchronize(tile_stream s) {
    if (!tile__gpu_mode()) return TILE_OK;
    tile_status st = tile__cu_stream_sync((CUstream)(void *)s, NULL, 0);
    int old = tile__cu_tls, sd = s && tile__multi_dev() ? tile__stream_dev(s) : -1;
    if (sd >= 0) tile__cu_tls = sd;   /* the records of the stream's device */
    return tile__dev_back(old, st == TILE_OK ? tile__rec_collect(0) : st);
}
tile_status tile_event_create(tile_event *e) {
    if (!e) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_event_create: the result pointer is NULL");
    *e = NULL;
    if (tile__gpu_mode()) {
        CUevent ce;
        tile_status st = tile__cu_event_create(&ce, NULL, 0);
        if (st == TILE_OK) *e = (tile_event)(void *)ce;
        return st;
    }
    if (!(*e = (tile_event)calloc(1, sizeof **e)))
        return tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_event_create: out of host memory");
    (*e)->dev = tile__dev_here();
    return TILE_OK;
}
tile_status tile_event_record(tile_event e, tile_stream s) {
    if (!e) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_event_record: the event is NULL");
    if (tile__gpu_mode()) {
        tile_status st = tile__cu_enter(NULL, 0);
        CUresult r = st == TILE_OK ? tile__cu.cuEventRecord((CUevent)(void *)e, (CUstream)(void *)s) : CUDA_SUCCESS;
        if (st != TILE_OK || r == CUDA_SUCCESS) return st;
        if (r == CUDA_ERROR_INVALID_HANDLE && tile__multi_dev())   /* the driver's word when they are not one context's */
            return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0,
                               "tile_event_record: the driver refused the event on this stream (CUDA_ERROR_INVALID_HANDLE): with several devices, an "
                               "event and its stream must be one device's (the stream's is %d, this thread's %d)",
                               s ? tile__stream_dev(s) : tile__dev_here(), tile__dev_here());
        return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuEventRecord");
    }
    int sd = s ? s->dev : tile__dev_here();
    if (sd != e->dev)
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_event_record: the event belongs to device %d and the stream to device %d%s", e->dev, sd,
                           s ? "" : " (the default stream of this thread's device)");
    e->recorded = 1;
    e->ms = tile__host_ms();
    return TILE_OK;
}
tile_status tile_event_synchronize(tile_event e) {
    if (!e) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_event_synchronize: the event is NULL");
    if (!tile__gpu_mode()) return TILE_OK;
    tile_status st = tile__cu_event_sync((CUevent)(void *)e, NULL, 0);
    return st == TILE_OK ? tile__rec_collect(0) : st;
}
tile_status tile_event_elapsed_ms(tile_event start, tile_event end, float *ms) {
    if (!start || !end || !ms) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_event_elapsed_ms: an argument is NULL");
    *ms = 0;
    if (tile__gpu_mode()) return tile__cu_event_elapsed((CUevent)(void *)start, (CUevent)(void *)end, ms, NULL, 0);
    if (!start->recorded || !end->recorded)
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_event_elapsed_ms: the %s event was never recorded",
                           start->recorded ? "end" : "start");
    if (start->dev != end->dev)
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_event_elapsed_ms: the events belong to devices %d and %d", start->dev, end->dev);
    *ms = (float)(end->ms - start->ms);
    return TILE_OK;
}
tile_status tile_event_destroy(tile_event e) {
    if (!e) return TILE_OK;
    if (tile__gpu_mode()) return tile__cu_event_destroy((CUevent)(void *)e, NULL, 0);
    free(e);
    return TILE_OK;
}
