/* tests/knobs_manual.c — the KNOBS block of tile.h's manual, from the one
   table of knobs (tile/knobs.h).

     knobs_manual             print the block
     knobs_manual tile.h      exit 1 (and print both) unless tile.h has it

   A knob added to the table and not to the manual, or the other way round,
   fails the test `knobs_manual`; the block to paste is what this prints. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE__KNOBS_TABLE_ONLY
#include "tile/knobs.h"

static char block[16384];
static size_t used;

static void put(const char *s) {
    size_t n = strlen(s);
    if (used + n < sizeof block) memcpy(block + used, s, n + 1), used += n;
}
/* words of `text` in lines of at most 78 columns, the first after `first`,
   the others indented by `indent` spaces */
static void wrap(const char *first, const char *text, int indent) {
    char line[256];
    snprintf(line, sizeof line, "%s", first);
    const char *p = text;
    while (*p) {
        size_t w = strcspn(p, " ");
        if (strlen(line) + 1 + w > 78 && strlen(line) > (size_t)indent) {
            put(line);
            put("\n");
            snprintf(line, sizeof line, "%*s%.*s", indent, "", (int)w, p);
        } else {
            size_t l = strlen(line);
            snprintf(line + l, sizeof line - l, "%s%.*s", line[l ? l - 1 : 0] == ' ' || l == 0 ? "" : " ", (int)w, p);
        }
        p += w;
        while (*p == ' ') p++;
    }
    put(line);
    put("\n");
}
static void make(void) {
    wrap("   KNOBS", "(environment variables, read once; the table is tile/knobs.h, and TILE_DUMP=knobs prints it with the values in use). A bad "
                     "value of any knob is one notice naming it, and the knob keeps its default; TILE_ARCH is checked against the back end in "
                     "use, and only where it applies.",
         3);
    char head[160], text[600];
#define ROW(name, kind, field, size, def, values, what)                                        \
    snprintf(head, sizeof head, "     %s=%s:", #name, values);                                  \
    snprintf(text, sizeof text, "%s%s%s%s", what, def[0] ? " (default: " : "", def, def[0] ? ")" : ""); \
    wrap(head, text, 7);
    TILE__KNOBS(ROW)
#undef ROW
}
int main(int argc, char **argv) {
    make();
    if (argc < 2) {
        fputs(block, stdout);
        return 0;
    }
    FILE *fp = fopen(argv[1], "r");
    if (!fp) {
        printf("FAIL: cannot read %s\n", argv[1]);
        return 1;
    }
    static char file[1 << 20];
    size_t n = fread(file, 1, sizeof file - 1, fp);
    fclose(fp);
    file[n] = 0;
    const char *at = strstr(file, "\n   KNOBS");
    if (at && strncmp(at + 1, block, used) == 0 && at[1 + used] == '\n') {
        printf("knobs_manual: %s's KNOBS block is the table's (%zu bytes)\n", argv[1], used);
        return 0;
    }
    printf("FAIL: %s's KNOBS block is not the table's (tile/knobs.h); it should read, up to an empty line:\n%s", argv[1], block);
    return 1;
}
