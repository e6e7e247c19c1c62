/* tests/test_devices.c — several devices in one process: tile_set_device per
   host thread, memory, streams, events and graphs that belong to a device,
   peer access and copies between devices, and 8 threads launching different
   specializations of one kernel on two devices at once, every result
   checked against float64.

   On a GPU machine the devices are the GPUs (with one GPU the two-device
   parts say they are skipped); without one the interpreter presents two
   devices (TILE_INTERPRET_DEVICES=2, set here unless given), so every check
   runs on a laptop. TEST_DEVICES_SECONDS (default 1) is how long the
   threads run.

   TEST_DEVICES_FAKE=1, with TILE_CUDA naming tests/cuda_fake.c's library (a
   driver with two devices whose kernels do not run; CTest's
   test_devices_fake_driver): the GPU runtime's side of several devices,
   contexts, per-device modules, streams, events, peer access and copies,
   without GPUs. The kernels' outputs are then not checked (nothing runs
   them); every status is, and the fake driver refuses a launch of a
   function of another context or on another context's stream, and counts
   launches and modules per device. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"

#include "test_util.h"

#include <dlfcn.h>
#include <pthread.h>

static int fake_driver;   /* TEST_DEVICES_FAKE=1: kernels do not run, their outputs are not checked */
static int managed;       /* TILE_MANAGED=1 on a GPU: tile_malloc's memory is every device's */

/* y = x * a + i, x of any float dtype (a specialization each), BLOCK a meta-parameter */
TILE_KERNEL(dev_axpi, (tl_ptr, x), (tl_ptr_f32, y), (tl_f32, a), (tl_i32, n))
{
    int BLOCK = TL_META(BLOCK);
    tl_t offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask = tl_lt(offs, n);
    tl_t v = tl_cast(tl_load(tl_add(x, offs), .mask = mask), TL_F32);
    tl_store(tl_add(y, offs), tl_add(tl_mul(v, a), tl_cast(offs, TL_F32)), .mask = mask);
}

/* The inputs of one launch on the host, and the float64 answer. */
typedef struct job {
    tl_dtype dt;   /* x's dtype: TL_F32 or TL_F16 */
    int n, block;
    float a;
    void *hx;
    double *want;
} job;
static int job_make(job *j, tl_dtype dt, int n, int block, uint64_t *rng)
{
    j->dt = dt, j->n = n, j->block = block;
    size_t es = dt == TL_F16 ? 2 : 4;
    j->hx = malloc(es * (size_t)n);
    j->want = (double *)malloc(sizeof(double) * (size_t)n);
    if (!j->hx || !j->want) return 0;
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    j->a = (float)((double)(*rng >> 40) / (double)(1 << 24) * 4 - 2);
    for (int i = 0; i < n; i++) {
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(*rng >> 11) / 9007199254740992.0 * 2 - 1;
        tt_val tv;
        tv.f = v;
        tt_put(dt, j->hx, (size_t)i, tv);
        j->want[i] = tt_get(dt, j->hx, (size_t)i).f * (double)j->a + i;
    }
    return 1;
}
static void job_free(job *j)
{
    free(j->hx);
    free(j->want);
}
/* y against the answer: the elements that differ (one f32 rounding of each product and sum) */
static int job_bad(const job *j, const float *y)
{
    int bad = 0;
    if (fake_driver) return 0;
    for (int i = 0; i < j->n; i++)
        if (!tt_close(y[i], j->want[i], 1e-5, 1e-6)) bad++;
    return bad;
}
/* Upload x to this thread's device, launch on `stream`, read y back:
   TILE_OK and *bad = elements wrong, or the first failing call's status. */
