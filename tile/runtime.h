/* tile/runtime.h — >>runtime: knobs, memory, the per-kernel cache, the pipeline, launch.

   Why it is shaped this way: a launch is "find or build the kernel for this
   configuration, then run it". Building is the pipeline below, one pass per
   line; what it produces is cached on the kernel object, keyed by the
   meta-parameters, so the second launch of a configuration only runs. On a
   GPU, each entry also holds its compiled variants, keyed by num_warps and
   the arguments' divisibility by 16 (Triton's specialization), as loaded
   CUDA functions; without one, launches run in the interpreter. Memory from
   tile_malloc is registered so a launch can tell a stray pointer, and the
   interpreter a stray lane, from a real one. */
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

/* ---- knobs: every environment variable, read in one place ------------------
   A bad value is one notice naming the knob (tile__knob_* in cuda.h), and
   the default. TILE_ARCH is checked where it applies, when a kernel is
   compiled without a GPU (tile__target), against the back end in use. */
typedef struct tile__knobs {
    int interpret;            /* TILE_INTERPRET=1                          */
    char backend[16];         /* TILE_BACKEND=interp|nvrtc|llvm            */
    int dump_ir, dump_ttgir, dump_cuda, dump_ptx;   /* TILE_DUMP=ir,ttgir,cuda,ptx */
    char dump_dir[512];       /* TILE_DUMP_DIR                             */
    char arch[32];            /* TILE_ARCH: the target when compiling without a GPU */
    int sync;                 /* TILE_SYNC=1: every launch waits for its kernel and reports its errors */
    int managed;              /* TILE_MANAGED=1: tile_malloc hands out unified memory the host can touch */
    int dump_llir, dump_times; /* >>backends: TILE_DUMP=llir (the LLVM IR), TILE_DUMP=times (compile stages) */
    int dump_knobs;           /* TILE_DUMP=knobs: every knob and its value, once */
    int wgmma;                /* >>wgmma: TILE_WGMMA=0: tl_dot on sm_90a uses mma.sync, as on sm_80;
                                 =wait: wgmma, each tl_dot waiting for its own (TILE__HOPPER_*) */
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
    tile__kn.interpret = kv->interpret;
    memcpy(tile__kn.backend, kv->backend, sizeof tile__kn.backend);
    tile__read_dump_knob();
    memcpy(tile__kn.dump_dir, kv->dump_dir, sizeof tile__kn.dump_dir);
    tile__kn.sync = kv->sync;
    tile__kn.managed = kv->managed;
    memcpy(tile__kn.arch, kv->arch, sizeof tile__kn.arch);
    v = kv->wgmma;
    tile__kn.wgmma = TILE__HOPPER_ASYNC;
    if (strcmp(v, "0") == 0) tile__kn.wgmma = TILE__HOPPER_OFF;
    else if (strcmp(v, "wait") == 0) tile__kn.wgmma = TILE__HOPPER_WAIT;
    else if (*v && strcmp(v, "1") != 0) tile__knob_notice("TILE_WGMMA", v, "not 0, 1 or wait; ignored");
    if (tile__kn.dump_knobs) {   /* as tile__dump prints a stage (which reads these knobs: not from here) */
        char text[8192], path[768];
        FILE *fp = NULL;
        tile__knobs_text(text, sizeof text);
        if (tile__kn.dump_dir[0]) {
            snprintf(path, sizeof path, "%s/tile.knobs", tile__kn.dump_dir);
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
    const tile__knobs *kn = tile__knobs_get();
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
    const tile__knobs *kn = tile__knobs_get();
    if (kn->interpret || strcmp(kn->backend, "interp") == 0) return;
    const char *why = NULL;
    int ext = tile__ext && strcmp(kn->backend, tile__ext->name) == 0;
    if (kn->backend[0] && strcmp(kn->backend, "nvrtc") != 0 && !ext)
        why = tile__ext ? "this build has no such back end (interp, nvrtc, llvm)" : "this build has no such back end (interp, nvrtc; llvm needs tile_backend_llvm.c)";
    else if (!tile__cu_available())   /* the driver's own words where a knob of cuda.h is set: they name it */
        why = tile__cuda_knobs()->cuda[0] || tile__cuda_knobs()->device[0] ? tile__cu_st.why : "no CUDA driver or device";
    else if (!tile__ext_mode() && !tile__nvrtc_available()) why = "NVRTC could not be loaded (set TILE_NVRTC)";
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

/* ---- memory ----------------------------------------------------------------------
   Host memory in interpreter mode, kept in an address-sorted table so a lane's
   address can be checked in O(log n). */
typedef struct tile__block { uintptr_t base; size_t size; } tile__block;
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
/* [addr, addr + bytes) inside one allocation; no sum that could wrap */
static int tile__mem_valid(uint64_t addr, size_t bytes) {
    pthread_mutex_lock(&tile__mem_lock);
    int b = tile__block_find((uintptr_t)addr);
    int ok = b >= 0 && bytes <= tile__blocks[b].base + tile__blocks[b].size - (uintptr_t)addr;
    pthread_mutex_unlock(&tile__mem_lock);
    return ok;
}
/* The bytes of memory this host has (0: unknown). */
static size_t tile__host_bytes(void) {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (unsigned long long)pages <= SIZE_MAX / (unsigned long long)page) return (size_t)pages * (size_t)page;
#endif
    return 0;
}
/* The bytes of memory the device has (0: unknown), asked once. */
static size_t tile__dev_total;
static pthread_once_t tile__dev_total_once = PTHREAD_ONCE_INIT;
static void tile__read_dev_total(void) {
    size_t fr = 0, total = 0;
    tile_error kept = tile__err;   /* a failure here is no one's error */
    tile__err_mute++;
    if (tile__cu_mem_info(&fr, &total) == TILE_OK) tile__dev_total = total;
    tile__err_mute--;
    tile__err = kept;
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
    int gpu = tile__gpu_mode(), managed = gpu && tile__knobs_get()->managed;
    if (gpu) pthread_once(&tile__dev_total_once, tile__read_dev_total);
    if (!gpu || managed) have = tile__host_bytes();
    if (gpu && tile__dev_total) have = managed && have <= SIZE_MAX - tile__dev_total ? have + tile__dev_total : tile__dev_total;
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
    tile__blocks = (tile__block *)tile__grow(tile__blocks, &tile__capblocks, tile__nblocks + 1, sizeof *tile__blocks);
    int at = tile__nblocks;
    while (at > 0 && tile__blocks[at - 1].base > (uintptr_t)p) {
        tile__blocks[at] = tile__blocks[at - 1];
        at--;
    }
    tile__blocks[at].base = (uintptr_t)p;
    tile__blocks[at].size = bytes ? bytes : 1;
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
    memmove(&tile__blocks[b], &tile__blocks[b + 1], sizeof *tile__blocks * (size_t)(tile__nblocks - b - 1));
    tile__nblocks--;
    if (tile__nblocks == 0) {
        free(tile__blocks);
        tile__blocks = NULL;
        tile__capblocks = 0;
    }
    pthread_mutex_unlock(&tile__mem_lock);
    if (tile__gpu_mode()) return tile__cu_free(p, NULL, 0);
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
    if (tile__gpu_mode()) return tile__cu_htod(dst, src, bytes, NULL, 0);
    memcpy(dst, src, bytes);
    return TILE_OK;
}
/* a synchronous copy back: the launches before it have finished, and their device records are read */
tile_status tile_memcpy_dtoh(void *dst, const void *src, size_t bytes) {
    if (bytes && (!dst || !src)) return tile__null_arg("tile_memcpy_dtoh", !dst ? "destination" : "source", bytes);
    tile_status st = tile__check_dev("tile_memcpy_dtoh", "source", src, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) {
        st = tile__cu_dtoh(dst, src, bytes, NULL, 0);
        return st == TILE_OK ? tile__rec_collect(0) : st;
    }
    memcpy(dst, src, bytes);
    return TILE_OK;
}
tile_status tile_memcpy_dtod(void *dst, const void *src, size_t bytes) {
    if (bytes && (!dst || !src)) return tile__null_arg("tile_memcpy_dtod", !dst ? "destination" : "source", bytes);
    tile_status st = tile__check_dev("tile_memcpy_dtod", "source", src, bytes);
    if (st == TILE_OK) st = tile__check_dev("tile_memcpy_dtod", "destination", dst, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) return tile__cu_dtod(dst, src, bytes, NULL, 0);
    memmove(dst, src, bytes);
    return TILE_OK;
}
tile_status tile_memset(void *dst, int byte, size_t bytes) {
    if (bytes && !dst) return tile__null_arg("tile_memset", "destination", bytes);
    tile_status st = tile__check_dev("tile_memset", "destination", dst, bytes);
    if (st != TILE_OK || !bytes) return st;
    if (tile__gpu_mode()) return tile__cu_memset(dst, byte, bytes, NULL, 0);
    memset(dst, byte, bytes);
    return TILE_OK;
}
tile_status tile_synchronize(void) {
    if (!tile__gpu_mode()) return TILE_OK;
    unsigned long long upto = tile__rec_mark();
    tile_status st = tile__cu_sync();
    return st == TILE_OK ? tile__rec_collect(upto) : st;
}

/* ---- the pipeline ---------------------------------------------------------------- */
static void tile__dump(const char *kernel, const char *stage, const char *text) {
    const tile__knobs *kn = tile__knobs_get();
    if (kn->dump_dir[0]) {
        char path[768];
        snprintf(path, sizeof path, "%s/%s.%s", kn->dump_dir, kernel, stage);
        FILE *fp = fopen(path, "w");
        if (fp) {
            fputs(text, fp);
            fclose(fp);
            return;
        }
        fprintf(stderr, "tile: cannot write %s: %s\n", path, strerror(errno));
    }
    fprintf(stderr, "// ---- %s: %s\n%s", kernel, stage, text);
}
/* Trace, check and optimize a kernel for one launch configuration. */
static tile_status tile__build(const tile_kernel *k, const tile_launch *opts, tile__func *f) {
    double t0 = tile__host_ms();   /* >>backends: TILE_DUMP=times */
    tile_status st = tile__trace(k, opts, f);
    if (st != TILE_OK) return st;
    if ((st = tile__verify(f)) != TILE_OK) goto fail;
    if (tile__fold(f) < 0 || tile__cse(f) < 0 || tile__dce(f) < 0) {
        st = tile__error(TILE_ERR_NOMEM, k->name, f->file, f->line, "out of host memory while optimizing the kernel");
        goto fail;
    }
    if ((st = tile__verify(f)) != TILE_OK) goto fail;
    if (tile__knobs_get()->dump_ir) {
        char *text = tile__print_func(f);
        if (text) tile__dump(k->name, "ir", text);
        TILE_FREE(text);
    }
    if (tile__knobs_get()->dump_times) fprintf(stderr, "tile: %s: build IR (trace, verify, fold, CSE, DCE) %.2f ms\n", k->name, tile__host_ms() - t0);
    return TILE_OK;
fail:
    tile__func_free(f);
    return st;
}

/* ---- the per-kernel cache --------------------------------------------------------
   One entry per distinct set of meta-parameters (sorted by name). */
/* A kernel compiled for the device: one per configuration (num_warps,
   num_stages, specialization: tile__config). A variant is in its entry's list from the moment one
   thread starts compiling it; a thread that needs it meanwhile waits for
   that compile instead of starting its own (tile__get_variant). */
enum { TILE__VARIANT_COMPILING, TILE__VARIANT_READY, TILE__VARIANT_FAILED };
typedef struct tile__variant {
    tile__config cfg;              /* what it was compiled for                      */
    tile__kernel_meta meta;        /* what its launch needs: threads, shared memory, checks */
    CUmodule mod;
    CUfunction fn;
    char *ptx;                     /* without a GPU the variant is its PTX (tests compile and cache it) */
    int state;                     /* TILE__VARIANT_*, under tile__cache_lock */
    struct tile__variant *next;
} tile__variant;
typedef struct tile__entry {
    int nmeta;
    tile_meta meta[TILE_MAX_META];  /* names point into `names`          */
    char names[TILE_MAX_META][32];
    tile__func f;
    tile__variant *variants;
    struct tile__entry *next;
} tile__entry;
typedef struct tile__kstate { tile__entry *entries; } tile__kstate;
static pthread_mutex_t tile__cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tile__variant_done = PTHREAD_COND_INITIALIZER;   /* a compile finished */

static int tile__meta_cmp(const void *a, const void *b) {
    return strcmp(((const tile_meta *)a)->name, ((const tile_meta *)b)->name);
}
/* the launch's meta-parameters, sorted; error on duplicates or bad names */
static tile_status tile__meta_key(const tile_kernel *k, const tile_launch *o, tile_meta *out, int *n) {
    *n = 0;
    for (int i = 0; i < TILE_MAX_META && o->meta[i].name; i++) {
        if (strlen(o->meta[i].name) >= 32 || !o->meta[i].name[0])
            return tile__error(TILE_ERR_META, k->name, o->file, o->line, "meta-parameter name \"%s\" must have 1 to 31 characters", o->meta[i].name);
        out[(*n)++] = o->meta[i];
    }
    qsort(out, (size_t)*n, sizeof *out, tile__meta_cmp);
    for (int i = 1; i < *n; i++)
        if (strcmp(out[i - 1].name, out[i].name) == 0)
            return tile__error(TILE_ERR_META, k->name, o->file, o->line, "meta-parameter %s is given twice", out[i].name);
    return TILE_OK;
}
static tile__entry *tile__find_entry(const tile_kernel *k, const tile_meta *key, int nk) {
    const tile__kstate *ks = (const tile__kstate *)k->state;
    for (tile__entry *e = ks ? ks->entries : NULL; e; e = e->next) {
        int same = e->nmeta == nk;
        for (int i = 0; same && i < nk; i++) same = strcmp(e->meta[i].name, key[i].name) == 0 && e->meta[i].value == key[i].value;
        if (same) return e;
    }
    return NULL;
}
/* Find or build the entry for this configuration. The lock is not held
   while building (a build runs user code); when two threads build the same
   entry at once, the first to finish wins and the other's is dropped. */
static tile_status tile__get_entry(tile_kernel *k, const tile_launch *o, tile__entry **out) {
    tile_meta key[TILE_MAX_META];
    int nk;
    tile_status st = tile__meta_key(k, o, key, &nk);
    if (st != TILE_OK) return st;
    pthread_mutex_lock(&tile__cache_lock);
    *out = tile__find_entry(k, key, nk);
    pthread_mutex_unlock(&tile__cache_lock);
    if (*out) return TILE_OK;
    tile__entry *e = (tile__entry *)calloc(1, sizeof *e);
    if (!e) return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
    e->nmeta = nk;
    for (int i = 0; i < nk; i++) {
        snprintf(e->names[i], sizeof e->names[i], "%s", key[i].name);
        e->meta[i].name = e->names[i];
        e->meta[i].value = key[i].value;
    }
    if ((st = tile__build(k, o, &e->f)) != TILE_OK) {
        free(e);
        return st;
    }
    pthread_mutex_lock(&tile__cache_lock);
    tile__kstate *ks = (tile__kstate *)k->state;
    if (!ks && !(ks = (tile__kstate *)calloc(1, sizeof *ks))) {
        pthread_mutex_unlock(&tile__cache_lock);
        tile__func_free(&e->f);
        free(e);
        return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
    }
    k->state = ks;
    tile__entry *won = tile__find_entry(k, key, nk);
    if (won) {
        tile__func_free(&e->f);
        free(e);
        e = won;
    } else {
        e->next = ks->entries;
        ks->entries = e;
    }
    pthread_mutex_unlock(&tile__cache_lock);
    *out = e;
    return TILE_OK;
}
static void tile__rec_forget(const tile_kernel *k);
void tile_kernel_release(tile_kernel *k) {
    if (!k) return;
    tile__rec_forget(k);
    pthread_mutex_lock(&tile__cache_lock);
    tile__kstate *ks = (tile__kstate *)k->state;
    for (tile__entry *e = ks ? ks->entries : NULL, *next; e; e = next) {
        next = e->next;
        for (tile__variant *v = e->variants, *vn; v; v = vn) {
            vn = v->next;
            tile__cu_unload(v->mod);
            free(v->ptx);
            free(v);
        }
        tile__func_free(&e->f);
        free(e);
    }
    free(ks);
    k->state = NULL;
    pthread_mutex_unlock(&tile__cache_lock);
}

/* ---- launch -------------------------------------------------------------------------- */
/* What every entry point taking a kernel checks first: a kernel object as
   TILE_KERNEL makes one, and its arguments (need_args) or an out-pointer
   (out != NULL means one was asked for; *out is cleared). Errors are at the
   launch site. */
static tile_status tile__check_kernel(const char *call, const tile_kernel *k, const tile_launch *o, const tile_arg *args, int need_args, char **out,
                                      int want_out) {
    const char *name = k && k->name ? k->name : NULL;
    if (out) *out = NULL;
    if (!k) return tile__error(TILE_ERR_VALUE, NULL, o->file, o->line, "%s: the kernel is NULL", call);
    int ok = k->name && k->body && k->nparams >= 0 && k->nparams <= 64 && (k->nparams == 0 || k->params);
    for (int p = 0; ok && p < k->nparams; p++) ok = k->params[p].name && k->params[p].dtype > TL_VOID && k->params[p].dtype < TL_DTYPE_COUNT_;
    if (!ok)
        return tile__error(TILE_ERR_VALUE, name, o->file, o->line, "%s: not a kernel as TILE_KERNEL makes one (its name, body or parameters (at most 64) are missing or broken)",
                           call);
    if (need_args && k->nparams > 0 && !args)
        return tile__error(TILE_ERR_VALUE, name, o->file, o->line, "%s: the arguments are NULL (%s takes %d)", call, name, k->nparams);
    if (want_out && !out) return tile__error(TILE_ERR_VALUE, name, o->file, o->line, "%s: the result pointer is NULL", call);
    return TILE_OK;
}
static tile_status tile__check_launch(const tile_kernel *k, const tile_launch *o, const tile_arg *args, unsigned grid[3]) {
    unsigned long long total = 1;
    for (int d = 0; d < 3; d++) {
        grid[d] = o->grid[d] ? o->grid[d] : 1;
        total *= grid[d];
    }
    if (grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535)
        return tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "grid (%u, %u, %u) is too large (at most 2^31-1 x 65535 x 65535)", grid[0], grid[1], grid[2]);
    (void)total;
    if (o->num_warps && (o->num_warps < 1 || o->num_warps > 32 || (o->num_warps & (o->num_warps - 1))))
        return tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "num_warps = %d: must be a power of two from 1 to 32", o->num_warps);
    if (o->num_stages < 0 || o->num_stages > 8)
        return tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "num_stages = %d: must be 0 (default) to 8", o->num_stages);
    for (int p = 0; p < k->nparams; p++)
        if (k->params[p].dtype == TL_PTR && args[p].p && !tile__mem_valid((uint64_t)(uintptr_t)args[p].p, 1))
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s) = %p is not memory from tile_malloc", p + 1,
                               k->params[p].name, args[p].p);
    return TILE_OK;
}
/* A launch from inside a kernel body being built fails that build. */
static tile_status tile__not_nested(const tile_kernel *k, const tile_launch *o) {
    if (!tile__b) return TILE_OK;
    tile__berr(TILE_ERR_CONTEXT, o->file ? o->file : k->file, o->file ? o->line : k->line,
               "kernel %s is launched (or built) from inside another kernel's body (%s)", k->name, tile__b->k->name);
    return TILE_ERR_CONTEXT;
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
static struct {
    pthread_mutex_t lock;
    void *pool;                        /* TILE__NREC records of TILE__REC_INTS ints      */
    CUstream side;                     /* where the pool is read and cleared             */
    tile__rec_slot *slots;
    int nbusy;
    unsigned long long seq;            /* the latest launch's                            */
    int host[TILE__NREC * TILE__REC_INTS];
} tile__recs = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, NULL, 0, 0, {0}};

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
    if (tile__recs.slots) return TILE_OK;
    tile_status st = tile__cu_alloc(sizeof tile__recs.host, &tile__recs.pool, NULL, 0);
    if (st == TILE_OK) st = tile__cu_memset(tile__recs.pool, 0, sizeof tile__recs.host, NULL, 0);
    if (st == TILE_OK) st = tile__cu_stream_create_flags(&tile__recs.side, TILE__CU_STREAM_NON_BLOCKING, NULL, 0);
    if (st == TILE_OK && !(tile__recs.slots = (tile__rec_slot *)calloc(TILE__NREC, sizeof *tile__recs.slots)))
        st = tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "out of host memory for the device error records");
    if (st != TILE_OK) {
        tile__cu_free(tile__recs.pool, NULL, 0);
        tile__cu_stream_destroy(tile__recs.side, NULL, 0);
        tile__recs.pool = NULL;
        tile__recs.side = NULL;
    }
    return st;
}
/* Read the records of the launches known to have finished (launched at or
   before `upto`, or with a completed event), clear the failed ones and free
   their slots. The earliest failure is decoded into *err (*found = 1), the
   later ones counted in it. Lock held. */
