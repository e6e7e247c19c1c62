/* tile/cache.h — >>cache: the disk cache's file format and directory, the
   compiled-kernel cache, and a compiled variant.

   Why it is shaped this way: everything that outlives the process (a
   tuner's winner, a compiled kernel) goes through one file format
   (tile__disk_*) with its whole key inside, so a wrong file can only be
   ignored, never misread, in one directory this user owns. A compiled
   variant's key is computed once from its configuration and what emit
   built (tile__kdisk_key); the runtime (tile/runtime.h) looks it up before
   assembling and stores what it assembled. */
#include <dirent.h>   /* >>aot: the export's store (tile/aot.h) */
/* A kernel compiled for the device: one per configuration (num_warps,
   num_stages, specialization: tile__config). A variant is in its entry's list from the moment one
   thread starts compiling it; a thread that needs it meanwhile waits for
   that compile instead of starting its own (tile__get_variant). */
enum { TILE__VARIANT_COMPILING, TILE__VARIANT_READY, TILE__VARIANT_FAILED };
typedef struct tile__variant {
    tile__config cfg;              /* what it was compiled for                      */
    tile__kernel_meta meta;        /* what its launch needs: threads, shared memory, checks */
    CUmodule mod;                  /* loaded on device `dev`, where it was compiled or read */
    CUfunction fn;
    int dev;
    CUmodule omod[TILE__MAX_DEVICES];   /* loaded on the other devices that launched it (tile__variant_fn) */
    CUfunction ofn[TILE__MAX_DEVICES];
    char *image;                   /* with several GPUs: what was loaded (cubin or PTX), for the others */
    size_t imagelen;
    char *ptx;                     /* without a GPU the variant is its PTX (tests compile and cache it) */
    int state;                     /* TILE__VARIANT_*, under tile__cache_lock */
    /* >>tma: the last tensor maps encoded, and the values they were encoded
       from (under tile__cache_lock) */
    int tmap_ok[TILE__MAX_TMAPS];
    int64_t tmap_key[TILE__MAX_TMAPS][11];
    _Alignas(64) unsigned char tmap[TILE__MAX_TMAPS][128];
    char *xpay;                    /* >>aot: with TILE_EXPORT, its kernel entry until exported */
    size_t xpaylen;
    struct tile__variant *next;
} tile__variant;
/* >>aot: TILE_EXPORT is set: compiled variants and tuners' winners are
   exported (tile/aot.h) */
static int tile__export_on(void) { return tile__knob_values_get()->export_dir[0] != 0; }
/* ---- knobs and the cache directory, set up once ---------------------------------
   The directory is trusted only when this user owns it and nobody else may
   write in it: then nobody else can plant, replace or link a file there.
   Missing components are created 0700; a directory that fails the checks, or
   a path that does not fit, turns the disk cache off with one notice (kernels
   then compile and tune in every process, with the same results). */
#define TILE__CACHE_DIR_MAX 3072     /* bytes of the directory's path, with its NUL */
#define TILE__PATH_MAX 4096          /* bytes of a cache file's path, with its NUL  */
typedef struct tile__at_knobs {
    int verbose;                     /* TILE_AUTOTUNE_VERBOSE=1                    */
    int disk;                        /* the disk cache is on                       */
    char dir[TILE__CACHE_DIR_MAX];   /* TILE_CACHE_DIR, else the default           */
} tile__at_knobs;
static tile__at_knobs tile__at_kn;
static pthread_once_t tile__at_kn_once = PTHREAD_ONCE_INIT;
/* mkdir -p, each missing component 0700; 0 on failure (errno says why) */
static int tile__disk_mkdirs(const char *dir) {
    char p[TILE__CACHE_DIR_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/' && s[-1] != '/') {
            *s = 0;
            if (mkdir(p, 0700) != 0 && errno != EEXIST) return 0;
            *s = '/';
        }
    return mkdir(p, 0700) == 0 || errno == EEXIST;
}
/* Why `dir` cannot hold the cache (NULL: it can), creating it if missing. */
static const char *tile__disk_dir_check(const char *dir, char *why, size_t n) {
    struct stat sb;
    if (!tile__disk_mkdirs(dir) || stat(dir, &sb) != 0) snprintf(why, n, "cannot be created: %s", strerror(errno));
    else if (!S_ISDIR(sb.st_mode)) snprintf(why, n, "is not a directory");
    else if (sb.st_uid != geteuid()) snprintf(why, n, "is owned by uid %ld, not by this user (uid %ld)", (long)sb.st_uid, (long)geteuid());
    else if (sb.st_mode & (S_IWGRP | S_IWOTH)) snprintf(why, n, "is writable by others (mode %04o)", (unsigned)(sb.st_mode & 07777));
    else return NULL;
    return why;
}
static void tile__at_read_knobs(void) {
    const tile__knob_values *kv = tile__knob_values_get();
    const char *dir = kv->cache_dir, *xdg = kv->xdg_cache_home, *home = kv->home;
    const char *knob = "TILE_CACHE_DIR";
    int k = -1;
    tile__at_kn.verbose = kv->autotune_verbose;
    tile__at_kn.disk = kv->cache;
    if (dir && *dir) k = snprintf(tile__at_kn.dir, sizeof tile__at_kn.dir, "%s", dir);
    else if (xdg && *xdg) k = snprintf(tile__at_kn.dir, sizeof tile__at_kn.dir, "%s/tile", xdg), knob = "XDG_CACHE_HOME";
    else if (home && *home) k = snprintf(tile__at_kn.dir, sizeof tile__at_kn.dir, "%s/.cache/tile", home), knob = "HOME";
    else tile__at_kn.disk = 0;
    if (tile__at_kn.disk && (k < 0 || (size_t)k >= sizeof tile__at_kn.dir)) {
        tile__notice("cache: the directory from %s is %d characters long (at most %d): the disk cache is off", knob, k,
                     (int)sizeof tile__at_kn.dir - 1);
        tile__at_kn.disk = 0;
    }
    char why[160];
    if (tile__at_kn.disk && tile__disk_dir_check(tile__at_kn.dir, why, sizeof why)) {
        tile__notice("cache: %s %s: the disk cache is off", tile__at_kn.dir, why);
        tile__at_kn.disk = 0;
    }
    if (!tile__at_kn.disk) tile__at_kn.dir[0] = 0;
}
static const tile__at_knobs *tile__at_knobs_get(void) {
    pthread_once(&tile__at_kn_once, tile__at_read_knobs);
    return &tile__at_kn;
}
const char *tile_cache_dir(void) { return tile__at_knobs_get()->dir; }

