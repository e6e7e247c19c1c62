/* tile/runtime.h — >>runtime: the per-kernel cache and the GPU launch.

   Why it is shaped this way: a launch is "find or build the kernel for this
   configuration, then run it". Building is the pipeline (tile/compile.h);
   what it produces is cached on the kernel object, keyed by the
   meta-parameters, so the second launch of a configuration only runs. On a
   GPU, each entry also holds its compiled variants, keyed by the whole
   configuration (num_warps, num_stages, the arguments' specialization), as
   loaded CUDA functions; without one, launches run in the interpreter. The
   device layer below (tile/device.h) holds the memory and the records; the
   pipeline a variant is compiled by is tile/compile.h. */

/* ---- the per-kernel cache --------------------------------------------------------
   One entry per distinct set of meta-parameters (sorted by name). */
typedef struct tile__entry {
    int nmeta;
    tile_meta meta[TILE_MAX_META];  /* names point into `names`          */
    char names[TILE_MAX_META][32];
    tl_dtype elems[64];             /* the dtypes of tl_ptr parameters (TL_VOID for the others) */
    tile__func f;
    int has_descs;                  /* f makes tensor descriptors: their arguments are checked at launch */
    int has_kscopes;                /* f has in-kernel scopes: compiled with them while a profile runs */
    uint64_t irh;                   /* >>aot: with TILE_AOT or TILE_EXPORT, the hash and length of f's */
    size_t irn;                     /* printed IR (the tables' keys name it)                           */
    tile__variant *variants;
    struct tile__entry *next;
} tile__entry;
typedef struct tile__kstate { tile__entry *entries; } tile__kstate;
/* >>hostdesc: releases the caches of the kernels derived from a kernel for its
   tl_desc arguments; launch.h sets it (under tile__cache_lock) when it derives one */
static void (*tile__dk_release)(const tile_kernel *k);
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
/* The dtypes a launch gives the kernel's tl_ptr parameters, in elems
   (TL_VOID for the other parameters); *generic says whether it has any.
   Without arguments (args NULL) such a kernel cannot be built. */
static tile_status tile__arg_elems(const tile_kernel *k, const tile_launch *o, const tile_arg *args, tl_dtype elems[64], int *generic) {
    *generic = 0;
    for (int p = 0; p < 64; p++) elems[p] = TL_VOID;
    for (int p = 0; p < k->nparams && p < 64; p++) {
        if (k->params[p].dtype != TL_PTR || k->params[p].elem != TL_VOID) continue;
        if (!args)
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "%s's parameter %s is a tl_ptr, whose dtype comes from the launch's argument: build it with tile_kernel_ir_for or tile_kernel_ptx_for",
                               k->name, k->params[p].name);
        tl_dtype d = args[p].elem;
        if (d <= TL_VOID || d >= TL_PTR)
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "argument %d (%s) is a tl_ptr and has no dtype (%d): pass TILE_PTR(p, TL_F16) (or set the tile_arg's elem)", p + 1,
                               k->params[p].name, (int)d);
        elems[p] = d;
        *generic = 1;
    }
    return TILE_OK;
}
static tile__entry *tile__find_entry(const tile_kernel *k, const tile_meta *key, int nk, const tl_dtype *elems) {
    const tile__kstate *ks = (const tile__kstate *)k->state;
    for (tile__entry *e = ks ? ks->entries : NULL; e; e = e->next) {
        int same = e->nmeta == nk && memcmp(e->elems, elems, sizeof e->elems) == 0;
        for (int i = 0; same && i < nk; i++) same = strcmp(e->meta[i].name, key[i].name) == 0 && e->meta[i].value == key[i].value;
        if (same) return e;
    }
    return NULL;
}
/* Find or build the entry for this configuration: the meta-parameters and
   the dtypes of tl_ptr parameters (args: the launch's). The lock is not
   held while building (a build runs user code); when two threads build the
   same entry at once, the first to finish wins and the other's is dropped. */
