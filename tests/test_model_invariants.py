"""Loaded trees hold what predict and the exports rely on (c45/_validate_tree.py):
every model fit makes loads (pickle and JSON), and a model whose weights, class
weights, errors, classes or subset maps were tampered with is refused naming the
field and node, whether it comes as JSON (checksum recomputed) or as a pickle."""
import json
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest

from c45 import C45Classifier, C45RulesClassifier, from_json, to_json
from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND, LEAF_KIND, SUBSET_KIND, Tree
from model_files import canonical_checksum, sealed, sealed_format1


def random_data(rng):
    """A small frame of continuous and discrete columns with unknown values."""
    n = int(rng.integers(5, 250))
    cols = {}
    for j in range(int(rng.integers(1, 5))):
        if rng.random() < 0.5:
            c = rng.normal(size=n).round(int(rng.integers(0, 3)))
            c[rng.random(n) < rng.random() * 0.5] = np.nan
            cols[f"c{j}"] = c
        else:
            c = np.array([f"v{x}" for x in rng.integers(0, rng.integers(2, 7), n)],
                         dtype=object)
            c[rng.random(n) < rng.random() * 0.5] = None
            cols[f"d{j}"] = c
    y = rng.integers(0, int(rng.integers(2, 5)), n)
    weights = None
    if rng.random() < 0.4:
        weights = rng.random(n) ** 3 * 5 + 1e-3
    return pd.DataFrame(cols), y, weights


def random_model(seed):
    rng = np.random.default_rng(seed)
    X, y, weights = random_data(rng)
    params = dict(precision=str(rng.choice(["float32", "float64"])),
                  subset_splits=bool(rng.random() < 0.5),
                  min_samples_leaf=int(rng.integers(1, 4)),
                  laplace=bool(rng.random() < 0.2),
                  pruning=[None, "pessimistic", "cost_complexity", "reduced_error"][
                      int(rng.integers(0, 4))])
    if params["pruning"] == "cost_complexity":
        params["ccp_alpha"] = float(rng.random() * 0.02)
    params["random_state"] = int(rng.integers(0, 2 ** 31))   # reduced-error's split
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return C45Classifier(**params).fit(X, y, sample_weight=weights), X


@pytest.mark.parametrize("seed", range(60))
def test_every_fitted_model_loads(seed):
    clf, X = random_model(seed)
    for loaded in (pickle.loads(pickle.dumps(clf)), from_json(to_json(clf))):
        for tree in ("final", "grown"):
            assert np.array_equal(loaded.predict_proba(X, tree=tree),
                                  clf.predict_proba(X, tree=tree))