static tile_cache_stats tile__at_stats;
static pthread_mutex_t tile__at_stats_lock = PTHREAD_MUTEX_INITIALIZER;
static void tile__at_count(long *field) {
    pthread_mutex_lock(&tile__at_stats_lock);
    (*field)++;
    pthread_mutex_unlock(&tile__at_stats_lock);
}
/* compiles in flight: from the code's emission to its PTX, the span the
   back end holds its compiler (an LLVM context, an NVRTC program) */
static long tile__at_compiling;
static void tile__at_compiling_add(int d) {
    pthread_mutex_lock(&tile__at_stats_lock);
    tile__at_compiling += d;
    if (tile__at_compiling > tile__at_stats.compile_peak) tile__at_stats.compile_peak = tile__at_compiling;
    pthread_mutex_unlock(&tile__at_stats_lock);
}
void tile_cache_stats_get(tile_cache_stats *out) {
    if (!out) return;
    pthread_mutex_lock(&tile__at_stats_lock);
    *out = tile__at_stats;
    pthread_mutex_unlock(&tile__at_stats_lock);
    out->lowerings = tile__lowered_count();
}

/* ---- hashing: FNV-1a, 64 bits ----------------------------------------------------- */
static uint64_t tile__fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define TILE__FNV0 0xcbf29ce484222325ull

/* A growable text for keys. */
typedef struct tile__sbuf { char *s; size_t n, cap; int oom; } tile__sbuf;
TILE__PRINTF(2, 3) static void tile__sb(tile__sbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0 || b->oom) return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *s = (char *)realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* ---- the file format ------------------------------------------------------------------
   header (48 bytes, host byte order) | key text | payload. The checksum
   covers the key and the payload; the lengths must add up to the file's
   size exactly. Format 2: kernel entries say what they hold (name,
   signature, num_warps, num_stages) and both keys name the signature. */
#define TILE__DISK_FORMAT 4u
enum { TILE__DISK_KERNEL = 1, TILE__DISK_TUNE = 2 };
typedef struct tile__disk_header {
    char magic[8];           /* "TILECACH"                                       */
    uint32_t format;         /* TILE__DISK_FORMAT                                 */
    uint32_t kind;           /* TILE__DISK_KERNEL or TILE__DISK_TUNE              */
    uint64_t keylen, paylen;
    uint64_t keyhash;        /* of the key text: also in the file's name          */
    uint64_t checksum;
} tile__disk_header;

/* 0 (and a notice) when the path does not fit: never a shortened name */
static int tile__disk_path(char *path, size_t n, const char *dir, const char *name, uint64_t h, int kind) {
    int k = snprintf(path, n, "%s/%s-%016llx.%s", dir, name, (unsigned long long)h, kind == TILE__DISK_KERNEL ? "kernel" : "tune");
    if (k > 0 && (size_t)k < n) return 1;
    tile__notice("cache: the file name for %.64s%s in %.200s%s would be %d characters long (at most %d): not cached", name,
                 strlen(name) > 64 ? "..." : "", dir, strlen(dir) > 200 ? "..." : "", k, (int)n - 1);
    return 0;
}
/* A file the disk layer will not use: counted, and one notice. The caller
   goes on as if there were no file, so the normal store replaces it. */
