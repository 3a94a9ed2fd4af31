"""The compiled checks of a tree's arrays (c45/_tree_checks.pyx) against the numpy
expressions they replaced (kept here as the oracle): on trees fit makes, damaged
at random in one to three places, both refuse with the same message (the same
check first, the same node) or both accept. And a tree's checks release the GIL
a bounded number of times, whatever its size."""
import warnings

import numpy as np
import pytest

from c45 import C45Classifier
from c45._tree import CONTINUOUS_KIND as CONTINUOUS, DISCRETE_KIND as DISCRETE, Tree
from c45._tree import LEAF_KIND as LEAF, SUBSET_KIND as SUBSET
from c45._tree_checks import (FIELDS, DTYPES, MAX_TREE_NODES, as_field,
                              check_tree_arrays, tree_error)
from c45._validate_tree import _ATOL, _RTOL, PRECISIONS, check_model_tree

LEAF_KIND, DISCRETE_KIND, CONTINUOUS_KIND, SUBSET_KIND = LEAF, DISCRETE, CONTINUOUS, SUBSET


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


def _off(got, want, precision):
    return np.abs(got - want) > _RTOL[precision] * np.maximum(got, want) + _ATOL[precision]


def _refuse(where, field, node, msg):
    raise ValueError(f"{where}: {field}[{node}] {msg}")


def oracle_model_check(tree, where, n_values, precision, pruned):
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


# ---------------------------------------------------------------------------
# The compiled checks against the oracle.

def _models():
    """(classifier, precision) of fits making every kind of node: continuous,
    discrete and subset tests, unknown values, both precisions, pruned or not."""
    import pandas as pd
    rng = np.random.default_rng(7)
    n = 600
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "c": pd.Categorical(rng.choice(list("pqrstu"), n)),
                      "d": pd.Categorical(rng.choice(list("xyz"), n))})
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    X.loc[rng.random(n) < 0.1, "c"] = None
    y = np.where((X["a"].fillna(0) + X["b"] > 0) ^ X["c"].isin(["p", "q"]), "u", "v")
    y[rng.random(n) < 0.1] = "w"
    for precision in PRECISIONS:
        for kw in (dict(), dict(subset_splits=True, min_samples_leaf=1), dict(pruning=None)):
            yield C45Classifier(precision=precision, **kw).fit(X, y), precision


def _outcome(check, *args):
    try:
        check(*args)
    except ValueError as exc:
        return str(exc)
    return "accepted"


_BAD_INTS = (-2, -1, 0, 1, 2, 3, 7, 2 ** 31 - 1)
_BAD_FLOATS = (-1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e39, 5e-324, np.nan, np.inf, -np.inf)


def _damaged(tree, rng):
    a = {f: np.array(getattr(tree, f), copy=True) for f in FIELDS}
    for _ in range(rng.integers(1, 4)):
        f = FIELDS[rng.integers(len(FIELDS))]
        arr = a[f]
        if arr.size == 0:
            continue
        i = np.unravel_index(rng.integers(arr.size), arr.shape)
        if arr.dtype.kind == "f":
            arr[i] = _BAD_FLOATS[rng.integers(len(_BAD_FLOATS))]
        elif rng.random() < 0.5:
            arr[i] = arr.flat[rng.integers(arr.size)]             # another node's
        else:
            arr[i] = min(_BAD_INTS[rng.integers(len(_BAD_INTS))], np.iinfo(arr.dtype).max)
    return a


def test_compiled_checks_refuse_as_the_numpy_checks_did():
    rng = np.random.default_rng(11)
    seen = {"accepted": 0, "refused": 0}
    for clf, precision in _models():
        nv = np.asarray(clf._schema.n_values, dtype=np.int32)
        for name, pruned in (("tree_", True), ("grown_tree_", False)):
            tree = getattr(clf, name)
            for _ in range(150):
                a = _damaged(tree, rng)
                want = _outcome(oracle_tree_check, a, nv)
                got = _outcome(check_tree_arrays, a, nv)
                assert got == want, (name, precision)
                if want != "accepted":
                    seen["refused"] += 1
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t = Tree(n_values=nv, **a)
                want = _outcome(oracle_model_check, t, "m", nv, precision, pruned)
                got = _outcome(check_model_tree, t, "m", nv, precision, pruned)
                assert got == want, (name, precision)
                seen["accepted" if want == "accepted" else "refused"] += 1
    # Both ways exercised: damage the checks refuse, and damage they let through.
    assert seen["refused"] > 500 and seen["accepted"] > 20, seen


def test_undamaged_trees_pass_both():
    for clf, precision in _models():
        nv = np.asarray(clf._schema.n_values, dtype=np.int32)
        for name, pruned in (("tree_", True), ("grown_tree_", False)):
            tree = getattr(clf, name)
            a = {f: getattr(tree, f) for f in FIELDS}
            check_tree_arrays(a, nv)
            check_model_tree(tree, "m", nv, precision, pruned)


def test_as_field_refuses_casts_that_change_values():
    with pytest.raises(ValueError, match="out of the range of int32"):
        as_field("feature", np.int32, np.array([2 ** 40]))
    with pytest.raises(ValueError, match="has dtype float64, expected int32"):
        as_field("feature", np.int32, np.array([1.5]))
    with pytest.raises(ValueError, match="has dtype object"):
        as_field("weight", np.float64, np.array([None, 1.0], dtype=object))
    src = np.arange(5, dtype=np.int32)[::2]               # not contiguous
    out = as_field("feature", np.int32, src)
    assert out.flags.c_contiguous and (out == src).all() and not np.shares_memory(out, src)


BUSY_LOAD = """
import sys, threading, time
import numpy as np
from c45 import C45Classifier, from_json, to_json
rng = np.random.default_rng(0)
X = rng.random((20_000, 4)); y = rng.integers(0, 3, 20_000)      # noise: a big tree
X[rng.random(X.shape) < 0.05] = np.nan
clf = C45Classifier(pruning=None, min_samples_leaf=1, mdl_correction=False).fit(X, y)
text = to_json(clf)
def _time(f):
    t = time.perf_counter(); f(); return time.perf_counter() - t
alone = min(_time(lambda: from_json(text)) for _ in range(2))
sys.setswitchinterval(0.1)
threading.Thread(target=lambda: [0 for _ in iter(int, 1)], daemon=True).start()
time.sleep(0.05)
busy = min(_time(lambda: from_json(text)) for _ in range(2))
print("NODES", clf.tree_.node_count, "HANDOFFS", round((busy - alone) / 0.1, 1))
"""


def test_loading_a_large_tree_beside_a_busy_thread_takes_few_handoffs():
    """Each GIL release waits out a busy thread's switch interval (0.1 s here).
    Loading a model file of 14.5k nodes took 32 intervals with the compiled tree
    checks alone (the checksum fed hashlib 150 pieces, each a release), more with
    the numpy checks (about 45 releases a tree); 13-16 measured now."""
    import c45_process
    run = c45_process.run_python(BUSY_LOAD, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    nodes = int(run.stdout.split("NODES")[1].split()[0])
    handoffs = float(run.stdout.split("HANDOFFS")[1])
    assert nodes > 5000, run.stdout
    assert handoffs < 24, run.stdout