def test_a_collapsed_leafs_errors_are_rounded_on_its_weights_scale():
    """A subtree collapsed into a float32 leaf keeps its errors' sum: 8.15e-5 at a
    leaf of weight 5.57 whose own training errors are 8.11e-5, one float32 step
    of the weight (4.8e-7) apart. That is fit's rounding, and the model loads
    (it was refused when the tolerance was taken on the errors' own scale)."""
    X, y, weights = random_data(np.random.default_rng(1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = C45Classifier(precision="float32", subset_splits=True,
                            pruning="reduced_error", random_state=551).fit(
                                X, y, sample_weight=weights)
    grown = clf.grown_tree_
    leaf = next(i for i in range(len(grown.weight)) if grown.kind[i] == LEAF_KIND
                and grown.errors[i] > grown.weight[i] - grown.value[i].max()
                + 1e-3 * grown.errors[i])
    assert grown.weight[leaf] > 1
    for loaded in (pickle.loads(pickle.dumps(clf)), from_json(to_json(clf))):
        assert np.array_equal(loaded.predict_proba(X, tree="grown"),
                              clf.predict_proba(X, tree="grown"))


def test_subnormal_weights_load():
    """A model fit on subnormal case weights is a legitimate model."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = C45Classifier(min_samples_leaf=1e-320).fit(X, y, sample_weight=np.full(60, 5e-324))
    for loaded in (pickle.loads(pickle.dumps(clf)), from_json(to_json(clf))):
        assert np.array_equal(loaded.predict_proba(X), clf.predict_proba(X))


# ---------------------------------------------------------------------------
# Tampering: each mutation breaks one invariant of one tree.

@pytest.fixture(scope="module")
def models():
    rng = np.random.default_rng(3)
    n = 300
    a = rng.normal(size=n)
    b = rng.integers(0, 4, size=n)
    c = rng.integers(0, 3, size=n)
    a[rng.random(n) < 0.2] = np.nan
    y = ((a > 0) ^ (b % 2 == 0) ^ (c == 1)).astype(int)
    X = pd.DataFrame({"a": a, "b": np.array(list("pqrs"), dtype=object)[b],
                      "c": np.array(list("xyz"), dtype=object)[c]})
    X.loc[rng.random(n) < 0.1, "b"] = None
    out = {}
    for precision in ("float64", "float32"):
        out[precision, "subset"] = C45Classifier(
            precision=precision, subset_splits=True, pruning=None).fit(X, y)
        out[precision, "plain"] = C45Classifier(precision=precision).fit(X, y)
    for clf in out.values():
        assert clf.tree_.node_count > 5
    return out


def _leaf(t):
    return int(np.flatnonzero((t.kind == LEAF_KIND) & (t.weight > 0))[0])


def _root_child(a, t):
    return int(t.first_child[0])


def _scale_node(a, i, factor):
    a["weight"][i] *= factor
    a["value"][i] *= factor
    a["errors"][i] *= factor


def _discrete_to_empty_subset(a, t):
    """A discrete test turned into a subset test with an all-zero map."""
    i = int(np.flatnonzero(t.kind == DISCRETE_KIND)[0])
    a["kind"][i] = SUBSET_KIND
    a["map_offset"][i] = len(a["value_map"])
    a["value_map"] = np.append(a["value_map"], np.zeros(8, np.int32))
    return i


def _subset_map_zero(a, t):
    i = int(np.flatnonzero(t.kind == SUBSET_KIND)[0])
    o = int(t.map_offset[i])
    a["value_map"][o + 1:o + 6] = 0
    return i


def _class_not_largest(a, t):
    i = int(np.flatnonzero((t.weight > 0) & (t.value.min(axis=1) < t.value.max(axis=1)))[0])
    a["node_class"][i] = int(np.argmin(t.value[i]))
    return i


def _first(t, kind):
    return int(np.flatnonzero(t.kind == kind)[0])


def _set(field, node_of, value):
    def mutate(a, t):
        i = node_of(t)
        a[field][i] = value
        return i
    return mutate


def _shared_subset_map(a, t):
    """The later of two subset tests of one feature and branch count reads the
    earlier one's map."""
    subsets = np.flatnonzero(t.kind == SUBSET_KIND)
    for i in subsets:
        for j in subsets[subsets > i]:
            if t.feature[j] == t.feature[i] and t.n_children[j] == t.n_children[i]:
                a["map_offset"][j] = t.map_offset[i]
                return int(j)
    raise AssertionError("no two subset tests of one feature")


# name: (model, field named, mutation returning the node named)
TAMPERINGS = {
    "threshold at a discrete test": ("plain", "threshold",
                                     _set("threshold", lambda t: _first(t, DISCRETE_KIND), 0.5)),
    "threshold at a leaf": ("plain", "threshold",
                            _set("threshold", lambda t: _first(t, LEAF_KIND), 0.5)),
    "map offset at a continuous test": ("subset", "map_offset",
                                        _set("map_offset", lambda t: _first(t, CONTINUOUS_KIND), 0)),
    "two subset tests sharing a map": ("subset", "map_offset", _shared_subset_map),
    "root weight 5e-324": ("plain", "weight", lambda a, t: (
        a["weight"].__setitem__(0, 5e-324), 0)[1]),
    "leaf class weights 5e-324": ("plain", "value", lambda a, t: (
        a["value"].__setitem__(_leaf(t), 5e-324), _leaf(t))[1]),
    "child heavier than its parent": ("plain", "weight", lambda a, t: (
        _scale_node(a, _root_child(a, t), 4.0), 0)[1]),
    "weight beyond float32": ("plain", "weight", lambda a, t: (
        _scale_node(a, _leaf(t), 1e39 / t.weight[_leaf(t)]), _leaf(t))[1]),
    "class weights summing above the weight": ("plain", "value", lambda a, t: (
        a["value"].__setitem__(_leaf(t), a["value"][_leaf(t)] * 3), _leaf(t))[1]),
    "node_class not a largest class": ("plain", "node_class", _class_not_largest),
    "errors above the weight": ("subset", "errors", lambda a, t: (
        a["errors"].__setitem__(_leaf(t), 3 * t.weight[_leaf(t)] + 1), _leaf(t))[1]),
    "discrete test turned into an empty subset test": ("plain", "value_map",
                                                        _discrete_to_empty_subset),
    "subset branch holding no category": ("subset", "value_map", _subset_map_zero),
}


def tampered(clf, name, tree_name):
    which, field, mutate = TAMPERINGS[name]
    t = getattr(clf, tree_name)
    a = {f: np.array(getattr(t, f)) for f in Tree._fields}
    node = mutate(a, t)
    return a, field, node


def _cases():
    for name, (which, _, _) in sorted(TAMPERINGS.items()):
        for precision in ("float64", "float32"):
            if name == "weight beyond float32" and precision == "float64":
                continue        # float64 holds 1e39
            for tree_name in ("tree_", "grown_tree_"):
                yield name, precision, tree_name


@pytest.mark.parametrize("name,precision,tree_name", list(_cases()))
def test_tampered_pickle_is_refused_naming_the_field(models, name, precision, tree_name):
    clf = models[precision, TAMPERINGS[name][0]]
    arrays, field, node = tampered(clf, name, tree_name)
    state = dict(clf.__getstate__())
    state[tree_name] = Tree(**arrays, n_values=clf._schema.n_values)  # walkable
    blob = pickle.dumps(state)
    with pytest.raises(ValueError, match=rf"{tree_name}: .*\b{field}\[{node}\]"):
        object.__new__(C45Classifier).__setstate__(pickle.loads(blob))


@pytest.mark.parametrize("name,precision,tree_name", list(_cases()))
def test_tampered_json_is_refused_naming_the_field(models, name, precision, tree_name):
    clf = models[precision, TAMPERINGS[name][0]]
    arrays, field, node = tampered(clf, name, tree_name)
    doc = json.loads(to_json(clf))
    key = {"tree_": "final", "grown_tree_": "grown"}[tree_name]
    tree = doc["trees"][key]
    for f, v in arrays.items():
        tree[f] = [None if isinstance(x, float) and np.isnan(x) else x for x in v.tolist()]
    for text in (sealed(doc), sealed_format1(doc)):
        with pytest.raises(ValueError,
                           match=rf"corrupted: trees\.{key}: .*\b{field}\[{node}\]"):
            from_json(text)


def test_rules_model_stored_tree_is_checked():
    from c45.rules import C45RulesClassifier
    X = pd.DataFrame({"a": [0.1, -1.0, 2.0, np.nan] * 10, "b": list("pqrs") * 10,
                      "c": list("xyzx") * 10})
    y = [0, 1, 1, 0] * 10
    rules = C45RulesClassifier().fit(X, y)
    state = rules.__getstate__()
    t = state["grown_tree_"]
    a = {f: np.array(getattr(t, f)) for f in Tree._fields}
    a["weight"][0] = 5e-324
    state["grown_tree_"] = Tree(**a, n_values=t.n_values)
    with pytest.raises(ValueError, match=r"grown_tree_: .*\bweight\[0\]"):
        pickle.loads(pickle.dumps(rules)).__setstate__(state)


# ---------------------------------------------------------------------------
# The model file's own structure: duplicate keys, unknown fields, the checksum.

@pytest.mark.parametrize("where", ["top", "tree", "classes", "feature"])
def test_duplicate_keys_are_refused_naming_the_key(models, where):
    text = to_json(models["float64", "plain"])
    key = {"top": '"precision": "float64"', "tree": '"n_classes": 2',
           "classes": '"dtype": ', "feature": '"kind": "continuous"'}[where]
    assert key in text
    doubled = text.replace(key, key.split(":")[0] + ': "x", ' + key, 1) \
        if where != "top" else text.replace(key, '"precision": "float32", ' + key, 1)
    name = key.split(":")[0].strip('"')
    with pytest.raises(ValueError, match=rf"key '{name}' appears twice"):
        from_json(doubled)


@pytest.mark.parametrize("path", [(), ("classes",), ("trees",), ("trees", "final"),
                                  ("features", 0)])
def test_unknown_fields_are_refused_naming_them(models, path):
    doc = json.loads(to_json(models["float64", "plain"]))
    target = doc
    for p in path:
        target = target[p]
    target["junk"] = [0] * 10
    with pytest.raises(ValueError, match=r"fields the format does not define: 'junk'"):
        from_json(sealed(doc))


def test_digest_is_the_checksum_of_the_canonical_form(models):
    """_digest (taken piece by piece) is format 1's checksum, SHA-256 of the
    whole canonical form: files of format 1 load, and it covers every byte."""
    from c45._serialize import _digest
    for clf in models.values():
        doc = json.loads(to_json(clf))
        doc.pop("checksum")
        doc["trees"]["final"]["weight"] = doc["trees"]["final"]["weight"] * 3000  # long
        assert _digest(doc) == canonical_checksum(doc)


# ---------------------------------------------------------------------------
# Whatever fit accepts in an object column, pickle and JSON keep.

def _mixed_columns():
    from datetime import date
    from decimal import Decimal
    return {
        "bool and int": [True, 2, 3], "int and bool": [1, True], "str and int": ["a", 1],
        "None and str": [None, "a"], "nan and float": [float("nan"), 1.0],
        "numpy ints": [np.int64(1), 2], "numpy floats": [1.5, np.float32(2.5)],
        "bytes": [b"a", b"b"], "bytes and str": [b"a", "b"], "Decimal": [Decimal(1), Decimal(2)],
        "tuple": [(1,), (2,)], "numpy bool and int": [np.bool_(True), 0],
        "date": [date(2020, 1, 1), date(2021, 1, 1)], "np.str_": [np.str_("a"), "b"],
        "numpy longdouble": [np.longdouble(1), np.longdouble(2)],     # .item() keeps it
        "int beyond json's digits": [10 ** 5000, 1],      # json reads <= 4300 digits
    }


@pytest.mark.parametrize("name", sorted(_mixed_columns()))
@pytest.mark.parametrize("frame", [False, True])
def test_object_columns_fit_refuses_or_round_trips(name, frame):
    col = _mixed_columns()[name]
    X = np.empty((12, 1), dtype=object)
    X[:, 0] = (col * 12)[:12]
    if frame:
        X = pd.DataFrame({"c": X[:, 0]})
    y = [0, 1, 1, 0] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            clf = C45Classifier(categorical_features=[0], min_samples_leaf=1).fit(X, y)
        except (ValueError, TypeError) as exc:
            assert "column" in str(exc)
            return
    n_values = len({(type(v) is bool or type(v) is np.bool_, v) for v in col
                    if v is not None and v == v})
    assert len(clf.categories_[0]) == n_values          # True and 1 not merged
    for loaded in (pickle.loads(pickle.dumps(clf)), from_json(to_json(clf))):
        assert np.array_equal(loaded.predict_proba(X), clf.predict_proba(X))
        assert list(loaded.predict(X)) == list(clf.predict(X))


def _targets():
    """y of every dtype and kind of label: fit takes or refuses each."""
    days = np.array(["2020-01-01", "2021-01-01"], dtype="datetime64[D]")
    return {
        "datetime64": days, "timedelta64": np.array([1, 2], dtype="timedelta64[s]"),
        "complex": np.array([1j, 2j]), "longdouble": np.array([1, 2], dtype=np.longdouble),
        "void": np.array([b"a", b"b"], dtype="V1"),
        "structured": np.array([(1,), (2,)], dtype=[("a", int)]),
        "Categorical of dates": pd.Categorical(pd.to_datetime(days)),
        "Categorical of intervals": pd.Categorical(pd.interval_range(0, 2)),
        "float16": np.array([1, 2], dtype=np.float16),
        "uint64": np.array([1, 2 ** 64 - 1], dtype=np.uint64), "bytes": np.array([b"a", b"b"]),
        "nullable Categorical": pd.Series([1, 2], dtype="Int64").astype("category"),
        "Categorical int8": pd.Categorical(np.array([1, 2], dtype=np.int8)),
        "Categorical of a huge int": pd.Categorical([10 ** 5000, 1]),
    }


@pytest.mark.parametrize("name", sorted(_targets()))
@pytest.mark.parametrize("Est", [C45Classifier, C45RulesClassifier])
def test_every_y_fit_takes_pickles_and_saves(name, Est):
    """Dates, durations, complex numbers... as classes: a model file cannot keep
    them (each fitted, pickled, and to_json refused them; a rules model's
    pickle did not load), so fit refuses them naming y."""
    labels = _targets()[name]
    y = labels[[0, 1, 1, 0] * 3]
    X = np.arange(12.0)[:, None]
    try:
        clf = Est(min_samples_leaf=1).fit(X, y)
    except ValueError as exc:
        assert "y" in str(exc).split(":")[0]
        return
    copies = [pickle.loads(pickle.dumps(clf))]
    if Est is C45Classifier:
        copies.append(from_json(to_json(clf)))
    for loaded in copies:
        assert np.array_equal(loaded.predict_proba(X), clf.predict_proba(X))
        assert list(loaded.predict(X)) == list(clf.predict(X))


@pytest.fixture(scope="module")
def cancer_model():
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    return C45Classifier().fit(X, y)


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.__setitem__("laplace", True), "laplace is True but params.laplace"),
    (lambda d: d.__setitem__("precision", "float32"),
     "precision is 'float32' but params.precision"),
    (lambda d: (d.__setitem__("precision", "float32"),
                d["params"].__setitem__("precision", "float32")),
     r"threshold\[\d+\] .* not a float32 number"),
    (lambda d: d["params"].__setitem__("confidence", 7.0), "params: confidence"),
    (lambda d: d["params"].__setitem__("pruning", "bogus"), "params: pruning"),
])
def test_model_file_fields_that_contradict_or_are_invalid_are_refused(cancer_model, edit,
                                                                      match):
    # Each loaded before (checksum made anew): the top-level field silently won
    # over params', a float64 tree walked as float32, a bad parameter failed at
    # the first refit.
    doc = json.loads(to_json(cancer_model))
    edit(doc)
    with pytest.raises(ValueError, match=match):
        from_json(sealed(doc))


