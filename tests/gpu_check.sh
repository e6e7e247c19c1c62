#!/bin/sh
# tests/gpu_check.sh — the suite on a GPU machine, in one go, with
# compute-sanitizer over the GPU tests beside it.
#
#   sh tests/gpu_check.sh BUILD_DIR LOG_DIR [seconds]
#
# BUILD_DIR is a finished CMake build of this tree (with the LLVM twins);
# every log goes to LOG_DIR. At once and side by side:
#   1. ctest: every test and example, through NVRTC and (the llvm/ twins)
#      through LLVM, on the GPU (TILE_SYNC=1 TILE_MANAGED=1, as CTest sets);
#   2. compute-sanitizer --tool memcheck over the tests that launch kernels
#      touching global memory in every way (loads, stores, atomics, masks,
#      loops, device asserts, the device error records) and the examples;
#   3. compute-sanitizer --tool racecheck over those whose kernels share
#      data through shared memory (reductions, scans, relayouts, and the
#      matmul example's tl_dot: staged operands, cp.async rings, wgmma).
# (test_matmul runs under both tools with TEST_MATMUL_LARGE=0: its large
# sizes would take longer than the limit.)
# Each run has a time limit (default 420 s). The summary says ok or FAIL per
# run, and the exit status is non-zero when one failed.
set -u
build=$(cd "$1" && pwd)
mkdir -p "$2"
logs=$(cd "$2" && pwd)
limit=${3:-420}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$logs"
cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
export TILE_SYNC=1 TILE_MANAGED=1 TILE_QUIET=1

(cd "$root" && timeout "$limit" ctest --test-dir "$build" -j6 --output-on-failure -L 'test|example|llvm' -E '^(package|compile_|readme|golden|ptx_|fuzz_.*_ptx_)' \
    >"$logs/ctest.log" 2>&1; echo $? >"$logs/ctest.rc") &

sanitize() { # tool program [dir [api-errors]]
    name=$(basename "$2")
    case $2 in */llvm/*) name=llvm_$name ;; esac   # the twin linked with the LLVM back end
    dir=${3:-$root}
    (cd "$dir" && TEST_MATMUL_LARGE=0 timeout "$limit" "$cs" --tool "$1" --error-exitcode 99 --print-limit 20 --report-api-errors "${4:-explicit}" "$2" \
        >"$logs/$1_$name.log" 2>&1
     echo $? >"$logs/$1_$name.rc") &
}
for t in test_ops_memory test_control test_ops_reduce test_ops_shape; do
    [ -x "$build/tests/$t" ] && sanitize memcheck "$build/tests/$t"
done
# these make driver calls fail on purpose (a bad event, attribute, PTX; an
# allocation larger than the device)
for t in test_cuda test_robust_api; do
    [ -x "$build/tests/$t" ] && sanitize memcheck "$build/tests/$t" "$root" no
done
for e in softmax layer_norm matmul histogram; do
    [ -x "$build/examples/$e" ] && sanitize memcheck "$build/examples/$e" "$build/examples"
done
for t in test_ops_reduce test_ops_shape; do
    [ -x "$build/tests/$t" ] && sanitize racecheck "$build/tests/$t"
done
# test_matmul's small cases (TEST_MATMUL_LARGE=0: every dtype and config,
# mma.sync, wgmma, cp.async rings, masked edges) through both back ends
for t in "$build/tests/test_matmul" "$build/llvm/tests/test_matmul"; do
    [ -x "$t" ] && sanitize memcheck "$t" && sanitize racecheck "$t"
done
for e in softmax layer_norm matmul; do
    [ -x "$build/examples/$e" ] && sanitize racecheck "$build/examples/$e" "$build/examples"
done
wait

status=0
for rc in "$logs"/*.rc; do
    name=$(basename "$rc" .rc)
    code=$(cat "$rc")
    if [ "$code" = 0 ]; then
        summary=$(grep -h -E 'ERROR SUMMARY|RACECHECK SUMMARY|tests passed' "$logs/$name.log" | tail -1)
        echo "ok   $name  $summary"
    else
        echo "FAIL $name (status $code)"
        grep -h -E 'Failed|FAIL|Invalid|Race|ERROR SUMMARY|RACECHECK SUMMARY|hazard' "$logs/$name.log" | head -12 | sed 's/^/    /'
        status=1
    fi
done
exit $status
