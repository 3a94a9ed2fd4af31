"""What predict and the exports rely on in a model's tree, checked on every tree
that is loaded (a JSON model file, a pickle, a rules model's stored tree).

``Tree`` itself checks that its arrays can be walked safely (shapes, indices,
a tree structure, finite non-negative numbers). A tampered file can pass that
and still give NaN or all-zero probabilities, or an empty export: the weights
must also add up as fit makes them. These are the invariants every fitted tree
satisfies, float32 and float64, with unknown values, discrete, continuous and
subset tests, pruned or not:

* a node's weight is finite, >= 0, and > 0 at a test; in a float32 model it is
  a binary32 number (so within float32's range), as are its class weights;
* a node of weight > 0 has class weights summing to its weight, and its class
  (``node_class``) is one of largest class weight;
* the children's weights sum to the parent's: an unknown value's case goes down
  every branch with a share of its weight, so the parent's whole weight (not only
  its known part) is divided among the branches;
* errors are in [0, weight] in a grown tree (training errors); in a pruned tree,
  C4.5's pessimistic estimate E + U(N, E) with U <= N, so in [0, 2 * weight];
* errors are what fit computes from the rest, by the tree's errors rule
  (``errors_rule``): in a grown tree a leaf's are its training errors E (its
  weight less its class's weight; a subtree collapsed into a leaf keeps its
  errors' sum, up to 0.001 less) and a test's the sum of its children's; in a
  tree of pessimistic pruning a leaf's are E + U(N, E) at the model's
  confidence and a test's the sum of its children's; a tree pruned by
  cost-complexity or reduced-error keeps leaves' training errors and its tests'
  errors from the grown tree (c45/_state.py compares the root's);
* a discrete test has one branch per category, a subset test's map sends every
  category to a branch or to none, and every branch holds some category;
* a threshold only at a continuous test (NaN elsewhere), a map offset only at a
  subset test (-1 elsewhere), and no two subset tests reading one map;
* soft thresholds' bounds (``lower``, ``upper``, when the tree has them) are
  finite at a continuous test with ``lower <= threshold <= upper`` and NaN
  elsewhere (``Tree``'s own check, c45/_tree_checks.pyx), and in a float32
  model binary32 numbers, as Release 8 stores them.

Sums are compared within a relative tolerance (fit adds weights in its
precision: float32 sums of many cases drift by about 1e-5), plus a margin for
weights so small that they are subnormal numbers.
"""
import numpy as np

from c45._params import SPEC, certainty_factor, check_confidence
from c45._tree_checks import first_not_binary32, model_tree_failure

PRECISIONS = ("float32", "float64")
_RTOL = {"float32": 1e-3, "float64": 1e-7}
# A million of the smallest subnormal steps: sums of subnormal case weights.
_ATOL = {"float32": 2.0 ** -149 * 2 ** 20, "float64": 2.0 ** -1074 * 2 ** 20}


# Fields that hold a value at one kind of test only: that test, what they hold
# elsewhere, and their value as Python reads it.
_OFF_TEST = {"threshold": ("continuous", "null", float),
             "map_offset": ("subset", "-1", int)}


# What no walk reads, checked last (model_failure): a subset map's unknown-value
# slot, a leaf's feature and first child.
_NEVER_READ = ("unknown slot", "leaf feature", "leaf first_child")


def _refuse(where, field, node, msg):
    raise ValueError(f"{where}: {field}[{node}] {msg}")


def _check_binary32_cuts(tree, where, precision):
    """In a float32 model, thresholds and soft bounds are binary32 numbers (NaN
    off the tests), as Release 8 stores them: a float64 tree relabelled float32
    is refused, not walked with thresholds float32 growing cannot make."""
    if precision != "float32":
        return
    names = ("threshold",) if getattr(tree, "lower", None) is None else (
        "threshold", "lower", "upper")
    for name in names:
        arr = getattr(tree, name)
        bad = first_not_binary32(arr)
        if bad >= 0:
            _refuse(where, name, bad, f"is {float(arr[bad])!r}, not a float32 "
                    f"number (the model's precision is float32)")


# How a tree's errors were made: the rule of each tree of a model.
TRAINING = ("training",)        # a grown tree (and tree_ of pruning=None)
KEPT = ("kept",)                # tree_ of cost-complexity or reduced-error pruning
RANGE = ("range",)              # a pruned tree whose rule is not known: [0, 2 weight]


def pessimistic(confidence):
    """The rule of a tree pruned by pessimistic estimates at this confidence."""
    return ("pessimistic", confidence)


