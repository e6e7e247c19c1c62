/* tile/compile.h — >>compile: the pipeline, from a kernel's body to code the
   device runs, one stage per line. TILE_DUMP=<stage> prints a stage's
   result; each stage runs once per variant.

       tile_kernel + meta-parameters ─ tile__build ───────────────── front half
         trace        the body runs once, its tl_* calls build the IR  (build.h)
         verify, fold, CSE, DCE, verify                                (passes.h)   ir
       tile__func + tile__config (tile__config_resolve: every default) ─ back half
         tile__compile:
           descs       tensor-descriptor accesses as pointer accesses,  (passes.h)
                       on a copy (the interpreter keeps them)
           plan        layouts, alignment facts, each loop's schedule  (plan.h)     ttgir
                       and its shared memory, for the emitter to come
           emit        lower the plan through an emitter: CUDA C, or   (lower*.h,   cuda | llir
                       the back end's own code (LLVM IR); a             emit_*.h)
                       tile__kernel_meta
           key         the disk key: config + what emit built + the    (cache.h)
                       back end's version; a hit loads, and ends here
           assemble    NVRTC, or the back end (LLVM: libdevice, O3)    (cuda.h)     ptx
           load        the driver's cubin (cuLink), into a module      (cuda.h)
           store       PTX, cubin and the meta record to the disk      (cache.h)
       launch: the record's threads and shared memory, the arguments   (runtime.h)

   The layers, bottom first (each header includes and calls only those below
   it; tests/layers.sh checks it):
       knobs.h  ir.h  build.h  passes.h      the environment, the IR, the front half
       emit.h  ptx.h  plan.h                 the emitter interface, its PTX rows, the plan
       lower.h  lower_sm80.h  lower_sm90.h   the lowering: its core, its sm_80 and sm_90a parts
       emit_cuda.h                           the CUDA C emitter
       cuda.h                                the driver and NVRTC tables
       device.h                              GPU or interpreter, memory, records, streams
       interp.h                              the interpreter
       cache.h                               the disk cache and a compiled variant
       compile.h                             this file
       aot.h                                 kernels shipped ahead of time
       runtime.h                             per-kernel entries, variants, the GPU launch
       tile_autotune.h                       the tuner
       launch.h                              the public entry points
   tile_backend_llvm.c includes knobs.h, ir.h and emit.h only. */

