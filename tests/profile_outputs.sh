#!/bin/sh
# tests/profile_outputs.sh — the profiler's three outputs, as a reader sees them:
#
#   sh tests/profile_outputs.sh TEST_PROFILE_BINARY [WORKDIR]
#
# runs test_profile leaving its files in a directory, then reads the JSON
# trace with Python's JSON parser (tests/profile_check.py) and loads the
# page in headless Chromium with a screenshot (tests/profile_page.sh).
set -u
bin=$1
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$(mktemp -d "${TMPDIR:-/tmp}/tile_profile_out.XXXXXX")} || exit 2
rm -rf "$dir" && mkdir -p "$dir" || exit 2
"$bin" "$dir" || { echo "FAIL: $bin"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "FAIL: no python3 to read the JSON trace"; exit 1; }
python3 "$root/tests/profile_check.py" "$dir" || exit 1
sh "$root/tests/profile_page.sh" "$dir/main.html" "$dir/main.png"
rc=$?
[ $rc -eq 0 ] || exit $rc
echo "profile outputs: ok (files in $dir)"
