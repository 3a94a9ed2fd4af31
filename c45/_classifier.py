"""C45Classifier: the scikit-learn face of the C4.5 Release 8 core."""
import hashlib
import numbers
import warnings
from collections import namedtuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import accuracy_score
from sklearn.utils import Bunch
from sklearn.utils.validation import check_is_fitted

from c45 import _bulk, _grown, _params, _pruning, _split, _tree, _windowing
from c45._encode import (UNIQUE_CHUNK, _all_strings, _object_values, canonical_arrays,
                         class_columns, distinct_values, pd, encode_fit, encode_predict,
                         encode_target, exact_in_any_order,
                         list_array, n_rows, plain_rows, rank_tables, rank_tables_from,
                         refuse_sparse_or_masked, value_orders, value_orders_from,
                         values_of)
from c45._fresh import fresh_pages, fresh_pages_for
from c45._params import PRUNE as _PRUNE_PARAMS
from c45._state import checked_fitted_state

# Limits, enforced with clear errors at fit time.
MAX_CLASSES = 65_535
# A fit on this many cells (rows x features) or more gives its freed heap pages
# back to the system (_tree.release_heap): about 8 MB of encoded data, a fit of a
# tenth of a second or more. The trim walks the process's free heap blocks: 0.1-0.3
# ms in a plain process, 60-70 ms beside a 2 GB heap of freed small objects.
TRIM_CELLS = 1 << 19
MAX_CATEGORIES = 10_000_000       # per discrete feature
MAX_SUBSET_CATEGORIES = 512       # subset_splits: C4.5's value grouping is cubic
MAX_CASES = 2**31 - 2             # case indices are 32-bit
MAX_DEPTH = _params.MAX_DEPTH     # the core's depths are 32-bit (checked with max_depth)
# predict_sums' codes when every feature is continuous (unread): one read-only array
# for every call, so no thread can change it.
_NO_CODES = np.zeros((1, 1), np.int32)
_NO_CODES.flags.writeable = False

# Version of the fitted model's pickled state (raise it when the state changes).
# Format 1: classes_ is the trees' class order. Format 2: classes_ is sorted and
# declared_classes_ holds the trees' order. Format 3: classes_ holds only the
# declared classes y held (as scikit-learn's classifiers read y). All are read.
PICKLE_FORMAT = 3
PICKLE_FORMATS_READ = (1, 2, 3)


def require_y(y, estimator="C45Classifier"):
    # scikit-learn's words: its checks look for them.
    if y is None:
        raise ValueError(f"{estimator} requires y to be passed, but the target y "
                         "is None")


def _fingerprint(data, like=None):
    """(rows, features, digest) of encoded training data: values, labels, weights.
    Given `like`, a fingerprint made as `like`'s was (a model of c45 before the
    one-pass digest holds a blake2b digest, one before the rows' lanes the
    sorted values' bytes)."""
    # float32 data hold the values and codes; float64 data the codes, the ranks
    # and the sorted values; both the labels and weights.
    arrays = (data.cont, data.codes, data.y, data.init_weight, data.rank, data.sorted_value)
    # float32 grown on X's own columns holds no values, but the lanes of their
    # digest, taken as it read them (TrainingData.values_digest)
    lanes, shape = data.values_digest, None
    if lanes is not None:
        arrays = (None,) + arrays[1:]
        shape = (sum(a is not None for a in data.sources), data.n_cases)
    if like is None or like[2].startswith(_bulk.DIGEST_ROWS_PREFIX):
        # each row of sorted values as its lanes: a fit ranked in X's columns
        # keeps those alone (TrainingData.sorted_digest)
        rows = (data.sorted_digest if data.sorted_digest is not None
                else _bulk.sorted_row_digests(data.sorted_value))
        return (data.n_cases, data.n_features,
                _bulk.digest(arrays[:-1] + (rows,), _bulk.DIGEST_ROWS_PREFIX, lanes, shape))
    if data.sorted_digest is not None or lanes is not None:
        raise ValueError("c45: data ranked in X's columns has no older digest")
    if not like[2].startswith(_bulk.DIGEST_PREFIX):
        h = hashlib.blake2b(digest_size=16)
        for a in arrays:
            a = np.ascontiguousarray(a)
            h.update(str(a.shape).encode())
            h.update(memoryview(a).cast("B"))
        return (data.n_cases, data.n_features, h.hexdigest())
    return (data.n_cases, data.n_features, _bulk.digest(arrays))


def _same_arrays(a, b):
    return all(np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True)
               for f in a._fields)


def _round32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


# C4.5 considers a cut between two values only when they differ by more than this
# absolute amount (v[i] < v[i+1] - 1e-5 in eval_continuous, in both precisions).
CUT_TOLERANCE = 1e-5


def _warn_fine_features(schema, cont, spans=None, sources=None, f32=False):
    """Warn about continuous features whose values are so close together that
    C4.5's absolute cut tolerance keeps most of their cuts from being tried (a
    feature on a 1e-6 scale never splits). Only features spanning less than
    1000 tolerances are examined, so typical data costs one min/max per feature.
    cont None: the values are X's own columns, sources, with their spans (f32:
    read rounded to float32, as a float32 fit reads them)."""
    if spans is None:
        spans = _bulk.column_spans(cont)          # one pass, not two per feature
    for j in np.flatnonzero(~schema.discrete):
        lo, hi = spans[0][schema.col[j]], spans[1][schema.col[j]]
        # (hi - lo may overflow: a column spanning float64's whole range)
        if not (hi > lo and hi < lo + 1000 * CUT_TOLERANCE):
            continue
        # (+ 0.0: -0.0 read as 0.0, as the fit reads it)
        # (float64: a float32 fit's values widened, its tolerance test in double)
        x = np.asarray(cont[schema.col[j]] if cont is not None else sources[j], np.float64)
        if cont is None:
            x = (x.astype(np.float32).astype(np.float64) if f32 else x) + 0.0
        v = np.unique(x[~np.isnan(x)])
        blocked = int(np.count_nonzero(~(v[:-1] < v[1:] - CUT_TOLERANCE)))
        if blocked:
            name = (f"column {schema.names[j]!r}" if schema.names is not None
                    else f"column {j}")
            warnings.warn(
                f"X {name}: its values span only {hi - lo:.3g}, and {blocked} of its "
                f"{len(v) - 1} possible cuts lie between values closer than C4.5's "
                f"cut tolerance ({CUT_TOLERANCE:g}, absolute), so they are never "
                f"tried; rescale the feature (e.g. multiply it by 1e6) to let C4.5 "
                f"split on it", UserWarning, stacklevel=5)


# A feature left with fewer cuts than this by the cut tolerance, of many more
# possible, is warned about: its cuts are then coarse for its span.
FEW_CUTS = 1000


def _warn_dense_features(schema, layout):
    """Warn about continuous features with so many values for their span that
    nearly all neighbours lie closer than C4.5's cut tolerance, so that fewer
    than FEW_CUTS cuts are tried (1 million values on [0, 1] leave some 50, 1.5
    million none: a separable column fits as one leaf). layout: the training
    data's arrays, whichever the layout (_known_values). Only features whose
    average gap is under 10 tolerances are counted (fewer values for their span
    leave most gaps wider), so typical data costs nothing."""
    ends, cut_counts = _known_values(schema, layout)
    for j in np.flatnonzero(~schema.discrete):
        n, lo, hi = ends(j)
        # Narrow features are _warn_fine_features' (hi - lo may overflow).
        if n < 3 or not hi >= lo + 1000 * CUT_TOLERANCE or \
                hi > lo + 10 * CUT_TOLERANCE * (n - 1):
            continue
        possible, blocked = cut_counts(j)
        if possible - blocked < FEW_CUTS and blocked > possible / 2:
            name = (f"column {schema.names[j]!r}" if schema.names is not None
                    else f"column {j}")
            warnings.warn(
                f"X {name}: only {possible - blocked} of its {possible} possible cuts "
                f"are tried, the others lying between values closer than C4.5's cut "
                f"tolerance ({CUT_TOLERANCE:g}, absolute; its {n} values span "
                f"{hi - lo:.3g}); rescale the feature (e.g. multiply it by 1e6) to "
                f"let C4.5 split on it", UserWarning, stacklevel=5)


