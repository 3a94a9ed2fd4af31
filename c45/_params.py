"""The parameters of C45Classifier and C45RulesClassifier, declared once.

``SPEC`` holds every parameter either estimator takes: its name, its default and
its check. Each estimator names its parameters (``CLASSIFIER``, ``RULES``, in
signature order) and inherits ``Parameters``, which writes its ``__init__`` from
them (each argument stored as given, as scikit-learn wants: the checks run at
fit, or where the value is used) and runs their checks.

The checks run in ``SPEC``'s order, so that of several bad parameters the same
one is named first whatever the estimator (precision first: confidence's check
reads it). A parameter whose check needs the data (``max_features``,
``categorical_features``) or is made where the value is used (``n_jobs``) has no
check in ``SPEC``; its check is a function of this module all the same.
"""
import math
import numbers
from dataclasses import dataclass

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils import check_random_state

from c45._threads import clamp as clamp_threads

PRUNING = (None, "pessimistic", "cost_complexity", "reduced_error")
PRECISION = ("float64", "float32")
CRITERION = ("gain_ratio", "gain")
THRESHOLD = ("data", "midpoint")
MAX_DEPTH = 2**31 - 2             # the core's depths are 32-bit


def is_number(x):
    return isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))


def finite_number(x):
    """x is a real number (not a bool) within float64's range: a Fraction too,
    not an int beyond float64 (10**400), NaN or an infinity."""
    try:
        return is_number(x) and math.isfinite(x)
    except OverflowError:
        return False


def check_choice(name, value, options):
    """The parameter `name` is one of options."""
    if value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}")


def certainty_factor(confidence, precision):
    """The CF of the pessimistic estimates (tree pruning and rules) from confidence."""
    if precision != "float32":
        return float(confidence)
    # C4.5 reads -c as a percentage: CF = r32(r32(pct) / 100).
    pct = np.float32(float(confidence) * 100.0)
    return float(np.float32(pct / np.float32(100.0)))


def check_confidence(confidence, precision):
    """confidence in (0, 1], and a CF above 0 once float32 mode has rounded it."""
    c = confidence
    _fraction(closed=True)("confidence", c, None)
    if certainty_factor(c, precision) <= 0:
        raise ValueError(f"confidence {c!r} is 0 in float32 (precision='float32' "
                         f"rounds C4.5's -c percentage to binary32); give at least "
                         f"1e-42 or use precision='float64'")


def random_state(value):
    """The numpy RandomState of a random_state parameter."""
    try:
        return check_random_state(value)
    except ValueError:
        raise ValueError(f"random_state must be None, an integer in 0..2**32 - 1 or "
                         f"a numpy RandomState, got {value!r}") from None


def fisher_level(value):
    """The significance level of a fisher parameter, None for no test."""
    f = value
    if f is None or (isinstance(f, (bool, np.bool_)) and not f):
        return None
    if isinstance(f, (bool, np.bool_)):
        return 0.05
    if finite_number(f) and 0 < f < 1:
        return float(f)
    raise ValueError(f"fisher must be False, True or a significance level in (0, 1), "
                     f"got {f!r}")


def max_features_count(value, n_features):
    """The number of features a max_features parameter draws (0: all, C4.5)."""
    m = value
    if m is None:
        return 0
    if isinstance(m, numbers.Integral) and not isinstance(m, bool):
        if not 1 <= m:
            raise ValueError(f"max_features must be >= 1, got {m}")
        return int(min(m, n_features))
    if is_number(m) and 0 < m <= 1:
        return max(1, int(m * n_features))
    raise ValueError(f"max_features must be None, a positive int or a fraction in "
                     f"(0, 1], got {m!r}")


def check_n_jobs(n_jobs):
    if n_jobs is not None and (not isinstance(n_jobs, numbers.Integral)
                               or isinstance(n_jobs, bool) or n_jobs == 0):
        raise ValueError(f"n_jobs must be None, -1 or a non-zero integer, got {n_jobs!r}")


def n_threads(n_jobs):
    """The threads an n_jobs parameter asks for, never more than the usable CPUs
    (n_jobs=100000 would crash libgomp)."""
    check_n_jobs(n_jobs)
    return clamp_threads(effective_n_jobs(n_jobs))


# -- the checks of SPEC: check(name, value, estimator) raises ValueError --------
def _one_of(*options):
    def check(name, value, est):
        check_choice(name, value, options)
    return check


def _flag(name, value, est):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")


def _positive(what=""):
    def check(name, value, est):
        if not finite_number(value) or value <= 0:
            raise ValueError(f"{name} must be a positive number{what}, got {value!r}")
    return check


