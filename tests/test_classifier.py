"""C45Classifier as a scikit-learn classifier: the estimator checks, the
pipelines it drops into, input handling and clear errors for bad input."""
import inspect
import pickle
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.metrics import accuracy_score
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator, parametrize_with_checks

from c45 import C45Classifier, export_text
from c45.datasets import load_golf, load_weather


# Settings that fail some checks by design declare them (C45Classifier._xfail_checks):
# scikit-learn before 1.6 reads them from _more_tags, later ones take them here.
_ESTIMATORS = [C45Classifier(), C45Classifier(precision="float32"),
               C45Classifier(pruning=None, min_samples_leaf=1),
               C45Classifier(pruning="reduced_error", random_state=0),
               C45Classifier(normalize_sample_weight=True),
               C45Classifier(trials=3), C45Classifier(soft_thresholds=True)]
_TAKES_DECLARED = "expected_failed_checks" in inspect.signature(check_estimator).parameters
_DECLARED = ({"expected_failed_checks": lambda est: est._xfail_checks()}
             if _TAKES_DECLARED else {})


@parametrize_with_checks(_ESTIMATORS, **_DECLARED)
def test_sklearn_estimator_checks(estimator, check):
    if "check_array_api_input" in str(check):
        # That check skips itself without SCIPY_ARRAY_API; c45 is a NumPy/Cython
        # estimator and must not claim Array API support.
        assert not estimator.__sklearn_tags__().array_api_support
        return
    check(estimator)


@pytest.mark.skipif(not _TAKES_DECLARED,
                    reason="scikit-learn before 1.6 skips the checks _more_tags declares")
@pytest.mark.parametrize("estimator", _ESTIMATORS[3:] + [
    C45Classifier(normalize_sample_weight=True, precision="float32",
                  pruning="reduced_error", random_state=0)], ids=repr)
def test_the_checks_a_setting_declares_are_exactly_those_it_fails(estimator):
    declared = estimator._xfail_checks()
    assert declared and C45Classifier()._xfail_checks() == {}
    assert estimator._more_tags()["_xfail_checks"] == declared
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, on_fail=None,
                                  expected_failed_checks=declared)
    failed = {r["check_name"] for r in results if r["status"] == "failed"}
    assert failed == set()
    ran = {r["check_name"] for r in results}
    xfail = {r["check_name"] for r in results if r["status"] == "xfail"}
    assert xfail == set(declared) & ran
    assert xfail


def test_reduced_error_on_lists_gives_the_label_dtype_and_every_class():
    # The hold-out once turned list labels into an object array (classes_ and
    # predict of dtype object, which scikit-learn's metrics refuse), and could
    # hold out a small class whole (then refused as "unseen in training").
    X = [[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]] * 5
    y = [0, 0, 0, 1, 1, 1] * 5
    clf = C45Classifier(pruning="reduced_error", random_state=0).fit(X, y)
    assert clf.classes_.dtype == np.asarray(y).dtype
    assert clf.predict(X).dtype == np.asarray(y).dtype
    assert accuracy_score(y, clf.predict(X)) == 1.0
    X2, y2 = np.arange(30.0)[:, None], np.array([0] * 14 + [1] * 14 + [2, 3])
    for seed in range(10):
        clf = C45Classifier(pruning="reduced_error", random_state=seed).fit(X2, y2)
        assert list(clf.classes_) == [0, 1, 2, 3]


def mixed_frame(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "num": rng.normal(size=n),
        "colour": pd.Categorical(rng.choice(["red", "green", "blue"], size=n)),
        "size": rng.choice(["S", "M", "L"], size=n).astype(object),
        "flag": rng.random(n) < 0.5,
    })
    y = np.where((X["num"] > 0) ^ (X["colour"] == "red").to_numpy(), "yes", "no")
    X.loc[rng.random(n) < 0.1, "num"] = np.nan
    X.loc[rng.random(n) < 0.1, "size"] = None
    return X, y


