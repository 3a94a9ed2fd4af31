"""The compiled checks of a tree's arrays (c45/_tree_checks.pyx) against the numpy
expressions they replaced (kept here as the oracle): on trees fit makes, damaged
at random in one to three places, both refuse with the same message (the same
check first, the same node) or both accept. And a tree's checks release the GIL
a bounded number of times, whatever its size."""
import warnings

import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier
from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND, LEAF_KIND, SUBSET_KIND, Tree
from c45._tree_checks import (FIELDS, DTYPES, MAX_TREE_NODES, as_field,
                              check_tree_arrays, tree_error)
from c45._criterion import pessimistic_extra_errors
from c45._params import certainty_factor
from c45._validate_tree import (_ATOL, _RTOL, KEPT, PRECISIONS, RANGE, TRAINING,
                                check_model_tree, pessimistic)

LEAF, DISCRETE, CONTINUOUS, SUBSET = LEAF_KIND, DISCRETE_KIND, CONTINUOUS_KIND, SUBSET_KIND


# ---------------------------------------------------------------------------
# The oracle: the checks as numpy expressions, as they were before.

def oracle_tree_check(a, n_values=None):
    """Raise ValueError unless the arrays form a tree the C walkers can walk:
    shapes, a tree structure with children after their parent (so no cycles),
    indices in range, finite non-negative weights, and, given n_values (per
    feature, its categories; 0 continuous), tests that match their feature."""
    kind, feature, first, nch = a["kind"], a["feature"], a["first_child"], a["n_children"]
    value, value_map, offset = a["value"], a["value_map"], a["map_offset"]
    n = kind.shape[0] if kind.ndim == 1 else -1      # kind's shape refused below
    for name in FIELDS:
        want = 2 if name == "value" else 1
        if a[name].ndim != want:
            raise tree_error(f"{name} must be {want}-dimensional, got shape "
                              f"{a[name].shape}")
        if name not in ("value_map",) and a[name].shape[0] != n:
            raise tree_error(f"{name} has {a[name].shape[0]} entries for {n} nodes")
    if not 1 <= n <= MAX_TREE_NODES:
        raise tree_error(f"{n} nodes (1 to {MAX_TREE_NODES} allowed)")
    k = value.shape[1]
    if k < 1:
        raise tree_error("value has no class column")
    if len(value_map) > MAX_TREE_NODES:
        raise tree_error(f"value_map has {len(value_map)} entries")
    bad = ~np.isin(kind, (LEAF, DISCRETE, CONTINUOUS, SUBSET))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise tree_error(f"node {i} has unknown kind {kind[i]}")
    bad = (a["node_class"] < 0) | (a["node_class"] >= k)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise tree_error(f"node {i} has class index {a['node_class'][i]}, not in "
                          f"0..{k - 1}")
    for name in ("weight", "errors"):
        bad = ~(np.isfinite(a[name]) & (a[name] >= 0))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise tree_error(f"node {i} has {name} {a[name][i]} (finite, >= 0 needed)")
    bad = ~(np.isfinite(value) & (value >= 0)).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise tree_error(f"node {i} has class weights {value[i].tolist()} (finite, "
                          f">= 0 needed)")
    # Prediction divides a leaf's class weights by its weight (when > 0): a row of
    # zeros, or class weights summing to inf, would give no or NaN probabilities.
    with np.errstate(over="ignore"):
        sums = value.sum(axis=1)
    bad = (a["weight"] > 0) & ~((sums > 0) & np.isfinite(sums))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise tree_error(f"node {i} has weight {a['weight'][i]} but its class "
                          f"weights sum to {sums[i]}")
    leaf = kind == LEAF
    if (nch[leaf] != 0).any():
        raise tree_error(f"node {int(np.flatnonzero(leaf & (nch != 0))[0])} is a leaf "
                          f"with children")
    test = np.flatnonzero(~leaf)
    f, s, b = feature[test], first[test].astype(np.int64), nch[test].astype(np.int64)
    bad = (b < 1) | (s <= test) | (s + b > n)
    if bad.any():
        raise tree_error(f"node {int(test[bad][0])} has children out of range "
                          f"(first_child {int(s[bad][0])}, n_children {int(b[bad][0])}, "
                          f"{n} nodes)")
    # Every node but the root is the child of exactly one node; as children come
    # after their parent, following parents ends at the root: no cycle.
    cover = np.zeros(n + 1, dtype=np.int64)
    np.add.at(cover, s, 1)
    np.add.at(cover, s + b, -1)
    parents = np.cumsum(cover[:n])
    if parents[0] != 0 or (parents[1:] != 1).any():
        i = 0 if parents[0] != 0 else int(np.flatnonzero(parents[1:] != 1)[0]) + 1
        raise tree_error(f"node {i} has {int(parents[i])} parents (not a tree)")
    weight = a["weight"]
    bad = weight[test] <= 0
    if bad.any():
        raise tree_error(f"node {int(test[bad][0])} is a test with weight 0 "
                          f"(unknown values descend by weight share)")
    cont = kind[test] == CONTINUOUS
    bad = cont & ((b != 2) | ~np.isfinite(a["threshold"][test]))
    if bad.any():
        raise tree_error(f"node {int(test[bad][0])}: a continuous test needs 2 "
                          f"branches and a finite threshold")
    bad = (offset < -1) | (offset >= max(len(value_map), 1))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise tree_error(f"node {i} has map_offset {offset[i]} out of range")
    if n_values is None:
        bad = f < 0
    else:
        if n_values.ndim != 1 or (n_values < 0).any():
            raise tree_error("n_values must be a 1-D array of category counts")
        bad = (f < 0) | (f >= len(n_values))
    if bad.any():
        raise tree_error(f"node {int(test[bad][0])} tests feature {int(f[bad][0])}, "
                          f"out of range")
    subset = np.flatnonzero(kind == SUBSET)
    if n_values is None:
        return
    nv = n_values[f].astype(np.int64)
    bad = cont != (nv == 0)
    if bad.any():
        i = int(test[bad][0])
        raise tree_error(f"node {i}: its test kind does not match feature {feature[i]}'s "
                          f"kind (a {'continuous' if kind[i] == CONTINUOUS else 'discrete'} "
                          f"test on a {'discrete' if n_values[feature[i]] else 'continuous'} "
                          f"feature)")
    # A discrete test has a branch per category at most, a subset test one more.
    bad = ~cont & (b > nv + (kind[test] == SUBSET))
    if bad.any():
        i = int(test[bad][0])
        raise tree_error(f"node {i} has {nch[i]} branches for feature {feature[i]}'s "
                          f"{n_values[feature[i]]} categories")
    for i in subset:
        o, v = int(offset[i]), int(n_values[feature[i]])
        if o < 0 or o + v >= len(value_map):
            raise tree_error(f"node {i} has a subset map out of range")
        m = value_map[o:o + v + 1]
        if ((m < 0) | (m > nch[i])).any():
            raise tree_error(f"node {i} maps a category to a branch out of range")


def _first(mask):
    return int(np.flatnonzero(mask)[0])


def _off(got, want, precision, scale=0.0):
    """got is off want beyond fit's rounding, relative to the larger of the two
    (and to scale: a leaf's errors are rounded on its weight's scale)."""
    return np.abs(got - want) > _RTOL[precision] * np.maximum(np.maximum(got, want), scale) \
        + _ATOL[precision]


def _refuse(where, field, node, msg):
    raise ValueError(f"{where}: {field}[{node}] {msg}")


def oracle_model_check(tree, where, n_values, precision, errors):
    """Raise ValueError naming the field and node unless tree (a ``Tree``, its
    arrays already walkable) holds weights, errors, classes and subset maps as
    fit makes them for a model of this precision and these features (n_values:
    per feature its number of categories, 0 continuous). errors: how its errors
    were made (TRAINING, KEPT, RANGE or pessimistic(confidence))."""
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

    pruned = errors != TRAINING
    limit = 2 * weight if pruned else weight
    bad = _off(np.minimum(tree.errors, limit), tree.errors, precision)
    if bad.any():
        i = _first(bad)
        _refuse(where, "errors", i, f"is {float(tree.errors[i])!r}, more than "
                f"{'twice ' if pruned else ''}weight[{i}], {float(weight[i])!r}")

    test = np.flatnonzero(kind != LEAF_KIND)
    order = starts = None
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
    _oracle_errors(tree, where, precision, errors, test, order, starts)

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
    bad = (kind != CONTINUOUS_KIND) & ~np.isnan(tree.threshold)
    if bad.any():
        i = _first(bad)
        _refuse(where, "threshold", i, f"is {float(tree.threshold[i])!r}, but node {i} is "
                f"not a continuous test (null there)")
    bad = (kind != SUBSET_KIND) & (tree.map_offset != -1)
    if bad.any():
        i = _first(bad)
        _refuse(where, "map_offset", i, f"is {int(tree.map_offset[i])}, but node {i} is not "
                f"a subset test (-1 there)")
    mapped = np.zeros(len(tree.value_map) + 1, dtype=int)
    for i in np.flatnonzero(kind == SUBSET_KIND):
        o, v = int(tree.map_offset[i]), int(n_values[tree.feature[i]])
        if mapped[o:o + v + 1].any():
            _refuse(where, "map_offset", i, f"is {o}: its subset map overlaps another "
                    f"node's (each subset test has a map of its own)")
        mapped[o:o + v + 1] = 1
    if precision == "float32":      # then the cuts, binary32 too (NaN off the tests)
        th = tree.threshold
        with np.errstate(over="ignore"):
            bad = ~((th.astype(np.float32).astype(np.float64) == th) | np.isnan(th))
        if bad.any():
            i = _first(bad)
            _refuse(where, "threshold", i, f"is {float(th[i])!r}, not a float32 number "
                    f"(the model's precision is float32)")
    slots = tree.map_offset[kind == SUBSET_KIND]     # an unknown value's, never read
    bad = tree.value_map[slots] != 0
    if bad.any():
        o = int(slots[_first(bad)])
        _refuse(where, "value_map", o, f"is {int(tree.value_map[o])}, but it is the "
                f"unknown-value slot of a subset test's map (0 there)")
    for field in ("feature", "first_child"):        # at a leaf: never read
        bad = (kind == LEAF_KIND) & (getattr(tree, field) != -1)
        if bad.any():
            i = _first(bad)
            _refuse(where, field, i, f"is {int(getattr(tree, field)[i])}, but node {i} "
                    f"is a leaf (-1 there)")


def _oracle_errors(tree, where, precision, errors, test, order, starts):
    """The errors rules: a leaf's from its weights (training errors, a collapsed
    subtree's sum up to 0.001 below them; or the pessimistic estimate), a test's
    the sum of its children's (but in KEPT trees)."""
    if errors == RANGE:
        return
    f32 = precision == "float32"
    r = (lambda x: float(np.float32(x))) if f32 else float
    for i in np.flatnonzero(tree.kind == LEAF_KIND):
        w, got = float(tree.weight[i]), float(tree.errors[i])
        want = r(w - tree.value[i, tree.node_class[i]]) if w > 0 else 0.0
        if len(errors) > 1:
            cf = certainty_factor(errors[1], precision)
            want = r(want + pessimistic_extra_errors(w, want, cf, precision))
        low = want if len(errors) > 1 else want - 1e-3
        if (got > want and _off(got, want, precision, w)) or \
                (got < low and _off(got, low, precision, w)):
            how = (f"its pessimistic estimate E + U(N, E) at confidence {errors[1]!r}"
                   if len(errors) > 1 else "its training errors (weight less its class's "
                   "weight; up to 0.001 less where a subtree was collapsed)")
            _refuse(where, "errors", i, f"is {got!r}, but leaf {i}'s errors are {how}, "
                    f"{want!r}")
    if errors == KEPT or not len(test):
        return
    child_errors = np.empty(len(test))
    child_errors[order] = np.add.reduceat(tree.errors, starts)
    bad = _off(child_errors, tree.errors[test], precision)
    if bad.any():
        i = int(test[_first(bad)])
        _refuse(where, "errors", i, f"is {float(tree.errors[i])!r}, but its children's "
                f"errors sum to {float(child_errors[_first(bad)])!r} (a test's errors "
                f"are its branches')")


# ---------------------------------------------------------------------------
# The compiled checks against the oracle.

def _models():
    rng = np.random.default_rng(7)
    n = 300
    cont = rng.normal(size=(n, 2)).round(1)
    cont[rng.random(cont.shape) < 0.1] = np.nan
    X = pd.DataFrame({"c0": cont[:, 0], "c1": cont[:, 1]})
    for j in range(2):
        d = np.array([f"v{v}" for v in rng.integers(0, 4, n)], dtype=object)
        d[rng.random(n) < 0.1] = None
        X[f"d{j}"] = d
    y = rng.integers(0, 3, n)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for precision in ("float64", "float32"):
            for subsets in (False, True):
                clf = C45Classifier(precision=precision, subset_splits=subsets,
                                    min_samples_leaf=1)
                out.append((clf.fit(X, y), precision))
    return out


MODELS = _models()
INTS = (-2**31, -2, -1, 0, 1, 2, 3, 4, 5, 2**31 - 1)
FLOATS = (np.nan, np.inf, -np.inf, -1.0, -0.0, 0.0, 5e-324, 1e-300, 0.5, 1.0, 2.0,
          1e308, 1.7e308)


def _damage(arrays, n_values, rng):
    """One random change: an entry set to a boundary value or nudged."""
    name = FIELDS[int(rng.integers(len(FIELDS)))] if rng.random() < 0.95 else "n_values"
    a = n_values if name == "n_values" else arrays[name]
    if a is None or a.size == 0:
        return
    flat = a.reshape(-1)
    i = int(rng.integers(flat.size))
    if a.dtype.kind == "f":
        x = flat[i]
        choice = rng.random()
        flat[i] = (FLOATS[int(rng.integers(len(FLOATS)))] if choice < 0.5 else
                   x * (1 + 10.0 ** -rng.integers(2, 9)) if choice < 0.75 else
                   float(np.float32(x)) * (1 + 2.0 ** -30) if choice < 0.9 else
                   x * 2)
    else:
        n = arrays["kind"].shape[0]
        v = (INTS + (n - 1, n, n + 1, int(flat[i]) + 1, int(flat[i]) - 1))
        v = v[int(rng.integers(len(v)))]
        info = np.iinfo(a.dtype)
        flat[i] = min(max(v, info.min), info.max)


def _outcome(check, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(*args)
    except ValueError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("model", range(len(MODELS)))
def test_compiled_checks_agree_with_the_numpy_checks(model):
    """Damaged in one to three places, a fitted tree is refused with the message
    the numpy checks gave (the first failing check, at its first failing node),
    or accepted by both; an accepted one passes or fails the model invariants
    alike, with the same message."""
    clf, precision = MODELS[model]
    rng = np.random.default_rng(model)
    refused = accepted = 0
    for trial in range(1500):
        tree = clf.tree_ if trial % 2 else clf.grown_tree_
        arrays = {f: np.array(getattr(tree, f)) for f in FIELDS}
        n_values = None if trial % 7 == 0 else np.array(tree.n_values)
        for _ in range(int(rng.integers(1, 4))):
            _damage(arrays, n_values, rng)
        want = _outcome(oracle_tree_check, arrays, n_values)
        assert _outcome(check_tree_arrays, arrays, n_values) == want, trial
        if want is not None or n_values is None:
            refused += want is not None
            continue
        accepted += 1
        t = Tree(**arrays, n_values=n_values)
        for p in PRECISIONS:
            for errors in (TRAINING, KEPT, RANGE, pessimistic(0.25)):
                args = (t, "here", n_values, p, errors)
                assert _outcome(check_model_tree, *args) == \
                    _outcome(oracle_model_check, *args), (trial, p, errors)
    assert refused > 300 and accepted > 100, (refused, accepted)


@pytest.mark.parametrize("layout", ["strided", "big-endian", "int64", "list", "bool"])
def test_arrays_of_other_layouts_and_dtypes_are_checked_alike(layout):
    """Tree's fields given non-contiguous, byte-swapped or wider arrays (a tree
    built by hand) are cast as numpy casts and checked the same: a fitted tree
    is the same tree, a damaged one refused with the same message."""
    clf, _ = MODELS[2]
    t = clf.grown_tree_

    def given(a):
        a = np.array(a)
        if layout == "strided":
            return np.repeat(a, 2, axis=0)[::2]
        if layout == "big-endian":
            return a.astype(a.dtype.newbyteorder(">"))
        if layout == "int64":
            return a.astype(np.int64) if a.dtype.kind == "i" else a
        if layout == "list":
            return a.tolist() if a.size else a       # [] is float64
        return a.astype(bool) if a.dtype.kind == "i" and a.size and 0 <= a.min() <= a.max() <= 1 \
            else a
    same = Tree(**{f: given(getattr(t, f)) for f in FIELDS}, n_values=given(t.n_values))
    for f in FIELDS:
        assert np.array_equal(getattr(same, f), getattr(t, f), equal_nan=True)
        assert getattr(same, f).dtype == getattr(t, f).dtype
        assert getattr(same, f).flags.c_contiguous
    bad = {f: np.array(getattr(t, f)) for f in FIELDS}
    bad["first_child"][0] = 0                  # the root its own child
    want = _outcome(oracle_tree_check, bad, np.array(t.n_values))
    assert want and "out of range" in want
    got = _outcome(lambda: Tree(**{f: given(v) for f, v in bad.items()},
                                n_values=given(t.n_values)))
    assert got == want


def test_own_arrays_are_kept_and_checked():
    """A Tree of arrays made for it keeps them (no copy), read-only, and still
    refuses them when damaged; a Tree given a caller's arrays copies them."""
    t = MODELS[0][0].grown_tree_
    arrays = {f: np.array(getattr(t, f)) for f in FIELDS}
    own = Tree._of_own_arrays(**arrays, n_values=t.n_values)
    assert all(getattr(own, f) is arrays[f] for f in FIELDS)
    assert not any(getattr(own, f).flags.writeable for f in FIELDS)
    copied = {f: np.array(getattr(t, f)) for f in FIELDS}
    made = Tree(**copied, n_values=t.n_values)
    assert not any(np.shares_memory(getattr(made, f), copied[f]) for f in FIELDS)
    assert all(copied[f].flags.writeable for f in FIELDS)
    arrays = {f: np.array(getattr(t, f)) for f in FIELDS}
    arrays["weight"][0] = np.nan
    with pytest.raises(ValueError, match="c45: invalid tree: node 0 has weight nan"):
        Tree._of_own_arrays(**arrays, n_values=t.n_values)


# ---------------------------------------------------------------------------
# The GIL beside a busy thread.

LOAD_RELEASES = """
import pickle
import numpy as np
from c45 import C45Classifier, from_json, to_json
from c45._tree import Tree
from c45._validate_tree import TRAINING, check_model_tree
rng = np.random.default_rng(0)
n = 30_000
X = rng.random((n, 4)); y = rng.integers(0, 3, n)      # noise: ~20k nodes
X[rng.random(X.shape) < 0.05] = np.nan
clf = C45Classifier(min_samples_leaf=1, mdl_correction=False).fit(X, y)
# (a grown tree kept as a delta against the final one: DELTA_MIN_NODES)
assert clf.grown_tree_.node_count > 20_000 and type(clf._grown).__name__ == "GrownDelta"
text, blob = to_json(clf), pickle.dumps(clf)
# A complete binary tree of 2**20 - 1 nodes (node i's children 2i+1, 2i+2): its
# checks give the GIL up once each, where numpy's calls each would.
m = 2**20 - 1
i = np.arange(m)
depth = np.floor(np.log2(i + 1)).astype(int)
leaf = i >= m // 2
weight = 2.0 ** (19 - depth)
i32 = lambda a: a.astype(np.int32)        # the fields' own dtypes: no cast to make
big = dict(kind=np.where(leaf, 0, 2).astype(np.int8), feature=i32(np.where(leaf, -1, 0)),
           first_child=i32(np.where(leaf, -1, 2 * i + 1)),
           n_children=i32(np.where(leaf, 0, 2)),
           node_class=np.zeros(m, np.int32), threshold=np.where(leaf, np.nan, 0.5),
           weight=weight, errors=np.zeros(m), value=np.stack([weight, 0 * weight], 1),
           n_values=np.zeros(1, np.int32))
t = Tree(**big)
work = {
    "tree": lambda: Tree(**big),
    "check_model_tree": lambda: check_model_tree(t, "", t.n_values, "float64", TRAINING),
    "from_json": lambda: from_json(text),
    "pickle.loads": lambda: pickle.loads(blob),
    "to_json": lambda: to_json(clf),
    "pickle.dumps": lambda: pickle.dumps(clf),
}
"""


def test_a_tree_and_a_model_load_and_save_giving_the_gil_up_a_few_times(tmp_path):
    """Each release of the GIL costs a switch interval beside a busy Python thread
    (the busy thread takes the GIL; the caller waits an interval to get it back),
    and a busy machine hides it; so the releases are counted. A million-node
    tree's checks, and a model's, take a few (about 80 and 20 when they were
    numpy expressions); a 20k-node model's load (checks of both trees included)
    and save a few: pickle.loads made 368, from_json 275, to_json 75 and
    pickle.dumps 28 when the grown tree's delta was made, checked and rebuilt by
    numpy's calls and a pickle's arrays copied by numpy (at switch interval
    0.1 s, pickle.loads took 19 s beside a busy thread, 0.02 s alone). The
    20k-node model's load and save give it up never (from_json 5, pickle.loads
    2 and to_json 2 when its 5 MB text was hashed a 4 MB batch at a time, the
    checks' marks were np.zeros and the delta's node pairing always gave it up)."""
    from c45_process import count_releases
    releases = count_releases(tmp_path, LOAD_RELEASES, 6)
    assert max(releases.values()) <= 2, releases
    for call in ("from_json", "pickle.loads", "to_json", "pickle.dumps"):
        assert releases[call] == 0, (call, releases)