static tile_status tile__get_entry_for(tile_kernel *k, const tile_launch *o, const tile_arg *args, tile__entry **out) {
    tile_meta key[TILE_MAX_META];
    tl_dtype elems[64];
    int nk, generic;
    tile_status st = tile__meta_key(k, o, key, &nk);
    if (st == TILE_OK) st = tile__arg_elems(k, o, args, elems, &generic);
    if (st != TILE_OK) return st;
    pthread_mutex_lock(&tile__cache_lock);
    *out = tile__find_entry(k, key, nk, elems);
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
    memcpy(e->elems, elems, sizeof e->elems);
    if ((st = tile__build_for(k, o, generic ? elems : NULL, &e->f)) != TILE_OK) {
        free(e);
        return st;
    }
    e->has_descs = tile__has_descs(&e->f);
    e->has_kscopes = tile__kprof_names(&e->f, NULL, 0) > 0;
    if (tile__aot_linked() || tile__export_on()) {   /* >>aot */
        char *ir = tile__print_func(&e->f);
        if (!ir) {
            tile__func_free(&e->f);
            free(e);
            return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
        }
        e->irn = strlen(ir);
        e->irh = tile__fnv(TILE__FNV0, ir, e->irn);
        TILE_FREE(ir);
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
    tile__entry *won = tile__find_entry(k, key, nk, elems);
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
/* a kernel without tl_ptr parameters (the tests call it) */
static inline tile_status tile__get_entry(tile_kernel *k, const tile_launch *o, tile__entry **out) { return tile__get_entry_for(k, o, NULL, out); }
void tile_kernel_release(tile_kernel *k) {
    if (!k) return;
    tile__rec_forget(k);
    pthread_mutex_lock(&tile__cache_lock);
    tile__kstate *ks = (tile__kstate *)k->state;
    void (*dk_release)(const tile_kernel *) = tile__dk_release;
    for (tile__entry *e = ks ? ks->entries : NULL, *next; e; e = next) {
        next = e->next;
        for (tile__variant *v = e->variants, *vn; v; v = vn) {
            vn = v->next;
            int here = tile__cu_tls;   /* each module is unloaded in its device's context */
            for (int d = 0; d < TILE__MAX_DEVICES; d++)
                if (v->omod[d]) tile__cu_tls = d, tile__cu_unload(v->omod[d]);
            if (v->mod) tile__cu_tls = v->dev, tile__cu_unload(v->mod);
            if (here != tile__cu_tls) tile__cu_restore(here);
            free(v->image);
            free(v->ptx);
            free(v->xpay);
            free(v);
        }
        tile__func_free(&e->f);
        free(e);
    }
    free(ks);
    k->state = NULL;
    pthread_mutex_unlock(&tile__cache_lock);
    if (dk_release) dk_release(k);
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
    for (int p = 0; ok && p < k->nparams; p++) ok = k->params[p].name && k->params[p].dtype > TL_VOID && k->params[p].dtype <= TL_DESC;
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
    int here = tile__dev_here(), dev;
    for (int p = 0; p < k->nparams; p++) {
        if (k->params[p].dtype != TL_PTR || !args[p].p) continue;
        if (!tile__mem_valid_on((uint64_t)(uintptr_t)args[p].p, 1, &dev))
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s) = %p is not memory from tile_malloc", p + 1,
                               k->params[p].name, args[p].p);
        if (!tile__dev_reaches(here, dev))
            return tile__error(TILE_ERR_DEVICE, k->name, o->file, o->line,
                               "argument %d (%s) = %p is memory of device %d, and this launch runs on device %d (this thread's: tile_set_device), "
                               "which cannot reach it: tile_device_enable_peer(%d) on device %d first, or copy it over with tile_memcpy_dtod",
                               p + 1, k->params[p].name, args[p].p, dev, here, dev, here);
    }
    return tile__stream_here(o->stream, "the launch", k->name, o->file, o->line);
}
/* A launch from inside a kernel body being built fails that build. */
static tile_status tile__not_nested(const tile_kernel *k, const tile_launch *o) {
    if (!tile__b) return TILE_OK;
    tile__berr(TILE_ERR_CONTEXT, o->file ? o->file : k->file, o->file ? o->line : k->line,
               "kernel %s is launched (or built) from inside another kernel's body (%s)", k->name, tile__b->k->name);
    return TILE_ERR_CONTEXT;
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
    /* >>aot: from the TILE_AOT tables, else compiled; exported with TILE_EXPORT */
    tile_status st = tile__aot_linked() ? tile__aot_variant(k, o, e->irh, e->irn, v) : TILE_ERR_COUNT_;
    if (st == TILE_ERR_COUNT_ && tile__aot_linked() && !tile__gpu_mode() && !tile__export_on())
        st = TILE_OK;   /* the interpreter runs a variant the tables lack: nothing to compile (no compiler needed) */
    if (st == TILE_ERR_COUNT_) st = tile__compile(k, &e->f, &v->cfg, v, NULL);
    if (st == TILE_OK && tile__export_on()) tile__export_variant(k, &e->f, e->irh, e->irn, v);
    pthread_mutex_lock(&tile__cache_lock);
    v->state = st == TILE_OK ? TILE__VARIANT_READY : TILE__VARIANT_FAILED;
    pthread_cond_broadcast(&tile__variant_done);
    pthread_mutex_unlock(&tile__cache_lock);
    *out = st == TILE_OK ? v : NULL;
    return st;
}
/* v's function on device d: the one it was loaded with, or (several GPUs)
   loaded there now from its image, once (the load, a JIT of PTX perhaps,
   outside the cache's lock; of two threads loading at once, the first to
   finish wins and the other's module is unloaded). */
