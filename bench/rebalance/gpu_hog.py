"""Another process's work on GPU 0 (bench/rebalance/run.sh): matrix products until killed.

    gpu_hog.py READY    # READY is created once the products run"""
import sys

import torch

x = torch.randn(4096, 4096, device="cuda")
y = x @ x
torch.cuda.synchronize()
open(sys.argv[1], "w").close()
while True:
    for _ in range(10):
        y = x @ x
    torch.cuda.synchronize()
