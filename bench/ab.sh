#!/bin/sh
# bench/ab.sh — the same bench programs built from two trees and run one
# after the other on one GPU, for "before and after" numbers from one run.
#
#   git archive <commit> | (mkdir -p .devbase && tar -x -C .devbase)
#   sh bench/ab.sh .devbase [rounds]     (run from the source root)
#
# Each tree's bench_launch, bench_memory and bench_matmul (and bench_launch
# linked with tile_backend_llvm.c) are built first, with no timing running;
# then bench_launch runs `rounds` times (default 2) interleaved, base then
# this tree, since its cold compile times move with the machine's load, and
# the others once each. The disk cache is off (TILE_CACHE=0). Everything is
# printed; OUT (default /tmp/ab) keeps ab.txt.
set -u
base=${1:?usage: sh bench/ab.sh BASE_TREE [rounds]}
rounds=${2:-2}
out=${OUT:-/tmp/ab}
mkdir -p "$out" build "$base/build" || exit 1
for tree in "$base" .; do
    for p in bench_launch bench_memory bench_matmul; do
        (cd "$tree" && cc -std=c11 -O2 -I. bench/$p.c -o build/$p -ldl -lm -lpthread) &
    done
    (cd "$tree" && cc -std=c11 -O2 -I. bench/bench_launch.c tile_backend_llvm.c -o build/bench_launch_llvm -ldl -lm -lpthread) &
done
wait
run() { # label tree program [VAR=value ...]
    label=$1 tree=$2 prog=$3
    shift 3
    echo "==== $label: $prog $*"
    (cd "$tree" && env TILE_CACHE=0 "$@" ./build/"$prog") 2>&1
}
{
    r=1
    while [ "$r" -le "$rounds" ]; do
        run "base round $r" "$base" bench_launch
        run "this round $r" . bench_launch
        r=$((r + 1))
    done
    run base "$base" bench_launch_llvm TILE_BACKEND=llvm
    run this . bench_launch_llvm TILE_BACKEND=llvm
    run base "$base" bench_memory
    run this . bench_memory
    run base "$base" bench_matmul
    run this . bench_matmul
} | tee "$out/ab.txt"
