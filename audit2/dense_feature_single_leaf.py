"""A separable column of many values on [0, 1] fits as a single leaf, silently
(issue 25 "silently wrong" class; the existing warning covers spans < 0.01 only).

C4.5 tries a cut only between neighbours more than 1e-5 apart (absolute). With
1.5 million uniform values on [0, 1] no neighbours are, so y = (x > 0.5) fits
as one leaf; at 1 million some 50 cuts of 999,999 are tried. Expected: a
UserWarning naming the column (as for narrow features), suggesting a rescale.
Prints the node count and the warnings for 1M and 1.5M rows.
"""
import warnings
import numpy as np
from c45 import C45Classifier

for n in (1_000_000, 1_500_000):
    x = np.random.default_rng(0).random(n)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        clf = C45Classifier().fit(x[:, None], (x > 0.5).astype(int))
    print(n, "rows:", clf.tree_.node_count, "nodes; warnings:", [str(m.message)[:110] for m in w])
