"""A pickled C45Classifier's fitted state, checked before it is used: the
schema, the classes in both orders, and the trees against them (each Tree
checks its own arrays when it is made; c45/_validate_tree.py what predict
relies on). C45RulesClassifier's checks (c45/rules/_state.py) use these too.
"""
import numpy as np

from c45 import _grown, _tree
from c45._encode import Schema, check_labels, class_columns, sorted_classes
from c45._tree_checks import (first_of_kind, kept_tree_failure, pruned_tree_failure,
                              tested_features)
from c45._validate_tree import KEPT, check_model_tree, errors_rule
from c45._windowing import Cycle, Trial, check_trials


def checked_fitted_state(state, places=None):
    """The trees and classes of a fitted pickle (or a model file's state), checked
    against its schema and classes (each Tree checked its own arrays when it was
    made). places: per tree, how messages name it (default: the pickle's)."""
    schema, classes, out = checked_schema_and_classes(state)
    places = places or {}
    grown = grown_in(state)
    final = state.get("tree_")
    if type(final) is _tree.Tree and type(grown) is _tree.Tree and \
            final.node_count > grown.node_count:     # pruning never adds nodes
        # (said before each tree's checks, which would refuse one of them)
        raise ValueError(f"c45: the model's tree_ has {final.node_count} nodes, more "
                         f"than its grown_tree_'s {grown.node_count}: the final tree "
                         f"is a pruning of the grown one (are the two swapped?)")
    final = checked_tree(state, "tree_", schema, classes, places.get("tree_"))
    grown = checked_tree(dict(state, grown_tree_=grown), "grown_tree_", schema,
                         classes, places.get("grown_tree_"))
    check_tests_of_params(final, grown, state, places)
    check_kept_tree(final, grown, state, places, schema.n_values)
    check_pruned_tree(final, grown, schema.n_values, places.get("tree_"),
                      places.get("grown_tree_"))
    for name, tree in (("tree_", final), ("grown_tree_", grown)):
        check_held_classes(tree, out["classes_"], classes,
                           places.get(name) or f"c45: the pickled model's {name}")
    out.update(tree_=final, _grown=kept_grown_in(state, grown, final))
    out.update(checked_trials(state, schema, classes, final, grown))
    windowed = state.get("_windowed", False)
    if type(windowed) is not bool or (not windowed and out["trials_"] is not None):
        # prune() reads it: True refuses to prune windowing's trees again
        raise ValueError(f"c45: the pickled model's _windowed is {windowed!r:.40}; "
                         f"expected a bool, True when it has windowing trials_")
    check = state.get("_train_check")       # prune(X, y) compares its parts
    if check is not None and not (
            isinstance(check, tuple) and len(check) == 3
            and all(isinstance(v, int) for v in check[:2]) and isinstance(check[2], str)):
        raise ValueError("c45: the pickled model's digest of its training data "
                         "(_train_check) is not (rows, features, digest)")
    return out

def checked_trials(state, schema, classes, final, grown):
    """A pickle's windowing trials (trials_, best_trial_): None and None, or a
    list of Trial whose trees are checked as tree_ is and whose cycles as run()
    makes them (_windowing.check_trials, against the model's checked final and
    grown trees), and the index of one of them ({trials_, best_trial_} to set)."""
    trials, best = state.get("trials_"), state.get("best_trial_")
    if trials is None:
        if best is not None:
            raise ValueError(f"c45: the pickled model has best_trial_ {best!r:.40} but "
                             f"no trials_")
        return {"trials_": None, "best_trial_": None}
    if not isinstance(trials, list) or not trials:
        raise ValueError(f"c45: the pickled model's trials_ is a {type(trials).__name__}, "
                         f"not a list of windowing trials")
    if not (isinstance(best, int) and not isinstance(best, bool)
            and 0 <= best < len(trials)):
        raise ValueError(f"c45: the pickled model's best_trial_ {best!r:.40} is not an "
                         f"index of its {len(trials)} trials_")
    for i, trial in enumerate(trials):
        if type(trial) is not Trial or not isinstance(trial.cycles, list) or not all(
                type(c) is Cycle for c in trial.cycles):
            raise ValueError(f"c45: the pickled model's trials_[{i}] is not a windowing "
                             f"trial (Trial of Cycles)")
        for part, name in (("grown", "grown_tree_"), ("pruned", "tree_")):
            # As the model's own tree of that kind (a pruned tree's estimated
            # errors may exceed a light node's weight).
            checked_tree({name: getattr(trial, part), "precision": state.get("precision"),
                          **{p: state[p] for p in ("pruning", "confidence") if p in state}},
                         name, schema, classes,
                         f"c45: the pickled model's trials_[{i}].{part}")
        check_pruned_tree(trial.pruned, trial.grown, schema.n_values,
                          f"c45: the pickled model's trials_[{i}].pruned",
                          f"trials_[{i}].grown")
    check_trials(trials, best, final, grown)
    return {"trials_": trials, "best_trial_": best}


