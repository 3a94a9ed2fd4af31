"""The grown tree a fitted C45Classifier keeps against its final one
(c45/_grown.pyx): it is the tree an unpruned fit grows, bit for bit, under every
pruning kind and in both precisions; it pickles in either form; a damaged one is
refused naming its field; and the model holds far fewer bytes than two trees."""
import pickle
import warnings

import numpy as np
import pytest

from c45 import C45Classifier, _grown, from_json, to_json
from c45._grown import GrownDelta, same_trees
from c45._params import InactiveParameterWarning
from c45._tree import Tree
from test_core_vs_oracle import random_problem


@pytest.fixture(scope="module", autouse=True)
def deltas_for_small_trees_too():
    # These problems are small: the delta is tested on them, so it is made for
    # every size here (a model keeps a small grown tree whole otherwise).
    before = _grown.DELTA_MIN_NODES
    _grown.DELTA_MIN_NODES = 0
    yield
    _grown.DELTA_MIN_NODES = before


def test_a_small_grown_tree_is_kept_whole():
    rng = np.random.default_rng(0)
    X = rng.random((400, 3))
    y = (X[:, 0] + 0.5 * rng.random(400) > 0.7).astype(int)
    before = _grown.DELTA_MIN_NODES
    try:
        _grown.DELTA_MIN_NODES = 10**9
        clf = C45Classifier().fit(X, y)
        assert clf._grown is not clf.tree_ and type(clf._grown) is Tree
        assert_same_bits(clf.grown_tree_, unpruned({}, X, y, None).grown_tree_)
    finally:
        _grown.DELTA_MIN_NODES = before


def assert_same_bits(a, b, what=""):
    for f in Tree._fields:
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.shape == y.shape, f"{what}: {f}"
        assert x.tobytes() == y.tobytes(), f"{what}: {f} differs"
    assert np.array_equal(a.n_values, b.n_values), what


def unpruned(params, X, y, w):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InactiveParameterWarning)
        return C45Classifier(**{**params, "pruning": None}).fit(X, y, sample_weight=w)


PRUNINGS = [dict(pruning="pessimistic"), dict(pruning="pessimistic", subtree_raising=False),
            dict(pruning="cost_complexity"), dict(pruning="reduced_error")]


@pytest.mark.parametrize("precision", ["float64", "float32"])
@pytest.mark.parametrize("pruning", PRUNINGS, ids=lambda p: "-".join(map(str, p.values())))
@pytest.mark.parametrize("subsets", [False, True])
def test_grown_tree_is_the_unpruned_fit(precision, pruning, subsets):
    kept = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        X, _, _, y, _, w = random_problem(rng, many_values=seed % 4 == 0)
        params = dict(pruning, precision=precision, subset_splits=subsets,
                      min_samples_leaf=float(rng.choice([1, 2])),
                      confidence=float(rng.choice([0.25, 0.6, 0.9])))
        if pruning["pruning"] == "cost_complexity":
            params["ccp_alpha"] = float(rng.choice([0.0, 0.5, 2.0]))
        fit = dict(sample_weight=w)
        if pruning["pruning"] == "reduced_error":
            half = np.arange(len(y)) % 2 == 0
            seen = ~half & np.isin(y, y[half])       # classes the fit sees
            if not seen.any():
                continue
            fit = dict(X_val=X[seen], y_val=y[seen], sample_weight=None)
            X, y, w = X[half], y[half], None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf = C45Classifier(**params).fit(X, y, **fit)
        assert_same_bits(clf.grown_tree_, unpruned(params, X, y, w).tree_, f"seed {seed}")
        # Kept as the final tree itself (nothing pruned) or as a delta, never whole.
        assert clf._grown is clf.tree_ or type(clf._grown) is GrownDelta, f"seed {seed}"
        kept += type(clf._grown) is GrownDelta
    assert kept >= 5              # the problems do prune


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_grown_tree_of_a_deep_raising_fit(n_jobs):
    # Pruning logs the grown fields it changes (a thread's own log on n_jobs=2,
    # where subtrees are pruned on workers) and the grown tree is made from the
    # pruned buffer and that log: it must be the unpruned fit's, bit for bit.
    X, y = binned(40000)                        # (n_jobs=2: subtrees on the workers)
    X = np.round(X, 1)                          # ties: raised branches re-estimated
    y[::7] = (y[::7] + 3) % 10                  # noise: subtrees pruned and raised
    clf = C45Classifier(n_jobs=n_jobs).fit(X, y)
    assert type(clf._grown) is GrownDelta
    assert_same_bits(clf.grown_tree_, unpruned(dict(n_jobs=n_jobs), X, y, None).tree_)


