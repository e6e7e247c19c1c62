/* tests/test_cache_files.c — the disk caches (TILE_CACHE_DIR) use only what
   this user wrote there, and never block, follow a link or write through one.

   Bad entries are planted in place of the file a launch looks up: a FIFO, a
   symbolic link to a good entry outside the directory (owned by another
   user when the test runs as root), a good entry made world-writable, a good
   entry owned by another user (root only), and entries with a valid checksum
   whose contents do not fit the kernel (a tuning winner out of range,
   another kernel's key; a compiled kernel asking for 1 TiB of shared memory,
   naming another kernel, with PTX that has no entry of this kernel, or for
   other num_warps). Each runs in a new process that looks the entry up and
   asserts: it does not hang (alarm), it loads nothing (the key is tuned or
   the variant compiled again, and the results match a float64 reference),
   exactly one notice names the file, and the next lookup loads the good
   file that replaced it, silently; the parent then checks that the file is
   regular, this user's and 0600, and that a link's target is untouched.
   Tuning files are used with or without a GPU; compiled-kernel files hold
   PTX and cubin on a GPU and, without one, PTX made by NVRTC or LLVM (a
   variant with no device is its PTX), so both kinds are checked here too.
   Also:
   - the cache directory and its missing parents are created 0700, files 0600
   - a directory path too long, a directory writable by others, and one
     owned by another user (root only): one notice, the disk cache off,
     nothing created, the results still right
   - stale temporary names (the old <file>.tmp.<pid>.<n>, as files and as
     links) do not make a store fail
   - the source written after an NVRTC failure goes to a new file of a unique
     name in the cache directory or $TMPDIR, never through a link planted at
     the fixed name
   - 8 threads needing the same 24 variants at once compile each one once,
     and a second process loads all 24 from the disk */
#define _POSIX_C_SOURCE 200809L
#define TILE_IMPLEMENTATION
#include "tile.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* out = x * y + x */
TILE_KERNEL(muladd_kernel, (tl_ptr_f32, x), (tl_ptr_f32, y), (tl_ptr_f32, out), (tl_i32, n))
{
    int  BLOCK = TL_META(BLOCK);
    tl_t offs  = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_t mask  = tl_lt(offs, n);
    tl_t xv    = tl_load(tl_add(x, offs), .mask = mask);
    tl_t yv    = tl_load(tl_add(y, offs), .mask = mask);
    tl_store(tl_add(out, offs), tl_add(tl_mul(xv, yv), xv), .mask = mask);
}

static void grid_1d(const tile_tune_args *a, unsigned g[3]) { g[0] = tile_cdiv(tile_tune_int(a, "n"), tile_tune_meta(a, "BLOCK")); }
static const tile_autotune_config configs[] = {
    {.meta = {{"BLOCK", 64}}}, {.meta = {{"BLOCK", 128}}, .num_warps = 2}, {.meta = {{"BLOCK", 256}}, .num_warps = 8}};
static tile_autotuner tuner = {TILE_AUTOTUNE_CONFIGS(configs), .key = {"n"}, .grid = grid_1d};

#define KNAME "muladd_kernel"
#define KN 4096              /* the compiled-kernel cases' n (its divisibility is in the variant's key) */
#define OTHER_UID 65534      /* nobody */

static char base[512], cache[700], outside[700], tmpdir[700];
static const char *self = "/proc/self/exe";
static int is_root;

/* ---- helpers ---------------------------------------------------------------------- */
static tile_cache_stats stats(void) {
    tile_cache_stats s;
    tile_cache_stats_get(&s);
    return s;
}
static int gpu(void) { return tile__gpu_mode(); }
/* a compiler for PTX: the GPU's, or NVRTC / LLVM without one */
static int have_compiler(void) { return gpu() || tile__ext_mode() || tile__nvrtc_available(); }

/* One launch on fresh random inputs with the output poisoned, checked
   against a float64 reference. */
static int run_kernel(const char *what, int n, const tile_launch *o) {
    size_t bytes = (size_t)n * sizeof(float);
    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *ho = (float *)malloc(bytes);
    double *got = (double *)malloc((size_t)n * sizeof(double)), *want = (double *)malloc((size_t)n * sizeof(double));
    float *x = (float *)tile_malloc(bytes), *y = (float *)tile_malloc(bytes), *out = (float *)tile_malloc(bytes);
    for (int i = 0; i < n; i++) {
        hx[i] = (float)tt_uniform(-2, 2);
        hy[i] = (float)tt_uniform(-2, 2);
        want[i] = (double)hx[i] * hy[i] + hx[i];
    }
    tile_memcpy_htod(x, hx, bytes);
    tile_memcpy_htod(y, hy, bytes);
    tt_poison(ho, bytes);
    tile_memcpy_htod(out, ho, bytes);
    tile_status st = muladd_kernel(o, x, y, out, n);
    TT_CHECK(st == TILE_OK, "%s: the launch failed: %s", what, tile_last_error());
    tile_synchronize();
    tile_memcpy_dtoh(ho, out, bytes);
    for (int i = 0; i < n; i++) got[i] = ho[i];
    int ok = st == TILE_OK && tt_check_close(what, got, want, (size_t)n, 1e-6, 1e-5);
    tile_free(x);
    tile_free(y);
    tile_free(out);
    free(hx);
    free(hy);
    free(ho);
    free(got);
    free(want);
    return ok;
}

/* stderr into a file between capture_begin and capture_end, which returns
   the number of cache notices ("tile: cache: ...") and echoes every line */
