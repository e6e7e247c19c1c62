#!/bin/sh
# tests/aot.sh — kernels shipped ahead of time, end to end (README "Shipping
# kernels"):
#
#   sh tests/aot.sh CC BUILD_DIR
#
# 1. export: tests/test_aot (its kernels, a tuner) into one directory, and
#    the examples vector_add and softmax_autotune (a tuner) together into
#    another, each run with TILE_EXPORT (and TILE_CACHE=0: everything is
#    compiled, nothing comes from an earlier run). Without a GPU the
#    variants exported are PTX for TILE_ARCH (sm_90a), what a GPU would load;
#    on a GPU, its cubins and PTX.
# 2. the AOT builds: each program again, with -DTILE_AOT and the C files of
#    its directory, no LLVM back end, under -Wall -Wextra -Werror -pedantic.
# 3. runs: test_aot checks that nothing was compiled, that every variant and
#    the winner came from the tables and that neither NVRTC nor LLVM was
#    loaded, then that a variant the tables lack is compiled, and with
#    TILE_AOT_ONLY=1 is an error at its line; the examples run with
#    TILE_AOT_ONLY=1 (a compile would fail them) and check their results.
set -u
cc=${1:-cc}
build=${2:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tile_aot.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
flags="-std=c11 -O1 -Wall -Wextra -Werror -pedantic -DTILE_AOT -I$root"
libs="-ldl -lm -lpthread"

# 1. export
TILE_CACHE=0 TILE_EXPORT="$work/t" "$build/tests/test_aot" export >"$work/t.log" 2>&1 || { cat "$work/t.log"; fail "test_aot export"; }
for ex in vector_add softmax_autotune; do
    (cd "$build/examples" && TILE_CACHE=0 TILE_EXPORT="$work/ex" "./$ex") >"$work/$ex.log" 2>&1 || { cat "$work/$ex.log"; fail "$ex with TILE_EXPORT"; }
done
for d in t ex; do
    [ -f "$work/$d/tile_aot.c" ] || fail "no $d/tile_aot.c was written"
    echo "exported to $d: $(ls "$work/$d"/*.c 2>/dev/null | wc -l) C files, $(ls "$work/$d/store" 2>/dev/null | wc -l) entries, $(du -sk "$work/$d" | cut -f1) KB"
done
grep -q tile_aot_add_kernel_ "$work/ex/tile_aot.c" && grep -q tile_aot_softmax_autotuned_ "$work/ex/tile_aot.c" ||
    fail "the examples' index does not name both examples' kernels"

# 2. the AOT builds
$cc $flags "$root/tests/test_aot.c" "$work"/t/*.c -o "$work/test_aot_rel" $libs >"$work/b.log" 2>&1 || { head -n 30 "$work/b.log"; fail "the AOT build of test_aot"; }
for ex in vector_add softmax_autotune; do
    $cc $flags "$root/examples/$ex.c" "$work"/ex/*.c -o "$work/$ex" $libs >"$work/b.log" 2>&1 || { head -n 30 "$work/b.log"; fail "the AOT build of $ex"; }
done

# 3. runs
if [ -x "$work/test_aot_rel" ]; then
    # (TILE_BACKEND= : a release has no LLVM back end to ask for)
    TILE_BACKEND= "$work/test_aot_rel" aot || fail "test_aot aot"
    TILE_BACKEND= TILE_AOT_ONLY=1 "$work/test_aot_rel" aot || fail "test_aot aot, TILE_AOT_ONLY=1"
fi
for ex in vector_add softmax_autotune; do
    [ -x "$work/$ex" ] || continue
    if TILE_BACKEND= TILE_AOT_ONLY=1 TILE_CACHE=0 "$work/$ex" >"$work/$ex.run" 2>&1; then
        echo "ok: $ex (AOT, TILE_AOT_ONLY=1): $(grep -v '^tile:' "$work/$ex.run" | head -n 1)"
    else
        cat "$work/$ex.run"
        fail "$ex, built AOT, with TILE_AOT_ONLY=1"
    fi
done
if [ "$failures" -ne 0 ]; then
    echo "aot: $failures failures"
    exit 1
fi
echo "aot: all passed"