/* ---- the pipeline ---------------------------------------------------------------- */
static void tile__dump(const char *kernel, const char *stage, const char *text) {
    const tile__knob_values *kn = tile__knob_values_get();
    if (kn->dump_dir[0]) {
        char path[768];
        snprintf(path, sizeof path, "%.511s/%.200s.%.40s", kn->dump_dir, kernel, stage);
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
/* Trace, check and optimize a kernel for one launch configuration (elems:
   the dtypes of its tl_ptr parameters, tile__arg_elems). */
static tile_status tile__build_for(const tile_kernel *k, const tile_launch *opts, const tl_dtype *elems, tile__func *f) {
    double t0 = tile__host_ms();   /* >>backends: TILE_DUMP=times */
    tile_status st = tile__trace(k, opts, elems, f);
    if (st != TILE_OK) return st;
    if ((st = tile__verify(f)) != TILE_OK) goto fail;
    if (tile__fold(f) < 0 || tile__cse(f) < 0 || tile__dce(f) < 0) {
        st = tile__error(TILE_ERR_NOMEM, k->name, f->file, f->line, "out of host memory while optimizing the kernel");
        goto fail;
    }
    if ((st = tile__verify(f)) != TILE_OK) goto fail;
    if (tile__knobs_get()->dump_ir) {
        char *text = tile__print_func(f);
        if (text) tile__dump(f->dump_name, "ir", text);
        TILE_FREE(text);
    }
    if (tile__knobs_get()->dump_times) fprintf(stderr, "tile: %s: build IR (trace, verify, fold, CSE, DCE) %.2f ms\n", k->name, tile__host_ms() - t0);
    return TILE_OK;
fail:
    tile__func_free(f);
    return st;
}
/* a kernel without tl_ptr parameters (the tests call it) */
static inline tile_status tile__build(const tile_kernel *k, const tile_launch *opts, tile__func *f) { return tile__build_for(k, opts, NULL, f); }

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
        if (strcmp(tile__knob_values_get()->backend, tile__ext->name) == 0) return 0;
    }
    return tile__nvrtc_arch_ok(arch, why, n);
}
/* TILE_ARCH, once checked: "" when unset or when the back end cannot use it */
static char tile__arch_knob[32];
static pthread_once_t tile__arch_once = PTHREAD_ONCE_INIT;
static void tile__check_arch_knob(void) {
    const char *a = tile__knob_values_get()->arch;
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
           a->spec16 == b->spec16 && a->spec1 == b->spec1 && a->prof == b->prof && a->ktime == b->ktime;
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
    /* what the PTX depends on, for the disk key: the back end's version line
       and the code it built (job.key's first line and the rest; NVRTC's
       version and src) */
    const char *key_head, *key_code;
    char nvrtc_head[32];
} tile__emitted;
static tile_status tile__ext_lower(tile_backend_job *job, void *em) {
    return tile__lower_func((const tile__func *)job->func, (const tile__config *)job->config, (const tile__plan *)job->plan, (tile__emitter *)em,
                            (tile__kernel_meta *)job->meta);
}
/* 1 when the registered back end emits for cfg's target: it takes the
   target, or TILE_BACKEND names it (and it reports why it cannot) */
static int tile__emits_ext(const tile__config *cfg) {
    char why[400];
    if (!tile__ext_mode()) return 0;
    return strcmp(tile__knob_values_get()->backend, tile__ext->name) == 0 || !tile__ext->supports || tile__ext->supports(cfg->arch, why, sizeof why);
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
    memset(e, 0, sizeof *e);
}
/* the plan's notes (loop options it did not apply): each a notice once per
   process and line, or with TILE_STRICT=1 the error of the compile */
static tile_status tile__plan_notes(const tile__func *f, const tile__config *cfg, const tile__plan *p) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static uint64_t seen[256];
    static int nseen;
    for (int k = 0; k < p->nnotes; k++) {
        const tile__plan_note *n = &p->notes[k];
        if (tile__knob_values_get()->strict)
            return tile__error(TILE_ERR_OPTION, f->name, n->file, n->line, "%s (for %s, %d warps; TILE_STRICT=1)", n->text, cfg->arch, cfg->num_warps);
        const char *file = n->file ? n->file : "";
        uint64_t h = tile__fnv(tile__fnv(TILE__FNV0, file, strlen(file)), n->text, strlen(n->text)) ^ (uint64_t)n->line * 0x9e3779b97f4a7c15ull;
        int fresh = 1;
        pthread_mutex_lock(&lock);
        for (int q = 0; q < nseen && fresh; q++) fresh = seen[q] != h;
        if (fresh && nseen < 256) seen[nseen++] = h;
        pthread_mutex_unlock(&lock);
        if (fresh) tile__notice("%s:%d: %s (for %s, %d warps)", n->file ? n->file : f->name, n->line, n->text, cfg->arch, cfg->num_warps);
    }
    return TILE_OK;
}
/* plan: the layouts, the alignment facts and the loops' schedules of f for
   cfg, made for the emitter that takes it (ext: the registered back end's,
   else NVRTC's), with tile__plan_build's flags; TILE_DUMP=ttgir prints them */
