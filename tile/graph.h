/* tile/graph.h — >>graph: CUDA graphs. The launches made on a stream
   between tile_graph_begin and tile_graph_end are recorded instead of run;
   tile_graph_launch replays them, in order, for the host cost of one call.
   On a GPU this is the driver's stream capture (relaxed mode, so that a
   kernel compiled and loaded for the first time during the capture is
   fine) and an instantiated graph; in the interpreter a graph keeps each
   launch (kernel, options, arguments) and replays them through
   tile_launch_kernel. The launch path asks tile__graph_capturing whether
   its stream is being captured: a launch through a tuner that has not
   tuned for its arguments, and on a GPU a kernel with device checks (whose
   record is waited for and read after each launch), are errors there; a
   profile does not record the launches a graph captures (their replays
   run as one graph launch). */

enum { TILE__GRAPH_MAX_CAPTURES = 16, TILE__CU_CAPTURE_RELAXED = 2 };

/* one recorded launch: in the interpreter what is replayed; on a GPU what
   tile_graph_set_args needs (the variant, the entry, the driver's node) */
typedef struct tile__graph_launch {
    tile_kernel *k;
    tile_launch o;
    tile_arg *args;
    void *e, *v, *node;        /* GPU: its tile__entry and tile__variant, its CUgraphNode (NULL: not known) */
    unsigned grid[3];
} tile__graph_launch;
struct tile_graph_s {
    int gpu;
    int dev;                   /* the device it was captured on            */
    void *graph, *exec;        /* the driver's CUgraph and CUgraphExec    */
    tile__graph_launch *l;     /* the interpreter's launches               */
    int n, cap;
    int failed;                /* a recorded launch failed (interpreter)   */
    int lost;                  /* GPU: a launch's record was lost (out of memory) */
};
/* the streams being captured now, and the interpreter's graphs they fill */
static struct {
    pthread_mutex_t lock;
    int n;
    tile_stream s[TILE__GRAPH_MAX_CAPTURES];
    struct tile_graph_s *g[TILE__GRAPH_MAX_CAPTURES];
} tile__graphs = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}};

/* the capture of stream s (its index), or -1; with the lock held */
static int tile__graph_find_locked(tile_stream s) {
    for (int i = 0; i < tile__graphs.n; i++)
        if (tile__graphs.s[i] == s) return i;
    return -1;
}
static atomic_int tile__graph_ncap;   /* tile__graphs.n, for the launch path's one check */
/* 1 when launches on stream s are being captured (cheap when none is) */
static int tile__graph_capturing(tile_stream s) {
    if (!s || !atomic_load_explicit(&tile__graph_ncap, memory_order_acquire)) return 0;
    pthread_mutex_lock(&tile__graphs.lock);
    int at = tile__graph_find_locked(s);
    pthread_mutex_unlock(&tile__graphs.lock);
    return at >= 0;
}
/* 1 when stream s is being captured, by tile_graph_begin or by the user's own
   cuStreamBeginCapture (the driver asked; a GPU stream only) */
static int tile__stream_captured(tile_stream s) {
    if (tile__graph_capturing(s)) return 1;
    int status = 0;   /* CU_STREAM_CAPTURE_STATUS_ACTIVE is 1 */
    unsigned long long id = 0;
    void *graph = NULL, *const *deps = NULL;
    size_t ndeps = 0;
    return s && tile__gpu_mode() && tile__cu.cuStreamGetCaptureInfo_v2 &&
           tile__cu.cuStreamGetCaptureInfo_v2((CUstream)(void *)s, &status, &id, &graph, &deps, &ndeps) == CUDA_SUCCESS && status == 1;
}
static void tile__graph_free(struct tile_graph_s *g) {
    if (!g) return;
    for (int i = 0; i < g->n; i++) free(g->l[i].args);
    free(g->l);
    free(g);
}
/* interpreter: keep a launch on a captured stream instead of running it
   (its options and arguments copied; the memory they point to is the
   caller's, as in a CUDA graph). TILE_OK when it was kept; st_none when
   the stream is not captured. */