static int cap_saved = -1, cap_fd = -1;
static char cap_path[800];
static void capture_begin(void) {
    fflush(stderr);
    snprintf(cap_path, sizeof cap_path, "%s/stderr-XXXXXX", base);
    cap_fd = mkstemp(cap_path);
    cap_saved = dup(2);
    if (cap_fd >= 0) dup2(cap_fd, 2);
}
static int capture_end(char *text, size_t n) {
    fflush(stderr);
    if (cap_saved >= 0) dup2(cap_saved, 2), close(cap_saved);
    cap_saved = -1;
    size_t len = 0;
    if (cap_fd >= 0) {
        lseek(cap_fd, 0, SEEK_SET);
        ssize_t r;
        while (len + 1 < n && (r = read(cap_fd, text + len, n - 1 - len)) > 0) len += (size_t)r;
        close(cap_fd);
        unlink(cap_path);
    }
    cap_fd = -1;
    text[len] = 0;
    int notices = 0;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t l = end ? (size_t)(end - line) : strlen(line);
        notices += strncmp(line, "tile: cache:", 12) == 0;
        printf("  stderr: %.*s\n", (int)l, line);
        line += l + (end != NULL);
    }
    return notices;
}

typedef struct finfo { int exists, regular, link, fifo; long uid; unsigned mode; } finfo;
static finfo info(const char *path) {
    finfo f = {0, 0, 0, 0, -1, 0};
    struct stat sb;
    if (lstat(path, &sb) != 0) return f;
    f.exists = 1;
    f.regular = S_ISREG(sb.st_mode);
    f.link = S_ISLNK(sb.st_mode);
    f.fifo = S_ISFIFO(sb.st_mode);
    f.uid = (long)sb.st_uid;
    f.mode = (unsigned)(sb.st_mode & 07777);
    return f;
}
static int is_good_file(const char *path) {
    finfo f = info(path);
    return f.regular && f.uid == (long)geteuid() && f.mode == 0600;
}
static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    *len = 0;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n >= 0 && (buf = (char *)malloc((size_t)n + 1))) {
        *len = fread(buf, 1, (size_t)n, f);
        buf[*len] = 0;
    }
    fclose(f);
    return buf;
}
static int write_all(const char *path, const void *p, size_t n, unsigned mode) {
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (fd < 0) return 0;
    int ok = write(fd, p, n) == (ssize_t)n;
    close(fd);
    chmod(path, mode);
    return ok;
}
/* the entry in `dir` whose name ends in `ext` (not a temporary file); 0 if none */
static int find_entry(const char *dir, const char *ext, char *path, size_t n) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name), le = strlen(ext);
        if (l > le && strcmp(e->d_name + l - le, ext) == 0 && !strstr(e->d_name, ".tmp.")) {
            snprintf(path, n, "%s/%s", dir, e->d_name);
            found++;
        }
    }
    if (d) closedir(d);
    return found;
}
/* remove every entry of kind `ext` (on a GPU the tuning runs before store compiled variants too) */
static void remove_entries(const char *dir, const char *ext) {
    char path[1024];
    while (find_entry(dir, ext, path, sizeof path) > 0)
        if (unlink(path) != 0) break;
}
static int count_entries(const char *dir, const char *part) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' || (e->d_name[1] && strcmp(e->d_name, "..") != 0)) n += !part || strstr(e->d_name, part) != NULL;
    if (d) closedir(d);
    return n;
}
/* rm -r without following links */
static void remove_tree(const char *path) {
    finfo f = info(path);
    if (f.exists && !f.link && !f.regular && !f.fifo) {
        DIR *d = opendir(path);
        struct dirent *e;
        char sub[4200];
        while (d && (e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub);
            }
        if (d) closedir(d);
        rmdir(path);
    } else
        unlink(path);
}
/* A cache file as the library lays it out, with a valid checksum: what a
   forger who knows the format writes. */
static int write_entry(const char *path, int kind, const char *key, const void *pay, size_t paylen) {
    size_t keylen = strlen(key);
    tile__disk_header hd = tile__disk_header_of(kind, key, pay, paylen);
    char *buf = (char *)malloc(sizeof hd + keylen + paylen);
    memcpy(buf, &hd, sizeof hd);
    memcpy(buf + sizeof hd, key, keylen);
    memcpy(buf + sizeof hd + keylen, pay, paylen);
    int ok = write_all(path, buf, sizeof hd + keylen + paylen, 0600);
    free(buf);
    return ok;
}
/* split a good file's bytes into its key (a new string) and payload (a copy) */
static int split_entry(const char *file, size_t len, char **key, char **pay, size_t *paylen) {
    tile__disk_header hd;
    if (len < sizeof hd) return 0;
    memcpy(&hd, file, sizeof hd);
    if (hd.keylen + hd.paylen + sizeof hd != len) return 0;
    *key = (char *)malloc(hd.keylen + 1);
    memcpy(*key, file + sizeof hd, hd.keylen);
    (*key)[hd.keylen] = 0;
    *paylen = hd.paylen;
    *pay = (char *)malloc(hd.paylen + 1);
    memcpy(*pay, file + sizeof hd + hd.keylen, hd.paylen);
    return 1;
}

/* Run this program again as `--case ...` and wait; the child sets its own
   alarm, so a hang ends as SIGALRM. Returns 1 when it passed. */
static int spawn(const char *what, const char *a1, const char *a2, const char *label) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, "test_cache_files", "--case", what, a1 ? a1 : "-", a2 ? a2 : "-", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) status = -1;
    int hung = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;
    TT_CHECK(!hung, "%s: the process hung (killed by its alarm)", label);
    TT_CHECK(hung || (WIFEXITED(status) && WEXITSTATUS(status) == 0), "%s: the process failed (status 0x%x)", label, status);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the bad entries ---------------------------------------------------------------- */
enum { BAD_FIFO, BAD_LINK, BAD_WRITABLE, BAD_OWNER, BAD_CONTENT1, BAD_CONTENT2, BAD_CONTENT3, BAD_CONTENT4 };
static const char *tune_case[] = {"a FIFO", "a link to a good entry outside", "a good entry, world-writable", "a good entry of another user",
                                  "a winner out of range (valid checksum)", "another kernel's key (valid checksum)"};
static const char *kernel_case[] = {"a FIFO", "a link to a good entry outside", "a good entry, world-writable", "a good entry of another user",
                                    "1 TiB of shared memory (valid checksum)", "another kernel's name (valid checksum)",
                                    "PTX without this kernel's .entry (valid checksum)", "other num_warps (valid checksum)"};

