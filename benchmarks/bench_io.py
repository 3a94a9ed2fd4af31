"""c45.io.read_csv beside pandas.read_csv on the same file: time and peak RSS.

The script writes a CSV (numeric columns and a class column, or --file to read
your own), then reads it several times, each read in a fresh Python process of
its own: the process imports pandas and c45, collects garbage, resets the peak
RSS (Linux: /proc/self/clear_refs) and reads its RSS (the baseline), reads the
file, and reports the wall time and the peak RSS above the baseline (VmHWM).
Printed: each reader's median over --repeat runs, and c45's figures as ratios
to pandas' (and the peak as a multiple of the file's size).

    python benchmarks/bench_io.py [--rows 1000000] [--columns 8] [--repeat 3]
    python benchmarks/bench_io.py --file data.csv [--target COL]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

CHILD = r"""
import gc, json, os, sys, time

def status_mb(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1]) / 1024.0

path, reader, target = sys.argv[1], sys.argv[2], sys.argv[3] or None
import pandas
import c45.io
gc.collect()
try:
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    pass
base = max(status_mb("VmRSS"), status_mb("VmHWM"))
start = time.perf_counter()
if reader == "c45":
    X, y = c45.io.read_csv(path, target)
else:
    X = pandas.read_csv(path)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mb": status_mb("VmHWM") - base,
                  "shape": list(X.shape)}))
"""


def write_csv(path, rows, columns, seed=0):
    """Numbers with 5 decimals (most distinct) and a two-class column, in blocks."""
    rng = np.random.default_rng(seed)
    with open(path, "w") as fh:
        fh.write(",".join(f"x{j}" for j in range(columns)) + ",cls\n")
        for lo in range(0, rows, 100_000):
            block = rng.normal(size=(min(100_000, rows - lo), columns)).round(5)
            cls = np.where(block[:, 0] > 0, "yes", "no")
            fh.write("".join(",".join(map(str, r)) + f",{c}\n"
                             for r, c in zip(block.tolist(), cls)))


def measure(path, reader, target):
    done = subprocess.run([sys.executable, "-c", CHILD, path, reader, target or ""],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--columns", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", help="read this CSV instead of writing one")
    ap.add_argument("--target", help="its class column (default: the last)")
    args = ap.parse_args()
    if not os.path.exists("/proc/self/status"):
        sys.exit("bench_io needs Linux /proc for the peak RSS")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.file
        if path is None:
            path = os.path.join(tmp, "bench.csv")
            write_csv(path, args.rows, args.columns)
        size_mb = os.path.getsize(path) / 2**20
        print(f"{path}: {size_mb:.1f} MiB; each read in a fresh process, median of "
              f"{args.repeat}")
        results = {}
        for reader in ("pandas", "c45"):
            runs = [measure(path, reader, args.target) for _ in range(args.repeat)]
            results[reader] = {k: statistics.median(r[k] for r in runs)
                               for k in ("seconds", "peak_mb")}
            r = results[reader]
            print(f"  {reader:7s} {r['seconds']:8.2f} s   peak +{r['peak_mb']:7.1f} MiB "
                  f"({r['peak_mb'] / size_mb:.1f}x the file)   shape {runs[0]['shape']}")
        c, p = results["c45"], results["pandas"]
        print(f"  c45 / pandas: time {c['seconds'] / p['seconds']:.1f}x, peak RSS "
              f"{c['peak_mb'] / max(p['peak_mb'], 1e-9):.2f}x")


if __name__ == "__main__":
    main()
