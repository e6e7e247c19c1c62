/* cmake/amalgamate.c — one-file vendoring: tile.h with everything it
   includes from the source tree written in place, in the order the
   preprocessor reads it (the layers' order, tile.h's implementation list).

     amalgamate SRC_DIR OUT_DIR

   writes OUT_DIR/tile.h (the whole library) and OUT_DIR/tile_backend_llvm.c
   (the LLVM back end, whose private includes of tile/ir.h and tile/emit.h are
   written in too, so that it needs only the one tile.h beside it).

   An `#include "x"` is replaced by the file x (next to the including file,
   else under SRC_DIR) when it exists; a file already being written further
   up (tile.h, which tile_autotune.h includes for itself) is left out, as
   its include guard would leave it out. Every other line, system includes
   and include guards too, is copied unchanged, so the output preprocesses
   exactly as the tree does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16
static const char *stack[MAX_DEPTH];
static int depth;
static int keep_tile_h;   /* the back end's file includes the amalgamated tile.h beside it */

static int exists(const char *path) {
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}
/* write `path` to out, with its project includes written in; 0 on failure */
static int emit(FILE *out, const char *path, const char *src) {
    for (int i = 0; i < depth; i++)
        if (strcmp(stack[i], path) == 0) return 1;   /* a guarded re-inclusion */
    if (depth == MAX_DEPTH) {
        fprintf(stderr, "amalgamate: includes nested deeper than %d at %s\n", MAX_DEPTH, path);
        return 0;
    }
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "amalgamate: cannot read %s\n", path);
        return 0;
    }
    stack[depth++] = path;
    char line[8192], dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    int ok = 1;
    fprintf(out, "/* ==== %s ==== */\n", path + (strncmp(path, src, strlen(src)) == 0 ? strlen(src) + 1 : 0));
    while (ok && fgets(line, sizeof line, in)) {
        const char *p = line;   /* a directive at the start of a line; an example in a comment is indented */
        char name[1024], cand[8192];
        const char *q;
        if (strncmp(p, "#include \"", 10) == 0 && (q = strchr(p + 10, '"')) != NULL && (size_t)(q - (p + 10)) < sizeof name) {
            memcpy(name, p + 10, (size_t)(q - (p + 10)));
            name[q - (p + 10)] = 0;
            snprintf(cand, sizeof cand, "%s/%s", dir, name);
            if (!exists(cand)) snprintf(cand, sizeof cand, "%s/%s", src, name);
            if (exists(cand) && !(keep_tile_h && strcmp(name, "tile.h") == 0)) {
                char *file = (char *)malloc(strlen(cand) + 1);
                if (file) memcpy(file, cand, strlen(cand) + 1);
                ok = file && emit(out, file, src);
                free(file);
                continue;
            }
        }
        fputs(line, out);
    }
    fclose(in);
    depth--;
    return ok;
}
static int write_one(const char *src, const char *name, const char *outdir, const char *banner) {
    char in[4096], outp[4096];
    snprintf(in, sizeof in, "%s/%s", src, name);
    snprintf(outp, sizeof outp, "%s/%s", outdir, name);
    FILE *out = fopen(outp, "w");
    if (!out) {
        fprintf(stderr, "amalgamate: cannot write %s\n", outp);
        return 0;
    }
    fprintf(out, "%s", banner);
    int ok = emit(out, in, src);
    if (fclose(out) != 0) ok = 0;
    if (!ok) remove(outp);
    else printf("amalgamate: wrote %s\n", outp);
    return ok;
}
int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s SRC_DIR OUT_DIR\n", argv[0]);
        return 2;
    }
    const char *banner =
        "/* tile, amalgamated: every file of the library in one, written by\n"
        "   cmake/amalgamate.c from the source tree (`cmake --build build --target\n"
        "   amalgamate`). Use it as tile.h: #define TILE_IMPLEMENTATION before\n"
        "   including it in exactly one C file. Do not edit; edit the tree. */\n";
    const char *ll_banner =
        "/* tile's LLVM back end, amalgamated (cmake/amalgamate.c): build it beside\n"
        "   the amalgamated tile.h. Do not edit; edit the tree. */\n";
    int ok = write_one(argv[1], "tile.h", argv[2], banner);
    keep_tile_h = 1;
    ok = write_one(argv[1], "tile_backend_llvm.c", argv[2], ll_banner) && ok;
    return ok ? 0 : 1;
}
