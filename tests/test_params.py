"""The parameters of C45Classifier and C45RulesClassifier, declared once in
c45/_params.py: the signatures they give, their checks, and their documentation."""
import inspect

import pytest
from sklearn.base import clone

from c45 import C45Classifier, C45RulesClassifier, _params

# The signatures as the estimators had them before c45/_params.py wrote them (the
# windowing parameters and pruning_trace added after).
SIGNATURES = {
    C45Classifier: (
        "(min_samples_leaf=2, confidence=0.25, pruning='pessimistic', "
        "subtree_raising=True, ccp_alpha=0.0, validation_fraction=0.3333333333333333, "
        "criterion='gain_ratio', subset_splits=False, threshold='data', "
        "mdl_correction=True, categorical_features='auto', precision='float64', "
        "max_depth=None, min_samples_split=0, max_purity=1.0, min_gain=None, "
        "max_features=None, random_state=None, laplace=False, soft_thresholds=False, "
        "normalize_sample_weight=False, n_jobs=None, keep_training_data=False, "
        "class_weight=None, trials=None, initial_window=None, window_increment=None)"),
    C45RulesClassifier: (
        "(min_samples_leaf=2, confidence=0.25, redundancy=1.0, fisher=False, "
        "annealing=False, criterion='gain_ratio', subset_splits=False, threshold='data', "
        "mdl_correction=True, categorical_features='auto', precision='float64', "
        "max_depth=None, min_samples_split=0, max_purity=1.0, min_gain=None, "
        "max_features=None, random_state=None, pruning_trace='auto')"),
}


@pytest.mark.parametrize("cls", list(SIGNATURES), ids=lambda c: c.__name__)
def test_signature_names_defaults_and_order(cls):
    assert str(inspect.signature(cls)) == SIGNATURES[cls]
    assert cls.__init__.__qualname__ == f"{cls.__name__}.__init__"


@pytest.mark.parametrize("cls", list(SIGNATURES), ids=lambda c: c.__name__)
def test_init_stores_positional_and_keyword_arguments_as_given(cls):
    names = list(inspect.signature(cls).parameters)
    values = [object() for _ in names]
    est = cls(*values[:3], **dict(zip(names[3:], values[3:])))
    assert all(getattr(est, n) is v for n, v in zip(names, values))
    assert clone(cls(min_samples_leaf=5)).get_params()["min_samples_leaf"] == 5
    with pytest.raises(TypeError):
        cls(no_such_parameter=1)


def test_the_shared_parameters_are_the_tree_growing_ones():
    shared = set(C45Classifier._parameters) & set(C45RulesClassifier._parameters)
    assert shared == set(_params.GROW) | {"confidence"}
    assert set(_params.PRUNE) <= set(C45Classifier._parameters)


@pytest.mark.parametrize("cls", list(SIGNATURES), ids=lambda c: c.__name__)
def test_every_parameter_is_documented(cls):
    doc = cls.__doc__
    section = doc[doc.index("Parameters\n"):doc.index("Attributes\n")]
    missing = [n for n in cls._parameters if n not in section]
    assert not missing


@pytest.mark.parametrize("cls", list(SIGNATURES), ids=lambda c: c.__name__)
@pytest.mark.parametrize("name, value, message", [
    ("precision", "float16", "precision must be one of"),
    ("confidence", 0, r"confidence must be in \(0, 1\]"),
    ("min_samples_leaf", 0, r"min_samples_leaf must be a positive number \(case weight\)"),
    ("criterion", "gini", "criterion must be one of"),
    ("max_depth", -1, "max_depth must be None or an integer"),
    ("max_purity", 0, r"max_purity must be in \(0, 1\]"),
    ("random_state", "x", "random_state must be None"),
    ("subset_splits", 1, "subset_splits must be True or False"),
])
def test_a_shared_parameter_is_refused_alike_by_both(cls, name, value, message):
    X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
    with pytest.raises(ValueError, match=message):
        cls(**{name: value}).fit(X, y)


def test_a_class_cannot_have_both_parameters_and_its_own_init():
    with pytest.raises(TypeError, match="takes its __init__ from parameters="):
        class Both(_params.Parameters, parameters=("precision",)):
            def __init__(self):
                pass
    with pytest.raises(TypeError, match="no parameters"):
        class Unknown(_params.Parameters, parameters=("bogus",)):
            pass


# -- parameters that have no effect under the others ------------------------------
import warnings                                                    # noqa: E402

import numpy as np                                                 # noqa: E402
import pandas as pd                                                # noqa: E402
from sklearn.utils.class_weight import compute_sample_weight      # noqa: E402

