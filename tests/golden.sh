#!/bin/sh
# tests/golden.sh — golden IR, ttgir and CUDA C dumps of the examples.
#
#   sh tests/golden.sh BUILD_DIR/examples [BUILD_DIR/llvm/examples]   compare
#   TILE_UPDATE_GOLDEN=1 sh tests/golden.sh ...   rewrite tests/golden/
#
# Runs every example (examples/*.c, executable BUILD_DIR/examples/<name>) in
# the interpreter with TILE_DUMP=ir into a fresh directory and compares each <kernel>.ir it writes
# with tests/golden/<kernel>.ir. The dump is the IR after verify, fold, CSE
# and DCE, so a change to the builder or a pass shows up here as a readable
# diff. Fails when an example fails or writes no dump, when a golden is
# missing, or when a dump differs. Review the diff before updating.
#
# The `// file:line` column is dropped (from the goldens too): __LINE__ in a
# macro call that spans lines is the first line for gcc and the last for
# clang, and a golden should not change when an example's comments do.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 DIR_WITH_EXAMPLE_EXECUTABLES [DIR_WITH_LLVM_EXAMPLE_EXECUTABLES]" >&2
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
    # in the interpreter on a GPU too: the tuned examples trace their kernels
    # with the tuner's configs, whose lists differ there (their meta-parameters
    # are constants of the IR)
    if ! TILE_INTERPRET=1 TILE_DUMP=ir TILE_DUMP_DIR=$dir "$exe" >"$work/$name.log" 2>&1; then
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

# The back half: TILE_DUMP=ttgir (the plan: layouts, facts, schedules)
# of every example but the tuned ones (*_autotune, matmul_persistent), and
# TILE_DUMP=cuda (the CUDA C, deterministic without NVRTC) of vector_add,
# softmax and matmul, for sm_80 and sm_90a, in the interpreter (TILE_ARCH is
# the target there), in tests/golden/<arch>/. The CUDA C's prelude (the
# helpers every kernel shares, up to the kernel's signature) and the
# library's version in its first line are dropped. The CUDA C is the same
# whichever C compiler built the library (the lowering never calls the
# emitter twice in one argument list, whose order C leaves open).
#
# TILE_DUMP=llir (the LLVM module after O3) of the same three, from the
# examples linked with tile_backend_llvm.c (the second argument, or
# TILE_GOLDEN_LLVM, which CMake sets; neither: not compared, and the script
# says so), in tests/golden/<arch>/ as
# <kernel>.llir. Its first line names the libLLVM that made it; a golden is
# compared only with a dump of the same libLLVM (another version optimizes
# differently), and the script says so when it is not.
cuda_examples="vector_add softmax matmul"
llvm_bindir=${2:-${TILE_GOLDEN_LLVM:-}}
llvm_examples=$cuda_examples
if [ -z "$llvm_bindir" ]; then
    echo "the llir goldens: not compared (no examples linked with tile_backend_llvm.c were named; TILE_BUILD_LLVM=OFF?)"
    llvm_examples=""
fi
# compare (or write) one dump with its golden: $1 the dump, $2 the golden, $3 what to call it
check_dump() {
    if [ "$update" = 1 ]; then
        cp "$1" "$2" && echo "updated ${2#"$root"/}"
    elif [ ! -f "$2" ]; then
        fail "$3: no golden ${2#"$root"/} (create it with TILE_UPDATE_GOLDEN=1)"
    elif diff -u "$2" "$1" >"$work/diff" 2>&1; then
        echo "ok   $3"
    else
        head -n 60 "$work/diff"
        fail "$3 differs from ${2#"$root"/} (the diff's start is above)"
    fi
}

for arch in sm_80 sm_90a; do
    [ "$update" = 1 ] && mkdir -p "$golden/$arch"
    for src in "$root"/examples/*.c; do
        [ -f "$src" ] || continue
        name=$(basename "$src" .c)
        exe=$bindir/$name
        [ -x "$exe" ] || continue
        case $name in *_autotune | matmul_persistent | tensor_parallel_mlp) continue ;; esac   # the tuner's winner, timed, decides num_warps
        stages=ttgir
        case " $cuda_examples " in *" $name "*) stages=ttgir,cuda ;; esac
        dir=$work/$arch-$name
        mkdir "$dir"
        if ! TILE_INTERPRET=1 TILE_ARCH=$arch TILE_DUMP=$stages TILE_DUMP_DIR=$dir "$exe" >"$work/$arch-$name.log" 2>&1; then
            fail "$name ($arch): the example failed; its output:"
            cat "$work/$arch-$name.log"
            continue
        fi
        dumps=0
        for d in "$dir"/*.ttgir "$dir"/*.cuda; do
            [ -f "$d" ] || continue
            dumps=$((dumps + 1))
            kernel=$(basename "$d")
            got=$work/$arch-$name.$kernel
            case $d in
            *.ttgir) sed 's|  *// [^ ]*:[0-9][0-9]*$||' "$d" >"$got" ;;
            *.cuda) awk 'NR == 1 { sub(/generated by tile [^ ]* /, "generated by tile ") ; print; next }
                         /^extern "C" __global__/ { on = 1 } on' "$d" >"$got" ;;
            esac
            check_dump "$got" "$golden/$arch/$kernel" "$name ($arch): $kernel"
        done
        [ "$dumps" -gt 0 ] || fail "$name ($arch): wrote no ttgir dump"
    done
done

llir_checked=0 llir_other=""
for arch in sm_80 sm_90a; do
    for name in $llvm_examples; do
        exe=$llvm_bindir/$name
        if [ ! -x "$exe" ]; then
            fail "$name: no executable $exe (the examples linked with tile_backend_llvm.c)"
            continue
        fi
        dir=$work/llir-$arch-$name
        mkdir "$dir"
        if ! TILE_BACKEND=llvm TILE_INTERPRET=1 TILE_ARCH=$arch TILE_DUMP=llir TILE_DUMP_DIR=$dir "$exe" >"$work/llir-$arch-$name.log" 2>&1; then
            fail "$name ($arch, llvm): the example failed; its output:"
            cat "$work/llir-$arch-$name.log"
            continue
        fi
        dumps=0
        for d in "$dir"/*.llir; do
            [ -f "$d" ] || continue
            dumps=$((dumps + 1))
            kernel=$(basename "$d")
            gold=$golden/$arch/$kernel
            if [ "$update" != 1 ] && [ -f "$gold" ] && [ "$(head -n 1 "$d")" != "$(head -n 1 "$gold")" ]; then
                llir_other="$(head -n 1 "$d" | sed 's/^; made by //') (the goldens: $(head -n 1 "$gold" | sed 's/^; made by //'))"
                continue
            fi
            llir_checked=$((llir_checked + 1))
            check_dump "$d" "$gold" "$name ($arch, llvm): $kernel"
        done
        if [ "$dumps" = 0 ]; then
            if grep -q "libLLVM" "$work/llir-$arch-$name.log"; then
                echo "the llir goldens of $name ($arch): not compared, no libLLVM loaded:"
                grep "libLLVM" "$work/llir-$arch-$name.log" | head -n 2
            else
                fail "$name ($arch, llvm): wrote no llir dump"
            fi
        fi
    done
done
if [ -n "$llir_other" ]; then
    echo "the llir goldens: not compared, the libLLVM in use differs: $llir_other"
elif [ -n "$llvm_examples" ]; then
    echo "the llir goldens: $llir_checked compared"
fi

if [ "$failures" -gt 0 ]; then
    echo "golden: $failures failures"
    exit 1
fi
echo "golden: all dumps match"
exit 0
