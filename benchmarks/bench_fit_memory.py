"""Peak memory a fit adds and its CPU, c45 (float64 and float32) beside
scikit-learn's entropy tree, in one run: the figures of the project's scale target.

Every fit runs in a fresh Python process of its own: the process makes X and y,
loads the libraries, collects garbage and hands the heap's free pages back
(malloc_trim), reads its RSS, resets its peak (/proc/self/clear_refs), fits, and
reads the peak again (VmHWM). "peak" is that peak minus the RSS before the fit, in
multiples of X's bytes (rows x features x 8); "CPU" is the fit's process CPU time
(all threads) as a ratio to scikit-learn's fit on the same data in the same run.
With --repeat R each figure is the median of R processes.

Data: X standard normal (seeded), s = sin(2 x0) + x1 x2 + 0.5 |x3| + 0.8 N(0, 1),
the classes equal-frequency bins of s; with unknowns u, that share of X's cells
(every feature, at random) are NaN (scikit-learn >= 1.3 takes NaN too).

    python benchmarks/bench_fit_memory.py                  # the four cases of the target
    python benchmarks/bench_fit_memory.py --rows 100000    # the same at 100k
    python benchmarks/bench_fit_memory.py --quick          # at 20k rows: a smoke run
    python benchmarks/bench_fit_memory.py --features 50 --classes 10 --unknowns 0.05
    python benchmarks/bench_fit_memory.py --models c45,c45-f32   # no scikit-learn (no CPU ratio)
    python benchmarks/bench_fit_memory.py --models c45 --n-jobs 2  # c45 fits on two threads

The default cases: 1M x 10 with 2 and 10 classes and no unknowns, 1M x 50 with 2
and 10 classes and 5% unknowns. --features/--classes/--unknowns narrow them to one.
"""
import argparse
import ctypes
import gc
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

MODELS = {
    "c45": "C45Classifier()",
    "c45-f32": 'C45Classifier(precision="float32")',
    "sklearn": 'DecisionTreeClassifier(criterion="entropy", random_state=0)',
}
CASES = [(10, 2, 0.0), (10, 10, 0.0), (50, 2, 0.05), (50, 10, 0.05)]


def make_data(rows, features, classes, unknowns, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, features))
    x = [X[:, j] if j < features else np.zeros(rows) for j in range(4)]  # (fewer features)
    s = np.sin(2 * x[0]) + x[1] * x[2] + 0.5 * np.abs(x[3]) \
        + 0.8 * rng.standard_normal(rows)
    cuts = np.quantile(s, np.arange(1, classes) / classes)
    y = np.searchsorted(cuts, s).astype(np.int64)
    if unknowns > 0:
        X[rng.random(X.shape) < unknowns] = np.nan
    return X, y


def status_kb(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/self/status")


def measure(model, rows, features, classes, unknowns, n_jobs=None):
    """In this (fresh) process: fit `model` once (c45: on n_jobs threads),
    return its peak and CPU."""
    from sklearn.tree import DecisionTreeClassifier     # noqa: F401 (MODELS)
    from c45 import C45Classifier                       # noqa: F401 (MODELS)
    X, y = make_data(rows, features, classes, unknowns)
    est = eval(MODELS[model])
    if model.startswith("c45"):
        est.set_params(n_jobs=n_jobs)
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)   # no freed heap pages for the fit to reuse
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")                          # VmHWM := VmRSS
    base = status_kb("VmRSS:")
    t = time.process_time()
    est.fit(X, y)
    cpu = time.process_time() - t
    peak = status_kb("VmHWM:") - base
    return {"peak": peak * 1024 / X.nbytes, "cpu": cpu,
            "nodes": int(est.tree_.node_count)}


def run_child(model, rows, features, classes, unknowns, n_jobs=None):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", model,
           "--rows", str(rows), "--features", str(features), "--classes", str(classes),
           "--unknowns", str(unknowns)] + ([] if n_jobs is None else ["--n-jobs", str(n_jobs)])
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{model} failed:\n{out.stderr}")
    return json.loads(out.stdout.splitlines()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--features", type=int, help="one case: this many features")
    p.add_argument("--classes", type=int, help="one case: this many classes")
    p.add_argument("--unknowns", type=float, help="share of X's cells NaN")
    p.add_argument("--quick", action="store_true", help="20k rows")
    p.add_argument("--repeat", type=int, default=1, help="processes per figure (median)")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--n-jobs", type=int, help="c45's n_jobs (default None: one thread)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.child, args.rows, args.features, args.classes,
                                 args.unknowns, args.n_jobs)))
        return
    rows = 20_000 if args.quick else args.rows
    cases = [(f, c, u if args.unknowns is None else args.unknowns) for f, c, u in CASES
             if args.features in (None, f) and args.classes in (None, c)]
    if not cases:
        cases = [(args.features or 10, args.classes or 2, args.unknowns or 0.0)]
    models = args.models.split(",")
    import c45
    print(f"c45 from {os.path.dirname(c45.__file__)} (n_jobs={args.n_jobs}); fresh process per fit; "
          f"median of {args.repeat}; peak = RSS a fit adds / X bytes; "
          f"CPU = fit CPU / scikit-learn's")
    print(f"{'case':28s}" + "".join(f"{m + ' peak':>14s}{m + ' CPU':>13s}" for m in models)
          + "  sklearn CPU s")
    for features, classes, unknowns in cases:
        res = {m: [run_child(m, rows, features, classes, unknowns, args.n_jobs)
                   for _ in range(args.repeat)] for m in models}
        med = {m: {k: statistics.median(r[k] for r in runs) for k in ("peak", "cpu")}
               for m, runs in res.items()}
        ref = med.get("sklearn", {}).get("cpu")
        name = f"{rows} x {features}, {classes} cl, {unknowns:.0%} NaN"
        line = f"{name:28s}"
        for m in models:
            ratio = f"{med[m]['cpu'] / ref:.3f}" if ref else f"{med[m]['cpu']:.2f}s"
            line += f"{med[m]['peak']:13.2f}x{ratio:>13s}"
        print(line + (f"  {ref:10.2f}" if ref else ""), flush=True)


if __name__ == "__main__":
    main()