static void tile__disk_reject(const char *path, const char *why) {
    tile__at_count(&tile__at_stats.rejected);
    tile__notice("cache: ignoring %s: %s", path, why);
}
/* A failed store: the first of a process is a notice, the rest only with
   TILE_AUTOTUNE_VERBOSE (a read-only cache would say it at every store). */
static void tile__disk_store_failed(const char *path, const char *what, int err) {
    static int told;
    pthread_mutex_lock(&tile__at_stats_lock);
    int first = !told;
    told = 1;
    pthread_mutex_unlock(&tile__at_stats_lock);
    if (first) tile__notice("cache: cannot %s %s: %s (later failures to store are not reported)", what, path, strerror(err));
    else if (tile__at_knobs_get()->verbose) fprintf(stderr, "tile cache: cannot %s %s: %s\n", what, path, strerror(err));
}
/* Open a cache file to read, or say why it must not be read: no links
   followed, no blocking on a FIFO, regular files of this user that nobody
   else may write. -1 with *why NULL: there is no file. */
static int tile__disk_open(const char *path, size_t *size, const char **why, char *buf, size_t n) {
    struct stat sb;
    *why = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | TILE__O_NOFOLLOW | TILE__O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP || errno == EMLINK) *why = "a symbolic link";
        else if (errno != ENOENT) snprintf(buf, n, "cannot open: %s", strerror(errno)), *why = buf;
        return -1;
    }
    if (!TILE__O_CLOEXEC) fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (fstat(fd, &sb) != 0) snprintf(buf, n, "cannot stat: %s", strerror(errno)), *why = buf;
    else if (S_ISFIFO(sb.st_mode)) *why = "a FIFO, not a regular file";
    else if (S_ISDIR(sb.st_mode)) *why = "a directory, not a regular file";
    else if (!S_ISREG(sb.st_mode)) *why = "a device or socket, not a regular file";
    else if (sb.st_uid != geteuid()) snprintf(buf, n, "owned by uid %ld, not by this user (uid %ld)", (long)sb.st_uid, (long)geteuid()), *why = buf;
    else if (sb.st_mode & (S_IWGRP | S_IWOTH)) snprintf(buf, n, "writable by others (mode %04o)", (unsigned)(sb.st_mode & 07777)), *why = buf;
    else if (sb.st_size < (off_t)sizeof(tile__disk_header) || sb.st_size > ((off_t)1 << 30)) *why = "too short or too long to be a cache file";
    if (*why) {
        close(fd);
        return -1;
    }
    *size = (size_t)sb.st_size;
    return fd;
}
/* Read the entry of `kind` in file `path`: its payload (malloc'd,
   NUL-terminated after its length) when it is whole and stored under `key`
   (NULL: under any key, then given in *keyout, malloc'd); 0 when there is
   no file or it is not a good one (a notice says why). */
static int tile__disk_read_path(const char *path, int kind, const char *key, char **keyout, char **payload, size_t *paylen) {
    char whybuf[160], *buf = NULL;
    const char *why = NULL;
    size_t want = 0;
    *payload = NULL;
    *paylen = 0;
    int fd = tile__disk_open(path, &want, &why, whybuf, sizeof whybuf);
    if (fd < 0) {
        if (why) tile__disk_reject(path, why);
        return 0;
    }
    if (!(buf = (char *)malloc(want + 1))) why = "out of host memory";
    else {
        size_t got = 0;
        while (got < want) {
            ssize_t r = read(fd, buf + got, want - got);
            if (r <= 0) break;
            got += (size_t)r;
        }
        tile__disk_header hd;
        memcpy(&hd, buf, sizeof hd);
        size_t keylen = key ? strlen(key) : (size_t)hd.keylen;
        if (got != want) why = "short read";
        else if (memcmp(hd.magic, "TILECACH", 8) != 0) why = "not a tile cache file (bad magic)";
        else if (hd.format != TILE__DISK_FORMAT || hd.kind != (uint32_t)kind) why = "another format or kind";
        else if (hd.keylen != keylen || keylen > want - sizeof hd || hd.paylen != want - sizeof hd - keylen) why = "truncated (lengths do not add up)";
        else if (hd.keyhash != tile__fnv(TILE__FNV0, buf + sizeof hd, keylen) || (key && memcmp(buf + sizeof hd, key, keylen) != 0))
            why = "written for another key";
        else if (tile__fnv(TILE__FNV0, buf + sizeof hd, keylen + hd.paylen) != hd.checksum) why = "corrupt (bad checksum)";
        else if (keyout && !(*keyout = (char *)malloc(keylen + 1))) why = "out of host memory";
        else {
            size_t n = (size_t)hd.paylen;
            if (keyout) memcpy(*keyout, buf + sizeof hd, keylen), (*keyout)[keylen] = 0;
            memmove(buf, buf + sizeof hd + keylen, n);
            buf[n] = 0;
            *payload = buf;
            *paylen = n;
        }
    }
    close(fd);
    if (why) {
        free(buf);
        tile__disk_reject(path, why);
        return 0;
    }
    return 1;
}
/* Read the payload stored under `key` in directory `dir`; 0 when there is
   none or the file is not a good one. */