from c45 import InactiveParameterWarning                          # noqa: E402
from c45.datasets import load_golf                                 # noqa: E402

TREE_FIELDS = ("kind", "feature", "threshold", "n_children", "first_child",
               "node_class", "weight", "errors", "value")


def same_tree(a, b):
    return all(np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True)
               for f in TREE_FIELDS)


def quiet_fit(est, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error", InactiveParameterWarning)
        return est.fit(*args, **kw)


@pytest.mark.parametrize("params, named, because", [
    (dict(ccp_alpha=5), "ccp_alpha=5", "pruning='cost_complexity'"),
    (dict(ccp_alpha=1, pruning=None), "ccp_alpha=1", "pruning='cost_complexity'"),
    (dict(confidence=0.1, pruning="cost_complexity"), "confidence=0.1",
     "pruning='pessimistic'"),
    (dict(confidence=0.1, pruning=None), "confidence=0.1", "pruning='pessimistic'"),
    (dict(subtree_raising=False, pruning=None), "subtree_raising=False",
     "pruning='pessimistic'"),
    (dict(subtree_raising=False, pruning="reduced_error", random_state=0),
     "subtree_raising=False",
     "pruning='pessimistic'"),
    (dict(validation_fraction=0.5, random_state=0), "validation_fraction=0.5",
     "pruning='reduced_error'"),
    (dict(normalize_sample_weight=True), "normalize_sample_weight=True",
     "sample_weight"),
    (dict(min_samples_split=3), "min_samples_split=3", "2 \\* min_samples_leaf"),
    (dict(min_samples_split=0.1, min_samples_leaf=0.1), "min_samples_split=0.1",
     "2 \\* min_samples_leaf"),
])
def test_a_parameter_without_effect_warns_naming_what_makes_it_act(params, named,
                                                                  because):
    X, y = load_golf()
    with pytest.warns(InactiveParameterWarning, match=f"{named} has no effect.*{because}"):
        clf = C45Classifier(**params).fit(X, y)
    assert issubclass(InactiveParameterWarning, UserWarning)
    # The parameter indeed has no effect: the tree is the default one's.
    default = C45Classifier(**{k: v for k, v in params.items() if k not in named}).fit(X, y)
    assert same_tree(clf.tree_, default.tree_)


def test_validation_fraction_without_effect_when_X_val_is_given():
    X, y = load_golf()
    clf = C45Classifier(pruning="reduced_error", validation_fraction=0.5)
    with pytest.warns(InactiveParameterWarning, match="validation_fraction=0.5.*X_val"):
        clf.fit(X, y, X_val=X, y_val=y)
    quiet_fit(C45Classifier(pruning="reduced_error", validation_fraction=0.5,
                            random_state=0), X, y)


@pytest.mark.parametrize("params", [
    {}, dict(ccp_alpha=0.0), dict(ccp_alpha=0), dict(ccp_alpha=2, pruning="cost_complexity"),
    dict(confidence=0.1), dict(subtree_raising=False), dict(confidence=0.25, pruning=None),
    dict(subtree_raising=np.True_, pruning=None),
    dict(validation_fraction=0.5, pruning="reduced_error"),
    dict(min_samples_split=5), dict(min_samples_split=0.5, min_samples_leaf=0.1),
    dict(random_state=3),      # bagging and check_estimator set it on every estimator
    dict(max_features=2, random_state=3),
])
def test_no_warning_for_defaults_and_parameters_that_act(params):
    X, y = load_golf()
    quiet_fit(C45Classifier(**params), X, y)


def test_normalize_sample_weight_acts_with_weights_or_class_weight():
    X, y = load_golf()
    quiet_fit(C45Classifier(normalize_sample_weight=True), X, y,
              sample_weight=np.full(len(y), 0.5))
    quiet_fit(C45Classifier(normalize_sample_weight=True, class_weight="balanced"), X, y)


def test_prune_warns_about_the_parameters_it_is_given():
    X, y = load_golf()
    clf = C45Classifier(pruning=None).fit(X, y)
    with pytest.warns(InactiveParameterWarning, match="ccp_alpha=3 has no effect"):
        clf.prune(ccp_alpha=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InactiveParameterWarning)
        clf.prune(pruning="cost_complexity")
        clf.prune(pruning=None)          # ccp_alpha=3 stays, but was not given now


def test_rules_warn_in_their_own_terms():
    X, y = load_golf()
    # The rules always use confidence (their own CF); their tree is grown unpruned.
    with warnings.catch_warnings():
        warnings.simplefilter("error", InactiveParameterWarning)
        C45RulesClassifier(confidence=0.1).fit(X, y)
        C45RulesClassifier(min_samples_split=5).fit(X, y)
    with pytest.warns(InactiveParameterWarning, match="min_samples_split=3.*min_samples_leaf"):
        C45RulesClassifier(min_samples_split=3).fit(X, y)
    with pytest.warns(InactiveParameterWarning, match="min_samples_split=0.1.*min_samples_leaf"):
        C45RulesClassifier(min_samples_split=0.1, min_samples_leaf=0.1).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InactiveParameterWarning)
        C45RulesClassifier(min_samples_split=0.5, min_samples_leaf=0.1).fit(X, y)
        C45RulesClassifier(min_samples_split=0.5).fit(X, y)     # 7 > 2 * 2 cases
    with pytest.warns(InactiveParameterWarning, match="min_samples_split=0.2"):
        C45RulesClassifier(min_samples_split=0.2).fit(X, y)     # 3 cases of 14


