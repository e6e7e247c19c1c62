#!/bin/sh
# bench/llvm_device.sh — the LLVM back end on a GPU machine, in one go:
#   1. the cold compile of vector add through LLVM, stage by stage (TILE_DUMP=times)
#   2. every example and test linked with tile_backend_llvm.c, run with
#      TILE_BACKEND=llvm (and TILE_SYNC=1 TILE_MANAGED=1, as CTest runs them)
#   3. bench_memory and bench_launch through NVRTC and through LLVM, side by side
# It needs build/llvm from the CMake build (cmake --build build) and the bench
# programs linked with the back end:
#   for p in bench_memory bench_launch; do
#       cc -std=c11 -O2 -I. bench/$p.c tile_backend_llvm.c -o build/llvm/bench/$p -ldl -lm -lpthread; done
# `--no-bench` stops after 2. The disk cache is off (TILE_CACHE=0) so that each back end compiles its own.
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
export TILE_CACHE=0
status=0
echo "== 1. cold compile + first launch of vector add through LLVM"
(cd build/llvm/examples && TILE_BACKEND=llvm TILE_DUMP=times ./vector_add) 2>&1 || status=1
echo "== 2. examples and tests with TILE_BACKEND=llvm"
logs=$(mktemp -d)
for exe in build/llvm/examples/* build/llvm/tests/*; do
    [ -x "$exe" ] && [ -f "$exe" ] || continue
    name=$(basename "$exe")
    case $exe in */examples/*) dir=$root/build/llvm/examples ;; *) dir=$root ;; esac
    (cd "$dir" && TILE_SYNC=1 TILE_MANAGED=1 TILE_QUIET=1 TILE_BACKEND=llvm timeout 150 "$root/$exe" >"$logs/$name.log" 2>&1
     echo $? >"$logs/$name.rc") &
done
wait
for rc in "$logs"/*.rc; do
    name=$(basename "$rc" .rc)
    if [ "$(cat "$rc")" = 0 ]; then echo "ok   $name"; else echo "FAIL $name (status $(cat "$rc"))"; tail -15 "$logs/$name.log"; status=1; fi
done
[ "${1:-}" = "--no-bench" ] && exit $status
echo "== 3. bench programs, NVRTC then LLVM"
for prog in bench_memory bench_launch; do
    for be in nvrtc llvm; do
        echo "== $prog TILE_BACKEND=$be"
        TILE_BACKEND=$be timeout 55 build/llvm/bench/$prog 2>&1 || { echo "== $prog ($be) exited with status $?"; status=1; }
    done
done
exit $status
