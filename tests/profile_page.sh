#!/bin/sh
# tests/profile_page.sh — a profile page (tile/profile_html.h around a
# trace) opened in headless Chromium: its scripts must run to the end.
#
#   sh tests/profile_page.sh PAGE.html [SCREENSHOT.png]
#
# Loads PAGE.html with --dump-dom and fails (exit 1, saying why) unless the
# DOM after the scripts ran has body data-status="ok" and #tile-status says
# "rendered N events", and unless Chromium printed no console message at
# all: the page writes nothing to the console, and Chromium reports
# uncaught exceptions and unhandled rejections as console lines
# (--enable-logging=stderr prints every console message as
# `INFO:CONSOLE:LINE] "message", source: URL (LINE)`, whatever its level),
# so any such line is an error. Chromium's own noise (dbus, GPU, sandbox)
# does not go through the console and is ignored.
#
# With SCREENSHOT, also writes a 1400 x 900 screenshot there and checks
# that it is a PNG of a plausible size.
#
# Exits 77 (skipped) when there is no chromium, chromium-browser or
# google-chrome on PATH (Debian: apt-get install chromium).
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 PAGE.html [SCREENSHOT.png]" >&2
    exit 2
fi
page=$1
shot=${2:-}
if [ ! -f "$page" ]; then
    echo "FAIL: no page $page" >&2
    exit 1
fi

browser=
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "SKIP: no chromium (install Debian's chromium package)"
    exit 77
fi

case $page in
    /*) url=file://$page ;;
    *) url=file://$(pwd)/$page ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tile-page.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

lim=
if command -v timeout >/dev/null 2>&1; then lim="timeout -k 5 90"; fi

# run_chromium LOG ARGS...: one headless run with a fresh profile
run_chromium() {
    log=$1; shift
    rm -rf "$tmp/profile"
    mkdir "$tmp/profile"
    $lim "$browser" --headless --no-sandbox --disable-gpu \
        --allow-file-access-from-files --user-data-dir="$tmp/profile" \
        --no-first-run --no-default-browser-check --disable-extensions \
        --enable-logging=stderr --v=0 "$@" "$url" 2>"$log"
}

run_chromium "$tmp/dom.log" --dump-dom >"$tmp/dom.html"
rc=$?
if [ $rc -ne 0 ]; then
    echo "FAIL: $browser --dump-dom exited $rc (124: timed out)" >&2
    tail -n 20 "$tmp/dom.log" >&2
    exit 1
fi

fail=0
if grep -q ':CONSOLE' "$tmp/dom.log"; then
    echo "FAIL: console messages (uncaught errors) while loading $page:" >&2
    grep ':CONSOLE' "$tmp/dom.log" | sed 's/^[^]]*] /  /' >&2
    fail=1
fi
status=$(sed -n 's/.*<div id="tile-status"[^>]*>\([^<]*\)<.*/\1/p' "$tmp/dom.html" | head -n 1)
if ! grep -q '<body[^>]*data-status="ok"' "$tmp/dom.html"; then
    echo "FAIL: body has no data-status=\"ok\" (#tile-status: ${status:-missing})" >&2
    fail=1
fi
case $status in
    rendered*) ;;
    *) echo "FAIL: #tile-status does not say rendered: ${status:-missing}" >&2; fail=1 ;;
esac
[ $fail -eq 0 ] || exit 1

extra=
if [ -n "$shot" ]; then
    rm -f "$shot"
    case $shot in
        /*) shotabs=$shot ;;
        *) shotabs=$(pwd)/$shot ;;
    esac
    run_chromium "$tmp/shot.log" --hide-scrollbars --window-size=1400,900 \
        --screenshot="$shotabs" >/dev/null
    rc=$?
    if [ $rc -ne 0 ] || [ ! -f "$shot" ]; then
        echo "FAIL: no screenshot $shot ($browser exited $rc)" >&2
        tail -n 20 "$tmp/shot.log" >&2
        exit 1
    fi
    if grep -q ':CONSOLE' "$tmp/shot.log"; then
        echo "FAIL: console messages while taking the screenshot:" >&2
        grep ':CONSOLE' "$tmp/shot.log" | sed 's/^[^]]*] /  /' >&2
        exit 1
    fi
    size=$(wc -c <"$shot" | tr -d ' ')
    magic=$(od -An -c -N4 "$shot" | tr -d ' ')
    if [ "$magic" != "211PNG" ] || [ "$size" -lt 20000 ]; then
        echo "FAIL: screenshot $shot is not a plausible page ($size bytes, starts '$magic')" >&2
        exit 1
    fi
    extra=", screenshot $shot ($size bytes)"
fi
echo "ok: $page: $status$extra"