# Parameters fit refuses, each in a pickle and a model file of golf (4 columns).
# The last ones fit checks against X: against the model's own features at load.
INVALID_PARAMETERS = [("confidence", 7.0), ("min_samples_leaf", -1), ("laplace", "yes"),
                      ("laplace", 0), ("n_jobs", 0), ("n_jobs", "x"), ("pruning", "bogus"),
                      ("class_weight", {"yes": -1.0}), ("max_features", 0),
                      ("max_features", "bogus"), ("categorical_features", [None]),
                      ("categorical_features", [4]), ("categorical_features", ["nope"]),
                      ("categorical_features", [True, False])]


@pytest.mark.parametrize("name, value", INVALID_PARAMETERS)
def test_pickled_invalid_parameters_are_refused_at_load(name, value):
    clf = C45Classifier().fit(*load_golf_frame())
    state = dict(clf.__getstate__())
    state[name] = value
    with pytest.raises(ValueError, match=f"pickled model's parameters: {name}"):
        C45Classifier.__new__(C45Classifier).__setstate__(state)


@pytest.mark.parametrize("name, value", INVALID_PARAMETERS)
def test_model_file_invalid_parameters_are_refused_at_load(name, value):
    doc = json.loads(to_json(C45Classifier().fit(*load_golf_frame())))
    doc["params"][name] = value
    # (laplace="yes" contradicts the file's laplace before its check is reached)
    with pytest.raises(ValueError, match=f"model file is corrupted: (params: )?{name}|"
                                         f"params.{name} is"):
        from_json(sealed(doc))