def _non_negative(name, value, est):
    if not finite_number(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative number, got {value!r}")


def _fraction(closed):
    """In (0, 1], or (0, 1) when not closed."""
    def check(name, value, est):
        if not is_number(value) or not (0 < value <= 1 if closed else 0 < value < 1):
            raise ValueError(f"{name} must be in (0, {'1]' if closed else '1)'}, "
                             f"got {value!r}")
    return check


def _confidence(name, value, est):
    check_confidence(value, est.precision)


def _depth(name, value, est):
    d = value
    if d is not None and (not isinstance(d, numbers.Integral) or isinstance(d, bool)
                          or not 0 <= d <= MAX_DEPTH):
        raise ValueError(f"{name} must be None or an integer in 0..{MAX_DEPTH} "
                         f"(None: no limit), got {d!r}")


def _gain(name, value, est):
    if value is not None and not finite_number(value):
        raise ValueError(f"{name} must be None or a number, got {value!r}")


@dataclass(frozen=True)
class Param:
    name: str
    default: object
    check: object = None      # check(name, value, estimator), or None (see above)


SPEC = {p.name: p for p in (
    Param("precision", "float64", _one_of(*PRECISION)),
    Param("laplace", False, _flag),
    Param("pruning", "pessimistic", _one_of(*PRUNING)),
    Param("criterion", "gain_ratio", _one_of(*CRITERION)),
    Param("threshold", "data", _one_of(*THRESHOLD)),
    Param("min_samples_leaf", 2, _positive(" (case weight)")),
    Param("confidence", 0.25, _confidence),
    Param("redundancy", 1.0, _positive()),
    Param("fisher", False, lambda name, value, est: fisher_level(value)),
    Param("ccp_alpha", 0.0, _non_negative),
    Param("validation_fraction", 1 / 3, _fraction(closed=False)),
    Param("max_depth", None, _depth),
    Param("min_samples_split", 0, _non_negative),
    Param("max_purity", 1.0, _fraction(closed=True)),
    Param("min_gain", None, _gain),
    Param("random_state", None, lambda name, value, est: random_state(value)),
    Param("subtree_raising", True, _flag),
    Param("normalize_sample_weight", False, _flag),
    Param("subset_splits", False, _flag),
    Param("mdl_correction", True, _flag),
    Param("categorical_features", "auto"),     # by c45._encode, with X
    Param("max_features", None),               # max_features_count, at fit
    Param("n_jobs", None),                     # n_threads, where threads are used
    Param("keep_training_data", False),        # any truth value
)}

# How a tree grows: both estimators take these, and C45RulesClassifier grows its
# tree with them.
GROW = ("min_samples_leaf", "criterion", "subset_splits", "threshold", "mdl_correction",
        "categorical_features", "precision", "max_depth", "min_samples_split",
        "max_purity", "min_gain", "max_features", "random_state")
# What C45Classifier.prune() may change: they act after growing.
PRUNE = ("pruning", "confidence", "subtree_raising", "ccp_alpha")
# What C45RulesClassifier takes besides GROW: the rules' CF, -r and -F.
RULES_ONLY = ("confidence", "redundancy", "fisher")

# The estimators' parameters, in signature order.
CLASSIFIER = ("min_samples_leaf", "confidence", "pruning", "subtree_raising", "ccp_alpha",
              "validation_fraction", *GROW[1:], "laplace", "normalize_sample_weight",
              "n_jobs", "keep_training_data")
RULES = ("min_samples_leaf", *RULES_ONLY, *GROW[1:])


def _init_method(cls, names):
    """cls.__init__(self, <names with their defaults>): stores each one as given.
    Written out (as dataclasses writes its __init__) so that its signature names
    the parameters, which scikit-learn's get_params reads."""
    args = "".join(f", {n}=_defaults[{n!r}]" for n in names)
    body = "".join(f"\n    self.{n} = {n}" for n in names) or "\n    pass"
    namespace = {"_defaults": {n: SPEC[n].default for n in names}}
    exec(f"def __init__(self{args}):{body}\n", namespace)
    init = namespace["__init__"]
    init.__module__ = cls.__module__
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


class Parameters:
    """Base of the two estimators: ``class E(..., Parameters, BaseEstimator,
    parameters=NAMES)`` gives E the ``__init__`` of the parameters NAMES (of
    SPEC, in signature order), and their checks."""

    _parameters = ()

    def __init_subclass__(cls, parameters=None, **kwargs):
        if parameters is not None:
            if "__init__" in cls.__dict__:
                raise TypeError(f"{cls.__name__} takes its __init__ from parameters=")
            unknown = [n for n in parameters if n not in SPEC]
            if unknown:
                raise TypeError(f"{cls.__name__}: no parameters {unknown} in SPEC")
            cls._parameters = tuple(parameters)
            cls.__init__ = _init_method(cls, cls._parameters)
        super().__init_subclass__(**kwargs)

    def _check_named(self, *names):
        """Check the parameters names (in SPEC's order)."""
        for p in SPEC.values():
            if p.check is not None and p.name in names:
                p.check(p.name, getattr(self, p.name), self)

    def _cf(self):
        """C4.5's CF from the confidence parameter, in the estimator's precision."""
        return certainty_factor(self.confidence, self.precision)
