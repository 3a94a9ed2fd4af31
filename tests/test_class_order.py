"""Two class orders: ``classes_`` sorted as scikit-learn sorts labels (the columns
of predict_proba, what its scorers, label_binarize and calibration assume) and
``declared_classes_``, C4.5's order (a pandas Categorical's declared categories),
which the trees index and C4.5 uses for ties and printing.

A Categorical target in a declared order other than the sorted one must score,
calibrate and grid-search exactly as the same labels given as plain strings,
print exactly what C4.5 prints, and survive pickles and model files, old ones too.
"""
import json
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.preprocessing import label_binarize

from c45 import (C45Classifier, C45RulesClassifier, cli, dict_predict, dict_predict_proba,
                 export_rules, export_text, from_json, to_dict, to_json)
from c45.datasets import load_golf
from c45.rules import evaluation_text

from model_files import sealed

FORMAT1 = Path(__file__).resolve().parent / "data" / "format1"
REFERENCE = Path(__file__).resolve().parent / "data" / "reference"


def _data(name):
    """(X, y as a Categorical in a declared order that is not the sorted one,
    the same labels as plain strings)."""
    if name == "golf":
        X, y = load_golf()                      # declared: Play, Don't Play
        return X, y, np.asarray(y, dtype=object)
    loader, order = {"breast_cancer": (load_breast_cancer, ["malignant", "benign"]),
                     "iris": (load_iris, ["virginica", "versicolor", "setosa"])}[name]
    d = loader(as_frame=True)
    labels = np.asarray(d.target_names)[d.target].astype(object)
    y = pd.Series(pd.Categorical(labels, categories=order), name="class")
    assert list(y.cat.categories) != sorted(order)
    return d.data, y, labels


ESTIMATORS = [C45Classifier(), C45RulesClassifier()]
SCORING = [("breast_cancer", "roc_auc"), ("breast_cancer", "neg_log_loss"),
           ("iris", "roc_auc_ovr"), ("iris", "neg_log_loss"),
           ("iris", "top_k_accuracy"), ("iris", "accuracy")]


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("name, scoring", SCORING)
def test_scorers_on_a_categorical_target_match_plain_labels(est, name, scoring):
    X, y, labels = _data(name)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    got = cross_val_score(est, X, y, scoring=scoring, cv=cv)
    want = cross_val_score(est, X, labels, scoring=scoring, cv=cv)
    np.testing.assert_array_equal(got, want)
    if scoring.startswith("roc_auc"):
        assert got.mean() > 0.9


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("name", ["golf", "iris"])
def test_classes_are_sorted_and_the_declared_order_is_kept(est, name):
    X, y, labels = _data(name)
    clf = est.fit(X, y)
    assert list(clf.classes_) == sorted(y.cat.categories)
    assert list(clf.declared_classes_) == list(y.cat.categories)
    proba = clf.predict_proba(X)
    plain = type(est)(**est.get_params()).fit(X, labels)
    np.testing.assert_array_equal(proba, plain.predict_proba(X))
    np.testing.assert_array_equal(clf.predict(X), plain.predict(X))
    # predict_proba's columns are label_binarize's: the true class's column.
    onehot = label_binarize(labels, classes=clf.classes_)
    if onehot.shape[1] == 1:
        onehot = np.hstack([1 - onehot, onehot])
    hits = (onehot * proba).sum(axis=1)
    assert hits.mean() > 0.5
    assert clf.score(X, y) == plain.score(X, labels)


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("name", ["golf", "iris"])
def test_calibration_on_a_categorical_target(est, name):
    X, y, labels = _data(name)
    got = CalibratedClassifierCV(est, cv=2).fit(X, y)
    want = CalibratedClassifierCV(est, cv=2).fit(X, labels)
    np.testing.assert_array_equal(got.classes_, want.classes_)
    np.testing.assert_allclose(got.predict_proba(X), want.predict_proba(X), rtol=0, atol=0)


@pytest.mark.parametrize("est, grid", [
    (C45Classifier(), {"confidence": [0.1, 0.25], "min_samples_leaf": [2, 5]}),
    (C45RulesClassifier(), {"min_samples_leaf": [1, 2, 5]})],
    ids=["C45Classifier", "C45RulesClassifier"])
def test_grid_search_by_log_loss_on_a_categorical_target(est, grid):
    X, y, labels = _data("iris")
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    got = GridSearchCV(est, grid, scoring="neg_log_loss", cv=cv).fit(X, y)
    want = GridSearchCV(est, grid, scoring="neg_log_loss", cv=cv).fit(X, labels)
    np.testing.assert_array_equal(got.cv_results_["mean_test_score"],
                                  want.cv_results_["mean_test_score"])
    assert got.best_params_ == want.best_params_
    assert got.best_score_ > -3