def test_model_file_value_of_a_parameter_not_stored_is_refused():
    # It loaded as the default, the value dropped unchecked.
    doc = json.loads(to_json(C45Classifier().fit(*load_golf_frame())))
    doc["params"]["min_samples_leaf"] = -5
    doc["params_not_stored"] = ["min_samples_leaf"]
    with pytest.raises(ValueError, match="params.min_samples_leaf is -5, but "
                                         "params_not_stored lists it"):
        from_json(sealed(doc))
    doc["params"]["min_samples_leaf"] = None        # as to_json writes it
    assert from_json(sealed(doc)).min_samples_leaf == 2


def test_windowing_with_class_weight_is_refused_at_load():
    # Fit refuses trials with class_weight; a pickle or file holding both loaded.
    clf = C45Classifier(trials=2).fit(*load_golf_frame())
    state = dict(clf.__getstate__(), class_weight="balanced")
    with pytest.raises(ValueError, match="parameters: trials .* class_weight='balanced'"):
        C45Classifier.__new__(C45Classifier).__setstate__(state)
    doc = json.loads(to_json(clf))
    doc["params"]["class_weight"] = "balanced"
    with pytest.raises(ValueError, match="params: trials .* class_weight='balanced'"):
        from_json(sealed(doc))


def test_a_pickle_with_its_trees_swapped_is_refused():
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    clf = C45Classifier().fit(X, y)
    state = dict(clf.__getstate__())
    state["tree_"], state["grown_tree_"] = clf.grown_tree_, clf.tree_
    with pytest.raises(ValueError, match="more than its grown_tree_'s"):
        C45Classifier.__new__(C45Classifier).__setstate__(state)


