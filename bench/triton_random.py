#!/usr/bin/env python3
"""bench/triton_random.py — tile's random numbers against Triton's own.

    RANDOM_DUMP=/tmp/tile_random.bin build/bench/bench_random
    python3 bench/triton_random.py /tmp/tile_random.bin

Reads what bench_random wrote (for each case: a seed, an offset base, the
offsets' width, then tl_randint4x's four words, tl_rand and tl_randn for the
offsets base + 0 .. n-1) and computes the same with Triton's
tl.randint4x, tl.rand and tl.randn on the same seed and offsets: on the GPU
when there is one, else in Triton's interpreter (TRITON_INTERPRET=1, set
before Triton is imported). The integers and the uniforms must be equal bit
for bit; the normals are compared in ulps (each library's log, sqrt and
cos). Exit status 1 on any difference in the first two, or normals more
than 64 ulps apart.
"""
import os
import struct
import sys

import numpy as np


def read_dump(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:14] != b"tile-random-v1":
        sys.exit(f"{path}: not a bench_random dump")
    at = 14
    (n,) = struct.unpack_from("<i", data, at)
    at += 4
    cases = []
    while at < len(data):
        seed, base, width = struct.unpack_from("<QqI", data, at)
        at += 20
        words = np.frombuffer(data, dtype=np.uint32, count=4 * n, offset=at).reshape(4, n)
        at += 16 * n
        unif = np.frombuffer(data, dtype=np.float32, count=n, offset=at)
        at += 4 * n
        norm = np.frombuffer(data, dtype=np.float32, count=n, offset=at)
        at += 4 * n
        cases.append((seed, base, width, words, unif, norm))
    return n, cases


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    n, cases = read_dump(sys.argv[1])
    import torch
    if not torch.cuda.is_available():
        os.environ["TRITON_INTERPRET"] = "1"
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(w0, w1, w2, w3, unif, norm, seed, base, n, BLOCK: tl.constexpr, WIDE: tl.constexpr):
        i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = i < n
        if WIDE:
            off = i.to(tl.int64) + base
        else:
            off = i + base.to(tl.int32)
        r0, r1, r2, r3 = tl.randint4x(seed, off)
        tl.store(w0 + i, r0, mask=mask)
        tl.store(w1 + i, r1, mask=mask)
        tl.store(w2 + i, r2, mask=mask)
        tl.store(w3 + i, r3, mask=mask)
        tl.store(unif + i, tl.rand(seed, off), mask=mask)
        tl.store(norm + i, tl.randn(seed, off), mask=mask)

    device = "cuda" if torch.cuda.is_available() else "cpu"
    where = "the GPU" if device == "cuda" else "Triton's interpreter"
    bad = 0
    for seed, base, width, words, unif, norm in cases:
        w = [torch.empty(n, dtype=torch.int32, device=device) for _ in range(4)]
        u = torch.empty(n, dtype=torch.float32, device=device)
        g = torch.empty(n, dtype=torch.float32, device=device)
        s = seed if seed < 2**63 else seed - 2**64
        kernel[(triton.cdiv(n, 1024),)](w[0], w[1], w[2], w[3], u, g, s, base, n, BLOCK=1024, WIDE=width == 64)
        tw = np.stack([x.cpu().numpy().view(np.uint32) for x in w])
        tu = u.cpu().numpy()
        tg = g.cpu().numpy()
        word_diff = int((tw != words).sum())
        unif_diff = int((tu.view(np.uint32) != unif.view(np.uint32)).sum())
        ulps = np.abs(tg.view(np.int32).astype(np.int64) - norm.view(np.int32).astype(np.int64))
        print(f"seed {seed:#x}, offsets {base} + 0..{n - 1} ({width}-bit), {where}: "
              f"randint4x {4 * n - word_diff}/{4 * n} words equal, rand {n - unif_diff}/{n} bit-equal, "
              f"randn {int((ulps == 0).sum())}/{n} bit-equal, at most {int(ulps.max())} ulps apart")
        if word_diff or unif_diff or ulps.max() > 64:
            bad = 1
            if word_diff:
                k = np.argwhere(tw != words)[0]
                print(f"  first word difference: word {k[0]} of offset {base + k[1]}: Triton {tw[k[0], k[1]]:#010x}, tile {words[k[0], k[1]]:#010x}")
    print("triton_random: " + ("DIFFERENT" if bad else "the same bits"))
    return bad


if __name__ == "__main__":
    sys.exit(main())