static tile_status tile__rec_collect_locked(unsigned long long upto, int *found, tile__rec_error *err) {
    static const int zeros[TILE__REC_INTS];
    int fin[TILE__NREC], nfin = 0, later = 0, cleared = 0, first = -1;
    tile_status st = TILE_OK;
    for (int i = 0; i < TILE__NREC && st == TILE_OK; i++) {
        tile__rec_slot *sl = &tile__recs.slots[i];
        int done = sl->busy && sl->launched && sl->seq <= upto;
        if (sl->busy && sl->launched && !done && sl->has_event) st = tile__cu_event_done(sl->done, &done, NULL, 0);
        if (done) fin[nfin++] = i;
    }
    if (st != TILE_OK || !nfin) return st;
    st = tile__cu_dtoh_async(tile__recs.host, tile__recs.pool, sizeof tile__recs.host, tile__recs.side, NULL, 0);
    if (st == TILE_OK) st = tile__cu_stream_sync(tile__recs.side, NULL, 0);
    for (int j = 0; j < nfin && st == TILE_OK; j++) {
        int i = fin[j];
        tile__rec_slot *sl = &tile__recs.slots[i];
        if (tile__recs.host[i * TILE__REC_INTS]) {
            if (first < 0 || sl->seq < tile__recs.slots[first].seq) first = i;
            later++;
            st = tile__cu_htod_async((char *)tile__recs.pool + (size_t)i * sizeof zeros, zeros, sizeof zeros, tile__recs.side, NULL, 0);
            cleared = 1;
        }
    }
    if (st == TILE_OK && cleared) st = tile__cu_stream_sync(tile__recs.side, NULL, 0);
    if (st == TILE_OK && first >= 0) {
        tile__rec_decode(&tile__recs.host[first * TILE__REC_INTS], &tile__recs.slots[first].site, later - 1, err);
        *found = 1;
    }
    for (int j = 0; j < nfin && st == TILE_OK; j++) {
        tile__recs.slots[fin[j]].busy = 0;
        tile__recs.nbusy--;
    }
    return st;
}
/* The latest launch so far: what a synchronization that starts now finishes. */
static unsigned long long tile__rec_mark(void) {
    pthread_mutex_lock(&tile__recs.lock);
    unsigned long long m = tile__recs.seq;
    pthread_mutex_unlock(&tile__recs.lock);
    return m;
}
/* Read what can be read (see above); the earliest failure is the error. */
static tile_status tile__rec_collect(unsigned long long upto) {
    tile__rec_error err;
    int found = 0;
    if (!tile__gpu_mode()) return TILE_OK;
    pthread_mutex_lock(&tile__recs.lock);
    tile_status st = tile__recs.nbusy ? tile__rec_collect_locked(upto, &found, &err) : TILE_OK;
    pthread_mutex_unlock(&tile__recs.lock);
    return st == TILE_OK && found ? tile__rec_report(&err) : st;
}
/* A slot for a launch of k (IR f) from o: its index and the record's device
   address. With every slot taken, the oldest launch is waited for. */
