"""The parameters of C45Classifier and C45RulesClassifier, declared once in
c45/_params.py: the signatures they give, their checks, and their documentation."""
import inspect

import pytest
from sklearn.base import clone

from c45 import C45Classifier, C45RulesClassifier, _params

# The signatures as the estimators had them before c45/_params.py wrote them.
SIGNATURES = {
    C45Classifier: (
        "(min_samples_leaf=2, confidence=0.25, pruning='pessimistic', "
        "subtree_raising=True, ccp_alpha=0.0, validation_fraction=0.3333333333333333, "
        "criterion='gain_ratio', subset_splits=False, threshold='data', "
        "mdl_correction=True, categorical_features='auto', precision='float64', "
        "max_depth=None, min_samples_split=0, max_purity=1.0, min_gain=None, "
        "max_features=None, random_state=None, laplace=False, "
        "normalize_sample_weight=False, n_jobs=None, keep_training_data=False, "
        "class_weight=None)"),
    C45RulesClassifier: (
        "(min_samples_leaf=2, confidence=0.25, redundancy=1.0, fisher=False, "
        "criterion='gain_ratio', subset_splits=False, threshold='data', "
        "mdl_correction=True, categorical_features='auto', precision='float64', "
        "max_depth=None, min_samples_split=0, max_purity=1.0, min_gain=None, "
        "max_features=None, random_state=None)"),
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
