/* tile/launch.h — >>launch: the public entry points that take a kernel:
   tile_launch_kernel (through the tuner when the launch has one, as
   Triton's Autotuner wraps the JIT function), tile_kernel_ptx and
   tile_kernel_ir. The top layer: it calls the runtime and the tuner. */
static tile_status tile__launch_run(tile_kernel *k, const tile_launch *o, const tile_arg *args, const unsigned grid[3], tile__prof_tok tok);

/* ---- >>hostdesc: tensor descriptors made on the host (tl_desc parameters) ----------------
   A kernel with tl_desc parameters runs as a kernel derived from it for
   each specialization of its descriptors (dtype, rank, block shape or the
   meta-parameters naming it). The derived kernel's parameters are the
   kernel's, each descriptor expanded into its base (a pointer of its
   dtype), its shape (an i32 per dim) and its strides but the last (i32;
   the last is the constant 1); its body makes each descriptor from those
   (tl_make_tensor_descriptor, at the launch's line) and calls the
   kernel's body with it. From there a descriptor from the host is one the
   kernel makes: the launch specializes on the values (16-divisible shapes
   and strides), encodes the tensor maps on the host and caches them, and
   the tuner, the caches, the interpreter and the sm_80 rewrite are the
   same. The derived kernels live for the process, as the TILE_KERNEL
   objects they come from (one per specialization, never freed, so that a
   tuner's state naming one never names another); tile_kernel_release of
   the kernel releases their caches. */
