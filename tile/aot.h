/* tile/aot.h — >>aot: kernels shipped ahead of time, from the same source.

   Why it is shaped this way: a program run once with TILE_EXPORT=<dir>
   keeps, for every variant it compiles (or loads from the disk cache) and
   every tuner winner it picks, an entry in <dir>/store, in the disk cache's
   own file format (tile__disk_*: the whole key inside, a checksum); entries
   of several runs and several programs add up there. At the process's end
   (or at tile_export_write) the store becomes C: one file per kernel,
   tile_aot_<kernel>.c, holding its entries as byte arrays, and an index,
   tile_aot.c, naming every kernel's table. A release build compiles those
   files in and defines TILE_AOT where it defines TILE_IMPLEMENTATION; its
   launches then look a variant up in the tables before anything compiles,
   and its tuners look up their winners, so it starts with no LLVM, no
   NVRTC and no compile. A variant the tables lack is compiled as usual (the
   JIT; without a GPU the interpreter runs it, compiling nothing), or is an
   error with TILE_AOT_ONLY=1.

   What a key holds, and what it leaves out: an entry is found by the
   kernel's name and signature, a hash of its IR after the front half (so
   a changed kernel body, a meta-parameter or a dtype gives another key: a
   stale entry is never used for a kernel it was not made from), the whole
   configuration (target, num_warps, num_stages, wgmma, the arguments'
   specialization), and the library's version. It does not hold the driver,
   the back end or the GPU's name: a release runs on any GPU of the target
   it was exported for (the cubin where the driver takes it, else the PTX).
   A tuner's winner is keyed by its target and every candidate's IR. */

/* the TILE_AOT tables the generated index (tile_aot.c) defines */
#ifdef TILE_AOT
extern const tile_aot_entry *const tile_aot_tables[];
#define TILE__AOT_TABLES tile_aot_tables
#else
static const tile_aot_entry *const tile__aot_none[] = {NULL};
#define TILE__AOT_TABLES tile__aot_none
#endif
/* a TILE_AOT build: launches look in the tables first */
#ifdef TILE_AOT
static int tile__aot_linked(void) { return 1; }
#else
static int tile__aot_linked(void) { return 0; }
#endif
/* the entry of `kind` for `name` under `key` in the tables, or NULL */
static const tile_aot_entry *tile__aot_find(int kind, const char *name, const char *key) {
    for (int t = 0; TILE__AOT_TABLES[t]; t++)
        for (const tile_aot_entry *a = TILE__AOT_TABLES[t]; a->name; a++)
            if (a->kind == kind && strcmp(a->name, name) == 0 && strcmp(a->key, key) == 0) return a;
    return NULL;
}
static void tile__aot_count(int hit) {
    pthread_mutex_lock(&tile__at_stats_lock);
    if (hit) tile__at_stats.aot_loads++;
    else tile__at_stats.aot_misses++;
    pthread_mutex_unlock(&tile__at_stats_lock);
}

/* The key of a variant in the tables (malloc'd; NULL when out of memory):
   irh and irn are the hash and length of the kernel's printed IR. */
