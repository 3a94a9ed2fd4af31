"""Soft thresholds (C4.5's -p): the bounds, how predict uses them, storage, checks."""
import pickle

import numpy as np
import pytest

from c45 import C45Classifier, export_text, from_json, to_json
from c45._tree import Tree


def _resealed(doc):
    """The model file of doc, changed on purpose, with its checksum made anew."""
    from model_files import sealed
    return sealed(doc)


def _data():
    rng = np.random.RandomState(0)
    X = rng.randint(0, 12, size=(300, 2)).astype(float)
    y = np.where(X[:, 0] + rng.normal(0, 2, 300) > 6, "b", "a")
    return X, y


@pytest.fixture(scope="module")
def fitted():
    X, y = _data()
    return X, y, C45Classifier(soft_thresholds=True, precision="float32").fit(X, y)


def test_bounds_around_each_continuous_test(fitted):
    _, _, clf = fitted
    t = clf.tree_
    cont = t.kind == 2
    assert cont.any()
    assert np.all(t.lower[cont] <= t.threshold[cont])
    assert np.all(t.upper[cont] >= t.threshold[cont])
    assert np.isnan(t.lower[~cont]).all() and np.isnan(t.upper[~cont]).all()
    assert np.any(t.lower[cont] < t.upper[cont])


def test_same_tree_and_hard_predictions_without_the_parameter(fitted):
    X, y, clf = fitted
    hard = C45Classifier(precision="float32").fit(X, y)
    for f in Tree._fields:
        assert np.array_equal(getattr(hard.tree_, f), getattr(clf.tree_, f), equal_nan=True)
    assert hard.tree_.lower is None


def _soft_proba_stump(t, x):
    """The share rule on a tree whose root is a soft test with two leaf children."""
    lo, hi, cut = t.lower[0], t.upper[0], t.threshold[0]
    p = 1.0 if x <= lo else 0.0 if x >= hi else (
        1 - 0.5 * (x - lo) / (cut - lo) if x <= cut else 0.5 * (hi - x) / (hi - cut))
    a, b = t.first_child[0], t.first_child[0] + 1
    s = p * t.value[a] / t.weight[a] + (1 - p) * t.value[b] / t.weight[b]
    return s / s.sum()


def test_predict_proba_shares_values_between_the_bounds():
    X, y = _data()
    clf = C45Classifier(soft_thresholds=True, max_depth=1).fit(X[:, :1], y)
    t = clf.tree_
    assert t.kind[0] == 2 and t.lower[0] < t.upper[0]
    xs = np.array([t.lower[0] - 1, t.lower[0], (t.lower[0] + t.threshold[0]) / 2,
                   t.threshold[0], (t.threshold[0] + t.upper[0]) / 2, t.upper[0],
                   t.upper[0] + 1])
    got = clf.predict_proba(xs[:, None])
    want = np.array([_soft_proba_stump(t, x) for x in xs])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    hard = C45Classifier(max_depth=1).fit(X[:, :1], y)
    mid = xs[4:5, None]      # above the threshold, below the upper bound
    assert not np.allclose(hard.predict_proba(mid), got[4:5])


def test_many_rows_on_threads_equal_one_by_one(fitted):
    X, y, clf = fitted
    rows = np.repeat(X, 20, axis=0) + 0.25
    clf2 = pickle.loads(pickle.dumps(clf)).set_params(n_jobs=2)
    np.testing.assert_array_equal(clf2.predict_proba(rows), clf.predict_proba(rows))


def test_export_text_prints_the_bounds(fitted):
    _, _, clf = fitted
    text = export_text(clf)
    assert "[" in text and "]:" in text
    assert "[" not in export_text(clf, show_bounds=False)


def test_model_file_and_pickle_keep_the_bounds(fitted):
    X, _, clf = fitted
    for back in (from_json(to_json(clf)), pickle.loads(pickle.dumps(clf))):
        np.testing.assert_array_equal(back.tree_.lower, clf.tree_.lower)
        np.testing.assert_array_equal(back.tree_.upper, clf.tree_.upper)
        np.testing.assert_array_equal(back.predict_proba(X + 0.3), clf.predict_proba(X + 0.3))


