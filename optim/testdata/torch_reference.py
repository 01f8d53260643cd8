"""Times torch on the networks of the optim and nn benchmarks.

For each thread count: the Nature CNN (4x84x84 -> 6, input scaled by 1/255)
Adam step at batch 32 and forward at batch 8 without gradients, and the
4->128->128->2 MLP Adam step at batch 64, each a median over timed repeats
after a warm-up. The losses and shapes are those of BenchmarkNatureCNNAdamStep,
BenchmarkNatureCNNInference and BenchmarkMLPAdamStep.

    python3 optim/testdata/torch_reference.py --threads 1,2,4,8,16
"""

import argparse
import statistics
import time

import torch
from torch import nn


def nature_cnn():
    return nn.Sequential(
        nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(),
        nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
        nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
        nn.Flatten(),
        nn.Linear(64 * 7 * 7, 512), nn.ReLU(),
        nn.Linear(512, 6),
    )


def mlp():
    return nn.Sequential(
        nn.Linear(4, 128), nn.ReLU(),
        nn.Linear(128, 128), nn.ReLU(),
        nn.Linear(128, 2),
    )


def median_ms(fn, repeats, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times)


def train_step(net, x, y, scale, lr):
    opt = torch.optim.Adam(net.parameters(), lr=lr)

    def step():
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(x * scale), y)
        loss.backward()
        opt.step()

    return step


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", default="1")
    p.add_argument("--repeats", type=int, default=30)
    args = p.parse_args()
    torch.manual_seed(1)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads by default")
    for n in [int(s) for s in args.threads.split(",")]:
        torch.set_num_threads(n)
        cnn = nature_cnn()
        x32 = torch.rand(32, 4, 84, 84) * 255
        y32 = torch.randn(32, 6)
        step = median_ms(train_step(cnn, x32, y32, 1 / 255, 1e-4), args.repeats, 5)
        x8 = torch.rand(8, 4, 84, 84) * 255

        def forward():
            with torch.no_grad():
                cnn(x8 * (1 / 255))

        fwd = median_ms(forward, 5 * args.repeats, 20)
        net = mlp()
        x64 = torch.randn(64, 4)
        y64 = torch.randn(64, 2)
        small = median_ms(train_step(net, x64, y64, 1, 1e-3), 20 * args.repeats, 100)
        print(f"threads {n}: nature-cnn adam step b32 {step:.2f} ms, forward b8 {fwd:.3f} ms, "
              f"mlp 4-128-128-2 adam step b64 {1e3 * small:.0f} us")


if __name__ == "__main__":
    main()