static int tile__disk_read_in(const char *dir, int kind, const char *name, const char *key, char **payload, size_t *paylen, char *path,
                              size_t pathn) {
    *payload = NULL;
    *paylen = 0;
    if (!tile__disk_path(path, pathn, dir, name, tile__fnv(TILE__FNV0, key, strlen(key)), kind)) return 0;
    return tile__disk_read_path(path, kind, key, NULL, payload, paylen);
}
/* the same from the disk cache, when it is on */
static int tile__disk_read(int kind, const char *name, const char *key, char **payload, size_t *paylen, char *path, size_t pathn) {
    *payload = NULL;
    *paylen = 0;
    return tile__at_knobs_get()->disk && tile__disk_read_in(tile__at_knobs_get()->dir, kind, name, key, payload, paylen, path, pathn);
}
/* Write atomically: a new file of a unique name (mkstemp, 0600) in the
   cache directory, renamed over the name, which replaces whatever was there
   (a bad file, a FIFO, a link: the link itself, never its target). */
/* The header of an entry holding `payload` under `key`. */
static tile__disk_header tile__disk_header_of(int kind, const char *key, const void *payload, size_t paylen) {
    tile__disk_header hd;
    size_t keylen = strlen(key);
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, "TILECACH", 8);
    hd.format = TILE__DISK_FORMAT;
    hd.kind = (uint32_t)kind;
    hd.keylen = keylen;
    hd.paylen = paylen;
    hd.keyhash = tile__fnv(TILE__FNV0, key, keylen);
    hd.checksum = tile__fnv(tile__fnv(TILE__FNV0, key, keylen), payload, paylen);
    return hd;
}
static int tile__disk_write_in(const char *dir, int kind, const char *name, const char *key, const void *payload, size_t paylen, char *path,
                               size_t pathn) {
    size_t keylen = strlen(key);
    tile__disk_header hd = tile__disk_header_of(kind, key, payload, paylen);
    if (!tile__disk_path(path, pathn, dir, name, hd.keyhash, kind)) return 0;
    char tmp[TILE__PATH_MAX + 16];
    int k = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = k > 0 && (size_t)k < sizeof tmp ? mkstemp(tmp) : -1;
    if (fd < 0) {
        tile__disk_store_failed(path, "create a temporary file for", k > 0 && (size_t)k < sizeof tmp ? errno : ENAMETOOLONG);
        return 0;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    const void *parts[3] = {&hd, key, payload};
    size_t lens[3] = {sizeof hd, keylen, paylen};
    int ok = 1, err = 0;
    for (int i = 0; i < 3 && ok; i++) {
        size_t done = 0;
        while (done < lens[i]) {
            ssize_t w = write(fd, (const char *)parts[i] + done, lens[i] - done);
            if (w <= 0) {
                err = w < 0 ? errno : ENOSPC;
                ok = 0;
                break;
            }
            done += (size_t)w;
        }
    }
    if (close(fd) != 0 && ok) ok = 0, err = errno;
    if (ok && rename(tmp, path) != 0) ok = 0, err = errno;
    if (!ok) {
        tile__disk_store_failed(path, "write", err);
        unlink(tmp);
    }
    return ok;
}
/* into the disk cache, when it is on */
static int tile__disk_write(int kind, const char *name, const char *key, const void *payload, size_t paylen, char *path, size_t pathn) {
    return tile__at_knobs_get()->disk && tile__disk_write_in(tile__at_knobs_get()->dir, kind, name, key, payload, paylen, path, pathn);
}

/* The device results are for: the interpreter, or the GPU's name, target,
   driver and the back end, and how tl_dot may use wgmma (TILE_WGMMA). */
static void tile__device_id(tile__sbuf *b) {
    if (!tile__gpu_mode()) {
        tile__sb(b, "device interp\n");
        return;
    }
    char arch[32] = "";
    tile__cu_arch(arch, sizeof arch);
    tile__sb(b, "device %s %s driver %d backend %s wgmma %d\n", tile__cu_cur()->props.name, arch, tile__cu_cur()->props.driver_version, tile_backend_name(),
             tile__hopper(arch));
}

/* ---- the compiled-kernel cache (called by runtime.h's tile__get_variant) ---------------
   The key is everything the machine code depends on: the printed IR, the
   CUDA C source it lowers to (so a change to the lowering invalidates it
   even when the version number stays), the kernel's signature, num_warps,
   num_stages, the specialization, the target, the compiler, NVRTC's and the
   driver's versions, the GPU, the library version.
   The payload says what it holds (the kernel's name and signature,
   num_warps, num_stages, shared memory) and every field is checked against
   the variant asked for before the code is used: a checksum proves only
   that a file is whole, not that it is the right one. Then come the PTX
   and, where the driver can link, the cubin the driver made from it;
   loading the cubin skips the JIT. Without a GPU a variant is its PTX only
   (what tests compile and cache with no device). */
typedef struct tile__kdisk_payload {   /* its tile__kernel_meta, and what it is for */
    uint64_t smem;               /* dynamic shared memory bytes                   */
    uint32_t has_assert, num_warps, num_stages;
    uint32_t nthreads, cluster[3], maxnreg;
    uint32_t namelen, siglen, ntmaps;   /* >>tma: tensor maps the launch encodes      */
    uint64_t ptxlen, cubinlen;   /* the PTX with its NUL; 0: no cubin             */
    tile__tmap_info tmaps[TILE__MAX_TMAPS];
} tile__kdisk_payload;           /* then the name, the signature, PTX, cubin      */
/* No GPU gives a block more; an entry asking for more is corrupt or forged. */
#define TILE__SMEM_SANE ((uint64_t)1 << 20)

/* "x *f32, y *f32, n i32": the kernel's parameters as the launcher passes them */
static void tile__signature_text(tile__sbuf *b, const tile_kernel *k) {
    tile__sb(b, "%s", "");   /* a text even without parameters */
    for (int p = 0; p < k->nparams; p++) {
        const tile_param *q = &k->params[p];
        if (q->dtype == TL_PTR) tile__sb(b, "%s%s *%s", p ? ", " : "", q->name, tile_dtype_name(q->elem));
        else tile__sb(b, "%s%s %s", p ? ", " : "", q->name, tile_dtype_name(q->dtype));
    }
}
/* The most dynamic shared memory an entry may ask for here. */
static uint64_t tile__kdisk_smem_limit(void) {
    if (tile__gpu_mode() && tile__cu_cur()->props.smem_per_block_optin > 0) return (uint64_t)tile__cu_cur()->props.smem_per_block_optin;
    return TILE__SMEM_SANE;
}
/* The compiler that makes the PTX: the registered back end, else NVRTC. */
static const char *tile__kdisk_compiler(void) { return tile__ext_mode() ? tile__ext->name : "nvrtc"; }

/* The key of one variant, computed once per compile: the library, the
   device and its driver, the kernel's signature, the whole configuration,
   and what emit built: `head` names the back end and its version (kept
   verbatim, its first line at most), `code` is what it built (hashed). */
static char *tile__kdisk_key(const tile_kernel *k, const tile__config *cfg, const char *head_text, const char *code) {
    tile__sbuf b = {0};
    size_t head = strcspn(head_text, "\n"), rest = strlen(code);
    tile__sb(&b, "tile kernel %d\nlib %s\n", (int)TILE__DISK_FORMAT, TILE_VERSION_STRING);
    tile__device_id(&b);
    tile__sb(&b, "compiler %s\nkernel %s\nsignature ", tile__kdisk_compiler(), k->name);
    tile__signature_text(&b, k);
    tile__sb(&b, "\nconfig %s num_warps %d num_stages %d hopper %d spec16 %016llx spec1 %016llx\n", cfg->arch, cfg->num_warps, cfg->num_stages,
             cfg->hopper, (unsigned long long)cfg->spec16, (unsigned long long)cfg->spec1);
    if (cfg->prof) tile__sb(&b, "in-kernel scopes %d\n", cfg->prof);   /* (absent otherwise: the keys of earlier versions hold) */
    if (cfg->ktime) tile__sb(&b, "kernel clock\n");
    tile__sb(&b, "%.*s\ncode %016llx %zu\n", (int)(head < 400 ? head : 400), head_text, (unsigned long long)tile__fnv(TILE__FNV0, code, rest), rest);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* Does the PTX define the entry `name` (".entry name(")? */
static int tile__ptx_has_entry(const char *ptx, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 1, ".entry")) {
        const char *q = p + 6;
        if (*q != ' ' && *q != '\t') continue;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, name, n) == 0 && (q[n] == '(' || q[n] == ' ' || q[n] == '\t' || q[n] == '\n')) return 1;
    }
    return 0;
}
/* >>tma: the payload's tensor maps are ones this kernel's launch can encode */
static int tile__kdisk_tmaps_ok(const tile__kdisk_payload *p, const tile_kernel *k) {
    if (p->ntmaps > TILE__MAX_TMAPS) return 0;
    for (uint32_t t = 0; t < p->ntmaps; t++) {
        const tile__tmap_info *ti = &p->tmaps[t];
        if (ti->rank < 1 || ti->rank > 5 || ti->dtype <= TL_I1 || ti->dtype >= TL_PTR || ti->swizzle < 0 || ti->swizzle > 3) return 0;
        for (int d = 0; d < ti->rank; d++)
            if (ti->box[d] < 1 || ti->box[d] > 256) return 0;
        for (int j = 0; j < 1 + 2 * ti->rank; j++)
            if (ti->src[j] < -1 || ti->src[j] >= k->nparams || (j == 0 && (ti->src[j] < 0 || k->params[ti->src[j]].dtype != TL_PTR))) return 0;
    }
    return 1;
}
/* Check a kernel entry's payload against the variant asked for; 1 and the
   parts when it is one, else 0 and why. */