enum { TILE__HDESC_MAX = 16, TILE__HDESC_NAME = 48 };
typedef struct tile__hdesc {
    tl_dtype dtype;
    int rank;
    int block[5];                          /* 0: meta[d] names it */
    char meta[5][TILE__HDESC_NAME];
} tile__hdesc;
typedef struct tile__dkernel {
    tile_kernel k;                         /* first: the builder's kernel is this */
    tile_kernel *orig;
    int nd;
    tile__hdesc d[TILE__HDESC_MAX];        /* the tl_desc parameters' specialization, in order */
    tile_param params[64];
    char names[64][TILE__HDESC_NAME + 24];   /* "<name>.strides[<int>]" */
    struct tile__dkernel *next;
} tile__dkernel;
/* every derived kernel, newest first; added to under tile__cache_lock, never shortened */
static tile__dkernel *tile__dkernels;
static void tile__dkernels_release(const tile_kernel *k) {
    pthread_mutex_lock(&tile__cache_lock);
    tile__dkernel *d = tile__dkernels;
    pthread_mutex_unlock(&tile__cache_lock);
    for (; d; d = d->next)
        if (d->orig == k) tile_kernel_release(&d->k);
}
static int tile__has_hdesc(const tile_kernel *k) {
    for (int p = 0; p < k->nparams; p++)
        if (k->params[p].dtype == TL_DESC) return 1;
    return 0;
}
/* the derived kernel's body: the descriptors made, then the kernel's body */
static void tile__dk_body(const tl_t *a) {
    const tile__dkernel *dk = (const tile__dkernel *)(const void *)tile__b->k;
    const tile_launch *o = tile__b->opts;
    const char *file = o && o->file ? o->file : dk->orig->file;
    int line = o && o->file ? o->line : dk->orig->line, q = 0, di = 0;
    tl_t args[64];
    for (int p = 0; p < dk->orig->nparams; p++) {
        if (dk->orig->params[p].dtype != TL_DESC) {
            args[p] = a[q++];
            continue;
        }
        const tile__hdesc *h = &dk->d[di++];
        tl_shape block;
        tl_t st[5];
        block.rank = h->rank;
        for (int d = 0; d < h->rank; d++) block.dim[d] = h->block[d] ? h->block[d] : tl_meta_at(file, line, h->meta[d]);
        for (int d = 0; d + 1 < h->rank; d++) st[d] = a[q + 1 + h->rank + d];
        st[h->rank - 1] = tl__cint(1);
        args[p] = tl_make_tensor_descriptor_at(file, line, a[q], h->rank, a + q + 1, h->rank, st, block);
        q += 2 * h->rank;
    }
    dk->orig->body(args);
}
/* argument p of kernel k (a tl_desc) checked, its specialization into *h */
static tile_status tile__hdesc_of(const tile_kernel *k, const tile_launch *o, int p, const tile_arg *arg, tile__hdesc *h) {
    const tile_tensor_desc *t = (const tile_tensor_desc *)arg->p;
    const char *pn = k->params[p].name;
    memset(h, 0, sizeof *h);
    if (!t) return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s): the tensor descriptor is NULL", p + 1, pn);
    if (t->rank < 1 || t->rank > 5)
        return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s): a tensor descriptor of rank %d; 1 to 5", p + 1, pn, t->rank);
    if (t->dtype <= TL_I1 || t->dtype >= TL_PTR)
        return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s): a tensor descriptor's dtype must be a number type of 8 bits or more, not %s",
                           p + 1, pn, t->dtype > TL_VOID && t->dtype < TL_DTYPE_COUNT_ ? tile_dtype_name(t->dtype) : "an unknown dtype");
    if (t->strides[t->rank - 1] != 1)
        return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s): the last stride is %lld; it must be 1 (the innermost dim contiguous)",
                           p + 1, pn, (long long)t->strides[t->rank - 1]);
    for (int d = 0; d < t->rank; d++)
        if (t->shape[d] < 1 || t->shape[d] > INT32_MAX || t->strides[d] < 0 || t->strides[d] > INT32_MAX)
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "argument %d (%s): dim %d has shape %lld and stride %lld; a shape from 1 to 2^31-1, a stride from 0 to 2^31-1", p + 1, pn, d,
                               (long long)t->shape[d], (long long)t->strides[d]);
    /* the copy engine's rules (tile__desc_check's, which names the line that built the kernel) at this launch's line */
    long long es = (long long)tile__dt[t->dtype].bytes;
    if ((uintptr_t)t->base % 16)
        return tile__error(TILE_ERR_ARG, k->name, o->file, o->line, "argument %d (%s): the base %p is not 16-byte aligned (the copy engine's rule)", p + 1, pn,
                           t->base);
    for (int d = 0; d + 1 < t->rank; d++)
        if (t->strides[d] < 1 || t->strides[d] * es % 16)
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "argument %d (%s): stride %d is %lld elements of %lld bytes; each stride but the last must be a positive multiple of 16 "
                               "bytes (the copy engine's rule: pad the rows)",
                               p + 1, pn, d, (long long)t->strides[d], es);
    h->dtype = t->dtype;
    h->rank = t->rank;
    for (int d = 0; d < t->rank; d++) {
        if (t->block[d] > 0) h->block[d] = t->block[d];
        else if (t->block[d] < 0 || !t->block_meta[d] || !*t->block_meta[d] || strlen(t->block_meta[d]) >= TILE__HDESC_NAME)
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "argument %d (%s): block dim %d is %d%s; give a positive block[%d], or 0 and the name of the meta-parameter that gives it "
                               "in block_meta[%d] (shorter than %d characters)",
                               p + 1, pn, d, t->block[d], t->block[d] == 0 ? " with no block_meta" : "", d, d, TILE__HDESC_NAME);
        else memcpy(h->meta[d], t->block_meta[d], strlen(t->block_meta[d]) + 1);
    }
    return TILE_OK;
}
/* The arguments of k (which has tl_desc parameters) as the derived kernel
   takes them, into out; hs: the descriptors' specialization, *nout the count */