def check_tests_of_params(final, grown, state, places):
    """The trees hold what the model's parameters say fit made: soft thresholds'
    bounds in the final tree exactly when soft_thresholds is True (never in the
    grown tree), and subset tests only when subset_splits is True. predict
    follows the trees: a mismatch would give predictions the parameters do not
    describe."""
    soft = bool(state.get("soft_thresholds"))
    for name, tree, want in (("tree_", final, soft), ("grown_tree_", grown, False)):
        place = places.get(name) or f"c45: the pickled model's {name}"
        if (tree.lower is not None) != want:
            raise ValueError(
                f"{place}: lower and upper (soft thresholds' bounds) are "
                f"{'missing' if want else 'present'}, but "
                + (f"the model's soft_thresholds is {soft}" if name == "tree_" else
                   "a grown tree has none (they are the final tree's)"))
        i = first_of_kind(tree.kind, _tree.SUBSET_KIND) if not state.get("subset_splits") else -1
        if i >= 0:
            raise ValueError(f"{place}: kind[{i}] is a subset test, but the model's "
                             f"subset_splits is {state.get('subset_splits')!r}")


def check_pruned_tree(final, grown, n_values, place=None, grown_place=None):
    """The final tree is the grown tree pruned: subtrees cut to leaves, or raised
    into their parent's place (subtree raising), whatever the pruning: each
    final test is the test of the grown node in its place or of one below it
    (c45/_tree_checks.pyx, pruned_tree_failure). Else predict(tree="grown"),
    the exports of the grown tree and prune() would read another model's tree."""
    failure = pruned_tree_failure(final, grown, n_values)
    if failure is None:
        return
    node, g = failure
    place = place or "c45: the pickled model's tree_"
    grown_place = (grown_place or "grown_tree_").removeprefix("c45: ")
    raise ValueError(f"{place}: node {node} is {_test_of(final, node)}, but no node of "
                     f"the grown tree ({grown_place}) at or below node {g}, in its "
                     f"place, has that test and tests in the places of its branches' tests "
                     f"(node {g} is {_test_of(grown, g)}): the "
                     f"final tree is not the grown tree pruned (subtrees made leaves "
                     f"or raised into their parent's place)")


def _test_of(tree, i):
    """Node i's test, as the messages say it."""
    kind, feature, n = int(tree.kind[i]), int(tree.feature[i]), int(tree.n_children[i])
    if kind == _tree.LEAF_KIND:
        return "a leaf"
    if kind == _tree.SUBSET_KIND:
        return f"a subset test of feature {feature} ({n} branches)"
    if kind == _tree.CONTINUOUS_KIND:
        return f"the test feature {feature} <= {float(tree.threshold[i])!r}"
    return f"a test of feature {feature} ({n} branches)"


def check_kept_tree(final, grown, state, places, n_values):
    """A tree pruned by cost-complexity or reduced-error is the grown tree with
    subtrees made leaves: each node is its grown node, with the same weights and
    class, and each test the same test with the same errors (the grown tree's,
    not its own children's sum)."""
    if errors_rule(state, "tree_") is not KEPT:
        return
    failure = kept_tree_failure(final, grown, n_values)
    if failure is None:
        return
    field, node, g = failure
    place = places.get("tree_") or "c45: the pickled model's tree_"
    grown_place = places.get("grown_tree_") or "grown_tree_"
    got, want = (getattr(t, field)[i].tolist() for t, i in ((final, node), (grown, g)))
    raise ValueError(f"{place}: {field}[{node}] is {got!r}, but its node of the grown "
                     f"tree ({grown_place.removeprefix('c45: ')} node {g}) has {want!r} "
                     f"(a tree pruned by {state.get('pruning')} is the grown tree with "
                     f"subtrees made leaves)")


def grown_in(state):
    """The grown Tree of a fitted state: a pickle's grown_tree_ (the Tree, or a
    GrownDelta against tree_) or a model's own _grown (model files set it)."""
    kept = state["grown_tree_"] if "grown_tree_" in state else state.get("_grown")
    if type(kept) is not _grown.GrownDelta:
        return kept
    try:
        return kept.tree()
    except ValueError as exc:
        raise ValueError(f"c45: the pickled model's grown_tree_: {exc}") from None

def kept_grown_in(state, grown, final):
    """What the model keeps of its checked grown tree: a pickle's GrownDelta
    itself when its base is the final tree kept (it made the grown tree that was
    checked), else what kept_grown makes against the final tree (which may be a
    new Tree, or the grown tree came whole)."""
    kept = state["grown_tree_"] if "grown_tree_" in state else state.get("_grown")
    if type(kept) is _grown.GrownDelta and kept.base is final:
        return kept
    return _grown.kept_grown(grown, final)


