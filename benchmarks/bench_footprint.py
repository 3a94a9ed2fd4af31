"""Memory a fitted model holds, c45 beside scikit-learn, in one run.

For each model: the resident memory (RSS, after gc.collect()) the fitted model adds
to the process (RSS with the model minus RSS after deleting it), the bytes of its
trees' arrays (c45: the grown and the pruned tree; scikit-learn: its one tree), and
the bytes of its pickle, relative to the size of X.

    python benchmarks/bench_footprint.py [--rows 1000000] [--features 10] [--classes 2]
"""
import argparse
import gc
import pickle

import numpy as np


def rss_mb():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def tree_bytes(model):
    """Bytes of the node arrays of the model's trees."""
    if hasattr(model, "grown_tree_"):
        trees = {id(t): t for t in (model.grown_tree_, model.tree_)}.values()
        return sum(getattr(t, f).nbytes for t in trees for f in t._fields)
    state = model.tree_.__getstate__()
    return state["nodes"].nbytes + state["values"].nbytes


def held(make, X, y):
    model = make().fit(X, y)
    gc.collect()
    with_model = rss_mb()
    arrays = tree_bytes(model) / 1e6
    size = len(pickle.dumps(model))
    nodes = getattr(getattr(model, "tree_", None), "node_count", None)
    del model
    gc.collect()
    return with_model - rss_mb(), arrays, size / 1e6, nodes


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--features", type=int, default=10)
    p.add_argument("--classes", type=int, default=2)
    args = p.parse_args()
    from sklearn.tree import DecisionTreeClassifier
    from c45 import C45Classifier
    rng = np.random.default_rng(0)
    X = rng.normal(size=(args.rows, args.features))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.5, size=args.rows) > 0)
    y = y.astype(int) if args.classes == 2 else rng.integers(0, args.classes, args.rows)
    x_mb = X.nbytes / 1e6
    print(f"X: {args.rows} x {args.features}, {args.classes} classes, {x_mb:.0f} MB")
    for name, make in [
            ("c45", lambda: C45Classifier()),
            ("c45 keep_training_data", lambda: C45Classifier(keep_training_data=True)),
            ("sklearn entropy msl=2",
             lambda: DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2))]:
        mb, arrays_mb, pickle_mb, nodes = held(make, X, y)
        print(f"{name:24s} held {mb:7.1f} MB = {mb / x_mb:5.2f}x X   trees "
              f"{arrays_mb:6.1f} MB = {arrays_mb / x_mb:5.2f}x X   pickle "
              f"{pickle_mb:6.1f} MB   nodes {nodes}")


if __name__ == "__main__":
    main()