static tile_status tile__graph_record(tile_kernel *k, const tile_launch *o, const tile_arg *args, tile_status st_none) {
    if (!o->stream) return st_none;
    pthread_mutex_lock(&tile__graphs.lock);
    int at = tile__graph_find_locked(o->stream);
    struct tile_graph_s *g = at >= 0 && !tile__graphs.g[at]->gpu ? tile__graphs.g[at] : NULL;
    tile_status st = st_none;
    if (g) {
        tile__graph_launch *l = NULL;
        tile_arg *a = (tile_arg *)malloc(sizeof *a * (size_t)(k->nparams ? k->nparams : 1));
        if (a && g->n == g->cap) {
            int cap = g->cap ? 2 * g->cap : 16;
            tile__graph_launch *grown = (tile__graph_launch *)realloc(g->l, sizeof *grown * (size_t)cap);
            if (grown) g->l = grown, g->cap = cap;
        }
        if (a && g->n < g->cap) l = &g->l[g->n++];
        if (!l) {
            free(a);
            g->failed = 1;   /* the graph is incomplete: tile_graph_end says so */
            st = tile__error(TILE_ERR_NOMEM, k->name, o->file, o->line, "out of host memory while recording a launch into a graph");
        } else {
            if (k->nparams) memcpy(a, args, sizeof *a * (size_t)k->nparams);
            memset(l, 0, sizeof *l);
            l->k = k;
            l->o = *o;
            l->args = a;
            st = TILE_OK;
        }
    }
    pthread_mutex_unlock(&tile__graphs.lock);
    return st;
}
/* GPU: a kernel was just launched into the capture of o->stream; keep what
   tile_graph_set_args needs, with the node the capture made for it (the
   stream's one dependency now). Out of memory loses only the update. */
static void tile__graph_note_gpu(tile_kernel *k, const tile_launch *o, const tile_arg *args, void *e, void *v, const unsigned grid[3]) {
    int status = 0;
    unsigned long long id = 0;
    void *graph = NULL, *const *deps = NULL;
    size_t ndeps = 0;
    void *node = NULL;
    if (tile__cu.cuStreamGetCaptureInfo_v2 &&
        tile__cu.cuStreamGetCaptureInfo_v2((CUstream)(void *)o->stream, &status, &id, &graph, &deps, &ndeps) == CUDA_SUCCESS && ndeps == 1)
        node = deps[0];
    pthread_mutex_lock(&tile__graphs.lock);
    int at = tile__graph_find_locked(o->stream);
    struct tile_graph_s *g = at >= 0 && tile__graphs.g[at]->gpu ? tile__graphs.g[at] : NULL;
    if (g && g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 16;
        tile__graph_launch *grown = (tile__graph_launch *)realloc(g->l, sizeof *grown * (size_t)cap);
        if (grown) g->l = grown, g->cap = cap;
    }
    tile_arg *a = g && g->n < g->cap ? (tile_arg *)malloc(sizeof *a * (size_t)(k->nparams ? k->nparams : 1)) : NULL;
    if (a) {
        tile__graph_launch *l = &g->l[g->n++];
        memset(l, 0, sizeof *l);
        if (k->nparams) memcpy(a, args, sizeof *a * (size_t)k->nparams);
        l->k = k;
        l->o = *o;
        l->args = a;
        l->e = e;
        l->v = v;
        l->node = node;
        memcpy(l->grid, grid, sizeof l->grid);
    } else if (g) {
        g->lost = 1;   /* tile_graph_set_args then says which launches it cannot change */
    }
    pthread_mutex_unlock(&tile__graphs.lock);
}