def test_ties_go_to_the_first_declared_class():
    """A leaf of one case of each class: C4.5 names the first class of its order,
    whatever the order of classes_."""
    X = [[0.0], [0.0]]
    y = pd.Series(pd.Categorical(["b", "a"], categories=["b", "a"]))
    clf = C45Classifier().fit(X, y)
    assert list(clf.classes_) == ["a", "b"]
    assert clf.predict([[0.0]]).tolist() == ["b"]
    assert clf.predict_proba([[0.0]]).tolist() == [[0.5, 0.5]]
    assert C45Classifier().fit(X, ["b", "a"]).predict([[0.0]]).tolist() == ["a"]
    d = to_dict(clf, weights=True)
    assert dict_predict(d, [[0.0]]).tolist() == ["b"]
    assert from_json(to_json(clf)).predict([[0.0]]).tolist() == ["b"]
    assert pickle.loads(pickle.dumps(clf)).predict([[0.0]]).tolist() == ["b"]


# -- printed output: C4.5's order, as before classes_ was sorted ----------------
GOLF_RULES = """\
Final rules from tree 0:

Rule 2:
    \toutlook = overcast
\t->  class Play  [70.7%]

Rule 4:
    \toutlook = rain
    \twindy = false
\t->  class Play  [63.0%]

Rule 1:
    \toutlook = sunny
    \thumidity > 75
\t->  class Don't Play  [63.0%]

Rule 3:
    \toutlook = rain
    \twindy = true
\t->  class Don't Play  [50.0%]

Default class: Play


Evaluation on training data (14 items):

Rule  Size  Error  Used  Wrong\t          Advantage
----  ----  -----  ----  -----\t          ---------
   2     1  29.3%     4      0 (0.0%)\t     0 (0|0) \tPlay
   4     2  37.0%     3      0 (0.0%)\t     0 (0|0) \tPlay
   1     2  37.0%     3      0 (0.0%)\t     3 (3|0) \tDon't Play
   3     2  50.0%     2      0 (0.0%)\t     2 (2|0) \tDon't Play

Tested 14, errors 0 (0.0%)   <<
"""

GOLF_TREE = """\
outlook = overcast: Play (4.0/1.2)
outlook = sunny:
|   humidity <= 75 : Play (2.0/1.0)
|   humidity > 75 : Don't Play (3.0/1.1)
outlook = rain:
|   windy = true: Don't Play (2.0/1.0)
|   windy = false: Play (3.0/1.1)
"""

IRIS_TREE = """\
petal width (cm) <= 0.6 : setosa (50.0/1.4)
petal width (cm) > 0.6 :
|   petal width (cm) > 1.7 : virginica (46.0/2.6)
|   petal width (cm) <= 1.7 :
|   |   petal length (cm) <= 4.9 : versicolor (48.0/2.6)
|   |   petal length (cm) > 4.9 :
|   |   |   petal width (cm) <= 1.5 : virginica (3.0/1.1)
|   |   |   petal width (cm) > 1.5 : versicolor (3.0/2.1)
"""


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_golf_prints_as_c45_does(precision):
    X, y = load_golf()
    clf = C45Classifier(precision=precision).fit(X, y)
    assert export_text(clf) == GOLF_TREE
    assert export_text(clf, class_names=["yes", "no"]) == GOLF_TREE.replace(
        "Don't Play", "no").replace("Play", "yes")
    rules = C45RulesClassifier(precision=precision, min_samples_leaf=1).fit(X, y)
    assert export_rules(rules, evaluation=True) == GOLF_RULES
    assert rules.default_class_ == "Play" and rules.class_order_ == ["Play", "Don't Play"]
    table = evaluation_text(rules, X, y)
    assert table.endswith(GOLF_RULES[GOLF_RULES.index("Rule  Size"):])


def test_iris_in_a_declared_order_prints_as_before():
    X, y, _ = _data("iris")
    assert export_text(C45Classifier().fit(X, y)) == IRIS_TREE
    rules = C45RulesClassifier().fit(X, y)
    text = export_rules(rules, evaluation=True)
    assert text.count("Default class: virginica\n") == 1
    assert rules.class_order_ == ["setosa", "versicolor", "virginica"]
    assert "   1     1   2.7%    50      0 (0.0%)\t    50 (50|0) \tsetosa" in text


def test_cli_prints_and_predicts_in_the_declared_order(tmp_path, capsys):
    """C4.5's confusion matrix and the predict table keep golf.names' class order
    (Play, then Don't Play)."""
    model = tmp_path / "golf.json"
    assert cli.main(["fit", "-f", str(REFERENCE / "golf"), "--save", str(model)]) == 0
    text = capsys.readouterr().out
    assert "(a): class Play" in text and "(b): class Don't Play" in text
    assert text.index("(a): class Play") < text.index("(b): class Don't Play")
    out = tmp_path / "pred.csv"
    assert cli.main(["predict", "--model", str(model), "-f", str(REFERENCE / "golf"),
                     "--proba", "-o", str(out), "-q"]) == 0
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table.columns) == ["predicted", "P(Play)", "P(Don't Play)", "actual"]
    X, y = load_golf()
    clf = C45Classifier().fit(X, y)
    proba = pd.DataFrame(clf.predict_proba(X), columns=clf.classes_)
    np.testing.assert_allclose(table[["P(Play)", "P(Don't Play)"]].astype(float),
                               proba[["Play", "Don't Play"]], rtol=1e-5)
    np.testing.assert_array_equal(table["predicted"], clf.predict(X))


