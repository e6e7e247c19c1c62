#!/bin/sh
# tests/layers.sh — the implementation's headers are layers without a circle.
#
#   sh tests/layers.sh CC
#
# The headers tile.h includes under TILE_IMPLEMENTATION, in its order, are
# the layers, bottom first. For each k, a file that includes the public API
# (tile.h alone) and then the first k headers must compile with CC and
# -Werror: a header that calls a function of a layer above it (declared
# ahead, defined later) fails as "used but never defined", or as an
# implicit declaration. And no header under tile/ includes a header that
# comes after it in the order.
set -u
cc=${1:-cc}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tile_layers.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
# the include lines of the implementation block of tile.h
layers=$(sed -n '/^#define TILE__IMPLEMENTED/,$s/^#include "\(.*\)"$/\1/p' "$root/tile.h")
[ -n "$layers" ] || { echo "FAIL: no implementation includes found in tile.h"; exit 1; }
failures=0
n=0
prefix=""
for h in $layers; do
    n=$((n + 1))
    prefix="$prefix $h"
    {
        echo '#include "tile.h"'
        echo '#define TILE_IMPLEMENTATION'
        echo '#define TILE__IMPLEMENTED'
        for p in $prefix; do echo "#include \"$p\""; done
    } >"$work/l$n.c"
    if ! "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -Wno-unused-function -Wno-unused-variable -fsyntax-only -I"$root" "$work/l$n.c" \
            >"$work/l$n.log" 2>&1; then
        echo "FAIL: the layers up to $h do not compile on their own:"
        head -n 20 "$work/l$n.log"
        failures=$((failures + 1))
    else
        echo "ok: $h on the $((n - 1)) below it"
    fi
done
# includes between the headers point down only
pos() { echo "$layers" | awk -v h="$1" '$0 == h { print NR; exit }'; }
for h in $layers; do
    case $h in tile/*) ;; *) continue ;; esac
    me=$(pos "$h")
    for inc in $(sed -n 's/^#include "\(.*\)".*/\1/p' "$root/$h"); do
        dep=$(pos "tile/$inc")
        [ -n "$dep" ] || dep=$(pos "$inc")
        [ -n "$dep" ] || continue
        if [ "$dep" -ge "$me" ]; then
            echo "FAIL: $h includes $inc, which is not below it"
            failures=$((failures + 1))
        fi
    done
done
# knobs.h, which ir.h includes, is the bottom layer: on its own
printf '#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include "tile/knobs.h"\n' >"$work/knobs.c"
if ! "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -Wno-unused-function -fsyntax-only -I"$root" "$work/knobs.c" >"$work/knobs.log" 2>&1; then
    echo "FAIL: tile/knobs.h does not compile on its own:"
    head -n 20 "$work/knobs.log"
    failures=$((failures + 1))
fi
echo "layers: $n headers, $failures failures"
[ "$failures" -eq 0 ]