def errors_rule(state, name):
    """The errors rule of the model's tree state[name] ("tree_", "grown_tree_")
    from the parameters that made it (a parameter not valid here is refused by
    the parameters' own check: its tree gets the range check)."""
    if name != "tree_":
        return TRAINING
    pruning = state.get("pruning", SPEC["pruning"].default)
    if pruning is None:
        return TRAINING
    if pruning in ("cost_complexity", "reduced_error"):
        return KEPT
    if pruning != "pessimistic" or state.get("precision") not in PRECISIONS:
        return RANGE
    confidence = state.get("confidence", SPEC["confidence"].default)
    try:
        check_confidence(confidence, state["precision"])
    except (TypeError, ValueError):
        return RANGE
    return pessimistic(confidence)


def check_model_tree(tree, where, n_values, precision, errors):
    """Raise ValueError naming the field and node unless tree (a ``Tree``, its
    arrays already walkable) holds weights, errors, classes and subset maps as
    fit makes them for a model of this precision and these features (n_values:
    per feature its number of categories, 0 continuous). errors: the tree's
    errors rule (TRAINING, KEPT, RANGE or pessimistic(confidence)).

    The invariants are checked in the order of the messages below, each over all
    nodes, in one compiled pass (c45/_tree_checks.pyx): "got differs from want"
    is |got - want| > rtol * max(got, want) + atol (for a leaf's errors, a
    difference of weights, rtol * max(got, want, its weight) + atol); sums are
    numpy's."""
    if precision not in PRECISIONS:
        raise ValueError(f"{where}: precision {precision!r} is not one of {list(PRECISIONS)}")
    f32 = precision == "float32"
    cf = certainty_factor(errors[1], precision) if len(errors) > 1 else 0.0
    failure = model_tree_failure(tree, n_values, f32, _RTOL[precision], _ATOL[precision],
                                 errors[0], cf)
    if failure is None or failure[0] in _NEVER_READ:
        _check_binary32_cuts(tree, where, precision)     # (reported before those)
        if failure is None:
            return
    check, i, extra = failure
    weight, value = tree.weight, tree.value
    if check in ("float32 weight", "float32 value"):
        name, arr = ("weight", weight) if check == "float32 weight" else ("value", value)
        _refuse(where, name, i, f"is {arr[i].tolist()}, not a float32 number "
                f"(the model's precision is float32)")
    if check == "sums":
        _refuse(where, "value", i, f"sums to {extra!r}, but weight[{i}] is "
                f"{float(weight[i])!r} (a node's class weights sum to its weight)")
    if check == "class":
        _refuse(where, "node_class", i, f"is {int(tree.node_class[i])}, not a class of "
                f"largest weight in value[{i}] = {value[i].tolist()}")
    if check == "errors":
        _refuse(where, "errors", i, f"is {float(tree.errors[i])!r}, more than "
                f"{'' if errors == TRAINING else 'twice '}weight[{i}], {float(weight[i])!r}")
    if check == "leaf errors":
        how = (f"its pessimistic estimate E + U(N, E) at confidence {errors[1]!r}"
               if len(errors) > 1 else "its training errors (weight less its class's "
               "weight; up to 0.001 less where a subtree was collapsed)")
        _refuse(where, "errors", i, f"is {float(tree.errors[i])!r}, but leaf {i}'s errors "
                f"are {how}, {extra!r}")
    if check == "test errors":
        _refuse(where, "errors", i, f"is {float(tree.errors[i])!r}, but its children's "
                f"errors sum to {extra!r} (a test's errors are its branches')")
    if check == "children":
        _refuse(where, "weight", i, f"is {float(weight[i])!r}, but its children's "
                f"weights sum to {extra!r} (a node's weight is divided among its "
                f"branches)")
    if check == "feature":
        _refuse(where, "feature", i, f"is {int(tree.feature[i])}, not one of the "
                f"model's {len(n_values)} features")
    if check == "discrete":
        v, b = int(n_values[tree.feature[i]]), int(tree.n_children[i])
        _refuse(where, "n_children", i, f"is {b}: a discrete test has a branch per "
                f"category of feature {int(tree.feature[i])} ({v})")
    if check in _OFF_TEST:
        # a field fit leaves empty off one kind of test
        test, empty, read = _OFF_TEST[check]
        _refuse(where, check, i, f"is {read(getattr(tree, check)[i])!r}, but node {i} is "
                f"not a {test} test ({empty} there)")
    if check == "unknown slot":
        o = extra
        _refuse(where, "value_map", o, f"is {int(tree.value_map[o])}, but it is the "
                f"unknown-value slot of a subset test's map (0 there)")
    if check.startswith("leaf "):
        field = check[len("leaf "):]
        _refuse(where, field, i, f"is {int(getattr(tree, field)[i])}, but node {i} "
                f"is a leaf (-1 there)")
    if check == "shared map":
        _refuse(where, "map_offset", i, f"is {int(tree.map_offset[i])}: its subset map "
                f"overlaps another node's (each subset test has a map of its own)")
    _refuse(where, "value_map", i, f"sends no category to branch {int(extra)} of the subset "
            f"test (every branch holds one or more)")
