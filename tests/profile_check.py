#!/usr/bin/env python3
"""tests/profile_check.py DIR — the profiler's JSON trace, read by a real
JSON parser (Python's), against what test_profile left in DIR/expect.txt:

  threads N              thread_name tracks of pid 1 (the host threads)
  scope NAME K           K slices of cat "scope" named NAME
  kernel NAME K          K kernel slices (cat "kernel") named NAME
  kernel_min NAME K      at least K
  failed NAME K          K launch slices with a status (no kernel slice)
  metric NAME flops V    every kernel slice NAME has args.flops == V and
                         args.tflops == flops / dur
  inkernel NAME K        K slices of cat "in-kernel" (scopes inside kernels)
                         named NAME

and, whatever the expectations: every slice has ph X, a name, pid, tid,
ts >= 0 and dur >= 0; on each host thread the slices nest (two either do
not overlap or one holds the other); each kernel slice's scope path names
open scopes of that launch; each slice's scope path ends with the name of
the innermost scope slice of its thread that holds it (for launches); on
each in-kernel track (a program's warp) the slices nest and each one's path
ends with its name, below its parent's path, and the track is named. The
tree file DIR/main.txt exists. Exit 1 with the reasons on any failure."""
import collections
import json
import os
import sys

EPS = 1e-3  # microseconds: the printed precision


def fail(msgs, m):
    msgs.append(m)


def nested(lst):
    """The slices of one track in time order, each with the stack of those
    that hold it (popped of the ones that ended before it); the caller
    checks for overlap, then the slice goes on the stack."""
    lst.sort(key=lambda e: (e["ts"], -e["dur"]))
    stack = []
    for e in lst:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - EPS:
            stack.pop()
        yield e, stack
        stack.append(e)


