"""C45Classifier: the scikit-learn face of the C4.5 Release 8 core."""
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from c45 import _tree
from c45._encode import encode_fit, encode_predict, encode_target

_PRUNING = (None, "pessimistic")
_PRECISION = ("float64", "float32")


def _round32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


class C45Classifier(ClassifierMixin, BaseEstimator):
    """Quinlan's C4.5 Release 8 decision tree.

    Gain-ratio splits, multiway tests on discrete (categorical) features, binary
    cuts on continuous ones, unknown values handled as fractional cases, and
    pessimistic pruning with subtree raising, as C4.5 Release 8 does them.

    Parameters
    ----------
    min_samples_leaf : float, default=2
        C4.5's ``-m`` (MINOBJS), in case weight: a test needs at least two
        branches with this much weight, and a node lighter than twice it is a leaf.
    confidence : float in (0, 1], default=0.25
        C4.5's ``-c`` (CF, as a fraction): smaller prunes more.
    pruning : {"pessimistic", None}, default="pessimistic"
        ``None`` keeps the grown tree (C4.5's "Before Pruning" tree, with the
        subtrees that do not reduce training errors collapsed, as C4.5 does).
    subtree_raising : bool, default=True
        Let pruning replace a node by its largest branch (C4.5 always does;
        J48's ``-S`` turns it off).
    categorical_features : "auto", list of int or str, bool mask, or None, default="auto"
        Discrete features. ``"auto"``: pandas category/object/string/bool columns
        and numpy object columns holding strings are discrete, numeric columns are
        continuous. A pandas Categorical's declared categories are the branches, in
        their order, unused ones included; otherwise the sorted values seen in
        training are.
    precision : {"float64", "float32"}, default="float64"
        ``"float32"`` reproduces C4.5 Release 8 bit for bit, with its
        single-precision arithmetic and ties. ``"float64"`` runs the same
        algorithm in double precision.
    max_depth : int or None, default=None
        Make nodes at this depth leaves (the root has depth 0). Not part of C4.5.
    normalize_sample_weight : bool, default=False
        C4.5 reads case weights as case counts: ``min_samples_leaf``, the MDL
        penalty and the pruning estimates depend on their scale, and weight 2 is
        the same as a repeated row. Set True for relative weights (AdaBoost's sum
        to 1): they are rescaled to sum to the number of rows with nonzero weight.

    Attributes
    ----------
    classes_ : ndarray
        Class labels: sorted unique labels of y, or the declared categories of a
        pandas Categorical y (C4.5's class order, used for tie-breaking).
    n_features_in_ : int
    feature_names_in_ : ndarray of str (only for DataFrame input)
    categories_ : list
        Per feature, ``None`` for a continuous one, else the list of categories;
        branch ``b`` of a test on the feature holds ``categories_[f][b]``.
    tree_ : Tree
        The fitted tree (pruned unless ``pruning=None``), as flat node arrays.
    grown_tree_ : Tree
        The tree before pruning.

    Notes
    -----
    Unknown values (NaN or None) go down every branch of a test with a weight
    proportional to the branch's training weight, in fitting and in prediction.
    A category that training never saw is treated as unknown in the same way.
    Ties go to the lower feature index, the first cut and the lower class index.

    Examples
    --------
    >>> from c45 import C45Classifier
    >>> X = [[64.0], [65.0], [68.0], [69.0], [70.0], [71.0]]
    >>> y = ["no", "no", "no", "yes", "yes", "yes"]
    >>> C45Classifier().fit(X, y).predict([[66.0], [72.0]]).tolist()
    ['no', 'yes']
    """

    def __init__(self, min_samples_leaf=2, confidence=0.25, pruning="pessimistic",
                 subtree_raising=True, categorical_features="auto",
                 precision="float64", max_depth=None, normalize_sample_weight=False):
        self.min_samples_leaf = min_samples_leaf
        self.confidence = confidence
        self.pruning = pruning
        self.subtree_raising = subtree_raising
        self.categorical_features = categorical_features
        self.precision = precision
        self.max_depth = max_depth
        self.normalize_sample_weight = normalize_sample_weight

    # -- parameters --------------------------------------------------------
    def _check_params(self):
        if self.precision not in _PRECISION:
            raise ValueError(f"precision must be 'float64' or 'float32', got "
                             f"{self.precision!r}")
        if self.pruning not in _PRUNING:
            raise ValueError(f"pruning must be 'pessimistic' or None, got "
                             f"{self.pruning!r}")
        m = self.min_samples_leaf
        if (not isinstance(m, numbers.Real) or isinstance(m, bool)
                or not np.isfinite(m) or m <= 0):
            raise ValueError(f"min_samples_leaf must be a positive number (case "
                             f"weight), got {m!r}")
        c = self.confidence
        if (not isinstance(c, numbers.Real) or isinstance(c, bool)
                or not 0 < c <= 1):
            raise ValueError(f"confidence must be in (0, 1], got {c!r}")
        d = self.max_depth
        if d is not None and (not isinstance(d, numbers.Integral) or isinstance(d, bool)
                              or d < 0):
            raise ValueError(f"max_depth must be None or a non-negative integer, "
                             f"got {d!r}")
        for name in ("subtree_raising", "normalize_sample_weight"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got "
                                 f"{getattr(self, name)!r}")

    # -- fitting -----------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y) and prune it.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Continuous and discrete features; NaN/None are unknown values.
        y : array-like of shape (n_samples,)
            Class labels of any type (a pandas Categorical keeps its class order).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative case weights (C4.5's case counts are multiplied by them).
            Rows of weight 0 are ignored entirely.
        """
        schema, classes, data = self._prepare(X, y, sample_weight)
        grown, pruned = _tree.build_tree(
            data, -1 if self.max_depth is None else int(self.max_depth),
            self.pruning == "pessimistic", self._cf(self.precision == "float32"),
            bool(self.subtree_raising))
        self._schema = schema
        self.classes_ = classes
        self.n_features_in_ = schema.n_features
        if schema.names is not None:
            self.feature_names_in_ = schema.names
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.categories_ = [None if c is None else list(c) for c in schema.categories]
        self.grown_tree_ = grown
        self.tree_ = pruned if pruned is not None else grown
        return self

    def _prepare(self, X, y, sample_weight):
        """Validate and encode the training data: (schema, classes, data tuple)."""
        self._check_params()
        f32 = self.precision == "float32"
        if y is None:
            raise ValueError("C45Classifier requires y to be passed, but the target y "
                             "is None")
        schema, cont, codes = encode_fit(X, self.categorical_features, f32)
        classes, y_codes = encode_target(y, cont.shape[1])
        n = cont.shape[1]
        weight, count_mode = self._check_weights(sample_weight, n, f32,
                                                 self.normalize_sample_weight)
        keep = weight > 0
        if not keep.all():
            cont, codes, y_codes, weight = (cont[:, keep], codes[:, keep],
                                            y_codes[keep], weight[keep])
        cont = np.ascontiguousarray(cont)
        codes = np.ascontiguousarray(codes)
        distinct, distinct_start = self._distinct_values(schema, cont)
        n_values = schema.n_values
        # N of the many-valued test: the total weight, summed in case order as C4.5 does.
        total = float(np.cumsum(weight.astype(np.float32) if f32 else weight)[-1])
        multival = bool(np.all(schema.discrete) and np.all(n_values >= 0.3 * total))
        min_objs = float(_round32(self.min_samples_leaf)) if f32 else float(self.min_samples_leaf)
        if sample_weight is not None and total < 2 * min_objs and len(np.unique(y_codes)) > 1:
            warnings.warn(
                f"the total sample weight ({total:g}) is below 2 * min_samples_leaf "
                f"({2 * min_objs:g}), so the tree is a single leaf: min_samples_leaf is "
                f"in units of case weight (C4.5's -m). For relative weights (AdaBoost's "
                f"sum to 1) set normalize_sample_weight=True.", UserWarning,
                stacklevel=3)
        data = (cont, codes, schema.col, n_values, np.ascontiguousarray(y_codes, np.int32),
                len(classes), np.ascontiguousarray(weight), distinct, distinct_start, f32,
                count_mode, min_objs, total, multival)
        return schema, classes, data

    def _cf(self, f32):
        if not f32:
            return float(self.confidence)
        # C4.5 reads -c as a percentage: CF = r32(r32(pct) / 100).
        pct = np.float32(float(self.confidence) * 100.0)
        return float(np.float32(pct / np.float32(100.0)))

    @staticmethod
    def _check_weights(sample_weight, n, f32, normalize):
        if sample_weight is None:
            return np.ones(n, dtype=np.float64), True
        w = np.asarray(sample_weight)
        if w.ndim == 0:
            w = np.full(n, float(w))
        if w.ndim != 1 or len(w) != n:
            raise ValueError(f"sample_weight must have shape ({n},), got {w.shape}")
        try:
            w = w.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError("sample_weight must be numeric") from None
        bad = ~np.isfinite(w)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"sample_weight must be finite; row {i} holds {w[i]}")
        if (w < 0).any():
            i = int(np.flatnonzero(w < 0)[0])
            raise ValueError(f"sample_weight must be non-negative; row {i} holds {w[i]}")
        if not (w > 0).any():
            raise ValueError("sample_weight is zero for every row; nothing to learn from")
        if normalize:
            w = w * (np.count_nonzero(w) / w.sum())
        if f32:
            w = _round32(w)
        return w, bool(np.all(w[w > 0] == 1.0))

    @staticmethod
    def _distinct_values(schema, cont):
        parts, starts = [], [0]
        for j in range(schema.n_features):
            if schema.discrete[j]:
                vals = np.empty(0)
            else:
                x = cont[schema.col[j]]
                vals = np.unique(x[~np.isnan(x)])
            parts.append(vals)
            starts.append(starts[-1] + len(vals))
        distinct = np.concatenate(parts + [np.zeros(1)]).astype(np.float64)
        return distinct, np.asarray(starts, dtype=np.int64)

    # -- prediction --------------------------------------------------------
    def _sums(self, X, tree=None):
        check_is_fitted(self, "tree_")
        f32 = self.precision == "float32"
        cont, codes = encode_predict(self._schema, X, f32)
        return _tree.predict_sums(self.tree_ if tree is None else tree,
                                  np.ascontiguousarray(cont),
                                  np.ascontiguousarray(codes), self._schema.col, f32)

    def predict_proba(self, X, tree="final"):
        """Class probabilities: the leaves' class distributions reached by each row,
        weighted by the fractions of C4.5's descent on unknown values.

        ``tree="grown"`` uses the tree before pruning (``grown_tree_``)."""
        sums = self._sums(X, self._pick_tree(tree))
        total = sums.sum(axis=1, keepdims=True)
        return sums / np.where(total > 0, total, 1.0)

    def predict(self, X, tree="final"):
        """Most probable class (C4.5's classification; ties to the first class).

        ``tree="grown"`` uses the tree before pruning (``grown_tree_``)."""
        proba = self.predict_proba(X, tree)
        return self.classes_.take(np.argmax(proba, axis=1))

    def _pick_tree(self, tree):
        check_is_fitted(self, "tree_")
        if tree == "final":
            return self.tree_
        if tree == "grown":
            return self.grown_tree_
        raise ValueError(f"tree must be 'final' or 'grown', got {tree!r}")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True        # NaN/None are C4.5's unknown values
        tags.input_tags.categorical = True      # discrete features, multiway tests
        tags.input_tags.string = True           # string categories
        return tags

    # -- structure ---------------------------------------------------------
    def get_depth(self):
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self):
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves
