"""A cut between two values whose sum overflows float64 (silently wrong tree).

X = [0, 1e308, 1.7e308, 1.7e308], y = [0, 0, 1, 1]: perfectly separable, but
the bar between 1e308 and 1.7e308 was (1e308 + 1.7e308) / 2 = inf, so the cut
sent every case down one branch and the fit gave a single leaf (threshold NaN,
predict 50/50). Expected: a test at 1e308 (3 nodes), predicting y.
Seen before the fix: 1 node. (float32 keeps Release 8's own arithmetic.)
"""
import numpy as np
from c45 import C45Classifier

X = np.array([[0.0], [1e308], [1.7e308], [1.7e308]])
y = [0, 0, 1, 1]
for threshold in ("data", "midpoint"):
    clf = C45Classifier(min_samples_leaf=1, pruning=None, threshold=threshold).fit(X, y)
    print(threshold, "nodes", clf.tree_.node_count, "threshold", clf.tree_.threshold[0],
          "predict", clf.predict(X).tolist())
