#!/usr/bin/env python3
"""The static pathway of the saliency model in PyTorch, the same algorithm as samples/saliency
(Hanning window, fft2, 24 Gabor filters in the frequency domain, batched ifft2, interactions,
normalisations, fusion), with torch.fft (cuFFT) for the transforms and PyTorch's element-wise and
reduction kernels for the rest. The frames are already on the GPU (16 of them, cycled).

    torch_saliency.py --size 720x576 --frames FILE [--check FILE] [--iterations N] [--json OUT]

--frames FILE: the camera's frames (bench/saliency/reference_dump.cpp: `frames W H 16 FILE`),
moved to the GPU before timing. --check FILE: a frame and its reference map (`check W H 0 FILE`);
the map computed here must match it within the sample's tolerance (saliency::Comparison), or the
script exits 1 (after timing). Prints and writes (--json) the frames per second of eager execution, of the
same pipeline captured in a CUDA graph, and of torch.compile a frame at a time and on batches of 8.
"""
import argparse
import json
import math
import time

import numpy as np
import torch

ORIENTATIONS, FREQUENCIES = 6, 4
SIGMA_RATIO, EXCITE, INHIBIT, THRESHOLD = 0.35, 0.5, 0.5, 0.2


class Saliency:
    def __init__(self, w, h, device):
        self.w, self.h = w, h
        f = torch.float32
        x = torch.arange(w, device=device, dtype=f)
        y = torch.arange(h, device=device, dtype=f)
        self.window = ((0.5 - 0.5 * torch.cos(2 * math.pi * y / (h - 1)))[:, None] *
                       (0.5 - 0.5 * torch.cos(2 * math.pi * x / (w - 1)))[None, :]) / 255.0
        kx = torch.arange(w, device=device)
        ky = torch.arange(h, device=device)
        u = torch.where(2 * kx < w, kx, kx - w).to(f)[None, :] / w
        v = torch.where(2 * ky < h, ky, ky - h).to(f)[:, None] / h
        filters = []
        for o in range(ORIENTATIONS):
            theta = math.pi * o / ORIENTATIONS
            for j in range(FREQUENCIES):
                fc = 0.25 / (1 << j)
                sigma = SIGMA_RATIO * fc
                up = u * math.cos(theta) + v * math.sin(theta) - fc
                vp = v * math.cos(theta) - u * math.sin(theta)
                filters.append(torch.exp(-(up * up + vp * vp) / (2 * sigma * sigma)))
        self.filters = torch.stack(filters)  # (24, h, w)

    def forward(self, frames):
        """The maps of a batch of frames (b, h, w): what torch.compile compiles."""
        h, w, b = self.h, self.w, frames.shape[0]
        spectrum = torch.fft.fft2(frames.to(torch.float32) * self.window)
        maps = torch.fft.ifft2(spectrum[:, None] * self.filters)  # (b, 24, h, w) complex
        e = maps.abs().view(b, ORIENTATIONS, FREQUENCIES, h, w)
        excited = e.clone()
        excited[:, :, 1:] += EXCITE * e[:, :, :-1]
        excited[:, :, :-1] += EXCITE * e[:, :, 1:]
        others = e.sum(1, keepdim=True) - e
        r = (excited - INHIBIT * others / (ORIENTATIONS - 1)).clamp_min(0).view(b, ORIENTATIONS * FREQUENCIES, h * w)
        low, high = r.amin(2, keepdim=True), r.amax(2, keepdim=True)
        span = high - low
        n = torch.where(span > 0, (r - low) / span, torch.zeros_like(r))
        weight = (1 - n.mean(2, keepdim=True)) ** 2
        s = torch.where(n < THRESHOLD, torch.zeros_like(n), n * weight).sum(1)  # (b, h * w)
        lo, hi = s.amin(1, keepdim=True), s.amax(1, keepdim=True)
        return torch.where(hi > lo, (s - lo) / (hi - lo), torch.zeros_like(s)).view(b, h, w)

    def __call__(self, frame):
        return self.forward(frame[None])[0]


def fps(step, frames, iterations, per_step=1):
    """Frames a second of `step` over `frames` (`per_step` frames each)."""
    for i in range(20):
        step(frames[i % len(frames)])
    torch.cuda.synchronize()
    start = time.perf_counter()
    for i in range(iterations):
        step(frames[i % len(frames)])
    torch.cuda.synchronize()
    return per_step * iterations / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="720x576")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--frames", required=True)
    ap.add_argument("--check")
    ap.add_argument("--json")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    device = torch.device("cuda")
    model = Saliency(w, h, device)
    result = {"size": a.size, "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    if a.check:
        raw = np.fromfile(a.check, dtype=np.uint8)
        frame = torch.from_numpy(raw[: w * h].copy()).view(h, w).to(device)
        want = np.frombuffer(raw[w * h:].tobytes(), dtype=np.float64)
        got = model(frame).double().cpu().numpy().ravel()
        d = np.abs(got - want)
        over = int((d > 2e-3).sum())
        ok = d.max() <= 0.1 and d.mean() <= 1e-4 and over * 1000 <= d.size
        result["check"] = {"max_abs": float(d.max()), "mean_abs": float(d.mean()), "over_2e-3": over, "ok": bool(ok)}
        print(f"torch {a.size}: against the CPU reference: max |diff| {d.max():.2e}, mean {d.mean():.2e}, "
              f"{over} pixels off by more than 2e-3: {'ok' if ok else 'OUTSIDE THE TOLERANCE'}")
    raw = np.fromfile(a.frames, dtype=np.uint8)
    frames = [torch.from_numpy(raw[i * w * h:(i + 1) * w * h].copy()).view(h, w).to(device)
              for i in range(raw.size // (w * h))]
    result["eager_fps"] = fps(model, frames, a.iterations)
    # The same pipeline captured once in a CUDA graph; each frame is copied into its static input.
    static_in = frames[0].clone()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            model(static_in)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = model(static_in)

    def replay(frame):
        static_in.copy_(frame)
        graph.replay()
        return static_out

    result["graph_fps"] = fps(replay, frames, a.iterations)
    # torch.compile of the same pipeline, a frame at a time and on batches of 8 frames.
    compiled = torch.compile(model.forward)
    result["compile_fps"] = fps(lambda frame: compiled(frame[None]), frames, a.iterations)
    batches = [torch.stack([frames[(8 * k + i) % len(frames)] for i in range(8)]) for k in range(len(frames))]
    result["compile_batch8_fps"] = fps(compiled, batches, max(1, a.iterations // 8), per_step=8)
    print(f"torch {a.size}: eager {result['eager_fps']:.1f} fps, CUDA graph {result['graph_fps']:.1f} fps, "
          f"torch.compile {result['compile_fps']:.1f} fps, torch.compile on batches of 8 "
          f"{result['compile_batch8_fps']:.1f} fps")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if a.check and not result["check"]["ok"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