/* Put bad entry `bad` at `path`, from the good entry's bytes; 0: skipped. */
static int plant(int kind, int bad, const char *path, const char *good, size_t len, char *victim, size_t vn) {
    char *key = NULL, *pay = NULL;
    size_t paylen = 0;
    int ok = 1;
    victim[0] = 0;
    unlink(path);
    switch (bad) {
    case BAD_FIFO: ok = mkfifo(path, 0600) == 0; break;
    case BAD_LINK:
        snprintf(victim, vn, "%s/victim-%s", outside, kind == TILE__DISK_TUNE ? "tune" : "kernel");
        ok = write_all(victim, good, len, 0600) && symlink(victim, path) == 0;
        if (ok && is_root && chown(victim, OTHER_UID, OTHER_UID) != 0) ok = 0;
        break;
    case BAD_WRITABLE: ok = write_all(path, good, len, 0666); break;
    case BAD_OWNER:
        if (!is_root) return 0;
        ok = write_all(path, good, len, 0600) && chown(path, OTHER_UID, OTHER_UID) == 0;
        break;
    default:
        ok = split_entry(good, len, &key, &pay, &paylen);
        if (ok && kind == TILE__DISK_TUNE && bad == BAD_CONTENT1) ok = write_entry(path, kind, key, "winner 99\n", 10);
        else if (ok && kind == TILE__DISK_TUNE && bad == BAD_CONTENT2) {
            char *at = strstr(key, "kernel " KNAME);
            if ((ok = at != NULL)) memcpy(at + 7, "XXXXXX", 6);   /* same length, another kernel */
            ok = ok && write_entry(path, kind, key, pay, paylen);
        } else if (ok) {
            tile__kdisk_payload p;
            ok = paylen > sizeof p;
            if (ok) memcpy(&p, pay, sizeof p);
            if (ok && bad == BAD_CONTENT1) p.smem = (uint64_t)1 << 40;
            if (ok && bad == BAD_CONTENT2) pay[sizeof p] = 'X';
            if (ok && bad == BAD_CONTENT3) {
                char *ptx = pay + sizeof p + p.namelen + p.siglen, *at = strstr(ptx, ".entry " KNAME);
                if ((ok = at != NULL)) at[7] = 'X';
            }
            if (ok && bad == BAD_CONTENT4) p.num_warps = 32;
            if (ok && bad != BAD_CONTENT2 && bad != BAD_CONTENT3) memcpy(pay, &p, sizeof p);
            ok = ok && write_entry(path, kind, key, pay, paylen);
        }
    }
    free(key);
    free(pay);
    TT_CHECK(ok, "planting %s at %s: %s", kind == TILE__DISK_TUNE ? tune_case[bad] : kernel_case[bad], path, strerror(errno));
    return ok;
}
/* After the child: the entry is a good file again, the link's target as it was. */
static void check_replaced(const char *what, const char *path, const char *victim, const char *good, size_t len) {
    finfo f = info(path);
    TT_CHECK(is_good_file(path), "%s: %s was replaced by a regular file of this user, mode 0600 (regular %d, link %d, fifo %d, uid %ld, mode %04o)",
             what, path, f.regular, f.link, f.fifo, f.uid, f.mode);
    if (victim[0]) {
        size_t vl = 0;
        char *v = read_all(victim, &vl);
        finfo fv = info(victim);
        TT_CHECK(v && vl == len && memcmp(v, good, len) == 0 && fv.uid == (is_root ? OTHER_UID : (long)geteuid()) && fv.mode == 0600,
                 "%s: the link's target %s is untouched", what, victim);
        free(v);
    }
}