def _foreign_grown_golf():
    """The golf model, and another model's grown tree (humidity read as
    temperature): node 1 of the final tree tests humidity, of that grown tree
    temperature (attack finding 06 of s11)."""
    X, y = load_golf_frame()
    clf = C45Classifier().fit(X, y)
    other = C45Classifier().fit(X.assign(temperature=X["humidity"]), y)
    return clf, other


def test_a_model_whose_grown_tree_is_anothers_is_refused_naming_the_trees():
    # It loaded: predict(tree="grown"), the grown tree's exports and prune()
    # read the other model's tree.
    clf, other = _foreign_grown_golf()
    doc = json.loads(to_json(clf))
    doc["trees"]["grown"] = json.loads(to_json(other))["trees"]["grown"]
    for text in (sealed(doc), sealed_format1(doc)):
        with pytest.raises(ValueError, match=r"corrupted: trees\.final: node 1 is the test "
                           r"feature 2 <= 75\.0, but no node of the grown tree "
                           r"\(trees\.grown\) at or below node 1.*not the grown tree "
                           r"pruned"):
            from_json(text)
    state = dict(clf.__getstate__(), grown_tree_=other.grown_tree_)
    blob = pickle.dumps(state)
    with pytest.raises(ValueError, match=r"pickled model's tree_: node 1 .* no node of the "
                       r"grown tree \(grown_tree_\) at or below node 1"):
        C45Classifier.__new__(C45Classifier).__setstate__(pickle.loads(blob))


