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
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.preprocessing import label_binarize

from c45 import (C45Classifier, C45RulesClassifier, cli, dict_predict, dict_predict_proba,
                 export_rules, export_text, from_json, to_dict, to_json)
from c45.datasets import load_golf
from c45.rules import evaluation_text

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
    assert state["_pickle_format"] == 2
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
    with pytest.raises(ValueError, match=r"\(format 2\) has no declared_classes_"):
        C45Classifier().__setstate__(state)
    state = C45Classifier().fit(X, y).__getstate__()
    state["_pickle_format"] = 3
    with pytest.raises(ValueError, match="format 3; c45 .* reads formats 1, 2 only"):
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
