/* tile/knobs.h — >>knobs: every environment variable the library reads, in
   one table, read once.

   Why it is shaped this way: a knob read where it is used is read in many
   places, at different times, with different rules for a bad value, and
   the manual forgets some. Here each is one row of TILE__KNOBS: its name,
   kind, default, the values it takes and what it does. The table gives the
   struct of values (tile__knob_values), the one reader (on first use, under
   pthread_once: a bad value is one notice naming the knob, and the knob
   keeps its default), the KNOBS block of tile.h's manual (a test prints it
   from the table and compares; tests/knobs_manual.c), and TILE_DUMP=knobs.
   The files that own a knob interpret its text (TILE_DUMP's stage list,
   TILE_WGMMA's modes, TILE_ARCH's target) from these values, never from
   the environment. The LLVM back end, a file of its own, gets them through
   its load hook. */

/* X(NAME, kind, field, size, default, values, what): kind FLAG (0/1, no/yes,
   off/on, false/true) is an int; STR is text of at most size - 1 bytes (""
   when unset); default is what an unset knob means. */
#define TILE__KNOBS(X)                                                                                                                \
    X(TILE_BACKEND, STR, backend, 16, "llvm, nvrtc or interp", "llvm|nvrtc|interp",                                                  \
      "the back end: llvm when tile_backend_llvm.c is linked and a libLLVM loads, else nvrtc on a GPU, else interp")                 \
    X(TILE_INTERPRET, FLAG, interpret, 0, "0", "1", "run every kernel in the interpreter, even on a GPU")                              \
    X(TILE_INTERPRET_DEVICES, STR, interpret_devices, 8, "1", "1..16", "the devices the interpreter presents to tile_set_device, so that code for several GPUs runs and is checked without them") \
    X(TILE_DUMP, STR, dump, 160, "", "ir,ttgir,cuda,llir,ptx,times,knobs",                                                            \
      "print these stages to stderr, or to TILE_DUMP_DIR/<kernel>.<stage>")                                                           \
    X(TILE_DUMP_DIR, STR, dump_dir, 512, "", "<dir>", "where TILE_DUMP writes, and NVRTC's failing source")                     \
    X(TILE_ARCH, STR, arch, 32, "sm_90a", "sm_80|sm_90a|...", "the target without a GPU (with one, the GPU's)")                       \
    X(TILE_SYNC, FLAG, sync, 0, "0", "1", "every launch waits for its kernel and reports its errors")                                  \
    X(TILE_MANAGED, FLAG, managed, 0, "0", "1", "tile_malloc hands out unified memory the host can touch")                             \
    X(TILE_WGMMA, STR, wgmma, 8, "1", "0|1|wait", "tl_dot on sm_90a: 0 mma.sync; 1 wgmma, kept in flight; wait: each waited for")     \
    X(TILE_TMA, FLAG, tma, 0, "1", "0|1", "tensor-descriptor loads of a pipelined tl_dot, and stores of rows of whole 16-byte chunks, on sm_90a: 1 the copy engine (TMA); 0 pointer accesses")  \
    X(TILE_TMA_REDUCE, FLAG, tma_reduce, 0, "1", "0|1",                                                                                \
      "tl_desc_atomic_add/min/max and stores of 32-bit blocks on sm_90a: 1 the copy engine (a block at a negative coordinate or off a 16-byte column, which an H100 refuses, element by element); 0 pointer atomics and stores")   \
    X(TILE_QUIET, FLAG, quiet, 0, "0", "1", "no errors or notices on stderr")                                                          \
    X(TILE_STRICT, FLAG, strict, 0, "0", "1", "a loop option the compiler cannot apply is an error (TILE_ERR_OPTION), not a notice")  \
    X(TILE_MAX_UNROLL, STR, max_unroll, 16, "16384", "<n>",                                                                             \
      "the most tile elements one thread's code may hold, summed over a kernel's ops (TILE_DUMP=ttgir prints it); past it TILE_ERR_BLOCK, not a compile of tens of seconds") \
    X(TILE_DEBUG, FLAG, debug, 0, "0", "1", "NVRTC emits line info (-lineinfo)")                                                       \
    X(TILE_MERGE, FLAG, merge, 0, "1", "0|1", "the lowering hands the back end each repeated index computation once (NVRTC compiles a large matmul 5-13x faster); 0: once per element, as before")  \
    X(TILE_CUDA, STR, cuda, 512, "", "<path>", "the CUDA driver library")                                                              \
    X(TILE_NVRTC, STR, nvrtc, 512, "", "<path>", "the NVRTC library")                                                                  \
    X(TILE_JITLINK, FLAG, jitlink, 0, "0", "1", "PTX to cubin through the toolkit's libnvJitLink where it loads, in the compiling thread, so a tuner's configs assemble side by side (the driver's JIT takes them one at a time); its code can be slower than the driver's") \
    X(TILE_DEVICE, STR, device, 32, "0", "<n>", "the GPU of every thread that has not called tile_set_device")                                                               \
    X(CUDA_HOME, STR, cuda_home, 512, "", "<dir>", "where NVRTC and libdevice are looked for")                                  \
    X(CUDA_PATH, STR, cuda_path, 512, "", "<dir>", "where NVRTC and libdevice are looked for, after CUDA_HOME")                 \
    X(TILE_CACHE, FLAG, cache, 0, "1", "0|1", "the disk cache of tuned configs and compiled kernels")                                 \
    X(TILE_CACHE_DIR, STR, cache_dir, 4096, "$XDG_CACHE_HOME/tile or ~/.cache/tile", "<dir>", "the disk cache's directory")    \
    X(XDG_CACHE_HOME, STR, xdg_cache_home, 4096, "", "<dir>", "the disk cache is its tile/ when TILE_CACHE_DIR is unset")       \
    X(HOME, STR, home, 4096, "", "<dir>", "the disk cache is its .cache/tile when neither of those is set")                     \
    X(TILE_EXPORT, STR, export_dir, 3072, "", "<dir>", "write every kernel variant compiled and every tuner winner picked to <dir>, as C files for a TILE_AOT build")  \
    X(TILE_EXPORT_ARCH, STR, export_arch, 160, "", "sm_80,sm_90a,...", "with TILE_EXPORT: each variant also as PTX for these targets")  \
    X(TILE_AOT_ONLY, FLAG, aot_only, 0, "0", "1", "in a TILE_AOT build, a variant or tuner key the tables lack is an error (TILE_ERR_COMPILE), not compiled") \
    X(TILE_AUTOTUNE_VERBOSE, FLAG, autotune_verbose, 0, "0", "1", "the tuner prints each config's time, the cache what it does")     \
    X(TMPDIR, STR, tmpdir, 512, "/tmp", "<dir>", "NVRTC's failing source, without TILE_DUMP_DIR or a cache directory")        \
    X(TILE_LLVM, STR, llvm, 512, "", "<path>", "the libLLVM of the LLVM back end (tile_backend_llvm.c)")                        \
    X(TILE_LLVM_OPT, STR, llvm_opt, 4, "1", "1|2|3", "the LLVM back end's optimizer, default<O1>, <O2> or <O3> (O1 compiles a large matmul an eighth faster than O3 and its kernels run as fast)")  \
    X(TILE_LLVM_CODEGEN, STR, llvm_codegen, 4, "2", "0|1|2|3", "the LLVM back end's code generator level, None, Less, Default or Aggressive (Default emits a large kernel's PTX a third faster than Aggressive)")  \
    X(TILE_PROFILE, STR, profile, 4096, "", "<path>|-", "profile the whole program: the report at its end, in <path>.txt/.json/.html (- : the tree on stderr)")  \
    X(TILE_CUPTI, STR, cupti, 512, "", "<path>|0", "the CUPTI library a profile reads kernel times from; 0: CUDA events around each launch instead")  \
    X(TILE_NVTX, STR, nvtx, 512, "", "<path>|0", "the NVTX library (libnvtx3interop, libnvToolsExt) that makes a profile's scopes and launches Nsight ranges; 0: none")