def main():
    if len(sys.argv) != 2:
        print("usage: profile_check.py DIR")
        return 2
    d = sys.argv[1]
    msgs = []
    with open(os.path.join(d, "main.json")) as f:
        trace = json.load(f)
    ev = trace.get("traceEvents")
    if not isinstance(ev, list) or not ev:
        print("FAIL: no traceEvents")
        return 1
    other = trace.get("otherData", {})
    for k in ("tool", "backend", "device", "timing"):
        if k not in other:
            fail(msgs, "otherData lacks %s" % k)
    meta = [e for e in ev if e.get("ph") == "M"]
    xs = [e for e in ev if e.get("ph") == "X"]
    for e in xs:
        for k in ("name", "cat", "pid", "tid", "ts", "dur"):
            if k not in e:
                fail(msgs, "slice without %s: %r" % (k, e))
        if e.get("ts", -1) < 0 or e.get("dur", -1) < 0:
            fail(msgs, "negative time: %r" % e)
    threads = [e for e in meta if e["name"] == "thread_name" and e["pid"] == 1]
    # nesting on each host thread
    by_tid = collections.defaultdict(list)
    for e in xs:
        if e["pid"] == 1:
            by_tid[e["tid"]].append(e)
    for tid, lst in by_tid.items():
        for e, stack in nested(lst):
            if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"] + EPS:
                fail(msgs, "thread %d: %s [%g, +%g] overlaps %s [%g, +%g] without nesting"
                     % (tid, e["name"], e["ts"], e["dur"], stack[-1]["name"], stack[-1]["ts"], stack[-1]["dur"]))
            # a launch's scope path ends with its innermost enclosing scope
            if e["cat"] == "launch":
                inner = [s for s in stack if s["cat"] == "scope"]
                want = inner[-1]["args"]["path"] if inner else ""
                if e["args"].get("scope", "") != want:
                    fail(msgs, "thread %d: launch %s says scope %r, enclosed by %r" % (tid, e["name"], e["args"].get("scope"), want))
            if e["cat"] == "scope":
                inner = [s for s in stack if s["cat"] == "scope"]
                parent = inner[-1]["args"]["path"] + "/" if inner else ""
                if e["args"].get("path") != parent + e["name"]:
                    fail(msgs, "thread %d: scope path %r, want %r" % (tid, e["args"].get("path"), parent + e["name"]))
    # in-kernel scopes: per track, nested, paths
    named = set((e["pid"], e["tid"]) for e in meta if e["name"] == "thread_name")
    by_track = collections.defaultdict(list)
    for e in xs:
        if e["cat"] == "in-kernel":
            by_track[(e["pid"], e["tid"])].append(e)
    for key, lst in by_track.items():
        if key not in named:
            fail(msgs, "in-kernel track %r has no name" % (key,))
        for e, stack in nested(lst):
            if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"] + EPS:
                fail(msgs, "in-kernel track %r: %s overlaps %s without nesting" % (key, e["name"], stack[-1]["name"]))
            want = (stack[-1]["args"]["path"] + "/" if stack else "") + e["name"]
            if e["args"].get("path") != want:
                fail(msgs, "in-kernel track %r: path %r, want %r" % (key, e["args"].get("path"), want))
            if not isinstance(e["args"].get("cycles"), int) or not isinstance(e["args"].get("sm"), int):
                fail(msgs, "in-kernel slice without cycles or sm: %r" % e)
    inkernel = collections.Counter(e["name"] for e in xs if e["cat"] == "in-kernel")
    kernels = collections.Counter(e["name"] for e in xs if e["cat"] == "kernel")
    scopes = collections.Counter(e["name"] for e in xs if e["cat"] == "scope")
    failed = collections.Counter(e["name"] for e in xs if e["cat"] == "launch" and "status" in e.get("args", {}))
    launches = collections.Counter(e["name"] for e in xs if e["cat"] == "launch")
    for k, n in kernels.items():
        if launches[k] - failed[k] != n:
            fail(msgs, "%s: %d launches, %d failed, but %d kernel slices" % (k, launches[k], failed[k], n))
    with open(os.path.join(d, "expect.txt")) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "threads" and len(threads) != int(w[1]):
                fail(msgs, "%d host threads, want %s" % (len(threads), w[1]))
            elif w[0] == "scope" and scopes[w[1]] != int(w[2]):
                fail(msgs, "scope %s: %d slices, want %s" % (w[1], scopes[w[1]], w[2]))
            elif w[0] == "kernel" and kernels[w[1]] != int(w[2]):
                fail(msgs, "kernel %s: %d slices, want %s" % (w[1], kernels[w[1]], w[2]))
            elif w[0] == "kernel_min" and kernels[w[1]] < int(w[2]):
                fail(msgs, "kernel %s: %d slices, want at least %s" % (w[1], kernels[w[1]], w[2]))
            elif w[0] == "failed" and (failed[w[1]] != int(w[2]) or kernels[w[1]] != 0):
                fail(msgs, "failed %s: %d failed launches and %d kernel slices, want %s and 0" % (w[1], failed[w[1]], kernels[w[1]], w[2]))
            elif w[0] == "inkernel" and inkernel[w[1]] != int(w[2]):
                fail(msgs, "in-kernel scope %s: %d slices, want %s" % (w[1], inkernel[w[1]], w[2]))
            elif w[0] == "metric":
                for e in xs:
                    if e["cat"] != "kernel" or e["name"] != w[1]:
                        continue
                    a = e["args"]
                    if a.get(w[2]) != float(w[3]):
                        fail(msgs, "%s: %s = %r, want %s" % (w[1], w[2], a.get(w[2]), w[3]))
                    elif e["dur"] > 0 and abs(a.get("tflops", 0) - a["flops"] / e["dur"] / 1e6) > 1e-3 * a["flops"] / e["dur"] / 1e6:
                        fail(msgs, "%s: tflops %r is not flops / dur" % (w[1], a.get("tflops")))
    if not os.path.getsize(os.path.join(d, "main.txt")):
        fail(msgs, "main.txt is empty")
    for m in msgs[:30]:
        print("FAIL:", m)
    if msgs:
        return 1
    print("ok: %s: %d slices (%d kernels, %d scopes, %d in kernels on %d tracks) on %d host threads; nesting, scope paths and metrics hold"
          % (os.path.join(d, "main.json"), len(xs), sum(kernels.values()), sum(scopes.values()), sum(inkernel.values()), len(by_track), len(threads)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
