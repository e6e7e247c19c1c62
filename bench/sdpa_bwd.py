# bench/sdpa_bwd.py: the references for bench_attention's backward rows
# (BENCH_ATTN_BWD=1): torch SDPA's backward through its flash (FA2) and cuDNN
# back ends, and Triton's tutorial-06 backward (from triton_attention.py, looked
# for in ../shared/bench, .anchors, shared/bench and beside this file), fp16,
# Z=4, H=32, N_CTX from $N (4096), D 64 and 128, causal and not; TFLOP/s as
# the tutorial counts a backward: 2.5 x 4 Z H N^2 D / time, halved when causal.
import os, sys, torch, triton
here = os.path.dirname(os.path.abspath(__file__))
for d in ("../shared/bench", ".anchors", "shared/bench", here):
    if os.path.isfile(os.path.join(d, "triton_attention.py")):
        sys.path.insert(0, os.path.abspath(d))
        break
from torch.nn.attention import SDPBackend, sdpa_kernel
try:
    import triton_attention as ta
except Exception as e:  # noqa
    ta = None; print("triton_attention import failed:", e)
Z, H = 4, 32
N = int(os.environ.get("N", "4096"))
for D in (64, 128):
    for causal in (False, True):
        flops = 2.5 * 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
        def mk():
            return [torch.empty((Z, H, N, D), dtype=torch.float16, device="cuda").normal_(0, 0.5).requires_grad_() for _ in range(3)]
        q, k, v = mk()
        do = torch.randn_like(q)
        for name in ("FLASH_ATTENTION", "CUDNN_ATTENTION", "triton"):
            try:
                if name == "triton":
                    if ta is None: continue
                    o = ta.attention(q, k, v, causal, 0.5, False)
                else:
                    with sdpa_kernel(getattr(SDPBackend, name)):
                        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5)
                fn = lambda: torch.autograd.grad(o, (q, k, v), do, retain_graph=True)
                ms = triton.testing.do_bench(fn, warmup=10, rep=60, return_mode="median")
                print(f"bwd D={D} N={N} causal={int(causal)} {name:16s} {ms:8.3f} ms {flops*1e-12/(ms*1e-3):7.1f} TFLOP/s", flush=True)
            except Exception as e:  # noqa
                print(f"bwd D={D} N={N} causal={int(causal)} {name} FAILED: {type(e).__name__}: {str(e)[:200]}", flush=True)