/* ---- the children ---------------------------------------------------------------------- */
/* A tuned launch finds bad entry `what` in place of its file. */
static void case_tune(const char *what, int n) {
    char text[16384];
    capture_begin();
    int ok = run_kernel(what, n, TILE_OPTS(.tune = &tuner));
    int notices = capture_end(text, sizeof text);
    tile_cache_stats s = stats();
    printf("%s: result %s, tunings %ld, tune_loads %ld, notices %d\n", what, ok ? "right" : "WRONG", s.tunings, s.tune_loads, notices);
    TT_CHECK(s.tunings == 1 && s.tune_loads == 0, "%s: loaded nothing: the key is tuned again (tunings %ld, tune_loads %ld)", what, s.tunings,
             s.tune_loads);
    TT_CHECK(notices == 1, "%s: exactly one notice (got %d)", what, notices);
    TT_CHECK(s.tune_stores == 1, "%s: the winner is stored again (%ld stores)", what, s.tune_stores);
    /* the next lookup (the table forgotten, as in a new process) loads the new file, silently */
    tile_autotune_release(&tuner);
    capture_begin();
    run_kernel(what, n, TILE_OPTS(.tune = &tuner));
    notices = capture_end(text, sizeof text);
    tile_cache_stats s2 = stats();
    TT_CHECK(s2.tune_loads == 1 && s2.tunings == 1 && notices == 0, "%s: the rewritten entry loads, silently (tune_loads %ld, tunings %ld, notices %d)",
             what, s2.tune_loads, s2.tunings, notices);
}
/* The variant for (BLOCK 256, n = KN) on fresh buffers: its entry and status. */
static tile_status lookup_variant(const tile_launch *o, tile__variant **v, tile_arg *args, void **bufs) {
    tile__entry *e = NULL;
    for (int i = 0; i < 3; i++) bufs[i] = tile_malloc(KN * sizeof(float)), args[i].p = bufs[i];
    args[3].i = KN;
    tile_status st = tile__get_entry(TILE_KERNEL_OF(muladd_kernel), o, &e);
    tile__config cfg;
    if (st == TILE_OK) st = tile__config_resolve(TILE_KERNEL_OF(muladd_kernel), o, args, NULL, &cfg);
    if (st == TILE_OK) st = tile__get_variant(e, TILE_KERNEL_OF(muladd_kernel), o, &cfg, v);
    for (int i = 0; i < 3; i++) tile_free(bufs[i]);
    return st;
}
/* PTX for the variant, compiled here without any cache (the reference) */
static char *reference_ptx(const tile_launch *o) {
    tile__entry *e = NULL;
    tile_arg args[4];
    void *bufs[3];
    char *ptx = NULL;
    tile__config cfg;
    for (int i = 0; i < 3; i++) bufs[i] = tile_malloc(KN * sizeof(float)), args[i].p = bufs[i];
    args[3].i = KN;
    if (tile__config_resolve(TILE_KERNEL_OF(muladd_kernel), o, args, NULL, &cfg) == TILE_OK && tile__get_entry(TILE_KERNEL_OF(muladd_kernel), o, &e) == TILE_OK)
        tile__compile(TILE_KERNEL_OF(muladd_kernel), &e->f, &cfg, NULL, &ptx);
    for (int i = 0; i < 3; i++) tile_free(bufs[i]);
    return ptx;
}
static void case_kernel(const char *what) {
    const tile_launch *o = TILE_OPTS(.grid = {KN / 256}, .meta = {{"BLOCK", 256}});
    char text[16384];
    tile__variant *v = NULL;
    tile_arg args[4];
    void *bufs[3];
    capture_begin();
    tile_status st = lookup_variant(o, &v, args, bufs);
    int notices = capture_end(text, sizeof text);
    tile_cache_stats s = stats();
    printf("%s: %s, compiles %ld, kernel_loads %ld, notices %d\n", what, tile_status_id(st), s.compiles, s.kernel_loads, notices);
    TT_CHECK(st == TILE_OK, "%s: the variant: %s", what, tile_last_error());
    TT_CHECK(s.compiles == 1 && s.kernel_loads == 0, "%s: loaded nothing: the variant is compiled again (compiles %ld, kernel_loads %ld)", what,
             s.compiles, s.kernel_loads);
    TT_CHECK(notices == 1, "%s: exactly one notice (got %d)", what, notices);
    TT_CHECK(s.kernel_stores == 1, "%s: the variant is stored again (%ld stores)", what, s.kernel_stores);
    char *ref = gpu() ? NULL : reference_ptx(o);
    if (!gpu()) TT_CHECK(st == TILE_OK && v && v->ptx && ref && strcmp(v->ptx, ref) == 0, "%s: the variant's PTX is the kernel's own", what);
    run_kernel(what, KN, o);   /* on a GPU: the variant just made */
    /* the next lookup (the kernel's variants forgotten) loads the new file, silently */
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    capture_begin();
    st = lookup_variant(o, &v, args, bufs);
    notices = capture_end(text, sizeof text);
    tile_cache_stats s2 = stats();
    TT_CHECK(st == TILE_OK && s2.kernel_loads == 1 && s2.compiles == 1 && notices == 0,
             "%s: the rewritten entry loads, silently (kernel_loads %ld, compiles %ld, notices %d)", what, s2.kernel_loads, s2.compiles, notices);
    if (!gpu()) TT_CHECK(st == TILE_OK && v && v->ptx && ref && strcmp(v->ptx, ref) == 0, "%s: the loaded PTX is the kernel's own", what);
    run_kernel(what, KN, o);
    free(ref);
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
}
/* One compile per variant, keyed on what it built: a cache miss lowers the
   kernel once and compiles it once; the next process lowers it once (the
   key is the code emit made) and compiles nothing; the same code from
   another version of the back end (a faked key: another LLVM, another
   NVRTC) is not loaded. */