def test_pandas_mixed_types_auto_detection():
    X, y = mixed_frame()
    clf = C45Classifier().fit(X, y)
    assert [c is not None for c in clf.categories_] == [False, True, True, True]
    assert clf.categories_[2] == ["L", "M", "S"]          # sorted values seen
    assert clf.categories_[3] == [False, True]
    assert list(clf.feature_names_in_) == ["num", "colour", "size", "flag"]
    assert clf.score(X, y) > 0.9
    proba = clf.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert (clf.classes_.take(proba.argmax(axis=1)) == clf.predict(X)).all()


def test_declared_categories_make_branches_and_leaves():
    """A Categorical's unused declared categories get a branch (an empty leaf)."""
    X = pd.DataFrame({"c": pd.Categorical(["a", "a", "b", "b"] * 3,
                                          categories=["a", "b", "unused"])})
    y = ["p", "p", "q", "q"] * 3
    clf = C45Classifier(pruning=None).fit(X, y)
    assert clf.tree_.node_count == 4
    assert "c = unused: p (0.0)" in export_text(clf)


def test_unseen_category_is_treated_as_unknown():
    X, y = load_golf()
    clf = C45Classifier().fit(X, y)
    unseen = X.iloc[:2].copy()
    unseen["outlook"] = pd.Categorical(["fog", "hail"])
    unknown = X.iloc[:2].copy()
    unknown["outlook"] = pd.Categorical([None, None], categories=["sunny"])
    assert np.array_equal(clf.predict_proba(unseen), clf.predict_proba(unknown))


def test_numpy_object_array_with_strings_and_none():
    X, y = load_golf(as_frame=False)
    X = X.copy()
    X[0, 0] = None
    clf = C45Classifier().fit(X, y)
    assert clf.categories_[0] == ["overcast", "rain", "sunny"]
    assert clf.predict(X).shape == (14,)
    assert export_text(clf).startswith("x0 = ")


@pytest.mark.parametrize("labels", [np.array([3, 7]), np.array([True, False]),
                                    np.array(["b", "a"], dtype=object)])
def test_label_types(labels):
    X = np.arange(20.0).reshape(-1, 1)
    y = labels[(np.arange(20) >= 10).astype(int)]
    clf = C45Classifier().fit(X, y)
    assert set(clf.classes_) == set(labels)
    assert (clf.predict(X) == y).all()


def test_one_class_only():
    clf = C45Classifier().fit([[1.0], [2.0], [3.0]], ["only"] * 3)
    assert clf.predict([[0.0], [np.nan]]).tolist() == ["only", "only"]
    assert clf.tree_.node_count == 1


def test_categorical_features_by_index_name_and_mask():
    X = pd.DataFrame({"a": [1, 2, 3, 1, 2, 3] * 4, "b": np.arange(24.0)})
    y = (X["a"] == 2).to_numpy()
    for spec in ([0], ["a"], [True, False]):
        clf = C45Classifier(categorical_features=spec, min_samples_leaf=1).fit(X, y)
        assert clf.categories_[0] == [1, 2, 3] and clf.categories_[1] is None
        assert clf.tree_.kind[0] == 1           # a multiway test on "a"
    assert C45Classifier().fit(X, y).categories_[0] is None   # auto: numeric


def test_zero_weight_is_removal_and_integer_weight_is_duplication():
    X, y = mixed_frame(200, seed=3)
    w = np.ones(len(y))
    w[::7] = 0
    a = C45Classifier().fit(X, y, sample_weight=w)
    b = C45Classifier().fit(X[w > 0], y[w > 0])
    assert export_text(a) == export_text(b)
    w2 = np.where(np.arange(len(y)) % 3 == 0, 2.0, 1.0)
    c = C45Classifier().fit(X, y, sample_weight=w2)
    rep = np.repeat(np.arange(len(y)), w2.astype(int))
    d = C45Classifier().fit(X.iloc[rep], y[rep])
    assert export_text(c) == export_text(d)


