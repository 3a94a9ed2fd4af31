"""What value subsets cost (subset_splits=True, C4.5's -s) as features get more values.

C4.5's grouping search merges the best pair of value blocks while that helps:
each step tries every pair of blocks and scores each trial over all blocks, so a
node's search over V values costs O(V^4 k) at worst (V^3 k a step, up to V
steps). This script fits the same data with and without subset_splits, and
scikit-learn's entropy tree on the one-hot columns, for a range of V, and
prints the CPU of each as a ratio to plain c45's (one process, min of --repeat).

    python benchmarks/bench_subsets.py                      # V = 8 .. 128
    python benchmarks/bench_subsets.py --values 8 16 32 64 128 256

Data: --n rows, two discrete features of V equally likely values, three classes
that depend on the values through a random lookup (so blocks merge slowly),
10% of the labels flipped; numpy-seeded, so deterministic.
"""
import argparse

import numpy as np

from bench_predict import best_cpu as cpu      # this directory


def data(n, v, seed=0):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, v, n), rng.integers(0, v, n)
    table = rng.integers(0, 3, (v, v))
    y = table[a, b]
    flip = rng.random(n) < 0.1
    y[flip] = rng.integers(0, 3, flip.sum())
    return np.column_stack([a, b]).astype(str), y


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=20000, help="rows (20,000)")
    p.add_argument("--values", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    p.add_argument("--repeat", type=int, default=2)
    args = p.parse_args()
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier
    from c45 import C45Classifier
    print(f"{args.n:,} rows, 2 discrete features, 3 classes; CPU as a ratio to "
          f"C45Classifier() on the same data")
    print("| values | C45Classifier() s | subset_splits=True | scikit-learn one-hot "
          "| subset search / step before |")
    print("|---|---|---|---|---|")
    last = None
    for v in args.values:
        X, y = data(args.n, v)
        plain = cpu(lambda: C45Classifier(categorical_features=[0, 1]).fit(X, y), args.repeat)
        subs = cpu(lambda: C45Classifier(categorical_features=[0, 1],
                                         subset_splits=True).fit(X, y), args.repeat)
        onehot = OneHotEncoder().fit_transform(X)
        sk = cpu(lambda: DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)
                 .fit(onehot, y), args.repeat)
        growth = f"{subs / last:.1f}x" if last else ""
        last = subs
        print(f"| {v} | {plain:.3f} | {subs / plain:.1f}x ({subs:.2f} s) | "
              f"{sk / plain:.1f}x | {growth} |", flush=True)


if __name__ == "__main__":
    main()