static int tile__kdisk_check(const char *pay, size_t n, const tile_kernel *k, int nw, int ns, tile__kdisk_payload *p, const char **ptx,
                             const char **cubin, char *why, size_t whyn) {
    tile__sbuf sig = {0};
    int ok = 0;
    if (n < sizeof *p) {
        snprintf(why, whyn, "a kernel entry shorter than its header");
        return 0;
    }
    memcpy(p, pay, sizeof *p);
    size_t rest = n - sizeof *p;
    if (p->namelen > rest || p->siglen > rest - p->namelen || p->ptxlen > rest - p->namelen - p->siglen ||
        p->cubinlen != rest - p->namelen - p->siglen - p->ptxlen) {
        snprintf(why, whyn, "payload lengths do not add up");
        return 0;
    }
    const char *name = pay + sizeof *p, *sg = name + p->namelen;
    tile__signature_text(&sig, k);
    if (p->namelen != strlen(k->name) || memcmp(name, k->name, p->namelen) != 0)
        snprintf(why, whyn, "compiled for kernel \"%.*s\", not %s", p->namelen > 64 ? 64 : (int)p->namelen, name, k->name);
    else if (sig.oom || p->siglen != sig.n || memcmp(sg, sig.s, sig.n) != 0)
        snprintf(why, whyn, "compiled for another signature than (%s)", sig.s ? sig.s : "");
    else if (p->num_warps != (uint32_t)nw || p->num_stages != (uint32_t)ns)
        snprintf(why, whyn, "compiled for num_warps %u, num_stages %u (asked: %d, %d)", p->num_warps, p->num_stages, nw, ns);
    else if (p->nthreads == 0 || p->nthreads > 1024 || p->nthreads % 32 || p->cluster[0] == 0 || p->cluster[1] == 0 || p->cluster[2] == 0 ||
             (uint64_t)p->cluster[0] * p->cluster[1] * p->cluster[2] > 16 || p->maxnreg > 255)
        snprintf(why, whyn, "a bad launch record (%u threads, cluster %u x %u x %u, %u registers)", p->nthreads, p->cluster[0], p->cluster[1],
                 p->cluster[2], p->maxnreg);
    else if (p->smem > tile__kdisk_smem_limit())
        snprintf(why, whyn, "asks for %llu bytes of shared memory (at most %llu here)", (unsigned long long)p->smem,
                 (unsigned long long)tile__kdisk_smem_limit());
    else if (p->has_assert > (TILE__HAS_USER_CHECK | TILE__HAS_LIB_CHECK)) snprintf(why, whyn, "a bad has_assert flag (%u)", p->has_assert);
    else if (!tile__kdisk_tmaps_ok(p, k)) snprintf(why, whyn, "a bad tensor-map record (%u maps)", p->ntmaps);
    else if (p->ptxlen == 0 || sg[p->siglen + p->ptxlen - 1] != 0 || strlen(sg + p->siglen) != p->ptxlen - 1)
        snprintf(why, whyn, "the PTX is not one NUL-terminated text");
    else if (!tile__ptx_has_entry(sg + p->siglen, k->name)) snprintf(why, whyn, "the PTX has no .entry %s", k->name);
    else {
        *ptx = sg + p->siglen;
        *cubin = p->cubinlen ? *ptx + p->ptxlen : NULL;
        ok = 1;
    }
    free(sig.s);
    return ok;
}

