"""C45RulesClassifier: the scikit-learn face of c4.5rules (c45.rules._builder)."""
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.validation import check_is_fitted

from c45 import _bulk, _params
from c45._classifier import (Accuracy, C45Classifier, ClassCounts, InputTags, class_map,
                             require_y)
from c45._encode import encode_predict, encode_target, plain_rows
from c45.rules._builder import RuleBuilder
from c45.rules._log import PruningLog, pruning_log, trace_rows
from c45.rules._ruleset import firing, pack_ruleset, rule_classes
from c45.rules._state import checked_assigned_rules, checked_rules_state


class C45RulesClassifier(InputTags, ClassCounts, Accuracy, ClassifierMixin, _params.Parameters,
                         BaseEstimator, parameters=_params.RULES):
    """C4.5 Release 8's production rules (``c4.5rules``) as a classifier.

    A tree is grown exactly as :class:`C45Classifier` grows it; its *unpruned*
    form is turned into rules as c4.5rules does:

    1. one rule per leaf holding at least one case: the path's tests -> the leaf's
       class;
    2. each rule loses conditions while a pessimistic error estimate (at
       ``confidence``) does not get worse; rules no better than guessing are
       rejected, duplicates merge;
    3. each class keeps the subset of its rules with the shortest encoding of
       rules plus exceptions (every subset when it has at most 10 rules, else a
       greedy search with glibc's ``random()`` as c4.5rules draws it);
    4. classes are ordered by their false positives, each class's rules by their
       error; a default class takes the cases no rule covers;
    5. rules that lose more training cases than they win are dropped.

    A case takes the class of the first rule whose conditions it satisfies, or
    the default class.

    Parameters
    ----------
    min_samples_leaf, criterion, subset_splits, threshold, mdl_correction,
    categorical_features, precision, max_depth, min_samples_split, max_purity,
    min_gain, max_features, random_state :
        Tree growing, as for :class:`C45Classifier`. ``precision="float32"``
        reproduces C4.5 Release 8's binary32 arithmetic (tree and rules).
    confidence : float in (0, 1], default=0.25
        c4.5rules' ``-c`` (CF): the confidence of the pessimistic estimate used to
        drop conditions. Smaller drops more. (The tree's own pruning confidence
        plays no part: rules come from the unpruned tree.)
    redundancy : float > 0, default=1.0
        c4.5rules' ``-r``: the expected redundancy of the attributes, dividing the
        bits charged for choosing a condition's attribute.
    fisher : bool or float, default=False
        c4.5rules' ``-F``: while a condition of a rule is not significant at this
        level by c4.5rules' one-tailed Fisher test of its association with the
        rule's class (among the cases satisfying the other conditions), drop a
        condition as the pessimistic estimate would (see Notes); ``True`` means
        0.05. The command line's ``-F`` takes it in percent, as c4.5rules does
        (``-F 10`` is ``fisher=0.1``).
    annealing : bool, default=False
        c4.5rules' ``-a``: select the rules of a class of more than 10 rules by
        simulated annealing instead of the greedy search. The schedule was
        fitted to Release 8's outputs: on the R8 corpus all 300 rulesets equal
        R8's ``-a`` ones (see Notes).
    pruning_trace : bool or "auto", default="auto"
        Whether ``pruning_log_`` keeps the steps of condition dropping
        (c4.5rules' ``-v`` trace). They take a row of 16 bytes per condition
        left at every step of every leaf's rule, which grows with the square of
        the tree's depth: 40 million rows (640 MB) for a tree 247 levels deep.
        ``"auto"`` keeps them up to 2**22 rows (64 MiB) or one row per
        training value, whichever is more, and past
        that drops them with a warning; ``True`` always keeps them, ``False``
        never. Without them each entry's ``steps`` is None. The rules are the
        same either way.

    Attributes
    ----------
    rules_ : tuple of Rule
        The final ordered ruleset (after c4.5rules' final drops of unhelpful
        rules). Each rule has
        ``number`` (c4.5rules' numbering), ``conditions``, ``class_``, ``error``
        (pessimistic error rate), ``confidence`` (``1 - error``, printed
        ``[nn.n%]``), training ``used``/``wrong``/``advantage``. Rules and
        conditions are frozen dataclasses; to predict with other rules, assign
        a new tuple (e.g. ``clf.rules_ = clf.rules_[:3]``, or rules made with
        ``dataclasses.replace``): predict packs the rules once per tuple
        assigned.
    default_class_ : label
    classes_, declared_classes_, n_classes_, n_outputs_, n_features_in_,
    feature_names_in_, categories_ :
        As for C45Classifier: ``classes_`` the classes y holds, sorted
        (``predict_proba``'s columns), ``declared_classes_`` in C4.5's order, which the rules' ``class_index``
        and the printed reports use.
    candidate_rules_ : tuple of Rule
        Every numbered rule before the per-class selection.
    ordered_rules_ : tuple of Rule
        The selected rules in their order, before the final drops (each with the
        training counts of the last evaluation it took part in).
    selection_ : dict
        Per class: ``n_rules``, ``search`` ("exhaustive" or "greedy"),
        ``empty_cost`` and ``cost`` (bits) and the ``selected`` rule numbers.
    class_order_ : list
        Classes in the order their rules were placed.
    dropped_rules_ : list of int
        Numbers of the rules dropped on the training data, in order.
    pruning_log_ : PruningLog, a read-only sequence of dict
        One entry per leaf giving a candidate rule, in tree order (c4.5rules' ``-v``
        trace): ``leaf_conditions``, ``class_``, ``rule`` (the number of the rule
        it became or merged into, None if rejected) and ``steps``, one per round
        of condition dropping: ``rows`` of (errors, cases covered, pessimistic
        error rate, condition left out; None for the whole rule) and ``dropped``
        (the condition dropped, or None). Each entry is built when it is read
        (``list(clf.pruning_log_)`` builds them all): a deep tree's trace has
        millions of rows, kept as a few arrays (``pruning_log_.record``).
        ``steps`` is None when they were not kept (``pruning_trace``;
        ``pruning_log_.has_steps``).
    attribute_bits_, attribute_test_bits_ :
        c4.5rules' code lengths: per feature, and for choosing an attribute.
    grown_tree_ : Tree
        The unpruned tree the rules come from; ``tree_estimator_`` is the fitted
        C45Classifier (``pruning=None``) that grew it.

    Notes
    -----
    ``fit`` takes no ``sample_weight`` (and there is no ``class_weight`` or
    ``normalize_sample_weight``): c4.5rules counts whole cases, in its condition
    dropping, the rule selection's bits and ``fisher``'s exact test.

    ``predict_proba`` is one-hot: the rules give a class, not a distribution. The
    firing rule's confidence is available through :meth:`apply` and ``rules_``.

    Unknown values (and categories unseen in training) satisfy no condition, in
    fitting and in prediction; a case without a firing rule gets the default class.

    Where c4.5rules' behaviour is not pinned down, this implementation chooses as
    follows. On the nine reference data sets (default options, ``-s`` and
    ``-m 1``) the obvious
    alternatives give the same rulesets, except that skipping the draws of trials
    t = 0 and t = 10 changes monk2 and monk3 under ``-m 1``.

    * a condition set covering no case has the actual error rate 0 and the
      pessimistic one DefaultError (Release 8's choice, seen in its outputs);
    * code lengths, rule bits, DefaultError and the error rates are stored in
      binary32 in float32 mode (a rule's bits as a running sum stored after each
      condition, as Release 8 does: R8 corpus r0194); a subset's bits are summed
      exactly, the cost in binary64;
    * a duplicate rule leaves the earlier rule (its number and conditions) in
      place and gives it the larger of the two errors;
    * the greedy search draws once per rule in every trial, t = 0 and 10
      included, and keeps a rule when the draw is below t/10;
    * the default class is not recomputed after rules are dropped;
    * ``fisher`` (``-F``): in each round of condition dropping, when some
      condition fails the test, the condition whose removal gives the lowest
      pessimistic error goes (as when the estimate itself lets one go). The test
      is Release 8's: over the 2x2 table (condition holds or not, by the rule's
      class or not, among the cases that satisfy the other conditions) it sums,
      for the observed table and those more extreme in its direction, each
      table's hypergeometric probability P raised to the power 1/ln 2 (the
      probability's log2, exponentiated with e), and the condition fails when
      the sum exceeds the level. A lone table thus fails at 10% when P > 0.203;
      the true Fisher p-value (the sum of the P) is stricter. With this test
      c45's reports under ``-F 10`` equal Release 8's on 299 of the 300
      problems of the R8 corpus (the true p-value: 66); the other one differs
      in the rule selection, not in the conditions.

    * ``annealing`` (``-a``): from the empty subset at temperature T = 1000,
      each step toggles the rule ``int(draw * R)`` of the class's R rules (a
      draw is glibc's next ``random()`` / 2**31); a toggle that lowers the cost
      is taken, any other when a second draw is below exp(-increase / T).
      T is multiplied by 0.95 after each accepted toggle, and the search stops
      after 100 rejected toggles in a row (or once T is down to 0.001); then
      the greedy search's hill-climb from the cheapest subset the walk visited.
      This schedule was fitted to Release 8's outputs: it selects Release 8's
      subset in all 316 annealed classes of the R8 corpus.

    Subset tests print as ``att in {v1, v2}`` (one-value groups as
    ``att = v``), a layout the specification does not give.
    """

    # The parameters and their checks: c45/_params.py (shared with C45Classifier).
    def _check_rule_params(self):
        """Check the parameters the tree does not take (the C45Classifier growing
        the tree checks the others); the significance level of fisher, or None."""
        self._check_named(*_params.RULES_ONLY)
        return _params.fisher_level(self.fisher)

    def fit(self, X, y):
        """Grow the tree on (X, y) and derive the ruleset from it."""
        require_y(y, "C45RulesClassifier")
        fisher = self._check_rule_params()
        grow = {p: getattr(self, p) for p in _params.GROW}
        with warnings.catch_warnings():
            # Said below in the rules' terms (the tree's would name its pruning).
            warnings.simplefilter("ignore", _params.InactiveParameterWarning)
            tree_clf = C45Classifier(pruning=None, **grow).fit(X, y)
        # The root's weight is the total case weight (for fractions).
        _params.warn_inactive(self, dict(total_weight=float(tree_clf.grown_tree_.weight[0])),
                              stacklevel=2)
        schema = tree_clf._schema
        f32 = self.precision == "float32"
        # The training data encoded as the tree saw it (same schema, same classes).
        cont, codes = encode_predict(schema, X, f32)
        with warnings.catch_warnings():
            # A column-vector y: the tree's fit has warned (once, as scikit-learn does).
            warnings.simplefilter("ignore", DataConversionWarning)
            target = encode_target(y, cont.shape[1])
        y_codes = target.codes
        if not np.array_equal(target.declared, tree_clf.declared_classes_):   # pragma: no cover
            raise RuntimeError("c45: the class encoding changed between tree and rules")
        classes = tree_clf.declared_classes_
        names = getattr(tree_clf, "feature_names_in_", None)
        if names is None:
            names = [f"x{j}" for j in range(schema.n_features)]
        bound = trace_rows(self.pruning_trace, cont.size + codes.size)
        builder = RuleBuilder(tree_clf.grown_tree_, cont, codes, y_codes, schema,
                              list(names), tree_clf.categories_, classes,
                              confidence=self._cf(),
                              redundancy=float(self.redundancy), fisher=fisher,
                              annealing=bool(self.annealing), f32=f32,
                              trace_rows=bound)
        final, default = builder.run()
        # The fitted state in one step (a new __dict__): a thread predicting
        # meanwhile reads the old rules or the new ones, never a mix.
        fitted = {}
        fitted["tree_estimator_"] = tree_clf
        fitted["grown_tree_"] = tree_clf.grown_tree_
        fitted["_schema"] = schema
        # The rules' class indices (class_index, the default) index
        # declared_classes_, C4.5's order; classes_ is tree_clf's (those y held,
        # sorted).
        fitted["classes_"] = tree_clf.classes_
        fitted["declared_classes_"] = classes
        fitted["n_features_in_"] = tree_clf.n_features_in_
        if hasattr(tree_clf, "feature_names_in_"):
            fitted["feature_names_in_"] = tree_clf.feature_names_in_
        fitted["categories_"] = tree_clf.categories_
        fitted["rules_"] = tuple(final)
        fitted["ordered_rules_"] = tuple(builder.ordered)
        fitted["evaluation_rounds_"] = builder.rounds
        fitted["default_class_"] = classes[default]
        fitted["_default_index"] = default
        fitted["candidate_rules_"] = tuple(builder.rules)
        fitted["selection_"] = builder.selection
        fitted["class_order_"] = [classes[c] for c in builder.class_order]
        fitted["dropped_rules_"] = list(builder.dropped)
        fitted["attribute_bits_"] = builder.att_bits
        fitted["attribute_test_bits_"] = builder.att_test_bits
        record = dict(builder.log_record or {}, rule=np.array(
            [c.rule_number for c in builder.candidates], dtype=np.int64))
        if builder.log_record is None and self.pruning_trace == "auto":
            warnings.warn(f"c45: the trace of condition dropping would pass {bound:,} "
                          f"rows (one per condition left at each step of each rule: it "
                          f"grows with the square of the tree's depth), so pruning_log_ "
                          f"keeps each leaf's rule without its steps; "
                          f"pruning_trace=True keeps them", UserWarning, stacklevel=2)
        fitted["pruning_log_"] = pruning_log(record, tree_clf.grown_tree_, list(names),
                                             tree_clf.categories_, classes)
        fitted["_train_summary"] = (builder.n, builder.train_errors)
        fitted["_fitted_with"] = self._made_with()
        _packed(fitted)                 # predict then leaves __dict__ as it is
        state = {k: v for k, v in self.__dict__.items() if k != "feature_names_in_"}
        state.update(fitted)
        self.__dict__ = state
        return self

    def _encode(self, X):
        check_is_fitted(self, "rules_")
        cont, codes = encode_predict(self._schema, X, self._fit_value("precision") == "float32",
                                     "C45RulesClassifier")
        return cont, codes

    def _apply(self, X):
        """(the fitted state read once, apply's answer): fit swaps the state in
        one step, so the rules, schema and classes used belong to one fit."""
        fitted = self.__dict__
        if "rules_" not in fitted:
            check_is_fitted(self, "rules_")
        schema = fitted["_schema"]
        f32 = self._fit_value("precision", fitted) == "float32"
        plain = plain_rows(schema, X, f32)
        if plain is not None:
            # Every feature continuous, X float64 values: they are the encoded
            # cases (one row per feature), no discrete ones.
            rows, rows_first = plain
            cont = _bulk.transposed(rows) if rows_first else rows
            codes = np.empty((0, cont.shape[1]), dtype=np.int32)
        else:
            cont, codes = encode_predict(schema, X, f32, "C45RulesClassifier")
        packed, columns = _packed(fitted)
        first = firing(fitted["rules_"], cont, codes, schema.col, packed)[0]
        return fitted, first, columns

    def apply(self, X):
        """Position in ``rules_`` of the rule that classifies each row (the first
        whose conditions hold), or -1 where the default class applies."""
        return self._apply(X)[1]

    def _predict(self, X):
        fitted, first, columns = self._apply(X)
        return fitted, columns[first]            # first -1: the default's

    def predict(self, X):
        """The class of the first rule whose conditions hold, else the default."""
        fitted, column = self._predict(X)
        return _bulk.take_labels(fitted["classes_"], column)

    def predict_proba(self, X):
        """One-hot class membership of :meth:`predict` (rules give no distribution)."""
        fitted, column = self._predict(X)
        return _bulk.one_hot(np.asarray(column, dtype=np.int64), len(fitted["classes_"]))

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba`: 0 for the predicted class, -inf
        for the others (as scikit-learn gives log(0))."""
        with np.errstate(divide="ignore"):
            return _bulk.elementwise(np.log, self.predict_proba(X))

    def __getstate__(self):
        state = dict(super().__getstate__())    # a copy: the model keeps its own
        state.pop(_PACKED, None)                # packed again from rules_ at load
        log = state.get("pruning_log_")
        if isinstance(log, PruningLog):         # its record; the rest is the tree's
            state["pruning_log_"] = dict(log.record)
        return state

    def __setstate__(self, state):
        if not isinstance(state, dict):
            raise ValueError(f"c45: the pickled C45RulesClassifier's state is a "
                             f"{type(state).__name__}, not a dict")
        # Never taken from a pickle: packed from the checked rules.
        state = {k: v for k, v in state.items() if k != _PACKED}
        if "rules_" in state:
            state = dict(state, **checked_rules_state(state))
        # Made and checked on a fresh estimator, then swapped in as one dict
        # (C45Classifier.__setstate__ says why).
        fresh = object.__new__(type(self))
        super(C45RulesClassifier, fresh).__setstate__(state)
        if "rules_" in state:
            fresh._check_unpickled_params()
            _packed(fresh.__dict__)
        self.__dict__ = fresh.__dict__


# Where a fitted model keeps its ruleset packed for predict: (the rules_ object
# packed, what _packed returns).
_PACKED = "_packed_rules"


def _packed(fitted):
    """(pack_ruleset of rules_, each rule's column of classes_ then the
    default's) for a fitted state, packed once per rules_ object: kept in the
    state, keyed by the identity of the rules_ it packed, so that a ruleset
    assigned to rules_ is packed at its first use and never answered from the
    one before. A tuple of Rules (frozen) cannot change after it is packed; any
    other sequence (a list a user assigned) can, and is packed at each call."""
    rules = fitted["rules_"]
    hit = fitted.get(_PACKED)
    if hit is not None and hit[0] is rules:
        return hit[1]
    # Each rule as fit makes them, its class one y held (rules a user assigned,
    # checked as a pickle's; the default is checked at fit and in pickles).
    position = class_map(fitted).position
    checked_assigned_rules(rules, fitted["_schema"], fitted["declared_classes_"], position)
    columns = position.take(rule_classes(rules, fitted["_default_index"]))
    columns.flags.writeable = False             # shared by every call
    packed = (pack_ruleset(rules, fitted["_schema"].col), columns)
    if type(rules) is tuple:
        fitted[_PACKED] = (rules, packed)
    return packed
