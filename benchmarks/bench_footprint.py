"""Memory a fitted model holds, c45 beside scikit-learn, in one run.

Each model is fitted in a fresh Python process of its own (so that no model's
figure depends on the heap another left behind): the process makes X and y, loads
the libraries and collects garbage, reads its RSS (the baseline), fits, collects
garbage again and reads its RSS: "held" is the difference, the resident memory
the fit leaves the process holding with the model alive. "trimmed" is the same
after glibc's malloc_trim(0) has returned the heap's free pages to the system
(what of "held" is the allocator keeping freed memory rather than the model);
"peak" is the most RSS above the baseline during fit (Linux: VmHWM reset by
/proc/self/clear_refs). Also the bytes of the arrays the model holds ("arrays":
c45's trees, and its kept training data unless said; scikit-learn: its one tree),
counted without making anything the model does not hold, and of its pickle,
relative to the size of X.

The data (--data): "sign", y the sign of x0 + x1 x2 + noise (2 classes; more
classes: random labels); "binned", s = sin(2 x0) + x1 x2 + 0.5 |x3| + 0.8 N(0, 1)
and the classes equal-frequency bins of s. X is standard normal in both.

    python benchmarks/bench_footprint.py [--rows 1000000] [--features 10] [--classes 2]
                                         [--data sign|binned]
"""
import argparse
import ctypes
import gc
import json
import os
import pickle
import subprocess
import sys

import numpy as np

MODELS = {
    "c45": "C45Classifier()",
    "c45 keep_training_data": "C45Classifier(keep_training_data=True)",
    "sklearn entropy msl=2":
        'DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)',
}


def status_mb(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def array_bytes(model):
    """Bytes of the numpy arrays the model holds (each once), found by walking
    its attributes: c45's trees in whatever form the model keeps them (reading
    grown_tree_ could make a tree the model does not hold), not its kept
    training data (_train); scikit-learn's tree through its pickled state."""
    if not hasattr(model, "tree_") or not hasattr(model.tree_, "__dict__"):
        state = model.tree_.__getstate__()
        return state["nodes"].nbytes + state["values"].nbytes
    seen, total, todo = set(), 0, [v for k, v in vars(model).items() if k != "_train"]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            # An array owns its bytes, or views another array's, or views memory a
            # non-array keeps alive (a capsule that frees it, a bytes object): that
            # memory is counted once, as the outermost array over it.
            if isinstance(obj.base, np.ndarray):
                todo.append(obj.base)
            elif obj.base is None or id(obj.base) not in seen:
                total += obj.nbytes
                if obj.base is not None:
                    seen.add(id(obj.base))
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            todo.extend(vars(obj).values())
    return total


def make_data(rows, features, classes, data="sign"):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(rows, features))
    if data == "binned":
        s = (np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.5 * np.abs(X[:, 3])
             + 0.8 * rng.normal(size=rows))
        cuts = np.quantile(s, np.arange(1, classes) / classes)
        return X, np.searchsorted(cuts, s, side="right")
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=rows) > 0)
    y = y.astype(int) if classes == 2 else rng.integers(0, classes, rows)
    return X, y


def measure(name, rows, features, classes, data):
    """In this (fresh) process: fit the model `name`, return its figures."""
    from sklearn.tree import DecisionTreeClassifier     # noqa: F401 (MODELS)
    from c45 import C45Classifier                       # noqa: F401 (MODELS)
    X, y = make_data(rows, features, classes, data)
    make = eval(MODELS[name])
    gc.collect()
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")                   # VmHWM := VmRSS
    base = status_mb("VmRSS:")
    model = make.fit(X, y)
    gc.collect()
    held = status_mb("VmRSS:") - base
    peak = status_mb("VmHWM:") - base
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    trimmed = status_mb("VmRSS:") - base
    return {"held": held, "trimmed": trimmed, "peak": peak,
            "arrays": array_bytes(model) / 1e6, "pickle": len(pickle.dumps(model)) / 1e6,
            "nodes": getattr(getattr(model, "tree_", None), "node_count", None)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--features", type=int, default=10)
    p.add_argument("--classes", type=int, default=2)
    p.add_argument("--data", choices=("sign", "binned"), default="sign")
    p.add_argument("--child", help=argparse.SUPPRESS)     # the model to measure here
    args = p.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.child, args.rows, args.features, args.classes,
                                 args.data)))
        return
    x_mb = args.rows * args.features * 8 / 1e6
    print(f"X: {args.rows} x {args.features}, {args.classes} classes ({args.data}), "
          f"{x_mb:.0f} MB; "
          f"each model fitted in a fresh process (MB above its RSS with X loaded)")
    for name in MODELS:
        run = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--rows", str(args.rows),
             "--features", str(args.features), "--classes", str(args.classes),
             "--data", args.data, "--child", name],
            capture_output=True, text=True, check=True)
        r = json.loads(run.stdout.splitlines()[-1])
        print(f"{name:24s} held {r['held']:7.1f} MB = {r['held'] / x_mb:5.2f}x X   "
              f"trimmed {r['trimmed']:7.1f} MB   peak {r['peak']:7.1f} MB   arrays "
              f"{r['arrays']:6.1f} MB = {r['arrays'] / x_mb:5.2f}x X   pickle "
              f"{r['pickle']:6.1f} MB   nodes {r['nodes']}")


if __name__ == "__main__":
    main()