#define TILE__KNOB_FIELD_FLAG(field, size) int field;
#define TILE__KNOB_FIELD_STR(field, size) char field[size];
#define TILE__KNOB_FIELD(name, kind, field, size, def, values, what) TILE__KNOB_FIELD_##kind(field, size)
typedef struct tile__knob_values {
    TILE__KNOBS(TILE__KNOB_FIELD)
} tile__knob_values;
#undef TILE__KNOB_FIELD

#ifndef TILE__KNOBS_TABLE_ONLY /* tests/knobs_manual.c reads the table alone */
/* (tile_backend_llvm.c compiles a copy, unused: it gets the library's
   values through its load hook) */
static tile__knob_values tile__kv;
static pthread_once_t tile__kv_once = PTHREAD_ONCE_INIT;

/* One line on stderr for a knob the library ignores, unless TILE_QUIET. */
static void tile__knob_notice(const char *knob, const char *value, const char *why) {
    if (!tile__kv.quiet) fprintf(stderr, "tile: %s=%s: %s\n", knob, value, why);
}
/* 1 when a and b are equal but for the case of ASCII letters */
static int tile__same_word(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a, y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}
static void tile__knob_read_flag(const char *knob, const char *def, int *out) {
    static const char *const words[] = {"0", "1", "no", "yes", "off", "on", "false", "true"};
    const char *v = getenv(knob);
    *out = def[0] == '1';
    if (!v || !*v) return;
    for (int i = 0; i < (int)(sizeof words / sizeof *words); i++)
        if (tile__same_word(v, words[i])) {
            *out = i % 2;
            return;
        }
    tile__knob_notice(knob, v, "not a flag (0 or 1); ignored");
}
static void tile__knob_read_str(const char *knob, char *buf, size_t n) {
    const char *v = getenv(knob);
    size_t len = v ? strlen(v) : 0;
    buf[0] = 0;
    if (len >= n) {
        char why[96];
        snprintf(why, sizeof why, "longer than %zu characters; ignored", n - 1);
        tile__knob_notice(knob, v, why);
    } else if (len) {
        memcpy(buf, v, len + 1);
    }
}
#define TILE__KNOB_READ_FLAG(name, field, size, def) \
    if (&tile__kv.field != &tile__kv.quiet) tile__knob_read_flag(#name, def, &tile__kv.field);
#define TILE__KNOB_READ_STR(name, field, size, def) tile__knob_read_str(#name, tile__kv.field, sizeof tile__kv.field);
#define TILE__KNOB_READ(name, kind, field, size, def, values, what) TILE__KNOB_READ_##kind(name, field, size, def)
static void tile__kv_read(void) {
    tile__knob_read_flag("TILE_QUIET", "0", &tile__kv.quiet);   /* first: it silences the others' notices */
    TILE__KNOBS(TILE__KNOB_READ)
}
#undef TILE__KNOB_READ
static const tile__knob_values *tile__knob_values_get(void) {
    pthread_once(&tile__kv_once, tile__kv_read);
    return &tile__kv;
}
/* TILE_DUMP=knobs: every knob, its value here (or that it is unset) and its default */
#define TILE__KNOB_DUMP_FLAG(name, field)                                                                                      \
    at += (size_t)snprintf(buf + at, at < n ? n - at : 0, "%-22s %-8s", #name, getenv(#name) ? (kv->field ? "1" : "0") : "(unset)")
#define TILE__KNOB_DUMP_STR(name, field)                                                                                         \
    at += (size_t)snprintf(buf + at, at < n ? n - at : 0, "%-22s %-8s", #name, kv->field[0] ? kv->field : "(unset)")
#define TILE__KNOB_DUMP(name, kind, field, size, def, values, what)                                                        \
    TILE__KNOB_DUMP_##kind(name, field);                                                                                       \
    at += (size_t)snprintf(buf + at, at < n ? n - at : 0, "  default %s; %s: %s\n", def[0] ? def : "none", values, what);
static size_t tile__knobs_text(char *buf, size_t n) {
    const tile__knob_values *kv = tile__knob_values_get();
    size_t at = 0;
    TILE__KNOBS(TILE__KNOB_DUMP)
    return at;
}
#undef TILE__KNOB_DUMP
#undef TILE__KNOB_DUMP_FLAG
#undef TILE__KNOB_DUMP_STR
#endif
