/* tests/test_profile_kernel.c — scopes inside kernels (tl_profile_enter /
   tl_profile_exit, Proton's instrumentation mode), in whatever back end runs
   (the interpreter without a GPU):
   - with no profile running a kernel with scopes compiles to the PTX of the
     same kernel without them (an elementwise loop, and a tl_dot loop, for
     sm_80 and sm_90a); with a profile running it reads %globaltimer;
   - a profile per warp, then one per warpgroup: each unit of each program
     records each scope once per pass (the text report's span counts, the
     JSON trace's in-kernel slices), the kernel's result checked against
     float64;
   - a unit whose records outgrow its slots: the report says how many were
     dropped, and the kernel's result is still right;
   - the user errors, each TILE_ERR_PROFILE at the scope's line: an exit with
     nothing open, an exit that is not the innermost, an enter never exited,
     an exit in another block than its enter, a scope without a name, more
     than 256 scope names in a kernel, an unknown unit word. */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

enum { N = 3 * 64, PASSES = 4 };

/* out = x * (1 + 2 + ... + PASSES), a pass at a time; SCOPES: with scopes */
TILE_KERNEL(kscope, (tl_ptr_f32, x), (tl_ptr_f32, out), (tl_i32, n))
{
    int scopes = (int)TL_META(SCOPES);
    if (scopes) tl_profile_enter("body");
    tl_t offs = tl_add(tl_mul(tl_program_id(0), 64), tl_arange(0, 64));
    tl_t mask = tl_lt(offs, n);
    tl_t xv = tl_load(tl_add(x, offs), .mask = mask, .other = 0.0f);
    tl_t acc = tl_zeros(TL_F32, 64);
    TL_FOR (i, 0, (int)TL_META(PASSES), 1, acc) {
        if (scopes) tl_profile_enter("pass");
        acc = tl_add(acc, tl_mul(xv, tl_cast(tl_add(i, 1), TL_F32)));
        if (scopes) tl_profile_exit("pass");
    }
    tl_store(tl_add(out, offs), acc, .mask = mask);
    if (scopes) tl_profile_exit("body");
}
/* a K loop of tl_dot (c = a @ b, 64x64, K a multiple of 32), a scope per step */
TILE_KERNEL(kdot, (tl_ptr_f16, a), (tl_ptr_f16, b), (tl_ptr_f32, c), (tl_i32, K))
{
    int scopes = (int)TL_META(SCOPES);
    tl_t rm = tl_arange(0, 64), rk = tl_arange(0, 32);
    tl_t pa = tl_add(a, tl_add(tl_mul(tl_expand_dims(rm, 1), K), tl_expand_dims(rk, 0)));
    tl_t pb = tl_add(b, tl_add(tl_mul(tl_expand_dims(rk, 1), 64), tl_expand_dims(rm, 0)));
    tl_t acc = tl_zeros(TL_F32, 64, 64);
    TL_FOR (k, 0, K, 32, acc, pa, pb) {
        if (scopes) tl_profile_enter("k step");
        acc = tl_dot(tl_load(pa), tl_load(pb), acc);
        pa = tl_add(pa, 32);
        pb = tl_add(pb, tl_mul(32, 64));
        if (scopes) tl_profile_exit("k step");
    }
    tl_store(tl_add(c, tl_add(tl_mul(tl_expand_dims(rm, 1), 64), tl_expand_dims(rm, 0))), acc);
}

/* the user errors: each kernel's bad scope is on the line kept in bad_line */
static int bad_line;
TILE_KERNEL(kbad_exit, (tl_ptr_f32, x))
{
    (void)x;
    tl_profile_exit("a"); bad_line = __LINE__;
}
TILE_KERNEL(kbad_order, (tl_ptr_f32, x))
{
    (void)x;
    tl_profile_enter("a");
    tl_profile_enter("b");
    tl_profile_exit("a"); bad_line = __LINE__;
    tl_profile_exit("b");
}
TILE_KERNEL(kbad_open, (tl_ptr_f32, x))
{
    (void)x;
    tl_profile_enter("outer");
    tl_profile_exit("outer");
    tl_profile_enter("never left"); bad_line = __LINE__;
}
TILE_KERNEL(kbad_block, (tl_ptr_f32, x), (tl_i32, n))
{
    (void)x;
    tl_profile_enter("loop");
    TL_FOR (i, 0, n, 1) {
        (void)i;
        tl_profile_exit("loop"); bad_line = __LINE__;
    }
}
TILE_KERNEL(kbad_name, (tl_ptr_f32, x))
{
    (void)x;
    tl_profile_enter(""); bad_line = __LINE__;
}