def test_large_fit_gives_freed_heap_back_small_fit_does_not(monkeypatch):
    """From TRIM_CELLS cells on, fit calls _tree.release_heap (malloc_trim under
    glibc) three times: after encoding, before growing (the encoding's freed
    buffers would otherwise stay resident beside the case lists), after
    pruning, before the grown tree's delta is made (pruning's, beside the two
    trees), and at the end, after the fit's buffers are freed. Below it a fit
    skips them."""
    from c45 import _classifier, _tree
    _tree.release_heap()                # callable on every platform
    calls = []
    build_tree = _tree.build_tree
    monkeypatch.setattr(_tree, "release_heap", lambda: calls.append("trim"))
    monkeypatch.setattr(_tree, "build_tree",
                        lambda *a, **k: calls.append("grow") or build_tree(*a, **k))
    X, y = mixed_frame(200, seed=3)
    C45Classifier().fit(X, y)
    assert calls == ["grow"]
    calls.clear()
    monkeypatch.setattr(_classifier, "TRIM_CELLS", 200 * X.shape[1])
    C45Classifier().fit(X, y)
    assert calls == ["trim", "grow", "trim", "trim"]


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_fit_that_lets_go_of_its_tables_gives_the_same_trees(precision, n_jobs):
    """A plain fit lets go of the encoded tables as soon as nothing reads them
    (float64's sorted values once grown, its ranks once pruned; float32's
    orders), compacts the pruned tree in place and keeps no copy of its class
    weights; keep_training_data holds every table to the end. Both give the
    same trees, bit for bit, and the same tree again on prune()."""
    from c45._serialize import to_json
    rng = np.random.default_rng(7)
    X = rng.standard_normal((3000, 5))
    X[:, 4] = np.round(X[:, 4] * 2)                 # ties
    y = np.searchsorted([-1.0, -0.3, 0.3, 1.0], X[:, 0] + X[:, 1] * X[:, 2]
                        + 0.7 * rng.standard_normal(3000))
    plain = C45Classifier(precision=precision, n_jobs=n_jobs).fit(X, y)
    kept = C45Classifier(precision=precision, n_jobs=n_jobs,
                         keep_training_data=True).fit(X, y)
    assert plain.tree_.node_count > 50
    assert plain.grown_tree_.node_count > plain.tree_.node_count
    for name in plain.tree_._fields:
        assert np.array_equal(getattr(plain.tree_, name), getattr(kept.tree_, name),
                              equal_nan=True), name
        assert np.array_equal(getattr(plain.grown_tree_, name),
                              getattr(kept.grown_tree_, name), equal_nan=True), name
    kept.set_params(keep_training_data=False)
    assert to_json(plain) == to_json(kept)
    kept.prune()                                    # pruned again from the kept data
    assert to_json(plain) == to_json(kept)


def test_pickle_round_trip_and_clone():
    X, y = mixed_frame()
    clf = C45Classifier(precision="float32").fit(X, y)
    again = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(again.predict_proba(X), clf.predict_proba(X))
    assert clone(clf).get_params() == clf.get_params()
    assert not hasattr(clone(clf), "tree_")


def test_tree_arrays_are_read_only_views():
    clf = C45Classifier().fit(*load_golf())
    t = clf.tree_
    assert t.node_count == 8 and clf.get_n_leaves() == 5 and clf.get_depth() == 2
    with pytest.raises(ValueError):
        t.feature[0] = 3
    first, nb = t.first_child[0], t.n_children[0]
    assert nb == 3 and (t.weight[first:first + nb].sum() == t.weight[0])


def test_in_pipeline_search_and_cross_validation():
    X, y = mixed_frame(240)
    pipe = make_pipeline(FunctionTransformer(lambda d: d), C45Classifier())
    assert cross_val_score(pipe, X, y, cv=3).mean() > 0.85
    grid = GridSearchCV(C45Classifier(), {"confidence": [0.1, 0.25],
                                          "min_samples_leaf": [2, 5]}, cv=3).fit(X, y)
    assert grid.best_estimator_.tree_.node_count >= 1


