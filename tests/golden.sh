#!/bin/sh
# tests/golden.sh — golden IR dumps of the examples.
#
#   sh tests/golden.sh BUILD_DIR/examples      compare
#   TILE_UPDATE_GOLDEN=1 sh tests/golden.sh ...   rewrite tests/golden/
#
# Runs every example (examples/*.c, executable BUILD_DIR/examples/<name>) with
# TILE_DUMP=ir into a fresh directory and compares each <kernel>.ir it writes
# with tests/golden/<kernel>.ir. The dump is the IR after verify, fold, CSE
# and DCE, so a change to the builder or a pass shows up here as a readable
# diff. Fails when an example fails or writes no dump, when a golden is
# missing, or when a dump differs. Review the diff before updating.
#
# The `// file:line` column is dropped (from the goldens too): __LINE__ in a
# macro call that spans lines is the first line for gcc and the last for
# clang, and a golden should not change when an example's comments do.
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR_WITH_EXAMPLE_EXECUTABLES" >&2
    exit 2
fi
bindir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
golden=$root/tests/golden
update=${TILE_UPDATE_GOLDEN:-0}
work=$(mktemp -d "${TMPDIR:-/tmp}/tile_golden.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

[ "$update" = 1 ] && mkdir -p "$golden"
found=0
for src in "$root"/examples/*.c; do
    [ -f "$src" ] || continue
    found=1
    name=$(basename "$src" .c)
    exe=$bindir/$name
    if [ ! -x "$exe" ]; then
        fail "$name: no executable $exe"
        continue
    fi
    dir=$work/$name
    mkdir "$dir"
    if ! TILE_DUMP=ir TILE_DUMP_DIR=$dir "$exe" >"$work/$name.log" 2>&1; then
        fail "$name: the example failed; its output:"
        cat "$work/$name.log"
        continue
    fi
    dumps=0
    for ir in "$dir"/*.ir; do
        [ -f "$ir" ] || continue
        dumps=$((dumps + 1))
        kernel=$(basename "$ir")
        got=$work/$name.$kernel
        sed 's|  *// [^ ]*:[0-9][0-9]*$||' "$ir" >"$got"
        if [ "$update" = 1 ]; then
            cp "$got" "$golden/$kernel" && echo "updated tests/golden/$kernel"
        elif [ ! -f "$golden/$kernel" ]; then
            fail "$name: no golden tests/golden/$kernel (create it with TILE_UPDATE_GOLDEN=1)"
        elif diff -u "$golden/$kernel" "$got"; then
            echo "ok   $name: $kernel"
        else
            fail "$name: $kernel differs from tests/golden/$kernel (the diff is above)"
        fi
    done
    [ "$dumps" -gt 0 ] || fail "$name: wrote no IR dump (is TILE_DUMP_DIR honoured?)"
done
[ "$found" = 1 ] || fail "no examples/*.c under $root"

if [ "$failures" -gt 0 ]; then
    echo "golden: $failures failures"
    exit 1
fi
echo "golden: all dumps match"
exit 0
