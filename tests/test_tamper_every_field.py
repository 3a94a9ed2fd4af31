"""Every field of a saved model, changed: refused naming it, or of no effect.

Each value of the JSON document of a few small fitted models (every leaf of the
document, every entry of every tree array) is changed several ways (another
type, another value in range, a number scaled, a list's elements swapped,
dropped or repeated, null) and the file sealed again with a correct checksum,
as someone editing it would. The load must then either refuse it with a
ValueError whose message names the field (or the tree it contradicts), or give
a model equivalent to the saved one: the same probabilities on rows with
unknown and unseen values, the same exports, and the same file when saved
again. The exceptions are listed below with their reasons. The same is done
to the state of pickles, C45Classifier's and C45RulesClassifier's.
"""
import copy
import dataclasses
import json
import pickle
import re
import warnings

import numpy as np
import pytest

from c45 import (C45Classifier, C45RulesClassifier, evaluation_table, export_rules,
                 export_text, from_json, to_dict, to_json)
from model_files import sealed

# Fields that may load changed with no effect on prediction or the exports:
# metadata, and the parameters only a refit (fit, prune) reads, changed to
# another value fit takes. A parameter changed to a value fit refuses (on the
# model's own data: _fit_refuses judges) must be refused naming it; those that
# describe the trees (precision, laplace, soft_thresholds, subset_splits,
# pruning and confidence through the errors) are checked against them too.
METADATA = [
    r"c45_version",                 # informative: the release that wrote the file
    r"params\..*",                   # fit-only parameters, to values fit takes
    r"params_not_stored",           # which parameters load as their default
]

# The model's learned values, which no check can tell from other values fit
# could have learned (the data are not in the file): a change makes another
# consistent model, which must itself save and load again.
LEARNED = [
    r"features\.\d+\.categories.*",     # the categories' names and branch order
    r"classes\.values.*",               # the classes' names and order (C4.5's)
    r"trees\.\w+\.threshold\.\d+",      # a cut: any value between its neighbours' data
    r"trees\.\w+\.(lower|upper)\.\d+",  # soft bounds around it
    r"trees\.\w+\.value_map\.\d+",      # which categories a subset branch holds
    r"trees\.\w+\.value\.\d+(\.\d+)?",   # class weights permuted (sums and best class
                                        # kept), or of an empty leaf (weight 0: shown, not read)
    r"trees\.\w+\.node_class\.\d+",     # another class of largest weight (a tie)
]

# Read by nothing: entries of value_map past the last subset map (fit leaves
# unread entries there too, so they cannot be refused as such).
UNREAD = [r"trees\.\w+\.value_map"]

# Pickled rules models: the fit record read by no prediction or report, of the
# training data (not kept): counts and costs.
RULES_LEARNED = [
    r"(rules_|ordered_rules_|candidate_rules_)\.\d+\.(n_covered|n_errors|used|wrong|"
    r"better|worse|error)",
    r"selection_\.\w+\.(empty_cost|cost|selected)(\.\d+)?",
    # the condition-dropping log's record: its counts, steps and dropped positions
    # (a consistent other log), the rules it names (a rejected leaf, or one merged)
    r"pruning_log_\.(errors|total|pess|step_start|dropped|rule)(\.\d+)?",
    r"evaluation_rounds_.*", r"_train_summary.*",
    r"rules_.*",        # a user may assign rules_: checked as fit makes rules, not as these
    r"(ordered_rules_|candidate_rules_)\.\d+\.conditions",   # their order (section 11.3's)
]

# A refusal may name the field the changed one contradicts.
RELATED = {"_pickle_format": "model format", "_default_index": "default_class_",
           "candidate_rules_": "selection_", "declared_classes_": "tree_estimator_"}
# The pickle's names of the learned labels (classes.values, categories).
PICKLED_LABELS = [r"(declared_)?classes_.*", r"categories_.*"]


def _matches(patterns, path):
    text = ".".join(map(str, path))
    return any(re.fullmatch(p, text) for p in patterns)


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    b = rng.integers(0, 4, size=n)
    a[rng.random(n) < 0.1] = np.nan
    y = np.where((a > 0) ^ (b % 2 == 0), "yes", "no").astype(object)
    y[rng.random(n) < 0.1] = "maybe"
    X = np.empty((n, 2), dtype=object)
    X[:, 0] = a
    X[:, 1] = np.array(["p", "q", "r", "s"])[b]
    return X, y


def _probe(X):
    P = X[:30].copy()
    P[0, 0], P[1, 1], P[2, 1], P[3, 0] = np.nan, None, "unseen", 0.0
    return P


MODELS = {
    "float64": dict(),
    "float32": dict(precision="float32"),
    "soft": dict(soft_thresholds=True),
    "subsets": dict(subset_splits=True),
    "windowing": dict(trials=2, random_state=0),
    "reduced_error": dict(pruning="reduced_error", random_state=0),
}


def _fit(Est, **params):
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Est(categorical_features=[1], **params).fit(X, y), X, y