static tile_status tile__rec_take(const tile__func *f, const tile_kernel *k, const tile_launch *o, int *slot, void **rec) {
    tile__rec_error err;
    int found = 0, i = 0;
    pthread_mutex_lock(&tile__recs.lock);
    tile_status st = tile__rec_init_locked();
    while (st == TILE_OK && !found && tile__recs.nbusy == TILE__NREC) {
        int old = -1;
        for (int j = 0; j < TILE__NREC; j++)
            if (tile__recs.slots[j].launched && tile__recs.slots[j].has_event && (old < 0 || tile__recs.slots[j].seq < tile__recs.slots[old].seq)) old = j;
        if (old < 0) st = tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line, "more than %d launches with device checks at once", TILE__NREC);
        else if ((st = tile__cu_event_sync(tile__recs.slots[old].done, o->file, o->line)) == TILE_OK) st = tile__rec_collect_locked(0, &found, &err);
    }
    while (st == TILE_OK && !found && tile__recs.slots[i].busy) i++;
    tile__rec_slot *sl = st == TILE_OK && !found ? &tile__recs.slots[i] : NULL;
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
        tile__recs.nbusy++;
        *slot = i;
        *rec = (char *)tile__recs.pool + (size_t)i * TILE__REC_INTS * sizeof(int);
    }
    pthread_mutex_unlock(&tile__recs.lock);
    return st == TILE_OK && found ? tile__rec_report(&err) : st;
}
/* The launch of a slot's kernel is on `stream`: number it and mark its end. */
static tile_status tile__rec_launched(int slot, void *stream, const tile_launch *o) {
    pthread_mutex_lock(&tile__recs.lock);
    tile__rec_slot *sl = &tile__recs.slots[slot];
    sl->seq = ++tile__recs.seq;
    sl->launched = 1;
    tile_status st = tile__cu_event_record(sl->done, (CUstream)stream, o->file, o->line);
    sl->has_event = st == TILE_OK;
    pthread_mutex_unlock(&tile__recs.lock);
    return st;
}
/* The launch never happened: its record is still clear. */
static void tile__rec_drop(int slot) {
    pthread_mutex_lock(&tile__recs.lock);
    tile__recs.slots[slot].busy = 0;
    tile__recs.nbusy--;
    pthread_mutex_unlock(&tile__recs.lock);
}
/* k's IR is about to be freed: records still to be read lose their messages. */
static void tile__rec_forget(const tile_kernel *k) {
    pthread_mutex_lock(&tile__recs.lock);
    for (int i = 0; tile__recs.slots && i < TILE__NREC; i++)
        if (tile__recs.slots[i].busy && tile__recs.slots[i].site.k == k) tile__recs.slots[i].site.f = NULL;
    pthread_mutex_unlock(&tile__recs.lock);
}
/* Triton's specialization: pointers and integers divisible by 16. */
/* 1 when the back end in use compiles for `arch`; else 0 and why not. The
   registered back end answers for what it compiles; what it cannot, NVRTC
   compiles unless TILE_BACKEND forces it. */