@pytest.mark.parametrize("field,change,message", [
    ("lower", lambda t, a, i: a.__setitem__(i, t.threshold[i] + 1), "lower bound"),
    ("upper", lambda t, a, i: a.__setitem__(i, t.threshold[i] - 1), "upper bound"),
    ("upper", lambda t, a, i: a.__setitem__(i, np.inf), "upper bound"),
    ("lower", lambda t, a, i: a.__setitem__(int(np.flatnonzero(t.kind == 0)[0]), 1.0),
     "not a continuous test"),
])
def test_bad_bounds_are_refused_naming_the_field(fitted, field, change, message):
    _, _, clf = fitted
    t = clf.tree_
    i = int(np.flatnonzero(t.kind == 2)[0])
    arrays = {f: np.array(getattr(t, f)) for f in Tree._fields + ("lower", "upper")}
    change(t, arrays[field], i)
    with pytest.raises(ValueError, match=rf"{field}\[\d+\].*{message}"):
        Tree(**arrays, n_values=t.n_values)
    doc = to_json(clf)
    import json
    d = json.loads(doc)
    d["trees"]["final"][field] = [None if v != v else v for v in arrays[field].tolist()]
    if message == "upper bound" and not np.isfinite(arrays[field][i]):
        return              # JSON has no infinity: Tree's check above is the one
    with pytest.raises(ValueError, match=rf"{field}\[\d+\].*{message}"):
        from_json(_resealed(d))


def test_one_bound_alone_is_refused(fitted):
    _, _, clf = fitted
    t = clf.tree_
    arrays = {f: getattr(t, f) for f in Tree._fields}
    with pytest.raises(ValueError, match="both lower and upper"):
        Tree(**arrays, n_values=t.n_values, lower=t.lower)


def test_float64_runs_the_same_algorithm(fitted):
    X, y, clf32 = fitted
    clf = C45Classifier(soft_thresholds=True).fit(X, y)
    cont = clf.tree_.kind == 2
    assert np.all(clf.tree_.lower[cont] <= clf.tree_.threshold[cont])
    np.testing.assert_allclose(clf.tree_.lower, clf32.tree_.lower, rtol=1e-5)


def test_prune_recomputes_the_bounds(fitted):
    X, y, clf = fitted
    clf = pickle.loads(pickle.dumps(clf))
    clf.prune(X, y, confidence=0.05)
    fresh = C45Classifier(soft_thresholds=True, precision="float32",
                          confidence=0.05).fit(X, y)
    np.testing.assert_array_equal(clf.tree_.lower, fresh.tree_.lower)


def test_prune_without_training_data_names_the_soft_thresholds(fitted):
    # Cost-complexity or no pruning needs no training data, but the pruned
    # tree's bounds do: the error named pessimistic pruning, which was not asked.
    X, y, clf = fitted
    clf = pickle.loads(pickle.dumps(clf))
    for pruning in ("cost_complexity", None):
        with pytest.raises(ValueError, match="bounds of soft_thresholds=True needs the "
                                             "training cases"):
            clf.prune(pruning=pruning)
    loaded = from_json(to_json(clf))
    with pytest.raises(ValueError, match="loaded from a model file.*bounds of "
                                         "soft_thresholds=True"):
        loaded.prune(X, y, pruning=None)
    clf.prune(X, y, pruning=None)           # given the data, it prunes
    assert clf.tree_.lower is not None


def test_float32_model_with_bounds_not_binary32_is_refused(fitted):
    import json
    _, _, clf = fitted
    d = json.loads(to_json(clf))
    i = int(np.flatnonzero(clf.tree_.kind == 2)[0])
    d["trees"]["final"]["lower"][i] = clf.tree_.lower[i] - 1e-9
    with pytest.raises(ValueError, match=r"lower\[\d+\].*float32"):
        from_json(_resealed(d))