static const tile_backend_hooks *real_backend;
static tile_status faked_emit(tile_backend_job *job) {
    tile_status st = real_backend->emit(job);
    if (st == TILE_OK && job->key) {
        /* the first line names the back end's version: an upgrade */
        const char *rest = strchr(job->key, '\n');
        const char *fake = "llvm 999.0.0 (a faked upgrade)";
        size_t n = strlen(fake) + strlen(rest ? rest : "") + 1;
        char *k = (char *)malloc(n);
        if (k) snprintf(k, n, "%s%s", fake, rest ? rest : "");
        free(job->key);
        job->key = k;
    }
    return st;
}
static void case_key(void) {
    const tile_launch *o = TILE_OPTS(.grid = {KN / 256}, .meta = {{"BLOCK", 256}});
    tile__variant *v = NULL;
    tile_arg args[4];
    void *bufs[3];
    tile_cache_stats s0 = stats();
    tile_status st = lookup_variant(o, &v, args, bufs);
    tile_cache_stats s1 = stats();
    printf("a miss: %s, lowerings %ld, compiles %ld, stores %ld\n", tile_status_id(st), s1.lowerings - s0.lowerings, s1.compiles - s0.compiles,
           s1.kernel_stores - s0.kernel_stores);
    TT_CHECK(st == TILE_OK && s1.lowerings == s0.lowerings + 1 && s1.compiles == s0.compiles + 1 && s1.kernel_stores == s0.kernel_stores + 1,
             "a cache miss lowers once, compiles once, stores once (lowerings %ld, compiles %ld, stores %ld)", s1.lowerings - s0.lowerings,
             s1.compiles - s0.compiles, s1.kernel_stores - s0.kernel_stores);
    run_kernel("key: the variant compiled", KN, o);
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    s1 = stats();
    st = lookup_variant(o, &v, args, bufs);
    tile_cache_stats s2 = stats();
    TT_CHECK(st == TILE_OK && s2.lowerings == s1.lowerings + 1 && s2.compiles == s1.compiles && s2.kernel_loads == s1.kernel_loads + 1,
             "a disk hit lowers once and compiles nothing (lowerings %ld, compiles %ld, loads %ld)", s2.lowerings - s1.lowerings,
             s2.compiles - s1.compiles, s2.kernel_loads - s1.kernel_loads);
    /* another version of the back end: the same code, another key */
    static tile_backend_hooks faked;
    int nvrtc = !tile__ext_mode();
    if (nvrtc) tile__nvrtc_st.minor += 100;
    else {
        real_backend = tile__ext;
        faked = *tile__ext;
        faked.emit = faked_emit;
        tile__ext = &faked;
    }
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    st = lookup_variant(o, &v, args, bufs);
    tile_cache_stats s3 = stats();
    TT_CHECK(st == TILE_OK && s3.compiles == s2.compiles + 1 && s3.kernel_loads == s2.kernel_loads && s3.rejected == s2.rejected,
             "%s of another version: the entry is not used, the variant is compiled (compiles %ld, loads %ld)", nvrtc ? "NVRTC" : "LLVM",
             s3.compiles - s2.compiles, s3.kernel_loads - s2.kernel_loads);
    run_kernel("key: compiled for the other version", KN, o);
    if (nvrtc) tile__nvrtc_st.minor -= 100;
    else tile__ext = real_backend;
    /* and the first version's entry is still there */
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    st = lookup_variant(o, &v, args, bufs);
    tile_cache_stats s4 = stats();
    TT_CHECK(st == TILE_OK && s4.compiles == s3.compiles && s4.kernel_loads == s3.kernel_loads + 1,
             "back to the first version: its entry loads (compiles %ld, loads %ld)", s4.compiles - s3.compiles, s4.kernel_loads - s3.kernel_loads);
    run_kernel("key: loaded again", KN, o);
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
}
/* The cache directory must be refused: one notice, no cache, right results. */
static void case_dir(const char *what, int n) {
    char text[16384];
    capture_begin();
    int ok = run_kernel(what, n, TILE_OPTS(.tune = &tuner));
    const char *dir = tile_cache_dir();
    int notices = capture_end(text, sizeof text);
    tile_cache_stats s = stats();
    printf("%s: result %s, cache dir \"%.60s\", notices %d, tune_stores %ld\n", what, ok ? "right" : "WRONG", dir, notices, s.tune_stores);
    TT_CHECK(dir[0] == 0, "%s: the disk cache is off (tile_cache_dir() = \"%.80s...\")", what, dir);
    TT_CHECK(notices == 1, "%s: exactly one notice (got %d)", what, notices);
    TT_CHECK(s.tune_stores == 0 && s.tunings == 1, "%s: tuned, nothing stored (stores %ld)", what, s.tune_stores);
}
/* Stale temporary names of the old scheme (<file>.tmp.<pid>.<n>) for this
   process: files, and dangling links. The store must still succeed. */
static void case_stale(int n) {
    char path[1024], stale[1100], text[16384];
    if (find_entry(cache, ".tune", path, sizeof path) != 1) {
        TT_CHECK(0, "stale: one .tune entry in %s", cache);
        return;
    }
    unlink(path);
    int planted = 0;
    for (int c = 0; c < 600; c++) {
        snprintf(stale, sizeof stale, "%s.tmp.%ld.%d", path, (long)getpid(), c);
        planted += c % 3 == 2 ? symlink("/nonexistent/tile-stale", stale) == 0 : write_all(stale, "stale", 5, 0600);
    }
    int before = count_entries(cache, ".tmp.");
    capture_begin();
    run_kernel("stale temporary names", n, TILE_OPTS(.tune = &tuner));
    int notices = capture_end(text, sizeof text);
    tile_cache_stats s = stats();
    printf("stale temporary names: %d planted, tunings %ld, tune_stores %ld, notices %d\n", planted, s.tunings, s.tune_stores, notices);
    TT_CHECK(s.tunings == 1 && s.tune_stores == 1, "stale temporary names: the winner is stored (stores %ld)", s.tune_stores);
    TT_CHECK(is_good_file(path), "stale temporary names: %s is written, mode 0600", path);
    TT_CHECK(notices == 0, "stale temporary names: nothing to notice (got %d)", notices);
    TT_CHECK(count_entries(cache, ".tmp.") == before, "stale temporary names: no temporary file of ours is left (%d, was %d)",
             count_entries(cache, ".tmp."), before);
    tile_autotune_release(&tuner);
    run_kernel("stale temporary names", n, TILE_OPTS(.tune = &tuner));
    TT_CHECK(stats().tune_loads == 1, "stale temporary names: the stored winner loads");
    for (int c = 0; c < 600; c++) {
        snprintf(stale, sizeof stale, "%s.tmp.%ld.%d", path, (long)getpid(), c);
        unlink(stale);
    }
}
/* An NVRTC failure (a target NVRTC does not know) writes the source to a
   new file in `dir`; a link at the old fixed name stays as it was. */
static void case_repro(const char *where, const char *dir) {
    char text[16384], victim[800], fixed[800];
    if (!tile__nvrtc_available()) {
        printf("repro (%s): skipped: NVRTC cannot be loaded\n", where);
        return;
    }
    snprintf(victim, sizeof victim, "%s/victim-repro", outside);
    snprintf(fixed, sizeof fixed, "%s/" KNAME ".cu", tmpdir);
    char *ptx = NULL;
    capture_begin();
    tile_status st = tile_kernel_ptx(TILE_KERNEL_OF(muladd_kernel), TILE_OPTS(.meta = {{"BLOCK", 256}}), "sm_99", &ptx);
    capture_end(text, sizeof text);
    free(ptx);
    const char *at = strstr(text, "the generated source is in ");
    if (st == TILE_OK || !at) {
        printf("repro (%s): skipped: sm_99 %s\n", where, st == TILE_OK ? "compiled (the back end accepts it)" : "failed before a compile");
        return;
    }
    char path[1024];
    at += strlen("the generated source is in ");
    size_t l = strcspn(at, ";\n");
    snprintf(path, sizeof path, "%.*s", (int)l, at);
    size_t len = 0, vlen = 0;
    char *src = read_all(path, &len), *v = read_all(victim, &vlen);
    printf("repro (%s): %s, source in %s\n", where, tile_status_id(st), path);
    TT_CHECK(strncmp(path, dir, strlen(dir)) == 0 && path[strlen(dir)] == '/' && !strchr(path + strlen(dir) + 1, '/'),
             "repro (%s): the source is in %s (got %s)", where, dir, path);
    TT_CHECK(strcmp(path, fixed) != 0 && strlen(path) > strlen(dir) + 1 + strlen(KNAME ".cu"), "repro (%s): a unique name, not %s", where, fixed);
    TT_CHECK(is_good_file(path) && src && strstr(src, KNAME "("), "repro (%s): %s is this user's, 0600, and holds the source", where, path);
    TT_CHECK(info(fixed).link && v && strcmp(v, "victim\n") == 0, "repro (%s): the link at %s and its target are untouched", where, fixed);
    free(src);
    free(v);
    unlink(path);
}
/* 8 threads need the same 24 variants (3 BLOCKs x 4 num_warps x 2
   num_stages) at once, each in its own order. */
