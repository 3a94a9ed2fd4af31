"""The node buffer's class weights held as binary32 counts (c45/_nodes.pyx:
exact_counts): only where every class weight a fit holds is a whole number of at
most 2**24, and then the trees are the float64 buffer's, bit for bit."""
import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier
from c45 import _tree
from c45._grown import same_trees


def counted(clf, X, y, sample_weight=None):
    schema, _, data = clf._prepare(X, y, sample_weight)
    return _tree.grows_with_counts(data, clf._options(schema.n_features, data.total_weight))


def data(n=400, seed=0, classes=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = (np.digitize(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.7, size=n),
                     [-1, 0, 1])[:n] % classes)
    return X, y


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_counts_only_where_every_class_weight_is_whole(precision):
    X, y = data()
    clf = C45Classifier(precision=precision)
    assert counted(clf, X, y)
    assert counted(clf, X, y, np.ones(len(y)))           # weights of 1, given
    assert not counted(clf, X, y, np.full(len(y), 2.0))  # not counts of cases
    assert not counted(clf, X, y, np.r_[0.5, np.ones(len(y) - 1)])
    assert not counted(C45Classifier(precision=precision, class_weight="balanced"), X, y)
    Xu = X.copy(); Xu[7, 2] = np.nan                     # a fractional case below
    assert not counted(clf, Xu, y)
    df = pd.DataFrame({"a": X[:, 0], "b": pd.Categorical(np.where(X[:, 1] > 0, "p", "q"))})
    assert counted(clf, df, y)
    df.loc[3, "b"] = np.nan                              # an unknown category
    assert not counted(clf, df, y)


def test_no_counts_on_release_8s_case_array():
    """float32 on R8's case array (here: windowing) keeps float64 class weights."""
    X, y = data()
    assert not counted(C45Classifier(precision="float32", trials=2), X, y)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_counted_trees_are_the_float64_buffers(seed, precision, monkeypatch):
    """The same fits with counts and with the float64 buffer: the grown and
    pruned trees the same bits (subtree raising rewrites class weights while
    pruning; n_jobs=2 grafts set-aside subtrees; subset tests store maps)."""
    X, y = data(n=3000 + 500 * seed, seed=seed, classes=2 + seed % 4)
    df = pd.DataFrame(X, columns=list("abcd"))
    df["e"] = pd.Categorical(np.digitize(X[:, 2], [-1, 0, 1]).astype(str))
    kw = dict(precision=precision, subset_splits=seed % 2 == 1, n_jobs=1 + seed % 2,
              min_samples_leaf=1 + seed % 3)
    fits = []
    for on in (True, False):
        monkeypatch.setattr(_tree, "COUNTED_BUFFERS", on)
        clf = C45Classifier(**kw).fit(df, y)
        fits.append((clf.tree_, clf.grown_tree_))
    assert counted(clf, df, y)
    assert same_trees(fits[0][0], fits[1][0]) and same_trees(fits[0][1], fits[1][1])
    assert fits[0][1].node_count > 20