def test_bounds_of_values_beyond_half_of_float64s_range():
    # The interpolation's b - a overflowed (the fit failed on its own -inf
    # bound), and predict's shares went to 0 or 1 where v - lower and
    # threshold - lower overflow.
    big = 1.7e308
    X = np.array([[-big], [1e308], [big], [big]])
    clf = C45Classifier(soft_thresholds=True, min_samples_leaf=1,
                        pruning=None).fit(X, [0, 0, 1, 1])
    t = clf.tree_
    assert np.isfinite(t.lower[0]) and t.lower[0] <= t.threshold[0] <= t.upper[0]
    P = clf.predict_proba([[-big], [0.0], [1e308], [1.2e308], [big]])
    assert np.isfinite(P).all() and np.allclose(P.sum(axis=1), 1)
    # Legal bounds as far apart as float64 allows: a half share at the threshold,
    # linear on either side.
    doc = __import__("json").loads(to_json(clf))
    tree = doc["trees"]["final"]
    tree["lower"][0], tree["threshold"][0], tree["upper"][0] = -big, 1e308, big
    m = from_json(_resealed(doc))
    ends = m.predict_proba([[-big], [big]])
    assert m.predict_proba([[1e308]])[0] == pytest.approx(ends.mean(axis=0))
    quarter = -big / 2 + 1e308 / 2         # halfway from lower to the threshold
    assert m.predict_proba([[quarter]])[0] == pytest.approx(0.75 * ends[0] + 0.25 * ends[1])


def _bounds_case_by_case(values, wrong1, wrong2, w, threshold, rnd):
    """The bounds by Release 8's loops, a Python step per case (what _bounds
    computes with numpy's sequential accumulations)."""
    import math
    from soft_oracle import BELOW_TOLERANCE, _between
    order = np.argsort(values, kind="stable")
    values, wrong1, wrong2, w = values[order], wrong1[order], wrong2[order], w[order]
    distinct, first = np.unique(values, return_index=True)
    e1, e2 = np.where(wrong1, w, 0.0), np.where(wrong2, w, 0.0)
    n = base = rnd(0)
    for i in range(values.size):
        n = rnd(n + rnd(w[i]))
        base = rnd(base + rnd(e1[i] if values[i] <= threshold + BELOW_TOLERANCE else e2[i]))
    se = rnd(math.sqrt((float(base) + 0.5) * (float(n) - float(base) + 0.5) / (float(n) + 1)))
    limit = rnd(base + se)
    last = np.append(first[1:], values.size)
    errors, left, right = [], rnd(0), rnd(0)
    for i in range(values.size):
        right = rnd(right + rnd(e2[i]))
    for j in range(distinct.size):
        for i in range(first[j], last[j]):
            left, right = rnd(left + rnd(e1[i])), rnd(right - rnd(e2[i]))
        errors.append(rnd(left + right))
    u = [rnd(v) for v in distinct]
    at = int(np.searchsorted(distinct, threshold + BELOW_TOLERANCE, side="right")) - 1
    lo, hi = u[0], u[-1]
    for j in range(1, at + 1):
        if errors[j - 1] > limit and errors[j] <= limit:
            lo = _between(u[j], u[j - 1], errors[j], errors[j - 1], limit, rnd)
            break
    for j in range(len(u) - 2, max(at, 0) - 1, -1):
        if errors[j] <= limit and errors[j + 1] > limit:
            hi = _between(u[j], u[j + 1], errors[j], errors[j + 1], limit, rnd)
            break
    t = rnd(threshold)
    return float(min(lo, t)), float(max(hi, t))


def test_bounds_equal_release_8s_case_by_case_sums():
    from c45._soft import _bounds
    rng = np.random.default_rng(0)
    for trial in range(400):
        m = int(rng.integers(1, 80))
        v = [rng.integers(0, 10, m).astype(float), np.round(rng.normal(0, 50, m), 1),
             rng.choice([-0.0, 0.0, 1.0, 2.5, 1e30], m)][trial % 3]
        w = np.ones(m) if trial % 2 else rng.random(m) * rng.choice([1, 3, 1e-3], m)
        p = rng.random()
        wrong1, wrong2 = rng.random(m) < p, rng.random(m) < 1 - p
        threshold = float(rng.choice(v))
        for rnd in (np.float32, float):
            x = v.astype(np.float32).astype(float) if rnd is np.float32 else v
            assert _bounds(x, wrong1, wrong2, w, threshold, rnd) == \
                _bounds_case_by_case(x, wrong1, wrong2, w, threshold, rnd)