def binned(n, classes=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 10))
    s = (np.sin(2 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.5 * np.abs(X[:, 3])
         + 0.8 * rng.normal(size=n))
    return X, np.searchsorted(np.quantile(s, np.arange(1, classes) / classes), s)


def held_bytes(clf):
    """Bytes of the numpy arrays the model holds, each once (not grown_tree_,
    which makes a tree)."""
    seen, total, todo = set(), 0, list(vars(clf).values())
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            total += obj.nbytes if obj.base is None else 0
            if obj.base is not None:
                todo.append(obj.base)
        elif isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            todo.extend(vars(obj).values())
    return total


def tree_bytes(t):
    return sum(getattr(t, f).nbytes for f in t._fields)


@pytest.fixture(scope="module")
def pruned_model():
    X, y = binned(20000)
    return C45Classifier().fit(X, y), X, y


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_model_holds_little_beyond_its_final_tree(precision, pruned_model):
    X, y = pruned_model[1:]
    clf = C45Classifier(precision=precision).fit(X, y)
    grown, final = clf.grown_tree_, clf.tree_
    assert grown.node_count > final.node_count
    del grown
    # Two trees would hold about twice the final one (here 1.11 times: a node
    # map and the 3% of grown nodes pruning took; a view keeping a whole grown
    # field alive would add 0.03 to 0.1).
    assert held_bytes(clf) <= 1.15 * tree_bytes(final), (held_bytes(clf), tree_bytes(final))


def test_grown_tree_made_once_while_held(pruned_model):
    clf = pruned_model[0]
    a = clf.grown_tree_
    assert clf.grown_tree_ is a
    assert clf.predict_proba(pruned_model[1][:50], tree="grown").shape == (50, 10)


def test_unpruned_model_keeps_one_tree():
    X, y = binned(3000)
    clf = C45Classifier(pruning=None).fit(X, y)
    assert clf.grown_tree_ is clf.tree_
    back = pickle.loads(pickle.dumps(clf))
    assert back.grown_tree_ is back.tree_


def test_pickle_round_trips_in_either_form(pruned_model):
    clf = pruned_model[0]
    grown = clf.grown_tree_
    data = pickle.dumps(clf)
    back = pickle.loads(data)
    assert type(back._grown) is GrownDelta and back._grown.base is back.tree_
    assert_same_bits(back.grown_tree_, grown)
    assert_same_bits(back.tree_, clf.tree_)
    assert pickle.dumps(back) == data
    # A pickle holding the grown tree whole (c45 before this form) is kept as a delta.
    state = clf.__getstate__()
    state["grown_tree_"] = grown
    whole = object.__new__(C45Classifier)
    whole.__setstate__(pickle.loads(pickle.dumps(state)))
    assert type(whole._grown) is GrownDelta
    assert_same_bits(whole.grown_tree_, grown)
    assert pickle.dumps(whole) == data


def test_model_file_round_trip_keeps_a_delta(pruned_model):
    clf = pruned_model[0]
    back = from_json(to_json(clf))
    assert type(back._grown) is GrownDelta
    assert_same_bits(back.grown_tree_, clf.grown_tree_)
    assert_same_bits(back.tree_, clf.tree_)


def test_prune_again_keeps_the_grown_tree(pruned_model):
    clf, X, y = pruned_model
    clf = pickle.loads(pickle.dumps(clf))
    grown = clf.grown_tree_
    clf.prune(pruning="cost_complexity", ccp_alpha=3.0)
    assert_same_bits(clf.grown_tree_, grown)
    assert type(clf._grown) is GrownDelta and clf._grown.base is clf.tree_
    clf.prune(X, y, pruning="pessimistic")
    assert_same_bits(clf.tree_, pruned_model[0].tree_)
    assert_same_bits(clf.grown_tree_, grown)


def damaged(clf, part):
    """A pickle of clf whose delta has one part changed: part(fields, node_map)
    returns the new (fields, node_map)."""
    d = clf._grown
    fields = {f: kept for f, kept in d.fields.items()}
    fields, node_map = part(fields, d.node_map.copy())

    class Delta:
        def __reduce__(self):
            return (GrownDelta, (d.base, node_map, tuple(fields[f] for f in Tree._fields),
                                 d.errors_f32))
    state = clf.__getstate__()
    state["grown_tree_"] = Delta()

    class As:
        def __reduce__(self):
            return (object.__new__, (C45Classifier,), state)
    return pickle.dumps(As())


def _set(name, part_name, value):
    """Entry 0 of the field's index, or of its loose values, set to value."""
    def part(fields, node_map):
        dense, loose, index, values = fields[name]
        if part_name == "index":
            index = np.array(index)
            index[0] = value
        else:
            loose = np.array(loose)
            loose[0] = value
        fields[name] = (dense, loose, index, values)
        return fields, node_map
    return part


def _repeat(fields, node_map):
    """threshold's index with its first node twice: the delta's values are
    applied in node order, one per node."""
    dense, loose, index, values = fields["threshold"]
    fields["threshold"] = (dense, loose, np.array(index[[0, 0]]), np.array(values[:2]))
    return fields, node_map


def _map(fields, node_map):
    node_map[3] = 10**6
    return fields, node_map


def _dtype(fields, node_map):
    dense, loose, index, values = fields["weight"]
    fields["weight"] = (dense, loose.astype(np.float32), index, values)
    return fields, node_map


@pytest.mark.parametrize("part, message", [
    (_map, r"node_map\[3\] is 1000000"),
    (_dtype, r"weight's loose values is a float32 array"),
    (_set("kind", "index", 10**8), r"kind's index\[0\] is 100000000"),
    (_set("threshold", "index", -1), r"threshold's index\[0\] is -1"),
    (_set("weight", "loose", -1.0), r"grown_tree_: .*weight -1"),
    (_repeat, r"threshold's index\[1\] is \d+, not a node of the grown tree's \d+ "
              r"above index\[0\]"),
])
def test_damaged_delta_is_refused_naming_its_field(pruned_model, part, message):
    data = damaged(pruned_model[0], part)
    with pytest.raises(ValueError, match=message):
        pickle.loads(data)


def test_same_trees_compares_arrays_and_bounds_not_objects():
    """same_trees compared the shapes of two arrays as C pointers, so two
    distinct arrays were never the same (a windowing model's best trial and its
    own tree_ were found different); bounds set one tree apart from another."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0) * 1
    soft = C45Classifier(trials=3, soft_thresholds=True).fit(X, y)
    hard = C45Classifier(trials=3).fit(X, y)
    assert same_trees(hard.tree_, hard.trials_[hard.best_trial_].pruned)
    assert same_trees(soft.tree_, pickle.loads(pickle.dumps(soft.tree_)))
    # the same nodes, one with bounds (fit adds them to the best trial's tree)
    assert not same_trees(soft.tree_, soft.trials_[soft.best_trial_].pruned)