/* With several GPUs, v keeps what it was loaded from (cubin or PTX) for
   the other devices that launch it; 0 when out of memory. */
static int tile__variant_keep_image(tile__variant *v, const void *image, size_t len) {
    v->dev = tile__cu_index();
    if (tile__cu_st.ndev < 2) return 1;
    free(v->image);
    v->imagelen = len;
    return (v->image = (char *)malloc(len)) != NULL ? (memcpy(v->image, image, len), 1) : 0;
}
/* A kernel entry's payload (from the disk or a TILE_AOT table, `where`
   names it): checked against the variant asked for, then loaded into v
   (without a GPU its PTX is kept); 1 when v is ready, else 0 and *why. */
static int tile__kdisk_use(const tile_kernel *k, const tile__config *cfg, const char *pay, size_t n, tile__variant *v, const char *where,
                           char *why, size_t whyn) {
    const char *ptx = NULL, *cubin = NULL;
    int nw = cfg->num_warps, ns = cfg->num_stages;
    tile__kdisk_payload p;
    int ok = tile__kdisk_check(pay, n, k, nw, ns, &p, &ptx, &cubin, why, whyn);
    if (ok && tile__gpu_mode()) {
        char log[1024];
        if (tile__cu_load(cubin ? cubin : ptx, &v->mod, &v->fn, k->name, log, sizeof log) != TILE_OK) {
            snprintf(why, whyn, "the driver cannot load it: %.200s", tile_last_error());
            tile_clear_error();
            ok = 0;
        } else if (!tile__variant_keep_image(v, cubin ? cubin : ptx, cubin ? (size_t)p.cubinlen : (size_t)p.ptxlen)) {
            snprintf(why, whyn, "out of host memory");
            tile__cu_unload(v->mod);
            v->mod = NULL, v->fn = NULL;
            ok = 0;
        }
    } else if (ok) {
        if ((v->ptx = (char *)malloc(p.ptxlen))) memcpy(v->ptx, ptx, p.ptxlen);
        if (!(ok = v->ptx != NULL)) snprintf(why, whyn, "out of host memory");
    }
    if (!ok) return 0;
    v->meta.nthreads = (int)p.nthreads;
    v->meta.smem = (size_t)p.smem;
    v->meta.has_assert = (int)p.has_assert;
    v->meta.cluster[0] = (int)p.cluster[0];
    v->meta.cluster[1] = (int)p.cluster[1];
    v->meta.cluster[2] = (int)p.cluster[2];
    v->meta.maxnreg = (int)p.maxnreg;
    v->meta.ntmaps = (int)p.ntmaps;
    memcpy(v->meta.tmaps, p.tmaps, sizeof p.tmaps);
    if (tile__at_knobs_get()->verbose)
        fprintf(stderr, "tile cache: %s (num_warps %d): loaded %s from %s\n", k->name, nw, cubin && tile__gpu_mode() ? "cubin" : "PTX", where);
    return 1;
}
/* Look the variant up on disk; 1 when found and checked, with v's module,
   function, shared memory and assert flag set (without a GPU: v->ptx). */
