"""Prediction cost, c45 beside scikit-learn, in one run: one-row latency on large
trees, batch CPU time from an ndarray and from a DataFrame, and the memory of a
bagged ensemble.

    python benchmarks/bench_predict.py [--rows 300000] [--batch 1000000]
        [--skip-bagging | --only bagging | --only rules]

Every figure is a ratio to scikit-learn's DecisionTreeClassifier(criterion="entropy",
min_samples_leaf=2) measured in the same run (this VM's speed drifts); nothing
here is asserted.

* latency: median wall time of predict(X[i:i+1]) over 500 calls (rows cycled);
  "walk" is the time per row of the core's batch classification of the same
  tree (c45._tree.predict_sums on 100k rows), i.e. one descent from root to leaf;
  "core 1 row" is one predict_sums call on one row: the per-call set-up beyond
  the walk is the difference. "floor" is the same call on the same row to a
  one-node tree (C45Classifier(max_depth=0), a leaf alone, same features): the
  cost of calling the compiled core from Python with these arguments (converting
  four arrays to memoryviews, finding the tree's cached tables, making the output
  array) with no tree to walk; core 1 row minus floor is the tree work of one row.
* batch: process CPU time (best of 3) of predict on --batch rows, 10 features.
* rules: one-row predict and predict_proba of C45RulesClassifier beside
  C45Classifier (both default parameters) fitted on the same data: process CPU
  time per call, the median of 7 runs of 5,000 calls (rows cycled; the four
  take turns in each run), on ndarrays of the data here: 3,000 x 10 of 10
  classes and 20,000 x 10 of 2 classes (20 and 62 rules). Not part of the
  default run.
* bagging: BaggingClassifier(model, n_estimators=20) fit on 200k x 10 in a fresh
  process each: peak RSS during fit and RSS held after it, above the process's
  RSS with X and the libraries loaded (Linux: VmHWM reset by /proc/self/clear_refs);
  "one fit": the same for one model fitted with bootstrap counts as weights (what
  each of the ensemble's fits gets): the ensemble's peak is about its trees plus
  one fit's peak. "fit CPU": process CPU time of that fit.
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np


def data(rows, classes, seed=0, features=10):
    """10 classes: bands of |x0| + |x1| + |x2| with noise (C4.5 grows 100k+ nodes
    at 300k rows); 2 classes: the sign of x0 + x1 * x2 + noise (C4.5's gain
    penalty keeps its tree to about a thousand nodes, scikit-learn's grows)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features))
    if classes == 2:
        return X, (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=rows)
                   > 0).astype(int)
    score = np.abs(X[:, :3]).sum(1) * 3 + rng.integers(0, 3, rows)
    return X, score.astype(int) % classes


def median_latency(model, X, calls=500):
    model.predict(X[:1])
    times = []
    for i in range(calls):
        row = X[i % len(X):i % len(X) + 1]
        t = time.perf_counter()
        model.predict(row)
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def best_cpu(f, reps=3):
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        f()
        best = min(best, time.process_time() - t)
    return best


def core_times(model, X, leaf):
    """(seconds per row of a 100k-row batch, seconds of a one-row call, seconds of
    a one-row call to the one-node tree `leaf`) of the compiled classification
    alone."""
    from c45 import _tree
    s = model._schema
    zeros = np.zeros((1, 1), np.int32)

    def call(rows, tree=model.tree_):
        return _tree.predict_sums(tree, rows, zeros, s.col, s.n_values, False,
                                  False, 1, True, True)
    batch = np.ascontiguousarray(X[:100_000])
    call(batch)
    walk = min(_timed(lambda: call(batch)) for _ in range(3)) / len(batch)
    row = np.ascontiguousarray(X[:1])
    call(row, leaf.tree_)
    # Interleaved, so that both medians see the same drift of the VM's speed.
    one, floor = [], []
    for _ in range(2000):
        one.append(_timed(lambda: call(row)))
        floor.append(_timed(lambda: call(row, leaf.tree_)))
    return walk, float(np.median(one)), float(np.median(floor))


def _timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def latency_and_batch(args):
    import pandas as pd
    from sklearn.tree import DecisionTreeClassifier
    from c45 import C45Classifier
    print(f"fit on {args.rows:,} x 10; batch {args.batch:,} rows; n_jobs=1")
    print(f"{'classes':>7} {'model':28s} {'nodes':>8} {'1 row us':>9} {'ratio':>6} "
          f"{'core 1 row us':>13} {'walk us':>8} {'floor us':>8} {'nd CPU s':>9} "
          f"{'ratio':>6} {'df CPU s':>9} {'ratio':>6}")
    for classes in (2, 10):
        X, y = data(args.rows, classes)
        Xb, _ = data(args.batch, classes, seed=1)
        names = [f"x{j}" for j in range(10)]
        frame = pd.DataFrame(Xb, columns=names)
        sk = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2).fit(X, y)
        sk_frame = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2).fit(
            pd.DataFrame(X, columns=names), y)
        rows = [("sklearn entropy msl=2", sk, sk_frame)]
        leaf = C45Classifier(n_jobs=1, max_depth=0).fit(X, y)   # one node, same schema
        assert leaf.tree_.node_count == 1
        for label, params in [("c45", {}), ("c45 pruning=None", {"pruning": None})]:
            nd = C45Classifier(n_jobs=1, **params).fit(X, y)
            df = C45Classifier(n_jobs=1, **params).fit(pd.DataFrame(X, columns=names), y)
            rows.append((label, nd, df))
        base = None
        for label, nd, df in rows:
            lat = median_latency(nd, Xb)
            cpu_nd = best_cpu(lambda: nd.predict(Xb))
            cpu_df = best_cpu(lambda: df.predict(frame))
            if base is None:
                base = (lat, cpu_nd, cpu_df)
                core = "-", "-", "-"
            else:
                walk, one, floor = core_times(nd, Xb, leaf)
                core = f"{one * 1e6:.2f}", f"{walk * 1e6:.3f}", f"{floor * 1e6:.2f}"
            print(f"{classes:7d} {label:28s} {nd.tree_.node_count:8d} {lat * 1e6:9.2f} "
                  f"{lat / base[0]:6.2f} {core[0]:>13} {core[1]:>8} {core[2]:>8} "
                  f"{cpu_nd:9.3f} "
                  f"{cpu_nd / base[1]:6.2f} {cpu_df:9.3f} {cpu_df / base[2]:6.2f}")


