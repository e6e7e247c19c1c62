#!/bin/sh
# bench/run.sh — build the bench programs and run them, all output on stdout.
#   bench/run.sh                 build into build/ and run every program
#   bench/run.sh bench_matmul    only the programs named (bench_launch,
#                                bench_memory, bench_matmul, bench_attention,
#                                bench_profile; and bench_tp_mlp, which runs
#                                only when named: it wants several GPUs)
#   bench/run.sh --with-triton   also run ../shared/bench/triton_baseline.py
#                                (Triton and cuBLAS anchors, about 40 s), and
#                                with bench_attention triton_attention.py
#                                (tutorial 06 and torch SDPA, about 60 s), in
#                                the same call, so that every ratio comes from
#                                one run
# CC (default cc) and CFLAGS (default -O2) are honoured. Exits non-zero when a
# build or a program fails; a program that fails does not stop the others.
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
mkdir -p build || exit 1
with_triton=0
progs=""
for arg in "$@"; do
    case $arg in
    --with-triton) with_triton=1 ;;
    bench_launch | bench_memory | bench_matmul | bench_attention | bench_profile | bench_tp_mlp) progs="$progs $arg" ;;
    *) echo "usage: bench/run.sh [--with-triton] [bench_launch|bench_memory|bench_matmul|bench_attention|bench_profile|bench_tp_mlp ...]" >&2; exit 2 ;;
    esac
done
[ -n "$progs" ] || progs="bench_launch bench_memory bench_matmul bench_attention bench_profile"
status=0
for prog in $progs; do
    echo "== build $prog"
    # shellcheck disable=SC2086
    if ! $CC -std=c11 $CFLAGS -I. "bench/$prog.c" -o "build/$prog" -ldl -lm -lpthread 2>&1; then
        echo "== build $prog FAILED"
        status=1
    fi
done
for prog in $progs; do
    [ -x "build/$prog" ] || continue
    echo "== run $prog"
    "./build/$prog" 2>&1 || { echo "== $prog exited with status $?"; status=1; }
done
anchor() { # run ../shared/bench/$1 (or .anchors/, shared/bench/)
    echo "== run ../shared/bench/$1"
    for dir in ../shared/bench .anchors shared/bench; do
        if [ -f "$dir/$1" ]; then
            python3 "$dir/$1" 2>&1 || status=1
            return
        fi
    done
    echo "$1 not found (looked in ../shared/bench, .anchors and shared/bench)"
}
if [ "$with_triton" = 1 ]; then
    anchor triton_baseline.py
    case " $progs " in *" bench_attention "*)
        anchor triton_attention.py
        # the backward rows' references (SDPA's backward, Triton's tutorial backward)
        [ "${BENCH_ATTN_BWD:-0}" = 1 ] && { echo "== run bench/sdpa_bwd.py"; python3 bench/sdpa_bwd.py 2>&1 || status=1; } ;;
    esac
fi
exit $status
