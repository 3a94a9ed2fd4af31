"""What C4.5 weighs when it chooses the root test: per-feature gains and ratios."""
import numpy as np

from c45 import _tree
from c45._classifier import C45Classifier


def split_scores(X, y, sample_weight=None, **params):
    """Evaluate every feature as C4.5 does at the root of a tree on (X, y).

    Parameters
    ----------
    X, y, sample_weight : as for ``C45Classifier.fit``.
    **params : C45Classifier parameters (``min_samples_leaf``, ``precision``, ...).

    Returns
    -------
    scores : dict
        Per-feature arrays (in column order): ``gain`` (information gain on the
        known cases times their share; for continuous features the best cut's
        gain minus Release 8's log2(cuts)/N penalty; -0.001 if unusable),
        ``raw_gain`` (the best cut's gain before the penalty), ``split_info``,
        ``gain_ratio`` (``gain / split_info`` where usable, else NaN),
        ``threshold`` (the stored cut of a continuous feature), ``tries`` (cuts
        evaluated), plus ``feature_names`` and ``chosen`` (the index of the
        feature C4.5 would test at the root, -1 for none).
    """
    clf = C45Classifier(**params)
    clf._check_params()
    schema, _, data = clf._prepare(X, y, sample_weight)
    out = _tree.root_scores(data, clf._options(schema.n_features, data.total_weight))
    usable = (out["gain"] > -1e-3) & (out["split_info"] > 1e-3)
    out["gain_ratio"] = np.where(usable, out["gain"] / np.where(usable, out["split_info"], 1),
                                 np.nan)
    out["feature_names"] = (list(schema.names) if schema.names is not None
                            else [f"x{j}" for j in range(schema.n_features)])
    return out