# -- what a model keeps of the two orders --------------------------------------
def _same_model(a, b, X):
    assert a.classes_.tolist() == b.classes_.tolist()
    assert a.declared_classes_.tolist() == b.declared_classes_.tolist()
    assert a.classes_.dtype == b.classes_.dtype
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    np.testing.assert_array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize("name", ["golf", "iris"])
def test_round_trips_keep_both_orders(name):
    X, y, _ = _data(name)
    clf = C45Classifier().fit(X, y)
    _same_model(from_json(to_json(clf)), clf, X)
    _same_model(pickle.loads(pickle.dumps(clf)), clf, X)
    # The file keeps the trees' class order, as c45 always wrote it.
    assert json.loads(to_json(clf))["classes"]["values"] == list(y.cat.categories)
    rules = C45RulesClassifier().fit(X, y)
    again = pickle.loads(pickle.dumps(rules))
    assert again.declared_classes_.tolist() == list(y.cat.categories)
    np.testing.assert_array_equal(again.predict_proba(X), rules.predict_proba(X))
    assert export_rules(again, evaluation=True) == export_rules(rules, evaluation=True)
    d = to_dict(clf, weights=True)
    assert d["_classes"] == clf.classes_.tolist()
    assert d["_class_order"] == list(y.cat.categories)
    np.testing.assert_array_equal(dict_predict_proba(d, X), clf.predict_proba(X))
    np.testing.assert_array_equal(dict_predict(d, X), clf.predict(X))


def test_a_state_of_format_1_loads_with_its_classes_as_the_declared_order():
    """Format 1 had no declared_classes_: its classes_ was the trees' order."""
    X, y = load_golf()
    clf = C45Classifier().fit(X, y)
    state = clf.__getstate__()
    assert state["_pickle_format"] == 3
    fmt2 = C45Classifier.__new__(C45Classifier)
    fmt2.__setstate__(dict(state, _pickle_format=2))      # format 2's state is the same
    _same_model(fmt2, clf, X)
    state.update(_pickle_format=1, classes_=state.pop("declared_classes_"))
    old = C45Classifier.__new__(C45Classifier)
    old.__setstate__(state)
    _same_model(old, clf, X)


def test_models_saved_before_classes_were_sorted_load():
    """Golf models written by c45 0.1.0 when classes_ was the declared order: the
    old classes_ becomes declared_classes_, classes_ its sorted order."""
    X, y = load_golf()
    fresh = C45Classifier().fit(X, y)
    _same_model(from_json((FORMAT1 / "golf-model.json").read_text()), fresh, X)
    with open(FORMAT1 / "golf-tree.pkl", "rb") as fh:
        old = pickle.load(fh)
    _same_model(old, fresh, X)
    assert export_text(old) == GOLF_TREE
    with open(FORMAT1 / "golf-rules.pkl", "rb") as fh:
        old_rules = pickle.load(fh)
    rules = C45RulesClassifier(min_samples_leaf=1).fit(X, y)
    _same_model(old_rules, rules, X)
    assert export_rules(old_rules, evaluation=True) == GOLF_RULES


def test_a_pickle_whose_classes_are_not_its_declared_ones_sorted_is_refused():
    X, y = load_golf()
    state = C45Classifier().fit(X, y).__getstate__()
    state["classes_"] = state["declared_classes_"].copy()
    with pytest.raises(ValueError, match="classes_ .* are not its declared_classes_ sorted"):
        C45Classifier().__setstate__(state)
    state = C45Classifier().fit(X, y).__getstate__()
    del state["declared_classes_"]
    with pytest.raises(ValueError, match=r"\(format 3\) has no declared_classes_"):
        C45Classifier().__setstate__(state)
    state = C45Classifier().fit(X, y).__getstate__()
    state["_pickle_format"] = 4
    with pytest.raises(ValueError, match="format 4; c45 .* reads formats 1, 2, 3 only"):
        C45Classifier().__setstate__(state)


def test_unorderable_categories_of_y_are_refused():
    y = pd.Series(pd.Categorical([1 + 1j, 2 + 0j], categories=[2 + 0j, 1 + 1j]))
    with pytest.raises(ValueError, match="categories of y cannot be ordered"):
        C45Classifier().fit([[0.0], [1.0]], y)


def test_reduced_error_pruning_and_prune_read_the_declared_order():
    X, y, labels = _data("iris")
    kw = dict(pruning="reduced_error", random_state=0)
    a = C45Classifier(**kw).fit(X, y)
    b = C45Classifier(**kw).fit(X, labels)
    assert export_text(a) == export_text(b)
    c = C45Classifier(pruning=None).fit(X, y)
    c.prune(X, y, pruning="pessimistic")
    assert export_text(c) == IRIS_TREE


# -- the older tag protocol ------------------------------------------------------
@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_the_older_tag_protocol_says_what_the_newer_one_says(est):
    """scikit-learn before 1.6 reads _more_tags only (its estimator checks then
    expect NaN and strings to be refused)."""
    tags = est.__sklearn_tags__().input_tags
    old = est._more_tags()
    assert old["allow_nan"] is tags.allow_nan is True
    assert "2darray" in old["X_types"]
    assert ("categorical" in old["X_types"]) is tags.categorical is True
    assert ("string" in old["X_types"]) is tags.string is True