tile_status tile_graph_begin(tile_stream s) {
    if (!s)
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0,
                           "tile_graph_begin: the default stream (NULL) cannot be captured; make a stream with tile_stream_create");
    struct tile_graph_s *g = (struct tile_graph_s *)calloc(1, sizeof *g);
    if (!g) return tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_graph_begin: out of host memory");
    g->gpu = tile__gpu_mode();
    g->dev = tile__dev_here();
    tile_status sst = tile__stream_here(s, "tile_graph_begin", NULL, NULL, 0);
    if (sst != TILE_OK) {
        free(g);
        return sst;
    }
    pthread_mutex_lock(&tile__graphs.lock);
    tile_status st = TILE_OK;
    if (tile__graph_find_locked(s) >= 0)
        st = tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_begin: the stream is being captured already (tile_graph_end ends a capture)");
    else if (tile__graphs.n == TILE__GRAPH_MAX_CAPTURES)
        st = tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_begin: %d streams are being captured already", TILE__GRAPH_MAX_CAPTURES);
    else if (g->gpu) {
        if (!tile__cu.cuStreamBeginCapture_v2 || !tile__cu.cuStreamEndCapture || !tile__cu.cuGraphInstantiateWithFlags || !tile__cu.cuGraphLaunch)
            st = tile__error(TILE_ERR_DRIVER, NULL, NULL, 0, "tile_graph_begin: the CUDA driver has no graph instantiation (a driver older than CUDA 11.4)");
        else {
            CUresult r = tile__cu.cuStreamBeginCapture_v2((CUstream)(void *)s, TILE__CU_CAPTURE_RELAXED);
            if (r != CUDA_SUCCESS) st = tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuStreamBeginCapture");
        }
    }
    if (st == TILE_OK) {
        tile__graphs.s[tile__graphs.n] = s;
        tile__graphs.g[tile__graphs.n++] = g;
        atomic_store_explicit(&tile__graph_ncap, tile__graphs.n, memory_order_release);
    } else {
        free(g);
    }
    pthread_mutex_unlock(&tile__graphs.lock);
    return st;
}
tile_status tile_graph_end(tile_stream s, tile_graph *graph) {
    if (!graph) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_end: the result pointer is NULL");
    *graph = NULL;
    pthread_mutex_lock(&tile__graphs.lock);
    int at = s ? tile__graph_find_locked(s) : -1;
    struct tile_graph_s *g = at >= 0 ? tile__graphs.g[at] : NULL;
    if (g) {
        tile__graphs.n--;
        tile__graphs.s[at] = tile__graphs.s[tile__graphs.n];
        tile__graphs.g[at] = tile__graphs.g[tile__graphs.n];
        atomic_store_explicit(&tile__graph_ncap, tile__graphs.n, memory_order_release);
    }
    pthread_mutex_unlock(&tile__graphs.lock);
    if (!g) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_end: the stream is not being captured (tile_graph_begin starts a capture)");
    tile_status st = TILE_OK;
    if (g->gpu) {
        CUresult r = tile__cu.cuStreamEndCapture((CUstream)(void *)s, &g->graph);
        if (r != CUDA_SUCCESS)
            st = tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0,
                               "cuStreamEndCapture (a call that waits on the stream, or on the default stream, during the capture ends it)");
        else if ((r = tile__cu.cuGraphInstantiateWithFlags(&g->exec, g->graph, 0)) != CUDA_SUCCESS)
            st = tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuGraphInstantiateWithFlags");
    } else if (g->failed) {
        st = tile__error(TILE_ERR_NOMEM, NULL, NULL, 0, "tile_graph_end: a launch could not be recorded (out of host memory)");
    }
    if (st != TILE_OK) {
        tile_graph_destroy(g);
        return st;
    }
    *graph = g;
    return TILE_OK;
}
tile_status tile_graph_launch(tile_graph g, tile_stream s) {
    if (!g) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_launch: the graph is NULL");
    if (g->gpu != tile__gpu_mode()) return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_launch: the graph is not this process's");
    if (s && tile__graph_capturing(s))
        return tile__error(TILE_ERR_VALUE, NULL, NULL, 0, "tile_graph_launch: the stream is being captured (graphs do not nest)");
    int here = tile__dev_here(), sd = s ? tile__stream_dev(s) : here;
    if (here != g->dev || (sd >= 0 && sd != g->dev))
        return tile__error(TILE_ERR_DEVICE, NULL, NULL, 0, "tile_graph_launch: the graph was captured on device %d, and %s device %d (tile_set_device)",
                           g->dev, here != g->dev ? "this thread's is" : "the stream belongs to", here != g->dev ? here : sd);
    if (g->gpu) {
        tile_status st = tile__rec_collect(0);   /* an earlier launch's failure known by now */
        if (st != TILE_OK) return st;
        CUresult r = tile__cu.cuGraphLaunch(g->exec, (CUstream)(void *)s);
        if (r != CUDA_SUCCESS) return tile__cu_fail(r, TILE_ERR_DRIVER, NULL, NULL, 0, "cuGraphLaunch");
        /* TILE_SYNC: the replay waited for, and a fault in it reported here (its
           launches were not waited for when they were captured) */
        return tile__knob_values_get()->sync ? tile__cu_sync_stream_at((CUstream)(void *)s, NULL, 0, "a graph's replay") : TILE_OK;
    }
    for (int i = 0; i < g->n; i++) {   /* in order, each on s, at its own line */
        tile_launch o = g->l[i].o;
        o.stream = s;
        tile_status st = tile_launch_kernel(g->l[i].k, &o, g->l[i].args);
        if (st != TILE_OK) return st;
    }
    return TILE_OK;
}
tile_status tile_graph_destroy(tile_graph g) {
    if (!g) return TILE_OK;
    tile_status st = TILE_OK;
    if (g->gpu) {
        if (g->exec && tile__cu.cuGraphExecDestroy && tile__cu.cuGraphExecDestroy(g->exec) != CUDA_SUCCESS)
            st = tile__error(TILE_ERR_DRIVER, NULL, NULL, 0, "cuGraphExecDestroy failed");
        if (g->graph && tile__cu.cuGraphDestroy && tile__cu.cuGraphDestroy(g->graph) != CUDA_SUCCESS)
            st = tile__error(TILE_ERR_DRIVER, NULL, NULL, 0, "cuGraphDestroy failed");
    }
    tile__graph_free(g);
    return st;
}