static tile_status tile__variant_fn(tile__variant *v, int d, const tile_kernel *k, const tile_launch *o, CUfunction *fn) {
    if (d == v->dev) {
        *fn = v->fn;
        return TILE_OK;
    }
    pthread_mutex_lock(&tile__cache_lock);
    *fn = v->ofn[d];
    pthread_mutex_unlock(&tile__cache_lock);
    if (*fn) return TILE_OK;
    if (!v->image)
        return tile__error(TILE_ERR_INTERNAL, k->name, o->file, o->line, "the variant compiled on device %d kept no image to load on device %d", v->dev, d);
    CUmodule mod = NULL;
    CUfunction f = NULL;
    char log[1024];
    int old = tile__cu_tls;
    tile__cu_tls = d;
    tile__err_mute++;   /* told once, below, at the launch's line */
    tile_status st = tile__cu_load(v->image, &mod, &f, k->name, log, sizeof log);
    tile__err_mute--;
    if (st == TILE_OK) {
        pthread_mutex_lock(&tile__cache_lock);
        int lost = v->ofn[d] != NULL;   /* another thread's came first */
        if (!lost) v->omod[d] = mod, v->ofn[d] = f;
        *fn = v->ofn[d];
        pthread_mutex_unlock(&tile__cache_lock);
        if (lost) tile__cu_unload(mod);
    }
    if (old != tile__cu_tls) tile__cu_restore(old);
    if (st == TILE_OK) return TILE_OK;
    char why[sizeof tile__err.message];
    const char *w = tile__err.message, *colon = strstr(w, ": ");
    if (strncmp(w, "error ", 6) == 0 && colon) w = colon + 2;   /* without its "error TILE_ERR_...: " */
    snprintf(why, sizeof why, "%s", w);
    return tile__error(st, k->name, o->file, o->line, "loading %s on device %d: %s", k->name, d, why);
}
/* The launch's arguments against the copy engine's rules for each tensor
   descriptor the kernel makes (its operands are parameters or constants),
   as the interpreter checks them (tile__desc_check). */
static tile_status tile__desc_check_args(const tile__func *f, const tile_arg *args) {
    for (int id = 0; id < f->nops; id++) {
        const tile__op *md = &f->ops[id];
        if (md->dead || md->code != TILE__OP_MAKE_DESC) continue;
        tile__elem v[1 + 2 * TILE__MAX_RANK];
        for (int k = 0; k < md->nopnd; k++) {
            int x = f->pool[md->opnd + k];
            const tile__value *val = &f->vals[x];
            v[k].u = 0;
            if (val->def >= 0) {
                v[k].i = f->ops[val->def].i[0];   /* a CONST */
                continue;
            }
            int p = tile__param_of(f, x);
            if (p >= 0) {
                if (val->t.dtype == TL_PTR) v[k].u = (uint64_t)(uintptr_t)args[p].p;
                else v[k].i = args[p].i;
                v[k] = tile__norm(val->t.dtype, v[k]);
            }
        }
        tile_status st = tile__desc_check(f, md, v);
        if (st != TILE_OK) return st;
    }
    return TILE_OK;
}
/* >>tma: tensor map t of variant v for these arguments, into out: the
   variant's last one when the values are the same, else encoded now */