def _fit_refuses(clf, name, value, X, y):
    """Whether fit, given the parameter `name` at value (the others as clf's),
    refuses it on the data clf was fitted on: the judge, apart from c45's load,
    of a changed parameter."""
    params = dict(clf.get_params(deep=False), **{name: value})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            type(clf)(**params).fit(X, y)
    except (TypeError, ValueError):
        return True
    return False


def _observed(clf, X, y):
    """What a user sees of a C45Classifier."""
    P = _probe(X)
    out = {"proba": clf.predict_proba(P).tobytes(), "predict": clf.predict(P).tolist(),
           "classes": (clf.classes_.tolist(), clf.declared_classes_.tolist()),
           "evaluation": evaluation_table(clf, X, y)}
    for tree in ("final", "grown"):
        out["text " + tree] = export_text(clf, tree=tree, show_weights=True, decimals=17)
        out["dict " + tree] = repr(to_dict(clf, tree=tree, weights=True))
    return out


def _resaved(clf):
    doc = json.loads(to_json(clf))
    del doc["checksum"]
    return doc


def _leaves(v, path=()):
    """(path, value) of every value of a JSON document, lists too."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _leaves(x, path + (k,))
        return
    if isinstance(v, list):
        yield path, v
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))
        return
    yield path, v


def _mutations(v):
    if isinstance(v, list):
        out = [("empty", [])]
        if v:
            out.append(("repeat", v + [v[-1]]))
        if len(v) >= 2:
            out.append(("drop", v[:-1]))
            swapped = [v[-1]] + v[1:-1] + [v[0]]
            if swapped != v:
                out.append(("swap", swapped))
        return out
    if isinstance(v, bool):
        return [("not", not v), ("int", int(v)), ("null", None)]
    if isinstance(v, int):
        return [("+1", v + 1), ("-1", v - 1), ("half", v + 0.5), ("text", str(v)),
                ("null", None)]
    if isinstance(v, float):
        return [("x1.5", v * 1.5 if v else 1.0), ("x0.5", v * 0.5 if v else 0.25),
                ("negated", -v if v else -1.0), ("text", "1"), ("null", None)]
    if isinstance(v, str):
        return [("other", v + "x"), ("empty", ""), ("int", 1), ("null", None)]
    if v is None:
        return [("zero", 0), ("text", "x")]
    return []


def _set(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def _names_the_field(msg, path):
    """The message names a key of the path, or the tree the change contradicts."""
    keys = [k for k in path if isinstance(k, str)]
    if path[0] == "trees":
        return f"trees.{path[1]}" in msg
    if path[0] in ("params", "features") and "trees." in msg:
        return True         # a parameter or feature its tree contradicts
    if path[0] == "params" and len(path) > 1:
        keys = [path[1]]    # the parameter, not only "params"
    return any(k in msg or k.replace("_", " ") in msg for k in keys)


def _load(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_json(text)


def _outcomes_of_json(clf, X, y):
    """Per change: None (passed) or what went wrong."""
    want, doc = _observed(clf, X, y), json.loads(to_json(clf))
    saved = _resaved(clf)
    problems = []
    for path, value in list(_leaves(doc)):
        if path == ("checksum",) or path == ():
            continue
        for how, new in _mutations(value):
            if path[0] == "trees" and len(path) > 3 and how == "text":
                continue        # the tree arrays' types: null stands for them (time)
            changed = copy.deepcopy(doc)
            _set(changed, path, new)
            where = f"{'.'.join(map(str, path))} {how}"
            try:
                loaded = _load(sealed(changed))
            except ValueError as exc:
                if not _names_the_field(str(exc), path):
                    problems.append(f"{where}: refused without naming it: {exc}")
                continue
            if (path[0] == "params" and len(path) > 1
                    and path[1] not in changed["params_not_stored"]
                    and _fit_refuses(clf, path[1], changed["params"][path[1]], X, y)):
                problems.append(f"{where}: loaded, though fit refuses it")
                continue
            if _matches(LEARNED + UNREAD, path):
                again = _load(to_json(loaded))      # another model, consistent
                if _observed(again, X, y) != _observed(loaded, X, y):
                    problems.append(f"{where}: loaded, but does not save and load again")
                continue
            got = _observed(loaded, X, y)
            differ = [k for k in want if got[k] != want[k]]
            if differ:
                problems.append(f"{where}: loaded with another {', '.join(differ)}")
            elif _resaved(loaded) != saved and not _matches(METADATA, path):
                problems.append(f"{where}: loaded, and saved again differs")
    return problems


@pytest.mark.parametrize("name", list(MODELS))
def test_every_field_of_a_model_file_changed(name):
    clf, X, y = _fit(C45Classifier, **MODELS[name])
    problems = _outcomes_of_json(clf, X, y)
    assert not problems, "\n".join(problems[:30])


# ---------------------------------------------------------------------------
# Pickles: the state dict __setstate__ checks.

def _state_leaves(state, skip):
    """(path, value) of the plain values in a pickled state (dicts, lists,
    tuples, numpy arrays of numbers, dataclasses), but the keys in skip."""
    def walk(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                if path or k not in skip:
                    yield from walk(x, path + (k,))
        elif isinstance(v, (list, tuple)):
            yield path, v
            for i, x in enumerate(v):
                yield from walk(x, path + (i,))
        elif hasattr(v, "__dataclass_fields__"):
            for k in v.__dataclass_fields__:
                yield from walk(getattr(v, k), path + (k,))
        elif isinstance(v, np.ndarray) and v.dtype.kind in "biufUO" and v.ndim == 1:
            yield path, v
            for i, x in enumerate(v.tolist()):
                yield from walk(x, path + (i,))
        elif v is None or isinstance(v, (bool, int, float, str, np.generic)):
            yield path, v
    yield from walk(state, ())


def _replaced(v, path, new):
    """v with the value at path replaced by new (copies along the path)."""
    if not path:
        return new
    k, rest = path[0], path[1:]
    if isinstance(v, dict):
        return {**v, k: _replaced(v[k], rest, new)}
    if isinstance(v, np.ndarray):
        out = v.copy().tolist()
        out[k] = _replaced(out[k], rest, new)
        try:
            return np.asarray(out, dtype=v.dtype)
        except (TypeError, ValueError):
            return np.asarray(out, dtype=object)
    if isinstance(v, (list, tuple)):
        out = list(v)
        out[k] = _replaced(out[k], rest, new)
        return type(v)(out)
    return dataclasses.replace(v, **{k: _replaced(getattr(v, k), rest, new)})


def _state_mutations(v):
    if isinstance(v, np.ndarray):
        return [(how, np.asarray(new, dtype=v.dtype)) for how, new in _mutations(v.tolist())]
    if isinstance(v, tuple):
        return [(how, tuple(new)) for how, new in _mutations(list(v))]
    if isinstance(v, np.generic):
        return _mutations(v.item())
    return _mutations(v)


def _observed_rules(clf, X, y):
    P = _probe(X)
    return {"proba": clf.predict_proba(P).tobytes(), "predict": clf.predict(P).tolist(),
            "rules": export_rules(clf), "evaluation": export_rules(clf, evaluation=True),
            "record": repr((clf.selection_, clf.class_order_, list(clf.pruning_log_),
                            clf.attribute_bits_.tolist(), clf.attribute_test_bits_,
                            clf.candidate_rules_, clf.ordered_rules_, clf.rules_,
                            clf.dropped_rules_, clf.evaluation_rounds_))}


def _outcomes_of_pickle(clf, X, y, observed, skip, learned):
    Est = type(clf)
    state = clf.__getstate__()
    want = observed(clf, X, y)
    params = set(clf.get_params(deep=False))
    problems = []
    for path, value in list(_state_leaves(state, skip)):
        for how, new in _state_mutations(value):
            where = f"{'.'.join(map(str, path))} {how}"
            try:
                changed = _replaced(state, path, new)
            except (TypeError, ValueError):
                continue            # not a value this field can hold
            fresh = Est.__new__(Est)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fresh.__setstate__(changed)
            except ValueError as exc:
                keys = [k for k in path if isinstance(k, str)]
                keys += [RELATED[k] for k in keys if k in RELATED]
                if path[0] in params:       # a parameter its tree contradicts
                    keys += ["tree_"]
                if not any(k.strip("_") in str(exc) for k in keys):
                    problems.append(f"{where}: refused without naming it: {exc}")
                continue
            if path[0] in params:   # a fit-only parameter: to a value fit takes
                if _fit_refuses(clf, path[0], changed[path[0]], X, y):
                    problems.append(f"{where}: loaded, though fit refuses it")
                continue
            if _matches(learned, path):     # another model, consistent
                again = pickle.loads(pickle.dumps(fresh))
                if not np.array_equal(again.predict_proba(_probe(X)),
                                      fresh.predict_proba(_probe(X))):
                    problems.append(f"{where}: loaded, but does not pickle and load again")
                continue
            try:
                got = observed(fresh, X, y)
            except Exception as exc:          # noqa: BLE001 - reported as a failure
                problems.append(f"{where}: loaded, then failed: {exc!r}")
                continue
            differ = [k for k in want if got[k] != want[k]]
            if differ:
                problems.append(f"{where}: loaded with another {', '.join(differ)}")
    return problems


# The trees' arrays in a pickle are checked by the same compiled pass as a
# model file's (test_hardening.py tampers them); here the rest of the state.
_TREES = {"tree_", "grown_tree_", "_schema", "trials_", "tree_estimator_"}


def test_every_field_of_a_pickled_classifier_changed():
    clf, X, y = _fit(C45Classifier, trials=2, random_state=0)
    problems = _outcomes_of_pickle(clf, X, y, _observed, _TREES, LEARNED + PICKLED_LABELS)
    assert not problems, "\n".join(problems[:30])


def test_every_field_of_a_pickled_rules_model_changed():
    clf, X, y = _fit(C45RulesClassifier)
    learned = RULES_LEARNED + PICKLED_LABELS
    problems = _outcomes_of_pickle(clf, X, y, _observed_rules, _TREES, learned)
    assert not problems, "\n".join(problems[:30])
