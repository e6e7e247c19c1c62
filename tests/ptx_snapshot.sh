#!/bin/sh
# tests/ptx_snapshot.sh — the PTX of every kernel that every example and
# every test program launches, for sm_80 and sm_90a, through NVRTC and LLVM,
# written to a directory so that two trees can be compared byte for byte
# (a restructure must leave it unchanged; `diff -r` says where it did not).
#
#   sh tests/ptx_snapshot.sh BUILD_DIR OUT_DIR [backends] [archs]
#   e.g. sh tests/ptx_snapshot.sh build /tmp/ptx-before
#        sh tests/ptx_snapshot.sh build /tmp/ptx-after && diff -r /tmp/ptx-before /tmp/ptx-after
#
# PROGRAMS="vector_add test_control" limits the run to those programs (the
# rest of OUT_DIR stays; SUMS is rewritten over all of it).
# backends defaults to "nvrtc llvm" (llvm runs BUILD_DIR/llvm/..., the
# programs linked with tile_backend_llvm.c, and needs a libLLVM: TILE_LLVM),
# archs to "sm_80 sm_90a". No GPU is needed: each program runs in the
# interpreter with TILE_ARCH set, which compiles every launched kernel to
# PTX too (TILE_DUMP=ptx prints it). Random inputs are fixed (TILE_SEED=1)
# so that the kernels, which follow the inputs' shapes and values
# (specialization), are the same from run to run; disk caches are off.
#
# OUT_DIR/<backend>-<arch>/<program>/ holds one file per distinct PTX, named
# <kernel>.<n>.ptx in launch order; OUT_DIR/SUMS lists every file with its
# checksum, and the last line says how many kernels were written.
set -u
bindir=$(cd "$1" && pwd) || exit 2   # absolute: the examples run in their own directory
out=$2
backends=${3:-nvrtc llvm}
archs=${4:-sm_80 sm_90a}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/tile_snap.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
status=0

programs() { # the programs under $1 (a build dir), examples first; only those named in $PROGRAMS when set
    if [ -n "${PROGRAMS:-}" ]; then
        for name in $PROGRAMS; do
            for p in "$1/examples/$name" "$1/tests/$name"; do [ -x "$p" ] && echo "$p"; done
        done
        return
    fi
    for src in "$root"/examples/*.c; do
        p="$1/examples/$(basename "$src" .c)"
        [ -x "$p" ] && echo "$p"
    done
    for src in "$root"/tests/test_*.c; do
        p="$1/tests/$(basename "$src" .c)"
        [ -x "$p" ] && echo "$p"
    done
}

. "$root/tests/ptx_split.sh"   # split_ptx: the dump into one file per distinct PTX

for be in $backends; do
    dir=$bindir
    [ "$be" = llvm ] && dir=$bindir/llvm
    for arch in $archs; do
        for prog in $(programs "$dir"); do
            name=$(basename "$prog")
            dest="$out/$be-$arch/$name"
            rm -rf "$dest"
            mkdir -p "$dest"
            rundir=$root
            case "$prog" in */examples/*) rundir=$(dirname "$prog") ;; esac
            if ! (cd "$rundir" && TILE_SEED=1 TILE_ARCH=$arch TILE_BACKEND=$be TILE_DUMP=ptx TILE_CACHE=0 \
                  TILE_QUIET=1 TEST_SMOKE=1 "$prog" >"$work/stdout" 2>"$work/stderr"); then
                echo "note: $be $arch $name exited non-zero (its kernels are still kept)"
            fi
            split_ptx "$work/stderr" "$dest"
            echo "$be $arch $name: $(ls "$dest" | wc -l) kernels"
        done
    done
done
(cd "$out" && find . -name '*.ptx' | LC_ALL=C sort | while read -r f; do echo "$(cksum <"$f" | awk '{print $1}') $f"; done) >"$out/SUMS.tmp"
n=$(wc -l <"$out/SUMS.tmp")
mv "$out/SUMS.tmp" "$out/SUMS"
echo "$n kernels" >>"$out/SUMS"
echo "$n kernels written under $out"
exit $status
