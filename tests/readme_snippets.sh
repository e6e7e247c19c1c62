#!/usr/bin/env bash
# readme_snippets.sh README.md OUTDIR — the README's kernels compile.
#
# Every ```c fenced block of README.md that contains TILE_KERNEL is written to
# OUTDIR/snippet_<line>.c (with a #line directive, so errors name README.md
# lines) and compiled with $CC (default cc) as C11 against
# the repository root (the working directory), with -Wall -Wextra -Werror
# -pedantic and $CFLAGS. A block without `main` is compiled with -c; a block
# with `main` is a complete program: it is linked (-ldl -lm -lpthread) and
# run, and must exit 0. Fails if any block fails, naming the README line.
set -euo pipefail

readme=${1:?usage: readme_snippets.sh README.md OUTDIR}
outdir=${2:?usage: readme_snippets.sh README.md OUTDIR}
cc=${CC:-cc}
root=$(pwd)
read -r -a extra <<< "${CFLAGS:-}"
mkdir -p "$outdir"
rm -f "$outdir"/snippet_*

# Split the README into one file per ```c block, named by its first line.
# A #line directive makes compiler errors point into README.md itself.
awk -v out="$outdir" -v name="$readme" '
    /^```c[[:space:]]*$/ && !inblock { inblock = 1; start = NR + 1; body = ""; next }
    /^```/ && inblock {
        inblock = 0
        if (body ~ /TILE_KERNEL/) {
            f = sprintf("%s/snippet_%04d.c", out, start)
            printf "#line %d \"%s\"\n%s", start, name, body > f
            close(f)
        }
        next
    }
    inblock { body = body $0 "\n" }
' "$readme"

shopt -s nullglob
snippets=("$outdir"/snippet_*.c)
if [ ${#snippets[@]} -eq 0 ]; then
    echo "readme_snippets: no \`\`\`c block with TILE_KERNEL in $readme" >&2
    exit 1
fi

flags=(-std=c11 -Wall -Wextra -Werror -pedantic -I"$root" "${extra[@]}")
failed=0
for f in "${snippets[@]}"; do
    line=$(basename "$f" .c); line=$((10#${line#snippet_}))
    where="$readme:$line"
    if grep -Eq '(^|[^[:alnum:]_])main[[:space:]]*\(' "$f"; then
        exe=${f%.c}
        if ! "$cc" "${flags[@]}" "$f" -o "$exe" -ldl -lm -lpthread; then
            echo "FAIL $where: does not compile" >&2; failed=1; continue
        fi
        if ! out=$("$exe" 2>&1); then
            printf '%s\n' "$out" >&2
            echo "FAIL $where: the program exits non-zero" >&2; failed=1; continue
        fi
        echo "ok   $where (compiled, linked, ran)"
    else
        if ! "$cc" "${flags[@]}" -c "$f" -o "${f%.c}.o"; then
            echo "FAIL $where: does not compile" >&2; failed=1; continue
        fi
        echo "ok   $where (compiled)"
    fi
done
exit $failed
