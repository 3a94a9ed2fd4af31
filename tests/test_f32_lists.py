"""precision="float32" grows and prunes on the presorted case lists where every
sum it takes is exact in binary32 whatever its order (whole case weights, no
unknown value, a total weight of at most 2**24): Release 8's case order then
changes no bit. On many random problems that qualify, both layouts are forced
(the lists, and R8's case array with its quicksort) and must give the same grown
and pruned trees, every field bit for bit."""
import contextlib

import numpy as np
import pandas as pd
import pytest

import c45._classifier as classifier
from c45 import C45Classifier
from c45._encode import EXACT_TOTAL_F32, exact_in_any_order

FIELDS_CHECKED = ("kind", "feature", "first_child", "n_children", "node_class",
                  "threshold", "weight", "errors", "value")


@contextlib.contextmanager
def layout(listed):
    """Fits in the block take the lists (listed) or R8's case array; the rule is
    asked, and with listed it must have said yes."""
    rule = classifier.exact_in_any_order
    asked = []

    def forced(*args):
        asked.append(rule(*args))
        return asked[-1] and listed
    classifier.exact_in_any_order = forced
    try:
        yield asked
    finally:
        classifier.exact_in_any_order = rule


def bits(a):
    a = np.ascontiguousarray(a)
    return a.dtype.str, a.shape, a.tobytes()


def assert_same_tree(a, b, what):
    assert a.node_count == b.node_count, what
    for f in FIELDS_CHECKED + tuple(f for f in a._fields if f not in FIELDS_CHECKED):
        assert bits(getattr(a, f)) == bits(getattr(b, f)), (what, f)


def random_problem(rng):
    """Mixed continuous and discrete features with many ties, no unknown value;
    sizes on both sides of the blocked cut scan's minimum (256 known cases)."""
    n = int(rng.choice([rng.integers(2, 60), rng.integers(60, 300),
                        rng.integers(300, 1500)]))
    n_features = int(rng.integers(1, 6))
    k = int(rng.choice([2, 2, 3, 4, 6, 10]))
    frame, categorical = {}, []
    for j in range(n_features):
        kind = rng.random()
        if kind < 0.55:
            pools = [rng.normal(size=int(rng.integers(2, 40))).round(2),
                     np.arange(float(rng.integers(2, 12))),
                     np.array([0.0, 1e-6, 2e-6, 1.0, 1.000001, 1.00002, 3.0])]
            x = rng.choice(pools[int(rng.integers(len(pools)))], size=n)
            if rng.random() < 0.3:
                x = rng.normal(size=n)              # all distinct
            frame[f"c{j}"] = x
        else:
            v = int(rng.integers(2, 8))
            frame[f"d{j}"] = pd.Categorical(rng.integers(0, v, size=n),
                                            categories=range(v + int(rng.integers(0, 2))))
            categorical.append(j)
    X = pd.DataFrame(frame)
    signal = sum(np.asarray(X[c].cat.codes if c.startswith("d") else X[c] * 3, float)
                 for c in X.columns)
    noise = rng.normal(scale=rng.choice([0.3, 1.0, 3.0]), size=n)
    y = np.floor(np.abs(signal + noise)).astype(int) % k
    w = None
    if rng.random() < 0.3:
        w = rng.integers(1, 5, size=n).astype(float)
    params = dict(
        min_samples_leaf=int(rng.choice([1, 2, 2, 3, 5])),
        subset_splits=bool(rng.random() < 0.3),
        criterion=str(rng.choice(["gain_ratio", "gain_ratio", "gain"])),
        threshold=str(rng.choice(["data", "data", "midpoint"])),
        mdl_correction=bool(rng.random() < 0.9))
    if rng.random() < 0.2:
        params["pruning"] = None
    else:
        params["confidence"] = float(rng.choice([0.25, 0.25, 0.1, 0.5, 0.9, 0.01]))
        params["subtree_raising"] = bool(rng.random() < 0.8)
    return X, y, w, params


def fit_both(X, y, w, params):
    trees = []
    for listed in (False, True):
        with layout(listed) as asked:
            clf = C45Classifier(precision="float32", **params).fit(X, y, sample_weight=w)
        assert asked == [True]
        trees.append(clf)
    return trees


@pytest.mark.parametrize("seed", range(24))
def test_lists_give_r8_case_array_trees(seed):
    rng = np.random.default_rng(9100 + seed)
    for i in range(20):
        X, y, w, params = random_problem(rng)
        old, new = fit_both(X, y, w, params)
        what = (seed, i, params)
        assert_same_tree(old.grown_tree_, new.grown_tree_, what)
        assert_same_tree(old.tree_, new.tree_, what)


def test_large_problem_same_trees():
    """Deep trees and the blocked scan's bound at work, 10 classes."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(20000, 4)).round(3)
    s = np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.8 * rng.normal(size=20000)
    y = np.searchsorted(np.quantile(s, np.arange(1, 10) / 10), s)
    for params in (dict(), dict(min_samples_leaf=1, confidence=0.5)):
        old, new = fit_both(X, y, None, params)
        assert new.grown_tree_.node_count > 500
        assert_same_tree(old.grown_tree_, new.grown_tree_, params)
        assert_same_tree(old.tree_, new.tree_, params)


def test_prune_again_from_the_lists():
    """prune() grows again to recover the case order: on the lists, the same
    pruned trees as R8's case array gives."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 3)).round(1)
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=3000) > 0).astype(int)
    out = []
    for listed in (False, True):
        with layout(listed):
            clf = C45Classifier(precision="float32", pruning=None).fit(X, y)
            clf.prune(X, y, pruning="pessimistic", confidence=0.4)
        out.append(clf.tree_)
    assert_same_tree(out[0], out[1], "prune")