enum { NTHREADS = 8, NVARIANTS = 24 };
static struct {
    pthread_mutex_t lock;
    pthread_cond_t go_cond;
    int go;
    tile__variant *v[NTHREADS][NVARIANTS];
    tile_status st[NTHREADS][NVARIANTS];
} once;
static tile_launch variant_launch(int j, int n) {
    static const int blocks[3] = {64, 128, 256}, warps[4] = {1, 2, 4, 8}, stages[2] = {2, 3};
    tile_launch l;
    memset(&l, 0, sizeof l);
    l.meta[0].name = "BLOCK";
    l.meta[0].value = blocks[j / 8];
    l.num_warps = warps[(j / 2) % 4];
    l.num_stages = stages[j % 2];
    l.grid[0] = tile_cdiv(n, blocks[j / 8]);
    l.file = __FILE__;
    l.line = __LINE__;
    return l;
}
static void *once_thread(void *p) {
    int t = (int)(intptr_t)p;
    pthread_mutex_lock(&once.lock);
    while (!once.go) pthread_cond_wait(&once.go_cond, &once.lock);
    pthread_mutex_unlock(&once.lock);
    void *bufs[3];
    tile_arg args[4];
    for (int i = 0; i < 3; i++) bufs[i] = tile_malloc(KN * sizeof(float)), args[i].p = bufs[i];
    args[3].i = KN;
    for (int i = 0; i < NVARIANTS; i++) {
        int j = (i * 5 + t * 7) % NVARIANTS;   /* 5 is prime to 24: a permutation */
        tile_launch l = variant_launch(j, KN);
        tile__entry *e = NULL;
        tile_status st = tile__get_entry(TILE_KERNEL_OF(muladd_kernel), &l, &e);
        tile__config cfg;
        if (st == TILE_OK) st = tile__config_resolve(TILE_KERNEL_OF(muladd_kernel), &l, args, NULL, &cfg);
        if (st == TILE_OK) st = tile__get_variant(e, TILE_KERNEL_OF(muladd_kernel), &l, &cfg, &once.v[t][j]);
        once.st[t][j] = st;
        if (st != TILE_OK) tile_clear_error();
    }
    for (int i = 0; i < 3; i++) tile_free(bufs[i]);
    return NULL;
}
static void case_once(int again) {
    const char *what = again ? "compile once, a second process" : "compile once";
    pthread_t th[NTHREADS];
    pthread_mutex_init(&once.lock, NULL);
    pthread_cond_init(&once.go_cond, NULL);
    for (int t = 0; t < NTHREADS; t++) pthread_create(&th[t], NULL, once_thread, (void *)(intptr_t)t);
    pthread_mutex_lock(&once.lock);
    once.go = 1;
    pthread_cond_broadcast(&once.go_cond);
    pthread_mutex_unlock(&once.lock);
    for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
    int bad_st = 0, split = 0;
    for (int j = 0; j < NVARIANTS; j++)
        for (int t = 0; t < NTHREADS; t++) {
            bad_st += once.st[t][j] != TILE_OK;
            split += once.v[t][j] != once.v[0][j] || !once.v[t][j];
        }
    tile_cache_stats s = stats();
    printf("%s: %d threads x %d variants: compiles %ld (at most %ld at once), kernel_loads %ld, kernel_stores %ld, failed lookups %d\n", what,
           NTHREADS, NVARIANTS, s.compiles, s.compile_peak, s.kernel_loads, s.kernel_stores, bad_st);
    TT_CHECK(bad_st == 0, "%s: %d lookups failed", what, bad_st);
    TT_CHECK(split == 0, "%s: %d lookups got another thread's copy of a variant (or none)", what, split);
    if (!again) {
        TT_CHECK(s.compiles == NVARIANTS && s.kernel_loads == 0 && s.kernel_stores == NVARIANTS,
                 "%s: each variant compiled and stored exactly once (compiles %ld, stores %ld)", what, s.compiles, s.kernel_stores);
        /* NVRTC, and LLVM through a context per compile: side by side */
        TT_CHECK(s.compile_peak >= 2, "%s: variants of different threads compile at the same time (at most %ld did)", what, s.compile_peak);
    }
    else
        TT_CHECK(s.compiles == 0 && s.kernel_loads == NVARIANTS, "%s: all %d loaded from the disk, none compiled (loads %ld, compiles %ld)", what,
                 NVARIANTS, s.kernel_loads, s.compiles);
    /* the variants are the kernel's own: PTX against a serial compile
       without a GPU, a launch of each checked against float64 with one */
    for (int j = 0; j < NVARIANTS; j += gpu() ? 1 : 7) {
        tile_launch l = variant_launch(j, KN);
        if (gpu()) {
            run_kernel(what, KN, &l);
            continue;
        }
        char *ref = reference_ptx(&l);
        TT_CHECK(once.v[0][j] && once.v[0][j]->ptx && ref && strcmp(once.v[0][j]->ptx, ref) == 0, "%s: variant %d's PTX is the kernel's own", what, j);
        free(ref);
    }
}