# -- Dask ----------------------------------------------------------------------
def test_dask_scores_in_the_order_of_classes_():
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    import c45.dask
    X, y = load_golf()
    clf = C45Classifier().fit(X, y)
    with dask.config.set(scheduler="synchronous"):
        proba = c45.dask.predict_proba(clf, dd.from_pandas(X, npartitions=2)).compute()
        labels = c45.dask.predict(clf, dd.from_pandas(X, npartitions=2)).compute()
    assert list(proba.columns) == ["Don't Play", "Play"]
    np.testing.assert_array_equal(proba.to_numpy(), clf.predict_proba(X))
    np.testing.assert_array_equal(labels.to_numpy(), clf.predict(X))


def test_dask_refuses_an_ensemble_whose_classes_are_not_sorted():
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    ensemble = pytest.importorskip("dask_ml.ensemble")
    import c45.dask
    X, y = load_golf()
    X, y = pd.concat([X] * 4, ignore_index=True), pd.concat([y] * 4, ignore_index=True)
    with dask.config.set(scheduler="synchronous"):
        for classes in (["Play", "Don't Play"], ["Don't Play", "Play"]):
            voter = ensemble.BlockwiseVotingClassifier(C45Classifier(), voting="soft",
                                                       classes=classes)
            voter.fit(dd.from_pandas(X, npartitions=2, sort=False),
                      dd.from_pandas(y, npartitions=2, sort=False))
            if classes == sorted(classes):
                proba = c45.dask.predict_proba(voter, dd.from_pandas(X, npartitions=2))
                np.testing.assert_array_equal(proba.compute().to_numpy(),
                                              voter.estimators_[0].predict_proba(X))
            else:
                with pytest.raises(ValueError, match=r"give it classes=\[\"Don't Play\", "):
                    c45.dask.predict_proba(voter, dd.from_pandas(X, npartitions=2))


# -- classes_ as scikit-learn's own tree has them ---------------------------------
# A Categorical's declared categories are C4.5's classes (the trees' class set and
# order: Release 8 counts a declared class without cases); classes_ holds the
# classes y holds, as scikit-learn's DecisionTreeClassifier reads the same y.
_LABELS = ["b", "a", "c"] * 6


def _y_kinds():
    ints = [3, 1, 2] * 6
    bools = [True, False, True] * 6
    return {
        "bool array": np.array(bools),
        "bool list": bools,
        "int list": ints,
        "uint8 array": np.array(ints, dtype=np.uint8),
        "mixed int and float list": [3, 1.0, 2] * 6,
        "whole floats": np.array(ints, dtype=float),
        "str array": np.array(_LABELS),
        "object str array": np.array(_LABELS, dtype=object),
        "bytes array": np.array([s.encode() for s in _LABELS]),
        "str list": list(_LABELS),
        "Int64 array": pd.array(ints, dtype="Int64"),
        "Int64 Series": pd.Series(ints, dtype="Int64"),
        "UInt8 Series": pd.Series(ints, dtype="UInt8"),
        "Float64 Series": pd.Series(ints, dtype="Float64"),
        "boolean array": pd.array(bools, dtype="boolean"),
        "boolean Series": pd.Series(bools, dtype="boolean"),
        "string array": pd.array(_LABELS, dtype="string"),
        "string Series": pd.Series(_LABELS, dtype="string"),
        "default Series of str": pd.Series(_LABELS),     # pandas 3: its str dtype
        "bool Series": pd.Series(bools),
        "Categorical, unused categories": pd.Categorical(
            _LABELS, categories=["zz", "c", "a", "b", "0"]),
        "Categorical Series, unused categories": pd.Series(pd.Categorical(
            _LABELS, categories=["c", "zz", "b", "a"])),
        "ordered Categorical, unused": pd.Categorical(
            _LABELS, categories=["c", "b", "q", "a"], ordered=True),
        "Categorical of ints, unused": pd.Categorical(ints, categories=[5, 3, 1, 2]),
        "Categorical of bools": pd.Categorical(bools, categories=[True, False]),
        "Categorical of bools, one used": pd.Categorical([True] * 18,
                                                         categories=[True, False]),
        "DataFrame column, Categorical": pd.DataFrame({"y": pd.Categorical(
            _LABELS, categories=["c", "zz", "b", "a"])}),
    }


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("kind", list(_y_kinds()))
def test_classes_are_those_of_scikit_learns_tree(est, kind):
    from sklearn.tree import DecisionTreeClassifier
    y = _y_kinds()[kind]
    X = np.arange(18.0).reshape(-1, 1) % 7
    want = DecisionTreeClassifier().fit(X, y).classes_
    clf = type(est)(min_samples_leaf=1).fit(X, y)
    assert clf.classes_.dtype == want.dtype
    assert clf.classes_.tolist() == want.tolist()
    assert clf.n_classes_ == len(want)
    proba = clf.predict_proba(X)
    assert proba.shape == (18, len(want))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    pred = clf.predict(X)
    assert pred.dtype == want.dtype and set(pred.tolist()) <= set(want.tolist())
    # predict is the class of predict_proba's column of largest probability
    np.testing.assert_array_equal(proba[np.arange(18), np.searchsorted(want, pred)],
                                  proba.max(axis=1))
    if isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        cats = y.cat.categories if isinstance(y, pd.Series) else y.categories
        assert clf.declared_classes_.tolist() == list(cats)         # C4.5's order
    for again in (pickle.loads(pickle.dumps(clf)),) + (
            (from_json(to_json(clf)),) if isinstance(clf, C45Classifier) else ()):
        _same_model(again, clf, X)


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("y", [
    np.array([1, 2.0, 3] * 6, dtype=object), np.array([3, 1, 2] * 6, dtype=object),
    np.array([0.5, 1.5] * 9, dtype=object), np.array([True, False] * 9, dtype=object),
    np.array([np.int64(1), np.int64(2)] * 9, dtype=object),
    np.array([b"a", b"b"] * 9, dtype=object), pd.Series([3, 1, 2] * 6, dtype=object),
    np.array([[1], [2]] * 9, dtype=object),
], ids=["int and float", "ints", "floats", "bools", "numpy ints", "bytes", "Series",
        "column"])