def test_the_rule():
    """Whole weights, no unknown value, total at most 2**24: yes; else no."""
    X = np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 3.0]])
    clf = C45Classifier(precision="float32")
    schema, _, data = clf._prepare(X, [0, 1, 0], None)
    assert data.listed
    cont, codes = np.asarray(data.cont), np.asarray(data.codes)
    assert exact_in_any_order(schema, cont, codes, np.ones(3))
    assert not exact_in_any_order(schema, cont, codes, np.array([1.0, 0.5, 2.0]))
    assert exact_in_any_order(schema, cont, codes, np.array([1.0, 3.0, EXACT_TOTAL_F32 - 4]))
    assert not exact_in_any_order(schema, cont, codes,
                                  np.array([1.0, 3.0, EXACT_TOTAL_F32 - 3]))
    with_nan = cont.copy()
    with_nan[1, 2] = np.nan
    assert not exact_in_any_order(schema, with_nan, codes, np.ones(3))
    # A discrete feature's unknown value (code 0).
    Xd = pd.DataFrame({"a": pd.Categorical(["x", None, "y"]), "b": [0.5, 1.5, 2.5]})
    schema, _, data = clf._prepare(Xd, [0, 1, 0], None)
    assert not data.listed


@pytest.mark.parametrize("params, listed", [
    (dict(), True),
    (dict(precision="float64"), False),
    (dict(max_features=1), False),           # draws at each node in R8's order
    (dict(trials=2), False),                 # windowing carries the case order
])
def test_which_fits_take_the_lists(params, listed):
    X = np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 3.0], [3.5, 0.0]])
    clf = C45Classifier(**{"precision": "float32", "min_samples_leaf": 1, **params})
    _, _, data = clf._prepare(X, [0, 1, 0, 1], None)
    assert data.listed == listed
    weighted = clf._prepare(X, [0, 1, 0, 1], [1.0, 0.5, 1.0, 1.0])[2]
    assert not weighted.listed


def test_no_case_order_from_the_lists():
    """Windowing asks pruning for R8's case order: data grown on the lists have
    none, and say so."""
    from c45 import _tree
    X = np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 3.0], [3.5, 0.0]])
    clf = C45Classifier(precision="float32", min_samples_leaf=1)
    _, _, data = clf._prepare(X, [0, 1, 0, 1], None)
    options = clf._options(2, data.total_weight)
    grown, _, order = _tree.build_tree(data, options)
    with pytest.raises(ValueError, match="no case order"):
        _tree.prune_tree(data, options, grown, order, 0.25, True, with_order=True)
    assert _tree.prune_tree(data, options, grown, order, 0.25, True).node_count >= 1


def x_layouts(X):
    """The same float64 values as an ndarray (C and Fortran order, a strided
    view) and a DataFrame, each read in place by a float32 fit on the lists."""
    wide = np.repeat(X, 2, axis=1)
    return {"C": X, "F": np.asfortranarray(X), "strided": wide[:, ::2],
            "frame": pd.DataFrame({f"c{j}": X[:, j] for j in range(X.shape[1])})}


@pytest.mark.parametrize("name", ["C", "F", "strided", "frame"])
def test_lists_read_x_itself_as_its_copy(name):
    """A fit that reads X's own columns (rounding each value it reads to float32)
    grows the trees the encoded copy of the values gives (keep_training_data
    keeps such a copy), every field bit for bit, with the same training digest
    (prune(X, y) checks it): values that round to one float32 number, -0.0, a
    feature too fine for the cut tolerance."""
    rng = np.random.default_rng(21)
    n = 4000
    X = rng.normal(size=(n, 4))
    X[:, 1] = 1.0 + rng.integers(0, 40, n) * 1e-8        # ties once rounded
    X[::5, 2] = -0.0
    X[:, 3] = X[:, 3] * 3e-6                              # finer than 1e-5
    y = (np.sin(2 * X[:, 0]) + (X[:, 1] > 1.0000002) + (X[:, 2] > 0.3)
         + rng.normal(scale=0.5, size=n) > 1).astype(int)
    Xv = x_layouts(X)[name]
    in_place = C45Classifier(precision="float32")
    with pytest.warns(UserWarning, match="cut tolerance"):
        _, _, data = in_place._prepare(Xv, y, None, with_sources=True, in_sources=True)
    assert data.listed and data.by_source
    with pytest.warns(UserWarning, match="cut tolerance") as got_a:
        in_place.fit(Xv, y)
    with pytest.warns(UserWarning, match="cut tolerance") as got_b:
        copied = C45Classifier(precision="float32", keep_training_data=True).fit(Xv, y)
    assert [str(w.message) for w in got_a] == [str(w.message) for w in got_b]
    assert not copied._train[0].by_source
    assert_same_tree(copied.grown_tree_, in_place.grown_tree_, name)
    assert_same_tree(copied.tree_, in_place.tree_, name)
    assert in_place._train_check == copied._train_check
    assert in_place.tree_.node_count > 20
    with pytest.warns(UserWarning, match="cut tolerance"):     # (X encoded again)
        in_place.prune(Xv, y, confidence=0.5)
    copied.prune(confidence=0.5)
    assert_same_tree(copied.tree_, in_place.tree_, name)


def test_float32_x_is_copied():
    """A float32 column is not read in place (its copy as before)."""
    X = np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 3.0], [3.5, 0.0]], dtype=np.float32)
    clf = C45Classifier(precision="float32", min_samples_leaf=1)
    _, _, data = clf._prepare(X, [0, 1, 0, 1], None, with_sources=True, in_sources=True)
    assert data.listed and not data.by_source