static int tile__arch_ok(const char *arch, char *why, size_t n) {
    char varch[32];
    if (!arch || strncmp(arch, "sm_", 3) != 0 || !tile__nvrtc_virtual_arch(arch, varch, sizeof varch)) {
        snprintf(why, n, "not an architecture like sm_80 or sm_90a");
        return 0;
    }
    if (tile__ext_mode() && tile__ext->supports) {
        if (tile__ext->supports(arch, why, n)) return 1;
        if (strcmp(tile__knobs_get()->backend, tile__ext->name) == 0) return 0;
    }
    return tile__nvrtc_arch_ok(arch, why, n);
}
/* TILE_ARCH, once checked: "" when unset or when the back end cannot use it */
static char tile__arch_knob[32];
static pthread_once_t tile__arch_once = PTHREAD_ONCE_INIT;
static void tile__check_arch_knob(void) {
    const char *a = tile__knobs_get()->arch;
    char why[400], text[480];
    if (!a[0]) return;
    if (tile__arch_ok(a, why, sizeof why)) {
        memcpy(tile__arch_knob, a, strlen(a) + 1);
        return;
    }
    snprintf(text, sizeof text, "%s; ignored: compiling for sm_90a", why);
    tile__knob_notice("TILE_ARCH", a, text);
}
/* The target to compile for: the device's, else TILE_ARCH, else sm_90a. */
static tile_status tile__target(char *arch, size_t n) {
    if (tile__gpu_mode()) return tile__cu_arch(arch, n);
    pthread_once(&tile__arch_once, tile__check_arch_knob);
    tile__copy_cut(arch, n, tile__arch_knob[0] ? tile__arch_knob : "sm_90a");
    return TILE_OK;
}
/* ---- one configuration: every default, in one place ------------------------------
   num_warps 4 and num_stages 3, as Triton's; the target's wgmma mode (the
   TILE_WGMMA knob, on sm_90a only); the arguments' specialization, as
   Triton's: a pointer or an integer divisible by 16, an integer equal to 1
   (without arguments, as for tile_kernel_ptx: pointers aligned to 16 bytes,
   as tile_malloc's are, and nothing about integers). */