def test_the_table_names_parameters_of_spec():
    for entry in _params.ONLY_ACTS_WHEN:
        assert entry.name in _params.SPEC
        for w in entry.whens:
            assert w.reads in _params.SPEC or w.reads in ("sample_weight", "X_val")


# -- fractions of the total case weight, as scikit-learn ---------------------------
def weighted_problem(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 4, n).astype(float),
                      "c": pd.Categorical(rng.choice(list("xyz"), n))})
    y = np.where(X.a + 0.3 * X.b + rng.normal(scale=0.8, size=n) > 0.5, "p", "q")
    return X, y, rng.integers(0, 4, n) / 2


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fraction", [0.01, 0.05, 0.123])
def test_fraction_min_samples_leaf_is_the_equivalent_case_weight(precision, weighted,
                                                                 fraction):
    X, y, w = weighted_problem()
    w = w if weighted else None
    total = float(np.sum(w)) if weighted else len(y)
    absolute = float(np.ceil(fraction * total))
    a = C45Classifier(min_samples_leaf=fraction, precision=precision).fit(X, y, w)
    b = C45Classifier(min_samples_leaf=absolute, precision=precision).fit(X, y, w)
    assert same_tree(a.tree_, b.tree_) and same_tree(a.grown_tree_, b.grown_tree_)
    # Not a case weight of 0.01 (a near-full tree, as MINOBJS 1 grows).
    full = C45Classifier(min_samples_leaf=1.0, precision=precision).fit(X, y, w)
    assert a.grown_tree_.node_count < full.grown_tree_.node_count


def test_fraction_min_samples_split_is_the_equivalent_case_weight():
    X, y, w = weighted_problem()
    a = C45Classifier(min_samples_split=0.2, pruning=None).fit(X, y, w)
    b = C45Classifier(min_samples_split=float(np.ceil(0.2 * w.sum())), pruning=None).fit(
        X, y, w)
    assert same_tree(a.tree_, b.tree_)
    assert a.tree_.node_count < C45Classifier(pruning=None).fit(X, y, w).tree_.node_count


def test_min_samples_leaf_from_one_up_is_case_weight():
    X, y, w = weighted_problem()
    a = C45Classifier(min_samples_leaf=1.0).fit(X, y, w)
    b = C45Classifier(min_samples_leaf=1).fit(X, y, w)
    assert same_tree(a.tree_, b.tree_)
    with pytest.raises(ValueError, match=r"min_samples_leaf must be a positive number "
                                         r"\(case weight\), or a float in \(0, 1\)"):
        C45Classifier(min_samples_leaf=-0.5).fit(X, y)


def test_prune_after_a_fraction_gives_the_fit_tree():
    X, y, w = weighted_problem()
    for precision in ("float64", "float32"):
        clf = C45Classifier(min_samples_leaf=0.03, pruning=None, precision=precision)
        clf.fit(X, y, w)
        clf.prune(X, y, w, pruning="pessimistic")
        ref = C45Classifier(min_samples_leaf=0.03, precision=precision).fit(X, y, w)
        assert same_tree(clf.tree_, ref.tree_)


@pytest.mark.parametrize("value, n_features, expected", [
    ("sqrt", 10, 3), ("sqrt", 1, 1), ("sqrt", 16, 4), ("log2", 10, 3), ("log2", 1, 1),
    ("log2", 2, 1), ("log2", 9, 3), (0.5, 5, 2), (0.01, 5, 1), (1.0, 5, 5), (3, 5, 3),
    (9, 5, 5), (None, 5, 0),
])
def test_max_features_counts_as_scikit_learn(value, n_features, expected):
    assert _params.max_features_count(value, n_features) == expected