static tile_status tile__plan_stage(const tile__func *f, const tile__config *cfg, int ext, int flags, tile__plan *p) {
    tile_status st = tile__plan_build(f, cfg, (ext && tile__ext->wgmma_async ? TILE__PLAN_ASYNC_OK : 0) | flags, p);
    if (st == TILE_OK && p->unroll > tile__knobs_get()->max_unroll) {
        /* >>unroll: at the line of the value that holds the most */
        const tile__value *big = &f->vals[p->unroll_big];
        char shape[64];
        st = tile__error(TILE_ERR_BLOCK, f->name, big->file, big->line,
                         "the kernel's code holds %lld tile elements per thread at %d warp%s, more than TILE_MAX_UNROLL=%lld (its compile "
                         "would take tens of seconds or more, and it would spill); the most, %d, in the %s %s made here: use more warps or smaller blocks",
                         p->unroll, cfg->num_warps, cfg->num_warps == 1 ? "" : "s", tile__knobs_get()->max_unroll, p->lay[p->unroll_big].E,
                         big->def >= 0 ? tile__op_name(f->ops[big->def].code) : "value", tile__shape_str(&big->t, shape, sizeof shape));
        tile__plan_free(p);
    }
    if (st == TILE_OK && (st = tile__plan_notes(f, cfg, p)) != TILE_OK) tile__plan_free(p);
    if (st == TILE_OK && tile__knobs_get()->dump_ttgir) {
        char *text = tile__plan_dump(p);   /* none when out of memory */
        if (text) tile__dump(f->dump_name, "ttgir", text);
        TILE_FREE(text);
    }
    return st;
}
/* emit: through the registered back end (ext), else NVRTC's CUDA C; a
   kernel the back end declines (a feature it lacks) goes to NVRTC, planned
   again when its plan would differ */
static tile_status tile__emit_stage(const tile__func *f, const tile__config *cfg, tile__plan *plan, int ext, tile__emitted *e,
                                    tile__kernel_meta *meta) {
    const tile__knobs *kn = tile__knobs_get();
    memset(e, 0, sizeof *e);
    memset(meta, 0, sizeof *meta);
    if (ext) {
        tile_backend_job *job = &e->job;
        e->ext = 1;
        job->func = f;
        job->config = cfg;
        job->plan = plan;
        job->meta = meta;
        job->name = f->name;
        job->arch = cfg->arch;
        job->lower = tile__ext_lower;
        job->error = tile__ext_error;
        job->dump = tile__dump;
        job->dump_llir = kn->dump_llir;
        job->times = kn->dump_times;
        job->emitter_size = (int)sizeof(tile__emitter);
        job->forced = strcmp(tile__knob_values_get()->backend, tile__ext->name) == 0;
        job->ntmaps = plan->ntmaps;
        job->prof = cfg->prof != TILE__KPROF_OFF;
        job->ktime = cfg->ktime;
        job->nthreads = tile__plan_threads(plan);
        job->min_ctas = plan->ws ? 1 : 0;
        tile_status st = tile__ext->emit(job);
        if (st == TILE_OK) {
            e->key_head = job->key;
            e->key_code = job->key + strcspn(job->key, "\n");
            return TILE_OK;
        }
        int fallback = job->unsupported && !job->forced;   /* a feature it lacks: NVRTC compiles it */
        tile__emitted_free(e);
        memset(meta, 0, sizeof *meta);
        if (!fallback) return st;
        if (plan->wgmma_async) {
            int flags = plan->flags & ~TILE__PLAN_ASYNC_OK;
            tile__plan_free(plan);
            if ((st = tile__plan_stage(f, cfg, 0, flags, plan)) != TILE_OK) return st;
        }
    }
    tile_status st = tile__cuda_source(f, cfg, plan, &e->src, meta);
    if (st != TILE_OK) return st;
    if (kn->dump_cuda) tile__dump(f->dump_name, "cuda", e->src);
    /* NVRTC's version is in the key: load it now, so that the key looked up
       and the key stored are the same */
    tile__nvrtc_available();
    snprintf(e->nvrtc_head, sizeof e->nvrtc_head, "nvrtc %d.%d", tile__nvrtc_st.major, tile__nvrtc_st.minor);
    e->key_head = e->nvrtc_head;
    e->key_code = e->src;
    return TILE_OK;
}
/* After an NVRTC failure: the generated source, in a new file of a unique
   name (mkstemp, 0600) in TILE_DUMP_DIR, else the cache directory, else
   $TMPDIR or /tmp, and the command that reproduces the failure. A fixed name
   in a shared directory could be a link planted by another user. */