static void tile__launch_defaults(const tile_launch *o, int *num_warps, int *num_stages) {
    *num_warps = o->num_warps > 0 ? o->num_warps : 4;
    *num_stages = o->num_stages > 0 ? o->num_stages : 3;
}
static tile_status tile__config_resolve(const tile_kernel *k, const tile_launch *o, const tile_arg *args, const char *arch, tile__config *c) {
    memset(c, 0, sizeof *c);
    tile__launch_defaults(o, &c->num_warps, &c->num_stages);
    if (arch) tile__copy_cut(c->arch, sizeof c->arch, arch);
    else {
        tile_status st = tile__target(c->arch, sizeof c->arch);
        if (st != TILE_OK) return st;
    }
    c->hopper = tile__hopper(c->arch);
    for (int p = 0; p < k->nparams && p < TILE__MAX_PARAMS; p++) {
        tl_dtype t = k->params[p].dtype;
        uint64_t bit = (uint64_t)1 << p;
        if (!args) {
            if (t == TL_PTR) c->spec16 |= bit;
            continue;
        }
        if ((t == TL_PTR && (uintptr_t)args[p].p % 16 == 0) || (tile__is_int(t) && args[p].i % 16 == 0)) c->spec16 |= bit;
        if (tile__is_int(t) && args[p].i == 1) c->spec1 |= bit;
    }
    return TILE_OK;
}
static int tile__config_eq(const tile__config *a, const tile__config *b) {
    return strcmp(a->arch, b->arch) == 0 && a->num_warps == b->num_warps && a->num_stages == b->num_stages && a->hopper == b->hopper &&
           a->spec16 == b->spec16 && a->spec1 == b->spec1;
}