static tile_status tile__hdesc_expand(const tile_kernel *k, const tile_launch *o, const tile_arg *args, tile__hdesc *hs, int *nd, tile_arg *out, int *nout) {
    int q = 0, n = 0;
    for (int p = 0; p < k->nparams; p++) {
        if (k->params[p].dtype != TL_DESC) {
            if (q < 64) out[q] = args[p];
            q++;
            continue;
        }
        if (n == TILE__HDESC_MAX)
            return tile__error(TILE_ERR_ARITY, k->name, o->file, o->line, "kernel %s has more than %d tl_desc parameters", k->name, TILE__HDESC_MAX);
        tile__hdesc *h = &hs[n++];
        tile_status st = tile__hdesc_of(k, o, p, &args[p], h);
        if (st != TILE_OK) return st;
        const tile_tensor_desc *t = (const tile_tensor_desc *)args[p].p;
        for (int j = 0; j < 2 * h->rank; j++, q++) {
            if (q >= 64) continue;
            out[q].elem = TL_VOID;
            if (j == 0) out[q].p = t->base;
            else out[q].i = j <= h->rank ? t->shape[j - 1] : t->strides[j - 1 - h->rank];
        }
    }
    if (q > 64)
        return tile__error(TILE_ERR_ARITY, k->name, o->file, o->line,
                           "kernel %s: its parameters with each tl_desc counted as its base, shape and strides are %d; at most 64", k->name, q);
    *nd = n;
    *nout = q;
    return TILE_OK;
}
static int tile__hdesc_same(const tile__hdesc *a, const tile__hdesc *b, int n) {
    for (int i = 0; i < n; i++) {
        if (a[i].dtype != b[i].dtype || a[i].rank != b[i].rank) return 0;
        for (int d = 0; d < a[i].rank; d++)
            if (a[i].block[d] != b[i].block[d] || strcmp(a[i].meta[d], b[i].meta[d])) return 0;
    }
    return 1;
}
/* tile_kernel_ptx / tile_kernel_ir of a kernel with tl_desc parameters: no arguments, no block shapes */
static tile_status tile__hdesc_no_args(const char *call, const tile_kernel *k, const tile_launch *o) {
    int p = 0;
    while (k->params[p].dtype != TL_DESC) p++;
    return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                       "%s: parameter %d (%s) is a tl_desc, whose block shape and dtype come from the argument; call %s_for with the arguments", call,
                       p + 1, k->params[p].name, call);
}
/* The kernel derived from k for these arguments (made when new), and its
   arguments into out */
static tile_status tile__hdesc_kernel(tile_kernel *k, const tile_launch *o, const tile_arg *args, tile_kernel **dk_out, tile_arg *out) {
    tile__hdesc hs[TILE__HDESC_MAX];
    int nd = 0, nout = 0;
    *dk_out = NULL;
    if (!args) return tile__error(TILE_ERR_VALUE, k->name, o->file, o->line, "the arguments are NULL (%s takes %d)", k->name, k->nparams);
    tile_status st = tile__hdesc_expand(k, o, args, hs, &nd, out, &nout);
    if (st != TILE_OK) return st;
    pthread_mutex_lock(&tile__cache_lock);
    tile__dkernel *dk = tile__dkernels;
    while (dk && (dk->orig != k || dk->nd != nd || !tile__hdesc_same(dk->d, hs, nd))) dk = dk->next;
    if (!dk && (dk = (tile__dkernel *)calloc(1, sizeof *dk)) != NULL) {
        dk->orig = k;
        dk->nd = nd;
        memcpy(dk->d, hs, sizeof hs[0] * (size_t)nd);
        int q = 0, di = 0;
        for (int p = 0; p < k->nparams; p++) {
            if (k->params[p].dtype != TL_DESC) {
                dk->params[q++] = k->params[p];
                continue;
            }
            const tile__hdesc *h = &hs[di++];
            for (int j = 0; j < 2 * h->rank; j++, q++) {
                if (j == 0) snprintf(dk->names[q], sizeof dk->names[q], "%.*s.base", TILE__HDESC_NAME, k->params[p].name);
                else if (j <= h->rank) snprintf(dk->names[q], sizeof dk->names[q], "%.*s.shape[%d]", TILE__HDESC_NAME, k->params[p].name, j - 1);
                else snprintf(dk->names[q], sizeof dk->names[q], "%.*s.strides[%d]", TILE__HDESC_NAME, k->params[p].name, j - 1 - h->rank);
                dk->params[q].name = dk->names[q];
                dk->params[q].dtype = j == 0 ? TL_PTR : TL_I32;
                dk->params[q].elem = j == 0 ? h->dtype : TL_VOID;
            }
        }
        dk->k.name = k->name;
        dk->k.file = k->file;
        dk->k.line = k->line;
        dk->k.nparams = q;
        dk->k.params = dk->params;
        dk->k.body = tile__dk_body;
        dk->k.launch = NULL;
        dk->next = tile__dkernels;
        tile__dkernels = dk;
        tile__dk_release = tile__dkernels_release;
    }
    pthread_mutex_unlock(&tile__cache_lock);
    if (!dk) return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory");
    *dk_out = &dk->k;
    return TILE_OK;
}
tile_status tile_launch_kernel(tile_kernel *k, const tile_launch *opts, const tile_arg *args) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    unsigned grid[3];
    tile_status st = tile__check_kernel("tile_launch_kernel", k, o, args, 1, NULL, 0);
    if (st != TILE_OK) return st;
    if (tile__not_nested(k, o) != TILE_OK) return TILE_ERR_CONTEXT;
    if (tile__has_hdesc(k)) {   /* >>hostdesc: as the kernel derived for these descriptors */
        tile_kernel *dk;
        tile_arg ex[64];
        if ((st = tile__hdesc_kernel(k, o, args, &dk, ex)) != TILE_OK) return st;
        return tile_launch_kernel(dk, o, ex);
    }
    tile__prof_env_check();   /* TILE_PROFILE: a profile from the first launch */
    if (o->tune) return tile_autotune_launch(o->tune, k, o, args);   /* >>autotune: picks meta, then comes back here */
    if ((st = tile__check_launch(k, o, args, grid)) != TILE_OK) return st;
    /* >>profile: the record of this launch, when a profile runs (not one a graph captures) */
    tile__prof_tok tok = tile__graph_capturing(o->stream) ? tile__prof_no_tok : tile__prof_launch_begin(k, o, args, grid);
    st = tile__launch_run(k, o, args, grid, tok);
    tile__prof_launch_end(tok, st);
    return st;
}
/* the launch itself, its options checked */
static tile_status tile__launch_run(tile_kernel *k, const tile_launch *o, const tile_arg *args, const unsigned grid[3], tile__prof_tok tok) {
    tile__entry *e;
    tile_status st = tile__get_entry_for(k, o, args, &e);
    if (st != TILE_OK) return st;
    if (tile__gpu_mode()) return tile__launch_gpu(e, k, o, args, grid, tok);
    /* >>graph: a launch on a captured stream is kept, not run */
    if ((st = tile__graph_record(k, o, args, TILE_ERR_COUNT_)) != TILE_ERR_COUNT_) return st;
    if (tile__aot_linked() || tile__export_on()) {
        /* >>aot: without a GPU the variant a GPU of TILE_ARCH would run is
           exported, or taken from the TILE_AOT tables (the kernel then runs
           in the interpreter) */
        tile__config cfg;
        tile__variant *v;
        if ((st = tile__config_resolve(k, o, args, NULL, &cfg)) != TILE_OK || (st = tile__get_variant(e, k, o, &cfg, &v)) != TILE_OK) return st;
    }
    const tile__knobs *kn = tile__knobs_get();
    if (kn->dump_cuda || kn->dump_ptx || kn->dump_ttgir || kn->dump_llir) {
        /* TILE_DUMP=ttgir,cuda,llir,ptx without a GPU: compile for TILE_ARCH, then interpret */
        tile__config cfg;
        char *ptx = NULL;
        if ((st = tile__config_resolve(k, o, args, NULL, &cfg)) == TILE_OK) {
            /* the stages asked for: assembled for ptx or llir (tile__compile prints the others on its way) */
            if (kn->dump_ptx || kn->dump_llir) st = tile__compile(k, &e->f, &cfg, NULL, &ptx);
            else {
                if (kn->dump_ttgir) st = tile__dump_ttgir(&e->f, &cfg);
                /* TILE_DUMP=cuda: the CUDA C, whichever back end is in use */
                if (st == TILE_OK && kn->dump_cuda) st = tile__dump_cuda(&e->f, &cfg);
            }
        }
        free(ptx);
        if (st != TILE_OK) return st;
    }
    uint64_t kbuf = 0;   /* >>profile: the in-kernel scopes' records, when this launch is recorded */
    if (e->has_kscopes && tok.gen) {
        int w, s;
        tile__launch_defaults(o, &w, &s);
        if ((st = tile__prof_kbuf_take(tok, &e->f, 32 * w, grid, &kbuf, k->name, o->file, o->line)) != TILE_OK) return st;
    }
    tile__prof_launch_event(tok, 0, 1, o->stream);   /* >>profile: the run is the kernel's time */
    st = tile__interp_run(&e->f, args, grid, (unsigned char *)(uintptr_t)kbuf);
    tile__prof_launch_event(tok, 1, st == TILE_OK, o->stream);
    return st;
}
/* Compile a kernel to PTX without a GPU: for `arch` (NULL: the device's, or
   TILE_ARCH, or sm_90a). tile_kernel_ptx has no launch's arguments (args
   NULL): it assumes pointer arguments aligned to 16 bytes (as tile_malloc's
   are), nothing about integers, and no kernel has a tl_ptr parameter;
   tile_kernel_ptx_for specializes on the arguments as a launch would. */
static tile_status tile__kernel_ptx(const char *call, tile_kernel *k, const tile_launch *opts, const tile_arg *args, const char *arch, char **ptx) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    char target[32], why[400];
    tl_dtype elems[64];
    int generic;
    tile_status st = tile__check_kernel(call, k, o, args, args != NULL, ptx, 1);
    if (st == TILE_OK) st = tile__not_nested(k, o);
    if (st == TILE_OK && tile__has_hdesc(k)) {   /* >>hostdesc */
        tile_kernel *dk;
        tile_arg ex[64];
        if (!args) return tile__hdesc_no_args(call, k, o);
        if ((st = tile__hdesc_kernel(k, o, args, &dk, ex)) != TILE_OK) return st;
        return tile__kernel_ptx(call, dk, o, ex, arch, ptx);
    }
    if (st == TILE_OK) st = tile__arg_elems(k, o, args, elems, &generic);
    if (st != TILE_OK) return st;
    if (arch && !tile__arch_ok(arch, why, sizeof why))
        return tile__error(TILE_ERR_VALUE, k->name, o->file, o->line, "%s: target \"%.40s\": %s", call, arch, why);
    if (arch) tile__copy_cut(target, sizeof target, arch);
    else if ((st = tile__target(target, sizeof target)) != TILE_OK) return st;
    tile__config cfg;
    if ((st = tile__config_resolve(k, o, args, target, &cfg)) != TILE_OK) return st;
    tile__func f;
    if ((st = tile__build_for(k, o, generic ? elems : NULL, &f)) != TILE_OK) return st;
    if (tile__kprof_names(&f, NULL, 0) > 0) cfg.prof = tile__prof_kmode_now();   /* >>profile: the PTX a launch would run now */
    cfg.ktime = tile__prof_ktime_now();
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
tile_status tile_kernel_ptx(tile_kernel *k, const tile_launch *opts, const char *arch, char **ptx) {
    return tile__kernel_ptx("tile_kernel_ptx", k, opts, NULL, arch, ptx);
}
tile_status tile_kernel_ptx_for(tile_kernel *k, const tile_launch *opts, const tile_arg *args, const char *arch, char **ptx) {
    return tile__kernel_ptx("tile_kernel_ptx_for", k, opts, args, arch, ptx);
}
static tile_status tile__kernel_ir(const char *call, tile_kernel *k, const tile_launch *opts, const tile_arg *args, char **text) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    tile_meta key[TILE_MAX_META];
    tl_dtype elems[64];
    int nk, generic;
    tile_status st = tile__check_kernel(call, k, o, args, args != NULL, text, 1);
    if (st == TILE_OK) st = tile__not_nested(k, o);
    if (st == TILE_OK && tile__has_hdesc(k)) {   /* >>hostdesc */
        tile_kernel *dk;
        tile_arg ex[64];
        if (!args) return tile__hdesc_no_args(call, k, o);
        if ((st = tile__hdesc_kernel(k, o, args, &dk, ex)) != TILE_OK) return st;
        return tile__kernel_ir(call, dk, o, ex, text);
    }
    if (st == TILE_OK) st = tile__meta_key(k, o, key, &nk);
    if (st == TILE_OK) st = tile__arg_elems(k, o, args, elems, &generic);
    if (st != TILE_OK) return st;
    tile__func f;
    st = tile__build_for(k, o, generic ? elems : NULL, &f);
    if (st != TILE_OK) return st;
    *text = tile__print_func(&f);
    tile__func_free(&f);
    if (!*text) return tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory while printing the IR");
    return TILE_OK;
}
tile_status tile_kernel_ir(tile_kernel *k, const tile_launch *opts, char **text) { return tile__kernel_ir("tile_kernel_ir", k, opts, NULL, text); }
tile_status tile_kernel_ir_for(tile_kernel *k, const tile_launch *opts, const tile_arg *args, char **text) {
    return tile__kernel_ir("tile_kernel_ir_for", k, opts, args, text);
}
void tile_free_text(char *text) { TILE_FREE(text); }   /* tile__print_func's buffer */