def test_max_features_refuses_other_strings():
    X, y = load_golf()
    with pytest.raises(ValueError, match='max_features must be None, "sqrt", "log2"'):
        C45Classifier(max_features="auto").fit(X, y)


def test_max_features_sqrt_is_its_count():
    X, y, _ = weighted_problem()
    a = C45Classifier(max_features="sqrt", random_state=1).fit(X, y)
    b = C45Classifier(max_features=1, random_state=1).fit(X, y)     # int(sqrt(3)) = 1
    assert same_tree(a.tree_, b.tree_)


# -- class_weight -----------------------------------------------------------------
@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("class_weight", ["balanced", {"p": 3.0}, {"p": 0.5, "q": 2.5}])
@pytest.mark.parametrize("weighted", [False, True])
def test_class_weight_is_sample_weight_multiplied(precision, class_weight, weighted):
    X, y, w = weighted_problem()
    w = w if weighted else None
    expanded = compute_sample_weight(class_weight, y)
    a = C45Classifier(class_weight=class_weight, precision=precision).fit(X, y, w)
    b = C45Classifier(precision=precision).fit(
        X, y, expanded if w is None else w * expanded)
    assert same_tree(a.tree_, b.tree_) and same_tree(a.grown_tree_, b.grown_tree_)
    plain = C45Classifier(precision=precision).fit(X, y, w)
    assert not same_tree(a.grown_tree_, plain.grown_tree_)


def test_class_weight_balanced_is_compute_sample_weight():
    y = np.array(["a"] * 6 + ["b"] * 3 + ["c"])
    classes = np.array(["a", "b", "c"])
    codes = np.searchsorted(classes, y)
    np.testing.assert_array_equal(
        _params.class_sample_weight("balanced", classes, codes),
        compute_sample_weight("balanced", y))
    np.testing.assert_array_equal(
        _params.class_sample_weight({"b": 2.0}, classes, codes),
        compute_sample_weight({"a": 1.0, "b": 2.0, "c": 1.0}, y))


@pytest.mark.parametrize("value, message", [
    ("balance", "class_weight must be None, \"balanced\" or a dict"),
    ([1, 2], "class_weight must be None"),
    ({"p": -1}, r"class_weight\['p'\] must be a non-negative number"),
    ({"p": float("nan")}, r"class_weight\['p'\] must be a non-negative number"),
    ({"nope": 2}, r"class_weight names 'nope', which is not a class of y .* leaves out "
                  r"\['p', 'q'\]"),
])
def test_bad_class_weight_is_refused(value, message):
    X, y, _ = weighted_problem()
    with pytest.raises(ValueError, match=message):
        C45Classifier(class_weight=value).fit(X, y)


def _refuses(fit):
    try:
        fit()
    except ValueError:
        return True
    return False


_LABELS = np.array(["p", "q", "r"] * 4)
_CODES = np.array([0, 1, 2] * 4)


@pytest.mark.parametrize("y", [
    _LABELS, _CODES, _CODES.astype(float),
    pd.Categorical(_LABELS, categories=["r", "unused", "q", "p"]),
    pd.Series(pd.Categorical(_CODES, categories=[2, 0, 7, 1])),
], ids=["str", "int", "float", "categorical", "int-categorical"])
@pytest.mark.parametrize("named", [
    [], ["nope"], ["a", 1], [0], ["p"], ["p", "nope"], ["unused"], ["p", "unused"],
    ["p", "q", "r", "nope"], ["p", "q", "r", "unused"], ["p", "q", "r"], [0, 1, 2, 5],
    [0, 7], [0, 1, 2, 7], [2.5, "x"], [0.0, 1.0, 2.0, 9.5], [1.0, 3.5],
])
def test_class_weight_labels_outside_the_classes_as_scikit_learn(y, named):
    """A label that is not one of classes_ (no class, or a declared category
    with no case) is refused exactly where scikit-learn's tree refuses it: unless
    the dict names every class of y."""
    from sklearn.tree import DecisionTreeClassifier
    X = np.arange(12.0)[:, None]
    class_weight = {label: 2.0 for label in named}
    ours = C45Classifier(class_weight=class_weight)
    refused = _refuses(lambda: ours.fit(X, y))
    classes = {c.item() if hasattr(c, "item") else c
               for c in np.unique(np.asarray(y, dtype=object))}
    strangers = [label for label in named if label not in classes]
    assert refused == bool(strangers and not classes <= set(named))
    assert refused == _refuses(
        lambda: DecisionTreeClassifier(class_weight=class_weight).fit(X, y))
    if refused:
        with pytest.raises(ValueError, match=rf"class_weight names {strangers[0]!r}, "
                                             rf"which is (not a class of y|a category "
                                             rf"of y with no case)"):
            ours.fit(X, y)
    else:
        held = np.isin(np.asarray(y, dtype=object), list(named))
        same = C45Classifier().fit(X, y, np.where(held, 2.0, 1.0))
        assert same_tree(ours.tree_, same.tree_)


