/* tile/launch.h — >>launch: the public entry points that take a kernel:
   tile_launch_kernel (through the tuner when the launch has one, as
   Triton's Autotuner wraps the JIT function), tile_kernel_ptx and
   tile_kernel_ir. The top layer: it calls the runtime and the tuner. */
static tile_status tile__launch_run(tile_kernel *k, const tile_launch *o, const tile_arg *args, const unsigned grid[3], tile__prof_tok tok);
tile_status tile_launch_kernel(tile_kernel *k, const tile_launch *opts, const tile_arg *args) {
    static const tile_launch defaults;
    const tile_launch *o = opts ? opts : &defaults;
    unsigned grid[3];
    tile_status st = tile__check_kernel("tile_launch_kernel", k, o, args, 1, NULL, 0);
    if (st != TILE_OK) return st;
    if (tile__not_nested(k, o) != TILE_OK) return TILE_ERR_CONTEXT;
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
    tile__graph_launch *l = &g->l[i];
    tile_kernel *k = l->k;
    const tile_launch *o = &l->o;
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
        np.func = v->fn;
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