def _known_values(schema, layout):
    """(ends, cut_counts) of feature j's sorted known values in the training data's
    layout: ends(j) their count, lowest and highest; cut_counts(j) _bulk.cut_counts
    of them. Each layout keeps them otherwise: float32's case array as each
    feature's distinct values, float32 on the lists as each feature's order of
    the values, float64 as each feature's sorted values."""
    col = schema.col
    if "distinct" in layout:
        distinct, start = layout["distinct"], layout["distinct_start"]

        def values(j):
            return distinct[start[j]:start[j + 1]]
    elif "order" in layout:
        cont, order, n_known = layout["cont"], layout["order"], layout["n_known"]
        lo, hi = _bulk.column_spans(cont)           # one pass for all

        def ends(j):
            return n_known[j], lo[col[j]], hi[col[j]]

        def cut_counts(j):
            return _bulk.cut_counts(cont[col[j]], CUT_TOLERANCE,
                                    order[col[j], :n_known[j]])
        return ends, cut_counts
    elif "facts" in layout:
        # float64 ranked in X's columns: what ranking read of the sorted values
        facts, n_known = layout["facts"], layout["n_known"]

        def ends(j):
            return n_known[j], facts[col[j], 0], facts[col[j], 1]

        def cut_counts(j):
            return int(facts[col[j], 2]), int(facts[col[j], 3])
        return ends, cut_counts
    else:
        sorted_value, n_known = layout["sorted_value"], layout["n_known"]

        def values(j):
            return sorted_value[col[j], :n_known[j]]

    def ends(j):
        v = values(j)
        return (len(v), float(v[0]), float(v[-1])) if len(v) else (0, 0.0, 0.0)

    def cut_counts(j):
        # (float32's distinct values widened: one feature's, for a dense one)
        return _bulk.cut_counts(np.asarray(values(j), np.float64), CUT_TOLERANCE)
    return ends, cut_counts


# (id(classes_), id(declared_classes_)) -> (those arrays, their ClassMap): see
# class_map.
_CLASS_MAPS = {}


class ClassMap(namedtuple("ClassMap", "columns position complete in_order")):
    """How classes_ (predict_proba's columns) lies in declared_classes_ (the
    trees' class columns). columns: per entry of classes_, its index in
    declared_classes_; position: per declared class, its index in classes_, -1
    for a class y did not hold; complete: every declared class is in classes_;
    in_order: classes_ is declared_classes_, column for column."""
    __slots__ = ()


def class_map(fitted):
    """The ClassMap of a fitted state (a dict with classes_ and
    declared_classes_). Matching the classes costs more than a one-row predict
    itself: each pair of arrays is matched once (_CLASS_MAPS; predict leaves the
    estimator's __dict__ as it was)."""
    classes, declared = fitted["classes_"], fitted["declared_classes_"]
    key = (id(classes), id(declared))
    hit = _CLASS_MAPS.get(key)
    if hit is not None and hit[0] is classes and hit[1] is declared:
        return hit[2]
    columns = class_columns(classes, declared)
    position = np.full(len(declared), -1, dtype=np.intp)
    position[columns] = np.arange(len(columns))
    for a in (columns, position):
        a.flags.writeable = False        # shared by every call
    found = ClassMap(columns, position, len(columns) == len(declared),
                     np.array_equal(columns, np.arange(len(declared))))
    if len(_CLASS_MAPS) >= 256:
        _CLASS_MAPS.clear()
    _CLASS_MAPS[key] = (classes, declared, found)   # holds them: the ids stay theirs
    return found


class ClassCounts:
    """n_classes_ and n_outputs_, as scikit-learn's classifiers have them (both
    estimators)."""

    @property
    def n_classes_(self):
        """The number of classes (``len(classes_)``)."""
        check_is_fitted(self, "classes_")
        return len(self.classes_)

    @property
    def n_outputs_(self):
        """1: one target (scikit-learn's trees take several; C4.5 one)."""
        check_is_fitted(self, "classes_")
        return 1


# scikit-learn's checks that fit with sample_weight. "Equivalence" compares weight
# 2 with a repeated row (check_sample_weight_equivalence in 1.6, ..._on_dense_data
# from 1.7; before 1.6 check_sample_weights_invariance compared only weights 1 and
# 0, which rescaling and a hold-out of the nonzero rows pass).
_EQUIVALENCE_CHECKS = ("check_sample_weight_equivalence",
                       "check_sample_weight_equivalence_on_dense_data")
_SAMPLE_WEIGHT_CHECKS = _EQUIVALENCE_CHECKS + ("check_sample_weights_invariance",
    "check_sample_weights_pandas_series", "check_sample_weights_not_an_array",
    "check_sample_weights_list", "check_sample_weights_shape",
    "check_sample_weights_not_overwritten", "check_all_zero_sample_weights_error",
    "check_classifiers_one_label_sample_weights", "check_class_weight_classifiers")


class Accuracy:
    """score as scikit-learn's classifiers have it (accuracy_score of predict),
    the same number, counted in one compiled pass where y and sample_weight are
    plain arrays that accuracy_score takes as they are (both estimators):
    accuracy_score makes a dozen numpy calls, each a GIL release that costs a
    switch interval beside a busy Python thread. Any other y or weights (and
    every refusal) go to accuracy_score itself."""

    def score(self, X, y, sample_weight=None):
        """The mean accuracy of ``predict(X)`` against ``y``, weighted by
        ``sample_weight``: scikit-learn's ``accuracy_score``."""
        pred = self.predict(X)
        got = _plain_accuracy(y, pred, sample_weight)
        if got is None:
            return accuracy_score(y, pred, sample_weight=sample_weight)
        return got


def _plain_accuracy(y, pred, sample_weight):
    """accuracy_score(y, pred, sample_weight=sample_weight) where y is a 1-D
    array of pred's dtype (integers, booleans or strings: a binary or multiclass
    target as it is), or y and pred both strings, as str objects (an object
    array, a Series of them or of pandas strings) or numpy's (accuracy_score's
    np.unique of millions of them is deaf to Ctrl-C for seconds), and
    sample_weight None or a C-contiguous float64 array of one finite weight
    per row, not summing to 0; None otherwise."""
    if pd is not None and isinstance(y, pd.Series) and (
            y.dtype == object or pd.api.types.is_string_dtype(y.dtype)):
        y = _object_values(y)                   # (chunk by chunk)
    texts = {y.dtype.kind, pred.dtype.kind} <= {"U", "O"} if (
        type(y) is np.ndarray and type(pred) is np.ndarray) else False
    if not (type(y) is np.ndarray and type(pred) is np.ndarray and y.ndim == 1
            and pred.ndim == 1 and (y.dtype == pred.dtype or texts)
            and y.dtype.kind in "biuUO" and 0 < len(y) == len(pred)):
        return None
    if sample_weight is not None and not (
            type(sample_weight) is np.ndarray and sample_weight.dtype == np.float64
            and sample_weight.ndim == 1 and len(sample_weight) == len(y)
            and sample_weight.flags.c_contiguous):
        return None
    match = (_bulk.equal_items(y, pred) if y.dtype == pred.dtype and y.dtype != object
             else _string_matches(y, pred))
    return None if match is None else _bulk.accuracy(match, sample_weight)


def _string_matches(y, pred):
    """y == pred item by item as a uint8 array, for arrays of strings only
    (str objects or numpy's: each a label of a binary or multiclass target, as
    accuracy_score reads them), a chunk at a time (see UNIQUE_CHUNK); None if
    an item is not a str."""
    match = np.empty(len(y), dtype=np.uint8)
    for i in range(0, len(y), UNIQUE_CHUNK):
        a, b = y[i:i + UNIQUE_CHUNK], pred[i:i + UNIQUE_CHUNK]
        if not (_all_strings(a) and _all_strings(b)):
            return None
        match[i:i + UNIQUE_CHUNK] = a == b
    return match


