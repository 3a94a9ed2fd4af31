"""Soft thresholds on values beyond half of float64's range.

Fits C45Classifier(soft_thresholds=True) on columns spanning -1.7e308..1.7e308
and predicts at the training values and between them. Expected: the fit works
(finite bounds, lower <= threshold <= upper) and every probability row is
finite and sums to 1. Seen before the fix: the fit failed with "c45: invalid
tree: lower[0] is -inf" (the interpolation's b - a overflowed), and a model
whose bounds are that far apart (a tampered file, legal bounds) predicted NaN
rows at values where v - lower and threshold - lower both overflow.
"""
import json, sys, warnings
import numpy as np
sys.path.insert(0, "tests")
import c45
from c45 import C45Classifier
from model_files import sealed

big = 1.7e308
cases = {
    "a": ([-big, 1e308, big, big], [0, 0, 1, 1]),
    "b": ([-big, -big, 1e308, 1e308, big, big], [0, 0, 0, 0, 1, 1]),
    "d": ([-big] * 5 + [1e308] * 5 + [big] * 5, [0, 0, 0, 0, 1] * 2 + [1, 1, 1, 1, 0]),
}
for name, (x, y) in cases.items():
    X = np.array(x)[:, None]
    try:
        clf = C45Classifier(soft_thresholds=True, min_samples_leaf=1, pruning=None).fit(X, y)
    except Exception as e:
        print(name, "fit FAILS:", type(e).__name__, e); continue
    t = clf.tree_
    q = np.unique(np.r_[X[:, 0], 0.0, -1e308, 1.2e308])[:, None]
    P = clf.predict_proba(q)
    print(name, "bounds", t.lower[0], t.threshold[0], t.upper[0], "bad rows",
          int((~np.isfinite(P).all(axis=1) | ~np.isclose(P.sum(axis=1), 1)).sum()))
# A model file with legal, far-apart bounds.
clf = C45Classifier(soft_thresholds=True, min_samples_leaf=1).fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
d = json.loads(c45.to_json(clf))
t = d["trees"]["final"]
t["lower"][0], t["threshold"][0], t["upper"][0] = -big, 1e308, big
m = c45.from_json(sealed(d))
P = m.predict_proba([[1e308], [0.0], [1.5e308]])
print("far-apart bounds: probabilities", P.tolist())