def test_an_object_target_of_non_strings_is_refused_as_by_scikit_learns_tree(est, y):
    """scikit-learn refuses an object array of labels that are not strings (type
    "unknown"); c45 gave object classes_ (which its metrics do not take for numbers)."""
    from sklearn.tree import DecisionTreeClassifier
    X = np.arange(18.0)[:, None]
    with pytest.raises(ValueError, match="Unknown label type"):
        DecisionTreeClassifier().fit(X, y)
    with pytest.raises(ValueError, match=r"Unknown label type: y is an array of dtype "
                                         r"object holding (number|bool|bytes) labels "
                                         r".* refuse"):
        type(est)().fit(X, y)


def test_a_declared_class_without_cases_is_not_a_class_of_classes_(tmp_path, capsys):
    """hypo.names declares hyperthyroid, which no case of hypo.data has: the trees
    and Release 8's output count it (test_reference_r8 compares them), classes_
    and predict_proba leave it out, as scikit-learn's tree does."""
    from sklearn.tree import DecisionTreeClassifier
    from c45.io import read_c45
    X, y = read_c45(REFERENCE / "hypo")
    assert "hyperthyroid" in y.cat.categories and "hyperthyroid" not in set(y)
    clf = C45Classifier().fit(X, y)
    assert clf.declared_classes_.tolist() == list(y.cat.categories)
    assert clf.tree_.n_classes == 5 and clf.n_classes_ == 4
    sk = DecisionTreeClassifier().fit(np.zeros((len(y), 1)), y)   # its classes: y's
    assert clf.classes_.dtype == sk.classes_.dtype
    assert clf.classes_.tolist() == sk.classes_.tolist() == sorted(set(y))
    proba = clf.predict_proba(X)
    assert proba.shape == (len(X), 4)
    declared = clf._proba_declared(X)
    assert not declared[:, 0].any()          # hyperthyroid: no weight, no column
    columns = [list(clf.declared_classes_).index(c) for c in clf.classes_]
    np.testing.assert_array_equal(proba, declared[:, columns])
    np.testing.assert_array_equal(
        clf.predict(X), clf.declared_classes_.take(np.argmax(declared, axis=1)))
    # The CLI prints C4.5's confusion matrix with the declared class's row, and
    # predicts with a column per declared class, in C4.5's order.
    model = tmp_path / "hypo.json"
    assert cli.main(["fit", "-f", str(REFERENCE / "hypo"), "--save", str(model)]) == 0
    assert "(a): class hyperthyroid" in capsys.readouterr().out
    out = tmp_path / "pred.csv"
    assert cli.main(["predict", "--model", str(model), "-f", str(REFERENCE / "hypo"),
                     "--proba", "-o", str(out), "-q"]) == 0
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table.columns) == (["predicted"] + [f"P({c})" for c in y.cat.categories]
                                   + ["actual"])
    assert (table["P(hyperthyroid)"].astype(float) == 0).all()
    np.testing.assert_array_equal(table["predicted"], clf.predict(X))


def _unused(name):
    """(X, y as a Categorical with unused categories, in a declared order that is
    not the sorted one, the same labels as plain strings)."""
    loader, order = {"iris": (load_iris, ["virginica", "zz", "versicolor", "setosa", "aa"]),
                     "wine": (load_wine, ["class_2", "zz", "class_0", "class_1"]),
                     "breast_cancer": (load_breast_cancer,
                                       ["zz", "malignant", "benign", "aa"])}[name]
    d = loader(as_frame=True)
    labels = np.asarray(d.target_names)[d.target].astype(object)
    y = pd.Series(pd.Categorical(labels, categories=order), name="class")
    return d.data, y, labels


