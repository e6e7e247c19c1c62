/* tests/test_graph.c — CUDA graphs (tile_graph_*): launches on a stream
   between tile_graph_begin and tile_graph_end are recorded, not run, and
   each tile_graph_launch runs them again in order. Checked against float64
   references on fresh random inputs, outputs poisoned first:
   - two kernels chained through a buffer (out = 3 (2 x + y)): nothing runs
     while capturing, a replay gives the result, a second replay after new
     inputs are copied in gives the new result (the graph reads the memory,
     not a copy of it);
   - a chain of 100 launches adding 1 each, replayed twice: order and count;
   - a launch on another stream during a capture runs at once;
   - a launch through a tuner: captured once tuned, an error before;
   - the errors: the default stream, a second begin, an end without a
     begin, NULL pointers, a graph launched on a stream being captured; on
     a GPU, a kernel with device checks.
   In the interpreter a graph keeps the launches; on a GPU it is the
   driver's stream capture. */
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

TILE_KERNEL(axpy2, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n)) {
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t m = tl_lt(offs, n);
    tl_t v = tl_add(tl_mul(tl_load(tl_add(x, offs), .mask = m), 2.0), tl_load(tl_add(y, offs), .mask = m));
    tl_store(tl_add(out, offs), v, .mask = m);
}
TILE_KERNEL(scale3, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n)) {
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t m = tl_lt(offs, n);
    tl_store(tl_add(out, offs), tl_mul(tl_load(tl_add(x, offs), .mask = m), 3.0), .mask = m);
}
TILE_KERNEL(add1, (tl_ptr_f32, x), (tl_i32, n)) {
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t m = tl_lt(offs, n);
    tl_t p = tl_add(x, offs);
    tl_store(p, tl_add(tl_load(p, .mask = m), 1.0), .mask = m);
}
TILE_KERNEL(checked, (tl_ptr_f32, x), (tl_i32, n)) {
    tl_t offs = tl_arange(0, 64);
    tl_device_assert(tl_lt(offs, tl_add(n, 64)), "offs in range");
    tl_store(tl_add(x, offs), tl_zeros(TL_F32, 64), .mask = tl_lt(offs, n));
}

/* out[i] = 2 x[i] through a tensor descriptor made on the host (block 64, from .block) */
TILE_KERNEL(desc_double, (tl_desc, xd), (tl_ptr_f32, out), (tl_i32, n)) {
    tl_t offs = tl_add(tl_mul(tl_program_id(0), 64), tl_arange(0, 64));
    tl_store(tl_add(out, offs), tl_mul(tl_desc_load(xd, (tl_mul(tl_program_id(0), 64))), 2.0), .mask = tl_lt(offs, n));
}

enum { N = 1000 };
static unsigned blocks(int n, int b) { return (unsigned)((n + b - 1) / b); }
static tile_launch opts(tile_stream s, int line) {
    tile_launch o;
    memset(&o, 0, sizeof o);
    o.grid[0] = blocks(N, 128);
    o.stream = s;
    o.meta[0].name = "BLOCK";
    o.meta[0].value = 128;
    o.file = __FILE__;
    o.line = line;
    return o;
}
static void fill(float *h, int n) {
    for (int i = 0; i < n; i++) h[i] = (float)tt_uniform(-4, 4);
}
static int poisoned(const float *h, int n) {
    static const unsigned char p[4] = {0xA5, 0xA5, 0xA5, 0xA5};
    for (int i = 0; i < n; i++)
        if (memcmp(&h[i], p, 4) != 0) return 0;
    return 1;
}
static void tuned_grid(const tile_tune_args *a, unsigned g[3]) { g[0] = blocks((int)tile_tune_int(a, "n"), (int)tile_tune_meta(a, "BLOCK")); }