static void tile__write_repro(const char *kernel, const char *src, const char *arch) {
    const char *dump = tile__knob_values_get()->dump_dir, *cache = tile_cache_dir(), *tmp = tile__knob_values_get()->tmpdir;
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
    if (st == TILE_OK && kn->dump_ptx) tile__dump(f->dump_name, "ptx", *ptx);
    return st;
}
/* >>tma: a tensor-descriptor load the copy engine may take on cfg: sm_90a
   with wgmma, a 2-D block of 16-bit or fp8 elements whose rows are a
   multiple of 128 bytes (whole swizzle atoms) and at most 256 of them, in
   a TL_FOR's body. The plan decides among these (tile__tma_ring; fp8 only
   for native fp8 dots, tile__ring_f8). */
static int tile__tma_candidate(const tile__func *f, const tile__config *cfg, const tile__op *op) {
    if (op->dead || op->code != TILE__OP_DESC_LOAD || cfg->hopper == TILE__HOPPER_OFF || !tile__knob_values_get()->tma) return 0;
    const tile__type *t = &f->vals[op->res].t;
    int owner = f->regs[op->parent].owner;
    int es = (int)tile__dt[t->dtype].bytes;
    return t->rank == 2 && (t->dtype == TL_F16 || t->dtype == TL_BF16 || tile__is_f8_native(t->dtype)) && t->shape[1] * es % 128 == 0 && t->shape[0] % 8 == 0 &&
           t->shape[0] <= 256 &&
           owner >= 0 && f->ops[owner].code == TILE__OP_FOR;
}
/* >>tma: a tensor-descriptor store or reduction (tl_desc_atomic_add, _min,
   _max: cp.reduce.async.bulk.tensor) the copy engine takes on cfg: sm_90a
   with wgmma, a 2-D block of 16- or 32-bit elements (the engine reduces
   f16, bf16, f32 with add only, i32 and u32) whose rows are whole 128-byte
   swizzle atoms, at most 256 of them and a multiple of 8, staged whole in
   shared memory; and the tensor's row length known to be a multiple of 16
   bytes (a parameter specialized as divisible by 16, or a constant): the
   engine writes whole 16-byte chunks, so past a row's end that is not one
   it would write (or reduce) the padding (seen on the H200: test_desc with
   N = 15 f32, the example at 4097x511x129) */