UNUSED_SCORING = [("iris", "roc_auc_ovr"), ("iris", "neg_log_loss"),
                  ("iris", "top_k_accuracy"), ("wine", "roc_auc_ovr"),
                  ("wine", "neg_log_loss"), ("wine", "top_k_accuracy")]


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("name, scoring", UNUSED_SCORING)
def test_scorers_on_a_target_with_unused_categories_match_plain_labels(est, name, scoring):
    X, y, labels = _unused(name)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    got = cross_val_score(est, X, y, scoring=scoring, cv=cv, error_score="raise")
    want = cross_val_score(est, X, labels, scoring=scoring, cv=cv)
    np.testing.assert_array_equal(got, want)
    if scoring.startswith("roc_auc"):
        assert got.mean() > 0.9


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("scoring", ["roc_auc", "neg_log_loss", "accuracy"])
def test_binary_scorers_with_an_unused_category(est, scoring):
    """Two classes used, two declared without cases: Release 8 counts declared
    classes (MinSplit is 10% of the cases per class), so the trees may differ from
    those of the plain labels; the scorers read them as they read the same
    models scored with the plain labels."""
    X, y, labels = _unused("breast_cancer")
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    got = cross_val_score(est, X, y, scoring=scoring, cv=cv, error_score="raise")
    scorer = get_scorer(scoring)
    want = []
    for train, test in cv.split(X, labels):
        model = clone(est).fit(X.iloc[train], y.iloc[train])
        assert model.classes_.tolist() == ["benign", "malignant"]
        want.append(scorer(model, X.iloc[test], labels[test]))
    np.testing.assert_array_equal(got, want)
    if scoring == "roc_auc":
        assert got.mean() > 0.9


@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_calibration_on_a_target_with_unused_categories(est):
    X, y, labels = _unused("iris")
    got = CalibratedClassifierCV(est, cv=2).fit(X, y)
    want = CalibratedClassifierCV(est, cv=2).fit(X, labels)
    np.testing.assert_array_equal(got.classes_, want.classes_)
    np.testing.assert_array_equal(got.predict_proba(X), want.predict_proba(X))


@pytest.mark.parametrize("est, grid", [
    (C45Classifier(), {"confidence": [0.1, 0.25], "min_samples_leaf": [2, 5]}),
    (C45RulesClassifier(), {"min_samples_leaf": [1, 2, 5]})],
    ids=["C45Classifier", "C45RulesClassifier"])
def test_grid_search_by_log_loss_on_a_target_with_unused_categories(est, grid):
    """Each split's score is that of the same model scored with the plain labels
    (the trees are Release 8's for the declared classes: see above)."""
    X, y, labels = _unused("iris")
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    got = GridSearchCV(est, grid, scoring="neg_log_loss", cv=cv).fit(X, y)
    scorer = get_scorer("neg_log_loss")
    for i, params in enumerate(got.cv_results_["params"]):
        for k, (train, test) in enumerate(cv.split(X, labels)):
            model = clone(est).set_params(**params).fit(X.iloc[train], y.iloc[train])
            assert got.cv_results_[f"split{k}_test_score"][i] == scorer(
                model, X.iloc[test], labels[test])
    assert got.best_score_ > -3


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_laplace_with_unused_categories_shares_among_the_classes_of_y(precision):
    """Laplace's (n_c + 1) / (N + k) counts the trees' k classes; without a
    column for a class y held no case of, each row is normalised over the
    others: at a leaf, (n_c + 1) / (N + k') over the k' classes of y."""
    X, y, labels = _unused("iris")
    clf = C45Classifier(laplace=True, precision=precision).fit(X, y)
    proba = clf.predict_proba(X)
    value = clf.tree_.value[clf.apply(X)][:, [list(clf.declared_classes_).index(c)
                                              for c in clf.classes_]]
    want = (value + 1) / (value.sum(axis=1, keepdims=True) + 3)
    np.testing.assert_allclose(proba, want, rtol=1e-6)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    d = to_dict(clf, weights=True)
    assert d["_class_order"] == list(y.cat.categories) and d["_classes"] == sorted(set(labels))
    np.testing.assert_array_equal(dict_predict_proba(d, X), proba)
    np.testing.assert_array_equal(dict_predict(d, X), clf.predict(X))
    _same_model(from_json(to_json(clf)), clf, X)


def test_round_trips_with_unused_categories():
    X, y, labels = _unused("iris")
    clf = C45Classifier().fit(X, y)
    assert clf.classes_.tolist() == ["setosa", "versicolor", "virginica"]
    _same_model(pickle.loads(pickle.dumps(clf)), clf, X)
    _same_model(from_json(to_json(clf)), clf, X)
    doc = json.loads(to_json(clf))
    assert doc["format_version"] == 3
    assert doc["classes"]["values"] == list(y.cat.categories)
    assert doc["classes"]["present"] == {"dtype": "|O", "values": clf.classes_.tolist()}
    d = to_dict(clf, weights=True)
    np.testing.assert_array_equal(dict_predict_proba(d, X), clf.predict_proba(X))
    np.testing.assert_array_equal(dict_predict(d, X), clf.predict(X))
    rules = C45RulesClassifier().fit(X, y)
    again = pickle.loads(pickle.dumps(rules))
    _same_model(again, rules, X)
    assert export_rules(again, evaluation=True) == export_rules(rules, evaluation=True)


def _edited(clf, edit):
    doc = json.loads(to_json(clf))
    edit(doc)
    return sealed(doc)


