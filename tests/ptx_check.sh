#!/bin/sh
# tests/ptx_check.sh — every example's and op test's kernels, compiled to PTX
# through NVRTC for one architecture and assembled by ptxas (no GPU needed).
#
#   sh tests/ptx_check.sh BUILD_DIR ARCH        e.g. build sm_90a
#
# Each program runs in the interpreter with TILE_ARCH=ARCH TILE_DUMP=ptx, so
# every kernel it launches is also lowered and compiled by NVRTC (a failure
# fails the launch, and so the program); the last PTX of each kernel lands
# in a directory and is assembled here with ptxas -v. Vector add and softmax
# must not spill, and vector add must use 16-byte global loads and stores.
set -u
bindir=$1
arch=$2
root=$(cd "$(dirname "$0")/.." && pwd)
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$ptxas" ]; then
    echo "FAIL: ptxas not found (set PTXAS)"
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tile_ptx.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

programs=""
for src in "$root"/examples/*.c; do programs="$programs $bindir/examples/$(basename "$src" .c)"; done
for src in "$root"/tests/test_ops_*.c "$root"/tests/test_control.c; do programs="$programs $bindir/tests/$(basename "$src" .c)"; done
for exe in $programs; do
    name=$(basename "$exe")
    dir=$work/$name
    mkdir "$dir"
    if ! (cd "$root" && TILE_INTERPRET=1 TILE_QUIET=1 TILE_ARCH=$arch TILE_DUMP=ptx TILE_DUMP_DIR=$dir "$exe") >"$work/$name.log" 2>&1; then
        fail "$name: failed while compiling its kernels for $arch"
        tail -20 "$work/$name.log"
        continue
    fi
    n=0
    for ptx in "$dir"/*.ptx; do
        [ -f "$ptx" ] || continue
        n=$((n + 1))
        kernel=$(basename "$ptx" .ptx)
        if ! "$ptxas" -arch="$arch" -v "$ptx" -o "$work/out.cubin" >"$work/ptxas.log" 2>&1; then
            fail "$name/$kernel: ptxas -arch=$arch rejected it"
            head -20 "$work/ptxas.log"
            continue
        fi
        spills=$(grep -o '[0-9]* bytes spill stores' "$work/ptxas.log" | awk '{s += $1} END {print s + 0}')
        case $kernel in
        add_kernel | softmax_kernel)
            [ "$spills" -eq 0 ] || fail "$name/$kernel: $spills bytes of spill stores on $arch"
            ;;
        esac
        if [ "$kernel" = add_kernel ]; then
            grep -q 'ld\.global\.v4\.[fbu]32' "$ptx" || fail "$name/$kernel: no 16-byte global loads"
            grep -q 'st\.global\.v4\.[fbu]32' "$ptx" || fail "$name/$kernel: no 16-byte global stores"
        fi
    done
    [ "$n" -gt 0 ] || fail "$name: wrote no PTX"
    echo "ok   $name: $n kernels assembled for $arch"
done
if [ "$failures" -ne 0 ]; then
    echo "ptx_check $arch: $failures failures"
    exit 1
fi
echo "ptx_check $arch: all kernels assembled"
