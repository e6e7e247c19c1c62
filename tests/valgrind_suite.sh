#!/bin/sh
# tests/valgrind_suite.sh — valgrind's memcheck over every test program.
#
#   sh tests/valgrind_suite.sh BUILD_DIR [LOG_DIR]
#
# Runs each BUILD_DIR/tests/test_* (NVRTC's build) and BUILD_DIR/llvm/tests/test_*
# (the same tests linked with the LLVM back end) under
# `valgrind --leak-check=full` with tests/valgrind.supp, from the source
# root as CTest does, with the disk cache off. Without a GPU the kernels
# run in the interpreter, and the tests that compile PTX do so through
# NVRTC or libLLVM. Any report (an invalid access, a decision on
# uninitialized memory, a definite or indirect leak) fails the program;
# the summary lists each with its status and time. Each has 1500 seconds.
# VALGRIND_JOBS programs run at once (default: CTEST_PARALLEL_LEVEL, else 1),
# the slowest first.
# TILE_TEST_VALGRIND=1 tells a test that compiles large kernels only to
# check their PTX to leave that to its other builds (test_desc).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --one ]; then   # one program: sh valgrind_suite.sh --one EXE LOG_DIR
    exe=$2
    logs=$3
    case $exe in */llvm/*) name=llvm_$(basename "$exe") ;; *) name=$(basename "$exe") ;; esac
    start=$(date +%s)
    (cd "$root" && TILE_CACHE=0 TILE_TEST_VALGRIND=1 timeout 1500 valgrind --quiet --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect --suppressions="$root/tests/valgrind.supp" "$exe" >"$logs/$name.log" 2>&1)
    rc=$?
    secs=$(($(date +%s) - start))
    if [ "$rc" = 0 ]; then
        echo "ok   $name (${secs}s)"
    else
        {
            echo "FAIL $name (status $rc, ${secs}s): $logs/$name.log"
            grep -E '^==[0-9]+== (Invalid|Conditional|Use of|[0-9,]+ bytes in)' "$logs/$name.log" | head -5 | sed 's/^/    /'
        } | cat   # one write, so that parallel programs' lines do not interleave
    fi
    exit 0
fi
build=$(cd "$1" && pwd) || exit 2
logs=${2:-$build/valgrind}
mkdir -p "$logs" || exit 2
logs=$(cd "$logs" && pwd)
command -v valgrind >/dev/null || { echo "valgrind_suite: no valgrind"; exit 2; }
jobs=${VALGRIND_JOBS:-${CTEST_PARALLEL_LEVEL:-1}}
list=$logs/programs.txt
: >"$list"
# the slowest first (they compile the most through NVRTC), so that the others fill in beside them
for first in test_plan test_profile_kernel test_robust_api; do
    for exe in "$build/tests/$first" "$build/llvm/tests/$first"; do
        [ -x "$exe" ] && echo "$exe" >>"$list"
    done
done
for exe in "$build"/tests/test_* "$build"/llvm/tests/test_*; do
    [ -x "$exe" ] || continue
    grep -qxF "$exe" "$list" || echo "$exe" >>"$list"
done
count=$(wc -l <"$list")
[ "$count" -gt 0 ] || { echo "valgrind_suite: no test programs under $build"; exit 2; }
xargs -P "$jobs" -I{} sh "$0" --one {} "$logs" <"$list" | tee "$logs/summary.txt"
failures=$(grep -c '^FAIL' "$logs/summary.txt")
if [ "$failures" -gt 0 ]; then
    echo "valgrind_suite: $failures of $count programs with reports"
    exit 1
fi
done_count=$(grep -c '^ok' "$logs/summary.txt")
if [ "$done_count" -ne "$count" ]; then
    echo "valgrind_suite: $done_count of $count programs reported"
    exit 1
fi
echo "valgrind_suite: $count programs clean"
exit 0
