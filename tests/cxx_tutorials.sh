#!/bin/sh
# tests/cxx_tutorials.sh — the C++ tutorials (examples/cpp/*.cpp, tile.hpp)
# with each C++ compiler named: built under -std=c++20 -Wall -Wextra
# -Werror -pedantic, run in the interpreter, and each kernel's IR dump
# compared with its C twin's golden (tests/golden/<kernel>.ir, written from
# examples/*.c): one kernel, one IR, whichever language and compiler built
# it. Then what tile.hpp must refuse at compile time, each with its
# message: an unevaluated expression used by name (an `auto` variable), a
# combine function of several operands that returns one value, and a
# map_elementwise function of pack 2 that returns one value.
#
#   sh tests/cxx_tutorials.sh CC CXX...      e.g. sh tests/cxx_tutorials.sh gcc g++ clang++
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 CC CXX..." >&2
    exit 2
fi
cc=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tile_cxx.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}
strict="-std=c++20 -Wall -Wextra -Werror -pedantic"
# must_not_compile NAME MESSAGE WHAT SAYS: $work/NAME.cpp must fail to compile
# with $cxx, and with tile.hpp's MESSAGE among the errors
must_not_compile() {
    if "$cxx" $strict -fsyntax-only -I"$root" "$work/$1.cpp" >"$work/$1.log" 2>&1; then
        fail "$cxx: $3 compiled"
    elif grep -q "$2" "$work/$1.log"; then
        echo "ok   $cxx: $3 is a compile error that $4"
    else
        fail "$cxx: $3 failed without tile.hpp's message:"
        head -20 "$work/$1.log"
    fi
}
if ! "$cc" -std=c11 -O1 -I"$root" -c "$root/examples/cpp/tile_impl.c" -o "$work/tile_impl.o"; then
    echo "FAIL the implementation did not compile with $cc"
    exit 1
fi
for cxx in "$@"; do
    for src in "$root"/examples/cpp/*.cpp; do
        name=$(basename "$src" .cpp)
        exe=$work/$name.$(basename "$cxx")
        if ! "$cxx" $strict -O1 -I"$root" "$src" "$work/tile_impl.o" -o "$exe" -ldl -lm -lpthread 2>"$work/build.log"; then
            fail "$cxx: examples/cpp/$name.cpp did not build:"
            cat "$work/build.log"
            continue
        fi
        dir=$work/$name.$(basename "$cxx").dump
        mkdir "$dir"
        if ! TILE_INTERPRET=1 TILE_DUMP=ir TILE_DUMP_DIR=$dir "$exe" >"$work/run.log" 2>&1; then
            fail "$cxx: examples/cpp/$name.cpp failed:"
            cat "$work/run.log"
            continue
        fi
        grep -v "^tile: " "$work/run.log"
        dumps=0
        for ir in "$dir"/*.ir; do
            [ -f "$ir" ] || continue
            dumps=$((dumps + 1))
            kernel=$(basename "$ir")
            sed 's|  *// [^ ]*:[0-9][0-9]*$||' "$ir" >"$ir.cmp"
            if [ ! -f "$root/tests/golden/$kernel" ]; then
                fail "$cxx: $name: no C twin's golden tests/golden/$kernel"
            elif diff -u "$root/tests/golden/$kernel" "$ir.cmp"; then
                echo "ok   $cxx: examples/cpp/$name.cpp: $kernel is its C twin's IR"
            else
                fail "$cxx: $name: $kernel differs from its C twin's golden (the diff is above)"
            fi
        done
        [ "$dumps" -gt 0 ] || fail "$cxx: $name: wrote no IR dump"
    done
    # must not compile: an expression held by an `auto` variable and used by name
    cat >"$work/auto_use.cpp" <<'CPP'
#include "tile.hpp"
TILE_KERNEL(k, (tl_ptr_f32, x), (tl_i32, n))
{
    auto offs = tl::arange(0, 16) + n;
    tl::store(x + offs, 1.0f);
}
CPP
    must_not_compile auto_use "declare it tl::tensor" "an \`auto\` expression used by name" "says to declare it tl::tensor"
    # must not compile: a combine function of two operands that returns one value
    cat >"$work/combine_n.cpp" <<'CPP'
#include "tile.hpp"
TILE_KERNEL(k, (tl_ptr_f32, x), (tl_ptr_i32, y))
{
    tl::tensor offs = tl::arange(0, 16);
    auto [m, i] = tl::reduce_n({tl::load(x + offs), tl::load(y + offs)}, 0, [](auto a, auto b) { return tl::maximum(a[0], b[0]); });
    tl::store(x, m);
    tl::store(y, i);
}
CPP
    must_not_compile combine_n "returns N values" "a combine function of two operands returning one value" "says it returns N values"
    # must not compile: a map_elementwise function with pack 2 that returns one value (it gives 2 a result)
    cat >"$work/map_pack.cpp" <<'CPP'
#include "tile.hpp"
TILE_KERNEL(k, (tl_ptr_i32, x))
{
    tl::tensor offs = tl::arange(0, 16);
    tl::tensor y = tl::map_elementwise<2>([](tl::tensor a0, tl::tensor a1) { return a0 + a1; }, {tl::load(x + offs)});
    tl::store(x + offs, y);
}
CPP
    must_not_compile map_pack "pack values a result" "a map_elementwise function of pack 2 returning one value" "says it returns pack values a result"
done
if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all C++ tutorials build, run and match their C twins"