static int tile__tma_store_dtype(tl_dtype t, int kind) {
    /* the reductions and 32-bit stores: unless TILE_TMA_REDUCE=0. An H100 stops a
       kernel (CUDA_ERROR_ILLEGAL_INSTRUCTION) whose bulk tensor store or reduction starts
       at a negative coordinate or at a column off 16 bytes (a CUDA C++ kernel's too):
       tile__lower_desc_store_tma stores such a block element by element instead */
    if (!tile__knob_values_get()->tma_reduce) return kind == -1 && tile__dt[t].bytes == 2 && tile__is_float(t);
    if (kind == -1) return tile__dt[t].bytes == 2 || tile__dt[t].bytes == 4;
    if (kind == TL_ATOMIC_ADD) return t == TL_F16 || t == TL_BF16 || t == TL_F32 || t == TL_I32 || t == TL_U32;
    return (kind == TL_ATOMIC_MIN || kind == TL_ATOMIC_MAX) && (t == TL_F16 || t == TL_BF16 || t == TL_I32 || t == TL_U32);
}
static int tile__tma_store_candidate(const tile__func *f, const tile__config *cfg, const tile__op *op) {
    if (op->dead || op->code != TILE__OP_DESC_STORE || cfg->hopper == TILE__HOPPER_OFF || !tile__knob_values_get()->tma) return 0;
    const tile__type *t = &f->vals[f->pool[op->opnd + 1]].t;
    int es = (int)tile__dt[t->dtype].bytes;
    if (t->rank != 2 || !tile__tma_store_dtype(t->dtype, (int)op->i[0]) || t->shape[1] * es % 128 || t->shape[0] % 8 || t->shape[0] > 256) return 0;
    const tile__op *md = &f->ops[f->vals[f->pool[op->opnd]].def];
    int rank = (md->nopnd - 1) / 2, inner = f->pool[md->opnd + rank], d = f->vals[inner].def, q = tile__param_of(f, inner);
    if (q >= 0) return q < 64 && (cfg->spec16 >> q & 1);
    return d >= 0 && f->ops[d].code == TILE__OP_CONST && f->ops[d].i[0] * es % 16 == 0;
}
/* descs: the tensor-descriptor accesses the plan gives no copy-engine ring
   become pointer accesses (passes.h), on a copy of f, for the plan and the
   lowering; the interpreter runs them as they are. The candidates are kept
   for a first plan, which says which of them its TMA rings take. *g is f
   itself when it has none, else *own (free it with tile__func_free; it is
   zeroed either way). */
static tile_status tile__descs_stage(const tile__func *f, const tile__config *cfg, tile__func *own, const tile__func **g) {
    memset(own, 0, sizeof *own);
    *g = f;
    if (!tile__has_descs(f)) return TILE_OK;
    char *keep = (char *)tile__calloc((size_t)f->nops + 1, 1);
    int ncand = 0, ok = keep != NULL;
    for (int id = 0; ok && id < f->nops; id++)
        ncand += keep[id] = (char)(tile__tma_candidate(f, cfg, &f->ops[id]) || tile__tma_store_candidate(f, cfg, &f->ops[id]));
    if (ok && ncand) {
        /* plan with the candidates as they are; keep those its rings load */
        tile__plan plan;
        ok = tile__func_clone(own, f) && tile__desc_expand(own, keep);
        if (ok && tile__plan_build(own, cfg, 0, &plan) == TILE_OK) {
            memset(keep, 0, (size_t)f->nops + 1);
            for (int l = 0; l < plan.nloops; l++)
                if (plan.loops[l].kind == TILE__SCHED_TMA)
                    for (int q = 0; q < plan.loops[l].nloads; q++) keep[own->vals[plan.loops[l].loads[q]].def] = 1;
            for (int id = 0; id < f->nops; id++) keep[id] |= (char)(tile__plan_store_map(&plan, &own->ops[id]) > 0);   /* (the copy's op ids are f's) */
            tile__plan_free(&plan);
        } else {
            ok = 0;
        }
        tile__func_free(own);
    }
    ok = ok && tile__func_clone(own, f) && tile__desc_expand(own, keep);
    TILE_FREE(keep);
    if (!ok) {
        tile__func_free(own);
        return tile__error(TILE_ERR_NOMEM, f->name, f->file, f->line, "out of host memory while lowering the kernel's tensor descriptors");
    }
    tile_status st = tile__verify(own);
    if (st != TILE_OK) {
        tile__func_free(own);
        return st;
    }
    *g = own;
    return TILE_OK;
}
/* TILE_DUMP=ttgir without compiling: the plan the back end in use would get */
static tile_status tile__dump_ttgir(const tile__func *f, const tile__config *cfg) {
    tile__plan plan;
    tile__func own;
    const tile__func *g;
    tile_status st = tile__descs_stage(f, cfg, &own, &g);
    if (st == TILE_OK && (st = tile__plan_stage(g, cfg, tile__emits_ext(cfg), 0, &plan)) == TILE_OK) tile__plan_free(&plan);
    tile__func_free(&own);
    return st;
}
/* TILE_DUMP=cuda without compiling: NVRTC's plan and CUDA C of f */
static tile_status tile__dump_cuda(const tile__func *f, const tile__config *cfg) {
    tile__plan plan;
    tile__kernel_meta meta;
    tile__func own;
    const tile__func *g;
    char *src = NULL;
    tile_status st = tile__descs_stage(f, cfg, &own, &g);
    if (st == TILE_OK && (st = tile__plan_build(g, cfg, 0, &plan)) == TILE_OK) {
        if ((st = tile__cuda_source(g, cfg, &plan, &src, &meta)) == TILE_OK) tile__dump(g->dump_name, "cuda", src);
        tile__plan_free(&plan);
    }
    TILE_FREE(src);
    tile__func_free(&own);
    return st;
}
/* The pipeline's back half for one variant of a built kernel f. With v: the
   variant, loaded from the disk cache when an earlier process compiled the
   same code, else assembled, loaded (its cubin from the driver) and stored;
   without a GPU, its PTX. Without v: the PTX into *ptx, nothing cached (the
   dumps and tile_kernel_ptx), and its launch record into *meta_out when
   that is given (an export for another target). On failure v holds nothing. */
