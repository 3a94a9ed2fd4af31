"""Fingerprints of c45's model files on many random problems, to show that a change
of the core leaves every tree the same bits. Run it with each build on PYTHONPATH
and compare the two outputs:

    PYTHONPATH=BEFORE_DIR python benchmarks/same_models.py before.json
    PYTHONPATH=AFTER_DIR  python benchmarks/same_models.py after.json
    python benchmarks/same_models.py --compare before.json after.json

Each problem (seeded by its number) draws rows (40 to 20,000), 1-6 continuous
features (rounded to few values half the time: ties), 0-3 categorical ones (2 to
30 values), 2 to 40 classes (labels shuffled sometimes: deep noisy trees), unknown
values (none, 5% or 20% of cells), weights (none, whole ones 0-3, or real ones),
and the parameters (min_samples_leaf, confidence, subtree_raising, n_jobs 1 or 2,
gain, subset splits, MDL, float32). Each fingerprint is the SHA-256 of
``to_json(model)``; a third of the problems also fit the unpruned tree.
"""
import hashlib
import json
import sys
import warnings

import numpy as np
import pandas as pd


def problem(i):
    rng = np.random.default_rng(5000 + i)
    n = int(rng.choice([40, 300, 1000, 3000, 8000, 20000]))
    k = int(rng.choice([2, 3, 5, 10, 10, 17, 40]))
    nc = int(rng.integers(1, 7))
    nd = int(rng.integers(0, 4))
    X = rng.standard_normal((n, nc))
    if rng.random() < 0.5:
        X = np.round(X * rng.choice([2, 5, 20]), 0)
    s = np.sin(2 * X[:, 0]) + (X[:, 1] * X[:, -1] if nc > 1 else 0) \
        + rng.choice([0.3, 0.8, 2.0]) * rng.standard_normal(n)
    cols = {f"x{j}": X[:, j] for j in range(nc)}
    for j in range(nd):
        v = int(rng.choice([2, 3, 8, 30]))
        codes = rng.integers(0, v, n)
        s = s + 0.3 * (codes % 3)
        cols[f"d{j}"] = pd.Categorical.from_codes(codes, [f"v{t}" for t in range(v)])
    y = np.searchsorted(np.quantile(s, np.arange(1, k) / k), s)
    if rng.random() < 0.15:
        y = rng.permutation(y)
    df = pd.DataFrame(cols)
    unknowns = float(rng.choice([0, 0, 0, 0.05, 0.2]))
    if unknowns:
        for c in df.columns:
            df.loc[rng.random(n) < unknowns, c] = np.nan
    w = None
    r = rng.random()
    if r < 0.15:
        w = rng.random(n) * 3
    elif r < 0.4:
        w = rng.integers(0, 4, n).astype(float)     # whole, some 0
    params = dict(min_samples_leaf=int(rng.choice([1, 2, 2, 5])),
                  confidence=float(rng.choice([0.25, 0.25, 0.1, 0.5, 0.9, 0.01])),
                  subtree_raising=bool(rng.random() < 0.85),
                  n_jobs=int(rng.choice([1, 1, 2])))
    if rng.random() < 0.1:
        params["criterion"] = "gain"
    if rng.random() < 0.15 and nd:
        params["subset_splits"] = True
    if rng.random() < 0.1:
        params["mdl_correction"] = False
    if rng.random() < 0.15:
        params["precision"] = "float32"
    return df, y, w, params


def main(argv):
    if not argv or argv[0].startswith("-") and argv[0] != "--compare":
        print(__doc__)          # (an option is not an output file)
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    if argv[0] == "--compare":
        a, b = (json.load(open(f)) for f in argv[1:3])
        differ = [key for key in a if a[key] != b.get(key)]
        print(f"{len(a)} problems, {len(differ)} differ: {differ[:20]}")
        return 1 if differ else 0
    from c45 import C45Classifier, to_json
    warnings.simplefilter("ignore")

    def fingerprint(model):
        return hashlib.sha256(to_json(model).encode()).hexdigest()

    count = int(argv[1]) if len(argv) > 1 else 300
    out = {}
    for i in range(count):
        df, y, w, params = problem(i)
        pruned = C45Classifier(**params).fit(df, y, sample_weight=w)
        out[str(i)] = [fingerprint(pruned), params, len(df), int(y.max()) + 1]
        if i % 3 == 0:
            grown = C45Classifier(**dict(params, pruning=None)).fit(df, y, sample_weight=w)
            out[str(i)].append(fingerprint(grown))
    json.dump(out, open(argv[0], "w"), indent=0)
    print("fitted", count, "problems")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