static tile_status tile__tmap_for(tile__variant *v, int t, const tile_kernel *k, const tile_arg *args, unsigned char *out) {
    const tile__tmap_info *ti = &v->meta.tmaps[t];
    int64_t key[11];
    int n = 1 + 2 * ti->rank;
    memset(key, 0, sizeof key);
    for (int j = 0; j < n; j++) {
        int p = ti->src[j];
        if (p < 0) key[j] = ti->cval[j];
        else if (k->params[p].dtype == TL_PTR) key[j] = (int64_t)(uintptr_t)args[p].p;
        else {
            tile__elem e;
            e.i = args[p].i;
            key[j] = tile__norm(k->params[p].dtype, e).i;
        }
    }
    pthread_mutex_lock(&tile__cache_lock);
    int hit = v->tmap_ok[t] && memcmp(v->tmap_key[t], key, sizeof key) == 0;
    if (hit) memcpy(out, v->tmap[t], 128);
    pthread_mutex_unlock(&tile__cache_lock);
    if (hit) return TILE_OK;
    uint64_t dims[5], strides[5];
    unsigned box[5];
    size_t es = tile__dt[ti->dtype].bytes;
    for (int d = 0; d < ti->rank; d++) {
        dims[d] = (uint64_t)key[1 + ti->rank - 1 - d];
        box[d] = (unsigned)ti->box[d];
        if (d + 1 < ti->rank) strides[d] = (uint64_t)key[1 + ti->rank + ti->rank - 2 - d] * es;
    }
    tile_status st = tile__cu_tmap_encode(out, (tl_dtype)ti->dtype, ti->rank, (uint64_t)key[0], dims, strides, box, ti->swizzle, k->name, k->file, ti->line);
    if (st != TILE_OK) return st;
    pthread_mutex_lock(&tile__cache_lock);
    memcpy(v->tmap[t], out, 128);
    memcpy(v->tmap_key[t], key, sizeof key);
    v->tmap_ok[t] = 1;
    pthread_mutex_unlock(&tile__cache_lock);
    return TILE_OK;
}
/* A launch's kernel parameters, as cuLaunchKernel takes them: each
   argument as the kernel's C type expects it, the hidden record, then the
   tensor maps (encoded for these arguments), and room for the profile's
   two (tile__launch_gpu sets them). launch_args points into the struct. */