static int run_case(int argc, char **argv) {
    const char *what = argv[2], *a1 = argc > 3 ? argv[3] : "-", *a2 = argc > 4 ? argv[4] : "-";
    snprintf(base, sizeof base, "%s", getenv("TILE_TEST_BASE") ? getenv("TILE_TEST_BASE") : "/tmp");
    snprintf(cache, sizeof cache, "%s", getenv("TILE_CACHE_DIR") ? getenv("TILE_CACHE_DIR") : "");
    snprintf(outside, sizeof outside, "%s/outside", base);
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", base);
    tt_seed();
    alarm(strcmp(what, "once") == 0 ? 500 : 120);
    if (strcmp(what, "tune") == 0) case_tune(a2, atoi(a1));
    else if (strcmp(what, "kernel") == 0) case_kernel(a2);
    else if (strcmp(what, "dir") == 0) case_dir(a2, atoi(a1));
    else if (strcmp(what, "stale") == 0) case_stale(atoi(a1));
    else if (strcmp(what, "repro") == 0) case_repro(a1, a2);
    else if (strcmp(what, "once") == 0) case_once(strcmp(a1, "again") == 0);
    else if (strcmp(what, "key") == 0) case_key();
    else return 2;
    tile_autotune_release(&tuner);
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    printf("  (%s: %d checks, %d failures)\n", what, tt_checks, tt_failures);
    return tt_failures ? 1 : 0;
}

/* ---- the parent ------------------------------------------------------------------------ */
static int tune_n;

/* The first tuned launch makes the cache directory (0700, parents too) and
   its file (0600). */
static void test_made(void) {
    char text[16384], path[1024];
    capture_begin();
    run_kernel("first tuned launch", tune_n, TILE_OPTS(.tune = &tuner));
    int notices = capture_end(text, sizeof text);
    TT_CHECK(notices == 0, "a fresh cache directory: no notice (got %d)", notices);
    TT_CHECK(strcmp(tile_cache_dir(), cache) == 0, "the cache directory is %s (got %s)", cache, tile_cache_dir());
    const char *made[3] = {"made", "made/by", "made/by/tile"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", base, made[i]);
        finfo f = info(path);
        printf("created %s: mode %04o\n", path, f.mode);
        TT_CHECK(f.exists && !f.regular && f.uid == (long)geteuid() && f.mode == 0700, "%s is created 0700 (mode %04o)", path, f.mode);
    }
    TT_CHECK(find_entry(cache, ".tune", path, sizeof path) == 1, "one .tune file in %s", cache);
    finfo f = info(path);
    printf("stored %s: mode %04o\n", path, f.mode);
    TT_CHECK(is_good_file(path), "%s is a regular file of this user, mode 0600 (mode %04o)", path, f.mode);
}

static void test_tune_entries(void) {
    char path[1024], n[16], victim[800];
    size_t len = 0;
    if (find_entry(cache, ".tune", path, sizeof path) != 1) return;
    char *good = read_all(path, &len);
    snprintf(n, sizeof n, "%d", tune_n);
    for (int bad = 0; bad < (int)(sizeof tune_case / sizeof *tune_case); bad++) {
        printf("-- tune entry: %s\n", tune_case[bad]);
        if (!plant(TILE__DISK_TUNE, bad, path, good, len, victim, sizeof victim)) {
            printf("%s: skipped: not root, so no file of another user can be made (chown)\n", tune_case[bad]);
            continue;
        }
        spawn("tune", n, tune_case[bad], tune_case[bad]);
        check_replaced(tune_case[bad], path, victim, good, len);
        if (victim[0]) unlink(victim);
    }
    free(good);
}

static void test_kernel_entries(void) {
    const tile_launch *o = TILE_OPTS(.grid = {KN / 256}, .meta = {{"BLOCK", 256}});
    char path[1024], victim[800], text[16384];
    tile__variant *v = NULL;
    tile_arg args[4];
    void *bufs[3];
    if (!have_compiler()) {
        printf("compiled-kernel entries: skipped: no GPU, and neither NVRTC nor LLVM to make PTX\n");
        return;
    }
    if (!gpu()) printf("compiled-kernel entries with cubin, launched from the loaded code: skipped: no GPU (the entries are checked as PTX)\n");
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    remove_entries(cache, ".kernel");
    capture_begin();
    tile_status st = lookup_variant(o, &v, args, bufs);
    capture_end(text, sizeof text);
    TT_CHECK(st == TILE_OK, "the first variant: %s", tile_last_error());
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    if (find_entry(cache, ".kernel", path, sizeof path) != 1) {
        TT_CHECK(0, "one .kernel file in %s (stderr: %s)", cache, text);
        return;
    }
    TT_CHECK(is_good_file(path), "%s is a regular file of this user, mode 0600", path);
    size_t len = 0;
    char *good = read_all(path, &len);
    for (int bad = 0; bad < (int)(sizeof kernel_case / sizeof *kernel_case); bad++) {
        printf("-- compiled-kernel entry: %s\n", kernel_case[bad]);
        if (!plant(TILE__DISK_KERNEL, bad, path, good, len, victim, sizeof victim)) {
            printf("%s: skipped: not root, so no file of another user can be made (chown)\n", kernel_case[bad]);
            continue;
        }
        spawn("kernel", "-", kernel_case[bad], kernel_case[bad]);
        check_replaced(kernel_case[bad], path, victim, good, len);
        if (victim[0]) unlink(victim);
    }
    free(good);
}