def cpu_per_call(fs, X, calls=5000, runs=7):
    """Per function of fs, the median over `runs` of the process CPU time per call
    of f(row), rows of X cycled (one-row slices made beforehand). The functions
    take turns within each run, so that a change of the machine's load falls on
    all of them."""
    take = X.iloc if hasattr(X, "iloc") else X
    rows = [take[i % len(X):i % len(X) + 1] for i in range(calls)]
    per_run = [[] for _ in fs]
    for f in fs:
        f(rows[0])
    for _ in range(runs):
        for f, times in zip(fs, per_run):
            t = time.process_time()
            for row in rows:
                f(row)
            times.append((time.process_time() - t) / calls)
    return [float(np.median(times)) for times in per_run]


def rules_latency():
    from c45 import C45Classifier, C45RulesClassifier
    cases = [("3k x 10, 10 classes", *data(3_000, 10)),
             ("20k x 10, 2 classes", *data(20_000, 2))]
    print("one-row CPU us per call: median of 7 runs of 5,000 calls")
    print(f"{'data':22s} {'rules':>5s} {'conds':>5s} {'nodes':>6s} {'tree predict':>12s} "
          f"{'rules predict':>13s} {'ratio':>6s} {'tree proba':>10s} "
          f"{'rules proba':>11s} {'ratio':>6s}", flush=True)
    for name, X, y in cases:
        tree = C45Classifier().fit(X, y)
        rules = C45RulesClassifier().fit(X, y)
        t_p, r_p, t_q, r_q = cpu_per_call(
            [tree.predict, rules.predict, tree.predict_proba, rules.predict_proba], X)
        conds = sum(len(r.conditions) for r in rules.rules_)
        print(f"{name:22s} {len(rules.rules_):5d} {conds:5d} {tree.tree_.node_count:6d} "
              f"{t_p * 1e6:12.2f} {r_p * 1e6:13.2f} {r_p / t_p:6.2f} "
              f"{t_q * 1e6:10.2f} {r_q * 1e6:11.2f} {r_q / t_q:6.2f}", flush=True)


BAGGING = r"""
import gc, sys, time
import numpy as np
sys.path[:0] = [p for p in sys.argv[2:] if p]
from bench_predict import data
from sklearn.ensemble import BaggingClassifier
from sklearn.tree import DecisionTreeClassifier
from c45 import C45Classifier
def status(key):
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) for l in fh if l.startswith(key)) / 1024
X, y = data(200_000, 2)
name, one = sys.argv[1].split()[0], sys.argv[1].endswith("one fit")
model = C45Classifier() if name == "c45" else DecisionTreeClassifier(
    criterion="entropy", min_samples_leaf=2)
# one fit: the bootstrap counts as weights, as BaggingClassifier passes them
counts = np.bincount(np.random.default_rng(0).integers(0, len(y), len(y)),
                     minlength=len(y)).astype(float)
gc.collect()
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")                   # VmHWM := VmRSS (Linux)
base = status("VmRSS:")
cpu = time.process_time()
if one:
    estimators = [model.fit(X, y, sample_weight=counts)]
else:
    estimators = BaggingClassifier(model, n_estimators=20, random_state=0).fit(X, y).estimators_
cpu = time.process_time() - cpu
gc.collect()
print(status("VmHWM:") - base, status("VmRSS:") - base, X.nbytes / 1e6,
      sum(e.tree_.node_count for e in estimators), cpu)
"""


def bagging():
    print("\nBaggingClassifier(model, n_estimators=20) on 200,000 x 10, 2 classes "
          "(MB above RSS with X loaded)")
    here = os.path.dirname(os.path.abspath(__file__))
    out = {}
    names = ("sklearn", "c45", "sklearn one fit", "c45 one fit")
    for name in names:
        run = subprocess.run([sys.executable, "-c", BAGGING, name, here,
                              os.environ.get("PYTHONPATH", "")],
                             capture_output=True, text=True, check=True)
        out[name] = [float(v) for v in run.stdout.split()]
    for name in names:
        peak, held, x_mb, nodes, cpu = out[name]
        ref = out["sklearn one fit" if name.endswith("one fit") else "sklearn"]
        print(f"{name:15s} peak {peak:7.1f} MB ({peak / ref[0]:4.2f}x sklearn)"
              f"   held {held:7.1f} MB ({held / ref[1]:4.2f}x sklearn)   "
              f"fit CPU {cpu:6.2f} s   X {x_mb:.0f} MB   nodes {int(nodes):,}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=300_000)
    p.add_argument("--batch", type=int, default=1_000_000)
    p.add_argument("--skip-bagging", action="store_true")
    p.add_argument("--only", choices=("bagging", "rules"),
                   help="run only this part (bagging: the ensemble's memory; rules: "
                        "the one-row latency of C45RulesClassifier)")
    args = p.parse_args()
    if args.only == "rules":
        rules_latency()
        return
    if args.only is None:
        latency_and_batch(args)
    if not args.skip_bagging:
        bagging()


if __name__ == "__main__":
    main()