class InputTags:
    """What both estimators take, told to scikit-learn: unknown values (NaN/None,
    C4.5's unknowns), categorical and string features. In both of its protocols:
    ``__sklearn_tags__`` (scikit-learn 1.6 on) and ``_more_tags`` (before 1.6, which
    pyproject's floor still allows); there also the checks a setting of the
    parameters fails by design (_xfail_checks)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def _more_tags(self):
        return {"allow_nan": True, "X_types": ["2darray", "categorical", "string"],
                "_xfail_checks": self._xfail_checks()}

    def _xfail_checks(self):
        """{check name: why}: the estimator checks a setting fails by design."""
        return {}


class C45Classifier(InputTags, ClassCounts, Accuracy, ClassifierMixin, _params.Parameters,
                    BaseEstimator, parameters=_params.CLASSIFIER):
    """Quinlan's C4.5 Release 8 decision tree.

    Gain-ratio splits, multiway tests on discrete (categorical) features, binary
    cuts on continuous ones, unknown values handled as fractional cases, and
    pessimistic pruning with subtree raising, as C4.5 Release 8 does them; plus
    the variants its switches and the textbooks use, each one parameter away.

    Parameters
    ----------
    min_samples_leaf : int or float, default=2
        C4.5's ``-m`` (MINOBJS), in case weight: a test needs at least two
        branches with this much weight, and a node lighter than twice it is a leaf.
        A float in (0, 1) is a fraction of the total case weight W, as
        scikit-learn reads it: ``ceil(min_samples_leaf * W)`` (W is the number of
        rows when there are no weights); from 1 up it is case weight itself.
    confidence : float in (0, 1], default=0.25
        C4.5's CF for pessimistic pruning, as a fraction (C4.5's ``-c 25``, in
        percent, is 0.25): smaller prunes more.
    pruning : {"pessimistic", "cost_complexity", "reduced_error", None}, default="pessimistic"
        ``"pessimistic"``: C4.5's error-based pruning with subtree raising.
        ``"cost_complexity"``: a textbook rule (not C4.5's) with ``ccp_alpha``:
        bottom-up, a node
        whose children are leaves becomes a leaf when ``N*H(node) + alpha`` does not
        exceed ``sum(N_t*H(t)) + alpha*T`` (H the entropy in bits, T the children).
        ``"reduced_error"``: J48's ``-R``; the tree is grown on the training data and
        pruned bottom-up wherever a leaf makes no more errors on validation data:
        ``X_val, y_val`` given to ``fit``, else a stratified ``validation_fraction``
        held out of X (then the tree is grown on the rest; every class keeps at
        least one case to grow on). The hold-out draws rows, so a row of weight 2
        is not the same as two copies of it there (scikit-learn's sample-weight
        equivalence check fails by design).
        ``None``: the grown tree (C4.5's "Before Pruning" tree, with the subtrees
        that do not reduce training errors collapsed, as C4.5 does).
    subtree_raising : bool, default=True
        Let pessimistic pruning replace a node by its largest branch (C4.5 always
        does; J48's ``-S`` turns it off).
    ccp_alpha : float >= 0, default=0.0
        Penalty per leaf of ``pruning="cost_complexity"``. A parameter that has no
        effect under the others set (``ccp_alpha`` without
        ``pruning="cost_complexity"``, ``confidence`` or ``subtree_raising``
        without pessimistic pruning, ...) warns at fit
        (:class:`c45.InactiveParameterWarning`, naming what would make it act).
    validation_fraction : float in (0, 1), default=1/3
        Share of the data held out for ``pruning="reduced_error"`` when no
        ``X_val`` is given (J48 -R's default of 3 folds, one for pruning).
    criterion : {"gain_ratio", "gain"}, default="gain_ratio"
        ``"gain"`` chooses tests by plain information gain, as ID3 (C4.5's ``-g``).
    subset_splits : bool, default=False
        Group the values of discrete features into subsets (C4.5's ``-s``).
    threshold : {"data", "midpoint"}, default="data"
        The stored cut of a continuous test: C4.5 R8's largest training value not
        above the best midpoint, or the midpoint itself (J48's
        ``-doNotMakeSplitPointActualValue``, and many textbook examples).
    mdl_correction : bool, default=True
        Release 8's ``log2(cuts)/N`` penalty on the gain of continuous tests; False
        drops it (J48's ``-J``; textbook hand calculations).
    categorical_features : "auto", list of int or str, bool mask, or None, default="auto"
        Discrete features. Columns of strings (pandas object/string columns, numpy
        string or object columns holding strings) and pandas Categoricals are always
        discrete. ``"auto"``: bool columns are discrete too, numeric columns are
        continuous. A list of column indices or names, or a boolean mask, adds
        numeric columns to those discrete ones (e.g. integer codes); ``None`` makes
        bool columns continuous (0/1) as well. A pandas Categorical's declared
        categories are the branches, in their order, unused ones included;
        otherwise the sorted values seen in training are. Dates and durations are
        refused (convert them to numbers, e.g. days since 1970). At prediction, a
        value of another type than the column's categories (``True`` where
        training had the strings ``"true"``/``"false"``) is unknown and warns once
        per column; a value of the right type never seen in training is unknown
        silently, as in C4.5.
    precision : {"float64", "float32"}, default="float64"
        ``"float32"`` reproduces C4.5 Release 8 bit for bit, with its
        single-precision arithmetic and ties (and its MINOBJS leak under ``-s``:
        after a node where a grouped feature has no known value, MINOBJS stays
        1). ``"float64"`` runs the same algorithm in double precision,
        without the leak.
    max_depth : int or None, default=None
        Pre-pruning: nodes at this depth are leaves (the root has depth 0).
    min_samples_split : int or float, default=0
        Pre-pruning: a node with less case weight is a leaf. A float in (0, 1) is a
        fraction of the total case weight, ``ceil(min_samples_split * W)``, as for
        ``min_samples_leaf``. It acts only above ``2 * min_samples_leaf``.
    max_purity : float in (0, 1], default=1.0
        Pre-pruning (a textbook option): a node whose majority class holds at
        least this
        share of its weight is a leaf. 1.0 is C4.5's rule (only pure nodes).
    min_gain : float or None, default=None
        Pre-pruning: a node whose chosen test gains less (bits; continuous gains
        after the MDL penalty) is a leaf.
    max_features : int, float, "sqrt", "log2" or None, default=None
        Evaluate only this many features, drawn at random at each node, counted as
        scikit-learn counts them: a float is a fraction of the features
        (``max(1, int(max_features * n_features))``), ``"sqrt"`` is
        ``max(1, int(sqrt(n_features)))``, ``"log2"`` ``max(1, int(log2(n_features)))``;
        None evaluates all (C4.5).
    random_state : int or None, default=None
        Seeds the ``max_features`` draws and the ``reduced_error`` hold-out.
    laplace : bool, default=False
        ``predict_proba`` answers ``(n_c + 1) / (N + k)`` at a leaf instead of
        ``n_c / N`` (J48's ``-A``). Empty leaves answer their class with weight 1 in
        both cases (C4.5's rule; J48 uses the parent's distribution).
    soft_thresholds : bool, default=False
        C4.5's ``-p``: after pruning, each continuous test gets a lower and an
        upper bound around its threshold (``tree_.lower``, ``tree_.upper``), where
        moving the threshold would cost more than a standard error of extra
        training errors, and ``predict_proba`` shares a value between the bounds
        out over both branches (see ``docs/windowing.md``, "Soft thresholds"): a
        value on the threshold itself goes half to each, so on data with few
        distinct values the training accuracy can drop (scikit-learn's
        ``check_classifiers_train`` fails by design).
    n_jobs : int or None, default=None
        Threads for fitting (float64 mode: the features are sorted, subtrees
        grown and the features of large nodes evaluated in parallel, and
        pessimistic pruning estimates subtrees in parallel, in ``fit`` and in
        ``prune()``; the tree does not depend on n_jobs) and for prediction
        (rows in parallel). None means 1, -1 all cores.
        ``precision="float32"`` always fits on one thread, as Release 8's
        evaluation order is part of its arithmetic.
    normalize_sample_weight : bool, default=False
        C4.5 reads case weights as case counts: ``min_samples_leaf``, the MDL
        penalty and the pruning estimates depend on their scale, and weight 2 is
        the same as a repeated row. Set True for relative weights (AdaBoost's sum
        to 1): they are rescaled to sum to the number of rows with nonzero weight.
        Then a row of weight 2 is no longer the same as two copies of it, so
        scikit-learn's sample-weight equivalence check fails by design.
    keep_training_data : bool, default=False
        Keep the encoded training data in the fitted model (about 1.75 times the
        size of X), so that ``prune()`` can prune pessimistically again without
        being given X and y.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplying the case weights (``sample_weight``
        too) as scikit-learn's ``compute_sample_weight`` gives them: a dict
        ``{class label: weight}`` (classes it leaves out weigh 1), or
        ``"balanced"``, ``n_samples / (n_classes * count of the class)`` over the
        rows given to fit. As in scikit-learn, a dict label that is not in
        ``classes_`` (not a class at all, or a category of a pandas Categorical
        y with no case, which weighs no case) is refused unless the dict names
        every class of ``classes_``; then it is ignored. Like any case weight
        they count as cases for ``min_samples_leaf``, the MDL penalty and
        pessimistic pruning.
    trials : int or None, default=None
        Windowing (C4.5's ``-t``): grow each tree on a window of the cases that
        grows by the cases the tree misclassifies, ``trials`` times from
        different windows, and keep the trial whose pruned tree has the smallest
        pessimistic estimate (see ``trials_``). The windows are drawn as Release
        8 draws them (glibc's ``random()`` unseeded), so a fit always gives the
        same trees, whatever ``random_state``. None grows one tree on all the
        cases. Windowing takes no ``sample_weight`` or ``class_weight`` and
        needs ``pruning="pessimistic"``; see docs/windowing.md.
    initial_window : int or None, default=None
        The cases of the first window (C4.5's ``-w``), at most all; None is
        Release 8's ``max(2 sqrt(N), N / 5)``. Acts only with ``trials``.
    window_increment : int or None, default=None
        The most misclassified cases a cycle adds to the window (C4.5's ``-i``),
        unless half of them is more; None is a fifth of the initial window.
        Acts only with ``trials``.

    Attributes
    ----------
    classes_ : ndarray
        The class labels y holds, as scikit-learn's DecisionTreeClassifier gives
        them on the same y (``np.unique`` of y as its ``check_array`` reads it):
        the columns of ``predict_proba`` and the labels of ``predict``. A pandas
        Categorical y's unused categories are not among them.
    declared_classes_ : ndarray
        C4.5's classes in its class order: a pandas Categorical y's declared
        categories (unused ones included) in their order, otherwise
        ``classes_``. C4.5 counts these classes, uses this order to break ties
        (the lowest index wins) and to print (``export_text``, the confusion
        matrix, the rules' class order), and the trees index it.
    n_classes_ : int
        ``len(classes_)``.
    n_outputs_ : int
        1 (one target).
    n_features_in_ : int
    feature_names_in_ : ndarray of str (only for DataFrame input)
    categories_ : list
        Per feature, ``None`` for a continuous one, else the list of categories;
        branch ``b`` of a test on the feature holds ``categories_[f][b]``.
    tree_ : Tree
        The fitted tree (pruned unless ``pruning=None``), as flat node arrays.
        Its class columns (``value[:, c]``, ``node_class``) are in the order of
        ``declared_classes_``, not of ``classes_``.
    grown_tree_ : Tree
        The tree before pruning (the model keeps what sets it apart from
        ``tree_``, and makes it when asked).
    trials_ : list of Trial or None
        With ``trials``: each trial's ``cycles`` (a ``Cycle`` per tree grown:
        ``size``, ``window``, ``other`` cases, ``window_errors``,
        ``other_errors``, ``errors``), the tree it kept (``grown``, the one of
        fewest total errors, grown on its window) and that tree pruned on all the
        cases (``pruned``). None without windowing.
    best_trial_ : int or None
        The index in ``trials_`` of the trial whose trees are ``grown_tree_``
        and ``tree_``: the smallest pessimistic estimate, the first on a tie.

    Notes
    -----
    Unknown values (NaN or None) go down every branch of a test with a weight
    proportional to the branch's training weight, in fitting and in prediction.
    A category that training never saw is treated as unknown in the same way.
    Ties go to the lower feature index, the first cut and the lower class index
    (in ``declared_classes_``).

    Examples
    --------
    >>> from c45 import C45Classifier
    >>> X = [[64.0], [65.0], [68.0], [69.0], [70.0], [71.0]]
    >>> y = ["no", "no", "no", "yes", "yes", "yes"]
    >>> C45Classifier().fit(X, y).predict([[66.0], [72.0]]).tolist()
    ['no', 'yes']
    """

    def _xfail_checks(self):
        """{check name: why}: scikit-learn's estimator checks that this setting of
        the parameters fails by design (none for the defaults). Before 1.6
        scikit-learn reads them from _more_tags; from 1.6 on they are what to pass
        to check_estimator or parametrize_with_checks as expected_failed_checks.
        Each check is named as every scikit-learn release since pyproject's floor
        names it (a name a release does not run is never looked up)."""
        found = {}
        if self.trials is not None:
            why = ("trials (windowing) takes no sample_weight or class_weight: it "
                   "counts cases as Release 8 does, one case one vote")
            found.update(dict.fromkeys(_SAMPLE_WEIGHT_CHECKS, why))
        if self.normalize_sample_weight:
            found.update(dict.fromkeys(
                _EQUIVALENCE_CHECKS, "normalize_sample_weight rescales the weights "
                "to sum to the rows of nonzero weight: weight 2 is not a repeated row"))
        if self.pruning == "reduced_error":
            found.update(dict.fromkeys(
                _EQUIVALENCE_CHECKS, "reduced-error pruning holds out rows at random: "
                "a row of weight 2 is one row to draw, two copies are two"))
        if self.soft_thresholds:
            found["check_classifiers_train"] = (
                "soft thresholds (Release 8's -p) send a case whose value is a test's "
                "cut half to each branch: on the check's data, rounded to whole "
                "numbers (the categorical tag), many rows sit on the cut")
        return found

    # The parameters and their checks: c45/_params.py (shared with C45RulesClassifier).
    def _check_predict_params(self):
        """The parameter prediction reads (the others it takes as fitted:
        _fit_value): set_params after fit may have changed it since fit checked it."""
        self._check_named("laplace")

    def _check_params(self):
        self._check_named(*self._parameters)
        _windowing.check_parameters(self)

    def _threads(self):
        return _params.n_threads(self.n_jobs)

    def _predict_threads(self, m):
        """_threads for predicting m rows: predict_sums runs fewer than twice
        ROWS_PER_THREAD rows on the calling thread whatever n_jobs, so a small call
        (one row) checks n_jobs but skips joblib's and the CPU count's look-ups."""
        if m < 2 * _tree.ROWS_PER_THREAD:
            _params.check_n_jobs(self.n_jobs)
            return 1
        return self._threads()

    def _options(self, n_features, total_weight):
        """The growing options; total_weight (the training data's) turns fractions
        of min_samples_leaf and min_samples_split into case weight."""
        f32 = self.precision == "float32"
        seed = _split.randint(self.random_state, 1, 2**31 - 1)
        min_objs = _params.case_weight(self.min_samples_leaf, total_weight)
        return _tree.GrowOptions(
            min_objs=float(_round32(min_objs)) if f32 else min_objs,
            gain_ratio=self.criterion == "gain_ratio",
            subsets=bool(self.subset_splits),
            leak_min_objs=f32,
            midpoint=self.threshold == "midpoint",
            mdl=bool(self.mdl_correction),
            max_depth=-1 if self.max_depth is None else int(self.max_depth),
            min_split=_params.case_weight(self.min_samples_split, total_weight),
            max_purity=float(self.max_purity),
            min_gain=-np.inf if self.min_gain is None else float(self.min_gain),
            max_features=_params.max_features_count(self.max_features, n_features),
            seed=int(seed))

    # -- fitting -----------------------------------------------------------
    def fit(self, X, y, sample_weight=None, X_val=None, y_val=None):
        """Grow the tree on (X, y) and prune it.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Continuous and discrete features; NaN/None are unknown values.
        y : array-like of shape (n_samples,)
            Class labels of any type (a pandas Categorical declares C4.5's classes
            and their order, unused categories included).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative case weights (C4.5's case counts are multiplied by them).
            Rows of weight 0 are ignored entirely. ``class_weight`` multiplies them.
        X_val, y_val : validation data for ``pruning="reduced_error"``.
        """
        # All or nothing: an error or Ctrl-C leaves the model as it was.
        before = dict(self.__dict__)
        try:
            with fresh_pages():     # (its arrays' first touch: c45/_fresh.pyx)
                cells, fitted = self._fit(X, y, sample_weight, X_val, y_val)
            fitted["_fitted_with"] = self._made_with()
        except BaseException:
            self.__dict__ = before          # swapped back, as the new state is in
            raise
        # The fitted state in one step (one reference swapped): a thread that
        # reads the model meanwhile sees the old one or the new one, never the
        # new classes_ with the old tree.
        state = dict(self.__dict__)
        state.update(fitted)
        if "feature_names_in_" not in fitted:
            state.pop("feature_names_in_", None)
        self.__dict__ = state
        # The fit's buffers are freed now; a small fit's few pages are not worth
        # the trim's walk over the heap.
        if cells >= TRIM_CELLS:
            _tree.release_heap()
        return self

    def _fit(self, X, y, sample_weight, X_val, y_val):
        self._check_params()
        if (X_val is None) != (y_val is None):
            raise ValueError("give both X_val and y_val, or neither")
        if X_val is not None and self.pruning != "reduced_error":
            raise ValueError("X_val and y_val are used only by pruning='reduced_error'")
        X_val_given = X_val
        if self.pruning == "reduced_error" and X_val is None:
            X, y, sample_weight, X_val, y_val = self._hold_out(X, y, sample_weight)
        if self.trials is not None:
            _windowing.check_weights(sample_weight)
        keep = self.keep_training_data and self.trials is None
        # The values are read from X where it holds them and nothing reads them
        # once grown: ranked there, no copy made.
        schema, target, data = self._prepare(
            X, y, sample_weight, with_sources=True,
            in_sources=self.trials is None and not (keep or self.soft_thresholds))
        classes = target.declared
        if data.n_cases * schema.n_features >= TRIM_CELLS:
            # The encoding's freed copies would stay resident beside the case
            # lists (their own mappings) through the peak of growing.
            _tree.release_heap()
        # A parameter that has no effect under the others: said at fit (the total
        # weight decides min_samples_split against a fraction of min_samples_leaf).
        _params.warn_inactive(self, dict(sample_weight=sample_weight, X_val=X_val_given,
                                         total_weight=data.total_weight), stacklevel=3)
        options = self._options(schema.n_features, data.total_weight)
        # Nothing is set on the estimator until the end (fit swaps it all in), and
        # every refusal comes before growing: the validation data is checked here.
        fitted = dict(_schema=schema, declared_classes_=classes, classes_=target.classes,
                      n_features_in_=schema.n_features,
                      categories_=[None if c is None else list(c)
                                   for c in schema.categories])
        if schema.names is not None:
            fitted["feature_names_in_"] = schema.names
        validation = (self._validation_rows(schema, classes, X_val, y_val)
                      if self.pruning == "reduced_error" and X_val is not None else None)
        pessimistic = self.pruning == "pessimistic"
        fitted["trials_"] = fitted["best_trial_"] = None
        fitted["_windowed"] = self.trials is not None
        fitted["_train_check"] = _fingerprint(data)
        cells = data.n_cases * schema.n_features        # the cells grown on
        if self.trials is not None:
            # Windowing: the trees of the best trial (c45/_windowing.py).
            trials, best = _windowing.fit_trials(self, schema, data, options)
            fitted["trials_"], fitted["best_trial_"] = trials, best
            grown, pruned = trials[best].grown, trials[best].pruned    # pruned: final
            order = None
        else:
            # The sorted values go once grown, unless something reads them after;
            # where X holds the values, before growing (read from X instead).
            if keep or self.soft_thresholds:
                data.forget_sources()
            else:
                data.values_from_sources()
            grown, pruned, order = _tree.build_tree(
                data, options, self._cf() if pessimistic else -1.0,
                bool(self.subtree_raising), self._threads(),
                release_values=not (keep or self.soft_thresholds))
        # A fitted model is its trees: the training data (about 1.75 times X once
        # encoded) is kept only when asked, for prune() without passing it again.
        fitted["_train"] = (data, order) if keep else None
        fitted["tree_"] = self._soften(
            pruned if self.trials is not None
            else self._finish_pruning(grown, pruned, schema, validation), data)
        del data, pruned        # not held beside the grown tree's delta being made
        if cells >= TRIM_CELLS:
            # pruning's freed buffers (below glibc's mmap threshold) would stay
            # resident beside the two trees and the delta's work
            _tree.release_heap()
        fitted["_grown"] = _grown.kept_grown(grown, fitted["tree_"])
        return cells, fitted

    def _soften(self, tree, data):
        """The final tree with its soft thresholds' bounds when soft_thresholds
        (computed on the training data, as Release 8's -p does after pruning)."""
        if not self.soft_thresholds:
            return tree
        from c45._soft import soft_bounds
        # float64 keeps each column sorted, with its ranks (read as they are: a
        # copy in row order would cost a gather per column)
        cont, rank = ((data.cont, None) if data.f32
                      else (np.asarray(data.sorted_value), np.asarray(data.rank)))
        lower, upper = soft_bounds(tree, cont, data.codes, data.col, data.y,
                                   data.init_weight, self.precision == "float32", rank)
        return tree.with_soft_bounds(lower, upper)

    def _hold_out(self, X, y, sample_weight):
        """Stratified split for reduced-error pruning: (X, y, w, X_val, y_val)."""
        # The checks fit makes, before the rows are taken apart.
        require_y(y)
        n = n_rows(X)
        target = encode_target(y, n)
        codes = target.codes
        self._check_weights(sample_weight, n, False, False)
        labels = np.asarray(y, dtype=object) if not hasattr(y, "dtype") else np.asarray(y)
        try:
            # train_test_split's rows (stratified, else plain), drawn in one pass
            grow_idx, val_idx = _split.hold_out_rows(
                codes, len(target.declared), labels,
                float(self.validation_fraction), self.random_state)
        except ValueError as exc:
            raise ValueError(f"pruning='reduced_error' holds out "
                             f"validation_fraction={self.validation_fraction!r} of "
                             f"the {n} rows: {exc}") from None
        # Every class keeps a case to grow on (classes_ is every class of y, as
        # scikit-learn has it): an unstratified split may hold out a small
        # class whole; one of its cases goes back.
        absent = _bulk.classes_left_out(codes, grow_idx.astype(np.int64, copy=False))
        if absent.size:
            back = np.array([val_idx[codes[val_idx] == c][0] for c in absent])
            grow_idx = np.sort(np.concatenate([grow_idx, back]))
            val_idx = np.setdiff1d(val_idx, back)

        def take(a, rows, mixed_list=True):
            # No np.ndim on the input: an array-like (not a list) is asked only
            # for its array, as fit asks it.
            if a is None or isinstance(a, (numbers.Number, np.generic)) or (
                    isinstance(a, np.ndarray) and a.ndim == 0):   # a scalar sample_weight
                return a
            if hasattr(a, "iloc"):
                return a.iloc[rows]
            if isinstance(a, list):
                # X's rows may mix kinds (kept as objects); y's labels were checked
                # to be of one kind and become the array fit makes of them.
                arr = np.asarray(a, dtype=object if mixed_list else None)
            else:
                arr = a if hasattr(a, "take") else np.asarray(a)
            return _bulk.take_rows(arr, rows) if isinstance(arr, np.ndarray) else arr.take(rows)

        return (take(X, grow_idx), take(y, grow_idx, False),
                take(sample_weight, grow_idx, False), take(X, val_idx),
                take(y, val_idx, False))

    def _finish_pruning(self, grown, pruned, schema, validation):
        """The final tree from the grown one by the pruning kind in force
        (validation: _validation_rows' of X_val, y_val for reduced error)."""
        if self.pruning == "pessimistic":
            if self.subset_splits:
                pruned = _pruning.subset_cleanup(pruned, schema.n_values)
            return pruned
        if self.pruning == "cost_complexity":
            return _pruning.cost_complexity(grown, float(self.ccp_alpha))
        if self.pruning == "reduced_error":
            if validation is None:
                raise ValueError("pruning='reduced_error' needs validation data: pass "
                                 "X_val and y_val")
            return _pruning.reduced_error(grown, self._route(grown, schema, validation))
        return grown

    def _validation_rows(self, schema, classes, X_val, y_val):
        """X_val encoded and y_val as codes of classes (the trees' order), refused
        here with a clear error: (cont, codes, y_codes)."""
        f32 = self.precision == "float32"
        cont, codes = encode_predict(schema, X_val, f32)
        refuse_sparse_or_masked(y_val, "y_val")
        # Labels of a numpy dtype are read as they are (tolist gives the Python
        # values an object array would hold): numpy zeroes an object array
        # with the GIL given up, a switch interval beside a busy thread.
        plain = (isinstance(getattr(y_val, "dtype", None), np.dtype)
                 and y_val.dtype.kind in "biufUS")
        y_arr = np.asarray(y_val) if plain else np.asarray(y_val, dtype=object)
        if y_arr.ndim == 2 and y_arr.shape[1] == 1:
            y_arr = y_arr[:, 0]
        if y_arr.ndim != 1:
            raise ValueError(f"y_val must be 1-dimensional, got shape {y_arr.shape}")
        if len(y_arr) != cont.shape[1]:
            raise ValueError(f"X_val has {cont.shape[1]} rows but y_val has {len(y_arr)}")
        lookup = {c: i for i, c in enumerate(classes)}
        y_codes = np.empty(len(y_arr), dtype=np.int32)
        for i, v in enumerate(y_arr.tolist() if plain else y_arr):
            try:
                y_codes[i] = lookup[v]
            except (KeyError, TypeError):          # TypeError: an unhashable label
                raise ValueError(f"y_val holds a class not seen in training: {v!r:.80} "
                                 f"(row {i})") from None
        return np.ascontiguousarray(cont), np.ascontiguousarray(codes), y_codes

    @staticmethod
    def _route(tree, schema, validation):
        cont, codes, y_codes = validation
        return _tree.route_weights(tree, cont, codes, schema.col, schema.n_values, y_codes)

    def _reach(self, tree, X_val, y_val):
        """Each class's weight of (X_val, y_val) reaching each node of tree."""
        return self._route(tree, self._schema, self._validation_rows(
            self._schema, self.declared_classes_, X_val, y_val))

    def prune(self, X=None, y=None, sample_weight=None, *, X_val=None, y_val=None,
              **params):
        """Prune again from the stored grown tree, without growing it again.

        ``params`` may set ``pruning``, ``confidence``, ``subtree_raising`` and
        ``ccp_alpha``; they are also stored on the estimator, so that the result is
        the tree ``fit`` gives with the new parameters. ``pruning="reduced_error"``
        needs ``X_val, y_val`` (a fit with them gives the same tree).

        Pessimistic pruning estimates errors on the training cases, which a fitted
        model does not keep: pass the same ``X, y`` (and ``sample_weight``) that
        ``fit`` had; they are checked to be the same data (shape, then a digest of
        the encoded values) and refused with the difference named otherwise. A
        model fitted with ``keep_training_data=True`` kept them and needs none.
        With ``precision="float32"`` the tree is grown once more to recover the
        order Release 8's arithmetic leaves the cases in (the same tree, checked),
        unless the data were kept. Cost-complexity, reduced-error and no pruning
        need no training data, unless ``soft_thresholds=True``: the pruned
        tree's bounds are computed on them."""
        check_is_fitted(self, "tree_")
        # _windowed: the trees came from windowing; a model loaded from a model
        # file has it (from the file's trials parameter) but no trials_.
        if getattr(self, "_windowed", False) or getattr(self, "trials_", None) is not None:
            raise ValueError("this model's trees were chosen among its windowing trials "
                             "by their pessimistic pruning: prune() cannot prune them "
                             "again; refit with the new parameters instead")
        if self.trials is not None:
            raise ValueError(f"trials={self.trials!r} asks for windowing, which only fit "
                             f"does: refit with the new parameters instead")
        unknown = set(params) - set(_PRUNE_PARAMS)
        if unknown:
            raise ValueError(f"prune() accepts only {list(_PRUNE_PARAMS)}; {sorted(unknown)} "
                             f"change how the tree grows: refit instead")
        if (X is None) != (y is None):
            raise ValueError("give both X and y (the training data), or neither")
        # The new parameters go on a copy of the state, which the pruning reads;
        # they come into the model with the tree they give, in one step: a thread
        # reading the model meanwhile (predict, pickle, get_params) sees the old
        # parameters with the old tree, and a refusal or Ctrl-C changes nothing.
        work = object.__new__(type(self))
        work.__dict__ = dict(self.__dict__)
        # (pruning the fitted trees: as they were fitted, whatever set_params said)
        work.__dict__.update(self.__dict__.get("_fitted_with", {}))
        work.set_params(**params)
        work._check_params()
        _params.warn_inactive(work, only=params, stacklevel=2)
        with fresh_pages():     # (its arrays' first touch, as fit's: c45/_fresh.pyx)
            pruned = data = None
            validation = None
            grown = work.grown_tree_        # made once, held until the new state is in
            if work.pruning == "reduced_error" and X_val is not None:   # refused first
                validation = work._validation_rows(work._schema, work.declared_classes_,
                                                   X_val, y_val)
            if work.pruning == "pessimistic":
                data, order = work._training_data(X, y, sample_weight)
                pruned = _tree.prune_tree(data, work._options(work.n_features_in_,
                                                              data.total_weight),
                                          grown, order, work._cf(),
                                          bool(work.subtree_raising), work._threads())
            final = work._finish_pruning(grown, pruned, work._schema, validation)
            if work.soft_thresholds:        # the bounds are the training data's
                if data is None:
                    data, _ = work._training_data(
                        X, y, sample_weight,
                        why="recomputing the bounds of soft_thresholds=True")
                final = work._soften(final, data)
            kept = _grown.kept_grown(grown, final)
        # The new parameters, final tree and grown one kept against it, in one step.
        state = dict(self.__dict__)
        state.update({k: work.__dict__[k] for k in _PRUNE_PARAMS})
        state.update(tree_=final, _grown=kept)
        self.__dict__ = state
        return self

    def _training_data(self, X, y, sample_weight, why="pessimistic pruning"):
        """(data, case order after growing) for pessimistic pruning (or what
        `why` names, as the errors say it): the kept training data, or (X, y,
        sample_weight) checked to be the fit's."""
        if X is None:
            if getattr(self, "_train", None) is None:
                raise ValueError(
                    f"{why} needs the training cases: pass them, "
                    "clf.prune(X, y[, sample_weight], ...), or fit with "
                    "keep_training_data=True (the model then holds them: about 1.75 "
                    "times the size of X)")
            return self._train
        check = getattr(self, "_train_check", None)
        if check is None:
            raise ValueError("this model was loaded from a model file, which does not "
                             "record a digest of its training data to check them "
                             f"against: fit it again ({why} needs the training "
                             f"cases)")
        schema, target, data = self._prepare(X, y, sample_weight)
        classes = target.declared
        got = _fingerprint(data, like=check)
        for what, a, b in (("rows (of positive weight)", got[0], check[0]),
                           ("features", got[1], check[1])):
            if a != b:
                raise ValueError(f"prune(X, y) needs the training data of fit: it had "
                                 f"{b} {what}, these have {a}")
        if list(classes) != list(self.declared_classes_):
            raise ValueError(f"prune(X, y) needs the training data of fit: its classes "
                             f"were {list(self.declared_classes_)}, y has {list(classes)}")
        if got != check:
            raise ValueError("prune(X, y) needs the training data of fit: these have "
                             "the same shape but other values, labels or weights (or "
                             "another row order)")
        if self.precision == "float32":
            grown, _, order = _tree.build_tree(data, self._options(schema.n_features,
                                                                   data.total_weight),
                                               -1.0, True, 1)
            if not _same_arrays(grown, self.grown_tree_):
                raise ValueError("growing again on these data gives another tree: "
                                 "refit instead")
        else:
            order = np.arange(data.n_cases, dtype=np.int32)   # float64: row order
        return data, order

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The alphas at which ``pruning="cost_complexity"`` changes the tree, in
        scikit-learn's form: ``Bunch(ccp_alphas, impurities)``, impurities being the
        total leaf entropy (bits, weighted by the leaves' share of the cases)."""
        if self.trials is not None:
            raise ValueError(
                f"cost_complexity_pruning_path grows the tree without pruning, which "
                f"windowing cannot (trials={self.trials!r} keeps the trial of best "
                f"pessimistic estimate, and pruning='cost_complexity' takes no "
                f"trials): set trials=None")
        with warnings.catch_warnings():
            # The pruning parameters are idle in this unpruned fit by design.
            warnings.simplefilter("ignore", _params.InactiveParameterWarning)
            # The grown tree alone: no soft bounds, no data kept for prune().
            grown = C45Classifier(**{**self.get_params(), "pruning": None,
                                     "soft_thresholds": False,
                                     "keep_training_data": False}).fit(
                X, y, sample_weight).grown_tree_
        alphas, impurities = _pruning.pruning_path(grown)
        return Bunch(ccp_alphas=alphas, impurities=impurities)

    @property
    def grown_tree_(self):
        """The tree before pruning (kept as what sets it apart from ``tree_``)."""
        kept = self.__dict__.get("_grown")
        if kept is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                 f"'grown_tree_'")
        return _grown.grown_of(kept)

    @grown_tree_.setter
    def grown_tree_(self, tree):
        self.__dict__["_grown"] = tree

    @grown_tree_.deleter
    def grown_tree_(self):
        if self.__dict__.pop("_grown", None) is None:
            raise AttributeError("grown_tree_")

    def __getstate__(self):
        # A copy: pickling (joblib.dump, copy.deepcopy) must not change the model.
        state = canonical_arrays(super().__getstate__())
        state.pop("_train", None)       # the training data stays out of pickles
        # The grown tree (a Tree, or a GrownDelta against tree_) under its public
        # name, in its place (a round trip pickles to the same bytes).
        state = {("grown_tree_" if k == "_grown" else k): v for k, v in state.items()}
        if "tree_" in state:
            state["_pickle_format"] = PICKLE_FORMAT
        return state

    def __setstate__(self, state):
        if not isinstance(state, dict):
            raise ValueError(f"c45: the pickled C45Classifier's state is a "
                             f"{type(state).__name__}, not a dict")
        fmt = state.get("_pickle_format", PICKLE_FORMAT if "tree_" not in state else None)
        if "tree_" in state and fmt not in PICKLE_FORMATS_READ:
            from c45 import __version__
            raise ValueError(
                f"this C45Classifier was pickled in c45 model format {fmt!r}; c45 "
                f"{__version__} reads formats {', '.join(map(str, PICKLE_FORMATS_READ))} "
                f"only. Load it with the c45 version that saved it and re-save it with "
                f"c45.to_json, or refit.")
        if "tree_" in state and fmt != 1 and "declared_classes_" not in state:
            raise ValueError(f"c45: the pickled model (format {fmt}) has no "
                             f"declared_classes_")
        if "tree_" in state:
            checked = checked_fitted_state(state)
            state = {("_grown" if k == "grown_tree_" else k): v for k, v in state.items()
                     if k != "_grown"}
            state.update(checked)
        # Made and checked on a fresh estimator, then swapped in as one dict (as
        # fit's state is): called on a live one (pickle never does), a thread
        # reading it sees the old state or the new one, and a refused state or
        # the old state's other keys are never left in it.
        fresh = object.__new__(type(self))
        super(C45Classifier, fresh).__setstate__(state)
        if "tree_" in state:
            fresh._check_unpickled_params()
        self.__dict__ = fresh.__dict__

    def _prepare(self, X, y, sample_weight, with_sources=False, in_sources=False):
        """Validate and encode the training data: (schema, Target, TrainingData).
        with_sources: float64 data carry the views of X's columns its values were
        read from, where every continuous one is one (TrainingData.sources).
        in_sources besides: nothing reads the values once grown, and they are
        ranked where they lie, no copy made (TrainingData.sorted_digest);
        float32 on the lists reads them there too (_layout)."""
        f32 = self.precision == "float32"
        require_y(y)
        # float32 reads X itself only where it grows on the lists (_layout)
        sources = [] if with_sources and (in_sources or not f32) else None
        schema, cont, codes = encode_fit(X, self.categorical_features, f32, sources,
                                         copy=not in_sources)
        sources = sources or None
        n = codes.shape[1]
        target = encode_target(y, n)
        classes, y_codes = target.declared, target.codes
        self._check_limits(schema, classes, n)
        weight, count_mode = self._check_weights(
            self._class_weighted(sample_weight, classes, y_codes, n), n, f32,
            self.normalize_sample_weight)
        if _bulk.count_positive(weight) < n:
            if cont is None:        # X's rows are not the cases: a copy after all
                cont = values_of(schema, sources, n, f32)
            keep = weight > 0
            # compress, not cont[:, keep]: its result is C-ordered, so the copy
            # below is not made (a second copy of the values, freed at once).
            cont, codes, y_codes, weight = (np.compress(keep, cont, axis=1),
                                            np.compress(keep, codes, axis=1),
                                            y_codes[keep], weight[keep])
            sources = None          # (X's rows are not the cases any more)
        cont = cont if cont is None else np.ascontiguousarray(cont)
        codes = np.ascontiguousarray(codes)
        n_values = schema.n_values
        # N of the many-valued test: the total weight, summed in case order as C4.5 does.
        total = _bulk.sequential_total(weight, f32)
        multival = bool(np.all(schema.discrete) and np.all(n_values >= 0.3 * total))
        min_objs = _params.case_weight(self.min_samples_leaf, total)
        if (sample_weight is not None and not _params.is_fraction(self.min_samples_leaf)
                and total < 2 * min_objs and len(np.unique(y_codes)) > 1):
            warnings.warn(
                f"the total sample weight ({total:g}) is below 2 * min_samples_leaf "
                f"({2 * min_objs:g}), so the tree is a single leaf: min_samples_leaf is "
                f"in units of case weight (C4.5's -m). For relative weights (AdaBoost's "
                f"sum to 1) set normalize_sample_weight=True.", UserWarning,
                stacklevel=4)
        y_codes = np.ascontiguousarray(y_codes, np.int32)
        if cont is None and not f32:
            # X's own columns ranked: no table of sorted values (the fit reads
            # the few values it needs from X, TrainingData.by_source)
            ranks, n_known, far, facts, lanes = rank_tables_from(schema, sources, n,
                                                                 self._threads())
            _warn_fine_features(schema, None, (facts[:, 0], facts[:, 1]), sources)
            layout = dict(cont=None, rank=ranks, n_known=n_known, far=far,
                          sources=sources, sorted_digest=lanes)
            _warn_dense_features(schema, dict(layout, facts=facts))
        else:
            layout = self._layout(schema, cont, codes, weight, sources)
            facts = layout.pop("facts", None)
            if facts is None:
                _warn_fine_features(schema, cont if cont is not None else layout["cont"])
                _warn_dense_features(schema, layout)
            else:
                # float32 reading X itself: what its sort read of the values
                _warn_fine_features(schema, None, (facts[:, 0], facts[:, 1]), sources, f32)
                _warn_dense_features(schema, dict(facts=facts, n_known=layout["n_known"]))
        data = _tree.TrainingData(
            codes=codes, col=schema.col, n_values=n_values, y=y_codes, n_classes=len(classes),
            init_weight=weight, f32=f32, count_mode=count_mode,
            total_weight=total, multival=multival, **layout)
        return schema, target, data

    def _layout(self, schema, cont, codes, weight, sources):
        """The training data's tables of the continuous values (cont, encoded;
        float32: None where they are X's own columns, sources): TrainingData's
        arguments, and where float32 reads X itself, facts (rank_tables_from's)
        for the warnings."""
        f32 = self.precision == "float32"
        if f32:
            # Release 8's way: the values, and each feature's distinct values.
            # Where R8's case order changes no bit, each feature's order instead:
            # it grows on the presorted lists. (max_features draws at each node
            # in R8's order of nodes; windowing carries the case order from
            # trial to trial.)
            in_order = (self.trials is not None or 0 < _params.max_features_count(
                self.max_features, schema.n_features) < schema.n_features)
            listed = not in_order and exact_in_any_order(schema, cont, codes, weight)
            if listed and cont is None and all(a is None or a.dtype == np.float64
                                               for a in sources):
                # On the lists the values are read by row, from X's own float64
                # columns as well as from a copy: none is made (1x X's bytes)
                found = value_orders_from(schema, sources, codes.shape[1])
                if found is not None:
                    order, n_known, facts, lanes = found
                    return dict(cont=None, order=order, n_known=n_known, sources=sources,
                                values_digest=lanes, facts=facts)
                listed = False              # (an unknown value)
            if cont is None:
                cont = values_of(schema, sources, codes.shape[1], f32)
            if listed:
                order, n_known = value_orders(schema, cont)
                layout = dict(cont=cont, order=order, n_known=n_known)
            else:
                distinct, distinct_start = distinct_values(schema, cont, np.float32)
                layout = dict(cont=cont, distinct=distinct, distinct_start=distinct_start)
        else:
            ranks, sorted_values, n_known, far = rank_tables(schema, cont, self._threads())
            layout = dict(cont=None, rank=ranks, sorted_value=sorted_values, n_known=n_known,
                          far=far, sources=sources)
        return layout

    def _check_limits(self, schema, classes, n):
        if n > MAX_CASES:
            raise ValueError(f"X has {n} rows; c45 handles at most {MAX_CASES}")
        if len(classes) > MAX_CLASSES:
            raise ValueError(f"y has {len(classes)} classes; c45 handles at most "
                             f"{MAX_CLASSES}")
        names = schema.names
        for j, cats in enumerate(schema.categories):
            if cats is None:
                continue
            label = f"column {names[j]!r}" if names is not None else f"column {j}"
            if len(cats) > MAX_CATEGORIES:
                raise ValueError(f"X {label} has {len(cats)} categories; c45 handles at "
                                 f"most {MAX_CATEGORIES} per feature")
            if self.subset_splits and len(cats) > MAX_SUBSET_CATEGORIES:
                raise ValueError(
                    f"X {label} has {len(cats)} categories: subset_splits=True groups at "
                    f"most {MAX_SUBSET_CATEGORIES} (C4.5's value grouping takes time cubic "
                    f"in the categories); leave the feature out of subset_splits by "
                    f"encoding it differently, or use subset_splits=False")

    def _class_weighted(self, sample_weight, classes, y_codes, n):
        """sample_weight times the class weights of class_weight (scikit-learn's
        compute_sample_weight), checked first as sample_weight alone."""
        if self.class_weight is None:
            return sample_weight
        per_case = _params.class_sample_weight(self.class_weight, classes, y_codes)
        if sample_weight is None:
            return per_case
        return self._check_weights(sample_weight, n, False, False)[0] * per_case

    @staticmethod
    def _check_weights(sample_weight, n, f32, normalize):
        if sample_weight is None:
            return _bulk.unit_weights(n), True
        refuse_sparse_or_masked(sample_weight, "sample_weight")
        w = list_array(sample_weight)
        if w.ndim != 0 and (w.ndim != 1 or len(w) != n):
            raise ValueError(f"sample_weight must have shape ({n},), got {w.shape}")
        if w.dtype.kind == "c":             # astype would drop the imaginary parts
            raise ValueError("sample_weight must be real numbers, got complex ones")
        try:
            # a float64 array is read in place (copied by weight_facts)
            w = (np.ascontiguousarray(w) if w.dtype == np.float64 and w.ndim == 1
                 else w.astype(np.float64))
        except OverflowError:               # an int list holding 10**400
            raise ValueError("sample_weight holds a number beyond float64") from None
        except (TypeError, ValueError):
            raise ValueError("sample_weight must be numeric") from None
        if w.ndim == 0:
            w = np.full(n, w)
        # the checks in one compiled pass (numpy's calls each give the GIL up)
        w, bad, negative, positive, total, ones = _bulk.weight_facts(w)
        if bad >= 0:
            raise ValueError(f"sample_weight must be finite; row {bad} holds {w[bad]}")
        if negative >= 0:
            raise ValueError(f"sample_weight must be non-negative; row {negative} holds "
                             f"{w[negative]}")
        if not positive:
            raise ValueError("sample_weight is zero for every row; nothing to learn from")
        if not np.isfinite(total):
            raise ValueError(f"sample_weight sums to {total} (more than float64 holds); "
                             f"scale the weights down (C4.5 reads them as case counts)")
        if normalize:
            # Over the nonzero weights only, so that zero rows change no bit.
            positive = w[w > 0]
            with np.errstate(over="ignore"):
                scale = len(positive) / positive.sum()
            # Subnormal weights: the scale overflows, their shares do not.
            w = w * scale if np.isfinite(scale) else w / positive.sum() * len(positive)
        if f32:
            with np.errstate(over="ignore", under="ignore"):
                w32 = w.astype(np.float32)
                # float32 sums of the weights, as fit (np.cumsum(w32)[-1])
                total32 = _bulk.sequential_total(np.ascontiguousarray(w), True)
            lost = (w > 0) & (w32 == 0)
            if lost.any():
                i = int(np.flatnonzero(lost)[0])
                raise ValueError(f"sample_weight row {i} holds {w[i]}, which is 0 in "
                                 f"float32 (precision='float32'); scale the weights up "
                                 f"or use precision='float64'")
            if not np.isfinite(total32):
                raise ValueError(f"sample_weight sums to more than float32 holds "
                                 f"(precision='float32'); scale the weights down or use "
                                 f"precision='float64'")
            w = w32.astype(np.float64)
        if normalize or f32:
            return w, bool(np.all(w[w > 0] == 1.0))
        return w, ones

    # -- prediction --------------------------------------------------------
    def _fitted(self):
        """The fitted state, read once by each prediction: fit swaps in a new
        state dict in one step, so what a call reads from this one (tree, schema,
        classes) belongs to one model however other threads refit meanwhile."""
        fitted = self.__dict__
        if "tree_" not in fitted:
            check_is_fitted(self, "tree_")      # its NotFittedError
        return fitted

    def _sums(self, X, tree=None, fitted=None, classes_only=False, proba=False,
              found=None):
        """The class sums of C4.5's classification of each row by `tree` (the
        final one) of the fitted state `fitted` (read now), (m, k); with
        classes_only, each row's class index instead (first of largest sum); with
        proba, each row of sums divided by its total. With found (the model's
        ClassMap), both are of classes_ rather than declared_classes_."""
        with fresh_pages_for(X):                # (c45/_fresh.pyx)
            return self._sums_of(X, tree, fitted, classes_only, proba, found)

    def _sums_of(self, X, tree, fitted, classes_only, proba, found):
        fitted = self._fitted() if fitted is None else fitted
        tree = fitted["tree_"] if tree is None else tree
        self._check_predict_params()
        f32 = self._fit_value("precision", fitted) == "float32"
        schema = fitted["_schema"]
        plain = plain_rows(schema, X, f32)
        maps = ({} if found is None or found.in_order
                else {"held": found.position} if classes_only
                else {"columns": found.columns})
        if plain is not None:
            # Every feature continuous, X float64 values: read them in place.
            rows, rows_first = plain
            return _tree.predict_sums(tree, rows, _NO_CODES, schema.col, schema.n_values,
                                      f32, bool(self.laplace),
                                      self._predict_threads(rows.shape[0 if rows_first
                                                                       else 1]),
                                      rows_first, classes_only, proba, **maps)
        cont, codes = encode_predict(schema, X, f32)
        return _tree.predict_sums(tree, np.ascontiguousarray(cont),
                                  np.ascontiguousarray(codes), schema.col,
                                  schema.n_values, f32, bool(self.laplace),
                                  self._predict_threads(cont.shape[1]), False,
                                  classes_only, proba, **maps)

    def predict_proba(self, X, tree="final"):
        """Class probabilities: the leaves' class distributions reached by each row,
        weighted by the fractions of C4.5's descent on unknown values; one column
        per entry of ``classes_``.

        ``tree="grown"`` uses the tree before pruning (``grown_tree_``)."""
        fitted = self._fitted()
        tree = self._pick_tree(tree, fitted)
        # A declared class y held no case of has no column: it has no training
        # weight (laplace alone gives it a share), the others' sums are normalised.
        return self._sums(X, tree, fitted, proba=True, found=class_map(fitted))

    def _proba_declared(self, X, tree="final"):
        """predict_proba with a column per entry of ``declared_classes_``, in its
        order (C4.5's: the columns of Release 8's output; a class y held no case
        of has probability 0, or its share of laplace)."""
        fitted = self._fitted()
        return self._sums(X, self._pick_tree(tree, fitted), fitted, proba=True)

    def predict_log_proba(self, X, tree="final"):
        """The logarithm of :meth:`predict_proba` (-inf where it is 0, as
        scikit-learn's trees give it)."""
        with np.errstate(divide="ignore"):
            return _bulk.elementwise(np.log, self.predict_proba(X, tree=tree))

    def predict(self, X, tree="final"):
        """Most probable class (C4.5's classification: the class of largest class
        sum, ties to the first class of ``declared_classes_``), a label of
        ``classes_``.

        ``tree="grown"`` uses the tree before pruning (``grown_tree_``)."""
        fitted = self._fitted()
        tree = self._pick_tree(tree, fitted)
        # A declared class y held no case of has no weight, but ties where every
        # sum is 0 (or with laplace's share): the first largest sum among the
        # classes y held, in C4.5's order.
        with fresh_pages_for(X):                # (c45/_fresh.pyx)
            index = self._sums_of(X, tree, fitted, True, False, class_map(fitted))
            return _bulk.take_labels(fitted["classes_"], index)

    def _rows(self, X):
        fitted = self._fitted()
        self._check_predict_params()
        schema = fitted["_schema"]
        cont, codes = encode_predict(schema, X, self._fit_value("precision", fitted) == "float32")
        return (fitted["tree_"], np.ascontiguousarray(cont), np.ascontiguousarray(codes),
                schema.col, schema.n_values)

    def apply(self, X):
        """Index of the leaf each row reaches. A row with unknown (or unseen)
        values that C4.5 sends down several branches reaches several leaves; the
        leaf receiving the largest share of its weight is returned (the first in
        branch order on a tie). ``decision_path`` shows all of them."""
        with fresh_pages_for(X):                # (c45/_fresh.pyx)
            return _tree.apply_rows(*self._rows(X))

    def decision_path(self, X):
        """Sparse indicator (n_samples, node_count) of the nodes each row visits;
        with unknown values a row visits every branch it is shared among."""
        from scipy.sparse import csr_matrix
        # int32 indptr like nodes (when they fit), int8 data, made in the walks:
        # scipy then neither scans nor casts them (numpy calls, each handing the
        # GIL to any other busy thread)
        with fresh_pages_for(X):                # (c45/_fresh.pyx)
            indptr, nodes, ones = _tree.visit_rows(*self._rows(X), weights=False,
                                                   indicator=True)
        return csr_matrix((ones, nodes, indptr),
                          shape=(len(indptr) - 1, self.tree_.node_count), copy=False)

    @property
    def feature_importances_(self):
        """Total information gain of each feature's tests in ``tree_``, normalised
        to sum to 1: for every test, its weight times the entropy drop from the
        node to its children (bits, from the class weights stored in the tree, so
        the fractional cases of unknown values count as C4.5 counts them), before
        gain ratio and before the MDL penalty."""
        check_is_fitted(self, "tree_")
        t = self.tree_
        info = _pruning.leaf_information(t)
        out = np.zeros(self.n_features_in_)
        for i in np.flatnonzero(t.kind != 0):
            s = t.first_child[i]
            out[t.feature[i]] += info[i] - info[s:s + t.n_children[i]].sum()
        out = np.maximum(out, 0.0)
        total = out.sum()
        return out / total if total > 0 else out

    @staticmethod
    def _pick_tree(tree, fitted):
        if tree == "final":
            return fitted["tree_"]
        if tree == "grown":
            return _grown.grown_of(fitted["_grown"])
        raise ValueError(f"tree must be 'final' or 'grown', got {tree!r}")

    # -- structure ---------------------------------------------------------
    def get_depth(self):
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self):
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves
