"""feature_importances_, apply and decision_path."""
import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier
from c45.datasets import load_golf


def fitted_golf():
    X, y = load_golf()
    return X, y, C45Classifier().fit(X, y)


def test_feature_importances_are_entropy_drops():
    X, y, clf = fitted_golf()
    imp = clf.feature_importances_
    assert imp.shape == (4,) and imp.sum() == pytest.approx(1.0)
    assert imp[1] == 0.0                      # temperature is never tested
    # Hand computation in bits: outlook 14*H(9,5) - 5*H(2,3) - 4*0 - 5*H(3,2);
    # humidity and windy each 5*H(2,3) - 0 (pure children).
    h = lambda *c: -sum(x / sum(c) * np.log2(x / sum(c)) for x in c if x)
    outlook = 14 * h(9, 5) - 10 * h(2, 3)
    each = 5 * h(2, 3)
    total = outlook + 2 * each
    assert imp == pytest.approx([outlook / total, 0, each / total, each / total])


def test_apply_and_decision_path_agree_with_the_tree():
    X, y, clf = fitted_golf()
    t = clf.tree_
    leaves = clf.apply(X)
    assert np.all(t.kind[leaves] == 0)
    path = clf.decision_path(X).toarray()
    assert path.shape == (14, t.node_count)
    assert np.all(path[np.arange(14), leaves] == 1) and np.all(path[:, 0] == 1)
    # Without unknown values a row visits one node per level.
    assert np.all(path.sum(axis=1) == t.max_depth + 1 - (leaves == 2))
    # The leaf's majority class is the prediction when nothing is unknown.
    assert np.array_equal(clf.declared_classes_[t.node_class[leaves]], clf.predict(X))


def test_apply_with_unknown_value_takes_the_heaviest_leaf():
    X, y, clf = fitted_golf()
    row = X.iloc[[0]].copy()
    row["outlook"] = pd.Categorical([None], categories=X["outlook"].cat.categories)
    path = clf.decision_path(row).toarray()[0]
    visited_leaves = np.flatnonzero(path & (clf.tree_.kind == 0))
    assert len(visited_leaves) == 3          # one leaf under each outlook branch
    # sunny and rain branches hold 5 cases each, overcast 4: the first heaviest
    # (sunny, then humidity 85 > 75) wins.
    t = clf.tree_
    sunny = t.first_child[0]
    assert clf.apply(row)[0] == t.first_child[sunny] + 1