static int tile__kdisk_load(const tile_kernel *k, const tile__config *cfg, const char *key, tile__variant *v) {
    if (!tile__at_knobs_get()->disk) return 0;
    char *pay = NULL, path[TILE__PATH_MAX], why[256];
    size_t n = 0;
    if (!tile__disk_read(TILE__DISK_KERNEL, k->name, key, &pay, &n, path, sizeof path)) return 0;
    int ok = tile__kdisk_use(k, cfg, pay, n, v, path, why, sizeof why);
    if (ok) tile__at_count(&tile__at_stats.kernel_loads);
    else tile__disk_reject(path, why);
    if (ok && tile__export_on()) v->xpay = pay, v->xpaylen = n, pay = NULL;   /* >>aot: for tile__export_variant */
    free(pay);
    return ok;
}
/* The payload of a kernel entry for variant (cfg, meta): its record, the
   kernel's name and signature, the PTX and the cubin (cubinlen 0: none);
   malloc'd, NULL when out of memory. */
static char *tile__kdisk_payload_make(const tile_kernel *k, const tile__config *cfg, const tile__kernel_meta *meta, const char *ptx,
                                      const void *cubin, size_t cubinlen, size_t *total) {
    tile__sbuf sig = {0};
    tile__signature_text(&sig, k);
    tile__kdisk_payload p;
    memset(&p, 0, sizeof p);
    p.smem = meta->smem;
    p.has_assert = (uint32_t)(meta->has_assert & (TILE__HAS_USER_CHECK | TILE__HAS_LIB_CHECK));   /* which checks: TILE__HAS_*_CHECK */
    p.nthreads = (uint32_t)meta->nthreads;
    p.cluster[0] = (uint32_t)meta->cluster[0];
    p.cluster[1] = (uint32_t)meta->cluster[1];
    p.cluster[2] = (uint32_t)meta->cluster[2];
    p.maxnreg = (uint32_t)meta->maxnreg;
    p.ntmaps = (uint32_t)meta->ntmaps;
    memcpy(p.tmaps, meta->tmaps, sizeof p.tmaps);
    p.num_warps = (uint32_t)cfg->num_warps;
    p.num_stages = (uint32_t)cfg->num_stages;
    p.namelen = (uint32_t)strlen(k->name);
    p.siglen = (uint32_t)sig.n;
    p.ptxlen = strlen(ptx) + 1;
    p.cubinlen = cubinlen;
    *total = sizeof p + p.namelen + p.siglen + p.ptxlen + cubinlen;
    char *pay = !sig.oom ? (char *)malloc(*total) : NULL;
    if (pay) {
        char *at = pay;
        memcpy(at, &p, sizeof p), at += sizeof p;
        memcpy(at, k->name, p.namelen), at += p.namelen;
        memcpy(at, sig.s ? sig.s : "", p.siglen), at += p.siglen;
        memcpy(at, ptx, p.ptxlen), at += p.ptxlen;
        if (cubinlen) memcpy(at, cubin, cubinlen);
    }
    free(sig.s);
    return pay;
}