/* ---- the back half of the pipeline ---------------------------------------------------
   emit (lower the kernel and build its code: CUDA C for NVRTC, a module in
   the registered back end) → the disk cache's key, from the config and what
   emit built → assemble (to PTX) → load → store. tile__compile reads it top
   to bottom. */
typedef struct tile__emitted {
    int ext;                       /* through the registered back end (job), else NVRTC (src) */
    tile_backend_job job;
    char *src;                     /* NVRTC: the CUDA C                              */
    const char *key;               /* what the PTX depends on: job.key, or NVRTC's version and src */
    char *nvrtc_key;
} tile__emitted;
static tile_status tile__ext_lower(tile_backend_job *job, void *em) {
    return tile__lower_func((const tile__func *)job->func, (const tile__config *)job->config, (tile__emitter *)em, (tile__kernel_meta *)job->meta);
}
static tile_status tile__ext_error(tile_status st, const char *kernel, const char *message) {
    return tile__error(st, kernel, NULL, 0, "%s", message);
}
static void tile__emitted_free(tile__emitted *e) {
    if (e->ext) {
        if (e->job.state) tile__ext->release(&e->job);
        free(e->job.key);
        free(e->job.ptx);
    }
    free(e->src);
    free(e->nvrtc_key);
    memset(e, 0, sizeof *e);
}
/* emit: the registered back end when it takes the target, else NVRTC's CUDA C */
static tile_status tile__emit_stage(const tile__func *f, const tile__config *cfg, tile__emitted *e, tile__kernel_meta *meta) {
    const tile__knobs *kn = tile__knobs_get();
    memset(e, 0, sizeof *e);
    memset(meta, 0, sizeof *meta);
    if (tile__ext_mode()) {
        tile_backend_job *job = &e->job;
        e->ext = 1;
        job->func = f;
        job->config = cfg;
        job->meta = meta;
        job->name = f->name;
        job->arch = cfg->arch;
        job->lower = tile__ext_lower;
        job->error = tile__ext_error;
        job->dump = tile__dump;
        job->dump_llir = kn->dump_llir;
        job->times = kn->dump_times;
        job->emitter_size = (int)sizeof(tile__emitter);
        job->forced = strcmp(kn->backend, tile__ext->name) == 0;
        tile_status st = tile__ext->emit(job);
        if (st == TILE_OK) {
            e->key = job->key;
            return TILE_OK;
        }
        int fallback = job->unsupported && !job->forced;   /* a feature it lacks: NVRTC compiles it */
        tile__emitted_free(e);
        memset(meta, 0, sizeof *meta);
        if (!fallback) return st;
    }
    tile_status st = tile__cuda_source(f, cfg, &e->src, meta);
    if (st != TILE_OK) return st;
    if (kn->dump_cuda) tile__dump(f->name, "cuda", e->src);
    /* NVRTC's version is in the key: load it now, so that the key looked up
       and the key stored are the same */
    tile__nvrtc_available();
    size_t n = strlen(e->src);
    if (!(e->nvrtc_key = (char *)malloc(n + 64))) return tile__error(TILE_ERR_NOMEM, f->name, NULL, 0, "out of host memory");
    snprintf(e->nvrtc_key, 64, "nvrtc %d.%d\n", tile__nvrtc_st.major, tile__nvrtc_st.minor);
    memcpy(e->nvrtc_key + strlen(e->nvrtc_key), e->src, n + 1);
    e->key = e->nvrtc_key;
    return TILE_OK;
}
/* After an NVRTC failure: the generated source, in a new file of a unique
   name (mkstemp, 0600) in TILE_DUMP_DIR, else the cache directory, else
   $TMPDIR or /tmp, and the command that reproduces the failure. A fixed name
   in a shared directory could be a link planted by another user. */
