/* tile/runtime.h — >>runtime: the per-kernel cache, the pipeline, launch.

   Why it is shaped this way: a launch is "find or build the kernel for this
   configuration, then run it". Building is the pipeline below, one pass per
   line; what it produces is cached on the kernel object, keyed by the
   meta-parameters, so the second launch of a configuration only runs. On a
   GPU, each entry also holds its compiled variants, keyed by the whole
   configuration (num_warps, num_stages, the arguments' specialization), as
   loaded CUDA functions; without one, launches run in the interpreter. The
   device layer below (tile/device.h) holds the memory and the records. */

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
    TILE_FREE(e->src);
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
/* >>cache: the disk cache of compiled variants, in tile/cache.h */
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
        if (lay) tile__dump(f->name, "ttgir", lay);                                   /* ttgir */
        TILE_FREE(lay);
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