typedef struct tile__params {
    union { uint64_t u; int32_t i32; int64_t i64; uint32_t u32; float f; double d; } vals[TILE__MAX_PARAMS + 3];
    void *ptrs[TILE__MAX_PARAMS + 1];
    _Alignas(64) unsigned char maps[TILE__MAX_TMAPS][128];   /* >>tma */
    void *params[TILE__MAX_PARAMS + 3 + TILE__MAX_TMAPS], **launch_args;
} tile__params;
static tile_status tile__params_pack(tile__params *P, tile__variant *v, const tile_kernel *k, const tile_arg *args, void *rec) {
    tile_status st = TILE_OK;
    for (int p = 0; p < k->nparams && p < TILE__MAX_PARAMS; p++) {
        switch (k->params[p].dtype) {
        case TL_PTR: P->vals[p].u = (uint64_t)(uintptr_t)args[p].p; break;
        case TL_I32: P->vals[p].i32 = (int32_t)args[p].i; break;
        case TL_U32: P->vals[p].u32 = (uint32_t)args[p].i; break;
        case TL_F32: P->vals[p].f = (float)args[p].f; break;
        case TL_F64: P->vals[p].d = args[p].f; break;
        default: P->vals[p].i64 = args[p].i; break;
        }
        P->ptrs[p] = &P->vals[p];
    }
    int np = k->nparams < TILE__MAX_PARAMS ? k->nparams : TILE__MAX_PARAMS;
    P->vals[np].u = (uint64_t)(uintptr_t)rec;     /* the hidden record */
    P->ptrs[np] = &P->vals[np];
    P->launch_args = P->ptrs;
    if (v->meta.ntmaps || v->cfg.prof || v->cfg.ktime) {
        memcpy(P->params, P->ptrs, sizeof(void *) * (size_t)(np + 1));
        for (int t = 0; t < v->meta.ntmaps && st == TILE_OK; t++) {
            st = tile__tmap_for(v, t, k, args, P->maps[t]);
            P->params[np + 1 + t] = P->maps[t];
        }
        P->launch_args = P->params;
    }
    return st;
}
static tile_status tile__launch_gpu(tile__entry *e, const tile_kernel *k, const tile_launch *o, const tile_arg *args, const unsigned grid[3],
                                    tile__prof_tok tok) {
    /* an earlier launch's failure that is known by now is this call's error */
    tile_status st = tile__rec_collect(0);
    if (st != TILE_OK) return st;
    if (e->has_descs && (st = tile__desc_check_args(&e->f, args)) != TILE_OK) return st;
    tile__variant *v = NULL;
    tile__config cfg;
    if ((st = tile__config_resolve(k, o, args, NULL, &cfg)) != TILE_OK) return st;
    cfg.prof = e->has_kscopes && tok.gen ? tok.kmode : TILE__KPROF_OFF;   /* >>profile: in-kernel scopes, when this launch is recorded */
    cfg.ktime = tok.gen && tok.kslot;                                       /* and the kernel's clock, when it times the launch */
    if ((st = tile__get_variant(e, k, o, &cfg, &v)) != TILE_OK) return st;
    if (v->meta.has_assert && tile__stream_captured(o->stream))   /* >>graph: tile's capture, or the user's own */
        return tile__error(TILE_ERR_LAUNCH, k->name, o->file, o->line,
                           "a kernel with device checks (tl_device_assert, or a TL_FOR whose step is not known to be positive) cannot be captured "
                           "into a graph: each launch's record is read after it runs");
    void *rec = NULL;                 /* a kernel without checks never touches it */
    int slot = -1;
    if (v->meta.has_assert && (st = tile__rec_take(&e->f, k, o, &slot, &rec)) != TILE_OK) return st;
    tile__params P;
    st = tile__params_pack(&P, v, k, args, rec);
    int np = k->nparams < TILE__MAX_PARAMS ? k->nparams : TILE__MAX_PARAMS;
    if (v->cfg.prof && st == TILE_OK) {   /* >>profile: the in-kernel scopes' records, last */
        st = tile__prof_kbuf_take(tok, &e->f, v->meta.nthreads, grid, &P.vals[np + 1].u, k->name, o->file, o->line);
        P.params[np + 1 + v->meta.ntmaps] = &P.vals[np + 1];
    }
    if (v->cfg.ktime) {   /* >>profile: and the kernel clock's slot */
        P.vals[np + 2].u = tok.kslot;
        P.params[np + 1 + v->meta.ntmaps + (v->cfg.prof != 0)] = &P.vals[np + 2];
    }
    if (st != TILE_OK) {
        if (slot >= 0) tile__rec_drop(slot);
        return st;
    }
    void **launch_args = P.launch_args;
    CUfunction fn = NULL;
    if ((st = tile__variant_fn(v, tile__cu_index(), k, o, &fn)) != TILE_OK) {   /* (loaded on this device first, if need be) */
        if (slot >= 0) tile__rec_drop(slot);
        return st;
    }
    tile__prof_launch_event(tok, 0, 1, o->stream);   /* >>profile: the kernel's time, when a profile runs */
    st = tile__cu_launch(fn, grid, (unsigned)v->meta.nthreads, (unsigned)v->meta.smem, o->stream, launch_args, o->file, o->line, k->name);
    tile__prof_launch_event(tok, 1, st == TILE_OK, o->stream);
    if (st == TILE_OK && tile__graph_capturing(o->stream)) tile__graph_note_gpu((tile_kernel *)k, o, args, e, v, grid);   /* >>graph */
    if (slot >= 0) {
        if (st != TILE_OK) tile__rec_drop(slot);
        else st = tile__rec_launched(slot, o->stream, o);
    }
    /* TILE_SYNC, or a user's assert: wait, and report what the launch found. Not a
       launch a graph captures, tile's or the user's own (it has not run, and the
       driver refuses a synchronize while a stream is captured; a kernel with checks
       is refused above): with TILE_SYNC tile_graph_launch waits for the replay. A
       launch on another stream during a capture waits for that stream alone */
    if (st == TILE_OK && (tile__knob_values_get()->sync || (v->meta.has_assert & TILE__HAS_USER_CHECK)) &&
        (v->meta.has_assert || !tile__stream_captured(o->stream))) {
        unsigned long long upto = tile__rec_mark();
        /* the device's work; while tile_graph_begin captures a stream, this launch's
           stream's alone (waiting for the device would end that capture), and then
           only the records whose launches' events are done are read */
        int own = o->stream && atomic_load_explicit(&tile__graph_ncap, memory_order_acquire) > 0;
        st = own ? tile__cu_sync_stream_at((CUstream)(void *)o->stream, o->file, o->line, k->name) : tile__cu_sync_at(o->file, o->line, k->name);
        if (st == TILE_OK) st = tile__rec_collect(own ? 0 : upto);
    }
    return st;
}
