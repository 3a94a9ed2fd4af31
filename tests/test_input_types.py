"""Data types a user may pass that C4.5 cannot read as given: dates, values of
another type at prediction, column names, and categorical_features adding to the
columns that are always discrete."""
import warnings

import numpy as np
import pandas as pd
import pytest

import c45
from c45 import C45Classifier, export_text


def dates(unit, tz=None):
    s = pd.Series(pd.to_datetime(["2020-01-01", "2021-06-01", "2022-03-15"] * 4))
    s = s.astype(f"datetime64[{unit}]")
    return s.dt.tz_localize(tz) if tz else s


@pytest.mark.parametrize("column", [
    dates("us"), dates("ns"), dates("s", tz="UTC"), dates("ns", tz="Europe/Paris"),
    pd.Series(pd.to_timedelta([1, 2, 3] * 4, unit="h")),
    pd.Series(list(pd.to_datetime(["2020-01-01", "2021-01-01", "2022-01-01"] * 4)),
              dtype=object),
])
def test_dates_are_refused_naming_the_column_and_the_conversion(column):
    X = pd.DataFrame({"signup": column, "n": np.arange(12.0)})
    y = [0, 1, 1] * 4
    with pytest.raises(TypeError, match=r"column 'signup' holds (datetime|timedelta) "
                                        r"values.*Convert the column to numbers"):
        C45Classifier().fit(X, y)
    # The documented conversion works, and gives the same tree whatever the unit.
    ok = X.assign(signup=np.arange(12.0))
    clf = C45Classifier(min_samples_leaf=1).fit(ok, y)
    with pytest.raises(TypeError, match="column 'signup' holds"):
        clf.predict(X)


def test_days_since_1970_is_unit_free():
    y = [0, 1, 1] * 4
    trees = set()
    for unit in ("s", "ms", "us", "ns"):
        s = dates(unit)
        X = pd.DataFrame({"signup": (s - pd.Timestamp("1970-01-01")) / pd.Timedelta(days=1)})
        trees.add(export_text(C45Classifier(min_samples_leaf=1).fit(X, y)))
    assert len(trees) == 1


def test_numpy_datetime_array_is_refused():
    X = np.array(["2020-01-01", "2021-01-01"] * 3, dtype="datetime64[D]").reshape(-1, 1)
    with pytest.raises(TypeError, match="column 0 holds datetime values"):
        C45Classifier().fit(X, [0, 1] * 3)


def golf_like():
    X = pd.DataFrame({"windy": ["true", "false", "true", "false"] * 3,
                      "code": pd.Categorical([1, 2, 3, 1] * 3),
                      "t": np.arange(12.0)})
    y = ["a", "b", "a", "b"] * 3
    return X, y, C45Classifier(min_samples_leaf=1).fit(X, y)


