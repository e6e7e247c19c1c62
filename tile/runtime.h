/* tile/runtime.h — >>runtime: knobs, memory, the per-kernel cache, the pipeline, launch.

   Why it is shaped this way: a launch is "find or build the kernel for this
   configuration, then run it". Building is the pipeline below, one pass per
   line; what it produces is cached on the kernel object, keyed by the
   meta-parameters, so the second launch of a configuration only runs. The
   GPU back ends (later) hang off the same cache entry; today every launch
   runs in the interpreter. Memory from tile_malloc is registered so the
   interpreter can tell a stray lane from a real one. */

/* ---- knobs: every environment variable, read in one place ------------------ */
typedef struct tile__knobs {
    int interpret;            /* TILE_INTERPRET=1                          */
    char backend[16];         /* TILE_BACKEND=interp|nvrtc|llvm            */
    int dump_ir;              /* TILE_DUMP contains "ir"                   */
    char dump_dir[512];       /* TILE_DUMP_DIR                             */
} tile__knobs;
static tile__knobs tile__kn;
static pthread_once_t tile__kn_once = PTHREAD_ONCE_INIT;
static int tile__backend_notice;
static void tile__read_knobs(void) {
    const char *v;
    tile__kn.interpret = tile__env_flag("TILE_INTERPRET");
    v = getenv("TILE_BACKEND");
    snprintf(tile__kn.backend, sizeof tile__kn.backend, "%s", v ? v : "");
    v = getenv("TILE_DUMP");
    if (v) {
        /* a comma-separated list of stage names */
        const char *p = v;
        while (*p) {
            size_t n = strcspn(p, ",");
            if (n == 2 && strncmp(p, "ir", 2) == 0) tile__kn.dump_ir = 1;
            p += n;
            if (*p == ',') p++;
        }
    }
    v = getenv("TILE_DUMP_DIR");
    snprintf(tile__kn.dump_dir, sizeof tile__kn.dump_dir, "%s", v ? v : "");
}
static const tile__knobs *tile__knobs_get(void) {
    pthread_once(&tile__kn_once, tile__read_knobs);
    return &tile__kn;
}
const char *tile_backend_name(void) {
    const tile__knobs *kn = tile__knobs_get();
    if (!tile__backend_notice && kn->backend[0] && strcmp(kn->backend, "interp") != 0 && !kn->interpret) {
        tile__backend_notice = 1;
        fprintf(stderr, "tile: TILE_BACKEND=%s is not available in this build; running kernels in the interpreter\n", kn->backend);
    }
    return "interp";
}

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
static int tile__mem_valid(uint64_t addr, size_t bytes) {
    pthread_mutex_lock(&tile__mem_lock);
    int b = tile__block_find((uintptr_t)addr);
    int ok = b >= 0 && (uintptr_t)addr + bytes <= tile__blocks[b].base + tile__blocks[b].size;
    pthread_mutex_unlock(&tile__mem_lock);
    return ok;
}
void *tile_malloc(size_t bytes) {
    size_t n = bytes ? (bytes + 63) / 64 * 64 : 64;
    void *p = aligned_alloc(64, n);
    if (!p) {
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
    free(p);
    return TILE_OK;
}
static tile_status tile__check_dev(const char *call, const void *p, size_t bytes) {
    if (bytes == 0 || tile__mem_valid((uint64_t)(uintptr_t)p, bytes)) return TILE_OK;
    return tile__error(TILE_ERR_ARG, NULL, NULL, 0, "%s: [%p, +%zu) is not inside one tile_malloc allocation", call, p, bytes);
}
tile_status tile_memcpy_htod(void *dst, const void *src, size_t bytes) {
    tile_status st = tile__check_dev("tile_memcpy_htod", dst, bytes);
    if (st == TILE_OK && bytes) memcpy(dst, src, bytes);
    return st;
}
tile_status tile_memcpy_dtoh(void *dst, const void *src, size_t bytes) {
    tile_status st = tile__check_dev("tile_memcpy_dtoh", src, bytes);
    if (st == TILE_OK && bytes) memcpy(dst, src, bytes);
    return st;
}
tile_status tile_memcpy_dtod(void *dst, const void *src, size_t bytes) {
    tile_status st = tile__check_dev("tile_memcpy_dtod", src, bytes);
    if (st == TILE_OK) st = tile__check_dev("tile_memcpy_dtod", dst, bytes);
    if (st == TILE_OK && bytes) memmove(dst, src, bytes);
    return st;
}
tile_status tile_memset(void *dst, int byte, size_t bytes) {
    tile_status st = tile__check_dev("tile_memset", dst, bytes);
    if (st == TILE_OK && bytes) memset(dst, byte, bytes);
    return st;
}
tile_status tile_synchronize(void) { return TILE_OK; }

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
    tile_status st = tile__trace(k, opts, f);
    if (st != TILE_OK) return st;
    if ((st = tile__verify(f)) != TILE_OK) goto fail;
    tile__fold(f);
    tile__cse(f);
    tile__dce(f);
    if ((st = tile__verify(f)) != TILE_OK) goto fail;
    if (tile__knobs_get()->dump_ir) {
        char *text = tile__print_func(f);
        tile__dump(k->name, "ir", text);
        free(text);
    }
    return TILE_OK;
fail:
    tile__func_free(f);
    return st;
}

/* ---- the per-kernel cache --------------------------------------------------------
   One entry per distinct set of meta-parameters (sorted by name). */
typedef struct tile__entry {
    int nmeta;
    tile_meta meta[TILE_MAX_META];  /* names point into `names`          */
    char names[TILE_MAX_META][32];
    tile__func f;
    struct tile__entry *next;
} tile__entry;
typedef struct tile__kstate { tile__entry *entries; } tile__kstate;
static pthread_mutex_t tile__cache_lock = PTHREAD_MUTEX_INITIALIZER;

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
void tile_kernel_release(tile_kernel *k) {
    if (!k) return;
    pthread_mutex_lock(&tile__cache_lock);
    tile__kstate *ks = (tile__kstate *)k->state;
    for (tile__entry *e = ks ? ks->entries : NULL, *next; e; e = next) {
        next = e->next;
        tile__func_free(&e->f);
        free(e);
    }
    free(ks);
    k->state = NULL;
    pthread_mutex_unlock(&tile__cache_lock);
}

/* ---- launch -------------------------------------------------------------------------- */
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
tile_status tile_launch_kernel(tile_kernel *k, const tile_launch *opts, const tile_arg *args) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    unsigned grid[3];
    if (tile__not_nested(k, o) != TILE_OK) return TILE_ERR_CONTEXT;
    tile_status st = tile__check_launch(k, o, args, grid);
    if (st != TILE_OK) return st;
    (void)tile_backend_name();
    tile__entry *e;
    if ((st = tile__get_entry(k, o, &e)) != TILE_OK) return st;
    return tile__interp_run(&e->f, args, grid);
}
tile_status tile_kernel_ir(tile_kernel *k, const tile_launch *opts, char **text) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    tile_meta key[TILE_MAX_META];
    int nk;
    *text = NULL;
    tile_status st = tile__not_nested(k, o);
    if (st == TILE_OK) st = tile__meta_key(k, o, key, &nk);
    if (st != TILE_OK) return st;
    tile__func f;
    st = tile__build(k, o, &f);
    if (st != TILE_OK) return st;
    *text = tile__print_func(&f);
    tile__func_free(&f);
    return TILE_OK;
}
void tile_free_text(char *text) { free(text); }