def test_a_model_file_whose_classes_contradict_its_trees_is_refused():
    X, y, _ = _unused("iris")
    clf = C45Classifier().fit(X, y)

    def drop_a_class(doc):                  # virginica has training weight
        doc["classes"]["present"]["values"].remove("virginica")

    def add_an_unused_class(doc):           # fine: a class of y with no weight
        doc["classes"]["present"]["values"].insert(0, "aa")

    def unsorted(doc):
        doc["classes"]["present"]["values"].reverse()

    def undeclared(doc):
        doc["classes"]["present"]["values"].append("zzz")

    def missing(doc):
        del doc["classes"]["present"]

    with pytest.raises(ValueError, match=r"classes\.present .* trees\.final gives "
                                         r"training weight to the class 'virginica'"):
        from_json(_edited(clf, drop_a_class))
    loaded = from_json(_edited(clf, add_an_unused_class))
    assert loaded.classes_.tolist() == ["aa", "setosa", "versicolor", "virginica"]
    assert not loaded.predict_proba(X)[:, 0].any()
    with pytest.raises(ValueError, match=r"classes\.present .* not sorted"):
        from_json(_edited(clf, unsorted))
    with pytest.raises(ValueError, match=r"classes\.present .* 'zzz', which is not one "
                                         r"of the declared_classes_"):
        from_json(_edited(clf, undeclared))
    with pytest.raises(ValueError, match=r"classes\.present is missing"):
        from_json(_edited(clf, missing))

    def version_2(doc):                     # format 2's classes_: all, sorted
        doc["format_version"] = 2
        del doc["classes"]["present"]
    old = from_json(_edited(clf, version_2))
    assert old.classes_.tolist() == sorted(y.cat.categories)
    assert old.declared_classes_.tolist() == list(y.cat.categories)
    np.testing.assert_array_equal(old.predict(X), clf.predict(X))
    proba = old.predict_proba(X)
    np.testing.assert_array_equal(proba[:, [1, 2, 3]], clf.predict_proba(X))
    assert not proba[:, [0, 4]].any()


def test_a_pickle_whose_classes_contradict_its_trees_is_refused():
    X, y, _ = _unused("iris")
    state = C45Classifier().fit(X, y).__getstate__()
    state["classes_"] = state["classes_"][:2]
    with pytest.raises(ValueError, match="tree_ gives training weight to the class "
                                         "'virginica', which is not in classes_"):
        C45Classifier().__setstate__(state)
    rules = C45RulesClassifier().fit(X, y).__getstate__()
    rules["classes_"] = rules["classes_"][:2]
    with pytest.raises(ValueError, match="grown_tree_ gives training weight"):
        C45RulesClassifier().__setstate__(rules)


def test_class_weight_balanced_counts_the_classes_y_holds():
    """scikit-learn's n / (k * n_c) over the k classes y holds, not the declared ones."""
    from sklearn.utils.class_weight import compute_sample_weight
    X, y, labels = _unused("wine")
    a = C45Classifier(class_weight="balanced").fit(X, y)
    b = C45Classifier().fit(X, y, sample_weight=compute_sample_weight("balanced", labels))
    np.testing.assert_array_equal(a.tree_.value, b.tree_.value)
    assert export_text(a) == export_text(b)


def test_reduced_error_pruning_with_unused_categories():
    X, y, labels = _unused("iris")
    kw = dict(pruning="reduced_error", random_state=0)
    a = C45Classifier(**kw).fit(X, y)
    assert a.classes_.tolist() == sorted(set(labels))
    np.testing.assert_allclose(a.predict_proba(X).sum(axis=1), 1.0)
    b = C45Classifier(**kw).fit(X.iloc[::2], y.iloc[::2], X_val=X.iloc[1::2],
                                y_val=labels[1::2])
    c = C45Classifier(**kw).fit(X.iloc[::2], y.iloc[::2], X_val=X.iloc[1::2],
                                y_val=y.iloc[1::2])
    assert export_text(b) == export_text(c)


def test_an_arff_class_declared_without_cases(tmp_path):
    from sklearn.tree import DecisionTreeClassifier
    from c45.io import read_arff
    path = tmp_path / "t.arff"
    rows = "\n".join(f"{i % 7},{'no' if i % 3 else 'yes'}" for i in range(30))
    path.write_text("@relation t\n@attribute x numeric\n"
                    "@attribute class {yes,maybe,no}\n@data\n" + rows + "\n")
    X, y = read_arff(path)
    assert list(y.cat.categories) == ["yes", "maybe", "no"]
    clf = C45Classifier(min_samples_leaf=1).fit(X, y)
    sk = DecisionTreeClassifier().fit(X, y)
    assert clf.classes_.tolist() == sk.classes_.tolist() == ["no", "yes"]
    assert clf.declared_classes_.tolist() == ["yes", "maybe", "no"]
    assert clf.predict_proba(X).shape == sk.predict_proba(X).shape == (30, 2)
    assert set(clf.predict(X)) <= {"no", "yes"}