/* A variant was just compiled to `ptx`: load it (from the driver's cubin
   where possible) and store both on disk; without a GPU keep its PTX and
   store that. Without the disk cache this is tile__cu_load. An entry that
   could never be loaded (shared memory beyond the limit) is not stored. */
static tile_status tile__kdisk_load_store(const tile_kernel *k, const tile__config *cfg, const char *key, const char *ptx, tile__variant *v, char *log,
                                          size_t logn) {
    const char *kname = k->name;
    int nw = cfg->num_warps;
    int gpu = tile__gpu_mode(), keep = tile__export_on(), store = tile__at_knobs_get()->disk && key;
    tile__at_count(&tile__at_stats.compiles);
    if (!gpu) {
        size_t len = strlen(ptx) + 1;
        if (!(v->ptx = (char *)malloc(len))) return tile__error(TILE_ERR_NOMEM, kname, NULL, 0, "out of host memory");
        memcpy(v->ptx, ptx, len);
    }
    size_t cubinlen = 0;
    /* the cubin by nvJitLink in this thread (TILE_JITLINK=1: tuned configs side by side), else, to be
       stored, by the driver's JIT; loaded where there is one, else the PTX */
    void *cubin = gpu ? tile__jl_ptx_to_cubin(ptx, cfg->arch, &cubinlen) : NULL;
    if (gpu && !cubin && (store || keep)) cubin = tile__cu_ptx_to_cubin(ptx, &cubinlen);
    tile_status st = gpu ? TILE_ERR_INTERNAL : TILE_OK;
    if (cubin) {
        st = tile__cu_load((const char *)cubin, &v->mod, &v->fn, kname, log, logn);
        if (st != TILE_OK) tile_clear_error();
    }
    if (st != TILE_OK) {
        free(cubin);
        cubin = NULL;
        cubinlen = 0;
        if ((st = tile__cu_load(ptx, &v->mod, &v->fn, kname, log, logn)) != TILE_OK) return st;
    }
    if (gpu && !tile__variant_keep_image(v, cubin ? (const char *)cubin : ptx, cubin ? cubinlen : strlen(ptx) + 1)) {
        free(cubin);
        tile__cu_unload(v->mod);
        v->mod = NULL, v->fn = NULL;
        return tile__error(TILE_ERR_NOMEM, kname, NULL, 0, "out of host memory");
    }
    if (!store && !keep) {
        free(cubin);
        return TILE_OK;
    }
    if ((uint64_t)v->meta.smem > tile__kdisk_smem_limit()) {
        if (tile__at_knobs_get()->verbose)
            fprintf(stderr, "tile cache: %s (num_warps %d): not stored: %zu bytes of shared memory is more than a block may have\n", kname, nw,
                    v->meta.smem);
        free(cubin);
        return TILE_OK;
    }
    size_t total = 0;
    char *pay = tile__kdisk_payload_make(k, cfg, &v->meta, ptx, cubin, cubinlen, &total);
    if (pay && store) {
        char path[TILE__PATH_MAX];
        if (tile__disk_write(TILE__DISK_KERNEL, kname, key, pay, total, path, sizeof path)) {
            tile__at_count(&tile__at_stats.kernel_stores);
            if (tile__at_knobs_get()->verbose)
                fprintf(stderr, "tile cache: %s (num_warps %d): compiled, stored PTX%s in %s\n", kname, nw, cubinlen ? " and cubin" : "", path);
        }
    }
    if (keep && pay) v->xpay = pay, v->xpaylen = total;   /* >>aot: for tile__export_variant */
    else free(pay);
    free(cubin);
    return TILE_OK;
}

