"""A float32 fit holds its continuous values (cont, Dataset.cont) as float32
numbers, 4 bytes a value (c45/_encode.py: fit_values_dtype): they are float32
numbers (the encoding rounds them), and every reader widens them to the same
doubles, so no tree, bound or training digest changes."""
import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier, _bulk, _tree

TREE_ARRAYS = ("kind", "feature", "first_child", "n_children", "node_class", "threshold",
               "weight", "errors", "value", "map_offset", "value_map")


def assert_same_bits(a, b):
    assert a.node_count == b.node_count
    for name in TREE_ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        if x is None or y is None:
            assert x is None and y is None, name
            continue
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), name


def with_unknowns(n=3000, features=5, seed=3, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, features)) * scale
    s = np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.3 * rng.standard_normal(n)
    y = np.searchsorted(np.quantile(s, [0.3, 0.6]), s)
    X[rng.random(X.shape) < 0.05] = np.nan
    return X, y


def test_case_array_holds_float32():
    """A float32 fit with unknown values grows on R8's case array: its values,
    as the fit keeps them, are float32 (a float64 table was 1.0x X's bytes)."""
    X, y = with_unknowns()
    clf = C45Classifier(precision="float32", keep_training_data=True).fit(X, y)
    data = clf._train[0]
    assert data.f32 and not data.listed
    cont = np.asarray(data.cont)
    assert cont.dtype == np.float32 and cont.shape == (X.shape[1], X.shape[0])
    assert cont.nbytes == X.nbytes // 2
    # the same numbers the encoding read: X rounded to float32, feature-major
    np.testing.assert_array_equal(cont, X.astype(np.float32).T)


@pytest.mark.parametrize("make", [
    lambda X: pd.DataFrame({f"c{j}": X[:, j] for j in range(X.shape[1])}),
    lambda X: X.astype(np.float32),
])
def test_lists_copy_holds_float32(make):
    """float32 on the lists with a copy of the values (a DataFrame's, float32
    X's): float32 too."""
    X, y = with_unknowns()
    X = np.nan_to_num(X)
    clf = C45Classifier(precision="float32", keep_training_data=True).fit(make(X), y)
    data = clf._train[0]
    assert data.listed and np.asarray(data.cont).dtype == np.float32


def test_training_data_refuses_float64_cont():
    X, y = with_unknowns(50, 3)
    data = C45Classifier(precision="float32")._prepare(X, y, None)[2]
    kw = dict(codes=data.codes, col=data.col, n_values=data.n_values, y=data.y,
              n_classes=data.n_classes, init_weight=data.init_weight, count_mode=True,
              total_weight=data.total_weight, multival=False,
              distinct=data.distinct, distinct_start=data.distinct_start)
    with pytest.raises(ValueError, match="float32"):
        _tree.TrainingData(cont=np.asarray(data.cont, np.float64), f32=True, **kw)
    _tree.TrainingData(cont=data.cont, f32=True, **kw)


@pytest.mark.parametrize("params", [
    dict(),
    dict(soft_thresholds=True),
    dict(trials=3),
    dict(max_features=2, random_state=0),
    dict(subtree_raising=False, min_samples_leaf=5),
])
def test_unrounded_values_give_the_rounded_tree(params):
    """Values that are not float32 numbers, with unknowns: the float32 fit reads
    them rounded, and grows the tree of X rounded to float32 beforehand, bit
    for bit (as the float64 table of the rounded values did)."""
    X, y = with_unknowns(scale=1e3)
    X[:, 3] += 1e-4 * np.arange(len(X)) / len(X)        # not float32 numbers
    rounded = X.astype(np.float32).astype(np.float64)
    assert not np.array_equal(X, rounded, equal_nan=True)
    a = C45Classifier(precision="float32", **params).fit(X, y)
    b = C45Classifier(precision="float32", **params).fit(rounded, y)
    assert_same_bits(a.tree_, b.tree_)
    if params.get("soft_thresholds"):
        for name in ("lower", "upper"):
            x, z = (np.asarray(getattr(t.tree_, name)) for t in (a, b))
            assert x.dtype == np.float64 and x.tobytes() == z.tobytes()
            assert np.isfinite(x).any()
    assert a._train_check == b._train_check
    np.testing.assert_array_equal(a.predict_proba(rounded), b.predict_proba(rounded))


def test_digest_of_float32_is_the_float64_tables():
    """The training digest (prune(X, y)'s check) reads float32 values as the
    float64 table they were held in: old models' fingerprints still match."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 1001)).astype(np.float32)
    a[1, 5] = np.nan
    codes = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert (_bulk.digest([a, codes], _bulk.DIGEST_ROWS_PREFIX)
            == _bulk.digest([a.astype(np.float64), codes], _bulk.DIGEST_ROWS_PREFIX))
    big = rng.standard_normal((2, 300_000)).astype(np.float32)      # (nogil, chunks)
    assert _bulk.digest([big]) == _bulk.digest([big.astype(np.float64)])


def test_fingerprint_as_before():
    """A float32 fit's training digest, as c45 gave it when it held the values
    as float64 (a model saved then checks prune(X, y) against it)."""
    rng = np.random.default_rng(7)
    X = rng.standard_normal((400, 3)) * 1e3
    X[rng.random(X.shape) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 0]) > 0).astype(int)
    clf = C45Classifier(precision="float32").fit(X, y)
    assert clf._train_check == (400, 3, "c45d2:73e7880e76c94dbbda84dc352130f1f0")
    df = pd.DataFrame({"a": X[:, 0].astype(np.float32), "b": X[:, 1],
                       "c": pd.Categorical(np.where(y, "u", "v"))})
    assert (C45Classifier(precision="float32").fit(df, y)._train_check
            == (400, 3, "c45d2:d6ffbd3ac1cfcb9163d83c4daf73bb2e"))


def test_bulk_helpers_read_float32():
    """The passes over cont take float32 tables as their float64 values."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 50)).astype(np.float32)
    a[0, 3] = np.nan
    wide = a.astype(np.float64)
    assert all(np.array_equal(p, q, equal_nan=True)
               for p, q in zip(_bulk.column_spans(a), _bulk.column_spans(wide)))
    w = np.ones(50)
    assert (_bulk.weight_and_unknown_facts(w, a, np.zeros((1, 50), np.int32), True, False)
            == _bulk.weight_and_unknown_facts(w, wide, np.zeros((1, 50), np.int32), True,
                                              False))
    s = np.sort(a[1])
    assert _bulk.cut_counts(s, 1e-5) == _bulk.cut_counts(s.astype(np.float64), 1e-5)
    rows = np.array([4, 0, 49, 4])
    taken = _bulk.take_columns(a, rows, True)
    assert taken.dtype == np.float64
    np.testing.assert_array_equal(taken, wide[:, rows])
    assert _bulk.take_columns(a, rows).dtype == np.float32
    out = np.zeros(52)
    _bulk.put(out, 1, a[1])
    np.testing.assert_array_equal(out[1:51], wide[1])
    # the encoding writes float32 directly, only in a float32 fit
    col = rng.standard_normal(50)
    table = np.empty((1, 50), np.float32)
    _bulk.fill_continuous(table, [0], [col], True)
    np.testing.assert_array_equal(table[0], col.astype(np.float32))
    with pytest.raises(ValueError):
        _bulk.fill_continuous(table, [0], [col], False)