static const int kmany_line = __LINE__ + 1;
TILE_KERNEL(kbad_many, (tl_ptr_f32, x))
{
    (void)x;
    for (int i = 0; i < 257; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        tl_profile_enter(name);
        tl_profile_exit(name);
    }
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? (char *)malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = 0;
    fclose(f);
    return s;
}
/* the span count of scope `name` in the report's in-kernel section (-1: none) */
static long spans_of(const char *tree, const char *name) {
    const char *sec = tree ? strstr(tree, "in-kernel scopes, per ") : NULL;
    for (const char *p = sec; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p), nl = strlen(name);
        long spans;
        double avg, cyc, tot;
        if (len > nl && strncmp(p + len - nl, name, nl) == 0 && p[len - nl - 1] == ' ' && sscanf(p, "%ld %lf %lf %lf", &spans, &avg, &cyc, &tot) == 4) return spans;
    }
    return -1;
}
static int count_of(const char *s, const char *what) {
    int n = 0;
    for (const char *p = s ? strstr(s, what) : NULL; p; p = strstr(p + 1, what)) n++;
    return n;
}

static float hx[N], hout[N];
static float *dx, *dout;
/* kscope with scopes, num_warps 4, 3 programs; its result against float64 */
static void run_kscope(int passes) {
    tt_poison(hout, sizeof hout);
    TT_OK(tile_memcpy_htod(dout, hout, sizeof hout));
    TT_OK(kscope(TILE_OPTS(.grid = {3}, .num_warps = 4, .meta = {{"SCOPES", 1}, {"PASSES", passes}}), dx, dout, N));
    TT_OK(tile_synchronize());
    TT_OK(tile_memcpy_dtoh(hout, dout, sizeof hout));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int j = 1; j <= passes; j++) want += (double)hx[i] * j;
        bad += !tt_close(hout[i], want, 1e-5, 1e-5);
    }
    TT_CHECK(bad == 0, "kscope with %d passes: %d of %d elements wrong", passes, bad, N);
}

#define EXPECT_KERNEL_ERR(call, what)                                                                                                        \
    do {                                                                                                                                     \
        tile_status st_ = (call);                                                                                                            \
        const tile_error *e_ = tile_last_error_info();                                                                                       \
        TT_CHECK(st_ == TILE_ERR_PROFILE && e_->status == TILE_ERR_PROFILE && e_->line == bad_line && strstr(e_->file, "test_profile_kernel.c") && \
                     strstr(e_->message, what),                                                                                              \
                 "%s: want TILE_ERR_PROFILE at line %d mentioning \"%s\"; got %s at %s:%d: %s", #call, bad_line, what, tile_status_id(st_),     \
                 e_->file, e_->line, e_->message);                                                                                           \
        tile_clear_error();                                                                                                                  \
    } while (0)