static void tile__write_repro(const char *kernel, const char *src, const char *arch) {
    const char *dump = tile__knobs_get()->dump_dir, *cache = tile_cache_dir(), *tmp = tile__knob_values_get()->tmpdir;
    const char *dir = dump[0] ? dump : cache[0] ? cache : tmp && *tmp ? tmp : "/tmp";
    char path[4096];
    if (tile__knob_values_get()->quiet) return;
    int k = snprintf(path, sizeof path, "%s/%s.cu.XXXXXX", dir, kernel);
    int fd = k > 0 && (size_t)k < sizeof path ? mkstemp(path) : -1;
    if (fd < 0) {
        tile__notice("cannot write the generated source of %s to %.300s: %s", kernel, dir,
                     k > 0 && (size_t)k < sizeof path ? strerror(errno) : "the path is too long");
        return;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    size_t n = strlen(src), done = 0;
    while (done < n) {
        ssize_t w = write(fd, src + done, n - done);
        if (w <= 0) break;
        done += (size_t)w;
    }
    close(fd);
    if (done < n) {
        tile__notice("cannot write the generated source of %s to %s", kernel, path);
        unlink(path);
        return;
    }
    tile__notice("the generated source is in %s; reproduce with: nvcc -x cu -ptx -arch=%s %s", path, arch, path);
}
/* assemble: what emit built, to PTX (*ptx is malloc'ed) */
static tile_status tile__assemble_stage(const tile__func *f, const tile__config *cfg, tile__emitted *e, char **ptx) {
    const tile__knobs *kn = tile__knobs_get();
    char *log = NULL;
    tile_status st;
    *ptx = NULL;
    if (e->ext) {
        if ((st = tile__ext->assemble(&e->job)) == TILE_OK) {
            *ptx = e->job.ptx;
            e->job.ptx = NULL;
        }
    } else {
        st = tile__nvrtc_compile(e->src, f->name, cfg->arch, ptx, &log);
        if (st != TILE_OK) tile__write_repro(f->name, e->src, cfg->arch);   /* the log is in the error */
        free(log);
    }
    if (st == TILE_OK && kn->dump_ptx) tile__dump(f->name, "ptx", *ptx);
    return st;
}
/* >>autotune: the disk cache of compiled variants, in tile_autotune.h */
static char *tile__kdisk_key(const tile_kernel *k, const tile__config *cfg, const char *emitted);
static int tile__kdisk_load(const tile_kernel *k, const tile__config *cfg, const char *key, tile__variant *v);
static tile_status tile__kdisk_load_store(const tile_kernel *k, const tile__config *cfg, const char *key, const char *ptx, tile__variant *v, char *log,
                                          size_t logn);
/* The pipeline's back half for one variant of a built kernel f. With v: the
   variant, loaded from the disk cache when an earlier process compiled the
   same code, else assembled, loaded (its cubin from the driver) and stored;
   without a GPU, its PTX. Without v: the PTX into *ptx, nothing cached (the
   dumps and tile_kernel_ptx). On failure v holds nothing. */
static tile_status tile__compile(const tile_kernel *k, const tile__func *f, const tile__config *cfg, tile__variant *v, char **ptx_out) {
    const tile__knobs *kn = tile__knobs_get();
    tile__emitted em;
    tile__kernel_meta meta;
    char *ptx = NULL, *key = NULL, log[2048];
    int from_disk = 0;
    double t0 = tile__host_ms(), t1;                                         /* TILE_DUMP=times */
    if (kn->dump_ttgir) {
        char *lay = tile__layout_dump(f, cfg->num_warps, cfg->hopper);
        tile__dump(f->name, "ttgir", lay);                                   /* ttgir */
        free(lay);
    }
    tile_status st = tile__emit_stage(f, cfg, &em, &meta);                         /* cuda | llir */
    if (st == TILE_OK && v && (key = tile__kdisk_key(k, cfg, em.key)))      /* the disk key */
        from_disk = tile__kdisk_load(k, cfg, key, v);
    if (st == TILE_OK && !from_disk) st = tile__assemble_stage(f, cfg, &em, &ptx);  /* ptx */
    tile__emitted_free(&em);
    t1 = tile__host_ms();
    if (st == TILE_OK && !from_disk && v) {
        v->meta = meta;
        st = tile__kdisk_load_store(k, cfg, key, ptx, v, log, sizeof log);   /* load (cubin), store */
    }
    if (kn->dump_times && v)
        fprintf(stderr, "tile: %s for %s through %s: compile %.2f ms, driver load %.2f ms%s\n", k->name, cfg->arch, tile_backend_name(), t1 - t0,
                tile__host_ms() - t1, from_disk ? " (from the disk cache)" : "");
    free(key);
    if (st == TILE_OK && !v) {
        *ptx_out = ptx;
        return TILE_OK;
    }
    free(ptx);
    if (st != TILE_OK && v) {
        free(v->ptx);
        v->ptx = NULL;
        v->mod = NULL;
        v->fn = NULL;
        memset(&v->meta, 0, sizeof v->meta);
    }
    return st;
}
/* Find, or compile and load, the variant for this launch. A launch of a
   ready variant takes the lock once. The first thread to need a variant
   puts it in the list as compiling and compiles it without the lock; the
   others wait for it. A compile that failed is tried again by the next
   thread that needs the variant, so each reports the error at its own line. */
static tile_status tile__get_variant(tile__entry *e, const tile_kernel *k, const tile_launch *o, const tile__config *cfg, tile__variant **out) {
    tile__variant *v;
    pthread_mutex_lock(&tile__cache_lock);
    for (;;) {
        for (v = e->variants; v; v = v->next)
            if (tile__config_eq(&v->cfg, cfg)) break;
        if (v && v->state == TILE__VARIANT_READY) {
            pthread_mutex_unlock(&tile__cache_lock);
            *out = v;
            return TILE_OK;
        }
        if (!v || v->state == TILE__VARIANT_FAILED) break;
        pthread_cond_wait(&tile__variant_done, &tile__cache_lock);
    }
    if (!v) {
        if (!(v = (tile__variant *)calloc(1, sizeof *v))) {
            pthread_mutex_unlock(&tile__cache_lock);
            return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
        }
        v->cfg = *cfg;
        v->next = e->variants;
        e->variants = v;
    }
    v->state = TILE__VARIANT_COMPILING;
    pthread_mutex_unlock(&tile__cache_lock);
    tile_status st = tile__compile(k, &e->f, &v->cfg, v, NULL);
    pthread_mutex_lock(&tile__cache_lock);
    v->state = st == TILE_OK ? TILE__VARIANT_READY : TILE__VARIANT_FAILED;
    pthread_cond_broadcast(&tile__variant_done);
    pthread_mutex_unlock(&tile__cache_lock);
    *out = st == TILE_OK ? v : NULL;
    return st;
}
static tile_status tile__launch_gpu(tile__entry *e, const tile_kernel *k, const tile_launch *o, const tile_arg *args, const unsigned grid[3]) {
    /* an earlier launch's failure that is known by now is this call's error */
    tile_status st = tile__rec_collect(0);
    if (st != TILE_OK) return st;
    tile__variant *v = NULL;
    tile__config cfg;
    if ((st = tile__config_resolve(k, o, args, NULL, &cfg)) != TILE_OK || (st = tile__get_variant(e, k, o, &cfg, &v)) != TILE_OK) return st;
    /* each parameter as the kernel's C type expects it */
    union { uint64_t u; int32_t i32; int64_t i64; uint32_t u32; float f; double d; } vals[TILE__MAX_PARAMS + 1];
    void *ptrs[TILE__MAX_PARAMS + 1];
    void *rec = NULL;                 /* a kernel without checks never touches it */
    int slot = -1;
    if (v->meta.has_assert && (st = tile__rec_take(&e->f, k, o, &slot, &rec)) != TILE_OK) return st;
    for (int p = 0; p < k->nparams && p < TILE__MAX_PARAMS; p++) {
        switch (k->params[p].dtype) {
        case TL_PTR: vals[p].u = (uint64_t)(uintptr_t)args[p].p; break;
        case TL_I32: vals[p].i32 = (int32_t)args[p].i; break;
        case TL_U32: vals[p].u32 = (uint32_t)args[p].i; break;
        case TL_F32: vals[p].f = (float)args[p].f; break;
        case TL_F64: vals[p].d = args[p].f; break;
        default: vals[p].i64 = args[p].i; break;
        }
        ptrs[p] = &vals[p];
    }
    int np = k->nparams < TILE__MAX_PARAMS ? k->nparams : TILE__MAX_PARAMS;
    vals[np].u = (uint64_t)(uintptr_t)rec;     /* the hidden record */
    ptrs[np] = &vals[np];
    st = tile__cu_launch(v->fn, grid, (unsigned)v->meta.nthreads, (unsigned)v->meta.smem, o->stream, ptrs, o->file, o->line, k->name);
    if (slot >= 0) {
        if (st != TILE_OK) tile__rec_drop(slot);
        else st = tile__rec_launched(slot, o->stream, o);
    }
    /* TILE_SYNC, or a user's assert: wait, and report what the launch found */
    if (st == TILE_OK && (tile__knobs_get()->sync || (v->meta.has_assert & TILE__HAS_USER_CHECK))) {
        unsigned long long upto = tile__rec_mark();
        st = tile__cu_sync_at(o->file, o->line, k->name);
        if (st == TILE_OK) st = tile__rec_collect(upto);
    }
    return st;
}
tile_status tile_launch_kernel(tile_kernel *k, const tile_launch *opts, const tile_arg *args) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    unsigned grid[3];
    tile_status st = tile__check_kernel("tile_launch_kernel", k, o, args, 1, NULL, 0);
    if (st != TILE_OK) return st;
    if (tile__not_nested(k, o) != TILE_OK) return TILE_ERR_CONTEXT;
    if (o->tune) return tile_autotune_launch(o->tune, k, o, args);   /* >>autotune: picks meta, then comes back here */
    if ((st = tile__check_launch(k, o, args, grid)) != TILE_OK) return st;
    tile__entry *e;
    if ((st = tile__get_entry(k, o, &e)) != TILE_OK) return st;
    if (tile__gpu_mode()) return tile__launch_gpu(e, k, o, args, grid);
    const tile__knobs *kn = tile__knobs_get();
    if (kn->dump_cuda || kn->dump_ptx || kn->dump_ttgir || kn->dump_llir) {
        /* TILE_DUMP=ttgir,cuda,llir,ptx without a GPU: compile for TILE_ARCH, then interpret */
        tile__config cfg;
        char *ptx = NULL;
        if ((st = tile__config_resolve(k, o, args, NULL, &cfg)) == TILE_OK) {
            if (kn->dump_ptx || kn->dump_ttgir || kn->dump_llir) st = tile__compile(k, &e->f, &cfg, NULL, &ptx);
            else {
                /* TILE_DUMP=cuda alone: the CUDA C, whichever back end is in use */
                char *src = NULL;
                tile__kernel_meta meta;
                if ((st = tile__cuda_source(&e->f, &cfg, &src, &meta)) == TILE_OK) tile__dump(e->f.name, "cuda", src);
                free(src);
            }
        }
        free(ptx);
        if (st != TILE_OK) return st;
    }
    return tile__interp_run(&e->f, args, grid);
}
/* Compile a kernel to PTX without a GPU: for `arch` (NULL: the device's, or
   TILE_ARCH, or sm_90a), assuming pointer arguments aligned to 16 bytes (as
   tile_malloc's are) and nothing about integers. */