static char *tile__aot_kernel_key(const tile_kernel *k, uint64_t irh, size_t irn, const tile__config *cfg) {
    tile__sbuf b = {0};
    tile__sb(&b, "tile aot kernel %d\nlib %s\nkernel %s\nsignature ", (int)TILE__DISK_FORMAT, TILE_VERSION_STRING, k->name);
    tile__signature_text(&b, k);
    tile__sb(&b, "\nir %016llx %zu\nconfig %s num_warps %d num_stages %d hopper %d spec16 %016llx spec1 %016llx\n", (unsigned long long)irh, irn,
             cfg->arch, cfg->num_warps, cfg->num_stages, cfg->hopper, (unsigned long long)cfg->spec16, (unsigned long long)cfg->spec1);
    if (cfg->prof) tile__sb(&b, "in-kernel scopes %d\n", cfg->prof);
    if (cfg->ktime) tile__sb(&b, "kernel clock\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
/* The start of a tuner's key in the tables: what the winner is for (then
   the tuner adds its key values and each candidate with its IR's hash). */
static void tile__aot_tune_head(tile__sbuf *b, const tile_kernel *k) {
    char arch[32] = "interpreter";
    if (tile__gpu_mode()) tile__cu_arch(arch, sizeof arch);
    tile__sb(b, "tile aot tune %d\nlib %s\ntarget %s\nkernel %s\nsignature ", (int)TILE__DISK_FORMAT, TILE_VERSION_STRING, arch, k->name);
    tile__signature_text(b, k);
    tile__sb(b, "\n");
}

/* Variant v (its configuration set) of kernel k, whose IR hashes to
   (irh, irn), from the tables: TILE_OK when loaded; TILE_ERR_COUNT_ when
   the tables lack it and it is to be compiled; an error (at the launch's
   line) when they lack it under TILE_AOT_ONLY, or hold a bad entry. */
static tile_status tile__aot_variant(const tile_kernel *k, const tile_launch *o, uint64_t irh, size_t irn, tile__variant *v) {
    char *key = tile__aot_kernel_key(k, irh, irn, &v->cfg), why[256];
    if (!key) return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
    const tile_aot_entry *a = tile__aot_find(TILE__DISK_KERNEL, k->name, key);
    free(key);
    tile__aot_count(a != NULL);
    if (a && tile__kdisk_use(k, &v->cfg, (const char *)a->payload, (size_t)a->paylen, v, "the TILE_AOT tables", why, sizeof why)) return TILE_OK;
    if (a) {
        free(v->ptx);
        v->ptx = NULL;
        return tile__error(TILE_ERR_COMPILE, k->name, o->file, o->line, "%s (%s, num_warps %d, num_stages %d): its entry in the TILE_AOT tables is not usable: %s",
                           k->name, v->cfg.arch, v->cfg.num_warps, v->cfg.num_stages, why);
    }
    if (tile__knob_values_get()->aot_only)
        return tile__error(TILE_ERR_COMPILE, k->name, o->file, o->line,
                           "%s (%s, num_warps %d, num_stages %d) is not in the TILE_AOT tables, and TILE_AOT_ONLY=1 forbids compiling it: run the "
                           "program with TILE_EXPORT=<dir> on the launches that need it, and build with the C files it writes",
                           k->name, v->cfg.arch, v->cfg.num_warps, v->cfg.num_stages);
    if (tile__at_knobs_get()->verbose)
        fprintf(stderr, "tile aot: %s (%s, num_warps %d, num_stages %d) is not in the TILE_AOT tables: %s\n", k->name, v->cfg.arch, v->cfg.num_warps,
                v->cfg.num_stages, tile__gpu_mode() || tile__export_on() ? "compiling it" : "the interpreter runs it");
    return TILE_ERR_COUNT_;
}
/* A tuner's winner from the tables (the index of the config), else -1;
   under TILE_AOT_ONLY a key they lack is an error (*st). */
static int tile__aot_winner(const tile_kernel *k, const tile_launch *o, const char *key, int n, tile_status *st) {
    const tile_aot_entry *a = tile__aot_find(TILE__DISK_TUNE, k->name, key);
    int w = -1;
    *st = TILE_OK;
    tile__aot_count(a != NULL);
    if (a && (sscanf((const char *)a->payload, "winner %d", &w) != 1 || w < 0 || w >= n)) w = -1;
    if (w < 0 && tile__knob_values_get()->aot_only)
        *st = tile__error(TILE_ERR_COMPILE, k->name, o->file, o->line,
                          "the tuner of %s has no winner in the TILE_AOT tables for these arguments, and TILE_AOT_ONLY=1 forbids tuning (which "
                          "compiles every config): run the program with TILE_EXPORT=<dir> on the sizes it tunes",
                          k->name);
    return w;
}

/* ---- the export -------------------------------------------------------------------
   Entries go to <dir>/store as they come (a later run adds to them); the C
   files are written from the whole store at the process's end and at
   tile_export_write. The first failure to export is one notice. */
static pthread_mutex_t tile__export_lock = PTHREAD_MUTEX_INITIALIZER;
static int tile__export_dir_state;   /* 0 not yet checked, 1 usable, -1 refused (told once) */
static int tile__export_dirty;       /* entries stored since the C files were last written */
static void tile__export_atexit(void);
/* <dir>/store, made and checked on first use (under tile__export_lock); 0 if refused */
static int tile__export_store(char *store, size_t n) {
    const char *dir = tile__knob_values_get()->export_dir;
    char why[256];
    int k = snprintf(store, n, "%.3071s/store", dir);
    if (tile__export_dir_state == 0) {
        const char *bad = k < 0 || (size_t)k >= n ? "the path is too long" : tile__disk_dir_check(store, why, sizeof why);
        tile__export_dir_state = bad ? -1 : 1;
        if (bad) tile__notice("TILE_EXPORT=%.200s: %s/store %s: nothing is exported", dir, dir, bad);
        else atexit(tile__export_atexit);
    }
    return tile__export_dir_state > 0;
}
static void tile__export_put(int kind, const char *name, const char *key, const void *pay, size_t n) {
    char store[TILE__CACHE_DIR_MAX + 8], path[TILE__PATH_MAX];
    pthread_mutex_lock(&tile__export_lock);
    if (tile__export_store(store, sizeof store) && tile__disk_write_in(store, kind, name, key, pay, n, path, sizeof path)) {
        tile__export_dirty = 1;
        if (tile__at_knobs_get()->verbose)
            fprintf(stderr, "tile export: %s: %s in %s\n", name, kind == TILE__DISK_KERNEL ? "a variant" : "a tuner's winner", path);
    }
    pthread_mutex_unlock(&tile__export_lock);
}
/* Variant v of kernel k (IR hash irh, irn) was loaded or compiled with
   TILE_EXPORT set: its entry (v->xpay, then freed), and PTX for each other
   target TILE_EXPORT_ARCH names. Failures only lose the export. */
static void tile__export_variant(const tile_kernel *k, const tile__func *f, uint64_t irh, size_t irn, tile__variant *v) {
    char *key = v->xpay ? tile__aot_kernel_key(k, irh, irn, &v->cfg) : NULL;
    if (key) tile__export_put(TILE__DISK_KERNEL, k->name, key, v->xpay, v->xpaylen);
    free(key);
    free(v->xpay);
    v->xpay = NULL;
    v->xpaylen = 0;
    const char *list = tile__knob_values_get()->export_arch;
    while (*list) {
        size_t len = strcspn(list, ", ");
        char arch[32], why[400];
        if (len && len < sizeof arch) {
            memcpy(arch, list, len);
            arch[len] = 0;
            if (strcmp(arch, v->cfg.arch) != 0 && tile__arch_ok(arch, why, sizeof why)) {
                tile__config c = v->cfg;
                char *ptx = NULL, *pay = NULL;
                tile__kernel_meta meta;
                size_t n = 0;
                tile__copy_cut(c.arch, sizeof c.arch, arch);
                c.hopper = tile__hopper(arch);
                if (tile__compile_to(k, f, &c, NULL, &ptx, &meta) == TILE_OK && (pay = tile__kdisk_payload_make(k, &c, &meta, ptx, NULL, 0, &n)) &&
                    (key = tile__aot_kernel_key(k, irh, irn, &c)))
                    tile__export_put(TILE__DISK_KERNEL, k->name, key, pay, n);
                else tile_clear_error();
                free(key);
                key = NULL;
                free(pay);
                free(ptx);
            } else if (strcmp(arch, v->cfg.arch) != 0) {
                tile__notice("TILE_EXPORT_ARCH: %s: %s; not exported for it", arch, why);
            }
        }
        list += len;
        list += strspn(list, ", ");
    }
}
static void tile__export_winner(const tile_kernel *k, const char *key, int w) {
    char pay[32];
    int n = snprintf(pay, sizeof pay, "winner %d\n", w);
    tile__export_put(TILE__DISK_TUNE, k->name, key, pay, (size_t)n);
}

/* ---- the C files ------------------------------------------------------------------- */
typedef struct tile__export_item {
    int kind;
    char name[256], *key, *pay;
    size_t paylen;
} tile__export_item;
static int tile__export_item_cmp(const void *a, const void *b) {
    const tile__export_item *x = (const tile__export_item *)a, *y = (const tile__export_item *)b;
    int c = strcmp(x->name, y->name);
    if (!c) c = x->kind - y->kind;
    return c ? c : strcmp(x->key, y->key);
}
/* the C name of a kernel's table: its name's letters, digits and '_', and a
   hash of the whole name (two names that differ elsewhere stay apart) */
static void tile__export_cname(char *out, size_t n, const char *name) {
    size_t at = (size_t)snprintf(out, n, "tile_aot_");
    for (const char *c = name; *c && at + 1 < n - 10; c++)
        out[at++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ? *c : '_';
    snprintf(out + at, n - at, "_%08x", (unsigned)(tile__fnv(TILE__FNV0, name, strlen(name)) & 0xffffffffu));
}
/* A file written through a buffer, whole or not at all: a new file of a
   unique name, renamed over `path` when every write went well. */
typedef struct tile__xfile {
    int fd, ok;
    size_t n;
    char buf[1 << 16], tmp[TILE__PATH_MAX + 16];
} tile__xfile;
static void tile__xflush(tile__xfile *w) {
    size_t done = 0;
    while (w->ok && done < w->n) {
        ssize_t r = write(w->fd, w->buf + done, w->n - done);
        if (r <= 0) w->ok = 0;
        else done += (size_t)r;
    }
    w->n = 0;
}
TILE__PRINTF(2, 3) static void tile__xf(tile__xfile *w, const char *fmt, ...) {
    va_list ap;
    if (w->n + 4096 > sizeof w->buf) tile__xflush(w);
    va_start(ap, fmt);
    int k = vsnprintf(w->buf + w->n, sizeof w->buf - w->n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof w->buf - w->n) w->ok = 0;   /* (no caller writes 4 KB at once) */
    else w->n += (size_t)k;
}
static int tile__xopen(tile__xfile *w, const char *path) {
    int k = snprintf(w->tmp, sizeof w->tmp, "%s.tmp.XXXXXX", path);
    w->n = 0;
    w->fd = k > 0 && (size_t)k < sizeof w->tmp ? mkstemp(w->tmp) : -1;
    w->ok = w->fd >= 0;
    return w->ok;
}
static int tile__xclose(tile__xfile *w, const char *path) {
    tile__xflush(w);
    if (close(w->fd) != 0) w->ok = 0;
    if (w->ok) {
        chmod(w->tmp, 0644);   /* sources to build from, like any other */
        w->ok = rename(w->tmp, path) == 0;
    }
    if (!w->ok) unlink(w->tmp);
    return w->ok;
}
/* an array of n bytes (and a NUL after them when nul) */
static void tile__export_bytes(tile__xfile *w, const char *what, int i, const unsigned char *p, size_t n, int nul) {
    static const char digits[] = "0123456789";
    tile__xf(w, "static const unsigned char %s%d[%zu] = {", what, i, n + (nul ? 1 : 0));
    for (size_t j = 0; j < n + (nul ? 1 : 0); j++) {
        unsigned v = j < n ? p[j] : 0u;
        if (w->n + 16 > sizeof w->buf) tile__xflush(w);
        if (j % 24 == 0) memcpy(w->buf + w->n, "\n    ", 5), w->n += 5;
        if (v >= 100) w->buf[w->n++] = digits[v / 100];
        if (v >= 10) w->buf[w->n++] = digits[v / 10 % 10];
        w->buf[w->n++] = digits[v % 10];
        w->buf[w->n++] = ',';
    }
    tile__xf(w, "\n};\n");
}
static const char tile__export_type[] =
    "typedef struct tile_aot_entry {\n    int kind;\n    const char *name;\n    const char *key;\n    const unsigned char *payload;\n"
    "    unsigned long long paylen;\n} tile_aot_entry;   /* as tile.h declares it */\n";
/* the C file of items[0..n) (one kernel) */
static int tile__export_kernel_c(const char *dir, const tile__export_item *it, int n, const char *cname, tile__xfile *w) {
    char path[TILE__PATH_MAX];
    int k = snprintf(path, sizeof path, "%.3071s/%.95s.c", dir, cname), nk = 0;
    if (k <= 0 || (size_t)k >= sizeof path || !tile__xopen(w, path)) return 0;
    for (int i = 0; i < n; i++) nk += it[i].kind == TILE__DISK_KERNEL;
    tile__xf(w, "/* Written by tile %s (TILE_EXPORT): kernel %.200s, %d variants and %d tuner winners.\n", TILE_VERSION_STRING, it[0].name, nk, n - nk);
    tile__xf(w, "   Compile it into a program built with -DTILE_AOT, with tile_aot.c from the same directory. Do not edit. */\n");
    tile__xf(w, "%s", tile__export_type);
    for (int i = 0; i < n; i++) {
        tile__xf(w, "/* entry %d:\n", i);
        for (const char *s = it[i].key; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] != 0)) {
            int len = (int)strcspn(s, "\n");
            char line[1024];
            snprintf(line, sizeof line, "%.*s", len < 1000 ? len : 1000, s);
            for (char *c = line; (c = strstr(c, "*/")) != NULL;) *c = '.';   /* the key, readable, in a comment */
            tile__xf(w, "   %s\n", line);
        }
        tile__xf(w, "*/\n");
        tile__export_bytes(w, "tile__k", i, (const unsigned char *)it[i].key, strlen(it[i].key), 1);
        tile__xf(w, "_Alignas(16) ");
        tile__export_bytes(w, "tile__p", i, (const unsigned char *)it[i].pay, it[i].paylen, 1);
    }
    tile__xf(w, "extern const tile_aot_entry %s[];\nconst tile_aot_entry %s[] = {\n", cname, cname);
    for (int i = 0; i < n; i++) {
        tile__xf(w, "    {%d, \"", it[i].kind);
        for (const char *s = it[i].name; *s; s++) tile__xf(w, "\\%03o", (unsigned char)*s);
        tile__xf(w, "\", (const char *)tile__k%d, tile__p%d, %zuull},\n", i, i, it[i].paylen);
    }
    tile__xf(w, "    {0, 0, 0, 0, 0},\n};\n");
    return tile__xclose(w, path);
}
/* Write the C files from the whole store: what it holds now. */
static tile_status tile__export_write_c(void) {
    const char *dir = tile__knob_values_get()->export_dir;
    char store[TILE__CACHE_DIR_MAX + 8], path[TILE__PATH_MAX];
    tile__export_item *items = NULL;
    tile__xfile *w = (tile__xfile *)malloc(sizeof *w);
    int n = 0, cap = 0, ok = 1;
    if (!dir[0]) {
        free(w);
        return TILE_OK;
    }
    if (!w) return tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "out of host memory");
    pthread_mutex_lock(&tile__export_lock);
    if (!tile__export_store(store, sizeof store)) {
        pthread_mutex_unlock(&tile__export_lock);
        free(w);
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "TILE_EXPORT=%.200s: the directory cannot hold the export", dir);
    }
    DIR *d = opendir(store);
    for (struct dirent *de = d ? readdir(d) : NULL; de && ok; de = readdir(d)) {
        const char *dot = strrchr(de->d_name, '.'), *dash = strrchr(de->d_name, '-');
        int kind = dot && strcmp(dot, ".kernel") == 0 ? TILE__DISK_KERNEL : dot && strcmp(dot, ".tune") == 0 ? TILE__DISK_TUNE : 0;
        if (!kind || !dash || dash > dot || (size_t)(dash - de->d_name) >= sizeof items->name || dash == de->d_name) continue;
        if (n == cap) {
            tile__export_item *m = (tile__export_item *)realloc(items, sizeof *items * (size_t)(cap = cap ? 2 * cap : 16));
            if (!m) {
                ok = 0;
                break;
            }
            items = m;
        }
        tile__export_item *it = &items[n];
        memset(it, 0, sizeof *it);
        it->kind = kind;
        memcpy(it->name, de->d_name, (size_t)(dash - de->d_name));
        int k = snprintf(path, sizeof path, "%.3079s/%.255s", store, de->d_name);
        if (k > 0 && (size_t)k < sizeof path && tile__disk_read_path(path, kind, NULL, &it->key, &it->pay, &it->paylen)) n++;
    }
    if (d) closedir(d);
    if (n) qsort(items, (size_t)n, sizeof *items, tile__export_item_cmp);
    /* one file per kernel, then the index */
    char cname[96];
    int nk = 0;
    for (int i = 0, j; ok && i < n; i = j) {
        for (j = i; j < n && strcmp(items[j].name, items[i].name) == 0; j++) {}
        tile__export_cname(cname, sizeof cname, items[i].name);
        ok = tile__export_kernel_c(dir, &items[i], j - i, cname, w);
        nk++;
    }
    int k = snprintf(path, sizeof path, "%.3071s/tile_aot.c", dir);
    if (ok && k > 0 && (size_t)k < sizeof path && tile__xopen(w, path)) {
        tile__xf(w, "/* Written by tile %s (TILE_EXPORT): the index of the %d kernels exported to this directory. Compile it, and the\n",
                 TILE_VERSION_STRING, nk);
        tile__xf(w, "   tile_aot_<kernel>.c files it names, into a program built with -DTILE_AOT. Do not edit. */\n%s", tile__export_type);
        for (int pass = 0; pass < 2; pass++) {
            if (pass) tile__xf(w, "extern const tile_aot_entry *const tile_aot_tables[];\nconst tile_aot_entry *const tile_aot_tables[] = {\n");
            for (int i = 0, j; i < n; i = j) {
                for (j = i; j < n && strcmp(items[j].name, items[i].name) == 0; j++) {}
                tile__export_cname(cname, sizeof cname, items[i].name);
                tile__xf(w, pass ? "    %s,\n" : "extern const tile_aot_entry %s[];\n", cname);
            }
        }
        tile__xf(w, "    0,\n};\n");
        ok = tile__xclose(w, path);
    } else {
        ok = 0;
    }
    for (int i = 0; i < n; i++) free(items[i].key), free(items[i].pay);
    free(items);
    free(w);
    if (ok) tile__export_dirty = 0;
    pthread_mutex_unlock(&tile__export_lock);
    if (!ok) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "TILE_EXPORT=%.200s: cannot write the C files there: %s", dir, strerror(errno));
    if (tile__at_knobs_get()->verbose) fprintf(stderr, "tile export: %d kernels, %d entries, in %s/tile_aot.c and its files\n", nk, n, dir);
    return TILE_OK;
}
/* at the process's end, when entries came since the last write (a failure is reported as it happens) */
static void tile__export_atexit(void) {
    pthread_mutex_lock(&tile__export_lock);
    int dirty = tile__export_dirty;
    pthread_mutex_unlock(&tile__export_lock);
    if (dirty) (void)tile__export_write_c();
}
tile_status tile_export_write(void) { return tile__export_write_c(); }