static tile_status job_run(const job *j, void *stream, int *bad)
{
    size_t es = j->dt == TL_F16 ? 2 : 4;
    void *x = tile_malloc(es * (size_t)j->n);
    float *y = (float *)tile_malloc(sizeof(float) * (size_t)j->n), *hy = (float *)malloc(sizeof(float) * (size_t)j->n);
    tile_status st = x && y && hy ? TILE_OK : TILE_ERR_NOMEM;
    if (st == TILE_OK) st = tile_memcpy_htod(x, j->hx, es * (size_t)j->n);
    if (st == TILE_OK) st = tile_memset(y, 0xff, sizeof(float) * (size_t)j->n);   /* NaN: a lane never written shows */
    if (st == TILE_OK)
        st = dev_axpi(TILE_OPTS(.grid = {(unsigned)tile_cdiv(j->n, j->block)}, .meta = {{"BLOCK", j->block}}, .stream = stream), TILE_PTR(x, j->dt), y, j->a,
                      j->n);
    if (st == TILE_OK && stream) st = tile_stream_synchronize((tile_stream)stream);
    if (st == TILE_OK) st = tile_memcpy_dtoh(hy, y, sizeof(float) * (size_t)j->n);
    if (st == TILE_OK) *bad = job_bad(j, hy);
    tile_free(x);
    tile_free(y);
    free(hy);
    return st;
}

/* ---- the error paths: a bad device number --------------------------------------------- */
static void test_bad_numbers(int ndev)
{
    int before = tile_get_device();
    tile_status st = tile_set_device(-1);
    TT_CHECK(st == TILE_ERR_DEVICE && tile_last_error_info()->status == TILE_ERR_DEVICE && strstr(tile_last_error(), "tile_set_device(-1)"),
             "tile_set_device(-1): %s %s", tile_status_id(st), tile_last_error());
    st = tile_set_device(ndev);
    TT_CHECK(st == TILE_ERR_DEVICE && strstr(tile_last_error(), "no such device"), "tile_set_device(%d): %s %s", ndev, tile_status_id(st),
             tile_last_error());
    st = tile_set_device(1 << 20);
    TT_CHECK(st == TILE_ERR_DEVICE, "tile_set_device(2^20): %s", tile_status_id(st));
    TT_CHECK(tile_get_device() == before, "a failed tile_set_device changed the device: %d, was %d", tile_get_device(), before);
    st = tile_device_enable_peer(ndev);
    TT_CHECK(st == TILE_ERR_DEVICE, "tile_device_enable_peer(%d): %s", ndev, tile_status_id(st));
    st = tile_device_enable_peer(before);   /* itself: nothing to do */
    TT_CHECK(st == TILE_OK, "tile_device_enable_peer(itself): %s %s", tile_status_id(st), tile_last_error());
    tile_clear_error();
}