/* Directories the cache must refuse, each in a new process. */
static void test_dirs(void) {
    char n[16], dir[4200], top[800];
    snprintf(n, sizeof n, "%d", tune_n);
    /* too long: 20 components of 200 characters */
    snprintf(top, sizeof top, "%s/long", base);
    int k = snprintf(dir, sizeof dir, "%s", top);
    for (int i = 0; i < 20; i++) k += snprintf(dir + k, sizeof dir - (size_t)k, "/%0200d", i);
    printf("-- a cache directory of %zu characters\n", strlen(dir));
    setenv("TILE_CACHE_DIR", dir, 1);
    spawn("dir", n, "a path too long", "a path too long");
    TT_CHECK(!info(top).exists, "a path too long: nothing is created (%s %s)", top,
             info(top).exists ? "exists" : "does not exist");
    remove_tree(top);

    /* writable by others */
    snprintf(dir, sizeof dir, "%s/open", base);
    mkdir(dir, 0700);
    chmod(dir, 0777);
    printf("-- a cache directory of mode 0777\n");
    setenv("TILE_CACHE_DIR", dir, 1);
    spawn("dir", n, "a directory writable by others", "a directory writable by others");
    TT_CHECK(count_entries(dir, NULL) == 0, "a directory writable by others: nothing is written in it (%d files)", count_entries(dir, NULL));

    /* owned by another user */
    snprintf(dir, sizeof dir, "%s/theirs", base);
    mkdir(dir, 0755);
    chmod(dir, 0755);
    if (is_root && chown(dir, OTHER_UID, OTHER_UID) == 0) {
        printf("-- a cache directory of uid %d, mode 0755\n", OTHER_UID);
        setenv("TILE_CACHE_DIR", dir, 1);
        spawn("dir", n, "a directory of another user", "a directory of another user");
        TT_CHECK(count_entries(dir, NULL) == 0, "a directory of another user: nothing is written in it (%d files)", count_entries(dir, NULL));
    } else
        printf("a directory of another user: skipped: not root, so no directory of another user can be made (chown)\n");
    setenv("TILE_CACHE_DIR", cache, 1);
}

static void test_stale(void) {
    char n[16];
    snprintf(n, sizeof n, "%d", tune_n);
    printf("-- stale temporary names\n");
    spawn("stale", n, NULL, "stale temporary names");
}

static void test_repro(void) {
    char victim[800], fixed[800];
    snprintf(victim, sizeof victim, "%s/victim-repro", outside);
    snprintf(fixed, sizeof fixed, "%s/" KNAME ".cu", tmpdir);
    write_all(victim, "victim\n", 7, 0600);
    unlink(fixed);
    TT_CHECK(symlink(victim, fixed) == 0, "a link at %s", fixed);
    /* through NVRTC also in the LLVM build (LLVM takes any target name) */
    char backend[64];
    snprintf(backend, sizeof backend, "%s", getenv("TILE_BACKEND") ? getenv("TILE_BACKEND") : "");
    setenv("TILE_BACKEND", "nvrtc", 1);
    printf("-- the source after an NVRTC failure, with a cache directory\n");
    spawn("repro", "cache", cache, "repro (cache)");
    printf("-- the source after an NVRTC failure, with TILE_CACHE=0\n");
    setenv("TILE_CACHE", "0", 1);
    spawn("repro", "tmp", tmpdir, "repro (tmp)");
    unsetenv("TILE_CACHE");
    if (backend[0]) setenv("TILE_BACKEND", backend, 1);
    else unsetenv("TILE_BACKEND");
    unlink(fixed);
}

static void test_key(void) {
    char dir[800];
    if (!have_compiler()) {
        printf("compile once per variant, keyed on its code: skipped: no GPU, and neither NVRTC nor LLVM to make PTX\n");
        return;
    }
    snprintf(dir, sizeof dir, "%s/key", base);
    setenv("TILE_CACHE_DIR", dir, 1);
    printf("-- compile once per variant, keyed on its code and the back end's version\n");
    spawn("key", "-", NULL, "keyed on the code");
    setenv("TILE_CACHE_DIR", cache, 1);
}
static void test_once(void) {
    char dir[800];
    if (!have_compiler()) {
        printf("compile once: skipped: no GPU, and neither NVRTC nor LLVM to make PTX\n");
        return;
    }
    snprintf(dir, sizeof dir, "%s/once", base);
    setenv("TILE_CACHE_DIR", dir, 1);
    printf("-- compile once\n");
    spawn("once", "first", NULL, "compile once");
    spawn("once", "again", NULL, "compile once, a second process");
    setenv("TILE_CACHE_DIR", cache, 1);
}

int main(int argc, char **argv) {
    if (strchr(argv[0], '/')) self = argv[0];
    unsetenv("TILE_QUIET");   /* the notices are what is counted */
    unsetenv("TILE_AUTOTUNE_VERBOSE");
    unsetenv("TILE_DUMP_DIR");
    if (argc >= 3 && strcmp(argv[1], "--case") == 0) return run_case(argc, argv);
    tt_seed();
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)tt_state);
    setenv("TILE_SEED", seed, 1);   /* the children replay this run */
    umask(022);                     /* the usual one: the modes checked are the library's choice */
    is_root = geteuid() == 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/tile-cache-files-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(base)) {
        printf("FAIL: mkdtemp(%s): %s\n", base, strerror(errno));
        return 1;
    }
    snprintf(cache, sizeof cache, "%s/made/by/tile", base);
    snprintf(outside, sizeof outside, "%s/outside", base);
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp", base);
    mkdir(outside, 0755);
    mkdir(tmpdir, 0700);
    setenv("TILE_TEST_BASE", base, 1);
    setenv("TILE_CACHE_DIR", cache, 1);
    setenv("TMPDIR", tmpdir, 1);
    unsetenv("TILE_CACHE");
    tune_n = (int)tt_int(1000, 5000);
    printf("back end %s, %s, cache %s, tuned n = %d\n", tile_backend_name(), is_root ? "root" : "not root", cache, tune_n);
    if (!is_root) printf("the cases of another user's file or directory are skipped: they need root (chown)\n");

    test_made();
    test_tune_entries();
    test_kernel_entries();
    test_dirs();
    test_stale();
    test_repro();
    test_once();
    test_key();

    tile_autotune_release(&tuner);
    tile_kernel_release(TILE_KERNEL_OF(muladd_kernel));
    remove_tree(base);
    return tt_finish("test_cache_files");
}