def checked_schema_and_classes(state):
    """A fitted pickle's (schema, declared_classes_, {classes_ and
    declared_classes_ to set}), and the attributes copying the schema.

    classes_ is a sorted choice of declared_classes_ (those y held; format 2
    held them all). A pickle without declared_classes_ (format 1, and
    C45RulesClassifier's before it) has the trees' class order in classes_: it
    becomes declared_classes_, and classes_ its sorted order."""
    schema = state.get("_schema")
    if not isinstance(schema, Schema):
        raise ValueError("c45: the pickled model has no valid schema")
    given = state.get("classes_")
    check_classes(given, "classes_")
    declared = state.get("declared_classes_", given)
    check_classes(declared, "declared_classes_")
    try:
        classes, _ = sorted_classes(declared)
        if "declared_classes_" in state:
            class_columns(given, declared)
            ordered, _ = sorted_classes(given, "the classes_")
    except ValueError as exc:
        raise ValueError(f"c45: the pickled model's {exc}") from None
    if "declared_classes_" in state:
        if ordered.tolist() != given.tolist():
            raise ValueError(f"c45: the pickled model's classes_ {given.tolist()[:5]} "
                             f"are not its declared_classes_ sorted (those y held, "
                             f"in the order {ordered.tolist()[:5]})")
        classes = given
    if state.get("n_features_in_") != schema.n_features:
        raise ValueError("c45: the pickled model's n_features_in_ does not match "
                         "its schema")
    check_schema_copies(state, schema)
    return schema, declared, {"classes_": classes, "declared_classes_": declared}

def checked_tree(state, name, schema, classes, place=None):
    """The pickled tree state[name], walkable and of the schema's features and
    the classes' count (a tree pickled without its features gets them), holding
    what predict relies on. place: how messages name it."""
    place = place or f"c45: the pickled model's {name}"
    n_values = schema.n_values
    tree = state.get(name)
    if type(tree) is not _tree.Tree:
        raise ValueError(f"{place} is not a c45 Tree")
    if tree.n_values is None:         # pickled before trees knew their features
        tree = _tree.Tree(**{f: getattr(tree, f) for f in tree._fields},
                          n_values=n_values)
    _tree.check_walkable(tree, n_values)
    check_model_tree(tree, place, n_values, state.get("precision"),
                     errors_rule(state, name))
    tested = tested_features(tree.kind, tree.feature)
    empty = [f for f in tested if schema.discrete[f] and not schema.categories[f]]
    if empty:       # fit never tests a feature it saw no category of
        raise ValueError(f"{place} tests feature {empty[0]}, "
                         f"which has no categories")
    if len(classes) != tree.n_classes:
        raise ValueError(f"{place} has {tree.n_classes} classes, classes_ has {len(classes)}")
    return tree

def check_held_classes(tree, classes, declared, place):
    """A declared class that is not in classes_ (y held no case of it) has no
    training weight in the tree and is no node's class: predict_proba has no
    column for it."""
    found = class_columns(classes, declared)
    if len(found) == len(declared):
        return
    absent = np.setdiff1d(np.arange(len(declared)), found)
    weighed = absent[np.any(tree.value[:, absent] != 0, axis=0)]
    if weighed.size:
        raise ValueError(f"{place} gives training weight to the class "
                         f"{declared[weighed[0]]!r}, which is not in classes_ (the "
                         f"classes y held)")
    named = np.isin(tree.node_class, absent)
    if named.any():
        node = int(np.flatnonzero(named)[0])
        raise ValueError(f"{place}'s node {node} has the class "
                         f"{declared[tree.node_class[node]]!r}, which is not in "
                         f"classes_ (the classes y held)")


def check_classes(classes, name):
    """classes_ as fit makes it: a 1-D array of distinct known labels of one kind."""
    if not isinstance(classes, np.ndarray) or classes.ndim != 1 or not len(classes):
        shape = f" of shape {classes.shape}" if isinstance(classes, np.ndarray) else ""
        raise ValueError(f"c45: the pickled model's {name} is a "
                         f"{type(classes).__name__}{shape}, not a 1-D array of labels")
    check_labels(classes.tolist(), f"c45: the pickled model's {name}")

def check_schema_copies(state, schema):
    """categories_ and feature_names_in_ (read by the exports) are the schema's."""
    if state.get("categories_") != [None if c is None else list(c)
                                    for c in schema.categories]:
        raise ValueError("c45: the pickled model's categories_ differ from its schema")
    names = state.get("feature_names_in_")
    if (names is None) != (schema.names is None) or (
            names is not None and not np.array_equal(names, schema.names)):
        raise ValueError("c45: the pickled model's feature_names_in_ differ from "
                         "its schema")