int main(void) {
    tt_seed();
    char dir[1024], path[1200];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tile_kprof.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        printf("FAIL: no temporary directory\n");
        return 1;
    }
    printf("back end %s, outputs in %s\n", tile_backend_name(), dir);

    /* 1. no profile: the scopes cost nothing, not one instruction */
    static const char *const arch[2] = {"sm_80", "sm_90a"};
    for (int a = 0; a < 2; a++) {
        char *p0 = NULL, *p1 = NULL, *d0 = NULL, *d1 = NULL;
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(kscope), TILE_OPTS(.num_warps = 4, .meta = {{"SCOPES", 0}, {"PASSES", PASSES}}), arch[a], &p0));
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(kscope), TILE_OPTS(.num_warps = 4, .meta = {{"SCOPES", 1}, {"PASSES", PASSES}}), arch[a], &p1));
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(kdot), TILE_OPTS(.num_warps = 4, .num_stages = 3, .meta = {{"SCOPES", 0}}), arch[a], &d0));
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(kdot), TILE_OPTS(.num_warps = 4, .num_stages = 3, .meta = {{"SCOPES", 1}}), arch[a], &d1));
        TT_CHECK(p0 && p1 && strcmp(p0, p1) == 0, "%s: kscope's PTX differs with its scopes and no profile running", arch[a]);
        TT_CHECK(d0 && d1 && strcmp(d0, d1) == 0, "%s: kdot's PTX differs with its scopes and no profile running", arch[a]);
        TT_CHECK(p1 && !strstr(p1, "globaltimer"), "%s: a clock is read with no profile running", arch[a]);
        tile_free_text(p0), tile_free_text(p1), tile_free_text(d0), tile_free_text(d1);
    }

    dx = (float *)tile_malloc(sizeof hx), dout = (float *)tile_malloc(sizeof hout);
    if (!dx || !dout) {
        printf("FAIL: tile_malloc: %s\n", tile_last_error());
        return 1;
    }
    for (int i = 0; i < N; i++) hx[i] = (float)tt_uniform(-1, 1);
    TT_OK(tile_memcpy_htod(dx, hx, sizeof hx));
    run_kscope(PASSES);   /* no profile: no records, nothing to report */

    /* 2. per warp: 3 programs x 4 warps, each "body" once and "pass" PASSES times */
    snprintf(path, sizeof path, "%s/warp", dir);
    TT_OK(tile_profile_start(path, "tree,json"));
    for (int a = 0; a < 2; a++) {
        char *p0 = NULL, *p1 = NULL;
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(kscope), TILE_OPTS(.num_warps = 4, .meta = {{"SCOPES", 0}, {"PASSES", PASSES}}), arch[a], &p0));
        TT_OK(tile_kernel_ptx(TILE_KERNEL_OF(kscope), TILE_OPTS(.num_warps = 4, .meta = {{"SCOPES", 1}, {"PASSES", PASSES}}), arch[a], &p1));
        TT_CHECK(p1 && strstr(p1, "%globaltimer") && strstr(p1, "%clock64") && strstr(p1, "%smid"), "%s: the profiled PTX reads no clock", arch[a]);
        TT_CHECK(p0 && !strstr(p0, "%globaltimer"), "%s: a kernel without scopes reads a clock", arch[a]);
        tile_free_text(p0), tile_free_text(p1);
    }
    run_kscope(PASSES);
    TT_OK(tile_profile_stop());
    snprintf(path, sizeof path, "%s/warp.txt", dir);
    char *tree = slurp(path);
    TT_CHECK(tree && strstr(tree, "in-kernel scopes, per warp: 1 launch recorded") && strstr(tree, "3 of 3 programs recorded"),
             "the report lacks the in-kernel section:\n%s", tree ? tree : "(no file)");
    TT_CHECK(spans_of(tree, "body") == 3 * 4, "body: %ld spans, want 12 (3 programs x 4 warps)", spans_of(tree, "body"));
    TT_CHECK(spans_of(tree, "pass") == 3 * 4 * PASSES, "pass: %ld spans, want %d", spans_of(tree, "pass"), 3 * 4 * PASSES);
    free(tree);
    snprintf(path, sizeof path, "%s/warp.json", dir);
    char *json = slurp(path);
    TT_CHECK(count_of(json, "\"cat\":\"in-kernel\",\"name\":\"body\"") == 12 && count_of(json, "\"cat\":\"in-kernel\",\"name\":\"pass\"") == 12 * PASSES &&
                 count_of(json, "\"path\":\"body/pass\"") == 12 * PASSES && strstr(json, "program 2 warp 3 (SM "),
             "the trace's in-kernel slices are not 12 body and %d body/pass spans on 12 tracks", 12 * PASSES);
    free(json);

    /* 3. per warpgroup: the 4 warps are one unit */
    snprintf(path, sizeof path, "%s/wg", dir);
    TT_OK(tile_profile_start(path, "warpgroup,tree"));
    run_kscope(PASSES);
    TT_OK(tile_profile_stop());
    snprintf(path, sizeof path, "%s/wg.txt", dir);
    tree = slurp(path);
    TT_CHECK(tree && strstr(tree, "in-kernel scopes, per warpgroup"), "the warpgroup report lacks its section");
    TT_CHECK(spans_of(tree, "body") == 3 && spans_of(tree, "pass") == 3 * PASSES, "per warpgroup: body %ld, pass %ld spans, want 3 and %d",
             spans_of(tree, "body"), spans_of(tree, "pass"), 3 * PASSES);
    free(tree);

    /* 4. more records than a unit's slots: dropped and said so; the kernel is right */
    snprintf(path, sizeof path, "%s/full", dir);
    TT_OK(tile_profile_start(path, "tree"));
    run_kscope(300);   /* 2 + 600 records a warp, more than the slots */
    TT_OK(tile_profile_stop());
    snprintf(path, sizeof path, "%s/full.txt", dir);
    tree = slurp(path);
    char want[80];   /* 2 + 600 records a warp, TILE__PROF_KSLOTS slots: one enter of body, then (slots - 1) / 2 passes */
    snprintf(want, sizeof want, "%d records dropped", 12 * (602 - TILE__PROF_KSLOTS));
    TT_CHECK(tree && strstr(tree, want) && strstr(tree, "24 scopes left open"), "the report does not say that %d records a warp were dropped:\n%s",
             602 - TILE__PROF_KSLOTS, tree ? tree : "(no file)");
    TT_CHECK(spans_of(tree, "pass") == 12 * ((TILE__PROF_KSLOTS - 1) / 2), "pass: %ld spans, want %d (the slots' worth)", spans_of(tree, "pass"),
             12 * ((TILE__PROF_KSLOTS - 1) / 2));
    /* a kernel and config is recorded TILE__PROF_KPER times */
    snprintf(path, sizeof path, "%s/per", dir);
    TT_OK(tile_profile_start(path, "tree"));
    for (int i = 0; i < TILE__PROF_KPER + 2; i++) run_kscope(PASSES);
    TT_OK(tile_profile_stop());
    snprintf(path, sizeof path, "%s/per.txt", dir);
    free(tree);
    tree = slurp(path);
    TT_CHECK(tree && strstr(tree, "(2 later launches not recorded") && spans_of(tree, "body") == 12 * TILE__PROF_KPER,
             "%d launches of one config: want %d recorded, the report says:\n%s", TILE__PROF_KPER + 2, TILE__PROF_KPER, tree ? tree : "(no file)");
    free(tree);

    /* 5. the user errors */
    EXPECT_KERNEL_ERR(kbad_exit(TILE_OPTS(.grid = {1}), dx), "no scope of this block is open");
    EXPECT_KERNEL_ERR(kbad_order(TILE_OPTS(.grid = {1}), dx), "the innermost open scope is \"b\"");
    EXPECT_KERNEL_ERR(kbad_open(TILE_OPTS(.grid = {1}), dx), "not exited before the end of its block");
    EXPECT_KERNEL_ERR(kbad_block(TILE_OPTS(.grid = {1}), dx, 2), "no scope of this block is open");
    EXPECT_KERNEL_ERR(kbad_name(TILE_OPTS(.grid = {1}), dx), "needs a name");
    bad_line = kmany_line;
    EXPECT_KERNEL_ERR(kbad_many(TILE_OPTS(.grid = {1}), dx), "more than 256 names");
    snprintf(path, sizeof path, "%s/bad", dir);
    tile_status st = tile_profile_start(path, "tree,warps");
    TT_CHECK(st == TILE_ERR_PROFILE && strstr(tile_last_error(), "unknown format \"warps\""), "an unknown unit word: %s", tile_last_error());
    tile_clear_error();

    tile_free(dx), tile_free(dout);
    static const char *const names[] = {"warp.txt", "warp.json", "wg.txt", "full.txt", "per.txt"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    rmdir(dir);
    return tt_finish("test_profile_kernel");
}
