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
* a discrete test has one branch per category, a subset test's map sends every
  category to a branch or to none, and every branch holds some category.

Sums are compared within a relative tolerance (fit adds weights in its
precision: float32 sums of many cases drift by about 1e-5), plus a margin for
weights so small that they are subnormal numbers.
"""
import numpy as np

from c45._tree import DISCRETE_KIND, LEAF_KIND, SUBSET_KIND

PRECISIONS = ("float32", "float64")
_RTOL = {"float32": 1e-3, "float64": 1e-7}
# A million of the smallest subnormal steps: sums of subnormal case weights.
_ATOL = {"float32": 2.0 ** -149 * 2 ** 20, "float64": 2.0 ** -1074 * 2 ** 20}


def _refuse(where, field, node, msg):
    raise ValueError(f"{where}: {field}[{node}] {msg}")


def _first(mask):
    return int(np.flatnonzero(mask)[0])


def _off(got, want, precision):
    """got differs from want by more than fit's rounding could make it."""
    return np.abs(got - want) > _RTOL[precision] * np.maximum(got, want) + _ATOL[precision]


def check_model_tree(tree, where, n_values, precision, pruned):
    """Raise ValueError naming the field and node unless tree (a ``Tree``, its
    arrays already walkable) holds weights, errors, classes and subset maps as
    fit makes them for a model of this precision and these features (n_values:
    per feature its number of categories, 0 continuous). pruned: the tree may
    hold pessimistic error estimates (``tree_``) rather than training errors."""
    if precision not in PRECISIONS:
        raise ValueError(f"{where}: precision {precision!r} is not one of {list(PRECISIONS)}")
    kind, weight, value = tree.kind, tree.weight, tree.value
    n = tree.node_count

    if precision == "float32":
        for name, arr in (("weight", weight), ("value", value)):
            with np.errstate(over="ignore"):
                bad = arr.astype(np.float32).astype(np.float64) != arr
            if bad.any():
                i = _first(bad.reshape(n, -1).any(axis=1))
                _refuse(where, name, i, f"is {arr[i].tolist()}, not a float32 number "
                        f"(the model's precision is float32)")

    positive = weight > 0
    sums = value.sum(axis=1)
    bad = positive & _off(sums, weight, precision)
    if bad.any():
        i = _first(bad)
        _refuse(where, "value", i, f"sums to {float(sums[i])!r}, but weight[{i}] is "
                f"{float(weight[i])!r} (a node's class weights sum to its weight)")
    cls = value[np.arange(n), tree.node_class]
    bad = positive & (cls < value.max(axis=1))
    if bad.any():
        i = _first(bad)
        _refuse(where, "node_class", i, f"is {int(tree.node_class[i])}, not a class of "
                f"largest weight in value[{i}] = {value[i].tolist()}")

    limit = 2 * weight if pruned else weight
    bad = _off(np.minimum(tree.errors, limit), tree.errors, precision)
    if bad.any():
        i = _first(bad)
        _refuse(where, "errors", i, f"is {float(tree.errors[i])!r}, more than "
                f"{'twice ' if pruned else ''}weight[{i}], {float(weight[i])!r}")

    test = np.flatnonzero(kind != LEAF_KIND)
    if len(test):
        # The children of the tests partition nodes 1..n-1 into contiguous runs
        # (Tree checked it): one reduceat sums every test's children.
        order = np.argsort(tree.first_child[test], kind="stable")
        starts = tree.first_child[test][order]
        child_sums = np.empty(len(test))
        child_sums[order] = np.add.reduceat(weight, starts)
        bad = _off(child_sums, weight[test], precision)
        if bad.any():
            i = int(test[_first(bad)])
            _refuse(where, "weight", i, f"is {float(weight[i])!r}, but its children's "
                    f"weights sum to {float(child_sums[_first(bad)])!r} (a node's weight "
                    f"is divided among its branches)")

    for i in np.flatnonzero(kind == DISCRETE_KIND):
        v, b = int(n_values[tree.feature[i]]), int(tree.n_children[i])
        if b != v:
            _refuse(where, "n_children", i, f"is {b}: a discrete test has a branch per "
                    f"category of feature {int(tree.feature[i])} ({v})")
    for i in np.flatnonzero(kind == SUBSET_KIND):
        v, b, o = int(n_values[tree.feature[i]]), int(tree.n_children[i]), \
            int(tree.map_offset[i])
        held = np.bincount(tree.value_map[o + 1:o + v + 1], minlength=b + 1)[1:]
        if not held.all():
            _refuse(where, "value_map", i, f"sends no category to branch "
                    f"{_first(held == 0)} of the subset test (every branch holds one "
                    f"or more)")