def test_predict_never_names_a_class_without_cases():
    """Where the largest class sum is that of a class y held no case of (every
    held class's sum 0: only float32 underflow of tiny weights gets there in a
    fit; here an empty leaf labelled with it), predict names the first class of
    y of largest sum in C4.5's order."""
    from c45._tree import Tree
    X, y, _ = _unused("iris")                # declared: virginica, zz, versicolor, ...
    y = y.cat.reorder_categories(["zz", "versicolor", "virginica", "setosa", "aa"])
    clf = C45Classifier().fit(X, y)
    assert clf.predict(X[:3]).tolist() == ["setosa"] * 3
    clf.tree_ = Tree(kind=[0], feature=[-1], first_child=[-1], n_children=[0],
                     node_class=[0], threshold=[np.nan], weight=[0.0], errors=[0.0],
                     value=np.zeros((1, 5)), n_values=clf._schema.n_values)
    assert clf._sums(X[:3]).tolist() == [[1.0, 0, 0, 0, 0]] * 3     # "zz" alone
    assert clf.predict(X[:3]).tolist() == ["versicolor"] * 3
    assert clf.predict_proba(X[:3]).tolist() == [[0.0, 0.0, 0.0]] * 3


@pytest.mark.parametrize("params", [{}, {"laplace": True}, {"precision": "float32"},
                                    {"laplace": True, "min_samples_leaf": 1}])
@pytest.mark.parametrize("categories",
                         [["zz", "b", "aa", "a"], ["b", "a"], ["c", "a", "b"]],
                         ids=["unused", "reordered", "one unused last"])
def test_predict_maps_the_declared_classes_in_the_core(params, categories):
    """predict and predict_proba of a model whose classes_ are not its declared
    classes in order take classes_ from the compiled core (the map is the model's,
    made once): the first class y held of largest sum in C4.5's order, and the
    held classes' sums divided by their total, as from the declared columns."""
    import c45._tree as core
    from c45._classifier import class_map
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    X[rng.random(60) < 0.2, 1] = np.nan           # the general walk, shared rows
    labels = np.where(X[:, 0] > 0, "a", "b")
    y = pd.Categorical(labels, categories=categories)
    clf = C45Classifier(**params).fit(X, y)
    rows = np.vstack([X, rng.normal(size=(40, 2)) * 3, [[np.nan, np.nan]]])
    found = class_map(clf.__dict__)
    assert not found.in_order
    declared = clf._sums(rows)                    # the declared columns, raw sums
    held = np.sort(found.columns)
    first = held.take(np.argmax(declared[:, held], axis=1))
    np.testing.assert_array_equal(clf.predict(rows), clf.classes_[found.position[first]])
    taken = declared[:, found.columns]
    total = taken.sum(axis=1, keepdims=True)
    want = (taken / np.where(total > 0, total, 1.0) if not found.complete
            else clf._proba_declared(rows)[:, found.columns])
    assert clf.predict_proba(rows).tobytes() == want.tobytes()
    index = clf._sums(rows, classes_only=True, found=found)
    np.testing.assert_array_equal(clf.classes_.take(index), clf.predict(rows))
    # Leaves whose first class of largest sum has no case are rare (ties): leave a
    # held class out of the map instead, to take that road on every row it wins.
    from c45._encode import encode_predict
    cont, codes = encode_predict(clf._schema, rows, clf.precision == "float32")
    for gone in found.columns:
        part = found.position.copy()
        part[gone] = -1
        kept = np.flatnonzero(part >= 0)
        got = core.predict_sums(clf.tree_, np.ascontiguousarray(cont),
                                np.ascontiguousarray(codes), clf._schema.col,
                                clf._schema.n_values, clf.precision == "float32",
                                clf.laplace, 1, False, True, held=part)
        want = part[kept.take(np.argmax(declared[:, kept], axis=1))]
        np.testing.assert_array_equal(got, want)
        assert (np.argmax(declared, axis=1) == gone).any()
    with pytest.raises(ValueError, match="class index array"):
        core.predict_sums(clf.tree_, np.zeros((2, 1)), np.zeros((0, 1), np.int32),
                          clf._schema.col, clf._schema.n_values, False,
                          held=found.position[:-1], classes_only=True)


def test_classes_are_ordered_as_numpys_stable_argsort():
    """sorted_classes orders a few numbers or strings with a Python sort (a numpy
    sort gives the GIL up): the order is np.argsort's, kind="stable", ties and
    signed zeros included; NaN and other kinds go to numpy."""
    from c45._encode import _stable_order
    rng = np.random.default_rng(0)
    cases = [rng.integers(-3, 4, 40), rng.integers(0, 3, 40).astype(np.uint8),
             rng.integers(0, 2, 40).astype(bool), np.array([0.0, -0.0, 1.5, -0.0, 0.0]),
             rng.choice([0.5, -2.0, 1e300, -np.inf, np.inf], 30),
             np.array([1.0, np.nan, -1.0, np.nan]).astype(np.float32),
             rng.choice(["b", "a", "ab", "", "B", "é", "a\x00"], 30),
             rng.choice([b"b", b"a", b"ab", b""], 20), np.array([], dtype=np.int64),
             np.array(["x", 1, 2.5], dtype=object)[1:],
             np.array(["2026-01-02", "2025-01-01"], dtype="datetime64[D]")]
    for values in cases:
        assert np.array_equal(_stable_order(values), np.argsort(values, kind="stable")), values