def test_weather_chinese_labels_round_trip():
    X, y = load_weather()
    clf = C45Classifier().fit(X, y)
    assert list(clf.classes_) == ["晴天", "阴天", "雨天"]
    assert set(clf.predict(X)) <= set(clf.classes_)


# -- bad input ------------------------------------------------------------------

BAD = [
    (dict(X=np.zeros((3, 2, 2)), y=[0, 1, 0]), ValueError, "2-dimensional"),
    (dict(X=np.zeros((3, 1)), y=[0, 1]), ValueError, "3 rows but y has 2"),
    (dict(X=np.zeros((0, 2)), y=[]), ValueError, "0 sample"),
    (dict(X=np.zeros((3, 0)), y=[0, 1, 0]), ValueError, "0 feature"),
    (dict(X=[[1.0], [np.inf], [2.0]], y=[0, 1, 0]), ValueError, "infinite value at row 1"),
    (dict(X=[[1.0], [2.0], [3.0]], y=[0, None, 1]), ValueError, "missing value .* row 1"),
    (dict(X=[[1.0], [2.0], [3.0]], y=[0.0, np.nan, 1.0]), ValueError, "missing value .* row 1"),
    (dict(X=[[1.0], [2.0]], y=[0, 1], sample_weight=[1, -1]), ValueError, "non-negative; row 1"),
    (dict(X=[[1.0], [2.0]], y=[0, 1], sample_weight=[1, np.nan]), ValueError, "finite; row 1"),
    (dict(X=[[1.0], [2.0]], y=[0, 1], sample_weight=[0, 0]), ValueError, "zero for every row"),
    (dict(X=[[1.0], [2.0]], y=[0, 1], sample_weight=[1, 1, 1]), ValueError, r"shape \(2,\)"),
    (dict(X=np.array([[1.0], ["a"], [2.0]], dtype=object), y=[0, 1, 0],
          categorical_features=[]), ValueError, "mixes numbers and strings"),
    (dict(X=np.array([[1], ["a"]], dtype=object), y=[0, 1]), ValueError, "mixes numbers and strings"),
    (dict(X=np.zeros((2, 2)), y=[0, 1], categorical_features=[5]), ValueError, "out of range"),
    (dict(X=pd.DataFrame({"a": [1, 2]}), y=[0, 1], categorical_features=["zz"]),
     ValueError, "unknown column 'zz'"),
    (dict(X=np.zeros((2, 2)), y=[0, 1], categorical_features=[True]), ValueError, "boolean mask"),
    (dict(X=np.zeros((2, 1)), y=[0, 1], min_samples_leaf=0), ValueError, "min_samples_leaf"),
    (dict(X=np.zeros((2, 1)), y=[0, 1], confidence=1.5), ValueError, "confidence"),
    (dict(X=np.zeros((2, 1)), y=[0, 1], precision="half"), ValueError, "precision"),
    (dict(X=np.zeros((2, 1)), y=[0, 1], pruning="magic"), ValueError, "pruning"),
    (dict(X=[[1e39], [1.0]], y=[0, 1], precision="float32"), ValueError, "float32 range"),
]


@pytest.mark.parametrize("case,error,match", BAD)
def test_bad_input_gets_a_clear_error(case, error, match):
    case = dict(case)
    X, y = case.pop("X"), case.pop("y")
    sw = case.pop("sample_weight", None)
    with pytest.raises(error, match=match):
        C45Classifier(**case).fit(X, y, sample_weight=sw)