def test_a_windowing_trial_whose_grown_tree_is_anothers_is_refused():
    # A pickle keeps every trial's trees; trial 2's grown tree replaced by
    # trial 0's (as many nodes, as its cycles say) loaded.
    import copy
    from c45.datasets import load_r8
    clf = C45Classifier(trials=3).fit(*load_r8("monk1"))
    state = dict(clf.__getstate__())
    trials = list(state["trials_"])
    assert trials[0].grown.node_count == trials[2].grown.node_count
    trials[2] = copy.copy(trials[2])
    trials[2].grown = trials[0].grown
    state["trials_"] = trials
    with pytest.raises(ValueError, match=r"trials_\[2\]\.pruned: node 2 .* no node of the "
                       r"grown tree \(trials_\[2\]\.grown\)"):
        C45Classifier.__new__(C45Classifier).__setstate__(state)


def _raised_nodes(clf):
    """The final tree's tests that stand where the grown tree has another test
    (subtree raising put them there)."""
    final, grown = clf.tree_, clf.grown_tree_
    at = {0: 0}
    out = []
    for f in range(final.node_count):
        g = at.get(f)
        if g is None or final.kind[f] == LEAF_KIND:     # (below a raised test)
            continue
        if (final.feature[f], final.kind[f]) != (grown.feature[g], grown.kind[g]):
            out.append(f)
            continue        # (its branches stand below; not followed)
        for b in range(final.n_children[f]):
            at[final.first_child[f] + b] = grown.first_child[g] + b
    return out


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_models_with_raised_subtrees_load(precision):
    # soybean: subtree raising puts tests of grown nodes below in their parent's
    # place (nodes 61, 80, 85); the load's check of the final tree against the
    # grown one takes them for what they are.
    from c45.datasets import load_r8
    X, y = load_r8("soybean")
    clf = C45Classifier(precision=precision).fit(X, y)
    assert _raised_nodes(clf)
    for loaded in (pickle.loads(pickle.dumps(clf)), from_json(to_json(clf))):
        for tree in ("final", "grown"):
            assert np.array_equal(loaded.predict_proba(X, tree=tree),
                                  clf.predict_proba(X, tree=tree))


def test_windowing_trials_raised_from_a_lighter_branch_load():
    # monk1's windowing trial 1 is pruned on all the cases, grown on its window:
    # a raised test (final node 3) is the grown tree's lighter branch's (node 7,
    # 12 cases, beside node 8 of 13 with the same test). The walk's first host
    # (down the heaviest branches) was node 8, whose branch 0 is a leaf where the
    # final node 3's is a test; the exhaustive search finds node 7 all the same.
    from c45._tree_checks import pruning_exists
    from c45.datasets import load_r8
    X, y = load_r8("monk1")
    clf = C45Classifier(trials=3).fit(X, y)
    n_values = np.ascontiguousarray(clf._schema.n_values, dtype=np.int32)
    for trial in clf.trials_:
        assert pruning_exists(trial.pruned, trial.grown, n_values, 10 ** 6)
    loaded = pickle.loads(pickle.dumps(clf))        # a pickle keeps the trials
    assert len(loaded.trials_) == 3
    assert np.array_equal(loaded.predict_proba(X), clf.predict_proba(X))
    assert from_json(to_json(clf)).tree_.node_count == clf.tree_.node_count
    # and the exhaustive search refuses the golf model of a foreign grown tree
    clf, other = _foreign_grown_golf()
    n_values = np.ascontiguousarray(clf._schema.n_values, dtype=np.int32)
    assert not pruning_exists(clf.tree_, other.grown_tree_, n_values, 10 ** 6)
    assert pruning_exists(clf.tree_, clf.grown_tree_, n_values, 10 ** 6)


def test_a_deep_model_loads_on_a_small_thread_stack():
    # The check walks the two trees with no recursion: a chain of 3,000 levels
    # loads on a thread of 256 KiB of stack (musl's default is 128 KiB).
    import threading
    n = 3000
    X = np.arange(n, dtype=float)[:, None]
    w = 25 * np.exp(12 * (1 - np.arange(n) / n))
    clf = C45Classifier(min_samples_leaf=1, mdl_correction=False,
                        precision="float64").fit(X, np.arange(n) % 2, sample_weight=w)
    assert clf.grown_tree_.max_depth >= n - 1
    blob, text = pickle.dumps(clf), to_json(clf)
    out = []
    old = threading.stack_size(256 << 10)
    try:
        t = threading.Thread(target=lambda: out.append((pickle.loads(blob),
                                                        from_json(text))))
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    assert len(out) == 1
    for loaded in out[0]:
        assert np.array_equal(loaded.tree_.feature, clf.tree_.feature)