def test_class_weight_with_integer_labels_and_categorical_y():
    X, y, _ = weighted_problem()
    yc = pd.Categorical(y, categories=["q", "p", "unused"])
    a = C45Classifier(class_weight={"p": 2.0}).fit(X, yc)
    b = C45Classifier().fit(X, yc, np.where(y == "p", 2.0, 1.0))
    assert same_tree(a.tree_, b.tree_)
    yi = np.where(y == "p", 1, 0)
    for key in (1, np.int64(1), 1.0):
        a = C45Classifier(class_weight={key: 2.0}).fit(X, yi)
        b = C45Classifier().fit(X, yi, np.where(y == "p", 2.0, 1.0))
        assert same_tree(a.tree_, b.tree_)


# -- predict_log_proba, n_classes_, n_outputs_ --------------------------------------
@pytest.mark.parametrize("cls", [C45Classifier, C45RulesClassifier],
                         ids=lambda c: c.__name__)
def test_predict_log_proba_and_class_counts(cls):
    X, y, _ = weighted_problem()
    # Pure leaves: probabilities 0 to take the log of.
    clf = (cls(pruning=None, min_samples_leaf=1) if cls is C45Classifier else cls()).fit(X, y)
    proba = clf.predict_proba(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no divide-by-zero warning
        log = clf.predict_log_proba(X)
    assert (proba == 0).any()
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(log, np.log(proba))
    assert np.isneginf(log[proba == 0]).all()
    assert clf.n_classes_ == 2 and clf.n_outputs_ == 1
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        cls().n_classes_


def test_cost_complexity_path_does_not_warn_about_its_own_unpruned_fit():
    X, y = load_golf()
    clf = C45Classifier(pruning="cost_complexity", ccp_alpha=0.5, confidence=0.1)
    with pytest.warns(InactiveParameterWarning, match="confidence"):
        clf.fit(X, y)                    # confidence idle under cost_complexity
    with warnings.catch_warnings():
        warnings.simplefilter("error", InactiveParameterWarning)
        C45Classifier(pruning="cost_complexity", ccp_alpha=0.5).cost_complexity_pruning_path(
            X, y)


def test_set_params_after_fit_acts_at_the_next_fit_not_on_the_fitted_trees():
    # A float64 tree read in float32 sent 0.1 (0.100000001 in binary32) past its
    # cut 0.1; its pickle and model file then did not load (float32 cuts
    # expected), and a refused refit left the old tree read in float32.
    import pickle
    import c45
    X = np.r_[np.full(20, 0.1), np.full(20, 0.2)][:, None]
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    rows = np.array([[0.1], [0.2]])
    for cls in (C45Classifier, C45RulesClassifier):
        clf = cls().fit(X, y)
        want = clf.predict(rows).tolist()
        assert want == [0, 1]
        clf.set_params(precision="float32", subset_splits=True,
                       **({"soft_thresholds": True} if cls is C45Classifier else {}))
        assert clf.predict(rows).tolist() == want
        with pytest.raises(ValueError, match="float32"):
            clf.fit(np.r_[X, [[1e39]]], np.r_[y, 0])        # refused: the old model stays
        assert clf.predict(rows).tolist() == want
        again = pickle.loads(pickle.dumps(clf))              # saved as fitted
        assert again.predict(rows).tolist() == want
        assert again.get_params()["precision"] == "float64"
        if cls is C45Classifier:
            assert "0.1" in c45.export_text(clf)
            loaded = c45.from_json(c45.to_json(clf))
            assert loaded.predict(rows).tolist() == want
            assert loaded.get_params()["precision"] == "float64"
            pruned = clf.prune(pruning=None)                  # the fitted trees, as fitted
            assert pruned.predict(rows).tolist() == want
            assert clf.get_params()["precision"] == "float32"
        clf.set_params(subset_splits=False, soft_thresholds=False) if cls is C45Classifier \
            else clf.set_params(subset_splits=False)
        clf.fit(X, y)                                       # now grown in float32
        cut = clf.grown_tree_.threshold[0]
        assert cut != 0.1 and cut == np.float32(0.1)
        assert clf.predict(rows).tolist() == want