def test_predict_errors():
    X, y = mixed_frame(60)
    with pytest.raises(NotFittedError):
        C45Classifier().predict(X)
    clf = C45Classifier().fit(X, y)
    with pytest.raises(ValueError, match="expecting 4 features"):
        clf.predict(X.iloc[:, :3])
    with pytest.raises(ValueError, match="same names, same order"):
        clf.predict(X[["colour", "num", "size", "flag"]])
    with pytest.raises(ValueError, match="tree must be"):
        clf.predict(X, tree="other")


def test_weights_too_light_for_min_samples_leaf_warn():
    """min_samples_leaf is in case weight (C4.5's -m): AdaBoost-style weights that
    sum to 1 make a single leaf, and the user is told so rather than left guessing."""
    X = np.arange(20.0).reshape(-1, 1)
    y = (X[:, 0] > 9).astype(int)
    with pytest.warns(UserWarning, match="single leaf"):
        clf = C45Classifier().fit(X, y, sample_weight=np.full(20, 1 / 20))
    assert clf.tree_.node_count == 1
    scaled = C45Classifier(normalize_sample_weight=True)
    scaled.fit(X, y, sample_weight=np.full(20, 1 / 20))
    assert export_text(scaled) == export_text(C45Classifier().fit(X, y))


def test_adaboost_with_relative_weights():
    from sklearn.datasets import make_classification
    from sklearn.ensemble import AdaBoostClassifier
    X, y = make_classification(400, 6, random_state=0)
    one = C45Classifier(max_depth=1).fit(X, y).score(X, y)
    boosted = AdaBoostClassifier(C45Classifier(max_depth=1, normalize_sample_weight=True),
                                 n_estimators=20, random_state=0).fit(X, y)
    assert boosted.score(X, y) > one + 0.02


def test_threads_claiming_rows_give_every_row_its_own_answer():
    """With n_jobs=2 the threads take blocks of rows from a shared cursor as they
    go (sizes depend on timing): every row is walked once and gets the bits one
    thread gives it, in the class sums, predict_proba, predict and apply, fast
    walk and general walk alike."""
    rng = np.random.default_rng(9)
    X = rng.normal(size=(60_000, 5))
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=len(X)) * 0.3 > 0).astype(int)
    X[rng.random(X.shape) < 0.05] = np.nan
    one = C45Classifier(min_samples_leaf=1).fit(X[:20_000], y[:20_000])
    two = pickle.loads(pickle.dumps(one)).set_params(n_jobs=2)
    assert one.tree_.node_count > 100
    # The class sums before division: a row walked twice would double them.
    assert two._sums(X).tobytes() == one._sums(X).tobytes()
    assert two.predict_proba(X).tobytes() == one.predict_proba(X).tobytes()
    assert np.array_equal(two.predict(X), one.predict(X))
    assert np.array_equal(two.apply(X), one.apply(X))


@pytest.mark.parametrize("params", [{}, {"precision": "float32"}, {"laplace": True},
                                    {"n_jobs": 2}, {"pruning": None}])
def test_predict_is_the_first_class_of_largest_sum(params):
    """predict reads each row's class off the walk (a single leaf's precomputed
    class, or the first largest of the sums of a row sent down several branches)
    without making the sums: it equals the first largest class sum and the first
    largest probability, on continuous and discrete features with unknown
    values, on encoded data and on a float array read in place."""
    rng = np.random.default_rng(4)
    X, _ = mixed_frame(3000, seed=4)
    score = np.nan_to_num(X["num"].to_numpy()) + (X["colour"] == "red").to_numpy()
    y = np.asarray(["lo", "mid", "hi"])[np.digitize(score + rng.normal(size=3000) * 0.5,
                                                    [0.0, 1.0])]
    clf = C45Classifier(min_samples_leaf=3, **params).fit(X, y)
    Xt, _ = mixed_frame(2000, seed=5)
    pred = clf.predict(Xt)
    assert np.array_equal(pred, clf.declared_classes_.take(np.argmax(clf._sums(Xt), axis=1)))
    assert np.array_equal(pred, clf.classes_.take(np.argmax(clf.predict_proba(Xt), axis=1)))
    # Every feature continuous, X read in place: the fast walk, then the general one.
    Xc = np.column_stack([X["num"], rng.normal(size=3000)])
    Xc[rng.random(Xc.shape) < 0.1] = np.nan
    clf = C45Classifier(min_samples_leaf=3, **params).fit(Xc, y)
    Xct = Xc[::-1].copy()
    assert np.isnan(Xct).any(axis=1).sum() > 100
    assert np.array_equal(clf.predict(Xct),
                          clf.declared_classes_.take(np.argmax(clf._sums(Xct), axis=1)))