def load_golf_frame():
    from c45.datasets import load_golf
    return load_golf()


def test_pickled_rules_with_invalid_parameters_are_refused_at_load():
    from c45 import C45RulesClassifier
    rules = C45RulesClassifier().fit(*load_golf_frame())
    for name, value in (("confidence", 7.0), ("redundancy", -1.0), ("max_features", 0),
                        ("categorical_features", [None]), ("categorical_features", [9])):
        state = dict(rules.__getstate__())
        state[name] = value
        with pytest.raises(ValueError, match=f"pickled model's parameters: {name}"):
            C45RulesClassifier.__new__(C45RulesClassifier).__setstate__(state)


def test_a_pickles_unknown_parameters_are_dropped_with_a_warning_as_a_files_are():
    # A parameter this c45 does not know (a newer c45's) loaded silently as an
    # attribute, unused by the model that holds it. A user's own attributes are
    # kept, as they were.
    import pickle
    import warnings
    from c45 import C45RulesClassifier
    X, y = load_golf_frame()
    for model in (C45Classifier(), C45Classifier().fit(X, y), C45RulesClassifier().fit(X, y)):
        model.note_, model.note = "mine", "mine too"
        state = dict(model.__getstate__())
        state["_pickled_parameters"] += " future_knob"
        state["future_knob"] = "on"
        loaded = type(model).__new__(type(model))
        with pytest.warns(UserWarning, match=r"the pickled c45 model sets parameters this "
                                             r"c45 does not know, ignored: \['future_knob'\]"):
            loaded.__setstate__(state)
        assert "future_knob" not in vars(loaded) and "_pickled_parameters" not in vars(loaded)
        assert (loaded.note_, loaded.note) == ("mine", "mine too")
        if hasattr(model, "classes_"):
            assert np.array_equal(loaded.predict(X), model.predict(X))
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # its own pickle: no warning
            again = pickle.loads(pickle.dumps(loaded))
        data = pickle.dumps(again)
        assert pickle.dumps(pickle.loads(data)) == data
        for bad, match in ((dict(state, _pickled_parameters=["n_jobs"]), "not the parameters' names"),
                           ({**state, 7: 1}, "has a key that is not a name: 7")):
            with pytest.raises(ValueError, match=match):
                type(model).__new__(type(model)).__setstate__(bad)


# -- parameters at load: checked as fit checks them, never a legitimate one refused

def _every_parameter_data():
    rng = np.random.default_rng(7)
    n = 240
    X = pd.DataFrame({"a": rng.normal(size=n).round(2), "b": rng.integers(0, 4, n),
                      "c": rng.choice(["p", "q", "r", "s", "t"], n),
                      "d": rng.normal(size=n)})
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    y = np.where((X["a"] > 0) ^ (X["b"] % 2 == 0), "yes", "no").astype(object)
    y[rng.random(n) < 0.15] = "maybe"
    return X, y


# Every parameter away from its default, in each pruning mode and precision,
# with soft thresholds, subset splits and windowing.
_GROW_AWAY = dict(min_samples_leaf=3, criterion="gain", subset_splits=True,
                  threshold="midpoint", mdl_correction=False, categorical_features=["b"],
                  max_depth=6, min_samples_split=7, max_purity=0.99, min_gain=0.001,
                  max_features=3, random_state=5)
_CLASSIFIER_AWAY = dict(_GROW_AWAY, confidence=0.3, subtree_raising=False, laplace=True,
                        normalize_sample_weight=True, n_jobs=2, keep_training_data=True,
                        class_weight={"yes": 2.0, "no": 1.0, "maybe": 0.5})
LEGAL_MODELS = {
    "pessimistic": dict(_CLASSIFIER_AWAY),
    "pessimistic float32": dict(_CLASSIFIER_AWAY, precision="float32"),
    "soft": dict(_CLASSIFIER_AWAY, soft_thresholds=True, subset_splits=False,
                 categorical_features=[True, True, False, False], max_features="sqrt"),
    "cost_complexity": dict(_CLASSIFIER_AWAY, pruning="cost_complexity", ccp_alpha=0.01,
                            categorical_features=[-3], max_features=0.7),
    "reduced_error float32": dict(_CLASSIFIER_AWAY, pruning="reduced_error",
                                  validation_fraction=0.25, precision="float32",
                                  class_weight="balanced", max_features="log2"),
    "no pruning": dict(_CLASSIFIER_AWAY, pruning=None, categorical_features=None,
                       min_samples_leaf=0.02, min_samples_split=0.1,
                       random_state=np.random.RandomState(3)),
    "windowing": dict(_CLASSIFIER_AWAY, trials=3, initial_window=60, window_increment=15,
                      keep_training_data=False, max_features=None, n_jobs=-1,
                      class_weight=None),
    "rules": dict(_GROW_AWAY, confidence=0.3, redundancy=0.5, fisher=0.2,
                  annealing=True),
    "rules float32": dict(_GROW_AWAY, confidence=0.3, redundancy=2.0, fisher=True,
                          precision="float32", categorical_features=[1]),
}


