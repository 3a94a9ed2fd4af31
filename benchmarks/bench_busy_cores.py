"""n_jobs=2 against n_jobs=1 beside busy processes: predict and fit.

Starts --busy processes that spin on the CPU (0: an idle machine), then times
predict_proba on --n rows (5% unknown values) and a fit on --fit-rows of them,
with n_jobs=1 and n_jobs=2, --repeat times each, the two taking turns (which one
goes first alternates, so that a drift in the machine's load falls on both);
prints the median and worst wall time of each and n_jobs=2's as a ratio to
n_jobs=1's. Run it with and without
OMP_WAIT_POLICY=ACTIVE to see what libgomp's waits cost (c45 loads libgomp with
passive waits unless told otherwise: c45/_openmp.py).

    python benchmarks/bench_busy_cores.py --busy 0
    python benchmarks/bench_busy_cores.py --busy 3
    OMP_WAIT_POLICY=ACTIVE python benchmarks/bench_busy_cores.py --busy 3
"""
import argparse
import multiprocessing
import os
import time

import numpy as np


def spin():
    while True:
        pass


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--busy", type=int, default=1, help="spinning processes beside (1)")
    p.add_argument("--n", type=int, default=1_000_000, help="rows to predict (1,000,000)")
    p.add_argument("--fit-rows", type=int, default=200_000, help="rows to fit (200,000)")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--calls", default="predict,fit", help="what to time (predict,fit)")
    p.add_argument("--precision", default="float64", help="of the fits (float64)")
    args = p.parse_args()
    calls = args.calls.split(",")
    from c45 import C45Classifier
    rng = np.random.default_rng(0)
    X = rng.normal(size=(args.n, 10))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1] * X[:, 2]) > 0).astype(int)
    Xf, yf = X[:args.fit_rows], y[:args.fit_rows]
    model = C45Classifier(precision=args.precision).fit(Xf, yf)
    busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for b in busy:
        b.start()
    try:
        time.sleep(0.5)
        print(f"{args.busy} busy processes; load average {os.getloadavg()[0]:.2f}; "
              f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(c45: passive)')}")
        work = {
            "predict": lambda jobs: model.set_params(n_jobs=jobs).predict_proba(X),
            "fit": lambda jobs: C45Classifier(n_jobs=jobs, precision=args.precision
                                              ).fit(Xf, yf),
        }
        res = {(what, jobs): [] for what in calls for jobs in (1, 2)}
        for r in range(args.repeat):
            for what in calls:
                for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                    res[what, jobs].append(timed(lambda: work[what](jobs)))
        load = os.getloadavg()[0]
    finally:
        for b in busy:
            b.terminate()
    print(f"load average at the end {load:.2f}")
    print("| call | n_jobs=1 median (worst) | n_jobs=2 median (worst) | 2 / 1 median (worst) |")
    print("|---|---|---|---|")
    for what in calls:
        (m1, w1), (m2, w2) = [(float(np.median(res[what, j])), max(res[what, j]))
                              for j in (1, 2)]
        print(f"| {what} | {m1:.3f} s ({w1:.3f}) | {m2:.3f} s ({w2:.3f}) | "
              f"{m2 / m1:.2f}x ({w2 / w1:.2f}x) |")


if __name__ == "__main__":
    main()