def test_value_of_another_type_warns_once_per_column_and_is_unknown():
    X, y, clf = golf_like()
    new = pd.DataFrame({"windy": [True, False, True], "code": pd.Categorical(["1", "2", "1"]),
                        "t": [0.0, 1.0, 2.0]})
    unknown = X.iloc[:3].copy()
    unknown["windy"] = None
    unknown["code"] = pd.Categorical([None] * 3, categories=[1, 2, 3])
    unknown["t"] = new["t"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p = clf.predict_proba(new)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2, messages                 # one per column, not per row
    assert "column 'windy'" in messages[0] and "type bool (True)" in messages[0]
    assert "trained on str values" in messages[0]
    assert "column 'code'" in messages[1] and "type str ('1')" in messages[1]
    assert "trained on number values" in messages[1]
    assert np.array_equal(p, clf.predict_proba(unknown))   # treated as unknown


def test_unseen_values_types_are_looked_at_once_per_type(monkeypatch):
    """The warning above finds a value's kind by its type: 30,000 unseen strings
    after a float are one look per type, not one per value (a Python call per
    unseen value took 4.6 s of CPU for 1.5M of them); a foreign kind after them
    still warns."""
    from c45 import _encode
    X, y, clf = golf_like()
    looks = []
    kind = _encode._type_kind
    monkeypatch.setattr(_encode, "_type_kind", lambda v: looks.append(v) or kind(v))
    n = 30_000
    new = pd.DataFrame({"windy": [f"w{i}" for i in range(n)] + [2.5],
                        "code": pd.Categorical([1] * (n + 1)), "t": np.zeros(n + 1)})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf.predict(new)
    unseen = [v for v in looks if v not in ("true", "false")]   # (not the categories')
    assert unseen == ["w0", 2.5], len(unseen)           # a str, then the float
    assert ["type float (2.5)" in str(w.message) for w in caught] == [True]


@pytest.mark.parametrize("kind", ["categorical", "object", "arrow categorical"])
def test_many_categories_are_checked_without_a_python_call_each(monkeypatch, kind):
    """fit checks the categories of a column of string categories (missing
    values, kinds, Unicode text, distinctness) by whole-array calls, and a
    Categorical's codes are its own: a Python call per category (check_labels,
    check_text, _category_list) and pandas' lookup of the categories in
    themselves (get_indexer, is_unique) took 11 s of CPU for 3M categories."""
    from c45 import _encode
    looks, lookups = [], []
    missing, get_indexer = _encode._is_missing_scalar, pd.Index.get_indexer
    monkeypatch.setattr(_encode, "_is_missing_scalar", lambda v: looks.append(v) or missing(v))
    monkeypatch.setattr(pd.Index, "get_indexer",
                        lambda self, *a, **k: lookups.append(len(self)) or
                        get_indexer(self, *a, **k))
    n = 20_000
    values = [f"v{i}" for i in range(n)] * 2
    if kind == "object":
        col = pd.Series(values, dtype=object)
    else:
        cats = [f"v{i}" for i in range(n)]
        col = pd.Categorical.from_codes(
            np.arange(2 * n) % n, categories=pd.Index(cats, dtype=object
                                                       if kind == "categorical" else None))
    X = pd.DataFrame({"a": col, "t": np.arange(2 * n) % 7})
    y = np.arange(2 * n) % 2
    clf = C45Classifier().fit(X, y)
    assert len(looks) < 100 and not lookups, (len(looks), lookups)
    clf.predict(X)          # the fitted frame's categories: its own codes, no lookup
    assert not lookups, lookups
    assert clf._schema.categories[0][:3] == ["v0", "v1", "v10"] if kind == "object" \
        else clf._schema.categories[0][:3] == ["v0", "v1", "v2"]
    assert np.array_equal(clf.predict(X), clf.predict(X.astype({"a": object})))


def test_value_never_seen_is_unknown_silently():
    X, y, clf = golf_like()
    new = pd.DataFrame({"windy": ["maybe"], "code": pd.Categorical([7]), "t": [0.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf.predict(new)
    # A float for an integer category is the same number: matched, no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same = clf.predict_proba(X.assign(code=X["code"].astype(float)))
    assert np.array_equal(same, clf.predict_proba(X))


def test_categorical_features_adds_to_string_columns():
    X = pd.DataFrame({"age": [20, 30, 40, 20, 30, 40] * 3,
                      "city": ["Nice", "Paris", "Nice", "Lyon", "Paris", "Lyon"] * 3})
    y = ["y", "n", "n", "y", "n", "y"] * 3
    for spec in (["age"], [0], [True, False]):
        clf = C45Classifier(categorical_features=spec).fit(X, y)
        assert clf.categories_ == [[20, 30, 40], ["Lyon", "Nice", "Paris"]]
    assert C45Classifier().fit(X, y).categories_[0] is None
    # None: only the columns that cannot be continuous are discrete.
    clf = C45Classifier(categorical_features=None).fit(X, y)
    assert clf.categories_ == [None, ["Lyon", "Nice", "Paris"]]


def test_feature_names_as_scikit_learn_sets_them():
    X = pd.DataFrame(np.arange(24.0).reshape(12, 2))       # integer column names
    y = [0, 1] * 6
    clf = C45Classifier().fit(X, y)
    assert not hasattr(clf, "feature_names_in_")
    with pytest.raises(TypeError, match=r"only supported if all input features have "
                                        r"string names.*\['int', 'str'\]"):
        C45Classifier().fit(pd.DataFrame(np.zeros((4, 3)), columns=["a", 1, "b"]),
                            [0, 1] * 2)
    named = C45Classifier().fit(X.set_axis(["a", "b"], axis=1), y)
    with pytest.warns(UserWarning, match="X does not have valid feature names, but "
                                         "C45Classifier was fitted with feature names"):
        named.predict(X.to_numpy())
    with pytest.warns(UserWarning, match="X has feature names, but C45Classifier was "
                                         "fitted without feature names"):
        C45Classifier().fit(X.to_numpy(), y).predict(X.set_axis(["a", "b"], axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        named.predict(X.set_axis(["a", "b"], axis=1))
        clf.predict(X)
        clf.predict(X.to_numpy())


def test_predicting_leaves_the_pickle_unchanged():
    import pickle
    X, y, clf = golf_like()
    blob = pickle.dumps(clf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.predict(X.assign(windy=True))        # fills the schema's type cache
    assert pickle.dumps(clf) == blob


def _decimal_data():
    from decimal import Decimal
    rng = np.random.default_rng(0)
    x = np.round(rng.normal(size=60), 3)
    y = (x > 0.2).astype(int)
    values = [Decimal(str(v)) for v in x]
    values[3] = Decimal("NaN")
    values[7] = Decimal("sNaN")          # float() refuses it: unknown all the same
    floats = [float(v) if not v.is_nan() else np.nan for v in values]
    return values, floats, y


def test_decimals_are_numbers_as_float_reads_them():
    """An object column of Decimals (and a pyarrow decimal column) was refused:
    'must be a string or a number, got Decimal'. A NaN Decimal is unknown."""
    from decimal import Decimal
    values, floats, y = _decimal_data()
    want = C45Classifier(min_samples_leaf=1).fit(np.array(floats)[:, None], y)
    Xo = np.empty((len(values), 1), dtype=object)
    Xo[:, 0] = values
    got = C45Classifier(min_samples_leaf=1).fit(Xo, y)
    assert export_text(got) == export_text(want)
    assert np.array_equal(got.predict_proba(Xo), want.predict_proba(np.array(floats)[:, None]))
    assert not got._schema.discrete[0]
    with pytest.raises(ValueError, match="column 0 holds an infinite value at row 1"):
        C45Classifier().fit(np.array([[Decimal(1)], [Decimal("1e400")]], dtype=object), [0, 1])


def test_pyarrow_decimal_column_is_continuous():
    pa = pytest.importorskip("pyarrow")
    values, floats, y = _decimal_data()
    values = [None if v.is_nan() else v for v in values]     # Arrow holds no NaN Decimal
    dtype = pd.ArrowDtype(pa.decimal128(10, 3))
    X = pd.DataFrame({"a": pd.Series(pa.array(values, type=pa.decimal128(10, 3)), dtype=dtype)})
    want = pd.DataFrame({"a": floats})
    got = C45Classifier(min_samples_leaf=1).fit(X, y)
    assert export_text(got) == export_text(C45Classifier(min_samples_leaf=1).fit(want, y))
    assert np.array_equal(got.predict(X), got.predict(want))



def test_arrow_dictionary_of_strings_is_discrete():
    """A column of another pandas dtype was read as numbers unless pandas called it
    a string dtype: an Arrow dictionary of strings (what pyarrow makes of a
    categorical) failed in fit with "continuous (numbers in training)". It is
    read by its values, as the same strings in an object column."""
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(4)
    words = np.array(list("pqr"), dtype=object)[rng.integers(0, 3, 120)]
    words[::9] = None
    y = (words == "q").astype(int)
    arrow = pa.array(list(words)).dictionary_encode()
    X = pd.DataFrame({"a": pd.Series(arrow, dtype=pd.ArrowDtype(arrow.type)),
                      "b": rng.normal(size=120)})
    want = pd.DataFrame({"a": words, "b": X["b"]})
    got = C45Classifier().fit(X, y)
    assert got.categories_[0] == ["p", "q", "r"]
    assert export_text(got) == export_text(C45Classifier().fit(want, y))
    assert np.array_equal(got.predict_proba(X), got.predict_proba(want))
    loaded = c45.from_json(c45.to_json(got))
    assert np.array_equal(loaded.predict_proba(X), got.predict_proba(X))

# -- numpy masked arrays: a masked cell is an unknown value ----------------------

def _masked_problem(dtype):
    rng = np.random.default_rng(3)
    n = 300
    data = rng.integers(0, 100, size=(n, 3)).astype(dtype)
    y = (data[:, 0] > 50).astype(int)
    mask = rng.random((n, 3)) < 0.2
    # The hidden values would tell the class perfectly; as unknowns they cannot.
    data[mask[:, 0], 0] = np.where(y[mask[:, 0]] == 1, 99, 0)
    return np.ma.masked_array(data, mask=mask), y


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_masked_cells_are_unknown(dtype):
    Xm, y = _masked_problem(dtype)
    filled = np.where(np.ma.getmaskarray(Xm), np.nan, np.asarray(Xm.data, dtype=float))
    masked_fit = C45Classifier(min_samples_leaf=1).fit(Xm, y)
    nan_fit = C45Classifier(min_samples_leaf=1).fit(filled, y)
    hidden_fit = C45Classifier(min_samples_leaf=1).fit(np.asarray(Xm.data), y)
    assert np.array_equal(masked_fit.tree_.weight, nan_fit.tree_.weight)
    assert np.array_equal(masked_fit.tree_.threshold, nan_fit.tree_.threshold, equal_nan=True)
    assert not np.array_equal(masked_fit.tree_.weight, hidden_fit.tree_.weight)
    # predict reads the mask too (the all-float fast path included)
    assert np.array_equal(masked_fit.predict_proba(Xm), nan_fit.predict_proba(filled))


def test_masked_categorical_cells_are_unknown():
    Xm = np.ma.masked_array(np.array([["a"], ["b"], ["a"], ["b"], ["c"], ["c"]] * 5),
                            mask=[[False], [False], [True], [False], [False], [False]] * 5)
    y = np.array([0, 1, 0, 1, 0, 0] * 5)
    clf = C45Classifier(min_samples_leaf=1).fit(Xm, y)
    assert clf.tree_.weight[0] == 30
    ref = np.array([["a"], ["b"], [None], ["b"], ["c"], ["c"]] * 5, dtype=object)
    assert np.array_equal(clf.predict_proba(Xm), C45Classifier(min_samples_leaf=1)
                          .fit(ref, y).predict_proba(ref))


def test_a_masked_target_is_refused():
    X = np.arange(12.0).reshape(-1, 1)
    y = np.ma.masked_array([0, 1] * 6, mask=[False] * 11 + [True])
    with pytest.raises(ValueError, match="y is a masked array with 1 masked entry"):
        C45Classifier().fit(X, y)


def test_masked_weights_and_validation_labels_are_refused():
    # np.asarray drops a mask: the hidden weights were used as if given.
    X = np.arange(12.0).reshape(-1, 1)
    y = np.array([0, 1] * 6)
    w = np.ma.masked_array(np.ones(12), mask=[False] * 10 + [True] * 2)
    with pytest.raises(ValueError, match="sample_weight is a masked array with 2 masked"):
        C45Classifier().fit(X, y, sample_weight=w)
    with pytest.raises(ValueError, match="y_val is a masked array with 1 masked entry"):
        C45Classifier(pruning="reduced_error").fit(
            X, y, X_val=X, y_val=np.ma.masked_array(y, mask=[True] + [False] * 11))


@pytest.mark.parametrize("name", ["y", "sample_weight", "y_val"])
def test_a_sparse_target_weight_or_validation_label_is_refused_as_sparse(name):
    # As a sparse X is: np.asarray made a 0-d array of objects of it, refused
    # as "y must be 1-dimensional, got shape ()" or "sample_weight must be numeric".
    sparse = pytest.importorskip("scipy.sparse")
    X = np.arange(12.0).reshape(-1, 1)
    args = {"y": np.array([0, 1] * 6)}
    args[name] = sparse.csr_matrix(np.ones((12, 1)) if name == "sample_weight"
                                   else args["y"].reshape(-1, 1))
    if name == "y_val":
        args["X_val"] = X
    with pytest.raises(TypeError, match=f"sparse matrices; pass {name} as a dense array"):
        C45Classifier(pruning="reduced_error" if name == "y_val" else "pessimistic").fit(
            X, **args)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_dict_predict_proba_reads_the_mask_as_predict_does(dtype):
    Xm, y = _masked_problem(dtype)
    clf = C45Classifier(min_samples_leaf=1).fit(np.asarray(Xm.data, dtype=float), y)
    tree = c45.to_dict(clf, weights=True)
    filled = np.where(np.ma.getmaskarray(Xm), np.nan, np.asarray(Xm.data, dtype=float))
    from_dict = np.asarray(c45.dict_predict_proba(tree, Xm))
    assert np.array_equal(from_dict, clf.predict_proba(Xm))
    assert np.array_equal(from_dict, np.asarray(c45.dict_predict_proba(tree, filled)))
    assert not np.array_equal(from_dict, np.asarray(c45.dict_predict_proba(tree, Xm.data)))


@pytest.mark.parametrize("where", ["column", "categorical", "class", "unicode class",
                                   "categorical class"])
def test_text_that_a_model_file_cannot_hold_is_refused_at_fit(where):
    # A lone surrogate (left by errors="surrogateescape") fitted and pickled, but
    # to_json refused the model: what fit accepts must save and load.
    bad = "caf\udce9"
    X = pd.DataFrame({"f": pd.Series(["a", "b", bad, "a"] * 6, dtype=object),
                      "g": np.arange(24) % 3})
    y = np.array([0, 1] * 12)
    def categorical(values):            # object categories: Arrow strings refuse it
        cats = sorted(set(values))
        return pd.Categorical.from_codes([cats.index(v) for v in values],
                                         categories=pd.Index(cats, dtype=object))
    if where == "categorical":
        X["f"] = categorical(list(X["f"]))
    labels = np.array(["x", bad, "z"] * 8, dtype=object)
    if where.endswith("class"):
        X = X[["g"]]
        y = (labels if where == "class" else labels.astype(str)
             if where == "unicode class" else categorical(list(labels)))
    with pytest.raises(ValueError, match="is not valid Unicode text"):
        C45Classifier(min_samples_leaf=1).fit(X, y)


def test_a_column_name_a_model_file_cannot_hold_is_refused_at_fit():
    X = pd.DataFrame(np.c_[np.arange(10.0), np.arange(10.0) % 3],
                     columns=pd.Index(["caf\udce9", "b"], dtype=object))
    with pytest.raises(ValueError, match="column names: .* is not valid Unicode text"):
        C45Classifier().fit(X, np.arange(10) % 2)