@pytest.mark.parametrize("name", list(LEGAL_MODELS))
def test_models_of_every_parameter_away_from_its_default_load(name):
    from sklearn.base import clone
    from c45 import C45RulesClassifier
    Est = C45RulesClassifier if name.startswith("rules") else C45Classifier
    X, y = _every_parameter_data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = Est(**LEGAL_MODELS[name]).fit(X, y)
    want = clf.predict_proba(X)
    loaded = [pickle.loads(pickle.dumps(clf))]
    if Est is C45Classifier:
        loaded.append(from_json(to_json(clf)))
    for model in loaded:
        np.testing.assert_array_equal(model.predict_proba(X), want)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clone(model).fit(X, y)          # its parameters refit as they fit


# -- big arrays pickled in parts (c45/_pickling.py) ------------------------------

def _in_parts(monkeypatch):
    import c45._pickling as parts
    monkeypatch.setattr(parts, "PART_BYTES", 64)    # every array of 128 bytes or more
    return parts


def test_big_arrays_pickle_in_parts_and_round_trip_to_the_same_bytes(monkeypatch):
    """A model whose arrays pickle in parts (PART_BYTES made small) loads with
    the same trees and predictions, the grown tree and soft bounds too, and
    pickles again to the same bytes; copy.deepcopy the same."""
    import copy
    parts = _in_parts(monkeypatch)
    rng = np.random.default_rng(3)
    X = rng.random((400, 3)); X[rng.random(X.shape) < 0.1] = np.nan
    y = rng.integers(0, 5, 400)
    for clf in (C45Classifier().fit(X, y), C45Classifier(soft_thresholds=True).fit(X, y),
                C45Classifier(precision="float32").fit(X, y)):
        blob = pickle.dumps(clf)
        assert b"c45._pickling" in blob
        back = pickle.loads(blob)
        assert pickle.dumps(back) == blob
        for other in (back, copy.deepcopy(clf)):
            for f in Tree._fields:
                assert np.array_equal(getattr(other.tree_, f), getattr(clf.tree_, f),
                                      equal_nan=True), f
            assert np.array_equal(other.predict_proba(X), clf.predict_proba(X))
            assert np.array_equal(other.predict_proba(X, tree="grown"),
                                  clf.predict_proba(X, tree="grown"))
    monkeypatch.setattr(parts, "PART_BYTES", 1 << 23)
    assert b"c45._pickling" not in pickle.dumps(clf)    # small arrays: as numpy pickles


@pytest.mark.parametrize("damage, message", [
    (lambda parts: parts[:-1], "covers"),                           # a part missing
    (lambda parts: parts[:1] + parts, "misses bytes or repeats"),   # one twice
    (lambda parts: parts[1:], "misses bytes or repeats"),
])
def test_an_array_in_parts_that_does_not_cover_it_is_refused(monkeypatch, damage, message):
    parts = _in_parts(monkeypatch)
    a = np.arange(100, dtype=np.float64)
    into = parts._empty((100,), "<f8")
    done = [parts._fill(into, start, a.view(np.uint8)[start:start + 64].tobytes())
            for start in range(0, a.nbytes, 64)]
    assert np.array_equal(parts._joined(into, tuple(done)), a)
    with pytest.raises(ValueError, match=message):
        parts._joined(parts._empty((100,), "<f8"), tuple(damage(done)))


def test_an_array_in_parts_of_a_foreign_type_or_place_is_refused(monkeypatch):
    parts = _in_parts(monkeypatch)
    for shape, dtype in [((3,), "|O"), ((3,), "<c16"), ((-1,), "<f8"), ((2, 2, 2), "<f8"),
                         ((1 << 41,), "<f8"), ([3], "<f8")]:
        with pytest.raises(ValueError, match="corrupted.*shape"):
            parts._empty(shape, dtype)
    into = parts._empty((4,), "<f8")
    for start, data in [(-8, bytes(8)), (30, bytes(8)), (0, bytes(40)), (0, "text")]:
        with pytest.raises(ValueError, match="outside it"):
            parts._fill(into, start, data)
