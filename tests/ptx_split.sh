# tests/ptx_split.sh — split_ptx, sourced by ptx_check.sh and ptx_snapshot.sh.
#
#   split_ptx DUMP DIR
#
# The PTX of every launch, from the TILE_DUMP=ptx text a program wrote to
# stderr (file DUMP), as one file per distinct PTX in directory DIR:
# <kernel>.<n>.ptx in launch order (n from 001; a dtype-generic kernel's name
# carries its dtypes, add_any.f16.f16.f16), or <label>.ptx where the
# program printed "tile-ptx-check: <label>" just before. A block ends at the
# next "// ---- <kernel>: <stage>" header; the library's own lines
# ("tile: ...") are dropped, and a PTX equal to one already kept is removed.
split_ptx() {
    awk -v dir="$2" '
        /^tile-ptx-check: / { label = $2; next }
        /^\/\/ ---- [A-Za-z_][A-Za-z0-9_.]*: ptx$/ {
            if (out != "") close(out)
            name = $3; sub(/:$/, "", name); n[name]++
            out = label != "" ? sprintf("%s/%s.ptx", dir, label) : sprintf("%s/%s.%03d.ptx", dir, name, n[name])
            label = ""
            next
        }
        /^tile[: ]/ { next }
        /^\/\/ ---- / { if (out != "") close(out); out = ""; next }
        out != "" { print > out }
    ' "$1"
    seen=""
    for ptx in "$2"/*.ptx; do
        [ -f "$ptx" ] || continue
        sum=$(cksum <"$ptx" | awk '{print $1 "-" $2}')
        case " $seen " in
        *" $sum "*) rm -f "$ptx" ;;
        *) seen="$seen $sum" ;;
        esac
    done
}