def _cases(n_rows, seed):
    """Rows with unknown values, categories and weights, a few classes."""
    rng = np.random.default_rng(seed)
    cont = rng.normal(size=(n_rows, 2)).round(int(rng.integers(0, 3)))
    cont[rng.random(cont.shape) < 0.1] = np.nan
    cat = rng.integers(0, 5, size=(n_rows, 1)).astype(float)
    cat[rng.random(n_rows) < 0.1] = np.nan
    y = ((np.nan_to_num(cont[:, 0]) + rng.normal(0, 1, n_rows) > 0).astype(int)
         + (cat[:, 0] == 2) + (rng.random(n_rows) < 0.1))
    w = rng.random(n_rows) * rng.choice([1.0, 5.0]) if seed % 2 else None
    return np.hstack([cont, cat]), y, w


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_bounds_equal_the_numpy_reference_bit_for_bit(seed, precision, monkeypatch):
    """The compiled pass against tests/soft_oracle.py (the numpy implementation it
    replaced), on trees with unknown values below and above the tests,
    categories (subset tests with seed 1, 4) and case weights."""
    import c45._soft
    import soft_oracle
    from c45._encode import values_in_row_order
    compiled = c45._soft.soft_bounds
    seen = []

    def both(tree, cont, codes, col, y, weight, f32, rank=None):
        got = compiled(tree, cont, codes, col, y, weight, f32, rank)
        if rank is not None:        # float64's tables: the reference reads rows
            cont = values_in_row_order(cont, rank[:len(cont)])
        want = soft_oracle.soft_bounds(tree, cont, codes, col, y, weight, f32)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.view(np.int64), w.view(np.int64))
        seen.append(int((tree.kind == 2).sum()))
        return got

    monkeypatch.setattr(c45._soft, "soft_bounds", both)
    X, y, w = _cases(400, seed)
    C45Classifier(soft_thresholds=True, precision=precision, categorical_features=[2],
                  subset_splits=seed % 3 == 1, min_samples_leaf=1 + seed % 3,
                  pruning=None if seed == 5 else "pessimistic").fit(X, y, sample_weight=w)
    assert seen and seen[0] >= 2


def _chain(depth):
    """A hand-made chain of `depth` tests on feature 0 (test j: x <= j + 0.5, a
    leaf for row j, else the next test) and its rows x = 0 .. depth, classes
    alternating; its nodes in the order a fit stores them (children after their
    parent)."""
    nn = 2 * depth + 1
    test = np.zeros(nn, bool)
    test[0:2 * depth:2] = True
    rows = np.arange(depth + 1)
    y = (rows % 2).astype(np.int32)
    leaf_row = np.where(test, -1, np.r_[np.arange(depth), depth][np.arange(nn) // 2])
    value = np.zeros((nn, 2))
    leaves = np.flatnonzero(~test)
    value[leaves, y[leaf_row[leaves]]] = 1.0
    for i in range(2 * depth - 2, -1, -2):             # a test's: its children's sums
        value[i] = value[i + 1] + value[i + 2]
    tree = Tree(np.where(test, 2, 0), np.where(test, 0, -1),
                np.where(test, np.arange(nn) + 1, -1), np.where(test, 2, 0),
                value.argmax(axis=1).astype(np.int32),
                np.where(test, np.arange(nn) // 2 + 0.5, np.nan), value.sum(axis=1),
                np.zeros(nn), value, n_values=np.zeros(1, np.int32))
    cont = rows[None, :].astype(np.float64)
    return tree, (cont, np.zeros((1, depth + 1), np.int32), np.zeros(1, np.int32), y,
                  np.ones(depth + 1))


def test_deep_chain_bounds_visit_each_case_a_few_times():
    """The bounds' work is linear in the (test, case) pairs: each case of a test
    is classified down both branches by walks that do not start again from the
    test (the numpy version classified each test's cases through its whole
    subtree: some depth**3 / 6 node visits on a chain)."""
    from c45._soft import soft_bounds
    depth = 3000
    tree, data = _chain(depth)
    counts = {}
    lower, upper = soft_bounds(tree, *data, False, counts=counts)
    # test j is reached by rows j .. depth
    assert counts["cases"] == sum(depth - j + 1 for j in range(depth))
    assert counts["visits"] <= 4 * counts["cases"]
    tests = tree.kind == 2
    assert np.all(lower[tests] <= tree.threshold[tests])
    assert np.all(upper[tests] >= tree.threshold[tests])


@pytest.mark.parametrize("f32", [False, True])
def test_chain_bounds_equal_the_numpy_reference(f32):
    import soft_oracle
    from c45._soft import soft_bounds
    tree, data = _chain(150)
    got = soft_bounds(tree, *data, f32)
    want = soft_oracle.soft_bounds(tree, *data, f32)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.view(np.int64), w.view(np.int64))