/* ---- two devices: what belongs to device 1 used on device 0 ------------------------------ */
static void test_two_devices(uint64_t *rng)
{
    job j;
    int bad = -1;
    TT_CHECK(job_make(&j, TL_F32, 1000, 128, rng), "out of host memory");
    TT_OK(tile_set_device(1));
    TT_CHECK(tile_get_device() == 1, "tile_get_device() = %d after tile_set_device(1)", tile_get_device());
    tile_stream s1 = NULL;
    tile_event e1 = NULL;
    TT_OK(tile_stream_create(&s1));
    TT_OK(tile_event_create(&e1));
    float *x1 = (float *)tile_malloc(sizeof(float) * 1000), *y1 = (float *)tile_malloc(sizeof(float) * 1000);
    TT_CHECK(x1 && y1, "tile_malloc on device 1: %s", tile_last_error());
    TT_OK(tile_memcpy_htod(x1, j.hx, sizeof(float) * 1000));
    /* on device 1 with its own stream: right */
    tile_status st = job_run(&j, s1, &bad);
    TT_CHECK(st == TILE_OK && bad == 0, "device 1, its stream: %s, %d wrong: %s", tile_status_id(st), bad, tile_last_error());

    TT_OK(tile_set_device(0));
    float *y0 = (float *)tile_malloc(sizeof(float) * 1000), *x0 = (float *)tile_malloc(sizeof(float) * 1000);
    TT_CHECK(y0 && x0, "tile_malloc on device 0: %s", tile_last_error());
    TT_OK(tile_memset(y0, 0xff, sizeof(float) * 1000));
    /* device 1's stream in a launch on device 0 */
    int line = __LINE__ + 1;
    st = dev_axpi(TILE_OPTS(.grid = {8}, .meta = {{"BLOCK", 128}}, .stream = s1), TILE_PTR(x0, TL_F32), y0, 1.0f, 1000);
    tt_check_user_error("device 1's stream on device 0", st, TILE_ERR_DEVICE, "test_devices.c", line, "the stream belongs to device 1");
    /* device 1's memory in a launch on device 0, without peer access (unified
       memory, TILE_MANAGED=1 on a GPU, is every device's) */
    line = __LINE__ + 1;
    st = dev_axpi(TILE_OPTS(.grid = {8}, .meta = {{"BLOCK", 128}}), TILE_PTR(x1, TL_F32), y0, j.a, 1000);
    if (managed) TT_CHECK(st == TILE_OK, "unified memory of device 1 on device 0: %s %s", tile_status_id(st), tile_last_error());
    else tt_check_user_error("device 1's memory on device 0", st, TILE_ERR_DEVICE, "test_devices.c", line, "is memory of device 1");
    /* an event of device 1 recorded on device 0's stream */
    st = tile_event_record(e1, NULL);
    TT_CHECK(st == TILE_ERR_DEVICE || (st != TILE_OK && tile_device_count() && !fake_driver),
             "device 1's event recorded on device 0's default stream: %s", tile_status_id(st));
    tile_clear_error();

    /* a copy across devices: device 1's x into device 0's x0 */
    float *h = (float *)malloc(sizeof(float) * 1000);
    TT_OK(tile_memset(x0, 0xff, sizeof(float) * 1000));
    TT_OK(tile_memcpy_dtod(x0, x1, sizeof(float) * 1000));
    TT_OK(tile_memcpy_dtoh(h, x0, sizeof(float) * 1000));
    TT_CHECK(h && memcmp(h, j.hx, sizeof(float) * 1000) == 0, "tile_memcpy_dtod from device 1 to device 0 changed the data");
    tt_checks++;

    /* with peer access, device 0 reads device 1's memory in place */
    st = tile_device_enable_peer(1);
    if (st == TILE_ERR_DEVICE) {
        printf("test_devices: device 0 cannot reach device 1's memory (%s): the peer launch skipped\n", tile_last_error());
        tile_clear_error();
    } else {
        TT_OK(st);
        TT_OK(dev_axpi(TILE_OPTS(.grid = {8}, .meta = {{"BLOCK", 128}}), TILE_PTR(x1, TL_F32), y0, j.a, 1000));
        TT_OK(tile_memcpy_dtoh(h, y0, sizeof(float) * 1000));
        bad = job_bad(&j, h);
        TT_CHECK(bad == 0, "device 0 reading device 1's memory (peer): %d wrong", bad);
    }

    /* a graph captured on device 1 replays there, not on device 0 (the fake driver has no graphs) */
    tile_graph g = NULL;
    if (fake_driver) goto graphs_done;
    TT_OK(tile_set_device(1));
    TT_OK(tile_memset(y1, 0xff, sizeof(float) * 1000));
    TT_OK(tile_graph_begin(s1));
    st = dev_axpi(TILE_OPTS(.grid = {8}, .meta = {{"BLOCK", 128}}, .stream = s1), TILE_PTR(x1, TL_F32), y1, j.a, 1000);
    TT_OK(st);
    TT_OK(tile_graph_end(s1, &g));
    TT_OK(tile_set_device(0));
    st = tile_graph_launch(g, NULL);
    TT_CHECK(st == TILE_ERR_DEVICE && strstr(tile_last_error(), "captured on device 1"), "device 1's graph on device 0: %s %s", tile_status_id(st),
             tile_last_error());
    TT_OK(tile_set_device(1));
    TT_OK(tile_graph_launch(g, s1));
    TT_OK(tile_stream_synchronize(s1));
    TT_OK(tile_memcpy_dtoh(h, y1, sizeof(float) * 1000));
    bad = job_bad(&j, h);
    TT_CHECK(bad == 0, "device 1's graph replayed: %d wrong", bad);
    TT_OK(tile_graph_destroy(g));
graphs_done:

    /* tile_free of device 1's memory from device 0 */
    TT_OK(tile_set_device(0));
    TT_OK(tile_free(x1));
    TT_OK(tile_free(y1));
    TT_OK(tile_free(x0));
    TT_OK(tile_free(y0));
    TT_OK(tile_stream_destroy(s1));
    TT_OK(tile_event_destroy(e1));
    free(h);
    job_free(&j);
}

