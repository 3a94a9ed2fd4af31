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
check in ``SPEC``; its check is a function all the same (``max_features_count``,
``check_n_jobs``, c45._encode's ``_resolve_categorical``), which a loaded model's
parameters go through too (``Parameters._check_loaded_params``).

``ONLY_ACTS_WHEN`` says which parameters act only under others (``ccp_alpha``
only with ``pruning="cost_complexity"``, ...): both estimators warn from it at
fit (``warn_inactive``), and the command line about its options (``inactive``).
"""
import math
import multiprocessing
import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from joblib import effective_n_jobs
from joblib.parallel import ThreadingBackend, get_active_backend
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
                         f"rounds C4.5's -c percentage to binary32); give "
                         f"confidence=1e-42 or more, or use precision='float64'")


def random_state(value):
    """The numpy RandomState of a random_state parameter."""
    try:
        return check_random_state(value)
    except ValueError:
        raise ValueError(f"random_state must be None, an integer in 0..2**32 - 1 or "
                         f"a numpy RandomState, got {value!r}") from None


def is_seed(value):
    """Whether a random_state is a seed numpy takes (RandomState(seed) is made
    afresh at each use: c45/_split.pyx draws from it without making one)."""
    return isinstance(value, numbers.Integral) and 0 <= value < 2**32


def check_random_state_param(value):
    """Refuse what random_state refuses, without making a RandomState (making
    one gives the GIL up twice)."""
    if not (is_seed(value) or value is None or isinstance(value, np.random.RandomState)):
        random_state(value)


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
    """The number of features a max_features parameter draws (0: all, C4.5), as
    scikit-learn counts them: a fraction of the features rounded down, "sqrt" and
    "log2" of their number rounded down, and at least 1."""
    m = value
    if m is None:
        return 0
    if isinstance(m, str) and m in ("sqrt", "log2"):
        return max(1, int((np.sqrt if m == "sqrt" else np.log2)(max(n_features, 1))))
    if isinstance(m, numbers.Integral) and not isinstance(m, (bool, np.bool_)):
        if not 1 <= m:
            raise ValueError(f"max_features must be >= 1, got {m}")
        return int(min(m, n_features))
    if is_number(m) and 0 < m <= 1:
        return max(1, int(m * n_features))
    raise ValueError(f"max_features must be None, \"sqrt\", \"log2\", a positive int or "
                     f"a fraction in (0, 1], got {m!r}")


def is_fraction(value):
    """A min_samples_leaf or min_samples_split in (0, 1): a share of the total case
    weight, as scikit-learn reads a float there (values from 1 up are case weight)."""
    return is_number(value) and not isinstance(value, numbers.Integral) and 0 < value < 1


def case_weight(value, total_weight):
    """The case weight a min_samples_leaf/min_samples_split value stands for: a
    fraction f of the total case weight W is ceil(f * W), as scikit-learn rounds
    ceil(f * n_samples); any other value is case weight already."""
    if is_fraction(value):
        return float(math.ceil(float(value) * total_weight))
    return float(value)


def class_sample_weight(class_weight, classes, y_codes):
    """Per case, the weight its class gets from a class_weight parameter (None,
    "balanced" or a dict {class label: weight}), as scikit-learn's
    compute_sample_weight gives it: "balanced" is n / (k * n_c) over the k classes
    present, a class the dict does not name has weight 1. classes: the declared
    classes, y_codes each case's index in them.

    A dict label that is not a class y holds (no class at all, or a declared
    category with no case) is refused, as scikit-learn refuses it, unless the
    dict names every class y holds: then it weighs no case and is ignored."""
    # Counted and spread over the cases in compiled passes that keep the GIL
    # (scikit-learn's compute_sample_weight gave it up some 35 times a fit, each
    # release a switch interval beside a busy Python thread).
    from c45._bulk import take_rows
    from c45._split import code_rows
    y_codes = np.ascontiguousarray(y_codes, dtype=np.int32)
    count = code_rows(y_codes, len(classes))[1].tolist()
    held = np.array([c > 0 for c in count], dtype=bool)
    if class_weight is None:
        return take_rows(np.ones(len(classes)), y_codes)
    if isinstance(class_weight, str) and class_weight == "balanced":
        # compute_class_weight's n / (k * n_c) over the k classes present, in
        # its float64 operations (the sums of counts exact): the same bits
        n, k = float(sum(count)), sum(c > 0 for c in count)
        return take_rows(np.array([n / (k * float(c)) if c else 1.0 for c in count]),
                         y_codes)
    # The dict's labels as class codes (labels of any type: compute_sample_weight
    # sorts the classes it sees, which mixed labels cannot be).
    index = {}
    for i, c in enumerate(classes):
        index.setdefault(c, i)
    codes, strangers = {}, []
    for label, w in class_weight.items():
        if not finite_number(w) or w < 0:
            raise ValueError(f"class_weight[{label!r:.80}] must be a non-negative "
                             f"number, got {w!r}")
        try:
            code = index[label]
        except (KeyError, TypeError):
            code = None
        if code is None or not held[code]:
            strangers.append((label, code is not None))
        else:
            codes[code] = float(w)
    named = np.zeros(len(classes), dtype=bool)
    named[list(codes)] = True
    labels = np.asarray(classes)
    left_out = labels[held & ~named].tolist()
    if strangers and left_out:
        label, declared = strangers[0]
        what = ("a category of y with no case" if declared
                else "not a class of y")
        raise ValueError(
            f"class_weight names {label!r:.80}, which is {what} (y's classes: "
            f"{labels[held].tolist()!r:.200}), and leaves out "
            f"{left_out!r:.200}: as scikit-learn, a label that is not a class of y "
            f"is taken only in a dict that names every class y holds")
    return take_rows(np.array([codes.get(int(c), 1.0) for c in range(len(classes))]),
                     y_codes)


def check_n_jobs(n_jobs):
    if n_jobs is not None and (not isinstance(n_jobs, numbers.Integral)
                               or isinstance(n_jobs, bool) or n_jobs == 0):
        raise ValueError(f"n_jobs must be None, -1 or a non-zero integer, got {n_jobs!r}")


def n_threads(n_jobs):
    """The threads an n_jobs parameter asks for, never more than the usable CPUs
    (n_jobs=100000 would crash libgomp)."""
    check_n_jobs(n_jobs)
    if multiprocessing.current_process().daemon:
        # joblib's default backend (loky: processes) answers 1 in a daemonic
        # process, a multiprocessing Pool's or a Dask worker's, with a warning
        # about its processes; c45's workers are OpenMP threads, which run there
        # as anywhere: the threading backend's answer (OpenMP's limit, which
        # Dask sets in its workers, still applies: clamp).
        if n_jobs is None:
            n_jobs = get_active_backend()[1]        # a joblib context's, or None
        return clamp_threads(ThreadingBackend().effective_n_jobs(n_jobs))
    return clamp_threads(effective_n_jobs(n_jobs))


# -- the checks of SPEC: check(name, value, estimator) raises ValueError --------
def _one_of(*options):
    def check(name, value, est):
        check_choice(name, value, options)
    return check


def _flag(name, value, est):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")


def _flag_or_auto(name, value, est):
    if not (isinstance(value, (bool, np.bool_)) or (isinstance(value, str) and value == "auto")):
        raise ValueError(f"{name} must be True, False or \"auto\", got {value!r:.80}")


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


def _min_weight(what):
    """A case weight (`what`: its bound) or, in (0, 1), a fraction of the total."""
    def check(name, value, est):
        if not finite_number(value) or value < 0 or (value == 0 and what == "positive"):
            raise ValueError(f"{name} must be a {what} number (case weight), or a "
                             f"float in (0, 1): a fraction of the total case weight; "
                             f"got {value!r}")
    return check


def _class_weight(name, value, est):
    if value is None or (isinstance(value, str) and value == "balanced"):
        return
    if not isinstance(value, dict):
        raise ValueError(f"{name} must be None, \"balanced\" or a dict {{class label: "
                         f"weight}}, got {value!r:.80}")
    for label, w in value.items():
        if not finite_number(w) or w < 0:
            raise ValueError(f"{name}[{label!r:.80}] must be a non-negative number, "
                             f"got {w!r}")


def _count_or_none(name, value, est):
    """None, or a whole number of at least 1."""
    if value is not None and (not isinstance(value, numbers.Integral)
                              or isinstance(value, (bool, np.bool_)) or value < 1):
        raise ValueError(f"{name} must be None or an integer of at least 1, got {value!r}")


# Windowing's trials each grow and keep their own trees (all held until fit
# returns): a bound far beyond any use, so that a slip such as -t 100000000000
# is refused at once instead of running until stopped and filling memory.
MAX_TRIALS = 10_000


def _trials(name, value, est):
    """None, or a whole number from 1 to MAX_TRIALS."""
    _count_or_none(name, value, est)
    if value is not None and value > MAX_TRIALS:
        raise ValueError(f"{name} must be at most {MAX_TRIALS:,} (each trial grows and "
                         f"keeps its own trees), got {value!r}")


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
    Param("soft_thresholds", False, _flag),
    Param("pruning", "pessimistic", _one_of(*PRUNING)),
    Param("criterion", "gain_ratio", _one_of(*CRITERION)),
    Param("threshold", "data", _one_of(*THRESHOLD)),
    Param("min_samples_leaf", 2, _min_weight("positive")),
    Param("confidence", 0.25, _confidence),
    Param("redundancy", 1.0, _positive()),
    Param("fisher", False, lambda name, value, est: fisher_level(value)),
    Param("annealing", False, _flag),
    Param("pruning_trace", "auto", _flag_or_auto),
    Param("ccp_alpha", 0.0, _non_negative),
    Param("validation_fraction", 1 / 3, _fraction(closed=False)),
    Param("max_depth", None, _depth),
    Param("min_samples_split", 0, _min_weight("non-negative")),
    Param("max_purity", 1.0, _fraction(closed=True)),
    Param("min_gain", None, _gain),
    Param("random_state", None, lambda name, value, est: check_random_state_param(value)),
    Param("subtree_raising", True, _flag),
    Param("normalize_sample_weight", False, _flag),
    Param("subset_splits", False, _flag),
    Param("mdl_correction", True, _flag),
    Param("class_weight", None, _class_weight),
    Param("categorical_features", "auto"),     # by c45._encode, with X
    Param("max_features", None),               # max_features_count, at fit
    Param("n_jobs", None),                     # n_threads, where threads are used
    Param("keep_training_data", False),        # any truth value
    Param("trials", None, _trials),
    Param("initial_window", None, _count_or_none),
    Param("window_increment", None, _count_or_none),
)}

# How a tree grows: both estimators take these, and C45RulesClassifier grows its
# tree with them.
GROW = ("min_samples_leaf", "criterion", "subset_splits", "threshold", "mdl_correction",
        "categorical_features", "precision", "max_depth", "min_samples_split",
        "max_purity", "min_gain", "max_features", "random_state")
# What a fitted model's trees were made with, which its predictions, exports,
# prune() and saved files follow: set_params changes them for the next fit (a
# float64 tree read in float32 sent values to the wrong side of its cuts, and
# its model file did not load).
FITTED_WITH = ("precision", "subset_splits", "soft_thresholds")
# What C45Classifier.prune() may change: they act after growing.
PRUNE = ("pruning", "confidence", "subtree_raising", "ccp_alpha")
# What C45RulesClassifier takes besides GROW: the rules' CF, -r, -F and -a, and
# what its pruning_log_ keeps.
RULES_ONLY = ("confidence", "redundancy", "fisher", "annealing", "pruning_trace")

# The estimators' parameters, in signature order.
CLASSIFIER = ("min_samples_leaf", "confidence", "pruning", "subtree_raising", "ccp_alpha",
              "validation_fraction", *GROW[1:], "laplace", "soft_thresholds",
              "normalize_sample_weight",
              "n_jobs", "keep_training_data", "class_weight", "trials", "initial_window",
              "window_increment")
RULES = ("min_samples_leaf", "confidence", "redundancy", "fisher", "annealing", *GROW[1:],
         "pruning_trace")        # (added last: positional arguments keep their places)


# -- parameters that act only under others -------------------------------------
class InactiveParameterWarning(UserWarning):
    """A parameter was set to a value that has no effect under the others set
    (``ccp_alpha`` without ``pruning="cost_complexity"``, ...)."""


@dataclass(frozen=True)
class When:
    """One way for a parameter to act: `reads` (a parameter, or an argument of
    fit: ``sample_weight``, ``X_val``) makes holds(values) true. `text` says it in
    Python's words, `flag` in the command line's (None: no option sets it)."""
    reads: str
    holds: object
    text: str
    flag: str = None


def _min_split_acts(v):
    # A node lighter than 2 * min_samples_leaf is a leaf anyway. Comparable
    # without the data when both are fractions or both case weights.
    split, leaf, total = v["min_samples_split"], v["min_samples_leaf"], v.get("total_weight")
    if total is None:
        return is_fraction(split) != is_fraction(leaf) or split > 2 * leaf
    return case_weight(split, total) > 2 * case_weight(leaf, total)


def _is(param, value, flag=None):
    return When(param, lambda v: v[param] == value, f"{param}={value!r}", flag)


_PESSIMISTIC = _is("pruning", "pessimistic", "--pruning pessimistic (the default)")

@dataclass(frozen=True)
class OnlyActsWhen:
    """The parameter `name` acts only when one of `whens` holds."""
    name: str
    whens: tuple
    estimators: bool = True     # False: the command line's warning only


# "Parameter X only acts when one of Y": each estimator checks the entries of its
# own parameters at fit (a When reading a parameter it lacks never holds), and the
# command line the entries of the options given (c45.cli). Several entries for
# one X: it acts only when each of them holds.
ONLY_ACTS_WHEN = tuple(OnlyActsWhen(*entry) for entry in (
    ("ccp_alpha", (_is("pruning", "cost_complexity", "--pruning cost_complexity"),)),
    ("confidence", (_PESSIMISTIC,)),
    ("subtree_raising", (_PESSIMISTIC,)),
    ("validation_fraction", (_is("pruning", "reduced_error", "--pruning reduced_error"),)),
    ("validation_fraction", (When("X_val", lambda v: v["X_val"] is None,
                                  "fit is given no X_val (it replaces the hold-out)"),)),
    # Not warned by the estimators: scikit-learn's meta-estimators (bagging) and
    # check_estimator set random_state on every estimator that has one.
    ("random_state", (When("max_features", lambda v: v["max_features"] is not None,
                           "max_features is not None"),
                      _is("pruning", "reduced_error", "--pruning reduced_error")), False),
    ("normalize_sample_weight", (
        When("sample_weight", lambda v: v["sample_weight"] is not None,
             "fit is given sample_weight"),
        When("class_weight", lambda v: v["class_weight"] is not None,
             "class_weight is not None"))),
    ("initial_window", (When("trials", lambda v: v["trials"] is not None,
                             "trials is not None (windowing)", "-t"),)),
    ("window_increment", (When("trials", lambda v: v["trials"] is not None,
                               "trials is not None (windowing)", "-t"),)),
    # The kept data serve prune(), which cannot prune windowing's trees again.
    ("keep_training_data", (When("trials", lambda v: v["trials"] is None,
                                 "trials is None (prune() cannot prune windowing's "
                                 "trees again)"),)),
    ("min_samples_split", (When("min_samples_leaf", _min_split_acts,
                                "min_samples_split > 2 * min_samples_leaf (a node "
                                "lighter than that is a leaf already)"),)),
))

# Where each parameter is in SPEC: checks run in this order.
_SPEC_ORDER = {name: i for i, name in enumerate(SPEC)}


def _is_default(name, value):
    default = SPEC[name].default
    if isinstance(default, bool) or isinstance(value, (bool, np.bool_)):
        return isinstance(value, (bool, np.bool_)) and bool(value) == default
    if is_number(default) and is_number(value):
        return bool(value == default)
    try:
        return type(value) is type(default) and bool(value == default)
    except Exception:            # a value that refuses ==
        return False


def inactive(names, values, given, estimator=True):
    """(parameter, Whens) of each entry of ONLY_ACTS_WHEN that fails: for the
    parameters `given` (set to a non-default value) among `names` (an estimator's
    parameters, or the command's), none of its Whens among those reading `names`
    or a fit argument in `values` holds. values: the parameters (and fit's
    arguments) by name; a parameter missing from them is at its default.
    estimator: leave out the entries only the command line warns about."""
    full = {n: p.default for n, p in SPEC.items()}
    full.update(values)
    out = []
    for entry in ONLY_ACTS_WHEN:
        if entry.name not in given or (estimator and not entry.estimators):
            continue
        live = [w for w in entry.whens if w.reads in names or w.reads in values]
        if live and not any(w.holds(full) for w in live):
            out.append((entry.name, live))
    return out


def given_parameters(est):
    """The parameters of est set to a value other than their default."""
    return {n for n in est._parameters if not _is_default(n, getattr(est, n))}


def warn_inactive(est, context=None, only=None, stacklevel=3):
    """Warn (InactiveParameterWarning) about each parameter of est that was set
    and has no effect under the others (ONLY_ACTS_WHEN); context: fit's arguments
    (sample_weight, X_val, and the total case weight once known); only: limit
    the warnings to these parameters."""
    values = {n: getattr(est, n) for n in est._parameters}
    values.update(context or {})
    given = given_parameters(est)
    if only is not None:
        given &= set(only)
    for name, whens in inactive(est._parameters, values, given):
        warnings.warn(f"{name}={getattr(est, name)!r} has no effect: it acts only when "
                      f"{' or '.join(w.text for w in whens)}", InactiveParameterWarning,
                      stacklevel=stacklevel + 1)


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

    def _made_with(self):
        """FITTED_WITH's values now (what fit records, as "_fitted_with")."""
        return {n: getattr(self, n) for n in FITTED_WITH if n in self._parameters}

    def _fit_value(self, name, fitted=None):
        """A FITTED_WITH parameter as the fitted model (state `fitted`, default
        this one's) was made with."""
        made = (self.__dict__ if fitted is None else fitted).get("_fitted_with")
        return getattr(self, name) if made is None else made[name]

    def _fitted_params(self):
        """get_params, FITTED_WITH as the model was fitted: what a saved model
        holds (its trees must load against them)."""
        return dict(self.get_params(deep=False), **self.__dict__.get("_fitted_with", {}))

    def _check_named(self, *names):
        """Check the parameters names (in SPEC's order: the first bad one is
        named). Predict checks one or two: only those are visited."""
        for name in sorted(names, key=_SPEC_ORDER.__getitem__):
            p = SPEC[name]
            if p.check is not None:
                p.check(name, getattr(self, name), self)

    def _check_params(self):
        self._check_named(*self._parameters)

    def _check_loaded_params(self):
        """A loaded model's parameters (a pickle's, a model file's), each checked
        by the check fit runs on it: a bad one is refused at load, not at the first
        predict, refit or clone. Those fit checks against X (max_features,
        categorical_features) against the features the model was fitted on
        (self._schema), n_jobs as where threads are used."""
        from c45._encode import _resolve_categorical     # (loads the compiled core)
        self._check_params()
        if "n_jobs" in self._parameters:
            check_n_jobs(self.n_jobs)
        schema = self._schema
        max_features_count(self.max_features, schema.n_features)
        _resolve_categorical(self.categorical_features, schema.n_features, schema.names)
        # (checked against the trees by the loads: what the model was made with)
        self.__dict__["_fitted_with"] = self._made_with()

    def __getstate__(self):
        # The names of the parameters pickled: a c45 that does not know one says
        # so at load (the state's other names are the model's and its user's).
        # One string, not the keys' own string objects, which pickle would
        # write as references where they are the same objects; and first, before
        # what a load puts in the model's __dict__: a round trip pickles to the
        # same bytes.
        # A fitted model's FITTED_WITH are pickled as it was fitted (its trees
        # load against them), whatever set_params said since.
        state = dict(super().__getstate__())    # (object's is the __dict__ itself)
        made = state.pop("_fitted_with", None)
        return {"_pickled_parameters": " ".join(self._parameters), **state, **(made or {})}

    def __setstate__(self, state):
        """Where the estimators' __setstate__ ends: a parameter this c45 does not
        know (a newer c45's) is dropped with a warning, as a model file's is."""
        odd = [k for k in state if not isinstance(k, str)]
        if odd:
            raise ValueError(f"c45: the pickled model's state has a key that is not a "
                             f"name: {odd[0]!r:.80}")
        names = state.get("_pickled_parameters", "")
        if not isinstance(names, str):
            raise ValueError(f"c45: the pickled model's _pickled_parameters is "
                             f"{names!r:.80}, not the parameters' names")
        unknown = sorted(set(names.split()) - set(self._parameters))
        if unknown:
            warnings.warn(f"the pickled c45 model sets parameters this c45 does not "
                          f"know, ignored: {unknown}", UserWarning, stacklevel=3)
        super().__setstate__({k: v for k, v in state.items()
                              if k != "_pickled_parameters" and k not in unknown})

    def _check_unpickled_params(self):
        """A pickle's parameters, checked as a model file's (_check_loaded_params).
        A parameter newer than the pickle takes its default (what the model was
        fitted with)."""
        for name in self._parameters:
            if name not in self.__dict__:
                setattr(self, name, SPEC[name].default)
        try:
            self._check_loaded_params()
        except (TypeError, ValueError) as exc:
            raise ValueError(f"c45: the pickled model's parameters: {exc}") from None

    def _cf(self):
        """C4.5's CF from the confidence parameter, in the estimator's precision."""
        return certainty_factor(self.confidence, self.precision)