int main(void) {
    tt_seed();
    int gpu = strcmp(tile_backend_name(), "interp") != 0;
    printf("backend: %s\n", tile_backend_name());
    size_t bytes = N * sizeof(float);
    float *hx = malloc(bytes), *hy = malloc(bytes), *ht = malloc(bytes), *hz = malloc(bytes);
    float *x = tile_malloc(bytes), *y = tile_malloc(bytes), *t = tile_malloc(bytes), *z = tile_malloc(bytes), *c = tile_malloc(bytes);
    double want[N], got[N];
    if (!hx || !hy || !ht || !hz || !x || !y || !t || !z || !c) {
        printf("FAIL out of memory\n");
        return 1;
    }
    tile_stream s = NULL, other = NULL;
    TT_OK(tile_stream_create(&s));
    TT_OK(tile_stream_create(&other));

    /* ---- two kernels chained through t: z = 3 (2 x + y) ---- */
    fill(hx, N);
    fill(hy, N);
    tt_poison(ht, bytes);
    TT_OK(tile_memcpy_htod(x, hx, bytes));
    TT_OK(tile_memcpy_htod(y, hy, bytes));
    TT_OK(tile_memcpy_htod(t, ht, bytes));
    TT_OK(tile_memcpy_htod(z, ht, bytes));
    tile_graph g = NULL;
    TT_OK(tile_graph_begin(s));
    tile_launch o1 = opts(s, __LINE__), o2 = opts(s, __LINE__);
    TT_OK(axpy2(&o1, x, y, t, N));
    TT_OK(scale3(&o2, t, z, N));
    TT_OK(tile_graph_end(s, &g));
    TT_CHECK(g != NULL, "tile_graph_end gave no graph");
    TT_OK(tile_synchronize());
    TT_OK(tile_memcpy_dtoh(ht, t, bytes));
    TT_OK(tile_memcpy_dtoh(hz, z, bytes));
    TT_CHECK(poisoned(ht, N) && poisoned(hz, N), "a captured launch ran before the graph was launched");
    for (int round = 0; round < 2; round++) {
        if (round) {   /* new inputs in the same memory: the replay reads them */
            fill(hx, N);
            fill(hy, N);
            TT_OK(tile_memcpy_htod(x, hx, bytes));
            TT_OK(tile_memcpy_htod(y, hy, bytes));
            tt_poison(hz, bytes);
            TT_OK(tile_memcpy_htod(z, hz, bytes));
        }
        TT_OK(tile_graph_launch(g, s));
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_memcpy_dtoh(hz, z, bytes));
        for (int i = 0; i < N; i++) {
            want[i] = 3.0 * (double)(float)(2.0 * hx[i] + hy[i]);
            got[i] = hz[i];
        }
        tt_check_close(round ? "graph replay, new inputs" : "graph replay", got, want, N, 0, 1e-6);
    }
    /* ---- new arguments for the next replays (tile_graph_set_args): launch 0
       reads other buffers, launch 1 writes n - 1 elements ---- */
    {
        float *x2 = tile_malloc(bytes), *y2 = tile_malloc(bytes);
        TT_CHECK(x2 && y2, "tile_malloc");
        fill(hx, N);
        fill(hy, N);
        TT_OK(tile_memcpy_htod(x2, hx, bytes));
        TT_OK(tile_memcpy_htod(y2, hy, bytes));
        tt_poison(hz, bytes);
        TT_OK(tile_memcpy_htod(z, hz, bytes));
        tile_arg a0[4], a1[3];
        a0[0].p = x2, a0[1].p = y2, a0[2].p = t, a0[3].i = N;
        a1[0].p = t, a1[1].p = z, a1[2].i = N - 1;
        TT_OK(tile_graph_set_args(g, 0, a0));
        TT_OK(tile_graph_set_args(g, 1, a1));
        TT_OK(tile_graph_launch(g, s));
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_memcpy_dtoh(hz, z, bytes));
        for (int i = 0; i < N - 1; i++) want[i] = 3.0 * (double)(float)(2.0 * hx[i] + hy[i]), got[i] = hz[i];
        tt_check_close("graph replay after tile_graph_set_args", got, want, N - 1, 0, 1e-6);
        TT_CHECK(poisoned(hz + N - 1, 1), "tile_graph_set_args: launch 1 wrote past its new n");
        /* what needs another variant, and bad calls */
        a0[0].p = x2 + 1;   /* no longer aligned to 16 bytes */
        tile_status st = tile_graph_set_args(g, 0, a0);
        tt_check_user_error("tile_graph_set_args, a pointer no longer aligned", st, TILE_ERR_ARG, "test_graph.c", o1.line, "another variant");
        a1[2].i = 1;        /* an integer now 1 */
        st = tile_graph_set_args(g, 1, a1);
        tt_check_user_error("tile_graph_set_args, an integer now 1", st, TILE_ERR_ARG, "test_graph.c", o2.line, "was not 1 and is now");
        st = tile_graph_set_args(g, 2, a1);
        TT_CHECK(st == TILE_ERR_VALUE && strstr(tile_last_error(), "launch 2 of a graph of 2"), "tile_graph_set_args, no launch 2: %s", tile_last_error());
        st = tile_graph_set_args(g, 1, NULL);
        TT_CHECK(st == TILE_ERR_VALUE, "tile_graph_set_args, NULL arguments: %s", tile_last_error());
        st = tile_graph_set_args(NULL, 0, a1);
        TT_CHECK(st == TILE_ERR_VALUE, "tile_graph_set_args, NULL graph: %s", tile_last_error());
        int junk;
        a1[0].p = &junk;    /* not tile_malloc's */
        a1[2].i = N;
        st = tile_graph_set_args(g, 1, a1);
        TT_CHECK(st == TILE_ERR_ARG && strstr(tile_last_error(), "not memory from tile_malloc"), "tile_graph_set_args, host memory: %s", tile_last_error());
        /* the refused calls changed nothing: the replay is as before */
        tt_poison(hz, bytes);
        TT_OK(tile_memcpy_htod(z, hz, bytes));
        TT_OK(tile_graph_launch(g, s));
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_memcpy_dtoh(hz, z, bytes));
        for (int i = 0; i < N - 1; i++) got[i] = hz[i];
        tt_check_close("graph replay after refused tile_graph_set_args", got, want, N - 1, 0, 1e-6);
        tile_clear_error();
        tile_free(x2);
        tile_free(y2);
        TT_OK(tile_memcpy_htod(x, hx, bytes));   /* x and y hold hx and hy again, for what follows */
        TT_OK(tile_memcpy_htod(y, hy, bytes));
    }
    TT_OK(tile_graph_destroy(g));

    /* ---- 100 launches in order: x = 0, then x += 1 a hundred times, replayed twice ---- */
    memset(hz, 0, bytes);
    TT_OK(tile_memcpy_htod(c, hz, bytes));
    tt_poison(ht, bytes);
    TT_OK(tile_memcpy_htod(t, ht, bytes));   /* (before: a copy on the default stream would end the capture) */
    TT_OK(tile_graph_begin(s));
    for (int i = 0; i < 100; i++) {
        tile_launch o = opts(s, __LINE__);
        TT_OK(add1(&o, c, N));
    }
    /* a launch on another stream runs now, not in the graph */
    tile_launch ot = opts(other, __LINE__);
    TT_OK(axpy2(&ot, x, y, t, N));
    TT_OK(tile_stream_synchronize(other));
    TT_OK(tile_graph_end(s, &g));
    TT_OK(tile_memcpy_dtoh(ht, t, bytes));
    for (int i = 0; i < N; i++) want[i] = (double)(float)(2.0 * hx[i] + hy[i]), got[i] = ht[i];
    tt_check_close("a launch on another stream during a capture", got, want, N, 0, 1e-6);
    for (int r = 1; r <= 2; r++) {
        TT_OK(tile_graph_launch(g, s));
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_memcpy_dtoh(hz, c, bytes));
        for (int i = 0; i < N; i++) want[i] = 100.0 * r, got[i] = hz[i];
        tt_check_close(r == 1 ? "100 captured launches" : "100 captured launches, again", got, want, N, 0, 0);
    }
    TT_OK(tile_graph_destroy(g));

    /* ---- a tuner: an error before it has tuned for the arguments, captured after ---- */
    static const tile_autotune_config cfgs[] = {{.meta = {{"BLOCK", 128}}, .num_warps = 4}, {.meta = {{"BLOCK", 256}}, .num_warps = 4}};
    static tile_autotuner tuner = {.key = {"n"}, .grid = tuned_grid, TILE_AUTOTUNE_CONFIGS(cfgs)};
    tile_launch ou;
    memset(&ou, 0, sizeof ou);
    ou.stream = s;
    ou.tune = &tuner;
    ou.file = __FILE__;
    TT_OK(tile_graph_begin(s));
    ou.line = __LINE__;
    tile_status st = scale3(&ou, x, t, N);
    tt_check_user_error("a tuner that has not tuned, in a capture", st, TILE_ERR_LAUNCH, "test_graph.c", ou.line, "launch it once before tile_graph_begin");
    TT_OK(tile_graph_end(s, &g));
    TT_OK(tile_graph_destroy(g));
    ou.stream = NULL;
    TT_OK(scale3(&ou, x, t, N));   /* tunes */
    ou.stream = s;
    tt_poison(ht, bytes);
    TT_OK(tile_memcpy_htod(t, ht, bytes));
    TT_OK(tile_graph_begin(s));
    TT_OK(scale3(&ou, x, t, N));
    TT_OK(tile_graph_end(s, &g));
    TT_OK(tile_graph_launch(g, s));
    TT_OK(tile_stream_synchronize(s));
    TT_OK(tile_memcpy_dtoh(ht, t, bytes));
    for (int i = 0; i < N; i++) want[i] = 3.0 * hx[i], got[i] = ht[i];
    tt_check_close("a tuned launch in a graph", got, want, N, 0, 1e-6);
    TT_OK(tile_graph_destroy(g));

    /* ---- errors ---- */
    const tile_error *e = tile_last_error_info();
    st = tile_graph_begin(NULL);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(e->message, "default stream"), "begin on NULL: %s", tile_last_error());
    TT_OK(tile_graph_begin(s));
    st = tile_graph_begin(s);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(e->message, "captured already"), "begin twice: %s", tile_last_error());
    st = tile_graph_end(s, NULL);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(e->message, "result pointer"), "end into NULL: %s", tile_last_error());
    TT_OK(tile_graph_end(s, &g));   /* an empty graph */
    tile_graph none = g;
    st = tile_graph_end(s, &none);
    TT_CHECK(st == TILE_ERR_VALUE && none == NULL && strstr(e->message, "not being captured"), "end without begin: %s", tile_last_error());
    st = tile_graph_launch(NULL, s);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(e->message, "NULL"), "launch NULL: %s", tile_last_error());
    TT_OK(tile_graph_launch(g, s));   /* the empty graph runs nothing */
    tile_graph g2 = NULL;
    TT_OK(tile_graph_begin(other));
    st = tile_graph_launch(g, other);
    TT_CHECK(st == TILE_ERR_VALUE && strstr(e->message, "do not nest"), "launch into a capture: %s", tile_last_error());
    TT_OK(tile_graph_end(other, &g2));
    TT_OK(tile_graph_destroy(g2));
    TT_OK(tile_graph_destroy(g));
    TT_OK(tile_graph_destroy(NULL));
    if (gpu) {   /* device checks are read after each launch: not in a graph */
        TT_OK(tile_graph_begin(s));
        tile_launch oc;
        memset(&oc, 0, sizeof oc);
        oc.grid[0] = 1;
        oc.stream = s;
        oc.file = __FILE__;
        oc.line = __LINE__;
        st = checked(&oc, c, 10);
        tt_check_user_error("a kernel with device checks, in a capture", st, TILE_ERR_LAUNCH, "test_graph.c", oc.line, "device checks");
        TT_OK(tile_graph_end(s, &g));
        TT_OK(tile_graph_destroy(g));
    } else {
        printf("skipped (no GPU): a kernel with device checks in a capture is a GPU-only error\n");
    }

    /* ---- a kernel with a tensor descriptor made on the host: captured, replayed, then
       tile_graph_set_args with another descriptor of the same specialization (another
       base, a shorter shape: zeros past it); one of another block is refused ---- */
    {
        float *x2 = tile_malloc(bytes);
        TT_CHECK(x2 != NULL, "tile_malloc");
        fill(hx, N);
        fill(hy, N);
        TT_OK(tile_memcpy_htod(x, hx, bytes));
        TT_OK(tile_memcpy_htod(x2, hy, bytes));
        tt_poison(hz, bytes);
        TT_OK(tile_memcpy_htod(z, hz, bytes));
        tile_tensor_desc d1 = {.base = x, .dtype = TL_F32, .rank = 1, .shape = {N}, .strides = {1}, .block = {64}};
        tile_tensor_desc d2 = {.base = x2, .dtype = TL_F32, .rank = 1, .shape = {N / 2}, .strides = {1}, .block = {64}};
        tile_launch od = opts(s, __LINE__);
        od.grid[0] = blocks(N, 64);
        tile_graph gd = NULL;
        TT_OK(tile_graph_begin(s));
        TT_OK(desc_double(&od, &d1, z, N));
        TT_OK(tile_graph_end(s, &gd));
        TT_OK(tile_graph_launch(gd, s));
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_memcpy_dtoh(hz, z, bytes));
        for (int i = 0; i < N; i++) want[i] = 2.0 * hx[i], got[i] = hz[i];
        tt_check_close("graph of a host-descriptor kernel", got, want, N, 0, 0);
        tile_arg ad[3];
        ad[0].p = &d2, ad[0].elem = TL_DESC, ad[1].p = z, ad[2].i = N;
        TT_OK(tile_graph_set_args(gd, 0, ad));
        TT_OK(tile_graph_launch(gd, s));
        TT_OK(tile_stream_synchronize(s));
        TT_OK(tile_memcpy_dtoh(hz, z, bytes));
        for (int i = 0; i < N; i++) want[i] = i < N / 2 ? 2.0 * hy[i] : 0.0, got[i] = hz[i];
        tt_check_close("graph of a host-descriptor kernel after tile_graph_set_args", got, want, N, 0, 0);
        d2.block[0] = 128;
        tile_status st = tile_graph_set_args(gd, 0, ad);
        tt_check_user_error("tile_graph_set_args, a descriptor of another block", st, TILE_ERR_ARG, "test_graph.c", od.line, "another variant");
        TT_OK(tile_graph_destroy(gd));
        tile_free(x2);
    }

    TT_OK(tile_stream_destroy(s));
    TT_OK(tile_stream_destroy(other));
    tile_free(x), tile_free(y), tile_free(t), tile_free(z), tile_free(c);
    free(hx), free(hy), free(ht), free(hz);
    tile_autotune_release(&tuner);
    tile_kernel_release(TILE_KERNEL_OF(axpy2));
    tile_kernel_release(TILE_KERNEL_OF(scale3));
    tile_kernel_release(TILE_KERNEL_OF(add1));
    tile_kernel_release(TILE_KERNEL_OF(checked));
    tile_kernel_release(TILE_KERNEL_OF(desc_double));
    return tt_finish("test_graph");
}