/* ---- 8 threads on two devices ---------------------------------------------------------- */
typedef struct worker {
    int id, dev;
    double seconds;
    uint64_t rng;
    long runs, checks, bad, failed;
    char first[1200];
} worker;
static void *work(void *p)
{
    worker *w = (worker *)p;
    static const int blocks[] = {64, 128, 256};
    if (tile_set_device(w->dev) != TILE_OK) {
        w->failed++;
        snprintf(w->first, sizeof w->first, "tile_set_device(%d): %s", w->dev, tile_last_error());
        return NULL;
    }
    tile_stream s = NULL;
    if (w->id % 2 && tile_stream_create(&s) != TILE_OK) s = NULL;   /* half the threads on a stream of their own */
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &b);
        if ((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) > w->seconds && w->runs >= 6) break;
        w->rng = w->rng * 6364136223846793005ull + 1442695040888963407ull;
        int pick = (int)(w->rng >> 33);
        job j;
        if (!job_make(&j, pick % 2 ? TL_F16 : TL_F32, 1 + (pick >> 4) % 3000, blocks[(pick >> 1) % 3], &w->rng)) {
            job_free(&j);
            w->failed++;
            snprintf(w->first, sizeof w->first, "out of host memory");
            break;
        }
        int bad = 0;
        tile_status st = job_run(&j, s, &bad);
        w->runs++;
        w->checks += j.n;
        if (st != TILE_OK) {
            if (!w->failed++) snprintf(w->first, sizeof w->first, "%s", tile_last_error());
        } else if (bad) {
            if (!w->bad) snprintf(w->first, sizeof w->first, "device %d, x %s, n %d, BLOCK %d: %d wrong", w->dev, tile_dtype_name(j.dt), j.n, j.block, bad);
            w->bad += bad;
        }
        job_free(&j);
        if (tile_get_device() != w->dev) {
            w->failed++;
            snprintf(w->first, sizeof w->first, "the thread's device changed to %d", tile_get_device());
            break;
        }
    }
    tile_stream_destroy(s);
    return NULL;
}
static void test_threads(int ndev, uint64_t seed)
{
    enum { T = 8 };
    const char *env = getenv("TEST_DEVICES_SECONDS");
    double secs = env && *env ? atof(env) : 1.0;
    int nuse = ndev >= 2 ? 2 : 1;
    worker w[T];
    pthread_t th[T];
    memset(w, 0, sizeof w);
    for (int t = 0; t < T; t++) {
        w[t].id = t, w[t].dev = t % nuse, w[t].seconds = secs, w[t].rng = seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(t + 1));
        TT_CHECK(pthread_create(&th[t], NULL, work, &w[t]) == 0, "pthread_create");
    }
    long runs = 0, checks = 0;
    for (int t = 0; t < T; t++) {
        pthread_join(th[t], NULL);
        runs += w[t].runs, checks += w[t].checks;
        TT_CHECK(w[t].failed == 0 && w[t].bad == 0, "thread %d (device %d): %ld failed launches, %ld wrong elements; first: %s", t, w[t].dev, w[t].failed,
                 w[t].bad, w[t].first);
    }
    if (!fake_driver) tt_checks += (int)(checks > 1000000 ? 1000000 : checks);
    printf("test_devices: %d threads on %d device%s for %.1f s: %ld launches, %ld elements %s\n", T, nuse, nuse == 1 ? "" : "s", secs, runs, checks,
           fake_driver ? "(not checked: the fake driver runs no kernels)" : "checked");
}