tile_status tile_kernel_ptx(tile_kernel *k, const tile_launch *opts, const char *arch, char **ptx) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    char target[32], why[400];
    tile_status st = tile__check_kernel("tile_kernel_ptx", k, o, NULL, 0, ptx, 1);
    if (st == TILE_OK) st = tile__not_nested(k, o);
    if (st != TILE_OK) return st;
    if (arch && !tile__arch_ok(arch, why, sizeof why))
        return tile__error(TILE_ERR_VALUE, k->name, o->file, o->line, "tile_kernel_ptx: target \"%.40s\": %s", arch, why);
    if (arch) tile__copy_cut(target, sizeof target, arch);
    else if ((st = tile__target(target, sizeof target)) != TILE_OK) return st;
    tile__config cfg;
    if ((st = tile__config_resolve(k, o, NULL, target, &cfg)) != TILE_OK) return st;
    tile__func f;
    if ((st = tile__build(k, o, &f)) != TILE_OK) return st;
    char *text = NULL;
    st = tile__compile(k, &f, &cfg, NULL, &text);
    tile__func_free(&f);
    if (st != TILE_OK) return st;
    /* the caller frees it with tile_free_text, which is TILE_FREE */
    size_t n = strlen(text) + 1;
    if ((*ptx = (char *)TILE_MALLOC(n)) != NULL) memcpy(*ptx, text, n);
    free(text);
    return *ptx ? TILE_OK : tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
}
tile_status tile_kernel_ir(tile_kernel *k, const tile_launch *opts, char **text) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    tile_meta key[TILE_MAX_META];
    int nk;
    tile_status st = tile__check_kernel("tile_kernel_ir", k, o, NULL, 0, text, 1);
    if (st == TILE_OK) st = tile__not_nested(k, o);
    if (st == TILE_OK) st = tile__meta_key(k, o, key, &nk);
    if (st != TILE_OK) return st;
    tile__func f;
    st = tile__build(k, o, &f);
    if (st != TILE_OK) return st;
    *text = tile__print_func(&f);
    tile__func_free(&f);
    if (!*text) return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory while printing the IR");
    return TILE_OK;
}
void tile_free_text(char *text) { TILE_FREE(text); }   /* tile__print_func's buffer */