@pytest.mark.parametrize("labels", [["a", "b"], ["b", "a"]])
def test_predict_ties_go_to_the_first_class(labels):
    """A row sent down both branches of a split between two pure leaves of equal
    weight has equal class sums: C4.5 picks the first class, whichever leaf holds
    it. So does a leaf holding as much of two classes."""
    X = np.array([[0.0], [0.0], [0.0], [1.0], [1.0], [1.0]])
    y = np.repeat(labels, 3)
    clf = C45Classifier(min_samples_leaf=1, pruning=None).fit(X, y)
    assert clf.tree_.node_count == 3
    assert list(clf.predict(np.array([[np.nan], [0.0], [1.0]]))) == ["a", labels[0], labels[1]]
    one = C45Classifier().fit(np.zeros((2, 1)), labels)
    assert list(one.predict(np.zeros((1, 1)))) == ["a"]


# -- prediction set-up: once per tree; DataFrames read in place -----------------------

def _continuous_problem(n=3_000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    X[rng.random(X.shape) < 0.05] = np.nan
    X[:40, 1] = -0.0
    y = (np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 1]) > 0).astype(int)
    return X, y


def test_descent_tables_are_made_once_per_tree_and_replaced_by_prune():
    X, y = _continuous_problem()
    clf = C45Classifier(min_samples_leaf=1).fit(X, y)
    grown = clf.grown_tree_
    assert "_descents" not in vars(clf.tree_)     # nothing until the first predict
    clf.predict(X[:1])
    (made,) = vars(clf.tree_)["_descents"].values()
    clf.predict_proba(X), clf.apply(X), clf.decision_path(X), clf.predict(X)
    assert list(vars(clf.tree_)["_descents"].values()) == [made]   # reused by all
    old = clf.tree_
    clf.prune(X, y, confidence=0.01)
    assert clf.tree_ is not old and "_descents" not in vars(clf.tree_)
    fresh = C45Classifier(min_samples_leaf=1, confidence=0.01).fit(X, y)
    assert clf.predict_proba(X).tobytes() == fresh.predict_proba(X).tobytes()
    assert clf.grown_tree_ is grown
    # Pickles and copies carry the trees, not their tables.
    assert b"_descents" not in pickle.dumps(clf)


def _frame_layouts(X, names):
    one_block = pd.DataFrame(X, columns=names)             # pandas: one F-ordered block
    by_column = pd.DataFrame(index=range(len(X)))
    for j, name in enumerate(names):                       # a block per column
        by_column[name] = X[:, j]
    return {"one block": one_block, "a block per column": by_column,
            "a slice of rows": pd.DataFrame(np.vstack([X, X]), columns=names).iloc[::2]}


@pytest.mark.parametrize("layout", ["one block", "a block per column", "a slice of rows"])
def test_dataframe_of_floats_predicts_as_its_encoding(layout, monkeypatch):
    """A DataFrame of float64 columns is read in place (its values, transposed, are
    the feature-major layout); the answers are those of the general encoding."""
    import c45._classifier as c45_classifier
    from c45._encode import plain_rows
    X, y = _continuous_problem()
    names = [f"f{j}" for j in range(X.shape[1])]
    clf = C45Classifier(min_samples_leaf=1).fit(pd.DataFrame(X, columns=names), y)
    Xq, _ = _continuous_problem(500, seed=1)
    frame = _frame_layouts(Xq, names)[layout]
    assert plain_rows(clf._schema, frame, False) is not None
    fast = clf.predict_proba(frame), clf.predict(frame)
    monkeypatch.setattr(c45_classifier, "plain_rows", lambda *a: None)
    slow = clf.predict_proba(frame), clf.predict(frame)
    assert fast[0].tobytes() == slow[0].tobytes()
    np.testing.assert_array_equal(fast[1], slow[1])