/* a new thread starts on the default device */
static void *ask_device(void *p)
{
    *(int *)p = tile_get_device();
    return NULL;
}

/* The fake driver's counts of launches and modules on device d (-1: not there) */
static long fake_count(const char *what, int d)
{
    const char *path = getenv("TILE_CUDA");
    void *h = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    long (*fn)(int) = NULL;
    void *sym = h ? dlsym(h, what) : NULL;
    memcpy(&fn, &sym, sizeof fn);
    long n = fn ? fn(d) : -1;
    if (h) dlclose(h);
    return n;
}

int main(void)
{
    setenv("TILE_INTERPRET_DEVICES", "2", 0);   /* the interpreter's devices (a GPU machine's are its GPUs) */
    fake_driver = getenv("TEST_DEVICES_FAKE") && atoi(getenv("TEST_DEVICES_FAKE"));
    if (fake_driver && strcmp(tile_backend_name(), "interp") == 0) {
        printf("test_devices: skipped: TEST_DEVICES_FAKE=1, but kernels run in the interpreter (no NVRTC or libLLVM to compile them, or TILE_CUDA=%s "
               "did not load: %s)\n", getenv("TILE_CUDA") ? getenv("TILE_CUDA") : "(unset)", tile_last_error());
        return 0;
    }
    tt_seed();
    const char *mg = getenv("TILE_MANAGED");
    managed = tile_device_count() > 0 && strcmp(tile_backend_name(), "interp") != 0 && mg &&
              (strcmp(mg, "1") == 0 || strcmp(mg, "yes") == 0 || strcmp(mg, "on") == 0 || strcmp(mg, "true") == 0);
    uint64_t rng = (uint64_t)tt_next();
    int gpus = tile_device_count();
    int ndev = gpus ? gpus : atoi(getenv("TILE_INTERPRET_DEVICES"));
    char name[256];
    TT_OK(tile_device_name(name, sizeof name));
    printf("test_devices: %d device%s (%s), device 0: %s\n", ndev, ndev == 1 ? "" : "s", gpus ? "GPUs" : "the interpreter's", name);
    TT_CHECK(tile_get_device() == 0 || getenv("TILE_DEVICE"), "the first device is %d", tile_get_device());

    test_bad_numbers(ndev);
    if (ndev >= 2) test_two_devices(&rng);
    else printf("test_devices: one device: the two-device checks skipped\n");
    test_threads(ndev, rng);
    if (fake_driver)
        for (int d = 0; d < 2; d++) {
            long l = fake_count("cuda_fake_launches", d), m = fake_count("cuda_fake_modules", d);
            TT_CHECK(l > 0 && m > 0, "the fake driver saw %ld launches and %ld modules on device %d", l, m, d);
            printf("test_devices: the fake driver's device %d: %ld launches, %ld modules loaded\n", d, l, m);
        }

    int other = -1;
    pthread_t t;
    TT_OK(tile_set_device(ndev - 1));
    TT_CHECK(pthread_create(&t, NULL, ask_device, &other) == 0 && pthread_join(t, NULL) == 0, "pthread");
    TT_CHECK(other == 0 || getenv("TILE_DEVICE"), "a new thread starts on device %d, not the default", other);

    tile_kernel_release(TILE_KERNEL_OF(dev_axpi));
    return tt_finish("test_devices");
}