/* >>graph: change the arguments of launch i of a captured graph for its
   later replays (on a GPU the driver's cuGraphExecKernelNodeSetParams; in
   the interpreter the recorded copy). The launch keeps its kernel, variant,
   grid and options: arguments that would need another variant (a pointer
   or an integer no longer divisible by 16 where the variant assumed it, an
   integer 1 no longer 1 or the reverse, another dtype for a tl_ptr) are
   TILE_ERR_ARG at the recorded launch's line, as are arguments a launch
   would refuse. */
tile_status tile_graph_set_args(tile_graph g, int i, const tile_arg *args) {
    if (!g) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_set_args: the graph is NULL");
    if (g->gpu != tile__gpu_mode()) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_set_args: the graph is not this process's");
    if (g->lost)
        return tile__error(TILE_ERR_NOMEM, NULL, NULL, 0,
                           "tile_graph_set_args: the graph's record of its launches is incomplete (out of host memory during the capture)");
    if (i < 0 || i >= g->n)
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_set_args: launch %d of a graph of %d launches (they count from 0)", i, g->n);
    if (tile__dev_here() != g->dev)   /* its arguments are checked as a launch on its device's */
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_graph_set_args: the graph was captured on device %d, and this thread's is device %d (tile_set_device)",
                           g->dev, tile__dev_here());
    tile__graph_launch *l = &g->l[i];
    tile_kernel *k = l->k;
    const tile_launch *o = &l->o;
    tile_arg ex[64];
    if (k->body == tile__dk_body) {
        /* >>hostdesc: the arguments of the kernel launched, as its derived kernel takes them */
        const tile__dkernel *dk = (const tile__dkernel *)(const void *)k;
        tile__hdesc hs[TILE__HDESC_MAX];
        int nd = 0, nout = 0;
        tile_status st;
        if (!args) return tile__error(TILE_ERR_VALUE, k->name, o->file, o->line, "tile_graph_set_args: the arguments are NULL (%s takes %d)", k->name, dk->orig->nparams);
        if ((st = tile__hdesc_expand(dk->orig, o, args, hs, &nd, ex, &nout)) != TILE_OK) return st;
        if (nd != dk->nd || !tile__hdesc_same(hs, dk->d, nd))
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "tile_graph_set_args: launch %d (%s): a tensor descriptor's dtype, rank or block shape is not the captured one, so it needs "
                               "another variant than the one captured: capture the graph again",
                               i, k->name);
        args = ex;
    }
    if (k->nparams > 0 && !args) return tile__error(TILE_ERR_VALUE, k->name, o->file, o->line, "tile_graph_set_args: the arguments are NULL (%s takes %d)", k->name, k->nparams);
    unsigned grid[3];
    tile_status st = tile__check_launch(k, o, args, grid);
    if (st != TILE_OK) return st;
    /* the same variant: the same specialization and tl_ptr dtypes */
    tile__config was, now;
    tl_dtype ew[64], en[64];
    int gw, gn;
    if ((st = tile__config_resolve(k, o, l->args, "sm_90a", &was)) != TILE_OK || (st = tile__config_resolve(k, o, args, "sm_90a", &now)) != TILE_OK ||
        (st = tile__arg_elems(k, o, l->args, ew, &gw)) != TILE_OK || (st = tile__arg_elems(k, o, args, en, &gn)) != TILE_OK)
        return st;
    for (int p = 0; p < k->nparams && p < 64; p++) {
        uint64_t bit = (uint64_t)1 << p;
        const char *why = (was.spec16 ^ now.spec16) & bit ? (was.spec16 & bit ? "was divisible by 16 (a pointer: aligned to 16 bytes) and is not"
                                                                               : "was not divisible by 16 and is now")
                          : (was.spec1 ^ now.spec1) & bit ? (was.spec1 & bit ? "was 1 and is not" : "was not 1 and is now")
                          : ew[p] != en[p]                ? "is a tl_ptr of another dtype"
                                                          : NULL;
        if (why)
            return tile__error(TILE_ERR_ARG, k->name, o->file, o->line,
                               "tile_graph_set_args: launch %d (%s): argument %d (%s) %s, so it needs another variant than the one captured: capture "
                               "the graph again",
                               i, k->name, p + 1, k->params[p].name, why);
    }
    if (g->gpu) {
        tile__entry *e = (tile__entry *)l->e;
        tile__variant *v = (tile__variant *)l->v;
        if (!l->node || !tile__cu.cuGraphExecKernelNodeSetParams_v2)
            return tile__error(TILE_ERR_DRIVER, k->name, o->file, o->line,
                               "tile_graph_set_args: launch %d (%s): the driver %s", i, k->name,
                               l->node ? "cannot change a graph's kernel parameters (cuGraphExecKernelNodeSetParams, CUDA 12)"
                                       : "did not say which node of the graph it is (cuStreamGetCaptureInfo, CUDA 12)");
        if (e->has_descs && (st = tile__desc_check_args(&e->f, args)) != TILE_OK) return st;
        tile__params P;
        if ((st = tile__params_pack(&P, v, k, args, NULL)) != TILE_OK) return st;
        struct {   /* CUDA_KERNEL_NODE_PARAMS_v2 */
            CUfunction func;
            unsigned grid[3], block[3], smem;
            void **params, **extra;
            void *kern, *ctx;
        } np;
        memset(&np, 0, sizeof np);
        if ((st = tile__variant_fn(v, g->dev, k, o, &np.func)) != TILE_OK) return st;
        memcpy(np.grid, l->grid, sizeof np.grid);
        np.block[0] = (unsigned)v->meta.nthreads, np.block[1] = np.block[2] = 1;
        np.smem = (unsigned)v->meta.smem;
        np.params = P.launch_args;
        CUresult r = tile__cu.cuGraphExecKernelNodeSetParams_v2(g->exec, l->node, &np);
        if (r != CUDA_SUCCESS) return tile__cu_fail(r, TILE_ERR_DRIVER, k->name, o->file, o->line, "cuGraphExecKernelNodeSetParams");
    }
    if (k->nparams) memcpy(l->args, args, sizeof *args * (size_t)k->nparams);
    return TILE_OK;
}