def test_dataframe_fast_path_keeps_the_checks():
    X, y = _continuous_problem()
    names = [f"f{j}" for j in range(X.shape[1])]
    clf = C45Classifier().fit(pd.DataFrame(X, columns=names), y)
    bad = pd.DataFrame(X[:10].copy(), columns=names)
    bad.iloc[3, 2] = np.inf
    with pytest.raises(ValueError, match="f2.*infinite value at row 3"):
        clf.predict(bad)
    with pytest.raises(ValueError, match="columns"):
        clf.predict(pd.DataFrame(X[:10], columns=names[::-1]))


def test_score_is_accuracy_score_to_the_bit():
    """score counts matches in one compiled pass where y and the weights are plain
    arrays (fewer GIL releases): the number is accuracy_score's, bit for bit,
    for every kind of y and weights, and what accuracy_score refuses is refused
    the same way."""
    from c45 import C45RulesClassifier
    rng = np.random.default_rng(3)
    X = rng.random((12_000, 3))
    base = (X[:, 0] * 3 + rng.normal(0, 0.4, len(X))).astype(int).clip(0, 2)
    kinds = {"int": base, "int32": base.astype(np.int32), "str": base.astype(str),
             "bool": base > 0, "float": base.astype(float)}
    weights = {"none": None, "float64": rng.random(len(X)) * 3,
               "huge": rng.random(len(X)) * 1e300, "signed": rng.normal(size=len(X)),
               "float32": rng.random(len(X)).astype(np.float32),
               "int": rng.integers(0, 5, len(X)), "strided": (rng.random(2 * len(X)))[::2]}
    for est in (C45Classifier(), C45RulesClassifier()):
        for name, y in kinds.items():
            est.fit(X[:3000], y[:3000])
            for rows in (slice(0, 1), slice(0, 9), slice(0, 200), slice(None)):
                pred = est.predict(X[rows])
                for wname, w in weights.items():
                    sw = None if w is None else w[rows]
                    try:
                        with np.errstate(all="ignore"):
                            want = accuracy_score(y[rows], pred, sample_weight=sw)
                    except ValueError as exc:      # (an unknown target)
                        with pytest.raises(ValueError, match=re.escape(str(exc))):
                            est.score(X[rows], y[rows], sample_weight=sw)
                        continue
                    got = est.score(X[rows], y[rows], sample_weight=sw)
                    assert type(got) is float, (name, wname)
                    assert got == want or (np.isnan(got) and np.isnan(want)), (
                        type(est).__name__, name, wname, rows, got, want)
            # y of another dtype than classes_, a list, a column: as accuracy_score
            if name != "object":
                assert est.score(X[:50], list(y[:50])) == accuracy_score(
                    list(y[:50]), est.predict(X[:50]))
        est.fit(X[:3000], base[:3000])
        from c45._classifier import _plain_accuracy     # the compiled count was used
        assert _plain_accuracy(base, est.predict(X), weights["float64"]) is not None
        for bad in (np.full(len(X), np.nan), np.zeros(len(X))):
            with pytest.raises((ValueError, ZeroDivisionError)) as want:
                accuracy_score(base, est.predict(X), sample_weight=bad)
            with pytest.raises(want.type, match=re.escape(str(want.value)[:40])):
                est.score(X, base, sample_weight=bad)
        with pytest.raises(ValueError, match="continuous"):
            est.score(X, X[:, 0])