static tile_status tile__compile_to(const tile_kernel *k, const tile__func *f, const tile__config *cfg, tile__variant *v, char **ptx_out,
                                    tile__kernel_meta *meta_out) {
    const tile__knobs *kn = tile__knobs_get();
    tile__plan plan;
    tile__emitted em;
    tile__kernel_meta meta;
    char *ptx = NULL, *key = NULL, log[2048];
    int from_disk = 0;
    double t0 = tile__host_ms(), t1;                                         /* TILE_DUMP=times */
    int ext = tile__emits_ext(cfg);
    tile__func own;
    const tile__func *g;
    memset(&em, 0, sizeof em);
    memset(&plan, 0, sizeof plan);
    tile_status st = tile__descs_stage(f, cfg, &own, &g);
    if (st == TILE_OK) st = tile__plan_stage(g, cfg, ext, 0, &plan);                    /* ttgir */
    if (st == TILE_OK) st = tile__emit_stage(g, cfg, &plan, ext, &em, &meta);   /* cuda | llir */
    if (st == TILE_OK && plan.store_bufs && meta.smem > TILE__SM90_SMEM) {
        /* >>tma: the stores' own buffers and the scratch did not fit
           together (tile__plan_store_bufs guessed the scratch): without them */
        tile__emitted_free(&em);
        tile__plan_free(&plan);
        st = tile__plan_stage(g, cfg, ext, TILE__PLAN_NO_STORE_BUFS, &plan);
        if (st == TILE_OK) st = tile__emit_stage(g, cfg, &plan, ext, &em, &meta);
    }
    if (st == TILE_OK && v && (key = tile__kdisk_key(k, cfg, em.key_head, em.key_code)))      /* the disk key */
        from_disk = tile__kdisk_load(k, cfg, key, v);
    if (st == TILE_OK && !from_disk) {   /* counted while the back end holds its compiler (before the release) */
        tile__at_compiling_add(1);
        st = tile__assemble_stage(g, cfg, &em, &ptx);  /* ptx */
        tile__at_compiling_add(-1);
    }
    tile__emitted_free(&em);
    tile__plan_free(&plan);
    tile__func_free(&own);
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
        if (meta_out) *meta_out = meta;
        return TILE_OK;
    }
    free(ptx);
    if (st != TILE_OK && v) {
        free(v->ptx);
        free(v->image);
        v->ptx = v->image = NULL;
        v->mod = NULL;
        v->fn = NULL;
        memset(&v->meta, 0, sizeof v->meta);
    }
    return st;
}
static tile_status tile__compile(const tile_kernel *k, const tile__func *f, const tile__config *cfg, tile__variant *v, char **ptx_out) {
    return tile__compile_to(k, f, cfg, v, ptx_out, NULL);
}
