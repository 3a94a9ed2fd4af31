"""What a very deep tree costs: pessimistic pruning's subtree raising in each precision.

Subtree raising re-estimates a node's largest branch for all the node's cases,
and that estimate walks the whole branch. precision="float64" (and float32 where
every sum is exact in any order: whole weights, no unknown value) stops the walk
as soon as the answer is known and re-estimates from what the nodes hold, so a
chain of D levels costs about D times its cases. precision="float32" with
fractional weights (sample_weight, or unknown values) replays Release 8's case
array, whose order every later sum depends on, so it walks the whole branch at
every level as Release 8 does: about D^3/6 case visits on a chain.

This script fits a weighted chain (one continuous feature, alternating
classes, weights falling exponentially, so every level splits off one case) at
several depths, each fit in a process of its own with a time limit, and prints
the CPU of c45 in each precision (float32 also without raising) and of
scikit-learn's entropy tree on the same data.

    python benchmarks/bench_deep.py                       # 250 .. 2,000 levels
    python benchmarks/bench_deep.py --rows 500 1000 --limit 60
"""
import argparse
import json
import subprocess
import sys

FIT = r"""
import json, sys, time
import numpy as np
n, model = int(sys.argv[1]), sys.argv[2]
X = np.arange(n, dtype=float)[:, None]
w = 25 * np.exp(12 * (1 - np.arange(n) / n))
y = np.arange(n) % 2
if model == "sklearn":
    from sklearn.tree import DecisionTreeClassifier
    clf = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=1)
else:
    from c45 import C45Classifier
    prec, raising = model.split("-")
    clf = C45Classifier(precision=prec, subtree_raising=raising == "raising",
                        min_samples_leaf=1, mdl_correction=False)
t = time.process_time()
clf.fit(X, y, sample_weight=w)
cpu = time.process_time() - t
depth = clf.grown_tree_.max_depth if model != "sklearn" else clf.tree_.max_depth
print(json.dumps({"cpu": cpu, "depth": int(depth)}))
"""

MODELS = [("float64-raising", "float64"), ("float32-raising", "float32"),
          ("float32-noraising", "float32, subtree_raising=False"),
          ("sklearn", "scikit-learn")]


def fit(n, model, limit):
    """{"cpu", "depth"} of one fit in a process of its own, or None past limit s."""
    try:
        out = subprocess.run([sys.executable, "-c", FIT, str(n), model], check=True,
                             capture_output=True, text=True, timeout=limit).stdout
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, nargs="+", default=[250, 500, 1000, 2000])
    p.add_argument("--limit", type=float, default=120.0,
                   help="seconds a fit may take before it is stopped (120)")
    args = p.parse_args()
    print("| rows | grown levels | " + " | ".join(label for _, label in MODELS) + " |")
    print("|---|---|" + "---|" * len(MODELS))
    for n in args.rows:
        cells, depth = [], ""
        for model, _ in MODELS:
            r = fit(n, model, args.limit)
            if r is None:
                cells.append(f"> {args.limit:.0f} s")
                continue
            cells.append(f"{r['cpu']:.2f} s")
            if model == "float64-raising":
                depth = r["depth"]
        print(f"| {n:,} | {depth} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
